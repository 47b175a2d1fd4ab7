/* VECMPIOPENCL against VECMPI, on 2 and 4 ranks: every device operation on random data of several global lengths and
   layouts (lengths below the number of ranks, empty local parts, uneven splits), reductions reproducible to the bit and
   equal on every rank, the offload state through host access, assembly, scatters and DMDA ghost exchanges, host
   fallbacks of the communicating operations, KSPCG with a device MatShell that moves no vector while it iterates, and
   the device chosen per rank.

   A check that fails on one rank only must not leave the other ranks waiting in the next collective: value checks go
   through all_ok(), which fails on every rank together. */
#include "harness.h"
#include <sbpmg/private/vecimpl.h>
#include <unistd.h>

static const char help[] = "Tests of sbpmg's parallel device vector VECMPIOPENCL (src/vec).\n";

#define EPS PETSC_MACHINE_EPSILON

/* global length and layout: 0 PETSC_DECIDE, 1 uneven (rank r gets a share ~ r + 1), 2 all on the last rank */
typedef struct {
  PetscInt N;
  int      kind;
} Case;
static const Case cases[] = {{1, 1}, {3, 1}, {7, 0}, {5, 2}, {1000, 1}, {100003, 1}};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* ---------------------------------------------------------------- helpers */

static PetscMPIInt rank_(void)
{
  PetscMPIInt r;
  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &r));
  return r;
}

static PetscMPIInt size_(void)
{
  PetscMPIInt s;
  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &s));
  return s;
}

/* Fail on every rank if the check failed on any (the failing rank says why). */
static void all_ok(int ok, const char *fmt, ...)
{
  char    msg[512] = "";
  int     allok;
  va_list ap;

  if (!ok) {
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
  }
  PCALL(MPI_Allreduce(&ok, &allok, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD));
  if (!allok) fail_msg("[%d] %s", (int)rank_(), ok ? "(failed on another rank)" : msg);
}

static PetscInt local_size(const Case *c)
{
  PetscMPIInt r = rank_(), p = size_();

  switch (c->kind) {
  case 0:
    return PETSC_DECIDE;
  case 1: { /* cumulative weights r(r+1)/2 */
    PetscInt64 W = (PetscInt64)p * (p + 1) / 2, lo = (PetscInt64)r * (r + 1) / 2, hi = (PetscInt64)(r + 1) * (r + 2) / 2;
    return (PetscInt)((c->N * hi) / W - (c->N * lo) / W);
  }
  default:
    return r == p - 1 ? c->N : 0;
  }
}

/* Fill the local part of v with entries [rstart, rend) of the global random sequence of length N (layout-independent). */
static void fill_random(Vec v, PetscInt N, unsigned long seed, PetscReal lo, PetscReal hi)
{
  PetscScalar *g, *a;
  PetscInt     rs, re;

  PCALL(PetscMalloc1(N, &g));
  SbpmgTestRandom(N, g, lo, hi, seed);
  PCALL(VecGetOwnershipRange(v, &rs, &re));
  PCALL(VecGetArrayWrite(v, &a));
  for (PetscInt i = rs; i < re; i++) a[i - rs] = g[i];
  PCALL(VecRestoreArrayWrite(v, &a));
  PCALL(PetscFree(g));
}

/* A device vector and an independent VECMPI with the same layout and values. */
static void make_pair(const Case *c, unsigned long seed, PetscReal lo, PetscReal hi, Vec *d, Vec *h)
{
  PetscBool is;

  PCALL(VecCreateOpenCL(PETSC_COMM_WORLD, local_size(c), c->N, d));
  PCALL(PetscObjectTypeCompare((PetscObject)*d, VECMPIOPENCL, &is));
  assert_true(is);
  PCALL(VecCreateMPI(PETSC_COMM_WORLD, local_size(c), c->N, h));
  fill_random(*d, c->N, seed, lo, hi);
  fill_random(*h, c->N, seed, lo, hi);
  PCALL(VecOpenCLSyncDevice(*d)); /* start from device-resident values, as inside a solver */
}

/* mask the same on every rank with a local part */
static void check_mask(const char *what, Vec v, PetscOffloadMask want)
{
  PetscOffloadMask m = SbpmgTestOffloadMask(v);
  all_ok(m == want, "%s: offload mask %d, expected %d", what, (int)m, (int)want);
}

/* Entry-wise comparison of the local parts: exact (bit for bit), or |d - h| <= ulps * eps * max(|h|, floor); and the
   global 1-norms (PETSc caches norms by object state: an operation that left the state alone would show here). */
static void check_values(const char *what, Vec d, Vec h, PetscReal ulps, PetscReal floor)
{
  const PetscScalar *a, *b;
  PetscReal          nd, nh;
  PetscInt           n, N, rs;
  int                ok       = 1;
  char               msg[256] = "";

  PCALL(VecGetSize(h, &N));
  PCALL(VecGetLocalSize(h, &n));
  PCALL(VecGetOwnershipRange(h, &rs, NULL));
  PCALL(VecNorm(d, NORM_1, &nd));
  PCALL(VecNorm(h, NORM_1, &nh));
  if (!(PetscAbsReal(nd - nh) <= 4 * PetscMax(N, 1) * EPS * nh + ulps * EPS * N * floor) && !(PetscIsNanReal(nd) && PetscIsNanReal(nh))) {
    ok = 0;
    snprintf(msg, sizeof(msg), "1-norm %.17g on the device, %.17g on the host", (double)nd, (double)nh);
  }
  PCALL(VecGetArrayRead(d, &a));
  PCALL(VecGetArrayRead(h, &b));
  for (PetscInt i = 0; i < n && ok; i++) {
    if (ulps == 0) {
      if (memcmp(&a[i], &b[i], sizeof(PetscScalar)) && !(PetscIsNanScalar(a[i]) && PetscIsNanScalar(b[i]))) {
        ok = 0;
        snprintf(msg, sizeof(msg), "entry %d is %.17g on the device, %.17g on the host (exact expected)", (int)(rs + i), (double)a[i], (double)b[i]);
      }
    } else {
      PetscReal err = PetscAbsScalar(a[i] - b[i]), tol = ulps * EPS * PetscMax(PetscAbsScalar(b[i]), floor);
      if (!(err <= tol)) {
        ok = 0;
        snprintf(msg, sizeof(msg), "entry %d is %.17g on the device, %.17g on the host (|diff| %.3e > %.3e)", (int)(rs + i), (double)a[i], (double)b[i], err,
                 tol);
      }
    }
  }
  PCALL(VecRestoreArrayRead(h, &b));
  PCALL(VecRestoreArrayRead(d, &a));
  all_ok(ok, "%s N=%d: %s", what, (int)N, msg);
}

/* Reduction result (the same on every rank): |d - h| <= 4 N eps scale */
static void check_reduction(const char *what, PetscInt N, PetscReal d, PetscReal h, PetscReal scale)
{
  PetscReal tol = 4.0 * (PetscReal)PetscMax(N, 1) * EPS * scale;
  all_ok(PetscAbsReal(d - h) <= tol, "%s N=%d: device %.17g host %.17g (|diff| %.3e > %.3e)", what, (int)N, (double)d, (double)h, (double)PetscAbsReal(d - h),
         (double)tol);
}

/* No whole-vector transfer between two snapshots (this rank): nothing sent, only scalars read back. */
typedef struct {
  SbpmgCLStats   cl;
  PetscLogDouble htod, dtoh; /* whole-vector syncs */
} Snap;

static void snap(Snap *s)
{
  PCALL(SbpmgCLGetGlobalStats(&s->cl));
  PCALL(VecOpenCLGetSyncCounts(&s->htod, &s->dtoh));
}

static void assert_no_vector_transfer(const char *what, const Snap *a, const Snap *b, int max_scalars_per_read)
{
  PetscLogDouble dcount = b->cl.dtoh_count - a->cl.dtoh_count, dbytes = b->cl.dtoh_bytes - a->cl.dtoh_bytes;
  int            ok       = 1;
  char           msg[256] = "";

  if (b->cl.htod_count != a->cl.htod_count) {
    ok = 0;
    snprintf(msg, sizeof(msg), "%g host->device transfers (%g bytes), expected none", b->cl.htod_count - a->cl.htod_count, b->cl.htod_bytes - a->cl.htod_bytes);
  } else if (b->htod != a->htod || b->dtoh != a->dtoh) {
    ok = 0;
    snprintf(msg, sizeof(msg), "%g + %g whole-vector copies, expected none", b->htod - a->htod, b->dtoh - a->dtoh);
  } else if (dbytes > dcount * max_scalars_per_read * sizeof(PetscScalar)) {
    ok = 0;
    snprintf(msg, sizeof(msg), "%g device->host transfers moved %g bytes: more than reduction results", dcount, dbytes);
  }
  all_ok(ok, "%s: %s", what, msg);
}

/* ---------------------------------------------------------------- the layout of PETSc's private data */

static PetscErrorCode (*saved_malloc)(size_t, PetscBool, int, const char[], const char[], void **);
static struct {
  void  *p;
  size_t n;
} allocs[256];
static int nallocs;

static PetscErrorCode recording_malloc(size_t n, PetscBool clear, int line, const char func[], const char file[], void **r)
{
  PetscErrorCode ierr = saved_malloc(n, clear, line, func, file, r);
  if (!ierr && nallocs < 256) {
    allocs[nallocs].p = *r;
    allocs[nallocs].n = n;
    nallocs++;
  }
  return ierr;
}

static size_t host_data_size(MPI_Comm comm, VecType type)
{
  Vec    v;
  size_t size = 0;

  PCALL(VecCreate(comm, &v));
  PCALL(VecSetSizes(v, 10, PETSC_DETERMINE));
  nallocs       = 0;
  saved_malloc  = PetscTrMalloc;
  PetscTrMalloc = recording_malloc;
  PCALL(VecSetType(v, type));
  PetscTrMalloc = saved_malloc;
  for (int i = 0; i < nallocs; i++)
    if (allocs[i].p == v->data) size = allocs[i].n;
  PCALL(VecDestroy(&v));
  return size;
}

