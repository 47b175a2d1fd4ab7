/* The OpenCL runtime layer: device selection, program cache, build errors, a kernel against a host loop. */
#include "harness.h"
#include <sbpmg/private/climpl.h>
#include <unistd.h>

static const char help[] = "Tests of sbpmg's OpenCL runtime layer (src/cl).\n";

static void test_default_device(void **state)
{
  SbpmgCL      cl;
  const char  *name;
  cl_device_id dev;

  PCALL(SbpmgCLGetDefault(&cl));
  PCALL(SbpmgCLGetDeviceName(cl, &name));
  assert_true(strlen(name) > 0);
  PCALL(SbpmgCLGetDevice(cl, &dev));
  assert_non_null(dev);
  /* the default context is a singleton until reset */
  {
    SbpmgCL again;
    PCALL(SbpmgCLGetDefault(&again));
    assert_ptr_equal(cl, again);
  }
  PCALL(SbpmgCLView(cl, PETSC_VIEWER_STDOUT_SELF));
}

static void test_select_cpu(void **state)
{
  SbpmgCL   cl;
  PetscBool gpu;

  SbpmgTestCreateContext("-cl_device_type", "cpu", &cl);
  PCALL(SbpmgCLIsGPU(cl, &gpu));
  assert_false(gpu);
  assert_true(cl->type & CL_DEVICE_TYPE_CPU);
  PCALL(SbpmgCLDestroy(&cl));
  assert_null(cl);
}

/* A bad value of an option read when a context is created: an error naming the option and the value, and no context. A
   second option (also) may be given with it. */
typedef struct {
  const char    *option, *value, *also, *also_value;
  PetscErrorCode code;
  const char    *message;
} BadOption;

static const BadOption bad_options[] = {
    {"-cl_device", "99", "-cl_device_type", "cpu", PETSC_ERR_ARG_OUTOFRANGE, "-cl_device 99 is out of range"},
    {"-cl_device", "-2", "-cl_device_type", "cpu", PETSC_ERR_ARG_OUTOFRANGE, "-cl_device -2 must be >= 0"},
    {"-cl_platform", "42", NULL, NULL, PETSC_ERR_ARG_OUTOFRANGE, "-cl_platform 42 is out of range"},
    {"-cl_device_type", "fpga", NULL, NULL, PETSC_ERR_USER, "Unknown option fpga for -cl_device_type. Available options: auto gpu cpu any"},
    {"-cl_mem_cap", "-3", NULL, NULL, PETSC_ERR_ARG_OUTOFRANGE, "-cl_mem_cap -3"},
    {"-cl_kernel_dir", "/nonexistent/sbpmg-kernels", NULL, NULL, PETSC_ERR_FILE_OPEN, "-cl_kernel_dir /nonexistent/sbpmg-kernels is not a readable directory"},
    /* -sbpmg_tune: an unknown key, a value out of the row's range, an item that is no key=value, a value that is no integer */
    {"-sbpmg_tune", "vec_wg=64,vec_foo=3", NULL, NULL, PETSC_ERR_ARG_UNKNOWN_TYPE,
     "-sbpmg_tune: unknown key 'vec_foo'; the keys are cl_huge_pages, vec_wg, vec_chunks"},
    {"-sbpmg_tune", "vec_wg=0", NULL, NULL, PETSC_ERR_ARG_OUTOFRANGE, "-sbpmg_tune vec_wg=0 is out of range [1, 1024]"},
    {"-sbpmg_tune", "vec_wg", NULL, NULL, PETSC_ERR_ARG_WRONG, "-sbpmg_tune item 'vec_wg' is not of the form key=value"},
    {"-sbpmg_tune", "vec_chunks=1,vec_wg=12x", NULL, NULL, PETSC_ERR_ARG_WRONG, "-sbpmg_tune vec_wg=12x: the value is not an integer"},
};

