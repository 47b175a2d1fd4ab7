/* The fields of the acoustic operator: setting them, reading them back (whole, a plane, a point), their norms, the step
   and time, the bytes per step, and the snapshots (the formats are src/acoustic/io.c's). */
#include <sbpmg/private/acousticimpl.h>

/*@C
   AcousticSetFields - Set u^0 and u^{-1} from host arrays of nx*ny*nz values, x fastest (NULL: zero); phi is zeroed and
   the step counter reset to 0. On several ranks every rank passes the whole grid: each copies its slab and the 4 halo
   planes on each side (so no exchange is needed).

   Collective

   Level: intermediate
@*/
PetscErrorCode AcousticSetFields(Acoustic ac, const PetscReal u[], const PetscReal uprev[])
{
  const PetscReal *src[2] = {u, uprev};
  const PetscInt   nx = ac->n[0], ny = ac->n[1];
  PetscInt         klo, khi;

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
    float      *buf;
    cl_mem      dst[2] = {ac->du, ac->dv};
    const float zero   = 0;

    PetscCall(PetscCalloc1(ac->npad, &buf));
    for (PetscInt f = 0; f < 2; f++) {
      for (PetscInt k = klo; k < khi; k++)
        for (PetscInt j = 0; j < ny; j++)
          for (PetscInt i = 0; i < nx; i++) buf[AcIndex(ac, i, j, k)] = src[f] ? (float)src[f][i + nx * (j + ny * (k + ac->zs))] : 0.0f;
      PetscCall(SbpmgCLWriteBuffer(ac->cl, dst[f], 0, ac->npad * sizeof(float), buf));
    }
    PetscCall(PetscFree(buf));
    PetscCall(SbpmgCLFillBuffer(ac->cl, ac->dphi, &zero, sizeof(float), 0, ac->npad * sizeof(float)));
  }
  ac->step = 0;
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
    float *buf;
    PetscCall(PetscMalloc1(ac->npad, &buf));
    PetscCall(SbpmgCLReadBuffer(ac->cl, d, 0, ac->npad * sizeof(float), buf));
    for (PetscInt k = 0; k < nz; k++)
      for (PetscInt j = 0; j < ny; j++)
        for (PetscInt i = 0; i < nx; i++) out[i + nx * (j + ny * k)] = buf[AcIndex(ac, i, j, k)];
    PetscCall(PetscFree(buf));
  }
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
  MPI_Comm comm = PetscObjectComm((PetscObject)ac);

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  if (ac->size == 1)
    PetscCall(AcousticGetLocalField_Private(ac, f, out));
  else {
    const PetscInt nxy = ac->n[0] * ac->n[1];
    PetscReal     *mine;
    PetscMPIInt   *counts = NULL, *displs = NULL, nmine;

    PetscCheck(ac->rank || out, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "AcousticGetField() needs an array of nx*ny*nz values on rank 0");
    PetscCall(PetscMalloc1(nxy * ac->nl[2], &mine));
    PetscCall(AcousticGetLocalField_Private(ac, f, mine));
    PetscCall(PetscMPIIntCast(nxy * ac->nl[2], &nmine));
    if (!ac->rank) {
      PetscCall(PetscMalloc2(ac->size, &counts, ac->size, &displs));
      for (PetscMPIInt r = 0; r < ac->size; r++) {
        PetscCall(PetscMPIIntCast(nxy * (ac->zstart[r + 1] - ac->zstart[r]), &counts[r]));
        PetscCall(PetscMPIIntCast(nxy * ac->zstart[r], &displs[r]));
      }
    }
    PetscCallMPI(MPI_Gatherv(mine, nmine, MPIU_REAL, out, counts, displs, MPIU_REAL, 0, comm));
    if (!ac->rank) PetscCall(PetscFree2(counts, displs));
    PetscCall(PetscFree(mine));
  }
  PetscFunctionReturn(0);
}

/* Plane k (global) of a field, nx*ny values, x fastest: one transfer of the padded plane on the rank that owns it, sent
   to rank 0 on several ranks (out may be NULL on the other ranks). Collective. */
