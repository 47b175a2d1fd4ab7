/* The right-hand side, the error norm and the face traction of order 4 and 6 (src/sbp/rhs.c, exact.c, traction.c; kernels/rhs.cl,
   traction.cl, sbp_face.cl; spec-sbp-sat-highorder.md sections 1, 3.2, 3.4, 4, 5): the right-hand side equals the Kronecker assembly
   K_f of the same data (src/sbp/assemble.c) for the face sets DDNN, DDDD, NDDN, NNNN on the curved grid with Nr != Ns, manufactured and
   the user's data (functions, values, OpenCL source), host and device backends, 1, 2 and 3 ranks; the error norm equals a host sum with
   the order-p weights of SbpSparse1DNorm (1, 2, 3 ranks). The traction of order 4 and 6: tests/test_sbp_traction_order.c. */
#include "test_sbp_common.h"

static const char help[] = "The right-hand side, error norm and face traction of SBP order 4 and 6.\n";

static const PetscInt Orders[2] = {4, 6};

/* ---------------------------------------------------------------- problems and the data of the user paths */

/* A problem of the order on comm: Nr x Ns, faces bc ("DDNN"), the mapping, mu constant 3 (mu_const) or the basin, the backend; set up. */
static SbpProblem order_problem(MPI_Comm comm, PetscInt order, PetscInt Nr, PetscInt Ns, const char *bc, SbpMappingType map, PetscBool mu_const,
                                SbpBackend backend)
{
  const SbpTestOrderSettings set = {order, mu_const ? 3 : 0, NULL, NULL};
  return SbpTestOrderProblem(comm, Nr, Ns, bc, map, backend, &set);
}

static PetscErrorCode OwnForcing(void *ctx, PetscReal x, PetscReal y, PetscReal *f)
{
  *f = 1 + x * x - 0.5 * y + PetscSinReal(2 * x * y);
  return 0;
}

static PetscErrorCode OwnBoundary(void *ctx, PetscInt face, PetscReal x, PetscReal y, PetscReal nx, PetscReal ny, PetscReal *g)
{
  *g = face * (0.5 + x * y) + 0.25 * nx - 0.75 * ny + PetscCosReal(3 * x);
  return 0;
}

static const char OwnForcingSource[] = "double sbp_user_forcing(double x, double y) { return 1 + x * x - 0.5 * y + sin(2 * x * y); }\n";

/* The unit outward normal of face f at node (i, j) of the curved grid (the mapping's analytic derivatives). */
static void unit_normal(SbpProblem p, PetscInt f, PetscInt i, PetscInt j, PetscReal X[6], PetscReal *nx, PetscReal *ny)
{
  PetscReal sJ;

  PCALL(SbpMappingCurved(NULL, -1 + i * p->hr, -1 + j * p->hs, X));
  *nx = f == 1 ? -X[5] : f == 2 ? X[5] : f == 3 ? X[4] : -X[4];
  *ny = f == 1 ? X[3] : f == 2 ? -X[3] : f == 3 ? -X[2] : X[2];
  sJ  = PetscSqrtReal(*nx * *nx + *ny * *ny);
  *nx /= sJ;
  *ny /= sJ;
}

typedef enum { DATA_MANUFACTURED, DATA_FUNCTIONS, DATA_VALUES, DATA_SOURCES } DataPath;
static const char *const DataNames[] = {"manufactured", "functions", "values", "sources"};

/* The user's data of the path on faces 1..3 and the forcing, face 4 zero values (a mix of kinds); the values of the forcing are returned
   (destroy after the right-hand side; NULL: none). */
