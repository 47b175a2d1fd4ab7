/* OpenCL device selection and the sbpmg device context (one context, one device, one in-order queue). */
#include <sbpmg/private/climpl.h>

static SbpmgCL      sbpmg_cl_default = NULL;
static SbpmgCLStats sbpmg_cl_global; /* live objects over all contexts, and totals */

typedef enum { SBPMG_CL_DEVICE_AUTO, SBPMG_CL_DEVICE_GPU, SBPMG_CL_DEVICE_CPU, SBPMG_CL_DEVICE_ANY } SbpmgCLDeviceType;
static const char *const SbpmgCLDeviceTypes[] = {"auto", "gpu", "cpu", "any", NULL};

#define SBPMG_CL_MAX_PLATFORMS 16
#define SBPMG_CL_MAX_DEVICES   64

typedef struct {
  cl_platform_id platform[SBPMG_CL_MAX_DEVICES];
  cl_device_id   device[SBPMG_CL_MAX_DEVICES];
  PetscInt       platform_index[SBPMG_CL_MAX_DEVICES];
  PetscInt       n;
} SbpmgCLCandidates;

static PetscErrorCode SbpmgCLListPlatforms(cl_platform_id platforms[], cl_uint *np)
{
  cl_int err;

  PetscFunctionBegin;
  err = clGetPlatformIDs(SBPMG_CL_MAX_PLATFORMS, platforms, np);
  if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (err == CL_SUCCESS && *np == 0)) {
    const char *vendors = getenv("OCL_ICD_VENDORS");
    SETERRQ(
        PETSC_COMM_SELF, PETSC_ERR_LIB,
        "No OpenCL device: the OpenCL ICD loader found no platform (it searched %s for .icd files). Install a driver, e.g. Debian's pocl-opencl-icd for the "
        "CPU, or NVIDIA's OpenCL ICD",
        vendors ? vendors : "/etc/OpenCL/vendors");
  }
  PetscCallCL(err);
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpmgCLCollectDevices(cl_platform_id platforms[], cl_uint np, PetscInt only_platform, cl_device_type type, SbpmgCLCandidates *c)
{
  PetscFunctionBegin;
  c->n = 0;
  for (cl_uint p = 0; p < np; p++) {
    cl_device_id devs[SBPMG_CL_MAX_DEVICES];
    cl_uint      nd = 0;
    cl_int       err;

    if (only_platform >= 0 && (PetscInt)p != only_platform) continue;
    err = clGetDeviceIDs(platforms[p], type, SBPMG_CL_MAX_DEVICES, devs, &nd);
    if (err == CL_DEVICE_NOT_FOUND) continue;
    PetscCallCL(err);
    for (cl_uint d = 0; d < nd && c->n < SBPMG_CL_MAX_DEVICES; d++) {
      c->platform[c->n]       = platforms[p];
      c->device[c->n]         = devs[d];
      c->platform_index[c->n] = p;
      c->n++;
    }
  }
  PetscFunctionReturn(0);
}

/* A one-line inventory of what was searched, for error messages. */
static PetscErrorCode SbpmgCLDescribePlatforms(cl_platform_id platforms[], cl_uint np, char *buf, size_t len)
{
  PetscFunctionBegin;
  buf[0] = 0;
  for (cl_uint p = 0; p < np; p++) {
    char    name[128] = "?", item[256];
    cl_uint ngpu = 0, ncpu = 0, nall = 0;

    (void)clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof(name), name, NULL);
    (void)clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_GPU, 0, NULL, &ngpu);
    (void)clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_CPU, 0, NULL, &ncpu);
    (void)clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nall);
    PetscCall(PetscSNPrintf(item, sizeof(item), "%s[%u] %s: %u gpu, %u cpu, %u in all", p ? "; " : "", p, name, ngpu, ncpu, nall));
    PetscCall(PetscStrlcat(buf, item, len));
  }
  PetscFunctionReturn(0);
}

/* device >= 0: that device of the requested type; device < 0: device (-1 - device) mod the number found (one device per
   node-local rank). The number of matching devices is returned in ndev. */
