/* src/cl/program.c, src/cl/build.c: a program per kernel (tuning cl_kernel_programs) and the builds ahead of use in host threads
   (cl_build_threads; docs/design.md "Kernel builds"). In per-kernel mode with concurrent builds the layers compute bit for bit what
   they compute in the default mode, and every kernel they launch was built ahead of use; every __kernel of every embedded file builds
   alone with the options its layer gives it, and such a program holds that kernel only; a file built without the host's macros is an
   error; a batch with a failing build (or an injected fault) raises that error, the first in request order, and keeps nothing; the disk
   cache holds the per-kernel programs, which a new context loads. */
#include "test_sbp_common.h"
#include <ctype.h>
#include <dirent.h>
#include <unistd.h>

#define PER_KERNEL "cl_kernel_programs=1,cl_build_threads=4"
/* the GPU column's choices of the V-cycle (fp32 V-cycle and coefficients, two sweeps per pass, grid-stride vector kernels) with the
   interior/rim split on every level, on PoCL */
#define GPU_LIKE "mg_single=1,mg_coef_fp32=1,mg_inline_diag=1,mg_sweeps_per_pass=2,vec_chunks=0,sbp_split_min=256"

/* Make the default context with -sbpmg_tune tune (NULL: none), dropping the one before. */
static SbpmgCL default_context_with(const char *tune)
{
  SbpmgCL cl;

  PCALL(SbpmgCLResetDefault());
  if (tune) SbpmgTestSetOption("-sbpmg_tune", tune);
  PCALL(SbpmgCLGetDefault(&cl));
  if (tune) SbpmgTestSetOption("-sbpmg_tune", NULL);
  return cl;
}

/* A context of PETSC_COMM_SELF in per-kernel mode with concurrent builds, on the disk cache dir (NULL: none, so that every program is
   compiled). */
static void per_kernel_context(const char *dir, SbpmgCL *cl)
{
  SbpmgTestSetOption("-sbpmg_tune", PER_KERNEL);
  SbpmgTestCreateContext("-cl_cache_dir", dir ? dir : "none", cl);
  SbpmgTestSetOption("-sbpmg_tune", NULL);
}

/* What the layers computed: the right-hand side g, y = M~ g, CG + sbpmg's u and its iterations. */
typedef struct {
  PetscInt     n, its;
  PetscScalar *g, *y, *u;
} Results;

static PetscScalar *copy_of(Vec v, PetscInt n)
{
  const PetscScalar *a;
  PetscScalar       *c;

  PCALL(PetscMalloc1(n, &c));
  PCALL(VecGetArrayRead(v, &a));
  PCALL(PetscArraycpy(c, a, n));
  PCALL(VecRestoreArrayRead(v, &a));
  return c;
}

/* The right-hand side, an operator apply and CG + sbpmg on the default context: 128 x 96 intervals, Dirichlet and Neumann faces, 3
   levels. */
static void run_layers(Results *r)
{
  SbpTestSystem s;
  Vec           y;

  SbpTestSystemCreate(SbpTestProblem(PETSC_COMM_SELF, 128, 96, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL), PETSC_FALSE, &s);
  PCALL(MatCreateVecs(s.A, &y, NULL));
  PCALL(MatMult(s.A, s.g, y));
  s.ksp  = SbpTestMGCG(s.A, 1e-8, 100);
  r->its = SbpTestSystemSolve(&s);
  PCALL(VecGetLocalSize(y, &r->n));
  r->g = copy_of(s.g, r->n);
  r->y = copy_of(y, r->n);
  r->u = copy_of(s.u, r->n);
  PCALL(VecDestroy(&y));
  SbpTestSystemDestroy(&s);
}

static void free_results(Results *r)
{
  PCALL(PetscFree(r->g));
  PCALL(PetscFree(r->y));
  PCALL(PetscFree(r->u));
}

