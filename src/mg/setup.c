/* PCSBPMG's set-up: the hierarchy of re-discretised levels (SbpProblemCoarsen; docs/design.md "The sbpmg preconditioner"), its transfers (src/mg/transfer.c),
   PCMG's level vectors in the V-cycle's precision, the smoothers (src/mg/smoother.c) and the coarse solve (src/mg/coarse.c), then PCMG's own set-up. */
#include <sbpmg/private/mgimpl.h>

PetscErrorCode PCSBPMGResetHierarchy(PC_SBPMG *sb)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&sb->bf));
  PetscCall(VecDestroy(&sb->xf));
  sb->single   = PETSC_FALSE;
  sb->coarse64 = PETSC_FALSE;
  for (PetscInt k = 0; k < sb->nlevels; k++) {
    PetscCall(SbpProblemDestroy(&sb->problems[k]));
    PetscCall(MatDestroy(&sb->ops[k]));
    PetscCall(MatDestroy(&sb->interp[k]));
    PetscCall(PCSBPMGLinesDestroy(&sb->lines[k]));
  }
  PetscCall(PetscFree4(sb->problems, sb->ops, sb->interp, sb->lines));
  PetscCall(MatDestroy(&sb->coarse_assembled));
  sb->nlevels = 0;
  PetscFunctionReturn(0);
}

/* The intervals of level k (0: the finest) of the hierarchy of fine (SbpProblemCoarseSizes() k times). */
static PetscErrorCode PCSBPMGLevelSizes(SbpProblem fine, PetscInt k, PetscInt *Nr, PetscInt *Ns)
{
  PetscFunctionBegin;
  *Nr = fine->Nr;
  *Ns = fine->Ns;
  for (PetscInt l = 0; l < k; l++) PetscCall(SbpProblemCoarseSizes(fine, *Nr, *Ns, Nr, Ns));
  PetscFunctionReturn(0);
}

/* Sweeps on level k below the finest: nu * growth^depth, at most nu_max (and at least nu), where depth counts the halvings of the
   cells from the finest level in half levels (log2 of the ratio of cells, rounded, over 2): k where both directions coarsened at every
   level, half a level for each level that coarsened one direction only (its cells halve, not quarter: docs/design.md "Grids of any
   size"). */
static PetscInt PCSBPMGLevelSweeps(PC_SBPMG *sb, PetscInt nu, PetscInt k)
{
  const SbpProblem fine = sb->problems[0], level = sb->problems[k];
  const PetscReal  depth = 0.5 * PetscFloorReal(PetscLog2Real((PetscReal)fine->Nr * fine->Ns / ((PetscReal)level->Nr * level->Ns)) + 0.5);
  const PetscReal  v     = nu * PetscPowReal(sb->nu_growth, depth);
  /* compared as reals first: a large growth^depth does not fit the integer (the conversion would be undefined) */
  return PetscMax(nu, v + 0.5 >= (PetscReal)sb->nu_max_used ? sb->nu_max_used : (PetscInt)(v + 0.5));
}

/* How many levels: as requested, or halving until the coarse grid has at most coarse_size points per side. Every level is
   distributed over all ranks of the fine grid's DMDA (on its process grid), so on several ranks the hierarchy also
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
    PetscInt Nrd, Nsd;
    PetscCall(PCSBPMGLevelSizes(fine, possible - 1, &Nr, &Ns));
    PetscCall(PCSBPMGLevelSizes(fine, dist - 1, &Nrd, &Nsd));
    PetscCheck(sb->levels_req <= possible, comm, PETSC_ERR_ARG_OUTOFRANGE,
               "-pc_sbpmg_levels %" PetscInt_FMT " is too many for the %" PetscInt_FMT " x %" PetscInt_FMT " grid: it coarsens into at most %" PetscInt_FMT
               " levels (down to %" PetscInt_FMT " x %" PetscInt_FMT ", %s)",
               sb->levels_req, fine->Nr, fine->Ns, possible, Nr, Ns, "a coarse grid keeps at least 4 intervals in each direction");
    PetscCheck(sb->levels_req <= dist, comm, PETSC_ERR_ARG_OUTOFRANGE,
               "-pc_sbpmg_levels %" PetscInt_FMT " cannot be distributed: the %" PetscInt_FMT " x %" PetscInt_FMT " grid on %d MPI ranks (%" PetscInt_FMT
               " x %" PetscInt_FMT ") halves into at most %" PetscInt_FMT " levels (down to %" PetscInt_FMT " x %" PetscInt_FMT
               "): %s; use fewer levels or fewer ranks",
               sb->levels_req, fine->Nr, fine->Ns, size, m, n, dist, Nrd, Nsd, why);
    *nlevels = sb->levels_req;
  } else {
    PetscInt L = 1;
    Nr         = fine->Nr;
    Ns         = fine->Ns;
    while (PetscMax(Nr, Ns) + 1 > sb->coarse_used && L < dist) {
      PetscCall(SbpProblemCoarseSizes(fine, Nr, Ns, &Nr, &Ns));
      L++;
    }
    if (L == 1 && PetscMax(Nr, Ns) + 1 > sb->coarse_used)
      PetscCall(PetscInfo(pc, "The %" PetscInt_FMT " x %" PetscInt_FMT " grid cannot be coarsened%s: one level, solved directly (CHOLMOD)\n", Nr, Ns,
                          possible == 1 ? " (fewer than 7 intervals in each direction)" : " on these MPI ranks"));
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

static PetscErrorCode PCSBPMGPlanHierarchy(PC, PC_SBPMG *, SbpProblem, PetscInt);
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
  PetscCall(PCSBPMGCheckLevelPCs(pc, fine, L));     /* before the precision's check of the same options */
  PetscCall(PCSBPMGPlanHierarchy(pc, sb, fine, L)); /* before any level is made */
  PetscCall(PetscCalloc4(L, &sb->problems, L, &sb->ops, L, &sb->interp, L, &sb->lines));
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
static SbpKernelPrecision PCSBPMGLevelPrecision(PC_SBPMG *sb, PetscInt k, Mat A, Mat P)
{
  if (sb->problems[k]->order > 2) return SBP_KERNEL_FP64; /* the finest level of order 4 or 6: its own operator, in fp64 */
  if (sb->single) return SBP_KERNEL_FP32;
  return sb->coef_fp32 && A == P ? SBP_KERNEL_COEF32 : SBP_KERNEL_FP64;
}

