/* The SBP-SAT operator M~ of order p = 4 and 6 (spec-sbp-sat-highorder.md sections 3-4) in the gather form of 3.3 and 3.4: one
   work-item per output node (i,j) sums every term of its row, so there are no races and no atomics:
     - A_rr and A_ss: row i (j) of the order-p M(c) of 1.5 along the node's r-line (s-line), the end blocks and the interior band;
     - A_rs and A_sr: (Qr^T W)_i with W(i') = b(i',j) (Qs u(i',.))_j, and the same with r and s swapped, Q the order-p H D1 of 1.3
       with its closures at both ends;
     - the SAT rows of each Dirichlet face (3.4): the face row and the nBS - 1 lines next to it; Neumann faces add nothing.
   The coefficients come from the packed table of kernels/sbp_table.cl (src/sbp/ordertable.c), which this file only reads.

   The diagonal (3.6) is the same formula in probe mode: u is the indicator of the centre node and is not read. The norms H~, H~^-1,
   JH, (JH)^-1 (3.1) weigh each node by the order-p weights of 1.2.

   This file is compiled as C by the host path (src/sbp/wide.c includes it after kernels/sbp_table.cl), so the point formula exists
   once. The device program is "sbp_table+sbp+sbp_face+sbp_wide": kernels/sbp.cl (built with SBPMG_SBP_KERNELS=0, none of its kernels)
   gives the region launches (sbp_region_node, SBP_PATCH_NODE, SBP_INNER_FOR) that src/sbp/kernels.c drives, kernels/sbp_face.cl the
   norm weights and Q = H D1 along a line (shared with the right-hand side's and the traction's kernels). */
#ifndef SBPMG_SBP_FACE_CL
#  error "kernels/sbp_wide.cl needs kernels/sbp_table.cl and kernels/sbp_face.cl before it (the program sbp_table+sbp+sbp_face+sbp_wide, src/sbp/wide.c)"
#endif

#ifdef __OPENCL_VERSION__
#  if !defined(SBPMG_HAVE_FP64)
#    error "kernels/sbp_wide.cl needs fp64 (cl_khr_fp64): the operator of order 4 and 6 runs in double precision"
#  endif
#  if !defined(SBP_PATCH_NODE)
#    error "kernels/sbp_wide.cl needs kernels/sbp.cl before it (its region launches; the program sbp_table+sbp+sbp_wide)"
#  endif
#  if !defined(SBPMG_WIDE_ORDER)
#    error "SBPMG_WIDE_ORDER must be defined (src/sbp/wide.c: the problem's order, 4 or 6, for the interior fast path)"
#  endif
#  if SBPMG_WIDE_ORDER != 4 && SBPMG_WIDE_ORDER != 6
#    error "SBPMG_WIDE_ORDER must be 4 or 6"
#  endif
typedef double wide_real;
#  define WIDE_FN        inline
#  define WIDE_GLOBAL    __global
#  define WIDE_TABLE     __global
#  define WIDE_MIN(x, y) min(x, y)
#  define WIDE_MAX(x, y) max(x, y)
#else
typedef PetscReal wide_real;
#  define WIDE_FN static inline
#  define WIDE_GLOBAL
#  define WIDE_TABLE
#  define WIDE_MIN(x, y) ((x) < (y) ? (x) : (y))
#  define WIDE_MAX(x, y) ((x) > (y) ? (x) : (y))
#endif

/* The table's integers (spec 1.1 sizes, 3.2 l). */
#define WIDE_INT(T, off) ((int)(T)[off])

/* u at position k of a line (index base + k stride of the ghosted patch); in probe mode the indicator of position pk, u not read. */
#define WIDE_LU(k) (probe ? ((k) == pk ? (wide_real)1 : (wide_real)0) : u[base + (long)(k)*stride])

/* ---------------------------------------------------------------- M(c) along a line (spec 1.5) */

/* Entry (i, j) of h M(c) on a line of N intervals, c at base + k stride: the left block, the right block (mirrored, c read from the
   other end), the interior band; 0 outside the three rules (nothing read). */
