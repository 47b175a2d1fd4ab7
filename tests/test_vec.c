/* VECSEQOPENCL against VECSEQ: every device operation on random data of several lengths, reproducible reductions,
   the offload state machine, host fallbacks, mixed types and contexts, errors. */
#include "harness.h"
#include <sbpmg/private/vecimpl.h>
#include <petsc/private/vecimpl.h>
#include <unistd.h>

static const char help[] = "Tests of sbpmg's device vector VECSEQOPENCL (src/vec).\n";

static const PetscInt sizes[] = {1, 7, 1000, 100003};
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))
#define EPS    PETSC_MACHINE_EPSILON

/* ---------------------------------------------------------------- helpers */

/* A device vector on cl and an independent host vector holding the same random values in [lo, hi). */
static void make_pair_on(SbpmgCL cl, PetscInt n, unsigned long seed, PetscReal lo, PetscReal hi, Vec *d, Vec *h)
{
  PetscScalar *a, *b;

  PCALL(VecCreateSeqOpenCLWithContext(PETSC_COMM_SELF, cl, n, d));
  PCALL(VecCreateSeq(PETSC_COMM_SELF, n, h));
  PCALL(VecGetArrayWrite(*d, &a));
  PCALL(VecGetArrayWrite(*h, &b));
  SbpmgTestRandom(n, a, lo, hi, seed);
  SbpmgTestRandom(n, b, lo, hi, seed);
  PCALL(VecRestoreArrayWrite(*h, &b));
  PCALL(VecRestoreArrayWrite(*d, &a));
  PCALL(VecOpenCLSyncDevice(*d)); /* start from device-resident values, as inside a solver */
}

/* The same on the default device context */
static void make_pair(PetscInt n, unsigned long seed, PetscReal lo, PetscReal hi, Vec *d, Vec *h)
{
  SbpmgCL cl;

  PCALL(SbpmgCLGetDefault(&cl));
  make_pair_on(cl, n, seed, lo, hi, d, h);
}

/* Entry-wise comparison: exact (bit for bit), or |d - h| <= ulps * eps * max(|h|, floor) */
static void check_values(const char *what, PetscInt n, Vec d, Vec h, PetscReal ulps, PetscReal floor)
{
  const PetscScalar *a, *b;
  PetscReal          worst = 0, nd, nh;

  /* PETSc caches norms by object state: a device operation that left the state alone would show here (next call) */
  PCALL(VecNorm(d, NORM_1, &nd));
  PCALL(VecNorm(h, NORM_1, &nh));
  if (!(PetscAbsReal(nd - nh) <= 4 * PetscMax(n, 1) * EPS * nh + ulps * EPS * n * floor) && !(PetscIsNanReal(nd) && PetscIsNanReal(nh)))
    fail_msg("%s n=%d: 1-norm %.17g on the device, %.17g on the host", what, (int)n, (double)nd, (double)nh);
  PCALL(VecGetArrayRead(d, &a));
  PCALL(VecGetArrayRead(h, &b));
  for (PetscInt i = 0; i < n; i++) {
    if (ulps == 0) {
      if (memcmp(&a[i], &b[i], sizeof(PetscScalar)) && !(PetscIsNanScalar(a[i]) && PetscIsNanScalar(b[i])))
        fail_msg("%s n=%d: entry %d is %.17g on the device, %.17g on the host (exact expected)", what, (int)n, (int)i, (double)a[i], (double)b[i]);
    } else {
      PetscReal err = PetscAbsScalar(a[i] - b[i]), tol = ulps * EPS * PetscMax(PetscAbsScalar(b[i]), floor);
      if (!(err <= tol))
        fail_msg("%s n=%d: entry %d is %.17g on the device, %.17g on the host (|diff| %.3e > %.3e)", what, (int)n, (int)i, (double)a[i], (double)b[i], err,
                 tol);
      worst = PetscMax(worst, err / (EPS * PetscMax(PetscAbsScalar(b[i]), floor)));
    }
  }
  PCALL(VecRestoreArrayRead(h, &b));
  PCALL(VecRestoreArrayRead(d, &a));
}

/* Reduction result: |d - h| <= 4 n eps scale */
static void check_reduction(const char *what, PetscInt n, PetscReal d, PetscReal h, PetscReal scale)
{
  PetscReal tol = 4.0 * (PetscReal)PetscMax(n, 1) * EPS * scale;
  if (!(PetscAbsReal(d - h) <= tol))
    fail_msg("%s n=%d: device %.17g host %.17g (|diff| %.3e > %.3e)", what, (int)n, (double)d, (double)h, (double)PetscAbsReal(d - h), (double)tol);
}

static void stats(SbpmgCLStats *s)
{
  SbpmgCL cl;
  PCALL(SbpmgCLGetDefault(&cl));
  PCALL(SbpmgCLGetStats(cl, s));
}

/* No whole-vector transfer between two snapshots: nothing sent, only reduction results (<= 8 scalars each) read back. */
typedef struct {
  SbpmgCLStats   cl;
  PetscLogDouble htod, dtoh; /* whole-vector syncs */
} Snap;

static void snap(Snap *s)
{
  stats(&s->cl);
  PCALL(VecOpenCLGetSyncCounts(&s->htod, &s->dtoh));
}

static void assert_no_vector_transfer(const char *what, const Snap *a, const Snap *b)
{
  PetscLogDouble dcount = b->cl.dtoh_count - a->cl.dtoh_count, dbytes = b->cl.dtoh_bytes - a->cl.dtoh_bytes;
  if (b->cl.htod_count != a->cl.htod_count)
    fail_msg("%s: %g host->device transfers (%g bytes), expected none", what, b->cl.htod_count - a->cl.htod_count, b->cl.htod_bytes - a->cl.htod_bytes);
  if (b->htod != a->htod || b->dtoh != a->dtoh) fail_msg("%s: %g + %g whole-vector copies, expected none", what, b->htod - a->htod, b->dtoh - a->dtoh);
  if (dbytes > dcount * 8 * sizeof(PetscScalar)) fail_msg("%s: %g device->host transfers moved %g bytes: more than reduction results", what, dcount, dbytes);
}

/* ---------------------------------------------------------------- element-wise operations */

