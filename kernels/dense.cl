/* The coarse solve on the device (docs/design.md "The coarse solve on the device"): x = A_c^-1 b with the dense inverse of the
   coarsest level's assembled operator, made once at set-up on the host (src/mg/coarse.c). A_c^-1 is symmetric, so its row i, stored
   contiguously, is also its column i. One work-group per row: its MG_DENSE_WG work-items stride along the row (neighbouring work-items
   read neighbouring entries), then add their partial sums in local memory. MG_REAL is the precision of the inverse and the vectors:
   fp64, or fp32 in the single-precision V-cycle (src/mg/kernels.c). */
#if defined(SBPMG_HAVE_FP64)
  #pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#if !defined(MG_REAL) || !defined(MG_DENSE_WG)
  #error "MG_REAL and MG_DENSE_WG must be defined (src/mg/kernels.c: the precision; tuning mg_dense_wg, a power of two)"
#endif

__kernel __attribute__((reqd_work_group_size(MG_DENSE_WG, 1, 1))) void mg_dense_apply(const int n, __global const MG_REAL *inv, __global const MG_REAL *b,
                                                                                       __global MG_REAL *x)
{
  __local MG_REAL          part[MG_DENSE_WG];
  const int                row = (int)get_group_id(0), lid = (int)get_local_id(0);
  __global const MG_REAL *a   = inv + (long)row * n;
  MG_REAL                  s   = 0;

  for (int j = lid; j < n; j += MG_DENSE_WG) s += a[j] * b[j];
  part[lid] = s;
  for (int w = MG_DENSE_WG / 2; w > 0; w /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < w) part[lid] += part[lid + w];
  }
  if (lid == 0) x[row] = part[0];
}
