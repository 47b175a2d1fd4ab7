/* VECSEQOPENCL's offload state through host access, its host fallbacks, and operations with host vectors and with
   vectors of another device context: the same results as VECSEQ. */
#include "vectest.h"
#include <unistd.h>

static const char help[] = "Tests of sbpmg's device vector VECSEQOPENCL (src/vec): host access and fallbacks.\n";

/* A device vector on the default context and a VECSEQ, both of length n, holding the same values in [-1, 1) */
static void make_pair(PetscInt n, unsigned long seed, Vec *d, Vec *h)
{
  VecTestMakePair(PETSC_COMM_SELF, NULL, n, n, seed, -1, 1, d, h);
}

static void stats(SbpmgCLStats *s)
{
  SbpmgCL cl;
  PCALL(SbpmgCLGetDefault(&cl));
  PCALL(SbpmgCLGetStats(cl, s));
}

/* ---------------------------------------------------------------- offload state machine and host access */

static void test_host_access_in_the_middle(void **state)
{
  PetscInt           n = 1000, loc;
  Vec                v, w;
  PetscScalar       *a, s;
  const PetscScalar *ra;
  PetscReal          r;
  SbpmgCLStats       s0, s1;

  PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, n, &v));
  PCALL(VecDuplicate(v, &w));
  assert_int_equal(SbpmgTestOffloadMask(v), PETSC_OFFLOAD_BOTH); /* new: zero on both sides */
  PCALL(VecSet(v, 1));
  assert_int_equal(SbpmgTestOffloadMask(v), PETSC_OFFLOAD_GPU);

  /* VecGetArray: the device values come to the host; a change there is seen by the next device operation */
  stats(&s0);
  PCALL(VecGetArray(v, &a));
  stats(&s1);
  assert_true(s1.dtoh_count - s0.dtoh_count == 1 && s1.dtoh_bytes - s0.dtoh_bytes == n * sizeof(PetscScalar));
  assert_true(a[0] == 1 && a[n - 1] == 1);
  a[5] = 7;
  PCALL(VecRestoreArray(v, &a));
  assert_int_equal(SbpmgTestOffloadMask(v), PETSC_OFFLOAD_CPU);
  PCALL(VecNorm(v, NORM_INFINITY, &r)); /* uploads, then reduces on the device */
  assert_true(r == 7);
  assert_int_equal(SbpmgTestOffloadMask(v), PETSC_OFFLOAD_BOTH);
  PCALL(VecSum(v, &s));
  assert_true(s == (PetscScalar)(n - 1 + 7));
  PCALL(VecAXPY(w, 2, v));
  PCALL(VecMax(w, &loc, &r));
  assert_true(r == 14 && loc == 5);

  /* VecGetArrayRead: both copies valid afterwards, the next device read needs no transfer */
  PCALL(VecGetArrayRead(w, &ra));
  assert_true(ra[5] == 14 && ra[6] == 2);
  PCALL(VecRestoreArrayRead(w, &ra));
  assert_int_equal(SbpmgTestOffloadMask(w), PETSC_OFFLOAD_BOTH);
  stats(&s0);
  PCALL(VecNorm(w, NORM_1, &r));
  stats(&s1);
  assert_true(s1.htod_count == s0.htod_count);
  assert_true(r == 2.0 * (n - 1) + 14);

  /* VecGetArrayWrite: no transfer either way */
  PCALL(VecScale(w, 3));
  stats(&s0);
  PCALL(VecGetArrayWrite(w, &a));
  for (PetscInt i = 0; i < n; i++) a[i] = -i;
  PCALL(VecRestoreArrayWrite(w, &a));
  stats(&s1);
  assert_true(s1.dtoh_count == s0.dtoh_count && s1.htod_count == s0.htod_count);
  assert_int_equal(SbpmgTestOffloadMask(w), PETSC_OFFLOAD_CPU);
  PCALL(VecMin(w, &loc, &r));
  assert_true(r == -999 && loc == 999);

  /* VecSetValues + assembly (a host fallback) is seen by the device */
  {
    PetscInt    idx[2] = {3, 998};
    PetscScalar val[2] = {-5000, 5000};
    PCALL(VecSetValues(w, 2, idx, val, INSERT_VALUES));
    PCALL(VecAssemblyBegin(w));
    PCALL(VecAssemblyEnd(w));
    PCALL(VecMax(w, &loc, &r));
    assert_true(r == 5000 && loc == 998);
    PCALL(VecGetValues(w, 2, idx, val));
    assert_true(val[0] == -5000 && val[1] == 5000);
  }
  PCALL(VecDestroy(&v));
  PCALL(VecDestroy(&w));
}

/* ---------------------------------------------------------------- host fallbacks */

