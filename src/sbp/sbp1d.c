/* The 1D second-order SBP blocks of spec-sbp-sat.md section 2, as small CSR matrices. N intervals, N+1 nodes. */
#include <sbpmg/private/sbpimpl.h>

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

/* H = h diag(1/2, 1, ..., 1, 1/2), or its inverse (2.1). */
PetscErrorCode SbpSparse1DNorm(PetscInt N, PetscReal h, PetscBool inverse, SbpSparse1D *A)
{
  PetscFunctionBegin;
  PetscCall(SbpSparse1DAllocate(N + 1, N + 1, 1, A));
  for (PetscInt k = 0; k <= N; k++) {
    PetscReal w = (k == 0 || k == N) ? h / 2 : h;
    SbpSparse1DBeginRow(A, k);
    SbpSparse1DPush(A, k, k, inverse ? 1 / w : w);
  }
  PetscFunctionReturn(0);
}

/* Q = H D (2.2), which carries no h. */
PetscErrorCode SbpSparse1DQ(PetscInt N, SbpSparse1D *A)
{
  PetscFunctionBegin;
  PetscCall(SbpSparse1DAllocate(N + 1, N + 1, 2, A));
  SbpSparse1DBeginRow(A, 0);
  SbpSparse1DPush(A, 0, 0, -0.5);
  SbpSparse1DPush(A, 0, 1, 0.5);
  for (PetscInt k = 1; k < N; k++) {
    SbpSparse1DBeginRow(A, k);
    SbpSparse1DPush(A, k, k - 1, -0.5);
    SbpSparse1DPush(A, k, k + 1, 0.5);
  }
  SbpSparse1DBeginRow(A, N);
  SbpSparse1DPush(A, N, N - 1, -0.5);
  SbpSparse1DPush(A, N, N, 0.5);
  PetscFunctionReturn(0);
}

/* D = H^-1 Q (2.2): one-sided first differences at the ends, central inside. */
PetscErrorCode SbpSparse1DDerivative(PetscInt N, PetscReal h, SbpSparse1D *A)
{
  PetscFunctionBegin;
  PetscCall(SbpSparse1DAllocate(N + 1, N + 1, 2, A));
  SbpSparse1DBeginRow(A, 0);
  SbpSparse1DPush(A, 0, 0, -1 / h);
  SbpSparse1DPush(A, 0, 1, 1 / h);
  for (PetscInt k = 1; k < N; k++) {
    SbpSparse1DBeginRow(A, k);
    SbpSparse1DPush(A, k, k - 1, -0.5 / h);
    SbpSparse1DPush(A, k, k + 1, 0.5 / h);
  }
  SbpSparse1DBeginRow(A, N);
  SbpSparse1DPush(A, N, N - 1, -1 / h);
  SbpSparse1DPush(A, N, N, 1 / h);
  PetscFunctionReturn(0);
}

/* Row k of M(c) = (1/h) sum_{q=0}^{N-1} cbar_{q+1/2} (e_q - e_{q+1})(e_q - e_{q+1})^T (2.3): only the rank-one terms
   q = k-1 and q = k touch row k. c is read as c[k*stride]. At most 3 entries. */
PetscErrorCode SbpSecondDerivativeRow(PetscInt N, PetscReal h, const PetscReal c[], PetscInt stride, PetscInt k, PetscInt cols[3], PetscReal vals[3],
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

/* M(c) as a whole matrix, coefficient c[k*stride], k = 0..N. */
PetscErrorCode SbpSparse1DSecondDerivative(PetscInt N, PetscReal h, const PetscReal c[], PetscInt stride, SbpSparse1D *A)
{
  PetscFunctionBegin;
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

/* The boundary derivative row (2.4) as a 1 x (N+1) matrix: d0^T (right = false) or dN^T (right = true). */
PetscErrorCode SbpSparse1DBoundaryDerivative(PetscInt N, PetscReal h, PetscBool right, SbpSparse1D *A)
{
  PetscFunctionBegin;
  PetscCheck(N >= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Boundary derivative needs N >= 2, got %" PetscInt_FMT, N);
  PetscCall(SbpSparse1DAllocate(1, N + 1, 3, A));
  SbpSparse1DBeginRow(A, 0);
  if (!right) {
    SbpSparse1DPush(A, 0, 0, -1.5 / h);
    SbpSparse1DPush(A, 0, 1, 2 / h);
    SbpSparse1DPush(A, 0, 2, -0.5 / h);
  } else {
    SbpSparse1DPush(A, 0, N - 2, 0.5 / h);
    SbpSparse1DPush(A, 0, N - 1, -2 / h);
    SbpSparse1DPush(A, 0, N, 1.5 / h);
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
