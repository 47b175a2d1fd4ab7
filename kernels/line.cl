/* Line smoothing (docs/design.md "Line smoothers"): the blocks of M~ along the grid lines of one direction, each restricted to a
   rank's owned segment of its line (the principal submatrix of M~ on those nodes: symmetric positive definite), factored once as
   L D L^T, and the solve z = B^-1 r with B the block diagonal of those blocks. Built after kernels/sbp.cl (the program "sbp+line",
   src/mg/lines.c), whose point formula gives the blocks' entries: sbp_apply_point in its probe mode returns the entry of row (i,j)
   in column (i + pdi, j + pdj), so the blocks are the operator's own rows (the SAT terms and the cross terms' contributions along the
   line included) and no formula is written twice. The host path compiles this file as C after sbp.cl (src/mg/lines.c).

   Lines: dir 0 the r-lines (one per owned row j, its nodes i = xs..xs+xm-1), dir 1 the s-lines (one per owned column i). One
   work-item per line walks it: node t of line `line` is (xs + t, ys + line) or (xs + line, ys + t), at owned index k0 + t stride. A
   block's half-bandwidth is 2 for the second-order operator (the Dirichlet faces' SAT couples face row 0 with node 2 and row 2 with
   node 0 along the normal).

   Factors in the owned layout: l1 at node t holds L(t, t-1), l2 L(t, t-2) (zero but next to a Dirichlet face), dinv 1/D(t). The
   solve's forward substitution L y = r stores y in tmp (which may be r), the backward one L^T z = D^-1 y runs from the line's end,
   and the same pass makes the Chebyshev (or Jacobi) step out = x + c1 (x - prev) + c2 z, out possibly prev's buffer (each node is
   read and written by the one work-item of its line).

   On a GPU a line is too long a chain for one work-item (a 2049-node line took 2.6 ms on the H200, docs/performance.md): the line is
   cut into SBPMG_MG_LINE_CHUNKS chunks, one work-item each (mg_line_solve_chunks). Both substitutions are linear recurrences of order 2 with
   fixed coefficients, so the state a chunk hands on (its last two values) is P + G s, s the state it received, P its end state from a
   zero start and G the 2 x 2 product of its steps' matrices [-l1 -l2; 1 0] (H for the backward recurrence), made once from the
   factors (mg_line_maps). A work-group holds SBPMG_MG_LINE_GROUP lines: each chunk runs from zero to its P (pass A), one work-item per line
   chains the chunks' states in local memory (pass B), each chunk runs again from its true start and stores (pass C); then the same
   backward. A program holds the kernels of SBPMG_MG_LINE_KERNELS: 1 the solves and maps (in the level's precision), 2 the factorisation
   (fp64), 4 the joins of lines that ranks cut.

   Several ranks along the lines (docs/design.md "Line smoothers"): the blocks are the whole lines, factored in a pipeline across the
   ranks (each segment continues from the state D(t-1), D(t-2), L(t-1, t-2) its left neighbour ends with), so a segment's first nodes
   hold factors that couple them to the neighbour's last. A solve runs each segment from zero states (the kernels above: z_loc), then
   the ranks exchange the segments' end states and z = z_loc + W s_f + Z s_b, s_f the true forward state entering the segment and s_b
   the true backward one, W and Z the segment's responses to unit states (src/mg/lines_join.c). */
#ifdef __OPENCL_VERSION__
#  if !defined(SBPMG_MG_LINE_KERNELS)
#    error "SBPMG_MG_LINE_KERNELS must be defined (src/mg/lines.c: 1 the solve, 2 the factorisation, 4 the joins)"
#  endif
#  if !defined(SBPMG_MG_LINE_VEC) || !defined(SBPMG_MG_LINE_CHUNKS) || !defined(SBPMG_MG_LINE_GROUP) || !defined(SBPMG_MG_LINE_TILE) || \
      !defined(SBPMG_MG_LINE_BATCH)
#    error \
        "SBPMG_MG_LINE_VEC, SBPMG_MG_LINE_CHUNKS, SBPMG_MG_LINE_GROUP, SBPMG_MG_LINE_TILE and SBPMG_MG_LINE_BATCH must be defined (tuning table: mg_line_vec, mg_line_chunks, mg_line_group, mg_line_tile, mg_line_batch; src/mg/kernels.c)"
#  endif
#endif

/* Line `line` of direction dir over the owned block of xm x ym nodes: its length, the owned index of its first node, the stride. */
SBP_FN int mg_line_geometry(const int dir, const int xm, const int ym, const int line, long *k0, long *stride)
{
  *k0     = dir ? line : (long)line * xm;
  *stride = dir ? xm : 1;
  return dir ? ym : xm;
}