static void test_elementwise(void **state)
{
  for (size_t t = 0; t < NSIZES; t++) {
    PetscInt n = sizes[t];
    Vec      xd, xh, yd, yh, zd, zh, wd, wh;

    make_pair(n, 11 + n, -1, 1, &xd, &xh);
    make_pair(n, 12 + n, -1, 1, &yd, &yh);
    make_pair(n, 13 + n, -1, 1, &zd, &zh);
    make_pair(n, 14 + n, -3, 5, &wd, &wh);

    PCALL(VecSet(wd, 2.5));
    PCALL(VecSet(wh, 2.5));
    assert_int_equal(SbpmgTestOffloadMask(wd), PETSC_OFFLOAD_GPU);
    check_values("set", n, wd, wh, 0, 0);

    PCALL(VecZeroEntries(wd));
    PCALL(VecZeroEntries(wh));
    check_values("zero", n, wd, wh, 0, 0);

    PCALL(VecCopy(xd, wd));
    PCALL(VecCopy(xh, wh));
    check_values("copy", n, wd, wh, 0, 0);

    PCALL(VecScale(wd, -0.37));
    PCALL(VecScale(wh, -0.37));
    check_values("scale", n, wd, wh, 0, 0);

    PCALL(VecShift(wd, 0.25));
    PCALL(VecShift(wh, 0.25));
    check_values("shift", n, wd, wh, 0, 0);

    PCALL(VecSwap(wd, zd));
    PCALL(VecSwap(wh, zh));
    assert_int_equal(SbpmgTestOffloadMask(wd), PETSC_OFFLOAD_GPU);
    check_values("swap (first)", n, wd, wh, 0, 0);
    check_values("swap (second)", n, zd, zh, 0, 0);

    PCALL(VecAXPY(wd, 1.75, xd));
    PCALL(VecAXPY(wh, 1.75, xh));
    check_values("axpy", n, wd, wh, 4, 2);

    PCALL(VecAYPX(wd, -0.6, yd));
    PCALL(VecAYPX(wh, -0.6, yh));
    check_values("aypx", n, wd, wh, 4, 4);

    PCALL(VecAYPX(wd, 0.0, yd));
    PCALL(VecAYPX(wh, 0.0, yh));
    check_values("aypx alpha=0", n, wd, wh, 0, 0);

    PCALL(VecAXPBY(wd, 0.3, -1.1, xd));
    PCALL(VecAXPBY(wh, 0.3, -1.1, xh));
    check_values("axpby", n, wd, wh, 4, 2);

    PCALL(VecAXPBY(wd, 0.7, 0.0, xd));
    PCALL(VecAXPBY(wh, 0.7, 0.0, xh));
    check_values("axpby beta=0", n, wd, wh, 0, 0);

    PCALL(VecAXPBYPCZ(wd, 0.5, -2.0, 1.5, xd, yd));
    PCALL(VecAXPBYPCZ(wh, 0.5, -2.0, 1.5, xh, yh));
    check_values("axpbypcz", n, wd, wh, 6, 4);

    PCALL(VecAXPBYPCZ(wd, 0.5, -2.0, 0.0, xd, yd));
    PCALL(VecAXPBYPCZ(wh, 0.5, -2.0, 0.0, xh, yh));
    check_values("axpbypcz gamma=0", n, wd, wh, 4, 4);

    PCALL(VecWAXPY(wd, -0.8, xd, yd));
    PCALL(VecWAXPY(wh, -0.8, xh, yh));
    check_values("waxpy", n, wd, wh, 4, 2);

    PCALL(VecPointwiseMult(wd, xd, yd));
    PCALL(VecPointwiseMult(wh, xh, yh));
    check_values("pointwise mult", n, wd, wh, 0, 0);

    PCALL(VecPointwiseDivide(wd, xd, yd));
    PCALL(VecPointwiseDivide(wh, xh, yh));
    check_values("pointwise divide", n, wd, wh, 0, 0);

    PCALL(VecPointwiseMax(wd, xd, yd));
    PCALL(VecPointwiseMax(wh, xh, yh));
    check_values("pointwise max", n, wd, wh, 0, 0);

    PCALL(VecPointwiseMin(wd, xd, yd));
    PCALL(VecPointwiseMin(wh, xh, yh));
    check_values("pointwise min", n, wd, wh, 0, 0);

    PCALL(VecPointwiseMaxAbs(wd, xd, yd));
    PCALL(VecPointwiseMaxAbs(wh, xh, yh));
    check_values("pointwise maxabs", n, wd, wh, 0, 0);

    PCALL(VecCopy(xd, wd));
    PCALL(VecCopy(xh, wh));
    PCALL(VecReciprocal(wd));
    PCALL(VecReciprocal(wh));
    check_values("reciprocal", n, wd, wh, 0, 0);

    PCALL(VecAbs(wd));
    PCALL(VecAbs(wh));
    check_values("abs", n, wd, wh, 0, 0);

    PCALL(VecSqrtAbs(wd));
    PCALL(VecSqrtAbs(wh));
    check_values("sqrtabs", n, wd, wh, 0, 0);

    PCALL(VecLog(wd));
    PCALL(VecLog(wh));
    check_values("log", n, wd, wh, 4, 1);

    PCALL(VecExp(wd));
    PCALL(VecExp(wh));
    check_values("exp", n, wd, wh, 4, 0);

    /* maxpy: 3 vectors (one pass) and 11 (two passes of the fused kernel) */
    {
      Vec         vd[11], vh[11];
      PetscScalar alpha[11];

      for (int j = 0; j < 11; j++) {
        make_pair(n, 100 + 7 * j + n, -1, 1, &vd[j], &vh[j]);
        alpha[j] = 0.1 * (j + 1) * (j % 2 ? -1 : 1);
      }
      PCALL(VecMAXPY(wd, 3, alpha, vd));
      PCALL(VecMAXPY(wh, 3, alpha, vh));
      check_values("maxpy 3", n, wd, wh, 8, 4);
      PCALL(VecMAXPY(wd, 11, alpha, vd));
      PCALL(VecMAXPY(wh, 11, alpha, vh));
      check_values("maxpy 11", n, wd, wh, 16, 8);
      for (int j = 0; j < 11; j++) SbpmgTestDestroyPair(&vd[j], &vh[j]);
    }
    SbpmgTestDestroyPair(&xd, &xh);
    SbpmgTestDestroyPair(&yd, &yh);
    SbpmgTestDestroyPair(&zd, &zh);
    SbpmgTestDestroyPair(&wd, &wh);
  }
}

/* Every device operation above leaves its output on the device and moves no vector. */
static void test_elementwise_stay_on_device(void **state)
{
  PetscInt    n = 1000;
  Vec         x, y, w, v[3];
  PetscScalar alpha[3] = {1, 2, 3};
  Snap        s0, s1;

  PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, n, &x));
  PCALL(VecDuplicate(x, &y));
  PCALL(VecDuplicate(x, &w));
  for (int j = 0; j < 3; j++) PCALL(VecDuplicate(x, &v[j]));
  snap(&s0);
  PCALL(VecSet(x, 1.5));
  PCALL(VecSet(y, -2));
  PCALL(VecAXPY(y, 2, x));
  PCALL(VecAYPX(y, 2, x));
  PCALL(VecAXPBY(y, 2, 3, x));
  PCALL(VecAXPBYPCZ(w, 1, 2, 3, x, y));
  PCALL(VecWAXPY(w, 2, x, y));
  PCALL(VecMAXPY(w, 3, alpha, v));
  PCALL(VecPointwiseMult(w, x, y));
  PCALL(VecPointwiseDivide(w, x, y));
  PCALL(VecReciprocal(w));
  PCALL(VecScale(w, 3));
  PCALL(VecShift(w, 3));
  PCALL(VecCopy(w, x));
  PCALL(VecSwap(w, y));
  snap(&s1);
  assert_no_vector_transfer("element-wise operations", &s0, &s1);
  assert_true(s1.cl.dtoh_count == s0.cl.dtoh_count);
  assert_int_equal(SbpmgTestOffloadMask(w), PETSC_OFFLOAD_GPU);
  assert_int_equal(SbpmgTestOffloadMask(y), PETSC_OFFLOAD_GPU);
  for (int j = 0; j < 3; j++) PCALL(VecDestroy(&v[j]));
  PCALL(VecDestroy(&x));
  PCALL(VecDestroy(&y));
  PCALL(VecDestroy(&w));
}

/* ---------------------------------------------------------------- reductions */

