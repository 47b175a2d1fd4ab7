#include "test_sbp_common.h"

SbpProblem SbpTestOrderProblem(MPI_Comm comm, PetscInt Nr, PetscInt Ns, const char *bc, SbpMappingType map, SbpBackend backend, const SbpTestOrderSettings *set)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(comm, &p));
  if (set->tune) PCALL(SbpProblemSetTuning(p, set->tune));
  PCALL(SbpProblemSetSizes(p, Nr, Ns));
  if (map == SBP_MAPPING_USER)
    PCALL(SbpProblemSetMappingFunction(p, set->mapfn, NULL));
  else
    PCALL(SbpProblemSetMapping(p, map));
  if (set->mu > 0) PCALL(SbpProblemSetMu(p, SBP_MU_CONSTANT, set->mu));
  for (PetscInt f = 0; f < 4; f++) PCALL(SbpProblemSetBC(p, f + 1, bc[f] == 'D' ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN));
  PCALL(SbpProblemSetBackend(p, backend));
  PCALL(SbpProblemSetOrder(p, set->order ? set->order : 2));
  PCALL(SbpProblemSetUp(p));
  return p;
}

SbpProblem SbpTestProblem(MPI_Comm comm, PetscInt Nr, PetscInt Ns, const char *bc, SbpMappingType map, SbpBackend backend, const char *tune)
{
  const SbpTestOrderSettings set = {2, 0, NULL, tune};
  return SbpTestOrderProblem(comm, Nr, Ns, bc, map, backend, &set);
}

int SbpTestWorldSize(void)
{
  PetscMPIInt size;
  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  return (int)size;
}

MPI_Comm SbpTestFirstRanks(int n)
{
  PetscMPIInt rank;
  MPI_Comm    comm;

  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PCALL(MPI_Comm_split(PETSC_COMM_WORLD, rank < n ? 0 : MPI_UNDEFINED, rank, &comm));
  return comm;
}

MPI_Comm SbpTestThreeOfFourRanks(void)
{
  PetscMPIInt size;

  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  return size >= 4 ? SbpTestFirstRanks(3) : MPI_COMM_NULL;
}

void SbpTestDeviceFirstUse(void)
{
  SbpmgCL cl;
  PCALL(SbpmgCLGetDefault(&cl));
}

/* A KSP on A with the preconditioner pc_type */
static KSP SbpTestKSP(Mat A, PCType pc_type)
{
  KSP ksp;
  PC  pc;

  PCALL(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PCALL(KSPSetOperators(ksp, A, A));
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCSetType(pc, pc_type));
  return ksp;
}

KSP SbpTestKSPWithSBPMG(Mat A)
{
  return SbpTestKSP(A, PCSBPMG);
}

KSP SbpTestMGCG(Mat A, PetscReal rtol, PetscInt maxit)
{
  KSP ksp = SbpTestKSP(A, PCSBPMG);

  PCALL(KSPSetType(ksp, KSPCG));
  PCALL(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, maxit));
  return ksp;
}

KSP SbpTestMGCGSetUp(Mat A, PetscReal rtol, const SbpTestMGSettings *set)
{
  KSP ksp = SbpTestMGCG(A, rtol, 200);
  PC  pc;

  PCALL(KSPGetPC(ksp, &pc));
  SbpTestSetSmoother(pc, set->smoother);
  if (set->levels) PCALL(PCSBPMGSetLevels(pc, set->levels));
  if (set->coarse_size) PCALL(PCSBPMGSetCoarseSize(pc, set->coarse_size));
  if (set->tune) PCALL(PCSBPMGSetTuning(pc, set->tune));
  PCALL(PCSetFromOptions(pc));
  PCALL(KSPSetUp(ksp));
  return ksp;
}

KSP SbpTestCholmod(Mat A)
{
  KSP ksp = SbpTestKSP(A, PCCHOLESKY);
  PC  pc;

  PCALL(KSPSetType(ksp, KSPPREONLY));
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCFactorSetMatSolverType(pc, MATSOLVERCHOLMOD));
  return ksp;
}

void SbpTestSystemCreate(SbpProblem p, PetscBool assembled, SbpTestSystem *s)
{
  s->p   = p;
  s->ksp = NULL;
  if (assembled)
    PCALL(SbpProblemCreateAssembledOperator(p, &s->A));
  else
    PCALL(SbpProblemCreateOperator(p, &s->A));
  PCALL(MatCreateVecs(s->A, &s->u, &s->g));
  PCALL(SbpProblemComputeRHS(p, s->g));
}

