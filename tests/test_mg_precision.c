/* The single-precision V-cycle (-pc_sbpmg_precision single, issue 21) inside fp64 CG against the fp64 V-cycle: iterations to 1e-8 and
   1e-10 within one for N = 32..512, square and curved, Nr != Ns, every smoother; the H-norm error equal to 3 significant digits; the
   fp32 V-cycle symmetric to 1e-5 and positive; PCMG's cycle types; the GPU's kernel shapes; FCG where the smoother makes the V-cycle
   indefinite for CG; -ksp_view; bad input; the fp32 level residual against the assembled operator. The level vectors and the fp32
   sweeps alone: test_mg_precision_vec.c. */
#include "test_mg_common.h"
#include <unistd.h>

static const char help[] = "Tests of the single-precision V-cycle of sbpmg (src/mg).\n";

typedef struct {
  PetscInt           its;
  PetscReal          eH;
  KSPConvergedReason reason;
} Outcome;

/* ksp_type + sbpmg to rtol in the precision on the problem (kept), the tuning overrides of the PC (NULL: none); the test fails unless
   the solve converges, when must_converge. */
static Outcome solve_in(SbpProblem p, const char *precision, KSPType ksp_type, const char *smoother, const char *tune, PetscReal rtol, PetscBool must_converge)
{
  SbpTestSystem s;
  Outcome       o;
  PC            pc;

  PCALL(PetscObjectReference((PetscObject)p));
  SbpTestSystemCreate(p, PETSC_FALSE, &s);
  MGTestSetPrecision(precision);
  s.ksp = SbpTestMGCG(s.A, rtol, 300);
  PCALL(KSPSetType(s.ksp, ksp_type));
  PCALL(KSPGetPC(s.ksp, &pc));
  SbpTestSetSmoother(pc, smoother);
  if (tune) PCALL(PCSBPMGSetTuning(pc, tune));
  PCALL(PCSetFromOptions(pc));
  PCALL(KSPSetUp(s.ksp));
  MGTestSetPrecision(NULL);
  if (must_converge)
    o.its = SbpTestSystemSolve(&s);
  else {
    PCALL(KSPSolve(s.ksp, s.g, s.u));
    PCALL(KSPGetIterationNumber(s.ksp, &o.its));
  }
  PCALL(KSPGetConvergedReason(s.ksp, &o.reason));
  PCALL(SbpProblemComputeError(p, s.u, &o.eH, NULL));
  SbpTestSystemDestroy(&s);
  return o;
}

/* The single-precision V-cycle against the fp64 one on the same problem: iterations within one, H-norm errors equal to 3 digits. */
static void compare_precisions(SbpProblem p, KSPType ksp_type, const char *smoother, const char *tune, PetscReal rtol, const char *what)
{
  Outcome   d = solve_in(p, "double", ksp_type, smoother, tune, rtol, PETSC_TRUE), s = solve_in(p, "single", ksp_type, smoother, tune, rtol, PETSC_TRUE);
  PetscReal de = PetscAbsReal(s.eH - d.eH) / d.eH;

  print_message("  %s to %.0e: fp64 V-cycle %d iterations, error %.6e; fp32 %d, %.6e (relative difference %.1e)\n", what, rtol, (int)d.its, d.eH, (int)s.its,
                s.eH, de);
  if (PetscAbsInt(s.its - d.its) > 1) fail_msg("%s to %g: %d iterations with the fp32 V-cycle against %d", what, rtol, (int)s.its, (int)d.its);
  if (!(de < 5e-4)) fail_msg("%s to %g: H-norm error %g with the fp32 V-cycle against %g", what, rtol, s.eH, d.eH);
}

typedef struct {
  PetscInt       Nr, Ns;
  SbpMappingType map;
  const char    *smoother;
  KSPType        ksp; /* NULL: CG */
} Case;

