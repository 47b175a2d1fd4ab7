/* PCSBPMGSMOOTHER: the level smoother of PCSBPMG, a PC whose PCApplyRichardson performs nu sweeps of Chebyshev (on D^-1 M~),
   damped Jacobi or the spec's Richardson, each sweep one fused pass over the operator's data on the device (kernels/smooth.cl).
   KSPRICHARDSON hands the whole smoothing to PCApplyRichardson, so PCMG's level KSP costs nu passes. With host vectors the
   same sweeps run through PETSc vector operations. */
#include <sbpmg/private/mgimpl.h>
#include <petsc/private/pcimpl.h>
#include <stdint.h>

const char *const PCSBPMGSmootherTypes[] = {"chebyshev", "jacobi", "richardson", "PCSBPMGSmootherType", "PC_SBPMG_", NULL};

typedef struct {
  PCSBPMGSmootherSettings set;                     /* as configured (PCSBPMGSmootherConfigure) */
  PetscBool               tune_set;                /* set.tune given; else the problem's, at set-up */
  PetscInt                pass_on;                 /* resolved at set-up: sweeps per pass, 1 where the passes do not apply */
  PetscInt                core[2][4];              /* passes of m = 2, 3 sweeps run over the interior box shrunk by m-1 nodes; single sweeps take its rim */
  PetscReal               lmin, lmax;              /* estimates: of D^-1 M~ (Chebyshev, Jacobi) or M~ (Richardson) */
  PetscReal               omega;                   /* Jacobi / Richardson step */
  Vec                     dinv, d, xw;             /* xw: the second buffer of the device sweeps; dinv, d: host sweeps only */
  Vec                     xp[3];                   /* the third to fifth buffers of the passes of several sweeps */
  Vec                     w;                       /* the host sweeps' residual when the caller gives no work vector */
  cl_kernel               k[MG_K_SMOOTH_PASS + 1]; /* the level's sweep kernels, looked up once (owned by the program cache) */
  SbpProblem              p;
} PC_SbpmgSmoother;

/* A sweep kernel of the level, looked up on first use. */
static PetscErrorCode SbpmgSmootherKernel(PC_SbpmgSmoother *s, PCSBPMGKernel id, cl_kernel *k)
{
  PetscFunctionBegin;
  if (!s->k[id]) PetscCall(PCSBPMGGetKernel(s->p, &s->set.tune, s->set.single, id, &s->k[id]));
  *k = s->k[id];
  PetscFunctionReturn(0);
}

/* dinv = 1/diag(M~), made once, laid out like v */
static PetscErrorCode SbpmgSmootherDiagonal(PC pc, PC_SbpmgSmoother *s, Vec v)
{
  PetscFunctionBegin;
  if (s->dinv) PetscFunctionReturn(0);
  PetscCall(VecDuplicate(v, &s->dinv));
  PetscCall(MatGetDiagonal(pc->pmat, s->dinv));
  PetscCall(VecReciprocal(s->dinv));
  PetscFunctionReturn(0);
}

/* b(i,j) uniform in [0, 1), a hash of the node's natural index: the same vector whatever the number of ranks, so the estimates,
   and with them the smoother, are those of one rank (to rounding). */
static PetscErrorCode SbpmgSmootherStartVector(SbpProblem p, Vec b)
{
  PetscScalar *a;
  PetscInt     n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(b, &n));
  PetscCheck(n == p->xm * p->ym, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
             "Vector of local size %" PetscInt_FMT " is not laid out like the %" PetscInt_FMT " owned nodes of the SBP-SAT grid", n, p->xm * p->ym);
  {
    PetscBool dev;
    PetscCall(VecIsOpenCL(b, &dev));
    if (dev && p->use_device) { /* the same bits, made on the device (kernels/estimate.cl) */
      cl_kernel k;
      cl_mem    bb;
      int       xs = (int)p->xs, ys = (int)p->ys, xm = (int)p->xm, ym = (int)p->ym, Nr = (int)p->Nr;
      size_t    global[2] = {(size_t)p->xm, (size_t)p->ym};

      PetscCall(PCSBPMGGetKernel(p, &p->tune, PETSC_FALSE, MG_K_START_VECTOR, &k));
      PetscCall(VecOpenCLGetBufferWrite(b, &bb));
      PetscCall(SbpmgCLSetArgs(k, 0, 6, sizeof(int), &xs, sizeof(int), &ys, sizeof(int), &xm, sizeof(int), &ym, sizeof(int), &Nr, sizeof(cl_mem), &bb));
      PetscCall(SbpProblemLaunch2D(p, k, global));
      PetscCall(VecOpenCLRestoreBufferWrite(b, &bb));
      PetscFunctionReturn(0);
    }
  }
  PetscCall(VecGetArrayWrite(b, &a));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) {
      uint64_t z = 0x5b9u + 0x9E3779B97F4A7C15ull * (uint64_t)(i + (p->Nr + 1) * j + 1); /* splitmix64 */
      z          = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z          = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      z ^= z >> 31;
      a[(i - p->xs) + p->xm * (j - p->ys)] = (PetscReal)(z >> 11) * (1.0 / 9007199254740992.0);
    }
  PetscCall(VecRestoreArrayWrite(b, &a));
  PetscFunctionReturn(0);
}

