/* Benchmark of the acoustic operator: the spec's reference run (800^3, ndamp 27, 1000 steps) with zero and random initial
   fields, against the measured copy bandwidth; optionally a sweep of inner and PML tiles to choose the defaults.

     acoustic_bench [-ac_n 800 -ac_ndamp 27 -ac_steps 1000] [-bench_init zero,random] [-bench_copy_mib 2048]
                    [-bench_sweep -bench_tile_x 32,64 -bench_tile_y 4,8 -bench_tile_z 0,64 -bench_vec 1,4 -bench_local 0,1
                     -bench_pml_tile_x 32 -bench_pml_tile_y 4,8 -bench_pml_tile_z 0,32 -bench_pml_vec 1,4 -bench_sweep_steps 20
                     -bench_use_best 1] [-bench_regions] [any -ac_ option, -cl_ option]

   The sweep times the row kernels, then each inner tile on the inner region alone, each PML tile on the six PML regions
   alone, then whole steps with one launch per region, with the six PML regions in one launch, and with the whole grid in
   one launch (-bench_whole_tiles tx,ty,tz,vec,... sweeps that kernel's tile); with -bench_use_best (default) the
   reference runs use the best of all that.

   Gpts/s = nx ny nz steps / seconds (wall clock around the enqueued steps and a clFinish). GB/s is given twice: at the
   spec's bytes per point (inner 16 B, PML 28 B) and at this implementation's (inner 16 B, PML 24 B). */
#include <sbpmg/private/acousticimpl.h>

static const char help[] = "Acoustic operator benchmark (bench/acoustic_bench.c).\n";

static PetscErrorCode DefaultOption(const char name[], const char value[])
{
  PetscBool set;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsHasName(NULL, NULL, name, &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, name, value));
  PetscFunctionReturn(0);
}

/* Copy bandwidth (bytes read + written per second): a float4 kernel and clEnqueueCopyBuffer, best of 10 each. */
static PetscErrorCode CopyBandwidth(SbpmgCL cl, size_t mib, PetscReal *kernel_gbs, PetscReal *driver_gbs)
{
  size_t    bytes = mib * 1048576;
  cl_mem    x, y;
  cl_kernel k;
  int       n;

  PetscFunctionBeginUser;
  bytes = PetscMin(bytes, (size_t)cl->max_alloc);
  bytes -= bytes % 16;
  n = (int)(bytes / 16);
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, &x));
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, &y));
  {
    const float one = 1.0f;
    PetscCall(SbpmgCLFillBuffer(cl, x, &one, sizeof(float), 0, bytes));
    PetscCall(SbpmgCLFillBuffer(cl, y, &one, sizeof(float), 0, bytes));
  }
  PetscCall(SbpmgCLGetKernel(cl, "acoustic_util", NULL, "ac_copy4", &k));
  PetscCall(SbpmgCLSetArgs(k, 0, 3, sizeof(int), &n, sizeof(cl_mem), &x, sizeof(cl_mem), &y));
  *kernel_gbs = *driver_gbs = 0;
  for (int rep = 0; rep < 11; rep++) {
    PetscLogDouble t0, t1;
    PetscCall(SbpmgCLFinish(cl));
    PetscCall(PetscTime(&t0));
    PetscCall(SbpmgCLLaunch1D(cl, k, (size_t)n, 256));
    PetscCall(SbpmgCLFinish(cl));
    PetscCall(PetscTime(&t1));
    if (rep) *kernel_gbs = PetscMax(*kernel_gbs, 2.0 * bytes / (t1 - t0) / 1e9);
    PetscCall(PetscTime(&t0));
    PetscCall(SbpmgCLCopyBuffer(cl, x, y, 0, 0, bytes));
    PetscCall(SbpmgCLFinish(cl));
    PetscCall(PetscTime(&t1));
    if (rep) *driver_gbs = PetscMax(*driver_gbs, 2.0 * bytes / (t1 - t0) / 1e9);
  }
  PetscCall(SbpmgCLReleaseBuffer(cl, &x));
  PetscCall(SbpmgCLReleaseBuffer(cl, &y));
  PetscFunctionReturn(0);
}

/* The compiler's log for the current kernels (with -ac_cl_options -cl-nv-verbose: registers and spills on NVIDIA), and
   the private memory per work-item of each kernel. */
