/* The problem of examples/python/annulus.py through the C API, as a C user brings it: the quarter annulus (or, with -grid warped,
   the warped square of verification/convergence -conv_problem own) as node coordinates, mu at the nodes, f, the faces' data
   and the exact solution as C functions; CG + sbpmg to -rtol. Prints "N eH eJH iterations" with 17 digits for each -n, for
   tests/python/test_examples.py to compare with the Python example's errors. */
#include <sbpmg.h>

static PetscBool warped = PETSC_FALSE;

static void Map(PetscReal r, PetscReal s, PetscReal *x, PetscReal *y)
{
  if (warped) {
    *x = r + 0.1 * PetscSinReal(PETSC_PI * s);
    *y = s + 0.1 * PetscSinReal(PETSC_PI * r);
  } else {
    PetscReal rho = 1.5 + 0.5 * r, theta = PETSC_PI / 4 * (s + 1);
    *x = rho * PetscCosReal(theta);
    *y = rho * PetscSinReal(theta);
  }
}

static PetscReal Mu(PetscReal x, PetscReal y)
{
  return 2 + PetscSinReal(x) * PetscCosReal(y);
}

static PetscErrorCode Exact(void *ctx, PetscReal x, PetscReal y, PetscReal *u)
{
  *u = PetscExpReal(x) * PetscSinReal(2 * y) + x * y;
  return 0;
}

static PetscErrorCode Forcing(void *ctx, PetscReal x, PetscReal y, PetscReal *f)
{
  PetscReal ux = PetscExpReal(x) * PetscSinReal(2 * y) + y, uy = 2 * PetscExpReal(x) * PetscCosReal(2 * y) + x;
  PetscReal mux = PetscCosReal(x) * PetscCosReal(y), muy = -PetscSinReal(x) * PetscSinReal(y);

  *f = -(mux * ux + muy * uy - 3 * Mu(x, y) * PetscExpReal(x) * PetscSinReal(2 * y));
  return 0;
}

static PetscErrorCode Boundary(void *ctx, PetscInt face, PetscReal x, PetscReal y, PetscReal nx, PetscReal ny, PetscReal *g)
{
  if (face == 1 || face == 3) return Exact(ctx, x, y, g); /* Dirichlet */
  *g = Mu(x, y) * (nx * (PetscExpReal(x) * PetscSinReal(2 * y) + y) + ny * (2 * PetscExpReal(x) * PetscCosReal(2 * y) + x));
  return 0;
}

static PetscErrorCode SolveOne(PetscInt N, PetscReal rtol)
{
  SbpProblem p;
  Mat        A;
  Vec        u, b;
  KSP        ksp;
  PC         pc;
  PetscInt   n = (N + 1) * (N + 1), its;
  PetscReal *x, *y, *mu, eH, eJH;

  PetscFunctionBeginUser;
  PetscCall(SbpProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCall(SbpProblemSetSizes(p, N, N));
  for (PetscInt f = 1; f <= 4; f++) PetscCall(SbpProblemSetBC(p, f, f % 2 ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN));
  PetscCall(PetscMalloc3(n, &x, n, &y, n, &mu));
  for (PetscInt j = 0; j <= N; j++)
    for (PetscInt i = 0; i <= N; i++) {
      PetscInt k = i + (N + 1) * j;
      Map(-1 + 2.0 * i / N, -1 + 2.0 * j / N, &x[k], &y[k]);
      mu[k] = Mu(x[k], y[k]);
    }
  PetscCall(SbpProblemSetNodeCoordinatesArrays(p, n, x, y));
  PetscCall(SbpProblemSetMuArray(p, n, mu));
  PetscCall(PetscFree3(x, y, mu));
  PetscCall(SbpProblemSetUp(p));
  PetscCall(SbpProblemSetForcingFunction(p, Forcing, NULL));
  for (PetscInt f = 1; f <= 4; f++) PetscCall(SbpProblemSetBoundaryFunction(p, f, f % 2 ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN, Boundary, NULL));
  PetscCall(SbpProblemSetExactSolution(p, Exact, NULL));
  PetscCall(SbpProblemCreateOperator(p, &A));
  PetscCall(MatCreateVecs(A, &u, &b));
  PetscCall(SbpProblemComputeRHS(p, b));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCSBPMG));
  PetscCall(KSPSetTolerances(ksp, rtol, 1e-300, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, u));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(SbpProblemComputeError(p, u, &eH, &eJH));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%d %.17e %.17e %d\n", (int)N, (double)eH, (double)eJH, (int)its));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(SbpProblemDestroy(&p));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt  ns[8] = {32}, nn = 8;
  PetscReal rtol     = 1e-12;
  char      grid[16] = "annulus";
  PetscBool set;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(SbpmgInitializePackage());
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-n", ns, &nn, &set));
  if (!set) nn = 1;
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-rtol", &rtol, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-grid", grid, sizeof(grid), NULL));
  warped = grid[0] == 'w' ? PETSC_TRUE : PETSC_FALSE;
  for (PetscInt k = 0; k < nn; k++) PetscCall(SolveOne(ns[k], rtol));
  PetscCall(PetscFinalize());
  return 0;
}