static void test_fallbacks(void **state)
{
  PetscInt n = 12;
  Vec      xd, xh, yd, yh;

  make_pair(n, 51, &xd, &xh);
  make_pair(n, 52, &yd, &yh);

  /* VecView of a device-only vector shows the device values */
  PCALL(VecScale(xd, 2));
  PCALL(VecScale(xh, 2));
  PCALL(VecView(xd, PETSC_VIEWER_STDOUT_SELF));
  VecTestCheckValues("after view", xd, xh, 0, 0);

  /* place/reset: device results land in the placed array; the original values come back after reset */
  PCALL(VecScale(yd, 3));
  PCALL(VecScale(yh, 3));
  VecTestPlaceReset(yd, yh);

  /* strided gather and scatter with block size 3 */
  {
    Vec sd, sh;
    PCALL(VecSetBlockSize(xd, 3));
    PCALL(VecSetBlockSize(xh, 3));
    PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, n / 3, &sd));
    PCALL(VecCreateSeq(PETSC_COMM_SELF, n / 3, &sh));
    VecTestStrides(xd, xh, sd, sh);
    PCALL(VecDestroy(&sd));
    PCALL(VecDestroy(&sh));
  }

  /* random values: the same generator gives the same values, and the device sees them */
  VecTestSetRandom(yd, yh);

  /* sub-vectors, contiguous (device copy) and strided (host copy), written back on restore; unchanged: nothing written */
  {
    IS c, s;
    PCALL(ISCreateStride(PETSC_COMM_SELF, 5, 4, 1, &c));
    PCALL(ISCreateStride(PETSC_COMM_SELF, 4, 1, 3, &s));
    VecTestSubVector("contiguous", yd, yh, c, -1, 0, PETSC_TRUE);
    VecTestSubVector("strided", yd, yh, s, 1, 10, PETSC_FALSE);
    VecTestSubVector("unchanged", yd, yh, c, 1, 0, PETSC_FALSE);
    PCALL(ISDestroy(&c));
    PCALL(ISDestroy(&s));
  }

  /* local vector: VecGetLocalVector gives the values, changes come back */
  VecTestLocalVector(yd, yh);
  /* COO assembly: VECSEQ's bookkeeping for it lives in the area reserved at the start of VECSEQOPENCL's data */
  {
    PetscInt    ci[5] = {0, 3, 3, 11, 7};
    PetscScalar cv[5] = {1, 2, 3, 4, 5};
    VecTestCOO(xd, xh, 5, ci, cv);
  }

  /* binary view of a device-only vector, loaded back into a device vector */
  {
    char        path[PETSC_MAX_PATH_LEN], info[PETSC_MAX_PATH_LEN + 8];
    PetscViewer vw;
    Vec         l;

    PCALL(PetscSNPrintf(path, sizeof(path), "/tmp/sbpmg-test-vec-%d.bin", (int)getpid()));
    PCALL(PetscSNPrintf(info, sizeof(info), "%s.info", path));
    PCALL(VecShift(xd, 1));
    PCALL(VecShift(xh, 1));
    PCALL(PetscViewerBinaryOpen(PETSC_COMM_SELF, path, FILE_MODE_WRITE, &vw));
    PCALL(VecView(xd, vw));
    PCALL(PetscViewerDestroy(&vw));
    PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, n, &l));
    PCALL(PetscViewerBinaryOpen(PETSC_COMM_SELF, path, FILE_MODE_READ, &vw));
    PCALL(VecLoad(l, vw));
    PCALL(PetscViewerDestroy(&vw));
    assert_int_equal(SbpmgTestOffloadMask(l), PETSC_OFFLOAD_CPU);
    VecTestCheckValues("binary view and load", l, xh, 0, 0);
    PCALL(VecDestroy(&l));
    (void)unlink(path);
    (void)unlink(info);
  }
  SbpmgTestDestroyPair(&xd, &xh);
  SbpmgTestDestroyPair(&yd, &yh);
}

