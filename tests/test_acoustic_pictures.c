/* Pictures of the acoustic operator (issue 23, item 7), read back with libpng: slices of any plane with their size, colour
   bar, frame and text; one colour scale for the snapshots of a run; VTK ImageData; the shot gather; unwritable files. */
#include "harness.h"
#include <png.h>
#include <unistd.h>

static const char help[] = "Tests of the acoustic operator's pictures and volumes (src/acoustic).\n";

/* An RGB PNG read back whole (libpng's simplified API). */
static unsigned char *read_png(const char *path, PetscInt *w, PetscInt *h)
{
  png_image      img;
  unsigned char *rgb;

  memset(&img, 0, sizeof(img));
  img.version = PNG_IMAGE_VERSION;
  assert_true(png_image_begin_read_from_file(&img, path));
  img.format = PNG_FORMAT_RGB;
  rgb        = malloc(PNG_IMAGE_SIZE(img));
  assert_non_null(rgb);
  assert_true(png_image_finish_read(&img, NULL, rgb, 0, NULL));
  *w = (PetscInt)img.width;
  *h = (PetscInt)img.height;
  return rgb;
}

static const unsigned char *pixel(const unsigned char *rgb, PetscInt w, PetscInt x, PetscInt y)
{
  return rgb + 3 * ((size_t)y * w + x);
}

/* The pixel is within 8 levels of the colour map at t. */
static int near_colour(const unsigned char *p, PetscReal t)
{
  unsigned char c[3];
  AcColour(t, c);
  for (int a = 0; a < 3; a++)
    if (abs((int)p[a] - (int)c[a]) > 8) return 0;
  return 1;
}

/* A picture of layout l: its size, the colour bar (red at the top, white in the middle, blue at the bottom), the frames,
   and text (black pixels) in the title line. */
static void check_picture(const char *path, const AcPlotLayout *l)
{
  PetscInt       w, h, black = 0;
  unsigned char *rgb = read_png(path, &w, &h);
  const PetscInt cx  = l->bx + l->bw / 2;

  print_message("  %s: %d x %d pixels, plot %d x %d at (%d, %d), colour bar at x = %d\n", path, (int)w, (int)h, (int)l->pw, (int)l->ph, (int)l->px, (int)l->py,
                (int)l->bx);
  assert_int_equal(w, l->w);
  assert_int_equal(h, l->h);
  assert_true(near_colour(pixel(rgb, w, cx, l->by + 1), 1 - 3.0 / l->bh));
  assert_true(near_colour(pixel(rgb, w, cx, l->by + l->bh / 2), 0));
  assert_true(near_colour(pixel(rgb, w, cx, l->by + l->bh - 2), -1 + 3.0 / l->bh));
  assert_memory_equal(pixel(rgb, w, l->bx - 1, l->by + l->bh / 2), "\0\0\0", 3); /* the bar's frame */
  assert_memory_equal(pixel(rgb, w, l->px - 1, l->py + l->ph / 3), "\0\0\0", 3); /* the plot's */
  for (PetscInt y = l->title_y; y < l->title_y + 18; y++)
    for (PetscInt x = 0; x < w; x++) black += !memcmp(pixel(rgb, w, x, y), "\0\0\0", 3);
  assert_true(black > 100);
  free(rgb);
}

static void create(Acoustic *ac, PetscInt nx, PetscInt ny, PetscInt nz)
{
  PCALL(AcousticCreate(PETSC_COMM_SELF, ac));
  PCALL(AcousticSetSizes(*ac, nx, ny, nz));
  PCALL(AcousticSetDamping(*ac, 4));
  PCALL(AcousticSetSourceWavelet(*ac, 100, 1));
}

/* Slices across each axis: at least 512 pixels on the plot's long side (the same factor on both axes), the colour bar,
   the frames and the title; the default is the central z plane. */
static void test_slices(void **state)
{
  const PetscInt n[3]     = {41, 33, 29};
  const char    *plane[3] = {"x:20", "y:10", NULL};
  Acoustic       ac;
  char           png[64];

  PCALL(PetscSNPrintf(png, sizeof(png), "ac_pic_%d.png", (int)getpid()));
  for (PetscInt axis = 0; axis < 3; axis++) {
    const PetscInt a1 = axis == 0 ? 1 : 0, a2 = axis == 2 ? 1 : 2;
    AcPlotLayout   l;

    SbpmgTestSetOption("-ac_snapshot_plane", plane[axis]);
    create(&ac, n[0], n[1], n[2]);
    PCALL(AcousticSetFromOptions(ac));
    PCALL(AcousticSetUp(ac));
    PCALL(AcousticStep(ac, 60));
    PCALL(AcousticWriteSlicePNG(ac, png));
    AcPlotLayoutCompute(n[a1], n[a2], PETSC_TRUE, &l);
    assert_true(PetscMax(l.pw, l.ph) >= 512);
    assert_true(l.pw * n[a2] == l.ph * n[a1]); /* one factor on both axes */
    check_picture(png, &l);
    assert_int_equal(unlink(png), 0);
    PCALL(AcousticDestroy(&ac));
  }
  SbpmgTestSetOption("-ac_snapshot_plane", NULL);
}

