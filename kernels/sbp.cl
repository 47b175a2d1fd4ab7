/* The matrix-free SBP-SAT operator M~ (spec-sbp-sat.md section 5.1, the "gather" form), its diagonal (5.5) and the
   diagonal norms H~, H~^-1, JH, (JH)^-1 (3.1).

   Every output entry (i,j) is computed by exactly one work-item, which sums every term that touches row (i,j):
   the four volume parts, and for each Dirichlet face the SAT terms of rows 0,1,2 (or N-2, N-1, N) next to it. No
   work-item writes any other entry, so there are no races and no atomics, for every grid size (Nr = 4 included, where
   row 2 receives both faces' terms).

   This file is also compiled by the host path (src/sbp/apply.c includes it as C), so the point formula exists once. */
#ifdef __OPENCL_VERSION__
#  if defined(SBPMG_HAVE_FP64)
#    pragma OPENCL EXTENSION cl_khr_fp64 : enable
#  endif
#  if !defined(SBPMG_SBP_COEF)
#    error "SBPMG_SBP_COEF must be defined (src/sbp/kernels.c: the coefficients' storage type)"
#  endif
#  if !defined(SBPMG_SBP_INDEX32)
#    error "SBPMG_SBP_INDEX32 must be defined (src/sbp/kernels.c: 1 where every array of the patch fits 32-bit indices)"
#  endif
#  if !defined(SBPMG_SBP_REAL)
#    error "SBPMG_SBP_REAL must be defined (src/sbp/kernels.c: the vectors' and the arithmetic's type, fp32 in the single-precision V-cycle)"
#  endif
#  if !defined(SBPMG_SBP_SELECT)
#    error "SBPMG_SBP_SELECT must be defined (tuning table: sbp_select; src/sbp/kernels.c)"
#  endif
#  if !defined(SBPMG_SBP_INNER_ROWS)
#    error "SBPMG_SBP_INNER_ROWS must be defined (tuning table: sbp_inner_rows; src/sbp/kernels.c)"
#  endif
#  if !defined(SBPMG_SBP_INNER_WHOLE)
#    error "SBPMG_SBP_INNER_WHOLE must be defined (tuning table: sbp_inner_whole; src/sbp/kernels.c)"
#  endif
#  if !defined(SBPMG_SBP_KERNELS)
#    error "SBPMG_SBP_KERNELS must be defined (which kernels of this file a program holds: 1 the applies (and the diagonal), 4 the norms; src/sbp)"
#  endif
typedef SBPMG_SBP_REAL sbp_real;
typedef SBPMG_SBP_COEF sbp_coef; /* the coefficients' storage type: float halves their bytes in the multigrid levels (docs/design.md) */
#  if SBPMG_SBP_INDEX32          /* the lean interior kernels index with 32 bits when every array fits */
typedef int sbp_index;
#  else
typedef long sbp_index;
#  endif
#  define SBP_FN     inline
#  define SBP_GLOBAL __global
#else
typedef PetscReal sbp_real;
typedef PetscReal sbp_coef;
#  define SBP_FN static inline
#  define SBP_GLOBAL
#endif

/* Face flags: bit f-1 set when face f is Dirichlet. */
#define SBP_FACE1 1
#define SBP_FACE2 2
#define SBP_FACE3 4
#define SBP_FACE4 8

/* The arrays are indexed (i - ox) + ld * (j - oy): a rank's ghosted patch (on one rank's device path the whole grid: ox = oy = 0,
   ld = Nr+1). In probe mode, u is the indicator of node (i + pdi, j + pdj) and is not read: the entry of row (i,j) in that column
   (pdi = pdj = 0: the diagonal, 5.5; the line smoothers' blocks, kernels/line.cl). */
#define SBP_IDX(ii, jj) ((long)(ii)-ox + ld * ((long)(jj)-oy))
#define SBP_U(ii, jj)   (probe ? (((ii) == i + pdi && (jj) == j + pdj) ? (sbp_real)1 : (sbp_real)0) : u[SBP_IDX(ii, jj)])
#define SBP_A(ii, jj)   ((sbp_real)a[SBP_IDX(ii, jj)])
#define SBP_B(ii, jj)   ((sbp_real)b[SBP_IDX(ii, jj)])
#define SBP_C(ii, jj)   ((sbp_real)c[SBP_IDX(ii, jj)])

