/* What -help and the views show (issue 23): -help's "<now ...>" is the value in force, also for values set by the API and for
   defaults resolved later (the operator's tuning, the grid's centre); PCSBPMG's view before set-up has no placeholder. The
   -log_view, -ksp_view and plot checks run the programs: tests/check-views.sh, tests/views.cmake. */
#include "test_sbp_common.h"

static const char help[] = "Tests of -help's values in force and of PCSBPMG's view before set-up.\n";

/* -help's lines, caught from PetscHelpPrintf while a block reads its options */
static char   help_text[1 << 17];
static size_t help_len;

static PetscErrorCode CatchHelp(MPI_Comm comm, const char format[], ...)
{
  va_list args;
  size_t  n;

  (void)comm;
  va_start(args, format);
  PetscCall(PetscVSNPrintf(help_text + help_len, sizeof(help_text) - help_len, format, &n, args));
  va_end(args);
  help_len = strlen(help_text);
  return 0;
}

/* -help on (PETSc reads it when an options block begins), PETSc's help printer replaced by CatchHelp; or both restored. */
static void HelpCatch(PetscBool on)
{
  static PetscErrorCode (*saved)(MPI_Comm, const char[], ...);

  if (on) {
    help_len        = 0;
    help_text[0]    = 0;
    saved           = PetscHelpPrintf;
    PetscHelpPrintf = CatchHelp;
    PCALL(PetscOptionsSetValue(NULL, "-help", NULL));
  } else {
    PetscHelpPrintf = saved;
    PCALL(PetscOptionsClearValue(NULL, "-help"));
  }
}

static void AssertHelpHas(const char *line)
{
  if (!strstr(help_text, line)) fail_msg("-help has no \"%s\"; it printed:\n%s", line, help_text);
}

/* The example (-sbp_n 64, once shown as -sbp_nr <now 32>), and sizes set by the API: both values. */
static void test_help_sbp_sizes(void **state)
{
  SbpProblem p, q;
  PetscInt   nr, ns;

  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetOptionsPrefix(p, "hv1_"));
  PCALL(SbpProblemSetSizes(p, 24, 40));
  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &q));
  PCALL(SbpProblemSetOptionsPrefix(q, "hv2_"));
  SbpmgTestSetOption("-hv2_sbp_n", "64");
  SbpmgTestSetOption("-hv2_sbp_bc", "DDDD");
  HelpCatch(PETSC_TRUE);
  PCALL(SbpProblemSetFromOptions(p));
  PCALL(SbpProblemSetFromOptions(q));
  HelpCatch(PETSC_FALSE);
  SbpmgTestSetOption("-hv2_sbp_n", NULL);
  SbpmgTestSetOption("-hv2_sbp_bc", NULL);
  AssertHelpHas("  -hv1_sbp_n <24,40>: ");
  AssertHelpHas("  -hv2_sbp_n <64>: ");
  AssertHelpHas("  -hv2_sbp_bc <now DDDD : formerly DDNN>: ");
  PCALL(SbpProblemGetSizes(q, &nr, &ns));
  assert_int_equal(nr, 64);
  assert_int_equal(ns, 64);
  PCALL(SbpProblemDestroy(&p));
  PCALL(SbpProblemDestroy(&q));
}

/* The PC's sweeps and Chebyshev interval set by the API; the coarse size and the coefficients' precision of the operator's tuning
   (the defaults the set-up takes), not the placeholders 0 and TRUE. */
static void test_help_pcsbpmg(void **state)
{
  SbpTestSystem s;
  PC            pc;
  char          line[256];

  SbpTestSystemCreate(SbpTestProblem(PETSC_COMM_SELF, 32, 32, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL), PETSC_FALSE, &s);
  s.ksp = SbpTestKSPWithSBPMG(s.A);
  PCALL(KSPSetOptionsPrefix(s.ksp, "hv3_"));
  PCALL(KSPGetPC(s.ksp, &pc));
  PCALL(PCSBPMGSetSweeps(pc, 2, 4));
  PCALL(PCSBPMGSetChebyshevRange(pc, 0.2, 1.25));
  HelpCatch(PETSC_TRUE);
  PCALL(KSPSetFromOptions(s.ksp));
  HelpCatch(PETSC_FALSE);
  AssertHelpHas("  -hv3_pc_sbpmg_nu <2,4>: ");
  AssertHelpHas("  -hv3_pc_sbpmg_cheby_range <now 0.2,1.25 : formerly 0.2,1.25>: ");
  PCALL(
      PetscSNPrintf(line, sizeof(line), "  -hv3_pc_sbpmg_coarse_size <now %d : formerly %d>: ", (int)s.p->tune.mg_coarse_size, (int)s.p->tune.mg_coarse_size));
  AssertHelpHas(line);
  PCALL(PetscSNPrintf(line, sizeof(line), "  -hv3_pc_sbpmg_coef_fp32: <%s : %s> ", s.p->tune.mg_coef_fp32 ? "TRUE" : "FALSE",
                      s.p->tune.mg_coef_fp32 ? "TRUE" : "FALSE"));
  AssertHelpHas(line);
  SbpTestSystemSolve(&s);
  SbpTestSystemDestroy(&s);
}

