/* The leapfrog stepper: fp32 OpenCL kernels (inner region + six PML slabs + sources + receivers), and the fp64 host
   reference; on several ranks the slabs' halo planes are exchanged after each step (docs/acoustic.md). */
#include <sbpmg/private/acousticimpl.h>
#include "sbpmg_kernel_args.h"

static size_t AcRoundUp(size_t n, size_t m)
{
  return ((n + m - 1) / m) * m;
}

/* The range and work-group of a 2.5D launch over nvx x-vectors, ny rows and nz planes: tiles of tx x ty work-items, tz
   planes each (0: all of them). */
static void AcTileRange(size_t nvx, size_t ny, size_t nz, size_t tx, size_t ty, size_t tz, size_t g[3], size_t l[3])
{
  g[0] = AcRoundUp(nvx, tx);
  g[1] = AcRoundUp(ny, ty);
  g[2] = tz ? (nz + tz - 1) / tz : 1;
  l[0] = tx;
  l[1] = ty;
  l[2] = 1;
}

/* The arguments of kernels/acoustic25.cl by name (include/sbpmg/private/climpl.h SBPMG_CL_SET_ARGS): those every stencil kernel
   takes, computed once per AcousticStep call (u and v once per step), and each launch's own, filled by the launch on its copy:
   the box lo, hi (and lim) of ac_inner and ac_pml, the sizes n and inner box ilo, ihi of ac_whole, the table tab of nreg regions
   of ac_pml_all. ez is the offset of the z profile's entry for local plane 0 (the profile covers the whole grid; on several
   ranks the slab starts at plane zs). */
typedef struct {
  SbpmgCLArgValue px, pxy, origin, ex, ey, ez, c0, cx, cy, cz, hd, vp, phi, eta;
  SbpmgCLArgValue u, v;                                /* u^n, and u^{n-1}, overwritten by u^{n+1} */
  SbpmgCLArgValue lo, hi, lim, n, ilo, ihi, tab, nreg; /* the launch's own */
} AcKernelArgs;

static void AcousticKernelArgs(Acoustic ac, AcKernelArgs *a)
{
  cl_float4 cx, cy, cz, hd;

  for (PetscInt m = 0; m < 4; m++) {
    cx.s[m] = (float)ac->coef[0][m + 1];
    cy.s[m] = (float)ac->coef[1][m + 1];
    cz.s[m] = (float)ac->coef[2][m + 1];
  }
  for (PetscInt d = 0; d < 3; d++) hd.s[d] = (float)(1.0 / (4.0 * ac->h[d] * ac->h[d]));
  hd.s[3] = 0;

  *a = (AcKernelArgs){.px     = SbpmgCLArgInt((int)ac->px),
                      .pxy    = SbpmgCLArgInt((int)ac->pxy),
                      .origin = SbpmgCLArgInt((int)ac->origin),
                      .ex     = SbpmgCLArgInt((int)ac->eoff[0]),
                      .ey     = SbpmgCLArgInt((int)ac->eoff[1]),
                      .ez     = SbpmgCLArgInt((int)(ac->eoff[2] + ac->zs)),
                      .c0     = SbpmgCLArgReal(PETSC_TRUE, ac->coef[0][0] + ac->coef[1][0] + ac->coef[2][0]),
                      .cx     = SbpmgCLArgFloat4(cx),
                      .cy     = SbpmgCLArgFloat4(cy),
                      .cz     = SbpmgCLArgFloat4(cz),
                      .hd     = SbpmgCLArgFloat4(hd),
                      .vp     = SbpmgCLArgMem(ac->dvp),
                      .phi    = SbpmgCLArgMem(ac->dphi),
                      .eta    = SbpmgCLArgMem(ac->deta)};
}

/* The fields of this step: u^n in du, u^{n-1} in dv, overwritten by u^{n+1}. */
static void AcStepFields(Acoustic ac, AcKernelArgs *a)
{
  a->u = SbpmgCLArgMem(ac->du);
  a->v = SbpmgCLArgMem(ac->dv);
}

