/* The traction n.(mu grad u) on a face of the grid from a solution u (docs/guide.md "The traction on a face"): the boundary derivative
   of the SAT terms, G_f u / H_f (docs/design.md "The traction on a face"), divided by the face's scale factor sJ. At node t of face f
   (grid line n0, t along the face, Nt intervals along it), with cn the normal coefficient there (crr on faces 1 and 2, css on 3 and 4),
   ct = crs there, u0, u1, u2 the values on the face and one and two lines into the domain, um, up its neighbours along the face:

     sJ n.(mu grad u) = -cn (-3/2 u0 + 2 u1 - 1/2 u2) / h_normal + sigma ct (Q u_face)_t / (h_t w_t),   sigma = -1 on faces 1, 3, +1 on 2, 4

   the first term the one-sided boundary derivative d0 (or -dN) into the domain, the second the SBP first derivative D along the face
   (Q = H D, kernels/sbp.cl sbp_q; w_t = 1/2 at the face's ends). These are the rows of kernels/sbp.cl's Dirichlet SAT (its
   d (-1.5 g + 2 u1 - 0.5 u2) + b sbp_q(...), which is H_f times this) and of G_f in src/sbp/assemble.c.

   The point formulas are also compiled as C by the host path (src/sbp/traction.c includes this file after kernels/sbp.cl), so they
   exist once. On the device the file is built after kernels/coef.cl (the geometry at the face nodes) and kernels/sbp.cl (sbp_q) with
   their specialisations (SBPMG_SBP_KERNELS=0, SBPMG_COEF_KERNELS=0) and this one, set by src/sbp/traction.c (no defaults):
     SBPMG_TRACTION_SJ  where the face's scale factor comes from: 0 the device's geometry (coef_geometry: a built-in mapping, the user's
                  OpenCL source or node coordinates), 1 the buffer sj (a mapping that is a host function, evaluated on the host)
     SBPMG_TRACTION_WIDE  0 order 2 (traction_flux_at; the program "coef+sbp+traction"), 1 the order of the packed table tab
                  (traction_flux_at_wide; the program "coef+sbp+sbp_table+sbp_face+traction") */

#if defined(__OPENCL_VERSION__) && !defined(SBPMG_TRACTION_WIDE)
#  error "SBPMG_TRACTION_WIDE must be defined (src/sbp/traction.c: 0 order 2, 1 the order of the packed table tab)"
#endif

/* The face's scale factor sJ = |d(x, y)/dt| along it from the geometry X = (x, y, x_r, x_s, y_r, y_s) at a face node. */
SBP_FN sbp_real traction_scale(const int face, const sbp_real X[6])
{
  return face <= 2 ? sqrt(X[3] * X[3] + X[5] * X[5]) : sqrt(X[2] * X[2] + X[4] * X[4]);
}

/* sJ n.(mu grad u) at node t of face `face` (G_f u / H_f) from its values (see the top of the file). */
SBP_FN sbp_real traction_flux(const int face, const int t, const int Nt, const sbp_real hn, const sbp_real ht, const sbp_real cn, const sbp_real ct,
                              const sbp_real u0, const sbp_real u1, const sbp_real u2, const sbp_real um, const sbp_real up)
{
  const sbp_real sigma = (face == 1 || face == 3) ? (sbp_real)-1 : (sbp_real)1, w = (t == 0 || t == Nt) ? (sbp_real)0.5 : (sbp_real)1;
  const sbp_real dn = (-(sbp_real)1.5 * u0 + 2 * u1 - (sbp_real)0.5 * u2) / hn; /* the derivative into the domain (d0, or -dN) */

  return -cn * dn + sigma * ct * sbp_q(t, Nt, um, u0, up) / (ht * w);
}

/* The node (i, j) of face `face` at t, and the step (di, dj) into the domain. */
SBP_FN void traction_node(const int face, const int t, const int Nr, const int Ns, int *i, int *j, int *di, int *dj)
{
  *i  = face == 1 ? 0 : face == 2 ? Nr : t;
  *j  = face == 3 ? 0 : face == 4 ? Ns : t;
  *di = face == 1 ? 1 : face == 2 ? -1 : 0;
  *dj = face == 3 ? 1 : face == 4 ? -1 : 0;
}

/* traction_flux at node t of face `face` from u and the coefficients a = crr, b = crs, c = css on an array of origin (ox, oy) and
   leading dimension ld (a rank's ghosted patch: the face node's neighbours are in it, stencil width 2). */
SBP_FN sbp_real traction_flux_at(const int face, const int t, const int Nr, const int Ns, const sbp_real hr, const sbp_real hs, SBP_GLOBAL const sbp_real *u,
                                 SBP_GLOBAL const sbp_coef *a, SBP_GLOBAL const sbp_coef *b, SBP_GLOBAL const sbp_coef *c, const long ox, const long oy,
                                 const long ld)
{
  const int rface = face <= 2, Nt = rface ? Ns : Nr;
  const int tm = t > 0 ? t - 1 : t, tp = t < Nt ? t + 1 : t; /* the ends' unused neighbour: the node itself (sbp_q ignores it) */
  int       i, j, di, dj;

  traction_node(face, t, Nr, Ns, &i, &j, &di, &dj);
#define TRACTION_IDX(ii, jj) ((long)(ii)-ox + ld * ((long)(jj)-oy))
  {
    const long     k  = TRACTION_IDX(i, j);
    const long     km = rface ? TRACTION_IDX(i, tm) : TRACTION_IDX(tm, j), kp = rface ? TRACTION_IDX(i, tp) : TRACTION_IDX(tp, j);
    const sbp_real cn = rface ? (sbp_real)a[k] : (sbp_real)c[k];

    return traction_flux(face, t, Nt, rface ? hr : hs, rface ? hs : hr, cn, (sbp_real)b[k], u[k], u[TRACTION_IDX(i + di, j + dj)],
                         u[TRACTION_IDX(i + 2 * di, j + 2 * dj)], u[km], u[kp]);
  }
#undef TRACTION_IDX
}

