/* The multigrid layer's package: the preconditioner types sbpmg and sbpmgsmoother, the log events. */
#include <sbpmg/private/mgimpl.h>

PetscLogEvent    SBPMG_MGTransfer, SBPMG_MGSmooth, SBPMG_MGSetUp, SBPMG_MGCoarse, SBPMG_MGEigen;
static PetscBool PCSBPMGPackageInitialized = PETSC_FALSE;

/*@C
   PCSBPMGInitializePackage - Register the preconditioner types PCSBPMG and PCSBPMGSMOOTHER and the multigrid log events,
   after the SBP-SAT layer's. Idempotent; called by PCCreate_SBPMG() and SbpmgInitializePackage().

   Level: developer

.seealso: `SbpmgInitializePackage()`
@*/
PetscErrorCode PCSBPMGInitializePackage(void)
{
  const SbpmgEventEntry events[] = {{"MGTransfer", &SBPMG_MGTransfer},  {"MGSmooth", &SBPMG_MGSmooth},       {"MGSetUp", &SBPMG_MGSetUp},
                                    {"MGCoarseSolve", &SBPMG_MGCoarse}, {"MGEigenEstimate", &SBPMG_MGEigen}, {NULL, NULL}};
  PetscClassId          classid;
  PetscBool             first;

  PetscFunctionBegin;
  PetscCall(SbpInitializePackage());
  PetscCall(PCInitializePackage()); /* PC_CLASSID is PETSc's PC class from here on: the events are the PC class's */
  classid = PC_CLASSID;
  PetscCall(SbpmgPackageStart(&PCSBPMGPackageInitialized, NULL, &classid, events, &first));
  if (!first) PetscFunctionReturn(0);
  PetscCall(PCRegister(PCSBPMG, PCCreate_SBPMG));
  PetscCall(PCRegister(PCSBPMGSMOOTHER, PCCreate_SBPMGSmoother));
  PetscCall(SbpmgLogHideServerStage()); /* PCRegister() registered PETSc's stage PCMPI */
  PetscFunctionReturn(0);
}