static PetscErrorCode KernelInfo(Acoustic ac)
{
  SbpmgCLProgramEntry p;
  size_t              len = 0;
  char               *log;
  cl_kernel           k[5]    = {ac->kinner, ac->kpml, ac->kwhole, ac->kpmlall, ac->kpair};
  const char         *name[5] = {"inner", "pml", "whole", "pml_all", "pair"};

  PetscFunctionBeginUser;
  PetscCall(SbpmgCLGetProgram(ac->cl, "acoustic25", ac->kopts, &p));
  PetscCallCL(clGetProgramBuildInfo(p->program, ac->cl->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len));
  PetscCall(PetscMalloc1(len + 1, &log));
  PetscCallCL(clGetProgramBuildInfo(p->program, ac->cl->device, CL_PROGRAM_BUILD_LOG, len, log, NULL));
  log[len] = 0;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "build log for %s:\n%s\n", ac->kopts, log));
  PetscCall(PetscFree(log));
  for (int i = 0; i < 5; i++) {
    cl_ulong priv = 0, lmem = 0;
    size_t   wg = 0;
    if (!k[i]) continue;
    PetscCallCL(clGetKernelWorkGroupInfo(k[i], ac->cl->device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof(priv), &priv, NULL));
    PetscCallCL(clGetKernelWorkGroupInfo(k[i], ac->cl->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(lmem), &lmem, NULL));
    PetscCallCL(clGetKernelWorkGroupInfo(k[i], ac->cl->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  kernel %-8s private %llu B, local %llu B, at most %zu work-items\n", name[i], (unsigned long long)priv,
                          (unsigned long long)lmem, wg));
  }
  PetscFunctionReturn(0);
}

/* Seconds for K steps of the regions in mask (after one warm-up step). */
static PetscErrorCode TimeSteps(Acoustic ac, PetscInt K, PetscInt mask, PetscReal *sec)
{
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  PetscCall(AcousticStepRegions(ac, 1, mask));
  PetscCall(SbpmgCLFinish(ac->cl));
  PetscCall(PetscTime(&t0));
  PetscCall(AcousticStepRegions(ac, K, mask));
  PetscCall(SbpmgCLFinish(ac->cl));
  PetscCall(PetscTime(&t1));
  *sec = t1 - t0;
  PetscFunctionReturn(0);
}

static PetscReal RegionPoints(Acoustic ac, PetscInt mask)
{
  PetscReal n = 0;
  for (PetscInt r = 0; r < AC_NREGIONS; r++) {
    PetscReal m = 1;
    if (!(mask & (1 << r))) continue;
    for (PetscInt a = 0; a < 3; a++) m *= (PetscReal)PetscMax(ac->hi[r][a] - ac->lo[r][a], 0);
    n += m;
  }
  return n;
}

/* A list option into an array of 16 (64 for the whole-grid tiles); *n keeps the default count when it is not given. */
static PetscErrorCode GetList(const char name[], PetscInt a[], PetscInt *n)
{
  PetscInt  m = strcmp(name, "-bench_whole_tiles") ? 16 : 64;
  PetscBool set;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, name, a, &m, &set));
  if (set) *n = m;
  PetscFunctionReturn(0);
}

/* The best tile the sweep found: inner {x, y, z, local, vec}, PML {x, y, z}. */
static int BestInner[5] = {-1, -1, -1, 0, -1}, BestPML[4] = {-1, -1, -1, -1}, BestRows = 0,
           BestMode   = 0;           /* 0 a launch per region, 1 PML merged, 2 whole grid */
static PetscBool info = PETSC_FALSE; /* -bench_kernel_info */