static void test_reductions(void **state)
{
  for (size_t t = 0; t < NSIZES; t++) {
    PetscInt    n = sizes[t];
    Vec         xd, xh, yd, yh;
    PetscScalar sd, sh, dd, dh;
    PetscReal   rd, rh, r2d[2], r2h[2], scale = 0;
    PetscInt    id, ih;
    Snap        s0, s1;
    Vec         vd[11], vh[11];
    PetscScalar md[11], mh[11];

    make_pair(n, 21 + n, -1, 1, &xd, &xh);
    make_pair(n, 22 + n, -2, 3, &yd, &yh);
    for (int j = 0; j < 11; j++) make_pair(n, 200 + 3 * j + n, -1, 1, &vd[j], &vh[j]);
    {
      const PetscScalar *a, *b;
      PCALL(VecGetArrayRead(xh, &a));
      PCALL(VecGetArrayRead(yh, &b));
      for (PetscInt i = 0; i < n; i++) scale += PetscAbsScalar(a[i] * b[i]);
      PCALL(VecRestoreArrayRead(yh, &b));
      PCALL(VecRestoreArrayRead(xh, &a));
    }
    snap(&s0);

    PCALL(VecDot(xd, yd, &sd));
    PCALL(VecDot(xh, yh, &sh));
    check_reduction("dot", n, sd, sh, scale);
    PCALL(VecTDot(xd, yd, &sd));
    PCALL(VecTDot(xh, yh, &sh));
    check_reduction("tdot", n, sd, sh, scale);

    PCALL(VecNorm(xd, NORM_1, &rd));
    PCALL(VecNorm(xh, NORM_1, &rh));
    check_reduction("norm 1", n, rd, rh, rh);
    PCALL(VecNorm(xd, NORM_2, &rd));
    PCALL(VecNorm(xh, NORM_2, &rh));
    check_reduction("norm 2", n, rd, rh, rh);
    PCALL(VecNorm(yd, NORM_FROBENIUS, &rd));
    PCALL(VecNorm(yh, NORM_FROBENIUS, &rh));
    check_reduction("norm frobenius", n, rd, rh, rh);
    PCALL(VecNorm(yd, NORM_INFINITY, &rd));
    PCALL(VecNorm(yh, NORM_INFINITY, &rh));
    assert_true(rd == rh);
    PCALL(VecNorm(yd, NORM_1_AND_2, r2d));
    PCALL(VecNorm(yh, NORM_1_AND_2, r2h));
    check_reduction("norm 1 of 1_AND_2", n, r2d[0], r2h[0], r2h[0]);
    check_reduction("norm 2 of 1_AND_2", n, r2d[1], r2h[1], r2h[1]);

    PCALL(VecSum(yd, &sd));
    PCALL(VecSum(yh, &sh));
    check_reduction("sum", n, sd, sh, r2h[0]);

    PCALL(VecMax(yd, &id, &rd));
    PCALL(VecMax(yh, &ih, &rh));
    assert_true(rd == rh);
    assert_int_equal(id, ih);
    PCALL(VecMin(yd, &id, &rd));
    PCALL(VecMin(yh, &ih, &rh));
    assert_true(rd == rh);
    assert_int_equal(id, ih);
    PCALL(VecMax(xd, NULL, &rd));
    PCALL(VecMax(xh, NULL, &rh));
    assert_true(rd == rh);

    PCALL(VecDotNorm2(xd, yd, &dd, &sd));
    PCALL(VecDotNorm2(xh, yh, &dh, &sh));
    check_reduction("dotnorm2 dot", n, dd, dh, scale);
    check_reduction("dotnorm2 norm", n, sd, sh, sh);

    PCALL(VecMaxPointwiseDivide(xd, yd, &rd));
    PCALL(VecMaxPointwiseDivide(xh, yh, &rh));
    assert_true(rd == rh);

    /* split-phase reductions use dot_local and norm_local */
    PCALL(VecDotBegin(xd, yd, &sd));
    PCALL(VecNormBegin(xd, NORM_2, &rd));
    PCALL(VecDotEnd(xd, yd, &sd));
    PCALL(VecNormEnd(xd, NORM_2, &rd));
    PCALL(VecDot(xh, yh, &sh));
    PCALL(VecNorm(xh, NORM_2, &rh));
    check_reduction("dot_local", n, sd, sh, scale);
    check_reduction("norm_local", n, rd, rh, rh);

    /* mdot: 3 vectors (one pass) and 11 (two passes); with x among the ys */
    {
      PCALL(VecDestroy(&vd[4]));
      PCALL(VecDestroy(&vh[4]));
      vd[4] = xd;
      vh[4] = xh;
      PCALL(PetscObjectReference((PetscObject)xd));
      PCALL(PetscObjectReference((PetscObject)xh));
      SbpmgTestMDots(yd, yh, vd, vh, n, check_reduction, md, mh);
      for (int j = 0; j < 11; j++) SbpmgTestDestroyPair(&vd[j], &vh[j]);
    }
    snap(&s1);
    assert_no_vector_transfer("reductions", &s0, &s1);
    assert_int_equal(SbpmgTestOffloadMask(xd), PETSC_OFFLOAD_BOTH); /* made on the host, synced, only read since */
    SbpmgTestDestroyPair(&xd, &xh);
    SbpmgTestDestroyPair(&yd, &yh);
  }
}

/* Same values, same device: the same bits, every time, and on a copy made another way. */
static void test_reductions_reproducible(void **state)
{
  for (size_t t = 0; t < NSIZES; t++) {
    PetscInt    n = sizes[t];
    Vec         xd, xh, yd, yh, x2, y2, m[3];
    PetscScalar first[16], again[16];

    make_pair(n, 31 + n, -1, 1, &xd, &xh);
    make_pair(n, 32 + n, -1, 1, &yd, &yh);
    /* a second pair holding the same values: a device copy, and one uploaded from the host */
    PCALL(VecDuplicate(xd, &x2));
    PCALL(VecCopy(xd, x2));
    PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, n, &y2));
    {
      const PetscScalar *b;
      PetscScalar       *a;
      PCALL(VecGetArrayRead(yh, &b));
      PCALL(VecGetArrayWrite(y2, &a));
      PCALL(PetscArraycpy(a, b, n));
      PCALL(VecRestoreArrayWrite(y2, &a));
      PCALL(VecRestoreArrayRead(yh, &b));
    }
    m[0] = yd;
    m[1] = xd;
    m[2] = yd;
    for (int rep = 0; rep < 4; rep++) {
      Vec          x = rep < 3 ? xd : x2, y = rep < 3 ? yd : y2;
      PetscScalar *r = rep ? again : first;

      SbpmgTestReductions(x, y, m, r);
      if (rep && memcmp(first, again, 14 * sizeof(PetscScalar))) {
        for (int i = 0; i < 14; i++)
          if (memcmp(&first[i], &again[i], sizeof(PetscScalar)))
            fail_msg("n=%d repetition %d: reduction %d gave %.17g, first time %.17g", (int)n, rep, i, (double)again[i], (double)first[i]);
      }
    }
    PCALL(VecDestroy(&x2));
    PCALL(VecDestroy(&y2));
    SbpmgTestDestroyPair(&xd, &xh);
    SbpmgTestDestroyPair(&yd, &yh);
  }
}

/* ---------------------------------------------------------------- reduction modes: one launch or two, pinned or pageable, spin

   Every reduction in every mode of the context (-vec_cl_reduce_onepass, -cl_pinned_results, -cl_result_spin, set here
   on the context directly) gives the bits of the two-launch, pageable path, and the same transfer counts; the
   two-launch results agree with VECSEQ. */

typedef struct {
  PetscBool onepass, pinned, spin;
} ReduceMode;

