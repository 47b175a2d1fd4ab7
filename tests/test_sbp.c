/* SBP-SAT, the reference: 1D identities, the assembled Kronecker operator (symmetry, definiteness, stencil width), the
   right-hand side by two routes, manufactured-solution convergence. The matrix-free operator against it: test_sbp_operator.c;
   bad input: test_sbp_input.c. */
#include "test_sbp_common.h"
#include <cholmod.h>

static const char help[] = "Tests of the SBP-SAT reference operator (src/sbp).\n";

static SbpProblem make_problem(MPI_Comm comm, PetscInt Nr, PetscInt Ns, const char *bc, SbpMappingType map, SbpBackend backend)
{
  return SbpTestProblem(comm, Nr, Ns, bc, map, backend, NULL);
}

/* ---------------------------------------------------------------- 1D (spec 9.1, 9.2) */

static void test_1d_sbp_property(void **state)
{
  const PetscInt Ns[] = {2, 3, 4, 7, 16, 33};
  for (size_t t = 0; t < sizeof(Ns) / sizeof(Ns[0]); t++) {
    PetscInt    N = Ns[t], n = N + 1;
    PetscReal   h = 2.0 / N, *H, *D, *Q, maxerr = 0;
    SbpSparse1D Hs, Ds, Qs;

    PCALL(SbpSparse1DNorm(2, N, h, PETSC_FALSE, &Hs));
    PCALL(SbpSparse1DDerivative(2, N, h, &Ds));
    PCALL(SbpSparse1DQ(2, N, &Qs));
    PCALL(PetscMalloc3(n * n, &H, n * n, &D, n * n, &Q));
    PCALL(SbpSparse1DToDense(&Hs, H));
    PCALL(SbpSparse1DToDense(&Ds, D));
    PCALL(SbpSparse1DToDense(&Qs, Q));
    for (PetscInt r = 0; r < n; r++)
      for (PetscInt c = 0; c < n; c++) {
        PetscReal hd = 0, dth = 0, hq = 0, B = (r == c) ? (r == 0 ? -1 : (r == N ? 1 : 0)) : 0;
        for (PetscInt k = 0; k < n; k++) {
          hd += H[r * n + k] * D[k * n + c];
          dth += D[k * n + r] * H[k * n + c];
        }
        hq     = Q[r * n + c] + Q[c * n + r]; /* Q + Q^T = B */
        maxerr = PetscMax(maxerr, PetscAbsReal(hd + dth - B));
        maxerr = PetscMax(maxerr, PetscAbsReal(hq - B));
        maxerr = PetscMax(maxerr, PetscAbsReal(hd - Q[r * n + c])); /* Q = H D */
      }
    if (maxerr > 1e-13) fail_msg("N = %d: |H D + D^T H - B| = %g", (int)N, maxerr);
    PCALL(PetscFree3(H, D, Q));
    PCALL(SbpSparse1DDestroy(&Hs));
    PCALL(SbpSparse1DDestroy(&Ds));
    PCALL(SbpSparse1DDestroy(&Qs));
  }
}