/* (Q v)_k for the h-free first difference Q = H D (2.2), given v at k-1, k, k+1 (unused ends may be anything). */
SBP_FN sbp_real sbp_q(int k, int N, sbp_real vm, sbp_real v0, sbp_real vp)
{
  if (k == 0) return (vp - v0) / 2;
  if (k == N) return (v0 - vm) / 2;
  return (vp - vm) / 2;
}

/* (Q^T w)_k given w at k-1, k, k+1. */
SBP_FN sbp_real sbp_qt(int k, int N, sbp_real wm, sbp_real w0, sbp_real wp)
{
  if (k == 0) return -(w0 + wp) / 2;
  if (k == N) return (wm + w0) / 2;
  return (wm - wp) / 2;
}

SBP_FN sbp_real sbp_apply_point(const int i, const int j, const int Nr, const int Ns, const sbp_real rho, const int dirichlet, SBP_GLOBAL const sbp_real *u,
                                SBP_GLOBAL const sbp_coef *a, SBP_GLOBAL const sbp_coef *b, SBP_GLOBAL const sbp_coef *c, const long ox, const long oy,
                                const long ld, const int probe, const int pdi, const int pdj)
{
  const sbp_real irho = 1 / rho;
  const sbp_real wr = (i == 0 || i == Nr) ? (sbp_real)0.5 : (sbp_real)1, ws = (j == 0 || j == Ns) ? (sbp_real)0.5 : (sbp_real)1;
  const int      im = i > 0 ? i - 1 : i, ip = i < Nr ? i + 1 : i, jm = j > 0 ? j - 1 : j, jp = j < Ns ? j + 1 : j;
  const sbp_real u00 = SBP_U(i, j);
  sbp_real       mr = 0, ms = 0, y;

  /* A_rr: rho w^s_j Mline_r[a(.,j); u(.,j)]_i and A_ss: rho^-1 w^r_i Mline_s[c(i,.); u(i,.)]_j (2.3 without 1/h) */
  if (i > 0) mr += (SBP_A(i - 1, j) + SBP_A(i, j)) / 2 * (u00 - SBP_U(i - 1, j));
  if (i < Nr) mr += (SBP_A(i, j) + SBP_A(i + 1, j)) / 2 * (u00 - SBP_U(i + 1, j));
  if (j > 0) ms += (SBP_C(i, j - 1) + SBP_C(i, j)) / 2 * (u00 - SBP_U(i, j - 1));
  if (j < Ns) ms += (SBP_C(i, j) + SBP_C(i, j + 1)) / 2 * (u00 - SBP_U(i, j + 1));
  y = rho * ws * mr + irho * wr * ms;

  /* A_rs = (Qr^T W)_i, W(i') = b(i',j) (Qs u(i',.))_j;  A_sr = (Qs^T Z)_j, Z(j') = b(i,j') (Qr u(.,j'))_i */
  {
    const sbp_real Wm = SBP_B(im, j) * sbp_q(j, Ns, SBP_U(im, jm), SBP_U(im, j), SBP_U(im, jp));
    const sbp_real W0 = SBP_B(i, j) * sbp_q(j, Ns, SBP_U(i, jm), u00, SBP_U(i, jp));
    const sbp_real Wp = SBP_B(ip, j) * sbp_q(j, Ns, SBP_U(ip, jm), SBP_U(ip, j), SBP_U(ip, jp));
    const sbp_real Zm = SBP_B(i, jm) * sbp_q(i, Nr, SBP_U(im, jm), SBP_U(i, jm), SBP_U(ip, jm));
    const sbp_real Z0 = SBP_B(i, j) * sbp_q(i, Nr, SBP_U(im, j), u00, SBP_U(ip, j));
    const sbp_real Zp = SBP_B(i, jp) * sbp_q(i, Nr, SBP_U(im, jp), SBP_U(i, jp), SBP_U(ip, jp));
    y += sbp_qt(i, Nr, Wm, W0, Wp) + sbp_qt(j, Ns, Zm, Z0, Zp);
  }

  /* SAT terms of the Dirichlet faces (5.1). delta = rho w^s_j a (faces 1, 2), rho^-1 w^r_i c (faces 3, 4). */
  if ((dirichlet & SBP_FACE1) && i <= 2) {
    const sbp_real a0 = SBP_A(0, j), d = rho * ws * a0, g = SBP_U(0, j);
    if (i == 0) {
      const sbp_real psi = fmin(a0, SBP_A(1, j));
      const sbp_real Pm = SBP_B(0, jm) * SBP_U(0, jm), P0 = SBP_B(0, j) * g, Pp = SBP_B(0, jp) * SBP_U(0, jp);
      y += d * (-(sbp_real)1.5 * g + 2 * SBP_U(1, j) - (sbp_real)0.5 * SBP_U(2, j)) + SBP_B(0, j) * sbp_q(j, Ns, SBP_U(0, jm), g, SBP_U(0, jp)) -
           (sbp_real)1.5 * d * g + sbp_qt(j, Ns, Pm, P0, Pp) + d * (4 + a0 / psi) * g;
    } else if (i == 1)
      y += 2 * d * g;
    else
      y -= (sbp_real)0.5 * d * g;
  }
  if ((dirichlet & SBP_FACE2) && i >= Nr - 2) {
    const sbp_real aN = SBP_A(Nr, j), d = rho * ws * aN, g = SBP_U(Nr, j);
    if (i == Nr) {
      const sbp_real psi = fmin(aN, SBP_A(Nr - 1, j));
      const sbp_real Pm = SBP_B(Nr, jm) * SBP_U(Nr, jm), P0 = SBP_B(Nr, j) * g, Pp = SBP_B(Nr, jp) * SBP_U(Nr, jp);
      y += -d * ((sbp_real)1.5 * g - 2 * SBP_U(Nr - 1, j) + (sbp_real)0.5 * SBP_U(Nr - 2, j)) - SBP_B(Nr, j) * sbp_q(j, Ns, SBP_U(Nr, jm), g, SBP_U(Nr, jp)) -
           (sbp_real)1.5 * d * g - sbp_qt(j, Ns, Pm, P0, Pp) + d * (4 + aN / psi) * g;
    } else if (i == Nr - 1)
      y += 2 * d * g;
    else
      y -= (sbp_real)0.5 * d * g;
  }
  if ((dirichlet & SBP_FACE3) && j <= 2) {
    const sbp_real c0 = SBP_C(i, 0), d = irho * wr * c0, g = SBP_U(i, 0);
    if (j == 0) {
      const sbp_real psi = fmin(c0, SBP_C(i, 1));
      const sbp_real Pm = SBP_B(im, 0) * SBP_U(im, 0), P0 = SBP_B(i, 0) * g, Pp = SBP_B(ip, 0) * SBP_U(ip, 0);
      y += d * (-(sbp_real)1.5 * g + 2 * SBP_U(i, 1) - (sbp_real)0.5 * SBP_U(i, 2)) + SBP_B(i, 0) * sbp_q(i, Nr, SBP_U(im, 0), g, SBP_U(ip, 0)) -
           (sbp_real)1.5 * d * g + sbp_qt(i, Nr, Pm, P0, Pp) + d * (4 + c0 / psi) * g;
    } else if (j == 1)
      y += 2 * d * g;
    else
      y -= (sbp_real)0.5 * d * g;
  }
  if ((dirichlet & SBP_FACE4) && j >= Ns - 2) {
    const sbp_real cN = SBP_C(i, Ns), d = irho * wr * cN, g = SBP_U(i, Ns);
    if (j == Ns) {
      const sbp_real psi = fmin(cN, SBP_C(i, Ns - 1));
      const sbp_real Pm = SBP_B(im, Ns) * SBP_U(im, Ns), P0 = SBP_B(i, Ns) * g, Pp = SBP_B(ip, Ns) * SBP_U(ip, Ns);
      y += -d * ((sbp_real)1.5 * g - 2 * SBP_U(i, Ns - 1) + (sbp_real)0.5 * SBP_U(i, Ns - 2)) - SBP_B(i, Ns) * sbp_q(i, Nr, SBP_U(im, Ns), g, SBP_U(ip, Ns)) -
           (sbp_real)1.5 * d * g - sbp_qt(i, Nr, Pm, P0, Pp) + d * (4 + cN / psi) * g;
    } else if (j == Ns - 1)
      y += 2 * d * g;
    else
      y -= (sbp_real)0.5 * d * g;
  }
  return y;
}

