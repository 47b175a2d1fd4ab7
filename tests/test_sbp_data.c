/* The user's data (src/sbp/data.c, kernels/rhs.cl): the manufactured problem given through the data API (host functions, OpenCL
   sources, values) gives the built-in right-hand side to 1e-13, on the curved grid with Nr != Ns, for Dirichlet and Neumann faces
   in every arrangement tried, on the device and on the host; general data on the device equal the Kronecker assembly of the same
   data (the independent reference); new boundary values are a cheap update (no program built, the right-hand side of the new values);
   a second problem of the user's own converges at the scheme's order; every bad datum ends in a named error. */
#include "test_sbp_common.h"

static const char *const BCs[] = {"DDDD", "DDNN", "NDDN", "DNND", "NNND"};
#define NBC (sizeof(BCs) / sizeof(BCs[0]))

/* ---------------------------------------------------------------- the manufactured problem, written out by the test */

/* mu and its gradient: the built-in basin's (docs/guide.md "The PDE"), or the constant MU_CONST. */
#define MU_CONST 1.7
typedef struct {
  PetscBool constant;
} MuCtx;

static PetscReal mu_gradient(const MuCtx *m, PetscReal x, PetscReal y, PetscReal *mux, PetscReal *muy)
{
  const PetscReal muout = 36, muin = 20, Lw = 0.05, D = 0.05, c = (Lw / 2) / D, rbar = (Lw / 2) * (Lw / 2), rw = 0.01 * (1 + (Lw / 2) / D);
  const PetscReal xi = (x * x + c * c * y * y - rbar) / rw, sech = 1 / PetscCoshReal(xi);

  if (m->constant) {
    *mux = *muy = 0;
    return MU_CONST;
  }
  *mux = (muout - muin) * x * sech * sech / rw;
  *muy = (muout - muin) * c * c * y * sech * sech / rw;
  return (muout - muin) / 2 * (PetscTanhReal(xi) + 1) + muin;
}

/* f = -div(mu grad u) of u = sin(pi x) cos(pi y) */
static PetscErrorCode ManufacturedForcing(void *ctx, PetscReal x, PetscReal y, PetscReal *f)
{
  PetscReal mux, muy, mu = mu_gradient((MuCtx *)ctx, x, y, &mux, &muy);
  PetscReal u = PetscSinReal(PETSC_PI * x) * PetscCosReal(PETSC_PI * y), ux = PETSC_PI * PetscCosReal(PETSC_PI * x) * PetscCosReal(PETSC_PI * y),
            uy = -PETSC_PI * PetscSinReal(PETSC_PI * x) * PetscSinReal(PETSC_PI * y);

  *f = -(mux * ux + muy * uy) + 2 * PETSC_PI * PETSC_PI * mu * u;
  return 0;
}

/* u on a Dirichlet face, n.(mu grad u) on a Neumann face (the face's type is the problem's: ctx) */
typedef struct {
  MuCtx     mu;
  SbpBCType bc[4];
} BoundaryCtx;

static PetscErrorCode ManufacturedBoundary(void *ctx, PetscInt face, PetscReal x, PetscReal y, PetscReal nx, PetscReal ny, PetscReal *g)
{
  BoundaryCtx *b = (BoundaryCtx *)ctx;
  PetscReal    mux, muy, mu = mu_gradient(&b->mu, x, y, &mux, &muy);

  if (b->bc[face - 1] == SBP_BC_DIRICHLET)
    *g = PetscSinReal(PETSC_PI * x) * PetscCosReal(PETSC_PI * y);
  else
    *g = mu * PETSC_PI * (nx * PetscCosReal(PETSC_PI * x) * PetscCosReal(PETSC_PI * y) - ny * PetscSinReal(PETSC_PI * x) * PetscSinReal(PETSC_PI * y));
  return 0;
}

/* The same as OpenCL C (constant mu, so that the sources stay short). */
static const char ForcingSource[] = "double sbp_user_forcing(double x, double y)\n"
                                    "{\n"
                                    "  return 2 * M_PI * M_PI * 1.7 * sin(M_PI * x) * cos(M_PI * y);\n"
                                    "}\n";

