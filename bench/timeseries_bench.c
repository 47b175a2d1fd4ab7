/* Benchmark of a quasi-static time series (examples/sbp_timeseries, docs/guide.md "A time series"): the cost of new boundary data
   against an operator apply, and warm-started steps against cold solves of the same steps.

     timeseries_bench -bench_n 8192 -ts_steps 10 -ts_t0 0,1000

   For each N, on the curved basin problem with faces D D N N (-sbp_* options apply): the set-up (problem, operator, CG + sbpmg
   with its hierarchy); the operator apply (the best of -bench_reps); the update (face 1's new values with
   SbpProblemSetBoundaryValues() and SbpProblemComputeRHS() on the device, the queue drained: the best of -bench_reps) and its
   cost in applies. Then, after a warm-up solve that builds the solve's programs, for each start time t0 of -ts_t0 a series of
   -ts_steps steps with the slip t (exp(-4 s^2) + 0.1) on face 1 (s the reference coordinate along it): the state at t0 solved
   from zero (none at t0 = 0, where it is u = 0), then each step's update, the solve warm-started from the step before and a
   cold solve (zero initial guess) of the same system; both to ||r|| <= -bench_rtol ||b|| (-ksp_norm_type unpreconditioned).
   One line per N and t0: the averages a step of the iterations and solve times of both and their ratio, the time to solution
   (set-up + the state at t0 + the steps' updates and warm-started solves) and the last step's true relative residual; also
   written as CSV to -bench_csv. */
#include <sbpmg.h>
#include <float.h>
#include "common/timing.h"

static const char help[] = "Time-series benchmark: boundary-data update against an operator apply, warm-started steps against cold solves.\n";

/* The objects at one N: the problem, its operator, the warm-started and the cold solution, the right-hand side, the KSP, face 1's
   values. */
typedef struct {
  SbpProblem   p;
  Mat          A;
  Vec          u, uc, b;
  KSP          ksp;
  PetscInt     n;
  PetscScalar *g;
  PetscReal    hs;
} Bench;

/* What a series measured, averaged over its steps. */
typedef struct {
  PetscReal its_warm, its_cold;
  PetscReal twarm, tcold, tupdate, tinit, residual;
} SeriesResult;

static PetscErrorCode BenchSetUp(PetscInt N, PetscReal rtol, Bench *bn, PetscLogDouble *tsetup)
{
  PC             pc;
  PetscInt       Nr, Ns;
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  PetscCall(BenchSync());
  PetscCall(PetscTime(&t0));
  PetscCall(SbpProblemCreate(PETSC_COMM_WORLD, &bn->p));
  PetscCall(SbpProblemSetBC(bn->p, 1, SBP_BC_DIRICHLET));
  PetscCall(SbpProblemSetBC(bn->p, 2, SBP_BC_DIRICHLET));
  PetscCall(SbpProblemSetBC(bn->p, 3, SBP_BC_NEUMANN));
  PetscCall(SbpProblemSetBC(bn->p, 4, SBP_BC_NEUMANN));
  PetscCall(SbpProblemSetFromOptions(bn->p));
  PetscCall(SbpProblemSetSizes(bn->p, N, N));
  PetscCall(SbpProblemSetUp(bn->p));
  PetscCall(SbpProblemCreateOperator(bn->p, &bn->A));
  PetscCall(MatCreateVecs(bn->A, &bn->u, &bn->b));
  PetscCall(VecDuplicate(bn->u, &bn->uc));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &bn->ksp));
  PetscCall(KSPSetOperators(bn->ksp, bn->A, bn->A));
  PetscCall(KSPSetType(bn->ksp, KSPCG));
  PetscCall(KSPGetPC(bn->ksp, &pc));
  PetscCall(PCSetType(pc, PCSBPMG));
  PetscCall(KSPSetNormType(bn->ksp, KSP_NORM_UNPRECONDITIONED)); /* ||r|| <= rtol ||b||: examples/sbp_timeseries.c says why */
  PetscCall(KSPSetTolerances(bn->ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPSetFromOptions(bn->ksp));
  PetscCall(KSPSetUp(bn->ksp));
  PetscCall(BenchSync());
  PetscCall(PetscTime(&t1));
  *tsetup = t1 - t0;
  PetscCall(SbpProblemGetSizes(bn->p, &Nr, &Ns));
  bn->n  = Ns + 1;
  bn->hs = 2.0 / Ns;
  PetscCall(PetscMalloc1(bn->n, &bn->g));
  PetscFunctionReturn(0);
}

