/* PCSBPMG: geometric multigrid for the SBP-SAT operator, built on PCMG the way PCGAMG is (the PC is a PCMG whose set-up builds
   the hierarchy). Phases: the type, its options and view (this file), set-up (src/mg/setup.c: levels by SbpProblemCoarsen, re-
   discretisation, docs/design.md "The sbpmg preconditioner"), transfers (src/mg/transfer.c), smoothing (src/mg/smoother.c, sweeps.c), cycle (PCMG, with
   src/mg/cycle.c: the level residual, the single-precision V-cycle's application), the coarse solve (src/mg/coarse.c: the dense inverse
   on the device or CHOLMOD on the host). */
#include <sbpmg/private/mgimpl.h>

const char *const PCSBPMGPrecisions[] = {"double", "single", "PCSBPMGPrecision", "PC_SBPMG_PRECISION_", NULL};
const char *const PCSBPMGLineTypes[]  = {"auto", "none", "r", "s", "both", "PCSBPMGLineType", "PC_SBPMG_LINES_", NULL};

/* For -help: the tuning PCSetUp_SBPMG() will use, if the operator is an SBP-SAT operator already (a bad override: the set-up's error). */
static PetscErrorCode PCSBPMGTuningForHelp(PC pc, PC_SBPMG *sb, SbpmgTuning *tune, PetscBool *known)
{
  SbpProblem     fine;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = pc->pmat ? MatGetSbpProblem(pc->pmat, &fine) : PETSC_ERR_ORDER;
  if (!ierr) *tune = fine->tune;
  *known = !ierr && !SbpmgTuningParse(sb->tune_opts, tune) ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscPopErrorHandler());
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSetFromOptions_SBPMG(PC pc, PetscOptionItems *PetscOptionsObject)
{
  PC_SBPMG   *sb = PCSBPMGGetContext(pc);
  SbpmgTuning tune; /* -help shows the device's defaults in force, where known */
  PetscBool   known = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PCSBPMGTuningForHelp(pc, sb, &tune, &known));
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
    PetscInt  size = sb->coarse_size_set || !known ? sb->coarse_size : tune.mg_coarse_size;
    PetscBool set;
    PetscCall(PetscOptionsInt("-pc_sbpmg_coarse_size",
                              "Largest number of points per side of the coarsest grid (0: the device's, tuning mg_coarse_size: 65 on a GPU, 32 elsewhere)",
                              "PCSBPMGSetCoarseSize", size, &size, &set));
    if (set) sb->coarse_size = size;
    if (set) sb->coarse_size_set = sb->coarse_size ? PETSC_TRUE : PETSC_FALSE;
    if (set) sb->coarse_size_given = sb->coarse_size_set;
  }
  PetscCall(PetscOptionsEnum("-pc_sbpmg_smoother", "Smoother", "PCSBPMGSetSmoother", PCSBPMGSmootherTypes, (PetscEnum)sb->smoother, (PetscEnum *)&sb->smoother,
                             NULL));
  {
    PetscInt  nus[2] = {sb->nu_pre, sb->nu_post}, nnu = 2;
    PetscBool set;
    PetscCall(SbpmgOptionsArray(PetscOptionsObject, "-pc_sbpmg_nu", "Smoothing sweeps on the finest level: nu (pre and post) or pre,post", "PCSBPMGSetSweeps",
                                PETSC_INT, nus, sb->nu_pre == sb->nu_post ? 1 : 2, &nnu, &set));
    if (set) {
      sb->nu_count = nnu; /* checked at set-up: 1 or 2 values (3: more were given) */
      sb->nu_pre   = nus[0];
      sb->nu_post  = nnu > 1 ? nus[1] : nus[0];
    }
  }
  PetscCall(PetscOptionsReal("-pc_sbpmg_nu_growth", "Factor by which the sweeps grow per level below the finest (1: plain V-cycle)", "PCSBPMGSetSweeps",
                             sb->nu_growth, &sb->nu_growth, NULL));
  {
    PetscBool set;
    PetscInt  nmax = sb->nu_max_given || !known ? sb->nu_max : tune.mg_nu_max;
    PetscCall(PetscOptionsInt("-pc_sbpmg_nu_max", "Largest number of sweeps on any level (default: tuning mg_nu_max, 3 on a GPU, 16 elsewhere)",
                              "PCSBPMGSetSweeps", nmax, &nmax, &set));
    if (set) {
      sb->nu_max       = nmax;
      sb->nu_max_given = PETSC_TRUE;
    }
  }
  {
    char range[64]; /* in force: the range_opt of a previous call was parsed into cheby_lo, cheby_hi at set-up */
    PetscCall(PetscSNPrintf(range, sizeof(range), "%g,%g", (double)sb->cheby_lo, (double)sb->cheby_hi));
    PetscBool set;
    PetscCall(PetscOptionsString("-pc_sbpmg_cheby_range", "Chebyshev interval lo,hi as fractions of lambda_max(D^-1 A)", "PCSBPMGSetChebyshevRange", range,
                                 sb->range_opt, sizeof(sb->range_opt), &set));
    if (set) sb->cheby_range_given = PETSC_TRUE;
  }
  {
    PetscBool set;
    PetscCall(PetscOptionsReal("-pc_sbpmg_jacobi_omega", "Damping of the Jacobi smoother (0: 4/(3 lambda_max))", "PCSBPMGSetSmoother", sb->jacobi_omega,
                               &sb->jacobi_omega, &set));
    if (set) sb->jacobi_omega_given = PETSC_TRUE;
  }
  {
    PetscBool fp32 = sb->coef_fp32_set || !known ? sb->coef_fp32 : (tune.mg_coef_fp32 ? PETSC_TRUE : PETSC_FALSE);
    PetscCall(
        PetscOptionsBool("-pc_sbpmg_coef_fp32",
                         "Device levels read the operator's coefficients rounded to fp32 in sweeps and residuals (default: tuning mg_coef_fp32, true on a GPU)",
                         "PCSBPMGSetSmoother", fp32, &fp32, &sb->coef_fp32_set));
    if (sb->coef_fp32_set) sb->coef_fp32 = fp32;
  }
  PetscCall(PetscOptionsInt("-pc_sbpmg_eig_its", "CG steps of the eigenvalue estimate on each level", "PCSBPMGSetSmoother", sb->eig_its, &sb->eig_its, NULL));
  PetscCall(SbpmgOptionsCheckEnum(((PetscObject)pc)->prefix, "-pc_sbpmg_lines", PCSBPMGLineTypes));
  PetscCall(PetscOptionsEnum("-pc_sbpmg_lines", "Line smoothing: auto (each level from its anisotropy), none, r, s or both (alternating) on every level",
                             "PCSBPMGSetLines", PCSBPMGLineTypes, (PetscEnum)sb->line_type, (PetscEnum *)&sb->line_type, NULL));
  PetscCall(PetscOptionsReal(
      "-pc_sbpmg_line_ratio",
      "auto: smooth along the r-lines (s-lines) of a level where rho^2 crr/css (its inverse) exceeds this somewhere: the ratio of its couplings",
      "PCSBPMGSetLines", sb->line_ratio, &sb->line_ratio, NULL));
  PetscCall(PetscOptionsInt("-pc_sbpmg_line_nu", "Sweeps per direction, before and after the coarse correction, on the finest level with line smoothing",
                            "PCSBPMGSetLines", sb->line_nu, &sb->line_nu, NULL));
  PetscCall(PetscOptionsInt("-pc_sbpmg_line_nu_max",
                            "Most sweeps per direction on a level smoothed along lines of one direction: they grow by -pc_sbpmg_line_nu per level below the "
                            "finest up to this (0: tuning mg_line_nu_max, 3 on a CPU, 1 on a GPU)",
                            "PCSBPMGSetLines", sb->line_nu_max, &sb->line_nu_max, NULL));
  PetscCall(SbpmgOptionsCheckEnum(((PetscObject)pc)->prefix, "-pc_sbpmg_coarse_solve", PCSBPMGCoarseSolveTypes));
  PetscCall(PetscOptionsEnum("-pc_sbpmg_coarse_solve",
                             "Coarse solve: auto (dense on one rank with the device backend for coarse grids of at most tuning mg_coarse_dense nodes, else "
                             "cholmod), dense (the inverse of the assembled coarse operator, applied on the device) or cholmod (its factor on the host)",
                             "PCSBPMGSetCoarseSolve", PCSBPMGCoarseSolveTypes, (PetscEnum)sb->coarse_solve, (PetscEnum *)&sb->coarse_solve, NULL));
  {
    PCSBPMGPrecision prec = sb->precision_set || !known ? sb->precision : (tune.mg_single ? PC_SBPMG_PRECISION_SINGLE : PC_SBPMG_PRECISION_DOUBLE);
    PetscBool        set;
    PetscCall(PetscOptionsEnum("-pc_sbpmg_precision",
                               "Precision of the V-cycle's vectors and arithmetic, CG's staying fp64 (default: tuning mg_single of the device)", "PCSBPMG",
                               PCSBPMGPrecisions, (PetscEnum)prec, (PetscEnum *)&prec, &set));
    if (set) {
      sb->precision     = prec;
      sb->precision_set = PETSC_TRUE;
    }
  }
  PetscOptionsHeadEnd();
  PetscCall((*sb->mg_setfromoptions)(pc, PetscOptionsObject));
  PetscFunctionReturn(0);
}

