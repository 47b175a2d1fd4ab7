/* The coarse levels of an SbpProblem: how many grids it coarsens into on its ranks (the coarse ranges follow the fine ones) and the problem
   re-discretised on the coarse grid (spec-sbp-sat.md 8.1; docs/design.md "Grids of any size"). */
#include <sbpmg/private/sbpimpl.h>

/* Intervals of a direction's coarse grid on one rank: ceil(N/2) (N/2, the even nodes, where N is even; a grid of other nodes where it
   is odd), or N itself (no coarsening along it: semi-coarsening) where that would leave fewer than 4 intervals. */
static PetscInt SbpCoarseIntervals(PetscInt N)
{
  return (N + 1) / 2 >= 4 ? (N + 1) / 2 : N;
}

/*
  SbpProblemCoarseSizes - The intervals (Nrc, Nsc) of the grid below an Nr x Ns one of this problem: where the longer side has more than
  tuning sbp_coarsen_aspect percent of the other's intervals only it coarsens (140 on GPUs: 1024 x 100 -> 512 x 100 -> 256 x 100 ->
  128 x 100 -> 64 x 50, coarse levels of square cells; docs/design.md "Grids of any size"), otherwise both; a direction is halved where
  even, ceil(N/2) where odd, kept where it would fall below 4 intervals (the other direction then coarsens alone); on any number of
  ranks (whether the ranks can hold the coarse grid is SbpProblemCountLevels()'s question). Equal to (Nr, Ns) where the grid does not
  coarsen. Not collective.
*/
PetscErrorCode SbpProblemCoarseSizes(SbpProblem p, PetscInt Nr, PetscInt Ns, PetscInt *Nrc, PetscInt *Nsc)
{
  const PetscReal aspect = 0.01 * (PetscReal)p->tune.sbp_coarsen_aspect;

  PetscFunctionBegin;
  *Nrc = SbpCoarseIntervals(Nr);
  *Nsc = SbpCoarseIntervals(Ns);
  if (aspect > 0 && *Nrc < Nr && Nr > Ns && Nr > aspect * Ns)
    *Nsc = Ns;
  else if (aspect > 0 && *Nsc < Ns && Ns > Nr && Ns > aspect * Nr)
    *Nrc = Nr;
  PetscFunctionReturn(0);
}

/* The coarse ownership ranges of one direction, the coarse grid of Nc intervals below the fine one of Nf (Nf = 2 Nc: the even nodes;
   ceil(N/2); or Nc = Nf: semi-coarsening), from the fine ranges lf[0..m): coarse node J goes to the rank whose fine range [a, b) holds its reference position
   J Nf / Nc, that is a Nc <= J Nf < b Nc, so lc = ceil(b Nc / Nf) - ceil(a Nc / Nf). A rank's prolongation then reads the coarse grid
   at most one node beyond its block and its restriction the fine grid at most two (Nf / Nc <= 2): within the stencil width 2
   (docs/design.md "Grids of any size"). Returns the smallest coarse range. */
static PetscInt SbpCoarsenRangesAny(PetscInt m, const PetscInt lf[], PetscInt Nf, PetscInt Nc, PetscInt lc[])
{
  PetscInt a = 0, least = PETSC_MAX_INT;

  for (PetscInt i = 0; i < m; i++) {
    const PetscInt b = a + lf[i];
    lc[i]            = (b * Nc + Nf - 1) / Nf - (a * Nc + Nf - 1) / Nf;
    least            = PetscMin(least, lc[i]);
    a                = b;
  }
  return least;
}

