/* The sbpmg preconditioner's options: PCMG's own still apply, the coarse-level defaults (the coarse size of the device, CHOLMOD's
   simplicial factor), bad option values and a matrix that is not an SBP-SAT operator (the smoother's unknown name, which PETSc's
   PetscOptionsEnum reports, runs as a program: tests/mg.cmake). */
#include "test_sbp_common.h"
#include <petsc/private/pcmgimpl.h>
#include <petsc/private/logimpl.h>
#include <unistd.h>

static const char help[] = "Tests of the sbpmg preconditioner's options and bad input (src/mg).\n";

static SbpProblem make_problem(PetscInt Nr, PetscInt Ns, SbpBackend backend)
{
  return SbpTestProblem(PETSC_COMM_SELF, Nr, Ns, "DDNN", SBP_MAPPING_CURVED, backend, "sbp_split_min=0");
}

static void test_pcmg_options(void **state)
{
  const SbpmgTestOption pcmg[] = {
      {"-mg_levels_ksp_type", "chebyshev"}, {"-mg_levels_pc_type", "jacobi"}, {"-pc_mg_cycle_type", "w"}, {"-pc_sbpmg_levels", "3"}, {NULL, NULL},
  };
  SbpTestSystem s;
  KSP           smooth;
  PC            pc;
  KSPType       type;
  PetscInt      levels;

  SbpTestSystemCreate(make_problem(64, 64, SBP_BACKEND_DEVICE), PETSC_FALSE, &s);
  s.ksp = SbpTestKSPWithSBPMG(s.A);
  PCALL(KSPGetPC(s.ksp, &pc));
  SbpmgTestSetOptions(pcmg);
  PCALL(KSPSetFromOptions(s.ksp));
  PCALL(KSPSetUp(s.ksp));
  SbpmgTestClearOptions(pcmg);
  PCALL(PCSBPMGGetLevels(pc, &levels));
  assert_int_equal(levels, 3);
  PCALL(PCMGGetSmoother(pc, 2, &smooth));
  PCALL(KSPGetType(smooth, &type));
  assert_string_equal(type, KSPCHEBYSHEV);
  /* PETSc 3.18 has no getter for the cycle type: read PCMG's level data */
  for (PetscInt l = 0; l < levels; l++) assert_int_equal(((PC_MG *)pc->data)->levels[l]->cycles, PC_MG_CYCLE_W);
  SbpTestSystemSolve(&s);
  SbpTestSystemDestroy(&s);
}

/* ---------------------------------------------------------------- the coarse level */

/* CHOLMOD's factor type (Common.supernodal: 0 simplicial, 1 automatic, 2 supernodal) as the factor's view prints it */
static int cholmod_supernodal(KSP ksp)
{
  PC          pc, cpc;
  KSP         cksp;
  Mat         F;
  PetscViewer v;
  char        path[] = "/tmp/sbpmg-test-cholmod-XXXXXX", line[512];
  int         fd, value = -1;
  FILE       *fp;

  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCMGGetCoarseSolve(pc, &cksp));
  PCALL(KSPGetPC(cksp, &cpc));
  PCALL(PCFactorGetMatrix(cpc, &F));
  fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  PCALL(PetscViewerASCIIOpen(PETSC_COMM_SELF, path, &v));
  PCALL(PetscViewerPushFormat(v, PETSC_VIEWER_ASCII_INFO));
  PCALL(MatView(F, v));
  PCALL(PetscViewerPopFormat(v));
  PCALL(PetscViewerDestroy(&v));
  fp = fopen(path, "r");
  assert_non_null(fp);
  while (fgets(line, sizeof(line), fp)) {
    const char *c = strstr(line, "Common.supernodal ");
    if (c) value = atoi(c + strlen("Common.supernodal "));
  }
  fclose(fp);
  remove(path);
  return value;
}

/* The default coarse size (129 points per side on a GPU, 32 elsewhere) decides the levels of a 256^2 grid; the coarse solve takes
   CHOLMOD's simplicial factor unless the options name another, and the option set for it is gone after the set-up. */
