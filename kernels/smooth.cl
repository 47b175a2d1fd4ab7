/* Fused multigrid smoothing sweeps on the SBP-SAT operator: one pass over the operator's data per sweep
   (built together with sbp.cl, whose sbp_apply_point it uses: program "sbp+smooth").

   One sweep, for every node (three-term form of the Chebyshev recurrence, Saad Alg. 12.1 with d_k = x_{k+1} - x_k):
       r      = s (b - M~ x_k)                          s = 1/diag(M~) (Jacobi, Chebyshev): computed here from the
                                                        coefficients already loaded (jacobi = 1) or read from dinv
                                                        (jacobi = 2); s = 1 (Richardson, jacobi = 0)
       x_{k+1} = x_k + c1 (x_k - x_{k-1}) + c2 r         c1 = 0 for Jacobi, Richardson and the first Chebyshev sweep
   x_k is read with its neighbours, so x_{k+1} goes to another buffer: the one holding x_{k-1}, read and overwritten at the same
   node by the same work-item (or to a third buffer: prev and out are separate arguments and may be the same). zero = 1: x_k = 0
   (first sweep from a zero guess), x is not read; prev_zero = 1: x_{k-1} = 0.
   Bytes per node: the three coefficients, x_k, b, the output, and x_{k-1} when c1 != 0 (48 or 56 B in fp64).

   Two sweeps in one pass (mg_smooth_pair, docs/design.md "two sweeps per pass"): a work-group computes x_{k+1} on its tile and a
   ring of one node around it into local memory, then x_{k+2} on the tile from there; it reads x_k, x_{k-1}, b and the
   coefficients once and writes x_{k+1} and x_{k+2} (52 B per node in place of 88 for two sweeps with fp32 coefficients). */
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
                           const sbp_real c1, const sbp_real c2, const int zero, const int prev_zero, __global const sbp_real *prev, __global sbp_real *out)
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
  if (c1 != 0) xn += c1 * (xk - (prev_zero ? (sbp_real)0 : prev[k]));
  out[k] = xn;
}

__kernel void mg_smooth(const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_coef *a, __global const sbp_coef *b, __global const sbp_coef *c,
                        __global const sbp_real *x, __global const sbp_real *rhs, const int jacobi, __global const sbp_real *dinv, const sbp_real c1, const sbp_real c2,
                        const int zero, const int prev_zero, __global const sbp_real *prev, __global sbp_real *out)
{
  const int i = get_global_id(0), j = get_global_id(1);
  if (i > Nr || j > Ns) return;
  mg_smooth_node(i, j, Nr, Ns, rho, dirichlet, a, b, c, x, rhs, jacobi, dinv, c1, c2, zero, prev_zero, prev, out);
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
    for (int t = lid; t < n; t += ls) mg_smooth_node(t % (Nr + 1), t / (Nr + 1), Nr, Ns, rho, dirichlet, a, b, c, cur, rhs, jacobi, dinv, c1, c2, zero, prev_zero, next, next);
    barrier(CLK_GLOBAL_MEM_FENCE);
    {
      __global sbp_real *t = cur;
      cur                  = next;
      next                 = t;
    }
  }
}

/* mg_smooth on the owned nodes of a region on several ranks (sbp.cl, "the multi-rank path"): x is the ghosted patch; rhs, dinv
   prev and out are in the owned layout. The same arithmetic as mg_smooth, node by node. */
__kernel void mg_smooth_patch(const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_coef *a, __global const sbp_coef *b,
                              __global const sbp_coef *c, __global const sbp_real *x, __global const sbp_real *rhs, const int jacobi, __global const sbp_real *dinv,
                              const sbp_real c1, const sbp_real c2, const int zero, const int prev_zero, __global const sbp_real *prev, __global sbp_real *out,
                              const int4 gh, const int4 own,
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
    if (c1 != 0) xn += c1 * (xk - (prev_zero ? (sbp_real)0 : prev[ko]));
    out[ko] = xn;
  }
}

