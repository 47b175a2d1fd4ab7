/* The fields of the acoustic operator: setting them, reading them back (whole, a plane, a point), their norms, the step
   and time, the bytes per step. */
#include <sbpmg/private/acousticimpl.h>
#include "sbpmg_kernel_args.h"

/*@C
   AcousticSetFields - Set u^0 and u^{-1} from host arrays of nx*ny*nz values, x fastest (NULL: zero); phi is zeroed, the
   step counter reset to 0 and the traces restarted (their sample 0 is the new u^0). On several ranks every rank passes the whole grid: each copies its slab and
the 4 halo planes on each side (so no exchange is needed).

   Collective

   Level: intermediate
@*/
PetscErrorCode AcousticSetFields(Acoustic ac, const PetscReal u[], const PetscReal uprev[])
{
  const PetscReal *src[2] = {u, uprev};
  const PetscInt   nx = ac->n[0], ny = ac->n[1];
  PetscInt         klo, khi;
  PetscErrorCode   ierr = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  klo = PetscMax(-4, -ac->zs); /* the slab and its halo planes inside the grid */
  khi = PetscMin(ac->nl[2] + 4, ac->n[2] - ac->zs);
  if (ac->backend == ACOUSTIC_BACKEND_HOST) {
    PetscReal *dst[2] = {ac->hu, ac->hv};
    for (PetscInt f = 0; f < 2; f++)
      for (PetscInt k = klo; k < khi; k++)
        for (PetscInt j = 0; j < ny; j++)
          for (PetscInt i = 0; i < nx; i++) dst[f][AcIndex(ac, i, j, k)] = src[f] ? src[f][i + nx * (j + ny * (k + ac->zs))] : 0.0;
    PetscCall(PetscArrayzero(ac->hphi, ac->npad));
  } else {
    float      *buf    = NULL;
    cl_mem      dst[2] = {ac->du, ac->dv};
    const float zero   = 0;

    ierr = PetscCalloc1(ac->npad, &buf);
    for (PetscInt f = 0; f < 2 && !ierr; f++) {
      for (PetscInt k = klo; k < khi; k++)
        for (PetscInt j = 0; j < ny; j++)
          for (PetscInt i = 0; i < nx; i++) buf[AcIndex(ac, i, j, k)] = src[f] ? (float)src[f][i + nx * (j + ny * (k + ac->zs))] : 0.0f;
      ierr = SbpmgCLWriteBuffer(ac->cl, dst[f], 0, ac->npad * sizeof(float), buf);
    }
    PetscCall(PetscFree(buf)); /* on every path */
    if (!ierr) ierr = SbpmgCLFillBuffer(ac->cl, ac->dphi, &zero, sizeof(float), 0, ac->npad * sizeof(float));
  }
  ac->step = 0;
  PetscCall(AcousticResetTraces_Private(ac));
  if (!ierr) ierr = AcousticRecord_Private(ac);              /* trace sample 0: the new initial field */
  PetscCall(AcousticAgree_Private(ac, ierr, "field write")); /* the next step's exchange needs every rank's fields */
  PetscFunctionReturn(0);
}

static PetscErrorCode AcousticFieldBuffer(Acoustic ac, AcousticField f, cl_mem *d, PetscReal **h)
{
  PetscFunctionBegin;
  switch (f) {
  case ACOUSTIC_FIELD_U:
    *d = ac->du;
    *h = ac->hu;
    break;
  case ACOUSTIC_FIELD_UPREV:
    *d = ac->dv;
    *h = ac->hv;
    break;
  case ACOUSTIC_FIELD_PHI:
    *d = ac->dphi;
    *h = ac->hphi;
    break;
  case ACOUSTIC_FIELD_VP:
    *d = ac->dvp;
    *h = ac->hvp;
    break;
  default:
    SETERRQ(PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "Unknown acoustic field %d", (int)f);
  }
  PetscFunctionReturn(0);
}

