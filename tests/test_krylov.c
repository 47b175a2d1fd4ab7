/* The device-resident CG (issue 35, src/krylov, KSPSBPCG): against PETSc's KSPCG on the same operator and preconditioner (the same
   residual history, iterations and solution) for every norm type, sbpmg in fp64 and fp32, no preconditioner, a nonzero initial guess,
   all-Neumann, several ranks; the stopping rules; an indefinite operator and preconditioner; bad input. */
#include "test_sbp_common.h"
#include <sbpmg/private/krylovimpl.h>

static const char help[] = "Tests of the device-resident CG (src/krylov, kernels/krylov.cl).\n";

/* One solve of A x = b by ksp type `type` (PC pc_type, norm type, initial guess x0 or zero): the residual history, iterations,
   reason, solution. */
typedef struct {
  PetscReal          hist[256];
  PetscInt           nhist, its;
  KSPConvergedReason reason;
  Vec                x;
} Run;

static void solve(Mat A, Vec b, Vec x0, const char *type, const char *pctype, KSPNormType norm, const char *prec, Run *run)
{
  KSP ksp;
  PC  pc;

  PCALL(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PCALL(KSPSetOperators(ksp, A, A));
  PCALL(KSPSetType(ksp, type));
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCSetType(pc, pctype));
  if (!strcmp(pctype, PCSBPMG)) PCALL(PCSBPMGSetCoarseSize(pc, 17));
  PCALL(KSPSetNormType(ksp, norm));
  PCALL(KSPSetTolerances(ksp, 1e-9, 1e-50, PETSC_DEFAULT, 200));
  PCALL(KSPSetResidualHistory(ksp, run->hist, 256, PETSC_TRUE));
  SbpmgTestSetOption("-pc_sbpmg_precision", prec);
  PCALL(KSPSetFromOptions(ksp));
  SbpmgTestSetOption("-pc_sbpmg_precision", NULL);
  PCALL(VecDuplicate(b, &run->x));
  if (x0) {
    PCALL(VecCopy(x0, run->x));
    PCALL(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE));
  }
  PCALL(KSPSolve(ksp, b, run->x));
  PCALL(KSPGetIterationNumber(ksp, &run->its));
  PCALL(KSPGetConvergedReason(ksp, &run->reason));
  {
    const PetscReal *h;
    PCALL(KSPGetResidualHistory(ksp, &h, &run->nhist));
  }
  PCALL(KSPDestroy(&ksp));
}

/* sbpcg's run against cg's: the same reason and iterations, residual histories to tol relative (of the first), solutions to tol (the
   dot products' sums are ordered differently: the histories part by rounding). */
static void compare_runs(const char *what, Run *cg, Run *d, PetscReal tol)
{
  PetscReal dh = 0, xn, dx;

  if (cg->reason != d->reason || cg->its != d->its || cg->nhist != d->nhist)
    fail_msg("%s: cg %s in %d iterations (%d norms), sbpcg %s in %d (%d)", what, KSPConvergedReasons[cg->reason], (int)cg->its, (int)cg->nhist,
             KSPConvergedReasons[d->reason], (int)d->its, (int)d->nhist);
  for (PetscInt k = 0; k < cg->nhist; k++) dh = PetscMax(dh, PetscAbsReal(cg->hist[k] - d->hist[k]) / (cg->hist[0] > 0 ? cg->hist[0] : 1));
  PCALL(VecNorm(cg->x, NORM_2, &xn));
  PCALL(VecAXPY(d->x, -1.0, cg->x));
  PCALL(VecNorm(d->x, NORM_2, &dx));
  print_message("  %s: %d iterations, %s; histories differ by %.1e, solutions by %.1e\n", what, (int)cg->its, KSPConvergedReasons[cg->reason], dh,
                xn > 0 ? dx / xn : dx);
  if (!(dh <= tol)) fail_msg("%s: the residual histories differ by %g", what, dh);
  if (!(dx <= tol * xn)) fail_msg("%s: the solutions differ by %g relative", what, dx / xn);
  PCALL(VecDestroy(&cg->x));
  PCALL(VecDestroy(&d->x));
}

