/* PCSBPMG's cycle: PCMG runs it (V, W, full, Kaskade, additive) on the levels' operators, transfers and smoothers; this file gives it
   the level residual in the levels' precision and, for the single-precision V-cycle, the application that stands the finest level's
   fp32 vectors in for CG's fp64 ones (docs/design.md "The single-precision V-cycle"). */
#include <sbpmg/private/mgimpl.h>
#include "sbpmg_kernel_args.h"

/* r = b - M~ x in the precision of the level lv (fp32 on the single-precision V-cycle's level vectors; fp64 vectors with fp32 or fp64
   coefficients) by the level's sweep kernels in their residual mode (kernels/smooth.cl io 4), so that the program "sbp+smooth" holds no
   apply of kernels/sbp.cl (src/mg/kernels.c) and the residual is the sweeps' operator; on several ranks x goes through the level's ghost
   exchange of that precision (x is argument 7, the region's arguments start at 21, as in src/mg/sweeps.c). */
PetscErrorCode PCSBPMGLevelResidual(SbpLevel lv, Vec b, Vec x, Vec r)
{
  const SbpProblem         p     = lv->problem;
  const SbpKernelPrecision prec  = lv->prec;
  cl_kernel                ks[2] = {NULL, NULL};
  cl_mem                   xb, rb;
  int                      zero = 0, prev_zero = 1, io = 4;
  const PetscBool          ghosts = SbpProblemExchangesGhosts(p);
  PetscBool                lean   = ghosts || p->split_on ? PETSC_TRUE : PETSC_FALSE; /* the lean interior kernel runs */
  PetscLogDouble           n      = (PetscLogDouble)p->xm * p->ym;
  size_t                   vs = prec == SBP_KERNEL_FP32 ? sizeof(float) : sizeof(PetscReal), cs = prec == SBP_KERNEL_FP64 ? sizeof(PetscReal) : sizeof(float);
  SbpHalo                  h    = NULL;
  SbpBuffers               bufs = {0};
  PCSBPMGSweep             w    = {0};

  PetscFunctionBegin;
  PetscCall(PCSBPMGGetKernel(lv, &p->tune, MG_K_SMOOTH_PATCH, &ks[0]));
  if (lean) PetscCall(PCSBPMGGetKernel(lv, &p->tune, MG_K_SMOOTH_INNER, &ks[1]));
  w.Nr  = (int)p->Nr;
  w.Ns  = (int)p->Ns;
  w.rho = p->rho;
  PetscCall(SbpProblemBCFlags(p, &w.flags));
  PetscCall(SbpLevelGetCoefficientBuffers(lv, &w.ca, &w.cb, &w.cc));
  PetscCall(SbpmgLogKernelBegin(SBPMG_SbpApply));
  PetscCall(PCSBPMGBuffersGet(&bufs, x, SBP_READ, &xb));
  PetscCall(PCSBPMGBuffersGet(&bufs, b, SBP_READ, &w.bb));
  PetscCall(PCSBPMGBuffersGet(&bufs, r, SBP_WRITE, &rb));
  /* jacobi 0, c1 0, c2 1, the previous iterate zero: only x, b and the coefficients are read; the buffers not read or written in this
     mode (dinv, prev, rhs64, rhs_copy, out64) are b's and r's */
  w.db = w.rhs64 = w.bb;
  w.out64        = rb;
  for (int t = 0; t < (lean ? 2 : 1); t++)
    PetscCall(PCSBPMGSweepArgs(prec, t ? MG_K_SMOOTH_INNER : MG_K_SMOOTH_PATCH, ks[t], &w, xb, rb, rb, 0.0, 1.0, zero, prev_zero, io));
  if (ghosts) PetscCall(SbpLevelGetHalo(lv, &h)); /* several ranks: the exchange in the level's precision */
  if (h)
    PetscCall(SbpProblemLaunchExchangedBuffer(p, h, xb, ks[0], ks[1], SBPMG_KERNEL_ARG_mg_smooth_patch_x, SBPMG_KERNEL_ARG_mg_smooth_patch_gh));
  else
    PetscCall(SbpProblemLaunchOwned(p, ks[0], ks[1], SBPMG_KERNEL_ARG_mg_smooth_patch_gh));
  PetscCall(PCSBPMGBuffersRestore(&bufs));
  /* x, b, r and the coefficients; on several ranks the patch copy too */
  PetscCall(SbpmgLogKernelEnd(SBPMG_SbpApply, p->cl, 41 * n, n * (vs * (h ? 5 : 3) + 3 * cs)));
  PetscFunctionReturn(0);
}