WIDE_FN wide_real wide_m_entry(WIDE_TABLE const wide_real *T, const int N, const int i, const int j, WIDE_GLOBAL const wide_real *c, const long base,
                               const long stride)
{
  const int nM = WIDE_INT(T, SBP_T_NM), q = WIDE_INT(T, SBP_T_QH), nC = nM + q, lo = WIDE_MIN(i, j), hi = WIDE_MAX(i, j);
  wide_real v = 0;

  if (hi <= nM - 1) { /* rule 1: the left block */
    WIDE_TABLE const wide_real *m = T + SBP_T_M + (9 * lo + hi) * 12;
    for (int k = 0; k < nC; k++) v += m[k] * c[base + (long)k * stride];
  } else if (lo >= N - nM + 1) { /* rule 2: the right block */
    WIDE_TABLE const wide_real *m = T + SBP_T_M + (9 * (N - hi) + (N - lo)) * 12;
    for (int k = 0; k < nC; k++) v += m[k] * c[base + (long)(N - k) * stride];
  } else if (hi - lo <= q) { /* rule 3: the interior band, m_{a,a+d} = sum_{o=d-q}^{q} mu_{d,o} c_{a+o} */
    const int                   d  = hi - lo;
    WIDE_TABLE const wide_real *mu = T + SBP_T_MU + 7 * d;
    for (int o = d - q; o <= q; o++) v += mu[o - d + q] * c[base + (long)(lo + o) * stride];
  }
  return v;
}

/* The columns of row i of M(c) (3.5): the band i-q..i+q, the whole end block (and its coupling to the band) in the first and last nM rows. */
WIDE_FN void wide_m_columns(WIDE_TABLE const wide_real *T, const int N, const int i, int *lo, int *hi)
{
  const int nM = WIDE_INT(T, SBP_T_NM), q = WIDE_INT(T, SBP_T_QH);
  *lo = i - q;
  *hi = i + q;
  if (i < nM) {
    *lo = 0;
    *hi = WIDE_MAX(*hi, nM - 1);
  }
  if (i > N - nM) {
    *hi = N;
    *lo = WIDE_MIN(*lo, N - nM + 1);
  }
  *lo = WIDE_MAX(*lo, 0);
  *hi = WIDE_MIN(*hi, N);
}

/* sum_j m_ij u_j: row i of h M(c) applied to u along a line (c and u at base + k stride; probe: u the indicator of position pk); lane of
   nl: the columns lo + lane, lo + lane + nl, ... only (the share of one of nl work-items summing the row together). */
WIDE_FN wide_real wide_m_row(WIDE_TABLE const wide_real *T, const int N, const int i, WIDE_GLOBAL const wide_real *c, WIDE_GLOBAL const wide_real *u,
                             const long base, const long stride, const int probe, const int pk, const int lane, const int nl)
{
  int       lo, hi;
  wide_real y = 0;

  wide_m_columns(T, N, i, &lo, &hi);
  for (int j = lo + lane; j <= hi; j += nl) {
    const wide_real m = wide_m_entry(T, N, i, j, c, base, stride);
    if (m != 0) y += m * WIDE_LU(j);
  }
  return y;
}

/* ---------------------------------------------------------------- Q = H D1 along a line (spec 1.3) */

/* (Q u)_i along a line (u at base + k stride; probe: the indicator of position pk). */
WIDE_FN wide_real wide_q_row(WIDE_TABLE const wide_real *T, const int N, const int i, WIDE_GLOBAL const wide_real *u, const long base, const long stride,
                             const int probe, const int pk)
{
  int       lo, hi;
  wide_real y = 0;

  sbp_face_q_cols(T, N, i, &lo, &hi);
  for (int j = lo; j <= hi; j++) {
    const wide_real qv = sbp_face_q(T, N, i, j);
    if (qv != 0) y += qv * WIDE_LU(j);
  }
  return y;
}

/* (Q^T Psi)_i along a line with Psi(k) = b(k) u(k) (b and u at base + k stride; probe: u the indicator of position pk): the
   tangential part of -G_f^T L_f (3.4). */
WIDE_FN wide_real wide_qt_row(WIDE_TABLE const wide_real *T, const int N, const int i, WIDE_GLOBAL const wide_real *b, WIDE_GLOBAL const wide_real *u,
                              const long base, const long stride, const int probe, const int pk)
{
  int       lo, hi;
  wide_real y = 0;

  sbp_face_qt_rows(T, N, i, &lo, &hi);
  for (int k = lo; k <= hi; k++) {
    const wide_real qv = sbp_face_q(T, N, k, i);
    if (qv != 0) y += qv * b[base + (long)k * stride] * WIDE_LU(k);
  }
  return y;
}

