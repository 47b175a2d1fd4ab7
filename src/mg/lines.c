/* PCSBPMG's line smoothers (docs/design.md "Line smoothers"): where the operator of a level couples its nodes far more strongly along
   one grid direction than along the other (stretched grids, unequal sides, anisotropic mu), point smoothing cannot reduce the error
   that is smooth along the weak direction and rough along the strong one; a smoother whose preconditioner B is the block diagonal of
   M~'s blocks along the strong lines can. This file measures a level's anisotropy, factors the line blocks (kernels/line.cl, on the
   device or on the host) and applies B^-1 (the eigenvalue estimates of src/mg/smoother.c) and the Chebyshev or Jacobi sweeps on
   B^-1 M~ in either direction. The factors are shared by a level's down and up smoothers (reference counted). */
#include <sbpmg/private/mgimpl.h>
#include "sbpmg_kernel_args.h"

#include "../../kernels/sbp.cl"
#define SBPMG_MG_LINE_VEC    8 /* the host solves 8 lines side by side (their chains' latencies overlap) */
#define SBPMG_MG_LINE_CHUNKS 1
#define SBPMG_MG_LINE_TILE   0
#include "../../kernels/line.cl"

/* Work-items of the anisotropy reduction's first stage (each folds n / this many nodes; the host adds their results) */
#define PCSBPMG_ANISOTROPY_ITEMS 4096

/* ---------------------------------------------------------------- the anisotropy of a level */

typedef struct {
  SbpmgCLArgValue gh, own, rho2, crr, css, out;
} PCSBPMGAnisotropyArgs; /* kernels/estimate.cl mg_anisotropy's, by name */

static PetscErrorCode PCSBPMGSetAnisotropyArgs(cl_kernel k, const PCSBPMGAnisotropyArgs *a)
{
  PetscFunctionBegin;
  SBPMG_CL_SET_ARGS(k, mg_anisotropy, a);
  PetscFunctionReturn(0);
}

/* max of q = rho^2 crr/css and of 1/q over the owned nodes, on the device (kernels/estimate.cl mg_anisotropy) */
static PetscErrorCode PCSBPMGAnisotropyDevice(SbpProblem p, PetscReal q[2])
{
  const PetscInt n = p->xm * p->ym, G = PetscMax(PetscMin(n, PCSBPMG_ANISOTROPY_ITEMS), 1);
  cl_kernel      k;
  cl_mem         out, crr, crs, css;
  cl_int4        gh, own;
  PetscReal      rho2 = p->rho * p->rho, *part = NULL;
  SbpLevel       lv;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  q[0] = q[1] = 0;
  if (!n) PetscFunctionReturn(0);
  PetscCall(SbpProblemGetLevel(p, SBP_KERNEL_FP64, &lv));
  PetscCall(PCSBPMGGetKernel(lv, &p->tune, MG_K_ANISOTROPY, &k));
  PetscCall(SbpLevelGetCoefficientBuffers(lv, &crr, &crs, &css));
  SbpProblemPatchBoxes(p, &gh, &own);
  PetscCall(SbpmgCLCreateBuffer(p->cl, CL_MEM_WRITE_ONLY, 2 * G * sizeof(PetscReal), &out));
  ierr = PetscMalloc1(2 * G, &part);
  if (!ierr) {
    const PCSBPMGAnisotropyArgs args = {.gh   = SbpmgCLArgInt4(gh),
                                        .own  = SbpmgCLArgInt4(own),
                                        .rho2 = SbpmgCLArgReal(PETSC_FALSE, rho2),
                                        .crr  = SbpmgCLArgMem(crr),
                                        .css  = SbpmgCLArgMem(css),
                                        .out  = SbpmgCLArgMem(out)};
    ierr                             = PCSBPMGSetAnisotropyArgs(k, &args);
  }
  if (!ierr) ierr = SbpmgCLLaunch1D(p->cl, k, (size_t)G, 0);
  if (!ierr) ierr = SbpmgCLReadBuffer(p->cl, out, 0, 2 * G * sizeof(PetscReal), part);
  for (PetscInt g = 0; g < G && !ierr; g++) {
    q[0] = PetscMax(q[0], part[2 * g]);
    q[1] = PetscMax(q[1], part[2 * g + 1]);
  }
  PetscCall(SbpmgCLReleaseBuffer(p->cl, &out));
  if (part) PetscCall(PetscFree(part));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/*
  PCSBPMGLinesAnisotropy - The anisotropy of the level's operator: q[0] the largest rho^2 crr/css over the nodes (the r-couplings'
  strength against the s-couplings'), q[1] the largest css/(rho^2 crr). Collective.
*/
PetscErrorCode PCSBPMGLinesAnisotropy(SbpProblem p, PetscReal q[2])
{
  PetscReal loc[2] = {0, 0};

  PetscFunctionBegin;
  if (p->use_device)
    PetscCall(PCSBPMGAnisotropyDevice(p, loc));
  else {
    for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
      for (PetscInt i = p->xs; i < p->xs + p->xm; i++) {
        const PetscReal v = p->rho * p->rho * p->crr[SbpPatchIndex(p, i, j)] / p->css[SbpPatchIndex(p, i, j)];
        loc[0]            = PetscMax(loc[0], v);
        loc[1]            = PetscMax(loc[1], 1 / v);
      }
  }
  PetscCall(MPIU_Allreduce(loc, q, 2, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)p)));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the factors */