/* An acoustic run on the default context (24^3, a PML, 5 receivers, 6 steps): the acoustic layer's programs. */
static void run_acoustic(void)
{
  const PetscReal x0[3] = {6, 6, 12}, x1[3] = {17, 17, 12};
  Acoustic        ac;
  PetscReal       m;

  PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
  PCALL(AcousticSetSizes(ac, 24, 24, 24));
  PCALL(AcousticSetDamping(ac, 4));
  PCALL(AcousticSetSpacing(ac, 1, 1, 1));
  PCALL(AcousticSetBackend(ac, ACOUSTIC_BACKEND_DEVICE));
  PCALL(AcousticSetReceiversLine(ac, x0, x1, 5));
  PCALL(AcousticSetUp(ac));
  PCALL(AcousticStep(ac, 6));
  PCALL(AcousticGetNorms(ac, &m, NULL));
  PCALL(AcousticDestroy(&ac));
}

/* Under valgrind PoCL sees another processor, so neither cache holds a binary of the plain run's and every program is compiled by
   PoCL's compiler under valgrind: the tests of the layers' hundreds of programs run in the plain run only; the batch's own machinery
   (its threads, failures, releases, the disk cache) runs in both. */
static PetscBool plain_run_only(void)
{
  if (!SbpmgTestUnderMemcheck()) return PETSC_FALSE;
  print_message("  in the plain run only (each program is compiled under valgrind)\n");
  return PETSC_TRUE;
}

/* In per-kernel mode every program of the context holds one kernel, and all but the right-hand side's (built when it is first
   computed, after the set-up) were built ahead of use, several at once. */
static void check_built_ahead(SbpmgCL cl, const char *what)
{
  PetscInt n = 0;

  for (SbpmgCLProgramEntry p = cl->programs; p; p = p->next, n++) {
    if (!p->kernel) fail_msg("%s: program kernels/%s.cl holds every kernel of its files in per-kernel mode", what, p->name);
    if (!p->ahead && strcmp(p->kernel, "rhs_build"))
      fail_msg("%s: kernel %s of kernels/%s.cl was built on first use: its layer did not request it ahead of use", what, p->kernel, p->name);
  }
  print_message("  %s: %d programs of one kernel, %d of them compiled concurrently in %d batches\n", what, (int)n, (int)cl->programs_concurrent,
                (int)cl->build_batches);
  assert_true(cl->build_batches >= 3); /* the vectors', the problem's, the hierarchy's */
}

static void test_same_results(void **state)
{
  const char *configs[2] = {NULL, GPU_LIKE};

  if (plain_run_only()) return;

  for (int c = 0; c < 2; c++) {
    char    both[512];
    Results a, b;
    SbpmgCL cl;

    (void)default_context_with(configs[c]);
    run_layers(&a);
    PCALL(PetscSNPrintf(both, sizeof(both), "%s%s%s", configs[c] ? configs[c] : "", configs[c] ? "," : "", PER_KERNEL));
    cl = default_context_with(both);
    run_layers(&b);
    check_built_ahead(cl, configs[c] ? "GPU-like V-cycle" : "CPU column");
    assert_int_equal(a.its, b.its);
    if (memcmp(a.g, b.g, a.n * sizeof(PetscScalar))) fail_msg("config %d: the right-hand side differs between the two modes", c);
    if (memcmp(a.y, b.y, a.n * sizeof(PetscScalar))) fail_msg("config %d: the operator's apply differs between the two modes", c);
    if (memcmp(a.u, b.u, a.n * sizeof(PetscScalar))) fail_msg("config %d: CG + sbpmg's solution differs between the two modes", c);
    print_message("  %s: right-hand side, apply, CG + sbpmg (%d iterations) bit for bit the same in both modes\n", configs[c] ? "GPU-like" : "CPU column",
                  (int)a.its);
    free_results(&a);
    free_results(&b);
  }
  PCALL(SbpmgCLResetDefault());
}

/* ---------------------------------------------------------------- the kernels of a source */

