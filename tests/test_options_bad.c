/* Values that are accepted but wrong (issue 22 item 7): every real option range-checked (infinite and NaN refused, the Chebyshev
   interval bounded), every array option length-checked (extra values an error, not dropped), integer options that wrap around
   2^32, options that do nothing in the configuration in force, -pc_sbpmg_nu_max below -pc_sbpmg_nu, work-group tuning named
   in its error, Galerkin products with sbpmg, the library's own CHOLMOD option never "left", and the Richardson smoother SPD. */
#include "test_sbp_common.h"
#include <petsc/private/pcmgimpl.h>

static const char help[] = "Tests of bad option values (issue 22 item 7).\n";

/* ---------------------------------------------------------------- the sbpmg preconditioner */

/* A KSP with -pc_type sbpmg and the options (name, value pairs, NULL-terminated) on A; its set-up must fail with code and msg. */
static void expect_pc_error(Mat A, const char *const opts[], PetscErrorCode code, const char *msg)
{
  KSP ksp;

  SbpmgTestSetOption("-pc_type", "sbpmg");
  for (int o = 0; opts[o]; o += 2) SbpmgTestSetOption(opts[o], opts[o + 1]);
  PCALL(KSPCreate(PETSC_COMM_SELF, &ksp));
  PCALL(KSPSetOperators(ksp, A, A));
  PCALL(KSPSetFromOptions(ksp));
  EXPECT_ERROR(KSPSetUp(ksp), code, msg);
  PCALL(KSPDestroy(&ksp));
  for (int o = 0; opts[o]; o += 2) SbpmgTestSetOption(opts[o], NULL);
  SbpmgTestSetOption("-pc_type", NULL);
}

