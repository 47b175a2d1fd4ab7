/* The file formats of the acoustic operator, apart from the object: raw float32 velocity files, text tables of numbers
   (coordinates, wavelets), NumPy .npy arrays, VTK ImageData (.vti). PNG pictures are src/acoustic/image.c's. */
#include <sbpmg/private/acousticimpl.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <string.h>

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
  { /* the byte order, from the first value (every rank reads it, so every rank gives the same error): a big-endian 2000
       read little-endian is 9e-41 */
    float         f = 0, g;
    unsigned char b[4], r[4];
    if (fread(b, 1, 4, fp) != 4) {
      (void)fclose(fp);
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Cannot read the first value of velocity file %s", path);
    }
    for (int i = 0; i < 4; i++) r[i] = b[3 - i];
    memcpy(&f, b, 4);
    memcpy(&g, r, 4);
    if (!(f > 1e-6f && f < 1e12f) && isnormal(g) && g >= 1.0f && g <= 1e6f) {
      (void)fclose(fp);
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
              "Velocity file %s looks big-endian: its first value reads %g m/s in this machine's little-endian float32, %g m/s byte-swapped; write it "
              "little-endian (numpy: v.astype('<f4').tofile(path))",
              path, (double)f, (double)g);
    }
    if (fseek(fp, 0, SEEK_SET)) {
      (void)fclose(fp);
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Cannot seek in velocity file %s", path);
    }
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

/* ---------------------------------------------------------------- text tables */

/* Append v to the growing array *vals of *nvals values (capacity *cap). */
static PetscErrorCode AcAppend(PetscReal v, PetscInt *nvals, PetscInt *cap, PetscReal **vals)
{
  PetscFunctionBegin;
  if (*nvals == *cap) {
    PetscReal *more;
    *cap = PetscMax(2 * *cap, 64);
    PetscCall(PetscMalloc1(*cap, &more));
    if (*nvals) PetscCall(PetscArraycpy(more, *vals, *nvals));
    PetscCall(PetscFree(*vals));
    *vals = more;
  }
  (*vals)[(*nvals)++] = v;
  PetscFunctionReturn(0);
}

/* The numbers of one line (after a '#' nothing counts) appended to *vals; *count: how many; *ok: PETSC_FALSE if a word
   is not a number. */
static PetscErrorCode AcParseLine(char line[], PetscInt *count, PetscInt *nvals, PetscInt *cap, PetscReal **vals, PetscBool *ok)
{
  char *p = line, *hash = strchr(line, '#');

  PetscFunctionBegin;
  if (hash) *hash = 0;
  *count = 0;
  *ok    = PETSC_TRUE;
  while (*p) {
    char  *end;
    double v;

    while (*p && isspace((unsigned char)*p)) p++;
    if (!*p) break;
    errno = 0;
    v     = strtod(p, &end);
    if (end == p || (*end && !isspace((unsigned char)*end)) || errno == ERANGE) {
      *ok = PETSC_FALSE;
      PetscFunctionReturn(0);
    }
    PetscCall(AcAppend((PetscReal)v, nvals, cap, vals));
    (*count)++;
    p = end;
  }
  PetscFunctionReturn(0);
}

/* The next line of fp, of any length, into *line (grown as needed, capacity *cap); *len its length; *got PETSC_FALSE at the
   end of the file; *nul: the line holds a NUL byte (a binary file read as text). */
static PetscErrorCode AcReadLine(FILE *fp, char **line, size_t *cap, size_t *len, PetscBool *got, PetscBool *nul)
{
  PetscFunctionBegin;
  *len = 0;
  *got = PETSC_FALSE;
  *nul = PETSC_FALSE;
  for (;;) {
    int c;
    if (*len + 2 > *cap) {
      char  *more;
      size_t ncap = PetscMax(2 * *cap, (size_t)256);
      PetscCall(PetscMalloc1(ncap, &more));
      if (*len) PetscCall(PetscArraycpy(more, *line, *len));
      PetscCall(PetscFree(*line));
      *line = more;
      *cap  = ncap;
    }
    c = fgetc(fp);
    if (c == EOF) break;
    *got = PETSC_TRUE;
    if (c == '\n') break;
    if (!c) *nul = PETSC_TRUE;
    (*line)[(*len)++] = (char)c;
  }
  (*line)[*len] = 0;
  PetscFunctionReturn(0);
}

