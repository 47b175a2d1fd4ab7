/* SBP-SAT on several MPI ranks (run under mpiexec -n 2 or more): the host path, the assembled reference and the device path
   (ghosts exchanged between the devices) give the results of one rank; an operator apply moves only the halo strips between
   host and device. On 4 ranks the uneven cases also run on a 3-rank sub-communicator. */
#include "test_sbp_common.h"

static const char help[] = "SBP-SAT and sbpmg on several MPI ranks against one rank.\n";

/* x(i,j) = sin(0.37 i + 0.11 j + phase) + 0.2 cos(0.05 i j): the same values whatever the decomposition */
static void fill_analytic_phase(SbpProblem p, Vec x, PetscReal phase)
{
  PetscScalar **a;

  PCALL(DMDAVecGetArray(SbpTestDM(p), x, &a));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) a[j][i] = PetscSinReal(0.37 * i + 0.11 * j + phase) + 0.2 * PetscCosReal(0.05 * i * j);
  PCALL(DMDAVecRestoreArray(SbpTestDM(p), x, &a));
}

static void fill_analytic(SbpProblem p, Vec x)
{
  fill_analytic_phase(p, x, 0);
}

/* -1: the default threshold of the overlapped exchange (no overlap for the grids of these tests); 0: always overlap */
static PetscInt overlap_min = -1;

static SbpProblem make_bc(MPI_Comm comm, PetscInt Nr, PetscInt Ns, const char *bc, SbpBackend backend)
{
  return SbpTestProblem(comm, Nr, Ns, bc, SBP_MAPPING_CURVED, backend, overlap_min == 0 ? "sbp_overlap_min=0" : NULL);
}

static SbpProblem make(MPI_Comm comm, PetscInt Nr, PetscInt Ns, SbpBackend backend)
{
  return make_bc(comm, Nr, Ns, "DDNN", backend);
}

static PetscReal compare_on_zero(Vec par_nat0, Vec seq)
{
  return SbpmgTestCompareOnZero(PETSC_COMM_WORLD, par_nat0, seq);
}

/* The operator (assembled and matrix-free host), its diagonal and the right-hand side on all ranks == one rank. */
static void test_operator_parallel(void **state)
{
  const PetscInt sizes[][2] = {{32, 32}, {40, 24}, {12, 30}};
  PetscMPIInt    rank;

  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  for (size_t t = 0; t < 3; t++) {
    SbpProblem pp = make(PETSC_COMM_WORLD, sizes[t][0], sizes[t][1], SBP_BACKEND_HOST), ps = NULL;
    Mat        Ap, Mp, As = NULL;
    Vec        x, y, ya, d, g, nat[4], xs = NULL, ys = NULL, ds = NULL, gs = NULL;
    PetscReal  err[4], eH, eHs = 0;

    PCALL(SbpProblemCreateAssembledOperator(pp, &Ap));
    PCALL(SbpProblemCreateOperator(pp, &Mp));
    PCALL(MatCreateVecs(Mp, &x, &y));
    PCALL(VecDuplicate(y, &ya));
    PCALL(VecDuplicate(y, &d));
    PCALL(VecDuplicate(y, &g));
    fill_analytic(pp, x);
    PCALL(MatMult(Mp, x, y));
    PCALL(MatMult(Ap, x, ya));
    PCALL(MatGetDiagonal(Mp, d));
    PCALL(SbpProblemComputeRHS(pp, g));
    PCALL(SbpProblemComputeError(pp, x, &eH, NULL));
    nat[0] = SbpmgTestNaturalOnZero(SbpTestDM(pp), y);
    nat[1] = SbpmgTestNaturalOnZero(SbpTestDM(pp), ya);
    nat[2] = SbpmgTestNaturalOnZero(SbpTestDM(pp), d);
    nat[3] = SbpmgTestNaturalOnZero(SbpTestDM(pp), g);
    if (rank == 0) {
      ps = make(PETSC_COMM_SELF, sizes[t][0], sizes[t][1], SBP_BACKEND_HOST);
      PCALL(SbpProblemCreateAssembledOperator(ps, &As));
      PCALL(MatCreateVecs(As, &xs, &ys));
      PCALL(VecDuplicate(ys, &ds));
      PCALL(VecDuplicate(ys, &gs));
      fill_analytic(ps, xs);
      PCALL(MatMult(As, xs, ys));
      PCALL(MatGetDiagonal(As, ds));
      PCALL(SbpProblemComputeRHS(ps, gs));
      PCALL(SbpProblemComputeError(ps, xs, &eHs, NULL));
    }
    err[0] = compare_on_zero(nat[0], ys);
    err[1] = compare_on_zero(nat[1], ys);
    err[2] = compare_on_zero(nat[2], ds);
    err[3] = compare_on_zero(nat[3], gs);
    PCALL(MPI_Bcast(&eHs, 1, MPIU_REAL, 0, PETSC_COMM_WORLD));
    print_message("  %dx%d: matrix-free %.1e, assembled %.1e, diagonal %.1e, rhs %.1e, error norm %.1e\n", (int)sizes[t][0], (int)sizes[t][1], err[0], err[1],
                  err[2], err[3], PetscAbsReal(eH - eHs) / eHs);
    for (int k = 0; k < 4; k++)
      if (!(err[k] < 1e-12)) fail_msg("%dx%d quantity %d differs from one rank by %g", (int)sizes[t][0], (int)sizes[t][1], k, err[k]);
    if (!(PetscAbsReal(eH - eHs) < 1e-12 * eHs)) fail_msg("error norms differ: %g vs %g", eH, eHs);
    for (int k = 0; k < 4; k++) PCALL(VecDestroy(&nat[k]));
    PCALL(VecDestroy(&x));
    PCALL(VecDestroy(&y));
    PCALL(VecDestroy(&ya));
    PCALL(VecDestroy(&d));
    PCALL(VecDestroy(&g));
    PCALL(VecDestroy(&xs));
    PCALL(VecDestroy(&ys));
    PCALL(VecDestroy(&ds));
    PCALL(VecDestroy(&gs));
    PCALL(MatDestroy(&Ap));
    PCALL(MatDestroy(&Mp));
    PCALL(MatDestroy(&As));
    PCALL(SbpProblemDestroy(&pp));
    PCALL(SbpProblemDestroy(&ps));
  }
}

