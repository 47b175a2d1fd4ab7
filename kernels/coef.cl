/* The coefficients of the SBP-SAT operator generated on the device (docs/design.md "Set-up on the device"): at every node
   of a rank's ghosted patch, the mapping X = (x, y, x_r, x_s, y_r, y_s) at (r, s) = (-1 + i hr, -1 + j hs), mu at (x, y),
   then J = x_r y_s - x_s y_r and crr, crs, css (docs/guide.md "The PDE"), or a user's metric function; and the first node,
   in natural order, where they are invalid (mu, J, crr, css > 0, crr css - crs^2 > 0, all finite).

   Specialisation (set by src/sbp, no defaults): SBPMG_COEF_MAP 0 curved, 1 square, 2 the user's sbp_user_mapping(), 3 node
   coordinates, 4 the user's host function tabulated at the box's nodes; SBPMG_COEF_MU 0 basin, 1 constant (the kernel argument mu_value), 2 the user's sbp_user_mu(), 3 values at the nodes;
   SBPMG_COEF_METRIC 0 the formula above, 1 the user's sbp_user_metric(); SBPMG_COEF_DORDER the derivative of node coordinates: 2 the
   SBP derivative of interior order 4 and boundary order 2, 4 or 6 a derivative of that order at every node (the problem's SBP order;
   2 where the mapping is not node coordinates: no derivative is taken). The buffer `nodes` (src/sbp/nodes.c) holds the nodal data
   on the rank's box, the ghosted patch grown by 3 nodes within the grid: for node coordinates or mu at the nodes x, y, mu one
   after the other (the derivatives of node coordinates are an SBP first derivative D, docs/guide.md "Bringing a problem"); for
   the curved map (after those, where mu is at the nodes) the sine and cosine of pi (r + 1) / 2 at the box's values of r, then of pi (s + 1) / 2 at its values of s, so
   that no node evaluates a sine; for a tabulated mapping (there likewise) X[0..5] at the box's nodes, six planes one after the other. A user's functions are OpenCL C source placed before this file (SbpProblemSetMappingSource()
   and friends), with the signatures
     void   sbp_user_mapping(double r, double s, double X[6]);
     double sbp_user_mu(double x, double y);
     void   sbp_user_metric(double r, double s, const double X[6], double mu, double c[4]);   c = crr, css, crs, J */
#if !defined(SBPMG_COEF_MAP) || !defined(SBPMG_COEF_MU) || !defined(SBPMG_COEF_METRIC)
#  error "SBPMG_COEF_MAP, SBPMG_COEF_MU and SBPMG_COEF_METRIC must be defined (src/sbp sets them)"
#endif
#if !defined(SBPMG_COEF_DORDER) || (SBPMG_COEF_DORDER != 2 && SBPMG_COEF_DORDER != 4 && SBPMG_COEF_DORDER != 6)
#  error "SBPMG_COEF_DORDER must be defined as 2, 4 or 6 (src/sbp/programs.c sets it)"
#endif
#if !defined(SBPMG_COEF_KERNELS)
#  error "SBPMG_COEF_KERNELS must be defined (src/sbp: which kernels a program holds: 1 the set-up's, 2 coef_describe, 4 coef_coordinates, 8 coef_mapping_table; 0 none, the right-hand side's program)"
#endif
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double           coef_real;

/* The curved quadrilateral: corners and bump amplitude. */
__constant coef_real coef_cx[4] = {-0.3, 0.5, 0.0, 1.0};
__constant coef_real coef_cy[4] = {0.0, -0.25, 1.0, 1.5};
#define COEF_BETA 0.1

/* Edge e (1..4) at parameter t: the point (x, y) and its derivative (dx, dy) along the edge; S and Cs are sin and cos of
   pi (t + 1) / 2 (computed once per parameter: edges 1 and 2 share s, 3 and 4 share r; edge 4's full period is their double
   angle). */