static void test_iterations_and_error(void **state)
{
  const Case cases[] = {
      {32, 32, SBP_MAPPING_CURVED, NULL, NULL},           {64, 64, SBP_MAPPING_CURVED, NULL, NULL},
      {128, 128, SBP_MAPPING_CURVED, NULL, NULL},         {256, 256, SBP_MAPPING_CURVED, NULL, NULL},
      {512, 512, SBP_MAPPING_CURVED, NULL, NULL},         {64, 64, SBP_MAPPING_SQUARE, NULL, NULL},
      {256, 256, SBP_MAPPING_SQUARE, NULL, NULL},         {128, 64, SBP_MAPPING_CURVED, NULL, NULL},
      {64, 256, SBP_MAPPING_CURVED, NULL, NULL},          {32, 64, SBP_MAPPING_SQUARE, NULL, NULL},
      {128, 128, SBP_MAPPING_CURVED, "jacobi", NULL},     {64, 32, SBP_MAPPING_SQUARE, "jacobi", NULL},
      {64, 64, SBP_MAPPING_CURVED, "richardson", NULL},   {32, 64, SBP_MAPPING_CURVED, "richardson", NULL},
      {96, 48, SBP_MAPPING_CURVED, "richardson", KSPFCG}, /* FCG as well as CG: test_fcg_remedy */
  };
  const PetscBool short_run = SbpmgTestUnderMemcheck();

  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    SbpProblem p;
    char       what[96];
    if (short_run && cases[c].Nr * cases[c].Ns > 64 * 64) continue;
    p = SbpTestProblem(PETSC_COMM_SELF, cases[c].Nr, cases[c].Ns, "DDNN", cases[c].map, SBP_BACKEND_DEVICE, NULL);
    PCALL(PetscSNPrintf(what, sizeof(what), "%dx%d %s %s under %s", (int)cases[c].Nr, (int)cases[c].Ns, SbpMappingTypes[cases[c].map],
                        cases[c].smoother ? cases[c].smoother : "chebyshev", cases[c].ksp ? cases[c].ksp : KSPCG));
    compare_precisions(p, cases[c].ksp ? cases[c].ksp : KSPCG, cases[c].smoother, NULL, 1e-8, what);
    compare_precisions(p, cases[c].ksp ? cases[c].ksp : KSPCG, cases[c].smoother, NULL, 1e-10, what);
    PCALL(SbpProblemDestroy(&p));
  }
}

/* The fp32 V-cycle is symmetric to fp32 rounding and positive, with each smoother and with two sweeps per pass. */
static void test_nearly_symmetric(void **state)
{
  const struct {
    PetscInt    Nr, Ns;
    const char *smoother, *tune;
  } cases[] = {
      {64, 32, NULL, NULL},
      {64, 32, "jacobi", NULL},
      {128, 128, NULL, NULL},
      {96, 64, NULL, "mg_sweeps_per_pass=2,mg_inline_diag=1"},
  };

  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    SbpProblem p = SbpTestProblem(PETSC_COMM_SELF, cases[c].Nr, cases[c].Ns, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, "sbp_split_min=0");
    Mat        A;
    KSP        ksp;
    PC         pc;
    Vec        x, y;
    char       what[96];

    PCALL(SbpProblemCreateOperator(p, &A));
    MGTestSetPrecision("single");
    ksp = SbpTestMGCG(A, 1e-8, 200);
    PCALL(KSPGetPC(ksp, &pc));
    SbpTestSetSmoother(pc, cases[c].smoother);
    if (cases[c].tune) PCALL(PCSBPMGSetTuning(pc, cases[c].tune));
    PCALL(PCSetFromOptions(pc));
    PCALL(KSPSetUp(ksp));
    MGTestSetPrecision(NULL);
    PCALL(MatCreateVecs(A, &x, &y));
    for (int r = 0; r < 3; r++) {
      PCALL(PetscSNPrintf(what, sizeof(what), "%dx%d %s%s%s, vectors %d", (int)cases[c].Nr, (int)cases[c].Ns,
                          cases[c].smoother ? cases[c].smoother : "chebyshev", cases[c].tune ? ", " : "", cases[c].tune ? cases[c].tune : "", r));
      SbpmgTestFillRandom(x, 30 + r);
      SbpmgTestFillRandom(y, 40 + r);
      (void)MGTestCheckNearlySymmetric(pc, x, y, 1e-5, what);
    }
    SbpmgTestDestroyVecs(&x, &y, NULL);
    PCALL(KSPDestroy(&ksp));
    PCALL(MatDestroy(&A));
    PCALL(SbpProblemDestroy(&p));
  }
}

