/* PCSBPMG's coarse solve (docs/design.md "The coarse solve on the device"): on one rank with the device backend, the dense inverse of the
   coarsest level's assembled operator, made once at set-up (its banded Cholesky factor on the host, the columns of the inverse on the
   device) and applied on the device by one launch
   (kernels/dense.cl), so no V-cycle waits for the host; otherwise, or where -pc_sbpmg_coarse_solve cholmod says so, CHOLMOD's factor
   on the host (PCREDUNDANT around it on several ranks: every rank factors the gathered coarse problem). */
#include <sbpmg/private/mgimpl.h>
#include "sbpmg_kernel_args.h"

const char *const PCSBPMGCoarseSolveTypes[] = {"auto", "dense", "cholmod", "PCSBPMGCoarseSolveType", "PC_SBPMG_COARSE_", NULL};

/* The largest coarse grid the dense inverse takes when asked for (n^2 values: 143 MB in fp64 at 65^2 nodes, 4 GB at 129^2) */
#define PCSBPMG_DENSE_MAX 4225

/* ---------------------------------------------------------------- the dense inverse */

typedef struct {
  SbpProblem   p;      /* the coarsest level (holds a reference) */
  SbpmgTuning  tune;   /* the PC's (mg_dense_wg) */
  PetscInt     n;      /* its unknowns */
  PetscScalar *host;   /* A_c^-1 in fp64 on the host, read on first use (the host path) */
  cl_mem       inv[2]; /* A_c^-1 on the device in fp64 (row-major; symmetric) and in fp32 (made on first use) */
} PCSBPMGDense;

/* The banded Cholesky factor of the SPD matrix A (sequential AIJ of the coarse grid, natural order: half-bandwidth b about twice the grid
   points along r): L(i, k) at lb[i (b + 1) + i - k], n b^2 / 2 multiply-adds (9 million at 65^2 nodes, b = 66). A pivot that is not positive is
   an error naming the grid: the operator is not positive definite. */
static PetscErrorCode PCSBPMGBandFactor(Mat A, SbpProblem p, PetscInt *bw, PetscScalar **lbo)
{
  PetscInt     n, b = 0, w;
  PetscScalar *lb;

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &n, NULL));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt        nc;
    const PetscInt *cols;
    PetscCall(MatGetRow(A, i, &nc, &cols, NULL));
    for (PetscInt c = 0; c < nc; c++) b = PetscMax(b, PetscAbsInt(i - cols[c]));
    PetscCall(MatRestoreRow(A, i, &nc, &cols, NULL));
  }
  w = b + 1;
  PetscCall(PetscCalloc1((size_t)n * w, &lb));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt           nc;
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscCall(MatGetRow(A, i, &nc, &cols, &vals));
    for (PetscInt c = 0; c < nc; c++)
      if (cols[c] <= i) lb[(size_t)i * w + (i - cols[c])] = vals[c];
    PetscCall(MatRestoreRow(A, i, &nc, &cols, &vals));
  }
#define LB(i, k) lb[(size_t)(i)*w + ((i) - (k))]
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = PetscMax(0, i - b); j <= i; j++) {
      PetscScalar s = LB(i, j);
      for (PetscInt k = PetscMax(0, i - b); k < j; k++) s -= LB(i, k) * LB(j, k);
      if (j < i)
        LB(i, j) = s / LB(j, j);
      else {
        if (!(PetscRealPart(s) > 0)) PetscCall(PetscFree(lb));
        PetscCheck(PetscRealPart(s) > 0, PETSC_COMM_SELF, PETSC_ERR_MAT_CH_ZRPVT,
                   "The coarse operator of the %" PetscInt_FMT " x %" PetscInt_FMT
                   " grid cannot be factored for the dense coarse solve: pivot %g at row %" PetscInt_FMT " (it is not positive definite)",
                   p->Nr, p->Ns, (double)PetscRealPart(s), i);
        LB(i, i) = PetscSqrtScalar(s);
      }
    }
#undef LB
  *bw  = b;
  *lbo = lb;
  PetscFunctionReturn(0);
}

/* A_c^-1 in fp64 on the device into d->inv[0]: the band factor uploaded, the columns solved by mg_dense_invert (tuning mg_invert_cols
   columns of mg_invert_lanes work-items per work-group). */