/* Extreme eigenvalues of (D^-1) M~ by a few CG steps on a fixed random right-hand side (deterministic, independent of the
   decomposition). */
static PetscErrorCode SbpmgSmootherEstimate(PC pc, PC_SbpmgSmoother *s)
{
  KSP       ksp;
  PC        epc;
  Vec       b, x;
  PetscReal emax, emin;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SBPMG_MGEigen, pc, 0, 0, 0));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)pc), &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, ((PetscObject)pc)->prefix)); /* its own prefix: -ksp_* options of the outer solve do not reach it */
  PetscCall(KSPAppendOptionsPrefix(ksp, "esteig_"));
  PetscCall(KSPSetOperators(ksp, pc->mat, pc->pmat));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &epc));
  PetscCall(PCSetType(epc, s->set.type == PC_SBPMG_RICHARDSON ? PCNONE : PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-30, 1e-300, PETSC_DEFAULT, s->set.eig_its));
  PetscCall(KSPSetConvergenceTest(ksp, KSPConvergedSkip, NULL, NULL));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_NONE));
  PetscCall(KSPSetComputeSingularValues(ksp, PETSC_TRUE));
  PetscCall(MatCreateVecs(pc->pmat, &x, &b));
  PetscCall(SbpmgSmootherStartVector(s->p, b));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPComputeExtremeSingularValues(ksp, &emax, &emin));
  s->lmax = emax;
  s->lmin = emin;
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(PetscLogEventEnd(SBPMG_MGEigen, pc, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* The passes of several sweeps (docs/design.md "several sweeps per pass"): the core boxes, m more buffers, and checks that the device
   takes the work-group and that it holds a tile. */
static PetscErrorCode SbpmgSmootherSetUpPasses(PC_SbpmgSmoother *s)
{
  SbpProblem     p  = s->p;
  const PetscInt tx = s->set.tune.mg_pass_wg_x, ty = s->set.tune.mg_pass_wg_y, wg = tx * ty;
  cl_kernel      k = NULL;
  size_t         wgmax;

  PetscFunctionBegin;
  for (PetscInt m = 2; m <= 3; m++) {
    PetscInt *core = s->core[m - 2];
    core[0]        = p->in[0] + m - 1;
    core[1]        = p->in[1] + m - 1;
    core[2]        = p->in[2] - (m - 1);
    core[3]        = p->in[3] - (m - 1);
    if (core[0] > core[2] || core[1] > core[3]) { /* empty, as the set-up leaves an empty interior box: the rim is everything */
      core[0] = p->xs;
      core[2] = p->xs - 1;
      core[1] = p->ys + p->ym;
      core[3] = p->ys + p->ym - 1;
    }
  }
  PetscCheck(PetscMin(tx, ty) > 2 * (s->pass_on - 1), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Work-group %" PetscInt_FMT " x %" PetscInt_FMT " (tuning mg_pass_wg_x, mg_pass_wg_y) holds no tile for %" PetscInt_FMT
             " sweeps per pass (mg_sweeps_per_pass): each side needs more than %" PetscInt_FMT " work-items",
             tx, ty, s->pass_on, 2 * (s->pass_on - 1));
  PetscCallCL(clGetDeviceInfo(p->cl->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(wgmax), &wgmax, NULL)); /* before a build that could not run */
  if ((size_t)wg <= wgmax) {
    PetscCall(SbpmgSmootherKernel(s, MG_K_SMOOTH_PASS, &k));
    PetscCallCL(clGetKernelWorkGroupInfo(k, p->cl->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wgmax), &wgmax, NULL));
  }
  PetscCheck((size_t)wg <= wgmax, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "Work-group %" PetscInt_FMT " x %" PetscInt_FMT " (tuning mg_pass_wg_x, mg_pass_wg_y) has %" PetscInt_FMT
             " work-items; the device runs mg_smooth_pass with at most %zu: choose a smaller one or mg_sweeps_per_pass=1",
             tx, ty, wg, wgmax);
  for (PetscInt t = 0; t < s->pass_on; t++) PetscCall(VecDuplicate(s->xw, &s->xp[t]));
  PetscFunctionReturn(0);
}

/* Forget the vectors and kernels of the level (a new set-up or a reset). */
static PetscErrorCode SbpmgSmootherClear(PC_SbpmgSmoother *s)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&s->dinv));
  PetscCall(VecDestroy(&s->d));
  PetscCall(VecDestroy(&s->xw));
  PetscCall(VecDestroy(&s->w));
  for (PetscInt t = 0; t < 3; t++) PetscCall(VecDestroy(&s->xp[t]));
  PetscCall(PetscArrayzero(s->k, MG_K_SMOOTH_PASS + 1));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSetUp_SbpmgSmoother(PC pc)
{
  PC_SbpmgSmoother *s = (PC_SbpmgSmoother *)pc->data;
  SbpProblem        p;

  PetscFunctionBegin;
  PetscCall(MatGetSbpProblem(pc->pmat, &p));
  PetscCall(PetscObjectReference((PetscObject)p));
  PetscCall(SbpProblemDestroy(&s->p));
  s->p = p;
  if (!s->tune_set) s->set.tune = p->tune;
  PetscCall(SbpmgSmootherClear(s));
  PetscCall(MatCreateVecs(pc->pmat, &s->xw, NULL)); /* dinv and d are made when the host sweeps first need them */
  if (!s->set.tune.mg_inline_diag && s->set.type != PC_SBPMG_RICHARDSON) PetscCall(SbpmgSmootherDiagonal(pc, s, s->xw));
  PetscCall(SbpmgSmootherEstimate(pc, s));
  PetscCheck(s->lmax > 0 && !PetscIsInfOrNanReal(s->lmax), PetscObjectComm((PetscObject)pc), PETSC_ERR_CONV_FAILED,
             "Eigenvalue estimate %g of the %s smoother is not positive", (double)s->lmax, PCSBPMGSmootherTypes[s->set.type]);
  if (s->set.type == PC_SBPMG_JACOBI)
    s->omega = s->set.omega > 0 ? s->set.omega : 4 / (3 * s->lmax);
  else if (s->set.type == PC_SBPMG_RICHARDSON)
    s->omega = 2 / (PetscMax(s->lmin, 0) + s->lmax);
  s->pass_on = p->use_device && !p->halo && p->split_on ? s->set.tune.mg_sweeps_per_pass : 1;
  if (s->pass_on > 1) PetscCall(SbpmgSmootherSetUpPasses(s));
  PetscFunctionReturn(0);
}