static const ReduceMode reduce_modes[] = {
    {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE}, /* the reference: two launches, pageable result */
    {PETSC_TRUE, PETSC_TRUE, PETSC_FALSE},   /* one launch, pinned */
    {PETSC_TRUE, PETSC_FALSE, PETSC_FALSE},  {PETSC_FALSE, PETSC_TRUE, PETSC_FALSE},
    {PETSC_TRUE, PETSC_TRUE, PETSC_TRUE},    {PETSC_TRUE, PETSC_FALSE, PETSC_TRUE}, /* spin reads through the pinned area whatever -cl_pinned_results says */
    {PETSC_FALSE, PETSC_TRUE, PETSC_TRUE},                                          /* spin needs one launch: ignored with two */
};
#define NMODES (sizeof(reduce_modes) / sizeof(reduce_modes[0]))

static void set_reduce_mode(SbpmgCL cl, ReduceMode m)
{
  cl->reduce_onepass = m.onepass;
  cl->pinned_results = m.pinned;
  cl->result_spin    = m.spin;
}

/* Results of a list of reductions, each with the tolerance of its comparison with the host (0: exact), and the reads
   from the device they should cost: one transfer per reduction (per pass of 8 vectors for VecMDot), of its results. */
#define MAX_RESULTS 96
typedef struct {
  PetscScalar    r[MAX_RESULTS];
  PetscReal      tol[MAX_RESULTS];
  const char    *what[MAX_RESULTS];
  int            count;
  PetscLogDouble reads, scalars;
} ReduceList;

static void put(ReduceList *l, const char *what, PetscScalar v, PetscReal tol)
{
  if (l->count == MAX_RESULTS) fail_msg("more than %d results", MAX_RESULTS);
  l->what[l->count] = what;
  l->tol[l->count]  = tol;
  l->r[l->count++]  = v;
}

/* One reduction's cost in device -> host transfers: reads of scalars in all */
static void cost(ReduceList *l, PetscLogDouble reads, PetscLogDouble scalars)
{
  l->reads += reads;
  l->scalars += scalars;
}

/* Every reduction of x (and y, m[0..8]): sum, the norms, dot, tdot, mdot of 1..9 vectors, max and min with their
   locations, max pointwise divide, dotnorm2. Values in [-1, 1), so n bounds the sums of magnitudes. */
static void all_reductions(Vec x, Vec y, Vec m[9], ReduceList *l)
{
  static const NormType types[] = {NORM_1, NORM_2, NORM_FROBENIUS, NORM_INFINITY};
  static const char    *names[] = {"norm 1", "norm 2", "norm frobenius", "norm infinity"};
  PetscInt              n, at;
  PetscReal             r, r2[2], tol;
  PetscScalar           v, w, md[9];

  PCALL(VecGetSize(x, &n));
  tol      = 4.0 * PetscMax(n, 1) * EPS * PetscMax(n, 1);
  l->count = 0;
  l->reads = l->scalars = 0;
  PCALL(VecSum(x, &v));
  put(l, "sum", v, tol);
  cost(l, 1, 1);
  for (int t = 0; t < 4; t++) {
    PCALL(PetscObjectStateIncrease((PetscObject)x)); /* or PETSc answers from its cache */
    PCALL(VecNorm(x, types[t], &r));
    put(l, names[t], r, types[t] == NORM_INFINITY ? 0 : tol);
    cost(l, 1, 1);
  }
  PCALL(PetscObjectStateIncrease((PetscObject)x));
  PCALL(VecNorm(x, NORM_1_AND_2, r2));
  put(l, "norm 1 of 1_and_2", r2[0], tol);
  put(l, "norm 2 of 1_and_2", r2[1], tol);
  cost(l, 1, 2);
  PCALL(VecDot(x, y, &v));
  put(l, "dot", v, tol);
  PCALL(VecTDot(x, y, &v));
  put(l, "tdot", v, tol);
  cost(l, 2, 2);
  for (PetscInt k = 1; k <= 9; k++) {
    PCALL(VecMDot(x, k, m, md));
    for (PetscInt j = 0; j < k; j++) put(l, "mdot", md[j], tol);
    cost(l, (k + VEC_CL_MAX_FUSE - 1) / VEC_CL_MAX_FUSE, k); /* one read per pass of up to 8 vectors */
  }
  PCALL(VecMax(x, &at, &r));
  put(l, "max", r, 0);
  put(l, "max location", at, 0);
  PCALL(VecMin(x, &at, &r));
  put(l, "min", r, 0);
  put(l, "min location", at, 0);
  cost(l, 2, 4); /* (value, index) pairs */
  PCALL(VecMaxPointwiseDivide(x, y, &r));
  put(l, "max pointwise divide", r, 0);
  cost(l, 1, 1);
  PCALL(VecDotNorm2(x, y, &v, &w));
  put(l, "dotnorm2 dot", v, tol);
  put(l, "dotnorm2 norm", w, tol);
  cost(l, 1, 2);
}

static void compare_bits(const char *mode, PetscInt n, const ReduceList *ref, const ReduceList *got)
{
  assert_int_equal(ref->count, got->count);
  for (int i = 0; i < ref->count; i++)
    if (memcmp(&ref->r[i], &got->r[i], sizeof(PetscScalar)))
      fail_msg("n=%d %s: result %d (%s) is %.17g, %.17g with two launches into pageable memory", (int)n, mode, i, got->what[i], (double)got->r[i],
               (double)ref->r[i]);
}

/* The reductions of the device vectors of one length in every mode, against the reference mode and the host. */
static void check_reduce_modes(SbpmgCL cl, PetscInt n)
{
  Vec        xd, xh, yd, yh, md[9], mh[9];
  ReduceList ref, got, host;
  PetscInt   G;

  make_pair_on(cl, n, 301 + n, -1, 1, &xd, &xh);
  make_pair_on(cl, n, 302 + n, -1, 1, &yd, &yh);
  for (int j = 0; j < 9; j++) make_pair_on(cl, n, 310 + 7 * j + n, -1, 1, &md[j], &mh[j]);
  G = VecCLData(xd)->rgroups;
  all_reductions(xh, yh, mh, &host);
  for (size_t t = 0; t < NMODES; t++) {
    ReduceMode m = reduce_modes[t];
    Snap       s0, s1;
    char       name[64];

    if (SbpmgTestUnderMemcheck() && t != 0 && t != 1 && t != 4) continue; /* valgrind: each code path once (two launches, one launch pinned, spin) */

    PCALL(PetscSNPrintf(name, sizeof(name), "onepass %d pinned %d spin %d (G=%d)", (int)m.onepass, (int)m.pinned, (int)m.spin, (int)G));
    set_reduce_mode(cl, m);
    PCALL(SbpmgCLGetStats(cl, &s0.cl));
    PCALL(VecOpenCLGetSyncCounts(&s0.htod, &s0.dtoh));
    all_reductions(xd, yd, md, t ? &got : &ref);
    PCALL(SbpmgCLGetStats(cl, &s1.cl));
    PCALL(VecOpenCLGetSyncCounts(&s1.htod, &s1.dtoh));
    assert_no_vector_transfer(name, &s0, &s1);
    if (s1.cl.dtoh_count - s0.cl.dtoh_count != ref.reads || s1.cl.dtoh_bytes - s0.cl.dtoh_bytes != ref.scalars * sizeof(PetscScalar))
      fail_msg("n=%d %s: %g reads of %g bytes, expected %g of %g", (int)n, name, s1.cl.dtoh_count - s0.cl.dtoh_count, s1.cl.dtoh_bytes - s0.cl.dtoh_bytes,
               ref.reads, ref.scalars * sizeof(PetscScalar));
    if (t) compare_bits(name, n, &ref, &got);
  }
  set_reduce_mode(cl, reduce_modes[1]);
  for (int i = 0; i < ref.count; i++) {
    PetscReal d = PetscRealPart(ref.r[i]), h = PetscRealPart(host.r[i]);
    if (ref.tol[i] == 0 ? memcmp(&ref.r[i], &host.r[i], sizeof(PetscScalar)) != 0 : !(PetscAbsReal(d - h) <= ref.tol[i]))
      fail_msg("n=%d: %s is %.17g on the device, %.17g on the host (tolerance %.3e)", (int)n, ref.what[i], d, h, ref.tol[i]);
  }
  for (int j = 0; j < 9; j++) SbpmgTestDestroyPair(&md[j], &mh[j]);
  SbpmgTestDestroyPair(&xd, &xh);
  SbpmgTestDestroyPair(&yd, &yh);
}

