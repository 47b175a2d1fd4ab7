/* Pictures and volumes of the acoustic operator (docs/acoustic.md "Pictures"): a slice of the chosen plane as a PNG with
   axes in metres, a colour bar, the time and the step, on a colour scale fixed for the whole run; the whole field as VTK
   ImageData. The drawing is src/acoustic/image.c's, the formats src/acoustic/io.c's. */
#include <sbpmg/private/acousticimpl.h>

/*@C
   AcousticSetSnapshotPlane - The plane AcousticWriteSlicePNG() draws: the plane index across axis (0: x, 1: y, 2: z), or
   the central one (index -1, the default, with axis 2: the central x-y plane). z planes are drawn x to the right and y
   down, x and y planes with z (depth) down.

   Options Database Key:
.  -ac_snapshot_plane <x|y|z:index> - e.g. y:100; index -1 or left out (-ac_snapshot_plane y): the central plane

   Level: intermediate

.seealso: `AcousticWriteSlicePNG()`, `AcousticSetSnapshotScale()`
@*/
PetscErrorCode AcousticSetSnapshotPlane(Acoustic ac, PetscInt axis, PetscInt index)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetSnapshotPlane()");
  PetscCheck(axis >= 0 && axis < 3, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "Snapshot axis %" PetscInt_FMT " must be 0 (x), 1 (y) or 2 (z)",
             axis);
  PetscCheck(index >= -1, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "Snapshot plane index %" PetscInt_FMT " must be >= 0 (or -1: the centre)",
             index);
  ac->snap_axis  = axis;
  ac->snap_index = index;
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetSnapshotScale - The colour scale of the slices: values in [-scale, scale] span the colour map (blue, white,
   red), larger ones are clipped. 0 (the default): the largest |u| of the first slice drawn that is not zero, kept for the
   rest of the object's life, so that a sequence of snapshots plays as a movie.

   Options Database Key:
.  -ac_snapshot_scale <scale>

   Level: intermediate

.seealso: `AcousticWriteSlicePNG()`
@*/
PetscErrorCode AcousticSetSnapshotScale(Acoustic ac, PetscReal scale)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  if (!(scale >= 0 && scale < PETSC_MAX_REAL)) {
    char str[32];
    PetscCall(AcRealString(scale, str, sizeof(str)));
    SETERRQ(PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
            "Snapshot scale %s (-ac_snapshot_scale) must be >= 0 and finite (0: from the first snapshot)", str);
  }
  ac->snap_scale = scale;
  PetscFunctionReturn(0);
}

/* The slice of the snapshot plane on rank 0 (out: n1 x n2 values, NULL elsewhere) and what its picture shows: the axes in
   metres, the title (into title[len]), the colour scale (fixed by this call if it is not yet). Collective. */