/* A cross term at node (i along direction 1, j along direction 2), 3.3: (Q1^T W)_i with W(k) = b(k,j) (Q2 u(k,.))_j, node (k,m) at
   index o + k s1 + m s2 (o: node (0,0)). A_rs with direction 1 = r; A_sr with direction 1 = s. Probe: u the indicator of (i,j). lane of
   nl: the lines k = lo + lane, lo + lane + nl, ... only. */
WIDE_FN wide_real wide_cross(WIDE_TABLE const wide_real *T, const int N1, const int i, const int N2, const int j, WIDE_GLOBAL const wide_real *b,
                             WIDE_GLOBAL const wide_real *u, const long o, const long s1, const long s2, const int probe, const int lane, const int nl)
{
  int       lo, hi;
  wide_real y = 0;

  sbp_face_qt_rows(T, N1, i, &lo, &hi);
  for (int k = lo + lane; k <= hi; k += nl) {
    const wide_real qki = sbp_face_q(T, N1, k, i);
    if (qki != 0) y += qki * b[o + k * s1 + j * s2] * wide_q_row(T, N2, j, u, o + k * s1, s2, probe, k == i ? j : -1); /* probe: the centre's line */
  }
  return y;
}

/* ---------------------------------------------------------------- the Dirichlet SAT (spec 3.4) */

/* The SAT of one Dirichlet face at row (n, t) in the face's frame: n the normal index (0..N), t the tangential one (0..Nt), node (n,t)
   at index o + n sn + t st; side 0 the face n = 0 (faces 1, 3), side 1 n = N (faces 2, 4). cn: the normal coefficient (a on faces
   1, 2; c on faces 3, 4); dscale: rho w^s_t (faces 1, 2) or rho^-1 w^r_t (faces 3, 4), so that delta = dscale cn(face node). Rows
   other than the face row and the nBS - 1 lines next to it get nothing. Probe: u the indicator of (n, t). */
WIDE_FN wide_real wide_sat(WIDE_TABLE const wide_real *T, const int side, const int n, const int t, const int N, const int Nt, const wide_real dscale,
                           WIDE_GLOBAL const wide_real *cn, WIDE_GLOBAL const wide_real *b, WIDE_GLOBAL const wide_real *u, const long o, const long sn,
                           const long st, const int probe)
{
  const int                   nBS = WIDE_INT(T, SBP_T_NBS), n0 = side ? N : 0, k = side ? N - n : n; /* row n is the k-th line inward */
  const long                  f     = o + n0 * sn + t * st;                                          /* the face node of column t */
  const wide_real             delta = dscale * cn[f];
  WIDE_TABLE const wide_real *BS    = T + SBP_T_BS;

  if (k >= nBS) return 0;
  {
    /* u along the normal line of column t (position = normal index), and along the face (position = tangential index) */
    const long      base = o + t * st, stride = sn;
    const int       pk = n; /* probe: the centre (n, t) lies on this normal line at n */
    const wide_real g  = WIDE_LU(n0);
    if (k > 0) return -delta * BS[k] * g; /* -G_f^T L_f, normal part, inner rows */
    {
      const int       l     = WIDE_INT(T, SBP_T_L);
      const wide_real sigma = side ? (wide_real)-1 : (wide_real)1, theta = T[SBP_T_THETA], alpha = T[SBP_T_ALPHA];
      wide_real       psi = cn[f], normal = 0, tangential;
      for (int m = 1; m < l; m++) psi = fmin(psi, cn[base + (long)(side ? N - m : m) * stride]); /* 3.2: the minimum over l lines */
      for (int m = 0; m < nBS; m++) normal += BS[m] * WIDE_LU(side ? N - m : m);
      /* -L_f^T G_f and -G_f^T L_f, tangential parts: b (Qt u(n0,.))_t + (Qt^T Psi)_t along the face */
      tangential = b[f] * wide_q_row(T, Nt, t, u, o + n0 * sn, st, probe, t) + wide_qt_row(T, Nt, t, b, u, o + n0 * sn, st, probe, t);
      return -delta * normal + sigma * tangential - delta * BS[0] * g + delta * (2 / theta + cn[f] / (alpha * psi)) * g;
    }
  }
}

/* ---------------------------------------------------------------- the point formula */

/* (M~ u)(i,j), the arrays indexed (i - ox) + ld (j - oy) (a rank's ghosted patch; on one rank's device path the whole grid). probe:
   the diagonal entry (u is the indicator of (i,j) and is not read). lane of nl: the share of one of nl work-items that sum the row
   together (the M(c) rows' columns and the cross terms' lines dealt out in turn, the Dirichlet faces' SATs one a lane); the shares
   add up to the row (lane 0 of 1: the whole). */