/* The device vectors keep the host type's private data (Vec_Seq, Vec_MPI: not in PETSc's installed headers) at the start
   of theirs, in an area of VEC_CL_HOST_RESERVE bytes; VECMPI's functions (assembly, options, destroy) use all of it. */
static void test_host_data_fits(void **state)
{
  size_t seq = host_data_size(PETSC_COMM_SELF, VECSEQ), mpi = host_data_size(PETSC_COMM_WORLD, VECMPI);

  print_message("  host data allocated by VecCreate_Seq: %zu bytes, by VecCreate_MPI: %zu bytes (reserved: %d)\n", seq, mpi, VEC_CL_HOST_RESERVE);
  assert_true(seq > 3 * sizeof(void *) && seq <= VEC_CL_HOST_RESERVE);
  assert_true(mpi > 3 * sizeof(void *) && mpi <= VEC_CL_HOST_RESERVE);
  assert_int_equal(offsetof(Vec_OpenCL, array), 0);
  assert_true(offsetof(Vec_OpenCL, cl) >= VEC_CL_HOST_RESERVE);
}

/* ---------------------------------------------------------------- type plumbing */

static void test_type_selection(void **state)
{
  Vec         v, d, *vs, h;
  PetscBool   same;
  SbpmgCL     c1, c2;
  PetscMPIInt size = size_();
  cl_mem      m;

  assert_true(size >= 2);
  PCALL(SbpmgInitializePackage());
  PCALL(VecCreateOpenCL(PETSC_COMM_WORLD, PETSC_DECIDE, 100, &v));
  PCALL(PetscObjectTypeCompare((PetscObject)v, VECMPIOPENCL, &same));
  assert_true(same);
  PCALL(VecDuplicate(v, &d));
  PCALL(PetscObjectTypeCompare((PetscObject)d, VECMPIOPENCL, &same));
  assert_true(same);
  PCALL(VecOpenCLGetCL(v, &c1));
  PCALL(VecOpenCLGetCL(d, &c2));
  assert_ptr_equal(c1, c2);
  PCALL(VecOpenCLGetBufferRead(d, &m)); /* the local part's buffer */
  assert_non_null(m);
  PCALL(VecOpenCLRestoreBufferRead(d, &m));
  PCALL(VecDuplicateVecs(v, 3, &vs));
  for (int j = 0; j < 3; j++) {
    PCALL(PetscObjectTypeCompare((PetscObject)vs[j], VECMPIOPENCL, &same));
    assert_true(same);
  }
  PCALL(VecDestroyVecs(3, &vs));
  PCALL(VecDestroy(&d));
  PCALL(VecDestroy(&v));

  /* -vec_type opencl and mpiopencl in VecSetFromOptions() */
  for (int t = 0; t < 2; t++) {
    PCALL(VecCreate(PETSC_COMM_WORLD, &v));
    PCALL(VecSetSizes(v, 3, PETSC_DETERMINE));
    SbpmgTestSetOption("-vec_type", t ? "mpiopencl" : "opencl");
    PCALL(VecSetFromOptions(v));
    SbpmgTestSetOption("-vec_type", NULL);
    PCALL(PetscObjectTypeCompare((PetscObject)v, VECMPIOPENCL, &same));
    assert_true(same);
    PCALL(VecIsOpenCL(v, &same));
    assert_true(same);
    /* asking again for opencl (the name differs from mpiopencl): PETSc rebuilds the vector, which must work */
    PCALL(VecSetType(v, VECOPENCL));
    PCALL(PetscObjectTypeCompare((PetscObject)v, VECMPIOPENCL, &same));
    assert_true(same);
    PCALL(VecSet(v, 1));
    {
      PetscReal r;
      PCALL(VecNorm(v, NORM_1, &r));
      assert_true(r == 3 * size);
    }
    PCALL(VecDestroy(&v));
  }
  /* a VECMPIOPENCL on one rank is allowed (like VECMPI); VECOPENCL there is VECSEQOPENCL */
  PCALL(VecCreate(PETSC_COMM_SELF, &v));
  PCALL(VecSetSizes(v, 4, 4));
  PCALL(VecSetType(v, VECMPIOPENCL));
  PCALL(VecSet(v, 2));
  {
    PetscReal r;
    PCALL(VecNorm(v, NORM_1, &r));
    assert_true(r == 8);
  }
  PCALL(VecDestroy(&v));
  PCALL(VecCreateOpenCL(PETSC_COMM_SELF, PETSC_DECIDE, 4, &v));
  PCALL(PetscObjectTypeCompare((PetscObject)v, VECSEQOPENCL, &same));
  assert_true(same);
  PCALL(VecDestroy(&v));

  /* on a given context */
  PCALL(SbpmgCLGetDefault(&c1));
  PCALL(VecCreateOpenCLWithContext(PETSC_COMM_WORLD, c1, 2, PETSC_DETERMINE, &v));
  PCALL(PetscObjectTypeCompare((PetscObject)v, VECMPIOPENCL, &same));
  assert_true(same);
  PCALL(VecDestroy(&v));

  /* a sequential device vector on several ranks is an error, as for VECSEQ */
  v = NULL;
  EXPECT_ERROR(VecCreateSeqOpenCL(PETSC_COMM_WORLD, 10, &v), PETSC_ERR_ARG_WRONG, "VECSEQOPENCL is a sequential vector but its communicator has");
  assert_null(v);
  PCALL(VecCreate(PETSC_COMM_WORLD, &v));
  PCALL(VecSetSizes(v, PETSC_DECIDE, 10));
  EXPECT_ERROR(VecSetType(v, VECSEQOPENCL), PETSC_ERR_ARG_WRONG, "use VECOPENCL (VecCreateOpenCL()) or VECMPIOPENCL");
  PCALL(VecDestroy(&v));

  /* a VECMPI has no buffer */
  PCALL(VecCreateMPI(PETSC_COMM_WORLD, 2, PETSC_DETERMINE, &h));
  EXPECT_ERROR(VecOpenCLGetBufferRead(h, &m), PETSC_ERR_ARG_WRONG, "needs a device vector (type seqopencl or mpiopencl), but argument 1 has type mpi");
  PCALL(VecIsOpenCL(h, &same));
  assert_false(same);
  PCALL(VecDestroy(&h));
}

/* Every operation VECMPI has is VECMPIOPENCL's own (device or fallback) or data-free: none of VECMPI's would read a stale
   host mirror. */
static void test_ops_table_covered(void **state)
{
  Vec          host, dev;
  const size_t nops = sizeof(struct _VecOps) / sizeof(void (*)(void));
  void (**ho)(void), (**dop)(void);
  const size_t datafree[] = {offsetof(struct _VecOps, duplicatevecs), offsetof(struct _VecOps, destroyvecs), offsetof(struct _VecOps, getsize),
                             offsetof(struct _VecOps, getlocalsize), offsetof(struct _VecOps, setoption)};

  PCALL(VecCreateMPI(PETSC_COMM_WORLD, 3, PETSC_DETERMINE, &host));
  PCALL(VecCreateOpenCL(PETSC_COMM_WORLD, 3, PETSC_DETERMINE, &dev));
  ho  = (void (**)(void))host->ops;
  dop = (void (**)(void))dev->ops;
  for (size_t i = 0; i < nops; i++) {
    PetscBool free_ok = PETSC_FALSE;
    for (size_t j = 0; j < sizeof(datafree) / sizeof(datafree[0]); j++)
      if (datafree[j] == i * sizeof(void (*)(void))) free_ok = PETSC_TRUE;
    if (dop[i] && dop[i] == ho[i] && !free_ok) fail_msg("VecOps slot %d is VECMPI's own function: it needs a device version or a host fallback", (int)i);
    if (ho[i] && !dop[i]) fail_msg("VecOps slot %d is set for VECMPI but empty for VECMPIOPENCL", (int)i);
  }
  /* the global reductions are not the sequential type's */
  {
    Vec seq;
    PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, 3, &seq));
    assert_true(dev->ops->dot != seq->ops->dot && dev->ops->norm != seq->ops->norm && dev->ops->max != seq->ops->max);
    assert_true(dev->ops->dot_local == seq->ops->dot_local && dev->ops->norm_local == seq->ops->norm_local && dev->ops->axpy == seq->ops->axpy);
    PCALL(VecDestroy(&seq));
  }
  PCALL(VecDestroy(&host));
  PCALL(VecDestroy(&dev));
}

/* ---------------------------------------------------------------- element-wise operations */