inline void coef_edge(int e, coef_real t, coef_real S, coef_real Cs, coef_real *x, coef_real *y, coef_real *dx, coef_real *dy)
{
  const coef_real m = (1 - t) / 2, p = (1 + t) / 2, C = (M_PI / 2) * Cs;

  if (e == 1) {
    *x  = coef_cx[0] * m + coef_cx[2] * p + COEF_BETA * S;
    *y  = coef_cy[0] * m + coef_cy[2] * p;
    *dx = (coef_cx[2] - coef_cx[0]) / 2 + COEF_BETA * C;
    *dy = (coef_cy[2] - coef_cy[0]) / 2;
  } else if (e == 2) {
    *x  = coef_cx[1] * m + coef_cx[3] * p - COEF_BETA * S;
    *y  = coef_cy[1] * m + coef_cy[3] * p;
    *dx = (coef_cx[3] - coef_cx[1]) / 2 - COEF_BETA * C;
    *dy = (coef_cy[3] - coef_cy[1]) / 2;
  } else if (e == 3) {
    *x  = coef_cx[0] * m + coef_cx[1] * p;
    *y  = coef_cy[0] * m + coef_cy[1] * p + COEF_BETA * S;
    *dx = (coef_cx[1] - coef_cx[0]) / 2;
    *dy = (coef_cy[1] - coef_cy[0]) / 2 + COEF_BETA * C;
  } else { /* edge 4: a full sine period, sin(pi (t + 1)) = 2 S Cs, cos(pi (t + 1)) = Cs^2 - S^2 */
    *x  = coef_cx[2] * m + coef_cx[3] * p;
    *y  = coef_cy[2] * m + coef_cy[3] * p + COEF_BETA * 2 * S * Cs;
    *dx = (coef_cx[3] - coef_cx[2]) / 2;
    *dy = (coef_cy[3] - coef_cy[2]) / 2 + COEF_BETA * M_PI * (Cs * Cs - S * S);
  }
}

/* Transfinite blend of one component: edge values E[1..4], edge derivatives dE[1..4], corner values K. */
inline void coef_blend(coef_real r, coef_real s, const coef_real E[5], const coef_real dE[5], __constant coef_real *K, coef_real *v, coef_real *vr,
                       coef_real *vs)
{
  *v = (1 - r) / 2 * E[1] + (1 + r) / 2 * E[2] + (1 - s) / 2 * E[3] + (1 + s) / 2 * E[4] -
       ((1 - r) * (1 - s) * K[0] + (1 + r) * (1 - s) * K[1] + (1 - r) * (1 + s) * K[2] + (1 + r) * (1 + s) * K[3]) / 4;
  *vr = (E[2] - E[1]) / 2 + (1 - s) / 2 * dE[3] + (1 + s) / 2 * dE[4] - (-(1 - s) * K[0] + (1 - s) * K[1] - (1 + s) * K[2] + (1 + s) * K[3]) / 4;
  *vs = (1 - r) / 2 * dE[1] + (1 + r) / 2 * dE[2] + (E[4] - E[3]) / 2 - (-(1 - r) * K[0] - (1 + r) * K[1] + (1 - r) * K[2] + (1 + r) * K[3]) / 4;
}

#if SBPMG_COEF_MAP == 0
/* The curved quadrilateral at (r, s), from Sr, Cr = sin, cos of pi (r + 1) / 2 and Ss, Cs the same of s (a table: coef_geometry()). */
inline void coef_curved(coef_real r, coef_real s, coef_real Sr, coef_real Cr, coef_real Ss, coef_real Cs, coef_real X[6])
{
  coef_real Ex[5], Ey[5], dEx[5], dEy[5];

  coef_edge(1, s, Ss, Cs, &Ex[1], &Ey[1], &dEx[1], &dEy[1]);
  coef_edge(2, s, Ss, Cs, &Ex[2], &Ey[2], &dEx[2], &dEy[2]);
  coef_edge(3, r, Sr, Cr, &Ex[3], &Ey[3], &dEx[3], &dEy[3]);
  coef_edge(4, r, Sr, Cr, &Ex[4], &Ey[4], &dEx[4], &dEy[4]);
  coef_blend(r, s, Ex, dEx, coef_cx, &X[0], &X[2], &X[3]);
  coef_blend(r, s, Ey, dEy, coef_cy, &X[1], &X[4], &X[5]);
}
#elif SBPMG_COEF_MAP == 1 || SBPMG_COEF_MAP == 2 /* node coordinates and tables: coef_geometry() reads them */
inline void coef_mapping(coef_real r, coef_real s, coef_real X[6])
{
#  if SBPMG_COEF_MAP == 1
  X[0] = r;
  X[1] = s;
  X[2] = 1;
  X[3] = 0;
  X[4] = 0;
  X[5] = 1;
#  else
  sbp_user_mapping(r, s, X);
#  endif
}
#endif