static void boundary_source(PetscInt face, SbpBCType type, char *src, size_t len)
{
  if (type == SBP_BC_DIRICHLET)
    PCALL(PetscSNPrintf(src, len, "double sbp_user_boundary_%d(double x, double y, double nx, double ny)\n{\n  return sin(M_PI * x) * cos(M_PI * y);\n}\n",
                        (int)face));
  else
    PCALL(PetscSNPrintf(src, len,
                        "double sbp_user_boundary_%d(double x, double y, double nx, double ny)\n{\n"
                        "  return 1.7 * M_PI * (nx * cos(M_PI * x) * cos(M_PI * y) - ny * sin(M_PI * x) * sin(M_PI * y));\n}\n",
                        (int)face));
}

/* ---------------------------------------------------------------- problems and their right-hand sides */

static SbpProblem data_problem(PetscInt Nr, PetscInt Ns, const char *bc, PetscBool constant, SbpBackend backend)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetSizes(p, Nr, Ns));
  PCALL(SbpProblemSetMapping(p, SBP_MAPPING_CURVED));
  if (constant) PCALL(SbpProblemSetMu(p, SBP_MU_CONSTANT, MU_CONST));
  for (PetscInt f = 0; f < 4; f++) PCALL(SbpProblemSetBC(p, f + 1, bc[f] == 'D' ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN));
  PCALL(SbpProblemSetBackend(p, backend));
  PCALL(SbpProblemSetUp(p));
  return p;
}

/* The right-hand side of p as a host vector (a device one copied back). */
static Vec rhs_of(SbpProblem p)
{
  Vec g, h;

  PCALL(SbpProblemCreateVector(p, &g));
  PCALL(SbpProblemComputeRHS(p, g));
  PCALL(VecCreateSeq(PETSC_COMM_SELF, (p->Nr + 1) * (p->Ns + 1), &h));
  PCALL(VecCopy(g, h));
  PCALL(VecDestroy(&g));
  return h;
}

static void expect_close(Vec a, Vec b, PetscReal tol, const char *what)
{
  PetscReal err = SbpmgTestRelDiff(a, b);

  print_message("  %s: relative difference %.2e\n", what, (double)err);
  if (!(err <= tol)) fail_msg("%s: the right-hand sides differ by %g (> %g)", what, (double)err, (double)tol);
}

static void set_boundary_functions(SbpProblem p, BoundaryCtx *b)
{
  for (PetscInt f = 1; f <= 4; f++) {
    PCALL(SbpProblemGetBC(p, f, &b->bc[f - 1]));
    PCALL(SbpProblemSetBoundaryFunction(p, f, b->bc[f - 1], ManufacturedBoundary, b));
  }
}

/* The unit outward normal of face f at node (i, j), from the mapping (the test's own: the scaled normals of docs/guide.md). */
static void unit_normal(SbpProblem p, PetscInt f, PetscInt i, PetscInt j, PetscReal X[6], PetscReal *nx, PetscReal *ny)
{
  PetscReal sJ;

  PCALL(SbpProblemEvaluateMapping(p, i, j, X));
  *nx = f == 1 ? -X[5] : f == 2 ? X[5] : f == 3 ? X[4] : -X[4];
  *ny = f == 1 ? X[3] : f == 2 ? -X[3] : f == 3 ? -X[2] : X[2];
  sJ  = PetscSqrtReal(*nx * *nx + *ny * *ny);
  *nx /= sJ;
  *ny /= sJ;
}

/* Face f's data of the boundary function as values along it. */
static void set_boundary_values(SbpProblem p, PetscInt f, SbpBoundaryFunction fn, void *ctx, PetscReal scale)
{
  PetscInt     n = f <= 2 ? p->Ns + 1 : p->Nr + 1;
  PetscScalar *v;
  SbpBCType    type;

  PCALL(SbpProblemGetBC(p, f, &type));
  PCALL(PetscMalloc1(n, &v));
  for (PetscInt t = 0; t < n; t++) {
    PetscInt  i = f <= 2 ? (f == 1 ? 0 : p->Nr) : t, j = f <= 2 ? t : (f == 3 ? 0 : p->Ns);
    PetscReal X[6], nx, ny, g;
    unit_normal(p, f, i, j, X, &nx, &ny);
    PCALL((*fn)(ctx, f, X[0], X[1], nx, ny, &g));
    v[t] = scale * g;
  }
  PCALL(SbpProblemSetBoundaryValues(p, f, type, n, v));
  PCALL(PetscFree(v));
}

