/* The ghost exchange of a 2D DMDA (box stencil, non-periodic) between the OpenCL devices of several MPI ranks: the device
   side of DMGlobalToLocal for the kernels of the multi-rank path (operator, smoother, transfers).

   Each rank keeps a ghosted patch (gxm x gym, r fastest) on its device. SbpHaloBegin() posts the receives, copies the owned
   block of the vector into the patch and packs the strips the neighbours need into one small device buffer (one launch of
   halo_pack, kernels/halo.cl), reads that buffer to the host (the only device -> host transfer) and sends each neighbour
   its strip; it returns with the messages in flight, so the caller can enqueue the interior part of its kernel. SbpHaloEnd()
   waits for the messages, writes the received strips to the device in one transfer and scatters them into the ghost region
   (halo_unpack). The strips of neighbour k are the intersection of one rank's owned block with the other's ghosted patch,
   enumerated row by row on both sides, so sender and receiver agree on the order without sending indices. */
#include <sbpmg/private/haloimpl.h>
#include "sbpmg_kernel_args.h"

/* [lo, hi) of an owned range widened by s and clipped to [0, M) */
static void SbpHaloWiden(PetscInt lo, PetscInt hi, PetscInt s, PetscInt M, PetscInt *glo, PetscInt *ghi)
{
  *glo = PetscMax(lo - s, 0);
  *ghi = PetscMin(hi + s, M);
}

/* Append the nodes of the box [x0, x1) x [y0, y1), row by row, as indices into an array with origin (ox, oy) and leading
   dimension ld. */
static PetscInt SbpHaloAppendBox(PetscInt x0, PetscInt x1, PetscInt y0, PetscInt y1, PetscInt ox, PetscInt oy, PetscInt ld, int *idx, PetscInt n)
{
  for (PetscInt j = y0; j < y1; j++)
    for (PetscInt i = x0; i < x1; i++) {
      if (idx) idx[n] = (int)((i - ox) + ld * (j - oy));
      n++;
    }
  return n;
}