/* L D L^T of the block of line `line` from its entries A(t, t-q), q = 0, 1, 2 (the operator's rows by probe; coefficients on the
   ghosted patch gxs, gys, gxm; owned block xs, ys, xm, ym). Returns the natural index of the first node whose pivot is not positive
   (an operator that is not positive definite), or -1. */
SBP_FN long mg_line_factor_line(const int Nr, const int Ns, const sbp_real rho, const int dirichlet, SBP_GLOBAL const sbp_coef *a, SBP_GLOBAL const sbp_coef *b,
                                SBP_GLOBAL const sbp_coef *c, const int dir, const int gxs, const int gys, const int gxm, const int xs, const int ys,
                                const int xm, const int ym, const int line, SBP_GLOBAL sbp_real *l1, SBP_GLOBAL sbp_real *l2, SBP_GLOBAL sbp_real *dinv,
                                SBP_GLOBAL sbp_real *st)
{
  const int di = dir ? 0 : 1, dj = dir ? 1 : 0, g0 = dir ? ys : xs; /* g0: the segment's first node along the whole line */
  long      k0, stride, bad                        = -1;
  const int n  = mg_line_geometry(dir, xm, ym, line, &k0, &stride);
  sbp_real  d1 = 1, d2 = 1, lprev = 0; /* D(t-1), D(t-2), L(t-1, t-2): from the left neighbour's end where the line starts there */

  if (g0 > 0) {
    d1    = st[3 * (long)line];
    d2    = st[3 * (long)line + 1];
    lprev = st[3 * (long)line + 2];
  }
  for (int t = 0; t < n; t++) {
    const int      i = dir ? xs + line : xs + t, j = dir ? ys + t : ys + line, g = g0 + t;
    const long     k   = k0 + t * stride;
    const sbp_real a0  = sbp_apply_point(i, j, Nr, Ns, rho, dirichlet, 0, a, b, c, gxs, gys, gxm, 1, 0, 0);
    const sbp_real a1  = g >= 1 ? sbp_apply_point(i, j, Nr, Ns, rho, dirichlet, 0, a, b, c, gxs, gys, gxm, 1, -di, -dj) : 0;
    const sbp_real a2  = g >= 2 ? sbp_apply_point(i, j, Nr, Ns, rho, dirichlet, 0, a, b, c, gxs, gys, gxm, 1, -2 * di, -2 * dj) : 0;
    const sbp_real L2  = g >= 2 ? a2 / d2 : 0;
    const sbp_real L1  = g >= 1 ? (a1 - L2 * lprev * d2) / d1 : 0;
    const sbp_real piv = a0 - L1 * L1 * d1 - L2 * L2 * d2;
    if (!(piv > 0) && bad < 0) bad = i + (long)(Nr + 1) * j;
    l1[k]   = L1;
    l2[k]   = L2;
    dinv[k] = 1 / piv;
    d2      = d1;
    d1      = piv;
    lprev   = L1;
  }
  st[3 * (long)line]     = d1; /* the state the right neighbour's segment continues from */
  st[3 * (long)line + 1] = d2;
  st[3 * (long)line + 2] = lprev;
  return bad;
}

/* Lines cut by ranks: the end states of line `line`'s segment after the zero-state solve, ends[4 line ..] = (y(b-1), y(b-2)) of the
   forward substitution (y in tmp) and (z(a), z(a+1)) of z_loc (src/mg/lines_join.c chains them across the ranks). */
SBP_FN void mg_line_ends_line(const int dir, const int xm, const int ym, const int line, SBP_GLOBAL const sbp_real *tmp, SBP_GLOBAL const sbp_real *zloc,
                              SBP_GLOBAL sbp_real *ends)
{
  long      k0, stride;
  const int n              = mg_line_geometry(dir, xm, ym, line, &k0, &stride);
  ends[4 * (long)line]     = tmp[k0 + (n - 1) * stride];
  ends[4 * (long)line + 1] = n >= 2 ? tmp[k0 + (n - 2) * stride] : (sbp_real)0;
  ends[4 * (long)line + 2] = zloc[k0];
  ends[4 * (long)line + 3] = n >= 2 ? zloc[k0 + stride] : (sbp_real)0;
}

/* The join at owned node k (line `line`): z = z_loc + W s_f + Z s_b with s = join[4 line ..] = (s_f, s_b), then the step out = x +
   c1 (x - prev) + c2 z (zero: x = 0; prev_zero: prev = 0). */