/* Mixed argument types: the device vector falls back to the host where the other vector lives there. */
static void test_mixed_types(void **state)
{
  PetscInt    n = 1000;
  Vec         ad, ah, b, ad2, ah2, list_d[2], list_h[2];
  PetscScalar sd, sh, md[2], mh[2], alpha[2] = {0.5, -2};

  make_pair(n, 61, &ad, &ah);
  make_pair(n, 62, &ad2, &ah2);
  PCALL(VecDuplicate(ah, &b));
  PCALL(VecSetRandom(b, NULL));

  PCALL(VecAXPY(ad, 2, b)); /* device += host */
  PCALL(VecAXPY(ah, 2, b));
  VecTestCheckValues("axpy(dev, host)", ad, ah, 4, 2);
  PCALL(VecDot(ad, b, &sd));
  PCALL(VecDot(ah, b, &sh));
  VecTestCheckReduction("dot(dev, host)", n, sd, sh, 3 * n);
  PCALL(VecDot(b, ad, &sd));
  VecTestCheckReduction("dot(host, dev)", n, sd, sh, 3 * n);
  list_d[0] = b;
  list_d[1] = ad2;
  list_h[0] = b;
  list_h[1] = ah2;
  PCALL(VecMDot(ad, 2, list_d, md));
  PCALL(VecMDot(ah, 2, list_h, mh));
  VecTestCheckReduction("mdot(dev, {host, dev})", n, md[0], mh[0], 3 * n);
  VecTestCheckReduction("mdot(dev, {host, dev})", n, md[1], mh[1], 3 * n);
  PCALL(VecMAXPY(ad, 2, alpha, list_d));
  PCALL(VecMAXPY(ah, 2, alpha, list_h));
  VecTestCheckValues("maxpy(dev, {host, dev})", ad, ah, 8, 4);
  PCALL(VecPointwiseMult(ad2, b, ad));
  PCALL(VecPointwiseMult(ah2, b, ah));
  VecTestCheckValues("pointwise mult(dev, host, dev)", ad2, ah2, 0, 0);

  {
    Vec c;
    PCALL(VecDuplicate(b, &c));
    PCALL(VecCopy(b, c));
    PCALL(VecAXPY(b, -1, ad)); /* host += device: VECSEQ's axpy reads ad through VecGetArrayRead */
    PCALL(VecAXPY(c, -1, ah));
    VecTestCheckValues("axpy(host, dev)", b, c, 0, 0);
    PCALL(VecDestroy(&c));
  }
  PCALL(VecCopy(b, ad)); /* host -> device vector */
  assert_int_equal(SbpmgTestOffloadMask(ad), PETSC_OFFLOAD_CPU);
  PCALL(VecCopy(b, ah));
  VecTestCheckValues("copy(host -> dev)", ad, ah, 0, 0);
  PCALL(VecScale(ad, 3));
  PCALL(VecScale(ah, 3));
  PCALL(VecCopy(ad, b)); /* device vector -> host */
  {
    const PetscScalar *p, *q;
    PCALL(VecGetArrayRead(b, &p));
    PCALL(VecGetArrayRead(ah, &q));
    for (PetscInt i = 0; i < n; i++) assert_true(p[i] == q[i]);
    PCALL(VecRestoreArrayRead(ah, &q));
    PCALL(VecRestoreArrayRead(b, &p));
  }
  PCALL(VecDestroy(&b));
  SbpmgTestDestroyPair(&ad, &ah);
  SbpmgTestDestroyPair(&ad2, &ah2);
}

/* Vectors of two device contexts: operations between them go through the host, results are right. */
static void test_mixed_contexts(void **state)
{
  PetscInt     n = 1000;
  SbpmgCL      other;
  Vec          ad, ah, bd, bh, c;
  PetscScalar *p;
  PetscScalar  sd, sh;

  PCALL(SbpmgCLCreate(PETSC_COMM_SELF, &other));
  make_pair(n, 71, &ad, &ah);
  make_pair(n, 72, &bd, &bh);
  PCALL(VecCreateSeqOpenCLWithContext(PETSC_COMM_SELF, other, n, &c));
  PCALL(SbpmgCLDestroy(&other)); /* the vector keeps the context alive */
  PCALL(VecGetArrayWrite(c, &p));
  SbpmgTestRandom(n, p, -1, 1, 72);
  PCALL(VecRestoreArrayWrite(c, &p));
  PCALL(VecScale(c, 2)); /* on the other device context */
  PCALL(VecScale(bh, 2));
  PCALL(VecAXPY(ad, 0.5, c));
  PCALL(VecAXPY(ah, 0.5, bh));
  VecTestCheckValues("axpy across contexts", ad, ah, 4, 2);
  PCALL(VecDot(c, ad, &sd));
  PCALL(VecDot(bh, ah, &sh));
  VecTestCheckReduction("dot across contexts", n, sd, sh, 3 * n);
  PCALL(VecCopy(ad, c));
  PCALL(VecNorm(c, NORM_1, &sd));
  PCALL(VecNorm(ah, NORM_1, &sh));
  VecTestCheckReduction("copy across contexts", n, sd, sh, sh);
  PCALL(VecSwap(c, bd));
  PCALL(VecNorm(bd, NORM_1, &sd));
  VecTestCheckReduction("swap across contexts", n, sd, sh, sh);
  SbpmgTestDestroyVecs(&c, &ad, &ah, &bd, &bh, NULL);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_host_access_in_the_middle),
    cmocka_unit_test(test_fallbacks),
    cmocka_unit_test(test_mixed_types),
    cmocka_unit_test(test_mixed_contexts),
};

SBPMG_TEST_MAIN(help, tests)
