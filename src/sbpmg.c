/* The library's package: the initializers of the top layers (each calls those of the layers below it) and the
   dynamic-library entry point. */
#include <sbpmg.h>

static PetscBool SbpmgPackageInitialized = PETSC_FALSE;

/*@C
   SbpmgFinalizePackage - Reset the package; called by PetscFinalize(). Each layer finalizes itself (the device layer last:
   it prints the bytes table of -log_view and releases the default OpenCL context).

   Level: developer
@*/
PetscErrorCode SbpmgFinalizePackage(void)
{
  PetscFunctionBegin;
  SbpmgPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*@C
   SbpmgInitializePackage - Register sbpmg's classes, vector, matrix and preconditioner types and log events: the
   initializers of the multigrid and acoustic layers, which call those of the layers below. Idempotent: the second and
   later calls do nothing. Called by PetscDLLibraryRegister_sbpmg(); a program linked with libsbpmg calls it once after
   PetscInitialize().

   Level: beginner

.seealso: `SbpmgFinalizePackage()`, `PCSBPMGInitializePackage()`, `AcousticInitializePackage()`
@*/
PetscErrorCode SbpmgInitializePackage(void)
{
  PetscFunctionBegin;
  if (SbpmgPackageInitialized) PetscFunctionReturn(0);
  SbpmgPackageInitialized = PETSC_TRUE;
  PetscCall(PCSBPMGInitializePackage());
  PetscCall(AcousticInitializePackage());
  PetscCall(PetscRegisterFinalize(SbpmgFinalizePackage));
  PetscFunctionReturn(0);
}

/*@C
   PetscDLLibraryRegister_sbpmg - Entry point PETSc calls when libsbpmg is loaded with -dll_append; registers the package.

   Level: developer
@*/
PetscErrorCode PetscDLLibraryRegister_sbpmg(void)
{
  PetscFunctionBegin;
  PetscCall(SbpmgInitializePackage());
  PetscFunctionReturn(0);
}
