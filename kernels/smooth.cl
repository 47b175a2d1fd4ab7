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

   Several sweeps in one pass (mg_smooth_pass, docs/design.md "several sweeps per pass"): a work-group computes x_{k+1} on its
   tile and a ring of m-1 nodes around it into local memory, x_{k+2} on the tile and a ring of m-2, ..., x_{k+m} on the tile; it
   reads x_k, x_{k-1}, b and the coefficients once and writes x_{k+m} (and x_{k+m-1} where another pass follows): m = 3 sweeps
   from a guess cost 36 B per node with fp32 coefficients in place of 124 B.

   Precision: the iterates, rhs, dinv and the arithmetic are sbp_real (SBP_REAL: fp64, or fp32 in the single-precision V-cycle).
   io = 1: the right-hand side is read in the outer precision (mg_outer, CG's) from rhs64 and its sbp_real copy written to
   rhs_copy (the finest level's first sweep); io = 2: the result goes to out64 in the outer precision instead of out (its last). */
#ifdef __OPENCL_VERSION__
  #if !defined(MG_PASS_TX) || !defined(MG_PASS_TY)
    #error "MG_PASS_TX and MG_PASS_TY must be defined (tuning table: mg_pass_wg_x, mg_pass_wg_y; src/mg/kernels.c)"
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
   scales it by dinv[ko] here. x_{k-1} (prev[ko]) is read only where c1 != 0 and not prev_zero. */
inline void mg_smooth_update(sbp_real r, const sbp_real xk, const int jacobi, __global const sbp_real *dinv, const sbp_real c1, const sbp_real c2,
                             const int prev_zero, __global const sbp_real *prev, __global sbp_real *out, __global mg_outer *out64, const int io, const long ko)
{
  sbp_real xn;
  if (jacobi == 2) r *= dinv[ko];
  xn = xk + c2 * r;
  if (c1 != 0) xn += c1 * (xk - (prev_zero ? (sbp_real)0 : prev[ko]));
  mg_store(xn, out, out64, io, ko);
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
      r -= sbp_apply_point(i, j, Nr, Ns, rho, dirichlet, x, a, b, c, ox, oy, ld, 0);
      xk = x[kg];
    }
    if (jacobi == 1) r *= mg_recip(sbp_apply_point(i, j, Nr, Ns, rho, dirichlet, 0, a, b, c, ox, oy, ld, 1));
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
  SBP_INNER_NODE;
  const sbp_real xk = sbp_load_unless(x, kg, zero); /* x is a valid buffer of the patch's size where zero (src/mg/sweeps.c) */
  sbp_real       diag, r = mg_rhs(rhs, MG_IO_PASSED, ko) - sbp_inner_point(kg, ld, rho, 1 / rho, x, zero, a, b, c, &diag);
  if (jacobi == 1) r *= mg_recip(diag);
  mg_smooth_update(r, xk, jacobi, dinv, c1, c2, prev_zero, prev, out, out64, io, ko);
}

/* What one interior node's row needs besides u: the coefficients of sbp_row9 and the right-hand side. */
typedef struct {
  sbp_real a_w, a_0, a_e, c_s, c_0, c_n, b_w, b_e, b_s, b_n, f;
} mg_row;

/* The row's coefficients at kg and its right-hand side f (rhs at ko, or rhs64 rounded where io & 1). */
inline void mg_row_load(mg_row *q, const sbp_index kg, const sbp_index ko, const sbp_index ld, __global const sbp_coef *restrict a, __global const sbp_coef *restrict b,
                        __global const sbp_coef *restrict c, __global const sbp_real *restrict rhs, const int io, __global const mg_outer *restrict rhs64)
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
  q->f   = (io & 1) ? (sbp_real)rhs64[ko] : rhs[ko];
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
inline sbp_real mg_pass_first(const int i, const int j, const int4 gh, const int4 own, const sbp_real rho, const sbp_real irho, __global const sbp_coef *restrict a,
                              __global const sbp_coef *restrict b, __global const sbp_coef *restrict c, __global const sbp_real *restrict x,
                              __global const sbp_real *restrict prev, __global const sbp_real *restrict rhs, const int jacobi, __global const sbp_real *restrict dinv,
                              const sbp_real c1, const sbp_real c2, const int zero, const int prev_zero, const int io, __global const mg_outer *restrict rhs64, mg_row *q,
                              sbp_real *xk)
{
  const sbp_index ld = gh.s2, kg = (i - gh.s0) + ld * (sbp_index)(j - gh.s1), ko = (i - own.s0) + own.s2 * (sbp_index)(j - own.s1);
  sbp_real        u[9];
  mg_row_load(q, kg, ko, ld, a, b, c, rhs, io, rhs64);
  for (int t = 0; t < 9; t++) u[t] = zero ? (sbp_real)0 : x[kg + (t % 3 - 1) + ld * (t / 3 - 1)];
  *xk = u[4];
  return mg_row_sweep(q, rho, irho, u, (c1 != 0 && !prev_zero) ? prev[ko] : (sbp_real)0, jacobi, jacobi == 2 ? dinv[ko] : (sbp_real)0, c1, c2);
}

/* A later sweep of mg_smooth_pass at the work-item's node: x_{k+s-1} from the work-group's local copy t, x_{k+s-2} given; the
   coefficients are read again (from the cache), so that fewer registers stay live across the barriers. */
inline sbp_real mg_pass_stage(__local const sbp_real *t, const int lx, const int ly, const sbp_index kg, const sbp_index ko, const sbp_index ld,
                              __global const sbp_coef *restrict a, __global const sbp_coef *restrict b, __global const sbp_coef *restrict c,
                              __global const sbp_real *restrict rhs, const int io, __global const mg_outer *restrict rhs64, const sbp_real rho, const sbp_real irho,
                              const sbp_real xprev, const int jacobi, __global const sbp_real *restrict dinv, const sbp_real c1, const sbp_real c2)
{
  mg_row   q;
  sbp_real u[9];
  mg_row_load(&q, kg, ko, ld, a, b, c, rhs, io, rhs64);
  for (int v = 0; v < 9; v++) u[v] = t[(ly + v / 3 - 1) * MG_PASS_TX + lx + v % 3 - 1];
  return mg_row_sweep(&q, rho, irho, u, xprev, jacobi, jacobi == 2 ? dinv[ko] : (sbp_real)0, c1, c2);
}

/* Sweeps k+1..k+m (m = 2 or 3; (c1, c2) of sweep k+s at c[2s-2], c[2s-1]) over the box `core`, the interior box `in` shrunk by m-1
   nodes. A work-group of MG_PASS_TX x MG_PASS_TY work-items covers a tile of (MG_PASS_TX - 2(m-1)) x (MG_PASS_TY - 2(m-1)) nodes
   and its ring of m-1 nodes; sweep s runs on the work-items at least s-1 nodes inside the work-group whose node is in `in` (the
   first from global memory, the others from local memory). On the tile's core nodes it writes x_{k+m} (out[m-1]), x_{k+m-1} where
   write_prev (another pass follows), and every x_{k+s} on the core's outer layer, which the single sweeps over the rim of `core`
   read (src/mg/smoother.c). x, prev and the outputs are different buffers: x and prev are read around each tile. With io & 1 the
   right-hand side comes from rhs64 (its copy written on the core), with io & 2 x_{k+m} goes to out64. */
__kernel __attribute__((reqd_work_group_size(MG_PASS_TX, MG_PASS_TY, 1))) void
mg_smooth_pass(const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_coef *restrict a, __global const sbp_coef *restrict b,
               __global const sbp_coef *restrict c, __global const sbp_real *restrict x, __global const sbp_real *restrict rhs, const int jacobi,
               __global const sbp_real *restrict dinv, const int m, const sbp_real c1a, const sbp_real c2a, const sbp_real c1b, const sbp_real c2b, const sbp_real c1c,
               const sbp_real c2c, const int zero, const int prev_zero, const int write_prev, __global const sbp_real *restrict prev, __global sbp_real *restrict out1,
               __global sbp_real *restrict out2, __global sbp_real *restrict out3, const int4 gh, const int4 own, const int4 in, const int4 core, MG_IO_ARGS)
{
  __local sbp_real t[2][MG_PASS_TY * MG_PASS_TX];
  const int        lx = (int)get_local_id(0), ly = (int)get_local_id(1), r = m - 1;
  const int        i = core.s0 - r + (MG_PASS_TX - 2 * r) * (int)get_group_id(0) + lx, j = core.s1 - r + (MG_PASS_TY - 2 * r) * (int)get_group_id(1) + ly;
  const int        depth  = min(min(lx, MG_PASS_TX - 1 - lx), min(ly, MG_PASS_TY - 1 - ly)); /* nodes inside the work-group's edge */
  const int        inside = i >= in.s0 && i <= in.s2 && j >= in.s1 && j <= in.s3;
  const int        mine = depth >= r && i <= core.s2 && j <= core.s3, edge = i == core.s0 || i == core.s2 || j == core.s1 || j == core.s3;
  const sbp_real   irho   = 1 / rho;
  const sbp_index  ld = gh.s2, kg = (i - gh.s0) + ld * (sbp_index)(j - gh.s1), ko = (i - own.s0) + own.s2 * (sbp_index)(j - own.s1);
  sbp_real         x0 = 0, x1 = 0, x2 = 0, x3 = 0; /* x_k .. x_{k+m} at this work-item's node */

  (void)Nr;
  (void)Ns;
  (void)dirichlet;
  if (inside) {
    mg_row q;
    x1 = mg_pass_first(i, j, gh, own, rho, irho, a, b, c, x, prev, rhs, jacobi, dinv, c1a, c2a, zero, prev_zero, io, rhs64, &q, &x0);
    if ((io & 1) && mine) rhs_copy[ko] = q.f;
    t[0][ly * MG_PASS_TX + lx] = x1;
  }
  barrier(CLK_LOCAL_MEM_FENCE); /* m >= 2 */
  if (inside && depth >= 1) {
    x2 = mg_pass_stage(t[0], lx, ly, kg, ko, ld, a, b, c, rhs, io, rhs64, rho, irho, x0, jacobi, dinv, c1b, c2b);
    if (m == 3) t[1][ly * MG_PASS_TX + lx] = x2;
  }
  barrier(CLK_LOCAL_MEM_FENCE); /* m = 3 (and harmless for m = 2: no barrier in a branch) */
  if (m == 3 && inside && depth >= 2) x3 = mg_pass_stage(t[1], lx, ly, kg, ko, ld, a, b, c, rhs, io, rhs64, rho, irho, x1, jacobi, dinv, c1c, c2c);
  if (mine && m == 2) {
    if (edge || write_prev) out1[ko] = x1;
    mg_store(x2, out2, out64, io, ko);
  } else if (mine) {
    if (edge) out1[ko] = x1;
    if (edge || write_prev) out2[ko] = x2;
    mg_store(x3, out3, out64, io, ko);
  }
}
#endif
