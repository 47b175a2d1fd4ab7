/* OpenCL program build and cache: one program per (source, build options, device), kernels cached inside it. */
#include <sbpmg/private/climpl.h>
#include <ctype.h>

/* The source of kernels/<name>.cl: from -cl_kernel_dir when given, else the copy embedded at build time. */
static PetscErrorCode SbpmgCLReadOneSource(SbpmgCL cl, const char name[], char **source)
{
  PetscFunctionBegin;
  if (cl->kernel_dir[0]) {
    char   path[PETSC_MAX_PATH_LEN];
    FILE  *fp;
    long   len;
    size_t got;

    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s.cl", cl->kernel_dir, name));
    fp = fopen(path, "rb");
    PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Kernel file %s not found or not readable (-cl_kernel_dir %s)", path, cl->kernel_dir);
    if (fseek(fp, 0, SEEK_END) || (len = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET)) {
      (void)fclose(fp);
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Cannot determine the size of kernel file %s", path);
    }
    PetscCall(PetscMalloc1(len + 1, source));
    got = fread(*source, 1, (size_t)len, fp);
    (void)fclose(fp);
    if (got != (size_t)len) {
      PetscCall(PetscFree(*source));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Read %zu of %ld bytes of kernel file %s", got, len, path);
    }
    (*source)[len] = 0;
  } else {
    const char *src = NULL;
    PetscBool   match;

    for (PetscInt i = 0; i < SbpmgNumEmbeddedKernels && !src; i++) {
      PetscCall(PetscStrcmp(SbpmgEmbeddedKernels[i].name, name, &match));
      if (match) src = SbpmgEmbeddedKernels[i].source;
    }
    PetscCheck(src, PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "No kernel source kernels/%s.cl is embedded in this library", name);
    PetscCall(PetscStrallocpy(src, source));
  }
  PetscFunctionReturn(0);
}

/* The source of a program: kernels/<name>.cl, or for "a+b" the files a.cl and b.cl one after the other (a kernel file that
   uses the functions of another). */
PetscErrorCode SbpmgCLReadSource(SbpmgCL cl, const char name[], char **source)
{
  char  *names, *save = NULL, *part;
  size_t total = 1;
  char **parts;
  int    nparts = 0;

  PetscFunctionBegin;
  PetscCall(PetscStrallocpy(name, &names));
  PetscCall(PetscMalloc1(16, &parts));
  for (part = strtok_r(names, "+", &save); part; part = strtok_r(NULL, "+", &save)) {
    size_t         len;
    PetscErrorCode ierr;
    if (nparts == 16) break;
    ierr = SbpmgCLReadOneSource(cl, part, &parts[nparts]);
    if (ierr) {
      for (int k = 0; k < nparts; k++) PetscCall(PetscFree(parts[k]));
      PetscCall(PetscFree(parts));
      PetscCall(PetscFree(names));
      PetscCall(ierr);
    }
    PetscCall(PetscStrlen(parts[nparts], &len));
    total += len + 1;
    nparts++;
  }
  PetscCall(PetscMalloc1(total, source));
  total = 0; /* PETSc 3.18's PetscStrlcat() limits by n - strlen(t), not by the room left: append by hand */
  for (int k = 0; k < nparts; k++) {
    size_t len;
    PetscCall(PetscStrlen(parts[k], &len));
    PetscCall(PetscMemcpy(*source + total, parts[k], len));
    total += len;
    (*source)[total++] = '\n';
    PetscCall(PetscFree(parts[k]));
  }
  (*source)[total] = 0;
  PetscCall(PetscFree(parts));
  PetscCall(PetscFree(names));
  PetscFunctionReturn(0);
}

/* Whether a program holds only the kernel a layer takes from it (tuning cl_kernel_programs; docs/design.md "Kernel builds"); a
   program asked for without a kernel (SbpmgCLGetProgram()) holds every kernel of its files. */
static PetscBool SbpmgCLPerKernel(SbpmgCL cl, const char kernel[])
{
  return cl->tune.cl_kernel_programs && kernel ? PETSC_TRUE : PETSC_FALSE;
}