SBP_FN void mg_line_join_point(const long k, const int line, SBP_GLOBAL const sbp_real *zloc, SBP_GLOBAL const sbp_real *w0, SBP_GLOBAL const sbp_real *w1,
                               SBP_GLOBAL const sbp_real *z0, SBP_GLOBAL const sbp_real *z1, SBP_GLOBAL const sbp_real *join, SBP_GLOBAL const sbp_real *x,
                               SBP_GLOBAL const sbp_real *prev, SBP_GLOBAL sbp_real *out, const sbp_real c1, const sbp_real c2, const int zero,
                               const int prev_zero)
{
  SBP_GLOBAL const sbp_real *s  = join + 4 * (long)line;
  const sbp_real             z  = zloc[k] + w0[k] * s[0] + w1[k] * s[1] + z0[k] * s[2] + z1[k] * s[3];
  const sbp_real             xk = zero ? (sbp_real)0 : x[k];
  sbp_real                   xn = xk + c2 * z;
  if (c1 != 0) xn += c1 * (xk - (prev_zero ? (sbp_real)0 : prev[k]));
  out[k] = xn;
}

/* out = x + c1 (x - prev) + c2 B^-1 r along the nl <= SBPMG_MG_LINE_VEC lines line0, line0 + 1, ... of direction dir, side by side (their
   recurrences are independent: on a CPU the s-lines' loads are then contiguous vectors, and the chains' latencies overlap): zero, x = 0
   (not read); prev_zero, prev = 0 (read only where c1 != 0 and not prev_zero). r is read once and y written to tmp (which may be r); out
   may be prev. */
SBP_FN void mg_line_solve_lines(const int dir, const int xm, const int ym, const int line0, const int nl, SBP_GLOBAL const sbp_real *r,
                                SBP_GLOBAL sbp_real *tmp, SBP_GLOBAL const sbp_real *l1, SBP_GLOBAL const sbp_real *l2, SBP_GLOBAL const sbp_real *dinv,
                                SBP_GLOBAL const sbp_real *x, SBP_GLOBAL const sbp_real *prev, SBP_GLOBAL sbp_real *out, const sbp_real c1, const sbp_real c2,
                                const int zero, const int prev_zero)
{
  long      k0, stride;
  const int n     = mg_line_geometry(dir, xm, ym, line0, &k0, &stride);
  const int lstep = dir ? 1 : xm;                                                                       /* from one line to the next */
  sbp_real  y1[SBPMG_MG_LINE_VEC], y2[SBPMG_MG_LINE_VEC], z1[SBPMG_MG_LINE_VEC], z2[SBPMG_MG_LINE_VEC]; /* y(t-1), y(t-2); z(t+1), z(t+2) */
  sbp_real  m1[SBPMG_MG_LINE_VEC], m2[SBPMG_MG_LINE_VEC], s2[SBPMG_MG_LINE_VEC]; /* at node t: L(t+1, t), L(t+2, t); L(t+1, t-1) for the next */

  for (int v = 0; v < SBPMG_MG_LINE_VEC; v++) y1[v] = y2[v] = z1[v] = z2[v] = m1[v] = m2[v] = s2[v] = 0;
  for (int t = 0; t < n; t++) /* L y = r */
    for (int v = 0; v < SBPMG_MG_LINE_VEC; v++)
      if (v < nl) {
        const long     k = k0 + t * stride + (long)v * lstep;
        const sbp_real y = r[k] - l1[k] * y1[v] - l2[k] * y2[v];
        tmp[k]           = y;
        y2[v]            = y1[v];
        y1[v]            = y;
      }
  for (int t = n - 1; t >= 0; t--) /* L^T z = D^-1 y, and the step */
    for (int v = 0; v < SBPMG_MG_LINE_VEC; v++)
      if (v < nl) {
        const long     k  = k0 + t * stride + (long)v * lstep;
        const sbp_real z  = dinv[k] * tmp[k] - m1[v] * z1[v] - m2[v] * z2[v];
        const sbp_real xk = zero ? (sbp_real)0 : x[k];
        sbp_real       xn = xk + c2 * z;
        if (c1 != 0) xn += c1 * (xk - (prev_zero ? (sbp_real)0 : prev[k]));
        out[k] = xn;
        z2[v]  = z1[v];
        z1[v]  = z;
        m2[v]  = s2[v];
        m1[v]  = l1[k];
        s2[v]  = l2[k];
      }
}

#ifdef __OPENCL_VERSION__
#  if SBPMG_MG_LINE_KERNELS & 2
/* The factor of every line of direction dir (one work-item each); the smallest natural index of a node with a pivot that is not
   positive into *bad. */
__kernel void mg_line_factor(const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_coef *a, __global const sbp_coef *b,
                             __global const sbp_coef *c, const int dir, const int4 gh, const int4 own, __global sbp_real *l1, __global sbp_real *l2,
                             __global sbp_real *dinv, __global sbp_real *st, __global int *bad)
{
  const int line = get_global_id(0);
  long      first;
  if (line >= (dir ? own.s2 : own.s3)) return;
  first = mg_line_factor_line(Nr, Ns, rho, dirichlet, a, b, c, dir, gh.s0, gh.s1, gh.s2, own.s0, own.s1, own.s2, own.s3, line, l1, l2, dinv, st);
  if (first >= 0) atomic_min(bad, (int)first);
}
#  endif