/* This rank's slab of a field: nx*ny*nl[2] values, x fastest (one device-to-host transfer). */
PetscErrorCode AcousticGetLocalField_Private(Acoustic ac, AcousticField f, PetscReal out[])
{
  cl_mem         d  = NULL;
  PetscReal     *h  = NULL;
  const PetscInt nx = ac->n[0], ny = ac->n[1], nz = ac->nl[2];

  PetscFunctionBegin;
  AcousticCheckSetUp(ac);
  PetscCall(AcousticFieldBuffer(ac, f, &d, &h));
  if (ac->backend == ACOUSTIC_BACKEND_HOST) {
    for (PetscInt k = 0; k < nz; k++)
      for (PetscInt j = 0; j < ny; j++)
        for (PetscInt i = 0; i < nx; i++) out[i + nx * (j + ny * k)] = h[AcIndex(ac, i, j, k)];
  } else {
    float         *buf;
    PetscErrorCode ierr;

    PetscCall(PetscMalloc1(ac->npad, &buf));
    ierr = SbpmgCLReadBuffer(ac->cl, d, 0, ac->npad * sizeof(float), buf);
    for (PetscInt k = 0; k < nz && !ierr; k++)
      for (PetscInt j = 0; j < ny; j++)
        for (PetscInt i = 0; i < nx; i++) out[i + nx * (j + ny * k)] = buf[AcIndex(ac, i, j, k)];
    PetscCall(PetscFree(buf)); /* on every path */
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

/* Rank 0 gathers the ranks' slabs of per values per plane (mine: this rank's nl[2] planes) into out, in plane order. */
static PetscErrorCode AcousticGatherSlabs(Acoustic ac, PetscInt per, const PetscReal mine[], PetscReal out[])
{
  PetscMPIInt *counts = NULL, *displs = NULL, nmine;

  PetscFunctionBegin;
  PetscCall(PetscMPIIntCast(per * ac->nl[2], &nmine));
  if (!ac->rank) {
    PetscCall(PetscMalloc2(ac->size, &counts, ac->size, &displs));
    for (PetscMPIInt r = 0; r < ac->size; r++) {
      PetscCall(PetscMPIIntCast(per * (ac->zstart[r + 1] - ac->zstart[r]), &counts[r]));
      PetscCall(PetscMPIIntCast(per * ac->zstart[r], &displs[r]));
    }
  }
  PetscCallMPI(MPI_Gatherv(mine, nmine, MPIU_REAL, out, counts, displs, MPIU_REAL, 0, PetscObjectComm((PetscObject)ac)));
  if (!ac->rank) PetscCall(PetscFree2(counts, displs));
  PetscFunctionReturn(0);
}

/*@C
   AcousticGetField - Copy a field's grid points (nx*ny*nz values, x fastest) to a host array: one device-to-host
   transfer per rank. On several ranks the slabs are gathered on rank 0; out may be NULL on the other ranks.

   Collective

   Level: intermediate
@*/
PetscErrorCode AcousticGetField(Acoustic ac, AcousticField f, PetscReal out[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  if (ac->size == 1)
    PetscCall(AcousticGetLocalField_Private(ac, f, out));
  else {
    const PetscInt nxy  = ac->n[0] * ac->n[1];
    PetscReal     *mine = NULL;
    PetscErrorCode ierr;

    PetscCheck(ac->rank || out, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "AcousticGetField() needs an array of nx*ny*nz values on rank 0");
    ierr = PetscMalloc1(nxy * ac->nl[2], &mine);
    if (!ierr) ierr = AcousticGetLocalField_Private(ac, f, mine);
    ierr = AcousticAgree_Private(ac, ierr, "field read-back"); /* before the gather, which would wait for a rank that failed */
    if (ierr) PetscCall(PetscFree(mine));
    PetscCall(ierr);
    PetscCall(AcousticGatherSlabs(ac, nxy, mine, out));
    PetscCall(PetscFree(mine));
  }
  PetscFunctionReturn(0);
}

/* kernels/acoustic_points.cl ac_plane's arguments by name: the n1 x n2 plane out[a + n1 b] = f[base + a s1 + b s2] */
static PetscErrorCode AcousticPlaneArgs(cl_kernel k, int n1, int n2, int base, int s1, int s2, cl_mem f, cl_mem out)
{
  const struct {
    SbpmgCLArgValue n1, n2, base, s1, s2, f, out;
  } a = {.n1   = SbpmgCLArgInt(n1),
         .n2   = SbpmgCLArgInt(n2),
         .base = SbpmgCLArgInt(base),
         .s1   = SbpmgCLArgInt(s1),
         .s2   = SbpmgCLArgInt(s2),
         .f    = SbpmgCLArgMem(f),
         .out  = SbpmgCLArgMem(out)};

  PetscFunctionBegin;
  SBPMG_CL_SET_ARGS(k, ac_plane, &a);
  PetscFunctionReturn(0);
}

/* A plane of this rank's part of a field (n1 x n2 values, out[a + n1 b] = f[base + a s1 + b s2] in the padded layout):
   on the device gathered by a kernel into a small buffer, one transfer. */
static PetscErrorCode AcousticExtractPlane(Acoustic ac, AcousticField f, PetscInt base, PetscInt s1, PetscInt s2, PetscInt n1, PetscInt n2, PetscReal out[])
{
  cl_mem     d = NULL;
  PetscReal *h = NULL;

  PetscFunctionBegin;
  if (!n1 || !n2) PetscFunctionReturn(0);
  PetscCall(AcousticFieldBuffer(ac, f, &d, &h));
  if (ac->backend == ACOUSTIC_BACKEND_HOST) {
    for (PetscInt b = 0; b < n2; b++)
      for (PetscInt a = 0; a < n1; a++) out[a + n1 * b] = h[base + a * s1 + b * s2];
  } else {
    const size_t   wg = (size_t)ac->tune.ac_points_wg, g[2] = {((size_t)n1 + wg - 1) / wg * wg, (size_t)n2}, l[2] = {wg, 1};
    const int      a1 = (int)n1, a2 = (int)n2, ib = (int)base, i1 = (int)s1, i2 = (int)s2;
    cl_kernel      k;
    cl_mem         buf = NULL;
    float         *tmp;
    PetscErrorCode ierr;

    PetscCall(AcousticGetPointsKernel_Private(ac, "ac_plane", &k));
    PetscCall(PetscMalloc1((size_t)n1 * n2, &tmp));
    ierr = SbpmgCLCreateBuffer(ac->cl, CL_MEM_WRITE_ONLY, (size_t)n1 * n2 * sizeof(float), &buf);
    if (!ierr) ierr = AcousticPlaneArgs(k, a1, a2, ib, i1, i2, d, buf);
    if (!ierr) ierr = SbpmgCLLaunch2D(ac->cl, k, g, l);
    if (!ierr) ierr = SbpmgCLReadBuffer(ac->cl, buf, 0, (size_t)n1 * n2 * sizeof(float), tmp);
    for (size_t p = 0; p < (size_t)n1 * n2 && !ierr; p++) out[p] = tmp[p];
    PetscCall(PetscFree(tmp)); /* on every path */
    PetscCall(SbpmgCLReleaseBuffer(ac->cl, &buf));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

/* The plane `index` across `axis` (0: x, 1: y, 2: z) of a field on rank 0 (out may be NULL elsewhere): z planes nx x ny
   (x fastest), y planes nx x nz, x planes ny x nz. A z plane is read on the rank that owns it and sent to rank 0; x and y
   planes cut every slab: each rank reads its part and rank 0 gathers them. Collective. */
PetscErrorCode AcousticGetSlice_Private(Acoustic ac, AcousticField f, PetscInt axis, PetscInt index, PetscReal out[])
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)ac);
  const PetscInt n1   = axis == 0 ? ac->n[1] : ac->n[0];

  PetscFunctionBegin;
  AcousticCheckSetUp(ac);
  PetscCheck(axis >= 0 && axis < 3 && index >= 0 && index < ac->n[axis], comm, PETSC_ERR_ARG_OUTOFRANGE,
             "Plane %" PetscInt_FMT " across axis %" PetscInt_FMT " is outside the grid", index, axis);
  if (axis == 2) {
    PetscMPIInt    owner = 0, count;
    PetscReal     *plane = ac->rank ? NULL : out; /* rank 0 reads into out, an owner elsewhere into its own array */
    const PetscInt nxy   = ac->n[0] * ac->n[1];
    PetscErrorCode ierr  = 0;

    while (index >= ac->zstart[owner + 1]) owner++;
    PetscCall(PetscMPIIntCast(nxy, &count));
    if (ac->rank == owner) {
      if (ac->rank) ierr = PetscMalloc1(nxy, &plane);
      if (!ierr) ierr = AcousticExtractPlane(ac, f, AcIndex(ac, 0, 0, index - ac->zs), 1, ac->px, ac->n[0], ac->n[1], plane);
    }
    ierr = AcousticAgree_Private(ac, ierr, "slice read-back"); /* rank 0 would wait for the plane of an owner that failed */
    if (ierr && ac->rank == owner && ac->rank) PetscCall(PetscFree(plane));
    PetscCall(ierr);
    if (ac->rank == owner && ac->rank) {
      PetscCallMPI(MPI_Send(plane, count, MPIU_REAL, 0, ac->tag, comm));
      PetscCall(PetscFree(plane));
    }
    if (!ac->rank && owner) PetscCallMPI(MPI_Recv(out, count, MPIU_REAL, owner, ac->tag, comm, MPI_STATUS_IGNORE));
  } else {
    const PetscInt base = axis == 0 ? AcIndex(ac, index, 0, 0) : AcIndex(ac, 0, index, 0), s1 = axis == 0 ? ac->px : 1;
    PetscReal     *mine = ac->size > 1 ? NULL : out;
    PetscErrorCode ierr = 0;

    if (ac->size > 1) ierr = PetscMalloc1(n1 * ac->nl[2] + 1, &mine);
    if (!ierr) ierr = AcousticExtractPlane(ac, f, base, s1, ac->pxy, n1, ac->nl[2], mine);
    ierr = AcousticAgree_Private(ac, ierr, "slice read-back"); /* before the gather */
    if (ierr && ac->size > 1) PetscCall(PetscFree(mine));
    PetscCall(ierr);
    if (ac->size > 1) {
      PetscCall(AcousticGatherSlabs(ac, n1, mine, out));
      PetscCall(PetscFree(mine));
    }
  }
  PetscFunctionReturn(0);
}

/* The end of an agreement over the ranks on a collective operation's local part (first: the lowest rank that failed,
   PETSC_MPI_INT_MAX if none): this rank's own error, else an error naming the first rank that failed, so that every rank
   fails together and none is left waiting in the operation's communication (docs/reliability.md "Fault injection"). */
PetscErrorCode AcousticAgreeEnd_Private(Acoustic ac, PetscErrorCode ierr, PetscMPIInt first, const char what[])
{
  PetscFunctionBegin;
  PetscCall(ierr);
  PetscCheck(first == PETSC_MPI_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_LIB, "The acoustic %s failed on rank %d (its error there)", what, (int)first);
  PetscFunctionReturn(0);
}

/* The agreement itself, before the communication of a collective operation whose local part (a device transfer, an
   allocation, a kernel build) may fail on one rank only: one MPI_Allreduce of the lowest failing rank; on one rank only
   this rank's error. */
PetscErrorCode AcousticAgree_Private(Acoustic ac, PetscErrorCode ierr, const char what[])
{
  PetscMPIInt first;

  PetscFunctionBegin;
  if (ac->size == 1) {
    PetscCall(ierr);
    PetscFunctionReturn(0);
  }
  first = ierr ? ac->rank : PETSC_MPI_INT_MAX;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, PetscObjectComm((PetscObject)ac)));
  PetscCall(AcousticAgreeEnd_Private(ac, ierr, first, what));
  PetscFunctionReturn(0);
}