static Vec set_data(SbpProblem p, DataPath path)
{
  Vec f = NULL;

  if (path == DATA_MANUFACTURED) return NULL;
  for (PetscInt face = 1; face <= 4; face++) {
    SbpBCType type;
    PCALL(SbpProblemGetBC(p, face, &type));
    if (face == 4) {
      PetscInt     n = p->Nr + 1;
      PetscScalar *z;
      PCALL(PetscCalloc1(n, &z));
      PCALL(SbpProblemSetBoundaryValues(p, face, type, n, z));
      PCALL(PetscFree(z));
    } else if (path == DATA_FUNCTIONS)
      PCALL(SbpProblemSetBoundaryFunction(p, face, type, OwnBoundary, NULL));
    else if (path == DATA_SOURCES) {
      char src[256];
      PCALL(PetscSNPrintf(
          src, sizeof(src),
          "double sbp_user_boundary_%d(double x, double y, double nx, double ny) { return %d * (0.5 + x * y) + 0.25 * nx - 0.75 * ny + cos(3 * x); }\n",
          (int)face, (int)face));
      PCALL(SbpProblemSetBoundarySource(p, face, type, src));
    } else {
      PetscInt     n = face <= 2 ? p->Ns + 1 : p->Nr + 1;
      PetscScalar *v;
      PCALL(PetscMalloc1(n, &v));
      for (PetscInt t = 0; t < n; t++) {
        PetscInt  i = face <= 2 ? (face == 1 ? 0 : p->Nr) : t, j = face <= 2 ? t : (face == 3 ? 0 : p->Ns);
        PetscReal X[6], nx, ny, g;
        unit_normal(p, face, i, j, X, &nx, &ny);
        PCALL(OwnBoundary(NULL, face, X[0], X[1], nx, ny, &g));
        v[t] = g;
      }
      PCALL(SbpProblemSetBoundaryValues(p, face, type, n, v));
      PCALL(PetscFree(v));
    }
  }
  if (path == DATA_FUNCTIONS) PCALL(SbpProblemSetForcingFunction(p, OwnForcing, NULL));
  if (path == DATA_SOURCES) PCALL(SbpProblemSetForcingSource(p, OwnForcingSource));
  if (path == DATA_VALUES) {
    f = SbpTestForcingVector(p, OwnForcing, NULL);
    PCALL(SbpProblemSetForcingVector(p, f));
  }
  return f;
}

/* A host vector of the problem's layout (its DMDA's). */
static Vec layout_vector(SbpProblem p)
{
  DM  da;
  Vec v;

  PCALL(SbpProblemGetLayoutDM(p, &da));
  PCALL(DMCreateGlobalVector(da, &v));
  return v;
}

/* The right-hand side of p (its own kind of vector), copied into a host vector of the layout. */
static Vec rhs_of(SbpProblem p)
{
  Vec g, h = layout_vector(p);

  PCALL(SbpProblemCreateVector(p, &g));
  PCALL(SbpProblemComputeRHS(p, g));
  SbpTestCopyLocal(g, h);
  PCALL(VecDestroy(&g));
  return h;
}

/* J H 1 with the order's 1D norms (SbpSparse1DNorm) and J at the nodes: what an all-Neumann right-hand side removes, per unit shift. */
static Vec jh_one(SbpProblem p)
{
  SbpSparse1D   Hr, Hs;
  PetscScalar **a;
  DM            da;
  Vec           v = layout_vector(p);

  PCALL(SbpProblemGetLayoutDM(p, &da));
  PCALL(SbpProblemGetHostCoefficients(p));
  PCALL(SbpSparse1DNorm(p->order, p->Nr, p->hr, PETSC_FALSE, &Hr));
  PCALL(SbpSparse1DNorm(p->order, p->Ns, p->hs, PETSC_FALSE, &Hs));
  PCALL(DMDAVecGetArray(da, v, &a));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) a[j][i] = p->J[SbpPatchIndex(p, i, j)] * Hr.a[Hr.ia[i]] * Hs.a[Hs.ia[j]];
  PCALL(DMDAVecRestoreArray(da, v, &a));
  PCALL(SbpSparse1DDestroy(&Hr));
  PCALL(SbpSparse1DDestroy(&Hs));
  return v;
}

/* ||g - gk||_inf / ||gk||_inf for g = SbpProblemComputeRHS and gk the Kronecker assembly of the data of ref (a host-evaluable problem of
   the same grid and layout: p itself, or its twin with the data as functions where p's are OpenCL source); all faces Neumann: g with
   the removed shift added back, and 1^T g = 0 checked. */