/* Whether name is an OpenCL C identifier (it becomes part of a macro name, SBPMG_ONLY_<name>) */
static PetscBool SbpmgCLIsIdentifier(const char name[])
{
  size_t n = strlen(name);

  if (n == 0 || n > 200 || !(isalpha((unsigned char)name[0]) || name[0] == '_')) return PETSC_FALSE;
  for (size_t i = 1; i < n; i++)
    if (!(isalnum((unsigned char)name[i]) || name[i] == '_')) return PETSC_FALSE;
  return PETSC_TRUE;
}

/*
  SbpmgCLComposeOptions - The full build options of a program: the precision, the layer's -D specialisations (user), which kernels of
  its files it holds (-DSBPMG_KERNELS_ALL=1: all; -DSBPMG_KERNELS_ALL=0 -DSBPMG_ONLY_<kernel>=1: only `kernel`, the guards of
  kernels/<file>.cl), then -cl_build_options. Both program caches (in memory and on disk) key on this string, so a program of one kernel
  is an entry of its own.
*/
PetscErrorCode SbpmgCLComposeOptions(SbpmgCL cl, const char user[], const char kernel[], char **options)
{
  char   buf[4096], which[256];
  size_t len;

  PetscFunctionBegin;
  if (SbpmgCLPerKernel(cl, kernel)) {
    PetscCheck(SbpmgCLIsIdentifier(kernel), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
               "OpenCL kernel name \"%s\" is not an identifier of at most 200 characters (a program per kernel, tuning cl_kernel_programs, names it in "
               "-DSBPMG_ONLY_<kernel>)",
               kernel);
    PetscCall(PetscSNPrintf(which, sizeof(which), "-DSBPMG_KERNELS_ALL=0 -DSBPMG_ONLY_%s=1", kernel));
  } else
    PetscCall(PetscStrncpy(which, "-DSBPMG_KERNELS_ALL=1", sizeof(which)));
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "-cl-std=CL1.2 -DSBPMG_REAL=%s%s %s %s %s", SBPMG_REAL_NAME, cl->fp64 ? " -DSBPMG_HAVE_FP64=1" : "",
                          user ? user : "", which, cl->build_options));
  PetscCall(PetscStrlen(buf, &len));
  PetscCheck(len + 1 < sizeof(buf), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "OpenCL build options longer than %zu characters", sizeof(buf) - 1);
  PetscCall(PetscStrallocpy(buf, options));
  PetscFunctionReturn(0);
}

/* The program of this name, source and full options in the context's cache (NULL when there is none). */
PetscErrorCode SbpmgCLFindProgram(SbpmgCL cl, const char name[], const char source[], const char options[], SbpmgCLProgramEntry *found)
{
  PetscFunctionBegin;
  *found = NULL;
  for (SbpmgCLProgramEntry p = cl->programs; p; p = p->next) {
    PetscBool same_name, same_source, same_options;

    PetscCall(PetscStrcmp(p->name, name, &same_name));
    if (!same_name) continue;
    PetscCall(PetscStrcmp(p->options, options, &same_options));
    if (!same_options) continue;
    PetscCall(PetscStrcmp(p->source, source, &same_source));
    if (same_source) {
      *found = p;
      break;
    }
  }
  PetscFunctionReturn(0);
}

/*
  SbpmgCLProgramEntryCreate - An entry of the program cache, not yet built: its name, the kernel taken from it (kept where the program
  holds it alone: SbpmgCLPerKernel()), the layer's options as given; it takes source and options (the full ones), on failure too.
*/
PetscErrorCode SbpmgCLProgramEntryCreate(SbpmgCL cl, const char name[], const char kernel[], const char user[], char *source, char *options,
                                         SbpmgCLProgramEntry *entry)
{
  SbpmgCLProgramEntry p;
  PetscErrorCode      ierr;

  PetscFunctionBegin;
  *entry = NULL;
  ierr   = PetscNew(&p);
  if (ierr) {
    PetscCall(PetscFree(source));
    PetscCall(PetscFree(options));
    PetscCall(ierr);
  }
  p->source  = source;
  p->options = options;
  ierr       = PetscStrallocpy(name, &p->name);
  if (!ierr && SbpmgCLPerKernel(cl, kernel)) ierr = PetscStrallocpy(kernel, &p->kernel);
  if (!ierr) ierr = PetscStrallocpy(user ? user : "", &p->user_options);
  if (ierr) {
    PetscCall(SbpmgCLProgramEntryDestroy(&p));
    PetscCall(ierr);
  }
  *entry = p;
  PetscFunctionReturn(0);
}

