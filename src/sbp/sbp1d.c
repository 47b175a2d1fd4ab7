/* The 1D SBP blocks of interior order p = 2, 4, 6 as small CSR matrices: spec-sbp-sat.md section 2 for p = 2,
   spec-sbp-sat-highorder.md sections 1-2 for every order, their tables in sbp1d_tables.c; the checks in docs/verification.md "1D blocks
   of order 2, 4, 6". N intervals, N+1 nodes. p = 2 builds the same matrices, bit for bit, as the second-order code did. */
#include "sbp1d_tables.h"
#include "../../kernels/sbp_table.cl"

/* Allocate an m x n CSR matrix with at most `per_row` entries in each row; rows are then appended in order. */
static PetscErrorCode SbpSparse1DAllocate(PetscInt m, PetscInt n, PetscInt per_row, SbpSparse1D *A)
{
  PetscFunctionBegin;
  A->m = m;
  A->n = n;
  PetscCall(PetscMalloc3(m + 1, &A->ia, m * per_row, &A->ja, m * per_row, &A->a));
  A->ia[0] = 0;
  PetscFunctionReturn(0);
}

/* Append entry (row, col, v) where row is the last row being filled; rows must be filled in order via SbpSparse1DEndRow. */
static inline void SbpSparse1DPush(SbpSparse1D *A, PetscInt row, PetscInt col, PetscReal v)
{
  PetscInt k = A->ia[row + 1]++;
  A->ja[k]   = col;
  A->a[k]    = v;
}

static inline void SbpSparse1DBeginRow(SbpSparse1D *A, PetscInt row)
{
  A->ia[row + 1] = A->ia[row];
}

PetscErrorCode SbpSparse1DDestroy(SbpSparse1D *A)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(A->ia, A->ja, A->a));
  A->m = A->n = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpSparse1DIdentity(PetscInt n, SbpSparse1D *A)
{
  PetscFunctionBegin;
  PetscCall(SbpSparse1DAllocate(n, n, 1, A));
  for (PetscInt k = 0; k < n; k++) {
    SbpSparse1DBeginRow(A, k);
    SbpSparse1DPush(A, k, k, 1);
  }
  PetscFunctionReturn(0);
}

/* The tables of `order` for a grid of N intervals: an order other than 2, 4, 6, or N below the order's minimum (section 2: the two
   end blocks of M(c) must not overlap), is an error. */
static PetscErrorCode SbpSparse1DTableFor(PetscInt order, PetscInt N, const SbpSparse1DTable **T)
{
  PetscFunctionBegin;
  *T = SbpSparse1DGetTable(order);
  PetscCheck(*T, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "SBP order %" PetscInt_FMT " is not supported: the choices are 2, 4 and 6", order);
  PetscCheck(N >= (*T)->minN, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "SBP order %" PetscInt_FMT " needs N >= %" PetscInt_FMT " intervals, got N = %" PetscInt_FMT, order, (*T)->minN, N);
  PetscFunctionReturn(0);
}

PetscErrorCode SbpSparse1DMinimumN(PetscInt order, PetscInt *N)
{
  const SbpSparse1DTable *T = SbpSparse1DGetTable(order);

  PetscFunctionBegin;
  PetscCheck(T, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "SBP order %" PetscInt_FMT " is not supported: the choices are 2, 4 and 6", order);
  *N = T->minN;
  PetscFunctionReturn(0);
}

/* The norm weight w_k (spec-sbp-sat-highorder.md 1.2): the table's at each end, mirrored, 1 inside. */
static PetscReal SbpSparse1DWeight(const SbpSparse1DTable *T, PetscInt N, PetscInt k)
{
  PetscInt e = PetscMin(k, N - k);
  return e < T->nH ? T->w[e] : 1;
}

/* H = h diag(w_0, ..., w_N), or its inverse (1.2; p = 2: h diag(1/2, 1, ..., 1, 1/2), spec-sbp-sat.md 2.1). */
PetscErrorCode SbpSparse1DNorm(PetscInt order, PetscInt N, PetscReal h, PetscBool inverse, SbpSparse1D *A)
{
  const SbpSparse1DTable *T;

  PetscFunctionBegin;
  PetscCall(SbpSparse1DTableFor(order, N, &T));
  PetscCall(SbpSparse1DAllocate(N + 1, N + 1, 1, A));
  for (PetscInt k = 0; k <= N; k++) {
    PetscReal w = h * SbpSparse1DWeight(T, N, k);
    SbpSparse1DBeginRow(A, k);
    SbpSparse1DPush(A, k, k, inverse ? 1 / w : w);
  }
  PetscFunctionReturn(0);
}