#define MAX_NAMES 64
typedef struct {
  int  n;
  char name[MAX_NAMES][64];
} Names;

static void names_add(Names *s, const char *name, size_t len)
{
  for (int i = 0; i < s->n; i++)
    if (strlen(s->name[i]) == len && !strncmp(s->name[i], name, len)) return;
  assert_true(s->n < MAX_NAMES && len < 64);
  memcpy(s->name[s->n], name, len);
  s->name[s->n++][len] = 0;
}

static int names_has(const Names *s, const char *name)
{
  for (int i = 0; i < s->n; i++)
    if (!strcmp(s->name[i], name)) return 1;
  return 0;
}

static int is_ident(char c)
{
  return isalnum((unsigned char)c) || c == '_';
}

/* The __kernel functions of an OpenCL source, read from the text: the function after the keyword __kernel or after a macro whose
   definition holds it (VEC_KERNEL), its name the identifier before the first '(' outside __attribute__((...)). Comments are skipped,
   and so are preprocessor lines. */
static void kernels_of(const char *src, Names *out)
{
  size_t n = strlen(src);
  char  *t = malloc(n + 1);
  Names  keys;

  assert_non_null(t);
  keys.n = 0;
  names_add(&keys, "__kernel", 8);
  /* blank the comments, collect the macros defined to hold __kernel, blank the preprocessor lines */
  for (size_t i = 0; i < n;) {
    if (src[i] == '/' && src[i + 1] == '*') {
      const char *e = strstr(src + i + 2, "*/");
      size_t      j = e ? (size_t)(e - src) + 2 : n;
      for (; i < j; i++) t[i] = src[i] == '\n' ? '\n' : ' ';
    } else if (src[i] == '/' && src[i + 1] == '/') {
      for (; i < n && src[i] != '\n'; i++) t[i] = ' ';
    } else
      t[i] = src[i], i++;
  }
  t[n] = 0;
  for (size_t i = 0; i < n;) { /* i: the start of a logical line (backslash continuations included) */
    size_t p = i, e = i;
    while (p < n && (t[p] == ' ' || t[p] == '\t')) p++;
    while (e < n && !(t[e] == '\n' && (e == 0 || t[e - 1] != '\\'))) e++;
    if (p < n && t[p] == '#') {
      size_t q = p + 1;
      while (q < e && t[q] == ' ') q++;
      if (e - q > 6 && !strncmp(t + q, "define", 6)) {
        size_t nm   = q + 6, ne;
        char   save = t[e];
        while (nm < e && t[nm] == ' ') nm++;
        for (ne = nm; ne < e && is_ident(t[ne]); ne++) {}
        t[e] = 0;
        if (strstr(t + ne, "__kernel")) names_add(&keys, t + nm, ne - nm);
        t[e] = save;
      }
      for (size_t j = i; j < e; j++)
        if (t[j] != '\n') t[j] = ' ';
    }
    i = e + 1;
  }
  for (size_t i = 0; i < n;) {
    size_t s = i;
    if (!is_ident(t[i]) || (i && is_ident(t[i - 1]))) {
      i++;
      continue;
    }
    while (i < n && is_ident(t[i])) i++;
    {
      int key = 0;
      for (int k = 0; k < keys.n; k++)
        if (strlen(keys.name[k]) == i - s && !strncmp(keys.name[k], t + s, i - s)) key = 1;
      if (!key) continue;
    }
    { /* the identifier before the first '(' after the keyword, past __attribute__((...)) */
      size_t j = i, last = 0, lastlen = 0;
      while (j < n) {
        if (is_ident(t[j])) {
          size_t a = j;
          while (j < n && is_ident(t[j])) j++;
          if (j - a == 13 && !strncmp(t + a, "__attribute__", 13)) { /* skip its balanced parentheses */
            int depth = 0;
            while (j < n && t[j] != '(') j++;
            do {
              if (t[j] == '(') depth++;
              if (t[j] == ')') depth--;
              j++;
            } while (j < n && depth);
            continue;
          }
          last    = a;
          lastlen = j - a;
          continue;
        }
        if (t[j] == '(') break;
        j++;
      }
      assert_true(lastlen > 0);
      names_add(out, t + last, lastlen);
      i = j;
    }
  }
  free(t);
}

