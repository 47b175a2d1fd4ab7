/* The coefficients of the SBP-SAT operator generated on the device (docs/design.md "Set-up on the device"): at every node
   of a rank's ghosted patch, the mapping X = (x, y, x_r, x_s, y_r, y_s) at (r, s) = (-1 + i hr, -1 + j hs), mu at (x, y),
   then J = x_r y_s - x_s y_r and crr, crs, css (docs/guide.md "The PDE"), or a user's metric function; and the first node,
   in natural order, where they are invalid (mu, J, crr, css > 0, crr css - crs^2 > 0, all finite).

   Specialisation (set by src/sbp, no defaults): COEF_MAP 0 curved, 1 square, 2 the user's sbp_user_mapping(); COEF_MU 0
   basin, 1 constant (the kernel argument mu_value), 2 the user's sbp_user_mu(); COEF_METRIC 0 the formula above, 1 the
   user's sbp_user_metric(). A user's functions are OpenCL C source placed before this file (SbpProblemSetMappingSource()
   and friends), with the signatures
     void     sbp_user_mapping(double r, double s, double X[6]);
     double   sbp_user_mu(double x, double y);
     void     sbp_user_metric(double r, double s, const double X[6], double mu, double c[4]);  c = crr, css, crs, J */
#if !defined(COEF_MAP) || !defined(COEF_MU) || !defined(COEF_METRIC)
  #error "COEF_MAP, COEF_MU and COEF_METRIC must be defined (src/sbp sets them)"
#endif
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double coef_real;

/* The curved quadrilateral: corners and bump amplitude. */
__constant coef_real coef_cx[4] = {-0.3, 0.5, 0.0, 1.0};
__constant coef_real coef_cy[4] = {0.0, -0.25, 1.0, 1.5};
#define COEF_BETA 0.1

/* Edge e (1..4) at parameter t: the point (x, y) and its derivative (dx, dy) along the edge. */
inline void coef_edge(int e, coef_real t, coef_real *x, coef_real *y, coef_real *dx, coef_real *dy)
{
  const coef_real m = (1 - t) / 2, p = (1 + t) / 2;
  const coef_real S = sin(M_PI * (t + 1) / 2), C = (M_PI / 2) * cos(M_PI * (t + 1) / 2);

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
  } else { /* edge 4: a full sine period */
    *x  = coef_cx[2] * m + coef_cx[3] * p;
    *y  = coef_cy[2] * m + coef_cy[3] * p + COEF_BETA * sin(M_PI * (t + 1));
    *dx = (coef_cx[3] - coef_cx[2]) / 2;
    *dy = (coef_cy[3] - coef_cy[2]) / 2 + COEF_BETA * M_PI * cos(M_PI * (t + 1));
  }
}

/* Transfinite blend of one component: edge values E[1..4], edge derivatives dE[1..4], corner values K. */
inline void coef_blend(coef_real r, coef_real s, const coef_real E[5], const coef_real dE[5], __constant coef_real *K, coef_real *v, coef_real *vr,
                       coef_real *vs)
{
  *v  = (1 - r) / 2 * E[1] + (1 + r) / 2 * E[2] + (1 - s) / 2 * E[3] + (1 + s) / 2 * E[4] -
       ((1 - r) * (1 - s) * K[0] + (1 + r) * (1 - s) * K[1] + (1 - r) * (1 + s) * K[2] + (1 + r) * (1 + s) * K[3]) / 4;
  *vr = (E[2] - E[1]) / 2 + (1 - s) / 2 * dE[3] + (1 + s) / 2 * dE[4] - (-(1 - s) * K[0] + (1 - s) * K[1] - (1 + s) * K[2] + (1 + s) * K[3]) / 4;
  *vs = (1 - r) / 2 * dE[1] + (1 + r) / 2 * dE[2] + (E[4] - E[3]) / 2 - (-(1 - r) * K[0] - (1 + r) * K[1] + (1 - r) * K[2] + (1 + r) * K[3]) / 4;
}

inline void coef_mapping(coef_real r, coef_real s, coef_real X[6])
{
#if COEF_MAP == 0
  coef_real Ex[5], Ey[5], dEx[5], dEy[5];

  coef_edge(1, s, &Ex[1], &Ey[1], &dEx[1], &dEy[1]);
  coef_edge(2, s, &Ex[2], &Ey[2], &dEx[2], &dEy[2]);
  coef_edge(3, r, &Ex[3], &Ey[3], &dEx[3], &dEy[3]);
  coef_edge(4, r, &Ex[4], &Ey[4], &dEx[4], &dEy[4]);
  coef_blend(r, s, Ex, dEx, coef_cx, &X[0], &X[2], &X[3]);
  coef_blend(r, s, Ey, dEy, coef_cy, &X[1], &X[4], &X[5]);
#elif COEF_MAP == 1
  X[0] = r;
  X[1] = s;
  X[2] = 1;
  X[3] = 0;
  X[4] = 0;
  X[5] = 1;
#else
  sbp_user_mapping(r, s, X);
#endif
}

