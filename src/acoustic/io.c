/* Input and output of the acoustic operator: velocity files, PNG slices (libpng), VTK through PETSc's viewer. */
#include <sbpmg/private/acousticimpl.h>
#include <png.h>
#include <setjmp.h>

/* Planes [zs, zs + nz) of a file of n[0]*n[1]*n[2] raw float32 values (the machine's byte order, little-endian on x86),
   x fastest. */
PetscErrorCode AcousticReadVelocityFile_Private(const char path[], const PetscInt n[3], PetscInt zs, PetscInt nz, PetscReal v[])
{
  const size_t total = (size_t)n[0] * n[1] * n[2], count = (size_t)n[0] * n[1] * nz;
  FILE        *fp;
  long         len;
  float       *buf;
  size_t       got;

  PetscFunctionBegin;
  fp = fopen(path, "rb");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open velocity file -ac_vel %s", path);
  if (fseek(fp, 0, SEEK_END) || (len = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET)) {
    (void)fclose(fp);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Cannot determine the size of velocity file %s", path);
  }
  if ((size_t)len != total * sizeof(float)) {
    (void)fclose(fp);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
            "Velocity file %s has %ld bytes; a %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " grid needs %zu (raw float32, x fastest)", path, len,
            n[0], n[1], n[2], total * sizeof(float));
  }
  if (zs && fseek(fp, (long)((size_t)n[0] * n[1] * zs * sizeof(float)), SEEK_SET)) {
    (void)fclose(fp);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Cannot seek to plane %" PetscInt_FMT " of velocity file %s", zs, path);
  }
  if (PetscMalloc1(count, &buf)) {
    (void)fclose(fp);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MEM, "Cannot allocate %zu bytes for velocity file %s", count * sizeof(float), path);
  }
  got = fread(buf, sizeof(float), count, fp);
  (void)fclose(fp);
  if (got != count) {
    PetscCall(PetscFree(buf));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Read %zu of %zu values of velocity file %s", got, count, path);
  }
  for (size_t p = 0; p < count; p++) v[p] = buf[p];
  PetscCall(PetscFree(buf));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- PNG */

/* libpng reports errors by longjmp; this wrapper returns 0 on success and keeps setjmp out of PETSc code. */
static int AcPNGWrite(FILE *fp, int w, int h, const unsigned char *rgb, char *err, size_t errlen)
{
  png_structp png  = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop   info = png ? png_create_info_struct(png) : NULL;

  if (!png || !info) {
    (void)snprintf(err, errlen, "libpng could not create its structures");
    png_destroy_write_struct(&png, NULL);
    return 1;
  }
  if (setjmp(png_jmpbuf(png))) {
    (void)snprintf(err, errlen, "libpng failed while writing");
    png_destroy_write_struct(&png, &info);
    return 1;
  }
  png_init_io(png, fp);
  png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int r = 0; r < h; r++) png_write_row(png, (png_const_bytep)(rgb + (size_t)3 * w * r));
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  return 0;
}

/* Write a w x h RGB image (rows top to bottom) as an 8-bit PNG. */
PetscErrorCode AcousticWritePNG_Private(const char path[], PetscInt w, PetscInt h, const unsigned char rgb[])
{
  FILE *fp;
  char  err[128] = "";
  int   bad;

  PetscFunctionBegin;
  fp = fopen(path, "wb");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s for writing", path);
  bad = AcPNGWrite(fp, (int)w, (int)h, rgb, err, sizeof(err));
  bad |= fclose(fp) != 0;
  PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Writing PNG %s failed: %s", path, err[0] ? err : "close failed");
  PetscFunctionReturn(0);
}

/* Diverging colour map: t in [-1, 1] -> blue (-1), white (0), red (+1). */
static void AcColour(PetscReal t, unsigned char c[3])
{
  const PetscReal  neg[3] = {59, 76, 192}, pos[3] = {180, 4, 38}, white[3] = {247, 247, 247};
  const PetscReal  s   = PetscMin(PetscAbsReal(t), 1.0);
  const PetscReal *end = t < 0 ? neg : pos;

  for (int a = 0; a < 3; a++) c[a] = (unsigned char)(white[a] + s * (end[a] - white[a]) + 0.5);
}

