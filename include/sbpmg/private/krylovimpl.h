/* The Krylov layer's private interface (src/krylov: the device-resident CG, KSPSBPCG); not installed. */
#ifndef SBPMG_KRYLOVIMPL_H
#define SBPMG_KRYLOVIMPL_H

#include <sbpmg/private/vecimpl.h>
#include <petsc/private/kspimpl.h>

/* ---------------------------------------------------------------- logging (registered by KSPSBPCGInitializePackage) */
PETSC_INTERN PetscLogEvent SBPMG_KrylovDot, SBPMG_KrylovUpdate;

/* The slots of the device scalars (kernels/krylov.cl) */
#define KR_RZ     0
#define KR_RZ_OLD 1
#define KR_PW     2
#define KR_RR     3
#define KR_ZZ     4
#define KR_NSLOTS 5

PETSC_INTERN PetscErrorCode KSPCreate_SBPCG(KSP);

#endif
