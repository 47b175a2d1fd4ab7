/* Fused multigrid smoothing sweeps on the SBP-SAT operator: one pass over the operator's data per sweep
   (built after sbp.cl, whose point functions it uses, as the program "sbp+smooth", which holds none of sbp.cl's kernels: SBPMG_SBP_KERNELS 0,
   src/mg/kernels.c).

   One sweep, for every node (three-term form of the Chebyshev recurrence, Saad Alg. 12.1 with d_k = x_{k+1} - x_k):
       r      = s (b - M~ x_k)                          s = 1/diag(M~) (Jacobi, Chebyshev): computed here from the
                                                        coefficients already loaded (jacobi = 1) or read from dinv
                                                        (jacobi = 2); s = 1 (Richardson, jacobi = 0)
       x_{k+1} = x_k + c1 (x_k - x_{k-1}) + c2 r         c1 = 0 for Jacobi, Richardson and the first Chebyshev sweep
   x_k is read with its neighbours, so x_{k+1} goes to another buffer: the one holding x_{k-1}, read and overwritten at the same
   node by the same work-item (or to a third buffer: prev and out are separate arguments and may be the same). zero = 1: x_k = 0
   (first sweep from a zero guess), x is not read; prev_zero = 1: x_{k-1} = 0.
   Bytes per node: the three coefficients, x_k, b, the output, and x_{k-1} when c1 != 0 (48 or 56 B in fp64).

   Several sweeps in one pass (mg_smooth_pass, docs/design.md "several sweeps per pass"): a work-group computes x_{k+1} on its
   tile and a ring of m-1 nodes around it into local memory, x_{k+2} on the tile and a ring of m-2, ..., x_{k+m} on the tile; it
   reads x_k, x_{k-1}, b and the coefficients once and writes x_{k+m} (and x_{k+m-1} where another pass follows): m = 3 sweeps
   from a guess cost 36 B per node with fp32 coefficients in place of 124 B.

   Precision: the iterates, rhs, dinv and the arithmetic are sbp_real (SBPMG_SBP_REAL: fp64, or fp32 in the single-precision V-cycle).
   io, bits: 1 the right-hand side is read in the outer precision (mg_outer, CG's) from rhs64 and its sbp_real copy written to
   rhs_copy (the finest level's first sweep); 2 the result goes to out64 in the outer precision instead of out (its last); 4 (the
   single sweeps only, with jacobi = 0, c1 = 0) the result is the residual r = b - M~ x_k in place of x_{k+1}: PCMG's level residual of
   the single-precision V-cycle (src/mg/cycle.c), so that the program holds no apply kernel of sbp.cl (docs/design.md "Kernel subsets").
   The arguments that a launch does not read are still valid buffers of its size (src/mg/sweeps.c, src/mg/cycle.c). */
#ifdef __OPENCL_VERSION__
  #if !defined(SBPMG_MG_PASS_WG)
    #error "SBPMG_MG_PASS_WG must be defined (tuning table: mg_pass_wg; src/mg/kernels.c)"
  #endif
typedef SBPMG_REAL mg_outer; /* CG's precision: the finest level's right-hand side and result */
  #define MG_IO_ARGS   const int io, __global const mg_outer *restrict rhs64, __global sbp_real *restrict rhs_copy, __global mg_outer *restrict out64
  #define MG_IO_PASSED io, rhs64, rhs_copy, out64
/* 1/d to the precision of sbp_real without an fp64 division (a long instruction sequence, and the sweeps are close to the
   bandwidth roof): the fp32 reciprocal, good to a few ulp (2^-21), refined in fp64 by two Newton steps, each squaring the relative
   error (2^-42, then below fp64 rounding). Values outside the normal fp32 range divide; in fp32 the reciprocal is the result. */
inline sbp_real mg_recip(const sbp_real d)
{
  const float df = (float)d;
  sbp_real    y;
  if (sizeof(sbp_real) == sizeof(float)) return (sbp_real)(1.0f / df);
  if (!isnormal(df)) return 1 / d;
  y = (sbp_real)(1.0f / df);
  y = y * (2 - d * y);
  return y * (2 - d * y);
}

/* The right-hand side at ko: rhs, or (io & 1) rhs64 rounded to sbp_real and kept in rhs_copy. */
inline sbp_real mg_rhs(__global const sbp_real *rhs, MG_IO_ARGS, const long ko)
{
  sbp_real f;
  (void)out64;
  if (!(io & 1)) return rhs[ko];
  f            = (sbp_real)rhs64[ko];
  rhs_copy[ko] = f;
  return f;
}

