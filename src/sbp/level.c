/* The levels of an SbpProblem (docs/design.md "The level object"): its discretisation on the device in each SbpKernelPrecision, with
   the coefficient buffers, the ghost exchange, the build options and the kernels of kernels/sbp.cl of that precision. The fp64 level is
   made at set-up, the others on first use; what two precisions share has one owner (include/sbpmg/private/sbpimpl.h, struct
   _n_SbpLevel). */
#include <sbpmg/private/sbpimpl.h>
#include "sbpmg_kernel_args.h"

/* The arguments of kernels/coef.cl coef_to_float by name (include/sbpmg/private/climpl.h SBPMG_CL_SET_ARGS). */
typedef struct {
  SbpmgCLArgValue n, x, y;
} SbpCoefToFloatArgs;

/* The build options of kernels/sbp.cl in the level's precision: the coefficients' and the vectors' types, 32-bit indices where every
   array of the patch has fewer than 2^30 entries (room for the offsets), the lean kernels' loads (sbp_select) and on NVIDIA's platform
   the register cap (sbp_max_registers). */
static PetscErrorCode SbpLevelSetBuildOptions(SbpLevel lv)
{
  SbpProblem  p          = lv->problem;
  int         idx32      = (PetscInt64)p->gxm * p->gym < ((PetscInt64)1 << 30) ? 1 : 0;
  const char *coef       = lv->prec == SBP_KERNEL_FP64 ? SBPMG_REAL_NAME : "float";
  const char *real       = lv->prec == SBP_KERNEL_FP32 ? "float" : SBPMG_REAL_NAME;
  char        capopt[40] = "";

  PetscFunctionBegin;
  if (p->cl->dclass == SBPMG_DEVICE_NVIDIA && p->tune.sbp_max_registers > 0)
    PetscCall(PetscSNPrintf(capopt, sizeof(capopt), " -cl-nv-maxrregcount=%d", (int)p->tune.sbp_max_registers));
  PetscCall(PetscSNPrintf(lv->opts, sizeof(lv->opts),
                          "-DSBPMG_SBP_COEF=%s -DSBPMG_SBP_REAL=%s -DSBPMG_SBP_INDEX32=%d -DSBPMG_SBP_SELECT=%d -DSBPMG_SBP_INNER_ROWS=%d "
                          "-DSBPMG_SBP_INNER_WHOLE=%d%s",
                          coef, real, idx32, (int)p->tune.sbp_select, (int)p->tune.sbp_inner_rows, (int)p->tune.sbp_inner_whole, capopt));
  PetscFunctionReturn(0);
}

/*
  SbpProblemCreateLevel - Make the level of a precision of a device problem whose layout, tuning and context exist (set-up makes the
  fp64 one before its coefficients; SbpProblemGetLevel() the others). The SBP_KERNEL_COEF32 level borrows the fp64 level's ghost
  exchange; the SBP_KERNEL_FP32 level makes its own on first use.
*/
PetscErrorCode SbpProblemCreateLevel(SbpProblem p, SbpKernelPrecision prec)
{
  SbpLevel lv;

  PetscFunctionBegin;
  PetscCheck(!p->level[prec], PETSC_COMM_SELF, PETSC_ERR_PLIB, "The level of precision %d exists", (int)prec);
  PetscCall(PetscNew(&lv));
  lv->problem = p;
  lv->prec    = prec;
  lv->order   = p->order;
  PetscCall(SbpLevelSetBuildOptions(lv));
  if (prec == SBP_KERNEL_FP64) {
    lv->own_coefficients = PETSC_TRUE;
    lv->own_halo         = PETSC_TRUE; /* made by set-up on several ranks */
  } else if (prec == SBP_KERNEL_COEF32) {
    lv->own_coefficients = PETSC_TRUE;
    lv->halo             = p->level[SBP_KERNEL_FP64]->halo;
  } else
    lv->own_halo = PETSC_TRUE;
  p->level[prec] = lv;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemGetLevel - The problem's level in a precision (its discretisation on the device: coefficients, ghost exchange, build
   options and kernels of that precision), made on first use; the problem owns it.

   Not collective (the first SBP_KERNEL_FP32 ghost exchange, SbpLevelGetHalo(), is collective)

   Level: developer
