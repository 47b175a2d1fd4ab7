/* The SBP-SAT operator M~ of order 4 and 6 (spec-sbp-sat-highorder.md sections 3-4), its diagonal (3.6) and the order-p diagonal norms
   (3.1), on the host (the point formula of kernels/sbp_wide.cl compiled as C over the owned nodes, the DMDA's ghosted local vectors on
   any number of ranks) or on the device (kernels/sbp_wide.cl; on several ranks the ghost exchange of src/halo/halo.c), chosen by the
   problem and the vectors as src/sbp/apply.c chooses at order 2. The 1D coefficients are the packed table of src/sbp/ordertable.c. */
#include <sbpmg/private/sbpimpl.h>
#include "sbpmg_kernel_args.h"

/* The point formula, shared with the device kernels (after the layout of the table it reads). */
#include "../../kernels/sbp_table.cl"
#include "../../kernels/sbp.cl"
#include "../../kernels/sbp_face.cl"
#include "../../kernels/sbp_wide.cl"

/* What the operator of order p keeps (p->wide, made at its first use, freed with the set-up: SbpProblemResetSetUp). */
struct _n_SbpWide {
  cl_kernel apply;    /* wide_apply_patch: the gather formula over a region (all, or the rim of the box) */
  cl_kernel inner;    /* wide_apply_inner: the interior fast path over the box, A_rr + A_ss */
  cl_kernel cross;    /* wide_apply_inner_cross: ... then A_rs + A_sr added */
  cl_kernel norm;     /* wide_norm_patch */
  cl_kernel sweep[3]; /* wide_smooth_patch, wide_smooth_inner, wide_smooth_inner_cross: the smoothing sweep (SbpProblemSweepWide) */
  PetscInt  box[4];   /* the owned nodes whose stencil is the interior band (ilo, jlo, ihi, jhi; empty: ilo > ihi or jlo > jhi) */
};

/* The arguments of kernels/sbp_wide.cl by name (include/sbpmg/private/climpl.h SBPMG_CL_SET_ARGS; its reals are double): the apply's
   (wide_apply_patch, wide_apply_inner, wide_apply_inner_cross), the norm's (wide_norm_patch) and the smoothing sweep's (wide_smooth_patch,
   wide_smooth_inner, wide_smooth_inner_cross); their region boxes gh, own, in, mode left to the launch (SbpProblemLaunchBox). */
typedef struct {
  SbpmgCLArgValue Nr, Ns, rho, dirichlet, T, u, a, b, c, add, scale, z, y, gh, own, in, mode;
} SbpWideApplyArgs;
typedef struct {
  SbpmgCLArgValue Nr, Ns, hr, hs, kind, T, J, x, y, gh, own, in, mode;
} SbpWideNormArgs;
typedef struct {
  SbpmgCLArgValue Nr, Ns, rho, dirichlet, T, x, a, b, c, rhs, jacobi, dinv, c1, c2, zero, prev_zero, prev, out, gh, own, in, mode;
} SbpWideSweepArgs;

/* SbpWideLaunchKernels() launches a family's three kernels from one index of their region boxes */
_Static_assert(SBPMG_KERNEL_ARG_wide_apply_patch_gh == SBPMG_KERNEL_ARG_wide_apply_inner_gh &&
                   SBPMG_KERNEL_ARG_wide_apply_patch_gh == SBPMG_KERNEL_ARG_wide_apply_inner_cross_gh,
               "wide_apply_patch, wide_apply_inner and wide_apply_inner_cross take their region boxes at the same places");
_Static_assert(SBPMG_KERNEL_ARG_wide_smooth_patch_gh == SBPMG_KERNEL_ARG_wide_smooth_inner_gh &&
                   SBPMG_KERNEL_ARG_wide_smooth_patch_gh == SBPMG_KERNEL_ARG_wide_smooth_inner_cross_gh,
               "wide_smooth_patch, wide_smooth_inner and wide_smooth_inner_cross take their region boxes at the same places");

