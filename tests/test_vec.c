/* VECSEQOPENCL against VECSEQ: every element-wise operation on random data of several lengths, the type plumbing, the
   device accessors, the vectors' tuning, errors. Reductions: tests/test_vec_reduce.c; host access and fallbacks:
   tests/test_vec_host.c. */
#include "vectest.h"

static const char help[] = "Tests of sbpmg's device vector VECSEQOPENCL (src/vec): element-wise operations, types, accessors.\n";

/* ---------------------------------------------------------------- element-wise operations */

static void test_elementwise(void **state)
{
  VecTestForSizes(VecTestElementwise);
}

/* Every device operation above leaves its output on the device and moves no vector. */
static void test_elementwise_stay_on_device(void **state)
{
  PetscInt    n = 1000;
  Vec         x, y, w, v[3];
  VecTestSnap s0, s1;

  PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, n, &x));
  PCALL(VecDuplicate(x, &y));
  PCALL(VecDuplicate(x, &w));
  for (int j = 0; j < 3; j++) PCALL(VecDuplicate(x, &v[j]));
  VecTestSnapshot(&s0);
  VecTestDeviceOperations(x, y, w, v);
  VecTestSnapshot(&s1);
  VecTestNoVectorTransfer("element-wise operations", &s0, &s1, 8);
  assert_true(s1.cl.dtoh_count == s0.cl.dtoh_count);
  assert_int_equal(SbpmgTestOffloadMask(w), PETSC_OFFLOAD_GPU);
  assert_int_equal(SbpmgTestOffloadMask(y), PETSC_OFFLOAD_GPU);
  for (int j = 0; j < 3; j++) PCALL(VecDestroy(&v[j]));
  PCALL(VecDestroy(&x));
  PCALL(VecDestroy(&y));
  PCALL(VecDestroy(&w));
}

/* ---------------------------------------------------------------- device accessors */

/* A user kernel through the device accessors; the object state moves so PETSc's cached norms are dropped. */
static const char *fill_src =
    "__kernel void fill_index(const int n, __global SBPMG_REAL *y) { int i = get_global_id(0); if (i < n) y[i] = (SBPMG_REAL)i; }\n"
    "__kernel void twice(const int n, __global const SBPMG_REAL *x, __global SBPMG_REAL *y) { int i = get_global_id(0); if (i < n) y[i] = 2 * x[i]; }\n";

static void test_device_accessors(void **state)
{
  PetscInt           n  = 100, loc;
  int                ni = (int)n;
  Vec                v, w, h;
  SbpmgCL            cl;
  cl_kernel          k;
  cl_mem             m, mw;
  PetscReal          r;
  const PetscScalar *a;
  PetscBool          is;

  PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, n, &v));
  PCALL(VecDuplicate(v, &w));
  PCALL(VecOpenCLGetCL(v, &cl));
  PCALL(VecIsOpenCL(v, &is));
  assert_true(is);
  PCALL(VecSet(v, 1));
  PCALL(VecNorm(v, NORM_INFINITY, &r)); /* PETSc caches this */
  assert_true(r == 1);
  PCALL(SbpmgCLGetKernelFromSource(cl, "test_vec_fill", fill_src, NULL, "fill_index", &k));
  PCALL(VecOpenCLGetBufferWrite(v, &m));
  PCALL(SbpmgCLSetArgs(k, 0, 2, sizeof(int), &ni, sizeof(cl_mem), &m));
  PCALL(SbpmgCLLaunch1D(cl, k, n, 0));
  PCALL(VecOpenCLRestoreBufferWrite(v, &m));
  assert_null(m);
  assert_int_equal(SbpmgTestOffloadMask(v), PETSC_OFFLOAD_GPU);
  PCALL(VecNorm(v, NORM_INFINITY, &r));
  assert_true(r == n - 1);
  PCALL(VecGetArrayRead(v, &a));
  for (PetscInt i = 0; i < n; i++) assert_true(a[i] == i);
  PCALL(VecRestoreArrayRead(v, &a));

  /* read accessor uploads a host-only vector */
  {
    PetscScalar *b;
    PCALL(VecGetArray(v, &b));
    b[10] = 1000;
    PCALL(VecRestoreArray(v, &b));
  }
  PCALL(SbpmgCLGetKernelFromSource(cl, "test_vec_fill", fill_src, NULL, "twice", &k));
  PCALL(VecOpenCLGetBufferRead(v, &m));
  assert_int_equal(SbpmgTestOffloadMask(v), PETSC_OFFLOAD_BOTH);
  PCALL(VecOpenCLGetBuffer(w, &mw));
  PCALL(SbpmgCLSetArgs(k, 0, 3, sizeof(int), &ni, sizeof(cl_mem), &m, sizeof(cl_mem), &mw));
  PCALL(SbpmgCLLaunch1D(cl, k, n, 0));
  PCALL(VecOpenCLRestoreBuffer(w, &mw));
  PCALL(VecOpenCLRestoreBufferRead(v, &m));
  PCALL(VecMax(w, &loc, &r));
  assert_true(r == 2000 && loc == 10);

  /* misuse: a VECSEQ has no buffer */
  PCALL(VecCreateSeq(PETSC_COMM_SELF, 4, &h));
  EXPECT_ERROR(VecOpenCLGetBufferRead(h, &m), PETSC_ERR_ARG_WRONG,
               "VecOpenCLGetBufferRead() needs a device vector (type seqopencl or mpiopencl), but argument 1 has type seq");
  EXPECT_ERROR(VecOpenCLGetBufferWrite(h, &m), PETSC_ERR_ARG_WRONG, "argument 1 has type seq");
  EXPECT_ERROR(VecOpenCLGetCL(h, &cl), PETSC_ERR_ARG_WRONG, "VecOpenCLGetCL() needs a device vector");
  PCALL(VecIsOpenCL(h, &is));
  assert_false(is);
  PCALL(VecDestroy(&h));
  PCALL(VecDestroy(&v));
  PCALL(VecDestroy(&w));
}

