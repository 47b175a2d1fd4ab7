/* The set-up on the device (src/sbp/coefficients.c, kernels/coef.cl): the coefficients the device generates equal the host
   reference (the host point functions) node by node to 1e-13 relative, for the built-in mappings and mu, grids with Nr != Ns;
   the user's OpenCL source gives what the same functions as host callbacks give; a coarse level of host callbacks is the fine
   level's injection, bit for bit the re-evaluated values; invalid coefficients made on the device are found there and the
   first bad node named; a source that does not compile ends in the build log; one rank's device path makes no DMDA. */
#include "test_sbp_common.h"

/* max over the patch of |device - host| / scale, scale = |host| (a zero host value needs a zero device value), or for crs the
   scale of the coefficient tensor sqrt(crr css) >= |crs| (crs is a difference of products, x_r x_s + y_r y_s: where it nearly
   cancels, a last-bit difference of sin or tanh is a large part of the small value, not of the tensor) */
static PetscReal rel_diff(PetscInt n, const PetscReal *d, const PetscReal *h, const PetscReal *crr, const PetscReal *css)
{
  PetscReal m = 0;

  for (PetscInt k = 0; k < n; k++) {
    PetscReal e = PetscAbsReal(d[k] - h[k]), scale = crr ? PetscSqrtReal(crr[k] * css[k]) : PetscAbsReal(h[k]);
    if (scale != 0)
      e /= scale;
    else if (e != 0)
      e = PETSC_INFINITY;
    if (!(e <= m)) m = e; /* NaN too */
  }
  return m;
}

/* The host reference of a set-up problem's patch, compared with what its device made. */
static PetscReal device_vs_host(SbpProblem p)
{
  const PetscInt np = p->gxm * p->gym;
  PetscReal     *h[4], err = 0, value = 0;
  PetscInt       bad;
  int            what = -1;

  PCALL(PetscMalloc4(np, &h[0], np, &h[1], np, &h[2], np, &h[3]));
  PCALL(SbpProblemEvaluateCoefficientsHost(p, h[0], h[1], h[2], h[3], &bad, &what, &value));
  assert_int_equal(bad, PETSC_MAX_INT);
  PCALL(SbpProblemGetHostCoefficients(p)); /* read back from the device */
  err = PetscMax(PetscMax(rel_diff(np, p->crr, h[0], NULL, NULL), rel_diff(np, p->css, h[1], NULL, NULL)),
                 PetscMax(rel_diff(np, p->crs, h[2], h[0], h[1]), rel_diff(np, p->J, h[3], NULL, NULL)));
  PCALL(PetscFree4(h[0], h[1], h[2], h[3]));
  return err;
}

static void test_builtin_device_vs_host(void **state)
{
  const PetscInt sizes[3][2] = {{24, 40}, {40, 24}, {7, 9}};

  for (int map = 0; map < 2; map++)
    for (int mu = 0; mu < 2; mu++)
      for (int s = 0; s < 3; s++) {
        SbpProblem p;
        PetscReal  err;

        PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
        PCALL(SbpProblemSetSizes(p, sizes[s][0], sizes[s][1]));
        PCALL(SbpProblemSetMapping(p, map ? SBP_MAPPING_SQUARE : SBP_MAPPING_CURVED));
        PCALL(SbpProblemSetMu(p, mu ? SBP_MU_CONSTANT : SBP_MU_BASIN, 2.5));
        PCALL(SbpProblemSetBackend(p, SBP_BACKEND_DEVICE));
        PCALL(SbpProblemSetUp(p));
        assert_null(p->da); /* one rank's device path: no DMDA */
        err = device_vs_host(p);
        print_message("  %s, %s, %d x %d: max relative |device - host| = %.2e\n", map ? "square" : "curved", mu ? "constant" : "basin", (int)sizes[s][0],
                      (int)sizes[s][1], (double)err);
        if (!(err <= 1e-13)) fail_msg("device coefficients differ from the host's by %g", (double)err);
        PCALL(SbpProblemDestroy(&p));
      }
}

/* A map and mu as host callbacks and as OpenCL source: the same formulas. */
static PetscErrorCode WavyMap(void *ctx, PetscReal r, PetscReal s, PetscReal X[6])
{
  X[0] = 1.5 * r + 0.1 * PetscSinReal(s);
  X[1] = 0.8 * s + 0.05 * r * r;
  X[2] = 1.5;
  X[3] = 0.1 * PetscCosReal(s);
  X[4] = 0.1 * r;
  X[5] = 0.8;
  return 0;
}