/* The modes of wide_apply_patch: y = scale M~ u, y = z + scale M~ u, y = scale diag(M~). */
typedef enum { WIDE_MODE_SET = 0, WIDE_MODE_ADD = 1, WIDE_MODE_DIAGONAL = 2 } SbpWideMode;

/* Floating-point operations of one interior node (the log), as the fast path of kernels/sbp_wide.cl counts them: two M(c) rows of
   (2q+1)^2 - q(q+1) coefficient terms and 2q+1 products with u each (1.5), two flops a term, and the cross terms, 4q^2 terms of three
   flops (3.3); the end blocks and SAT rows cost more, on few nodes. */
PetscLogDouble SbpWideFlopsPerNode(SbpProblem p)
{
  const PetscInt q = p->order / 2;
  return 2.0 * 2 * ((2 * q + 1) * (2 * q + 1) - q * (q + 1) + 2 * q + 1) + 12.0 * q * q + 2 * q;
}

/* ---------------------------------------------------------------- set-up */

/* The owned nodes whose whole stencil is the interior band (3.5): i, j in [nM, N - nM] (past the end blocks of M(c), and so past the
   closures of Q, nD1w = nM, and the SAT rows, nBS <= nM); empty as kernels/sbp.cl sbp_region_node expects (ilo > ihi). */
static void SbpWideInteriorBox(SbpProblem p, const PetscReal *tab, PetscInt box[4])
{
  const PetscInt nM = (PetscInt)tab[SBP_T_NM];

  box[0] = PetscMax(p->xs, nM);
  box[1] = PetscMax(p->ys, nM);
  box[2] = PetscMin(p->xs + p->xm - 1, p->Nr - nM);
  box[3] = PetscMin(p->ys + p->ym - 1, p->Ns - nM);
  if (box[0] > box[2] || box[1] > box[3]) SbpProblemEmptyBox(p, box);
}

/* "name=v0,v1,..." of n reals of the table, every digit kept (%.17g): the band coefficients of the fast path as build options. */
static PetscErrorCode SbpWideTableOption(const char name[], const PetscReal *v, PetscInt n, char buf[], size_t len)
{
  size_t used;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(buf, len, " -D%s=", name));
  for (PetscInt k = 0; k < n; k++) {
    PetscCall(PetscStrlen(buf, &used));
    PetscCall(PetscSNPrintf(buf + used, len - used, "%s%.17g", k ? "," : "", (double)v[k]));
  }
  PetscFunctionReturn(0);
}

/* The kernels of kernels/sbp_wide.cl for the problem's order: one program "sbp_table+sbp+sbp_face+sbp_wide" (kernels/sbp.cl for the region
   launches, none of its kernels), with the order and the table's interior band (mu of 1.5, the interior row of Q of 1.3) as build
   options for the fast path; looked up once (a lookup through the program cache compares the whole source). */