/* A context on the same device whose vectors take the reduction geometry of a GPU with cu compute units: grid-stride
   kernels (VEC_CPU 0) and up to 8 cu work-groups, more than the work-group size, so that stage 2 folds several
   partials per item. Only the vectors' geometry reads these fields. */
static void create_gpu_geometry_context(cl_uint cu, SbpmgCL *cl)
{
  PCALL(SbpmgCLCreate(PETSC_COMM_SELF, cl));
  (*cl)->type          = CL_DEVICE_TYPE_GPU;
  (*cl)->compute_units = cu;
}

static void test_reduce_modes_bitwise(void **state)
{
  static const PetscInt lengths[] = {1, 7, 255, 256, 257, 100003};
  const size_t          nlen      = SbpmgTestUnderMemcheck() ? 3 : sizeof(lengths) / sizeof(lengths[0]); /* valgrind: 1, 7, 255 */
  SbpmgCL               cl, gpu;

  PCALL(SbpmgCLGetDefault(&cl));
  for (size_t t = 0; t < nlen; t++) check_reduce_modes(cl, lengths[t]);
  if (SbpmgTestUnderMemcheck()) return;  /* the GPU kernels' program would be compiled under valgrind: minutes, for kernel code it does not check */
  create_gpu_geometry_context(75, &gpu); /* up to 600 work-groups: 100003 entries take 391, 200003 take 600 (up to 3 partials per item) */
  for (size_t t = 0; t < nlen; t++) check_reduce_modes(gpu, lengths[t]);
  check_reduce_modes(gpu, 200003);
  {
    Vec v;
    PCALL(VecCreateSeqOpenCLWithContext(PETSC_COMM_SELF, gpu, 200003, &v));
    assert_int_equal(VecCLData(v)->rgroups, 600);
    assert_false(VecCLData(v)->cpu);
    PCALL(VecDestroy(&v));
  }
  PCALL(SbpmgCLDestroy(&gpu));
}

/* The int counter of the one-launch reductions is back at 0 after each: 200 rounds of reductions of every kind on the
   same buffers give the same bits every time, in one launch as in two. */
static void test_onepass_repeated(void **state)
{
  SbpmgCL  cl, gpu;
  SbpmgCL  ctx[2];
  PetscInt n[2] = {10007, 70003}; /* 8 work-groups (PoCL's 4 per compute unit), 274 = 256 + 18 with the GPU geometry */

  PCALL(SbpmgCLGetDefault(&cl));
  create_gpu_geometry_context(75, &gpu);
  ctx[0] = cl;
  ctx[1] = gpu;
  for (int c = 0; c < (SbpmgTestUnderMemcheck() ? 1 : 2); c++) { /* valgrind: not the GPU kernels (see test_reduce_modes_bitwise) */
    Vec         x, xh, y, yh, m[3], mh[3];
    PetscScalar first[SBPMG_TEST_NREDUCTIONS], again[SBPMG_TEST_NREDUCTIONS], twopass[SBPMG_TEST_NREDUCTIONS];
    int         counter = -1;

    make_pair_on(ctx[c], n[c], 401, -1, 1, &x, &xh);
    make_pair_on(ctx[c], n[c], 402, -1, 1, &y, &yh);
    for (int j = 0; j < 3; j++) make_pair_on(ctx[c], n[c], 410 + j, -1, 1, &m[j], &mh[j]);
    set_reduce_mode(ctx[c], reduce_modes[0]);
    SbpmgTestReductions(x, y, m, twopass);
    set_reduce_mode(ctx[c], reduce_modes[1]);
    for (int rep = 0; rep < (SbpmgTestUnderMemcheck() ? 3 : 200); rep++) {
      SbpmgTestReductions(x, y, m, rep ? again : first);
      if (rep && memcmp(first, again, sizeof(first)))
        for (int i = 0; i < SBPMG_TEST_NREDUCTIONS; i++)
          if (memcmp(&first[i], &again[i], sizeof(PetscScalar)))
            fail_msg("n=%d round %d: reduction %d gave %.17g, first time %.17g", (int)n[c], rep, i, (double)again[i], (double)first[i]);
    }
    for (int i = 0; i < SBPMG_TEST_NREDUCTIONS; i++)
      if (memcmp(&first[i], &twopass[i], sizeof(PetscScalar)))
        fail_msg("n=%d: reduction %d gave %.17g in one launch, %.17g in two", (int)n[c], i, (double)first[i], (double)twopass[i]);
    PCALL(SbpmgCLReadBuffer(ctx[c], VecCLData(x)->buf, ((size_t)n[c] + VEC_CL_COUNTER_SLOT) * sizeof(PetscScalar), sizeof(counter), &counter));
    assert_int_equal(counter, 0);
    for (int j = 0; j < 3; j++) SbpmgTestDestroyPair(&m[j], &mh[j]);
    SbpmgTestDestroyPair(&x, &xh);
    SbpmgTestDestroyPair(&y, &yh);
  }
  PCALL(SbpmgCLDestroy(&gpu));
}

/* The options are read when a context is created; the pinned result area is made at the first pinned read and released
   with the context. */
static void test_reduce_options(void **state)
{
  SbpmgCL      cl;
  SbpmgCLStats s0, s1;
  Vec          x;
  PetscReal    r;

  PCALL(SbpmgCLCreate(PETSC_COMM_SELF, &cl));
  assert_true(!cl->reduce_onepass && cl->pinned_results && !cl->result_spin); /* the defaults */
  PCALL(SbpmgCLDestroy(&cl));
  SbpmgTestSetOption("-vec_cl_reduce_onepass", "0");
  SbpmgTestSetOption("-cl_pinned_results", "0");
  SbpmgTestSetOption("-cl_result_spin", "1");
  PCALL(SbpmgCLCreate(PETSC_COMM_SELF, &cl));
  SbpmgTestSetOption("-vec_cl_reduce_onepass", NULL);
  SbpmgTestSetOption("-cl_pinned_results", NULL);
  SbpmgTestSetOption("-cl_result_spin", NULL);
  assert_true(!cl->reduce_onepass && !cl->pinned_results && cl->result_spin);

  PCALL(SbpmgCLGetGlobalStats(&s0));
  PCALL(VecCreateSeqOpenCLWithContext(PETSC_COMM_SELF, cl, 1000, &x));
  PCALL(VecSet(x, -2));
  PCALL(VecNorm(x, NORM_1, &r)); /* two launches, pageable: spin does not apply, no pinned area */
  assert_true(r == 2000);
  assert_null(cl->results);
  cl->pinned_results = PETSC_TRUE;
  PCALL(PetscObjectStateIncrease((PetscObject)x));
  PCALL(VecNorm(x, NORM_1, &r));
  assert_true(r == 2000);
  assert_non_null(cl->results);
  PCALL(SbpmgCLGetGlobalStats(&s1));
  assert_int_equal(s1.live_buffers, s0.live_buffers + 2); /* the vector and the pinned area */
  PCALL(VecDestroy(&x));
  PCALL(SbpmgCLDestroy(&cl));
  PCALL(SbpmgCLGetGlobalStats(&s1));
  assert_int_equal(s1.live_buffers, s0.live_buffers);
}

