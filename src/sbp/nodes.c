/* A grid and a coefficient given at the nodes (docs/guide.md "Bringing a problem"): the node coordinates x(i,j), y(i,j) and mu(i,j)
   as vectors in natural order (i + (Nr+1) j), arrays, or PETSc binary files. The metric derivatives are an SBP first derivative
   D = H^-1 Q along r and s at order 2, a derivative of order p at every node at SBP order p = 4, 6 (below); a coarse level's nodal
   data are the fine level's at its even nodes. Each rank keeps the nodal
   data on its box, the ghosted patch grown by the derivative's reach: on the device for the kernels (kernels/coef.cl coef_grid),
   on the host where the host evaluates. */
#include <sbpmg/private/sbpimpl.h>

static const char *const SbpNodalNames[] = {"x coordinate", "y coordinate", "mu"};

static PetscBool SbpHasNodes(SbpProblem p)
{
  return (p->node[0] || p->node[2]) ? PETSC_TRUE : PETSC_FALSE;
}

static PetscErrorCode SbpSetNodal(SbpProblem p, PetscInt field, Vec v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(v, VEC_CLASSID, 2);
  PetscCall(PetscObjectReference((PetscObject)v));
  PetscCall(VecDestroy(&p->node[field]));
  p->node[field] = v;
  PetscFunctionReturn(0);
}

/* A vector of n values in natural order from an array given whole on every rank (each rank copies its part). */
static PetscErrorCode SbpVecFromArray(SbpProblem p, PetscInt n, const PetscReal a[], const char what[], Vec *v)
{
  PetscInt     lo, hi;
  PetscScalar *va;

  PetscFunctionBegin;
  PetscCheck(n > 0, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_SIZ, "The %s array has %" PetscInt_FMT " values", what, n);
  PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)p), PETSC_DECIDE, n, v));
  PetscCall(VecGetOwnershipRange(*v, &lo, &hi));
  PetscCall(VecGetArrayWrite(*v, &va));
  for (PetscInt k = lo; k < hi; k++) va[k - lo] = a[k];
  PetscCall(VecRestoreArrayWrite(*v, &va));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetNodeCoordinates - The grid as the physical coordinates of its nodes: x and y in natural order (node (i,j) at index
   i + (Nr+1) j; (Nr+1)(Ns+1) values each, any parallel layout). The mapping's derivatives are those of the SBP first derivative D
   (docs/guide.md "Bringing a problem"); coarse levels take the coordinates of their nodes. References are kept: do not change the
   vectors' values until the problem is destroyed.

   Collective

   Level: intermediate

