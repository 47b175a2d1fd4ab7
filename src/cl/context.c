/* The sbpmg device context: one device, one OpenCL context, one in-order queue; its options, reference counting, the
   process-wide default, the counters and the view. */
#include <sbpmg/private/climpl.h>

SbpmgCLStats   SbpmgCLTotals;
static SbpmgCL sbpmg_cl_default = NULL;

/* What SbpmgCLCreate() reads from the options database */
typedef struct {
  SbpmgCLDeviceType type;
  PetscInt          platform, device;
  PetscBool         device_set, per_rank;
  char              kernel_dir[PETSC_MAX_PATH_LEN];
  PetscBool         kernel_dir_set;
  char              cache_dir[PETSC_MAX_PATH_LEN]; /* "none": no disk cache */
  PetscBool         cache_dir_set;
  char              build_options[256];
  PetscBool         build_log, view, profile;
  PetscReal         mem_cap_mib;
  char              tune[1024]; /* -sbpmg_tune */
} SbpmgCLOptions;

/* The checks of the values that need no device: the memory cap, compiler options given a value and none of the reserved macros
   (SBPMG_...), the tuning overrides' keys and values (against a scratch table). */
static PetscErrorCode SbpmgCLCheckValues(MPI_Comm comm, PetscReal mem_cap_mib, PetscBool build_set, const char build[], const char tune[])
{
  SbpmgTuning scratch;

  PetscFunctionBegin;
  /* finite and within size_t once in bytes (the conversion of an infinite or huge cap would be undefined) */
  PetscCheck(mem_cap_mib >= 0 && mem_cap_mib < 1e12, comm, PETSC_ERR_ARG_OUTOFRANGE, "-cl_mem_cap %g must be >= 0 and below 1e12 MiB", (double)mem_cap_mib);
  /* PETSc reads a value that starts with '-' as the next option's name: -cl_build_options -DX sets -DX and leaves this empty */
  PetscCheck(!build_set || build[0], comm, PETSC_ERR_ARG_WRONG,
             "-cl_build_options was given no value: PETSc takes a value that starts with '-' for the next option; give the compiler options "
             "with a leading space, e.g. -cl_build_options \" -cl-fast-relaxed-math\"");
  PetscCall(SbpmgCLCheckBuildOptions(comm, build)); /* no -D or -U of the library's own macros */
  PetscCall(PetscMemzero(&scratch, sizeof(scratch)));
  PetscCall(SbpmgTuningParse(tune, &scratch));
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLCheckOptions - Check the device options whose values need no device (-cl_mem_cap, -cl_build_options, -sbpmg_tune's keys and
   values), where no context reads them: a problem on the host, or before an automatic backend tries the device (whose failure
   would otherwise hide them as "no device").

   Collective

   Level: developer
@*/
PetscErrorCode SbpmgCLCheckOptions(MPI_Comm comm)
{
  char      build[256] = "", tune[1024] = "";
  PetscBool build_set;
  PetscReal cap = 0;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-cl_mem_cap", &cap, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-cl_build_options", build, sizeof(build), &build_set));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-sbpmg_tune", tune, sizeof(tune), NULL));
  PetscCall(SbpmgCLCheckValues(comm, cap, build_set, build, tune));
  PetscFunctionReturn(0);
}

