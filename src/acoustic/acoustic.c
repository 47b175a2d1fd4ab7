/* The acoustic operator object: settings, options, set-up (layout, regions, damping, fields), views and accessors. */
#include <sbpmg/private/acousticimpl.h>
#include <stdint.h>

PetscClassId      ACOUSTIC_CLASSID;
PetscLogEvent     SBPMG_AcInner, SBPMG_AcPML, SBPMG_AcSource;
static PetscBool  AcousticPackageInitialized = PETSC_FALSE;
const char *const AcousticInitTypes[]        = {"zero", "random", NULL};
const char *const AcousticBackends[]         = {"device", "host", NULL};
const char *const AcousticRegionNames[]      = {"inner", "zlo", "zhi", "ylo", "yhi", "xlo", "xhi", NULL};

/* Measured defaults (docs/acoustic.md): inner tile {x, y, z, local memory, vector width}, PML tile {x, y, z, vector
   width}, {row kernels, the whole grid in one launch, the PML regions in one launch}. */
static const PetscInt AcDefaultTileGPU[5] = {32, 8, 48, 0, 4}, AcDefaultPMLTileGPU[4] = {32, 8, 32, 4}, AcDefaultModeGPU[3] = {0, 0, 1},
                      AcDefaultFastDivGPU = 0, AcDefaultPMLQueueGPU = 0;
/* ac_pair (two steps per pass): work-group x, y (in work-items: the tile plus 4 points on each side) and planes per work-group, on or off */
static const PetscInt AcDefaultPairTileGPU[3] = {8, 32, 64}, AcDefaultPairGPU = 0, AcDefaultPairTileCPU[3] = {8, 16, 32}, AcDefaultPairCPU = 0;
/* planes of cache prefetch ahead (docs/performance.md, attempt 34) and planes per iteration of the sweeps (attempt 35): {inner, PML} */
static const PetscInt AcDefaultPrefetchGPU[2] = {0, 1}, AcDefaultPrefetchCPU[2] = {0, 0};
static const PetscInt AcDefaultUnrollGPU[2] = {2, 2}, AcDefaultUnrollCPU[2] = {1, 1};
#define AC_PREFETCH_MAX 16
#define AC_UNROLL_MAX   8
static const PetscInt AcDefaultTileCPU[5] = {16, 8, 32, 0, 4}, AcDefaultPMLTileCPU[4] = {32, 4, 32, 2}, AcDefaultModeCPU[3] = {0, 1, 0},
                      AcDefaultFastDivCPU = 0;

static PetscErrorCode AcousticFinalizePackage(void)
{
  PetscFunctionBegin;
  AcousticPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*@C
   AcousticInitializePackage - Register the Acoustic class; called by AcousticCreate().

   Level: developer
@*/
PetscErrorCode AcousticInitializePackage(void)
{
  PetscFunctionBegin;
  if (AcousticPackageInitialized) PetscFunctionReturn(0);
  AcousticPackageInitialized = PETSC_TRUE;
  PetscCall(SbpmgVecInitializePackage());
  PetscCall(PetscClassIdRegister("Acoustic", &ACOUSTIC_CLASSID));
  PetscCall(SbpmgLogRegisterEvent("AcInner", ACOUSTIC_CLASSID, &SBPMG_AcInner));
  PetscCall(SbpmgLogRegisterEvent("AcPML", ACOUSTIC_CLASSID, &SBPMG_AcPML));
  PetscCall(SbpmgLogRegisterEvent("AcSource", ACOUSTIC_CLASSID, &SBPMG_AcSource));
  PetscCall(PetscRegisterFinalize(AcousticFinalizePackage));
  PetscFunctionReturn(0);
}

/*@C
   AcousticCreate - Create the 8th-order 25-point acoustic operator with PML and its leapfrog stepper.

   Collective

   Input Parameter:
.  comm - any number of ranks: the grid is split into slabs along z (the slowest axis), at least 4 planes per rank

   Output Parameter:
.  ac - the object; set it up with AcousticSetFromOptions() and AcousticSetUp()

   Notes:
   Defaults are the spec's reference benchmark: 800^3 points, h = 20 m, ndamp = 27, v = 2000 m/s, vmax = 4500 m/s,
   cfl = 0.8, fmax = 25 Hz, zero initial fields, source at the centre.

   Level: beginner

.seealso: `AcousticSetFromOptions()`, `AcousticSetUp()`, `AcousticStep()`, `AcousticDestroy()`
@*/
PetscErrorCode AcousticCreate(MPI_Comm comm, Acoustic *out)
{
  Acoustic ac;

  PetscFunctionBegin;
  PetscValidPointer(out, 2);
  *out = NULL;
  PetscCall(AcousticInitializePackage());
  PetscCall(PetscHeaderCreate(ac, ACOUSTIC_CLASSID, "Acoustic", "8th-order 25-point acoustic operator", "Acoustic", comm, AcousticDestroy, AcousticView));
  PetscCall(PetscObjectChangeTypeName((PetscObject)ac, "acoustic25"));
  for (PetscInt a = 0; a < 3; a++) {
    ac->n[a]       = 800;
    ac->h[a]       = 20.0;
    ac->src[a]     = -1; /* the centre */
    ac->tile[a]    = -1; /* the device's default */
    ac->pmltile[a] = -1;
  }
  ac->ndamp     = 27;
  ac->cfl       = 0.8;
  ac->vel       = 2000.0;
  ac->vmax      = 4500.0;
  ac->fmax      = 25.0;
  ac->amplitude = 1.0;
  ac->init      = ACOUSTIC_INIT_ZERO;
  ac->backend   = ACOUSTIC_BACKEND_DEVICE;
  ac->seed      = 1;
  ac->vec       = -1;
  ac->pmlvec    = -1;
  ac->rows      = -1;
  ac->fused     = -1;
  ac->pmlmerge  = -1;
  ac->fastdiv   = -1;
  ac->pmlqueue  = -1;
  ac->pair      = -1;
  for (PetscInt d = 0; d < 3; d++) ac->pairtile[d] = -1;
  for (PetscInt r = 0; r < 2; r++) ac->prefetch[r] = ac->unroll[r] = -1;
  ac->localmem = PETSC_FALSE;
  ac->down     = -1;
  ac->up       = -1;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)ac), &ac->size));
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)ac), &ac->rank));
  *out = ac;
  PetscFunctionReturn(0);
}

#define AcousticCheckNotSetUp(ac, what) \
  PetscCheck(!(ac)->setupcalled, PetscObjectComm((PetscObject)(ac)), PETSC_ERR_ARG_WRONGSTATE, "%s must be called before AcousticSetUp()", what)

/*@C
   AcousticSetSizes - The number of grid points per axis (the PML shell is part of them).

   Options Database Keys:
+  -ac_n <n> - the same count on every axis
-  -ac_nx, -ac_ny, -ac_nz <n> - per axis

   Level: beginner
@*/
PetscErrorCode AcousticSetSizes(Acoustic ac, PetscInt nx, PetscInt ny, PetscInt nz)
{
  const PetscInt n[3] = {nx, ny, nz};

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetSizes()");
  for (PetscInt a = 0; a < 3; a++) {
    PetscCheck(n[a] > 0, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
               "Grid size %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " must be positive on every axis", nx, ny, nz);
    ac->n[a] = n[a];
  }
  PetscFunctionReturn(0);
}

PetscErrorCode AcousticGetSizes(Acoustic ac, PetscInt *nx, PetscInt *ny, PetscInt *nz)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  if (nx) *nx = ac->n[0];
  if (ny) *ny = ac->n[1];
  if (nz) *nz = ac->n[2];
  PetscFunctionReturn(0);
}

/*@C
   AcousticGetOwnershipRange - The planes [zs, ze) along z (the slowest axis) this rank owns after AcousticSetUp(): the
   grid is split into one slab of consecutive planes per rank, in rank order, as evenly as possible.

   Not collective

   Level: intermediate
@*/
PetscErrorCode AcousticGetOwnershipRange(Acoustic ac, PetscInt *zs, PetscInt *ze)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  PetscCheck(ac->setupcalled, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_WRONGSTATE, "Call AcousticSetUp() first");
  if (zs) *zs = ac->zs;
  if (ze) *ze = ac->zs + ac->nl[2];
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetSpacing - Grid spacings dx, dy, dz in metres.

   Options Database Keys:
+  -ac_dx <h> - dx, and dy and dz unless given
-  -ac_dy, -ac_dz <h>

   Level: beginner
