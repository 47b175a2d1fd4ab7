/* Hostile inputs of the acoustic operator (issue 37): extreme but finite values bound the set-up by the run's size
   (a delay of 1e9 s, -ac_fmax 1e-6, a velocity of 1e30 m/s), every file reader fed truncated, wrong-endian, wrong-size,
   oversized, NaN and garbage files (a clear error or a correct load), integer options that would wrap, options that
   would do nothing, reals printed with all their digits, a traces write that fails (its viewer freed). */
#include "test_acoustic_common.h"
#include <unistd.h>
#include <fcntl.h>

static const char help[] = "Tests of the acoustic operator's hostile inputs (src/acoustic).\n";

static void write_bytes(const char *path, const void *data, size_t n)
{
  FILE *fp = fopen(path, "wb");
  assert_non_null(fp);
  assert_int_equal(fwrite(data, 1, n, fp), n);
  fclose(fp);
}

static void write_text(const char *path, const char *text)
{
  write_bytes(path, text, strlen(text));
}

static void temp_name(char *path, size_t len, const char *what)
{
  PCALL(PetscSNPrintf(path, len, "ac_inputs_%s_%d", what, (int)getpid()));
}

/* A run of K steps from the options (24^3, 20 m, PML 4) with one receiver at the centre; its trace (K + 1 samples) and the
   table size of the sources. */
static void run_options(const char *const opts[], AcousticBackend backend, PetscInt K, PetscReal *trace, PetscInt *ntab)
{
  Acoustic        ac;
  const PetscReal rec[3] = {240, 240, 260};
  PetscInt        nrec, ns;

  for (int o = 0; opts[o]; o += 2) SbpmgTestSetOption(opts[o], opts[o + 1]);
  PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
  PCALL(AcousticSetSizes(ac, 24, 24, 24));
  PCALL(AcousticSetDamping(ac, 4));
  PCALL(AcousticSetBackend(ac, backend));
  PCALL(AcousticSetReceivers(ac, 1, rec));
  PCALL(AcousticSetFromOptions(ac));
  PCALL(AcousticSetUp(ac));
  *ntab = ac->sv.ntab;
  PCALL(AcousticStep(ac, K));
  PCALL(AcousticGetTraceSizes(ac, &nrec, &ns, NULL));
  assert_int_equal(nrec, 1);
  assert_int_equal(ns, K + 1);
  PCALL(AcousticGetTraces(ac, trace));
  PCALL(AcousticDestroy(&ac));
  for (int o = 0; opts[o]; o += 2) SbpmgTestSetOption(opts[o], NULL);
}

static PetscReal max_abs(PetscInt n, const PetscReal *a)
{
  PetscReal m = 0;
  for (PetscInt i = 0; i < n; i++) m = PetscMax(m, PetscAbsReal(a[i]));
  return m;
}

/* Set-up bounded by the run's size: delays and durations of 1e9 s and beyond, a peak frequency of 1e-6 Hz (each took a
   loop of 1e12 or more steps and a table that long) set up at once, with tables of at most 16384 values; a source that
   starts mid-run is the undelayed one shifted (host, fp64), across the table's refills (300 steps > its window of 256);
   the device agrees with the host. */
