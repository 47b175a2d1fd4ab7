/* Sources, receivers and traces of the acoustic operator on several MPI ranks (slabs along z): sources and receivers whose
   cells straddle the slabs, recorded on the rank that owns the cell and gathered on rank 0, give the traces of one rank
   bit for bit (device and host); the trace files and the shot gather are those one rank writes; bad input fails on
   every rank. Registered for 2 and 4 ranks (tests/acoustic.cmake). */
#include "harness.h"
#include <unistd.h>

static const char help[] = "Tests of the acoustic operator's sources and receivers on several MPI ranks (src/acoustic).\n";

/* A failed check on some ranks only: counted, then reduced over the ranks before asserting (a rank that left the test
   would hang the others in the next collective call). */
static int failures(int ok, const char *what, int line)
{
  if (!ok) print_error("%s:%d: check failed: %s\n", __FILE__, line, what);
  return !ok;
}
#define SURVEY_CHECK(cond) failed += failures((cond) ? 1 : 0, #cond, __LINE__)

static void expect_no_failure(int failed)
{
  PCALL(MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD));
  assert_int_equal(failed, 0);
}

/* 30 x 28 x 36 points of 10 m, PML 4: slab boundaries at planes 18 (2 ranks) and 9, 18, 27 (4 ranks). Sources and
   receivers sit between those planes (their cells on two slabs), one of each on a grid point; a layered model; a
   sample every 2 steps. */
static void create_survey(MPI_Comm comm, AcousticBackend backend, Acoustic *out)
{
  const PetscReal vel[2] = {2000, 2800}, zi = 215,
                  rec[5][3] = {{73.3, 81.7, 87.4}, {150, 120, 180}, {201.2, 99.9, 175.5}, {120.5, 170.25, 266.6}, {90, 90, 90}};
  Acoustic ac;

  PCALL(AcousticCreate(comm, &ac));
  PCALL(AcousticSetSizes(ac, 30, 28, 36));
  PCALL(AcousticSetSpacing(ac, 10, 10, 10));
  PCALL(AcousticSetDamping(ac, 4));
  PCALL(AcousticSetBackend(ac, backend));
  PCALL(AcousticSetVelocityLayers(ac, 2, vel, &zi));
  PCALL(AcousticSetMaxVelocity(ac, 0));
  PCALL(AcousticSetSourceWavelet(ac, 40, 1));
  PCALL(AcousticAddSource(ac, 140.5, 130.2, 175.0, 0, 1));    /* planes 17 and 18 */
  PCALL(AcousticAddSource(ac, 100.0, 150.0, 85.5, 0.01, -2)); /* planes 8 and 9 */
  PCALL(AcousticAddSource(ac, 180, 100, 270, 0.02, 0.5));     /* plane 27, a grid point */
  PCALL(AcousticSetReceivers(ac, 5, &rec[0][0]));
  PCALL(AcousticSetTraceInterval(ac, 2));
  PCALL(AcousticSetUp(ac));
  *out = ac;
}

/* The traces after K steps on comm, on rank 0 of comm (allocated there). */
static PetscReal *survey_traces(MPI_Comm comm, AcousticBackend backend, PetscInt K, PetscInt *nrec, PetscInt *ns)
{
  Acoustic    ac;
  PetscReal  *tr = NULL;
  PetscMPIInt rank;

  PCALL(MPI_Comm_rank(comm, &rank));
  create_survey(comm, backend, &ac);
  PCALL(AcousticStep(ac, K));
  PCALL(AcousticGetTraceSizes(ac, nrec, ns, NULL));
  if (!rank) PCALL(PetscMalloc1(*nrec * *ns, &tr));
  PCALL(AcousticGetTraces(ac, tr));
  PCALL(AcousticDestroy(&ac));
  return tr;
}

