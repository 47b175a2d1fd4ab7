/* The right-hand side on the device (docs/guide.md "The right-hand side"): b = J H f + for each Dirichlet face the SAT data
   terms + for each Neumann face H_f gN, one work-item per owned node summing every term of its row (the gather form of
   kernels/sbp.cl's operator: no atomics). Built after kernels/sbp.cl (the norm weights, Q^T) and kernels/coef.cl (the mapping
   and mu), with their specialisations and the data's (set by src/sbp/rhs.c, no defaults):
     SBPMG_RHS_F            the forcing: 0 the manufactured problem's, 1 zero, 2 the user's sbp_user_forcing(x, y), 3 values at the nodes
     SBPMG_RHS_G1 .. SBPMG_RHS_G4 each face's data likewise: 0 manufactured, 1 zero, 2 sbp_user_boundary_F(x, y, nx, ny), 3 values along it
     SBPMG_RHS_EXACT        the exact solution of rhs_exact_nodes: 0 the manufactured problem's, 2 the user's sbp_user_exact(x, y)
   The manufactured problem is u = sin(pi x) cos(pi y) with the built-in mu's gradient. A user's Neumann datum is the flux
   n.(mu grad u) with the unit normal; the SAT needs it times the face's scale factor sJ. */
#if !defined(SBPMG_RHS_WIDE)
#  error "SBPMG_RHS_WIDE must be defined (src/sbp/rhs.c: 0 order 2, 1 the order of the packed table)"
#endif
#if !defined(SBPMG_RHS_F) || !defined(SBPMG_RHS_G1) || !defined(SBPMG_RHS_G2) || !defined(SBPMG_RHS_G3) || !defined(SBPMG_RHS_G4) || !defined(SBPMG_RHS_EXACT)
#  error "SBPMG_RHS_F, SBPMG_RHS_G1..SBPMG_RHS_G4 and SBPMG_RHS_EXACT must be defined (src/sbp/rhs.c)"
#endif
#define RHS_MANUFACTURED (SBPMG_RHS_F == 0 || SBPMG_RHS_G1 == 0 || SBPMG_RHS_G2 == 0 || SBPMG_RHS_G3 == 0 || SBPMG_RHS_G4 == 0)
#if RHS_MANUFACTURED && SBPMG_COEF_MU > 1
#  error "the manufactured data need the gradient of mu: a built-in mu (src/sbp/rhs.c takes the host path otherwise)"
#endif

/* The manufactured solution and its gradient at (x, y). */
inline void rhs_exact(coef_real x, coef_real y, coef_real *u, coef_real *ux, coef_real *uy)
{
  coef_real       cx, cy;
  const coef_real sx = sincos(M_PI * x, &cx), sy = sincos(M_PI * y, &cy);

  *u  = sx * cy;
  *ux = M_PI * cx * cy;
  *uy = -M_PI * sx * sy;
}

#if RHS_MANUFACTURED
/* mu and its gradient at (x, y): the basin's (the derivative of coef_mu's tanh) or a constant's. */
inline coef_real rhs_mu_gradient(coef_real x, coef_real y, coef_real mu_value, coef_real *mux, coef_real *muy)
{
#  if SBPMG_COEF_MU == 0
  const coef_real muout = 36, muin = 20, Lw = 0.05, D = 0.05;
  const coef_real c = (Lw / 2) / D, rbar = (Lw / 2) * (Lw / 2), rw = 0.01 * (1 + (Lw / 2) / D);
  const coef_real xi = (x * x + c * c * y * y - rbar) / rw, t = tanh(xi), sech2 = 1 - t * t; /* coef_mu's tanh, once */

  *mux = (muout - muin) * x * sech2 / rw;
  *muy = (muout - muin) * c * c * y * sech2 / rw;
  return (muout - muin) / 2 * (t + 1) + muin;
#  else
  *mux = *muy = 0;
  return coef_mu(x, y, mu_value);
#  endif
}
#endif

/* f at node (i, j) of geometry X; fv: the values at the owned nodes (index k) where SBPMG_RHS_F is 3. */
inline coef_real rhs_forcing(const coef_real X[6], coef_real mu_value, __global const coef_real *fv, long k)
{
#if SBPMG_RHS_F == 0
  coef_real u, ux, uy, mux, muy, mu = rhs_mu_gradient(X[0], X[1], mu_value, &mux, &muy);
  rhs_exact(X[0], X[1], &u, &ux, &uy);
  return -(mux * ux + muy * uy) + 2 * M_PI * M_PI * mu * u;
#elif SBPMG_RHS_F == 1
  return 0;
#elif SBPMG_RHS_F == 2
  return sbp_user_forcing(X[0], X[1]);
#else
  return fv[k];
#endif
}

