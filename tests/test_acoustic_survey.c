/* Sources, receivers and traces of the acoustic operator (issue 24): receivers on grid points read the field exactly,
   the device's traces against the fp64 host reference (several sources off the grid with delays, a user wavelet, a
   layered model, a trace interval), the trace buffer read back when full, the files, and every bad input. */
#include "test_acoustic_common.h"
#include <unistd.h>

static const char help[] = "Tests of the acoustic operator's sources, receivers and traces (src/acoustic).\n";

static void create(Acoustic *ac, PetscInt n, AcousticBackend backend)
{
  PCALL(AcousticCreate(PETSC_COMM_SELF, ac));
  PCALL(AcousticSetSizes(*ac, n, n + 2, n - 3));
  PCALL(AcousticSetDamping(*ac, 5));
  PCALL(AcousticSetBackend(*ac, backend));
  PCALL(AcousticSetSourceWavelet(*ac, 60, 1));
}

static PetscReal *get_traces(Acoustic ac, PetscInt *nrec, PetscInt *ns)
{
  PetscReal *tr;

  PCALL(AcousticGetTraceSizes(ac, nrec, ns, NULL));
  PCALL(PetscMalloc1(*nrec * *ns, &tr));
  PCALL(AcousticGetTraces(ac, tr));
  return tr;
}

/* Receivers on grid points (given as i dx, j dy, k dz) record exactly u there, sample m being u^m: the same bits as
   AcousticGetValue() after each step, on the device and on the host. */
static void test_grid_receivers(void **state)
{
  const PetscInt pts[3][3] = {{6, 7, 8}, {12, 9, 10}, {20, 22, 15}};
  PetscReal      xyz[9];
  const PetscInt K = 30;

  for (PetscInt b = 0; b < 2; b++) {
    Acoustic   ac;
    PetscReal *tr, val[3][31];
    PetscInt   nrec, ns;

    create(&ac, 28, (AcousticBackend)b);
    PCALL(AcousticSetSpacing(ac, 12.5, 20, 15));
    for (PetscInt r = 0; r < 3; r++)
      for (PetscInt a = 0; a < 3; a++) xyz[3 * r + a] = pts[r][a] * (a == 0 ? 12.5 : (a == 1 ? 20 : 15));
    PCALL(AcousticSetReceivers(ac, 3, xyz));
    PCALL(AcousticSetUp(ac));
    for (PetscInt s = 0; s <= K; s++) {
      if (s) PCALL(AcousticStep(ac, 1));
      for (PetscInt r = 0; r < 3; r++) PCALL(AcousticGetValue(ac, pts[r][0], pts[r][1], pts[r][2], &val[r][s]));
    }
    tr = get_traces(ac, &nrec, &ns);
    assert_int_equal(nrec, 3);
    assert_int_equal(ns, K + 1);
    for (PetscInt r = 0; r < 3; r++)
      for (PetscInt s = 0; s <= K; s++)
        if (tr[r * ns + s] != val[r][s])
          fail_msg("%s: receiver %d sample %d: %g, u there %g", b ? "host" : "device", (int)r, (int)s, (double)tr[r * ns + s], (double)val[r][s]);
    PCALL(PetscFree(tr));
    PCALL(AcousticDestroy(&ac));
  }
}

/* The survey the comparisons share: three sources off the grid (delays, amplitudes), a layered model, receivers off the
   grid along a line and from a list, a trace sample every 3 steps; with a user wavelet when w is given. */