/* KSPRICHARDSON's set-up duplicates its work vectors from ksp->vec_sol where there is one, else from a temporary vector of
   MatCreateVecs() that PETSc 3.18's KSPCreateVecs() loses when a duplicate fails (a device allocation): the level's residual vector
   stands in until the first solve, so a failure leaves nothing behind (docs/reliability.md "Fault injection"). */
static PetscErrorCode PCSBPMGSmootherPattern(KSP ksp, Vec pattern)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectReference((PetscObject)pattern));
  PetscCall(VecDestroy(&ksp->vec_sol));
  ksp->vec_sol = pattern;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSBPMGConfigureSmoother(PC pc, PC_SBPMG *sb, KSP ksp, PetscInt nu, Mat A, Mat P, SbpKernelPrecision prec, Vec pattern,
                                               PCSBPMGLines lines, PetscBool reverse)
{
  PC                      spc;
  PCSBPMGSmootherSettings set = {sb->smoother, sb->cheby_lo, sb->cheby_hi, sb->jacobi_omega, sb->eig_its, prec, sb->tune, lines, reverse};

  PetscFunctionBegin;
  PetscCall(KSPSetType(ksp, KSPRICHARDSON));
  PetscCall(KSPSetTolerances(ksp, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, nu));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_NONE));
  PetscCall(KSPSetConvergenceTest(ksp, KSPConvergedSkip, NULL, NULL));
  PetscCall(KSPSetOperators(ksp, A, P));
  PetscCall(PCSBPMGSmootherPattern(ksp, pattern));
  PetscCall(KSPGetPC(ksp, &spc));
  PetscCall(PCSetType(spc, PCSBPMGSMOOTHER));
  PetscCall(PCSBPMGSmootherConfigure(spc, &set));
  if (pc->setfromoptionscalled || pc->setupcalled) PetscCall(KSPSetFromOptions(ksp)); /* PCMG's first set-up does it itself */
  PetscFunctionReturn(0);
}

/* 0 < lo < hi, 1 <= hi <= 10: the Chebyshev interval as fractions of the estimated lambda_max (PCSBPMGSetChebyshevRange()). */
PetscErrorCode PCSBPMGCheckChebyshevRange(MPI_Comm comm, PetscReal lo, PetscReal hi)
{
  PetscFunctionBegin;
  PetscCheck(lo > 0 && hi > lo, comm, PETSC_ERR_ARG_OUTOFRANGE, "Chebyshev range [%g, %g] must satisfy 0 < lo < hi", (double)lo, (double)hi);
  /* hi >= 1: the interval must reach the estimated lambda_max (the estimate is from below, CG's Lanczos values): the modes above
     hi lambda_max are amplified by the Chebyshev polynomial, the V-cycle stops being positive definite (CG: DIVERGED_INDEFINITE_PC at
     hi = 0.9). hi <= 10: lambda_max(D^-1 A) of an SPD matrix is at most its Gershgorin bound and at least 1, and the estimate lies
     within a few percent of it; an interval reaching further only stops smoothing the top of the spectrum, and at 1e12 CG on its
     preconditioned residual stops at a wrong answer. */
  PetscCheck(hi >= 1 && hi <= 10, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "Chebyshev range [%g, %g] (-pc_sbpmg_cheby_range): hi must be in [1, 10]; below 1 the top of the spectrum is amplified (the V-cycle becomes "
             "indefinite), above 10 it is no longer smoothed",
             (double)lo, (double)hi);
  PetscFunctionReturn(0);
}