static PetscErrorCode SbpWideGetKernels(SbpProblem p, const PetscReal *tab)
{
  const char *sbpopts;
  char        opts[2048], mu[1024], st[256];
  SbpLevel    lv;
  PetscInt    order;

  PetscFunctionBegin;
  if (p->wide->apply) PetscFunctionReturn(0);
  PetscCheck(p->cl->fp64, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "SBP order %" PetscInt_FMT " runs in double precision: the device %s has no fp64 (cl_khr_fp64); use -sbp_backend host", p->order,
             p->cl->device_name);
  PetscCall(SbpProblemGetLevel(p, SBP_KERNEL_FP64, &lv));
  PetscCall(SbpLevelGetBuildOptions(lv, &sbpopts));
  PetscCall(SbpLevelGetOrder(lv, &order));
  PetscCall(SbpWideTableOption("SBPMG_WIDE_MU", tab + SBP_T_MU, 4 * 7, mu, sizeof(mu)));
  PetscCall(SbpWideTableOption("SBPMG_WIDE_S", tab + SBP_T_S, 7, st, sizeof(st)));
  PetscCall(PetscSNPrintf(opts, sizeof(opts),
                          "%s -DSBPMG_SBP_KERNELS=0 -DSBPMG_WIDE_ORDER=%d -DSBPMG_WIDE_FUSE=%d -DSBPMG_WIDE_LANES=%d -DSBPMG_SBP_RIM_WG=%d%s%s", sbpopts,
                          (int)order, p->tune.sbp_wide_fuse ? 1 : 0, (int)p->tune.sbp_wide_lanes, (int)p->tune.sbp_rim_wg, mu, st));
  PetscCall(SbpmgCLGetKernel(p->cl, "sbp_table+sbp+sbp_face+sbp_wide", opts, "wide_apply_inner", &p->wide->inner));
  PetscCall(SbpmgCLGetKernel(p->cl, "sbp_table+sbp+sbp_face+sbp_wide", opts, "wide_apply_inner_cross", &p->wide->cross));
  PetscCall(SbpmgCLGetKernel(p->cl, "sbp_table+sbp+sbp_face+sbp_wide", opts, "wide_norm_patch", &p->wide->norm));
  PetscCall(SbpmgCLGetKernel(p->cl, "sbp_table+sbp+sbp_face+sbp_wide", opts, "wide_smooth_patch", &p->wide->sweep[0]));
  PetscCall(SbpmgCLGetKernel(p->cl, "sbp_table+sbp+sbp_face+sbp_wide", opts, "wide_smooth_inner", &p->wide->sweep[1]));
  PetscCall(SbpmgCLGetKernel(p->cl, "sbp_table+sbp+sbp_face+sbp_wide", opts, "wide_smooth_inner_cross", &p->wide->sweep[2]));
  PetscCall(SbpmgCLGetKernel(p->cl, "sbp_table+sbp+sbp_face+sbp_wide", opts, "wide_apply_patch", &p->wide->apply));
  PetscFunctionReturn(0);
}

/* p->wide, made at the first use: the table (host, and device on the device backend) and the interior box; the kernels on demand. */
static PetscErrorCode SbpWideSetUp(SbpProblem p, const PetscReal **tab)
{
  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  PetscCheck(p->order == 4 || p->order == 6, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE,
             "SBP order %" PetscInt_FMT ": the wide operator (src/sbp/wide.c) is of order 4 or 6", p->order);
  PetscCall(SbpProblemGetOrderTable(p, tab, NULL));
  if (!p->wide) {
    PetscCall(PetscNew(&p->wide));
    SbpWideInteriorBox(p, *tab, p->wide->box);
  }
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- host path */

/* y = z + scale M~ u (za NULL: y = scale M~ u; za may be ya), or with probe y = diag(M~) (u unused), on this rank's nodes. */
static void SbpWideHostRows(SbpProblem p, const PetscReal *tab, const PetscScalar *u, PetscScalar **za, PetscReal scale, PetscScalar **ya, int probe)
{
  int flags;

  (void)SbpProblemBCFlags(p, &flags);
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) {
      PetscReal v = wide_apply_point(tab, (int)i, (int)j, (int)p->Nr, (int)p->Ns, p->rho, flags, u, p->crr, p->crs, p->css, p->gxs, p->gys, p->gxm, probe);
      ya[j][i]    = za ? za[j][i] + scale * v : scale * v;
    }
}

