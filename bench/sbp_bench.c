/* Benchmark of the matrix-free SBP-SAT operator apply and of CG + sbpmg, with correctness checks against the host path.

     sbp_bench -bench_n 1024,2048,4096,8192 -bench_reps 20 -bench_solve 1

   For each N: the device operator apply against the host loops on the same random input (relative difference), the apply
   time, GB/s at 40 bytes per point (u, y, crr, css, crs in fp64) and % of the measured copy bandwidth; then (with
   -bench_solve) CG + sbpmg to -bench_rtol on the curved basin problem: set-up, solve (the best of -bench_solve_reps timed solves,
   default 3, after a warm-up solve that builds the kernels), iterations, time per iteration and the H-norm error. With -bench_mg_prefixes a_,b_ the solve is
   repeated with the KSP options under each prefix (e.g. -a_pc_sbpmg_nu 2 -b_pc_sbpmg_coef_fp32 0), on the same operator. One line per N and solver
   configuration, also written as CSV to -bench_csv. The kernel shapes and per-device defaults are the tuning table's: compare
   others by runs with -sbpmg_tune key=value,... (bench/run-gpu), which the device report at the start prints. */
#include <sbpmg.h>
#include "common/timing.h"

static const char help[] = "SBP-SAT operator and MGCG benchmark.\n";

/* Device copy bandwidth: VecCopy of 2^27 doubles (read + write), or of the largest power of two whose buffer (with the vector's
   reduction area) the device allocates (CL_DEVICE_MAX_MEM_ALLOC_SIZE: 1 GiB on PoCL on the 2-core CI machine), best of reps. */
static PetscErrorCode CopyBandwidth(PetscInt reps, PetscReal *gbs, PetscInt *ncopy)
{
  Vec            x, y;
  PetscInt       n = 1 << 27;
  PetscLogDouble t0, t1, best = 1e30;
  SbpmgCL        cl;
  cl_device_id   dev;
  cl_ulong       max_alloc;

  PetscFunctionBeginUser;
  PetscCall(SbpmgCLGetDefault(&cl));
  PetscCall(SbpmgCLGetDevice(cl, &dev));
  PetscCheck(clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(max_alloc), &max_alloc, NULL) == CL_SUCCESS, PETSC_COMM_SELF, PETSC_ERR_LIB,
             "clGetDeviceInfo(CL_DEVICE_MAX_MEM_ALLOC_SIZE) failed");
  while (n > 1024 && (cl_ulong)n * sizeof(PetscScalar) + (1 << 20) > max_alloc) n /= 2;
  PetscCall(VecCreateOpenCL(PETSC_COMM_WORLD, n, PETSC_DETERMINE, &x));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(VecSet(x, 1));
  PetscCall(VecCopy(x, y));
  PetscCall(BenchSync());
  for (PetscInt r = 0; r < reps; r++) {
    PetscCall(PetscTime(&t0));
    PetscCall(VecCopy(x, y));
    PetscCall(BenchSync());
    PetscCall(PetscTime(&t1));
    best = PetscMin(best, t1 - t0);
  }
  *gbs   = 2.0 * n * sizeof(PetscScalar) / best / 1e9;
  *ncopy = n;
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(0);
}

typedef struct {
  PetscInt  its;
  PetscReal tsetup, tsolve, eH;
} SolveResult;

static PetscInt solve_reps = 3; /* -bench_solve_reps: timed solves after the warm-up, the best reported */

/* CG + sbpmg with the options under `prefix`: set-up, a warm-up solve (kernel builds), then solve_reps timed solves (the best). */
static PetscErrorCode BenchSolve(SbpProblem p, Mat A, Vec x, const char prefix[], PetscReal rtol, SolveResult *res)
{
  KSP            ksp;
  PC             pc;
  Vec            g, u;
  PetscLogDouble s0, s1, s2;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(x, &g));
  PetscCall(VecDuplicate(x, &u));
  PetscCall(SbpProblemComputeRHS(p, g));
  PetscCall(VecSet(u, 0));
  PetscCall(BenchSync());
  PetscCall(PetscTime(&s0));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, prefix));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCSBPMG));
  PetscCall(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 200));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp));
  PetscCall(BenchSync());
  PetscCall(PetscTime(&s1));
  res->tsetup = s1 - s0;
  PetscCall(KSPSolve(ksp, g, u));
  res->tsolve = PETSC_MAX_REAL;
  for (PetscInt r = 0; r < solve_reps; r++) {
    PetscCall(VecSet(u, 0));
    PetscCall(BenchSync());
    PetscCall(PetscTime(&s1));
    PetscCall(KSPSolve(ksp, g, u));
    PetscCall(BenchSync());
    PetscCall(PetscTime(&s2));
    res->tsolve = PetscMin(res->tsolve, s2 - s1);
  }
  PetscCall(KSPGetIterationNumber(ksp, &res->its));
  PetscCall(SbpProblemComputeError(p, u, &res->eH, NULL));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&g));
  PetscCall(VecDestroy(&u));
  PetscFunctionReturn(0);
}

