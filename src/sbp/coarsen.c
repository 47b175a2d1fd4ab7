/* The coarse levels of an SbpProblem: how many grids it halves into on its ranks (DMCoarsen's layout) and the problem
   re-discretised on the grid of its even nodes (spec-sbp-sat.md 8.1). */
#include <sbpmg/private/sbpimpl.h>

/* The coarse ownership ranges DMCoarsen gives one direction of a non-periodic DMDA (PETSc 3.18's DMDACoarsenOwnershipRanges with
   ratio 2: balanced, each fine boundary within one stencil width s of the coarse one) from the fine ranges lf[0..m). Returns the
   smallest coarse range, or -1 where DMCoarsen finds no compatible ranges. */
static PetscInt SbpCoarsenRanges(PetscInt m, const PetscInt lf[], PetscInt s, PetscInt lc[])
{
  PetscInt totalf = 0, remaining, startc = 0, startf = 0, least = PETSC_MAX_INT;

  for (PetscInt i = 0; i < m; i++) totalf += lf[i];
  remaining = 1 + (totalf - 1) / 2;
  for (PetscInt i = 0; i < m; i++) {
    PetscInt want = remaining / (m - i) + !!(remaining % (m - i));
    if (i < m - 1) {
      const PetscInt nextf = startf + lf[i];
      while (nextf / 2 < startc + want - s) want--;
      while (nextf / 2 > startc + want - 1 + s) want++;
      if (want < 0 || want > remaining || nextf / 2 < startc + want - s || nextf / 2 > startc + want - 1 + s) return -1;
    }
    lc[i] = want;
    least = PetscMin(least, want);
    startc += lc[i];
    startf += lf[i];
    remaining -= lc[i];
  }
  return least;
}

/*@C
   SbpProblemCountLevels - How many grids the problem's grid halves into, itself included: serial counts the halvings the sizes allow
   (even sizes, at least 4 intervals after halving); distributed stops, in addition, before the first coarse grid that DMCoarsen
   cannot lay out over the same ranks (DMDA needs every rank to own at least 2 nodes, its stencil width, in each direction of
   which it has more than one rank). On one rank the two are equal. why (may be NULL) tells what stops the distributed count
   first, or is empty.

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
  while (Nr % 2 == 0 && Ns % 2 == 0 && Nr / 2 >= 4 && Ns / 2 >= 4) {
    Nr /= 2;
    Ns /= 2;
    L++;
    if (dist) {
      PetscInt  wr = SbpCoarsenRanges(m, lx, s, cx), ws = SbpCoarsenRanges(n, ly, s, cy);
      PetscBool okr = (wr >= 0 && (m == 1 || wr >= s)) ? PETSC_TRUE : PETSC_FALSE, oks = (ws >= 0 && (n == 1 || ws >= s)) ? PETSC_TRUE : PETSC_FALSE;
      if (okr && oks) {
        D++;
        PetscCall(PetscArraycpy(lx, cx, m));
        PetscCall(PetscArraycpy(ly, cy, n));
      } else {
        dist = PETSC_FALSE;
        if (why && len) {
          PetscInt w = okr ? ws : wr, k = okr ? n : m;
          if (w < 0)
            PetscCall(PetscSNPrintf(why, len,
                                    "DMCoarsen finds no ownership ranges of the %" PetscInt_FMT " x %" PetscInt_FMT
                                    " grid compatible with the finer ones in %s over %" PetscInt_FMT " ranks",
                                    Nr, Ns, okr ? "s" : "r", k));
          else
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

/*@C
   SbpProblemCoarsen - The problem re-discretised on the grid with half the intervals in each direction (the even nodes of this
   one): same mapping, coefficient, boundary conditions and backend; the DMDA is the coarsening of this one's.

   Collective

   Level: intermediate
@*/
PetscErrorCode SbpProblemCoarsen(SbpProblem p, SbpProblem *coarse)
{
  SbpProblem c;
  MPI_Comm   comm = PetscObjectComm((PetscObject)p);

  PetscFunctionBegin;
  PetscCheck(p->setupcalled, comm, PETSC_ERR_ORDER, "Call SbpProblemSetUp() before SbpProblemCoarsen()");
  PetscCheck(p->Nr % 2 == 0 && p->Ns % 2 == 0, comm, PETSC_ERR_ARG_SIZ,
             "Cannot coarsen the %" PetscInt_FMT " x %" PetscInt_FMT " grid: %s = %" PetscInt_FMT " is odd", p->Nr, p->Ns, p->Nr % 2 ? "Nr" : "Ns",
             p->Nr % 2 ? p->Nr : p->Ns);
  PetscCheck(p->Nr / 2 >= 4 && p->Ns / 2 >= 4, comm, PETSC_ERR_ARG_SIZ,
             "Cannot coarsen the %" PetscInt_FMT " x %" PetscInt_FMT " grid: the coarse grid %" PetscInt_FMT " x %" PetscInt_FMT
             " would have fewer than 4 intervals",
             p->Nr, p->Ns, p->Nr / 2, p->Ns / 2);
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
  c->Nr        = p->Nr / 2;
  c->Ns        = p->Ns / 2;
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
  { /* on several ranks the coarse layout is DMCoarsen's (the transfers rely on its ownership ranges); on one rank it is the whole
       grid, and coarsening a DMDA the user asked for (SbpProblemGetDM: with coordinates) would inject those too, 10 s at 8193^2:
       the coarse level makes its own where it needs one */
    PetscMPIInt size;
    PetscCallMPI(MPI_Comm_size(comm, &size));
    if (p->da && size > 1) PetscCall(DMCoarsen(p->da, comm, &c->da));
  }
  c->fine      = p; /* for the coefficients injected from this level's */
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
