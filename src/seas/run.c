/* The BP1-QD stepping (docs/seas.md "How a stage is computed"): the right-hand side of the ODE in (psi, delta) at the fault nodes,
   one elliptic solve per evaluation through the one KSP (the last solution as initial guess), the shear stress from the face traction
   with the SAT correction, the friction solve on the device; after each step the events and the output; the summary. */
#include <sbpmg/private/seasimpl.h>

/* F = (dpsi/dt, V) at (t, X): the shear stress (one volume solve, or the Green's function's mat-vec), then the friction solve. For a
   device problem X and F are the TS's host vectors: the state goes up once and the rates come down once (one wait a stage). */
PetscErrorCode SeasRHSFunction(TS ts, PetscReal t, Vec X, Vec F, void *ctx)
{
  Seas      s  = (Seas)ctx;
  Vec       Xe = X, Fe = F;
  PetscInt  its;
  PetscBool isocl = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SEAS_RHS, 0, 0, 0, 0));
  if (s->k.rates) {
    PetscCall(SeasStateToDevice(s, X, &Xe));
    PetscCall(VecIsOpenCL(F, &isocl));
    if (!isocl) Fe = s->Fd;
  }
  if (s->gr)
    PetscCall(SeasGreenStress(s, t, Xe));
  else {
    PetscCall(SeasVolumeStress(s, t, Xe, &its));
    s->solves++;
    s->cg_its += its;
  }
  s->stages++;
  PetscCall(SeasFrictionRates(&s->fr, s->k.rates ? &s->k : NULL, s->nf, PETSC_TRUE, s->tau, s->avec, Xe, s->Vg, Fe));
  if (Fe != F) PetscCall(VecCopy(Fe, F)); /* the one download (VecCopy of a device vector into a host one reads its array) */
  if (s->k.rates) {                       /* the device leaves NaN where Newton failed (the host path has stopped with the node named) */
    const PetscScalar *fa;
    PetscBool          bad = PETSC_FALSE;

    PetscCall(VecGetArrayRead(F, &fa));
    for (PetscInt k = 0; k < s->nf && !bad; k++) bad = PetscIsInfOrNanScalar(fa[s->nf + k]) ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(VecRestoreArrayRead(F, &fa));
    PetscCheck(!bad, PetscObjectComm((PetscObject)s), PETSC_ERR_NOT_CONVERGED,
               "The friction solve did not converge at some fault node at t = %g s in -seas_friction_max_it %" PetscInt_FMT " Newton iterations", (double)t,
               s->fr.maxit);
  }
  PetscCall(VecCopy(X, s->Xlast));
  s->tlast = t;
  PetscCall(PetscLogEventEnd(SEAS_RHS, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* A state (psi, delta) the friction law can take (docs/seas.md "How a stage is computed"): psi and delta finite; the strength's
   q = exp(psi / a) / (2 V0) at most e^SEAS_STRENGTH_EXP_MAX (beyond, q overflows fp64 and kernels/friction.cl has no root to find; a
   bound on exp(psi / a) alone lets q overflow where 2 V0 < 1); the state rate's exp((f0 - psi) / b) at most e^SEAS_STATE_EXP_MAX
   (beyond, d(psi)/dt reaches 1e80 and the step's error norm, a sum of squares of rates times the step over the tolerance, overflows).
   Physical states stay far below (V = V0 exp((f0 - psi) / b) in steady state: 16 at 10 m/s); a trial stage of a step the controller
   will shrink may not. */
#define SEAS_STRENGTH_EXP_MAX 700
#define SEAS_STATE_EXP_MAX    200
PetscErrorCode SeasStateAcceptable(Seas s, Vec Y, PetscBool *accept)
{
  const PetscScalar *ya;
  const PetscReal    logq0 = PetscLogReal(2 * s->fr.V0); /* log q = psi / a - log(2 V0) */

  PetscFunctionBegin;
  *accept = PETSC_TRUE;
  PetscCall(VecGetArrayRead(Y, &ya));
  for (PetscInt k = 0; k < s->nf && *accept; k++) {
    const PetscReal psi = PetscRealPart(ya[k]);
    if (!(PetscIsNormalReal(psi) || psi == 0) || psi / s->ahost[k] - logq0 > SEAS_STRENGTH_EXP_MAX || (s->fr.f0 - psi) / s->fr.b > SEAS_STATE_EXP_MAX ||
        PetscIsInfOrNanScalar(ya[s->nf + k]))
      *accept = PETSC_FALSE;
  }
  PetscCall(VecRestoreArrayRead(Y, &ya));
  PetscFunctionReturn(0);
}

/* A stage whose state is not acceptable is rejected, and with it the step, which the controller retries smaller. */
static PetscErrorCode SeasStageCheck(TS ts, PetscReal t, Vec Y, PetscBool *accept)
{
  Seas s;

  PetscFunctionBegin;
  PetscCall(TSGetApplicationContext(ts, &s));
  PetscCall(SeasStateAcceptable(s, Y, accept));
  if (!*accept) s->stage_rejects++;
  PetscFunctionReturn(0);
}

/* Whether the state X is Xlast to rounding: each half (psi, delta) within SEAS_SAME_RTOL of its largest entry. An FSAL scheme's last
   stage and the step's solution are the same sum of the stages' rates, formed in a different order (the host's VecMAXPY groups 6
   and 7 terms differently), so they differ in the last bits; the fault's values at one are those at the other to that accuracy. */
#define SEAS_SAME_RTOL 1e-12
static PetscErrorCode SeasStateSame(Seas s, Vec X, PetscBool *same)
{
  const PetscScalar *xa, *ya;

  PetscFunctionBegin;
  *same = PETSC_TRUE;
  PetscCall(VecGetArrayRead(X, &xa));
  PetscCall(VecGetArrayRead(s->Xlast, &ya));
  for (PetscInt h = 0; h < 2 && *same; h++) {
    PetscReal scale = 0, diff = 0;
    for (PetscInt k = h * s->nf; k < (h + 1) * s->nf; k++) {
      scale = PetscMax(scale, PetscMax(PetscAbsScalar(xa[k]), PetscAbsScalar(ya[k])));
      diff  = PetscMax(diff, PetscAbsScalar(xa[k] - ya[k]));
    }
    if (!(diff <= SEAS_SAME_RTOL * scale)) *same = PETSC_FALSE;
  }
  PetscCall(VecRestoreArrayRead(s->Xlast, &ya));
  PetscCall(VecRestoreArrayRead(X, &xa));
  PetscFunctionReturn(0);
}

/* Make the fault's values (Vg, tau) those of (t, X): unless the last evaluation was there (an FSAL scheme such as 5dp evaluates its
   last stage at the step's end), evaluate once more. */
static PetscErrorCode SeasEvaluateAt(Seas s, PetscReal t, Vec X)
{
  PetscBool same = PETSC_FALSE;

  PetscFunctionBegin;
  if (t == s->tlast) PetscCall(SeasStateSame(s, X, &same));
  if (!same) {
    if (!s->F) PetscCall(VecDuplicate(X, &s->F));
    PetscCall(SeasRHSFunction(s->ts, t, X, s->F, s));
    s->stages--; /* an evaluation, not a stage of the scheme */
    s->extra++;
  }
  PetscFunctionReturn(0);
}

/* The events: an event begins when max V reaches SEAS_VEVENT and ends when it falls below (one that begins within SEAS_EVENT_GAP
   of the last one's end continues that one); its peak slip rate, the surface slip
   during it and the depth of max V when it began (the nucleation). */
static PetscErrorCode SeasTrackEvents(Seas s, PetscReal t, const PetscReal slip[], const PetscReal V[])
{
  PetscReal vmax = 0;
  PetscInt  kmax = 0;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < s->nf; k++)
    if (PetscAbsReal(V[k]) > vmax) {
      vmax = PetscAbsReal(V[k]);
      kmax = k;
    }
  s->vmax_last = vmax;
  s->vmax_peak = PetscMax(s->vmax_peak, vmax);
  if (!s->in_event && vmax >= SEAS_VEVENT && s->nevents && t - s->events[s->nevents - 1].tend < SEAS_EVENT_GAP) {
    s->in_event = PETSC_TRUE; /* the last event goes on (a rupture's tail, or one advancing node by node on a coarse grid) */
  } else if (!s->in_event && vmax >= SEAS_VEVENT) {
    if (s->nevents == s->maxevents) {
      SeasEvent *e;
      s->maxevents = PetscMax(16, 2 * s->maxevents);
      PetscCall(PetscCalloc1(s->maxevents, &e));
      if (s->nevents) PetscCall(PetscArraycpy(e, s->events, s->nevents));
      PetscCall(PetscFree(s->events));
      s->events = e;
    }
    s->events[s->nevents].tstart     = t;
    s->events[s->nevents].slip_start = slip[0];
    s->events[s->nevents].depth_nucl = s->z[kmax];
    s->events[s->nevents].peak_v     = vmax;
    s->in_event                      = PETSC_TRUE;
    s->nevents++;
  }
  if (s->in_event) {
    SeasEvent *e = &s->events[s->nevents - 1];
    e->peak_v    = PetscMax(e->peak_v, vmax);
    if (vmax < SEAS_VEVENT) {
      e->tend     = t;
      e->slip0    = slip[0] - e->slip_start;
      s->in_event = PETSC_FALSE;
    }
  }
  PetscFunctionReturn(0);
}

/* After each accepted step: the fault's values at the step's end, the events, the output rows, the counters. */
PetscErrorCode SeasPostStep(TS ts)
{
  Seas      s;
  Vec       X;
  PetscReal t, tprev, *slip, *V;

  PetscFunctionBegin;
  PetscCall(TSGetApplicationContext(ts, &s));
  PetscCall(TSGetTime(ts, &t));
  PetscCall(TSGetPrevTime(ts, &tprev));
  PetscCall(TSGetSolution(ts, &X));
  PetscCheck(X == s->X, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The TS's solution is not the driver's state");
  PetscCall(SeasEvaluateAt(s, t, X));
  s->steps++;
  s->dtmin = PetscMin(s->dtmin, t - tprev);
  s->dtmax = PetscMax(s->dtmax, t - tprev);
  PetscCall(PetscMalloc2(s->nf, &slip, s->nf, &V));
  PetscCall(SeasGetFault(s, slip, V, NULL, NULL));
  PetscCall(SeasTrackEvents(s, t, slip, V));
  PetscCall(PetscFree2(slip, V));
  PetscCall(SeasOutputWrite(s, t, PETSC_FALSE));
  if (s->ckpt[0] && s->ckpt_every > 0 && s->steps % s->ckpt_every == 0) {
    PetscCall(SeasCheckpointWrite(s));
    PetscCall(TSRestartStep(ts)); /* the next step starts as a restarted run's does (no first-same-as-last reuse): the same answer */
  }
  PetscFunctionReturn(0);
}

/*@C
   SeasSetUp - Set up the simulation: the stretched grid and its SBP-SAT problem, the fault's nodes and initial state (V = Vinit
   everywhere), the KSP (CG + sbpmg unless -ksp_type / -pc_type say otherwise; set up once) and the TS (RK 5(4) Dormand-Prince,
   adaptive with the PI controller TSADAPTDSP, unless -ts_* say otherwise). One MPI rank. Called by SeasSolve() if not before.

   Collective

   Level: beginner

.seealso: `SeasSetFromOptions()`, `SeasSolve()`
@*/
PetscErrorCode SeasSetUp(Seas s)
{
  MPI_Comm comm;
  TSAdapt  adapt;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, SEAS_CLASSID, 1);
  if (s->setupcalled) PetscFunctionReturn(0);
  comm = PetscObjectComm((PetscObject)s);
  PetscCall(SeasSetUpProblem(s));
  if (s->green) PetscCall(SeasGreenSetUp(s));
  PetscCall(TSCreate(comm, &s->ts));
  PetscCall(TSSetOptionsPrefix(s->ts, ((PetscObject)s)->prefix));
  PetscCall(TSSetProblemType(s->ts, TS_NONLINEAR));
  PetscCall(TSSetType(s->ts, TSRK));
  PetscCall(TSRKSetType(s->ts, TSRK5DP));
  PetscCall(TSSetRHSFunction(s->ts, NULL, SeasRHSFunction, s));
  PetscCall(TSSetApplicationContext(s->ts, s));
  PetscCall(TSSetPostStep(s->ts, SeasPostStep));
  PetscCall(TSSetFunctionDomainError(s->ts, SeasStageCheck));
  PetscCall(TSSetMaxTime(s->ts, s->tf * SEAS_YEAR));
  PetscCall(TSSetMaxSteps(s->ts, PETSC_MAX_INT));
  PetscCall(TSSetExactFinalTime(s->ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetTimeStep(s->ts, 1e5));
  PetscCall(TSSetTolerances(s->ts, 1e-7, NULL, 1e-7, NULL));
  PetscCall(TSGetAdapt(s->ts, &adapt));
  PetscCall(TSAdaptSetType(adapt, TSADAPTDSP)); /* the PI controller: a quarter fewer stages than TSADAPTBASIC (docs/seas.md "The step controller") */
  PetscCall(TSSetFromOptions(s->ts));
  s->dtmin       = PETSC_MAX_REAL;
  s->dtmax       = 0;
  s->setupcalled = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*@C
   SeasSolve - Run the simulation from t = 0 (delta = 0, V = Vinit) to the final time: the TS's steps, the output files at the
   benchmark's cadence, and the events for SeasSummary().

   Collective

   Level: beginner
@*/
PetscErrorCode SeasSolve(Seas s)
{
  PetscLogDouble t0, t1;
  PetscReal      t, *slip, *V;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, SEAS_CLASSID, 1);
  PetscCall(SeasSetUp(s));
  PetscCall(PetscTime(&t0));
  if (s->restart[0]) PetscCall(SeasCheckpointLoad(s));
  PetscCall(SeasOutputOpen(s)); /* before any work: an output folder that cannot be written is an error now */
  PetscCall(TSSetSolution(s->ts, s->X));
  if (!s->restarted) {
    PetscCall(TSGetTime(s->ts, &t));
    PetscCall(SeasEvaluateAt(s, t, s->X)); /* the values at t = 0 */
    PetscCall(PetscMalloc2(s->nf, &slip, s->nf, &V));
    PetscCall(SeasGetFault(s, slip, V, NULL, NULL));
    PetscCall(SeasTrackEvents(s, t, slip, V));
    PetscCall(PetscFree2(slip, V));
    PetscCall(SeasOutputWrite(s, t, PETSC_TRUE));
  }
  ierr = TSSolve(s->ts, s->X);
  if (ierr && s->ckpt[0]) { /* the stepping failed (a step rejected too often, ...): the last accepted state, then the error */
    PetscCall(PetscPrintf(PetscObjectComm((PetscObject)s), "The stepping failed; the last accepted step is in the checkpoint %s\n", s->ckpt));
    PetscCall(SeasCheckpointWrite(s));
  }
  PetscCall(ierr);
  PetscCall(PetscTime(&t1));
  s->wall += t1 - t0;
  if (s->ckpt[0]) PetscCall(SeasCheckpointWrite(s)); /* before the last rows: a run continued from it writes its own */
  PetscCall(TSGetTime(s->ts, &t));
  PetscCall(SeasOutputWrite(s, t, PETSC_TRUE));
  PetscCall(SeasOutputClose(s));
  PetscFunctionReturn(0);
}

/*@C
   SeasSummary - What a run found and cost: the events (start times, surface slip, peak slip rate, nucleation depth), the recurrence
   interval, the steps, stages, solves, CG iterations per solve and the wall time.

   Collective

   Level: beginner
@*/
PetscErrorCode SeasSummary(Seas s, PetscViewer v)
{
  PetscReal rec  = 0;
  PetscInt  nrec = 0, first;
  TS        ts;
  PetscReal t;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, SEAS_CLASSID, 1);
  if (!v) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)s), &v));
  ts = s->ts;
  PetscCall(TSGetTime(ts, &t));
  PetscCall(PetscViewerASCIIPrintf(v, "SEAS BP1-QD summary: t = %.6g years, %" PetscInt_FMT " events\n", (double)(t / SEAS_YEAR), s->nevents));
  for (PetscInt e = 0; e < s->nevents; e++) {
    const SeasEvent *ev   = &s->events[e];
    const PetscBool  over = (e < s->nevents - 1 || !s->in_event) ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(PetscViewerASCIIPrintf(
        v, "  event %2" PetscInt_FMT ": t = %10.4f years, surface slip %7.4f m, peak slip rate %9.4g m/s, nucleation depth %6.2f km%s\n", e + 1,
        (double)(ev->tstart / SEAS_YEAR), (double)(over ? ev->slip0 : 0), (double)ev->peak_v, (double)(ev->depth_nucl / 1e3), over ? "" : " (not over)"));
  }
  first = s->nevents > 3 ? 2 : 1; /* the cycle settles after the first events */
  for (PetscInt e = first; e < s->nevents; e++, nrec++) rec += s->events[e].tstart - s->events[e - 1].tstart;
  if (nrec)
    PetscCall(PetscViewerASCIIPrintf(v, "  recurrence interval %.4f years (mean of %" PetscInt_FMT " intervals)\n", (double)(rec / nrec / SEAS_YEAR), nrec));
  PetscCall(PetscViewerASCIIPrintf(v,
                                   "  peak slip rate %.4g m/s; steps %" PetscInt_FMT " (dt %.3g s .. %.3g s), stages %" PetscInt_FMT ", solves %" PetscInt_FMT
                                   " (%" PetscInt_FMT " at step ends), CG iterations per solve %.2f; stages refused (state out of range) %" PetscInt_FMT
                                   "; wall time %.2f s\n",
                                   (double)s->vmax_peak, s->steps, (double)(s->steps ? s->dtmin : 0), (double)s->dtmax, s->stages, s->solves, s->extra,
                                   s->solves ? (double)s->cg_its / s->solves : 0.0, s->stage_rejects, (double)s->wall));
  PetscCall(SeasGreenView(s, v));
  PetscFunctionReturn(0);
}
