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

__kernel __attribute__((reqd_work_group_size(SBPMG_MG_DENSE_WG, 1, 1))) void mg_dense_apply(const int n, __global const SBPMG_MG_REAL *inv,
                                                                                            __global const SBPMG_MG_REAL *b, __global SBPMG_MG_REAL *x)
{
  __local SBPMG_MG_REAL         part[SBPMG_MG_DENSE_WG];
  const int                     row = (int)get_group_id(0), lid = (int)get_local_id(0);
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

/* The inverse from the banded Cholesky factor L of A_c (half-bandwidth b, made on the host: src/mg/coarse.c): column j of X solves
   L y = e_j from row j (y is zero above it), then L^T x = y, x overwriting y. L(k, m), k - b <= m <= k, is at lb[k (b + 1) + k - m].
   A work-group holds SBPMG_MG_INVERT_COLS neighbouring columns (local dimension 0: neighbouring work-items read and write
   neighbouring entries of a row of X) times SBPMG_MG_INVERT_LANES lanes (dimension 1) that share each row's sum over the band: lane l
   owns the rows k = l (mod lanes), adds the band terms of its own rows only, and writes row k from the lanes' partial sums after one
   barrier, so each lane reads back only entries it wrote itself (no fence on global memory) and the partial sums alternate between
   two local buffers. 2n steps per work-group, b / lanes terms per step and work-item. In fp64 (SBPMG_MG_DENSE_INVERT, set only
   where the device has it); the fp32 V-cycle's copy is rounded from it. */
#if defined(SBPMG_MG_DENSE_INVERT)
#  if !defined(SBPMG_MG_INVERT_COLS) || !defined(SBPMG_MG_INVERT_LANES)
#    error "SBPMG_MG_INVERT_COLS and SBPMG_MG_INVERT_LANES must be defined (src/mg/kernels.c: tuning mg_invert_cols, mg_invert_lanes)"
#  endif
#  define INV_C SBPMG_MG_INVERT_COLS
#  define INV_L SBPMG_MG_INVERT_LANES

/* The first row at or after m0 that lane l owns */
inline int invert_first_row(const int m0, const int l)
{
  return m0 + ((l - m0 % INV_L) + INV_L) % INV_L;
}

__kernel __attribute__((reqd_work_group_size(INV_C, INV_L, 1))) void mg_dense_invert(const int n, const int b, __global const double *lb, __global double *X)
{
  __local double part[2][INV_L][INV_C];
  const int      c = (int)get_local_id(0), l = (int)get_local_id(1), j0 = (int)get_group_id(0) * INV_C, j = j0 + c, w = b + 1;
  const bool     live = j < n;
  int            q    = 0;

  for (int k = j0; k < n; k++, q ^= 1) { /* forward: y_k = (e_j - sum_m L(k, m) y_m) / L(k, k), m from max(j, k - b) */
    double s = 0;
    if (live && k >= j)
      for (int m = invert_first_row(max(j, k - b), l); m < k; m += INV_L) s -= lb[(long)k * w + (k - m)] * X[(long)m * n + j];
    part[q][l][c] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (live && k >= j && k % INV_L == l) {
      double y = k == j ? 1 : 0;
      for (int t = 0; t < INV_L; t++) y += part[q][t][c];
      X[(long)k * n + j] = y / lb[(long)k * w];
    }
  }
  for (int k = n - 1; k >= 0; k--, q ^= 1) { /* backward: x_k = (y_k - sum_m L(m, k) x_m) / L(k, k), m up to k + b; y is zero above row j */
    double s = 0;
    if (live)
      for (int m = invert_first_row(k + 1, l); m <= min(n - 1, k + b); m += INV_L) s -= lb[(long)m * w + (m - k)] * X[(long)m * n + j];
    part[q][l][c] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (live && k % INV_L == l) {
      double x = k >= j ? X[(long)k * n + j] : 0;
      for (int t = 0; t < INV_L; t++) x += part[q][t][c];
      X[(long)k * n + j] = x / lb[(long)k * w];
    }
  }
}
#  undef INV_C
#  undef INV_L
#endif
