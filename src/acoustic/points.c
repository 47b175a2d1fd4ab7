/* Sources and receivers at set-up and while stepping (docs/acoustic.md "Sources, receivers and traces"): their grid points
   and trilinear weights, the tables of the source values, this rank's share, the device copies; the injection after each
   step and the recording of the traces, on the device (kernels/acoustic_points.cl) or in the host reference. */
#include <sbpmg/private/acousticimpl.h>
#include "sbpmg_kernel_args.h"

/* The grid coordinates g of the position x (m) of source or receiver (kind) number index: g = x / h, snapped to the grid
   index within 1e-6 of a cell (so that i dx is grid point i). Outside the grid is an error; *inpml: within ndamp points of
   a face. */
PetscErrorCode AcousticGridCoordinates_Private(Acoustic ac, const PetscReal x[3], const char kind[], PetscInt index, PetscReal g[3], PetscBool *inpml)
{
  PetscBool out = PETSC_FALSE;

  PetscFunctionBegin;
  *inpml = PETSC_FALSE;
  for (PetscInt a = 0; a < 3; a++) {
    const PetscReal r = PetscFloorReal(x[a] / ac->h[a] + 0.5);
    g[a]              = x[a] / ac->h[a];
    if (PetscAbsReal(g[a] - r) < 1e-6) g[a] = r;
    if (!(g[a] >= 0 && g[a] <= ac->n[a] - 1)) out = PETSC_TRUE;
    if (g[a] < ac->ndamp || g[a] > ac->n[a] - 1 - ac->ndamp) *inpml = PETSC_TRUE;
  }
  if (out) { /* every digit of the position and the extent: 460.0001 is outside [0, 460.], PETSc's %g would print "460." */
    char s[6][32];
    for (PetscInt a = 0; a < 3; a++) {
      PetscCall(AcRealString(x[a], s[a], sizeof(s[a])));
      PetscCall(AcRealString((ac->n[a] - 1) * ac->h[a], s[3 + a], sizeof(s[3 + a])));
    }
    SETERRQ(PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
            "%s %" PetscInt_FMT " at (%s, %s, %s) m is outside the grid [0, %s] x [0, %s] x [0, %s] m", kind, index, s[0], s[1], s[2], s[3], s[4], s[5]);
  }
  PetscFunctionReturn(0);
}