/* Read and check the options (checked after PetscOptionsEnd(), so that a bad value leaks nothing). */
static PetscErrorCode SbpmgCLGetOptions(MPI_Comm comm, SbpmgCLOptions *o)
{
  PetscBool build_set;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(o, sizeof(*o)));
  o->type     = SBPMG_CL_DEVICE_AUTO;
  o->platform = -1;
  o->per_rank = PETSC_TRUE;
  PetscCall(SbpmgOptionsCheckEnum(NULL, "-cl_device_type", SbpmgCLDeviceTypes));
  {
    static const char *const ints[] = {"-cl_platform", "-cl_device", NULL};
    PetscCall(SbpmgOptionsCheckInts(NULL, NULL, ints));
  }
  PetscOptionsBegin(comm, NULL, "sbpmg OpenCL device selection", "Sys");
  PetscCall(PetscOptionsEnum("-cl_device_type", "OpenCL device type (auto: the first GPU, else the first CPU)", "SbpmgCLCreate", SbpmgCLDeviceTypes,
                             (PetscEnum)o->type, (PetscEnum *)&o->type, NULL));
  PetscCall(PetscOptionsInt("-cl_platform", "OpenCL platform index (-1: search all platforms)", "SbpmgCLCreate", o->platform, &o->platform, NULL));
  PetscCall(PetscOptionsInt("-cl_device", "Index of the device among those of the requested type", "SbpmgCLCreate", o->device, &o->device, &o->device_set));
  PetscCall(PetscOptionsBool("-cl_device_per_rank", "Without -cl_device on several ranks: node-local rank r takes device r mod (number of devices)",
                             "SbpmgCLCreate", o->per_rank, &o->per_rank, NULL));
  PetscCall(PetscOptionsString("-cl_kernel_dir", "Directory with <name>.cl files overriding the embedded kernels", "SbpmgCLCreate", "", o->kernel_dir,
                               sizeof(o->kernel_dir), &o->kernel_dir_set));
  PetscCall(PetscOptionsString("-cl_cache_dir", "Disk cache of compiled kernels (default $XDG_CACHE_HOME/sbpmg or ~/.cache/sbpmg; none: no cache)",
                               "SbpmgCLCreate", "", o->cache_dir, sizeof(o->cache_dir), &o->cache_dir_set));
  PetscCall(PetscOptionsString("-cl_build_options", "Extra OpenCL compiler options for every program", "SbpmgCLCreate", "", o->build_options,
                               sizeof(o->build_options), &build_set));
  PetscCall(PetscOptionsBool("-cl_build_log", "Print the compiler's log of every program built", "SbpmgCLCreate", o->build_log, &o->build_log, NULL));
  PetscCall(PetscOptionsReal("-cl_mem_cap", "Cap on device memory in MiB, 0 = none (simulates a small device)", "SbpmgCLCreate", o->mem_cap_mib,
                             &o->mem_cap_mib, NULL));
  PetscCall(PetscOptionsBool("-cl_view", "View the OpenCL device and its transfer counters", "SbpmgCLView", o->view, &o->view, NULL));
  PetscCall(PetscOptionsBool("-cl_profile", "Time every kernel on the device (profiling events); print the totals when the context is destroyed",
                             "SbpmgCLCreate", o->profile, &o->profile, NULL));
  PetscCall(PetscOptionsString("-sbpmg_tune", "Developer: override rows of the tuning table, key=value,... (docs/design.md \"Tuning\")", "SbpmgCLCreate", "",
                               o->tune, sizeof(o->tune), NULL));
  PetscOptionsEnd();
  if (!o->cache_dir_set) PetscCall(SbpmgCLCacheDefaultDir(o->cache_dir, sizeof(o->cache_dir)));
  PetscCall(SbpmgCLCheckValues(comm, o->mem_cap_mib, build_set, o->build_options, o->tune));
  PetscCheck(o->device >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-cl_device %" PetscInt_FMT " must be >= 0", o->device);
  if (o->kernel_dir_set) {
    PetscBool isdir;
    PetscCall(PetscTestDirectory(o->kernel_dir, 'r', &isdir));
    PetscCheck(isdir, comm, PETSC_ERR_FILE_OPEN, "-cl_kernel_dir %s is not a readable directory", o->kernel_dir);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpmgCLCreateQueue(SbpmgCL cl)
{
  cl_int err;

  PetscFunctionBegin;
  cl->context = clCreateContext(NULL, 1, &cl->device, NULL, NULL, &err);
  PetscCallCL(err);
  SbpmgCLTotals.live_contexts++;
  cl->queue = clCreateCommandQueue(cl->context, cl->device, cl->prof ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
  PetscCallCL(err);
  SbpmgCLTotals.live_queues++;
  PetscFunctionReturn(0);
}

/* The device (device < 0: one per node-local rank, as SbpmgCLSelectDevice() reads it), what it is, its tuning, the queue */
static PetscErrorCode SbpmgCLSetUpDevice(SbpmgCL cl, const SbpmgCLOptions *o, PetscInt device)
{
  PetscFunctionBegin;
  PetscCall(SbpmgCLSelectDevice(cl, o->type, o->platform, device));
  PetscCall(SbpmgCLQueryDevice(cl));
  PetscCall(SbpmgCLSetUpTuning(cl, o->tune));
  PetscCall(SbpmgCLCreateQueue(cl));
  PetscFunctionReturn(0);
}

/* -cl_view at creation: the device, and on several ranks each rank's choice */
static PetscErrorCode SbpmgCLViewChoice(SbpmgCL cl, const SbpmgCLOptions *o, PetscMPIInt lrank, PetscMPIInt lsize)
{
  PetscMPIInt size, rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(cl->comm, &size));
  PetscCallMPI(MPI_Comm_rank(cl->comm, &rank));
  PetscCall(SbpmgCLView(cl, PETSC_VIEWER_STDOUT_(cl->comm)));
  if (size == 1) PetscFunctionReturn(0);
  PetscCall(PetscSynchronizedPrintf(cl->comm, "[%d] sbpmg OpenCL device %" PetscInt_FMT " of %" PetscInt_FMT ": %s (node-local rank %d of %d, %s)\n", rank,
                                    cl->device_index, cl->ndev, cl->device_name, lrank, lsize,
                                    o->device_set ? "-cl_device" : (o->per_rank ? "one device per node-local rank" : "-cl_device_per_rank false")));
  PetscCall(PetscSynchronizedFlush(cl->comm, PETSC_STDOUT));
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
.  -cl_cache_dir <dir>  - keep compiled programs in dir, keyed by source, options, device and driver (default
                          $XDG_CACHE_HOME/sbpmg or ~/.cache/sbpmg; none: no disk cache; docs/design.md "Program cache")
.  -cl_build_options <s> - extra OpenCL compiler options for every program (e.g. -cl-nv-maxrregcount=64 -cl-nv-verbose on NVIDIA)
.  -cl_build_log        - print the compiler's log of every program built (register counts with -cl-nv-verbose)
.  -cl_mem_cap <MiB>    - refuse device allocations beyond this many MiB (to test out-of-memory handling)
.  -cl_profile          - time every kernel on the device; print the totals per kernel when the context is destroyed
.  -cl_view             - print the device chosen (each rank's, on several ranks), and transfer and build counts when
                          the context is destroyed
-  -sbpmg_tune <key=value,...> - developer: override rows of the tuning table (docs/design.md "Tuning")

   Collective on comm (on several ranks: the node-local ranks are found with MPI_Comm_split_type() on comm).

   Level: intermediate

.seealso: `SbpmgCLGetDefault()`, `SbpmgCLDestroy()`
@*/
PetscErrorCode SbpmgCLCreate(MPI_Comm comm, SbpmgCL *out)
{
  SbpmgCL        cl;
  SbpmgCLOptions o;
  PetscInt       device;
  PetscMPIInt    size, lrank = 0, lsize = 1;
  PetscBool      per_rank;

  PetscFunctionBegin;
  PetscCall(SbpmgCLInitializePackage());
  PetscCall(SbpmgCLGetOptions(comm, &o));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  per_rank = size > 1 && o.per_rank && !o.device_set ? PETSC_TRUE : PETSC_FALSE;
  if (per_rank) PetscCall(SbpmgCLNodeLocalRank(comm, &lrank, &lsize));
  device = per_rank ? -1 - (PetscInt)lrank : o.device;

  PetscCall(PetscNew(&cl));
  cl->refct = 1;
  cl->comm  = comm;
  cl->view  = o.view;
  if (o.profile) PetscCall(SbpmgCLProfileCreate(cl));
  PetscCall(PetscStrncpy(cl->kernel_dir, o.kernel_dir, sizeof(cl->kernel_dir)));
  PetscCall(PetscStrncpy(cl->build_options, o.build_options, sizeof(cl->build_options)));
  {
    PetscBool none;
    PetscCall(PetscStrcasecmp(o.cache_dir, "none", &none));
    if (!none) PetscCall(PetscStrncpy(cl->cache_dir, o.cache_dir, sizeof(cl->cache_dir)));
  }
  cl->build_log = o.build_log;
  cl->mem_cap   = (size_t)(o.mem_cap_mib * 1024.0 * 1024.0);
  { /* on failure the partially built context is released before the error propagates */
    PetscErrorCode ierr = SbpmgCLSetUpDevice(cl, &o, device);
    if (ierr) {
      PetscCall(SbpmgCLDestroy(&cl));
      PetscCall(ierr);
    }
  }
  if (per_rank && lsize > cl->ndev && (cl->type & CL_DEVICE_TYPE_GPU))
    PetscCall(PetscInfo(NULL,
                        "%d ranks on this node share %" PetscInt_FMT " GPU(s): the processes time-slice each GPU and every ghost exchange waits for the "
                        "others' slices; on one H200, 2 ranks solved 15x slower than 1 (docs/performance.md)\n",
                        lsize, cl->ndev));
  if (o.view) PetscCall(SbpmgCLViewChoice(cl, &o, lrank, lsize));
  *out = cl;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLReference(SbpmgCL cl)
{
  PetscFunctionBegin;
  cl->refct++;
  PetscFunctionReturn(0);
}

/* -cl_view at destruction: the transfer counters (each rank's own on several ranks: not collective, ranks may destroy
   their contexts at different times) */
static PetscErrorCode SbpmgCLViewTransfers(SbpmgCL c)
{
  PetscMPIInt size, rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(c->comm, &size));
  if (size == 1) {
    PetscCall(SbpmgCLView(c, PETSC_VIEWER_STDOUT_(c->comm)));
    PetscFunctionReturn(0);
  }
  PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, PETSC_STDOUT, "[%d] sbpmg OpenCL device %s: transfers host->device: %.0f (%.3f MB), device->host: %.0f (%.3f MB)\n",
                         rank, c->device_name, c->stats.htod_count, c->stats.htod_bytes / 1e6, c->stats.dtoh_count, c->stats.dtoh_bytes / 1e6));
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
  if (c->view && c->queue) PetscCall(SbpmgCLViewTransfers(c));
  PetscCall(SbpmgCLProfileDestroy(c));
  PetscCall(SbpmgCLDestroyStaging(c, &c->results, &c->results_host));
  PetscCall(SbpmgCLReleasePrograms(c));
  if (c->queue) {
    PetscCallCL(clReleaseCommandQueue(c->queue));
    SbpmgCLTotals.live_queues--;
  }
  if (c->context) {
    PetscCallCL(clReleaseContext(c->context));
    SbpmgCLTotals.live_contexts--;
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
  *s                 = cl->stats;
  s->live_buffers    = SbpmgCLTotals.live_buffers;
  s->live_kernels    = SbpmgCLTotals.live_kernels;
  s->live_programs   = SbpmgCLTotals.live_programs;
  s->live_queues     = SbpmgCLTotals.live_queues;
  s->live_contexts   = SbpmgCLTotals.live_contexts;
  s->live_host_pages = __atomic_load_n(&SbpmgCLTotals.live_host_pages, __ATOMIC_RELAXED);
  s->device_bytes    = cl->mem_used;
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
  *s = SbpmgCLTotals;
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
   SbpmgCLView - Print the device, its capabilities, the transfer and program-build counters, and the tuning in force.

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
  PetscCall(PetscViewerASCIIPrintf(viewer,
                                   "programs built %" PetscInt_FMT " (%" PetscInt_FMT " from the disk cache %s, %" PetscInt_FMT
                                   " stored there), cache hits %" PetscInt_FMT "; device memory in use %.3f MiB%s\n",
                                   cl->stats.programs_built, cl->stats.programs_from_disk, cl->cache_dir[0] ? cl->cache_dir : "(off)",
                                   cl->stats.programs_stored, cl->stats.program_cache_hits, cl->mem_used / 1048576.0,
                                   cl->mem_cap ? " (capped by -cl_mem_cap)" : ""));
  PetscCall(PetscViewerASCIIPrintf(viewer, "transfers host->device: %.0f (%.3f MB), device->host: %.0f (%.3f MB)\n", cl->stats.htod_count,
                                   cl->stats.htod_bytes / 1e6, cl->stats.dtoh_count, cl->stats.dtoh_bytes / 1e6));
  PetscCall(SbpmgCLViewTuning(cl, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}