/* An error of rank 0 (which writes the files) known on every rank: rank 0 returns its own, the others one naming what. */
PetscErrorCode AcousticShareError_Private(Acoustic ac, PetscErrorCode ierr, const char what[])
{
  PetscFunctionBegin;
  if (ac->size > 1) PetscCallMPI(MPI_Bcast(&ierr, 1, MPI_INT, 0, PetscObjectComm((PetscObject)ac)));
  if (!ac->rank) PetscCall(ierr);
  PetscCheck(!ierr, PETSC_COMM_SELF, ierr, "Rank 0 could not write %s", what);
  PetscFunctionReturn(0);
}

/*@C
   AcousticGetValue - u^n at one grid point (a 4-byte transfer on the device backend, on the rank that owns the point;
   broadcast to every rank).

   Collective

   Level: intermediate
@*/
PetscErrorCode AcousticGetValue(Acoustic ac, PetscInt i, PetscInt j, PetscInt k, PetscReal *val)
{
  PetscMPIInt    owner = 0;
  PetscErrorCode ierr  = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  PetscCheck(i >= 0 && j >= 0 && k >= 0 && i < ac->n[0] && j < ac->n[1] && k < ac->n[2], PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
             "Point (%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT ") is outside the grid", i, j, k);
  while (k >= ac->zstart[owner + 1]) owner++;
  if (ac->rank == owner) {
    const PetscInt kl = k - ac->zs;
    if (ac->backend == ACOUSTIC_BACKEND_HOST)
      *val = ac->hu[AcIndex(ac, i, j, kl)];
    else {
      float x = 0;
      ierr    = SbpmgCLReadBuffer(ac->cl, ac->du, (size_t)AcIndex(ac, i, j, kl) * sizeof(float), sizeof(float), &x);
      *val    = x;
    }
  }
  PetscCall(AcousticAgree_Private(ac, ierr, "point read-back")); /* before the broadcast from the owner */
  if (ac->size > 1) PetscCallMPI(MPI_Bcast(val, 1, MPIU_REAL, owner, PetscObjectComm((PetscObject)ac)));
  PetscFunctionReturn(0);
}