#  if SBPMG_MG_LINE_KERNELS & 1
/* Chunk c of SBPMG_MG_LINE_CHUNKS of a line of n nodes: its nodes [*a, *b) (empty where n < SBPMG_MG_LINE_CHUNKS). */
inline void mg_line_chunk(const int n, const int c, int *a, int *b)
{
  const int m = (n + SBPMG_MG_LINE_CHUNKS - 1) / SBPMG_MG_LINE_CHUNKS;
  *a          = min(c * m, n);
  *b          = min(*a + m, n);
}

/* The homogeneous maps of every chunk (one work-item each): G of the forward substitution and H of the backward one, each 2 x 2 row by
   row, at maps[8 (line SBPMG_MG_LINE_CHUNKS + c) ...]: G maps (y(a-1), y(a-2)) to (y(b-1), y(b-2)) with r = 0, H maps (z(b), z(b+1)) to
   (z(a), z(a+1)) with y = 0. */
__kernel void mg_line_maps(const int dir, const int xm, const int ym, __global const sbp_real *l1, __global const sbp_real *l2, __global sbp_real *maps)
{
  const int gid = get_global_id(0), line = gid / SBPMG_MG_LINE_CHUNKS, c = gid % SBPMG_MG_LINE_CHUNKS;
  long      k0, stride;
  int       n, a, b;
  sbp_real  g[2][2] = {{1, 0}, {0, 1}}, h[2][2] = {{1, 0}, {0, 1}}; /* columns: the responses to the unit states */

  if (line >= (dir ? xm : ym)) return;
  n = mg_line_geometry(dir, xm, ym, line, &k0, &stride);
  mg_line_chunk(n, c, &a, &b);
  for (int t = a; t < b; t++) {
    const long k = k0 + t * stride;
    for (int q = 0; q < 2; q++) {
      const sbp_real y = -l1[k] * g[0][q] - l2[k] * g[1][q];
      g[1][q]          = g[0][q];
      g[0][q]          = y;
    }
  }
  for (int t = b - 1; t >= a; t--) {
    const long     k  = k0 + t * stride;
    const sbp_real m1 = t + 1 < n ? l1[k + stride] : 0, m2 = t + 2 < n ? l2[k + 2 * stride] : 0;
    for (int q = 0; q < 2; q++) {
      const sbp_real z = -m1 * h[0][q] - m2 * h[1][q];
      h[1][q]          = h[0][q];
      h[0][q]          = z;
    }
  }
  for (int q = 0; q < 4; q++) {
    maps[8 * (long)gid + q]     = g[q / 2][q % 2];
    maps[8 * (long)gid + 4 + q] = h[q / 2][q % 2];
  }
}

/* Pass B: one work-item per line chains its chunks' end states P (st, in order: forward from chunk 0, backward from the last) through
   their maps into the state each chunk starts from, stored over P. */
inline void mg_line_chain(__local sbp_real *st, __global const sbp_real *maps, const long m0, const int backward)
{
  sbp_real s0 = 0, s1 = 0;
  for (int q = 0; q < SBPMG_MG_LINE_CHUNKS; q++) {
    const int                c  = backward ? SBPMG_MG_LINE_CHUNKS - 1 - q : q;
    __global const sbp_real *G  = maps + m0 + 8 * c + (backward ? 4 : 0);
    const sbp_real           e0 = st[2 * c] + G[0] * s0 + G[1] * s1, e1 = st[2 * c + 1] + G[2] * s0 + G[3] * s1;
    st[2 * c]     = s0;
    st[2 * c + 1] = s1;
    s0            = e0;
    s1            = e1;
  }
}

/* A chunk's forward substitution over its nodes [a, b) from the state (s0, s1) (y(t-1), y(t-2)), y stored into tmp when store is set
   (tmp may be r: each node's r is read before its y is stored). SBPMG_MG_LINE_BATCH nodes at a time: their loads first, then their
   steps in order, so a work-item has that many loads in flight (the chain of dependent steps is the arithmetic's alone); the
   arithmetic is the one-node loop's. */