/* A result that happens to carry the spin wait's sentinel bits (a signalling NaN, SbpmgCLSentinel in src/cl/device.c) is
   not taken for a word still in flight forever: after the bounded spin the read's event is awaited, and the result is
   right. VecMax returns x[0] when it is a NaN, bit for bit. */
static void test_spin_sentinel_result(void **state)
{
  SbpmgCL        cl;
  Vec            x;
  PetscScalar   *a;
  PetscReal      r;
  PetscInt       at;
  const uint64_t sentinel = 0x7FF5A5A5A5A5A5A5ULL;

  if (sizeof(PetscScalar) != 8) skip();
  PCALL(SbpmgCLGetDefault(&cl));
  set_reduce_mode(cl, reduce_modes[4]);
  PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, 50, &x));
  PCALL(VecGetArrayWrite(x, &a));
  for (int i = 0; i < 50; i++) a[i] = i;
  memcpy(&a[0], &sentinel, 8);
  PCALL(VecRestoreArrayWrite(x, &a));
  PCALL(VecMax(x, &at, &r));
  set_reduce_mode(cl, reduce_modes[1]);
  assert_int_equal(at, 0);
  assert_memory_equal(&r, &sentinel, 8);
  PCALL(VecDestroy(&x));
}

/* NaN and ties: the same answers as VECSEQ's host loops. */
static void test_reduction_special_values(void **state)
{
  const PetscInt n = 7;
  Vec            xd, xh;
  PetscReal      rd, rh, r2d[2], r2h[2];
  PetscInt       id, ih;
  PetscScalar   *a, *b;

  make_pair(n, 41, -1, 1, &xd, &xh);
  /* ties: the first index of the maximum and of the minimum */
  PCALL(VecGetArray(xd, &a));
  PCALL(VecGetArray(xh, &b));
  a[2] = b[2] = 5;
  a[5] = b[5] = 5;
  a[1] = b[1] = -5;
  a[6] = b[6] = -5;
  PCALL(VecRestoreArray(xh, &b));
  PCALL(VecRestoreArray(xd, &a));
  PCALL(VecMax(xd, &id, &rd));
  PCALL(VecMax(xh, &ih, &rh));
  assert_true(rd == rh && id == ih && id == 2);
  PCALL(VecMin(xd, &id, &rd));
  PCALL(VecMin(xh, &ih, &rh));
  assert_true(rd == rh && id == ih && id == 1);
  /* NaN inside: skipped by max/min, propagated by norms */
  PCALL(VecGetArray(xd, &a));
  PCALL(VecGetArray(xh, &b));
  a[3] = b[3] = (PetscScalar)NAN;
  PCALL(VecRestoreArray(xh, &b));
  PCALL(VecRestoreArray(xd, &a));
  PCALL(VecMax(xd, &id, &rd));
  PCALL(VecMax(xh, &ih, &rh));
  assert_true(rd == rh && id == ih);
  PCALL(VecNorm(xd, NORM_INFINITY, &rd));
  assert_true(PetscIsNanReal(rd));
  PCALL(VecNorm(xd, NORM_1_AND_2, r2d));
  PCALL(VecNorm(xh, NORM_1_AND_2, r2h));
  assert_true(PetscIsNanReal(r2d[0]) && PetscIsNanReal(r2d[1]) && PetscIsNanReal(r2h[0]));
  /* NaN first: it is the answer of max and min (as on the host) */
  PCALL(VecGetArray(xd, &a));
  PCALL(VecGetArray(xh, &b));
  a[0] = b[0] = (PetscScalar)NAN;
  PCALL(VecRestoreArray(xh, &b));
  PCALL(VecRestoreArray(xd, &a));
  PCALL(VecMax(xd, &id, &rd));
  PCALL(VecMax(xh, &ih, &rh));
  assert_true(PetscIsNanReal(rd) && PetscIsNanReal(rh) && id == ih && id == 0);
  PCALL(VecMin(xd, &id, &rd));
  PCALL(VecMin(xh, &ih, &rh));
  assert_true(PetscIsNanReal(rd) && id == ih);
  /* scale by 0 and axpby with beta 0 clear NaN like VECSEQ */
  PCALL(VecScale(xd, 0));
  PCALL(VecNorm(xd, NORM_1, &rd));
  assert_true(rd == 0);
  SbpmgTestDestroyPair(&xd, &xh);
}

static void test_empty_vector(void **state)
{
  Vec         x, y;
  PetscReal   r, r2[2];
  PetscScalar s;
  PetscInt    i;

  PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, 0, &x));
  PCALL(VecDuplicate(x, &y));
  PCALL(VecSet(x, 3));
  PCALL(VecAXPY(y, 2, x));
  PCALL(VecDot(x, y, &s));
  assert_true(s == 0);
  PCALL(VecNorm(x, NORM_2, &r));
  assert_true(r == 0);
  PCALL(PetscObjectStateIncrease((PetscObject)x));
  PCALL(VecNorm(x, NORM_INFINITY, &r));
  assert_true(r == 0);
  PCALL(VecNorm(x, NORM_1_AND_2, r2));
  assert_true(r2[0] == 0 && r2[1] == 0);
  PCALL(VecMax(x, &i, &r));
  assert_true(i == -1 && r == PETSC_MIN_REAL);
  PCALL(VecMin(x, &i, &r));
  assert_true(i == -1 && r == PETSC_MAX_REAL);
  PCALL(VecSum(x, &s));
  assert_true(s == 0);
  PCALL(VecDestroy(&x));
  PCALL(VecDestroy(&y));
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

/* ---------------------------------------------------------------- type plumbing */

static void test_type_selection(void **state)
{
  Vec       v, d, *vs;
  PetscBool same;
  SbpmgCL   c1, c2;

  PCALL(SbpmgInitializePackage()); /* registers the types; programs call it (or load libsbpmg with -dll_append) */
  PCALL(VecCreate(PETSC_COMM_SELF, &v));
  PCALL(VecSetSizes(v, 10, 10));
  SbpmgTestSetOption("-vec_type", "seqopencl");
  PCALL(VecSetFromOptions(v));
  SbpmgTestSetOption("-vec_type", NULL);
  PCALL(PetscObjectTypeCompare((PetscObject)v, VECSEQOPENCL, &same));
  assert_true(same);
  PCALL(VecDuplicate(v, &d));
  PCALL(PetscObjectTypeCompare((PetscObject)d, VECSEQOPENCL, &same));
  assert_true(same);
  PCALL(VecOpenCLGetCL(v, &c1));
  PCALL(VecOpenCLGetCL(d, &c2));
  assert_ptr_equal(c1, c2);
  PCALL(VecDuplicateVecs(v, 3, &vs));
  for (int j = 0; j < 3; j++) {
    PCALL(PetscObjectTypeCompare((PetscObject)vs[j], VECSEQOPENCL, &same));
    assert_true(same);
  }
  PCALL(VecDestroyVecs(3, &vs));
  PCALL(VecDestroy(&d));
  PCALL(VecDestroy(&v));

  /* VECOPENCL on one rank is VECSEQOPENCL */
  PCALL(VecCreateOpenCL(PETSC_COMM_SELF, PETSC_DECIDE, 17, &v));
  PCALL(PetscObjectTypeCompare((PetscObject)v, VECSEQOPENCL, &same));
  assert_true(same);
  PCALL(VecDestroy(&v));
  PCALL(VecCreate(PETSC_COMM_SELF, &v));
  PCALL(VecSetSizes(v, 5, 5));
  SbpmgTestSetOption("-vec_type", "opencl");
  PCALL(VecSetFromOptions(v));
  SbpmgTestSetOption("-vec_type", NULL);
  PCALL(PetscObjectTypeCompare((PetscObject)v, VECSEQOPENCL, &same));
  assert_true(same);
  PCALL(VecDestroy(&v));

  EXPECT_ERROR(VecCreateSeqOpenCL(PETSC_COMM_SELF, -3, &v), PETSC_ERR_ARG_OUTOFRANGE, "Vector length -3 must be >= 0");
}