static void test_elementwise(void **state)
{
  for (size_t t = 0; t < NCASES; t++) {
    const Case *c = &cases[t];
    PetscInt    N = c->N;
    Vec         xd, xh, yd, yh, zd, zh, wd, wh;

    make_pair(c, 11 + N, -1, 1, &xd, &xh);
    make_pair(c, 12 + N, -1, 1, &yd, &yh);
    make_pair(c, 13 + N, -1, 1, &zd, &zh);
    make_pair(c, 14 + N, -3, 5, &wd, &wh);

    PCALL(VecSet(wd, 2.5));
    PCALL(VecSet(wh, 2.5));
    check_mask("set", wd, PETSC_OFFLOAD_GPU);
    check_values("set", wd, wh, 0, 0);
    PCALL(VecZeroEntries(wd));
    PCALL(VecZeroEntries(wh));
    check_values("zero", wd, wh, 0, 0);
    PCALL(VecCopy(xd, wd));
    PCALL(VecCopy(xh, wh));
    check_values("copy", wd, wh, 0, 0);
    PCALL(VecScale(wd, -0.37));
    PCALL(VecScale(wh, -0.37));
    check_values("scale", wd, wh, 0, 0);
    PCALL(VecShift(wd, 0.25));
    PCALL(VecShift(wh, 0.25));
    check_values("shift", wd, wh, 0, 0);
    PCALL(VecSwap(wd, zd));
    PCALL(VecSwap(wh, zh));
    check_values("swap (first)", wd, wh, 0, 0);
    check_values("swap (second)", zd, zh, 0, 0);
    PCALL(VecAXPY(wd, 1.75, xd));
    PCALL(VecAXPY(wh, 1.75, xh));
    check_values("axpy", wd, wh, 4, 2);
    PCALL(VecAYPX(wd, -0.6, yd));
    PCALL(VecAYPX(wh, -0.6, yh));
    check_values("aypx", wd, wh, 4, 4);
    PCALL(VecAYPX(wd, 0.0, yd));
    PCALL(VecAYPX(wh, 0.0, yh));
    check_values("aypx alpha=0", wd, wh, 0, 0);
    PCALL(VecAXPBY(wd, 0.3, -1.1, xd));
    PCALL(VecAXPBY(wh, 0.3, -1.1, xh));
    check_values("axpby", wd, wh, 4, 2);
    PCALL(VecAXPBY(wd, 0.7, 0.0, xd));
    PCALL(VecAXPBY(wh, 0.7, 0.0, xh));
    check_values("axpby beta=0", wd, wh, 0, 0);
    PCALL(VecAXPBYPCZ(wd, 0.5, -2.0, 1.5, xd, yd));
    PCALL(VecAXPBYPCZ(wh, 0.5, -2.0, 1.5, xh, yh));
    check_values("axpbypcz", wd, wh, 6, 4);
    PCALL(VecAXPBYPCZ(wd, 0.5, -2.0, 0.0, xd, yd));
    PCALL(VecAXPBYPCZ(wh, 0.5, -2.0, 0.0, xh, yh));
    check_values("axpbypcz gamma=0", wd, wh, 4, 4);
    PCALL(VecWAXPY(wd, -0.8, xd, yd));
    PCALL(VecWAXPY(wh, -0.8, xh, yh));
    check_values("waxpy", wd, wh, 4, 2);
    PCALL(VecPointwiseMult(wd, xd, yd));
    PCALL(VecPointwiseMult(wh, xh, yh));
    check_values("pointwise mult", wd, wh, 0, 0);
    PCALL(VecPointwiseDivide(wd, xd, yd));
    PCALL(VecPointwiseDivide(wh, xh, yh));
    check_values("pointwise divide", wd, wh, 0, 0);
    PCALL(VecPointwiseMax(wd, xd, yd));
    PCALL(VecPointwiseMax(wh, xh, yh));
    check_values("pointwise max", wd, wh, 0, 0);
    PCALL(VecPointwiseMin(wd, xd, yd));
    PCALL(VecPointwiseMin(wh, xh, yh));
    check_values("pointwise min", wd, wh, 0, 0);
    PCALL(VecPointwiseMaxAbs(wd, xd, yd));
    PCALL(VecPointwiseMaxAbs(wh, xh, yh));
    check_values("pointwise maxabs", wd, wh, 0, 0);
    PCALL(VecCopy(xd, wd));
    PCALL(VecCopy(xh, wh));
    PCALL(VecReciprocal(wd));
    PCALL(VecReciprocal(wh));
    check_values("reciprocal", wd, wh, 0, 0);
    PCALL(VecAbs(wd));
    PCALL(VecAbs(wh));
    check_values("abs", wd, wh, 0, 0);
    PCALL(VecSqrtAbs(wd));
    PCALL(VecSqrtAbs(wh));
    check_values("sqrtabs", wd, wh, 0, 0);
    PCALL(VecLog(wd));
    PCALL(VecLog(wh));
    check_values("log", wd, wh, 4, 1);
    PCALL(VecExp(wd));
    PCALL(VecExp(wh));
    check_values("exp", wd, wh, 4, 0);
    {
      Vec         vd[11], vh[11];
      PetscScalar alpha[11];

      for (int j = 0; j < 11; j++) {
        make_pair(c, 100 + 7 * j + N, -1, 1, &vd[j], &vh[j]);
        alpha[j] = 0.1 * (j + 1) * (j % 2 ? -1 : 1);
      }
      PCALL(VecMAXPY(wd, 3, alpha, vd));
      PCALL(VecMAXPY(wh, 3, alpha, vh));
      check_values("maxpy 3", wd, wh, 8, 4);
      PCALL(VecMAXPY(wd, 11, alpha, vd));
      PCALL(VecMAXPY(wh, 11, alpha, vh));
      check_values("maxpy 11", wd, wh, 16, 8);
      for (int j = 0; j < 11; j++) SbpmgTestDestroyPair(&vd[j], &vh[j]);
    }
    SbpmgTestDestroyPair(&xd, &xh);
    SbpmgTestDestroyPair(&yd, &yh);
    SbpmgTestDestroyPair(&zd, &zh);
    SbpmgTestDestroyPair(&wd, &wh);
  }
}

/* Element-wise operations and reductions move no vector between host and device. */
static void test_stay_on_device(void **state)
{
  const Case  c = {1001, 1};
  Vec         x, y, w, v[3];
  PetscScalar alpha[3] = {1, 2, 3}, s, m[3];
  PetscReal   r, r2[2];
  PetscInt    loc;
  Snap        s0, s1;

  PCALL(VecCreateOpenCL(PETSC_COMM_WORLD, local_size(&c), c.N, &x));
  PCALL(VecDuplicate(x, &y));
  PCALL(VecDuplicate(x, &w));
  for (int j = 0; j < 3; j++) PCALL(VecDuplicate(x, &v[j]));
  snap(&s0);
  PCALL(VecSet(x, 1.5));
  PCALL(VecSet(y, -2));
  for (int j = 0; j < 3; j++) PCALL(VecSet(v[j], j));
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
  PCALL(VecDot(x, y, &s));
  PCALL(VecMDot(x, 3, v, m));
  PCALL(VecNorm(x, NORM_2, &r));
  PCALL(VecNorm(y, NORM_1_AND_2, r2));
  PCALL(VecNorm(y, NORM_INFINITY, &r));
  PCALL(VecSum(w, &s));
  PCALL(VecMax(w, &loc, &r));
  PCALL(VecMin(w, NULL, &r));
  PCALL(VecDotNorm2(x, y, &s, &m[0]));
  PCALL(VecMaxPointwiseDivide(x, y, &r));
  snap(&s1);
  assert_no_vector_transfer("vector operations", &s0, &s1, 2);
  check_mask("after device operations", w, PETSC_OFFLOAD_GPU);
  for (int j = 0; j < 3; j++) PCALL(VecDestroy(&v[j]));
  PCALL(VecDestroy(&x));
  PCALL(VecDestroy(&y));
  PCALL(VecDestroy(&w));
}

/* ---------------------------------------------------------------- reductions */