/* Points of region r's box [lo, hi) within the planes [z0, z1) */
static PetscReal AcBoxPoints(Acoustic ac, PetscInt r, PetscInt z0, PetscInt z1)
{
  return (PetscReal)PetscMax(ac->hi[r][0] - ac->lo[r][0], 0) * (PetscReal)PetscMax(ac->hi[r][1] - ac->lo[r][1], 0) *
         (PetscReal)PetscMax(PetscMin(ac->hi[r][2], z1) - PetscMax(ac->lo[r][2], z0), 0);
}

/* The whole-grid kernel over the local planes [z0, z1): the kernel is the same for any z window once its origin, the z
   profile's offset and the inner box's z range are shifted by z0 (one rank: [0, nz), the launch of docs/acoustic.md). */
static PetscErrorCode AcousticEnqueueWhole(Acoustic ac, const AcKernelArgs *a, PetscInt z0, PetscInt z1)
{
  const SbpmgTuning *t    = &ac->tune;
  const size_t       V    = (size_t)t->ac_vec;
  const int          xa   = -(int)(ac->origin % (PetscInt)V);
  PetscReal          ntot = 0, ninner = AcBoxPoints(ac, AC_REGION_INNER, z0, z1);
  AcKernelArgs       w = *a; /* with the window's origin and z profile offset */
  cl_int4            n, ilo, ihi;
  size_t             g[3], l[3];

  PetscFunctionBegin;
  if (z1 <= z0) PetscFunctionReturn(0);
  AcTileRange(((size_t)(ac->n[0] - xa) + V - 1) / V, (size_t)ac->n[1], (size_t)(z1 - z0), (size_t)t->ac_tile_x, (size_t)t->ac_tile_y, (size_t)t->ac_tile_z, g,
              l);
  for (PetscInt r = 0; r < AC_NREGIONS; r++) ntot += AcBoxPoints(ac, r, z0, z1);
  for (PetscInt d = 0; d < 3; d++) {
    n.s[d]   = (int)ac->nl[d];
    ilo.s[d] = (int)ac->lo[AC_REGION_INNER][d];
    ihi.s[d] = (int)ac->hi[AC_REGION_INNER][d];
  }
  n.s[2] = (int)(z1 - z0);
  ilo.s[2] -= (int)z0;
  ihi.s[2] -= (int)z0;
  n.s[3] = ilo.s[3] = ihi.s[3] = 0;
  PetscCall(SbpmgLogKernelBegin(SBPMG_AcInner));
  w.n      = SbpmgCLArgInt4(n);
  w.ilo    = SbpmgCLArgInt4(ilo);
  w.ihi    = SbpmgCLArgInt4(ihi);
  w.origin = SbpmgCLArgInt(a->origin.v.i + (int)(z0 * ac->pxy));
  w.ez     = SbpmgCLArgInt(a->ez.v.i + (int)z0);
  SBPMG_CL_SET_ARGS(ac->kwhole, ac_whole, &w);
  PetscCall(SbpmgCLLaunch3D(ac->cl, ac->kwhole, g, l));
  PetscCall(SbpmgLogKernelEnd(SBPMG_AcInner, ac->cl, AC_FLOPS_INNER * ninner + AC_FLOPS_PML * (ntot - ninner),
                              AC_BYTES_INNER * ninner + AC_BYTES_PML * (ntot - ninner)));
  PetscFunctionReturn(0);
}