/* The user's source of face `face`'s data, where it is the source kind. */
inline coef_real rhs_user_boundary(int face, coef_real x, coef_real y, coef_real nx, coef_real ny)
{
#if SBPMG_RHS_G1 == 2
  if (face == 1) return sbp_user_boundary_1(x, y, nx, ny);
#endif
#if SBPMG_RHS_G2 == 2
  if (face == 2) return sbp_user_boundary_2(x, y, nx, ny);
#endif
#if SBPMG_RHS_G3 == 2
  if (face == 3) return sbp_user_boundary_3(x, y, nx, ny);
#endif
#if SBPMG_RHS_G4 == 2
  if (face == 4) return sbp_user_boundary_4(x, y, nx, ny);
#endif
  return 0;
}

/* Face `face`'s datum at its node t (the node (i, j)): gD on a Dirichlet face, gN = sJ n.(mu grad u) on a Neumann face. The
   outward normal scaled by the face Jacobian is (-ys, xs), (ys, -xs), (yr, -xr), (-yr, xr) on faces 1..4. */
inline coef_real rhs_face_datum(int face, int dirichlet, int i, int j, int t, coef_grid grid, coef_real mu_value, __global const coef_real *gv, int4 off)
{
  const int kind = face == 1 ? SBPMG_RHS_G1 : face == 2 ? SBPMG_RHS_G2 : face == 3 ? SBPMG_RHS_G3 : SBPMG_RHS_G4;
  coef_real X[6], nx, ny, sJ, v;

  if (kind == 1) return 0;
  coef_geometry(grid, i, j, X);
  nx = face == 1 ? -X[5] : face == 2 ? X[5] : face == 3 ? X[4] : -X[4];
  ny = face == 1 ? X[3] : face == 2 ? -X[3] : face == 3 ? -X[2] : X[2];
#if RHS_MANUFACTURED
  if (kind == 0) {
    coef_real u, ux, uy, mux, muy, mu = rhs_mu_gradient(X[0], X[1], mu_value, &mux, &muy);
    rhs_exact(X[0], X[1], &u, &ux, &uy);
    return dirichlet ? u : mu * (nx * ux + ny * uy);
  }
#endif
  sJ = sqrt(nx * nx + ny * ny);
  v  = kind == 2 ? rhs_user_boundary(face, X[0], X[1], nx / sJ, ny / sJ) : gv[(face == 1 ? off.s0 : face == 2 ? off.s1 : face == 3 ? off.s2 : off.s3) + t];
  return dirichlet ? v : sJ * v;
}

/* The Dirichlet SAT data of face `face` in row (i, j), given the coefficients on the patch (index (i - gxs) + gxm (j - gys)). */
inline coef_real rhs_dirichlet_row(int face, int i, int j, int Nr, int Ns, coef_grid grid, coef_real rho, coef_real mu_value, int gxs, int gys, int gxm,
                                   __global const coef_real *crr, __global const coef_real *css, __global const coef_real *crs, __global const coef_real *gv,
                                   int4 off)
{
  const int       rface = face <= 2, Nt = rface ? Ns : Nr, n0 = face == 1 ? 0 : face == 2 ? Nr : face == 3 ? 0 : Ns;
  const int       inward = (face == 1 || face == 3) ? 1 : -1, q = (rface ? i - n0 : j - n0) * inward, t = rface ? j : i;
  const coef_real sgn = (face == 1 || face == 3) ? 1 : -1;
  const int       fi = rface ? n0 : t, fj = rface ? t : n0;
  coef_real       cn, w, d, gD;

  if (q < 0 || q > 2) return 0; /* rows 0, 1, 2 from the face: the face node is in the patch (ghost width 2) */
#define RHS_P(ii, jj) ((long)(ii)-gxs + (long)gxm * ((long)(jj)-gys))
  cn = rface ? crr[RHS_P(fi, fj)] : css[RHS_P(fi, fj)];
  w  = (t == 0 || t == Nt) ? 0.5 : 1;
  d  = (rface ? rho : 1 / rho) * w * cn;
  gD = rhs_face_datum(face, 1, fi, fj, t, grid, mu_value, gv, off);
  if (q == 1) return 2 * d * gD;
  if (q == 2) return -0.5 * d * gD;
  {
    const int       tm = t > 0 ? t - 1 : t, tp = t < Nt ? t + 1 : t;
    const int       im = rface ? n0 : tm, jm = rface ? tm : n0, ip = rface ? n0 : tp, jp = rface ? tp : n0;
    const coef_real psi = fmin(cn, rface ? crr[RHS_P(fi + inward, fj)] : css[RHS_P(fi, fj + inward)]);
    const coef_real gDm = rhs_face_datum(face, 1, im, jm, tm, grid, mu_value, gv, off), gDp = rhs_face_datum(face, 1, ip, jp, tp, grid, mu_value, gv, off);

    return d * (4 + cn / psi - 1.5) * gD + sgn * sbp_qt(t, Nt, crs[RHS_P(im, jm)] * gDm, crs[RHS_P(fi, fj)] * gD, crs[RHS_P(ip, jp)] * gDp);
  }
#undef RHS_P
}

