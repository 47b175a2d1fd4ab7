/* The sbpmg preconditioner: transfer identities, symmetry and definiteness of the V-cycle, mesh independence, agreement with
   the direct solve, PCMG options, bad input. */
#include "harness.h"
#include <petsc/private/pcmgimpl.h>
#include <unistd.h>

static const char help[] = "Tests of the sbpmg preconditioner (src/mg).\n";

static PetscBool kernel_split = PETSC_TRUE; /* the device kernels: interior and rim apart, or one over all nodes */

static PetscInt inner_rows = 1; /* rows of a column per work-item of the lean interior kernels */

static SbpProblem make_problem(PetscInt Nr, PetscInt Ns, SbpBackend backend)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetKernelSplit(p, kernel_split));
  PCALL(SbpProblemSetKernelShape(p, 0, inner_rows));
  PCALL(SbpProblemSetSizes(p, Nr, Ns));
  PCALL(SbpProblemSetBackend(p, backend));
  PCALL(SbpProblemSetUp(p));
  return p;
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

  PCALL(SbpSparse1DNorm(Nr, 2.0 / Nr, inverse, &Hr));
  PCALL(SbpSparse1DNorm(Ns, 2.0 / Ns, inverse, &Hs));
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

/* The transfer MatShell (device kernels and host loops) against the Kronecker-assembled P and P^T; P 1 = 1; bilinear exactness. */
static void check_transfers(PetscInt Nr, PetscInt Ns, SbpBackend backend)
{
  SbpProblem         f = make_problem(Nr, Ns, backend), c;
  Mat                P, Pa;
  Vec                xc, xf, yc, yf, rc, rf;
  PetscReal          nd, nr;
  const PetscScalar *a;

  PCALL(SbpProblemCoarsen(f, &c));
  PCALL(SbpProblemCreateProlongation(c, f, &P));
  Pa = assembled_prolongation(Nr / 2, Ns / 2);
  PCALL(MatCreateVecs(P, &xc, &xf));
  PCALL(MatCreateVecs(P, &yc, &yf));
  PCALL(MatCreateVecs(Pa, &rc, &rf));
  /* P 1_c = 1_f exactly */
  PCALL(VecSet(xc, 1));
  PCALL(VecSet(xf, NAN));
  PCALL(MatMult(P, xc, xf));
  PCALL(VecGetArrayRead(xf, &a));
  for (PetscInt k = 0; k < (Nr + 1) * (Ns + 1); k++)
    if (a[k] != 1) fail_msg("P 1 = %g at %d", a[k], (int)k);
  PCALL(VecRestoreArrayRead(xf, &a));
  /* bilinear functions are reproduced */
  {
    PetscScalar *v;
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
  }
  /* prolongation and restriction of random vectors against the assembled P */
  SbpmgTestFillRandom(xc, 3);
  SbpmgTestFillRandom(xf, 4);
  PCALL(MatMult(P, xc, yf));
  PCALL(VecCopy(xc, rc));
  PCALL(MatMult(Pa, rc, rf));
  {
    Vec d;
    PCALL(VecDuplicate(rf, &d));
    PCALL(VecCopy(yf, d));
    PCALL(VecAXPY(d, -1, rf));
    PCALL(VecNorm(d, NORM_INFINITY, &nd));
    PCALL(VecNorm(rf, NORM_INFINITY, &nr));
    if (nd > 1e-15 * nr) fail_msg("prolongation differs from the assembled P by %g", nd / nr);
    SbpmgTestFillRandom(xf, 5);
    PCALL(VecSet(yc, NAN));
    PCALL(MatMultTranspose(P, xf, yc));
    PCALL(VecCopy(xf, d));
    PCALL(MatMultTranspose(Pa, d, rc));
    PCALL(VecDestroy(&d));
    PCALL(VecDuplicate(rc, &d));
    PCALL(VecCopy(yc, d));
    PCALL(VecAXPY(d, -1, rc));
    PCALL(VecNorm(d, NORM_INFINITY, &nd));
    PCALL(VecNorm(rc, NORM_INFINITY, &nr));
    if (!(nd <= 1e-14 * nr)) fail_msg("restriction differs from the assembled P^T by %g", nd / nr);
    PCALL(VecDestroy(&d));
  }
  {
    Vec       z, w, d;
    PetscReal n1, n2;
    PCALL(VecDuplicate(yf, &z));
    PCALL(VecDuplicate(yf, &w));
    SbpmgTestFillRandom(z, 9);
    PCALL(MatMultAdd(P, xc, z, w)); /* w = z + P xc */
    PCALL(MatMult(P, xc, yf));
    PCALL(VecAXPY(yf, 1, z));
    PCALL(VecDuplicate(yf, &d));
    PCALL(VecWAXPY(d, -1, yf, w));
    PCALL(VecNorm(d, NORM_INFINITY, &n1));
    PCALL(VecNorm(w, NORM_INFINITY, &n2));
    if (n1 > 1e-14 * n2) fail_msg("MatMultAdd: %g", n1 / n2);
    PCALL(VecDestroy(&z));
    PCALL(VecDestroy(&w));
    PCALL(VecDestroy(&d));
  }
  PCALL(VecDestroy(&xc));
  PCALL(VecDestroy(&xf));
  PCALL(VecDestroy(&yc));
  PCALL(VecDestroy(&yf));
  PCALL(VecDestroy(&rc));
  PCALL(VecDestroy(&rf));
  PCALL(MatDestroy(&P));
  PCALL(MatDestroy(&Pa));
  PCALL(SbpProblemDestroy(&c));
  PCALL(SbpProblemDestroy(&f));
}

