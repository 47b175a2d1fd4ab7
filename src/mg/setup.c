/* PCSBPMG's set-up: the hierarchy of re-discretised levels (SbpProblemCoarsen; docs/design.md "The sbpmg preconditioner"), its transfers (src/mg/transfer.c),
   PCMG's level vectors in the V-cycle's precision, the smoothers (src/mg/smoother.c) and the coarse solve (CHOLMOD on the assembled operator), then PCMG's own
   set-up. */
#include <sbpmg/private/mgimpl.h>

PetscErrorCode PCSBPMGResetHierarchy(PC_SBPMG *sb)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&sb->bf));
  PetscCall(VecDestroy(&sb->xf));
  sb->single = PETSC_FALSE;
  for (PetscInt k = 0; k < sb->nlevels; k++) {
    PetscCall(SbpProblemDestroy(&sb->problems[k]));
    PetscCall(MatDestroy(&sb->ops[k]));
    PetscCall(MatDestroy(&sb->interp[k]));
  }
  PetscCall(PetscFree3(sb->problems, sb->ops, sb->interp));
  PetscCall(MatDestroy(&sb->coarse_assembled));
  sb->nlevels = 0;
  PetscFunctionReturn(0);
}

/* Sweeps on the level `depth` below the finest: nu * growth^depth, at most nu_max (and at least nu). */
static PetscInt PCSBPMGLevelSweeps(PC_SBPMG *sb, PetscInt nu, PetscInt depth)
{
  PetscReal v = nu * PetscPowReal(sb->nu_growth, (PetscReal)depth);
  return PetscMax(nu, PetscMin(sb->nu_max, (PetscInt)(v + 0.5)));
}

/* How many levels: as requested, or halving until the coarse grid has at most coarse_size points per side. Every level is
   distributed over all ranks of the fine grid's DMDA (DMCoarsen keeps the process grid), so on several ranks the hierarchy also
   ends where a coarser grid would leave a rank fewer than 2 nodes (the stencil width) in some direction; the coarsest level is
   then gathered onto every rank for CHOLMOD (PCSBPMGConfigureCoarse). An explicit request beyond either limit is an error
   naming the sizes (and the ranks); the default coarse size only stops at the limit. */
static PetscErrorCode PCSBPMGCountLevels(PC pc, PC_SBPMG *sb, SbpProblem fine, PetscInt *nlevels)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)pc);
  PetscInt    Nr, Ns, possible, dist, m, n;
  PetscMPIInt size;
  char        why[256];

  PetscFunctionBegin;
  PetscCall(SbpProblemCountLevels(fine, &possible, &dist, why, sizeof(why)));
  PetscCall(SbpProblemGetProcessGrid(fine, &m, &n));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)fine), &size));
  if (sb->levels_req > 0) {
    Nr = fine->Nr >> (possible - 1);
    Ns = fine->Ns >> (possible - 1);
    PetscCheck(sb->levels_req <= possible, comm, PETSC_ERR_ARG_OUTOFRANGE,
               "-pc_sbpmg_levels %" PetscInt_FMT " is too many for the %" PetscInt_FMT " x %" PetscInt_FMT " grid: it halves into at most %" PetscInt_FMT
               " levels (down to %" PetscInt_FMT " x %" PetscInt_FMT ", each level needs even sizes and at least 4 intervals)",
               sb->levels_req, fine->Nr, fine->Ns, possible, Nr, Ns);
    PetscCheck(sb->levels_req <= dist, comm, PETSC_ERR_ARG_OUTOFRANGE,
               "-pc_sbpmg_levels %" PetscInt_FMT " cannot be distributed: the %" PetscInt_FMT " x %" PetscInt_FMT " grid on %d MPI ranks (%" PetscInt_FMT
               " x %" PetscInt_FMT ") halves into at most %" PetscInt_FMT " levels (down to %" PetscInt_FMT " x %" PetscInt_FMT
               "): %s; use fewer levels or fewer ranks",
               sb->levels_req, fine->Nr, fine->Ns, size, m, n, dist, fine->Nr >> (dist - 1), fine->Ns >> (dist - 1), why);
    *nlevels = sb->levels_req;
  } else {
    PetscInt L = 1;
    Nr         = fine->Nr;
    Ns         = fine->Ns;
    while (PetscMax(Nr, Ns) + 1 > sb->coarse_used && L < dist) {
      Nr /= 2;
      Ns /= 2;
      L++;
    }
    if (PetscMax(Nr, Ns) + 1 > sb->coarse_used && L < possible) { /* stopped by the decomposition, not by the sizes */
      PetscCheck(!sb->coarse_size_set, comm, PETSC_ERR_ARG_OUTOFRANGE,
                 "-pc_sbpmg_coarse_size %" PetscInt_FMT " cannot be reached on %d MPI ranks (%" PetscInt_FMT " x %" PetscInt_FMT
                 "): the coarsest distributable level of the %" PetscInt_FMT " x %" PetscInt_FMT " grid is %" PetscInt_FMT " x %" PetscInt_FMT
                 " (%" PetscInt_FMT " levels), since %s; use fewer ranks or a larger -pc_sbpmg_coarse_size",
                 sb->coarse_size, size, m, n, fine->Nr, fine->Ns, Nr, Ns, L, why);
      PetscCall(
          PetscInfo(pc, "Coarsest level %" PetscInt_FMT " x %" PetscInt_FMT " (above the coarse size %" PetscInt_FMT "): %s\n", Nr, Ns, sb->coarse_used, why));
    }
    *nlevels = L;
  }
  PetscFunctionReturn(0);
}