/* CG + sbpmg to 1e-10 on the problem of comm on the backend (on the host: the redundant CHOLMOD coarse solve): the iterations, the
   H-norm error and (unat0 not NULL) the solution in natural ordering on rank 0. */
static PetscInt solve(MPI_Comm comm, PetscInt Nr, PetscInt Ns, SbpBackend backend, PetscReal *eH, Vec *unat0)
{
  SbpTestSystem s;
  PetscInt      its;

  SbpTestSystemCreate(make(comm, Nr, Ns, backend), PETSC_FALSE, &s);
  s.ksp = SbpTestMGCG(s.A, 1e-10, 100);
  its   = SbpTestSystemSolve(&s);
  PCALL(SbpProblemComputeError(s.p, s.u, eH, NULL));
  if (unat0) *unat0 = SbpmgTestNaturalOnZero(SbpTestDM(s.p), s.u);
  SbpTestSystemDestroy(&s);
  return its;
}

static void test_mgcg_parallel(void **state)
{
  PetscReal e1, e2;
  PetscInt  i1 = solve(PETSC_COMM_WORLD, 128, 128, SBP_BACKEND_HOST, &e1, NULL), i2 = solve(PETSC_COMM_SELF, 128, 128, SBP_BACKEND_HOST, &e2, NULL);

  print_message("  all ranks: %d iterations, ||e||_H %.10e; one rank: %d iterations, %.10e\n", (int)i1, e1, (int)i2, e2);
  assert_int_equal(i1, i2);
  /* the reductions add in another order, so the iterates agree to the solver tolerance, not bit for bit */
  if (!(PetscAbsReal(e1 - e2) < 1e-7 * e2)) fail_msg("error norms %g and %g", e1, e2);
}

/* ---------------------------------------------------------------- the device path on several ranks */

/* The quantities the device operator computes from x and z, on the problem's ranks: M x (output poisoned with NaN first),
   z + M x, z + M x in place, z - M x (the fused residual), diag(M), and the four norms applied to x. */
#define NQ 9
static const char *const qnames[NQ] = {"M x", "z + M x", "z + M x in place", "z - M x", "diag(M)", "H x", "H^-1 x", "JH x", "(JH)^-1 x"};

