/* The sbpmg preconditioner on several MPI ranks (run under mpiexec -n 2 or 4): device transfers and V-cycle against one rank,
   MGCG with each smoother (same iterations, same solution to rounding), in fp64 and with the single-precision V-cycle (its ghost
   exchange in fp32), its level residual against the assembled operator, grids of sizes that do not halve (their transfers, iterations,
   node coordinates and symmetry as on one rank), and the coarse-level policy (levels distributed while the ranks can hold them, the coarsest gathered for
   CHOLMOD; clear errors for hierarchies that cannot be distributed). On 4 ranks the uneven and the 3-rank cases run on a 3-rank sub-communicator. */
#include "test_mg_common.h"

static const char help[] = "Tests of the sbpmg preconditioner on several MPI ranks against one rank.\n";

/* -1: the default threshold of the overlapped exchange (no overlap for these grids); 0: always overlap */
static PetscInt overlap_min = -1;

/* PETSC_TRUE: make_problem gives the grid as node coordinate arrays (a smooth warp of a rectangle), whose coarse levels of sizes that do
   not halve are interpolated (src/sbp/nodes.c) */
static PetscBool node_arrays = PETSC_FALSE;

/* PETSC_TRUE: make_problem's grids coarsen along their longer side first (tuning sbp_coarsen_aspect 140, the GPUs' default) */
static PetscBool longer_first = PETSC_FALSE;

static SbpProblem make_problem(MPI_Comm comm, PetscInt Nr, PetscInt Ns, SbpBackend backend)
{
  SbpProblem p;
  PetscReal *x, *y;
  PetscInt   n = (Nr + 1) * (Ns + 1);
  char       tune[64];

  PCALL(PetscSNPrintf(tune, sizeof(tune), "sbp_coarsen_aspect=%d%s", longer_first ? 140 : 0, overlap_min == 0 ? ",sbp_overlap_min=0" : ""));
  if (!node_arrays) return SbpTestProblem(comm, Nr, Ns, "DDNN", SBP_MAPPING_CURVED, backend, tune);
  PCALL(PetscMalloc2(n, &x, n, &y));
  for (PetscInt j = 0; j <= Ns; j++)
    for (PetscInt i = 0; i <= Nr; i++) {
      const PetscReal r = -1 + 2.0 * i / Nr, t = -1 + 2.0 * j / Ns;
      x[i + (Nr + 1) * j] = 2 * r + 0.1 * PetscSinReal(PETSC_PI * t);
      y[i + (Nr + 1) * j] = t + 0.05 * PetscSinReal(PETSC_PI * r) * (1 + t);
    }
  PCALL(SbpProblemCreate(comm, &p));
  PCALL(SbpProblemSetSizes(p, Nr, Ns));
  PCALL(SbpProblemSetNodeCoordinatesArrays(p, n, x, y));
  for (PetscInt f = 0; f < 4; f++) PCALL(SbpProblemSetBC(p, f + 1, f < 2 ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN));
  PCALL(SbpProblemSetBackend(p, backend));
  PCALL(SbpProblemSetUp(p));
  PCALL(PetscFree2(x, y));
  return p;
}

/* v(i,j) = a function of the node only, whatever the decomposition */
static void fill_nodes(SbpProblem p, Vec v, PetscReal phase)
{
  PetscScalar **a;

  PCALL(DMDAVecGetArray(SbpTestDM(p), v, &a));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) a[j][i] = PetscSinReal(0.29 * i - 0.17 * j + phase) + 0.1 * PetscCosReal(0.03 * i * j + phase);
  PCALL(DMDAVecRestoreArray(SbpTestDM(p), v, &a));
}

/* ---------------------------------------------------------------- transfers */

