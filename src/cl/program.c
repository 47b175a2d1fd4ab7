/* OpenCL program build and cache: one program per (source, build options, device), kernels cached inside it. */
#include <sbpmg/private/climpl.h>

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
   uses the functions of another); each file under a #line naming it, so that the compiler's messages give the file and its
   own line numbers. */
PetscErrorCode SbpmgCLReadSource(SbpmgCL cl, const char name[], char **source)
{
  char  *names, *save = NULL, *part;
  size_t total = 1;
  char **parts;
  char   heads[16][128];
  int    nparts = 0;

  PetscFunctionBegin;
  PetscCall(PetscStrallocpy(name, &names));
  PetscCall(PetscMalloc1(16, &parts));
  for (part = strtok_r(names, "+", &save); part; part = strtok_r(NULL, "+", &save)) {
    size_t         len, hlen;
    PetscErrorCode ierr;
    if (nparts == 16) break;
    ierr = SbpmgCLReadOneSource(cl, part, &parts[nparts]);
    if (ierr) {
      for (int k = 0; k < nparts; k++) PetscCall(PetscFree(parts[k]));
      PetscCall(PetscFree(parts));
      PetscCall(PetscFree(names));
      PetscCall(ierr);
    }
    PetscCall(PetscSNPrintf(heads[nparts], sizeof(heads[0]), "#line 1 \"kernels/%s.cl\"\n", part));
    PetscCall(PetscStrlen(parts[nparts], &len));
    PetscCall(PetscStrlen(heads[nparts], &hlen));
    total += hlen + len + 1;
    nparts++;
  }
  PetscCall(PetscMalloc1(total, source));
  total = 0; /* PETSc 3.18's PetscStrlcat() limits by n - strlen(t), not by the room left: append by hand */
  for (int k = 0; k < nparts; k++) {
    size_t len;
    PetscCall(PetscStrlen(heads[k], &len));
    PetscCall(PetscMemcpy(*source + total, heads[k], len));
    total += len;
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

/* How messages name a program: kernels/<name>.cl, or a name that describes itself (one with a space: user sources with kernel
   files, SbpProblemGetPointKernel()) as it is. */
static PetscErrorCode SbpmgCLProgramLabel(const char name[], char label[], size_t len)
{
  PetscFunctionBegin;
  if (strchr(name, ' '))
    PetscCall(PetscStrncpy(label, name, len));
  else
    PetscCall(PetscSNPrintf(label, len, "kernels/%s.cl", name));
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpmgCLComposeOptions(SbpmgCL cl, const char user[], char **options)
{
  char   buf[4096];
  size_t len;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "-cl-std=CL1.2 -DSBPMG_REAL=%s%s %s %s", SBPMG_REAL_NAME, cl->fp64 ? " -DSBPMG_HAVE_FP64=1" : "", user ? user : "",
                          cl->build_options));
  PetscCall(PetscStrlen(buf, &len));
  PetscCheck(len + 1 < sizeof(buf), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "OpenCL build options longer than %zu characters", sizeof(buf) - 1);
  PetscCall(PetscStrallocpy(buf, options));
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpmgCLFindProgram(SbpmgCL cl, const char name[], const char source[], const char options[], SbpmgCLProgramEntry *found)
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

/* Build, from the disk cache's binary when it has one (not with -cl_build_log: the log is the compiler's), else from source, then
   store the binary there; on failure release the program and raise an error carrying the compiler's log. With -cl_build_log,
   print the log. */
static PetscErrorCode SbpmgCLBuild(SbpmgCL cl, const char name[], const char source[], const char options[], cl_program *program)
{
  cl_int         err;
  char          *full, label[600];
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(SbpmgCLFaultCheck(SBPMG_FAULT_BUILD, name));
  PetscCall(SbpmgCLProgramLabel(name, label, sizeof(label)));
  PetscCall(PetscLogEventBegin(SBPMG_CLBuild, 0, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  if (!cl->build_log) PetscCall(SbpmgCLCacheLoad(cl, source, options, program));
  if (*program) {
    cl->stats.programs_from_disk++;
    SbpmgCLTotals.programs_from_disk++;
    PetscCall(PetscTime(&t1));
    PetscCall(PetscInfo(NULL, "sbpmg program %s from the disk cache in %.3f s (options \"%s\")\n", label, t1 - t0, options));
    PetscCall(PetscLogEventEnd(SBPMG_CLBuild, 0, 0, 0, 0));
    PetscFunctionReturn(0);
  }
  *program = clCreateProgramWithSource(cl->context, 1, &source, NULL, &err);
  PetscCallCL(err);
  err = clBuildProgram(*program, 1, &cl->device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[2048] = "", where[512];

    PetscCall(SbpmgCLGetBuildLog(cl, *program, &full));
    PetscCall(PetscStrncpy(log, full, sizeof(log)));
    PetscCall(SbpmgCLMapBuildLog(source, full, where, sizeof(where)));
    PetscCall(PetscFree(full));
    (void)clReleaseProgram(*program);
    *program = NULL;
    PetscCall(PetscLogEventEnd(SBPMG_CLBuild, 0, 0, 0, 0));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "Building OpenCL program %s failed (%s) for %s with options \"%s\"; build log:\n%s%s", label, SbpmgCLErrorName(err),
            cl->device_name, options, log, where);
  }
  if (cl->build_log) {
    PetscCall(SbpmgCLGetBuildLog(cl, *program, &full));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "sbpmg OpenCL build log of %s (options \"%s\"):%s%s\n", label, options, full[0] && full[1] ? "\n" : " empty",
                          full[0] && full[1] ? full : ""));
    PetscCall(PetscFree(full));
  }
  PetscCall(PetscTime(&t1));
  PetscCall(PetscInfo(NULL, "sbpmg program %s built from source in %.3f s (options \"%s\")\n", label, t1 - t0, options));
  PetscCall(SbpmgCLCacheStore(cl, source, options, *program));
  PetscCall(PetscLogEventEnd(SBPMG_CLBuild, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* The program named `name` built from `source` with the given -D options (precision added here); from the cache when built before.
   Takes ownership of `source`. */
static PetscErrorCode SbpmgCLGetProgramFromOwnedSource(SbpmgCL cl, const char name[], char *source, const char user_options[], SbpmgCLProgramEntry *entry)
{
  char               *options;
  SbpmgCLProgramEntry p;

  PetscFunctionBegin;
  PetscCall(SbpmgCLComposeOptions(cl, user_options, &options));
  PetscCall(SbpmgCLFindProgram(cl, name, source, options, &p));
  if (p) {
    cl->stats.program_cache_hits++;
    PetscCall(PetscFree(source));
    PetscCall(PetscFree(options));
    *entry = p;
    PetscFunctionReturn(0);
  }
  PetscCall(PetscNew(&p));
  {
    PetscErrorCode ierr = SbpmgCLBuild(cl, name, source, options, &p->program);
    if (ierr) {
      PetscCall(PetscFree(source));
      PetscCall(PetscFree(options));
      PetscCall(PetscFree(p));
      PetscCall(ierr);
    }
  }
  cl->stats.programs_built++;
  SbpmgCLTotals.programs_built++;
  SbpmgCLTotals.live_programs++;
  PetscCall(PetscStrallocpy(name, &p->name));
  p->source    = source;
  p->options   = options;
  p->next      = cl->programs;
  cl->programs = p;
  *entry       = p;
  PetscFunctionReturn(0);
}

/* The program kernels/<name>.cl (embedded, or from -cl_kernel_dir) built with the given -D options. */
PetscErrorCode SbpmgCLGetProgram(SbpmgCL cl, const char name[], const char user_options[], SbpmgCLProgramEntry *entry)
{
  char *source;

  PetscFunctionBegin;
  PetscCall(SbpmgCLReadSource(cl, name, &source));
  PetscCall(SbpmgCLGetProgramFromOwnedSource(cl, name, source, user_options, entry));
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
  if (err != CL_SUCCESS) {
    char label[600];

    PetscCall(SbpmgCLProgramLabel(p->name, label, sizeof(label)));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "OpenCL error %d (%s) creating kernel %s from %s", (int)err, SbpmgCLErrorName(err), kernel, label);
  }
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
  PetscCall(SbpmgCLGetProgramFromOwnedSource(cl, name, copy, options, &p));
  PetscCall(SbpmgCLGetKernelFromProgram(p, kernel, k));
  PetscFunctionReturn(0);
}

/*@C
   SbpmgCLGetKernel - A kernel of the program kernels/<program>.cl built with the given -D options; built and cached on first use.

   Input Parameters:
+  cl      - the device context
.  program - the kernel file name, without .cl
.  options - extra build options (-D specialisations), may be NULL
-  kernel  - the __kernel function name

   Output Parameter:
.  k - the kernel; owned by the cache, do not release it

   Level: developer
@*/
PetscErrorCode SbpmgCLGetKernel(SbpmgCL cl, const char program[], const char options[], const char kernel[], cl_kernel *k)
{
  SbpmgCLProgramEntry p;

  PetscFunctionBegin;
  PetscCall(SbpmgCLGetProgram(cl, program, options, &p));
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
    while (p->kernels) {
      SbpmgCLKernelEntry k = p->kernels;
      p->kernels           = k->next;
      PetscCallCL(clReleaseKernel(k->kernel));
      SbpmgCLTotals.live_kernels--;
      PetscCall(PetscFree(k->name));
      PetscCall(PetscFree(k));
    }
    PetscCallCL(clReleaseProgram(p->program));
    SbpmgCLTotals.live_programs--;
    PetscCall(PetscFree(p->name));
    PetscCall(PetscFree(p->source));
    PetscCall(PetscFree(p->options));
    PetscCall(PetscFree(p));
  }
  PetscFunctionReturn(0);
}