@*/
PetscErrorCode AcousticSetSpacing(Acoustic ac, PetscReal dx, PetscReal dy, PetscReal dz)
{
  const PetscReal h[3] = {dx, dy, dz};

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetSpacing()");
  for (PetscInt a = 0; a < 3; a++) {
    PetscCheck(h[a] > 0 && PetscIsNormalReal(h[a]), PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
               "Grid spacing %g, %g, %g (-ac_dx/-ac_dy/-ac_dz) must be positive", (double)dx, (double)dy, (double)dz);
    ac->h[a] = h[a];
  }
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetDamping - Width of the PML shell in grid points (0: no PML, the zero halo reflects).

   Options Database Key:
.  -ac_ndamp <n>

   Level: beginner
@*/
PetscErrorCode AcousticSetDamping(Acoustic ac, PetscInt ndamp)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetDamping()");
  PetscCheck(ndamp >= 0, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "PML width -ac_ndamp %" PetscInt_FMT " must be >= 0", ndamp);
  ac->ndamp = ndamp;
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetCFL - The Courant number: dt = 2 cfl / (sqrt(W) vmax), W the sum of |weights| of the stencil. Leapfrog is
   stable for cfl <= 1.

   Options Database Key:
.  -ac_cfl <cfl> - in (0, 1], default 0.8

   Level: beginner
@*/
PetscErrorCode AcousticSetCFL(Acoustic ac, PetscReal cfl)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetCFL()");
  if (PetscIsNanReal(cfl)) SETERRQ(PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "CFL number nan (-ac_cfl) must be in (0, 1]");
  PetscCheck(cfl > 0, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "CFL number %g (-ac_cfl) must be positive", (double)cfl);
  PetscCheck(cfl <= 1, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
             "CFL number %g (-ac_cfl) is above the stability limit 1 of leapfrog with the 25-point stencil", (double)cfl);
  ac->cfl = cfl;
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetVelocity - A uniform velocity (m/s).

   Options Database Key:
.  -ac_vel <v|file> - a number, or a file of nx*ny*nz raw little-endian float32 values, x fastest

   Level: beginner

.seealso: `AcousticSetVelocityArray()`, `AcousticSetVelocityFile()`, `AcousticSetMaxVelocity()`
@*/
PetscErrorCode AcousticSetVelocity(Acoustic ac, PetscReal v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetVelocity()");
  if (!(v > 0 && PetscIsNormalReal(v))) {
    char str[32];
    PetscCall(AcRealString(v, str, sizeof(str)));
    SETERRQ(PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "Velocity %s (-ac_vel) must be positive and finite", str);
  }
  ac->vel        = v;
  ac->velfile[0] = 0;
  PetscCall(PetscFree(ac->velarray));
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetVelocityArray - A velocity per grid point: nx*ny*nz values, x fastest, copied. Call after AcousticSetSizes().
   On several ranks every rank passes the whole grid (each keeps its slab at set-up).

   Level: intermediate
@*/
PetscErrorCode AcousticSetVelocityArray(Acoustic ac, const PetscReal v[])
{
  const PetscInt n = ac->n[0] * ac->n[1] * ac->n[2];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetVelocityArray()");
  for (PetscInt p = 0; p < n; p++) {
    if (!(v[p] > 0 && PetscIsNormalReal(v[p]))) {
      char str[32];
      PetscCall(AcRealString(v[p], str, sizeof(str)));
      SETERRQ(PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
              "Velocity %s at grid point (%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT ") must be positive and finite", str, p % ac->n[0],
              (p / ac->n[0]) % ac->n[1], p / (ac->n[0] * ac->n[1]));
    }
  }
  PetscCall(PetscFree(ac->velarray));
  PetscCall(PetscMalloc1(n, &ac->velarray));
  PetscCall(PetscArraycpy(ac->velarray, v, n));
  ac->velfile[0] = 0;
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetVelocityFile - Read the velocity at set-up from a file of nx*ny*nz raw little-endian float32 values, x fastest.
   On several ranks each rank reads only its slab of planes.

   Level: intermediate
@*/
PetscErrorCode AcousticSetVelocityFile(Acoustic ac, const char path[])
{
  PetscBool exists;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetVelocityFile()");
  PetscCall(PetscTestFile(path, 'r', &exists));
  PetscCheck(exists, PetscObjectComm((PetscObject)ac), PETSC_ERR_FILE_OPEN, "-ac_vel %s is neither a number nor a readable file", path);
  PetscCall(PetscFree(ac->velarray));
  PetscCall(PetscStrncpy(ac->velfile, path, sizeof(ac->velfile)));
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetMaxVelocity - The velocity bound the time step and the damping profile use: the larger of this value
   and the largest velocity of the model (0: the model's largest).

   Options Database Key:
.  -ac_vmax <v> - default 4500

   Level: intermediate
@*/
PetscErrorCode AcousticSetMaxVelocity(Acoustic ac, PetscReal vmax)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetMaxVelocity()");
  PetscCheck(vmax >= 0, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "Maximum velocity %g (-ac_vmax) must be >= 0", (double)vmax);
  ac->vmax = vmax;
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetSource - The grid point of the point source (0-based; default: the centre).

   Options Database Key:
.  -ac_source <x,y,z>

   Level: beginner
@*/
PetscErrorCode AcousticSetSource(Acoustic ac, PetscInt x, PetscInt y, PetscInt z)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetSource()");
  ac->src[0] = x;
  ac->src[1] = y;
  ac->src[2] = z;
  PetscCheck(x >= 0 && y >= 0 && z >= 0, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
             "Source (%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT ") (-ac_source) is outside the grid: coordinates are grid indices >= 0", x, y, z);
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetSourceWavelet - The source: a Ricker wavelet of peak frequency fmax / 2.5, delayed by 1.5 periods, times an
   amplitude; amplitude * w(t_n) is added to u at the source point after step n.

   Options Database Keys:
+  -ac_fmax <f> - highest frequency of the source (Hz), default 25
-  -ac_amplitude <a> - default 1

   Level: intermediate
@*/
PetscErrorCode AcousticSetSourceWavelet(Acoustic ac, PetscReal fmax, PetscReal amplitude)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  PetscCheck(fmax > 0, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "Source frequency -ac_fmax %g must be positive", (double)fmax);
  ac->fmax      = fmax;
  ac->amplitude = amplitude;
  PetscFunctionReturn(0);
}

PetscErrorCode AcousticSetInitialType(Acoustic ac, AcousticInitType t)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetInitialType()");
  ac->init = t;
  PetscFunctionReturn(0);
}

PetscErrorCode AcousticSetBackend(Acoustic ac, AcousticBackend b)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetBackend()");
  ac->backend = b;
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetTile - The work-group tile of the inner kernel; may be changed after set-up (the kernels are rebuilt).

   Input Parameters:
+  tx, ty   - work-items along x and y (-1: the device's default)
.  tz       - planes swept by one work-group (0: the whole inner z extent; -1: default)
.  localmem - take x/y neighbours from a local-memory tile rather than from the cache
-  vec      - x points per work-item: 1, 2 or 4 (-1: default)

   Options Database Keys:
+  -ac_tile_x, -ac_tile_y, -ac_tile_z <n>
.  -ac_local_mem <bool>
-  -ac_vec <1,2,4>

   Level: advanced
@*/
PetscErrorCode AcousticSetTile(Acoustic ac, PetscInt tx, PetscInt ty, PetscInt tz, PetscBool localmem, PetscInt vec)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  PetscCheck(tx == -1 || tx > 0, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "-ac_tile_x %" PetscInt_FMT " must be positive", tx);
  PetscCheck(ty == -1 || ty > 0, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "-ac_tile_y %" PetscInt_FMT " must be positive", ty);
  PetscCheck(tz >= -1, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "-ac_tile_z %" PetscInt_FMT " must be >= 0 (0: the whole z extent)", tz);
  PetscCheck(vec == -1 || vec == 1 || vec == 2 || vec == 4, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
             "-ac_vec %" PetscInt_FMT " must be 1, 2 or 4", vec);
  ac->tile[0]  = tx;
  ac->tile[1]  = ty;
  ac->tile[2]  = tz;
  ac->localmem = localmem;
  ac->vec      = vec;
  ac->tileset  = PETSC_TRUE;
  if (ac->setupcalled && ac->backend == ACOUSTIC_BACKEND_DEVICE) PetscCall(AcousticSetUpKernels_Private(ac));
  PetscFunctionReturn(0);
}

/* PML tile: work-items along x and y, planes per work-group (0: all), x points per work-item (1, 2, 4); -1: the
   device's default. May be changed after set-up. */
PetscErrorCode AcousticSetPMLTile(Acoustic ac, PetscInt tx, PetscInt ty, PetscInt tz, PetscInt vec)
{
  PetscFunctionBegin;
  PetscCheck(tx == -1 || tx > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ac_pml_tile_x %" PetscInt_FMT " must be positive", tx);
  PetscCheck(ty == -1 || ty > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ac_pml_tile_y %" PetscInt_FMT " must be positive", ty);
  PetscCheck(tz >= -1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ac_pml_tile_z %" PetscInt_FMT " must be >= 0 (0: the whole z extent)", tz);
  PetscCheck(vec == -1 || vec == 1 || vec == 2 || vec == 4, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ac_pml_vec %" PetscInt_FMT " must be 1, 2 or 4", vec);
  ac->pmltile[0] = tx;
  ac->pmltile[1] = ty;
  ac->pmltile[2] = tz;
  ac->pmlvec     = vec;
  if (ac->setupcalled && ac->backend == ACOUSTIC_BACKEND_DEVICE) PetscCall(AcousticSetUpKernels_Private(ac));
  PetscFunctionReturn(0);
}

/* fused: the whole grid in one launch; pmlmerge: the six PML regions in one launch. 1 yes, 0 no, -1 the device's
   default; may be changed after set-up. */
PetscErrorCode AcousticSetFused(Acoustic ac, PetscInt fused, PetscInt pmlmerge)
{
  PetscFunctionBegin;
  ac->fused    = fused < 0 ? -1 : (fused ? 1 : 0);
  ac->pmlmerge = pmlmerge < 0 ? -1 : (pmlmerge ? 1 : 0);
  if (ac->setupcalled && ac->backend == ACOUSTIC_BACKEND_DEVICE) PetscCall(AcousticSetUpKernels_Private(ac));
  PetscFunctionReturn(0);
}

/* Row kernels (one work-item per x row; for CPU devices) instead of the 2.5D streaming kernels: 1 yes, 0 no, -1 the
   device's default; may be changed after set-up. */
PetscErrorCode AcousticSetRowKernels(Acoustic ac, PetscInt rows)
{
  PetscFunctionBegin;
  ac->rows = rows < 0 ? -1 : (rows ? 1 : 0);
  if (ac->setupcalled && ac->backend == ACOUSTIC_BACKEND_DEVICE) PetscCall(AcousticSetUpKernels_Private(ac));
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetFromOptions - Read the -ac_ options. Values are checked after PetscOptionsEnd() (a bad value leaks nothing).

   Options Database Keys:
+  -ac_n, -ac_nx, -ac_ny, -ac_nz <n>   - grid points (default 800)
.  -ac_ndamp <n>                      - PML width in points (default 27)
.  -ac_dx, -ac_dy, -ac_dz <h>         - spacing in metres (default 20)
.  -ac_cfl <c>                        - Courant number in (0, 1] (default 0.8)
.  -ac_vel <v|file>                   - velocity: a number (default 2000) or a raw float32 file
.  -ac_vmax <v>                       - velocity bound for dt and the damping (default 4500; 0: the model's largest)
.  -ac_fmax <f>, -ac_amplitude <a>    - source wavelet
.  -ac_source <x,y,z>                 - source grid point (default: the centre)
.  -ac_init <zero,random>             - initial fields
.  -ac_seed <s>                       - seed of the random fields
.  -ac_backend <device,host>          - fp32 OpenCL kernels or the fp64 host reference
.  -ac_tile_x, -ac_tile_y, -ac_tile_z, -ac_local_mem, -ac_vec - inner kernel tile (AcousticSetTile())
.  -ac_pml_tile_x, -ac_pml_tile_y, -ac_pml_tile_z             - PML kernel tile
.  -ac_pml_vec <1,2,4>                - x points per work-item of the PML kernel
.  -ac_fused <bool>                   - the whole grid in one launch (the inner kernel's tiles, the PML update where needed)
.  -ac_pml_merge <bool>               - the six PML regions in one launch
.  -ac_pml_queue <bool>               - the PML launches in a second queue, concurrent with the inner region's (one rank)
.  -ac_rows <bool>                    - row kernels (one work-item per x row) instead of the 2.5D ones
.  -ac_fast_div <bool>                - reciprocals (native_recip and a Newton step) instead of IEEE divisions in the PML
.  -ac_prefetch, -ac_pml_prefetch <d> - planes ahead the inner / PML sweeps prefetch their streams into the cache, 0..16
.  -ac_unroll, -ac_pml_unroll <u>     - planes per iteration of the inner / PML sweeps (unrolled loop), 1..8
.  -ac_cl_options <string>            - extra OpenCL build options for the kernels (e.g. -cl-nv-maxrregcount=64)
-  -ac_view                           - view the object after set-up

   Level: beginner
@*/
PetscErrorCode AcousticSetFromOptions(Acoustic ac)
{
  PetscInt n = ac->n[0], nx = ac->n[0], ny = ac->n[1], nz = ac->n[2], ndamp = ac->ndamp, src[3] = {ac->src[0], ac->src[1], ac->src[2]}, nsrc = 3,
           seed     = ac->seed;
  PetscInt  tile[3] = {ac->tile[0], ac->tile[1], ac->tile[2]}, vec = ac->vec, pml[4] = {ac->pmltile[0], ac->pmltile[1], ac->pmltile[2], ac->pmlvec};
  PetscReal dx = ac->h[0], dy = ac->h[1], dz = ac->h[2], cfl = ac->cfl, vmax = ac->vmax, fmax = ac->fmax, amp = ac->amplitude;
  PetscBool nset, nxset, nyset, nzset, dyset, dzset, velset, srcset, initset, backset, tset[5], pset[4],
      localmem = ac->localmem, rows = ac->rows > 0 ? PETSC_TRUE : PETSC_FALSE, rowsset, fused = ac->fused > 0 ? PETSC_TRUE : PETSC_FALSE, fusedset,
      merge = ac->pmlmerge > 0 ? PETSC_TRUE : PETSC_FALSE, mergeset;
  char     vel[PETSC_MAX_PATH_LEN], init[32], backend[32], list[128];
  PetscInt prtile[3] = {ac->pairtile[0], ac->pairtile[1], ac->pairtile[2]};
  PetscInt pf[2]     = {ac->prefetch[0], ac->prefetch[1]};
  PetscInt ur[2]     = {ac->unroll[0], ac->unroll[1]};

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  PetscCall(PetscSNPrintf(vel, sizeof(vel), "%g", (double)ac->vel));
  PetscCall(PetscStrncpy(init, AcousticInitTypes[ac->init], sizeof(init)));
  PetscCall(PetscStrncpy(backend, AcousticBackends[ac->backend], sizeof(backend)));
  PetscObjectOptionsBegin((PetscObject)ac);
  PetscCall(PetscOptionsInt("-ac_n", "Grid points per axis", "AcousticSetSizes", n, &n, &nset));
  PetscCall(PetscOptionsInt("-ac_nx", "Grid points along x", "AcousticSetSizes", nset ? n : nx, &nx, &nxset));
  PetscCall(PetscOptionsInt("-ac_ny", "Grid points along y", "AcousticSetSizes", nset ? n : ny, &ny, &nyset));
  PetscCall(PetscOptionsInt("-ac_nz", "Grid points along z", "AcousticSetSizes", nset ? n : nz, &nz, &nzset));
  PetscCall(PetscOptionsInt("-ac_ndamp", "PML width in grid points", "AcousticSetDamping", ndamp, &ndamp, NULL));
  PetscCall(PetscOptionsReal("-ac_dx", "Grid spacing along x (and y, z unless given), m", "AcousticSetSpacing", dx, &dx, NULL));
  PetscCall(PetscOptionsReal("-ac_dy", "Grid spacing along y, m", "AcousticSetSpacing", dy, &dy, &dyset));
  PetscCall(PetscOptionsReal("-ac_dz", "Grid spacing along z, m", "AcousticSetSpacing", dz, &dz, &dzset));
  PetscCall(PetscOptionsReal("-ac_cfl", "Courant number, in (0, 1]", "AcousticSetCFL", cfl, &cfl, NULL));
  PetscCall(PetscOptionsString("-ac_vel", "Velocity (m/s): a number or a file of raw float32 values, x fastest", "AcousticSetVelocity", vel, vel, sizeof(vel),
                               &velset));
  PetscCall(PetscOptionsReal("-ac_vmax", "Velocity bound for dt and the damping (0: the model's largest)", "AcousticSetMaxVelocity", vmax, &vmax, NULL));
  PetscCall(PetscOptionsReal("-ac_fmax", "Highest source frequency (Hz); the Ricker peak is fmax/2.5", "AcousticSetSourceWavelet", fmax, &fmax, NULL));
  PetscCall(PetscOptionsReal("-ac_amplitude", "Source amplitude", "AcousticSetSourceWavelet", amp, &amp, NULL));
  PetscCall(PetscOptionsIntArray("-ac_source", "Source grid point x,y,z", "AcousticSetSource", src, &nsrc, &srcset));
  PetscCall(SbpmgChoiceList(AcousticInitTypes, list, sizeof(list)));
  PetscCall(PetscOptionsString("-ac_init", list, "AcousticSetInitialType", init, init, sizeof(init), &initset));
  PetscCall(PetscOptionsInt("-ac_seed", "Seed of the random initial fields", "AcousticSetInitialType", seed, &seed, NULL));
  PetscCall(SbpmgChoiceList(AcousticBackends, list, sizeof(list)));
  PetscCall(PetscOptionsString("-ac_backend", list, "AcousticSetBackend", backend, backend, sizeof(backend), &backset));
  PetscCall(PetscOptionsInt("-ac_tile_x", "Inner kernel work-group size along x (-1: default)", "AcousticSetTile", tile[0], &tile[0], &tset[0]));
  PetscCall(PetscOptionsInt("-ac_tile_y", "Inner kernel work-group size along y (-1: default)", "AcousticSetTile", tile[1], &tile[1], &tset[1]));
  PetscCall(PetscOptionsInt("-ac_tile_z", "Planes per inner work-group (0: all, -1: default)", "AcousticSetTile", tile[2], &tile[2], &tset[2]));
  PetscCall(PetscOptionsBool("-ac_local_mem", "Inner kernel takes x/y neighbours from local memory", "AcousticSetTile", localmem, &localmem, &tset[3]));
  PetscCall(PetscOptionsInt("-ac_vec", "x points per work-item of the inner kernel: 1, 2, 4 (-1: default)", "AcousticSetTile", vec, &vec, &tset[4]));
  PetscCall(PetscOptionsInt("-ac_pml_tile_x", "PML kernel work-group size along x", "AcousticSetFromOptions", pml[0], &pml[0], &pset[0]));
  PetscCall(PetscOptionsInt("-ac_pml_tile_y", "PML kernel work-group size along y", "AcousticSetFromOptions", pml[1], &pml[1], &pset[1]));
  PetscCall(PetscOptionsInt("-ac_pml_tile_z", "Planes per PML work-group (0: all)", "AcousticSetFromOptions", pml[2], &pml[2], &pset[2]));
  PetscCall(
      PetscOptionsInt("-ac_pml_vec", "x points per work-item of the PML kernel: 1, 2, 4 (-1: default)", "AcousticSetFromOptions", pml[3], &pml[3], &pset[3]));
  PetscCall(PetscOptionsBool("-ac_fused", "The whole grid in one launch", "AcousticSetFromOptions", fused, &fused, &fusedset));
  PetscCall(PetscOptionsBool("-ac_pml_merge", "The six PML regions in one launch", "AcousticSetFromOptions", merge, &merge, &mergeset));
  PetscCall(PetscOptionsBool("-ac_rows", "Row kernels (one work-item per x row, for CPUs) instead of the 2.5D streaming kernels", "AcousticSetFromOptions",
                             rows, &rows, &rowsset));
  {
    PetscBool fd = ac->fastdiv > 0 ? PETSC_TRUE : PETSC_FALSE, fdset;
    PetscCall(PetscOptionsBool("-ac_fast_div", "Reciprocals instead of IEEE divisions in the PML update", "AcousticSetFromOptions", fd, &fd, &fdset));
    if (fdset) ac->fastdiv = fd;
  }
  {
    PetscBool pq = ac->pmlqueue > 0 ? PETSC_TRUE : PETSC_FALSE, pqset;
    PetscCall(PetscOptionsBool("-ac_pml_queue", "PML launches in a second queue, concurrent with the inner region (one rank, 2.5D kernels)",
                               "AcousticSetFromOptions", pq, &pq, &pqset));
    if (pqset) ac->pmlqueue = pq;
  }
  {
    PetscBool two = ac->pair > 0 ? PETSC_TRUE : PETSC_FALSE, twoset;
    PetscCall(PetscOptionsBool("-ac_two_steps", "Two leapfrog steps per pass over the inner region (one rank, 2.5D kernels)", "AcousticSetFromOptions", two,
                               &two, &twoset));
    if (twoset) ac->pair = two;
    PetscCall(PetscOptionsInt("-ac_pair_tile_x", "Two-step kernel work-group size along x, ring included (-1: default)", "AcousticSetFromOptions", prtile[0],
                              &prtile[0], NULL));
    PetscCall(PetscOptionsInt("-ac_pair_tile_y", "Two-step kernel work-group size along y, ring included (-1: default)", "AcousticSetFromOptions", prtile[1],
                              &prtile[1], NULL));
    PetscCall(
        PetscOptionsInt("-ac_pair_tile_z", "Planes per two-step work-group (0: all, -1: default)", "AcousticSetFromOptions", prtile[2], &prtile[2], NULL));
  }
  PetscCall(PetscOptionsInt("-ac_prefetch", "Planes ahead the inner kernel prefetches its streamed data into the cache (0: none, -1: default)",
                            "AcousticSetFromOptions", pf[0], &pf[0], NULL));
  PetscCall(PetscOptionsInt("-ac_pml_prefetch", "Planes ahead the PML kernels prefetch their streamed data into the cache (0: none, -1: default)",
                            "AcousticSetFromOptions", pf[1], &pf[1], NULL));
  PetscCall(PetscOptionsInt("-ac_unroll", "Planes per iteration of the inner kernel's sweep (unrolled loop; -1: default)", "AcousticSetFromOptions", ur[0],
                            &ur[0], NULL));
  PetscCall(PetscOptionsInt("-ac_pml_unroll", "Planes per iteration of the PML kernels' sweep (unrolled loop; -1: default)", "AcousticSetFromOptions", ur[1],
                            &ur[1], NULL));
  PetscCall(PetscOptionsString("-ac_cl_options", "Extra OpenCL build options for the kernels", "AcousticSetFromOptions", ac->clopts, ac->clopts,
                               sizeof(ac->clopts), NULL));
  PetscCall(PetscOptionsBool("-ac_view", "View the object after set-up", "AcousticView", ac->view, &ac->view, NULL));
  PetscOptionsEnd();
  PetscCheck(pf[0] >= -1 && pf[0] <= AC_PREFETCH_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "-ac_prefetch %" PetscInt_FMT " must be in [0, %d] planes (-1: the device's default)", pf[0], AC_PREFETCH_MAX);
  PetscCheck(pf[1] >= -1 && pf[1] <= AC_PREFETCH_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "-ac_pml_prefetch %" PetscInt_FMT " must be in [0, %d] planes (-1: the device's default)", pf[1], AC_PREFETCH_MAX);
  PetscCheck(ur[0] == -1 || (ur[0] >= 1 && ur[0] <= AC_UNROLL_MAX), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "-ac_unroll %" PetscInt_FMT " must be in [1, %d] planes per iteration (-1: the device's default)", ur[0], AC_UNROLL_MAX);
  PetscCheck(ur[1] == -1 || (ur[1] >= 1 && ur[1] <= AC_UNROLL_MAX), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "-ac_pml_unroll %" PetscInt_FMT " must be in [1, %d] planes per iteration (-1: the device's default)", ur[1], AC_UNROLL_MAX);
  ac->prefetch[0] = pf[0];
  ac->prefetch[1] = pf[1];
  ac->unroll[0]   = ur[0];
  ac->unroll[1]   = ur[1];
  PetscCheck(prtile[0] == -1 || prtile[0] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ac_pair_tile_x %" PetscInt_FMT " must be positive", prtile[0]);
  PetscCheck(prtile[1] == -1 || prtile[1] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ac_pair_tile_y %" PetscInt_FMT " must be positive", prtile[1]);
  PetscCheck(prtile[2] >= -1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ac_pair_tile_z %" PetscInt_FMT " must be >= 0 (0: the whole z extent)", prtile[2]);
  for (PetscInt d = 0; d < 3; d++) ac->pairtile[d] = prtile[d];

  /* validate and apply */
  if (nset) {
    if (!nxset) nx = n;
    if (!nyset) ny = n;
    if (!nzset) nz = n;
  }
  if (nset || nxset || nyset || nzset) PetscCall(AcousticSetSizes(ac, nx, ny, nz));
  PetscCall(AcousticSetDamping(ac, ndamp));
  PetscCall(AcousticSetSpacing(ac, dx, dyset ? dy : dx, dzset ? dz : dx));
  PetscCall(AcousticSetCFL(ac, cfl));
  if (velset) {
    char  *end;
    double v = strtod(vel, &end);

    if (end != vel && *end == 0)
      PetscCall(AcousticSetVelocity(ac, (PetscReal)v));
    else
      PetscCall(AcousticSetVelocityFile(ac, vel));
  }
  PetscCall(AcousticSetMaxVelocity(ac, vmax));
  PetscCall(AcousticSetSourceWavelet(ac, fmax, amp));
  if (srcset) {
    PetscCheck(nsrc == 3, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_SIZ, "-ac_source needs 3 values x,y,z; got %" PetscInt_FMT, nsrc);
    PetscCall(AcousticSetSource(ac, src[0], src[1], src[2]));
  }
  if (initset) {
    PetscInt i;
    PetscCall(SbpmgParseChoice("-ac_init", init, AcousticInitTypes, &i));
    PetscCall(AcousticSetInitialType(ac, (AcousticInitType)i));
  }
  ac->seed = seed;
  if (backset) {
    PetscInt i;
    PetscCall(SbpmgParseChoice("-ac_backend", backend, AcousticBackends, &i));
    PetscCall(AcousticSetBackend(ac, (AcousticBackend)i));
  }
  if (tset[0] || tset[1] || tset[2] || tset[3] || tset[4]) PetscCall(AcousticSetTile(ac, tile[0], tile[1], tile[2], localmem, vec));
  if (pset[0] || pset[1] || pset[2] || pset[3]) PetscCall(AcousticSetPMLTile(ac, pml[0], pml[1], pml[2], pml[3]));
  if (fusedset || mergeset) PetscCall(AcousticSetFused(ac, fusedset ? (PetscInt)fused : ac->fused, mergeset ? (PetscInt)merge : ac->pmlmerge));
  if (rowsset) PetscCall(AcousticSetRowKernels(ac, rows));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- set-up */

/* The 8th-order second-derivative weights for spacing h: w_m / h^2, m = 0..4. */
PetscErrorCode AcousticStencilWeights(PetscReal h, PetscReal c[5])
{
  const PetscReal w[5] = {-205.0 / 72.0, 8.0 / 5.0, -1.0 / 5.0, 8.0 / 315.0, -1.0 / 560.0};

  PetscFunctionBegin;
  for (PetscInt m = 0; m < 5; m++) c[m] = w[m] / (h * h);
  PetscFunctionReturn(0);
}

/* Random value of grid point p of field f: uniform in [-1, 1) on a 2^-23 lattice; the same function as ac_random in
   kernels/acoustic_util.cl. */
static uint32_t AcMix(uint32_t x)
{
  x ^= x >> 16;
  x *= 0x21f0aaadu;
  x ^= x >> 15;
  x *= 0x735a2d97u;
  x ^= x >> 15;
  return x;
}

PetscReal AcousticRandom(PetscInt seed, PetscInt field, PetscInt p)
{
  const uint32_t h = AcMix((uint32_t)p ^ AcMix((uint32_t)seed * 0x9e3779b9u + (uint32_t)field * 0x85ebca6bu + 0x632be5abu));

  return (PetscReal)(h >> 8) * (1.0 / 8388608.0) - 1.0;
}

/* Amplitude * Ricker(t_n): peak frequency f0 = fmax / 2.5, delay 1.5 / f0. */
PetscErrorCode AcousticWavelet(Acoustic ac, PetscInt n, PetscReal *w)
{
  const PetscReal f0 = ac->fmax / 2.5, t = n * ac->dt - 1.5 / f0, a = PetscSqr(PETSC_PI * f0 * t);

  PetscFunctionBegin;
  *w = ac->amplitude * (1.0 - 2.0 * a) * PetscExpReal(-a);
  PetscFunctionReturn(0);
}

/* Distance into the PML, in points, of index i on an axis of n points (0 inside; ndamp at the outermost point, ndamp+1
   at the ghost -1 or n). */
static PetscReal AcDampDistance(PetscInt i, PetscInt n, PetscInt nd)
{
  if (i < nd) return (PetscReal)(nd - i);
  if (i >= n - nd) return (PetscReal)(i - (n - nd) + 1);
  return 0;
}

/* The velocity of this rank's slab (nx*ny*nl[2] values, x fastest; NULL for a constant velocity) and its range over the
   whole grid. A bad value is reported by every rank, naming the first bad point of the grid. */
static PetscErrorCode AcousticSetUpVelocity(Acoustic ac, PetscReal **velfield)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)ac);
  const PetscInt nxy = ac->n[0] * ac->n[1], n = nxy * ac->nl[2];

  PetscFunctionBegin;
  *velfield = NULL;
  if (ac->velarray || ac->velfile[0]) {
    PetscInt  bad  = PETSC_MAX_INT;
    PetscReal badv = 0, range[2];

    PetscCall(PetscMalloc1(n, velfield));
    if (ac->velarray)
      PetscCall(PetscArraycpy(*velfield, ac->velarray + ac->zs * nxy, n));
    else {
      PetscErrorCode ierr = AcousticReadVelocityFile_Private(ac->velfile, ac->n, ac->zs, ac->nl[2], *velfield);
      if (ierr) PetscCall(PetscFree(*velfield));
      PetscCall(ierr);
    }
    range[0] = 0;               /* max */
    range[1] = -PETSC_MAX_REAL; /* -min */
    for (PetscInt p = 0; p < n; p++) {
      const PetscReal v = (*velfield)[p];
      if (!(v > 0 && PetscIsNormalReal(v))) {
        bad  = ac->zs * nxy + p;
        badv = v;
        break;
      }
      range[0] = PetscMax(range[0], v);
      range[1] = PetscMax(range[1], -v);
    }
    if (ac->size > 1) { /* the first bad point of the grid and its value (only its owner adds a value), the range */
      PetscInt  gbad;
      PetscReal gv;
      PetscCallMPI(MPI_Allreduce(&bad, &gbad, 1, MPIU_INT, MPI_MIN, comm));
      gv = gbad == bad && bad != PETSC_MAX_INT ? badv : 0;
      PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &gv, 1, MPIU_REAL, MPIU_SUM, comm));
      PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, range, 2, MPIU_REAL, MPIU_MAX, comm));
      bad  = gbad;
      badv = gv;
    }
    if (bad != PETSC_MAX_INT) {
      char str[32];
      PetscCall(PetscFree(*velfield));
      PetscCall(AcRealString(badv, str, sizeof(str)));
      SETERRQ(comm, PETSC_ERR_ARG_OUTOFRANGE,
              "Velocity %s at grid point (%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT ")%s%s must be positive and finite", str, bad % ac->n[0],
              (bad / ac->n[0]) % ac->n[1], bad / nxy, ac->velfile[0] ? " of -ac_vel " : "", ac->velfile);
    }
    ac->velmax = range[0];
    ac->velmin = -range[1];
  } else {
    ac->velmax = ac->vel;
    ac->velmin = ac->vel;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode AcousticCheckSizes(Acoustic ac)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)ac);
  PetscInt need = 2 * ac->ndamp + 9;

  PetscFunctionBegin;
  for (PetscInt a = 0; a < 3; a++)
    PetscCheck(ac->n[a] >= need, comm, PETSC_ERR_ARG_OUTOFRANGE,
               "Grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " is too small for -ac_ndamp %" PetscInt_FMT
               ": every axis needs at least 2*ndamp+9 = %" PetscInt_FMT " points (n%c = %" PetscInt_FMT ")",
               ac->n[0], ac->n[1], ac->n[2], ac->ndamp, need, (char)('x' + a), ac->n[a]);
  PetscCheck(ac->n[2] / ac->size >= 4, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "Grid nz = %" PetscInt_FMT " is too small for %d MPI ranks: the grid is split into slabs along z and each rank needs at least 4 planes (the "
             "stencil's halo), so nz must be >= 4 x %d = %d; use at most %" PetscInt_FMT " ranks",
             ac->n[2], (int)ac->size, (int)ac->size, 4 * (int)ac->size, ac->n[2] / 4);
  for (PetscInt a = 0; a < 3; a++) {
    if (ac->src[a] < 0) ac->src[a] = ac->n[a] / 2;
  }
  PetscCheck(ac->src[0] < ac->n[0] && ac->src[1] < ac->n[1] && ac->src[2] < ac->n[2], comm, PETSC_ERR_ARG_OUTOFRANGE,
             "Source (%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT ") (-ac_source) is outside the %" PetscInt_FMT " x %" PetscInt_FMT
             " x %" PetscInt_FMT " grid",
             ac->src[0], ac->src[1], ac->src[2], ac->n[0], ac->n[1], ac->n[2]);
  PetscFunctionReturn(0);
}

/* The slabs: rank r owns planes [zstart[r], zstart[r + 1]), nz / size of them, one more for the first nz % size ranks.
   The planes within 4 of a neighbour's slab are computed first and sent; the others overlap the exchange. */
static PetscErrorCode AcousticSetUpDecomposition(Acoustic ac)
{
  const PetscInt nz = ac->n[2], P = ac->size;

  PetscFunctionBegin;
  PetscCall(PetscFree(ac->zstart));
  PetscCall(PetscMalloc1(P + 1, &ac->zstart));
  ac->zstart[0] = 0;
  for (PetscInt r = 0; r < P; r++) ac->zstart[r + 1] = ac->zstart[r] + nz / P + (r < nz % P ? 1 : 0);
  ac->zs       = ac->zstart[ac->rank];
  ac->nl[0]    = ac->n[0];
  ac->nl[1]    = ac->n[1];
  ac->nl[2]    = ac->zstart[ac->rank + 1] - ac->zs;
  ac->down     = ac->rank > 0 ? ac->rank - 1 : -1;
  ac->up       = ac->rank < P - 1 ? ac->rank + 1 : -1;
  ac->zedge[0] = ac->down >= 0 ? PetscMin(4, ac->nl[2]) : 0;
  ac->zedge[1] = ac->up >= 0 ? PetscMax(ac->nl[2] - 4, ac->zedge[0]) : ac->nl[2];
  if (P > 1) PetscCall(PetscObjectGetNewTag((PetscObject)ac, &ac->tag));
  PetscFunctionReturn(0);
}

/* Padded layout: x offset ox >= 4 such that the first inner point (i = ndamp) is 128-byte aligned, rows padded to 32
   floats with at least 8 zero points after the last grid point; 4 halo rows and planes in y and z. */
static PetscErrorCode AcousticSetUpLayout(Acoustic ac)
{
  const PetscInt nd = ac->ndamp;

  PetscFunctionBegin;
  ac->ox = 4 + ((32 - (4 + nd) % 32) % 32);
  ac->px = ((ac->ox + ac->n[0] + 8 + 31) / 32) * 32;
  ac->py = ac->n[1] + 8;
  ac->pz = ac->nl[2] + 8;
  PetscCheck((double)ac->px * ac->py * ac->pz < (double)PETSC_MAX_INT, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
             "Grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " is too large for 32-bit indices (padded size %.0f points)", ac->n[0], ac->n[1],
             ac->nl[2], (double)ac->px * ac->py * ac->pz);
  ac->pxy    = ac->px * ac->py;
  ac->npad   = (size_t)ac->pxy * (size_t)ac->pz;
  ac->origin = ac->ox + 4 * ac->px + 4 * ac->pxy;
  /* regions [lo, hi): the inner box, then the z, y and x slabs */
  for (PetscInt a = 0; a < 3; a++) {
    ac->lo[AC_REGION_INNER][a] = nd;
    ac->hi[AC_REGION_INNER][a] = ac->n[a] - nd;
  }
  for (PetscInt r = AC_REGION_ZLO; r < AC_NREGIONS; r++) {
    const PetscInt axis = 2 - (r - 1) / 2, high = (r - 1) % 2; /* zlo, zhi, ylo, yhi, xlo, xhi */
    for (PetscInt a = 0; a < 3; a++) {
      if (a == axis) {
        ac->lo[r][a] = high ? ac->n[a] - nd : 0;
        ac->hi[r][a] = high ? ac->n[a] : nd;
      } else if (a > axis) { /* slower axes: the inner range (the slabs of slower axes own the rest) */
        ac->lo[r][a] = nd;
        ac->hi[r][a] = ac->n[a] - nd;
      } else { /* faster axes: the whole extent */
        ac->lo[r][a] = 0;
        ac->hi[r][a] = ac->n[a];
      }
    }
  }
  /* this rank's part of each region, in local planes (an empty box where the slab misses it) */
  for (PetscInt r = 0; r < AC_NREGIONS; r++) {
    ac->lo[r][2] = PetscMin(PetscMax(ac->lo[r][2] - ac->zs, 0), ac->nl[2]);
    ac->hi[r][2] = PetscMax(PetscMin(ac->hi[r][2] - ac->zs, ac->nl[2]), ac->lo[r][2]);
  }
  PetscFunctionReturn(0);
}

/* Host copy (padded layout, float or double) of the fields set-up computes: vp and the eta profiles. */
static PetscErrorCode AcousticComputeCoefficients(Acoustic ac, const PetscReal *velfield, PetscReal *vp, PetscReal *eta)
{
  PetscFunctionBegin;
  if (vp) {
    const PetscReal vpc = PetscSqr(ac->vel * ac->dt);
    for (PetscInt k = 0; k < ac->nl[2]; k++)
      for (PetscInt j = 0; j < ac->n[1]; j++)
        for (PetscInt i = 0; i < ac->n[0]; i++) vp[AcIndex(ac, i, j, k)] = velfield ? PetscSqr(velfield[i + ac->n[0] * (j + ac->n[1] * k)] * ac->dt) : vpc;
  }
  if (eta) { /* zero padded: eta_a(i) at eoff[a] + i, i in [-9, n_a + 8], zero outside [-1, n_a] */
    for (PetscInt p = 0; p < ac->ecount; p++) eta[p] = 0;
    for (PetscInt a = 0; a < 3; a++) {
      for (PetscInt i = -1; i <= ac->n[a]; i++) {
        const PetscReal d    = AcDampDistance(i, ac->n[a], ac->ndamp);
        eta[ac->eoff[a] + i] = ac->ndamp ? ac->eta0[a] * PetscSqr(d / ac->ndamp) : 0.0;
      }
    }
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode AcousticSetUpHost(Acoustic ac, const PetscReal *velfield)
{
  PetscFunctionBegin;
  PetscCall(PetscCalloc1(ac->npad, &ac->hu));
  PetscCall(PetscCalloc1(ac->npad, &ac->hv));
  PetscCall(PetscCalloc1(ac->npad, &ac->hvp));
  PetscCall(PetscCalloc1(ac->npad, &ac->hphi));
  PetscCall(PetscCalloc1(ac->ecount, &ac->heta));
  PetscCall(AcousticComputeCoefficients(ac, velfield, ac->hvp, ac->heta));
  if (ac->init == ACOUSTIC_INIT_RANDOM) { /* the slab and its halo planes inside the grid */
    PetscReal     *f[2] = {ac->hu, ac->hv};
    const PetscInt klo = PetscMax(-4, -ac->zs), khi = PetscMin(ac->nl[2] + 4, ac->n[2] - ac->zs);
    for (PetscInt fi = 0; fi < 2; fi++)
      for (PetscInt k = klo; k < khi; k++)
        for (PetscInt j = 0; j < ac->n[1]; j++)
          for (PetscInt i = 0; i < ac->n[0]; i++) f[fi][AcIndex(ac, i, j, k)] = AcousticRandom(ac->seed, fi, i + ac->n[0] * (j + ac->n[1] * (k + ac->zs)));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode AcousticLaunch3D(Acoustic ac, cl_kernel k, const size_t g[3], const size_t *l)
{
  PetscFunctionBegin;
  if (!g[0] || !g[1] || !g[2]) PetscFunctionReturn(0);
  PetscCallCL(clEnqueueNDRangeKernel(ac->cl->queue, k, 3, NULL, g, l, 0, NULL, NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode AcousticSetUpDevice(Acoustic ac, const PetscReal *velfield)
{
  const size_t bytes = ac->npad * sizeof(float);
  const float  zero  = 0;
  float       *eta;

  PetscFunctionBegin;
  PetscCall(SbpmgCLGetDefault(&ac->cl));
  PetscCall(SbpmgCLReference(ac->cl));
  PetscCall(SbpmgCLCreateBuffer(ac->cl, CL_MEM_READ_WRITE, bytes, &ac->du));
  PetscCall(SbpmgCLCreateBuffer(ac->cl, CL_MEM_READ_WRITE, bytes, &ac->dv));
  PetscCall(SbpmgCLCreateBuffer(ac->cl, CL_MEM_READ_WRITE, bytes, &ac->dvp));
  PetscCall(SbpmgCLCreateBuffer(ac->cl, CL_MEM_READ_WRITE, bytes, &ac->dphi));
  PetscCall(SbpmgCLCreateBuffer(ac->cl, CL_MEM_READ_ONLY, ac->ecount * sizeof(float), &ac->deta));
  PetscCall(SbpmgCLFillBuffer(ac->cl, ac->du, &zero, sizeof(float), 0, bytes));
  PetscCall(SbpmgCLFillBuffer(ac->cl, ac->dv, &zero, sizeof(float), 0, bytes));
  PetscCall(SbpmgCLFillBuffer(ac->cl, ac->dphi, &zero, sizeof(float), 0, bytes));
  /* vp: a constant fill, or the model copied once */
  if (velfield) {
    float     *vp;
    PetscReal *vpd;

    PetscCall(PetscCalloc1(ac->npad, &vpd));
    PetscCall(AcousticComputeCoefficients(ac, velfield, vpd, NULL));
    PetscCall(PetscMalloc1(ac->npad, &vp));
    for (size_t p = 0; p < ac->npad; p++) vp[p] = (float)vpd[p];
    PetscCall(PetscFree(vpd));
    PetscCall(SbpmgCLWriteBuffer(ac->cl, ac->dvp, 0, bytes, vp));
    PetscCall(PetscFree(vp));
  } else {
    const float vpc = (float)PetscSqr(ac->vel * ac->dt);
    PetscCall(SbpmgCLFillBuffer(ac->cl, ac->dvp, &vpc, sizeof(float), 0, bytes));
  }
  {
    PetscReal *etad;
    PetscCall(PetscMalloc1(ac->ecount, &etad));
    PetscCall(AcousticComputeCoefficients(ac, NULL, NULL, etad));
    PetscCall(PetscMalloc1(ac->ecount, &eta));
    for (PetscInt p = 0; p < ac->ecount; p++) eta[p] = (float)etad[p];
    PetscCall(PetscFree(etad));
    PetscCall(SbpmgCLWriteBuffer(ac->cl, ac->deta, 0, ac->ecount * sizeof(float), eta));
    PetscCall(PetscFree(eta));
  }
  if (ac->init == ACOUSTIC_INIT_RANDOM) { /* the slab and its halo planes inside the grid: no exchange needed */
    cl_kernel      k;
    cl_mem         f[2] = {ac->du, ac->dv};
    const PetscInt klo = PetscMax(-4, -ac->zs), khi = PetscMin(ac->nl[2] + 4, ac->n[2] - ac->zs);
    const int      nx = (int)ac->n[0], ny = (int)ac->n[1], px = (int)ac->px, pxy = (int)ac->pxy, origin = (int)(ac->origin + klo * ac->pxy);
    const int      kofs = (int)(ac->zs + klo);
    cl_uint        seed = (cl_uint)ac->seed;
    size_t         g[3] = {(size_t)ac->n[0], (size_t)ac->n[1], (size_t)(khi - klo)};

    PetscCall(SbpmgCLGetKernel(ac->cl, "acoustic_util", NULL, "ac_fill_random", &k));
    for (cl_uint fi = 0; fi < 2; fi++) {
      PetscCall(SbpmgCLSetArgs(k, 0, 9, sizeof(int), &nx, sizeof(int), &ny, sizeof(int), &px, sizeof(int), &pxy, sizeof(int), &origin, sizeof(int), &kofs,
                               sizeof(cl_uint), &seed, sizeof(cl_uint), &fi, sizeof(cl_mem), &f[fi]));
      PetscCall(AcousticLaunch3D(ac, k, g, NULL));
    }
  }
  if (ac->size > 1) {
    void *ptr;
    PetscCall(SbpmgCLCreateStaging(ac->cl, 16 * (size_t)ac->pxy * sizeof(float), &ac->xstage, &ptr));
    ac->xbuf = (float *)ptr;
  }
  PetscCall(AcousticSetUpKernels_Private(ac));
  PetscCall(SbpmgCLFinish(ac->cl));
  PetscFunctionReturn(0);
}

/* Work-groups of the launch of region r's box [lo, hi): tiles along x and y, chunks along z. PML regions start their x
   vectors at the aligned point at or before lo.x. */
static void AcousticRegionTiles(Acoustic ac, PetscInt r, const PetscInt lo[3], const PetscInt hi[3], PetscInt w, PetscInt t[3])
{
  const PetscBool inner = r == AC_REGION_INNER ? PETSC_TRUE : PETSC_FALSE;
  const PetscInt  V = inner ? ac->kvec : ac->kpmlvec, tx = inner ? ac->ktile[0] : (w > 0 ? w : ac->kpmltile[0]);
  const PetscInt  ty = inner ? ac->ktile[1] : (w > 0 ? ac->kpmltile[0] * ac->kpmltile[1] / w : ac->kpmltile[1]);
  const PetscInt  tz = inner ? ac->ktile[2] : ac->kpmltile[2];
  const PetscInt  xa = lo[0] - (ac->origin + lo[0]) % V, nvx = (hi[0] - xa + V - 1) / V;
  const PetscInt  wy = hi[1] - lo[1], wz = hi[2] - lo[2];

  if (hi[0] <= lo[0] || wy <= 0 || wz <= 0) {
    t[0] = t[1] = t[2] = 0;
    return;
  }
  t[0] = (nvx + tx - 1) / tx;
  t[1] = (wy + ty - 1) / ty;
  t[2] = tz ? (wz + tz - 1) / tz : 1;
}

/* The table of ac_pml_all (11 ints per PML region, in launch order): lo.xyz, hi.xyz, tiles along x and y, first and end
   group, tile width. A region narrower than the PML tile gets a narrower and taller tile of the same size (the x slabs
   are ndamp points wide). Written once per kernel set-up. The regions are clipped to the planes [zedge[0], zedge[1])
   (all of them on one rank; on several, the planes computed while the halo is exchanged). */
static PetscErrorCode AcousticSetUpPMLTable(Acoustic ac)
{
  cl_int   tab[AC_NREGIONS * 11];
  PetscInt n = 0, start = 0;

  PetscFunctionBegin;
  for (PetscInt r = AC_REGION_ZLO; r < AC_NREGIONS; r++) {
    PetscInt       t[3], w = ac->kpmltile[0], lo[3], hi[3];
    cl_int        *e = tab + 11 * n;
    const PetscInt V = ac->kpmlvec, xa = ac->lo[r][0] - (ac->origin + ac->lo[r][0]) % V, nvx = (ac->hi[r][0] - xa + V - 1) / V;
    const PetscInt size = ac->kpmltile[0] * ac->kpmltile[1];

    for (PetscInt a = 0; a < 3; a++) {
      lo[a] = ac->lo[r][a];
      hi[a] = ac->hi[r][a];
    }
    lo[2] = PetscMax(lo[2], ac->zedge[0]);
    hi[2] = PetscMin(hi[2], ac->zedge[1]);
    while (w > 1 && w / 2 >= nvx && size % (w / 2) == 0) w /= 2;
    AcousticRegionTiles(ac, r, lo, hi, w, t);
    if (!t[0]) continue;
    for (PetscInt a = 0; a < 3; a++) {
      e[a]     = (cl_int)lo[a];
      e[3 + a] = (cl_int)hi[a];
    }
    e[6] = (cl_int)t[0];
    e[7] = (cl_int)t[1];
    e[8] = (cl_int)start;
    start += t[0] * t[1] * t[2];
    e[9]  = (cl_int)start;
    e[10] = (cl_int)w;
    n++;
  }
  PetscCheck((double)start * ac->kpmltile[0] * ac->kpmltile[1] < 4294967295.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "The PML launch of %" PetscInt_FMT " work-groups is too large", start);
  if (!ac->dtab) PetscCall(SbpmgCLCreateBuffer(ac->cl, CL_MEM_READ_ONLY, sizeof(tab), &ac->dtab));
  if (n) PetscCall(SbpmgCLWriteBuffer(ac->cl, ac->dtab, 0, sizeof(cl_int) * 11 * n, tab));
  ac->ngroups = start;
  ac->ntab    = n;
  PetscFunctionReturn(0);
}

/* ac_pair's work-group: at least one tile vector and one tile row inside the ring of 4 points, within the device's limit. Its
   local memory, 32 bytes per work-item at most, then fits the devices we run on (32 KiB of the H200's 48 at 1024 work-items,
   128 KiB of PoCL's 2 MiB at 4096); elsewhere the launch would fail with an OpenCL error. */
static PetscErrorCode AcousticCheckPairTile(Acoustic ac, const PetscInt t[3], PetscInt vec)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)ac);

  PetscFunctionBegin;
  PetscCheck(t[0] > 2 * (4 / vec), comm, PETSC_ERR_ARG_OUTOFRANGE,
             "-ac_pair_tile_x %" PetscInt_FMT " must exceed the ring of 4 points on each side: %" PetscInt_FMT " work-items at -ac_vec %" PetscInt_FMT, t[0],
             2 * (4 / vec), vec);
  PetscCheck(t[1] > 8, comm, PETSC_ERR_ARG_OUTOFRANGE, "-ac_pair_tile_y %" PetscInt_FMT " must exceed the ring of 4 rows on each side (8)", t[1]);
  PetscCheck((size_t)(t[0] * t[1]) <= ac->cl->max_work_group_size, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "Two-step tile -ac_pair_tile_x %" PetscInt_FMT " x -ac_pair_tile_y %" PetscInt_FMT " = %" PetscInt_FMT
             " work-items exceeds the work-group limit %zu of %s",
             t[0], t[1], t[0] * t[1], ac->cl->max_work_group_size, ac->cl->device_name);
  PetscFunctionReturn(0);
}

/* The compiled kernel may allow fewer work-items than the device (its registers). */
static PetscErrorCode AcousticCheckPairKernel(Acoustic ac, cl_kernel k, const PetscInt t[3])
{
  size_t wg;

  PetscFunctionBegin;
  PetscCallCL(clGetKernelWorkGroupInfo(k, ac->cl->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL));
  PetscCheck((size_t)(t[0] * t[1]) <= wg, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
             "Two-step tile -ac_pair_tile_x %" PetscInt_FMT " x -ac_pair_tile_y %" PetscInt_FMT " = %" PetscInt_FMT
             " work-items exceeds the %zu the compiled ac_pair kernel allows on %s",
             t[0], t[1], t[0] * t[1], wg, ac->cl->device_name);
  PetscFunctionReturn(0);
}

/* The two extra fields of the two-step passes, zero (their halo must be, and each pass writes every grid point); released when off. */
static PetscErrorCode AcousticSetUpPairFields(Acoustic ac, PetscBool pair)
{
  const size_t bytes = ac->npad * sizeof(float);
  const float  zero  = 0;

  PetscFunctionBegin;
  for (PetscInt f = 0; f < 2; f++) {
    if (pair && !ac->dspare[f]) {
      PetscCall(SbpmgCLCreateBuffer(ac->cl, CL_MEM_READ_WRITE, bytes, &ac->dspare[f]));
      PetscCall(SbpmgCLFillBuffer(ac->cl, ac->dspare[f], &zero, sizeof(float), 0, bytes));
    }
    if (!pair) PetscCall(SbpmgCLReleaseBuffer(ac->cl, &ac->dspare[f]));
  }
  PetscFunctionReturn(0);
}

/* Resolve the tile (defaults by device kind), check it against the device, and build the kernels. */
PetscErrorCode AcousticSetUpKernels_Private(Acoustic ac)
{
  PetscBool       gpu;
  const PetscInt *dt, *dp;
  PetscInt        tx, ty, tz, vec, ptx, pty, ptz, pvec;
  const PetscInt *dm;
  PetscBool       local, rows, fused, merge, pair;
  PetscInt        prt[3];
  MPI_Comm        comm = PetscObjectComm((PetscObject)ac);
  char            opts[400];
  PetscInt        pf[2], ur[2];

  PetscFunctionBegin;
  PetscCall(SbpmgCLIsGPU(ac->cl, &gpu));
  for (PetscInt r = 0; r < 2; r++) {
    pf[r] = ac->prefetch[r] >= 0 ? ac->prefetch[r] : (gpu ? AcDefaultPrefetchGPU : AcDefaultPrefetchCPU)[r];
    ur[r] = ac->unroll[r] > 0 ? ac->unroll[r] : (gpu ? AcDefaultUnrollGPU : AcDefaultUnrollCPU)[r];
  }
  dt    = gpu ? AcDefaultTileGPU : AcDefaultTileCPU;
  dp    = gpu ? AcDefaultPMLTileGPU : AcDefaultPMLTileCPU;
  tx    = ac->tile[0] > 0 ? ac->tile[0] : dt[0];
  ty    = ac->tile[1] > 0 ? ac->tile[1] : dt[1];
  tz    = ac->tile[2] >= 0 ? ac->tile[2] : dt[2];
  local = ac->tileset ? ac->localmem : (PetscBool)dt[3];
  vec   = ac->vec > 0 ? ac->vec : dt[4];
  ptx   = ac->pmltile[0] > 0 ? ac->pmltile[0] : dp[0];
  pty   = ac->pmltile[1] > 0 ? ac->pmltile[1] : dp[1];
  ptz   = ac->pmltile[2] >= 0 ? ac->pmltile[2] : dp[2];
  pvec  = ac->pmlvec > 0 ? ac->pmlvec : dp[3];
  dm    = gpu ? AcDefaultModeGPU : AcDefaultModeCPU;
  rows  = (PetscBool)(ac->rows >= 0 ? ac->rows : dm[0]);
  fused = (PetscBool)(ac->fused >= 0 ? ac->fused : (local || ac->pair > 0 ? 0 : dm[1])); /* an explicit -ac_local_mem or -ac_two_steps: the region kernels */
  merge = (PetscBool)(ac->pmlmerge >= 0 ? ac->pmlmerge : dm[2]);
  if (rows) fused = merge = PETSC_FALSE;
  PetscCheck(!fused || !local, comm, PETSC_ERR_ARG_INCOMP, "-ac_fused takes x/y neighbours from the cache: it cannot be combined with -ac_local_mem");
  PetscCheck(ac->pair <= 0 || (!fused && !rows), comm, PETSC_ERR_ARG_INCOMP,
             "-ac_two_steps runs the inner region apart from the PML regions with the 2.5D kernels: it cannot be combined with %s",
             fused ? "-ac_fused" : "-ac_rows");
  PetscCheck((size_t)(tx * ty) <= ac->cl->max_work_group_size, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "Inner tile -ac_tile_x %" PetscInt_FMT " x -ac_tile_y %" PetscInt_FMT " = %" PetscInt_FMT " work-items exceeds the work-group limit %zu of %s", tx,
             ty, tx * ty, ac->cl->max_work_group_size, ac->cl->device_name);
  PetscCheck((size_t)(ptx * pty) <= ac->cl->max_work_group_size, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "PML tile -ac_pml_tile_x %" PetscInt_FMT " x -ac_pml_tile_y %" PetscInt_FMT " exceeds the work-group limit %zu of %s", ptx, pty,
             ac->cl->max_work_group_size, ac->cl->device_name);
  if (local && !rows && !fused) {
    const size_t lbytes = (size_t)(ty + 8) * (size_t)(tx + 2 * (4 / vec)) * vec * sizeof(float);
    PetscCheck(ty >= 4 && tx * vec >= 4, comm, PETSC_ERR_ARG_OUTOFRANGE,
               "-ac_local_mem needs a tile of at least 4 points on each axis (-ac_tile_y %" PetscInt_FMT " >= 4, -ac_tile_x * -ac_vec = %" PetscInt_FMT
               " >= 4)",
               ty, tx * vec);
    PetscCheck(lbytes <= ac->cl->local_mem, comm, PETSC_ERR_ARG_OUTOFRANGE, "The local tile of %zu bytes exceeds the %llu bytes of local memory of %s", lbytes,
               (unsigned long long)ac->cl->local_mem, ac->cl->device_name);
  }
  PetscCheck(ac->pair <= 0 || ac->pmlqueue <= 0, comm, PETSC_ERR_ARG_INCOMP,
             "-ac_two_steps orders its passes in one queue: it cannot be combined with -ac_pml_queue");
  pair = (PetscBool)((ac->pair >= 0 ? ac->pair : (gpu ? AcDefaultPairGPU : AcDefaultPairCPU)) && ac->size == 1 && !rows && !fused &&
                     !(ac->pmlqueue > 0 || (ac->pmlqueue < 0 && gpu && AcDefaultPMLQueueGPU)));
  if (ac->pair > 0 && ac->size > 1)
    PetscCall(PetscInfo(ac, "-ac_two_steps ignored on %d ranks: the slabs exchange their halo planes after every step\n", (int)ac->size));
  for (PetscInt d = 0; d < 3; d++) prt[d] = ac->pairtile[d] >= 0 ? ac->pairtile[d] : (gpu ? AcDefaultPairTileGPU : AcDefaultPairTileCPU)[d];
  if (pair) PetscCall(AcousticCheckPairTile(ac, prt, vec));
  PetscCall(
      PetscSNPrintf(opts, sizeof(opts),
                    "-cl-denorms-are-zero -DTILE_X=%d -DTILE_Y=%d -DTILE_Z=%d -DAC_LOCAL=%d -DAC_VEC=%d -DPML_TX=%d -DPML_TY=%d -DPML_TZ=%d -DPML_VEC=%d "
                    "-DPR_TX=%d -DPR_TY=%d -DPR_TZ=%d -DAC_FTZ=%d -DAC_FASTDIV=%d -DAC_PF=%d -DPML_PF=%d -DAC_PF_PTX=%d -DAC_UNROLL=%d -DPML_UNROLL=%d %s",
                    (int)tx, (int)ty, (int)tz, (int)local, (int)vec, (int)ptx, (int)pty, (int)ptz, (int)pvec, (int)prt[0], (int)prt[1], (int)prt[2],
                    gpu ? 0 : 1, (int)(ac->fastdiv >= 0 ? ac->fastdiv : (gpu ? AcDefaultFastDivGPU : AcDefaultFastDivCPU)), (int)pf[0], (int)pf[1],
                    strstr(ac->cl->platform_name, "NVIDIA") ? 1 : 0, (int)ur[0], (int)ur[1], ac->clopts));
  if (fused) PetscCall(SbpmgCLGetKernel(ac->cl, "acoustic25", opts, "ac_whole", &ac->kwhole));
  if (merge) PetscCall(SbpmgCLGetKernel(ac->cl, "acoustic25", opts, "ac_pml_all", &ac->kpmlall));
  PetscCall(SbpmgCLGetKernel(ac->cl, "acoustic25", opts, rows ? "ac_inner_rows" : "ac_inner", &ac->kinner));
  PetscCall(SbpmgCLGetKernel(ac->cl, "acoustic25", opts, rows ? "ac_pml_rows" : "ac_pml", &ac->kpml));
  PetscCall(SbpmgCLGetKernel(ac->cl, "acoustic25", opts, "ac_source", &ac->ksrc));
  ac->kpair = ac->kpmlout = ac->kpmlallout = NULL;
  if (pair) {
    cl_kernel k;
    char      outopts[sizeof(opts) + 16];

    PetscCall(SbpmgCLGetKernel(ac->cl, "acoustic25", opts, "ac_pair", &k));
    PetscCall(AcousticCheckPairKernel(ac, k, prt));
    ac->kpair = k;
    PetscCall(PetscSNPrintf(outopts, sizeof(outopts), "%s -DAC_PML_OUT=1", opts));
    PetscCall(SbpmgCLGetKernel(ac->cl, "acoustic25", outopts, "ac_pml", &ac->kpmlout));
    if (merge) PetscCall(SbpmgCLGetKernel(ac->cl, "acoustic25", outopts, "ac_pml_all", &ac->kpmlallout));
  }
  PetscCall(AcousticSetUpPairFields(ac, pair));
  for (PetscInt d = 0; d < 3; d++) ac->kpairtile[d] = prt[d];
  PetscCall(PetscStrncpy(ac->kopts, opts, sizeof(ac->kopts)));
  ac->ktile[0]    = tx;
  ac->ktile[1]    = ty;
  ac->ktile[2]    = tz;
  ac->kvec        = vec;
  ac->klocal      = local;
  ac->krows       = rows;
  ac->kfused      = fused;
  ac->kpmlmerge   = merge;
  ac->kpmltile[0] = ptx;
  ac->kpmltile[1] = pty;
  ac->kpmltile[2] = ptz;
  ac->kpmlvec     = pvec;
  if (merge) PetscCall(AcousticSetUpPMLTable(ac));
  { /* a second queue for the PML launches: one rank (several ranks order their windows through the exchange), PML launches apart */
    PetscBool want = (PetscBool)((ac->pmlqueue >= 0 ? ac->pmlqueue : (gpu ? AcDefaultPMLQueueGPU : 0)) && ac->size == 1 && !rows && !fused && !pair);
    if (want && !ac->qpml) PetscCall(SbpmgCLCreateExtraQueue(ac->cl, &ac->qpml));
    if (!want) PetscCall(SbpmgCLReleaseExtraQueue(ac->cl, &ac->qpml));
  }
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetUp - Check the settings, compute the time step, the damping profiles and the layout, allocate the fields
   (on the device, or on the host for the reference backend) and initialise them.

   Collective

   Level: beginner
@*/
PetscErrorCode AcousticSetUp(Acoustic ac)
{
  PetscReal *velfield = NULL;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  if (ac->setupcalled) PetscFunctionReturn(0);
  PetscCall(AcousticCheckSizes(ac));
  PetscCall(AcousticSetUpDecomposition(ac));
  PetscCall(AcousticSetUpVelocity(ac, &velfield));
  /* time step: dt = 2 cfl / (sqrt(W) vmax) with W = |c0x + c0y + c0z| + 2 sum_{a, m >= 1} |c_m^a| */
  for (PetscInt a = 0; a < 3; a++) PetscCall(AcousticStencilWeights(ac->h[a], ac->coef[a]));
  ac->W = PetscAbsReal(ac->coef[0][0] + ac->coef[1][0] + ac->coef[2][0]);
  for (PetscInt a = 0; a < 3; a++)
    for (PetscInt m = 1; m <= 4; m++) ac->W += 2 * PetscAbsReal(ac->coef[a][m]);
  {
    const PetscReal vmax = PetscMax(ac->vmax, ac->velmax);
    ac->dt               = 2 * ac->cfl / (PetscSqrtReal(ac->W) * vmax);
    for (PetscInt a = 0; a < 3; a++) ac->eta0[a] = ac->ndamp ? ac->dt * 3.0 * vmax * PetscLogReal(1000.0) / (2.0 * ac->ndamp * ac->h[a]) : 0.0;
  }
  {
    /* the damped leapfrog recurrence at a PML corner grows once e = eta dt (summed over the three axes) exceeds 2 + 2 sqrt(2)
       (docs/acoustic.md): the thinnest layers damp too hard per step */
    const PetscReal e = ac->eta0[0] + ac->eta0[1] + ac->eta0[2], emax = 2 + 2 * PETSC_SQRT2;
    if (ac->ndamp > 0 && e > emax) {
      PetscCall(PetscFree(velfield));
      SETERRQ(PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
              "PML width -ac_ndamp %" PetscInt_FMT " is too thin: the damping at the PML corners, eta dt = %.3f, exceeds %.3f (= 2 + 2 sqrt(2)), beyond which "
              "the leapfrog PML update grows; use a wider layer (or -ac_ndamp 0)",
              ac->ndamp, (double)e, (double)emax);
    }
  }
  {
    PetscErrorCode ierr = AcousticSetUpLayout(ac);
    if (ierr) PetscCall(PetscFree(velfield));
    PetscCall(ierr);
  }
  ac->ecount  = ac->n[0] + ac->n[1] + ac->n[2] + 3 * 18;
  ac->eoff[0] = 9;
  ac->eoff[1] = ac->n[0] + 18 + 9;
  ac->eoff[2] = ac->n[0] + ac->n[1] + 36 + 9;
  ac->step    = 0;
  {
    PetscErrorCode ierr = ac->backend == ACOUSTIC_BACKEND_HOST ? AcousticSetUpHost(ac, velfield) : AcousticSetUpDevice(ac, velfield);
    PetscCall(PetscFree(velfield));
    PetscCall(ierr);
  }
  ac->setupcalled = PETSC_TRUE;
  if (ac->view) PetscCall(AcousticView(ac, PETSC_VIEWER_STDOUT_(PetscObjectComm((PetscObject)ac))));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- fields */

#define AcousticCheckSetUp(ac) PetscCheck((ac)->setupcalled, PetscObjectComm((PetscObject)(ac)), PETSC_ERR_ARG_WRONGSTATE, "Call AcousticSetUp() first")

/*@C
   AcousticSetFields - Set u^0 and u^{-1} from host arrays of nx*ny*nz values, x fastest (NULL: zero); phi is zeroed and
   the step counter reset to 0. On several ranks every rank passes the whole grid: each copies its slab and the 4 halo
   planes on each side (so no exchange is needed).

   Collective

   Level: intermediate
@*/
PetscErrorCode AcousticSetFields(Acoustic ac, const PetscReal u[], const PetscReal uprev[])
{
  const PetscReal *src[2] = {u, uprev};
  const PetscInt   nx = ac->n[0], ny = ac->n[1];
  PetscInt         klo, khi;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  klo = PetscMax(-4, -ac->zs); /* the slab and its halo planes inside the grid */
  khi = PetscMin(ac->nl[2] + 4, ac->n[2] - ac->zs);
  if (ac->backend == ACOUSTIC_BACKEND_HOST) {
    PetscReal *dst[2] = {ac->hu, ac->hv};
    for (PetscInt f = 0; f < 2; f++)
      for (PetscInt k = klo; k < khi; k++)
        for (PetscInt j = 0; j < ny; j++)
          for (PetscInt i = 0; i < nx; i++) dst[f][AcIndex(ac, i, j, k)] = src[f] ? src[f][i + nx * (j + ny * (k + ac->zs))] : 0.0;
    PetscCall(PetscArrayzero(ac->hphi, ac->npad));
  } else {
    float      *buf;
    cl_mem      dst[2] = {ac->du, ac->dv};
    const float zero   = 0;

    PetscCall(PetscCalloc1(ac->npad, &buf));
    for (PetscInt f = 0; f < 2; f++) {
      for (PetscInt k = klo; k < khi; k++)
        for (PetscInt j = 0; j < ny; j++)
          for (PetscInt i = 0; i < nx; i++) buf[AcIndex(ac, i, j, k)] = src[f] ? (float)src[f][i + nx * (j + ny * (k + ac->zs))] : 0.0f;
      PetscCall(SbpmgCLWriteBuffer(ac->cl, dst[f], 0, ac->npad * sizeof(float), buf));
    }
    PetscCall(PetscFree(buf));
    PetscCall(SbpmgCLFillBuffer(ac->cl, ac->dphi, &zero, sizeof(float), 0, ac->npad * sizeof(float)));
  }
  ac->step = 0;
  PetscFunctionReturn(0);
}

static PetscErrorCode AcousticFieldBuffer(Acoustic ac, AcousticField f, cl_mem *d, PetscReal **h)
{
  PetscFunctionBegin;
  switch (f) {
  case ACOUSTIC_FIELD_U:
    *d = ac->du;
    *h = ac->hu;
    break;
  case ACOUSTIC_FIELD_UPREV:
    *d = ac->dv;
    *h = ac->hv;
    break;
  case ACOUSTIC_FIELD_PHI:
    *d = ac->dphi;
    *h = ac->hphi;
    break;
  case ACOUSTIC_FIELD_VP:
    *d = ac->dvp;
    *h = ac->hvp;
    break;
  default:
    SETERRQ(PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "Unknown acoustic field %d", (int)f);
  }
  PetscFunctionReturn(0);
}

/* This rank's slab of a field: nx*ny*nl[2] values, x fastest (one device-to-host transfer). */
PetscErrorCode AcousticGetLocalField_Private(Acoustic ac, AcousticField f, PetscReal out[])
{
  cl_mem         d  = NULL;
  PetscReal     *h  = NULL;
  const PetscInt nx = ac->n[0], ny = ac->n[1], nz = ac->nl[2];

  PetscFunctionBegin;
  AcousticCheckSetUp(ac);
  PetscCall(AcousticFieldBuffer(ac, f, &d, &h));
  if (ac->backend == ACOUSTIC_BACKEND_HOST) {
    for (PetscInt k = 0; k < nz; k++)
      for (PetscInt j = 0; j < ny; j++)
        for (PetscInt i = 0; i < nx; i++) out[i + nx * (j + ny * k)] = h[AcIndex(ac, i, j, k)];
  } else {
    float *buf;
    PetscCall(PetscMalloc1(ac->npad, &buf));
    PetscCall(SbpmgCLReadBuffer(ac->cl, d, 0, ac->npad * sizeof(float), buf));
    for (PetscInt k = 0; k < nz; k++)
      for (PetscInt j = 0; j < ny; j++)
        for (PetscInt i = 0; i < nx; i++) out[i + nx * (j + ny * k)] = buf[AcIndex(ac, i, j, k)];
    PetscCall(PetscFree(buf));
  }
  PetscFunctionReturn(0);
}

/*@C
   AcousticGetField - Copy a field's grid points (nx*ny*nz values, x fastest) to a host array: one device-to-host
   transfer per rank. On several ranks the slabs are gathered on rank 0; out may be NULL on the other ranks.

   Collective

   Level: intermediate
@*/
PetscErrorCode AcousticGetField(Acoustic ac, AcousticField f, PetscReal out[])
{
  MPI_Comm comm = PetscObjectComm((PetscObject)ac);

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  if (ac->size == 1)
    PetscCall(AcousticGetLocalField_Private(ac, f, out));
  else {
    const PetscInt nxy = ac->n[0] * ac->n[1];
    PetscReal     *mine;
    PetscMPIInt   *counts = NULL, *displs = NULL, nmine;

    PetscCheck(ac->rank || out, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "AcousticGetField() needs an array of nx*ny*nz values on rank 0");
    PetscCall(PetscMalloc1(nxy * ac->nl[2], &mine));
    PetscCall(AcousticGetLocalField_Private(ac, f, mine));
    PetscCall(PetscMPIIntCast(nxy * ac->nl[2], &nmine));
    if (!ac->rank) {
      PetscCall(PetscMalloc2(ac->size, &counts, ac->size, &displs));
      for (PetscMPIInt r = 0; r < ac->size; r++) {
        PetscCall(PetscMPIIntCast(nxy * (ac->zstart[r + 1] - ac->zstart[r]), &counts[r]));
        PetscCall(PetscMPIIntCast(nxy * ac->zstart[r], &displs[r]));
      }
    }
    PetscCallMPI(MPI_Gatherv(mine, nmine, MPIU_REAL, out, counts, displs, MPIU_REAL, 0, comm));
    if (!ac->rank) PetscCall(PetscFree2(counts, displs));
    PetscCall(PetscFree(mine));
  }
  PetscFunctionReturn(0);
}

/* Plane k (global) of a field, nx*ny values, x fastest: one transfer of the padded plane on the rank that owns it, sent
   to rank 0 on several ranks (out may be NULL on the other ranks). Collective. */
PetscErrorCode AcousticGetPlane(Acoustic ac, AcousticField f, PetscInt k, PetscReal out[])
{
  cl_mem         d = NULL;
  PetscReal     *h = NULL, *plane = out;
  PetscMPIInt    owner = 0, nplane;
  const PetscInt nxy   = ac->n[0] * ac->n[1];
  MPI_Comm       comm  = PetscObjectComm((PetscObject)ac);

  PetscFunctionBegin;
  AcousticCheckSetUp(ac);
  PetscCheck(k >= 0 && k < ac->n[2], comm, PETSC_ERR_ARG_OUTOFRANGE, "Plane %" PetscInt_FMT " is outside [0, %" PetscInt_FMT ")", k, ac->n[2]);
  PetscCall(AcousticFieldBuffer(ac, f, &d, &h));
  while (k >= ac->zstart[owner + 1]) owner++;
  PetscCall(PetscMPIIntCast(nxy, &nplane));
  if (ac->rank == owner) {
    const PetscInt kl = k - ac->zs;

    if (ac->rank) PetscCall(PetscMalloc1(nxy, &plane));
    if (ac->backend == ACOUSTIC_BACKEND_HOST) {
      for (PetscInt j = 0; j < ac->n[1]; j++)
        for (PetscInt i = 0; i < ac->n[0]; i++) plane[i + ac->n[0] * j] = h[AcIndex(ac, i, j, kl)];
    } else {
      float       *buf;
      const size_t start = (size_t)(kl + 4) * ac->pxy;

      PetscCall(PetscMalloc1(ac->pxy, &buf));
      PetscCall(SbpmgCLReadBuffer(ac->cl, d, start * sizeof(float), ac->pxy * sizeof(float), buf));
      for (PetscInt j = 0; j < ac->n[1]; j++)
        for (PetscInt i = 0; i < ac->n[0]; i++) plane[i + ac->n[0] * j] = buf[AcIndex(ac, i, j, kl) - start];
      PetscCall(PetscFree(buf));
    }
    if (ac->rank) {
      PetscCallMPI(MPI_Send(plane, nplane, MPIU_REAL, 0, ac->tag, comm));
      PetscCall(PetscFree(plane));
    }
  }
  if (!ac->rank && owner) PetscCallMPI(MPI_Recv(out, nplane, MPIU_REAL, owner, ac->tag, comm, MPI_STATUS_IGNORE));
  PetscFunctionReturn(0);
}

/*@C
   AcousticGetValue - u^n at one grid point (a 4-byte transfer on the device backend, on the rank that owns the point;
   broadcast to every rank).

   Collective

   Level: intermediate
@*/
PetscErrorCode AcousticGetValue(Acoustic ac, PetscInt i, PetscInt j, PetscInt k, PetscReal *val)
{
  PetscMPIInt owner = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  PetscCheck(i >= 0 && j >= 0 && k >= 0 && i < ac->n[0] && j < ac->n[1] && k < ac->n[2], PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
             "Point (%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT ") is outside the grid", i, j, k);
  while (k >= ac->zstart[owner + 1]) owner++;
  if (ac->rank == owner) {
    const PetscInt kl = k - ac->zs;
    if (ac->backend == ACOUSTIC_BACKEND_HOST)
      *val = ac->hu[AcIndex(ac, i, j, kl)];
    else {
      float x;
      PetscCall(SbpmgCLReadBuffer(ac->cl, ac->du, (size_t)AcIndex(ac, i, j, kl) * sizeof(float), sizeof(float), &x));
      *val = x;
    }
  }
  if (ac->size > 1) PetscCallMPI(MPI_Bcast(val, 1, MPIU_REAL, owner, PetscObjectComm((PetscObject)ac)));
  PetscFunctionReturn(0);
}

/*@C
   AcousticGetNorms - max |u^n| and sum (u^n)^2 over the grid points (a reduction on the device; only the per-group
   partial results are transferred; on several ranks one MPI_Allreduce of the ranks' results, the same on every rank).

   Collective

   Level: intermediate
@*/
PetscErrorCode AcousticGetNorms(Acoustic ac, PetscReal *maxabs, PetscReal *energy)
{
  PetscReal m = 0, s = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  if (ac->backend == ACOUSTIC_BACKEND_HOST) {
    for (PetscInt k = 0; k < ac->nl[2]; k++)
      for (PetscInt j = 0; j < ac->n[1]; j++)
        for (PetscInt i = 0; i < ac->n[0]; i++) {
          const PetscReal x = ac->hu[AcIndex(ac, i, j, k)];
          m                 = PetscMax(m, PetscAbsReal(x));
          s += x * x;
        }
  } else {
    PetscBool  gpu;
    cl_kernel  k;
    cl_mem     part;
    cl_float2 *buf;
    const int  nx = (int)ac->n[0], ny = (int)ac->n[1], nz = (int)ac->nl[2], px = (int)ac->px, pxy = (int)ac->pxy, origin = (int)ac->origin;
    size_t     ls, ng;
    char       opts[64];

    PetscCall(SbpmgCLIsGPU(ac->cl, &gpu));
    ls = gpu ? 256 : 16;
    ng = PetscMin((size_t)ny * nz, gpu ? (size_t)4096 : (size_t)64);
    PetscCall(PetscSNPrintf(opts, sizeof(opts), "-DNORM_LS=%d", (int)ls));
    PetscCall(SbpmgCLGetKernel(ac->cl, "acoustic_util", opts, "ac_norms", &k));
    PetscCall(SbpmgCLCreateBuffer(ac->cl, CL_MEM_READ_WRITE, ng * sizeof(cl_float2), &part));
    PetscCall(SbpmgCLSetArgs(k, 0, 8, sizeof(int), &nx, sizeof(int), &ny, sizeof(int), &nz, sizeof(int), &px, sizeof(int), &pxy, sizeof(int), &origin,
                             sizeof(cl_mem), &ac->du, sizeof(cl_mem), &part));
    PetscCall(SbpmgCLLaunch1D(ac->cl, k, ng * ls, ls));
    PetscCall(PetscMalloc1(ng, &buf));
    PetscCall(SbpmgCLReadBuffer(ac->cl, part, 0, ng * sizeof(cl_float2), buf));
    for (size_t g = 0; g < ng; g++) {
      m = PetscMax(m, (PetscReal)buf[g].s[0]);
      s += buf[g].s[1];
    }
    PetscCall(PetscFree(buf));
    PetscCall(SbpmgCLReleaseBuffer(ac->cl, &part));
  }
  if (ac->size > 1) {
    MPI_Comm comm = PetscObjectComm((PetscObject)ac);
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &m, 1, MPIU_REAL, MPIU_MAX, comm));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPIU_REAL, MPIU_SUM, comm));
  }
  if (maxabs) *maxabs = m;
  if (energy) *energy = s;
  PetscFunctionReturn(0);
}

PetscErrorCode AcousticGetTimeStep(Acoustic ac, PetscReal *dt)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  *dt = ac->dt;
  PetscFunctionReturn(0);
}

PetscErrorCode AcousticGetStepNumber(Acoustic ac, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  *n = ac->step;
  PetscFunctionReturn(0);
}

PetscErrorCode AcousticGetTime(Acoustic ac, PetscReal *t)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  *t = ac->step * ac->dt;
  PetscFunctionReturn(0);
}

/*@C
   AcousticGetBytesPerStep - Device memory traffic of one step: this implementation's model (inner 16 B, or 10 B with two
   steps per pass, PML 24 B per point) and the spec's (inner 16 B, PML 28 B with a stored 3D eta).

   Level: advanced
@*/
PetscErrorCode AcousticGetBytesPerStep(Acoustic ac, PetscReal *actual, PetscReal *spec)
{
  PetscReal ninner = 1, ntotal = 1;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  for (PetscInt a = 0; a < 3; a++) { /* the whole grid, on any number of ranks */
    ninner *= (PetscReal)PetscMax(ac->n[a] - 2 * ac->ndamp, 0);
    ntotal *= (PetscReal)ac->n[a];
  }
  if (actual) *actual = ninner * (ac->kpair ? AC_BYTES_PAIR / 2 : AC_BYTES_INNER) + (ntotal - ninner) * AC_BYTES_PML;
  if (spec) *spec = ninner * AC_SPEC_BYTES_INNER + (ntotal - ninner) * AC_SPEC_BYTES_PML;
  PetscFunctionReturn(0);
}

/*@C
   AcousticView - Print the grid, the time step, the PML, the source, the backend and the kernel tile.

   Level: beginner
@*/
PetscErrorCode AcousticView(Acoustic ac, PetscViewer viewer)
{
  PetscBool isascii;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)ac), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(0);
  PetscCall(PetscObjectPrintClassNamePrefixType((PetscObject)ac, viewer));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer,
                                   "grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ", spacing %g x %g x %g m, PML width %" PetscInt_FMT "\n",
                                   ac->n[0], ac->n[1], ac->n[2], (double)ac->h[0], (double)ac->h[1], (double)ac->h[2], ac->ndamp));
  if (ac->velfile[0])
    PetscCall(PetscViewerASCIIPrintf(viewer, "velocity from %s", ac->velfile));
  else if (ac->velarray)
    PetscCall(PetscViewerASCIIPrintf(viewer, "velocity from an array"));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "velocity %g m/s", (double)ac->vel));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
  if (ac->setupcalled) PetscCall(PetscViewerASCIIPrintf(viewer, " (range %g .. %g)", (double)ac->velmin, (double)ac->velmax));
  PetscCall(PetscViewerASCIIPrintf(viewer, ", vmax %g m/s, cfl %g\n", (double)ac->vmax, (double)ac->cfl));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  if (ac->setupcalled) {
    PetscReal bytes, spec;
    PetscCall(AcousticGetBytesPerStep(ac, &bytes, &spec));
    PetscCall(PetscViewerASCIIPrintf(viewer, "dt %.6e s, W %.6e m^-2, damping eta0 dt %.4e, step %" PetscInt_FMT " (t = %g s)\n", (double)ac->dt, (double)ac->W,
                                     (double)ac->eta0[0], ac->step, (double)(ac->step * ac->dt)));
    PetscCall(PetscViewerASCIIPrintf(viewer, "source at (%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT "), Ricker peak %g Hz, amplitude %g\n",
                                     ac->src[0], ac->src[1], ac->src[2], (double)(ac->fmax / 2.5), (double)ac->amplitude));
    PetscCall(PetscViewerASCIIPrintf(viewer, "initial fields %s; bytes per step %.4e (%.2f B/point; the spec's model %.2f B/point)\n",
                                     AcousticInitTypes[ac->init], (double)bytes, (double)(bytes / ((PetscReal)ac->n[0] * ac->n[1] * ac->n[2])),
                                     (double)(spec / ((PetscReal)ac->n[0] * ac->n[1] * ac->n[2]))));
    if (ac->backend == ACOUSTIC_BACKEND_DEVICE) {
      PetscCall(PetscViewerASCIIPrintf(viewer, "backend device: %s, fp32, %.1f MiB%s; %s kernels %s\n", ac->cl->device_name,
                                       (double)((ac->kpair ? 6 : 4) * ac->npad * sizeof(float) + ac->ecount * sizeof(float)) / 1048576.0,
                                       ac->size > 1 ? " on rank 0" : "",
                                       ac->krows ? "row" : (ac->kfused ? "whole-grid 2.5D" : (ac->kpmlmerge ? "2.5D (PML merged)" : "2.5D")), ac->kopts));
      if (ac->qpml) PetscCall(PetscViewerASCIIPrintf(viewer, "PML launches in a second queue, concurrent with the inner region's (-ac_pml_queue)\n"));
      if (ac->kpair)
        PetscCall(PetscViewerASCIIPrintf(viewer,
                                         "two steps per pass over the inner region (-ac_two_steps): work-groups of %" PetscInt_FMT " x %" PetscInt_FMT
                                         ", %" PetscInt_FMT " planes; two more fields\n",
                                         ac->kpairtile[0], ac->kpairtile[1], ac->kpairtile[2]));
    } else
      PetscCall(PetscViewerASCIIPrintf(viewer, "backend host: fp64 reference loops\n"));
    if (ac->size > 1) {
      PetscInt mn = ac->n[2], mx = 0;
      for (PetscMPIInt r = 0; r < ac->size; r++) {
        mn = PetscMin(mn, ac->zstart[r + 1] - ac->zstart[r]);
        mx = PetscMax(mx, ac->zstart[r + 1] - ac->zstart[r]);
      }
      PetscCall(PetscViewerASCIIPrintf(viewer,
                                       "%d MPI ranks: slabs of %" PetscInt_FMT " to %" PetscInt_FMT " planes along z; per step each rank exchanges 4 planes "
                                       "(%.1f KiB) with each neighbour, %s\n",
                                       (int)ac->size, mn, mx,
                                       (double)(4 * ac->pxy * (ac->backend == ACOUSTIC_BACKEND_HOST ? sizeof(PetscReal) : sizeof(float))) / 1024.0,
                                       ac->backend == ACOUSTIC_BACKEND_HOST ? "after the step" : "overlapped with the computation of its other planes"));
    }
  } else
    PetscCall(PetscViewerASCIIPrintf(viewer, "backend %s (not set up)\n", AcousticBackends[ac->backend]));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