static PetscErrorCode SbpmgCLSelectDevice(SbpmgCL cl, SbpmgCLDeviceType type, PetscInt platform, PetscInt device, PetscInt *ndev)
{
  cl_platform_id    platforms[SBPMG_CL_MAX_PLATFORMS];
  cl_uint           np = 0;
  SbpmgCLCandidates c  = {.n = 0};
  char              inventory[1024];

  PetscFunctionBegin;
  PetscCall(SbpmgCLListPlatforms(platforms, &np));
  PetscCall(SbpmgCLDescribePlatforms(platforms, np, inventory, sizeof(inventory)));
  PetscCheck(platform < (PetscInt)np, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "-cl_platform %" PetscInt_FMT " is out of range: %u OpenCL platform(s) found (%s)", platform, np, inventory);
  switch (type) {
  case SBPMG_CL_DEVICE_GPU:
    PetscCall(SbpmgCLCollectDevices(platforms, np, platform, CL_DEVICE_TYPE_GPU, &c));
    break;
  case SBPMG_CL_DEVICE_CPU:
    PetscCall(SbpmgCLCollectDevices(platforms, np, platform, CL_DEVICE_TYPE_CPU, &c));
    break;
  case SBPMG_CL_DEVICE_ANY:
    PetscCall(SbpmgCLCollectDevices(platforms, np, platform, CL_DEVICE_TYPE_ALL, &c));
    break;
  case SBPMG_CL_DEVICE_AUTO: /* the first GPU, else the first CPU, else anything */
    PetscCall(SbpmgCLCollectDevices(platforms, np, platform, CL_DEVICE_TYPE_GPU, &c));
    if (!c.n) PetscCall(SbpmgCLCollectDevices(platforms, np, platform, CL_DEVICE_TYPE_CPU, &c));
    if (!c.n) PetscCall(SbpmgCLCollectDevices(platforms, np, platform, CL_DEVICE_TYPE_ALL, &c));
    break;
  }
  PetscCheck(c.n > 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "No OpenCL device of type %s found%s (searched: %s)", SbpmgCLDeviceTypes[type],
             platform >= 0 ? " on the platform chosen by -cl_platform" : "", inventory);
  if (device < 0) device = (-1 - device) % c.n;
  *ndev = c.n;
  PetscCheck(device < c.n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "-cl_device %" PetscInt_FMT " is out of range: %" PetscInt_FMT " OpenCL device(s) of type %s found (%s)", device, c.n, SbpmgCLDeviceTypes[type],
             inventory);
  cl->platform       = c.platform[device];
  cl->device         = c.device[device];
  cl->platform_index = c.platform_index[device];
  cl->device_index   = device;
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpmgCLQueryDevice(SbpmgCL cl)
{
  char ext[8192];

  PetscFunctionBegin;
  PetscCallCL(clGetPlatformInfo(cl->platform, CL_PLATFORM_NAME, sizeof(cl->platform_name), cl->platform_name, NULL));
  PetscCallCL(clGetDeviceInfo(cl->device, CL_DEVICE_NAME, sizeof(cl->device_name), cl->device_name, NULL));
  PetscCallCL(clGetDeviceInfo(cl->device, CL_DEVICE_VERSION, sizeof(cl->device_version), cl->device_version, NULL));
  PetscCallCL(clGetDeviceInfo(cl->device, CL_DRIVER_VERSION, sizeof(cl->driver_version), cl->driver_version, NULL));
  PetscCallCL(clGetDeviceInfo(cl->device, CL_DEVICE_TYPE, sizeof(cl->type), &cl->type, NULL));
  PetscCallCL(clGetDeviceInfo(cl->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cl->compute_units), &cl->compute_units, NULL));
  PetscCallCL(clGetDeviceInfo(cl->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(cl->max_work_group_size), &cl->max_work_group_size, NULL));
  PetscCallCL(clGetDeviceInfo(cl->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(cl->global_mem), &cl->global_mem, NULL));
  PetscCallCL(clGetDeviceInfo(cl->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(cl->max_alloc), &cl->max_alloc, NULL));
  PetscCallCL(clGetDeviceInfo(cl->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(cl->local_mem), &cl->local_mem, NULL));
  PetscCallCL(clGetDeviceInfo(cl->device, CL_DEVICE_EXTENSIONS, sizeof(ext), ext, NULL));
  cl->fp64 = strstr(ext, "cl_khr_fp64") ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* -cl_profile: every launch keeps its event; batches of them are read into totals per (kernel, log2 of the work-items), printed
   when the context is destroyed, with the span from the first start to the last end: the device's busy fraction. */
#define SBPMG_PROF_PENDING 4096
#define SBPMG_PROF_ROWS    512
struct SbpmgCLProfile {
  cl_event  ev[SBPMG_PROF_PENDING];
  cl_kernel kev[SBPMG_PROF_PENDING];
  int       bev[SBPMG_PROF_PENDING];
  int       npending, nrows;
  cl_kernel krow[SBPMG_PROF_ROWS];
  int       brow[SBPMG_PROF_ROWS];
  double    count[SBPMG_PROF_ROWS], ns[SBPMG_PROF_ROWS];
  cl_ulong  first, last;
};

static PetscErrorCode SbpmgCLProfileDrain(SbpmgCL cl)
{
  struct SbpmgCLProfile *pr = cl->prof;

  PetscFunctionBegin;
  if (!pr->npending) PetscFunctionReturn(0);
  PetscCallCL(clWaitForEvents((cl_uint)pr->npending, pr->ev));
  for (int e = 0; e < pr->npending; e++) {
    cl_ulong t0, t1;
    int      r;
    PetscCallCL(clGetEventProfilingInfo(pr->ev[e], CL_PROFILING_COMMAND_START, sizeof(t0), &t0, NULL));
    PetscCallCL(clGetEventProfilingInfo(pr->ev[e], CL_PROFILING_COMMAND_END, sizeof(t1), &t1, NULL));
    PetscCallCL(clReleaseEvent(pr->ev[e]));
    if (!pr->first || t0 < pr->first) pr->first = t0;
    if (t1 > pr->last) pr->last = t1;
    for (r = 0; r < pr->nrows; r++)
      if (pr->krow[r] == pr->kev[e] && pr->brow[r] == pr->bev[e]) break;
    if (r == pr->nrows && pr->nrows < SBPMG_PROF_ROWS) {
      pr->krow[r] = pr->kev[e];
      pr->brow[r] = pr->bev[e];
      pr->nrows++;
    }
    if (r < pr->nrows) {
      pr->count[r] += 1;
      pr->ns[r] += (double)(t1 - t0);
    }
  }
  pr->npending = 0;
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpmgCLProfilePrint(SbpmgCL cl)
{
  struct SbpmgCLProfile *pr    = cl->prof;
  double                 total = 0;

  PetscFunctionBegin;
  PetscCall(SbpmgCLProfileDrain(cl));
  for (int r = 0; r < pr->nrows; r++) total += pr->ns[r];
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, PETSC_STDOUT,
                         "sbpmg -cl_profile: %.3f ms in kernels over a span of %.3f ms (%.1f%% busy)\n%-28s %10s %12s %10s %10s\n", total / 1e6,
                         (double)(pr->last - pr->first) / 1e6, pr->last > pr->first ? 100 * total / (double)(pr->last - pr->first) : 0.0, "kernel", "items<=2^",
                         "launches", "ms", "us/launch"));
  for (int r = 0; r < pr->nrows; r++) {
    char name[64] = "?";
    (void)clGetKernelInfo(pr->krow[r], CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL);
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, PETSC_STDOUT, "%-28s %10d %12.0f %10.3f %10.2f\n", name, pr->brow[r], pr->count[r], pr->ns[r] / 1e6,
                           pr->ns[r] / 1e3 / pr->count[r]));
  }
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLGetProfile - Launches of a kernel and their device time so far, on a context created with -cl_profile.

   Not collective

   Level: developer