/* Whether row (i,j) is an interior row far enough from every Dirichlet face that only the 9-point volume stencil applies
   (spec 5.4 (A)): then sbp_interior_point gives the same value as sbp_apply_point with fewer loads and no branches. */
SBP_FN int sbp_is_interior(const int i, const int j, const int Nr, const int Ns, const int dirichlet)
{
  const int ilo = (dirichlet & SBP_FACE1) ? 3 : 1, ihi = (dirichlet & SBP_FACE2) ? Nr - 3 : Nr - 1;
  const int jlo = (dirichlet & SBP_FACE3) ? 3 : 1, jhi = (dirichlet & SBP_FACE4) ? Ns - 3 : Ns - 1;
  return i >= ilo && i <= ihi && j >= jlo && j <= jhi;
}

/* The interior row (spec 5.4 (A)) from its loaded values: the coefficients a at the west, centre and east nodes, c at the
   south, centre and north ones, b at the four neighbours, u on the 3 x 3 block (s: row j-1, n: row j+1). *diag gets the
   diagonal entry. */
SBP_FN sbp_real sbp_row9(const sbp_real rho, const sbp_real irho, const sbp_real a_w, const sbp_real a_0, const sbp_real a_e, const sbp_real c_s,
                         const sbp_real c_0, const sbp_real c_n, const sbp_real bw, const sbp_real be, const sbp_real bs, const sbp_real bn, const sbp_real usw,
                         const sbp_real us, const sbp_real use, const sbp_real uw, const sbp_real u0, const sbp_real ue, const sbp_real unw, const sbp_real un,
                         const sbp_real une, sbp_real *diag)
{
  const sbp_real aw = (a_w + a_0) / 2, ae = (a_0 + a_e) / 2, cs = (c_s + c_0) / 2, cn = (c_0 + c_n) / 2;
  sbp_real       y;

  *diag = rho * (aw + ae) + irho * (cs + cn);
  y     = *diag * u0 - rho * (aw * uw + ae * ue) - irho * (cs * us + cn * un);
  /* A_rs + A_sr: (b_w (u_nw - u_sw) - b_e (u_ne - u_se) + b_s (u_se - u_sw) - b_n (u_ne - u_nw)) / 4 */
  return y + (bw * (unw - usw) - be * (une - use) + bs * (use - usw) - bn * (une - unw)) / 4;
}