/*@C
   AcousticDestroy - Free the fields and release the device context.

   Level: beginner
@*/
PetscErrorCode AcousticDestroy(Acoustic *ac)
{
  PetscFunctionBegin;
  if (!*ac) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(*ac, ACOUSTIC_CLASSID, 1);
  if (--((PetscObject)(*ac))->refct > 0) {
    *ac = NULL;
    PetscFunctionReturn(0);
  }
  if ((*ac)->cl) {
    PetscCall(SbpmgCLReleaseExtraQueue((*ac)->cl, &(*ac)->qpml));
    PetscCall(SbpmgCLReleaseBuffer((*ac)->cl, &(*ac)->du));
    PetscCall(SbpmgCLReleaseBuffer((*ac)->cl, &(*ac)->dv));
    PetscCall(SbpmgCLReleaseBuffer((*ac)->cl, &(*ac)->dvp));
    PetscCall(SbpmgCLReleaseBuffer((*ac)->cl, &(*ac)->dphi));
    PetscCall(SbpmgCLReleaseBuffer((*ac)->cl, &(*ac)->deta));
    PetscCall(SbpmgCLReleaseBuffer((*ac)->cl, &(*ac)->dtab));
    PetscCall(SbpmgCLReleaseBuffer((*ac)->cl, &(*ac)->dspare[0]));
    PetscCall(SbpmgCLReleaseBuffer((*ac)->cl, &(*ac)->dspare[1]));
    {
      void *ptr = (*ac)->xbuf;
      PetscCall(SbpmgCLDestroyStaging((*ac)->cl, &(*ac)->xstage, &ptr));
      (*ac)->xbuf = NULL;
    }
    PetscCall(SbpmgCLDestroy(&(*ac)->cl));
  }
  PetscCall(PetscFree((*ac)->hu));
  PetscCall(PetscFree((*ac)->hv));
  PetscCall(PetscFree((*ac)->hvp));
  PetscCall(PetscFree((*ac)->hphi));
  PetscCall(PetscFree((*ac)->heta));
  PetscCall(PetscFree((*ac)->velarray));
  PetscCall(PetscFree((*ac)->zstart));
  PetscCall(PetscHeaderDestroy(ac));
  PetscFunctionReturn(0);
}
