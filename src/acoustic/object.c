/* The acoustic operator object: the package, creation, the settings and their setters, the view, destruction. */
#include <sbpmg/private/acousticimpl.h>

PetscClassId      ACOUSTIC_CLASSID;
PetscLogEvent     SBPMG_AcInner, SBPMG_AcPML, SBPMG_AcSource, SBPMG_AcReceivers;
static PetscBool  AcousticPackageInitialized = PETSC_FALSE;
const char *const AcousticInitTypes[]        = {"zero", "random", "AcousticInitType", "ACOUSTIC_INIT_", NULL};
const char *const AcousticBackends[]         = {"device", "host", "AcousticBackend", "ACOUSTIC_BACKEND_", NULL};

/*@C
   AcousticInitializePackage - Register the Acoustic class; called by AcousticCreate().

   Level: developer
@*/
PetscErrorCode AcousticInitializePackage(void)
{
  const SbpmgEventEntry events[] = {
      {"AcInner", &SBPMG_AcInner}, {"AcPML", &SBPMG_AcPML}, {"AcSource", &SBPMG_AcSource}, {"AcReceivers", &SBPMG_AcReceivers}, {NULL, NULL}};
  PetscBool first;

  PetscFunctionBegin;
  PetscCall(SbpmgVecInitializePackage());
  PetscCall(SbpmgPackageStart(&AcousticPackageInitialized, "Acoustic", &ACOUSTIC_CLASSID, events, &first));
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
    ac->n[a]   = 800;
    ac->h[a]   = 20.0;
    ac->src[a] = -1; /* the centre */
  }
  ac->ndamp       = 27;
  ac->cfl         = 0.8;
  ac->check_every = 100;
  ac->vel         = 2000.0;
  ac->vmax        = 4500.0;
  ac->fmax        = 25.0;
  ac->amplitude   = 1.0;
  ac->init        = ACOUSTIC_INIT_ZERO;
  ac->backend     = ACOUSTIC_BACKEND_DEVICE;
  ac->seed        = 1;
  ac->every       = 1;
  ac->snap_axis   = 2;
  ac->snap_index  = -1;
  ac->down        = -1;
  ac->up          = -1;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)ac), &ac->size));
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)ac), &ac->rank));
  *out = ac;
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetSizes - The number of grid points per axis (the PML shell is part of them).

   Options Database Keys:
.  -ac_n <n|nx,ny,nz> - the same count on every axis, or one per axis

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
.  -ac_dx <h|dx,dy,dz> - the same spacing on every axis, or one per axis

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
               "Grid spacing %g, %g, %g (-ac_dx) must be positive", (double)dx, (double)dy, (double)dz);
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
  {
    char str[32];
    PetscCall(AcRealString(cfl, str, sizeof(str))); /* all its digits: 1.0000001 is not "1." */
    PetscCheck(cfl > 0, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "CFL number %s (-ac_cfl) must be positive", str);
    PetscCheck(cfl <= 1, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
               "CFL number %s (-ac_cfl) is above the stability limit 1 of leapfrog with the 25-point stencil", str);
  }
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
  ac->nlayers    = 0;
  PetscCall(PetscFree(ac->velarray));
  PetscCall(PetscFree(ac->layers));
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
  ac->nlayers    = 0;
  PetscCall(PetscFree(ac->layers));
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
  PetscCall(PetscFree(ac->layers));
  ac->nlayers = 0;
  PetscCall(PetscStrncpy(ac->velfile, path, sizeof(ac->velfile)));
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetVelocityLayers - A layered model: nlayers layers stacked along z (depth), the first from z = 0 down to
   interfaces[0], the last from interfaces[nlayers - 2] down; a grid plane at or below an interface takes the velocity under
   it (put an interface half-way between planes for a sharp contact). The time step follows the largest velocity.

   Input Parameters:
+  ac         - the object
.  nlayers    - at least 1
.  velocities - nlayers velocities (m/s), positive and finite
-  interfaces - nlayers - 1 depths (m), increasing (NULL for one layer)

   Options Database Key:
.  -ac_layers <v0,z1,v1,z2,v2,...> - velocities and the interface depths between them, e.g. 1500,400,2500,800,3500

   Level: intermediate

