/* SbpProblem, the object: the grid, mapping, coefficient and boundary conditions of the SBP-SAT problem (spec-sbp-sat.md
   sections 0, 1, 4), their setters and getters, the options prefix, view and destroy. Options: src/sbp/options.c; set-up:
   src/sbp/setup.c; coarsening: src/sbp/coarsen.c. */
#include <sbpmg/private/sbpimpl.h>

/* PetscOptionsEnum lists: the names, the type, the prefix of the values */
const char *const SbpMappingTypes[] = {"curved", "square", "user", "nodes", "SbpMappingType", "SBP_MAPPING_", NULL};
const char *const SbpMuTypes[]      = {"basin", "constant", "user", "nodes", "SbpMuType", "SBP_MU_", NULL};
const char *const SbpBackends[]     = {"auto", "device", "host", "SbpBackend", "SBP_BACKEND_", NULL};

PetscErrorCode (*SbpmgPackageInitializer)(void) = NULL;

/*@C
   SbpProblemCreate - Create an SBP-SAT problem description: grid Nr x Ns (hr = 2/Nr, hs = 2/Ns), mapping, coefficient mu and
   the boundary condition of each face. Defaults: 32 x 32, the curved quadrilateral, the basin coefficient, Dirichlet on faces
   1 and 2 (r = -1, +1), Neumann on faces 3 and 4 (s = -1, +1), the device backend when an OpenCL device is found (any number of
   ranks), else the host. Registers the whole package (SbpmgInitializePackage(), idempotent) when libsbpmg is the shared library,
   so a program that forgot that call still finds -pc_type sbpmg and -ksp_type sbpcg.

   Collective

   Level: beginner

.seealso: `SbpProblemSetFromOptions()`, `SbpProblemSetUp()`, `SbpProblemCreateOperator()`
@*/
PetscErrorCode SbpProblemCreate(MPI_Comm comm, SbpProblem *problem)
{
  SbpProblem p;

  PetscFunctionBegin;
  PetscValidPointer(problem, 2);
  PetscCall(SbpInitializePackage());
  if (SbpmgPackageInitializer) PetscCall((*SbpmgPackageInitializer)());
  PetscCall(PetscHeaderCreate(p, SBP_PROBLEM_CLASSID, "SbpProblem", "SBP-SAT problem", "SbpProblem", comm, SbpProblemDestroy, SbpProblemView));
  p->Nr       = 32;
  p->Ns       = 32;
  p->order    = 2;
  p->mapping  = SBP_MAPPING_CURVED;
  p->mapfn    = SbpMappingCurved;
  p->mu       = SBP_MU_BASIN;
  p->mufn     = SbpMuBasin;
  p->mu_value = 1;
  p->bc[0] = p->bc[1] = SBP_BC_DIRICHLET;
  p->bc[2] = p->bc[3] = SBP_BC_NEUMANN;
  p->backend          = SBP_BACKEND_AUTO;
  *problem            = p;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemCheckNotSetUp(SbpProblem p, const char what[])
{
  PetscFunctionBegin;
  PetscCheck(!p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Cannot change %s after SbpProblemSetUp()", what);
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetSizes - Set the number of grid intervals in r and s (Nr, Ns >= 4; multigrid needs them even on every level
   but the coarsest).

   Logically collective

   Level: beginner
@*/
PetscErrorCode SbpProblemSetSizes(SbpProblem p, PetscInt Nr, PetscInt Ns)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "the grid size"));
  p->Nr = Nr;
  p->Ns = Ns;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemGetSizes(SbpProblem p, PetscInt *Nr, PetscInt *Ns)
{
  PetscFunctionBegin;
  if (Nr) *Nr = p->Nr;
  if (Ns) *Ns = p->Ns;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetMappingFunction - Use a mapping of your own: fn(ctx, r, s, X) sets X = {x, y, x_r, x_s, y_r, y_s}.

   Level: intermediate
@*/
PetscErrorCode SbpProblemSetMappingFunction(SbpProblem p, SbpMappingFunction fn, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "the mapping"));
  PetscCall(VecDestroy(&p->node[0])); /* replaces node coordinates */
  PetscCall(VecDestroy(&p->node[1]));
  p->mapping = SBP_MAPPING_USER;
  p->mapfn   = fn;
  p->mapctx  = ctx;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetMapping - Choose the mapping X(r,s): SBP_MAPPING_CURVED (the spec's curved quadrilateral) or
   SBP_MAPPING_SQUARE (the identity of [-1,1]^2).

   Level: beginner
@*/
PetscErrorCode SbpProblemSetMapping(SbpProblem p, SbpMappingType type)
{
  PetscFunctionBegin;
  PetscCheck(type == SBP_MAPPING_CURVED || type == SBP_MAPPING_SQUARE, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE,
             "Mapping type %d: use SBP_MAPPING_CURVED, SBP_MAPPING_SQUARE, or SbpProblemSetMappingFunction()", (int)type);
  PetscCall(SbpProblemSetMappingFunction(p, type == SBP_MAPPING_CURVED ? SbpMappingCurved : SbpMappingSquare, NULL));
  PetscCall(PetscFree(p->mapsrc)); /* a built-in mapping replaces a source */
  p->mapping = type;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetMuFunction - Use a coefficient of your own: fn(ctx, x, y, &mu) sets mu at the physical point.

   Level: intermediate
@*/
PetscErrorCode SbpProblemSetMuFunction(SbpProblem p, SbpMuFunction fn, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "mu"));
  PetscCall(VecDestroy(&p->node[2])); /* replaces mu at the nodes */
  p->mu    = SBP_MU_USER;
  p->mufn  = fn;
  p->muctx = ctx;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetMu - Choose the coefficient mu: SBP_MU_BASIN (the spec's smoothed basin) or SBP_MU_CONSTANT with the given value.

   Level: beginner
@*/
PetscErrorCode SbpProblemSetMu(SbpProblem p, SbpMuType type, PetscReal value)
{
  PetscFunctionBegin;
  PetscCheck(type == SBP_MU_BASIN || type == SBP_MU_CONSTANT, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE,
             "mu type %d: use SBP_MU_BASIN, SBP_MU_CONSTANT, or SbpProblemSetMuFunction()", (int)type);
  PetscCall(SbpProblemSetMuFunction(p, type == SBP_MU_BASIN ? SbpMuBasin : SbpMuConstant, type == SBP_MU_BASIN ? NULL : &p->mu_value));
  PetscCall(PetscFree(p->musrc));
  p->mu       = type;
  p->mu_value = value;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetMetricFunction - Give the coefficients crr, css, crs and J directly (anisotropic media), instead of deriving them from
   the mapping and mu: fn(ctx, r, s, X, m, c) sets c = {crr, css, crs, J}. They must satisfy crr, css, J > 0 and crr css > crs^2.

   Level: advanced
@*/
PetscErrorCode SbpProblemSetMetricFunction(SbpProblem p, SbpMetricFunction fn, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "the metric"));
  p->metricfn  = fn;
  p->metricctx = ctx;
  PetscFunctionReturn(0);
}

/* Keep a copy of a user's OpenCL source (NULL: none). */
static PetscErrorCode SbpProblemSetSource(SbpProblem p, const char what[], const char src[], char **dst)
{
  size_t len;

  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, what));
  PetscCall(PetscStrlen(src, &len));
  PetscCheck(!src || len > 0, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_WRONG, "The OpenCL source of %s is empty", what);
  PetscCall(PetscFree(*dst));
  if (src) PetscCall(PetscStrallocpy(src, dst));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetMappingSource - Give the mapping as OpenCL C source, evaluated on the device when the coefficients are
   generated: it defines void sbp_user_mapping(double r, double s, double X[6]) setting X = {x, y, x_r, x_s, y_r, y_s}
   (docs/guide.md "Bringing a problem"). The host cannot evaluate it: the built-in manufactured right-hand side and errors then
   need a host mapping too (SbpProblemSetMappingFunction()).

   Level: intermediate

.seealso: `SbpProblemSetMuSource()`, `SbpProblemSetMetricSource()`
@*/
PetscErrorCode SbpProblemSetMappingSource(SbpProblem p, const char src[])
{
  PetscFunctionBegin;
  PetscCall(SbpmgCLCheckUserSource(PetscObjectComm((PetscObject)p), "SbpProblemSetMappingSource", src)); /* no reserved macro (SBPMG_...) */
  PetscCall(SbpProblemSetSource(p, "the mapping", src, &p->mapsrc));
  if (src && !p->mapfn) p->mapping = SBP_MAPPING_USER;
  if (src && p->mapping != SBP_MAPPING_USER) { /* the source replaces the built-in mapping; no host function */
    p->mapping = SBP_MAPPING_USER;
    p->mapfn   = NULL;
  }
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetMuSource - Give mu as OpenCL C source: double sbp_user_mu(double x, double y) at the physical point.

   Level: intermediate

.seealso: `SbpProblemSetMappingSource()`
@*/
PetscErrorCode SbpProblemSetMuSource(SbpProblem p, const char src[])
{
  PetscFunctionBegin;
  PetscCall(SbpmgCLCheckUserSource(PetscObjectComm((PetscObject)p), "SbpProblemSetMuSource", src)); /* no reserved macro (SBPMG_...) */
  PetscCall(SbpProblemSetSource(p, "mu", src, &p->musrc));
  if (src && p->mu != SBP_MU_USER) {
    p->mu   = SBP_MU_USER;
    p->mufn = NULL;
  }
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetMetricSource - Give the coefficients directly as OpenCL C source: void sbp_user_metric(double r, double s, const
   double X[6], double mu, double c[4]) setting c = {crr, css, crs, J} (the device counterpart of SbpProblemSetMetricFunction()).

   Level: advanced
@*/
PetscErrorCode SbpProblemSetMetricSource(SbpProblem p, const char src[])
{
  PetscFunctionBegin;
  PetscCall(SbpmgCLCheckUserSource(PetscObjectComm((PetscObject)p), "SbpProblemSetMetricSource", src)); /* no reserved macro (SBPMG_...) */
  PetscCall(SbpProblemSetSource(p, "the metric", src, &p->metricsrc));
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpProblemCheckFace(SbpProblem p, PetscInt face)
{
  PetscFunctionBegin;
  PetscCheck(face >= 1 && face <= 4, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE, "Face %" PetscInt_FMT " does not exist: faces are 1..4", face);
  PetscFunctionReturn(0);
}

/* Every face Neumann: the operator is singular (the constants; docs/guide.md "All-Neumann problems"). */
PetscBool SbpProblemAllNeumann(SbpProblem p)
{
  for (int f = 0; f < 4; f++)
    if (p->bc[f] == SBP_BC_DIRICHLET) return PETSC_FALSE;
  return PETSC_TRUE;
}

/*@C
   SbpProblemSetBC - Set the boundary condition of face 1 (r = -1), 2 (r = +1), 3 (s = -1) or 4 (s = +1).

   Level: beginner
@*/
PetscErrorCode SbpProblemSetBC(SbpProblem p, PetscInt face, SbpBCType type)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "a boundary condition"));
  PetscCall(SbpProblemCheckFace(p, face));
  PetscCheck(type == SBP_BC_DIRICHLET || type == SBP_BC_NEUMANN, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE,
             "Boundary condition type %d is neither Dirichlet nor Neumann", (int)type);
  p->bc[face - 1] = type;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemGetBC(SbpProblem p, PetscInt face, SbpBCType *type)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckFace(p, face));
  *type = p->bc[face - 1];
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetBackend - Where operators apply: SBP_BACKEND_DEVICE (OpenCL kernels on device vectors, each rank on its device,
   ghosts exchanged between the devices through MPI), SBP_BACKEND_HOST (C loops on DMDA vectors) or SBP_BACKEND_AUTO (the device
   when every rank finds an OpenCL device, the host otherwise); any number of ranks.

   Level: intermediate
@*/
PetscErrorCode SbpProblemSetBackend(SbpProblem p, SbpBackend backend)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "the backend"));
  p->backend = backend;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemGetBackend(SbpProblem p, SbpBackend *backend)
{
  PetscFunctionBegin;
  *backend = p->setupcalled ? (p->use_device ? SBP_BACKEND_DEVICE : SBP_BACKEND_HOST) : p->backend;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetOrder - The interior order p of the SBP-SAT operator: 2 (the default), 4 or 6 (Mattsson's variable-coefficient
   operators, docs/guide.md "Higher order"). Each direction needs at least 2, 11 or 17 intervals; the operator, its diagonal, the norms,
   the right-hand side and the face traction all follow the order.

   Logically collective

   Options Database Key:
.  -sbp_order <2,4,6> - the order

   Level: beginner

.seealso: `SbpProblemGetOrder()`
@*/
PetscErrorCode SbpProblemSetOrder(SbpProblem p, PetscInt order)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "the order"));
  PetscCheck(order == 2 || order == 4 || order == 6, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE,
             "-sbp_order %" PetscInt_FMT ": the SBP-SAT order must be 2, 4 or 6", order);
  p->order = order;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemGetOrder(SbpProblem p, PetscInt *order)
{
  PetscFunctionBegin;
  *order = p->order;
  PetscFunctionReturn(0);
}