/*@C
   SbpHaloCreate - The device ghost exchange of a 2D DMDA (box stencil, non-periodic) on this rank's device context, of fp64
   (PetscScalar) values or, with single, of fp32 ones.

   Collective on the DMDA

   Level: developer

.seealso: `SbpHaloBegin()`, `SbpHaloEnd()`, `SbpHaloDestroy()`
@*/
/* The plan and buffers of the exchange h (its context and precision set); the host index lists *sidx, *ridx are the caller's to free. */
static PetscErrorCode SbpHaloBuild(DM da, SbpHalo h, int **sidx_out, int **ridx_out)
{
  SbpmgCL         cl = h->cl;
  PetscInt        dim, M, N, m, n, s, pi, pj, nsend = 0, nrecv = 0, *sx, *sy;
  const PetscInt *lx, *ly;
  PetscMPIInt     rank;
  int            *sidx, *ridx;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(da, &dim, &M, &N, NULL, &m, &n, NULL, NULL, &s, NULL, NULL, NULL, NULL));
  h->comm = PetscObjectComm((PetscObject)da);
  PetscCall(PetscObjectGetNewTag((PetscObject)da, &h->tag));
  PetscCallMPI(MPI_Comm_rank(h->comm, &rank));
  PetscCall(DMDAGetCorners(da, &h->xs, &h->ys, NULL, &h->xm, &h->ym, NULL));
  PetscCall(DMDAGetGhostCorners(da, &h->gxs, &h->gys, NULL, &h->gxm, &h->gym, NULL));
  PetscCall(DMDAGetOwnershipRanges(da, &lx, &ly, NULL));
  PetscCall(PetscMalloc2(m + 1, &sx, n + 1, &sy));
  sx[0] = sy[0] = 0;
  for (PetscInt q = 0; q < m; q++) sx[q + 1] = sx[q] + lx[q];
  for (PetscInt q = 0; q < n; q++) sy[q + 1] = sy[q] + ly[q];
  pi = rank % m; /* DMDA numbers ranks r fastest */
  pj = rank / m;
  PetscCheck(sx[pi] == h->xs && sy[pj] == h->ys, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "DMDA rank layout not as expected: rank %d owns (%" PetscInt_FMT ",%" PetscInt_FMT ")", rank, h->xs, h->ys);

  /* two passes over the neighbours (dy slowest, then dx, as DMDAGetNeighbors): count, then fill the index lists */
  sidx = ridx = NULL;
  for (int pass = 0; pass < 2; pass++) {
    nsend = nrecv = 0;
    h->nnb        = 0;
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        PetscInt qi = pi + dx, qj = pj + dy, qx0, qx1, qy0, qy1, gx0, gx1, gy0, gy1, mx0, mx1, my0, my1;
        if ((!dx && !dy) || qi < 0 || qi >= m || qj < 0 || qj >= n) continue;
        h->nb[h->nnb]   = (PetscMPIInt)(qi + m * qj);
        h->soff[h->nnb] = nsend;
        h->roff[h->nnb] = nrecv;
        /* send: my owned block within its ghosted patch */
        SbpHaloWiden(sx[qi], sx[qi + 1], s, M, &gx0, &gx1);
        SbpHaloWiden(sy[qj], sy[qj + 1], s, N, &gy0, &gy1);
        qx0   = PetscMax(h->xs, gx0);
        qx1   = PetscMin(h->xs + h->xm, gx1);
        qy0   = PetscMax(h->ys, gy0);
        qy1   = PetscMin(h->ys + h->ym, gy1);
        nsend = SbpHaloAppendBox(qx0, PetscMax(qx0, qx1), qy0, PetscMax(qy0, qy1), h->xs, h->ys, h->xm, sidx, nsend);
        /* receive: its owned block within my ghosted patch */
        SbpHaloWiden(h->xs, h->xs + h->xm, s, M, &mx0, &mx1);
        SbpHaloWiden(h->ys, h->ys + h->ym, s, N, &my0, &my1);
        qx0   = PetscMax(sx[qi], mx0);
        qx1   = PetscMin(sx[qi + 1], mx1);
        qy0   = PetscMax(sy[qj], my0);
        qy1   = PetscMin(sy[qj + 1], my1);
        nrecv = SbpHaloAppendBox(qx0, PetscMax(qx0, qx1), qy0, PetscMax(qy0, qy1), h->gxs, h->gys, h->gxm, ridx, nrecv);
        h->nnb++;
      }
    h->soff[h->nnb] = nsend;
    h->roff[h->nnb] = nrecv;
    if (!pass) PetscCall(PetscMalloc2(PetscMax(nsend, 1), &sidx, PetscMax(nrecv, 1), &ridx));
    if (!pass) *sidx_out = sidx;
    if (!pass) *ridx_out = ridx;
  }
  PetscCall(PetscFree2(sx, sy));
  /* the ghost region is exactly what the neighbours send */
  PetscCheck(nrecv + h->xm * h->ym == h->gxm * h->gym, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "Ghost exchange plan: %" PetscInt_FMT " received + %" PetscInt_FMT " owned != %" PetscInt_FMT " ghosted nodes", nrecv, h->xm * h->ym,
             h->gxm * h->gym);
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, (size_t)h->gxm * h->gym * h->esize, &h->patch));
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_ONLY, (size_t)nsend * sizeof(int), &h->sidx));
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_ONLY, (size_t)nrecv * sizeof(int), &h->ridx));
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, (size_t)nsend * h->esize, &h->sbuf));
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, (size_t)nrecv * h->esize, &h->rbuf));
  PetscCall(SbpmgCLWriteBuffer(cl, h->sidx, 0, (size_t)nsend * sizeof(int), sidx));
  PetscCall(SbpmgCLWriteBuffer(cl, h->ridx, 0, (size_t)nrecv * sizeof(int), ridx));
  {
    void *ptr;
    PetscCall(SbpmgCLCreateStaging(cl, (size_t)(nsend + nrecv) * h->esize, &h->stage, &ptr));
    h->hs = (char *)ptr;
    h->hr = h->hs + nsend * h->esize;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode SbpHaloCreate(DM da, SbpmgCL cl, PetscBool single, SbpHalo *halo)
{
  SbpHalo         h;
  PetscInt        dim;
  DMBoundaryType  bx, by;
  DMDAStencilType st;
  int            *sidx = NULL, *ridx = NULL;
  PetscErrorCode  ierr;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(da, &dim, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &bx, &by, NULL, &st));
  PetscCheck(dim == 2 && bx == DM_BOUNDARY_NONE && by == DM_BOUNDARY_NONE && st == DMDA_STENCIL_BOX, PetscObjectComm((PetscObject)da), PETSC_ERR_SUP,
             "The device ghost exchange needs a 2D DMDA with a box stencil and no periodic boundaries");
  PetscCall(PetscNew(&h));
  h->cl     = cl;
  h->single = single;
  h->esize  = single ? sizeof(float) : sizeof(PetscScalar);
  PetscCall(SbpmgCLReference(cl));
  ierr = SbpHaloBuild(da, h, &sidx, &ridx);
  PetscCall(PetscFree2(sidx, ridx)); /* on every path; on error what was made goes too */
  if (ierr) PetscCall(SbpHaloDestroy(&h));
  PetscCall(ierr);
  *halo = h;
  PetscFunctionReturn(0);
}

