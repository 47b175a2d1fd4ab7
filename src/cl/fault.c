/* Fault injection for the tests of the error paths (docs/reliability.md "Fault injection"): the k-th device allocation, kernel
   build or transfer after SbpmgCLFaultInject() fails as the device would fail it. Not an option: a test-only hook. */
#include <sbpmg/private/climpl.h>

static PetscInt SbpmgFaultArmed[SBPMG_FAULT_KINDS], SbpmgFaultSeen[SBPMG_FAULT_KINDS];

static const char *const SbpmgFaultNames[] = {"device allocation", "kernel build", "transfer"};

/* Arm: the k-th next event of the kind fails (k = 0: none); the count of events seen starts again. */
PetscErrorCode SbpmgCLFaultInject(SbpmgCLFaultKind kind, PetscInt k)
{
  PetscFunctionBegin;
  PetscCheck(kind >= 0 && kind < SBPMG_FAULT_KINDS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Fault kind %d does not exist", (int)kind);
  PetscCheck(k >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Fault at event %" PetscInt_FMT ": events count from 1 (0: none)", k);
  SbpmgFaultArmed[kind] = k;
  SbpmgFaultSeen[kind]  = 0;
  PetscFunctionReturn(0);
}

/* The events of the kind seen since it was armed. */
PetscInt SbpmgCLFaultEvents(SbpmgCLFaultKind kind)
{
  return SbpmgFaultSeen[kind];
}

/* An event of the kind: an error when it is the armed one (and disarmed: a fault happens once). */
PetscErrorCode SbpmgCLFaultCheck(SbpmgCLFaultKind kind, const char what[])
{
  PetscFunctionBegin;
  SbpmgFaultSeen[kind]++;
  if (!SbpmgFaultArmed[kind] || SbpmgFaultSeen[kind] != SbpmgFaultArmed[kind]) PetscFunctionReturn(0);
  SbpmgFaultArmed[kind] = 0;
  SETERRQ(PETSC_COMM_SELF, kind == SBPMG_FAULT_ALLOC ? PETSC_ERR_MEM : PETSC_ERR_LIB, "%s %" PetscInt_FMT " failed (%s): a fault injected for testing",
          SbpmgFaultNames[kind], SbpmgFaultSeen[kind], what);
}
