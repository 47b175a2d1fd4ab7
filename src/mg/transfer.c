/* Multigrid transfers as a MatShell (spec-sbp-sat.md 8.2-8.4): MatMult = bilinear prolongation P (coarse -> fine),
   MatMultTranspose = P^T (the restriction of the H-weighted residual, PCMG's default restriction). Device kernels
   (kernels/transfer.cl) when both vectors are device vectors (in fp32 when both are the single-precision V-cycle's level vectors, or
   when an fp32 fine level meets an fp64 coarsest level: converted through a coarse level vector), host loops over DMDA ghosted vectors
   otherwise. */
#include <sbpmg/private/mgimpl.h>
#include "sbpmg_kernel_args.h"

#include "../../kernels/transfer.cl"

typedef struct {
  SbpProblem fine, coarse;
  PetscBool  any;     /* the coarse grid is not the fine one's even nodes (sizes that do not halve, semi-coarsening) */
  cl_kernel  k[2][8]; /* the transfer kernels (MG_K_PROLONG .. MG_K_RESTRICT_ANY_PATCH) in fp64 and fp32, looked up on first use (owned by the
                         program cache) */
  Vec c32;            /* a level vector of the coarse grid: transfers between fp32 fine and fp64 coarse vectors (made on first use) */
} SbpTransfer;

/* The transfers' precision is their vectors': SBP_KERNEL_FP32 (the single-precision V-cycle's level vectors) or SBP_KERNEL_FP64. */
static PetscErrorCode SbpTransferKernel(SbpTransfer *t, SbpKernelPrecision prec, PCSBPMGKernel id, cl_kernel *k)
{
  cl_kernel *kk = &t->k[prec == SBP_KERNEL_FP32 ? 1 : 0][id - MG_K_PROLONG];

  PetscFunctionBegin;
  if (!*kk) PetscCall(PCSBPMGGetProblemKernel(t->fine, prec, &t->fine->tune, id, kk));
  *k = *kk;
  PetscFunctionReturn(0);
}

/* The arguments of kernels/transfer.cl's transfers by name (include/sbpmg/private/climpl.h SBPMG_CL_SET_ARGS): the fine grid's sizes as
   Nr, Ns or Nrf, Nsf, the coarse one's Nrc, Nsc; the input as xc (prolongations) or xf (restrictions), the output as yf or yc. */
typedef struct {
  SbpmgCLArgValue Nr, Ns, Nrf, Nsf, Nrc, Nsc, xc, xf, add, yf, yc, gh, own;
} SbpTransferArgs;

