/* The acoustic operator on several MPI ranks (slabs along z, 4-plane halo exchange; docs/acoustic.md): the same fields as
   one rank, only the halo planes cross between host and device, uneven splits, the velocity file, snapshots, norms, too
   many ranks, and bit-identical repeated runs. Registered for 2 and 4 ranks (tests/acoustic.cmake). */
#include "harness.h"
#include <unistd.h>

static const char help[] = "Tests of the acoustic operator on several MPI ranks (src/acoustic).\n";

/* Checks made on some ranks only count failures instead of leaving the test (a rank that left would hang the others in
   the next collective call); the count is reduced over the ranks before asserting. */
#define CHECK(cond)                                                        \
  do {                                                                     \
    if (!(cond)) {                                                         \
      print_error("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      failed++;                                                            \
    }                                                                      \
  } while (0)

static void assert_all_ranks(int failed)
{
  PCALL(MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD));
  assert_int_equal(failed, 0);
}

typedef struct {
  PetscInt        n[3], ndamp, src[3], K;
  PetscBool       random, varvel;
  AcousticBackend backend;
  const char     *tuning;  /* overrides of the device's kernel shapes (AcousticSetTuning_Private(); NULL: none) */
  const char     *velfile; /* NULL: constant or the smooth model (varvel) */
  const char     *name;
} Case;

/* A smooth velocity model in [1500, 3500] m/s on the whole grid (every rank builds all of it). */
static void velocity_model(const PetscInt n[3], PetscReal *vel)
{
  for (PetscInt k = 0; k < n[2]; k++)
    for (PetscInt j = 0; j < n[1]; j++)
      for (PetscInt i = 0; i < n[0]; i++) vel[i + n[0] * (j + n[1] * k)] = 2500 + 1000 * PetscSinReal(0.3 * i + 0.2 * j) * PetscCosReal(0.25 * k);
}

static void create_case(MPI_Comm comm, const Case *c, Acoustic *out)
{
  Acoustic ac;

  PCALL(AcousticCreate(comm, &ac));
  PCALL(AcousticSetSizes(ac, c->n[0], c->n[1], c->n[2]));
  PCALL(AcousticSetDamping(ac, c->ndamp));
  PCALL(AcousticSetBackend(ac, c->backend));
  PCALL(AcousticSetSource(ac, c->src[0], c->src[1], c->src[2]));
  PCALL(AcousticSetSourceWavelet(ac, 60.0, 10.0));
  PCALL(AcousticSetMaxVelocity(ac, 0));
  if (c->random) PCALL(AcousticSetInitialType(ac, ACOUSTIC_INIT_RANDOM));
  if (c->velfile)
    PCALL(AcousticSetVelocityFile(ac, c->velfile));
  else if (c->varvel) {
    PetscReal *vel;
    PCALL(PetscMalloc1(c->n[0] * c->n[1] * c->n[2], &vel));
    velocity_model(c->n, vel);
    PCALL(AcousticSetVelocityArray(ac, vel));
    PCALL(PetscFree(vel));
  }
  PCALL(AcousticSetTuning_Private(ac, c->tuning));
  PCALL(AcousticSetUp(ac));
  *out = ac;
}

/* K steps of the case on comm; u, u_prev and phi gathered on rank 0 of comm (3 N values), the norms on every rank. */
static void run_case(MPI_Comm comm, const Case *c, PetscReal *f, PetscReal norms[2])
{
  Acoustic       ac;
  const PetscInt N = c->n[0] * c->n[1] * c->n[2];
  PetscMPIInt    rank;

  PCALL(MPI_Comm_rank(comm, &rank));
  create_case(comm, c, &ac);
  PCALL(AcousticStep(ac, c->K));
  PCALL(AcousticGetField(ac, ACOUSTIC_FIELD_U, rank ? NULL : f));
  PCALL(AcousticGetField(ac, ACOUSTIC_FIELD_UPREV, rank ? NULL : f + N));
  PCALL(AcousticGetField(ac, ACOUSTIC_FIELD_PHI, rank ? NULL : f + 2 * N));
  PCALL(AcousticGetNorms(ac, &norms[0], &norms[1]));
  PCALL(AcousticDestroy(&ac));
}

/* The first plane of rank 1's slab: a slab boundary */
static PetscInt slab_boundary(PetscInt nz)
{
  PetscMPIInt size;
  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  return nz / size + (nz % size ? 1 : 0);
}

/* Compare the gathered fields of run_case on PETSC_COMM_WORLD with one rank's (on rank 0, PETSC_COMM_SELF); the norms
   must be the same on every rank and agree with the gathered u. tol 0: bit for bit. */
static void compare_with_one_rank(const Case *c, PetscReal tol)
{
  const PetscInt N  = c->n[0] * c->n[1] * c->n[2];
  PetscReal     *f1 = NULL, *fp = NULL, n1[2], np[2], lo[2], hi[2];
  PetscMPIInt    rank, size;
  int            failed = 0;

  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (!rank) PCALL(PetscMalloc2(3 * N, &f1, 3 * N, &fp));
  run_case(PETSC_COMM_WORLD, c, fp, np);
  PCALL(MPI_Allreduce(np, lo, 2, MPIU_REAL, MPI_MIN, PETSC_COMM_WORLD));
  PCALL(MPI_Allreduce(np, hi, 2, MPIU_REAL, MPI_MAX, PETSC_COMM_WORLD));
  assert_true(lo[0] == hi[0] && lo[1] == hi[1]); /* the same norms on every rank */
  if (!rank) {
    const char *names[3] = {"u", "u_prev", "phi"};
    PetscReal   mh = 0, eh = 0;

    run_case(PETSC_COMM_SELF, c, f1, n1);
    for (int q = 0; q < 3; q++) {
      PetscReal d, s;
      SbpmgTestMaxDiff(N, fp + q * N, f1 + q * N, &d, &s);
      print_message("  %s, %d ranks, %s: max |%s - %s(1 rank)| = %.3e (max |%s| %.3e)\n", c->name, (int)size,
                    c->backend == ACOUSTIC_BACKEND_HOST ? "host" : "device", names[q], names[q], (double)d, names[q], (double)s);
      CHECK(d <= tol * s);
      if (q == 0) CHECK(s > 0);
    }
    for (PetscInt p = 0; p < N; p++) {
      mh = PetscMax(mh, PetscAbsReal(fp[p]));
      eh += fp[p] * fp[p];
    }
    CHECK(PetscAbsReal(np[0] - mh) <= 1e-6 * mh && PetscAbsReal(np[1] - eh) <= 1e-4 * eh); /* the norms are those of the gathered u */
    CHECK(PetscAbsReal(np[0] - n1[0]) <= 1e-5 * n1[0] && PetscAbsReal(np[1] - n1[1]) <= 1e-4 * n1[1]);
    PCALL(PetscFree2(f1, fp));
  }
  assert_all_ranks(failed);
}

/* K device steps on several ranks give the fields of one rank: random and zero initial fields, variable velocity, PML,
   the source on a slab boundary, every launch mode; and the host reference on several ranks gives one rank's bit for bit. */
static void test_same_as_one_rank(void **state)
{
  Case c = {{30, 28, 36}, 5, {12, 14, 0}, 12, PETSC_TRUE, PETSC_TRUE, ACOUSTIC_BACKEND_DEVICE, NULL, NULL, "random, default kernels"};

  c.src[2] = slab_boundary(c.n[2]);
  compare_with_one_rank(&c, 0);
  c.name   = "random, inner + merged PML";
  c.tuning = "ac_fused=0,ac_pml_merge=1";
  compare_with_one_rank(&c, 0);
  c.name   = "random, one launch per region, local memory";
  c.tuning = "ac_fused=0,ac_pml_merge=0,ac_tile_x=8,ac_tile_y=4,ac_tile_z=5,ac_vec=4,ac_local_mem=1";
  compare_with_one_rank(&c, 0);
  c.name   = "zero fields, source on the boundary's other side";
  c.tuning = NULL;
  c.random = PETSC_FALSE;
  c.src[2] = slab_boundary(c.n[2]) - 1;
  c.K      = 20;
  compare_with_one_rank(&c, 0);
  c.name    = "random, host reference";
  c.random  = PETSC_TRUE;
  c.backend = ACOUSTIC_BACKEND_HOST;
  c.K       = 6;
  compare_with_one_rank(&c, 0);
}

/* Uneven slabs (nz = 37), a PML as thick as a whole slab (ndamp 9: 4 ranks own 10, 9, 9, 9 planes, rank 0's all in the
   PML), the velocity from a file read slab by slab, the ownership ranges. */
static void test_uneven_split(void **state)
{
  Case        c = {{28, 27, 37}, 9, {13, 13, 0}, 10, PETSC_TRUE, PETSC_FALSE, ACOUSTIC_BACKEND_DEVICE, NULL, NULL, "nz 37, velocity file"};
  char        path[PETSC_MAX_PATH_LEN];
  PetscMPIInt rank, size;
  Acoustic    ac;
  PetscInt    zs, ze, *all;

  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  c.src[2] = slab_boundary(c.n[2]);
  {
    int pid = (int)getpid();
    PCALL(MPI_Bcast(&pid, 1, MPI_INT, 0, PETSC_COMM_WORLD));
    PCALL(PetscSNPrintf(path, sizeof(path), "ac_mpi_vel_%d.bin", pid));
  }
  if (!rank) {
    const PetscInt N = c.n[0] * c.n[1] * c.n[2];
    PetscReal     *vel;
    float         *vf;
    FILE          *fp;

    PCALL(PetscMalloc2(N, &vel, N, &vf));
    velocity_model(c.n, vel);
    for (PetscInt p = 0; p < N; p++) vf[p] = (float)vel[p];
    fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(vf, sizeof(float), N, fp), N);
    fclose(fp);
    PCALL(PetscFree2(vel, vf));
  }
  PCALL(MPI_Barrier(PETSC_COMM_WORLD));
  c.velfile = path;
  compare_with_one_rank(&c, 0);
  c.name    = "nz 37, velocity file, host";
  c.backend = ACOUSTIC_BACKEND_HOST;
  c.K       = 4;
  compare_with_one_rank(&c, 0);
  /* the slabs tile [0, nz) in rank order, sizes differing by at most one */
  c.backend = ACOUSTIC_BACKEND_DEVICE;
  create_case(PETSC_COMM_WORLD, &c, &ac);
  PCALL(AcousticGetOwnershipRange(ac, &zs, &ze));
  PCALL(PetscMalloc1(2 * size, &all));
  {
    PetscInt mine[2] = {zs, ze};
    PCALL(MPI_Allgather(mine, 2, MPIU_INT, all, 2, MPIU_INT, PETSC_COMM_WORLD));
  }
  assert_int_equal(all[0], 0);
  assert_int_equal(all[2 * size - 1], c.n[2]);
  for (PetscMPIInt r = 0; r < size; r++) {
    assert_true(all[2 * r + 1] - all[2 * r] == c.n[2] / size || all[2 * r + 1] - all[2 * r] == c.n[2] / size + 1);
    if (r) assert_int_equal(all[2 * r], all[2 * r - 1]);
  }
  if (!rank) print_message("  slabs of %d ranks: first planes %d, %d, ...\n", (int)size, (int)all[0], (int)all[2]);
  PCALL(PetscFree(all));
  PCALL(AcousticDestroy(&ac));
  PCALL(MPI_Barrier(PETSC_COMM_WORLD));
  if (!rank) assert_int_equal(unlink(path), 0);
}

/* Fields set from host arrays (the whole grid on every rank; each rank copies its slab and halo planes) step as on one
   rank; AcousticGetValue returns the owner's value on every rank. */
static void test_set_fields(void **state)
{
  Case           c = {{26, 25, 35}, 4, {13, 12, 0}, 9, PETSC_FALSE, PETSC_TRUE, ACOUSTIC_BACKEND_DEVICE, NULL, NULL, ""};
  const PetscInt N = c.n[0] * c.n[1] * c.n[2], pt[3] = {7, 9, 33};
  PetscReal     *u0, *um, *f[2] = {NULL, NULL}, val[2], lo, hi;
  PetscMPIInt    rank;
  int            failed = 0;

  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  c.src[2] = slab_boundary(c.n[2]);
  PCALL(PetscMalloc2(N, &u0, N, &um));
  SbpmgTestRandom(N, u0, -1, 1, 11);
  SbpmgTestRandom(N, um, -1, 1, 12);
  for (int run = 0; run < (rank ? 1 : 2); run++) {
    Acoustic ac;

    if (!rank) PCALL(PetscMalloc1(N, &f[run]));
    create_case(run ? PETSC_COMM_SELF : PETSC_COMM_WORLD, &c, &ac);
    PCALL(AcousticSetFields(ac, u0, um));
    PCALL(AcousticStep(ac, c.K));
    PCALL(AcousticGetField(ac, ACOUSTIC_FIELD_U, f[run]));
    PCALL(AcousticGetValue(ac, pt[0], pt[1], pt[2], &val[run]));
    PCALL(AcousticDestroy(&ac));
    if (!run) {
      PCALL(MPI_Allreduce(&val[0], &lo, 1, MPIU_REAL, MPI_MIN, PETSC_COMM_WORLD));
      PCALL(MPI_Allreduce(&val[0], &hi, 1, MPIU_REAL, MPI_MAX, PETSC_COMM_WORLD));
      CHECK(lo == hi);
    }
  }
  if (!rank) {
    PetscReal d, s;
    SbpmgTestMaxDiff(N, f[0], f[1], &d, &s);
    print_message("  fields set from arrays, %d steps: max |u - u(1 rank)| = %.3e (max |u| %.3e); u(7, 9, 33) = %.6e, one rank %.6e\n", (int)c.K, (double)d,
                  (double)s, (double)val[0], (double)val[1]);
    CHECK(d == 0 && s > 0);
    CHECK(val[0] == val[1] && val[0] == f[0][pt[0] + c.n[0] * (pt[1] + c.n[1] * pt[2])]);
    PCALL(PetscFree(f[0]));
    PCALL(PetscFree(f[1]));
  }
  PCALL(PetscFree2(u0, um));
  assert_all_ranks(failed);
}

/* A step moves only the 4 boundary planes per neighbour between host and device: one read and one write of 4 padded
   planes per neighbour, nothing else. */
static void test_halo_traffic(void **state)
{
  Case           c = {{32, 30, 40}, 4, {16, 15, 20}, 0, PETSC_TRUE, PETSC_FALSE, ACOUSTIC_BACKEND_DEVICE, NULL, NULL, ""};
  Acoustic       ac;
  SbpmgCLStats   a, b;
  const PetscInt K = 7;
  PetscReal      halo;
  PetscInt       nbr;
  int            failed = 0;

  create_case(PETSC_COMM_WORLD, &c, &ac);
  nbr  = (ac->down >= 0) + (ac->up >= 0);
  halo = 4.0 * ac->pxy * sizeof(float);
  PCALL(SbpmgCLFinish(ac->cl));
  PCALL(SbpmgCLGetStats(ac->cl, &a));
  PCALL(AcousticStep(ac, K));
  PCALL(SbpmgCLFinish(ac->cl));
  PCALL(SbpmgCLGetStats(ac->cl, &b));
  print_message("  rank %d (%d neighbours): per step %.0f + %.0f bytes host->device + device->host in %.0f + %.0f transfers; the slab is %.0f bytes\n",
                (int)ac->rank, (int)nbr, (b.htod_bytes - a.htod_bytes) / K, (b.dtoh_bytes - a.dtoh_bytes) / K, (b.htod_count - a.htod_count) / K,
                (b.dtoh_count - a.dtoh_count) / K, (double)(ac->npad * sizeof(float)));
  CHECK(nbr >= 1);
  CHECK(b.htod_bytes - a.htod_bytes == K * nbr * halo);
  CHECK(b.dtoh_bytes - a.dtoh_bytes == K * nbr * halo);
  CHECK(b.htod_count - a.htod_count == K * nbr);
  CHECK(b.dtoh_count - a.dtoh_count == K * nbr);
  PCALL(AcousticDestroy(&ac));
  assert_all_ranks(failed);
}

/* Two runs from the same random fields on fresh objects give the same bits (fields gathered on rank 0, norms). */
static void test_deterministic(void **state)
{
  Case           c    = {{30, 28, 36}, 5, {12, 14, 0}, 15, PETSC_TRUE, PETSC_TRUE, ACOUSTIC_BACKEND_DEVICE, NULL, NULL, ""};
  const PetscInt N    = c.n[0] * c.n[1] * c.n[2];
  PetscReal     *f[2] = {NULL, NULL}, n[2][2];
  PetscMPIInt    rank;
  int            same = 1;

  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  c.src[2] = slab_boundary(c.n[2]);
  for (PetscInt mode = 0; mode < 2; mode++) { /* the default kernels; inner + merged PML */
    c.tuning = mode ? "ac_fused=0,ac_pml_merge=1" : NULL;
    if (!rank) PCALL(PetscMalloc2(3 * N, &f[0], 3 * N, &f[1]));
    run_case(PETSC_COMM_WORLD, &c, f[0], n[0]);
    run_case(PETSC_COMM_WORLD, &c, f[1], n[1]);
    if (memcmp(n[0], n[1], sizeof(n[0]))) same = 0;
    if (!rank) {
      if (memcmp(f[0], f[1], 3 * N * sizeof(PetscReal))) same = 0;
      print_message("  %s: two runs of %d steps %s\n", mode ? "merged PML" : "default kernels", (int)c.K, same ? "bit-identical" : "DIFFER");
      PCALL(PetscFree2(f[0], f[1]));
    }
    PCALL(MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD));
    assert_int_equal(same, 1);
  }
}