/*@C
   SbpProblemCountLevels - How many grids the problem's grid coarsens into, itself included: serial counts the coarsenings the sizes
   allow (SbpProblemCoarseSizes()); distributed stops, in addition, before the first coarse grid that cannot be laid out over the
   same ranks (SbpCoarsenRangesAny()'s ranges; DMDA needs every rank to own at least 2 nodes, its stencil width, in each direction of
   which it has more than one rank). On one rank the two are equal. why (may be NULL) tells what
stops the distributed count first, or is empty.

   Not collective (the ownership ranges are known to every rank)

   Level: developer
@*/
PetscErrorCode SbpProblemCountLevels(SbpProblem p, PetscInt *serial, PetscInt *distributed, char why[], size_t len)
{
  PetscInt        m, n, s, Nr = p->Nr, Ns = p->Ns, L = 1, D = 1, *lx, *ly, *cx, *cy;
  const PetscInt *olx, *oly;
  PetscBool       dist = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  if (why && len) why[0] = 0;
  PetscCall(SbpProblemGetOwnership(p, &m, &n, &s, &olx, &oly));
  PetscCall(PetscMalloc4(m, &lx, n, &ly, m, &cx, n, &cy));
  PetscCall(PetscArraycpy(lx, olx, m));
  PetscCall(PetscArraycpy(ly, oly, n));
  for (;;) {
    PetscInt Nrc = Nr, Nsc = Ns, wr0, ws0;
    PetscCall(SbpProblemCoarseSizes(p, Nr, Ns, &Nrc, &Nsc));
    if (Nrc == Nr && Nsc == Ns) break;
    wr0 = SbpCoarsenRangesAny(m, lx, Nr, Nrc, cx);
    ws0 = SbpCoarsenRangesAny(n, ly, Ns, Nsc, cy);
    Nr  = Nrc;
    Ns  = Nsc;
    L++;
    if (dist) {
      PetscInt  wr = wr0, ws = ws0;
      PetscBool okr = (m == 1 || wr >= s) ? PETSC_TRUE : PETSC_FALSE, oks = (n == 1 || ws >= s) ? PETSC_TRUE : PETSC_FALSE;
      if (okr && oks) {
        D++;
        PetscCall(PetscArraycpy(lx, cx, m));
        PetscCall(PetscArraycpy(ly, cy, n));
      } else {
        dist = PETSC_FALSE;
        if (why && len) {
          PetscInt w = okr ? ws : wr, k = okr ? n : m;
          PetscCall(PetscSNPrintf(why, len,
                                  "the %" PetscInt_FMT " x %" PetscInt_FMT " grid would leave a rank %" PetscInt_FMT " node%s in %s (%" PetscInt_FMT
                                  " nodes over %" PetscInt_FMT " ranks), below the DMDA stencil width %" PetscInt_FMT,
                                  Nr, Ns, w, w == 1 ? "" : "s", okr ? "s" : "r", (okr ? Ns : Nr) + 1, k, s));
        }
      }
    }
  }
  PetscCall(PetscFree4(lx, ly, cx, cy));
  if (serial) *serial = L;
  if (distributed) *distributed = D;
  PetscFunctionReturn(0);
}