/* traction_flux_at at order p > 2 from the order's table tab (spec-sbp-sat-highorder.md 1.3, 1.4, 3.1: G_f of the Neumann SAT): the
   boundary-derivative row BS over nBS lines, (1/h_normal) sum_k BS_k u(k-th line in) the outward normal derivative on every face, and the
   order's D1 = H^-1 Q along the face (its closures near the corners):

     sJ n.(mu grad u) = cn (1/h_normal) sum_k BS_k u_k + sigma ct (Q u_face)_t / (h_t w_t),   sigma = -1 on faces 1, 3, +1 on 2, 4

   The nBS lines and the closure's columns are the face rank's own (src/sbp/setup.c: SbpProblemMinimumOwned nodes in each direction),
   the interior neighbours along the face in its patch (stencil width q). */
#if !defined(__OPENCL_VERSION__) || SBPMG_TRACTION_WIDE
SBP_FN sbp_real traction_flux_at_wide(const int face, const int t, const int Nr, const int Ns, const sbp_real hr, const sbp_real hs,
                                      SBP_GLOBAL const sbp_real *u, SBP_GLOBAL const sbp_coef *a, SBP_GLOBAL const sbp_coef *b, SBP_GLOBAL const sbp_coef *c,
                                      const long ox, const long oy, const long ld, SBP_GLOBAL const sbp_real *tab)
{
  const int      rface = face <= 2, Nt = rface ? Ns : Nr, nBS = SBP_TAB_INT(tab, SBP_T_NBS);
  const sbp_real sigma = (face == 1 || face == 3) ? (sbp_real)-1 : (sbp_real)1, hn = rface ? hr : hs, ht = rface ? hs : hr;
  sbp_real       dn = 0, qu = 0;
  int            i, j, di, dj, lo, hi;

  traction_node(face, t, Nr, Ns, &i, &j, &di, &dj);
#  define TRACTION_IDX(ii, jj) ((long)(ii)-ox + ld * ((long)(jj)-oy))
  for (int m = 0; m < nBS; m++) dn += tab[SBP_T_BS + m] * u[TRACTION_IDX(i + m * di, j + m * dj)];
  sbp_face_q_cols(tab, Nt, t, &lo, &hi);
  for (int tt = lo; tt <= hi; tt++) qu += sbp_face_q(tab, Nt, t, tt) * u[rface ? TRACTION_IDX(i, tt) : TRACTION_IDX(tt, j)];
  {
    const long k = TRACTION_IDX(i, j);
    return (rface ? (sbp_real)a[k] : (sbp_real)c[k]) * dn / hn + sigma * (sbp_real)b[k] * qu / (ht * sbp_face_weight(tab, Nt, t));
  }
#  undef TRACTION_IDX
}
#endif

#ifdef __OPENCL_VERSION__
#  if !defined(SBPMG_TRACTION_SJ)
#    error "SBPMG_TRACTION_SJ must be defined (src/sbp/traction.c: 0 the scale factor from the device's geometry, 1 from the buffer sj)"
#  endif

/* The traction n.(mu grad u) at the nodes first .. first + count - 1 of face `face` (those this rank owns), one work-item each, into
   out[0 .. count). u and the coefficients on the ghosted patch gh = (gxs, gys, gxm, gym) (on one rank the whole grid), the geometry's
   nodal data on the box around it (kernels/coef.cl coef_grid_make); sj: the scale factors at those nodes where SBPMG_TRACTION_SJ is 1 (else
   not read); tab: the order's packed table where SBPMG_TRACTION_WIDE is 1 (else not read). */
__kernel void traction_face(const int face, const int first, const int count, const int Nr, const int Ns, const coef_real hr, const coef_real hs, const int4 gh,
                            __global const sbp_real *u, __global const sbp_coef *crr, __global const sbp_coef *crs, __global const sbp_coef *css,
                            __global const coef_real *nodes, __global const coef_real *sj, __global const sbp_real *tab, __global sbp_real *out)
{
  const int k = (int)get_global_id(0), t = first + k;
  sbp_real  sJ;

  if (k >= count) return;
#  if SBPMG_TRACTION_SJ == 0
  {
    const coef_grid grid = coef_grid_make(nodes, gh.s0, gh.s1, gh.s2, gh.s3, Nr, Ns, hr, hs);
    coef_real       X[6];
    int             i, j, di, dj;

    traction_node(face, t, Nr, Ns, &i, &j, &di, &dj);
    coef_geometry(grid, i, j, X);
    sJ = traction_scale(face, X);
  }
#  else
  sJ     = sj[k];
#  endif
#  if SBPMG_TRACTION_WIDE
  out[k] = traction_flux_at_wide(face, t, Nr, Ns, hr, hs, u, crr, crs, css, gh.s0, gh.s1, gh.s2, tab) / sJ;
#  else
  out[k] = traction_flux_at(face, t, Nr, Ns, hr, hs, u, crr, crs, css, gh.s0, gh.s1, gh.s2) / sJ;
#  endif
}
#endif