static void test_bad_options(void **state)
{
  for (size_t t = 0; t < sizeof(bad_options) / sizeof(bad_options[0]); t++) {
    const BadOption *b  = &bad_options[t];
    SbpmgCL          cl = NULL;

    SbpmgTestSetOption(b->option, b->value);
    if (b->also) SbpmgTestSetOption(b->also, b->also_value);
    EXPECT_ERROR(SbpmgCLCreate(PETSC_COMM_SELF, &cl), b->code, b->message);
    SbpmgTestSetOption(b->option, NULL);
    if (b->also) SbpmgTestSetOption(b->also, NULL);
    assert_null(cl);
  }
}

/* -sbpmg_tune on a new context: the values given, the device class's column for the others, and -cl_view names the
   overrides; SbpmgTuningParse() applies such a string to any tuning. */
static void test_tuning(void **state)
{
  SbpmgCL     cl, plain;
  SbpmgTuning t;
  char        path[] = "/tmp/sbpmg-tune-view-XXXXXX", text[4096] = "";
  PetscViewer vw;
  FILE       *fp;
  int         fd;

  SbpmgTestCreateContext("-sbpmg_tune", "vec_wg=128,vec_rgroups_max=17", &cl);
  PCALL(SbpmgCLCreate(PETSC_COMM_SELF, &plain));
  assert_int_equal(cl->dclass, plain->dclass);
  assert_int_equal(cl->tune.vec_wg, 128);
  assert_int_equal(cl->tune.vec_rgroups_max, 17);
  assert_int_equal(plain->tune.vec_wg, 256);
  assert_int_equal(plain->tune.vec_rgroups_max, 4096);
  assert_int_equal(cl->tune.vec_chunks, plain->tune.vec_chunks);
  assert_int_equal(cl->tune.vec_egroups_per_cu, plain->tune.vec_egroups_per_cu);
  assert_int_equal(cl->tune.vec_rgroups_per_cu, plain->tune.vec_rgroups_per_cu);
  fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  PCALL(PetscViewerASCIIOpen(PETSC_COMM_SELF, path, &vw));
  PCALL(SbpmgCLView(cl, vw));
  PCALL(PetscViewerDestroy(&vw));
  fp = fopen(path, "r");
  assert_non_null(fp);
  text[fread(text, 1, sizeof(text) - 1, fp)] = 0;
  fclose(fp);
  unlink(path);
  if (!strstr(text, "column of include/sbpmg/private/tuning.h; -sbpmg_tune vec_wg=128, vec_rgroups_max=17\n")) fail_msg("-cl_view printed \"%s\"", text);
  t = plain->tune;
  PCALL(SbpmgTuningParse("vec_chunks=0,vec_egroups_per_cu=7", &t));
  assert_true(t.vec_chunks == 0 && t.vec_egroups_per_cu == 7 && t.vec_wg == 256);
  PCALL(SbpmgCLDestroy(&cl));
  PCALL(SbpmgCLDestroy(&plain));
}

/* Asking for a GPU where there is none names what was searched. */
static void test_no_gpu(void **state)
{
  SbpmgCL        cl = NULL;
  cl_platform_id platforms[16];
  cl_uint        np = 0, ngpu = 0;

  assert_int_equal(clGetPlatformIDs(16, platforms, &np), CL_SUCCESS);
  for (cl_uint p = 0; p < np; p++) {
    cl_uint n = 0;
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_GPU, 0, NULL, &n) == CL_SUCCESS) ngpu += n;
  }
  if (ngpu) skip();
  SbpmgTestSetOption("-cl_device_type", "gpu");
  EXPECT_ERROR(SbpmgCLCreate(PETSC_COMM_SELF, &cl), PETSC_ERR_LIB, "No OpenCL device of type gpu found (searched: [0]");
  SbpmgTestSetOption("-cl_device_type", NULL);
}