/*@C
   AcousticWriteSlicePNG - Write the central x-y slice (z = nz/2) of u as a PNG with a diverging colour map (blue
   negative, white zero, red positive), scaled by the slice's max |u| with a signed square-root to show the weaker far
   field; x to the right, y downwards. Reads one plane from the device (on the rank that owns it); rank 0 writes the file.

   Collective

   Level: intermediate

.seealso: `AcousticWriteVTK()`
@*/
PetscErrorCode AcousticWriteSlicePNG(Acoustic ac, const char path[])
{
  const PetscInt nx = ac->n[0], ny = ac->n[1];
  PetscReal     *plane, scale      = 0;
  unsigned char *rgb;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  PetscCall(PetscMalloc1(nx * ny, &plane));
  PetscCall(AcousticGetPlane(ac, ACOUSTIC_FIELD_U, ac->n[2] / 2, plane));
  if (ac->rank) { /* rank 0 writes; every rank returns its error */
    PetscErrorCode ierr;
    PetscCall(PetscFree(plane));
    PetscCallMPI(MPI_Bcast(&ierr, 1, MPI_INT, 0, PetscObjectComm((PetscObject)ac)));
    PetscCheck(!ierr, PETSC_COMM_SELF, ierr, "Rank 0 could not write %s", path);
    PetscFunctionReturn(0);
  }
  for (PetscInt p = 0; p < nx * ny; p++) scale = PetscMax(scale, PetscAbsReal(plane[p]));
  if (!(scale > 0) || !PetscIsNormalReal(scale)) scale = 1;
  PetscCall(PetscMalloc1(3 * nx * ny, &rgb));
  for (PetscInt p = 0; p < nx * ny; p++) {
    const PetscReal t = plane[p] / scale;
    AcColour(t < 0 ? -PetscSqrtReal(-t) : PetscSqrtReal(t), rgb + 3 * p);
  }
  PetscCall(PetscFree(plane));
  {
    PetscErrorCode ierr = AcousticWritePNG_Private(path, nx, ny, rgb);
    PetscCall(PetscFree(rgb));
    if (ac->size > 1) PetscCallMPI(MPI_Bcast(&ierr, 1, MPI_INT, 0, PetscObjectComm((PetscObject)ac)));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

/*@C
   AcousticWriteVTK - Write u on the whole grid as a VTK structured grid (.vts) through PETSc's VTK viewer (a DMDA with
   the grid's coordinates in metres, split along z as the object is). Reads each rank's slab from its device.

   Collective

   Level: intermediate

.seealso: `AcousticWriteSlicePNG()`
@*/
PetscErrorCode AcousticWriteVTK(Acoustic ac, const char path[])
{
  MPI_Comm     comm = PetscObjectComm((PetscObject)ac);
  DM           da;
  Vec          u;
  PetscViewer  viewer;
  PetscScalar *a;
  PetscInt    *lz;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  PetscCheck(ac->setupcalled, comm, PETSC_ERR_ARG_WRONGSTATE, "Call AcousticSetUp() first");
  PetscCall(PetscMalloc1(ac->size, &lz));
  for (PetscMPIInt r = 0; r < ac->size; r++) lz[r] = ac->zstart[r + 1] - ac->zstart[r];
  PetscCall(DMDACreate3d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, ac->n[0], ac->n[1], ac->n[2], 1, 1, ac->size, 1, 1,
                         NULL, NULL, lz, &da));
  PetscCall(PetscFree(lz));
  PetscCall(DMSetUp(da));
  PetscCall(DMDASetUniformCoordinates(da, 0, (ac->n[0] - 1) * ac->h[0], 0, (ac->n[1] - 1) * ac->h[1], 0, (ac->n[2] - 1) * ac->h[2]));
  PetscCall(DMDASetFieldName(da, 0, "u"));
  PetscCall(DMCreateGlobalVector(da, &u));
  PetscCall(PetscObjectSetName((PetscObject)u, "u"));
  PetscCall(VecGetArray(u, &a)); /* the local part is this rank's slab, x fastest */
  PetscCall(AcousticGetLocalField_Private(ac, ACOUSTIC_FIELD_U, a));
  PetscCall(VecRestoreArray(u, &a));
  PetscCall(PetscViewerVTKOpen(comm, path, FILE_MODE_WRITE, &viewer));
  PetscCall(VecView(u, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(VecDestroy(&u));
  PetscCall(DMDestroy(&da));
  PetscFunctionReturn(0);
}