/* kernels/dense.cl mg_dense_invert's arguments by name: the n x n inverse into X from the band factor lb of half-bandwidth b */
static PetscErrorCode PCSBPMGDenseInvertArgs(cl_kernel k, int n, int b, cl_mem lb, cl_mem X)
{
  const struct {
    SbpmgCLArgValue n, b, lb, X;
  } a = {.n = SbpmgCLArgInt(n), .b = SbpmgCLArgInt(b), .lb = SbpmgCLArgMem(lb), .X = SbpmgCLArgMem(X)};

  PetscFunctionBegin;
  SBPMG_CL_SET_ARGS(k, mg_dense_invert, &a);
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSBPMGDenseInverse(PCSBPMGDense *d, Mat A)
{
  PetscInt       b   = 0;
  PetscScalar   *lb  = NULL;
  cl_mem         lbb = NULL;
  cl_kernel      k;
  int            n = (int)d->n, ib;
  PetscLogDouble t0, t1, t2;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCheck(d->p->cl->fp64, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "The dense coarse solve needs fp64 on the device to make the inverse: use -pc_sbpmg_coarse_solve cholmod");
  PetscCall(PetscTime(&t0));
  PetscCall(PCSBPMGBandFactor(A, d->p, &b, &lb));
  PetscCall(PetscTime(&t1));
  ib   = (int)b;
  ierr = PCSBPMGGetProblemKernel(d->p, SBP_KERNEL_FP64, &d->tune, MG_K_DENSE_INVERT, &k);
  if (!ierr) ierr = SbpmgCLCreateBuffer(d->p->cl, CL_MEM_READ_ONLY, (size_t)d->n * (b + 1) * sizeof(PetscScalar), &lbb);
  if (!ierr) ierr = SbpmgCLWriteBuffer(d->p->cl, lbb, 0, (size_t)d->n * (b + 1) * sizeof(PetscScalar), lb);
  if (!ierr) ierr = SbpmgCLCreateBuffer(d->p->cl, CL_MEM_READ_WRITE, (size_t)d->n * d->n * sizeof(PetscScalar), &d->inv[0]);
  if (!ierr) ierr = PCSBPMGDenseInvertArgs(k, n, ib, lbb, d->inv[0]);
  if (!ierr) {
    const size_t cols = (size_t)d->tune.mg_invert_cols, lanes = (size_t)d->tune.mg_invert_lanes;
    const size_t global[2] = {(size_t)((d->n + cols - 1) / cols) * cols, lanes}, local[2] = {cols, lanes};
    ierr = SbpmgCLLaunch2D(d->p->cl, k, global, local);
  }
  if (!ierr) ierr = SbpmgCLFinish(d->p->cl); /* the band factor goes at once */
  if (lbb) PetscCall(SbpmgCLReleaseBuffer(d->p->cl, &lbb));
  PetscCall(PetscFree(lb));
  PetscCall(ierr);
  PetscCall(PetscTime(&t2));
  PetscCall(PetscInfo(NULL, "dense coarse inverse of %d unknowns, half-bandwidth %d: band factor %.2f ms (host), columns %.2f ms (device)\n", n, ib,
                      1e3 * (t1 - t0), 1e3 * (t2 - t1)));
  PetscCall(PetscLogFlops(1.5 * (PetscLogDouble)d->n * d->n * 2.0 * b));
  PetscFunctionReturn(0);
}

/* The fp64 inverse on the host, read from the device on first use (vectors that are not device vectors). */
static PetscErrorCode PCSBPMGDenseHost(PCSBPMGDense *d)
{
  PetscFunctionBegin;
  if (d->host) PetscFunctionReturn(0);
  PetscCall(PetscMalloc1((size_t)d->n * d->n, &d->host));
  PetscCall(SbpmgCLReadBuffer(d->p->cl, d->inv[0], 0, (size_t)d->n * d->n * sizeof(PetscScalar), d->host));
  PetscFunctionReturn(0);
}

/* The inverse on the device in the precision of the vectors (fp32: the single-precision V-cycle's level vectors, rounded from the fp64
   one by mg_to_single on first use). */
static PetscErrorCode PCSBPMGDenseBuffer(PCSBPMGDense *d, PetscBool single, cl_mem *inv)
{
  PetscFunctionBegin;
  if (single && !d->inv[1]) {
    const int nn = (int)(d->n * d->n);
    cl_kernel k;
    PetscCall(PCSBPMGGetProblemKernel(d->p, SBP_KERNEL_FP32, &d->tune, MG_K_TO_SINGLE, &k));
    PetscCall(SbpmgCLCreateBuffer(d->p->cl, CL_MEM_READ_WRITE, (size_t)nn * sizeof(float), &d->inv[1]));
    {
      const struct {
        SbpmgCLArgValue n, x, y;
      } a = {.n = SbpmgCLArgInt(nn), .x = SbpmgCLArgMem(d->inv[0]), .y = SbpmgCLArgMem(d->inv[1])};
      SBPMG_CL_SET_ARGS(k, mg_to_single, &a);
    }
    PetscCall(SbpmgCLLaunch1DGuarded(d->p->cl, k, (size_t)nn));
  }
  *inv = d->inv[single];
  PetscFunctionReturn(0);
}

/* x = A_c^-1 b: on the device for level vectors and device vectors (one launch of mg_dense_apply, no host wait), on the host otherwise. */
static PetscErrorCode PCApply_SBPMGDense(PC pc, Vec b, Vec x)
{
  PCSBPMGDense *d;
  PetscBool     single, dev;

  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &d));
  PetscCall(PCSBPMGVecIsSingle(b, &single));
  if (single)
    dev = PETSC_TRUE;
  else
    PetscCall(SbpProblemUseDevice(d->p, b, x, NULL, &dev));
  PetscCall(PetscLogEventBegin(SBPMG_MGCoarse, pc, b, x, 0));
  if (dev) {
    const SbpKernelPrecision prec = single ? SBP_KERNEL_FP32 : SBP_KERNEL_FP64;
    const size_t             rs = single ? sizeof(float) : sizeof(PetscScalar), wg = (size_t)d->tune.mg_dense_wg;
    const int                n = (int)d->n;
    cl_kernel                k;
    cl_mem                   inv = NULL, bb = NULL, xb = NULL;
    SbpBuffers               bufs = {0};

    PetscCall(PCSBPMGGetProblemKernel(d->p, prec, &d->tune, MG_K_DENSE_APPLY, &k));
    PetscCall(PCSBPMGDenseBuffer(d, single, &inv));
    PetscCall(SbpmgLogKernelBegin(SBPMG_MGCoarse));
    PetscCall(PCSBPMGBuffersGet(&bufs, b, SBP_READ, &bb));
    PetscCall(PCSBPMGBuffersGet(&bufs, x, SBP_WRITE, &xb));
    {
      const struct {
        SbpmgCLArgValue n, inv, b, x;
      } a = {.n = SbpmgCLArgInt(n), .inv = SbpmgCLArgMem(inv), .b = SbpmgCLArgMem(bb), .x = SbpmgCLArgMem(xb)};
      SBPMG_CL_SET_ARGS(k, mg_dense_apply, &a);
    }
    PetscCall(SbpmgCLLaunch1D(d->p->cl, k, (size_t)n * wg, wg));
    PetscCall(PCSBPMGBuffersRestore(&bufs));
    PetscCall(SbpmgLogKernelEnd(SBPMG_MGCoarse, d->p->cl, 2.0 * n * n, ((PetscLogDouble)n * n + 2.0 * n) * rs));
  } else {
    const PetscScalar *ba;
    PetscScalar       *xa;
    PetscCall(PCSBPMGDenseHost(d));
    PetscCall(VecGetArrayRead(b, &ba));
    PetscCall(VecGetArrayWrite(x, &xa));
    for (PetscInt i = 0; i < d->n; i++) {
      const PetscScalar *a = d->host + (size_t)i * d->n;
      PetscScalar        s = 0;
      for (PetscInt j = 0; j < d->n; j++) s += a[j] * ba[j];
      xa[i] = s;
    }
    PetscCall(VecRestoreArrayWrite(x, &xa));
    PetscCall(VecRestoreArrayRead(b, &ba));
    PetscCall(PetscLogFlops(2.0 * d->n * d->n));
  }
  PetscCall(PetscLogEventEnd(SBPMG_MGCoarse, pc, b, x, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCView_SBPMGDense(PC pc, PetscViewer viewer)
{
  PCSBPMGDense *d;
  PetscBool     isascii;

  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &d));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (isascii)
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "the dense inverse of the assembled %" PetscInt_FMT " x %" PetscInt_FMT " coarse operator (%" PetscInt_FMT
                                     " unknowns) on the device, one launch per solve (-pc_sbpmg_coarse_solve dense)\n",
                                     d->p->Nr, d->p->Ns, d->n));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCDestroy_SBPMGDense(PC pc)
{
  PCSBPMGDense *d;

  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &d));
  if (!d) PetscFunctionReturn(0);
  for (int q = 0; q < 2; q++)
    if (d->inv[q]) PetscCall(SbpmgCLReleaseBuffer(d->p->cl, &d->inv[q]));
  PetscCall(PetscFree(d->host));
  PetscCall(SbpProblemDestroy(&d->p));
  PetscCall(PetscFree(d));
  PetscCall(PCShellSetContext(pc, NULL));
  PetscFunctionReturn(0);
}

