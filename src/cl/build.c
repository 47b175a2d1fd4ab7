/* Builds ahead of use (docs/design.md "Kernel builds"): a layer that knows which kernels its set-up will launch hands the list to
   SbpmgCLPrefetchKernels(), which compiles the programs that are neither in the context's cache nor in the disk cache, several at
   once in host threads. The threads make OpenCL calls only (clBuildProgram); everything else (PETSc's allocations, the fault
   injection, the disk cache, the counters, the messages and the errors) stays on the calling thread, in request order. */
#include <sbpmg/private/climpl.h>
#include <pthread.h>
#include <stdatomic.h>

#define SBPMG_BUILD_THREADS_MAX 64 /* the tuning row's maximum */

/* The compilations of a batch, shared with the build threads: each thread takes the next one until none is left. */
typedef struct {
  SbpmgCLProgramEntry *entries; /* the programs to compile, created from their sources */
  cl_int              *status;  /* clBuildProgram's result of each */
  int                  n;
  cl_device_id         device;
  atomic_int           next;
} SbpmgCLBuildQueue;

static void *SbpmgCLBuildWorker(void *arg)
{
  SbpmgCLBuildQueue *q = (SbpmgCLBuildQueue *)arg;

  for (int i; (i = atomic_fetch_add(&q->next, 1)) < q->n;)
    q->status[i] = clBuildProgram(q->entries[i]->program, 1, &q->device, q->entries[i]->options, NULL, NULL);
  return NULL;
}

/* Compile the queue on up to nthreads threads, the calling one among them (a thread that cannot be started leaves its share to the
   others); *used: how many ran. */
static void SbpmgCLBuildConcurrently(SbpmgCLBuildQueue *q, int nthreads, int *used)
{
  pthread_t threads[SBPMG_BUILD_THREADS_MAX];
  int       started = 0;

  atomic_init(&q->next, 0);
  for (int t = 1; t < nthreads && t < SBPMG_BUILD_THREADS_MAX; t++) {
    if (pthread_create(&threads[started], NULL, SbpmgCLBuildWorker, q)) break;
    started++;
  }
  (void)SbpmgCLBuildWorker(q);
  for (int t = 0; t < started; t++) (void)pthread_join(threads[t], NULL);
  *used = started + 1;
}

/* FNV-1a of a string (NULL hashes apart from ""), then a separator, continuing from h: the hash of a request list. */
static unsigned long long SbpmgCLHashString(unsigned long long h, const char *s)
{
  if (!s) s = "\001";
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 0x100000001b3ULL;
  }
  h ^= 0xff;
  return h * 0x100000001b3ULL;
}