@*/
PetscErrorCode SbpmgCLGetProfile(SbpmgCL cl, const char kernel[], PetscInt *launches, PetscReal *seconds)
{
  struct SbpmgCLProfile *pr = cl->prof;

  PetscFunctionBegin;
  PetscCheck(pr, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Kernel profiling is off: create the OpenCL context with -cl_profile");
  PetscCall(SbpmgCLProfileDrain(cl));
  *launches = 0;
  *seconds  = 0;
  for (int r = 0; r < pr->nrows; r++) {
    char      name[64] = "";
    PetscBool match;
    PetscCallCL(clGetKernelInfo(pr->krow[r], CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL));
    PetscCall(PetscStrcmp(name, kernel, &match));
    if (!match) continue;
    *launches += (PetscInt)pr->count[r];
    *seconds += pr->ns[r] * 1e-9;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpmgCLCreateQueue(SbpmgCL cl)
{
  cl_int err;

  PetscFunctionBegin;
  cl->context = clCreateContext(NULL, 1, &cl->device, NULL, NULL, &err);
  PetscCallCL(err);
  sbpmg_cl_global.live_contexts++;
  cl->queue = clCreateCommandQueue(cl->context, cl->device, cl->prof ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
  PetscCallCL(err);
  sbpmg_cl_global.live_queues++;
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLCreate - Select an OpenCL device from the options database and create a context and an in-order queue on it.

   Options Database Keys:
+  -cl_device_type <auto,gpu,cpu,any> - device kind; auto takes the first GPU, else the first CPU device (PoCL)
.  -cl_platform <n>     - only consider platform n (default: all platforms)
.  -cl_device <n>       - take the n-th device of the requested type (default 0, or one per rank: see below)
.  -cl_device_per_rank <bool> - on a communicator of several ranks without -cl_device, the rank of node-local rank r
                          (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)) takes device r mod (number of devices of the
                          requested type); default true
.  -cl_kernel_dir <dir> - read kernels/<name>.cl from dir instead of the sources embedded in the library
.  -cl_build_options <s> - extra OpenCL compiler options for every program (e.g. -cl-nv-maxrregcount=64 -cl-nv-verbose on NVIDIA)
.  -cl_build_log        - print the compiler's log of every program built (register counts with -cl-nv-verbose)
.  -cl_mem_cap <MiB>    - refuse device allocations beyond this many MiB (to test out-of-memory handling)
-  -cl_view             - print the device chosen (each rank's, on several ranks), and transfer and build counts when
                          the context is destroyed

   Collective on comm (on several ranks: the node-local ranks are found with MPI_Comm_split_type() on comm).

   Level: intermediate

.seealso: `SbpmgCLGetDefault()`, `SbpmgCLDestroy()`
@*/
PetscErrorCode SbpmgCLCreate(MPI_Comm comm, SbpmgCL *out)
{
  SbpmgCL           cl;
  SbpmgCLDeviceType type     = SBPMG_CL_DEVICE_AUTO;
  PetscInt          platform = -1, device = 0, itype, ndev = 0;
  char typename[32]                   = "auto";
  PetscReal   cap_mib                 = 0;
  char        dir[PETSC_MAX_PATH_LEN] = "", bopts[256] = "", tune[1024] = "";
  PetscBool   build_log = PETSC_FALSE;
  PetscBool   view = PETSC_FALSE, dirset = PETSC_FALSE, deviceset = PETSC_FALSE, per_rank = PETSC_TRUE, profile = PETSC_FALSE;
  PetscBool   onepass = PETSC_FALSE, pinned = PETSC_TRUE, spin = PETSC_FALSE; /* measured on the H200: docs/performance.md, attempt 33 */
  PetscMPIInt size, rank, lrank = 0, lsize = 1;

  PetscFunctionBegin;
  PetscCall(SbpmgCLInitializePackage());
  PetscOptionsBegin(comm, NULL, "sbpmg OpenCL device selection", "Sys");
  PetscCall(PetscOptionsString("-cl_device_type", "OpenCL device type: auto (first GPU, else first CPU)|gpu|cpu|any", "SbpmgCLCreate", typename, typename,
                               sizeof(typename), NULL));
  PetscCall(PetscOptionsInt("-cl_platform", "OpenCL platform index (-1: search all platforms)", "SbpmgCLCreate", platform, &platform, NULL));
  PetscCall(PetscOptionsInt("-cl_device", "Index of the device among those of the requested type", "SbpmgCLCreate", device, &device, &deviceset));
  PetscCall(PetscOptionsBool("-cl_device_per_rank", "Without -cl_device on several ranks: node-local rank r takes device r mod (number of devices)",
                             "SbpmgCLCreate", per_rank, &per_rank, NULL));
  PetscCall(
      PetscOptionsString("-cl_kernel_dir", "Directory with <name>.cl files overriding the embedded kernels", "SbpmgCLCreate", dir, dir, sizeof(dir), &dirset));
  PetscCall(PetscOptionsString("-cl_build_options", "Extra OpenCL compiler options for every program", "SbpmgCLCreate", bopts, bopts, sizeof(bopts), NULL));
  PetscCall(PetscOptionsBool("-cl_build_log", "Print the compiler's log of every program built", "SbpmgCLCreate", build_log, &build_log, NULL));
  PetscCall(PetscOptionsReal("-cl_mem_cap", "Cap on device memory in MiB, 0 = none (simulates a small device)", "SbpmgCLCreate", cap_mib, &cap_mib, NULL));
  PetscCall(PetscOptionsBool("-cl_view", "View the OpenCL device and its transfer counters", "SbpmgCLView", view, &view, NULL));
  PetscCall(PetscOptionsBool("-cl_profile", "Time every kernel on the device (profiling events); print the totals when the context is destroyed",
                             "SbpmgCLCreate", profile, &profile, NULL));
  PetscCall(PetscOptionsBool("-vec_cl_reduce_onepass",
                             "Device vector reductions in one launch: the last work-group combines the partials (false: a second, final launch)",
                             "SbpmgCLCreate", onepass, &onepass, NULL));
  PetscCall(PetscOptionsBool("-cl_pinned_results", "Read reduction results into a small pinned host area (false: straight into pageable memory)",
                             "SbpmgCLCreate", pinned, &pinned, NULL));
  PetscCall(PetscOptionsBool("-cl_result_spin", "Experimental: await one-launch reduction results by spinning on a sequence number in pinned memory",
                             "SbpmgCLCreate", spin, &spin, NULL));
  PetscCall(PetscOptionsString("-sbpmg_tune", "Developer: override rows of the tuning table, key=value,... (docs/design.md \"Tuning\")", "SbpmgCLCreate", tune,
                               tune, sizeof(tune), NULL));
  PetscOptionsEnd();
  PetscCall(SbpmgParseChoice("-cl_device_type", typename, SbpmgCLDeviceTypes, &itype));
  type = (SbpmgCLDeviceType)itype;
  PetscCheck(cap_mib >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-cl_mem_cap %g must be >= 0", (double)cap_mib);
  PetscCheck(device >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-cl_device %" PetscInt_FMT " must be >= 0", device);
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (size > 1 && per_rank && !deviceset) { /* one device per node-local rank */
    MPI_Comm node;

    PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
    PetscCallMPI(MPI_Comm_rank(node, &lrank));
    PetscCallMPI(MPI_Comm_size(node, &lsize));
    PetscCallMPI(MPI_Comm_free(&node));
    device = -1 - (PetscInt)lrank;
  }
  if (dirset) {
    PetscBool isdir;
    PetscCall(PetscTestDirectory(dir, 'r', &isdir));
    PetscCheck(isdir, comm, PETSC_ERR_FILE_OPEN, "-cl_kernel_dir %s is not a readable directory", dir);
  }

  PetscCall(PetscNew(&cl));
  cl->refct = 1;
  cl->comm  = comm;
  cl->view  = view;
  if (profile) PetscCall(PetscNew(&cl->prof));
  PetscCall(PetscStrncpy(cl->kernel_dir, dir, sizeof(cl->kernel_dir)));
  PetscCall(PetscStrncpy(cl->build_options, bopts, sizeof(cl->build_options)));
  cl->build_log      = build_log;
  cl->mem_cap        = (size_t)(cap_mib * 1024.0 * 1024.0);
  cl->reduce_onepass = onepass;
  cl->pinned_results = pinned;
  cl->result_spin    = spin;
  /* On any failure below the partially built context is released before the error propagates. */
  {
    PetscErrorCode ierr = SbpmgCLSelectDevice(cl, type, platform, device, &ndev);
    cl->ndev            = ndev;
    if (!ierr) ierr = SbpmgCLQueryDevice(cl);
    if (!ierr) ierr = SbpmgCLSetUpTuning(cl, tune);
    if (!ierr) ierr = SbpmgCLCreateQueue(cl);
    if (ierr) {
      cl->refct = 1;
      PetscCall(SbpmgCLDestroy(&cl));
      PetscCall(ierr);
    }
  }
  if (size > 1 && per_rank && !deviceset && lsize > ndev && (cl->type & CL_DEVICE_TYPE_GPU))
    PetscCall(PetscInfo(NULL,
                        "%d ranks on this node share %" PetscInt_FMT " GPU(s): the processes time-slice each GPU and every ghost exchange waits for the "
                        "others' slices; on one H200, 2 ranks solved 15x slower than 1 (docs/performance.md)\n",
                        lsize, ndev));
  if (view) {
    PetscCall(SbpmgCLView(cl, PETSC_VIEWER_STDOUT_(comm)));
    if (size > 1) {
      PetscCall(PetscSynchronizedPrintf(comm, "[%d] sbpmg OpenCL device %" PetscInt_FMT " of %" PetscInt_FMT ": %s (node-local rank %d of %d, %s)\n", rank,
                                        cl->device_index, ndev, cl->device_name, lrank, lsize,
                                        deviceset ? "-cl_device" : (per_rank ? "one device per node-local rank" : "-cl_device_per_rank false")));
      PetscCall(PetscSynchronizedFlush(comm, PETSC_STDOUT));
    }
  }
  *out = cl;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLReference(SbpmgCL cl)
{
  PetscFunctionBegin;
  cl->refct++;
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpmgCLReleasePrograms(SbpmgCL cl)
{
  PetscFunctionBegin;
  while (cl->programs) {
    SbpmgCLProgramEntry p = cl->programs;
    cl->programs          = p->next;
    while (p->kernels) {
      SbpmgCLKernelEntry k = p->kernels;
      p->kernels           = k->next;
      PetscCallCL(clReleaseKernel(k->kernel));
      sbpmg_cl_global.live_kernels--;
      PetscCall(PetscFree(k->name));
      PetscCall(PetscFree(k));
    }
    PetscCallCL(clReleaseProgram(p->program));
    sbpmg_cl_global.live_programs--;
    PetscCall(PetscFree(p->name));
    PetscCall(PetscFree(p->source));
    PetscCall(PetscFree(p->options));
    PetscCall(PetscFree(p));
  }
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLDestroy - Drop a reference to a device context; the last one releases programs, kernels, queue and context.

   Level: intermediate
@*/
PetscErrorCode SbpmgCLDestroy(SbpmgCL *cl)
{
  SbpmgCL c = *cl;

  PetscFunctionBegin;
  *cl = NULL;
  if (!c || --c->refct > 0) PetscFunctionReturn(0);
  if (c->view && c->queue) {
    PetscMPIInt size, rank;

    PetscCallMPI(MPI_Comm_size(c->comm, &size));
    if (size > 1) { /* each rank's own counters; not collective (ranks may destroy their contexts at different times) */
      PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, PETSC_STDOUT,
                             "[%d] sbpmg OpenCL device %s: transfers host->device: %.0f (%.3f MB), device->host: %.0f (%.3f MB)\n", rank, c->device_name,
                             c->stats.htod_count, c->stats.htod_bytes / 1e6, c->stats.dtoh_count, c->stats.dtoh_bytes / 1e6));
    } else
      PetscCall(SbpmgCLView(c, PETSC_VIEWER_STDOUT_(c->comm)));
  }
  if (c->prof && c->queue) PetscCall(SbpmgCLProfilePrint(c));
  PetscCall(PetscFree(c->prof));
  PetscCall(SbpmgCLDestroyStaging(c, &c->results, &c->results_host));
  PetscCall(SbpmgCLReleasePrograms(c));
  if (c->queue) {
    PetscCallCL(clReleaseCommandQueue(c->queue));
    sbpmg_cl_global.live_queues--;
  }
  if (c->context) {
    PetscCallCL(clReleaseContext(c->context));
    sbpmg_cl_global.live_contexts--;
  }
  if (c == sbpmg_cl_default) sbpmg_cl_default = NULL;
  PetscCall(PetscFree(c));
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLGetDefault - The device context sbpmg's objects use unless given another; created from the options on first use.

   Not collective on later calls; the first call is collective on PETSC_COMM_WORLD (it reads the options).

   Level: beginner

.seealso: `SbpmgCLCreate()`, `SbpmgCLResetDefault()`
@*/
PetscErrorCode SbpmgCLGetDefault(SbpmgCL *cl)
{
  PetscFunctionBegin;
  if (!sbpmg_cl_default) PetscCall(SbpmgCLCreate(PETSC_COMM_WORLD, &sbpmg_cl_default));
  *cl = sbpmg_cl_default;
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLResetDefault - Drop the default context; the next SbpmgCLGetDefault() selects a device again from the options.
   Objects still holding the old context keep it alive until they are destroyed.

   Level: advanced
@*/
PetscErrorCode SbpmgCLResetDefault(void)
{
  SbpmgCL cl = sbpmg_cl_default;

  PetscFunctionBegin;
  sbpmg_cl_default = NULL;
  PetscCall(SbpmgCLDestroy(&cl));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLGetQueue(SbpmgCL cl, cl_command_queue *q)
{
  PetscFunctionBegin;
  *q = cl->queue;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLGetContext(SbpmgCL cl, cl_context *c)
{
  PetscFunctionBegin;
  *c = cl->context;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLGetDevice(SbpmgCL cl, cl_device_id *d)
{
  PetscFunctionBegin;
  *d = cl->device;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLGetDeviceName(SbpmgCL cl, const char **name)
{
  PetscFunctionBegin;
  *name = cl->device_name;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLIsGPU(SbpmgCL cl, PetscBool *gpu)
{
  PetscFunctionBegin;
  *gpu = (cl->type & CL_DEVICE_TYPE_GPU) ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLFinish(SbpmgCL cl)
{
  PetscFunctionBegin;
  PetscCallCL(clFinish(cl->queue));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLGetStats(SbpmgCL cl, SbpmgCLStats *s)
{
  PetscFunctionBegin;
  *s               = cl->stats;
  s->live_buffers  = sbpmg_cl_global.live_buffers;
  s->live_kernels  = sbpmg_cl_global.live_kernels;
  s->live_programs = sbpmg_cl_global.live_programs;
  s->live_queues   = sbpmg_cl_global.live_queues;
  s->live_contexts = sbpmg_cl_global.live_contexts;
  s->device_bytes  = cl->mem_used;
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLGetGlobalStats - Live OpenCL objects over every sbpmg context of this process (all zero once everything is destroyed),
   with transfer and build totals.

   Level: advanced
@*/
PetscErrorCode SbpmgCLGetGlobalStats(SbpmgCLStats *s)
{
  PetscFunctionBegin;
  *s = sbpmg_cl_global;
  PetscFunctionReturn(0);
}

static const char *SbpmgCLTypeName(cl_device_type t)
{
  if (t & CL_DEVICE_TYPE_GPU) return "gpu";
  if (t & CL_DEVICE_TYPE_CPU) return "cpu";
  if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

/*@C
   SbpmgCLView - Print the device, its capabilities and the transfer and program-build counters.

   Level: beginner
@*/
PetscErrorCode SbpmgCLView(SbpmgCL cl, PetscViewer viewer)
{
  PetscBool isascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPrintf(viewer, "sbpmg OpenCL device: %s (%s) on platform %" PetscInt_FMT " \"%s\"\n", cl->device_name, SbpmgCLTypeName(cl->type),
                                   cl->platform_index, cl->platform_name));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%s, driver %s, %u compute units, %.1f GiB global memory (max allocation %.1f GiB), %.0f KiB local, fp64 %s\n",
                                   cl->device_version, cl->driver_version, cl->compute_units, cl->global_mem / 1073741824.0, cl->max_alloc / 1073741824.0,
                                   cl->local_mem / 1024.0, cl->fp64 ? "yes" : "no"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "kernels: %s%s, precision %s%s%s\n", cl->kernel_dir[0] ? "from " : "embedded in the library", cl->kernel_dir,
                                   SBPMG_REAL_NAME, cl->build_options[0] ? ", extra build options " : "", cl->build_options));
  PetscCall(PetscViewerASCIIPrintf(viewer, "programs built %" PetscInt_FMT ", cache hits %" PetscInt_FMT "; device memory in use %.3f MiB%s\n",
                                   cl->stats.programs_built, cl->stats.program_cache_hits, cl->mem_used / 1048576.0,
                                   cl->mem_cap ? " (capped by -cl_mem_cap)" : ""));
  PetscCall(PetscViewerASCIIPrintf(viewer, "transfers host->device: %.0f (%.3f MB), device->host: %.0f (%.3f MB)\n", cl->stats.htod_count,
                                   cl->stats.htod_bytes / 1e6, cl->stats.dtoh_count, cl->stats.dtoh_bytes / 1e6));
  PetscCall(SbpmgCLViewTuning(cl, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

/* Live-object bookkeeping for programs and kernels created in program.c */
PetscErrorCode SbpmgCLCountProgram(PetscInt delta)
{
  PetscFunctionBegin;
  sbpmg_cl_global.live_programs += delta;
  if (delta > 0) sbpmg_cl_global.programs_built += delta;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLCountKernel(PetscInt delta)
{
  PetscFunctionBegin;
  sbpmg_cl_global.live_kernels += delta;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- buffers and transfers */

PetscErrorCode SbpmgCLCreateBuffer(SbpmgCL cl, cl_mem_flags flags, size_t bytes, cl_mem *mem)
{
  cl_int err;
  size_t nbytes = bytes ? bytes : 1; /* OpenCL refuses empty buffers; an empty vector still gets a handle */

  PetscFunctionBegin;
  PetscCheck(!cl->mem_cap || cl->mem_used + nbytes <= cl->mem_cap, PETSC_COMM_SELF, PETSC_ERR_MEM,
             "Device allocation of %zu bytes refused: -cl_mem_cap %.3f MiB with %zu bytes already in use on %s", nbytes, cl->mem_cap / 1048576.0, cl->mem_used,
             cl->device_name);
  PetscCheck(nbytes <= cl->max_alloc, PETSC_COMM_SELF, PETSC_ERR_MEM, "Device allocation of %zu bytes exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE = %llu bytes on %s",
             nbytes, (unsigned long long)cl->max_alloc, cl->device_name);
  *mem = clCreateBuffer(cl->context, flags, nbytes, NULL, &err);
  PetscCheck(err == CL_SUCCESS, PETSC_COMM_SELF, SbpmgCLErrorCode(err),
             "OpenCL error %d (%s): allocating a device buffer of %zu bytes on %s (%zu bytes in use)", (int)err, SbpmgCLErrorName(err), nbytes, cl->device_name,
             cl->mem_used);
  cl->mem_used += nbytes;
  sbpmg_cl_global.live_buffers++;
  sbpmg_cl_global.device_bytes += nbytes;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLReleaseBuffer(SbpmgCL cl, cl_mem *mem)
{
  size_t bytes;

  PetscFunctionBegin;
  if (!*mem) PetscFunctionReturn(0);
  PetscCallCL(clGetMemObjectInfo(*mem, CL_MEM_SIZE, sizeof(bytes), &bytes, NULL));
  PetscCallCL(clReleaseMemObject(*mem));
  *mem = NULL;
  cl->mem_used -= bytes;
  sbpmg_cl_global.live_buffers--;
  sbpmg_cl_global.device_bytes -= bytes;
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLCreateExtraQueue - A second in-order queue on the context's device, for work that may run concurrently with the main
   queue's (ordered against it by events); counted with the context's queues (SbpmgCLGetStats).

   Not collective

   Level: developer

.seealso: `SbpmgCLReleaseExtraQueue()`
@*/
PetscErrorCode SbpmgCLCreateExtraQueue(SbpmgCL cl, cl_command_queue *q)
{
  cl_int err;

  PetscFunctionBegin;
  *q = clCreateCommandQueue(cl->context, cl->device, cl->prof ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
  PetscCallCL(err);
  sbpmg_cl_global.live_queues++;
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLReleaseExtraQueue - Release a queue of SbpmgCLCreateExtraQueue() (NULL: nothing) after the work in it has finished.

   Not collective

   Level: developer
@*/
PetscErrorCode SbpmgCLReleaseExtraQueue(SbpmgCL cl, cl_command_queue *q)
{
  PetscFunctionBegin;
  (void)cl;
  if (!*q) PetscFunctionReturn(0);
  PetscCallCL(clFinish(*q));
  PetscCallCL(clReleaseCommandQueue(*q));
  sbpmg_cl_global.live_queues--;
  *q = NULL;
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLCreateStaging - Host memory for the transfers of a ghost exchange, allocated by the OpenCL runtime
   (CL_MEM_ALLOC_HOST_PTR) and mapped until SbpmgCLDestroyStaging(): NVIDIA's OpenCL pins it, so reads and writes of other
   buffers into it go at the copy engine's rate, where pageable memory goes through the driver's bounce buffer. Counted with the
   context's buffers.

   Not collective

   Level: developer

.seealso: `SbpmgCLDestroyStaging()`, `SbpmgCLReadBuffer()`, `SbpmgCLWriteBuffer()`
@*/
PetscErrorCode SbpmgCLCreateStaging(SbpmgCL cl, size_t bytes, cl_mem *mem, void **ptr)
{
  cl_int err;

  PetscFunctionBegin;
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, mem));
  *ptr = clEnqueueMapBuffer(cl->queue, *mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes ? bytes : 1, 0, NULL, NULL, &err);
  if (err != CL_SUCCESS) {
    PetscCall(SbpmgCLReleaseBuffer(cl, mem));
    *ptr = NULL;
    PetscCallCL(err);
  }
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLDestroyStaging - Unmap and release the memory of SbpmgCLCreateStaging(); nothing when mem is NULL.

   Not collective

   Level: developer
@*/
PetscErrorCode SbpmgCLDestroyStaging(SbpmgCL cl, cl_mem *mem, void **ptr)
{
  PetscFunctionBegin;
  if (!*mem) PetscFunctionReturn(0);
  PetscCallCL(clEnqueueUnmapMemObject(cl->queue, *mem, *ptr, 0, NULL, NULL));
  PetscCallCL(clFinish(cl->queue));
  *ptr = NULL;
  PetscCall(SbpmgCLReleaseBuffer(cl, mem));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLWriteBuffer(SbpmgCL cl, cl_mem mem, size_t offset, size_t bytes, const void *host)
{
  PetscFunctionBegin;
  if (!bytes) PetscFunctionReturn(0);
  PetscCall(SbpmgLogKernelBegin(SBPMG_CLHtoD));
  PetscCallCL(clEnqueueWriteBuffer(cl->queue, mem, CL_TRUE, offset, bytes, host, 0, NULL, NULL));
  PetscCall(SbpmgLogKernelEnd(SBPMG_CLHtoD, NULL, 0, bytes));
  cl->stats.htod_count += 1;
  cl->stats.htod_bytes += bytes;
  sbpmg_cl_global.htod_count += 1;
  sbpmg_cl_global.htod_bytes += bytes;
  PetscFunctionReturn(0);
}

static void SbpmgCLCountDtoH(SbpmgCL cl, size_t bytes)
{
  cl->stats.dtoh_count += 1;
  cl->stats.dtoh_bytes += bytes;
  sbpmg_cl_global.dtoh_count += 1;
  sbpmg_cl_global.dtoh_bytes += bytes;
}

PetscErrorCode SbpmgCLReadBuffer(SbpmgCL cl, cl_mem mem, size_t offset, size_t bytes, void *host)
{
  PetscFunctionBegin;
  if (!bytes) PetscFunctionReturn(0);
  PetscCall(SbpmgLogKernelBegin(SBPMG_CLDtoH));
  PetscCallCL(clEnqueueReadBuffer(cl->queue, mem, CL_TRUE, offset, bytes, host, 0, NULL, NULL));
  PetscCall(SbpmgLogKernelEnd(SBPMG_CLDtoH, NULL, 0, bytes));
  SbpmgCLCountDtoH(cl, bytes);
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- reduction results

   A reduction ends with one small read (a few scalars). Into pageable memory, NVIDIA's OpenCL copies through its
   bounce buffer; so results go by default (-cl_pinned_results) into a small pinned area of the context, made on first
   use with SbpmgCLCreateStaging and released with the context, and are copied out from there. The area has two halves
   and consecutive reads alternate between them (the reason is in SbpmgCLReadResultSpin). */
#define SBPMG_CL_RESULT_HALF 256 /* bytes per half: 32 doubles */

static PetscErrorCode SbpmgCLNextResultArea(SbpmgCL cl, size_t bytes, unsigned char **area)
{
  PetscFunctionBegin;
  PetscCheck(bytes <= SBPMG_CL_RESULT_HALF, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "A result of %zu bytes does not fit the pinned result area (%d bytes)",
             bytes, SBPMG_CL_RESULT_HALF);
  if (!cl->results) PetscCall(SbpmgCLCreateStaging(cl, 2 * SBPMG_CL_RESULT_HALF, &cl->results, &cl->results_host));
  cl->results_half = !cl->results_half;
  *area            = (unsigned char *)cl->results_host + (cl->results_half ? SBPMG_CL_RESULT_HALF : 0);
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLReadResult - Blocking read of a reduction's few result scalars: through the context's pinned result area
   (-cl_pinned_results, the default) or straight into host memory. One device -> host transfer of bytes in the counters
   either way.

   Not collective

   Level: developer

.seealso: `SbpmgCLReadResultSpin()`, `SbpmgCLReadBuffer()`
@*/
PetscErrorCode SbpmgCLReadResult(SbpmgCL cl, cl_mem mem, size_t offset, size_t bytes, void *host)
{
  unsigned char *area = NULL;

  PetscFunctionBegin;
  if (!cl->pinned_results) {
    PetscCall(SbpmgCLReadBuffer(cl, mem, offset, bytes, host));
    PetscFunctionReturn(0);
  }
  PetscCall(SbpmgCLNextResultArea(cl, bytes, &area));
  PetscCall(SbpmgCLReadBuffer(cl, mem, offset, bytes, area));
  PetscCall(PetscMemcpy(host, area, bytes));
  PetscFunctionReturn(0);
}

/* Words of a result area (4 or 8 bytes: the scalar size), read from memory on every access (a transfer is landing there). */
static uint64_t SbpmgCLLoadWord(const unsigned char *p, size_t word)
{
  return word == 8 ? *(const volatile uint64_t *)p : *(const volatile uint32_t *)p;
}

static void SbpmgCLStoreWord(unsigned char *p, size_t word, uint64_t bits)
{
  if (word == 8)
    *(volatile uint64_t *)p = bits;
  else
    *(volatile uint32_t *)p = (uint32_t)bits;
}

/* A signalling-NaN bit pattern no transfer of a result is expected to carry (a result may, rarely: see below) */
static uint64_t SbpmgCLSentinel(size_t word)
{
  return word == 8 ? 0x7FF5A5A5A5A5A5A5ULL : 0x7FA5A5A5ULL;
}

/* The sequence number as a word of the area holds it (its low 32 bits in a 4-byte word) */
static uint64_t SbpmgCLSequenceWord(cl_ulong seq, size_t word)
{
  return word == 8 ? (uint64_t)seq : (uint64_t)(seq & 0xFFFFFFFFULL);
}

/* True when the sequence word after the nwords result words of area is seq and no result word is the sentinel; the
   result words are then copied to host, as they were seen. */
static PetscBool SbpmgCLResultLanded(const unsigned char *area, size_t nwords, size_t word, cl_ulong seq, unsigned char *host)
{
  const uint64_t sentinel = SbpmgCLSentinel(word);

  if (SbpmgCLLoadWord(area + nwords * word, word) != SbpmgCLSequenceWord(seq, word)) return PETSC_FALSE;
  for (size_t w = 0; w < nwords; w++) {
    const uint64_t bits = SbpmgCLLoadWord(area + w * word, word);

    if (bits == sentinel) return PETSC_FALSE;
    if (word == 8)
      memcpy(host + w * word, &bits, 8);
    else {
      const uint32_t b32 = (uint32_t)bits;
      memcpy(host + w * word, &b32, 4);
    }
  }
  return PETSC_TRUE;
}

/*@C
   SbpmgCLReadResultSpin - Experimental (-cl_result_spin): read a one-launch reduction's result words and the sequence
   number its kernel wrote after them, waiting for them by spinning on the pinned result area instead of in a blocking
   read. One device -> host transfer of bytes (the results; the sequence word is not counted).

   Not collective

   Input Parameters:
+  cl     - the context
.  mem    - the buffer holding the results at offset, followed by the sequence word
.  offset - byte offset of the results
.  bytes  - bytes of the results, a multiple of word
.  word   - size of a result word and of the sequence word (sizeof(PetscScalar): 4 or 8)
-  seq    - the sequence number the kernel was given (its low 32 bits when word is 4)

   Output Parameter:
.  host - the results

   Notes:
   The area's result words are first set to a sentinel (a signalling-NaN pattern) and its sequence word to something
   else than seq; then a non-blocking read of results and sequence word is enqueued, the queue flushed, and the host
   reads the area (volatile loads) until the sequence word is seq and no result word is the sentinel. OpenCL does not
   say in which order the bytes of one transfer reach the host before the command completes, so each word is checked
   for itself; the results returned are the very words seen landed. What is assumed is only that an aligned 4- or
   8-byte word is not seen half written. The sequence number proves that the results are this launch's (a kernel that
   did not finish its last work-group would leave the previous ones, with the previous number). After 1 s of spinning
   (or if a result really is the sentinel pattern) the read's event is waited for with clWaitForEvents; a sequence
   number still different is then an error.

   The event is released without waiting for it when the words have landed. That is safe: clReleaseEvent() defers the
   deletion until the command completes; the results are copies already in the caller's memory; and the only later
   writers of the area are this function (the next spin) and the reads of SbpmgCLReadResult(). Every read enqueued
   later is behind this one on the in-order queue, so it cannot start before this one has completed. The host's own
   writes (the sentinels of the next spin) go to the other half of the area; before the half is used again, the read
   in between (on the other half) has been seen landed or has completed, so it has started, so this one has completed.

   Level: developer

.seealso: `SbpmgCLReadResult()`
@*/
PetscErrorCode SbpmgCLReadResultSpin(SbpmgCL cl, cl_mem mem, size_t offset, size_t bytes, size_t word, cl_ulong seq, void *host)
{
  unsigned char *area   = NULL;
  size_t         nwords = bytes / word;
  cl_event       ev;
  PetscLogDouble t0, t1;
  PetscBool      landed = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCheck((word == 4 || word == 8) && bytes % word == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "Result words must be of 4 or 8 bytes and the results whole words: got %zu bytes of %zu-byte words", bytes, word);
  PetscCall(SbpmgCLNextResultArea(cl, bytes + word, &area));
  for (size_t w = 0; w < nwords; w++) SbpmgCLStoreWord(area + w * word, word, SbpmgCLSentinel(word));
  SbpmgCLStoreWord(area + nwords * word, word, ~(uint64_t)seq);
  PetscCall(SbpmgLogKernelBegin(SBPMG_CLDtoH));
  PetscCallCL(clEnqueueReadBuffer(cl->queue, mem, CL_FALSE, offset, bytes + word, area, 0, NULL, &ev));
  {
    cl_int err = clFlush(cl->queue);
    if (err != CL_SUCCESS) PetscCallCL(clReleaseEvent(ev));
    PetscCallCL(err);
  }
  PetscCall(PetscTime(&t0));
  for (unsigned long it = 1; !(landed = SbpmgCLResultLanded(area, nwords, word, seq, (unsigned char *)host)); it++) {
    if (it % 4096) continue;
    PetscCall(PetscTime(&t1));
    if (t1 - t0 > 1.0) break;
  }
  if (!landed) {
    cl_int err;

    PetscCall(PetscInfo(NULL, "Result of sequence number %llu not seen in 1 s of spinning (or a result is the sentinel): waiting for the read's event\n",
                        (unsigned long long)seq));
    err = clWaitForEvents(1, &ev);
    if (err != CL_SUCCESS) PetscCallCL(clReleaseEvent(ev));
    PetscCallCL(err);
    landed = SbpmgCLLoadWord(area + nwords * word, word) == SbpmgCLSequenceWord(seq, word) ? PETSC_TRUE : PETSC_FALSE;
    if (landed) PetscCall(PetscMemcpy(host, area, bytes)); /* the read has completed: the words are final, whatever their bits */
  }
  PetscCallCL(clReleaseEvent(ev));
  PetscCheck(landed, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "The reduction result read back carries sequence number %llu, expected %llu: the kernel's last work-group did not write it (-cl_result_spin)",
             (unsigned long long)SbpmgCLLoadWord(area + nwords * word, word), (unsigned long long)SbpmgCLSequenceWord(seq, word));
  PetscCall(SbpmgLogKernelEnd(SBPMG_CLDtoH, NULL, 0, bytes));
  SbpmgCLCountDtoH(cl, bytes);
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLFillBuffer(SbpmgCL cl, cl_mem mem, const void *pattern, size_t pattern_size, size_t offset, size_t bytes)
{
  PetscFunctionBegin;
  if (!bytes) PetscFunctionReturn(0);
  PetscCallCL(clEnqueueFillBuffer(cl->queue, mem, pattern, pattern_size, offset, bytes, 0, NULL, NULL));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLCopyBuffer(SbpmgCL cl, cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset, size_t bytes)
{
  PetscFunctionBegin;
  if (!bytes) PetscFunctionReturn(0);
  PetscCallCL(clEnqueueCopyBuffer(cl->queue, src, dst, src_offset, dst_offset, bytes, 0, NULL, NULL));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- kernel arguments and launches */

PetscErrorCode SbpmgCLSetArg(cl_kernel k, cl_uint index, size_t size, const void *value)
{
  cl_int err;

  PetscFunctionBegin;
  err = clSetKernelArg(k, index, size, value);
  if (err != CL_SUCCESS) {
    char name[128] = "?";
    (void)clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "OpenCL error %d (%s) setting argument %u (%zu bytes) of kernel %s", (int)err, SbpmgCLErrorName(err), index, size,
            name);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLSetArgs(cl_kernel k, cl_uint first, PetscInt npairs, ...)
{
  va_list ap;

  PetscFunctionBegin;
  va_start(ap, npairs);
  for (PetscInt i = 0; i < npairs; i++) {
    size_t         size  = va_arg(ap, size_t);
    const void    *value = va_arg(ap, const void *);
    PetscErrorCode ierr  = SbpmgCLSetArg(k, first + (cl_uint)i, size, value);
    if (ierr) {
      va_end(ap);
      PetscCall(ierr);
    }
  }
  va_end(ap);
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpmgCLLaunch(SbpmgCL cl, cl_kernel k, cl_uint dim, const size_t global[], const size_t local[])
{
  size_t g[3];
  cl_int err;

  PetscFunctionBegin;
  for (cl_uint d = 0; d < dim; d++) {
    if (global[d] == 0) PetscFunctionReturn(0); /* nothing to do */
    g[d] = local ? ((global[d] + local[d] - 1) / local[d]) * local[d] : global[d];
  }
  if (cl->prof) {
    struct SbpmgCLProfile *pr = cl->prof;
    size_t                 n  = g[0] * (dim > 1 ? g[1] : 1) * (dim > 2 ? g[2] : 1);
    int                    b  = 0;
    while (((size_t)1 << b) < n) b++;
    if (pr->npending == SBPMG_PROF_PENDING) PetscCall(SbpmgCLProfileDrain(cl));
    err = clEnqueueNDRangeKernel(cl->queue, k, dim, NULL, g, local, 0, NULL, &pr->ev[pr->npending]);
    if (err == CL_SUCCESS) {
      pr->kev[pr->npending] = k;
      pr->bev[pr->npending] = b;
      pr->npending++;
    }
  } else
    err = clEnqueueNDRangeKernel(cl->queue, k, dim, NULL, g, local, 0, NULL, NULL);
  if (err != CL_SUCCESS) {
    char name[128] = "?";
    (void)clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL);
    SETERRQ(PETSC_COMM_SELF, SbpmgCLErrorCode(err), "OpenCL error %d (%s) launching kernel %s on %u-D range %zu x %zu x %zu (local %zu x %zu x %zu)", (int)err,
            SbpmgCLErrorName(err), name, dim, g[0], dim > 1 ? g[1] : 1, dim > 2 ? g[2] : 1, local ? local[0] : 0, local && dim > 1 ? local[1] : 0,
            local && dim > 2 ? local[2] : 0);
  }
  PetscFunctionReturn(0);
}

/* Launch over n work-items (rounded up to a multiple of local; local 0 lets the runtime choose, n exactly). */
PetscErrorCode SbpmgCLLaunch1D(SbpmgCL cl, cl_kernel k, size_t n, size_t local)
{
  PetscFunctionBegin;
  PetscCall(SbpmgCLLaunch(cl, k, 1, &n, local ? &local : NULL));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLLaunch2D(SbpmgCL cl, cl_kernel k, const size_t global[2], const size_t local[2])
{
  PetscFunctionBegin;
  PetscCall(SbpmgCLLaunch(cl, k, 2, global, local));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLLaunch3D(SbpmgCL cl, cl_kernel k, const size_t global[3], const size_t local[3])
{
  PetscFunctionBegin;
  PetscCall(SbpmgCLLaunch(cl, k, 3, global, local));
  PetscFunctionReturn(0);
}