@*/
PetscErrorCode SbpProblemGetLevel(SbpProblem p, SbpKernelPrecision prec, SbpLevel *level)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  PetscValidPointer(level, 3);
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() before getting a level of the SBP-SAT problem");
  PetscCheck(p->use_device, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_WRONGSTATE, "The SBP-SAT problem has no device levels (host backend)");
  PetscCheck(prec >= SBP_KERNEL_FP64 && prec <= SBP_KERNEL_FP32, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE, "Unknown precision %d", (int)prec);
  if (!p->level[prec]) PetscCall(SbpProblemCreateLevel(p, prec));
  *level = p->level[prec];
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpLevelDestroy(SbpLevel *level)
{
  SbpLevel lv = *level;

  PetscFunctionBegin;
  if (!lv) PetscFunctionReturn(0);
  *level = NULL;
  if (lv->own_coefficients) {
    cl_mem *bufs[4] = {&lv->crr, &lv->css, &lv->crs, &lv->J};
    for (int b = 0; b < 4; b++)
      if (*bufs[b]) PetscCall(SbpmgCLReleaseBuffer(lv->problem->cl, bufs[b]));
  }
  if (lv->own_halo) PetscCall(SbpHaloDestroy(&lv->halo));
  PetscCall(PetscFree(lv));
  PetscFunctionReturn(0);
}

