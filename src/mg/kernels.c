/* The kernels of the multigrid layer: the sweeps of kernels/smooth.cl, built after kernels/sbp.cl with the level's SBP-SAT
   specialisation in the V-cycle's precision (SbpLevelGetBuildOptions(); none of sbp.cl's kernels, SBPMG_SBP_KERNELS 0: on NVIDIA's
   compiler a program's build time is the sum of its kernels', docs/design.md "Kernel subsets") and the work-group of the passes
   (tuning mg_pass_wg); the single sweep kernels also give the single-precision V-cycle's residual (src/mg/cycle.c); the transfers
   and conversions of kernels/transfer.cl, the start vector of the eigenvalue estimates (kernels/estimate.cl), the line smoothers
   (kernels/line.cl) and the dense coarse solve (kernels/dense.cl). */
#include <sbpmg/private/mgimpl.h>

/* Each kernel, its program and the subset of its file that program holds: of sbp.cl none (SBPMG_SBP_KERNELS 0, its functions only;
   smooth.cl's kernels come whole), of transfer.cl one rank's (1), several ranks' (2), the conversions (4) or those between grids of any sizes (8)
   (SBPMG_MG_TRANSFER_KERNELS). */
static const struct {
  const char *program, *name;
  int         subset;
} PCSBPMGKernels[MG_K_COUNT] = {
    {"sbp+smooth", "mg_smooth_patch", 0},    {"sbp+smooth", "mg_smooth_inner", 0},     {"sbp+smooth", "mg_smooth_pass", 0},
    {"transfer", "mg_prolong", 1},           {"transfer", "mg_prolong_patch", 2},      {"transfer", "mg_restrict", 1},
    {"transfer", "mg_restrict_patch", 2},    {"transfer", "mg_prolong_any", 8},        {"transfer", "mg_restrict_any", 8},
    {"transfer", "mg_prolong_any_patch", 8}, {"transfer", "mg_restrict_any_patch", 8}, {"transfer", "mg_to_single", 4},
    {"transfer", "mg_to_outer", 4},          {"estimate", "mg_start_vector", 0},       {"estimate", "mg_anisotropy", 0},
    {"sbp+line", "mg_line_solve", 1},        {"sbp+line", "mg_line_solve_chunks", 1},  {"sbp+line", "mg_line_solve_tiles", 1},
    {"sbp+line", "mg_line_maps", 1},         {"sbp+line", "mg_line_factor", 2},        {"sbp+line", "mg_line_ends", 4},
    {"sbp+line", "mg_line_join", 4},         {"dense", "mg_dense_apply", 0},           {"dense", "mg_dense_invert", 1},
};

PetscErrorCode PCSBPMGGetKernel(SbpLevel lv, const SbpmgTuning *tune, PCSBPMGKernel id, cl_kernel *k)
{
  const SbpProblem         p         = lv->problem;
  const SbpKernelPrecision prec      = lv->prec;
  char                     opts[512] = "";

  PetscFunctionBegin;
  if (id <= MG_K_SMOOTH_PASS) {
    const char *sbp;
    PetscCall(SbpLevelGetBuildOptions(lv, &sbp));
    PetscCall(PetscSNPrintf(opts, sizeof(opts), "%s -DSBPMG_SBP_KERNELS=%d -DSBPMG_MG_PASS_WG=%d", sbp, PCSBPMGKernels[id].subset, (int)tune->mg_pass_wg));
  } else if (id <= MG_K_TO_OUTER) /* the transfers read no coefficients and take no specialisation */
    PetscCall(PetscSNPrintf(opts, sizeof(opts), "-DSBPMG_MG_REAL=%s -DSBPMG_MG_TRANSFER_KERNELS=%d", prec == SBP_KERNEL_FP32 ? "float" : SBPMG_REAL_NAME,
                            PCSBPMGKernels[id].subset));
  else if (id >= MG_K_DENSE_APPLY) { /* the coarse solve: the precision and the work-group; the inverse's columns and lanes (fp64) */
    char invert[128] = "";
    if (PCSBPMGKernels[id].subset)
      PetscCall(PetscSNPrintf(invert, sizeof(invert), " -DSBPMG_MG_DENSE_INVERT=1 -DSBPMG_MG_INVERT_COLS=%d -DSBPMG_MG_INVERT_LANES=%d",
                              (int)tune->mg_invert_cols, (int)tune->mg_invert_lanes));
    PetscCall(PetscSNPrintf(opts, sizeof(opts), "-DSBPMG_MG_REAL=%s -DSBPMG_MG_DENSE_WG=%d%s", prec == SBP_KERNEL_FP32 ? "float" : SBPMG_REAL_NAME,
                            (int)tune->mg_dense_wg, invert));
  } else if (id >= MG_K_LINE_SOLVE) { /* after sbp.cl with the level's specialisation (the factorisation reads the coefficients in fp64) */
    const char *sbp;
    SbpLevel    from = lv;
    if (id == MG_K_LINE_FACTOR) PetscCall(SbpProblemGetLevel(p, SBP_KERNEL_FP64, &from));
    PetscCall(SbpLevelGetBuildOptions(from, &sbp));
    PetscCall(PetscSNPrintf(
        opts, sizeof(opts),
        "%s -DSBPMG_SBP_KERNELS=0 -DSBPMG_MG_LINE_KERNELS=%d -DSBPMG_MG_LINE_VEC=%d -DSBPMG_MG_LINE_CHUNKS=%d -DSBPMG_MG_LINE_GROUP=%d -DSBPMG_MG_LINE_TILE=%d "
        "-DSBPMG_MG_LINE_BATCH=%d",
        sbp, PCSBPMGKernels[id].subset, (int)tune->mg_line_vec, (int)tune->mg_line_chunks, (int)tune->mg_line_group, (int)tune->mg_line_tile,
        (int)tune->mg_line_batch));
  }
  PetscCall(SbpmgCLGetKernel(p->cl, PCSBPMGKernels[id].program, opts[0] ? opts : NULL, PCSBPMGKernels[id].name, k));
  PetscFunctionReturn(0);
}

/* PCSBPMGGetKernel() of the level of p in the precision prec. */
PetscErrorCode PCSBPMGGetProblemKernel(SbpProblem p, SbpKernelPrecision prec, const SbpmgTuning *tune, PCSBPMGKernel id, cl_kernel *k)
{
  SbpLevel lv;

  PetscFunctionBegin;
  PetscCall(SbpProblemGetLevel(p, prec, &lv));
  PetscCall(PCSBPMGGetKernel(lv, tune, id, k));
  PetscFunctionReturn(0);
}
