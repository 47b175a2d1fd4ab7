/* The library's package: the initializers of the top layers (each calls those of the layers below it; each layer resets
   itself at PetscFinalize(), src/cl/package.c) and the dynamic-library entry point. */
#include <sbpmg/private/sbpimpl.h>

/*@C
   SbpmgInitializePackage - Register sbpmg's classes, vector, matrix and preconditioner types and log events: the
   initializers of the multigrid, Krylov, acoustic and earthquake-cycle layers, which call those of the layers below. Idempotent. Called by
   PetscDLLibraryRegister_sbpmg(); a program linked with libsbpmg calls it once after PetscInitialize().

   Level: beginner

.seealso: `PCSBPMGInitializePackage()`, `AcousticInitializePackage()`, `SeasInitializePackage()`
@*/
PetscErrorCode SbpmgInitializePackage(void)
{
  PetscFunctionBegin;
  PetscCall(PCSBPMGInitializePackage());
  PetscCall(KSPSBPCGInitializePackage());
  PetscCall(AcousticInitializePackage());
  PetscCall(SeasInitializePackage());
  PetscFunctionReturn(0);
}

/* Run when the library is loaded (before PetscInitialize(); it only stores a pointer): SbpProblemCreate() then registers the
   whole package, the preconditioner and Krylov types of the layers above the SBP-SAT layer included. */
static void __attribute__((constructor)) SbpmgSetPackageInitializer(void)
{
  SbpmgPackageInitializer = SbpmgInitializePackage;
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
