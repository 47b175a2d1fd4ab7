/* The options of the acoustic operator (-ac_*): the physics, the survey (sources, receivers), the pictures and the user's
   choices. The kernels' shapes are not options:
   they come from the tuning table (include/sbpmg/private/tuning.h, keys ac_*; -sbpmg_tune for measurements). */
#include <sbpmg/private/acousticimpl.h>
#include <errno.h>

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

/* n comma-separated numbers of str into v (the whole of str); *ok: they were. */
static void AcParseReals(const char str[], PetscInt n, PetscReal v[], const char **end, PetscBool *ok)
{
  const char *p = str;

  *ok = PETSC_TRUE;
  for (PetscInt i = 0; i < n; i++) {
    char *e;
    v[i] = (PetscReal)strtod(p, &e);
    if (e == p || (i < n - 1 && *e != ',')) {
      *ok = PETSC_FALSE;
      return;
    }
    p = i < n - 1 ? e + 1 : e;
  }
  *end = p;
}

/* -ac_receivers_line x0,y0,z0:x1,y1,z1:n */
static PetscErrorCode AcousticParseReceiversLine(Acoustic ac, const char str[], PetscReal x0[3], PetscReal x1[3], PetscInt *n)
{
  const char *p = str;
  PetscBool   ok;
  char       *e;

  PetscFunctionBegin;
  AcParseReals(p, 3, x0, &p, &ok);
  if (ok && *p == ':')
    AcParseReals(p + 1, 3, x1, &p, &ok);
  else
    ok = PETSC_FALSE;
  if (ok && *p == ':') {
    long long v;
    errno = 0;
    v     = strtoll(p + 1, &e, 10);
    ok    = (PetscBool)(e != p + 1 && !*e);
    /* the count as written, not wrapped to 32 bits (4294967301 was 5 receivers) */
    PetscCheck(!ok || (errno != ERANGE && v >= PETSC_MIN_INT && v <= PETSC_MAX_INT), PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
               "-ac_receivers_line %s: the receiver count %s does not fit a %d-bit PetscInt", str, p + 1, (int)(8 * sizeof(PetscInt)));
    *n = (PetscInt)v;
  } else
    ok = PETSC_FALSE;
  PetscCheck(ok, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_WRONG, "-ac_receivers_line %s: expected x0,y0,z0:x1,y1,z1:n (metres, n receivers)", str);
  PetscFunctionReturn(0);
}

/* -ac_snapshot_plane x|y|z[:index] */
static PetscErrorCode AcousticParsePlane(Acoustic ac, const char str[], PetscInt *axis, PetscInt *index)
{
  PetscBool ok = (PetscBool)((str[0] == 'x' || str[0] == 'y' || str[0] == 'z') && (!str[1] || str[1] == ':'));

  PetscFunctionBegin;
  *axis  = str[0] - 'x';
  *index = -1;
  if (ok && str[1]) {
    char     *e;
    long long v;
    errno = 0;
    v     = strtoll(str + 2, &e, 10);
    ok    = (PetscBool)(e != str + 2 && !*e);
    PetscCheck(!ok || (errno != ERANGE && v >= PETSC_MIN_INT && v <= PETSC_MAX_INT), PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
               "-ac_snapshot_plane %s: the index %s does not fit a %d-bit PetscInt", str, str + 2, (int)(8 * sizeof(PetscInt)));
    *index = (PetscInt)v;
  }
  PetscCheck(ok, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_WRONG, "-ac_snapshot_plane %s: expected x, y or z, then :index (e.g. y:100)", str);
  PetscFunctionReturn(0);
}

