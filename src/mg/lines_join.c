/* Line smoothing on lines that ranks cut (docs/design.md "Line smoothers", kernels/line.cl): the blocks stay the whole lines. Their
   L D L^T is made in a pipeline along the ranks of each line (src/mg/lines.c hands each segment the state its left neighbour ends
   with), and z = B^-1 r is joined from the segments' zero-state solves z_loc:

     z = z_loc + W s_f + Z s_b,

   s_f = (y(a-1), y(a-2)) the forward substitution's true state entering the segment [a, b), s_b = (z(b), z(b+1)) the backward one's,
   W the segment's solve of its responses to unit forward states and Z its responses to unit backward states (made here once, on the
   host, from the factors). The states follow from the segments' end states by the chains s_f(q+1) = P(q) + G(q) s_f(q) and
   s_b(q) = Q(q+1) + W01(q+1) s_f(q+1) + H(q+1) s_b(q+1), P the end of a zero-state forward substitution and G its map of the entering
   state, Q the first two values of z_loc and W01, H those of W, Z: one all-gather of four numbers per line along the ranks of the line
   per solve. */
#include <sbpmg/private/mgimpl.h>
#include "sbpmg_kernel_args.h"

#include "../../kernels/sbp.cl"
#define SBPMG_MG_LINE_VEC    8
#define SBPMG_MG_LINE_CHUNKS 1
#include "../../kernels/line.cl"

/* The ranks along the lines of direction dir (those owning the same rows for r-lines, the same columns for s-lines), in order; none where
   the process grid does not cut the lines. Collective. */
PetscErrorCode PCSBPMGLinesJoinCreate(PCSBPMGLines l, int dir)
{
  SbpProblem      p = l->p;
  PetscInt        m, n, s, pos = 0, other = 0, start = 0;
  const PetscInt *lx, *ly;

  PetscFunctionBegin;
  l->lcomm[dir] = MPI_COMM_NULL;
  l->lsize[dir] = 1;
  l->lrank[dir] = 0;
  PetscCall(SbpProblemGetOwnership(p, &m, &n, &s, &lx, &ly));
  if ((dir ? n : m) == 1) PetscFunctionReturn(0);
  for (start = 0; start < p->xs; pos++) start += lx[pos]; /* the block column and row of this rank, from its corners */
  for (start = 0; start < p->ys; other++) start += ly[other];
  PetscCallMPI(MPI_Comm_split(PetscObjectComm((PetscObject)p), (int)(dir ? pos : other), (int)(dir ? other : pos), &l->lcomm[dir]));
  PetscCallMPI(MPI_Comm_size(l->lcomm[dir], &l->lsize[dir]));
  PetscCallMPI(MPI_Comm_rank(l->lcomm[dir], &l->lrank[dir]));
  PetscFunctionReturn(0);
}

/* The factorisation's pipeline: the state each line's segment starts from (3 values per line, from the left neighbour; nothing on the
   first rank) and the one it ends with (to the right neighbour). */
