/* Grids of any size (issue 34, docs/design.md "Grids of any size"): the coarse sizes (ceil(N/2), semi-coarsening where a direction
   runs out, the longer side alone where it has more than tuning sbp_coarsen_aspect percent of the other's intervals), the transfers between grids that do not
   nest against the Kronecker product of the 1D interpolations written from the node coordinates, P 1 = 1 and exactness on bilinears, CG + sbpmg on odd, prime
   and mixed sizes within 2 iterations of the power of two's, the V-cycle symmetric on such hierarchies, node grids of odd size, and the one-level case. */
#include "test_sbp_common.h"
#include <sbpmg/private/mgimpl.h>

static const char help[] = "Tests of sbpmg's hierarchies of grids of any size (src/sbp/coarsen.c, src/mg/transfer.c).\n";

/* The 1D interpolation from Nc to Nf intervals written from the reference nodes: P[i][ic] = max(0, 1 - |r_i - R_I| / H), r_i = -1 +
   2 i / Nf, R_I = -1 + 2 ic / Nc, H = 2 / Nc (independent of kernels/transfer.cl's integer form). */
static void dense_interp_1d(PetscInt Nf, PetscInt Nc, PetscReal *P)
{
  for (PetscInt i = 0; i <= Nf; i++)
    for (PetscInt ic = 0; ic <= Nc; ic++) {
      const PetscReal d    = PetscAbsReal((-1 + 2.0 * i / Nf) - (-1 + 2.0 * ic / Nc)) / (2.0 / Nc);
      P[i * (Nc + 1) + ic] = d < 1 - 1e-12 ? 1 - d : 0;
    }
}

/* y = (Ps (x) Pr) x with dense 1D blocks (transpose: P^T) on host arrays in natural order */
static void apply_kron(PetscInt Nrf, PetscInt Nsf, PetscInt Nrc, PetscInt Nsc, const PetscReal *Pr, const PetscReal *Ps, PetscBool transpose,
                       const PetscScalar *x, PetscScalar *y)
{
  const PetscInt nf = (Nrf + 1) * (Nsf + 1), nc = (Nrc + 1) * (Nsc + 1);
  PetscArrayzero(y, transpose ? nc : nf);
  for (PetscInt j = 0; j <= Nsf; j++)
    for (PetscInt i = 0; i <= Nrf; i++)
      for (PetscInt jc = 0; jc <= Nsc; jc++)
        for (PetscInt ic = 0; ic <= Nrc; ic++) {
          const PetscReal w = Pr[i * (Nrc + 1) + ic] * Ps[j * (Nsc + 1) + jc];
          if (w == 0) continue;
          if (transpose)
            y[ic + (Nrc + 1) * jc] += w * x[i + (Nrf + 1) * j];
          else
            y[i + (Nrf + 1) * j] += w * x[ic + (Nrc + 1) * jc];
        }
}

/* The prolongation of SbpProblemCoarsen()'s grid and its transpose against the Kronecker reference on random vectors (1e-14), P 1 = 1,
   P exact on the bilinear 1 + 2r - 3s + rs. */