/* A level's operator for the V-cycle. All faces Neumann: without the constant null space that SbpProblemCreateOperator() attaches,
   or PETSc's KSPSolve() would project every smoother's right-hand side (a vector made and a reduction at every smoothing, on the
   single-precision V-cycle's level vectors too). The V-cycle needs no projection: a compatible residual (1^T r = 0) stays compatible
   through the symmetric level operators (1^T M~ x = 0) and the restriction P^T (P maps constants to constants), and the coarse solve is
   exact for it (PCSBPMGPinCoarse). */
static PetscErrorCode PCSBPMGLevelOperator(SbpProblem p, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCreateOperator(p, A));
  PetscCall(MatSetNullSpace(*A, NULL));
  PetscCall(MatSetTransposeNullSpace(*A, NULL));
  PetscFunctionReturn(0);
}

/* All faces Neumann (docs/design.md "The all-Neumann coarse solve"): the assembled coarse operator A_c is singular (the constants), and
   CHOLMOD's factor of it is meaningless. It is pinned at node 0: A_c + a e_0 e_0^T with a = (A_c)_00, symmetric positive definite, and
   for a compatible right-hand side r (1^T r = 0) its solution solves A_c e = r exactly: 1^T (A_c + a e_0 e_0^T) e = a e_0 = 1^T r = 0,
   so e_0 = 0 and A_c e = r. No parameter, and the level's operator is unchanged. */
