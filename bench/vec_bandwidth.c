/* Bandwidth of VECSEQOPENCL's operations against the device's copy bandwidth, and the per-iteration time of PETSc's
   KSPCG with device vectors against VECSEQ, on a 2D 5-point Laplacian MatShell.

     vec_bandwidth [-n_min 1048576] [-n_max 268435456] [-reps 20] [-cg_m 1024] [-cg_its 100] [-no_cg] [-no_host_cg] [-latency]

   For each length n = n_min, 2 n_min, ..., n_max (entries, doubled each step): the time per call of VecAXPY, VecAYPX,
   VecDot and VecNorm(NORM_2), the bytes each must move (axpy, aypx: 3 n; dot: 2 n; norm: n scalars), the resulting
   GB/s and its fraction of the measured copy bandwidth (the better of clEnqueueCopyBuffer and a copy kernel, 2 n scalars
   moved). Times are wall-clock over -reps calls after a warm-up, the queue drained before and after. */
#include <sbpmg/impl.h>
#include "common/lap5shell.h"

static const char help[] = "VECSEQOPENCL bandwidth and KSPCG per-iteration time, device vectors against VECSEQ.\n";

static const char *bench_src = "#if defined(SBPMG_HAVE_FP64)\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#endif\n"
                               "__kernel void copy1(const ulong n, __global const SBPMG_REAL *x, __global SBPMG_REAL *y)\n"
                               "{ const ulong i = get_global_id(0); if (i < n) y[i] = x[i]; }\n";

typedef enum { OP_COPYBUFFER, OP_COPYKERNEL, OP_AXPY, OP_AYPX, OP_DOT, OP_NORM } BenchOp;
static const char *const OpNames[]   = {"copy (clEnqueueCopyBuffer)", "copy (kernel)", "VecAXPY", "VecAYPX", "VecDot", "VecNorm 2"};
static const double      OpScalars[] = {2, 2, 3, 3, 2, 1}; /* scalars moved per entry */

static PetscErrorCode RunOp(BenchOp op, SbpmgCL cl, cl_kernel copy1, Vec x, Vec y, PetscInt reps, PetscBool warm, double *seconds)
{
  PetscScalar    s;
  PetscReal      r;
  PetscLogDouble t0, t1;
  PetscInt       n;
  cl_mem         xb, yb;

  PetscFunctionBeginUser;
  PetscCall(VecGetSize(x, &n));
  PetscCall(SbpmgCLFinish(cl));
  PetscCall(PetscTime(&t0));
  for (PetscInt k = 0; k < (warm ? 1 : reps); k++) {
    switch (op) {
    case OP_COPYBUFFER:
      PetscCall(VecCopy(x, y));
      break;
    case OP_COPYKERNEL: {
      cl_ulong nn = (cl_ulong)n;
      PetscCall(VecOpenCLGetBufferRead(x, &xb));
      PetscCall(VecOpenCLGetBufferWrite(y, &yb));
      PetscCall(SbpmgCLSetArgs(copy1, 0, 3, sizeof(nn), &nn, sizeof(cl_mem), &xb, sizeof(cl_mem), &yb));
      PetscCall(SbpmgCLLaunch1D(cl, copy1, (size_t)n, 256));
      PetscCall(VecOpenCLRestoreBufferWrite(y, &yb));
      PetscCall(VecOpenCLRestoreBufferRead(x, &xb));
    } break;
    case OP_AXPY:
      PetscCall(VecAXPY(y, 1e-3, x));
      break;
    case OP_AYPX:
      PetscCall(VecAYPX(y, 0.5, x));
      break;
    case OP_DOT:
      PetscCall(VecDot(x, y, &s));
      break;
    case OP_NORM:
      PetscCall(PetscObjectStateIncrease((PetscObject)x)); /* or PETSc answers from its cache */
      PetscCall(VecNorm(x, NORM_2, &r));
      break;
    }
  }
  PetscCall(SbpmgCLFinish(cl));
  PetscCall(PetscTime(&t1));
  *seconds = (t1 - t0) / (warm ? 1 : reps);
  PetscFunctionReturn(0);
}