/* P ranks give one rank's traces bit for bit, on the device and on the host. */
static void test_traces_as_one_rank(void **state)
{
  PetscMPIInt rank, size;
  int         failed = 0;

  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  for (PetscInt b = 0; b < 2; b++) {
    PetscInt   nrec, ns, nrec1, ns1;
    PetscReal *tr = survey_traces(PETSC_COMM_WORLD, (AcousticBackend)b, 61, &nrec, &ns);

    if (!rank) {
      PetscReal *one = survey_traces(PETSC_COMM_SELF, (AcousticBackend)b, 61, &nrec1, &ns1), m = 0;
      for (PetscInt p = 0; p < nrec * ns; p++) m = PetscMax(m, PetscAbsReal(one[p]));
      print_message("  %s: %d receivers x %d samples on %d ranks (max %.3e): %s\n", b ? "host" : "device", (int)nrec, (int)ns, (int)size, (double)m,
                    nrec == nrec1 && ns == ns1 && !memcmp(tr, one, nrec * ns * sizeof(PetscReal)) ? "the same bits as one rank" : "DIFFERENT");
      SURVEY_CHECK(nrec == 5 && ns == 31 && nrec1 == nrec && ns1 == ns && m > 0);
      SURVEY_CHECK(!memcmp(tr, one, nrec * ns * sizeof(PetscReal)));
      PCALL(PetscFree(one));
      PCALL(PetscFree(tr));
    }
  }
  expect_no_failure(failed);
}

/* A whole small file on rank 0 (NULL if it cannot be read). */
static char *slurp(const char *path, size_t *len)
{
  FILE *fp = fopen(path, "rb");
  char *buf;

  *len = 0;
  if (!fp) return NULL;
  buf = malloc(1 << 21);
  if (buf) *len = fread(buf, 1, 1 << 21, fp);
  fclose(fp);
  return buf;
}

/* The .npy file and the shot gather written from P ranks are the files one rank writes. */
static void test_files_as_one_rank(void **state)
{
  PetscMPIInt rank;
  int         pid = (int)getpid(), failed = 0;
  char        name[2][2][64];
  Acoustic    ac;

  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PCALL(MPI_Bcast(&pid, 1, MPI_INT, 0, PETSC_COMM_WORLD));
  for (int q = 0; q < 2; q++) {
    PCALL(PetscSNPrintf(name[q][0], sizeof(name[q][0]), "ac_svmpi_%d_%d.npy", pid, q));
    PCALL(PetscSNPrintf(name[q][1], sizeof(name[q][1]), "ac_svmpi_%d_%d.png", pid, q));
  }
  for (int q = 0; q < 2 && (!q || !rank); q++) {
    create_survey(q ? PETSC_COMM_SELF : PETSC_COMM_WORLD, ACOUSTIC_BACKEND_DEVICE, &ac);
    PCALL(AcousticStep(ac, 40));
    PCALL(AcousticWriteTraces(ac, name[q][0]));
    PCALL(AcousticWriteShotGatherPNG(ac, name[q][1], 98));
    if (!q) EXPECT_ERROR(AcousticWriteTraces(ac, "/nonexistent-dir/t.npy"), PETSC_ERR_FILE_OPEN, "/nonexistent-dir/t.npy");
    PCALL(AcousticDestroy(&ac));
  }
  if (!rank) {
    for (int f = 0; f < 2; f++) {
      size_t na, nb;
      char  *a = slurp(name[0][f], &na), *b = slurp(name[1][f], &nb);
      SURVEY_CHECK(a && b && na == nb && na > 500 && !memcmp(a, b, na));
      free(a);
      free(b);
      SURVEY_CHECK(!unlink(name[0][f]) && !unlink(name[1][f]));
    }
  }
  expect_no_failure(failed);
}

/* A receiver outside the grid fails on every rank with the same message. */
static void test_bad_receiver(void **state)
{
  const PetscReal x[6] = {100, 100, 100, 100, 100, 400};
  Acoustic        ac;

  PCALL(AcousticCreate(PETSC_COMM_WORLD, &ac));
  PCALL(AcousticSetSizes(ac, 30, 28, 36));
  PCALL(AcousticSetSpacing(ac, 10, 10, 10));
  PCALL(AcousticSetDamping(ac, 4));
  PCALL(AcousticSetReceivers(ac, 2, x));
  EXPECT_ERROR(AcousticSetUp(ac), PETSC_ERR_ARG_OUTOFRANGE, "Receiver 1 at (100., 100., 400.) m is outside the grid [0, 290.] x [0, 270.] x [0, 350.] m");
  PCALL(AcousticDestroy(&ac));
}

static int setup(void **state)
{
  SbpmgCL cl;
  return (int)SbpmgCLGetDefault(&cl);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup(test_traces_as_one_rank, setup),
    cmocka_unit_test_setup(test_files_as_one_rank, setup),
    cmocka_unit_test_setup(test_bad_receiver, setup),
};

SBPMG_TEST_MAIN(help, tests)
