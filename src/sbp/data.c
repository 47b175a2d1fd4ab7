/* The user's data of an SbpProblem (docs/guide.md "Bringing a problem"): the forcing f and each face's Dirichlet or Neumann
   values, as host functions, OpenCL source or values; the exact solution. Until any is given, the data are the manufactured
   problem's (u = sin(pi x) cos(pi y)); once one is given, the others are zero until given. The data may change at any time
   (a time series re-solves with new boundary values: SbpProblemComputeRHS() again, no new set-up). */
#include <sbpmg/private/sbpimpl.h>

static const char *const SbpBCNames[] = {"Dirichlet", "Neumann"};

PetscInt SbpFaceLength(SbpProblem p, PetscInt face)
{
  return face <= 2 ? p->Ns + 1 : p->Nr + 1;
}

/* Some datum is a host function (evaluated on the host even for the device's right-hand side). */
PetscBool SbpProblemDataOnHost(SbpProblem p)
{
  PetscBool host = p->forcing.kind == SBP_DATA_FUNCTION ? PETSC_TRUE : PETSC_FALSE;

  for (int f = 0; f < 4; f++)
    if (p->face[f].kind == SBP_DATA_FUNCTION) host = PETSC_TRUE;
  return host;
}

PetscBool SbpProblemManufactured(SbpProblem p)
{
  return p->forcing.kind == SBP_DATA_MANUFACTURED ? PETSC_TRUE : PETSC_FALSE;
}

static PetscErrorCode SbpDataReset(SbpData *d)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(d->src));
  PetscCall(PetscFree(d->values));
  PetscCall(VecDestroy(&d->vec));
  d->ffn = NULL;
  d->bfn = NULL;
  d->ctx = NULL;
  d->n   = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemDestroyData(SbpProblem p)
{
  PetscFunctionBegin;
  PetscCall(SbpDataReset(&p->forcing));
  for (int f = 0; f < 4; f++) PetscCall(SbpDataReset(&p->face[f]));
  PetscFunctionReturn(0);
}

/* The host builds the right-hand side: no datum is OpenCL source. */
PetscErrorCode SbpProblemCheckHostData(SbpProblem p)
{
  PetscFunctionBegin;
  PetscCheck(p->forcing.kind != SBP_DATA_SOURCE, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_WRONGSTATE,
             "The forcing is OpenCL source (SbpProblemSetForcingSource()): the host cannot evaluate it (a device problem and vector can)");
  for (PetscInt f = 1; f <= 4; f++)
    PetscCheck(p->face[f - 1].kind != SBP_DATA_SOURCE, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_WRONGSTATE,
               "The data of face %" PetscInt_FMT
               " are OpenCL source (SbpProblemSetBoundarySource()): the host cannot evaluate them (a device problem and vector can)",
               f);
  PetscFunctionReturn(0);
}

/* Before a right-hand side is built: the data still fit the problem (its conditions and grid may have changed since they were
   given: SbpProblemSetBC(), -sbp_bc, -sbp_n). */
PetscErrorCode SbpProblemCheckData(SbpProblem p)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)p);
  PetscInt n;

  PetscFunctionBegin;
  for (PetscInt f = 1; f <= 4; f++) {
    const SbpData *d = &p->face[f - 1];
    if (d->kind == SBP_DATA_MANUFACTURED || d->kind == SBP_DATA_ZERO) continue;
    PetscCheck(d->type == p->bc[f - 1], comm, PETSC_ERR_ARG_INCOMP, "Face %" PetscInt_FMT " is %s now, its data were given as %s: give them again", f,
               SbpBCNames[p->bc[f - 1]], SbpBCNames[d->type]);
    PetscCheck(d->kind != SBP_DATA_VALUES || d->n == SbpFaceLength(p, f), comm, PETSC_ERR_ARG_SIZ,
               "Face %" PetscInt_FMT " has %" PetscInt_FMT " nodes now, its values were given for %" PetscInt_FMT ": give them again", f, SbpFaceLength(p, f),
               d->n);
  }
  if (p->forcing.kind == SBP_DATA_VALUES) {
    PetscCall(VecGetSize(p->forcing.vec, &n));
    PetscCheck(n == (p->Nr + 1) * (p->Ns + 1), comm, PETSC_ERR_ARG_SIZ,
               "The forcing vector has %" PetscInt_FMT " entries, the %" PetscInt_FMT " x %" PetscInt_FMT " grid %" PetscInt_FMT " nodes", n, p->Nr, p->Ns,
               (p->Nr + 1) * (p->Ns + 1));
  }
  PetscFunctionReturn(0);
}

