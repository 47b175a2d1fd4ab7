/* Device memory and transfers: buffers (counted against -cl_mem_cap), pinned staging memory, reads, writes, fills,
   copies, and the read of a reduction's result through the context's pinned result area. */
#include <sbpmg/private/climpl.h>

PetscErrorCode SbpmgCLCreateBuffer(SbpmgCL cl, cl_mem_flags flags, size_t bytes, cl_mem *mem)
{
  cl_int err;
  size_t nbytes = bytes ? bytes : 1; /* OpenCL refuses empty buffers; an empty vector still gets a handle */

  PetscFunctionBegin;
  PetscCall(SbpmgCLFaultCheck(SBPMG_FAULT_ALLOC, "clCreateBuffer"));
  PetscCheck(!cl->mem_cap || cl->mem_used + nbytes <= cl->mem_cap, PETSC_COMM_SELF, PETSC_ERR_MEM,
             "Device allocation of %zu bytes refused: -cl_mem_cap %.3f MiB with %zu bytes already in use on %s", nbytes, cl->mem_cap / 1048576.0, cl->mem_used,
             cl->device_name);
  PetscCheck(nbytes <= cl->max_alloc, PETSC_COMM_SELF, PETSC_ERR_MEM, "Device allocation of %zu bytes exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE = %llu bytes on %s",
             nbytes, (unsigned long long)cl->max_alloc, cl->device_name);
  *mem = clCreateBuffer(cl->context, flags, nbytes, NULL, &err);
  PetscCheck(err == CL_SUCCESS, PETSC_COMM_SELF, SbpmgCLErrorCode(err),
             "OpenCL error %d (%s): allocating a device buffer of %zu bytes on %s (%zu bytes in use)", (int)err, SbpmgCLErrorName(err), nbytes, cl->device_name,
             cl->mem_used);
  cl->mem_used += nbytes;
  SbpmgCLTotals.live_buffers++;
  SbpmgCLTotals.device_bytes += nbytes;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLReleaseBuffer(SbpmgCL cl, cl_mem *mem)
{
  size_t bytes;

  PetscFunctionBegin;
  if (!*mem) PetscFunctionReturn(0);
  PetscCallCL(clGetMemObjectInfo(*mem, CL_MEM_SIZE, sizeof(bytes), &bytes, NULL));
  PetscCallCL(clReleaseMemObject(*mem));
  *mem = NULL;
  cl->mem_used -= bytes;
  SbpmgCLTotals.live_buffers--;
  SbpmgCLTotals.device_bytes -= bytes;
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLCreateStaging - Host memory for the transfers of a ghost exchange, allocated by the OpenCL runtime
   (CL_MEM_ALLOC_HOST_PTR) and mapped until SbpmgCLDestroyStaging(): NVIDIA's OpenCL pins it, so reads and writes of other
   buffers into it go at the copy engine's rate, where pageable memory goes through the driver's bounce buffer. Counted with the
   context's buffers.

   Not collective

   Level: developer

.seealso: `SbpmgCLDestroyStaging()`, `SbpmgCLReadBuffer()`, `SbpmgCLWriteBuffer()`
@*/
PetscErrorCode SbpmgCLCreateStaging(SbpmgCL cl, size_t bytes, cl_mem *mem, void **ptr)
{
  cl_int err;

  PetscFunctionBegin;
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, mem));
  *ptr = clEnqueueMapBuffer(cl->queue, *mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes ? bytes : 1, 0, NULL, NULL, &err);
  if (err != CL_SUCCESS) {
    PetscCall(SbpmgCLReleaseBuffer(cl, mem));
    *ptr = NULL;
    PetscCallCL(err);
  }
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLDestroyStaging - Unmap and release the memory of SbpmgCLCreateStaging(); nothing when mem is NULL.

   Not collective

   Level: developer
@*/
PetscErrorCode SbpmgCLDestroyStaging(SbpmgCL cl, cl_mem *mem, void **ptr)
{
  PetscFunctionBegin;
  if (!*mem) PetscFunctionReturn(0);
  PetscCallCL(clEnqueueUnmapMemObject(cl->queue, *mem, *ptr, 0, NULL, NULL));
  PetscCallCL(clFinish(cl->queue));
  *ptr = NULL;
  PetscCall(SbpmgCLReleaseBuffer(cl, mem));
  PetscFunctionReturn(0);
}

/* A blocking transfer between mem[offset, offset + bytes) and host, logged and counted (context and process) */
static PetscErrorCode SbpmgCLTransfer(SbpmgCL cl, cl_mem mem, size_t offset, size_t bytes, void *host, PetscBool to_device)
{
  PetscLogDouble *count = to_device ? &cl->stats.htod_count : &cl->stats.dtoh_count, *moved = to_device ? &cl->stats.htod_bytes : &cl->stats.dtoh_bytes;
  PetscLogDouble *total       = to_device ? &SbpmgCLTotals.htod_count : &SbpmgCLTotals.dtoh_count;
  PetscLogDouble *total_bytes = to_device ? &SbpmgCLTotals.htod_bytes : &SbpmgCLTotals.dtoh_bytes;
  PetscLogEvent   ev          = to_device ? SBPMG_CLHtoD : SBPMG_CLDtoH;

  PetscFunctionBegin;
  if (!bytes) PetscFunctionReturn(0);
  PetscCall(SbpmgCLFaultCheck(SBPMG_FAULT_TRANSFER, to_device ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer"));
  PetscCall(SbpmgLogKernelBegin(ev));
  if (to_device)
    PetscCallCL(clEnqueueWriteBuffer(cl->queue, mem, CL_TRUE, offset, bytes, host, 0, NULL, NULL));
  else
    PetscCallCL(clEnqueueReadBuffer(cl->queue, mem, CL_TRUE, offset, bytes, host, 0, NULL, NULL));
  PetscCall(SbpmgLogKernelEnd(ev, NULL, 0, bytes));
  *count += 1;
  *moved += bytes;
  *total += 1;
  *total_bytes += bytes;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLWriteBuffer(SbpmgCL cl, cl_mem mem, size_t offset, size_t bytes, const void *host)
{
  PetscFunctionBegin;
  PetscCall(SbpmgCLTransfer(cl, mem, offset, bytes, (void *)host, PETSC_TRUE));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLReadBuffer(SbpmgCL cl, cl_mem mem, size_t offset, size_t bytes, void *host)
{
  PetscFunctionBegin;
  PetscCall(SbpmgCLTransfer(cl, mem, offset, bytes, host, PETSC_FALSE));
  PetscFunctionReturn(0);
}

/* A reduction ends with one small read (a few scalars). Into pageable memory, NVIDIA's OpenCL copies through its bounce
   buffer; so the result goes into a small pinned area of the context, made on first use with SbpmgCLCreateStaging()
   and released with the context, and is copied out from there (docs/design.md "Device vectors"). One device -> host
   transfer of bytes in the counters. */
#define SBPMG_CL_RESULT_BYTES 256 /* 32 doubles */

PetscErrorCode SbpmgCLReadResult(SbpmgCL cl, cl_mem mem, size_t offset, size_t bytes, void *host)
{
  PetscFunctionBegin;
  PetscCheck(bytes <= SBPMG_CL_RESULT_BYTES, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "A result of %zu bytes does not fit the pinned result area (%d bytes)",
             bytes, SBPMG_CL_RESULT_BYTES);
  if (!cl->results) PetscCall(SbpmgCLCreateStaging(cl, SBPMG_CL_RESULT_BYTES, &cl->results, &cl->results_host));
  PetscCall(SbpmgCLReadBuffer(cl, mem, offset, bytes, cl->results_host));
  PetscCall(PetscMemcpy(host, cl->results_host, bytes));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLFillBuffer(SbpmgCL cl, cl_mem mem, const void *pattern, size_t pattern_size, size_t offset, size_t bytes)
{
  PetscFunctionBegin;
  if (!bytes) PetscFunctionReturn(0);
  PetscCall(SbpmgCLFaultCheck(SBPMG_FAULT_TRANSFER, "clEnqueueFillBuffer"));
  PetscCallCL(clEnqueueFillBuffer(cl->queue, mem, pattern, pattern_size, offset, bytes, 0, NULL, NULL));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLCopyBuffer(SbpmgCL cl, cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset, size_t bytes)
{
  PetscFunctionBegin;
  if (!bytes) PetscFunctionReturn(0);
  PetscCall(SbpmgCLFaultCheck(SBPMG_FAULT_TRANSFER, "clEnqueueCopyBuffer"));
  PetscCallCL(clEnqueueCopyBuffer(cl->queue, src, dst, src_offset, dst_offset, bytes, 0, NULL, NULL));
  PetscFunctionReturn(0);
}
