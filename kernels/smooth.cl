/* Fused multigrid smoothing sweeps on the SBP-SAT operator: one pass over the operator's data per sweep
   (built together with sbp.cl, whose sbp_apply_point it uses: program "sbp+smooth").

   One sweep, for every node:
       r     = s (b - M~ x)          s = D^-1 (Jacobi, Chebyshev) or 1 (Richardson)
       d_new = c1 d + c2 r           (the Chebyshev recurrence; c1 = 0 for Jacobi/Richardson: d is not read or written)
       x_new = x + d_new
   x_new is written to a second buffer (x is read with its neighbours). zero = 1 means x = 0 (the first sweep from a zero
   guess): x is not read. */
#ifdef __OPENCL_VERSION__
__kernel void mg_smooth(const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_real *a, __global const sbp_real *b, __global const sbp_real *c,
                        __global const sbp_real *x, __global const sbp_real *rhs, __global const sbp_real *dinv, const int use_dinv, const sbp_real c1, const sbp_real c2,
                        const int use_d, __global sbp_real *d, const int zero, __global sbp_real *xnew)
{
  const int i = get_global_id(0), j = get_global_id(1);
  if (i > Nr || j > Ns) return;
  {
    const long k = i + (long)(Nr + 1) * j;
    sbp_real   r = rhs[k];
    sbp_real   dn;
    if (!zero) r -= sbp_apply_point(i, j, Nr, Ns, rho, dirichlet, x, a, b, c, 0, 0, Nr + 1, 0);
    if (use_dinv) r *= dinv[k];
    dn = c2 * r;
    if (use_d) {
      if (c1 != 0) dn += c1 * d[k];
      d[k] = dn;
    }
    xnew[k] = zero ? dn : x[k] + dn;
  }
}
#endif
