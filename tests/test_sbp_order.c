/* The assembled reference of order p = 2, 4, 6 (src/sbp/assemble.c, issue 38; docs/verification.md "The assembled reference of order
   2, 4, 6"): M~ symmetric and positive definite (a dense Cholesky factorisation), M~ 1 = 0 with every face Neumann, a grid below the
   order's minimum an error, and the observed orders of the manufactured solution's error in the order-p H norm (spec-sbp-sat-highorder.md
   sections 3-5, 7). The error is measured here from the order-p weights of SbpSparse1DNorm, independently of SbpProblemComputeError
   (which tests/test_sbp_rhs_order.c checks against the same weights). */
#include "test_sbp_common.h"
#include <petscblaslapack.h>

static const char help[] = "Tests of the assembled SBP-SAT operator of order 2, 4, 6 (src/sbp/assemble.c).\n";

/* A host problem of the given order on the curved block, set up: Nr x Ns intervals, faces bc ("DDNN"). */
static SbpProblem order_problem(PetscInt order, PetscInt Nr, PetscInt Ns, const char *bc)
{
  const SbpTestOrderSettings set = {order, 0, NULL, NULL};
  return SbpTestOrderProblem(PETSC_COMM_SELF, Nr, Ns, bc, SBP_MAPPING_CURVED, SBP_BACKEND_HOST, &set);
}

/* Whether LAPACK's dense Cholesky factorisation of A succeeds (A positive definite); the smallest pivot squared relative to the largest
   diagonal entry in *pivot. */
static PetscBool dense_cholesky(Mat A, PetscReal *pivot)
{
  Mat          D;
  PetscScalar *a;
  PetscInt     n;
  PetscBLASInt bn, info;
  PetscReal    dmax = 0, pmin = PETSC_MAX_REAL;

  PCALL(MatConvert(A, MATSEQDENSE, MAT_INITIAL_MATRIX, &D));
  PCALL(MatGetSize(D, &n, NULL));
  PCALL(MatDenseGetArray(D, &a));
  for (PetscInt k = 0; k < n; k++) dmax = PetscMax(dmax, PetscRealPart(a[k + n * k]));
  PCALL(PetscBLASIntCast(n, &bn));
  LAPACKpotrf_("L", &bn, a, &bn, &info);
  for (PetscInt k = 0; k < n && !info; k++) pmin = PetscMin(pmin, PetscRealPart(a[k + n * k] * a[k + n * k]));
  PCALL(MatDenseRestoreArray(D, &a));
  PCALL(MatDestroy(&D));
  *pivot = info ? 0 : pmin / dmax;
  return info ? PETSC_FALSE : PETSC_TRUE;
}

/* The smallest and largest eigenvalues of the symmetric A (dense LAPACK). */
static void dense_extremes(Mat A, PetscReal *lmin, PetscReal *lmax)
{
  Mat          D;
  PetscScalar *a, *work;
  PetscReal   *w;
  PetscInt     n;
  PetscBLASInt bn, lwork, info;

  PCALL(MatConvert(A, MATSEQDENSE, MAT_INITIAL_MATRIX, &D));
  PCALL(MatGetSize(D, &n, NULL));
  PCALL(PetscBLASIntCast(n, &bn));
  lwork = 3 * bn;
  PCALL(PetscMalloc2(n, &w, 3 * n, &work));
  PCALL(MatDenseGetArray(D, &a));
  LAPACKsyev_("N", "L", &bn, a, &bn, w, work, &lwork, &info);
  PCALL(MatDenseRestoreArray(D, &a));
  if (info) fail_msg("LAPACK syev failed: %d", (int)info);
  *lmin = w[0];
  *lmax = w[n - 1];
  PCALL(PetscFree2(w, work));
  PCALL(MatDestroy(&D));
}

static const PetscInt orders[3] = {2, 4, 6};
static const PetscInt minN[3]   = {2, 11, 17}; /* spec-sbp-sat-highorder.md section 2 */

