/* The Krylov layer's package: the KSP type sbpcg (the device-resident CG) and its log events. */
#include <sbpmg/private/krylovimpl.h>

PetscLogEvent    SBPMG_KrylovDot, SBPMG_KrylovUpdate;
static PetscBool KSPSBPCGPackageInitialized = PETSC_FALSE;

/*@C
   KSPSBPCGInitializePackage - Register the KSP type KSPSBPCG and the Krylov layer's log events, after the vector layer's.
   Idempotent; called by KSPCreate_SBPCG() and SbpmgInitializePackage().

   Level: developer

.seealso: `SbpmgInitializePackage()`, `KSPSBPCG`
@*/
PetscErrorCode KSPSBPCGInitializePackage(void)
{
  const SbpmgEventEntry events[] = {{"KrylovDot", &SBPMG_KrylovDot}, {"KrylovUpdate", &SBPMG_KrylovUpdate}, {NULL, NULL}};
  PetscClassId          classid;
  PetscBool             first;

  PetscFunctionBegin;
  PetscCall(SbpmgVecInitializePackage());
  PetscCall(KSPInitializePackage());
  classid = KSP_CLASSID;
  PetscCall(SbpmgPackageStart(&KSPSBPCGPackageInitialized, NULL, &classid, events, &first));
  if (!first) PetscFunctionReturn(0);
  PetscCall(KSPRegister(KSPSBPCG, KSPCreate_SBPCG));
  PetscFunctionReturn(0);
}