/* The six PML regions in one launch (the table of AcousticSetUpPMLTable(): the planes [zedge[0], zedge[1])). */
static PetscErrorCode AcousticEnqueuePMLMerged(Acoustic ac, const AcKernelArgs *a)
{
  const size_t ls = (size_t)(ac->tune.ac_pml_tile_x * ac->tune.ac_pml_tile_y), g = (size_t)ac->ngroups * ls;
  PetscReal    npml = 0;
  AcKernelArgs w    = *a;

  PetscFunctionBegin;
  if (!g) PetscFunctionReturn(0);
  for (PetscInt r = AC_REGION_ZLO; r < AC_NREGIONS; r++) npml += AcBoxPoints(ac, r, ac->zedge[0], ac->zedge[1]);
  w.tab  = SbpmgCLArgMem(ac->dtab);
  w.nreg = SbpmgCLArgInt((int)ac->ntab);
  PetscCall(SbpmgLogKernelBegin(SBPMG_AcPML));
  SBPMG_CL_SET_ARGS(ac->kpmlall, ac_pml_all, &w);
  PetscCall(SbpmgCLLaunch1D(ac->cl, ac->kpmlall, g, ls));
  PetscCall(SbpmgLogKernelEnd(SBPMG_AcPML, ac->cl, AC_FLOPS_PML * npml, AC_BYTES_PML * npml));
  PetscFunctionReturn(0);
}

/* The arguments of one PML region's launch (ac_pml) for the box [lo, hi). */
static PetscErrorCode AcousticSetPMLArgs(Acoustic ac, const AcKernelArgs *a, const cl_int4 *lo, const cl_int4 *hi)
{
  AcKernelArgs w = *a;

  PetscFunctionBegin;
  w.lo = SbpmgCLArgInt4(*lo);
  w.hi = SbpmgCLArgInt4(*hi);
  SBPMG_CL_SET_ARGS(ac->kpml, ac_pml, &w);
  PetscFunctionReturn(0);
}

/* Region r's box within the planes [z0, z1), with the region kernels: ac_inner for the inner box, ac_pml for a PML slab (its
   x vectors start at the aligned point at or before lo.x). */
static PetscErrorCode AcousticEnqueueRegion(Acoustic ac, const AcKernelArgs *a, PetscInt r, PetscInt z0, PetscInt z1)
{
  const SbpmgTuning *t  = &ac->tune;
  const PetscReal    np = AcBoxPoints(ac, r, z0, z1);
  cl_int4            lo, hi;
  size_t             g[3], l[3];

  PetscFunctionBegin;
  if (np == 0) PetscFunctionReturn(0);
  for (PetscInt d = 0; d < 3; d++) {
    lo.s[d] = (int)ac->lo[r][d];
    hi.s[d] = (int)ac->hi[r][d];
  }
  lo.s[2] = (int)PetscMax(ac->lo[r][2], z0);
  hi.s[2] = (int)PetscMin(ac->hi[r][2], z1);
  lo.s[3] = hi.s[3] = 0;
  if (r == AC_REGION_INNER) {
    const size_t V = (size_t)t->ac_vec;
    cl_int4      lim;
    AcKernelArgs w = *a;

    AcTileRange(((size_t)(hi.s[0] - lo.s[0]) + V - 1) / V, (size_t)(hi.s[1] - lo.s[1]), (size_t)(hi.s[2] - lo.s[2]), (size_t)t->ac_tile_x, (size_t)t->ac_tile_y,
                (size_t)t->ac_tile_z, g, l);
    lim.s[0] = lo.s[0] + (int)V * ((int)(ac->n[0] + 3 - lo.s[0]) / (int)V);
    lim.s[1] = (int)ac->n[1] + 3;
    lim.s[2] = lim.s[3] = 0;
    PetscCall(SbpmgLogKernelBegin(SBPMG_AcInner));
    w.lo  = SbpmgCLArgInt4(lo);
    w.hi  = SbpmgCLArgInt4(hi);
    w.lim = SbpmgCLArgInt4(lim);
    SBPMG_CL_SET_ARGS(ac->kinner, ac_inner, &w);
    PetscCall(SbpmgCLLaunch3D(ac->cl, ac->kinner, g, l));
    PetscCall(SbpmgLogKernelEnd(SBPMG_AcInner, ac->cl, AC_FLOPS_INNER * np, AC_BYTES_INNER * np));
  } else {
    const size_t V  = (size_t)t->ac_pml_vec;
    const int    xa = lo.s[0] - (int)((ac->origin + lo.s[0]) % (PetscInt)V);

    AcTileRange(((size_t)(hi.s[0] - xa) + V - 1) / V, (size_t)(hi.s[1] - lo.s[1]), (size_t)(hi.s[2] - lo.s[2]), (size_t)t->ac_pml_tile_x,
                (size_t)t->ac_pml_tile_y, (size_t)t->ac_pml_tile_z, g, l);
    PetscCall(SbpmgLogKernelBegin(SBPMG_AcPML));
    PetscCall(AcousticSetPMLArgs(ac, a, &lo, &hi));
    PetscCall(SbpmgCLLaunch3D(ac->cl, ac->kpml, g, l));
    PetscCall(SbpmgLogKernelEnd(SBPMG_AcPML, ac->cl, AC_FLOPS_PML * np, AC_BYTES_PML * np));
  }
  PetscFunctionReturn(0);
}

