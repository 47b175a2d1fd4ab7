/* The device layer's package: its class and log events; at PetscFinalize() the bytes table of -log_view and the default
   context released. */
#include <sbpmg/private/climpl.h>

PetscClassId  SBPMG_CLASSID;
PetscLogEvent SBPMG_CLBuild, SBPMG_CLHtoD, SBPMG_CLDtoH;

static PetscBool SbpmgCLPackageInitialized = PETSC_FALSE;

/* Called by PetscFinalize(): the bytes table after -log_view, the default context released. */
static PetscErrorCode SbpmgCLFinalizePackage(void)
{
  PetscBool logview;

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasName(NULL, NULL, "-log_view", &logview));
  if (logview) PetscCall(SbpmgLogBytesView(PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(SbpmgCLResetDefault());
  PetscCall(SbpmgLogReset());
  SbpmgCLPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLInitializePackage - Register the device layer's class and log events. Idempotent; called by SbpmgCLCreate() and by
   the initializers of the layers above.

   Level: developer

.seealso: `SbpmgInitializePackage()`
@*/
PetscErrorCode SbpmgCLInitializePackage(void)
{
  PetscFunctionBegin;
  if (SbpmgCLPackageInitialized) PetscFunctionReturn(0);
  SbpmgCLPackageInitialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("sbpmg", &SBPMG_CLASSID));
  PetscCall(SbpmgLogRegisterEvent("CLBuildProgram", SBPMG_CLASSID, &SBPMG_CLBuild));
  PetscCall(SbpmgLogRegisterEvent("CLCopyToDevice", SBPMG_CLASSID, &SBPMG_CLHtoD));
  PetscCall(SbpmgLogRegisterEvent("CLCopyToHost", SBPMG_CLASSID, &SBPMG_CLDtoH));
  PetscCall(PetscRegisterFinalize(SbpmgCLFinalizePackage));
  PetscFunctionReturn(0);
}