PetscInt SbpTestSystemSolve(SbpTestSystem *s)
{
  PetscInt           its;
  KSPConvergedReason reason;

  PCALL(KSPSolve(s->ksp, s->g, s->u));
  PCALL(KSPGetIterationNumber(s->ksp, &its));
  PCALL(KSPGetConvergedReason(s->ksp, &reason));
  if (reason <= 0) {
    KSPType ktype;
    PCType  ptype;
    PC      pc;
    PCALL(KSPGetType(s->ksp, &ktype));
    PCALL(KSPGetPC(s->ksp, &pc));
    PCALL(PCGetType(pc, &ptype));
    fail_msg("%d x %d: KSP %s + PC %s did not converge (%s)", (int)s->p->Nr, (int)s->p->Ns, ktype, ptype, KSPConvergedReasons[reason]);
  }
  return its;
}

void SbpTestSystemDestroy(SbpTestSystem *s)
{
  PCALL(KSPDestroy(&s->ksp));
  PCALL(VecDestroy(&s->u));
  PCALL(VecDestroy(&s->g));
  PCALL(MatDestroy(&s->A));
  PCALL(SbpProblemDestroy(&s->p));
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

/* ||b - A x|| / ||b|| */
PetscReal SbpTestTrueResidual(Mat A, Vec b, Vec x)
{
  Vec       r;
  PetscReal nr, nb;

  PCALL(VecDuplicate(b, &r));
  PCALL(MatResidual(A, b, x, r));
  PCALL(VecNorm(r, NORM_2, &nr));
  PCALL(VecNorm(b, NORM_2, &nb));
  PCALL(VecDestroy(&r));
  return nr / nb;
}

void SbpTestCopyLocal(Vec src, Vec dst)
{
  const PetscScalar *a;
  PetscScalar       *b;
  PetscInt           n;

  PCALL(VecGetLocalSize(src, &n));
  PCALL(VecGetArrayRead(src, &a));
  PCALL(VecGetArrayWrite(dst, &b));
  PCALL(PetscArraycpy(b, a, n));
  PCALL(VecRestoreArrayWrite(dst, &b));
  PCALL(VecRestoreArrayRead(src, &a));
}

SbpTestAnswer SbpTestAnswerOf(SbpProblem p, PetscBool with_error)
{
  SbpTestAnswer a = {NULL, NULL, {0, 0}};
  Mat           A;
  Vec           g, x, y;

  PCALL(SbpProblemCreateVector(p, &g));
  PCALL(VecDuplicate(g, &x));
  PCALL(VecDuplicate(g, &y));
  PCALL(SbpProblemComputeRHS(p, g));
  SbpmgTestFillRandom(x, 37);
  PCALL(SbpProblemCreateOperator(p, &A));
  PCALL(MatMult(A, x, y));
  if (with_error) PCALL(SbpProblemComputeError(p, x, &a.err[0], &a.err[1]));
  PCALL(VecCreateSeq(PETSC_COMM_SELF, (p->Nr + 1) * (p->Ns + 1), &a.b));
  PCALL(VecDuplicate(a.b, &a.Ax));
  PCALL(VecCopy(g, a.b));
  PCALL(VecCopy(y, a.Ax));
  PCALL(MatDestroy(&A));
  SbpmgTestDestroyVecs(&g, &x, &y, NULL);
  return a;
}

void SbpTestAnswerDestroy(SbpTestAnswer *a)
{
  SbpmgTestDestroyVecs(&a->b, &a->Ax, NULL);
}

PetscReal SbpTestAsymmetry(Mat A)
{
  Mat       T;
  PetscReal d, a;

  PCALL(MatTranspose(A, MAT_INITIAL_MATRIX, &T));
  PCALL(MatAXPY(T, -1, A, DIFFERENT_NONZERO_PATTERN));
  PCALL(MatNorm(T, NORM_FROBENIUS, &d));
  PCALL(MatNorm(A, NORM_FROBENIUS, &a));
  PCALL(MatDestroy(&T));
  return d / a;
}

void SbpTestFillU(SbpProblem p, Vec u, PetscInt zface)
{
  PetscScalar **a;

  PCALL(SbpProblemVecGetArray(p, u, PETSC_FALSE, &a));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) {
      PetscBool on = (zface == 1 && i == 0) || (zface == 2 && i == p->Nr) || (zface == 3 && j == 0) || (zface == 4 && j == p->Ns);
      a[j][i]      = on ? 0 : PetscSinReal(0.37 * i + 0.11 * j) + 0.2 * PetscCosReal(0.05 * i * j) + 0.01 * i;
    }
  PCALL(SbpProblemVecRestoreArray(p, u, PETSC_FALSE, &a));
}

PetscInt SbpTestFaceLength(SbpProblem p, PetscInt face)
{
  return face <= 2 ? p->Ns + 1 : p->Nr + 1;
}