PetscErrorCode PCSBPMGLinesJoinStateRecv(PCSBPMGLines l, int dir, PetscReal st[])
{
  const PetscInt nl = dir ? l->p->xm : l->p->ym;

  PetscFunctionBegin;
  if (l->lsize[dir] > 1 && l->lrank[dir] > 0) PetscCallMPI(MPI_Recv(st, (int)(3 * nl), MPIU_REAL, l->lrank[dir] - 1, 0, l->lcomm[dir], MPI_STATUS_IGNORE));
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGLinesJoinStateSend(PCSBPMGLines l, int dir, const PetscReal st[])
{
  const PetscInt nl = dir ? l->p->xm : l->p->ym;

  PetscFunctionBegin;
  if (l->lsize[dir] > 1 && l->lrank[dir] < l->lsize[dir] - 1) PetscCallMPI(MPI_Send(st, (int)(3 * nl), MPIU_REAL, l->lrank[dir] + 1, 0, l->lcomm[dir]));
  PetscFunctionReturn(0);
}

/* One line's W, Z (into w[4] at the segment's owned indices) and its 12 chain numbers c = G, H, W01 (2 x 2 each, row-major: [i][q] the
   response of value i to unit state q), from the factors f (l1, l2, dinv) and rem = the right neighbour's L(b, b-1), L(b, b-2),
   L(b+1, b-1) (zero on the last rank). */
static void PCSBPMGLinesJoinLine(long k0, long stride, int n, const PetscScalar *f[3], const PetscReal rem[3], PetscScalar *w[4], PetscReal c[12])
{
#define L1(u) ((u) < n ? PetscRealPart(f[0][k0 + (u)*stride]) : rem[0])
#define L2(u) ((u) < n ? PetscRealPart(f[1][k0 + (u)*stride]) : ((u) == n ? rem[1] : rem[2]))
  for (int q = 0; q < 2; q++) {
    PetscReal s0 = q == 0, s1 = q == 1, z1 = 0, z2 = 0; /* forward from the unit state q: Y into w[q] */
    for (int t = 0; t < n; t++) {
      const long      k = k0 + t * stride;
      const PetscReal y = -L1(t) * s0 - L2(t) * s1;
      w[q][k]           = y;
      s1                = s0;
      s0                = y;
    }
    c[q]     = s0; /* G: (y(b-1), y(b-2)) */
    c[2 + q] = s1;
    for (int t = n - 1; t >= 0; t--) { /* W = the backward solve of Y from a zero state */
      const long      k = k0 + t * stride;
      const PetscReal z = PetscRealPart(f[2][k]) * PetscRealPart(w[q][k]) - (t + 1 < n ? L1(t + 1) : 0) * z1 - (t + 2 < n ? L2(t + 2) : 0) * z2;
      w[q][k]           = z;
      z2                = z1;
      z1                = z;
    }
    z1 = q == 0; /* Z: the backward recurrence with y = 0 from (z(b), z(b+1)) = the unit state q */
    z2 = q == 1;
    for (int t = n - 1; t >= 0; t--) {
      const long      k = k0 + t * stride;
      const PetscReal z = -L1(t + 1) * z1 - L2(t + 2) * z2;
      w[2 + q][k]       = z;
      z2                = z1;
      z1                = z;
    }
    c[4 + q]  = PetscRealPart(w[2 + q][k0]); /* H: (z(a), z(a+1)) */
    c[6 + q]  = PetscRealPart(w[2 + q][k0 + stride]);
    c[8 + q]  = PetscRealPart(w[q][k0]); /* W01 */
    c[10 + q] = PetscRealPart(w[q][k0 + stride]);
  }
#undef L1
#undef L2
}

/* After the factorisation of direction dir: W and Z of every line (fp64 vectors of the level's layout) and the chain numbers of every
   rank along the lines. Collective on the lines' ranks. */
PetscErrorCode PCSBPMGLinesJoinSetUp(PCSBPMGLines l, int dir)
{
  SbpProblem         p  = l->p;
  const PetscInt     nl = dir ? p->xm : p->ym;
  const PetscMPIInt  L = l->lsize[dir], me = l->lrank[dir];
  const PetscScalar *f[3];
  PetscScalar       *w[4];
  PetscReal         *mine, *rem, *c;
  MPI_Request        req[2];
  int                nreq = 0;

  PetscFunctionBegin;
  if (L == 1) PetscFunctionReturn(0);
  PetscCall(PetscMalloc3(3 * nl, &mine, 3 * nl, &rem, 12 * nl, &c));
  PetscCall(PetscMalloc1(12 * nl * L, &l->chain[dir]));
  for (int t = 0; t < 3; t++) PetscCall(VecGetArrayRead(l->f[dir][t], &f[t]));
  for (PetscInt line = 0; line < nl; line++) { /* the factors of each segment's first nodes, for the left neighbour's Z */
    long k0, stride;
    (void)mg_line_geometry(dir, (int)p->xm, (int)p->ym, (int)line, &k0, &stride);
    mine[3 * line]     = PetscRealPart(f[0][k0]);
    mine[3 * line + 1] = PetscRealPart(f[1][k0]);
    mine[3 * line + 2] = PetscRealPart(f[1][k0 + stride]);
  }
  PetscCall(PetscArrayzero(rem, 3 * nl));
  if (me < L - 1) PetscCallMPI(MPI_Irecv(rem, (int)(3 * nl), MPIU_REAL, me + 1, 1, l->lcomm[dir], &req[nreq++]));
  if (me > 0) PetscCallMPI(MPI_Isend(mine, (int)(3 * nl), MPIU_REAL, me - 1, 1, l->lcomm[dir], &req[nreq++]));
  PetscCallMPI(MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
  for (int q = 0; q < 4; q++) {
    PetscCall(SbpProblemCreateVector(p, &l->wz[dir][q]));
    PetscCall(VecGetArrayWrite(l->wz[dir][q], &w[q]));
  }
  for (PetscInt line = 0; line < nl; line++) {
    long      k0, stride;
    const int n = mg_line_geometry(dir, (int)p->xm, (int)p->ym, (int)line, &k0, &stride);
    PCSBPMGLinesJoinLine(k0, stride, n, f, &rem[3 * line], w, &c[12 * line]);
  }
  for (int q = 0; q < 4; q++) PetscCall(VecRestoreArrayWrite(l->wz[dir][q], &w[q]));
  for (int t = 0; t < 3; t++) PetscCall(VecRestoreArrayRead(l->f[dir][t], &f[t]));
  PetscCallMPI(MPI_Allgather(c, (int)(12 * nl), MPIU_REAL, l->chain[dir], (int)(12 * nl), MPIU_REAL, l->lcomm[dir]));
  PetscCall(PetscMalloc2(4 * nl, &l->ends[dir], 4 * nl * L, &l->gath[dir]));
  PetscCall(PetscFree3(mine, rem, c));
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGLinesJoinDestroy(PCSBPMGLines l)
{
  PetscFunctionBegin;
  for (int d = 0; d < 2; d++) {
    for (int q = 0; q < 4; q++) {
      PetscCall(VecDestroy(&l->wz[d][q]));
      PetscCall(VecDestroy(&l->wz32[d][q]));
    }
    PetscCall(PetscFree(l->chain[d]));
    PetscCall(PetscFree2(l->ends[d], l->gath[d]));
    if (l->lcomm[d] != MPI_COMM_NULL) PetscCallMPI(MPI_Comm_free(&l->lcomm[d]));
  }
  for (int q = 0; q < 2; q++) {
    PetscCall(VecDestroy(&l->zloc[q]));
    for (int d = 0; d < 2; d++)
      if (l->djoin[d][q]) PetscCall(SbpmgCLReleaseBuffer(l->p->cl, &l->djoin[d][q]));
  }
  PetscFunctionReturn(0);
}

/* The true states of each of this rank's lines from the gathered ends (4 per line per rank: P, Q) and the chain numbers: join[4 line ..]
   = (s_f, s_b). */
static PetscErrorCode PCSBPMGLinesJoinChain(PCSBPMGLines l, int dir, PetscReal join[])
{
  const PetscInt    nl = dir ? l->p->xm : l->p->ym;
  const PetscMPIInt L = l->lsize[dir], me = l->lrank[dir];
  PetscReal        *sf;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(2 * L, &sf));
  for (PetscInt line = 0; line < nl; line++) {
    PetscReal b0 = 0, b1 = 0;
    sf[0] = sf[1] = 0;
    for (PetscMPIInt q = 0; q + 1 < L; q++) {
      const PetscReal *e = &l->gath[dir][4 * (nl * q + line)], *c = &l->chain[dir][12 * (nl * q + line)];
      sf[2 * q + 2] = e[0] + c[0] * sf[2 * q] + c[1] * sf[2 * q + 1];
      sf[2 * q + 3] = e[1] + c[2] * sf[2 * q] + c[3] * sf[2 * q + 1];
    }
    for (PetscMPIInt q = L - 2; q >= me; q--) { /* s_b(q) from rank q + 1 */
      const PetscReal *e = &l->gath[dir][4 * (nl * (q + 1) + line)], *c = &l->chain[dir][12 * (nl * (q + 1) + line)];
      const PetscReal  f0 = sf[2 * q + 2], f1 = sf[2 * q + 3];
      const PetscReal  n0 = e[2] + c[8] * f0 + c[9] * f1 + c[4] * b0 + c[5] * b1, n1 = e[3] + c[10] * f0 + c[11] * f1 + c[6] * b0 + c[7] * b1;
      b0 = n0;
      b1 = n1;
    }
    join[4 * line]     = sf[2 * me];
    join[4 * line + 1] = sf[2 * me + 1];
    join[4 * line + 2] = b0;
    join[4 * line + 3] = b1;
  }
  PetscCall(PetscFree(sf));
  PetscFunctionReturn(0);
}

/* The exchange: this rank's ends (4 per line) to every rank along its lines, and the joins back. */
static PetscErrorCode PCSBPMGLinesJoinExchange(PCSBPMGLines l, int dir)
{
  const PetscInt nl = dir ? l->p->xm : l->p->ym;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Allgather(l->ends[dir], (int)(4 * nl), MPIU_REAL, l->gath[dir], (int)(4 * nl), MPIU_REAL, l->lcomm[dir]));
  PetscCall(PCSBPMGLinesJoinChain(l, dir, l->ends[dir])); /* the joins over the ends */
  PetscFunctionReturn(0);
}

/* W and Z of direction dir in the precision of the kernels (fp32: rounded into level vectors on first use), and the vector that takes the
   segments' zero-state solves z_loc. */
PetscErrorCode PCSBPMGLinesJoinVectors(PCSBPMGLines l, int dir, SbpKernelPrecision prec, Vec wz[4], Vec *zloc)
{
  const int q = prec == SBP_KERNEL_FP32 ? 1 : 0;

  PetscFunctionBegin;
  for (int t = 0; t < 4; t++) {
    if (q && !l->wz32[dir][t]) {
      PetscCall(PCSBPMGVecCreate(l->p, &l->wz32[dir][t]));
      PetscCall(PCSBPMGVecFromDevice(l->wz32[dir][t], l->wz[dir][t]));
    }
    wz[t] = q ? l->wz32[dir][t] : l->wz[dir][t];
  }
  if (!l->zloc[q]) {
    if (q)
      PetscCall(PCSBPMGVecCreate(l->p, &l->zloc[q]));
    else
      PetscCall(SbpProblemCreateVector(l->p, &l->zloc[q]));
  }
  *zloc = l->zloc[q];
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSBPMGLinesJoinDevice(PCSBPMGLines l, int dir, SbpKernelPrecision prec, Vec tmp, Vec zl, Vec wz[4], Vec x, Vec prev, Vec out,
                                             PetscReal c1, PetscReal c2, PetscBool zero, PetscBool prev_zero)
{
  SbpProblem               p     = l->p;
  const SbpKernelPrecision kprec = prec == SBP_KERNEL_FP32 ? SBP_KERNEL_FP32 : SBP_KERNEL_FP64;
  const PetscInt           nl    = dir ? p->xm : p->ym;
  const int                q = kprec == SBP_KERNEL_FP32 ? 1 : 0, xm = (int)p->xm, ym = (int)p->ym;
  const size_t             rs       = q ? sizeof(float) : sizeof(PetscReal);
  const PetscBool          readprev = c1 != 0 && !prev_zero ? PETSC_TRUE : PETSC_FALSE;
  cl_kernel                ke, kj;
  cl_mem                   tb, zb, wb[4], xb, pb, ob;
  void                    *hv;
  SbpBuffers               bufs = {0};

  PetscFunctionBegin;
  PetscCall(PCSBPMGGetProblemKernel(p, kprec, &p->tune, MG_K_LINE_ENDS, &ke));
  PetscCall(PCSBPMGGetProblemKernel(p, kprec, &p->tune, MG_K_LINE_JOIN, &kj));
  if (!l->djoin[dir][q]) PetscCall(SbpmgCLCreateBuffer(p->cl, CL_MEM_READ_WRITE, (size_t)PetscMax(4 * nl, 1) * rs, &l->djoin[dir][q]));
  PetscCall(PetscMalloc(4 * nl * rs, &hv));
  PetscCall(PCSBPMGBuffersGet(&bufs, tmp, SBP_READ, &tb));
  PetscCall(PCSBPMGBuffersGet(&bufs, zl, SBP_READ, &zb));
  {
    const struct {
      SbpmgCLArgValue dir, xm, ym, tmp, zloc, ends;
    } args = {.dir  = SbpmgCLArgInt(dir),
              .xm   = SbpmgCLArgInt(xm),
              .ym   = SbpmgCLArgInt(ym),
              .tmp  = SbpmgCLArgMem(tb),
              .zloc = SbpmgCLArgMem(zb),
              .ends = SbpmgCLArgMem(l->djoin[dir][q])};
    SBPMG_CL_SET_ARGS(ke, mg_line_ends, &args);
  }
  PetscCall(SbpmgCLLaunch1DGuarded(p->cl, ke, (size_t)nl));
  PetscCall(PCSBPMGBuffersRestore(&bufs));
  PetscCall(SbpmgCLReadBuffer(p->cl, l->djoin[dir][q], 0, 4 * nl * rs, hv));
  for (PetscInt i = 0; i < 4 * nl; i++) l->ends[dir][i] = q ? (PetscReal)((float *)hv)[i] : ((PetscReal *)hv)[i];
  PetscCall(PCSBPMGLinesJoinExchange(l, dir));
  for (PetscInt i = 0; i < 4 * nl; i++) {
    if (q)
      ((float *)hv)[i] = (float)l->ends[dir][i];
    else
      ((PetscReal *)hv)[i] = l->ends[dir][i];
  }
  PetscCall(SbpmgCLWriteBuffer(p->cl, l->djoin[dir][q], 0, 4 * nl * rs, hv));
  PetscCall(PetscFree(hv));
  PetscCall(SbpmgLogKernelBegin(SBPMG_MGSmooth));
  PetscCall(PCSBPMGBuffersGet(&bufs, zl, SBP_READ, &zb));
  for (int t = 0; t < 4; t++) PetscCall(PCSBPMGBuffersGet(&bufs, wz[t], SBP_READ, &wb[t]));
  PetscCall(PCSBPMGBuffersGet(&bufs, zero || x == out ? NULL : x, SBP_READ, &xb));
  PetscCall(PCSBPMGBuffersGet(&bufs, readprev && prev != out && prev != x ? prev : NULL, SBP_READ, &pb));
  PetscCall(PCSBPMGBuffersGet(&bufs, out, (readprev && prev == out) || (!zero && x == out) ? SBP_READ_WRITE : SBP_WRITE, &ob));
  if (!xb) xb = ob;
  if (!pb) pb = prev == x && !zero ? xb : ob;
  {
    const struct {
      SbpmgCLArgValue dir, xm, ym, zloc, w0, w1, z0, z1, join, x, prev, out, c1, c2, zero, prev_zero;
    } args = {.dir       = SbpmgCLArgInt(dir),
              .xm        = SbpmgCLArgInt(xm),
              .ym        = SbpmgCLArgInt(ym),
              .zloc      = SbpmgCLArgMem(zb),
              .w0        = SbpmgCLArgMem(wb[0]),
              .w1        = SbpmgCLArgMem(wb[1]),
              .z0        = SbpmgCLArgMem(wb[2]),
              .z1        = SbpmgCLArgMem(wb[3]),
              .join      = SbpmgCLArgMem(l->djoin[dir][q]),
              .x         = SbpmgCLArgMem(xb),
              .prev      = SbpmgCLArgMem(pb),
              .out       = SbpmgCLArgMem(ob),
              .c1        = SbpmgCLArgReal(q ? PETSC_TRUE : PETSC_FALSE, c1),
              .c2        = SbpmgCLArgReal(q ? PETSC_TRUE : PETSC_FALSE, c2),
              .zero      = SbpmgCLArgInt(zero ? 1 : 0),
              .prev_zero = SbpmgCLArgInt(prev_zero ? 1 : 0)};
    SBPMG_CL_SET_ARGS(kj, mg_line_join, &args);
  }
  if (xm > 0 && ym > 0) PetscCall(SbpmgCLLaunch1DGuarded(p->cl, kj, (size_t)xm * (size_t)ym));
  PetscCall(PCSBPMGBuffersRestore(&bufs));
  PetscCall(SbpmgLogKernelEnd(SBPMG_MGSmooth, p->cl, 12.0 * xm * ym, (PetscLogDouble)xm * ym * rs * (6 + (zero ? 0 : 1) + (readprev ? 1 : 0))));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSBPMGLinesJoinHost(PCSBPMGLines l, int dir, Vec tmp, Vec zl, Vec wz[4], Vec x, Vec prev, Vec out, PetscReal c1, PetscReal c2,
                                           PetscBool zero, PetscBool prev_zero)
{
  SbpProblem         p        = l->p;
  const PetscInt     nl       = dir ? p->xm : p->ym;
  const PetscBool    readprev = c1 != 0 && !prev_zero ? PETSC_TRUE : PETSC_FALSE;
  const PetscScalar *ta, *za, *wa[4], *xa = NULL, *pa = NULL;
  PetscScalar       *oa;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(tmp, &ta));
  PetscCall(VecGetArrayRead(zl, &za));
  for (PetscInt line = 0; line < nl; line++) mg_line_ends_line(dir, (int)p->xm, (int)p->ym, (int)line, ta, za, l->ends[dir]);
  PetscCall(VecRestoreArrayRead(tmp, &ta));
  PetscCall(PCSBPMGLinesJoinExchange(l, dir));
  PetscCall(PetscLogEventBegin(SBPMG_MGSmooth, 0, 0, 0, 0));
  PetscCall(VecGetArray(out, &oa));
  if (!zero) {
    xa = x == out ? oa : NULL;
    if (!xa) PetscCall(VecGetArrayRead(x, &xa));
  }
  if (readprev) {
    pa = prev == out ? oa : (prev == x ? xa : NULL);
    if (!pa) PetscCall(VecGetArrayRead(prev, &pa));
  }
  for (int t = 0; t < 4; t++) PetscCall(VecGetArrayRead(wz[t], &wa[t]));
  for (PetscInt k = 0; k < p->xm * p->ym; k++)
    mg_line_join_point(k, dir ? (int)(k % p->xm) : (int)(k / p->xm), za, wa[0], wa[1], wa[2], wa[3], l->ends[dir], xa, pa, oa, c1, c2, zero ? 1 : 0,
                       prev_zero ? 1 : 0);
  for (int t = 0; t < 4; t++) PetscCall(VecRestoreArrayRead(wz[t], &wa[t]));
  if (readprev && prev != out && prev != x) PetscCall(VecRestoreArrayRead(prev, &pa));
  if (!zero && x != out) PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(VecRestoreArray(out, &oa));
  PetscCall(VecRestoreArrayRead(zl, &za));
  PetscCall(PetscLogEventEnd(SBPMG_MGSmooth, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*
  PCSBPMGLinesJoinFinish - out = x + c1 (x - prev) + c2 B^-1 r on lines that ranks cut (the arguments of src/mg/lines.c's solves), after
  the segments' zero-state solves into zl (y in tmp; src/mg/lines.c): the exchange of their ends and the join, on the device (dev, in
  the precision prec) or the host. Collective on the lines' ranks.
*/
PetscErrorCode PCSBPMGLinesJoinFinish(PCSBPMGLines l, int dir, SbpKernelPrecision prec, PetscBool dev, Vec tmp, Vec zl, Vec wz[4], Vec x, Vec prev, Vec out,
                                      PetscReal c1, PetscReal c2, PetscBool zero, PetscBool prev_zero)
{
  PetscFunctionBegin;
  if (dev)
    PetscCall(PCSBPMGLinesJoinDevice(l, dir, prec, tmp, zl, wz, x, prev, out, c1, c2, zero, prev_zero));
  else
    PetscCall(PCSBPMGLinesJoinHost(l, dir, tmp, zl, wz, x, prev, out, c1, c2, zero, prev_zero));
  PetscFunctionReturn(0);
}
