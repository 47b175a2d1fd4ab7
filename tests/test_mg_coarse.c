/* The coarse solve on the device (issue 35, docs/design.md "The coarse solve on the device"): the dense inverse applied to device vectors,
   fp32 level vectors and host vectors against the assembled coarse operator (A_c x = b), CG + sbpmg with it against CHOLMOD (Dirichlet,
   all-Neumann, one level, fp64 and fp32 V-cycles), the automatic choice, and bad input. */
#include "test_sbp_common.h"
#include <sbpmg/private/mgimpl.h>

static const char help[] = "Tests of sbpmg's coarse solves (src/mg/coarse.c, kernels/dense.cl).\n";

/* CG + sbpmg on p's operator with the coarse solve and precision named (options) and the tuning overrides tune (may be NULL), set up. */
static KSP setup_mgcg(SbpProblem p, Mat *A, const char *coarse, const char *prec, PetscInt levels, const char *tune)
{
  KSP ksp;
  PC  pc;

  PCALL(SbpProblemCreateOperator(p, A));
  ksp = SbpTestMGCG(*A, 1e-10, 200);
  PCALL(KSPGetPC(ksp, &pc));
  if (levels) PCALL(PCSBPMGSetLevels(pc, levels));
  if (tune) PCALL(PCSBPMGSetTuning(pc, tune));
  SbpmgTestSetOption("-pc_sbpmg_coarse_solve", coarse);
  SbpmgTestSetOption("-pc_sbpmg_precision", prec);
  PCALL(KSPSetFromOptions(ksp));
  PCALL(KSPSetUp(ksp));
  SbpmgTestSetOption("-pc_sbpmg_coarse_solve", NULL);
  SbpmgTestSetOption("-pc_sbpmg_precision", NULL);
  return ksp;
}

/* || A_c x - b || / || b || with the assembled coarse operator A_c (the Kronecker assembly: independent of the inverse) for the coarse
   PC applied to b of the given kind of vector: a device vector of the coarse problem, a host vector, or an fp32 level vector. */
static PetscReal coarse_residual(PC_SBPMG *sb, PC cpc, int kind)
{
  SbpProblem         p = sb->problems[sb->nlevels - 1];
  Vec                b, x, bh, xh, r;
  const PetscScalar *xa;
  PetscScalar       *ba;
  PetscInt           n;
  PetscReal          rn, bn;

  PCALL(MatCreateVecs(sb->coarse_assembled, &xh, &bh));
  PCALL(VecDuplicate(bh, &r));
  SbpmgTestFillRandom(bh, 91 + kind);
  PCALL(VecGetLocalSize(bh, &n));
  if (kind == 0) {
    PCALL(SbpProblemCreateVector(p, &b));
    PCALL(VecDuplicate(b, &x));
  } else if (kind == 1) {
    PCALL(VecDuplicate(bh, &b));
    PCALL(VecDuplicate(bh, &x));
  } else {
    PCALL(PCSBPMGVecCreate(p, &b));
    PCALL(PCSBPMGVecCreate(p, &x));
  }
  PCALL(VecGetArrayWrite(b, &ba));
  {
    const PetscScalar *h;
    PCALL(VecGetArrayRead(bh, &h));
    for (PetscInt i = 0; i < n; i++) ba[i] = kind == 2 ? (PetscScalar)(float)h[i] : h[i];
    PCALL(VecRestoreArrayRead(bh, &h));
  }
  PCALL(VecRestoreArrayWrite(b, &ba));
  PCALL(PCApply(cpc, b, x));
  PCALL(VecGetArrayRead(x, &xa));
  {
    PetscScalar *h;
    PCALL(VecGetArrayWrite(xh, &h));
    for (PetscInt i = 0; i < n; i++) h[i] = xa[i];
    PCALL(VecRestoreArrayWrite(xh, &h));
  }
  PCALL(VecRestoreArrayRead(x, &xa));
  if (kind == 2) { /* the fp32 input as it was rounded */
    PetscScalar *h;
    PCALL(VecGetArray(bh, &h));
    for (PetscInt i = 0; i < n; i++) h[i] = (PetscScalar)(float)h[i];
    PCALL(VecRestoreArray(bh, &h));
  }
  PCALL(MatMult(sb->coarse_assembled, xh, r));
  PCALL(VecAXPY(r, -1.0, bh));
  PCALL(VecNorm(r, NORM_2, &rn));
  PCALL(VecNorm(bh, NORM_2, &bn));
  SbpmgTestDestroyVecs(&b, &x, &bh, &xh, &r, NULL);
  return rn / bn;
}