/* M~ = M~^T to 1e-13 and positive definite (3.2, 7.8) for DDNN, DDDD, NNDD, NDDN, at the order's minimum grid and above, Nr != Ns
   (test_neumann_constants shows the factorisation failing on a singular operator). */
static void test_symmetric_definite(void **state)
{
  static const char *bcs[] = {"DDNN", "DDDD", "NNDD", "NDDN"};

  for (int o = 0; o < 3; o++)
    for (size_t b = 0; b < sizeof(bcs) / sizeof(bcs[0]); b++)
      for (PetscInt grow = 0; grow <= 4; grow += 4) {
        PetscInt   Nr = PetscMax(minN[o], 4) + grow, Ns = Nr + 3;
        SbpProblem p = order_problem(orders[o], Nr, Ns, bcs[b]);
        Mat        A;
        PetscReal  asym, pivot;
        PetscBool  spd;

        PCALL(SbpProblemCreateAssembledOperator(p, &A));
        asym = SbpTestAsymmetry(A);
        spd  = dense_cholesky(A, &pivot);
        print_message("  p = %d %s %3d x %3d: ||A - A^T||/||A|| = %.1e, Cholesky %s (min pivot^2 / max diag %.2e)\n", (int)orders[o], bcs[b], (int)Nr, (int)Ns,
                      asym, spd ? "ok" : "FAILS", pivot);
        if (!(asym < 1e-13)) fail_msg("p = %d %s: asymmetry %g", (int)orders[o], bcs[b], asym);
        if (!spd) fail_msg("p = %d %s %d x %d: not positive definite", (int)orders[o], bcs[b], (int)Nr, (int)Ns);
        PCALL(MatDestroy(&A));
        PCALL(SbpProblemDestroy(&p));
      }
}

/* Every face Neumann: M~ = A~, which annihilates the constants (7.8) and is not definite: the Cholesky factorisation must fail (and
   so can fail above). */
static void test_neumann_constants(void **state)
{
  for (int o = 0; o < 3; o++) {
    SbpProblem p = order_problem(orders[o], minN[o] + 2, minN[o] + 5, "NNNN");
    Mat        A;
    Vec        one, r;
    PetscReal  nr, na, pivot;

    PCALL(SbpProblemCreateAssembledOperator(p, &A));
    PCALL(MatCreateVecs(A, &one, &r));
    PCALL(VecSet(one, 1));
    PCALL(MatMult(A, one, r));
    PCALL(VecNorm(r, NORM_INFINITY, &nr));
    PCALL(MatNorm(A, NORM_INFINITY, &na));
    print_message("  p = %d NNNN: ||A 1||_inf / ||A||_inf = %.1e\n", (int)orders[o], nr / na);
    if (!(nr / na < 1e-13)) fail_msg("p = %d: A~ 1 = %g relative", (int)orders[o], nr / na);
    if (dense_cholesky(A, &pivot) && pivot > 1e-12) fail_msg("p = %d: all-Neumann operator factorised as definite (pivot %g)", (int)orders[o], pivot);
    PCALL(VecDestroy(&one));
    PCALL(VecDestroy(&r));
    PCALL(MatDestroy(&A));
    PCALL(SbpProblemDestroy(&p));
  }
}

/* The extreme eigenvalues of M~ on the 32 x 32 DDNN curved basin problem (the built-in one) equal the spec's sanity values (section 5,
   "square grids" Nr = Ns, from its prototype; printed to 4 and 1 decimals): an independent fact for every order. */
