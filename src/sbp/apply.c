/* The matrix-free SBP-SAT operator and the diagonal norms as MatShells, on the device (kernels/sbp.cl) or the host
   (the same point formula compiled as C, over the DMDA's ghosted local vectors, any number of ranks). */
#include <sbpmg/private/sbpimpl.h>
#include "sbpmg_kernel_args.h"

/* The point formula, shared with the device kernels. */
#include "../../kernels/sbp.cl"

typedef struct {
  SbpProblem  p;
  SbpNormType norm; /* norm shells only */
} SbpShell;

#define SBP_APPLY_FLOPS_PER_NODE 40

/* A real kernel argument in PetscReal's precision (sbp_real: SBPMG_REAL, whichever the coefficients') */
#define SBP_ARG_REAL(x) SbpmgCLArgReal(sizeof(PetscReal) == sizeof(float) ? PETSC_TRUE : PETSC_FALSE, (x))

/* The arguments of kernels/sbp.cl by name (include/sbpmg/private/climpl.h SBPMG_CL_SET_ARGS): the applies' (sbp_apply_patch,
   sbp_apply_inner) and the norms' (sbp_norm_patch); their region boxes gh, own, in, mode left to the launch (src/sbp/kernels.c). */
typedef struct {
  SbpmgCLArgValue Nr, Ns, rho, dirichlet, u, a, b, c, add, scale, z, y, gh, own, in, mode;
} SbpApplyArgs;
typedef struct {
  SbpmgCLArgValue Nr, Ns, hr, hs, kind, J, x, y, gh, own, in, mode;
} SbpNormArgs;

/* The pair of SbpProblemLaunchOwned() takes u and its region boxes at the same places */
_Static_assert(SBPMG_KERNEL_ARG_sbp_apply_patch_u == SBPMG_KERNEL_ARG_sbp_apply_inner_u &&
                   SBPMG_KERNEL_ARG_sbp_apply_patch_gh == SBPMG_KERNEL_ARG_sbp_apply_inner_gh,
               "sbp_apply_patch and sbp_apply_inner take u and their region boxes at the same places");

static PetscErrorCode SbpShellDestroy(void *ctx)
{
  SbpShell *s = (SbpShell *)ctx;

  PetscFunctionBegin;
  PetscCall(SbpProblemDestroy(&s->p));
  PetscCall(PetscFree(s));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- host path */

/* y = z + scale M~ u (za = NULL: y = scale M~ u; za may be ya), or with diag y = diag(M~) (u unused), on this rank's nodes. */
static void SbpHostRows(SbpProblem p, const PetscScalar *u, PetscScalar **za, PetscReal scale, PetscScalar **ya, int diag)
{
  int flags;

  (void)SbpProblemBCFlags(p, &flags);
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) {
      PetscReal v = sbp_apply_point((int)i, (int)j, (int)p->Nr, (int)p->Ns, p->rho, flags, u, p->crr, p->crs, p->css, p->gxs, p->gys, p->gxm, diag, 0, 0);
      ya[j][i]    = za ? za[j][i] + scale * v : scale * v;
    }
}