static void test_1d_second_derivative(void **state)
{
  const PetscInt N = 12, n = N + 1;
  PetscReal      h = 2.0 / N, c[13], *M, x2[13], maxerr = 0;
  SbpSparse1D    Ms, Hi, d0, dN, one;

  SbpmgTestRandom(n, c, 0.5, 3, 7);
  PCALL(SbpSparse1DSecondDerivative(2, N, h, c, 1, &Ms));
  PCALL(PetscMalloc1(n * n, &M));
  PCALL(SbpSparse1DToDense(&Ms, M));
  for (PetscInt r = 0; r < n; r++) {
    PetscReal rowsum = 0;
    for (PetscInt k = 0; k < n; k++) {
      rowsum += M[r * n + k];
      maxerr = PetscMax(maxerr, PetscAbsReal(M[r * n + k] - M[k * n + r]));
    }
    maxerr = PetscMax(maxerr, PetscAbsReal(rowsum));
  }
  if (maxerr > 1e-12) fail_msg("M(c) not symmetric or M(c) 1 != 0: %g", maxerr);
  PCALL(SbpSparse1DDestroy(&Ms));
  /* c = 1: H^-1 (-M - e0 d0^T + eN dN^T) x^2 = 2; d0^T x^2 = -2, dN^T x^2 = 2 */
  for (PetscInt k = 0; k < n; k++) {
    PetscReal x = -1 + k * h;
    c[k]        = 1;
    x2[k]       = x * x;
  }
  PCALL(SbpSparse1DSecondDerivative(2, N, h, c, 1, &Ms));
  PCALL(SbpSparse1DNorm(2, N, h, PETSC_TRUE, &Hi));
  PCALL(SbpSparse1DBoundaryDerivative(2, N, h, PETSC_FALSE, &d0));
  PCALL(SbpSparse1DBoundaryDerivative(2, N, h, PETSC_TRUE, &dN));
  PCALL(SbpSparse1DIdentity(1, &one));
  {
    PetscReal d0x = 0, dNx = 0;
    for (PetscInt q = d0.ia[0]; q < d0.ia[1]; q++) d0x += d0.a[q] * x2[d0.ja[q]];
    for (PetscInt q = dN.ia[0]; q < dN.ia[1]; q++) dNx += dN.a[q] * x2[dN.ja[q]];
    assert_true(PetscAbsReal(d0x + 2) < 1e-12);
    assert_true(PetscAbsReal(dNx - 2) < 1e-12);
    for (PetscInt r = 0; r < n; r++) {
      PetscReal v = 0;
      for (PetscInt q = Ms.ia[r]; q < Ms.ia[r + 1]; q++) v -= Ms.a[q] * x2[Ms.ja[q]];
      if (r == 0) v -= d0x;
      if (r == N) v += dNx;
      v *= Hi.a[r];
      if (PetscAbsReal(v - 2) > 1e-10) fail_msg("D2(1) x^2 at %d = %.15g, expected 2", (int)r, v);
    }
  }
  PCALL(PetscFree(M));
  PCALL(SbpSparse1DDestroy(&Ms));
  PCALL(SbpSparse1DDestroy(&Hi));
  PCALL(SbpSparse1DDestroy(&d0));
  PCALL(SbpSparse1DDestroy(&dN));
  PCALL(SbpSparse1DDestroy(&one));
}

/* ---------------------------------------------------------------- 2D assembled reference (spec 9.3, 9.4) */

/* Factor with CHOLMOD directly (PETSc's wrapper does not report a matrix that is not positive definite); returns whether the
   Cholesky factorisation of the whole matrix succeeded. */
