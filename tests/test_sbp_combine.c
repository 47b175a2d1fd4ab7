/* Every way of giving a problem combines (docs/guide.md "Bringing a problem", "What combines"): the grid as a host function, OpenCL
   source, node coordinates or built in; mu, the forcing, the faces' data and the exact solution each as a host function, OpenCL
   source or values; on the device and the host backends. One problem, u = x^2 + y^3 with mu = 1 + (x^2 + y) / 4 on the map
   x = r + s^2 / 10, y = s + r^2 / 20, faces DNND, given every way: the right-hand side, the operator applied to a fixed vector and
   the error of a fixed vector agree to rounding with those of the same problem given as host functions on the host backend (the
   reference of its grid: node coordinates differentiate their nodes, so they are a problem of their own, as is the built-in grid).
   The kinds of mu, data and exact solution run through an orthogonal array (every pair of kinds meets), the faces' data mixed
   (face F takes the kind after the forcing's by F - 1). Every OpenCL source defines a helper h() of its own meaning, so the sources
   of one program must not collide. The reference's solution (CHOLMOD) has an error below 2e-2 (the data are consistent: 9e-3 at this resolution, O(1) for a
   wrong sign). */
#include "test_sbp_common.h"

static const char help[] = "Every way of giving the grid, mu, the data and the exact solution combines, on both backends.\n";

#define NR 24
#define NS 20

typedef enum { K_FUNCTION, K_SOURCE, K_VALUES } Kind;
typedef enum { G_FUNCTION, G_SOURCE, G_NODES, G_BUILTIN } Grid;
static const char *const KindNames[] = {"function", "source", "values"};
static const char *const GridNames[] = {"function", "source", "nodes", "built-in"};
static const char        BC[]        = "DNND";

/* ------------------------------------------------------------------ the problem as host functions */
static PetscErrorCode map_fn(void *ctx, PetscReal r, PetscReal s, PetscReal X[6])
{
  X[0] = r + s * s / 10;
  X[1] = s + r * r / 20;
  X[2] = 1;
  X[3] = s / 5;
  X[4] = r / 10;
  X[5] = 1;
  return 0;
}
static PetscReal mu_of(PetscReal x, PetscReal y)
{
  return 1 + (x * x + y) / 4;
}
static PetscReal u_of(PetscReal x, PetscReal y)
{
  return x * x + y * y * y;
}
static PetscReal f_of(PetscReal x, PetscReal y) /* -div(mu grad u) */
{
  return -((x / 2) * (2 * x) + 0.25 * (3 * y * y) + mu_of(x, y) * (2 + 6 * y));
}
static PetscReal g_of(PetscInt face, PetscReal x, PetscReal y, PetscReal nx, PetscReal ny)
{
  return BC[face - 1] == 'D' ? u_of(x, y) : mu_of(x, y) * (nx * 2 * x + ny * 3 * y * y);
}
static PetscErrorCode mu_fn(void *ctx, PetscReal x, PetscReal y, PetscReal *m)
{
  *m = mu_of(x, y);
  return 0;
}
static PetscErrorCode f_fn(void *ctx, PetscReal x, PetscReal y, PetscReal *f)
{
  *f = f_of(x, y);
  return 0;
}
static PetscErrorCode u_fn(void *ctx, PetscReal x, PetscReal y, PetscReal *u)
{
  *u = u_of(x, y);
  return 0;
}
static PetscErrorCode g_fn(void *ctx, PetscInt face, PetscReal x, PetscReal y, PetscReal nx, PetscReal ny, PetscReal *g)
{
  *g = g_of(face, x, y, nx, ny);
  return 0;
}

/* ------------------------------------------------------------------ the same as OpenCL sources, each with its own helper h() */
static const char MapSource[] = "double h(double v) { return v * v; }\n"
                                "void sbp_user_mapping(double r, double s, double X[6])\n"
                                "{\n  X[0] = r + h(s) / 10; X[1] = s + h(r) / 20; X[2] = 1; X[3] = s / 5; X[4] = r / 10; X[5] = 1;\n}\n";
static const char MuSource[]  = "double h(double x, double y) { return (x * x + y) / 4; }\n"
                                "double sbp_user_mu(double x, double y) { return 1 + h(x, y); }\n";
static const char FSource[]   = "__constant double h = 0.25;\n"
                                "double mu(double x, double y) { return 1 + (x * x + y) * h; }\n"
                                "double sbp_user_forcing(double x, double y) { return -((x / 2) * (2 * x) + h * (3 * y * y) + mu(x, y) * (2 + 6 * y)); }\n";