.seealso: `SbpProblemSetNodeCoordinatesArrays()`, `SbpProblemLoadNodeCoordinates()`, `SbpProblemGetCoordinates()`
@*/
PetscErrorCode SbpProblemSetNodeCoordinates(SbpProblem p, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  PetscCheck(!p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Cannot change the node coordinates after SbpProblemSetUp()");
  PetscCall(SbpSetNodal(p, 0, x));
  PetscCall(SbpSetNodal(p, 1, y));
  PetscCall(PetscFree(p->mapsrc));
  p->mapping = SBP_MAPPING_NODES;
  p->mapfn   = NULL;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetNodeCoordinatesArrays - SbpProblemSetNodeCoordinates() from arrays of n = (Nr+1)(Ns+1) values in natural order, the
   whole grid on every rank (copied).

   Collective

   Level: intermediate
@*/
PetscErrorCode SbpProblemSetNodeCoordinatesArrays(SbpProblem p, PetscInt n, const PetscReal x[], const PetscReal y[])
{
  Vec vx, vy;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  PetscCheck(!p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Cannot change the node coordinates after SbpProblemSetUp()");
  PetscCall(SbpVecFromArray(p, n, x, "x coordinate", &vx));
  PetscCall(SbpVecFromArray(p, n, y, "y coordinate", &vy));
  PetscCall(SbpProblemSetNodeCoordinates(p, vx, vy));
  PetscCall(VecDestroy(&vx));
  PetscCall(VecDestroy(&vy));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemLoadNodeCoordinates - SbpProblemSetNodeCoordinates() from a PETSc binary viewer holding two vectors, x then y (as
   VecView() writes them; -sbp_grid_file opens one).

   Collective

   Level: intermediate
@*/
PetscErrorCode SbpProblemLoadNodeCoordinates(SbpProblem p, PetscViewer viewer)
{
  Vec v[2] = {NULL, NULL};

  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  PetscCheck(!p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Cannot change the node coordinates after SbpProblemSetUp()");
  for (int c = 0; c < 2; c++) {
    PetscErrorCode ierr = SbpProblemLoadVec(p, viewer, SbpNodalNames[c], &v[c]);
    if (ierr) PetscCall(VecDestroy(&v[0]));
    PetscCall(ierr);
  }
  PetscCall(SbpProblemSetNodeCoordinates(p, v[0], v[1]));
  for (int c = 0; c < 2; c++) PetscCall(VecDestroy(&v[c]));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetMuVector - mu at the nodes, in natural order ((Nr+1)(Ns+1) values, any parallel layout); checked at set-up (finite,
   > 0, the first bad node named). A reference is kept.

   Collective

   Level: intermediate

.seealso: `SbpProblemSetMuArray()`, `SbpProblemLoadMu()`
@*/
PetscErrorCode SbpProblemSetMuVector(SbpProblem p, Vec mu)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  PetscCheck(!p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Cannot change mu after SbpProblemSetUp()");
  PetscCall(SbpSetNodal(p, 2, mu));
  PetscCall(PetscFree(p->musrc));
  p->mu   = SBP_MU_NODES;
  p->mufn = NULL;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetMuArray - SbpProblemSetMuVector() from an array of n = (Nr+1)(Ns+1) values in natural order, the whole grid on every
   rank (copied).

   Collective

   Level: intermediate
@*/
PetscErrorCode SbpProblemSetMuArray(SbpProblem p, PetscInt n, const PetscReal mu[])
{
  Vec v;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  PetscCheck(!p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Cannot change mu after SbpProblemSetUp()");
  PetscCall(SbpVecFromArray(p, n, mu, "mu", &v));
  PetscCall(SbpProblemSetMuVector(p, v));
  PetscCall(VecDestroy(&v));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemLoadMu - SbpProblemSetMuVector() from a PETSc binary viewer holding one vector (-sbp_mu_file opens one).

   Collective

   Level: intermediate
@*/
PetscErrorCode SbpProblemLoadMu(SbpProblem p, PetscViewer viewer)
{
  Vec v;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  PetscCheck(!p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Cannot change mu after SbpProblemSetUp()");
  PetscCall(SbpProblemLoadVec(p, viewer, SbpNodalNames[2], &v));
  PetscCall(SbpProblemSetMuVector(p, v));
  PetscCall(VecDestroy(&v));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemDestroyNodes(SbpProblem p)
{
  PetscFunctionBegin;
  for (int c = 0; c < 3; c++) PetscCall(VecDestroy(&p->node[c]));
  PetscCall(PetscFree(p->nbox));
  PetscFunctionReturn(0);
}

/* The nodal data of the box scattered from the natural vectors into p->nbox (x, y, mu one after the other; a field without data
   is left zero). Collective. */
static PetscErrorCode SbpScatterBox(SbpProblem p)
{
  const PetscInt nb = p->bxm * p->bym;
  PetscInt      *idx;
  IS             is;
  Vec            local;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(3 * nb, &p->nbox));
  PetscCall(PetscMalloc1(nb, &idx));
  for (PetscInt j = 0; j < p->bym; j++)
    for (PetscInt i = 0; i < p->bxm; i++) idx[i + p->bxm * j] = (p->bxs + i) + (p->Nr + 1) * (p->bys + j);
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, nb, idx, PETSC_OWN_POINTER, &is));
  for (int c = 0; c < 3; c++) {
    VecScatter sc;
    if (!p->node[c]) continue;
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, nb, p->nbox + c * nb, &local));
    PetscCall(VecScatterCreate(p->node[c], is, local, NULL, &sc));
    PetscCall(VecScatterBegin(sc, p->node[c], local, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(sc, p->node[c], local, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterDestroy(&sc));
    PetscCall(VecDestroy(&local));
  }
  PetscCall(ISDestroy(&is));
  PetscFunctionReturn(0);
}

/* The first owned node, in natural order over all ranks, whose nodal value is not finite (or mu not positive): an error naming it. */
static PetscErrorCode SbpCheckNodalValues(SbpProblem p)
{
  const PetscInt nb  = p->bxm * p->bym;
  PetscInt       bad = PETSC_MAX_INT, first; /* 3 n + the field */
  PetscReal      v   = 0, vg;

  PetscFunctionBegin;
  for (int c = 0; c < 3; c++) {
    if (!p->node[c]) continue;
    for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
      for (PetscInt i = p->xs; i < p->xs + p->xm; i++) {
        PetscReal w = p->nbox[c * nb + (i - p->bxs) + p->bxm * (j - p->bys)];
        if (PetscIsInfOrNanReal(w) || (c == 2 && !(w >= SBP_MU_MIN && w <= SBP_MU_MAX))) bad = PetscMin(bad, 3 * (i + (p->Nr + 1) * j) + c);
      }
  }
  PetscCall(MPIU_Allreduce(&bad, &first, 1, MPIU_INT, MPI_MIN, PetscObjectComm((PetscObject)p)));
  if (first == PETSC_MAX_INT) PetscFunctionReturn(0);
  {
    const PetscInt c = first % 3, i = (first / 3) % (p->Nr + 1), j = (first / 3) / (p->Nr + 1);
    if (first == bad) v = p->nbox[c * nb + (i - p->bxs) + p->bxm * (j - p->bys)];
    PetscCall(MPIU_Allreduce(&v, &vg, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)p)));
    SETERRQ(PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE, "The %s at node (i,j) = (%" PetscInt_FMT ",%" PetscInt_FMT ") is %g: %s",
            SbpNodalNames[c], i, j, (double)vg, c == 2 ? "mu must be finite and > 0, in [1e-30, 1e30]" : "coordinates must be finite");
  }
}

static PetscReal SbpBoxValue(SbpProblem p, int c, PetscInt i, PetscInt j)
{
  return p->nbox[c * p->bxm * p->bym + (i - p->bxs) + p->bxm * (j - p->bys)];
}

/* Twice the signed area of the triangle (a, b, c) of the box's nodes: > 0 where it turns counter-clockwise. */
static PetscReal SbpCorner(SbpProblem p, PetscInt ai, PetscInt aj, PetscInt bi, PetscInt bj, PetscInt ci, PetscInt cj)
{
  const PetscReal ax = SbpBoxValue(p, 0, ai, aj), ay = SbpBoxValue(p, 1, ai, aj);

  return (SbpBoxValue(p, 0, bi, bj) - ax) * (SbpBoxValue(p, 1, ci, cj) - ay) - (SbpBoxValue(p, 1, bi, bj) - ay) * (SbpBoxValue(p, 0, ci, cj) - ax);
}

/* Every cell of a node grid a valid bilinear quadrilateral: at each corner the r edge and the s edge turn counter-clockwise (the
   Jacobian of the cell's bilinear map, positive at its four corners, is positive in the whole cell). The metric of the SBP
   derivative reads nodes two apart, so a grid folded every other column has J > 0 at every node and needs this check: the first bad
   cell in natural order (cell (i,j) has nodes (i,j) to (i+1,j+1)) is named. The coarse levels' grids are derived, not checked. */
static PetscErrorCode SbpCheckCells(SbpProblem p)
{
  PetscInt  bad  = PETSC_MAX_INT, first;
  PetscReal v[5] = {0, 0, 0, 0, 0}, vg[5];

  PetscFunctionBegin;
  for (PetscInt j = p->ys; j < PetscMin(p->ys + p->ym, p->Ns); j++)
    for (PetscInt i = p->xs; i < PetscMin(p->xs + p->xm, p->Nr); i++) {
      const PetscReal c[4] = {SbpCorner(p, i, j, i + 1, j, i, j + 1), SbpCorner(p, i + 1, j, i + 1, j + 1, i, j),
                              SbpCorner(p, i + 1, j + 1, i, j + 1, i + 1, j), SbpCorner(p, i, j + 1, i, j, i + 1, j + 1)};
      if (!(c[0] > 0 && c[1] > 0 && c[2] > 0 && c[3] > 0) && i + p->Nr * j < bad) {
        bad = i + p->Nr * j;
        for (int k = 0; k < 4; k++) v[k] = c[k];
      }
    }
  PetscCall(MPIU_Allreduce(&bad, &first, 1, MPIU_INT, MPI_MIN, PetscObjectComm((PetscObject)p)));
  if (first == PETSC_MAX_INT) PetscFunctionReturn(0);
  if (first != bad)
    for (int k = 0; k < 4; k++) v[k] = 0;
  PetscCall(MPIU_Allreduce(v, vg, 4, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)p)));
  {
    const PetscInt i = first % p->Nr, j = first / p->Nr;
    SETERRQ(PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE,
            "The node grid's cell (i,j) = (%" PetscInt_FMT ",%" PetscInt_FMT ") (nodes (%" PetscInt_FMT ",%" PetscInt_FMT ") to (%" PetscInt_FMT
            ",%" PetscInt_FMT
            ")) is inverted, folded or degenerate: twice its corners' signed areas (r edge x s edge) are %g, %g, %g, %g; every cell must turn "
            "counter-clockwise from r to s with all four > 0",
            i, j, i, j, i + 1, j + 1, (double)vg[0], (double)vg[1], (double)vg[2], (double)vg[3]);
  }
}

/* At set-up, after the layout: the nodal vectors fit the grid, their values on the box (host), checked; on the device backend
   uploaded into p->d_nodes and the host copy dropped. */
PetscErrorCode SbpProblemSetUpNodes(SbpProblem p)
{
  const PetscInt N = (p->Nr + 1) * (p->Ns + 1);

  PetscFunctionBegin;
  p->bxs = PetscMax(p->gxs - SBP_NODES_GROW, 0);
  p->bys = PetscMax(p->gys - SBP_NODES_GROW, 0);
  p->bxm = PetscMin(p->gxs + p->gxm + SBP_NODES_GROW, p->Nr + 1) - p->bxs;
  p->bym = PetscMin(p->gys + p->gym + SBP_NODES_GROW, p->Ns + 1) - p->bys;
  if (!SbpHasNodes(p)) PetscFunctionReturn(0);
  if (p->order == 4 || p->order == 6) { /* the end rows of the order-p derivative read nodes 0..p and N-p..N: in the box wherever used */
    const PetscInt q = p->order / 2, gs[2] = {p->gxs, p->gys}, gm[2] = {p->gxm, p->gym}, bs[2] = {p->bxs, p->bys}, bm[2] = {p->bxm, p->bym};
    for (int d = 0; d < 2; d++) {
      const PetscInt Nd = d ? p->Ns : p->Nr;
      PetscCheck(!(gs[d] < q) || bs[d] + bm[d] > p->order, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "The box of the nodal data (%" PetscInt_FMT " nodes from %" PetscInt_FMT ") misses node %" PetscInt_FMT " of the order-%" PetscInt_FMT
                 " derivative",
                 bm[d], bs[d], p->order, p->order);
      PetscCheck(!(gs[d] + gm[d] - 1 > Nd - q) || bs[d] <= Nd - p->order, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "The box of the nodal data (%" PetscInt_FMT " nodes from %" PetscInt_FMT ") misses node %" PetscInt_FMT " of the order-%" PetscInt_FMT
                 " derivative",
                 bm[d], bs[d], Nd - p->order, p->order);
    }
  }
  for (int c = 0; c < 3; c++) {
    PetscInt n;
    if (!p->node[c]) continue;
    PetscCall(VecGetSize(p->node[c], &n));
    PetscCheck(n == N, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_SIZ,
               "The %s vector has %" PetscInt_FMT " values: the %" PetscInt_FMT " x %" PetscInt_FMT " grid has %" PetscInt_FMT
               " nodes ((Nr+1)(Ns+1), natural order)",
               SbpNodalNames[c], n, p->Nr, p->Ns, N);
  }
  PetscCall(SbpScatterBox(p));
  PetscCall(SbpCheckNodalValues(p));
  if (p->node[0] && !p->coarsened) PetscCall(SbpCheckCells(p));
  PetscFunctionReturn(0);
}

/* The curved map's table on the box (kernels/coef.cl coef_geometry): sin and cos of pi (t + 1) / 2 at the box's values t of r,
   then of s, the angles of the map's edges (docs/guide.md "The PDE"), after the nodal data. */
static void SbpCurvedTable(SbpProblem p, PetscReal *t)
{
  for (PetscInt k = 0; k < p->bxm + p->bym; k++) {
    const PetscBool alongr = k < p->bxm ? PETSC_TRUE : PETSC_FALSE;
    const PetscReal v = alongr ? -1 + (p->bxs + k) * p->hr : -1 + (p->bys + k - p->bxm) * p->hs, a = PETSC_PI * (v + 1) / 2;

    t[2 * k]     = PetscSinReal(a);
    t[2 * k + 1] = PetscCosReal(a);
  }
}

/* The device's copy of the box: the nodal data, and for the curved map its table (or one value where there is neither: the
   kernels take the buffer anyway). */
PetscErrorCode SbpProblemUploadNodes(SbpProblem p)
{
  const size_t nodal = SbpHasNodes(p) ? 3 * (size_t)p->bxm * p->bym : 0, table = p->mapping == SBP_MAPPING_CURVED ? 2 * (size_t)(p->bxm + p->bym) : 0;
  const size_t maptable = SbpProblemMappingTableSize(p); /* a host mapping function's values on the box (src/sbp/maptable.c) */

  PetscFunctionBegin;
  PetscCall(SbpmgCLCreateBuffer(p->cl, CL_MEM_READ_ONLY, PetscMax(nodal + table + maptable, 1) * sizeof(PetscReal), &p->d_nodes));
  PetscCall(SbpProblemUploadMappingTable(p, nodal));
  if (nodal) PetscCall(SbpmgCLWriteBuffer(p->cl, p->d_nodes, 0, nodal * sizeof(PetscReal), p->nbox));
  if (table) { /* the host copy freed on every path */
    PetscReal     *t;
    PetscErrorCode ierr;
    PetscCall(PetscMalloc1(table, &t));
    SbpCurvedTable(p, t);
    ierr = SbpmgCLWriteBuffer(p->cl, p->d_nodes, nodal * sizeof(PetscReal), table * sizeof(PetscReal), t);
    PetscCall(PetscFree(t));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

/* The box on the host again where something evaluates there (collective: the callers are); a mapping given only as OpenCL source
   read back from the device (src/sbp/maptable.c). */
PetscErrorCode SbpProblemGetHostNodes(SbpProblem p)
{
  PetscFunctionBegin;
  if (SbpHasNodes(p) && !p->nbox) PetscCall(SbpScatterBox(p));
  PetscCall(SbpProblemGetHostMapping(p));
  PetscFunctionReturn(0);
}

/* The diagonal-norm SBP first derivative of interior order 4 and boundary order 2 (docs/guide.md "Bringing a problem"): the
   closure's rows 0..3 (their weights on nodes 0..5; the last rows mirrored with the sign changed), then the centred 4th-order
   stencil. Where a direction has fewer than 8 intervals, the second-order operator: centred, one-sided at the end nodes. */
static const PetscReal SbpD42[4][6] = {{-24.0 / 17, 59.0 / 34, -4.0 / 17, -3.0 / 34, 0, 0},
                                       {-0.5, 0, 0.5, 0, 0, 0},
                                       {4.0 / 43, -59.0 / 86, 0, 59.0 / 86, -4.0 / 43, 0},
                                       {3.0 / 98, 0, -59.0 / 98, 0, 32.0 / 49, -4.0 / 49}};

/* At SBP order p = 4, 6 the derivative of the nodal data is of order p at every node (docs/guide.md "Bringing a problem"): not SBP,
   it only makes coefficients. At the p/2 nodes nearest an end, the derivative of the polynomial interpolating nodes 0..p (row r:
   the weights of nodes 0..p at node r; mirrored with the sign changed at the far end); elsewhere the centred stencil of p + 1 points
   (the last row: the weights of offsets 1..p/2, antisymmetric). kernels/coef.cl (coef_nodal_dp) has the same. */
static const PetscReal SbpNodesD4[3][7] = {{-25.0 / 12, 4, -3, 4.0 / 3, -1.0 / 4, 0, 0}, /* nodes 0..4 at node 0 */
                                           {-1.0 / 4, -5.0 / 6, 3.0 / 2, -1.0 / 2, 1.0 / 12, 0, 0},
                                           {2.0 / 3, -1.0 / 12, 0, 0, 0, 0, 0}};
static const PetscReal SbpNodesD6[4][7] = {{-49.0 / 20, 6, -15.0 / 2, 20.0 / 3, -15.0 / 4, 6.0 / 5, -1.0 / 6},
                                           {-1.0 / 6, -77.0 / 60, 5.0 / 2, -5.0 / 3, 5.0 / 6, -1.0 / 4, 1.0 / 30},
                                           {1.0 / 30, -2.0 / 5, -7.0 / 12, 4.0 / 3, -1.0 / 2, 2.0 / 15, -1.0 / 60},
                                           {3.0 / 4, -3.0 / 20, 1.0 / 60, 0, 0, 0, 0}};

/* D along r (dir 0) or s (dir 1) of field c at node (i,j): the order-p derivative above at order p = 4, 6 (a direction of at least
   p intervals: always, the order's minimum is 11 or 17), else the SBP derivative of interior order 4 and boundary order 2. */
static PetscReal SbpBoxDerivative(SbpProblem p, int c, int dir, PetscInt i, PetscInt j)
{
  const PetscInt  n = dir ? j : i, N = dir ? p->Ns : p->Nr, di = dir ? 0 : 1, dj = dir ? 1 : 0;
  const PetscReal h = dir ? p->hs : p->hr;
#define U(o) SbpBoxValue(p, c, i + (o)*di, j + (o)*dj)

  if ((p->order == 4 || p->order == 6) && N >= p->order) {
    const PetscInt q       = p->order / 2;
    const PetscReal(*W)[7] = p->order == 4 ? SbpNodesD4 : SbpNodesD6;
    PetscReal d            = 0;
    if (n < q || n > N - q) { /* row n from node 0, or row N - n from node N mirrored */
      const PetscInt row = n < q ? n : N - n, sign = n < q ? 1 : -1;
      for (PetscInt k = 0; k <= p->order; k++) d += W[row][k] * U(sign * (k - row));
      return sign * d / h;
    }
    for (PetscInt k = 1; k <= q; k++) d += W[q][k - 1] * (U(k) - U(-k));
    return d / h;
  }
  if (N < 8) {
    if (n == 0) return (U(1) - U(0)) / h;
    if (n == N) return (U(0) - U(-1)) / h;
    return (U(1) - U(-1)) / (2 * h);
  }
  if (n < 4 || n > N - 4) { /* the closure: row n from node 0, or row N - n from node N mirrored */
    const PetscInt row = n < 4 ? n : N - n, sign = n < 4 ? 1 : -1;
    PetscReal      d = 0;
    for (PetscInt k = 0; k < 6; k++) d += SbpD42[row][k] * U(sign * (k - row));
    return sign * d / h;
  }
  return (U(-2) / 12 - 2 * U(-1) / 3 + 2 * U(1) / 3 - U(2) / 12) / h;
#undef U
}

/* X = {x, y, x_r, x_s, y_r, y_s} at node (i,j) of a node-coordinate grid (the box on the host). */
PetscErrorCode SbpProblemNodesMapping(SbpProblem p, PetscInt i, PetscInt j, PetscReal X[6])
{
  PetscFunctionBegin;
  PetscCheck(p->nbox, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The node coordinates are not on the host (SbpProblemGetHostNodes())");
  X[0] = SbpBoxValue(p, 0, i, j);
  X[1] = SbpBoxValue(p, 1, i, j);
  X[2] = SbpBoxDerivative(p, 0, 0, i, j);
  X[3] = SbpBoxDerivative(p, 0, 1, i, j);
  X[4] = SbpBoxDerivative(p, 1, 0, i, j);
  X[5] = SbpBoxDerivative(p, 1, 1, i, j);
  PetscFunctionReturn(0);
}

/* mu at node (i,j), and where grad is not NULL its gradient by the chain rule from D mu along r and s and the metric X. */
PetscErrorCode SbpProblemNodesMu(SbpProblem p, PetscInt i, PetscInt j, const PetscReal X[6], PetscReal *mu, PetscReal grad[2])
{
  PetscFunctionBegin;
  PetscCheck(p->nbox, PETSC_COMM_SELF, PETSC_ERR_PLIB, "mu at the nodes is not on the host (SbpProblemGetHostNodes())");
  *mu = SbpBoxValue(p, 2, i, j);
  if (grad) {
    const PetscReal mr = SbpBoxDerivative(p, 2, 0, i, j), ms = SbpBoxDerivative(p, 2, 1, i, j), J = X[2] * X[5] - X[3] * X[4];
    grad[0] = (mr * X[5] - ms * X[4]) / J;
    grad[1] = (ms * X[2] - mr * X[3]) / J;
  }
  PetscFunctionReturn(0);
}

/* Position of coarse node ic of Nc intervals on the fine line of Nf: fine node *i0 and the weight *w of node *i0 + 1 (linear
   interpolation between the uniform reference grids; w = 0 where the coarse node is a fine one). */
static void SbpCoarseNodePosition(PetscInt ic, PetscInt Nc, PetscInt Nf, PetscInt *i0, PetscReal *w)
{
  *i0 = (ic * Nf) / Nc;
  *w  = (PetscReal)((ic * Nf) % Nc) / (PetscReal)Nc;
}

/* A coarse grid that is not the fine one's even nodes (sizes that do not halve): each nodal field at the coarse nodes by bilinear
   interpolation of the fine nodes in the reference square (the coarse metrics are then D of these coordinates). The nodal fields are
   natural-order vectors: each rank gathers the four fine nodes around each coarse node it owns. */
static PetscErrorCode SbpProblemInterpolateNodes(SbpProblem p, SbpProblem c)
{
  PetscInt   lo, hi, *idx;
  PetscReal *w;
  IS         is;

  PetscFunctionBegin;
  {
    Vec v;
    PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)p), PETSC_DECIDE, (c->Nr + 1) * (c->Ns + 1), &v));
    PetscCall(VecGetOwnershipRange(v, &lo, &hi));
    PetscCall(VecDestroy(&v));
  }
  PetscCall(PetscMalloc1(4 * (hi - lo), &idx));
  PetscCall(PetscMalloc1(2 * (hi - lo), &w));
  for (PetscInt k = lo; k < hi; k++) { /* fine nodes (i0|i1, j0|j1) of coarse node k, and the weights of i1 and j1 */
    PetscInt i0, j0, i1, j1, q = k - lo;
    SbpCoarseNodePosition(k % (c->Nr + 1), c->Nr, p->Nr, &i0, &w[2 * q]);
    SbpCoarseNodePosition(k / (c->Nr + 1), c->Ns, p->Ns, &j0, &w[2 * q + 1]);
    i1             = PetscMin(i0 + 1, p->Nr);
    j1             = PetscMin(j0 + 1, p->Ns);
    idx[4 * q]     = i0 + (p->Nr + 1) * j0;
    idx[4 * q + 1] = i1 + (p->Nr + 1) * j0;
    idx[4 * q + 2] = i0 + (p->Nr + 1) * j1;
    idx[4 * q + 3] = i1 + (p->Nr + 1) * j1;
  }
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, 4 * (hi - lo), idx, PETSC_OWN_POINTER, &is));
  for (int f = 0; f < 3; f++) {
    Vec                corners, v;
    VecScatter         sc;
    const PetscScalar *a;
    PetscScalar       *b;
    if (!p->node[f]) continue;
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4 * (hi - lo), &corners));
    PetscCall(VecScatterCreate(p->node[f], is, corners, NULL, &sc));
    PetscCall(VecScatterBegin(sc, p->node[f], corners, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(sc, p->node[f], corners, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterDestroy(&sc));
    PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)p), hi - lo, (c->Nr + 1) * (c->Ns + 1), &v));
    PetscCall(VecGetArrayRead(corners, &a));
    PetscCall(VecGetArrayWrite(v, &b));
    for (PetscInt q = 0; q < hi - lo; q++) {
      const PetscReal wi = w[2 * q], wj = w[2 * q + 1];
      b[q] = (1 - wj) * ((1 - wi) * a[4 * q] + wi * a[4 * q + 1]) + wj * ((1 - wi) * a[4 * q + 2] + wi * a[4 * q + 3]);
    }
    PetscCall(VecRestoreArrayWrite(v, &b));
    PetscCall(VecRestoreArrayRead(corners, &a));
    PetscCall(VecDestroy(&corners));
    c->node[f] = v;
  }
  PetscCall(ISDestroy(&is));
  PetscCall(PetscFree(w));
  PetscFunctionReturn(0);
}