/* Store the new iterate at ko: to out, or (io & 2) to out64 in the outer precision. */
inline void mg_store(const sbp_real xn, __global sbp_real *out, __global mg_outer *out64, const int io, const long ko)
{
  if (io & 2) out64[ko] = (mg_outer)xn;
  else out[ko] = xn;
}

/* x_{k+1} = x_k + c1 (x_k - x_{k-1}) + c2 r at a node, r = b - M~ x_k already scaled by 1/diag where jacobi = 1; jacobi = 2
   scales it by dinv[ko] here. x_{k-1} (prev[ko]) is read only where c1 != 0 and not prev_zero. io & 4: r is stored instead (a select
   on a uniform value, no load more). */
inline void mg_smooth_update(sbp_real r, const sbp_real xk, const int jacobi, __global const sbp_real *dinv, const sbp_real c1, const sbp_real c2,
                             const int prev_zero, __global const sbp_real *prev, __global sbp_real *out, __global mg_outer *out64, const int io, const long ko)
{
  sbp_real xn;
  if (jacobi == 2) r *= dinv[ko];
  xn = xk + c2 * r;
  if (c1 != 0) xn += c1 * (xk - (prev_zero ? (sbp_real)0 : prev[ko]));
  mg_store((io & 4) ? r : xn, out, out64, io, ko);
}

/* One sweep at node (i,j): x and the coefficients at kg (origin ox, oy, leading dimension ld), rhs, dinv, prev and out at ko
   (sbp.cl SBP_NODE_ARGS). */
inline void mg_smooth_node(const int i, const int j, const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_coef *a, __global const sbp_coef *b,
                           __global const sbp_coef *c, __global const sbp_real *x, __global const sbp_real *rhs, const int jacobi, __global const sbp_real *dinv,
                           const sbp_real c1, const sbp_real c2, const int zero, const int prev_zero, __global const sbp_real *prev, __global sbp_real *out, MG_IO_ARGS,
                           SBP_NODE_ARGS)
{
  sbp_real r = mg_rhs(rhs, MG_IO_PASSED, ko), xk = 0, diag;
  if (sbp_is_interior(i, j, Nr, Ns, dirichlet)) { /* the 9-point interior row and its diagonal in one go */
    r -= sbp_interior_point(kg, ld, rho, zero ? 0 : x, a, b, c, &diag);
    if (!zero) xk = x[kg];
    if (jacobi == 1) r *= mg_recip(diag);
  } else {
    if (!zero) {
      r -= sbp_apply_point(i, j, Nr, Ns, rho, dirichlet, x, a, b, c, ox, oy, ld, 0, 0, 0);
      xk = x[kg];
    }
    if (jacobi == 1) r *= mg_recip(sbp_apply_point(i, j, Nr, Ns, rho, dirichlet, 0, a, b, c, ox, oy, ld, 1, 0, 0));
  }
  mg_smooth_update(r, xk, jacobi, dinv, c1, c2, prev_zero, prev, out, out64, io, ko);
}

/* One sweep on the owned nodes of a region (sbp.cl, "the kernels: a region of a rank's owned block"): x is the ghosted patch; rhs,
   dinv, prev and out are in the owned layout. */
__kernel void mg_smooth_patch(const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_coef *a, __global const sbp_coef *b,
                              __global const sbp_coef *c, __global const sbp_real *x, __global const sbp_real *rhs, const int jacobi, __global const sbp_real *dinv,
                              const sbp_real c1, const sbp_real c2, const int zero, const int prev_zero, __global const sbp_real *prev, __global sbp_real *out,
                              MG_IO_ARGS, const int4 gh, const int4 own, const int4 in, const int mode)
{
  SBP_PATCH_NODE;
  mg_smooth_node(i, j, Nr, Ns, rho, dirichlet, a, b, c, x, rhs, jacobi, dinv, c1, c2, zero, prev_zero, prev, out, MG_IO_PASSED, kg, ko, gh.s0, gh.s1, gh.s2);
}