WIDE_FN wide_real wide_apply_point_lane(WIDE_TABLE const wide_real *T, const int i, const int j, const int Nr, const int Ns, const wide_real rho,
                                        const int dirichlet, WIDE_GLOBAL const wide_real *u, WIDE_GLOBAL const wide_real *a, WIDE_GLOBAL const wide_real *b,
                                        WIDE_GLOBAL const wide_real *c, const long ox, const long oy, const long ld, const int probe, const int lane, const int nl)
{
  const long      o  = -ox - ld * oy; /* node (0,0) */
  const wide_real wr = sbp_face_weight(T, Nr, i), ws = sbp_face_weight(T, Ns, j), irho = 1 / rho;
  wide_real       y;

  /* A_rr = rho w^s_j mr[a(.,j)] u(.,j) and A_ss = rho^-1 w^r_i ms[c(i,.)] u(i,.) (3.1) */
  y = rho * ws * wide_m_row(T, Nr, i, a, u, o + ld * j, 1, probe, i, lane, nl) + irho * wr * wide_m_row(T, Ns, j, c, u, o + i, ld, probe, j, lane, nl);
  /* A_rs and A_sr (3.3) */
  y += wide_cross(T, Nr, i, Ns, j, b, u, o, 1, ld, probe, lane, nl) + wide_cross(T, Ns, j, Nr, i, b, u, o, ld, 1, probe, lane, nl);
  /* the Dirichlet faces (3.4): faces 1, 2 normal to r, faces 3, 4 normal to s */
  if ((dirichlet & SBP_FACE1) && lane == 0 % nl) y += wide_sat(T, 0, i, j, Nr, Ns, rho * ws, a, b, u, o, 1, ld, probe);
  if ((dirichlet & SBP_FACE2) && lane == 1 % nl) y += wide_sat(T, 1, i, j, Nr, Ns, rho * ws, a, b, u, o, 1, ld, probe);
  if ((dirichlet & SBP_FACE3) && lane == 2 % nl) y += wide_sat(T, 0, j, i, Ns, Nr, irho * wr, c, b, u, o, ld, 1, probe);
  if ((dirichlet & SBP_FACE4) && lane == 3 % nl) y += wide_sat(T, 1, j, i, Ns, Nr, irho * wr, c, b, u, o, ld, 1, probe);
  return y;
}

/* The whole row (M~ u)(i,j): one work-item's sum (the host path, and the device's where SBPMG_WIDE_LANES is 1). */
WIDE_FN wide_real wide_apply_point(WIDE_TABLE const wide_real *T, const int i, const int j, const int Nr, const int Ns, const wide_real rho,
                                   const int dirichlet, WIDE_GLOBAL const wide_real *u, WIDE_GLOBAL const wide_real *a, WIDE_GLOBAL const wide_real *b,
                                   WIDE_GLOBAL const wide_real *c, const long ox, const long oy, const long ld, const int probe)
{
  return wide_apply_point_lane(T, i, j, Nr, Ns, rho, dirichlet, u, a, b, c, ox, oy, ld, probe, 0, 1);
}

/* The weight of node (i,j) in the norm of the given kind (3.1, order-p weights of 1.2): 0 H~, 1 H~^-1, 2 JH, 3 (JH)^-1. */
WIDE_FN wide_real wide_norm_weight(WIDE_TABLE const wide_real *T, const int i, const int j, const int Nr, const int Ns, const wide_real hr, const wide_real hs,
                                   const int kind, const wide_real J)
{
  return sbp_norm_of_kind(sbp_face_norm_weight(T, i, j, Nr, Ns, hr, hs), kind, J);
}

#ifdef __OPENCL_VERSION__
/* ---------------------------------------------------------------- the interior fast path

   Rows whose whole stencil is the interior band (i and j in [nM, N - nM]: M(c) rows past the end blocks, Q rows and columns past the
   closures, no SAT row; 3.5): the (2q+1)^2 box of u, 2q+1 values of a and c along the lines, b on the cross, q = SBPMG_WIDE_ORDER / 2
   known at compile time and every offset written out. The band's coefficients are the table's (the interior mu of 1.5 and the interior
   row of Q of 1.3), which the host writes into the build options (SBPMG_WIDE_MU, SBPMG_WIDE_S; src/sbp/wide.c), so that they are
   constants to the compiler. What a CPU's compiler (PoCL's, LLVM) needed to vectorize the work-item loop, found with PoCL on a 2-core
   AVX2 machine (objdump of its kernel cache: packed ymm arithmetic or none): no loop left in the body, no load from the table argument
   (it might alias y), 64-bit indices in the cross terms (32-bit sums of three terms were not recognised as consecutive), and the cross
   terms in a pass of their own (wide_apply_inner_cross; with the A_rr + A_ss part in the same kernel nothing was vectorized). At order 6
   the cross pass is still scalar (cause not found). */