static PetscErrorCode BenchBandwidth(PetscInt n_min, PetscInt n_max, PetscInt reps)
{
  SbpmgCL     cl;
  cl_kernel   copy1;
  const char *name;
  PetscBool   gpu;
  double      worst_big = 1e30;
  PetscBool   any_big   = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(SbpmgCLGetDefault(&cl));
  PetscCall(SbpmgCLGetDeviceName(cl, &name));
  PetscCall(SbpmgCLIsGPU(cl, &gpu));
  PetscCall(SbpmgCLGetKernelFromSource(cl, "bench_vec", bench_src, NULL, "copy1", &copy1));
  PetscCall(
      PetscPrintf(PETSC_COMM_SELF, "Device: %s (%s), %s scalars, %" PetscInt_FMT " calls per measurement\n", name, gpu ? "gpu" : "cpu", SBPMG_REAL_NAME, reps));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%12s  %-28s %12s %10s %10s\n", "n", "operation", "us/call", "GB/s", "% of copy"));
  for (PetscInt64 n = n_min; n <= n_max; n *= 2) {
    Vec    x, y;
    double t = 0, copybw = 0;

    PetscCall(VecCreateSeqOpenCL(PETSC_COMM_SELF, (PetscInt)n, &x));
    PetscCall(VecDuplicate(x, &y));
    PetscCall(VecSet(x, 1.0));
    PetscCall(VecSet(y, 2.0));
    for (int op = OP_COPYBUFFER; op <= OP_NORM; op++) {
      double gbs;

      PetscCall(RunOp((BenchOp)op, cl, copy1, x, y, reps, PETSC_TRUE, &t)); /* warm-up: builds, first touches */
      PetscCall(RunOp((BenchOp)op, cl, copy1, x, y, reps, PETSC_FALSE, &t));
      gbs = OpScalars[op] * n * sizeof(PetscScalar) / t / 1e9;
      if (op <= OP_COPYKERNEL) copybw = PetscMax(copybw, gbs);
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%12" PetscInt64_FMT "  %-28s %12.2f %10.1f %9.1f%%\n", n, OpNames[op], t * 1e6, gbs, 100 * gbs / copybw));
      if (op > OP_COPYKERNEL && n >= (1 << 24)) {
        worst_big = PetscMin(worst_big, gbs / copybw);
        any_big   = PETSC_TRUE;
      }
    }
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
  }
  if (any_big)
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "Lowest fraction of copy bandwidth for n >= 2^24: %.1f%% (target >= 80%%: %s)\n", 100 * worst_big,
                          worst_big >= 0.8 ? "met" : "NOT met"));
  PetscFunctionReturn(0);
}

/* Where the fixed cost of a reduction goes: a kernel launch and wait, an 8-byte blocking read (pageable and pinned
   destination), and a whole VecNorm of a short vector. */