static void test_transfers(void **state)
{
  const PetscInt sizes[][2] = {{8, 8}, {8, 16}, {16, 8}, {64, 32}}; /* the coarse grids need 4 intervals a side */
  for (size_t t = 0; t < 4; t++) {
    check_transfers(sizes[t][0], sizes[t][1], SBP_BACKEND_DEVICE);
    check_transfers(sizes[t][0], sizes[t][1], SBP_BACKEND_HOST);
  }
}

/* ---------------------------------------------------------------- the preconditioner */

static void setup_solver(SbpProblem p, const char *smoother, Mat *A, KSP *ksp)
{
  PC pc;

  PCALL(SbpProblemCreateOperator(p, A));
  PCALL(KSPCreate(PETSC_COMM_SELF, ksp));
  PCALL(KSPSetOperators(*ksp, *A, *A));
  PCALL(KSPSetType(*ksp, KSPCG));
  PCALL(KSPSetTolerances(*ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 200));
  PCALL(KSPGetPC(*ksp, &pc));
  PCALL(PCSetType(pc, PCSBPMG));
  PCALL(PCSBPMGSetCoarseSize(pc, 32)); /* several levels on these small grids on every device (a GPU's default is 129) */
  if (smoother) {
    PetscInt idx;
    PCALL(SbpmgParseChoice("smoother", smoother, PCSBPMGSmootherTypes, &idx));
    PCALL(PCSBPMGSetSmoother(pc, (PCSBPMGSmootherType)idx));
  }
  PCALL(PCSetFromOptions(pc));
  PCALL(KSPSetUp(*ksp));
}

/* The V-cycle B is symmetric and positive definite: x^T B y = y^T B x, x^T B x > 0. */
static void check_vcycle_spd(const char *smoother, SbpBackend backend)
{
  SbpProblem p = make_problem(64, 32, backend);
  Mat        A;
  KSP        ksp;
  PC         pc;
  Vec        x, y, Bx, By;

  setup_solver(p, smoother, &A, &ksp);
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(MatCreateVecs(A, &x, &y));
  PCALL(VecDuplicate(x, &Bx));
  PCALL(VecDuplicate(x, &By));
  for (int r = 0; r < 3; r++) {
    PetscScalar xBy, yBx, xBx;
    SbpmgTestFillRandom(x, 10 + r);
    SbpmgTestFillRandom(y, 20 + r);
    PCALL(PCApply(pc, x, Bx));
    PCALL(PCApply(pc, y, By));
    PCALL(VecDot(x, By, &xBy));
    PCALL(VecDot(y, Bx, &yBx));
    PCALL(VecDot(x, Bx, &xBx));
    print_message("  %s %s: x^T B y = %.15e, y^T B x = %.15e, x^T B x = %.6e\n", smoother, backend == SBP_BACKEND_DEVICE ? "device" : "host", xBy, yBx, xBx);
    if (PetscAbsScalar(xBy - yBx) > 1e-12 * PetscMax(PetscAbsScalar(xBy), PetscAbsScalar(yBx))) fail_msg("V-cycle not symmetric: %g vs %g", xBy, yBx);
    if (!(xBx > 0)) fail_msg("V-cycle not positive: x^T B x = %g", xBx);
  }
  PCALL(VecDestroy(&x));
  PCALL(VecDestroy(&y));
  PCALL(VecDestroy(&Bx));
  PCALL(VecDestroy(&By));
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
  SbpProblem         p = make_problem(N, N, backend);
  Mat                A, Aa;
  KSP                ksp, direct;
  PC                 dpc;
  Vec                g, u, ud, uh;
  PetscInt           its;
  KSPConvergedReason reason;
  PetscReal          nd, nu;

  setup_solver(p, smoother, &A, &ksp);
  PCALL(MatCreateVecs(A, &u, &g));
  PCALL(SbpProblemComputeRHS(p, g));
  PCALL(KSPSolve(ksp, g, u));
  PCALL(KSPGetIterationNumber(ksp, &its));
  PCALL(KSPGetConvergedReason(ksp, &reason));
  if (reason <= 0) fail_msg("N = %d: CG + sbpmg did not converge (%s)", (int)N, KSPConvergedReasons[reason]);
  /* the direct solve on the assembled operator */
  PCALL(SbpProblemCreateAssembledOperator(p, &Aa));
  PCALL(KSPCreate(PETSC_COMM_SELF, &direct));
  PCALL(KSPSetOperators(direct, Aa, Aa));
  PCALL(KSPSetType(direct, KSPPREONLY));
  PCALL(KSPGetPC(direct, &dpc));
  PCALL(PCSetType(dpc, PCCHOLESKY));
  PCALL(PCFactorSetMatSolverType(dpc, MATSOLVERCHOLMOD));
  PCALL(MatCreateVecs(Aa, &ud, &uh));
  PCALL(VecCopy(g, uh));
  PCALL(KSPSolve(direct, uh, ud));
  PCALL(VecCopy(u, uh));
  PCALL(VecAXPY(uh, -1, ud));
  PCALL(VecNorm(uh, NORM_2, &nd));
  PCALL(VecNorm(ud, NORM_2, &nu));
  *relerr = nd / nu;
  PCALL(VecDestroy(&g));
  PCALL(VecDestroy(&u));
  PCALL(VecDestroy(&ud));
  PCALL(VecDestroy(&uh));
  PCALL(KSPDestroy(&ksp));
  PCALL(KSPDestroy(&direct));
  PCALL(MatDestroy(&A));
  PCALL(MatDestroy(&Aa));
  PCALL(SbpProblemDestroy(&p));
  return its;
}