inline void mg_chunk_forward(__global const sbp_real *r, __global sbp_real *tmp, __global const sbp_real *l1, __global const sbp_real *l2, const long k0,
                             const long stride, const int a, const int b, sbp_real *s0, sbp_real *s1, const int store)
{
  int t = a;
  for (; t + SBPMG_MG_LINE_BATCH <= b; t += SBPMG_MG_LINE_BATCH) {
    sbp_real rv[SBPMG_MG_LINE_BATCH], p1[SBPMG_MG_LINE_BATCH], p2[SBPMG_MG_LINE_BATCH];
    for (int q = 0; q < SBPMG_MG_LINE_BATCH; q++) {
      const long k = k0 + (t + q) * stride;
      rv[q]        = r[k];
      p1[q]        = l1[k];
      p2[q]        = l2[k];
    }
    for (int q = 0; q < SBPMG_MG_LINE_BATCH; q++) {
      rv[q] = rv[q] - p1[q] * *s0 - p2[q] * *s1;
      *s1   = *s0;
      *s0   = rv[q];
    }
    if (store)
      for (int q = 0; q < SBPMG_MG_LINE_BATCH; q++) tmp[k0 + (t + q) * stride] = rv[q];
  }
  for (; t < b; t++) {
    const long     k = k0 + t * stride;
    const sbp_real y = r[k] - l1[k] * *s0 - l2[k] * *s1;
    if (store) tmp[k] = y;
    *s1 = *s0;
    *s0 = y;
  }
}

/* A chunk's backward substitution L^T z = D^-1 y over its nodes [a, b) from the end down, from the state (s0, s1) (z(t+1), z(t+2));
   with step set, out = x + c1 (x - prev) + c2 z at each node (out may be prev's or tmp's buffer: each node's values are read before
   its out is stored). Batched as mg_chunk_forward. */
inline void mg_chunk_backward(__global const sbp_real *tmp, __global const sbp_real *l1, __global const sbp_real *l2, __global const sbp_real *dinv,
                              __global const sbp_real *x, __global const sbp_real *prev, __global sbp_real *out, const sbp_real c1, const sbp_real c2,
                              const int zero, const int prev_zero, const long k0, const long stride, const int n, const int a, const int b, sbp_real *s0,
                              sbp_real *s1, const int step)
{
  int t = b - 1;
  for (; t - SBPMG_MG_LINE_BATCH + 1 >= a; t -= SBPMG_MG_LINE_BATCH) {
    sbp_real dv[SBPMG_MG_LINE_BATCH], yv[SBPMG_MG_LINE_BATCH], p1[SBPMG_MG_LINE_BATCH], p2[SBPMG_MG_LINE_BATCH], xv[SBPMG_MG_LINE_BATCH],
        pv[SBPMG_MG_LINE_BATCH];
    for (int q = 0; q < SBPMG_MG_LINE_BATCH; q++) {
      const int  u = t - q;
      const long k = k0 + u * stride;
      dv[q]        = dinv[k];
      yv[q]        = tmp[k];
      p1[q]        = u + 1 < n ? l1[k + stride] : 0;
      p2[q]        = u + 2 < n ? l2[k + 2 * stride] : 0;
      xv[q]        = step && !zero ? x[k] : (sbp_real)0;
      pv[q]        = step && c1 != 0 && !prev_zero ? prev[k] : (sbp_real)0;
    }
    for (int q = 0; q < SBPMG_MG_LINE_BATCH; q++) {
      const sbp_real z = dv[q] * yv[q] - p1[q] * *s0 - p2[q] * *s1;
      *s1              = *s0;
      *s0              = z;
      yv[q]            = z;
    }
    if (step)
      for (int q = 0; q < SBPMG_MG_LINE_BATCH; q++) {
        sbp_real xn = xv[q] + c2 * yv[q];
        if (c1 != 0) xn += c1 * (xv[q] - pv[q]);
        out[k0 + (t - q) * stride] = xn;
      }
  }
  for (; t >= a; t--) {
    const long     k  = k0 + t * stride;
    const sbp_real m1 = t + 1 < n ? l1[k + stride] : 0, m2 = t + 2 < n ? l2[k + 2 * stride] : 0, z = dinv[k] * tmp[k] - m1 * *s0 - m2 * *s1;
    if (step) {
      const sbp_real xk = zero ? (sbp_real)0 : x[k];
      sbp_real       xn = xk + c2 * z;
      if (c1 != 0) xn += c1 * (xk - (prev_zero ? (sbp_real)0 : prev[k]));
      out[k] = xn;
    }
    *s1 = *s0;
    *s0 = z;
  }
}

/* The solve and step of SBPMG_MG_LINE_GROUP lines of direction dir per work-group of SBPMG_MG_LINE_GROUP x SBPMG_MG_LINE_CHUNKS work-items, a chunk
   each: work-item (line l, chunk c) is local id l + SBPMG_MG_LINE_GROUP c along s-lines (neighbouring lines neighbouring in memory), c +
   SBPMG_MG_LINE_CHUNKS l along r-lines. The same arithmetic as mg_line_solve_lines but for the order of the sums across chunks. */