static PetscErrorCode SbpWideApplyHost(SbpProblem p, const PetscReal *tab, Vec x, Vec z, PetscReal scale, Vec y)
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
  SbpWideHostRows(p, tab, u, z ? (z == y ? ya : za) : NULL, scale, ya, 0);
  if (z && z != y) PetscCall(SbpProblemVecRestoreArray(p, z, PETSC_TRUE, &za));
  PetscCall(SbpProblemVecRestoreArray(p, y, PETSC_FALSE, &ya));
  PetscCall(SbpProblemRestorePatch(p, x, &xl, &u));
  PetscCall(PetscLogFlops((SbpWideFlopsPerNode(p) + (z ? 2 : 1)) * (PetscLogDouble)p->xm * p->ym));
  PetscCall(PetscLogEventEnd(SBPMG_SbpApply, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpWideDiagonalHost(SbpProblem p, const PetscReal *tab, Vec d)
{
  PetscScalar **da;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SBPMG_SbpDiag, 0, 0, 0, 0));
  PetscCall(SbpProblemGetHostCoefficients(p));
  PetscCall(SbpProblemVecGetArray(p, d, PETSC_FALSE, &da));
  SbpWideHostRows(p, tab, NULL, NULL, 1, da, 1);
  PetscCall(SbpProblemVecRestoreArray(p, d, PETSC_FALSE, &da));
  PetscCall(PetscLogFlops(SbpWideFlopsPerNode(p) * (PetscLogDouble)p->xm * p->ym));
  PetscCall(PetscLogEventEnd(SBPMG_SbpDiag, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpWideNormHost(SbpProblem p, const PetscReal *tab, SbpNormType kind, Vec x, Vec y)
{
  PetscScalar **xa, **ya;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SBPMG_SbpNorm, 0, 0, 0, 0));
  PetscCall(SbpProblemGetHostCoefficients(p));
  PetscCall(SbpProblemVecGetArray(p, x, PETSC_TRUE, &xa));
  PetscCall(SbpProblemVecGetArray(p, y, PETSC_FALSE, &ya));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++)
      ya[j][i] = wide_norm_weight(tab, (int)i, (int)j, (int)p->Nr, (int)p->Ns, p->hr, p->hs, (int)kind, p->J[SbpPatchIndex(p, i, j)]) * xa[j][i];
  PetscCall(SbpProblemVecRestoreArray(p, y, PETSC_FALSE, &ya));
  PetscCall(SbpProblemVecRestoreArray(p, x, PETSC_TRUE, &xa));
  PetscCall(PetscLogFlops((PetscLogDouble)p->xm * p->ym));
  PetscCall(PetscLogEventEnd(SBPMG_SbpNorm, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- device path */

/* The apply's arguments but the region's, on wide_apply_patch and (all) on the fast path's two kernels: the problem's, the table, u, the
   coefficients (fp64), the mode, the scale, z and y. */
static PetscErrorCode SbpWideSetApplyArgs(SbpProblem p, PetscBool all, cl_mem tab, cl_mem u, SbpWideMode mode, PetscReal scale, cl_mem z, cl_mem y)
{
  int      flags;
  SbpLevel lv;

  PetscFunctionBegin;
  PetscCall(SbpProblemBCFlags(p, &flags));
  PetscCall(SbpProblemGetLevel(p, SBP_KERNEL_FP64, &lv));
  {
    const SbpWideApplyArgs a = {.Nr        = SbpmgCLArgInt((int)p->Nr),
                                .Ns        = SbpmgCLArgInt((int)p->Ns),
                                .rho       = SbpmgCLArgReal(PETSC_FALSE, p->rho),
                                .dirichlet = SbpmgCLArgInt(flags),
                                .T         = SbpmgCLArgMem(tab),
                                .u         = SbpmgCLArgMem(u),
                                .a         = SbpmgCLArgMem(lv->crr),
                                .b         = SbpmgCLArgMem(lv->crs),
                                .c         = SbpmgCLArgMem(lv->css),
                                .add       = SbpmgCLArgInt((int)mode),
                                .scale     = SbpmgCLArgReal(PETSC_FALSE, scale),
                                .z         = SbpmgCLArgMem(z),
                                .y         = SbpmgCLArgMem(y)};
    SBPMG_CL_SET_ARGS(p->wide->apply, wide_apply_patch, &a);
    if (all) {
      SBPMG_CL_SET_ARGS(p->wide->inner, wide_apply_inner, &a);
      SBPMG_CL_SET_ARGS(p->wide->cross, wide_apply_inner_cross, &a);
    }
  }
  PetscFunctionReturn(0);
}

/* Launch a kernel family over the owned nodes (its arguments but the region's set; first: the index of their gh): the fast path
   `inner` over the interior box (then `cross` where sbp_wide_fuse is 0) and the gather formula `patch` over the rim around it, or
   `patch` everywhere where the box is empty (or fast = false: the diagonal, a sweep from zero). The apply and the smoothing sweep
   share it. */
static PetscErrorCode SbpWideLaunchKernels(SbpProblem p, cl_kernel patch, cl_kernel inner, cl_kernel cross, cl_uint first, PetscBool fast)
{
  const PetscInt *box = p->wide->box, lanes = p->tune.sbp_wide_lanes;

  PetscFunctionBegin;
  if (fast && box[0] <= box[2] && box[1] <= box[3]) {
    PetscCall(SbpProblemLaunchBox(p, inner, first, SBP_REGION_INTERIOR, box));
    if (!p->tune.sbp_wide_fuse) PetscCall(SbpProblemLaunchBox(p, cross, first, SBP_REGION_INTERIOR, box));
    PetscCall(SbpProblemLaunchBoxLanes(p, patch, first, SBP_REGION_RIM, box, lanes));
  } else
    PetscCall(SbpProblemLaunchBoxLanes(p, patch, first, SBP_REGION_ALL, box, lanes));
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpWideLaunch(SbpProblem p, PetscBool fast)
{
  PetscFunctionBegin;
  PetscCall(SbpWideLaunchKernels(p, p->wide->apply, p->wide->inner, p->wide->cross, SBPMG_KERNEL_ARG_wide_apply_patch_gh, fast));
  PetscFunctionReturn(0);
}

/* y = z + scale M~ x on the device; on several ranks x goes through the ghost exchange first (u is then its ghosted patch). */
static PetscErrorCode SbpWideApplyDevice(SbpProblem p, Vec x, Vec z, PetscReal scale, Vec y)
{
  cl_mem         tab, xb = NULL, zb = NULL, yb = NULL;
  SbpWideMode    mode = z ? WIDE_MODE_ADD : WIDE_MODE_SET;
  PetscLogDouble n    = (PetscLogDouble)p->xm * p->ym;
  SbpLevel       lv;
  SbpHalo        h;
  SbpBuffers     bufs = {0};

  PetscFunctionBegin;
  PetscCall(SbpProblemCheckDeviceVec(p, x, "x"));
  PetscCall(SbpProblemCheckDeviceVec(p, y, "y"));
  PetscCheck(x != y, PETSC_COMM_SELF, PETSC_ERR_ARG_IDN, "x and y must be different vectors for the SBP-SAT operator");
  if (z && z != y) PetscCall(SbpProblemCheckDeviceVec(p, z, "z"));
  PetscCall(SbpProblemGetOrderTable(p, NULL, &tab));
  PetscCall(SbpWideGetKernels(p, p->otab));
  PetscCall(SbpProblemGetLevel(p, SBP_KERNEL_FP64, &lv));
  PetscCall(SbpLevelGetHalo(lv, &h));
  PetscCall(SbpmgLogKernelBegin(SBPMG_SbpApply));
  if (h) { /* the ghosts in before any launch (no overlap: the box of the fast path reaches the ghosts) */
    PetscCall(SbpHaloBegin(h, x));
    PetscCall(SbpHaloEnd(h));
  } else
    PetscCall(SbpBuffersGet(&bufs, x, SBP_READ, &xb));
  if (z && z != y) {
    PetscCall(SbpBuffersGet(&bufs, z, SBP_READ, &zb));
    PetscCall(SbpBuffersGet(&bufs, y, SBP_WRITE, &yb));
  } else {
    PetscCall(SbpBuffersGet(&bufs, y, z ? SBP_READ_WRITE : SBP_WRITE, &yb));
    zb = yb;
  }
  PetscCall(SbpWideSetApplyArgs(p, PETSC_TRUE, tab, h ? h->patch : xb, mode, scale, zb, yb));
  PetscCall(SbpWideLaunch(p, PETSC_TRUE));
  PetscCall(SbpBuffersRestore(&bufs));
  /* u, y, three coefficients, z (or y read); y read and written again by the cross pass of the two-pass fast path; on several ranks the
     patch copy too (read and write) */
  PetscCall(SbpmgLogKernelEnd(SBPMG_SbpApply, p->cl, (SbpWideFlopsPerNode(p) + (z ? 2 : 1)) * n,
                              n * sizeof(PetscReal) * (2 + 3 + (z ? 1 : 0) + (p->tune.sbp_wide_fuse ? 0 : 2) + (h ? 2 : 0))));
  PetscFunctionReturn(0);
}

/* d = diag(M~) on the device: wide_apply_patch in probe mode (u and z not read; d stands in for them). */
static PetscErrorCode SbpWideDiagonalDevice(SbpProblem p, Vec d)
{
  cl_mem     tab, db;
  SbpBuffers bufs = {0};

  PetscFunctionBegin;
  PetscCall(SbpProblemCheckDeviceVec(p, d, "the diagonal"));
  PetscCall(SbpProblemGetOrderTable(p, NULL, &tab));
  PetscCall(SbpWideGetKernels(p, p->otab));
  PetscCall(SbpmgLogKernelBegin(SBPMG_SbpDiag));
  PetscCall(SbpBuffersGet(&bufs, d, SBP_WRITE, &db));
  PetscCall(SbpWideSetApplyArgs(p, PETSC_FALSE, tab, db, WIDE_MODE_DIAGONAL, 1, db, db));
  PetscCall(SbpWideLaunch(p, PETSC_FALSE)); /* no u: no exchange */
  PetscCall(SbpBuffersRestore(&bufs));
  PetscCall(SbpmgLogKernelEnd(SBPMG_SbpDiag, p->cl, SbpWideFlopsPerNode(p) * p->xm * p->ym, (PetscLogDouble)p->xm * p->ym * 4 * sizeof(PetscReal)));
  PetscFunctionReturn(0);
}

/* y = W x on the device, W the order-p norm of the given kind. */
static PetscErrorCode SbpWideNormDevice(SbpProblem p, SbpNormType kind, Vec x, Vec y)
{
  cl_mem     tab, xb, yb, J;
  PetscInt   n = p->xm * p->ym;
  SbpLevel   lv;
  SbpBuffers bufs = {0};

  PetscFunctionBegin;
  PetscCall(SbpProblemCheckDeviceVec(p, x, "x"));
  PetscCall(SbpProblemCheckDeviceVec(p, y, "y"));
  PetscCall(SbpProblemGetOrderTable(p, NULL, &tab));
  PetscCall(SbpWideGetKernels(p, p->otab));
  PetscCall(SbpProblemGetLevel(p, SBP_KERNEL_FP64, &lv));
  PetscCall(SbpLevelGetJacobianBuffer(lv, &J));
  PetscCall(SbpmgLogKernelBegin(SBPMG_SbpNorm));
  PetscCall(SbpBuffersGet(&bufs, x, x == y ? SBP_READ_WRITE : SBP_READ, &xb));
  if (x == y)
    yb = xb;
  else
    PetscCall(SbpBuffersGet(&bufs, y, SBP_WRITE, &yb));
  {
    const SbpWideNormArgs a = {.Nr   = SbpmgCLArgInt((int)p->Nr),
                               .Ns   = SbpmgCLArgInt((int)p->Ns),
                               .hr   = SbpmgCLArgReal(PETSC_FALSE, p->hr),
                               .hs   = SbpmgCLArgReal(PETSC_FALSE, p->hs),
                               .kind = SbpmgCLArgInt((int)kind),
                               .T    = SbpmgCLArgMem(tab),
                               .J    = SbpmgCLArgMem(J),
                               .x    = SbpmgCLArgMem(xb),
                               .y    = SbpmgCLArgMem(yb)};
    SBPMG_CL_SET_ARGS(p->wide->norm, wide_norm_patch, &a);
  }
  PetscCall(SbpProblemLaunchBox(p, p->wide->norm, SBPMG_KERNEL_ARG_wide_norm_patch_gh, SBP_REGION_ALL, p->wide->box));
  PetscCall(SbpBuffersRestore(&bufs));
  PetscCall(SbpmgLogKernelEnd(SBPMG_SbpNorm, p->cl, n, (PetscLogDouble)n * (kind >= SBP_NORM_JH ? 3 : 2) * sizeof(PetscReal)));
  PetscFunctionReturn(0);
}

/* The smoothing sweep on the device (kernels/sbp_wide.cl wide_smooth_*; docs/design.md "Multigrid at higher order"): out = x + c1 (x -
   prev) + c2 s (b - M~ x) in one pass over the data (the interior box and the rim: two launches, three with sbp_wide_fuse 0), x through
   the ghost exchange first on several ranks (no overlap, as the apply). */
PetscErrorCode SbpProblemSweepWide(SbpProblem p, const SbpWideSweep *w)
{
  const PetscReal *htab;
  cl_mem           tab, xb = NULL, bb, db, pb, ob;
  PetscBool        readprev = w->c1 != 0 && !w->prev_zero ? PETSC_TRUE : PETSC_FALSE, inplace = w->prev == w->out ? PETSC_TRUE : PETSC_FALSE;
  int              flags;
  SbpLevel         lv;
  SbpHalo          h;
  SbpBuffers       bufs = {0};

  PetscFunctionBegin;
  PetscCall(SbpWideSetUp(p, &htab));
  PetscCall(SbpProblemCheckDeviceVec(p, w->b, "b"));
  PetscCall(SbpProblemCheckDeviceVec(p, w->out, "out"));
  if (!w->zero) {
    PetscCall(SbpProblemCheckDeviceVec(p, w->x, "x"));
    PetscCheck(w->x != w->out && w->x != w->b, PETSC_COMM_SELF, PETSC_ERR_ARG_IDN, "The sweep's x must differ from its b and out");
  }
  if (w->dinv) PetscCall(SbpProblemCheckDeviceVec(p, w->dinv, "dinv"));
  if (readprev && !inplace) PetscCall(SbpProblemCheckDeviceVec(p, w->prev, "prev"));
  PetscCall(SbpProblemGetOrderTable(p, NULL, &tab));
  PetscCall(SbpWideGetKernels(p, p->otab));
  PetscCall(SbpProblemBCFlags(p, &flags));
  PetscCall(SbpProblemGetLevel(p, SBP_KERNEL_FP64, &lv));
  PetscCall(SbpLevelGetHalo(lv, &h));
  if (!w->zero && h) { /* the ghosts in before any launch (the fast path's box reaches them) */
    PetscCall(SbpHaloBegin(h, w->x));
    PetscCall(SbpHaloEnd(h));
  } else if (!w->zero)
    PetscCall(SbpBuffersGet(&bufs, w->x, SBP_READ, &xb));
  PetscCall(SbpBuffersGet(&bufs, w->b, SBP_READ, &bb));
  PetscCall(SbpBuffersGet(&bufs, w->dinv, SBP_READ, &db));
  PetscCall(SbpBuffersGet(&bufs, readprev && !inplace ? w->prev : NULL, SBP_READ, &pb));
  PetscCall(SbpBuffersGet(&bufs, w->out, readprev && inplace ? SBP_READ_WRITE : SBP_WRITE, &ob));
  if (h) xb = h->patch; /* not read where zero */
  if (!xb) xb = ob;     /* zero: not read */
  if (!db) db = bb;     /* Richardson: not read */
  if (!pb) pb = ob;     /* in place, or not read */
  {
    const SbpWideSweepArgs a = {.Nr        = SbpmgCLArgInt((int)p->Nr),
                                .Ns        = SbpmgCLArgInt((int)p->Ns),
                                .rho       = SbpmgCLArgReal(PETSC_FALSE, p->rho),
                                .dirichlet = SbpmgCLArgInt(flags),
                                .T         = SbpmgCLArgMem(tab),
                                .x         = SbpmgCLArgMem(xb),
                                .a         = SbpmgCLArgMem(lv->crr),
                                .b         = SbpmgCLArgMem(lv->crs),
                                .c         = SbpmgCLArgMem(lv->css),
                                .rhs       = SbpmgCLArgMem(bb),
                                .jacobi    = SbpmgCLArgInt(w->dinv ? 1 : 0),
                                .dinv      = SbpmgCLArgMem(db),
                                .c1        = SbpmgCLArgReal(PETSC_FALSE, w->c1),
                                .c2        = SbpmgCLArgReal(PETSC_FALSE, w->c2),
                                .zero      = SbpmgCLArgInt(w->zero ? 1 : 0),
                                .prev_zero = SbpmgCLArgInt(w->prev_zero ? 1 : 0),
                                .prev      = SbpmgCLArgMem(pb),
                                .out       = SbpmgCLArgMem(ob)};
    SBPMG_CL_SET_ARGS(p->wide->sweep[0], wide_smooth_patch, &a);
    SBPMG_CL_SET_ARGS(p->wide->sweep[1], wide_smooth_inner, &a);
    SBPMG_CL_SET_ARGS(p->wide->sweep[2], wide_smooth_inner_cross, &a);
  }
  PetscCall(SbpWideLaunchKernels(p, p->wide->sweep[0], p->wide->sweep[1], p->wide->sweep[2], SBPMG_KERNEL_ARG_wide_smooth_patch_gh,
                                 w->zero ? PETSC_FALSE : PETSC_TRUE));
  PetscCall(SbpBuffersRestore(&bufs));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the operations (src/sbp/apply.c sends order > 2 here) */

PetscErrorCode SbpProblemApplyWide(SbpProblem p, Vec x, Vec z, PetscReal scale, Vec y)
{
  const PetscReal *tab;
  PetscBool        dev;

  PetscFunctionBegin;
  PetscCall(SbpWideSetUp(p, &tab));
  PetscCall(SbpProblemUseDevice(p, x, y, z, &dev));
  if (dev)
    PetscCall(SbpWideApplyDevice(p, x, z, scale, y));
  else
    PetscCall(SbpWideApplyHost(p, tab, x, z, scale, y));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemDiagonalWide(SbpProblem p, Vec d)
{
  const PetscReal *tab;
  PetscBool        dev;

  PetscFunctionBegin;
  PetscCall(SbpWideSetUp(p, &tab));
  PetscCall(SbpProblemUseDevice(p, d, NULL, NULL, &dev));
  if (dev)
    PetscCall(SbpWideDiagonalDevice(p, d));
  else
    PetscCall(SbpWideDiagonalHost(p, tab, d));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemNormWide(SbpProblem p, SbpNormType kind, Vec x, Vec y)
{
  const PetscReal *tab;
  PetscBool        dev;

  PetscFunctionBegin;
  PetscCheck(kind >= SBP_NORM_H && kind <= SBP_NORM_JHINV, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE, "Unknown norm kind %d", (int)kind);
  PetscCall(SbpWideSetUp(p, &tab));
  PetscCall(SbpProblemUseDevice(p, x, y, NULL, &dev));
  if (dev)
    PetscCall(SbpWideNormDevice(p, kind, x, y));
  else
    PetscCall(SbpWideNormHost(p, tab, kind, x, y));
  PetscFunctionReturn(0);
}
