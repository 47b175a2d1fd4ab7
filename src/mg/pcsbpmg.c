/* PCSBPMG: geometric multigrid for the SBP-SAT operator, built on PCMG the way PCGAMG is (the PC is a PCMG whose set-up builds
   the hierarchy). Phases: the type, its options and view (this file), set-up (src/mg/setup.c: levels by SbpProblemCoarsen, re-
   discretisation, spec 8.1), transfers (src/mg/transfer.c), smoothing (src/mg/smoother.c, sweeps.c), cycle (PCMG, with
   src/mg/cycle.c: the level residual, the single-precision V-cycle's application). The coarsest level is solved by CHOLMOD on the
   assembled operator. */
#include <sbpmg/private/mgimpl.h>

const char *const PCSBPMGPrecisions[] = {"double", "single", "PCSBPMGPrecision", "PC_SBPMG_PRECISION_", NULL};

static PetscErrorCode PCSetFromOptions_SBPMG(PC pc, PetscOptionItems *PetscOptionsObject)
{
  PC_SBPMG *sb = PCSBPMGGetContext(pc);

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "SBPMG options");
  PetscCall(PetscOptionsInt("-pc_sbpmg_levels", "Number of levels (0: halve until the coarse grid is at most -pc_sbpmg_coarse_size points per side)",
                            "PCSBPMGSetLevels", sb->levels_req, &sb->levels_req, NULL));
  {
    PetscInt  mglevels;
    PetscBool set;
    PetscCall(PetscOptionsInt("-pc_mg_levels", "Number of levels (same as -pc_sbpmg_levels)", "PCSBPMGSetLevels", sb->levels_req, &mglevels, &set));
    if (set) sb->levels_req = mglevels;
  }
  {
    PetscBool set;
    PetscCall(PetscOptionsInt("-pc_sbpmg_coarse_size",
                              "Largest number of points per side of the coarsest grid (0: the device's, tuning mg_coarse_size: 129 on a GPU, 32 elsewhere)",
                              "PCSBPMGSetCoarseSize", sb->coarse_size, &sb->coarse_size, &set));
    if (set) sb->coarse_size_set = sb->coarse_size ? PETSC_TRUE : PETSC_FALSE;
  }
  PetscCall(PetscOptionsEnum("-pc_sbpmg_smoother", "Smoother", "PCSBPMGSetSmoother", PCSBPMGSmootherTypes, (PetscEnum)sb->smoother, (PetscEnum *)&sb->smoother,
                             NULL));
  {
    PetscInt  nus[3] = {sb->nu_pre, sb->nu_post, 0}, nnu = 3;
    PetscBool set;
    PetscCall(PetscOptionsIntArray("-pc_sbpmg_nu", "Smoothing sweeps on the finest level: nu (pre and post) or pre,post", "PCSBPMGSetSweeps", nus, &nnu, &set));
    if (set) {
      sb->nu_count = nnu; /* checked at set-up: 1 or 2 values */
      sb->nu_pre   = nus[0];
      sb->nu_post  = nnu > 1 ? nus[1] : nus[0];
    }
  }
  PetscCall(PetscOptionsReal("-pc_sbpmg_nu_growth", "Factor by which the sweeps grow per level below the finest (1: plain V-cycle)", "PCSBPMGSetSweeps",
                             sb->nu_growth, &sb->nu_growth, NULL));
  PetscCall(PetscOptionsInt("-pc_sbpmg_nu_max", "Largest number of sweeps on any level", "PCSBPMGSetSweeps", sb->nu_max, &sb->nu_max, NULL));
  PetscCall(PetscOptionsString("-pc_sbpmg_cheby_range", "Chebyshev interval lo,hi as fractions of lambda_max(D^-1 A)", "PCSBPMGSetChebyshevRange",
                               sb->range_opt, sb->range_opt, sizeof(sb->range_opt), NULL));
  PetscCall(PetscOptionsReal("-pc_sbpmg_jacobi_omega", "Damping of the Jacobi smoother (0: 4/(3 lambda_max))", "PCSBPMGSetSmoother", sb->jacobi_omega,
                             &sb->jacobi_omega, NULL));
  PetscCall(
      PetscOptionsBool("-pc_sbpmg_coef_fp32",
                       "Device levels read the operator's coefficients rounded to fp32 in sweeps and residuals (default: tuning mg_coef_fp32, true on a GPU)",
                       "PCSBPMGSetSmoother", sb->coef_fp32, &sb->coef_fp32, &sb->coef_fp32_set));
  PetscCall(PetscOptionsInt("-pc_sbpmg_eig_its", "CG steps of the eigenvalue estimate on each level", "PCSBPMGSetSmoother", sb->eig_its, &sb->eig_its, NULL));
  {
    PetscBool set;
    PetscCall(PetscOptionsEnum("-pc_sbpmg_precision",
                               "Precision of the V-cycle's vectors and arithmetic, CG's staying fp64 (default: tuning mg_single of the device)", "PCSBPMG",
                               PCSBPMGPrecisions, (PetscEnum)sb->precision, (PetscEnum *)&sb->precision, &set));
    if (set) sb->precision_set = PETSC_TRUE;
  }
  PetscOptionsHeadEnd();
  PetscCall((*sb->mg_setfromoptions)(pc, PetscOptionsObject));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCView_SBPMG(PC pc, PetscViewer viewer)
{
  PC_SBPMG *sb = PCSBPMGGetContext(pc);
  PetscBool isascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (isascii) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "SBPMG: geometric multigrid on the SBP-SAT operator, re-discretised on %" PetscInt_FMT " levels\n", sb->nlevels));
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscMPIInt size;
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
    for (PetscInt k = 0; k < sb->nlevels; k++)
      PetscCall(PetscViewerASCIIPrintf(
          viewer, "level %" PetscInt_FMT ": %" PetscInt_FMT " x %" PetscInt_FMT " intervals%s\n", k, sb->problems[k]->Nr, sb->problems[k]->Ns,
          k < sb->nlevels - 1
              ? ""
              : (size > 1 ? " (coarse, gathered onto every rank, CHOLMOD on the assembled operator)" : " (coarse, CHOLMOD on the assembled operator)")));
    if (size > 1 && sb->nlevels) {
      PetscInt m, n;
      PetscCall(SbpProblemGetProcessGrid(sb->problems[0], &m, &n));
      PetscCall(PetscViewerASCIIPrintf(viewer, "every level on %d MPI ranks (%" PetscInt_FMT " x %" PetscInt_FMT ")%s\n", size, m, n,
                                       sb->problems[0]->use_device ? ", ghosts exchanged between the devices" : ""));
    }
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "smoother %s, %" PetscInt_FMT " pre- and %" PetscInt_FMT
                                     " post-sweeps on the finest level, times %g per level below (at most %" PetscInt_FMT
                                     "), fused on the %s; coarse-size limit %" PetscInt_FMT " points per side\n",
                                     PCSBPMGSmootherTypes[sb->smoother], sb->nu_pre, sb->nu_post, (double)sb->nu_growth, sb->nu_max,
                                     sb->nlevels && sb->problems[0]->use_device ? "device" : "host", sb->coarse_used));
    if (sb->nlevels && sb->problems[0]->use_device) {
      const char *name;
      PetscCall(SbpmgCLGetDeviceName(sb->problems[0]->cl, &name));
      if (sb->single)
        PetscCall(PetscViewerASCIIPrintf(
            viewer,
            "OpenCL device: %s; V-cycle in single precision (-pc_sbpmg_precision single): its vectors (iterates, residuals, corrections, "
            "the coarse solve's input and output), coefficients and arithmetic in fp32, CG's vectors in fp64\n",
            name));
      else
        PetscCall(PetscViewerASCIIPrintf(
            viewer,
            "OpenCL device: %s; V-cycle in double precision (-pc_sbpmg_precision double); level sweeps and residuals read the coefficients in "
            "%s (-pc_sbpmg_coef_fp32)\n",
            name, sb->coef_fp32 ? "fp32" : "fp64"));
      PetscCall(PetscViewerASCIIPrintf(
          viewer, "%" PetscInt_FMT " sweep(s) per pass over the data on the levels with an interior/rim split (tuning mg_sweeps_per_pass)\n",
          sb->tune.mg_sweeps_per_pass));
    }
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
  PetscCall((*sb->mg_view)(pc, viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCReset_SBPMG(PC pc)
{
  PC_SBPMG *sb = PCSBPMGGetContext(pc);

  PetscFunctionBegin;
  PetscCall(PCSBPMGClearCholmodOption(pc, sb));
  PetscCall(PCSBPMGResetHierarchy(sb));
  PetscCall((*sb->mg_reset)(pc));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCDestroy_SBPMG(PC pc)
{
  PC_SBPMG *sb                     = PCSBPMGGetContext(pc);
  PetscErrorCode (*mg_destroy)(PC) = sb->mg_destroy;

  PetscFunctionBegin;
  PetscCall(PCSBPMGClearCholmodOption(pc, sb));
  PetscCall(PCSBPMGResetHierarchy(sb));
  PetscCall(PetscFree(sb));
  ((PC_MG *)pc->data)->innerctx = NULL;
  PetscCall((*mg_destroy)(pc));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- type-specific setters */

/* The PCSBPMG data of pc, or NULL when pc is of another type (the setters then do nothing, as PETSc's do). */
static PetscErrorCode PCSBPMGGetSelf(PC pc, PC_SBPMG **sb)
{
  PetscBool is;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCSBPMG, &is));
  *sb = is ? PCSBPMGGetContext(pc) : NULL;
  PetscFunctionReturn(0);
}

/*@C
   PCSBPMGSetLevels - Number of multigrid levels (0: halve until the coarse grid fits -pc_sbpmg_coarse_size).

   Logically collective

   Options Database Key:
.  -pc_sbpmg_levels <n> - the number of levels

   Level: intermediate
@*/
PetscErrorCode PCSBPMGSetLevels(PC pc, PetscInt levels)
{
  PC_SBPMG *sb = NULL;

  PetscFunctionBegin;
  PetscCall(PCSBPMGGetSelf(pc, &sb));
  PetscCheck(levels >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Number of levels %" PetscInt_FMT " must be >= 0", levels);
  if (sb) sb->levels_req = levels;
  PetscFunctionReturn(0);
}

/*@C
   PCSBPMGSetCoarseSize - Largest number of points per side of the coarsest grid when the number of levels is chosen automatically.

   Options Database Key:
.  -pc_sbpmg_coarse_size <n> - default 129 on a GPU, 32 elsewhere (tuning mg_coarse_size)

   Level: intermediate
@*/
PetscErrorCode PCSBPMGSetCoarseSize(PC pc, PetscInt n)
{
  PC_SBPMG *sb = NULL;

  PetscFunctionBegin;
  PetscCall(PCSBPMGGetSelf(pc, &sb));
  PetscCheck(n >= 5, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Coarse size %" PetscInt_FMT " must be >= 5", n);
  if (sb) {
    sb->coarse_size     = n;
    sb->coarse_size_set = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

/*@C
   PCSBPMGSetSmoother - The level smoother: PC_SBPMG_CHEBYSHEV (default), PC_SBPMG_JACOBI or PC_SBPMG_RICHARDSON.

   Options Database Key:
.  -pc_sbpmg_smoother <chebyshev,jacobi,richardson> - the smoother

   Level: intermediate
@*/
PetscErrorCode PCSBPMGSetSmoother(PC pc, PCSBPMGSmootherType type)
{
  PC_SBPMG *sb = NULL;

  PetscFunctionBegin;
  PetscCall(PCSBPMGGetSelf(pc, &sb));
  PetscCheck(type >= PC_SBPMG_CHEBYSHEV && type <= PC_SBPMG_RICHARDSON, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Unknown smoother type %d",
             (int)type);
  if (sb) sb->smoother = type;
  PetscFunctionReturn(0);
}

/*@C
   PCSBPMGSetSweeps - Pre- and post-smoothing sweeps (equal counts keep the V-cycle symmetric, as CG needs).

   Options Database Keys:
.  -pc_sbpmg_nu <nu|pre,post> - the sweeps before and after the coarse correction (both the same, or each)

   Level: intermediate
@*/
PetscErrorCode PCSBPMGSetSweeps(PC pc, PetscInt pre, PetscInt post)
{
  PC_SBPMG *sb = NULL;

  PetscFunctionBegin;
  PetscCall(PCSBPMGGetSelf(pc, &sb));
  PetscCheck(pre >= 1 && post >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
             "Smoothing sweeps must be >= 1: got %" PetscInt_FMT " pre, %" PetscInt_FMT " post", pre, post);
  if (sb) {
    sb->nu_pre  = pre;
    sb->nu_post = post;
  }
  PetscFunctionReturn(0);
}

/*@C
   PCSBPMGSetChebyshevRange - The Chebyshev interval [lo, hi] * lambda_max(D^-1 A) (default 0.1, 1.1).

   Options Database Key:
.  -pc_sbpmg_cheby_range <lo,hi> - the fractions

   Level: intermediate
@*/
PetscErrorCode PCSBPMGSetChebyshevRange(PC pc, PetscReal lo, PetscReal hi)
{
  PC_SBPMG *sb = NULL;

  PetscFunctionBegin;
  PetscCall(PCSBPMGGetSelf(pc, &sb));
  PetscCheck(lo > 0 && hi > lo, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Chebyshev range [%g, %g] must satisfy 0 < lo < hi", (double)lo,
             (double)hi);
  if (sb) {
    sb->cheby_lo     = lo;
    sb->cheby_hi     = hi;
    sb->range_opt[0] = 0;
  }
  PetscFunctionReturn(0);
}

/*@C
   PCSBPMGGetLevels - The number of levels of the hierarchy built at set-up (0 before).

   Level: intermediate
@*/
PetscErrorCode PCSBPMGGetLevels(PC pc, PetscInt *levels)
{
  PC_SBPMG *sb = NULL;

  PetscFunctionBegin;
  PetscCall(PCSBPMGGetSelf(pc, &sb));
  PetscCheck(sb, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "PC of type %s is not PCSBPMG", ((PetscObject)pc)->type_name);
  *levels = sb->nlevels;
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGSetTuning(PC pc, const char overrides[])
{
  PC_SBPMG   *sb    = NULL;
  SbpmgTuning check = {0};

  PetscFunctionBegin;
  PetscCall(PCSBPMGGetSelf(pc, &sb));
  PetscCall(SbpmgTuningParse(overrides, &check)); /* an unknown key or a value out of range fails here */
  if (sb) PetscCall(PetscStrncpy(sb->tune_opts, overrides ? overrides : "", sizeof(sb->tune_opts)));
  PetscFunctionReturn(0);
}

/*MC
   PCSBPMG - "sbpmg": geometric multigrid V-cycle for the SBP-SAT operator of an SbpProblem, matrix-free on the OpenCL device.

   The operator handed to the KSP must come from SbpProblemCreateOperator() (matrix-free) or SbpProblemCreateAssembledOperator().
   The levels re-discretise the problem on grids halved in both directions (spec-sbp-sat.md 8.1); transfers are bilinear
   prolongation and its transpose (8.2-8.4); smoothers are fused device sweeps; the coarsest level is factored by CHOLMOD (its
   simplicial factor unless -mg_coarse_mat_cholmod_factor says otherwise).
   This is a PCMG: every -pc_mg_* and -mg_levels_* / -mg_coarse_* option applies on top of the defaults below.

   Options Database Keys:
+  -pc_sbpmg_levels <0>            - number of levels (0: automatic from -pc_sbpmg_coarse_size)
.  -pc_sbpmg_coarse_size <n>       - largest number of points per side of the coarsest grid (default: 129 on a GPU, 32 elsewhere)
.  -pc_sbpmg_smoother <chebyshev>  - chebyshev (on D^-1 A), jacobi (damped) or richardson (spec 8.6)
.  -pc_sbpmg_nu <3|pre,post>       - pre- and post-smoothing sweeps on the finest level (one number: both)
.  -pc_sbpmg_nu_growth <2>         - sweeps multiply by this per level below the finest (a variable V-cycle; 1: plain V-cycle)
.  -pc_sbpmg_nu_max <16>           - at most this many sweeps on any level
.  -pc_sbpmg_cheby_range <0.1,1.1> - Chebyshev interval as fractions of the estimated lambda_max(D^-1 A)
.  -pc_sbpmg_jacobi_omega <0>      - Jacobi damping (0: 4/(3 lambda_max))
.  -pc_sbpmg_eig_its <10>          - CG steps of the eigenvalue estimate on each level
.  -pc_sbpmg_coef_fp32 <bool>      - device levels read the coefficients rounded to fp32 in their sweeps and residuals (default: on a GPU)
-  -pc_sbpmg_precision <double|single> - the V-cycle's vectors and arithmetic in fp64 or fp32; CG's stay fp64 (default: tuning mg_single)

   The kernel shapes (1/diag inline or stored, sweeps per pass over the data and their work-group) are rows of the tuning table
   (include/sbpmg/private/tuning.h: mg_inline_diag, mg_sweeps_per_pass, mg_pass_wg_x, mg_pass_wg_y; -sbpmg_tune).

   Level: beginner

.seealso: `PCMG`, `SbpProblemCreateOperator()`, `PCSBPMGSetLevels()`, `PCSBPMGSetSmoother()`, `PCSBPMGSetSweeps()`
M*/
PetscErrorCode PCCreate_SBPMG(PC pc)
{
  PC_SBPMG *sb;
  PC_MG    *mg;

  PetscFunctionBegin;
  PetscCall(PCSBPMGInitializePackage());
  PetscCall(PCSetType(pc, PCMG));
  PetscCall(PetscObjectChangeTypeName((PetscObject)pc, PCSBPMG));
  PetscCall(PetscNew(&sb));
  sb->smoother  = PC_SBPMG_CHEBYSHEV;
  sb->nu_pre    = 3;
  sb->nu_post   = 3;
  sb->nu_growth = 2;
  sb->nu_max    = 16;
  sb->eig_its   = 10;
  sb->coef_fp32 = PETSC_TRUE;
  sb->cheby_lo  = 0.1;
  sb->cheby_hi  = 1.1;
  PetscCall(PetscStrncpy(sb->range_opt, "0.1,1.1", sizeof(sb->range_opt)));
  sb->mg_setup            = pc->ops->setup;
  sb->mg_setfromoptions   = pc->ops->setfromoptions;
  sb->mg_view             = pc->ops->view;
  sb->mg_reset            = pc->ops->reset;
  sb->mg_destroy          = pc->ops->destroy;
  sb->mg_apply            = pc->ops->apply;
  sb->mg_applyrichardson  = pc->ops->applyrichardson;
  mg                      = (PC_MG *)pc->data;
  mg->innerctx            = sb;
  pc->ops->setup          = PCSetUp_SBPMG;
  pc->ops->setfromoptions = PCSetFromOptions_SBPMG;
  pc->ops->view           = PCView_SBPMG;
  pc->ops->reset          = PCReset_SBPMG;
  pc->ops->destroy        = PCDestroy_SBPMG;
  pc->ops->apply          = PCApply_SBPMG;
  PetscFunctionReturn(0);
}
