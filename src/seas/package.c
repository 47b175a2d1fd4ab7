/* The earthquake-cycle layer's package: the class Seas and the layer's log events. */
#include <sbpmg/private/seasimpl.h>

PetscClassId     SEAS_CLASSID;
PetscLogEvent    SEAS_Friction, SEAS_FaultStress, SEAS_RHS, SEAS_Output, SEAS_GreenSetUp;
static PetscBool SeasPackageInitialized = PETSC_FALSE;

/*@C
   SeasInitializePackage - Register the class Seas (the earthquake-cycle driver, docs/seas.md) and the layer's log events, after the
   SBP-SAT layer's. Idempotent; called by SeasCreate() and SbpmgInitializePackage().

   Level: developer

.seealso: `SbpmgInitializePackage()`, `SeasCreate()`
@*/
PetscErrorCode SeasInitializePackage(void)
{
  const SbpmgEventEntry events[] = {{"SeasFriction", &SEAS_Friction}, {"SeasFaultStress", &SEAS_FaultStress}, {"SeasRHS", &SEAS_RHS},
                                    {"SeasOutput", &SEAS_Output},     {"SeasGreenSetUp", &SEAS_GreenSetUp},   {NULL, NULL}};
  PetscBool             first;

  PetscFunctionBegin;
  PetscCall(SbpInitializePackage());
  PetscCall(TSInitializePackage());
  PetscCall(SbpmgPackageStart(&SeasPackageInitialized, "Seas", &SEAS_CLASSID, events, &first));
  PetscFunctionReturn(0);
}
