/* PCSBPMG's coarse solve (docs/design.md "The coarse solve on the device"): on one rank with the device backend, the dense inverse of the
   coarsest level's assembled operator, made once at set-up on the host from CHOLMOD's factor and applied on the device by one launch
   (kernels/dense.cl), so no V-cycle waits for the host; otherwise, or where -pc_sbpmg_coarse_solve cholmod says so, CHOLMOD's factor
   on the host (PCREDUNDANT around it on several ranks: every rank factors the gathered coarse problem). */
#include <sbpmg/private/mgimpl.h>

const char *const PCSBPMGCoarseSolveTypes[] = {"auto", "dense", "cholmod", "PCSBPMGCoarseSolveType", "PC_SBPMG_COARSE_", NULL};

/* The largest coarse grid the dense inverse takes when asked for (n^2 values: 143 MB in fp64 at 65^2 nodes; CHOLMOD's n solves of
   its set-up take seconds beyond) */
#define PCSBPMG_DENSE_MAX 4225

/* ---------------------------------------------------------------- the dense inverse */

typedef struct {
  SbpProblem   p;      /* the coarsest level (holds a reference) */
  SbpmgTuning  tune;   /* the PC's (mg_dense_wg) */
  PetscInt     n;      /* its unknowns */
  PetscScalar *host;   /* A_c^-1 in fp64, row-major (symmetric) */
  cl_mem       inv[2]; /* ... on the device in fp64 and fp32, made on first use */
} PCSBPMGDense;

/* A^-1 (n x n, column j at inv + j n) from CHOLMOD's factor of the SPD matrix A, a solve per unit vector. An A that CHOLMOD cannot
   factor (not positive definite) is an error naming the grid. */
static PetscErrorCode PCSBPMGDenseInverse(Mat A, SbpProblem p, PetscScalar *inv)
{
  Mat               F;
  IS                row, col;
  MatFactorInfo     info;
  MatFactorError    err;
  Vec               e, x;
  PetscInt          n;
  const PetscScalar one = 1;

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &n, NULL));
  PetscCall(MatGetFactor(A, MATSOLVERCHOLMOD, MAT_FACTOR_CHOLESKY, &F));
  PetscCall(MatGetOrdering(A, MATORDERINGNATURAL, &row, &col));
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(MatCholeskyFactorSymbolic(F, A, row, &info));
  PetscCall(MatCholeskyFactorNumeric(F, A, &info));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscCall(MatFactorGetError(F, &err));
  if (err != MAT_FACTOR_NOERROR) PetscCall(MatDestroy(&F));
  PetscCheck(err == MAT_FACTOR_NOERROR, PETSC_COMM_SELF, PETSC_ERR_MAT_CH_ZRPVT,
             "The coarse operator of the %" PetscInt_FMT " x %" PetscInt_FMT
             " grid cannot be factored for the dense coarse solve: CHOLMOD finds it not positive definite (its coefficients or boundary "
             "conditions make it singular or indefinite)",
             p->Nr, p->Ns);
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &e));
  PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, NULL, &x));
  for (PetscInt j = 0; j < n; j++) {
    PetscCall(VecZeroEntries(e));
    PetscCall(VecSetValues(e, 1, &j, &one, INSERT_VALUES));
    PetscCall(VecAssemblyBegin(e));
    PetscCall(VecAssemblyEnd(e));
    PetscCall(VecPlaceArray(x, inv + (size_t)j * n));
    PetscCall(MatSolve(F, e, x));
    PetscCall(VecResetArray(x));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&e));
  PetscCall(MatDestroy(&F));
  PetscFunctionReturn(0);
}

/* The inverse on the device in the precision of the vectors (fp32: the single-precision V-cycle's level vectors), made on first use. */
static PetscErrorCode PCSBPMGDenseBuffer(PCSBPMGDense *d, PetscBool single, cl_mem *inv)
{
  const size_t nn = (size_t)d->n * (size_t)d->n;

  PetscFunctionBegin;
  if (!d->inv[single]) {
    if (single) {
      float         *f;
      PetscErrorCode ierr;
      PetscCall(PetscMalloc1(nn, &f));
      for (size_t k = 0; k < nn; k++) f[k] = (float)PetscRealPart(d->host[k]);
      ierr = SbpmgCLCreateBuffer(d->p->cl, CL_MEM_READ_ONLY, nn * sizeof(float), &d->inv[1]);
      if (!ierr) ierr = SbpmgCLWriteBuffer(d->p->cl, d->inv[1], 0, nn * sizeof(float), f);
      PetscCall(PetscFree(f));
      PetscCall(ierr);
    } else {
      PetscCall(SbpmgCLCreateBuffer(d->p->cl, CL_MEM_READ_ONLY, nn * sizeof(PetscScalar), &d->inv[0]));
      PetscCall(SbpmgCLWriteBuffer(d->p->cl, d->inv[0], 0, nn * sizeof(PetscScalar), d->host));
    }
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
    cl_mem                   inv, bb, xb;
    SbpBuffers               bufs = {0};
    PetscCall(PCSBPMGGetKernel(d->p, &d->tune, prec, MG_K_DENSE_APPLY, &k));
    PetscCall(PCSBPMGDenseBuffer(d, single, &inv));
    PetscCall(SbpmgLogKernelBegin(SBPMG_MGCoarse));
    PetscCall(PCSBPMGBuffersGet(&bufs, b, SBP_READ, &bb));
    PetscCall(PCSBPMGBuffersGet(&bufs, x, SBP_WRITE, &xb));
    PetscCall(SbpmgCLSetArgs(k, 0, 4, sizeof(int), &n, sizeof(cl_mem), &inv, sizeof(cl_mem), &bb, sizeof(cl_mem), &xb));
    PetscCall(SbpmgCLLaunch1D(d->p->cl, k, (size_t)n * wg, wg));
    PetscCall(PCSBPMGBuffersRestore(&bufs));
    PetscCall(SbpmgLogKernelEnd(SBPMG_MGCoarse, d->p->cl, 2.0 * n * n, ((PetscLogDouble)n * n + 2.0 * n) * rs));
  } else {
    const PetscScalar *ba;
    PetscScalar       *xa;
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
  PCSBPMGDense  *d;
  PetscErrorCode ierr;
  size_t         wg = (size_t)tune->mg_dense_wg;

  PetscFunctionBegin;
  PetscCheck(wg && !(wg & (wg - 1)) && (!p->cl->max_work_group_size || wg <= p->cl->max_work_group_size), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Tuning mg_dense_wg %zu must be a power of two and at most the device's work-group limit %zu", wg, p->cl->max_work_group_size);
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
  ierr = PetscMalloc1((size_t)d->n * d->n, &d->host);
  if (!ierr) ierr = PCSBPMGDenseInverse(A, p, d->host);
  PetscCall(ierr);
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