static void test_bounded_setup(void **state)
{
  enum { K = 300 };
  char            path[64];
  PetscReal       a[K + 1], b[K + 1], c[K + 1];
  PetscInt        ntab;
  const PetscInt  d = 37; /* delay in steps */
  char            line[128];
  PetscReal       dt;
  Acoustic        probe;
  const char     *far[] = {"1e9", "1e15", "1e300"};
  const PetscReal vfast = 4500;

  temp_name(path, sizeof(path), "src");
  /* the time step of the 24^3 grid of 20 m (vmax 4500): a delay of d steps */
  PCALL(AcousticCreate(PETSC_COMM_SELF, &probe));
  PCALL(AcousticSetSizes(probe, 24, 24, 24));
  PCALL(AcousticSetDamping(probe, 4));
  PCALL(AcousticSetBackend(probe, ACOUSTIC_BACKEND_HOST));
  PCALL(AcousticSetUp(probe));
  PCALL(AcousticGetTimeStep(probe, &dt));
  PCALL(AcousticDestroy(&probe));
  assert_true(dt > 0 && dt < 20 / vfast);
  for (size_t f = 0; f < sizeof(far) / sizeof(far[0]); f++) { /* a source that never fires within the run: all zero */
    PCALL(PetscSNPrintf(line, sizeof(line), "240 240 240 %s 1\n", far[f]));
    write_text(path, line);
    for (PetscInt be = 0; be < 2; be++) {
      run_options((const char *const[]){"-ac_sources", path, NULL}, (AcousticBackend)be, 20, a, &ntab);
      assert_true(ntab <= 16384);
      if (max_abs(21, a) != 0) fail_msg("delay %s s: the trace is not zero (max %g)", far[f], (double)max_abs(21, a));
    }
  }
  /* a Ricker of fmax 1e-6 Hz (peak after 3.75e6 s): a bounded table, a finite field; device and host agree */
  run_options((const char *const[]){"-ac_fmax", "1e-6", NULL}, ACOUSTIC_BACKEND_HOST, 20, a, &ntab);
  assert_true(ntab <= 16384);
  run_options((const char *const[]){"-ac_fmax", "1e-6", NULL}, ACOUSTIC_BACKEND_DEVICE, 20, b, &ntab);
  for (PetscInt s = 0; s <= 20; s++) assert_true(PetscIsNormalReal(a[s]) || a[s] == 0);
  /* a delay of d steps: the trace of the undelayed source shifted by d (the table refilled every 256 steps) */
  write_text(path, "240 240 240 0 1\n");
  run_options((const char *const[]){"-ac_sources", path, "-ac_fmax", "60", NULL}, ACOUSTIC_BACKEND_HOST, K, a, &ntab);
  PCALL(PetscSNPrintf(line, sizeof(line), "240 240 240 %.17g 1\n", (double)(d * dt)));
  write_text(path, line);
  run_options((const char *const[]){"-ac_sources", path, "-ac_fmax", "60", NULL}, ACOUSTIC_BACKEND_HOST, K, b, &ntab);
  assert_true(max_abs(K + 1, a) > 0);
  for (PetscInt s = 0; s <= K; s++) {
    const PetscReal want = s >= d ? a[s - d] : 0;
    if (PetscAbsReal(b[s] - want) > 1e-9 * max_abs(K + 1, a))
      fail_msg("sample %d: %g, the undelayed trace %d steps earlier %g", (int)s, (double)b[s], (int)d, (double)want);
  }
  run_options((const char *const[]){"-ac_sources", path, "-ac_fmax", "60", NULL}, ACOUSTIC_BACKEND_DEVICE, K, c, &ntab);
  for (PetscInt s = 0; s <= K; s++)
    if (PetscAbsReal(c[s] - b[s]) > 1e-4 * max_abs(K + 1, b)) fail_msg("sample %d: device %g, host %g", (int)s, (double)c[s], (double)b[s]);
  assert_int_equal(unlink(path), 0);
}

/* Impossible time steps: the velocity that sets dt is named with the slowest one it would freeze (a layer, a point of an
   array, -ac_vmax), and a dt that is not a normal number. */