static PetscReal rhs_vs_kronecker(SbpProblem p, SbpProblem ref)
{
  Vec       g = rhs_of(p), gk = layout_vector(ref);
  PetscReal d;

  PCALL(SbpAssembleRHSByKronecker(ref, gk));
  if (SbpProblemAllNeumann(p)) {
    PetscReal   shift, sum, nb;
    PetscScalar s;
    Vec         w = jh_one(p);
    PCALL(SbpProblemGetRHSShift(p, &shift, &sum));
    PCALL(VecSum(g, &s));
    PCALL(VecNorm(g, NORM_1, &nb));
    if (!(PetscAbsScalar(s) <= 1e-12 * nb)) fail_msg("all faces Neumann: 1^T b = %g after the shift", (double)PetscRealPart(s));
    PCALL(VecAXPY(g, shift, w));
    PCALL(VecSum(gk, &s));
    if (!(PetscAbsReal(PetscRealPart(s) - sum) <= 1e-12 * nb))
      fail_msg("all faces Neumann: the sum before %g, the Kronecker's %g", sum, (double)PetscRealPart(s));
    PCALL(VecDestroy(&w));
  }
  d = SbpmgTestRelDiff(g, gk);
  SbpmgTestDestroyVecs(&g, &gk, NULL);
  return d;
}

/* ---------------------------------------------------------------- (a) the right-hand side against the Kronecker K_f */

static PetscReal Worst[7]; /* order: the largest difference seen from the Kronecker right-hand side */

static void check_rhs(MPI_Comm comm, PetscInt order, PetscInt Nr, PetscInt Ns, const char *bc, DataPath path, SbpBackend backend, PetscBool mu_const)
{
  SbpProblem p = order_problem(comm, order, Nr, Ns, bc, SBP_MAPPING_CURVED, mu_const, backend), ref = p;
  Vec        f = set_data(p, path), fr = NULL;
  PetscReal  d;
  int        size, rank;

  PCALL(MPI_Comm_size(comm, &size));
  PCALL(MPI_Comm_rank(comm, &rank));
  if (path == DATA_SOURCES) { /* the host cannot evaluate the sources: the same data as functions */
    ref = order_problem(comm, order, Nr, Ns, bc, SBP_MAPPING_CURVED, mu_const, SBP_BACKEND_HOST);
    fr  = set_data(ref, DATA_FUNCTIONS);
  }
  d = rhs_vs_kronecker(p, ref);
  if (rank == 0)
    print_message("  p = %d, %dx%d %s, %-12s %s backend, %d rank(s): against the Kronecker K_f %.1e\n", (int)order, (int)Nr, (int)Ns, bc, DataNames[path],
                  backend == SBP_BACKEND_HOST ? "host" : "device", size, d);
  if (!(d <= 1e-12))
    fail_msg("p = %d, %s, %s, %s backend, %d rank(s): the right-hand side differs from the Kronecker K_f by %g", (int)order, bc, DataNames[path],
             backend == SBP_BACKEND_HOST ? "host" : "device", size, d);
  Worst[order] = PetscMax(Worst[order], d);
  SbpmgTestDestroyVecs(&f, &fr, NULL);
  if (ref != p) PCALL(SbpProblemDestroy(&ref));
  PCALL(SbpProblemDestroy(&p));
}

/* Every face set, the manufactured data (the basin's mu and a constant), both backends, Nr != Ns; one rank. */
static void test_rhs_manufactured(void **state)
{
  static const char *bcs[] = {"DDNN", "DDDD", "NDDN", "NNNN"};

  if (SbpTestWorldSize() > 1) return;
  for (int o = 0; o < 2; o++)
    for (int b = 0; b < 4; b++)
      for (int dev = 0; dev < 2; dev++) {
        const PetscInt Nr = Orders[o] == 4 ? 19 : 25, Ns = Orders[o] == 4 ? 26 : 34;
        check_rhs(PETSC_COMM_SELF, Orders[o], Nr, Ns, bcs[b], DATA_MANUFACTURED, dev ? SBP_BACKEND_DEVICE : SBP_BACKEND_HOST,
                  b == 1 ? PETSC_TRUE : PETSC_FALSE);
      }
  print_message("  worst: p = 4 %.1e, p = 6 %.1e\n", Worst[4], Worst[6]);
}

