/* The options of the acoustic operator (-ac_*): the physics and the user's choices. The kernels' shapes are not options:
   they come from the tuning table (include/sbpmg/private/tuning.h, keys ac_*; -sbpmg_tune for measurements). */
#include <sbpmg/private/acousticimpl.h>

/* An enum option's value, checked before the options block reads it with PetscOptionsEnum(): PETSc 3.18's
   PetscOptionsGetEList() leaks its copy of the choices when the value is unknown (-malloc_dump reports it), so an unknown
   value is refused here first, with PETSc's code and text. */
static PetscErrorCode AcousticCheckEnumOption(Acoustic ac, const char name[], const char *const list[])
{
  const char *prefix;
  char        value[64], choices[256] = "";
  PetscBool   set, found;
  PetscEnum   index;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)ac, &prefix));
  PetscCall(PetscOptionsGetString(((PetscObject)ac)->options, prefix, name, value, sizeof(value), &set));
  if (!set) PetscFunctionReturn(0);
  PetscCall(PetscEnumFind(list, value, &index, &found));
  if (found) PetscFunctionReturn(0);
  for (PetscInt c = 0; list[c + 2]; c++) { /* the choices, then the type name, the prefix and NULL */
    PetscCall(PetscStrlcat(choices, list[c], sizeof(choices)));
    PetscCall(PetscStrlcat(choices, " ", sizeof(choices)));
  }
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_USER, "Unknown option %s for -%s%s. Available options: %s", value, prefix ? prefix : "", name + 1, choices);
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
-  -ac_view                           - view the object after set-up

   Level: beginner
@*/
PetscErrorCode AcousticSetFromOptions(Acoustic ac)
{
  PetscInt n = ac->n[0], nx = ac->n[0], ny = ac->n[1], nz = ac->n[2], ndamp = ac->ndamp, src[3] = {ac->src[0], ac->src[1], ac->src[2]}, nsrc = 3,
           seed       = ac->seed;
  PetscReal        dx = ac->h[0], dy = ac->h[1], dz = ac->h[2], cfl = ac->cfl, vmax = ac->vmax, fmax = ac->fmax, amp = ac->amplitude;
  PetscBool        nset, nxset, nyset, nzset, dyset, dzset, velset, srcset, initset, backset;
  AcousticInitType init    = ac->init;
  AcousticBackend  backend = ac->backend;
  char             vel[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  PetscCall(AcousticCheckEnumOption(ac, "-ac_init", AcousticInitTypes));
  PetscCall(AcousticCheckEnumOption(ac, "-ac_backend", AcousticBackends));
  PetscCall(PetscSNPrintf(vel, sizeof(vel), "%g", (double)ac->vel));
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
  PetscCall(PetscOptionsEnum("-ac_init", "Initial fields", "AcousticSetInitialType", AcousticInitTypes, (PetscEnum)init, (PetscEnum *)&init, &initset));
  PetscCall(PetscOptionsInt("-ac_seed", "Seed of the random initial fields", "AcousticSetInitialType", seed, &seed, NULL));
  PetscCall(PetscOptionsEnum("-ac_backend", "fp32 OpenCL kernels or the fp64 host reference", "AcousticSetBackend", AcousticBackends, (PetscEnum)backend,
                             (PetscEnum *)&backend, &backset));
  PetscCall(PetscOptionsBool("-ac_view", "View the object after set-up", "AcousticView", ac->view, &ac->view, NULL));
  PetscOptionsEnd();

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
  if (initset) PetscCall(AcousticSetInitialType(ac, init));
  ac->seed = seed;
  if (backset) PetscCall(AcousticSetBackend(ac, backend));
  PetscFunctionReturn(0);
}