static void test_mem_cap(void **state)
{
  SbpmgCL cl;
  cl_mem  a = NULL, b = NULL;

  SbpmgTestCreateContext("-cl_mem_cap", "1", &cl);
  PCALL(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, 700 * 1024, &a));
  EXPECT_ERROR(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, 700 * 1024, &b), PETSC_ERR_MEM, "Device allocation of 716800 bytes refused: -cl_mem_cap 1.000 MiB");
  assert_null(b);
  PCALL(SbpmgCLReleaseBuffer(cl, &a));
  PCALL(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, 700 * 1024, &b)); /* freed memory is available again */
  PCALL(SbpmgCLReleaseBuffer(cl, &b));
  PCALL(SbpmgCLDestroy(&cl));
}

static void test_program_cache(void **state)
{
  SbpmgCL      cl;
  cl_kernel    k1, k2, k3;
  SbpmgCLStats s;

  PCALL(SbpmgCLCreate(PETSC_COMM_SELF, &cl));
  PCALL(SbpmgCLGetKernel(cl, "selftest", "-DSBPMG_SELFTEST_T=double", "selftest_axpy", &k1));
  PCALL(SbpmgCLGetStats(cl, &s));
  assert_int_equal(s.programs_built, 1);
  assert_int_equal(s.program_cache_hits, 0);
  PCALL(SbpmgCLGetKernel(cl, "selftest", "-DSBPMG_SELFTEST_T=double", "selftest_axpy", &k2));
  PCALL(SbpmgCLGetStats(cl, &s));
  assert_int_equal(s.programs_built, 1);
  assert_int_equal(s.program_cache_hits, 1);
  assert_ptr_equal(k1, k2);
  /* other -D options are another program */
  PCALL(SbpmgCLGetKernel(cl, "selftest", "-DSBPMG_SELFTEST_T=float", "selftest_axpy", &k3));
  PCALL(SbpmgCLGetStats(cl, &s));
  assert_int_equal(s.programs_built, 2);
  assert_ptr_not_equal(k1, k3);
  EXPECT_ERROR(SbpmgCLGetKernel(cl, "selftest", "-DSBPMG_SELFTEST_T=double", "no_such_kernel", &k3), PETSC_ERR_LIB,
               "CL_INVALID_KERNEL_NAME) creating kernel no_such_kernel");
  EXPECT_ERROR(SbpmgCLGetKernel(cl, "no_such_file", NULL, "k", &k3), PETSC_ERR_ARG_UNKNOWN_TYPE, "kernels/no_such_file.cl");
  PCALL(SbpmgCLDestroy(&cl));
}

static void write_file(const char *path, const char *text)
{
  FILE *fp = fopen(path, "w");
  assert_non_null(fp);
  fputs(text, fp);
  fclose(fp);
}

/* -cl_kernel_dir overrides the embedded source; a syntax error surfaces with the build log. */
static void test_kernel_dir_and_build_error(void **state)
{
  char      dir[] = "/tmp/sbpmg-kdir-XXXXXX", path[256];
  SbpmgCL   cl    = NULL;
  cl_kernel k;

  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof(path), "%s/selftest.cl", dir);
  write_file(path, "__kernel void selftest_axpy(__global float *y) { y[0] = 1.0f + ; }\n");
  SbpmgTestCreateContext("-cl_kernel_dir", dir, &cl);
  EXPECT_ERROR(SbpmgCLGetKernel(cl, "selftest", NULL, "selftest_axpy", &k), PETSC_ERR_LIB, "build log:");
  EXPECT_ERROR(SbpmgCLGetKernel(cl, "selftest", NULL, "selftest_axpy", &k), PETSC_ERR_LIB, "expected expression");
  /* a file missing from the directory */
  EXPECT_ERROR(SbpmgCLGetKernel(cl, "vecops_missing", NULL, "x", &k), PETSC_ERR_FILE_OPEN, "vecops_missing.cl not found");
  /* a corrected file is picked up: a different source is a different program */
  write_file(path, "__kernel void selftest_axpy(__global float *y) { y[0] = 7.0f; }\n");
  PCALL(SbpmgCLGetKernel(cl, "selftest", NULL, "selftest_axpy", &k));
  {
    cl_mem buf;
    float  y = 0;
    PCALL(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof(float), &buf));
    PCALL(SbpmgCLSetArg(k, 0, sizeof(cl_mem), &buf));
    PCALL(SbpmgCLLaunch1D(cl, k, 1, 0));
    PCALL(SbpmgCLReadBuffer(cl, buf, 0, sizeof(float), &y));
    assert_true(y == 7.0f);
    PCALL(SbpmgCLReleaseBuffer(cl, &buf));
  }
  PCALL(SbpmgCLDestroy(&cl));
  unlink(path);
  rmdir(dir);
}