/* The coarse PC cpc as the dense inverse of A (the assembled operator of the coarsest level p), launched with the PC's tuning. */
static PetscErrorCode PCSBPMGDenseSetUp(PC cpc, SbpProblem p, const SbpmgTuning *tune, Mat A)
{
  PCSBPMGDense *d;
  size_t        wg = (size_t)tune->mg_dense_wg, lanes = (size_t)tune->mg_invert_lanes;

  PetscFunctionBegin;
  PetscCheck(wg && !(wg & (wg - 1)) && (!p->cl->max_work_group_size || wg <= p->cl->max_work_group_size), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Tuning mg_dense_wg %zu must be a power of two and at most the device's work-group limit %zu", wg, p->cl->max_work_group_size);
  PetscCheck(!(lanes & (lanes - 1)) && (!p->cl->max_work_group_size || lanes * tune->mg_invert_cols <= p->cl->max_work_group_size), PETSC_COMM_SELF,
             PETSC_ERR_ARG_OUTOFRANGE,
             "Tuning mg_invert_lanes %zu must be a power of two, and mg_invert_cols x mg_invert_lanes = %zu at most the device's work-group limit %zu", lanes,
             lanes * tune->mg_invert_cols, p->cl->max_work_group_size);
  /* a PC of the same type keeps its context: PCNONE first, so that a shell made before (a new operator) destroys its own */
  PetscCall(PCSetType(cpc, PCNONE));
  PetscCall(PCSetType(cpc, PCSHELL));
  PetscCall(PetscNew(&d));
  d->p    = p;
  d->tune = *tune;
  PetscCall(PetscObjectReference((PetscObject)p));
  PetscCall(MatGetSize(A, &d->n, NULL));
  PetscCall(PCShellSetContext(cpc, d));
  PetscCall(PCShellSetDestroy(cpc, PCDestroy_SBPMGDense));
  PetscCall(PCShellSetApply(cpc, PCApply_SBPMGDense));
  PetscCall(PCShellSetView(cpc, PCView_SBPMGDense));
  PetscCall(PCShellSetName(cpc, "sbpmg dense coarse solve"));
  PetscCall(PCSBPMGDenseInverse(d, A));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- CHOLMOD */

/* CHOLMOD's simplicial factor for the coarse solve unless the options name one: with the reference BLAS of Debian's PETSc, its solve
   on a 129^2 coarse grid takes half the time of the supernodal one (docs/performance.md, fourth pass). CHOLMOD reads its settings
   only from the options database when the factor is created, so the option is set for the set-up and removed after it. */
static PetscErrorCode PCSBPMGDefaultCholmodFactor(PC_SBPMG *sb, PC fpc)
{
  const char *prefix;
  PetscBool   set;

  PetscFunctionBegin;
  PetscCall(PCGetOptionsPrefix(fpc, &prefix));
  PetscCall(PetscOptionsHasName(((PetscObject)fpc)->options, prefix, "-mat_cholmod_factor", &set));
  if (set) PetscFunctionReturn(0);
  PetscCall(PetscSNPrintf(sb->cholmod_opt, sizeof(sb->cholmod_opt), "-%smat_cholmod_factor", prefix ? prefix : ""));
  PetscCall(PetscOptionsSetValue(((PetscObject)fpc)->options, sb->cholmod_opt, "SIMPLICIAL"));
  /* marked used at once: when the set-up fails before the option is removed, PETSc's error report and -options_left must not show
     the user an option the user never gave as "Option left" */
  PetscCall(PetscOptionsHasName(((PetscObject)fpc)->options, NULL, sb->cholmod_opt, &set));
  PetscFunctionReturn(0);
}

/* Remove the option of PCSBPMGDefaultCholmodFactor() once the factor exists (or the set-up failed). */
PetscErrorCode PCSBPMGClearCholmodOption(PC pc, PC_SBPMG *sb)
{
  PetscFunctionBegin;
  if (!sb->cholmod_opt[0]) PetscFunctionReturn(0);
  PetscCall(PetscOptionsClearValue(((PetscObject)pc)->options, sb->cholmod_opt));
  sb->cholmod_opt[0] = 0;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the choice */

/*
  PCSBPMGResolveCoarseSolve - Whether the coarse grid of n nodes of the hierarchy of fine is solved by the dense inverse on the device:
  dense where asked for, auto where one rank holds a device problem and n is at most tuning mg_coarse_dense; dense asked for where it
  cannot run is an error naming the cause. Collective.
*/
PetscErrorCode PCSBPMGResolveCoarseSolve(PC pc, PC_SBPMG *sb, SbpProblem fine, PetscInt n, PetscBool *dense)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)pc);
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  *dense = PETSC_FALSE;
  if (sb->coarse_solve == PC_SBPMG_COARSE_CHOLMOD) PetscFunctionReturn(0);
  if (sb->coarse_solve == PC_SBPMG_COARSE_DENSE) {
    PetscCheck(size == 1, comm, PETSC_ERR_SUP,
               "-pc_sbpmg_coarse_solve dense needs one MPI rank: on %d ranks the coarse problem is gathered onto every rank for CHOLMOD (use auto or cholmod)",
               size);
    PetscCheck(fine->use_device, comm, PETSC_ERR_SUP,
               "-pc_sbpmg_coarse_solve dense needs the device backend: this problem runs on the host (use auto or cholmod)");
    PetscCheck(n <= PCSBPMG_DENSE_MAX, comm, PETSC_ERR_ARG_OUTOFRANGE,
               "-pc_sbpmg_coarse_solve dense: the coarse grid has %" PetscInt_FMT " nodes, more than the dense inverse takes (%d, a 65 x 65 grid); "
               "use a smaller -pc_sbpmg_coarse_size or cholmod",
               n, PCSBPMG_DENSE_MAX);
    *dense = PETSC_TRUE;
  } else
    *dense = size == 1 && fine->use_device && n <= sb->tune.mg_coarse_dense ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* The coarse KSP: one application of the dense inverse or of CHOLMOD's factor of the assembled coarse operator (A: the level's operator). */