/* y = z + scale M~ x on this rank's nodes (z may be NULL: y = scale M~ x; z may be y). */
PetscErrorCode SbpProblemApplyHost(SbpProblem p, Vec x, Vec z, PetscReal scale, Vec y)
{
  Vec                xl;
  const PetscScalar *u;
  PetscScalar      **ya, **za = NULL;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SBPMG_SbpApply, 0, 0, 0, 0));
  PetscCall(SbpProblemGetHostCoefficients(p));
  PetscCall(SbpProblemGetPatch(p, x, &xl, &u));
  PetscCall(SbpProblemVecGetArray(p, y, PETSC_FALSE, &ya));
  if (z && z != y) PetscCall(SbpProblemVecGetArray(p, z, PETSC_TRUE, &za));
  SbpHostRows(p, u, z ? (z == y ? ya : za) : NULL, scale, ya, 0);
  if (z && z != y) PetscCall(SbpProblemVecRestoreArray(p, z, PETSC_TRUE, &za));
  PetscCall(SbpProblemVecRestoreArray(p, y, PETSC_FALSE, &ya));
  PetscCall(SbpProblemRestorePatch(p, x, &xl, &u));
  PetscCall(PetscLogFlops((SBP_APPLY_FLOPS_PER_NODE + (z ? 1 : 0)) * (PetscLogDouble)p->xm * p->ym));
  PetscCall(PetscLogEventEnd(SBPMG_SbpApply, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* d = diag(M~) on this rank's nodes. */
PetscErrorCode SbpProblemDiagonalHost(SbpProblem p, Vec d)
{
  PetscScalar **darr;

  PetscFunctionBegin;
  PetscCall(SbpProblemGetHostCoefficients(p));
  PetscCall(SbpProblemVecGetArray(p, d, PETSC_FALSE, &darr));
  SbpHostRows(p, NULL, NULL, 1, darr, 1);
  PetscCall(SbpProblemVecRestoreArray(p, d, PETSC_FALSE, &darr));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- device path */

/* The buffers of y = z + scale M~ x: x (unless it goes through the ghost exchange h), z (read; NULL: none, or y itself) and y. */
static PetscErrorCode SbpApplyBuffers(SbpProblem p, SbpHalo h, Vec x, Vec z, Vec y, SbpBuffers *b, cl_mem *xb, cl_mem *zb, cl_mem *yb)
{
  PetscFunctionBegin;
  PetscCall(SbpBuffersGet(b, h ? NULL : x, SBP_READ, xb));
  if (z && z != y) {
    PetscCall(SbpProblemCheckDeviceVec(p, z, "z"));
    PetscCall(SbpBuffersGet(b, z, SBP_READ, zb));
    PetscCall(SbpBuffersGet(b, y, SBP_WRITE, yb));
  } else {
    PetscCall(SbpBuffersGet(b, y, z ? SBP_READ_WRITE : SBP_WRITE, yb));
    *zb = *yb;
  }
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemApplyDevice - y = z + scale M~ x on the device (z may be NULL: y = scale M~ x; z may be y), on fp64 vectors with the
   coefficients in fp64 (SBP_KERNEL_FP64) or rounded to fp32 (SBP_KERNEL_COEF32): the multigrid levels' residuals use the latter. The kernel pair of
SbpProblemLaunchOwned(): the lean kernel over the interior box and the patch kernel over the rim with the interior/rim split, the patch kernel over every owned
   node without; on several ranks x goes through the ghost exchange, the interior overlapped with it.

   Level: developer
@*/
PetscErrorCode SbpProblemApplyDevice(SbpProblem p, Vec x, Vec z, PetscReal scale, Vec y, SbpKernelPrecision prec)
{
  cl_kernel      ks[2] = {NULL, NULL};
  cl_mem         xb, zb, yb, ca, cb, cc;
  int            Nr = (int)p->Nr, Ns = (int)p->Ns, flags, add = z ? 1 : 0;
  PetscReal      rho = p->rho;
  PetscBool      lean; /* the lean interior kernel runs */
  PetscLogDouble n = (PetscLogDouble)p->xm * p->ym;
  SbpLevel       lv;
  SbpHalo        h;
  SbpBuffers     bufs = {0};

  PetscFunctionBegin;
  PetscCall(SbpProblemCheckDeviceVec(p, x, "x"));
  PetscCall(SbpProblemCheckDeviceVec(p, y, "y"));
  PetscCheck(x != y, PETSC_COMM_SELF, PETSC_ERR_ARG_IDN, "x and y must be different vectors for the SBP-SAT operator");
  PetscCheck(prec != SBP_KERNEL_FP32, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The device operator's vectors are fp64 (SBP_KERNEL_FP64 or SBP_KERNEL_COEF32)");
  PetscCall(SbpProblemBCFlags(p, &flags));
  PetscCall(SbpProblemGetLevel(p, prec, &lv));
  PetscCall(SbpLevelGetHalo(lv, &h));
  lean = h || p->split_on ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(SbpLevelGetKernel(lv, SBP_K_APPLY_PATCH, &ks[0]));
  if (lean) PetscCall(SbpLevelGetKernel(lv, SBP_K_APPLY_INNER, &ks[1]));
  PetscCall(SbpLevelGetCoefficientBuffers(lv, &ca, &cb, &cc));
  PetscCall(SbpmgLogKernelBegin(SBPMG_SbpApply));
  PetscCall(SbpApplyBuffers(p, h, x, z, y, &bufs, &xb, &zb, &yb));
  {
    const SbpApplyArgs a = {.Nr        = SbpmgCLArgInt(Nr),
                            .Ns        = SbpmgCLArgInt(Ns),
                            .rho       = SBP_ARG_REAL(rho),
                            .dirichlet = SbpmgCLArgInt(flags),
                            .u         = SbpmgCLArgMem(h ? h->patch : xb),
                            .a         = SbpmgCLArgMem(ca),
                            .b         = SbpmgCLArgMem(cb),
                            .c         = SbpmgCLArgMem(cc),
                            .add       = SbpmgCLArgInt(add),
                            .scale     = SBP_ARG_REAL(scale),
                            .z         = SbpmgCLArgMem(zb),
                            .y         = SbpmgCLArgMem(yb)};
    SBPMG_CL_SET_ARGS(ks[0], sbp_apply_patch, &a);
    if (lean) SBPMG_CL_SET_ARGS(ks[1], sbp_apply_inner, &a);
  }
  if (h)
    PetscCall(SbpProblemLaunchExchanged(p, x, ks[0], ks[1], SBPMG_KERNEL_ARG_sbp_apply_patch_u, SBPMG_KERNEL_ARG_sbp_apply_patch_gh));
  else
    PetscCall(SbpProblemLaunchOwned(p, ks[0], ks[1], SBPMG_KERNEL_ARG_sbp_apply_patch_gh));
  PetscCall(SbpBuffersRestore(&bufs));
  /* u, y, three coefficients, z; on several ranks the patch copy too (read and write) */
  PetscCall(SbpmgLogKernelEnd(SBPMG_SbpApply, p->cl, SBP_APPLY_FLOPS_PER_NODE * n,
                              n * (sizeof(PetscReal) * ((h ? 4 : 2) + add) + 3 * (prec == SBP_KERNEL_COEF32 ? sizeof(float) : sizeof(PetscReal)))));
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpDiagonalDevice(SbpProblem p, Vec d)
{
  cl_kernel  k;
  cl_mem     db, ca, cb, cc;
  int        Nr = (int)p->Nr, Ns = (int)p->Ns, flags, diag = 2;
  PetscReal  rho = p->rho, one = 1;
  SbpLevel   lv;
  SbpBuffers bufs = {0};

  PetscFunctionBegin;
  PetscCall(SbpProblemCheckDeviceVec(p, d, "the diagonal"));
  PetscCall(SbpProblemBCFlags(p, &flags));
  PetscCall(SbpProblemGetLevel(p, SBP_KERNEL_FP64, &lv));
  PetscCall(SbpLevelGetKernel(lv, SBP_K_APPLY_PATCH, &k));
  PetscCall(SbpLevelGetCoefficientBuffers(lv, &ca, &cb, &cc));
  PetscCall(SbpmgLogKernelBegin(SBPMG_SbpDiag));
  PetscCall(SbpBuffersGet(&bufs, d, SBP_WRITE, &db));
  {
    /* sbp_apply_patch's diagonal mode (add 2): u and z are not read, d stands in for them */
    const SbpApplyArgs a = {.Nr        = SbpmgCLArgInt(Nr),
                            .Ns        = SbpmgCLArgInt(Ns),
                            .rho       = SBP_ARG_REAL(rho),
                            .dirichlet = SbpmgCLArgInt(flags),
                            .u         = SbpmgCLArgMem(db),
                            .a         = SbpmgCLArgMem(ca),
                            .b         = SbpmgCLArgMem(cb),
                            .c         = SbpmgCLArgMem(cc),
                            .add       = SbpmgCLArgInt(diag),
                            .scale     = SBP_ARG_REAL(one),
                            .z         = SbpmgCLArgMem(db),
                            .y         = SbpmgCLArgMem(db)};
    SBPMG_CL_SET_ARGS(k, sbp_apply_patch, &a);
  }
  PetscCall(SbpProblemLaunchRegion(p, k, SBPMG_KERNEL_ARG_sbp_apply_patch_gh, SBP_REGION_ALL)); /* no u: no exchange */
  PetscCall(SbpBuffersRestore(&bufs));
  PetscCall(SbpmgLogKernelEnd(SBPMG_SbpDiag, p->cl, 40.0 * p->xm * p->ym, (PetscLogDouble)p->xm * p->ym * 4 * sizeof(PetscReal)));
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpNormApplyHost(SbpProblem p, SbpNormType kind, Vec x, Vec y)
{
  PetscScalar **xa, **ya;

  PetscFunctionBegin;
  PetscCall(SbpProblemGetHostCoefficients(p));
  PetscCall(SbpProblemVecGetArray(p, x, PETSC_TRUE, &xa));
  PetscCall(SbpProblemVecGetArray(p, y, PETSC_FALSE, &ya));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++)
      ya[j][i] = sbp_norm_weight((int)i, (int)j, (int)p->Nr, (int)p->Ns, p->hr, p->hs, (int)kind, p->J[SbpPatchIndex(p, i, j)]) * xa[j][i];
  PetscCall(SbpProblemVecRestoreArray(p, y, PETSC_FALSE, &ya));
  PetscCall(SbpProblemVecRestoreArray(p, x, PETSC_TRUE, &xa));
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpNormApplyDevice(SbpProblem p, SbpNormType kind, Vec x, Vec y)
{
  cl_kernel  k;
  cl_mem     xb, yb, J;
  int        Nr = (int)p->Nr, Ns = (int)p->Ns, ik = (int)kind;
  PetscReal  hr = p->hr, hs = p->hs;
  PetscInt   n = p->xm * p->ym;
  SbpLevel   lv;
  SbpBuffers bufs = {0};

  PetscFunctionBegin;
  PetscCall(SbpProblemCheckDeviceVec(p, x, "x"));
  PetscCall(SbpProblemCheckDeviceVec(p, y, "y"));
  PetscCall(SbpProblemGetLevel(p, SBP_KERNEL_FP64, &lv));
  PetscCall(SbpLevelGetKernel(lv, SBP_K_NORM_PATCH, &k));
  PetscCall(SbpLevelGetJacobianBuffer(lv, &J));
  PetscCall(SbpmgLogKernelBegin(SBPMG_SbpNorm));
  PetscCall(SbpBuffersGet(&bufs, x, x == y ? SBP_READ_WRITE : SBP_READ, &xb));
  if (x == y)
    yb = xb;
  else
    PetscCall(SbpBuffersGet(&bufs, y, SBP_WRITE, &yb));
  {
    const SbpNormArgs a = {.Nr   = SbpmgCLArgInt(Nr),
                           .Ns   = SbpmgCLArgInt(Ns),
                           .hr   = SBP_ARG_REAL(hr),
                           .hs   = SBP_ARG_REAL(hs),
                           .kind = SbpmgCLArgInt(ik),
                           .J    = SbpmgCLArgMem(J),
                           .x    = SbpmgCLArgMem(xb),
                           .y    = SbpmgCLArgMem(yb)};
    SBPMG_CL_SET_ARGS(k, sbp_norm_patch, &a);
  }
  PetscCall(SbpProblemLaunchRegion(p, k, SBPMG_KERNEL_ARG_sbp_norm_patch_gh, SBP_REGION_ALL));
  PetscCall(SbpBuffersRestore(&bufs));
  PetscCall(SbpmgLogKernelEnd(SBPMG_SbpNorm, p->cl, n, (PetscLogDouble)n * (kind >= SBP_NORM_JH ? 3 : 2) * sizeof(PetscReal)));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the operator's Mat operations

   One set of operations for the MatShell of SbpProblemCreateOperator() and for MATSBPSAT (src/sbp/matsbpsat.c): they find the
   problem composed on the matrix (MatGetSbpProblem()). */

/* y = z + scale M~ x, the one operation behind MatMult (z = NULL, scale 1), MatMultAdd (z, 1) and MatResidual (z = b, -1). */
static PetscErrorCode SbpOperatorApply(Mat A, Vec x, Vec z, PetscReal scale, Vec y)
{
  SbpProblem p;
  PetscBool  dev;

  PetscFunctionBegin;
  PetscCall(MatGetSbpProblem(A, &p));
  if (p->order > 2) { /* orders 4 and 6: src/sbp/wide.c */
    PetscCall(SbpProblemApplyWide(p, x, z, scale, y));
    PetscFunctionReturn(0);
  }
  PetscCall(SbpProblemUseDevice(p, x, y, z, &dev));
  if (dev)
    PetscCall(SbpProblemApplyDevice(p, x, z, scale, y, SBP_KERNEL_FP64));
  else
    PetscCall(SbpProblemApplyHost(p, x, z, scale, y));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpOperatorMult(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(SbpOperatorApply(A, x, NULL, 1.0, y));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpOperatorMultAdd(Mat A, Vec x, Vec z, Vec y)
{
  PetscFunctionBegin;
  PetscCall(SbpOperatorApply(A, x, z, 1.0, y));
  PetscFunctionReturn(0);
}

/* r = b - M~ x in one pass (PCMG's residual). */
PetscErrorCode SbpOperatorResidual(Mat A, Vec b, Vec x, Vec r)
{
  PetscFunctionBegin;
  PetscCall(SbpOperatorApply(A, x, b, -1.0, r));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpOperatorGetDiagonal(Mat A, Vec d)
{
  SbpProblem p;
  PetscBool  dev;

  PetscFunctionBegin;
  PetscCall(MatGetSbpProblem(A, &p));
  if (p->order > 2) {
    PetscCall(SbpProblemDiagonalWide(p, d));
    PetscFunctionReturn(0);
  }
  PetscCall(SbpProblemUseDevice(p, d, NULL, NULL, &dev));
  if (dev)
    PetscCall(SbpDiagonalDevice(p, d));
  else
    PetscCall(SbpProblemDiagonalHost(p, d));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpOperatorView(Mat A, PetscViewer viewer)
{
  SbpProblem p;
  PetscBool  isascii;

  PetscFunctionBegin;
  PetscCall(MatGetSbpProblem(A, &p));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPrintf(viewer, "SBP-SAT operator, matrix-free (%s)\n", p->use_device ? "OpenCL kernels" : "host loops"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(SbpProblemView(p, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMult_SbpNorm(Mat A, Vec x, Vec y)
{
  SbpShell *s;
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &s));
  if (s->p->order > 2) {
    PetscCall(SbpProblemNormWide(s->p, s->norm, x, y));
    PetscFunctionReturn(0);
  }
  PetscCall(SbpProblemUseDevice(s->p, x, y, NULL, &dev));
  if (dev)
    PetscCall(SbpNormApplyDevice(s->p, s->norm, x, y));
  else
    PetscCall(SbpNormApplyHost(s->p, s->norm, x, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatGetDiagonal_SbpNorm(Mat A, Vec d)
{
  PetscFunctionBegin;
  PetscCall(VecSet(d, 1));
  PetscCall(MatMult_SbpNorm(A, d, d));
  PetscFunctionReturn(0);
}

/* A MatShell on the problem's layout, the problem composed on it (MatGetSbpProblem()). */
/* A vector of the problem's layout: a device vector on the problem's context, or a host vector; on error nothing is left. */
static PetscErrorCode SbpProblemNewVec(SbpProblem p, Vec *v)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)p);
  PetscInt       n = p->xm * p->ym, N = (p->Nr + 1) * (p->Ns + 1);
  PetscErrorCode ierr;

  PetscFunctionBegin;
  if (p->use_device) {
    PetscCall(VecCreateOpenCLWithContext(comm, p->cl, n, N, v));
    ierr = SbpProblemMarkVector(p, *v);
  } else {
    PetscCall(VecCreate(comm, v));
    ierr = VecSetSizes(*v, n, N);
    if (!ierr) ierr = VecSetType(*v, VECSTANDARD);
    if (!ierr) ierr = SbpProblemMarkVector(p, *v);
  }
  if (ierr) PetscCall(VecDestroy(v));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* MatCreateVecs() of the operators: PETSc's default leaves a half-made vector behind when the type's constructor fails (a device
   allocation); here a failure leaves nothing. */
PetscErrorCode SbpOperatorCreateVecs(Mat A, Vec *right, Vec *left)
{
  SbpProblem     p;
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)A, "SbpProblem", (PetscObject *)&p));
  PetscCheck(p, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "The matrix carries no SBP-SAT problem");
  if (right) PetscCall(SbpProblemNewVec(p, right));
  if (left) ierr = SbpProblemNewVec(p, left);
  if (ierr && right) PetscCall(VecDestroy(right));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpCreateShell(SbpProblem p, SbpNormType norm, Mat *A)
{
  SbpShell *s;
  PetscInt  n = p->xm * p->ym, N = (p->Nr + 1) * (p->Ns + 1);

  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  PetscCall(PetscNew(&s));
  s->p    = p;
  s->norm = norm;
  PetscCall(PetscObjectReference((PetscObject)p));
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)p), n, n, N, N, s, A));
  PetscCall(MatShellSetContextDestroy(*A, SbpShellDestroy));
  PetscCall(MatShellSetVecType(*A, p->use_device ? VECOPENCL : VECSTANDARD));
  PetscCall(PetscObjectCompose((PetscObject)*A, "SbpProblem", (PetscObject)p));
  PetscCall(MatShellSetOperation(*A, MATOP_CREATE_VECS, (void (*)(void))SbpOperatorCreateVecs));
  PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemCreateOperator - The SBP-SAT operator M~ (symmetric positive definite, H-weighted form) as a matrix-free MatShell:
   MatMult, MatMultAdd, MatMultTranspose (= MatMult) and MatGetDiagonal run OpenCL kernels on device vectors (device backend) or C
   loops on DMDA vectors (host backend). MatCreateVecs() gives vectors of the right type.

   Collective

   Level: beginner

.seealso: `SbpProblemCreateAssembledOperator()`, `SbpProblemCreateNorm()`
@*/
PetscErrorCode SbpProblemCreateOperator(SbpProblem p, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(SbpCreateShell(p, SBP_NORM_H, A));
  PetscCall(MatShellSetOperation(*A, MATOP_MULT, (void (*)(void))SbpOperatorMult));
  PetscCall(MatShellSetOperation(*A, MATOP_MULT_TRANSPOSE, (void (*)(void))SbpOperatorMult));
  PetscCall(MatShellSetOperation(*A, MATOP_MULT_ADD, (void (*)(void))SbpOperatorMultAdd));
  PetscCall(MatShellSetOperation(*A, MATOP_MULT_TRANSPOSE_ADD, (void (*)(void))SbpOperatorMultAdd));
  PetscCall(MatShellSetOperation(*A, MATOP_GET_DIAGONAL, (void (*)(void))SbpOperatorGetDiagonal));
  PetscCall(MatShellSetOperation(*A, MATOP_RESIDUAL, (void (*)(void))SbpOperatorResidual));
  PetscCall(MatShellSetOperation(*A, MATOP_VIEW, (void (*)(void))SbpOperatorView));
  PetscCall(SbpProblemSetOperatorProperties(p, *A));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemSetOperatorProperties(SbpProblem p, Mat A)
{
  MatNullSpace nsp;

  PetscFunctionBegin;
  PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  if (!SbpProblemAllNeumann(p)) {
    PetscCall(MatSetOption(A, MAT_SPD, PETSC_TRUE));
    PetscFunctionReturn(0);
  }
  /* M~ 1 = 0 (every difference operator and SAT term of a Neumann face annihilates constants) and M~ = M~^T as assembled, so the
     constants are the null space of M~ and of its transpose: KSPSolve() removes b's component along them (the Euclidean projection)
     and CG the preconditioned residual's */
  PetscCall(MatNullSpaceCreate(PetscObjectComm((PetscObject)A), PETSC_TRUE, 0, NULL, &nsp));
  PetscCall(MatSetNullSpace(A, nsp));
  PetscCall(MatSetTransposeNullSpace(A, nsp));
  PetscCall(MatNullSpaceDestroy(&nsp));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemCreateNorm - A diagonal norm as a MatShell: SBP_NORM_H (H~ = Hs (x) Hr), SBP_NORM_HINV, SBP_NORM_JH (diag(J) H~) or
   SBP_NORM_JHINV; MatMult is a kernel on the device backend.

   Collective

   Level: intermediate
@*/
PetscErrorCode SbpProblemCreateNorm(SbpProblem p, SbpNormType kind, Mat *H)
{
  PetscFunctionBegin;
  PetscCheck(kind >= SBP_NORM_H && kind <= SBP_NORM_JHINV, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE, "Unknown norm kind %d", (int)kind);
  PetscCall(SbpCreateShell(p, kind, H));
  PetscCall(MatShellSetOperation(*H, MATOP_MULT, (void (*)(void))MatMult_SbpNorm));
  PetscCall(MatShellSetOperation(*H, MATOP_MULT_TRANSPOSE, (void (*)(void))MatMult_SbpNorm));
  PetscCall(MatShellSetOperation(*H, MATOP_GET_DIAGONAL, (void (*)(void))MatGetDiagonal_SbpNorm));
  PetscFunctionReturn(0);
}

/*@C
   MatGetSbpProblem - The SbpProblem an operator was created from (matrix-free or assembled), or an error for any other matrix.

   Level: intermediate
@*/
PetscErrorCode MatGetSbpProblem(Mat A, SbpProblem *p)
{
  PetscObject obj;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)A, "SbpProblem", &obj));
  PetscCheck(obj, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG,
             "Matrix %s of type %s is not an sbpmg SBP-SAT operator: create it with SbpProblemCreateOperator() or SbpProblemCreateAssembledOperator()",
             ((PetscObject)A)->name ? ((PetscObject)A)->name : "(unnamed)", ((PetscObject)A)->type_name);
  *p = (SbpProblem)obj;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemCreateVector - A vector laid out like the operator's: a device vector on the device backend, a DMDA global vector on the host.

   Level: beginner
@*/
PetscErrorCode SbpProblemCreateVector(SbpProblem p, Vec *v)
{
  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  if (p->use_device)
    PetscCall(VecCreateOpenCL(PetscObjectComm((PetscObject)p), p->xm * p->ym, PETSC_DETERMINE, v));
  else {
    DM da;
    PetscCall(SbpProblemGetLayoutDM(p, &da));
    PetscCall(DMCreateGlobalVector(da, v));
  }
  {
    PetscErrorCode ierr = SbpProblemMarkVector(p, *v);
    if (ierr) PetscCall(VecDestroy(v));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}
