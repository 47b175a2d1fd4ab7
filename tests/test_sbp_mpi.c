/* SBP-SAT on several MPI ranks (host path and assembled reference; run under mpiexec -n 2 or more): the same results as one rank. */
#include "harness.h"

static const char help[] = "SBP-SAT and sbpmg on several MPI ranks against one rank.\n";

/* x(i,j) = sin(0.37 i + 0.11 j) + 0.2 cos(0.05 i j): the same values whatever the decomposition */
static void fill_analytic(SbpProblem p, Vec x)
{
  PetscScalar **a;

  PCALL(DMDAVecGetArray(p->da, x, &a));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) a[j][i] = PetscSinReal(0.37 * i + 0.11 * j) + 0.2 * PetscCosReal(0.05 * i * j);
  PCALL(DMDAVecRestoreArray(p->da, x, &a));
}

/* The vector in natural ordering on rank 0 (a sequential vector there, empty elsewhere). */
static Vec to_natural_on_zero(SbpProblem p, Vec x)
{
  Vec        nat, seq;
  VecScatter sc;

  PCALL(DMDACreateNaturalVector(p->da, &nat));
  PCALL(DMDAGlobalToNaturalBegin(p->da, x, INSERT_VALUES, nat));
  PCALL(DMDAGlobalToNaturalEnd(p->da, x, INSERT_VALUES, nat));
  PCALL(VecScatterCreateToZero(nat, &sc, &seq));
  PCALL(VecScatterBegin(sc, nat, seq, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterEnd(sc, nat, seq, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterDestroy(&sc));
  PCALL(VecDestroy(&nat));
  return seq;
}

static SbpProblem make(MPI_Comm comm, PetscInt Nr, PetscInt Ns, SbpBackend backend)
{
  SbpProblem p;
  PCALL(SbpProblemCreate(comm, &p));
  PCALL(SbpProblemSetSizes(p, Nr, Ns));
  PCALL(SbpProblemSetBackend(p, backend));
  PCALL(SbpProblemSetUp(p));
  return p;
}

static PetscReal compare_on_zero(Vec par_nat0, Vec seq)
{
  PetscMPIInt rank;
  PetscReal   err = 0, d, s;

  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (rank == 0) {
    Vec diff;
    PCALL(VecDuplicate(seq, &diff));
    PCALL(VecWAXPY(diff, -1, seq, par_nat0));
    PCALL(VecNorm(diff, NORM_INFINITY, &d));
    PCALL(VecNorm(seq, NORM_INFINITY, &s));
    err = d / s;
    PCALL(VecDestroy(&diff));
  }
  PCALL(MPI_Bcast(&err, 1, MPIU_REAL, 0, PETSC_COMM_WORLD));
  return err;
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
    nat[0] = to_natural_on_zero(pp, y);
    nat[1] = to_natural_on_zero(pp, ya);
    nat[2] = to_natural_on_zero(pp, d);
    nat[3] = to_natural_on_zero(pp, g);
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
    print_message("  %dx%d: matrix-free %.1e, assembled %.1e, diagonal %.1e, rhs %.1e, error norm %.1e\n", (int)sizes[t][0], (int)sizes[t][1], err[0], err[1], err[2], err[3],
                  PetscAbsReal(eH - eHs) / eHs);
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

/* CG + sbpmg (host path, redundant CHOLMOD coarse solve) on all ranks: the iterations of one rank and the same solution. */
static PetscInt solve(MPI_Comm comm, PetscInt N, PetscReal *eH)
{
  SbpProblem p = make(comm, N, N, SBP_BACKEND_HOST);
  Mat        A;
  Vec        u, g;
  KSP        ksp;
  PC         pc;
  PetscInt   its;

  PCALL(SbpProblemCreateOperator(p, &A));
  PCALL(MatCreateVecs(A, &u, &g));
  PCALL(SbpProblemComputeRHS(p, g));
  PCALL(KSPCreate(comm, &ksp));
  PCALL(KSPSetOperators(ksp, A, A));
  PCALL(KSPSetType(ksp, KSPCG));
  PCALL(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 100));
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCSetType(pc, PCSBPMG));
  PCALL(KSPSolve(ksp, g, u));
  PCALL(KSPGetIterationNumber(ksp, &its));
  PCALL(SbpProblemComputeError(p, u, eH, NULL));
  PCALL(KSPDestroy(&ksp));
  PCALL(VecDestroy(&u));
  PCALL(VecDestroy(&g));
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
  return its;
}

static void test_mgcg_parallel(void **state)
{
  PetscReal e1, e2;
  PetscInt  i1 = solve(PETSC_COMM_WORLD, 128, &e1), i2 = solve(PETSC_COMM_SELF, 128, &e2);

  print_message("  all ranks: %d iterations, ||e||_H %.10e; one rank: %d iterations, %.10e\n", (int)i1, e1, (int)i2, e2);
  assert_int_equal(i1, i2);
  /* the reductions add in another order, so the iterates agree to the solver tolerance, not bit for bit */
  if (!(PetscAbsReal(e1 - e2) < 1e-7 * e2)) fail_msg("error norms %g and %g", e1, e2);
}

/* The device backend needs one rank for now. */
static void test_device_needs_one_rank(void **state)
{
  SbpProblem  p;
  PetscMPIInt size;

  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size == 1) skip();
  PCALL(SbpProblemCreate(PETSC_COMM_WORLD, &p));
  PCALL(SbpProblemSetBackend(p, SBP_BACKEND_DEVICE));
  EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_SUP, "runs on one MPI rank");
  PCALL(SbpProblemDestroy(&p));
}

static const struct CMUnitTest tests[] = {
  cmocka_unit_test(test_operator_parallel),
  cmocka_unit_test(test_mgcg_parallel),
  cmocka_unit_test(test_device_needs_one_rank),
};

SBPMG_TEST_MAIN(help, tests)