/* One line per level, numbered as PCMG's (0 = coarsest): the grid, the smoothers' sweeps (their KSPs' limits) or the coarse solve. */
static PetscErrorCode PCSBPMGViewLevels(PC pc, PC_SBPMG *sb, PetscViewer viewer)
{
  PC_MG      *mg = (PC_MG *)pc->data;
  PetscInt    L  = sb->nlevels;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  for (PetscInt l = 0; l < L; l++) {
    SbpProblem p = sb->problems[L - 1 - l];
    PetscInt   pre, post;
    char       work[128];

    PetscCall(PetscStrncpy(work, sb->coarse_dense ? "the dense inverse of the assembled operator, on the device" : "CHOLMOD on the assembled operator",
                           sizeof(work)));
    if (l) PetscCall(KSPGetTolerances(mg->levels[l]->smoothd, NULL, NULL, NULL, &pre));
    if (l) PetscCall(KSPGetTolerances(mg->levels[l]->smoothu, NULL, NULL, NULL, &post));
    if (l) {
      PCSBPMGLines ln = sb->lines[L - 1 - l];
      PetscCall(PetscSNPrintf(work, sizeof(work), "%" PetscInt_FMT " pre- and %" PetscInt_FMT " post-sweeps%s", pre, post,
                              !ln ? "" : (ln->dirs == 3 ? " along r- then s-lines (s then r after)" : (ln->dirs == 1 ? " along r-lines" : " along s-lines"))));
    }
    PetscCall(PetscViewerASCIIPrintf(viewer, "level %" PetscInt_FMT "%s: %" PetscInt_FMT " x %" PetscInt_FMT " intervals, SBP order %" PetscInt_FMT ", %s%s\n",
                                     l, l == L - 1 ? (l ? " (finest)" : " (coarsest and finest)") : (l ? "" : " (coarsest)"), p->Nr, p->Ns, p->order, work,
                                     !l && size > 1 ? ", gathered onto every rank" : ""));
  }
  if (size > 1 && L) {
    PetscInt m, n;
    PetscCall(SbpProblemGetProcessGrid(sb->problems[0], &m, &n));
    PetscCall(PetscViewerASCIIPrintf(viewer, "every level on %d MPI ranks (%" PetscInt_FMT " x %" PetscInt_FMT ")%s\n", size, m, n,
                                     sb->problems[0]->use_device ? ", ghosts exchanged between the devices" : ""));
  }
  PetscFunctionReturn(0);
}