/* P x_c, P^T x_f, y_f + P x_c and y_c + P^T x_f (outputs poisoned first), in natural ordering on rank 0 */
static void transfer_quantities(MPI_Comm comm, PetscInt Nr, PetscInt Ns, SbpBackend backend, Vec out[4])
{
  SbpProblem f = make_problem(comm, Nr, Ns, backend), c;
  Mat        P;
  Vec        xc, xf, yc, yf;

  PCALL(SbpProblemCoarsen(f, &c));
  PCALL(SbpProblemCreateProlongation(c, f, &P));
  PCALL(MatCreateVecs(P, &xc, &xf));
  PCALL(MatCreateVecs(P, &yc, &yf));
  fill_nodes(c, xc, 0.4);
  fill_nodes(f, xf, 1.1);
  PCALL(VecSet(yf, NAN));
  PCALL(MatMult(P, xc, yf));
  out[0] = SbpmgTestNaturalOnZero(SbpTestDM(f), yf);
  PCALL(VecSet(yc, NAN));
  PCALL(MatMultTranspose(P, xf, yc));
  out[1] = SbpmgTestNaturalOnZero(SbpTestDM(c), yc);
  fill_nodes(f, yf, 2.0);
  PCALL(MatMultAdd(P, xc, yf, yf));
  out[2] = SbpmgTestNaturalOnZero(SbpTestDM(f), yf);
  fill_nodes(c, yc, 2.5);
  PCALL(MatMultTransposeAdd(P, xf, yc, yc));
  out[3] = SbpmgTestNaturalOnZero(SbpTestDM(c), yc);
  PCALL(VecDestroy(&xc));
  PCALL(VecDestroy(&xf));
  PCALL(VecDestroy(&yc));
  PCALL(VecDestroy(&yf));
  PCALL(MatDestroy(&P));
  PCALL(SbpProblemDestroy(&c));
  PCALL(SbpProblemDestroy(&f));
}

static void check_transfers(MPI_Comm comm, PetscInt Nr, PetscInt Ns, SbpBackend backend)
{
  static const char *names[4] = {"P x", "P^T x", "y + P x", "y + P^T x"};
  Vec                par[4], seq[4] = {NULL, NULL, NULL, NULL};
  PetscMPIInt        rank, size;
  PetscReal          worst = 0;

  PCALL(MPI_Comm_rank(comm, &rank));
  PCALL(MPI_Comm_size(comm, &size));
  transfer_quantities(comm, Nr, Ns, backend, par);
  if (rank == 0) transfer_quantities(PETSC_COMM_SELF, Nr, Ns, backend, seq);
  for (int k = 0; k < 4; k++) {
    PetscReal err = SbpmgTestCompareOnZero(comm, par[k], seq[k]);
    if (!(err <= 1e-15))
      fail_msg("%dx%d on %d ranks (%s): %s differs from one rank by %g", (int)Nr, (int)Ns, size, backend == SBP_BACKEND_DEVICE ? "device" : "host", names[k],
               err);
    worst = PetscMax(worst, err);
    PCALL(VecDestroy(&par[k]));
    PCALL(VecDestroy(&seq[k]));
  }
  print_message("  %dx%d on %d ranks (%s): P, P^T and the adding forms == one rank to %.1e\n", (int)Nr, (int)Ns, size,
                backend == SBP_BACKEND_DEVICE ? "device" : "host", worst);
}

static void test_transfers(void **state)
{
  MPI_Comm c3;

  SbpTestDeviceFirstUse();
  check_transfers(PETSC_COMM_WORLD, 64, 32, SBP_BACKEND_DEVICE);
  check_transfers(PETSC_COMM_WORLD, 48, 96, SBP_BACKEND_DEVICE);
  check_transfers(PETSC_COMM_WORLD, 16, 16, SBP_BACKEND_DEVICE);
  check_transfers(PETSC_COMM_WORLD, 48, 96, SBP_BACKEND_HOST);
  /* grids that do not nest (issue 34): odd sizes, one odd and one even, a direction kept (semi-coarsening) */
  check_transfers(PETSC_COMM_WORLD, 45, 33, SBP_BACKEND_DEVICE);
  check_transfers(PETSC_COMM_WORLD, 37, 41, SBP_BACKEND_HOST);
  check_transfers(PETSC_COMM_WORLD, 64, 31, SBP_BACKEND_DEVICE);
  check_transfers(PETSC_COMM_WORLD, 64, 6, SBP_BACKEND_DEVICE);
  c3 = SbpTestThreeOfFourRanks();
  if (c3 != MPI_COMM_NULL) {
    check_transfers(c3, 40, 24, SBP_BACKEND_DEVICE);
    check_transfers(c3, 24, 40, SBP_BACKEND_DEVICE);
    check_transfers(c3, 41, 27, SBP_BACKEND_DEVICE);
    check_transfers(c3, 27, 41, SBP_BACKEND_HOST);
    PCALL(MPI_Comm_free(&c3));
  }
}

