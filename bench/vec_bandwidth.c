/* Bandwidth of VECSEQOPENCL's operations against the device's copy bandwidth, and the per-iteration time of PETSc's
   KSPCG with device vectors against VECSEQ, on a 2D 5-point Laplacian MatShell.

     vec_bandwidth [-n_min 1048576] [-n_max 268435456] [-reps 20] [-cg_m 1024] [-cg_its 100] [-no_cg] [-no_host_cg] [-no_bandwidth]
                   [-bench_latency [-bench_latency_reps 2000] [-bench_n n1,n2,...]]

   For each length n = n_min, 2 n_min, ..., n_max (entries, doubled each step): the time per call of VecAXPY, VecAYPX,
   VecDot and VecNorm(NORM_2), the bytes each must move (axpy, aypx: 3 n; dot: 2 n; norm: n scalars), the resulting
   GB/s and its fraction of the measured copy bandwidth (the better of clEnqueueCopyBuffer and a copy kernel, 2 n scalars
   moved). Times are wall-clock over -reps calls after a warm-up, the queue drained before and after. -bench_latency
   adds the fixed costs of a reduction, one parseable line each (BenchLatency below). */
#include <sbpmg.h>
#include "common/lap5shell.h"

static const char help[] = "VECSEQOPENCL bandwidth and KSPCG per-iteration time, device vectors against VECSEQ.\n";

static const char *bench_src = "#if defined(SBPMG_HAVE_FP64)\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#endif\n"
                               "__kernel void copy1(const ulong n, __global const SBPMG_REAL *x, __global SBPMG_REAL *y)\n"
                               "{ const ulong i = get_global_id(0); if (i < n) y[i] = x[i]; }\n";

typedef enum { OP_COPYBUFFER, OP_COPYKERNEL, OP_AXPY, OP_AYPX, OP_DOT, OP_NORM } BenchOp;
static const char *const OpNames[]   = {"copy (clEnqueueCopyBuffer)", "copy (kernel)", "VecAXPY", "VecAYPX", "VecDot", "VecNorm 2"};
static const double      OpScalars[] = {2, 2, 3, 3, 2, 1}; /* scalars moved per entry */

/* Mark x as changed on the device (as a kernel writing it through the accessors would), so that PETSc does not answer
   VecNorm() from its cache: no transfer, no kernel. */
static PetscErrorCode TouchOnDevice(Vec x)
{
  cl_mem b;

  PetscFunctionBeginUser;
  PetscCall(VecOpenCLGetBuffer(x, &b));
  PetscCall(VecOpenCLRestoreBuffer(x, &b));
  PetscFunctionReturn(0);
}

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
      PetscCall(TouchOnDevice(x)); /* or PETSc answers from its cache */
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

/* ---------------------------------------------------------------- -bench_latency: the fixed cost of a reduction

   Each measurement times reps single calls (after a warm-up) and prints one line

     latency <what> <mode> n=<n> best_us=<> median_us=<> mean_us=<> pct_copy=<> pct_copy_best=<>

   with pct_copy the rate of the mean call (8 B/entry for the norm, 16 for the dot) as a percentage of the copy rate at
   the same n, measured as the bandwidth table does (the better of clEnqueueCopyBuffer and a copy kernel, 16 B/entry,
   mean of -reps calls); "-" where it does not apply. <mode> is "-" (the library's one way of reading a reduction's
   result: through a pinned area; read_8B_pageable against read_8B_pinned shows what that saves). */

typedef struct {
  double best, median, mean; /* seconds per call */
} LatencyStats;

static int CompareDouble(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : (x > y ? 1 : 0);
}

static PetscErrorCode LatencySummarize(PetscInt reps, double t[], LatencyStats *st)
{
  double sum = 0;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < reps; k++) sum += t[k];
  qsort(t, (size_t)reps, sizeof(double), CompareDouble);
  st->best   = t[0];
  st->median = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
  st->mean   = sum / reps;
  PetscFunctionReturn(0);
}