static void survey(Acoustic ac, PetscInt nw, const PetscReal *w)
{
  const PetscReal vel[3] = {1800, 2600, 3400}, zi[2] = {150, 255}, x0[3] = {105, 130, 95}, x1[3] = {345, 300, 260},
                  extra[6] = {222, 333, 111, 300.5, 140.25, 200.75};

  PCALL(AcousticSetSpacing(ac, 15, 15, 15));
  PCALL(AcousticSetVelocityLayers(ac, 3, vel, zi));
  PCALL(AcousticSetMaxVelocity(ac, 0));
  PCALL(AcousticAddSource(ac, 201.5, 222.2, 170.7, 0, 1));
  PCALL(AcousticAddSource(ac, 150, 180, 120, 0.02, -0.5)); /* a grid point */
  PCALL(AcousticAddSource(ac, 300.3, 250.1, 200.9, 0.05, 2));
  PCALL(AcousticSetReceiversLine(ac, x0, x1, 9));
  {
    PetscReal *all;
    PCALL(PetscMalloc1(3 * 11, &all));
    PCALL(PetscArraycpy(all, ac->recpos, 27));
    PCALL(PetscArraycpy(all + 27, extra, 6));
    PCALL(AcousticSetReceivers(ac, 11, all));
    PCALL(PetscFree(all));
  }
  PCALL(AcousticSetTraceInterval(ac, 3));
  if (nw) PCALL(AcousticSetWavelet(ac, nw, w));
}

/* Device (fp32) against the host reference (fp64): the traces of the survey, with the Ricker and with a user wavelet. */
static void test_device_vs_host(void **state)
{
  const PetscInt K = 90;
  PetscReal      w[100];

  for (PetscInt i = 0; i < 100; i++) w[i] = PetscSinReal(0.2 * i) * PetscExpReal(-0.002 * (i - 30) * (i - 30));
  for (PetscInt c = 0; c < 2; c++) {
    PetscReal *tr[2], d, s;
    PetscInt   nrec, ns;

    for (PetscInt b = 0; b < 2; b++) {
      Acoustic ac;
      create(&ac, 30, (AcousticBackend)b);
      survey(ac, c ? 100 : 0, w);
      PCALL(AcousticSetUp(ac));
      PCALL(AcousticStep(ac, K));
      tr[b] = get_traces(ac, &nrec, &ns);
      PCALL(AcousticDestroy(&ac));
    }
    assert_int_equal(nrec, 11);
    assert_int_equal(ns, K / 3 + 1);
    SbpmgTestMaxDiff(nrec * ns, tr[0], tr[1], &d, &s);
    print_message("  %s: %d receivers x %d samples, device vs host %.2e relative (max %.3e)\n", c ? "user wavelet" : "Ricker", (int)nrec, (int)ns,
                  (double)(d / s), (double)s);
    assert_true(s > 0 && d <= 2e-5 * s);
    PCALL(PetscFree(tr[0]));
    PCALL(PetscFree(tr[1]));
  }
}

/* Recording moves nothing between host and device until the trace buffer is full: none in 50 steps (17 samples) with the
   default buffer, 4 reads of 4 samples of the 11 receivers with a buffer of 4; the traces of the buffer of 4, read back 8
   times in 32 samples, are those of the buffer that holds them all. */
static void test_trace_buffer(void **state)
{
  PetscReal *tr[2];
  PetscInt   nrec, ns;

  for (PetscInt c = 0; c < 2; c++) {
    Acoustic     ac;
    SbpmgCLStats a, b;

    create(&ac, 30, ACOUSTIC_BACKEND_DEVICE);
    survey(ac, 0, NULL);
    PCALL(AcousticSetTuning_Private(ac, c ? "ac_trace_samples=4" : ""));
    PCALL(AcousticSetUp(ac));
    PCALL(SbpmgCLGetStats(ac->cl, &a));
    PCALL(AcousticStep(ac, 50));
    PCALL(SbpmgCLFinish(ac->cl));
    PCALL(SbpmgCLGetStats(ac->cl, &b));
    print_message("  trace buffer of %d samples: %d reads, %d bytes in 50 steps\n", (int)ac->sv.cap, (int)(b.dtoh_count - a.dtoh_count),
                  (int)(b.dtoh_bytes - a.dtoh_bytes));
    assert_true(a.htod_count == b.htod_count && a.htod_bytes == b.htod_bytes);
    assert_true(b.dtoh_count - a.dtoh_count == (c ? 4 : 0) && b.dtoh_bytes - a.dtoh_bytes == (c ? 4 * 4 * 11 * sizeof(float) : 0));
    PCALL(AcousticStep(ac, 43));
    tr[c] = get_traces(ac, &nrec, &ns);
    PCALL(AcousticDestroy(&ac));
  }
  assert_int_equal(ns, 32);
  assert_memory_equal(tr[0], tr[1], nrec * ns * sizeof(PetscReal));
  PCALL(PetscFree(tr[0]));
  PCALL(PetscFree(tr[1]));
}

