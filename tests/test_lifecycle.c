/* Reliability: the full solver created and destroyed many times releases every OpenCL object; solves are deterministic. */
#include "test_sbp_common.h"

static const char help[] = "Lifecycle and determinism of the sbpmg solver.\n";

/* One full MGCG solve on the device; returns the solution (host copy, caller frees) and the iteration count. */
static void solve_once(PetscInt N, PetscScalar **sol, PetscInt *its, PetscReal *rnorm)
{
  SbpTestSystem      s;
  const PetscScalar *a;
  PetscInt           n;

  SbpTestSystemCreate(SbpTestProblem(PETSC_COMM_SELF, N, N, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL), PETSC_FALSE, &s);
  s.ksp = SbpTestMGCG(s.A, 1e-10, 100);
  *its  = SbpTestSystemSolve(&s);
  PCALL(KSPGetResidualNorm(s.ksp, rnorm));
  PCALL(VecGetLocalSize(s.u, &n));
  if (sol) {
    PCALL(PetscMalloc1(n, sol));
    PCALL(VecGetArrayRead(s.u, &a));
    PCALL(PetscArraycpy(*sol, a, n));
    PCALL(VecRestoreArrayRead(s.u, &a));
  }
  SbpTestSystemDestroy(&s);
}

/* 20 times: create the problem, operator, KSP + sbpmg, solve, destroy everything, drop the device context; every count of live
   OpenCL objects is back to zero each time. */
static void test_create_destroy_20(void **state)
{
  for (int k = 0; k < 20; k++) {
    SbpmgCLStats s;
    SbpmgCL      cl;
    PetscInt     its, own;
    PetscReal    rnorm;

    solve_once(32, NULL, &its, &rnorm);
    PCALL(SbpmgCLGetDefault(&cl));
    own = cl->results ? 1 : 0; /* the context's pinned result area of the reductions: released with it, below */
    PCALL(SbpmgCLGetGlobalStats(&s));
    if (s.live_buffers != own)
      fail_msg("round %d: %d device buffers alive after the solver was destroyed (%d the context's own)", k, (int)s.live_buffers, (int)own);
    PCALL(SbpmgCLResetDefault());
    PCALL(SbpmgCLGetGlobalStats(&s));
    if (s.live_buffers || s.live_kernels || s.live_programs || s.live_queues || s.live_contexts)
      fail_msg("round %d: live OpenCL objects after the context was released: %d buffers, %d kernels, %d programs, %d queues, %d contexts", k,
               (int)s.live_buffers, (int)s.live_kernels, (int)s.live_programs, (int)s.live_queues, (int)s.live_contexts);
    assert_true(its > 0 && its < 20);
  }
}

/* The counters can fail: a buffer left alive is seen. */
static void test_counter_sees_leak(void **state)
{
  SbpmgCL      cl;
  SbpmgCLStats s;
  cl_mem       b;

  PCALL(SbpmgCLGetDefault(&cl));
  PCALL(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, 64, &b));
  PCALL(SbpmgCLGetGlobalStats(&s));
  assert_int_equal(s.live_buffers, 1);
  PCALL(SbpmgCLReleaseBuffer(cl, &b));
  PCALL(SbpmgCLGetGlobalStats(&s));
  assert_int_equal(s.live_buffers, 0);
}

/* Two MGCG solves from scratch give the same bits: deterministic reductions, fixed smoother estimates. */
static void test_mgcg_deterministic(void **state)
{
  PetscScalar *a, *b;
  PetscInt     i1, i2;
  PetscReal    r1, r2;

  solve_once(128, &a, &i1, &r1);
  solve_once(128, &b, &i2, &r2);
  assert_int_equal(i1, i2);
  if (r1 != r2) fail_msg("residual norms differ: %.17g vs %.17g", r1, r2);
  if (memcmp(a, b, sizeof(PetscScalar) * 129 * 129)) fail_msg("the two solutions differ bitwise");
  print_message("  two solves: %d iterations, residual %.17g, solutions bit-identical\n", (int)i1, r1);
  PCALL(PetscFree(a));
  PCALL(PetscFree(b));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_counter_sees_leak),
    cmocka_unit_test(test_create_destroy_20),
    cmocka_unit_test(test_mgcg_deterministic),
};

SBPMG_TEST_MAIN(help, tests)
