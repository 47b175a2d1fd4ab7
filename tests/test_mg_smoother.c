/* The level smoother PCSBPMGSMOOTHER alone: several sweeps per pass (mg_smooth_pass) against single sweeps and the host sweeps,
   the pass's work-group checks, and 1/diag computed in the kernel against a stored one. */
#include "test_sbp_common.h"

static const char help[] = "Tests of the sbpmg level smoother (src/mg/smoother.c, kernels/smooth.cl).\n";

/* A smoother on M of the given type: 1/diag inline or stored, the kernels' precision (fp32 coefficients: SBP_KERNEL_COEF32), pass sweeps per pass over the
   data; the rest of its tuning is the problem's. */
static PC make_smoother_of(Mat M, PCSBPMGSmootherType type, PetscBool inline_diag, SbpKernelPrecision prec, PetscInt pass)
{
  PC                      pc;
  SbpProblem              p;
  PCSBPMGSmootherSettings set;

  PCALL(MatGetSbpProblem(M, &p));
  set                         = (PCSBPMGSmootherSettings){type, 0.1, 1.1, 0, 10, prec, p->tune, NULL, PETSC_FALSE};
  set.tune.mg_inline_diag     = inline_diag ? 1 : 0;
  set.tune.mg_sweeps_per_pass = pass;
  PCALL(PCCreate(PETSC_COMM_SELF, &pc));
  PCALL(PCSetType(pc, PCSBPMGSMOOTHER));
  PCALL(PCSBPMGSmootherConfigure(pc, &set));
  PCALL(PCSetOperators(pc, M, M));
  PCALL(PCSetUp(pc));
  return pc;
}