/*@C
   SbpHaloDestroy - Free the ghost exchange.

   Level: developer
@*/
PetscErrorCode SbpHaloDestroy(SbpHalo *halo)
{
  SbpHalo h = *halo;

  PetscFunctionBegin;
  if (!h) PetscFunctionReturn(0);
  *halo = NULL;
  if (h->inflight) { /* an error between Begin and End: no request may outlive the buffers */
    for (PetscInt k = 0; k < 2 * h->nnb; k++)
      if (h->req[k] != MPI_REQUEST_NULL) {
        PetscCallMPI(MPI_Cancel(&h->req[k]));
        PetscCallMPI(MPI_Wait(&h->req[k], MPI_STATUS_IGNORE));
      }
  }
  PetscCall(SbpmgCLReleaseBuffer(h->cl, &h->patch));
  PetscCall(SbpmgCLReleaseBuffer(h->cl, &h->sidx));
  PetscCall(SbpmgCLReleaseBuffer(h->cl, &h->ridx));
  PetscCall(SbpmgCLReleaseBuffer(h->cl, &h->sbuf));
  PetscCall(SbpmgCLReleaseBuffer(h->cl, &h->rbuf));
  {
    void *ptr = h->hs;
    PetscCall(SbpmgCLDestroyStaging(h->cl, &h->stage, &ptr));
    h->hs = h->hr = NULL;
  }
  PetscCall(SbpmgCLDestroy(&h->cl));
  PetscCall(PetscFree(h));
  PetscFunctionReturn(0);
}

/* The program of the exchange's kernels, built for its precision (kernels/halo.cl SBPMG_HALO_REAL). */
static PetscErrorCode SbpHaloKernel(SbpHalo h, const char name[], cl_kernel *k)
{
  PetscFunctionBegin;
  if (!*k) PetscCall(SbpmgCLGetKernel(h->cl, "halo", h->single ? "-DSBPMG_HALO_REAL=float" : "-DSBPMG_HALO_REAL=" SBPMG_REAL_NAME, name, k));
  PetscFunctionReturn(0);
}

/*@C
   SbpHaloBegin - Start the ghost exchange of a device vector laid out like the DMDA: copy its owned block into the ghosted
   patch, send the neighbours their strips. The owned part of the patch is valid (in queue order) on return; the ghosts after
   SbpHaloEnd(). The exchange is of fp64 values (created without single).

   Collective on the DMDA

   Level: developer
@*/
PetscErrorCode SbpHaloBegin(SbpHalo h, Vec x)
{
  cl_mem xb;

  PetscFunctionBegin;
  PetscCheck(!h->single, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "An fp32 ghost exchange takes a buffer of fp32 values (SbpHaloBeginBuffer), not a vector");
  PetscCall(VecOpenCLGetBufferRead(x, &xb));
  PetscCall(SbpHaloBeginBuffer(h, xb));
  PetscCall(VecOpenCLRestoreBufferRead(x, &xb));
  PetscFunctionReturn(0);
}

