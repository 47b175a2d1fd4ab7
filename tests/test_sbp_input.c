/* SBP-SAT, bad input: every bad size, coefficient, mapping, metric, face, option value and matrix gives its PETSc error (the
   choice options' unknown values, which PETSc's own PetscOptionsEnum reports, run as programs: tests/sbp.cmake); the options
   prefix of a problem. */
#include "test_sbp_common.h"

static const char help[] = "Tests of the SBP-SAT problem's bad input and options (src/sbp).\n";

/* ---------------------------------------------------------------- bad input */

static PetscErrorCode mu_nan(void *ctx, PetscReal x, PetscReal y, PetscReal *mu)
{
  *mu = x > 0.2 ? NAN : 1;
  return 0;
}

static PetscErrorCode map_flipped(void *ctx, PetscReal r, PetscReal s, PetscReal X[6])
{
  X[0] = -r;
  X[1] = s;
  X[2] = -1;
  X[3] = 0;
  X[4] = 0;
  X[5] = 1;
  return 0;
}

/* crs too large for the given crr, css: the metric is not positive definite */
static PetscErrorCode metric_indefinite(void *ctx, PetscReal r, PetscReal s, const PetscReal X[6], PetscReal mu, PetscReal c[4])
{
  c[0] = 1;
  c[1] = 2;
  c[2] = (r > 0.4 && s > 0.4) ? 1.5 : 0.1;
  c[3] = 1;
  return 0;
}

/* The user functions that fail the set-up: an indefinite metric given directly, a NaN coefficient somewhere inside (on the square),
   a mapping with negative Jacobian */
static void give_indefinite_metric(SbpProblem p)
{
  PCALL(SbpProblemSetMetricFunction(p, metric_indefinite, NULL));
}

static void give_nan_mu(SbpProblem p)
{
  PCALL(SbpProblemSetMapping(p, SBP_MAPPING_SQUARE));
  PCALL(SbpProblemSetMuFunction(p, mu_nan, NULL));
}

static void give_flipped_mapping(SbpProblem p)
{
  PCALL(SbpProblemSetMappingFunction(p, map_flipped, NULL));
}

static void test_bad_user_functions(void **state)
{
  const struct {
    PetscInt N;
    void (*give)(SbpProblem);
    const char *message;
  } bad[] = {
      {10, give_indefinite_metric, ": crr*css - crs^2 = -0.25; need"},
      {8, give_nan_mu, "at node (i,j) = (5,0): mu = nan"},
      {8, give_flipped_mapping, "at node (i,j) = (0,0): J = x_r y_s - x_s y_r = -1"},
  };

  for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
    SbpProblem p;
    PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
    PCALL(SbpProblemSetSizes(p, bad[b].N, bad[b].N));
    bad[b].give(p);
    EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_OUTOFRANGE, bad[b].message);
    PCALL(SbpProblemDestroy(&p));
  }
}

static void test_bad_input(void **state)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetSizes(p, 3, 8));
  EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_OUTOFRANGE, "Nr = 3 is too small");
  PCALL(SbpProblemSetSizes(p, 8, 2));
  EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_OUTOFRANGE, "Ns = 2 is too small");
  PCALL(SbpProblemSetSizes(p, 8, 8));
  PCALL(SbpProblemSetMu(p, SBP_MU_CONSTANT, -2));
  EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_OUTOFRANGE, "-sbp_mu_value -2");
  PCALL(SbpProblemSetMu(p, SBP_MU_CONSTANT, 0));
  EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_OUTOFRANGE, "-sbp_mu_value 0");
  PCALL(SbpProblemSetMu(p, SBP_MU_CONSTANT, (PetscReal)INFINITY)); /* PETSC_INFINITY is finite */
  EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_OUTOFRANGE, "-sbp_mu_value inf");
  EXPECT_ERROR(SbpProblemSetBC(p, 5, SBP_BC_NEUMANN), PETSC_ERR_ARG_OUTOFRANGE, "Face 5 does not exist");
  PCALL(SbpProblemDestroy(&p));

  /* a grid that cannot be coarsened */
  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetSizes(p, 6, 6));
  PCALL(SbpProblemSetUp(p));
  {
    SbpProblem c = NULL;
    EXPECT_ERROR(SbpProblemCoarsen(p, &c), PETSC_ERR_ARG_SIZ,
                 "Cannot coarsen the 6 x 6 grid: a coarse grid would have fewer than 4 intervals in each direction");
    assert_null(c);
  }
  PCALL(SbpProblemDestroy(&p));

  /* MATSBPSAT with sizes that do not match the grid */
  {
    Mat A;
    PCALL(MatCreate(PETSC_COMM_SELF, &A));
    PCALL(MatSetSizes(A, 100, 100, 100, 100));
    SbpmgTestSetOption("-sbp_n", "8");
    EXPECT_ERROR(MatSetType(A, MATSBPSAT), PETSC_ERR_ARG_SIZ,
                 "MATSBPSAT sets its own sizes: 81 unknowns (81 local) for the 8 x 8 grid, but the matrix was given 100 (100 local)");
    SbpmgTestSetOption("-sbp_n", NULL);
    PCALL(MatDestroy(&A));
  }
}

