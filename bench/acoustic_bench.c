/* Benchmark of the acoustic operator: the spec's reference run (800^3, ndamp 27, 1000 steps) with zero and random initial
   fields, against the measured copy bandwidth, then the device time of each kernel per step.

     acoustic_bench [-ac_n 800 -ac_ndamp 27 -ac_steps 1000] [-bench_init zero,random] [-bench_copy_mib 2048]
                    [-bench_receivers 1000] [-bench_regions 1 -bench_region_steps 20]
                    [any -ac_ option, -cl_ option, -sbpmg_tune key=value,...]

   Gpts/s = nx ny nz steps / seconds (wall clock around the enqueued steps and the device's completion). GB/s is given
   twice: at the spec's bytes per point (inner 16 B, PML 28 B) and at this implementation's (inner 16 B, PML 24 B).

   The regions (-bench_regions, on by default): after the reference runs, a fresh device context with -cl_profile runs
   -bench_region_steps steps from random fields, and the device time of each kernel (SbpmgCLGetProfile) gives the inner
   region's and the PML's time per step. A kernel variant is a -sbpmg_tune string (the keys ac_* of the tuning table,
   docs/acoustic.md): bench/run-gpu runs one process per variant.

   The receivers (-bench_receivers N, off by default): -ac_steps steps from zero fields without receivers and with N of
   them on a diagonal of the middle z plane (sampled every step), twice in turn; the overhead is the difference of the
   faster runs, in percent of the step time. Uses only the public interface. */
#include <sbpmg.h>

static const char help[] = "Acoustic operator benchmark (bench/acoustic_bench.c).\n";

static const char *copy_src = "__kernel void bench_copy4(const int n, __global const float4 *restrict x, __global float4 *restrict y)\n"
                              "{\n"
                              "  const int i = (int)get_global_id(0);\n"
                              "  if (i < n) y[i] = x[i];\n"
                              "}\n";

static PetscErrorCode DefaultOption(const char name[], const char value[])
{
  PetscBool set;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsHasName(NULL, NULL, name, &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, name, value));
  PetscFunctionReturn(0);
}

/* Seconds of one call of f(cl) until the device is done (after the device is idle). */
static PetscErrorCode TimeOnDevice(SbpmgCL cl, PetscErrorCode (*f)(SbpmgCL, void *), void *ctx, PetscReal *sec)
{
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  PetscCall(SbpmgCLFinish(cl));
  PetscCall(PetscTime(&t0));
  PetscCall(f(cl, ctx));
  PetscCall(SbpmgCLFinish(cl));
  PetscCall(PetscTime(&t1));
  *sec = t1 - t0;
  PetscFunctionReturn(0);
}

typedef struct {
  cl_kernel k;
  cl_mem    x, y;
  size_t    bytes;
} CopyCtx;

static PetscErrorCode CopyKernel(SbpmgCL cl, void *ctx)
{
  CopyCtx *c = (CopyCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(SbpmgCLLaunch1D(cl, c->k, c->bytes / 16, 256));
  PetscFunctionReturn(0);
}

static PetscErrorCode CopyDriver(SbpmgCL cl, void *ctx)
{
  CopyCtx *c = (CopyCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(SbpmgCLCopyBuffer(cl, c->x, c->y, 0, 0, c->bytes));
  PetscFunctionReturn(0);
}

/* Copy bandwidth (bytes read + written per second): a float4 kernel and clEnqueueCopyBuffer, best of 10 each. */
static PetscErrorCode CopyBandwidth(SbpmgCL cl, size_t mib, PetscReal *kernel_gbs, PetscReal *driver_gbs)
{
  CopyCtx      c;
  cl_device_id dev;
  cl_ulong     max_alloc;
  const float  one = 1.0f;
  int          n;

  PetscFunctionBeginUser;
  PetscCall(SbpmgCLGetDevice(cl, &dev));
  PetscCheck(clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(max_alloc), &max_alloc, NULL) == CL_SUCCESS, PETSC_COMM_SELF, PETSC_ERR_LIB,
             "clGetDeviceInfo(CL_DEVICE_MAX_MEM_ALLOC_SIZE) failed");
  c.bytes = PetscMin(mib * 1048576, (size_t)max_alloc);
  c.bytes -= c.bytes % 16;
  n = (int)(c.bytes / 16);
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, c.bytes, &c.x));
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, c.bytes, &c.y));
  PetscCall(SbpmgCLFillBuffer(cl, c.x, &one, sizeof(float), 0, c.bytes));
  PetscCall(SbpmgCLFillBuffer(cl, c.y, &one, sizeof(float), 0, c.bytes));
  PetscCall(SbpmgCLGetKernelFromSource(cl, "bench_copy", copy_src, NULL, "bench_copy4", &c.k));
  PetscCall(SbpmgCLSetArgs(c.k, 0, 3, sizeof(int), &n, sizeof(cl_mem), &c.x, sizeof(cl_mem), &c.y));
  *kernel_gbs = *driver_gbs = 0;
  for (int rep = 0; rep < 11; rep++) { /* the first of each is a warm-up */
    PetscReal sec = 0;
    PetscCall(TimeOnDevice(cl, CopyKernel, &c, &sec));
    if (rep) *kernel_gbs = PetscMax(*kernel_gbs, 2.0 * c.bytes / sec / 1e9);
    PetscCall(TimeOnDevice(cl, CopyDriver, &c, &sec));
    if (rep) *driver_gbs = PetscMax(*driver_gbs, 2.0 * c.bytes / sec / 1e9);
  }
  PetscCall(SbpmgCLReleaseBuffer(cl, &c.x));
  PetscCall(SbpmgCLReleaseBuffer(cl, &c.y));
  PetscFunctionReturn(0);
}