static const char USource[]   = "double h(double y) { return y * y * y; }\n"
                                "double sbp_user_exact(double x, double y) { return x * x + h(y); }\n";

static void face_source(PetscInt face, char *src, size_t len)
{
  if (BC[face - 1] == 'D')
    PCALL(PetscSNPrintf(src, len,
                        "double h(double x, double y) { return x * x + y * y * y; }\n"
                        "double sbp_user_boundary_%d(double x, double y, double nx, double ny) { return h(x, y); }\n",
                        (int)face));
  else
    PCALL(PetscSNPrintf(src, len,
                        "double h(double x, double y) { return 1 + (x * x + y) / 4; }\n"
                        "double sbp_user_boundary_%d(double x, double y, double nx, double ny) { return h(x, y) * (nx * 2 * x + ny * 3 * y * y); }\n",
                        (int)face));
}

/* ------------------------------------------------------------------ the nodes' coordinates and values */
/* x, y of the nodes in natural order: the map at the reference nodes, or the built-in grid's (a host problem's coordinates). */
static void grid_coordinates(Grid grid, PetscReal *x, PetscReal *y)
{
  if (grid == G_BUILTIN) {
    SbpProblem         q;
    Vec                vx, vy;
    const PetscScalar *ax, *ay;
    PCALL(SbpProblemCreate(PETSC_COMM_SELF, &q));
    PCALL(SbpProblemSetSizes(q, NR, NS));
    PCALL(SbpProblemSetBackend(q, SBP_BACKEND_HOST));
    PCALL(SbpProblemSetUp(q));
    PCALL(SbpProblemGetCoordinates(q, &vx, &vy));
    PCALL(VecGetArrayRead(vx, &ax));
    PCALL(VecGetArrayRead(vy, &ay));
    for (PetscInt k = 0; k < (NR + 1) * (NS + 1); k++) {
      x[k] = PetscRealPart(ax[k]);
      y[k] = PetscRealPart(ay[k]);
    }
    PCALL(VecRestoreArrayRead(vx, &ax));
    PCALL(VecRestoreArrayRead(vy, &ay));
    SbpmgTestDestroyVecs(&vx, &vy, NULL);
    PCALL(SbpProblemDestroy(&q));
    return;
  }
  for (PetscInt j = 0; j <= NS; j++)
    for (PetscInt i = 0; i <= NR; i++) {
      PetscReal X[6];
      PCALL(map_fn(NULL, -1 + 2.0 * i / NR, -1 + 2.0 * j / NS, X));
      x[i + (NR + 1) * j] = X[0];
      y[i + (NR + 1) * j] = X[1];
    }
}

/* A natural-order vector of fn at the nodes. */
static Vec node_values(const PetscReal *x, const PetscReal *y, PetscReal (*fn)(PetscReal, PetscReal))
{
  Vec          v;
  PetscScalar *a;
  PCALL(VecCreateSeq(PETSC_COMM_SELF, (NR + 1) * (NS + 1), &v));
  PCALL(VecGetArrayWrite(v, &a));
  for (PetscInt k = 0; k < (NR + 1) * (NS + 1); k++) a[k] = fn(x[k], y[k]);
  PCALL(VecRestoreArrayWrite(v, &a));
  return v;
}

/* ------------------------------------------------------------------ one combination */
typedef struct {
  Grid       grid;
  Kind       mu, data, exact;
  SbpBackend backend;
} Combination;

/* The problem of a combination, set up, its data and exact solution given (the values' vectors destroyed: the problem keeps
   references). */