/* The regions in mask within the planes [z0, z1): the whole-grid kernel (all regions), or the inner kernel and the PML
   regions (merged in one launch when allowed: only for the planes its table was built for), or one launch per region. */
static PetscErrorCode AcousticEnqueuePlanes(Acoustic ac, const AcKernelArgs *a, PetscInt mask, PetscInt z0, PetscInt z1)
{
  PetscInt todo = mask;

  PetscFunctionBegin;
  if (z1 <= z0) PetscFunctionReturn(0);
  if (ac->tune.ac_fused && mask == AC_REGIONS_ALL) { /* the whole grid in one launch */
    PetscCall(AcousticEnqueueWhole(ac, a, z0, z1));
    todo = 0;
  } else if (ac->tune.ac_pml_merge && (mask & AC_REGIONS_PML) == AC_REGIONS_PML && ac->ntab && z0 == ac->zedge[0] && z1 == ac->zedge[1]) {
    PetscCall(AcousticEnqueuePMLMerged(ac, a)); /* the six PML regions in one launch */
    todo = mask & ~AC_REGIONS_PML;
  }
  for (PetscInt r = 0; r < AC_NREGIONS; r++)
    if (todo & (1 << r)) PetscCall(AcousticEnqueueRegion(ac, a, r, z0, z1));
  PetscFunctionReturn(0);
}

/* The new field u^{n+1} becomes u^n: the two wavefields swap by pointer. */
static void AcousticSwapDevice(Acoustic ac)
{
  cl_mem t = ac->du;

  ac->du = ac->dv;
  ac->dv = t;
  ac->step++;
}

/* The trace sample of the new step, if one is due (every ac->every steps, receivers set). */
static PetscErrorCode AcousticRecordIfDue(Acoustic ac)
{
  PetscFunctionBegin;
  if (ac->sv.nrectotal && ac->step % ac->every == 0) PetscCall(AcousticRecord_Private(ac));
  PetscFunctionReturn(0);
}

/* Several ranks: the queued work (the interior planes) starts on the device while the messages travel. */
static PetscErrorCode AcousticFlushDevice(Acoustic ac)
{
  PetscFunctionBegin;
  PetscCallCL(clFlush(ac->cl->queue));
  PetscFunctionReturn(0);
}

/* Device: K steps of the regions in mask (a bit per AcousticRegion), the sources, the swap and the receivers.
   One rank: the launches of docs/acoustic.md, no host traffic.
   Several ranks (slabs along z): per step
     1. post the receives of the neighbours' boundary planes;
     2. compute the planes the neighbours need (within 4 of the slab's faces) and the sources' points there;
     3. read those planes (4 contiguous planes per neighbour) and send them;
     4. enqueue the other planes (and their sources' points) and flush: the device computes them while the messages travel;
     5. wait for the messages and write the received planes into the new field's halo (the write waits for step 4).
   Only the 4 halo planes per neighbour cross between host and device. The receivers read the new field after step 5 (a
   receiver's cell may reach into the upper halo plane).
   A device failure hits one rank only, and its neighbours would wait for its planes in the next exchange; so a rank that
   fails keeps its first error, does no more device work and still takes part in every exchange (sending what its buffers
   hold) until the ranks agree: each step reduces the lowest failing rank (MPI_Iallreduce, started with the sends after
   steps 2-3 and completed by the same MPI_Waitall). An error after it (steps 4-5, the receivers) enters the next step's
   agreement, or the one after the last step. Then every rank stops: the failing one with its own error, the others with
   one naming it (docs/reliability.md "Fault injection"). */