/* A whole file, read on rank 0 (*len bytes; NULL if it cannot be read). */
static char *read_file(const char *path, size_t *len)
{
  FILE *fp = fopen(path, "rb");
  char *buf;

  *len = 0;
  if (!fp) return NULL;
  buf = malloc(1 << 22);
  if (buf) *len = fread(buf, 1, (1 << 22) - 1, fp);
  fclose(fp);
  if (buf) buf[*len] = 0;
  return buf;
}

/* Snapshots on several ranks: the PNGs of a z plane and of a y plane (which cuts every slab) are the files one rank
   writes; the VTK ImageData file has the whole extent in one piece per rank; an unwritable path is an error on every rank. */
static void test_snapshots(void **state)
{
  Case        c = {{33, 29, 30}, 4, {10, 12, 0}, 40, PETSC_FALSE, PETSC_FALSE, ACOUSTIC_BACKEND_DEVICE, NULL, NULL, ""};
  Acoustic    ac;
  PetscMPIInt rank, size;
  char        png[2][2][64], vti[64];
  int         pid = (int)getpid(), failed = 0;

  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PCALL(MPI_Bcast(&pid, 1, MPI_INT, 0, PETSC_COMM_WORLD));
  for (int p = 0; p < 2; p++)
    for (int q = 0; q < 2; q++) PCALL(PetscSNPrintf(png[p][q], sizeof(png[p][q]), "ac_mpi_%d_%c%d.png", pid, "zy"[p], q));
  PCALL(PetscSNPrintf(vti, sizeof(vti), "ac_mpi_%d.vti", pid));
  c.src[2] = c.n[2] / 2;                             /* the slice's plane */
  for (int q = 0; q < 2 && (q == 0 || !rank); q++) { /* q 0: all ranks; q 1: rank 0 alone */
    MPI_Comm comm = q ? PETSC_COMM_SELF : PETSC_COMM_WORLD;
    create_case(comm, &c, &ac);
    PCALL(AcousticStep(ac, c.K));
    PCALL(AcousticWriteSlicePNG(ac, png[0][q]));
    ac->snap_axis  = 1; /* the y plane through the source, with the z plane's colour scale */
    ac->snap_index = c.src[1];
    PCALL(AcousticWriteSlicePNG(ac, png[1][q]));
    if (!q) {
      PCALL(AcousticWriteVTK(ac, vti));
      EXPECT_ERROR(AcousticWriteSlicePNG(ac, "/nonexistent-dir/x.png"), PETSC_ERR_FILE_OPEN, "/nonexistent-dir/x.png");
      EXPECT_ERROR(AcousticWriteVTK(ac, "/nonexistent-dir/x.vti"), PETSC_ERR_FILE_OPEN, "/nonexistent-dir/x.vti");
    }
    PCALL(AcousticDestroy(&ac));
  }
  if (!rank) {
    size_t na, nb;
    char  *a, *b;
    int    pieces = 0;

    for (int p = 0; p < 2; p++) {
      a = read_file(png[p][0], &na);
      b = read_file(png[p][1], &nb);
      print_message("  PNG of the %c plane: %zu bytes on %d ranks, %zu on one\n", "zy"[p], na, (int)size, nb);
      CHECK(a && b && na == nb && na > 1000 && !memcmp(a, b, na));
      free(a);
      free(b);
      CHECK(!unlink(png[p][0]) && !unlink(png[p][1]));
    }
    a = read_file(vti, &na);
    CHECK(a && strstr(a, "<ImageData WholeExtent=\"0 32 0 28 0 29\" Origin=\"0 0 0\" Spacing=\"20 20 20\">"));
    for (char *p = a ? strstr(a, "<Piece ") : NULL; p; p = strstr(p + 1, "<Piece ")) pieces++;
    CHECK(pieces == size);
    CHECK(a && strstr(a, "raw\">\n_") &&
          na == (size_t)(strstr(a, "raw\">\n_") - a) + 7 + 8 * (size_t)size + 4 * 33 * 29 * 30 + strlen("\n  </AppendedData>\n</VTKFile>\n"));
    free(a);
    CHECK(!unlink(vti));
  }
  assert_all_ranks(failed);
}