/* Entry (i, j) of the left closure of Q (hD1 = false) or of h D1 (true); h D1 = Q / w_i where the table gives no h D1 (1.3). */
static PetscReal SbpSparse1DClosure(const SbpSparse1DTable *T, PetscBool hD1, PetscInt i, PetscInt j)
{
  PetscReal q = T->Q[i][j];

  if (!hD1) return q;
  return T->hD1 ? T->hD1[i][j] : q / T->w[i];
}

/* Q (hD1 false, h-free) or D1 = H^-1 Q (hD1 true, every entry h D1 / h) of 1.3: the closure rows at the left end, the right end by
   the mirror rule X_{N-i,N-j} = -X_{i,j}, the interior stencil between; zero entries are not stored. */
static PetscErrorCode SbpSparse1DFirstDerivative(PetscInt order, PetscInt N, PetscBool hD1, PetscReal h, SbpSparse1D *A)
{
  const SbpSparse1DTable *T;

  PetscFunctionBegin;
  PetscCall(SbpSparse1DTableFor(order, N, &T));
  PetscCall(SbpSparse1DAllocate(N + 1, N + 1, PetscMax(T->nD1w, 2 * T->q + 1), A));
  for (PetscInt k = 0; k <= N; k++) {
    SbpSparse1DBeginRow(A, k);
    if (k < T->nD) {
      for (PetscInt j = 0; j < T->nD1w; j++) {
        PetscReal v = SbpSparse1DClosure(T, hD1, k, j);
        if (v != 0) SbpSparse1DPush(A, k, j, hD1 ? v / h : v);
      }
    } else if (k > N - T->nD) {
      PetscInt i = N - k;
      for (PetscInt j = T->nD1w - 1; j >= 0; j--) {
        PetscReal v = -SbpSparse1DClosure(T, hD1, i, j);
        if (v != 0) SbpSparse1DPush(A, k, N - j, hD1 ? v / h : v);
      }
    } else {
      for (PetscInt o = -T->q; o <= T->q; o++) {
        PetscReal v = T->stencil[o + T->q];
        if (v != 0) SbpSparse1DPush(A, k, k + o, hD1 ? v / h : v);
      }
    }
  }
  PetscFunctionReturn(0);
}

/* Q = H D1 (1.3), which carries no h; Q + Q^T = diag(-1, 0, ..., 0, 1). */
PetscErrorCode SbpSparse1DQ(PetscInt order, PetscInt N, SbpSparse1D *A)
{
  PetscFunctionBegin;
  PetscCall(SbpSparse1DFirstDerivative(order, N, PETSC_FALSE, 1, A));
  PetscFunctionReturn(0);
}

/* D1 = H^-1 Q (1.3; p = 2: one-sided first differences at the ends, central inside). */
PetscErrorCode SbpSparse1DDerivative(PetscInt order, PetscInt N, PetscReal h, SbpSparse1D *A)
{
  PetscFunctionBegin;
  PetscCall(SbpSparse1DFirstDerivative(order, N, PETSC_TRUE, h, A));
  PetscFunctionReturn(0);
}

/* Row k of M(c) = (1/h) sum_{q=0}^{N-1} cbar_{q+1/2} (e_q - e_{q+1})(e_q - e_{q+1})^T (2.3): only the rank-one terms
   q = k-1 and q = k touch row k. c is read as c[k*stride]. At most 3 entries. */
static PetscErrorCode SbpSecondDerivativeRow(PetscInt N, PetscReal h, const PetscReal c[], PetscInt stride, PetscInt k, PetscInt cols[3], PetscReal vals[3],
                                             PetscInt *nnz)
{
  PetscReal diag = 0;
  PetscInt  n    = 0;

  PetscFunctionBegin;
  if (k >= 1) {
    PetscReal cb = (c[(k - 1) * stride] + c[k * stride]) / 2;
    cols[n]      = k - 1;
    vals[n++]    = -cb / h;
    diag += cb / h;
  }
  if (k <= N - 1) {
    PetscReal cb = (c[k * stride] + c[(k + 1) * stride]) / 2;
    cols[n]      = k + 1;
    vals[n++]    = -cb / h;
    diag += cb / h;
  }
  cols[n]   = k;
  vals[n++] = diag;
  *nnz      = n;
  PetscFunctionReturn(0);
}

/* The left block of h M(c) of order p > 2 (1.5), dense: blk[(i nM + j) nC + k] = m_ijk for both i <= j and its mirror j < i, nC = nM + q
   coefficients. */
static PetscErrorCode SbpSparse1DBlockExpand(const SbpSparse1DTable *T, PetscReal **blk)
{
  PetscInt nM = T->nM, nC = T->nM + T->q;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(nM * nM * nC, blk));
  for (PetscInt e = 0; e < T->nMentries; e++) {
    const SbpSparse1DMEntry *m             = &T->M[e];
    (*blk)[(m->i * nM + m->j) * nC + m->k] = m->v;
    (*blk)[(m->j * nM + m->i) * nC + m->k] = m->v;
  }
  PetscFunctionReturn(0);
}

