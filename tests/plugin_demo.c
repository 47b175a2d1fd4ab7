/* A PETSc program that does not link sbpmg: the operator type "sbpsat" and the PC "sbpmg" arrive through
   -dll_append libsbpmg.so. Exits non-zero unless CG + sbpmg converged in a handful of iterations. */
#include <petscksp.h>

int main(int argc, char **argv)
{
  Mat                A;
  Vec                x, b;
  KSP                ksp;
  PC                 pc;
  PCType             type;
  PetscBool          is_sbpmg;
  PetscInt           its;
  KSPConvergedReason reason;

  PetscCall(PetscInitialize(&argc, &argv, NULL, "Plugin test: -dll_append libsbpmg.so -mat_type sbpsat -pc_type sbpmg\n"));
  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(MatSetFromOptions(A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCGetType(pc, &type));
  PetscCall(PetscStrcmp(type, "sbpmg", &is_sbpmg));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "plugin: PC %s, %" PetscInt_FMT " iterations, %s\n", type, its, KSPConvergedReasons[reason]));
  PetscCheck(is_sbpmg && reason > 0 && its <= 15, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "The plugin solve failed: PC %s, %" PetscInt_FMT " iterations, %s", type,
             its, KSPConvergedReasons[reason]);
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