/* The problem's system: A, b (random, made compatible where all faces are Neumann) and a random x0. */
static void make_system(MPI_Comm comm, PetscInt N, const char *bc, SbpProblem *p, Mat *A, Vec *b, Vec *x0)
{
  *p = SbpTestProblem(comm, N, N, bc, SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL);
  PCALL(SbpProblemCreateOperator(*p, A));
  PCALL(MatCreateVecs(*A, x0, b));
  SbpmgTestFillRandom(*b, 3);
  SbpmgTestFillRandom(*x0, 4);
  if (!strcmp(bc, "NNNN")) {
    MatNullSpace ns;
    PCALL(MatGetNullSpace(*A, &ns));
    PCALL(MatNullSpaceRemove(ns, *b));
  }
}

static void check_same_as_cg(MPI_Comm comm)
{
  static const struct {
    const char *bc, *pc, *prec;
    KSPNormType norm;
    PetscBool   guess;
    PetscInt    N;
  } cases[] = {
      {"DDNN", PCSBPMG, "double", KSP_NORM_PRECONDITIONED, PETSC_FALSE, 48},   {"DDNN", PCSBPMG, "double", KSP_NORM_UNPRECONDITIONED, PETSC_FALSE, 48},
      {"DDNN", PCSBPMG, "double", KSP_NORM_NATURAL, PETSC_FALSE, 48},          {"DDNN", PCSBPMG, "single", KSP_NORM_UNPRECONDITIONED, PETSC_TRUE, 48},
      {"NNNN", PCSBPMG, "double", KSP_NORM_UNPRECONDITIONED, PETSC_FALSE, 48}, {"DDDD", PCNONE, "double", KSP_NORM_UNPRECONDITIONED, PETSC_TRUE, 8},
  };

  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    SbpProblem p;
    Mat        A;
    Vec        b, x0;
    Run        r[2];
    char       what[128];
    make_system(comm, cases[c].N, cases[c].bc, &p, &A, &b, &x0);
    for (int q = 0; q < 2; q++) solve(A, b, cases[c].guess ? x0 : NULL, q ? KSPSBPCG : KSPCG, cases[c].pc, cases[c].norm, cases[c].prec, &r[q]);
    PCALL(PetscSNPrintf(what, sizeof(what), "%s, %s, %s, %s norm%s, %d rank(s)", cases[c].bc, cases[c].pc, cases[c].prec, KSPNormTypes[cases[c].norm],
                        cases[c].guess ? ", nonzero guess" : "", SbpTestWorldSize()));
    compare_runs(what, &r[0], &r[1], 1e-10);
    SbpmgTestDestroyVecs(&b, &x0, NULL);
    PCALL(MatDestroy(&A));
    PCALL(SbpProblemDestroy(&p));
  }
}

static void test_same_as_cg(void **state)
{
  check_same_as_cg(PETSC_COMM_WORLD);
}

/* The stopping rules: max_it (DIVERGED_ITS after exactly max_it iterations), atol (CONVERGED_ATOL), a zero right-hand side (converged
   at iteration 0, x = 0). */
