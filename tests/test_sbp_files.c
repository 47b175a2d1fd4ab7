/* Files and data a user brings (issue 37): the grid and mu files (src/sbp/files.c) fed truncated, byte-swapped, short, oversized-header,
   NaN and garbage files end in an error naming the file and what was expected, before any allocation the file does not justify, and a
   good file loads; a node grid whose cells fold, invert or collapse is refused naming the first bad cell (src/sbp/nodes.c); a forcing
   given as values in natural order of any layout, or in the problem's own layout, gives the right-hand side of the same forcing as a
   function, on the host and the device (1, 2 and 3 ranks); a failing user function and mu or coordinates given after set-up leak
   nothing (-malloc_dump). */
#include "test_sbp_common.h"
#include <unistd.h>

#define NR 8
#define NS 6
#define NN ((NR + 1) * (NS + 1))

/* ---------------------------------------------------------------- files written byte by byte */

typedef struct {
  unsigned char *b;
  size_t         n, cap;
} Bytes;

static void put(Bytes *o, const void *src, size_t n)
{
  if (o->n + n > o->cap) {
    o->cap = 2 * (o->n + n);
    o->b   = (unsigned char *)realloc(o->b, o->cap);
  }
  memcpy(o->b + o->n, src, n);
  o->n += n;
}

/* A value of `size` bytes, big-endian (PETSc's binary format) or swapped. */
static void put_int(Bytes *o, long long v, size_t size, PetscBool swap)
{
  unsigned char b[8];
  for (size_t k = 0; k < size; k++) b[swap ? k : size - 1 - k] = (unsigned char)((unsigned long long)v >> (8 * k));
  put(o, b, size);
}

static void put_real(Bytes *o, double v, PetscBool swap)
{
  unsigned char b[8], r[8];
  memcpy(b, &v, 8);
  for (int k = 0; k < 8; k++) r[k] = b[swap ? k : 7 - k]; /* this host is little-endian (checked in main's test) */
  put(o, r, 8);
}

/* A vector as VecView() writes it: class id, count (claimed), then the values. */
static void put_vec(Bytes *o, long long claimed, const double *v, PetscInt n, PetscBool swap)
{
  put_int(o, 1211214, 4, swap);
  put_int(o, claimed, sizeof(PetscInt), swap);
  for (PetscInt k = 0; k < n; k++) put_real(o, v[k], swap);
}

/* A path of this run (rank 0's pid: ctest may run other tests beside), the file written by rank 0. */
static void file_path(const char *tag, char path[PETSC_MAX_PATH_LEN])
{
  int pid = (int)getpid();
  PCALL(MPI_Bcast(&pid, 1, MPI_INT, 0, PETSC_COMM_WORLD));
  PCALL(PetscSNPrintf(path, PETSC_MAX_PATH_LEN, "%s/sbpmg-files-%s-%d.bin", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", tag, pid));
}

static void write_file(const char *path, const Bytes *o)
{
  PetscMPIInt rank;
  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (o->n) assert_true(fwrite(o->b, 1, o->n, f) == o->n);
    fclose(f);
  }
  PCALL(MPI_Barrier(PETSC_COMM_WORLD));
}

static void remove_file(const char *path)
{
  PetscMPIInt rank;
  PCALL(MPI_Barrier(PETSC_COMM_WORLD));
  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) {
    char info[PETSC_MAX_PATH_LEN + 8];
    unlink(path);
    snprintf(info, sizeof(info), "%s.info", path);
    unlink(info);
  }
}

/* A sheared affine grid (valid: every cell a parallelogram turning counter-clockwise) and a mu. */
static void good_grid(double x[NN], double y[NN], double mu[NN])
{
  for (int j = 0; j <= NS; j++)
    for (int i = 0; i <= NR; i++) {
      x[i + (NR + 1) * j]  = -1 + 2.0 * i / NR + 0.1 * j / NS;
      y[i + (NR + 1) * j]  = -1 + 2.0 * j / NS;
      mu[i + (NR + 1) * j] = 1 + 0.25 * i + 0.125 * j;
    }
}

