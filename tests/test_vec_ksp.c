/* PETSc's own KSPCG on device vectors: a MatShell whose MatMult is a device kernel (2D 5-point Laplacian) converges
   exactly like the same solve on VECSEQ with a host MatMult, and moves no vector between host and device while it
   iterates. */
#include "vectest.h"
#include "lap5shell.h"

static const char help[] = "KSPCG with VECSEQOPENCL against VECSEQ.\n";

/* KSPCG (no preconditioner) on A x = b, b random, on device or host vectors */
static void solve(PetscInt m, PetscBool device, VecTestSolve *r)
{
  PetscInt     n = m * m;
  Mat          A;
  Vec          b;
  PetscScalar *a;

  PCALL(Lap5CreateShell(m, device, &A));
  PCALL(MatCreateVecs(A, NULL, &b));
  PCALL(VecGetArrayWrite(b, &a));
  SbpmgTestRandom(n, a, -1, 1, 2024);
  PCALL(VecRestoreArrayWrite(b, &a));
  VecTestSolveCG(A, b, r);
  PCALL(VecDestroy(&b));
  PCALL(MatDestroy(&A));
}

static void test_cg_matches_host(void **state)
{
  const PetscInt ms[] = {20, 48};
  for (size_t t = 0; t < sizeof(ms) / sizeof(ms[0]); t++) {
    VecTestSolve d, h;
    char         what[32];

    solve(ms[t], PETSC_TRUE, &d);
    solve(ms[t], PETSC_FALSE, &h);
    snprintf(what, sizeof(what), "m = %d", (int)ms[t]);
    VecTestCompareSolves(what, &d, &h, 1); /* the reductions really ran on the device */
  }
}

/* Other Krylov methods (GMRES: mdot/maxpy; BiCGStab: axpbypcz, dotnorm2; pipelined CG: split-phase reductions) converge on
   device vectors like on host vectors, without moving vectors while they iterate. */
static void test_other_krylov_methods(void **state)
{
  const char *types[] = {KSPGMRES, KSPBCGS, KSPCR, KSPMINRES, KSPPIPECG, KSPFGMRES};
  PetscInt    m = 16, n = m * m;

  for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
    PetscInt           its[2];
    KSPConvergedReason reason[2];
    PetscReal          rnorm[2];

    for (int dev = 0; dev < 2; dev++) {
      Mat            A;
      Vec            b, x;
      KSP            ksp;
      PetscScalar   *a;
      SbpmgCLStats   s0, s1;
      PetscLogDouble c0[2], c1[2];

      PCALL(Lap5CreateShell(m, dev ? PETSC_TRUE : PETSC_FALSE, &A));
      PCALL(MatCreateVecs(A, &x, &b));
      PCALL(VecGetArrayWrite(b, &a));
      SbpmgTestRandom(n, a, -1, 1, 7);
      PCALL(VecRestoreArrayWrite(b, &a));
      ksp = VecTestCreateKSP(A, types[t], 1e-8, 500, NULL);
      PCALL(VecOpenCLSyncDevice(b));
      PCALL(SbpmgCLGetGlobalStats(&s0));
      PCALL(VecOpenCLGetSyncCounts(&c0[0], &c0[1]));
      PCALL(KSPSolve(ksp, b, x));
      PCALL(SbpmgCLGetGlobalStats(&s1));
      PCALL(VecOpenCLGetSyncCounts(&c1[0], &c1[1]));
      PCALL(KSPGetIterationNumber(ksp, &its[dev]));
      PCALL(KSPGetConvergedReason(ksp, &reason[dev]));
      PCALL(KSPGetResidualNorm(ksp, &rnorm[dev]));
      if (dev && s1.htod_count != s0.htod_count) fail_msg("%s: %g transfers to the device while iterating", types[t], s1.htod_count - s0.htod_count);
      if (dev && (c1[0] != c0[0] || c1[1] != c0[1])) fail_msg("%s: %g + %g whole-vector copies while iterating", types[t], c1[0] - c0[0], c1[1] - c0[1]);
      PCALL(KSPDestroy(&ksp));
      PCALL(VecDestroy(&x));
      PCALL(VecDestroy(&b));
      PCALL(MatDestroy(&A));
    }
    print_message("  %-8s device %3d its (reason %d, rnorm %.3e), host %3d its (reason %d, rnorm %.3e)\n", types[t], (int)its[1], (int)reason[1],
                  (double)rnorm[1], (int)its[0], (int)reason[0], (double)rnorm[0]);
    assert_true(reason[0] > 0 && reason[1] > 0);
    assert_true(PetscAbsInt(its[1] - its[0]) <= 1);
  }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cg_matches_host),
    cmocka_unit_test(test_other_krylov_methods),
};

SBPMG_TEST_MAIN(help, tests)
