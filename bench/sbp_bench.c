/* Benchmark of the matrix-free SBP-SAT operator apply and of CG + sbpmg, with correctness checks against the host path.

     sbp_bench -bench_n 1024,2048,4096,8192 -bench_reps 20 -bench_solve 1

   For each N: the device operator apply against the host loops on the same random input (relative difference), the apply
   time, GB/s at 40 bytes per point (u, y, crr, css, crs in fp64) and % of the measured copy bandwidth; then (with
   -bench_solve) CG + sbpmg to -bench_rtol on the curved basin problem: set-up, solve, iterations, time per iteration and the
   H-norm error. One line per N, also written as CSV to -bench_csv. */
#include <sbpmg/impl.h>

static const char help[] = "SBP-SAT operator and MGCG benchmark.\n";

static PetscErrorCode Sync(void)
{
  SbpmgCL cl;

  PetscFunctionBeginUser;
  PetscCall(SbpmgCLGetDefault(&cl));
  PetscCall(SbpmgCLFinish(cl));
  PetscFunctionReturn(0);
}

/* Device copy bandwidth: VecCopy of 2^27 doubles (read + write), best of reps. */
static PetscErrorCode CopyBandwidth(PetscInt reps, PetscReal *gbs)
{
  Vec            x, y;
  PetscInt       n = 1 << 27;
  PetscLogDouble t0, t1, best = 1e30;

  PetscFunctionBeginUser;
  PetscCall(VecCreateOpenCL(PETSC_COMM_WORLD, n, PETSC_DETERMINE, &x));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(VecSet(x, 1));
  PetscCall(VecCopy(x, y));
  PetscCall(Sync());
  for (PetscInt r = 0; r < reps; r++) {
    PetscCall(PetscTime(&t0));
    PetscCall(VecCopy(x, y));
    PetscCall(Sync());
    PetscCall(PetscTime(&t1));
    best = PetscMin(best, t1 - t0);
  }
  *gbs = 2.0 * n * sizeof(PetscScalar) / best / 1e9;
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(0);
}