static void test_impossible_time_step(void **state)
{
  Acoustic   ac;
  PetscReal *v;

  AcTestExpectOptionError((const char *const[]){"-ac_layers", "2000,100,1e30", "-ac_vmax", "0", NULL}, 1, PETSC_ERR_ARG_OUTOFRANGE,
                          "The velocity 1e+30 m/s (-ac_layers) makes the time step dt = ");
  AcTestExpectOptionError((const char *const[]){"-ac_layers", "2000,100,1e30", "-ac_vmax", "0", NULL}, 1, PETSC_ERR_ARG_OUTOFRANGE,
                          "too small for the slowest velocity 2000. m/s: (v dt)^2 = ");
  AcTestExpectOptionError((const char *const[]){"-ac_vmax", "1e300", NULL}, 1, PETSC_ERR_ARG_OUTOFRANGE,
                          "The velocity 1e+300 m/s (-ac_vmax) makes the time step");
  AcTestExpectOptionError((const char *const[]){"-ac_vmax", "1e308", "-ac_cfl", "0.01", "-ac_dx", "1", NULL}, 1, PETSC_ERR_ARG_OUTOFRANGE,
                          "s, which is not a normal positive number");
  /* one point of an array at 1e30 m/s */
  PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
  PCALL(AcousticSetSizes(ac, 20, 20, 20));
  PCALL(AcousticSetDamping(ac, 4));
  PCALL(AcousticSetBackend(ac, ACOUSTIC_BACKEND_HOST));
  PCALL(AcousticSetMaxVelocity(ac, 0));
  PCALL(PetscMalloc1(8000, &v));
  for (PetscInt p = 0; p < 8000; p++) v[p] = 1500 + p % 7;
  v[4321] = 1e30;
  PCALL(AcousticSetVelocityArray(ac, v));
  PCALL(PetscFree(v));
  EXPECT_ERROR(AcousticSetUp(ac), PETSC_ERR_ARG_OUTOFRANGE, "The velocity 1e+30 m/s (the velocity array) makes the time step");
  PCALL(AcousticDestroy(&ac));
}

/* The velocity file (raw float32, x fastest) of a 21^3 grid: every bad file an error naming the file, before any
   allocation of its size; a good one loads with its range. */