static void test_reductions(void **state)
{
  for (size_t t = 0; t < NCASES; t++) {
    const Case *c = &cases[t];
    PetscInt    N = c->N, id, ih;
    Vec         xd, xh, yd, yh, vd[11], vh[11];
    PetscScalar sd, sh, dd, dh, md[11], mh[11];
    PetscReal   rd, rh, r2d[2], r2h[2], scale = 0;

    make_pair(c, 21 + N, -1, 1, &xd, &xh);
    make_pair(c, 22 + N, -2, 3, &yd, &yh);
    for (int j = 0; j < 11; j++) make_pair(c, 200 + 3 * j + N, -1, 1, &vd[j], &vh[j]);
    {
      Vec p;
      PCALL(VecDuplicate(xh, &p));
      PCALL(VecPointwiseMult(p, xh, yh));
      PCALL(VecNorm(p, NORM_1, &scale));
      PCALL(VecDestroy(&p));
    }

    PCALL(VecDot(xd, yd, &sd));
    PCALL(VecDot(xh, yh, &sh));
    check_reduction("dot", N, sd, sh, scale);
    PCALL(VecTDot(xd, yd, &sd));
    PCALL(VecTDot(xh, yh, &sh));
    check_reduction("tdot", N, sd, sh, scale);
    PCALL(VecNorm(xd, NORM_1, &rd));
    PCALL(VecNorm(xh, NORM_1, &rh));
    check_reduction("norm 1", N, rd, rh, rh);
    PCALL(VecNorm(xd, NORM_2, &rd));
    PCALL(VecNorm(xh, NORM_2, &rh));
    check_reduction("norm 2", N, rd, rh, rh);
    PCALL(VecNorm(yd, NORM_FROBENIUS, &rd));
    PCALL(VecNorm(yh, NORM_FROBENIUS, &rh));
    check_reduction("norm frobenius", N, rd, rh, rh);
    PCALL(VecNorm(yd, NORM_INFINITY, &rd));
    PCALL(VecNorm(yh, NORM_INFINITY, &rh));
    all_ok(rd == rh, "norm infinity N=%d: %g vs %g", (int)N, rd, rh);
    PCALL(VecNorm(yd, NORM_1_AND_2, r2d));
    PCALL(VecNorm(yh, NORM_1_AND_2, r2h));
    check_reduction("norm 1 of 1_AND_2", N, r2d[0], r2h[0], r2h[0]);
    check_reduction("norm 2 of 1_AND_2", N, r2d[1], r2h[1], r2h[1]);
    PCALL(VecSum(yd, &sd));
    PCALL(VecSum(yh, &sh));
    check_reduction("sum", N, sd, sh, r2h[0]);

    PCALL(VecMax(yd, &id, &rd));
    PCALL(VecMax(yh, &ih, &rh));
    all_ok(rd == rh && id == ih, "max N=%d: %g at %d, host %g at %d", (int)N, rd, (int)id, rh, (int)ih);
    PCALL(VecMin(yd, &id, &rd));
    PCALL(VecMin(yh, &ih, &rh));
    all_ok(rd == rh && id == ih, "min N=%d: %g at %d, host %g at %d", (int)N, rd, (int)id, rh, (int)ih);
    PCALL(VecMax(xd, NULL, &rd));
    PCALL(VecMax(xh, NULL, &rh));
    all_ok(rd == rh, "max without index N=%d", (int)N);
    PCALL(VecMin(xd, NULL, &rd));
    PCALL(VecMin(xh, NULL, &rh));
    all_ok(rd == rh, "min without index N=%d", (int)N);

    PCALL(VecDotNorm2(xd, yd, &dd, &rd));
    PCALL(VecDotNorm2(xh, yh, &dh, &rh));
    check_reduction("dotnorm2 dot", N, dd, dh, scale);
    check_reduction("dotnorm2 norm", N, rd, rh, rh);
    PCALL(VecMaxPointwiseDivide(xd, yd, &rd));
    PCALL(VecMaxPointwiseDivide(xh, yh, &rh));
    all_ok(rd == rh, "maxpointwisedivide N=%d: %g vs %g", (int)N, rd, rh);

    /* split-phase reductions: PETSc reduces the local parts (dot_local, norm_local) itself */
    PCALL(VecDotBegin(xd, yd, &sd));
    PCALL(VecNormBegin(xd, NORM_2, &rd));
    PCALL(VecNormBegin(yd, NORM_1, &r2d[0]));
    PCALL(VecDotEnd(xd, yd, &sd));
    PCALL(VecNormEnd(xd, NORM_2, &rd));
    PCALL(VecNormEnd(yd, NORM_1, &r2d[0]));
    PCALL(VecDot(xh, yh, &sh));
    PCALL(VecNorm(xh, NORM_2, &rh));
    PCALL(VecNorm(yh, NORM_1, &r2h[0]));
    check_reduction("dot_local", N, sd, sh, scale);
    check_reduction("norm_local 2", N, rd, rh, rh);
    check_reduction("norm_local 1", N, r2d[0], r2h[0], r2h[0]);

    /* mdot: 3 vectors (one pass) and 11 (two passes), with x among them */
    PCALL(VecDestroy(&vd[4]));
    PCALL(VecDestroy(&vh[4]));
    vd[4] = xd;
    vh[4] = xh;
    PCALL(PetscObjectReference((PetscObject)xd));
    PCALL(PetscObjectReference((PetscObject)xh));
    SbpmgTestMDots(yd, yh, vd, vh, N, check_reduction, md, mh);
    PCALL(VecMDotBegin(yd, 11, vd, md));
    PCALL(VecMDotEnd(yd, 11, vd, md));
    for (int j = 0; j < 11; j++) check_reduction("mdot split-phase", N, md[j], mh[j], 3 * N);
    for (int j = 0; j < 11; j++) SbpmgTestDestroyPair(&vd[j], &vh[j]);
    SbpmgTestDestroyPair(&xd, &xh);
    SbpmgTestDestroyPair(&yd, &yh);
  }
}

/* Same values, same ranks: the same bits every time, and on every rank. */
static void test_reductions_reproducible(void **state)
{
  for (size_t t = 0; t < NCASES; t++) {
    const Case *c = &cases[t];
    PetscInt    N = c->N;
    Vec         xd, xh, yd, yh, x2, m[3];
    PetscScalar first[16], again[16], *all;
    PetscMPIInt size = size_();

    make_pair(c, 31 + N, -1, 1, &xd, &xh);
    make_pair(c, 32 + N, -1, 1, &yd, &yh);
    PCALL(VecDuplicate(xd, &x2));
    PCALL(VecCopy(xd, x2));
    m[0] = yd;
    m[1] = xd;
    m[2] = yd;
    for (int rep = 0; rep < 4; rep++) {
      Vec          x = rep < 3 ? xd : x2, y = yd;
      PetscScalar *r  = rep ? again : first;
      int          ok = 1, bad = -1;

      SbpmgTestReductions(x, y, m, r);
      if (rep)
        for (int i = 0; i < 14; i++)
          if (memcmp(&first[i], &again[i], sizeof(PetscScalar))) {
            ok  = 0;
            bad = i;
            break;
          }
      all_ok(ok, "N=%d repetition %d: reduction %d gave %.17g, first time %.17g", (int)N, rep, bad, bad >= 0 ? (double)again[bad] : 0.0,
             bad >= 0 ? (double)first[bad] : 0.0);
    }
    /* every rank holds the same bits */
    PCALL(PetscMalloc1(14 * size, &all));
    PCALL(MPI_Allgather(first, 14, MPIU_SCALAR, all, 14, MPIU_SCALAR, PETSC_COMM_WORLD));
    for (PetscMPIInt p = 1; p < size; p++) assert_memory_equal(all, all + 14 * p, 14 * sizeof(PetscScalar));
    PCALL(PetscFree(all));
    PCALL(VecDestroy(&x2));
    SbpmgTestDestroyPair(&xd, &xh);
    SbpmgTestDestroyPair(&yd, &yh);
  }
}

/* ---------------------------------------------------------------- offload state machine and host access */

static void test_host_access_in_the_middle(void **state)
{
  const Case   c = {1000, 1};
  Vec          v, w;
  PetscScalar *a, s;
  PetscReal    r;
  PetscInt     n, rs, re, loc;
  Snap         s0, s1;
  PetscMPIInt  rank = rank_(), size = size_();

  PCALL(VecCreateOpenCL(PETSC_COMM_WORLD, local_size(&c), c.N, &v));
  PCALL(VecDuplicate(v, &w));
  PCALL(VecGetLocalSize(v, &n));
  PCALL(VecGetOwnershipRange(v, &rs, &re));
  check_mask("new", v, PETSC_OFFLOAD_BOTH);
  PCALL(VecSet(v, 1));
  check_mask("set", v, PETSC_OFFLOAD_GPU);

  /* VecGetArray on each rank: the device values come to the host; a change there is seen by the next device operation */
  snap(&s0);
  PCALL(VecGetArray(v, &a));
  snap(&s1);
  all_ok(s1.cl.dtoh_count - s0.cl.dtoh_count == (n ? 1 : 0) && s1.cl.dtoh_bytes - s0.cl.dtoh_bytes == n * sizeof(PetscScalar), "VecGetArray: %g transfers",
         s1.cl.dtoh_count - s0.cl.dtoh_count);
  if (n) a[n - 1] = 7 + rank; /* the last local entry */
  PCALL(VecRestoreArray(v, &a));
  check_mask("after VecGetArray", v, PETSC_OFFLOAD_CPU);
  PCALL(VecNorm(v, NORM_INFINITY, &r)); /* uploads, reduces on the device, then over the ranks */
  assert_true(r == 7 + size - 1);
  check_mask("after a device read", v, PETSC_OFFLOAD_BOTH);
  PCALL(VecSum(v, &s));
  {
    PetscScalar want = c.N;
    for (PetscMPIInt p = 0; p < size; p++) want += 6 + p; /* every rank has a local entry in this layout */
    assert_true(s == want);
  }
  PCALL(VecMax(v, &loc, &r));
  {
    PetscInt last = re - 1, glast;
    PCALL(MPI_Allreduce(&last, &glast, 1, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD));
    assert_true(r == 7 + size - 1 && loc == glast);
  }

  /* assembly with nothing set anywhere: no transfer, the local parts stay on the device */
  PCALL(VecScale(v, 2));
  snap(&s0);
  PCALL(VecAssemblyBegin(v));
  PCALL(VecAssemblyEnd(v));
  snap(&s1);
  assert_no_vector_transfer("empty assembly", &s0, &s1, 0);
  all_ok(s1.cl.dtoh_count == s0.cl.dtoh_count, "empty assembly read from the device");
  check_mask("after an empty assembly", v, PETSC_OFFLOAD_GPU);

  /* VecSetValues to other ranks' entries + assembly (VECMPI's host code) is seen by the device; integers: exact sums */
  PCALL(VecSet(w, 1));
  {
    PetscInt    idx[3] = {(rs + n + 5) % c.N, (7 * rank + 3) % c.N, 0};
    PetscScalar val[3] = {100, 1000, 10000};
    PetscScalar want, got;

    PCALL(VecSetValues(w, 3, idx, val, ADD_VALUES));
    PCALL(VecAssemblyBegin(w));
    PCALL(VecAssemblyEnd(w));
    check_mask("after assembly with values", w, PETSC_OFFLOAD_CPU);
    PCALL(VecSum(w, &s));
    want = c.N + size * (100 + 1000 + 10000);
    assert_true(s == want);
    PCALL(VecMax(w, &loc, &r));
    assert_true(loc == 0 && r == 1 + 10000 * size);
    /* VecGetValues (local entries) after a device operation */
    PCALL(VecScale(w, 0.5));
    if (n) {
      PetscInt i0 = rs;
      PCALL(VecGetValues(w, 1, &i0, &got));
      all_ok(rank == 0 ? got == 0.5 * (1 + 10000 * size) : got >= 0.5, "VecGetValues: %g", got);
    } else
      all_ok(1, "");
  }

  /* VecGetArrayWrite: no transfer either way */
  snap(&s0);
  PCALL(VecGetArrayWrite(w, &a));
  for (PetscInt i = 0; i < n; i++) a[i] = -(rs + i);
  PCALL(VecRestoreArrayWrite(w, &a));
  snap(&s1);
  all_ok(s1.cl.dtoh_count == s0.cl.dtoh_count && s1.cl.htod_count == s0.cl.htod_count, "VecGetArrayWrite transferred");
  PCALL(VecMin(w, &loc, &r));
  assert_true(r == -(c.N - 1) && loc == c.N - 1);

  /* VecGetArrayRead: both valid, the next device read moves nothing */
  {
    const PetscScalar *ra;
    PCALL(VecGetArrayRead(w, &ra));
    PCALL(VecRestoreArrayRead(w, &ra));
    check_mask("after VecGetArrayRead", w, PETSC_OFFLOAD_BOTH);
    snap(&s0);
    PCALL(VecNorm(w, NORM_1, &r));
    snap(&s1);
    all_ok(s1.cl.htod_count == s0.cl.htod_count, "read after VecGetArrayRead uploaded");
    assert_true(r == (PetscReal)c.N * (c.N - 1) / 2);
  }
  PCALL(VecDestroy(&v));
  PCALL(VecDestroy(&w));
}

