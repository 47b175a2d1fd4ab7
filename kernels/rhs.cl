/* The right-hand side on the device (docs/guide.md "The right-hand side"): b = J H f + for each Dirichlet face the SAT data
   terms + for each Neumann face H_f gN, one work-item per owned node summing every term of its row (the gather form of
   kernels/sbp.cl's operator: no atomics). Built after kernels/sbp.cl (the norm weights, Q^T) and kernels/coef.cl (the mapping
   and mu), with their specialisations. The data are those of the manufactured solution u = sin(pi x) cos(pi y): f = -div(mu
   grad u), gD = u, gN = n.(mu grad u) scaled by the face's Jacobian, with the gradient of the built-in mu (COEF_MU 0 or 1). */
#if COEF_MU > 1
  #error "the manufactured right-hand side needs the gradient of mu: a built-in mu (src/sbp chooses the host path otherwise)"
#endif

/* The manufactured solution and its gradient at (x, y). */
inline void rhs_exact(coef_real x, coef_real y, coef_real *u, coef_real *ux, coef_real *uy)
{
  *u  = sin(M_PI * x) * cos(M_PI * y);
  *ux = M_PI * cos(M_PI * x) * cos(M_PI * y);
  *uy = -M_PI * sin(M_PI * x) * sin(M_PI * y);
}

/* mu and its gradient at (x, y): the basin's (the derivative of coef_mu's tanh) or a constant's. */
inline coef_real rhs_mu_gradient(coef_real x, coef_real y, coef_real mu_value, coef_real *mux, coef_real *muy)
{
#if COEF_MU == 0
  const coef_real muout = 36, muin = 20, Lw = 0.05, D = 0.05;
  const coef_real c = (Lw / 2) / D, rbar = (Lw / 2) * (Lw / 2), rw = 0.01 * (1 + (Lw / 2) / D);
  const coef_real xi = (x * x + c * c * y * y - rbar) / rw, sech = 1 / cosh(xi);

  *mux = (muout - muin) * x * sech * sech / rw;
  *muy = (muout - muin) * c * c * y * sech * sech / rw;
#else
  *mux = *muy = 0;
#endif
  return coef_mu(x, y, mu_value);
}

/* The data at node (i, j): f there, and on face `face` gD and gN (the outward normal scaled by the face Jacobian: (-ys, xs),
   (ys, -xs), (yr, -xr), (-yr, xr) on faces 1..4). */
inline void rhs_node_data(int i, int j, int face, coef_real hr, coef_real hs, coef_real mu_value, coef_real *f, coef_real *gD, coef_real *gN)
{
  coef_real X[6], u, ux, uy, mux, muy, mu, nx, ny;

  coef_mapping(-1 + i * hr, -1 + j * hs, X);
  mu = rhs_mu_gradient(X[0], X[1], mu_value, &mux, &muy);
  rhs_exact(X[0], X[1], &u, &ux, &uy);
  *f  = -(mux * ux + muy * uy) + 2 * M_PI * M_PI * mu * u;
  *gD = u;
  nx  = face == 1 ? -X[5] : face == 2 ? X[5] : face == 3 ? X[4] : -X[4];
  ny  = face == 1 ? X[3] : face == 2 ? -X[3] : face == 3 ? -X[2] : X[2];
  *gN = mu * (nx * ux + ny * uy);
}

