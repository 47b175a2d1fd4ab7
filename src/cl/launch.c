/* Kernel arguments and launches: every kernel of the library is enqueued here, so -cl_profile times them all. */
#include <sbpmg/private/climpl.h>

PetscErrorCode SbpmgCLSetArg(cl_kernel k, cl_uint index, size_t size, const void *value)
{
  cl_int err;

  PetscFunctionBegin;
  err = clSetKernelArg(k, index, size, value);
  if (err != CL_SUCCESS) {
    char name[128] = "?";
    (void)clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "OpenCL error %d (%s) setting argument %u (%zu bytes) of kernel %s", (int)err, SbpmgCLErrorName(err), index, size,
            name);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLSetArgs(cl_kernel k, cl_uint first, PetscInt npairs, ...)
{
  va_list ap;

  PetscFunctionBegin;
  va_start(ap, npairs);
  for (PetscInt i = 0; i < npairs; i++) {
    size_t         size  = va_arg(ap, size_t);
    const void    *value = va_arg(ap, const void *);
    PetscErrorCode ierr  = SbpmgCLSetArg(k, first + (cl_uint)i, size, value);
    if (ierr) {
      va_end(ap);
      PetscCall(ierr);
    }
  }
  va_end(ap);
  PetscFunctionReturn(0);
}

/* Enqueue k over global[0..dim) work-items, each rounded up to a multiple of local (NULL: the runtime chooses, global
   exactly); an empty range enqueues nothing. */
static PetscErrorCode SbpmgCLLaunch(SbpmgCL cl, cl_kernel k, cl_uint dim, const size_t global[], const size_t local[])
{
  size_t    g[3], items = 1;
  cl_event *ev = NULL;
  cl_int    err;

  PetscFunctionBegin;
  for (cl_uint d = 0; d < dim; d++) {
    if (global[d] == 0) PetscFunctionReturn(0);
    g[d] = local ? ((global[d] + local[d] - 1) / local[d]) * local[d] : global[d];
    items *= g[d];
  }
  if (cl->prof) PetscCall(SbpmgCLProfileNextEvent(cl, &ev));
  err = clEnqueueNDRangeKernel(cl->queue, k, dim, NULL, g, local, 0, NULL, ev);
  if (err == CL_SUCCESS && ev) SbpmgCLProfileRecord(cl, k, items);
  if (err != CL_SUCCESS) {
    char name[128] = "?";
    (void)clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL);
    SETERRQ(PETSC_COMM_SELF, SbpmgCLErrorCode(err), "OpenCL error %d (%s) launching kernel %s on %u-D range %zu x %zu x %zu (local %zu x %zu x %zu)", (int)err,
            SbpmgCLErrorName(err), name, dim, g[0], dim > 1 ? g[1] : 1, dim > 2 ? g[2] : 1, local ? local[0] : 0, local && dim > 1 ? local[1] : 0,
            local && dim > 2 ? local[2] : 0);
  }
  PetscFunctionReturn(0);
}

/* Launch over n work-items (rounded up to a multiple of local; local 0 lets the runtime choose, n exactly). */
PetscErrorCode SbpmgCLLaunch1D(SbpmgCL cl, cl_kernel k, size_t n, size_t local)
{
  PetscFunctionBegin;
  PetscCall(SbpmgCLLaunch(cl, k, 1, &n, local ? &local : NULL));
  PetscFunctionReturn(0);
}

/*
  SbpmgCLLaunch1DGuarded - n work-items of a kernel that returns for ids >= n, in work-groups of the tuning's vec_wg (halved until
  the kernel's CL_KERNEL_WORK_GROUP_SIZE allows it), the range rounded up to a multiple. A local size left to the runtime must
  divide n, and for a size such as 8193^2 = 3^2 2731^2 NVIDIA's runtime chose work-groups of 3 or 9 work-items: mg_to_single took
  4.5 ms for 67 million values, 0.2 ms of traffic (docs/performance-history.md, 2026-12-07, fourth session).
*/
PetscErrorCode SbpmgCLLaunch1DGuarded(SbpmgCL cl, cl_kernel k, size_t n)
{
  size_t wg = (size_t)cl->tune.vec_wg, kmax = 0;

  PetscFunctionBegin;
  if (clGetKernelWorkGroupInfo(k, cl->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kmax), &kmax, NULL) != CL_SUCCESS) kmax = 0;
  if (cl->max_work_group_size) wg = PetscMin(wg, cl->max_work_group_size);
  while (kmax && wg > kmax && wg > 1) wg /= 2;
  PetscCall(SbpmgCLLaunch(cl, k, 1, &n, &wg));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLLaunch2D(SbpmgCL cl, cl_kernel k, const size_t global[2], const size_t local[2])
{
  PetscFunctionBegin;
  PetscCall(SbpmgCLLaunch(cl, k, 2, global, local));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLLaunch3D(SbpmgCL cl, cl_kernel k, const size_t global[3], const size_t local[3])
{
  PetscFunctionBegin;
  PetscCall(SbpmgCLLaunch(cl, k, 3, global, local));
  PetscFunctionReturn(0);
}
