/* SBP-SAT, the matrix-free operator: == the assembled reference on the device (the interior/rim kernel pair and one kernel over all
   nodes) and on the host, the fp32-coefficient residual of the multigrid levels, the diagonal norms, the levels of each precision. */
#include "test_sbp_common.h"

static const char help[] = "Tests of the matrix-free SBP-SAT operator (src/sbp, kernels/sbp.cl).\n";

static PetscBool   kernel_split = PETSC_TRUE; /* the device kernels: interior and rim apart (at every size), or one over all nodes */
static const char *kernel_loads = "";         /* "" the device's lean-kernel loads (tuning sbp_select), or ",sbp_select=0|1" */

static SbpProblem make_problem(MPI_Comm comm, PetscInt Nr, PetscInt Ns, const char *bc, SbpMappingType map, SbpBackend backend)
{
  char tune[96];

  PCALL(PetscSNPrintf(tune, sizeof(tune), "%s%s", kernel_split ? "sbp_split_min=0" : "sbp_split=0,sbp_split_min=0", kernel_loads));
  return SbpTestProblem(comm, Nr, Ns, bc, map, backend, tune);
}

/* ---------------------------------------------------------------- matrix-free == assembled (spec 9.6) */

static void check_matrix_free(PetscInt Nr, PetscInt Ns, const char *bc, SbpMappingType map, SbpBackend backend)
{
  SbpProblem p = make_problem(PETSC_COMM_SELF, Nr, Ns, bc, map, backend);
  Mat        A, M;
  Vec        x, y, yref, z, d, dref;
  PetscReal  err;

  PCALL(SbpProblemCreateAssembledOperator(p, &A));
  PCALL(SbpProblemCreateOperator(p, &M));
  PCALL(MatCreateVecs(M, &x, &y));
  PCALL(MatCreateVecs(A, NULL, &yref));
  PCALL(VecDuplicate(y, &z));
  for (int r = 0; r < 3; r++) {
    Vec xh;
    SbpmgTestFillRandom(x, 11 * Nr + Ns + r);
    PCALL(VecSet(y, NAN)); /* poisoned output: every entry must be written */
    PCALL(MatMult(M, x, y));
    PCALL(MatCreateVecs(A, &xh, NULL));
    PCALL(VecCopy(x, xh));
    PCALL(MatMult(A, xh, yref));
    err = SbpmgTestRelDiff(y, yref);
    if (!(err < 1e-12))
      fail_msg("%s %dx%d %s: |M_free x - M_assembled x|/|M x| = %g", backend == SBP_BACKEND_DEVICE ? "device" : "host", (int)Nr, (int)Ns, bc, err);
    /* MatMultAdd: y = z + M x */
    SbpmgTestFillRandom(z, 5 + r);
    PCALL(MatMultAdd(M, x, z, y));
    PCALL(VecAXPY(yref, 1, z));
    err = SbpmgTestRelDiff(y, yref);
    if (!(err < 1e-12)) fail_msg("MatMultAdd: %g", err);
    PCALL(VecDestroy(&xh));
  }
  PCALL(MatCreateVecs(M, &d, NULL));
  PCALL(MatCreateVecs(A, &dref, NULL));
  PCALL(VecSet(d, NAN));
  PCALL(MatGetDiagonal(M, d));
  PCALL(MatGetDiagonal(A, dref));
  err = SbpmgTestRelDiff(d, dref);
  if (!(err < 1e-12)) fail_msg("diagonal: %g", err);
  PCALL(VecDestroy(&d));
  PCALL(VecDestroy(&dref));
  PCALL(VecDestroy(&x));
  PCALL(VecDestroy(&y));
  PCALL(VecDestroy(&z));
  PCALL(VecDestroy(&yref));
  PCALL(MatDestroy(&M));
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

static const PetscInt mf_sizes[][2] = {{4, 4}, {8, 16}, {16, 8}, {64, 64}, {96, 32}, {5, 7}};

static void test_matrix_free_device(void **state)
{
  for (size_t t = 0; t < sizeof(mf_sizes) / sizeof(mf_sizes[0]); t++) {
    if (SbpmgTestUnderMemcheck() && (t == 2 || t == 3)) continue; /* under valgrind: the shapes 16 x 8 and 64 x 64 have the same paths as others */
    check_matrix_free(mf_sizes[t][0], mf_sizes[t][1], "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE);
    check_matrix_free(mf_sizes[t][0], mf_sizes[t][1], "DDDD", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE);
    check_matrix_free(mf_sizes[t][0], mf_sizes[t][1], "NDDN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE);
  }
  check_matrix_free(16, 24, "NNNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE);
  check_matrix_free(16, 24, "DNDN", SBP_MAPPING_SQUARE, SBP_BACKEND_DEVICE);
}

/* the same with one kernel over all nodes (tuning sbp_split=0) */
static void test_matrix_free_device_unsplit(void **state)
{
  kernel_split = PETSC_FALSE;
  test_matrix_free_device(state);
  kernel_split = PETSC_TRUE;
}

/* the interior kernels with either form of their loads (tuning sbp_select: branch-free on CPUs, loads only where used on GPUs), with
   2 and 3 rows per work-item (tuning sbp_inner_rows: 27 interior rows and 48 leave a partial last one), and with and without their
   column guard (tuning sbp_inner_whole: 35 interior columns are a work-group of 32 and one of 3, 30 one of 30, 32 one of 32) */
static void test_matrix_free_device_loads(void **state)
{
  const char *loads[] = {",sbp_select=0",      ",sbp_select=1",
                         ",sbp_inner_rows=2",  ",sbp_inner_rows=3,sbp_select=0",
                         ",sbp_inner_whole=0", ",sbp_inner_whole=1,sbp_select=0,sbp_inner_rows=2"};
  for (int l = 0; l < 6; l++) {
    kernel_loads = loads[l];
    check_matrix_free(40, 27, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE);
    check_matrix_free(33, 48, "NDDN", SBP_MAPPING_SQUARE, SBP_BACKEND_DEVICE);
    check_matrix_free(37, 20, "DDDD", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE);
  }
  kernel_loads = "";
}

/* The coefficients of the problem's own formula (spec section 0), rounded to fp32: a problem with these is the independent
   reference of the kernels that read the fp32 coefficient buffers. */
static PetscErrorCode metric_rounded(void *ctx, PetscReal r, PetscReal s, const PetscReal X[6], PetscReal mu, PetscReal c[4])
{
  const PetscReal J = X[2] * X[5] - X[3] * X[4];
  c[0]              = (PetscReal)(float)(mu * (X[3] * X[3] + X[5] * X[5]) / J);
  c[1]              = (PetscReal)(float)(mu * (X[2] * X[2] + X[4] * X[4]) / J);
  c[2]              = (PetscReal)(float)(-mu * (X[2] * X[3] + X[4] * X[5]) / J);
  c[3]              = J;
  return 0;
}

/* r = b - M~ x with the fp32 coefficient kernels (the multigrid levels' residual) against the assembled operator of the problem
   whose coefficients are those values rounded, for the single kernel and the interior/rim pair. */
static void test_fp32_coefficients(void **state)
{
  const char *bcs[] = {"DDNN", "DDDD", "NNDN"};
  for (int t = 0; t < 3; t++)
    for (int shape = 0; shape < 2; shape++) {
      PetscInt   Nr = 40, Ns = 27;
      SbpProblem p, p32, p64;
      Mat        A32, A64;
      Vec        x, b, r, xh, bh, rref, r64;
      PetscReal  err, err64;

      kernel_split = shape ? PETSC_TRUE : PETSC_FALSE;
      p            = make_problem(PETSC_COMM_SELF, Nr, Ns, bcs[t], SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE);
      p64          = make_problem(PETSC_COMM_SELF, Nr, Ns, bcs[t], SBP_MAPPING_CURVED, SBP_BACKEND_HOST);
      PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p32));
      PCALL(SbpProblemSetSizes(p32, Nr, Ns));
      PCALL(SbpProblemSetMapping(p32, SBP_MAPPING_CURVED));
      for (PetscInt f = 0; f < 4; f++) PCALL(SbpProblemSetBC(p32, f + 1, bcs[t][f] == 'D' ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN));
      PCALL(SbpProblemSetMetricFunction(p32, metric_rounded, NULL));
      PCALL(SbpProblemSetBackend(p32, SBP_BACKEND_HOST));
      PCALL(SbpProblemSetUp(p32));
      PCALL(SbpProblemCreateAssembledOperator(p32, &A32));
      PCALL(SbpProblemCreateAssembledOperator(p64, &A64));
      PCALL(SbpProblemCreateVector(p, &x));
      PCALL(SbpProblemCreateVector(p, &b));
      PCALL(VecDuplicate(x, &r));
      SbpmgTestFillRandom(x, 3 + t);
      SbpmgTestFillRandom(b, 7 + t);
      PCALL(VecSet(r, NAN));
      PCALL(SbpProblemApplyDevice(p, x, b, -1.0, r, SBP_KERNEL_COEF32));
      PCALL(MatCreateVecs(A32, &xh, &bh));
      PCALL(VecDuplicate(bh, &rref));
      PCALL(VecDuplicate(bh, &r64));
      PCALL(VecCopy(x, xh));
      PCALL(VecCopy(b, bh));
      PCALL(MatMult(A32, xh, rref));
      PCALL(VecAYPX(rref, -1, bh)); /* b - A32 x */
      PCALL(MatMult(A64, xh, r64));
      PCALL(VecAYPX(r64, -1, bh)); /* b - A x: the fp64 operator, which the fp32 kernels must not reproduce exactly */
      err   = SbpmgTestRelDiff(r, rref);
      err64 = SbpmgTestRelDiff(r, r64);
      if (!(err < 1e-13)) fail_msg("%s shape %d: |r_fp32 - (b - A32 x)| / |r| = %g", bcs[t], shape, err);
      if (!(err64 > 1e-10 && err64 < 1e-6)) fail_msg("%s shape %d: the fp32 residual differs from the fp64 one by %g, not by rounding", bcs[t], shape, err64);
      PCALL(VecDestroy(&x));
      PCALL(VecDestroy(&b));
      PCALL(VecDestroy(&r));
      PCALL(VecDestroy(&xh));
      PCALL(VecDestroy(&bh));
      PCALL(VecDestroy(&rref));
      PCALL(VecDestroy(&r64));
      PCALL(MatDestroy(&A32));
      PCALL(MatDestroy(&A64));
      PCALL(SbpProblemDestroy(&p));
      PCALL(SbpProblemDestroy(&p32));
      PCALL(SbpProblemDestroy(&p64));
    }
  kernel_split = PETSC_TRUE;
}

static void test_matrix_free_host(void **state)
{
  for (size_t t = 0; t < sizeof(mf_sizes) / sizeof(mf_sizes[0]); t++) {
    check_matrix_free(mf_sizes[t][0], mf_sizes[t][1], "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_HOST);
    check_matrix_free(mf_sizes[t][0], mf_sizes[t][1], "NDDN", SBP_MAPPING_CURVED, SBP_BACKEND_HOST);
  }
}

/* H, H^-1, JH, (JH)^-1 against the Kronecker product of the 1D norms and J. */
static void test_norms(void **state)
{
  const SbpBackend backends[] = {SBP_BACKEND_DEVICE, SBP_BACKEND_HOST};
  for (int b = 0; b < 2; b++) {
    PetscInt    Nr = 12, Ns = 7;
    SbpProblem  p = make_problem(PETSC_COMM_SELF, Nr, Ns, "DDNN", SBP_MAPPING_CURVED, backends[b]);
    SbpSparse1D Hr, Hs;

    PCALL(SbpSparse1DNorm(2, Nr, 2.0 / Nr, PETSC_FALSE, &Hr));
    PCALL(SbpSparse1DNorm(2, Ns, 2.0 / Ns, PETSC_FALSE, &Hs));
    for (int kind = SBP_NORM_H; kind <= SBP_NORM_JHINV; kind++) {
      Mat                H;
      Vec                x, y;
      const PetscScalar *xa, *ya;
      PetscReal          maxerr = 0;

      PCALL(SbpProblemCreateNorm(p, (SbpNormType)kind, &H));
      PCALL(MatCreateVecs(H, &x, &y));
      SbpmgTestFillRandom(x, 77 + kind);
      PCALL(VecSet(y, NAN));
      PCALL(MatMult(H, x, y));
      PCALL(VecGetArrayRead(x, &xa));
      PCALL(VecGetArrayRead(y, &ya));
      for (PetscInt j = 0; j <= Ns; j++)
        for (PetscInt i = 0; i <= Nr; i++) {
          PetscReal X[6], m[3], J, w = Hr.a[i] * Hs.a[j], want;
          PCALL(SbpProblemEvaluateNode(p, i, j, X, m));
          J      = X[2] * X[5] - X[3] * X[4];
          want   = (kind == SBP_NORM_H ? w : kind == SBP_NORM_HINV ? 1 / w : kind == SBP_NORM_JH ? J * w : 1 / (J * w)) * xa[i + (Nr + 1) * j];
          maxerr = PetscMax(maxerr, PetscAbsReal(ya[i + (Nr + 1) * j] - want) / PetscAbsReal(want));
        }
      PCALL(VecRestoreArrayRead(x, &xa));
      PCALL(VecRestoreArrayRead(y, &ya));
      if (!(maxerr < 1e-14)) fail_msg("norm kind %d backend %d: relative error %g", kind, b, maxerr);
      PCALL(VecDestroy(&x));
      PCALL(VecDestroy(&y));
      PCALL(MatDestroy(&H));
    }
    PCALL(SbpSparse1DDestroy(&Hr));
    PCALL(SbpSparse1DDestroy(&Hs));
    PCALL(SbpProblemDestroy(&p));
  }
}

/* ---------------------------------------------------------------- the levels (docs/design.md "The level object") */

/* Each precision's level reports its precision and the operator's order; COEF32 and FP32 share the fp32 coefficients, FP64 and COEF32
   the ghost exchange; a level before set-up, or on the host backend, is an error. */
static void test_levels(void **state)
{
  const PetscInt orders[2] = {2, 4};

  (void)state;
  for (int o = 0; o < 2; o++) {
    SbpProblem p;
    SbpLevel   lv[3];
    cl_mem     c[3][3];
    SbpHalo    h[3];

    PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
    PCALL(SbpProblemSetSizes(p, 16, 12));
    PCALL(SbpProblemSetOrder(p, orders[o]));
    PCALL(SbpProblemSetBackend(p, SBP_BACKEND_DEVICE));
    EXPECT_ERROR(SbpProblemGetLevel(p, SBP_KERNEL_FP64, &lv[0]), PETSC_ERR_ORDER, "Call SbpProblemSetUp() before getting a level");
    PCALL(SbpProblemSetUp(p));
    for (int k = 0; k < 3; k++) {
      SbpKernelPrecision prec;
      PetscInt           order;
      SbpProblem         q;

      PCALL(SbpProblemGetLevel(p, (SbpKernelPrecision)k, &lv[k]));
      PCALL(SbpLevelGetPrecision(lv[k], &prec));
      PCALL(SbpLevelGetOrder(lv[k], &order));
      PCALL(SbpLevelGetProblem(lv[k], &q));
      assert_int_equal(prec, k);
      assert_int_equal(order, orders[o]);
      assert_ptr_equal(q, p);
      PCALL(SbpLevelGetCoefficientBuffers(lv[k], &c[k][0], &c[k][1], &c[k][2]));
      PCALL(SbpLevelGetHalo(lv[k], &h[k]));
      assert_null(h[k]); /* one rank */
    }
    for (int t = 0; t < 3; t++) {
      assert_non_null(c[0][t]);
      assert_non_null(c[1][t]);
      assert_ptr_equal(c[1][t], c[2][t]);
      assert_ptr_not_equal(c[0][t], c[1][t]);
    }
    {
      SbpLevel again;
      PCALL(SbpProblemGetLevel(p, SBP_KERNEL_FP32, &again));
      assert_ptr_equal(again, lv[2]);
    }
    PCALL(SbpProblemDestroy(&p));
  }
  {
    SbpProblem p;
    SbpLevel   lv;

    PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
    PCALL(SbpProblemSetSizes(p, 8, 8));
    PCALL(SbpProblemSetBackend(p, SBP_BACKEND_HOST));
    PCALL(SbpProblemSetUp(p));
    EXPECT_ERROR(SbpProblemGetLevel(p, SBP_KERNEL_FP64, &lv), PETSC_ERR_ARG_WRONGSTATE, "no device levels (host backend)");
    PCALL(SbpProblemDestroy(&p));
  }
}

static const struct CMUnitTest tests[] = {cmocka_unit_test(test_matrix_free_host),
                                          cmocka_unit_test(test_matrix_free_device),
                                          cmocka_unit_test(test_matrix_free_device_unsplit),
                                          cmocka_unit_test(test_matrix_free_device_loads),
                                          cmocka_unit_test(test_fp32_coefficients),
                                          cmocka_unit_test(test_norms),
                                          cmocka_unit_test(test_levels)};

SBPMG_TEST_MAIN(help, tests)