/* mg_smooth over the interior box alone (see sbp_apply_inner): the 9-point row and its diagonal, no boundary code, SBP_ROWS rows of
   a column per work-item. */
__kernel void mg_smooth_inner(const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_coef *restrict a, __global const sbp_coef *restrict b,
                              __global const sbp_coef *restrict c, __global const sbp_real *restrict x, __global const sbp_real *restrict rhs, const int jacobi,
                              __global const sbp_real *restrict dinv, const sbp_real c1, const sbp_real c2, const int zero, const int prev_zero, __global const sbp_real *prev,
                              __global sbp_real *out,
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
      if (c1 != 0) xn += c1 * (xk - (prev_zero ? (sbp_real)0 : prev[ko]));
      out[ko] = xn;
    }
  }
}

#if !defined(SBP_PAIR_TX) /* the work-group of mg_smooth_pair (-sbp_pair_wg): a tile of (TX-2) x (TY-2) nodes and its ring */
  #define SBP_PAIR_TX 32
#endif
#if !defined(SBP_PAIR_TY)
  #define SBP_PAIR_TY 10
#endif

/* What one interior node's row needs besides u: the coefficients of sbp_row9 and the right-hand side. */
typedef struct {
  sbp_real a_w, a_0, a_e, c_s, c_0, c_n, b_w, b_e, b_s, b_n, f;
} mg_row;

inline void mg_row_load(mg_row *q, const sbp_index kg, const sbp_index ko, const sbp_index ld, __global const sbp_coef *restrict a, __global const sbp_coef *restrict b,
                        __global const sbp_coef *restrict c, __global const sbp_real *restrict rhs)
{
  q->a_w = a[kg - 1];
  q->a_0 = a[kg];
  q->a_e = a[kg + 1];
  q->c_s = c[kg - ld];
  q->c_0 = c[kg];
  q->c_n = c[kg + ld];
  q->b_w = b[kg - 1];
  q->b_e = b[kg + 1];
  q->b_s = b[kg - ld];
  q->b_n = b[kg + ld];
  q->f   = rhs[ko];
}

/* One sweep at an interior node from u = x_k on its 3 x 3 block (u[3 * row + column], row 0 south) and x_{k-1} there: the
   arithmetic of mg_smooth_inner. */
inline sbp_real mg_row_sweep(const mg_row *q, const sbp_real rho, const sbp_real irho, const sbp_real *u, const sbp_real xprev, const int jacobi, const sbp_real dinvk,
                             const sbp_real c1, const sbp_real c2)
{
  sbp_real diag, xn, r = q->f - sbp_row9(rho, irho, q->a_w, q->a_0, q->a_e, q->c_s, q->c_0, q->c_n, q->b_w, q->b_e, q->b_s, q->b_n, u[0], u[1], u[2], u[3], u[4], u[5], u[6],
                                         u[7], u[8], &diag);
  if (jacobi == 1) r *= mg_recip(diag);
  else if (jacobi == 2) r *= dinvk;
  xn = u[4] + c2 * r;
  if (c1 != 0) xn += c1 * (u[4] - xprev);
  return xn;
}

/* The first sweep at interior node (i,j), everything read from global memory; q gets the node's row. */
inline sbp_real mg_pair_first(const int i, const int j, const int4 gh, const int4 own, const sbp_real rho, const sbp_real irho, __global const sbp_coef *restrict a,
                              __global const sbp_coef *restrict b, __global const sbp_coef *restrict c, __global const sbp_real *restrict x,
                              __global const sbp_real *restrict prev, __global const sbp_real *restrict rhs, const int jacobi, __global const sbp_real *restrict dinv,
                              const sbp_real c1, const sbp_real c2, const int zero, const int prev_zero, mg_row *q, sbp_real *xk)
{
  const sbp_index ld = gh.s2, kg = (i - gh.s0) + ld * (sbp_index)(j - gh.s1), ko = (i - own.s0) + own.s2 * (sbp_index)(j - own.s1);
  sbp_real        u[9];
  mg_row_load(q, kg, ko, ld, a, b, c, rhs);
  for (int t = 0; t < 9; t++) u[t] = zero ? (sbp_real)0 : x[kg + (t % 3 - 1) + ld * (t / 3 - 1)];
  *xk = u[4];
  return mg_row_sweep(q, rho, irho, u, (c1 != 0 && !prev_zero) ? prev[ko] : (sbp_real)0, jacobi, jacobi == 2 ? dinv[ko] : (sbp_real)0, c1, c2);
}