static void check_transfer(PetscInt Nr, PetscInt Ns, SbpBackend backend, const char *tune, PetscInt Nrc_expect, PetscInt Nsc_expect)
{
  SbpProblem   f = SbpTestProblem(PETSC_COMM_SELF, Nr, Ns, "DDNN", SBP_MAPPING_CURVED, backend, tune), c;
  Mat          P;
  Vec          xc, xf;
  PetscReal   *Pr, *Ps;
  PetscScalar *ref;
  PetscInt     Nrc, Nsc;

  PCALL(SbpProblemCoarsen(f, &c));
  PCALL(SbpProblemGetSizes(c, &Nrc, &Nsc));
  if (Nrc != Nrc_expect || Nsc != Nsc_expect)
    fail_msg("%d x %d (%s) coarsens to %d x %d, expected %d x %d", (int)Nr, (int)Ns, tune, (int)Nrc, (int)Nsc, (int)Nrc_expect, (int)Nsc_expect);
  PCALL(SbpProblemCreateProlongation(c, f, &P));
  PCALL(SbpProblemCreateVector(c, &xc));
  PCALL(SbpProblemCreateVector(f, &xf));
  PCALL(PetscMalloc3((Nr + 1) * (Nrc + 1), &Pr, (Ns + 1) * (Nsc + 1), &Ps, (Nr + 1) * (Ns + 1), &ref));
  dense_interp_1d(Nr, Nrc, Pr);
  dense_interp_1d(Ns, Nsc, Ps);
  for (int t = 0; t < 2; t++) { /* prolongation, restriction */
    Vec                in = t ? xf : xc, out = t ? xc : xf;
    const PetscScalar *a, *b;
    PetscReal          err = 0, scale = 0;
    SbpmgTestFillRandom(in, 11 + t);
    PCALL(VecSet(out, NAN));
    if (t)
      PCALL(MatMultTranspose(P, in, out));
    else
      PCALL(MatMult(P, in, out));
    PCALL(VecGetArrayRead(in, &a));
    PCALL(VecGetArrayRead(out, &b));
    apply_kron(Nr, Ns, Nrc, Nsc, Pr, Ps, t ? PETSC_TRUE : PETSC_FALSE, a, ref);
    for (PetscInt k = 0; k < (t ? (Nrc + 1) * (Nsc + 1) : (Nr + 1) * (Ns + 1)); k++) {
      err   = PetscMax(err, PetscAbsScalar(b[k] - ref[k]));
      scale = PetscMax(scale, PetscAbsScalar(ref[k]));
    }
    PCALL(VecRestoreArrayRead(in, &a));
    PCALL(VecRestoreArrayRead(out, &b));
    print_message("  %d x %d -> %d x %d %s, %s: max difference from the Kronecker reference %.2e\n", (int)Nr, (int)Ns, (int)Nrc, (int)Nsc,
                  backend == SBP_BACKEND_DEVICE ? "device" : "host", t ? "P^T" : "P", err / scale);
    if (!(err <= 1e-14 * scale)) fail_msg("%d x %d: %s differs from the Kronecker reference by %g", (int)Nr, (int)Ns, t ? "P^T" : "P", err / scale);
  }
  { /* bilinears */
    PetscScalar *a;
    PetscReal    err = 0;
    PCALL(VecGetArrayWrite(xc, &a));
    for (PetscInt jc = 0; jc <= Nsc; jc++)
      for (PetscInt ic = 0; ic <= Nrc; ic++) {
        const PetscReal r = -1 + 2.0 * ic / Nrc, s = -1 + 2.0 * jc / Nsc;
        a[ic + (Nrc + 1) * jc] = 1 + 2 * r - 3 * s + r * s;
      }
    PCALL(VecRestoreArrayWrite(xc, &a));
    PCALL(MatMult(P, xc, xf));
    PCALL(VecGetArray(xf, &a));
    for (PetscInt j = 0; j <= Ns; j++)
      for (PetscInt i = 0; i <= Nr; i++) {
        const PetscReal r = -1 + 2.0 * i / Nr, s = -1 + 2.0 * j / Ns;
        err = PetscMax(err, PetscAbsScalar(a[i + (Nr + 1) * j] - (1 + 2 * r - 3 * s + r * s)));
      }
    PCALL(VecRestoreArray(xf, &a));
    if (!(err < 1e-13)) fail_msg("%d x %d: P is not exact on bilinears (%g)", (int)Nr, (int)Ns, err);
  }
  PCALL(PetscFree3(Pr, Ps, ref));
  SbpmgTestDestroyVecs(&xc, &xf, NULL);
  PCALL(MatDestroy(&P));
  PCALL(SbpProblemDestroy(&c));
  PCALL(SbpProblemDestroy(&f));
}

static void test_transfers_any_size(void **state)
{
  const char *both = "sbp_coarsen_aspect=0", *longer = "sbp_coarsen_aspect=140";

  /* both sides coarsen (aspect 0), each halved or ceil(N/2), kept below 4 intervals */
  check_transfer(15, 10, SBP_BACKEND_DEVICE, both, 8, 5);
  check_transfer(13, 17, SBP_BACKEND_HOST, both, 7, 9);
  check_transfer(30, 7, SBP_BACKEND_DEVICE, both, 15, 4);
  check_transfer(30, 6, SBP_BACKEND_DEVICE, both, 15, 6); /* semi-coarsening: s keeps its 6 intervals */
  check_transfer(5, 22, SBP_BACKEND_HOST, both, 5, 11);
  /* the longer side alone where it has more than 1.4 times the other's intervals */
  check_transfer(15, 11, SBP_BACKEND_DEVICE, longer, 8, 6); /* 15 <= 1.4 x 11: both */
  check_transfer(13, 17, SBP_BACKEND_HOST, longer, 7, 9);
  check_transfer(15, 10, SBP_BACKEND_DEVICE, longer, 8, 10);
  check_transfer(30, 7, SBP_BACKEND_DEVICE, longer, 15, 7);
  check_transfer(8, 22, SBP_BACKEND_HOST, longer, 8, 11);
}

