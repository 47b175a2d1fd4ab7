/* The acoustic sources' window refill on several MPI ranks (src/acoustic/points.c: the table holds W steps of every source and is
   refilled, and written to the device, when the run leaves it): a survey of many sources (W = 16384 / sources steps) whose
   delays spread over several windows, run for several windows on 2 or 3 ranks (slabs along z), gives the traces of one rank
   to rounding, on the device and on the host; sources fire late in the run (their traces are not zero at the end). Registered
   for 2 and 3 ranks (tests/acoustic_refill.cmake). */
#include "harness.h"
#include <sbpmg/private/acousticimpl.h>

static const char help[] = "Tests of the acoustic sources' window refill on several MPI ranks (src/acoustic).\n";

#define NSRC  240 /* W = 16384 / 240 = 68 steps */
#define STEPS 230 /* more than 3 windows */

/* A failed check on some ranks only: counted, then reduced over the ranks before asserting (a rank that left the test would hang
   the others in the next collective call). */
static int failures(int ok, const char *what, int line)
{
  if (!ok) print_error("%s:%d: check failed: %s\n", __FILE__, line, what);
  return !ok;
}
#define REFILL_CHECK(cond) failed += failures((cond) ? 1 : 0, #cond, __LINE__)

static void expect_no_failure(int failed)
{
  PCALL(MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD));
  assert_int_equal(failed, 0);
}

/* 30 x 28 x 36 points of 10 m, PML 4 (slab boundaries at plane 18 on 2 ranks, 12 and 24 on 3): NSRC sources on a lattice in
   the interior (planes 6 .. 29, across every slab boundary), source s delayed by s/NSRC of the run's time, amplitudes of both
   signs; 6 receivers, a sample every 3 steps. W and dt on return. */
static Acoustic create_survey(MPI_Comm comm, AcousticBackend backend, PetscInt *W)
{
  const PetscReal rec[6][3] = {{73.3, 81.7, 87.4}, {150, 120, 180}, {201.2, 99.9, 175.5}, {120.5, 170.25, 266.6}, {90, 90, 90}, {150, 140, 245}};
  Acoustic        ac;
  PetscReal       dt;

  PCALL(AcousticCreate(comm, &ac));
  PCALL(AcousticSetSizes(ac, 30, 28, 36));
  PCALL(AcousticSetSpacing(ac, 10, 10, 10));
  PCALL(AcousticSetDamping(ac, 4));
  PCALL(AcousticSetBackend(ac, backend));
  PCALL(AcousticSetVelocity(ac, 2500));
  PCALL(AcousticSetMaxVelocity(ac, 0));
  PCALL(AcousticSetSourceWavelet(ac, 60, 1));
  PCALL(AcousticSetCFL(ac, 0.8));
  dt = 0.8 * 10 / (2500 * PetscSqrtReal(3.0)); /* an estimate: the delays only need to spread over the run */
  for (PetscInt s = 0; s < NSRC; s++) {
    const PetscReal x = 60 + 13.7 * (s % 12), y = 60 + 17.3 * ((s / 12) % 10), z = 62.5 + 11.9 * (s / 120) + 97.3 * ((s * 7) % 3);
    PCALL(AcousticAddSource(ac, x, y, z, (PetscReal)s / NSRC * STEPS * dt, (s % 3 ? 1 : -0.75) * (1 + 0.01 * s)));
  }
  PCALL(AcousticSetReceivers(ac, 6, &rec[0][0]));
  PCALL(AcousticSetTraceInterval(ac, 3));
  PCALL(AcousticSetUp(ac));
  *W = ac->sv.W;
  return ac;
}

/* The traces after STEPS steps on comm, on rank 0 of comm (allocated there); W of the run. */
static PetscReal *survey_traces(MPI_Comm comm, AcousticBackend backend, PetscInt *nrec, PetscInt *ns, PetscInt *W)
{
  Acoustic    ac = create_survey(comm, backend, W);
  PetscReal  *tr = NULL;
  PetscMPIInt rank;

  PCALL(MPI_Comm_rank(comm, &rank));
  PCALL(AcousticStep(ac, STEPS));
  PCALL(AcousticGetTraceSizes(ac, nrec, ns, NULL));
  if (!rank) PCALL(PetscMalloc1(*nrec * *ns, &tr));
  PCALL(AcousticGetTraces(ac, tr));
  PCALL(AcousticDestroy(&ac));
  return tr;
}

/* P ranks give one rank's traces to rounding, on the device and on the host, after several refills of the window. */
static void test_refill_as_one_rank(void **state)
{
  PetscMPIInt rank, size;
  int         failed = 0;

  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  for (PetscInt b = 0; b < 2; b++) {
    PetscInt   nrec, ns, W, nrec1 = 0, ns1 = 0, W1 = 0;
    PetscReal *tr = survey_traces(PETSC_COMM_WORLD, (AcousticBackend)b, &nrec, &ns, &W);

    if (!rank) {
      PetscReal *one = survey_traces(PETSC_COMM_SELF, (AcousticBackend)b, &nrec1, &ns1, &W1), m = 0, d = 0, late = 0;
      for (PetscInt p = 0; p < nrec * ns; p++) {
        m = PetscMax(m, PetscAbsReal(one[p]));
        d = PetscMax(d, PetscAbsReal(tr[p] - one[p]));
      }
      for (PetscInt r = 0; r < nrec; r++) late = PetscMax(late, PetscAbsReal(one[r * ns + ns - 1])); /* the last sample */
      print_message("  %s: %d sources, window of %d steps, %d steps; %d receivers x %d samples on %d ranks: max %.3e, at the end %.3e, "
                    "difference from one rank %.3e%s\n",
                    b ? "host" : "device", NSRC, (int)W, STEPS, (int)nrec, (int)ns, (int)size, (double)m, (double)late, (double)d,
                    nrec == nrec1 && ns == ns1 && !memcmp(tr, one, nrec * ns * sizeof(PetscReal)) ? " (the same bits)" : "");
      REFILL_CHECK(W == W1 && W == 16384 / NSRC && STEPS >= 3 * W);
      REFILL_CHECK(nrec == 6 && ns == STEPS / 3 + 1 && nrec1 == nrec && ns1 == ns);
      REFILL_CHECK(m > 0 && late > 1e-3 * m);
      REFILL_CHECK(d <= 1e-12 * m);
      PCALL(PetscFree(one));
      PCALL(PetscFree(tr));
    }
  }
  expect_no_failure(failed);
}

static int setup(void **state)
{
  SbpmgCL cl;
  return (int)SbpmgCLGetDefault(&cl);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup(test_refill_as_one_rank, setup),
};

SBPMG_TEST_MAIN(help, tests)
