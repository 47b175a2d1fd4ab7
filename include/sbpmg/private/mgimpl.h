/* The multigrid layer's private interface (src/mg): the level smoother PC; not installed. */
#ifndef SBPMG_MGIMPL_H
#define SBPMG_MGIMPL_H

#include <sbpmg/private/sbpimpl.h>

/* ---------------------------------------------------------------- logging (registered by PCSBPMGInitializePackage) */
PETSC_INTERN PetscLogEvent SBPMG_MGTransfer, SBPMG_MGSmooth, SBPMG_MGSetUp, SBPMG_MGCoarse;

PETSC_INTERN PetscErrorCode PCCreate_SBPMGSmoother(PC);
PETSC_INTERN PetscErrorCode PCSBPMGSmootherConfigure(PC, PCSBPMGSmootherType, PetscReal, PetscReal, PetscReal, PetscInt, PetscBool, PetscBool, PetscInt,
                                                     PetscInt);
PETSC_INTERN PetscErrorCode PCSBPMGSmootherGetEstimates(PC, PetscReal *, PetscReal *);
PETSC_INTERN PetscErrorCode PCSBPMGSmootherGetPass(PC, PetscInt *);

#endif
