/* The derivative of node coordinates at SBP order 4 and 6 (src/sbp/nodes.c SbpBoxDerivative, kernels/coef.cl coef_nodal_d with
   SBPMG_COEF_DORDER; docs/guide.md "Bringing a problem"): of order p at every node, so that
   - a grid whose coordinates are polynomials of degree p in r and in s gives the coefficients of the same map given as a function
     (its analytic derivatives) to round-off, on the host and on the device; at order 2 (the SBP derivative of boundary order 2,
     unchanged) and at degree p + 1 they differ, so the comparison can fail;
   - the device's coefficients equal the host's (node grid and mu at the nodes);
   - the problem of verification/convergence -conv_problem own (a warped grid by its node coordinates, mu at the nodes) converges at
     the observed order of the same grid given as a mapping function, within 0.3 (and at least 3.7 at p = 4, 4.7 at p = 6), with
     errors within 25% of its (CG + sbpmg).
   The same program on 2 and 3 ranks: the end rows read nodes 0..p, within each rank's box of nodal data. */
#include "test_sbp_common.h"

/* ---------------------------------------------------------------- grids */

/* x = r + a (r^d s + s^d), y = s + a (s^d r - r^d), a = 0.03: polynomials of degree d in r and in s, J > 0.5 on [-1, 1]^2 (d <= 7). */
static PetscErrorCode PolyMap(void *ctx, PetscReal r, PetscReal s, PetscReal X[6])
{
  const PetscInt  d = *(const PetscInt *)ctx;
  const PetscReal a = 0.03, rd = PetscPowRealInt(r, d), sd = PetscPowRealInt(s, d), rd1 = PetscPowRealInt(r, d - 1), sd1 = PetscPowRealInt(s, d - 1);

  X[0] = r + a * (rd * s + sd);
  X[1] = s + a * (sd * r - rd);
  X[2] = 1 + a * d * rd1 * s;
  X[3] = a * (rd + d * sd1);
  X[4] = a * (sd - d * rd1);
  X[5] = 1 + a * d * sd1 * r;
  return 0;
}

/* The grid of verification/convergence -conv_problem own: x = r + 0.1 sin(pi s), y = s + 0.1 sin(pi r). */
static PetscErrorCode OwnMap(void *ctx, PetscReal r, PetscReal s, PetscReal X[6])
{
  (void)ctx;
  X[0] = r + 0.1 * PetscSinReal(PETSC_PI * s);
  X[1] = s + 0.1 * PetscSinReal(PETSC_PI * r);
  X[2] = 1;
  X[3] = 0.1 * PETSC_PI * PetscCosReal(PETSC_PI * s);
  X[4] = 0.1 * PETSC_PI * PetscCosReal(PETSC_PI * r);
  X[5] = 1;
  return 0;
}

/* ---------------------------------------------------------------- the own problem's data (verification/convergence.c) */

static PetscReal OwnMuGrad(PetscReal x, PetscReal y, PetscReal *mux, PetscReal *muy)
{
  *mux = PetscCosReal(x) * PetscCosReal(y);
  *muy = -PetscSinReal(x) * PetscSinReal(y);
  return 2 + PetscSinReal(x) * PetscCosReal(y);
}

static PetscErrorCode OwnMu(void *ctx, PetscReal x, PetscReal y, PetscReal *mu)
{
  PetscReal mux, muy;

  (void)ctx;
  *mu = OwnMuGrad(x, y, &mux, &muy);
  return 0;
}

/* u = exp(x) sin(2y) + x y, its gradient and Laplacian */
static PetscReal OwnU(PetscReal x, PetscReal y, PetscReal *ux, PetscReal *uy, PetscReal *lap)
{
  *ux  = PetscExpReal(x) * PetscSinReal(2 * y) + y;
  *uy  = 2 * PetscExpReal(x) * PetscCosReal(2 * y) + x;
  *lap = -3 * PetscExpReal(x) * PetscSinReal(2 * y);
  return PetscExpReal(x) * PetscSinReal(2 * y) + x * y;
}

static PetscErrorCode OwnForcing(void *ctx, PetscReal x, PetscReal y, PetscReal *f)
{
  PetscReal mux, muy, ux, uy, lap, mu = OwnMuGrad(x, y, &mux, &muy);

  (void)ctx;
  OwnU(x, y, &ux, &uy, &lap);
  *f = -(mux * ux + muy * uy + mu * lap);
  return 0;
}

static PetscErrorCode OwnBoundary(void *ctx, PetscInt face, PetscReal x, PetscReal y, PetscReal nx, PetscReal ny, PetscReal *g)
{
  PetscReal mux, muy, ux, uy, lap, mu = OwnMuGrad(x, y, &mux, &muy), u = OwnU(x, y, &ux, &uy, &lap);

  (void)ctx;
  *g = face % 2 ? u : mu * (nx * ux + ny * uy); /* faces DNDN */
  return 0;
}