/* The multigrid layer's log events belong to PETSc's PC class (so -log_exclude pc and the class summaries treat them as the PC's),
   also where the package is started before any PC exists. */
static void test_event_class(void **state)
{
  const char   *names[] = {"MGTransfer", "MGSmooth", "MGSetUp", "MGCoarseSolve", "MGEigenEstimate"};
  PetscStageLog log;

  PCALL(PetscLogGetStageLog(&log));
  assert_true(PC_CLASSID != 0);
  for (int t = 0; t < 5; t++) {
    PetscLogEvent e;
    PCALL(PetscLogEventGetId(names[t], &e));
    if (log->eventLog->eventInfo[e].classid != PC_CLASSID)
      fail_msg("event %s has class %d, not PC's %d", names[t], (int)log->eventLog->eventInfo[e].classid, (int)PC_CLASSID);
  }
}

static void test_coarse_defaults(void **state)
{
  SbpProblem p = make_problem(256, 256, SBP_BACKEND_DEVICE);
  Mat        A;
  KSP        ksp;
  PC         pc;
  PetscBool  gpu, set;
  PetscInt   levels;
  int        supernodal;

  PCALL(SbpmgCLIsGPU(p->cl, &gpu));
  PCALL(SbpProblemCreateOperator(p, &A));
  for (int user = 0; user < 2; user++) { /* CHOLMOD's simplicial factor unless the user names one */
    ksp = SbpTestKSPWithSBPMG(A);
    PCALL(KSPGetPC(ksp, &pc));
    PCALL(PCSBPMGSetCoarseSolve(pc, PC_SBPMG_COARSE_CHOLMOD));
    if (user) SbpmgTestSetOption("-mg_coarse_mat_cholmod_factor", "SUPERNODAL");
    PCALL(KSPSetFromOptions(ksp));
    PCALL(KSPSetUp(ksp));
    PCALL(PCSBPMGGetLevels(pc, &levels));
    supernodal = cholmod_supernodal(ksp);
    print_message("  %s, %s factor: %d levels, Common.supernodal %d\n", gpu ? "GPU" : "CPU", user ? "user's" : "default", (int)levels, supernodal);
    assert_int_equal(levels, gpu ? 3 : 5); /* 257 -> 129 -> 65 points, or on to 17 */
    assert_int_equal(supernodal, user ? 2 : 0);
    PCALL(PetscOptionsHasName(NULL, NULL, "-mg_coarse_mat_cholmod_factor", &set));
    assert_int_equal(set, user ? PETSC_TRUE : PETSC_FALSE);
    if (user) SbpmgTestSetOption("-mg_coarse_mat_cholmod_factor", NULL);
    PCALL(KSPDestroy(&ksp));
  }
  { /* the defaults: dense on a GPU (65 points, 4225 nodes), CHOLMOD elsewhere (32 points); the tuning's mg_coarse_size sets the coarse
       grid (129 points, 16641 nodes: beyond mg_coarse_dense, CHOLMOD) and its mg_nu_max bounds the sweeps */
    static const struct {
      const char *tune;
      PetscInt    levels_cpu, levels_gpu, nu_max;
    } cases[] = {{NULL, 5, 3, 0}, {"mg_coarse_size=129", 2, 2, 0}, {"mg_coarse_size=33", 4, 4, 0}, {"mg_nu_max=5", 5, 3, 5}};
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
      PC_SBPMG *sb;
      ksp = SbpTestKSPWithSBPMG(A);
      PCALL(KSPGetPC(ksp, &pc));
      if (cases[c].tune) PCALL(PCSBPMGSetTuning(pc, cases[c].tune));
      PCALL(KSPSetUp(ksp));
      PCALL(PCSBPMGGetLevels(pc, &levels));
      sb = PCSBPMGGetContext(pc);
      print_message("  %s, tuning %s: %d levels, coarse solve %s, nu_max %d\n", gpu ? "GPU" : "CPU", cases[c].tune ? cases[c].tune : "(default)", (int)levels,
                    sb->coarse_dense ? "dense" : "CHOLMOD", (int)sb->nu_max_used);
      assert_int_equal(levels, gpu ? cases[c].levels_gpu : cases[c].levels_cpu);
      assert_int_equal(sb->coarse_dense, gpu && levels > 2 ? PETSC_TRUE : PETSC_FALSE);
      assert_int_equal(sb->nu_max_used, cases[c].nu_max ? cases[c].nu_max : (gpu ? 3 : 16));
      PCALL(KSPDestroy(&ksp));
    }
  }
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