static PetscErrorCode LatencyPrint(const char *what, const char *mode, PetscInt64 n, const LatencyStats *st, double bytes_per_entry, double copy_rate)
{
  char pct[64] = "pct_copy=- pct_copy_best=-";

  PetscFunctionBeginUser;
  if (bytes_per_entry > 0 && copy_rate > 0)
    PetscCall(PetscSNPrintf(pct, sizeof(pct), "pct_copy=%.1f pct_copy_best=%.1f", 100 * bytes_per_entry * n / st->mean / copy_rate,
                            100 * bytes_per_entry * n / st->best / copy_rate));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "latency %s %s n=%" PetscInt64_FMT " best_us=%.2f median_us=%.2f mean_us=%.2f %s\n", what, mode, n, st->best * 1e6,
                        st->median * 1e6, st->mean * 1e6, pct));
  PetscFunctionReturn(0);
}

typedef enum { LAT_FINISH, LAT_KERNEL, LAT_READ_PAGEABLE, LAT_READ_PINNED, LAT_NORM, LAT_DOT } LatencyOp;

typedef struct {
  SbpmgCL      cl;
  cl_kernel    copy1;
  cl_mem       d;      /* a small device buffer */
  PetscScalar *pinned; /* mapped staging memory */
  Vec          x, y;
} LatencyCtx;

static PetscErrorCode LatencyCall(LatencyOp op, LatencyCtx *c)
{
  PetscScalar v;
  PetscReal   r;

  PetscFunctionBeginUser;
  switch (op) {
  case LAT_FINISH:
    PetscCall(SbpmgCLFinish(c->cl));
    break;
  case LAT_KERNEL:
    PetscCall(SbpmgCLLaunch1D(c->cl, c->copy1, 1, 1));
    PetscCall(SbpmgCLFinish(c->cl));
    break;
  case LAT_READ_PAGEABLE:
    PetscCall(SbpmgCLReadBuffer(c->cl, c->d, 0, sizeof(PetscScalar), &v));
    break;
  case LAT_READ_PINNED:
    PetscCall(SbpmgCLReadBuffer(c->cl, c->d, 0, sizeof(PetscScalar), c->pinned));
    break;
  case LAT_NORM:
    PetscCall(TouchOnDevice(c->x)); /* or PETSc answers from its cache */
    PetscCall(VecNorm(c->x, NORM_2, &r));
    break;
  case LAT_DOT:
    PetscCall(VecDot(c->x, c->y, &v));
    break;
  }
  PetscFunctionReturn(0);
}

/* reps timed calls of op after warm calls; t has room for reps */
static PetscErrorCode LatencyMeasure(LatencyOp op, LatencyCtx *c, PetscInt warm, PetscInt reps, double t[], LatencyStats *st)
{
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < warm; k++) PetscCall(LatencyCall(op, c));
  PetscCall(SbpmgCLFinish(c->cl));
  for (PetscInt k = 0; k < reps; k++) {
    PetscCall(PetscTime(&t0));
    PetscCall(LatencyCall(op, c));
    PetscCall(PetscTime(&t1));
    t[k] = t1 - t0;
  }
  PetscCall(LatencySummarize(reps, t, st));
  PetscFunctionReturn(0);
}