static void test_mesh_independence(void **state)
{
  const PetscInt Ns[] = {32, 64, 128, 256};
  PetscInt       lo = 1000, hi = 0;
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
  SbpmgTestSetOption("-pc_sbpmg_inline_diag", "1"); /* the GPU's default sweep, 1/diag computed in the kernel */
  its = solve_and_compare(64, SBP_BACKEND_DEVICE, "chebyshev", &err);
  SbpmgTestSetOption("-pc_sbpmg_inline_diag", NULL);
  print_message("  chebyshev, inline diagonal: %d iterations, error vs direct %.2e\n", (int)its, err);
  assert_true(err < 1e-6);
  its = solve_and_compare(64, SBP_BACKEND_HOST, "chebyshev", &err);
  print_message("  chebyshev (host): %d iterations, error vs direct %.2e\n", (int)its, err);
  assert_true(err < 1e-6);
}

/* The device and host V-cycles are the same algorithm: the same iteration count and nearly the same iterates. */
static void test_device_matches_host(void **state)
{
  PetscReal e1, e2;
  PetscInt  i1 = solve_and_compare(128, SBP_BACKEND_DEVICE, NULL, &e1), i2 = solve_and_compare(128, SBP_BACKEND_HOST, NULL, &e2);
  assert_int_equal(i1, i2);
}

/* One kernel over all nodes (-sbp_split 0) instead of interior and rim apart: the same V-cycle, so a symmetric positive definite
   preconditioner, the host's iteration count and the direct solution. */
static void test_device_unsplit(void **state)
{
  PetscReal e1, e2;
  PetscInt  i1, i2 = solve_and_compare(128, SBP_BACKEND_HOST, NULL, &e2);

  kernel_split = PETSC_FALSE;
  check_vcycle_spd("chebyshev", SBP_BACKEND_DEVICE);
  i1           = solve_and_compare(128, SBP_BACKEND_DEVICE, NULL, &e1);
  kernel_split = PETSC_TRUE;
  assert_int_equal(i1, i2);
  if (!(e1 < 1e-6)) fail_msg("unsplit kernels: CG + sbpmg differs from the direct solve by %g", e1);
}

/* A smoother on M of the given type: 1/diag inline or stored, fp32 coefficients (single), all sweeps in one launch when the grid has
   at most block_max nodes, pass sweeps per pass over the data. */
static PC make_smoother_of(Mat M, PCSBPMGSmootherType type, PetscBool inline_diag, PetscBool single, PetscInt block_max, PetscInt pass)
{
  PC pc;
  PCALL(PCCreate(PETSC_COMM_SELF, &pc));
  PCALL(PCSetType(pc, PCSBPMGSMOOTHER));
  PCALL(PCSBPMGSmootherConfigure(pc, type, 0.1, 1.1, 0, 10, inline_diag, single, block_max, pass));
  PCALL(PCSetOperators(pc, M, M));
  PCALL(PCSetUp(pc));
  return pc;
}

/* A Chebyshev smoother on M: 1/diag inline or stored, all sweeps in one launch when the grid has at most block_max nodes. */
static PC make_smoother(Mat M, PetscBool inline_diag, PetscInt block_max)
{
  return make_smoother_of(M, PC_SBPMG_CHEBYSHEV, inline_diag, PETSC_FALSE, block_max, 1);
}

/* its sweeps of pc from x = guess (or from zero: x is NaN on entry, and must not be read) */
static void run_sweeps(PC pc, Vec b, Vec guess, Vec x, PetscInt its)
{
  PetscInt                    outits;
  PCRichardsonConvergedReason reason;

  if (guess)
    PCALL(VecCopy(guess, x));
  else
    PCALL(VecSet(x, NAN));
  PCALL(PCApplyRichardson(pc, b, x, NULL, 0, 0, 0, its, guess ? PETSC_FALSE : PETSC_TRUE, &outits, &reason));
}