/* A user kernel on the local part through the device accessors. */
static const char *twice_src =
    "__kernel void twice(const int n, __global const SBPMG_REAL *x, __global SBPMG_REAL *y) { int i = get_global_id(0); if (i < n) y[i] = 2 * x[i]; }\n";

static void test_device_accessors(void **state)
{
  const Case c = {333, 1};
  Vec        v, w, h, wh;
  SbpmgCL    cl;
  cl_kernel  k;
  cl_mem     m, mw;
  PetscInt   n;
  int        ni;

  make_pair(&c, 5, -1, 1, &v, &h);
  PCALL(VecDuplicate(v, &w));
  PCALL(VecDuplicate(h, &wh));
  PCALL(VecGetLocalSize(v, &n));
  ni = (int)n;
  PCALL(VecOpenCLGetCL(v, &cl));
  PCALL(SbpmgCLGetKernelFromSource(cl, "test_vec_twice", twice_src, NULL, "twice", &k));
  PCALL(VecScale(w, 3));
  {
    PetscReal r;
    PCALL(VecNorm(w, NORM_1, &r)); /* cached by PETSc; the restore below must drop it */
  }
  PCALL(VecOpenCLGetBufferRead(v, &m));
  PCALL(VecOpenCLGetBufferWrite(w, &mw));
  PCALL(SbpmgCLSetArgs(k, 0, 3, sizeof(int), &ni, sizeof(cl_mem), &m, sizeof(cl_mem), &mw));
  PCALL(SbpmgCLLaunch1D(cl, k, n, 0));
  PCALL(VecOpenCLRestoreBufferWrite(w, &mw));
  PCALL(VecOpenCLRestoreBufferRead(v, &m));
  check_mask("after a write accessor", w, PETSC_OFFLOAD_GPU);
  PCALL(VecAXPBY(wh, 2, 0, h));
  check_values("user kernel on the local part", w, wh, 0, 0);
  PCALL(VecDestroy(&w));
  PCALL(VecDestroy(&wh));
  SbpmgTestDestroyPair(&v, &h);
}

/* ---------------------------------------------------------------- communication through the host */