/*@C
   SbpHaloBeginBuffer - SbpHaloBegin() of the owned block held in a device buffer of the exchange's precision (xm * ym values).

   Collective on the DMDA

   Level: developer
@*/
PetscErrorCode SbpHaloBeginBuffer(SbpHalo h, cl_mem xb)
{
  cl_kernel    k;
  int          xm = (int)h->xm, ym = (int)h->ym, ox = (int)(h->xs - h->gxs), oy = (int)(h->ys - h->gys), gxm = (int)h->gxm, nsend = (int)h->soff[h->nnb];
  size_t       global = (size_t)PetscMax(h->xm * h->ym, h->soff[h->nnb]);
  MPI_Datatype type   = h->single ? MPI_FLOAT : MPIU_SCALAR;

  PetscFunctionBegin;
  PetscCheck(!h->inflight, PETSC_COMM_SELF, PETSC_ERR_ORDER, "A ghost exchange is already in flight on this DMDA");
  for (PetscInt q = 0; q < 16; q++) h->req[q] = MPI_REQUEST_NULL;
  h->inflight = PETSC_TRUE;
  for (PetscInt q = 0; q < h->nnb; q++) {
    PetscMPIInt cnt;
    PetscCall(PetscMPIIntCast(h->roff[q + 1] - h->roff[q], &cnt));
    PetscCallMPI(MPI_Irecv(h->hr + h->roff[q] * h->esize, cnt, type, h->nb[q], h->tag, h->comm, &h->req[q]));
  }
  PetscCall(SbpHaloKernel(h, "halo_pack", &h->kpack));
  k = h->kpack;
  {
    const struct {
      SbpmgCLArgValue xm, ym, ox, oy, gxm, x, patch, nsend, sidx, send;
    } a = {.xm    = SbpmgCLArgInt(xm),
           .ym    = SbpmgCLArgInt(ym),
           .ox    = SbpmgCLArgInt(ox),
           .oy    = SbpmgCLArgInt(oy),
           .gxm   = SbpmgCLArgInt(gxm),
           .x     = SbpmgCLArgMem(xb),
           .patch = SbpmgCLArgMem(h->patch),
           .nsend = SbpmgCLArgInt(nsend),
           .sidx  = SbpmgCLArgMem(h->sidx),
           .send  = SbpmgCLArgMem(h->sbuf)};
    SBPMG_CL_SET_ARGS(k, halo_pack, &a);
  }
  PetscCall(SbpmgCLLaunch1DGuarded(h->cl, k, global));
  /* blocking: waits for halo_pack only, the queue being in order and the caller's kernels not yet enqueued */
  PetscCall(SbpmgCLReadBuffer(h->cl, h->sbuf, 0, (size_t)nsend * h->esize, h->hs));
  for (PetscInt q = 0; q < h->nnb; q++) {
    PetscMPIInt cnt;
    PetscCall(PetscMPIIntCast(h->soff[q + 1] - h->soff[q], &cnt));
    PetscCallMPI(MPI_Isend(h->hs + h->soff[q] * h->esize, cnt, type, h->nb[q], h->tag, h->comm, &h->req[h->nnb + q]));
  }
  PetscFunctionReturn(0);
}

/*@C
   SbpHaloEnd - Complete the ghost exchange: the ghosted patch holds the vector's owned block and its ghosts.

   Collective on the DMDA

   Level: developer
@*/
PetscErrorCode SbpHaloEnd(SbpHalo h)
{
  cl_kernel k;
  int       nrecv = (int)h->roff[h->nnb];

  PetscFunctionBegin;
  PetscCheck(h->inflight, PETSC_COMM_SELF, PETSC_ERR_ORDER, "SbpHaloEnd() without SbpHaloBegin()");
  PetscCallMPI(MPI_Waitall((PetscMPIInt)(2 * h->nnb), h->req, MPI_STATUSES_IGNORE));
  h->inflight = PETSC_FALSE;
  PetscCall(SbpmgCLWriteBuffer(h->cl, h->rbuf, 0, (size_t)nrecv * h->esize, h->hr));
  PetscCall(SbpHaloKernel(h, "halo_unpack", &h->kunpack));
  k = h->kunpack;
  {
    const struct {
      SbpmgCLArgValue nrecv, ridx, recv, patch;
    } a = {.nrecv = SbpmgCLArgInt(nrecv), .ridx = SbpmgCLArgMem(h->ridx), .recv = SbpmgCLArgMem(h->rbuf), .patch = SbpmgCLArgMem(h->patch)};
    SBPMG_CL_SET_ARGS(k, halo_unpack, &a);
  }
  PetscCall(SbpmgCLLaunch1DGuarded(h->cl, k, (size_t)nrecv));
  PetscFunctionReturn(0);
}

size_t SbpHaloPlanBytes(PetscInt gxm, PetscInt gym, PetscInt xm, PetscInt ym, size_t esize)
{
  const size_t ghosts = (size_t)gxm * gym - (size_t)xm * ym;

  return (size_t)gxm * gym * esize + ghosts * (2 * sizeof(int) + 4 * esize);
}