/* A new vector is zero on every path, though its device values are written only when first read (zero_due): on buffers that
   held 7s before (the runtime hands freed memory out again), each device read sees zeros, an overwrite sees its own values. */
static void test_new_vectors_zero(void **state)
{
  const PetscInt n = 1000;
  Vec            v[6], x, w, sub;
  PetscReal      r, lo, hi;
  PetscScalar   *b;
  IS             is;

  for (int round = 0; round < 2; round++) { /* round 1 on the memory of round 0's vectors */
    PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, n, &v[0]));
    for (int t = 1; t < 6; t++) PCALL(VecDuplicate(v[0], &v[t]));
    PCALL(VecNorm(v[0], NORM_INFINITY, &r)); /* a reduction */
    assert_true(r == 0);
    PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, n, &x));
    PCALL(VecSet(x, 3));
    PCALL(VecAXPY(v[1], 1, x)); /* reads its output */
    PCALL(VecMin(v[1], NULL, &lo));
    PCALL(VecMax(v[1], NULL, &hi));
    assert_true(lo == 3 && hi == 3);
    PCALL(VecCopy(x, v[2])); /* overwrites */
    PCALL(VecMin(v[2], NULL, &lo));
    assert_true(lo == 3);
    PCALL(VecGetArray(v[3], &b)); /* the host copy, then back to the device */
    assert_true(b[0] == 0 && b[n - 1] == 0);
    b[5] = 1;
    PCALL(VecRestoreArray(v[3], &b));
    PCALL(VecDuplicate(x, &w));
    PCALL(VecPointwiseMult(w, v[3], x)); /* the host values uploaded */
    PCALL(VecNorm(w, NORM_1, &r));
    assert_true(r == 3);
    PCALL(ISCreateStride(PETSC_COMM_SELF, 100, 50, 1, &is)); /* a subvector copies the parent's device values */
    PCALL(VecGetSubVector(v[4], is, &sub));
    PCALL(VecNorm(sub, NORM_INFINITY, &r));
    assert_true(r == 0);
    PCALL(VecRestoreSubVector(v[4], is, &sub));
    PCALL(ISDestroy(&is));
    {
      PetscScalar d;
      PCALL(VecDot(v[5], x, &d)); /* a reduction of two */
      assert_true(d == 0);
    }
    for (int t = 0; t < 6; t++) {
      PCALL(VecSet(v[t], 7)); /* what round 1's buffers may start with */
      PCALL(VecDestroy(&v[t]));
    }
    PCALL(VecDestroy(&x));
    PCALL(VecDestroy(&w));
  }
}

/* ---------------------------------------------------------------- type plumbing */

static void test_type_selection(void **state)
{
  Vec v;

  PCALL(SbpmgInitializePackage()); /* registers the types; programs call it (or load libsbpmg with -dll_append) */
  v = VecTestFromOptions(PETSC_COMM_SELF, 10, "seqopencl");
  VecTestAssertType(v, VECSEQOPENCL);
  VecTestDuplicates(v);
  PCALL(VecDestroy(&v));
  /* VECOPENCL on one rank is VECSEQOPENCL */
  PCALL(VecCreateOpenCL(PETSC_COMM_SELF, PETSC_DECIDE, 17, &v));
  VecTestAssertType(v, VECSEQOPENCL);
  PCALL(VecDestroy(&v));
  v = VecTestFromOptions(PETSC_COMM_SELF, 5, "opencl");
  VecTestAssertType(v, VECSEQOPENCL);
  PCALL(VecDestroy(&v));
  EXPECT_ERROR(VecCreateSeqOpenCL(PETSC_COMM_SELF, -3, &v), PETSC_ERR_ARG_OUTOFRANGE, "Vector length -3 must be >= 0");
}

