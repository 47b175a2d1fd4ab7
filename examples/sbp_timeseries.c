/* A quasi-static time series as in earthquake-cycle codes (docs/guide.md "A time series"): the slip on face 1 grows every step,
   the solution of the step before is the next solve's initial guess, and the operator and the multigrid hierarchy are set up
   once.

     sbp_timeseries -sbp_n 256 -ts_steps 20                              CG + sbpmg on the device, warm-started steps
     sbp_timeseries -sbp_n 256 -ts_steps 20 -ts_t0 1000 -ts_compare_cold  late in a series; also each step from zero

   Face 1 is the fault, Dirichlet with u = slip(t, y) = t (V B(y) + V_load): a creeping patch B (a Gaussian bump centred on the
   face, a quarter of its length wide) plus a small uniform loading; face 2 is the remote boundary (Dirichlet 0), faces 3 and
   4 are free surfaces (Neumann 0); -sbp_bc changes faces 2-4. Each step sets the face's new values
   (SbpProblemSetBoundaryValues), builds the right-hand side again (SbpProblemComputeRHS: on the device, no set-up) and
   solves. Prints per step the iterations and the times of the update and the solve, at the end the totals. */
#include <sbpmg.h>
#include <float.h>

static const char help[] = "Quasi-static time series: new Dirichlet data on face 1 every step, warm-started CG + sbpmg.\n"
                           "  -ts_steps <n>       : time steps (default 10)\n"
                           "  -ts_dt <dt>         : time step (default 1)\n"
                           "  -ts_t0 <t0>         : time before the first step: the slip accumulated before the series (default 0)\n"
                           "  -ts_compare_cold    : also solve each step from a zero initial guess and compare\n";

#define SLIP_V      1.0 /* the slip rate at the centre of the creeping patch */
#define SLIP_V_LOAD 0.1 /* the loading rate, uniform along the face */

/* The options of the series. */
typedef struct {
  PetscInt  steps;
  PetscReal dt, t0;
  PetscBool cold;
} SeriesOptions;

/* The slip on face 1: the nodes' physical y (every rank has all of them), the creeping patch's centre and width, the values of
   the current step. */
typedef struct {
  PetscInt     n;
  PetscReal   *y, yc, w;
  PetscScalar *g;
} Slip;

/* The objects of the series: the problem, its operator, the warm-started solution u, the cold one uc (-ts_compare_cold), the
   right-hand side b, the KSP. */
typedef struct {
  SbpProblem p;
  Mat        A;
  Vec        u, uc, b;
  KSP        ksp;
  SbpBackend backend;
  Slip       slip;
} Series;

/* What one step measured: the update (new face values and the right-hand side) and the solves. */
typedef struct {
  PetscInt       its, its_cold;
  PetscLogDouble trhs, tsolve, tcold;
} StepResult;

