/* The matrix-free SBP-SAT operator of order 4 and 6 (src/sbp/wide.c, kernels/sbp_wide.cl; spec-sbp-sat-highorder.md sections 3-4) against
   the assembled reference (src/sbp/assemble.c, Kronecker products of the 1D blocks), never against the same kernel: MatMult, MatMultAdd
   (z apart and z = y), MatResidual and the diagonal equal the assembled operator's to 1e-12 relative in the max norm, on the host and on
   the device, for the boundary sets DDNN, DDDD, NDDN, NNNN, Nr != Ns, the curved basin and a mapping given as a C function; the norms H,
   H^-1, JH, (JH)^-1 equal the Kronecker products of SbpSparse1DNorm's order-p weights (J from the problem). The same program on 2 and
   3 ranks compares with the parallel assembled operator, and checks the error of a grid too small for 3 ranks at order 6. */
#include "test_sbp_common.h"

static const char help[] = "Tests of the matrix-free SBP-SAT operator of order 4 and 6 (src/sbp/wide.c).\n";

#define WIDE_TOL 1e-12

/* A mapping given as a C function (SBP_MAPPING_USER): x = r + 0.1 s^2, y = s + 0.05 r s, so J = 1 + 0.05 r - 0.01 s^2 > 0. */
static PetscErrorCode user_mapping(void *ctx, PetscReal r, PetscReal s, PetscReal X[6])
{
  (void)ctx;
  X[0] = r + 0.1 * s * s;
  X[1] = s + 0.05 * r * s;
  X[2] = 1;
  X[3] = 0.2 * s;
  X[4] = 0.05 * s;
  X[5] = 1 + 0.05 * r;
  return 0;
}

/* A problem of the given order on comm, set up: Nr x Ns intervals, faces bc ("DDNN"), the mapping (SBP_MAPPING_USER: user_mapping), overrides
   of the tuning (NULL: none; the launches of the interior fast path). */
static SbpProblem wide_problem_tuned(MPI_Comm comm, PetscInt order, PetscInt Nr, PetscInt Ns, const char *bc, SbpMappingType map, SbpBackend backend,
                                     const char *tune)
{
  const SbpTestOrderSettings set = {order, 0, user_mapping, tune};
  SbpProblem                 p   = SbpTestOrderProblem(comm, Nr, Ns, bc, map, backend, &set);

  if (backend == SBP_BACKEND_DEVICE && !p->use_device) fail_msg("The device backend was asked for and not taken");
  return p;
}

static SbpProblem wide_problem(MPI_Comm comm, PetscInt order, PetscInt Nr, PetscInt Ns, const char *bc, SbpMappingType map, SbpBackend backend)
{
  return wide_problem_tuned(comm, order, Nr, Ns, bc, map, backend, NULL);
}

/* |a - b|_inf / |b|_inf with a of the operator's layout (a device vector on the device backend) and b a host vector of the same layout. */
static PetscReal rel_diff(Vec a, Vec b)
{
  Vec       t;
  PetscReal d;

  PCALL(VecDuplicate(b, &t));
  SbpTestCopyLocal(a, t);
  d = SbpmgTestRelDiff(t, b);
  PCALL(VecDestroy(&t));
  return d;
}

static void check_tol(const char *what, const char *op, PetscReal d)
{
  if (!(d < WIDE_TOL)) fail_msg("%s: %s differs from the assembled operator by %.3e relative", what, op, (double)d);
}

/* The largest of the relative differences of MatMult, MatMultAdd (z apart, z = y), MatResidual and the diagonal of the matrix-free
   operator of p against its assembled one; each checked against WIDE_TOL. */
