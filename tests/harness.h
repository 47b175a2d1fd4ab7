/* Test harness: cmocka inside a PETSc program. Tests may use the private interface. */
#ifndef SBPMG_TEST_HARNESS_H
#define SBPMG_TEST_HARNESS_H

#include <sbpmg/private/mgimpl.h>
#include <sbpmg/private/acousticimpl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <float.h>
#include <cmocka.h>

/* Fail the current test when a PETSc call returns an error. */
#define PCALL(call)                                                                    \
  do {                                                                                 \
    PetscErrorCode pcall_err_ = (call);                                                \
    if (pcall_err_) fail_msg("%s failed with PETSc error %d", #call, (int)pcall_err_); \
  } while (0)

/* Run a call that must fail with PETSc error code `code` and a message containing `substr`. */
#define EXPECT_ERROR(call, code, substr)                                           \
  do {                                                                             \
    PetscErrorCode expect_err_;                                                    \
    PCALL(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));                   \
    expect_err_ = (call);                                                          \
    PCALL(PetscPopErrorHandler());                                                 \
    SbpmgTestCheckError(expect_err_, (code), (substr), #call, __FILE__, __LINE__); \
  } while (0)

void SbpmgTestCheckError(PetscErrorCode, PetscErrorCode, const char *, const char *, const char *, int);
int  SbpmgTestMain(int, char **, const char *, const struct CMUnitTest *, size_t, const char *);

/* Set (value != NULL) or clear (value == NULL) a global option. */
void SbpmgTestSetOption(const char *name, const char *value);

/* A list of global options (name and value; a NULL name ends it): set them all, then clear them all. */
typedef struct {
  const char *name, *value;
} SbpmgTestOption;
void SbpmgTestSetOptions(const SbpmgTestOption *list);
void SbpmgTestClearOptions(const SbpmgTestOption *list);

/* True in the valgrind variant of a test (<name>_memcheck sets SBPMG_TEST_MEMCHECK=1): long repetition loops may shorten
   there, the code paths they cover staying the same. */
PetscBool SbpmgTestUnderMemcheck(void);

/* Uniform random numbers in [lo, hi) from a fixed seed, host side. */
void SbpmgTestRandom(PetscInt n, PetscScalar *x, PetscReal lo, PetscReal hi, unsigned long seed);

/* max_i |a_i - b_i| and max_i |b_i|; a NaN in a or b makes the difference NaN */
void SbpmgTestMaxDiff(PetscInt n, const PetscScalar *a, const PetscScalar *b, PetscReal *diff, PetscReal *scale);

/* The 14 reductions of the determinism tests, in order: VecDot(x,y), NORM_2 x, NORM_1 x, NORM_1_AND_2 y (2), VecSum y,
   VecMDot(x, m[0..2]) (3), NORM_INFINITY y, VecMax x (value, location), VecDotNorm2(x,y) (2). The cached norms are dropped
   first, so every call computes. */
#define SBPMG_TEST_NREDUCTIONS 14
void SbpmgTestReductions(Vec x, Vec y, Vec m[3], PetscScalar r[SBPMG_TEST_NREDUCTIONS]);

/* Several ranks: the vector x of the DMDA da in natural ordering on rank 0 (a sequential vector there, empty elsewhere). */
Vec SbpmgTestNaturalOnZero(DM da, Vec x);

/* max |a - b| / max |b| on rank 0 of comm (par_nat0: a parallel result in natural ordering there, seq: the reference), known
   on every rank of comm; NaN anywhere gives NaN. */
PetscReal SbpmgTestCompareOnZero(MPI_Comm comm, Vec par_nat0, Vec seq);

/* The local entries of x uniform in [-1, 1) from a fixed seed; |a - b| / |b| in the norm type, and in the infinity norm. */
void      SbpmgTestFillRandom(Vec x, unsigned long seed);
PetscReal SbpmgTestRelDiffNorm(Vec a, Vec b, NormType type);
PetscReal SbpmgTestRelDiff(Vec a, Vec b);

/* A device context on PETSC_COMM_SELF created with one more option (value NULL: given without a value), set for the
   creation only. */
void SbpmgTestCreateContext(const char *option, const char *value, SbpmgCL *cl);

/* The selftest kernel y = y + alpha x on n doubles (kernels/selftest.cl) of cl, built with the options: new buffers xd and yd hold x
   and y, the kernel's arguments are set. */
void SbpmgTestSelftestAxpy(SbpmgCL cl, const char *options, int n, double alpha, const double *x, const double *y, cl_kernel *k, cl_mem *xd, cl_mem *yd);

/* Destroy the vectors of the list (NULL ends it). */
void SbpmgTestDestroyVecs(Vec *v, ...) __attribute__((sentinel));

/* Destroy a device vector and its host twin; the offload mask of a device vector. */
void             SbpmgTestDestroyPair(Vec *d, Vec *h);
PetscOffloadMask SbpmgTestOffloadMask(Vec v);

/* VecMDot of y with 3 and with 11 vectors (one and two fused passes) and VecMTDot with 11, on the device (yd, vd) and the host
   (yh, vh), each device value compared with the host one by check(what, n, device, host, scale); md, mh keep the last values. */
typedef void (*SbpmgTestCheckFn)(const char *, PetscInt, PetscReal, PetscReal, PetscReal);
void SbpmgTestMDots(Vec yd, Vec yh, Vec vd[11], Vec vh[11], PetscInt n, SbpmgTestCheckFn check, PetscScalar md[11], PetscScalar mh[11]);

/* The leapfrog on `backend` is second order in time: a Gaussian at rest, no PML, no source, dt, dt/2, dt/4 against the fp64
   host run at dt/32. */
void SbpmgTestLeapfrogOrder(AcousticBackend backend);

/* The DMDA of a problem's layout (made on first use where set-up needed none: one rank, device backend). */
DM SbpTestDM(SbpProblem p);

#define SBPMG_TEST_MAIN(help, tests)                                                             \
  int main(int argc, char **argv)                                                                \
  {                                                                                              \
    return SbpmgTestMain(argc, argv, help, tests, sizeof(tests) / sizeof((tests)[0]), __FILE__); \
  }

#endif