/* mu at (x, y): the smoothed elliptical basin, a constant, or the user's. */
#if SBPMG_COEF_MU != 3 /* mu at the nodes: coef_mu_node() reads it */
inline coef_real coef_mu(coef_real x, coef_real y, coef_real mu_value)
{
#  if SBPMG_COEF_MU == 0
  const coef_real muout = 36, muin = 20, Lw = 0.05, D = 0.05;
  const coef_real c = (Lw / 2) / D, rbar = (Lw / 2) * (Lw / 2), rw = 0.01 * (1 + (Lw / 2) / D);
  const coef_real xi = (x * x + c * c * y * y - rbar) / rw;
  return (muout - muin) / 2 * (tanh(xi) + 1) + muin;
#  elif SBPMG_COEF_MU == 1
  return mu_value;
#  else
  return sbp_user_mu(x, y);
#  endif
}
#endif

/* The grid of a rank: its sizes and spacings, and the nodal data on its box (from the patch gxm x gym at (gxs, gys)). */
typedef struct {
  __global const coef_real *v;
  int                       xs, ys, xm, ym, Nr, Ns;
  coef_real                 hr, hs;
} coef_grid;

inline coef_grid coef_grid_make(__global const coef_real *v, int gxs, int gys, int gxm, int gym, int Nr, int Ns, coef_real hr, coef_real hs)
{
  coef_grid g;

  g.v  = v;
  g.xs = max(gxs - 3, 0); /* the box: the patch grown by 3 nodes, the derivative's widest reach (src/sbp/nodes.c) */
  g.ys = max(gys - 3, 0);
  g.xm = min(gxs + gxm + 3, Nr + 1) - g.xs;
  g.ym = min(gys + gym + 3, Ns + 1) - g.ys;
  g.Nr = Nr;
  g.Ns = Ns;
  g.hr = hr;
  g.hs = hs;
  return g;
}

/* Field f (0 x, 1 y, 2 mu) at node (i, j) of the box. */
inline coef_real coef_nodal(coef_grid g, int f, int i, int j)
{
  return g.v[f * (long)g.xm * g.ym + (i - g.xs) + (long)g.xm * (j - g.ys)];
}

/* The diagonal-norm SBP first derivative of interior order 4, boundary order 2 (src/sbp/nodes.c has the same): the closure's rows
   0..3, mirrored with the sign changed at the far end; the second-order operator where a direction has fewer than 8 intervals. */
__constant coef_real coef_d42[4][6] = {{-24.0 / 17, 59.0 / 34, -4.0 / 17, -3.0 / 34, 0, 0},
                                       {-0.5, 0, 0.5, 0, 0, 0},
                                       {4.0 / 43, -59.0 / 86, 0, 59.0 / 86, -4.0 / 43, 0},
                                       {3.0 / 98, 0, -59.0 / 98, 0, 32.0 / 49, -4.0 / 49}};

#if SBPMG_COEF_DORDER > 2
/* At SBP order p = 4, 6 (SBPMG_COEF_DORDER) a derivative of order p at every node, not SBP (src/sbp/nodes.c has the same; docs/guide.md
   "Bringing a problem"): row r < p/2 the weights of nodes 0..p at node r (the derivative of their interpolating polynomial), mirrored
   with the sign changed at the far end; row p/2 the centred stencil's weights of offsets 1..p/2 (antisymmetric). */
#  if SBPMG_COEF_DORDER == 4
__constant coef_real coef_dp[3][7] = {{-25.0 / 12, 4, -3, 4.0 / 3, -1.0 / 4, 0, 0},
                                      {-1.0 / 4, -5.0 / 6, 3.0 / 2, -1.0 / 2, 1.0 / 12, 0, 0},
                                      {2.0 / 3, -1.0 / 12, 0, 0, 0, 0, 0}};
