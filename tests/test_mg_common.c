#include "test_mg_common.h"

void MGTestSetPrecision(const char *precision)
{
  SbpmgTestSetOption("-pc_sbpmg_precision", precision);
}

PetscReal MGTestCheckNearlySymmetric(PC pc, Vec x, Vec y, PetscReal tol, const char *what)
{
  Vec         Bx, By;
  PetscScalar xBy, yBx, xBx;
  PetscReal   nx, nBy, asym;

  PCALL(VecDuplicate(x, &Bx));
  PCALL(VecDuplicate(x, &By));
  PCALL(PCApply(pc, x, Bx));
  PCALL(PCApply(pc, y, By));
  PCALL(VecDot(x, By, &xBy));
  PCALL(VecDot(y, Bx, &yBx));
  PCALL(VecDot(x, Bx, &xBx));
  PCALL(VecNorm(x, NORM_2, &nx));
  PCALL(VecNorm(By, NORM_2, &nBy));
  asym = PetscAbsScalar(xBy - yBx) / (nx * nBy);
  print_message("  %s: |x^T B y - y^T B x| / (|x| |B y|) = %.2e, x^T B x = %.6e\n", what, asym, xBx);
  if (!(asym <= tol)) fail_msg("%s: V-cycle not symmetric to %g: %g", what, tol, asym);
  if (!(xBx > 0)) fail_msg("%s: V-cycle not positive: x^T B x = %g", what, xBx);
  PCALL(VecDestroy(&Bx));
  PCALL(VecDestroy(&By));
  return asym;
}

KSP MGTestSolver(Mat A, KSPType ksp_type, const char *smoother, PetscReal rtol)
{
  KSP ksp = SbpTestMGCG(A, rtol, 300);
  PC  pc;

  PCALL(KSPSetType(ksp, ksp_type));
  PCALL(KSPGetPC(ksp, &pc));
  SbpTestSetSmoother(pc, smoother);
  PCALL(PCSetFromOptions(pc));
  PCALL(KSPSetUp(ksp));
  return ksp;
}
