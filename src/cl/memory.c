/* Device memory and transfers: buffers (counted against -cl_mem_cap), pinned staging memory, reads, writes, fills,
   copies, and the read of a reduction's result through the context's pinned result area. */
#include <sbpmg/private/climpl.h>
#include <unistd.h>
#include <sys/mman.h>
#if defined(__has_include)
#  if __has_include(<valgrind/memcheck.h>)
#    include <valgrind/memcheck.h>
#    define SBPMG_HAVE_MEMCHECK 1
#  endif
#endif

/* Buffers in host memory the library maps itself (CPU devices, tuning cl_huge_pages; docs/design.md "Buffers on CPU devices"):
   a fresh buffer's every 4 KiB page costs a page fault at its first touch, which dominated the set-up on a virtual machine
   (docs/performance.md); with transparent huge pages one fault maps 2 MiB. The mapping ends in the buffer's destructor
   callback, when the OpenCL runtime has let go of it. */
#define SBPMG_HUGE_PAGE ((size_t)2 << 20)

typedef struct {
  void  *base;
  size_t len;
} SbpmgHostPages;

static void CL_CALLBACK SbpmgHostPagesUnmap(cl_mem mem, void *ctx)
{
  SbpmgHostPages *h = (SbpmgHostPages *)ctx;

  (void)mem;
  (void)munmap(h->base, h->len);
  free(h);
  __atomic_fetch_sub(&SbpmgCLTotals.live_host_pages, 1, __ATOMIC_RELAXED);
}

/* Host memory for a buffer of nbytes, aligned to a huge page, its whole huge pages advised as such; *h NULL where this does not
   apply (a GPU, a small buffer, host memory the caller provides) or the mapping fails (the runtime's own memory then). */
static void SbpmgHostPagesMap(SbpmgCL cl, cl_mem_flags flags, size_t nbytes, SbpmgHostPages **h, void **ptr)
{
  char *aligned;

  *h   = NULL;
  *ptr = NULL;
  if (!cl->tune.cl_huge_pages || !(cl->type & CL_DEVICE_TYPE_CPU) || nbytes < SBPMG_HUGE_PAGE) return;
  if (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)) return;
  *h = (SbpmgHostPages *)malloc(sizeof(**h));
  if (!*h) return;
  (*h)->len  = nbytes + SBPMG_HUGE_PAGE;
  (*h)->base = mmap(NULL, (*h)->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if ((*h)->base == MAP_FAILED) {
    free(*h);
    *h = NULL;
    return;
  }
  aligned = (char *)(((uintptr_t)(*h)->base + SBPMG_HUGE_PAGE - 1) & ~(uintptr_t)(SBPMG_HUGE_PAGE - 1));
#if defined(MADV_HUGEPAGE)
  (void)madvise(aligned, nbytes & ~(SBPMG_HUGE_PAGE - 1), MADV_HUGEPAGE); /* advice: without transparent huge pages, 4 KiB pages */
#endif
#if defined(SBPMG_HAVE_MEMCHECK)
  VALGRIND_MAKE_MEM_UNDEFINED(aligned, nbytes); /* as the runtime's own memory: valgrind still finds reads of what nothing wrote */
#endif
  *ptr = aligned;
}

PetscErrorCode SbpmgCLCreateBuffer(SbpmgCL cl, cl_mem_flags flags, size_t bytes, cl_mem *mem)
{
  cl_int          err;
  size_t          nbytes = bytes ? bytes : 1; /* OpenCL refuses empty buffers; an empty vector still gets a handle */
  SbpmgHostPages *pages;
  void           *host;

  PetscFunctionBegin;
  PetscCall(SbpmgCLFaultCheck(SBPMG_FAULT_ALLOC, "clCreateBuffer"));
  PetscCheck(!cl->mem_cap || cl->mem_used + nbytes <= cl->mem_cap, PETSC_COMM_SELF, PETSC_ERR_MEM,
             "Device allocation of %zu bytes refused: -cl_mem_cap %.3f MiB with %zu bytes already in use on %s", nbytes, cl->mem_cap / 1048576.0, cl->mem_used,
             cl->device_name);
  PetscCheck(nbytes <= cl->max_alloc, PETSC_COMM_SELF, PETSC_ERR_MEM, "Device allocation of %zu bytes exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE = %llu bytes on %s",
             nbytes, (unsigned long long)cl->max_alloc, cl->device_name);
  SbpmgHostPagesMap(cl, flags, nbytes, &pages, &host);
  *mem = clCreateBuffer(cl->context, host ? flags | CL_MEM_USE_HOST_PTR : flags, nbytes, host, &err);
  if (pages && err == CL_SUCCESS) {
    err = clSetMemObjectDestructorCallback(*mem, SbpmgHostPagesUnmap, pages);
    if (err == CL_SUCCESS)
      __atomic_fetch_add(&SbpmgCLTotals.live_host_pages, 1, __ATOMIC_RELAXED);
    else
      (void)clReleaseMemObject(*mem);
  }
  if (pages && err != CL_SUCCESS) {
    (void)munmap(pages->base, pages->len);
    free(pages);
  }
  PetscCheck(err == CL_SUCCESS, PETSC_COMM_SELF, SbpmgCLErrorCode(err),
             "OpenCL error %d (%s): allocating a device buffer of %zu bytes on %s (%zu bytes in use)", (int)err, SbpmgCLErrorName(err), nbytes, cl->device_name,
             cl->mem_used);
  cl->mem_used += nbytes;
  cl->mem_peak = PetscMax(cl->mem_peak, cl->mem_used);
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

void SbpmgCLFormatBytes(double bytes, char str[], size_t len)
{
  const char *unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int         u      = 0;

  while (bytes >= 1024 && u < 5) {
    bytes /= 1024;
    u++;
  }
  if (u)
    (void)PetscSNPrintf(str, len, "%.1f %s", bytes, unit[u]);
  else
    (void)PetscSNPrintf(str, len, "%.0f %s", bytes, unit[u]);
}

PetscErrorCode SbpmgCLHostAvailable(size_t *bytes)
{
  FILE *f;
  char  line[256];
  long  pages, psize;

  PetscFunctionBegin;
  *bytes = 0;
  f      = fopen("/proc/meminfo", "r");
  if (f) {
    unsigned long long kb;
    while (fgets(line, sizeof(line), f))
      if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
        *bytes = (size_t)kb * 1024;
        break;
      }
    (void)fclose(f);
  }
  if (*bytes) PetscFunctionReturn(0);
  pages  = sysconf(_SC_AVPHYS_PAGES);
  psize  = sysconf(_SC_PAGESIZE);
  *bytes = pages > 0 && psize > 0 ? (size_t)pages * (size_t)psize : (size_t)-1; /* unknown: no host check */
  PetscFunctionReturn(0);
}

