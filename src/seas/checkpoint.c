/* Checkpoint and restart of a BP1-QD run (docs/seas.md "Checkpoint and restart"): one PETSc binary file holds the time, the next
   step, the counters, the events, where each output file ended, and the state, the last volume solution and the last slip rates
   (the next solve's and the next friction solve's guesses), so a restarted run computes what the uninterrupted one does. */
#include <sbpmg/private/seasimpl.h>

#define SEAS_CKPT_MAGIC 36.0116 /* the file's first number: this layout (36.0115: the guess's A X_i, 36.0114: without the SBP-SAT order) */
#define SEAS_CKPT_NHEAD (22 + SEAS_NSTATIONS + 2 + 1) /* the last: the SBP-SAT order */
#define SEAS_CKPT_NEV   6                             /* numbers per event */

static PetscErrorCode SeasCheckpointViewer(Seas s, const char name[], PetscFileMode mode, PetscViewer *v)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerCreate(PetscObjectComm((PetscObject)s), v));
  PetscCall(PetscViewerSetType(*v, PETSCVIEWERBINARY));
  PetscCall(PetscViewerBinarySetSkipInfo(*v, PETSC_TRUE));
  PetscCall(PetscViewerFileSetMode(*v, mode));
  PetscCall(PetscViewerFileSetName(*v, name));
  PetscFunctionReturn(0);
}

/*
   SeasCheckpointWrite - The run's state after an accepted step (or at the end) into -seas_checkpoint: written to <file>.tmp, then
   renamed, so a run stopped while writing leaves the last checkpoint whole.
*/
PetscErrorCode SeasCheckpointWrite(Seas s)
{
  char        tmp[PETSC_MAX_PATH_LEN + 8];
  PetscReal   head[SEAS_CKPT_NHEAD], *ev;
  long        off[SEAS_NSTATIONS + 2];
  PetscViewer v;
  PetscMPIInt rank;
  PetscReal   t, dt;

  PetscFunctionBegin;
  PetscCall(TSGetTime(s->ts, &t));
  PetscCall(TSGetTimeStep(s->ts, &dt));
  PetscCall(SeasOutputOffsets(s, off));
  head[0]  = SEAS_CKPT_MAGIC;
  head[1]  = (PetscReal)s->nf;
  head[2]  = (PetscReal)s->N[0];
  head[3]  = (PetscReal)s->N[1];
  head[4]  = t;
  head[5]  = dt;
  head[6]  = (PetscReal)s->steps;
  head[7]  = (PetscReal)s->stages;
  head[8]  = (PetscReal)s->solves;
  head[9]  = (PetscReal)s->extra;
  head[10] = (PetscReal)s->cg_its;
  head[11] = (PetscReal)s->stage_rejects;
  head[12] = s->vmax_peak;
  head[13] = s->vmax_last;
  head[14] = s->dtmin;
  head[15] = s->dtmax;
  head[16] = s->t_station;
  head[17] = s->t_devol;
  head[18] = (PetscReal)s->in_event;
  head[19] = (PetscReal)s->nevents;
  head[20] = (PetscReal)s->header_off;
  head[21] = s->wall;
  for (int q = 0; q < SEAS_NSTATIONS + 2; q++) head[22 + q] = (PetscReal)off[q];
  head[SEAS_CKPT_NHEAD - 1] = (PetscReal)s->p->order;
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", s->ckpt));
  PetscCall(SeasCheckpointViewer(s, tmp, FILE_MODE_WRITE, &v));
  PetscCall(PetscViewerBinaryWrite(v, head, SEAS_CKPT_NHEAD, PETSC_REAL));
  PetscCall(PetscMalloc1(SEAS_CKPT_NEV * PetscMax(s->nevents, 1), &ev));
  for (PetscInt e = 0; e < s->nevents; e++) {
    ev[SEAS_CKPT_NEV * e]     = s->events[e].tstart;
    ev[SEAS_CKPT_NEV * e + 1] = s->events[e].tend;
    ev[SEAS_CKPT_NEV * e + 2] = s->events[e].peak_v;
    ev[SEAS_CKPT_NEV * e + 3] = s->events[e].slip_start;
    ev[SEAS_CKPT_NEV * e + 4] = s->events[e].slip0;
    ev[SEAS_CKPT_NEV * e + 5] = s->events[e].depth_nucl;
  }
  if (s->nevents) PetscCall(PetscViewerBinaryWrite(v, ev, SEAS_CKPT_NEV * s->nevents, PETSC_REAL));
  PetscCall(PetscFree(ev));
  PetscCall(VecView(s->X, v));
  PetscCall(VecView(s->u, v));
  PetscCall(VecView(s->Vg, v));
  PetscCall(SeasGuessView(s, v)); /* the initial guess's basis: the restarted run forms the same guesses */
  PetscCall(PetscViewerDestroy(&v));
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)s), &rank));
  if (!rank)
    PetscCheck(rename(tmp, s->ckpt) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot rename %s to the checkpoint -seas_checkpoint %s", tmp, s->ckpt);
  PetscFunctionReturn(0);
}

