/* The sbpmg preconditioner: transfer identities, symmetry and definiteness of the V-cycle, mesh independence, agreement with
   the direct solve, the device against the host, the kernel variants (one kernel over all nodes, fp32 and fp64 level
   coefficients, several sweeps per pass). The smoother alone: test_mg_smoother.c; options and bad input: test_mg_options.c. */
#include "test_sbp_common.h"

static const char help[] = "Tests of the sbpmg preconditioner (src/mg).\n";

static PetscBool   kernel_split = PETSC_TRUE; /* the device kernels: interior and rim apart (at every size), or one over all nodes */
static const char *pc_tune      = NULL;       /* overrides of the PC's tuning (PCSBPMGSetTuning), NULL: none */

static SbpProblem make_problem(PetscInt Nr, PetscInt Ns, SbpBackend backend)
{
  return SbpTestProblem(PETSC_COMM_SELF, Nr, Ns, "DDNN", SBP_MAPPING_CURVED, backend, kernel_split ? "sbp_split_min=0" : "sbp_split=0,sbp_split_min=0");
}

/* ---------------------------------------------------------------- 1D transfer blocks, assembled by Kronecker products */

/* 1D prolongation (Nf+1) x (Nc+1), spec 8.2 */
static void dense_prolong_1d(PetscInt Nc, PetscReal *P)
{
  PetscInt nf = 2 * Nc + 1, nc = Nc + 1;
  PetscArrayzero(P, nf * nc);
  for (PetscInt ic = 0; ic <= Nc; ic++) P[(2 * ic) * nc + ic] = 1;
  for (PetscInt ic = 0; ic < Nc; ic++) {
    P[(2 * ic + 1) * nc + ic]     = 0.5;
    P[(2 * ic + 1) * nc + ic + 1] = 0.5;
  }
}

/* 1D full weighting (Nc+1) x (Nf+1), spec 8.3 */
static void dense_fullweight_1d(PetscInt Nc, PetscReal *R)
{
  PetscInt nf = 2 * Nc + 1;
  PetscArrayzero(R, (Nc + 1) * nf);
  R[0 * nf + 0] = 0.5;
  R[0 * nf + 1] = 0.5;
  for (PetscInt ic = 1; ic < Nc; ic++) {
    R[ic * nf + 2 * ic - 1] = 0.25;
    R[ic * nf + 2 * ic]     = 0.5;
    R[ic * nf + 2 * ic + 1] = 0.25;
  }
  R[Nc * nf + 2 * Nc - 1] = 0.5;
  R[Nc * nf + 2 * Nc]     = 0.5;
}

/* AIJ matrix kron(B, A) (B acting along s, A along r) from dense row-major blocks */
static Mat kron_dense(PetscInt mb, PetscInt nb, const PetscReal *B, PetscInt ma, PetscInt na, const PetscReal *A)
{
  Mat K;

  PCALL(MatCreateSeqAIJ(PETSC_COMM_SELF, mb * ma, nb * na, 9, NULL, &K));
  for (PetscInt bi = 0; bi < mb; bi++)
    for (PetscInt bj = 0; bj < nb; bj++) {
      if (B[bi * nb + bj] == 0) continue;
      for (PetscInt ai = 0; ai < ma; ai++)
        for (PetscInt aj = 0; aj < na; aj++)
          if (A[ai * na + aj] != 0) PCALL(MatSetValue(K, ai + ma * bi, aj + na * bj, B[bi * nb + bj] * A[ai * na + aj], INSERT_VALUES));
    }
  PCALL(MatAssemblyBegin(K, MAT_FINAL_ASSEMBLY));
  PCALL(MatAssemblyEnd(K, MAT_FINAL_ASSEMBLY));
  return K;
}