/* The first node (natural index, over all ranks) whose line pivot is not positive: an error naming it. */
static PetscErrorCode PCSBPMGLinesCheckPivots(SbpProblem p, int dir, PetscInt bad)
{
  PetscInt first;

  PetscFunctionBegin;
  PetscCall(MPIU_Allreduce(&bad, &first, 1, MPIU_INT, MPI_MIN, PetscObjectComm((PetscObject)p)));
  PetscCheck(first == PETSC_MAX_INT, PetscObjectComm((PetscObject)p), PETSC_ERR_CONV_FAILED,
             "The %s-line block of the %" PetscInt_FMT " x %" PetscInt_FMT " SBP-SAT level is not positive definite at node (%" PetscInt_FMT ", %" PetscInt_FMT
             "): the operator is not (its coefficients or boundary conditions are wrong)",
             dir ? "s" : "r", p->Nr, p->Ns, first % (p->Nr + 1), first / (p->Nr + 1));
  PetscFunctionReturn(0);
}

/* The arguments of kernels/line.cl by name (include/sbpmg/private/climpl.h SBPMG_CL_SET_ARGS): the factorisation's, the maps', and
   the solves' (mg_line_solve, mg_line_solve_chunks, mg_line_solve_tiles: each takes those of its parameters). */
typedef struct {
  SbpmgCLArgValue Nr, Ns, rho, dirichlet, a, b, c, dir, gh, own, l1, l2, dinv, st, bad;
} PCSBPMGLineFactorArgs;
typedef struct {
  SbpmgCLArgValue dir, xm, ym, l1, l2, maps;
} PCSBPMGLineMapsArgs;
typedef struct {
  SbpmgCLArgValue dir, xm, ym, r, tmp, l1, l2, dinv, maps, x, prev, out, c1, c2, zero, prev_zero;
} PCSBPMGLineSolveArgs;