/* This rank's verdict: 0 fits, else the message of what does not */
static PetscErrorCode SbpmgCLPlanCheck(SbpmgCL cl, size_t device, size_t host, size_t node_host, PetscMPIInt node_ranks, const char what[], char msg[],
                                       size_t len, int *fail)
{
  char need[32], have[32], used[32];

  PetscFunctionBegin;
  *fail  = 0;
  msg[0] = 0;
  if (cl) {
    const size_t avail = (size_t)cl->global_mem > cl->mem_used ? (size_t)cl->global_mem - cl->mem_used : 0;

    SbpmgCLFormatBytes((double)device, need, sizeof(need));
    SbpmgCLFormatBytes((double)cl->mem_used, used, sizeof(used));
    if (device > avail) {
      SbpmgCLFormatBytes((double)cl->global_mem, have, sizeof(have));
      PetscCall(PetscSNPrintf(msg, len, "%s: it needs %s of device memory; %s has %s (%s in use)", what, need, cl->device_name, have, used));
      *fail = 1;
      PetscFunctionReturn(0);
    }
    if (cl->mem_cap && cl->mem_used + device > cl->mem_cap) {
      SbpmgCLFormatBytes((double)cl->mem_cap, have, sizeof(have));
      PetscCall(PetscSNPrintf(msg, len, "%s: it needs %s of device memory; -cl_mem_cap allows %s (%s in use) on %s", what, need, have, used, cl->device_name));
      *fail = 1;
      PetscFunctionReturn(0);
    }
  }
  {
    size_t avail;

    PetscCall(SbpmgCLHostAvailable(&avail));
    if (node_host > avail) {
      char mine[32], dev[32];

      SbpmgCLFormatBytes((double)node_host, need, sizeof(need));
      SbpmgCLFormatBytes((double)avail, have, sizeof(have));
      SbpmgCLFormatBytes((double)host, mine, sizeof(mine));
      SbpmgCLFormatBytes((double)device, dev, sizeof(dev));
      if (cl && cl->type & CL_DEVICE_TYPE_CPU)
        PetscCall(PetscSNPrintf(msg, len,
                                "%s: it needs %s of host memory (%s on the host and %s on the CPU device %s, whose memory is the host's, on this rank%s); the "
                                "host has %s available (MemAvailable)",
                                what, need, mine, dev, cl->device_name, node_ranks > 1 ? ", summed over the ranks of the node" : "", have));
      else
        PetscCall(PetscSNPrintf(msg, len, "%s: it needs %s of host memory (%s on this rank%s); the host has %s available (MemAvailable)", what, need, mine,
                                node_ranks > 1 ? ", summed over the ranks of the node" : "", have));
      *fail = 1;
    }
  }
  PetscFunctionReturn(0);
}

PetscErrorCode SbpmgCLPlanMemory(MPI_Comm comm, SbpmgCL cl, size_t device, size_t host, const char what[])
{
  MPI_Comm    node;
  PetscMPIInt rank, size, node_ranks, first, mine;
  size_t      here = host + (cl && (cl->type & CL_DEVICE_TYPE_CPU) ? device : 0), node_host;
  char        msg[1024];
  int         fail;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  node_host  = here;
  node_ranks = 1;
  if (size > 1) { /* the ranks of a node share its memory */
    unsigned long long h = here, sum;
    PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
    PetscCallMPI(MPI_Allreduce(&h, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, node));
    PetscCallMPI(MPI_Comm_size(node, &node_ranks));
    PetscCallMPI(MPI_Comm_free(&node));
    node_host = (size_t)sum;
  }
  PetscCall(SbpmgCLPlanCheck(cl, device, host, node_host, node_ranks, what, msg, sizeof(msg), &fail));
  mine  = fail ? rank : size;
  first = mine;
  if (size > 1) PetscCallMPI(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm));
  if (first == size) {
    char dev[32], hst[32];
    SbpmgCLFormatBytes((double)device, dev, sizeof(dev));
    SbpmgCLFormatBytes((double)host, hst, sizeof(hst));
    PetscCall(PetscInfo(NULL, "Memory plan of %s: %s of device memory and %s of host memory on this rank; it fits\n", what, dev, hst));
    PetscFunctionReturn(0);
  }
  PetscCheck(rank != first, PETSC_COMM_SELF, PETSC_ERR_MEM, "Not enough memory for %s", msg);
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MEM, "Not enough memory for %s on rank %d (its error says how much it needs)", what, (int)first);
}
