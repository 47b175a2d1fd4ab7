/* The PCMG peer of sbpmg on this machine's CPU (issue 21): CG + PETSc's own PCMG on sbpmg's assembled SBP-SAT operator, the
   configuration of docs/performance.md "Mixed precision (issue 21)": Galerkin coarse operators (P^T A P), the DMDA's bilinear
   interpolation, Chebyshev/Jacobi smoothing on every level, CHOLMOD on the coarsest (gathered onto every rank). Run it on all
   cores with MPI, next to sbp_bench (bench/run-cpu-peer runs both in one invocation):

     mpiexec -n 2 pcmg_peer -bench_n 1024 -bench_solve_reps 5

   The levels halve the grid down to at most -bench_coarse_size points a side (32: sbpmg's CPU hierarchy, tuning mg_coarse_size).
   Every option of PCMG applies on top (-pc_mg_*, -mg_levels_*, -mg_coarse_*). One line per N, the columns of sbp_bench's
   solve: iterations, set-up, solve (the best of -bench_solve_reps timed solves after a warm-up solve), ms per iteration, the
   H-norm error, time to solution (set-up + solve). */
#include <sbpmg.h>

static const char help[] = "CG + PETSc's PCMG (Galerkin, DMDA interpolation, Chebyshev/Jacobi, CHOLMOD coarse) on the assembled SBP-SAT operator.\n";

typedef struct {
  PetscInt  its, levels;
  PetscReal tsetup, tsolve, eH;
} PeerResult;

/* Levels of the halving hierarchy of N intervals down to at most coarse points a side (N even at every level above the coarsest). */
static PetscInt PeerLevels(PetscInt N, PetscInt coarse)
{
  PetscInt L = 1;
  while (N + 1 > coarse && N % 2 == 0 && N / 2 >= 4) {
    N /= 2;
    L++;
  }
  return L;
}

/* PCMG on the problem's DMDA: Galerkin coarse operators, Chebyshev/Jacobi on the levels, CHOLMOD on the coarsest. */
static PetscErrorCode PeerConfigure(KSP ksp, DM da, PetscInt levels)
{
  PC          pc, cpc;
  KSP         coarse;
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCall(KSPSetDM(ksp, da));
  PetscCall(KSPSetDMActive(ksp, PETSC_FALSE)); /* the operator is the assembled matrix, the DMDA only gives the hierarchy */
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCMG));
  PetscCall(PCMGSetLevels(pc, levels, NULL));
  PetscCall(PCMGSetGalerkin(pc, PC_MG_GALERKIN_BOTH));
  for (PetscInt l = 1; l < levels; l++) {
    KSP smoother;
    PC  spc;
    PetscCall(PCMGGetSmoother(pc, l, &smoother));
    PetscCall(KSPSetType(smoother, KSPCHEBYSHEV));
    PetscCall(KSPGetPC(smoother, &spc));
    PetscCall(PCSetType(spc, PCJACOBI));
  }
  PetscCall(PCMGGetCoarseSolve(pc, &coarse));
  PetscCall(KSPSetType(coarse, KSPPREONLY));
  PetscCall(KSPGetPC(coarse, &cpc));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)ksp), &size));
  if (size > 1) {
    KSP inner;
    PetscCall(PCSetType(cpc, PCREDUNDANT));
    PetscCall(PCRedundantGetKSP(cpc, &inner));
    PetscCall(KSPGetPC(inner, &cpc));
  }
  PetscCall(PCSetType(cpc, PCCHOLESKY));
  PetscCall(PCFactorSetMatSolverType(cpc, MATSOLVERCHOLMOD));
  PetscFunctionReturn(0);
}

