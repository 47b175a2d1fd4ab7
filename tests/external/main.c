/* An external program built against an installed sbpmg (tests/install-test.sh): solve a small SBP-SAT problem with CG + sbpmg. */
#include <sbpmg.h>

int main(int argc, char **argv)
{
  SbpProblem         p;
  Mat                A;
  Vec                u, g;
  KSP                ksp;
  PC                 pc;
  PetscReal          eH;
  KSPConvergedReason reason;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(SbpmgInitializePackage());
  PetscCall(SbpProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCall(SbpProblemSetSizes(p, 32, 32));
  PetscCall(SbpProblemSetUp(p));
  PetscCall(SbpProblemCreateOperator(p, &A));
  PetscCall(MatCreateVecs(A, &u, &g));
  PetscCall(SbpProblemComputeRHS(p, g));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCSBPMG));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 100));
  PetscCall(KSPSolve(ksp, g, u));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(SbpProblemComputeError(p, u, &eH, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "external program: %s, error %.4e\n", KSPConvergedReasons[reason], (double)eH));
  PetscCheck(reason > 0 && eH < 4e-3, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "The installed library gave a wrong result");
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&g));
  PetscCall(MatDestroy(&A));
  PetscCall(SbpProblemDestroy(&p));
  PetscCall(PetscFinalize());
  return 0;
}