/* The user gives a datum: the manufactured problem's others become zero. */
static void SbpLeaveManufactured(SbpProblem p)
{
  p->data_version++; /* the kinds or sources may change: the right-hand side's kernel with them */
  if (p->forcing.kind == SBP_DATA_MANUFACTURED) p->forcing.kind = SBP_DATA_ZERO;
  for (int f = 0; f < 4; f++)
    if (p->face[f].kind == SBP_DATA_MANUFACTURED) p->face[f].kind = SBP_DATA_ZERO;
}

/* A data source: not empty, and none of the library's macros (SBPMG_...) #defined or #undefined; setter names it (docs/design.md
   "User sources and the macro namespace"). */
PetscErrorCode SbpProblemCheckSource(SbpProblem p, const char what[], const char setter[], const char src[])
{
  size_t len;

  PetscFunctionBegin;
  PetscCall(PetscStrlen(src, &len));
  PetscCheck(len > 0, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_WRONG, "The OpenCL source of %s is empty", what);
  PetscCall(SbpmgCLCheckUserSource(PetscObjectComm((PetscObject)p), setter, src));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetForcingFunction - The forcing f of -div(mu grad u) = f as a function fn(ctx, x, y, &f) of the physical point,
   evaluated on the host at the nodes when the right-hand side is built.

   Level: beginner

.seealso: `SbpProblemSetForcingSource()`, `SbpProblemSetForcingVector()`, `SbpProblemComputeRHS()`
@*/
PetscErrorCode SbpProblemSetForcingFunction(SbpProblem p, SbpForcingFunction fn, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  SbpLeaveManufactured(p);
  PetscCall(SbpDataReset(&p->forcing));
  p->forcing.kind = fn ? SBP_DATA_FUNCTION : SBP_DATA_ZERO;
  p->forcing.ffn  = fn;
  p->forcing.ctx  = ctx;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetForcingSource - The forcing f as OpenCL C source, evaluated on the device: it defines
   double sbp_user_forcing(double x, double y).

   Level: intermediate
@*/
PetscErrorCode SbpProblemSetForcingSource(SbpProblem p, const char src[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  PetscCall(SbpProblemCheckSource(p, "the forcing", "SbpProblemSetForcingSource", src));
  SbpLeaveManufactured(p);
  PetscCall(SbpDataReset(&p->forcing));
  p->forcing.kind = SBP_DATA_SOURCE;
  PetscCall(PetscStrallocpy(src, &p->forcing.src));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetForcingVector - The forcing f at the nodes: in one of the problem's vectors (SbpProblemCreateVector(), MatCreateVecs()
   of its operator, or a duplicate of one: the problem's order), or in any other vector in natural order (node (i,j) at i + (Nr+1) j,
   any layout, as the node values; docs/guide.md "Bringing a problem"). A reference is kept: later changes of its values are seen by
   the next SbpProblemComputeRHS().

   Level: beginner
@*/
PetscErrorCode SbpProblemSetForcingVector(SbpProblem p, Vec f)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  PetscValidHeaderSpecific(f, VEC_CLASSID, 2);
  SbpLeaveManufactured(p);
  PetscCall(PetscObjectReference((PetscObject)f));
  PetscCall(SbpDataReset(&p->forcing));
  p->forcing.kind = SBP_DATA_VALUES;
  p->forcing.vec  = f;
  PetscFunctionReturn(0);
}

/* A face's datum is for the condition the face has (SbpProblemSetBC(), -sbp_bc). */
static PetscErrorCode SbpCheckFaceData(SbpProblem p, PetscInt face, SbpBCType type)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)p);

  PetscFunctionBegin;
  PetscCheck(face >= 1 && face <= 4, comm, PETSC_ERR_ARG_OUTOFRANGE, "Face %" PetscInt_FMT " does not exist: faces are 1..4", face);
  PetscCheck(type == SBP_BC_DIRICHLET || type == SBP_BC_NEUMANN, comm, PETSC_ERR_ARG_OUTOFRANGE, "Boundary data of type %d: SBP_BC_DIRICHLET or SBP_BC_NEUMANN",
             (int)type);
  PetscCheck(type == p->bc[face - 1], comm, PETSC_ERR_ARG_INCOMP, "Face %" PetscInt_FMT " is %s (SbpProblemSetBC(), -sbp_bc): it takes %s data, not %s", face,
             SbpBCNames[p->bc[face - 1]], SbpBCNames[p->bc[face - 1]], SbpBCNames[type]);
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpFaceDataBegin(SbpProblem p, PetscInt face, SbpBCType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  PetscCall(SbpCheckFaceData(p, face, type));
  SbpLeaveManufactured(p);
  PetscCall(SbpDataReset(&p->face[face - 1]));
  p->face[face - 1].type = type;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetBoundaryFunction - The data of face `face` as a function fn(ctx, face, x, y, nx, ny, &g) of the physical point and
   the unit outward normal there: the value u = g (type SBP_BC_DIRICHLET) or the flux n.(mu grad u) = g (SBP_BC_NEUMANN); the
   type must be the face's.

   Level: beginner

.seealso: `SbpProblemSetBoundaryValues()`, `SbpProblemSetBoundarySource()`
@*/
PetscErrorCode SbpProblemSetBoundaryFunction(SbpProblem p, PetscInt face, SbpBCType type, SbpBoundaryFunction fn, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(SbpFaceDataBegin(p, face, type));
  p->face[face - 1].kind = fn ? SBP_DATA_FUNCTION : SBP_DATA_ZERO;
  p->face[face - 1].bfn  = fn;
  p->face[face - 1].ctx  = ctx;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetBoundarySource - The data of face `face` as OpenCL C source, evaluated on the device: it defines
   double sbp_user_boundary_F(double x, double y, double nx, double ny) with F the face's number (1..4), giving u (Dirichlet) or
   n.(mu grad u) (Neumann) at the point, (nx, ny) the unit outward normal.

   Level: intermediate
@*/
PetscErrorCode SbpProblemSetBoundarySource(SbpProblem p, PetscInt face, SbpBCType type, const char src[])
{
  char setter[48];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(setter, sizeof(setter), "SbpProblemSetBoundarySource face %" PetscInt_FMT, face));
  PetscCall(SbpProblemCheckSource(p, "the boundary data", setter, src));
  PetscCall(SbpFaceDataBegin(p, face, type));
  p->face[face - 1].kind = SBP_DATA_SOURCE;
  PetscCall(PetscStrallocpy(src, &p->face[face - 1].src));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetBoundaryValues - The data of face `face` at its nodes, in order along the face (j = 0..Ns on faces 1 and 2, i = 0..Nr
   on faces 3 and 4; n values, the same on every rank): u (Dirichlet) or n.(mu grad u) (Neumann). Copied; may be set again at any
   time, the next SbpProblemComputeRHS() uses the new values (no new set-up).

   Level: beginner
@*/
PetscErrorCode SbpProblemSetBoundaryValues(SbpProblem p, PetscInt face, SbpBCType type, PetscInt n, const PetscScalar values[])
{
  PetscInt len;

  PetscFunctionBegin;
  PetscCall(SbpCheckFaceData(p, face, type));
  len = SbpFaceLength(p, face);
  PetscCheck(n == len, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_SIZ,
             "Face %" PetscInt_FMT " of the %" PetscInt_FMT " x %" PetscInt_FMT " grid has %" PetscInt_FMT " nodes: got %" PetscInt_FMT " values", face, p->Nr,
             p->Ns, len, n);
  for (PetscInt t = 0; t < n; t++)
    PetscCheck(!PetscIsInfOrNanScalar(values[t]), PetscObjectComm((PetscObject)p), PETSC_ERR_FP,
               "Boundary value %" PetscInt_FMT " of face %" PetscInt_FMT " is not finite (%g)", t, face, (double)PetscRealPart(values[t]));
  if (p->face[face - 1].kind != SBP_DATA_VALUES || p->face[face - 1].n != n) {
    PetscCall(SbpFaceDataBegin(p, face, type));
    PetscCall(PetscMalloc1(n, &p->face[face - 1].values));
    p->face[face - 1].kind = SBP_DATA_VALUES;
    p->face[face - 1].n    = n;
  }
  PetscCall(PetscArraycpy(p->face[face - 1].values, values, n));
  PetscFunctionReturn(0);
}

/* The user's exact solution (src/sbp/exact.c evaluates it): a host function, OpenCL source or values; one replaces another. */
PetscErrorCode SbpProblemDestroyExact(SbpProblem p)
{
  PetscFunctionBegin;
  if (p->exactsrc) p->data_version++; /* the right-hand side's program held the source */
  PetscCall(PetscFree(p->exactsrc));
  PetscCall(VecDestroy(&p->exactvec));
  p->exactfn  = NULL;
  p->exactctx = NULL;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetExactSolution - The exact solution u(x, y) of the user's problem as a host function, for
   SbpProblemComputeExactSolution() and SbpProblemComputeError() (a convergence study of one's own). Replaces an exact solution
   given another way.

   Level: intermediate

.seealso: `SbpProblemSetExactSolutionSource()`, `SbpProblemSetExactSolutionVector()`
@*/
PetscErrorCode SbpProblemSetExactSolution(SbpProblem p, SbpExactFunction fn, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  PetscCall(SbpProblemDestroyExact(p));
  p->exactfn  = fn;
  p->exactctx = ctx;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetExactSolutionSource - The exact solution as OpenCL C source, evaluated on the device (a device problem; the host backend
   evaluates no OpenCL source): it defines double sbp_user_exact(double x, double y). Replaces an exact solution given another way.

   Level: intermediate
@*/
PetscErrorCode SbpProblemSetExactSolutionSource(SbpProblem p, const char src[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  PetscValidCharPointer(src, 2);
  PetscCall(SbpProblemCheckSource(p, "the exact solution", "SbpProblemSetExactSolutionSource", src));
  PetscCall(SbpProblemDestroyExact(p));
  PetscCall(PetscStrallocpy(src, &p->exactsrc));
  p->data_version++;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetExactSolutionVector - The exact solution at the nodes: in one of the problem's vectors (the problem's order) or in any
   other vector in natural order (node (i,j) at i + (Nr+1) j, any layout), as SbpProblemSetForcingVector() takes the forcing. A
   reference is kept: later changes of its values are seen. Replaces an exact solution given another way.

   Level: intermediate
@*/
PetscErrorCode SbpProblemSetExactSolutionVector(SbpProblem p, Vec u)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  PetscValidHeaderSpecific(u, VEC_CLASSID, 2);
  PetscCall(PetscObjectReference((PetscObject)u));
  PetscCall(SbpProblemDestroyExact(p));
  p->exactvec = u;
  PetscFunctionReturn(0);
}

/* The Neumann data gN = sJ n.(mu grad u) on face f (6.4) from the metric X = (x, y, xr, xs, yr, ys), mu and grad u: the
   outward normal scaled by the face Jacobian is (-ys, xs), (ys, -xs), (yr, -xr), (-yr, xr) on faces 1..4. */
PetscReal SbpNeumannFlux(PetscInt face, const PetscReal X[6], PetscReal mu, PetscReal ux, PetscReal uy)
{
  const PetscReal xr = X[2], xs = X[3], yr = X[4], ys = X[5];

  switch (face) {
  case 1:
    return mu * (-ys * ux + xs * uy);
  case 2:
    return mu * (ys * ux - xs * uy);
  case 3:
    return mu * (yr * ux - xr * uy);
  default:
    return mu * (-yr * ux + xr * uy);
  }
}

/* The scaled outward normal of face `face` at geometry X (docs/guide.md "The right-hand side"): sJ n. */
static void SbpScaledNormal(PetscInt face, const PetscReal X[6], PetscReal *nx, PetscReal *ny)
{
  const PetscReal xr = X[2], xs = X[3], yr = X[4], ys = X[5];

  *nx = face == 1 ? -ys : face == 2 ? ys : face == 3 ? yr : -yr;
  *ny = face == 1 ? xs : face == 2 ? -xs : face == 3 ? -xr : xr;
}

PetscErrorCode SbpProblemForcingAt(SbpProblem p, PetscInt i, PetscInt j, const PetscReal X[6], const PetscReal m[3], const PetscScalar *fvals, PetscReal *f)
{
  PetscReal g[3] = {m[0], 0, 0};

  PetscFunctionBegin;
  switch (p->forcing.kind) {
  case SBP_DATA_MANUFACTURED: /* -div(mu grad u) needs grad mu */
    PetscCall(SbpProblemMuGradient(p, i, j, X, g));
    *f = SbpForcing(X[0], X[1], g);
    break;
  case SBP_DATA_ZERO:
    *f = 0;
    break;
  case SBP_DATA_FUNCTION:
    PetscCall((*p->forcing.ffn)(p->forcing.ctx, X[0], X[1], f));
    break;
  case SBP_DATA_VALUES:
    *f = PetscRealPart(fvals[(i - p->xs) + p->xm * (j - p->ys)]);
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The forcing is OpenCL source (SbpProblemSetForcingSource()): the host cannot evaluate it");
  }
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemFaceDataAt(SbpProblem p, PetscInt face, PetscInt i, PetscInt j, PetscReal *g)
{
  const SbpData *d = &p->face[face - 1];
  PetscReal      X[6], m[3], nx, ny, sJ, v = 0;

  PetscFunctionBegin;
  if (d->kind == SBP_DATA_ZERO) {
    *g = 0;
    PetscFunctionReturn(0);
  }
  PetscCheck(d->kind != SBP_DATA_SOURCE, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE,
             "The data of face %" PetscInt_FMT " are OpenCL source (SbpProblemSetBoundarySource()): the host cannot evaluate them", face);
  if (d->kind == SBP_DATA_MANUFACTURED)
    PetscCall(SbpProblemEvaluateNode(p, i, j, X, m));
  else
    PetscCall(SbpProblemEvaluateMapping(p, i, j, X));
  SbpScaledNormal(face, X, &nx, &ny);
  sJ = PetscSqrtReal(nx * nx + ny * ny);
  if (d->kind == SBP_DATA_MANUFACTURED) {
    PetscReal ue, ux, uy;
    SbpExactSolution(X[0], X[1], &ue, &ux, &uy);
    *g = p->bc[face - 1] == SBP_BC_DIRICHLET ? ue : SbpNeumannFlux(face, X, m[0], ux, uy);
    PetscFunctionReturn(0);
  }
  if (d->kind == SBP_DATA_FUNCTION)
    PetscCall((*d->bfn)(d->ctx, face, X[0], X[1], nx / sJ, ny / sJ, &v));
  else
    v = PetscRealPart(d->values[face <= 2 ? j : i]);
  *g = p->bc[face - 1] == SBP_BC_DIRICHLET ? v : sJ * v; /* the SAT's Neumann datum is the flux times the face's scale factor */
  PetscFunctionReturn(0);
}

/* -DSBPMG_RHS_F and -DSBPMG_RHS_G1..4 of kernels/rhs.cl: 0 the manufactured problem, 1 zero, 2 the user's source, 3 values (host functions are
   evaluated into values first). */
PetscErrorCode SbpProblemDataOptions(SbpProblem p, char opts[], size_t len)
{
  const int code[] = {0, 1, 3, 2, 3}; /* by SbpDataKind */

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(opts, len, "-DSBPMG_RHS_F=%d -DSBPMG_RHS_G1=%d -DSBPMG_RHS_G2=%d -DSBPMG_RHS_G3=%d -DSBPMG_RHS_G4=%d -DSBPMG_RHS_EXACT=%d",
                          code[p->forcing.kind], code[p->face[0].kind], code[p->face[1].kind], code[p->face[2].kind], code[p->face[3].kind],
                          p->exactsrc ? 2 : 0));
  PetscFunctionReturn(0);
}

/* The faces' data, one after the other from off[f-1], into h: values as given, functions evaluated on the host. */
static PetscErrorCode SbpProblemGatherFaceData(SbpProblem p, const PetscInt off[5], PetscReal *h)
{
  PetscFunctionBegin;
  for (PetscInt f = 1; f <= 4; f++) {
    const SbpData *d = &p->face[f - 1];
    for (PetscInt t = 0; t < SbpFaceLength(p, f); t++) {
      PetscInt  i = f <= 2 ? (f == 1 ? 0 : p->Nr) : t, j = f <= 2 ? t : (f == 3 ? 0 : p->Ns);
      PetscReal X[6], nx, ny, sJ, v = 0;

      if (d->kind == SBP_DATA_VALUES)
        v = PetscRealPart(d->values[t]);
      else if (d->kind == SBP_DATA_FUNCTION && i >= p->gxs && i < p->gxs + p->gxm && j >= p->gys && j < p->gys + p->gym) {
        /* the raw datum at the face nodes of this rank's patch (the kernel reads no others): it scales a Neumann one by sJ */
        PetscCall(SbpProblemEvaluateMapping(p, i, j, X));
        SbpScaledNormal(f, X, &nx, &ny);
        sJ = PetscSqrtReal(nx * nx + ny * ny);
        PetscCall((*d->bfn)(d->ctx, f, X[0], X[1], nx / sJ, ny / sJ, &v));
      }
      h[off[f - 1] + t] = v;
    }
  }
  PetscFunctionReturn(0);
}

/* The same into the device buffer (grown where needed) through the host array h. */
static PetscErrorCode SbpProblemWriteFaceData(SbpProblem p, const PetscInt off[5], PetscReal *h)
{
  size_t bytes = (size_t)off[4] * sizeof(PetscReal);

  PetscFunctionBegin;
  PetscCall(SbpProblemGatherFaceData(p, off, h));
  if (p->d_data && p->d_data_bytes < bytes) PetscCall(SbpmgCLReleaseBuffer(p->cl, &p->d_data));
  if (!p->d_data) {
    PetscCall(SbpmgCLCreateBuffer(p->cl, CL_MEM_READ_ONLY, bytes, &p->d_data));
    p->d_data_bytes = bytes;
  }
  PetscCall(SbpmgCLWriteBuffer(p->cl, p->d_data, 0, bytes, h));
  PetscFunctionReturn(0);
}

/* The faces' values, one array after the other (off[f-1] .. off[f]), in the device buffer p->d_data (made or grown here). */
PetscErrorCode SbpProblemUploadFaceData(SbpProblem p, PetscInt off[5])
{
  PetscReal     *h;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  off[0] = 0;
  for (PetscInt f = 1; f <= 4; f++) off[f] = off[f - 1] + SbpFaceLength(p, f);
  PetscCall(PetscMalloc1(off[4], &h));
  ierr = SbpProblemWriteFaceData(p, off, h);
  PetscCall(PetscFree(h)); /* on every path */
  PetscCall(SbpProblemAgreeOnError(p, ierr, "a boundary data function"));
  PetscFunctionReturn(0);
}
