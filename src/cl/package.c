/* The packages of the layers (docs/design.md "Layout"): each layer's initializer starts its package here, and the device
   layer's finalizer, run last by PetscFinalize() (it was registered first: every initializer calls the one below it first),
   prints the bytes table of -log_view, releases the default context and resets every layer's flag. */
#include <sbpmg/private/climpl.h>

PetscClassId  SBPMG_CLASSID;
PetscLogEvent SBPMG_CLBuild, SBPMG_CLHtoD, SBPMG_CLDtoH;

#define SBPMG_MAX_PACKAGES 16
static PetscBool *SbpmgPackageFlags[SBPMG_MAX_PACKAGES];
static int        SbpmgNumPackages          = 0;
static PetscBool  SbpmgCLPackageInitialized = PETSC_FALSE;

PetscErrorCode SbpmgPackageStart(PetscBool *initialized, const char classname[], PetscClassId *classid, const SbpmgEventEntry events[], PetscBool *first)
{
  PetscFunctionBegin;
  *first = *initialized ? PETSC_FALSE : PETSC_TRUE;
  if (!*first) PetscFunctionReturn(0);
  PetscCheck(SbpmgNumPackages < SBPMG_MAX_PACKAGES, PETSC_COMM_SELF, PETSC_ERR_PLIB, "More than %d sbpmg packages", SBPMG_MAX_PACKAGES);
  *initialized                          = PETSC_TRUE;
  SbpmgPackageFlags[SbpmgNumPackages++] = initialized;
  if (classname) PetscCall(PetscClassIdRegister(classname, classid));
  for (const SbpmgEventEntry *e = events; e && e->name; e++) PetscCall(SbpmgLogRegisterEvent(e->name, *classid, e->event));
  PetscFunctionReturn(0);
}

/* Called by PetscFinalize(), after every other layer's finalizer. */
static PetscErrorCode SbpmgCLFinalizePackage(void)
{
  PetscFunctionBegin;
  PetscCall(SbpmgLogBytesViewFromOptions());
  PetscCall(SbpmgCLResetDefault());
  PetscCall(SbpmgLogReset());
  for (int i = 0; i < SbpmgNumPackages; i++) *SbpmgPackageFlags[i] = PETSC_FALSE;
  SbpmgNumPackages = 0;
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
  const SbpmgEventEntry events[] = {{"CLBuildProgram", &SBPMG_CLBuild}, {"CLCopyToDevice", &SBPMG_CLHtoD}, {"CLCopyToHost", &SBPMG_CLDtoH}, {NULL, NULL}};
  PetscBool             first;

  PetscFunctionBegin;
  PetscCall(SbpmgPackageStart(&SbpmgCLPackageInitialized, "sbpmg", &SBPMG_CLASSID, events, &first));
  if (first) PetscCall(PetscRegisterFinalize(SbpmgCLFinalizePackage));
  PetscFunctionReturn(0);
}