/* Points of the whole grid and of its inner box (the PML shell of ndamp points excluded). */
static PetscErrorCode GridPoints(Acoustic ac, PetscInt ndamp, PetscReal *ntotal, PetscReal *ninner)
{
  PetscInt n[3];

  PetscFunctionBeginUser;
  PetscCall(AcousticGetSizes(ac, &n[0], &n[1], &n[2]));
  *ntotal = *ninner = 1;
  for (PetscInt a = 0; a < 3; a++) {
    *ntotal *= (PetscReal)n[a];
    *ninner *= (PetscReal)PetscMax(n[a] - 2 * ndamp, 0);
  }
  PetscFunctionReturn(0);
}

/* One reference run: K steps from the initial fields `init`; a summary line appended to summary. */
static PetscErrorCode ReferenceRun(const char init[], PetscInt K, PetscReal copy_gbs, char summary[], size_t len)
{
  Acoustic       ac;
  PetscLogDouble t0, t1;
  PetscReal      sec, bytes, spec, npts, maxu, e, gpts;
  PetscInt       n[3];
  char           line[512];

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsSetValue(NULL, "-ac_init", init));
  PetscCall(AcousticCreate(PETSC_COMM_WORLD, &ac));
  PetscCall(AcousticSetFromOptions(ac));
  PetscCall(PetscTime(&t0));
  PetscCall(AcousticSetUp(ac));
  PetscCall(PetscTime(&t1));
  PetscCall(AcousticGetSizes(ac, &n[0], &n[1], &n[2]));
  PetscCall(AcousticView(ac, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "set-up %.2f s\n", (double)(t1 - t0)));
  PetscCall(AcousticGetBytesPerStep(ac, &bytes, &spec));
  PetscCall(AcousticSynchronize(ac));
  PetscCall(PetscTime(&t0));
  PetscCall(AcousticStep(ac, K));
  PetscCall(AcousticSynchronize(ac));
  PetscCall(PetscTime(&t1));
  sec  = t1 - t0;
  npts = (PetscReal)n[0] * n[1] * n[2];
  gpts = npts * K / sec / 1e9;
  PetscCall(AcousticGetNorms(ac, &maxu, &e));
  PetscCall(PetscSNPrintf(line, sizeof(line),
                          "  %-7s %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT ", %" PetscInt_FMT
                          " steps: %8.3f s  %8.2f Gpts/s  %8.1f GB/s at the spec's bytes (%.1f%% of copy)  %8.1f GB/s actual  max|u| %.3e%s\n",
                          init, n[0], n[1], n[2], K, (double)sec, (double)gpts, (double)(spec * K / sec / 1e9), (double)(100 * spec * K / sec / 1e9 / copy_gbs),
                          (double)(bytes * K / sec / 1e9), (double)maxu, PetscIsNormalReal(maxu) || maxu == 0 ? "" : "  NOT FINITE"));
  PetscCall(PetscStrlcat(summary, line, len));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s", line));
  PetscCall(AcousticDestroy(&ac));
  PetscFunctionReturn(0);
}

/* The device time per step of each acoustic kernel, from -cl_profile on a fresh default context: K steps from random
   fields (after one untimed step). */
