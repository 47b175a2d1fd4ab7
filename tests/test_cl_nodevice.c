/* Run with OCL_ICD_VENDORS pointing at an empty place: the ICD loader finds no platform at all. */
#include "harness.h"

static const char help[] = "sbpmg with no OpenCL platform: a clear error naming what was searched; the automatic backend on the host, saying why;\n"
                           "a device asked for an error.\n";

static void test_no_platform(void **state)
{
  SbpmgCL cl = NULL;

  EXPECT_ERROR(SbpmgCLGetDefault(&cl), PETSC_ERR_LIB, "No OpenCL device: the OpenCL ICD loader found no platform (it searched /nonexistent/sbpmg-icd");
  assert_null(cl);
}

/* A problem of the automatic backend runs on the host and says why in its view (what -ksp_view prints). */
static void test_auto_falls_back(void **state)
{
  SbpProblem  p;
  PetscViewer v;
  char        text[1024];
  size_t      n = 0;
  FILE       *fp;

  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetSizes(p, 8, 8));
  PCALL(SbpProblemSetUp(p));
  PCALL(PetscViewerASCIIOpen(PETSC_COMM_SELF, "nodevice-view.txt", &v));
  PCALL(SbpProblemView(p, v));
  PCALL(PetscViewerDestroy(&v));
  fp = fopen("nodevice-view.txt", "r");
  assert_non_null(fp);
  n = fread(text, 1, sizeof(text) - 1, fp);
  fclose(fp);
  text[n] = 0;
  if (!strstr(text, "backend: host (automatic: No OpenCL device")) fail_msg("the view does not say why the host runs it:\n%s", text);
  PCALL(SbpProblemDestroy(&p));
}

/* A device asked for by option is an error, not a quiet fall-back to the host. */
static void test_device_asked_for(void **state)
{
  const char *opts[][3] = {{"-cl_device_type", "gpu", "The OpenCL device asked for (-cl_device_type gpu) is not available"},
                           {"-cl_device", "0", "The OpenCL device asked for (-cl_device) is not available"},
                           {"-cl_platform", "0", "The OpenCL device asked for (-cl_platform) is not available"}};

  for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
    SbpProblem p;

    PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
    PCALL(SbpProblemSetSizes(p, 8, 8));
    SbpmgTestSetOption(opts[k][0], opts[k][1]);
    EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_LIB, opts[k][2]);
    SbpmgTestSetOption(opts[k][0], NULL);
    PCALL(SbpProblemDestroy(&p));
  }
}

static const struct CMUnitTest tests[] = {cmocka_unit_test(test_no_platform), cmocka_unit_test(test_auto_falls_back), cmocka_unit_test(test_device_asked_for)};

SBPMG_TEST_MAIN(help, tests)
