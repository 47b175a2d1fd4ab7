/* A KSP with PCSBPMG reused on another operator (issue 22, item 2): after a solve on A1, KSPSetOperators(ksp, A2, A2) with A2 of the
   same size and other coefficients (mapping, mu), other boundary conditions (all faces Neumann among them), or (after KSPReset(), as
   PETSc requires for any PC) another size, then back to A1. Each solve is compared with a fresh KSP on the same operator: the same iterations, the same
   solution to 1e-10, and the true residual ||b - A x|| / ||b|| below the tolerance; in the fp64 and the fp32 V-cycle. On one and on two ranks. */
#include "test_sbp_common.h"

static const char help[] = "Tests of a reused KSP + sbpmg on new operators (src/mg).\n";

static const PetscReal rtol = 1e-10;

typedef struct {
  PetscInt       Nr, Ns;
  const char    *bc;
  SbpMappingType map;
  SbpMuType      mu;
  PetscReal      mu_value;
} Operator;

static SbpProblem make_problem(const Operator *o)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(PETSC_COMM_WORLD, &p));
  PCALL(SbpProblemSetSizes(p, o->Nr, o->Ns));
  PCALL(SbpProblemSetMapping(p, o->map));
  PCALL(SbpProblemSetMu(p, o->mu, o->mu_value));
  for (PetscInt f = 0; f < 4; f++) PCALL(SbpProblemSetBC(p, f + 1, o->bc[f] == 'D' ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN));
  PCALL(SbpProblemSetBackend(p, SBP_BACKEND_DEVICE));
  PCALL(SbpProblemSetUp(p));
  return p;
}

static KSP make_solver(Mat A)
{
  KSP ksp = SbpTestMGCG(A, rtol, 100);

  PCALL(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED)); /* the tolerance on ||b - A x|| */
  PCALL(KSPSetFromOptions(ksp));
  return ksp;
}

/* Solve s's system with ksp (already on s->A): iterations; fails unless converged and the true residual meets the tolerance. */
static PetscInt solve_checked(KSP ksp, SbpTestSystem *s, const char *what)
{
  KSPConvergedReason reason;
  PetscInt           its;
  PetscReal          res;

  PCALL(VecSet(s->u, 0));
  PCALL(KSPSolve(ksp, s->g, s->u));
  PCALL(KSPGetIterationNumber(ksp, &its));
  PCALL(KSPGetConvergedReason(ksp, &reason));
  res = SbpTestTrueResidual(s->A, s->g, s->u);
  if (reason <= 0) fail_msg("%s: CG + sbpmg did not converge (%s) in %d iterations", what, KSPConvergedReasons[reason], (int)its);
  if (!(res < 2 * rtol)) fail_msg("%s: CG reports convergence in %d iterations but ||b - A x|| / ||b|| = %g", what, (int)its, res);
  return its;
}

/* ksp, set up and used on another operator, now on s's: the same as a fresh KSP there. */
static void compare_with_fresh(KSP ksp, SbpTestSystem *s, const char *what)
{
  SbpTestSystem fresh = *s;
  PetscInt      its, its_fresh;
  PetscReal     diff;
  Vec           u;

  its = solve_checked(ksp, s, what);
  PCALL(VecDuplicate(s->u, &u));
  PCALL(VecCopy(s->u, u));
  fresh.ksp = make_solver(s->A);
  its_fresh = solve_checked(fresh.ksp, &fresh, what);
  diff      = SbpmgTestRelDiffNorm(u, s->u, NORM_2);
  print_message("  %s: %d iterations reused, %d fresh; solutions differ by %.2e (relative)\n", what, (int)its, (int)its_fresh, diff);
  if (its != its_fresh) fail_msg("%s: %d iterations with the reused KSP against %d with a fresh one", what, (int)its, (int)its_fresh);
  if (!(diff < 1e-10)) fail_msg("%s: the reused KSP's solution differs from a fresh one's by %g", what, diff);
  PCALL(KSPDestroy(&fresh.ksp));
  PCALL(VecDestroy(&u));
}