static PetscErrorCode BenchApply(PetscInt N, PetscInt reps, PetscReal copy, FILE *csv, PetscBool solve, PetscReal rtol)
{
  SbpProblem     p;
  Mat            A;
  Vec            x, y, xh, yh, yd;
  PetscRandom    rnd;
  PetscLogDouble t0, t1, best = 1e30;
  PetscReal      diff, scale, gbs, points = (PetscReal)(N + 1) * (N + 1);
  PetscInt       its = 0;
  PetscReal      tsetup = 0, tsolve = 0, eH = 0;

  PetscFunctionBeginUser;
  PetscCall(SbpProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCall(SbpProblemSetFromOptions(p));
  PetscCall(SbpProblemSetSizes(p, N, N));
  PetscCall(SbpProblemSetUp(p));
  PetscCall(SbpProblemCreateOperator(p, &A));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 42));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(x, rnd));
  /* correctness: the device kernel against the host loops (the same point formula compiled as C) */
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, (N + 1) * (N + 1), &xh));
  PetscCall(VecDuplicate(xh, &yh));
  PetscCall(VecDuplicate(xh, &yd));
  PetscCall(VecCopy(x, xh));
  PetscCall(MatMult(A, x, y));
  PetscCall(MatMult(A, xh, yh)); /* host vectors take the host path */
  PetscCall(VecCopy(y, yd));
  PetscCall(VecAXPY(yd, -1, yh));
  PetscCall(VecNorm(yd, NORM_INFINITY, &diff));
  PetscCall(VecNorm(yh, NORM_INFINITY, &scale));
  PetscCheck(diff <= 1e-12 * scale, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "N = %" PetscInt_FMT ": device apply differs from the host path by %g", N, (double)(diff / scale));
  PetscCall(Sync());
  for (PetscInt r = 0; r < reps; r++) {
    PetscCall(PetscTime(&t0));
    PetscCall(MatMult(A, x, y));
    PetscCall(Sync());
    PetscCall(PetscTime(&t1));
    best = PetscMin(best, t1 - t0);
  }
  gbs = 40.0 * points / best / 1e9;
  if (solve) {
    KSP            ksp;
    PC             pc;
    Vec            g, u;
    PetscLogDouble s0, s1, s2;

    PetscCall(VecDuplicate(x, &g));
    PetscCall(VecDuplicate(x, &u));
    PetscCall(SbpProblemComputeRHS(p, g));
    PetscCall(VecSet(u, 0));
    PetscCall(Sync());
    PetscCall(PetscTime(&s0));
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPCG));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCSBPMG));
    PetscCall(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 200));
    PetscCall(KSPSetFromOptions(ksp));
    PetscCall(KSPSetUp(ksp));
    PetscCall(Sync());
    PetscCall(PetscTime(&s1));
    /* a warm-up solve builds the remaining kernels; the second is timed */
    PetscCall(KSPSolve(ksp, g, u));
    PetscCall(VecSet(u, 0));
    PetscCall(Sync());
    PetscCall(PetscTime(&s1));
    PetscCall(KSPSolve(ksp, g, u));
    PetscCall(Sync());
    PetscCall(PetscTime(&s2));
    tsetup = s1 - s0;
    tsolve = s2 - s1;
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCall(SbpProblemComputeError(p, u, &eH, NULL));
    PetscCall(KSPDestroy(&ksp));
    PetscCall(VecDestroy(&g));
    PetscCall(VecDestroy(&u));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%6" PetscInt_FMT " %12.0f %10.3e %10.3f %9.1f %7.1f%% %7" PetscInt_FMT " %9.3f %9.1f %8.2f %11.4e\n", N, points, (double)(diff / scale), best * 1e3, gbs,
                        100 * gbs / copy, its, tsetup, tsolve * 1e3, its ? tsolve * 1e3 / its : 0.0, (double)eH));
  if (csv)
    fprintf(csv, "%d,%.0f,%.3e,%.6e,%.2f,%.2f,%d,%.4f,%.6f,%.6f,%.6e\n", (int)N, (double)points, (double)(diff / scale), best, (double)gbs, (double)(100 * gbs / copy), (int)its, tsetup, tsolve,
            its ? tsolve / its : 0.0, (double)eH);
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&xh));
  PetscCall(VecDestroy(&yh));
  PetscCall(VecDestroy(&yd));
  PetscCall(MatDestroy(&A));
  PetscCall(SbpProblemDestroy(&p));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt  ns[16] = {256, 512, 1024}, nn = 16, reps = 10;
  PetscBool setn, solve = PETSC_TRUE;
  PetscReal copy = 0, rtol = 1e-8;
  char      csvname[PETSC_MAX_PATH_LEN] = "";
  FILE     *csv = NULL;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SbpmgInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "SBP-SAT benchmark", NULL);
  PetscCall(PetscOptionsIntArray("-bench_n", "Grid sizes N (N x N intervals)", NULL, ns, &nn, &setn));
  PetscCall(PetscOptionsInt("-bench_reps", "Timed applies (best taken)", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsBool("-bench_solve", "Also time CG + sbpmg", NULL, solve, &solve, NULL));
  PetscCall(PetscOptionsReal("-bench_rtol", "Relative residual of the solve", NULL, rtol, &rtol, NULL));
  PetscCall(PetscOptionsString("-bench_csv", "CSV output file", NULL, csvname, csvname, sizeof(csvname), NULL));
  PetscOptionsEnd();
  if (!setn) nn = 3;
  PetscCall(CopyBandwidth(reps, &copy));
  {
    SbpmgCL cl;
    PetscCall(SbpmgCLGetDefault(&cl));
    PetscCall(SbpmgCLView(cl, PETSC_VIEWER_STDOUT_WORLD));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "device copy bandwidth (VecCopy, 2^27 doubles): %.1f GB/s\n", (double)copy));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%6s %12s %10s %10s %9s %8s %7s %9s %9s %8s %11s\n", "N", "points", "dev-host", "apply ms", "GB/s", "of copy", "its", "setup s", "solve ms",
                        "ms/it", "error H"));
  if (csvname[0]) {
    csv = fopen(csvname, "w");
    PetscCheck(csv, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s", csvname);
    fprintf(csv, "N,points,device_vs_host,apply_s,apply_GBs,pct_copy,iterations,setup_s,solve_s,s_per_iteration,error_H\n");
  }
  for (PetscInt k = 0; k < nn; k++) PetscCall(BenchApply(ns[k], reps, copy, csv, solve, rtol));
  if (csv) fclose(csv);
  PetscCall(PetscFinalize());
  return 0;
}