static PetscErrorCode BenchLatency(PetscInt reps)
{
  SbpmgCL        cl;
  cl_kernel      copy1;
  cl_mem         d, pinned;
  cl_ulong       zero = 0;
  PetscScalar    v    = 0, *hp;
  PetscLogDouble t0, t1;
  Vec            x;
  PetscReal      r;
  cl_int         err;

  PetscFunctionBeginUser;
  PetscCall(SbpmgCLGetDefault(&cl));
  PetscCall(SbpmgCLGetKernelFromSource(cl, "bench_vec", bench_src, NULL, "copy1", &copy1));
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, 256 * sizeof(PetscScalar), &d));
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, sizeof(PetscScalar), &pinned));
  hp = (PetscScalar *)clEnqueueMapBuffer(cl->queue, pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, sizeof(PetscScalar), 0, NULL, NULL, &err);
  PetscCallCL(err);
  PetscCall(SbpmgCLSetArgs(copy1, 0, 3, sizeof(zero), &zero, sizeof(cl_mem), &d, sizeof(cl_mem), &d));
  PetscCall(SbpmgCLFinish(cl));
  PetscCall(PetscTime(&t0));
  for (PetscInt k = 0; k < reps; k++) {
    PetscCall(SbpmgCLLaunch1D(cl, copy1, 256, 256));
    PetscCall(SbpmgCLFinish(cl));
  }
  PetscCall(PetscTime(&t1));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  empty kernel + clFinish:            %8.2f us\n", (t1 - t0) / reps * 1e6));
  PetscCall(PetscTime(&t0));
  for (PetscInt k = 0; k < reps; k++) {
    PetscCall(SbpmgCLLaunch1D(cl, copy1, 256, 256));
    PetscCall(SbpmgCLLaunch1D(cl, copy1, 256, 256));
    PetscCall(SbpmgCLFinish(cl));
  }
  PetscCall(PetscTime(&t1));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  two empty kernels + clFinish:       %8.2f us\n", (t1 - t0) / reps * 1e6));
  PetscCall(PetscTime(&t0));
  for (PetscInt k = 0; k < reps; k++) PetscCall(SbpmgCLReadBuffer(cl, d, 0, sizeof(PetscScalar), &v));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  blocking 8-byte read (pageable):    %8.2f us\n", (t1 - t0) / reps * 1e6));
  PetscCall(PetscTime(&t0));
  for (PetscInt k = 0; k < reps; k++) PetscCall(SbpmgCLReadBuffer(cl, d, 0, sizeof(PetscScalar), hp));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  blocking 8-byte read (pinned):      %8.2f us\n", (t1 - t0) / reps * 1e6));
  PetscCall(PetscTime(&t0));
  for (PetscInt k = 0; k < reps; k++) {
    PetscCall(SbpmgCLLaunch1D(cl, copy1, 256, 256));
    PetscCall(SbpmgCLLaunch1D(cl, copy1, 256, 256));
    PetscCall(SbpmgCLReadBuffer(cl, d, 0, sizeof(PetscScalar), &v));
  }
  PetscCall(PetscTime(&t1));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  two empty kernels + 8-byte read:    %8.2f us\n", (t1 - t0) / reps * 1e6));
  PetscCall(VecCreateSeqOpenCL(PETSC_COMM_SELF, 256, &x));
  PetscCall(VecSet(x, 1.0));
  PetscCall(PetscTime(&t0));
  for (PetscInt k = 0; k < reps; k++) {
    PetscCall(PetscObjectStateIncrease((PetscObject)x));
    PetscCall(VecNorm(x, NORM_2, &r));
  }
  PetscCall(PetscTime(&t1));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  VecNorm of 256 entries:             %8.2f us\n", (t1 - t0) / reps * 1e6));
  PetscCall(VecDestroy(&x));
  PetscCallCL(clEnqueueUnmapMemObject(cl->queue, pinned, hp, 0, NULL, NULL));
  PetscCall(SbpmgCLFinish(cl));
  PetscCall(SbpmgCLReleaseBuffer(cl, &pinned));
  PetscCall(SbpmgCLReleaseBuffer(cl, &d));
  PetscFunctionReturn(0);
}