/* PCMG's view calls this (its view hook, as PCGAMG's) between its summary and its levels: the hierarchy, the smoothing, the device. */
static PetscErrorCode PCView_SBPMG(PC pc, PetscViewer viewer)
{
  PC_SBPMG   *sb         = PCSBPMGGetContext(pc);
  char        levels[64] = "levels made at set-up down to the coarse-size limit";
  PetscBool   isascii, device = sb->nlevels && sb->problems[0]->use_device ? PETSC_TRUE : PETSC_FALSE;
  const char *name;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(0);
  if (sb->nlevels || sb->levels_req)
    PetscCall(PetscSNPrintf(levels, sizeof(levels), "%" PetscInt_FMT " level%s%s", sb->nlevels ? sb->nlevels : sb->levels_req,
                            (sb->nlevels ? sb->nlevels : sb->levels_req) == 1 ? "" : "s",
                            sb->nlevels ? " (numbered as PCMG's: 0 = coarsest)" : ", made at set-up"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "SBPMG: geometric multigrid on the SBP-SAT operator, re-discretised on %s\n", levels));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PCSBPMGViewLevels(pc, sb, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer,
                                   "smoother %s, fused on the %s: %" PetscInt_FMT " pre- and %" PetscInt_FMT
                                   " post-sweeps on the finest level, times %.4g per level below (at most %" PetscInt_FMT ")\n",
                                   PCSBPMGSmootherTypes[sb->smoother], sb->nlevels ? (device ? "device" : "host") : "operator's backend", sb->nu_pre,
                                   sb->nu_post, (double)sb->nu_growth, sb->nlevels ? sb->nu_max_used : sb->nu_max));
  if (sb->nlevels) {
    PetscBool lines = PETSC_FALSE;
    for (PetscInt k = 0; k < sb->nlevels - 1; k++)
      if (sb->lines[k]) lines = PETSC_TRUE;
    if (lines)
      PetscCall(PetscViewerASCIIPrintf(viewer,
                                       "line smoothing: %" PetscInt_FMT " sweep(s) per direction on the finest level; levels with lines of one direction "
                                       "%" PetscInt_FMT " more per level below, at most %" PetscInt_FMT " (%s)\n",
                                       sb->line_nu, sb->line_nu, sb->line_nu_max_used,
                                       sb->line_nu_max ? "-pc_sbpmg_line_nu_max" : "the default, tuning mg_line_nu_max"));
    PetscCall(PetscViewerASCIIPrintf(viewer, "coarse-size limit %" PetscInt_FMT " points per side (%s)\n", sb->coarse_used,
                                     sb->coarse_size_set ? "-pc_sbpmg_coarse_size" : "the default, tuning mg_coarse_size"));
  }
  if (device) PetscCall(SbpmgCLGetDeviceName(sb->problems[0]->cl, &name));
  if (device && sb->single && sb->coarse64)
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "OpenCL device: %s; V-cycle in single precision (-pc_sbpmg_precision single): its vectors (iterates, residuals, "
                                     "corrections), coefficients and arithmetic in fp32 but on the coarsest level, whose vectors are fp64 for PETSc's own "
                                     "coarse solver (-mg_coarse_ksp_type, -mg_coarse_pc_type), CG's vectors in fp64\n",
                                     name));
  else if (device && sb->single)
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "OpenCL device: %s; V-cycle in single precision (-pc_sbpmg_precision single): its vectors (iterates, residuals, "
                                     "corrections, the coarse solve's input and output), coefficients and arithmetic in fp32, CG's vectors in fp64\n",
                                     name));
  else if (device)
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "OpenCL device: %s; V-cycle in double precision (-pc_sbpmg_precision double); level sweeps and residuals read the "
                                     "coefficients in %s (-pc_sbpmg_coef_fp32)\n",
                                     name, sb->coef_fp32 ? "fp32" : "fp64"));
  if (device)
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "%" PetscInt_FMT " sweep(s) per pass over the data on the levels with an interior/rim split (tuning mg_sweeps_per_pass)\n",
                                     sb->tune.mg_sweeps_per_pass));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
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
.  -pc_sbpmg_coarse_size <n> - default 65 on a GPU, 32 elsewhere (tuning mg_coarse_size)

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
  PetscCall(PCSBPMGCheckChebyshevRange(PetscObjectComm((PetscObject)pc), lo, hi));
  if (sb) {
    sb->cheby_lo     = lo;
    sb->cheby_hi     = hi;
    sb->range_opt[0] = 0;
  }
  PetscFunctionReturn(0);
}