static void check_mgcg(MPI_Comm, PetscInt, PetscInt, const char *, PetscInt);

/* Unequal sides coarsened along the longer side first (issue 34): the transfers of the levels that keep one side, and CG + sbpmg's
   levels, iterations and solution, equal one rank's on 2, 3 and 4 ranks. */
static void test_longer_side_first(void **state)
{
  MPI_Comm c3;

  SbpTestDeviceFirstUse();
  longer_first = PETSC_TRUE;
  check_transfers(PETSC_COMM_WORLD, 64, 20, SBP_BACKEND_DEVICE);
  check_transfers(PETSC_COMM_WORLD, 20, 64, SBP_BACKEND_HOST);
  check_mgcg(PETSC_COMM_WORLD, 96, 40, NULL, 0);
  c3 = SbpTestThreeOfFourRanks();
  if (c3 != MPI_COMM_NULL) {
    check_transfers(c3, 60, 24, SBP_BACKEND_DEVICE);
    check_mgcg(c3, 40, 96, NULL, 0);
    PCALL(MPI_Comm_free(&c3));
  }
  longer_first = PETSC_FALSE;
}

/* ---------------------------------------------------------------- the solver */

static const char *pc_tune = NULL; /* overrides of the PC's tuning (PCSBPMGSetTuning), NULL: none */

/* CG + sbpmg to 1e-10 on A with the smoother (NULL: the default) and the levels (0: the default); set up */
static KSP mg_solver(Mat A, const char *smoother, PetscInt levels)
{
  const SbpTestMGSettings set = {smoother, levels, 0, pc_tune};

  return SbpTestMGCGSetUp(A, 1e-10, &set);
}

/* CG + sbpmg from the right-hand side of the problem: iterations, levels, and the solution in natural ordering on rank 0 */
static PetscInt solve(MPI_Comm comm, PetscInt Nr, PetscInt Ns, const char *smoother, PetscInt levels_req, PetscInt *levels, Vec *unat0)
{
  SbpTestSystem s;
  PC            pc;
  PetscInt      its;

  SbpTestSystemCreate(make_problem(comm, Nr, Ns, SBP_BACKEND_DEVICE), PETSC_FALSE, &s);
  s.ksp = mg_solver(s.A, smoother, levels_req);
  PCALL(KSPGetPC(s.ksp, &pc));
  PCALL(PCSBPMGGetLevels(pc, levels));
  its    = SbpTestSystemSolve(&s);
  *unat0 = SbpmgTestNaturalOnZero(SbpTestDM(s.p), s.u);
  SbpTestSystemDestroy(&s);
  return its;
}

static void check_mgcg(MPI_Comm comm, PetscInt Nr, PetscInt Ns, const char *smoother, PetscInt levels_req)
{
  PetscInt    i1, i2 = 0, l1, l2 = 0;
  Vec         u1, u2 = NULL;
  PetscReal   du;
  PetscMPIInt rank, size;

  PCALL(MPI_Comm_rank(comm, &rank));
  PCALL(MPI_Comm_size(comm, &size));
  i1 = solve(comm, Nr, Ns, smoother, levels_req, &l1, &u1);
  if (rank == 0) i2 = solve(PETSC_COMM_SELF, Nr, Ns, smoother, levels_req, &l2, &u2);
  PCALL(MPI_Bcast(&i2, 1, MPIU_INT, 0, comm));
  PCALL(MPI_Bcast(&l2, 1, MPIU_INT, 0, comm));
  du = SbpmgTestCompareOnZero(comm, u1, u2);
  print_message("  %dx%d %s on %d ranks: %d levels, %d iterations; one rank: %d levels, %d iterations; solutions differ by %.1e\n", (int)Nr, (int)Ns,
                smoother ? smoother : "default", size, (int)l1, (int)i1, (int)l2, (int)i2, du);
  assert_int_equal(l1, l2);
  assert_int_equal(i1, i2);
  if (!(du < 1e-9)) fail_msg("%dx%d %s: the solutions differ by %g", (int)Nr, (int)Ns, smoother ? smoother : "default", du);
  SbpmgTestDestroyVecs(&u1, &u2, NULL);
}