static const char *embedded_source(const char *file)
{
  for (PetscInt i = 0; i < SbpmgNumEmbeddedKernels; i++)
    if (!strcmp(SbpmgEmbeddedKernels[i].name, file)) return SbpmgEmbeddedKernels[i].source;
  fail_msg("no embedded kernels/%s.cl", file);
  return NULL;
}

/* The kernels of a program's files ("a+b"): those of a.cl and b.cl. */
static void kernels_of_program(const char *program, Names *out)
{
  char copy[256], *save = NULL;
  out->n = 0;
  assert_true(strlen(program) < sizeof(copy));
  strcpy(copy, program);
  for (char *f = strtok_r(copy, "+", &save); f; f = strtok_r(NULL, "+", &save)) kernels_of(embedded_source(f), out);
}

/* The kernel names a built program holds (CL_PROGRAM_KERNEL_NAMES). */
static void kernels_of_binary(cl_program prog, Names *out)
{
  char   buf[8192];
  size_t len = 0;

  out->n = 0;
  assert_int_equal(clGetProgramInfo(prog, CL_PROGRAM_KERNEL_NAMES, sizeof(buf), buf, &len), CL_SUCCESS);
  for (char *s = buf, *e; *s; s = *e ? e + 1 : e) {
    e = strchr(s, ';');
    if (!e) e = s + strlen(s);
    if (e > s) names_add(out, s, (size_t)(e - s));
  }
}

/* The (program, the layer's options) pairs of a context's programs, each once; programs of the user's source (named "user+...")
   are not files of the library and are left out. */
typedef struct {
  int  n;
  char program[128][64], options[128][512];
} Pairs;

static void pairs_add(Pairs *s, const char *program, const char *options)
{
  for (int i = 0; i < s->n; i++)
    if (!strcmp(s->program[i], program) && !strcmp(s->options[i], options)) return;
  assert_true(s->n < 128 && strlen(program) < 64 && strlen(options) < 512);
  strcpy(s->program[s->n], program);
  strcpy(s->options[s->n++], options);
}

static void pairs_of_context(SbpmgCL cl, Pairs *s)
{
  for (SbpmgCLProgramEntry p = cl->programs; p; p = p->next)
    if (strncmp(p->name, "user+", 5)) pairs_add(s, p->name, p->user_options);
}

/* Every __kernel of every embedded file, built alone (a batch of them, concurrently) with each set of options its layer gave the
   file's program in the runs (the CPU column's and the GPU-like V-cycle's, the acoustic layer's; the ghost exchange's, which needs
   several ranks, and the self-test's as src/halo/halo.c and tests/harness.c give them): each program holds exactly its kernel. And the
   same program of every kernel holds exactly those the text shows (so the reading of the text misses none). */