/* The entries of the requests whose programs are not in the context's cache, each program once, in request order. */
static PetscErrorCode SbpmgCLPrefetchCollect(SbpmgCL cl, PetscInt n, const SbpmgCLKernelRequest req[], SbpmgCLProgramEntry jobs[], PetscInt *nj)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    char               *source, *options;
    SbpmgCLProgramEntry p;
    PetscBool           dup = PETSC_FALSE;
    PetscErrorCode      ierr;

    PetscCheck(req[i].program && req[i].kernel, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Kernel request %" PetscInt_FMT " names no program or no kernel", i);
    if (req[i].source)
      PetscCall(PetscStrallocpy(req[i].source, &source));
    else
      PetscCall(SbpmgCLReadSource(cl, req[i].program, &source));
    ierr = SbpmgCLComposeOptions(cl, req[i].options, req[i].kernel, &options);
    if (ierr) {
      PetscCall(PetscFree(source));
      PetscCall(ierr);
    }
    PetscCall(SbpmgCLFindProgram(cl, req[i].program, source, options, &p));
    for (PetscInt j = 0; j < *nj && !p && !dup; j++) {
      PetscBool same_name, same_options, same_source;
      PetscCall(PetscStrcmp(jobs[j]->name, req[i].program, &same_name));
      PetscCall(PetscStrcmp(jobs[j]->options, options, &same_options));
      PetscCall(PetscStrcmp(jobs[j]->source, source, &same_source));
      dup = same_name && same_options && same_source ? PETSC_TRUE : PETSC_FALSE;
    }
    if (p || dup) {
      PetscCall(PetscFree(source));
      PetscCall(PetscFree(options));
      continue;
    }
    PetscCall(SbpmgCLProgramEntryCreate(cl, req[i].program, req[i].kernel, req[i].options, source, options, &jobs[*nj]));
    (*nj)++;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpmgCLCreateFromSource(SbpmgCL cl, SbpmgCLProgramEntry p)
{
  cl_int err;

  PetscFunctionBegin;
  p->program = clCreateProgramWithSource(cl->context, 1, (const char **)&p->source, NULL, &err);
  PetscCallCL(err);
  PetscFunctionReturn(0);
}

/* Build the entries: in request order the fault check and the disk cache's binary, else the program from source (todo, its index);
   then those compiled concurrently; the first failure in request order is the error (the failed program released, the caller
   releases the rest). *nsrc: the compiled ones, *used: the threads that compiled them, *wall: their time. */
static PetscErrorCode SbpmgCLPrefetchBuild(SbpmgCL cl, PetscInt nj, SbpmgCLProgramEntry jobs[], PetscBool disk[], SbpmgCLProgramEntry todo[], cl_int status[],
                                           PetscInt *nsrc, int *used, PetscLogDouble *wall)
{
  PetscLogDouble t0, t1;
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  *nsrc = 0;
  *used = 0;
  *wall = 0;
  for (PetscInt j = 0; j < nj && !ierr; j++) {
    ierr = SbpmgCLFaultCheck(SBPMG_FAULT_BUILD, jobs[j]->name);
    if (!ierr && !cl->build_log) ierr = SbpmgCLCacheLoad(cl, jobs[j]->source, jobs[j]->options, &jobs[j]->program);
    if (ierr || jobs[j]->program) {
      disk[j] = jobs[j]->program ? PETSC_TRUE : PETSC_FALSE;
      continue;
    }
    ierr = SbpmgCLCreateFromSource(cl, jobs[j]);
    if (!ierr) todo[(*nsrc)++] = jobs[j];
  }
  PetscCall(ierr);
  if (*nsrc) {
    SbpmgCLBuildQueue q;

    q.entries = todo;
    q.status  = status;
    q.n       = (int)*nsrc;
    q.device  = cl->device;
    PetscCall(PetscTime(&t0));
    SbpmgCLBuildConcurrently(&q, (int)PetscMin(cl->tune.cl_build_threads, *nsrc), used);
    PetscCall(PetscTime(&t1));
    *wall = t1 - t0;
  }
  for (PetscInt k = 0; k < *nsrc; k++)
    if (status[k] != CL_SUCCESS) PetscCall(SbpmgCLBuildError(cl, todo[k], status[k]));
  PetscFunctionReturn(0);
}

/* The batch built: its entries into the context's cache, counted, announced (-info), the compiled ones stored on disk. */
static PetscErrorCode SbpmgCLPrefetchFinish(SbpmgCL cl, PetscInt n, PetscInt nj, SbpmgCLProgramEntry jobs[], const PetscBool disk[], PetscInt nsrc, int used,
                                            PetscLogDouble wall)
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < nj; j++) { /* the context owns them from here, whatever follows */
    jobs[j]->ahead = PETSC_TRUE;
    SbpmgCLProgramEntryInsert(cl, jobs[j]);
  }
  cl->stats.programs_built += nj;
  SbpmgCLTotals.programs_built += nj;
  cl->stats.programs_from_disk += nj - nsrc;
  SbpmgCLTotals.programs_from_disk += nj - nsrc;
  if (nsrc && used > 1) cl->programs_concurrent += nsrc;
  cl->build_batches++;
  PetscCall(PetscInfo(NULL,
                      "sbpmg kernel builds ahead of use: %" PetscInt_FMT " kernels requested, %" PetscInt_FMT " programs new, %" PetscInt_FMT
                      " of them from the disk cache, %" PetscInt_FMT " compiled on %d threads in %.3f s\n",
                      n, nj, nj - nsrc, nsrc, used, wall));
  for (PetscInt j = 0; j < nj; j++) {
    char label[512];

    SbpmgCLProgramLabel(jobs[j], label, sizeof(label));
    if (disk[j])
      PetscCall(PetscInfo(NULL, "sbpmg program %s from the disk cache, ahead of use (options \"%s\")\n", label, jobs[j]->options));
    else {
      PetscCall(PetscInfo(NULL, "sbpmg program %s built from source ahead of use, one of %" PetscInt_FMT " in %.3f s on %d threads (options \"%s\")\n", label,
                          nsrc, wall, used, jobs[j]->options));
      PetscCall(SbpmgCLBuildDone(cl, jobs[j]));
    }
  }
  PetscFunctionReturn(0);
}

