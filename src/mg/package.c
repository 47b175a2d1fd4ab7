/* The multigrid layer's package: the preconditioner types sbpmg and sbpmgsmoother, the log events. */
#include <sbpmg/private/mgimpl.h>

PetscLogEvent    SBPMG_MGTransfer, SBPMG_MGSmooth, SBPMG_MGSetUp, SBPMG_MGCoarse;
static PetscBool PCSBPMGPackageInitialized = PETSC_FALSE;

static PetscErrorCode PCSBPMGFinalizePackage(void)
{
  PetscFunctionBegin;
  PCSBPMGPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*@C
   PCSBPMGInitializePackage - Register the preconditioner types PCSBPMG and PCSBPMGSMOOTHER and the multigrid log events,
   after the SBP-SAT layer's. Idempotent; called by PCCreate_SBPMG() and SbpmgInitializePackage().

   Level: developer

.seealso: `SbpmgInitializePackage()`
@*/
PetscErrorCode PCSBPMGInitializePackage(void)
{
  PetscFunctionBegin;
  if (PCSBPMGPackageInitialized) PetscFunctionReturn(0);
  PCSBPMGPackageInitialized = PETSC_TRUE;
  PetscCall(SbpInitializePackage());
  PetscCall(SbpmgLogRegisterEvent("MGTransfer", PC_CLASSID, &SBPMG_MGTransfer));
  PetscCall(SbpmgLogRegisterEvent("MGSmooth", PC_CLASSID, &SBPMG_MGSmooth));
  PetscCall(SbpmgLogRegisterEvent("MGSetUp", PC_CLASSID, &SBPMG_MGSetUp));
  PetscCall(SbpmgLogRegisterEvent("MGCoarseSolve", PC_CLASSID, &SBPMG_MGCoarse));
  PetscCall(PCRegister(PCSBPMG, PCCreate_SBPMG));
  PetscCall(PCRegister(PCSBPMGSMOOTHER, PCCreate_SBPMGSmoother));
  PetscCall(PetscRegisterFinalize(PCSBPMGFinalizePackage));
  PetscFunctionReturn(0);
}
