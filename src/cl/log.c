/* The kernel-family log events of every layer and the bytes they move (the GB/s table printed after -log_view). */
#include <sbpmg/private/climpl.h>

/* Bytes moved per kernel family, for the GB/s column PETSc's own table lacks. */
#define SBPMG_MAX_BYTE_EVENTS 32
static struct {
  PetscLogEvent  event;
  const char    *name;
  PetscLogDouble bytes;
} SbpmgByteLog[SBPMG_MAX_BYTE_EVENTS];
static PetscInt SbpmgByteLogCount = 0;

/* Register a kernel-family event of any layer (from its *InitializePackage) and give it a row of the bytes table. */
PetscErrorCode SbpmgLogRegisterEvent(const char name[], PetscClassId classid, PetscLogEvent *ev)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister(name, classid, ev));
  PetscCheck(SbpmgByteLogCount < SBPMG_MAX_BYTE_EVENTS, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Too many sbpmg events");
  SbpmgByteLog[SbpmgByteLogCount].event = *ev;
  SbpmgByteLog[SbpmgByteLogCount].name  = name;
  SbpmgByteLog[SbpmgByteLogCount].bytes = 0;
  SbpmgByteLogCount++;
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
    if (cl) PetscCallCL(clFinish(cl->queue));
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
    PetscCall(PetscViewerASCIIPrintf(viewer, "  %-16s %10" PetscInt_FMT " %12.4e %12.4e %10.2f %10.2f\n", SbpmgByteLog[i].name, count, time,
                                     SbpmgByteLog[i].bytes, time > 0 ? SbpmgByteLog[i].bytes / time / 1e9 : 0.0, time > 0 ? flops / time / 1e9 : 0.0));
  }
  PetscFunctionReturn(0);
}

/* Forget the registered events (at PetscFinalize(): the next PetscInitialize() registers them again). */
PetscErrorCode SbpmgLogReset(void)
{
  PetscFunctionBegin;
  SbpmgByteLogCount = 0;
  PetscFunctionReturn(0);
}