/* Free an entry that is in no context's cache: its kernels, its program (if built), its strings. */
PetscErrorCode SbpmgCLProgramEntryDestroy(SbpmgCLProgramEntry *entry)
{
  SbpmgCLProgramEntry p = *entry;

  PetscFunctionBegin;
  *entry = NULL;
  if (!p) PetscFunctionReturn(0);
  while (p->kernels) {
    SbpmgCLKernelEntry k = p->kernels;
    p->kernels           = k->next;
    PetscCallCL(clReleaseKernel(k->kernel));
    SbpmgCLTotals.live_kernels--;
    PetscCall(PetscFree(k->name));
    PetscCall(PetscFree(k));
  }
  if (p->program) PetscCallCL(clReleaseProgram(p->program));
  PetscCall(PetscFree(p->name));
  PetscCall(PetscFree(p->kernel));
  PetscCall(PetscFree(p->user_options));
  PetscCall(PetscFree(p->source));
  PetscCall(PetscFree(p->options));
  PetscCall(PetscFree(p));
  PetscFunctionReturn(0);
}

/* A built entry into the context's cache (it owns the program from then on, counted live until the context is destroyed). */
void SbpmgCLProgramEntryInsert(SbpmgCL cl, SbpmgCLProgramEntry p)
{
  SbpmgCLTotals.live_programs++;
  p->next      = cl->programs;
  cl->programs = p;
}

/* How a program is named in messages: "kernels/<name>.cl", with " (kernel <k>)" for a program of one kernel. */
void SbpmgCLProgramLabel(SbpmgCLProgramEntry p, char label[], size_t len)
{
  (void)PetscSNPrintf(label, len, "kernels/%s.cl%s%s%s", p->name, p->kernel ? " (kernel " : "", p->kernel ? p->kernel : "", p->kernel ? ")" : "");
}

/* The compiler's log of a program (an empty string when there is none); free with PetscFree(). */
static PetscErrorCode SbpmgCLGetBuildLog(SbpmgCL cl, cl_program program, char **log)
{
  size_t loglen = 0;

  PetscFunctionBegin;
  (void)clGetProgramBuildInfo(program, cl->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &loglen);
  PetscCall(PetscCalloc1(loglen + 1, log));
  if (loglen > 0) (void)clGetProgramBuildInfo(program, cl->device, CL_PROGRAM_BUILD_LOG, loglen, *log, NULL);
  PetscFunctionReturn(0);
}

/* The error of entry p's failed build (clBuildProgram's status err), carrying the compiler's log; p's program is released. */
PetscErrorCode SbpmgCLBuildError(SbpmgCL cl, SbpmgCLProgramEntry p, cl_int err)
{
  char log[2048] = "", label[512], *full;

  PetscFunctionBegin;
  PetscCall(SbpmgCLGetBuildLog(cl, p->program, &full));
  PetscCall(PetscStrncpy(log, full, sizeof(log)));
  PetscCall(PetscFree(full));
  (void)clReleaseProgram(p->program);
  p->program = NULL;
  SbpmgCLProgramLabel(p, label, sizeof(label));
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "Building OpenCL program %s failed (%s) for %s with options \"%s\"; build log:\n%s", label, SbpmgCLErrorName(err),
          cl->device_name, p->options, log);
}

