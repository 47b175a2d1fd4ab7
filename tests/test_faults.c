/* Error paths by fault injection (src/cl/fault.c), as SQLite fails every allocation in turn: for each kind of device failure (an
   allocation, a kernel build, a transfer) and each k = 1, 2, ... up to the number of such events of a whole run, the k-th fails;
   the run must end in that PETSc error (never a crash), everything must destroy cleanly, and afterwards PETSc's allocations and
   the live OpenCL objects are back where they were (zero with the default context dropped). The runs: an SBP-SAT problem with
   its operator, right-hand side and apply; CG + sbpmg on it; an acoustic run with receivers, its steps and what reads it back.
   On one and on two ranks: on two, a rank whose device fails in a collective operation (a time step's exchange, a gather) must
   not leave the other waiting; it fails too, naming the rank. */
#include "test_sbp_common.h"
#include <sbpmg/private/climpl.h>
#include <sbpmg/private/acousticimpl.h>
#include <unistd.h>

/* The objects of a run: whatever it made before it failed, destroyed by the caller. */
typedef struct {
  SbpProblem p;
  Mat        A;
  Vec        u, g;
  KSP        ksp;
  Acoustic   ac;
} Run;

typedef PetscErrorCode (*RunFunction)(Run *);

static PetscErrorCode RunOperator(Run *r)
{
  PetscReal norm;

  PetscFunctionBeginUser;
  PetscCall(SbpProblemCreate(PETSC_COMM_WORLD, &r->p));
  PetscCall(SbpProblemSetSizes(r->p, 32, 24));
  PetscCall(SbpProblemSetBackend(r->p, SBP_BACKEND_DEVICE));
  PetscCall(SbpProblemSetUp(r->p));
  PetscCall(SbpProblemCreateOperator(r->p, &r->A));
  PetscCall(MatCreateVecs(r->A, &r->u, &r->g));
  PetscCall(SbpProblemComputeRHS(r->p, r->g));
  PetscCall(MatMult(r->A, r->g, r->u));
  PetscCall(VecNorm(r->u, NORM_2, &norm));
  PetscFunctionReturn(0);
}

static PetscErrorCode RunSolve(Run *r)
{
  PC pc;

  PetscFunctionBeginUser;
  PetscCall(RunOperator(r));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &r->ksp));
  PetscCall(KSPSetOperators(r->ksp, r->A, r->A));
  PetscCall(KSPSetType(r->ksp, KSPCG));
  PetscCall(KSPGetPC(r->ksp, &pc));
  PetscCall(PCSetType(pc, PCSBPMG));
  PetscCall(KSPSetTolerances(r->ksp, 1e-6, PETSC_DEFAULT, PETSC_DEFAULT, 50));
  PetscCall(VecSet(r->u, 0));
  PetscCall(KSPSolve(r->ksp, r->g, r->u));
  PetscFunctionReturn(0);
}

/* The files of the acoustic run (rank 0 writes them): this prefix, then .npy, .png, .vti. */
static char ac_files[64];

/* 24^3 with 5 receivers on a line across the slabs of two ranks (z from 6 to 17): the initial fields set again (zero), 6 steps
   with the wave field's finiteness checked within them (steps 3 and 6) and a trace buffer of 4 samples (read back during the
   steps), then what reads the fields back: the norms, the traces, a value, a z plane (from its owner, rank 1 of two), an x
   plane (cutting every slab), the field, and the files: the traces, the central z plane's picture, the field as VTK. */
static PetscErrorCode RunAcoustic(Run *r)
{
  const PetscReal  x0[3] = {6, 6, 6}, x1[3] = {17, 17, 17};
  static PetscReal traces[5 * 7], plane[24 * 24], field[24 * 24 * 24]; /* the outputs, static: nothing to free when a run fails */
  PetscReal        m, v;
  char             path[80];

  PetscFunctionBeginUser;
  PetscCall(AcousticCreate(PETSC_COMM_WORLD, &r->ac));
  PetscCall(AcousticSetSizes(r->ac, 24, 24, 24));
  PetscCall(AcousticSetDamping(r->ac, 4));
  PetscCall(AcousticSetSpacing(r->ac, 1, 1, 1)); /* the receivers in metres = grid points, inside the PML-free core */
  PetscCall(AcousticSetBackend(r->ac, ACOUSTIC_BACKEND_DEVICE));
  PetscCall(AcousticSetReceiversLine(r->ac, x0, x1, 5));
  PetscCall(AcousticSetCheckInterval(r->ac, 3));
  PetscCall(AcousticSetTuning_Private(r->ac, "ac_trace_samples=4"));
  PetscCall(AcousticSetUp(r->ac));
  PetscCall(AcousticSetFields(r->ac, NULL, NULL));
  PetscCall(AcousticStep(r->ac, 6));
  PetscCall(AcousticGetNorms(r->ac, &m, NULL));
  PetscCall(AcousticGetTraces(r->ac, traces));
  PetscCall(AcousticGetValue(r->ac, 12, 12, 18, &v));
  PetscCall(AcousticGetSlice_Private(r->ac, ACOUSTIC_FIELD_U, 2, 18, plane));
  PetscCall(AcousticGetSlice_Private(r->ac, ACOUSTIC_FIELD_U, 0, 12, plane));
  PetscCall(AcousticGetField(r->ac, ACOUSTIC_FIELD_U, field));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s.npy", ac_files));
  PetscCall(AcousticWriteTraces(r->ac, path));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s.png", ac_files));
  PetscCall(AcousticWriteSlicePNG(r->ac, path));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s.vti", ac_files));
  PetscCall(AcousticWriteVTK(r->ac, path));
  PetscFunctionReturn(0);
}

