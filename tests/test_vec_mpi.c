/* VECMPIOPENCL against VECMPI, on 2 and 4 ranks: the type plumbing, every device operation on random data of several
   global lengths and layouts (lengths below the number of ranks, empty local parts, uneven splits), reductions
   reproducible to the bit and equal on every rank, KSPCG with a device MatShell that moves no vector while it iterates,
   and the device chosen per rank. Host access and communication through the host: tests/test_vec_mpi_host.c.

   A check that fails on one rank only must not leave the other ranks waiting in the next collective: value checks go
   through VecTestAllOk(), which fails on every rank together. */
#include "vectest.h"
#include <unistd.h>

static const char help[] = "Tests of sbpmg's parallel device vector VECMPIOPENCL (src/vec): types, operations, reductions, KSPCG.\n";

/* global length and layout (VecTestLayout) */
static const VecTestLayout cases[] = {{1, 1}, {3, 1}, {7, 0}, {5, 2}, {1000, 1}, {100003, 1}};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

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
  Vec         v, h;
  PetscBool   same;
  SbpmgCL     c1;
  PetscMPIInt size = VecTestSize();
  cl_mem      m;

  assert_true(size >= 2);
  PCALL(SbpmgInitializePackage());
  PCALL(VecCreateOpenCL(PETSC_COMM_WORLD, PETSC_DECIDE, 100, &v));
  VecTestAssertType(v, VECMPIOPENCL);
  VecTestDuplicates(v);
  PCALL(VecOpenCLGetBufferRead(v, &m)); /* the local part's buffer */
  assert_non_null(m);
  PCALL(VecOpenCLRestoreBufferRead(v, &m));
  PCALL(VecDestroy(&v));

  /* -vec_type opencl and mpiopencl in VecSetFromOptions() */
  for (int t = 0; t < 2; t++) {
    PetscReal r;

    v = VecTestFromOptions(PETSC_COMM_WORLD, 3, t ? "mpiopencl" : "opencl");
    VecTestAssertType(v, VECMPIOPENCL);
    PCALL(VecIsOpenCL(v, &same));
    assert_true(same);
    /* asking again for opencl (the name differs from mpiopencl): PETSc rebuilds the vector, which must work */
    PCALL(VecSetType(v, VECOPENCL));
    VecTestAssertType(v, VECMPIOPENCL);
    PCALL(VecSet(v, 1));
    PCALL(VecNorm(v, NORM_1, &r));
    assert_true(r == 3 * size);
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
  VecTestAssertType(v, VECSEQOPENCL);
  PCALL(VecDestroy(&v));

  /* on a given context */
  PCALL(SbpmgCLGetDefault(&c1));
  PCALL(VecCreateOpenCLWithContext(PETSC_COMM_WORLD, c1, 2, PETSC_DETERMINE, &v));
  VecTestAssertType(v, VECMPIOPENCL);
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
  Vec host, dev, seq;

  PCALL(VecCreateMPI(PETSC_COMM_WORLD, 3, PETSC_DETERMINE, &host));
  PCALL(VecCreateOpenCL(PETSC_COMM_WORLD, 3, PETSC_DETERMINE, &dev));
  VecTestOpsTableCovered(host, dev, "VECMPI");
  /* the global reductions are not the sequential type's */
  PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, 3, &seq));
  assert_true(dev->ops->dot != seq->ops->dot && dev->ops->norm != seq->ops->norm && dev->ops->max != seq->ops->max);
  assert_true(dev->ops->dot_local == seq->ops->dot_local && dev->ops->norm_local == seq->ops->norm_local && dev->ops->axpy == seq->ops->axpy);
  PCALL(VecDestroy(&seq));
  PCALL(VecDestroy(&host));
  PCALL(VecDestroy(&dev));
}

/* ---------------------------------------------------------------- operations */

/* f on every layout of cases[] */
static void for_cases(void (*f)(MPI_Comm, PetscInt, PetscInt))
{
  for (size_t t = 0; t < NCASES; t++) f(PETSC_COMM_WORLD, VecTestLocalSize(&cases[t]), cases[t].N);
}

static void test_elementwise(void **state)
{
  for_cases(VecTestElementwise);
}