static PetscErrorCode SeriesGetOptions(SeriesOptions *o)
{
  PetscFunctionBeginUser;
  o->steps = 10;
  o->dt    = 1;
  o->t0    = 0;
  o->cold  = PETSC_FALSE;
  { /* read as 64-bit: a value beyond PetscInt is an error naming it (PetscOptionsInt() would wrap -ts_steps 4294967297 to 1) */
    static const char *const ints[] = {"-ts_steps", NULL};
    PetscCall(SbpmgOptionsCheckInts(NULL, NULL, ints));
  }
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "sbp_timeseries options", NULL);
  PetscCall(PetscOptionsInt("-ts_steps", "Time steps", NULL, o->steps, &o->steps, NULL));
  PetscCall(PetscOptionsReal("-ts_dt", "Time step", NULL, o->dt, &o->dt, NULL));
  PetscCall(PetscOptionsReal("-ts_t0", "Time before the first step (the slip accumulated before the series)", NULL, o->t0, &o->t0, NULL));
  PetscCall(PetscOptionsBool("-ts_compare_cold", "Also solve each step from a zero initial guess and compare", NULL, o->cold, &o->cold, NULL));
  PetscOptionsEnd();
  PetscCheck(o->steps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ts_steps %" PetscInt_FMT " must be >= 1", o->steps);
  PetscCheck(!PetscIsInfOrNanReal(o->dt) && o->dt > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ts_dt %g must be finite and > 0", (double)o->dt);
  PetscCheck(PetscIsNormalReal(o->dt), PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE,
             "-ts_dt %g is below the smallest normal double (%g): the time would not advance by it", (double)o->dt, (double)DBL_MIN);
  PetscCheck(!PetscIsInfOrNanReal(o->t0) && o->t0 >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ts_t0 %g must be finite and >= 0", (double)o->t0);
  PetscFunctionReturn(0);
}

/* The device context of the problem, or NULL on the host. */
static PetscErrorCode SeriesGetCL(const Series *s, SbpmgCL *cl)
{
  PetscFunctionBeginUser;
  *cl = NULL;
  if (s->backend == SBP_BACKEND_DEVICE) PetscCall(SbpmgCLGetDefault(cl));
  PetscFunctionReturn(0);
}

/* The device queue drained (when the problem is on the device) and the ranks met: what a time measures has finished. */
static PetscErrorCode SeriesSync(const Series *s)
{
  SbpmgCL cl;

  PetscFunctionBeginUser;
  PetscCall(SeriesGetCL(s, &cl));
  if (cl) PetscCall(SbpmgCLFinish(cl));
  PetscCall(PetscBarrier((PetscObject)s->ksp));
  PetscFunctionReturn(0);
}

/* The physical y of face 1's nodes (i = 0, j = 0..Ns) on every rank: each rank fills those it owns, a sum gathers them. The
   creeping patch is centred on the face, its width a quarter of the face's extent in y. */
static PetscErrorCode SlipSetUp(SbpProblem p, Slip *slip)
{
  Vec                x, y;
  PetscInt           Nr, Ns, xs, ys, xm, ym;
  const PetscScalar *ya;
  PetscReal         *mine, ymin = PETSC_MAX_REAL, ymax = PETSC_MIN_REAL;

  PetscFunctionBeginUser;
  PetscCall(SbpProblemGetSizes(p, &Nr, &Ns));
  PetscCall(SbpProblemGetCorners(p, &xs, &ys, &xm, &ym));
  slip->n = Ns + 1;
  PetscCall(PetscCalloc1(slip->n, &mine));
  PetscCall(PetscMalloc2(slip->n, &slip->y, slip->n, &slip->g));
  PetscCall(SbpProblemGetCoordinates(p, &x, &y));
  PetscCall(VecGetArrayRead(y, &ya));
  if (xs == 0)
    for (PetscInt j = ys; j < ys + ym; j++) mine[j] = PetscRealPart(ya[xm * (j - ys)]); /* the owned block, r fastest */
  PetscCall(VecRestoreArrayRead(y, &ya));
  PetscCall(MPIU_Allreduce(mine, slip->y, (PetscMPIInt)slip->n, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)p)));
  for (PetscInt j = 0; j < slip->n; j++) {
    ymin = PetscMin(ymin, slip->y[j]);
    ymax = PetscMax(ymax, slip->y[j]);
  }
  slip->yc = (ymin + ymax) / 2;
  slip->w  = (ymax - ymin) / 4;
  PetscCall(PetscFree(mine));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(0);
}

/* slip(t, y) = t (V B(y) + V_load) at face 1's nodes, B(y) = exp(-((y - yc) / w)^2). */
static void SlipAt(Slip *slip, PetscReal t)
{
  for (PetscInt j = 0; j < slip->n; j++) {
    const PetscReal z = (slip->y[j] - slip->yc) / slip->w;
    slip->g[j]        = t * (SLIP_V * PetscExpReal(-z * z) + SLIP_V_LOAD);
  }
}

/* The problem from the options with faces D D N N unless -sbp_bc says otherwise (face 1 must stay Dirichlet: it carries the
   slip), its operator and vectors, CG + sbpmg set up once for the whole series. The test is ||r|| <= rtol ||b|| (default rtol
   1e-8): -ksp_norm_type unpreconditioned, because with a nonzero initial guess PETSc's default test compares the residual
   with the norm of the right-hand side in the KSP's norm, and CG's default (preconditioned) norm would make that ||B b||:
   an extra V-cycle every solve, and a warm and a cold solve stopping at different true residuals. */
