/* The one list of PETSc types sbpmg registers (called once by SbpmgInitializePackage). */
#include <sbpmg/impl.h>

PetscErrorCode SbpmgRegisterTypes(void)
{
  PetscFunctionBegin;
  PetscCall(SbpmgVecRegisterTypes()); /* VECSEQOPENCL, VECOPENCL, VECMPIOPENCL (src/vec) */
  PetscCall(MatRegister(MATSBPSAT, MatCreate_SbpSat));
  PetscCall(PCRegister(PCSBPMG, PCCreate_SBPMG));
  PetscCall(PCRegister(PCSBPMGSMOOTHER, PCCreate_SBPMGSmoother));
  PetscFunctionReturn(0);
}