/* Sweeps k and k+1 (coefficients (c1a, c2a), (c1b, c2b)) over the box `core`, the interior box `in` shrunk by one node. A
   work-group of SBP_PAIR_TX x SBP_PAIR_TY work-items covers a tile of (SBP_PAIR_TX-2) x (SBP_PAIR_TY-2) nodes and the ring of one
   node around it: each work-item computes x_{k+1} at its node (where the node is in `in`) into local memory; after the barrier the
   tile's work-items compute x_{k+2} from there. Writes x_{k+1} (out1) and x_{k+2} (out2) on the core nodes only; the nodes around
   the core take both sweeps from mg_smooth_patch over the rim of `core` (src/mg/smoother.c). x, prev, out1 and out2 are four
   different buffers: x and prev are read around the tile, so neither can be overwritten while other tiles run. */
__kernel __attribute__((reqd_work_group_size(SBP_PAIR_TX, SBP_PAIR_TY, 1))) void
mg_smooth_pair(const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_coef *restrict a, __global const sbp_coef *restrict b,
               __global const sbp_coef *restrict c, __global const sbp_real *restrict x, __global const sbp_real *restrict rhs, const int jacobi,
               __global const sbp_real *restrict dinv, const sbp_real c1a, const sbp_real c2a, const sbp_real c1b, const sbp_real c2b, const int zero, const int prev_zero,
               __global const sbp_real *restrict prev, __global sbp_real *restrict out1, __global sbp_real *restrict out2, const int4 gh, const int4 own, const int4 in,
               const int4 core)
{
  __local sbp_real t1[SBP_PAIR_TY * SBP_PAIR_TX];
  const int        lx = (int)get_local_id(0), ly = (int)get_local_id(1);
  const int        i = core.s0 - 1 + (SBP_PAIR_TX - 2) * (int)get_group_id(0) + lx, j = core.s1 - 1 + (SBP_PAIR_TY - 2) * (int)get_group_id(1) + ly;
  const sbp_real   irho = 1 / rho;
  sbp_real         xk   = 0;

  (void)Nr;
  (void)Ns;
  (void)dirichlet;
  if (i >= in.s0 && i <= in.s2 && j >= in.s1 && j <= in.s3) {
    mg_row q;
    t1[ly * SBP_PAIR_TX + lx] = mg_pair_first(i, j, gh, own, rho, irho, a, b, c, x, prev, rhs, jacobi, dinv, c1a, c2a, zero, prev_zero, &q, &xk);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lx >= 1 && lx <= SBP_PAIR_TX - 2 && ly >= 1 && ly <= SBP_PAIR_TY - 2 && i <= core.s2 && j <= core.s3) {
    const sbp_index ld = gh.s2, kg = (i - gh.s0) + ld * (sbp_index)(j - gh.s1), ko = (i - own.s0) + own.s2 * (sbp_index)(j - own.s1);
    mg_row          q;
    sbp_real        u[9];
    mg_row_load(&q, kg, ko, ld, a, b, c, rhs); /* again, from the cache: fewer registers live across the barrier */
    for (int t = 0; t < 9; t++) u[t] = t1[(ly + t / 3 - 1) * SBP_PAIR_TX + lx + t % 3 - 1];
    out1[ko] = u[4];
    out2[ko] = mg_row_sweep(&q, rho, irho, u, xk, jacobi, jacobi == 2 ? dinv[ko] : (sbp_real)0, c1b, c2b);
  }
}
#endif
