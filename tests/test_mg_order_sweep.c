/* The fused smoothing sweep of the order-p finest level (p = 4, 6; kernels/sbp_wide.cl "the smoothing sweep", src/sbp/wide.c
   SbpProblemSweepWide, src/mg/sweeps.c; docs/design.md "Multigrid at higher order") against the sweep with PETSc vector operations
   around MatResidual (tuning mg_wide_sweep 0, the host backend's path) on the same device operator, and against the host backend's:
   1..5 sweeps from zero and from a guess, Chebyshev, Jacobi and Richardson, the interior in one pass and in two (sbp_wide_fuse), 1/diag
   stored whatever mg_inline_diag, DDNN and NNNN, Nr != Ns; on 1, 2 and 3 ranks (tests/mg.cmake). The fused sweep must not call
   MatResidual. */
#include "test_sbp_common.h"
#include <petsc/private/matimpl.h>

static const char help[] = "Tests of the fused order-p smoothing sweep (src/mg/sweeps.c, kernels/sbp_wide.cl).\n";

/* A smoother of the given type on M, its tuning the problem's with mg_wide_sweep and mg_inline_diag set. */
static PC make_smoother(Mat M, PCSBPMGSmootherType type, PetscInt wide_sweep, PetscInt inline_diag)
{
  PC                      pc;
  SbpProblem              p;
  PCSBPMGSmootherSettings set;

  PCALL(MatGetSbpProblem(M, &p));
  set                     = (PCSBPMGSmootherSettings){type, 0.1, 1.1, 0, 10, SBP_KERNEL_FP64, p->tune, NULL, PETSC_FALSE};
  set.tune.mg_wide_sweep  = wide_sweep;
  set.tune.mg_inline_diag = inline_diag;
  PCALL(PCCreate(PetscObjectComm((PetscObject)M), &pc));
  PCALL(PCSetType(pc, PCSBPMGSMOOTHER));
  PCALL(PCSBPMGSmootherConfigure(pc, &set));
  PCALL(PCSetOperators(pc, M, M));
  PCALL(PCSetUp(pc));
  return pc;
}

/* The calls of MatResidual so far on this rank (PETSc's log, begun in main). */
static PetscLogDouble residual_count(void)
{
  PetscEventPerfInfo info;

  PCALL(PetscLogEventGetPerfInfo(PETSC_DETERMINE, MAT_Residual, &info));
  return info.count;
}

/* its sweeps of pc from x = guess (or from zero: x is NaN on entry, and must not be read); the calls of MatResidual they made */
static PetscLogDouble run_sweeps(PC pc, Vec b, Vec guess, Vec x, PetscInt its)
{
  PetscInt                    outits;
  PCRichardsonConvergedReason reason;
  PetscLogDouble              before = residual_count();

  if (guess)
    PCALL(VecCopy(guess, x));
  else
    PCALL(VecSet(x, NAN));
  PCALL(PCApplyRichardson(pc, b, x, NULL, 0, 0, 0, its, guess ? PETSC_FALSE : PETSC_TRUE, &outits, &reason));
  return residual_count() - before;
}

/* The fused sweeps against the vector-operation sweeps (the same device operator) and against the host backend's, at order p, Nr x Ns
   intervals, on the faces bc, with the device tuning tune. */