PetscErrorCode AcousticSlicePlot_Private(Acoustic ac, PetscReal out[], AcPlotInfo *info, char title[], size_t len)
{
  const PetscInt           axis = ac->snap_axis, index = ac->snap_index < 0 ? ac->n[axis] / 2 : ac->snap_index;
  const PetscInt           a1 = axis == 0 ? 1 : 0, a2 = axis == 2 ? 1 : 2, n1 = ac->n[a1], n2 = ac->n[a2];
  static const char *const labels[3] = {"x (m)", "y (m)", "z (m)"};
  PetscReal                m         = 0;

  PetscFunctionBegin;
  PetscCall(AcousticGetSlice_Private(ac, ACOUSTIC_FIELD_U, axis, index, out));
  if (!ac->rank)
    for (PetscInt p = 0; p < n1 * n2; p++) m = PetscMax(m, PetscAbsReal(out[p]));
  if (ac->size > 1) PetscCallMPI(MPI_Bcast(&m, 1, MPIU_REAL, 0, PetscObjectComm((PetscObject)ac)));
  if (ac->snap_scale == 0 && m > 0 && PetscIsNormalReal(m)) ac->snap_scale = m;
  PetscCall(PetscSNPrintf(title, len, "u at t = %.4g s, step %" PetscInt_FMT ", plane %c = %" PetscInt_FMT " (%.6g m)", (double)(ac->step * ac->dt), ac->step,
                          (char)('x' + axis), index, (double)(index * ac->h[axis])));
  info->title  = title;
  info->xlabel = labels[a1];
  info->ylabel = labels[a2];
  info->x0     = 0;
  info->x1     = (n1 - 1) * ac->h[a1];
  info->y0     = 0;
  info->y1     = (n2 - 1) * ac->h[a2];
  info->scale  = ac->snap_scale > 0 ? ac->snap_scale : 1;
  info->aspect = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*@C
   AcousticWriteSlicePNG - Write the snapshot plane of u (AcousticSetSnapshotPlane(); default the central x-y plane) as a PNG:
   the slice scaled up to at least 512 pixels on its long side, a diverging colour map symmetric about zero (blue negative,
   white zero, red positive) with its colour bar, axes in metres, the time and the step in the title line. The colour
   scale is the same for every slice of the object (AcousticSetSnapshotScale()). Reads one plane from the devices; rank 0
   writes the file.

   Collective

   Level: intermediate

.seealso: `AcousticSetSnapshotPlane()`, `AcousticSetSnapshotScale()`, `AcousticWriteVTK()`
@*/
PetscErrorCode AcousticWriteSlicePNG(Acoustic ac, const char path[])
{
  const PetscInt axis = ac->snap_axis, n1 = ac->n[axis == 0 ? 1 : 0], n2 = ac->n[axis == 2 ? 1 : 2];
  PetscReal     *plane = NULL;
  AcPlotInfo     info;
  char           title[160];
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  if (!ac->rank) PetscCall(PetscMalloc1(n1 * n2, &plane));
  ierr = AcousticSlicePlot_Private(ac, plane, &info, title, sizeof(title)); /* fails on every rank together */
  if (ierr) PetscCall(PetscFree(plane));
  PetscCall(ierr);
  if (!ac->rank) {
    AcCanvas c = {0, 0, NULL};
    ierr       = AcPlotRender(n1, n2, plane, &info, &c);
    if (!ierr) ierr = AcCanvasWritePNG(&c, path);
    PetscCall(AcCanvasDestroy(&c));
    PetscCall(PetscFree(plane));
  }
  PetscCall(AcousticShareError_Private(ac, ierr, path));
  PetscFunctionReturn(0);
}

/* A file opened (fp) and closed (closed: 0) as it should be. */
static PetscErrorCode AcCheckFile(const FILE *fp, int closed, const char path[])
{
  PetscFunctionBegin;
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s for writing", path);
  PetscCheck(!closed, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Writing %s failed", path);
  PetscFunctionReturn(0);
}

/* Rank 0: the header and every rank's slab (its own in buf), in rank order, into fp (NULL: the file could not be opened;
   the slabs are still received); *err: the first error of the writes. */
static PetscErrorCode AcousticVTIWriteSlabs(Acoustic ac, FILE *fp, PetscReal *buf, PetscErrorCode *err)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)ac);
  const PetscInt nxy  = ac->n[0] * ac->n[1];

  PetscFunctionBegin;
  *err = fp ? AcousticVTIWriteHeader_Private(fp, ac->n, ac->h, ac->size, ac->zstart) : 0;
  for (PetscMPIInt r = 0; r < ac->size; r++) {
    const PetscInt count = nxy * (ac->zstart[r + 1] - ac->zstart[r]);
    PetscMPIInt    n;

    PetscCall(PetscMPIIntCast(count, &n));
    if (r) PetscCallMPI(MPI_Recv(buf, n, MPIU_REAL, r, ac->tag, comm, MPI_STATUS_IGNORE));
    if (fp && !*err) *err = AcousticVTIWritePiece_Private(fp, (size_t)count, buf);
  }
  if (fp && !*err) *err = AcousticVTIWriteEnd_Private(fp);
  PetscFunctionReturn(0);
}

/*@C
   AcousticWriteVTK - Write u on the whole grid as VTK ImageData (.vti, XML with raw appended Float32 data: the origin 0
   and the spacings dx, dy, dz, no coordinate arrays), one piece per rank. Each rank reads its slab from its device and
   sends it to rank 0, which writes the file.

   Collective

   Level: intermediate

.seealso: `AcousticWriteSlicePNG()`
@*/
PetscErrorCode AcousticWriteVTK(Acoustic ac, const char path[])
{
  const PetscInt nxy  = ac->n[0] * ac->n[1];
  PetscReal     *slab = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  ierr = PetscMalloc1(nxy * (ac->n[2] / ac->size + 1), &slab); /* the largest slab */
  if (!ierr) ierr = AcousticGetLocalField_Private(ac, ACOUSTIC_FIELD_U, slab);
  ierr = AcousticAgree_Private(ac, ierr, "field read-back"); /* rank 0 would wait for the slab of a rank that failed */
  if (ierr) PetscCall(PetscFree(slab));
  PetscCall(ierr);
  if (!ac->rank) {
    FILE *fp = fopen(path, "wb");
    PetscCall(AcousticVTIWriteSlabs(ac, fp, slab, &ierr));
    if (!fp || !ierr)
      ierr = AcCheckFile(fp, fp ? fclose(fp) : 0, path);
    else
      (void)fclose(fp);
  } else {
    PetscMPIInt n;
    PetscCall(PetscMPIIntCast(nxy * ac->nl[2], &n));
    PetscCallMPI(MPI_Send(slab, n, MPIU_REAL, 0, ac->tag, PetscObjectComm((PetscObject)ac)));
  }
  PetscCall(PetscFree(slab));
  PetscCall(AcousticShareError_Private(ac, ierr, path));
  PetscFunctionReturn(0);
}