.seealso: `AcousticSetVelocity()`, `AcousticSetVelocityFile()`
@*/
PetscErrorCode AcousticSetVelocityLayers(Acoustic ac, PetscInt nlayers, const PetscReal velocities[], const PetscReal interfaces[])
{
  MPI_Comm comm = PetscObjectComm((PetscObject)ac);

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetVelocityLayers()");
  PetscCheck(nlayers >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "A layered model needs at least 1 layer, got %" PetscInt_FMT, nlayers);
  for (PetscInt l = 0; l < nlayers; l++) {
    if (!(velocities[l] > 0 && PetscIsNormalReal(velocities[l]))) {
      char str[32];
      PetscCall(AcRealString(velocities[l], str, sizeof(str)));
      SETERRQ(comm, PETSC_ERR_ARG_OUTOFRANGE, "Velocity %s of layer %" PetscInt_FMT " (-ac_layers) must be positive and finite", str, l);
    }
  }
  for (PetscInt l = 0; l + 1 < nlayers; l++)
    PetscCheck(!PetscIsInfOrNanReal(interfaces[l]), comm, PETSC_ERR_ARG_OUTOFRANGE,
               "Interface %" PetscInt_FMT " of the layered model (-ac_layers) must be finite", l);
  for (PetscInt l = 1; l + 1 < nlayers; l++) {
    if (!(interfaces[l] > interfaces[l - 1])) {
      char a[32], b[32];
      PetscCall(AcRealString(interfaces[l], a, sizeof(a)));
      PetscCall(AcRealString(interfaces[l - 1], b, sizeof(b)));
      SETERRQ(comm, PETSC_ERR_ARG_OUTOFRANGE, "Interfaces of the layered model (-ac_layers) must increase with depth: %s m after %s m", a, b);
    }
  }
  PetscCall(PetscFree(ac->layers));
  PetscCall(PetscMalloc1(2 * nlayers - 1, &ac->layers));
  PetscCall(PetscArraycpy(ac->layers, velocities, nlayers));
  if (nlayers > 1) PetscCall(PetscArraycpy(ac->layers + nlayers, interfaces, nlayers - 1));
  ac->nlayers    = nlayers;
  ac->velfile[0] = 0;
  PetscCall(PetscFree(ac->velarray));
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
  PetscCheck(vmax >= 0 && !PetscIsInfOrNanReal(vmax), PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
             "Maximum velocity %g (-ac_vmax) must be >= 0 and finite", (double)vmax);
  ac->vmax = vmax;
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetSource - The grid point of the point source (0-based; default: the centre), with the wavelet of
   AcousticSetSourceWavelet(); used when no source is added with AcousticAddSource() or AcousticSetSourcesFile().

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
  if (!(fmax > 0 && !PetscIsInfOrNanReal(fmax))) {
    char str[32];
    PetscCall(AcRealString(fmax, str, sizeof(str)));
    SETERRQ(PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "Source frequency -ac_fmax %s must be positive and finite", str);
  }
  PetscCheck(!PetscIsInfOrNanReal(amplitude), PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "Source amplitude -ac_amplitude %g must be finite",
             (double)amplitude);
  ac->fmax      = fmax;
  ac->amplitude = amplitude;
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetCheckInterval - Check every k steps (of the step count) that the wave field is finite, AcousticCheckFinite(): one
   reduction, an error naming the step when the model blew up (0: never).

   Options Database Key:
.  -ac_check_every <k> - default 100

   Level: intermediate
@*/
PetscErrorCode AcousticSetCheckInterval(Acoustic ac, PetscInt k)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  PetscCheck(k >= 0, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "Check interval -ac_check_every %" PetscInt_FMT " must be >= 0", k);
  ac->check_every = k;
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

/* Overrides of the context's tuning for this object ("key=value,...", the keys of -sbpmg_tune; NULL or "": none), so that
   tests can run the kernel variants side by side: applied when the kernels are set up, at once after AcousticSetUp() (the
   kernels are rebuilt). A bad key or value is an error here. */
PetscErrorCode AcousticSetTuning_Private(Acoustic ac, const char overrides[])
{
  SbpmgTuning check;
  size_t      len;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  PetscCall(PetscStrlen(overrides, &len));
  PetscCheck(len < sizeof(ac->tuneopts), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Tuning overrides of %zu characters: at most %zu", len, sizeof(ac->tuneopts) - 1);
  PetscCall(PetscMemzero(&check, sizeof(check)));
  PetscCall(SbpmgTuningParse(overrides, &check));
  PetscCall(PetscStrncpy(ac->tuneopts, len ? overrides : "", sizeof(ac->tuneopts)));
  if (ac->setupcalled && ac->backend == ACOUSTIC_BACKEND_DEVICE) PetscCall(AcousticSetUpKernels_Private(ac));
  PetscFunctionReturn(0);
}

/*@C
   AcousticView - Print the grid, the velocity, the time step, the PML, the sources, the receivers, the backend and the
   kernels.

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
  if (ac->nlayers)
    PetscCall(PetscViewerASCIIPrintf(viewer, "velocity: %" PetscInt_FMT " layers", ac->nlayers));
  else if (ac->velfile[0])
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
    if (ac->nsrclist)
      PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt_FMT " point sources (the first at (%g, %g, %g) m), ", ac->nsrclist, (double)ac->srclist[0].x[0],
                                       (double)ac->srclist[0].x[1], (double)ac->srclist[0].x[2]));
    else
      PetscCall(PetscViewerASCIIPrintf(viewer, "source at (%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT "), amplitude %g, ", ac->src[0], ac->src[1],
                                       ac->src[2], (double)ac->amplitude));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
    if (ac->nwavelet)
      PetscCall(PetscViewerASCIIPrintf(viewer, "a wavelet of %" PetscInt_FMT " samples\n", ac->nwavelet));
    else
      PetscCall(PetscViewerASCIIPrintf(viewer, "Ricker peak %g Hz\n", (double)(ac->fmax / 2.5)));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
    if (ac->sv.nrectotal)
      PetscCall(PetscViewerASCIIPrintf(viewer,
                                       "%" PetscInt_FMT " receivers, a trace sample every %" PetscInt_FMT " steps (%.4e s), %" PetscInt_FMT " samples so far\n",
                                       ac->sv.nrectotal, ac->every, (double)(ac->every * ac->dt), ac->sv.nsamples));
    PetscCall(PetscViewerASCIIPrintf(viewer, "initial fields %s; bytes per step %.4e (%.2f B/point; the spec's model %.2f B/point)\n",
                                     AcousticInitTypes[ac->init], (double)bytes, (double)(bytes / ((PetscReal)ac->n[0] * ac->n[1] * ac->n[2])),
                                     (double)(spec / ((PetscReal)ac->n[0] * ac->n[1] * ac->n[2]))));
    if (ac->backend == ACOUSTIC_BACKEND_DEVICE) {
      PetscCall(PetscViewerASCIIPrintf(viewer, "backend device: %s, fp32, %.1f MiB%s; %s kernels %s\n", ac->cl->device_name,
                                       (double)(4 * ac->npad * sizeof(float) + ac->ecount * sizeof(float)) / 1048576.0, ac->size > 1 ? " on rank 0" : "",
                                       ac->tune.ac_fused ? "whole-grid 2.5D" : (ac->tune.ac_pml_merge ? "2.5D (PML merged)" : "2.5D"), ac->kopts));
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
  PetscCall(AcousticDestroySurvey_Private(*ac));
  if ((*ac)->cl) {
    PetscCall(SbpmgCLReleaseBuffer((*ac)->cl, &(*ac)->du));
    PetscCall(SbpmgCLReleaseBuffer((*ac)->cl, &(*ac)->dv));
    PetscCall(SbpmgCLReleaseBuffer((*ac)->cl, &(*ac)->dvp));
    PetscCall(SbpmgCLReleaseBuffer((*ac)->cl, &(*ac)->dphi));
    PetscCall(SbpmgCLReleaseBuffer((*ac)->cl, &(*ac)->deta));
    PetscCall(SbpmgCLReleaseBuffer((*ac)->cl, &(*ac)->dtab));
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
  PetscCall(PetscFree((*ac)->srclist));
  PetscCall(PetscFree((*ac)->wavelet));
  PetscCall(PetscFree((*ac)->recpos));
  PetscCall(PetscFree((*ac)->layers));
  PetscCall(PetscHeaderDestroy(ac));
  PetscFunctionReturn(0);
}