static SbpProblem make_problem(const Combination *c)
{
  SbpProblem p;
  PetscReal *x, *y;

  PCALL(PetscMalloc2((NR + 1) * (NS + 1), &x, (NR + 1) * (NS + 1), &y));
  grid_coordinates(c->grid, x, y);
  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetSizes(p, NR, NS));
  for (PetscInt f = 1; f <= 4; f++) PCALL(SbpProblemSetBC(p, f, BC[f - 1] == 'D' ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN));
  if (c->grid == G_FUNCTION) PCALL(SbpProblemSetMappingFunction(p, map_fn, NULL));
  if (c->grid == G_SOURCE) PCALL(SbpProblemSetMappingSource(p, MapSource));
  if (c->grid == G_NODES) PCALL(SbpProblemSetNodeCoordinatesArrays(p, (NR + 1) * (NS + 1), x, y));
  if (c->mu == K_FUNCTION) PCALL(SbpProblemSetMuFunction(p, mu_fn, NULL));
  if (c->mu == K_SOURCE) PCALL(SbpProblemSetMuSource(p, MuSource));
  if (c->mu == K_VALUES) {
    Vec m = node_values(x, y, mu_of);
    PCALL(SbpProblemSetMuVector(p, m));
    PCALL(VecDestroy(&m));
  }
  PCALL(SbpProblemSetBackend(p, c->backend));
  PCALL(SbpProblemSetUp(p));
  if (c->data == K_FUNCTION) PCALL(SbpProblemSetForcingFunction(p, f_fn, NULL));
  if (c->data == K_SOURCE) PCALL(SbpProblemSetForcingSource(p, FSource));
  if (c->data == K_VALUES) {
    Vec f = node_values(x, y, f_of);
    PCALL(SbpProblemSetForcingVector(p, f));
    PCALL(VecDestroy(&f));
  }
  for (PetscInt face = 1; face <= 4; face++) { /* the kind after the forcing's by face - 1 */
    const Kind      k    = (Kind)((c->data + face - 1) % (c->backend == SBP_BACKEND_HOST ? 2 : 3));
    const Kind      kind = c->backend == SBP_BACKEND_HOST && k == K_SOURCE ? K_VALUES : k;
    const SbpBCType type = BC[face - 1] == 'D' ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN;
    const PetscInt  n    = face <= 2 ? NS + 1 : NR + 1;

    if (kind == K_FUNCTION) PCALL(SbpProblemSetBoundaryFunction(p, face, type, g_fn, NULL));
    if (kind == K_SOURCE) {
      char src[512];
      face_source(face, src, sizeof(src));
      PCALL(SbpProblemSetBoundarySource(p, face, type, src));
    }
    if (kind == K_VALUES) {
      PetscReal   fx[NR + NS + 2], fy[NR + NS + 2], nx[NR + NS + 2], ny[NR + NS + 2];
      PetscScalar g[NR + NS + 2];
      PCALL(SbpProblemGetFaceGeometry(p, face, n, fx, fy, nx, ny));
      for (PetscInt t = 0; t < n; t++) g[t] = g_of(face, fx[t], fy[t], nx[t], ny[t]);
      PCALL(SbpProblemSetBoundaryValues(p, face, type, n, g));
    }
  }
  if (c->exact == K_FUNCTION) PCALL(SbpProblemSetExactSolution(p, u_fn, NULL));
  if (c->exact == K_SOURCE) PCALL(SbpProblemSetExactSolutionSource(p, USource));
  if (c->exact == K_VALUES) {
    Vec u = node_values(x, y, u_of);
    PCALL(SbpProblemSetExactSolutionVector(p, u));
    PCALL(VecDestroy(&u));
  }
  PCALL(PetscFree2(x, y));
  return p;
}

/* The reference of a grid: host functions on the host backend (the source grid's is the function grid's: the same map); its
   solution's error checked small. */
static SbpTestAnswer reference_of(Grid grid)
{
  const Combination c = {grid == G_SOURCE ? G_FUNCTION : grid, K_FUNCTION, K_FUNCTION, K_FUNCTION, SBP_BACKEND_HOST};
  SbpProblem        p = make_problem(&c);
  SbpTestAnswer     a = SbpTestAnswerOf(p, PETSC_TRUE);
  Mat               A;
  KSP               ksp;
  Vec               u;
  PetscReal         err;

  PCALL(SbpProblemCreateAssembledOperator(p, &A));
  PCALL(MatCreateVecs(A, &u, NULL));
  ksp = SbpTestCholmod(A);
  PCALL(KSPSolve(ksp, a.b, u));
  PCALL(SbpProblemComputeError(p, u, &err, NULL));
  print_message("%s grid: the reference's solution has the error %.3e (H norm)\n", GridNames[grid], (double)err);
  if (!(err < 2e-2)) fail_msg("%s grid: the reference's error %g: the data are not consistent", GridNames[grid], (double)err);
  PCALL(KSPDestroy(&ksp));
  PCALL(MatDestroy(&A));
  PCALL(VecDestroy(&u));
  PCALL(SbpProblemDestroy(&p));
  return a;
}

static void expect_same(const SbpTestAnswer *ref, const SbpTestAnswer *a, const Combination *c)
{
  const PetscReal db = SbpmgTestRelDiff(a->b, ref->b), dA = SbpmgTestRelDiff(a->Ax, ref->Ax);
  const PetscReal de = PetscMax(PetscAbsReal(a->err[0] - ref->err[0]) / ref->err[0], PetscAbsReal(a->err[1] - ref->err[1]) / ref->err[1]);

  print_message("  %-8s grid, mu %-8s, data %-8s, exact %-8s (%s): b %.1e, A x %.1e, errors %.1e\n", GridNames[c->grid], KindNames[c->mu], KindNames[c->data],
                KindNames[c->exact], c->backend == SBP_BACKEND_HOST ? "host" : "device", (double)db, (double)dA, (double)de);
  if (!(db <= 1e-12) || !(dA <= 1e-12) || !(de <= 1e-12))
    fail_msg("%s grid, mu %s, data %s, exact %s: differs from the reference (b %g, A x %g, errors %g)", GridNames[c->grid], KindNames[c->mu],
             KindNames[c->data], KindNames[c->exact], (double)db, (double)dA, (double)de);
}