#if SBPMG_RHS_WIDE
/* The Dirichlet SAT data of face `face` in row (i, j) at the order of the table tab (spec-sbp-sat-highorder.md 4, with 3.4's
   notation): rows k = 1..nBS-1 lines in get -delta BS_k gD, the face row delta (Gamma^ - BS_0) gD + sigma (Q^T (b gD))_t along the face,
   Gamma^ = 2/theta_R + cn/(alpha psi), psi the least cn over l lines (3.2). The rank that holds the face row owns the lines it reads
   (src/sbp/setup.c: SbpProblemMinimumOwned nodes), the neighbours along the face are in the patch or owned (the closures). */
inline coef_real rhs_dirichlet_row_wide(int face, int i, int j, int Nr, int Ns, coef_grid grid, coef_real rho, coef_real mu_value, int gxs, int gys, int gxm,
                                        __global const coef_real *crr, __global const coef_real *css, __global const coef_real *crs,
                                        __global const coef_real *gv, int4 off, __global const coef_real *tab)
{
  const int       rface = face <= 2, Nt = rface ? Ns : Nr, n0 = face == 1 ? 0 : face == 2 ? Nr : face == 3 ? 0 : Ns;
  const int       inward = (face == 1 || face == 3) ? 1 : -1, k = (rface ? i - n0 : j - n0) * inward, t = rface ? j : i;
  const coef_real sgn = (face == 1 || face == 3) ? 1 : -1;
  const int       fi = rface ? n0 : t, fj = rface ? t : n0;
  coef_real       cn, d, gD, psi, s = 0;
  int             lo, hi;

  if (k < 0 || k >= SBP_TAB_INT(tab, SBP_T_NBS)) return 0;
#  define RHS_P(ii, jj) ((long)(ii)-gxs + (long)gxm * ((long)(jj)-gys))
  cn = rface ? crr[RHS_P(fi, fj)] : css[RHS_P(fi, fj)];
  d  = (rface ? rho : 1 / rho) * sbp_face_weight(tab, Nt, t) * cn;
  gD = rhs_face_datum(face, 1, fi, fj, t, grid, mu_value, gv, off);
  if (k > 0) return -d * tab[SBP_T_BS + k] * gD;
  psi = cn;
  for (int m = 1; m < SBP_TAB_INT(tab, SBP_T_L); m++) psi = fmin(psi, rface ? crr[RHS_P(n0 + inward * m, fj)] : css[RHS_P(fi, n0 + inward * m)]);
  sbp_face_qt_rows(tab, Nt, t, &lo, &hi);
  for (int tt = lo; tt <= hi; tt++) { /* (Q^T (b gD))_t along the face */
    const coef_real qv = sbp_face_q(tab, Nt, tt, t);
    const int       ii = rface ? n0 : tt, jj = rface ? tt : n0;
    if (qv != 0) s += qv * crs[RHS_P(ii, jj)] * rhs_face_datum(face, 1, ii, jj, tt, grid, mu_value, gv, off);
  }
  return d * (2 / tab[SBP_T_THETA] + cn / (tab[SBP_T_ALPHA] * psi) - tab[SBP_T_BS]) * gD + sgn * s;
#  undef RHS_P
}
#endif

/* g at the owned block (xm x ym nodes from (xs, ys), stored r fastest): J H f, then faces 1..4 in order (the order of the host
   path), Dirichlet data or H_f gN. fv: f at the owned nodes (SBPMG_RHS_F 3), gv: the faces' values one after the other from off. */