/* What every sweep kernel of a level reads besides the iterates (kernels/smooth.cl: arguments 0..6, 8..10). */
typedef struct {
  int       Nr, Ns, flags, jacobi; /* jacobi: 0 Richardson, 1 1/diag inline, 2 1/diag from dinv */
  PetscReal rho;
  cl_mem    ca, cb, cc, bb, db;
} SbpmgSweep;

/* The level's part of the sweep arguments, and the buffers of x (NULL: not read) into *xb, b and (jacobi 2) dinv into bufs. */
static PetscErrorCode SbpmgSmootherSweepBegin(PC_SbpmgSmoother *s, Vec x, Vec b, SbpBuffers *bufs, SbpmgSweep *w, cl_mem *xb)
{
  SbpProblem p = s->p;

  PetscFunctionBegin;
  w->Nr     = (int)p->Nr;
  w->Ns     = (int)p->Ns;
  w->rho    = p->rho;
  w->jacobi = s->set.type == PC_SBPMG_RICHARDSON ? 0 : (s->set.tune.mg_inline_diag ? 1 : 2);
  PetscCall(SbpProblemBCFlags(p, &w->flags));
  PetscCall(SbpProblemGetCoefficientBuffers(p, s->set.single, &w->ca, &w->cb, &w->cc));
  PetscCall(SbpmgLogKernelBegin(SBPMG_MGSmooth));
  PetscCall(SbpBuffersGet(bufs, x, SBP_READ, xb));
  PetscCall(SbpBuffersGet(bufs, b, SBP_READ, &w->bb));
  PetscCall(SbpBuffersGet(bufs, w->jacobi == 2 ? s->dinv : NULL, SBP_READ, &w->db));
  if (!w->db) w->db = w->bb; /* not read */
  PetscFunctionReturn(0);
}

