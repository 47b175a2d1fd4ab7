/* -cl_profile: every launch keeps its profiling event; batches of them are read into totals per (kernel, log2 of the
   work-items), printed when the context is destroyed, with the span from the first start to the last end: the device's
   busy fraction. */
#include <sbpmg/private/climpl.h>

#define SBPMG_PROF_PENDING 4096
#define SBPMG_PROF_ROWS    512
struct SbpmgCLProfile {
  cl_event  ev[SBPMG_PROF_PENDING];
  cl_kernel kev[SBPMG_PROF_PENDING];
  int       bev[SBPMG_PROF_PENDING];
  int       npending, nrows;
  cl_kernel krow[SBPMG_PROF_ROWS];
  int       brow[SBPMG_PROF_ROWS];
  double    count[SBPMG_PROF_ROWS], ns[SBPMG_PROF_ROWS];
  cl_ulong  first, last;
};

PetscErrorCode SbpmgCLProfileCreate(SbpmgCL cl)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(&cl->prof));
  PetscFunctionReturn(0);
}

/* The row of (kernel, size class): found, or added while there is room (-1 when there is none) */
static int SbpmgCLProfileRow(struct SbpmgCLProfile *pr, cl_kernel k, int b)
{
  int r;

  for (r = 0; r < pr->nrows; r++)
    if (pr->krow[r] == k && pr->brow[r] == b) return r;
  if (r == SBPMG_PROF_ROWS) return -1;
  pr->krow[r] = k;
  pr->brow[r] = b;
  pr->nrows++;
  return r;
}

/* Wait for the pending launches and add their device times to the totals */
static PetscErrorCode SbpmgCLProfileDrain(SbpmgCL cl)
{
  struct SbpmgCLProfile *pr = cl->prof;

  PetscFunctionBegin;
  if (!pr->npending) PetscFunctionReturn(0);
  PetscCallCL(clWaitForEvents((cl_uint)pr->npending, pr->ev));
  for (int e = 0; e < pr->npending; e++) {
    cl_ulong t0, t1;
    int      r;

    PetscCallCL(clGetEventProfilingInfo(pr->ev[e], CL_PROFILING_COMMAND_START, sizeof(t0), &t0, NULL));
    PetscCallCL(clGetEventProfilingInfo(pr->ev[e], CL_PROFILING_COMMAND_END, sizeof(t1), &t1, NULL));
    PetscCallCL(clReleaseEvent(pr->ev[e]));
    if (!pr->first || t0 < pr->first) pr->first = t0;
    if (t1 > pr->last) pr->last = t1;
    r = SbpmgCLProfileRow(pr, pr->kev[e], pr->bev[e]);
    if (r >= 0) {
      pr->count[r] += 1;
      pr->ns[r] += (double)(t1 - t0);
    }
  }
  pr->npending = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLProfileNextEvent(SbpmgCL cl, cl_event **ev)
{
  struct SbpmgCLProfile *pr = cl->prof;

  PetscFunctionBegin;
  if (pr->npending == SBPMG_PROF_PENDING) PetscCall(SbpmgCLProfileDrain(cl));
  *ev = &pr->ev[pr->npending];
  PetscFunctionReturn(0);
}

void SbpmgCLProfileRecord(SbpmgCL cl, cl_kernel k, size_t items)
{
  struct SbpmgCLProfile *pr = cl->prof;
  int                    b  = 0;

  while (((size_t)1 << b) < items) b++;
  pr->kev[pr->npending] = k;
  pr->bev[pr->npending] = b;
  pr->npending++;
}

static PetscErrorCode SbpmgCLProfilePrint(SbpmgCL cl)
{
  struct SbpmgCLProfile *pr    = cl->prof;
  double                 total = 0;

  PetscFunctionBegin;
  PetscCall(SbpmgCLProfileDrain(cl));
  for (int r = 0; r < pr->nrows; r++) total += pr->ns[r];
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, PETSC_STDOUT,
                         "sbpmg -cl_profile: %.3f ms in kernels over a span of %.3f ms (%.1f%% busy)\n%-28s %10s %12s %10s %10s\n", total / 1e6,
                         (double)(pr->last - pr->first) / 1e6, pr->last > pr->first ? 100 * total / (double)(pr->last - pr->first) : 0.0, "kernel", "items<=2^",
                         "launches", "ms", "us/launch"));
  for (int r = 0; r < pr->nrows; r++) {
    char name[64] = "?";
    (void)clGetKernelInfo(pr->krow[r], CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL);
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, PETSC_STDOUT, "%-28s %10d %12.0f %10.3f %10.2f\n", name, pr->brow[r], pr->count[r], pr->ns[r] / 1e6,
                           pr->ns[r] / 1e3 / pr->count[r]));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLProfileDestroy(SbpmgCL cl)
{
  PetscFunctionBegin;
  if (cl->prof && cl->queue) PetscCall(SbpmgCLProfilePrint(cl));
  PetscCall(PetscFree(cl->prof));
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLGetProfile - Launches of a kernel and their device time so far, on a context created with -cl_profile.

   Not collective

   Level: developer
@*/
PetscErrorCode SbpmgCLGetProfile(SbpmgCL cl, const char kernel[], PetscInt *launches, PetscReal *seconds)
{
  struct SbpmgCLProfile *pr = cl->prof;

  PetscFunctionBegin;
  PetscCheck(pr, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Kernel profiling is off: create the OpenCL context with -cl_profile");
  PetscCall(SbpmgCLProfileDrain(cl));
  *launches = 0;
  *seconds  = 0;
  for (int r = 0; r < pr->nrows; r++) {
    char      name[64] = "";
    PetscBool match;
    PetscCallCL(clGetKernelInfo(pr->krow[r], CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL));
    PetscCall(PetscStrcmp(name, kernel, &match));
    if (!match) continue;
    *launches += (PetscInt)pr->count[r];
    *seconds += pr->ns[r] * 1e-9;
  }
  PetscFunctionReturn(0);
}