/* kernels/acoustic_util.cl ac_norms's arguments by name: the nx x ny x nz points of f (padded layout) into the groups' partial results */
static PetscErrorCode AcousticNormsArgs(cl_kernel k, int nx, int ny, int nz, int px, int pxy, int origin, cl_mem f, cl_mem partial)
{
  const struct {
    SbpmgCLArgValue nx, ny, nz, px, pxy, origin, f, partial;
  } a = {.nx      = SbpmgCLArgInt(nx),
         .ny      = SbpmgCLArgInt(ny),
         .nz      = SbpmgCLArgInt(nz),
         .px      = SbpmgCLArgInt(px),
         .pxy     = SbpmgCLArgInt(pxy),
         .origin  = SbpmgCLArgInt(origin),
         .f       = SbpmgCLArgMem(f),
         .partial = SbpmgCLArgMem(partial)};

  PetscFunctionBegin;
  SBPMG_CL_SET_ARGS(k, ac_norms, &a);
  PetscFunctionReturn(0);
}

/* This rank's max |u^n| and sum (u^n)^2 on the device: a reduction per work-group, the groups' results read back. */
static PetscErrorCode AcousticLocalNormsDevice(Acoustic ac, PetscReal *maxabs, PetscReal *energy)
{
  cl_kernel      k;
  cl_mem         part;
  cl_float2     *buf;
  const int      nx = (int)ac->n[0], ny = (int)ac->n[1], nz = (int)ac->nl[2], px = (int)ac->px, pxy = (int)ac->pxy, origin = (int)ac->origin;
  size_t         ls = (size_t)ac->tune.ac_norm_wg, ng = PetscMin((size_t)ny * nz, (size_t)ac->tune.ac_norm_groups);
  PetscReal      m = 0, s = 0;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(AcousticGetUtilKernel_Private(ac, "ac_norms", &k));
  PetscCall(PetscMalloc1(ng, &buf));
  ierr = SbpmgCLCreateBuffer(ac->cl, CL_MEM_READ_WRITE, ng * sizeof(cl_float2), &part);
  if (ierr) PetscCall(PetscFree(buf));
  PetscCall(ierr);
  ierr = AcousticNormsArgs(k, nx, ny, nz, px, pxy, origin, ac->du, part);
  if (!ierr) ierr = SbpmgCLLaunch1D(ac->cl, k, ng * ls, ls);
  if (!ierr) ierr = SbpmgCLReadBuffer(ac->cl, part, 0, ng * sizeof(cl_float2), buf);
  for (size_t g = 0; g < ng && !ierr; g++) {
    m = AcNanMax(m, (PetscReal)buf[g].s[0]);
    s += buf[g].s[1];
  }
  PetscCall(PetscFree(buf)); /* on every path */
  PetscCall(SbpmgCLReleaseBuffer(ac->cl, &part));
  PetscCall(ierr);
  *maxabs = m;
  *energy = s;
  PetscFunctionReturn(0);
}