PetscInt SbpProblemStencilWidth(SbpProblem p)
{
  return p->order > 4 ? 3 : 2;
}

PetscInt SbpProblemMinimumOwned(SbpProblem p)
{
  return p->order == 4 ? 8 : p->order == 6 ? 12 : 2;
}

/*@C
   SbpProblemSetOptionsPrefix - The prefix of the problem's options (-<prefix>sbp_n, ...): two problems of one program read
   different options.

   Logically collective

   Level: intermediate

.seealso: `SbpProblemAppendOptionsPrefix()`, `SbpProblemGetOptionsPrefix()`, `SbpProblemSetFromOptions()`
@*/
PetscErrorCode SbpProblemSetOptionsPrefix(SbpProblem p, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)p, prefix));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemAppendOptionsPrefix - Append to the prefix of the problem's options.

   Logically collective

   Level: intermediate
@*/
PetscErrorCode SbpProblemAppendOptionsPrefix(SbpProblem p, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  PetscCall(PetscObjectAppendOptionsPrefix((PetscObject)p, prefix));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemGetOptionsPrefix - The prefix of the problem's options (NULL when none).

   Not collective

   Level: intermediate
@*/
PetscErrorCode SbpProblemGetOptionsPrefix(SbpProblem p, const char *prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)p, prefix));
  PetscFunctionReturn(0);
}