PetscErrorCode AcousticStepDevice_Private(Acoustic ac, PetscInt K, PetscInt mask)
{
  AcKernelArgs    a;
  const PetscInt  nz      = ac->nl[2];
  const PetscInt  z[3][2] = {{0, ac->zedge[0]}, {ac->zedge[1], nz}, {ac->zedge[0], ac->zedge[1]}}; /* the low and high boundary planes, then the others */
  const AcSurvey *sv      = &ac->sv;
  const PetscInt  t[3][2] = {{0, sv->twin[0]}, {sv->twin[1], sv->ntarget}, {sv->twin[0], sv->twin[1]}}; /* ... and their sources' targets */

  PetscFunctionBegin;
  AcousticKernelArgs(ac, &a);
  if (ac->size == 1) {
    for (PetscInt s = 0; s < K; s++) {
      AcStepFields(ac, &a);
      PetscCall(AcousticEnqueuePlanes(ac, &a, mask, 0, nz));
      PetscCall(AcousticInjectDevice_Private(ac, 0, sv->ntarget, ac->dv));
      AcousticSwapDevice(ac);
      PetscCall(AcousticRecordIfDue(ac));
    }
  } else {
    MPI_Comm          comm  = PetscObjectComm((PetscObject)ac);
    const size_t      plane = (size_t)ac->pxy * sizeof(float), nb = 4 * (size_t)ac->pxy;
    const PetscMPIInt nbr[2]     = {ac->down, ac->up};
    const size_t      sendoff[2] = {4 * plane, (size_t)nz * plane}, recvoff[2] = {0, (size_t)(nz + 4) * plane}; /* planes 0, nz - 4; -4, nz */
    float            *sbuf[2] = {ac->xbuf, ac->xbuf + nb}, *rbuf[2] = {ac->xbuf + 2 * nb, ac->xbuf + 3 * nb};
    PetscErrorCode    ierr = 0;                               /* this rank's first error */
    PetscMPIInt       count, mine, first = PETSC_MPI_INT_MAX; /* the lowest rank that failed, as the ranks agreed */

    PetscCall(PetscMPIIntCast((PetscInt)nb, &count));
    for (PetscInt s = 0; s < K; s++) {
      MPI_Request req[5];
      PetscMPIInt nreq = 0;

      AcStepFields(ac, &a);
      for (PetscInt d = 0; d < 2; d++)
        if (nbr[d] >= 0) PetscCallMPI(MPI_Irecv(rbuf[d], count, MPI_FLOAT, nbr[d], ac->tag, comm, &req[nreq++]));
      for (PetscInt c = 0; c < 2 && !ierr; c++) {
        ierr = AcousticEnqueuePlanes(ac, &a, mask, z[c][0], z[c][1]);
        if (!ierr) ierr = AcousticInjectDevice_Private(ac, t[c][0], t[c][1], ac->dv);
      }
      for (PetscInt d = 0; d < 2; d++) {
        if (nbr[d] < 0) continue;
        if (!ierr) ierr = SbpmgCLReadBuffer(ac->cl, ac->dv, sendoff[d], 4 * plane, sbuf[d]); /* waits for the boundary planes only */
        PetscCallMPI(MPI_Isend(sbuf[d], count, MPI_FLOAT, nbr[d], ac->tag, comm, &req[nreq++]));
      }
      mine = ierr ? ac->rank : PETSC_MPI_INT_MAX;
      PetscCallMPI(MPI_Iallreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm, &req[nreq++]));
      if (!ierr) ierr = AcousticEnqueuePlanes(ac, &a, mask, z[2][0], z[2][1]);
      if (!ierr) ierr = AcousticInjectDevice_Private(ac, t[2][0], t[2][1], ac->dv);
      if (!ierr) ierr = AcousticFlushDevice(ac);
      PetscCallMPI(MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
      if (first != PETSC_MPI_INT_MAX) break;
      for (PetscInt d = 0; d < 2; d++)
        if (nbr[d] >= 0 && !ierr) ierr = SbpmgCLWriteBuffer(ac->cl, ac->dv, recvoff[d], 4 * plane, rbuf[d]);
      AcousticSwapDevice(ac);
      if (!ierr) ierr = AcousticRecordIfDue(ac);
    }
    if (first == PETSC_MPI_INT_MAX) { /* the errors after the last step's exchange */
      mine = ierr ? ac->rank : PETSC_MPI_INT_MAX;
      PetscCallMPI(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm));
    }
    PetscCall(AcousticAgreeEnd_Private(ac, ierr, first, "time step"));
  }
  PetscFunctionReturn(0);
}