/* The dense coarse solve of Dirichlet, mixed and all-Neumann problems (the pinned operator) solves A_c x = b: to 1e-10 in fp64 (device
   and host vectors), to the fp32 inverse's accuracy on the single-precision V-cycle's level vectors; the inverse made with the device's
   tuning and with several lanes per column (mg_invert_lanes, barriers between the rows) in work-groups of columns that do not divide
   the coarse grid's nodes. */
static void test_dense_inverse(void **state)
{
  if (SbpTestWorldSize() > 1) skip(); /* one rank's; several: test_ranks */
  static const struct {
    PetscInt    Nr, Ns;
    const char *bc, *tune;
  } cases[] = {{32, 32, "DDDD", NULL},
               {40, 24, "DDNN", NULL},
               {27, 33, "NNNN", NULL},
               {32, 32, "DDDD", "mg_invert_cols=5,mg_invert_lanes=8"},
               {40, 24, "DDNN", "mg_invert_cols=16,mg_invert_lanes=4"},
               {27, 33, "NNNN", "mg_invert_cols=7,mg_invert_lanes=2"}};

  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    SbpProblem p = SbpTestProblem(PETSC_COMM_SELF, cases[c].Nr, cases[c].Ns, cases[c].bc, SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL);
    Mat        A;
    KSP        ksp = setup_mgcg(p, &A, "dense", "double", 0, cases[c].tune), cksp;
    PC         pc, cpc;
    PC_SBPMG  *sb;
    PetscReal  e[3];
    PetscBool  shell;

    PCALL(KSPGetPC(ksp, &pc));
    sb = PCSBPMGGetContext(pc);
    PCALL(PCMGGetCoarseSolve(pc, &cksp));
    PCALL(KSPGetPC(cksp, &cpc));
    PCALL(PetscObjectTypeCompare((PetscObject)cpc, PCSHELL, &shell));
    if (!sb->coarse_dense || !shell)
      fail_msg("%s %d x %d: -pc_sbpmg_coarse_solve dense did not make the dense coarse solve", cases[c].bc, (int)cases[c].Nr, (int)cases[c].Ns);
    for (int kind = 0; kind < 3; kind++) e[kind] = coarse_residual(sb, cpc, kind);
    print_message("  %s %d x %d (coarse %d x %d%s%s): |A_c x - b| / |b| %.1e (device fp64), %.1e (host), %.1e (fp32 level vectors)\n", cases[c].bc,
                  (int)cases[c].Nr, (int)cases[c].Ns, (int)sb->problems[sb->nlevels - 1]->Nr, (int)sb->problems[sb->nlevels - 1]->Ns, cases[c].tune ? ", " : "",
                  cases[c].tune ? cases[c].tune : "", e[0], e[1], e[2]);
    if (!(e[0] <= 1e-10 && e[1] <= 1e-10))
      fail_msg("%s: the fp64 dense coarse solve leaves a relative residual %g (device), %g (host)", cases[c].bc, e[0], e[1]);
    if (!(e[2] <= 1e-4)) fail_msg("%s: the fp32 dense coarse solve leaves a relative residual %g", cases[c].bc, e[2]);
    PCALL(KSPDestroy(&ksp));
    PCALL(MatDestroy(&A));
    PCALL(SbpProblemDestroy(&p));
  }
}

/* CG + sbpmg with the dense coarse solve takes CHOLMOD's iterations (fp64: the same; fp32: within 1) and reaches the same solution; on
   one level (the whole grid dense) CG converges in one iteration. */