static PetscErrorCode Regions(PetscInt K, PetscInt ndamp, PetscReal copy_gbs)
{
  /* kernel, what it updates (0 the whole grid, 1 the inner region, 2 the PML), bytes per point */
  const struct {
    const char *kernel, *what;
    PetscInt    part;
    PetscReal   bytes;
  } rows[] = {
      {"ac_whole", "whole grid", 0, 0}, {"ac_inner", "inner", 1, 16}, {"ac_pml_all", "PML, one launch", 2, 24}, {"ac_pml", "PML, a launch per region", 2, 24},
      {"ac_inject", "source", -1, 0},
  };
  Acoustic  ac;
  SbpmgCL   cl;
  PetscReal ntotal = 0, ninner = 0, bytes, spec, before[5];
  PetscInt  nbefore[5];

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsSetValue(NULL, "-cl_profile", "1"));
  PetscCall(PetscOptionsSetValue(NULL, "-ac_init", "random"));
  PetscCall(SbpmgCLResetDefault());
  PetscCall(AcousticCreate(PETSC_COMM_WORLD, &ac));
  PetscCall(AcousticSetFromOptions(ac));
  PetscCall(AcousticSetUp(ac));
  PetscCall(GridPoints(ac, ndamp, &ntotal, &ninner));
  PetscCall(AcousticGetBytesPerStep(ac, &bytes, &spec));
  PetscCall(AcousticStep(ac, 1));
  PetscCall(AcousticSynchronize(ac));
  PetscCall(SbpmgCLGetDefault(&cl));
  for (int r = 0; r < 5; r++) PetscCall(SbpmgCLGetProfile(cl, rows[r].kernel, &nbefore[r], &before[r]));
  PetscCall(AcousticStep(ac, K));
  PetscCall(AcousticSynchronize(ac));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "regions (%" PetscInt_FMT " steps, random fields, device time per kernel from -cl_profile on rank 0):\n", K));
  for (int r = 0; r < 5; r++) {
    PetscInt  launches;
    PetscReal sec, np, b;

    PetscCall(SbpmgCLGetProfile(cl, rows[r].kernel, &launches, &sec));
    launches -= nbefore[r];
    sec -= before[r];
    if (!launches) continue;
    np = rows[r].part == 0 ? ntotal : (rows[r].part == 1 ? ninner : ntotal - ninner);
    b  = rows[r].part == 0 ? bytes : np * rows[r].bytes;
    if (rows[r].part < 0)
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-24s %-10s %8.4f ms/step\n", rows[r].what, rows[r].kernel, (double)(1e3 * sec / K)));
    else
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-24s %-10s %8.3f ms/step  %8.2f Gpts/s  %8.1f GB/s (%.1f%% of copy)\n", rows[r].what, rows[r].kernel,
                            (double)(1e3 * sec / K), (double)(np * K / sec / 1e9), (double)(b * K / sec / 1e9), (double)(100 * b * K / sec / 1e9 / copy_gbs)));
  }
  PetscCall(AcousticDestroy(&ac));
  PetscCall(PetscOptionsClearValue(NULL, "-cl_profile"));
  PetscCall(SbpmgCLResetDefault());
  PetscFunctionReturn(0);
}

/* Seconds of K steps (after the device is idle) with nrec receivers (0: none) on a diagonal of the plane z = nz/2 across
   the inner region, zero fields; *gather: seconds of AcousticGetTraces() after them. */
static PetscErrorCode ReceiverRun(PetscInt nrec, PetscInt K, PetscInt ndamp, PetscReal *sec, PetscReal *gather)
{
  Acoustic       ac;
  PetscLogDouble t0, t1;
  PetscInt       n[3];
  PetscReal      h = 20, *tr = NULL;
  PetscMPIInt    rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscOptionsSetValue(NULL, "-ac_init", "zero"));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-ac_dx", &h, NULL));
  PetscCall(AcousticCreate(PETSC_COMM_WORLD, &ac));
  PetscCall(AcousticSetFromOptions(ac));
  PetscCall(AcousticGetSizes(ac, &n[0], &n[1], &n[2]));
  if (nrec) {
    const PetscReal x0[3] = {(ndamp + 1) * h, (ndamp + 1) * h, (n[2] / 2) * h}, x1[3] = {(n[0] - ndamp - 2) * h, (n[1] - ndamp - 2) * h, (n[2] / 2) * h};
    PetscCall(AcousticSetReceiversLine(ac, x0, x1, nrec));
  }
  PetscCall(AcousticSetUp(ac));
  PetscCall(AcousticStep(ac, 1));
  PetscCall(AcousticSynchronize(ac));
  PetscCall(PetscTime(&t0));
  PetscCall(AcousticStep(ac, K));
  PetscCall(AcousticSynchronize(ac));
  PetscCall(PetscTime(&t1));
  *sec    = t1 - t0;
  *gather = 0;
  if (nrec) {
    PetscInt ns;
    PetscCall(AcousticGetTraceSizes(ac, NULL, &ns, NULL));
    if (!rank) PetscCall(PetscMalloc1(nrec * ns, &tr));
    PetscCall(PetscTime(&t0));
    PetscCall(AcousticGetTraces(ac, tr));
    PetscCall(PetscTime(&t1));
    *gather = t1 - t0;
    PetscCall(PetscFree(tr));
  }
  PetscCall(AcousticDestroy(&ac));
  PetscFunctionReturn(0);
}