/* Every operation in the table is either data-free or VECSEQOPENCL's own (device or fallback): none is VECSEQ's,
   which would read a stale host mirror. */
static void test_ops_table_covered(void **state)
{
  Vec seq, dev;

  PCALL(VecCreateSeq(PETSC_COMM_SELF, 3, &seq));
  PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, 3, &dev));
  VecTestOpsTableCovered(seq, dev, "VECSEQ");
  /* the ones PETSc replaces by generic code through VecGetArray when empty, and which the issue wants on the device */
  assert_non_null(dev->ops->shift);
  assert_non_null(dev->ops->sum);
  assert_non_null(dev->ops->getarrayread);
  assert_non_null(dev->ops->getarraywrite);
  PCALL(VecDestroy(&seq));
  PCALL(VecDestroy(&dev));
}

/* ---------------------------------------------------------------- tuning and memory */

/* The vectors' kernel shapes come from the context's tuning: a context with other values gives other geometries (and
   the same element-wise results); a work-group size that is not a power of two is refused. */
static void test_tuning(void **state)
{
  SbpmgCL cl;
  Vec     v = NULL, h, x, xh;

  SbpmgTestCreateContext("-sbpmg_tune", "vec_wg=64,vec_chunks=0,vec_egroups_per_cu=2,vec_rgroups_per_cu=3,vec_rgroups_max=5", &cl);
  VecTestMakePair(PETSC_COMM_SELF, cl, 100003, 100003, 5, -1, 1, &v, &h);
  VecTestMakePair(PETSC_COMM_SELF, cl, 100003, 100003, 6, -1, 1, &x, &xh);
  assert_int_equal(VecCLData(v)->wg, 64);
  assert_false(VecCLData(v)->chunks);
  assert_int_equal(VecCLData(v)->egroups, PetscMin(2 * (PetscInt)cl->compute_units, (100003 + 63) / 64));
  assert_int_equal(VecCLData(v)->rgroups, PetscMin(5, 3 * (PetscInt)cl->compute_units));
  if (!SbpmgTestUnderMemcheck()) { /* valgrind: not the tuned kernels' program (minutes to compile, kernel code it does not check) */
    PCALL(VecAXPBY(v, 0.3, -1.1, x));
    PCALL(VecAXPBY(h, 0.3, -1.1, xh));
    VecTestCheckValues("axpby on a tuned context", v, h, 4, 2);
  }
  SbpmgTestDestroyPair(&v, &h);
  SbpmgTestDestroyPair(&x, &xh);
  PCALL(SbpmgCLDestroy(&cl));
  SbpmgTestCreateContext("-sbpmg_tune", "vec_wg=100", &cl);
  v = NULL;
  EXPECT_ERROR(VecCreateSeqOpenCLWithContext(PETSC_COMM_SELF, cl, 10, &v), PETSC_ERR_ARG_OUTOFRANGE, "-sbpmg_tune vec_wg=100 is not a power of two");
  assert_null(v);
  PCALL(SbpmgCLDestroy(&cl));
}

static void test_memory_cap(void **state)
{
  SbpmgCL cl;
  Vec     v = NULL, w = NULL;

  SbpmgTestCreateContext("-cl_mem_cap", "1", &cl);
  PCALL(VecCreateSeqOpenCLWithContext(PETSC_COMM_SELF, cl, 70000, &v)); /* 560 kB */
  EXPECT_ERROR(VecCreateSeqOpenCLWithContext(PETSC_COMM_SELF, cl, 100000, &w), PETSC_ERR_MEM, "refused: -cl_mem_cap 1.000 MiB");
  EXPECT_ERROR(VecDuplicate(v, &w), PETSC_ERR_MEM, "refused: -cl_mem_cap 1.000 MiB"); /* 2 x 560 kB do not fit in 1 MiB ... */
  PCALL(VecDestroy(&v));
  PCALL(VecCreateSeqOpenCLWithContext(PETSC_COMM_SELF, cl, 100000, &w)); /* ... freed memory is available again */
  PCALL(VecDestroy(&w));
  PCALL(SbpmgCLDestroy(&cl));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_elementwise),    cmocka_unit_test(test_elementwise_stay_on_device), cmocka_unit_test(test_device_accessors),
    cmocka_unit_test(test_type_selection), cmocka_unit_test(test_ops_table_covered),          cmocka_unit_test(test_tuning),
    cmocka_unit_test(test_memory_cap),     cmocka_unit_test(test_new_vectors_zero),
};

SBPMG_TEST_MAIN(help, tests)