/* The option values, checked at set-up: an error there names the option and leaks nothing. */
static PetscErrorCode PCSBPMGCheckOptions(PC pc, PC_SBPMG *sb)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)pc);

  PetscFunctionBegin;
  if (pc->setfromoptionscalled) {
    static const char *const ints[] = {"-pc_sbpmg_levels",  "-pc_mg_levels",         "-pc_sbpmg_coarse_size",
                                       "-pc_sbpmg_nu",      "-pc_sbpmg_nu_max",      "-pc_sbpmg_eig_its",
                                       "-pc_sbpmg_line_nu", "-pc_sbpmg_line_nu_max", NULL};
    PetscCall(SbpmgOptionsCheckInts(((PetscObject)pc)->options, ((PetscObject)pc)->prefix, ints));
  }
  {
    PCMGGalerkinType g = ((PC_MG *)pc->data)->galerkin;
    PetscCheck(g == PC_MG_GALERKIN_NONE, comm, PETSC_ERR_SUP,
               "-pc_mg_galerkin %s: sbpmg re-discretises the operator on every level (matrix-free shell operators), and Galerkin products of shell "
               "operators are not supported; use -pc_mg_galerkin none (the default), or -pc_type mg with assembled operators",
               PCMGGalerkinTypes[g]);
  }
  if (sb->range_opt[0]) { /* exactly two numbers: anything after the second is an error, not dropped */
    char     *end;
    double    lo = strtod(sb->range_opt, &end), hi = 0;
    PetscBool ok = end != sb->range_opt && *end == ',' ? PETSC_TRUE : PETSC_FALSE;
    if (ok) {
      const char *h = end + 1;
      hi            = strtod(h, &end);
      ok            = end != h && !*end ? PETSC_TRUE : PETSC_FALSE;
    }
    PetscCheck(ok, comm, PETSC_ERR_ARG_WRONG, "-pc_sbpmg_cheby_range %s: give two numbers lo,hi", sb->range_opt);
    PetscCall(PCSBPMGCheckChebyshevRange(comm, lo, hi));
    sb->cheby_lo     = lo;
    sb->cheby_hi     = hi;
    sb->range_opt[0] = 0;
  }
  /* an option that would do nothing in this configuration is refused rather than ignored */
  PetscCheck(!sb->cheby_range_given || sb->smoother == PC_SBPMG_CHEBYSHEV, comm, PETSC_ERR_ARG_INCOMP,
             "-pc_sbpmg_cheby_range %g,%g has no effect with -pc_sbpmg_smoother %s: only the Chebyshev smoother uses it", (double)sb->cheby_lo,
             (double)sb->cheby_hi, PCSBPMGSmootherTypes[sb->smoother]);
  PetscCheck(!sb->jacobi_omega_given || sb->smoother == PC_SBPMG_JACOBI, comm, PETSC_ERR_ARG_INCOMP,
             "-pc_sbpmg_jacobi_omega %g has no effect with -pc_sbpmg_smoother %s: only the Jacobi smoother uses it", (double)sb->jacobi_omega,
             PCSBPMGSmootherTypes[sb->smoother]);
  PetscCheck(!sb->coarse_size_given || sb->levels_req == 0, comm, PETSC_ERR_ARG_INCOMP,
             "-pc_sbpmg_coarse_size %" PetscInt_FMT " has no effect with -pc_sbpmg_levels %" PetscInt_FMT
             ": the coarse size chooses the number of levels only when it is not given",
             sb->coarse_size, sb->levels_req);
  PetscCheck(sb->levels_req >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_levels %" PetscInt_FMT " must be >= 0", sb->levels_req);
  PetscCheck(!sb->coarse_size_set || sb->coarse_size >= 5, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "-pc_sbpmg_coarse_size %" PetscInt_FMT " must be >= 5 (the smallest grid has 4 intervals)", sb->coarse_size);
  if (sb->nu_count > 2)
    PetscCall(
        SbpmgOptionsArrayTooMany(comm, ((PetscObject)pc)->options, ((PetscObject)pc)->prefix, "-pc_sbpmg_nu", 2, "1 value (pre and post) or 2 (pre,post)"));
  PetscCheck(sb->nu_pre >= 1 && sb->nu_post >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "Smoothing sweeps must be >= 1: got %" PetscInt_FMT " pre, %" PetscInt_FMT " post", sb->nu_pre, sb->nu_post);
  PetscCheck(sb->nu_growth >= 1 && !PetscIsInfOrNanReal(sb->nu_growth), comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_nu_growth %g must be >= 1 and finite",
             (double)sb->nu_growth);
  PetscCheck(sb->nu_max >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_nu_max %" PetscInt_FMT " must be >= 1", sb->nu_max);
  /* the help's "largest number of sweeps on any level": the finest level's count cannot exceed it (the default 16 gives way to a
     larger -pc_sbpmg_nu; a -pc_sbpmg_nu_max given below it is an error, not ignored) */
  PetscCheck(!sb->nu_max_given || sb->nu_max >= PetscMax(sb->nu_pre, sb->nu_post), comm, PETSC_ERR_ARG_INCOMP,
             "-pc_sbpmg_nu_max %" PetscInt_FMT " is below the finest level's sweeps (-pc_sbpmg_nu %" PetscInt_FMT ",%" PetscInt_FMT
             "): it is the largest number of sweeps on any level",
             sb->nu_max, sb->nu_pre, sb->nu_post);
  PetscCheck(sb->eig_its >= 2, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_eig_its %" PetscInt_FMT " must be >= 2", sb->eig_its);
  PetscCheck(sb->line_nu >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_line_nu %" PetscInt_FMT " must be >= 1", sb->line_nu);
  PetscCheck(sb->line_nu_max >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_line_nu_max %" PetscInt_FMT " must be >= 1 (0: the default)", sb->line_nu_max);
  PetscCheck(!sb->line_nu_max || sb->line_nu_max >= sb->line_nu, comm, PETSC_ERR_ARG_INCOMP,
             "-pc_sbpmg_line_nu_max %" PetscInt_FMT " is below the finest level's line sweeps (-pc_sbpmg_line_nu %" PetscInt_FMT ")", sb->line_nu_max,
             sb->line_nu);
  PetscCheck(sb->line_ratio >= 1 && !PetscIsInfOrNanReal(sb->line_ratio), comm, PETSC_ERR_ARG_OUTOFRANGE,
             "-pc_sbpmg_line_ratio %g must be >= 1 and finite (the ratio of a level's couplings along r and along s beyond which it smooths along lines)",
             (double)sb->line_ratio);
  PetscCheck(sb->jacobi_omega >= 0 && !PetscIsInfOrNanReal(sb->jacobi_omega), comm, PETSC_ERR_ARG_OUTOFRANGE,
             "-pc_sbpmg_jacobi_omega %g must be >= 0 and finite", (double)sb->jacobi_omega);
  PetscCheck(!(sb->precision_set && sb->precision == PC_SBPMG_PRECISION_SINGLE && sb->coef_fp32_set && !sb->coef_fp32), comm, PETSC_ERR_ARG_INCOMP,
             "-pc_sbpmg_coef_fp32 0 asks for fp64 coefficients, but the single-precision V-cycle (-pc_sbpmg_precision single) reads them in fp32");
  PetscFunctionReturn(0);
}

/* The V-cycle's precision on L levels: as given, else the device's default (tuning mg_single) where the levels are on a device, the
   coefficients may be fp32 and the level smoothers are sbpmg's (src/mg/pcmgopts.c). PETSc's own level smoothers need fp64 vectors on
   every smoothed level, the double-precision V-cycle; PETSc's own coarse solver needs them on the coarsest level only, which then has
   fp64 device vectors in either precision (coarse64: the transfers to and from it convert). */
static PetscErrorCode PCSBPMGResolvePrecision(PC pc, PC_SBPMG *sb, SbpProblem fine, PetscInt L)
{
  char      name[64], cname[96];
  PetscBool foreign = PETSC_FALSE, coarse = PETSC_FALSE;

  PetscFunctionBegin;
  if (L > 1) { /* one level has no smoothers, and its direct solve runs in fp64 */
    PetscCall(PCSBPMGForeignSmootherOption(pc, L, name, sizeof(name), &foreign));
    PetscCall(PCSBPMGForeignCoarseOption(pc, cname, sizeof(cname), &coarse));
  }
  if (fine->order > 2 && L > 1) { /* the finest level smooths with the order-p operator, in fp64 (docs/design.md "Multigrid at higher order") */
    PetscCheck(!sb->precision_set || sb->precision == PC_SBPMG_PRECISION_DOUBLE, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP,
               "-pc_sbpmg_precision single with -sbp_order %" PetscInt_FMT ": the finest level smooths with the order-%" PetscInt_FMT
               " operator in double precision; use -pc_sbpmg_precision double",
               fine->order, fine->order);
    if (!sb->precision_set && sb->tune.mg_single && fine->use_device)
      PetscCall(PetscInfo(pc, "SBP order %" PetscInt_FMT ": the V-cycle in double precision\n", fine->order));
    sb->single   = PETSC_FALSE;
    sb->coarse64 = PETSC_FALSE;
    PetscFunctionReturn(0);
  }
  if (sb->precision_set) {
    PetscCheck(sb->precision == PC_SBPMG_PRECISION_DOUBLE || fine->use_device, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP,
               "-pc_sbpmg_precision single needs the device backend: the SBP-SAT problem is on the host (-sbp_backend host)");
    PetscCheck(sb->precision == PC_SBPMG_PRECISION_DOUBLE || !foreign, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_INCOMP,
               "-pc_sbpmg_precision single needs sbpmg's level smoothers, but %s replaces them (PETSc's smoothers run in double: -pc_sbpmg_precision double)",
               name);
    sb->single = sb->precision == PC_SBPMG_PRECISION_SINGLE ? PETSC_TRUE : PETSC_FALSE;
  } else {
    sb->single = sb->tune.mg_single && fine->use_device && sb->coef_fp32 && !foreign ? PETSC_TRUE : PETSC_FALSE;
    if (foreign && sb->tune.mg_single) PetscCall(PetscInfo(pc, "%s replaces sbpmg's level smoothers: the V-cycle in double precision\n", name));
  }
  sb->coarse64 = sb->single && coarse ? PETSC_TRUE : PETSC_FALSE;
  if (sb->coarse64) PetscCall(PetscInfo(pc, "%s replaces sbpmg's coarse solve: the coarsest level's vectors in double precision\n", cname));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the memory plan (docs/design.md "The memory plan") */

/* Host bytes per row of the assembled coarse operator (AIJ: about 13 entries of value and column index, the row's own) */
#define PCSBPMG_PLAN_AIJ_ROW 200

/*
  PCSBPMGPlanHierarchy - The bytes the hierarchy of L levels will allocate on this rank, device and host, from what the set-up below
  and PCMG's makes: each coarse level's problem (SbpProblemPlanLevel), its fp32 coefficients and fp32 ghost exchange where the sweeps
  read them, PCMG's level vectors (PCSBPMGSetLevelVectors), per smoother KSP its two Richardson work vectors, the sweeps' second buffer,
  1/diag where it is stored and the buffers of several sweeps per pass (src/mg/smoother.c), the finest level's eigenvalue estimate while
  it runs (its Lanczos vectors r, p, w and z, and the fp64 1/diag where the smoother stores none in fp64), and on the host the assembled coarse operator and
  CHOLMOD's factor (about 5 n log2 n entries on the coarse grid's n nodes, on every rank). Checked against what is left (the problem and the Krylov vectors
  exist already: the context's bytes in use). The estimate's vectors are freed before the first V-cycle rounds the coefficients to fp32, so the peak holds the
  larger of the two. The figures are kept for the tests.
*/
static PetscErrorCode PCSBPMGPlanHierarchy(PC pc, PC_SBPMG *sb, SbpProblem fine, PetscInt L)
{
  SbpmgCL     cl  = fine->use_device ? fine->cl : NULL;
  size_t      dev = 0, host = 0, transient = 0, later = 0;
  PetscInt    nksp   = sb->nu_pre == sb->nu_post ? 1 : 2;
  PetscBool   single = PETSC_FALSE, dinv = (!sb->tune.mg_inline_diag && sb->smoother != PC_SBPMG_RICHARDSON) ? PETSC_TRUE : PETSC_FALSE;
  PetscMPIInt size;
  char        what[160];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  { /* up smoothers of their own (-pc_mg_distinct_smoothup) */
    PetscBool distinct = PETSC_FALSE;
    PetscCall(PetscOptionsGetBool(((PetscObject)pc)->options, ((PetscObject)pc)->prefix, "-pc_mg_distinct_smoothup", &distinct, NULL));
    if (distinct) nksp = 2;
  }
  PetscCall(PCSBPMGResolvePrecision(pc, sb, fine, L)); /* resolved again after the build, the same */
  single = sb->single && L > 1 ? PETSC_TRUE : PETSC_FALSE;
  for (PetscInt k = 0; k < L; k++) {
    PetscInt           Nr, Ns;
    SbpPlan            lp;
    size_t             v, lv, *at = cl ? &dev : &host;
    SbpKernelPrecision prec = single ? SBP_KERNEL_FP32 : (sb->coef_fp32 && (k || pc->mat == pc->pmat) ? SBP_KERNEL_COEF32 : SBP_KERNEL_FP64);

    PetscCall(PCSBPMGLevelSizes(fine, k, &Nr, &Ns));

    PetscCall(SbpProblemPlanLevel(fine, Nr, Ns, &lp));
    if (k) { /* the level's problem (the finest exists already) */
      dev += lp.device;
      host += lp.host;
    }
    v  = cl ? VecOpenCLPlanBytes_Private(cl, lp.own) : lp.own * sizeof(PetscScalar);
    lv = single && !(k == L - 1 && sb->coarse64) ? PetscMax(lp.own, 1) * sizeof(float) : v;
    *at += (k ? 2 + (k < L - 1 ? 1 : 0) : (single ? 3 : 1)) * lv; /* PCMG's b, x, r */
    if (k < L - 1) {                                              /* a smoothed level */
      PetscInt pass = 1;
      if (cl && size == 1 && sb->tune.mg_sweeps_per_pass > 1 && fine->tune.sbp_split) { /* several sweeps per pass (pass_on) */
        const PetscInt ilo[2] = {fine->bc[0] == SBP_BC_DIRICHLET ? 3 : 1, fine->bc[2] == SBP_BC_DIRICHLET ? 3 : 1};
        const PetscInt ihi[2] = {fine->bc[1] == SBP_BC_DIRICHLET ? Nr - 3 : Nr - 1, fine->bc[3] == SBP_BC_DIRICHLET ? Ns - 3 : Ns - 1};
        if (PetscMax(ihi[0] - ilo[0] + 1, 0) * PetscMax(ihi[1] - ilo[1] + 1, 0) >= fine->tune.sbp_split_min) pass = sb->tune.mg_sweeps_per_pass;
      }
      *at += nksp * (2 * lv + (1 + (dinv ? 1 : 0) + (pass > 1 ? pass : 0)) * lv); /* KSPRICHARDSON's 2 work vectors: like PCMG's r */
      if (cl && prec != SBP_KERNEL_FP64) later += 3 * lp.ghost * sizeof(float);   /* at the first V-cycle */
      if (cl && single && size > 1) dev += SbpHaloPlanBytes(lp.gx, lp.gy, lp.ox, lp.oy, sizeof(float));
      if (!k) /* the finest level's eigenvalue estimate, while it runs: r, p, w, z with Jacobi, and 1/diag in fp64 where it is not the stored one */
        transient = (sb->smoother == PC_SBPMG_RICHARDSON ? 3 : 4 + (dinv && !single ? 0 : 1)) * v;
    } else { /* the coarse solve: the assembled operator and its factor, or the dense inverse on the device */
      const PetscReal n = (PetscReal)(Nr + 1) * (Ns + 1);
      PetscBool       dense;
      PetscCall(PCSBPMGResolveCoarseSolve(pc, sb, fine, (Nr + 1) * (Ns + 1), &dense));
      host += lp.own * PCSBPMG_PLAN_AIJ_ROW + 4 * lp.ghost * sizeof(PetscReal) + 3 * lp.own * sizeof(PetscScalar);
      host += (size_t)(n * PCSBPMG_PLAN_AIJ_ROW + 5 * n * PetscLog2Real(n) * (sizeof(PetscReal) + sizeof(int)));
      if (dense) dev += (size_t)(n * n) * (sizeof(PetscScalar) + (single ? sizeof(float) : 0)); /* the inverse in fp64, and rounded */
    }
  }
  /* the estimate's vectors are freed before the first V-cycle makes the fp32 coefficients: the peak has one of them */
  if (cl)
    dev += PetscMax(transient, later);
  else
    host += transient;
  sb->plan_device = dev;
  sb->plan_host   = host;
  sb->plan_in_use = cl ? cl->mem_used : 0;
  PetscCall(PetscSNPrintf(what, sizeof(what), "the %" PetscInt_FMT "-level hierarchy of the %" PetscInt_FMT " x %" PetscInt_FMT " SBP-SAT problem (PCSBPMG)", L,
                          fine->Nr, fine->Ns));
  PetscCall(SbpmgCLPlanMemory(PetscObjectComm((PetscObject)pc), cl, dev, host, what));
  PetscFunctionReturn(0);
}

/* The line smoothers of smoothed level k (bit 0: r-lines, bit 1: s-lines): as -pc_sbpmg_lines says, or (auto) where the level's operator
   couples its nodes more than -pc_sbpmg_line_ratio times more strongly along one direction than along the other somewhere (the ratio of
   the 5-point part's couplings, rho^2 crr/css; docs/design.md "Line smoothers"). None where PETSc's own smoothers replace sbpmg's. */
static PetscErrorCode PCSBPMGChooseLines(PC pc, PC_SBPMG *sb, PetscInt k, int *dirs)
{
  SbpProblem p = sb->problems[k];
  PetscReal  q[2];
  char       name[64];
  PetscBool  foreign;

  PetscFunctionBegin;
  *dirs = 0;
  PetscCall(PCSBPMGForeignSmootherOption(pc, sb->nlevels, name, sizeof(name), &foreign));
  if (sb->line_type == PC_SBPMG_LINES_NONE || foreign) PetscFunctionReturn(0);
  if (p->order > 2) { /* the line blocks are the second-order operator's: the finest level of order 4 or 6 smooths point by point */
    PetscCheck(sb->line_type == PC_SBPMG_LINES_AUTO, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP,
               "-pc_sbpmg_lines %s with -sbp_order %" PetscInt_FMT
               ": line smoothing is built for the second-order levels only; use -pc_sbpmg_lines auto or none",
               PCSBPMGLineTypes[sb->line_type], p->order);
    PetscFunctionReturn(0);
  }
  if (sb->line_type != PC_SBPMG_LINES_AUTO) {
    PetscCheck(sb->smoother != PC_SBPMG_RICHARDSON, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_INCOMP,
               "-pc_sbpmg_lines %s needs the chebyshev or jacobi smoother (-pc_sbpmg_smoother), not richardson", PCSBPMGLineTypes[sb->line_type]);
    *dirs = sb->line_type == PC_SBPMG_LINES_R ? 1 : (sb->line_type == PC_SBPMG_LINES_S ? 2 : 3);
    PetscFunctionReturn(0);
  }
  if (sb->smoother == PC_SBPMG_RICHARDSON) PetscFunctionReturn(0);
  PetscCall(PCSBPMGLinesAnisotropy(p, q));
  *dirs = (q[0] > sb->line_ratio ? 1 : 0) | (q[1] > sb->line_ratio ? 2 : 0);
  PetscCall(PetscInfo(
      pc, "Level %" PetscInt_FMT " (%" PetscInt_FMT " x %" PetscInt_FMT "): largest rho^2 crr/css %g, largest css/(rho^2 crr) %g (line ratio %g): %s\n", k,
      p->Nr, p->Ns, (double)q[0], (double)q[1], (double)sb->line_ratio,
      *dirs == 3 ? "r- and s-line smoothing" : (*dirs == 1 ? "r-line smoothing" : (*dirs == 2 ? "s-line smoothing" : "point smoothing"))));
  PetscFunctionReturn(0);
}

/* PCMG's vectors of every level below the finest (right-hand side, solution) and of every level above the coarsest (residual): device
   vectors of the level's operator, or the single-precision V-cycle's level vectors, with the finest level's stand-ins for CG's. */
static PetscErrorCode PCSBPMGSetLevelVectors(PC pc, PC_SBPMG *sb)
{
  const PetscInt L = sb->nlevels;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < L; k++) {
    PetscInt        lev     = L - 1 - k;
    Vec             v[3]    = {NULL, NULL, NULL};
    PetscErrorCode  ierr    = 0;
    const PetscBool need[3] = {k || sb->single, k || sb->single, lev > 0}; /* b, x (the finest: CG's, or their fp32 stand-ins), r */
    /* the single-precision V-cycle's level vectors, but fp64 device vectors on its coarsest level where PETSc's own coarse solver runs */
    const PetscBool single = sb->single && !(k == L - 1 && sb->coarse64) ? PETSC_TRUE : PETSC_FALSE;
    for (PetscInt t = 0; t < 3 && !ierr; t++)
      if (need[t]) ierr = single ? PCSBPMGVecCreate(sb->problems[k], &v[t]) : MatCreateVecs(k ? sb->ops[k] : pc->mat, &v[t], NULL);
    if (ierr) { /* the ones made destroyed */
      for (PetscInt t = 0; t < 3; t++) PetscCall(VecDestroy(&v[t]));
      PetscCall(ierr);
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

/* The smoothers of smoothed level k (0: the finest): one KSP both ways, or a down and an up smoother where the sweeps differ, where lines
   in both directions run in the reverse order going up (the pre-smoother's adjoint), or where PCMG holds an up smoother of its own. */
static PetscErrorCode PCSBPMGLevelSmoothers(PC pc, PC_SBPMG *sb, PetscInt k)
{
  PC_MG             *mg  = (PC_MG *)pc->data;
  const PetscInt     lev = sb->nlevels - 1 - k;
  Mat                A = k ? sb->ops[k] : pc->mat, P = k ? sb->ops[k] : pc->pmat;
  Mat                S = sb->ops[k] ? sb->ops[k] : A, SP = sb->ops[k] ? sb->ops[k] : P; /* the smoothers' (all-Neumann: no null space) */
  SbpKernelPrecision prec = PCSBPMGLevelPrecision(sb, k, A, P);
  int                dirs = sb->lines[k] ? sb->lines[k]->dirs : 0;
  /* line smoothing: line_nu sweeps per direction on the finest level; on a level smoothed along the lines of one direction, line_nu
     more per level below the finest, at most line_nu_max_used (a grid anisotropic everywhere: its V-cycle's coarse corrections are
     only as good as the coarse levels' smoothing); lines in both directions keep line_nu (docs/design.md "Line smoothers") */
  PetscInt nl   = dirs == 3 ? sb->line_nu : PetscMin(sb->line_nu * (k + 1), sb->line_nu_max_used);
  PetscInt pre  = dirs ? nl : PCSBPMGLevelSweeps(sb, sb->nu_pre, k);
  PetscInt post = dirs ? nl : PCSBPMGLevelSweeps(sb, sb->nu_post, k);
  KSP      down, up;

  PetscFunctionBegin;
  if (pre == post && dirs != 3 && mg->levels[lev]->smoothu == mg->levels[lev]->smoothd) { /* (PCMGGetSmootherDown would split them) */
    PetscCall(PCMGGetSmoother(pc, lev, &down));
    PetscCall(PCSBPMGConfigureSmoother(pc, sb, down, pre, S, SP, prec, mg->levels[lev]->r, sb->lines[k], PETSC_FALSE));
  } else {
    PetscCall(PCMGGetSmootherDown(pc, lev, &down));
    PetscCall(PCSBPMGConfigureSmoother(pc, sb, down, pre, S, SP, prec, mg->levels[lev]->r, sb->lines[k], PETSC_FALSE));
    PetscCall(PCMGGetSmootherUp(pc, lev, &up));
    PetscCall(PCSBPMGConfigureSmoother(pc, sb, up, post, S, SP, prec, mg->levels[lev]->r, sb->lines[k], dirs == 3 ? PETSC_TRUE : PETSC_FALSE));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode PCSetUp_SBPMG(PC pc)
{
  PC_MG     *mg = (PC_MG *)pc->data;
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
    sb->coarse_used      = sb->coarse_size_set ? sb->coarse_size : sb->tune.mg_coarse_size;
    sb->nu_max_used      = sb->nu_max_given ? sb->nu_max : sb->tune.mg_nu_max;
    sb->line_nu_max_used = sb->line_nu_max ? sb->line_nu_max : PetscMax(sb->line_nu, sb->tune.mg_line_nu_max);
    PetscCall(PCSBPMGBuildHierarchy(pc, sb, fine));
    L = sb->nlevels;
    PetscCall(PCSBPMGResolvePrecision(pc, sb, fine, L));
    if (L == 1) sb->single = PETSC_FALSE; /* one level: the direct solve, in fp64 */
    PetscCall(PCMGSetLevels(pc, L, NULL));
    PetscCall(PCMGSetGalerkin(pc, PC_MG_GALERKIN_NONE));
    /* PCMGSetLevels() installs PCMG's Richardson iteration, which would run the cycle on CG's fp64 vectors: single goes through PCApply */
    if (pc->ops->applyrichardson) sb->mg_applyrichardson = pc->ops->applyrichardson;
    pc->ops->applyrichardson = sb->single ? NULL : sb->mg_applyrichardson;
    PetscCall(PCSBPMGSetLevelVectors(pc, sb));
    for (PetscInt k = 0; k < L - 1; k++) {
      PetscInt lev = L - 1 - k; /* PCMG numbers levels from the coarsest */
      Mat      A = k ? sb->ops[k] : pc->mat, P = k ? sb->ops[k] : pc->pmat;
      int      dirs;

      PetscCall(PCMGSetInterpolation(pc, lev, sb->interp[k]));
      PetscCall(PCMGSetRestriction(pc, lev, sb->interp[k])); /* the transpose; PCMG's default, which only its first set-up makes */
      PetscCall(PCMGSetResidual(pc, lev, PCSBPMGLevelPrecision(sb, k, A, P) != SBP_KERNEL_FP64 ? PCSBPMGResidual : PCMGResidualDefault, A));
      PetscCall(PCSBPMGChooseLines(pc, sb, k, &dirs));
      if (dirs) PetscCall(PCSBPMGLinesCreate(sb->problems[k], dirs, &sb->lines[k]));
      PetscCall(PCSBPMGLevelSmoothers(pc, sb, k));
    }
    PetscCall(PCSBPMGConfigureCoarse(pc, sb, L > 1 ? sb->ops[L - 1] : pc->mat));
    /* PCMGSetLevels() made new levels: apply the -pc_mg_* options (cycle type, ...) to them again */
    if (pc->setfromoptionscalled) PetscCall(PCSetFromOptions(pc));
    /* -pc_mg_distinct_smoothup (PCMGSetDistinctSmoothUp()) gave levels up smoothers of their own: PCMGGetSmootherUp() copies the down
       smoother's types but none of its settings (the unconfigured sbpmg smoother ran host sweeps on the level vectors) */
    for (PetscInt k = 0; k < L - 1; k++)
      if (mg->levels[L - 1 - k]->smoothu != mg->levels[L - 1 - k]->smoothd) PetscCall(PCSBPMGLevelSmoothers(pc, sb, k));
    PetscCall(PetscLogEventEnd(SBPMG_MGSetUp, pc, 0, 0, 0));
  }
  PetscCall((*sb->mg_setup)(pc));
  PetscCall(PCSBPMGClearCholmodOption(pc, sb)); /* the coarse factor exists now */
  PetscFunctionReturn(0);
}
