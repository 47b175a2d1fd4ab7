/* Device selection: the OpenCL platforms and devices of the requested type, the one a rank takes, what it is. */
#include <sbpmg/private/climpl.h>

const char *const SbpmgCLDeviceTypes[] = {"auto", "gpu", "cpu", "any", "SbpmgCLDeviceType", "SBPMG_CL_DEVICE_", NULL};

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

/* The devices of type on every platform (only_platform < 0) or on that one */
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

/* The candidates of a device type; auto: the GPUs, else the CPUs, else anything */
static PetscErrorCode SbpmgCLCollectType(cl_platform_id platforms[], cl_uint np, PetscInt platform, SbpmgCLDeviceType type, SbpmgCLCandidates *c)
{
  static const cl_device_type kinds[] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_ALL}; /* auto tries them in this order */
  const int                   first = type == SBPMG_CL_DEVICE_AUTO ? 0 : (int)type - 1, last = type == SBPMG_CL_DEVICE_AUTO ? 2 : first;

  PetscFunctionBegin;
  c->n = 0;
  for (int k = first; k <= last && !c->n; k++) PetscCall(SbpmgCLCollectDevices(platforms, np, platform, kinds[k], c));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLSelectDevice(SbpmgCL cl, SbpmgCLDeviceType type, PetscInt platform, PetscInt device)
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
  PetscCall(SbpmgCLCollectType(platforms, np, platform, type, &c));
  PetscCheck(c.n > 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "No OpenCL device of type %s found%s (searched: %s)", SbpmgCLDeviceTypes[type],
             platform >= 0 ? " on the platform chosen by -cl_platform" : "", inventory);
  if (device < 0) device = (-1 - device) % c.n;
  cl->ndev = c.n;
  PetscCheck(device < c.n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "-cl_device %" PetscInt_FMT " is out of range: %" PetscInt_FMT " OpenCL device(s) of type %s found (%s)", device, c.n, SbpmgCLDeviceTypes[type],
             inventory);
  cl->platform       = c.platform[device];
  cl->device         = c.device[device];
  cl->platform_index = c.platform_index[device];
  cl->device_index   = device;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLQueryDevice(SbpmgCL cl)
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

PetscErrorCode SbpmgCLNodeLocalRank(MPI_Comm comm, PetscMPIInt *lrank, PetscMPIInt *lsize)
{
  MPI_Comm    node;
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
  PetscCallMPI(MPI_Comm_rank(node, lrank));
  PetscCallMPI(MPI_Comm_size(node, lsize));
  PetscCallMPI(MPI_Comm_free(&node));
  PetscFunctionReturn(0);
}