/* ---------------------------------------------------------------- the tests */

/* Host functions, then values, of the manufactured problem: the built-in right-hand side (both backends, both mu, every face set). */
static void test_manufactured_through_api(void **state)
{
  for (int dev = 0; dev < 2; dev++)
    for (int mu = 0; mu < 2; mu++)
      for (size_t b = 0; b < NBC; b++)
        for (int values = 0; values < 2; values++) {
          SbpBackend  backend = dev ? SBP_BACKEND_DEVICE : SBP_BACKEND_HOST;
          SbpProblem  ref = data_problem(24, 40, BCs[b], mu, backend), p = data_problem(24, 40, BCs[b], mu, backend);
          BoundaryCtx bctx = {{mu ? PETSC_TRUE : PETSC_FALSE}, {SBP_BC_DIRICHLET}};
          Vec         gref, g, f = NULL;
          char        what[96];

          if (values) {
            for (PetscInt face = 1; face <= 4; face++) {
              PCALL(SbpProblemGetBC(p, face, &bctx.bc[face - 1]));
              set_boundary_values(p, face, ManufacturedBoundary, &bctx, 1);
            }
            f = SbpTestForcingVector(p, ManufacturedForcing, &bctx.mu);
            PCALL(SbpProblemSetForcingVector(p, f));
          } else {
            PCALL(SbpProblemSetForcingFunction(p, ManufacturedForcing, &bctx.mu));
            set_boundary_functions(p, &bctx);
          }
          gref = rhs_of(ref);
          g    = rhs_of(p);
          PCALL(
              PetscSNPrintf(what, sizeof(what), "%s, %s, %s, %s", dev ? "device" : "host", mu ? "constant" : "basin", BCs[b], values ? "values" : "functions"));
          expect_close(g, gref, 1e-13, what);
          PCALL(VecDestroy(&f));
          PCALL(VecDestroy(&g));
          PCALL(VecDestroy(&gref));
          PCALL(SbpProblemDestroy(&p));
          PCALL(SbpProblemDestroy(&ref));
        }
}

/* OpenCL sources on the device: the same right-hand side as the built-in manufactured one. */
static void test_sources(void **state)
{
  for (size_t b = 0; b < NBC; b++) {
    SbpProblem ref = data_problem(24, 40, BCs[b], PETSC_TRUE, SBP_BACKEND_DEVICE), p = data_problem(24, 40, BCs[b], PETSC_TRUE, SBP_BACKEND_DEVICE);
    Vec        gref, g;
    char       what[64];

    PCALL(SbpProblemSetForcingSource(p, ForcingSource));
    for (PetscInt face = 1; face <= 4; face++) {
      SbpBCType type;
      char      src[512];
      PCALL(SbpProblemGetBC(p, face, &type));
      boundary_source(face, type, src, sizeof(src));
      PCALL(SbpProblemSetBoundarySource(p, face, type, src));
    }
    gref = rhs_of(ref);
    g    = rhs_of(p);
    PCALL(PetscSNPrintf(what, sizeof(what), "sources, %s", BCs[b]));
    expect_close(g, gref, 1e-13, what);
    PCALL(VecDestroy(&g));
    PCALL(VecDestroy(&gref));
    PCALL(SbpProblemDestroy(&p));
    PCALL(SbpProblemDestroy(&ref));
  }
}

/* General data (not a solution of anything): a forcing and face data of their own, some faces zero. */
static PetscErrorCode OwnForcing(void *ctx, PetscReal x, PetscReal y, PetscReal *f)
{
  *f = PetscExpReal(0.3 * x) * (1 + y * y);
  return 0;
}

static PetscErrorCode OwnBoundary(void *ctx, PetscInt face, PetscReal x, PetscReal y, PetscReal nx, PetscReal ny, PetscReal *g)
{
  *g = face * (0.5 + x * y) + 0.25 * nx - 0.75 * ny;
  return 0;
}