/* After a successful build from source: with -cl_build_log the compiler's log printed; the binary stored in the disk cache. */
PetscErrorCode SbpmgCLBuildDone(SbpmgCL cl, SbpmgCLProgramEntry p)
{
  PetscFunctionBegin;
  if (cl->build_log) {
    char *full, label[512];

    SbpmgCLProgramLabel(p, label, sizeof(label));
    PetscCall(SbpmgCLGetBuildLog(cl, p->program, &full));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "sbpmg OpenCL build log of %s (options \"%s\"):%s%s\n", label, p->options, full[0] && full[1] ? "\n" : " empty",
                          full[0] && full[1] ? full : ""));
    PetscCall(PetscFree(full));
  }
  PetscCall(SbpmgCLCacheStore(cl, p->source, p->options, p->program));
  PetscFunctionReturn(0);
}

/* Build entry p, from the disk cache's binary when it has one (not with -cl_build_log: the log is the compiler's), else from source,
   then store the binary there; on failure the program is released and the error carries the compiler's log. */
static PetscErrorCode SbpmgCLBuild(SbpmgCL cl, SbpmgCLProgramEntry p)
{
  cl_int         err;
  char           label[512];
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  SbpmgCLProgramLabel(p, label, sizeof(label));
  PetscCall(SbpmgCLFaultCheck(SBPMG_FAULT_BUILD, p->name));
  PetscCall(PetscLogEventBegin(SBPMG_CLBuild, 0, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  if (!cl->build_log) PetscCall(SbpmgCLCacheLoad(cl, p->source, p->options, &p->program));
  if (p->program) {
    cl->stats.programs_from_disk++;
    SbpmgCLTotals.programs_from_disk++;
    PetscCall(PetscTime(&t1));
    PetscCall(PetscInfo(NULL, "sbpmg program %s from the disk cache in %.3f s (options \"%s\")\n", label, t1 - t0, p->options));
    PetscCall(PetscLogEventEnd(SBPMG_CLBuild, 0, 0, 0, 0));
    PetscFunctionReturn(0);
  }
  p->program = clCreateProgramWithSource(cl->context, 1, (const char **)&p->source, NULL, &err);
  PetscCallCL(err);
  err = clBuildProgram(p->program, 1, &cl->device, p->options, NULL, NULL);
  if (err != CL_SUCCESS) {
    PetscErrorCode ierr = SbpmgCLBuildError(cl, p, err);
    PetscCall(PetscLogEventEnd(SBPMG_CLBuild, 0, 0, 0, 0));
    PetscCall(ierr);
  }
  PetscCall(PetscTime(&t1));
  PetscCall(PetscInfo(NULL, "sbpmg program %s built from source in %.3f s (options \"%s\")\n", label, t1 - t0, p->options));
  PetscCall(SbpmgCLBuildDone(cl, p));
  PetscCall(PetscLogEventEnd(SBPMG_CLBuild, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* The program `name` built from `source` with the layer's -D options (precision and which kernels added here) for `kernel` (NULL:
   a program of every kernel of its files); from the cache when built before. Takes ownership of `source`. */
static PetscErrorCode SbpmgCLGetProgramFromOwnedSource(SbpmgCL cl, const char name[], char *source, const char user_options[], const char kernel[],
                                                       SbpmgCLProgramEntry *entry)
{
  char               *options;
  SbpmgCLProgramEntry p;
  PetscErrorCode      ierr;

  PetscFunctionBegin;
  ierr = SbpmgCLComposeOptions(cl, user_options, kernel, &options);
  if (ierr) {
    PetscCall(PetscFree(source));
    PetscCall(ierr);
  }
  PetscCall(SbpmgCLFindProgram(cl, name, source, options, &p));
  if (p) {
    cl->stats.program_cache_hits++;
    PetscCall(PetscFree(source));
    PetscCall(PetscFree(options));
    *entry = p;
    PetscFunctionReturn(0);
  }
  PetscCall(SbpmgCLProgramEntryCreate(cl, name, kernel, user_options, source, options, &p));
  ierr = SbpmgCLBuild(cl, p);
  if (ierr) {
    PetscCall(SbpmgCLProgramEntryDestroy(&p));
    PetscCall(ierr);
  }
  cl->stats.programs_built++;
  SbpmgCLTotals.programs_built++;
  SbpmgCLProgramEntryInsert(cl, p);
  *entry = p;
  PetscFunctionReturn(0);
}

/* The program kernels/<name>.cl (embedded, or from -cl_kernel_dir) built with the given -D options, holding every kernel of its files. */
PetscErrorCode SbpmgCLGetProgram(SbpmgCL cl, const char name[], const char user_options[], SbpmgCLProgramEntry *entry)
{
  char *source;

  PetscFunctionBegin;
  PetscCall(SbpmgCLReadSource(cl, name, &source));
  PetscCall(SbpmgCLGetProgramFromOwnedSource(cl, name, source, user_options, NULL, entry));
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpmgCLGetKernelFromProgram(SbpmgCLProgramEntry p, const char kernel[], cl_kernel *k)
{
  SbpmgCLKernelEntry e;
  cl_int             err;

  PetscFunctionBegin;
  for (e = p->kernels; e; e = e->next) {
    PetscBool match;
    PetscCall(PetscStrcmp(e->name, kernel, &match));
    if (match) {
      *k = e->kernel;
      PetscFunctionReturn(0);
    }
  }
  *k = clCreateKernel(p->program, kernel, &err);
  PetscCheck(err == CL_SUCCESS, PETSC_COMM_SELF, PETSC_ERR_LIB, "OpenCL error %d (%s) creating kernel %s from kernels/%s.cl", (int)err, SbpmgCLErrorName(err),
             kernel, p->name);
  SbpmgCLTotals.live_kernels++;
  PetscCall(PetscNew(&e));
  PetscCall(PetscStrallocpy(kernel, &e->name));
  e->kernel  = *k;
  e->next    = p->kernels;
  p->kernels = e;
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLGetKernelFromSource - Like SbpmgCLGetKernel(), for a program given as source text (tests, user kernels); cached by
   (name, source, options) like the embedded ones.

   Level: developer
@*/
PetscErrorCode SbpmgCLGetKernelFromSource(SbpmgCL cl, const char name[], const char source[], const char options[], const char kernel[], cl_kernel *k)
{
  char               *copy;
  SbpmgCLProgramEntry p;

  PetscFunctionBegin;
  PetscCall(PetscStrallocpy(source, &copy));
  PetscCall(SbpmgCLGetProgramFromOwnedSource(cl, name, copy, options, kernel, &p));
  PetscCall(SbpmgCLGetKernelFromProgram(p, kernel, k));
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLGetKernel - A kernel of the program kernels/<program>.cl built with the given -D options; built and cached on first use.
   Where the device's tuning says so (cl_kernel_programs), the program holds this kernel alone (docs/design.md "Kernel builds").

   Input Parameters:
+  cl      - the device context
.  program - the kernel file name, without .cl (files joined by '+': one after the other)
.  options - extra build options (-D specialisations), may be NULL
-  kernel  - the __kernel function name

   Output Parameter:
.  k - the kernel; owned by the cache, do not release it

   Level: developer
@*/
PetscErrorCode SbpmgCLGetKernel(SbpmgCL cl, const char program[], const char options[], const char kernel[], cl_kernel *k)
{
  char               *source;
  SbpmgCLProgramEntry p;

  PetscFunctionBegin;
  PetscCall(SbpmgCLReadSource(cl, program, &source));
  PetscCall(SbpmgCLGetProgramFromOwnedSource(cl, program, source, options, kernel, &p));
  PetscCall(SbpmgCLGetKernelFromProgram(p, kernel, k));
  PetscFunctionReturn(0);
}

/* The cache of a context released: every kernel and program (when the context is destroyed). */
PetscErrorCode SbpmgCLReleasePrograms(SbpmgCL cl)
{
  PetscFunctionBegin;
  while (cl->programs) {
    SbpmgCLProgramEntry p = cl->programs;
    cl->programs          = p->next;
    PetscCall(SbpmgCLProgramEntryDestroy(&p));
    SbpmgCLTotals.live_programs--;
  }
  PetscFunctionReturn(0);
}