/* Host: exchange the 4 boundary planes of f with the neighbouring slabs (into f's halo planes). */
static PetscErrorCode AcousticExchangeHost(Acoustic ac, PetscReal *f)
{
  MPI_Comm          comm   = PetscObjectComm((PetscObject)ac);
  const PetscMPIInt nbr[2] = {ac->down, ac->up};
  const size_t      nb = 4 * (size_t)ac->pxy, nz = (size_t)ac->nl[2];
  const size_t      sendoff[2] = {nb, nz * ac->pxy}, recvoff[2] = {0, (nz + 4) * ac->pxy};
  MPI_Request       req[4];
  PetscMPIInt       nreq = 0, count;

  PetscFunctionBegin;
  PetscCall(PetscMPIIntCast((PetscInt)nb, &count));
  for (PetscInt d = 0; d < 2; d++)
    if (nbr[d] >= 0) PetscCallMPI(MPI_Irecv(f + recvoff[d], count, MPIU_REAL, nbr[d], ac->tag, comm, &req[nreq++]));
  for (PetscInt d = 0; d < 2; d++)
    if (nbr[d] >= 0) PetscCallMPI(MPI_Isend(f + sendoff[d], count, MPIU_REAL, nbr[d], ac->tag, comm, &req[nreq++]));
  PetscCallMPI(MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
  PetscFunctionReturn(0);
}

/* Host reference: the same step in fp64 with plain loops over the regions, the sources and the receivers. */
PetscErrorCode AcousticStepHost_Private(Acoustic ac, PetscInt K, PetscInt mask)
{
  const PetscInt   px = ac->px, pxy = ac->pxy;
  const PetscReal *ex = ac->heta + ac->eoff[0], *ey = ac->heta + ac->eoff[1], *ez = ac->heta + ac->eoff[2] + ac->zs;
  PetscReal        hd[3];

  PetscFunctionBegin;
  if (ac->size > 1 && ac->sv.nrectotal) {
    /* the room for the K steps' trace samples, reserved before them: the steps then do nothing that can fail on one rank
       only (a host allocation), so no rank leaves the loop while its neighbours wait in the exchange */
    const PetscInt       more = (ac->step + K) / ac->every - ac->step / ac->every;
    const PetscErrorCode ierr = AcousticReserveTraces_Private(ac, ac->sv.nsamples + more);
    PetscCall(AcousticAgree_Private(ac, ierr, "time step"));
  }
  for (PetscInt a = 0; a < 3; a++) hd[a] = 1.0 / (4.0 * ac->h[a] * ac->h[a]);
  for (PetscInt s = 0; s < K; s++) {
    const PetscReal *u = ac->hu, *vp = ac->hvp;
    PetscReal       *v = ac->hv, *phi = ac->hphi;

    for (PetscInt r = 0; r < AC_NREGIONS; r++) {
      if (!(mask & (1 << r))) continue;
      for (PetscInt k = ac->lo[r][2]; k < ac->hi[r][2]; k++)
        for (PetscInt j = ac->lo[r][1]; j < ac->hi[r][1]; j++)
          for (PetscInt i = ac->lo[r][0]; i < ac->hi[r][0]; i++) {
            const PetscInt  idx = AcIndex(ac, i, j, k);
            const PetscReal lap = AcLapPoint(u, idx, px, pxy, ac->coef);

            if (r == AC_REGION_INNER)
              v[idx] = 2 * u[idx] - v[idx] + vp[idx] * lap;
            else {
              const PetscReal e = ex[i] + ey[j] + ez[k];
              const PetscReal g = (ex[i + 1] - ex[i - 1]) * (u[idx + 1] - u[idx - 1]) * hd[0] + (ey[j + 1] - ey[j - 1]) * (u[idx + px] - u[idx - px]) * hd[1] +
                                  (ez[k + 1] - ez[k - 1]) * (u[idx + pxy] - u[idx - pxy]) * hd[2];
              v[idx]   = ((2 + 2 * e - e * e) * u[idx] - v[idx] + vp[idx] * (lap + phi[idx])) / (1 + 2 * e);
              phi[idx] = (phi[idx] - g) / (1 + e);
            }
          }
    }
    PetscCall(AcousticInjectHost_Private(ac, v));
    if (ac->size > 1) PetscCall(AcousticExchangeHost(ac, v));
    ac->hu = v;
    ac->hv = (PetscReal *)u;
    ac->step++;
    PetscCall(AcousticRecordIfDue(ac));
  }
  PetscFunctionReturn(0);
}

/*@C
   AcousticStepRegions - K steps updating only the regions in mask (a bit per AcousticRegion; AC_REGIONS_ALL for a full
   step). For benchmarks and tests of the region decomposition.

   Level: developer
@*/
PetscErrorCode AcousticStepRegions(Acoustic ac, PetscInt K, PetscInt mask)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  PetscCheck(ac->setupcalled, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_WRONGSTATE, "Call AcousticSetUp() first");
  PetscCheck(K >= 0, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "Number of steps %" PetscInt_FMT " must be >= 0", K);
  PetscCall(AcousticCheckWaveletLength_Private(ac, K));
  while (K > 0) { /* in pieces ending at the finiteness checks */
    const PetscInt every = ac->check_every, k = every ? PetscMin(K, every - ac->step % every) : K;

    if (ac->backend == ACOUSTIC_BACKEND_HOST)
      PetscCall(AcousticStepHost_Private(ac, k, mask));
    else
      PetscCall(AcousticStepDevice_Private(ac, k, mask));
    K -= k;
    if (every && ac->step % every == 0) PetscCall(AcousticCheckFinite(ac));
  }
  PetscFunctionReturn(0);
}