static void test_eigenvalues(void **state)
{
  static const PetscReal ref[3][2] = {{0.5710, 905.1}, {0.5674, 1535.6}, {0.5671, 2897.8}};

  for (int o = 0; o < 3; o++) {
    SbpProblem p;
    Mat        A;
    PetscReal  lmin, lmax;

    PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
    PCALL(SbpProblemSetSizes(p, 32, 32));
    PCALL(SbpProblemSetMapping(p, SBP_MAPPING_CURVED));
    PCALL(SbpProblemSetBackend(p, SBP_BACKEND_HOST));
    PCALL(SbpProblemSetOrder(p, orders[o]));
    PCALL(SbpProblemSetUp(p));
    PCALL(SbpProblemCreateAssembledOperator(p, &A));
    dense_extremes(A, &lmin, &lmax);
    print_message("  p = %d curved 32 x 32 DDNN: lambda min %.6f (spec %.4f), max %.3f (spec %.1f)\n", (int)orders[o], lmin, ref[o][0], lmax, ref[o][1]);
    if (!(PetscAbsReal(lmin - ref[o][0]) <= 0.5e-4 && PetscAbsReal(lmax - ref[o][1]) <= 0.05))
      fail_msg("p = %d: eigenvalues %.6f, %.3f differ from the spec's %.4f, %.1f", (int)orders[o], lmin, lmax, ref[o][0], ref[o][1]);
    PCALL(MatDestroy(&A));
    PCALL(SbpProblemDestroy(&p));
  }
}

/* A grid below the order's minimum (section 2) is an error that names the order and the grid; the minimum itself works. */
static void test_grid_too_small(void **state)
{
  const PetscInt orders[] = {4, 6, 6}, sizes[][2] = {{10, 16}, {24, 16}, {16, 17}};
  const char    *msgs[] = {"-sbp_n 10,16: SBP order 4 needs at least 11 intervals in each direction", "-sbp_n 24,16: SBP order 6 needs at least 17 intervals",
                           "-sbp_n 16,17: SBP order 6 needs at least 17 intervals"};

  for (int t = 0; t < 3; t++) {
    SbpProblem p;
    PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
    PCALL(SbpProblemSetSizes(p, sizes[t][0], sizes[t][1]));
    PCALL(SbpProblemSetOrder(p, orders[t]));
    EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_OUTOFRANGE, msgs[t]);
    PCALL(SbpProblemDestroy(&p));
  }
  {
    SbpProblem p;
    PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
    EXPECT_ERROR(SbpProblemSetOrder(p, 3), PETSC_ERR_ARG_OUTOFRANGE, "-sbp_order 3: the SBP-SAT order must be 2, 4 or 6");
    EXPECT_ERROR(SbpProblemSetOrder(p, 8), PETSC_ERR_ARG_OUTOFRANGE, "-sbp_order 8: the SBP-SAT order must be 2, 4 or 6");
    PCALL(SbpProblemDestroy(&p));
  }
  for (PetscInt order = 4; order <= 6; order += 2) { /* the minimum itself: 11 and 17 intervals */
    SbpProblem p = order_problem(order, order == 4 ? 11 : 17, order == 4 ? 11 : 17, "DDNN");
    PCALL(SbpProblemDestroy(&p));
  }
}

/* ||e||_H = sqrt(sum_ij hr w^r_i hs w^s_j e_ij^2) with the order-p weights (section 5), e = u - ue at the nodes (natural order on one
   rank). */
static PetscReal error_H(SbpProblem p, Vec u)
{
  SbpSparse1D        Hr, Hs;
  Vec                ue;
  const PetscScalar *a, *b;
  PetscReal          s = 0;

  PCALL(VecDuplicate(u, &ue));
  PCALL(SbpProblemComputeExactSolution(p, ue));
  PCALL(SbpSparse1DNorm(p->order, p->Nr, p->hr, PETSC_FALSE, &Hr));
  PCALL(SbpSparse1DNorm(p->order, p->Ns, p->hs, PETSC_FALSE, &Hs));
  PCALL(VecGetArrayRead(u, &a));
  PCALL(VecGetArrayRead(ue, &b));
  for (PetscInt j = 0; j <= p->Ns; j++)
    for (PetscInt i = 0; i <= p->Nr; i++) {
      PetscReal e = PetscRealPart(a[i + (p->Nr + 1) * j] - b[i + (p->Nr + 1) * j]);
      s += Hr.a[i] * Hs.a[j] * e * e;
    }
  PCALL(VecRestoreArrayRead(u, &a));
  PCALL(VecRestoreArrayRead(ue, &b));
  PCALL(SbpSparse1DDestroy(&Hr));
  PCALL(SbpSparse1DDestroy(&Hs));
  PCALL(VecDestroy(&ue));
  return PetscSqrtReal(s);
}

