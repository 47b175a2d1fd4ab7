/* The kernels of the multigrid layer: the sweeps of kernels/smooth.cl, built after kernels/sbp.cl with the level's SBP-SAT
   specialisation (SbpProblemGetBuildOptions()) and the work-group of the passes (tuning mg_pass_wg_x, mg_pass_wg_y), the
   transfers of kernels/transfer.cl, and the start vector of the eigenvalue estimates (kernels/estimate.cl). */
#include <sbpmg/private/mgimpl.h>

static const struct {
  const char *program, *name;
} PCSBPMGKernels[MG_K_COUNT] = {
    {"sbp+smooth", "mg_smooth"}, {"sbp+smooth", "mg_smooth_patch"}, {"sbp+smooth", "mg_smooth_inner"}, {"sbp+smooth", "mg_smooth_pass"},
    {"transfer", "mg_prolong"},  {"transfer", "mg_prolong_patch"},  {"transfer", "mg_restrict"},       {"transfer", "mg_restrict_patch"},
    {"estimate", "mg_start_vector"},
};

PetscErrorCode PCSBPMGGetKernel(SbpProblem p, const SbpmgTuning *tune, PetscBool single, PCSBPMGKernel id, cl_kernel *k)
{
  char opts[256] = "";

  PetscFunctionBegin;
  if (id <= MG_K_SMOOTH_PASS) { /* the transfers read no coefficients and take no specialisation */
    const char *sbp;
    PetscCall(SbpProblemGetBuildOptions(p, single ? SBP_KERNEL_COEF32 : SBP_KERNEL_FP64, &sbp));
    PetscCall(PetscSNPrintf(opts, sizeof(opts), "%s -DMG_PASS_TX=%d -DMG_PASS_TY=%d", sbp, (int)tune->mg_pass_wg_x, (int)tune->mg_pass_wg_y));
  }
  PetscCall(SbpmgCLGetKernel(p->cl, PCSBPMGKernels[id].program, opts[0] ? opts : NULL, PCSBPMGKernels[id].name, k));
  PetscFunctionReturn(0);
}