static PetscReal check_operator(SbpProblem p, const char *what)
{
  Mat       M, A;
  Vec       x, y, z, xh, yh, zh;
  PetscReal d, worst = 0;

  PCALL(SbpProblemCreateAssembledOperator(p, &A));
  PCALL(SbpProblemCreateOperator(p, &M));
  PCALL(MatCreateVecs(M, &x, &y));
  PCALL(VecDuplicate(y, &z));
  { /* the device backend's operator runs the kernels: its vectors are device vectors (src/sbp/apply.c SbpProblemUseDevice) */
    PetscBool isocl;
    PCALL(VecIsOpenCL(x, &isocl));
    if (isocl != p->use_device)
      fail_msg("%s: the operator's vectors are %s vectors on the %s backend", what, isocl ? "device" : "host", p->use_device ? "device" : "host");
  }
  PCALL(MatCreateVecs(A, &xh, &yh));
  PCALL(VecDuplicate(yh, &zh));
  SbpmgTestFillRandom(xh, 11);
  SbpmgTestFillRandom(zh, 12);
  SbpTestCopyLocal(xh, x);
  SbpTestCopyLocal(zh, z);

  PCALL(MatMult(M, x, y)); /* y = M~ x */
  PCALL(MatMult(A, xh, yh));
  check_tol(what, "MatMult", d = rel_diff(y, yh));
  worst = PetscMax(worst, d);
  PCALL(MatMultAdd(M, x, z, y)); /* y = z + M~ x */
  PCALL(MatMultAdd(A, xh, zh, yh));
  check_tol(what, "MatMultAdd", d = rel_diff(y, yh));
  worst = PetscMax(worst, d);
  PCALL(VecCopy(z, y)); /* y = y + M~ x */
  PCALL(MatMultAdd(M, x, y, y));
  check_tol(what, "MatMultAdd (z = y)", d = rel_diff(y, yh));
  worst = PetscMax(worst, d);
  PCALL(MatResidual(M, z, x, y)); /* y = z - M~ x */
  PCALL(MatResidual(A, zh, xh, yh));
  check_tol(what, "MatResidual", d = rel_diff(y, yh));
  worst = PetscMax(worst, d);
  PCALL(MatGetDiagonal(M, y));
  PCALL(MatGetDiagonal(A, yh));
  check_tol(what, "the diagonal", d = rel_diff(y, yh));
  worst = PetscMax(worst, d);

  SbpmgTestDestroyVecs(&x, &y, &z, &xh, &yh, &zh, NULL);
  PCALL(MatDestroy(&M));
  PCALL(MatDestroy(&A));
  return worst;
}

/* The norms H, H^-1, JH, (JH)^-1 of the problem (SbpProblemCreateNorm) against Kronecker products of SbpSparse1DNorm's order-p weights,
   with J from the problem; returns the largest relative difference. */
static PetscReal check_norms(SbpProblem p, const char *what)
{
  PetscReal worst = 0;

  PCALL(SbpProblemGetHostCoefficients(p));
  for (int kind = SBP_NORM_H; kind <= SBP_NORM_JHINV; kind++) {
    const PetscBool    inverse = kind == SBP_NORM_HINV || kind == SBP_NORM_JHINV;
    SbpSparse1D        Hr, Hs;
    Mat                H;
    Vec                x, y, xh, yh;
    PetscScalar       *ya;
    const PetscScalar *xa;
    PetscReal          d;

    PCALL(SbpSparse1DNorm(p->order, p->Nr, p->hr, inverse, &Hr));
    PCALL(SbpSparse1DNorm(p->order, p->Ns, p->hs, inverse, &Hs));
    PCALL(SbpProblemCreateNorm(p, (SbpNormType)kind, &H));
    PCALL(MatCreateVecs(H, &x, &y));
    PCALL(VecCreateMPI(PetscObjectComm((PetscObject)p), p->xm * p->ym, PETSC_DETERMINE, &xh));
    PCALL(VecDuplicate(xh, &yh));
    SbpmgTestFillRandom(xh, 21 + kind);
    SbpTestCopyLocal(xh, x);
    PCALL(MatMult(H, x, y));
    PCALL(VecGetArrayRead(xh, &xa));
    PCALL(VecGetArrayWrite(yh, &ya));
    for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
      for (PetscInt i = p->xs; i < p->xs + p->xm; i++) {
        const PetscInt  k = (i - p->xs) + p->xm * (j - p->ys);
        const PetscReal J = p->J[SbpPatchIndex(p, i, j)];
        PetscReal       w = Hr.a[Hr.ia[i]] * Hs.a[Hs.ia[j]];
        if (kind == SBP_NORM_JH) w *= J;
        if (kind == SBP_NORM_JHINV) w /= J;
        ya[k] = w * xa[k];
      }
    PCALL(VecRestoreArrayWrite(yh, &ya));
    PCALL(VecRestoreArrayRead(xh, &xa));
    d = rel_diff(y, yh);
    if (!(d < WIDE_TOL)) fail_msg("%s: norm kind %d differs from the Kronecker weights by %.3e relative", what, kind, (double)d);
    worst = PetscMax(worst, d);
    SbpmgTestDestroyVecs(&x, &y, &xh, &yh, NULL);
    PCALL(MatDestroy(&H));
    PCALL(SbpSparse1DDestroy(&Hr));
    PCALL(SbpSparse1DDestroy(&Hs));
  }
  return worst;
}