/* Arguments 0..16 of a single-sweep kernel (mg_smooth, mg_smooth_patch, mg_smooth_inner): out = x + c1 (x - prev) + c2 s (b - M~ x). */
static PetscErrorCode SbpmgSmootherSweepArgs(cl_kernel k, SbpmgSweep *w, cl_mem *x, cl_mem *prev, cl_mem *out, const PetscReal *c1, const PetscReal *c2,
                                             int *zero, int *prev_zero)
{
  PetscFunctionBegin;
  PetscCall(SbpmgCLSetArgs(k, 0, 17, sizeof(int), &w->Nr, sizeof(int), &w->Ns, sizeof(PetscReal), &w->rho, sizeof(int), &w->flags, sizeof(cl_mem), &w->ca,
                           sizeof(cl_mem), &w->cb, sizeof(cl_mem), &w->cc, sizeof(cl_mem), x, sizeof(cl_mem), &w->bb, sizeof(int), &w->jacobi, sizeof(cl_mem),
                           &w->db, sizeof(PetscReal), c1, sizeof(PetscReal), c2, sizeof(int), zero, sizeof(int), prev_zero, sizeof(cl_mem), prev,
                           sizeof(cl_mem), out));
  PetscFunctionReturn(0);
}

/* Bytes of m sweeps in one pass over n nodes: coefficients 24 B (12 B in fp32), b, the output, with write_prev another, x (unless
   zero), x_{k-1} (when read) and dinv (jacobi 2). */
static PetscLogDouble SbpmgSweepBytes(PC_SbpmgSmoother *s, const SbpmgSweep *w, PetscReal n, PetscBool zero, PetscBool readprev, PetscBool write_prev)
{
  return n * (3 * (s->set.single ? sizeof(float) : sizeof(PetscReal)) +
              sizeof(PetscReal) * (2 + (write_prev ? 1 : 0) + (zero ? 0 : 1) + (readprev ? 1 : 0) + (w->jacobi == 2 ? 1 : 0)));
}

/* One fused sweep on the device (kernels/smooth.cl): out = x + c1 (x - prev) + c2 s (b - M~ x). prev (read where c1 != 0 and not
   prev_zero) may be out. */
static PetscErrorCode SbpmgSmootherSweepDevice(PC_SbpmgSmoother *s, Vec x, Vec b, Vec prev, Vec out, PetscReal c1, PetscReal c2, PetscBool zero,
                                               PetscBool prev_zero)
{
  SbpProblem p = s->p;
  cl_kernel  ks[2];
  cl_mem     xb, ob, pb;
  PetscBool  readprev = c1 != 0 && !prev_zero ? PETSC_TRUE : PETSC_FALSE, inplace = prev == out ? PETSC_TRUE : PETSC_FALSE;
  int        izero = zero ? 1 : 0, iprev = prev_zero ? 1 : 0;
  PetscReal  n     = p->halo ? (PetscReal)p->xm * p->ym : (PetscReal)(p->Nr + 1) * (p->Ns + 1);
  PetscBool  owned = p->halo || p->split_on ? PETSC_TRUE : PETSC_FALSE; /* the kernel pair of SbpProblemLaunchOwned() */
  SbpmgSweep w;
  SbpBuffers bufs = {0};

  PetscFunctionBegin;
  PetscCall(SbpmgSmootherKernel(s, owned ? MG_K_SMOOTH_PATCH : MG_K_SMOOTH, &ks[0]));
  if (owned) PetscCall(SbpmgSmootherKernel(s, MG_K_SMOOTH_INNER, &ks[1]));
  PetscCall(SbpmgSmootherSweepBegin(s, !zero && !p->halo ? x : NULL, b, &bufs, &w, &xb));
  PetscCall(SbpBuffersGet(&bufs, out, readprev && inplace ? SBP_READ_WRITE : SBP_WRITE, &ob));
  PetscCall(SbpBuffersGet(&bufs, readprev && !inplace ? prev : NULL, SBP_READ, &pb));
  if (!pb) pb = ob;
  for (int t = 0; t < (owned ? 2 : 1); t++) PetscCall(SbpmgSmootherSweepArgs(ks[t], &w, zero ? &ob : &xb, &pb, &ob, &c1, &c2, &izero, &iprev));
  if (!owned)
    PetscCall(SbpProblemLaunchGrid(p, ks[0]));
  else if (zero || !p->halo)
    PetscCall(SbpProblemLaunchOwned(p, ks[0], ks[1], 17)); /* one rank, or x = 0: nothing to exchange */
  else
    PetscCall(SbpProblemLaunchExchanged(p, x, ks[0], ks[1], 7, 17)); /* several ranks: x through the ghost exchange */
  PetscCall(SbpBuffersRestore(&bufs));
  PetscCall(SbpmgLogKernelEnd(SBPMG_MGSmooth, p->cl, (w.jacobi ? 90 : 50) * n, SbpmgSweepBytes(s, &w, n, zero, readprev, PETSC_FALSE)));
  PetscFunctionReturn(0);
}