/* Every combination of a grid on a backend: on the device all three kinds in an orthogonal array (mu a, data b, exact a + b mod 3);
   on the host (no sources) every combination of functions and values. */
static void sweep(Grid grid, SbpBackend backend)
{
  SbpTestAnswer ref = reference_of(grid);

  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) {
      Combination   c = {grid, (Kind)a, (Kind)b, (Kind)((a + b) % 3), backend};
      SbpProblem    p;
      SbpTestAnswer ans;

      if (backend == SBP_BACKEND_HOST) { /* a, b in {function, values}, exact both ways */
        if (a == K_SOURCE || b == K_SOURCE) continue;
        for (int e = 0; e < 2; e++) {
          c.exact = e ? K_VALUES : K_FUNCTION;
          p       = make_problem(&c);
          ans     = SbpTestAnswerOf(p, PETSC_TRUE);
          expect_same(&ref, &ans, &c);
          SbpTestAnswerDestroy(&ans);
          PCALL(SbpProblemDestroy(&p));
        }
        continue;
      }
      p   = make_problem(&c);
      ans = SbpTestAnswerOf(p, PETSC_TRUE);
      expect_same(&ref, &ans, &c);
      SbpTestAnswerDestroy(&ans);
      PCALL(SbpProblemDestroy(&p));
    }
  SbpTestAnswerDestroy(&ref);
}

static void test_device_function_grid(void **state)
{
  sweep(G_FUNCTION, SBP_BACKEND_DEVICE);
}
static void test_device_source_grid(void **state)
{
  sweep(G_SOURCE, SBP_BACKEND_DEVICE);
}
static void test_device_node_grid(void **state)
{
  sweep(G_NODES, SBP_BACKEND_DEVICE);
}
static void test_device_builtin_grid(void **state)
{
  sweep(G_BUILTIN, SBP_BACKEND_DEVICE);
}
static void test_host_grids(void **state)
{
  sweep(G_FUNCTION, SBP_BACKEND_HOST);
  sweep(G_NODES, SBP_BACKEND_HOST);
  sweep(G_BUILTIN, SBP_BACKEND_HOST);
}

/* The exact solution's bad inputs: a source on the host backend, values of the wrong length. */
static void test_host_exact_bad_inputs(void **state)
{
  SbpProblem p;
  Vec        u, v;

  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetSizes(p, 8, 8));
  PCALL(SbpProblemSetBackend(p, SBP_BACKEND_HOST));
  PCALL(SbpProblemSetUp(p));
  PCALL(SbpProblemCreateVector(p, &u));
  PCALL(SbpProblemSetForcingFunction(p, f_fn, NULL));
  PCALL(SbpProblemSetExactSolutionSource(p, USource));
  EXPECT_ERROR(SbpProblemComputeError(p, u, NULL, NULL), PETSC_ERR_ARG_WRONGSTATE,
               "The exact solution is OpenCL source (SbpProblemSetExactSolutionSource()): the host backend cannot evaluate it");
  PCALL(VecCreateSeq(PETSC_COMM_SELF, 80, &v));
  PCALL(SbpProblemSetExactSolutionVector(p, v));
  EXPECT_ERROR(SbpProblemComputeExactSolution(p, u), PETSC_ERR_ARG_SIZ, "The exact solution's vector has 80 entries, the 8 x 8 grid 81 nodes");
  EXPECT_ERROR(SbpProblemSetExactSolutionSource(p, ""), PETSC_ERR_ARG_WRONG, "The OpenCL source of the exact solution is empty");
  SbpmgTestDestroyVecs(&u, &v, NULL);
  PCALL(SbpProblemDestroy(&p));
}

static int setup(void **state)
{
  SbpmgCL cl;
  return (int)SbpmgCLGetDefault(&cl);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup(test_device_function_grid, setup),
    cmocka_unit_test_setup(test_device_source_grid, setup),
    cmocka_unit_test_setup(test_device_node_grid, setup),
    cmocka_unit_test_setup(test_device_builtin_grid, setup),
    cmocka_unit_test(test_host_grids),
    cmocka_unit_test(test_host_exact_bad_inputs),
};

SBPMG_TEST_MAIN(help, tests)