/* The device part of the view: the device, the kernels and, on several ranks, the exchange. */
static PetscErrorCode SbpProblemViewDevice(SbpProblem p, PetscViewer viewer)
{
  const char *name;

  PetscFunctionBegin;
  PetscCall(SbpmgCLGetDeviceName(p->cl, &name));
  PetscCall(PetscViewerASCIIPrintf(viewer, "backend: device (%s)\n", name));
  PetscCall(
      PetscViewerASCIIPrintf(viewer, "kernels: %s\n",
                             p->split_on ? "interior rows and boundary rim apart (tuning sbp_split)" : "one over all nodes (tuning sbp_split, sbp_split_min)"));
  if (SbpProblemExchangesGhosts(p)) {
    PetscMPIInt size;
    PetscInt    m, n;
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)p), &size));
    PetscCall(SbpProblemGetProcessGrid(p, &m, &n));
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "%d MPI ranks (%" PetscInt_FMT " x %" PetscInt_FMT "), one device each; ghosts exchanged between the devices, %s\n", size,
                                     m, n, p->overlap ? "overlapped with the interior (this rank)" : "before the kernels (this rank)"));
  }
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemGetProcessGrid - The number of ranks of the problem's DMDA in r and in s.

   Level: developer
@*/
PetscErrorCode SbpProblemGetProcessGrid(SbpProblem p, PetscInt *m, PetscInt *n)
{
  PetscFunctionBegin;
  PetscInt        s;
  const PetscInt *lx, *ly;

  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  PetscCall(SbpProblemGetOwnership(p, m, n, &s, &lx, &ly));
  PetscFunctionReturn(0);
}