/* A Chebyshev smoother on M: 1/diag inline or stored. */
static PC make_smoother(Mat M, PetscBool inline_diag)
{
  return make_smoother_of(M, PC_SBPMG_CHEBYSHEV, inline_diag, SBP_KERNEL_FP64, 1);
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

/* A problem with the interior/rim split at every size, passes of work-groups of wg work-items streaming through at most rows rows (fewer
   where the launch has fewer than per_cu work-groups per compute unit), single sweeps of inner interior rows per work-item (whole: their
   launch as whole work-groups and one of the columns left, without the kernel's column guard, tuning sbp_inner_whole), and the faces bc
   ("DDNN": face 1..4). */
static SbpProblem make_pass_problem(PetscInt Nr, PetscInt Ns, SbpBackend backend, PetscInt wg, PetscInt rows, PetscInt per_cu, PetscInt inner, PetscInt whole,
                                    const char *bc)
{
  char tune[192];

  PCALL(PetscSNPrintf(tune, sizeof(tune), "sbp_split_min=0,mg_pass_wg=%d,mg_pass_rows=%d,mg_pass_groups_per_cu=%d,sbp_inner_rows=%d,sbp_inner_whole=%d",
                      (int)wg, (int)rows, (int)per_cu, (int)inner, (int)whole));
  return SbpTestProblem(PETSC_COMM_SELF, Nr, Ns, bc, SBP_MAPPING_CURVED, backend, tune);
}

/* A smoother with pass sweeps per pass on a problem of pass work-groups of wg work-items: its set-up fails with the given error. */
static void expect_pass_error(PetscInt wg, PetscInt pass, PetscErrorCode code, const char *msg)
{
  SbpProblem              p = make_pass_problem(48, 40, SBP_BACKEND_DEVICE, wg, 16, 0, 1, 1, "DDNN");
  Mat                     M;
  PC                      pc;
  PCSBPMGSmootherSettings set = {PC_SBPMG_CHEBYSHEV, 0.1, 1.1, 0, 10, SBP_KERNEL_FP64, p->tune, NULL, PETSC_FALSE};

  set.tune.mg_inline_diag     = 1;
  set.tune.mg_sweeps_per_pass = pass;
  PCALL(SbpProblemCreateOperator(p, &M));
  PCALL(PCCreate(PETSC_COMM_SELF, &pc));
  PCALL(PCSetType(pc, PCSBPMGSMOOTHER));
  PCALL(PCSBPMGSmootherConfigure(pc, &set));
  PCALL(PCSetOperators(pc, M, M));
  EXPECT_ERROR(PCSetUp(pc), code, msg);
  PCALL(PCDestroy(&pc));
  PCALL(MatDestroy(&M));
  PCALL(SbpProblemDestroy(&p));
}

/* The largest work-group the device takes, with rings (kernels/smooth.cl: 12 iterate and 16 coefficient rows, fp64: 224 bytes a work-item)
   beyond its local memory (PoCL: 4096 work-items, 512 KiB; NVIDIA: 1024, 48 KiB): the smoother runs one sweep per pass, and its sweeps
   are still those of single sweeps. */
static void check_local_memory_fallback(void)
{
  SbpProblem p = make_pass_problem(48, 40, SBP_BACKEND_DEVICE, 16, 16, 0, 1, 1, "DDNN"), q;
  Mat        M, Mq;
  Vec        b, x1, xq;
  PC         one, pq;
  size_t     wgmax;
  cl_ulong   lmem;
  char       tune[128];
  PetscInt   on;

  PCALL(clGetDeviceInfo(p->cl->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(wgmax), &wgmax, NULL) ? PETSC_ERR_LIB : 0);
  PCALL(clGetDeviceInfo(p->cl->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(lmem), &lmem, NULL) ? PETSC_ERR_LIB : 0);
  if ((cl_ulong)wgmax * 224 <= lmem) {
    print_message("  the largest work-group's rings fit the device's local memory: no case\n");
    PCALL(SbpProblemDestroy(&p));
    return;
  }
  PCALL(PetscSNPrintf(tune, sizeof(tune), "sbp_split_min=0,mg_pass_wg=%d", (int)wgmax));
  q = SbpTestProblem(PETSC_COMM_SELF, 48, 40, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, tune);
  PCALL(SbpProblemCreateOperator(p, &M));
  PCALL(SbpProblemCreateOperator(q, &Mq));
  PCALL(MatCreateVecs(M, &x1, &b));
  PCALL(MatCreateVecs(Mq, &xq, NULL));
  SbpmgTestFillRandom(b, 5);
  one = make_smoother_of(M, PC_SBPMG_CHEBYSHEV, PETSC_TRUE, SBP_KERNEL_FP64, 1);
  pq  = make_smoother_of(Mq, PC_SBPMG_CHEBYSHEV, PETSC_TRUE, SBP_KERNEL_FP64, 3);
  PCALL(PCSBPMGSmootherGetPass(pq, &on));
  if (on != 1)
    fail_msg("work-group %d, %d bytes of rings against %llu of local memory: %d sweeps per pass in use", (int)wgmax, (int)wgmax * 224, (unsigned long long)lmem,
             (int)on);
  run_sweeps(one, b, NULL, x1, 5);
  run_sweeps(pq, b, NULL, xq, 5);
  if (!(SbpmgTestRelDiff(xq, x1) < 1e-15)) fail_msg("the single sweeps of the fallback differ from one per pass by %g", SbpmgTestRelDiff(xq, x1));
  print_message("  work-group %d: rings of %d bytes against %llu of local memory: one sweep per pass\n", (int)wgmax, (int)wgmax * 224,
                (unsigned long long)lmem);
  PCALL(PCDestroy(&one));
  PCALL(PCDestroy(&pq));
  SbpmgTestDestroyVecs(&b, &x1, &xq, NULL);
  PCALL(MatDestroy(&M));
  PCALL(MatDestroy(&Mq));
  PCALL(SbpProblemDestroy(&p));
  PCALL(SbpProblemDestroy(&q));
}

/* Two and three sweeps per pass (kernels/smooth.cl mg_smooth_pass: strips of columns streamed row by row, the iterates' rows in local
   memory; the rim of the core box by single sweeps) against the host sweeps (PETSc vector operations on the host operator) and against one sweep per pass:
   equal to rounding for 1..7 sweeps from zero and from a guess (so a single sweep or a pass of two first, then passes that do and do not keep the previous
   iterate), Chebyshev and Jacobi, 1/diag inline and stored, on strips and row blocks that do and do not divide the core (rows halved for a launch of too few
   work-groups), an empty core, Dirichlet and Neumann faces. With fp32 coefficients, against one sweep per pass on the same coefficients. */
static void test_pass_sweeps(void **state)
{
  const struct {
    PetscInt    Nr, Ns, wg, rows, per_cu, inner, whole;
    const char *bc;
  } grids[] = {
      {48, 40, 10, 3, 0, 3, 1, "DDNN"},     /* single sweeps over 43 interior columns: a work-group of 32 and one of 11 */
      {61, 35, 32, 64, 1024, 2, 0, "NDDN"}, /* 64 rows, halved to 8: more work-groups; single sweeps with the column guard */
      {9, 7, 7, 3, 0, 1, 1, "DDDD"},        /* 9 x 7: the interior box 4 x 2 nodes, no core: all in the rim launches */
  };

  for (size_t gi = 0; gi < sizeof(grids) / sizeof(grids[0]); gi++) {
    SbpProblem ph = make_pass_problem(grids[gi].Nr, grids[gi].Ns, SBP_BACKEND_HOST, 16, 16, 0, 1, 1, grids[gi].bc);
    SbpProblem pd = make_pass_problem(grids[gi].Nr, grids[gi].Ns, SBP_BACKEND_DEVICE, grids[gi].wg, grids[gi].rows, grids[gi].per_cu, grids[gi].inner,
                                      grids[gi].whole, grids[gi].bc);
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
        PC                  sh  = make_smoother_of(Mh, t, PETSC_FALSE, SBP_KERNEL_FP64, 1);
        PC                  one = make_smoother_of(Md, t, inl ? PETSC_TRUE : PETSC_FALSE, SBP_KERNEL_FP64, 1);

        for (PetscInt m = 2; m <= 3; m++) {
          PC       pm = make_smoother_of(Md, t, inl ? PETSC_TRUE : PETSC_FALSE, SBP_KERNEL_FP64, m);
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
      PC one = make_smoother_of(Md, PC_SBPMG_CHEBYSHEV, PETSC_TRUE, SBP_KERNEL_COEF32, 1);
      PC pm  = make_smoother_of(Md, PC_SBPMG_CHEBYSHEV, PETSC_TRUE, SBP_KERNEL_COEF32, m);
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
    print_message(
        "  %d x %d (%s, work-group %d, %d rows, %d interior rows per work-item): 2 and 3 sweeps per pass against the host %.1e, against one per pass %.1e\n",
        (int)grids[gi].Nr, (int)grids[gi].Ns, grids[gi].bc, (int)grids[gi].wg, (int)grids[gi].rows, (int)grids[gi].inner, worst_host, worst_one);
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
  expect_pass_error(8192, 2, PETSC_ERR_SUP, "Work-group of 8192 work-items (tuning mg_pass_wg) is larger than the device runs mg_smooth_pass with");
  expect_pass_error(6, 3, PETSC_ERR_ARG_OUTOFRANGE,
                    "Work-group of 6 work-items (tuning mg_pass_wg) holds no column for 3 sweeps per pass (mg_sweeps_per_pass): it needs more than 6");
  check_local_memory_fallback();
}

/* One Chebyshev sweep from zero is x = D^-1 b / theta. The device sweep that computes 1/diag inline (by an fp32 reciprocal and two
   Newton steps, kernels/smooth.cl mg_recip) against the one that reads 1/diag from a vector made by an IEEE division on the host:
   equal to rounding, on the interior kernel, the rim and the single kernel. */
static void test_inline_reciprocal(void **state)
{
  for (int split = 0; split < 2; split++) {
    SbpProblem p;
    Mat        M;
    Vec        b, x[2];
    PetscReal  err;

    p = SbpTestProblem(PETSC_COMM_SELF, 48, 40, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, split ? "sbp_split_min=0" : "sbp_split=0,sbp_split_min=0");
    PCALL(SbpProblemCreateOperator(p, &M));
    PCALL(MatCreateVecs(M, &x[0], &b));
    PCALL(VecDuplicate(b, &x[1]));
    SbpmgTestFillRandom(b, 99);
    for (int inl = 0; inl < 2; inl++) {
      PC pc = make_smoother(M, inl ? PETSC_TRUE : PETSC_FALSE);
      PCALL(VecSet(x[inl], NAN));
      PCALL(PCApply(pc, b, x[inl]));
      PCALL(PCDestroy(&pc));
    }
    err = SbpmgTestRelDiff(x[1], x[0]);
    print_message("  %s: inline reciprocal against the stored 1/diag: %.2e\n", split ? "interior and rim" : "one kernel", err);
    if (!(err < 1e-15)) fail_msg("inline 1/diag differs from the stored one by %g", err);
    PCALL(VecDestroy(&b));
    PCALL(VecDestroy(&x[0]));
    PCALL(VecDestroy(&x[1]));
    PCALL(MatDestroy(&M));
    PCALL(SbpProblemDestroy(&p));
  }
}

/* The eigenvalue estimates of a smoother on the device (the start vector made by kernels/estimate.cl, CG on device vectors) equal
   the host's (the start vector's loop on the host, CG on host vectors) to rounding. */
static void test_estimates_device_vs_host(void **state)
{
  SbpProblem pd = SbpTestProblem(PETSC_COMM_SELF, 40, 24, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL);
  SbpProblem ph = SbpTestProblem(PETSC_COMM_SELF, 40, 24, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_HOST, NULL);
  Mat        Md, Mh;
  PC         sd, sh;
  PetscReal  lmin[2], lmax[2];

  PCALL(SbpProblemCreateOperator(pd, &Md));
  PCALL(SbpProblemCreateOperator(ph, &Mh));
  sd = make_smoother(Md, PETSC_FALSE);
  sh = make_smoother(Mh, PETSC_FALSE);
  PCALL(PCSBPMGSmootherGetEstimates(sd, &lmin[0], &lmax[0]));
  PCALL(PCSBPMGSmootherGetEstimates(sh, &lmin[1], &lmax[1]));
  print_message("  lambda_max device %.15g, host %.15g\n", (double)lmax[0], (double)lmax[1]);
  if (!(PetscAbsReal(lmax[0] - lmax[1]) <= 1e-12 * lmax[1])) fail_msg("lambda_max on the device %.15g, on the host %.15g", (double)lmax[0], (double)lmax[1]);
  if (!(PetscAbsReal(lmin[0] - lmin[1]) <= 1e-10 * lmax[1])) fail_msg("lambda_min on the device %.15g, on the host %.15g", (double)lmin[0], (double)lmin[1]);
  PCALL(PCDestroy(&sd));
  PCALL(PCDestroy(&sh));
  PCALL(MatDestroy(&Md));
  PCALL(MatDestroy(&Mh));
  PCALL(SbpProblemDestroy(&pd));
  PCALL(SbpProblemDestroy(&ph));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_inline_reciprocal),
    cmocka_unit_test(test_pass_sweeps),
    cmocka_unit_test(test_estimates_device_vs_host),
};

SBPMG_TEST_MAIN(help, tests)