/* m = 2 or 3 sweeps in one pass over the core box (kernels/smooth.cl mg_smooth_pass), and the same sweeps one by one over the core's
   rim: x_{k+s} to out[s-1], m buffers other than x (x_k) and prev (x_{k-1}), which the pass reads around each tile. c holds (c1, c2)
   of the m sweeps; write_prev: x_{k+m-1} is needed everywhere (another pass follows). */
static PetscErrorCode SbpmgSmootherPassDevice(PC_SbpmgSmoother *s, PetscInt m, Vec x, Vec b, Vec prev, Vec out[], const PetscReal c[], PetscBool zero,
                                              PetscBool prev_zero, PetscBool write_prev)
{
  SbpProblem p  = s->p;
  cl_kernel  kp = NULL, kr = NULL;
  cl_mem     xb, pb, ob[3];
  int        izero = zero ? 1 : 0, iprev = prev_zero ? 1 : 0, iwrite = write_prev ? 1 : 0, im = (int)m, inone = 0;
  PetscReal  n = (PetscReal)p->xm * p->ym, cc3[6] = {0, 0, 0, 0, 0, 0};
  PetscBool  readprev = c[0] != 0 && !prev_zero ? PETSC_TRUE : PETSC_FALSE;
  PetscInt  *core     = s->core[m - 2];
  size_t     local[2] = {(size_t)s->set.tune.mg_pass_wg_x, (size_t)s->set.tune.mg_pass_wg_y},
         global[2]; /* a tile of (wg - 2(m-1)) nodes per work-group in each direction */
  cl_int4 gh, own, in = {{(cl_int)p->in[0], (cl_int)p->in[1], (cl_int)p->in[2], (cl_int)p->in[3]}},
                   cbox = {{(cl_int)core[0], (cl_int)core[1], (cl_int)core[2], (cl_int)core[3]}};
  SbpmgSweep w;
  SbpBuffers bufs = {0};

  PetscFunctionBegin;
  SbpProblemPatchBoxes(p, &gh, &own);
  for (int d = 0; d < 2; d++) {
    PetscInt tile = (PetscInt)local[d] - 2 * (m - 1);
    global[d]     = (size_t)((PetscMax(core[d + 2] - core[d] + 1, 0) + tile - 1) / tile) * local[d];
  }
  for (PetscInt t = 0; t < 2 * m; t++) cc3[t] = c[t];
  PetscCall(SbpmgSmootherKernel(s, MG_K_SMOOTH_PASS, &kp));
  PetscCall(SbpmgSmootherKernel(s, MG_K_SMOOTH_PATCH, &kr));
  PetscCall(SbpmgSmootherSweepBegin(s, zero ? NULL : x, b, &bufs, &w, &xb));
  PetscCall(SbpBuffersGet(&bufs, readprev ? prev : NULL, SBP_READ, &pb));
  for (PetscInt t = 0; t < m; t++) PetscCall(SbpBuffersGet(&bufs, out[t], SBP_WRITE, &ob[t]));
  if (m == 2) ob[2] = ob[1]; /* not written */
  if (!xb) xb = ob[0];       /* not read */
  if (!pb) pb = ob[0];
  /* the m sweeps on the core */
  PetscCall(SbpmgCLSetArgs(kp, 0, 24, sizeof(int), &w.Nr, sizeof(int), &w.Ns, sizeof(PetscReal), &w.rho, sizeof(int), &w.flags, sizeof(cl_mem), &w.ca,
                           sizeof(cl_mem), &w.cb, sizeof(cl_mem), &w.cc, sizeof(cl_mem), &xb, sizeof(cl_mem), &w.bb, sizeof(int), &w.jacobi, sizeof(cl_mem),
                           &w.db, sizeof(int), &im, sizeof(PetscReal), &cc3[0], sizeof(PetscReal), &cc3[1], sizeof(PetscReal), &cc3[2], sizeof(PetscReal),
                           &cc3[3], sizeof(PetscReal), &cc3[4], sizeof(PetscReal), &cc3[5], sizeof(int), &izero, sizeof(int), &iprev, sizeof(int), &iwrite,
                           sizeof(cl_mem), &pb, sizeof(cl_mem), &ob[0], sizeof(cl_mem), &ob[1]));
  PetscCall(SbpmgCLSetArgs(kp, 24, 5, sizeof(cl_mem), &ob[2], sizeof(cl_int4), &gh, sizeof(cl_int4), &own, sizeof(cl_int4), &in, sizeof(cl_int4), &cbox));
  PetscCall(SbpmgCLLaunch2D(p->cl, kp, global, local));
  /* sweep k+t on the core's rim, from x_{k+t-1} (complete: its core part from the pass, its outer layer at least) and x_{k+t-2} */
  for (PetscInt t = 1; t <= m; t++) {
    cl_mem xt = t == 1 ? xb : ob[t - 2], pt = t == 1 ? pb : (t == 2 ? xb : ob[t - 3]);
    int    zt = t == 1 ? izero : inone, pzt = t == 1 ? iprev : (t == 2 ? izero : inone);
    PetscCall(SbpmgSmootherSweepArgs(kr, &w, &xt, &pt, &ob[t - 1], &c[2 * t - 2], &c[2 * t - 1], &zt, &pzt));
    PetscCall(SbpProblemLaunchBox(p, kr, 17, SBP_REGION_RIM, core));
  }
  PetscCall(SbpBuffersRestore(&bufs));
  PetscCall(SbpmgLogKernelEnd(SBPMG_MGSmooth, p->cl, m * (w.jacobi ? 90 : 50) * n, SbpmgSweepBytes(s, &w, n, zero, readprev, write_prev)));
  PetscFunctionReturn(0);
}