/* The user's data as functions, values and (device) OpenCL source, both backends; one rank. */
static void test_rhs_user_data(void **state)
{
  static const char *bcs[] = {"DDNN", "NDDN", "NNNN"};

  if (SbpTestWorldSize() > 1) return;
  for (int o = 0; o < 2; o++)
    for (int b = 0; b < 3; b++)
      for (int path = DATA_FUNCTIONS; path <= DATA_SOURCES; path++)
        for (int dev = 0; dev < 2; dev++) {
          const PetscInt Nr = Orders[o] == 4 ? 22 : 30, Ns = Orders[o] == 4 ? 15 : 21;
          if (path == DATA_SOURCES && !dev) continue; /* the host backend cannot evaluate OpenCL sources */
          check_rhs(PETSC_COMM_SELF, Orders[o], Nr, Ns, bcs[b], (DataPath)path, dev ? SBP_BACKEND_DEVICE : SBP_BACKEND_HOST, PETSC_FALSE);
        }
  print_message("  worst: p = 4 %.1e, p = 6 %.1e\n", Worst[4], Worst[6]);
}

/* 2 and 3 ranks (mpiexec): rank grids that cut the faces of r and of s, every data path, both backends, against the Kronecker assembly on
   the same ranks and against one rank's right-hand side. */
static void test_rhs_ranks(void **state)
{
  static const char *bcs[] = {"DDNN", "NDDN", "NNNN"};

  if (SbpTestWorldSize() == 1) return;
  SbpTestDeviceFirstUse();
  for (int o = 0; o < 2; o++)
    for (int g = 0; g < 2; g++) {
      const PetscInt n0 = Orders[o] == 4 ? 31 : 40, n1 = Orders[o] == 4 ? 17 : 22, Nr = g ? n1 : n0, Ns = g ? n0 : n1;
      for (int b = 0; b < 3; b++)
        for (int path = DATA_MANUFACTURED; path <= DATA_SOURCES; path++)
          for (int dev = 0; dev < 2; dev++) {
            if (path == DATA_SOURCES && !dev) continue;
            check_rhs(PETSC_COMM_WORLD, Orders[o], Nr, Ns, bcs[b], (DataPath)path, dev ? SBP_BACKEND_DEVICE : SBP_BACKEND_HOST, PETSC_FALSE);
          }
    }
  print_message("  worst: p = 4 %.1e, p = 6 %.1e\n", Worst[4], Worst[6]);
}

/* ---------------------------------------------------------------- (b) the error norm */

/* The perturbation d(i, j) of the test's u = ue + d. */
static PetscReal perturbation(PetscInt i, PetscInt j)
{
  return 1e-3 * PetscSinReal(0.3 * i + 0.7 * j) + 2e-4;
}

/* ||d||_H and ||d||_JH (modulo the constants with every face Neumann) from the order's 1D weights (SbpSparse1DNorm) and the curved
   mapping's J, a sum over the whole grid on the host. */
static void reference_norms(SbpProblem p, PetscInt order, PetscReal ref[2])
{
  SbpSparse1D Hr, Hs;
  PetscReal   s[6] = {0, 0, 0, 0, 0, 0}, c[2] = {0, 0};

  PCALL(SbpSparse1DNorm(order, p->Nr, p->hr, PETSC_FALSE, &Hr));
  PCALL(SbpSparse1DNorm(order, p->Ns, p->hs, PETSC_FALSE, &Hs));
  for (int pass = 0; pass < 2; pass++)
    for (PetscInt j = 0; j <= p->Ns; j++)
      for (PetscInt i = 0; i <= p->Nr; i++) {
        PetscReal X[6], w = Hr.a[Hr.ia[i]] * Hs.a[Hs.ia[j]], J, d = perturbation(i, j);
        PCALL(SbpMappingCurved(NULL, -1 + i * p->hr, -1 + j * p->hs, X));
        J = X[2] * X[5] - X[3] * X[4];
        if (pass == 0) {
          s[2] += w * d;
          s[3] += J * w * d;
          s[4] += w;
          s[5] += J * w;
        } else {
          s[0] += w * (d - c[0]) * (d - c[0]);
          s[1] += J * w * (d - c[1]) * (d - c[1]);
        }
        if (pass == 0 && i == p->Nr && j == p->Ns && SbpProblemAllNeumann(p)) {
          c[0] = s[2] / s[4];
          c[1] = s[3] / s[5];
        }
      }
  ref[0] = PetscSqrtReal(s[0]);
  ref[1] = PetscSqrtReal(s[1]);
  PCALL(SbpSparse1DDestroy(&Hr));
  PCALL(SbpSparse1DDestroy(&Hs));
}