/* Every operation in the table is either data-free or VECSEQOPENCL's own (device or fallback): none is VECSEQ's,
   which would read a stale host mirror. */
static void test_ops_table_covered(void **state)
{
  Vec          seq, dev;
  const size_t nops = sizeof(struct _VecOps) / sizeof(void (*)(void));
  void (**so)(void), (**dop)(void);
  const size_t datafree[] = {offsetof(struct _VecOps, duplicatevecs), offsetof(struct _VecOps, destroyvecs), offsetof(struct _VecOps, getsize),
                             offsetof(struct _VecOps, getlocalsize), offsetof(struct _VecOps, setoption)};

  PCALL(VecCreateSeq(PETSC_COMM_SELF, 3, &seq));
  PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, 3, &dev));
  so  = (void (**)(void))seq->ops;
  dop = (void (**)(void))dev->ops;
  for (size_t i = 0; i < nops; i++) {
    PetscBool free_ok = PETSC_FALSE;
    for (size_t j = 0; j < sizeof(datafree) / sizeof(datafree[0]); j++)
      if (datafree[j] == i * sizeof(void (*)(void))) free_ok = PETSC_TRUE;
    if (dop[i] && dop[i] == so[i] && !free_ok) fail_msg("VecOps slot %d is VECSEQ's own function: it needs a device version or a host fallback", (int)i);
    if (so[i] && !dop[i]) fail_msg("VecOps slot %d is set for VECSEQ but empty for VECSEQOPENCL", (int)i);
  }
  /* the ones PETSc replaces by generic code through VecGetArray when empty, and which the issue wants on the device */
  assert_non_null(dev->ops->shift);
  assert_non_null(dev->ops->sum);
  assert_non_null(dev->ops->getarrayread);
  assert_non_null(dev->ops->getarraywrite);
  PCALL(VecDestroy(&seq));
  PCALL(VecDestroy(&dev));
}

/* ---------------------------------------------------------------- host fallbacks */