/* The device right-hand side of general data (functions, values, zero faces) against the Kronecker assembly of the same data. */
static void test_general_data_vs_kronecker(void **state)
{
  for (size_t b = 0; b < NBC; b++)
    for (int values = 0; values < 2; values++) {
      SbpProblem ps[2] = {data_problem(20, 28, BCs[b], PETSC_FALSE, SBP_BACKEND_DEVICE), data_problem(20, 28, BCs[b], PETSC_FALSE, SBP_BACKEND_HOST)};
      Vec        g[2], gk, f[2] = {NULL, NULL};
      char       what[64];

      for (int q = 0; q < 2; q++) {
        SbpProblem p = ps[q];
        for (PetscInt face = 1; face <= 3; face++) { /* face 4 stays zero */
          SbpBCType type;
          PCALL(SbpProblemGetBC(p, face, &type));
          if (values && face != 2)
            set_boundary_values(p, face, OwnBoundary, NULL, 1);
          else
            PCALL(SbpProblemSetBoundaryFunction(p, face, type, OwnBoundary, NULL));
        }
        if (values) {
          f[q] = SbpTestForcingVector(p, OwnForcing, NULL);
          PCALL(SbpProblemSetForcingVector(p, f[q]));
        } else
          PCALL(SbpProblemSetForcingFunction(p, OwnForcing, NULL));
        g[q] = rhs_of(p);
      }
      PCALL(VecDuplicate(g[1], &gk));
      PCALL(SbpAssembleRHSByKronecker(ps[1], gk));
      PCALL(PetscSNPrintf(what, sizeof(what), "%s, %s: device vs Kronecker", BCs[b], values ? "values" : "functions"));
      expect_close(g[0], gk, 1e-13, what);
      PCALL(PetscSNPrintf(what, sizeof(what), "%s, %s: host vs Kronecker", BCs[b], values ? "values" : "functions"));
      expect_close(g[1], gk, 1e-13, what);
      PCALL(VecDestroy(&gk));
      for (int q = 0; q < 2; q++) {
        PCALL(VecDestroy(&g[q]));
        PCALL(VecDestroy(&f[q]));
        PCALL(SbpProblemDestroy(&ps[q]));
      }
    }
}

/* A time series: new boundary values each step, the right-hand side built again without a program built; the right-hand side is
   affine in the data (g(2a) - g(a) = g(a) - g(0): the forcing is zero) and equals a fresh problem's of the same values. */
static void test_time_series(void **state)
{
  SbpProblem p = data_problem(24, 40, "DDNN", PETSC_FALSE, SBP_BACKEND_DEVICE), fresh = data_problem(24, 40, "DDNN", PETSC_FALSE, SBP_BACKEND_DEVICE);
  Vec        g[3], gf, d1, d2;
  PetscInt   built;

  PCALL(SbpProblemSetForcingFunction(p, NULL, NULL)); /* zero forcing */
  for (int step = 0; step < 3; step++) {
    for (PetscInt face = 1; face <= 4; face++) set_boundary_values(p, face, OwnBoundary, NULL, step);
    if (step == 1) built = p->cl->stats.programs_built + p->cl->stats.programs_from_disk;
    g[step] = rhs_of(p);
  }
  assert_int_equal(p->cl->stats.programs_built + p->cl->stats.programs_from_disk, built);
  PCALL(VecDuplicate(g[0], &d1));
  PCALL(VecDuplicate(g[0], &d2));
  PCALL(VecWAXPY(d1, -1, g[0], g[1]));
  PCALL(VecWAXPY(d2, -1, g[1], g[2]));
  expect_close(d2, d1, 1e-13, "affine in the boundary values");
  PCALL(SbpProblemSetForcingFunction(fresh, NULL, NULL));
  for (PetscInt face = 1; face <= 4; face++) set_boundary_values(fresh, face, OwnBoundary, NULL, 2);
  gf = rhs_of(fresh);
  expect_close(g[2], gf, 0, "step 2 against a fresh problem");
  for (int step = 0; step < 3; step++) PCALL(VecDestroy(&g[step]));
  PCALL(VecDestroy(&gf));
  PCALL(VecDestroy(&d1));
  PCALL(VecDestroy(&d2));
  PCALL(SbpProblemDestroy(&fresh));
  PCALL(SbpProblemDestroy(&p));
}

/* ---------------------------------------------------------------- a problem of one's own */