/* A problem with the interior/rim split at every size, the work-group tx x ty of the passes and the faces bc ("DDNN": face 1..4). */
static SbpProblem make_pass_problem(PetscInt Nr, PetscInt Ns, SbpBackend backend, PetscInt tx, PetscInt ty, const char *bc)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetKernelShape(p, 0, 1));
  PCALL(SbpProblemSetPassTile(p, tx, ty));
  PCALL(SbpProblemSetSizes(p, Nr, Ns));
  for (PetscInt f = 0; f < 4; f++) PCALL(SbpProblemSetBC(p, f + 1, bc[f] == 'D' ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN));
  PCALL(SbpProblemSetBackend(p, backend));
  PCALL(SbpProblemSetUp(p));
  return p;
}

/* A smoother with pass sweeps per pass on a problem of work-group tx x ty: its set-up fails with the given error. */
static void expect_pass_error(PetscInt tx, PetscInt ty, PetscInt pass, PetscErrorCode code, const char *msg)
{
  SbpProblem p = make_pass_problem(48, 40, SBP_BACKEND_DEVICE, tx, ty, "DDNN");
  Mat        M;
  PC         pc;
  PCALL(SbpProblemCreateOperator(p, &M));
  PCALL(PCCreate(PETSC_COMM_SELF, &pc));
  PCALL(PCSetType(pc, PCSBPMGSMOOTHER));
  PCALL(PCSBPMGSmootherConfigure(pc, PC_SBPMG_CHEBYSHEV, 0.1, 1.1, 0, 10, PETSC_TRUE, PETSC_FALSE, 0, pass));
  PCALL(PCSetOperators(pc, M, M));
  EXPECT_ERROR(PCSetUp(pc), code, msg);
  PCALL(PCDestroy(&pc));
  PCALL(MatDestroy(&M));
  PCALL(SbpProblemDestroy(&p));
}

/* Two and three sweeps per pass (kernels/smooth.cl mg_smooth_pass: a tile and its ring in local memory; the rim of the core box by
   single sweeps) against the host sweeps (PETSc vector operations on the host operator) and against one sweep per pass: equal to
   rounding for 1..7 sweeps from zero and from a guess (so a single sweep or a pass of two first, then passes that do and do not
   keep the previous iterate), Chebyshev and Jacobi, 1/diag inline and stored, on tiles that do and do not divide the core, an empty
   core, Dirichlet and Neumann faces. With fp32 coefficients, against one sweep per pass on the same coefficients. */