static PetscErrorCode PCSBPMGLinesSetFactorArgs(cl_kernel k, const PCSBPMGLineFactorArgs *a)
{
  PetscFunctionBegin;
  SBPMG_CL_SET_ARGS(k, mg_line_factor, a);
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSBPMGLinesFactorDevice(PCSBPMGLines l, int dir)
{
  SbpProblem     p  = l->p;
  const PetscInt nl = dir ? p->xm : p->ym;
  cl_kernel      k;
  cl_mem         bad, stb, fb[3], ca, cb, cc;
  cl_int4        gh, own;
  int            Nr = (int)p->Nr, Ns = (int)p->Ns, flags, first = INT_MAX;
  PetscReal     *st;
  SbpLevel       lv;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(SbpProblemGetLevel(p, SBP_KERNEL_FP64, &lv));
  PetscCall(PCSBPMGGetKernel(lv, &p->tune, MG_K_LINE_FACTOR, &k));
  PetscCall(SbpLevelGetCoefficientBuffers(lv, &ca, &cb, &cc));
  PetscCall(SbpProblemBCFlags(p, &flags));
  SbpProblemPatchBoxes(p, &gh, &own);
  PetscCall(PetscCalloc1(3 * PetscMax(nl, 1), &st));
  PetscCall(PCSBPMGLinesJoinStateRecv(l, dir, st)); /* lines that ranks cut: the left neighbour's end state */
  for (int t = 0; t < 3; t++) PetscCall(VecOpenCLGetBufferWrite(l->f[dir][t], &fb[t]));
  PetscCall(SbpmgCLCreateBuffer(p->cl, CL_MEM_READ_WRITE, sizeof(int), &bad));
  PetscCall(SbpmgCLCreateBuffer(p->cl, CL_MEM_READ_WRITE, 3 * PetscMax(nl, 1) * sizeof(PetscReal), &stb));
  ierr = SbpmgCLFillBuffer(p->cl, bad, &first, sizeof(int), 0, sizeof(int));
  if (!ierr) ierr = SbpmgCLWriteBuffer(p->cl, stb, 0, 3 * PetscMax(nl, 1) * sizeof(PetscReal), st);
  if (!ierr) {
    const PCSBPMGLineFactorArgs args = {.Nr        = SbpmgCLArgInt(Nr),
                                        .Ns        = SbpmgCLArgInt(Ns),
                                        .rho       = SbpmgCLArgReal(PETSC_FALSE, p->rho),
                                        .dirichlet = SbpmgCLArgInt(flags),
                                        .a         = SbpmgCLArgMem(ca),
                                        .b         = SbpmgCLArgMem(cb),
                                        .c         = SbpmgCLArgMem(cc),
                                        .dir       = SbpmgCLArgInt(dir),
                                        .gh        = SbpmgCLArgInt4(gh),
                                        .own       = SbpmgCLArgInt4(own),
                                        .l1        = SbpmgCLArgMem(fb[0]),
                                        .l2        = SbpmgCLArgMem(fb[1]),
                                        .dinv      = SbpmgCLArgMem(fb[2]),
                                        .st        = SbpmgCLArgMem(stb),
                                        .bad       = SbpmgCLArgMem(bad)};
    ierr                             = PCSBPMGLinesSetFactorArgs(k, &args);
  }
  if (!ierr && nl) ierr = SbpmgCLLaunch1DGuarded(p->cl, k, (size_t)nl);
  if (!ierr) ierr = SbpmgCLReadBuffer(p->cl, bad, 0, sizeof(int), &first);
  if (!ierr) ierr = SbpmgCLReadBuffer(p->cl, stb, 0, 3 * PetscMax(nl, 1) * sizeof(PetscReal), st);
  PetscCall(SbpmgCLReleaseBuffer(p->cl, &bad));
  PetscCall(SbpmgCLReleaseBuffer(p->cl, &stb));
  for (int t = 0; t < 3; t++) PetscCall(VecOpenCLRestoreBufferWrite(l->f[dir][t], &fb[t]));
  if (!ierr) ierr = PCSBPMGLinesJoinStateSend(l, dir, st);
  PetscCall(PetscFree(st));
  PetscCall(ierr);
  PetscCall(PCSBPMGLinesCheckPivots(p, dir, first == INT_MAX ? PETSC_MAX_INT : (PetscInt)first));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSBPMGLinesFactorHost(PCSBPMGLines l, int dir)
{
  SbpProblem   p = l->p;
  PetscScalar *f[3];
  PetscReal   *st;
  PetscInt     bad = PETSC_MAX_INT, nl = dir ? p->xm : p->ym;
  int          flags;

  PetscFunctionBegin;
  PetscCall(SbpProblemGetHostCoefficients(p));
  PetscCall(SbpProblemBCFlags(p, &flags));
  PetscCall(PetscCalloc1(3 * PetscMax(nl, 1), &st));
  PetscCall(PCSBPMGLinesJoinStateRecv(l, dir, st)); /* lines that ranks cut: the left neighbour's end state */
  for (int t = 0; t < 3; t++) PetscCall(VecGetArrayWrite(l->f[dir][t], &f[t]));
  for (PetscInt line = 0; line < nl; line++) {
    long b = mg_line_factor_line((int)p->Nr, (int)p->Ns, p->rho, flags, p->crr, p->crs, p->css, dir, (int)p->gxs, (int)p->gys, (int)p->gxm, (int)p->xs,
                                 (int)p->ys, (int)p->xm, (int)p->ym, (int)line, f[0], f[1], f[2], st);
    if (b >= 0) bad = PetscMin(bad, (PetscInt)b);
  }
  for (int t = 0; t < 3; t++) PetscCall(VecRestoreArrayWrite(l->f[dir][t], &f[t]));
  PetscCall(PCSBPMGLinesJoinStateSend(l, dir, st));
  PetscCall(PetscFree(st));
  PetscCall(PCSBPMGLinesCheckPivots(p, dir, bad));
  PetscFunctionReturn(0);
}

/*
  PCSBPMGLinesCreate - The line blocks of the level p in the directions of dirs (bit 0: r-lines, bit 1: s-lines), factored in fp64 on the
  problem's backend. Collective.
*/
PetscErrorCode PCSBPMGLinesCreate(SbpProblem p, int dirs, PCSBPMGLines *lines)
{
  PCSBPMGLines   l;
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  PetscCall(PetscNew(&l));
  l->refct = 1;
  l->dirs  = dirs;
  l->p     = p;
  PetscCall(PetscObjectReference((PetscObject)p));
  l->lcomm[0] = l->lcomm[1] = MPI_COMM_NULL;
  l->lsize[0] = l->lsize[1] = 1;
  for (int d = 0; d < 2 && !ierr; d++) {
    if (!(dirs & (1 << d))) continue;
    ierr = PCSBPMGLinesJoinCreate(l, d);
    for (int t = 0; t < 3 && !ierr; t++) ierr = SbpProblemCreateVector(p, &l->f[d][t]);
    if (!ierr) ierr = p->use_device ? PCSBPMGLinesFactorDevice(l, d) : PCSBPMGLinesFactorHost(l, d);
    if (!ierr) ierr = PCSBPMGLinesJoinSetUp(l, d);
  }
  if (ierr) PetscCall(PCSBPMGLinesDestroy(&l));
  PetscCall(ierr);
  *lines = l;
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGLinesReference(PCSBPMGLines l)
{
  PetscFunctionBegin;
  if (l) l->refct++;
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGLinesDestroy(PCSBPMGLines *lines)
{
  PCSBPMGLines l = *lines;

  PetscFunctionBegin;
  *lines = NULL;
  if (!l || --l->refct > 0) PetscFunctionReturn(0);
  for (int d = 0; d < 2; d++) {
    for (int t = 0; t < 3; t++) {
      PetscCall(VecDestroy(&l->f[d][t]));
      PetscCall(VecDestroy(&l->f32[d][t]));
    }
    for (int q = 0; q < 2; q++)
      if (l->maps[d][q]) PetscCall(SbpmgCLReleaseBuffer(l->p->cl, &l->maps[d][q]));
  }
  PetscCall(PCSBPMGLinesJoinDestroy(l));
  PetscCall(SbpProblemDestroy(&l->p));
  PetscCall(PetscFree(l));
  PetscFunctionReturn(0);
}

/* The factor vectors of direction dir in the kernels' precision: fp64, or (FP32) rounded into level vectors, made on first use. */
static PetscErrorCode PCSBPMGLinesFactors(PCSBPMGLines l, int dir, SbpKernelPrecision prec, Vec f[3])
{
  PetscFunctionBegin;
  for (int t = 0; t < 3; t++) {
    if (prec == SBP_KERNEL_FP32 && !l->f32[dir][t]) {
      PetscCall(PCSBPMGVecCreate(l->p, &l->f32[dir][t]));
      PetscCall(PCSBPMGVecFromDevice(l->f32[dir][t], l->f[dir][t]));
    }
    f[t] = prec == SBP_KERNEL_FP32 ? l->f32[dir][t] : l->f[dir][t];
  }
  PetscFunctionReturn(0);
}

/* The chunked solves' maps of direction dir in the precision of the factors f (kernels/line.cl mg_line_maps), made on first use. */
static PetscErrorCode PCSBPMGLinesMaps(PCSBPMGLines l, int dir, SbpKernelPrecision prec, const SbpmgTuning *tune, Vec f[3], cl_mem *maps)
{
  SbpProblem   p = l->p;
  const int    q = prec == SBP_KERNEL_FP32 ? 1 : 0, xm = (int)p->xm, ym = (int)p->ym;
  const size_t items = (size_t)(dir ? p->xm : p->ym) * (size_t)tune->mg_line_chunks, rs = q ? sizeof(float) : sizeof(PetscReal);
  cl_kernel    k;
  cl_mem       fb[2];
  SbpBuffers   bufs = {0};

  PetscFunctionBegin;
  if (!l->maps[dir][q]) {
    PetscCall(PCSBPMGGetProblemKernel(p, q ? SBP_KERNEL_FP32 : SBP_KERNEL_FP64, tune, MG_K_LINE_MAPS, &k));
    PetscCall(SbpmgCLCreateBuffer(p->cl, CL_MEM_READ_WRITE, PetscMax(items, 1) * 8 * rs, &l->maps[dir][q]));
    for (int t = 0; t < 2; t++) PetscCall(PCSBPMGBuffersGet(&bufs, f[t], SBP_READ, &fb[t]));
    {
      const PCSBPMGLineMapsArgs args = {.dir  = SbpmgCLArgInt(dir),
                                        .xm   = SbpmgCLArgInt(xm),
                                        .ym   = SbpmgCLArgInt(ym),
                                        .l1   = SbpmgCLArgMem(fb[0]),
                                        .l2   = SbpmgCLArgMem(fb[1]),
                                        .maps = SbpmgCLArgMem(l->maps[dir][q])};
      SBPMG_CL_SET_ARGS(k, mg_line_maps, &args);
    }
    if (items) PetscCall(SbpmgCLLaunch1DGuarded(p->cl, k, items));
    PetscCall(PCSBPMGBuffersRestore(&bufs));
  }
  *maps = l->maps[dir][q];
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- solves and sweeps */

/* Whether the level's lines of direction dir are solved through local-memory tiles (mg_line_solve_tiles): r-lines (contiguous
   nodes) of a chunked solve, with mg_line_tile > 0, and at least mg_line_tile_min nodes on this rank. Shorter lines give too few
   work-groups of one line each to fill a GPU; they are walked in place, mg_line_group lines a work-group (docs/design.md). */
PetscBool PCSBPMGLinesTiled(SbpProblem p, int dir)
{
  return p->tune.mg_line_chunks > 1 && !dir && p->tune.mg_line_tile > 0 && p->xm >= p->tune.mg_line_tile_min ? PETSC_TRUE : PETSC_FALSE;
}

/* Whether a line solve's work-group of items work-items with bytes of local memory is within the device's limits. */
static PetscBool PCSBPMGLinesFits(SbpProblem p, size_t items, size_t bytes)
{
  return (!p->cl->local_mem || bytes <= p->cl->local_mem) && (!p->cl->max_work_group_size || items <= p->cl->max_work_group_size) ? PETSC_TRUE : PETSC_FALSE;
}

/* The chunked line solves' local memory within the device's limits: every line's chunk states (2 reals a chunk), and for the tiled
   r-lines six tiles of mg_line_chunks x (mg_line_tile + 1) reals, one line a work-group of mg_line_chunks work-items;
   the walk in place holds tune's mg_line_group lines a work-group. An error naming the tuning otherwise. */
static PetscErrorCode PCSBPMGLinesCheckLocal(SbpProblem p, const SbpmgTuning *tune, PetscBool tiled, size_t rs)
{
  const size_t    chunks = (size_t)tune->mg_line_chunks, lines = tiled ? 1 : (size_t)tune->mg_line_group, items = lines * chunks;
  const size_t    bytes = ((tiled ? 6 * chunks * (size_t)(tune->mg_line_tile + 1) : 0) + 2 * items) * rs;
  const PetscBool fits  = PCSBPMGLinesFits(p, items, bytes);

  PetscFunctionBegin;
  PetscCheck(fits, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Tuning %s %d with mg_line_chunks %d: the %s solve needs %zu bytes of local memory (the device has %llu) and work-groups of %zu work-items (the "
             "device allows %zu)",
             tiled ? "mg_line_tile" : "mg_line_group", (int)(tiled ? tune->mg_line_tile : tune->mg_line_group), (int)tune->mg_line_chunks,
             tiled ? "tiled r-line" : "chunked line", bytes, (unsigned long long)p->cl->local_mem, items, p->cl->max_work_group_size);
  PetscFunctionReturn(0);
}

/* The chunks of a line of direction dir on this rank (m nodes): mg_line_chunks; for lines walked in place with mg_line_chunk_nodes = n
   > 0, the power of two nearest m / n (nearest on a log scale) from 2 to mg_line_chunks, so that short lines are not cut into chunks
   of a node or two whose chain of states (one work-item, chunk after chunk) outlasts the walks, nor long ones into long walks
   (docs/design.md "Line smoothers"). */
PetscInt PCSBPMGLinesChunks(SbpProblem p, int dir)
{
  const PetscInt  most = p->tune.mg_line_chunks, n = p->tune.mg_line_chunk_nodes;
  const PetscReal m = (PetscReal)(dir ? p->ym : p->xm);
  PetscInt        c = 2;

  if (most <= 2 || n <= 0 || PCSBPMGLinesTiled(p, dir)) return most;
  while (2 * c <= most && m * m > 2 * (PetscReal)c * c * n * n) c *= 2; /* m / n > c sqrt(2): 2c is nearer */
  return c;
}

/* The lines a work-group of the chunked solve of nlines lines walked in place: mg_line_group_wide where the launch still has a
   work-group per compute unit with them (wider runs of neighbouring s-lines a load; docs/design.md "Line smoothers") and their
   work-group fits the device in fp64, else mg_line_group (whose limits PCSBPMGLinesCheckLocal() checks). */
PetscInt PCSBPMGLinesGroup(SbpProblem p, PetscInt nlines, PetscInt chunks)
{
  const PetscInt wide  = p->tune.mg_line_group_wide;
  const size_t   items = (size_t)wide * (size_t)chunks;

  return wide > p->tune.mg_line_group && (nlines + wide - 1) / wide >= (PetscInt)p->cl->compute_units &&
                 PCSBPMGLinesFits(p, items, 2 * items * sizeof(PetscReal))
             ? wide
             : p->tune.mg_line_group;
}

/* One launch of mg_line_solve in the precision prec: out = x + c1 (x - prev) + c2 B^-1 r, y kept in tmp; buffers of either kind of
   vector (x and prev may be NULL: not read). */
static PetscErrorCode PCSBPMGLinesSolveDevice(PCSBPMGLines l, int dir, SbpKernelPrecision prec, Vec r, Vec tmp, Vec x, Vec prev, Vec out, PetscReal c1,
                                              PetscReal c2, PetscBool zero, PetscBool prev_zero)
{
  SbpProblem               p       = l->p;
  const SbpKernelPrecision kprec   = prec == SBP_KERNEL_FP32 ? SBP_KERNEL_FP32 : SBP_KERNEL_FP64;
  const PetscBool          chunked = p->tune.mg_line_chunks > 1 ? PETSC_TRUE : PETSC_FALSE, tiled = PCSBPMGLinesTiled(p, dir);
  cl_kernel                k;
  cl_mem                   rb, tb, fb[3], xb, pb, ob, maps = NULL;
  Vec                      f[3];
  int                      xm = (int)p->xm, ym = (int)p->ym;
  PetscReal                n    = (PetscReal)p->xm * p->ym;
  size_t                   rs   = prec == SBP_KERNEL_FP32 ? sizeof(float) : sizeof(PetscReal);
  SbpBuffers               bufs = {0};
  SbpmgTuning              tune = p->tune;

  PetscFunctionBegin;
  if (chunked && !tiled) {
    tune.mg_line_chunks = PCSBPMGLinesChunks(p, dir);
    tune.mg_line_group  = PCSBPMGLinesGroup(p, dir ? xm : ym, tune.mg_line_chunks);
  }
  if (tiled || chunked) PetscCall(PCSBPMGLinesCheckLocal(p, &tune, tiled, rs));
  PetscCall(PCSBPMGGetProblemKernel(p, kprec, &tune, tiled ? MG_K_LINE_TILES : (chunked ? MG_K_LINE_CHUNKS : MG_K_LINE_SOLVE), &k));
  PetscCall(PCSBPMGLinesFactors(l, dir, prec, f));
  if (chunked) PetscCall(PCSBPMGLinesMaps(l, dir, kprec, &tune, f, &maps));
  PetscCall(SbpmgLogKernelBegin(SBPMG_MGSmooth));
  if (r == tmp)
    PetscCall(PCSBPMGBuffersGet(&bufs, r, SBP_READ_WRITE, &rb));
  else
    PetscCall(PCSBPMGBuffersGet(&bufs, r, SBP_READ, &rb));
  if (r == tmp)
    tb = rb;
  else if (tmp == out)
    tb = NULL; /* set with out's buffer below */
  else
    PetscCall(PCSBPMGBuffersGet(&bufs, tmp, SBP_READ_WRITE, &tb));
  for (int t = 0; t < 3; t++) PetscCall(PCSBPMGBuffersGet(&bufs, f[t], SBP_READ, &fb[t]));
  PetscCall(PCSBPMGBuffersGet(&bufs, zero ? NULL : x, SBP_READ, &xb));
  PetscCall(PCSBPMGBuffersGet(&bufs, prev && prev != out && c1 != 0 && !prev_zero ? prev : NULL, SBP_READ, &pb));
  PetscCall(PCSBPMGBuffersGet(&bufs, out, prev == out && c1 != 0 && !prev_zero ? SBP_READ_WRITE : (tmp == out ? SBP_READ_WRITE : SBP_WRITE), &ob));
  if (!tb) tb = ob;
  if (!xb) xb = ob; /* not read */
  if (!pb) pb = ob;
  {
    const PetscBool            single = prec == SBP_KERNEL_FP32 ? PETSC_TRUE : PETSC_FALSE;
    const PCSBPMGLineSolveArgs args   = {.dir       = SbpmgCLArgInt(dir),
                                         .xm        = SbpmgCLArgInt(xm),
                                         .ym        = SbpmgCLArgInt(ym),
                                         .r         = SbpmgCLArgMem(rb),
                                         .tmp       = SbpmgCLArgMem(tb),
                                         .l1        = SbpmgCLArgMem(fb[0]),
                                         .l2        = SbpmgCLArgMem(fb[1]),
                                         .dinv      = SbpmgCLArgMem(fb[2]),
                                         .maps      = SbpmgCLArgMem(maps),
                                         .x         = SbpmgCLArgMem(xb),
                                         .prev      = SbpmgCLArgMem(pb),
                                         .out       = SbpmgCLArgMem(ob),
                                         .c1        = SbpmgCLArgReal(single, c1),
                                         .c2        = SbpmgCLArgReal(single, c2),
                                         .zero      = SbpmgCLArgInt(zero ? 1 : 0),
                                         .prev_zero = SbpmgCLArgInt(prev_zero ? 1 : 0)};
    if (tiled)
      SBPMG_CL_SET_ARGS(k, mg_line_solve_tiles, &args);
    else if (chunked)
      SBPMG_CL_SET_ARGS(k, mg_line_solve_chunks, &args);
    else
      SBPMG_CL_SET_ARGS(k, mg_line_solve, &args);
  }
  if (dir ? xm : ym) {
    const PetscInt nlines = dir ? xm : ym;
    if (tiled) { /* one line per work-group of mg_line_chunks work-items */
      const size_t wg = (size_t)p->tune.mg_line_chunks;
      PetscCall(SbpmgCLLaunch1D(p->cl, k, (size_t)nlines * wg, wg));
    } else if (chunked) { /* a work-group of mg_line_group (or mg_line_group_wide) lines x mg_line_chunks chunks */
      const size_t wg = (size_t)(tune.mg_line_group * tune.mg_line_chunks);
      PetscCall(SbpmgCLLaunch1D(p->cl, k, (size_t)((nlines + tune.mg_line_group - 1) / tune.mg_line_group) * wg, wg));
    } else {
      const size_t wg = (size_t)p->tune.mg_line_wg, items = ((size_t)nlines + (size_t)p->tune.mg_line_vec - 1) / (size_t)p->tune.mg_line_vec;
      PetscCall(SbpmgCLLaunch1D(p->cl, k, (items + wg - 1) / wg * wg, wg));
    }
  }
  PetscCall(PCSBPMGBuffersRestore(&bufs));
  /* r, tmp written and read, the three factors read twice (forward and backward), x, prev (c1), out; chunked: r, l1, l2 and in the
     backward recurrence tmp, dinv, l1, l2 read twice */
  PetscCall(
      SbpmgLogKernelEnd(SBPMG_MGSmooth, p->cl, (chunked ? 20 : 12) * n, n * rs * ((chunked ? 14 : 8) + (zero ? 0 : 1) + (c1 != 0 && !prev_zero ? 1 : 0) + 1)));
  PetscFunctionReturn(0);
}

/* The same on host arrays: every vector through VecGetArray (tmp, out may alias r, prev). */
static PetscErrorCode PCSBPMGLinesSolveHost(PCSBPMGLines l, int dir, Vec r, Vec tmp, Vec x, Vec prev, Vec out, PetscReal c1, PetscReal c2, PetscBool zero,
                                            PetscBool prev_zero)
{
  SbpProblem         p = l->p;
  const PetscScalar *ra, *xa = NULL, *pa = NULL, *fa[3];
  PetscScalar       *ta, *oa;
  PetscBool          readprev = c1 != 0 && !prev_zero ? PETSC_TRUE : PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SBPMG_MGSmooth, 0, 0, 0, 0));
  /* the arrays of aliased vectors are the same memory: take the writable ones first, read the others through them */
  PetscCall(VecGetArray(out, &oa));
  if (tmp == out)
    ta = oa;
  else
    PetscCall(VecGetArray(tmp, &ta));
  ra = r == tmp ? ta : (r == out ? oa : NULL);
  if (!ra) PetscCall(VecGetArrayRead(r, &ra));
  if (!zero) {
    xa = x == out ? oa : (x == tmp ? ta : NULL);
    if (!xa) PetscCall(VecGetArrayRead(x, &xa));
  }
  if (readprev) {
    pa = prev == out ? oa : (prev == tmp ? ta : NULL);
    if (!pa) PetscCall(VecGetArrayRead(prev, &pa));
  }
  for (int t = 0; t < 3; t++) PetscCall(VecGetArrayRead(l->f[dir][t], &fa[t]));
  for (PetscInt line = 0; line < (dir ? p->xm : p->ym); line += SBPMG_MG_LINE_VEC)
    mg_line_solve_lines(dir, (int)p->xm, (int)p->ym, (int)line, (int)PetscMin(SBPMG_MG_LINE_VEC, (dir ? p->xm : p->ym) - line), ra, ta, fa[0], fa[1], fa[2], xa,
                        pa, oa, c1, c2, zero ? 1 : 0, readprev ? 0 : 1);
  for (int t = 0; t < 3; t++) PetscCall(VecRestoreArrayRead(l->f[dir][t], &fa[t]));
  if (readprev && prev != out && prev != tmp) PetscCall(VecRestoreArrayRead(prev, &pa));
  if (!zero && x != out && x != tmp) PetscCall(VecRestoreArrayRead(x, &xa));
  if (r != tmp && r != out) PetscCall(VecRestoreArrayRead(r, &ra));
  if (tmp != out) PetscCall(VecRestoreArray(tmp, &ta));
  PetscCall(VecRestoreArray(out, &oa));
  PetscCall(PetscLogEventEnd(SBPMG_MGSmooth, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* out = x + c1 (x - prev) + c2 B^-1 r on the device or the host, the lines whole on this rank or joined across the ranks that cut them
   (each segment solved from zero states into z_loc, then src/mg/lines_join.c). */
static PetscErrorCode PCSBPMGLinesStep(PCSBPMGLines l, int dir, SbpKernelPrecision prec, PetscBool dev, Vec r, Vec tmp, Vec x, Vec prev, Vec out, PetscReal c1,
                                       PetscReal c2, PetscBool zero, PetscBool prev_zero)
{
  PetscFunctionBegin;
  if (l->lsize[dir] > 1) {
    Vec wz[4], zl;
    PetscCall(PCSBPMGLinesJoinVectors(l, dir, dev ? prec : SBP_KERNEL_FP64, wz, &zl));
    if (dev)
      PetscCall(PCSBPMGLinesSolveDevice(l, dir, prec, r, tmp, NULL, NULL, zl, 0, 1, PETSC_TRUE, PETSC_TRUE));
    else
      PetscCall(PCSBPMGLinesSolveHost(l, dir, r, tmp, NULL, NULL, zl, 0, 1, PETSC_TRUE, PETSC_TRUE));
    PetscCall(PCSBPMGLinesJoinFinish(l, dir, prec, dev, tmp, zl, wz, x, prev, out, c1, c2, zero, prev_zero));
  } else if (dev)
    PetscCall(PCSBPMGLinesSolveDevice(l, dir, prec, r, tmp, x, prev, out, c1, c2, zero, prev_zero));
  else
    PetscCall(PCSBPMGLinesSolveHost(l, dir, r, tmp, x, prev, out, c1, c2, zero, prev_zero));
  PetscFunctionReturn(0);
}

/*
  PCSBPMGLinesSolve - z = B^-1 r with the fp64 factors of direction dir (the eigenvalue estimates' preconditioner): on the device for
  device vectors of a device problem, else on the host. r is not changed.
*/
PetscErrorCode PCSBPMGLinesSolve(PCSBPMGLines l, int dir, Vec r, Vec z)
{
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(SbpProblemUseDevice(l->p, r, z, NULL, &dev));
  PetscCall(PCSBPMGLinesStep(l, dir, SBP_KERNEL_FP64, dev, r, z, NULL, NULL, z, 0, 1, PETSC_TRUE, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/*
  PCSBPMGLinesSweeps - its sweeps of the three-term recurrence x_{k+1} = x_k + c1 (x_k - x_{k-1}) + c2 B^-1 (b - M~ x_k) along the
  lines of direction dir, from x (or from zero), with (c1, c2) of each in c; r and xw are work vectors like x, the result ends in x. On
  the device (prec: the level's kernels; the residual is the level sweeps' own, src/mg/cycle.c) or, for host vectors, on the host.
*/
PetscErrorCode PCSBPMGLinesSweeps(PCSBPMGLines l, int dir, SbpKernelPrecision prec, PetscBool dev, Vec x, Vec b, Vec r, Vec xw, PetscInt its,
                                  PetscBool guesszero, const PetscReal c[])
{
  Vec cur = x, other = xw;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < its; k++) {
    const PetscBool zero = k == 0 && guesszero ? PETSC_TRUE : PETSC_FALSE, prev_zero = k == 1 && guesszero ? PETSC_TRUE : PETSC_FALSE;
    Vec             t;
    /* the residual of x_k into r (from zero: b itself, read in place), then x_{k+1} over x_{k-1} */
    if (!zero) {
      if (dev) {
        SbpLevel lv;
        PetscCall(SbpProblemGetLevel(l->p, prec, &lv));
        PetscCall(PCSBPMGLevelResidual(lv, b, cur, r));
      } else {
        PetscCall(SbpProblemGetHostCoefficients(l->p));
        PetscCall(SbpProblemApplyHost(l->p, cur, b, -1.0, r));
      }
    }
    PetscCall(PCSBPMGLinesStep(l, dir, prec, dev, zero ? b : r, r, cur, other, other, c[2 * k], c[2 * k + 1], zero, prev_zero));
    t     = cur;
    cur   = other;
    other = t;
  }
  if (cur != x) PetscCall(VecSwap(x, xw));
  PetscFunctionReturn(0);
}