/* The Dirichlet SAT data of face `face` in row (i, j), given the coefficients on the patch (index (i - gxs) + gxm (j - gys)). */
inline coef_real rhs_dirichlet_row(int face, int i, int j, int Nr, int Ns, coef_real hr, coef_real hs, coef_real rho, coef_real mu_value, int gxs, int gys,
                                   int gxm, __global const coef_real *crr, __global const coef_real *css, __global const coef_real *crs)
{
  const int       rface = face <= 2, Nt = rface ? Ns : Nr, n0 = face == 1 ? 0 : face == 2 ? Nr : face == 3 ? 0 : Ns;
  const int       inward = (face == 1 || face == 3) ? 1 : -1, q = (rface ? i - n0 : j - n0) * inward, t = rface ? j : i;
  const coef_real sgn = (face == 1 || face == 3) ? 1 : -1;
  const int       fi = rface ? n0 : t, fj = rface ? t : n0;
  coef_real       cn, w, d, f, gD, gN;

  if (q < 0 || q > 2) return 0; /* rows 0, 1, 2 from the face: the face node is in the patch (ghost width 2) */
#define RHS_P(ii, jj) ((long)(ii) - gxs + (long)gxm * ((long)(jj) - gys))
  cn = rface ? crr[RHS_P(fi, fj)] : css[RHS_P(fi, fj)];
  w  = (t == 0 || t == Nt) ? 0.5 : 1;
  d  = (rface ? rho : 1 / rho) * w * cn;
  rhs_node_data(fi, fj, face, hr, hs, mu_value, &f, &gD, &gN);
  if (q == 1) return 2 * d * gD;
  if (q == 2) return -0.5 * d * gD;
  {
    const int       tm = t > 0 ? t - 1 : t, tp = t < Nt ? t + 1 : t;
    const int       im = rface ? n0 : tm, jm = rface ? tm : n0, ip = rface ? n0 : tp, jp = rface ? tp : n0;
    const coef_real psi = fmin(cn, rface ? crr[RHS_P(fi + inward, fj)] : css[RHS_P(fi, fj + inward)]);
    coef_real       gDm, gDp;

    rhs_node_data(im, jm, face, hr, hs, mu_value, &f, &gDm, &gN);
    rhs_node_data(ip, jp, face, hr, hs, mu_value, &f, &gDp, &gN);
    return d * (4 + cn / psi - 1.5) * gD + sgn * sbp_qt(t, Nt, crs[RHS_P(im, jm)] * gDm, crs[RHS_P(fi, fj)] * gD, crs[RHS_P(ip, jp)] * gDp);
  }
#undef RHS_P
}

/* g at the owned block (xm x ym nodes from (xs, ys), stored r fastest): J H f, then faces 1..4 in order (the order of the host
   path), Dirichlet data or H_f gN. */
__kernel void rhs_manufactured(int Nr, int Ns, coef_real hr, coef_real hs, coef_real rho, int dirichlet, coef_real mu_value, int xs, int ys, int xm, int ym,
                               int gxs, int gys, int gxm, __global const coef_real *crr, __global const coef_real *css, __global const coef_real *crs,
                               __global const coef_real *J, __global coef_real *g)
{
  const int a = get_global_id(0), b = get_global_id(1), i = xs + a, j = ys + b;
  coef_real f, gD, gN, v;

  if (a >= xm || b >= ym) return;
  rhs_node_data(i, j, 1, hr, hs, mu_value, &f, &gD, &gN);
  v = J[(i - gxs) + (long)gxm * (j - gys)] * sbp_norm_weight(i, j, Nr, Ns, hr, hs, 0, 1) * f;
  for (int face = 1; face <= 4; face++) {
    const int on = (face == 1 && i == 0) || (face == 2 && i == Nr) || (face == 3 && j == 0) || (face == 4 && j == Ns);
    if (dirichlet & (1 << (face - 1))) v += rhs_dirichlet_row(face, i, j, Nr, Ns, hr, hs, rho, mu_value, gxs, gys, gxm, crr, css, crs);
    else if (on) {
      const coef_real w = face <= 2 ? hs * ((j == 0 || j == Ns) ? 0.5 : 1) : hr * ((i == 0 || i == Nr) ? 0.5 : 1);
      rhs_node_data(i, j, face, hr, hs, mu_value, &f, &gD, &gN);
      v += w * gN;
    }
  }
  g[a + (long)xm * b] = v;
}