/* A coarse level's nodal data: the fine level's at the even nodes (natural vectors of the coarse grid, the default layout), or
   interpolated (sizes that do not halve). */
PetscErrorCode SbpProblemCoarsenNodes(SbpProblem p, SbpProblem c)
{
  PetscFunctionBegin;
  if (!SbpHasNodes(p)) PetscFunctionReturn(0); /* no nodal data: nothing to carry (a grid-sized index set else) */
  if (2 * c->Nr != p->Nr || 2 * c->Ns != p->Ns) {
    PetscCall(SbpProblemInterpolateNodes(p, c));
    PetscFunctionReturn(0);
  }
  for (int f = 0; f < 3; f++) {
    Vec        v;
    IS         is;
    VecScatter sc;
    PetscInt   lo, hi, *idx;

    if (!p->node[f]) continue;
    PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)p), PETSC_DECIDE, (c->Nr + 1) * (c->Ns + 1), &v));
    PetscCall(VecGetOwnershipRange(v, &lo, &hi));
    PetscCall(PetscMalloc1(hi - lo, &idx));
    for (PetscInt k = lo; k < hi; k++) idx[k - lo] = 2 * (k % (c->Nr + 1)) + (p->Nr + 1) * 2 * (k / (c->Nr + 1));
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, hi - lo, idx, PETSC_OWN_POINTER, &is));
    PetscCall(VecScatterCreate(p->node[f], is, v, NULL, &sc));
    PetscCall(VecScatterBegin(sc, p->node[f], v, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(sc, p->node[f], v, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterDestroy(&sc));
    PetscCall(ISDestroy(&is));
    c->node[f] = v;
  }
  PetscFunctionReturn(0);
}