/* The colour scale of a run is the first snapshot's max |u| (a slice of zeros leaves it unset), the same for the later
   ones; a scale the user sets is kept. */
static void test_fixed_scale(void **state)
{
  const PetscInt n = 33;
  Acoustic       ac;
  PetscReal     *plane, m = 0, first;
  char           png[64];

  PCALL(PetscSNPrintf(png, sizeof(png), "ac_scale_%d.png", (int)getpid()));
  PCALL(PetscMalloc1(n * n, &plane));
  create(&ac, n, n, n);
  PCALL(AcousticSetUp(ac));
  PCALL(AcousticWriteSlicePNG(ac, png)); /* zero fields */
  assert_true(ac->snap_scale == 0);
  PCALL(AcousticStep(ac, 30));
  PCALL(AcousticGetSlice_Private(ac, ACOUSTIC_FIELD_U, 2, n / 2, plane));
  for (PetscInt p = 0; p < n * n; p++) m = PetscMax(m, PetscAbsReal(plane[p]));
  PCALL(AcousticWriteSlicePNG(ac, png));
  first = ac->snap_scale;
  print_message("  scale after the first snapshot %.6e, max |u| of its slice %.6e\n", (double)first, (double)m);
  assert_true(first == m && m > 0);
  PCALL(AcousticStep(ac, 30));
  PCALL(AcousticWriteSlicePNG(ac, png));
  assert_true(ac->snap_scale == first);
  PCALL(AcousticSetSnapshotScale(ac, 0.25));
  PCALL(AcousticWriteSlicePNG(ac, png));
  assert_true(ac->snap_scale == 0.25);
  assert_int_equal(unlink(png), 0);
  PCALL(AcousticDestroy(&ac));
  PCALL(PetscFree(plane));
}

/* VTK ImageData: the header (extent, origin, spacing, no coordinates), then u as raw Float32 with a 64-bit size. */
static void test_vti(void **state)
{
  const PetscInt     n[3] = {41, 33, 29}, N = n[0] * n[1] * n[2];
  Acoustic           ac;
  char               vti[64], *buf, *data;
  FILE              *fp;
  size_t             got;
  PetscReal         *u;
  unsigned long long bytes;

  PCALL(PetscSNPrintf(vti, sizeof(vti), "ac_test_%d.vti", (int)getpid()));
  create(&ac, n[0], n[1], n[2]);
  PCALL(AcousticSetSpacing(ac, 20, 15, 10));
  PCALL(AcousticSetUp(ac));
  PCALL(AcousticStep(ac, 40));
  PCALL(AcousticWriteVTK(ac, vti));
  PCALL(PetscMalloc2(4 * N + 4096, &buf, N, &u));
  fp = fopen(vti, "rb");
  assert_non_null(fp);
  got = fread(buf, 1, 4 * N + 4095, fp);
  fclose(fp);
  buf[got] = 0;
  assert_non_null(strstr(buf, "<VTKFile type=\"ImageData\""));
  assert_non_null(strstr(buf, "<ImageData WholeExtent=\"0 40 0 32 0 28\" Origin=\"0 0 0\" Spacing=\"20 15 10\">"));
  assert_non_null(strstr(buf, "<DataArray type=\"Float32\" Name=\"u\" format=\"appended\" offset=\"0\"/>"));
  assert_null(strstr(buf, "Points"));
  assert_null(strstr(buf, "Coordinates"));
  data = strstr(buf, "<AppendedData encoding=\"raw\">\n_");
  assert_non_null(data);
  data += strlen("<AppendedData encoding=\"raw\">\n_");
  memcpy(&bytes, data, sizeof(bytes));
  assert_int_equal(bytes, 4 * (unsigned long long)N);
  PCALL(AcousticGetField(ac, ACOUSTIC_FIELD_U, u));
  for (PetscInt p = 0; p < N; p++) {
    float f;
    memcpy(&f, data + 8 + 4 * p, 4);
    if (f != (float)u[p]) fail_msg("point %d: %g in the file, %g in the field", (int)p, (double)f, (double)u[p]);
  }
  assert_non_null(strstr(data + 8 + 4 * N, "</AppendedData>\n</VTKFile>"));
  assert_int_equal(unlink(vti), 0);
  PCALL(PetscFree2(buf, u));
  PCALL(AcousticDestroy(&ac));
}