/* sbp_row9 at linear index k of arrays with leading dimension ld; U(o) is u at offset o from k. */
#define SBP_ROW9_AT(k, ld, U, irho, diag)                                                                                                               \
  sbp_row9(rho, irho, a[(k)-1], a[k], a[(k) + 1], c[(k) - (ld)], c[k], c[(k) + (ld)], b[(k)-1], b[(k) + 1], b[(k) - (ld)], b[(k) + (ld)], U(-1 - (ld)), \
           U(-(ld)), U(1 - (ld)), U(-1), U(0), U(1), U(-1 + (ld)), U(ld), U(1 + (ld)), diag)

/* The interior row at linear index k of arrays with leading dimension ld (u may be NULL: only *diag). */
SBP_FN sbp_real sbp_interior_point(const long k, const int ld, const sbp_real rho, SBP_GLOBAL const sbp_real *u, SBP_GLOBAL const sbp_coef *a,
                                   SBP_GLOBAL const sbp_coef *b, SBP_GLOBAL const sbp_coef *c, sbp_real *diag)
{
#define SBP_UK(o) (u ? u[k + (o)] : (sbp_real)0)
  const sbp_real y = SBP_ROW9_AT(k, ld, SBP_UK, 1 / rho, diag);
#undef SBP_UK
  return u ? y : 0;
}