/* The traces as .npy (header, shape, float64 data) and as PETSc binary (the traces Vec, then the geometry Vec). */
static void test_trace_files(void **state)
{
  Acoustic    ac;
  PetscReal  *tr;
  PetscInt    nrec, ns;
  char        npy[64], bin[64], *buf, shape[64];
  FILE       *fp;
  size_t      got;
  PetscViewer viewer;
  Vec         v;
  PetscReal   dts;

  PCALL(PetscSNPrintf(npy, sizeof(npy), "ac_tr_%d.npy", (int)getpid()));
  PCALL(PetscSNPrintf(bin, sizeof(bin), "ac_tr_%d.bin", (int)getpid()));
  create(&ac, 30, ACOUSTIC_BACKEND_DEVICE);
  survey(ac, 0, NULL);
  PCALL(AcousticSetUp(ac));
  PCALL(AcousticStep(ac, 30));
  PCALL(AcousticWriteTraces(ac, npy));
  PCALL(AcousticWriteTraces(ac, bin));
  tr = get_traces(ac, &nrec, &ns);
  PCALL(AcousticGetTraceSizes(ac, NULL, NULL, &dts));
  PCALL(PetscMalloc1(1 << 16, &buf));
  fp = fopen(npy, "rb");
  assert_non_null(fp);
  got = fread(buf, 1, 1 << 16, fp);
  fclose(fp);
  assert_memory_equal(buf, "\x93NUMPY\x01\x00", 8);
  assert_int_equal((10 + (unsigned char)buf[8] + 256 * (unsigned char)buf[9]) % 64, 0);
  PCALL(PetscSNPrintf(shape, sizeof(shape), "'shape': (%d, %d)", (int)nrec, (int)ns));
  buf[10 + 100] = 0;
  assert_non_null(strstr(buf + 10, "'descr': '<f8', 'fortran_order': False"));
  assert_non_null(strstr(buf + 10, shape));
  assert_int_equal(got, 128 + nrec * ns * sizeof(double));
  PCALL(PetscViewerBinaryOpen(PETSC_COMM_SELF, bin, FILE_MODE_READ, &viewer));
  PCALL(VecCreate(PETSC_COMM_SELF, &v));
  PCALL(VecLoad(v, viewer));
  {
    const PetscScalar *a;
    PetscInt           n;
    PCALL(VecGetSize(v, &n));
    assert_int_equal(n, nrec * ns);
    PCALL(VecGetArrayRead(v, &a));
    assert_memory_equal(a, tr, n * sizeof(PetscReal));
    PCALL(VecRestoreArrayRead(v, &a));
    PCALL(VecDestroy(&v));
    PCALL(VecCreate(PETSC_COMM_SELF, &v));
    PCALL(VecLoad(v, viewer)); /* the geometry */
    PCALL(VecGetSize(v, &n));
    assert_int_equal(n, 3 + 3 * nrec);
    PCALL(VecGetArrayRead(v, &a));
    assert_true(a[0] == nrec && a[1] == ns && a[2] == dts && a[3] == 105 && a[3 * nrec + 2] == 200.75);
    PCALL(VecRestoreArrayRead(v, &a));
  }
  PCALL(VecDestroy(&v));
  PCALL(PetscViewerDestroy(&viewer));
  {
    double d;
    memcpy(&d, buf + 128 + 8 * (3 * ns + 5), 8); /* receiver 3, sample 5 */
    assert_true(d == tr[3 * ns + 5]);
  }
  assert_int_equal(unlink(npy), 0);
  assert_int_equal(unlink(bin), 0);
  PCALL(PetscFree(buf));
  PCALL(PetscFree(tr));
  PCALL(AcousticDestroy(&ac));
}

static void write_text(const char *path, const char *text)
{
  FILE *fp = fopen(path, "w");
  assert_non_null(fp);
  fputs(text, fp);
  fclose(fp);
}

