/* SBP-SAT: 1D identities, the assembled Kronecker reference (symmetry, definiteness), matrix-free == assembled on the device
   and the host, norms, right-hand side by two routes, manufactured-solution convergence, bad input. */
#include "harness.h"
#include <cholmod.h>

static const char help[] = "Tests of the SBP-SAT operator (src/sbp, kernels/sbp.cl).\n";

/* ---------------------------------------------------------------- helpers */

static PetscBool kernel_split = PETSC_TRUE; /* the device kernels: interior and rim apart, or one over all nodes */
static PetscInt  inner_rows   = 1;          /* rows of a column per work-item of the lean interior kernels */

static SbpProblem make_problem(MPI_Comm comm, PetscInt Nr, PetscInt Ns, const char *bc, SbpMappingType map, SbpBackend backend)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(comm, &p));
  PCALL(SbpProblemSetKernelSplit(p, kernel_split));
  PCALL(SbpProblemSetKernelShape(p, 0, inner_rows));
  PCALL(SbpProblemSetSizes(p, Nr, Ns));
  PCALL(SbpProblemSetMapping(p, map));
  for (PetscInt f = 0; f < 4; f++) PCALL(SbpProblemSetBC(p, f + 1, bc[f] == 'D' ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN));
  PCALL(SbpProblemSetBackend(p, backend));
  PCALL(SbpProblemSetUp(p));
  return p;
}

/* ---------------------------------------------------------------- 1D (spec 9.1, 9.2) */

