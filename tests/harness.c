#include "harness.h"

void SbpmgTestCheckError(PetscErrorCode got, PetscErrorCode want, const char *substr, const char *call, const char *file, int line)
{
  const char *text    = NULL;
  char       *message = NULL;

  if (!got) fail_msg("%s:%d: %s succeeded, expected PETSc error %d", file, line, call, (int)want);
  PetscErrorMessage(got, &text, &message);
  if (got != want)
    fail_msg("%s:%d: %s failed with PETSc error %d (%s: %s), expected %d", file, line, call, (int)got, text ? text : "?", message ? message : "", (int)want);
  if (substr && (!message || !strstr(message, substr)))
    fail_msg("%s:%d: the error message of %s is \"%s\", which does not contain \"%s\"", file, line, call, message ? message : "", substr);
  print_message("  expected error %d: %s\n", (int)got, message ? message : "");
}

PetscBool SbpmgTestUnderMemcheck(void)
{
  const char *v = getenv("SBPMG_TEST_MEMCHECK");
  return (v && v[0] == '1') ? PETSC_TRUE : PETSC_FALSE;
}

void SbpmgTestSetOption(const char *name, const char *value)
{
  if (value)
    PCALL(PetscOptionsSetValue(NULL, name, value));
  else
    PCALL(PetscOptionsClearValue(NULL, name));
}

void SbpmgTestSetOptions(const SbpmgTestOption *list)
{
  for (; list->name; list++) SbpmgTestSetOption(list->name, list->value);
}

void SbpmgTestClearOptions(const SbpmgTestOption *list)
{
  for (; list->name; list++) SbpmgTestSetOption(list->name, NULL);
}

void SbpmgTestRandom(PetscInt n, PetscScalar *x, PetscReal lo, PetscReal hi, unsigned long seed)
{
  unsigned long long s = 0x9E3779B97F4A7C15ULL ^ seed;

  for (PetscInt i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    x[i] = lo + (hi - lo) * (PetscReal)((s >> 11) * (1.0 / 9007199254740992.0));
  }
}

void SbpmgTestMaxDiff(PetscInt n, const PetscScalar *a, const PetscScalar *b, PetscReal *diff, PetscReal *scale)
{
  *diff  = 0;
  *scale = 0;
  for (PetscInt i = 0; i < n; i++) {
    if (PetscIsNanScalar(a[i]) || PetscIsNanScalar(b[i]))
      *diff = NAN;
    else if (!PetscIsNanReal(*diff))
      *diff = PetscMax(*diff, PetscAbsScalar(a[i] - b[i]));
    *scale = PetscMax(*scale, PetscAbsScalar(b[i]));
  }
}

void SbpmgTestReductions(Vec x, Vec y, Vec m[3], PetscScalar r[SBPMG_TEST_NREDUCTIONS])
{
  PetscReal nr[2];
  PetscInt  loc;

  PCALL(PetscObjectStateIncrease((PetscObject)x));
  PCALL(PetscObjectStateIncrease((PetscObject)y));
  PCALL(VecDot(x, y, &r[0]));
  PCALL(VecNorm(x, NORM_2, &nr[0]));
  r[1] = nr[0];
  PCALL(VecNorm(x, NORM_1, &nr[0]));
  r[2] = nr[0];
  PCALL(VecNorm(y, NORM_1_AND_2, nr));
  r[3] = nr[0];
  r[4] = nr[1];
  PCALL(VecSum(y, &r[5]));
  PCALL(VecMDot(x, 3, m, &r[6]));
  PCALL(VecNorm(y, NORM_INFINITY, &nr[0]));
  r[9] = nr[0];
  PCALL(VecMax(x, &loc, &nr[0]));
  r[10] = nr[0];
  r[11] = loc;
  PCALL(VecDotNorm2(x, y, &r[12], &r[13]));
}