/* mu at (x, y): the smoothed elliptical basin, a constant, or the user's. */
inline coef_real coef_mu(coef_real x, coef_real y, coef_real mu_value)
{
#if COEF_MU == 0
  const coef_real muout = 36, muin = 20, Lw = 0.05, D = 0.05;
  const coef_real c = (Lw / 2) / D, rbar = (Lw / 2) * (Lw / 2), rw = 0.01 * (1 + (Lw / 2) / D);
  const coef_real xi = (x * x + c * c * y * y - rbar) / rw;
  return (muout - muin) / 2 * (tanh(xi) + 1) + muin;
#elif COEF_MU == 1
  return mu_value;
#else
  return sbp_user_mu(x, y);
#endif
}

/* The four coefficients at reference point (r, s) and mu there; returns mu. */
inline coef_real coef_point(coef_real r, coef_real s, coef_real mu_value, coef_real c[4])
{
  coef_real X[6], mu, J;

  coef_mapping(r, s, X);
  mu = coef_mu(X[0], X[1], mu_value);
#if COEF_METRIC == 1
  sbp_user_metric(r, s, X, mu, c);
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

  if (!(mu > 0) || isinf(mu)) return *v = mu, 4;
  if (!(c[3] > 0) || isinf(c[3])) return *v = c[3], 0;
  if (!(c[0] > 0) || isinf(c[0])) return *v = c[0], 1;
  if (!(c[1] > 0) || isinf(c[1])) return *v = c[1], 2;
  if (isnan(c[2]) || isinf(c[2])) return *v = c[2], 5;
  if (!(det > 0)) return *v = det, 3;
  return -1;
}

/* One work-item per node (i, j) of the gxm x gym patch whose first node is (gxs, gys): crr, css, crs, J at patch index
   (i - gxs) + gxm (j - gys), and atomic_min of the natural index i + (Nr + 1) j of an invalid node into *bad. */
__kernel void coef_generate(int gxs, int gys, int gxm, int gym, int Nr, coef_real hr, coef_real hs, coef_real mu_value, __global coef_real *crr,
                            __global coef_real *css, __global coef_real *crs, __global coef_real *J, __global int *bad)
{
  const int a = get_global_id(0), b = get_global_id(1);
  coef_real c[4], mu, v;
  long      k;

  if (a >= gxm || b >= gym) return;
  mu     = coef_point(-1 + (gxs + a) * hr, -1 + (gys + b) * hs, mu_value, c);
  k      = a + (long)gxm * b;
  crr[k] = c[0];
  css[k] = c[1];
  crs[k] = c[2];
  J[k]   = c[3];
  if (coef_check(mu, c, &v) >= 0) atomic_min(bad, (gxs + a) + (Nr + 1) * (gys + b));
}

/* The check at one node (one work-item), for the error message: out[0] the failed check's code, out[1] its value. */
__kernel void coef_describe(int i, int j, coef_real hr, coef_real hs, coef_real mu_value, __global coef_real *out)
{
  coef_real c[4], mu, v = 0;

  mu     = coef_point(-1 + i * hr, -1 + j * hs, mu_value, c);
  out[0] = coef_check(mu, c, &v);
  out[1] = v;
}

/* A coarse level's coefficients injected from the fine level's (docs/design.md "Set-up on the device"): coarse node (I, J) is
   fine node (2I, 2J), so the values of point functions are the fine ones exactly; one work-item per node of the coarse patch
   (gxm x gym from (gxs, gys)) whose fine node lies in the fine patch (fgxm x fgym from (fgxs, fgys)); the others are left to
   the caller (several ranks: the ghost exchange). */
__kernel void coef_inject(int gxs, int gys, int gxm, int gym, int fgxs, int fgys, int fgxm, int fgym, __global const coef_real *fine,
                          __global coef_real *coarse)
{
  const int a = get_global_id(0), b = get_global_id(1);
  const int fi = 2 * (gxs + a) - fgxs, fj = 2 * (gys + b) - fgys;

  if (a >= gxm || b >= gym || fi < 0 || fj < 0 || fi >= fgxm || fj >= fgym) return;
  coarse[a + (long)gxm * b] = fine[fi + (long)fgxm * fj];
}

/* The coefficients rounded to fp32 (the multigrid levels' copies). */
__kernel void coef_to_float(long n, __global const coef_real *x, __global float *y)
{
  for (long k = get_global_id(0); k < n; k += get_global_size(0)) y[k] = (float)x[k];
}