static void test_1d_sbp_property(void **state)
{
  const PetscInt Ns[] = {2, 3, 4, 7, 16, 33};
  for (size_t t = 0; t < sizeof(Ns) / sizeof(Ns[0]); t++) {
    PetscInt    N = Ns[t], n = N + 1;
    PetscReal   h = 2.0 / N, *H, *D, *Q, maxerr = 0;
    SbpSparse1D Hs, Ds, Qs;

    PCALL(SbpSparse1DNorm(N, h, PETSC_FALSE, &Hs));
    PCALL(SbpSparse1DDerivative(N, h, &Ds));
    PCALL(SbpSparse1DQ(N, &Qs));
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
  PCALL(SbpSparse1DSecondDerivative(N, h, c, 1, &Ms));
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
  PCALL(SbpSparse1DSecondDerivative(N, h, c, 1, &Ms));
  PCALL(SbpSparse1DNorm(N, h, PETSC_TRUE, &Hi));
  PCALL(SbpSparse1DBoundaryDerivative(N, h, PETSC_FALSE, &d0));
  PCALL(SbpSparse1DBoundaryDerivative(N, h, PETSC_TRUE, &dN));
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

static PetscReal symmetry_defect(Mat A)
{
  Mat       At;
  PetscReal nd, na;

  PCALL(MatTranspose(A, MAT_INITIAL_MATRIX, &At));
  PCALL(MatAXPY(At, -1, A, DIFFERENT_NONZERO_PATTERN));
  PCALL(MatNorm(At, NORM_FROBENIUS, &nd));
  PCALL(MatNorm(A, NORM_FROBENIUS, &na));
  PCALL(MatDestroy(&At));
  return nd / na;
}

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

static void test_assembled_symmetric_definite(void **state)
{
  const PetscInt sizes[][2] = {{4, 4}, {8, 8}, {8, 16}, {16, 8}, {6, 10}, {32, 64}};
  const char    *bcs[]      = {"DDNN", "DDDD", "NDDN"};
  for (size_t t = 0; t < sizeof(sizes) / sizeof(sizes[0]); t++)
    for (size_t b = 0; b < 3; b++) {
      SbpProblem p = make_problem(PETSC_COMM_SELF, sizes[t][0], sizes[t][1], bcs[b], SBP_MAPPING_CURVED, SBP_BACKEND_HOST);
      Mat        A;
      Vec        x, y;
      PetscReal  sym, xAx;

      PCALL(SbpProblemCreateAssembledOperator(p, &A));
      sym = symmetry_defect(A);
      if (sym > 1e-14) fail_msg("%dx%d %s: |A - A^T|/|A| = %g", (int)sizes[t][0], (int)sizes[t][1], bcs[b], sym);
      if (!cholmod_factors(A)) fail_msg("%dx%d %s: CHOLMOD cannot factor M~", (int)sizes[t][0], (int)sizes[t][1], bcs[b]);
      PCALL(MatCreateVecs(A, &x, &y));
      for (int r = 0; r < 5; r++) {
        SbpmgTestFillRandom(x, 100 + r);
        PCALL(MatMult(A, x, y));
        PCALL(VecDot(x, y, &xAx));
        if (!(xAx > 0)) fail_msg("x^T M~ x = %g", xAx);
      }
      PCALL(VecDestroy(&x));
      PCALL(VecDestroy(&y));
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
  Vec        one, y, x;
  PetscReal  n1, xAx;

  PCALL(SbpProblemCreateAssembledOperator(p, &A));
  PCALL(MatCreateVecs(A, &one, &y));
  PCALL(VecDuplicate(one, &x));
  PCALL(VecSet(one, 1));
  PCALL(MatMult(A, one, y));
  PCALL(VecNorm(y, NORM_INFINITY, &n1));
  if (n1 > 1e-11) fail_msg("A~ 1 = %g", n1);
  assert_true(symmetry_defect(A) < 1e-14);
  SbpmgTestFillRandom(x, 3);
  PCALL(MatMult(A, x, y));
  PCALL(VecDot(x, y, &xAx));
  assert_true(xAx > 0);
  PCALL(VecDestroy(&one));
  PCALL(VecDestroy(&x));
  PCALL(VecDestroy(&y));
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
    check_matrix_free(mf_sizes[t][0], mf_sizes[t][1], "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE);
    check_matrix_free(mf_sizes[t][0], mf_sizes[t][1], "DDDD", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE);
    check_matrix_free(mf_sizes[t][0], mf_sizes[t][1], "NDDN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE);
  }
  check_matrix_free(16, 24, "NNNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE);
  check_matrix_free(16, 24, "DNDN", SBP_MAPPING_SQUARE, SBP_BACKEND_DEVICE);
}

/* the same with one kernel over all nodes (-sbp_split 0) */
static void test_matrix_free_device_unsplit(void **state)
{
  kernel_split = PETSC_FALSE;
  test_matrix_free_device(state);
  kernel_split = PETSC_TRUE;
}

/* the lean kernels walking 3 rows of a column per work-item (a count that leaves remainders on every size tested) */
static void test_matrix_free_device_rows(void **state)
{
  inner_rows = 3;
  test_matrix_free_device(state);
  inner_rows = 1;
}

/* The coefficients of the problem's own formula (spec section 0), rounded to fp32: a problem with these is the independent
   reference of the kernels that read the fp32 coefficient buffers. */
static PetscErrorCode metric_rounded(void *ctx, PetscReal r, PetscReal s, const PetscReal X[6], const PetscReal m[3], PetscReal c[4])
{
  const PetscReal J = X[2] * X[5] - X[3] * X[4];
  c[0]              = (PetscReal)(float)(m[0] * (X[3] * X[3] + X[5] * X[5]) / J);
  c[1]              = (PetscReal)(float)(m[0] * (X[2] * X[2] + X[4] * X[4]) / J);
  c[2]              = (PetscReal)(float)(-m[0] * (X[2] * X[3] + X[4] * X[5]) / J);
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
      PCALL(SbpProblemApplyDevice(p, x, b, -1.0, r, PETSC_TRUE));
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

    PCALL(SbpSparse1DNorm(Nr, 2.0 / Nr, PETSC_FALSE, &Hr));
    PCALL(SbpSparse1DNorm(Ns, 2.0 / Ns, PETSC_FALSE, &Hs));
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
  SbpProblem p = make_problem(PETSC_COMM_SELF, Nr, Ns, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_HOST);
  Mat        A;
  Vec        g, u;
  KSP        ksp;
  PC         pc;
  PetscReal  eH, eJH;

  PCALL(SbpProblemCreateAssembledOperator(p, &A));
  PCALL(MatCreateVecs(A, &u, &g));
  PCALL(SbpProblemComputeRHS(p, g));
  PCALL(KSPCreate(PETSC_COMM_SELF, &ksp));
  PCALL(KSPSetOperators(ksp, A, A));
  PCALL(KSPSetType(ksp, KSPPREONLY));
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCSetType(pc, PCCHOLESKY));
  PCALL(PCFactorSetMatSolverType(pc, MATSOLVERCHOLMOD));
  PCALL(KSPSolve(ksp, g, u));
  PCALL(SbpProblemComputeError(p, u, &eH, &eJH));
  print_message("  %4d x %4d: ||e||_H = %.6e  ||e||_JH = %.6e\n", (int)Nr, (int)Ns, eH, eJH);
  PCALL(KSPDestroy(&ksp));
  PCALL(VecDestroy(&g));
  PCALL(VecDestroy(&u));
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
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

/* ---------------------------------------------------------------- bad input */

static PetscErrorCode mu_nan(void *ctx, PetscReal x, PetscReal y, PetscReal m[3])
{
  m[0] = x > 0.2 ? NAN : 1;
  m[1] = m[2] = 0;
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
static PetscErrorCode metric_indefinite(void *ctx, PetscReal r, PetscReal s, const PetscReal X[6], const PetscReal m[3], PetscReal c[4])
{
  c[0] = 1;
  c[1] = 2;
  c[2] = (r > 0.4 && s > 0.4) ? 1.5 : 0.1;
  c[3] = 1;
  return 0;
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

  /* an indefinite metric given directly */
  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetSizes(p, 10, 10));
  PCALL(SbpProblemSetMetricFunction(p, metric_indefinite, NULL));
  EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_OUTOFRANGE, ": crr*css - crs^2 = -0.25; need");
  PCALL(SbpProblemDestroy(&p));

  /* a grid that cannot be coarsened */
  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetSizes(p, 33, 32));
  PCALL(SbpProblemSetUp(p));
  {
    SbpProblem c = NULL;
    EXPECT_ERROR(SbpProblemCoarsen(p, &c), PETSC_ERR_ARG_SIZ, "Cannot coarsen the 33 x 32 grid: Nr = 33 is odd");
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

  /* a NaN coefficient somewhere inside */
  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetSizes(p, 8, 8));
  PCALL(SbpProblemSetMapping(p, SBP_MAPPING_SQUARE));
  PCALL(SbpProblemSetMuFunction(p, mu_nan, NULL));
  EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_OUTOFRANGE, "at node (i,j) = (5,0): mu = nan");
  PCALL(SbpProblemDestroy(&p));

  /* a mapping with negative Jacobian */
  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetSizes(p, 8, 8));
  PCALL(SbpProblemSetMappingFunction(p, map_flipped, NULL));
  EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_OUTOFRANGE, "at node (i,j) = (0,0): J = x_r y_s - x_s y_r = -1");
  PCALL(SbpProblemDestroy(&p));
}