/* PCMG's cycle types run on the level vectors: W-cycles and two V-cycles per application under CG, the full and Kaskade cycles (not
   symmetric) under FGMRES, the additive cycle under CG. */
static void test_cycle_types(void **state)
{
  const struct {
    const char *option, *value;
    KSPType     ksp;
  } cycles[] = {
      {"-pc_mg_cycle_type", "w", KSPCG},
      {"-pc_mg_multiplicative_cycles", "2", KSPCG},
      {"-pc_mg_type", "full", KSPFGMRES},
      {"-pc_mg_type", "kaskade", KSPFGMRES},
  };
  SbpProblem p = SbpTestProblem(PETSC_COMM_SELF, 96, 64, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL);

  for (size_t c = 0; c < sizeof(cycles) / sizeof(cycles[0]); c++) {
    char what[96];
    PCALL(PetscSNPrintf(what, sizeof(what), "96x64 %s %s under %s", cycles[c].option, cycles[c].value, cycles[c].ksp));
    SbpmgTestSetOption(cycles[c].option, cycles[c].value);
    compare_precisions(p, cycles[c].ksp, NULL, NULL, 1e-10, what);
    SbpmgTestSetOption(cycles[c].option, NULL);
  }
  { /* the additive cycle is a weaker preconditioner: the fp32 one converges, to the same error */
    Outcome d, s;
    SbpmgTestSetOption("-pc_mg_type", "additive");
    d = solve_in(p, "double", KSPCG, NULL, NULL, 1e-10, PETSC_TRUE);
    s = solve_in(p, "single", KSPCG, NULL, NULL, 1e-10, PETSC_TRUE);
    SbpmgTestSetOption("-pc_mg_type", NULL);
    print_message("  96x64 additive cycle: fp64 %d iterations, error %.6e; fp32 %d, %.6e\n", (int)d.its, d.eH, (int)s.its, s.eH);
    if (!(PetscAbsReal(s.eH - d.eH) < 5e-4 * d.eH)) fail_msg("additive cycle: H-norm error %g in fp32 against %g", s.eH, d.eH);
  }
  PCALL(SbpProblemDestroy(&p));
}

/* The GPU's kernel shapes on the fp32 V-cycle: 1/diag in the kernel and two or three sweeps per pass over the data (the first pass from
   the finest level's fp64 right-hand side, the last writing the fp64 result), the interior/rim split on every level. */
static void test_kernel_shapes(void **state)
{
  const char *shapes[] = {"mg_inline_diag=1", "mg_sweeps_per_pass=2,mg_inline_diag=1", "mg_sweeps_per_pass=3",
                          "mg_sweeps_per_pass=2,mg_pass_wg=8,mg_pass_rows=4"};
  SbpProblem  p        = SbpTestProblem(PETSC_COMM_SELF, 128, 96, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, "sbp_split_min=0");

  for (size_t c = 0; c < sizeof(shapes) / sizeof(shapes[0]); c++) {
    char what[96];
    PCALL(PetscSNPrintf(what, sizeof(what), "128x96 %s", shapes[c]));
    compare_precisions(p, KSPCG, NULL, shapes[c], 1e-10, what);
  }
  SbpmgTestSetOption("-pc_sbpmg_nu", "2"); /* an even count: passes only, the first from zero on the fp64 right-hand side */
  compare_precisions(p, KSPCG, NULL, "mg_sweeps_per_pass=2", 1e-10, "128x96 nu 2, two sweeps per pass");
  SbpmgTestSetOption("-pc_sbpmg_nu", NULL);
  PCALL(SbpProblemDestroy(&p));
}

/* The Richardson smoother on a finer grid: the spec's step from the Lanczos estimates made the V-cycle indefinite there (CG broke down in
   either precision) until the step took the 1.1 margin on lambda_max (src/mg/smoother.c); CG converges now, and flexible CG
   (-ksp_type fcg) too, the fp32 V-cycle within one iteration of the fp64 one. */