#  if !defined(SBPMG_WIDE_FUSE)
#    error "SBPMG_WIDE_FUSE must be defined (tuning table: sbp_wide_fuse; src/sbp/wide.c)"
#  endif
#  if !defined(SBPMG_WIDE_MU) || !defined(SBPMG_WIDE_S)
#    error "SBPMG_WIDE_MU and SBPMG_WIDE_S must be defined (src/sbp/wide.c: the table's interior mu (4 x 7) and interior row of Q (7))"
#  endif
#  define WIDE_QC (SBPMG_WIDE_ORDER / 2)
/* The band's coefficients in a private constant array, so that the compiler folds them: mu = T[SBP_T_MU ...],
   m_{i,i+d} = sum_o mu[7 d + o - d + q] c_{i+o}; st = T[SBP_T_S ...], Q_{i,i+o} = st[q + o]. */
#  define WIDE_BAND_MU const wide_real mu[4 * 7] = {SBPMG_WIDE_MU}
#  define WIDE_BAND_S  const wide_real st[7] = {SBPMG_WIDE_S}
/* The offsets written out (a loop left in the body keeps the work-item loop from being the innermost one, which a CPU's compiler
   vectorizes): d, o in -q..q; r, m in 1..q. */
#  if WIDE_QC == 2
#    define WIDE_EACH_D(X)    X(-2) X(-1) X(0) X(1) X(2)
#    define WIDE_EACH_O(X, d) X(d, -2) X(d, -1) X(d, 0) X(d, 1) X(d, 2)
#    define WIDE_EACH_R(X)    X(1) X(2)
#    define WIDE_EACH_M(X, r) X(r, 1) X(r, 2)
#  else
#    define WIDE_EACH_D(X)    X(-3) X(-2) X(-1) X(0) X(1) X(2) X(3)
#    define WIDE_EACH_O(X, d) X(d, -3) X(d, -2) X(d, -1) X(d, 0) X(d, 1) X(d, 2) X(d, 3)
#    define WIDE_EACH_R(X)    X(1) X(2) X(3)
#    define WIDE_EACH_M(X, r) X(r, 1) X(r, 2) X(r, 3)
#  endif
#  define WIDE_ABS(d) ((d) < 0 ? -(d) : (d))
#  define WIDE_LOW(d) ((d) < 0 ? (d) : 0)

/* sum_d m_{i,i+d} u_{i+d} of the interior band along a line through patch index k with stride s (1.5 rule 3): m_{i,i+d} = m_{a,a+|d|},
   a = i + min(d, 0), = sum_{o=|d|-q}^{q} mu_{|d|,o} c_{a+o} (the terms with o < |d| - q are constant zeros, folded) */
WIDE_FN wide_real wide_band_row(__global const wide_real *restrict u, __global const wide_real *restrict c, const long k, const long s)
{
  WIDE_BAND_MU;
  wide_real y = 0;
#  define WIDE_M_TERM(d, o) +((o) >= WIDE_ABS(d) - WIDE_QC ? mu[7 * WIDE_ABS(d) + (o)-WIDE_ABS(d) + WIDE_QC] * c[k + (WIDE_LOW(d) + (o)) * s] : (wide_real)0)
#  define WIDE_ROW_TERM(d)  y += (0 WIDE_EACH_O(WIDE_M_TERM, d)) * u[k + (d)*s];
  WIDE_EACH_D(WIDE_ROW_TERM)
#  undef WIDE_ROW_TERM
#  undef WIDE_M_TERM
  return y;
}

/* A_rs + A_sr in the interior, rows r = +-R of the box (R in 1..q): with the interior row of Q antisymmetric (st[q-m] = -st[q+m], centre 0;
   1.3), A_rs = sum_{r,m} Q_{i+r,i} b(i+r,j) Q_{j,j+m} u(i+r,j+m) and A_sr = sum_{r,m} Q_{j+m,j} b(i,j+m) Q_{i,i+r} u(i+r,j+m) together are
   -sum_{r,m != 0} st[q+r] st[q+m] (b(i+r,j) + b(i,j+m)) u(i+r,j+m). */
