#include "test_mg_common.h"
#include <unistd.h>

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

/* v's local entries uniform in [-1, 1) from the seed, rounded to fp32 values (exact in a level vector) */
static void fill_rounded(Vec v, unsigned long seed)
{
  PetscScalar *a;
  PetscInt     n;

  SbpmgTestFillRandom(v, seed);
  PCALL(VecGetLocalSize(v, &n));
  PCALL(VecGetArray(v, &a));
  for (PetscInt i = 0; i < n; i++) a[i] = (PetscScalar)(float)PetscRealPart(a[i]);
  PCALL(VecRestoreArray(v, &a));
}

PetscReal MGTestCheckResidualSingle(SbpProblem p, PetscReal tol, const char *what)
{
  Mat       A, Aasm;
  Vec       x, b, r, xh, bh, rh, rref;
  PetscReal err;

  PCALL(SbpProblemCreateOperator(p, &A));
  PCALL(SbpProblemCreateAssembledOperator(p, &Aasm));
  PCALL(MatCreateVecs(Aasm, &xh, &bh));
  PCALL(VecDuplicate(bh, &rh));
  PCALL(VecDuplicate(bh, &rref));
  fill_rounded(xh, 31 + 7 * p->Nr + p->Ns);
  fill_rounded(bh, 53 + p->Nr + 5 * p->Ns);
  PCALL(PCSBPMGVecCreate(p, &x));
  PCALL(PCSBPMGVecCreate(p, &b));
  PCALL(PCSBPMGVecCreate(p, &r));
  SbpTestCopyLocal(xh, x);
  SbpTestCopyLocal(bh, b);
  PCALL(VecSet(r, NAN)); /* poisoned: every entry must be written */
  PCALL(PCSBPMGResidual(A, b, x, r));
  SbpTestCopyLocal(r, rh);
  PCALL(MatMult(Aasm, xh, rref));
  PCALL(VecAYPX(rref, -1, bh)); /* b - A x in fp64 */
  err = SbpmgTestRelDiff(rh, rref);
  print_message("  %s: fp32 level residual against b - A x (assembled, fp64): max |r - r_ref| / max |r_ref| = %.2e\n", what, err);
  if (!(err <= tol)) fail_msg("%s: the fp32 level residual differs from b - A x by %g (relative, max norm), more than %g", what, err, tol);
  SbpmgTestDestroyVecs(&x, &b, &r, &xh, &bh, &rh, &rref, NULL);
  PCALL(MatDestroy(&Aasm));
  PCALL(MatDestroy(&A));
  return err;
}

PetscBool MGTestViewContains(KSP ksp, const char *text)
{
  PetscViewer v;
  char        path[] = "/tmp/sbpmg-test-view-XXXXXX", line[1024];
  int         fd     = mkstemp(path);
  FILE       *fp;
  PetscBool   found = PETSC_FALSE;

  assert_true(fd >= 0);
  close(fd);
  PCALL(PetscViewerASCIIOpen(PETSC_COMM_SELF, path, &v));
  PCALL(KSPView(ksp, v));
  PCALL(PetscViewerDestroy(&v));
  fp = fopen(path, "r");
  assert_non_null(fp);
  while (fgets(line, sizeof(line), fp))
    if (strstr(line, text)) found = PETSC_TRUE;
  fclose(fp);
  remove(path);
  return found;
}
