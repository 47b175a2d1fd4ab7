/* A grid and mu given at the nodes (src/sbp/nodes.c, kernels/coef.cl SBPMG_COEF_MAP 3 / SBPMG_COEF_MU 3): the device's coefficients equal the
   host reference node by node; D is exact on an affine grid, so its coefficients are the analytic ones; mu at the nodes sampled from
   the basin gives the basin's coefficients; the coordinates of the curved map solve the manufactured problem at order 2 with an
   error within 5% of the analytic metric's at N = 256; the multigrid's coarse levels (coordinates injected) keep its iterations;
   files and arrays give what vectors give; every bad input named. On 2 ranks too (the box scattered from natural order). */
#include "test_sbp_common.h"

/* The nodes' physical coordinates of a problem with the given built-in mapping on a backend (SbpProblemGetCoordinates: the host
   evaluates them, or the device), as natural-order vectors on comm. */
static void sample_mapping_on(MPI_Comm comm, PetscInt Nr, PetscInt Ns, SbpMappingType map, SbpBackend backend, Vec *x, Vec *y)
{
  SbpProblem p;
  Vec        px, py;
  VecScatter sc;
  IS         is;
  PetscInt   lo, hi;

  PCALL(SbpProblemCreate(comm, &p));
  PCALL(SbpProblemSetSizes(p, Nr, Ns));
  PCALL(SbpProblemSetMapping(p, map));
  PCALL(SbpProblemSetBackend(p, backend));
  PCALL(SbpProblemSetUp(p));
  PCALL(SbpProblemGetCoordinates(p, &px, &py)); /* the DMDA's ordering: to natural order */
  PCALL(VecCreateMPI(comm, PETSC_DECIDE, (Nr + 1) * (Ns + 1), x));
  PCALL(VecDuplicate(*x, y));
  PCALL(VecGetOwnershipRange(*x, &lo, &hi));
  {
    AO ao;
    DM da;
    PCALL(SbpProblemGetDM(p, &da));
    PCALL(DMDAGetAO(da, &ao));
    PCALL(ISCreateStride(comm, hi - lo, lo, 1, &is));
    PCALL(AOApplicationToPetscIS(ao, is));
  }
  PCALL(VecScatterCreate(px, is, *x, NULL, &sc));
  PCALL(VecScatterBegin(sc, px, *x, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterEnd(sc, px, *x, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterBegin(sc, py, *y, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterEnd(sc, py, *y, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterDestroy(&sc));
  PCALL(ISDestroy(&is));
  PCALL(VecDestroy(&px));
  PCALL(VecDestroy(&py));
  PCALL(SbpProblemDestroy(&p));
}

static void sample_mapping(MPI_Comm comm, PetscInt Nr, PetscInt Ns, SbpMappingType map, Vec *x, Vec *y)
{
  sample_mapping_on(comm, Nr, Ns, map, SBP_BACKEND_HOST, x, y);
}

/* mu = f(x, y) at the nodes of the coordinates x, y. */
static Vec sample_mu(Vec x, Vec y, SbpMuFunction fn)
{
  Vec                mu;
  const PetscScalar *xa, *ya;
  PetscScalar       *ma;
  PetscInt           n;

  PCALL(VecDuplicate(x, &mu));
  PCALL(VecGetLocalSize(x, &n));
  PCALL(VecGetArrayRead(x, &xa));
  PCALL(VecGetArrayRead(y, &ya));
  PCALL(VecGetArray(mu, &ma));
  for (PetscInt k = 0; k < n; k++) {
    PetscReal v;
    PCALL((*fn)(NULL, PetscRealPart(xa[k]), PetscRealPart(ya[k]), &v));
    ma[k] = v;
  }
  PCALL(VecRestoreArray(mu, &ma));
  PCALL(VecRestoreArrayRead(x, &xa));
  PCALL(VecRestoreArrayRead(y, &ya));
  return mu;
}

static PetscErrorCode BasinMu(void *ctx, PetscReal x, PetscReal y, PetscReal *mu)
{
  return SbpMuBasin(ctx, x, y, mu);
}

static PetscErrorCode LayeredMu(void *ctx, PetscReal x, PetscReal y, PetscReal *mu)
{
  *mu = 2 + PetscTanhReal(5 * (y - 0.3 * x));
  return 0;
}

typedef struct {
  SbpMappingType map;   /* the grid: analytic, or sampled from it (nodes) */
  PetscBool      nodes; /* the coordinates given at the nodes */
  SbpMuFunction  mu;    /* NULL: the built-in basin; else sampled at the nodes */
  const char    *bc;
  SbpBackend     backend;
} NodalCase;

static SbpProblem nodal_problem(MPI_Comm comm, PetscInt Nr, PetscInt Ns, const NodalCase *c)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(comm, &p));
  PCALL(SbpProblemSetSizes(p, Nr, Ns));
  PCALL(SbpProblemSetMapping(p, c->map));
  for (PetscInt f = 0; f < 4; f++) PCALL(SbpProblemSetBC(p, f + 1, c->bc[f] == 'D' ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN));
  if (c->nodes || c->mu) {
    Vec x, y;
    sample_mapping(comm, Nr, Ns, c->map, &x, &y);
    if (c->nodes) PCALL(SbpProblemSetNodeCoordinates(p, x, y));
    if (c->mu) {
      Vec mu = sample_mu(x, y, c->mu);
      PCALL(SbpProblemSetMuVector(p, mu));
      PCALL(VecDestroy(&mu));
    }
    PCALL(VecDestroy(&x));
    PCALL(VecDestroy(&y));
  }
  PCALL(SbpProblemSetBackend(p, c->backend));
  PCALL(SbpProblemSetUp(p));
  return p;
}

static PetscReal compare(MPI_Comm comm, PetscInt Nr, PetscInt Ns, const NodalCase *ca, const NodalCase *cb, const char *what)
{
  return SbpTestCompareCoefficients(nodal_problem(comm, Nr, Ns, ca), nodal_problem(comm, Nr, Ns, cb), what);
}

/* The device's coefficients of a node grid and mu at the nodes equal the host's (the same formulas in C). */
static void test_device_vs_host(void **state)
{
  NodalCase dev = {SBP_MAPPING_CURVED, PETSC_TRUE, LayeredMu, "DDNN", SBP_BACKEND_DEVICE}, host = dev;
  PetscReal err;

  host.backend = SBP_BACKEND_HOST;
  err          = compare(PETSC_COMM_WORLD, 24, 40, &dev, &host, "node grid, mu at the nodes: device vs host");
  if (!(err <= 1e-13)) fail_msg("device and host coefficients differ by %g", (double)err);
  err = compare(PETSC_COMM_WORLD, 40, 24, &dev, &host, "node grid, mu at the nodes: device vs host");
  if (!(err <= 1e-13)) fail_msg("device and host coefficients differ by %g", (double)err);
}

/* SbpProblemGetCoordinates() on the device backend (kernels/coef.cl coef_coordinates) equals the host's evaluation of the map;
   SbpProblemGetCorners() the DMDA's block. */
static void test_coordinates(void **state)
{
  const SbpMappingType maps[] = {SBP_MAPPING_CURVED, SBP_MAPPING_SQUARE};

  for (int m = 0; m < 2; m++) {
    Vec       xh, yh, xd, yd;
    PetscReal dx, dy, sx;

    sample_mapping_on(PETSC_COMM_WORLD, 40, 24, maps[m], SBP_BACKEND_HOST, &xh, &yh);
    sample_mapping_on(PETSC_COMM_WORLD, 40, 24, maps[m], SBP_BACKEND_DEVICE, &xd, &yd);
    PCALL(VecNorm(xh, NORM_INFINITY, &sx));
    PCALL(VecAXPY(xd, -1, xh));
    PCALL(VecAXPY(yd, -1, yh));
    PCALL(VecNorm(xd, NORM_INFINITY, &dx));
    PCALL(VecNorm(yd, NORM_INFINITY, &dy));
    print_message("  coordinates, map %d: device - host %.2e, %.2e (scale %.2e)\n", m, (double)dx, (double)dy, (double)sx);
    if (!(sx > 0) || !(PetscMax(dx, dy) <= 1e-13 * sx)) fail_msg("the device's coordinates differ from the host's by %g, %g", (double)dx, (double)dy);
    SbpmgTestDestroyVecs(&xh, &yh, &xd, &yd, NULL);
  }
  { /* the rank's block, as the DMDA's */
    SbpProblem p;
    DM         da;
    PetscInt   c[4], d[4];

    PCALL(SbpProblemCreate(PETSC_COMM_WORLD, &p));
    PCALL(SbpProblemSetSizes(p, 40, 24));
    PCALL(SbpProblemSetUp(p));
    PCALL(SbpProblemGetCorners(p, &c[0], &c[1], &c[2], &c[3]));
    PCALL(SbpProblemGetDM(p, &da));
    PCALL(DMDAGetCorners(da, &d[0], &d[1], NULL, &d[2], &d[3], NULL));
    for (int t = 0; t < 4; t++)
      if (c[t] != d[t]) fail_msg("SbpProblemGetCorners %d: %d, the DMDA's %d", t, (int)c[t], (int)d[t]);
    PCALL(SbpProblemDestroy(&p));
  }
}

/* D differentiates linear functions exactly: the square's coordinates give the square's coefficients (to rounding), and the basin
   sampled at the nodes gives the basin's. */
static void test_exact_cases(void **state)
{
  NodalCase square = {SBP_MAPPING_SQUARE, PETSC_FALSE, NULL, "DDNN", SBP_BACKEND_DEVICE}, sq_nodes = square;
  NodalCase curved = {SBP_MAPPING_CURVED, PETSC_FALSE, NULL, "DDNN", SBP_BACKEND_DEVICE}, mu_nodes = curved;
  PetscReal err;

  sq_nodes.nodes = PETSC_TRUE;
  err            = compare(PETSC_COMM_WORLD, 16, 24, &sq_nodes, &square, "square as nodes vs the square map");
  if (!(err <= 1e-14)) fail_msg("the square's node grid differs from the square map by %g", (double)err);
  mu_nodes.mu = BasinMu;
  err         = compare(PETSC_COMM_WORLD, 16, 24, &mu_nodes, &curved, "basin at the nodes vs the basin");
  if (!(err <= 1e-13)) fail_msg("the basin at the nodes differs from the basin by %g", (double)err);
}

/* ||u - ue||_H of the manufactured problem (constant mu: its data need grad mu of the built-in mu) on grid N x 2N, direct solve. */
static PetscReal solve_error(PetscInt N, PetscBool nodes)
{
  NodalCase     c = {SBP_MAPPING_CURVED, nodes, NULL, "DNDN", SBP_BACKEND_HOST};
  SbpTestSystem s;
  PetscReal     eH;

  SbpTestSystemCreate(nodal_problem(PETSC_COMM_WORLD, N, 2 * N, &c), PETSC_TRUE, &s);
  s.ksp = SbpTestCholmod(s.A);
  PCALL(KSPSolve(s.ksp, s.g, s.u));
  PCALL(SbpProblemComputeError(s.p, s.u, &eH, NULL));
  print_message("  %s, %4d x %4d: ||e||_H = %.6e\n", nodes ? "node grid" : "analytic ", (int)N, (int)(2 * N), (double)eH);
  SbpTestSystemDestroy(&s);
  return eH;
}

static void test_convergence(void **state)
{
  PetscReal e[3], ea, order[2];

  for (int k = 0; k < 3; k++) e[k] = solve_error(64 << k, PETSC_TRUE);
  ea = solve_error(256, PETSC_FALSE);
  for (int k = 0; k < 2; k++) {
    order[k] = PetscLog2Real(e[k] / e[k + 1]);
    print_message("  observed order: %.4f\n", (double)order[k]);
  }
  print_message("  at N = 256: node grid / analytic = %.4f\n", (double)(e[2] / ea));
  if (order[1] < 1.9 || order[1] > 2.1) fail_msg("observed order %.4f outside [1.9, 2.1]", (double)order[1]);
  if (!(PetscAbsReal(e[2] / ea - 1) <= 0.05)) fail_msg("the node grid's error is %.4f of the analytic metric's (more than 5%% off)", (double)(e[2] / ea));
}

/* CG + sbpmg on the node grid: coarse levels from injected coordinates; iterations within 2 of the analytic map's. */
static PetscInt mg_iterations(PetscBool nodes)
{
  NodalCase     c = {SBP_MAPPING_CURVED, nodes, LayeredMu, "DDNN", SBP_BACKEND_DEVICE};
  SbpTestSystem s;
  PetscInt      its;

  if (!nodes) c.mu = NULL; /* the basin either way would do; the layered one through the nodes exercises the coarse mu */
  SbpTestSystemCreate(nodal_problem(PETSC_COMM_WORLD, 128, 128, &c), PETSC_FALSE, &s);
  s.ksp = SbpTestMGCG(s.A, 1e-8, 100);
  its   = SbpTestSystemSolve(&s);
  print_message("  CG + sbpmg, 128^2, %s: %d iterations\n", nodes ? "node grid and mu" : "analytic", (int)its);
  SbpTestSystemDestroy(&s);
  return its;
}

static void test_multigrid(void **state)
{
  PetscInt a = mg_iterations(PETSC_FALSE), n = mg_iterations(PETSC_TRUE);

  if (n > a + 2) fail_msg("the node grid takes %d iterations, the analytic map %d", (int)n, (int)a);
}

/* A binary file (-sbp_grid_file, -sbp_mu_file) and arrays give what vectors give, bit for bit. */
static void test_files_and_arrays(void **state)
{
  const PetscInt Nr = 12, Ns = 20, N = (Nr + 1) * (Ns + 1);
  NodalCase      c   = {SBP_MAPPING_CURVED, PETSC_TRUE, LayeredMu, "DDNN", SBP_BACKEND_DEVICE};
  SbpProblem     ref = nodal_problem(PETSC_COMM_WORLD, Nr, Ns, &c), pf, pa;
  Vec            x, y, mu;
  PetscViewer    v;
  char           path[PETSC_MAX_PATH_LEN], mpath[PETSC_MAX_PATH_LEN];

  sample_mapping(PETSC_COMM_WORLD, Nr, Ns, SBP_MAPPING_CURVED, &x, &y);
  mu = sample_mu(x, y, LayeredMu);
  PCALL(PetscSNPrintf(path, sizeof(path), "%s/sbpmg-test-grid.bin", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp"));
  PCALL(PetscSNPrintf(mpath, sizeof(mpath), "%s/sbpmg-test-mu.bin", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp"));
  PCALL(PetscViewerBinaryOpen(PETSC_COMM_WORLD, path, FILE_MODE_WRITE, &v));
  PCALL(VecView(x, v));
  PCALL(VecView(y, v));
  PCALL(PetscViewerDestroy(&v));
  PCALL(PetscViewerBinaryOpen(PETSC_COMM_WORLD, mpath, FILE_MODE_WRITE, &v));
  PCALL(VecView(mu, v));
  PCALL(PetscViewerDestroy(&v));

  PCALL(SbpProblemCreate(PETSC_COMM_WORLD, &pf));
  SbpmgTestSetOption("-sbp_grid_file", path);
  SbpmgTestSetOption("-sbp_mu_file", mpath);
  SbpmgTestSetOption("-sbp_n", "12,20");
  SbpmgTestSetOption("-sbp_backend", "device");
  PCALL(SbpProblemSetFromOptions(pf));
  SbpmgTestSetOption("-sbp_grid_file", NULL);
  SbpmgTestSetOption("-sbp_mu_file", NULL);
  SbpmgTestSetOption("-sbp_n", NULL);
  SbpmgTestSetOption("-sbp_backend", NULL);
  PCALL(SbpProblemSetUp(pf));

  PCALL(SbpProblemCreate(PETSC_COMM_WORLD, &pa));
  PCALL(SbpProblemSetSizes(pa, Nr, Ns));
  {
    Vec          xs, ys, ms;
    VecScatter   sc;
    PetscScalar *xa, *ya, *ma;
    PetscReal   *rx, *ry, *rm;
    PCALL(VecScatterCreateToAll(x, &sc, &xs));
    PCALL(VecDuplicate(xs, &ys));
    PCALL(VecDuplicate(xs, &ms));
    Vec src[3] = {x, y, mu}, dst[3] = {xs, ys, ms};
    for (int t = 0; t < 3; t++) {
      PCALL(VecScatterBegin(sc, src[t], dst[t], INSERT_VALUES, SCATTER_FORWARD));
      PCALL(VecScatterEnd(sc, src[t], dst[t], INSERT_VALUES, SCATTER_FORWARD));
    }
    PCALL(VecGetArray(xs, &xa));
    PCALL(VecGetArray(ys, &ya));
    PCALL(VecGetArray(ms, &ma));
    PCALL(PetscMalloc3(N, &rx, N, &ry, N, &rm));
    for (PetscInt k = 0; k < N; k++) {
      rx[k] = PetscRealPart(xa[k]);
      ry[k] = PetscRealPart(ya[k]);
      rm[k] = PetscRealPart(ma[k]);
    }
    PCALL(SbpProblemSetNodeCoordinatesArrays(pa, N, rx, ry));
    PCALL(SbpProblemSetMuArray(pa, N, rm));
    PCALL(PetscFree3(rx, ry, rm));
    PCALL(VecRestoreArray(xs, &xa));
    PCALL(VecRestoreArray(ys, &ya));
    PCALL(VecRestoreArray(ms, &ma));
    PCALL(VecScatterDestroy(&sc));
    PCALL(VecDestroy(&xs));
    PCALL(VecDestroy(&ys));
    PCALL(VecDestroy(&ms));
  }
  PCALL(SbpProblemSetBackend(pa, SBP_BACKEND_DEVICE));
  PCALL(SbpProblemSetUp(pa));
  PCALL(SbpProblemGetHostCoefficients(ref));
  PCALL(SbpProblemGetHostCoefficients(pf));
  PCALL(SbpProblemGetHostCoefficients(pa));
  assert_true(SbpTestCoefficientDiff(pf, ref) == 0);
  assert_true(SbpTestCoefficientDiff(pa, ref) == 0);
  { /* the coordinates come back as given */
    Vec       gx, gy;
    PetscReal nx, d;
    PCALL(SbpProblemGetCoordinates(pf, &gx, &gy));
    PCALL(VecNorm(gx, NORM_1, &nx));
    PCALL(VecNorm(x, NORM_1, &d));
    assert_true(nx == d);
    PCALL(VecDestroy(&gx));
    PCALL(VecDestroy(&gy));
  }
  PCALL(SbpProblemDestroy(&pa));
  PCALL(SbpProblemDestroy(&pf));
  PCALL(SbpProblemDestroy(&ref));
  /* the file of another grid: named at set-up */
  PCALL(SbpProblemCreate(PETSC_COMM_WORLD, &pf));
  SbpmgTestSetOption("-sbp_grid_file", path);
  SbpmgTestSetOption("-sbp_n", "12,18");
  PCALL(SbpProblemSetFromOptions(pf));
  SbpmgTestSetOption("-sbp_grid_file", NULL);
  SbpmgTestSetOption("-sbp_n", NULL);
  EXPECT_ERROR(SbpProblemSetUp(pf), PETSC_ERR_ARG_SIZ, "The x coordinate vector has 273 values: the 12 x 18 grid has 247 nodes");
  PCALL(SbpProblemDestroy(&pf));
  PCALL(VecDestroy(&x));
  PCALL(VecDestroy(&y));
  PCALL(VecDestroy(&mu));
}

/* ---------------------------------------------------------------- bad nodal data */

static SbpProblem bad_problem(PetscInt Nr, PetscInt Ns, Vec x, Vec y, Vec mu)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(PETSC_COMM_WORLD, &p));
  PCALL(SbpProblemSetSizes(p, Nr, Ns));
  if (x) PCALL(SbpProblemSetNodeCoordinates(p, x, y));
  if (mu) PCALL(SbpProblemSetMuVector(p, mu));
  PCALL(SbpProblemSetBackend(p, SBP_BACKEND_DEVICE));
  return p;
}

/* Set the natural-order entry k of v (collective). */
static void set_entry(Vec v, PetscInt k, PetscReal value)
{
  PCALL(VecSetValue(v, k, value, INSERT_VALUES));
  PCALL(VecAssemblyBegin(v));
  PCALL(VecAssemblyEnd(v));
}

static void test_bad_nodes(void **state)
{
  Vec        x, y, mu, small;
  SbpProblem p;

  sample_mapping(PETSC_COMM_WORLD, 8, 12, SBP_MAPPING_CURVED, &x, &y);
  /* a vector of another grid */
  p = bad_problem(8, 10, x, y, NULL);
  EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_SIZ, "The x coordinate vector has 117 values: the 8 x 10 grid has 99 nodes");
  PCALL(SbpProblemDestroy(&p));
  /* a coordinate that is not finite, named at its node */
  PCALL(VecDuplicate(x, &small));
  PCALL(VecCopy(y, small));
  set_entry(small, 3 + 9 * 5, NAN);
  p = bad_problem(8, 12, x, small, NULL);
  EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_OUTOFRANGE, "The y coordinate at node (i,j) = (3,5) is nan");
  PCALL(SbpProblemDestroy(&p));
  /* a folded grid: node (4,6) pulled across its neighbour, J <= 0 there */
  PCALL(VecCopy(x, small));
  {
    PetscReal  v[2];
    PetscInt   k[2] = {3 + 9 * 6, 5 + 9 * 6};
    Vec        s;
    VecScatter sc;
    PetscInt   n;
    PCALL(VecScatterCreateToAll(x, &sc, &s));
    PCALL(VecScatterBegin(sc, x, s, INSERT_VALUES, SCATTER_FORWARD));
    PCALL(VecScatterEnd(sc, x, s, INSERT_VALUES, SCATTER_FORWARD));
    PCALL(VecGetSize(s, &n));
    {
      const PetscScalar *sa;
      PCALL(VecGetArrayRead(s, &sa));
      v[0] = PetscRealPart(sa[k[0]]);
      v[1] = PetscRealPart(sa[k[1]]);
      PCALL(VecRestoreArrayRead(s, &sa));
    }
    PCALL(VecScatterDestroy(&sc));
    PCALL(VecDestroy(&s));
    set_entry(small, 4 + 9 * 6, v[0] - 2 * (v[1] - v[0])); /* node 4 far left of node 3 */
  }
  p = bad_problem(8, 12, small, y, NULL);
  /* the cells around it fold: the first in natural order named (its corners' signed areas; tests/test_sbp_files.c has more) */
  EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_OUTOFRANGE, "The node grid's cell (i,j) = (3,5) (nodes (3,5) to (4,6)) is inverted, folded or degenerate");
  PCALL(SbpProblemDestroy(&p));
  /* mu not positive at a node */
  mu = sample_mu(x, y, LayeredMu);
  set_entry(mu, 7 + 9 * 2, -0.5);
  p = bad_problem(8, 12, NULL, NULL, mu);
  EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_OUTOFRANGE, "The mu at node (i,j) = (7,2) is -0.5: mu must be finite and > 0");
  /* after set-up the nodal data are fixed */
  PCALL(SbpProblemDestroy(&p));
  p = bad_problem(8, 12, x, y, NULL);
  PCALL(SbpProblemSetUp(p));
  EXPECT_ERROR(SbpProblemSetNodeCoordinates(p, x, y), PETSC_ERR_ORDER, "Cannot change the node coordinates after SbpProblemSetUp()");
  EXPECT_ERROR(SbpProblemSetMuVector(p, mu), PETSC_ERR_ORDER, "Cannot change mu after SbpProblemSetUp()");
  PCALL(SbpProblemDestroy(&p));
  /* -sbp_mapping nodes without coordinates; a file that is not there */
  PCALL(SbpProblemCreate(PETSC_COMM_WORLD, &p));
  SbpmgTestSetOption("-sbp_mapping", "nodes");
  EXPECT_ERROR(SbpProblemSetFromOptions(p), PETSC_ERR_ARG_WRONG, "-sbp_mapping nodes: give the node coordinates with -sbp_grid_file");
  SbpmgTestSetOption("-sbp_mapping", NULL);
  SbpmgTestSetOption("-sbp_grid_file", "/nonexistent/grid.bin");
  EXPECT_ERROR(SbpProblemSetFromOptions(p), PETSC_ERR_FILE_OPEN, "/nonexistent/grid.bin");
  SbpmgTestSetOption("-sbp_grid_file", NULL);
  PCALL(SbpProblemDestroy(&p));
  PCALL(VecDestroy(&mu));
  PCALL(VecDestroy(&small));
  PCALL(VecDestroy(&x));
  PCALL(VecDestroy(&y));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_device_vs_host), cmocka_unit_test(test_coordinates),      cmocka_unit_test(test_exact_cases), cmocka_unit_test(test_convergence),
    cmocka_unit_test(test_multigrid),      cmocka_unit_test(test_files_and_arrays), cmocka_unit_test(test_bad_nodes),
};

SBPMG_TEST_MAIN("A grid and mu given at the nodes.\n", tests)
