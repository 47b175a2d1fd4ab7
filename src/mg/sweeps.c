/* The level smoother's device sweeps (kernels/smooth.cl): one sweep per launch, or m = 2, 3 sweeps per pass over the data
   (docs/design.md "several sweeps per pass"), on fp64 device vectors or on the single-precision V-cycle's level vectors. On the
   finest level of the single-precision V-cycle the first sweep reads the fp64 right-hand side (the level vector's source) and keeps
   its fp32 copy, and the last sweep of the cycle writes the fp64 result (the level vector's target): the conversions ride on sweeps
   that run anyway. */
#include <sbpmg/private/mgimpl.h>
#include "sbpmg_kernel_args.h"

PetscErrorCode PCSBPMGSmootherKernel(PC_SbpmgSmoother *s, PCSBPMGKernel id, cl_kernel *k)
{
  PetscFunctionBegin;
  if (!s->k[id]) PetscCall(PCSBPMGGetKernel(s->level, &s->set.tune, id, &s->k[id]));
  *k = s->k[id];
  PetscFunctionReturn(0);
}

/* The level's part of the sweep arguments, and the buffers of x (NULL: not read) into *xb, b (or its fp64 source), dinv (jacobi 2) and
   the fp64 target dst (NULL: the result stays in the level's precision) into bufs. */
static PetscErrorCode SbpmgSweepBegin(PC_SbpmgSmoother *s, Vec x, Vec b, Vec dst, SbpBuffers *bufs, PCSBPMGSweep *w, cl_mem *xb)
{
  SbpProblem p   = s->p;
  Vec        src = NULL;

  PetscFunctionBegin;
  w->Nr       = (int)p->Nr;
  w->Ns       = (int)p->Ns;
  w->rho      = p->rho;
  w->jacobi   = s->set.type == PC_SBPMG_RICHARDSON ? 0 : (s->set.tune.mg_inline_diag ? 1 : 2);
  w->io       = 0;
  w->io_bytes = 0;
  PetscCall(SbpProblemBCFlags(p, &w->flags));
  PetscCall(SbpLevelGetCoefficientBuffers(s->level, &w->ca, &w->cb, &w->cc));
  PetscCall(SbpmgLogKernelBegin(SBPMG_MGSmooth));
  PetscCall(PCSBPMGBuffersGet(bufs, x, SBP_READ, xb));
  if (s->set.prec == SBP_KERNEL_FP32) PetscCall(PCSBPMGVecGetSource(b, &src));
  if (src) { /* the first sweep of the cycle on the finest level: b from its fp64 source, its fp32 copy kept */
    PetscCall(PCSBPMGBuffersGet(bufs, src, SBP_READ, &w->rhs64));
    PetscCall(PCSBPMGBuffersGet(bufs, b, SBP_WRITE, &w->bb));
    w->io |= 1;
    w->io_bytes += sizeof(PetscScalar);
  } else {
    PetscCall(PCSBPMGBuffersGet(bufs, b, SBP_READ, &w->bb));
    w->rhs64 = w->bb; /* not read */
  }
  PetscCall(PCSBPMGBuffersGet(bufs, w->jacobi == 2 ? s->dinv : NULL, SBP_READ, &w->db));
  if (!w->db) w->db = w->bb; /* not read */
  PetscCall(PCSBPMGBuffersGet(bufs, dst, SBP_WRITE, &w->out64));
  if (dst) {
    w->io |= 2;
    w->io_bytes += sizeof(PetscScalar) - (s->set.prec == SBP_KERNEL_FP32 ? sizeof(float) : sizeof(PetscReal));
  } else
    w->out64 = w->bb; /* not written */
  PetscFunctionReturn(0);
}

/* The arguments of kernels/smooth.cl by name (include/sbpmg/private/climpl.h SBPMG_CL_SET_ARGS): the single sweeps' (mg_smooth_patch,
   mg_smooth_inner; their region boxes gh, own, in, mode left to the launch) and the passes' (mg_smooth_pass). */