__kernel void mg_line_solve_chunks(const int dir, const int xm, const int ym, __global const sbp_real *r, __global sbp_real *tmp, __global const sbp_real *l1,
                                   __global const sbp_real *l2, __global const sbp_real *dinv, __global const sbp_real *maps, __global const sbp_real *x,
                                   __global const sbp_real *prev, __global sbp_real *out, const sbp_real c1, const sbp_real c2, const int zero,
                                   const int prev_zero)
{
  __local sbp_real st[SBPMG_MG_LINE_GROUP][2 * SBPMG_MG_LINE_CHUNKS];
  const int        lid = get_local_id(0), l = dir ? lid % SBPMG_MG_LINE_GROUP : lid / SBPMG_MG_LINE_CHUNKS,
            c    = dir ? lid / SBPMG_MG_LINE_GROUP : lid % SBPMG_MG_LINE_CHUNKS;
  const int line = (int)get_group_id(0) * SBPMG_MG_LINE_GROUP + l, valid = line < (dir ? xm : ym);
  long      k0 = 0, stride = 1;
  int       n = 0, a = 0, b = 0;
  sbp_real  s0 = 0, s1 = 0;

  if (valid) {
    n = mg_line_geometry(dir, xm, ym, line, &k0, &stride);
    mg_line_chunk(n, c, &a, &b);
  }
  mg_chunk_forward(r, tmp, l1, l2, k0, stride, a, b, &s0, &s1, 0); /* A: L y = r from a zero start */
  st[l][2 * c]     = s0;
  st[l][2 * c + 1] = s1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (valid && c == 0) mg_line_chain(st[l], maps, 8 * (long)line * SBPMG_MG_LINE_CHUNKS, 0); /* B */
  barrier(CLK_LOCAL_MEM_FENCE);
  s0 = st[l][2 * c];
  s1 = st[l][2 * c + 1];
  mg_chunk_forward(r, tmp, l1, l2, k0, stride, a, b, &s0, &s1, 1); /* C: again from the true start, y stored */
  s0 = s1 = 0;
  mg_chunk_backward(tmp, l1, l2, dinv, x, prev, out, c1, c2, zero, prev_zero, k0, stride, n, a, b, &s0, &s1, 0); /* A': L^T z = D^-1 y from zero */
  barrier(CLK_LOCAL_MEM_FENCE);
  st[l][2 * c]     = s0;
  st[l][2 * c + 1] = s1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (valid && c == 0) mg_line_chain(st[l], maps, 8 * (long)line * SBPMG_MG_LINE_CHUNKS, 1); /* B' */
  barrier(CLK_LOCAL_MEM_FENCE);
  s0 = st[l][2 * c];
  s1 = st[l][2 * c + 1];
  mg_chunk_backward(tmp, l1, l2, dinv, x, prev, out, c1, c2, zero, prev_zero, k0, stride, n, a, b, &s0, &s1, 1); /* C': again, and the step */
}

#    if SBPMG_MG_LINE_TILE > 0
/* The r-lines' chunked solve with the chunks' nodes staged through local memory (mg_line_solve_tiles): a line's nodes are contiguous
   in memory, so the chunks' work-items, each walking its own run of nodes, would load from SBPMG_MG_LINE_CHUNKS places at once. A
   tile holds nodes t0 .. t0 + SBPMG_MG_LINE_TILE - 1 of every chunk, row c for chunk c, padded by one so that the work-items' walks
   along their rows hit distinct banks; the line's work-items load a tile run by run (consecutive work-items, consecutive nodes) and
   store the results the same way. */
#      define MG_TILE_PITCH (SBPMG_MG_LINE_TILE + 1)
#      define MG_TILE_SIZE  (SBPMG_MG_LINE_CHUNKS * MG_TILE_PITCH)

/* tile[c][tt] = v[k0 + c m + t0 + tt + s] for the chunk's own nodes (t0 + tt < m, node < n), the node shifted by s along the line
   (zero past its end) */
inline void mg_tile_load(__local sbp_real *tile, __global const sbp_real *v, const long k0, const int n, const int m, const int t0, const int s)
{
  for (int q = get_local_id(0); q < SBPMG_MG_LINE_CHUNKS * SBPMG_MG_LINE_TILE; q += SBPMG_MG_LINE_CHUNKS) {
    const int c = q / SBPMG_MG_LINE_TILE, tt = q % SBPMG_MG_LINE_TILE, node = c * m + t0 + tt;
    tile[c * MG_TILE_PITCH + tt] = t0 + tt < m && node < n && node + s < n ? v[k0 + node + s] : (sbp_real)0;
  }
}