/* Entry (i, j) of h M(c), p > 2, by the three rules of 1.5: the left block, the right block (mirrored, c read from the other end), the
   interior band; *set false where the entry lies outside all three (it is 0). */
static void SbpSparse1DMEntryValue(const SbpSparse1DTable *T, const PetscReal *blk, PetscInt N, const PetscReal c[], PetscInt stride, PetscInt i, PetscInt j,
                                   PetscBool *set, PetscReal *v)
{
  PetscInt a = PetscMin(i, j), b = PetscMax(i, j), nM = T->nM, nC = T->nM + T->q;

  *v   = 0;
  *set = PETSC_TRUE;
  if (b <= nM - 1) {
    for (PetscInt k = 0; k < nC; k++) *v += blk[(a * nM + b) * nC + k] * c[k * stride];
  } else if (a >= N - nM + 1) {
    for (PetscInt k = 0; k < nC; k++) *v += blk[((N - b) * nM + (N - a)) * nC + k] * c[(N - k) * stride];
  } else if (b - a <= T->q) {
    PetscInt d = b - a;
    for (PetscInt o = d - T->q; o <= T->q; o++) *v += T->mu[d][o - d + T->q] * c[(a + o) * stride];
  } else
    *set = PETSC_FALSE;
}

/* M(c) of order p > 2 (1.5): row i holds columns i - (nM - 1) .. i + (nM - 1) where a rule defines them. */
static PetscErrorCode SbpSparse1DSecondDerivativeHigh(const SbpSparse1DTable *T, PetscInt N, PetscReal h, const PetscReal c[], PetscInt stride, SbpSparse1D *A)
{
  PetscReal *blk;

  PetscFunctionBegin;
  PetscCall(SbpSparse1DBlockExpand(T, &blk));
  PetscCall(SbpSparse1DAllocate(N + 1, N + 1, 2 * T->nM - 1, A));
  for (PetscInt i = 0; i <= N; i++) {
    SbpSparse1DBeginRow(A, i);
    for (PetscInt j = PetscMax(0, i - T->nM + 1); j <= PetscMin(N, i + T->nM - 1); j++) {
      PetscBool set;
      PetscReal v;
      SbpSparse1DMEntryValue(T, blk, N, c, stride, i, j, &set, &v);
      if (set) SbpSparse1DPush(A, i, j, v / h);
    }
  }
  PetscCall(PetscFree(blk));
  PetscFunctionReturn(0);
}

/* M(c) of the given order as a whole matrix, coefficient c[k*stride], k = 0..N (p = 2: spec-sbp-sat.md 2.3, row by row; p = 4, 6:
   spec-sbp-sat-highorder.md 1.5). D2(c) = H^-1 (-M(c) - c_0 e0 d0^T + c_N eN dN^T) (1.6). */
PetscErrorCode SbpSparse1DSecondDerivative(PetscInt order, PetscInt N, PetscReal h, const PetscReal c[], PetscInt stride, SbpSparse1D *A)
{
  const SbpSparse1DTable *T;

  PetscFunctionBegin;
  PetscCall(SbpSparse1DTableFor(order, N, &T));
  if (order > 2) {
    PetscCall(SbpSparse1DSecondDerivativeHigh(T, N, h, c, stride, A));
    PetscFunctionReturn(0);
  }
  PetscCall(SbpSparse1DAllocate(N + 1, N + 1, 3, A));
  for (PetscInt k = 0; k <= N; k++) {
    PetscInt  cols[3], nnz;
    PetscReal vals[3];
    PetscCall(SbpSecondDerivativeRow(N, h, c, stride, k, cols, vals, &nnz));
    SbpSparse1DBeginRow(A, k);
    for (PetscInt q = 0; q < nnz; q++) SbpSparse1DPush(A, k, cols[q], vals[q]);
  }
  PetscFunctionReturn(0);
}

/* The boundary derivative row (1.4) as a 1 x (N+1) matrix: d0^T = -(1/h) sum_k BS_k e_k^T (right = false) or
   dN^T = (1/h) sum_k BS_k e_{N-k}^T (right = true). */
PetscErrorCode SbpSparse1DBoundaryDerivative(PetscInt order, PetscInt N, PetscReal h, PetscBool right, SbpSparse1D *A)
{
  const SbpSparse1DTable *T;

  PetscFunctionBegin;
  PetscCall(SbpSparse1DTableFor(order, N, &T));
  PetscCall(SbpSparse1DAllocate(1, N + 1, T->nBS, A));
  SbpSparse1DBeginRow(A, 0);
  if (!right) {
    for (PetscInt k = 0; k < T->nBS; k++) SbpSparse1DPush(A, 0, k, -T->BS[k] / h);
  } else {
    for (PetscInt k = T->nBS - 1; k >= 0; k--) SbpSparse1DPush(A, 0, N - k, T->BS[k] / h);
  }
  PetscFunctionReturn(0);
}