static PetscErrorCode OwnExact(void *ctx, PetscReal x, PetscReal y, PetscReal *u)
{
  PetscReal ux, uy, lap;

  (void)ctx;
  *u = OwnU(x, y, &ux, &uy, &lap);
  return 0;
}

/* ---------------------------------------------------------------- problems */

typedef struct {
  PetscInt           order;
  SbpMappingFunction map;
  void              *ctx;
  PetscBool          nodes; /* the grid as the map's node coordinates (else the map as a function) */
  PetscBool          own;   /* mu = 2 + sin x cos y (at the nodes with node coordinates) and the own problem's data; else mu = 1 */
  SbpBackend         backend;
} Case;

/* The problem of case c on comm, Nr x Ns, set up: faces DNDN. */
static SbpProblem case_problem(MPI_Comm comm, PetscInt Nr, PetscInt Ns, const Case *c)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(comm, &p));
  PCALL(SbpProblemSetOrder(p, c->order));
  PCALL(SbpProblemSetSizes(p, Nr, Ns));
  for (PetscInt f = 1; f <= 4; f++) PCALL(SbpProblemSetBC(p, f, f % 2 ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN));
  if (c->nodes) { /* natural-order vectors of the map's coordinates at the nodes (r, s) = (-1 + 2i/Nr, -1 + 2j/Ns), and mu there */
    Vec          x, y, mu;
    PetscScalar *xa, *ya, *ma;
    PetscInt     lo, hi;

    PCALL(VecCreateMPI(comm, PETSC_DECIDE, (Nr + 1) * (Ns + 1), &x));
    PCALL(VecDuplicate(x, &y));
    PCALL(VecDuplicate(x, &mu));
    PCALL(VecGetOwnershipRange(x, &lo, &hi));
    PCALL(VecGetArray(x, &xa));
    PCALL(VecGetArray(y, &ya));
    PCALL(VecGetArray(mu, &ma));
    for (PetscInt k = lo; k < hi; k++) {
      PetscReal X[6], m;
      PCALL((*c->map)(c->ctx, -1 + 2.0 * (k % (Nr + 1)) / Nr, -1 + 2.0 * (k / (Nr + 1)) / Ns, X));
      PCALL(OwnMu(NULL, X[0], X[1], &m));
      xa[k - lo] = X[0];
      ya[k - lo] = X[1];
      ma[k - lo] = m;
    }
    PCALL(VecRestoreArray(x, &xa));
    PCALL(VecRestoreArray(y, &ya));
    PCALL(VecRestoreArray(mu, &ma));
    PCALL(SbpProblemSetNodeCoordinates(p, x, y));
    if (c->own) PCALL(SbpProblemSetMuVector(p, mu));
    SbpmgTestDestroyVecs(&x, &y, &mu, NULL);
  } else {
    PCALL(SbpProblemSetMappingFunction(p, c->map, c->ctx));
    if (c->own) PCALL(SbpProblemSetMuFunction(p, OwnMu, NULL));
  }
  if (!c->own) PCALL(SbpProblemSetMu(p, SBP_MU_CONSTANT, 1));
  PCALL(SbpProblemSetBackend(p, c->backend));
  PCALL(SbpProblemSetUp(p));
  if (c->backend == SBP_BACKEND_DEVICE && !p->use_device) fail_msg("The device backend was asked for and not taken");
  if (c->own) {
    PCALL(SbpProblemSetForcingFunction(p, OwnForcing, NULL));
    for (PetscInt f = 1; f <= 4; f++) PCALL(SbpProblemSetBoundaryFunction(p, f, f % 2 ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN, OwnBoundary, NULL));
    PCALL(SbpProblemSetExactSolution(p, OwnExact, NULL));
  }
  return p;
}

static PetscReal compare(PetscInt Nr, PetscInt Ns, const Case *ca, const Case *cb, const char *what)
{
  return SbpTestCompareCoefficients(case_problem(PETSC_COMM_WORLD, Nr, Ns, ca), case_problem(PETSC_COMM_WORLD, Nr, Ns, cb), what);
}

/* Grids of at least 12 nodes a rank along each direction on 3 ranks (order 6). */
#define NR 40
#define NS 36

/* ---------------------------------------------------------------- (a) polynomials */

/* At order p the node grid of PolyMap of degree p gives the coefficients of PolyMap as a function to round-off (host and device); the
   derivative of order 2 (SBP, boundary order 2) and degree p + 1 at order p do not. */