static void destroy_run(Run *r)
{
  PCALL(KSPDestroy(&r->ksp));
  PCALL(VecDestroy(&r->u));
  PCALL(VecDestroy(&r->g));
  PCALL(MatDestroy(&r->A));
  PCALL(SbpProblemDestroy(&r->p));
  PCALL(AcousticDestroy(&r->ac));
}

/* Whether any rank failed (the faults are injected alike on every rank; a run must fail on all or none). */
static PetscBool any_failed(PetscErrorCode ierr)
{
  PetscMPIInt mine = ierr ? 1 : 0, any;

  PCALL(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD));
  return any ? PETSC_TRUE : PETSC_FALSE;
}

/* After a run, its objects destroyed and the default context dropped: PETSc's allocations as before, no OpenCL object alive. */
static PetscBool check_clean(PetscLogDouble before, const char *what, const char *kind, PetscInt k)
{
  static SbpmgCLStats   last;     /* the live objects after the previous check: a leak is reported once, at the run that made it */
  static PetscLogDouble last_mem; /* likewise PETSc's allocations, from before the first event of a walk */
  PetscLogDouble        now;
  SbpmgCLStats          s;
  PetscBool             clean = PETSC_TRUE;

  PCALL(SbpmgCLResetDefault());
  PCALL(PetscMallocGetCurrentUsage(&now));
  PCALL(SbpmgCLGetGlobalStats(&s));
  if (!k) last_mem = before;
  if (now != last_mem) {
    print_error("%s, %s %d failed: %.0f bytes of PETSc memory left\n", what, kind, (int)k, (double)(now - last_mem));
    clean = PETSC_FALSE;
  }
  last_mem = now;
  if (s.live_buffers != last.live_buffers || s.live_kernels != last.live_kernels || s.live_programs != last.live_programs ||
      s.live_queues != last.live_queues || s.live_contexts != last.live_contexts) {
    print_error("%s, %s %d failed: live OpenCL objects left: %d buffers, %d kernels, %d programs, %d queues, %d contexts\n", what, kind, (int)k,
                (int)(s.live_buffers - last.live_buffers), (int)(s.live_kernels - last.live_kernels), (int)(s.live_programs - last.live_programs),
                (int)(s.live_queues - last.live_queues), (int)(s.live_contexts - last.live_contexts));
    clean = PETSC_FALSE;
  }
  last = s;
  return clean;
}

/* Every event of every kind of a run, failed in turn. On several ranks, other (if not NULL): the message of a rank that another
   rank's failure stopped where the walk must reach (the walk counts the runs that end so on some rank, and needs one). */