static void test_dense_mgcg(void **state)
{
  if (SbpTestWorldSize() > 1) skip(); /* one rank's; several: test_ranks */
  static const struct {
    PetscInt    Nr, Ns, levels;
    const char *bc, *prec;
  } cases[] = {{64, 64, 0, "DDNN", "double"},
               {64, 48, 0, "NNNN", "double"},
               {64, 64, 0, "DDNN", "single"},
               {50, 30, 0, "DNDN", "single"},
               {12, 10, 1, "DDNN", "double"}};

  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    PetscInt  its[2];
    Vec       u[2] = {NULL, NULL};
    PetscReal d, un;
    for (int q = 0; q < 2; q++) {
      SbpProblem         p = SbpTestProblem(PETSC_COMM_SELF, cases[c].Nr, cases[c].Ns, cases[c].bc, SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL);
      Mat                A;
      KSP                ksp = setup_mgcg(p, &A, q ? "dense" : "cholmod", cases[c].prec, cases[c].levels, NULL);
      Vec                g, x;
      KSPConvergedReason reason;
      PCALL(MatCreateVecs(A, &x, &g));
      SbpmgTestFillRandom(g, 5);
      if (cases[c].bc[0] == 'N' && cases[c].bc[1] == 'N' && cases[c].bc[2] == 'N' && cases[c].bc[3] == 'N') {
        MatNullSpace ns;
        PCALL(MatGetNullSpace(A, &ns));
        PCALL(MatNullSpaceRemove(ns, g));
      }
      PCALL(KSPSolve(ksp, g, x));
      PCALL(KSPGetConvergedReason(ksp, &reason));
      if (reason < 0) fail_msg("case %d (%s coarse solve): CG + sbpmg did not converge: %s", (int)c, q ? "dense" : "cholmod", KSPConvergedReasons[reason]);
      PCALL(KSPGetIterationNumber(ksp, &its[q]));
      PCALL(VecDuplicate(x, &u[q]));
      PCALL(VecCopy(x, u[q]));
      SbpmgTestDestroyVecs(&g, &x, NULL);
      PCALL(KSPDestroy(&ksp));
      PCALL(MatDestroy(&A));
      PCALL(SbpProblemDestroy(&p));
    }
    PCALL(VecNorm(u[0], NORM_2, &un));
    PCALL(VecAXPY(u[1], -1.0, u[0]));
    PCALL(VecNorm(u[1], NORM_2, &d));
    print_message("  %s %d x %d, %s, %d level(s): %d iterations with CHOLMOD, %d with the dense coarse solve; solutions differ by %.1e\n", cases[c].bc,
                  (int)cases[c].Nr, (int)cases[c].Ns, cases[c].prec, (int)(cases[c].levels ? cases[c].levels : 0), (int)its[0], (int)its[1], d / un);
    if (cases[c].levels == 1 && its[1] != 1) fail_msg("one level, the whole grid dense: %d iterations, not 1", (int)its[1]);
    if (PetscAbsInt(its[1] - its[0]) > (cases[c].prec[0] == 's' ? 1 : 0))
      fail_msg("case %d: %d iterations with the dense coarse solve, %d with CHOLMOD", (int)c, (int)its[1], (int)its[0]);
    if (!(d <= 1e-8 * un)) fail_msg("case %d: the solutions differ by %g relative", (int)c, d / un);
    SbpmgTestDestroyVecs(&u[0], &u[1], NULL);
  }
}

/* auto: dense on the device backend where the coarse grid has at most tuning mg_coarse_dense nodes, CHOLMOD beyond and on the host backend */
static void test_auto(void **state)
{
  if (SbpTestWorldSize() > 1) skip(); /* one rank's; several: test_ranks */
  static const struct {
    SbpBackend  backend;
    const char *tune;
    PetscBool   dense;
  } cases[] = {{SBP_BACKEND_DEVICE, "mg_coarse_dense=1089", PETSC_TRUE},
               {SBP_BACKEND_DEVICE, "mg_coarse_dense=1088", PETSC_FALSE},
               {SBP_BACKEND_HOST, "mg_coarse_dense=4225", PETSC_FALSE}};

  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    SbpProblem p = SbpTestProblem(PETSC_COMM_SELF, 64, 64, "DDNN", SBP_MAPPING_CURVED, cases[c].backend, NULL);
    Mat        A;
    KSP        ksp;
    PC         pc;
    PCALL(SbpProblemCreateOperator(p, &A));
    ksp = SbpTestMGCG(A, 1e-8, 50);
    PCALL(KSPGetPC(ksp, &pc));
    PCALL(PCSBPMGSetCoarseSize(pc, 33)); /* 64 -> 32: a coarse grid of 33^2 = 1089 nodes */
    PCALL(PCSBPMGSetTuning(pc, cases[c].tune));
    PCALL(KSPSetUp(ksp));
    if (PCSBPMGGetContext(pc)->coarse_dense != cases[c].dense)
      fail_msg("auto, %s, %s: the coarse solve is %s", cases[c].backend == SBP_BACKEND_DEVICE ? "device" : "host", cases[c].tune,
               PCSBPMGGetContext(pc)->coarse_dense ? "dense" : "CHOLMOD");
    PCALL(KSPDestroy(&ksp));
    PCALL(MatDestroy(&A));
    PCALL(SbpProblemDestroy(&p));
  }
}

