/* The user's OpenCL sources and -cl_build_options against the library's macros (docs/design.md "User sources and the macro
   namespace"): a -D or -U of a reserved name (SBPMG_...) in -cl_build_options and a #define or #undef of one in a source of
   any setter are errors naming the macro and the option or the setter; the former internal names (RHS_F, COEF_MU, ...) given
   by -cl_build_options or #defined in a source, a harmless macro, and macros named like OpenCL functions that the library's
   code calls after the source change nothing (compared with the same problem given plainly); a source that does not compile
   is named in the error with its own line numbers, whatever sources come before it. */
#include "test_sbp_common.h"

static const char help[] = "Tests of the user's OpenCL sources and the library's macro namespace.\n";

/* u = sin(pi x) cos(pi y) with mu = 1.7: the forcing and each face's datum as OpenCL C (as in tests/test_sbp_data.c). */
static const char ForcingSource[] = "double sbp_user_forcing(double x, double y)\n"
                                    "{\n"
                                    "  return 2 * M_PI * M_PI * 1.7 * sin(M_PI * x) * cos(M_PI * y);\n"
                                    "}\n";

static void boundary_source(PetscInt face, SbpBCType type, const char *prelude, char *src, size_t len)
{
  if (type == SBP_BC_DIRICHLET)
    PCALL(PetscSNPrintf(src, len, "%sdouble sbp_user_boundary_%d(double x, double y, double nx, double ny)\n{\n  return sin(M_PI * x) * cos(M_PI * y);\n}\n",
                        prelude, (int)face));
  else
    PCALL(PetscSNPrintf(src, len,
                        "%sdouble sbp_user_boundary_%d(double x, double y, double nx, double ny)\n{\n"
                        "  return 1.7 * M_PI * (nx * cos(M_PI * x) * cos(M_PI * y) - ny * sin(M_PI * x) * sin(M_PI * y));\n}\n",
                        prelude, (int)face));
}

/* A 24 x 40 curved problem on the device, faces DDNN, mu 1.7: built in (musrc NULL) or as the source musrc. */
static SbpProblem make_problem(const char *musrc)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetSizes(p, 24, 40));
  PCALL(SbpProblemSetMapping(p, SBP_MAPPING_CURVED));
  if (musrc)
    PCALL(SbpProblemSetMuSource(p, musrc));
  else
    PCALL(SbpProblemSetMu(p, SBP_MU_CONSTANT, 1.7));
  for (PetscInt f = 1; f <= 4; f++) PCALL(SbpProblemSetBC(p, f, f <= 2 ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN));
  PCALL(SbpProblemSetBackend(p, SBP_BACKEND_DEVICE));
  PCALL(SbpProblemSetUp(p));
  return p;
}

/* The data as sources: the forcing (forcing, NULL: ForcingSource) and the faces' (each after prelude). */
static void set_sources(SbpProblem p, const char *forcing, const char *prelude)
{
  PCALL(SbpProblemSetForcingSource(p, forcing ? forcing : ForcingSource));
  for (PetscInt face = 1; face <= 4; face++) {
    SbpBCType type;
    char      src[1024];
    PCALL(SbpProblemGetBC(p, face, &type));
    boundary_source(face, type, prelude, src, sizeof(src));
    PCALL(SbpProblemSetBoundarySource(p, face, type, src));
  }
}

/* The same right-hand side and operator to rounding; the right-hand side nonzero (the forcing counted). */
static void expect_same_answer(const SbpTestAnswer *ref, const SbpTestAnswer *a, const char *what)
{
  PetscReal db = SbpmgTestRelDiff(a->b, ref->b), dA = SbpmgTestRelDiff(a->Ax, ref->Ax), nb;

  PCALL(VecNorm(ref->b, NORM_INFINITY, &nb));
  print_message("  %s: right-hand side %.2e, A x %.2e from the plain problem's\n", what, (double)db, (double)dA);
  if (!(nb > 1)) fail_msg("%s: the plain right-hand side is %g: nothing to compare", what, (double)nb);
  if (!(db <= 1e-14) || !(dA <= 1e-14)) fail_msg("%s: the answer changed (right-hand side by %g, A x by %g)", what, (double)db, (double)dA);
}