static void test_pc_options(void **state)
{
  SbpProblem p = SbpTestProblem(PETSC_COMM_SELF, 48, 24, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL);
  Mat        A;
  const struct {
    const char    *opts[7];
    PetscErrorCode code;
    const char    *msg;
  } bad[] = {
      /* the Chebyshev interval: infinite, below lambda_max, so wide that CG stops at a wrong answer, extra values */
      {{"-pc_sbpmg_cheby_range", "0.1,inf", NULL}, PETSC_ERR_ARG_OUTOFRANGE, "Chebyshev range [0.1, inf.] (-pc_sbpmg_cheby_range): hi must be in [1, 10]"},
      {{"-pc_sbpmg_cheby_range", "nan,1.1", NULL}, PETSC_ERR_ARG_OUTOFRANGE, "Chebyshev range [nan., 1.1] must satisfy 0 < lo < hi"},
      {{"-pc_sbpmg_cheby_range", "0.1,0.9", NULL}, PETSC_ERR_ARG_OUTOFRANGE, "Chebyshev range [0.1, 0.9] (-pc_sbpmg_cheby_range): hi must be in [1, 10]"},
      {{"-pc_sbpmg_cheby_range", "1e-300,1e300", NULL},
       PETSC_ERR_ARG_OUTOFRANGE,
       "Chebyshev range [1e-300, 1e+300] (-pc_sbpmg_cheby_range): hi must be in [1, 10]"},
      {{"-pc_sbpmg_cheby_range", "0.1,1.1,3", NULL}, PETSC_ERR_ARG_WRONG, "-pc_sbpmg_cheby_range 0.1,1.1,3: give two numbers lo,hi"},
      /* Jacobi's damping: infinite, too large for the level, given to another smoother */
      {{"-pc_sbpmg_smoother", "jacobi", "-pc_sbpmg_jacobi_omega", "inf", NULL},
       PETSC_ERR_ARG_OUTOFRANGE,
       "-pc_sbpmg_jacobi_omega inf. must be >= 0 and finite"},
      {{"-pc_sbpmg_smoother", "jacobi", "-pc_sbpmg_jacobi_omega", "5", NULL},
       PETSC_ERR_ARG_OUTOFRANGE,
       "-pc_sbpmg_jacobi_omega 5. is too large for this level"},
      {{"-pc_sbpmg_jacobi_omega", "0.5", NULL}, PETSC_ERR_ARG_INCOMP, "-pc_sbpmg_jacobi_omega 0.5 has no effect with -pc_sbpmg_smoother chebyshev"},
      {{"-pc_sbpmg_smoother", "jacobi", "-pc_sbpmg_cheby_range", "0.2,1.2", NULL},
       PETSC_ERR_ARG_INCOMP,
       "-pc_sbpmg_cheby_range 0.2,1.2 has no effect with -pc_sbpmg_smoother jacobi"},
      /* the sweeps: an infinite growth, a cap below the finest level's count, extra values */
      {{"-pc_sbpmg_nu_growth", "inf", NULL}, PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_nu_growth inf. must be >= 1 and finite"},
      {{"-pc_sbpmg_nu_max", "2", NULL}, PETSC_ERR_ARG_INCOMP, "-pc_sbpmg_nu_max 2 is below the finest level's sweeps (-pc_sbpmg_nu 3,3)"},
      {{"-pc_sbpmg_nu", "3,3,3,3", NULL}, PETSC_ERR_ARG_SIZ, "-pc_sbpmg_nu 3,3,3,3: more than 2 values"},
      /* the coarse size with the number of levels fixed; an integer beyond 2^32 */
      {{"-pc_sbpmg_levels", "2", "-pc_sbpmg_coarse_size", "9", NULL}, PETSC_ERR_ARG_INCOMP, "-pc_sbpmg_coarse_size 9 has no effect with -pc_sbpmg_levels 2"},
      {{"-pc_sbpmg_levels", "4294967298", NULL}, PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_levels 4294967298: the value 4294967298 does not fit a 32-bit PetscInt"},
      {{"-pc_sbpmg_nu", "3,4294967299", NULL}, PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_nu 3,4294967299: the value 4294967299 does not fit"},
      /* Galerkin products of the re-discretised (shell) levels */
      {{"-pc_mg_galerkin", "both", NULL}, PETSC_ERR_SUP, "-pc_mg_galerkin both: sbpmg re-discretises the operator on every level"},
      {{"-pc_mg_galerkin", "pmat", NULL}, PETSC_ERR_SUP, "-pc_mg_galerkin pmat: sbpmg re-discretises the operator on every level"},
  };

  if (sizeof(PetscInt) != 4) skip();
  PCALL(SbpProblemCreateOperator(p, &A));
  for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) expect_pc_error(A, bad[b].opts, bad[b].code, bad[b].msg);
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

/* A huge growth of the sweeps (its float-to-int conversion was undefined) takes nu_max on the coarser levels. */
static void test_nu_growth_huge(void **state)
{
  const SbpmgTestOption opts[] = {{"-pc_type", "sbpmg"}, {"-pc_sbpmg_levels", "3"}, {"-pc_sbpmg_nu_growth", "1e300"}, {"-pc_sbpmg_nu_max", "7"}, {NULL, NULL}};
  SbpProblem            p      = SbpTestProblem(PETSC_COMM_SELF, 32, 32, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL);
  Mat                   A;
  KSP                   ksp, smooth;
  PC                    pc;
  PetscInt              its;

  PCALL(SbpProblemCreateOperator(p, &A));
  PCALL(KSPCreate(PETSC_COMM_SELF, &ksp));
  PCALL(KSPSetOperators(ksp, A, A));
  SbpmgTestSetOptions(opts);
  PCALL(KSPSetFromOptions(ksp));
  PCALL(KSPSetUp(ksp));
  SbpmgTestClearOptions(opts);
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCMGGetSmoother(pc, 2, &smooth));
  PCALL(KSPGetTolerances(smooth, NULL, NULL, NULL, &its));
  assert_int_equal(its, 3); /* the finest level: nu */
  PCALL(PCMGGetSmoother(pc, 1, &smooth));
  PCALL(KSPGetTolerances(smooth, NULL, NULL, NULL, &its));
  assert_int_equal(its, 7); /* below: 3 * 1e300, capped */
  PCALL(KSPDestroy(&ksp));
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

/* The CHOLMOD option the set-up sets for the coarse factor is never reported to the user as "Option left": when the set-up fails
   after it was set (here a Jacobi damping the smoothers' set-up in PCMG's refuses), it is marked used, and it is gone with the KSP. */
static void test_library_option_not_left(void **state)
{
  const SbpmgTestOption opts[] = {{"-pc_type", "sbpmg"}, {"-pc_sbpmg_smoother", "jacobi"}, {"-pc_sbpmg_jacobi_omega", "5"}, {NULL, NULL}};
  SbpProblem            p      = SbpTestProblem(PETSC_COMM_SELF, 32, 32, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL);
  Mat                   A;
  KSP                   ksp;
  PC                    pc;
  PetscInt              nleft;
  char                **names, **values;
  PetscBool             set;

  PCALL(SbpProblemCreateOperator(p, &A));
  PCALL(KSPCreate(PETSC_COMM_SELF, &ksp));
  PCALL(KSPSetOperators(ksp, A, A));
  SbpmgTestSetOptions(opts);
  PCALL(KSPSetFromOptions(ksp));
  EXPECT_ERROR(KSPSetUp(ksp), PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_jacobi_omega 5. is too large for this level");
  SbpmgTestClearOptions(opts);
  PCALL(KSPGetPC(ksp, &pc));
  assert_true(PCSBPMGGetContext(pc)->cholmod_opt[0] != 0); /* the set-up failed with the option set */
  PCALL(PetscOptionsLeftGet(NULL, &nleft, &names, &values));
  for (PetscInt i = 0; i < nleft; i++) assert_null(strstr(names[i], "cholmod"));
  PCALL(PetscOptionsLeftRestore(NULL, &nleft, &names, &values));
  PCALL(KSPDestroy(&ksp));
  PCALL(PetscOptionsHasName(NULL, NULL, "-mg_coarse_mat_cholmod_factor", &set));
  assert_false(set);
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
}

/* The Richardson smoother keeps the V-cycle positive definite: CG converges on the square with constant mu (it ended
   DIVERGED_INDEFINITE_PC there) and on the curved grid, to the direct solve's answer. */
static void test_richardson_spd(void **state)
{
  const SbpMappingType maps[] = {SBP_MAPPING_SQUARE, SBP_MAPPING_CURVED};

  for (int m = 0; m < 2; m++) {
    SbpProblem         p;
    SbpTestSystem      s;
    KSP                direct;
    Vec                ud;
    KSPConvergedReason reason;
    PetscInt           its;
    PetscReal          diff, scale;
    SbpTestMGSettings  set = {"richardson", 0, 0, NULL};

    PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
    PCALL(SbpProblemSetSizes(p, 64, 64));
    PCALL(SbpProblemSetMapping(p, maps[m]));
    if (maps[m] == SBP_MAPPING_SQUARE) PCALL(SbpProblemSetMu(p, SBP_MU_CONSTANT, 1));
    PCALL(SbpProblemSetBackend(p, SBP_BACKEND_DEVICE));
    PCALL(SbpProblemSetUp(p));
    SbpTestSystemCreate(p, PETSC_FALSE, &s);
    s.ksp = SbpTestMGCGSetUp(s.A, 1e-10, &set);
    PCALL(KSPSolve(s.ksp, s.g, s.u));
    PCALL(KSPGetConvergedReason(s.ksp, &reason));
    PCALL(KSPGetIterationNumber(s.ksp, &its));
    {
      Mat Aasm;
      PCALL(SbpProblemCreateAssembledOperator(p, &Aasm));
      direct = SbpTestCholmod(Aasm);
      PCALL(VecDuplicate(s.u, &ud));
      PCALL(KSPSolve(direct, s.g, ud));
      PCALL(MatDestroy(&Aasm));
    }
    PCALL(VecAXPY(ud, -1, s.u));
    PCALL(VecNorm(ud, NORM_INFINITY, &diff));
    PCALL(VecNorm(s.u, NORM_INFINITY, &scale));
    print_message("  richardson on the %s grid: %s after %d iterations, |u - u_direct| / |u| = %.1e\n", SbpMappingTypes[maps[m]], KSPConvergedReasons[reason],
                  (int)its, (double)(diff / scale));
    assert_true(reason > 0);
    assert_true(diff / scale < 1e-8);
    PCALL(VecDestroy(&ud));
    PCALL(KSPDestroy(&direct));
    SbpTestSystemDestroy(&s);
  }
}

/* ---------------------------------------------------------------- the SBP-SAT problem */

static void test_sbp_options(void **state)
{
  const struct {
    const char    *opts[5];
    int            setup; /* the error at SbpProblemSetUp() (1) or at SbpProblemSetFromOptions() (0) */
    PetscErrorCode code;
    const char    *msg;
  } bad[] = {
      {{"-sbp_n", "4294967297", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE, "-sbp_n 4294967297: the value 4294967297 does not fit a 32-bit PetscInt"},
      {{"-sbp_n", "8,8,8,8", NULL}, 0, PETSC_ERR_ARG_SIZ, "-sbp_n 8,8,8,8: more than 2 values"},
      {{"-sbp_n", "70000", NULL}, 1, PETSC_ERR_ARG_OUTOFRANGE, "-sbp_n 70000,70000: the grid has 4900140001 nodes, more than the 32-bit indices hold"},
      {{"-sbp_mu_value", "2", NULL}, 0, PETSC_ERR_ARG_INCOMP, "-sbp_mu_value 2. has no effect: the coefficient is -sbp_mu basin, not constant"},
      {{"-sbp_mu", "constant", "-sbp_mu_value", "nan", NULL}, 1, PETSC_ERR_ARG_OUTOFRANGE, "-sbp_mu_value nan"},
  };

  if (sizeof(PetscInt) != 4) skip();
  for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
    SbpProblem p;
    for (int o = 0; bad[b].opts[o]; o += 2) SbpmgTestSetOption(bad[b].opts[o], bad[b].opts[o + 1]);
    PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
    if (bad[b].setup) {
      PCALL(SbpProblemSetFromOptions(p));
      EXPECT_ERROR(SbpProblemSetUp(p), bad[b].code, bad[b].msg);
    } else
      EXPECT_ERROR(SbpProblemSetFromOptions(p), bad[b].code, bad[b].msg);
    PCALL(SbpProblemDestroy(&p));
    for (int o = 0; bad[b].opts[o]; o += 2) SbpmgTestSetOption(bad[b].opts[o], NULL);
  }
  /* tuning the device's kernels cannot take, named by its rows before any launch: a work-group of the 2D kernels beyond the device's
     limit; the order-p rim's lanes a node not dividing the rim's work-group */
  for (int t = 0; t < 2; t++) {
    static const char *tune[2] = {"sbp_wg_x=1024,sbp_wg_y=1024", "sbp_wide_lanes=3,sbp_rim_wg=64"};
    static const char *msg[2]  = {"Work-group sbp_wg_x=1024 x sbp_wg_y=1024 (tuning, -sbpmg_tune) = 1048576 work-items exceeds the work-group limit",
                                  "Tuning sbp_wide_lanes=3 (work-items a rim node of the order-4 and 6 kernels) must divide sbp_rim_wg=64 (their work-group)"};
    SbpProblem         p;
    PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
    PCALL(SbpProblemSetSizes(p, 16, 16));
    PCALL(SbpProblemSetBackend(p, SBP_BACKEND_DEVICE));
    PCALL(SbpProblemSetTuning(p, tune[t]));
    EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_OUTOFRANGE, msg[t]);
    PCALL(SbpProblemDestroy(&p));
  }
}

/* Options that did nothing, or blamed the wrong thing (issue 37): a file beside the built-in it replaces, mu beyond what the
   coefficients hold (named as mu, not as the metric), device options on a problem that makes no device context (on the host, or
   before the automatic backend's probe, whose failure hid them as "no device"). */
static PetscErrorCode TinyMu(void *ctx, PetscReal x, PetscReal y, PetscReal *mu)
{
  *mu = 1e-35;
  return 0;
}

static void test_silent_options(void **state)
{
  const struct {
    const char    *opts[7];
    int            setup;
    PetscErrorCode code;
    const char    *msg;
  } bad[] = {
      {{"-sbp_mu", "constant", "-sbp_mu_value", "1e-300", NULL},
       1,
       PETSC_ERR_ARG_OUTOFRANGE,
       "-sbp_mu_value 1e-300: the coefficient mu must lie in [1e-30, 1e+30]"},
      {{"-sbp_mu", "constant", "-sbp_mu_value", "1e300", NULL},
       1,
       PETSC_ERR_ARG_OUTOFRANGE,
       "-sbp_mu_value 1e+300: the coefficient mu must lie in [1e-30, 1e+30]"},
      {{"-sbp_mu_file", "/nonexistent/mu.bin", "-sbp_mu_value", "2", NULL},
       0,
       PETSC_ERR_ARG_INCOMP,
       "-sbp_mu_file /nonexistent/mu.bin gives mu at the nodes: -sbp_mu_value beside it would have no effect"},
      {{"-sbp_mu_file", "/nonexistent/mu.bin", "-sbp_mu", "constant", NULL},
       0,
       PETSC_ERR_ARG_INCOMP,
       "-sbp_mu_file /nonexistent/mu.bin gives mu at the nodes: -sbp_mu constant beside it would have no effect"},
      {{"-sbp_grid_file", "/nonexistent/grid.bin", "-sbp_mapping", "square", NULL},
       0,
       PETSC_ERR_ARG_INCOMP,
       "-sbp_grid_file /nonexistent/grid.bin gives the node coordinates: -sbp_mapping square beside it would have no effect"},
      {{"-sbp_backend", "host", "-sbpmg_tune", "sbp_wg_x=8,sbp_wg_q=4", NULL},
       1,
       PETSC_ERR_ARG_UNKNOWN_TYPE,
       "-sbpmg_tune: unknown key 'sbp_wg_q'; the keys are cl_huge_pages, vec_wg"},
      {{"-sbp_backend", "auto", "-sbpmg_tune", "vec_wg=0", NULL}, 1, PETSC_ERR_ARG_OUTOFRANGE, "-sbpmg_tune vec_wg=0 is out of range [1, 1024]"},
      {{"-sbp_backend", "auto", "-cl_mem_cap", "-3", NULL}, 1, PETSC_ERR_ARG_OUTOFRANGE, "-cl_mem_cap -3. must be >= 0 and below 1e12 MiB"},
      {{"-sbp_backend", "host", "-cl_mem_cap", "-3", NULL}, 1, PETSC_ERR_ARG_OUTOFRANGE, "-cl_mem_cap -3. must be >= 0 and below 1e12 MiB"},
  };

  for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
    SbpProblem p;
    for (int o = 0; bad[b].opts[o]; o += 2) SbpmgTestSetOption(bad[b].opts[o], bad[b].opts[o + 1]);
    PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
    PCALL(SbpProblemSetSizes(p, 16, 16));
    if (bad[b].setup) {
      PCALL(SbpProblemSetFromOptions(p));
      EXPECT_ERROR(SbpProblemSetUp(p), bad[b].code, bad[b].msg);
    } else
      EXPECT_ERROR(SbpProblemSetFromOptions(p), bad[b].code, bad[b].msg);
    PCALL(SbpProblemDestroy(&p));
    for (int o = 0; bad[b].opts[o]; o += 2) SbpmgTestSetOption(bad[b].opts[o], NULL);
  }
  /* compiler options whose value starts with '-', as the command line gives them: PETSc takes -DFOO=1 for the next option */
  for (int where = 0; where < 3; where++) {
    SbpProblem p;
    SbpmgCL    cl = NULL;
    PCALL(PetscOptionsInsertString(NULL, "-cl_build_options -DFOO=1"));
    if (where == 2)
      EXPECT_ERROR(SbpmgCLCreate(PETSC_COMM_SELF, &cl), PETSC_ERR_ARG_WRONG, "-cl_build_options was given no value: PETSc takes a value that starts with '-'");
    else {
      PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
      PCALL(SbpProblemSetSizes(p, 16, 16));
      PCALL(SbpProblemSetBackend(p, where ? SBP_BACKEND_HOST : SBP_BACKEND_AUTO));
      EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_WRONG, "-cl_build_options was given no value: PETSc takes a value that starts with '-'");
      PCALL(SbpProblemDestroy(&p));
    }
    assert_null(cl);
    PCALL(PetscOptionsClearValue(NULL, "-cl_build_options"));
    PCALL(PetscOptionsClearValue(NULL, "-DFOO"));
  }
  /* mu beyond the coefficients' range from a function (the host evaluates it) and from OpenCL source (the device): named as mu */
  for (int dev = 0; dev < 2; dev++) {
    SbpProblem p;
    PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
    PCALL(SbpProblemSetSizes(p, 16, 16));
    PCALL(SbpProblemSetBackend(p, dev ? SBP_BACKEND_DEVICE : SBP_BACKEND_HOST));
    if (dev)
      PCALL(SbpProblemSetMuSource(p, "double sbp_user_mu(double x, double y) { return 2e35; }\n"));
    else
      PCALL(SbpProblemSetMuFunction(p, TinyMu, NULL));
    EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_ARG_OUTOFRANGE,
                 dev ? "Invalid SBP-SAT coefficients at node (i,j) = (0,0): mu = 2e+35; need mu in [1e-30, 1e30]"
                     : "Invalid SBP-SAT coefficients at node (i,j) = (0,0): mu = 1e-35; need mu in [1e-30, 1e30]");
    PCALL(SbpProblemDestroy(&p));
  }
}