/*@C
   AcousticGetNorms - max |u^n| and sum (u^n)^2 over the grid points, NaN where u^n has one (a reduction on the device; only the per-group
   partial results are transferred; on several ranks one MPI_Allreduce of the ranks' results, the same on every rank).

   Collective

   Level: intermediate
@*/
PetscErrorCode AcousticGetNorms(Acoustic ac, PetscReal *maxabs, PetscReal *energy)
{
  PetscReal      m = 0, s = 0;
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  if (ac->backend == ACOUSTIC_BACKEND_HOST) {
    for (PetscInt k = 0; k < ac->nl[2]; k++)
      for (PetscInt j = 0; j < ac->n[1]; j++)
        for (PetscInt i = 0; i < ac->n[0]; i++) {
          const PetscReal x = ac->hu[AcIndex(ac, i, j, k)];
          m                 = AcNanMax(m, PetscAbsReal(x));
          s += x * x;
        }
  } else
    ierr = AcousticLocalNormsDevice(ac, &m, &s);
  PetscCall(AcousticAgree_Private(ac, ierr, "norm computation")); /* before the reductions, which would wait for a rank that failed */
  if (ac->size > 1) {                                             /* MPI's maximum need not keep a NaN: the sum of squares does, and decides */
    MPI_Comm comm = PetscObjectComm((PetscObject)ac);
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &m, 1, MPIU_REAL, MPIU_MAX, comm));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPIU_REAL, MPIU_SUM, comm));
  }
  if (PetscIsNanReal(s)) m = s;
  if (maxabs) *maxabs = m;
  if (energy) *energy = s;
  PetscFunctionReturn(0);
}