static void check_mgcg_cases(void);

static void test_mgcg(void **state)
{
  SbpTestDeviceFirstUse();
  check_mgcg_cases();
}

/* The same with the single-precision V-cycle: its level vectors, sweeps, residuals and transfers in fp32 through the fp32 ghost exchange
   of every level; the iterations and the solution are one rank's. */
static void test_mgcg_single(void **state)
{
  SbpTestDeviceFirstUse();
  MGTestSetPrecision("single");
  check_mgcg_cases();
  MGTestSetPrecision(NULL);
}

/* The cases of test_mgcg and test_mgcg_single */
static void check_mgcg_cases(void)
{
  MPI_Comm c3;

  check_mgcg(PETSC_COMM_WORLD, 64, 64, NULL, 0);
  check_mgcg(PETSC_COMM_WORLD, 48, 96, NULL, 0);
  overlap_min = 0; /* the sweeps overlapped with the exchange */
  check_mgcg(PETSC_COMM_WORLD, 64, 64, "jacobi", 0);
  check_mgcg(PETSC_COMM_WORLD, 64, 32, "richardson", 0);
  pc_tune = "mg_inline_diag=1"; /* the GPU's sweep: 1/diag from the coefficients inside the kernel */
  check_mgcg(PETSC_COMM_WORLD, 64, 64, NULL, 4);
  pc_tune     = NULL;
  overlap_min = -1;
  check_mgcg(PETSC_COMM_WORLD, 63, 45, NULL, 0); /* sizes that do not halve: the same hierarchy as on one rank */
  node_arrays = PETSC_TRUE;                      /* and the coarse levels' node coordinates interpolated across the ranks */
  check_mgcg(PETSC_COMM_WORLD, 61, 35, NULL, 0);
  node_arrays = PETSC_FALSE;
  c3          = SbpTestThreeOfFourRanks();
  if (c3 != MPI_COMM_NULL) {
    check_mgcg(c3, 40, 24, NULL, 0);
    check_mgcg(c3, 45, 37, NULL, 0);
    check_mgcg(c3, 16, 16, NULL, 2); /* the deepest hierarchy 3 ranks can hold on this grid */
    PCALL(MPI_Comm_free(&c3));
  }
}

/* The V-cycle stays symmetric on several ranks: x^T B y = y^T B x. */
static void test_vcycle_symmetric(void **state)
{
  SbpProblem p;
  Mat        A;
  KSP        ksp;
  PC         pc;
  Vec        x, y;

  SbpTestDeviceFirstUse();
  for (int g = 0; g < 2; g++) { /* halving sizes; sizes that do not halve (issue 34) */
    p = make_problem(PETSC_COMM_WORLD, g ? 45 : 64, g ? 33 : 32, SBP_BACKEND_DEVICE);
    PCALL(SbpProblemCreateOperator(p, &A));
    ksp = mg_solver(A, NULL, 0);
    PCALL(KSPGetPC(ksp, &pc));
    PCALL(MatCreateVecs(A, &x, &y));
    for (int r = 0; r < 2; r++) {
      fill_nodes(p, x, 0.1 + r);
      fill_nodes(p, y, 0.7 + r);
      SbpTestCheckSymmetric(pc, x, y, g ? "several ranks, 45 x 33" : "several ranks");
    }
    SbpmgTestDestroyVecs(&x, &y, NULL);
    PCALL(KSPDestroy(&ksp));
    PCALL(MatDestroy(&A));
    PCALL(SbpProblemDestroy(&p));
  }
}