/* SbpProblemSetFromOptions with the file given by `option` and the grid NR x NS (the other field built in). */
static PetscErrorCode load_by_option(const char *option, const char *path, PetscBool setup)
{
  SbpProblem     p;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(SbpProblemCreate(PETSC_COMM_WORLD, &p));
  SbpmgTestSetOption(option, path);
  SbpmgTestSetOption("-sbp_n", "8,6");
  ierr = SbpProblemSetFromOptions(p);
  SbpmgTestSetOption(option, NULL);
  SbpmgTestSetOption("-sbp_n", NULL);
  if (!ierr && setup) ierr = SbpProblemSetUp(p);
  PetscCall(SbpProblemDestroy(&p));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* The bytes allocated at most while the call runs beyond those before (0 where PETSc's malloc is not traced). */
#define PEAK_OF(call, peak)                       \
  do {                                            \
    PetscLogDouble before_, max_;                 \
    PCALL(PetscMallocGetCurrentUsage(&before_));  \
    PCALL(PetscMallocPushMaximumUsage(37));       \
    call;                                         \
    PCALL(PetscMallocPopMaximumUsage(37, &max_)); \
    (peak) = max_ > before_ ? max_ - before_ : 0; \
  } while (0)

/* One reader (the grid file: two vectors, x then y; the mu file: one) fed every kind of bad file, then a good one. */
static void fuzz_reader(const char *option, int nvec, const char *what0, const char *what1)
{
  double         x[NN], y[NN], mu[NN], *v0 = nvec == 2 ? x : mu;
  char           path[PETSC_MAX_PATH_LEN], msg[2 * PETSC_MAX_PATH_LEN + 256];
  Bytes          o   = {NULL, 0, 0};
  const size_t   isz = sizeof(PetscInt), vecbytes = 4 + isz + 8 * (size_t)NN;
  PetscLogDouble peak = 0;
  unsigned long  seed = 12345;

  good_grid(x, y, mu);
  file_path(option + 5, path);

  /* an empty file */
  write_file(path, &o);
  PCALL(PetscSNPrintf(msg, sizeof(msg), "The file %s ends before the %s: expected a PETSc binary vector", path, what0));
  EXPECT_ERROR(load_by_option(option, path, PETSC_FALSE), PETSC_ERR_FILE_UNEXPECTED, msg);
  /* a file shorter than a header */
  o.n = 0;
  put_int(&o, 1211214, 4, PETSC_FALSE);
  put_int(&o, 1, 1, PETSC_FALSE);
  write_file(path, &o);
  PCALL(PetscSNPrintf(msg, sizeof(msg), "The file %s is truncated in the header of the %s (5 bytes left)", path, what0));
  EXPECT_ERROR(load_by_option(option, path, PETSC_FALSE), PETSC_ERR_FILE_UNEXPECTED, msg);
  /* written little-endian: the class id byte-swapped */
  o.n = 0;
  put_vec(&o, NN, v0, NN, PETSC_TRUE);
  write_file(path, &o);
  PCALL(PetscSNPrintf(msg, sizeof(msg), "The file %s holds the %s byte-swapped (little-endian)", path, what0));
  EXPECT_ERROR(load_by_option(option, path, PETSC_FALSE), PETSC_ERR_FILE_UNEXPECTED, msg);
  /* garbage: random bytes of a vector's length */
  o.n = 0;
  for (size_t k = 0; k < vecbytes; k++) {
    unsigned char c;
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    c    = (unsigned char)(seed >> 56);
    put(&o, &c, 1);
  }
  write_file(path, &o);
  PCALL(PetscSNPrintf(msg, sizeof(msg), "The file %s does not hold a vector for the %s (class id", path, what0));
  EXPECT_ERROR(load_by_option(option, path, PETSC_FALSE), PETSC_ERR_FILE_UNEXPECTED, msg);
  /* a 72-byte file whose header claims 2^31 - 1 values (16 GiB): refused before anything is allocated */
  o.n = 0;
  put_vec(&o, 2147483647LL, v0, (PetscInt)((72 - 4 - isz) / 8), PETSC_FALSE);
  assert_int_equal((int)o.n, 72);
  write_file(path, &o);
  PCALL(PetscSNPrintf(msg, sizeof(msg), "The file %s claims 2147483647 values for the %s (%lld bytes) but holds 72 bytes from there", path, what0,
                      (long long)(4 + isz) + 8LL * 2147483647LL));
  PEAK_OF(EXPECT_ERROR(load_by_option(option, path, PETSC_FALSE), PETSC_ERR_FILE_UNEXPECTED, msg), peak);
  if (peak > 1048576) fail_msg("the oversized header made %g bytes of allocations", peak);
  /* a negative count (2^31 read as a signed 32-bit count) */
  o.n = 0;
  put_vec(&o, -2147483647LL - 1, v0, 4, PETSC_FALSE);
  write_file(path, &o);
  PCALL(PetscSNPrintf(msg, sizeof(msg), "The file %s claims -2147483648 values for the %s", path, what0));
  if (sizeof(PetscInt) == 4) EXPECT_ERROR(load_by_option(option, path, PETSC_FALSE), PETSC_ERR_FILE_UNEXPECTED, msg);
  /* truncated in the last vector's values */
  o.n = 0;
  put_vec(&o, NN, v0, NN, PETSC_FALSE);
  if (nvec == 2) put_vec(&o, NN, y, NN, PETSC_FALSE);
  o.n -= 8 * NN / 2;
  write_file(path, &o);
  PCALL(PetscSNPrintf(msg, sizeof(msg), "The file %s claims %d values for the %s (%d bytes) but holds %d bytes from there: truncated", path, NN,
                      nvec == 2 ? what1 : what0, (int)vecbytes, (int)(vecbytes - 8 * NN / 2)));
  EXPECT_ERROR(load_by_option(option, path, PETSC_FALSE), PETSC_ERR_FILE_UNEXPECTED, msg);
  if (nvec == 2) { /* x alone: the file ends before y */
    o.n = 0;
    put_vec(&o, NN, x, NN, PETSC_FALSE);
    write_file(path, &o);
    PCALL(PetscSNPrintf(msg, sizeof(msg), "The file %s ends before the %s", path, what1));
    EXPECT_ERROR(load_by_option(option, path, PETSC_FALSE), PETSC_ERR_FILE_UNEXPECTED, msg);
  }
  /* a NaN, and an infinity, among the values */
  for (int t = 0; t < 2; t++) {
    double *w = nvec == 2 ? y : mu, keep = w[17];
    w[17] = t ? INFINITY : NAN;
    o.n   = 0;
    if (nvec == 2) put_vec(&o, NN, x, NN, PETSC_FALSE);
    put_vec(&o, NN, w, NN, PETSC_FALSE);
    w[17] = keep;
    write_file(path, &o);
    PCALL(PetscSNPrintf(msg, sizeof(msg), "The file %s: value 17 of the %s (natural order) is %s: every value must be finite", path, nvec == 2 ? what1 : what0,
                        t ? "inf" : "nan"));
    EXPECT_ERROR(load_by_option(option, path, PETSC_FALSE), PETSC_ERR_FILE_UNEXPECTED, msg);
  }
  /* the values of another grid (a good file): named at set-up */
  {
    double big[(NR + 3) * (NS + 1)];
    for (int k = 0; k < (NR + 3) * (NS + 1); k++) big[k] = 1 + k;
    o.n = 0;
    put_vec(&o, (NR + 3) * (NS + 1), big, (NR + 3) * (NS + 1), PETSC_FALSE);
    if (nvec == 2) put_vec(&o, (NR + 3) * (NS + 1), big, (NR + 3) * (NS + 1), PETSC_FALSE);
    write_file(path, &o);
    PCALL(PetscSNPrintf(msg, sizeof(msg), "The %s vector has %d values: the 8 x 6 grid has %d nodes", what0, (NR + 3) * (NS + 1), NN));
    EXPECT_ERROR(load_by_option(option, path, PETSC_TRUE), PETSC_ERR_ARG_SIZ, msg);
  }
  /* a good file loads and sets up */
  o.n = 0;
  put_vec(&o, NN, v0, NN, PETSC_FALSE);
  if (nvec == 2) put_vec(&o, NN, y, NN, PETSC_FALSE);
  write_file(path, &o);
  PCALL(load_by_option(option, path, PETSC_TRUE));
  remove_file(path);
  free(o.b);
}

static void test_grid_file(void **state)
{
  const unsigned int one = 1;
  assert_true(*(const unsigned char *)&one == 1); /* put_real writes a little-endian host's doubles */
  fuzz_reader("-sbp_grid_file", 2, "x coordinate", "y coordinate");
}

static void test_mu_file(void **state)
{
  fuzz_reader("-sbp_mu_file", 1, "mu", NULL);
}

/* ---------------------------------------------------------------- grids whose cells fold, invert or collapse */

static PetscErrorCode setup_grid(PetscInt Nr, PetscInt Ns, const PetscReal *x, const PetscReal *y)
{
  SbpProblem     p;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(SbpProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCall(SbpProblemSetSizes(p, Nr, Ns));
  PetscCall(SbpProblemSetNodeCoordinatesArrays(p, (Nr + 1) * (Ns + 1), x, y));
  ierr = SbpProblemSetUp(p);
  PetscCall(SbpProblemDestroy(&p));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

static void test_bad_cells(void **state)
{
  const PetscInt Nr = 16, Ns = 12, N = (Nr + 1) * (Ns + 1);
  PetscReal      x[(16 + 1) * (12 + 1)], y[(16 + 1) * (12 + 1)];
  char           msg[256];

  for (PetscInt fold = 1; fold < 6; fold += 2) { /* columns fold..fold+1, fold+4.., swapped in every row: every other column folded */
    for (PetscInt k = 0; k < N; k++) {
      const PetscInt i = k % (Nr + 1), j = k / (Nr + 1);
      PetscInt       src = i;
      if (i >= fold && (i - fold) % 4 == 0 && i + 1 <= Nr) src = i + 1;
      if (i > fold && (i - fold) % 4 == 1) src = i - 1;
      x[k] = -1 + 2.0 * src / Nr + 0.05 * PetscSinReal(j);
      y[k] = -1 + 2.0 * j / Ns + 0.05 * PetscSinReal(2.0 * src);
    }
    PCALL(PetscSNPrintf(msg, sizeof(msg), "The node grid's cell (i,j) = (%d,0) (nodes (%d,0) to (%d,1)) is inverted, folded or degenerate", (int)fold,
                        (int)fold, (int)fold + 1));
    EXPECT_ERROR(setup_grid(Nr, Ns, x, y), PETSC_ERR_ARG_OUTOFRANGE, msg);
  }
  /* the whole grid mirrored (clockwise from r to s): the first cell */
  for (PetscInt k = 0; k < N; k++) {
    x[k] = 1 - 2.0 * (k % (Nr + 1)) / Nr;
    y[k] = -1 + 2.0 * (k / (Nr + 1)) / Ns;
  }
  EXPECT_ERROR(setup_grid(Nr, Ns, x, y), PETSC_ERR_ARG_OUTOFRANGE, "The node grid's cell (i,j) = (0,0) (nodes (0,0) to (1,1)) is inverted");
  /* one node on top of its neighbour (a cell collapsed to a triangle), in the last row of cells */
  for (PetscInt k = 0; k < N; k++) x[k] = -x[k];
  x[5 + (Nr + 1) * Ns] = x[4 + (Nr + 1) * Ns];
  y[5 + (Nr + 1) * Ns] = y[4 + (Nr + 1) * Ns];
  PCALL(PetscSNPrintf(msg, sizeof(msg), "The node grid's cell (i,j) = (4,%d) (nodes (4,%d) to (5,%d)) is inverted, folded or degenerate", (int)Ns - 1,
                      (int)Ns - 1, (int)Ns));
  EXPECT_ERROR(setup_grid(Nr, Ns, x, y), PETSC_ERR_ARG_OUTOFRANGE, msg);
  /* the good grid sets up */
  y[5 + (Nr + 1) * Ns] = 1;
  x[5 + (Nr + 1) * Ns] = -1 + 2.0 * 5 / Nr;
  PCALL(setup_grid(Nr, Ns, x, y));
}

/* ---------------------------------------------------------------- a forcing given as values, in any layout */

/* The forcing of node (i,j) of the square's grid (x = r, y = s): any values that tell the nodes apart. */
static PetscReal node_forcing(PetscInt i, PetscInt j)
{
  return 1 + 0.1 * i - 0.05 * j * j + PetscSinReal(0.7 * i * j);
}

typedef struct {
  PetscInt Nr, Ns;
} GridCtx;

static PetscErrorCode ForcingOfPoint(void *ctx, PetscReal x, PetscReal y, PetscReal *f)
{
  const GridCtx *g = (const GridCtx *)ctx;
  *f               = node_forcing((PetscInt)PetscFloorReal((x + 1) * g->Nr / 2 + 0.5), (PetscInt)PetscFloorReal((y + 1) * g->Ns / 2 + 0.5));
  return 0;
}

static PetscErrorCode FailingForcing(void *ctx, PetscReal x, PetscReal y, PetscReal *f)
{
  PetscFunctionBegin;
  *f = 0;
  PetscCheck(x < 0.5, PETSC_COMM_SELF, PETSC_ERR_USER, "FailingForcing: no forcing at x = %g", (double)x);
  PetscFunctionReturn(0);
}

/* The right-hand side of p with its data (a new vector). */
static Vec rhs_of(SbpProblem p)
{
  Vec g;
  PCALL(SbpProblemCreateVector(p, &g));
  PCALL(SbpProblemComputeRHS(p, g));
  return g;
}

/* A natural-order vector of the node forcing: layout 0 PETSc's default on the communicator, 1 the whole grid on every rank, 2 all on
   the last rank; 3 the problem's own layout and order (SbpProblemCreateVector()), 4 a duplicate of such a vector. */
static Vec forcing_values(SbpProblem p, int layout)
{
  const PetscInt N = (p->Nr + 1) * (p->Ns + 1);
  PetscMPIInt    size, rank;
  PetscInt       lo, hi;
  PetscScalar   *a;
  Vec            f;

  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (layout == 4) { /* a duplicate of the problem's vector keeps its order */
    Vec v = forcing_values(p, 3);
    PCALL(VecDuplicate(v, &f));
    PCALL(VecCopy(v, f));
    PCALL(VecDestroy(&v));
    return f;
  }
  if (layout == 3) {
    PetscScalar **fa;
    PCALL(SbpProblemCreateVector(p, &f));
    PCALL(SbpProblemVecGetArray(p, f, PETSC_FALSE, &fa));
    for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
      for (PetscInt i = p->xs; i < p->xs + p->xm; i++) fa[j][i] = node_forcing(i, j);
    PCALL(SbpProblemVecRestoreArray(p, f, PETSC_FALSE, &fa));
    return f;
  }
  if (layout == 1)
    PCALL(VecCreateSeq(PETSC_COMM_SELF, N, &f));
  else
    PCALL(VecCreateMPI(PETSC_COMM_WORLD, layout == 2 ? (rank == size - 1 ? N : 0) : PETSC_DECIDE, N, &f));
  PCALL(VecGetOwnershipRange(f, &lo, &hi));
  PCALL(VecGetArrayWrite(f, &a));
  for (PetscInt k = lo; k < hi; k++) a[k - lo] = node_forcing(k % (p->Nr + 1), k / (p->Nr + 1));
  PCALL(VecRestoreArrayWrite(f, &a));
  return f;
}

static void test_forcing_layouts(void **state)
{
  const PetscInt Nr = 20, Ns = 14;
  GridCtx        gc = {Nr, Ns};

  for (int dev = 0; dev < 2; dev++)
    for (int layout = 0; layout < 5; layout++) {
      SbpProblem ref = SbpTestProblem(PETSC_COMM_WORLD, Nr, Ns, "DDNN", SBP_MAPPING_SQUARE, dev ? SBP_BACKEND_DEVICE : SBP_BACKEND_HOST, NULL);
      SbpProblem p   = SbpTestProblem(PETSC_COMM_WORLD, Nr, Ns, "DDNN", SBP_MAPPING_SQUARE, dev ? SBP_BACKEND_DEVICE : SBP_BACKEND_HOST, NULL);
      Vec        f   = forcing_values(p, layout), g, gref;
      PetscReal  d;

      PCALL(SbpProblemSetForcingFunction(ref, ForcingOfPoint, &gc));
      PCALL(SbpProblemSetForcingVector(p, f));
      gref = rhs_of(ref);
      g    = rhs_of(p);
      d    = SbpmgTestRelDiff(g, gref);
      if (!(d < 1e-14))
        fail_msg("%s, layout %d: the forcing's values give a right-hand side %g from its function's", dev ? "device" : "host", layout, (double)d);
      if (!dev && layout == 0) { /* the Kronecker reference reads the values too */
        PCALL(SbpAssembleRHSByKronecker(p, g));
        d = SbpmgTestRelDiff(g, gref);
        if (!(d < 1e-12)) fail_msg("Kronecker, layout 0: %g", (double)d);
      }
      PCALL(VecDestroy(&g));
      PCALL(VecDestroy(&gref));
      PCALL(VecDestroy(&f));
      PCALL(SbpProblemDestroy(&p));
      PCALL(SbpProblemDestroy(&ref));
    }
}

/* Errors on the way that leave nothing behind (the suite runs with -malloc_dump): a forcing function that fails (on the rank that holds
   x >= 0.5, the others told), mu and coordinates given after set-up. */
static void test_error_paths(void **state)
{
  for (int dev = 0; dev < 2; dev++) {
    SbpProblem p = SbpTestProblem(PETSC_COMM_WORLD, 16, 12, "DDNN", SBP_MAPPING_SQUARE, dev ? SBP_BACKEND_DEVICE : SBP_BACKEND_HOST, NULL);
    PetscReal  a[17 * 13];
    Vec        g;

    for (int k = 0; k < 17 * 13; k++) a[k] = 1;
    PCALL(SbpProblemSetForcingFunction(p, FailingForcing, NULL));
    PCALL(SbpProblemCreateVector(p, &g));
    if (-1 + 2.0 * (p->xs + p->xm - 1) / 16 >= 0.5) /* x = -1 + 2 i / Nr: the ranks with x >= 0.5 fail, the others hear of it */
      EXPECT_ERROR(SbpProblemComputeRHS(p, g), PETSC_ERR_USER, "FailingForcing: no forcing at x = ");
    else
      EXPECT_ERROR(SbpProblemComputeRHS(p, g), PETSC_ERR_USER, "failed on another rank");
    EXPECT_ERROR(SbpProblemSetMuArray(p, 17 * 13, a), PETSC_ERR_ORDER, "Cannot change mu after SbpProblemSetUp()");
    EXPECT_ERROR(SbpProblemSetNodeCoordinatesArrays(p, 17 * 13, a, a), PETSC_ERR_ORDER, "Cannot change the node coordinates after SbpProblemSetUp()");
    PCALL(VecDestroy(&g));
    PCALL(SbpProblemDestroy(&p));
  }
}

/* A grid too small for the ranks: said up front with the sizes and the process grid (2 ranks split 5 x 5 nodes 1 x 2: it fits). */
static void test_tiny_grid_ranks(void **state)
{
  PetscMPIInt size;
  SbpProblem  p;
  char        msg[256];

  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PCALL(SbpProblemCreate(PETSC_COMM_WORLD, &p));
  PCALL(SbpProblemSetSizes(p, 4, 4));
  if (size < 3)
    PCALL(SbpProblemSetUp(p));
  else {
    PCALL(PetscSNPrintf(msg, sizeof(msg),
                        "The 4 x 4 grid (5 x 5 nodes) is too small for %d MPI ranks: their process grid 1 x %d leaves a rank 1 node(s) along s", (int)size,
                        (int)size));
    EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_SIZ, msg);
  }
  PCALL(SbpProblemDestroy(&p));
}

static const struct CMUnitTest tests[] = {cmocka_unit_test(test_grid_file),       cmocka_unit_test(test_mu_file),     cmocka_unit_test(test_bad_cells),
                                          cmocka_unit_test(test_forcing_layouts), cmocka_unit_test(test_error_paths), cmocka_unit_test(test_tiny_grid_ranks)};

SBPMG_TEST_MAIN("Files and data a user brings: checked before they are trusted.\n", tests)