/* Free the levels, the borrowers (fp32, then the fp32 coefficients) before their owners. */
PetscErrorCode SbpProblemDestroyLevels(SbpProblem p)
{
  PetscFunctionBegin;
  PetscCall(SbpLevelDestroy(&p->level[SBP_KERNEL_FP32]));
  PetscCall(SbpLevelDestroy(&p->level[SBP_KERNEL_COEF32]));
  PetscCall(SbpLevelDestroy(&p->level[SBP_KERNEL_FP64]));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpLevelGetProblem(SbpLevel lv, SbpProblem *p)
{
  PetscFunctionBegin;
  *p = lv->problem;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpLevelGetPrecision(SbpLevel lv, SbpKernelPrecision *prec)
{
  PetscFunctionBegin;
  *prec = lv->prec;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpLevelGetOrder(SbpLevel lv, PetscInt *order)
{
  PetscFunctionBegin;
  *order = lv->order;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpLevelGetBuildOptions(SbpLevel lv, const char **opts)
{
  PetscFunctionBegin;
  *opts = lv->opts;
  PetscFunctionReturn(0);
}

/* The ghost exchange in the level's vectors' precision: the fp64 level's (borrowed by SBP_KERNEL_COEF32), or fp32, made on first use;
   NULL on one rank. */
PetscErrorCode SbpLevelGetHalo(SbpLevel lv, SbpHalo *h)
{
  SbpProblem p = lv->problem;

  PetscFunctionBegin;
  if (lv->prec == SBP_KERNEL_FP32 && !lv->halo && p->level[SBP_KERNEL_FP64]->halo) PetscCall(SbpHaloCreate(p->da, p->cl, PETSC_TRUE, &lv->halo));
  *h = lv->halo;
  PetscFunctionReturn(0);
}

/* Each kernel and the subset of kernels/sbp.cl (SBPMG_SBP_KERNELS) whose program holds it: the applies (1; the diagonal is sbp_apply_patch's
   mode add = 2), which the operator's set-up launches, apart from the norms (4), which it does not (a program's build time is the sum of
   its kernels', docs/performance.md "Cold builds"). */
static const struct {
  const char *name;
  int         subset;
} SbpKernels[SBP_K_COUNT] = {{"sbp_apply_patch", 1}, {"sbp_apply_inner", 1}, {"sbp_norm_patch", 4}};

/*@C
   SbpLevelGetKernel - A kernel of kernels/sbp.cl in the level's precision (the coefficients' storage, the buffers of
   SbpLevelGetCoefficientBuffers(), and the vectors'); its program is built on first use of one of its kernels, the kernel kept by the
   level.

   Not collective

   Level: developer
@*/
PetscErrorCode SbpLevelGetKernel(SbpLevel lv, SbpKernel id, cl_kernel *k)
{
  PetscFunctionBegin;
  if (!lv->kernels[id]) {
    char opts[sizeof(lv->opts) + 32];
    PetscCall(PetscSNPrintf(opts, sizeof(opts), "%s -DSBPMG_SBP_KERNELS=%d", lv->opts, SbpKernels[id].subset));
    PetscCall(SbpmgCLGetKernel(lv->problem->cl, "sbp", opts, SbpKernels[id].name, &lv->kernels[id]));
  }
  *k = lv->kernels[id];
  PetscFunctionReturn(0);
}

/* The fp32 copies of the fp64 level's crr, crs, css on the device (coef_to_float), into new buffers of the level to (the SBP_KERNEL_COEF32
   level, their owner). */
static PetscErrorCode SbpLevelRoundCoefficients(SbpLevel to)
{
  const SbpProblem p = to->problem;
  cl_kernel        k;
  const SbpLevel   lv     = p->level[SBP_KERNEL_FP64];
  const cl_mem     src[3] = {lv->crr, lv->crs, lv->css};
  cl_mem          *dst[3] = {&to->crr, &to->crs, &to->css};
  cl_long          n      = (cl_long)p->gxm * p->gym;

  PetscFunctionBegin;
  PetscCall(SbpProblemGetCoefficientKernel(p, "coef_to_float", &k));
  for (int t = 0; t < 3; t++) {
    PetscCall(SbpmgCLCreateBuffer(p->cl, CL_MEM_READ_WRITE, (size_t)n * sizeof(float), dst[t]));
    {
      const SbpCoefToFloatArgs a = {.n = SbpmgCLArgLong(n), .x = SbpmgCLArgMem(src[t]), .y = SbpmgCLArgMem(*dst[t])};
      SBPMG_CL_SET_ARGS(k, coef_to_float, &a);
    }
    PetscCall(SbpmgCLLaunch1DGuarded(p->cl, k, (size_t)PetscMin(n, 1 << 20)));
  }
  PetscFunctionReturn(0);
}

/*@C
   SbpLevelGetCoefficientBuffers - The device buffers of crr, crs and css (the kernels' a, b, c) on the ghosted patch in the level's
   coefficients' storage: fp64, or for either precision with fp32 coefficients rounded to fp32 (made on first use by the
   SBP_KERNEL_COEF32 level, which the SBP_KERNEL_FP32 level's are): the multigrid levels read those, 12 bytes per node instead of 24.

   Not collective

   Level: developer
@*/
PetscErrorCode SbpLevelGetCoefficientBuffers(SbpLevel lv, cl_mem *a, cl_mem *b, cl_mem *c)
{
  SbpProblem p = lv->problem;

  PetscFunctionBegin;
  if (!lv->crr && lv->prec == SBP_KERNEL_COEF32)
    PetscCall(SbpLevelRoundCoefficients(lv));
  else if (!lv->crr && lv->prec == SBP_KERNEL_FP32) { /* borrowed from their owner */
    SbpLevel owner;
    PetscCall(SbpProblemGetLevel(p, SBP_KERNEL_COEF32, &owner));
    PetscCall(SbpLevelGetCoefficientBuffers(owner, &lv->crr, &lv->crs, &lv->css));
  }
  *a = lv->crr;
  *b = lv->crs;
  *c = lv->css;
  PetscFunctionReturn(0);
}

/* J on the ghosted patch (fp64; the norms, the right-hand side): the fp64 level's alone. */
PetscErrorCode SbpLevelGetJacobianBuffer(SbpLevel lv, cl_mem *J)
{
  PetscFunctionBegin;
  PetscCheck(lv->prec == SBP_KERNEL_FP64, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "J is kept in fp64 only (the SBP_KERNEL_FP64 level)");
  *J = lv->J;
  PetscFunctionReturn(0);
}