/* mg_smooth_patch over the interior box alone (see sbp_apply_inner): the 9-point row and its diagonal, no boundary code. */
__kernel void mg_smooth_inner(const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_coef *restrict a, __global const sbp_coef *restrict b,
                              __global const sbp_coef *restrict c, __global const sbp_real *restrict x, __global const sbp_real *restrict rhs, const int jacobi,
                              __global const sbp_real *restrict dinv, const sbp_real c1, const sbp_real c2, const int zero, const int prev_zero, __global const sbp_real *prev,
                              __global sbp_real *out, MG_IO_ARGS, const int4 gh, const int4 own, const int4 in, const int mode)
{
  SBP_INNER_FOR {
    SBP_INNER_INDEX;
    const sbp_real xk = sbp_load_unless(x, kg, zero); /* x is a valid buffer of the patch's size where zero (src/mg/sweeps.c) */
    sbp_real       diag, r = mg_rhs(rhs, MG_IO_PASSED, ko) - sbp_inner_point(kg, ld, rho, 1 / rho, x, zero, a, b, c, &diag);
    if (jacobi == 1) r *= mg_recip(diag);
    mg_smooth_update(r, xk, jacobi, dinv, c1, c2, prev_zero, prev, out, out64, io, ko);
  }
}

/* What one interior node's row needs besides u: the coefficients of sbp_row9 and the right-hand side. */
typedef struct {
  sbp_real a_w, a_0, a_e, c_s, c_0, c_n, b_w, b_e, b_s, b_n, f;
} mg_row;

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

/* mg_smooth_pass streams a strip of SBPMG_MG_PASS_WG columns up the grid, one row per step (docs/design.md "several sweeps per pass").
   Step t stores row t of x_k, a, b, c, the right-hand side, dinv and x_{k-1}, loaded during step t - 1 (so that a row of loads is in
   flight while the sweeps compute), then computes sweep s at row t - s for s = 1..m. The rows of the iterates that the
   next sweep reads and of a and b (whose r-neighbours a row needs) sit in local memory; what a node needs of its own column (c at rows
   r-1..r+1, f, dinv, x_{k-1}) is carried in registers from step to step. The rings that step t + 1 stores into hold
   at least one row more than step t reads, so that no barrier separates a step's last sweep from the next step's stores; every ring's
   depth is a power of two, the slot of row r (>= 0) r & (depth - 1). */
#define MG_RING_X 4 /* x_k: rows t-3..t (sweep 1 reads rows t-2..t, sweep 2 row t-2) */
#define MG_RING_U 4 /* x_{k+1}, x_{k+2}: rows r-1..r+1 of the sweep that reads them, and one more */
#define MG_RING_C 8 /* a, b: rows t-7..t (sweep 3 reads rows t-4..t-2) */

/* Row t's values at this work-item's column. */
typedef struct {
  sbp_real x, f, d, p;
  sbp_coef a, b, c;
} mg_stream_load;

/* What node (i, r) needs of its own column: c at rows t..t-4, f and dinv at rows t..t-3, x_{k-1} at rows t, t-1 (index 0: row t). */
typedef struct {
  sbp_real c[5], f[4], d[4], p[2];
} mg_stream_column;

/* Sweep s of the pass at local column lx, row r = t - s: from the iterate x_{k+s-1} in ring u of nu rows, the coefficients of rings la,
   lb and the column's registers; xprev is x_{k+s-2} at the node. */
inline sbp_real mg_stream_sweep(const int s, const int r, const int lx, __local const sbp_real *u, const int nu, __local const sbp_coef *la,
                                __local const sbp_coef *lb, const mg_stream_column *col, const sbp_real rho, const sbp_real irho, const sbp_real xprev,
                                const int jacobi, const sbp_real c1, const sbp_real c2)
{
  const int us = ((r - 1) & (nu - 1)) * SBPMG_MG_PASS_WG + lx, u0 = (r & (nu - 1)) * SBPMG_MG_PASS_WG + lx, un = ((r + 1) & (nu - 1)) * SBPMG_MG_PASS_WG + lx;
  const int cs = ((r - 1) & (MG_RING_C - 1)) * SBPMG_MG_PASS_WG + lx, c0 = (r & (MG_RING_C - 1)) * SBPMG_MG_PASS_WG + lx, cn = ((r + 1) & (MG_RING_C - 1)) * SBPMG_MG_PASS_WG + lx;
  mg_row    q;
  sbp_real  v[9];

  q.a_w = la[c0 - 1];
  q.a_0 = la[c0];
  q.a_e = la[c0 + 1];
  q.b_w = lb[c0 - 1];
  q.b_e = lb[c0 + 1];
  q.b_s = lb[cs];
  q.b_n = lb[cn];
  q.c_s = col->c[s + 1]; /* rows r-1, r, r+1 = t-s-1, t-s, t-s+1 */
  q.c_0 = col->c[s];
  q.c_n = col->c[s - 1];
  q.f   = col->f[s];
  for (int e = 0; e < 3; e++) {
    v[e]     = u[us + e - 1];
    v[3 + e] = u[u0 + e - 1];
    v[6 + e] = u[un + e - 1];
  }
  return mg_row_sweep(&q, rho, irho, v, xprev, jacobi, col->d[s], c1, c2);
}