/* u = exp(x/2) sin(2y) + x y with constant mu: f = -mu lap u = -mu exp(x/2) sin(2y) (1/4 - 4). */
static void own_exact(PetscReal x, PetscReal y, PetscReal *u, PetscReal *ux, PetscReal *uy)
{
  *u  = PetscExpReal(0.5 * x) * PetscSinReal(2 * y) + x * y;
  *ux = 0.5 * PetscExpReal(0.5 * x) * PetscSinReal(2 * y) + y;
  *uy = 2 * PetscExpReal(0.5 * x) * PetscCosReal(2 * y) + x;
}

static PetscErrorCode OwnExact(void *ctx, PetscReal x, PetscReal y, PetscReal *u)
{
  PetscReal ux, uy;
  own_exact(x, y, u, &ux, &uy);
  return 0;
}

static PetscErrorCode OwnExactForcing(void *ctx, PetscReal x, PetscReal y, PetscReal *f)
{
  *f = -MU_CONST * PetscExpReal(0.5 * x) * PetscSinReal(2 * y) * (0.25 - 4);
  return 0;
}

static PetscErrorCode OwnExactBoundary(void *ctx, PetscInt face, PetscReal x, PetscReal y, PetscReal nx, PetscReal ny, PetscReal *g)
{
  SbpBCType *bc = (SbpBCType *)ctx;
  PetscReal  u, ux, uy;

  own_exact(x, y, &u, &ux, &uy);
  *g = bc[face - 1] == SBP_BC_DIRICHLET ? u : MU_CONST * (nx * ux + ny * uy);
  return 0;
}

static PetscReal own_problem_error(PetscInt N, SbpBackend backend)
{
  SbpTestSystem s;
  SbpBCType     bc[4];
  PetscReal     eH;
  SbpProblem    p = data_problem(N, 2 * N, "DNDN", PETSC_TRUE, backend);

  for (PetscInt f = 1; f <= 4; f++) PCALL(SbpProblemGetBC(p, f, &bc[f - 1]));
  PCALL(SbpProblemSetForcingFunction(p, OwnExactForcing, NULL));
  for (PetscInt f = 1; f <= 4; f++) PCALL(SbpProblemSetBoundaryFunction(p, f, bc[f - 1], OwnExactBoundary, bc));
  PCALL(SbpProblemSetExactSolution(p, OwnExact, NULL));
  SbpTestSystemCreate(p, PETSC_TRUE, &s); /* g from the data on the host */
  if (backend == SBP_BACKEND_DEVICE) {    /* and from the device */
    Vec gd = rhs_of(p);
    PCALL(VecCopy(gd, s.g));
    PCALL(VecDestroy(&gd));
  }
  s.ksp = SbpTestCholmod(s.A);
  PCALL(KSPSolve(s.ksp, s.g, s.u));
  PCALL(SbpProblemComputeError(s.p, s.u, &eH, NULL));
  print_message("  %4d x %4d: ||u - ue||_H = %.6e\n", (int)N, (int)(2 * N), (double)eH);
  SbpTestSystemDestroy(&s);
  return eH;
}

/* The user's own exact solution converges at the order of the built-in one (second, test_sbp), with data from the device. */
static void test_own_problem_converges(void **state)
{
  PetscReal e[3];

  for (int k = 0; k < 3; k++) e[k] = own_problem_error(32 << k, SBP_BACKEND_DEVICE);
  for (int k = 0; k < 2; k++) {
    PetscReal order = PetscLog2Real(e[k] / e[k + 1]);
    print_message("  observed order: %.4f\n", (double)order);
    if (order < 1.9 || order > 2.3) fail_msg("observed order %.4f outside [1.9, 2.3]", (double)order);
  }
}

/* ---------------------------------------------------------------- bad data */