static PetscErrorCode BenchDestroy(Bench *bn)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(bn->g));
  PetscCall(KSPDestroy(&bn->ksp));
  PetscCall(VecDestroy(&bn->u));
  PetscCall(VecDestroy(&bn->uc));
  PetscCall(VecDestroy(&bn->b));
  PetscCall(MatDestroy(&bn->A));
  PetscCall(SbpProblemDestroy(&bn->p));
  PetscFunctionReturn(0);
}

/* The update at time t: face 1's values t (exp(-4 s^2) + 0.1), then the right-hand side; its time with the queue drained. */
static PetscErrorCode BenchUpdate(Bench *bn, PetscReal t, PetscLogDouble *time)
{
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  for (PetscInt j = 0; j < bn->n; j++) {
    const PetscReal s = -1 + j * bn->hs;
    bn->g[j]          = t * (PetscExpReal(-4 * s * s) + 0.1);
  }
  PetscCall(BenchSync());
  PetscCall(PetscTime(&t0));
  PetscCall(SbpProblemSetBoundaryValues(bn->p, 1, SBP_BC_DIRICHLET, bn->n, bn->g));
  PetscCall(SbpProblemComputeRHS(bn->p, bn->b));
  PetscCall(BenchSync());
  PetscCall(PetscTime(&t1));
  *time = t1 - t0;
  PetscFunctionReturn(0);
}

/* The best of reps updates (new values each time), after one that builds the right-hand side's program. */
static PetscErrorCode BenchTimeUpdate(Bench *bn, PetscInt reps, PetscLogDouble *best)
{
  PetscLogDouble t;

  PetscFunctionBeginUser;
  PetscCall(BenchUpdate(bn, 1, &t));
  *best = PETSC_MAX_REAL;
  for (PetscInt r = 0; r < reps; r++) {
    PetscCall(BenchUpdate(bn, 2 + r, &t));
    *best = PetscMin(*best, t);
  }
  PetscFunctionReturn(0);
}

/* b into x, from x (warm) or from zero; iterations and time; an error unless it converged. */
static PetscErrorCode BenchSolve(Bench *bn, Vec x, PetscBool warm, PetscInt *its, PetscLogDouble *time)
{
  KSPConvergedReason reason;
  PetscLogDouble     t0, t1;

  PetscFunctionBeginUser;
  PetscCall(KSPSetInitialGuessNonzero(bn->ksp, warm));
  PetscCall(BenchSync());
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(bn->ksp, bn->b, x));
  PetscCall(BenchSync());
  PetscCall(PetscTime(&t1));
  *time = t1 - t0;
  PetscCall(KSPGetIterationNumber(bn->ksp, its));
  PetscCall(KSPGetConvergedReason(bn->ksp, &reason));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "The %s solve did not converge: %s", warm ? "warm-started" : "cold",
             KSPConvergedReasons[reason]);
  PetscFunctionReturn(0);
}

/* ||b - A u|| / ||b|| */
static PetscErrorCode BenchResidual(Bench *bn, PetscReal *rel)
{
  Vec       r;
  PetscReal rn, bnorm;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(bn->b, &r));
  PetscCall(MatMult(bn->A, bn->u, r));
  PetscCall(VecAYPX(r, -1, bn->b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(bn->b, NORM_2, &bnorm));
  *rel = bnorm > 0 ? rn / bnorm : rn;
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(0);
}