/* Too many ranks for the grid: every rank needs 4 planes (the halo). Only possible from 3 ranks (nz >= 9 always fits 2). */
static void test_too_many_ranks(void **state)
{
  PetscMPIInt size;
  Acoustic    ac;
  char        msg[256];

  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size < 3) {
    print_message("  %d ranks: every grid (nz >= 2 ndamp + 9 >= 9) fits; checked on 4 ranks\n", (int)size);
    return;
  }
  PCALL(AcousticCreate(PETSC_COMM_WORLD, &ac));
  PCALL(AcousticSetSizes(ac, 20, 20, 4 * size - 1));
  PCALL(AcousticSetDamping(ac, 0)); /* a PML of 1 or 2 points is refused as unstable */
  PCALL(PetscSNPrintf(msg, sizeof(msg),
                      "Grid nz = %d is too small for %d MPI ranks: the grid is split into slabs along z and each rank needs at least 4 planes (the stencil's "
                      "halo), so nz must be >= 4 x %d = %d; use at most %d ranks",
                      4 * size - 1, size, size, 4 * size, size - 1));
  EXPECT_ERROR(AcousticSetUp(ac), PETSC_ERR_ARG_OUTOFRANGE, msg);
  PCALL(AcousticDestroy(&ac));
  /* exactly 4 planes per rank is enough */
  PCALL(AcousticCreate(PETSC_COMM_WORLD, &ac));
  PCALL(AcousticSetSizes(ac, 20, 20, 4 * size));
  PCALL(AcousticSetDamping(ac, 0)); /* a PML of 1 or 2 points is refused as unstable */
  PCALL(AcousticSetUp(ac));
  PCALL(AcousticStep(ac, 2));
  PCALL(AcousticDestroy(&ac));
}