WIDE_FN wide_real wide_band_cross_rows(__global const wide_real *restrict u, __global const wide_real *restrict b, const long k, const long ld, const int R)
{
  WIDE_BAND_S;
  const wide_real bp = b[k + R], bm = b[k - R];
  wide_real       y = 0;
#  define WIDE_X_TERM(R, m)                                                                                         \
    +st[WIDE_QC + (m)] * ((bp + b[k + (m)*ld]) * u[k + (R) + (m)*ld] - (bp + b[k - (m)*ld]) * u[k + (R) - (m)*ld] - \
                          (bm + b[k + (m)*ld]) * u[k - (R) + (m)*ld] + (bm + b[k - (m)*ld]) * u[k - (R) - (m)*ld])
  y = 0 WIDE_EACH_M(WIDE_X_TERM, R);
#  undef WIDE_X_TERM
  return -st[WIDE_QC + R] * y;
}

/* ---------------------------------------------------------------- the kernels: a region of a rank's owned block (kernels/sbp.cl
   sbp_region_node: u and the coefficients on the ghosted patch gh, z and y on the owned block own; src/sbp/kernels.c launches them) */

#  if !defined(SBPMG_WIDE_LANES) || !defined(SBPMG_SBP_RIM_WG)
#    error "SBPMG_WIDE_LANES and SBPMG_SBP_RIM_WG must be defined (tuning table: sbp_wide_lanes, sbp_rim_wg; src/sbp/wide.c)"
#  endif
/* The gather kernels' work-items (wide_apply_patch, wide_smooth_patch): with SBPMG_WIDE_LANES = L > 1, L work-items a node sum its row
   together (wide_apply_point_lane; the launch is 1D over the region's nodes times L, in work-groups of SBPMG_SBP_RIM_WG, a multiple of
   L: src/sbp/wide.c), each its share into local memory, and the node's first lane adds them in lane order and stores: a rim node's row
   is a long chain of table and coefficient loads (the end blocks of M(c), the closures of Q), which one work-item walks alone in L times
   the time. WIDE_ROW_BEGIN sets i, j, kg, ko, lane and `valid` (no early return: every work-item reaches the barrier) and the share v of
   the row the expression computes; WIDE_ROW_END leaves v the whole row in the first lane and returns from the others. */
#  if SBPMG_WIDE_LANES > 1
#    define WIDE_ROW_BEGIN(share)                                                                                            \
      __local wide_real wide_part[SBPMG_SBP_RIM_WG];                                                                        \
      int               i = 0, j = 0;                                                                                       \
      const int         lane = (int)(get_local_id(0) % SBPMG_WIDE_LANES);                                                   \
      const int         valid = sbp_rim_node((long)(get_global_id(0) / SBPMG_WIDE_LANES), own, in, &i, &j);                \
      const long        kg = (i - gh.s0) + (long)gh.s2 * (j - gh.s1), ko = (i - own.s0) + (long)own.s2 * (j - own.s1); \
      wide_real         v  = valid ? (share) : (wide_real)0
#    define WIDE_ROW_END                                                                   \
      wide_part[get_local_id(0)] = v;                                                      \
      barrier(CLK_LOCAL_MEM_FENCE);                                                        \
      if (!valid || lane) return;                                                          \
      for (int l = 1; l < SBPMG_WIDE_LANES; l++) v += wide_part[get_local_id(0) + l];      \
      (void)0
#    define WIDE_LANE lane, SBPMG_WIDE_LANES
#  else
#    define WIDE_ROW_BEGIN(share) \
      SBP_PATCH_NODE;             \
      wide_real v = (share)
#    define WIDE_ROW_END (void)0
#    define WIDE_LANE    0, 1
#  endif

/* y = scale M~ u (add 0), y = z + scale M~ u (add 1; z may be y), y = scale diag(M~) (add 2: u and z not read) over the region. */
__kernel void wide_apply_patch(const int Nr, const int Ns, const wide_real rho, const int dirichlet, __global const wide_real *T, __global const wide_real *u,
                               __global const wide_real *a, __global const wide_real *b, __global const wide_real *c, const int add, const wide_real scale,
                               __global const wide_real *z, __global wide_real *y, const int4 gh, const int4 own, const int4 in, const int mode)
{
  WIDE_ROW_BEGIN(wide_apply_point_lane(T, i, j, Nr, Ns, rho, dirichlet, u, a, b, c, gh.s0, gh.s1, gh.s2, add == 2, WIDE_LANE));
  WIDE_ROW_END;
  (void)kg;
  y[ko] = add == 1 ? z[ko] + scale * v : scale * v;
}