static void test_bad_options(void **state)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  { /* each bad value alone: its error code and message */
    const struct {
      const char    *name, *value;
      PetscErrorCode code;
      const char    *message;
    } bad[] = {
        {"-sbp_mapping", "bilinear", PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown value 'bilinear' for -sbp_mapping: choose one of curved, square, user"},
        {"-sbp_mu", "gaussian", PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown value 'gaussian' for -sbp_mu"},
        {"-sbp_bc", "DDXN", PETSC_ERR_ARG_WRONG, "letter 'X' for face 3 is neither D (Dirichlet) nor N (Neumann)"},
        {"-sbp_bc", "DDN", PETSC_ERR_ARG_WRONG, "-sbp_bc DDN: give one letter per face"},
        {"-sbp_backend", "gpu", PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown value 'gpu' for -sbp_backend"},
        {"-sbp_overlap_min", "-1", PETSC_ERR_ARG_OUTOFRANGE, "Overlap threshold -1 must be >= 0 (-sbp_overlap_min)"},
        {"-sbp_split_min", "-5", PETSC_ERR_ARG_OUTOFRANGE, "Split threshold -5 must be >= 0 (-sbp_split_min)"},
        {"-sbp_inner_rows", "0", PETSC_ERR_ARG_OUTOFRANGE, "Rows per work-item 0 must be in 1..64 (-sbp_inner_rows)"},
        {"-sbp_inner_rows", "65", PETSC_ERR_ARG_OUTOFRANGE, "Rows per work-item 65 must be in 1..64 (-sbp_inner_rows)"},
        {"-sbp_pass_wg", "2,8", PETSC_ERR_ARG_OUTOFRANGE, "Work-group 2 x 8 (-sbp_pass_wg): each side must be in 3..1024"},
        {"-sbp_pass_wg", "16", PETSC_ERR_ARG_WRONG, "-sbp_pass_wg takes two numbers tx,ty, got 1 value(s) starting 16"},
        {"-sbp_max_registers", "8", PETSC_ERR_ARG_OUTOFRANGE, "-sbp_max_registers 8 must be 0 (no cap) or in 16..255"},
        {"-sbp_max_registers", "300", PETSC_ERR_ARG_OUTOFRANGE, "-sbp_max_registers 300 must be 0 (no cap) or in 16..255"},
    };
    for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
      SbpmgTestSetOption(bad[b].name, bad[b].value);
      EXPECT_ERROR(SbpProblemSetFromOptions(p), bad[b].code, bad[b].message);
      SbpmgTestSetOption(bad[b].name, NULL);
    }
  }
  /* good options are taken */
  SbpmgTestSetOption("-sbp_n", "12");
  SbpmgTestSetOption("-sbp_ns", "20");
  SbpmgTestSetOption("-sbp_bc", "dndn");
  PCALL(SbpProblemSetFromOptions(p));
  SbpmgTestSetOption("-sbp_n", NULL);
  SbpmgTestSetOption("-sbp_ns", NULL);
  SbpmgTestSetOption("-sbp_bc", NULL);
  {
    PetscInt  Nr, Ns;
    SbpBCType bc;
    PCALL(SbpProblemGetSizes(p, &Nr, &Ns));
    assert_int_equal(Nr, 12);
    assert_int_equal(Ns, 20);
    PCALL(SbpProblemGetBC(p, 2, &bc));
    assert_int_equal(bc, SBP_BC_NEUMANN);
  }
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
    cmocka_unit_test(test_1d_sbp_property),
    cmocka_unit_test(test_1d_second_derivative),
    cmocka_unit_test(test_assembled_symmetric_definite),
    cmocka_unit_test(test_cholmod_detects_indefinite),
    cmocka_unit_test(test_neumann_volume_operator),
    cmocka_unit_test(test_stencil_width),
    cmocka_unit_test(test_matrix_free_host),
    cmocka_unit_test(test_matrix_free_device),
    cmocka_unit_test(test_matrix_free_device_unsplit),
    cmocka_unit_test(test_matrix_free_device_rows),
    cmocka_unit_test(test_fp32_coefficients),
    cmocka_unit_test(test_norms),
    cmocka_unit_test(test_rhs_two_routes),
    cmocka_unit_test(test_convergence_square),
    cmocka_unit_test(test_convergence_stretched),
    cmocka_unit_test(test_bad_input),
    cmocka_unit_test(test_bad_options),
    cmocka_unit_test(test_not_an_sbp_matrix),
};

SBPMG_TEST_MAIN(help, tests)