#ifdef __OPENCL_VERSION__
/* v[k], or 0 where skip. SBPMG_SBP_SELECT 1: v[k] is loaded whatever skip (v must then be a buffer of the launch's size) and the value
   selected, so that the lean kernels' bodies have no branch around a load, which a CPU's vectorizer (PoCL's) requires; 0: loaded
   only where used, a GPU's bytes (docs/design.md "Branch-free interior kernels on CPUs"). */
SBP_FN sbp_real sbp_load_unless(__global const sbp_real *v, const sbp_index k, const int skip)
{
#  if SBPMG_SBP_SELECT
  const sbp_real x = v[k];
  return skip ? (sbp_real)0 : x;
#  else
  return skip ? (sbp_real)0 : v[k];
#  endif
}

/* The same row for the lean interior kernels: indices of type sbp_index and restrict pointers (uzero: u = 0, sbp_load_unless). */
SBP_FN sbp_real sbp_inner_point(const sbp_index k, const sbp_index ld, const sbp_real rho, const sbp_real irho, __global const sbp_real *restrict u,
                                const int uzero, __global const sbp_coef *restrict a, __global const sbp_coef *restrict b, __global const sbp_coef *restrict c,
                                sbp_real *diag)
{
#  define SBP_UI(o) sbp_load_unless(u, k + (o), uzero)
  return SBP_ROW9_AT(k, ld, SBP_UI, irho, diag);
#  undef SBP_UI
}

#endif

/* The weight of a node of H~-weight w and Jacobian J in the norm of the given kind: 0 H~, 1 H~^-1, 2 JH, 3 (JH)^-1 (every order). */
SBP_FN sbp_real sbp_norm_of_kind(const sbp_real w, const int kind, const sbp_real J)
{
  switch (kind) {
  case 0:
    return w;
  case 1:
    return 1 / w;
  case 2:
    return J * w;
  default:
    return 1 / (J * w);
  }
}

/* The weight of node (i,j) in the norm of the given kind at order 2. */
SBP_FN sbp_real sbp_norm_weight(const int i, const int j, const int Nr, const int Ns, const sbp_real hr, const sbp_real hs, const int kind, const sbp_real J)
{
  return sbp_norm_of_kind(hr * hs * ((i == 0 || i == Nr) ? (sbp_real)0.5 : (sbp_real)1) * ((j == 0 || j == Ns) ? (sbp_real)0.5 : (sbp_real)1), kind, J);
}

#ifdef __OPENCL_VERSION__
/* The arrays of a launch: u and the coefficients at kg (origin ox, oy, leading dimension ld: the rank's ghosted patch), the
   other vectors at ko (the rank's owned block). */
#  define SBP_NODE_ARGS const long kg, const long ko, const long ox, const long oy, const int ld

/* y = scale M~ u (add = 0), y = z + scale M~ u (add = 1; z may be y), or y = scale diag(M~) (add = 2; u and z not read: the diagonal
   is this kernel's mode rather than a kernel of its own, one kernel fewer to compile, docs/design.md "Kernel subsets") at node (i,j) */
SBP_FN void sbp_apply_node(const int i, const int j, const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_real *u,
                           __global const sbp_coef *a, __global const sbp_coef *b, __global const sbp_coef *c, const int add, const sbp_real scale,
                           __global const sbp_real *z, __global sbp_real *y, SBP_NODE_ARGS)
{
  const int diag = add == 2;
  sbp_real  v, d;
  if (sbp_is_interior(i, j, Nr, Ns, dirichlet)) {
    v = sbp_interior_point(kg, ld, rho, diag ? 0 : u, a, b, c, &d);
    v = scale * (diag ? d : v);
  } else
    v = scale * sbp_apply_point(i, j, Nr, Ns, rho, dirichlet, diag ? 0 : u, a, b, c, ox, oy, ld, diag, 0, 0);
  y[ko] = add == 1 ? z[ko] + v : v;
}

