/* Fused multigrid smoothing sweeps on the SBP-SAT operator: one pass over the operator's data per sweep
   (built together with sbp.cl, whose sbp_apply_point it uses: program "sbp+smooth").

   One sweep, for every node (three-term form of the Chebyshev recurrence, Saad Alg. 12.1 with d_k = x_{k+1} - x_k):
       r      = s (b - M~ x_k)                          s = 1/diag(M~) (Jacobi, Chebyshev): computed here from the
                                                        coefficients already loaded (jacobi = 1) or read from dinv
                                                        (jacobi = 2); s = 1 (Richardson, jacobi = 0)
       x_{k+1} = x_k + c1 (x_k - x_{k-1}) + c2 r         c1 = 0 for Jacobi, Richardson and the first Chebyshev sweep
   x_k is read with its neighbours, so x_{k+1} goes to another buffer: the one holding x_{k-1}, read and overwritten at the same
   node by the same work-item. zero = 1: x_k = 0 (first sweep from a zero guess), x is not read; prev_zero = 1: x_{k-1} = 0.
   Bytes per node: the three coefficients, x_k, b, the output, and x_{k-1} when c1 != 0 (48 or 56 B in fp64). */
#ifdef __OPENCL_VERSION__
/* 1/d to fp64 precision without a division (an fp64 division is a long instruction sequence, and the sweeps are close to the
   bandwidth roof): the fp32 reciprocal, good to a few ulp (2^-21), refined by two Newton steps, each squaring the relative error
   (2^-42, then below fp64 rounding). Values outside the normal fp32 range divide. */
inline sbp_real mg_recip(const sbp_real d)
{
  const float df = (float)d;
  sbp_real    y;
  if (!isnormal(df)) return 1 / d;
  y = (sbp_real)(1.0f / df);
  y = y * (2 - d * y);
  return y * (2 - d * y);
}

/* One sweep at node (i,j) of the whole grid (one rank). */
inline void mg_smooth_node(const int i, const int j, const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_coef *a, __global const sbp_coef *b,
                           __global const sbp_coef *c, __global const sbp_real *x, __global const sbp_real *rhs, const int jacobi, __global const sbp_real *dinv,
                           const sbp_real c1, const sbp_real c2, const int zero, const int prev_zero, __global sbp_real *xprev_out)
{
  const long k = i + (long)(Nr + 1) * j;
  sbp_real   r = rhs[k], xk = 0, xn, diag;
  if (sbp_is_interior(i, j, Nr, Ns, dirichlet)) { /* the 9-point interior row and its diagonal in one go */
    r -= sbp_interior_point(k, Nr + 1, rho, zero ? 0 : x, a, b, c, &diag);
    if (!zero) xk = x[k];
    if (jacobi == 1) r *= mg_recip(diag);
  } else {
    if (!zero) {
      r -= sbp_apply_point(i, j, Nr, Ns, rho, dirichlet, x, a, b, c, 0, 0, Nr + 1, 0);
      xk = x[k];
    }
    if (jacobi == 1) r *= mg_recip(sbp_apply_point(i, j, Nr, Ns, rho, dirichlet, 0, a, b, c, 0, 0, Nr + 1, 1));
  }
  if (jacobi == 2) r *= dinv[k];
  xn = xk + c2 * r;
  if (c1 != 0) xn += c1 * (xk - (prev_zero ? (sbp_real)0 : xprev_out[k]));
  xprev_out[k] = xn;
}

__kernel void mg_smooth(const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_coef *a, __global const sbp_coef *b, __global const sbp_coef *c,
                        __global const sbp_real *x, __global const sbp_real *rhs, const int jacobi, __global const sbp_real *dinv, const sbp_real c1, const sbp_real c2,
                        const int zero, const int prev_zero, __global sbp_real *xprev_out)
{
  const int i = get_global_id(0), j = get_global_id(1);
  if (i > Nr || j > Ns) return;
  mg_smooth_node(i, j, Nr, Ns, rho, dirichlet, a, b, c, x, rhs, jacobi, dinv, c1, c2, zero, prev_zero, xprev_out);
}

/* All nu sweeps of a small grid in one launch of a single work-group (on small grids the launches, not the bytes, set the pace):
   each sweep visits the nodes lid, lid + size, ..., then a barrier on global memory. coef holds (c1, c2) of every sweep. As with a
   launch per sweep, sweep k reads x_k from one buffer and writes x_{k+1} over x_{k-1} in the other: the result ends in x after an
   even number of sweeps, in xw after an odd one. guesszero: x_0 = 0 (not read). */