/* VecScatter (PetscSF) reads and writes through VecGetArrayRead/VecGetArray: right values and masks. */
static void test_scatter(void **state)
{
  const Case  c = {1003, 1};
  Vec         xd, xh, yd, yh, ad, ah;
  IS          from, to;
  VecScatter  sd, sh;
  PetscInt    n, rs;
  PetscInt   *idx;
  PetscMPIInt size = size_();

  make_pair(&c, 41, -1, 1, &xd, &xh);
  make_pair(&c, 42, -1, 1, &yd, &yh);
  PCALL(VecScale(xd, 2)); /* device only */
  PCALL(VecScale(xh, 2));
  PCALL(VecGetLocalSize(xd, &n));
  PCALL(VecGetOwnershipRange(xd, &rs, NULL));
  /* y[N - 1 - i] = x[i]: almost everything crosses ranks */
  PCALL(PetscMalloc1(n, &idx));
  for (PetscInt i = 0; i < n; i++) idx[i] = c.N - 1 - (rs + i);
  PCALL(ISCreateStride(PETSC_COMM_WORLD, n, rs, 1, &from));
  PCALL(ISCreateGeneral(PETSC_COMM_WORLD, n, idx, PETSC_COPY_VALUES, &to));
  PCALL(PetscFree(idx));
  PCALL(VecScatterCreate(xd, from, yd, to, &sd));
  PCALL(VecScatterCreate(xh, from, yh, to, &sh));
  PCALL(VecScatterBegin(sd, xd, yd, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterEnd(sd, xd, yd, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterBegin(sh, xh, yh, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterEnd(sh, xh, yh, INSERT_VALUES, SCATTER_FORWARD));
  check_mask("scatter source", xd, PETSC_OFFLOAD_BOTH);
  check_mask("scatter target", yd, PETSC_OFFLOAD_CPU);
  check_values("scatter", yd, yh, 0, 0);
  PCALL(VecShift(yd, 1)); /* the next device operation sees the scattered values */
  PCALL(VecShift(yh, 1));
  check_values("device operation after scatter", yd, yh, 0, 0);
  /* reverse with ADD: the target of the reverse scatter (x) is read and written */
  PCALL(VecScatterBegin(sd, yd, xd, ADD_VALUES, SCATTER_REVERSE));
  PCALL(VecScatterEnd(sd, yd, xd, ADD_VALUES, SCATTER_REVERSE));
  PCALL(VecScatterBegin(sh, yh, xh, ADD_VALUES, SCATTER_REVERSE));
  PCALL(VecScatterEnd(sh, yh, xh, ADD_VALUES, SCATTER_REVERSE));
  check_values("reverse scatter add", xd, xh, 0, 0);
  PCALL(VecScatterDestroy(&sd));
  PCALL(VecScatterDestroy(&sh));
  PCALL(ISDestroy(&from));
  PCALL(ISDestroy(&to));

  /* to all: a sequential device vector on every rank */
  PCALL(VecScatterCreateToAll(xd, &sd, &ad));
  PCALL(VecScatterCreateToAll(xh, &sh, &ah));
  if (rank_() == 0) print_message("  VecScatterCreateToAll of a %s gives a %s\n", ((PetscObject)xd)->type_name, ((PetscObject)ad)->type_name);
  PCALL(VecScatterBegin(sd, xd, ad, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterEnd(sd, xd, ad, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterBegin(sh, xh, ah, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterEnd(sh, xh, ah, INSERT_VALUES, SCATTER_FORWARD));
  {
    const PetscScalar *p, *q;
    int                ok = 1;
    PCALL(VecGetArrayRead(ad, &p));
    PCALL(VecGetArrayRead(ah, &q));
    ok = !memcmp(p, q, c.N * sizeof(PetscScalar));
    PCALL(VecRestoreArrayRead(ah, &q));
    PCALL(VecRestoreArrayRead(ad, &p));
    all_ok(ok, "scatter to all on %d ranks", (int)size);
  }
  PCALL(VecScatterDestroy(&sd));
  PCALL(VecScatterDestroy(&sh));
  PCALL(VecDestroy(&ad));
  PCALL(VecDestroy(&ah));
  SbpmgTestDestroyPair(&xd, &xh);
  SbpmgTestDestroyPair(&yd, &yh);
}

/* DMDA global vectors of type opencl: the DMDA's layout, ghost exchange through the host, duplicates, view and load. */
static void test_dmda(void **state)
{
  DM          dad, dah;
  Vec         gd, gh, ld, lh, g2;
  PetscBool   is;
  PetscInt    nd, nh, rsd, rsh, xs, ys, xm, ym;
  PetscMPIInt rank = rank_(), pid;

  for (int k = 0; k < 2; k++) {
    DM *da = k ? &dad : &dah;
    PCALL(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_BOX, 13, 11, PETSC_DECIDE, PETSC_DECIDE, 2, 1, NULL, NULL, da));
    if (k) PCALL(DMSetVecType(*da, VECOPENCL));
    PCALL(DMSetUp(*da));
  }
  PCALL(DMCreateGlobalVector(dad, &gd));
  PCALL(DMCreateGlobalVector(dah, &gh));
  PCALL(PetscObjectTypeCompare((PetscObject)gd, VECMPIOPENCL, &is));
  assert_true(is);
  PCALL(VecGetLocalSize(gd, &nd));
  PCALL(VecGetLocalSize(gh, &nh));
  PCALL(VecGetOwnershipRange(gd, &rsd, NULL));
  PCALL(VecGetOwnershipRange(gh, &rsh, NULL));
  PCALL(DMDAGetCorners(dad, &xs, &ys, NULL, &xm, &ym, NULL));
  all_ok(nd == nh && rsd == rsh && nd == 2 * xm * ym, "DMDA layout: local %d (host %d, corners %d), start %d (host %d)", (int)nd, (int)nh, (int)(2 * xm * ym),
         (int)rsd, (int)rsh);
  {
    PetscInt bs;
    PCALL(VecGetBlockSize(gd, &bs));
    assert_int_equal(bs, 2);
  }

  /* values through DMDAVecGetArrayDOF (host), then a device operation */
  for (int k = 0; k < 2; k++) {
    PetscScalar ***a;
    DM             da = k ? dad : dah;
    Vec            g  = k ? gd : gh;
    PCALL(DMDAVecGetArrayDOF(da, g, &a));
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++)
        for (PetscInt c = 0; c < 2; c++) a[j][i][c] = PetscSinReal(0.3 * i + 0.7 * j) + c;
    PCALL(DMDAVecRestoreArrayDOF(da, g, &a));
    PCALL(VecScale(g, 2));
  }
  check_mask("DMDA vector after a device operation", gd, PETSC_OFFLOAD_GPU);
  check_values("DMDA global", gd, gh, 0, 0);

  /* ghost exchange: the local vector is a sequential device vector, filled through the host */
  PCALL(DMCreateLocalVector(dad, &ld));
  PCALL(DMCreateLocalVector(dah, &lh));
  PCALL(PetscObjectTypeCompare((PetscObject)ld, VECSEQOPENCL, &is));
  assert_true(is);
  PCALL(DMGlobalToLocalBegin(dad, gd, INSERT_VALUES, ld));
  PCALL(DMGlobalToLocalEnd(dad, gd, INSERT_VALUES, ld));
  PCALL(DMGlobalToLocalBegin(dah, gh, INSERT_VALUES, lh));
  PCALL(DMGlobalToLocalEnd(dah, gh, INSERT_VALUES, lh));
  check_mask("global vector after DMGlobalToLocal", gd, PETSC_OFFLOAD_BOTH);
  {
    const PetscScalar *p, *q;
    PetscInt           nl;
    int                ok;
    PCALL(VecGetLocalSize(lh, &nl));
    PCALL(VecGetArrayRead(ld, &p));
    PCALL(VecGetArrayRead(lh, &q));
    ok = !memcmp(p, q, nl * sizeof(PetscScalar));
    PCALL(VecRestoreArrayRead(lh, &q));
    PCALL(VecRestoreArrayRead(ld, &p));
    all_ok(ok, "DMGlobalToLocal: ghosted values differ");
  }
  /* a device operation on the local vector, added back */
  PCALL(VecShift(ld, 1));
  PCALL(VecShift(lh, 1));
  PCALL(DMLocalToGlobal(dad, ld, ADD_VALUES, gd));
  PCALL(DMLocalToGlobal(dah, lh, ADD_VALUES, gh));
  check_values("DMLocalToGlobal add", gd, gh, 0, 0);

  /* VecDuplicate of a DMDA vector (DMDA's duplicate: DMCreateGlobalVector again) */
  PCALL(VecDuplicate(gd, &g2));
  PCALL(PetscObjectTypeCompare((PetscObject)g2, VECMPIOPENCL, &is));
  assert_true(is);
  PCALL(VecDestroy(&g2));
  PCALL(DMGetGlobalVector(dad, &g2));
  PCALL(PetscObjectTypeCompare((PetscObject)g2, VECMPIOPENCL, &is));
  assert_true(is);
  PCALL(DMRestoreGlobalVector(dad, &g2));

  /* binary view (natural ordering, through a scatter) and load back */
  {
    char        path[PETSC_MAX_PATH_LEN], info[PETSC_MAX_PATH_LEN + 8];
    PetscViewer vw;
    PetscReal   r;

    pid = (PetscMPIInt)getpid();
    PCALL(MPI_Bcast(&pid, 1, MPI_INT, 0, PETSC_COMM_WORLD));
    PCALL(PetscSNPrintf(path, sizeof(path), "/tmp/sbpmg-test-vec-mpi-%d.bin", (int)pid));
    PCALL(PetscSNPrintf(info, sizeof(info), "%s.info", path));
    PCALL(VecScale(gd, -1)); /* device only */
    PCALL(PetscViewerBinaryOpen(PETSC_COMM_WORLD, path, FILE_MODE_WRITE, &vw));
    PCALL(VecView(gd, vw));
    PCALL(PetscViewerDestroy(&vw));
    PCALL(DMCreateGlobalVector(dad, &g2));
    PCALL(PetscViewerBinaryOpen(PETSC_COMM_WORLD, path, FILE_MODE_READ, &vw));
    PCALL(VecLoad(g2, vw));
    PCALL(PetscViewerDestroy(&vw));
    PCALL(VecAXPY(g2, -1, gd));
    PCALL(VecNorm(g2, NORM_INFINITY, &r));
    assert_true(r == 0);
    PCALL(VecDestroy(&g2));
    PCALL(MPI_Barrier(PETSC_COMM_WORLD));
    if (rank == 0) {
      (void)unlink(path);
      (void)unlink(info);
    }
  }
  PCALL(VecDestroy(&ld));
  PCALL(VecDestroy(&lh));
  PCALL(VecDestroy(&gd));
  PCALL(VecDestroy(&gh));
  PCALL(DMDestroy(&dad));
  PCALL(DMDestroy(&dah));
}

/* Host fallbacks of operations that communicate or have no device version. */
static void test_fallbacks(void **state)
{
  const Case  c = {600, 1};
  Vec         xd, xh, yd, yh;
  PetscInt    n, rs, re;
  PetscMPIInt rank = rank_(), size = size_();

  make_pair(&c, 51, -1, 1, &xd, &xh);
  make_pair(&c, 52, -1, 1, &yd, &yh);
  PCALL(VecGetLocalSize(xd, &n));
  PCALL(VecGetOwnershipRange(xd, &rs, &re));

  /* subvectors: locally contiguous (device copies) and a general index set reaching other ranks' entries (scatter) */
  {
    IS       cis, gis;
    Vec      zd, zh;
    PetscInt m = n / 2, *idx;

    PCALL(ISCreateStride(PETSC_COMM_WORLD, m, rs + (n - m), 1, &cis)); /* the upper half of each rank's entries */
    PCALL(VecScale(yd, 3));
    PCALL(VecScale(yh, 3));
    PCALL(VecGetSubVector(yd, cis, &zd));
    PCALL(VecGetSubVector(yh, cis, &zh));
    {
      PetscBool is;
      PCALL(PetscObjectTypeCompare((PetscObject)zd, VECMPIOPENCL, &is));
      assert_true(is);
    }
    check_values("contiguous subvector", zd, zh, 0, 0);
    PCALL(VecScale(zd, -1));
    PCALL(VecScale(zh, -1));
    PCALL(VecRestoreSubVector(yd, cis, &zd));
    PCALL(VecRestoreSubVector(yh, cis, &zh));
    check_mask("parent after a contiguous subvector", yd, PETSC_OFFLOAD_GPU);
    check_values("after contiguous subvector", yd, yh, 0, 0);
    /* every third entry of the next rank's part */
    {
      PetscInt        nr, rsr;
      const PetscInt *ranges;
      PCALL(VecGetOwnershipRanges(yd, &ranges));
      rsr = ranges[(rank + 1) % size];
      nr  = ranges[(rank + 1) % size + 1] - rsr;
      m   = (nr + 2) / 3;
      PCALL(PetscMalloc1(m, &idx));
      for (PetscInt i = 0; i < m; i++) idx[i] = rsr + 3 * i;
      PCALL(ISCreateGeneral(PETSC_COMM_WORLD, m, idx, PETSC_OWN_POINTER, &gis));
    }
    PCALL(VecGetSubVector(yd, gis, &zd));
    PCALL(VecGetSubVector(yh, gis, &zh));
    check_values("general subvector", zd, zh, 0, 0);
    PCALL(VecShift(zd, 10));
    PCALL(VecShift(zh, 10));
    PCALL(VecRestoreSubVector(yd, gis, &zd));
    PCALL(VecRestoreSubVector(yh, gis, &zh));
    check_values("after general subvector", yd, yh, 0, 0);
    PCALL(VecGetSubVector(yd, gis, &zd)); /* read only: nothing written back */
    PCALL(VecRestoreSubVector(yd, gis, &zd));
    check_values("after unchanged subvector", yd, yh, 0, 0);
    PCALL(ISDestroy(&cis));
    PCALL(ISDestroy(&gis));
  }

  /* strided gather/scatter with block size 3 (local operations through the host) */
  {
    Vec      sd, sh;
    Case     c3  = {c.N, 1};
    PetscInt nl3 = 3 * ((local_size(&c3) + 2) / 3), N3;
    Vec      bd, bh;

    PCALL(MPI_Allreduce(&nl3, &N3, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    PCALL(VecCreateOpenCL(PETSC_COMM_WORLD, nl3, N3, &bd));
    PCALL(VecCreateMPI(PETSC_COMM_WORLD, nl3, N3, &bh));
    PCALL(VecSetBlockSize(bd, 3));
    PCALL(VecSetBlockSize(bh, 3));
    fill_random(bd, N3, 9, -1, 1);
    fill_random(bh, N3, 9, -1, 1);
    PCALL(VecScale(bd, 2));
    PCALL(VecScale(bh, 2));
    PCALL(VecCreateOpenCL(PETSC_COMM_WORLD, nl3 / 3, N3 / 3, &sd));
    PCALL(VecCreateMPI(PETSC_COMM_WORLD, nl3 / 3, N3 / 3, &sh));
    PCALL(VecSet(sd, 1));
    PCALL(VecSet(sh, 1));
    PCALL(VecStrideGather(bd, 1, sd, ADD_VALUES));
    PCALL(VecStrideGather(bh, 1, sh, ADD_VALUES));
    check_values("stride gather", sd, sh, 0, 0);
    PCALL(VecScale(sd, -4));
    PCALL(VecScale(sh, -4));
    PCALL(VecStrideScatter(sd, 2, bd, INSERT_VALUES));
    PCALL(VecStrideScatter(sh, 2, bh, INSERT_VALUES));
    check_values("stride scatter", bd, bh, 0, 0);
    PCALL(VecDestroy(&sd));
    PCALL(VecDestroy(&sh));
    PCALL(VecDestroy(&bd));
    PCALL(VecDestroy(&bh));
  }

  /* COO assembly with entries of other ranks (VECMPI's PetscSF-based code); integer values: exact sums */
  {
    PetscInt    ci[4] = {rs, (re + 3) % c.N, (rank * 37) % c.N, c.N - 1};
    PetscScalar cv[4] = {1, 2, 3, 4};
    PCALL(VecSetPreallocationCOO(xd, 4, ci));
    PCALL(VecSetPreallocationCOO(xh, 4, ci));
    PCALL(VecScale(xd, 2));
    PCALL(VecScale(xh, 2));
    PCALL(VecSetValuesCOO(xd, cv, ADD_VALUES));
    PCALL(VecSetValuesCOO(xh, cv, ADD_VALUES));
    check_values("COO add", xd, xh, 0, 0);
    PCALL(VecSetValuesCOO(xd, cv, INSERT_VALUES));
    PCALL(VecSetValuesCOO(xh, cv, INSERT_VALUES));
    check_values("COO insert", xd, xh, 0, 0);
  }

  /* random values, place/reset on the local part */
  {
    PetscRandom  r;
    PetscScalar *user;
    PetscInt     ok = 1;

    for (int k = 0; k < 2; k++) {
      PCALL(PetscRandomCreate(PETSC_COMM_WORLD, &r));
      PCALL(PetscRandomSetSeed(r, 77));
      PCALL(PetscRandomSeed(r));
      PCALL(VecSetRandom(k ? yh : yd, r));
      PCALL(PetscRandomDestroy(&r));
    }
    PCALL(VecScale(yd, 5));
    PCALL(VecScale(yh, 5));
    check_values("set random", yd, yh, 0, 0);
    PCALL(PetscMalloc1(n, &user));
    for (PetscInt i = 0; i < n; i++) user[i] = rs + i;
    PCALL(VecPlaceArray(yd, user));
    PCALL(VecScale(yd, 2)); /* device operation on the placed values */
    PCALL(VecResetArray(yd));
    for (PetscInt i = 0; i < n; i++) ok = ok && user[i] == 2.0 * (rs + i);
    all_ok((int)ok, "place/reset: the placed array does not hold the device result");
    check_values("after reset", yd, yh, 0, 0);
    PCALL(PetscFree(user));
  }

  /* mixed with VECMPI: the device vector falls back to the host where the other vector lives there */
  {
    PetscScalar sd, sh;
    PCALL(VecAXPY(yd, 2, xh)); /* device += host */
    PCALL(VecAXPY(yh, 2, xh));
    check_values("axpy(dev, host)", yd, yh, 4, 2);
    PCALL(VecDot(yd, xh, &sd));
    PCALL(VecDot(yh, xh, &sh));
    check_reduction("dot(dev, host)", c.N, sd, sh, 10 * c.N);
    PCALL(VecCopy(yd, xh)); /* device -> host vector */
    PCALL(VecCopy(yh, xd)); /* host -> device vector */
    check_mask("copy from a host vector", xd, PETSC_OFFLOAD_CPU);
    check_values("copies between the types", xd, xh, 0, 0);
  }

  /* the local part as a sequential vector: VecGetLocalVector gives the values, changes come back */
  {
    Vec l;
    PCALL(VecCreateLocalVector(yd, &l));
    PCALL(VecGetLocalVector(yd, l));
    PCALL(VecScale(l, 0.5));
    PCALL(VecRestoreLocalVector(yd, l));
    PCALL(VecScale(yh, 0.5));
    check_values("local vector", yd, yh, 0, 0);
    PCALL(VecDestroy(&l));
  }

  /* ASCII view of a device-only vector shows the device values (VECMPI's view gathers on rank 0) */
  {
    Vec v;
    PCALL(VecCreateOpenCL(PETSC_COMM_WORLD, PETSC_DECIDE, 6, &v));
    PCALL(VecSet(v, 1.25));
    PCALL(VecView(v, PETSC_VIEWER_STDOUT_WORLD));
    PCALL(VecDestroy(&v));
  }

  /* binary view and load of a plain (non-DM) device vector, loaded into another layout */
  {
    char        path[PETSC_MAX_PATH_LEN], info[PETSC_MAX_PATH_LEN + 8];
    PetscViewer vw;
    PetscMPIInt pid = (PetscMPIInt)getpid();
    Vec         l;
    PetscReal   r;

    PCALL(MPI_Bcast(&pid, 1, MPI_INT, 0, PETSC_COMM_WORLD));
    PCALL(PetscSNPrintf(path, sizeof(path), "/tmp/sbpmg-test-vec-mpi-plain-%d.bin", (int)pid));
    PCALL(PetscSNPrintf(info, sizeof(info), "%s.info", path));
    PCALL(VecShift(yd, 1)); /* device only */
    PCALL(VecShift(yh, 1));
    PCALL(PetscViewerBinaryOpen(PETSC_COMM_WORLD, path, FILE_MODE_WRITE, &vw));
    PCALL(VecView(yd, vw));
    PCALL(PetscViewerDestroy(&vw));
    PCALL(VecCreateOpenCL(PETSC_COMM_WORLD, PETSC_DECIDE, c.N, &l)); /* an even layout this time */
    PCALL(PetscViewerBinaryOpen(PETSC_COMM_WORLD, path, FILE_MODE_READ, &vw));
    PCALL(VecLoad(l, vw));
    PCALL(PetscViewerDestroy(&vw));
    check_mask("loaded", l, PETSC_OFFLOAD_CPU);
    PCALL(VecNorm(l, NORM_1, &r));
    {
      PetscReal rh;
      PCALL(VecNorm(yh, NORM_1, &rh));
      check_reduction("binary view and load", c.N, r, rh, rh);
    }
    PCALL(VecDestroy(&l));
    PCALL(MPI_Barrier(PETSC_COMM_WORLD));
    if (rank == 0) {
      (void)unlink(path);
      (void)unlink(info);
    }
  }

  /* repeated assembly of off-process values with VEC_SUBSET_OFF_PROC_ENTRIES (VECMPI keeps its communication pattern
     in its private data, inside the area reserved at the start of ours), device operations in between */
  for (int k = 0; k < 2; k++) {
    Vec v = k ? yh : yd;
    PCALL(VecSetOption(v, VEC_SUBSET_OFF_PROC_ENTRIES, PETSC_TRUE));
  }
  for (int round = 0; round < 3; round++) {
    PetscInt    idx[2] = {(re + 2 * round) % c.N, (rank * 11 + round) % c.N};
    PetscScalar val[2] = {(PetscScalar)(round + 1), 10};
    for (int k = 0; k < 2; k++) {
      Vec v = k ? yh : yd;
      PCALL(VecScale(v, 2));
      PCALL(VecSetValues(v, round == 2 ? 1 : 2, idx, val, ADD_VALUES)); /* a subset the last time */
      PCALL(VecAssemblyBegin(v));
      PCALL(VecAssemblyEnd(v));
    }
    check_values("subset assembly", yd, yh, 0, 0);
  }

  /* -vec_assembly_legacy replaces VECMPI's assembly; ours stays in front */
  {
    Vec         v;
    PetscScalar s, one = 1;
    PetscInt    i0 = 0;
    PCALL(VecCreate(PETSC_COMM_WORLD, &v));
    PCALL(VecSetSizes(v, PETSC_DECIDE, 10));
    PCALL(VecSetType(v, VECMPIOPENCL));
    SbpmgTestSetOption("-vec_assembly_legacy", "1");
    PCALL(VecSetFromOptions(v));
    SbpmgTestSetOption("-vec_assembly_legacy", NULL);
    PCALL(VecSet(v, 2));
    PCALL(VecSetValues(v, 1, &i0, &one, ADD_VALUES));
    PCALL(VecAssemblyBegin(v));
    PCALL(VecAssemblyEnd(v));
    PCALL(VecSum(v, &s));
    assert_true(s == 20 + size);
    PCALL(VecDestroy(&v));
  }
  SbpmgTestDestroyPair(&xd, &xh);
  SbpmgTestDestroyPair(&yd, &yh);
}

/* ---------------------------------------------------------------- KSPCG with a device MatShell */

/* y = A x, A = tridiag(-1, 2, -1): the local part on the device, the two neighbouring values passed in as arguments */
static const char *lap_src =
    "__kernel void lap1d(const int n, const SBPMG_REAL left, const SBPMG_REAL right, __global const SBPMG_REAL *x, __global SBPMG_REAL *y)\n"
    "{\n"
    "  const int i = get_global_id(0);\n"
    "  if (i >= n) return;\n"
    "  y[i] = 2 * x[i] - (i > 0 ? x[i - 1] : left) - (i < n - 1 ? x[i + 1] : right);\n"
    "}\n";

typedef struct {
  SbpmgCL   cl;
  cl_kernel k;
} LapCtx;

/* left: the last entry of the rank below, right: the first entry of the rank above (0 outside [0, N)); every rank has
   at least one entry in this test */
static PetscErrorCode Halo(Vec x, PetscScalar first, PetscScalar last, PetscScalar *left, PetscScalar *right)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)x);
  PetscMPIInt rank, size, lo, hi;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  lo     = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  hi     = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  *left  = 0;
  *right = 0;
  PetscCallMPI(MPI_Sendrecv(&last, 1, MPIU_SCALAR, hi, 1, left, 1, MPIU_SCALAR, lo, 1, comm, MPI_STATUS_IGNORE));
  PetscCallMPI(MPI_Sendrecv(&first, 1, MPIU_SCALAR, lo, 2, right, 1, MPIU_SCALAR, hi, 2, comm, MPI_STATUS_IGNORE));
  PetscFunctionReturn(0);
}

static PetscErrorCode LapMultDevice(Mat A, Vec x, Vec y)
{
  LapCtx     *ctx;
  cl_mem      xb, yb;
  PetscInt    n;
  int         ni;
  PetscScalar ends[2], left, right;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(VecGetLocalSize(x, &n));
  ni = (int)n;
  PetscCall(VecOpenCLGetBufferRead(x, &xb));
  /* the two end values only: two reads of one scalar each */
  PetscCall(SbpmgCLReadBuffer(ctx->cl, xb, 0, sizeof(PetscScalar), &ends[0]));
  PetscCall(SbpmgCLReadBuffer(ctx->cl, xb, (size_t)(n - 1) * sizeof(PetscScalar), sizeof(PetscScalar), &ends[1]));
  PetscCall(Halo(x, ends[0], ends[1], &left, &right));
  PetscCall(VecOpenCLGetBufferWrite(y, &yb));
  PetscCall(SbpmgCLSetArgs(ctx->k, 0, 5, sizeof(int), &ni, sizeof(PetscScalar), &left, sizeof(PetscScalar), &right, sizeof(cl_mem), &xb, sizeof(cl_mem), &yb));
  PetscCall(SbpmgCLLaunch1D(ctx->cl, ctx->k, (size_t)n, 64));
  PetscCall(VecOpenCLRestoreBufferWrite(y, &yb));
  PetscCall(VecOpenCLRestoreBufferRead(x, &xb));
  PetscFunctionReturn(0);
}

static PetscErrorCode LapMultHost(Mat A, Vec x, Vec y)
{
  const PetscScalar *a;
  PetscScalar       *b, left, right;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(Halo(x, a[0], a[n - 1], &left, &right));
  PetscCall(VecGetArrayWrite(y, &b));
  for (PetscInt i = 0; i < n; i++) b[i] = 2 * a[i] - (i > 0 ? a[i - 1] : left) - (i < n - 1 ? a[i + 1] : right);
  PetscCall(VecRestoreArrayWrite(y, &b));
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscFunctionReturn(0);
}

typedef struct {
  PetscInt           its, nhist;
  KSPConvergedReason reason;
  PetscReal          hist[1000];
  Snap               before, after;
  Vec                x; /* the solution, as a VECMPI */
} SolveResult;

static void solve(const Case *c, PetscBool device, SolveResult *r)
{
  LapCtx   ctx = {NULL, NULL};
  Mat      A;
  Vec      b, x;
  KSP      ksp;
  PC       pc;
  PetscInt nl = local_size(c);

  if (device) {
    PCALL(SbpmgCLGetDefault(&ctx.cl));
    PCALL(SbpmgCLGetKernelFromSource(ctx.cl, "test_vec_lap1d", lap_src, NULL, "lap1d", &ctx.k));
  }
  PCALL(MatCreateShell(PETSC_COMM_WORLD, nl, nl, c->N, c->N, &ctx, &A));
  PCALL(MatShellSetOperation(A, MATOP_MULT, (void (*)(void))(device ? LapMultDevice : LapMultHost)));
  PCALL(MatShellSetVecType(A, device ? VECOPENCL : VECMPI));
  PCALL(MatCreateVecs(A, &x, &b));
  {
    PetscBool is;
    PCALL(PetscObjectTypeCompare((PetscObject)b, device ? VECMPIOPENCL : VECMPI, &is));
    assert_true(is);
  }
  fill_random(b, c->N, 2024, -1, 1);
  PCALL(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PCALL(KSPSetOperators(ksp, A, A));
  PCALL(KSPSetType(ksp, KSPCG));
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCSetType(pc, PCNONE));
  PCALL(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PCALL(KSPSetResidualHistory(ksp, r->hist, 1000, PETSC_TRUE));
  PCALL(KSPSetUp(ksp));
  PCALL(VecOpenCLSyncDevice(b)); /* the right-hand side starts on the device (no-op for VECMPI) */
  snap(&r->before);
  PCALL(KSPSolve(ksp, b, x));
  snap(&r->after);
  PCALL(KSPGetIterationNumber(ksp, &r->its));
  PCALL(KSPGetConvergedReason(ksp, &r->reason));
  PCALL(KSPGetResidualHistory(ksp, NULL, &r->nhist));
  PCALL(VecCreateMPI(PETSC_COMM_WORLD, nl, c->N, &r->x));
  PCALL(VecCopy(x, r->x));
  PCALL(KSPDestroy(&ksp));
  PCALL(VecDestroy(&x));
  PCALL(VecDestroy(&b));
  PCALL(MatDestroy(&A));
}

static void test_cg_matches_host(void **state)
{
  const Case  c = {150, 1};
  SolveResult d, h;
  PetscReal   dx, xmax;
  int         ok = 1;

  solve(&c, PETSC_TRUE, &d);
  solve(&c, PETSC_FALSE, &h);
  print_message("  N = %d: device %d iterations (reason %d), host %d iterations (reason %d)\n", (int)c.N, (int)d.its, (int)d.reason, (int)h.its, (int)h.reason);
  assert_true(h.reason > 0);
  assert_int_equal(d.reason, h.reason);
  assert_int_equal(d.its, h.its);
  assert_int_equal(d.nhist, h.nhist);
  for (PetscInt i = 0; i < h.nhist; i++)
    if (PetscAbsReal(d.hist[i] - h.hist[i]) > 1e-9 * h.hist[0])
      fail_msg("residual history differs at iteration %d: device %.17g host %.17g", (int)i, d.hist[i], h.hist[i]);
  PCALL(VecNorm(h.x, NORM_INFINITY, &xmax));
  PCALL(VecAXPY(d.x, -1, h.x));
  PCALL(VecNorm(d.x, NORM_INFINITY, &dx));
  print_message("  max |x_device - x_host| = %.3e (max |x| = %.3e)\n", (double)dx, (double)xmax);
  assert_true(dx <= 1e-8 * xmax);
  /* while iterating: nothing sent to the device, no whole-vector copy, only scalars read back (halo ends, reductions) */
  {
    PetscLogDouble htod = d.after.cl.htod_count - d.before.cl.htod_count, dcount = d.after.cl.dtoh_count - d.before.cl.dtoh_count,
                   dbytes = d.after.cl.dtoh_bytes - d.before.cl.dtoh_bytes;
    print_message("  [%d] transfers during KSPSolve: %g to the device, %g back (%g bytes)\n", (int)rank_(), htod, dcount, dbytes);
    ok = htod == 0 && d.after.htod == d.before.htod && d.after.dtoh == d.before.dtoh && dcount > 3 * d.its && dbytes == dcount * sizeof(PetscScalar);
    all_ok(ok, "KSPSolve moved vectors: %g to the device, %g + %g whole-vector syncs, %g reads of %g bytes", htod, d.after.htod - d.before.htod,
           d.after.dtoh - d.before.dtoh, dcount, dbytes);
  }
  PCALL(VecDestroy(&d.x));
  PCALL(VecDestroy(&h.x));
}

/* ---------------------------------------------------------------- device selection per rank */

/* Every rank reports the device it took under -cl_view (PetscSynchronizedPrintf, gathered on rank 0). PoCL has one
   device: rank r takes device r mod 1 = 0. */
static void test_device_per_rank(void **state)
{
  PetscMPIInt rank = rank_(), size = size_();
  PetscViewer vw;

  PCALL(PetscViewerASCIIGetStdout(PETSC_COMM_WORLD, &vw)); /* created now, on the real stdout, before PETSC_STDOUT is swapped */
  for (int mode = 0; mode < 3; mode++) {
    SbpmgCL cl;
    FILE   *saved = PETSC_STDOUT, *tmp = NULL;
    char    text[8192] = "";
    int     ndev;

    if (rank == 0) {
      tmp = tmpfile();
      assert_non_null(tmp);
      PETSC_STDOUT = tmp;
    }
    SbpmgTestSetOption("-cl_view", "1");
    if (mode == 1) SbpmgTestSetOption("-cl_device", "0");
    if (mode == 2) SbpmgTestSetOption("-cl_device_per_rank", "0");
    PCALL(SbpmgCLCreate(PETSC_COMM_WORLD, &cl));
    SbpmgTestSetOption("-cl_view", NULL);
    SbpmgTestSetOption("-cl_device", NULL);
    SbpmgTestSetOption("-cl_device_per_rank", NULL);
    PETSC_STDOUT = saved;
    ndev         = (int)cl->ndev; /* devices of the chosen kind: rank r takes r mod ndev by default */
    assert_int_equal(cl->device_index, mode == 0 ? rank % ndev : 0);
    if (rank == 0) {
      size_t len;
      rewind(tmp);
      len       = fread(text, 1, sizeof(text) - 1, tmp);
      text[len] = 0;
      fclose(tmp);
      for (PetscMPIInt p = 0; p < size; p++) {
        char want[512];
        if (mode == 0)
          snprintf(want, sizeof(want), "[%d] sbpmg OpenCL device %d of %d: %s (node-local rank %d of %d, one device per node-local rank)", p, p % ndev, ndev,
                   cl->device_name, p, size);
        else
          snprintf(want, sizeof(want), "[%d] sbpmg OpenCL device 0 of %d: %s (node-local rank 0 of 1, %s)", p, ndev, cl->device_name,
                   mode == 1 ? "-cl_device" : "-cl_device_per_rank false");
        if (!strstr(text, want)) fail_msg("-cl_view output lacks \"%s\":\n%s", want, text);
      }
    }
    PCALL(SbpmgCLDestroy(&cl)); /* prints each rank's transfer counters */
  }
}

/* Sequential device vectors on each rank still work alongside. */
static void test_sequential_per_rank(void **state)
{
  Vec         v;
  PetscMPIInt rank = rank_();
  PetscReal   nrm;

  PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, 10 + rank, &v));
  PCALL(VecSet(v, 1 + rank));
  PCALL(VecNorm(v, NORM_1, &nrm));
  assert_true(nrm == (PetscReal)(10 + rank) * (1 + rank));
  PCALL(VecDestroy(&v));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_host_data_fits),
    cmocka_unit_test(test_type_selection),
    cmocka_unit_test(test_ops_table_covered),
    cmocka_unit_test(test_elementwise),
    cmocka_unit_test(test_stay_on_device),
    cmocka_unit_test(test_reductions),
    cmocka_unit_test(test_reductions_reproducible),
    cmocka_unit_test(test_host_access_in_the_middle),
    cmocka_unit_test(test_device_accessors),
    cmocka_unit_test(test_scatter),
    cmocka_unit_test(test_dmda),
    cmocka_unit_test(test_fallbacks),
    cmocka_unit_test(test_cg_matches_host),
    cmocka_unit_test(test_device_per_rank),
    cmocka_unit_test(test_sequential_per_rank),
};

SBPMG_TEST_MAIN(help, tests)