/* The survey's options: receivers from a file and / or along a line, the trace interval, the sources' file, the wavelet's. */
static PetscErrorCode AcousticSurveyFromOptions(Acoustic ac, const char recfile[], const char recline[], const char srcfile[], const char wavfile[],
                                                PetscInt every)
{
  PetscFunctionBegin;
  if (recfile[0]) PetscCall(AcousticSetReceiversFile(ac, recfile));
  if (recline[0]) {
    PetscReal x0[3], x1[3];
    PetscInt  n;
    PetscCall(AcousticParseReceiversLine(ac, recline, x0, x1, &n));
    if (!recfile[0]) ac->nrecpos = 0;
    PetscCall(AcousticAppendReceiversLine_Private(ac, x0, x1, n)); /* after the file's receivers */
  }
  PetscCall(AcousticSetTraceInterval(ac, every));
  if (srcfile[0]) PetscCall(AcousticSetSourcesFile(ac, srcfile));
  if (wavfile[0]) PetscCall(AcousticSetWaveletFile(ac, wavfile));
  PetscFunctionReturn(0);
}

/* -ac_layers v0,z1,v1,...: an odd count of numbers */
static PetscErrorCode AcousticLayersFromOptions(Acoustic ac, PetscInt n, const PetscReal v[])
{
  PetscReal vel[32], z[32];

  PetscFunctionBegin;
  PetscCheck(n % 2 == 1, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_WRONG,
             "-ac_layers takes v0,z1,v1,...,zn,vn (velocities and the interface depths between them: an odd count), got %" PetscInt_FMT " values", n);
  for (PetscInt l = 0; l <= n / 2; l++) {
    vel[l] = v[2 * l];
    if (l < n / 2) z[l] = v[2 * l + 1];
  }
  PetscCall(AcousticSetVelocityLayers(ac, n / 2 + 1, vel, z));
  PetscFunctionReturn(0);
}

/* For -help, the velocity model in force as -ac_layers v0,z1,v1,... writes it: the layers, or one layer of the constant
   velocity; none for a velocity file or array. vel: -ac_vel's value as the block read it (set: given). */
static PetscInt AcLayersInForce(Acoustic ac, const char vel[], PetscBool set, PetscReal shown[])
{
  char  *end;
  double v = strtod(vel, &end);

  if (!set && ac->nlayers) {
    for (PetscInt l = 0; l < ac->nlayers; l++) shown[2 * l] = ac->layers[l];
    for (PetscInt l = 0; l + 1 < ac->nlayers; l++) shown[2 * l + 1] = ac->layers[ac->nlayers + l];
    return 2 * ac->nlayers - 1;
  }
  if ((!set && ac->velarray) || end == vel || *end) return 0;
  shown[0] = (PetscReal)v;
  return 1;
}

