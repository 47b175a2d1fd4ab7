#include "test_sbp_common.h"

SbpProblem SbpTestProblem(MPI_Comm comm, PetscInt Nr, PetscInt Ns, const char *bc, SbpMappingType map, SbpBackend backend, const char *tune)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(comm, &p));
  if (tune) PCALL(SbpProblemSetTuning(p, tune));
  PCALL(SbpProblemSetSizes(p, Nr, Ns));
  PCALL(SbpProblemSetMapping(p, map));
  for (PetscInt f = 0; f < 4; f++) PCALL(SbpProblemSetBC(p, f + 1, bc[f] == 'D' ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN));
  PCALL(SbpProblemSetBackend(p, backend));
  PCALL(SbpProblemSetUp(p));
  return p;
}

MPI_Comm SbpTestFirstRanks(int n)
{
  PetscMPIInt rank;
  MPI_Comm    comm;

  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PCALL(MPI_Comm_split(PETSC_COMM_WORLD, rank < n ? 0 : MPI_UNDEFINED, rank, &comm));
  return comm;
}

void SbpTestDeviceFirstUse(void)
{
  SbpmgCL cl;
  PCALL(SbpmgCLGetDefault(&cl));
}

KSP SbpTestMGCG(Mat A, PetscReal rtol, PetscInt maxit)
{
  KSP ksp;
  PC  pc;

  PCALL(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PCALL(KSPSetOperators(ksp, A, A));
  PCALL(KSPSetType(ksp, KSPCG));
  PCALL(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, maxit));
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCSetType(pc, PCSBPMG));
  return ksp;
}

void SbpTestSetSmoother(PC pc, const char *name)
{
  PetscInt  idx;
  PetscBool found;

  if (!name) return;
  PCALL(PetscEListFind(3, PCSBPMGSmootherTypes, name, &idx, &found));
  if (!found) fail_msg("no smoother %s", name);
  PCALL(PCSBPMGSetSmoother(pc, (PCSBPMGSmootherType)idx));
}

void SbpTestCheckSymmetric(PC pc, Vec x, Vec y, const char *what)
{
  Vec         Bx, By;
  PetscScalar xBy, yBx, xBx;

  PCALL(VecDuplicate(x, &Bx));
  PCALL(VecDuplicate(x, &By));
  PCALL(PCApply(pc, x, Bx));
  PCALL(PCApply(pc, y, By));
  PCALL(VecDot(x, By, &xBy));
  PCALL(VecDot(y, Bx, &yBx));
  PCALL(VecDot(x, Bx, &xBx));
  print_message("  %s: x^T B y = %.15e, y^T B x = %.15e, x^T B x = %.6e\n", what, xBy, yBx, xBx);
  if (PetscAbsScalar(xBy - yBx) > 1e-12 * PetscMax(PetscAbsScalar(xBy), PetscAbsScalar(yBx))) fail_msg("%s: V-cycle not symmetric: %g vs %g", what, xBy, yBx);
  if (!(xBx > 0)) fail_msg("%s: V-cycle not positive: x^T B x = %g", what, xBx);
  PCALL(VecDestroy(&Bx));
  PCALL(VecDestroy(&By));
}