static void device_quantities(SbpProblem p, Vec q[NQ])
{
  Mat M, H;
  Vec x, z;

  PCALL(SbpProblemCreateOperator(p, &M));
  PCALL(MatCreateVecs(M, &x, &z));
  fill_analytic(p, x);
  fill_analytic_phase(p, z, 1.3);
  for (int k = 0; k < NQ; k++) {
    PCALL(MatCreateVecs(M, NULL, &q[k]));
    PCALL(VecSet(q[k], NAN));
  }
  PCALL(MatMult(M, x, q[0]));
  PCALL(MatMultAdd(M, x, z, q[1]));
  PCALL(VecCopy(z, q[2]));
  PCALL(MatMultAdd(M, x, q[2], q[2]));
  PCALL(MatResidual(M, z, x, q[3]));
  PCALL(MatGetDiagonal(M, q[4]));
  for (int kind = 0; kind < 4; kind++) {
    PCALL(SbpProblemCreateNorm(p, (SbpNormType)kind, &H));
    PCALL(MatMult(H, x, q[5 + kind]));
    PCALL(MatDestroy(&H));
  }
  PCALL(VecDestroy(&x));
  PCALL(VecDestroy(&z));
  PCALL(MatDestroy(&M));
}

static void check_device_operator(MPI_Comm comm, PetscInt Nr, PetscInt Ns, const char *bc)
{
  SbpProblem  pp = make_bc(comm, Nr, Ns, bc, SBP_BACKEND_DEVICE), ps = NULL;
  Vec         qp[NQ], qs[NQ], nat[NQ];
  PetscMPIInt rank, size;
  PetscInt    m, n;
  PetscReal   worst = 0;

  PCALL(MPI_Comm_rank(comm, &rank));
  PCALL(MPI_Comm_size(comm, &size));
  PCALL(SbpProblemGetProcessGrid(pp, &m, &n));
  device_quantities(pp, qp);
  for (int k = 0; k < NQ; k++) nat[k] = SbpmgTestNaturalOnZero(SbpTestDM(pp), qp[k]);
  if (rank == 0) {
    ps = make_bc(PETSC_COMM_SELF, Nr, Ns, bc, SBP_BACKEND_DEVICE);
    device_quantities(ps, qs);
  }
  for (int k = 0; k < NQ; k++) {
    PetscReal err = SbpmgTestCompareOnZero(comm, nat[k], rank == 0 ? qs[k] : NULL);
    if (!(err <= 1e-14)) fail_msg("%dx%d %s on %d ranks (%dx%d): %s differs from one rank by %g", (int)Nr, (int)Ns, bc, size, (int)m, (int)n, qnames[k], err);
    worst = PetscMax(worst, err);
  }
  print_message("  %dx%d %s on %d ranks (%d x %d, %s): device operator, residual, diagonal, norms == one rank to %.1e\n", (int)Nr, (int)Ns, bc, size, (int)m,
                (int)n, pp->overlap ? "interior overlapped" : "exchange first", worst);
  for (int k = 0; k < NQ; k++) {
    PCALL(VecDestroy(&qp[k]));
    PCALL(VecDestroy(&nat[k]));
    if (rank == 0) PCALL(VecDestroy(&qs[k]));
  }
  PCALL(SbpProblemDestroy(&pp));
  PCALL(SbpProblemDestroy(&ps));
}

static void test_device_operator(void **state)
{
  SbpTestDeviceFirstUse();
  /* both ways of running the kernels around the exchange: the interior overlapped with it, then the rim (as large blocks do);
     the exchange first, then one launch */
  for (int o = 0; o < 2; o++) {
    overlap_min = o ? -1 : 0;
    /* every face condition; tiny grids where the interior box is empty or thin (every node on the rim); 2 x 2 rank grids
       (diagonal neighbours) on 4 ranks; uneven splits */
    check_device_operator(PETSC_COMM_WORLD, 32, 32, "DDNN");
    check_device_operator(PETSC_COMM_WORLD, 40, 24, "DDDD");
    check_device_operator(PETSC_COMM_WORLD, 12, 30, "NDDN");
    check_device_operator(PETSC_COMM_WORLD, 48, 96, "DNDN");
    check_device_operator(PETSC_COMM_WORLD, 36, 40, "NNNN");
    check_device_operator(PETSC_COMM_WORLD, 8, 8, "DDDD");
    check_device_operator(PETSC_COMM_WORLD, 4, 6, "DDDD");
    {
      MPI_Comm c3 = SbpTestThreeOfFourRanks(); /* uneven splits over 3 ranks */
      if (c3 != MPI_COMM_NULL) {
        check_device_operator(c3, 40, 24, "DDNN");
        check_device_operator(c3, 16, 50, "DDDD");
        PCALL(MPI_Comm_free(&c3));
      }
    }
  }
  overlap_min = -1;
}

