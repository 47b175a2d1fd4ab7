/* Package registration: class id, types, log events; finalisation; the dynamic-library entry point. */
#include <sbpmg/impl.h>

PetscClassId  SBPMG_CLASSID;
PetscLogEvent SBPMG_CLBuild, SBPMG_CLHtoD, SBPMG_CLDtoH;
PetscLogEvent SBPMG_VecBlas, SBPMG_VecReduce;
PetscLogEvent SBPMG_SbpApply, SBPMG_SbpDiag, SBPMG_SbpNorm, SBPMG_SbpSetUp;
PetscLogEvent SBPMG_MGTransfer, SBPMG_MGSmooth, SBPMG_MGSetUp, SBPMG_MGCoarse;
PetscLogEvent SBPMG_AcInner, SBPMG_AcPML, SBPMG_AcSource;

static PetscBool SbpmgPackageInitialized = PETSC_FALSE;

/* Bytes moved per kernel family, for the GB/s column PETSc's own table lacks. */
#define SBPMG_MAX_BYTE_EVENTS 32
static struct {
  PetscLogEvent  event;
  const char    *name;
  PetscLogDouble bytes;
} SbpmgByteLog[SBPMG_MAX_BYTE_EVENTS];
static PetscInt SbpmgByteLogCount = 0;

static PetscErrorCode SbpmgRegisterEvent(const char name[], PetscLogEvent *ev)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister(name, SBPMG_CLASSID, ev));
  PetscCheck(SbpmgByteLogCount < SBPMG_MAX_BYTE_EVENTS, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Too many sbpmg events");
  SbpmgByteLog[SbpmgByteLogCount].event = *ev;
  SbpmgByteLog[SbpmgByteLogCount].name  = name;
  SbpmgByteLog[SbpmgByteLogCount].bytes = 0;
  SbpmgByteLogCount++;
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpmgRegisterEvents(void)
{
  PetscFunctionBegin;
  SbpmgByteLogCount = 0;
  PetscCall(SbpmgRegisterEvent("CLBuildProgram", &SBPMG_CLBuild));
  PetscCall(SbpmgRegisterEvent("CLCopyToDevice", &SBPMG_CLHtoD));
  PetscCall(SbpmgRegisterEvent("CLCopyToHost", &SBPMG_CLDtoH));
  PetscCall(SbpmgRegisterEvent("CLVecBlas1", &SBPMG_VecBlas));
  PetscCall(SbpmgRegisterEvent("CLVecReduce", &SBPMG_VecReduce));
  PetscCall(SbpmgRegisterEvent("SbpApply", &SBPMG_SbpApply));
  PetscCall(SbpmgRegisterEvent("SbpDiagonal", &SBPMG_SbpDiag));
  PetscCall(SbpmgRegisterEvent("SbpNorm", &SBPMG_SbpNorm));
  PetscCall(SbpmgRegisterEvent("SbpSetUp", &SBPMG_SbpSetUp));
  PetscCall(SbpmgRegisterEvent("MGTransfer", &SBPMG_MGTransfer));
  PetscCall(SbpmgRegisterEvent("MGSmooth", &SBPMG_MGSmooth));
  PetscCall(SbpmgRegisterEvent("MGSetUp", &SBPMG_MGSetUp));
  PetscCall(SbpmgRegisterEvent("MGCoarseSolve", &SBPMG_MGCoarse));
  PetscCall(SbpmgRegisterEvent("AcInner", &SBPMG_AcInner));
  PetscCall(SbpmgRegisterEvent("AcPML", &SBPMG_AcPML));
  PetscCall(SbpmgRegisterEvent("AcSource", &SBPMG_AcSource));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgLogKernelBegin(PetscLogEvent ev)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(ev, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* End a kernel-family event. When PETSc logging is on, wait for the queue so the event's time is the kernel's time. */
PetscErrorCode SbpmgLogKernelEnd(PetscLogEvent ev, SbpmgCL cl, PetscLogDouble flops, PetscLogDouble bytes)
{
  PetscFunctionBegin;
  if (PetscLogPLE) {
    if (cl) PetscCall(SbpmgCLFinish(cl));
    for (PetscInt i = 0; i < SbpmgByteLogCount; i++)
      if (SbpmgByteLog[i].event == ev) SbpmgByteLog[i].bytes += bytes;
  }
  PetscCall(PetscLogFlops(flops));
  PetscCall(PetscLogEventEnd(ev, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
   SbpmgLogBytesView - Print, per sbpmg kernel family, the calls, the time, the bytes moved and the rate (GB/s), from the PETSc event log.

   Level: intermediate
@*/
PetscErrorCode SbpmgLogBytesView(PetscViewer viewer)
{
  PetscStageLog stageLog;

  PetscFunctionBegin;
  if (!PetscLogPLE) PetscFunctionReturn(0);
  PetscCall(PetscLogGetStageLog(&stageLog));
  PetscCall(PetscViewerASCIIPrintf(viewer, "sbpmg kernel families (device time, synchronised per event):\n"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  %-16s %10s %12s %12s %10s %10s\n", "Event", "Count", "Time (s)", "Bytes", "GB/s", "Gflop/s"));
  for (PetscInt i = 0; i < SbpmgByteLogCount; i++) {
    PetscLogDouble time = 0, flops = 0;
    PetscInt       count = 0;

    for (int s = 0; s < stageLog->numStages; s++) {
      PetscEventPerfInfo info;
      PetscCall(PetscLogEventGetPerfInfo(s, SbpmgByteLog[i].event, &info));
      time += info.time;
      flops += info.flops;
      count += info.count;
    }
    if (!count) continue;
    PetscCall(PetscViewerASCIIPrintf(viewer, "  %-16s %10" PetscInt_FMT " %12.4e %12.4e %10.2f %10.2f\n", SbpmgByteLog[i].name, count, time, SbpmgByteLog[i].bytes,
                                     time > 0 ? SbpmgByteLog[i].bytes / time / 1e9 : 0.0, time > 0 ? flops / time / 1e9 : 0.0));
  }
  PetscFunctionReturn(0);
}

/*@C
   SbpmgFinalizePackage - Release the default OpenCL context and reset the package; called by PetscFinalize().

   Level: developer
@*/
PetscErrorCode SbpmgFinalizePackage(void)
{
  PetscBool logview;

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasName(NULL, NULL, "-log_view", &logview));
  if (logview) PetscCall(SbpmgLogBytesView(PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(SbpmgCLResetDefault());
  SbpmgPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*@C
   SbpmgInitializePackage - Register sbpmg's classes, vector and preconditioner types and log events. Idempotent:
   the second and later calls do nothing. Called by every sbpmg constructor, and by PetscDLLibraryRegister_sbpmg().

   Level: developer

.seealso: `SbpmgFinalizePackage()`
@*/
PetscErrorCode SbpmgInitializePackage(void)
{
  PetscFunctionBegin;
  if (SbpmgPackageInitialized) PetscFunctionReturn(0);
  SbpmgPackageInitialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("sbpmg", &SBPMG_CLASSID));
  PetscCall(PetscClassIdRegister("SbpProblem", &SBP_PROBLEM_CLASSID));
  PetscCall(SbpmgRegisterEvents());
  PetscCall(SbpmgRegisterTypes());
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