static void test_bad_input(void **state)
{
  if (SbpTestWorldSize() > 1) skip(); /* one rank's; several: test_ranks */
  static const struct {
    SbpBackend     backend;
    PetscInt       N;
    const char    *opts[5];
    PetscErrorCode code;
    const char    *msg;
  } cases[] = {
      {SBP_BACKEND_HOST, 32, {"-pc_sbpmg_coarse_solve", "dense", NULL}, PETSC_ERR_SUP, "-pc_sbpmg_coarse_solve dense needs the device backend"},
      {SBP_BACKEND_DEVICE,
       80,
       {"-pc_sbpmg_coarse_solve", "dense", "-pc_sbpmg_levels", "1", NULL},
       PETSC_ERR_ARG_OUTOFRANGE,
       "the coarse grid has 6561 nodes, more than the dense inverse takes (4225"},
      {SBP_BACKEND_DEVICE, 32, {"-pc_sbpmg_coarse_solve", "dense", NULL}, PETSC_ERR_ARG_OUTOFRANGE, "Tuning mg_dense_wg 48 must be a power of two"},
      {SBP_BACKEND_DEVICE, 32, {"-pc_sbpmg_coarse_solve", "dense", NULL}, PETSC_ERR_ARG_OUTOFRANGE, "Tuning mg_invert_lanes 3 must be a power of two"},
  };
  static const char *tunes[] = {NULL, NULL, "mg_dense_wg=48", "mg_invert_lanes=3"};

  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    SbpProblem p;
    Mat        A;
    KSP        ksp;
    p = SbpTestProblem(PETSC_COMM_SELF, cases[c].N, cases[c].N, "DDNN", SBP_MAPPING_CURVED, cases[c].backend, NULL);
    PCALL(SbpProblemCreateOperator(p, &A));
    ksp = SbpTestMGCG(A, 1e-8, 10);
    if (tunes[c]) { /* a work-group, or lanes per column, that are not a power of two */
      PC pc;
      PCALL(KSPGetPC(ksp, &pc));
      PCALL(PCSBPMGSetTuning(pc, tunes[c]));
    }
    for (int o = 0; cases[c].opts[o]; o += 2) SbpmgTestSetOption(cases[c].opts[o], cases[c].opts[o + 1]);
    PCALL(KSPSetFromOptions(ksp));
    EXPECT_ERROR(KSPSetUp(ksp), cases[c].code, cases[c].msg);
    for (int o = 0; cases[c].opts[o]; o += 2) SbpmgTestSetOption(cases[c].opts[o], NULL);
    PCALL(KSPDestroy(&ksp));
    PCALL(MatDestroy(&A));
    PCALL(SbpProblemDestroy(&p));
  }
}

/* Several ranks: auto takes CHOLMOD (gathered onto every rank), dense is an error naming the ranks. */
static void test_ranks(void **state)
{
  SbpProblem p;
  Mat        A;
  KSP        ksp;
  PC         pc;

  if (SbpTestWorldSize() == 1) skip();
  p = SbpTestProblem(PETSC_COMM_WORLD, 64, 64, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL);
  PCALL(SbpProblemCreateOperator(p, &A));
  for (int dense = 0; dense < 2; dense++) {
    ksp = SbpTestMGCG(A, 1e-8, 50);
    PCALL(KSPGetPC(ksp, &pc));
    PCALL(PCSBPMGSetCoarseSize(pc, 33));
    PCALL(PCSBPMGSetTuning(pc, "mg_coarse_dense=4225"));
    if (dense) {
      PCALL(PCSBPMGSetCoarseSolve(pc, PC_SBPMG_COARSE_DENSE));
      EXPECT_ERROR(KSPSetUp(ksp), PETSC_ERR_SUP, "-pc_sbpmg_coarse_solve dense needs one MPI rank");
    } else {
      PCALL(KSPSetUp(ksp));
      if (PCSBPMGGetContext(pc)->coarse_dense) fail_msg("auto on %d ranks chose the dense coarse solve", SbpTestWorldSize());
    }
    PCALL(KSPDestroy(&ksp));
  }
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_dense_inverse), cmocka_unit_test(test_dense_mgcg), cmocka_unit_test(test_auto),
    cmocka_unit_test(test_bad_input),     cmocka_unit_test(test_ranks),
};

SBPMG_TEST_MAIN(help, tests)