static Mat assembled_prolongation(PetscInt Ncr, PetscInt Ncs)
{
  PetscReal *Pr, *Ps;
  Mat        P;

  PCALL(PetscMalloc2((2 * Ncr + 1) * (Ncr + 1), &Pr, (2 * Ncs + 1) * (Ncs + 1), &Ps));
  dense_prolong_1d(Ncr, Pr);
  dense_prolong_1d(Ncs, Ps);
  P = kron_dense(2 * Ncs + 1, Ncs + 1, Ps, 2 * Ncr + 1, Ncr + 1, Pr);
  PCALL(PetscFree2(Pr, Ps));
  return P;
}

static Mat diag_norm(PetscInt Nr, PetscInt Ns, PetscBool inverse)
{
  Mat         H;
  SbpSparse1D Hr, Hs;

  PCALL(SbpSparse1DNorm(2, Nr, 2.0 / Nr, inverse, &Hr));
  PCALL(SbpSparse1DNorm(2, Ns, 2.0 / Ns, inverse, &Hs));
  PCALL(MatCreateSeqAIJ(PETSC_COMM_SELF, (Nr + 1) * (Ns + 1), (Nr + 1) * (Ns + 1), 1, NULL, &H));
  for (PetscInt j = 0; j <= Ns; j++)
    for (PetscInt i = 0; i <= Nr; i++) PCALL(MatSetValue(H, i + (Nr + 1) * j, i + (Nr + 1) * j, Hr.a[i] * Hs.a[j], INSERT_VALUES));
  PCALL(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PCALL(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PCALL(SbpSparse1DDestroy(&Hr));
  PCALL(SbpSparse1DDestroy(&Hs));
  return H;
}

/* R_fw = H_c^-1 P^T H_f entry by entry (spec 8.4), for the assembled blocks */
static void test_fullweighting_identity(void **state)
{
  const PetscInt sizes[][2] = {{8, 8}, {8, 16}, {16, 4}};
  for (size_t t = 0; t < 3; t++) {
    PetscInt   Nr = sizes[t][0], Ns = sizes[t][1], Ncr = Nr / 2, Ncs = Ns / 2;
    PetscReal *Rr, *Rs, nrm;
    Mat        P, Pt, Hf, Hci, R, tmp, rhs;

    PCALL(PetscMalloc2((Ncr + 1) * (Nr + 1), &Rr, (Ncs + 1) * (Ns + 1), &Rs));
    dense_fullweight_1d(Ncr, Rr);
    dense_fullweight_1d(Ncs, Rs);
    R   = kron_dense(Ncs + 1, Ns + 1, Rs, Ncr + 1, Nr + 1, Rr);
    P   = assembled_prolongation(Ncr, Ncs);
    Hf  = diag_norm(Nr, Ns, PETSC_FALSE);
    Hci = diag_norm(Ncr, Ncs, PETSC_TRUE);
    PCALL(MatTranspose(P, MAT_INITIAL_MATRIX, &Pt));
    PCALL(MatMatMult(Pt, Hf, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &tmp));
    PCALL(MatMatMult(Hci, tmp, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &rhs));
    PCALL(MatAXPY(rhs, -1, R, DIFFERENT_NONZERO_PATTERN));
    PCALL(MatNorm(rhs, NORM_INFINITY, &nrm));
    if (nrm != 0) fail_msg("%dx%d: |R_fw - Hc^-1 P^T Hf| = %g", (int)Nr, (int)Ns, nrm);
    PCALL(MatDestroy(&R));
    PCALL(MatDestroy(&P));
    PCALL(MatDestroy(&Pt));
    PCALL(MatDestroy(&Hf));
    PCALL(MatDestroy(&Hci));
    PCALL(MatDestroy(&tmp));
    PCALL(MatDestroy(&rhs));
    PCALL(PetscFree2(Rr, Rs));
  }
}

/* P 1_c = 1_f exactly, and bilinear functions are reproduced */
static void check_prolongation_exact(Mat P, PetscInt Nr, PetscInt Ns)
{
  Vec                xc, xf;
  PetscScalar       *v;
  const PetscScalar *a;

  PCALL(MatCreateVecs(P, &xc, &xf));
  PCALL(VecSet(xc, 1));
  PCALL(VecSet(xf, NAN));
  PCALL(MatMult(P, xc, xf));
  PCALL(VecGetArrayRead(xf, &a));
  for (PetscInt k = 0; k < (Nr + 1) * (Ns + 1); k++)
    if (a[k] != 1) fail_msg("P 1 = %g at %d", a[k], (int)k);
  PCALL(VecRestoreArrayRead(xf, &a));
  PCALL(VecGetArray(xc, &v));
  for (PetscInt jc = 0; jc <= Ns / 2; jc++)
    for (PetscInt ic = 0; ic <= Nr / 2; ic++) {
      PetscReal r = -1 + 4.0 * ic / Nr, s = -1 + 4.0 * jc / Ns;
      v[ic + (Nr / 2 + 1) * jc] = 0.3 + 1.7 * r - 0.9 * s + 2.1 * r * s;
    }
  PCALL(VecRestoreArray(xc, &v));
  PCALL(MatMult(P, xc, xf));
  PCALL(VecGetArrayRead(xf, &a));
  for (PetscInt j = 0; j <= Ns; j++)
    for (PetscInt i = 0; i <= Nr; i++) {
      PetscReal r = -1 + 2.0 * i / Nr, s = -1 + 2.0 * j / Ns, want = 0.3 + 1.7 * r - 0.9 * s + 2.1 * r * s;
      if (PetscAbsReal(a[i + (Nr + 1) * j] - want) > 1e-14) fail_msg("P bilinear at (%d,%d): %g vs %g", (int)i, (int)j, a[i + (Nr + 1) * j], want);
    }
  PCALL(VecRestoreArrayRead(xf, &a));
  SbpmgTestDestroyVecs(&xc, &xf, NULL);
}

/* Prolongation and restriction of random vectors against the assembled Pa, and MatMultAdd against MatMult and VecAXPY */
static void check_prolongation_random(Mat P, Mat Pa)
{
  Vec       xc, xf, yc, yf, rc, rf, z, w;
  PetscReal err;

  PCALL(MatCreateVecs(P, &xc, &xf));
  PCALL(MatCreateVecs(P, &yc, &yf));
  PCALL(MatCreateVecs(Pa, &rc, &rf));
  SbpmgTestFillRandom(xc, 3);
  SbpmgTestFillRandom(xf, 4);
  PCALL(MatMult(P, xc, yf));
  PCALL(VecCopy(xc, rc));
  PCALL(MatMult(Pa, rc, rf));
  err = SbpmgTestRelDiff(yf, rf);
  if (err > 1e-15) fail_msg("prolongation differs from the assembled P by %g", err);
  SbpmgTestFillRandom(xf, 5);
  PCALL(VecSet(yc, NAN));
  PCALL(MatMultTranspose(P, xf, yc));
  PCALL(VecCopy(xf, rf));
  PCALL(MatMultTranspose(Pa, rf, rc));
  err = SbpmgTestRelDiff(yc, rc);
  if (!(err <= 1e-14)) fail_msg("restriction differs from the assembled P^T by %g", err);
  PCALL(VecDuplicate(yf, &z));
  PCALL(VecDuplicate(yf, &w));
  SbpmgTestFillRandom(z, 9);
  PCALL(MatMultAdd(P, xc, z, w)); /* w = z + P xc */
  PCALL(MatMult(P, xc, yf));
  PCALL(VecAXPY(yf, 1, z));
  err = SbpmgTestRelDiff(yf, w);
  if (err > 1e-14) fail_msg("MatMultAdd: %g", err);
  SbpmgTestDestroyVecs(&xc, &xf, &yc, &yf, &rc, &rf, &z, &w, NULL);
}

/* The transfer MatShell (device kernels and host loops) against the Kronecker-assembled P and P^T; P 1 = 1; bilinear exactness. */
static void check_transfers(PetscInt Nr, PetscInt Ns, SbpBackend backend)
{
  SbpProblem f = make_problem(Nr, Ns, backend), c;
  Mat        P, Pa = assembled_prolongation(Nr / 2, Ns / 2);

  PCALL(SbpProblemCoarsen(f, &c));
  PCALL(SbpProblemCreateProlongation(c, f, &P));
  check_prolongation_exact(P, Nr, Ns);
  check_prolongation_random(P, Pa);
  PCALL(MatDestroy(&P));
  PCALL(MatDestroy(&Pa));
  PCALL(SbpProblemDestroy(&c));
  PCALL(SbpProblemDestroy(&f));
}

static void test_transfers(void **state)
{
  /* nested 2:1 in both directions: sides within 1.4 of each other (SbpProblemCoarseSizes()); the coarse grids need 4 intervals a side */
  const PetscInt sizes[][2] = {{8, 8}, {12, 16}, {16, 12}, {64, 48}};
  for (size_t t = 0; t < 4; t++) {
    check_transfers(sizes[t][0], sizes[t][1], SBP_BACKEND_DEVICE);
    check_transfers(sizes[t][0], sizes[t][1], SBP_BACKEND_HOST);
  }
}

/* ---------------------------------------------------------------- the preconditioner */

/* CG + sbpmg to 1e-8 on A, several levels on these small grids on every device (a GPU's default coarse size is 129); set up */
static KSP mg_solver(Mat A, const char *smoother)
{
  const SbpTestMGSettings set = {smoother, 0, 32, pc_tune};

  return SbpTestMGCGSetUp(A, 1e-8, &set);
}

/* The V-cycle B is symmetric and positive definite: x^T B y = y^T B x, x^T B x > 0. */
static void check_vcycle_spd(const char *smoother, SbpBackend backend)
{
  SbpProblem p = make_problem(64, 32, backend);
  Mat        A;
  KSP        ksp;
  PC         pc;
  Vec        x, y;
  char       what[64];

  const SbpmgTestOption dbl[] = {{"-pc_sbpmg_precision", "double"}, {NULL, NULL}}; /* to rounding; the fp32 V-cycle: test_mg_precision.c */

  PCALL(SbpProblemCreateOperator(p, &A));
  SbpmgTestSetOptions(dbl);
  ksp = mg_solver(A, smoother);
  PCALL(KSPGetPC(ksp, &pc));
  SbpmgTestClearOptions(dbl);
  PCALL(MatCreateVecs(A, &x, &y));
  PCALL(PetscSNPrintf(what, sizeof(what), "%s %s", smoother, backend == SBP_BACKEND_DEVICE ? "device" : "host"));
  for (int r = 0; r < 3; r++) {
    SbpmgTestFillRandom(x, 10 + r);
    SbpmgTestFillRandom(y, 20 + r);
    SbpTestCheckSymmetric(pc, x, y, what);
  }
  SbpmgTestDestroyVecs(&x, &y, NULL);
  PCALL(KSPDestroy(&ksp));
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

static void test_vcycle_symmetric(void **state)
{
  check_vcycle_spd("chebyshev", SBP_BACKEND_DEVICE);
  check_vcycle_spd("jacobi", SBP_BACKEND_DEVICE);
  check_vcycle_spd("chebyshev", SBP_BACKEND_HOST);
  check_vcycle_spd("jacobi", SBP_BACKEND_HOST);
}

/* CG + sbpmg on the curved basin: at most 12 iterations to 1e-8 for N = 32..256, counts within 2 of each other; the solution
   agrees with CHOLMOD's to the solver tolerance. */
static PetscInt solve_and_compare(PetscInt N, SbpBackend backend, const char *smoother, PetscReal *relerr)
{
  SbpTestSystem s, d;
  PetscInt      its;

  SbpTestSystemCreate(make_problem(N, N, backend), PETSC_FALSE, &s);
  s.ksp = mg_solver(s.A, smoother);
  its   = SbpTestSystemSolve(&s);
  /* the direct solve on the assembled operator of the same problem */
  PCALL(PetscObjectReference((PetscObject)s.p));
  SbpTestSystemCreate(s.p, PETSC_TRUE, &d);
  d.ksp = SbpTestCholmod(d.A);
  PCALL(KSPSolve(d.ksp, d.g, d.u));
  *relerr = SbpmgTestRelDiffNorm(s.u, d.u, NORM_2);
  SbpTestSystemDestroy(&s);
  SbpTestSystemDestroy(&d);
  return its;
}

static void test_mesh_independence(void **state)
{
  const PetscInt Ns[] = {32, 64, 128, 256};
  PetscInt       lo = 1000, hi = 0;
  /* up to 16 sweeps a level on every device (a CPU's default): with a GPU's 4 the counts are 8..11, flat from 1024 on
     (docs/performance.md "The coarse solve on the device") */
  SbpmgTestSetOption("-pc_sbpmg_nu_max", "16");
  for (int k = 0; k < 4; k++) {
    PetscReal err;
    PetscInt  its = solve_and_compare(Ns[k], SBP_BACKEND_DEVICE, NULL, &err);
    print_message("  N = %4d: %d iterations, |u - u_cholmod|/|u_cholmod| = %.2e\n", (int)Ns[k], (int)its, err);
    if (its > 12) fail_msg("N = %d: %d iterations > 12", (int)Ns[k], (int)its);
    /* a relative residual of 1e-8 bounds the relative error by 1e-8 times the condition number's square root, roughly; ask for 1e-6 */
    if (!(err < 1e-6)) fail_msg("N = %d: CG + sbpmg differs from the direct solve by %g", (int)Ns[k], err);
    lo = PetscMin(lo, its);
    hi = PetscMax(hi, its);
  }
  SbpmgTestSetOption("-pc_sbpmg_nu_max", NULL);
  if (hi - lo > 2) fail_msg("iteration counts range over %d..%d", (int)lo, (int)hi);
}

/* The other smoothers converge too (the spec's Richardson is weak, so only ask for convergence), on host and device alike. */
static void test_other_smoothers(void **state)
{
  PetscReal err;
  PetscInt  its;

  its = solve_and_compare(64, SBP_BACKEND_DEVICE, "jacobi", &err);
  print_message("  jacobi: %d iterations, error vs direct %.2e\n", (int)its, err);
  assert_true(err < 1e-6);
  its = solve_and_compare(64, SBP_BACKEND_DEVICE, "richardson", &err);
  print_message("  richardson: %d iterations, error vs direct %.2e\n", (int)its, err);
  assert_true(err < 1e-6);
  pc_tune = "mg_inline_diag=1"; /* the GPU's default sweep, 1/diag computed in the kernel */
  its     = solve_and_compare(64, SBP_BACKEND_DEVICE, "chebyshev", &err);
  pc_tune = NULL;
  print_message("  chebyshev, inline diagonal: %d iterations, error vs direct %.2e\n", (int)its, err);
  assert_true(err < 1e-6);
  its = solve_and_compare(64, SBP_BACKEND_HOST, "chebyshev", &err);
  print_message("  chebyshev (host): %d iterations, error vs direct %.2e\n", (int)its, err);
  assert_true(err < 1e-6);
}

/* The host backend's V-cycle (the CPU column of the tuning table): fp64 vectors and coefficients, a 33-point coarse grid solved by
   CHOLMOD, at most 16 sweeps a level. A GPU's defaults (fp32, the dense coarse inverse, at most 3 sweeps) are another V-cycle, so the
   comparisons below ask the device for the host's. */
static void ask_for_host_algorithm(PetscBool on)
{
  SbpmgTestSetOption("-pc_sbpmg_precision", on ? "double" : NULL);
  SbpmgTestSetOption("-pc_sbpmg_coef_fp32", on ? "0" : NULL);
  SbpmgTestSetOption("-pc_sbpmg_coarse_solve", on ? "cholmod" : NULL);
  SbpmgTestSetOption("-pc_sbpmg_coarse_size", on ? "32" : NULL);
  SbpmgTestSetOption("-pc_sbpmg_nu_max", on ? "16" : NULL);
}

/* The device and host V-cycles are the same algorithm: the same iteration count and nearly the same iterates. */
static void test_device_matches_host(void **state)
{
  PetscReal e1, e2;
  PetscInt  i1, i2;

  ask_for_host_algorithm(PETSC_TRUE);
  i1 = solve_and_compare(128, SBP_BACKEND_DEVICE, NULL, &e1);
  i2 = solve_and_compare(128, SBP_BACKEND_HOST, NULL, &e2);
  ask_for_host_algorithm(PETSC_FALSE);
  assert_int_equal(i1, i2);
}

/* One kernel over all nodes (tuning sbp_split=0) instead of interior and rim apart: the same V-cycle, so a symmetric positive definite
   preconditioner, the host's iteration count and the direct solution. */
static void test_device_unsplit(void **state)
{
  PetscReal e1, e2;
  PetscInt  i1, i2 = solve_and_compare(128, SBP_BACKEND_HOST, NULL, &e2);

  kernel_split = PETSC_FALSE;
  check_vcycle_spd("chebyshev", SBP_BACKEND_DEVICE);
  ask_for_host_algorithm(PETSC_TRUE);
  i1 = solve_and_compare(128, SBP_BACKEND_DEVICE, NULL, &e1);
  ask_for_host_algorithm(PETSC_FALSE);
  kernel_split = PETSC_TRUE;
  assert_int_equal(i1, i2);
  if (!(e1 < 1e-6)) fail_msg("unsplit kernels: CG + sbpmg differs from the direct solve by %g", e1);
}

/* The level sweeps and residuals on fp32 coefficients (the default on a GPU) and on fp64 ones: both V-cycles are symmetric positive
   definite, give the same iteration count (+-1) and the direct solution; two sweeps per pass too. */
static void test_coef_precision(void **state)
{
  PetscReal e32, e64, epair;
  PetscInt  i32, i64, ipair;

  SbpmgTestSetOption("-pc_sbpmg_coef_fp32", "0");
  check_vcycle_spd("chebyshev", SBP_BACKEND_DEVICE);
  i64 = solve_and_compare(128, SBP_BACKEND_DEVICE, NULL, &e64);
  SbpmgTestSetOption("-pc_sbpmg_coef_fp32", "1");
  check_vcycle_spd("chebyshev", SBP_BACKEND_DEVICE);
  i32     = solve_and_compare(128, SBP_BACKEND_DEVICE, NULL, &e32);
  pc_tune = "mg_sweeps_per_pass=3"; /* the GPU's default: three sweeps per pass on the levels with the interior/rim split */
  check_vcycle_spd("chebyshev", SBP_BACKEND_DEVICE);
  ipair   = solve_and_compare(128, SBP_BACKEND_DEVICE, NULL, &epair);
  pc_tune = NULL;
  SbpmgTestSetOption("-pc_sbpmg_coef_fp32", NULL);
  print_message("  fp64 coefficients: %d iterations, error vs direct %.2e; fp32: %d, %.2e; three sweeps per pass: %d, %.2e\n", (int)i64, e64, (int)i32, e32,
                (int)ipair, epair);
  if (ipair != i32) fail_msg("three sweeps per pass: %d iterations against %d", (int)ipair, (int)i32);
  if (!(epair < 1e-6)) fail_msg("two sweeps per pass: error against the direct solve %g", epair);
  if (PetscAbsInt(i32 - i64) > 1) fail_msg("fp32 coefficients: %d iterations against %d with fp64", (int)i32, (int)i64);
  if (!(e32 < 1e-6 && e64 < 1e-6)) fail_msg("errors against the direct solve %g (fp32), %g (fp64)", e32, e64);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_fullweighting_identity), cmocka_unit_test(test_transfers),       cmocka_unit_test(test_vcycle_symmetric),
    cmocka_unit_test(test_mesh_independence),      cmocka_unit_test(test_other_smoothers), cmocka_unit_test(test_device_matches_host),
    cmocka_unit_test(test_device_unsplit),         cmocka_unit_test(test_coef_precision),
};

SBPMG_TEST_MAIN(help, tests)