/* The sweep: inner tiles (inner region only), then PML tiles (PML regions only). */
static PetscErrorCode Sweep(Acoustic ac, PetscInt K, PetscReal copy_gbs)
{
  PetscInt  tx[16] = {16, 32, 64, 128}, ty[16] = {4, 8, 16}, tz[16] = {0, 64, 128}, vec[16] = {1, 4}, loc[16] = {0, 1}, rows = 0;
  PetscInt  ptx[16] = {32, 64}, pty[16] = {2, 4, 8}, ptz[16] = {0, 32, 128}, pvec[16] = {1, 4};
  PetscInt  ntx = 4, nty = 3, ntz = 3, nvec = 2, nloc = 2, nptx = 2, npty = 3, nptz = 3, npvec = 2, wt[64], nwt = 64;
  PetscReal best = 0, ninner = RegionPoints(ac, 1), npml = RegionPoints(ac, AC_REGIONS_PML), rowsi, rowsp, besti;
  char      bestopts[256] = "";

  PetscFunctionBeginUser;
  PetscCall(GetList("-bench_tile_x", tx, &ntx));
  PetscCall(GetList("-bench_tile_y", ty, &nty));
  PetscCall(GetList("-bench_tile_z", tz, &ntz));
  PetscCall(GetList("-bench_vec", vec, &nvec));
  PetscCall(GetList("-bench_local", loc, &nloc));
  PetscCall(GetList("-bench_pml_tile_x", ptx, &nptx));
  PetscCall(GetList("-bench_pml_tile_y", pty, &npty));
  PetscCall(GetList("-bench_pml_tile_z", ptz, &nptz));
  PetscCall(GetList("-bench_pml_vec", pvec, &npvec));
  nwt = 0;
  PetscCall(GetList("-bench_whole_tiles", wt, &nwt)); /* tx,ty,tz,vec quadruples */
  nwt -= nwt % 4;
  /* the row kernels first, for reference */
  PetscCall(AcousticSetRowKernels(ac, 1));
  {
    PetscReal si, sp;
    PetscCall(TimeSteps(ac, K, 1, &si));
    PetscCall(TimeSteps(ac, K, AC_REGIONS_PML, &sp));
    rowsi = ninner * K / si / 1e9;
    rowsp = npml * K / sp / 1e9;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "row kernels: inner %.2f Gpts/s, PML %.2f Gpts/s\n", (double)rowsi, (double)rowsp));
  }
  PetscCall(AcousticSetRowKernels(ac, 0));
  (void)rows;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "sweep of the inner kernel (%" PetscInt_FMT " steps of the inner region, %.3e points):\n", K, (double)ninner));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %5s %5s %5s %4s %6s %10s %10s %8s\n", "tx", "ty", "tz", "vec", "local", "Gpts/s", "GB/s", "%copy"));
  for (PetscInt a = 0; a < ntx; a++)
    for (PetscInt b = 0; b < nty; b++)
      for (PetscInt c = 0; c < ntz; c++)
        for (PetscInt d = 0; d < nvec; d++)
          for (PetscInt e = 0; e < nloc; e++) {
            PetscReal      sec, g;
            PetscErrorCode ierr;

            if ((size_t)(tx[a] * ty[b]) > ac->cl->max_work_group_size) continue;
            PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
            ierr = AcousticSetTile(ac, tx[a], ty[b], tz[c], loc[e] ? PETSC_TRUE : PETSC_FALSE, vec[d]);
            PetscCall(PetscPopErrorHandler());
            if (ierr) continue; /* e.g. a local tile that does not fit */
            PetscCall(TimeSteps(ac, K, 1, &sec));
            g = ninner * K / sec / 1e9;
            PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %5d %5d %5d %4d %6d %10.2f %10.1f %8.1f\n", (int)tx[a], (int)ty[b], (int)tz[c], (int)vec[d], (int)loc[e],
                                  (double)g, (double)(g * AC_BYTES_INNER), (double)(100 * g * AC_BYTES_INNER / copy_gbs)));
            if (g > best) {
              best = g;
              PetscCall(PetscStrncpy(bestopts, ac->kopts, sizeof(bestopts)));
            }
          }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  best inner: %.2f Gpts/s with %s\n", (double)best, bestopts));
  besti = best;
  /* keep the best inner tile for the PML sweep */
  {
    int btx, bty, btz, bvec, bloc, ptxd, ptyd, ptzd;
    if (sscanf(bestopts, "-cl-denorms-are-zero -DTILE_X=%d -DTILE_Y=%d -DTILE_Z=%d -DAC_LOCAL=%d -DAC_VEC=%d -DPML_TX=%d -DPML_TY=%d -DPML_TZ=%d", &btx, &bty,
               &btz, &bloc, &bvec, &ptxd, &ptyd, &ptzd) == 8) {
      PetscCall(AcousticSetTile(ac, btx, bty, btz, bloc ? PETSC_TRUE : PETSC_FALSE, bvec));
      BestInner[0] = btx;
      BestInner[1] = bty;
      BestInner[2] = btz;
      BestInner[3] = bloc;
      BestInner[4] = bvec;
    }
  }
  if (npml > 0) {
    best = 0;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "sweep of the PML kernel (%" PetscInt_FMT " steps of the six PML regions, %.3e points):\n", K, (double)npml));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %5s %5s %5s %4s %10s %10s %8s\n", "ptx", "pty", "ptz", "vec", "Gpts/s", "GB/s", "%copy"));
    for (PetscInt a = 0; a < nptx; a++)
      for (PetscInt b = 0; b < npty; b++)
        for (PetscInt c = 0; c < nptz; c++)
          for (PetscInt d = 0; d < npvec; d++) {
            PetscReal sec, g;
            if ((size_t)(ptx[a] * pty[b]) > ac->cl->max_work_group_size) continue;
            PetscCall(AcousticSetPMLTile(ac, ptx[a], pty[b], ptz[c], pvec[d]));
            PetscCall(TimeSteps(ac, K, AC_REGIONS_PML, &sec));
            g = npml * K / sec / 1e9;
            PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %5d %5d %5d %4d %10.2f %10.1f %8.1f\n", (int)ptx[a], (int)pty[b], (int)ptz[c], (int)pvec[d], (double)g,
                                  (double)(g * AC_BYTES_PML), (double)(100 * g * AC_BYTES_PML / copy_gbs)));
            if (g > best) {
              best = g;
              PetscCall(PetscStrncpy(bestopts, ac->kopts, sizeof(bestopts)));
            }
          }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  best PML: %.2f Gpts/s with %s\n", (double)best, bestopts));
    {
      int b[9];
      if (sscanf(bestopts,
                 "-cl-denorms-are-zero -DTILE_X=%d -DTILE_Y=%d -DTILE_Z=%d -DAC_LOCAL=%d -DAC_VEC=%d -DPML_TX=%d -DPML_TY=%d -DPML_TZ=%d -DPML_VEC=%d", &b[0],
                 &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &b[7], &b[8]) == 9) {
        BestPML[0] = b[5];
        BestPML[1] = b[6];
        BestPML[2] = b[7];
        BestPML[3] = b[8];
      }
    }
    /* rows or 2.5D: the smaller time per step */
    BestRows = ninner / rowsi + npml / rowsp < ninner / besti + npml / best;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  per step: row kernels %.3f ms, best 2.5D kernels %.3f ms: %s\n",
                          (double)(1e-6 * (ninner / rowsi + npml / rowsp)), (double)(1e-6 * (ninner / besti + npml / best)), BestRows ? "rows" : "2.5D"));
    /* whole steps: a launch per region, the PML regions merged into one launch, the whole grid in one launch */
    if (!BestRows) {
      PetscReal   sec[3];
      const char *name[3] = {"a launch per region", "the PML regions in one launch", "the whole grid in one launch"};
      PetscCall(AcousticSetPMLTile(ac, BestPML[0], BestPML[1], BestPML[2], BestPML[3]));
      for (int f = 0; f < 3; f++) {
        PetscErrorCode ierr;
        PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
        ierr = AcousticSetFused(ac, f == 2, f == 1);
        PetscCall(PetscPopErrorHandler());
        if (ierr) { /* the whole grid takes the cache variant */
          PetscCall(AcousticSetTile(ac, BestInner[0], BestInner[1], BestInner[2], PETSC_FALSE, BestInner[4]));
          PetscCall(AcousticSetFused(ac, f == 2, f == 1));
        }
        PetscCall(TimeSteps(ac, K, AC_REGIONS_ALL, &sec[f]));
        if (f == 2 && info) PetscCall(KernelInfo(ac));
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  whole step, %s: %.3f ms/step, %.2f Gpts/s (%s)\n", name[f], (double)(1e3 * sec[f] / K),
                              (double)((ninner + npml) * K / sec[f] / 1e9), ac->kopts));
      }
      BestMode = sec[1] < sec[0] ? 1 : 0;
      if (sec[2] < sec[BestMode]) BestMode = 2;
      PetscCall(AcousticSetFused(ac, 0, 0));
      /* the whole-grid kernel over its own tiles */
      if (nwt) {
        PetscReal bw    = 1e30;
        int       bt[3] = {0, 0, 0};
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "sweep of the whole-grid kernel (%" PetscInt_FMT " steps):\n  %5s %5s %5s %4s %10s\n", K, "tx", "ty", "tz",
                              "vec", "Gpts/s"));
        for (PetscInt a = 0; a < nwt; a += 4) {
          PetscReal sw;
          PetscCall(AcousticSetTile(ac, wt[a], wt[a + 1], wt[a + 2], PETSC_FALSE, wt[a + 3]));
          PetscCall(AcousticSetFused(ac, 1, 0));
          PetscCall(TimeSteps(ac, K, AC_REGIONS_ALL, &sw));
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %5d %5d %5d %4d %10.2f\n", (int)wt[a], (int)wt[a + 1], (int)wt[a + 2], (int)wt[a + 3],
                                (double)((ninner + npml) * K / sw / 1e9)));
          if (sw < bw) {
            bw        = sw;
            bt[0]     = (int)wt[a];
            bt[1]     = (int)wt[a + 1];
            bt[2]     = (int)wt[a + 2];
            bt[3 - 3] = bt[0];
            if (sw < sec[BestMode]) {
              BestMode     = 2;
              BestInner[0] = (int)wt[a];
              BestInner[1] = (int)wt[a + 1];
              BestInner[2] = (int)wt[a + 2];
              BestInner[3] = 0;
              BestInner[4] = (int)wt[a + 3];
              sec[2]       = sw;
            }
          }
        }
        PetscCall(AcousticSetFused(ac, 0, 0));
      }
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  best whole step: %s\n", name[BestMode]));
    }
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  SbpmgCL   cl;
  PetscReal kernel_gbs = 0, driver_gbs = 0, copy_gbs;
  PetscInt  steps = 1000, copy_mib = 2048, sweep_steps = 20, ninit = 2;
  char     *inits[2] = {NULL, NULL};
  PetscBool sweep = PETSC_FALSE, regions = PETSC_FALSE, usebest = PETSC_TRUE;
  char      summary[4096] = "";

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(DefaultOption("-ac_n", "800"));
  PetscCall(DefaultOption("-ac_ndamp", "27"));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ac_steps", &steps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_copy_mib", &copy_mib, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_sweep_steps", &sweep_steps, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bench_sweep", &sweep, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bench_regions", &regions, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bench_use_best", &usebest, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bench_kernel_info", &info, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-bench_init", inits, &ninit, NULL));
  if (!ninit || !inits[0]) {
    PetscCall(PetscStrallocpy("zero", &inits[0]));
    PetscCall(PetscStrallocpy("random", &inits[1]));
    ninit = 2;
  }

  PetscCall(SbpmgCLGetDefault(&cl));
  PetscCall(SbpmgCLView(cl, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(CopyBandwidth(cl, (size_t)copy_mib, &kernel_gbs, &driver_gbs));
  copy_gbs = PetscMax(kernel_gbs, driver_gbs);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "copy bandwidth (read + write): float4 kernel %.1f GB/s, clEnqueueCopyBuffer %.1f GB/s\n", (double)kernel_gbs,
                        (double)driver_gbs));

  if (sweep || regions || info) { /* on random fields (never time on zeros) */
    Acoustic ac;

    PetscCall(PetscOptionsSetValue(NULL, "-ac_init", "random"));
    PetscCall(AcousticCreate(PETSC_COMM_WORLD, &ac));
    PetscCall(AcousticSetFromOptions(ac));
    PetscCall(AcousticSetUp(ac));
    PetscCall(AcousticView(ac, PETSC_VIEWER_STDOUT_WORLD));
    if (info) PetscCall(KernelInfo(ac));
    if (sweep) PetscCall(Sweep(ac, sweep_steps, copy_gbs));
    if (regions) {
      PetscReal si, sp;
      PetscCall(TimeSteps(ac, sweep_steps, 1, &si));
      PetscCall(TimeSteps(ac, sweep_steps, AC_REGIONS_PML, &sp));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                            "regions (%" PetscInt_FMT " steps, %s): inner %.3f ms/step %.2f Gpts/s %.1f GB/s; PML %.3f ms/step %.2f Gpts/s %.1f GB/s\n",
                            sweep_steps, ac->kopts, (double)(1e3 * si / sweep_steps), (double)(RegionPoints(ac, 1) * sweep_steps / si / 1e9),
                            (double)(RegionPoints(ac, 1) * AC_BYTES_INNER * sweep_steps / si / 1e9), (double)(1e3 * sp / sweep_steps),
                            (double)(RegionPoints(ac, AC_REGIONS_PML) * sweep_steps / sp / 1e9),
                            (double)(RegionPoints(ac, AC_REGIONS_PML) * AC_BYTES_PML * sweep_steps / sp / 1e9)));
      for (PetscInt r = AC_REGION_ZLO; r < AC_NREGIONS; r++) { /* each PML slab alone (its own launch) */
        PetscReal sr, np = RegionPoints(ac, 1 << r);
        PetscCall(TimeSteps(ac, sweep_steps, 1 << r, &sr));
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  region %-4s %.0f points: %.3f ms/step %.2f Gpts/s %.1f GB/s (%.1f%% of copy)\n", AcousticRegionNames[r],
                              (double)np, (double)(1e3 * sr / sweep_steps), (double)(np * sweep_steps / sr / 1e9),
                              (double)(np * AC_BYTES_PML * sweep_steps / sr / 1e9), (double)(100 * np * AC_BYTES_PML * sweep_steps / sr / 1e9 / copy_gbs)));
      }
    }
    PetscCall(AcousticDestroy(&ac));
  }

  for (PetscInt r = 0; r < ninit; r++) {
    Acoustic       ac;
    PetscLogDouble t0, t1;
    PetscReal      sec, bytes, spec, npts, maxu, e, gpts;
    PetscInt       n[3];
    char           line[512];

    PetscCall(PetscOptionsSetValue(NULL, "-ac_init", inits[r]));
    PetscCall(AcousticCreate(PETSC_COMM_WORLD, &ac));
    PetscCall(AcousticSetFromOptions(ac));
    PetscCall(PetscTime(&t0));
    PetscCall(AcousticSetUp(ac));
    PetscCall(PetscTime(&t1));
    PetscCall(AcousticGetSizes(ac, &n[0], &n[1], &n[2]));
    PetscCall(AcousticView(ac, PETSC_VIEWER_STDOUT_WORLD));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "set-up %.2f s\n", (double)(t1 - t0)));
    if (sweep && usebest) {
      PetscCall(AcousticSetTile(ac, BestInner[0], BestInner[1], BestInner[2], BestInner[3] ? PETSC_TRUE : PETSC_FALSE, BestInner[4]));
      PetscCall(AcousticSetPMLTile(ac, BestPML[0], BestPML[1], BestPML[2], BestPML[3]));
      PetscCall(AcousticSetRowKernels(ac, BestRows));
      PetscCall(AcousticSetFused(ac, BestMode == 2, BestMode == 1));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "using the best of the sweep: %s kernels %s\n",
                            ac->krows ? "row" : (ac->kfused ? "whole-grid" : (ac->kpmlmerge ? "2.5D, PML merged," : "2.5D")), ac->kopts));
    }
    PetscCall(AcousticGetBytesPerStep(ac, &bytes, &spec));
    PetscCall(SbpmgCLFinish(ac->cl));
    PetscCall(PetscTime(&t0));
    PetscCall(AcousticStep(ac, steps));
    PetscCall(SbpmgCLFinish(ac->cl));
    PetscCall(PetscTime(&t1));
    sec  = t1 - t0;
    npts = (PetscReal)n[0] * n[1] * n[2];
    gpts = npts * steps / sec / 1e9;
    PetscCall(AcousticGetNorms(ac, &maxu, &e));
    PetscCall(PetscSNPrintf(line, sizeof(line),
                            "  %-7s %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT ", %" PetscInt_FMT
                            " steps: %8.3f s  %8.2f Gpts/s  %8.1f GB/s at the spec's bytes (%.1f%% of copy)  %8.1f GB/s actual  max|u| %.3e%s\n",
                            inits[r], n[0], n[1], n[2], steps, (double)sec, (double)gpts, (double)(spec * steps / sec / 1e9),
                            (double)(100 * spec * steps / sec / 1e9 / copy_gbs), (double)(bytes * steps / sec / 1e9), (double)maxu,
                            PetscIsNormalReal(maxu) || maxu == 0 ? "" : "  NOT FINITE"));
    PetscCall(PetscStrlcat(summary, line, sizeof(summary)));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s", line));
    PetscCall(AcousticDestroy(&ac));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "summary (copy bandwidth %.1f GB/s; device %s):\n%s", (double)copy_gbs, cl->device_name, summary));
  for (PetscInt r = 0; r < ninit; r++) PetscCall(PetscFree(inits[r]));
  PetscCall(PetscFinalize());
  return 0;
}
