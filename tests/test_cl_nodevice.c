/* Run with OCL_ICD_VENDORS pointing at an empty place: the ICD loader finds no platform at all. */
#include "harness.h"

static const char help[] = "sbpmg with no OpenCL platform: a clear error naming what was searched.\n";

static void test_no_platform(void **state)
{
  SbpmgCL cl = NULL;

  EXPECT_ERROR(SbpmgCLGetDefault(&cl), PETSC_ERR_LIB, "No OpenCL device: the OpenCL ICD loader found no platform (it searched /nonexistent/sbpmg-icd");
  assert_null(cl);
}

static const struct CMUnitTest tests[] = {cmocka_unit_test(test_no_platform)};

SBPMG_TEST_MAIN(help, tests)