/* The DMDA of p's coarse grid on several ranks: the same process grid, SbpCoarsenRangesAny()'s ranges. */
static PetscErrorCode SbpProblemCreateCoarseDMDA(SbpProblem p, PetscInt Nrc, PetscInt Nsc, DM *da)
{
  PetscInt        m, n, s, *cx, *cy;
  const PetscInt *lx, *ly;

  PetscFunctionBegin;
  PetscCall(SbpProblemGetOwnership(p, &m, &n, &s, &lx, &ly));
  PetscCall(PetscMalloc2(m, &cx, n, &cy));
  (void)SbpCoarsenRangesAny(m, lx, p->Nr, Nrc, cx);
  (void)SbpCoarsenRangesAny(n, ly, p->Ns, Nsc, cy);
  PetscCall(DMDACreate2d(PetscObjectComm((PetscObject)p), DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_BOX, Nrc + 1, Nsc + 1, m, n, 1, s, cx, cy, da));
  PetscCall(DMSetUp(*da));
  PetscCall(PetscFree2(cx, cy));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemCoarsen - The problem re-discretised on the coarse grid of SbpProblemCoarseSizes(): half the intervals in a direction of
   even size (the even nodes), ceil(N/2) in one of odd size (other nodes), unchanged in one that would fall below 4 intervals; same
   mapping, coefficient, boundary conditions and backend; on several ranks the DMDA keeps this one's process grid, each coarse node on the
   rank that owns its position in the fine grid (the ranges of SbpProblemCountLevels()).

   Collective

   Level: intermediate
@*/
PetscErrorCode SbpProblemCoarsen(SbpProblem p, SbpProblem *coarse)
{
  SbpProblem c;
  MPI_Comm   comm = PetscObjectComm((PetscObject)p);

  PetscFunctionBegin;
  PetscInt Nrc, Nsc;
  PetscCheck(p->setupcalled, comm, PETSC_ERR_ORDER, "Call SbpProblemSetUp() before SbpProblemCoarsen()");
  PetscCall(SbpProblemCoarseSizes(p, p->Nr, p->Ns, &Nrc, &Nsc));
  PetscCheck(Nrc < p->Nr || Nsc < p->Ns, comm, PETSC_ERR_ARG_SIZ, "Cannot coarsen the %" PetscInt_FMT " x %" PetscInt_FMT " grid: %s", p->Nr, p->Ns,
             "a coarse grid would have fewer than 4 intervals in each direction");
  {
    PetscInt    serial, dist, m, n;
    PetscMPIInt size;
    char        why[256];
    PetscCall(SbpProblemCountLevels(p, &serial, &dist, why, sizeof(why)));
    PetscCall(SbpProblemGetProcessGrid(p, &m, &n));
    PetscCallMPI(MPI_Comm_size(comm, &size));
    PetscCheck(dist > 1, comm, PETSC_ERR_ARG_SIZ,
               "Cannot coarsen the %" PetscInt_FMT " x %" PetscInt_FMT " grid on %d MPI ranks (%" PetscInt_FMT " x %" PetscInt_FMT "): %s", p->Nr, p->Ns, size,
               m, n, why);
  }
  PetscCall(SbpProblemCreate(comm, &c));
  c->Nr        = Nrc;
  c->Ns        = Nsc;
  c->mapping   = p->mapping;
  c->mapfn     = p->mapfn;
  c->mapctx    = p->mapctx;
  c->mu        = p->mu;
  c->mu_value  = p->mu_value;
  c->mufn      = p->mufn;
  c->muctx     = p->mu == SBP_MU_CONSTANT ? &c->mu_value : p->muctx;
  c->metricfn  = p->metricfn;
  c->metricctx = p->metricctx;
  if (p->mapsrc) PetscCall(PetscStrallocpy(p->mapsrc, &c->mapsrc));
  if (p->musrc) PetscCall(PetscStrallocpy(p->musrc, &c->musrc));
  if (p->metricsrc) PetscCall(PetscStrallocpy(p->metricsrc, &c->metricsrc));
  PetscCall(SbpProblemCoarsenNodes(p, c));
  for (int f = 0; f < 4; f++) c->bc[f] = p->bc[f];
  c->tune     = p->tune; /* the kernel variants of the fine level (a test may have changed them) */
  c->tune_set = PETSC_TRUE;
  c->backend  = p->use_device ? SBP_BACKEND_DEVICE : SBP_BACKEND_HOST;
  { /* on several ranks the coarse layout is SbpCoarsenRangesAny()'s (the transfers rely on its ownership ranges); on one rank it is the whole grid, and
       coarsening a DMDA the user asked for (SbpProblemGetDM: with coordinates) would inject those too, 10 s at 8193^2: the coarse level makes its own where it
       needs one */
    PetscMPIInt size;
    PetscCallMPI(MPI_Comm_size(comm, &size));
    if (p->da && size > 1) PetscCall(SbpProblemCreateCoarseDMDA(p, Nrc, Nsc, &c->da));
  }
  c->fine      = 2 * Nrc == p->Nr && 2 * Nsc == p->Ns ? p : NULL; /* the even nodes: the coefficients injected from this level's */
  c->coarsened = PETSC_TRUE;
  {
    PetscErrorCode ierr = SbpProblemSetUp(c);
    c->fine             = NULL;
    if (ierr) PetscCall(SbpProblemDestroy(&c));
    PetscCall(ierr);
  }
  *coarse = c;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemGetDM - The DMDA of the problem's layout ((Nr+1) x (Ns+1) nodes, r fastest, stencil width 2), with the uniform
   coordinates of the reference square [-1,1]^2; made on first use where set-up needed none (one rank, device backend).

   Level: intermediate
@*/
PetscErrorCode SbpProblemGetDM(SbpProblem p, DM *da)
{
  Vec coords;

  PetscFunctionBegin;
  PetscCall(SbpProblemGetLayoutDM(p, da));
  PetscCall(DMGetCoordinates(*da, &coords));
  if (!coords) PetscCall(DMDASetUniformCoordinates(*da, -1, 1, -1, 1, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemGetCorners - This rank's block of nodes, as DMDAGetCorners() of SbpProblemGetDM()'s DMDA gives it (first node (xs, ys),
   xm x ym nodes), without making that DMDA where set-up needed none (at 8193^2 on one rank the DMDA and its coordinates cost
   seconds).

   Not collective

   Output Parameters:
+  xs, ys - the first node of the block (any may be NULL)
-  xm, ym - its size

   Level: beginner

.seealso: `SbpProblemGetDM()`, `SbpProblemGetCoordinates()`
@*/
PetscErrorCode SbpProblemGetCorners(SbpProblem p, PetscInt *xs, PetscInt *ys, PetscInt *xm, PetscInt *ym)
{
  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  if (xs) *xs = p->xs;
  if (ys) *ys = p->ys;
  if (xm) *xm = p->xm;
  if (ym) *ym = p->ym;
  PetscFunctionReturn(0);
}
