/* The fault stress of the discrete Green's function mode (docs/seas.md "The Green's function mode"; src/seas/green.c): at fault node
   i < n,

     tau_i = tau0 + t g_i + sum_j G_ij delta_j,     delta = state[n .. 2n)

   with G (n x n, row-major, fp64) and g made once by volume solves. One work-group per row: its SBPMG_GREEN_WG work-items stride along
   the row (neighbouring work-items read neighbouring entries of G and of delta), then add their partial sums in local memory.
   SBPMG_GREEN_WG, a power of two, is set by src/seas/green.c (no default here). */
#if defined(SBPMG_HAVE_FP64)
#  pragma OPENCL EXTENSION cl_khr_fp64 : enable
#else
#  error "kernels/green.cl needs fp64 on the device"
#endif
#if !defined(SBPMG_GREEN_WG)
#  error "SBPMG_GREEN_WG must be defined (src/seas/green.c: the work-group size, a power of two)"
#endif

__kernel __attribute__((reqd_work_group_size(SBPMG_GREEN_WG, 1, 1))) void green_stress(const int n, const double tau0, const double t,
                                                                                        __global const double *G, __global const double *g,
                                                                                        __global const double *state, __global double *tau)
{
  __local double          part[SBPMG_GREEN_WG];
  const int               row = (int)get_group_id(0), lid = (int)get_local_id(0);
  __global const double  *a = G + (long)row * n, *delta = state + n;
  double                  s = 0;

  for (int j = lid; j < n; j += SBPMG_GREEN_WG) s += a[j] * delta[j];
  part[lid] = s;
  for (int w = SBPMG_GREEN_WG / 2; w > 0; w /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < w) part[lid] += part[lid + w];
  }
  if (lid == 0) tau[row] = tau0 + t * g[row] + part[0];
}