/*@C
   AcousticCheckFinite - An error naming the step and the time when u^n is not finite (a NaN or an infinity anywhere: the
   model or the time step is unstable, or the input was not finite). AcousticStep() calls it every -ac_check_every steps.

   Collective

   Level: intermediate
@*/
PetscErrorCode AcousticCheckFinite(Acoustic ac)
{
  PetscReal m, s;

  PetscFunctionBegin;
  PetscCall(AcousticGetNorms(ac, &m, &s));
  PetscCheck(!PetscIsInfOrNanReal(m) && !PetscIsInfOrNanReal(s), PetscObjectComm((PetscObject)ac), PETSC_ERR_FP,
             "The wave field is not finite at step %" PetscInt_FMT
             " (t = %g s): max|u| = %g, sum u^2 = %g; the model, the time step (-ac_cfl, -ac_vmax) or the "
             "input fields are not stable or not finite",
             ac->step, (double)(ac->step * ac->dt), (double)m, (double)s);
  PetscFunctionReturn(0);
}

PetscErrorCode AcousticGetTimeStep(Acoustic ac, PetscReal *dt)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  *dt = ac->dt;
  PetscFunctionReturn(0);
}

PetscErrorCode AcousticGetStepNumber(Acoustic ac, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  *n = ac->step;
  PetscFunctionReturn(0);
}

PetscErrorCode AcousticGetTime(Acoustic ac, PetscReal *t)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  *t = ac->step * ac->dt;
  PetscFunctionReturn(0);
}

/*@C
   AcousticGetBytesPerStep - Device memory traffic of one step: this implementation's model (inner 16 B, PML 24 B per
   point) and the spec's (inner 16 B, PML 28 B with a stored 3D eta).

   Level: advanced
@*/
PetscErrorCode AcousticGetBytesPerStep(Acoustic ac, PetscReal *actual, PetscReal *spec)
{
  PetscReal ninner = 1, ntotal = 1;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  for (PetscInt a = 0; a < 3; a++) { /* the whole grid, on any number of ranks */
    ninner *= (PetscReal)PetscMax(ac->n[a] - 2 * ac->ndamp, 0);
    ntotal *= (PetscReal)ac->n[a];
  }
  if (actual) *actual = ninner * AC_BYTES_INNER + (ntotal - ninner) * AC_BYTES_PML;
  if (spec) *spec = ninner * AC_SPEC_BYTES_INNER + (ntotal - ninner) * AC_SPEC_BYTES_PML;
  PetscFunctionReturn(0);
}