static PetscErrorCode SeriesSetUp(Series *s)
{
  PC        pc;
  SbpBCType bc1;

  PetscFunctionBeginUser;
  PetscCall(SbpProblemCreate(PETSC_COMM_WORLD, &s->p));
  PetscCall(SbpProblemSetBC(s->p, 1, SBP_BC_DIRICHLET));
  PetscCall(SbpProblemSetBC(s->p, 2, SBP_BC_DIRICHLET));
  PetscCall(SbpProblemSetBC(s->p, 3, SBP_BC_NEUMANN));
  PetscCall(SbpProblemSetBC(s->p, 4, SBP_BC_NEUMANN));
  PetscCall(SbpProblemSetFromOptions(s->p));
  PetscCall(SbpProblemGetBC(s->p, 1, &bc1));
  PetscCheck(bc1 == SBP_BC_DIRICHLET, PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "Face 1 carries the slip: it must be Dirichlet (-sbp_bc D...), not Neumann");
  PetscCall(SbpProblemSetUp(s->p));
  PetscCall(SbpProblemGetBackend(s->p, &s->backend));
  PetscCall(SbpProblemCreateOperator(s->p, &s->A));
  PetscCall(MatCreateVecs(s->A, &s->u, &s->b));
  PetscCall(VecDuplicate(s->u, &s->uc));
  PetscCall(VecSet(s->u, 0));
  PetscCall(SlipSetUp(s->p, &s->slip));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &s->ksp));
  PetscCall(KSPSetOperators(s->ksp, s->A, s->A));
  PetscCall(KSPSetType(s->ksp, KSPCG));
  PetscCall(KSPGetPC(s->ksp, &pc));
  PetscCall(PCSetType(pc, PCSBPMG));
  PetscCall(KSPSetNormType(s->ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPSetTolerances(s->ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPSetFromOptions(s->ksp));
  PetscCall(KSPSetUp(s->ksp));
  PetscCall(SeriesSync(s)); /* the set-up's device work belongs to its time */
  PetscFunctionReturn(0);
}

/* One solve of b into x, from x (warm) or from zero (cold); an error unless it converged. */
static PetscErrorCode SeriesSolve(Series *s, Vec x, PetscBool warm, PetscInt *its, PetscLogDouble *time)
{
  KSPConvergedReason reason;
  PetscLogDouble     t0, t1;

  PetscFunctionBeginUser;
  PetscCall(KSPSetInitialGuessNonzero(s->ksp, warm));
  PetscCall(SeriesSync(s));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(s->ksp, s->b, x));
  PetscCall(SeriesSync(s));
  PetscCall(PetscTime(&t1));
  *time = t1 - t0;
  PetscCall(KSPGetIterationNumber(s->ksp, its));
  PetscCall(KSPGetConvergedReason(s->ksp, &reason));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "The %s solve did not converge: %s", warm ? "warm-started" : "cold",
             KSPConvergedReasons[reason]);
  PetscFunctionReturn(0);
}

/* The step at time t: face 1's new values, the right-hand side again, the solve from the step before's solution (the initial
   state: from zero), and with `cold` also from zero. */
static PetscErrorCode SeriesStep(Series *s, PetscReal t, PetscBool initial, PetscBool cold, StepResult *r)
{
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  SlipAt(&s->slip, t);
  PetscCall(SeriesSync(s));
  PetscCall(PetscTime(&t0));
  PetscCall(SbpProblemSetBoundaryValues(s->p, 1, SBP_BC_DIRICHLET, s->slip.n, s->slip.g));
  PetscCall(SbpProblemComputeRHS(s->p, s->b));
  PetscCall(SeriesSync(s));
  PetscCall(PetscTime(&t1));
  r->trhs = t1 - t0;
  PetscCall(SeriesSolve(s, s->u, initial ? PETSC_FALSE : PETSC_TRUE, &r->its, &r->tsolve));
  r->its_cold = 0;
  r->tcold    = 0;
  if (cold) PetscCall(SeriesSolve(s, s->uc, PETSC_FALSE, &r->its_cold, &r->tcold));
  PetscFunctionReturn(0);
}

/* The true relative residual ||b - A u|| / ||b|| of the last step (not the KSP's recurrence) and ||u||. */
static PetscErrorCode SeriesResidual(Series *s, PetscReal *rel, PetscReal *unorm)
{
  Vec       r;
  PetscReal rn, bn;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(s->b, &r));
  PetscCall(MatMult(s->A, s->u, r));
  PetscCall(VecAYPX(r, -1, s->b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(s->b, NORM_2, &bn));
  PetscCall(VecNorm(s->u, NORM_2, unorm));
  *rel = bn > 0 ? rn / bn : rn;
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(0);
}

