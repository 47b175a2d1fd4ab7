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

/* The viewer of -log_view [type][:file[:format[:mode]]] for the bytes table, which follows PETSc's table in the same place: the
   file, appended to (PETSc wrote its table there and closed it), or stdout. NULL where the format has no place for it:
   PETSc's other formats (ascii_info_detail, ascii_csv, ascii_xml, ascii_flamegraph) are machine-readable, and a
   non-ASCII type has no table at all. */
static PetscErrorCode SbpmgLogBytesViewer(PetscViewer *viewer)
{
  char      value[PETSC_MAX_PATH_LEN] = "", *file = NULL, *format = NULL, *mode;
  PetscBool set, ascii = PETSC_TRUE;

  PetscFunctionBegin;
  *viewer = NULL;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-log_view", value, sizeof(value), &set));
  if (!set) PetscFunctionReturn(0);
  PetscCall(PetscStrchr(value, ':', &file));
  if (file) *file++ = 0;
  if (file) PetscCall(PetscStrchr(file, ':', &format));
  if (format) *format++ = 0;
  if (format) PetscCall(PetscStrchr(format, ':', &mode));
  if (format && mode) *mode = 0;
  if (value[0]) PetscCall(PetscStrcasecmp(value, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(0);
  if (format && format[0]) {
    PetscEnum fmt;
    PetscBool found;
    PetscCall(PetscEnumFind(PetscViewerFormats, format, &fmt, &found));
    if (!found || (fmt != (PetscEnum)PETSC_VIEWER_DEFAULT && fmt != (PetscEnum)PETSC_VIEWER_ASCII_INFO)) PetscFunctionReturn(0);
  }
  if (!file || !file[0]) {
    PetscCall(PetscObjectReference((PetscObject)PETSC_VIEWER_STDOUT_WORLD));
    *viewer = PETSC_VIEWER_STDOUT_WORLD;
    PetscFunctionReturn(0);
  }
  PetscCall(PetscViewerCreate(PETSC_COMM_WORLD, viewer));
  PetscCall(PetscViewerSetType(*viewer, PETSCVIEWERASCII));
  PetscCall(PetscViewerFileSetMode(*viewer, FILE_MODE_APPEND));
  PetscCall(PetscViewerFileSetName(*viewer, file));
  PetscFunctionReturn(0);
}

/* At PetscFinalize(), after PETSc's -log_view output: the bytes table where -log_view put PETSc's (SbpmgLogBytesViewer()). */
PetscErrorCode SbpmgLogBytesViewFromOptions(void)
{
  PetscViewer viewer;

  PetscFunctionBegin;
  PetscCall(SbpmgLogBytesViewer(&viewer));
  if (!viewer) PetscFunctionReturn(0);
  PetscCall(SbpmgLogBytesView(viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscFunctionReturn(0);
}

/* PETSc 3.18's PCInitializePackage() registers the log stage "PCMPI" of its MPI linear solver server
   (-mpi_linear_solver_server); unused otherwise, -log_view lists it as "Event Stage 1: Unknown". Hide it then. Called
   by the layer that registers sbpmg's preconditioners (after PCRegister(), which initializes PETSc's PC package). */
PetscErrorCode SbpmgLogHideServerStage(void)
{
  PetscLogStage stage;
  PetscBool     server;

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasName(NULL, NULL, "-mpi_linear_solver_server", &server));
  if (server) PetscFunctionReturn(0);
  PetscCall(PetscLogStageGetId("PCMPI", &stage));
  if (stage >= 0) PetscCall(PetscLogStageSetVisible(stage, PETSC_FALSE));
  PetscFunctionReturn(0);
}

/* Forget the registered events (at PetscFinalize(): the next PetscInitialize() registers them again). */
PetscErrorCode SbpmgLogReset(void)
{
  PetscFunctionBegin;
  SbpmgByteLogCount = 0;
  PetscFunctionReturn(0);
}