static void test_fcg_remedy(void **state)
{
  SbpProblem p = SbpTestProblem(PETSC_COMM_SELF, 128, 128, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL);
  Outcome cd = solve_in(p, "double", KSPCG, "richardson", NULL, 1e-10, PETSC_FALSE), cs = solve_in(p, "single", KSPCG, "richardson", NULL, 1e-10, PETSC_FALSE);

  print_message("  CG + Richardson smoother at 128x128: fp64 %s after %d iterations, fp32 %s after %d\n", KSPConvergedReasons[cd.reason], (int)cd.its,
                KSPConvergedReasons[cs.reason], (int)cs.its);
  compare_precisions(p, KSPFCG, "richardson", NULL, 1e-8, "128x128 richardson under FCG");
  compare_precisions(p, KSPFCG, "richardson", NULL, 1e-10, "128x128 richardson under FCG");
  PCALL(SbpProblemDestroy(&p));
}

/* PCMG's level residual in fp32 (the sweep kernels' residual mode) against the assembled fp64 operator, to fp32 accuracy: one kernel
   over all nodes (sbp_split=0), the interior/rim pair (sbp_split_min=0) with the CPU's branch-free loads and whole work-groups and with
   the GPU's guarded loads, two rows per work-item; Dirichlet and Neumann faces, square and curved. */
static void test_level_residual(void **state)
{
  const char *tunes[] = {"sbp_split=0", "sbp_split_min=0,sbp_select=1,sbp_inner_whole=1", "sbp_split_min=0,sbp_select=0,sbp_inner_whole=0,sbp_inner_rows=2"};
  const struct {
    PetscInt       Nr, Ns;
    const char    *bc;
    SbpMappingType map;
  } cases[] = {
      {40, 27, "DDNN", SBP_MAPPING_CURVED}, {37, 20, "DDDD", SBP_MAPPING_CURVED}, {33, 48, "NDDN", SBP_MAPPING_SQUARE},
      {16, 24, "NNNN", SBP_MAPPING_CURVED}, {4, 4, "DDDD", SBP_MAPPING_CURVED},
  };

  for (size_t t = 0; t < sizeof(tunes) / sizeof(tunes[0]); t++)
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
      SbpProblem p = SbpTestProblem(PETSC_COMM_SELF, cases[c].Nr, cases[c].Ns, cases[c].bc, cases[c].map, SBP_BACKEND_DEVICE, tunes[t]);
      char       what[128];

      PCALL(PetscSNPrintf(what, sizeof(what), "%dx%d %s %s, %s", (int)cases[c].Nr, (int)cases[c].Ns, cases[c].bc, SbpMappingTypes[cases[c].map], tunes[t]));
      (void)MGTestCheckResidualSingle(p, 1e-6, what);
      PCALL(SbpProblemDestroy(&p));
    }
}

/* -ksp_view says which precision the V-cycle runs in; one level (the direct solve) stays fp64. */
static void test_view(void **state)
{
  const struct {
    const char *precision, *expect;
    PetscInt    levels;
  } cases[] = {
      {"single", "V-cycle in single precision", 0},
      {"double", "V-cycle in double precision", 0},
      {"single", "V-cycle in double precision", 1},
  };
  SbpProblem p = SbpTestProblem(PETSC_COMM_SELF, 64, 64, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL);
  Mat        A;

  PCALL(SbpProblemCreateOperator(p, &A));
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    const SbpTestMGSettings set = {NULL, cases[c].levels, 32, NULL};
    KSP                     ksp;

    MGTestSetPrecision(cases[c].precision);
    ksp = SbpTestMGCGSetUp(A, 1e-8, &set);
    MGTestSetPrecision(NULL);
    if (!MGTestViewContains(ksp, cases[c].expect))
      fail_msg("-pc_sbpmg_precision %s with %d levels: the view does not say \"%s\"", cases[c].precision, (int)cases[c].levels, cases[c].expect);
    PCALL(KSPDestroy(&ksp));
  }
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