/* The same over the interior box (region SBP_REGION_INTERIOR), every node of it an interior one (src/sbp/wide.c cuts the box), add 0 or 1:
   with SBPMG_WIDE_FUSE 1 (GPUs) wide_apply_inner alone, the whole row; with 0 (CPUs) in two passes with the same arguments:
   wide_apply_inner sets y = scale (A_rr + A_ss) u (or z + that), then wide_apply_inner_cross adds scale (A_rs + A_sr) u (the fast path's
   comment above says why two). */
__kernel void wide_apply_inner(const int Nr, const int Ns, const wide_real rho, const int dirichlet, __global const wide_real *T,
                               __global const wide_real *restrict u, __global const wide_real *restrict a, __global const wide_real *restrict b,
                               __global const wide_real *restrict c, const int add, const wide_real scale, __global const wide_real *z, __global wide_real *y,
                               const int4 gh, const int4 own, const int4 in, const int mode)
{
  SBP_INNER_FOR
  {
    SBP_INNER_INDEX;
    wide_real       v  = rho * wide_band_row(u, a, kg, 1) + wide_band_row(u, c, kg, ld) / rho;
    const wide_real zk = sbp_load_unless(z, ko, !add); /* z is y where !add */
#  if SBPMG_WIDE_FUSE                                  /* the cross terms in the same pass (GPUs: u and y once) */
#    define WIDE_ROWS_R(R) v += wide_band_cross_rows(u, b, kg, ld, R);
    WIDE_EACH_R(WIDE_ROWS_R)
#    undef WIDE_ROWS_R
#  endif
    y[ko] = add ? zk + scale * v : scale * v;
  }
}

__kernel void wide_apply_inner_cross(const int Nr, const int Ns, const wide_real rho, const int dirichlet, __global const wide_real *T,
                                     __global const wide_real *restrict u, __global const wide_real *restrict a, __global const wide_real *restrict b,
                                     __global const wide_real *restrict c, const int add, const wide_real scale, __global const wide_real *z,
                                     __global wide_real *y, const int4 gh, const int4 own, const int4 in, const int mode)
{
  SBP_INNER_FOR
  {
    SBP_INNER_INDEX;
    wide_real v = 0;
#  define WIDE_ROWS_R(R) v += wide_band_cross_rows(u, b, kg, ld, R);
    WIDE_EACH_R(WIDE_ROWS_R)
#  undef WIDE_ROWS_R
    y[ko] += scale * v;
  }
}

/* ---------------------------------------------------------------- the smoothing sweep (docs/design.md "Multigrid at higher order")

   One sweep of the finest level's smoother on the order-p operator, the update of the second-order fused sweep (kernels/smooth.cl
   mg_smooth_update; c1, c2 of src/mg/smoother.c SbpmgSmootherCoefficients): out = x + c1 (x - prev) + c2 s (b - M~ x), s = dinv
   (jacobi 1; the diagonal of wide_apply_patch's probe mode, inverted) or 1 (jacobi 0, Richardson), x on the ghosted patch, the rest on
   the owned block. zero: x = 0, not read (the first sweep from a zero guess: wide_smooth_patch alone, over every owned node); prev is
   read only where c1 != 0 and not prev_zero, and may be out (the sweep writes x_{k+1} over x_{k-1}, src/mg/sweeps.c). The residual is
   the operator's own row: wide_apply_point on the rim (the gather form), the fast path of wide_apply_inner in the interior box, so
   the sweep equals the vector-operation sweep around MatResidual to rounding. The three kernels share one argument list (src/sbp/wide.c
   SbpWideSweepArg). */

/* The update at node ko from the residual r and x_k. */
WIDE_FN wide_real wide_smooth_update(wide_real r, const wide_real xk, const int jacobi, __global const wide_real *dinv, const wide_real c1, const wide_real c2,
                                     const int prev_zero, __global const wide_real *prev, const long ko)
{
  wide_real xn;
  if (jacobi) r *= dinv[ko];
  xn = xk + c2 * r;
  if (c1 != 0) xn += c1 * (xk - (prev_zero ? (wide_real)0 : prev[ko]));
  return xn;
}