/* The plain problem: mu built in, the data as sources without macros. */
static SbpTestAnswer plain_answer(void)
{
  SbpProblem    p = make_problem(NULL);
  SbpTestAnswer a;

  set_sources(p, NULL, "");
  a = SbpTestAnswerOf(p, PETSC_FALSE);
  PCALL(SbpProblemDestroy(&p));
  return a;
}

/* -cl_build_options that -D or -U a reserved name: an error naming the macro and the option, from the context and from a
   host problem's set-up (which checks the device options too). */
static void test_reserved_build_options(void **state)
{
  const struct {
    const char *options, *msg;
  } bad[] = {
      {" -DSBPMG_RHS_F=1", "-cl_build_options \" -DSBPMG_RHS_F=1\": -DSBPMG_RHS_F=1 would set the library's own macro SBPMG_RHS_F"},
      {" -DSBPMG_COEF_MU=1", "-DSBPMG_COEF_MU=1 would set the library's own macro SBPMG_COEF_MU; names beginning with SBPMG_ are reserved"},
      {" -cl-fast-relaxed-math -D SBPMG_SBP_REAL=float", "-D SBPMG_SBP_REAL would set the library's own macro SBPMG_SBP_REAL"},
      {" -USBPMG_REAL", "-USBPMG_REAL would remove the library's own macro SBPMG_REAL"},
      {" -DTWO=2 -DSBPMG_HAVE_FP64", "-DSBPMG_HAVE_FP64 would set the library's own macro SBPMG_HAVE_FP64"},
  };

  for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
    SbpmgCL    cl = NULL;
    SbpProblem p;

    SbpmgTestSetOption("-cl_build_options", bad[b].options);
    EXPECT_ERROR(SbpmgCLCreate(PETSC_COMM_SELF, &cl), PETSC_ERR_ARG_WRONG, bad[b].msg);
    PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
    PCALL(SbpProblemSetSizes(p, 8, 8));
    PCALL(SbpProblemSetBackend(p, SBP_BACKEND_HOST));
    EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_WRONG, bad[b].msg);
    PCALL(SbpProblemDestroy(&p));
    SbpmgTestSetOption("-cl_build_options", NULL);
  }
}

/* The former internal names in -cl_build_options (before they were reserved -DRHS_F=1 zeroed the forcing, -DCOEF_MU=1 made mu
   the built-in constant's, -DSBP_REAL=float the operator single): the same answer as without them. */
static void test_former_names_in_build_options(void **state)
{
  SbpTestAnswer ref = plain_answer(), a;
  SbpProblem    p;

  PCALL(SbpmgCLResetDefault());
  SbpmgTestSetOption("-cl_build_options", " -DRHS_F=1 -DCOEF_MU=0 -DCOEF_KERNELS=0 -DSBP_REAL=float -DSBP_KERNELS=0");
  p = make_problem(NULL);
  set_sources(p, NULL, "");
  a = SbpTestAnswerOf(p, PETSC_FALSE);
  PCALL(SbpProblemDestroy(&p));
  PCALL(SbpmgCLResetDefault());
  SbpmgTestSetOption("-cl_build_options", NULL);
  expect_same_answer(&ref, &a, "-cl_build_options \" -DRHS_F=1 -DCOEF_MU=0 ...\"");
  SbpTestAnswerDestroy(&a);
  SbpTestAnswerDestroy(&ref);
}

/* A source of each setter that #defines or #undefs a reserved name, in every form of directive the preprocessor takes: an error
   naming the setter, the macro and the line; the same text in a comment is no directive. */