/*@C
   PCSBPMGSetLines - Line smoothing: PC_SBPMG_LINES_AUTO (default: each level from its anisotropy), PC_SBPMG_LINES_NONE, PC_SBPMG_LINES_R,
   PC_SBPMG_LINES_S or PC_SBPMG_LINES_BOTH (on every level), and the ratio of the couplings beyond which auto smooths along lines (ratio
   <= 0: unchanged).

   Options Database Keys:
+  -pc_sbpmg_lines <auto,none,r,s,both> - which line smoothers
-  -pc_sbpmg_line_ratio <q>              - auto: r-lines where rho^2 crr/css > q somewhere, s-lines where css/(rho^2 crr) > q

   Level: intermediate
@*/
PetscErrorCode PCSBPMGSetLines(PC pc, PCSBPMGLineType type, PetscReal ratio)
{
  PC_SBPMG *sb = NULL;

  PetscFunctionBegin;
  PetscCall(PCSBPMGGetSelf(pc, &sb));
  PetscCheck(type >= PC_SBPMG_LINES_AUTO && type <= PC_SBPMG_LINES_BOTH, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Unknown line type %d",
             (int)type);
  if (sb) {
    sb->line_type = type;
    if (ratio > 0) sb->line_ratio = ratio;
  }
  PetscFunctionReturn(0);
}

