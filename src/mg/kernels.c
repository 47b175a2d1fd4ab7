/* The kernels of the multigrid layer: the sweeps of kernels/smooth.cl, built after kernels/sbp.cl with the level's SBP-SAT
   specialisation in the V-cycle's precision (SbpProblemGetBuildOptions()) and the work-group of the passes (tuning mg_pass_wg_x,
   mg_pass_wg_y), with the operator of that program as the single-precision V-cycle's residual; the transfers and conversions of
   kernels/transfer.cl, and the start vector of the eigenvalue estimates (kernels/estimate.cl). */
#include <sbpmg/private/mgimpl.h>

static const struct {
  const char *program, *name;
} PCSBPMGKernels[MG_K_COUNT] = {
    {"sbp+smooth", "mg_smooth"},      {"sbp+smooth", "mg_smooth_patch"}, {"sbp+smooth", "mg_smooth_inner"}, {"sbp+smooth", "mg_smooth_pass"},
    {"sbp+smooth", "sbp_apply"},      {"sbp+smooth", "sbp_apply_patch"}, {"sbp+smooth", "sbp_apply_inner"}, {"transfer", "mg_prolong"},
    {"transfer", "mg_prolong_patch"}, {"transfer", "mg_restrict"},       {"transfer", "mg_restrict_patch"}, {"transfer", "mg_to_single"},
    {"transfer", "mg_to_outer"},      {"estimate", "mg_start_vector"},
};

/* What PCSBPMGGetKernel() builds kernel id of level p from (its options composed into opts), as a request (src/cl/build.c). */
static PetscErrorCode PCSBPMGKernelRequest(SbpProblem p, const SbpmgTuning *tune, SbpKernelPrecision prec, PCSBPMGKernel id, char opts[PCSBPMG_OPTS_LEN],
                                           SbpmgCLKernelRequest *r)
{
  PetscFunctionBegin;
  opts[0] = 0;
  if (id <= MG_K_RESIDUAL_INNER) {
    const char *sbp;
    PetscCall(SbpProblemGetBuildOptions(p, prec, &sbp));
    PetscCall(PetscSNPrintf(opts, PCSBPMG_OPTS_LEN, "%s -DMG_PASS_TX=%d -DMG_PASS_TY=%d", sbp, (int)tune->mg_pass_wg_x, (int)tune->mg_pass_wg_y));
  } else if (id <= MG_K_TO_OUTER) /* the transfers read no coefficients and take no specialisation */
    PetscCall(PetscStrncpy(opts, prec == SBP_KERNEL_FP32 ? "-DMG_REAL=float" : "-DMG_REAL=" SBPMG_REAL_NAME, PCSBPMG_OPTS_LEN));
  r->program = PCSBPMGKernels[id].program;
  r->source  = NULL;
  r->options = opts[0] ? opts : NULL;
  r->kernel  = PCSBPMGKernels[id].name;
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGGetKernel(SbpProblem p, const SbpmgTuning *tune, SbpKernelPrecision prec, PCSBPMGKernel id, cl_kernel *k)
{
  char                 opts[PCSBPMG_OPTS_LEN];
  SbpmgCLKernelRequest r = {NULL};

  PetscFunctionBegin;
  PetscCall(PCSBPMGKernelRequest(p, tune, prec, id, opts, &r));
  PetscCall(SbpmgCLGetKernel(p->cl, r.program, r.options, r.kernel, k));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- builds ahead of use (docs/design.md "Kernel builds") */

PetscErrorCode PCSBPMGRequestsCreate(PetscInt max, PCSBPMGRequests *q)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(q, sizeof(*q)));
  PetscCall(PetscMalloc2(max, &q->r, max, &q->opts));
  q->max = max;
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGRequestsDestroy(PCSBPMGRequests *q)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(q->r, q->opts));
  PetscFunctionReturn(0);
}

/* One more request: kernel id of the multigrid layer for level p in a precision (tune: the passes' work-group), as PCSBPMGGetKernel(). */
PetscErrorCode PCSBPMGRequestKernel(PCSBPMGRequests *q, SbpProblem p, const SbpmgTuning *tune, SbpKernelPrecision prec, PCSBPMGKernel id)
{
  PetscFunctionBegin;
  PetscCheck(q->n < q->max, PETSC_COMM_SELF, PETSC_ERR_PLIB, "More than %" PetscInt_FMT " kernel requests", q->max);
  PetscCall(PCSBPMGKernelRequest(p, tune, prec, id, q->opts[q->n], &q->r[q->n]));
  q->n++;
  PetscFunctionReturn(0);
}

/* One more request: kernel id of kernels/sbp.cl for level p, fp64 or with fp32 coefficients, as SbpProblemGetKernel(). */
PetscErrorCode PCSBPMGRequestOperator(PCSBPMGRequests *q, SbpProblem p, SbpKernel id, PetscBool single)
{
  PetscFunctionBegin;
  PetscCheck(q->n < q->max, PETSC_COMM_SELF, PETSC_ERR_PLIB, "More than %" PetscInt_FMT " kernel requests", q->max);
  SbpProblemKernelRequest(p, id, single, &q->r[q->n++]);
  PetscFunctionReturn(0);
}