/* The same sweep with PETSc operations (host vectors, or any operator handed to the smoother). */
static PetscErrorCode SbpmgSmootherSweepHost(PC pc, PC_SbpmgSmoother *s, Vec x, Vec b, Vec r, PetscReal c1, PetscReal c2, PetscBool zero)
{
  PetscFunctionBegin;
  PetscCall(SbpmgSmootherDiagonal(pc, s, x));
  if (!s->d) PetscCall(VecDuplicate(x, &s->d));
  PetscCall(PetscLogEventBegin(SBPMG_MGSmooth, 0, 0, 0, 0));
  if (zero)
    PetscCall(VecCopy(b, r));
  else
    PetscCall(MatResidual(pc->pmat, b, x, r));
  if (s->set.type != PC_SBPMG_RICHARDSON) PetscCall(VecPointwiseMult(r, r, s->dinv));
  if (s->set.type == PC_SBPMG_CHEBYSHEV) {
    if (c1 != 0)
      PetscCall(VecAXPBY(s->d, c2, c1, r));
    else
      PetscCall(VecAXPBY(s->d, c2, 0, r));
    if (zero)
      PetscCall(VecCopy(s->d, x));
    else
      PetscCall(VecAXPY(x, 1, s->d));
  } else {
    if (zero)
      PetscCall(VecAXPBY(x, c2, 0, r));
    else
      PetscCall(VecAXPY(x, c2, r));
  }
  PetscCall(PetscLogEventEnd(SBPMG_MGSmooth, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* (c1, c2) of sweep k of `its`: Chebyshev (Saad, Iterative Methods, Alg. 12.1) on D^-1 M~ over [lo, hi] * lambda_max: theta =
   (a+b)/2, delta = (b-a)/2, sigma = theta/delta; d_0 = r_0/theta, rho_0 = 1/sigma, rho_k = 1/(2 sigma - rho_{k-1}), d_k = rho_k
   rho_{k-1} d_{k-1} + (2 rho_k / delta) r_k; Jacobi and Richardson: (0, omega). */
static void SbpmgSmootherCoefficients(PC_SbpmgSmoother *s, PetscInt its, PetscReal c[])
{
  PetscReal a = s->set.lo * s->lmax, bnd = s->set.hi * s->lmax, theta = (a + bnd) / 2, delta = (bnd - a) / 2, sigma = theta / delta, rhoprev = 1 / sigma;

  for (PetscInt k = 0; k < its; k++) {
    c[2 * k] = 0;
    if (s->set.type != PC_SBPMG_CHEBYSHEV)
      c[2 * k + 1] = s->omega;
    else if (k == 0)
      c[2 * k + 1] = 1 / theta;
    else {
      PetscReal rhok = 1 / (2 * sigma - rhoprev);
      c[2 * k]       = rhok * rhoprev;
      c[2 * k + 1]   = 2 * rhok / delta;
      rhoprev        = rhok;
    }
  }
}

/* its device sweeps, m = pass_on per pass (a remainder of its / m comes first: a single sweep, the cheaper one from a zero guess, or
   a pass of two), over m + 2 buffers: x, xw and xp[]. A pass reads x_k and x_{k-1} and writes m buffers holding neither; the result
   is swapped into x. */
static PetscErrorCode SbpmgSmootherPasses(PC_SbpmgSmoother *s, Vec x, Vec b, PetscInt its, PetscBool guesszero, const PetscReal c[])
{
  Vec      buf[5] = {x, s->xw, s->xp[0], s->xp[1], s->xp[2]};
  PetscInt nbuf = 2 + s->pass_on, cur = 0, prev = 1, k = 0; /* buffer indices of x_k and x_{k-1} */

  PetscFunctionBegin;
  while (k < its) {
    PetscInt m = (k == 0 && its % s->pass_on) ? its % s->pass_on : s->pass_on, f[3], nf = 0;
    Vec      out[3];
    for (PetscInt t = 0; t < nbuf; t++)
      if (t != cur && t != prev && nf < m) f[nf++] = t;
    for (PetscInt t = 0; t < m; t++) out[t] = buf[f[t]];
    if (m == 1)
      PetscCall(SbpmgSmootherSweepDevice(s, buf[cur], b, buf[prev], out[0], c[2 * k], c[2 * k + 1], k == 0 && guesszero ? PETSC_TRUE : PETSC_FALSE,
                                         k == 1 && guesszero ? PETSC_TRUE : PETSC_FALSE));
    else
      PetscCall(SbpmgSmootherPassDevice(s, m, buf[cur], b, buf[prev], out, &c[2 * k], k == 0 && guesszero ? PETSC_TRUE : PETSC_FALSE,
                                        k == 1 && guesszero ? PETSC_TRUE : PETSC_FALSE, k + m < its ? PETSC_TRUE : PETSC_FALSE));
    prev = m > 1 ? f[m - 2] : cur;
    cur  = f[m - 1];
    k += m;
  }
  if (cur) PetscCall(VecSwap(x, buf[cur]));
  PetscFunctionReturn(0);
}

/* nu sweeps from x (or from zero); the result ends in x. */
static PetscErrorCode PCApplyRichardson_SbpmgSmoother(PC pc, Vec b, Vec x, Vec w, PetscReal rtol, PetscReal abstol, PetscReal dtol, PetscInt its,
                                                      PetscBool guesszero, PetscInt *outits, PCRichardsonConvergedReason *reason)
{
  PC_SbpmgSmoother *s = (PC_SbpmgSmoother *)pc->data;
  PetscBool         dev;
  Vec               cur, next;
  PetscReal         cbuf[2 * 64], *c = cbuf;

  PetscFunctionBegin;
  PetscCall(SbpProblemUseDevice(s->p, x, b, s->xw, &dev));
  if (!dev && !w) { /* the host sweeps need a residual vector; PCApply (and a caller of PCApplyRichardson) may give none */
    if (!s->w) PetscCall(VecDuplicate(x, &s->w));
    w = s->w;
  }
  if (its > 64) PetscCall(PetscMalloc1(2 * its, &c));
  SbpmgSmootherCoefficients(s, its, c);
  if (dev && s->pass_on > 1) {
    PetscCall(SbpmgSmootherPasses(s, x, b, its, guesszero, c));
    if (c != cbuf) PetscCall(PetscFree(c));
    *outits = its;
    *reason = PCRICHARDSON_CONVERGED_ITS;
    PetscFunctionReturn(0);
  }
  /* device: sweep k reads x_k (cur) and x_{k-1} (other) and writes x_{k+1} over x_{k-1}; the result ends in x or, after an odd
     count, in xw, and VecSwap (an exchange of buffers) moves it to x */
  cur  = x;
  next = s->xw;
  for (PetscInt k = 0; k < its; k++) {
    PetscBool zero = (k == 0 && guesszero) ? PETSC_TRUE : PETSC_FALSE;

    if (dev) {
      Vec t;
      PetscCall(SbpmgSmootherSweepDevice(s, cur, b, next, next, c[2 * k], c[2 * k + 1], zero, (k == 1 && guesszero) ? PETSC_TRUE : PETSC_FALSE));
      t    = cur;
      cur  = next;
      next = t;
    } else
      PetscCall(SbpmgSmootherSweepHost(pc, s, x, b, w, c[2 * k], c[2 * k + 1], zero));
  }
  if (c != cbuf) PetscCall(PetscFree(c));
  if (dev && cur != x) PetscCall(VecSwap(x, s->xw));
  *outits = its;
  *reason = PCRICHARDSON_CONVERGED_ITS;
  PetscFunctionReturn(0);
}

/* As a preconditioner on its own: one sweep from zero. */
static PetscErrorCode PCApply_SbpmgSmoother(PC pc, Vec b, Vec x)
{
  PetscInt                    its;
  PCRichardsonConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(PCApplyRichardson_SbpmgSmoother(pc, b, x, NULL, 0, 0, 0, 1, PETSC_TRUE, &its, &reason));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCView_SbpmgSmoother(PC pc, PetscViewer viewer)
{
  PC_SbpmgSmoother *s = (PC_SbpmgSmoother *)pc->data;
  PetscBool         isascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPushTab(viewer)); /* below PCView()'s "type:" line, as PETSc's own types print theirs */
  if (!s->p) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "sbpmg %s smoother, eigenvalue estimates (%" PetscInt_FMT " CG steps) made at set-up\n",
                                     PCSBPMGSmootherTypes[s->set.type], s->set.eig_its));
    PetscCall(PetscViewerASCIIPopTab(viewer));
    PetscFunctionReturn(0);
  }
  switch (s->set.type) {
  case PC_SBPMG_CHEBYSHEV:
    PetscCall(PetscViewerASCIIPrintf(
        viewer, "sbpmg Chebyshev smoother on D^-1 A: interval [%g, %g] = [%g, %g] * lambda_max, lambda_max estimate %g (%" PetscInt_FMT " CG steps)\n",
        (double)(s->set.lo * s->lmax), (double)(s->set.hi * s->lmax), (double)s->set.lo, (double)s->set.hi, (double)s->lmax, s->set.eig_its));
    break;
  case PC_SBPMG_JACOBI:
    PetscCall(PetscViewerASCIIPrintf(viewer, "sbpmg damped Jacobi smoother: omega %g (lambda_max(D^-1 A) estimate %g)\n", (double)s->omega, (double)s->lmax));
    break;
  case PC_SBPMG_RICHARDSON:
    PetscCall(PetscViewerASCIIPrintf(viewer, "sbpmg Richardson smoother: omega = 2/(lambda_min + lambda_max) = %g (estimates %g, %g)\n", (double)s->omega,
                                     (double)s->lmin, (double)s->lmax));
    break;
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "fused sweeps on the %s%s%s\n", s->p->use_device ? "device" : "host",
                                   s->p->use_device ? (s->set.single ? ", coefficients in fp32" : ", coefficients in fp64") : "",
                                   s->pass_on == 3   ? ", three per pass"
                                   : s->pass_on == 2 ? ", two per pass"
                                                     : ""));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCReset_SbpmgSmoother(PC pc)
{
  PC_SbpmgSmoother *s = (PC_SbpmgSmoother *)pc->data;

  PetscFunctionBegin;
  PetscCall(SbpmgSmootherClear(s));
  PetscCall(SbpProblemDestroy(&s->p));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCDestroy_SbpmgSmoother(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_SbpmgSmoother(pc));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(0);
}