/* y = W x at node (i,j), W the diagonal norm of the given kind */
SBP_FN void sbp_norm_node(const int i, const int j, const int Nr, const int Ns, const sbp_real hr, const sbp_real hs, const int kind,
                          __global const sbp_real *J, __global const sbp_real *x, __global sbp_real *y, const long kg, const long ko)
{
  y[ko] = sbp_norm_weight(i, j, Nr, Ns, hr, hs, kind, kind >= 2 ? J[kg] : (sbp_real)1) * x[ko];
}

/* ---------------------------------------------------------------- the kernels: a region of a rank's owned block
   Each rank computes its owned nodes own = (xs, ys, xm, ym), reading u and the coefficients on its ghosted patch
   gh = (gxs, gys, gxm): node (i,j) at (i - gxs) + gxm (j - gys); z, y, rhs and the other vectors of the owned layout at
   (i - xs) + xm (j - ys). On one rank both are the whole grid (gxs = xs = 0, gxm = xm = Nr + 1); on several the ghosts come
   from the exchange (src/halo/halo.c). The point formulas are the ones above, so every entry is the one-rank value. A
   launch covers a region of the owned block (mode): SBP_REGION_ALL (0, a 2D range xm x ym), SBP_REGION_INTERIOR (1, the box
   in = (ilo, jlo, ihi, jhi) of nodes whose stencil stays inside the owned block, so it runs while the ghosts are exchanged) or
   SBP_REGION_RIM (2, a 1D range over the owned nodes outside that box, once the ghosts are in). The _patch kernels take regions 0
   and 2; the interior box is the lean *_inner kernels' (SBP_INNER_FOR, several rows per work-item). */
/* Node t of the rim (the owned nodes outside the box in; all of them where in is empty as the set-up leaves it, ilo > ihi and jlo past
   the block): the rows below the box, the rows above it, then the left and right parts of the rows beside it; 0 past the rim's count. */
SBP_FN int sbp_rim_node(long t, const int4 own, const int4 in, int *i, int *j)
{
  const long nb = (long)(in.s1 - own.s1) * own.s2, nt = (long)(own.s1 + own.s3 - 1 - in.s3) * own.s2;
  const int  nl = in.s0 - own.s0, w = nl + (own.s0 + own.s2 - 1 - in.s2);
  if (t < nb) {
    *j = own.s1 + (int)(t / own.s2);
    *i = own.s0 + (int)(t % own.s2);
    return 1;
  }
  t -= nb;
  if (t < nt) {
    *j = in.s3 + 1 + (int)(t / own.s2);
    *i = own.s0 + (int)(t % own.s2);
    return 1;
  }
  t -= nt;
  if (w <= 0 || t >= (long)w * (in.s3 - in.s1 + 1)) return 0;
  {
    const int c = (int)(t % w);
    *j          = in.s1 + (int)(t / w);
    *i          = c < nl ? own.s0 + c : in.s2 + 1 + (c - nl);
  }
  return 1;
}

SBP_FN int sbp_region_node(const int mode, const int4 own, const int4 in, int *i, int *j)
{
  if (mode == 0) {
    const long gi = get_global_id(0), gj = get_global_id(1);
    *i = own.s0 + (int)gi;
    *j = own.s1 + (int)gj;
    return gi < own.s2 && gj < own.s3;
  }
  return sbp_rim_node(get_global_id(0), own, in, i, j);
}

/* The node (i,j) of this work-item in its region and its indices in the ghosted patch (kg: u and the coefficients) and the
   owned block (ko: the other vectors); returns from the kernel outside the region. */
#  define SBP_PATCH_NODE                                     \
    int i, j;                                                \
    if (!sbp_region_node(mode, own, in, &i, &j)) return;     \
    const long kg = (i - gh.s0) + (long)gh.s2 * (j - gh.s1); \
    const long ko = (i - own.s0) + (long)own.s2 * (j - own.s1)