PetscErrorCode AcousticGetPlane(Acoustic ac, AcousticField f, PetscInt k, PetscReal out[])
{
  cl_mem         d = NULL;
  PetscReal     *h = NULL, *plane = out;
  PetscMPIInt    owner = 0, nplane;
  const PetscInt nxy   = ac->n[0] * ac->n[1];
  MPI_Comm       comm  = PetscObjectComm((PetscObject)ac);

  PetscFunctionBegin;
  AcousticCheckSetUp(ac);
  PetscCheck(k >= 0 && k < ac->n[2], comm, PETSC_ERR_ARG_OUTOFRANGE, "Plane %" PetscInt_FMT " is outside [0, %" PetscInt_FMT ")", k, ac->n[2]);
  PetscCall(AcousticFieldBuffer(ac, f, &d, &h));
  while (k >= ac->zstart[owner + 1]) owner++;
  PetscCall(PetscMPIIntCast(nxy, &nplane));
  if (ac->rank == owner) {
    const PetscInt kl = k - ac->zs;

    if (ac->rank) PetscCall(PetscMalloc1(nxy, &plane));
    if (ac->backend == ACOUSTIC_BACKEND_HOST) {
      for (PetscInt j = 0; j < ac->n[1]; j++)
        for (PetscInt i = 0; i < ac->n[0]; i++) plane[i + ac->n[0] * j] = h[AcIndex(ac, i, j, kl)];
    } else {
      float       *buf;
      const size_t start = (size_t)(kl + 4) * ac->pxy;

      PetscCall(PetscMalloc1(ac->pxy, &buf));
      PetscCall(SbpmgCLReadBuffer(ac->cl, d, start * sizeof(float), ac->pxy * sizeof(float), buf));
      for (PetscInt j = 0; j < ac->n[1]; j++)
        for (PetscInt i = 0; i < ac->n[0]; i++) plane[i + ac->n[0] * j] = buf[AcIndex(ac, i, j, kl) - start];
      PetscCall(PetscFree(buf));
    }
    if (ac->rank) {
      PetscCallMPI(MPI_Send(plane, nplane, MPIU_REAL, 0, ac->tag, comm));
      PetscCall(PetscFree(plane));
    }
  }
  if (!ac->rank && owner) PetscCallMPI(MPI_Recv(out, nplane, MPIU_REAL, owner, ac->tag, comm, MPI_STATUS_IGNORE));
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
  PetscMPIInt owner = 0;

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
      float x;
      PetscCall(SbpmgCLReadBuffer(ac->cl, ac->du, (size_t)AcIndex(ac, i, j, kl) * sizeof(float), sizeof(float), &x));
      *val = x;
    }
  }
  if (ac->size > 1) PetscCallMPI(MPI_Bcast(val, 1, MPIU_REAL, owner, PetscObjectComm((PetscObject)ac)));
  PetscFunctionReturn(0);
}

/*@C
   AcousticGetNorms - max |u^n| and sum (u^n)^2 over the grid points (a reduction on the device; only the per-group
   partial results are transferred; on several ranks one MPI_Allreduce of the ranks' results, the same on every rank).

   Collective

   Level: intermediate
@*/
PetscErrorCode AcousticGetNorms(Acoustic ac, PetscReal *maxabs, PetscReal *energy)
{
  PetscReal m = 0, s = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  if (ac->backend == ACOUSTIC_BACKEND_HOST) {
    for (PetscInt k = 0; k < ac->nl[2]; k++)
      for (PetscInt j = 0; j < ac->n[1]; j++)
        for (PetscInt i = 0; i < ac->n[0]; i++) {
          const PetscReal x = ac->hu[AcIndex(ac, i, j, k)];
          m                 = PetscMax(m, PetscAbsReal(x));
          s += x * x;
        }
  } else {
    cl_kernel  k;
    cl_mem     part;
    cl_float2 *buf;
    const int  nx = (int)ac->n[0], ny = (int)ac->n[1], nz = (int)ac->nl[2], px = (int)ac->px, pxy = (int)ac->pxy, origin = (int)ac->origin;
    size_t     ls = (size_t)ac->tune.ac_norm_wg, ng = PetscMin((size_t)ny * nz, (size_t)ac->tune.ac_norm_groups);

    PetscCall(AcousticGetUtilKernel_Private(ac, "ac_norms", &k));
    PetscCall(SbpmgCLCreateBuffer(ac->cl, CL_MEM_READ_WRITE, ng * sizeof(cl_float2), &part));
    PetscCall(SbpmgCLSetArgs(k, 0, 8, sizeof(int), &nx, sizeof(int), &ny, sizeof(int), &nz, sizeof(int), &px, sizeof(int), &pxy, sizeof(int), &origin,
                             sizeof(cl_mem), &ac->du, sizeof(cl_mem), &part));
    PetscCall(SbpmgCLLaunch1D(ac->cl, k, ng * ls, ls));
    PetscCall(PetscMalloc1(ng, &buf));
    PetscCall(SbpmgCLReadBuffer(ac->cl, part, 0, ng * sizeof(cl_float2), buf));
    for (size_t g = 0; g < ng; g++) {
      m = PetscMax(m, (PetscReal)buf[g].s[0]);
      s += buf[g].s[1];
    }
    PetscCall(PetscFree(buf));
    PetscCall(SbpmgCLReleaseBuffer(ac->cl, &part));
  }
  if (ac->size > 1) {
    MPI_Comm comm = PetscObjectComm((PetscObject)ac);
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &m, 1, MPIU_REAL, MPIU_MAX, comm));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPIU_REAL, MPIU_SUM, comm));
  }
  if (maxabs) *maxabs = m;
  if (energy) *energy = s;
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