/* The single-precision V-cycle on several ranks is symmetric to fp32 rounding and positive. */
static void test_vcycle_single(void **state)
{
  SbpProblem p;
  Mat        A;
  KSP        ksp;
  PC         pc;
  Vec        x, y;

  SbpTestDeviceFirstUse();
  p = make_problem(PETSC_COMM_WORLD, 64, 32, SBP_BACKEND_DEVICE);
  PCALL(SbpProblemCreateOperator(p, &A));
  MGTestSetPrecision("single");
  ksp = mg_solver(A, NULL, 0);
  MGTestSetPrecision(NULL);
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(MatCreateVecs(A, &x, &y));
  for (int r = 0; r < 2; r++) {
    fill_nodes(p, x, 0.1 + r);
    fill_nodes(p, y, 0.7 + r);
    (void)MGTestCheckNearlySymmetric(pc, x, y, 1e-5, "several ranks, fp32 V-cycle");
  }
  SbpmgTestDestroyVecs(&x, &y, NULL);
  PCALL(KSPDestroy(&ksp));
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

/* PCMG's level residual in fp32 on several ranks (the sweep kernels' residual mode through the fp32 ghost exchange, with and without
   the overlap, with the GPU's guarded loads too) against the assembled fp64 operator, to fp32 accuracy. */
static void test_level_residual_single(void **state)
{
  const char *tunes[] = {NULL, "sbp_overlap_min=0", "sbp_overlap_min=0,sbp_select=0,sbp_inner_whole=0,sbp_inner_rows=2"};
  const struct {
    PetscInt    Nr, Ns;
    const char *bc;
  } cases[] = {
      {64, 32, "DDNN"},
      {48, 96, "DDDD"},
      {16, 16, "NDDN"},
  };
  PetscMPIInt size;

  SbpTestDeviceFirstUse();
  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  for (size_t t = 0; t < sizeof(tunes) / sizeof(tunes[0]); t++)
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
      SbpProblem p = SbpTestProblem(PETSC_COMM_WORLD, cases[c].Nr, cases[c].Ns, cases[c].bc, SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, tunes[t]);
      char       what[128];

      PCALL(PetscSNPrintf(what, sizeof(what), "%dx%d %s on %d ranks, %s", (int)cases[c].Nr, (int)cases[c].Ns, cases[c].bc, size,
                          tunes[t] ? tunes[t] : "default"));
      (void)MGTestCheckResidualSingle(p, 1e-6, what);
      PCALL(SbpProblemDestroy(&p));
    }
}

/* ---------------------------------------------------------------- coarse-level policy */

/* PCView tells where the coarse problem is solved; the default coarse size: 65 points (<= 129) on a GPU, 65 -> 33 -> 17 (<= 32)
   elsewhere */
static void check_coarse_view(void)
{
  SbpProblem  p = make_problem(PETSC_COMM_WORLD, 64, 64, SBP_BACKEND_DEVICE);
  Mat         A;
  KSP         ksp;
  PC          pc;
  PetscViewer v;
  char        text[4096];
  PetscInt    levels;
  PetscBool   gpu;
  PetscMPIInt rank;
  int         found = 0;

  PCALL(SbpProblemCreateOperator(p, &A));
  ksp = mg_solver(A, NULL, 0);
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCSBPMGGetLevels(pc, &levels));
  PCALL(SbpmgCLIsGPU(p->cl, &gpu));
  assert_int_equal(levels, gpu ? 1 : 3);
  PCALL(PetscViewerASCIIOpen(PETSC_COMM_WORLD, "mg_mpi_pcview.txt", &v));
  PCALL(PCView(pc, v));
  PCALL(PetscViewerDestroy(&v));
  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (rank == 0) {
    FILE  *f = fopen("mg_mpi_pcview.txt", "r");
    size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
    text[n]  = 0;
    if (f) fclose(f);
    found = strstr(text, "gathered onto every rank") && strstr(text, "ghosts exchanged between the devices");
    (void)remove("mg_mpi_pcview.txt");
  }
  PCALL(MPI_Bcast(&found, 1, MPI_INT, 0, PETSC_COMM_WORLD));
  if (!found) fail_msg("PCView does not tell where the coarse problem is solved:\n%s", rank == 0 ? text : "(see rank 0)");
  PCALL(KSPDestroy(&ksp));
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

/* The 16 x 16 grid on the 3 ranks of c3: too many levels, a coarse size out of reach (by the setter and by the option) and a
   coarsening too far are clear errors. */