/* Row t at column i into v: x and the coefficients where a sweep reads them (i <= in.s2 + 1), the node's own values where a sweep runs
   (inside `in`, rows jlo..jhi). */
inline void mg_stream_fetch(mg_stream_load *v, const int i, const int t, const int4 gh, const int4 own, const int4 in, const int jlo, const int jhi,
                            __global const sbp_coef *restrict a, __global const sbp_coef *restrict b, __global const sbp_coef *restrict c,
                            __global const sbp_real *restrict x, const int zero, __global const sbp_real *restrict rhs, const int io,
                            __global const mg_outer *restrict rhs64, const int jacobi, __global const sbp_real *restrict dinv, const int readprev,
                            __global const sbp_real *restrict prev)
{
  const sbp_index kg = (i - gh.s0) + gh.s2 * (sbp_index)(t - gh.s1), ko = (i - own.s0) + own.s2 * (sbp_index)(t - own.s1);
  const int       nb = i <= in.s2 + 1, node = i >= in.s0 && i <= in.s2 && t >= jlo && t <= jhi;

  v->a = nb ? a[kg] : (sbp_coef)0;
  v->b = nb ? b[kg] : (sbp_coef)0;
  v->c = nb ? c[kg] : (sbp_coef)0;
  v->x = nb && !zero ? x[kg] : (sbp_real)0;
  v->f = node ? ((io & 1) ? (sbp_real)rhs64[ko] : rhs[ko]) : (sbp_real)0;
  v->d = node && jacobi == 2 ? dinv[ko] : (sbp_real)0;
  v->p = node && readprev ? prev[ko] : (sbp_real)0;
}

/* Row t of v into the rings and the column's registers (each shifted by a row). */
inline void mg_stream_store(const mg_stream_load *v, const int t, const int lx, __local sbp_real *ux, __local sbp_coef *la, __local sbp_coef *lb, mg_stream_column *col)
{
  const int k = (t & (MG_RING_C - 1)) * SBPMG_MG_PASS_WG + lx;
  for (int e = 4; e > 0; e--) col->c[e] = col->c[e - 1];
  for (int e = 3; e > 0; e--) {
    col->f[e] = col->f[e - 1];
    col->d[e] = col->d[e - 1];
  }
  col->p[1]                                   = col->p[0];
  col->c[0]                                   = v->c;
  col->f[0]                                   = v->f;
  col->d[0]                                   = v->d;
  col->p[0]                                   = v->p;
  la[k]                                       = v->a;
  lb[k]                                       = v->b;
  ux[(t & (MG_RING_X - 1)) * SBPMG_MG_PASS_WG + lx] = v->x;
}

/* Sweeps k+1..k+m (m = 2 or 3; (c1, c2) of sweep k+s as c1a, c2a, c1b, ...) over the box `core`, the interior box `in` shrunk by m-1
   nodes. Work-group (g0, g1) owns the core's columns core.s0 + (SBPMG_MG_PASS_WG - 2m) g0 + [0, SBPMG_MG_PASS_WG - 2m) and rows core.s1 + rows g1 +
   [0, rows); its work-items hold the owned columns and m more on each side, where sweep s runs on the work-items at least s from the
   work-group's edge, and the rows it needs reach m - s beyond the owned ones. On the owned nodes it writes x_{k+m} (out[m-1]), x_{k+m-1}
   where write_prev (another pass follows), and every x_{k+s} on the core's outer layer, which the single sweeps over the rim of `core`
   read (src/mg/sweeps.c). x, prev and the outputs are different buffers: x and prev are read around each strip. With io & 1 the
   right-hand side comes from rhs64 (its copy written on the owned nodes), with io & 2 x_{k+m} goes to out64; io & 4 (the residual)
   is not supported here. */