/* The series from t0: the state at t0 (from zero; u = 0 at t0 = 0), then each step's update, warm-started and cold solves. */
static PetscErrorCode BenchSeries(Bench *bn, PetscReal t0, PetscReal dt, PetscInt steps, SeriesResult *res)
{
  PetscInt       its;
  PetscLogDouble tu, ts;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(res, sizeof(*res)));
  PetscCall(VecSet(bn->u, 0));
  if (t0 > 0) {
    PetscCall(BenchUpdate(bn, t0, &tu));
    PetscCall(BenchSolve(bn, bn->u, PETSC_FALSE, &its, &ts));
    res->tinit = tu + ts;
  }
  for (PetscInt k = 1; k <= steps; k++) {
    PetscCall(BenchUpdate(bn, t0 + k * dt, &tu));
    res->tupdate += tu / steps;
    PetscCall(BenchSolve(bn, bn->u, PETSC_TRUE, &its, &ts));
    res->its_warm += (PetscReal)its / steps;
    res->twarm += ts / steps;
    PetscCall(BenchSolve(bn, bn->uc, PETSC_FALSE, &its, &ts));
    res->its_cold += (PetscReal)its / steps;
    res->tcold += ts / steps;
  }
  PetscCall(BenchResidual(bn, &res->residual));
  PetscFunctionReturn(0);
}

/* The options of the run. */
typedef struct {
  PetscInt  ns[16], nn, reps, steps, nt0;
  PetscReal rtol, dt, t0s[16];
  FILE     *csv;
} BenchOptions;

static PetscErrorCode BenchN(PetscInt N, const BenchOptions *o)
{
  Bench          bn;
  Vec            x, y;
  PetscRandom    rnd;
  PetscLogDouble tsetup = 0, tapply = 0, tupdate = 0, tw;
  PetscInt       its;

  PetscFunctionBeginUser;
  PetscCall(BenchSetUp(N, o->rtol, &bn, &tsetup));
  PetscCall(VecDuplicate(bn.u, &x));
  PetscCall(VecDuplicate(bn.u, &y));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 42));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(MatMult(bn.A, x, y)); /* the apply's programs built */
  PetscCall(BenchTimeApply(bn.A, x, y, o->reps, &tapply));
  PetscCall(BenchTimeUpdate(&bn, o->reps, &tupdate));
  PetscCall(VecSet(bn.uc, 0));
  PetscCall(BenchSolve(&bn, bn.uc, PETSC_FALSE, &its, &tw)); /* warm-up: the solve's programs built */
  for (PetscInt q = 0; q < o->nt0; q++) {
    SeriesResult r;
    PetscReal    tts;
    PetscCall(BenchSeries(&bn, o->t0s[q], o->dt, o->steps, &r));
    tts = tsetup + r.tinit + o->steps * (r.tupdate + r.twarm);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%6" PetscInt_FMT " %8g %9.3f %9.3f %7.2f %8.3f %8.3f %6.2f %6.2f %9.2f %9.2f %7.3f %8.3f %9.2e\n", N,
                          (double)o->t0s[q], 1e3 * tapply, 1e3 * tupdate, tupdate / tapply, tsetup, r.tinit, (double)r.its_warm, (double)r.its_cold,
                          1e3 * r.twarm, 1e3 * r.tcold, r.twarm / r.tcold, tts, (double)r.residual));
    if (o->csv)
      fprintf(o->csv, "%d,%g,%d,%g,%.6e,%.6e,%.4f,%.4f,%.4f,%.3f,%.3f,%.6e,%.6e,%.4f,%.4f,%.3e\n", (int)N, (double)o->t0s[q], (int)o->steps, (double)o->dt,
              tapply, tupdate, tupdate / tapply, tsetup, r.tinit, (double)r.its_warm, (double)r.its_cold, r.twarm, r.tcold, r.twarm / r.tcold, tts,
              (double)r.residual);
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(BenchDestroy(&bn));
  PetscFunctionReturn(0);
}