Vec SbpmgTestNaturalOnZero(DM da, Vec x)
{
  Vec        nat, seq;
  VecScatter sc;

  PCALL(DMDACreateNaturalVector(da, &nat));
  PCALL(DMDAGlobalToNaturalBegin(da, x, INSERT_VALUES, nat));
  PCALL(DMDAGlobalToNaturalEnd(da, x, INSERT_VALUES, nat));
  PCALL(VecScatterCreateToZero(nat, &sc, &seq));
  PCALL(VecScatterBegin(sc, nat, seq, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterEnd(sc, nat, seq, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterDestroy(&sc));
  PCALL(VecDestroy(&nat));
  return seq;
}

PetscReal SbpmgTestCompareOnZero(MPI_Comm comm, Vec par_nat0, Vec seq)
{
  PetscMPIInt rank;
  PetscReal   err = 0;

  PCALL(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    const PetscScalar *a, *b;
    PetscInt           n;
    PetscReal          d, s;
    PCALL(VecGetLocalSize(seq, &n));
    PCALL(VecGetArrayRead(par_nat0, &a));
    PCALL(VecGetArrayRead(seq, &b));
    SbpmgTestMaxDiff(n, a, b, &d, &s);
    PCALL(VecRestoreArrayRead(par_nat0, &a));
    PCALL(VecRestoreArrayRead(seq, &b));
    err = d / s;
  }
  PCALL(MPI_Bcast(&err, 1, MPIU_REAL, 0, comm));
  return err;
}

/* Run the group inside PETSc; afterwards every OpenCL object sbpmg created must have been released. */
int SbpmgTestMain(int argc, char **argv, const char *help, const struct CMUnitTest *tests, size_t n, const char *file)
{
  int          failed;
  SbpmgCLStats s;

  char filter[256] = "", skip[256] = "";

  if (PetscInitialize(&argc, &argv, NULL, help)) return 1;
  if (SbpmgInitializePackage()) return 1; /* as every program linked with libsbpmg does */
  /* -test_filter PATTERN runs only the matching tests, -test_skip PATTERN skips them (cmocka wildcards) */
  if (PetscOptionsGetString(NULL, NULL, "-test_filter", filter, sizeof(filter), NULL)) return 1;
  if (PetscOptionsGetString(NULL, NULL, "-test_skip", skip, sizeof(skip), NULL)) return 1;
  if (filter[0]) cmocka_set_test_filter(filter);
  if (skip[0]) cmocka_set_skip_filter(skip);
  failed = _cmocka_run_group_tests(file, tests, n, NULL, NULL);
  if (PetscFinalize()) return 1;
  if (SbpmgCLGetGlobalStats(&s)) return 1;
  if (s.live_buffers || s.live_kernels || s.live_programs || s.live_queues || s.live_contexts || s.live_host_pages) {
    fprintf(stderr, "LEAK: live OpenCL objects after PetscFinalize: %d buffers, %d kernels, %d programs, %d queues, %d contexts, %d host mappings\n",
            (int)s.live_buffers, (int)s.live_kernels, (int)s.live_programs, (int)s.live_queues, (int)s.live_contexts, (int)s.live_host_pages);
    failed++;
  }
  return failed;
}

/* u at time T = N dt from a Gaussian at rest (u^{-1} = u^0 + dt^2/2 v^2 lap u^0), fp64 host reference, no PML, no source. */
static void SbpmgTestGaussianRun(AcousticBackend backend, PetscReal cfl, PetscInt nsteps, PetscInt n, PetscReal *u)
{
  const PetscInt  N = n * n * n, nn[3] = {n, n, n};
  const PetscReal h[3] = {20, 20, 20}, v = 2000, sigma = 2.5 * h[0], c = 0.5 * (n - 1) * h[0];
  Acoustic        ac;
  PetscReal      *u0, *um, *lu, dt;

  PCALL(PetscMalloc3(N, &u0, N, &um, N, &lu));
  for (PetscInt k = 0; k < n; k++)
    for (PetscInt j = 0; j < n; j++)
      for (PetscInt i = 0; i < n; i++)
        u0[i + n * (j + n * k)] = PetscExpReal(-(PetscSqr(i * h[0] - c) + PetscSqr(j * h[1] - c) + PetscSqr(k * h[2] - c)) / (2 * sigma * sigma));
  PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
  PCALL(AcousticSetSizes(ac, n, n, n));
  PCALL(AcousticSetSpacing(ac, h[0], h[1], h[2]));
  PCALL(AcousticSetDamping(ac, 0));
  PCALL(AcousticSetVelocity(ac, v));
  PCALL(AcousticSetMaxVelocity(ac, 0));
  PCALL(AcousticSetCFL(ac, cfl));
  PCALL(AcousticSetSourceWavelet(ac, 25, 0));
  PCALL(AcousticSetBackend(ac, backend));
  PCALL(AcousticSetUp(ac));
  PCALL(AcousticGetTimeStep(ac, &dt));
  PCALL(AcousticLaplacianHost(nn, h, u0, lu));
  for (PetscInt p = 0; p < N; p++) um[p] = u0[p] + 0.5 * dt * dt * v * v * lu[p];
  PCALL(AcousticSetFields(ac, u0, um));
  PCALL(AcousticStep(ac, nsteps));
  PCALL(AcousticGetField(ac, ACOUSTIC_FIELD_U, u));
  PCALL(AcousticDestroy(&ac));
  PCALL(PetscFree3(u0, um, lu));
}

/* Second order in time of the leapfrog on `backend`: the Gaussian run with dt, dt/2, dt/4 against the fp64 host run at dt/32,
   the observed orders in (1.9, 2.1). */
void SbpmgTestLeapfrogOrder(AcousticBackend backend)
{
  const PetscInt n = 20, N = n * n * n, steps = 12;
  PetscReal     *ref, *u, e[3], d, s;

  PCALL(PetscMalloc2(N, &ref, N, &u));
  SbpmgTestGaussianRun(ACOUSTIC_BACKEND_HOST, 0.8 / 32, 32 * steps, n, ref);
  for (int l = 0; l < 3; l++) {
    SbpmgTestGaussianRun(backend, 0.8 / (1 << l), steps << l, n, u);
    SbpmgTestMaxDiff(N, u, ref, &d, &s);
    e[l] = d / s;
  }
  for (int l = 0; l < 2; l++) {
    const PetscReal order = PetscLog2Real(e[l] / e[l + 1]);
    print_message("  dt/%d -> dt/%d: error %.3e -> %.3e, order %.3f\n", 1 << l, 2 << l, (double)e[l], (double)e[l + 1], (double)order);
    assert_true(order > 1.9 && order < 2.1);
  }
  PCALL(PetscFree2(ref, u));
}

void SbpmgTestMDots(Vec yd, Vec yh, Vec vd[11], Vec vh[11], PetscInt n, SbpmgTestCheckFn check, PetscScalar md[11], PetscScalar mh[11])
{
  PCALL(VecMDot(yd, 3, vd, md));
  PCALL(VecMDot(yh, 3, vh, mh));
  for (int j = 0; j < 3; j++) check("mdot 3", n, md[j], mh[j], 3 * n);
  PCALL(VecMDot(yd, 11, vd, md));
  PCALL(VecMDot(yh, 11, vh, mh));
  for (int j = 0; j < 11; j++) check("mdot 11", n, md[j], mh[j], 3 * n);
  PCALL(VecMTDot(yd, 11, vd, md));
  PCALL(VecMTDot(yh, 11, vh, mh));
  for (int j = 0; j < 11; j++) check("mtdot 11", n, md[j], mh[j], 3 * n);
}

void SbpmgTestCreateContext(const char *option, const char *value, SbpmgCL *cl)
{
  PCALL(PetscOptionsSetValue(NULL, option, value));
  PCALL(SbpmgCLCreate(PETSC_COMM_SELF, cl));
  SbpmgTestSetOption(option, NULL);
}

void SbpmgTestSelftestAxpy(SbpmgCL cl, const char *options, int n, double alpha, const double *x, const double *y, cl_kernel *k, cl_mem *xd, cl_mem *yd)
{
  PCALL(SbpmgCLGetKernel(cl, "selftest", options, "selftest_axpy", k));
  PCALL(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, n * sizeof(double), xd));
  PCALL(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, n * sizeof(double), yd));
  PCALL(SbpmgCLWriteBuffer(cl, *xd, 0, n * sizeof(double), x));
  PCALL(SbpmgCLWriteBuffer(cl, *yd, 0, n * sizeof(double), y));
  PCALL(SbpmgCLSetArgs(*k, 0, 4, sizeof(int), &n, sizeof(double), &alpha, sizeof(cl_mem), xd, sizeof(cl_mem), yd));
}