static void test_pass_sweeps(void **state)
{
  const struct {
    PetscInt    Nr, Ns, tx, ty;
    const char *bc;
  } grids[] = {
      {48, 40, 10, 7, "DDNN"}, {61, 35, 32, 8, "NDDN"}, {9, 7, 5, 5, "DDDD"}, /* 9 x 7: the interior box 4 x 2 nodes, no core: all in the rim launches */
  };

  for (size_t gi = 0; gi < sizeof(grids) / sizeof(grids[0]); gi++) {
    SbpProblem ph = make_pass_problem(grids[gi].Nr, grids[gi].Ns, SBP_BACKEND_HOST, 16, 16, grids[gi].bc);
    SbpProblem pd = make_pass_problem(grids[gi].Nr, grids[gi].Ns, SBP_BACKEND_DEVICE, grids[gi].tx, grids[gi].ty, grids[gi].bc);
    Mat        Mh, Md;
    Vec        bh, gh, xh, bd, gd, x1, xm;
    PetscReal  worst_host = 0, worst_one = 0;

    PCALL(SbpProblemCreateOperator(ph, &Mh));
    PCALL(SbpProblemCreateOperator(pd, &Md));
    PCALL(MatCreateVecs(Mh, &xh, &bh));
    PCALL(VecDuplicate(bh, &gh));
    PCALL(MatCreateVecs(Md, &x1, &bd));
    PCALL(VecDuplicate(bd, &gd));
    PCALL(VecDuplicate(bd, &xm));
    SbpmgTestFillRandom(bh, 31);
    SbpmgTestFillRandom(bd, 31);
    SbpmgTestFillRandom(gh, 32);
    SbpmgTestFillRandom(gd, 32);
    for (int type = 0; type < 2; type++)
      for (int inl = 0; inl < 2; inl++) {
        PCSBPMGSmootherType t   = type ? PC_SBPMG_JACOBI : PC_SBPMG_CHEBYSHEV;
        PC                  sh  = make_smoother_of(Mh, t, PETSC_FALSE, PETSC_FALSE, 0, 1);
        PC                  one = make_smoother_of(Md, t, inl ? PETSC_TRUE : PETSC_FALSE, PETSC_FALSE, 0, 1);

        for (PetscInt m = 2; m <= 3; m++) {
          PC       pm = make_smoother_of(Md, t, inl ? PETSC_TRUE : PETSC_FALSE, PETSC_FALSE, 0, m);
          PetscInt on;
          PCALL(PCSBPMGSmootherGetPass(pm, &on));
          if (on != m) fail_msg("%d x %d: %d sweeps per pass asked, %d in use", (int)grids[gi].Nr, (int)grids[gi].Ns, (int)m, (int)on);
          for (PetscInt its = 1; its <= 7; its++)
            for (int guess = 0; guess < 2; guess++) {
              PetscReal dh, d1;
              run_sweeps(sh, bh, guess ? gh : NULL, xh, its);
              run_sweeps(one, bd, guess ? gd : NULL, x1, its);
              run_sweeps(pm, bd, guess ? gd : NULL, xm, its);
              dh = SbpmgTestRelDiff(xm, xh);
              d1 = SbpmgTestRelDiff(xm, x1);
              if (!(dh < 1e-12 && d1 < 1e-13))
                fail_msg("%d x %d %s, %s 1/diag, %d sweeps from %s, %d per pass: differ from the host sweeps by %g, from one per pass by %g", (int)grids[gi].Nr,
                         (int)grids[gi].Ns, type ? "Jacobi" : "Chebyshev", inl ? "inline" : "stored", (int)its, guess ? "a guess" : "zero", (int)m, dh, d1);
              worst_host = PetscMax(worst_host, dh);
              worst_one  = PetscMax(worst_one, d1);
            }
          PCALL(PCDestroy(&pm));
        }
        PCALL(PCDestroy(&sh));
        PCALL(PCDestroy(&one));
      }
    for (PetscInt m = 2; m <= 3; m++) { /* fp32 coefficients */
      PC one = make_smoother_of(Md, PC_SBPMG_CHEBYSHEV, PETSC_TRUE, PETSC_TRUE, 0, 1);
      PC pm  = make_smoother_of(Md, PC_SBPMG_CHEBYSHEV, PETSC_TRUE, PETSC_TRUE, 0, m);
      for (PetscInt its = 3; its <= 6; its += 3) {
        PetscReal d1;
        run_sweeps(one, bd, gd, x1, its);
        run_sweeps(pm, bd, gd, xm, its);
        d1 = SbpmgTestRelDiff(xm, x1);
        if (!(d1 < 1e-13))
          fail_msg("%d x %d fp32 coefficients, %d sweeps, %d per pass: differ from one per pass by %g", (int)grids[gi].Nr, (int)grids[gi].Ns, (int)its, (int)m,
                   d1);
        worst_one = PetscMax(worst_one, d1);
      }
      PCALL(PCDestroy(&one));
      PCALL(PCDestroy(&pm));
    }
    print_message("  %d x %d (%s, work-group %d x %d): 2 and 3 sweeps per pass against the host %.1e, against one per pass %.1e\n", (int)grids[gi].Nr,
                  (int)grids[gi].Ns, grids[gi].bc, (int)grids[gi].tx, (int)grids[gi].ty, worst_host, worst_one);
    PCALL(VecDestroy(&bh));
    PCALL(VecDestroy(&gh));
    PCALL(VecDestroy(&xh));
    PCALL(VecDestroy(&bd));
    PCALL(VecDestroy(&gd));
    PCALL(VecDestroy(&x1));
    PCALL(VecDestroy(&xm));
    PCALL(MatDestroy(&Mh));
    PCALL(MatDestroy(&Md));
    PCALL(SbpProblemDestroy(&ph));
    PCALL(SbpProblemDestroy(&pd));
  }
  expect_pass_error(1024, 1024, 2, PETSC_ERR_SUP, "Work-group 1024 x 1024 (-sbp_pass_wg) has 1048576 work-items; the device runs mg_smooth_pass with at most");
  expect_pass_error(16, 4, 3, PETSC_ERR_ARG_OUTOFRANGE,
                    "Work-group 16 x 4 (-sbp_pass_wg) holds no tile for 3 sweeps per pass (-pc_sbpmg_sweeps_per_pass): each side needs more than 4 work-items");
}

/* One Chebyshev sweep from zero is x = D^-1 b / theta. The device sweep that computes 1/diag inline (by an fp32 reciprocal and two
   Newton steps, kernels/smooth.cl mg_recip) against the one that reads 1/diag from a vector made by an IEEE division on the host:
   equal to rounding, on the interior kernel, the rim and the single kernel. Then 5 and 6 sweeps (from zero and from a guess) in one
   launch of one work-group (mg_smooth_block) against a launch per sweep: the same arithmetic, so the same result. */