/* The bad files of the survey: the option, the file's text, when it is refused (as AcTestExpectOptionError()), the error. */
static const struct {
  const char    *option, *text;
  int            when;
  PetscErrorCode code;
  const char    *msg;
} AcBadFiles[] = {
    {"-ac_receivers", "# no receivers\n\n", 0, PETSC_ERR_FILE_UNEXPECTED, "is empty: it needs lines of x y z (3 numbers, metres)"},
    {"-ac_receivers", "100 100 100\n200 200\n", 0, PETSC_ERR_FILE_UNEXPECTED, ", line 2: \"200 200\" is not x y z (3 numbers, metres)"},
    {"-ac_receivers", "100 100 100 # one\n200 2OO 100\n", 0, PETSC_ERR_FILE_UNEXPECTED, ", line 2: \"200 2OO 100\" is not x y z"},
    {"-ac_receivers", "100 nan 100\n", 0, PETSC_ERR_ARG_OUTOFRANGE, "Receiver 0: y = nan must be finite"},
    {"-ac_sources", "100 100 100 0.01 2\n600 100 100\n", 1, PETSC_ERR_ARG_OUTOFRANGE, "Source 1 at (600., 100., 100.) m is outside the grid"},
    {"-ac_sources", "100 100 100 -0.01\n", 0, PETSC_ERR_ARG_OUTOFRANGE, "Source 0 has delay -0.01 s: it must be >= 0"},
    {"-ac_sources", "100 100 100 0 1 7\n", 0, PETSC_ERR_FILE_UNEXPECTED,
     "line 1: \"100 100 100 0 1 7\" is not x y z [delay [amplitude]] (3 to 5 numbers: metres, seconds)"},
    {"-ac_wavelet", "0 0.5 1\n0.5 0 -0.5\n", 2, PETSC_ERR_ARG_OUTOFRANGE,
     "The wavelet of 6 samples (one per step) is shorter than the run: source 0 (delay 0 steps) has no sample for step 6; give at least 25 samples"},
    {"-ac_wavelet", "0 0.5 1 nan 0.5\n", 0, PETSC_ERR_ARG_OUTOFRANGE, "Wavelet sample 3 of file"},
    {"-ac_wavelet", "\n# nothing\n", 0, PETSC_ERR_FILE_UNEXPECTED, "is empty: it needs lines of a list of numbers"},
};