/*@C
   AcousticSetFromOptions - Read the -ac_ options. Values are checked after PetscOptionsEnd() (a bad value leaks nothing).

   Options Database Keys:
+  -ac_n <n|nx,ny,nz>                 - grid points (default 800 on every axis)
.  -ac_ndamp <n>                      - PML width in points (default 27)
.  -ac_dx <h|dx,dy,dz>                - spacing in metres (default 20 on every axis)
.  -ac_cfl <c>                        - Courant number in (0, 1] (default 0.8)
.  -ac_check_every <k>                - check every k steps that the wave field is finite (default 100; 0: never)
.  -ac_vel <v|file>                   - velocity: a number (default 2000) or a raw float32 file
.  -ac_vmax <v>                       - velocity bound for dt and the damping (default 4500; 0: the model's largest)
.  -ac_fmax <f>, -ac_amplitude <a>    - source wavelet
.  -ac_source <x,y,z>                 - source grid point (default: the centre)
.  -ac_init <zero,random>             - initial fields
.  -ac_seed <s>                       - seed of the random fields
.  -ac_backend <device,host>          - fp32 OpenCL kernels or the fp64 host reference
.  -ac_layers <v0,z1,v1,...>          - a layered velocity model (velocities and interface depths in m)
.  -ac_sources <file>                 - point sources, one per line: x y z [delay [amplitude]]
.  -ac_wavelet <file>                 - the sources' wavelet, one sample per step
.  -ac_receivers <file>               - receivers, one per line: x y z
.  -ac_receivers_line <x0,y0,z0:x1,y1,z1:n> - n receivers along a line
.  -ac_trace_every <k>                - a trace sample every k steps
.  -ac_snapshot_plane <x|y|z:index>   - the plane of AcousticWriteSlicePNG()
.  -ac_snapshot_scale <s>             - its colour scale (0: the first snapshot's max |u|)
-  -ac_view                           - view the object after set-up

   Level: beginner
@*/
PetscErrorCode AcousticSetFromOptions(Acoustic ac)
{
  PetscInt         n[3] = {ac->n[0], ac->n[1], ac->n[2]}, nn = 3, ndamp = ac->ndamp, src[3] = {ac->src[0], ac->src[1], ac->src[2]}, nsrc = 3, seed = ac->seed;
  PetscReal        h[3] = {ac->h[0], ac->h[1], ac->h[2]}, cfl = ac->cfl, vmax = ac->vmax, fmax = ac->fmax, amp = ac->amplitude;
  PetscInt         nh = 3;
  PetscBool        nset, hset, velset, srcset, initset, backset, planeset, layset, seedset;
  MPI_Comm         comm    = PetscObjectComm((PetscObject)ac);
  AcousticInitType init    = ac->init;
  AcousticBackend  backend = ac->backend;
  char vel[PETSC_MAX_PATH_LEN], recfile[PETSC_MAX_PATH_LEN] = "", recline[256] = "", srcfile[PETSC_MAX_PATH_LEN] = "", wavfile[PETSC_MAX_PATH_LEN] = "",
                                plane[64] = "", planeshown[64], velnow[PETSC_MAX_PATH_LEN];
  PetscReal layers[63] = {0}, snapscale = ac->snap_scale;
  PetscInt  nlayers = 63, every = ac->every, check = ac->check_every;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  PetscCall(AcousticCheckEnumOption(ac, "-ac_init", AcousticInitTypes));
  PetscCall(AcousticCheckEnumOption(ac, "-ac_backend", AcousticBackends));
  {
    static const char *const ints[] = {"-ac_n", "-ac_ndamp", "-ac_source", "-ac_seed", "-ac_trace_every", "-ac_check_every", NULL};
    PetscCall(SbpmgOptionsCheckInts(((PetscObject)ac)->options, ((PetscObject)ac)->prefix, ints));
  }
  if (ac->velfile[0])
    PetscCall(PetscStrncpy(vel, ac->velfile, sizeof(vel)));
  else
    PetscCall(PetscSNPrintf(vel, sizeof(vel), "%g", (double)ac->vel));
  PetscCall(PetscStrncpy(velnow, vel, sizeof(velnow))); /* -help's "formerly" (vel takes the value given) */
  PetscObjectOptionsBegin((PetscObject)ac);
  /* -help shows the values in force: all three sizes and spacings where they differ, the source and the plane from the sizes */
  PetscCall(SbpmgOptionsArray(PetscOptionsObject, "-ac_n", "Grid points: n (every axis) or nx,ny,nz", "AcousticSetSizes", PETSC_INT, n,
                              n[0] == n[1] && n[1] == n[2] ? 1 : 3, &nn, &nset));
  for (PetscInt a = 0; a < 3; a++) src[a] = ac->src[a] >= 0 ? ac->src[a] : (nset && nn == 1 ? n[0] : n[a]) / 2;
  PetscCall(PetscSNPrintf(planeshown, sizeof(planeshown), "%c:%" PetscInt_FMT, (char)('x' + ac->snap_axis),
                          ac->snap_index >= 0 ? ac->snap_index : (nset && nn == 1 ? n[0] : n[ac->snap_axis]) / 2));
  PetscCall(PetscOptionsInt("-ac_ndamp", "PML width in grid points", "AcousticSetDamping", ndamp, &ndamp, NULL));
  PetscCall(SbpmgOptionsArray(PetscOptionsObject, "-ac_dx", "Grid spacing (m): h (every axis) or dx,dy,dz", "AcousticSetSpacing", PETSC_REAL, h,
                              h[0] == h[1] && h[1] == h[2] ? 1 : 3, &nh, &hset));
  PetscCall(PetscOptionsReal("-ac_cfl", "Courant number, in (0, 1]", "AcousticSetCFL", cfl, &cfl, NULL));
  PetscCall(PetscOptionsString("-ac_vel", "Velocity (m/s): a number or a file of raw float32 values, x fastest", "AcousticSetVelocity", velnow, vel,
                               sizeof(vel), &velset));
  PetscCall(PetscOptionsReal("-ac_vmax", "Velocity bound for dt and the damping (0: the model's largest)", "AcousticSetMaxVelocity", vmax, &vmax, NULL));
  PetscCall(PetscOptionsReal("-ac_fmax", "Highest source frequency (Hz); the Ricker peak is fmax/2.5", "AcousticSetSourceWavelet", fmax, &fmax, NULL));
  PetscCall(PetscOptionsReal("-ac_amplitude", "Source amplitude", "AcousticSetSourceWavelet", amp, &amp, NULL));
  PetscCall(SbpmgOptionsArray(PetscOptionsObject, "-ac_source", "Source grid point x,y,z (default: the centre)", "AcousticSetSource", PETSC_INT, src, 3, &nsrc,
                              &srcset));
  PetscCall(PetscOptionsEnum("-ac_init", "Initial fields", "AcousticSetInitialType", AcousticInitTypes, (PetscEnum)init, (PetscEnum *)&init, &initset));
  PetscCall(PetscOptionsInt("-ac_seed", "Seed of the random initial fields", "AcousticSetInitialType", seed, &seed, &seedset));
  PetscCall(PetscOptionsEnum("-ac_backend", "fp32 OpenCL kernels or the fp64 host reference", "AcousticSetBackend", AcousticBackends, (PetscEnum)backend,
                             (PetscEnum *)&backend, &backset));
  PetscCall(SbpmgOptionsArray(PetscOptionsObject, "-ac_layers", "Layered velocity model v0,z1,v1,...: velocities (m/s) and interface depths (m)",
                              "AcousticSetVelocityLayers", PETSC_REAL, layers, AcLayersInForce(ac, vel, velset, layers), &nlayers, &layset));
  PetscCall(PetscOptionsString("-ac_sources", "File of point sources, one per line: x y z [delay [amplitude]] (m, s)", "AcousticSetSourcesFile", "", srcfile,
                               sizeof(srcfile), NULL));
  PetscCall(PetscOptionsString("-ac_wavelet", "File of the sources' wavelet, one sample per step (default: Ricker)", "AcousticSetWaveletFile", "", wavfile,
                               sizeof(wavfile), NULL));
  PetscCall(PetscOptionsString("-ac_receivers", "File of receivers, one per line: x y z (m)", "AcousticSetReceiversFile", "", recfile, sizeof(recfile), NULL));
  PetscCall(PetscOptionsString("-ac_receivers_line", "n receivers from (x0,y0,z0) to (x1,y1,z1) m: x0,y0,z0:x1,y1,z1:n", "AcousticSetReceiversLine", "",
                               recline, sizeof(recline), NULL));
  PetscCall(PetscOptionsInt("-ac_trace_every", "A trace sample every k steps", "AcousticSetTraceInterval", every, &every, NULL));
  PetscCall(PetscOptionsString("-ac_snapshot_plane", "Plane of the slice pictures: x|y|z:index (default z:nz/2)", "AcousticSetSnapshotPlane", planeshown, plane,
                               sizeof(plane), &planeset));
  PetscCall(PetscOptionsReal("-ac_snapshot_scale", "Colour scale of the slice pictures (0: the first snapshot's max |u|)", "AcousticSetSnapshotScale",
                             snapscale, &snapscale, NULL));
  PetscCall(
      PetscOptionsInt("-ac_check_every", "Check every k steps that the wave field is finite (0: never)", "AcousticSetCheckInterval", check, &check, NULL));
  PetscCall(PetscOptionsBool("-ac_view", "View the object after set-up", "AcousticView", ac->view, &ac->view, NULL));
  PetscOptionsEnd();

  /* validate and apply */
  /* more values than an array option takes: an error (SbpmgOptionsArray() returns capacity + 1), not dropped */
  if (nset && nn > 3)
    PetscCall(SbpmgOptionsArrayTooMany(comm, ((PetscObject)ac)->options, ((PetscObject)ac)->prefix, "-ac_n", 3, "1 value (every axis) or 3 (nx,ny,nz)"));
  if (hset && nh > 3)
    PetscCall(SbpmgOptionsArrayTooMany(comm, ((PetscObject)ac)->options, ((PetscObject)ac)->prefix, "-ac_dx", 3, "1 value (every axis) or 3 (dx,dy,dz)"));
  if (srcset && nsrc > 3) PetscCall(SbpmgOptionsArrayTooMany(comm, ((PetscObject)ac)->options, ((PetscObject)ac)->prefix, "-ac_source", 3, "3 values x,y,z"));
  if (layset && nlayers > 63)
    PetscCall(SbpmgOptionsArrayTooMany(comm, ((PetscObject)ac)->options, ((PetscObject)ac)->prefix, "-ac_layers", 63, "v0,z1,v1,...: at most 32 layers"));
  PetscCheck(!nset || nn == 1 || nn == 3, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_SIZ,
             "-ac_n takes 1 value (every axis) or 3 (nx,ny,nz); got %" PetscInt_FMT, nn);
  PetscCheck(!hset || nh == 1 || nh == 3, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_SIZ,
             "-ac_dx takes 1 value (every axis) or 3 (dx,dy,dz); got %" PetscInt_FMT, nh);
  /* a seed does nothing without random initial fields: refused rather than ignored */
  PetscCheck(!seedset || (initset ? init : ac->init) == ACOUSTIC_INIT_RANDOM, comm, PETSC_ERR_ARG_INCOMP,
             "-ac_seed %" PetscInt_FMT " has no effect with -ac_init %s: only the random initial fields use it", seed,
             AcousticInitTypes[initset ? init : ac->init]);
  /* two velocity models: the layers would silently replace -ac_vel, so one of them is refused */
  PetscCheck(!(velset && layset), comm, PETSC_ERR_ARG_INCOMP,
             "-ac_vel %s has no effect with -ac_layers: both give the velocity model; give one (-ac_layers v0 is a constant velocity v0)", vel);
  if (nset && nn == 1) n[1] = n[2] = n[0];
  if (hset && nh == 1) h[1] = h[2] = h[0];
  if (nset) PetscCall(AcousticSetSizes(ac, n[0], n[1], n[2]));
  PetscCall(AcousticSetDamping(ac, ndamp));
  PetscCall(AcousticSetSpacing(ac, h[0], h[1], h[2]));
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
  if (layset) PetscCall(AcousticLayersFromOptions(ac, nlayers, layers));
  PetscCall(AcousticSurveyFromOptions(ac, recfile, recline, srcfile, wavfile, every));
  if (planeset) {
    PetscInt axis, index;
    PetscCall(AcousticParsePlane(ac, plane, &axis, &index));
    PetscCall(AcousticSetSnapshotPlane(ac, axis, index));
  }
  PetscCall(AcousticSetSnapshotScale(ac, snapscale));
  PetscCall(AcousticSetCheckInterval(ac, check));
  PetscFunctionReturn(0);
}
