/* Rate-and-state friction at the nodes of a fault (docs/seas.md "Friction"; src/seas/friction.c): the slip rate V from the shear
   stress tau and the state psi, by a bracketed Newton on

     g(V) = tau - eta V - a sigma_n asinh(V / (2 V0) exp(psi / a)) = 0

   (g decreases in V: the root lies between 0 and tau / eta, on the side of 0 that tau's sign gives; friction_solve narrows the
   bracket further), and the aging law in psi form

     dpsi/dt = (b V0 / Dc) (exp((f0 - psi) / b) - |V| / V0).

   The point formulas are also compiled as C by the host reference (src/seas/friction.c includes this file), so they exist once. On the
   device, fp64, built with these macros, set by src/seas/friction.c from the friction's settings (no defaults here):
     SBPMG_FRICTION_RTOL    Newton stops when its step is at most SBPMG_FRICTION_RTOL |V| (or the bracket is that narrow)
     SBPMG_FRICTION_MAX_IT  Newton iterations at most; a node that does not converge gets V = NaN (the caller checks) */
#ifdef __OPENCL_VERSION__
#  if defined(SBPMG_HAVE_FP64)
#    pragma OPENCL EXTENSION cl_khr_fp64 : enable
#  endif
#  if !defined(SBPMG_FRICTION_RTOL)
#    error "SBPMG_FRICTION_RTOL must be defined (src/seas/friction.c: the Newton tolerance)"
#  endif
#  if !defined(SBPMG_FRICTION_MAX_IT)
#    error "SBPMG_FRICTION_MAX_IT must be defined (src/seas/friction.c: the Newton iterations at most)"
#  endif
typedef double fr_real;
#  define FR_FN     inline
#  define FR_GLOBAL __global
#else
typedef PetscReal fr_real;
#  define FR_FN static inline
#  define FR_GLOBAL
#endif

/* The strength a sigma_n asinh(q V), q = exp(psi / a) / (2 V0), and its derivative in V. */
FR_FN fr_real friction_strength(const fr_real V, const fr_real q, const fr_real asn)
{
  return asn * asinh(q * V);
}

FR_FN fr_real friction_dstrength(const fr_real V, const fr_real q, const fr_real asn)
{
  return asn * q / sqrt(1 + (q * V) * (q * V));
}

/* V at one node, from the guess V (the last one: a few iterations while the state changes slowly). g is odd in V, so the solve is for
   v = |V| >= 0 with T = |tau|, V = sign(tau) v. The bracket: v <= T / eta (the damping alone) and v <= sinh(T / (a sigma_n)) / q (the
   strength alone), and v >= sinh((T - eta hi) / (a sigma_n)) / q; bisection where Newton leaves it, at the geometric mean where its
   ends differ by orders of magnitude (a locked node's V may be 1e-30). Returns the iterations taken, or -1 if Newton did not converge
   in maxit (then *V is the last iterate). */
FR_FN int friction_solve(const fr_real tau, const fr_real psi, const fr_real a, const fr_real sn, const fr_real eta, const fr_real V0, const fr_real rtol,
                         const int maxit, fr_real *V)
{
  const fr_real q = exp(psi / a) / (2 * V0), asn = a * sn, T = fabs(tau), sg = tau >= 0 ? 1 : -1;
  fr_real       lo = 0, hi = T / eta, v = sg * *V, x;

  if (tau == 0) {
    *V = 0;
    return 0;
  }
  if (!isfinite(q)) return -1; /* exp(psi / a) beyond range: no root to find (the driver refuses such states) */
  x = T / asn;
  if (x < 700) hi = fmin(hi, sinh(x) / q * (1 + 1e-11)); /* widened by more than sinh's round-off (x eps, x < 700) */
  x = (T - eta * hi) / asn;
  if (x > 0 && x < 700) lo = fmin(sinh(x) / q * (1 - 1e-11), hi);
  if (!(v > lo && v < hi)) v = lo > 0 ? sqrt(lo * hi) : (lo + hi) / 2; /* a guess outside the bracket (or NaN): its middle */
  for (int it = 1; it <= maxit; it++) {
    const fr_real g = T - eta * v - friction_strength(v, q, asn);
    fr_real       vn;

    if (g == 0 || hi - lo <= 1e-15 * hi) { /* the bracket at round-off (Newton's test below stops first as a rule) */
      *V = sg * v;
      return it;
    }
    if (g > 0)
      lo = v; /* g decreases in v: the root is above v */
    else
      hi = v;
    vn = v + g / (eta + friction_dstrength(v, q, asn));
    if (!(vn > lo && vn < hi)) vn = (lo > 0 && hi > 4 * lo) ? sqrt(lo * hi) : (lo + hi) / 2; /* Newton left the bracket: bisection */
    if (fabs(vn - v) <= rtol * vn) {
      *V = sg * vn;
      return it;
    }
    v = vn;
  }
  *V = sg * v;
  return -1;
}

/* The aging law in psi form. */
FR_FN fr_real friction_state_rate(const fr_real V, const fr_real psi, const fr_real b, const fr_real V0, const fr_real Dc, const fr_real f0)
{
  return b * V0 / Dc * (exp((f0 - psi) / b) - fabs(V) / V0);
}

/* The BP1 shear stress at fault node k from the traction t of face 1 (the outward one, -mu du/dx) corrected by the Dirichlet SAT's
   penalty (docs/design.md "The earthquake cycle"): tau = tau0 - (t - kc (u0 - delta / 2)), u0 the solution at the face node. */
FR_FN fr_real friction_fault_stress(const fr_real tau0, const fr_real t, const fr_real kc, const fr_real u0, const fr_real delta)
{
  return tau0 - (t - kc * (u0 - delta / 2));
}

#ifdef __OPENCL_VERSION__
/* Nodes k < n: V[k] (in: the guess; out: the slip rate, NaN where Newton failed) and rate[k] = dpsi/dt, rate[n + k] = V when
   write_v; psi = state[k]. */
__kernel void friction_rates(const int n, const int write_v, __global const fr_real *tau, __global const fr_real *a, __global const fr_real *state,
                             __global fr_real *V, __global fr_real *rate, const fr_real sn, const fr_real eta, const fr_real V0, const fr_real b,
                             const fr_real Dc, const fr_real f0)
{
  const int k = (int)get_global_id(0);
  fr_real   v;

  if (k >= n) return;
  v = V[k];
  if (friction_solve(tau[k], state[k], a[k], sn, eta, V0, SBPMG_FRICTION_RTOL, SBPMG_FRICTION_MAX_IT, &v) < 0) v = NAN;
  V[k]    = v;
  rate[k] = friction_state_rate(v, state[k], b, V0, Dc, f0);
  if (write_v) rate[n + k] = v;
}

/* Nodes k < n of face 1: tau[k] from the traction t[k], the solution's face value u[k * ld] (one rank: node (0, k) of the grid) and
   the slip state[n + k]. */
__kernel void friction_fault_stress_face(const int n, const int ld, const fr_real tau0, __global const fr_real *t, __global const fr_real *kc,
                                         __global const fr_real *u, __global const fr_real *state, __global fr_real *tau)
{
  const int k = (int)get_global_id(0);

  if (k >= n) return;
  tau[k] = friction_fault_stress(tau0, t[k], kc[k], u[(long)k * ld], state[n + k]);
}
#endif