/* Thin slabs (4 and 5 planes, where the planes sent to the two neighbours overlap and no plane is left to overlap the
   exchange) step as on one rank. */
static void test_thin_slabs(void **state)
{
  PetscMPIInt size;
  Case        c = {{20, 19, 0}, 1, {9, 9, 0}, 8, PETSC_TRUE, PETSC_TRUE, ACOUSTIC_BACKEND_DEVICE, NULL, NULL, "thin slabs, default kernels"};

  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  c.n[2]   = PetscMax(4 * size + 2, 9);
  c.ndamp  = (c.n[2] - 9) / 2; /* 0 on 2 ranks (nz 10), 4 on 4 (nz 18) */
  c.src[2] = slab_boundary(c.n[2]);
  compare_with_one_rank(&c, 0);
  c.name   = "thin slabs, inner + merged PML";
  c.tuning = "ac_fused=0,ac_pml_merge=1";
  compare_with_one_rank(&c, 0);
}

/* Bad input on several ranks is an error on every rank, with the same message: a bad velocity in the last rank's slab
   of a file (each rank reads only its slab), a file of the wrong size, a source outside the grid. */
static void test_bad_input(void **state)
{
  const PetscInt n[3] = {24, 22, 36}, N = n[0] * n[1] * n[2];
  PetscMPIInt    rank;
  Acoustic       ac;
  char           path[PETSC_MAX_PATH_LEN], msg[PETSC_MAX_PATH_LEN + 128];
  int            pid = (int)getpid();

  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PCALL(MPI_Bcast(&pid, 1, MPI_INT, 0, PETSC_COMM_WORLD));
  PCALL(PetscSNPrintf(path, sizeof(path), "ac_mpi_badvel_%d.bin", pid));
  for (int pass = 0; pass < 2; pass++) {
    if (!rank) {
      float *vf;
      FILE  *fp;
      PCALL(PetscMalloc1(N, &vf));
      for (PetscInt p = 0; p < N; p++) vf[p] = 2000;
      vf[3 + n[0] * (4 + n[1] * (n[2] - 1))] = -7;
      fp                                     = fopen(path, "wb");
      assert_non_null(fp);
      assert_int_equal(fwrite(vf, sizeof(float), pass ? N - 5 : N, fp), pass ? N - 5 : N);
      fclose(fp);
      PCALL(PetscFree(vf));
    }
    PCALL(MPI_Barrier(PETSC_COMM_WORLD));
    PCALL(AcousticCreate(PETSC_COMM_WORLD, &ac));
    PCALL(AcousticSetSizes(ac, n[0], n[1], n[2]));
    PCALL(AcousticSetDamping(ac, 3));
    PCALL(AcousticSetVelocityFile(ac, path));
    if (!pass) {
      PCALL(PetscSNPrintf(msg, sizeof(msg), "Velocity -7. at grid point (3, 4, 35) of -ac_vel %s must be positive and finite", path));
      EXPECT_ERROR(AcousticSetUp(ac), PETSC_ERR_ARG_OUTOFRANGE, msg);
    } else {
      PCALL(PetscSNPrintf(msg, sizeof(msg), "Velocity file %s has %d bytes; a 24 x 22 x 36 grid needs %d (raw float32, x fastest)", path, (int)(4 * (N - 5)),
                          (int)(4 * N)));
      EXPECT_ERROR(AcousticSetUp(ac), PETSC_ERR_FILE_UNEXPECTED, msg);
    }
    PCALL(AcousticDestroy(&ac));
    PCALL(MPI_Barrier(PETSC_COMM_WORLD));
  }
  if (!rank) assert_int_equal(unlink(path), 0);
  PCALL(AcousticCreate(PETSC_COMM_WORLD, &ac));
  PCALL(AcousticSetSizes(ac, n[0], n[1], n[2]));
  PCALL(AcousticSetDamping(ac, 3));
  PCALL(AcousticSetSource(ac, 3, 3, 36));
  EXPECT_ERROR(AcousticSetUp(ac), PETSC_ERR_ARG_OUTOFRANGE, "Source (3, 3, 36) (-ac_source) is outside the 24 x 22 x 36 grid");
  PCALL(AcousticDestroy(&ac));
  { /* the host MatShell Laplacian stays on one rank */
    Mat         A;
    PetscMPIInt size;
    PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    PCALL(PetscSNPrintf(msg, sizeof(msg), "MatCreateAcousticLaplacian runs on one MPI rank for now; this communicator has %d ranks", (int)size));
    EXPECT_ERROR(MatCreateAcousticLaplacian(PETSC_COMM_WORLD, 10, 10, 10, 1, 1, 1, &A), PETSC_ERR_SUP, msg);
  }
}

/* The device context is created collectively on PETSC_COMM_WORLD before any test makes a one-rank object on rank 0. */
static int setup(void **state)
{
  SbpmgCL cl;
  return (int)SbpmgCLGetDefault(&cl);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup(test_same_as_one_rank, setup), cmocka_unit_test_setup(test_uneven_split, setup), cmocka_unit_test_setup(test_halo_traffic, setup),
    cmocka_unit_test_setup(test_deterministic, setup),    cmocka_unit_test_setup(test_snapshots, setup),    cmocka_unit_test_setup(test_too_many_ranks, setup),
    cmocka_unit_test_setup(test_thin_slabs, setup),       cmocka_unit_test_setup(test_set_fields, setup),   cmocka_unit_test_setup(test_bad_input, setup),
};

SBPMG_TEST_MAIN(help, tests)