/* Copy rate (bytes/s, 16 B per entry) at length n on the default context, as the bandwidth table measures it */
static PetscErrorCode LatencyCopyRate(PetscInt64 n, PetscInt reps, double *rate)
{
  SbpmgCL   cl;
  cl_kernel copy1;
  Vec       x, y;
  double    t;

  PetscFunctionBeginUser;
  PetscCall(SbpmgCLGetDefault(&cl));
  PetscCall(SbpmgCLGetKernelFromSource(cl, "bench_vec", bench_src, NULL, "copy1", &copy1));
  PetscCall(VecCreateSeqOpenCL(PETSC_COMM_SELF, (PetscInt)n, &x));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(VecSet(x, 1.0));
  *rate = 0;
  for (int op = OP_COPYBUFFER; op <= OP_COPYKERNEL; op++) {
    PetscCall(RunOp((BenchOp)op, cl, copy1, x, y, reps, PETSC_TRUE, &t));
    PetscCall(RunOp((BenchOp)op, cl, copy1, x, y, reps, PETSC_FALSE, &t));
    *rate = PetscMax(*rate, 2.0 * n * sizeof(PetscScalar) / t);
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(0);
}

/* VecNorm and VecDot at length n on the default context */
static PetscErrorCode LatencyReductions(PetscInt64 n, PetscInt warm, PetscInt reps, PetscInt copy_reps, double t[])
{
  LatencyCtx   v = {0};
  LatencyStats st;
  PetscScalar  d;
  double       rate = 0;

  PetscFunctionBeginUser;
  PetscCall(LatencyCopyRate(n, copy_reps, &rate));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "latency copy_rate - n=%" PetscInt64_FMT " GBps=%.1f\n", n, rate / 1e9));
  PetscCall(SbpmgCLGetDefault(&v.cl));
  PetscCall(VecCreateSeqOpenCLWithContext(PETSC_COMM_SELF, v.cl, (PetscInt)n, &v.x));
  PetscCall(VecDuplicate(v.x, &v.y));
  PetscCall(VecSet(v.x, 1.0));
  PetscCall(VecSet(v.y, 0.5));
  PetscCall(LatencyMeasure(LAT_NORM, &v, warm, reps, t, &st));
  PetscCall(LatencyPrint("VecNorm2", "-", n, &st, sizeof(PetscScalar), rate));
  PetscCall(LatencyMeasure(LAT_DOT, &v, warm, reps, t, &st));
  PetscCall(LatencyPrint("VecDot", "-", n, &st, 2 * sizeof(PetscScalar), rate));
  PetscCall(VecDot(v.x, v.y, &d)); /* the reductions really ran: x . y = n / 2 */
  PetscCheck(d == 0.5 * n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "VecDot gave %g, expected %g", (double)d, 0.5 * n);
  PetscCall(VecDestroy(&v.x));
  PetscCall(VecDestroy(&v.y));
  PetscFunctionReturn(0);
}