/* v at the tile's nodes (the chunks' own) from tile */
inline void mg_tile_store(__local const sbp_real *tile, __global sbp_real *v, const long k0, const int n, const int m, const int t0)
{
  for (int q = get_local_id(0); q < SBPMG_MG_LINE_CHUNKS * SBPMG_MG_LINE_TILE; q += SBPMG_MG_LINE_CHUNKS) {
    const int c = q / SBPMG_MG_LINE_TILE, tt = q % SBPMG_MG_LINE_TILE, node = c * m + t0 + tt;
    if (t0 + tt < m && node < n) v[k0 + node] = tile[c * MG_TILE_PITCH + tt];
  }
}

/* The forward substitution over line `line`'s chunks tile by tile, each chunk from its state (s0, s1); store: y into tmp. */
inline void mg_tiles_forward(__local sbp_real (*tl)[MG_TILE_SIZE], __global const sbp_real *r, __global sbp_real *tmp, __global const sbp_real *l1,
                             __global const sbp_real *l2, const long k0, const int n, const int m, const int len, sbp_real *s0, sbp_real *s1, const int store)
{
  const int c = get_local_id(0);
  for (int t0 = 0; t0 < m; t0 += SBPMG_MG_LINE_TILE) {
    barrier(CLK_LOCAL_MEM_FENCE); /* the last tile's walks and stores are done */
    mg_tile_load(tl[0], r, k0, n, m, t0, 0);
    mg_tile_load(tl[1], l1, k0, n, m, t0, 0);
    mg_tile_load(tl[2], l2, k0, n, m, t0, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int tt = 0; tt < SBPMG_MG_LINE_TILE && t0 + tt < len; tt++) {
      const int      o = c * MG_TILE_PITCH + tt;
      const sbp_real y = tl[0][o] - tl[1][o] * *s0 - tl[2][o] * *s1;
      tl[0][o]         = y;
      *s1              = *s0;
      *s0              = y;
    }
    if (store) {
      barrier(CLK_LOCAL_MEM_FENCE);
      mg_tile_store(tl[0], tmp, k0, n, m, t0);
    }
  }
}

/* The backward substitution L^T z = D^-1 y (y in tmp) over the chunks tile by tile from the last, each chunk from its state (s0, s1);
   step: out = x + c1 (x - prev) + c2 z stored. */
inline void mg_tiles_backward(__local sbp_real (*tl)[MG_TILE_SIZE], __global const sbp_real *tmp, __global const sbp_real *l1, __global const sbp_real *l2,
                              __global const sbp_real *dinv, __global const sbp_real *x, __global const sbp_real *prev, __global sbp_real *out,
                              const sbp_real c1, const sbp_real c2, const int zero, const int prev_zero, const long k0, const int n, const int m, const int len,
                              sbp_real *s0, sbp_real *s1, const int step)
{
  const int c = get_local_id(0), readx = step && !zero, readprev = step && c1 != 0 && !prev_zero;
  for (int t0 = (m - 1) / SBPMG_MG_LINE_TILE * SBPMG_MG_LINE_TILE; t0 >= 0; t0 -= SBPMG_MG_LINE_TILE) {
    barrier(CLK_LOCAL_MEM_FENCE);
    mg_tile_load(tl[0], tmp, k0, n, m, t0, 0);
    mg_tile_load(tl[1], l1, k0, n, m, t0, 1); /* L(t+1, t) */
    mg_tile_load(tl[2], l2, k0, n, m, t0, 2); /* L(t+2, t) */
    mg_tile_load(tl[3], dinv, k0, n, m, t0, 0);
    if (readx) mg_tile_load(tl[4], x, k0, n, m, t0, 0);
    if (readprev) mg_tile_load(tl[5], prev, k0, n, m, t0, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int tt = min(SBPMG_MG_LINE_TILE, len - t0) - 1; tt >= 0; tt--) {
      const int      o = c * MG_TILE_PITCH + tt;
      const sbp_real z = tl[3][o] * tl[0][o] - tl[1][o] * *s0 - tl[2][o] * *s1;
      if (step) {
        const sbp_real xk = readx ? tl[4][o] : (sbp_real)0;
        sbp_real       xn = xk + c2 * z;
        if (c1 != 0) xn += c1 * (xk - (readprev ? tl[5][o] : (sbp_real)0));
        tl[0][o] = xn;
      }
      *s1 = *s0;
      *s0 = z;
    }
    if (step) {
      barrier(CLK_LOCAL_MEM_FENCE);
      mg_tile_store(tl[0], out, k0, n, m, t0);
    }
  }
}

/* The solve and step of the r-lines, one line per work-group of SBPMG_MG_LINE_CHUNKS work-items (a chunk each), the chunks' nodes
   through local memory a tile at a time: the passes of mg_line_solve_chunks (A, B, C; A', B', C') with the same arithmetic. */