/* A warning (on stderr, from rank 0) that count of the total sources or receivers (kind) lie in the PML. */
static PetscErrorCode AcousticWarnPML(Acoustic ac, const char kind[], PetscInt count, PetscInt total, PetscInt first)
{
  PetscFunctionBegin;
  if (!count) PetscFunctionReturn(0);
  PetscCall(PetscFPrintf(PetscObjectComm((PetscObject)ac), PETSC_STDERR,
                         "Warning: %" PetscInt_FMT " of %" PetscInt_FMT " %s (the first: number %" PetscInt_FMT
                         ") lie in the PML, within -ac_ndamp %" PetscInt_FMT " points of a face of the grid, where the field is damped\n",
                         count, total, kind, first, ac->ndamp));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- sources */

/* A step count t / dt as a 64-bit step, clamped to [0, AC_NEVER] (a delay of 1e9 s or a wavelet of -ac_fmax 1e-6 is far
   beyond any run, never a loop or a table of that length). */
static PetscInt64 AcSteps(PetscReal t)
{
  if (!(t > 0)) return 0;
  if (!(t < (PetscReal)AC_NEVER)) return AC_NEVER;
  return (PetscInt64)t;
}

/* The steps [*first, *end) where amplitude * Ricker(n dt - delay) is not 0 in fp32. The Ricker is amplitude (1 - 2a) e^{-a},
   a = (pi f0 s)^2, s the time from its peak at delay + 1.5 / f0; beyond a* it is below half the smallest fp32 subnormal.
   a* is found by bisection (a fixed count of halvings, whatever the amplitude), the steps by division: no loop over steps. */
static void AcRickerSteps(Acoustic ac, PetscReal delay, PetscReal amplitude, PetscInt64 *first, PetscInt64 *end)
{
  const PetscReal f0 = ac->fmax / 2.5, tiny = 0.5 * 1.401298464324817e-45, amp = PetscAbsReal(amplitude);
  PetscReal       lo = 1.5, hi = 2000, S, peak;

  *first = *end = 0;
  if (amplitude == 0) return;
  for (int it = 0; it < 100; it++) { /* amp (2a - 1) e^{-a} decreases for a > 1.5; at a = 2000 it is 0 for any finite amp */
    const PetscReal mid = 0.5 * (lo + hi);
    if (amp * (2 * mid - 1) * PetscExpReal(-mid) < tiny)
      hi = mid;
    else
      lo = mid;
  }
  S      = PetscSqrtReal(hi) / (PETSC_PI * f0); /* seconds either side of the peak */
  peak   = delay + 1.5 / f0;
  *first = AcSteps(PetscFloorReal((peak - S) / ac->dt));
  *end   = AcSteps(PetscCeilReal((peak + S) / ac->dt) + 1);
}

/* The table's window: the values of the steps [base, base + W) of every source (0 outside [sfirst, send)). Work: W values a
   source, whatever its delay. */
static void AcousticFillSourceWindow(Acoustic ac, PetscInt base)
{
  AcSurvey *sv = &ac->sv;

  for (PetscInt s = 0; s < sv->nsource; s++) {
    const PetscReal delay = ac->nsrclist ? ac->srclist[s].delay : 0, amp = ac->nsrclist ? ac->srclist[s].amplitude : ac->amplitude;
    PetscReal      *t = sv->tab + (size_t)s * sv->W;

    for (PetscInt i = 0; i < sv->W; i++) {
      const PetscInt64 n = (PetscInt64)base + i;
      if (n < sv->sfirst[s] || n >= sv->send[s])
        t[i] = 0;
      else if (ac->nwavelet)
        t[i] = amp * ac->wavelet[n - sv->sfirst[s]];
      else
        t[i] = AcousticRicker(ac->fmax, amp, (PetscReal)n * ac->dt - delay);
    }
  }
  sv->tbase = base;
}

/* The window holds the current step (refilled, and written to the device, when the step left it). */
static PetscErrorCode AcousticSourceWindow(Acoustic ac)
{
  AcSurvey *sv = &ac->sv;

  PetscFunctionBegin;
  if (ac->step >= sv->tbase && ac->step < sv->tbase + sv->W) PetscFunctionReturn(0);
  AcousticFillSourceWindow(ac, ac->step);
  if (ac->backend == ACOUSTIC_BACKEND_DEVICE && sv->dtab) {
    const size_t n   = (size_t)sv->ntab;
    float       *buf = NULL;
    PetscCall(PetscMalloc1(n, &buf));
    for (size_t i = 0; i < n; i++) buf[i] = (float)sv->tab[i];
    {
      PetscErrorCode ierr = SbpmgCLWriteBuffer(ac->cl, sv->dtab, 0, n * sizeof(float), buf);
      PetscCall(PetscFree(buf));                  /* on every path */
      if (ierr) sv->tbase = -(PetscInt)sv->W - 1; /* the device's copy is stale: refill next time */
      PetscCall(ierr);
    }
  }
  PetscFunctionReturn(0);
}

/* The sources in force (the list, or the single source of AcousticSetSource() unless its amplitude is 0): their grid
   coordinates, the steps each adds to, the window of the table at step 0. */
static PetscErrorCode AcousticSetUpSourceTables(Acoustic ac, PetscReal **grid)
{
  AcSurvey *sv    = &ac->sv;
  PetscInt  inpml = 0, first = -1;

  PetscFunctionBegin;
  sv->nsource = ac->nsrclist ? ac->nsrclist : (ac->amplitude != 0 ? 1 : 0);
  sv->W       = PetscMax(1, PetscMin(256, 16384 / PetscMax(sv->nsource, 1))); /* at most 16384 values: AC_PLAN_SOURCES */
  PetscCall(PetscMalloc1(3 * sv->nsource + 1, grid));
  PetscCall(PetscMalloc4(sv->nsource + 1, &sv->soff, sv->nsource + 1, &sv->slen, sv->nsource + 1, &sv->sfirst, sv->nsource + 1, &sv->send));
  sv->ntab      = sv->W * sv->nsource;
  sv->firststep = AC_NEVER;
  sv->laststep  = 0;
  sv->userlen   = AC_NEVER;
  sv->usersrc   = -1;
  for (PetscInt s = 0; s < sv->nsource; s++) {
    const PetscReal delay = ac->nsrclist ? ac->srclist[s].delay : 0, amp = ac->nsrclist ? ac->srclist[s].amplitude : ac->amplitude;
    PetscBool       pml = PETSC_FALSE;

    if (ac->nsrclist) {
      PetscErrorCode ierr = AcousticGridCoordinates_Private(ac, ac->srclist[s].x, "Source", s, *grid + 3 * s, &pml);
      if (ierr) PetscCall(PetscFree(*grid));
      PetscCall(ierr);
    } else
      for (PetscInt a = 0; a < 3; a++) (*grid)[3 * s + a] = (PetscReal)ac->src[a];
    if (pml && !inpml++) first = s;
    sv->soff[s] = s * sv->W;
    sv->slen[s] = sv->W;
    if (ac->nwavelet) {
      sv->sfirst[s] = AcSteps(PetscFloorReal(delay / ac->dt + 0.5));
      sv->send[s]   = PetscMin(sv->sfirst[s] + ac->nwavelet, AC_NEVER);
      if (sv->send[s] < sv->userlen) {
        sv->userlen = sv->send[s];
        sv->usersrc = s;
      }
    } else
      AcRickerSteps(ac, delay, amp, &sv->sfirst[s], &sv->send[s]);
    if (sv->send[s] > sv->sfirst[s]) {
      sv->firststep = PetscMin(sv->firststep, sv->sfirst[s]);
      sv->laststep  = PetscMax(sv->laststep, sv->send[s]);
    }
  }
  PetscCall(AcousticWarnPML(ac, "sources", inpml, sv->nsource, first));
  PetscCall(PetscMalloc1(sv->ntab + 1, &sv->tab));
  AcousticFillSourceWindow(ac, ac->step);
  PetscFunctionReturn(0);
}

typedef struct {
  PetscInt  idx, k, order, src; /* padded index and local plane of the grid point, creation order, source */
  PetscReal w;
} AcContribution;

static int AcCompareContributions(const void *a, const void *b)
{
  const AcContribution *x = (const AcContribution *)a, *y = (const AcContribution *)b;

  if (x->idx != y->idx) return x->idx < y->idx ? -1 : 1;
  return x->order < y->order ? -1 : (x->order > y->order ? 1 : 0);
}

/* This rank's targets: the grid points of its planes with a nonzero weight of some source, sorted by padded index, each
   with its contributions in the order of the sources (so that every rank count adds them alike). */
static PetscErrorCode AcousticSetUpTargets(Acoustic ac, const PetscReal grid[])
{
  AcSurvey       *sv = &ac->sv;
  AcContribution *c;
  PetscInt        nc = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(8 * sv->nsource + 1, &c));
  for (PetscInt s = 0; s < sv->nsource; s++) {
    PetscInt  ijk[8][3];
    PetscReal w[8];

    AcousticTrilinear(grid + 3 * s, ac->n, ijk, w);
    for (PetscInt p = 0; p < 8; p++) {
      const PetscInt k = ijk[p][2] - ac->zs;
      if (w[p] == 0 || k < 0 || k >= ac->nl[2]) continue;
      c[nc].idx   = AcIndex(ac, ijk[p][0], ijk[p][1], k);
      c[nc].k     = k;
      c[nc].order = nc;
      c[nc].src   = s;
      c[nc].w     = w[p];
      nc++;
    }
  }
  qsort(c, (size_t)nc, sizeof(*c), AcCompareContributions);
  sv->ncontrib = nc;
  PetscCall(PetscMalloc4(nc + 1, &sv->tidx, nc + 1, &sv->tstart, nc + 1, &sv->csrc, nc + 1, &sv->cw));
  sv->ntarget = 0;
  sv->twin[0] = sv->twin[1] = -1;
  for (PetscInt i = 0; i < nc; i++) {
    if (!i || c[i].idx != c[i - 1].idx) {
      if (sv->twin[0] < 0 && c[i].k >= ac->zedge[0]) sv->twin[0] = sv->ntarget;
      if (sv->twin[1] < 0 && c[i].k >= ac->zedge[1]) sv->twin[1] = sv->ntarget;
      sv->tidx[sv->ntarget]     = c[i].idx;
      sv->tstart[sv->ntarget++] = i;
    }
    sv->csrc[i] = c[i].src;
    sv->cw[i]   = c[i].w;
  }
  sv->tstart[sv->ntarget] = nc;
  if (sv->twin[0] < 0) sv->twin[0] = sv->ntarget;
  if (sv->twin[1] < 0) sv->twin[1] = sv->ntarget;
  PetscCall(PetscFree(c));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- receivers */

/* This rank's receivers: those whose cell starts in its planes (the cell's upper plane may be its upper halo plane, which
   holds the neighbour's values after every step), with the 8 padded indices and weights of each. */
static PetscErrorCode AcousticSetUpReceivers(Acoustic ac)
{
  AcSurvey *sv    = &ac->sv;
  PetscInt  inpml = 0, first = -1;

  PetscFunctionBegin;
  sv->nrectotal = ac->nrecpos;
  sv->nrec      = 0;
  PetscCall(PetscMalloc3(ac->nrecpos + 1, &sv->rid, 8 * ac->nrecpos + 8, &sv->ridx, 8 * ac->nrecpos + 8, &sv->rw));
  for (PetscInt r = 0; r < ac->nrecpos; r++) {
    PetscReal g[3], w[8];
    PetscInt  ijk[8][3], k0;
    PetscBool pml;

    PetscCall(AcousticGridCoordinates_Private(ac, ac->recpos + 3 * r, "Receiver", r, g, &pml));
    if (pml && !inpml++) first = r;
    AcousticTrilinear(g, ac->n, ijk, w);
    k0 = ijk[0][2] - ac->zs;
    if (k0 < 0 || k0 >= ac->nl[2]) continue;
    for (PetscInt p = 0; p < 8; p++) {
      sv->ridx[8 * sv->nrec + p] = AcIndex(ac, ijk[p][0], ijk[p][1], ijk[p][2] - ac->zs);
      sv->rw[8 * sv->nrec + p]   = w[p];
    }
    sv->rid[sv->nrec++] = r;
  }
  PetscCall(AcousticWarnPML(ac, "receivers", inpml, ac->nrecpos, first));
  PetscFunctionReturn(0);
}

/* The device buffers of the receivers fit: a trace buffer of cap samples and 8 points each, on every rank's device. */
static PetscErrorCode AcousticCheckReceiverMemory(Acoustic ac)
{
  AcSurvey    *sv    = &ac->sv;
  const size_t need  = (size_t)sv->nrec * ((size_t)sv->cap * sizeof(float) + 8 * (sizeof(cl_int) + sizeof(float)));
  const size_t total = ac->cl->mem_cap ? PetscMin(ac->cl->mem_cap, (size_t)ac->cl->global_mem) : (size_t)ac->cl->global_mem;
  const size_t avail = total > ac->cl->mem_used ? total - ac->cl->mem_used : 0;
  int          fail  = need > avail || (size_t)sv->nrec * sv->cap * sizeof(float) > (size_t)ac->cl->max_alloc;

  PetscFunctionBegin;
  if (ac->size > 1) PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &fail, 1, MPI_INT, MPI_MAX, PetscObjectComm((PetscObject)ac)));
  PetscCheck(!fail, PETSC_COMM_SELF, PETSC_ERR_MEM,
             "%" PetscInt_FMT " receivers need %.1f MiB of device memory on rank %d (a buffer of %" PetscInt_FMT
             " trace samples each, tuning ac_trace_samples, and their grid points), more than the %.1f MiB left on %s (or another rank's device); use "
             "fewer receivers",
             sv->nrec, need / 1048576.0, (int)ac->rank, sv->cap, avail / 1048576.0, ac->cl->device_name);
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- set-up */