/* y += alpha x on the device against the same loop on the host, in double and in float. */
static void run_axpy(PetscInt n, PetscBool single)
{
  SbpmgCL      cl;
  cl_kernel    k;
  cl_mem       xd, yd;
  size_t       es = single ? sizeof(float) : sizeof(double);
  PetscScalar *x, *y;
  void        *xh, *yh, *out;
  double       alpha = 0.7316, maxerr = 0;
  int          ni = (int)n;

  PCALL(SbpmgCLGetDefault(&cl));
  PCALL(SbpmgCLGetKernel(cl, "selftest", single ? "-DSBPMG_SELFTEST_T=float" : "-DSBPMG_SELFTEST_T=double", "selftest_axpy", &k));
  PCALL(PetscMalloc2(n, &x, n, &y));
  PCALL(PetscMalloc3(n * es, &xh, n * es, &yh, n * es, &out));
  SbpmgTestRandom(n, x, -1, 1, 1 + n);
  SbpmgTestRandom(n, y, -1, 1, 2 + n);
  for (PetscInt i = 0; i < n; i++) {
    if (single) {
      ((float *)xh)[i] = (float)x[i];
      ((float *)yh)[i] = (float)y[i];
    } else {
      ((double *)xh)[i] = x[i];
      ((double *)yh)[i] = y[i];
    }
  }
  PCALL(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, n * es, &xd));
  PCALL(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, n * es, &yd));
  PCALL(SbpmgCLWriteBuffer(cl, xd, 0, n * es, xh));
  PCALL(SbpmgCLWriteBuffer(cl, yd, 0, n * es, yh));
  if (single) {
    float a = (float)alpha;
    PCALL(SbpmgCLSetArgs(k, 0, 4, sizeof(int), &ni, sizeof(float), &a, sizeof(cl_mem), &xd, sizeof(cl_mem), &yd));
  } else {
    PCALL(SbpmgCLSetArgs(k, 0, 4, sizeof(int), &ni, sizeof(double), &alpha, sizeof(cl_mem), &xd, sizeof(cl_mem), &yd));
  }
  PCALL(SbpmgCLLaunch1D(cl, k, n, 64));
  PCALL(SbpmgCLReadBuffer(cl, yd, 0, n * es, out));
  for (PetscInt i = 0; i < n; i++) {
    double host, dev, tol;
    if (single) {
      float hs = ((float *)yh)[i] + (float)alpha * ((float *)xh)[i];
      host     = hs;
      dev      = ((float *)out)[i];
      tol      = 2 * FLT_EPSILON * (fabs(((float *)yh)[i]) + fabs(alpha * ((float *)xh)[i]));
    } else {
      host = y[i] + alpha * x[i];
      dev  = ((double *)out)[i];
      tol  = 2 * DBL_EPSILON * (fabs(y[i]) + fabs(alpha * x[i]));
    }
    if (fabs(host - dev) > tol) fail_msg("axpy %s n=%d entry %d: device %.17g host %.17g", single ? "float" : "double", (int)n, (int)i, dev, host);
    maxerr = PetscMax(maxerr, fabs(host - dev));
  }
  print_message("  axpy %-6s n = %7d: max |device - host| = %.3e\n", single ? "float" : "double", (int)n, maxerr);
  PCALL(SbpmgCLReleaseBuffer(cl, &xd));
  PCALL(SbpmgCLReleaseBuffer(cl, &yd));
  PCALL(PetscFree2(x, y));
  PCALL(PetscFree3(xh, yh, out));
}