static void run_sequence(const char *precision)
{
  const Operator ops[] = {
      {64, 64, "DDNN", SBP_MAPPING_CURVED, SBP_MU_BASIN, 1},    /* A1 */
      {64, 64, "DDNN", SBP_MAPPING_SQUARE, SBP_MU_CONSTANT, 3}, /* other mapping and mu */
      {64, 64, "NDDN", SBP_MAPPING_CURVED, SBP_MU_BASIN, 1},    /* other boundary conditions */
      {64, 64, "NNNN", SBP_MAPPING_CURVED, SBP_MU_BASIN, 1},    /* all faces Neumann: singular, the pinned coarse solve */
      {96, 48, "DDND", SBP_MAPPING_CURVED, SBP_MU_BASIN, 1},    /* other size (other levels) */
      {64, 64, "DDNN", SBP_MAPPING_CURVED, SBP_MU_BASIN, 1},    /* back to A1's problem, other size again */
  };
  const char   *names[] = {"A1", "other mapping and mu", "other boundary conditions", "all faces Neumann", "other size", "A1 again"};
  const int     n       = (int)(sizeof(ops) / sizeof(ops[0]));
  SbpTestSystem s[6];
  KSP           ksp;
  char          what[128];

  SbpmgTestSetOption("-pc_sbpmg_precision", precision);
  for (int k = 0; k < n; k++) SbpTestSystemCreate(make_problem(&ops[k]), PETSC_FALSE, &s[k]);
  ksp = make_solver(s[0].A);
  (void)solve_checked(ksp, &s[0], "A1");
  for (int k = 1; k < n; k++) {
    PetscBool resized = ops[k].Nr != ops[k - 1].Nr || ops[k].Ns != ops[k - 1].Ns;
    PCALL(PetscSNPrintf(what, sizeof(what), "%s (%s V-cycle)", names[k], precision));
    if (resized) { /* PETSc: a PC keeps its operator's sizes until reset */
      EXPECT_ERROR(KSPSetOperators(ksp, s[k].A, s[k].A), PETSC_ERR_ARG_SIZ, "Cannot change local size of Amat after use");
      PCALL(KSPReset(ksp));
    }
    PCALL(KSPSetOperators(ksp, s[k].A, s[k].A));
    compare_with_fresh(ksp, &s[k], what);
  }
  PCALL(KSPDestroy(&ksp));
  for (int k = 0; k < n; k++) SbpTestSystemDestroy(&s[k]);
  SbpmgTestSetOption("-pc_sbpmg_precision", NULL);
}

static void test_reuse_double(void **state)
{
  run_sequence("double");
}

static void test_reuse_single(void **state)
{
  run_sequence("single");
}

/* The same operator again, or the same matrix after KSPSetOperators: the hierarchy is kept (PCSetUp does not rebuild it). */
static void test_same_operator_kept(void **state)
{
  const Operator o = {64, 64, "DDNN", SBP_MAPPING_CURVED, SBP_MU_BASIN, 1};
  SbpTestSystem  s;
  PC             pc;
  Mat            A0;
  PetscInt       its0, its1;

  SbpTestSystemCreate(make_problem(&o), PETSC_FALSE, &s);
  s.ksp = make_solver(s.A);
  its0  = solve_checked(s.ksp, &s, "first");
  PCALL(KSPGetPC(s.ksp, &pc));
  A0 = PCSBPMGGetContext(pc)->ops[1];
  PCALL(KSPSetOperators(s.ksp, s.A, s.A));
  its1 = solve_checked(s.ksp, &s, "same operator");
  if (PCSBPMGGetContext(pc)->ops[1] != A0) fail_msg("the hierarchy was rebuilt for the same operator");
  if (its0 != its1) fail_msg("%d iterations after KSPSetOperators with the same operator, %d before", (int)its1, (int)its0);
  { /* another matrix of the same problem (the assembled one) as the preconditioning matrix: the same hierarchy; then as the operator (with
       a new preconditioning matrix, or PCSetUp() would not run): PCMG's finest residual is that matrix */
    PC_MG   *mg = (PC_MG *)pc->data;
    Mat      B, A = s.A;
    PetscInt its2, its3;
    PCALL(SbpProblemCreateAssembledOperator(s.p, &B));
    PCALL(KSPSetOperators(s.ksp, A, B));
    its2 = solve_checked(s.ksp, &s, "the assembled operator of the same problem as the preconditioning matrix");
    if (PCSBPMGGetContext(pc)->ops[1] != A0) fail_msg("the hierarchy was rebuilt for another matrix of the same problem");
    PCALL(KSPSetOperators(s.ksp, B, A));
    s.A  = B;
    its3 = solve_checked(s.ksp, &s, "the assembled operator of the same problem as the operator");
    s.A  = A;
    if (mg->levels[mg->nlevels - 1]->A != B) fail_msg("the finest level's residual is not the new operator");
    if (PetscAbsInt(its2 - its0) > 1 || PetscAbsInt(its3 - its0) > 1)
      fail_msg("%d and %d iterations with the assembled operator, %d with the matrix-free one", (int)its2, (int)its3, (int)its0);
    PCALL(MatDestroy(&B));
  }
  SbpTestSystemDestroy(&s);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_reuse_double),
    cmocka_unit_test(test_reuse_single),
    cmocka_unit_test(test_same_operator_kept),
};

SBPMG_TEST_MAIN(help, tests)
