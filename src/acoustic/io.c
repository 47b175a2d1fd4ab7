/* The file formats of the acoustic operator, apart from the object: raw float32 velocity files, PNG images (libpng) of a
   slice through a diverging colour map, VTK structured grids through PETSc's viewer. */
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

/* The RGB bytes of n values of a slice: scaled by the slice's max |value| (1 if it is zero or not finite), a signed square
   root to show the weaker far field, then the diverging colour map. */
PetscErrorCode AcousticSliceToRGB_Private(PetscInt n, const PetscReal v[], unsigned char rgb[])
{
  PetscReal scale = 0;

  PetscFunctionBegin;
  for (PetscInt p = 0; p < n; p++) scale = PetscMax(scale, PetscAbsReal(v[p]));
  if (!(scale > 0) || !PetscIsNormalReal(scale)) scale = 1;
  for (PetscInt p = 0; p < n; p++) {
    const PetscReal t = v[p] / scale;
    AcColour(t < 0 ? -PetscSqrtReal(-t) : PetscSqrtReal(t), rgb + 3 * p);
  }
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- VTK */

/* A DMDA of the n[0] x n[1] x n[2] grid with spacings h (coordinates in metres, field "u"), split along z as the slabs
   zstart[0..size] are, and a global vector of it named "u" (its local part: this rank's slab, x fastest). */
PetscErrorCode AcousticVTKCreate_Private(MPI_Comm comm, const PetscInt n[3], const PetscReal h[3], PetscMPIInt size, const PetscInt zstart[], DM *da, Vec *u)
{
  PetscInt *lz;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(size, &lz));
  for (PetscMPIInt r = 0; r < size; r++) lz[r] = zstart[r + 1] - zstart[r];
  PetscCall(
      DMDACreate3d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n[0], n[1], n[2], 1, 1, size, 1, 1, NULL, NULL, lz, da));
  PetscCall(PetscFree(lz));
  PetscCall(DMSetUp(*da));
  PetscCall(DMDASetUniformCoordinates(*da, 0, (n[0] - 1) * h[0], 0, (n[1] - 1) * h[1], 0, (n[2] - 1) * h[2]));
  PetscCall(DMDASetFieldName(*da, 0, "u"));
  PetscCall(DMCreateGlobalVector(*da, u));
  PetscCall(PetscObjectSetName((PetscObject)*u, "u"));
  PetscFunctionReturn(0);
}

/* Write u as a VTK structured grid (.vts; PETSc's VTK writer gathers one piece per rank). */
PetscErrorCode AcousticVTKWrite_Private(const char path[], Vec u)
{
  PetscViewer viewer;

  PetscFunctionBegin;
  PetscCall(PetscViewerVTKOpen(PetscObjectComm((PetscObject)u), path, FILE_MODE_WRITE, &viewer));
  PetscCall(VecView(u, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscFunctionReturn(0);
}