/* Time per iteration of KSPCG (no preconditioner, a fixed number of iterations) with device or host vectors */
static PetscErrorCode BenchCG(PetscInt m, PetscInt its, PetscBool device, double *per_it, SbpmgCLStats *moved)
{
  PetscInt       done;
  SbpmgCL        cl = NULL;
  Mat            A;
  Vec            b, x;
  KSP            ksp;
  PC             pc;
  PetscLogDouble t0, t1;
  SbpmgCLStats   s0, s1;

  PetscFunctionBeginUser;
  if (device) PetscCall(SbpmgCLGetDefault(&cl));
  PetscCall(Lap5CreateShell(m, device, &A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCNONE));
  PetscCall(KSPSetTolerances(ksp, 1e-50, 1e-50, PETSC_DEFAULT, 3));
  PetscCall(KSPSetUp(ksp));
  PetscCall(KSPSolve(ksp, b, x)); /* warm-up: kernels built, vectors touched */
  PetscCall(KSPSetTolerances(ksp, 1e-50, 1e-50, PETSC_DEFAULT, its));
  if (device) PetscCall(SbpmgCLFinish(cl));
  PetscCall(SbpmgCLGetGlobalStats(&s0));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(ksp, b, x));
  if (device) PetscCall(SbpmgCLFinish(cl));
  PetscCall(PetscTime(&t1));
  PetscCall(SbpmgCLGetGlobalStats(&s1));
  PetscCall(KSPGetIterationNumber(ksp, &done));
  *per_it           = (t1 - t0) / PetscMax(done, 1);
  moved->htod_count = s1.htod_count - s0.htod_count;
  moved->htod_bytes = s1.htod_bytes - s0.htod_bytes;
  moved->dtoh_count = s1.dtoh_count - s0.dtoh_count;
  moved->dtoh_bytes = s1.dtoh_bytes - s0.dtoh_bytes;
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt     n_min = 1 << 20, n_max = 1 << 28, reps = 20, cg_m = 1024, cg_its = 100;
  PetscBool    no_cg = PETSC_FALSE, no_host_cg = PETSC_FALSE, latency = PETSC_FALSE;
  double       tdev = 0, thost = 0;
  SbpmgCLStats moved;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SbpmgInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "vec_bandwidth options", NULL);
  PetscCall(PetscOptionsInt("-n_min", "Smallest vector length (entries)", NULL, n_min, &n_min, NULL));
  PetscCall(PetscOptionsInt("-n_max", "Largest vector length (entries); lengths double from n_min", NULL, n_max, &n_max, NULL));
  PetscCall(PetscOptionsInt("-reps", "Calls per measurement", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsInt("-cg_m", "KSPCG on an m x m grid", NULL, cg_m, &cg_m, NULL));
  PetscCall(PetscOptionsInt("-cg_its", "KSPCG iterations timed", NULL, cg_its, &cg_its, NULL));
  PetscCall(PetscOptionsBool("-no_cg", "Skip the KSPCG comparison", NULL, no_cg, &no_cg, NULL));
  PetscCall(PetscOptionsBool("-no_host_cg", "Skip KSPCG on VECSEQ", NULL, no_host_cg, &no_host_cg, NULL));
  PetscCall(PetscOptionsBool("-latency", "Also measure the fixed costs of a reduction", NULL, latency, &latency, NULL));
  PetscOptionsEnd();
  PetscCheck(n_min >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-n_min %" PetscInt_FMT " must be >= 1", n_min);
  PetscCheck(n_max >= n_min, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-n_max %" PetscInt_FMT " must be >= -n_min %" PetscInt_FMT, n_max, n_min);
  PetscCheck(reps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-reps %" PetscInt_FMT " must be >= 1", reps);
  PetscCheck(cg_m >= 2 && cg_m <= 46340, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-cg_m %" PetscInt_FMT " must be in [2, 46340]", cg_m);
  PetscCheck(cg_its >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-cg_its %" PetscInt_FMT " must be >= 1", cg_its);

  PetscCall(BenchBandwidth(n_min, n_max, reps));
  if (latency) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nFixed costs (mean of %" PetscInt_FMT " calls):\n", reps));
    PetscCall(BenchLatency(reps));
  }
  if (!no_cg) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                          "\nKSPCG, 2D 5-point Laplacian MatShell on a %" PetscInt_FMT " x %" PetscInt_FMT " grid (%" PetscInt_FMT
                          " unknowns), no preconditioner, %" PetscInt_FMT " iterations:\n",
                          cg_m, cg_m, cg_m * cg_m, cg_its));
    PetscCall(BenchCG(cg_m, cg_its, PETSC_TRUE, &tdev, &moved));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  VECSEQOPENCL: %10.2f us/iteration   (transfers while solving: %g to device, %g back, %g bytes)\n", tdev * 1e6,
                          moved.htod_count, moved.dtoh_count, moved.htod_bytes + moved.dtoh_bytes));
    if (!no_host_cg) {
      PetscCall(BenchCG(cg_m, cg_its, PETSC_FALSE, &thost, &moved));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  VECSEQ:       %10.2f us/iteration   (speed-up %.1fx)\n", thost * 1e6, thost / tdev));
    }
  }
  PetscCall(PetscFinalize());
  return 0;
}