/* A text file of numbers (docs/acoustic.md "File formats"): lines of any length, blank lines and everything after '#'
   ignored. With maxcols > 0 each line is one row of mincols to maxcols numbers, the missing trailing ones taken from
   defaults, and *values holds nrows x maxcols numbers; with maxcols 0 the numbers are one sequence of *nrows values, any
   number per line. what names the file in the messages ("Receiver"), expect says what a line holds ("x y z (3 numbers,
   metres)"). The arrays grow with the numbers read: never larger than the file justifies. */
PetscErrorCode AcousticReadTable_Private(const char path[], const char what[], const char expect[], PetscInt mincols, PetscInt maxcols,
                                         const PetscReal defaults[], PetscInt *nrows, PetscReal **values)
{
  FILE          *fp;
  char          *line = NULL, copy[64] = "";
  size_t         cap    = 0, len;
  PetscInt       lineno = 0, nvals = 0, vcap = 0, rows = 0;
  PetscReal     *vals = NULL;
  PetscBool      ok = PETSC_TRUE, got, nul = PETSC_FALSE;
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  *nrows  = 0;
  *values = NULL;
  fp      = fopen(path, "r");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "%s file %s cannot be opened", what, path);
  for (;;) {
    PetscInt count, before = nvals;

    ierr = AcReadLine(fp, &line, &cap, &len, &got, &nul);
    if (ierr || !got || nul) break;
    lineno++;
    while (len && isspace((unsigned char)line[len - 1])) line[--len] = 0;
    ierr = PetscStrncpy(copy, line, sizeof(copy));
    if (!ierr) ierr = AcParseLine(line, &count, &nvals, &vcap, &vals, &ok);
    if (ierr) break;
    if (ok && maxcols > 0 && count && (count < mincols || count > maxcols)) ok = PETSC_FALSE;
    if (!ok) break;
    if (!count) continue;
    if (maxcols > 0) {
      for (PetscInt c = count; c < maxcols && !ierr; c++) ierr = AcAppend(defaults[c], &nvals, &vcap, &vals);
      if (ierr) break;
      rows++;
    } else
      rows += nvals - before;
  }
  (void)fclose(fp);
  PetscCall(PetscFree(line));
  if (ierr || nul || !ok || !rows) PetscCall(PetscFree(vals));
  PetscCall(ierr);
  PetscCheck(!nul, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s file %s, line %" PetscInt_FMT ": a NUL byte: it is not a text file of %s", what, path,
             lineno + 1, expect);
  PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s file %s, line %" PetscInt_FMT ": \"%s\" is not %s", what, path, lineno, copy, expect);
  PetscCheck(rows, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s file %s is empty: it needs lines of %s", what, path, expect);
  *nrows  = rows;
  *values = vals;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- NumPy */

/* An m x n array of float64, row-major, as a NumPy .npy file (format 1.0: the magic, a header dictionary padded with spaces
   to a multiple of 64 bytes, the data; little-endian, the byte order of the machines sbpmg runs on). */
PetscErrorCode AcousticWriteNPY_Private(const char path[], PetscInt m, PetscInt n, const PetscReal a[])
{
  char          head[128];
  size_t        len, total, count = (size_t)m * (size_t)n;
  FILE         *fp;
  unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0};
  int           bad;
  const union {
    unsigned short s;
    unsigned char  c[2];
  } endian = {1};

  PetscFunctionBegin;
  PetscCheck(endian.c[0] == 1, PETSC_COMM_SELF, PETSC_ERR_SUP, "Writing .npy files supports little-endian machines only");
  PetscCall(PetscSNPrintf(head, sizeof(head), "{'descr': '<f8', 'fortran_order': False, 'shape': (%" PetscInt_FMT ", %" PetscInt_FMT "), }", m, n));
  PetscCall(PetscStrlen(head, &len));
  total = ((sizeof(pre) + len + 1 + 63) / 64) * 64;
  while (sizeof(pre) + len + 1 < total) head[len++] = ' ';
  head[len++] = '\n';
  pre[8]      = (unsigned char)(len & 0xff);
  pre[9]      = (unsigned char)(len >> 8);
  fp          = fopen(path, "wb");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s for writing", path);
  bad = fwrite(pre, 1, sizeof(pre), fp) != sizeof(pre);
  bad |= fwrite(head, 1, len, fp) != len;
  if (sizeof(PetscReal) == sizeof(double))
    bad |= fwrite(a, sizeof(double), count, fp) != count;
  else
    for (size_t i = 0; i < count && !bad; i++) {
      const double d = (double)a[i];
      bad |= fwrite(&d, sizeof(d), 1, fp) != 1;
    }
  bad |= fclose(fp) != 0;
  PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Writing %s failed", path);
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- VTK ImageData */

/* The XML head of a .vti file of the grid n with spacings h (origin 0): one piece per rank (the slabs zstart[0..size]), the
   field u as raw appended Float32 data with 64-bit sizes. */
PetscErrorCode AcousticVTIWriteHeader_Private(FILE *fp, const PetscInt n[3], const PetscReal h[3], PetscMPIInt size, const PetscInt zstart[])
{
  size_t offset = 0;

  PetscFunctionBegin;
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "<?xml version=\"1.0\"?>\n"));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp,
                         "  <ImageData WholeExtent=\"0 %" PetscInt_FMT " 0 %" PetscInt_FMT " 0 %" PetscInt_FMT
                         "\" Origin=\"0 0 0\" Spacing=\"%.17g %.17g %.17g\">\n",
                         n[0] - 1, n[1] - 1, n[2] - 1, (double)h[0], (double)h[1], (double)h[2]));
  for (PetscMPIInt r = 0; r < size; r++) {
    const PetscInt nz = zstart[r + 1] - zstart[r];
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp,
                           "    <Piece Extent=\"0 %" PetscInt_FMT " 0 %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT
                           "\">\n      <PointData Scalars=\"u\">\n",
                           n[0] - 1, n[1] - 1, zstart[r], zstart[r] + nz - 1));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "        <DataArray type=\"Float32\" Name=\"u\" format=\"appended\" offset=\"%zu\"/>\n", offset));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "      </PointData>\n    </Piece>\n"));
    offset += 8 + (size_t)n[0] * (size_t)n[1] * (size_t)nz * sizeof(float);
  }
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  </ImageData>\n  <AppendedData encoding=\"raw\">\n_"));
  PetscFunctionReturn(0);
}

/* One piece's data: its size in bytes (UInt64), then count values as float32. */
PetscErrorCode AcousticVTIWritePiece_Private(FILE *fp, size_t count, const PetscReal v[])
{
  const unsigned long long bytes = (unsigned long long)count * sizeof(float);
  float                    buf[1024];

  PetscFunctionBegin;
  PetscCheck(fwrite(&bytes, sizeof(bytes), 1, fp) == 1, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Writing a VTK piece failed");
  for (size_t i = 0; i < count; i += 1024) {
    const size_t m = PetscMin((size_t)1024, count - i);
    for (size_t j = 0; j < m; j++) buf[j] = (float)v[i + j];
    PetscCheck(fwrite(buf, sizeof(float), m, fp) == m, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Writing a VTK piece failed");
  }
  PetscFunctionReturn(0);
}

PetscErrorCode AcousticVTIWriteEnd_Private(FILE *fp)
{
  PetscFunctionBegin;
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\n  </AppendedData>\n</VTKFile>\n"));
  PetscFunctionReturn(0);
}