static PetscErrorCode BenchGetOptions(BenchOptions *o, char csvname[], size_t len)
{
  PetscBool setn, sett0;

  PetscFunctionBeginUser;
  o->ns[0] = 256;
  o->ns[1] = 512;
  o->nn    = 16;
  o->reps  = 10;
  o->steps = 10;
  o->rtol  = 1e-8;
  o->dt    = 1;
  o->nt0   = 16;
  {
    static const char *const ints[] = {"-bench_n", "-bench_reps", "-ts_steps", NULL};
    PetscCall(SbpmgOptionsCheckInts(NULL, NULL, ints)); /* read as 64-bit: a value beyond PetscInt is an error naming it, not wrapped */
  }
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Time-series benchmark", NULL);
  PetscCall(PetscOptionsIntArray("-bench_n", "Grid sizes N (N x N intervals)", NULL, o->ns, &o->nn, &setn));
  PetscCall(PetscOptionsInt("-bench_reps", "Timed applies and updates (the best is reported)", NULL, o->reps, &o->reps, NULL));
  PetscCall(PetscOptionsReal("-bench_rtol", "Relative residual ||r|| / ||b|| of the solves", NULL, o->rtol, &o->rtol, NULL));
  PetscCall(PetscOptionsInt("-ts_steps", "Time steps of each series", NULL, o->steps, &o->steps, NULL));
  PetscCall(PetscOptionsReal("-ts_dt", "Time step", NULL, o->dt, &o->dt, NULL));
  PetscCall(PetscOptionsRealArray("-ts_t0", "Start times of the series (one series each; the slip grows as t)", NULL, o->t0s, &o->nt0, &sett0));
  PetscCall(PetscOptionsString("-bench_csv", "CSV output file", NULL, csvname, csvname, len, NULL));
  PetscOptionsEnd();
  if (!setn) o->nn = 2;
  if (!sett0) {
    o->nt0    = 2;
    o->t0s[0] = 0;
    o->t0s[1] = 1000;
  }
  for (PetscInt k = 0; k < o->nn; k++)
    PetscCheck(o->ns[k] >= 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_n %" PetscInt_FMT " must be >= 2", o->ns[k]);
  PetscCheck(o->reps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_reps %" PetscInt_FMT " must be >= 1", o->reps);
  PetscCheck(o->steps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ts_steps %" PetscInt_FMT " must be >= 1", o->steps);
  PetscCheck(PetscIsNormalReal(o->rtol) && o->rtol > 0 && o->rtol < 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_rtol %g must be in (0, 1)",
             (double)o->rtol);
  PetscCheck(!PetscIsInfOrNanReal(o->dt) && o->dt > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ts_dt %g must be finite and > 0", (double)o->dt);
  PetscCheck(PetscIsNormalReal(o->dt), PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE,
             "-ts_dt %g is below the smallest normal double (%g): the time would not advance by it", (double)o->dt, (double)DBL_MIN);
  for (PetscInt q = 0; q < o->nt0; q++)
    PetscCheck(!PetscIsInfOrNanReal(o->t0s[q]) && o->t0s[q] >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ts_t0 %g must be finite and >= 0",
               (double)o->t0s[q]);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  BenchOptions o;
  char         csvname[PETSC_MAX_PATH_LEN] = "";
  SbpmgCL      cl;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SbpmgInitializePackage());
  PetscCall(BenchGetOptions(&o, csvname, sizeof(csvname)));
  o.csv = NULL;
  PetscCall(SbpmgCLGetDefault(&cl));
  PetscCall(SbpmgCLView(cl, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "%" PetscInt_FMT
                        " steps of dt %g a series, rtol %g (||r|| <= rtol ||b||); times per step averaged, apply and update the best of %" PetscInt_FMT "\n",
                        o.steps, (double)o.dt, (double)o.rtol, o.reps));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%6s %8s %9s %9s %7s %8s %8s %6s %6s %9s %9s %7s %8s %9s\n", "N", "t0", "apply ms", "update ms", "applies", "setup s",
                        "init s", "its", "cold", "warm ms", "cold ms", "w/c", "tts s", "residual"));
  if (csvname[0]) {
    o.csv = fopen(csvname, "w");
    PetscCheck(o.csv, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s", csvname);
    fprintf(o.csv, "N,t0,steps,dt,apply_s,update_s,update_applies,setup_s,initial_s,iterations_warm,iterations_cold,solve_warm_s,solve_cold_s,warm_over_cold,"
                   "time_to_solution_s,residual\n");
  }
  for (PetscInt k = 0; k < o.nn; k++) PetscCall(BenchN(o.ns[k], &o));
  if (o.csv) fclose(o.csv);
  PetscCall(PetscFinalize());
  return 0;
}