/* Set-up, a warm-up solve, then reps timed solves from zero (the best). */
static PetscErrorCode PeerSolve(PetscInt N, PetscInt coarse, PetscReal rtol, PetscInt reps, PeerResult *res)
{
  SbpProblem     p;
  Mat            A;
  Vec            u, g;
  KSP            ksp;
  DM             da;
  PetscLogDouble t0, t1, t2;

  PetscFunctionBeginUser;
  PetscCall(SbpProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCall(SbpProblemSetBackend(p, SBP_BACKEND_HOST));
  PetscCall(SbpProblemSetFromOptions(p));
  PetscCall(SbpProblemSetSizes(p, N, N));
  PetscCall(SbpProblemSetUp(p));
  PetscCall(SbpProblemCreateAssembledOperator(p, &A));
  PetscCall(SbpProblemGetDM(p, &da));
  PetscCall(MatCreateVecs(A, &u, &g));
  PetscCall(SbpProblemComputeRHS(p, g));
  res->levels = PeerLevels(N, coarse);
  PetscCall(PetscTime(&t0));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(PeerConfigure(ksp, da, res->levels));
  PetscCall(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp));
  PetscCall(PetscTime(&t1));
  res->tsetup = t1 - t0;
  PetscCall(KSPSolve(ksp, g, u));
  res->tsolve = PETSC_MAX_REAL;
  for (PetscInt r = 0; r < reps; r++) {
    PetscCall(VecSet(u, 0));
    PetscCall(PetscTime(&t1));
    PetscCall(KSPSolve(ksp, g, u));
    PetscCall(PetscTime(&t2));
    res->tsolve = PetscMin(res->tsolve, t2 - t1);
  }
  PetscCall(KSPGetIterationNumber(ksp, &res->its));
  {
    KSPConvergedReason reason;
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "CG + PCMG did not converge at N = %" PetscInt_FMT ": %s", N,
               KSPConvergedReasons[reason]);
  }
  PetscCall(SbpProblemComputeError(p, u, &res->eH, NULL));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&g));
  PetscCall(MatDestroy(&A));
  PetscCall(SbpProblemDestroy(&p));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt    ns[16] = {1024}, nn = 16, reps = 3, coarse = 32;
  PetscReal   rtol = 1e-8;
  PetscMPIInt size;
  PetscBool   setn;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SbpmgInitializePackage());
  {
    static const char *const ints[] = {"-bench_n", "-bench_solve_reps", "-bench_coarse_size", NULL};
    PetscCall(SbpmgOptionsCheckInts(NULL, NULL, ints)); /* read as 64-bit: a value beyond PetscInt is an error naming it, not wrapped */
  }
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "PCMG peer benchmark", NULL);
  PetscCall(PetscOptionsIntArray("-bench_n", "Grid sizes N (N x N intervals)", NULL, ns, &nn, &setn));
  PetscCall(PetscOptionsInt("-bench_solve_reps", "Timed solves after the warm-up solve (the best is reported)", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsInt("-bench_coarse_size", "Largest points per side of the coarsest grid", NULL, coarse, &coarse, NULL));
  PetscCall(PetscOptionsReal("-bench_rtol", "Relative residual of the solve", NULL, rtol, &rtol, NULL));
  PetscOptionsEnd();
  PetscCheck(reps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_solve_reps %" PetscInt_FMT " must be >= 1", reps);
  if (!setn) nn = 1;
  for (PetscInt k = 0; k < nn; k++) PetscCheck(ns[k] >= 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_n %" PetscInt_FMT " must be >= 2", ns[k]);
  PetscCheck(coarse >= 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_coarse_size %" PetscInt_FMT " must be >= 2", coarse);
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "CG + PCMG (Galerkin, DMDA interpolation, Chebyshev/Jacobi, CHOLMOD coarse) on %d MPI ranks\n", size));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%6s %6s %5s %9s %9s %8s %11s %8s\n", "N", "levels", "its", "setup s", "solve ms", "ms/it", "error H", "tts s"));
  for (PetscInt k = 0; k < nn; k++) {
    PeerResult r;
    PetscCall(PeerSolve(ns[k], coarse, rtol, reps, &r));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%6" PetscInt_FMT " %6" PetscInt_FMT " %5" PetscInt_FMT " %9.3f %9.1f %8.2f %11.4e %8.3f\n", ns[k], r.levels, r.its,
                          r.tsetup, r.tsolve * 1e3, r.tsolve * 1e3 / r.its, (double)r.eH, r.tsetup + r.tsolve));
  }
  PetscCall(PetscFinalize());
  return 0;
}