__kernel void rhs_build(int Nr, int Ns, coef_real hr, coef_real hs, coef_real rho, int dirichlet, coef_real mu_value, int xs, int ys, int xm, int ym, int gxs,
                        int gys, int gxm, int gym, __global const coef_real *nodes, __global const coef_real *crr, __global const coef_real *css,
                        __global const coef_real *crs, __global const coef_real *J, __global const coef_real *fv, __global const coef_real *gv, int4 off,
                        __global const coef_real *tab, __global coef_real *g)
{
  const int       a = get_global_id(0), b = get_global_id(1), i = xs + a, j = ys + b;
  const long      k    = a + (long)xm * b;
  const coef_grid grid = coef_grid_make(nodes, gxs, gys, gxm, gym, Nr, Ns, hr, hs);
  coef_real       X[6], v;

  if (a >= xm || b >= ym) return;
#if SBPMG_RHS_F == 1
  v = 0; /* no forcing: the interior costs one write (a time series of boundary data) */
#else
#  if SBPMG_RHS_F != 3
  coef_geometry(grid, i, j, X); /* the forcing at the physical point */
#  endif
#  if SBPMG_RHS_WIDE
  v = J[(i - gxs) + (long)gxm * (j - gys)] * sbp_face_norm_weight(tab, i, j, Nr, Ns, hr, hs) * rhs_forcing(X, mu_value, fv, k);
#  else
  v = J[(i - gxs) + (long)gxm * (j - gys)] * sbp_norm_weight(i, j, Nr, Ns, hr, hs, 0, 1) * rhs_forcing(X, mu_value, fv, k);
#  endif
#endif
  for (int face = 1; face <= 4; face++) {
    const int on = (face == 1 && i == 0) || (face == 2 && i == Nr) || (face == 3 && j == 0) || (face == 4 && j == Ns);
#if SBPMG_RHS_WIDE
    if (dirichlet & (1 << (face - 1)))
      v += rhs_dirichlet_row_wide(face, i, j, Nr, Ns, grid, rho, mu_value, gxs, gys, gxm, crr, css, crs, gv, off, tab);
    else if (on) {
      const coef_real w = face <= 2 ? hs * sbp_face_weight(tab, Ns, j) : hr * sbp_face_weight(tab, Nr, i); /* H_f (4) */
#else
    if (dirichlet & (1 << (face - 1)))
      v += rhs_dirichlet_row(face, i, j, Nr, Ns, grid, rho, mu_value, gxs, gys, gxm, crr, css, crs, gv, off);
    else if (on) {
      const coef_real w = face <= 2 ? hs * ((j == 0 || j == Ns) ? 0.5 : 1) : hr * ((i == 0 || i == Nr) ? 0.5 : 1);
#endif
      v += w * rhs_face_datum(face, 0, i, j, face <= 2 ? j : i, grid, mu_value, gv, off);
    }
  }
  g[k] = v;
}

/* The exact solution at the owned block (xm x ym nodes from (xs, ys), stored r fastest), the manufactured one or the user's source:
   SbpProblemComputeExactSolution() and the error norms on the device (src/sbp/exact.c). */
__kernel void rhs_exact_nodes(int Nr, int Ns, coef_real hr, coef_real hs, int xs, int ys, int xm, int ym, int gxs, int gys, int gxm, int gym,
                              __global const coef_real *nodes, __global coef_real *u)
{
  const int       a = get_global_id(0), b = get_global_id(1);
  const coef_grid grid = coef_grid_make(nodes, gxs, gys, gxm, gym, Nr, Ns, hr, hs);
  coef_real       X[6], v, vx, vy;

  if (a >= xm || b >= ym) return;
  coef_geometry(grid, xs + a, ys + b, X);
#if SBPMG_RHS_EXACT == 2
  v = sbp_user_exact(X[0], X[1]);
#else
  rhs_exact(X[0], X[1], &v, &vx, &vy);
#endif
  u[a + (long)xm * b] = v;
}

#if SBPMG_RHS_WIDE
/* The weights of the owned block (xm x ym nodes from (xs, ys)) in H~ and in J H at the order of the table tab (spec-sbp-sat-highorder.md
   5 and 4): the error norms and the all-Neumann compatibility of orders 4 and 6 (src/sbp/exact.c, rhs.c). J on the patch. */
__kernel void rhs_norm_weights(int Nr, int Ns, coef_real hr, coef_real hs, int xs, int ys, int xm, int ym, int gxs, int gys, int gxm,
                               __global const coef_real *J, __global const coef_real *tab, __global coef_real *w, __global coef_real *jw)
{
  const int  a = get_global_id(0), b = get_global_id(1), i = xs + a, j = ys + b;
  const long k = a + (long)xm * b;

  if (a >= xm || b >= ym) return;
  w[k]  = sbp_face_norm_weight(tab, i, j, Nr, Ns, hr, hs);
  jw[k] = J[(i - gxs) + (long)gxm * (j - gys)] * w[k];
}
#endif