static void test_axpy_matches_host(void **state)
{
  const PetscInt sizes[] = {1, 7, 1000, 100003};
  for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
    run_axpy(sizes[i], PETSC_FALSE);
    run_axpy(sizes[i], PETSC_TRUE);
  }
}

/* SbpmgCLLaunch1DGuarded: every one of n items done and none beyond (the buffer has 64 more), for n below, at and past a work-group,
   odd and prime (a local size left to the runtime must divide n: for such n NVIDIA's runtime chose 3 or 9 work-items a group). */
static void test_launch_guarded(void **state)
{
  const PetscInt sizes[] = {1, 7, 256, 24579, 1000003};
  SbpmgCL        cl;
  cl_kernel      k;

  PCALL(SbpmgCLGetDefault(&cl));
  PCALL(SbpmgCLGetKernel(cl, "selftest", "-DSBPMG_SELFTEST_T=double", "selftest_axpy", &k));
  for (size_t c = 0; c < sizeof(sizes) / sizeof(sizes[0]); c++) {
    const PetscInt n = sizes[c], m = n + 64;
    const int      ni = (int)n;
    double        *h, alpha = 1;
    cl_mem         xd, yd;
    PetscInt       bad = -1;

    PCALL(PetscMalloc1(m, &h));
    for (PetscInt i = 0; i < m; i++) h[i] = 1;
    PCALL(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, m * sizeof(double), &xd));
    PCALL(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, m * sizeof(double), &yd));
    PCALL(SbpmgCLWriteBuffer(cl, xd, 0, m * sizeof(double), h));
    for (PetscInt i = 0; i < m; i++) h[i] = 0;
    PCALL(SbpmgCLWriteBuffer(cl, yd, 0, m * sizeof(double), h));
    PCALL(SbpmgCLSetArgs(k, 0, 4, sizeof(int), &ni, sizeof(double), &alpha, sizeof(cl_mem), &xd, sizeof(cl_mem), &yd));
    PCALL(SbpmgCLLaunch1DGuarded(cl, k, (size_t)n));
    PCALL(SbpmgCLReadBuffer(cl, yd, 0, m * sizeof(double), h));
    for (PetscInt i = 0; i < m && bad < 0; i++)
      if (h[i] != (i < n ? 1.0 : 0.0)) bad = i;
    PCALL(SbpmgCLReleaseBuffer(cl, &xd));
    PCALL(SbpmgCLReleaseBuffer(cl, &yd));
    PCALL(PetscFree(h));
    if (bad >= 0) fail_msg("n = %d: item %d %s", (int)n, (int)bad, bad < n ? "not done" : "done beyond n");
  }
}

/* A wrong result must be caught: the check above is not vacuous. */
static void test_axpy_detects_wrong_kernel(void **state)
{
  SbpmgCL   cl;
  cl_kernel k;
  cl_mem    yd;
  double    y = 1, alpha = 0;
  int       n = 1;

  PCALL(SbpmgCLGetDefault(&cl));
  PCALL(SbpmgCLGetKernel(cl, "selftest", "-DSBPMG_SELFTEST_T=double", "selftest_axpy", &k));
  PCALL(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof(double), &yd));
  PCALL(SbpmgCLWriteBuffer(cl, yd, 0, sizeof(double), &y));
  alpha = 2; /* y + 2 y = 3 */
  PCALL(SbpmgCLSetArgs(k, 0, 4, sizeof(int), &n, sizeof(double), &alpha, sizeof(cl_mem), &yd, sizeof(cl_mem), &yd));
  PCALL(SbpmgCLLaunch1D(cl, k, 1, 0));
  PCALL(SbpmgCLReadBuffer(cl, yd, 0, sizeof(double), &y));
  assert_true(y == 3.0);
  PCALL(SbpmgCLReleaseBuffer(cl, &yd));
}