void SbpmgTestDestroyVecs(Vec *v, ...)
{
  va_list ap;

  va_start(ap, v);
  for (; v; v = va_arg(ap, Vec *)) PCALL(VecDestroy(v));
  va_end(ap);
}

void SbpmgTestDestroyPair(Vec *d, Vec *h)
{
  PCALL(VecDestroy(d));
  PCALL(VecDestroy(h));
}

PetscOffloadMask SbpmgTestOffloadMask(Vec v)
{
  PetscOffloadMask m = PETSC_OFFLOAD_UNALLOCATED;
  PCALL(VecOpenCLGetOffloadMask(v, &m));
  return m;
}

void SbpmgTestFillRandom(Vec x, unsigned long seed)
{
  PetscInt     n;
  PetscScalar *a;

  PCALL(VecGetLocalSize(x, &n));
  PCALL(VecGetArray(x, &a));
  SbpmgTestRandom(n, a, -1, 1, seed);
  PCALL(VecRestoreArray(x, &a));
}

PetscReal SbpmgTestRelDiffNorm(Vec a, Vec b, NormType type)
{
  Vec       d;
  PetscReal nd, nb;

  PCALL(VecDuplicate(b, &d));
  PCALL(VecWAXPY(d, -1, b, a));
  PCALL(VecNorm(d, type, &nd));
  PCALL(VecNorm(b, type, &nb));
  PCALL(VecDestroy(&d));
  return nd / nb;
}

DM SbpTestDM(SbpProblem p)
{
  DM da = NULL;

  PCALL(SbpProblemGetLayoutDM(p, &da));
  return da;
}

PetscReal SbpmgTestRelDiff(Vec a, Vec b)
{
  return SbpmgTestRelDiffNorm(a, b, NORM_INFINITY);
}