void SbpTestFaceNode(SbpProblem p, PetscInt face, PetscInt t, PetscInt *i, PetscInt *j)
{
  *i = face == 1 ? 0 : face == 2 ? p->Nr : t;
  *j = face == 3 ? 0 : face == 4 ? p->Ns : t;
}

PetscReal *SbpTestTraction(SbpProblem p, Vec u, PetscInt face, Vec tgiven)
{
  Vec                t = tgiven, all;
  VecScatter         sc;
  const PetscScalar *a;
  PetscReal         *v;
  PetscInt           n;

  if (!t) PCALL(SbpProblemCreateFaceVector(p, face, &t));
  PCALL(VecSet(t, NAN)); /* every entry must be written */
  PCALL(SbpProblemComputeFaceTraction(p, u, face, t));
  PCALL(VecGetSize(t, &n));
  PCALL(VecScatterCreateToAll(t, &sc, &all));
  PCALL(VecScatterBegin(sc, t, all, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterEnd(sc, t, all, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(PetscMalloc1(n, &v));
  PCALL(VecGetArrayRead(all, &a));
  for (PetscInt k = 0; k < n; k++) v[k] = PetscRealPart(a[k]);
  PCALL(VecRestoreArrayRead(all, &a));
  PCALL(VecScatterDestroy(&sc));
  PCALL(VecDestroy(&all));
  if (!tgiven) PCALL(VecDestroy(&t));
  return v;
}

PetscReal SbpTestRelDiff(PetscInt n, const PetscReal *a, const PetscReal *b)
{
  PetscReal d, s;
  SbpmgTestMaxDiff(n, a, b, &d, &s);
  return d / s;
}

Vec SbpTestForcingVector(SbpProblem p, SbpForcingFunction fn, void *ctx)
{
  Vec                x, y, f;
  const PetscScalar *xa, *ya;
  PetscScalar       *fa;
  PetscInt           n;

  PCALL(SbpProblemGetCoordinates(p, &x, &y));
  PCALL(VecDuplicate(x, &f));
  PCALL(VecGetLocalSize(x, &n));
  PCALL(VecGetArrayRead(x, &xa));
  PCALL(VecGetArrayRead(y, &ya));
  PCALL(VecGetArray(f, &fa));
  for (PetscInt k = 0; k < n; k++) {
    PetscReal v;
    PCALL((*fn)(ctx, PetscRealPart(xa[k]), PetscRealPart(ya[k]), &v));
    fa[k] = v;
  }
  PCALL(VecRestoreArray(f, &fa));
  PCALL(VecRestoreArrayRead(x, &xa));
  PCALL(VecRestoreArrayRead(y, &ya));
  PCALL(VecDestroy(&x));
  PCALL(VecDestroy(&y));
  return f;
}

/* max over the ranks' patches of |a - b| / max |b| over the four coefficients crr, css, crs, J (their host copies); a NaN stays. */
PetscReal SbpTestCoefficientDiff(SbpProblem a, SbpProblem b)
{
  const PetscInt   n   = a->gxm * a->gym;
  const PetscReal *A[] = {a->crr, a->css, a->crs, a->J}, *B[] = {b->crr, b->css, b->crs, b->J};
  PetscReal        err = 0, scale = 0, g;

  assert_int_equal(n, b->gxm * b->gym);
  for (int t = 0; t < 4; t++)
    for (PetscInt k = 0; k < n; k++) scale = PetscMax(scale, PetscAbsReal(B[t][k]));
  for (int t = 0; t < 4; t++)
    for (PetscInt k = 0; k < n; k++) {
      PetscReal e = PetscAbsReal(A[t][k] - B[t][k]) / scale;
      if (!(e <= err)) err = e; /* a NaN stays */
    }
  PCALL(MPI_Allreduce(&err, &g, 1, MPIU_REAL, MPI_MAX, PetscObjectComm((PetscObject)a)));
  return g;
}

/* The coefficients of two problems compared (SbpTestCoefficientDiff), the difference printed with `what`; both problems destroyed. */
PetscReal SbpTestCompareCoefficients(SbpProblem a, SbpProblem b, const char *what)
{
  PetscReal err;

  PCALL(SbpProblemGetHostCoefficients(a));
  PCALL(SbpProblemGetHostCoefficients(b));
  err = SbpTestCoefficientDiff(a, b);
  print_message("  %s, %d x %d: max |difference| / max |coefficient| = %.2e\n", what, (int)a->Nr, (int)a->Ns, (double)err);
  PCALL(SbpProblemDestroy(&a));
  PCALL(SbpProblemDestroy(&b));
  return err;
}
