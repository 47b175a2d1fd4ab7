/* The SBP-SAT layer's package: the SbpProblem class, the matrix type sbpsat, the log events. */
#include <sbpmg/private/sbpimpl.h>

PetscClassId     SBP_PROBLEM_CLASSID;
PetscLogEvent    SBPMG_SbpApply, SBPMG_SbpDiag, SBPMG_SbpNorm, SBPMG_SbpSetUp;
static PetscBool SbpPackageInitialized = PETSC_FALSE;

static PetscErrorCode SbpFinalizePackage(void)
{
  PetscFunctionBegin;
  SbpPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*@C
   SbpInitializePackage - Register the SbpProblem class, the matrix type MATSBPSAT and the SBP-SAT log events, after the
   device vectors'. Idempotent; called by SbpProblemCreate(), MatCreate_SbpSat() and the multigrid layer's initializer.

   Level: developer

.seealso: `SbpmgInitializePackage()`
@*/
PetscErrorCode SbpInitializePackage(void)
{
  PetscFunctionBegin;
  if (SbpPackageInitialized) PetscFunctionReturn(0);
  SbpPackageInitialized = PETSC_TRUE;
  PetscCall(SbpmgVecInitializePackage());
  PetscCall(PetscClassIdRegister("SbpProblem", &SBP_PROBLEM_CLASSID));
  PetscCall(SbpmgLogRegisterEvent("SbpApply", SBP_PROBLEM_CLASSID, &SBPMG_SbpApply));
  PetscCall(SbpmgLogRegisterEvent("SbpDiagonal", SBP_PROBLEM_CLASSID, &SBPMG_SbpDiag));
  PetscCall(SbpmgLogRegisterEvent("SbpNorm", SBP_PROBLEM_CLASSID, &SBPMG_SbpNorm));
  PetscCall(SbpmgLogRegisterEvent("SbpSetUp", SBP_PROBLEM_CLASSID, &SBPMG_SbpSetUp));
  PetscCall(MatRegister(MATSBPSAT, MatCreate_SbpSat));
  PetscCall(PetscRegisterFinalize(SbpFinalizePackage));
  PetscFunctionReturn(0);
}