static void test_reserved_in_sources(void **state)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetSizes(p, 8, 12));
  EXPECT_ERROR(SbpProblemSetForcingSource(p, "#define SBPMG_RHS_F 0\ndouble sbp_user_forcing(double x, double y) { return 1; }\n"), PETSC_ERR_ARG_WRONG,
               "The OpenCL source of SbpProblemSetForcingSource #defines the macro SBPMG_RHS_F on its line 1: names beginning with SBPMG_ are reserved");
  EXPECT_ERROR(SbpProblemSetMuSource(p, "// mu\n\n  #  undef\tSBPMG_REAL\ndouble sbp_user_mu(double x, double y) { return 1; }\n"), PETSC_ERR_ARG_WRONG,
               "The OpenCL source of SbpProblemSetMuSource #undefs the macro SBPMG_REAL on its line 3");
  EXPECT_ERROR(SbpProblemSetMappingSource(p, "/* a comment */ # define SBPMG_COEF_MAP 1\n"), PETSC_ERR_ARG_WRONG,
               "The OpenCL source of SbpProblemSetMappingSource #defines the macro SBPMG_COEF_MAP on its line 1");
  EXPECT_ERROR(SbpProblemSetMetricSource(p, "int a;\n#def\\\nine SBPMG_COEF_METRIC 0\n"), PETSC_ERR_ARG_WRONG,
               "The OpenCL source of SbpProblemSetMetricSource #defines the macro SBPMG_COEF_METRIC on its line 2");
  EXPECT_ERROR(SbpProblemSetBoundarySource(p, 2, SBP_BC_DIRICHLET, "/* two\n lines */ #define SBPMG_RHS_G2(x) x\n"), PETSC_ERR_ARG_WRONG,
               "The OpenCL source of SbpProblemSetBoundarySource face 2 #defines the macro SBPMG_RHS_G2 on its line 2");
  /* not directives: commented out, or after code on its line */
  PCALL(SbpProblemSetForcingSource(
      p, "// #define SBPMG_RHS_F 0\n/* #undef SBPMG_REAL */ double sbp_user_forcing(double x, double y) { return 1; } // # define SBPMG_X\n"));
  PCALL(SbpProblemSetMuSource(p, "double sbp_user_mu(double x, double y) { return 1; } /*\n*/ int b; #define SBPMG_Y 1\n"));
  PCALL(SbpProblemDestroy(&p));
}

/* Macros in the user's sources: harmless ones, the former internal names (before they were reserved and #undefined after the
   source, #define RHS_F 0 in the forcing source zeroed the forcing), and macros named like the OpenCL functions that the
   library's code after the sources calls (fmin and sqrt in kernels/rhs.cl, exp in none): the same answer as the plain problem. */
static void test_macros_in_sources(void **state)
{
  static const char forcing[] = "#define RHS_F 0\n"
                                "#define COEF_MU 7\n"
                                "#define COEF_METRIC 1\n"
                                "#define TWO 2.0\n"
                                "#define fmin(a, b) ((a) + (b))\n"
                                "#define SQ(v) ((v) * (v))\n"
                                "double sbp_user_forcing(double x, double y)\n"
                                "{\n"
                                "  return TWO * SQ(M_PI) * 1.7 * sin(M_PI * x) * cos(M_PI * y);\n"
                                "}\n";
  static const char prelude[] = "#define RHS_G3 1\n#define RHS_G4 1\n#define sqrt(v) (2 * (v))\n#define SBP_KERNELS 7\n";
  static const char musrc[]   = "#define COEF_MU 0\n#define COEF_MAP 1\n#define MU 1.7\ndouble sbp_user_mu(double x, double y) { return MU; }\n";
  SbpTestAnswer     ref       = plain_answer(), a;
  SbpProblem        p;

  p = make_problem(NULL); /* the data's macros */
  set_sources(p, forcing, prelude);
  a = SbpTestAnswerOf(p, PETSC_FALSE);
  PCALL(SbpProblemDestroy(&p));
  expect_same_answer(&ref, &a, "macros in the data's sources");
  SbpTestAnswerDestroy(&a);

  p = make_problem(musrc); /* mu as a source with macros, before kernels/coef.cl */
  set_sources(p, forcing, prelude);
  a = SbpTestAnswerOf(p, PETSC_FALSE);
  PCALL(SbpProblemDestroy(&p));
  expect_same_answer(&ref, &a, "macros in the mu and data sources");
  SbpTestAnswerDestroy(&a);
  SbpTestAnswerDestroy(&ref);
}