static PetscErrorCode BenchLatency(PetscInt reps, PetscInt copy_reps, PetscInt nextra, const PetscInt extra[])
{
  const PetscInt warm = PetscMin(reps, 50);
  PetscInt64     ns[2 + 16];
  PetscInt       nn = 0;
  LatencyCtx     c  = {0};
  LatencyStats   st;
  cl_mem         stage;
  double        *t;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(reps, &t));
  ns[nn++] = (PetscInt64)1 << 20;
  ns[nn++] = (PetscInt64)1 << 24;
  for (PetscInt i = 0; i < nextra; i++) {
    PetscBool dup = PETSC_FALSE;
    for (PetscInt j = 0; j < nn; j++) dup = dup || ns[j] == extra[i];
    if (!dup) ns[nn++] = extra[i];
  }

  /* the fixed costs on the default context */
  PetscCall(SbpmgCLGetDefault(&c.cl));
  PetscCall(SbpmgCLGetKernelFromSource(c.cl, "bench_vec", bench_src, NULL, "copy1", &c.copy1));
  PetscCall(SbpmgCLCreateBuffer(c.cl, CL_MEM_READ_WRITE, 256 * sizeof(PetscScalar), &c.d));
  PetscCall(SbpmgCLCreateStaging(c.cl, sizeof(PetscScalar), &stage, (void **)&c.pinned));
  {
    cl_ulong zero = 0;
    PetscCall(SbpmgCLSetArgs(c.copy1, 0, 3, sizeof(zero), &zero, sizeof(cl_mem), &c.d, sizeof(cl_mem), &c.d));
  }
  PetscCall(LatencyMeasure(LAT_FINISH, &c, warm, reps, t, &st));
  PetscCall(LatencyPrint("clFinish_empty_queue", "-", 0, &st, 0, 0));
  PetscCall(LatencyMeasure(LAT_KERNEL, &c, warm, reps, t, &st));
  PetscCall(LatencyPrint("kernel_launch_clFinish", "-", 0, &st, 0, 0));
  PetscCall(LatencyMeasure(LAT_READ_PAGEABLE, &c, warm, reps, t, &st));
  PetscCall(LatencyPrint("read_8B_pageable", "-", 0, &st, 0, 0));
  PetscCall(LatencyMeasure(LAT_READ_PINNED, &c, warm, reps, t, &st));
  PetscCall(LatencyPrint("read_8B_pinned", "-", 0, &st, 0, 0));
  PetscCall(SbpmgCLDestroyStaging(c.cl, &stage, (void **)&c.pinned));
  PetscCall(SbpmgCLReleaseBuffer(c.cl, &c.d));
  for (PetscInt i = 0; i < nn; i++) PetscCall(LatencyReductions(ns[i], warm, reps, copy_reps, t));
  PetscCall(PetscFree(t));
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
  PetscInt     n_min = 1 << 20, n_max = 1 << 28, reps = 20, cg_m = 1024, cg_its = 100, lat_reps = 2000, bench_n[16], nbench_n = 16;
  PetscBool    no_cg = PETSC_FALSE, no_host_cg = PETSC_FALSE, no_bandwidth = PETSC_FALSE, latency = PETSC_FALSE, nset = PETSC_FALSE;
  double       tdev = 0, thost = 0;
  SbpmgCLStats moved;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SbpmgInitializePackage());
  {
    static const char *const ints[] = {"-n_min", "-n_max", "-reps", "-cg_m", "-cg_its", "-bench_latency_reps", "-bench_n", NULL};
    PetscCall(SbpmgOptionsCheckInts(NULL, NULL, ints)); /* read as 64-bit: a value beyond PetscInt is an error naming it, not wrapped */
  }
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "vec_bandwidth options", NULL);
  PetscCall(PetscOptionsInt("-n_min", "Smallest vector length (entries)", NULL, n_min, &n_min, NULL));
  PetscCall(PetscOptionsInt("-n_max", "Largest vector length (entries); lengths double from n_min", NULL, n_max, &n_max, NULL));
  PetscCall(PetscOptionsInt("-reps", "Calls per measurement", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsInt("-cg_m", "KSPCG on an m x m grid", NULL, cg_m, &cg_m, NULL));
  PetscCall(PetscOptionsInt("-cg_its", "KSPCG iterations timed", NULL, cg_its, &cg_its, NULL));
  PetscCall(PetscOptionsBool("-no_cg", "Skip the KSPCG comparison", NULL, no_cg, &no_cg, NULL));
  PetscCall(PetscOptionsBool("-no_host_cg", "Skip KSPCG on VECSEQ", NULL, no_host_cg, &no_host_cg, NULL));
  PetscCall(PetscOptionsBool("-no_bandwidth", "Skip the bandwidth table", NULL, no_bandwidth, &no_bandwidth, NULL));
  PetscCall(PetscOptionsBool("-bench_latency", "Also measure the fixed costs of a reduction", NULL, latency, &latency, NULL));
  PetscCall(PetscOptionsInt("-bench_latency_reps", "Timed calls per latency measurement", NULL, lat_reps, &lat_reps, NULL));
  PetscCall(PetscOptionsIntArray("-bench_n", "Lengths for the latency of VecNorm and VecDot besides 2^20 and 2^24", NULL, bench_n, &nbench_n, &nset));
  PetscOptionsEnd();
  if (!latency || !nset) nbench_n = 0;
  PetscCheck(n_min >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-n_min %" PetscInt_FMT " must be >= 1", n_min);
  PetscCheck(n_max >= n_min, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-n_max %" PetscInt_FMT " must be >= -n_min %" PetscInt_FMT, n_max, n_min);
  PetscCheck(reps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-reps %" PetscInt_FMT " must be >= 1", reps);
  PetscCheck(cg_m >= 2 && cg_m <= 46340, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-cg_m %" PetscInt_FMT " must be in [2, 46340]", cg_m);
  PetscCheck(cg_its >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-cg_its %" PetscInt_FMT " must be >= 1", cg_its);
  PetscCheck(lat_reps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_latency_reps %" PetscInt_FMT " must be >= 1", lat_reps);
  for (PetscInt i = 0; i < nbench_n; i++)
    PetscCheck(bench_n[i] >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_n entry %" PetscInt_FMT " must be >= 1", bench_n[i]);

  if (!no_bandwidth) PetscCall(BenchBandwidth(n_min, n_max, reps));
  if (latency) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nFixed costs of a reduction, %" PetscInt_FMT " timed calls each (times in us):\n", lat_reps));
    PetscCall(BenchLatency(lat_reps, reps, nbench_n, bench_n));
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