/* The DDNN manufactured problem of order p on N x N by CHOLMOD with two steps of iterative refinement (section 5: solve far below the
   discretisation error); the right-hand side by the K_f assembly (section 4). Returns ||e||_H. */
static PetscReal solve_error(PetscInt order, PetscInt N)
{
  SbpProblem p = order_problem(order, N, N, "DDNN");
  Mat        A;
  Vec        u, g, r, d;
  KSP        ksp;
  PetscReal  eH;

  PCALL(SbpProblemCreateAssembledOperator(p, &A));
  PCALL(MatCreateVecs(A, &u, &g));
  PCALL(VecDuplicate(g, &r));
  PCALL(VecDuplicate(g, &d));
  PCALL(SbpAssembleRHSByKronecker(p, g));
  ksp = SbpTestCholmod(A);
  PCALL(KSPSolve(ksp, g, u));
  for (int k = 0; k < 2; k++) { /* u += A^-1 (g - A u) */
    PCALL(MatMult(A, u, r));
    PCALL(VecAYPX(r, -1, g));
    PCALL(KSPSolve(ksp, r, d));
    PCALL(VecAXPY(u, 1, d));
  }
  eH = error_H(p, u);
  if (order == 2) { /* the library's ||e||_H (order-2 weights) is the same measure */
    PetscReal lib;
    PCALL(SbpProblemComputeError(p, u, &lib, NULL));
    if (!(PetscAbsReal(lib - eH) <= 1e-12 * eH)) fail_msg("p = 2, N = %d: ||e||_H %.15e here, %.15e by SbpProblemComputeError", (int)N, eH, lib);
  }
  PCALL(KSPDestroy(&ksp));
  PCALL(VecDestroy(&u));
  PCALL(VecDestroy(&g));
  PCALL(VecDestroy(&r));
  PCALL(VecDestroy(&d));
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
  return eH;
}

/* The observed orders of ||e||_H over the grid doublings N0 .. N0 2^(n-1), each inside [lo, hi] (section 5's bands). */
static void check_orders(PetscInt order, PetscInt N0, int n, PetscReal lo, PetscReal hi)
{
  PetscReal e[8];

  print_message("  p = %d, DDNN curved, ||e||_H (order-%d weights):\n", (int)order, (int)order);
  for (int k = 0; k < n; k++) {
    e[k] = solve_error(order, N0 << k);
    if (k == 0)
      print_message("    N = %4d: %.4e\n", (int)N0, e[k]);
    else
      print_message("    N = %4d: %.4e  order %.3f\n", (int)(N0 << k), e[k], PetscLog2Real(e[k - 1] / e[k]));
  }
  for (int k = 1; k < n; k++) {
    PetscReal q = PetscLog2Real(e[k - 1] / e[k]);
    if (!(q >= lo && q <= hi))
      fail_msg("p = %d: order %.3f from N = %d to %d outside [%.1f, %.1f]", (int)order, q, (int)(N0 << (k - 1)), (int)(N0 << k), lo, hi);
  }
}

static void test_convergence_p2(void **state)
{
  check_orders(2, 32, 4, 1.9, 2.1);
}

static void test_convergence_p4(void **state)
{
  check_orders(4, 16, 5, 3.6, 4.2);
}

static void test_convergence_p6(void **state)
{
  check_orders(6, 32, 4, 4.8, 5.4);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_symmetric_definite), cmocka_unit_test(test_neumann_constants), cmocka_unit_test(test_eigenvalues),
    cmocka_unit_test(test_grid_too_small),     cmocka_unit_test(test_convergence_p2),    cmocka_unit_test(test_convergence_p4),
    cmocka_unit_test(test_convergence_p6),
};

SBPMG_TEST_MAIN(help, tests)