/* The DMDA of the layout: (Nr+1) x (Ns+1) nodes, r fastest, box stencil of width SbpProblemStencilWidth() (the SAT rows' footprint at
   order 2, the interior stencil's half-width at order 6). */
PetscErrorCode SbpProblemCreateDMDA(SbpProblem p)
{
  PetscFunctionBegin;
  PetscCall(DMDACreate2d(PetscObjectComm((PetscObject)p), DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_BOX, p->Nr + 1, p->Ns + 1, PETSC_DECIDE,
                         PETSC_DECIDE, 1, SbpProblemStencilWidth(p), NULL, NULL, &p->da));
  PetscCall(DMSetUp(p->da));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemGetLayoutDM(SbpProblem p, DM *da)
{
  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  if (!p->da) PetscCall(SbpProblemCreateDMDA(p)); /* one rank: the same layout as the one set-up used */
  *da = p->da;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemGetOwnership(SbpProblem p, PetscInt *m, PetscInt *n, PetscInt *s, const PetscInt **lx, const PetscInt **ly)
{
  PetscFunctionBegin;
  if (p->da) {
    PetscCall(DMDAGetInfo(p->da, NULL, NULL, NULL, NULL, m, n, NULL, NULL, s, NULL, NULL, NULL, NULL));
    PetscCall(DMDAGetOwnershipRanges(p->da, lx, ly, NULL));
  } else {
    *m = *n = 1;
    *s      = 2;
    *lx     = &p->xm;
    *ly     = &p->ym;
  }
  PetscFunctionReturn(0);
}

/* a[j][i] over the owned block of a vector laid out like the problem's (DMDAVecGetArray without a DMDA: the local part of a DMDA
   global vector is the owned block, r fastest). */
PetscErrorCode SbpProblemVecGetArray(SbpProblem p, Vec v, PetscBool read, PetscScalar ***a)
{
  PetscScalar *x, **rows;

  PetscFunctionBegin;
  if (read)
    PetscCall(VecGetArrayRead(v, (const PetscScalar **)&x));
  else
    PetscCall(VecGetArray(v, &x));
  PetscCall(PetscMalloc1(p->ym, &rows));
  for (PetscInt r = 0; r < p->ym; r++) rows[r] = x + r * p->xm - p->xs;
  *a = rows - p->ys;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemVecRestoreArray(SbpProblem p, Vec v, PetscBool read, PetscScalar ***a)
{
  PetscScalar **rows = *a + p->ys, *x = rows[0] + p->xs;

  PetscFunctionBegin;
  if (read)
    PetscCall(VecRestoreArrayRead(v, (const PetscScalar **)&x));
  else
    PetscCall(VecRestoreArray(v, &x));
  PetscCall(PetscFree(rows));
  *a = NULL;
  PetscFunctionReturn(0);
}

/* The values of x on the rank's ghosted patch (the operator's input): on one rank the vector itself (its patch is the grid),
   elsewhere the DMDA's local vector after the ghost exchange. Restore with SbpProblemRestorePatch(). */
PetscErrorCode SbpProblemGetPatch(SbpProblem p, Vec x, Vec *xl, const PetscScalar **u)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)p), &size));
  *xl = NULL;
  if (size == 1)
    PetscCall(VecGetArrayRead(x, u));
  else {
    DM da;
    PetscCall(SbpProblemGetLayoutDM(p, &da));
    PetscCall(DMGetLocalVector(da, xl));
    PetscCall(DMGlobalToLocalBegin(da, x, INSERT_VALUES, *xl));
    PetscCall(DMGlobalToLocalEnd(da, x, INSERT_VALUES, *xl));
    PetscCall(VecGetArrayRead(*xl, u));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemRestorePatch(SbpProblem p, Vec x, Vec *xl, const PetscScalar **u)
{
  PetscFunctionBegin;
  if (!*xl)
    PetscCall(VecRestoreArrayRead(x, u));
  else {
    PetscCall(VecRestoreArrayRead(*xl, u));
    PetscCall(DMRestoreLocalVector(p->da, xl));
  }
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemView - Print the grid, mapping, coefficient, boundary conditions and backend.

   Level: beginner
@*/
PetscErrorCode SbpProblemView(SbpProblem p, PetscViewer viewer)
{
  PetscBool isascii;
  char      bc[4];

  PetscFunctionBegin;
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)p), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(0);
  for (int f = 0; f < 4; f++) bc[f] = p->bc[f] == SBP_BC_DIRICHLET ? 'D' : 'N';
  { /* the header of PETSc's views, without a type line: a problem has no types */
    const char *prefix;
    PetscMPIInt size;
    PetscCall(PetscObjectGetOptionsPrefix((PetscObject)p, &prefix));
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)p), &size));
    PetscCall(PetscViewerASCIIPrintf(viewer, "SbpProblem Object: %s%s%s%d MPI process%s\n", prefix ? "(" : "", prefix ? prefix : "", prefix ? ") " : "", size,
                                     size > 1 ? "es" : ""));
  }
  PetscCall(PetscViewerASCIIPushTab(viewer));
  {
    char mu[64];
    if (p->mu == SBP_MU_CONSTANT)
      PetscCall(PetscSNPrintf(mu, sizeof(mu), "constant = %g", (double)p->mu_value));
    else
      PetscCall(PetscStrncpy(mu, SbpMuTypes[p->mu], sizeof(mu)));
    PetscCall(PetscViewerASCIIPrintf(viewer, "grid %" PetscInt_FMT " x %" PetscInt_FMT " intervals (%" PetscInt_FMT " unknowns), mapping %s, mu %s\n", p->Nr,
                                     p->Ns, (p->Nr + 1) * (p->Ns + 1), SbpMappingTypes[p->mapping], mu));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "SBP order %" PetscInt_FMT "\n", p->order));
  PetscCall(
      PetscViewerASCIIPrintf(viewer, "faces 1..4 (r=-1, r=+1, s=-1, s=+1): %c %c %c %c (D = Dirichlet by SAT, N = Neumann)\n", bc[0], bc[1], bc[2], bc[3]));
  if (SbpProblemAllNeumann(p)) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "all faces Neumann: u is determined up to a constant (the null space of the operators, attached to them)%s\n",
                                     p->coarsened ? "" : "; errors are measured modulo the constants"));
    if (!p->coarsened && p->rhs_count)
      PetscCall(PetscViewerASCIIPrintf(viewer, "the last right-hand side made compatible: 1^T b = %g removed by shifting the forcing by %g\n",
                                       (double)p->rhs_sum, (double)p->rhs_shift));
  }
  if (p->coarsened) { /* a level of the multigrid: no data */
  } else if (p->forcing.kind == SBP_DATA_MANUFACTURED)
    PetscCall(PetscViewerASCIIPrintf(viewer, "data: the manufactured solution u = sin(pi x) cos(pi y)\n"));
  else {
    const char *kinds[] = {"manufactured", "zero", "function", "OpenCL source", "values"};
    PetscCall(PetscViewerASCIIPrintf(viewer, "data: forcing %s; faces 1..4 %s, %s, %s, %s%s\n", kinds[p->forcing.kind], kinds[p->face[0].kind],
                                     kinds[p->face[1].kind], kinds[p->face[2].kind], kinds[p->face[3].kind], p->exactfn ? "; exact solution given" : ""));
  }
  if (!p->setupcalled)
    PetscCall(PetscViewerASCIIPrintf(viewer, "backend: %s (not set up)\n", SbpBackends[p->backend]));
  else if (p->use_device)
    PetscCall(SbpProblemViewDevice(p, viewer));
  else if (p->fallback[0])
    PetscCall(PetscViewerASCIIPrintf(viewer, "backend: host (automatic: %s)\n", p->fallback));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "backend: host\n"));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemDestroy - Free the problem, its DMDA and its device buffers.

   Level: beginner
