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

/* The anisotropy of a level (src/mg/lines.c, which chooses its line smoothers from it): over the owned nodes, the largest
   q = rho^2 crr / css (the strength of the r-couplings against the s-couplings of the operator's 5-point part, spec 5.4 (A)) and the
   largest 1/q. Work-item g of the G launched folds nodes g, g + G, ... and writes its two values to out[2g], out[2g+1]; the host
   reduces them. crr, css on the ghosted patch gh (fp64, as the problem keeps them). */
__kernel void mg_anisotropy(const int4 gh, const int4 own, const SBPMG_REAL rho2, __global const SBPMG_REAL *crr, __global const SBPMG_REAL *css,
                            __global SBPMG_REAL *out)
{
  const long g = get_global_id(0), G = get_global_size(0), n = (long)own.s2 * own.s3;
  SBPMG_REAL qmax = 0, pmax = 0;

  for (long k = g; k < n; k += G) {
    const long       i = k % own.s2, j = k / own.s2, kg = (i + own.s0 - gh.s0) + (long)gh.s2 * (j + own.s1 - gh.s1);
    const SBPMG_REAL q = rho2 * crr[kg] / css[kg];
    qmax               = fmax(qmax, q);
    pmax               = fmax(pmax, 1 / q);
  }
  out[2 * g]     = qmax;
  out[2 * g + 1] = pmax;
}