/* ---------------------------------------------------------------- bad input */

static void test_bad_input(void **state)
{
  SbpProblem p = make_problem(48, 24, SBP_BACKEND_DEVICE);
  Mat        A, B;
  KSP        ksp;
  PC         pc;

  /* a matrix that is not an SBP-SAT operator */
  PCALL(MatCreateSeqAIJ(PETSC_COMM_SELF, 10, 10, 1, NULL, &B));
  for (PetscInt i = 0; i < 10; i++) PCALL(MatSetValue(B, i, i, 2, INSERT_VALUES));
  PCALL(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PCALL(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PCALL(PetscObjectSetName((PetscObject)B, "diag2"));
  ksp = SbpTestKSPWithSBPMG(B);
  EXPECT_ERROR(KSPSetUp(ksp), PETSC_ERR_ARG_WRONG, "PCSBPMG needs an SBP-SAT operator: the preconditioning matrix diag2 of type seqaij");
  PCALL(KSPDestroy(&ksp));
  PCALL(MatDestroy(&B));

  PCALL(SbpProblemCreateOperator(p, &A));
  ksp = SbpTestKSPWithSBPMG(A);
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCSBPMGSetLevels(pc, 5));
  EXPECT_ERROR(KSPSetUp(ksp), PETSC_ERR_ARG_OUTOFRANGE,
               "-pc_sbpmg_levels 5 is too many for the 48 x 24 grid: it coarsens into at most 4 levels (down to 6 x 6");
  PCALL(KSPDestroy(&ksp));

  /* bad option values are reported at set-up */
  {
    const char *bad[][3] = {
        {"-pc_sbpmg_nu", "0", "Smoothing sweeps must be >= 1: got 0 pre, 0 post"},
        {"-pc_sbpmg_cheby_range", "1.1,0.1", "Chebyshev range [1.1, 0.1] must satisfy 0 < lo < hi"},
        {"-pc_sbpmg_cheby_range", "0.5", "-pc_sbpmg_cheby_range 0.5: give two numbers lo,hi"},
        {"-pc_sbpmg_coarse_size", "3", "-pc_sbpmg_coarse_size 3 must be >= 5"},
        {"-pc_sbpmg_nu_growth", "0.5", "-pc_sbpmg_nu_growth 0.5 must be >= 1"},
        {"-pc_sbpmg_nu", "3,3,3", "-pc_sbpmg_nu 3,3,3: more than 2 values; it takes 1 value (pre and post) or 2 (pre,post)"},
    };
    const PetscErrorCode codes[] = {PETSC_ERR_ARG_OUTOFRANGE, PETSC_ERR_ARG_OUTOFRANGE, PETSC_ERR_ARG_WRONG,
                                    PETSC_ERR_ARG_OUTOFRANGE, PETSC_ERR_ARG_OUTOFRANGE, PETSC_ERR_ARG_SIZ};
    for (int b = 0; b < 6; b++) {
      const SbpmgTestOption options[] = {{"-pc_type", "sbpmg"}, {bad[b][0], bad[b][1]}, {NULL, NULL}};
      PCALL(KSPCreate(PETSC_COMM_SELF, &ksp));
      PCALL(KSPSetOperators(ksp, A, A));
      SbpmgTestSetOptions(options);
      PCALL(KSPSetFromOptions(ksp));
      EXPECT_ERROR(KSPSetUp(ksp), codes[b], bad[b][2]);
      SbpmgTestClearOptions(options);
      PCALL(KSPDestroy(&ksp));
    }
  }
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_pcmg_options),
    cmocka_unit_test(test_coarse_defaults),
    cmocka_unit_test(test_event_class),
    cmocka_unit_test(test_bad_input),
};

SBPMG_TEST_MAIN(help, tests)