/* ---------------------------------------------------------------- the device context */

static void test_cl_options(void **state)
{
  const char *const bad[][3] = {
      {"-cl_mem_cap", "inf", "-cl_mem_cap inf. must be >= 0 and below 1e12 MiB"},
      {"-cl_device", "4294967296", "-cl_device 4294967296: the value 4294967296 does not fit a 32-bit PetscInt"},
  };

  if (sizeof(PetscInt) != 4) skip();
  for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
    SbpmgCL cl = NULL;
    SbpmgTestSetOption(bad[b][0], bad[b][1]);
    EXPECT_ERROR(SbpmgCLCreate(PETSC_COMM_SELF, &cl), PETSC_ERR_ARG_OUTOFRANGE, bad[b][2]);
    SbpmgTestSetOption(bad[b][0], NULL);
    assert_null(cl);
  }
}

/* ---------------------------------------------------------------- the acoustic operator */

static void test_acoustic_options(void **state)
{
  char layers[65 * 5 + 1] = "";
  const struct {
    const char    *opts[5];
    PetscErrorCode code;
    const char    *msg;
  } bad[] = {
      {{"-ac_source", "3,3,3,3", NULL}, PETSC_ERR_ARG_SIZ, "-ac_source 3,3,3,3: more than 3 values; it takes 3 values x,y,z"},
      {{"-ac_dx", "10,10,10,10", NULL}, PETSC_ERR_ARG_SIZ, "-ac_dx 10,10,10,10: more than 3 values"},
      {{"-ac_layers", layers, NULL}, PETSC_ERR_ARG_SIZ, ": more than 63 values; it takes v0,z1,v1,...: at most 32 layers"},
      {{"-ac_seed", "5", NULL}, PETSC_ERR_ARG_INCOMP, "-ac_seed 5 has no effect with -ac_init zero"},
      {{"-ac_vmax", "inf", NULL}, PETSC_ERR_ARG_OUTOFRANGE, "Maximum velocity inf. (-ac_vmax) must be >= 0 and finite"},
      {{"-ac_n", "4294967328", NULL}, PETSC_ERR_ARG_OUTOFRANGE, "-ac_n 4294967328: the value 4294967328 does not fit a 32-bit PetscInt"},
      {{"-ac_trace_every", "4294967297", NULL}, PETSC_ERR_ARG_OUTOFRANGE, "-ac_trace_every 4294967297: the value 4294967297 does not fit"},
  };

  if (sizeof(PetscInt) != 4) skip();
  for (int l = 0; l < 65; l++) PCALL(PetscStrlcat(layers, l ? ",2000" : "2000", sizeof(layers)));
  SbpmgTestSetOption("-ac_backend", "host");
  for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
    Acoustic ac;
    for (int o = 0; bad[b].opts[o]; o += 2) SbpmgTestSetOption(bad[b].opts[o], bad[b].opts[o + 1]);
    PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
    EXPECT_ERROR(AcousticSetFromOptions(ac), bad[b].code, bad[b].msg);
    PCALL(AcousticDestroy(&ac));
    for (int o = 0; bad[b].opts[o]; o += 2) SbpmgTestSetOption(bad[b].opts[o], NULL);
  }
  SbpmgTestSetOption("-ac_backend", NULL);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_pc_options),       cmocka_unit_test(test_nu_growth_huge), cmocka_unit_test(test_library_option_not_left),
    cmocka_unit_test(test_richardson_spd),   cmocka_unit_test(test_sbp_options),    cmocka_unit_test(test_cl_options),
    cmocka_unit_test(test_acoustic_options), cmocka_unit_test(test_silent_options),
};

SBPMG_TEST_MAIN(help, tests)