/* CG + sbpmg (random right-hand side, 1e-8): its iterations and the number of levels. */
static PetscInt solve_random(SbpProblem p, PetscInt *levels)
{
  Mat                A;
  Vec                u, g;
  KSP                ksp;
  PC                 pc;
  PetscInt           its;
  KSPConvergedReason reason;

  PCALL(SbpProblemCreateOperator(p, &A));
  PCALL(MatCreateVecs(A, &u, &g));
  SbpmgTestFillRandom(g, 5);
  ksp = SbpTestMGCG(A, 1e-8, 100);
  PCALL(KSPSetFromOptions(ksp));
  PCALL(KSPSolve(ksp, g, u));
  PCALL(KSPGetConvergedReason(ksp, &reason));
  if (reason < 0) fail_msg("CG + sbpmg did not converge: %s", KSPConvergedReasons[reason]);
  PCALL(KSPGetIterationNumber(ksp, &its));
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCSBPMGGetLevels(pc, levels));
  PCALL(KSPDestroy(&ksp));
  SbpmgTestDestroyVecs(&u, &g, NULL);
  PCALL(MatDestroy(&A));
  return its;
}

/* Odd, prime and mixed sizes: within 2 iterations of 128^2's, with as many levels (a one-level direct solve of the whole grid was
   what sizes that do not halve got before); the host backend and node coordinates of an odd grid too. */
static void test_iterations_any_size(void **state)
{
  static const struct {
    PetscInt   Nr, Ns;
    SbpBackend backend;
  } cases[] = {
      {127, 127, SBP_BACKEND_DEVICE}, {129, 129, SBP_BACKEND_DEVICE}, {125, 125, SBP_BACKEND_DEVICE}, {127, 64, SBP_BACKEND_DEVICE},
      {131, 97, SBP_BACKEND_DEVICE},  {139, 139, SBP_BACKEND_HOST},   {128, 13, SBP_BACKEND_DEVICE},
  };
  PetscInt   L0, ref;
  SbpProblem p = SbpTestProblem(PETSC_COMM_SELF, 128, 128, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL);

  ref = solve_random(p, &L0);
  PCALL(SbpProblemDestroy(&p));
  print_message("  128 x 128: %d iterations, %d levels\n", (int)ref, (int)L0);
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    PetscInt L, its;
    p   = SbpTestProblem(PETSC_COMM_SELF, cases[c].Nr, cases[c].Ns, "DDNN", SBP_MAPPING_CURVED, cases[c].backend, NULL);
    its = solve_random(p, &L);
    print_message("  %d x %d %s: %d iterations, %d levels\n", (int)cases[c].Nr, (int)cases[c].Ns, cases[c].backend == SBP_BACKEND_DEVICE ? "device" : "host",
                  (int)its, (int)L);
    if (its > ref + 2) fail_msg("%d x %d: %d iterations, 128^2 %d", (int)cases[c].Nr, (int)cases[c].Ns, (int)its, (int)ref);
    if (L < 3) fail_msg("%d x %d: only %d levels", (int)cases[c].Nr, (int)cases[c].Ns, (int)L);
    PCALL(SbpProblemDestroy(&p));
  }
  { /* node coordinates of an odd grid: the coarse levels interpolate them */
    SbpProblem         q = SbpTestProblem(PETSC_COMM_SELF, 127, 127, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL);
    Vec                x, y;
    PetscInt           L, its;
    PetscReal         *xa, *ya;
    PetscInt           n = 128 * 128;
    const PetscScalar *a, *b;
    PCALL(SbpProblemGetCoordinates(q, &x, &y));
    PCALL(PetscMalloc2(n, &xa, n, &ya));
    PCALL(VecGetArrayRead(x, &a));
    PCALL(VecGetArrayRead(y, &b));
    for (PetscInt k = 0; k < n; k++) {
      xa[k] = PetscRealPart(a[k]);
      ya[k] = PetscRealPart(b[k]);
    }
    PCALL(VecRestoreArrayRead(x, &a));
    PCALL(VecRestoreArrayRead(y, &b));
    SbpmgTestDestroyVecs(&x, &y, NULL);
    PCALL(SbpProblemDestroy(&q));
    PCALL(SbpProblemCreate(PETSC_COMM_SELF, &q));
    PCALL(SbpProblemSetSizes(q, 127, 127));
    PCALL(SbpProblemSetNodeCoordinatesArrays(q, n, xa, ya));
    PCALL(SbpProblemSetUp(q));
    PCALL(PetscFree2(xa, ya));
    its = solve_random(q, &L);
    print_message("  127 x 127 node coordinates: %d iterations, %d levels\n", (int)its, (int)L);
    if (its > ref + 2 || L < 3) fail_msg("127^2 node coordinates: %d iterations, %d levels", (int)its, (int)L);
    PCALL(SbpProblemDestroy(&q));
  }
}

/* Unequal sides coarsened along the longer side first (tuning sbp_coarsen_aspect 140, the GPUs' default) take fewer iterations than with
   both sides coarsened (0, the CPUs'), and at most 128^2's; the V-cycle stays symmetric there (test_symmetric_any_size). */