static void test_initialize_twice(void **state)
{
  PetscLogEvent e1, e2;

  PCALL(SbpmgInitializePackage());
  PCALL(PetscLogEventGetId("SbpApply", &e1));
  PCALL(SbpmgInitializePackage());
  PCALL(PetscDLLibraryRegister_sbpmg());
  PCALL(PetscDLLibraryRegister_sbpmg());
  PCALL(PetscLogEventGetId("SbpApply", &e2));
  assert_int_equal(e1, e2);
  assert_int_equal(e1, SBPMG_SbpApply);
}

static void test_transfer_counters(void **state)
{
  SbpmgCL      cl;
  SbpmgCLStats a, b;
  cl_mem       buf;
  double       v[10] = {0};

  PCALL(SbpmgCLGetDefault(&cl));
  PCALL(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof(v), &buf));
  PCALL(SbpmgCLGetStats(cl, &a));
  PCALL(SbpmgCLWriteBuffer(cl, buf, 0, sizeof(v), v));
  PCALL(SbpmgCLReadBuffer(cl, buf, 0, sizeof(v), v));
  PCALL(SbpmgCLReadBuffer(cl, buf, 0, sizeof(v), v));
  PCALL(SbpmgCLGetStats(cl, &b));
  assert_true(b.htod_count - a.htod_count == 1 && b.htod_bytes - a.htod_bytes == sizeof(v));
  assert_true(b.dtoh_count - a.dtoh_count == 2 && b.dtoh_bytes - a.dtoh_bytes == 2 * sizeof(v));
  PCALL(SbpmgCLReleaseBuffer(cl, &buf));
}

/* -cl_build_options reaches the compiler of every program: a -D that breaks the test kernel's declarations breaks its build (the
   error names the options and carries the log); a harmless one builds, and the kernel still computes y += alpha x. */
static void test_build_options(void **state)
{
  SbpmgCL   cl;
  cl_kernel k;
  cl_mem    xd, yd;
  double    x[64], y[64];
  int       n     = 64;
  double    alpha = 2;

  SbpmgTestCreateContext("-cl_build_options", " -Dint=no_such_type", &cl); /* breaks every declaration of an int */
  EXPECT_ERROR(SbpmgCLGetKernel(cl, "selftest", "-DSBPMG_SELFTEST_T=double", "selftest_axpy", &k), PETSC_ERR_LIB, "-Dint=no_such_type\"; build log:");
  PCALL(SbpmgCLDestroy(&cl));
  SbpmgTestSetOption("-cl_build_log", "1");
  SbpmgTestCreateContext("-cl_build_options", " -DTEST_EXTRA=1", &cl);
  SbpmgTestSetOption("-cl_build_log", NULL);
  { /* -cl_build_log prints the log (or "empty") of each program built, with its options */
    FILE *saved = PETSC_STDOUT, *tmp = tmpfile();
    char  text[4096] = "";
    assert_non_null(tmp);
    PETSC_STDOUT = tmp;
    PCALL(SbpmgCLGetKernel(cl, "selftest", "-DSBPMG_SELFTEST_T=double", "selftest_axpy", &k));
    PETSC_STDOUT = saved;
    rewind(tmp);
    text[fread(text, 1, sizeof(text) - 1, tmp)] = 0;
    fclose(tmp);
    if (!strstr(text, "sbpmg OpenCL build log of kernels/selftest.cl (options \"") || !strstr(text, "-DTEST_EXTRA=1\")"))
      fail_msg("-cl_build_log printed \"%s\"", text);
  }
  for (int i = 0; i < n; i++) {
    x[i] = i;
    y[i] = 1;
  }
  PCALL(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof(x), &xd));
  PCALL(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof(y), &yd));
  PCALL(SbpmgCLWriteBuffer(cl, xd, 0, sizeof(x), x));
  PCALL(SbpmgCLWriteBuffer(cl, yd, 0, sizeof(y), y));
  PCALL(SbpmgCLSetArgs(k, 0, 4, sizeof(int), &n, sizeof(double), &alpha, sizeof(cl_mem), &xd, sizeof(cl_mem), &yd));
  PCALL(SbpmgCLLaunch1D(cl, k, (size_t)n, 64));
  PCALL(SbpmgCLReadBuffer(cl, yd, 0, sizeof(y), y));
  for (int i = 0; i < n; i++)
    if (y[i] != 1 + 2.0 * i) fail_msg("y[%d] = %g, expected %g", i, y[i], 1 + 2.0 * i);
  PCALL(SbpmgCLReleaseBuffer(cl, &xd));
  PCALL(SbpmgCLReleaseBuffer(cl, &yd));
  PCALL(SbpmgCLDestroy(&cl));
}

