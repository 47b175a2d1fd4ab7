/* The kernels of the multigrid layer: the sweeps of kernels/smooth.cl, built after kernels/sbp.cl with the level's SBP-SAT
   specialisation in the V-cycle's precision (SbpProblemGetBuildOptions(); of sbp.cl's kernels only the applies, SBP_KERNELS 1)
   and the work-group of the passes (tuning mg_pass_wg_x, mg_pass_wg_y), with the operator of that program as the
   single-precision V-cycle's residual; the transfers and conversions of kernels/transfer.cl, and the start vector of the
   eigenvalue estimates (kernels/estimate.cl). */
#include <sbpmg/private/mgimpl.h>

static const struct {
  const char *program, *name;
} PCSBPMGKernels[MG_K_COUNT] = {
    {"sbp+smooth", "mg_smooth_patch"}, {"sbp+smooth", "mg_smooth_inner"}, {"sbp+smooth", "mg_smooth_pass"}, {"sbp+smooth", "sbp_apply_patch"},
    {"sbp+smooth", "sbp_apply_inner"}, {"transfer", "mg_prolong"},        {"transfer", "mg_prolong_patch"}, {"transfer", "mg_restrict"},
    {"transfer", "mg_restrict_patch"}, {"transfer", "mg_to_single"},      {"transfer", "mg_to_outer"},      {"estimate", "mg_start_vector"},
};

PetscErrorCode PCSBPMGGetKernel(SbpProblem p, const SbpmgTuning *tune, SbpKernelPrecision prec, PCSBPMGKernel id, cl_kernel *k)
{
  char opts[256] = "";

  PetscFunctionBegin;
  if (id <= MG_K_RESIDUAL_INNER) {
    const char *sbp;
    PetscCall(SbpProblemGetBuildOptions(p, prec, &sbp));
    PetscCall(PetscSNPrintf(opts, sizeof(opts), "%s -DSBP_KERNELS=1 -DMG_PASS_TX=%d -DMG_PASS_TY=%d", sbp, (int)tune->mg_pass_wg_x, (int)tune->mg_pass_wg_y));
  } else if (id <= MG_K_TO_OUTER) { /* the transfers read no coefficients and take no specialisation; the program of their subset */
    const int subset = id >= MG_K_TO_SINGLE ? 4 : (id == MG_K_PROLONG_PATCH || id == MG_K_RESTRICT_PATCH) ? 2 : 1;
    PetscCall(PetscSNPrintf(opts, sizeof(opts), "-DMG_REAL=%s -DMG_TRANSFER_KERNELS=%d", prec == SBP_KERNEL_FP32 ? "float" : SBPMG_REAL_NAME, subset));
  }
  PetscCall(SbpmgCLGetKernel(p->cl, PCSBPMGKernels[id].program, opts[0] ? opts : NULL, PCSBPMGKernels[id].name, k));
  PetscFunctionReturn(0);
}