/* SBP_BACKEND_AUTO picks the device on any number of ranks when one is found (PoCL always is). */
static void test_auto_backend(void **state)
{
  SbpProblem p = make(PETSC_COMM_WORLD, 16, 16, SBP_BACKEND_AUTO);
  SbpBackend b;
  Mat        M;
  Vec        x;
  PetscBool  isocl;

  PCALL(SbpProblemGetBackend(p, &b));
  assert_int_equal(b, SBP_BACKEND_DEVICE);
  PCALL(SbpProblemCreateOperator(p, &M));
  PCALL(MatCreateVecs(M, &x, NULL));
  PCALL(PetscObjectTypeCompare((PetscObject)x, VECMPIOPENCL, &isocl));
  assert_true(isocl);
  PCALL(VecDestroy(&x));
  PCALL(SbpProblemCreateVector(p, &x));
  PCALL(PetscObjectTypeCompare((PetscObject)x, VECMPIOPENCL, &isocl));
  assert_true(isocl);
  PCALL(VecDestroy(&x));
  PCALL(MatDestroy(&M));
  PCALL(SbpProblemDestroy(&p));
}

/* During an operator apply on several ranks the only host <-> device transfers are the halo strips: one read of the strips the
   neighbours need, one write of the ghosts received, no whole-vector copy. */
static void test_device_halo_traffic(void **state)
{
  const PetscInt sizes[][2] = {{256, 128}, {96, 96}};
  SbpmgCL        cl;

  SbpTestDeviceFirstUse();
  PCALL(SbpmgCLGetDefault(&cl));
  for (int t = 0; t < 2; t++) {
    SbpProblem p;
    overlap_min = t ? -1 : 0; /* overlapped and not: the same transfers */
    p           = make(PETSC_COMM_WORLD, sizes[t][0], sizes[t][1], SBP_BACKEND_DEVICE);
    overlap_min = -1;
    Mat            M;
    Vec            x, y;
    SbpmgCLStats   s0, s1;
    PetscLogDouble h0, d0, h1, d1, sums[2], tot[2];
    PetscInt       ghosts, owned, bound;
    PetscMPIInt    rank;
    int            ok[5];

    PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
    PCALL(SbpProblemCreateOperator(p, &M));
    PCALL(MatCreateVecs(M, &x, &y));
    fill_analytic(p, x);
    PCALL(MatMult(M, x, y)); /* uploads x (written on the host) and builds the kernels */
    PCALL(SbpmgCLGetStats(cl, &s0));
    PCALL(VecOpenCLGetSyncCounts(&h0, &d0));
    for (int r = 0; r < 3; r++) PCALL(MatMult(M, x, y));
    PCALL(SbpmgCLGetStats(cl, &s1));
    PCALL(VecOpenCLGetSyncCounts(&h1, &d1));
    owned  = p->xm * p->ym;
    ghosts = p->gxm * p->gym - owned;
    bound  = 4 * (p->xm + p->ym) + 16; /* two rows or columns to each side, 2 x 2 to each corner */
    print_message("  %dx%d, rank %d: %d owned nodes, %d ghosts; per apply %g B to the device in %g transfer(s), %g B back in %g\n", (int)sizes[t][0],
                  (int)sizes[t][1], rank, (int)owned, (int)ghosts, (s1.htod_bytes - s0.htod_bytes) / 3, (s1.htod_count - s0.htod_count) / 3,
                  (s1.dtoh_bytes - s0.dtoh_bytes) / 3, (s1.dtoh_count - s0.dtoh_count) / 3);
    /* every rank checks, then all fail together (a rank failing alone would leave the others in the next collective call) */
    ok[0] = h1 == h0 && d1 == d0;                                                                                           /* no whole-vector copy */
    ok[1] = s1.htod_count - s0.htod_count == 3 && s1.dtoh_count - s0.dtoh_count == 3;                                       /* one each way per apply */
    ok[2] = s1.htod_bytes - s0.htod_bytes == 3.0 * ghosts * sizeof(PetscScalar);                                            /* exactly the ghosts */
    ok[3] = s1.dtoh_bytes - s0.dtoh_bytes > 0 && s1.dtoh_bytes - s0.dtoh_bytes <= 3.0 * bound * sizeof(PetscScalar);        /* at most the strips */
    ok[4] = t > 0 || s1.htod_bytes - s0.htod_bytes + s1.dtoh_bytes - s0.dtoh_bytes < 3 * 0.1 * owned * sizeof(PetscScalar); /* far below the vector */
    PCALL(MPI_Allreduce(MPI_IN_PLACE, ok, 5, MPI_INT, MPI_MIN, PETSC_COMM_WORLD));
    for (int k = 0; k < 5; k++)
      if (!ok[k]) fail_msg("%dx%d: halo traffic check %d failed on some rank", (int)sizes[t][0], (int)sizes[t][1], k);
    /* what the ranks send is what they receive */
    sums[0] = s1.htod_bytes - s0.htod_bytes;
    sums[1] = s1.dtoh_bytes - s0.dtoh_bytes;
    PCALL(MPI_Allreduce(sums, tot, 2, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD));
    assert_true(tot[0] == tot[1]);
    PCALL(VecDestroy(&x));
    PCALL(VecDestroy(&y));
    PCALL(MatDestroy(&M));
    PCALL(SbpProblemDestroy(&p));
  }
}