/* Set the smoother's parameters (called by PCSBPMG for each level); the tuning rows mg_inline_diag, mg_sweeps_per_pass,
   mg_pass_wg_x and mg_pass_wg_y come from set->tune. */
PetscErrorCode PCSBPMGSmootherConfigure(PC pc, const PCSBPMGSmootherSettings *set)
{
  PC_SbpmgSmoother *s = (PC_SbpmgSmoother *)pc->data;

  PetscFunctionBegin;
  s->set      = *set;
  s->tune_set = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGSmootherGetEstimates(PC pc, PetscReal *lmin, PetscReal *lmax)
{
  PC_SbpmgSmoother *s = (PC_SbpmgSmoother *)pc->data;

  PetscFunctionBegin;
  if (lmin) *lmin = s->lmin;
  if (lmax) *lmax = s->lmax;
  PetscFunctionReturn(0);
}

/* Device sweeps per pass over the data (resolved at set-up: as configured on one rank where the level has the interior/rim split, else 1). */
PetscErrorCode PCSBPMGSmootherGetPass(PC pc, PetscInt *pass)
{
  PC_SbpmgSmoother *s = (PC_SbpmgSmoother *)pc->data;

  PetscFunctionBegin;
  *pass = s->pass_on;
  PetscFunctionReturn(0);
}

/*MC
   PCSBPMGSMOOTHER - "sbpmgsmoother": the level smoother PCSBPMG installs under KSPRICHARDSON. Its PCApplyRichardson runs nu fused
   sweeps (one pass each over the SBP-SAT operator's data) of Chebyshev on D^-1 A, damped Jacobi or Richardson. Configured by
   PCSBPMG from -pc_sbpmg_smoother, -pc_sbpmg_cheby_range, -pc_sbpmg_jacobi_omega and -pc_sbpmg_eig_its.

   Level: developer

.seealso: `PCSBPMG`
M*/
PetscErrorCode PCCreate_SBPMGSmoother(PC pc)
{
  PC_SbpmgSmoother *s;

  PetscFunctionBegin;
  PetscCall(PetscNew(&s));
  s->set.type              = PC_SBPMG_CHEBYSHEV;
  s->set.lo                = 0.1;
  s->set.hi                = 1.1;
  s->set.eig_its           = 10;
  pc->data                 = s;
  pc->ops->setup           = PCSetUp_SbpmgSmoother;
  pc->ops->apply           = PCApply_SbpmgSmoother;
  pc->ops->applyrichardson = PCApplyRichardson_SbpmgSmoother;
  pc->ops->view            = PCView_SbpmgSmoother;
  pc->ops->reset           = PCReset_SbpmgSmoother;
  pc->ops->destroy         = PCDestroy_SbpmgSmoother;
  PetscFunctionReturn(0);
}