PetscBool SbpmgCLPrefetchWanted(SbpmgCL cl)
{
  return cl && cl->tune.cl_build_threads > 1 ? PETSC_TRUE : PETSC_FALSE;
}

/*
  SbpmgCLPrefetchKernels - Build now, concurrently, the programs of kernels a layer will launch (docs/design.md "Kernel builds"): those
  neither in the context's cache nor in the disk cache are compiled on up to cl_build_threads host threads (tuning); with
  cl_build_threads = 1 nothing happens (each program is built on first use, in the same order). A list already satisfied in this
  context returns at once. On any failure (a build, an injected fault, an allocation) no program of the batch is kept and the first
  failure in request order is raised, with the compiler's log for a build.

  Not collective
*/
PetscErrorCode SbpmgCLPrefetchKernels(SbpmgCL cl, PetscInt n, const SbpmgCLKernelRequest req[])
{
  SbpmgCLProgramEntry *jobs = NULL, *todo = NULL;
  cl_int              *status = NULL;
  PetscBool           *disk   = NULL;
  PetscInt             nj = 0, nsrc = 0;
  int                  used = 0;
  PetscLogDouble       wall = 0;
  unsigned long long   h    = 0xcbf29ce484222325ULL;
  PetscErrorCode       ierr;

  PetscFunctionBegin;
  if (!SbpmgCLPrefetchWanted(cl) || n <= 0) PetscFunctionReturn(0);
  for (PetscInt i = 0; i < n; i++) {
    h = SbpmgCLHashString(h, req[i].program);
    h = SbpmgCLHashString(h, req[i].source);
    h = SbpmgCLHashString(h, req[i].options);
    h = SbpmgCLHashString(h, req[i].kernel);
  }
  for (PetscInt k = 0; k < PetscMin(cl->nprefetched, 64); k++)
    if (cl->prefetched[k] == h) PetscFunctionReturn(0);
  PetscCall(PetscCalloc4(n, &jobs, n, &todo, n, &status, n, &disk));
  ierr = SbpmgCLPrefetchCollect(cl, n, req, jobs, &nj);
  if (!ierr && nj) {
    PetscCall(PetscLogEventBegin(SBPMG_CLBuild, 0, 0, 0, 0));
    ierr = SbpmgCLPrefetchBuild(cl, nj, jobs, disk, todo, status, &nsrc, &used, &wall);
    PetscCall(PetscLogEventEnd(SBPMG_CLBuild, 0, 0, 0, 0));
  }
  if (ierr) { /* nothing of the batch is kept */
    for (PetscInt j = 0; j < nj; j++) PetscCall(SbpmgCLProgramEntryDestroy(&jobs[j]));
    PetscCall(PetscFree4(jobs, todo, status, disk));
    PetscCall(ierr);
  }
  if (nj) ierr = SbpmgCLPrefetchFinish(cl, n, nj, jobs, disk, nsrc, used, wall);
  PetscCall(PetscFree4(jobs, todo, status, disk));
  PetscCall(ierr);
  cl->prefetched[cl->nprefetched++ % 64] = h;
  PetscFunctionReturn(0);
}