__kernel void mg_smooth_block(const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_coef *a, __global const sbp_coef *b,
                              __global const sbp_coef *c, __global sbp_real *x, __global sbp_real *xw, __global const sbp_real *rhs, const int jacobi,
                              __global const sbp_real *dinv, __global const sbp_real *coef, const int nu, const int guesszero)
{
  const int          n = (Nr + 1) * (Ns + 1), lid = (int)get_local_id(0), ls = (int)get_local_size(0);
  __global sbp_real *cur = x, *next = xw;
  for (int k = 0; k < nu; k++) {
    const sbp_real c1 = coef[2 * k], c2 = coef[2 * k + 1];
    const int      zero = k == 0 && guesszero, prev_zero = k == 1 && guesszero;
    for (int t = lid; t < n; t += ls) mg_smooth_node(t % (Nr + 1), t / (Nr + 1), Nr, Ns, rho, dirichlet, a, b, c, cur, rhs, jacobi, dinv, c1, c2, zero, prev_zero, next);
    barrier(CLK_GLOBAL_MEM_FENCE);
    {
      __global sbp_real *t = cur;
      cur                  = next;
      next                 = t;
    }
  }
}

/* mg_smooth on the owned nodes of a region on several ranks (sbp.cl, "the multi-rank path"): x is the ghosted patch; rhs, dinv
   and xprev_out are in the owned layout. The same arithmetic as mg_smooth, node by node. */
__kernel void mg_smooth_patch(const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_coef *a, __global const sbp_coef *b,
                              __global const sbp_coef *c, __global const sbp_real *x, __global const sbp_real *rhs, const int jacobi, __global const sbp_real *dinv,
                              const sbp_real c1, const sbp_real c2, const int zero, const int prev_zero, __global sbp_real *xprev_out, const int4 gh, const int4 own,
                              const int4 in, const int mode)
{
  int i, j;
  if (!sbp_region_node(mode, own, in, &i, &j)) return;
  {
    SBP_PATCH_INDICES;
    sbp_real r = rhs[ko], xk = 0, xn, diag;
    if (sbp_is_interior(i, j, Nr, Ns, dirichlet)) {
      r -= sbp_interior_point(kg, gh.s2, rho, zero ? 0 : x, a, b, c, &diag);
      if (!zero) xk = x[kg];
      if (jacobi == 1) r *= mg_recip(diag);
    } else {
      if (!zero) {
        r -= sbp_apply_point(i, j, Nr, Ns, rho, dirichlet, x, a, b, c, gh.s0, gh.s1, gh.s2, 0);
        xk = x[kg];
      }
      if (jacobi == 1) r *= mg_recip(sbp_apply_point(i, j, Nr, Ns, rho, dirichlet, 0, a, b, c, gh.s0, gh.s1, gh.s2, 1));
    }
    if (jacobi == 2) r *= dinv[ko];
    xn = xk + c2 * r;
    if (c1 != 0) xn += c1 * (xk - (prev_zero ? (sbp_real)0 : xprev_out[ko]));
    xprev_out[ko] = xn;
  }
}

/* mg_smooth over the interior box alone (see sbp_apply_inner): the 9-point row and its diagonal, no boundary code, SBP_ROWS rows of
   a column per work-item. */
__kernel void mg_smooth_inner(const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_coef *restrict a, __global const sbp_coef *restrict b,
                              __global const sbp_coef *restrict c, __global const sbp_real *restrict x, __global const sbp_real *restrict rhs, const int jacobi,
                              __global const sbp_real *restrict dinv, const sbp_real c1, const sbp_real c2, const int zero, const int prev_zero, __global sbp_real *restrict xprev_out,
                              const int4 gh, const int4 own, const int4 in, const int mode)
{
  int i, j0;
  const int rows = sbp_walk_rows(in, &i, &j0);
  if (!rows) return;
  {
    const sbp_index          ld = gh.s2, lo = own.s2;
    sbp_index                kg = (i - gh.s0) + ld * (sbp_index)(j0 - gh.s1), ko = (i - own.s0) + lo * (sbp_index)(j0 - own.s1);
    const sbp_real           irho = 1 / rho;
    __global const sbp_real *u    = zero ? 0 : x;
    sbp_walk                 w;
    sbp_walk_start(&w, kg, ld, u, b, c);
    for (int t = 0; t < rows; t++, kg += ld, ko += lo) {
      const sbp_real xk = w.u0;
      sbp_real       diag, xn, r = rhs[ko] - sbp_walk_row(&w, kg, ld, rho, irho, u, a, b, c, &diag);
      if (jacobi == 1) r *= mg_recip(diag);
      else if (jacobi == 2) r *= dinv[ko];
      xn = xk + c2 * r;
      if (c1 != 0) xn += c1 * (xk - (prev_zero ? (sbp_real)0 : xprev_out[ko]));
      xprev_out[ko] = xn;
    }
  }
}
#endif