static void test_limits(void **state)
{
  SbpProblem         p;
  Mat                A;
  Vec                b, x0, x;
  KSP                ksp;
  PetscInt           its;
  PetscReal          xn;
  KSPConvergedReason reason;

  make_system(PETSC_COMM_WORLD, 32, "DDNN", &p, &A, &b, &x0);
  PCALL(VecDuplicate(b, &x));
  for (int c = 0; c < 3; c++) {
    PCALL(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PCALL(KSPSetOperators(ksp, A, A));
    PCALL(KSPSetType(ksp, KSPSBPCG));
    PCALL(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
    if (c == 0) PCALL(KSPSetTolerances(ksp, 1e-14, 1e-50, PETSC_DEFAULT, 3));
    if (c == 1) PCALL(KSPSetTolerances(ksp, 1e-30, 1e-3, PETSC_DEFAULT, 500));
    if (c == 2) PCALL(VecZeroEntries(b));
    PCALL(KSPSolve(ksp, b, x));
    PCALL(KSPGetIterationNumber(ksp, &its));
    PCALL(KSPGetConvergedReason(ksp, &reason));
    print_message("  case %d: %s after %d iterations\n", c, KSPConvergedReasons[reason], (int)its);
    if (c == 0 && (reason != KSP_DIVERGED_ITS || its != 3)) fail_msg("max_it 3: %s after %d iterations", KSPConvergedReasons[reason], (int)its);
    if (c == 1 && reason != KSP_CONVERGED_ATOL) fail_msg("atol 1e-3: %s", KSPConvergedReasons[reason]);
    if (c == 2) {
      PCALL(VecNorm(x, NORM_2, &xn));
      if (reason <= 0 || its != 0 || xn != 0) fail_msg("b = 0: %s after %d iterations, |x| %g", KSPConvergedReasons[reason], (int)its, xn);
    }
    PCALL(KSPDestroy(&ksp));
  }
  SbpmgTestDestroyVecs(&b, &x0, &x, NULL);
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

/* y = -A x (negative definite), or y = NaN A x (ctx: the operator and the scale) */
typedef struct {
  Mat       A;
  PetscReal scale;
} Scaled;

static PetscErrorCode MatMult_Scaled(Mat N, Vec x, Vec y)
{
  Scaled *s;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(N, &s));
  PetscCall(MatMult(s->A, x, y));
  PetscCall(VecScale(y, s->scale));
  PetscFunctionReturn(0);
}

/* A negative definite operator: sbpcg converges as cg does (the same history); an operator that gives NaN: DIVERGED_NANORINF with x
   untouched (the update is skipped). */
static void test_other_operators(void **state)
{
  SbpProblem p;
  Mat        A, N;
  Vec        b, x0;
  PetscInt   n, Ng;
  Scaled     sc;

  make_system(PETSC_COMM_WORLD, 16, "DDNN", &p, &A, &b, &x0);
  PCALL(MatGetLocalSize(A, &n, NULL));
  PCALL(MatGetSize(A, &Ng, NULL));
  sc.A = A;
  PCALL(MatCreateShell(PETSC_COMM_WORLD, n, n, Ng, Ng, &sc, &N));
  PCALL(MatShellSetOperation(N, MATOP_MULT, (void (*)(void))MatMult_Scaled));
  PCALL(MatShellSetVecType(N, VECOPENCL));
  for (int c = 0; c < 2; c++) {
    Run       r[2];
    PetscReal xn;
    sc.scale = c ? NAN : -1.0;
    for (int q = 0; q < 2; q++) solve(N, b, NULL, q ? KSPSBPCG : KSPCG, PCNONE, KSP_NORM_UNPRECONDITIONED, "double", &r[q]);
    if (!c) {
      compare_runs("-A", &r[0], &r[1], 1e-10);
      continue;
    }
    PCALL(VecNorm(r[1].x, NORM_2, &xn));
    print_message("  NaN A: cg %s, sbpcg %s after %d iterations, |x| %g\n", KSPConvergedReasons[r[0].reason], KSPConvergedReasons[r[1].reason], (int)r[1].its,
                  xn);
    if (r[1].reason != KSP_DIVERGED_NANORINF || r[0].reason != KSP_DIVERGED_NANORINF)
      fail_msg("NaN A: sbpcg %s, cg %s", KSPConvergedReasons[r[1].reason], KSPConvergedReasons[r[0].reason]);
    if (xn != 0) fail_msg("NaN A: sbpcg changed x (|x| %g)", xn);
    SbpmgTestDestroyVecs(&r[0].x, &r[1].x, NULL);
  }
  SbpmgTestDestroyVecs(&b, &x0, NULL);
  PCALL(MatDestroy(&N));
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

/* The identity preconditioner that counts its applications. */
static PetscErrorCode PCApply_Count(PC pc, Vec x, Vec y)
{
  PetscInt *count;

  PetscFunctionBeginUser;
  PetscCall(PCShellGetContext(pc, &count));
  (*count)++;
  PetscCall(VecCopy(x, y));
  PetscFunctionReturn(0);
}

/* With the unpreconditioned norm the preconditioner runs as often as in KSPCG: once per iteration (the residual is tested before z is
   made), none at all for an initial guess that meets the test. */
static void test_applies(void **state)
{
  SbpProblem p;
  Mat        A;
  Vec        b, x0, x;
  PetscInt   its[2][2], applies[2][2];

  make_system(PETSC_COMM_WORLD, 24, "DDNN", &p, &A, &b, &x0);
  PCALL(VecDuplicate(b, &x));
  for (int q = 0; q < 2; q++) {
    KSP ksp;
    PC  pc;
    PCALL(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PCALL(KSPSetOperators(ksp, A, A));
    PCALL(KSPSetType(ksp, q ? KSPSBPCG : KSPCG));
    PCALL(KSPGetPC(ksp, &pc));
    PCALL(PCSetType(pc, PCSHELL));
    PCALL(PCShellSetApply(pc, PCApply_Count));
    PCALL(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
    PCALL(KSPSetTolerances(ksp, 1e-9, 1e-50, PETSC_DEFAULT, 500));
    PCALL(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE));
    for (int c = 0; c < 2; c++) { /* from zero; then from the solution just found */
      PetscInt count = 0;
      PCALL(PCShellSetContext(pc, &count));
      if (!c) PCALL(VecZeroEntries(x));
      PCALL(KSPSolve(ksp, b, x));
      PCALL(KSPGetIterationNumber(ksp, &its[q][c]));
      applies[q][c] = count;
    }
    PCALL(KSPDestroy(&ksp));
  }
  print_message("  cg: %d iterations, %d applications, then %d, %d; sbpcg: %d, %d, then %d, %d\n", (int)its[0][0], (int)applies[0][0], (int)its[0][1],
                (int)applies[0][1], (int)its[1][0], (int)applies[1][0], (int)its[1][1], (int)applies[1][1]);
  SbpmgTestDestroyVecs(&b, &x0, &x, NULL);
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
  if (its[0][0] < 5 || its[1][0] != its[0][0]) fail_msg("from zero: cg %d iterations, sbpcg %d", (int)its[0][0], (int)its[1][0]);
  if (applies[1][0] != applies[0][0] || applies[1][0] != its[1][0])
    fail_msg("from zero: sbpcg applied the preconditioner %d times in %d iterations, cg %d", (int)applies[1][0], (int)its[1][0], (int)applies[0][0]);
  if (its[1][1] != 0 || applies[1][1] != 0 || applies[0][1] != 0)
    fail_msg("from the solution: sbpcg %d iterations and %d applications, cg %d applications", (int)its[1][1], (int)applies[1][1], (int)applies[0][1]);
}

static void test_bad_input(void **state)
{
  SbpProblem p;
  Mat        A;
  Vec        b, x0, bh, xh;
  KSP        ksp;
  PetscInt   n;

  if (SbpTestWorldSize() > 1) skip();
  make_system(PETSC_COMM_SELF, 16, "DDNN", &p, &A, &b, &x0);
  PCALL(VecGetLocalSize(b, &n));
  PCALL(VecCreateSeq(PETSC_COMM_SELF, n, &bh));
  PCALL(VecDuplicate(bh, &xh));
  PCALL(VecSet(bh, 1));
  PCALL(KSPCreate(PETSC_COMM_SELF, &ksp)); /* host vectors */
  PCALL(KSPSetOperators(ksp, A, A));
  PCALL(KSPSetType(ksp, KSPSBPCG));
  EXPECT_ERROR(KSPSolve(ksp, bh, xh), PETSC_ERR_SUP, "KSP sbpcg needs device vectors");
  PCALL(KSPDestroy(&ksp));
  PCALL(KSPCreate(PETSC_COMM_SELF, &ksp)); /* right preconditioning */
  PCALL(KSPSetOperators(ksp, A, A));
  PCALL(KSPSetType(ksp, KSPSBPCG));
  PCALL(KSPSetPCSide(ksp, PC_RIGHT));
  EXPECT_ERROR(KSPSetUp(ksp), PETSC_ERR_SUP, "KSP sbpcg does not support preconditioner side RIGHT");
  PCALL(KSPDestroy(&ksp));
  SbpmgTestDestroyVecs(&b, &x0, &bh, &xh, NULL);
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_same_as_cg), cmocka_unit_test(test_limits),    cmocka_unit_test(test_other_operators),
    cmocka_unit_test(test_applies),    cmocka_unit_test(test_bad_input),
};

SBPMG_TEST_MAIN(help, tests)
