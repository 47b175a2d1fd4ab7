/* The coarse solve on the device (docs/design.md "The coarse solve on the device"): x = A_c^-1 b with the dense inverse of the
   coarsest level's assembled operator, made once at set-up (src/mg/coarse.c: the banded Cholesky factor on the host, the columns of
   the inverse on the device, mg_dense_invert below). A_c^-1 is symmetric, so its row i, stored
   contiguously, is also its column i. One work-group per row: its SBPMG_MG_DENSE_WG work-items stride along the row (neighbouring work-items
   read neighbouring entries), then add their partial sums in local memory. SBPMG_MG_REAL is the precision of the inverse and the vectors:
   fp64, or fp32 in the single-precision V-cycle (src/mg/kernels.c). */
#if defined(SBPMG_HAVE_FP64)
#  pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#if !defined(SBPMG_MG_REAL) || !defined(SBPMG_MG_DENSE_WG)
#  error "SBPMG_MG_REAL and SBPMG_MG_DENSE_WG must be defined (src/mg/kernels.c: the precision; tuning mg_dense_wg, a power of two)"
#endif
#if defined(SBPMG_MG_DENSE_INVERT) && !defined(SBPMG_HAVE_FP64)
#  error "SBPMG_MG_DENSE_INVERT needs fp64 on the device"
#endif

__kernel __attribute__((reqd_work_group_size(SBPMG_MG_DENSE_WG, 1, 1))) void mg_dense_apply(const int n, __global const SBPMG_MG_REAL *inv, __global const SBPMG_MG_REAL *b,
                                                                                      __global SBPMG_MG_REAL *x)
{
  __local SBPMG_MG_REAL         part[SBPMG_MG_DENSE_WG];
  const int               row = (int)get_group_id(0), lid = (int)get_local_id(0);
  __global const SBPMG_MG_REAL *a = inv + (long)row * n;
  SBPMG_MG_REAL                 s = 0;

  for (int j = lid; j < n; j += SBPMG_MG_DENSE_WG) s += a[j] * b[j];
  part[lid] = s;
  for (int w = SBPMG_MG_DENSE_WG / 2; w > 0; w /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < w) part[lid] += part[lid + w];
  }
  if (lid == 0) x[row] = part[0];
}

/* The inverse from the banded Cholesky factor L of A_c (half-bandwidth b, made on the host: src/mg/coarse.c), one work-item per column
   j: L y = e_j from row j (y is zero above it), then L^T x = y, x overwriting y in column j of X (X[k n + j]: neighbouring work-items
   write neighbouring entries). L(k, m), k - b <= m <= k, is at lb[k (b + 1) + k - m]. In fp64 (SBPMG_MG_DENSE_INVERT, set only where the
   device has it); the fp32 V-cycle's copy is rounded from it. */
#if defined(SBPMG_MG_DENSE_INVERT)
__kernel void mg_dense_invert(const int n, const int b, __global const double *lb, __global double *X)
{
  const int j = (int)get_global_id(0);

  if (j >= n) return;
  for (int k = j; k < n; k++) { /* forward */
    double s = k == j ? 1 : 0;
    for (int m = max(j, k - b); m < k; m++) s -= lb[(long)k * (b + 1) + (k - m)] * X[(long)m * n + j];
    X[(long)k * n + j] = s / lb[(long)k * (b + 1)];
  }
  for (int k = n - 1; k >= 0; k--) { /* backward; y is zero above row j */
    double s = k >= j ? X[(long)k * n + j] : 0;
    for (int m = k + 1; m <= min(n - 1, k + b); m++) s -= lb[(long)m * (b + 1) + (m - k)] * X[(long)m * n + j];
    X[(long)k * n + j] = s / lb[(long)k * (b + 1)];
  }
}
#endif