static void test_bad_data(void **state)
{
  SbpProblem  p = data_problem(8, 12, "DDNN", PETSC_FALSE, SBP_BACKEND_DEVICE), h = data_problem(8, 12, "DDNN", PETSC_FALSE, SBP_BACKEND_HOST);
  PetscScalar v[13];
  Vec         g, f;

  for (int t = 0; t < 13; t++) v[t] = t;
  EXPECT_ERROR(SbpProblemSetBoundaryFunction(p, 0, SBP_BC_DIRICHLET, OwnBoundary, NULL), PETSC_ERR_ARG_OUTOFRANGE, "Face 0 does not exist");
  EXPECT_ERROR(SbpProblemSetBoundaryValues(p, 5, SBP_BC_DIRICHLET, 13, v), PETSC_ERR_ARG_OUTOFRANGE, "Face 5 does not exist");
  EXPECT_ERROR(SbpProblemSetBoundaryFunction(p, 1, SBP_BC_NEUMANN, OwnBoundary, NULL), PETSC_ERR_ARG_INCOMP, "Face 1 is Dirichlet");
  EXPECT_ERROR(SbpProblemSetBoundaryFunction(p, 1, (SbpBCType)7, OwnBoundary, NULL), PETSC_ERR_ARG_OUTOFRANGE, "Boundary data of type 7");
  EXPECT_ERROR(SbpProblemSetBoundaryValues(p, 1, SBP_BC_DIRICHLET, 9, v), PETSC_ERR_ARG_SIZ, "Face 1 of the 8 x 12 grid has 13 nodes: got 9 values");
  v[4] = (PetscReal)NAN;
  EXPECT_ERROR(SbpProblemSetBoundaryValues(p, 3, SBP_BC_NEUMANN, 9, v), PETSC_ERR_FP, "Boundary value 4 of face 3 is not finite");
  EXPECT_ERROR(SbpProblemSetForcingSource(p, ""), PETSC_ERR_ARG_WRONG, "The OpenCL source of the forcing is empty");

  /* the conditions changed after the data were given: named at the next right-hand side */
  PCALL(SbpProblemCreateVector(p, &g));
  PCALL(SbpProblemSetBoundaryFunction(p, 2, SBP_BC_DIRICHLET, OwnBoundary, NULL));
  p->bc[1] = SBP_BC_NEUMANN; /* what -sbp_bc after the data does: the setter refuses once set up */
  EXPECT_ERROR(SbpProblemComputeRHS(p, g), PETSC_ERR_ARG_INCOMP, "Face 2 is Neumann now, its data were given as Dirichlet");
  p->bc[1] = SBP_BC_DIRICHLET;

  /* a forcing vector of another grid */
  PCALL(VecCreateSeq(PETSC_COMM_SELF, 50, &f));
  PCALL(SbpProblemSetForcingVector(p, f));
  EXPECT_ERROR(SbpProblemComputeRHS(p, g), PETSC_ERR_ARG_SIZ, "The forcing vector has 50 entries, the 8 x 12 grid 117 nodes");
  PCALL(VecDestroy(&f));

  /* a source that does not compile: the build log, with the line of the user's source */
  PCALL(SbpProblemSetForcingSource(p, "double sbp_user_forcing(double x, double y)\n{\n  return no_such_name;\n}\n"));
  EXPECT_ERROR(SbpProblemComputeRHS(p, g), PETSC_ERR_LIB, "no_such_name");
  EXPECT_ERROR(SbpProblemComputeRHS(p, g), PETSC_ERR_LIB, ":3:");
  PCALL(VecDestroy(&g));

  /* the host cannot evaluate OpenCL source; a user's problem has no built-in exact solution */
  PCALL(SbpProblemSetForcingSource(h, ForcingSource));
  PCALL(SbpProblemCreateVector(h, &g));
  EXPECT_ERROR(SbpProblemComputeRHS(h, g), PETSC_ERR_ARG_WRONGSTATE, "the host cannot evaluate it");
  EXPECT_ERROR(SbpProblemComputeExactSolution(h, g), PETSC_ERR_ARG_WRONGSTATE, "give its exact solution with SbpProblemSetExactSolution()");
  PCALL(VecDestroy(&g));
  PCALL(SbpProblemDestroy(&h));
  PCALL(SbpProblemDestroy(&p));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_manufactured_through_api),  cmocka_unit_test(test_sources),
    cmocka_unit_test(test_general_data_vs_kronecker), cmocka_unit_test(test_time_series),
    cmocka_unit_test(test_own_problem_converges),     cmocka_unit_test(test_bad_data),
};

SBPMG_TEST_MAIN("The user's data of the right-hand side.\n", tests)