static void test_velocity_file_fuzz(void **state)
{
  enum { N = 21 * 21 * 21 };
  char   path[64];
  float *f;
  int    fd;

  temp_name(path, sizeof(path), "vel");
  f = (float *)malloc(N * sizeof(float));
  assert_non_null(f);
  for (int p = 0; p < N; p++) f[p] = 2000.0f + (float)(p % 1000);
  { /* a good file: its range */
    Acoustic  ac;
    PetscReal lo, hi;
    write_bytes(path, f, N * sizeof(float));
    SbpmgTestSetOption("-ac_vel", path);
    SbpmgTestSetOption("-ac_vmax", "0");
    PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
    PCALL(AcousticSetSizes(ac, 21, 21, 21));
    PCALL(AcousticSetDamping(ac, 4));
    PCALL(AcousticSetBackend(ac, ACOUSTIC_BACKEND_HOST));
    PCALL(AcousticSetFromOptions(ac));
    PCALL(AcousticSetUp(ac));
    lo = ac->velmin;
    hi = ac->velmax;
    PCALL(AcousticDestroy(&ac));
    SbpmgTestSetOption("-ac_vel", NULL);
    SbpmgTestSetOption("-ac_vmax", NULL);
    assert_true(lo == 2000 && hi == 2999);
  }
  {
    struct {
      size_t      bytes;
      const char *msg;
    } sizes[] = {
        {0, "has 0 bytes; a 21 x 21 x 21 grid needs 37044"},                            /* empty */
        {N * sizeof(float) / 2, "has 18522 bytes; a 21 x 21 x 21 grid needs 37044"},    /* truncated */
        {N * sizeof(float) - 1, "has 37043 bytes; a 21 x 21 x 21 grid needs 37044"},    /* one byte short */
        {N * sizeof(float) + 4, "has 37048 bytes; a 21 x 21 x 21 grid needs 37044"},    /* one value too many */
        {(size_t)1 << 33, "has 8589934592 bytes; a 21 x 21 x 21 grid needs 37044"},     /* 8 GiB (sparse): refused unread */
        {(size_t)22 * 22 * 22 * 4, "has 42592 bytes; a 21 x 21 x 21 grid needs 37044"}, /* another grid's */
    };
    for (size_t c = 0; c < sizeof(sizes) / sizeof(sizes[0]); c++) {
      write_bytes(path, f, PetscMin(sizes[c].bytes, N * sizeof(float)));
      fd = open(path, O_WRONLY);
      assert_true(fd >= 0);
      assert_int_equal(ftruncate(fd, (off_t)sizes[c].bytes), 0);
      close(fd);
      AcTestExpectOptionError((const char *const[]){"-ac_vel", path, "-ac_n", "21", NULL}, 1, PETSC_ERR_FILE_UNEXPECTED, sizes[c].msg);
    }
  }
  { /* big-endian files: 2000 reads 9e-41 little-endian, 1500 reads 1.2e-38 (a normal float) */
    const float vals[2] = {2000.0f, 1500.0f};
    for (int c = 0; c < 2; c++) {
      unsigned char *b = (unsigned char *)f;
      for (int p = 0; p < N; p++) {
        unsigned char x[4];
        memcpy(x, &vals[c], 4);
        for (int i = 0; i < 4; i++) b[4 * p + i] = x[3 - i];
      }
      write_bytes(path, f, N * sizeof(float));
      AcTestExpectOptionError((const char *const[]){"-ac_vel", path, "-ac_n", "21", NULL}, 1, PETSC_ERR_FILE_UNEXPECTED,
                              "looks big-endian: its first value reads");
    }
  }
  { /* NaN, negative, zero, subnormal at one point: named with the point */
    const float bad[3] = {NAN, -5.0f, 0.0f};
    const char *msg[3] = {"Velocity nan at grid point (5, 4, 3) of -ac_vel", "Velocity -5. at grid point (5, 4, 3) of -ac_vel",
                          "Velocity 0. at grid point (5, 4, 3) of -ac_vel"};
    for (int c = 0; c < 3; c++) {
      for (int p = 0; p < N; p++) f[p] = 2000.0f;
      f[5 + 21 * (4 + 21 * 3)] = bad[c];
      write_bytes(path, f, N * sizeof(float));
      AcTestExpectOptionError((const char *const[]){"-ac_vel", path, "-ac_n", "21", NULL}, 1, PETSC_ERR_ARG_OUTOFRANGE, msg[c]);
    }
  }
  { /* garbage of the right size (fixed seed): an error naming the file, never a crash */
    unsigned int seed = 12345;
    for (int trial = 0; trial < 4; trial++) {
      unsigned char *b = (unsigned char *)f;
      for (int p = 0; p < 4 * N; p++) b[p] = (unsigned char)((seed = seed * 1103515245u + 12345u) >> 16);
      write_bytes(path, f, N * sizeof(float));
      AcTestExpectOptionError((const char *const[]){"-ac_vel", path, "-ac_n", "21", NULL}, 1, -1, path);
    }
  }
  free(f);
  assert_int_equal(unlink(path), 0);
}

/* The text readers (receivers, sources, wavelet): lines of any length, a NUL byte (a binary file), numbers beyond double,
   NaN, truncated lines and garbage: an error naming the file and the line, or a correct load. */
