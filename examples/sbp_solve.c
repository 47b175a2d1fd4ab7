/* Solve the manufactured SBP-SAT problem (docs/guide.md; curved basin by default) with any PETSc KSP/PC.

     sbp_solve -sbp_n 256                                   CG + sbpmg on the device (the default)
     sbp_solve -sbp_n 256 -sbp_operator assembled -ksp_type preonly -pc_type cholesky -pc_factor_mat_solver_type cholmod
     sbp_solve -sbp_n 256 -sbp_operator assembled -pc_type gamg

   Prints N, the device, iterations, both error norms of docs/guide.md's manufactured solution, the set-up, right-hand side and
   solve times, the time to solution, the process's start (to main, in PetscInitialize) and its wall time (at the report and at exit). -log_view names its
   phases as stages: Device (the OpenCL context), Setup (problem, operator, KSP and PC), Solve (right-hand side and solves), Report (the error norms), Teardown.
 */
#include <sbpmg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char help[] = "Solve the SBP-SAT manufactured problem with a PETSc KSP (default CG + sbpmg).\n"
                           "  -sbp_operator <matfree|assembled> : the operator handed to the KSP (default matfree)\n"
                           "  -sbp_pmat <same|assembled>        : the preconditioning matrix (default same)\n"
                           "  -sbp_solve_repeat <n>             : solve n times, report the last (the first includes kernel builds)\n";

typedef enum { OPERATOR_MATFREE, OPERATOR_ASSEMBLED } OperatorType;
static const char *const OperatorTypes[] = {"matfree", "assembled", "OperatorType", "OPERATOR_", NULL};
typedef enum { PMAT_SAME, PMAT_ASSEMBLED } PmatType;
static const char *const PmatTypes[] = {"same", "assembled", "PmatType", "PMAT_", NULL};

/* The objects of the solve: the problem, the operator A handed to the KSP and the preconditioning matrix P (NULL: A), the solution u
   and the right-hand side g, the KSP */
typedef struct {
  SbpProblem p;
  Mat        A, P;
  Vec        u, g;
  KSP        ksp;
  SbpBackend backend;
} SolveContext;

/* Seconds of wall time since the process started: Linux's start time of the process (/proc/self/stat, field 22, in clock ticks since
   boot) against the time since boot (/proc/uptime), which counts the loading of the libraries before main too; elsewhere since t0. */