/* The manufactured solution as the user's exact solution (a host function). */
static PetscErrorCode ExactFn(void *ctx, PetscReal x, PetscReal y, PetscReal *u)
{
  PetscReal ux, uy;
  SbpExactSolution(x, y, u, &ux, &uy);
  return 0;
}

/* SbpProblemComputeError of u = ue + d against the host sums, on the ranks of the run, the exact solution the manufactured one, values
   and a function; the order-2 weights would miss (checked). */
static void test_error_norm(void **state)
{
  static const char *bcs[] = {"DDNN", "NNNN"};
  PetscReal          worst = 0;

  SbpTestDeviceFirstUse();
  for (int o = 0; o < 2; o++)
    for (int b = 0; b < 2; b++)
      for (int dev = 0; dev < 2; dev++) {
        const PetscInt Nr = Orders[o] == 4 ? 30 : 40, Ns = Orders[o] == 4 ? 18 : 24; /* 2 or 3 ranks split r */
        SbpProblem p = order_problem(PETSC_COMM_WORLD, Orders[o], Nr, Ns, bcs[b], SBP_MAPPING_CURVED, PETSC_FALSE, dev ? SBP_BACKEND_DEVICE : SBP_BACKEND_HOST);
        Vec        u;
        PetscScalar **a;
        PetscReal     e[2], ref[2], ref2[2], d;

        PCALL(SbpProblemCreateVector(p, &u));
        PCALL(SbpProblemComputeExactSolution(p, u));
        PCALL(SbpProblemVecGetArray(p, u, PETSC_FALSE, &a));
        for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
          for (PetscInt i = p->xs; i < p->xs + p->xm; i++) a[j][i] += perturbation(i, j);
        PCALL(SbpProblemVecRestoreArray(p, u, PETSC_FALSE, &a));
        PCALL(SbpProblemComputeError(p, u, &e[0], &e[1]));
        reference_norms(p, Orders[o], ref);
        reference_norms(p, 2, ref2);
        d = PetscMax(PetscAbsReal(e[0] - ref[0]) / ref[0], PetscAbsReal(e[1] - ref[1]) / ref[1]);
        for (int given = 0; given < 2; given++) { /* the user's exact solution: values at the nodes, a host function */
          Vec       ue = NULL;
          PetscReal eg[2];
          if (given == 0) {
            PCALL(SbpProblemCreateVector(p, &ue));
            PCALL(SbpProblemComputeExactSolution(p, ue));
            PCALL(SbpProblemSetExactSolutionVector(p, ue));
          } else
            PCALL(SbpProblemSetExactSolution(p, ExactFn, NULL));
          PCALL(SbpProblemComputeError(p, u, &eg[0], &eg[1]));
          d = PetscMax(d, PetscMax(PetscAbsReal(eg[0] - ref[0]) / ref[0], PetscAbsReal(eg[1] - ref[1]) / ref[1]));
          PCALL(VecDestroy(&ue));
        }
        print_message("  p = %d, %s, %s: ||e||_H %.10e (host sum %.10e), ||e||_JH %.10e (%.10e): %.1e; the order-2 weights' %.1e\n", (int)Orders[o], bcs[b],
                      dev ? "device" : "host", e[0], ref[0], e[1], ref[1], d, PetscAbsReal(e[0] - ref2[0]) / ref[0]);
        if (!(d <= 1e-10)) fail_msg("p = %d, %s: the error norm differs from the host sum by %g", (int)Orders[o], bcs[b], d);
        if (!(PetscAbsReal(e[0] - ref2[0]) > 1e-6 * ref[0])) fail_msg("p = %d: the order-2 weights give the same norm: the test does not tell", (int)Orders[o]);
        worst = PetscMax(worst, d);
        PCALL(VecDestroy(&u));
        PCALL(SbpProblemDestroy(&p));
      }
  print_message("  worst: %.1e\n", worst);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_rhs_manufactured),
    cmocka_unit_test(test_rhs_user_data),
    cmocka_unit_test(test_rhs_ranks),
    cmocka_unit_test(test_error_norm),
};

SBPMG_TEST_MAIN(help, tests)