/* PCMG's level residual r = b - A x in the level's precision: on the single-precision V-cycle's level vectors in fp32, else with the
   coefficients in fp32 (-pc_sbpmg_coef_fp32): the operator of the level's sweeps, so the V-cycle stays a symmetric preconditioner (of
   the operator with rounded coefficients, within 1e-7 of A). Host vectors take MatResidual. */
PetscErrorCode PCSBPMGResidual(Mat A, Vec b, Vec x, Vec r)
{
  SbpProblem p;
  SbpLevel   lv;
  PetscBool  dev, single;

  PetscFunctionBegin;
  PetscCall(MatGetSbpProblem(A, &p));
  PetscCall(PCSBPMGVecIsSingle(r, &single));
  if (single) {
    PetscCall(SbpProblemGetLevel(p, SBP_KERNEL_FP32, &lv));
    PetscCall(PCSBPMGLevelResidual(lv, b, x, r));
    PetscFunctionReturn(0);
  }
  PetscCall(SbpProblemUseDevice(p, x, b, r, &dev));
  if (dev)
    PetscCall(SbpProblemApplyDevice(p, x, b, -1.0, r, SBP_KERNEL_COEF32));
  else
    PetscCall(MatResidual(A, b, x, r));
  PetscFunctionReturn(0);
}

/* PCMG's application. The single-precision V-cycle runs it on the finest level's level vectors: b's fp64 source (converted by the
   first sweep), x's fp64 target, written by the smoother application that ends the cycle: in PCMG's multiplicative cycles the
   finest level is smoothed twice per cycle, so the last of 2 x cycles; the other cycle types (additive, full, Kaskade) end with the
   result in fp32, converted once. */
/* PCMG's application leaves its finest level pointing at the vectors it was given (holding no reference) when it fails midway, and
   PCReset_MG() would then destroy them: forgotten here, so an error in a cycle is followed by a clean destroy. */
static PetscErrorCode PCSBPMGApplyMG(PC pc, Vec b, Vec x)
{
  PC_SBPMG      *sb = PCSBPMGGetContext(pc);
  PC_MG         *mg = (PC_MG *)pc->data;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ierr = (*sb->mg_apply)(pc, b, x);
  if (ierr && mg->levels) {
    PC_MG_Levels *fine = mg->levels[mg->nlevels - 1];
    if (fine->b == b) fine->b = NULL;
    if (fine->x == x) fine->x = NULL;
  }
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

PetscErrorCode PCApply_SBPMG(PC pc, Vec b, Vec x)
{
  PC_SBPMG *sb = PCSBPMGGetContext(pc);
  PC_MG    *mg = (PC_MG *)pc->data;

  PetscFunctionBegin;
  if (!sb->single) {
    PetscCall(PCSBPMGApplyMG(pc, b, x));
    PetscFunctionReturn(0);
  }
  PetscCall(PCSBPMGVecSetSource(sb->bf, b));
  PetscCall(PCSBPMGVecSetTarget(sb->xf, x, mg->am == PC_MG_MULTIPLICATIVE ? 2 * mg->cyclesperpcapply : 0));
  PetscCall(PCSBPMGApplyMG(pc, sb->bf, sb->xf));
  PetscCall(PCSBPMGVecFinish(sb->xf));
  PetscCall(PCSBPMGVecFinish(sb->bf));
  PetscCall(PetscObjectStateIncrease((PetscObject)x));
  PetscFunctionReturn(0);
}