static void test_every_kernel_alone(void **state)
{
  Pairs                 pairs   = {0};
  Names                 covered = {0};
  SbpmgCL               cl;
  SbpmgCLKernelRequest *req;
  int                   nreq = 0, checked = 0;
  Results               r;

  if (plain_run_only()) return;

  cl = default_context_with(PER_KERNEL);
  run_layers(&r);
  free_results(&r);
  run_acoustic();
  pairs_of_context(cl, &pairs);
  cl = default_context_with(GPU_LIKE "," PER_KERNEL);
  run_layers(&r);
  free_results(&r);
  pairs_of_context(cl, &pairs);
  PCALL(SbpmgCLResetDefault());
  pairs_add(&pairs, "selftest", "-DSELFTEST_T=double");
  pairs_add(&pairs, "halo", "-DHALO_REAL=double");
  pairs_add(&pairs, "halo", "-DHALO_REAL=float");

  for (int i = 0; i < pairs.n; i++) {
    char copy[64], *save = NULL;
    strcpy(copy, pairs.program[i]);
    for (char *f = strtok_r(copy, "+", &save); f; f = strtok_r(NULL, "+", &save)) names_add(&covered, f, strlen(f));
  }
  per_kernel_context(NULL, &cl);
  PCALL(PetscMalloc1(pairs.n * MAX_NAMES, &req));
  {
    Names  *all;
    SbpmgCL whole;

    PCALL(PetscMalloc1(pairs.n, &all));
    for (int i = 0; i < pairs.n; i++) {
      kernels_of_program(pairs.program[i], &all[i]);
      for (int j = 0; j < all[i].n; j++) {
        req[nreq].program = pairs.program[i];
        req[nreq].source  = NULL;
        req[nreq].options = pairs.options[i];
        req[nreq].kernel  = all[i].name[j];
        nreq++;
      }
    }
    PCALL(SbpmgCLPrefetchKernels(cl, nreq, req));
    for (int q = 0; q < nreq; q++) {
      cl_kernel           k;
      SbpmgCLProgramEntry e = NULL;
      Names               held;

      PCALL(SbpmgCLGetKernel(cl, req[q].program, req[q].options, req[q].kernel, &k));
      for (SbpmgCLProgramEntry p = cl->programs; p && !e; p = p->next)
        if (p->kernel && !strcmp(p->kernel, req[q].kernel) && !strcmp(p->name, req[q].program) && !strcmp(p->user_options, req[q].options)) e = p;
      assert_non_null(e);
      if (!e->ahead) fail_msg("kernel %s of kernels/%s.cl was not built by the batch", req[q].kernel, req[q].program);
      kernels_of_binary(e->program, &held);
      if (held.n != 1 || strcmp(held.name[0], req[q].kernel))
        fail_msg("the program of kernel %s of kernels/%s.cl (options \"%s\") holds %d kernels, the first %s: a __kernel without its guard", req[q].kernel,
                 req[q].program, req[q].options, held.n, held.n ? held.name[0] : "none");
      checked++;
    }
    /* the program of every kernel of the files, in the default mode (built several at once: a request of its first kernel each) */
    SbpmgTestCreateContext("-sbpmg_tune", "cl_build_threads=4", &whole);
    nreq = 0;
    for (int i = 0; i < pairs.n; i++) {
      req[nreq].program = pairs.program[i];
      req[nreq].source  = NULL;
      req[nreq].options = pairs.options[i];
      req[nreq].kernel  = all[i].name[0];
      nreq++;
    }
    PCALL(SbpmgCLPrefetchKernels(whole, nreq, req));
    for (int i = 0; i < pairs.n; i++) { /* the whole file: the same kernels as its text */
      SbpmgCLProgramEntry e;
      Names               held;
      PCALL(SbpmgCLGetProgram(whole, pairs.program[i], pairs.options[i], &e));
      assert_true(e->ahead && !e->kernel);
      kernels_of_binary(e->program, &held);
      if (held.n != all[i].n) fail_msg("kernels/%s.cl: the program holds %d kernels, its text shows %d", pairs.program[i], held.n, all[i].n);
      for (int j = 0; j < held.n; j++)
        if (!names_has(&all[i], held.name[j])) fail_msg("kernels/%s.cl: kernel %s is not seen in its text", pairs.program[i], held.name[j]);
    }
    PCALL(SbpmgCLDestroy(&whole));
    PCALL(PetscFree(all));
  }
  for (PetscInt f = 0; f < SbpmgNumEmbeddedKernels; f++)
    if (!names_has(&covered, SbpmgEmbeddedKernels[f].name))
      fail_msg("kernels/%s.cl is built by no run of this test: add its layer's", SbpmgEmbeddedKernels[f].name);
  print_message("  %d kernels of %d embedded files, %d (program, options) pairs: each built alone (%d compiled concurrently)\n", checked,
                (int)SbpmgNumEmbeddedKernels, pairs.n, (int)cl->programs_concurrent);
  PCALL(PetscFree(req));
  PCALL(SbpmgCLDestroy(&cl));
}