static PetscErrorCode LayeredMu(void *ctx, PetscReal x, PetscReal y, PetscReal *mu)
{
  *mu = 3 + PetscTanhReal(4 * (y - 0.1 * x));
  return 0;
}

static const char WavyMapSource[]   = "void sbp_user_mapping(double r, double s, double X[6])\n"
                                      "{\n"
                                      "  X[0] = 1.5 * r + 0.1 * sin(s);\n"
                                      "  X[1] = 0.8 * s + 0.05 * r * r;\n"
                                      "  X[2] = 1.5;\n"
                                      "  X[3] = 0.1 * cos(s);\n"
                                      "  X[4] = 0.1 * r;\n"
                                      "  X[5] = 0.8;\n"
                                      "}\n";
static const char LayeredMuSource[] = "double sbp_user_mu(double x, double y) { return 3 + tanh(4 * (y - 0.1 * x)); }\n";

static SbpProblem user_problem(PetscBool source, PetscInt Nr, PetscInt Ns)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetSizes(p, Nr, Ns));
  PCALL(SbpProblemSetMappingFunction(p, WavyMap, NULL)); /* the host reference of both */
  PCALL(SbpProblemSetMuFunction(p, LayeredMu, NULL));
  if (source) {
    PCALL(SbpProblemSetMappingSource(p, WavyMapSource));
    PCALL(SbpProblemSetMuSource(p, LayeredMuSource));
  }
  PCALL(SbpProblemSetBackend(p, SBP_BACKEND_DEVICE));
  PCALL(SbpProblemSetUp(p));
  return p;
}

static void test_user_source(void **state)
{
  SbpProblem src = user_problem(PETSC_TRUE, 30, 18), host = user_problem(PETSC_FALSE, 30, 18);
  PetscReal  err;

  /* the source's coefficients, generated on the device, against the host callbacks' (evaluated on the host, uploaded) */
  err = device_vs_host(src);
  print_message("  user OpenCL source: max relative |device - host| = %.2e\n", (double)err);
  if (!(err <= 1e-13)) fail_msg("coefficients of the user's source differ from the host callbacks' by %g", (double)err);
  assert_true(device_vs_host(host) == 0); /* uploaded as computed */
  PCALL(SbpProblemDestroy(&src));
  PCALL(SbpProblemDestroy(&host));
}

/* One rank, host callbacks: the coarse level is the fine level's injection, equal to the host's values on the coarse grid. */
static void test_coarse_injected(void **state)
{
  SbpProblem fine = user_problem(PETSC_FALSE, 32, 16), coarse, cc;

  PCALL(SbpProblemCoarsen(fine, &coarse));
  assert_true(device_vs_host(coarse) == 0);
  PCALL(SbpProblemCoarsen(coarse, &cc));
  assert_true(device_vs_host(cc) == 0);
  PCALL(SbpProblemDestroy(&cc));
  PCALL(SbpProblemDestroy(&coarse));
  PCALL(SbpProblemDestroy(&fine));
}

/* Invalid coefficients made on the device (a mu source negative left of x = -0.5) and from host callbacks on the device
   backend: the same error, naming the first bad node in natural order, as the host backend gives. */
static PetscErrorCode NegativeMu(void *ctx, PetscReal x, PetscReal y, PetscReal *mu)
{
  *mu = x < -0.5 ? -1 : 1;
  return 0;
}

static void test_bad_coefficients(void **state)
{
  const char *negsrc = "double sbp_user_mu(double x, double y) { return x < -0.5 ? -1.0 : 1.0; }\n";

  for (int way = 0; way < 3; way++) { /* device source, host callback on the device backend, host backend */
    SbpProblem p;

    PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
    PCALL(SbpProblemSetSizes(p, 16, 12));
    PCALL(SbpProblemSetMapping(p, SBP_MAPPING_SQUARE));
    if (way == 0)
      PCALL(SbpProblemSetMuSource(p, negsrc));
    else
      PCALL(SbpProblemSetMuFunction(p, NegativeMu, NULL));
    PCALL(SbpProblemSetBackend(p, way == 2 ? SBP_BACKEND_HOST : SBP_BACKEND_DEVICE));
    /* x = -1 + i/8 < -0.5 first at node (0,0) */
    EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_OUTOFRANGE, "Invalid SBP-SAT coefficients at node (i,j) = (0,0): mu = -1");
    PCALL(SbpProblemDestroy(&p));
  }
  { /* a folded map in the user's source: J = 1 - 3 r^2 < 0 near r = -1 */
    const char *fold = "void sbp_user_mapping(double r, double s, double X[6])\n"
                       "{ X[0] = r - r * r * r; X[1] = s; X[2] = 1 - 3 * r * r; X[3] = 0; X[4] = 0; X[5] = 1; }\n";
    SbpProblem  p;

    PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
    PCALL(SbpProblemSetSizes(p, 16, 12));
    PCALL(SbpProblemSetMappingSource(p, fold));
    PCALL(SbpProblemSetBackend(p, SBP_BACKEND_DEVICE));
    EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_OUTOFRANGE, "Invalid SBP-SAT coefficients at node (i,j) = (0,0): J = x_r y_s - x_s y_r = -2");
    PCALL(SbpProblemDestroy(&p));
  }
}