typedef struct {
  SbpmgCLArgValue Nr, Ns, rho, dirichlet, a, b, c, x, rhs, jacobi, dinv, c1, c2, zero, prev_zero, prev, out, io, rhs64, rhs_copy, out64, gh, own, in, mode;
} PCSBPMGSweepKernelArgs;
typedef struct {
  SbpmgCLArgValue Nr, Ns, rho, dirichlet, a, b, c, x, rhs, jacobi, dinv, m, c1a, c2a, c1b, c2b, c1c, c2c, zero, prev_zero, write_prev, prev, out1, out2, out3,
      gh, own, in, core, io, rhs64, rhs_copy, out64, rows;
} PCSBPMGPassKernelArgs;

/* The single sweeps' x (the patch a ghost exchange fills) and their first region box, the same in both kernels */
#define SBPMG_SWEEP_ARG_X  SBPMG_KERNEL_ARG_mg_smooth_patch_x
#define SBPMG_SWEEP_ARG_GH SBPMG_KERNEL_ARG_mg_smooth_patch_gh
_Static_assert(SBPMG_KERNEL_ARG_mg_smooth_patch_x == SBPMG_KERNEL_ARG_mg_smooth_inner_x &&
                   SBPMG_KERNEL_ARG_mg_smooth_patch_gh == SBPMG_KERNEL_ARG_mg_smooth_inner_gh,
               "mg_smooth_patch and mg_smooth_inner take x and their region boxes at the same places");

PetscErrorCode PCSBPMGSweepArgs(SbpKernelPrecision prec, PCSBPMGKernel id, cl_kernel k, const PCSBPMGSweep *w, cl_mem x, cl_mem prev, cl_mem out, PetscReal c1,
                                PetscReal c2, int zero, int prev_zero, int io)
{
  const PetscBool              single = prec == SBP_KERNEL_FP32 ? PETSC_TRUE : PETSC_FALSE;
  const PCSBPMGSweepKernelArgs a      = {.Nr        = SbpmgCLArgInt(w->Nr),
                                         .Ns        = SbpmgCLArgInt(w->Ns),
                                         .rho       = SbpmgCLArgReal(single, w->rho),
                                         .dirichlet = SbpmgCLArgInt(w->flags),
                                         .a         = SbpmgCLArgMem(w->ca),
                                         .b         = SbpmgCLArgMem(w->cb),
                                         .c         = SbpmgCLArgMem(w->cc),
                                         .x         = SbpmgCLArgMem(x),
                                         .rhs       = SbpmgCLArgMem(w->bb),
                                         .jacobi    = SbpmgCLArgInt(w->jacobi),
                                         .dinv      = SbpmgCLArgMem(w->db),
                                         .c1        = SbpmgCLArgReal(single, c1),
                                         .c2        = SbpmgCLArgReal(single, c2),
                                         .zero      = SbpmgCLArgInt(zero),
                                         .prev_zero = SbpmgCLArgInt(prev_zero),
                                         .prev      = SbpmgCLArgMem(prev),
                                         .out       = SbpmgCLArgMem(out),
                                         .io        = SbpmgCLArgInt(io),
                                         .rhs64     = SbpmgCLArgMem(w->rhs64),
                                         .rhs_copy  = SbpmgCLArgMem(w->bb),
                                         .out64     = SbpmgCLArgMem(w->out64)};

  PetscFunctionBegin;
  if (id == MG_K_SMOOTH_INNER)
    SBPMG_CL_SET_ARGS(k, mg_smooth_inner, &a);
  else
    SBPMG_CL_SET_ARGS(k, mg_smooth_patch, &a);
  PetscFunctionReturn(0);
}