/* A kernel file built without the host's SBPMG_KERNELS_ALL fails with the #error naming it (the kernels have no default). */
static void test_files_need_the_macro(void **state)
{
  SbpmgCL cl;

  if (plain_run_only()) return;

  PCALL(SbpmgCLCreate(PETSC_COMM_SELF, &cl));
  for (PetscInt f = 0; f < SbpmgNumEmbeddedKernels; f++) {
    const char *src = SbpmgEmbeddedKernels[f].source;
    cl_int      err;
    cl_program  prog = clCreateProgramWithSource(cl->context, 1, &src, NULL, &err);
    char       *log;
    size_t      len = 0;

    assert_int_equal(err, CL_SUCCESS);
    err = clBuildProgram(prog, 1, &cl->device, "-cl-std=CL1.2", NULL, NULL);
    assert_int_not_equal(err, CL_SUCCESS);
    (void)clGetProgramBuildInfo(prog, cl->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    log = calloc(len + 1, 1);
    assert_non_null(log);
    (void)clGetProgramBuildInfo(prog, cl->device, CL_PROGRAM_BUILD_LOG, len, log, NULL);
    if (!strstr(log, "SBPMG_KERNELS_ALL must be defined"))
      fail_msg("kernels/%s.cl without SBPMG_KERNELS_ALL: no #error naming it", SbpmgEmbeddedKernels[f].name);
    free(log);
    assert_int_equal(clReleaseProgram(prog), CL_SUCCESS);
  }
  PCALL(SbpmgCLDestroy(&cl));
}

/* ---------------------------------------------------------------- failures */

static void live(SbpmgCLStats *s)
{
  PCALL(SbpmgCLGetGlobalStats(s));
}

static PetscInt count_programs(SbpmgCL cl)
{
  PetscInt n = 0;
  for (SbpmgCLProgramEntry p = cl->programs; p; p = p->next) n++;
  return n;
}

/* y += alpha x through the kernel of the context, checked on the host. */
static void axpy_works(SbpmgCL cl)
{
  double    x[100], y[100], out[100], alpha = 0.5;
  cl_kernel k;
  cl_mem    xd, yd;

  for (int i = 0; i < 100; i++) {
    x[i] = i;
    y[i] = 1;
  }
  SbpmgTestSelftestAxpy(cl, "-DSELFTEST_T=double", 100, alpha, x, y, &k, &xd, &yd);
  PCALL(SbpmgCLLaunch1D(cl, k, 100, 0));
  PCALL(SbpmgCLReadBuffer(cl, yd, 0, sizeof(out), out));
  for (int i = 0; i < 100; i++) assert_true(out[i] == y[i] + alpha * x[i]);
  PCALL(SbpmgCLReleaseBuffer(cl, &xd));
  PCALL(SbpmgCLReleaseBuffer(cl, &yd));
}

static void test_failing_batch(void **state)
{
  SbpmgCL                    cl;
  SbpmgCLStats               a, b;
  PetscInt                   before;
  const char                *vec     = "-DVEC_WG=64 -DVEC_CHUNKS=1 -DVEC_REAL_BYTES=8";
  const SbpmgCLKernelRequest good[3] = {
      {"selftest", NULL, "-DSELFTEST_T=double", "selftest_axpy"},
      {"vecops", NULL, vec, "vec_set"},
      {"vecops", NULL, vec, "vec_axpy"},
  };
  /* two bad builds, the first one in request order is the error whichever finishes first */
  const SbpmgCLKernelRequest bad[4] = {
      {"selftest", NULL, "-DSELFTEST_T=double", "selftest_axpy"},
      {"sbp", NULL, "-DSBP_COEF=bad_type_one -DSBP_REAL=double -DSBP_INDEX32=1", "sbp_apply"},
      {"vecops", NULL, vec, "vec_set"},
      {"selftest", NULL, "-DSELFTEST_T=bad_type_two", "selftest_axpy"},
  };

  live(&a);
  per_kernel_context(NULL, &cl);
  before = count_programs(cl);
  EXPECT_ERROR(SbpmgCLPrefetchKernels(cl, 4, bad), PETSC_ERR_LIB, "-DSBP_COEF=bad_type_one");
  EXPECT_ERROR(SbpmgCLPrefetchKernels(cl, 4, bad), PETSC_ERR_LIB, "Building OpenCL program kernels/sbp.cl (kernel sbp_apply) failed");
  live(&b);
  assert_int_equal(b.live_programs, a.live_programs); /* the good programs of the batch released too */
  assert_int_equal(b.live_kernels, a.live_kernels);
  assert_int_equal(count_programs(cl), before);
  assert_int_equal(cl->stats.programs_built, 0);
  /* an injected build fault in a batch: the same */
  PCALL(SbpmgCLFaultInject(SBPMG_FAULT_BUILD, 2));
  EXPECT_ERROR(SbpmgCLPrefetchKernels(cl, 3, good), PETSC_ERR_LIB, "a fault injected for testing");
  PCALL(SbpmgCLFaultInject(SBPMG_FAULT_BUILD, 0));
  live(&b);
  assert_int_equal(b.live_programs, a.live_programs);
  assert_int_equal(count_programs(cl), before);
  /* later requests work: the batch, and a kernel on first use */
  PCALL(SbpmgCLPrefetchKernels(cl, 3, good));
  assert_int_equal(count_programs(cl), before + 3);
  assert_int_equal(cl->programs_concurrent, 3);
  axpy_works(cl);
  PCALL(SbpmgCLPrefetchKernels(cl, 3, good)); /* satisfied: nothing more */
  assert_int_equal(cl->stats.programs_built, 3);
  assert_int_equal(cl->build_batches, 1);
  PCALL(SbpmgCLDestroy(&cl));
  live(&b);
  assert_int_equal(b.live_programs, a.live_programs);
  assert_int_equal(b.live_kernels, a.live_kernels);
}

/* A kernel name that cannot be part of a macro name, in per-kernel mode. */
static void test_bad_kernel_name(void **state)
{
  SbpmgCL   cl;
  cl_kernel k;

  per_kernel_context(NULL, &cl);
  EXPECT_ERROR(SbpmgCLGetKernel(cl, "selftest", "-DSELFTEST_T=double", "selftest-axpy", &k), PETSC_ERR_ARG_WRONG,
               "OpenCL kernel name \"selftest-axpy\" is not an identifier");
  axpy_works(cl);
  PCALL(SbpmgCLDestroy(&cl));
}

/* ---------------------------------------------------------------- the disk cache */

static int count_entries(const char *dir)
{
  DIR           *d = opendir(dir);
  struct dirent *e;
  int            n = 0;

  if (!d) return 0;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l > 4 && !strcmp(e->d_name + l - 4, ".bin")) n++;
  }
  closedir(d);
  return n;
}