__kernel __attribute__((reqd_work_group_size(SBPMG_MG_PASS_WG, 1, 1))) void
mg_smooth_pass(const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_coef *restrict a, __global const sbp_coef *restrict b,
               __global const sbp_coef *restrict c, __global const sbp_real *restrict x, __global const sbp_real *restrict rhs, const int jacobi,
               __global const sbp_real *restrict dinv, const int m, const sbp_real c1a, const sbp_real c2a, const sbp_real c1b, const sbp_real c2b, const sbp_real c1c,
               const sbp_real c2c, const int zero, const int prev_zero, const int write_prev, __global const sbp_real *restrict prev, __global sbp_real *restrict out1,
               __global sbp_real *restrict out2, __global sbp_real *restrict out3, const int4 gh, const int4 own, const int4 in, const int4 core, MG_IO_ARGS,
               const int rows)
{
  __local sbp_real ux[MG_RING_X * SBPMG_MG_PASS_WG], uy[2][MG_RING_U * SBPMG_MG_PASS_WG]; /* x_k; x_{k+1}, x_{k+2} */
  __local sbp_coef la[MG_RING_C * SBPMG_MG_PASS_WG], lb[MG_RING_C * SBPMG_MG_PASS_WG];
  const int        lx = (int)get_local_id(0), i = core.s0 - m + (SBPMG_MG_PASS_WG - 2 * m) * (int)get_group_id(0) + lx;
  const int        j0 = core.s1 + rows * (int)get_group_id(1), j1 = min(j0 + rows - 1, core.s3), jlo = j0 - m + 1, jhi = j1 + m - 1, tend = j1 + m;
  const int        col_in = i >= in.s0 && i <= in.s2, owned = lx >= m && lx < SBPMG_MG_PASS_WG - m && i <= core.s2, edge_col = i == core.s0 || i == core.s2;
  const int        readprev = c1a != 0 && !prev_zero;
  const sbp_real   irho = 1 / rho, cc[6] = {c1a, c2a, c1b, c2b, c1c, c2c};
  mg_stream_load   v;
  mg_stream_column col;

  (void)Nr;
  (void)Ns;
  (void)dirichlet;
  for (int e = 0; e < 5; e++) col.c[e] = 0;
  for (int e = 0; e < 4; e++) col.f[e] = col.d[e] = 0;
  col.p[0] = col.p[1] = 0;
  mg_stream_fetch(&v, i, j0 - m, gh, own, in, jlo, jhi, a, b, c, x, zero, rhs, io, rhs64, jacobi, dinv, readprev, prev);
  for (int t = j0 - m; t <= tend; t++) {
    mg_stream_store(&v, t, lx, ux, la, lb, &col);
    if (t < tend) mg_stream_fetch(&v, i, t + 1, gh, own, in, jlo, jhi, a, b, c, x, zero, rhs, io, rhs64, jacobi, dinv, readprev, prev);
    barrier(CLK_LOCAL_MEM_FENCE); /* row t stored */
#pragma unroll
    for (int s = 1; s <= 3; s++) { /* unrolled: every register and ring index below is static */
      const int r = t - s;
      if (s <= m && col_in && lx >= s && lx < SBPMG_MG_PASS_WG - s && r >= j0 - (m - s) && r <= j1 + (m - s)) {
        __local const sbp_real *u     = s == 1 ? ux : uy[s == 2 ? 0 : 1];
        const sbp_real          xprev = s == 1 ? col.p[1] : (s == 2 ? ux[(r & (MG_RING_X - 1)) * SBPMG_MG_PASS_WG + lx] : uy[0][(r & (MG_RING_U - 1)) * SBPMG_MG_PASS_WG + lx]);
        const sbp_real          xn    = mg_stream_sweep(s, r, lx, u, s == 1 ? MG_RING_X : MG_RING_U, la, lb, &col, rho, irho, xprev, jacobi, cc[2 * s - 2], cc[2 * s - 1]);
        if (s < m) uy[s == 1 ? 0 : 1][(r & (MG_RING_U - 1)) * SBPMG_MG_PASS_WG + lx] = xn;
        if (owned && r >= j0 && r <= j1) {
          const sbp_index ko = (i - own.s0) + own.s2 * (sbp_index)(r - own.s1);
          if (s == 1 && (io & 1)) rhs_copy[ko] = col.f[1];
          if (s == m) mg_store(xn, m == 2 ? out2 : out3, out64, io, ko);
          else if (edge_col || r == core.s1 || r == core.s3 || (write_prev && s == m - 1)) (s == 1 ? out1 : out2)[ko] = xn;
        }
      }
      if (s < m) barrier(CLK_LOCAL_MEM_FENCE); /* sweep s + 1 reads sweep s's row */
    }
  }
}
#endif