static PetscBool cholmod_factors(Mat A)
{
  PetscInt           n, nnz = 0, k = 0;
  const PetscInt    *ia, *ja;
  const PetscScalar *va;
  PetscBool          done, ok;
  cholmod_common     c;
  cholmod_sparse    *S;
  cholmod_factor    *L;

  PCALL(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  assert_true(done);
  PCALL(MatSeqAIJGetArrayRead(A, &va));
  for (PetscInt r = 0; r < n; r++)
    for (PetscInt q = ia[r]; q < ia[r + 1]; q++)
      if (ja[q] >= r) nnz++;
  cholmod_start(&c);
  c.supernodal = CHOLMOD_SUPERNODAL; /* LL^T, which fails on a matrix that is not positive definite (LDL^T would not) */
  /* the upper triangle by rows = the lower triangle by columns (stype -1) */
  S = cholmod_allocate_sparse(n, n, nnz, 1, 1, -1, CHOLMOD_REAL, &c);
  for (PetscInt r = 0; r < n; r++) {
    ((int *)S->p)[r] = (int)k;
    for (PetscInt q = ia[r]; q < ia[r + 1]; q++)
      if (ja[q] >= r) {
        ((int *)S->i)[k]    = (int)ja[q];
        ((double *)S->x)[k] = va[q];
        k++;
      }
  }
  ((int *)S->p)[n] = (int)k;
  L                = cholmod_analyze(S, &c);
  cholmod_factorize(S, L, &c);
  ok = (c.status == CHOLMOD_OK && L->minor == (size_t)n) ? PETSC_TRUE : PETSC_FALSE;
  cholmod_free_factor(&L, &c);
  cholmod_free_sparse(&S, &c);
  cholmod_finish(&c);
  PCALL(MatSeqAIJRestoreArrayRead(A, &va));
  PCALL(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  return ok;
}

/* x^T A x > 0 for n random x (seeds seed, seed + 1, ...) */
static void check_positive(Mat A, int n, unsigned long seed)
{
  Vec       x, y;
  PetscReal xAx;

  PCALL(MatCreateVecs(A, &x, &y));
  for (int r = 0; r < n; r++) {
    SbpmgTestFillRandom(x, seed + r);
    PCALL(MatMult(A, x, y));
    PCALL(VecDot(x, y, &xAx));
    if (!(xAx > 0)) fail_msg("x^T M~ x = %g", xAx);
  }
  SbpmgTestDestroyVecs(&x, &y, NULL);
}

static void test_assembled_symmetric_definite(void **state)
{
  const PetscInt sizes[][2] = {{4, 4}, {8, 8}, {8, 16}, {16, 8}, {6, 10}, {32, 64}};
  const char    *bcs[]      = {"DDNN", "DDDD", "NDDN"};
  for (size_t t = 0; t < sizeof(sizes) / sizeof(sizes[0]); t++)
    for (size_t b = 0; b < 3; b++) {
      SbpProblem p = make_problem(PETSC_COMM_SELF, sizes[t][0], sizes[t][1], bcs[b], SBP_MAPPING_CURVED, SBP_BACKEND_HOST);
      Mat        A;
      PetscReal  sym;

      PCALL(SbpProblemCreateAssembledOperator(p, &A));
      sym = SbpTestAsymmetry(A);
      if (sym > 1e-14) fail_msg("%dx%d %s: |A - A^T|/|A| = %g", (int)sizes[t][0], (int)sizes[t][1], bcs[b], sym);
      if (!cholmod_factors(A)) fail_msg("%dx%d %s: CHOLMOD cannot factor M~", (int)sizes[t][0], (int)sizes[t][1], bcs[b]);
      check_positive(A, 5, 100);
      PCALL(MatDestroy(&A));
      PCALL(SbpProblemDestroy(&p));
    }
}

/* The factorisation check above can fail: -M~ is not positive definite. */
static void test_cholmod_detects_indefinite(void **state)
{
  SbpProblem p = make_problem(PETSC_COMM_SELF, 8, 8, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_HOST);
  Mat        A;

  PCALL(SbpProblemCreateAssembledOperator(p, &A));
  PCALL(MatScale(A, -1));
  assert_false(cholmod_factors(A));
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

/* All faces Neumann: M~ = A~ with A~ 1 = 0, symmetric, semidefinite. */
static void test_neumann_volume_operator(void **state)
{
  SbpProblem p = make_problem(PETSC_COMM_SELF, 12, 20, "NNNN", SBP_MAPPING_CURVED, SBP_BACKEND_HOST);
  Mat        A;
  Vec        one, y;
  PetscReal  n1;

  PCALL(SbpProblemCreateAssembledOperator(p, &A));
  PCALL(MatCreateVecs(A, &one, &y));
  PCALL(VecSet(one, 1));
  PCALL(MatMult(A, one, y));
  PCALL(VecNorm(y, NORM_INFINITY, &n1));
  if (n1 > 1e-11) fail_msg("A~ 1 = %g", n1);
  assert_true(SbpTestAsymmetry(A) < 1e-14);
  check_positive(A, 1, 3);
  SbpmgTestDestroyVecs(&one, &y, NULL);
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

/* Stencil width: at most 2 in r and 1 in s when faces 3/4 are Neumann (spec 9.5). */
static void test_stencil_width(void **state)
{
  SbpProblem p = make_problem(PETSC_COMM_SELF, 10, 12, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_HOST);
  Mat        A;
  PetscInt   wr = 0, ws = 0;

  PCALL(SbpProblemCreateAssembledOperator(p, &A));
  for (PetscInt row = 0; row < 11 * 13; row++) {
    PetscInt        ncols;
    const PetscInt *cols;
    PCALL(MatGetRow(A, row, &ncols, &cols, NULL));
    for (PetscInt k = 0; k < ncols; k++) {
      wr = PetscMax(wr, PetscAbsInt(cols[k] % 11 - row % 11));
      ws = PetscMax(ws, PetscAbsInt(cols[k] / 11 - row / 11));
    }
    PCALL(MatRestoreRow(A, row, &ncols, &cols, NULL));
  }
  assert_int_equal(wr, 2);
  assert_int_equal(ws, 1);
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

/* ---------------------------------------------------------------- right-hand side (spec 9.7) */

static void test_rhs_two_routes(void **state)
{
  const char *bcs[] = {"DDNN", "DDDD", "NDDN", "NNND"};
  for (int b = 0; b < 4; b++) {
    SbpProblem p = make_problem(PETSC_COMM_SELF, 10, 14, bcs[b], SBP_MAPPING_CURVED, SBP_BACKEND_HOST);
    Vec        g, gk;
    PetscReal  err;

    PCALL(SbpProblemCreateVector(p, &g));
    PCALL(VecDuplicate(g, &gk));
    PCALL(SbpProblemComputeRHS(p, g));
    PCALL(SbpAssembleRHSByKronecker(p, gk));
    err = SbpmgTestRelDiff(g, gk);
    if (!(err < 1e-13)) fail_msg("%s: point-wise RHS differs from the K_f assembly by %g", bcs[b], err);
    PCALL(VecDestroy(&g));
    PCALL(VecDestroy(&gk));
    PCALL(SbpProblemDestroy(&p));
  }
}

/* ---------------------------------------------------------------- manufactured solution (spec 7, 9.9) */

static PetscReal solve_error(PetscInt Nr, PetscInt Ns)
{
  SbpTestSystem s;
  PetscReal     eH, eJH;

  SbpTestSystemCreate(make_problem(PETSC_COMM_SELF, Nr, Ns, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_HOST), PETSC_TRUE, &s);
  s.ksp = SbpTestCholmod(s.A);
  PCALL(KSPSolve(s.ksp, s.g, s.u));
  PCALL(SbpProblemComputeError(s.p, s.u, &eH, &eJH));
  print_message("  %4d x %4d: ||e||_H = %.6e  ||e||_JH = %.6e\n", (int)Nr, (int)Ns, eH, eJH);
  SbpTestSystemDestroy(&s);
  return eH;
}

static void check_order(PetscInt Nr0, PetscInt Ns0)
{
  PetscReal e[3];
  for (int k = 0; k < 3; k++) e[k] = solve_error(Nr0 << k, Ns0 << k);
  for (int k = 0; k < 2; k++) {
    PetscReal order = PetscLog2Real(e[k] / e[k + 1]);
    print_message("  observed order %d -> %d: %.4f\n", (int)(Nr0 << k), (int)(Nr0 << (k + 1)), order);
    if (order < 1.9 || order > 2.1) fail_msg("observed order %.4f outside [1.9, 2.1]", order);
  }
}

static void test_convergence_square(void **state)
{
  check_order(32, 32);
}

static void test_convergence_stretched(void **state)
{
  check_order(32, 64);
}

/* The exact solution and the error norms on the device (kernels/rhs.cl rhs_exact_nodes, the norms' shells) equal the host's node-by-node
   evaluation (the same problem, the values handed over in a host vector): to 1e-14 and 1e-12 relative, all-Neumann (errors modulo the
   constants) included. */
static void test_error_device_host(void **state)
{
  static const struct {
    const char    *bc;
    SbpMappingType map;
  } cases[] = {{"DDNN", SBP_MAPPING_CURVED}, {"NNNN", SBP_MAPPING_CURVED}, {"DNDN", SBP_MAPPING_SQUARE}};

  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    SbpProblem         p = make_problem(PETSC_COMM_SELF, 24, 18, cases[c].bc, cases[c].map, SBP_BACKEND_DEVICE);
    Vec                ud, uh, r;
    PetscInt           n;
    PetscReal          e[2][2], dex;
    const PetscScalar *a;
    PetscScalar       *b;
    PetscBool          isocl;

    PCALL(SbpProblemCreateVector(p, &ud));
    PCALL(VecIsOpenCL(ud, &isocl));
    if (!isocl) fail_msg("the device problem's vector is not a device vector");
    PCALL(VecGetLocalSize(ud, &n));
    PCALL(VecCreateSeq(PETSC_COMM_SELF, n, &uh));
    PCALL(SbpProblemComputeExactSolution(p, ud)); /* on the device */
    PCALL(SbpProblemComputeExactSolution(p, uh)); /* on the host */
    dex = SbpmgTestRelDiff(ud, uh);
    PCALL(VecDuplicate(uh, &r)); /* an approximate solution: the exact one plus a perturbation with a mean */
    SbpmgTestFillRandom(r, 17);
    PCALL(VecShift(r, 0.3));
    PCALL(VecAXPY(uh, 1e-3, r));
    PCALL(VecGetArrayRead(uh, &a));
    PCALL(VecGetArrayWrite(ud, &b));
    PCALL(PetscArraycpy(b, a, n));
    PCALL(VecRestoreArrayWrite(ud, &b));
    PCALL(VecRestoreArrayRead(uh, &a));
    PCALL(SbpProblemComputeError(p, ud, &e[0][0], &e[0][1]));
    PCALL(SbpProblemComputeError(p, uh, &e[1][0], &e[1][1]));
    print_message("  %s %s: exact solutions differ by %.1e; ||e||_H %.10e / %.10e, ||e||_JH %.10e / %.10e (device / host)\n", cases[c].bc,
                  cases[c].map == SBP_MAPPING_CURVED ? "curved" : "square", dex, e[0][0], e[1][0], e[0][1], e[1][1]);
    if (!(dex <= 1e-14)) fail_msg("%s: the device's exact solution differs from the host's by %g", cases[c].bc, dex);
    for (int q = 0; q < 2; q++)
      if (!(PetscAbsReal(e[0][q] - e[1][q]) <= 1e-12 * e[1][q]) || !(e[1][q] > 0))
        fail_msg("%s: the %s norm of the error is %.15g on the device, %.15g on the host", cases[c].bc, q ? "JH" : "H", e[0][q], e[1][q]);
    SbpmgTestDestroyVecs(&ud, &uh, &r, NULL);
    PCALL(SbpProblemDestroy(&p));
  }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_1d_sbp_property),
    cmocka_unit_test(test_1d_second_derivative),
    cmocka_unit_test(test_assembled_symmetric_definite),
    cmocka_unit_test(test_cholmod_detects_indefinite),
    cmocka_unit_test(test_neumann_volume_operator),
    cmocka_unit_test(test_stencil_width),
    cmocka_unit_test(test_rhs_two_routes),
    cmocka_unit_test(test_convergence_square),
    cmocka_unit_test(test_convergence_stretched),
    cmocka_unit_test(test_error_device_host),
};

SBPMG_TEST_MAIN(help, tests)