#  else
__constant coef_real coef_dp[4][7] = {{-49.0 / 20, 6, -15.0 / 2, 20.0 / 3, -15.0 / 4, 6.0 / 5, -1.0 / 6},
                                      {-1.0 / 6, -77.0 / 60, 5.0 / 2, -5.0 / 3, 5.0 / 6, -1.0 / 4, 1.0 / 30},
                                      {1.0 / 30, -2.0 / 5, -7.0 / 12, 4.0 / 3, -1.0 / 2, 2.0 / 15, -1.0 / 60},
                                      {3.0 / 4, -3.0 / 20, 1.0 / 60, 0, 0, 0, 0}};
#  endif
#endif

/* D of field f along r (dir 0) or s (dir 1) at node (i, j). */
inline coef_real coef_nodal_d(coef_grid g, int f, int dir, int i, int j)
{
  const int       n = dir ? j : i, N = dir ? g.Ns : g.Nr, di = dir ? 0 : 1, dj = dir ? 1 : 0;
  const coef_real h = dir ? g.hs : g.hr;
#define COEF_U(o) coef_nodal(g, f, i + (o)*di, j + (o)*dj)

#if SBPMG_COEF_DORDER > 2
  if (N >= SBPMG_COEF_DORDER) { /* the order's minimum (11 or 17 intervals) always has it */
    const int q = SBPMG_COEF_DORDER / 2;
    coef_real d = 0;
    if (n < q || n > N - q) {
      const int row = n < q ? n : N - n, sign = n < q ? 1 : -1;
      for (int k = 0; k <= SBPMG_COEF_DORDER; k++) d += coef_dp[row][k] * COEF_U(sign * (k - row));
      return sign * d / h;
    }
    for (int k = 1; k <= q; k++) d += coef_dp[q][k - 1] * (COEF_U(k) - COEF_U(-k));
    return d / h;
  }
#endif
  if (N < 8) {
    if (n == 0) return (COEF_U(1) - COEF_U(0)) / h;
    if (n == N) return (COEF_U(0) - COEF_U(-1)) / h;
    return (COEF_U(1) - COEF_U(-1)) / (2 * h);
  }
  if (n < 4 || n > N - 4) {
    const int row = n < 4 ? n : N - n, sign = n < 4 ? 1 : -1;
    coef_real d = 0;
    for (int k = 0; k < 6; k++) d += coef_d42[row][k] * COEF_U(sign * (k - row));
    return sign * d / h;
  }
  return (COEF_U(-2) / 12 - 2 * COEF_U(-1) / 3 + 2 * COEF_U(1) / 3 - COEF_U(2) / 12) / h;
#undef COEF_U
}

/* X = (x, y, x_r, x_s, y_r, y_s) at node (i, j). */
inline void coef_geometry(coef_grid g, int i, int j, coef_real X[6])
{
#if SBPMG_COEF_MAP == 3
  X[0] = coef_nodal(g, 0, i, j);
  X[1] = coef_nodal(g, 1, i, j);
  X[2] = coef_nodal_d(g, 0, 0, i, j);
  X[3] = coef_nodal_d(g, 0, 1, i, j);
  X[4] = coef_nodal_d(g, 1, 0, i, j);
  X[5] = coef_nodal_d(g, 1, 1, i, j);
#elif SBPMG_COEF_MAP == 0 /* the box's table (after mu at the nodes, where there are): sin, cos of pi (r + 1) / 2 at its values of r, then of s */
  __global const coef_real *t = g.v + (SBPMG_COEF_MU == 3 ? 3 * (long)g.xm * g.ym : 0);
  const long                a = 2 * (long)(i - g.xs), b = 2 * ((long)g.xm + (j - g.ys));
  coef_curved(-1 + i * g.hr, -1 + j * g.hs, t[a], t[a + 1], t[b], t[b + 1], X);
#elif SBPMG_COEF_MAP == 4 /* the table of the host's mapping function (after mu at the nodes, where there are): X[c] in plane c */
  __global const coef_real *t = g.v + (SBPMG_COEF_MU == 3 ? 3 * (long)g.xm * g.ym : 0);
  const long                k = (i - g.xs) + (long)g.xm * (j - g.ys), n = (long)g.xm * g.ym;
  for (int c = 0; c < 6; c++) X[c] = t[c * n + k];
#else
  coef_mapping(-1 + i * g.hr, -1 + j * g.hs, X);
#endif
}