static PetscErrorCode PCSBPMGPinCoarse(Mat A)
{
  PetscInt rs, re, row = 0;

  PetscFunctionBegin;
  PetscCall(MatSetNullSpace(A, NULL));
  PetscCall(MatSetTransposeNullSpace(A, NULL));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  if (rs <= row && row < re) {
    PetscScalar a;
    PetscCall(MatGetValues(A, 1, &row, 1, &row, &a));
    PetscCall(MatSetValue(A, row, row, a, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(A, MAT_SPD, PETSC_TRUE));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSBPMGBuildHierarchy(PC pc, PC_SBPMG *sb, SbpProblem fine)
{
  PetscInt L;

  PetscFunctionBegin;
  PetscCall(PCSBPMGCountLevels(pc, sb, fine, &L));
  PetscCall(PetscCalloc3(L, &sb->problems, L, &sb->ops, L, &sb->interp));
  sb->nlevels     = L;
  sb->problems[0] = fine;
  PetscCall(PetscObjectReference((PetscObject)fine));
  /* all faces Neumann: the finest level's smoothers get an operator without the null space (the caller's keeps it, for CG) */
  if (SbpProblemAllNeumann(fine) && L > 1) PetscCall(PCSBPMGLevelOperator(fine, &sb->ops[0]));
  for (PetscInt k = 1; k < L; k++) {
    PetscCall(SbpProblemCoarsen(sb->problems[k - 1], &sb->problems[k]));
    PetscCall(PCSBPMGLevelOperator(sb->problems[k], &sb->ops[k]));
    PetscCall(SbpProblemCreateProlongation(sb->problems[k], sb->problems[k - 1], &sb->interp[k - 1]));
  }
  PetscCall(SbpProblemCreateAssembledOperator(sb->problems[L - 1], &sb->coarse_assembled));
  if (SbpProblemAllNeumann(fine)) PetscCall(PCSBPMGPinCoarse(sb->coarse_assembled));
  PetscFunctionReturn(0);
}

/* The precision of a level's kernels: all fp32 in the single-precision V-cycle; else the coefficients in fp32 where the level's operators
   are one (-pc_sbpmg_coef_fp32; the residual is then the sweeps' operator, so the V-cycle stays symmetric). */
static SbpKernelPrecision PCSBPMGLevelPrecision(PC_SBPMG *sb, Mat A, Mat P)
{
  if (sb->single) return SBP_KERNEL_FP32;
  return sb->coef_fp32 && A == P ? SBP_KERNEL_COEF32 : SBP_KERNEL_FP64;
}

static PetscErrorCode PCSBPMGConfigureSmoother(PC pc, PC_SBPMG *sb, KSP ksp, PetscInt nu, Mat A, Mat P, SbpKernelPrecision prec)
{
  PC                      spc;
  PCSBPMGSmootherSettings set = {sb->smoother, sb->cheby_lo, sb->cheby_hi, sb->jacobi_omega, sb->eig_its, prec, sb->tune};

  PetscFunctionBegin;
  PetscCall(KSPSetType(ksp, KSPRICHARDSON));
  PetscCall(KSPSetTolerances(ksp, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, nu));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_NONE));
  PetscCall(KSPSetConvergenceTest(ksp, KSPConvergedSkip, NULL, NULL));
  PetscCall(KSPSetOperators(ksp, A, P));
  PetscCall(KSPGetPC(ksp, &spc));
  PetscCall(PCSetType(spc, PCSBPMGSMOOTHER));
  PetscCall(PCSBPMGSmootherConfigure(spc, &set));
  if (pc->setfromoptionscalled || pc->setupcalled) PetscCall(KSPSetFromOptions(ksp)); /* PCMG's first set-up does it itself */
  PetscFunctionReturn(0);
}

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

static PetscErrorCode PCSBPMGConfigureCoarse(PC pc, PC_SBPMG *sb, Mat A)
{
  KSP         ksp;
  PC          cpc;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCall(PCMGGetCoarseSolve(pc, &ksp));
  PetscCall(KSPSetOperators(ksp, A, sb->coarse_assembled));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &cpc));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  if (size == 1) {
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

/* The option values, checked at set-up: an error there names the option and leaks nothing. */
static PetscErrorCode PCSBPMGCheckOptions(PC pc, PC_SBPMG *sb)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)pc);

  PetscFunctionBegin;
  if (sb->range_opt[0]) {
    double lo, hi;
    PetscCheck(sscanf(sb->range_opt, "%lf,%lf", &lo, &hi) == 2, comm, PETSC_ERR_ARG_WRONG, "-pc_sbpmg_cheby_range %s: give two numbers lo,hi", sb->range_opt);
    PetscCall(PCSBPMGSetChebyshevRange(pc, lo, hi));
  }
  PetscCheck(sb->levels_req >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_levels %" PetscInt_FMT " must be >= 0", sb->levels_req);
  PetscCheck(!sb->coarse_size_set || sb->coarse_size >= 5, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "-pc_sbpmg_coarse_size %" PetscInt_FMT " must be >= 5 (the smallest grid has 4 intervals)", sb->coarse_size);
  PetscCheck(sb->nu_count <= 2, comm, PETSC_ERR_ARG_SIZ, "-pc_sbpmg_nu takes 1 value (pre and post) or 2 (pre,post); got %" PetscInt_FMT, sb->nu_count);
  PetscCheck(sb->nu_pre >= 1 && sb->nu_post >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "Smoothing sweeps must be >= 1: got %" PetscInt_FMT " pre, %" PetscInt_FMT " post", sb->nu_pre, sb->nu_post);
  PetscCheck(sb->nu_growth >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_nu_growth %g must be >= 1", (double)sb->nu_growth);
  PetscCheck(sb->nu_max >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_nu_max %" PetscInt_FMT " must be >= 1", sb->nu_max);
  PetscCheck(sb->eig_its >= 2, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_eig_its %" PetscInt_FMT " must be >= 2", sb->eig_its);
  PetscCheck(sb->jacobi_omega >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_jacobi_omega %g must be >= 0", (double)sb->jacobi_omega);
  PetscCheck(!(sb->precision_set && sb->precision == PC_SBPMG_PRECISION_SINGLE && sb->coef_fp32_set && !sb->coef_fp32), comm, PETSC_ERR_ARG_INCOMP,
             "-pc_sbpmg_coef_fp32 0 asks for fp64 coefficients, but the single-precision V-cycle (-pc_sbpmg_precision single) reads them in fp32");
  PetscFunctionReturn(0);
}

/* The V-cycle's precision: as given, else the device's default (tuning mg_single) where the levels are on a device and the coefficients
   may be fp32. */
static PetscErrorCode PCSBPMGResolvePrecision(PC pc, PC_SBPMG *sb, SbpProblem fine)
{
  PetscFunctionBegin;
  if (sb->precision_set) {
    PetscCheck(sb->precision == PC_SBPMG_PRECISION_DOUBLE || fine->use_device, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP,
               "-pc_sbpmg_precision single needs the device backend: the SBP-SAT problem is on the host (-sbp_backend host)");
    sb->single = sb->precision == PC_SBPMG_PRECISION_SINGLE ? PETSC_TRUE : PETSC_FALSE;
  } else
    sb->single = sb->tune.mg_single && fine->use_device && sb->coef_fp32 ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* PCMG's vectors of every level below the finest (right-hand side, solution) and of every level above the coarsest (residual): device
   vectors of the level's operator, or the single-precision V-cycle's level vectors, with the finest level's stand-ins for CG's. */
static PetscErrorCode PCSBPMGSetLevelVectors(PC pc, PC_SBPMG *sb)
{
  const PetscInt L = sb->nlevels;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < L; k++) {
    PetscInt lev = L - 1 - k;
    Vec      v[3];
    for (PetscInt t = 0; t < 3; t++) {
      if (sb->single)
        PetscCall(PCSBPMGVecCreate(sb->problems[k], &v[t]));
      else
        PetscCall(MatCreateVecs(k ? sb->ops[k] : pc->mat, &v[t], NULL));
    }
    if (k) PetscCall(PCMGSetRhs(pc, lev, v[0]));
    if (k) PetscCall(PCMGSetX(pc, lev, v[1]));
    if (lev) PetscCall(PCMGSetR(pc, lev, v[2]));
    if (!k && sb->single) {
      PetscCall(PetscObjectReference((PetscObject)v[0]));
      PetscCall(PetscObjectReference((PetscObject)v[1]));
      sb->bf = v[0];
      sb->xf = v[1];
    }
    for (PetscInt t = 0; t < 3; t++) PetscCall(VecDestroy(&v[t]));
  }
  PetscFunctionReturn(0);
}

/* Whether the hierarchy was built for this fine problem and these operators (KSPSetOperators() with another matrix of the same problem
   keeps the levels but not the finest level's residual operator, or the one-level solve's) and, if a precision is asked for, in it (one
   level runs in fp64 whatever). */
static PetscErrorCode PCSBPMGHierarchyCurrent(PC pc, PC_SBPMG *sb, SbpProblem fine, PetscBool *current)
{
  PC_MG *mg = (PC_MG *)pc->data;
  Mat    A  = NULL;

  PetscFunctionBegin;
  *current = PETSC_FALSE;
  if (!sb->nlevels || sb->problems[0] != fine || !mg->levels) PetscFunctionReturn(0);
  if (sb->nlevels > 1)
    A = mg->levels[sb->nlevels - 1]->A;
  else
    PetscCall(KSPGetOperators(mg->levels[0]->smoothd, &A, NULL));
  if (A != pc->mat) PetscFunctionReturn(0);
  *current = !sb->precision_set || sb->nlevels == 1 || sb->single == (sb->precision == PC_SBPMG_PRECISION_SINGLE) ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode PCSetUp_SBPMG(PC pc)
{
  PC_SBPMG  *sb = PCSBPMGGetContext(pc);
  SbpProblem fine;
  PetscInt   L;
  PetscBool  current;

  PetscFunctionBegin;
  PetscCall(PCSBPMGCheckOptions(pc, sb));
  {
    PetscErrorCode ierr;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = MatGetSbpProblem(pc->pmat, &fine);
    PetscCall(PetscPopErrorHandler());
    PetscCheck(!ierr, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG,
               "PCSBPMG needs an SBP-SAT operator: the preconditioning matrix %s of type %s was not created by SbpProblemCreateOperator() or "
               "SbpProblemCreateAssembledOperator()",
               ((PetscObject)pc->pmat)->name ? ((PetscObject)pc->pmat)->name : "(unnamed)", ((PetscObject)pc->pmat)->type_name);
  }
  PetscCall(PCSBPMGHierarchyCurrent(pc, sb, fine, &current));
  if (!current) {
    PetscCall(PetscLogEventBegin(SBPMG_MGSetUp, pc, 0, 0, 0));
    PetscCall(PCSBPMGResetHierarchy(sb));
    /* A new operator on a PC set up before (KSPSetOperators): PCMG's set-up after the first does not redo what its first one did (the
       levels' residual operators, restrictions, vectors, the smoothers' options), so its levels are reset (their KSPs: operators, work
       vectors, the smoothers' estimates, the coarse factor) and everything below is given to it again, as to a new PC. */
    PetscCall((*sb->mg_reset)(pc));
    /* the device's defaults (the tuning table; docs/design.md "the coarse grid on a GPU") unless the options say otherwise */
    sb->tune = fine->tune;
    PetscCall(SbpmgTuningParse(sb->tune_opts, &sb->tune));
    if (!sb->coef_fp32_set) sb->coef_fp32 = sb->tune.mg_coef_fp32 ? PETSC_TRUE : PETSC_FALSE;
    sb->coarse_used = sb->coarse_size_set ? sb->coarse_size : sb->tune.mg_coarse_size;
    PetscCall(PCSBPMGBuildHierarchy(pc, sb, fine));
    L = sb->nlevels;
    PetscCall(PCSBPMGResolvePrecision(pc, sb, fine));
    if (L == 1) sb->single = PETSC_FALSE; /* one level: the direct solve, in fp64 */
    PetscCall(PCMGSetLevels(pc, L, NULL));
    PetscCall(PCMGSetGalerkin(pc, PC_MG_GALERKIN_NONE));
    /* PCMGSetLevels() installs PCMG's Richardson iteration, which would run the cycle on CG's fp64 vectors: single goes through PCApply */
    if (pc->ops->applyrichardson) sb->mg_applyrichardson = pc->ops->applyrichardson;
    pc->ops->applyrichardson = sb->single ? NULL : sb->mg_applyrichardson;
    PetscCall(PCSBPMGSetLevelVectors(pc, sb));
    for (PetscInt k = 0; k < L - 1; k++) {
      PetscInt           lev = L - 1 - k; /* PCMG numbers levels from the coarsest */
      Mat                A = k ? sb->ops[k] : pc->mat, P = k ? sb->ops[k] : pc->pmat;
      Mat                S = sb->ops[k] ? sb->ops[k] : A, SP = sb->ops[k] ? sb->ops[k] : P; /* the smoothers' (all-Neumann: no null space) */
      SbpKernelPrecision prec = PCSBPMGLevelPrecision(sb, A, P);
      KSP                down, up;

      PetscCall(PCMGSetInterpolation(pc, lev, sb->interp[k]));
      PetscCall(PCMGSetRestriction(pc, lev, sb->interp[k])); /* the transpose; PCMG's default, which only its first set-up makes */
      PetscCall(PCMGSetResidual(pc, lev, prec != SBP_KERNEL_FP64 ? PCSBPMGResidual : PCMGResidualDefault, A));
      if (sb->nu_pre == sb->nu_post) { /* one KSP smooths both ways (PCMGGetSmootherDown would split them) */
        PetscCall(PCMGGetSmoother(pc, lev, &down));
        PetscCall(PCSBPMGConfigureSmoother(pc, sb, down, PCSBPMGLevelSweeps(sb, sb->nu_pre, k), S, SP, prec));
      } else {
        PetscCall(PCMGGetSmootherDown(pc, lev, &down));
        PetscCall(PCSBPMGConfigureSmoother(pc, sb, down, PCSBPMGLevelSweeps(sb, sb->nu_pre, k), S, SP, prec));
        PetscCall(PCMGGetSmootherUp(pc, lev, &up));
        PetscCall(PCSBPMGConfigureSmoother(pc, sb, up, PCSBPMGLevelSweeps(sb, sb->nu_post, k), S, SP, prec));
      }
    }
    PetscCall(PCSBPMGConfigureCoarse(pc, sb, L > 1 ? sb->ops[L - 1] : pc->mat));
    /* PCMGSetLevels() made new levels: apply the -pc_mg_* options (cycle type, ...) to them again */
    if (pc->setfromoptionscalled) PetscCall(PCSetFromOptions(pc));
    PetscCall(PetscLogEventEnd(SBPMG_MGSetUp, pc, 0, 0, 0));
  }
  PetscCall((*sb->mg_setup)(pc));
  PetscCall(PCSBPMGClearCholmodOption(pc, sb)); /* the coarse factor exists now */
  PetscFunctionReturn(0);
}