/*@C
   PCSBPMGSetCoarseSolve - The coarse solve: PC_SBPMG_COARSE_AUTO (default: the dense inverse on the device on one rank with the device
   backend where the coarse grid has at most tuning mg_coarse_dense nodes, else CHOLMOD), PC_SBPMG_COARSE_DENSE or PC_SBPMG_COARSE_CHOLMOD.

   Logically collective

   Options Database Key:
.  -pc_sbpmg_coarse_solve <auto,dense,cholmod> - the coarse solve

   Level: intermediate
@*/
PetscErrorCode PCSBPMGSetCoarseSolve(PC pc, PCSBPMGCoarseSolveType type)
{
  PC_SBPMG *sb = NULL;

  PetscFunctionBegin;
  PetscCall(PCSBPMGGetSelf(pc, &sb));
  PetscCheck(type >= PC_SBPMG_COARSE_AUTO && type <= PC_SBPMG_COARSE_CHOLMOD, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
             "Unknown coarse solve %d", (int)type);
  if (sb) sb->coarse_solve = type;
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
   prolongation and its transpose (8.2-8.4); smoothers are fused device sweeps; the coarsest level is solved by the dense inverse of its
   assembled operator on the device (one rank, device backend, small coarse grids) or factored by CHOLMOD (its simplicial factor unless
   -mg_coarse_mat_cholmod_factor says otherwise).
   This is a PCMG: every -pc_mg_* and -mg_levels_* / -mg_coarse_* option applies on top of the defaults below.

   Options Database Keys:
+  -pc_sbpmg_levels <0>            - number of levels (0: automatic from -pc_sbpmg_coarse_size)
.  -pc_sbpmg_coarse_size <n>       - largest number of points per side of the coarsest grid (default: 65 on a GPU, 32 elsewhere)
.  -pc_sbpmg_smoother <chebyshev>  - chebyshev (on D^-1 A), jacobi (damped) or richardson (spec 8.6)
.  -pc_sbpmg_nu <3|pre,post>       - pre- and post-smoothing sweeps on the finest level (one number: both)
.  -pc_sbpmg_nu_growth <2>         - sweeps multiply by this per level below the finest (a variable V-cycle; 1: plain V-cycle)
.  -pc_sbpmg_nu_max <n>            - at most this many sweeps on any level (default: 3 on a GPU, 16 elsewhere)
.  -pc_sbpmg_cheby_range <0.1,1.1> - Chebyshev interval as fractions of the estimated lambda_max(D^-1 A)
.  -pc_sbpmg_jacobi_omega <0>      - Jacobi damping (0: 4/(3 lambda_max))
.  -pc_sbpmg_eig_its <10>          - CG steps of the eigenvalue estimate on each level
.  -pc_sbpmg_lines <auto>          - line smoothing: auto (from each level's anisotropy), none, r, s or both (PCSBPMGSetLines())
.  -pc_sbpmg_line_nu <1>           - sweeps per direction on the finest level with line smoothing
.  -pc_sbpmg_line_nu_max <n>       - levels smoothed along lines of one direction: their sweeps grow by line_nu per level below the finest
                                      up to n (default: tuning mg_line_nu_max, 3 on a CPU, 1 on a GPU)
.  -pc_sbpmg_coarse_solve <auto>   - auto, dense (the inverse of the assembled coarse operator on the device) or cholmod (on the host)
.  -pc_sbpmg_coef_fp32 <bool>      - device levels read the coefficients rounded to fp32 in their sweeps and residuals (default: on a GPU)
-  -pc_sbpmg_precision <double|single> - the V-cycle's vectors and arithmetic in fp64 or fp32; CG's stay fp64 (default: tuning mg_single)

   The kernel shapes (1/diag inline or stored, sweeps per pass over the data and their work-group) are rows of the tuning table
   (include/sbpmg/private/tuning.h: mg_inline_diag, mg_sweeps_per_pass, mg_pass_wg, mg_pass_rows, mg_pass_groups_per_cu; -sbpmg_tune).

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
  sb->smoother    = PC_SBPMG_CHEBYSHEV;
  sb->nu_pre      = 3;
  sb->nu_post     = 3;
  sb->nu_growth   = 2;
  sb->nu_max      = 16;
  sb->eig_its     = 10;
  sb->coef_fp32   = PETSC_TRUE;
  sb->cheby_lo    = 0.1;
  sb->cheby_hi    = 1.1;
  sb->line_type   = PC_SBPMG_LINES_AUTO;
  sb->line_nu     = 1;
  sb->line_nu_max = 0;
  sb->line_ratio  = 32;
  PetscCall(PetscStrncpy(sb->range_opt, "0.1,1.1", sizeof(sb->range_opt)));
  sb->mg_setup            = pc->ops->setup;
  sb->mg_setfromoptions   = pc->ops->setfromoptions;
  sb->mg_reset            = pc->ops->reset;
  sb->mg_destroy          = pc->ops->destroy;
  sb->mg_apply            = pc->ops->apply;
  sb->mg_applyrichardson  = pc->ops->applyrichardson;
  mg                      = (PC_MG *)pc->data;
  mg->innerctx            = sb;
  mg->view                = PCView_SBPMG;
  pc->ops->setup          = PCSetUp_SBPMG;
  pc->ops->setfromoptions = PCSetFromOptions_SBPMG;
  pc->ops->reset          = PCReset_SBPMG;
  pc->ops->destroy        = PCDestroy_SBPMG;
  pc->ops->apply          = PCApply_SBPMG;
  PetscFunctionReturn(0);
}