static void test_bad_options(void **state)
{
  const SbpmgTestOption good[] = {
      {"-sbp_n", "12,20"},      {"-sbp_bc", "dndn"}, {"-sbp_mapping", "square"}, {"-sbp_mu", "constant"}, {"-sbp_mu_value", "3"},
      {"-sbp_backend", "host"}, {NULL, NULL},
  };
  SbpProblem p;

  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  { /* each bad value alone: its error code and message */
    const struct {
      const char    *name, *value;
      PetscErrorCode code;
      const char    *message;
    } bad[] = {
        {"-sbp_bc", "DDXN", PETSC_ERR_ARG_WRONG, "letter 'X' for face 3 is neither D (Dirichlet) nor N (Neumann)"},
        {"-sbp_bc", "DDN", PETSC_ERR_ARG_WRONG, "-sbp_bc DDN: give one letter per face"},
        {"-sbp_n", "16,16,16", PETSC_ERR_ARG_SIZ, "-sbp_n 16,16,16: more than 2 values; it takes 1 value (N: both r and s) or 2 (Nr,Ns)"},
        {"-sbp_n", "16,16,16,16,16", PETSC_ERR_ARG_SIZ, "-sbp_n 16,16,16,16,16: more than 2 values"},
        {"-sbp_mapping", "user", PETSC_ERR_ARG_WRONG, "-sbp_mapping user: set a user mapping with SbpProblemSetMappingFunction()"},
        {"-sbp_mu", "user", PETSC_ERR_ARG_WRONG, "-sbp_mu user: set a user coefficient with SbpProblemSetMuFunction()"},
    };
    for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
      SbpmgTestSetOption(bad[b].name, bad[b].value);
      EXPECT_ERROR(SbpProblemSetFromOptions(p), bad[b].code, bad[b].message);
      SbpmgTestSetOption(bad[b].name, NULL);
    }
  }
  /* good options are taken */
  SbpmgTestSetOptions(good);
  PCALL(SbpProblemSetFromOptions(p));
  SbpmgTestClearOptions(good);
  {
    PetscInt   Nr, Ns;
    SbpBCType  bc;
    SbpBackend backend;
    PCALL(SbpProblemGetSizes(p, &Nr, &Ns));
    assert_int_equal(Nr, 12);
    assert_int_equal(Ns, 20);
    PCALL(SbpProblemGetBC(p, 2, &bc));
    assert_int_equal(bc, SBP_BC_NEUMANN);
    PCALL(SbpProblemGetBackend(p, &backend));
    assert_int_equal(backend, SBP_BACKEND_HOST);
    assert_int_equal(p->mapping, SBP_MAPPING_SQUARE);
    assert_int_equal(p->mu, SBP_MU_CONSTANT);
    assert_true(p->mu_value == 3);
  }
  PCALL(SbpProblemDestroy(&p));
}

/* Two problems of one program read their own options under their prefixes (SbpProblemSetOptionsPrefix, Append, Get). */
static void test_options_prefix(void **state)
{
  const SbpmgTestOption prefixed[] = {
      {"-fine_sbp_n", "40"}, {"-other_two_sbp_n", "12,24"}, {"-other_two_sbp_mapping", "square"}, {"-sbp_n", "8"}, /* no prefix: neither problem reads it */
      {NULL, NULL},
  };
  SbpProblem  a, b;
  const char *prefix;
  PetscInt    Nr, Ns;

  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &a));
  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &b));
  PCALL(SbpProblemSetOptionsPrefix(a, "fine_"));
  PCALL(SbpProblemSetOptionsPrefix(b, "other_"));
  PCALL(SbpProblemAppendOptionsPrefix(b, "two_"));
  PCALL(SbpProblemGetOptionsPrefix(b, &prefix));
  assert_string_equal(prefix, "other_two_");
  SbpmgTestSetOptions(prefixed);
  PCALL(SbpProblemSetFromOptions(a));
  PCALL(SbpProblemSetFromOptions(b));
  SbpmgTestClearOptions(prefixed);
  PCALL(SbpProblemGetSizes(a, &Nr, &Ns));
  assert_int_equal(Nr, 40);
  assert_int_equal(Ns, 40);
  assert_int_equal(a->mapping, SBP_MAPPING_CURVED);
  PCALL(SbpProblemGetSizes(b, &Nr, &Ns));
  assert_int_equal(Nr, 12);
  assert_int_equal(Ns, 24);
  assert_int_equal(b->mapping, SBP_MAPPING_SQUARE);
  PCALL(SbpProblemDestroy(&a));
  PCALL(SbpProblemDestroy(&b));
}

/* The problem's tuning overrides (the tests' kernel variants) go through the tuning table's checks. */
static void test_bad_tuning(void **state)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  EXPECT_ERROR(SbpProblemSetTuning(p, "sbp_split_min=-5"), PETSC_ERR_ARG_OUTOFRANGE, "-sbpmg_tune sbp_split_min=-5 is out of range");
  EXPECT_ERROR(SbpProblemSetTuning(p, "sbp_no_such_key=1"), PETSC_ERR_ARG_UNKNOWN_TYPE, "-sbpmg_tune: unknown key 'sbp_no_such_key'");
  PCALL(SbpProblemDestroy(&p));
}

static void test_not_an_sbp_matrix(void **state)
{
  Mat        A;
  SbpProblem p;

  PCALL(MatCreateSeqAIJ(PETSC_COMM_SELF, 4, 4, 1, NULL, &A));
  PCALL(PetscObjectSetName((PetscObject)A, "plain"));
  EXPECT_ERROR(MatGetSbpProblem(A, &p), PETSC_ERR_ARG_WRONG, "Matrix plain of type seqaij is not an sbpmg SBP-SAT operator");
  PCALL(MatDestroy(&A));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_bad_input),      cmocka_unit_test(test_bad_user_functions), cmocka_unit_test(test_bad_options),
    cmocka_unit_test(test_options_prefix), cmocka_unit_test(test_bad_tuning),         cmocka_unit_test(test_not_an_sbp_matrix),
};

SBPMG_TEST_MAIN(help, tests)