static void check_undistributable(MPI_Comm c3)
{
  const SbpmgTestOption coarse8[] = {{"-pc_type", "sbpmg"}, {"-pc_sbpmg_coarse_size", "8"}, {NULL, NULL}};
  SbpProblem            p = make_problem(c3, 16, 16, SBP_BACKEND_DEVICE), c, cc = NULL;
  PetscInt              serial, dist;
  Mat                   A;
  KSP                   ksp;
  PC                    pc;

  PCALL(SbpProblemCountLevels(p, &serial, &dist, NULL, 0));
  assert_int_equal(serial, 3);
  assert_int_equal(dist, 2);
  /* too many levels for the decomposition */
  PCALL(SbpProblemCreateOperator(p, &A));
  ksp = SbpTestMGCG(A, 1e-10, 200);
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCSBPMGSetLevels(pc, 3));
  EXPECT_ERROR(KSPSetUp(ksp), PETSC_ERR_ARG_OUTOFRANGE,
               "-pc_sbpmg_levels 3 cannot be distributed: the 16 x 16 grid on 3 MPI ranks (1 x 3) halves into at most 2 levels (down to 8 x 8): the 4 x 4 "
               "grid would leave a rank 1 node "
               "in s (5 nodes over 3 ranks), below the DMDA stencil width 2");
  PCALL(KSPDestroy(&ksp));
  /* a coarse size the decomposition cannot reach */
  ksp = SbpTestMGCG(A, 1e-10, 200);
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCSBPMGSetCoarseSize(pc, 5));
  EXPECT_ERROR(KSPSetUp(ksp), PETSC_ERR_ARG_OUTOFRANGE,
               "-pc_sbpmg_coarse_size 5 cannot be reached on 3 MPI ranks (1 x 3): the coarsest distributable level of the 16 x 16 grid is 8 x 8 (2 levels), "
               "since the 4 x 4 grid");
  PCALL(KSPDestroy(&ksp));
  /* the option route gives the same error */
  PCALL(KSPCreate(c3, &ksp));
  PCALL(KSPSetOperators(ksp, A, A));
  SbpmgTestSetOptions(coarse8);
  PCALL(KSPSetFromOptions(ksp));
  EXPECT_ERROR(KSPSetUp(ksp), PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_coarse_size 8 cannot be reached on 3 MPI ranks");
  SbpmgTestClearOptions(coarse8);
  PCALL(KSPDestroy(&ksp));
  /* coarsening the 8 x 8 level directly */
  PCALL(SbpProblemCoarsen(p, &c));
  EXPECT_ERROR(SbpProblemCoarsen(c, &cc), PETSC_ERR_ARG_SIZ,
               "Cannot coarsen the 8 x 8 grid on 3 MPI ranks (1 x 3): the 4 x 4 grid would leave a rank 1 node in s (5 nodes over 3 ranks), below the DMDA "
               "stencil width 2");
  assert_null(cc);
  PCALL(SbpProblemDestroy(&c));
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

/* Each level is spread over all ranks; a grid that would leave a rank fewer than 2 nodes in some direction is not made. The
   16 x 16 grid on 3 ranks (1 x 3: 17 -> 6,6,5 nodes in s) coarsens to 8 x 8 (3,3,3) but not to 4 x 4 (2,2,1). */
static void test_coarse_policy(void **state)
{
  PetscMPIInt size;
  MPI_Comm    c3;

  SbpTestDeviceFirstUse();
  check_coarse_view();
  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size < 4) skip(); /* 2 ranks can hold every level the sizes allow (5 nodes split 3 + 2) */
  c3 = SbpTestFirstRanks(3);
  if (c3 != MPI_COMM_NULL) {
    check_undistributable(c3);
    PCALL(MPI_Comm_free(&c3));
  }
}

static const struct CMUnitTest tests[] = {cmocka_unit_test(test_transfers),
                                          cmocka_unit_test(test_longer_side_first),
                                          cmocka_unit_test(test_mgcg),
                                          cmocka_unit_test(test_mgcg_single),
                                          cmocka_unit_test(test_vcycle_symmetric),
                                          cmocka_unit_test(test_vcycle_single),
                                          cmocka_unit_test(test_level_residual_single),
                                          cmocka_unit_test(test_coarse_policy)};

SBPMG_TEST_MAIN(help, tests)