static void test_iterations_long_side(void **state)
{
  static const struct {
    PetscInt   Nr, Ns;
    SbpBackend backend;
  } cases[] = {{128, 64, SBP_BACKEND_DEVICE}, {256, 25, SBP_BACKEND_DEVICE}, {64, 128, SBP_BACKEND_DEVICE}, {96, 48, SBP_BACKEND_HOST}};
  PetscInt   L, ref;
  SbpProblem p = SbpTestProblem(PETSC_COMM_SELF, 128, 128, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL);

  ref = solve_random(p, &L);
  PCALL(SbpProblemDestroy(&p));
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    PetscInt its[2], levels[2];
    for (int q = 0; q < 2; q++) {
      p      = SbpTestProblem(PETSC_COMM_SELF, cases[c].Nr, cases[c].Ns, "DDNN", SBP_MAPPING_CURVED, cases[c].backend,
                         q ? "sbp_coarsen_aspect=140" : "sbp_coarsen_aspect=0");
      its[q] = solve_random(p, &levels[q]);
      PCALL(SbpProblemDestroy(&p));
    }
    print_message("  %d x %d %s: %d iterations (%d levels) both sides coarsened, %d (%d levels) the longer side first; 128^2 %d\n", (int)cases[c].Nr,
                  (int)cases[c].Ns, cases[c].backend == SBP_BACKEND_DEVICE ? "device" : "host", (int)its[0], (int)levels[0], (int)its[1], (int)levels[1],
                  (int)ref);
    if (!(its[1] < its[0] && its[1] <= ref))
      fail_msg("%d x %d: %d iterations with the longer side coarsened first, %d with both, 128^2 %d", (int)cases[c].Nr, (int)cases[c].Ns, (int)its[1],
               (int)its[0], (int)ref);
  }
}

/* The V-cycle on hierarchies of odd sizes and of semi-coarsened levels (a side that runs out; the longer side first) is symmetric and
   positive (fp64; device and host). */
static void test_symmetric_any_size(void **state)
{
  static const struct {
    PetscInt    Nr, Ns;
    SbpBackend  backend;
    const char *tune;
  } cases[] = {{45, 33, SBP_BACKEND_DEVICE, NULL},
               {37, 41, SBP_BACKEND_HOST, NULL},
               {64, 7, SBP_BACKEND_DEVICE, "sbp_coarsen_aspect=0"},
               {64, 20, SBP_BACKEND_DEVICE, "sbp_coarsen_aspect=140"},
               {25, 70, SBP_BACKEND_HOST, "sbp_coarsen_aspect=140"}};
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    SbpProblem p = SbpTestProblem(PETSC_COMM_SELF, cases[c].Nr, cases[c].Ns, "DDNN", SBP_MAPPING_CURVED, cases[c].backend, cases[c].tune);
    Mat        A;
    KSP        ksp;
    PC         pc;
    Vec        x, y;
    PetscInt   L;
    char       what[64];
    PCALL(SbpProblemCreateOperator(p, &A));
    SbpmgTestSetOption("-pc_sbpmg_precision", "double");
    SbpmgTestSetOption("-pc_sbpmg_coarse_size", "6");
    ksp = SbpTestMGCG(A, 1e-8, 10);
    PCALL(KSPSetFromOptions(ksp));
    PCALL(KSPSetUp(ksp));
    SbpmgTestSetOption("-pc_sbpmg_coarse_size", NULL);
    SbpmgTestSetOption("-pc_sbpmg_precision", NULL);
    PCALL(KSPGetPC(ksp, &pc));
    PCALL(PCSBPMGGetLevels(pc, &L));
    if (L < 3) fail_msg("%d x %d: only %d levels", (int)cases[c].Nr, (int)cases[c].Ns, (int)L);
    PCALL(MatCreateVecs(A, &x, &y));
    PCALL(PetscSNPrintf(what, sizeof(what), "%d x %d, %d levels", (int)cases[c].Nr, (int)cases[c].Ns, (int)L));
    SbpmgTestFillRandom(x, 61);
    SbpmgTestFillRandom(y, 62);
    SbpTestCheckSymmetric(pc, x, y, what);
    SbpmgTestDestroyVecs(&x, &y, NULL);
    PCALL(KSPDestroy(&ksp));
    PCALL(MatDestroy(&A));
    PCALL(SbpProblemDestroy(&p));
  }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_transfers_any_size),
    cmocka_unit_test(test_iterations_any_size),
    cmocka_unit_test(test_iterations_long_side),
    cmocka_unit_test(test_symmetric_any_size),
};

SBPMG_TEST_MAIN(help, tests)