static void remove_dir(const char *dir)
{
  DIR           *d = opendir(dir);
  struct dirent *e;
  char           path[2 * PETSC_MAX_PATH_LEN];

  assert_non_null(d);
  while ((e = readdir(d)))
    if (e->d_name[0] != '.') {
      snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
      assert_int_equal(unlink(path), 0);
    }
  closedir(d);
  assert_int_equal(rmdir(dir), 0);
}

/* The -cl_view of a context, as text. */
static void view_text(SbpmgCL cl, char *text, size_t len)
{
  char        path[] = "/tmp/sbpmg-view-XXXXXX";
  int         fd     = mkstemp(path);
  PetscViewer v;
  FILE       *f;

  assert_true(fd >= 0);
  close(fd);
  PCALL(PetscViewerASCIIOpen(PETSC_COMM_SELF, path, &v));
  PCALL(SbpmgCLView(cl, v));
  PCALL(PetscViewerDestroy(&v));
  f = fopen(path, "r");
  assert_non_null(f);
  text[fread(text, 1, len - 1, f)] = 0;
  fclose(f);
  unlink(path);
}

static void test_disk_cache(void **state)
{
  const char                *vec    = "-DVEC_WG=64 -DVEC_CHUNKS=1 -DVEC_REAL_BYTES=8 -DSBPMG_CACHE_TEST=2";
  const SbpmgCLKernelRequest req[4] = {
      {"selftest", NULL, "-DSELFTEST_T=double", "selftest_axpy"},
      {"vecops", NULL, vec, "vec_set"},
      {"vecops", NULL, vec, "vec_dot_partial"},
      {"vecops", NULL, vec, "vec_sum_final"},
  };
  char         dir[PETSC_MAX_PATH_LEN], text[8192];
  SbpmgCL      cl;
  SbpmgCLStats s;

  snprintf(dir, sizeof(dir), "%s/sbpmg-builds-test-XXXXXX", P_tmpdir);
  assert_non_null(mkdtemp(dir));
  per_kernel_context(dir, &cl); /* cold: compiled, several at once, and stored */
  PCALL(SbpmgCLPrefetchKernels(cl, 4, req));
  PCALL(SbpmgCLGetStats(cl, &s));
  assert_int_equal(s.programs_built, 4);
  assert_int_equal(s.programs_from_disk, 0);
  assert_int_equal(s.programs_stored, 4);
  assert_int_equal(cl->programs_concurrent, 4);
  assert_int_equal(count_entries(dir), 4);
  view_text(cl, text, sizeof(text));
  if (!strstr(text, "programs built 4 (0 from the disk cache") ||
      !strstr(text, "4 stored there; 4 compiled concurrently, ahead of use in 1 batches; a program per kernel)"))
    fail_msg("-cl_view: %s", text);
  PCALL(SbpmgCLDestroy(&cl));
  per_kernel_context(dir, &cl); /* a new context: the four from the disk, none compiled */
  PCALL(SbpmgCLPrefetchKernels(cl, 4, req));
  PCALL(SbpmgCLGetStats(cl, &s));
  assert_int_equal(s.programs_built, 4);
  assert_int_equal(s.programs_from_disk, 4);
  assert_int_equal(s.programs_stored, 0);
  assert_int_equal(cl->programs_concurrent, 0);
  axpy_works(cl); /* the loaded kernel computes */
  PCALL(SbpmgCLGetStats(cl, &s));
  assert_int_equal(s.programs_built, 4);
  PCALL(SbpmgCLDestroy(&cl));
  SbpmgTestCreateContext("-cl_cache_dir", dir, &cl); /* the default mode's program of the file is another entry */
  axpy_works(cl);
  PCALL(SbpmgCLGetStats(cl, &s));
  assert_int_equal(s.programs_from_disk, 0);
  assert_int_equal(s.programs_stored, 1);
  assert_int_equal(count_entries(dir), 5);
  PCALL(SbpmgCLDestroy(&cl));
  remove_dir(dir);
}

int main(int argc, char **argv)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_same_results),  cmocka_unit_test(test_every_kernel_alone), cmocka_unit_test(test_files_need_the_macro),
      cmocka_unit_test(test_failing_batch), cmocka_unit_test(test_bad_kernel_name),    cmocka_unit_test(test_disk_cache),
  };
  return SbpmgTestMain(argc, argv, "sbpmg kernel builds: a program per kernel, builds ahead of use", tests, sizeof(tests) / sizeof(tests[0]), __FILE__);
}