/* Real set-ups of the PC so far (PETSc's PCSetUp event: a PCSetUp() that finds the operator unchanged returns before it), summed
   over the stages up to `last`; -1 where PETSc was built without logging. */
static PetscErrorCode PCSetUpCount(PetscLogStage last, PetscInt *count)
{
  PetscFunctionBeginUser;
  *count = -1;
#if defined(PETSC_USE_LOG)
  {
    PetscLogEvent ev;
    PetscCall(PetscLogEventGetId("PCSetUp", &ev));
    *count = 0;
    for (PetscLogStage st = 0; st <= last; st++) {
      PetscEventPerfInfo info;
      PetscCall(PetscLogEventGetPerfInfo(st, ev, &info));
      *count += info.count;
    }
  }
#endif
  PetscFunctionReturn(0);
}

/* Device programs built so far (compiled, or loaded from the disk cache); 0 on the host. */
static PetscErrorCode ProgramsBuilt(const Series *s, PetscInt *built)
{
  SbpmgCLStats st;
  SbpmgCL      cl;

  PetscFunctionBeginUser;
  PetscCall(SeriesGetCL(s, &cl));
  *built = 0;
  if (!cl) PetscFunctionReturn(0);
  PetscCall(SbpmgCLGetStats(cl, &st));
  *built = st.programs_built;
  PetscFunctionReturn(0);
}

/* The header of the table: N, the device, the tolerance. */
static PetscErrorCode SeriesHeader(const Series *s, const SeriesOptions *o)
{
  PetscInt    Nr, Ns;
  PetscReal   rtol;
  SbpmgCL     cl;
  const char *device = "host";

  PetscFunctionBeginUser;
  PetscCall(SbpProblemGetSizes(s->p, &Nr, &Ns));
  PetscCall(SeriesGetCL(s, &cl));
  if (cl) PetscCall(SbpmgCLGetDeviceName(cl, &device));
  PetscCall(KSPGetTolerances(s->ksp, &rtol, NULL, NULL, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "SBP-SAT %" PetscInt_FMT " x %" PetscInt_FMT " (%" PetscInt_FMT " unknowns) on %s: %" PetscInt_FMT
                        " steps of dt %g from t0 %g, rtol %g\n",
                        Nr, Ns, (Nr + 1) * (Ns + 1), device, o->steps, (double)o->dt, (double)o->t0, (double)rtol));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%5s %12s %5s %9s %9s", "step", "t", "its", "rhs ms", "solve s"));
  if (o->cold) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %9s %9s %7s", "cold its", "cold s", "ratio"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  PetscFunctionReturn(0);
}

static PetscErrorCode StepPrint(PetscInt k, PetscReal t, PetscBool cold, const StepResult *r)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%5" PetscInt_FMT " %12.5g %5" PetscInt_FMT " %9.3f %9.4f", k, (double)t, r->its, 1e3 * r->trhs, r->tsolve));
  if (cold) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %9" PetscInt_FMT " %9.4f %7.3f", r->its_cold, r->tcold, r->tcold > 0 ? r->tsolve / r->tcold : 0.0));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  PetscFunctionReturn(0);
}

/* The sums: over the steps 1..n (the series), the initial state's step 0 apart (t0 > 0), and over the steps compared
   (-ts_compare_cold): those after the run's first solve, which builds the device programs that the solves use (from step 1
   when there is a step 0, else from step 2). */
typedef struct {
  PetscInt       its, its_warm, its_cold, compared, first;
  PetscLogDouble tinit, trhs, tsolve, twarm, tcold;
} SeriesTotals;

static void TotalsAdd(SeriesTotals *tot, PetscInt k, const StepResult *r)
{
  if (k == 0) {
    tot->tinit = r->trhs + r->tsolve;
    return;
  }
  tot->its += r->its;
  tot->trhs += r->trhs;
  tot->tsolve += r->tsolve;
  if (k < tot->first) return;
  tot->compared++;
  tot->its_warm += r->its;
  tot->its_cold += r->its_cold;
  tot->twarm += r->tsolve;
  tot->tcold += r->tcold;
}