/* A source that does not compile: the error carries the compiler's log, with the line of the user's source. */
static void test_source_build_error(void **state)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetSizes(p, 8, 8));
  PCALL(SbpProblemSetMuSource(p, "double sbp_user_mu(double x, double y)\n{\n  return 1 + undefined_name * x;\n}\n"));
  PCALL(SbpProblemSetBackend(p, SBP_BACKEND_DEVICE));
  EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_LIB, "build log:");
  EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_LIB, "undefined_name");
  EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_LIB, ":3:");
  PCALL(SbpProblemDestroy(&p));
}

static SbpProblem rhs_problem(PetscBool square, PetscBool constant, const char *bc, SbpBackend backend)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetSizes(p, 20, 28));
  for (PetscInt f = 0; f < 4; f++) PCALL(SbpProblemSetBC(p, f + 1, bc[f] == 'D' ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN));
  PCALL(SbpProblemSetMapping(p, square ? SBP_MAPPING_SQUARE : SBP_MAPPING_CURVED));
  if (constant) PCALL(SbpProblemSetMu(p, SBP_MU_CONSTANT, 1.7));
  PCALL(SbpProblemSetBackend(p, backend));
  PCALL(SbpProblemSetUp(p));
  return p;
}

/* The right-hand side made on the device against the host's (point-wise, itself checked against the Kronecker assembly in
   test_sbp): every kind of face set, both mappings and both built-in mu, Nr != Ns. */
static void test_rhs_device_vs_host(void **state)
{
  const char *bcs[] = {"DDNN", "DDDD", "NNDD", "DNDN", "NDNN", "DNNN"};

  for (int map = 0; map < 2; map++)
    for (int mu = 0; mu < 2; mu++)
      for (size_t b = 0; b < sizeof(bcs) / sizeof(bcs[0]); b++) {
        SbpProblem pd = rhs_problem(map, mu, bcs[b], SBP_BACKEND_DEVICE), ph = rhs_problem(map, mu, bcs[b], SBP_BACKEND_HOST);
        Vec        gd, gh, gdh;
        PetscReal  err;

        PCALL(SbpProblemCreateVector(pd, &gd));
        PCALL(SbpProblemCreateVector(ph, &gh));
        PCALL(SbpProblemComputeRHS(pd, gd));
        PCALL(SbpProblemComputeRHS(ph, gh));
        PCALL(VecDuplicate(gh, &gdh));
        PCALL(VecCopy(gd, gdh));
        err = SbpmgTestRelDiff(gdh, gh);
        print_message("  %s, %s, %s: |device - host| / |host| = %.2e\n", map ? "square" : "curved", mu ? "constant" : "basin", bcs[b], (double)err);
        if (!(err <= 1e-13)) fail_msg("the device right-hand side differs from the host's by %g", (double)err);
        PCALL(VecDestroy(&gdh));
        PCALL(VecDestroy(&gd));
        PCALL(VecDestroy(&gh));
        PCALL(SbpProblemDestroy(&pd));
        PCALL(SbpProblemDestroy(&ph));
      }
}

int main(int argc, char **argv)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_builtin_device_vs_host), cmocka_unit_test(test_user_source),        cmocka_unit_test(test_coarse_injected),
      cmocka_unit_test(test_bad_coefficients),       cmocka_unit_test(test_source_build_error), cmocka_unit_test(test_rhs_device_vs_host),
  };
  return SbpmgTestMain(argc, argv, "sbpmg set-up on the device", tests, sizeof(tests) / sizeof(tests[0]), __FILE__);
}