/* e0^T or eN^T (2.5) as a 1 x n matrix. */
PetscErrorCode SbpSparse1DSelector(PetscInt n, PetscBool right, SbpSparse1D *A)
{
  PetscFunctionBegin;
  PetscCall(SbpSparse1DAllocate(1, n, 1, A));
  SbpSparse1DBeginRow(A, 0);
  SbpSparse1DPush(A, 0, right ? n - 1 : 0, 1);
  PetscFunctionReturn(0);
}

PetscErrorCode SbpSparse1DTranspose(const SbpSparse1D *A, SbpSparse1D *T)
{
  PetscInt *count;

  PetscFunctionBegin;
  T->m = A->n;
  T->n = A->m;
  PetscCall(PetscMalloc3(T->m + 1, &T->ia, PetscMax(A->ia[A->m], 1), &T->ja, PetscMax(A->ia[A->m], 1), &T->a));
  PetscCall(PetscCalloc1(T->m + 1, &count));
  for (PetscInt k = 0; k < A->ia[A->m]; k++) count[A->ja[k] + 1]++;
  T->ia[0] = 0;
  for (PetscInt r = 0; r < T->m; r++) T->ia[r + 1] = T->ia[r] + count[r + 1];
  for (PetscInt r = 0; r < T->m; r++) count[r] = T->ia[r];
  for (PetscInt r = 0; r < A->m; r++)
    for (PetscInt k = A->ia[r]; k < A->ia[r + 1]; k++) {
      PetscInt q = count[A->ja[k]]++;
      T->ja[q]   = r;
      T->a[q]    = A->a[k];
    }
  PetscCall(PetscFree(count));
  PetscFunctionReturn(0);
}

/* Dense row-major copy (tests). */
PetscErrorCode SbpSparse1DToDense(const SbpSparse1D *A, PetscReal *dense)
{
  PetscFunctionBegin;
  PetscCall(PetscArrayzero(dense, A->m * A->n));
  for (PetscInt r = 0; r < A->m; r++)
    for (PetscInt k = A->ia[r]; k < A->ia[r + 1]; k++) dense[r * A->n + A->ja[k]] += A->a[k];
  PetscFunctionReturn(0);
}

/* The packed table of `order` that the order-p kernels read (kernels/sbp_table.cl gives the layout): SBP_T_SIZE reals. */
PetscErrorCode SbpSparse1DPackTable(PetscInt order, PetscReal tab[])
{
  const SbpSparse1DTable *T = SbpSparse1DGetTable(order);

  PetscFunctionBegin;
  PetscCheck(T, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "SBP order %" PetscInt_FMT " is not supported: the choices are 2, 4 and 6", order);
  PetscCall(PetscArrayzero(tab, SBP_T_SIZE));
  tab[SBP_T_ORDER] = T->order;
  tab[SBP_T_NH]    = T->nH;
  tab[SBP_T_ND]    = T->nD;
  tab[SBP_T_ND1W]  = T->nD1w;
  tab[SBP_T_NBS]   = T->nBS;
  tab[SBP_T_NM]    = T->nM;
  tab[SBP_T_QH]    = T->q;
  tab[SBP_T_L]     = T->l;
  tab[SBP_T_THETA] = T->thetaR;
  tab[SBP_T_ALPHA] = T->alpha;
  for (PetscInt k = 0; k < T->nH; k++) tab[SBP_T_W + k] = T->w[k];
  for (PetscInt i = 0; i < T->nD; i++)
    for (PetscInt j = 0; j < T->nD1w; j++) tab[SBP_T_Q + 9 * i + j] = T->Q[i][j];
  for (PetscInt o = 0; o <= 2 * T->q; o++) tab[SBP_T_S + o] = T->stencil[o];
  for (PetscInt k = 0; k < T->nBS; k++) tab[SBP_T_BS + k] = T->BS[k];
  for (PetscInt d = 0; d <= T->q; d++)
    for (PetscInt o = 0; o <= 2 * T->q - d; o++) tab[SBP_T_MU + 7 * d + o] = T->mu[d][o];
  for (PetscInt e = 0; e < T->nMentries; e++) {
    const SbpSparse1DMEntry *m                   = &T->M[e];
    tab[SBP_T_M + (9 * m->i + m->j) * 12 + m->k] = m->v;
    tab[SBP_T_M + (9 * m->j + m->i) * 12 + m->k] = m->v;
  }
  PetscFunctionReturn(0);
}