/* correctness: the device kernel against the host loops (the same point formula compiled as C) on the same input */
static PetscErrorCode CheckApply(Mat A, Vec x, Vec y, PetscInt N, PetscReal *diff, PetscReal *scale)
{
  Vec xh, yh, yd;

  PetscFunctionBeginUser;
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, (N + 1) * (N + 1), &xh));
  PetscCall(VecDuplicate(xh, &yh));
  PetscCall(VecDuplicate(xh, &yd));
  PetscCall(VecCopy(x, xh));
  PetscCall(MatMult(A, x, y));
  PetscCall(MatMult(A, xh, yh)); /* host vectors take the host path */
  PetscCall(VecCopy(y, yd));
  PetscCall(VecAXPY(yd, -1, yh));
  PetscCall(VecNorm(yd, NORM_INFINITY, diff));
  PetscCall(VecNorm(yh, NORM_INFINITY, scale));
  PetscCheck(*diff <= 1e-12 * *scale, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "N = %" PetscInt_FMT ": device apply differs from the host path by %g", N,
             (double)(*diff / *scale));
  PetscCall(VecDestroy(&xh));
  PetscCall(VecDestroy(&yh));
  PetscCall(VecDestroy(&yd));
  PetscFunctionReturn(0);
}

static PetscErrorCode BenchN(PetscInt N, PetscInt reps, PetscReal copy, FILE *csv, PetscBool solve, PetscReal rtol, PetscInt nprefix, char *prefixes[])
{
  SbpProblem     p;
  Mat            A;
  Vec            x, y;
  PetscRandom    rnd;
  PetscLogDouble best, tprob0, tprob1;
  PetscReal      diff, scale, gbs, points = (PetscReal)(N + 1) * (N + 1);

  PetscFunctionBeginUser;
  PetscCall(PetscTime(&tprob0));
  PetscCall(SbpProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCall(SbpProblemSetFromOptions(p));
  PetscCall(SbpProblemSetSizes(p, N, N));
  PetscCall(SbpProblemSetUp(p));
  PetscCall(SbpProblemCreateOperator(p, &A));
  PetscCall(PetscTime(&tprob1));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 42));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(CheckApply(A, x, y, N, &diff, &scale));
  PetscCall(BenchTimeApply(A, x, y, reps, &best));
  gbs = 40.0 * points / best / 1e9;
  for (PetscInt c = 0; c < (solve ? nprefix : 1); c++) {
    SolveResult r      = {0, 0, 0, 0};
    const char *config = solve && prefixes[c][0] ? prefixes[c] : "-";
    if (solve) PetscCall(BenchSolve(p, A, x, prefixes[c], rtol, &r));
    const double tts = (tprob1 - tprob0) + r.tsetup + r.tsolve; /* time to solution: the problem, the solver's set-up, one solve */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                          "%6" PetscInt_FMT " %12.0f %10.3e %10.3f %9.1f %7.1f%% %-8s %5" PetscInt_FMT " %9.3f %9.1f %8.2f %11.4e %8.2f %8.2f\n", N, points,
                          (double)(diff / scale), best * 1e3, gbs, 100 * gbs / copy, config, r.its, r.tsetup, r.tsolve * 1e3,
                          r.its ? r.tsolve * 1e3 / r.its : 0.0, (double)r.eH, tprob1 - tprob0, tts));
    if (csv)
      fprintf(csv, "%d,%.0f,%.3e,%.6e,%.2f,%.2f,%s,%d,%.4f,%.6f,%.6f,%.6e,%.3f,%.3f\n", (int)N, (double)points, (double)(diff / scale), best, (double)gbs,
              (double)(100 * gbs / copy), config, (int)r.its, r.tsetup, r.tsolve, r.its ? r.tsolve / r.its : 0.0, (double)r.eH, tprob1 - tprob0, tts);
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&A));
  PetscCall(SbpProblemDestroy(&p));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt  ns[16] = {256, 512, 1024}, nn = 16, reps = 10;
  PetscBool setn, solve = PETSC_TRUE;
  PetscReal copy = 0, rtol = 1e-8;
  PetscInt  ncopy                       = 0;
  char      csvname[PETSC_MAX_PATH_LEN] = "";
  FILE     *csv                         = NULL;
  char     *prefixes[16];
  PetscInt  nprefix = 16;
  PetscBool setp;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SbpmgInitializePackage());
  {
    static const char *const ints[] = {"-bench_n", "-bench_reps", "-bench_solve_reps", NULL};
    PetscCall(SbpmgOptionsCheckInts(NULL, NULL, ints)); /* read as 64-bit: a value beyond PetscInt is an error naming it, not wrapped */
  }
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "SBP-SAT benchmark", NULL);
  PetscCall(PetscOptionsIntArray("-bench_n", "Grid sizes N (N x N intervals)", NULL, ns, &nn, &setn));
  PetscCall(PetscOptionsInt("-bench_reps", "Timed applies (best taken)", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsBool("-bench_solve", "Also time CG + sbpmg", NULL, solve, &solve, NULL));
  PetscCall(PetscOptionsReal("-bench_rtol", "Relative residual of the solve", NULL, rtol, &rtol, NULL));
  PetscCall(PetscOptionsInt("-bench_solve_reps", "Timed solves after the warm-up solve (the best is reported)", NULL, solve_reps, &solve_reps, NULL));
  PetscCall(PetscOptionsString("-bench_csv", "CSV output file", NULL, csvname, csvname, sizeof(csvname), NULL));
  PetscCall(PetscOptionsStringArray("-bench_mg_prefixes", "Options prefixes of the solver configurations to time", NULL, prefixes, &nprefix, &setp));
  PetscOptionsEnd();
  if (!setp) {
    nprefix = 1;
    PetscCall(PetscStrallocpy("", &prefixes[0]));
  }
  if (!setn) nn = 3;
  for (PetscInt k = 0; k < nn; k++) PetscCheck(ns[k] >= 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_n %" PetscInt_FMT " must be >= 2", ns[k]);
  PetscCheck(reps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_reps %" PetscInt_FMT " must be >= 1", reps);
  PetscCheck(solve_reps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_solve_reps %" PetscInt_FMT " must be >= 1", solve_reps);
  PetscCall(CopyBandwidth(reps, &copy, &ncopy));
  {
    SbpmgCL cl;
    PetscCall(SbpmgCLGetDefault(&cl));
    PetscCall(SbpmgCLView(cl, PETSC_VIEWER_STDOUT_WORLD));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "device copy bandwidth (VecCopy, %" PetscInt_FMT " doubles): %.1f GB/s\n", ncopy, (double)copy));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%6s %12s %10s %10s %9s %8s %-8s %5s %9s %9s %8s %11s %8s %8s\n", "N", "points", "dev-host", "apply ms", "GB/s",
                        "of copy", "config", "its", "setup s", "solve ms", "ms/it", "error H", "prob s", "tts s"));
  if (csvname[0]) {
    csv = fopen(csvname, "w");
    PetscCheck(csv, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s", csvname);
    fprintf(
        csv,
        "N,points,device_vs_host,apply_s,apply_GBs,pct_copy,config,iterations,setup_s,solve_s,s_per_iteration,error_H,problem_setup_s,time_to_solution_s\n");
  }
  for (PetscInt k = 0; k < nn; k++) PetscCall(BenchN(ns[k], reps, copy, csv, solve, rtol, nprefix, prefixes));
  if (csv) fclose(csv);
  for (PetscInt c = 0; c < nprefix; c++) PetscCall(PetscFree(prefixes[c]));
  PetscCall(PetscFinalize());
  return 0;
}