@*/
/* Release what the device set-up made (the levels with their coefficient buffers and ghost exchanges, the context's reference) and the host copy of
   the coefficients: at destruction, and after a set-up that failed (so that it leaves nothing behind). */
PetscErrorCode SbpProblemResetSetUp(SbpProblem p)
{
  cl_mem *bufs[3] = {&p->d_data, &p->d_nodes, &p->d_otab};

  PetscFunctionBegin;
  PetscCall(PetscFree(p->wide)); /* the order-p operator's (src/sbp/wide.c): its kernels are the program cache's */
  if (p->cl) {
    PetscCall(SbpProblemDestroyLevels(p)); /* their coefficients and ghost exchanges */
    for (int b = 0; b < 3; b++)
      if (*bufs[b]) PetscCall(SbpmgCLReleaseBuffer(p->cl, bufs[b]));
    p->rhs_kernel         = NULL; /* owned by the context's program cache, like the traction's */
    p->traction_kernel[0] = p->traction_kernel[1] = NULL;
    PetscCall(SbpmgCLDestroy(&p->cl));
  }
  PetscCall(PetscFree4(p->crr, p->css, p->crs, p->J));
  PetscCall(PetscFree(p->nbox));
  PetscCall(PetscFree(p->xbox));
  PetscCall(PetscFree(p->otab));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemDestroy(SbpProblem *problem)
{
  SbpProblem p = *problem;

  PetscFunctionBegin;
  if (!p) PetscFunctionReturn(0);
  *problem = NULL;
  if (--((PetscObject)p)->refct > 0) PetscFunctionReturn(0);
  PetscCall(SbpProblemResetSetUp(p));
  PetscCall(SbpProblemDestroyData(p));
  PetscCall(SbpProblemDestroyExact(p));
  PetscCall(SbpProblemDestroyNodes(p));
  PetscCall(PetscFree(p->mapsrc));
  PetscCall(PetscFree(p->musrc));
  PetscCall(PetscFree(p->metricsrc));
  PetscCall(DMDestroy(&p->da));
  PetscCall(PetscContainerDestroy(&p->ordermark));
  PetscCall(PetscHeaderDestroy(&p));
  PetscFunctionReturn(0);
}