/* A device copy of n values, if n > 0: the PetscInt values vi as cl_int, or the PetscReal values vr as float. */
static PetscErrorCode AcousticUpload(Acoustic ac, PetscInt n, const PetscInt vi[], const PetscReal vr[], cl_mem *d)
{
  cl_int *ibuf = NULL;
  float  *fbuf = NULL;

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(0);
  PetscCall(PetscMalloc2(vi ? n : 0, &ibuf, vr ? n : 0, &fbuf));
  for (PetscInt i = 0; i < n; i++) {
    if (vi)
      ibuf[i] = (cl_int)vi[i];
    else
      fbuf[i] = (float)vr[i];
  }
  {
    PetscErrorCode ierr = SbpmgCLCreateBuffer(ac->cl, CL_MEM_READ_ONLY, n * sizeof(float), d); /* sizeof(cl_int) == sizeof(float) */
    if (!ierr) ierr = SbpmgCLWriteBuffer(ac->cl, *d, 0, n * sizeof(float), vi ? (const void *)ibuf : (const void *)fbuf);
    PetscCall(PetscFree2(ibuf, fbuf)); /* on every path; *d, if made, is the survey's */
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode AcousticSetUpSurveyDevice(Acoustic ac)
{
  AcSurvey *sv = &ac->sv;

  PetscFunctionBegin;
  sv->cap = ac->tune.ac_trace_samples;
  PetscCall(AcousticCheckReceiverMemory(ac));
  if (sv->ntarget) {
    PetscCall(AcousticGetPointsKernel_Private(ac, "ac_inject", &sv->kinject));
    PetscCall(AcousticUpload(ac, sv->ntarget, sv->tidx, NULL, &sv->dtidx));
    PetscCall(AcousticUpload(ac, sv->ntarget + 1, sv->tstart, NULL, &sv->dtstart));
    PetscCall(AcousticUpload(ac, sv->ncontrib, sv->csrc, NULL, &sv->dcsrc));
    PetscCall(AcousticUpload(ac, sv->ncontrib, NULL, sv->cw, &sv->dcw));
    PetscCall(AcousticUpload(ac, sv->nsource, sv->soff, NULL, &sv->dsoff));
    PetscCall(AcousticUpload(ac, sv->nsource, sv->slen, NULL, &sv->dslen));
    PetscCall(AcousticUpload(ac, PetscMax(sv->ntab, 1), NULL, sv->tab, &sv->dtab));
  }
  if (sv->nrec) {
    PetscCall(AcousticGetPointsKernel_Private(ac, "ac_sample", &sv->ksample));
    PetscCall(AcousticUpload(ac, 8 * sv->nrec, sv->ridx, NULL, &sv->dridx));
    PetscCall(AcousticUpload(ac, 8 * sv->nrec, NULL, sv->rw, &sv->drw));
    PetscCall(SbpmgCLCreateBuffer(ac->cl, CL_MEM_READ_WRITE, (size_t)sv->nrec * sv->cap * sizeof(float), &sv->dtrace));
  }
  PetscFunctionReturn(0);
}

/* The sources and receivers of the settings, after the fields are set up; the first trace sample (u^0). */
PetscErrorCode AcousticSetUpSurvey_Private(Acoustic ac)
{
  PetscReal *grid;

  PetscFunctionBegin;
  PetscCall(AcousticDestroySurvey_Private(ac));
  PetscCall(AcousticSetUpSourceTables(ac, &grid));
  {
    PetscErrorCode ierr = AcousticSetUpTargets(ac, grid);
    PetscCall(PetscFree(grid));
    PetscCall(ierr);
  }
  PetscCall(AcousticSetUpReceivers(ac));
  if (ac->backend == ACOUSTIC_BACKEND_DEVICE) PetscCall(AcousticSetUpSurveyDevice(ac));
  PetscCall(AcousticResetTraces_Private(ac));
  PetscFunctionReturn(0);
}

PetscErrorCode AcousticDestroySurvey_Private(Acoustic ac)
{
  AcSurvey *sv = &ac->sv;

  PetscFunctionBegin;
  PetscCall(PetscFree4(sv->soff, sv->slen, sv->sfirst, sv->send));
  PetscCall(PetscFree(sv->tab));
  PetscCall(PetscFree4(sv->tidx, sv->tstart, sv->csrc, sv->cw));
  PetscCall(PetscFree3(sv->rid, sv->ridx, sv->rw));
  PetscCall(PetscFree(sv->htr));
  if (ac->cl) {
    cl_mem *b[10] = {&sv->dtidx, &sv->dtstart, &sv->dcsrc, &sv->dcw, &sv->dsoff, &sv->dslen, &sv->dtab, &sv->dridx, &sv->drw, &sv->dtrace};
    for (int i = 0; i < 10; i++) PetscCall(SbpmgCLReleaseBuffer(ac->cl, b[i]));
  }
  PetscCall(PetscMemzero(sv, sizeof(*sv)));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- while stepping */

/* A user wavelet covers the K steps from the current one for every source. */
PetscErrorCode AcousticCheckWaveletLength_Private(Acoustic ac, PetscInt K)
{
  const AcSurvey *sv = &ac->sv;

  PetscFunctionBegin;
  PetscCheck(!K || (PetscInt64)ac->step + K <= sv->userlen, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
             "The wavelet of %" PetscInt_FMT " samples (one per step) is shorter than the run: source %" PetscInt_FMT " (delay %" PetscInt64_FMT
             " steps) has no sample for step %" PetscInt64_FMT "; give at least %" PetscInt64_FMT " samples or stop at step %" PetscInt64_FMT,
             ac->nwavelet, sv->usersrc, sv->userlen - ac->nwavelet, sv->userlen, (PetscInt64)ac->nwavelet + ac->step + K - sv->userlen, sv->userlen);
  PetscFunctionReturn(0);
}

/* The sources of this step into the new field v: targets [first, end) (the planes of one window of the step). */
PetscErrorCode AcousticInjectDevice_Private(Acoustic ac, PetscInt first, PetscInt end, cl_mem v)
{
  AcSurvey    *sv = &ac->sv;
  const int    f = (int)first, e = (int)end;
  int          step; /* within the window of the table */
  const size_t wg = (size_t)ac->tune.ac_points_wg, n = (size_t)(end - first);

  PetscFunctionBegin;
  if (end <= first || ac->step < sv->firststep || ac->step >= sv->laststep) PetscFunctionReturn(0);
  PetscCall(AcousticSourceWindow(ac));
  step = (int)(ac->step - sv->tbase);
  PetscCall(SbpmgLogKernelBegin(SBPMG_AcSource));
  {
    /* kernels/acoustic_points.cl ac_inject's arguments by name */
    const struct {
      SbpmgCLArgValue step, first, end, tidx, tstart, csrc, cw, soff, slen, tab, v;
    } args = {.step   = SbpmgCLArgInt(step),
              .first  = SbpmgCLArgInt(f),
              .end    = SbpmgCLArgInt(e),
              .tidx   = SbpmgCLArgMem(sv->dtidx),
              .tstart = SbpmgCLArgMem(sv->dtstart),
              .csrc   = SbpmgCLArgMem(sv->dcsrc),
              .cw     = SbpmgCLArgMem(sv->dcw),
              .soff   = SbpmgCLArgMem(sv->dsoff),
              .slen   = SbpmgCLArgMem(sv->dslen),
              .tab    = SbpmgCLArgMem(sv->dtab),
              .v      = SbpmgCLArgMem(v)};

    SBPMG_CL_SET_ARGS(sv->kinject, ac_inject, &args);
  }
  PetscCall(SbpmgCLLaunch1D(ac->cl, sv->kinject, ((n + wg - 1) / wg) * wg, wg));
  PetscCall(SbpmgLogKernelEnd(SBPMG_AcSource, ac->cl, 2.0 * (end - first), 16.0 * (end - first)));
  PetscFunctionReturn(0);
}

PetscErrorCode AcousticInjectHost_Private(Acoustic ac, PetscReal *v)
{
  AcSurvey *sv = &ac->sv;

  PetscFunctionBegin;
  if (!sv->ntarget || ac->step < sv->firststep || ac->step >= sv->laststep) PetscFunctionReturn(0);
  PetscCall(AcousticSourceWindow(ac)); /* the host's refill cannot fail: no rank leaves a step alone */
  for (PetscInt t = 0; t < sv->ntarget; t++) {
    PetscReal s = 0;
    for (PetscInt c = sv->tstart[t]; c < sv->tstart[t + 1]; c++) {
      const PetscInt q = sv->csrc[c];
      s += sv->cw[c] * sv->tab[sv->soff[q] + ac->step - sv->tbase];
    }
    v[sv->tidx[t]] += s;
  }
  PetscFunctionReturn(0);
}

/* Room on the host for n samples of this rank's receivers. */
PetscErrorCode AcousticReserveTraces_Private(Acoustic ac, PetscInt n)
{
  AcSurvey  *sv = &ac->sv;
  PetscReal *more;

  PetscFunctionBegin;
  if (n <= sv->hcap) PetscFunctionReturn(0);
  n = PetscMax(n, 2 * sv->hcap);
  PetscCall(PetscMalloc1((size_t)n * sv->nrec + 1, &more));
  if (sv->nflushed) PetscCall(PetscArraycpy(more, sv->htr, (size_t)sv->nflushed * sv->nrec));
  PetscCall(PetscFree(sv->htr));
  sv->htr  = more;
  sv->hcap = n;
  PetscFunctionReturn(0);
}

/* The device's samples [nflushed, nsamples) to the host. */
PetscErrorCode AcousticFlushTraces_Private(Acoustic ac)
{
  AcSurvey      *sv = &ac->sv;
  const PetscInt m  = sv->nsamples - sv->nflushed;
  float         *buf;

  PetscFunctionBegin;
  if (ac->backend == ACOUSTIC_BACKEND_HOST || !m || !sv->nrec) {
    sv->nflushed = sv->nsamples;
    PetscFunctionReturn(0);
  }
  PetscCall(AcousticReserveTraces_Private(ac, sv->nsamples));
  PetscCall(PetscMalloc1((size_t)m * sv->nrec, &buf));
  {
    PetscErrorCode ierr = SbpmgCLReadBuffer(ac->cl, sv->dtrace, 0, (size_t)m * sv->nrec * sizeof(float), buf);
    for (size_t i = 0; i < (size_t)m * sv->nrec && !ierr; i++) sv->htr[(size_t)sv->nflushed * sv->nrec + i] = buf[i];
    PetscCall(PetscFree(buf)); /* on every path */
    PetscCall(ierr);
  }
  sv->nflushed = sv->nsamples;
  PetscFunctionReturn(0);
}

/* One trace sample of u^n (n = ac->step) at every receiver: on the device into the trace buffer (read back when full), on
   the host into the traces. */
PetscErrorCode AcousticRecord_Private(Acoustic ac)
{
  AcSurvey *sv = &ac->sv;

  PetscFunctionBegin;
  if (!sv->nrectotal) PetscFunctionReturn(0);
  if (ac->backend == ACOUSTIC_BACKEND_HOST) {
    PetscCall(AcousticReserveTraces_Private(ac, sv->nsamples + 1));
    for (PetscInt r = 0; r < sv->nrec; r++) {
      PetscReal s = 0;
      for (PetscInt p = 0; p < 8; p++) s += sv->rw[8 * r + p] * ac->hu[sv->ridx[8 * r + p]];
      sv->htr[(size_t)sv->nsamples * sv->nrec + r] = s;
    }
    sv->nsamples++;
    sv->nflushed = sv->nsamples;
  } else {
    const size_t wg   = (size_t)ac->tune.ac_points_wg;
    const int    nrec = (int)sv->nrec;
    int          slot;

    if (sv->nsamples - sv->nflushed == sv->cap) PetscCall(AcousticFlushTraces_Private(ac));
    slot = (int)(sv->nsamples - sv->nflushed);
    if (sv->nrec) {
      /* kernels/acoustic_points.cl ac_sample's arguments by name */
      const struct {
        SbpmgCLArgValue nrec, slot, ridx, rw, u, trace;
      } args = {.nrec  = SbpmgCLArgInt(nrec),
                .slot  = SbpmgCLArgInt(slot),
                .ridx  = SbpmgCLArgMem(sv->dridx),
                .rw    = SbpmgCLArgMem(sv->drw),
                .u     = SbpmgCLArgMem(ac->du),
                .trace = SbpmgCLArgMem(sv->dtrace)};

      PetscCall(SbpmgLogKernelBegin(SBPMG_AcReceivers));
      SBPMG_CL_SET_ARGS(sv->ksample, ac_sample, &args);
      PetscCall(SbpmgCLLaunch1D(ac->cl, sv->ksample, ((sv->nrec + wg - 1) / wg) * wg, wg));
      PetscCall(SbpmgLogKernelEnd(SBPMG_AcReceivers, ac->cl, 16.0 * sv->nrec, 68.0 * sv->nrec));
    }
    sv->nsamples++;
  }
  PetscFunctionReturn(0);
}

/* No samples yet (set-up, new initial fields): the next recorded sample is sample 0. */
PetscErrorCode AcousticResetTraces_Private(Acoustic ac)
{
  PetscFunctionBegin;
  ac->sv.nsamples = 0;
  ac->sv.nflushed = 0;
  PetscFunctionReturn(0);
}