static void walk(RunFunction run, const char *what, const char *other)
{
  static const char *const kinds[] = {"allocation", "build", "transfer"};
  PetscInt                 stopped = 0; /* runs in which some rank ended in other */
  PetscMPIInt              size;
  PetscBool                trace = PETSC_FALSE;
  PetscInt                 only  = 0;

  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PCALL(PetscOptionsGetBool(NULL, NULL, "-faults_trace", &trace, NULL)); /* each injected error's traceback on stderr */
  PCALL(PetscOptionsGetInt(NULL, NULL, "-faults_at", &only, NULL));      /* that event only */

  for (int kind = 0; kind < SBPMG_FAULT_KINDS; kind++) {
    /* here: the runs that stopped some rank with other; partial: the runs that failed on some ranks only */
    PetscInt       events, failed = 0, dirty = 0, here = 0, partial = 0;
    PetscLogDouble before;
    Run            r = {0};

    PCALL(SbpmgCLFaultInject((SbpmgCLFaultKind)kind, 0)); /* a first run: what stays for the program's life (registrations) is made */
    PCALL((*run)(&r));
    destroy_run(&r);
    PCALL(SbpmgCLResetDefault());
    PCALL(PetscMallocGetCurrentUsage(&before));
    (void)check_clean(before, what, "warm-up", 0); /* records the live objects (none) */
    PCALL(SbpmgCLFaultInject((SbpmgCLFaultKind)kind, 0));
    PCALL((*run)(&r)); /* count the events of a clean run */
    events = SbpmgCLFaultEvents((SbpmgCLFaultKind)kind);
    PCALL(MPI_Allreduce(MPI_IN_PLACE, &events, 1, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD)); /* ranks may see different numbers */
    destroy_run(&r);
    if (!check_clean(before, what, "no event", 0)) fail_msg("%s: a run without a fault leaves objects behind", what);
    for (PetscInt k = 1; k <= events; k++) {
      PetscErrorCode ierr;
      Run            f = {0};

      if (only && k != only) continue;
      PCALL(SbpmgCLFaultInject((SbpmgCLFaultKind)kind, k));
      PCALL(PetscPushErrorHandler(trace ? PetscTraceBackErrorHandler : PetscReturnErrorHandler, NULL));
      ierr = (*run)(&f);
      PCALL(PetscPopErrorHandler());
      if (any_failed(ierr)) {
        const char *text;
        char       *msg  = NULL;
        PetscMPIInt mine = 0, any;
        failed++;
        if (ierr) {
          PetscErrorMessage(ierr, &text, &msg);
          if (!msg || (!strstr(msg, "a fault injected for testing") && !strstr(msg, "failed on rank"))) /* the fault, or another rank's */
            fail_msg("%s, %s %d failed: the run ended in another error: %d %s", what, kinds[kind], (int)k, (int)ierr, msg ? msg : "");
          mine = other && msg && strstr(msg, other) ? 1 : 0;
        }
        PCALL(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD));
        here += any;
        mine = ierr ? 0 : 1; /* this rank ended without an error: the others' error was not collective */
        PCALL(MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD));
        partial += mine;
      }
      PCALL(SbpmgCLFaultInject((SbpmgCLFaultKind)kind, 0));
      destroy_run(&f);
      if (!check_clean(before, what, kinds[kind], k)) dirty++;
    }
    print_message("  %s: %d %ss, each failed in turn: %d runs ended in the error, %d left objects behind", what, (int)events, kinds[kind], (int)failed,
                  (int)dirty);
    if (other && size > 1) print_message("; %d stopped another rank with \"%s\"", (int)here, other);
    print_message("\n");
    stopped += here;
    if (dirty) fail_msg("%s: %d of %d injected %s left objects behind", what, (int)dirty, (int)events, kinds[kind]);
    if (partial) fail_msg("%s: %d of %d injected %s ended the run on some ranks only", what, (int)partial, (int)events, kinds[kind]);
    if (events && failed != events && !only) fail_msg("%s: %d of %d injected %s did not end the run", what, (int)(events - failed), (int)events, kinds[kind]);
  }
  if (other && size > 1 && !stopped && !only) fail_msg("%s: no injected fault stopped another rank with \"%s\"", what, other);
}

/* PETSc counts its allocations only with -malloc_debug (the CTest runs pass it): without, the memory check would pass vacuously. */
static void require_malloc_tracking(void)
{
  PetscBool basic;

  PCALL(PetscMallocGetDebug(&basic, NULL, NULL));
  if (!basic) fail_msg("run with -malloc_debug: PETSc does not count its allocations without it");
}

static void test_operator(void **state)
{
  require_malloc_tracking();
  walk(RunOperator, "problem, operator, right-hand side, apply", NULL);
}

static void test_solve(void **state)
{
  require_malloc_tracking();
  walk(RunSolve, "CG + sbpmg", NULL);
}

static void test_acoustic(void **state)
{
  static const char *const ext[3] = {"npy", "png", "vti"};
  PetscMPIInt              rank;
  int                      pid = (int)getpid();

  require_malloc_tracking();
  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PCALL(MPI_Bcast(&pid, 1, MPI_INT, 0, PETSC_COMM_WORLD)); /* rank 0's: one name on every rank */
  PCALL(PetscSNPrintf(ac_files, sizeof(ac_files), "faults_ac_%d", pid));
  walk(RunAcoustic, "acoustic run with receivers", "The acoustic time step failed on rank"); /* a device failure in a step on one rank */
  for (int e = 0; e < 3 && !rank; e++) {
    char path[80];
    PCALL(PetscSNPrintf(path, sizeof(path), "%s.%s", ac_files, ext[e]));
    (void)remove(path);
  }
}

static const struct CMUnitTest tests[] = {cmocka_unit_test(test_operator), cmocka_unit_test(test_solve), cmocka_unit_test(test_acoustic)};

SBPMG_TEST_MAIN("Error paths by fault injection.\n", tests)