static PetscErrorCode SeriesReport(Series *s, const SeriesOptions *o, const SeriesTotals *tot, PetscLogDouble tsetup, PetscInt setups, PetscInt built)
{
  PetscReal rel = 0, unorm = 0, rtol;

  PetscFunctionBeginUser;
  PetscCall(SeriesResidual(s, &rel, &unorm));
  PetscCall(KSPGetTolerances(s->ksp, &rtol, NULL, NULL, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "set-up %.4f s (problem, operator, multigrid hierarchy); PC set-ups: %" PetscInt_FMT "\n", tsetup, setups));
  if (o->t0 > 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "initial state at t0 (step 0, from zero): %.4f s\n", tot->tinit));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "%" PetscInt_FMT " steps: %" PetscInt_FMT " iterations, updates %.4f s (%.3f ms a step), solves %.4f s (%.4f s a step)\n", o->steps,
                        tot->its, tot->trhs, 1e3 * tot->trhs / o->steps, tot->tsolve, tot->tsolve / o->steps));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "time to solution %.4f s; device programs built during the steps: %" PetscInt_FMT "\n",
                        tsetup + tot->tinit + tot->trhs + tot->tsolve, built));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "final residual ||b - A u||/||b|| = %.3e (rtol %g), ||u|| = %.10e\n", (double)rel, (double)rtol, (double)unorm));
  if (o->cold && tot->compared)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                          "warm-started vs cold, steps %" PetscInt_FMT "-%" PetscInt_FMT
                          ": iterations %.2f vs %.2f a step (%.3f), solve %.4f s vs %.4f s a step (%.3f)\n",
                          tot->first, o->steps, (double)tot->its_warm / tot->compared, (double)tot->its_cold / tot->compared,
                          tot->its_cold ? (double)tot->its_warm / tot->its_cold : 0.0, tot->twarm / tot->compared, tot->tcold / tot->compared,
                          tot->tcold > 0 ? tot->twarm / tot->tcold : 0.0));
  PetscFunctionReturn(0);
}

static PetscErrorCode SeriesDestroy(Series *s)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree2(s->slip.y, s->slip.g));
  PetscCall(KSPDestroy(&s->ksp));
  PetscCall(VecDestroy(&s->u));
  PetscCall(VecDestroy(&s->uc));
  PetscCall(VecDestroy(&s->b));
  PetscCall(MatDestroy(&s->A));
  PetscCall(SbpProblemDestroy(&s->p));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Series         s;
  SeriesOptions  o;
  SeriesTotals   tot = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  PetscLogDouble t0, t1;
  PetscLogStage  stage_setup, stage_steps;
  PetscInt       setups, built0, built1;
  PetscBool      logging;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SbpmgInitializePackage());
  PetscCall(PetscLogIsActive(&logging));
  if (!logging) PetscCall(PetscLogDefaultBegin()); /* the event counts that show the PC set up once */
  PetscCall(SeriesGetOptions(&o));
  PetscCall(PetscLogStageRegister("Setup", &stage_setup));
  PetscCall(PetscLogStageRegister("Steps", &stage_steps));

  PetscCall(PetscLogStagePush(stage_setup));
  PetscCall(PetscTime(&t0));
  PetscCall(SeriesSetUp(&s));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscLogStagePop());
  PetscCall(SeriesHeader(&s, &o));

  PetscCall(ProgramsBuilt(&s, &built0));
  PetscCall(PetscLogStagePush(stage_steps));
  tot.first = o.t0 > 0 ? 1 : 2;
  for (PetscInt k = o.t0 > 0 ? 0 : 1; k <= o.steps; k++) { /* step 0: the state at t0 (at t0 = 0 it is u = 0) */
    StepResult r;
    PetscReal  t = o.t0 + k * o.dt;
    PetscCall(SeriesStep(&s, t, k == 0 ? PETSC_TRUE : PETSC_FALSE, o.cold && k > 0, &r));
    PetscCall(StepPrint(k, t, o.cold && k > 0, &r));
    TotalsAdd(&tot, k, &r);
  }
  PetscCall(PetscLogStagePop());
  PetscCall(ProgramsBuilt(&s, &built1));
  PetscCall(PCSetUpCount(stage_steps, &setups));
  PetscCall(SeriesReport(&s, &o, &tot, t1 - t0, setups, built1 - built0));
  PetscCheck(setups == 1 || setups == -1, PETSC_COMM_WORLD, PETSC_ERR_PLIB,
             "The PC was set up %" PetscInt_FMT " times: the steps must reuse the operator and the hierarchy", setups);
  PetscCall(SeriesDestroy(&s));
  PetscCall(PetscFinalize());
  return 0;
}