/* Element-wise operations and reductions move no vector between host and device. */
static void test_stay_on_device(void **state)
{
  const VecTestLayout c = {1001, 1};
  Vec                 x, y, w, v[3];
  PetscScalar         s, m[3];
  PetscReal           r, r2[2];
  PetscInt            loc;
  VecTestSnap         s0, s1;

  PCALL(VecCreateOpenCL(PETSC_COMM_WORLD, VecTestLocalSize(&c), c.N, &x));
  PCALL(VecDuplicate(x, &y));
  PCALL(VecDuplicate(x, &w));
  for (int j = 0; j < 3; j++) PCALL(VecDuplicate(x, &v[j]));
  VecTestSnapshot(&s0);
  for (int j = 0; j < 3; j++) PCALL(VecSet(v[j], j));
  VecTestDeviceOperations(x, y, w, v);
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
  VecTestSnapshot(&s1);
  VecTestNoVectorTransfer("vector operations", &s0, &s1, 2);
  VecTestCheckMask("after device operations", w, PETSC_OFFLOAD_GPU);
  for (int j = 0; j < 3; j++) PCALL(VecDestroy(&v[j]));
  PCALL(VecDestroy(&x));
  PCALL(VecDestroy(&y));
  PCALL(VecDestroy(&w));
}

static void test_reductions(void **state)
{
  for_cases(VecTestReductions);
}

/* Same values, same ranks: the same bits every time, and on every rank. */
static void test_reductions_reproducible(void **state)
{
  for_cases(VecTestReductionsReproducible);
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

static void solve(const VecTestLayout *c, PetscBool device, VecTestSolve *r)
{
  LapCtx   ctx = {NULL, NULL};
  Mat      A;
  Vec      b;
  PetscInt nl = VecTestLocalSize(c);

  if (device) {
    PCALL(SbpmgCLGetDefault(&ctx.cl));
    PCALL(SbpmgCLGetKernelFromSource(ctx.cl, "test_vec_lap1d", lap_src, NULL, "lap1d", &ctx.k));
  }
  PCALL(MatCreateShell(PETSC_COMM_WORLD, nl, nl, c->N, c->N, &ctx, &A));
  PCALL(MatShellSetOperation(A, MATOP_MULT, (void (*)(void))(device ? LapMultDevice : LapMultHost)));
  PCALL(MatShellSetVecType(A, device ? VECOPENCL : VECMPI));
  PCALL(MatCreateVecs(A, NULL, &b));
  VecTestAssertType(b, device ? VECMPIOPENCL : VECMPI);
  VecTestFillRandom(b, c->N, 2024, -1, 1);
  VecTestSolveCG(A, b, r);
  PCALL(VecDestroy(&b));
  PCALL(MatDestroy(&A));
}

static void test_cg_matches_host(void **state)
{
  const VecTestLayout c = {150, 1};
  VecTestSolve        d, h;

  solve(&c, PETSC_TRUE, &d);
  solve(&c, PETSC_FALSE, &h);
  VecTestCompareSolves("N = 150", &d, &h, 3); /* reductions and two halo ends per iteration */
}

/* ---------------------------------------------------------------- device selection per rank */

/* Every rank reports the device it took under -cl_view (PetscSynchronizedPrintf, gathered on rank 0). PoCL has one
   device: rank r takes device r mod 1 = 0. */
static void test_device_per_rank(void **state)
{
  PetscMPIInt rank = VecTestRank(), size = VecTestSize();
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
  PetscMPIInt rank = VecTestRank();
  PetscReal   nrm;

  PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, 10 + rank, &v));
  PCALL(VecSet(v, 1 + rank));
  PCALL(VecNorm(v, NORM_1, &nrm));
  assert_true(nrm == (PetscReal)(10 + rank) * (1 + rank));
  PCALL(VecDestroy(&v));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_host_data_fits),          cmocka_unit_test(test_type_selection),
    cmocka_unit_test(test_ops_table_covered),       cmocka_unit_test(test_elementwise),
    cmocka_unit_test(test_stay_on_device),          cmocka_unit_test(test_reductions),
    cmocka_unit_test(test_reductions_reproducible), cmocka_unit_test(test_cg_matches_host),
    cmocka_unit_test(test_device_per_rank),         cmocka_unit_test(test_sequential_per_rank),
};

SBPMG_TEST_MAIN(help, tests)
