/* A program that never calls SbpmgInitializePackage(), linked with libsbpmg.so as a user's program is: creating an SbpProblem
   registers the whole package, so -pc_type sbpmg and -ksp_type sbpcg are found (docs/guide.md "A complete program"). The
   solution is checked against the manufactured exact solution of the default problem. */
#include <sbpmg.h>

int main(int argc, char **argv)
{
  SbpProblem         p;
  Mat                A;
  Vec                u, g;
  KSP                ksp;
  PC                 pc;
  PCType             pctype;
  KSPType            ksptype;
  PetscReal          eH;
  PetscBool          issbpmg;
  KSPConvergedReason reason;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(SbpProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCall(SbpProblemSetSizes(p, 32, 32));
  PetscCall(SbpProblemSetFromOptions(p));
  PetscCall(SbpProblemSetUp(p));
  PetscCall(SbpProblemCreateOperator(p, &A));
  PetscCall(MatCreateVecs(A, &u, &g));
  PetscCall(SbpProblemComputeRHS(p, g));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 100));
  PetscCall(KSPSetFromOptions(ksp)); /* -ksp_type, -pc_type from the command line */
  PetscCall(KSPSolve(ksp, g, u));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetType(ksp, &ksptype));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCGetType(pc, &pctype));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCSBPMG, &issbpmg));
  PetscCall(SbpProblemComputeError(p, u, &eH, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "noinit: KSP %s, PC %s, %s, H-norm error %.4e\n", ksptype, pctype, KSPConvergedReasons[reason], (double)eH));
  /* the default problem at 32 x 32: ||e||_H of the discretisation is 3.29e-3 (docs/verification.md, the reference problem) */
  PetscCheck(issbpmg && reason > 0 && eH < 4e-3, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "noinit: wrong solve (PC %s, reason %d, error %g)", pctype, (int)reason,
             (double)eH);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "noinit: solved without SbpmgInitializePackage()\n"));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&g));
  PetscCall(MatDestroy(&A));
  PetscCall(SbpProblemDestroy(&p));
  PetscCall(PetscFinalize());
  return 0;
}