/* Every bad input of the survey, with its error code and message. */
static void test_bad_input(void **state)
{
  char path[64];

  PCALL(PetscSNPrintf(path, sizeof(path), "ac_survey_%d.txt", (int)getpid()));
  AcTestExpectOptionError((const char *const[]){"-ac_receivers_line", "100,100,100:500,100,100:5", NULL}, 1, PETSC_ERR_ARG_OUTOFRANGE,
                          "Receiver 4 at (500., 100., 100.) m is outside the grid [0, 460.] x [0, 460.] x [0, 460.] m");
  AcTestExpectOptionError((const char *const[]){"-ac_receivers_line", "100,100:500,100,100:5", NULL}, 0, PETSC_ERR_ARG_WRONG,
                          "-ac_receivers_line 100,100:500,100,100:5: expected x0,y0,z0:x1,y1,z1:n (metres, n receivers)");
  AcTestExpectOptionError((const char *const[]){"-ac_receivers_line", "100,100,100:300,100,100:0", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE,
                          "A receiver line needs at least 1 receiver, got 0");
  AcTestExpectOptionError((const char *const[]){"-ac_receivers", "/nonexistent/r.txt", NULL}, 0, PETSC_ERR_FILE_OPEN,
                          "Receiver file /nonexistent/r.txt cannot be opened");
  AcTestExpectOptionError((const char *const[]){"-ac_trace_every", "0", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE, "Trace interval -ac_trace_every 0 must be >= 1");
  for (size_t c = 0; c < sizeof(AcBadFiles) / sizeof(AcBadFiles[0]); c++) {
    write_text(path, AcBadFiles[c].text);
    AcTestExpectOptionError((const char *const[]){AcBadFiles[c].option, path, NULL}, AcBadFiles[c].when, AcBadFiles[c].code, AcBadFiles[c].msg);
  }
  assert_int_equal(unlink(path), 0);
  {
    Acoustic        ac;
    const PetscReal w[3] = {0, INFINITY, 1}, v[2] = {2000, 3000}, z[2] = {300, 200};
    PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
    EXPECT_ERROR(AcousticSetWavelet(ac, 3, w), PETSC_ERR_ARG_OUTOFRANGE, "Wavelet sample 1 is inf: every sample must be finite");
    EXPECT_ERROR(AcousticAddSource(ac, 10, NAN, 10, 0, 1), PETSC_ERR_ARG_OUTOFRANGE, "Source 0: y = nan must be finite");
    EXPECT_ERROR(AcousticSetVelocityLayers(ac, 3, (const PetscReal[]){2000, 3000, 4000}, z), PETSC_ERR_ARG_OUTOFRANGE,
                 "Interfaces of the layered model (-ac_layers) must increase with depth: 200. m after 300. m");
    EXPECT_ERROR(AcousticSetVelocityLayers(ac, 2, (const PetscReal[]){2000, -5}, v), PETSC_ERR_ARG_OUTOFRANGE,
                 "Velocity -5. of layer 1 (-ac_layers) must be positive and finite");
    PCALL(AcousticDestroy(&ac));
  }
  AcTestExpectOptionError((const char *const[]){"-ac_layers", "2000,300", NULL}, 0, PETSC_ERR_ARG_WRONG,
                          "-ac_layers takes v0,z1,v1,...,zn,vn (velocities and the interface depths between them: an odd count), got 2 values");
}

/* Receivers and sources inside the PML: a warning on stderr (not an error), naming how many and the first. */
static void test_pml_warning(void **state)
{
  const PetscReal x[9] = {200, 200, 200, 20, 200, 200, 200, 445, 200};
  Acoustic        ac;
  FILE           *saved = PETSC_STDERR, *tmp = tmpfile();
  char            buf[1024] = "";
  size_t          got;

  assert_non_null(tmp);
  PETSC_STDERR = tmp;
  PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
  PCALL(AcousticSetSizes(ac, 24, 24, 24));
  PCALL(AcousticSetDamping(ac, 4));
  PCALL(AcousticSetBackend(ac, ACOUSTIC_BACKEND_HOST));
  PCALL(AcousticSetReceivers(ac, 3, x));
  PCALL(AcousticAddSource(ac, 30, 30, 30, 0, 1));
  PCALL(AcousticSetUp(ac));
  PCALL(AcousticDestroy(&ac));
  PETSC_STDERR = saved;
  rewind(tmp);
  got      = fread(buf, 1, sizeof(buf) - 1, tmp);
  buf[got] = 0;
  fclose(tmp);
  print_message("%s", buf);
  assert_non_null(strstr(buf, "Warning: 2 of 3 receivers (the first: number 1) lie in the PML, within -ac_ndamp 4 points of a face of the grid"));
  assert_non_null(strstr(buf, "Warning: 1 of 1 sources (the first: number 0) lie in the PML"));
}

/* Too many receivers for the device's memory (-cl_mem_cap on a fresh default context): an error at set-up. */
static void test_receiver_memory(void **state)
{
  Acoustic        ac;
  const PetscReal x0[3] = {100, 100, 100}, x1[3] = {300, 300, 300};

  SbpmgTestSetOption("-cl_mem_cap", "3");
  PCALL(SbpmgCLResetDefault());
  PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
  PCALL(AcousticSetSizes(ac, 24, 24, 24));
  PCALL(AcousticSetDamping(ac, 4));
  PCALL(AcousticSetReceiversLine(ac, x0, x1, 5000));
  EXPECT_ERROR(AcousticSetUp(ac), PETSC_ERR_MEM, "and its 5000 receivers (device backend): it needs"); /* the memory plan */
  PCALL(AcousticDestroy(&ac));
  SbpmgTestSetOption("-cl_mem_cap", NULL);
  PCALL(SbpmgCLResetDefault());
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_grid_receivers), cmocka_unit_test(test_device_vs_host), cmocka_unit_test(test_trace_buffer),    cmocka_unit_test(test_trace_files),
    cmocka_unit_test(test_bad_input),      cmocka_unit_test(test_pml_warning),    cmocka_unit_test(test_receiver_memory),
};

SBPMG_TEST_MAIN(help, tests)