static void test_inline_reciprocal(void **state)
{
  for (int split = 0; split < 2; split++) {
    SbpProblem p;
    Mat        M;
    Vec        b, x[2], g;
    PetscReal  err;

    kernel_split = split ? PETSC_TRUE : PETSC_FALSE;
    p            = make_problem(48, 40, SBP_BACKEND_DEVICE);
    PCALL(SbpProblemCreateOperator(p, &M));
    PCALL(MatCreateVecs(M, &x[0], &b));
    PCALL(VecDuplicate(b, &x[1]));
    PCALL(VecDuplicate(b, &g));
    SbpmgTestFillRandom(b, 99);
    SbpmgTestFillRandom(g, 98);
    for (int inl = 0; inl < 2; inl++) {
      PC pc = make_smoother(M, inl ? PETSC_TRUE : PETSC_FALSE, 0);
      PCALL(VecSet(x[inl], NAN));
      PCALL(PCApply(pc, b, x[inl]));
      PCALL(PCDestroy(&pc));
    }
    err = SbpmgTestRelDiff(x[1], x[0]);
    print_message("  %s: inline reciprocal against the stored 1/diag: %.2e\n", split ? "interior and rim" : "one kernel", err);
    if (!(err < 1e-15)) fail_msg("inline 1/diag differs from the stored one by %g", err);
    for (PetscInt its = 5; its <= 6; its++)
      for (int guess = 0; guess < 2; guess++) {
        for (int blk = 0; blk < 2; blk++) {
          PC                          pc = make_smoother(M, PETSC_TRUE, blk ? 100000 : 0);
          PetscInt                    outits;
          PCRichardsonConvergedReason reason;
          if (guess)
            PCALL(VecCopy(g, x[blk]));
          else
            PCALL(VecSet(x[blk], NAN)); /* not read */
          PCALL(PCApplyRichardson(pc, b, x[blk], NULL, 0, 0, 0, its, guess ? PETSC_FALSE : PETSC_TRUE, &outits, &reason));
          PCALL(PCDestroy(&pc));
        }
        err = SbpmgTestRelDiff(x[1], x[0]);
        if (!(err < 1e-14)) fail_msg("%d sweeps from %s in one launch differ from a launch per sweep by %g", (int)its, guess ? "a guess" : "zero", err);
      }
    PCALL(VecDestroy(&b));
    PCALL(VecDestroy(&g));
    PCALL(VecDestroy(&x[0]));
    PCALL(VecDestroy(&x[1]));
    PCALL(MatDestroy(&M));
    PCALL(SbpProblemDestroy(&p));
  }
  kernel_split = PETSC_TRUE;
}

/* The level sweeps and residuals on fp32 coefficients (the default on the device) and on fp64 ones: both V-cycles are symmetric
   positive definite, give the same iteration count (+-1) and the direct solution; the walk of several rows per work-item too. */
static void test_coef_precision(void **state)
{
  PetscReal e32, e64, erows, epair;
  PetscInt  i32, i64, irows, ipair;

  SbpmgTestSetOption("-pc_sbpmg_coef_fp32", "0");
  check_vcycle_spd("chebyshev", SBP_BACKEND_DEVICE);
  i64 = solve_and_compare(128, SBP_BACKEND_DEVICE, NULL, &e64);
  SbpmgTestSetOption("-pc_sbpmg_coef_fp32", "1");
  check_vcycle_spd("chebyshev", SBP_BACKEND_DEVICE);
  i32        = solve_and_compare(128, SBP_BACKEND_DEVICE, NULL, &e32);
  inner_rows = 5;
  irows      = solve_and_compare(128, SBP_BACKEND_DEVICE, NULL, &erows);
  inner_rows = 1;
  SbpmgTestSetOption("-pc_sbpmg_sweeps_per_pass", "2"); /* the GPU's default: two sweeps per pass on the levels with the interior/rim split */
  check_vcycle_spd("chebyshev", SBP_BACKEND_DEVICE);
  ipair = solve_and_compare(128, SBP_BACKEND_DEVICE, NULL, &epair);
  SbpmgTestSetOption("-pc_sbpmg_sweeps_per_pass", NULL);
  SbpmgTestSetOption("-pc_sbpmg_coef_fp32", NULL);
  print_message(
      "  fp64 coefficients: %d iterations, error vs direct %.2e; fp32: %d, %.2e; fp32 and 5 rows per work-item: %d, %.2e; two sweeps per pass: %d, %.2e\n",
      (int)i64, e64, (int)i32, e32, (int)irows, erows, (int)ipair, epair);
  if (ipair != i32) fail_msg("two sweeps per pass: %d iterations against %d", (int)ipair, (int)i32);
  if (!(epair < 1e-6)) fail_msg("two sweeps per pass: error against the direct solve %g", epair);
  if (PetscAbsInt(i32 - i64) > 1) fail_msg("fp32 coefficients: %d iterations against %d with fp64", (int)i32, (int)i64);
  if (irows != i32) fail_msg("5 rows per work-item: %d iterations against %d", (int)irows, (int)i32);
  if (!(e32 < 1e-6 && e64 < 1e-6 && erows < 1e-6)) fail_msg("errors against the direct solve %g (fp32), %g (fp64), %g (rows)", e32, e64, erows);
}

