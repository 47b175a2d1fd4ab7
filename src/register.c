/* The one list of PETSc types sbpmg registers (called once by SbpmgInitializePackage). */
#include <sbpmg/impl.h>

PetscErrorCode SbpmgRegisterTypes(void)
{
  PetscFunctionBegin;
  PetscFunctionReturn(0);
}