/* The cost of nrec receivers sampled every step (-ac_trace_every to change it): K steps without and with them, twice in
   turn, the faster of each (issue 24: at most 2% of the step time at 800^3 with 1000 receivers). */
static PetscErrorCode Receivers(PetscInt nrec, PetscInt K, PetscInt ndamp, char summary[], size_t len)
{
  PetscReal without = PETSC_MAX_REAL, with = PETSC_MAX_REAL, gather = 0;
  char      line[256];

  PetscFunctionBeginUser;
  for (int rep = 0; rep < 2; rep++) {
    PetscReal a, b, g, unused;
    PetscCall(ReceiverRun(0, K, ndamp, &a, &unused));
    PetscCall(ReceiverRun(nrec, K, ndamp, &b, &g));
    without = PetscMin(without, a);
    with    = PetscMin(with, b);
    gather  = PetscMax(gather, g);
  }
  PetscCall(PetscSNPrintf(line, sizeof(line),
                          "  receivers: %" PetscInt_FMT " steps %.4f s without, %.4f s with %" PetscInt_FMT
                          " receivers: %+.2f%% of the step time; traces gathered in %.4f s\n",
                          K, (double)without, (double)with, nrec, (double)(100 * (with - without) / without), (double)gather));
  PetscCall(PetscStrlcat(summary, line, len));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s", line));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  SbpmgCL     cl;
  const char *device;
  PetscReal   kernel_gbs = 0, driver_gbs = 0, copy_gbs;
  PetscInt    steps = 1000, copy_mib = 2048, region_steps = 20, ninit = 2, ndamp = 27, nrec = 0;
  char       *inits[2]      = {NULL, NULL};
  PetscBool   regions       = PETSC_TRUE;
  char        summary[4096] = "";

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SbpmgInitializePackage());
  PetscCall(DefaultOption("-ac_n", "800"));
  PetscCall(DefaultOption("-ac_ndamp", "27"));
  {
    static const char *const ints[] = {"-ac_ndamp", "-ac_steps", "-bench_copy_mib", "-bench_region_steps", "-bench_receivers", NULL};
    PetscCall(SbpmgOptionsCheckInts(NULL, NULL, ints)); /* read as 64-bit: a value beyond PetscInt is an error naming it, not wrapped */
  }
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ac_ndamp", &ndamp, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ac_steps", &steps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_copy_mib", &copy_mib, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_region_steps", &region_steps, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bench_regions", &regions, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_receivers", &nrec, NULL));
  PetscCheck(ndamp >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ac_ndamp %" PetscInt_FMT " must be >= 0", ndamp);
  PetscCheck(steps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ac_steps %" PetscInt_FMT " must be >= 1", steps);
  PetscCheck(copy_mib >= 1 && copy_mib <= 1048576, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_copy_mib %" PetscInt_FMT " must be in [1, 1048576]",
             copy_mib);
  PetscCheck(region_steps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_region_steps %" PetscInt_FMT " must be >= 1", region_steps);
  PetscCheck(nrec >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_receivers %" PetscInt_FMT " must be >= 0", nrec);
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-bench_init", inits, &ninit, NULL));
  if (!ninit || !inits[0]) {
    PetscCall(PetscStrallocpy("zero", &inits[0]));
    PetscCall(PetscStrallocpy("random", &inits[1]));
    ninit = 2;
  }

  PetscCall(SbpmgCLGetDefault(&cl));
  PetscCall(SbpmgCLReference(cl)); /* kept for the summary: the regions replace the default context */
  PetscCall(SbpmgCLGetDeviceName(cl, &device));
  PetscCall(SbpmgCLView(cl, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(CopyBandwidth(cl, (size_t)copy_mib, &kernel_gbs, &driver_gbs));
  copy_gbs = PetscMax(kernel_gbs, driver_gbs);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "copy bandwidth (read + write): float4 kernel %.1f GB/s, clEnqueueCopyBuffer %.1f GB/s\n", (double)kernel_gbs,
                        (double)driver_gbs));
  for (PetscInt r = 0; r < ninit; r++) PetscCall(ReferenceRun(inits[r], steps, copy_gbs, summary, sizeof(summary)));
  if (nrec > 0) PetscCall(Receivers(nrec, steps, ndamp, summary, sizeof(summary)));
  if (regions) PetscCall(Regions(region_steps, ndamp, copy_gbs));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "summary (copy bandwidth %.1f GB/s; device %s):\n%s", (double)copy_gbs, device, summary));
  for (PetscInt r = 0; r < ninit; r++) PetscCall(PetscFree(inits[r]));
  PetscCall(SbpmgCLDestroy(&cl));
  PetscCall(PetscFinalize());
  return 0;
}