/* Staging memory (mapped, page-locked where the runtime pins it) as the host side of transfers: a pattern written through the
   mapped pointer goes to a device buffer and back into the other half unchanged; the context's byte count returns to where it was. */
static void test_staging(void **state)
{
  SbpmgCL   cl;
  cl_mem    stage, d;
  void     *ptr;
  double   *h;
  size_t    used;
  const int n = 1000;

  PCALL(SbpmgCLGetDefault(&cl));
  used = cl->mem_used;
  PCALL(SbpmgCLCreateStaging(cl, 2 * n * sizeof(double), &stage, &ptr));
  assert_non_null(ptr);
  assert_true(cl->mem_used >= used + 2 * n * sizeof(double));
  h = (double *)ptr;
  for (int i = 0; i < n; i++) {
    h[i]     = 0.5 * i - 7;
    h[n + i] = -1;
  }
  PCALL(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, n * sizeof(double), &d));
  PCALL(SbpmgCLWriteBuffer(cl, d, 0, n * sizeof(double), h));
  PCALL(SbpmgCLReadBuffer(cl, d, 0, n * sizeof(double), h + n));
  for (int i = 0; i < n; i++)
    if (h[n + i] != 0.5 * i - 7) fail_msg("staging round trip: entry %d is %g, expected %g", i, h[n + i], 0.5 * i - 7);
  PCALL(SbpmgCLReleaseBuffer(cl, &d));
  PCALL(SbpmgCLDestroyStaging(cl, &stage, &ptr));
  assert_null(stage);
  assert_null(ptr);
  assert_int_equal(cl->mem_used, used);
  PCALL(SbpmgCLDestroyStaging(cl, &stage, &ptr)); /* a second destroy does nothing */
}

/* CPU devices, tuning cl_huge_pages (docs/design.md "Buffers on CPU devices"): a buffer of 2 MiB or more lives in host memory
   the library mapped, aligned to a huge page, a smaller one in the runtime's; contents round-trip,
   and releasing the buffer unmaps the memory; with the row 0 no buffer is the library's. */
static void HugePagesCase(const char *tune, PetscBool expect)
{
  SbpmgCL      cl;
  cl_mem       big, small;
  void        *host = NULL;
  SbpmgCLStats s0, s1;
  const size_t n = (5 << 20) / sizeof(double) + 3; /* 2.5 huge pages: whole ones and a tail */
  double      *h;

  SbpmgTestCreateContext("-sbpmg_tune", tune, &cl);
  if (!(cl->type & CL_DEVICE_TYPE_CPU)) {
    PCALL(SbpmgCLDestroy(&cl));
    return; /* GPUs: the row does not apply */
  }
  PCALL(SbpmgCLGetStats(cl, &s0));
  PCALL(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, n * sizeof(double), &big));
  PCALL(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, 1000 * sizeof(double), &small));
  PCALL(SbpmgCLGetStats(cl, &s1));
  assert_int_equal(s1.live_host_pages, s0.live_host_pages + (expect ? 1 : 0));
  assert_int_equal(clGetMemObjectInfo(big, CL_MEM_HOST_PTR, sizeof(host), &host, NULL), CL_SUCCESS);
  if (expect) {
    assert_non_null(host);
    assert_int_equal((uintptr_t)host % ((uintptr_t)2 << 20), 0);
  } else
    assert_null(host);
  host = NULL;
  assert_int_equal(clGetMemObjectInfo(small, CL_MEM_HOST_PTR, sizeof(host), &host, NULL), CL_SUCCESS);
  assert_null(host);
  h = (double *)malloc(n * sizeof(double));
  assert_non_null(h);
  for (size_t i = 0; i < n; i++) h[i] = 0.25 * (double)i - 3;
  PCALL(SbpmgCLWriteBuffer(cl, big, 0, n * sizeof(double), h));
  for (size_t i = 0; i < n; i++) h[i] = 0;
  PCALL(SbpmgCLReadBuffer(cl, big, 0, n * sizeof(double), h));
  for (size_t i = 0; i < n; i++)
    if (h[i] != 0.25 * (double)i - 3) fail_msg("%s: entry %zu of a large buffer is %g after a round trip, expected %g", tune, i, h[i], 0.25 * (double)i - 3);
  free(h);
  PCALL(SbpmgCLReleaseBuffer(cl, &big));
  PCALL(SbpmgCLReleaseBuffer(cl, &small));
  PCALL(SbpmgCLFinish(cl));
  PCALL(SbpmgCLGetStats(cl, &s1));
  assert_int_equal(s1.live_host_pages, s0.live_host_pages);
  PCALL(SbpmgCLDestroy(&cl));
}