/* PCMG's options still apply: a W-cycle, PETSc's Chebyshev/Jacobi smoother on the levels. */
static void test_pcmg_options(void **state)
{
  {
    SbpProblem p = make_problem(64, 64, SBP_BACKEND_DEVICE);
    Mat        A;
    KSP        ksp, smooth;
    PC         pc;
    KSPType    type;
    Vec        u, g;
    PetscInt   levels;

    PCALL(SbpProblemCreateOperator(p, &A));
    PCALL(KSPCreate(PETSC_COMM_SELF, &ksp));
    PCALL(KSPSetOperators(ksp, A, A));
    PCALL(KSPGetPC(ksp, &pc));
    PCALL(PCSetType(pc, PCSBPMG));
    SbpmgTestSetOption("-mg_levels_ksp_type", "chebyshev");
    SbpmgTestSetOption("-mg_levels_pc_type", "jacobi");
    SbpmgTestSetOption("-pc_mg_cycle_type", "w");
    SbpmgTestSetOption("-pc_sbpmg_levels", "3");
    PCALL(KSPSetFromOptions(ksp));
    PCALL(KSPSetUp(ksp));
    SbpmgTestSetOption("-mg_levels_ksp_type", NULL);
    SbpmgTestSetOption("-mg_levels_pc_type", NULL);
    SbpmgTestSetOption("-pc_mg_cycle_type", NULL);
    SbpmgTestSetOption("-pc_sbpmg_levels", NULL);
    PCALL(PCSBPMGGetLevels(pc, &levels));
    assert_int_equal(levels, 3);
    PCALL(PCMGGetSmoother(pc, 2, &smooth));
    PCALL(KSPGetType(smooth, &type));
    assert_string_equal(type, KSPCHEBYSHEV);
    /* PETSc 3.18 has no getter for the cycle type: read PCMG's level data */
    for (PetscInt l = 0; l < levels; l++) assert_int_equal(((PC_MG *)pc->data)->levels[l]->cycles, PC_MG_CYCLE_W);
    PCALL(MatCreateVecs(A, &u, &g));
    PCALL(SbpProblemComputeRHS(p, g));
    PCALL(KSPSolve(ksp, g, u));
    {
      KSPConvergedReason reason;
      PCALL(KSPGetConvergedReason(ksp, &reason));
      assert_true(reason > 0);
    }
    PCALL(VecDestroy(&u));
    PCALL(VecDestroy(&g));
    PCALL(KSPDestroy(&ksp));
    PCALL(MatDestroy(&A));
    PCALL(SbpProblemDestroy(&p));
  }
}

/* ---------------------------------------------------------------- the coarse level */

/* CHOLMOD's factor type (Common.supernodal: 0 simplicial, 1 automatic, 2 supernodal) as the factor's view prints it */
static int cholmod_supernodal(KSP ksp)
{
  PC          pc, cpc;
  KSP         cksp;
  Mat         F;
  PetscViewer v;
  char        path[] = "/tmp/sbpmg-test-cholmod-XXXXXX", line[512];
  int         fd, value = -1;
  FILE       *fp;

  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCMGGetCoarseSolve(pc, &cksp));
  PCALL(KSPGetPC(cksp, &cpc));
  PCALL(PCFactorGetMatrix(cpc, &F));
  fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  PCALL(PetscViewerASCIIOpen(PETSC_COMM_SELF, path, &v));
  PCALL(PetscViewerPushFormat(v, PETSC_VIEWER_ASCII_INFO));
  PCALL(MatView(F, v));
  PCALL(PetscViewerPopFormat(v));
  PCALL(PetscViewerDestroy(&v));
  fp = fopen(path, "r");
  assert_non_null(fp);
  while (fgets(line, sizeof(line), fp)) {
    const char *c = strstr(line, "Common.supernodal ");
    if (c) value = atoi(c + strlen("Common.supernodal "));
  }
  fclose(fp);
  remove(path);
  return value;
}

/* The default coarse size (129 points per side on a GPU, 32 elsewhere) decides the levels of a 256^2 grid; the coarse solve takes
   CHOLMOD's simplicial factor unless the options name another, and the option set for it is gone after the set-up. */