/*
   SeasCheckpointLoad - The run's state from -seas_restart (after the set-up: the grid must be the checkpoint's). Sets the TS's time,
   step and step number; the output files are continued from where they ended (SeasOutputOpen()).
*/
PetscErrorCode SeasCheckpointLoad(Seas s)
{
  PetscReal      head[SEAS_CKPT_NHEAD];
  PetscViewer    v;
  PetscBool      exists;
  MPI_Comm       comm = PetscObjectComm((PetscObject)s);
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscTestFile(s->restart, 'r', &exists));
  PetscCheck(exists, comm, PETSC_ERR_FILE_OPEN, "Cannot read the checkpoint -seas_restart %s", s->restart);
  PetscCall(SeasCheckpointViewer(s, s->restart, FILE_MODE_READ, &v));
  PetscCall(PetscViewerBinaryRead(v, head, SEAS_CKPT_NHEAD, NULL, PETSC_REAL));
  if (head[0] != SEAS_CKPT_MAGIC || head[1] != s->nf || head[2] != s->N[0] || head[3] != s->N[1]) PetscCall(PetscViewerDestroy(&v)); /* the errors below */
  PetscCheck(head[0] == SEAS_CKPT_MAGIC, comm, PETSC_ERR_FILE_UNEXPECTED, "-seas_restart %s is not a checkpoint of this version of the BP1-QD driver",
             s->restart);
  PetscCheck(head[1] == s->nf && head[2] == s->N[0] && head[3] == s->N[1], comm, PETSC_ERR_ARG_INCOMP,
             "The checkpoint -seas_restart %s is of a %" PetscInt_FMT " x %" PetscInt_FMT " grid with %" PetscInt_FMT
             " fault nodes, this run has %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT,
             s->restart, (PetscInt)head[2], (PetscInt)head[3], (PetscInt)head[1], s->N[0], s->N[1], s->nf);
  if (head[SEAS_CKPT_NHEAD - 1] != s->p->order) PetscCall(PetscViewerDestroy(&v));
  PetscCheck(head[SEAS_CKPT_NHEAD - 1] == s->p->order, comm, PETSC_ERR_ARG_INCOMP,
             "The checkpoint -seas_restart %s is of -sbp_order %" PetscInt_FMT ", this run has -sbp_order %" PetscInt_FMT, s->restart,
             (PetscInt)head[SEAS_CKPT_NHEAD - 1], s->p->order);
  s->steps         = (PetscInt)head[6];
  s->stages        = (PetscInt)head[7];
  s->solves        = (PetscInt)head[8];
  s->extra         = (PetscInt)head[9];
  s->cg_its        = (PetscInt)head[10];
  s->stage_rejects = (PetscInt)head[11];
  s->vmax_peak     = head[12];
  s->vmax_last     = head[13];
  s->dtmin         = head[14];
  s->dtmax         = head[15];
  s->t_station     = head[16];
  s->t_devol       = head[17];
  s->in_event      = head[18] != 0 ? PETSC_TRUE : PETSC_FALSE;
  s->nevents       = (PetscInt)head[19];
  s->header_off    = (long)head[20];
  s->wall          = head[21];
  for (int q = 0; q < SEAS_NSTATIONS + 2; q++) s->restart_off[q] = (long)head[22 + q];
  PetscCall(PetscFree(s->events));
  s->maxevents = PetscMax(16, s->nevents);
  PetscCall(PetscCalloc1(s->maxevents, &s->events));
  if (s->nevents) {
    PetscReal *ev;
    PetscCall(PetscMalloc1(SEAS_CKPT_NEV * s->nevents, &ev));
    PetscCall(PetscViewerBinaryRead(v, ev, SEAS_CKPT_NEV * s->nevents, NULL, PETSC_REAL));
    for (PetscInt e = 0; e < s->nevents; e++) {
      s->events[e].tstart     = ev[SEAS_CKPT_NEV * e];
      s->events[e].tend       = ev[SEAS_CKPT_NEV * e + 1];
      s->events[e].peak_v     = ev[SEAS_CKPT_NEV * e + 2];
      s->events[e].slip_start = ev[SEAS_CKPT_NEV * e + 3];
      s->events[e].slip0      = ev[SEAS_CKPT_NEV * e + 4];
      s->events[e].depth_nucl = ev[SEAS_CKPT_NEV * e + 5];
    }
    PetscCall(PetscFree(ev));
  }
  PetscCall(VecLoad(s->X, v));
  PetscCall(VecLoad(s->u, v));
  PetscCall(VecLoad(s->Vg, v));
  ierr = SeasGuessLoad(s, v);
  if (ierr) PetscCall(PetscViewerDestroy(&v)); /* a damaged basis: the error below, the viewer closed */
  PetscCall(ierr);
  PetscCall(PetscViewerDestroy(&v));
  PetscCall(TSSetTime(s->ts, head[4]));
  PetscCall(TSSetTimeStep(s->ts, head[5]));
  PetscCall(TSSetStepNumber(s->ts, s->steps));
  s->restarted = PETSC_TRUE;
  PetscFunctionReturn(0);
}