/* The grids of the checks (k = 0, 1): Nr != Ns; one rank also at the order's minimum; several ranks big enough for 3 of them (12 nodes a
   rank at order 6, 8 at order 4), cut along r and along s. */
static void wide_sizes(PetscInt order, int k, PetscInt *Nr, PetscInt *Ns)
{
  static const PetscInt one[2][2][2] = {{{13, 17}, {11, 14}}, {{19, 23}, {17, 20}}}, many[2][2][2] = {{{29, 25}, {25, 31}}, {{47, 35}, {35, 47}}};
  const int             o = order == 4 ? 0 : 1;

  *Nr = SbpTestWorldSize() == 1 ? one[o][k][0] : many[o][k][0];
  *Ns = SbpTestWorldSize() == 1 ? one[o][k][1] : many[o][k][1];
}

/* M~ against the assembled operator for p = 4, 6, the boundary sets DDNN, DDDD, NDDN, NNNN and two grids, on the given backend. */
static void check_boundary_sets(SbpBackend backend)
{
  static const char *bcs[] = {"DDNN", "DDDD", "NDDN", "NNNN"};

  for (PetscInt order = 4; order <= 6; order += 2) {
    PetscReal worst = 0;
    for (size_t b = 0; b < sizeof(bcs) / sizeof(bcs[0]); b++)
      for (int g = 0; g < 2; g++) {
        PetscInt   Nr, Ns;
        char       what[96];
        SbpProblem p;
        wide_sizes(order, g, &Nr, &Ns);
        p = wide_problem(PETSC_COMM_WORLD, order, Nr, Ns, bcs[b], SBP_MAPPING_CURVED, backend);
        PCALL(
            PetscSNPrintf(what, sizeof(what), "p = %d %s %d x %d (%s)", (int)order, bcs[b], (int)Nr, (int)Ns, backend == SBP_BACKEND_HOST ? "host" : "device"));
        worst = PetscMax(worst, check_operator(p, what));
        PCALL(SbpProblemDestroy(&p));
      }
    print_message("  p = %d, %s, %d rank(s), DDNN DDDD NDDN NNNN: max relative difference to the assembled operator %.2e\n", (int)order,
                  backend == SBP_BACKEND_HOST ? "host" : "device", SbpTestWorldSize(), (double)worst);
  }
}

static void test_host_boundary_sets(void **state)
{
  (void)state;
  check_boundary_sets(SBP_BACKEND_HOST);
}

static void test_device_boundary_sets(void **state)
{
  (void)state;
  check_boundary_sets(SBP_BACKEND_DEVICE);
}

/* The interior fast path under the launches of a GPU's tuning column (src/sbp/kernels.c SbpProblemLaunchBox: several rows a work-item, the
   interior box's columns rounded up to the work-group, loads only where used) and other work-groups, on grids whose box is wide. */
