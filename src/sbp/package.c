/* The SBP-SAT layer's package: the SbpProblem class, the matrix type sbpsat, the log events. */
#include <sbpmg/private/sbpimpl.h>

PetscClassId     SBP_PROBLEM_CLASSID;
PetscLogEvent    SBPMG_SbpApply, SBPMG_SbpDiag, SBPMG_SbpNorm, SBPMG_SbpSetUp, SBPMG_SbpCoefficients, SBPMG_SbpTraction;
static PetscBool SbpPackageInitialized = PETSC_FALSE;

/*@C
   SbpInitializePackage - Register the SbpProblem class, the matrix type MATSBPSAT and the SBP-SAT log events, after the
   device vectors'. Idempotent; called by SbpProblemCreate(), MatCreate_SbpSat() and the multigrid layer's initializer.

   Level: developer

.seealso: `SbpmgInitializePackage()`
@*/
PetscErrorCode SbpInitializePackage(void)
{
  const SbpmgEventEntry events[] = {{"SbpApply", &SBPMG_SbpApply},
                                    {"SbpDiagonal", &SBPMG_SbpDiag},
                                    {"SbpNorm", &SBPMG_SbpNorm},
                                    {"SbpSetUp", &SBPMG_SbpSetUp},
                                    {"SbpCoefficients", &SBPMG_SbpCoefficients},
                                    {"SbpTraction", &SBPMG_SbpTraction},
                                    {NULL, NULL}};
  PetscBool             first;

  PetscFunctionBegin;
  PetscCall(SbpmgVecInitializePackage());
  PetscCall(SbpmgPackageStart(&SbpPackageInitialized, "SbpProblem", &SBP_PROBLEM_CLASSID, events, &first));
  if (first) PetscCall(MatRegister(MATSBPSAT, MatCreate_SbpSat));
  PetscFunctionReturn(0);
}