static void check_case(PetscInt order, PetscInt Nr, PetscInt Ns, const char *bc, const char *tune, PetscInt inline_diag)
{
  const SbpTestOrderSettings sd = {order, 0, NULL, tune}, sh = {order, 0, NULL, NULL};
  SbpProblem                 pd = SbpTestOrderProblem(PETSC_COMM_WORLD, Nr, Ns, bc, SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, &sd);
  SbpProblem                 ph = SbpTestOrderProblem(PETSC_COMM_WORLD, Nr, Ns, bc, SBP_MAPPING_CURVED, SBP_BACKEND_HOST, &sh);
  Mat                        Md, Mh;
  Vec                        bd, gd, xf, xv, bh, gh, xh;
  PetscReal                  worst_v = 0, worst_h = 0;

  PCALL(PetscLogDefaultBegin()); /* residual_count() */
  if (!pd->use_device) fail_msg("The device backend was asked for and not taken");
  PCALL(SbpProblemCreateOperator(pd, &Md));
  PCALL(SbpProblemCreateOperator(ph, &Mh));
  PCALL(MatCreateVecs(Md, &xf, &bd));
  PCALL(VecDuplicate(bd, &gd));
  PCALL(VecDuplicate(bd, &xv));
  PCALL(MatCreateVecs(Mh, &xh, &bh));
  PCALL(VecDuplicate(bh, &gh));
  SbpmgTestFillRandom(bd, 41);
  SbpmgTestFillRandom(gd, 42);
  SbpmgTestFillRandom(bh, 41);
  SbpmgTestFillRandom(gh, 42);
  for (int type = 0; type < 3; type++) {
    PCSBPMGSmootherType t     = type == 0 ? PC_SBPMG_CHEBYSHEV : (type == 1 ? PC_SBPMG_JACOBI : PC_SBPMG_RICHARDSON);
    PC                  fused = make_smoother(Md, t, 1, inline_diag), vecop = make_smoother(Md, t, 0, inline_diag), host = make_smoother(Mh, t, 1, 0);

    for (PetscInt its = 1; its <= 5; its++)
      for (int guess = 0; guess < 2; guess++) {
        PetscLogDouble nf = run_sweeps(fused, bd, guess ? gd : NULL, xf, its), nv = run_sweeps(vecop, bd, guess ? gd : NULL, xv, its);
        PetscReal      dv, dh;

        (void)run_sweeps(host, bh, guess ? gh : NULL, xh, its);
        dv = SbpmgTestRelDiff(xf, xv);
        dh = SbpmgTestRelDiff(xf, xh);
        if (nf != 0 || nv != its - (guess ? 0 : 1))
          fail_msg("p = %d %s %s: %d sweeps called MatResidual %g times fused, %g times by vector operations", (int)order, bc, PCSBPMGSmootherTypes[t],
                   (int)its, nf, nv);
        if (!(dv < 1e-13 && dh < 1e-12))
          fail_msg("p = %d %s %s (%s), %d sweeps from %s: the fused sweeps differ from the vector-operation sweeps by %g, from the host's by %g", (int)order,
                   bc, PCSBPMGSmootherTypes[t], tune, (int)its, guess ? "a guess" : "zero", dv, dh);
        worst_v = PetscMax(worst_v, dv);
        worst_h = PetscMax(worst_h, dh);
      }
    PCALL(PCDestroy(&fused));
    PCALL(PCDestroy(&vecop));
    PCALL(PCDestroy(&host));
  }
  print_message("  p = %d, %d x %d %s (%s, mg_inline_diag %d): fused against vector operations %.1e, against the host %.1e\n", (int)order, (int)Nr, (int)Ns, bc,
                tune, (int)inline_diag, worst_v, worst_h);
  PCALL(VecDestroy(&bd));
  PCALL(VecDestroy(&gd));
  PCALL(VecDestroy(&xf));
  PCALL(VecDestroy(&xv));
  PCALL(VecDestroy(&bh));
  PCALL(VecDestroy(&gh));
  PCALL(VecDestroy(&xh));
  PCALL(MatDestroy(&Md));
  PCALL(MatDestroy(&Mh));
  PCALL(SbpProblemDestroy(&pd));
  PCALL(SbpProblemDestroy(&ph));
}

static void test_order4(void **state)
{
  (void)state;
  check_case(4, 45, 38, "DDNN", "sbp_wide_fuse=0", 0); /* 45 x 38: on 3 ranks at least 12 nodes each way (p = 6: SbpProblemMinimumOwned) */
  check_case(4, 38, 45, "NNNN", "sbp_wide_fuse=1", 1);
  check_case(4, 45, 38, "DDDD", "sbp_wide_fuse=1,sbp_wide_lanes=8", 1); /* the rim's rows by 8 work-items a node (GPUs) */
}

static void test_order6(void **state)
{
  (void)state;
  check_case(6, 45, 38, "DDNN", "sbp_wide_fuse=1", 0);
  check_case(6, 38, 45, "NNNN", "sbp_wide_fuse=0", 1);
  check_case(6, 45, 38, "DNDN", "sbp_wide_lanes=4", 0);
}

/* The interior box empty (p = 6, Nr = 17 < 2 nM: the gather form alone over every node); one and two ranks (three cannot own 12 nodes each). */
static void test_small(void **state)
{
  (void)state;
  if (SbpTestWorldSize() > 2) skip();
  check_case(6, 17, 24, "DDDD", "sbp_wide_fuse=1,sbp_rim_wg=16", 0);
  check_case(6, 17, 24, "DDDD", "sbp_wide_fuse=1,sbp_rim_wg=16,sbp_wide_lanes=8", 0); /* every node by 8 work-items */
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_order4),
    cmocka_unit_test(test_order6),
    cmocka_unit_test(test_small),
};

SBPMG_TEST_MAIN(help, tests)