static void test_device_kernel_variants(void **state)
{
  /* a GPU's launches; the rim's rows summed by several work-items a node (sbp_wide_lanes: the GPUs' 8, and 3 in work-groups of 96), also
     where the interior box is empty (p = 6, 17 x 24: every node by the gather form) */
  static const char *tunes[] = {"sbp_select=0,sbp_inner_rows=3,sbp_inner_whole=0,sbp_wg_x=16,sbp_wg_y=2,sbp_rim_wg=64,sbp_wide_fuse=1",
                                "sbp_select=0,sbp_rim_wg=64,sbp_wide_fuse=1,sbp_wide_lanes=8", "sbp_rim_wg=96,sbp_wide_lanes=3"};

  (void)state;
  for (size_t t = 0; t < sizeof(tunes) / sizeof(tunes[0]); t++)
    for (PetscInt order = 4; order <= 6; order += 2)
      for (int small = 0; small < (t ? 2 : 1); small++) {
        const PetscInt Nr = small ? 17 : order == 4 ? 40 : 45, Ns = small ? 24 : order == 4 ? 33 : 38;
        char           what[160];
        SbpProblem     p;
        PetscReal      d;

        if (small && (order == 4 || SbpTestWorldSize() > 2)) continue; /* p = 6 on 17 nodes: at most 2 ranks */
        p = wide_problem_tuned(PETSC_COMM_WORLD, order, Nr, Ns, "DDDD", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, tunes[t]);
        PCALL(PetscSNPrintf(what, sizeof(what), "p = %d DDDD %d x %d (device, %s)", (int)order, (int)Nr, (int)Ns, tunes[t]));
        d = check_operator(p, what);
        print_message("  p = %d, device, %d rank(s), %d x %d, %s: max relative difference %.2e\n", (int)order, SbpTestWorldSize(), (int)Nr, (int)Ns, tunes[t],
                      (double)d);
        PCALL(SbpProblemDestroy(&p));
      }
}

/* A mapping given as a C function, and the norms, on the host and the device. */
static void test_user_mapping_and_norms(void **state)
{
  const SbpBackend backends[2] = {SBP_BACKEND_HOST, SBP_BACKEND_DEVICE};

  (void)state;
  for (int t = 0; t < 2; t++)
    for (PetscInt order = 4; order <= 6; order += 2) {
      PetscInt   Nr, Ns;
      PetscReal  dop, dnorm;
      char       what[96];
      SbpProblem p;

      wide_sizes(order, 0, &Nr, &Ns);
      PCALL(PetscSNPrintf(what, sizeof(what), "p = %d user mapping %d x %d (%s)", (int)order, (int)Nr, (int)Ns, t ? "device" : "host"));
      p   = wide_problem(PETSC_COMM_WORLD, order, Nr, Ns, "DDNN", SBP_MAPPING_USER, backends[t]);
      dop = check_operator(p, what);
      PCALL(SbpProblemDestroy(&p));
      p     = wide_problem(PETSC_COMM_WORLD, order, Nr, Ns, "DDNN", SBP_MAPPING_CURVED, backends[t]);
      dnorm = check_norms(p, what);
      PCALL(SbpProblemDestroy(&p));
      print_message("  p = %d, %s, %d rank(s): user mapping operator %.2e, norms H H^-1 JH (JH)^-1 %.2e\n", (int)order, t ? "device" : "host",
                    SbpTestWorldSize(), (double)dop, (double)dnorm);
    }
}

/* A grid too small for the ranks at order 6 (12 nodes a rank) but not at order 4 (8): set-up refuses it at order 6, naming the count
   (src/sbp/setup.c SbpProblemCheckParameters); 19 x 19 leaves 10 nodes to each of 2 ranks, 29 x 29 the same to each of 3. */
static void test_too_small_for_ranks(void **state)
{
  const PetscInt N = SbpTestWorldSize() == 2 ? 19 : 29;

  (void)state;
  if (SbpTestWorldSize() < 2) {
    print_message("  1 rank: every grid of the order's minimum fits; checked on 2 and 3 ranks\n");
    return;
  }
  for (PetscInt order = 4; order <= 6; order += 2) {
    SbpProblem p;
    PCALL(SbpProblemCreate(PETSC_COMM_WORLD, &p));
    PCALL(SbpProblemSetSizes(p, N, N));
    PCALL(SbpProblemSetMapping(p, SBP_MAPPING_CURVED));
    PCALL(SbpProblemSetBackend(p, SBP_BACKEND_HOST));
    PCALL(SbpProblemSetOrder(p, order));
    if (order == 4)
      PCALL(SbpProblemSetUp(p));
    else
      EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_SIZ, "fewer than the 12 that every rank needs at order 6");
    PCALL(SbpProblemDestroy(&p));
  }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_host_boundary_sets),     cmocka_unit_test(test_device_boundary_sets), cmocka_unit_test(test_device_kernel_variants),
    cmocka_unit_test(test_user_mapping_and_norms), cmocka_unit_test(test_too_small_for_ranks),
};

SBPMG_TEST_MAIN(help, tests)