/* Bytes of m sweeps in one pass over n nodes: coefficients (12 B in fp32), b, the output, with write_prev another, x (unless zero),
   x_{k-1} (when read) and dinv (jacobi 2), in the level's precision; and the conversions. */
static PetscLogDouble SbpmgSweepBytes(PC_SbpmgSmoother *s, const PCSBPMGSweep *w, PetscReal n, PetscBool zero, PetscBool readprev, PetscBool write_prev)
{
  size_t vsize = s->set.prec == SBP_KERNEL_FP32 ? sizeof(float) : sizeof(PetscReal), csize = s->set.prec == SBP_KERNEL_FP64 ? sizeof(PetscReal) : sizeof(float);

  return n * (3 * csize + vsize * (2 + (write_prev ? 1 : 0) + (zero ? 0 : 1) + (readprev ? 1 : 0) + (w->jacobi == 2 ? 1 : 0)) + w->io_bytes);
}

/* One fused sweep on the device (kernels/smooth.cl): out = x + c1 (x - prev) + c2 s (b - M~ x), or to dst in fp64. prev (read where
   c1 != 0 and not prev_zero) may be out. */
static PetscErrorCode SbpmgSweepDevice(PC_SbpmgSmoother *s, Vec x, Vec b, Vec prev, Vec out, Vec dst, PetscReal c1, PetscReal c2, PetscBool zero,
                                       PetscBool prev_zero)
{
  SbpProblem   p     = s->p;
  cl_kernel    ks[2] = {NULL, NULL};
  cl_mem       xb, ob, pb;
  PetscBool    readprev = c1 != 0 && !prev_zero ? PETSC_TRUE : PETSC_FALSE, inplace = prev == out ? PETSC_TRUE : PETSC_FALSE;
  int          izero = zero ? 1 : 0, iprev = prev_zero ? 1 : 0;
  PetscReal    n      = (PetscReal)p->xm * p->ym;
  PetscBool    ghosts = SbpProblemExchangesGhosts(p);
  PetscBool    lean   = ghosts || p->split_on ? PETSC_TRUE : PETSC_FALSE; /* the lean interior kernel runs (SbpProblemLaunchOwned()) */
  PCSBPMGSweep w;
  SbpBuffers   bufs = {0};

  PetscFunctionBegin;
  PetscCall(PCSBPMGSmootherKernel(s, MG_K_SMOOTH_PATCH, &ks[0]));
  if (lean) PetscCall(PCSBPMGSmootherKernel(s, MG_K_SMOOTH_INNER, &ks[1]));
  PetscCall(SbpmgSweepBegin(s, zero ? NULL : x, b, dst, &bufs, &w, &xb));
  PetscCall(PCSBPMGBuffersGet(&bufs, out, readprev && inplace ? SBP_READ_WRITE : SBP_WRITE, &ob));
  PetscCall(PCSBPMGBuffersGet(&bufs, readprev && !inplace ? prev : NULL, SBP_READ, &pb));
  if (!pb) pb = ob;
  if (zero) { /* x is not used, but a buffer of the patch's size (tuning sbp_select: the lean kernel loads it): the output on one rank */
    xb = ob;
    if (ghosts) {
      SbpHalo h;
      PetscCall(SbpLevelGetHalo(s->level, &h));
      xb = h->patch;
    }
  }
  for (int t = 0; t < (lean ? 2 : 1); t++)
    PetscCall(PCSBPMGSweepArgs(s->set.prec, t ? MG_K_SMOOTH_INNER : MG_K_SMOOTH_PATCH, ks[t], &w, xb, pb, ob, c1, c2, izero, iprev, w.io));
  if (zero || !ghosts)
    PetscCall(SbpProblemLaunchOwned(p, ks[0], ks[1], SBPMG_SWEEP_ARG_GH)); /* one rank, or x = 0: nothing to exchange */
  else {                                                                   /* several ranks: x through the ghost exchange of the level's precision */
    SbpHalo h;
    PetscCall(SbpLevelGetHalo(s->level, &h));
    PetscCall(SbpProblemLaunchExchangedBuffer(p, h, xb, ks[0], ks[1], SBPMG_SWEEP_ARG_X, SBPMG_SWEEP_ARG_GH));
  }
  PetscCall(PCSBPMGBuffersRestore(&bufs));
  PetscCall(SbpmgLogKernelEnd(SBPMG_MGSmooth, p->cl, (w.jacobi ? 90 : 50) * n, SbpmgSweepBytes(s, &w, n, zero, readprev, PETSC_FALSE)));
  PetscFunctionReturn(0);
}

