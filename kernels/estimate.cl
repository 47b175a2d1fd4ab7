/* The start vector of the multigrid layer's eigenvalue estimates (src/mg/smoother.c): b(i,j) uniform in [0, 1), a splitmix64
   hash of the node's natural index i + (Nr+1) j, so the vector is the same whatever the decomposition; the host path computes
   the same bits. One work-item per owned node (xm x ym from (xs, ys), stored r fastest). */
#if defined(SBPMG_HAVE_FP64)
  #pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

__kernel void mg_start_vector(int xs, int ys, int xm, int ym, int Nr, __global SBPMG_REAL *b)
{
  const int a = get_global_id(0), c = get_global_id(1);
  ulong     z;

  if (a >= xm || c >= ym) return;
  z = 0x5b9UL + 0x9E3779B97F4A7C15UL * (ulong)((long)(xs + a) + (long)(Nr + 1) * (ys + c) + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
  z ^= z >> 31;
  b[a + (long)xm * c] = (SBPMG_REAL)(z >> 11) * (SBPMG_REAL)(1.0 / 9007199254740992.0);
}