/* The single-precision V-cycle on the host backend and with fp64 coefficients: errors naming the options. */
static void test_bad_input(void **state)
{
  SbpProblem p = SbpTestProblem(PETSC_COMM_SELF, 32, 32, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_HOST, NULL);
  Mat        A;
  KSP        ksp;

  PCALL(SbpProblemCreateOperator(p, &A));
  MGTestSetPrecision("single");
  ksp = SbpTestMGCG(A, 1e-8, 10);
  PCALL(KSPSetFromOptions(ksp));
  EXPECT_ERROR(KSPSetUp(ksp), PETSC_ERR_SUP, "-pc_sbpmg_precision single needs the device backend");
  PCALL(KSPDestroy(&ksp));
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
  /* on the device, with -pc_sbpmg_coef_fp32 0 */
  p = SbpTestProblem(PETSC_COMM_SELF, 32, 32, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL);
  PCALL(SbpProblemCreateOperator(p, &A));
  SbpmgTestSetOption("-pc_sbpmg_coef_fp32", "0");
  ksp = SbpTestMGCG(A, 1e-8, 10);
  PCALL(KSPSetFromOptions(ksp));
  EXPECT_ERROR(KSPSetUp(ksp), PETSC_ERR_ARG_INCOMP, "-pc_sbpmg_coef_fp32 0 asks for fp64 coefficients");
  SbpmgTestSetOption("-pc_sbpmg_coef_fp32", NULL);
  PCALL(KSPDestroy(&ksp));
  /* with PETSc's own level smoothers, which need fp64 level vectors (two levels on every device: a GPU's coarse grid holds 33^2) */
  SbpmgTestSetOption("-pc_sbpmg_levels", "2");
  SbpmgTestSetOption("-mg_levels_1_pc_type", "jacobi");
  ksp = SbpTestMGCG(A, 1e-8, 10);
  PCALL(KSPSetFromOptions(ksp));
  EXPECT_ERROR(KSPSetUp(ksp), PETSC_ERR_ARG_INCOMP, "-pc_sbpmg_precision single needs sbpmg's level smoothers, but -mg_levels_1_pc_type replaces them");
  SbpmgTestSetOption("-mg_levels_1_pc_type", NULL);
  SbpmgTestSetOption("-pc_sbpmg_levels", NULL);
  MGTestSetPrecision(NULL);
  PCALL(KSPDestroy(&ksp));
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

/* PETSc's own level smoothers (-mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi) where single precision is the device's default
   (tuning mg_single, as on GPUs), on two levels on every device: the V-cycle runs in double, CG converges, and the view says so. */
static void test_foreign_smoothers(void **state)
{
  const SbpmgTestOption petsc[] = {{"-mg_levels_ksp_type", "chebyshev"}, {"-mg_levels_pc_type", "jacobi"}, {"-pc_sbpmg_levels", "2"}, {NULL, NULL}};
  SbpProblem            p       = SbpTestProblem(PETSC_COMM_SELF, 64, 64, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, "mg_single=1,mg_coef_fp32=1");
  Mat                   A;
  Vec                   x, b;
  KSP                   ksp;
  PetscInt              its;
  KSPConvergedReason    reason;

  PCALL(SbpProblemCreateOperator(p, &A));
  PCALL(MatCreateVecs(A, &x, &b));
  SbpmgTestFillRandom(b, 17);
  SbpmgTestSetOptions(petsc);
  ksp = SbpTestMGCG(A, 1e-8, 100);
  PCALL(KSPSetFromOptions(ksp));
  PCALL(KSPSolve(ksp, b, x));
  SbpmgTestClearOptions(petsc);
  PCALL(KSPGetIterationNumber(ksp, &its));
  PCALL(KSPGetConvergedReason(ksp, &reason));
  print_message("  PETSc's Chebyshev/Jacobi smoothers, single precision the default: %d iterations (%s)\n", (int)its, KSPConvergedReasons[reason]);
  if (reason <= 0) fail_msg("CG with PETSc's level smoothers did not converge: %s", KSPConvergedReasons[reason]);
  if (!MGTestViewContains(ksp, "V-cycle in double precision")) fail_msg("the view does not say the V-cycle runs in double precision");
  PCALL(KSPDestroy(&ksp));
  SbpmgTestDestroyVecs(&x, &b, NULL);
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_level_residual),
    cmocka_unit_test(test_iterations_and_error),
    cmocka_unit_test(test_nearly_symmetric),
    cmocka_unit_test(test_cycle_types),
    cmocka_unit_test(test_kernel_shapes),
    cmocka_unit_test(test_fcg_remedy),
    cmocka_unit_test(test_view),
    cmocka_unit_test(test_bad_input),
    cmocka_unit_test(test_foreign_smoothers),
};

SBPMG_TEST_MAIN(help, tests)