/* Sizes set by the API: all three, the source at their centre, the middle z plane, the constant velocity as one layer; sizes given
   in the same block: the source and the plane follow them; a velocity given: the layer and -ac_vel's "formerly". */
static void test_help_acoustic(void **state)
{
  const SbpmgTestOption opts[] = {{"-hv5_ac_n", "16"}, {"-hv5_ac_vel", "1500"}, {"-hv5_ac_dx", "10,20,30"}, {NULL, NULL}};
  Acoustic              a, b;

  PCALL(AcousticCreate(PETSC_COMM_SELF, &a));
  PCALL(PetscObjectSetOptionsPrefix((PetscObject)a, "hv4_"));
  PCALL(AcousticSetSizes(a, 20, 30, 40));
  PCALL(AcousticCreate(PETSC_COMM_SELF, &b));
  PCALL(PetscObjectSetOptionsPrefix((PetscObject)b, "hv5_"));
  SbpmgTestSetOptions(opts);
  HelpCatch(PETSC_TRUE);
  PCALL(AcousticSetFromOptions(a));
  PCALL(AcousticSetFromOptions(b));
  HelpCatch(PETSC_FALSE);
  SbpmgTestClearOptions(opts);
  AssertHelpHas("  -hv4_ac_n <20,30,40>: ");
  AssertHelpHas("  -hv4_ac_source <10,15,20>: ");
  AssertHelpHas("  -hv4_ac_snapshot_plane <now z:20 : formerly z:20>: ");
  AssertHelpHas("  -hv4_ac_layers <2000.>: ");
  AssertHelpHas("  -hv5_ac_n <16>: ");
  AssertHelpHas("  -hv5_ac_dx <10.,20.,30.>: ");
  AssertHelpHas("  -hv5_ac_source <8,8,8>: ");
  AssertHelpHas("  -hv5_ac_snapshot_plane <now z:8 : formerly z:8>: ");
  AssertHelpHas("  -hv5_ac_vel <now 1500 : formerly 2000.>: ");
  AssertHelpHas("  -hv5_ac_layers <1500.>: ");
  PCALL(AcousticDestroy(&a));
  PCALL(AcousticDestroy(&b));
}

/* SbpmgOptionsArray() of a type it does not read, inside a block of the test's own (so that the block ends after the error). */
static PetscErrorCode ReadBoolArray(PetscErrorCode *err)
{
  PetscBool flags[2];
  PetscInt  n = 2;

  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_SELF, "hv6_", "views test", NULL);
  *err = SbpmgOptionsArray(PetscOptionsObject, "-flags", "Flags", NULL, PETSC_BOOL, flags, 2, &n, NULL);
  PetscOptionsEnd();
  PetscFunctionReturn(0);
}

static void test_options_array_type(void **state)
{
  PetscErrorCode err = 0;

  EXPECT_ERROR((ReadBoolArray(&err), err), PETSC_ERR_SUP, "-flags: SbpmgOptionsArray() reads PETSC_INT or PETSC_REAL values, not BOOL");
}

/* PCSBPMG viewed before set-up: what the set-up will make, no "0 levels" and no placeholder in sbpmg's lines. */
static void test_view_before_setup(void **state)
{
  SbpTestSystem s;
  PC            pc;
  PetscViewer   v;
  char         *text = NULL;
  size_t        n;
  FILE         *fp;

  SbpTestSystemCreate(SbpTestProblem(PETSC_COMM_SELF, 32, 32, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL), PETSC_FALSE, &s);
  s.ksp = SbpTestKSPWithSBPMG(s.A);
  PCALL(KSPGetPC(s.ksp, &pc));
  PCALL(PCSBPMGSetLevels(pc, 3));
  fp = open_memstream(&text, &n); /* the view's text in memory */
  assert_non_null(fp);
  PCALL(PetscViewerCreate(PETSC_COMM_SELF, &v));
  PCALL(PetscViewerSetType(v, PETSCVIEWERASCII));
  PCALL(PetscViewerASCIISetFILE(v, fp));
  PCALL(PCView(pc, v));
  PCALL(PetscViewerDestroy(&v));
  fclose(fp);
  if (strstr(text, "\n  linear system matrix")) *strstr(text, "\n  linear system matrix") = 0; /* the operator's view: src/sbp's */
  if (!strstr(text, "\n    SBPMG: geometric multigrid on the SBP-SAT operator, re-discretised on 3 levels, made at set-up\n"))
    fail_msg("the view before set-up is:\n%s", text);
  assert_null(strstr(text, " 0 levels"));
  if (strstr(text, "not yet")) fail_msg("the view before set-up is:\n%s", text);
  assert_non_null(strstr(text, "\n      smoother chebyshev, fused on the operator's backend: 3 pre- and 3 post-sweeps on the finest level"));
  free(text);
  SbpTestSystemSolve(&s);
  SbpTestSystemDestroy(&s);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_help_sbp_sizes),    cmocka_unit_test(test_help_acoustic),      cmocka_unit_test(test_help_pcsbpmg),
    cmocka_unit_test(test_view_before_setup), cmocka_unit_test(test_options_array_type),
};

SBPMG_TEST_MAIN(help, tests)