/* CG + sbpmg on the device, all ranks against one rank: the same iterations and the same solution to the solver tolerance. */
static void check_device_mgcg(MPI_Comm comm, PetscInt Nr, PetscInt Ns)
{
  PetscReal   e1, e2 = 0, du;
  PetscInt    i1, i2 = 0;
  Vec         u1, u2 = NULL;
  PetscMPIInt rank, size;

  PCALL(MPI_Comm_rank(comm, &rank));
  PCALL(MPI_Comm_size(comm, &size));
  i1 = solve(comm, Nr, Ns, SBP_BACKEND_DEVICE, &e1, &u1);
  if (rank == 0) i2 = solve(PETSC_COMM_SELF, Nr, Ns, SBP_BACKEND_DEVICE, &e2, &u2);
  PCALL(MPI_Bcast(&i2, 1, MPIU_INT, 0, comm));
  PCALL(MPI_Bcast(&e2, 1, MPIU_REAL, 0, comm));
  du = SbpmgTestCompareOnZero(comm, u1, u2);
  print_message("  %dx%d on %d ranks: %d iterations, ||e||_H %.12e; one rank: %d iterations, %.12e; solutions differ by %.1e\n", (int)Nr, (int)Ns, size,
                (int)i1, e1, (int)i2, e2, du);
  assert_int_equal(i1, i2);
  if (!(du < 1e-9)) fail_msg("%dx%d: the solutions differ by %g", (int)Nr, (int)Ns, du);
  if (!(PetscAbsReal(e1 - e2) < 1e-9 * e2)) fail_msg("error norms %g and %g", e1, e2);
  SbpmgTestDestroyVecs(&u1, &u2, NULL);
}

static void test_device_mgcg(void **state)
{
  MPI_Comm c3;

  SbpTestDeviceFirstUse();
  overlap_min = 0; /* every level's operator and sweeps overlapped with the exchange */
  check_device_mgcg(PETSC_COMM_WORLD, 128, 128);
  overlap_min = -1;
  check_device_mgcg(PETSC_COMM_WORLD, 48, 96);
  c3 = SbpTestThreeOfFourRanks();
  if (c3 != MPI_COMM_NULL) {
    check_device_mgcg(c3, 40, 24);
    PCALL(MPI_Comm_free(&c3));
  }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_operator_parallel), cmocka_unit_test(test_mgcg_parallel),       cmocka_unit_test(test_device_operator),
    cmocka_unit_test(test_auto_backend),      cmocka_unit_test(test_device_halo_traffic), cmocka_unit_test(test_device_mgcg),
};

SBPMG_TEST_MAIN(help, tests)
