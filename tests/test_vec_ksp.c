/* PETSc's own KSPCG on device vectors: a MatShell whose MatMult is a device kernel (2D 5-point Laplacian) converges
   exactly like the same solve on VECSEQ with a host MatMult, and moves no vector between host and device while it
   iterates. */
#include "harness.h"
#include "lap5shell.h"

static const char help[] = "KSPCG with VECSEQOPENCL against VECSEQ.\n";

typedef struct {
  PetscInt           its;
  KSPConvergedReason reason;
  PetscReal          hist[1000];
  PetscInt           nhist;
  SbpmgCLStats       before, after;      /* around KSPSolve */
  PetscLogDouble     sync0[2], sync1[2]; /* whole-vector copies, around KSPSolve */
  PetscScalar       *x;                  /* the solution, PetscMalloc'ed */
} SolveResult;

/* KSPCG (no preconditioner) on A x = b, b random, on device or host vectors */
static void solve(PetscInt m, PetscBool device, SolveResult *r)
{
  PetscInt           n = m * m;
  Mat                A;
  Vec                b, x;
  KSP                ksp;
  PC                 p;
  PetscScalar       *a;
  const PetscScalar *xs;

  PCALL(Lap5CreateShell(m, device, &A));
  PCALL(MatCreateVecs(A, &x, &b));
  PCALL(VecGetArrayWrite(b, &a));
  SbpmgTestRandom(n, a, -1, 1, 2024);
  PCALL(VecRestoreArrayWrite(b, &a));
  PCALL(KSPCreate(PETSC_COMM_SELF, &ksp));
  PCALL(KSPSetOperators(ksp, A, A));
  PCALL(KSPSetType(ksp, KSPCG));
  PCALL(KSPGetPC(ksp, &p));
  PCALL(PCSetType(p, PCNONE));
  PCALL(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PCALL(KSPSetResidualHistory(ksp, r->hist, 1000, PETSC_TRUE));
  PCALL(KSPSetUp(ksp));
  if (device) PCALL(VecOpenCLSyncDevice(b)); /* the right-hand side starts on the device, as it would in an application */
  PCALL(SbpmgCLGetGlobalStats(&r->before));
  PCALL(VecOpenCLGetSyncCounts(&r->sync0[0], &r->sync0[1]));
  PCALL(KSPSolve(ksp, b, x));
  PCALL(SbpmgCLGetGlobalStats(&r->after));
  PCALL(VecOpenCLGetSyncCounts(&r->sync1[0], &r->sync1[1]));
  PCALL(KSPGetIterationNumber(ksp, &r->its));
  PCALL(KSPGetConvergedReason(ksp, &r->reason));
  PCALL(KSPGetResidualHistory(ksp, NULL, &r->nhist));
  PCALL(PetscMalloc1(n, &r->x));
  PCALL(VecGetArrayRead(x, &xs));
  PCALL(PetscArraycpy(r->x, xs, n));
  PCALL(VecRestoreArrayRead(x, &xs));
  PCALL(KSPDestroy(&ksp));
  PCALL(VecDestroy(&x));
  PCALL(VecDestroy(&b));
  PCALL(MatDestroy(&A));
}

static void compare(PetscInt m, SolveResult *d, SolveResult *h)
{
  PetscInt  n  = m * m;
  PetscReal dx = 0, xmax = 0;

  print_message("  m = %d: device %d iterations (reason %d), host %d iterations (reason %d)\n", (int)m, (int)d->its, (int)d->reason, (int)h->its,
                (int)h->reason);
  assert_true(h->reason > 0);
  assert_int_equal(d->reason, h->reason);
  assert_int_equal(d->its, h->its);
  assert_int_equal(d->nhist, h->nhist);
  for (PetscInt i = 0; i < h->nhist; i++) {
    PetscReal rel = PetscAbsReal(d->hist[i] - h->hist[i]) / h->hist[0];
    if (rel > 1e-9) fail_msg("residual history differs at iteration %d: device %.17g host %.17g", (int)i, (double)d->hist[i], (double)h->hist[i]);
  }
  for (PetscInt i = 0; i < n; i++) {
    dx   = PetscMax(dx, PetscAbsScalar(d->x[i] - h->x[i]));
    xmax = PetscMax(xmax, PetscAbsScalar(h->x[i]));
  }
  print_message("  max |x_device - x_host| = %.3e (max |x| = %.3e)\n", (double)dx, (double)xmax);
  assert_true(dx <= 1e-8 * xmax);

  /* while iterating: nothing sent to the device, only scalars (dot products, norms) read back */
  {
    PetscLogDouble htod = d->after.htod_count - d->before.htod_count, dcount = d->after.dtoh_count - d->before.dtoh_count,
                   dbytes = d->after.dtoh_bytes - d->before.dtoh_bytes;
    print_message("  transfers during KSPSolve: %g to the device, %g back (%g bytes)\n", htod, dcount, dbytes);
    assert_true(htod == 0);
    assert_true(d->sync1[0] == d->sync0[0] && d->sync1[1] == d->sync0[1]);
    assert_true(dcount > d->its);                        /* the reductions really ran on the device */
    assert_true(dbytes == dcount * sizeof(PetscScalar)); /* every read-back is one scalar */
  }
  PCALL(PetscFree(d->x));
  PCALL(PetscFree(h->x));
}

static void test_cg_matches_host(void **state)
{
  const PetscInt ms[] = {20, 48};
  for (size_t t = 0; t < sizeof(ms) / sizeof(ms[0]); t++) {
    SolveResult d, h;
    solve(ms[t], PETSC_TRUE, &d);
    solve(ms[t], PETSC_FALSE, &h);
    compare(ms[t], &d, &h);
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
      PC             p;
      PetscScalar   *a;
      SbpmgCLStats   s0, s1;
      PetscLogDouble c0[2], c1[2];

      PCALL(Lap5CreateShell(m, dev ? PETSC_TRUE : PETSC_FALSE, &A));
      PCALL(MatCreateVecs(A, &x, &b));
      PCALL(VecGetArrayWrite(b, &a));
      SbpmgTestRandom(n, a, -1, 1, 7);
      PCALL(VecRestoreArrayWrite(b, &a));
      PCALL(KSPCreate(PETSC_COMM_SELF, &ksp));
      PCALL(KSPSetOperators(ksp, A, A));
      PCALL(KSPSetType(ksp, types[t]));
      PCALL(KSPGetPC(ksp, &p));
      PCALL(PCSetType(p, PCNONE));
      PCALL(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 500));
      PCALL(KSPSetUp(ksp));
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