/*@C
   AcousticStep - Advance K leapfrog steps: u^{n+1} = 2 u^n - u^{n-1} + (v dt)^2 lap(u^n) in the inner region, the PML
   update in the six damping slabs, then the sources; the two wavefields swap by pointer and the receivers record u^{n+1}
   when a trace sample is due (on the device, into a trace buffer read back when full). On the device backend on one
   rank the K steps are enqueued without any host-device transfer and without waiting for the device; on several ranks
   each step exchanges the 4 boundary planes of the new field with the neighbouring slabs (the only host-device
   traffic), overlapped with the computation of the slab's other planes.

   Collective

   Level: beginner

.seealso: `AcousticSetUp()`, `AcousticGetField()`, `AcousticGetNorms()`
@*/
PetscErrorCode AcousticStep(Acoustic ac, PetscInt K)
{
  PetscFunctionBegin;
  PetscCall(AcousticStepRegions(ac, K, AC_REGIONS_ALL));
  PetscFunctionReturn(0);
}

/*@C
   AcousticSynchronize - Wait until the device has finished the enqueued steps (for timing); nothing on the host backend.

   Level: intermediate
@*/
PetscErrorCode AcousticSynchronize(Acoustic ac)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  if (ac->cl) PetscCall(SbpmgCLFinish(ac->cl));
  PetscFunctionReturn(0);
}