/* The sweep over a region by the gather form (the rim of the interior box, or every owned node). */
__kernel void wide_smooth_patch(const int Nr, const int Ns, const wide_real rho, const int dirichlet, __global const wide_real *T, __global const wide_real *x,
                                __global const wide_real *a, __global const wide_real *b, __global const wide_real *c, __global const wide_real *rhs,
                                const int jacobi, __global const wide_real *dinv, const wide_real c1, const wide_real c2, const int zero, const int prev_zero,
                                __global const wide_real *prev, __global wide_real *out, const int4 gh, const int4 own, const int4 in, const int mode)
{
  WIDE_ROW_BEGIN(zero ? (wide_real)0 : wide_apply_point_lane(T, i, j, Nr, Ns, rho, dirichlet, x, a, b, c, gh.s0, gh.s1, gh.s2, 0, WIDE_LANE));
  WIDE_ROW_END;
  out[ko] = wide_smooth_update(rhs[ko] - v, zero ? (wide_real)0 : x[kg], jacobi, dinv, c1, c2, prev_zero, prev, ko);
}

/* The sweep over the interior box by the fast path (never with zero: src/sbp/wide.c). With SBPMG_WIDE_FUSE 1 the whole row; with 0 the
   A_rr + A_ss part, out holding the update from that part of the residual, and wide_smooth_inner_cross then subtracts c2 s (A_rs + A_sr) x
   (the update is linear in r; the two passes of wide_apply_inner). */
__kernel void wide_smooth_inner(const int Nr, const int Ns, const wide_real rho, const int dirichlet, __global const wide_real *T,
                                __global const wide_real *restrict x, __global const wide_real *restrict a, __global const wide_real *restrict b,
                                __global const wide_real *restrict c, __global const wide_real *restrict rhs, const int jacobi,
                                __global const wide_real *restrict dinv, const wide_real c1, const wide_real c2, const int zero, const int prev_zero,
                                __global const wide_real *prev, __global wide_real *out, const int4 gh, const int4 own, const int4 in, const int mode)
{
  SBP_INNER_FOR
  {
    SBP_INNER_INDEX;
    wide_real v = rho * wide_band_row(x, a, kg, 1) + wide_band_row(x, c, kg, ld) / rho;
#  if SBPMG_WIDE_FUSE
#    define WIDE_ROWS_R(R) v += wide_band_cross_rows(x, b, kg, ld, R);
    WIDE_EACH_R(WIDE_ROWS_R)
#    undef WIDE_ROWS_R
#  endif
    out[ko] = wide_smooth_update(rhs[ko] - v, x[kg], jacobi, dinv, c1, c2, prev_zero, prev, ko);
  }
}

__kernel void wide_smooth_inner_cross(const int Nr, const int Ns, const wide_real rho, const int dirichlet, __global const wide_real *T,
                                      __global const wide_real *restrict x, __global const wide_real *restrict a, __global const wide_real *restrict b,
                                      __global const wide_real *restrict c, __global const wide_real *restrict rhs, const int jacobi,
                                      __global const wide_real *restrict dinv, const wide_real c1, const wide_real c2, const int zero, const int prev_zero,
                                      __global const wide_real *prev, __global wide_real *out, const int4 gh, const int4 own, const int4 in, const int mode)
{
  SBP_INNER_FOR
  {
    SBP_INNER_INDEX;
    wide_real v = 0;
#  define WIDE_ROWS_R(R) v += wide_band_cross_rows(x, b, kg, ld, R);
    WIDE_EACH_R(WIDE_ROWS_R)
#  undef WIDE_ROWS_R
    out[ko] -= c2 * (jacobi ? dinv[ko] : (wide_real)1) * v;
  }
}

/* y = W x, W the order-p diagonal norm of the given kind, over the region (x, y on the owned block, J on the patch). */
__kernel void wide_norm_patch(const int Nr, const int Ns, const wide_real hr, const wide_real hs, const int kind, __global const wide_real *T,
                              __global const wide_real *J, __global const wide_real *x, __global wide_real *y, const int4 gh, const int4 own, const int4 in,
                              const int mode)
{
  SBP_PATCH_NODE;
  y[ko] = wide_norm_weight(T, i, j, Nr, Ns, hr, hs, kind, kind >= 2 ? J[kg] : (wide_real)1) * x[ko];
}
#endif