static void test_polynomial(void **state)
{
  const SbpBackend backends[2] = {SBP_BACKEND_HOST, SBP_BACKEND_DEVICE};

  for (PetscInt order = 4; order <= 6; order += 2)
    for (int b = 0; b < 2; b++) {
      PetscInt  deg = order, deg1 = order + 1;
      Case      nodes = {order, PolyMap, &deg, PETSC_TRUE, PETSC_FALSE, backends[b]}, map = nodes;
      char      what[128];
      PetscReal err;

      map.nodes = PETSC_FALSE;
      PCALL(PetscSNPrintf(what, sizeof(what), "order %d, %s, degree %d: nodes vs function", (int)order, b ? "device" : "host", (int)deg));
      err = compare(NR, NS, &nodes, &map, what);
      if (!(err <= 1e-12)) fail_msg("%s: the coefficients differ by %g (the derivative is not exact at degree %d)", what, (double)err, (int)deg);
      nodes.order = map.order = 2; /* the derivative of order 2 is not exact there */
      PCALL(PetscSNPrintf(what, sizeof(what), "order 2, %s, degree %d: nodes vs function", b ? "device" : "host", (int)deg));
      err = compare(NR, NS, &nodes, &map, what);
      if (!(err >= 1e-6)) fail_msg("%s: the coefficients differ by only %g", what, (double)err);
      nodes.order = map.order = order; /* nor is the derivative of order p at degree p + 1 */
      nodes.ctx = map.ctx = &deg1;
      PCALL(PetscSNPrintf(what, sizeof(what), "order %d, %s, degree %d: nodes vs function", (int)order, b ? "device" : "host", (int)deg1));
      err = compare(NR, NS, &nodes, &map, what);
      if (!(err >= 1e-8)) fail_msg("%s: the coefficients differ by only %g", what, (double)err);
    }
}

/* ---------------------------------------------------------------- (b) device and host */

static void test_device_vs_host(void **state)
{
  for (PetscInt order = 4; order <= 6; order += 2) {
    Case      dev = {order, OwnMap, NULL, PETSC_TRUE, PETSC_TRUE, SBP_BACKEND_DEVICE}, host = dev;
    char      what[128];
    PetscReal err;

    host.backend = SBP_BACKEND_HOST;
    PCALL(PetscSNPrintf(what, sizeof(what), "order %d, node grid and mu at the nodes: device vs host", (int)order));
    err = compare(NR, NS, &dev, &host, what);
    if (!(err <= 1e-13)) fail_msg("%s: they differ by %g", what, (double)err);
    err = compare(NS, NR, &dev, &host, what);
    if (!(err <= 1e-13)) fail_msg("%s: they differ by %g", what, (double)err);
  }
}

/* ---------------------------------------------------------------- (c) convergence */

/* ||u - ue||_H of case c on N x N, CG + sbpmg to 1e-12 (device). */
static PetscReal solve_error(const Case *c, PetscInt N)
{
  SbpTestSystem s;
  PetscReal     eH;
  PetscInt      its;

  SbpTestSystemCreate(case_problem(PETSC_COMM_WORLD, N, N, c), PETSC_FALSE, &s);
  s.ksp = SbpTestMGCG(s.A, 1e-12, 200);
  its   = SbpTestSystemSolve(&s);
  PCALL(SbpProblemComputeError(s.p, s.u, &eH, NULL));
  print_message("  order %d, %s, %3d x %3d: ||e||_H = %.4e (%d iterations)\n", (int)c->order, c->nodes ? "node grid" : "function ", (int)N, (int)N, (double)eH,
                (int)its);
  SbpTestSystemDestroy(&s);
  return eH;
}

static void test_convergence(void **state)
{
  const PetscInt N[2] = {40, 80};

  for (PetscInt order = 4; order <= 6; order += 2) {
    Case      nodes = {order, OwnMap, NULL, PETSC_TRUE, PETSC_TRUE, SBP_BACKEND_DEVICE}, map = nodes;
    PetscReal en[2], em[2], on, om, band = order == 4 ? 3.7 : 4.7; /* the bands of the built-in problem (docs/verification.md) */

    map.nodes = PETSC_FALSE;
    for (int k = 0; k < 2; k++) {
      en[k] = solve_error(&nodes, N[k]);
      em[k] = solve_error(&map, N[k]);
    }
    on = PetscLog2Real(en[0] / en[1]);
    om = PetscLog2Real(em[0] / em[1]);
    print_message("  order %d: observed order %.3f (node grid), %.3f (function); errors at %d: node grid / function = %.3f\n", (int)order, (double)on,
                  (double)om, (int)N[1], (double)(en[1] / em[1]));
    if (!(PetscAbsReal(on - om) <= 0.3)) fail_msg("order %d: the node grid converges at %.3f, the function at %.3f", (int)order, (double)on, (double)om);
    if (!(on >= band)) fail_msg("order %d: the node grid converges at %.3f, below %.1f", (int)order, (double)on, (double)band);
    if (!(PetscAbsReal(en[1] / em[1] - 1) <= 0.25))
      fail_msg("order %d: the node grid's error is %.3f of the function's at %d (more than 25%% off)", (int)order, (double)(en[1] / em[1]), (int)N[1]);
  }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_polynomial),
    cmocka_unit_test(test_device_vs_host),
    cmocka_unit_test(test_convergence),
};

SBPMG_TEST_MAIN("The derivative of node coordinates at SBP order 4 and 6.\n", tests)