static double ProcessSeconds(const struct timespec *t0)
{
  FILE              *f;
  double             up = -1, ticks = 0;
  unsigned long long start = 0;
  struct timespec    t;

  if ((f = fopen("/proc/uptime", "r"))) {
    if (fscanf(f, "%lf", &up) != 1) up = -1;
    fclose(f);
  }
  if (up >= 0 && (f = fopen("/proc/self/stat", "r"))) {
    char buf[1024], *q = NULL;
    if (fgets(buf, sizeof(buf), f)) q = strrchr(buf, ')'); /* the command name may hold spaces: fields from after its ')' */
    fclose(f);
    if (q && sscanf(q + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu", &start) == 1)
      ticks = (double)sysconf(_SC_CLK_TCK);
    if (ticks > 0) return up - (double)start / ticks;
  }
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* The device queue drained, when the problem is on the device */
static PetscErrorCode DeviceFinish(const SolveContext *s)
{
  SbpmgCL cl;

  PetscFunctionBeginUser;
  if (s->backend != SBP_BACKEND_DEVICE) PetscFunctionReturn(0);
  PetscCall(SbpmgCLGetDefault(&cl));
  PetscCall(SbpmgCLFinish(cl));
  PetscFunctionReturn(0);
}

/* Start the OpenCL device (the default context: the driver's initialisation, paid once by a process however many problems it
   sets up), timed apart from the set-up of the problem; nothing for the assembled operator or -sbp_backend host, and where no
   device can be started the problem falls back to the host by itself (SbpProblemSetBackend). */
static PetscErrorCode DeviceStart(OperatorType optype, PetscLogDouble *tdevice)
{
  char           backend[16] = "auto";
  PetscLogDouble t0, t1;
  SbpmgCL        cl = NULL;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  *tdevice = 0;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-sbp_backend", backend, sizeof(backend), NULL));
  if (optype == OPERATOR_ASSEMBLED || !strcmp(backend, "host")) PetscFunctionReturn(0);
  PetscCall(PetscTime(&t0));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SbpmgCLGetDefault(&cl);
  if (!ierr) ierr = SbpmgCLFinish(cl);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscTime(&t1));
  if (!ierr) *tdevice = t1 - t0;
  PetscFunctionReturn(0);
}

/* The problem from the options (on the host for assembled matrices, which act on host vectors), its operators and vectors, and CG +
   sbpmg to 1e-8 (the options may name any other KSP and PC), set up */
static PetscErrorCode SolveSetUp(OperatorType optype, PmatType pmtype, SolveContext *s)
{
  PC pc;

  PetscFunctionBeginUser;
  PetscCall(SbpProblemCreate(PETSC_COMM_WORLD, &s->p));
  if (optype == OPERATOR_ASSEMBLED) PetscCall(SbpProblemSetBackend(s->p, SBP_BACKEND_HOST));
  PetscCall(SbpProblemSetFromOptions(s->p));
  PetscCall(SbpProblemSetUp(s->p));
  PetscCall(SbpProblemGetBackend(s->p, &s->backend));
  if (optype == OPERATOR_ASSEMBLED)
    PetscCall(SbpProblemCreateAssembledOperator(s->p, &s->A));
  else
    PetscCall(SbpProblemCreateOperator(s->p, &s->A));
  s->P = NULL;
  if (pmtype == PMAT_ASSEMBLED && optype != OPERATOR_ASSEMBLED) PetscCall(SbpProblemCreateAssembledOperator(s->p, &s->P));
  PetscCall(MatCreateVecs(s->A, &s->u, &s->g));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &s->ksp));
  PetscCall(KSPSetOperators(s->ksp, s->A, s->P ? s->P : s->A));
  PetscCall(KSPSetType(s->ksp, KSPCG));
  PetscCall(KSPGetPC(s->ksp, &pc));
  PetscCall(PCSetType(pc, PCSBPMG));
  PetscCall(KSPSetTolerances(s->ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPSetFromOptions(s->ksp));
  PetscCall(KSPSetUp(s->ksp));
  PetscCall(DeviceFinish(s)); /* the set-up's device work belongs to its time */
  PetscFunctionReturn(0);
}

/* The right-hand side of the problem's data (the manufactured solution's), timed apart: it is the problem's data, not the
   set-up, and a time series builds it every step (docs/guide.md) */
static PetscErrorCode ComputeRHS(SolveContext *s, PetscLogDouble *trhs)
{
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  PetscCall(PetscTime(&t0));
  PetscCall(SbpProblemComputeRHS(s->p, s->g));
  PetscCall(DeviceFinish(s));
  PetscCall(PetscTime(&t1));
  *trhs = t1 - t0;
  PetscFunctionReturn(0);
}

/* repeat solves from zero; the time of the last */
static PetscErrorCode SolveRepeated(SolveContext *s, PetscInt repeat, PetscLogDouble *tsolve)
{
  PetscLogDouble t1, t2;

  PetscFunctionBeginUser;
  for (PetscInt r = 0; r < repeat; r++) {
    PetscCall(VecSet(s->u, 0));
    PetscCall(PetscBarrier((PetscObject)s->ksp));
    PetscCall(PetscTime(&t1));
    PetscCall(KSPSolve(s->ksp, s->g, s->u));
    PetscCall(DeviceFinish(s));
    PetscCall(PetscBarrier((PetscObject)s->ksp));
    PetscCall(PetscTime(&t2));
    *tsolve = t2 - t1;
  }
  PetscFunctionReturn(0);
}

/* Seconds since the process started, at main and after PetscInitialize: the start that no -log_view stage can see */
static double t_start[2];

/* N, the device, the KSP and PC, iterations, both error norms (docs/guide.md), set-up, right-hand side and solve times; an error unless the
   solve converged */
static PetscErrorCode SolveReport(const SolveContext *s, PetscLogDouble tdevice, PetscLogDouble tsetup, PetscLogDouble trhs, PetscLogDouble tsolve,
                                  const struct timespec *t0)
{
  PetscInt           Nr, Ns, its;
  PetscReal          eH, eJH, rnorm;
  KSPConvergedReason reason;
  KSPType            ktype;
  PCType             ptype;
  PC                 pc;
  const char        *device = "host";

  PetscFunctionBeginUser;
  PetscCall(SbpProblemGetSizes(s->p, &Nr, &Ns));
  if (s->backend == SBP_BACKEND_DEVICE) {
    SbpmgCL cl;
    PetscCall(SbpmgCLGetDefault(&cl));
    PetscCall(SbpmgCLGetDeviceName(cl, &device));
  }
  PetscCall(KSPGetIterationNumber(s->ksp, &its));
  PetscCall(KSPGetConvergedReason(s->ksp, &reason));
  PetscCall(KSPGetResidualNorm(s->ksp, &rnorm));
  PetscCall(KSPGetType(s->ksp, &ktype));
  PetscCall(KSPGetPC(s->ksp, &pc));
  PetscCall(PCGetType(pc, &ptype));
  PetscCall(SbpProblemComputeError(s->p, s->u, &eH, &eJH));
  PetscCall(
      PetscPrintf(PETSC_COMM_WORLD, "SBP-SAT %" PetscInt_FMT " x %" PetscInt_FMT " (%" PetscInt_FMT " unknowns) on %s\n", Nr, Ns, (Nr + 1) * (Ns + 1), device));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  KSP %s + PC %s: %" PetscInt_FMT " iterations, %s, residual norm %.3e\n", ktype, ptype, its,
                        KSPConvergedReasons[reason], (double)rnorm));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  error ||e||_H = %.6e  ||e||_JH = %.6e\n", (double)eH, (double)eJH));
  if (tdevice > 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  device start %.4f s (once a process)\n", tdevice));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  set-up %.4f s, right-hand side %.4f s, solve %.4f s (%.3f ms per iteration), time to solution %.4f s\n", tsetup,
                        trhs, tsolve, its ? 1e3 * tsolve / its : 0.0, tsetup + trhs + tsolve));
  { /* the peak host memory: the process's, and PETSc's own allocations where they are traced (-malloc_debug, -malloc_view) */
    PetscLogDouble rss = 0, mal = 0;
    PetscCall(PetscMemoryGetMaximumUsage(&rss));
    PetscCall(PetscMallocGetMaximumUsage(&mal));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  peak host memory: process %.1f MB", rss / 1e6));
    if (mal > 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, ", PetscMalloc %.1f MB (%.1f bytes per grid point)", mal / 1e6, mal / ((Nr + 1.0) * (Ns + 1.0))));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  process start: %.2f s to main (loading the libraries), %.2f s in PetscInitialize (MPI, PETSc)\n", t_start[0],
                        t_start[1] - t_start[0]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  process wall time %.2f s so far (since the process started: libraries, MPI, device, the above and the report)\n",
                        ProcessSeconds(t0)));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "The solve did not converge: %s", KSPConvergedReasons[reason]);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  struct timespec t_main;
  PetscMPIInt     rank;
  SolveContext    s;
  OperatorType    optype = OPERATOR_MATFREE;
  PmatType        pmtype = PMAT_SAME;
  PetscInt        repeat = 1;
  PetscLogDouble  t0, t1, tdevice = 0, trhs = 0, tsolve = 0;
  PetscLogStage   stage_device, stage_setup, stage_solve, stage_report, stage_teardown;

  clock_gettime(CLOCK_MONOTONIC, &t_main);
  t_start[0] = ProcessSeconds(&t_main);
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  t_start[1] = ProcessSeconds(&t_main);
  PetscCall(PetscMemorySetGetMaximumUsage());
  PetscCall(SbpmgInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "sbp_solve options", NULL);
  PetscCall(PetscOptionsEnum("-sbp_operator", "Operator handed to the KSP", NULL, OperatorTypes, (PetscEnum)optype, (PetscEnum *)&optype, NULL));
  PetscCall(PetscOptionsEnum("-sbp_pmat", "Preconditioning matrix", NULL, PmatTypes, (PetscEnum)pmtype, (PetscEnum *)&pmtype, NULL));
  PetscCall(PetscOptionsInt("-sbp_solve_repeat", "Number of solves (timing of the last)", NULL, repeat, &repeat, NULL));
  PetscOptionsEnd();
  PetscCheck(repeat >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-sbp_solve_repeat %" PetscInt_FMT " must be >= 1", repeat);
  PetscCall(PetscLogStageRegister("Device", &stage_device));
  PetscCall(PetscLogStageRegister("Setup", &stage_setup));
  PetscCall(PetscLogStageRegister("Solve", &stage_solve));
  PetscCall(PetscLogStageRegister("Report", &stage_report));
  PetscCall(PetscLogStageRegister("Teardown", &stage_teardown));

  PetscCall(PetscLogStagePush(stage_device));
  PetscCall(DeviceStart(optype, &tdevice));
  PetscCall(PetscLogStagePop());

  PetscCall(PetscLogStagePush(stage_setup));
  PetscCall(PetscTime(&t0));
  PetscCall(SolveSetUp(optype, pmtype, &s));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscLogStagePop());

  PetscCall(PetscLogStagePush(stage_solve));
  PetscCall(ComputeRHS(&s, &trhs));
  PetscCall(SolveRepeated(&s, repeat, &tsolve));
  PetscCall(PetscLogStagePop());

  PetscCall(PetscLogStagePush(stage_report));
  PetscCall(SolveReport(&s, tdevice, t1 - t0, trhs, tsolve, &t_main));
  PetscCall(PetscLogStagePop());

  PetscCall(PetscLogStagePush(stage_teardown));
  PetscCall(KSPDestroy(&s.ksp));
  PetscCall(VecDestroy(&s.u));
  PetscCall(VecDestroy(&s.g));
  PetscCall(MatDestroy(&s.A));
  PetscCall(MatDestroy(&s.P));
  PetscCall(SbpProblemDestroy(&s.p));
  PetscCall(PetscLogStagePop());
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscFinalize());
  if (!rank) printf("  process wall time at exit %.2f s\n", ProcessSeconds(&t_main));
  return 0;
}