static PetscErrorCode SbpTransferSetArgs(SbpTransfer *t, cl_kernel k, PCSBPMGKernel id, cl_mem x, cl_mem y, PetscBool add, cl_int4 gh, cl_int4 own)
{
  const SbpTransferArgs a = {.Nr  = SbpmgCLArgInt((int)t->fine->Nr),
                             .Ns  = SbpmgCLArgInt((int)t->fine->Ns),
                             .Nrf = SbpmgCLArgInt((int)t->fine->Nr),
                             .Nsf = SbpmgCLArgInt((int)t->fine->Ns),
                             .Nrc = SbpmgCLArgInt((int)t->coarse->Nr),
                             .Nsc = SbpmgCLArgInt((int)t->coarse->Ns),
                             .xc  = SbpmgCLArgMem(x),
                             .xf  = SbpmgCLArgMem(x),
                             .add = SbpmgCLArgInt(add ? 1 : 0),
                             .yf  = SbpmgCLArgMem(y),
                             .yc  = SbpmgCLArgMem(y),
                             .gh  = SbpmgCLArgInt4(gh),
                             .own = SbpmgCLArgInt4(own)};

  PetscFunctionBegin;
  switch (id) {
  case MG_K_PROLONG:
    SBPMG_CL_SET_ARGS(k, mg_prolong, &a);
    break;
  case MG_K_RESTRICT:
    SBPMG_CL_SET_ARGS(k, mg_restrict, &a);
    break;
  case MG_K_PROLONG_PATCH:
    SBPMG_CL_SET_ARGS(k, mg_prolong_patch, &a);
    break;
  case MG_K_RESTRICT_PATCH:
    SBPMG_CL_SET_ARGS(k, mg_restrict_patch, &a);
    break;
  case MG_K_PROLONG_ANY:
    SBPMG_CL_SET_ARGS(k, mg_prolong_any, &a);
    break;
  case MG_K_RESTRICT_ANY:
    SBPMG_CL_SET_ARGS(k, mg_restrict_any, &a);
    break;
  case MG_K_PROLONG_ANY_PATCH:
    SBPMG_CL_SET_ARGS(k, mg_prolong_any_patch, &a);
    break;
  case MG_K_RESTRICT_ANY_PATCH:
    SBPMG_CL_SET_ARGS(k, mg_restrict_any_patch, &a);
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "Kernel %d is not a transfer", (int)id);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpTransferDestroy(void *ctx)
{
  SbpTransfer *t = (SbpTransfer *)ctx;

  PetscFunctionBegin;
  PetscCall(VecDestroy(&t->c32));
  PetscCall(SbpProblemDestroy(&t->fine));
  PetscCall(SbpProblemDestroy(&t->coarse));
  PetscCall(PetscFree(t));
  PetscFunctionReturn(0);
}

/* Several ranks: the input through the ghost exchange of its grid, then one launch over the owned block of the output grid. The
   transfer kernels read a quarter (prolongation) or the whole (restriction) of a fine vector and write the other, far less than a
   smoothing sweep, so they are not split into an interior and a rim to overlap the exchange (docs/design.md). */
static PetscErrorCode SbpTransferDevicePatch(SbpTransfer *t, SbpKernelPrecision prec, PetscBool prolong, Vec x, Vec y, PetscBool add)
{
  const PCSBPMGKernel id = t->any ? (prolong ? MG_K_PROLONG_ANY_PATCH : MG_K_RESTRICT_ANY_PATCH) : (prolong ? MG_K_PROLONG_PATCH : MG_K_RESTRICT_PATCH);
  SbpProblem          f = t->fine, in = prolong ? t->coarse : t->fine, out = prolong ? t->fine : t->coarse;
  cl_kernel           k = NULL;
  cl_mem              xb, yb;
  cl_int4             gh, own;
  size_t              global[2] = {(size_t)out->xm, (size_t)out->ym};
  PetscInt            nin = in->xm * in->ym, nout = out->xm * out->ym;
  SbpLevel            lv;
  SbpHalo             h;
  SbpBuffers          bufs = {0};

  PetscFunctionBegin;
  PetscCall(SbpTransferKernel(t, prec, id, &k));
  PetscCall(SbpProblemGetLevel(in, prec, &lv));
  PetscCall(SbpLevelGetHalo(lv, &h));
  PetscCall(SbpmgLogKernelBegin(SBPMG_MGTransfer));
  PetscCall(PCSBPMGBuffersGet(&bufs, x, SBP_READ, &xb));
  PetscCall(SbpHaloBeginBuffer(h, xb));
  PetscCall(SbpHaloEnd(h));
  PetscCall(PCSBPMGBuffersGet(&bufs, y, add ? SBP_READ_WRITE : SBP_WRITE, &yb));
  SbpProblemPatchBoxes(in, &gh, NULL);
  SbpProblemPatchBoxes(out, NULL, &own);
  PetscCall(SbpTransferSetArgs(t, k, id, h->patch, yb, add, gh, own));
  PetscCall(SbpProblemLaunch2D(f, k, global));
  PetscCall(PCSBPMGBuffersRestore(&bufs));
  PetscCall(SbpmgLogKernelEnd(SBPMG_MGTransfer, f->cl, 4.0 * nout,
                              (PetscLogDouble)(3 * nin + nout * (add ? 2 : 1)) * (prec == SBP_KERNEL_FP32 ? sizeof(float) : sizeof(PetscReal))));
  PetscFunctionReturn(0);
}

/* y = (add ? y : 0) + P x or P^T x on the device, in fp64 or (SBP_KERNEL_FP32) on level vectors in fp32. */
static PetscErrorCode SbpTransferDevice(SbpTransfer *t, SbpKernelPrecision prec, PetscBool prolong, Vec x, Vec y, PetscBool add)
{
  SbpProblem    f = t->fine;
  PCSBPMGKernel id;
  cl_kernel     k = NULL;
  cl_mem        xb, yb;
  cl_int4       none = {{0, 0, 0, 0}}; /* the one-rank kernels take no boxes */
  size_t        global[2];
  PetscInt      nout = prolong ? (f->Nr + 1) * (f->Ns + 1) : (f->Nr / 2 + 1) * (f->Ns / 2 + 1);
  PetscInt      nin  = prolong ? (f->Nr / 2 + 1) * (f->Ns / 2 + 1) : (f->Nr + 1) * (f->Ns + 1);
  SbpBuffers    bufs = {0};

  PetscFunctionBegin;
  if (add && prec == SBP_KERNEL_FP32) { /* adding to a level vector marked zero: a plain transfer */
    PCSBPMGVecState st;
    PetscCall(PCSBPMGVecGetState(y, &st));
    if (st == PCSBPMG_VEC_ZERO) add = PETSC_FALSE;
  }
  if (SbpProblemExchangesGhosts(f)) {
    PetscCall(SbpTransferDevicePatch(t, prec, prolong, x, y, add));
    PetscFunctionReturn(0);
  }
  id = t->any ? (prolong ? MG_K_PROLONG_ANY : MG_K_RESTRICT_ANY) : (prolong ? MG_K_PROLONG : MG_K_RESTRICT);
  PetscCall(SbpTransferKernel(t, prec, id, &k));
  PetscCall(SbpmgLogKernelBegin(SBPMG_MGTransfer));
  PetscCall(PCSBPMGBuffersGet(&bufs, x, SBP_READ, &xb));
  PetscCall(PCSBPMGBuffersGet(&bufs, y, add ? SBP_READ_WRITE : SBP_WRITE, &yb));
  PetscCall(SbpTransferSetArgs(t, k, id, xb, yb, add, none, none));
  if (t->any) { /* grids of any sizes: one work-item per output node */
    global[0] = (size_t)(prolong ? f->Nr : t->coarse->Nr) + 1;
    global[1] = (size_t)(prolong ? f->Ns : t->coarse->Ns) + 1;
    nout      = (PetscInt)(global[0] * global[1]);
    nin       = prolong ? (t->coarse->Nr + 1) * (t->coarse->Ns + 1) : (f->Nr + 1) * (f->Ns + 1);
  } else {
    global[0] = (size_t)f->Nr / 2 + 1; /* the prolongation takes two fine nodes per work-item along r */
    global[1] = prolong ? (size_t)f->Ns + 1 : (size_t)f->Ns / 2 + 1;
  }
  PetscCall(SbpProblemLaunch2D(f, k, global));
  PetscCall(PCSBPMGBuffersRestore(&bufs));
  PetscCall(SbpmgLogKernelEnd(SBPMG_MGTransfer, f->cl, 4.0 * nout,
                              (PetscLogDouble)(nin + nout * (add ? 2 : 1)) * (prec == SBP_KERNEL_FP32 ? sizeof(float) : sizeof(PetscReal))));
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpTransferHost(SbpTransfer *t, PetscBool prolong, Vec x, Vec y, PetscBool add)
{
  SbpProblem         in = prolong ? t->coarse : t->fine, out = prolong ? t->fine : t->coarse;
  Vec                xl;
  const PetscScalar *xa;
  PetscScalar      **ya;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SBPMG_MGTransfer, 0, 0, 0, 0));
  PetscCall(SbpProblemGetPatch(in, x, &xl, &xa));
  PetscCall(SbpProblemVecGetArray(out, y, PETSC_FALSE, &ya));
  for (PetscInt j = out->ys; j < out->ys + out->ym; j++)
    for (PetscInt i = out->xs; i < out->xs + out->xm; i++) {
      PetscReal v;
      if (t->any)
        v = prolong ? mg_prolong_any_point((int)i, (int)j, (int)out->Nr, (int)out->Ns, (int)in->Nr, (int)in->Ns, xa, in->gxs, in->gys, in->gxm)
                    : mg_restrict_any_point((int)i, (int)j, (int)in->Nr, (int)in->Ns, (int)out->Nr, (int)out->Ns, xa, in->gxs, in->gys, in->gxm);
      else
        v = prolong ? mg_prolong_point((int)i, (int)j, xa, in->gxs, in->gys, in->gxm)
                    : mg_restrict_point((int)i, (int)j, (int)in->Nr, (int)in->Ns, xa, in->gxs, in->gys, in->gxm);
      ya[j][i] = add ? ya[j][i] + v : v;
    }
  PetscCall(SbpProblemVecRestoreArray(out, y, PETSC_FALSE, &ya));
  PetscCall(SbpProblemRestorePatch(in, x, &xl, &xa));
  PetscCall(PetscLogEventEnd(SBPMG_MGTransfer, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpTransferApply(Mat P, PetscBool prolong, Vec x, Vec y, PetscBool add)
{
  SbpTransfer *t;
  PetscBool    dev, xs, ys;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(P, &t));
  PetscCall(PCSBPMGVecIsSingle(x, &xs));
  PetscCall(PCSBPMGVecIsSingle(y, &ys));
  if (xs != ys) { /* the single-precision V-cycle's fp32 fine level and its coarsest level in fp64 (PETSc's own coarse solver): through c32 */
    PetscCheck(prolong ? ys : xs && !add, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP,
               "A %s between a level vector of the single-precision V-cycle and a vector of type %s", prolong ? "prolongation" : "restriction",
               ((PetscObject)(xs ? y : x))->type_name);
    if (!t->c32) PetscCall(PCSBPMGVecCreate(t->coarse, &t->c32));
    if (prolong) {
      PetscCall(PCSBPMGVecFromDevice(t->c32, x));
      PetscCall(SbpTransferDevice(t, SBP_KERNEL_FP32, PETSC_TRUE, t->c32, y, add));
    } else {
      PetscCall(SbpTransferDevice(t, SBP_KERNEL_FP32, PETSC_FALSE, x, t->c32, PETSC_FALSE));
      PetscCall(PCSBPMGVecToDevice(t->c32, y));
    }
    PetscFunctionReturn(0);
  }
  PetscCall(SbpProblemUseDevice(t->fine, x, y, NULL, &dev));
  if (dev || xs)
    PetscCall(SbpTransferDevice(t, xs ? SBP_KERNEL_FP32 : SBP_KERNEL_FP64, prolong, x, y, add));
  else
    PetscCall(SbpTransferHost(t, prolong, x, y, add));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMult_SbpProlong(Mat P, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(SbpTransferApply(P, PETSC_TRUE, x, y, PETSC_FALSE));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultTranspose_SbpProlong(Mat P, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(SbpTransferApply(P, PETSC_FALSE, x, y, PETSC_FALSE));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultAdd_SbpProlong(Mat P, Vec x, Vec y, Vec z)
{
  PetscFunctionBegin;
  if (y != z) PetscCall(VecCopy(y, z));
  PetscCall(SbpTransferApply(P, PETSC_TRUE, x, z, PETSC_TRUE));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultTransposeAdd_SbpProlong(Mat P, Vec x, Vec y, Vec z)
{
  PetscFunctionBegin;
  if (y != z) PetscCall(VecCopy(y, z));
  PetscCall(SbpTransferApply(P, PETSC_FALSE, x, z, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/* Along one direction of Nf fine and Nc coarse intervals, the nodes a block of nodes [n0, n1] reads through the coarse hats
   (kernels/transfer.cl: fine i and coarse ic interact where |i Nc - ic Nf| < Nf): P from the fine block reads coarse
   (i Nc / Nf - 1, i Nc / Nf + 1), P^T from the coarse block reads fine ((ic - 1) Nf / Nc, (ic + 1) Nf / Nc), open intervals. */
static void SbpTransferReads(PetscBool prolong, PetscInt n0, PetscInt n1, PetscInt Nf, PetscInt Nc, PetscInt *lo, PetscInt *hi)
{
  if (prolong) {
    *lo = n0 * Nc / Nf;
    *hi = PetscMin((n1 * Nc + Nf - 1) / Nf, Nc);
  } else {
    *lo = n0 > 0 ? (n0 - 1) * Nf / Nc + 1 : 0;
    *hi = PetscMin(((n1 + 1) * Nf + Nc - 1) / Nc - 1, Nf);
  }
}

/*@C
   SbpProblemCreateProlongation - The bilinear prolongation from the coarse problem's grid to the fine one's as a MatShell
   (MatMult prolongs, MatMultTranspose restricts with P^T); the coarse grid must be the even nodes of the fine one or, on one rank,
   SbpProblemCoarsen()'s grid of sizes that do not halve (linear interpolation between the uniform reference grids).

   Collective

   Level: intermediate
@*/
PetscErrorCode SbpProblemCreateProlongation(SbpProblem coarse, SbpProblem fine, Mat *P)
{
  SbpTransfer *t;

  PetscFunctionBegin;
  PetscCheck(coarse->setupcalled && fine->setupcalled, PetscObjectComm((PetscObject)fine), PETSC_ERR_ORDER, "Set both problems up first");
  {
    PetscInt Nrc, Nsc;
    PetscCall(SbpProblemCoarseSizes(fine, fine->Nr, fine->Ns, &Nrc, &Nsc));
    PetscCheck((fine->Nr == 2 * coarse->Nr && fine->Ns == 2 * coarse->Ns) || (coarse->Nr == Nrc && coarse->Ns == Nsc && (Nrc < fine->Nr || Nsc < fine->Ns)),
               PetscObjectComm((PetscObject)fine), PETSC_ERR_ARG_SIZ,
               "The coarse grid %" PetscInt_FMT " x %" PetscInt_FMT " is not the coarsening of the fine grid %" PetscInt_FMT " x %" PetscInt_FMT
               " (its even nodes, or %" PetscInt_FMT " x %" PetscInt_FMT ": SbpProblemCoarsen())",
               coarse->Nr, coarse->Ns, fine->Nr, fine->Ns, Nrc, Nsc);
  }
  PetscCheck(coarse->use_device == fine->use_device, PetscObjectComm((PetscObject)fine), PETSC_ERR_ARG_INCOMP, "The two problems have different backends");
  {
    /* each rank's transfers read only the ghosted patch of the input grid (both paths rely on it; the ranges of SbpProblemCoarsen()
       give it, other layouts need not) */
    PetscInt    bad = 0, anybad, lo[2], hi[2];
    PetscMPIInt size;
    SbpTransferReads(PETSC_TRUE, fine->xs, fine->xs + fine->xm - 1, fine->Nr, coarse->Nr, &lo[0], &hi[0]);
    SbpTransferReads(PETSC_TRUE, fine->ys, fine->ys + fine->ym - 1, fine->Ns, coarse->Ns, &lo[1], &hi[1]);
    if (lo[0] < coarse->gxs || hi[0] >= coarse->gxs + coarse->gxm || lo[1] < coarse->gys || hi[1] >= coarse->gys + coarse->gym) bad = 1;
    SbpTransferReads(PETSC_FALSE, coarse->xs, coarse->xs + coarse->xm - 1, fine->Nr, coarse->Nr, &lo[0], &hi[0]);
    SbpTransferReads(PETSC_FALSE, coarse->ys, coarse->ys + coarse->ym - 1, fine->Ns, coarse->Ns, &lo[1], &hi[1]);
    if (lo[0] < fine->gxs || hi[0] >= fine->gxs + fine->gxm || lo[1] < fine->gys || hi[1] >= fine->gys + fine->gym) bad = 1;
    PetscCall(MPIU_Allreduce(&bad, &anybad, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)fine)));
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)fine), &size));
    PetscCheck(
        !anybad, PetscObjectComm((PetscObject)fine), PETSC_ERR_ARG_INCOMP,
        "The ownership of the coarse grid %" PetscInt_FMT " x %" PetscInt_FMT
        " on %d MPI ranks does not match the fine grid's: a transfer would read beyond the ghost points; create the coarse problem with SbpProblemCoarsen()",
        coarse->Nr, coarse->Ns, size);
  }
  PetscCall(PetscNew(&t));
  t->fine   = fine;
  t->coarse = coarse;
  t->any    = fine->Nr == 2 * coarse->Nr && fine->Ns == 2 * coarse->Ns ? PETSC_FALSE : PETSC_TRUE;
  PetscCall(PetscObjectReference((PetscObject)fine));
  PetscCall(PetscObjectReference((PetscObject)coarse));
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)fine), fine->xm * fine->ym, coarse->xm * coarse->ym, (fine->Nr + 1) * (fine->Ns + 1),
                           (coarse->Nr + 1) * (coarse->Ns + 1), t, P));
  PetscCall(MatShellSetContextDestroy(*P, SbpTransferDestroy));
  PetscCall(MatShellSetVecType(*P, fine->use_device ? VECOPENCL : VECSTANDARD));
  PetscCall(MatShellSetOperation(*P, MATOP_MULT, (void (*)(void))MatMult_SbpProlong));
  PetscCall(MatShellSetOperation(*P, MATOP_MULT_TRANSPOSE, (void (*)(void))MatMultTranspose_SbpProlong));
  PetscCall(MatShellSetOperation(*P, MATOP_MULT_ADD, (void (*)(void))MatMultAdd_SbpProlong));
  PetscCall(MatShellSetOperation(*P, MATOP_MULT_TRANSPOSE_ADD, (void (*)(void))MatMultTransposeAdd_SbpProlong));
  PetscFunctionReturn(0);
}