/* One sweep on the finest level of an order-p V-cycle (p = 4, 6; docs/design.md "Multigrid at higher order"): the order-p operator's sweep
   kernels (src/sbp/wide.c SbpProblemSweepWide, kernels/sbp_wide.cl), the same update as SbpmgSweepDevice's in fp64 with the fp64
   coefficients (the level's precision is fp64, setup.c) and the stored 1/diag of the order-p diagonal (made at set-up whatever
   mg_inline_diag: smoother.c). */
static PetscErrorCode SbpmgSweepWide(PC_SbpmgSmoother *s, Vec x, Vec b, Vec prev, Vec out, PetscReal c1, PetscReal c2, PetscBool zero, PetscBool prev_zero)
{
  SbpProblem   p        = s->p;
  PetscBool    readprev = c1 != 0 && !prev_zero ? PETSC_TRUE : PETSC_FALSE, jac = s->set.type == PC_SBPMG_RICHARDSON ? PETSC_FALSE : PETSC_TRUE;
  PetscReal    n = (PetscReal)p->xm * p->ym;
  SbpWideSweep w = {zero ? NULL : x, b, jac ? s->dinv : NULL, prev, out, c1, c2, zero, prev_zero};

  PetscFunctionBegin;
  PetscCheck(s->set.prec != SBP_KERNEL_FP32, PETSC_COMM_SELF, PETSC_ERR_SUP, "The order-%" PetscInt_FMT " sweep runs in double precision", p->order);
  PetscCheck(!jac || s->dinv, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The order-%" PetscInt_FMT " sweep has no stored 1/diag", p->order);
  PetscCall(SbpmgLogKernelBegin(SBPMG_MGSmooth));
  PetscCall(SbpProblemSweepWide(p, &w));
  /* the operator's row (none from zero) and the update; bytes: three coefficients, b, out, x, x_{k-1}, dinv, out again in the second pass
     of the split interior (sbp_wide_fuse 0), the patch copy on several ranks */
  PetscCall(SbpmgLogKernelEnd(SBPMG_MGSmooth, p->cl, ((zero ? 0 : SbpWideFlopsPerNode(p)) + 6) * n,
                              n * sizeof(PetscReal) *
                                  (5 + (zero ? 0 : 1) + (readprev ? 1 : 0) + (jac ? 1 : 0) + (!zero && !p->tune.sbp_wide_fuse ? 2 : 0) +
                                   (!zero && SbpProblemExchangesGhosts(p) ? 2 : 0))));
  PetscFunctionReturn(0);
}

/* The launch of a pass of m sweeps over the core box (kernels/smooth.cl mg_smooth_pass): strips of mg_pass_wg - 2m columns, each
   work-group streaming through `rows` of them; rows is mg_pass_rows, halved (down to 8) while the launch has fewer than
   mg_pass_groups_per_cu work-groups per compute unit (the coarser levels). */
static void SbpmgPassShape(PC_SbpmgSmoother *s, PetscInt m, const PetscInt core[], size_t global[], int *rows)
{
  const SbpmgTuning *tune = &s->set.tune;
  PetscInt           ncol = PetscMax(core[2] - core[0] + 1, 0), nrow = PetscMax(core[3] - core[1] + 1, 0), width = tune->mg_pass_wg - 2 * m;
  PetscInt           strips = (ncol + width - 1) / width, r = tune->mg_pass_rows, want = tune->mg_pass_groups_per_cu * (PetscInt)s->p->cl->compute_units;

  while (r > 8 && strips * ((nrow + r - 1) / r) < want) r = (r + 1) / 2;
  *rows     = (int)r;
  global[0] = (size_t)(strips * tune->mg_pass_wg);
  global[1] = (size_t)((nrow + r - 1) / r);
}

/* m = 2 or 3 sweeps in one pass over the core box (kernels/smooth.cl mg_smooth_pass), and the same sweeps one by one over the core's
   rim: x_{k+s} to out[s-1] (x_{k+m} to dst in fp64 where dst is given), m buffers other than x (x_k) and prev (x_{k-1}), which the
   pass reads around each tile. c holds (c1, c2) of the m sweeps; write_prev: x_{k+m-1} is needed everywhere (another pass follows). */
static PetscErrorCode SbpmgPassDevice(PC_SbpmgSmoother *s, PetscInt m, Vec x, Vec b, Vec prev, Vec out[], Vec dst, const PetscReal c[], PetscBool zero,
                                      PetscBool prev_zero, PetscBool write_prev)
{
  SbpProblem p  = s->p;
  cl_kernel  kp = NULL, kr = NULL;
  cl_mem     xb, pb, ob[3];
  int        izero = zero ? 1 : 0, iprev = prev_zero ? 1 : 0, iwrite = write_prev ? 1 : 0, im = (int)m, inone = 0;
  PetscReal  n        = (PetscReal)p->xm * p->ym;
  PetscBool  readprev = c[0] != 0 && !prev_zero ? PETSC_TRUE : PETSC_FALSE;
  PetscInt  *core     = s->core[m - 2];
  size_t     global[2], local[2] = {(size_t)s->set.tune.mg_pass_wg, 1};
  int        rows;
  cl_int4    gh, own, in = {{(cl_int)p->in[0], (cl_int)p->in[1], (cl_int)p->in[2], (cl_int)p->in[3]}},
                   cbox = {{(cl_int)core[0], (cl_int)core[1], (cl_int)core[2], (cl_int)core[3]}};
  PCSBPMGSweep w;
  SbpBuffers   bufs = {0};

  PetscFunctionBegin;
  SbpProblemPatchBoxes(p, &gh, &own);
  SbpmgPassShape(s, m, core, global, &rows);
  PetscCall(PCSBPMGSmootherKernel(s, MG_K_SMOOTH_PASS, &kp));
  PetscCall(PCSBPMGSmootherKernel(s, MG_K_SMOOTH_PATCH, &kr));
  PetscCall(SbpmgSweepBegin(s, zero ? NULL : x, b, dst, &bufs, &w, &xb));
  PetscCall(PCSBPMGBuffersGet(&bufs, readprev ? prev : NULL, SBP_READ, &pb));
  for (PetscInt t = 0; t < m; t++) PetscCall(PCSBPMGBuffersGet(&bufs, out[t], SBP_WRITE, &ob[t]));
  if (m == 2) ob[2] = ob[1]; /* not written */
  if (!xb) xb = ob[0];       /* not read */
  if (!pb) pb = ob[0];
  /* the m sweeps on the core */
  {
    const PetscBool             single = s->set.prec == SBP_KERNEL_FP32 ? PETSC_TRUE : PETSC_FALSE;
    const PCSBPMGPassKernelArgs a      = {.Nr         = SbpmgCLArgInt(w.Nr),
                                          .Ns         = SbpmgCLArgInt(w.Ns),
                                          .rho        = SbpmgCLArgReal(single, w.rho),
                                          .dirichlet  = SbpmgCLArgInt(w.flags),
                                          .a          = SbpmgCLArgMem(w.ca),
                                          .b          = SbpmgCLArgMem(w.cb),
                                          .c          = SbpmgCLArgMem(w.cc),
                                          .x          = SbpmgCLArgMem(xb),
                                          .rhs        = SbpmgCLArgMem(w.bb),
                                          .jacobi     = SbpmgCLArgInt(w.jacobi),
                                          .dinv       = SbpmgCLArgMem(w.db),
                                          .m          = SbpmgCLArgInt(im),
                                          .c1a        = SbpmgCLArgReal(single, c[0]),
                                          .c2a        = SbpmgCLArgReal(single, c[1]),
                                          .c1b        = SbpmgCLArgReal(single, c[2]),
                                          .c2b        = SbpmgCLArgReal(single, c[3]),
                                          .c1c        = SbpmgCLArgReal(single, m > 2 ? c[4] : 0),
                                          .c2c        = SbpmgCLArgReal(single, m > 2 ? c[5] : 0),
                                          .zero       = SbpmgCLArgInt(izero),
                                          .prev_zero  = SbpmgCLArgInt(iprev),
                                          .write_prev = SbpmgCLArgInt(iwrite),
                                          .prev       = SbpmgCLArgMem(pb),
                                          .out1       = SbpmgCLArgMem(ob[0]),
                                          .out2       = SbpmgCLArgMem(ob[1]),
                                          .out3       = SbpmgCLArgMem(ob[2]),
                                          .gh         = SbpmgCLArgInt4(gh),
                                          .own        = SbpmgCLArgInt4(own),
                                          .in         = SbpmgCLArgInt4(in),
                                          .core       = SbpmgCLArgInt4(cbox),
                                          .io         = SbpmgCLArgInt(w.io),
                                          .rhs64      = SbpmgCLArgMem(w.rhs64),
                                          .rhs_copy   = SbpmgCLArgMem(w.bb),
                                          .out64      = SbpmgCLArgMem(w.out64),
                                          .rows       = SbpmgCLArgInt(rows)};
    SBPMG_CL_SET_ARGS(kp, mg_smooth_pass, &a);
  }
  PetscCall(SbpmgCLLaunch2D(p->cl, kp, global, local));
  /* sweep k+t on the core's rim, from x_{k+t-1} (complete: its core part from the pass, its outer layer at least) and x_{k+t-2}; the
     first takes b from its source, the last writes the target */
  for (PetscInt t = 1; t <= m; t++) {
    cl_mem xt = t == 1 ? xb : ob[t - 2], pt = t == 1 ? pb : (t == 2 ? xb : ob[t - 3]);
    int    zt = t == 1 ? izero : inone, pzt = t == 1 ? iprev : (t == 2 ? izero : inone), iot = (t == 1 ? (w.io & 1) : 0) | (t == m ? (w.io & 2) : 0);
    PetscCall(PCSBPMGSweepArgs(s->set.prec, MG_K_SMOOTH_PATCH, kr, &w, xt, pt, ob[t - 1], c[2 * t - 2], c[2 * t - 1], zt, pzt, iot));
    PetscCall(SbpProblemLaunchBox(p, kr, SBPMG_SWEEP_ARG_GH, SBP_REGION_RIM, core));
  }
  PetscCall(PCSBPMGBuffersRestore(&bufs));
  PetscCall(SbpmgLogKernelEnd(SBPMG_MGSmooth, p->cl, m * (w.jacobi ? 90 : 50) * n, SbpmgSweepBytes(s, &w, n, zero, readprev, write_prev)));
  PetscFunctionReturn(0);
}

/* its device sweeps, m = pass_on per pass (a remainder of its / m comes first: a single sweep, the cheaper one from a zero guess, or
   a pass of two), over m + 2 buffers: x, xw and xp[]. A pass reads x_k and x_{k-1} and writes m buffers holding neither; the result
   is swapped into x, or written to dst by the last pass. */
static PetscErrorCode SbpmgPasses(PC_SbpmgSmoother *s, Vec x, Vec b, Vec dst, PetscInt its, PetscBool guesszero, const PetscReal c[])
{
  Vec      buf[5] = {x, s->xw, s->xp[0], s->xp[1], s->xp[2]};
  PetscInt nbuf = 2 + s->pass_on, cur = 0, prev = 1, k = 0; /* buffer indices of x_k and x_{k-1} */

  PetscFunctionBegin;
  while (k < its) {
    PetscInt  m = (k == 0 && its % s->pass_on) ? its % s->pass_on : s->pass_on, f[3], nf = 0;
    PetscBool first = k == 0 && guesszero ? PETSC_TRUE : PETSC_FALSE, second = k == 1 && guesszero ? PETSC_TRUE : PETSC_FALSE;
    Vec       out[3], last                                                   = k + m == its ? dst : NULL;
    for (PetscInt t = 0; t < nbuf; t++)
      if (t != cur && t != prev && nf < m) f[nf++] = t;
    for (PetscInt t = 0; t < m; t++) out[t] = buf[f[t]];
    if (m == 1)
      PetscCall(SbpmgSweepDevice(s, buf[cur], b, buf[prev], out[0], last, c[2 * k], c[2 * k + 1], first, second));
    else
      PetscCall(SbpmgPassDevice(s, m, buf[cur], b, buf[prev], out, last, &c[2 * k], first, second, k + m < its ? PETSC_TRUE : PETSC_FALSE));
    prev = m > 1 ? f[m - 2] : cur;
    cur  = f[m - 1];
    k += m;
  }
  if (cur && !dst) PetscCall(VecSwap(x, buf[cur]));
  PetscFunctionReturn(0);
}

/* its sweeps from x (or from zero: guesszero, or x a level vector marked zero); the result ends in x, or in fp64 in x's target when this
   is the application that writes it (PCSBPMGVecTargetStep). */
PetscErrorCode PCSBPMGSmootherSweeps(PC_SbpmgSmoother *s, Vec x, Vec b, PetscInt its, PetscBool guesszero, const PetscReal c[])
{
  Vec cur = x, next = s->xw, dst = NULL;

  PetscFunctionBegin;
  if (s->set.prec == SBP_KERNEL_FP32) {
    PCSBPMGVecState st;
    PetscCall(PCSBPMGVecGetState(x, &st));
    if (st == PCSBPMG_VEC_ZERO) guesszero = PETSC_TRUE;
    PetscCall(PCSBPMGVecTargetStep(x, &dst));
  }
  if (s->pass_on > 1)
    PetscCall(SbpmgPasses(s, x, b, dst, its, guesszero, c));
  else {
    /* sweep k reads x_k (cur) and x_{k-1} (other) and writes x_{k+1} over x_{k-1}; the result ends in x or, after an odd count, in xw,
       and VecSwap (an exchange of buffers) moves it to x */
    for (PetscInt k = 0; k < its; k++) {
      PetscBool zero = k == 0 && guesszero ? PETSC_TRUE : PETSC_FALSE, prev_zero = k == 1 && guesszero ? PETSC_TRUE : PETSC_FALSE;
      Vec       t;
      if (s->p->order > 2) /* the finest level of order 4 or 6 (fp64: no dst) */
        PetscCall(SbpmgSweepWide(s, cur, b, next, next, c[2 * k], c[2 * k + 1], zero, prev_zero));
      else
        PetscCall(SbpmgSweepDevice(s, cur, b, next, next, k == its - 1 ? dst : NULL, c[2 * k], c[2 * k + 1], zero, prev_zero));
      t    = cur;
      cur  = next;
      next = t;
    }
    if (cur != x && !dst) PetscCall(VecSwap(x, s->xw));
  }
  if (dst) PetscCall(PCSBPMGVecTargetWritten(x));
  PetscFunctionReturn(0);
}