static void test_coarse_defaults(void **state)
{
  SbpProblem p = make_problem(256, 256, SBP_BACKEND_DEVICE);
  Mat        A;
  KSP        ksp;
  PC         pc;
  PetscBool  gpu, set;
  PetscInt   levels;
  int        supernodal;

  PCALL(SbpmgCLIsGPU(p->cl, &gpu));
  PCALL(SbpProblemCreateOperator(p, &A));
  for (int user = 0; user < 2; user++) {
    PCALL(KSPCreate(PETSC_COMM_SELF, &ksp));
    PCALL(KSPSetOperators(ksp, A, A));
    PCALL(KSPGetPC(ksp, &pc));
    PCALL(PCSetType(pc, PCSBPMG));
    if (user) SbpmgTestSetOption("-mg_coarse_mat_cholmod_factor", "SUPERNODAL");
    PCALL(KSPSetFromOptions(ksp));
    PCALL(KSPSetUp(ksp));
    PCALL(PCSBPMGGetLevels(pc, &levels));
    supernodal = cholmod_supernodal(ksp);
    print_message("  %s, %s factor: %d levels, Common.supernodal %d\n", gpu ? "GPU" : "CPU", user ? "user's" : "default", (int)levels, supernodal);
    assert_int_equal(levels, gpu ? 2 : 5); /* 257 -> 129 points, or 257 -> 129 -> 65 -> 33 -> 17 */
    assert_int_equal(supernodal, user ? 2 : 0);
    PCALL(PetscOptionsHasName(NULL, NULL, "-mg_coarse_mat_cholmod_factor", &set));
    assert_int_equal(set, user ? PETSC_TRUE : PETSC_FALSE);
    if (user) SbpmgTestSetOption("-mg_coarse_mat_cholmod_factor", NULL);
    PCALL(KSPDestroy(&ksp));
  }
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

/* ---------------------------------------------------------------- bad input */

static void test_bad_input(void **state)
{
  SbpProblem p = make_problem(48, 24, SBP_BACKEND_DEVICE);
  Mat        A, B;
  KSP        ksp;
  PC         pc;

  PCALL(SbpProblemCreateOperator(p, &A));
  PCALL(KSPCreate(PETSC_COMM_SELF, &ksp));
  PCALL(KSPSetOperators(ksp, A, A));
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCSetType(pc, PCSBPMG));
  PCALL(PCSBPMGSetLevels(pc, 5));
  EXPECT_ERROR(KSPSetUp(ksp), PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_levels 5 is too many for the 48 x 24 grid: it halves into at most 3 levels (down to 12 x 6");
  PCALL(KSPDestroy(&ksp));

  /* bad option values are reported at set-up */
  {
    const char *bad[][3] = {
        {"-pc_sbpmg_smoother", "gauss-seidel", "Unknown value 'gauss-seidel' for -pc_sbpmg_smoother: choose one of chebyshev, jacobi, richardson"},
        {"-pc_sbpmg_nu", "0", "Smoothing sweeps must be >= 1: got 0 pre, 0 post"},
        {"-pc_sbpmg_cheby_range", "1.1,0.1", "Chebyshev range [1.1, 0.1] must satisfy 0 < lo < hi"},
        {"-pc_sbpmg_cheby_range", "0.5", "-pc_sbpmg_cheby_range 0.5: give two numbers lo,hi"},
        {"-pc_sbpmg_coarse_size", "3", "-pc_sbpmg_coarse_size 3 must be >= 5"},
        {"-pc_sbpmg_nu_growth", "0.5", "-pc_sbpmg_nu_growth 0.5 must be >= 1"},
        {"-pc_sbpmg_block_max", "-1", "-pc_sbpmg_block_max -1 must be >= 0"},
        {"-pc_sbpmg_sweeps_per_pass", "4", "-pc_sbpmg_sweeps_per_pass 4 must be 1, 2 or 3"},
    };
    const PetscErrorCode codes[] = {PETSC_ERR_ARG_UNKNOWN_TYPE, PETSC_ERR_ARG_OUTOFRANGE, PETSC_ERR_ARG_OUTOFRANGE, PETSC_ERR_ARG_WRONG,
                                    PETSC_ERR_ARG_OUTOFRANGE,   PETSC_ERR_ARG_OUTOFRANGE, PETSC_ERR_ARG_OUTOFRANGE, PETSC_ERR_ARG_OUTOFRANGE};
    for (int b = 0; b < 8; b++) {
      PCALL(KSPCreate(PETSC_COMM_SELF, &ksp));
      PCALL(KSPSetOperators(ksp, A, A));
      SbpmgTestSetOption("-pc_type", "sbpmg");
      SbpmgTestSetOption(bad[b][0], bad[b][1]);
      PCALL(KSPSetFromOptions(ksp));
      EXPECT_ERROR(KSPSetUp(ksp), codes[b], bad[b][2]);
      SbpmgTestSetOption(bad[b][0], NULL);
      SbpmgTestSetOption("-pc_type", NULL);
      PCALL(KSPDestroy(&ksp));
    }
  }

  /* a matrix that is not an SBP-SAT operator */
  PCALL(MatCreateSeqAIJ(PETSC_COMM_SELF, 10, 10, 1, NULL, &B));
  for (PetscInt i = 0; i < 10; i++) PCALL(MatSetValue(B, i, i, 2, INSERT_VALUES));
  PCALL(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PCALL(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PCALL(PetscObjectSetName((PetscObject)B, "diag2"));
  PCALL(KSPCreate(PETSC_COMM_SELF, &ksp));
  PCALL(KSPSetOperators(ksp, B, B));
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCSetType(pc, PCSBPMG));
  EXPECT_ERROR(KSPSetUp(ksp), PETSC_ERR_ARG_WRONG, "PCSBPMG needs an SBP-SAT operator: the preconditioning matrix diag2 of type seqaij");
  PCALL(KSPDestroy(&ksp));
  PCALL(MatDestroy(&B));
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_fullweighting_identity), cmocka_unit_test(test_transfers),         cmocka_unit_test(test_vcycle_symmetric),
    cmocka_unit_test(test_mesh_independence),      cmocka_unit_test(test_other_smoothers),   cmocka_unit_test(test_device_matches_host),
    cmocka_unit_test(test_device_unsplit),         cmocka_unit_test(test_pcmg_options),      cmocka_unit_test(test_bad_input),
    cmocka_unit_test(test_coef_precision),         cmocka_unit_test(test_inline_reciprocal), cmocka_unit_test(test_pass_sweeps),
    cmocka_unit_test(test_coarse_defaults),
};

SBPMG_TEST_MAIN(help, tests)