/* The shot gather: receivers across, samples down (each axis on its own scale), the colour bar and the title. */
static void test_shot_gather(void **state)
{
  const PetscReal x0[3] = {200, 320, 300}, x1[3] = {600, 320, 300};
  Acoustic        ac;
  AcPlotLayout    l;
  PetscInt        nrec, ns;
  char            png[64];

  PCALL(PetscSNPrintf(png, sizeof(png), "ac_gather_%d.png", (int)getpid()));
  create(&ac, 41, 33, 29);
  PCALL(AcousticSetSource(ac, 10, 16, 15));
  PCALL(AcousticSetReceiversLine(ac, x0, x1, 21));
  PCALL(AcousticSetTraceInterval(ac, 2));
  PCALL(AcousticSetUp(ac));
  PCALL(AcousticStep(ac, 120));
  PCALL(AcousticGetTraceSizes(ac, &nrec, &ns, NULL));
  assert_int_equal(nrec, 21);
  assert_int_equal(ns, 61);
  PCALL(AcousticWriteShotGatherPNG(ac, png, 99));
  AcPlotLayoutCompute(nrec, ns, PETSC_FALSE, &l);
  assert_true(l.pw >= 512 && l.ph >= 512);
  check_picture(png, &l);
  assert_int_equal(unlink(png), 0);
  PCALL(AcousticDestroy(&ac));
}

/* Unwritable files and bad picture settings. */
static void test_bad_pictures(void **state)
{
  const PetscReal x[3] = {200, 200, 200};
  Acoustic        ac;

  create(&ac, 24, 24, 24);
  PCALL(AcousticSetReceivers(ac, 1, x));
  EXPECT_ERROR(AcousticSetSnapshotScale(ac, -1), PETSC_ERR_ARG_OUTOFRANGE, "Snapshot scale -1. (-ac_snapshot_scale) must be >= 0 and finite");
  EXPECT_ERROR(AcousticSetSnapshotPlane(ac, 3, 0), PETSC_ERR_ARG_OUTOFRANGE, "Snapshot axis 3 must be 0 (x), 1 (y) or 2 (z)");
  PCALL(AcousticSetUp(ac));
  PCALL(AcousticStep(ac, 5));
  EXPECT_ERROR(AcousticWriteSlicePNG(ac, "/nonexistent-dir/x.png"), PETSC_ERR_FILE_OPEN, "Cannot open /nonexistent-dir/x.png for writing");
  EXPECT_ERROR(AcousticWriteVTK(ac, "/nonexistent-dir/x.vti"), PETSC_ERR_FILE_OPEN, "Cannot open /nonexistent-dir/x.vti for writing");
  EXPECT_ERROR(AcousticWriteShotGatherPNG(ac, "/nonexistent-dir/g.png", 99), PETSC_ERR_FILE_OPEN, "Cannot open /nonexistent-dir/g.png for writing");
  EXPECT_ERROR(AcousticWriteTraces(ac, "/nonexistent-dir/t.npy"), PETSC_ERR_FILE_OPEN, "Cannot open /nonexistent-dir/t.npy for writing");
  EXPECT_ERROR(AcousticWriteShotGatherPNG(ac, "g.png", 0), PETSC_ERR_ARG_OUTOFRANGE, "Clip percentile 0. must be in (0, 100]");
  PCALL(AcousticDestroy(&ac));
  SbpmgTestSetOption("-ac_snapshot_plane", "w:3");
  create(&ac, 24, 24, 24);
  EXPECT_ERROR(AcousticSetFromOptions(ac), PETSC_ERR_ARG_WRONG, "-ac_snapshot_plane w:3: expected x, y or z, then :index (e.g. y:100)");
  PCALL(AcousticDestroy(&ac));
  SbpmgTestSetOption("-ac_snapshot_plane", "y:24");
  create(&ac, 24, 24, 24);
  PCALL(AcousticSetFromOptions(ac));
  EXPECT_ERROR(AcousticSetUp(ac), PETSC_ERR_ARG_OUTOFRANGE, "Snapshot plane y:24 (-ac_snapshot_plane) is outside the grid: y indices are 0 .. 23");
  PCALL(AcousticDestroy(&ac));
  SbpmgTestSetOption("-ac_snapshot_plane", NULL);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_slices),      cmocka_unit_test(test_fixed_scale),  cmocka_unit_test(test_vti),
    cmocka_unit_test(test_shot_gather), cmocka_unit_test(test_bad_pictures),
};

SBPMG_TEST_MAIN(help, tests)