__kernel void mg_line_solve_tiles(const int xm, const int ym, __global const sbp_real *r, __global sbp_real *tmp, __global const sbp_real *l1,
                                  __global const sbp_real *l2, __global const sbp_real *dinv, __global const sbp_real *maps, __global const sbp_real *x,
                                  __global const sbp_real *prev, __global sbp_real *out, const sbp_real c1, const sbp_real c2, const int zero,
                                  const int prev_zero)
{
  __local sbp_real tl[6][MG_TILE_SIZE]; /* tmp (r; y; out), l1, l2, dinv, x, prev */
  __local sbp_real st[2 * SBPMG_MG_LINE_CHUNKS];
  const int        c = get_local_id(0), line = get_group_id(0);
  long             k0, stride;
  const int        n = mg_line_geometry(0, xm, ym, line, &k0, &stride), m = (n + SBPMG_MG_LINE_CHUNKS - 1) / SBPMG_MG_LINE_CHUNKS;
  int              a, b, len;
  sbp_real         s0 = 0, s1 = 0;

  mg_line_chunk(n, c, &a, &b);
  len = b - a;
  mg_tiles_forward(tl, r, tmp, l1, l2, k0, n, m, len, &s0, &s1, 0); /* A */
  st[2 * c]     = s0;
  st[2 * c + 1] = s1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (c == 0) mg_line_chain(st, maps, 8 * (long)line * SBPMG_MG_LINE_CHUNKS, 0); /* B */
  barrier(CLK_LOCAL_MEM_FENCE);
  s0 = st[2 * c];
  s1 = st[2 * c + 1];
  mg_tiles_forward(tl, r, tmp, l1, l2, k0, n, m, len, &s0, &s1, 1); /* C */
  s0 = s1 = 0;
  mg_tiles_backward(tl, tmp, l1, l2, dinv, x, prev, out, c1, c2, zero, prev_zero, k0, n, m, len, &s0, &s1, 0); /* A' */
  barrier(CLK_LOCAL_MEM_FENCE);
  st[2 * c]     = s0;
  st[2 * c + 1] = s1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (c == 0) mg_line_chain(st, maps, 8 * (long)line * SBPMG_MG_LINE_CHUNKS, 1); /* B' */
  barrier(CLK_LOCAL_MEM_FENCE);
  s0 = st[2 * c];
  s1 = st[2 * c + 1];
  mg_tiles_backward(tl, tmp, l1, l2, dinv, x, prev, out, c1, c2, zero, prev_zero, k0, n, m, len, &s0, &s1, 1); /* C' */
}
#    endif

/* The solve and step of every line of direction dir, SBPMG_MG_LINE_VEC lines per work-item, each line whole (SBPMG_MG_LINE_CHUNKS 1: CPUs). */
__kernel void mg_line_solve(const int dir, const int xm, const int ym, __global const sbp_real *r, __global sbp_real *tmp, __global const sbp_real *l1,
                            __global const sbp_real *l2, __global const sbp_real *dinv, __global const sbp_real *x, __global const sbp_real *prev,
                            __global sbp_real *out, const sbp_real c1, const sbp_real c2, const int zero, const int prev_zero)
{
  const int line0 = SBPMG_MG_LINE_VEC * (int)get_global_id(0), nlines = dir ? xm : ym;
  if (line0 >= nlines) return;
  mg_line_solve_lines(dir, xm, ym, line0, min(SBPMG_MG_LINE_VEC, nlines - line0), r, tmp, l1, l2, dinv, x, prev, out, c1, c2, zero, prev_zero);
}
#  endif

#  if SBPMG_MG_LINE_KERNELS & 4
/* One work-item per line: its end states (mg_line_ends_line). */
__kernel void mg_line_ends(const int dir, const int xm, const int ym, __global const sbp_real *tmp, __global const sbp_real *zloc, __global sbp_real *ends)
{
  const int line = get_global_id(0);
  if (line < (dir ? xm : ym)) mg_line_ends_line(dir, xm, ym, line, tmp, zloc, ends);
}

/* One work-item per owned node: the join and the step (mg_line_join_point). */
__kernel void mg_line_join(const int dir, const int xm, const int ym, __global const sbp_real *zloc, __global const sbp_real *w0, __global const sbp_real *w1,
                           __global const sbp_real *z0, __global const sbp_real *z1, __global const sbp_real *join, __global const sbp_real *x,
                           __global const sbp_real *prev, __global sbp_real *out, const sbp_real c1, const sbp_real c2, const int zero, const int prev_zero)
{
  const long k = get_global_id(0);
  if (k >= (long)xm * ym) return;
  mg_line_join_point(k, dir ? (int)(k % xm) : (int)(k / xm), zloc, w0, w1, z0, z1, join, x, prev, out, c1, c2, zero, prev_zero);
}
#  endif
#endif