PetscErrorCode PCSBPMGConfigureCoarse(PC pc, PC_SBPMG *sb, Mat A)
{
  KSP         ksp;
  PC          cpc;
  PetscMPIInt size;
  PetscInt    n;

  PetscFunctionBegin;
  PetscCall(PCMGGetCoarseSolve(pc, &ksp));
  PetscCall(KSPSetOperators(ksp, A, sb->coarse_assembled));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &cpc));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  PetscCall(MatGetSize(sb->coarse_assembled, &n, NULL));
  PetscCall(PCSBPMGResolveCoarseSolve(pc, sb, sb->problems[0], n, &sb->coarse_dense));
  if (sb->coarse_dense)
    PetscCall(PCSBPMGDenseSetUp(cpc, sb->problems[sb->nlevels - 1], &sb->tune, sb->coarse_assembled));
  else if (size == 1) {
    PetscCall(PCSetType(cpc, PCCHOLESKY));
    PetscCall(PCFactorSetMatSolverType(cpc, MATSOLVERCHOLMOD));
    PetscCall(PCSBPMGDefaultCholmodFactor(sb, cpc));
  } else {
    KSP inner;
    PC  ipc;
    /* the small coarse problem gathered on every rank and factored there (CHOLMOD is sequential) */
    PetscCall(PCSetType(cpc, PCREDUNDANT));
    PetscCall(PCRedundantGetKSP(cpc, &inner));
    PetscCall(KSPGetPC(inner, &ipc));
    PetscCall(PCSetType(ipc, PCCHOLESKY));
    PetscCall(PCFactorSetMatSolverType(ipc, MATSOLVERCHOLMOD));
    PetscCall(PCSBPMGDefaultCholmodFactor(sb, ipc));
  }
  if (pc->setfromoptionscalled || pc->setupcalled) PetscCall(KSPSetFromOptions(ksp));
  PetscFunctionReturn(0);
}