/*@C
   AcousticWriteSlicePNG - Write the central x-y slice (z = nz/2) of u as a PNG with a diverging colour map (blue
   negative, white zero, red positive), scaled by the slice's max |u| with a signed square-root to show the weaker far
   field; x to the right, y downwards. Reads one plane from the device (on the rank that owns it); rank 0 writes the file.

   Collective

   Level: intermediate

.seealso: `AcousticWriteVTK()`
@*/
PetscErrorCode AcousticWriteSlicePNG(Acoustic ac, const char path[])
{
  const PetscInt nx = ac->n[0], ny = ac->n[1];
  PetscReal     *plane;
  unsigned char *rgb;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  PetscCall(PetscMalloc1(nx * ny, &plane));
  PetscCall(AcousticGetPlane(ac, ACOUSTIC_FIELD_U, ac->n[2] / 2, plane));
  if (ac->rank) { /* rank 0 writes; every rank returns its error */
    PetscErrorCode ierr;
    PetscCall(PetscFree(plane));
    PetscCallMPI(MPI_Bcast(&ierr, 1, MPI_INT, 0, PetscObjectComm((PetscObject)ac)));
    PetscCheck(!ierr, PETSC_COMM_SELF, ierr, "Rank 0 could not write %s", path);
    PetscFunctionReturn(0);
  }
  PetscCall(PetscMalloc1(3 * nx * ny, &rgb));
  PetscCall(AcousticSliceToRGB_Private(nx * ny, plane, rgb));
  PetscCall(PetscFree(plane));
  {
    PetscErrorCode ierr = AcousticWritePNG_Private(path, nx, ny, rgb);
    PetscCall(PetscFree(rgb));
    if (ac->size > 1) PetscCallMPI(MPI_Bcast(&ierr, 1, MPI_INT, 0, PetscObjectComm((PetscObject)ac)));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

/*@C
   AcousticWriteVTK - Write u on the whole grid as a VTK structured grid (.vts) through PETSc's VTK viewer (a DMDA with
   the grid's coordinates in metres, split along z as the object is). Reads each rank's slab from its device.

   Collective

   Level: intermediate

.seealso: `AcousticWriteSlicePNG()`
@*/
PetscErrorCode AcousticWriteVTK(Acoustic ac, const char path[])
{
  MPI_Comm     comm = PetscObjectComm((PetscObject)ac);
  DM           da;
  Vec          u;
  PetscScalar *a;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  PetscCall(AcousticVTKCreate_Private(comm, ac->n, ac->h, ac->size, ac->zstart, &da, &u));
  PetscCall(VecGetArray(u, &a)); /* the local part is this rank's slab, x fastest */
  PetscCall(AcousticGetLocalField_Private(ac, ACOUSTIC_FIELD_U, a));
  PetscCall(VecRestoreArray(u, &a));
  PetscCall(AcousticVTKWrite_Private(path, u));
  PetscCall(VecDestroy(&u));
  PetscCall(DMDestroy(&da));
  PetscFunctionReturn(0);
}