static void test_huge_pages(void **state)
{
  HugePagesCase("cl_huge_pages=1", PETSC_TRUE);
  HugePagesCase("cl_huge_pages=0", PETSC_FALSE);
}

/* -cl_profile: every launch is counted and timed on the device, per kernel; without it the query is an error. */
static void test_profile(void **state)
{
  SbpmgCL   cl, plain;
  cl_kernel k;
  cl_mem    xd, yd;
  double    v[256] = {0};
  int       n      = 256;
  PetscInt  launches;
  PetscReal seconds;

  SbpmgTestCreateContext("-cl_profile", "1", &cl);
  SbpmgTestSelftestAxpy(cl, "-DSBPMG_SELFTEST_T=double", n, 1, v, v, &k, &xd, &yd);
  for (int r = 0; r < 5; r++) PCALL(SbpmgCLLaunch1D(cl, k, (size_t)n, 64));
  PCALL(SbpmgCLGetProfile(cl, "selftest_axpy", &launches, &seconds));
  print_message("  selftest_axpy: %d launches, %.3g s on the device\n", (int)launches, seconds);
  assert_int_equal(launches, 5);
  assert_true(seconds > 0 && seconds < 1);
  PCALL(SbpmgCLGetProfile(cl, "no_such_kernel", &launches, &seconds));
  assert_int_equal(launches, 0);
  PCALL(SbpmgCLReleaseBuffer(cl, &xd));
  PCALL(SbpmgCLReleaseBuffer(cl, &yd));
  PCALL(SbpmgCLDestroy(&cl));
  PCALL(SbpmgCLGetDefault(&plain));
  EXPECT_ERROR(SbpmgCLGetProfile(plain, "selftest_axpy", &launches, &seconds), PETSC_ERR_ARG_WRONGSTATE,
               "Kernel profiling is off: create the OpenCL context with -cl_profile");
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_default_device),
    cmocka_unit_test(test_select_cpu),
    cmocka_unit_test(test_bad_options),
    cmocka_unit_test(test_tuning),
    cmocka_unit_test(test_no_gpu),
    cmocka_unit_test(test_mem_cap),
    cmocka_unit_test(test_program_cache),
    cmocka_unit_test(test_kernel_dir_and_build_error),
    cmocka_unit_test(test_axpy_matches_host),
    cmocka_unit_test(test_axpy_detects_wrong_kernel),
    cmocka_unit_test(test_launch_guarded),
    cmocka_unit_test(test_initialize_twice),
    cmocka_unit_test(test_transfer_counters),
    cmocka_unit_test(test_profile),
    cmocka_unit_test(test_build_options),
    cmocka_unit_test(test_staging),
    cmocka_unit_test(test_huge_pages),
};

SBPMG_TEST_MAIN(help, tests)