/* mu at node (i, j) of geometry X. */
inline coef_real coef_mu_node(coef_grid g, int i, int j, const coef_real X[6], coef_real mu_value)
{
#if SBPMG_COEF_MU == 3
  return coef_nodal(g, 2, i, j);
#else
  return coef_mu(X[0], X[1], mu_value);
#endif
}

/* The four coefficients at node (i, j) and mu there; returns mu. */
inline coef_real coef_point(coef_grid g, int i, int j, coef_real mu_value, coef_real c[4])
{
  coef_real X[6], mu, J;

  coef_geometry(g, i, j, X);
  mu = coef_mu_node(g, i, j, X, mu_value);
#if SBPMG_COEF_METRIC == 1
  sbp_user_metric(-1 + i * g.hr, -1 + j * g.hs, X, mu, c);
#else
  J    = X[2] * X[5] - X[3] * X[4];
  c[3] = J;
  c[0] = mu * (X[3] * X[3] + X[5] * X[5]) / J;
  c[2] = -mu * (X[2] * X[3] + X[4] * X[5]) / J;
  c[1] = mu * (X[2] * X[2] + X[4] * X[4]) / J;
#endif
  return mu;
}

/* Which check fails at a node (-1: none): 4 mu, 0 J, 1 crr, 2 css, 5 crs not finite, 3 crr css - crs^2; its value in *v. The
   order and codes are those of the host check (src/sbp, SbpCheckNode), so both name the same quantity. */
inline int coef_check(coef_real mu, const coef_real c[4], coef_real *v)
{
  const coef_real det = c[0] * c[1] - c[2] * c[2];

  if (!(mu >= 1e-30 && mu <= 1e30)) return *v = mu, 4; /* src/sbp's SBP_MU_MIN, SBP_MU_MAX */
  if (!(c[3] > 0) || isinf(c[3])) return *v = c[3], 0;
  if (!(c[0] > 0) || isinf(c[0])) return *v = c[0], 1;
  if (!(c[1] > 0) || isinf(c[1])) return *v = c[1], 2;
  if (isnan(c[2]) || isinf(c[2])) return *v = c[2], 5;
  if (!(det > 0)) return *v = det, 3;
  return -1;
}

/* One work-item per node (i, j) of the gxm x gym patch whose first node is (gxs, gys): crr, css, crs, J at patch index
   (i - gxs) + gxm (j - gys), and atomic_min of the natural index i + (Nr + 1) j of an invalid node into *bad. */
#if SBPMG_COEF_KERNELS & 1
__kernel void coef_generate(int gxs, int gys, int gxm, int gym, int Nr, int Ns, coef_real hr, coef_real hs, coef_real mu_value, __global const coef_real *nodes,
                            __global coef_real *crr, __global coef_real *css, __global coef_real *crs, __global coef_real *J, __global int *bad)
{
  const int       a = get_global_id(0), b = get_global_id(1);
  const coef_grid g = coef_grid_make(nodes, gxs, gys, gxm, gym, Nr, Ns, hr, hs);
  coef_real       c[4], mu, v;
  long            k;

  if (a >= gxm || b >= gym) return;
  mu     = coef_point(g, gxs + a, gys + b, mu_value, c);
  k      = a + (long)gxm * b;
  crr[k] = c[0];
  css[k] = c[1];
  crs[k] = c[2];
  J[k]   = c[3];
  if (coef_check(mu, c, &v) >= 0) atomic_min(bad, (gxs + a) + (Nr + 1) * (gys + b));
}
#endif