/* A source that does not compile on its line 3, after another source of 5 lines: the error names the program's sources and
   the compiler's message "setter:3:" (its own numbering, whatever comes before); likewise in the coefficients' program. */
static void test_build_error_names_source(void **state)
{
  static const char bad_forcing[] = "double sbp_user_forcing(double x, double y)\n{\n  return x +* ;\n}\n";
  static const char musrc[]       = "/* mu\n   is\n   constant */\n#define MU 1.7\ndouble sbp_user_mu(double x, double y) { return MU; }\n";
  SbpProblem        p             = make_problem(musrc);
  Vec               g;

  PCALL(SbpProblemSetForcingSource(p, bad_forcing));
  PCALL(SbpProblemCreateVector(p, &g));
  EXPECT_ERROR(SbpProblemComputeRHS(p, g), PETSC_ERR_LIB,
               "Building OpenCL program the user's sources (SbpProblemSetMuSource, SbpProblemSetForcingSource) and kernels/coef+sbp+rhs.cl failed");
  EXPECT_ERROR(SbpProblemComputeRHS(p, g), PETSC_ERR_LIB, "SbpProblemSetForcingSource:3:");
  PCALL(VecDestroy(&g));
  PCALL(SbpProblemDestroy(&p));

  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetSizes(p, 8, 12));
  PCALL(SbpProblemSetMuSource(p, "double sbp_user_mu(double x, double y)\n{ return 1.7 }\n"));
  PCALL(SbpProblemSetBackend(p, SBP_BACKEND_DEVICE));
  EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_LIB, "SbpProblemSetMuSource:2:");
  PCALL(SbpProblemDestroy(&p));
}

/* A compiler that ignores #line (NVIDIA's "<kernel>:L:C"): the error's positions mapped to the setter's own lines. */
static void test_build_log_mapped_without_line_directives(void **state)
{
  const char source[] = "#line 1 \"SbpProblemSetMuSource\"\ndouble m(double x) { return 1; }\n#undef A\n#line 1 \"SbpProblemSetForcingSource\"\n"
                        "double f(double x)\n{\n  return x +* ;\n}\n#line 1 \"kernels/coef.cl\"\nkernel void k() {}\n";
  char       where[512];

  (void)state;
  PCALL(SbpmgCLMapBuildLog(source, "<kernel>:7:15: error: expected expression\n<kernel>:10:1: note\n", where, sizeof(where)));
  print_message("%s", where);
  assert_non_null(strstr(where, "<kernel>:7:15 is SbpProblemSetForcingSource:3:15"));
  assert_non_null(strstr(where, "<kernel>:10:1 is kernels/coef.cl:1:1"));
  PCALL(SbpmgCLMapBuildLog("kernel void k() {}\n", "<kernel>:1:1: error\n", where, sizeof(where)));
  assert_string_equal(where, ""); /* no #line: nothing to map */
}

static int setup(void **state)
{
  SbpmgCL cl;
  return (int)SbpmgCLGetDefault(&cl);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup(test_reserved_build_options, setup),   cmocka_unit_test_setup(test_former_names_in_build_options, setup),
    cmocka_unit_test_setup(test_reserved_in_sources, setup),      cmocka_unit_test_setup(test_macros_in_sources, setup),
    cmocka_unit_test_setup(test_build_error_names_source, setup), cmocka_unit_test(test_build_log_mapped_without_line_directives),
};

SBPMG_TEST_MAIN(help, tests)