/* The lean kernels over the interior box (region SBP_REGION_INTERIOR): a work-item takes SBPMG_SBP_INNER_ROWS nodes of a column (rows
   jb, jb+1, ...; the launch's second range is the box's rows / SBPMG_SBP_INNER_ROWS), so that the rows it shares with the next node's row
   (u, c and b above and below) come from registers; the body after SBP_INNER_FOR runs once per node with i, j, ld, kg and ko (indices of
   type sbp_index). SBPMG_SBP_INNER_WHOLE 1: the launch covers exactly the box's columns (src/sbp/kernels.c: whole work-groups, then one
   work-group as wide as the columns left), so the kernel has no column guard, and a CPU's vectorizer no masked loads and stores
   (slow on some CPUs: docs/design.md "Interior kernels without a column guard on CPUs"); 0: the launch is rounded up, the guard skips the rest. */
#  if SBPMG_SBP_INNER_WHOLE
#    define SBP_INNER_COLUMN(i) 1
#  else
#    define SBP_INNER_COLUMN(i) ((i) <= in.s2)
#  endif
#  define SBP_INNER_FOR                                                                                           \
    const int       i = in.s0 + (int)get_global_id(0), jb = in.s1 + SBPMG_SBP_INNER_ROWS * (int)get_global_id(1); \
    const sbp_index ld = gh.s2;                                                                                   \
    if (SBP_INNER_COLUMN(i))                                                                                      \
      for (int j = jb; j < jb + SBPMG_SBP_INNER_ROWS && j <= in.s3; j++)
#  define SBP_INNER_INDEX const sbp_index kg = (i - gh.s0) + ld * (sbp_index)(j - gh.s1), ko = (i - own.s0) + (sbp_index)own.s2 * (sbp_index)(j - own.s1)

/* y = scale M~ u (add = 0) or y = z + scale M~ u (add = 1; z may be y) on the owned nodes of a region, u the ghosted patch: the
   operator, MatMultAdd, and the residual b - M~ u in one pass; with add = 2 the diagonal y = scale diag(M~) (MatGetDiagonal). */
#  if SBPMG_SBP_KERNELS & 1
__kernel void sbp_apply_patch(const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_real *u, __global const sbp_coef *a,
                              __global const sbp_coef *b, __global const sbp_coef *c, const int add, const sbp_real scale, __global const sbp_real *z,
                              __global sbp_real *y, const int4 gh, const int4 own, const int4 in, const int mode)
{
  SBP_PATCH_NODE;
  sbp_apply_node(i, j, Nr, Ns, rho, dirichlet, u, a, b, c, add, scale, z, y, kg, ko, gh.s0, gh.s1, gh.s2);
}
#  endif

/* sbp_apply_patch over the interior box alone (region SBP_REGION_INTERIOR), where sbp_is_interior holds at every node (the box is
   cut to it at set-up, src/sbp/setup.c): the 9-point row without the boundary code, a small kernel that keeps few registers
   (docs/design.md, "interior and rim"). The same arguments as sbp_apply_patch, add 0 or 1. */
#  if SBPMG_SBP_KERNELS & 1
__kernel void sbp_apply_inner(const int Nr, const int Ns, const sbp_real rho, const int dirichlet, __global const sbp_real *restrict u,
                              __global const sbp_coef *restrict a, __global const sbp_coef *restrict b, __global const sbp_coef *restrict c, const int add,
                              const sbp_real scale, __global const sbp_real *z, __global sbp_real *y, const int4 gh, const int4 own, const int4 in,
                              const int mode)
{
  SBP_INNER_FOR
  {
    SBP_INNER_INDEX;
    sbp_real       d;
    const sbp_real v = scale * sbp_inner_point(kg, ld, rho, 1 / rho, u, 0, a, b, c, &d), zk = sbp_load_unless(z, ko, !add); /* z is y where !add */
    y[ko] = add ? zk + v : v;
  }
}
#  endif

/* y = W x, W the diagonal norm of the given kind, on the owned nodes of a region (x and y in the owned layout, J on the patch) */
#  if SBPMG_SBP_KERNELS & 4
__kernel void sbp_norm_patch(const int Nr, const int Ns, const sbp_real hr, const sbp_real hs, const int kind, __global const sbp_real *J,
                             __global const sbp_real *x, __global sbp_real *y, const int4 gh, const int4 own, const int4 in, const int mode)
{
  SBP_PATCH_NODE;
  sbp_norm_node(i, j, Nr, Ns, hr, hs, kind, J, x, y, kg, ko);
}
#  endif
#endif