static void test_fallbacks(void **state)
{
  PetscInt    n = 12;
  Vec         xd, xh, yd, yh;
  PetscScalar user[12];
  PetscRandom r;

  make_pair(n, 51, -1, 1, &xd, &xh);
  make_pair(n, 52, -1, 1, &yd, &yh);

  /* VecView of a device-only vector shows the device values */
  PCALL(VecScale(xd, 2));
  PCALL(VecScale(xh, 2));
  PCALL(VecView(xd, PETSC_VIEWER_STDOUT_SELF));
  check_values("after view", n, xd, xh, 0, 0);

  /* place/reset: device results land in the placed array; the original values come back after reset */
  for (PetscInt i = 0; i < n; i++) user[i] = i;
  PCALL(VecScale(yd, 3));
  PCALL(VecScale(yh, 3));
  PCALL(VecPlaceArray(yd, user));
  PCALL(VecScale(yd, 2)); /* device op on the placed values */
  PCALL(VecResetArray(yd));
  for (PetscInt i = 0; i < n; i++) assert_true(user[i] == 2.0 * i);
  check_values("after reset", n, yd, yh, 0, 0);

  /* strided gather and scatter with block size 3 */
  {
    Vec sd, sh;
    PCALL(VecSetBlockSize(xd, 3));
    PCALL(VecSetBlockSize(xh, 3));
    PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, n / 3, &sd));
    PCALL(VecCreateSeq(PETSC_COMM_SELF, n / 3, &sh));
    PCALL(VecSet(sd, 1));
    PCALL(VecSet(sh, 1));
    PCALL(VecStrideGather(xd, 1, sd, ADD_VALUES));
    PCALL(VecStrideGather(xh, 1, sh, ADD_VALUES));
    check_values("stride gather", n / 3, sd, sh, 0, 0);
    PCALL(VecScale(sd, -4));
    PCALL(VecScale(sh, -4));
    PCALL(VecStrideScatter(sd, 2, xd, INSERT_VALUES));
    PCALL(VecStrideScatter(sh, 2, xh, INSERT_VALUES));
    check_values("stride scatter", n, xd, xh, 0, 0);
    PCALL(VecDestroy(&sd));
    PCALL(VecDestroy(&sh));
  }

  /* random values: the same generator gives the same values, and the device sees them */
  PCALL(PetscRandomCreate(PETSC_COMM_SELF, &r));
  PCALL(PetscRandomSetSeed(r, 77));
  PCALL(PetscRandomSeed(r));
  PCALL(VecSetRandom(yd, r));
  PCALL(PetscRandomSetSeed(r, 77));
  PCALL(PetscRandomSeed(r));
  PCALL(VecSetRandom(yh, r));
  PCALL(PetscRandomDestroy(&r));
  PCALL(VecScale(yd, 5));
  PCALL(VecScale(yh, 5));
  check_values("set random", n, yd, yh, 0, 0);

  /* sub-vectors, contiguous (device copy) and strided (host copy), written back on restore */
  {
    IS  c, s;
    Vec zd, zh;
    PCALL(ISCreateStride(PETSC_COMM_SELF, 5, 4, 1, &c));
    PCALL(ISCreateStride(PETSC_COMM_SELF, 4, 1, 3, &s));
    PCALL(VecGetSubVector(yd, c, &zd));
    PCALL(VecGetSubVector(yh, c, &zh));
    check_values("contiguous subvector", 5, zd, zh, 0, 0);
    PCALL(VecScale(zd, -1));
    PCALL(VecScale(zh, -1));
    PCALL(VecRestoreSubVector(yd, c, &zd));
    PCALL(VecRestoreSubVector(yh, c, &zh));
    check_values("after contiguous subvector", n, yd, yh, 0, 0);
    PCALL(VecGetSubVector(yd, s, &zd));
    PCALL(VecGetSubVector(yh, s, &zh));
    check_values("strided subvector", 4, zd, zh, 0, 0);
    PCALL(VecShift(zd, 10));
    PCALL(VecShift(zh, 10));
    PCALL(VecRestoreSubVector(yd, s, &zd));
    PCALL(VecRestoreSubVector(yh, s, &zh));
    check_values("after strided subvector", n, yd, yh, 0, 0);
    /* read-only use: nothing is written back */
    PCALL(VecGetSubVector(yd, c, &zd));
    PCALL(VecRestoreSubVector(yd, c, &zd));
    check_values("after unchanged subvector", n, yd, yh, 0, 0);
    PCALL(ISDestroy(&c));
    PCALL(ISDestroy(&s));
  }

  /* local vector: VecGetLocalVector gives the values, changes come back */
  {
    Vec l;
    PCALL(VecCreateLocalVector(yd, &l));
    PCALL(VecGetLocalVector(yd, l));
    PCALL(VecScale(l, 0.5));
    PCALL(VecRestoreLocalVector(yd, l));
    PCALL(VecScale(yh, 0.5));
    check_values("local vector", n, yd, yh, 0, 0);
    PCALL(VecDestroy(&l));
  }
  /* COO assembly: VECSEQ's bookkeeping for it lives in the area reserved at the start of VECSEQOPENCL's data */
  {
    PetscInt    ci[5] = {0, 3, 3, 11, 7};
    PetscScalar cv[5] = {1, 2, 3, 4, 5};
    PCALL(VecSetPreallocationCOO(xd, 5, ci));
    PCALL(VecSetPreallocationCOO(xh, 5, ci));
    PCALL(VecScale(xd, 2));
    PCALL(VecScale(xh, 2));
    PCALL(VecSetValuesCOO(xd, cv, ADD_VALUES));
    PCALL(VecSetValuesCOO(xh, cv, ADD_VALUES));
    check_values("COO add", n, xd, xh, 0, 0);
    PCALL(VecSetValuesCOO(xd, cv, INSERT_VALUES));
    PCALL(VecSetValuesCOO(xh, cv, INSERT_VALUES));
    check_values("COO insert", n, xd, xh, 0, 0);
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
    check_values("binary view and load", n, l, xh, 0, 0);
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

  make_pair(n, 61, -1, 1, &ad, &ah);
  make_pair(n, 62, -1, 1, &ad2, &ah2);
  PCALL(VecDuplicate(ah, &b));
  PCALL(VecSetRandom(b, NULL));

  PCALL(VecAXPY(ad, 2, b)); /* device += host */
  PCALL(VecAXPY(ah, 2, b));
  check_values("axpy(dev, host)", n, ad, ah, 4, 2);
  PCALL(VecDot(ad, b, &sd));
  PCALL(VecDot(ah, b, &sh));
  check_reduction("dot(dev, host)", n, sd, sh, 3 * n);
  PCALL(VecDot(b, ad, &sd));
  check_reduction("dot(host, dev)", n, sd, sh, 3 * n);
  list_d[0] = b;
  list_d[1] = ad2;
  list_h[0] = b;
  list_h[1] = ah2;
  PCALL(VecMDot(ad, 2, list_d, md));
  PCALL(VecMDot(ah, 2, list_h, mh));
  check_reduction("mdot(dev, {host, dev})", n, md[0], mh[0], 3 * n);
  check_reduction("mdot(dev, {host, dev})", n, md[1], mh[1], 3 * n);
  PCALL(VecMAXPY(ad, 2, alpha, list_d));
  PCALL(VecMAXPY(ah, 2, alpha, list_h));
  check_values("maxpy(dev, {host, dev})", n, ad, ah, 8, 4);
  PCALL(VecPointwiseMult(ad2, b, ad));
  PCALL(VecPointwiseMult(ah2, b, ah));
  check_values("pointwise mult(dev, host, dev)", n, ad2, ah2, 0, 0);

  {
    Vec c;
    PCALL(VecDuplicate(b, &c));
    PCALL(VecCopy(b, c));
    PCALL(VecAXPY(b, -1, ad)); /* host += device: VECSEQ's axpy reads ad through VecGetArrayRead */
    PCALL(VecAXPY(c, -1, ah));
    check_values("axpy(host, dev)", n, b, c, 0, 0);
    PCALL(VecDestroy(&c));
  }
  PCALL(VecCopy(b, ad)); /* host -> device vector */
  assert_int_equal(SbpmgTestOffloadMask(ad), PETSC_OFFLOAD_CPU);
  PCALL(VecCopy(b, ah));
  check_values("copy(host -> dev)", n, ad, ah, 0, 0);
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
  make_pair(n, 71, -1, 1, &ad, &ah);
  make_pair(n, 72, -1, 1, &bd, &bh);
  PCALL(VecCreateSeqOpenCLWithContext(PETSC_COMM_SELF, other, n, &c));
  PCALL(SbpmgCLDestroy(&other)); /* the vector keeps the context alive */
  PCALL(VecGetArrayWrite(c, &p));
  SbpmgTestRandom(n, p, -1, 1, 72);
  PCALL(VecRestoreArrayWrite(c, &p));
  PCALL(VecScale(c, 2)); /* on the other device context */
  PCALL(VecScale(bh, 2));
  PCALL(VecAXPY(ad, 0.5, c));
  PCALL(VecAXPY(ah, 0.5, bh));
  check_values("axpy across contexts", n, ad, ah, 4, 2);
  PCALL(VecDot(c, ad, &sd));
  PCALL(VecDot(bh, ah, &sh));
  check_reduction("dot across contexts", n, sd, sh, 3 * n);
  PCALL(VecCopy(ad, c));
  PCALL(VecNorm(c, NORM_1, &sd));
  PCALL(VecNorm(ah, NORM_1, &sh));
  check_reduction("copy across contexts", n, sd, sh, sh);
  PCALL(VecSwap(c, bd));
  PCALL(VecNorm(bd, NORM_1, &sd));
  check_reduction("swap across contexts", n, sd, sh, sh);
  PCALL(VecDestroy(&c));
  SbpmgTestDestroyPair(&ad, &ah);
  SbpmgTestDestroyPair(&bd, &bh);
}

static void test_memory_cap(void **state)
{
  SbpmgCL cl;
  Vec     v = NULL, w = NULL;

  SbpmgTestSetOption("-cl_mem_cap", "1");
  PCALL(SbpmgCLCreate(PETSC_COMM_SELF, &cl));
  SbpmgTestSetOption("-cl_mem_cap", NULL);
  PCALL(VecCreateSeqOpenCLWithContext(PETSC_COMM_SELF, cl, 70000, &v)); /* 560 kB */
  EXPECT_ERROR(VecCreateSeqOpenCLWithContext(PETSC_COMM_SELF, cl, 100000, &w), PETSC_ERR_MEM, "refused: -cl_mem_cap 1.000 MiB");
  EXPECT_ERROR(VecDuplicate(v, &w), PETSC_ERR_MEM, "refused: -cl_mem_cap 1.000 MiB"); /* 2 x 560 kB do not fit in 1 MiB ... */
  PCALL(VecDestroy(&v));
  PCALL(VecCreateSeqOpenCLWithContext(PETSC_COMM_SELF, cl, 100000, &w)); /* ... freed memory is available again */
  PCALL(VecDestroy(&w));
  PCALL(SbpmgCLDestroy(&cl));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_elementwise),
    cmocka_unit_test(test_elementwise_stay_on_device),
    cmocka_unit_test(test_reductions),
    cmocka_unit_test(test_reductions_reproducible),
    cmocka_unit_test(test_reduce_modes_bitwise),
    cmocka_unit_test(test_onepass_repeated),
    cmocka_unit_test(test_reduce_options),
    cmocka_unit_test(test_spin_sentinel_result),
    cmocka_unit_test(test_reduction_special_values),
    cmocka_unit_test(test_empty_vector),
    cmocka_unit_test(test_host_access_in_the_middle),
    cmocka_unit_test(test_device_accessors),
    cmocka_unit_test(test_type_selection),
    cmocka_unit_test(test_ops_table_covered),
    cmocka_unit_test(test_fallbacks),
    cmocka_unit_test(test_mixed_types),
    cmocka_unit_test(test_mixed_contexts),
    cmocka_unit_test(test_memory_cap),
};

SBPMG_TEST_MAIN(help, tests)