/* The check at one node (one work-item), for the error message: out[0] the failed check's code, out[1] its value. */
#if SBPMG_COEF_KERNELS & 2
__kernel void coef_describe(int i, int j, int gxs, int gys, int gxm, int gym, int Nr, int Ns, coef_real hr, coef_real hs, coef_real mu_value,
                            __global const coef_real *nodes, __global coef_real *out)
{
  const coef_grid g = coef_grid_make(nodes, gxs, gys, gxm, gym, Nr, Ns, hr, hs);
  coef_real       c[4], mu, v = 0;

  mu     = coef_point(g, i, j, mu_value, c);
  out[0] = coef_check(mu, c, &v);
  out[1] = v;
}
#endif

/* The physical coordinates of the owned nodes (xm x ym from (xs, ys)) at owned index (i - xs) + xm (j - ys), for
   SbpProblemGetCoordinates(): the geometry the coefficients are made of; one work-item per owned node. */
#if SBPMG_COEF_KERNELS & 4
__kernel void coef_coordinates(int xs, int ys, int xm, int ym, int gxs, int gys, int gxm, int gym, int Nr, int Ns, coef_real hr, coef_real hs,
                               __global const coef_real *nodes, __global coef_real *x, __global coef_real *y)
{
  const int       a = get_global_id(0), b = get_global_id(1);
  const coef_grid g = coef_grid_make(nodes, gxs, gys, gxm, gym, Nr, Ns, hr, hs);
  coef_real       X[6];

  if (a >= xm || b >= ym) return;
  coef_geometry(g, xs + a, ys + b, X);
  x[a + (long)xm * b] = X[0];
  y[a + (long)xm * b] = X[1];
}
#endif

/* The mapping X = (x, y, x_r, x_s, y_r, y_s) at every node of the box (the ghosted patch gxm x gym at (gxs, gys) grown by 3 nodes
   within the grid), plane c holding X[c] at box index (i - bxs) + bxm (j - bys): the host's copy of a mapping given only as OpenCL
   source, where host functions are evaluated at the nodes (src/sbp/nodes.c); one work-item per node of the box. */
#if SBPMG_COEF_KERNELS & 8
__kernel void coef_mapping_table(int gxs, int gys, int gxm, int gym, int Nr, int Ns, coef_real hr, coef_real hs, __global const coef_real *nodes,
                                 __global coef_real *table)
{
  const int       a = get_global_id(0), b = get_global_id(1);
  const coef_grid g = coef_grid_make(nodes, gxs, gys, gxm, gym, Nr, Ns, hr, hs);
  const long      n = (long)g.xm * g.ym;
  coef_real       X[6];

  if (a >= g.xm || b >= g.ym) return;
  coef_geometry(g, g.xs + a, g.ys + b, X);
  for (int c = 0; c < 6; c++) table[c * n + a + (long)g.xm * b] = X[c];
}
#endif

/* A coarse level's coefficients injected from the fine level's (docs/design.md "Set-up on the device"): coarse node (I, J) is
   fine node (2I, 2J), so the values of point functions are the fine ones exactly; one work-item per node of the coarse patch
   (gxm x gym from (gxs, gys)) whose fine node lies in the fine patch (fgxm x fgym from (fgxs, fgys)); the others are left to
   the caller (several ranks: the ghost exchange). */
#if SBPMG_COEF_KERNELS & 1
__kernel void coef_inject(int gxs, int gys, int gxm, int gym, int fgxs, int fgys, int fgxm, int fgym, __global const coef_real *fine,
                          __global coef_real *coarse)
{
  const int a = get_global_id(0), b = get_global_id(1);
  const int fi = 2 * (gxs + a) - fgxs, fj = 2 * (gys + b) - fgys;

  if (a >= gxm || b >= gym || fi < 0 || fj < 0 || fi >= fgxm || fj >= fgym) return;
  coarse[a + (long)gxm * b] = fine[fi + (long)fgxm * fj];
}
#endif

/* The coefficients rounded to fp32 (the multigrid levels' copies). */
#if SBPMG_COEF_KERNELS & 1
__kernel void coef_to_float(long n, __global const coef_real *x, __global float *y)
{
  for (long k = get_global_id(0); k < n; k += get_global_size(0)) y[k] = (float)x[k];
}
#endif