static void test_text_file_fuzz(void **state)
{
  char         path[64];
  char        *big;
  const size_t nbig = 200000;

  temp_name(path, sizeof(path), "txt");
  big = (char *)malloc(nbig + 64);
  assert_non_null(big);
  { /* a wavelet of 3000 samples on one line of about 14000 characters (lines over 1022 were refused): loads them all */
    Acoustic ac;
    size_t   len = 0;
    for (int i = 0; i < 3000; i++) len += (size_t)snprintf(big + len, nbig - len, "%s%.3f", i ? " " : "", 0.001 * (i % 17));
    big[len++] = '\n';
    big[len]   = 0;
    write_text(path, big);
    SbpmgTestSetOption("-ac_wavelet", path);
    PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
    PCALL(AcousticSetSizes(ac, 24, 24, 24));
    PCALL(AcousticSetFromOptions(ac));
    assert_int_equal(ac->nwavelet, 3000);
    for (int i = 0; i < 3000; i++) assert_true(PetscAbsReal(ac->wavelet[i] - 0.001 * (i % 17)) < 1e-12);
    PCALL(AcousticDestroy(&ac));
    SbpmgTestSetOption("-ac_wavelet", NULL);
  }
  { /* a receiver line padded with 200000 spaces and a comment, CRLF endings: 2 receivers */
    Acoustic ac;
    memset(big, ' ', nbig);
    memcpy(big, "100 100 100", 11);
    PCALL(PetscStrncpy(big + nbig, "# far\r\n200 200 200\r\n", 64));
    write_text(path, big);
    SbpmgTestSetOption("-ac_receivers", path);
    PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
    PCALL(AcousticSetSizes(ac, 24, 24, 24));
    PCALL(AcousticSetFromOptions(ac));
    assert_int_equal(ac->nrecpos, 2);
    assert_true(ac->recpos[0] == 100 && ac->recpos[5] == 200);
    PCALL(AcousticDestroy(&ac));
    SbpmgTestSetOption("-ac_receivers", NULL);
  }
  free(big);
  {
    static const struct {
      const char    *option, *text;
      size_t         len; /* 0: strlen */
      PetscErrorCode code;
      const char    *msg;
    } bad[] = {
        {"-ac_receivers", "100 100 100\n100 10", 0, PETSC_ERR_FILE_UNEXPECTED, ", line 2: \"100 10\" is not x y z (3 numbers, metres)"}, /* truncated */
        {"-ac_receivers", "100 100\0 100\n", 13, PETSC_ERR_FILE_UNEXPECTED, ", line 1: a NUL byte: it is not a text file of x y z"},
        {"-ac_receivers", "100 1e999 100\n", 0, PETSC_ERR_FILE_UNEXPECTED, ", line 1: \"100 1e999 100\" is not x y z"},
        {"-ac_receivers", "100 100 nan\n", 0, PETSC_ERR_ARG_OUTOFRANGE, "Receiver 0: z = nan must be finite"},
        {"-ac_receivers",
         "\x7f"
         "ELF\x02\x01\x01\n",
         0, PETSC_ERR_FILE_UNEXPECTED, "is not x y z (3 numbers, metres)"},
        {"-ac_sources", "100 100 100 nan\n", 0, PETSC_ERR_ARG_OUTOFRANGE, "Source 0: delay = nan must be finite"},
        {"-ac_sources", "100 100 100 0 1e400\n", 0, PETSC_ERR_FILE_UNEXPECTED, "is not x y z [delay [amplitude]]"},
        {"-ac_sources", "\0\0\0\rIHDR\n", 10, PETSC_ERR_FILE_UNEXPECTED, ", line 1: a NUL byte: it is not a text file of x y z [delay"},
        {"-ac_sources", "\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16, PETSC_ERR_FILE_UNEXPECTED, "is not x y z [delay [amplitude]]"},
        {"-ac_wavelet", "0 1 2\n3 4 \0 5\n", 14, PETSC_ERR_FILE_UNEXPECTED, "line 2: a NUL byte: it is not a text file of a list of numbers"},
        {"-ac_wavelet", "0 1 2 inf\n", 0, PETSC_ERR_ARG_OUTOFRANGE, "Wavelet sample 3 of file"},
        {"-ac_wavelet", "0 1 2 0x\n", 0, PETSC_ERR_FILE_UNEXPECTED, "\"0 1 2 0x\" is not a list of numbers"},
    };
    for (size_t c = 0; c < sizeof(bad) / sizeof(bad[0]); c++) {
      write_bytes(path, bad[c].text, bad[c].len ? bad[c].len : strlen(bad[c].text));
      AcTestExpectOptionError((const char *const[]){bad[c].option, path, NULL}, 0, bad[c].code, bad[c].msg);
    }
  }
  { /* garbage bytes (fixed seed) for each reader: an error naming the file, never a crash */
    const char  *opt[3] = {"-ac_receivers", "-ac_sources", "-ac_wavelet"};
    unsigned int seed   = 777;
    char         g[4096];
    for (int o = 0; o < 3; o++) {
      for (size_t i = 0; i < sizeof(g); i++) g[i] = (char)((seed = seed * 1103515245u + 12345u) >> 16);
      write_bytes(path, g, sizeof(g));
      AcTestExpectOptionError((const char *const[]){opt[o], path, NULL}, 0, -1, path);
    }
  }
  assert_int_equal(unlink(path), 0);
}

/* Options that wrapped, did nothing or lost digits; a traces write that fails frees its viewer (-malloc_dump). */
static void test_options(void **state)
{
  Acoustic ac;

  AcTestExpectOptionError((const char *const[]){"-ac_receivers_line", "100,100,100:200,100,100:4294967301", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE,
                          "-ac_receivers_line 100,100,100:200,100,100:4294967301: the receiver count 4294967301 does not fit a 32-bit PetscInt");
  AcTestExpectOptionError((const char *const[]){"-ac_receivers_line", "100,100,100:200,100,100:-4294967295", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE,
                          "the receiver count -4294967295 does not fit");
  AcTestExpectOptionError((const char *const[]){"-ac_receivers_line", "100,100,100:200,100,100:400000000", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE,
                          "400000000 receivers are more than the 268435455 that 32-bit indices hold");
  AcTestExpectOptionError((const char *const[]){"-ac_snapshot_plane", "y:4294967297", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE,
                          "-ac_snapshot_plane y:4294967297: the index 4294967297 does not fit a 32-bit PetscInt");
  AcTestExpectOptionError((const char *const[]){"-ac_vel", "3000", "-ac_layers", "2000,200,2500", NULL}, 0, PETSC_ERR_ARG_INCOMP,
                          "-ac_vel 3000 has no effect with -ac_layers: both give the velocity model");
  AcTestExpectOptionError((const char *const[]){"-ac_cfl", "1.0000001", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE,
                          "CFL number 1.0000001 (-ac_cfl) is above the stability limit 1");
  AcTestExpectOptionError((const char *const[]){"-ac_fmax", "-1e-7", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE, "Source frequency -ac_fmax -1e-07 must be positive");
  AcTestExpectOptionError((const char *const[]){"-ac_receivers_line", "100,100,100:460.0001,100,100:2", NULL}, 1, PETSC_ERR_ARG_OUTOFRANGE,
                          "Receiver 1 at (460.0001, 100., 100.) m is outside the grid [0, 460.] x [0, 460.] x [0, 460.] m");
  AcTestExpectOptionError((const char *const[]){"-ac_layers", "2000,300.5,2500,300.25,3000", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE,
                          "must increase with depth: 300.25 m after 300.5 m");
  /* a traces file that cannot be written: the error, and no viewer left (the test's -malloc_dump) */
  PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
  PCALL(AcousticSetSizes(ac, 24, 24, 24));
  PCALL(AcousticSetDamping(ac, 4));
  PCALL(AcousticSetBackend(ac, ACOUSTIC_BACKEND_HOST));
  {
    const PetscReal x0[3] = {100, 100, 100}, x1[3] = {200, 100, 100};
    PCALL(AcousticSetReceiversLine(ac, x0, x1, 3));
  }
  PCALL(AcousticSetUp(ac));
  PCALL(AcousticStep(ac, 3));
  EXPECT_ERROR(AcousticWriteTraces(ac, "/nonexistent-dir/t.bin"), PETSC_ERR_FILE_WRITE, "Writing the traces to /nonexistent-dir/t.bin (PETSc binary) failed");
  PCALL(AcousticDestroy(&ac));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_bounded_setup),
    cmocka_unit_test(test_impossible_time_step),
    cmocka_unit_test(test_velocity_file_fuzz),
    cmocka_unit_test(test_text_file_fuzz),
    cmocka_unit_test(test_options),
};

SBPMG_TEST_MAIN(help, tests)
