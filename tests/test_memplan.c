/* The memory plan (docs/design.md "The memory plan"): the estimates of the SBP-SAT problem's set-up, of PCSBPMG's hierarchy and of the
   acoustic operator's set-up against the device bytes they really allocate (the context's counters: a count, not a time), and grids
   too large for the memory refused before anything is allocated, with what they need and what there is. */
#include "test_sbp_common.h"

static const char help[] = "Tests of the memory plan (src/cl/memory.c, src/sbp/setup.c, src/mg/setup.c, src/acoustic/kernels.c).\n";

/* The estimate against the bytes allocated (peak during the set-up, above what was in use before), within [lo, hi] */
static void check_ratio(const char *what, size_t estimate, size_t peak, size_t resident, double lo, double hi)
{
  const double ratio = (double)estimate / (double)PetscMax(peak, 1);

  print_message("%-52s estimate %12zu  peak %12zu  resident %12zu bytes: estimate / peak = %.3f\n", what, estimate, peak, resident, ratio);
  if (ratio < lo || ratio > hi) fail_msg("%s: estimate %zu bytes against %zu allocated (ratio %.3f outside [%.2f, %.2f])", what, estimate, peak, ratio, lo, hi);
}

static SbpmgCL default_context(void)
{
  SbpmgCL cl;

  PCALL(SbpmgCLGetDefault(&cl));
  return cl;
}

/* The problem's set-up: coefficients, nodal data, the check's buffer */
static void test_problem_estimate(void **state)
{
  const PetscInt sizes[][2] = {
      {64, 64},
      {256, 128},
      {1024, 1024},
  };
  SbpmgCL cl = default_context();

  for (int c = 0; c < 3; c++) {
    SbpProblem p;
    SbpPlan    plan;
    size_t     before = cl->mem_used;
    char       what[64];

    cl->mem_peak = cl->mem_used;
    p            = SbpTestProblem(PETSC_COMM_SELF, sizes[c][0], sizes[c][1], "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL);
    PCALL(SbpProblemPlanLevel(p, p->Nr, p->Ns, &plan));
    PCALL(PetscSNPrintf(what, sizeof(what), "problem %" PetscInt_FMT " x %" PetscInt_FMT, sizes[c][0], sizes[c][1]));
    check_ratio(what, plan.device, cl->mem_peak - before, cl->mem_used - before, 0.95, 1.10);
    PCALL(SbpProblemDestroy(&p));
    assert_int_equal(cl->mem_used, before);
  }
}

/* The hierarchy: KSPSetUp() and a solve (the fp32 coefficients are made at the first V-cycle), above what was in use when the plan was
   made (the problem, the operator's vectors and CG's: KSPSetUp() makes them before PCSetUp()); in the device's defaults and in the GPU's
   choices (fp32 coefficients, the single-precision V-cycle, 1/diag inline, three sweeps per pass, two interior rows per work-item) */
static void test_hierarchy_estimate(void **state)
{
  const PetscInt sizes[] = {128, 512, 1024};
  const char    *tunes[] = {NULL, "mg_coef_fp32=1,mg_single=1,mg_inline_diag=1,mg_sweeps_per_pass=3,sbp_inner_rows=2"};
  SbpmgCL        cl      = default_context();

  for (int t = 0; t < 2; t++)
    for (int c = 0; c < 3; c++) {
      SbpTestSystem s;
      PC            pc;
      PC_SBPMG     *sb;
      PetscInt      L;
      size_t        peak;
      char          what[96];

      SbpTestSystemCreate(SbpTestProblem(PETSC_COMM_SELF, sizes[c], sizes[c], "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL), PETSC_FALSE, &s);
      s.ksp = SbpTestMGCG(s.A, 1e-8, 100);
      PCALL(KSPGetPC(s.ksp, &pc));
      PCALL(PCSBPMGSetCoarseSize(pc, 32)); /* the same levels on every device */
      if (tunes[t]) PCALL(PCSBPMGSetTuning(pc, tunes[t]));
      cl->mem_peak = cl->mem_used;
      PCALL(KSPSetUp(s.ksp));
      SbpTestSystemSolve(&s);
      peak = cl->mem_peak;
      sb   = PCSBPMGGetContext(pc);
      PCALL(PCSBPMGGetLevels(pc, &L));
      PCALL(PetscSNPrintf(what, sizeof(what), "hierarchy %" PetscInt_FMT "^2, %" PetscInt_FMT " levels%s", sizes[c], L, tunes[t] ? ", GPU choices" : ""));
      check_ratio(what, sb->plan_device, peak - sb->plan_in_use, cl->mem_used - sb->plan_in_use, 0.90, 1.15);
      SbpTestSystemDestroy(&s);
    }
}

/* The acoustic set-up: fields, profiles, the PML table, receivers and sources */
static void test_acoustic_estimate(void **state)
{
  const PetscInt sizes[][3] = {
      {40, 40, 40},
      {96, 64, 80},
  };
  const PetscReal x0[3] = {100, 100, 100}, x1[3] = {500, 500, 500};
  SbpmgCL         cl = default_context();

  for (int c = 0; c < 2; c++) {
    Acoustic ac;
    size_t   before = cl->mem_used;
    char     what[64];

    cl->mem_peak = cl->mem_used;
    PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
    PCALL(AcousticSetSizes(ac, sizes[c][0], sizes[c][1], sizes[c][2]));
    PCALL(AcousticSetDamping(ac, 8));
    PCALL(AcousticSetReceiversLine(ac, x0, x1, 50 * (c + 1)));
    PCALL(AcousticSetUp(ac));
    PCALL(PetscSNPrintf(what, sizeof(what), "acoustic %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ", %d receivers", sizes[c][0], sizes[c][1],
                        sizes[c][2], 50 * (c + 1)));
    check_ratio(what, ac->plan_device, cl->mem_peak - before, cl->mem_used - before, 0.95, 1.10);
    PCALL(AcousticStep(ac, 5));
    PCALL(AcousticDestroy(&ac));
    assert_int_equal(cl->mem_used, before);
  }
}

/* Nothing allocated: no device buffer more, no device byte more, no more host memory than a few kB */
typedef struct {
  SbpmgCLStats   stats;
  PetscLogDouble host;
} Usage;

static void usage_get(Usage *u)
{
  PCALL(SbpmgCLGetGlobalStats(&u->stats));
  PCALL(PetscMallocGetCurrentUsage(&u->host));
}

static void usage_check_same(const Usage *a)
{
  Usage b;

  usage_get(&b);
  assert_int_equal((long)b.stats.live_buffers, (long)a->stats.live_buffers);
  assert_int_equal((long)b.stats.device_bytes, (long)a->stats.device_bytes);
  if (b.host > a->host + 65536) fail_msg("%.0f bytes of host memory allocated by a refused set-up", b.host - a->host);
}

/* A grid far beyond any memory: refused by the plan, at once, before anything is allocated */
static void test_too_large(void **state)
{
  const SbpBackend backends[] = {SBP_BACKEND_DEVICE, SBP_BACKEND_HOST};
  const char      *texts[]    = {"Not enough memory for the 46000 x 46000 SBP-SAT problem (device backend): it needs",
                                 "Not enough memory for the 46000 x 46000 SBP-SAT problem (host backend): it needs"};
  const char      *units[]    = {"of device memory; ", "of host memory"};

  /* the largest grid 32-bit indices take (2.1e9 nodes) needs ~70 GB on the device: more than a CPU device has, less than an H200 */
  const PetscBool device_too_small = (double)default_context()->global_mem < 46001.0 * 46001.0 * 32 ? PETSC_TRUE : PETSC_FALSE;
  for (int b = 0; b < 2; b++) {
    SbpProblem     p;
    Usage          u;
    PetscLogDouble t0, t1;

    if (!b && !device_too_small) {
      print_message("  the device holds the 46000^2 problem: its refusal not checked here\n");
      continue;
    }
    PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
    PCALL(SbpProblemSetSizes(p, 46000, 46000));
    PCALL(SbpProblemSetBackend(p, backends[b]));
    usage_get(&u);
    PCALL(PetscTime(&t0));
    EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_MEM, texts[b]);
    EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_MEM, units[b]);
    PCALL(PetscTime(&t1));
    usage_check_same(&u);
    if (t1 - t0 > 5) fail_msg("the refusal took %.1f s", t1 - t0);
    PCALL(SbpProblemDestroy(&p));
  }
  {
    const AcousticBackend backends[] = {ACOUSTIC_BACKEND_DEVICE, ACOUSTIC_BACKEND_HOST};
    const char           *names[]    = {"device", "host"};
    const char           *texts[]    = {"acoustic grid (device backend): it needs", "acoustic grid (host backend): it needs"};
    /* a grid whose two fp32 fields and velocity (12 bytes a point, the least the operator holds) are twice the memory there: the
       device's global memory, the host's MemAvailable */
    double avail[2] = {(double)default_context()->global_mem, 0};
    FILE  *f        = fopen("/proc/meminfo", "r");
    char   line[128];

    while (f && fgets(line, sizeof(line), f))
      if (sscanf(line, "MemAvailable: %lf kB", &avail[1]) == 1) avail[1] *= 1024;
    if (f) fclose(f);
    for (int b = 0; b < 2; b++) {
      Acoustic ac;
      Usage    u;
      PetscInt n = (PetscInt)PetscCeilReal(PetscPowReal(2 * avail[b] / 12, 1.0 / 3));
      char     text[160];

      if (!avail[b] || n > 1200) { /* beyond what 32-bit indices hold, or no figure: not checked here */
        print_message("  the %s holds the largest acoustic grid: its refusal not checked here\n", names[b]);
        continue;
      }
      PCALL(PetscSNPrintf(text, sizeof(text), "Not enough memory for the %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " %s", n, n, n, texts[b]));
      PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
      PCALL(AcousticSetSizes(ac, n, n, n));
      PCALL(AcousticSetBackend(ac, backends[b]));
      usage_get(&u);
      EXPECT_ERROR(AcousticSetUp(ac), PETSC_ERR_MEM, text);
      usage_check_same(&u);
      PCALL(AcousticDestroy(&ac));
    }
  }
}

/* A hierarchy that does not fit what is left of a capped device (the problem and CG's vectors do): refused at PCSetUp() with the
   planned figure, before any level is made (a second try allocates nothing either); and a problem beyond the cap refused at its
   set-up */
static void test_mem_cap(void **state)
{
  SbpTestSystem s;
  PC            pc;
  Usage         u;
  SbpProblem    p;

  SbpmgTestSetOption("-cl_mem_cap", "24");
  PCALL(SbpmgCLResetDefault());
  SbpTestSystemCreate(SbpTestProblem(PETSC_COMM_SELF, 512, 512, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL), PETSC_FALSE, &s);
  s.ksp = SbpTestMGCG(s.A, 1e-8, 100);
  PCALL(KSPGetPC(s.ksp, &pc));
  PCALL(PCSBPMGSetCoarseSize(pc, 32)); /* the same levels on every device */
  /* KSPSetUp() makes CG's vectors, then calls PCSetUp() */
  EXPECT_ERROR(KSPSetUp(s.ksp), PETSC_ERR_MEM, "Not enough memory for the 6-level hierarchy of the 512 x 512 SBP-SAT problem (PCSBPMG): it needs");
  usage_get(&u);
  EXPECT_ERROR(PCSetUp(pc), PETSC_ERR_MEM, "MiB of device memory; -cl_mem_cap allows 24.0 MiB (");
  usage_check_same(&u);
  SbpTestSystemDestroy(&s);

  PCALL(SbpProblemCreate(PETSC_COMM_SELF, &p));
  PCALL(SbpProblemSetSizes(p, 1024, 1024));
  PCALL(SbpProblemSetBackend(p, SBP_BACKEND_DEVICE));
  usage_get(&u);
  EXPECT_ERROR(SbpProblemSetUp(p), PETSC_ERR_MEM, "Not enough memory for the 1024 x 1024 SBP-SAT problem (device backend): it needs 32.1 MiB of device memory");
  usage_check_same(&u);
  PCALL(SbpProblemDestroy(&p));
  SbpmgTestSetOption("-cl_mem_cap", NULL);
  PCALL(SbpmgCLResetDefault());
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_problem_estimate),  cmocka_unit_test(test_hierarchy_estimate),
    cmocka_unit_test(test_acoustic_estimate), cmocka_unit_test(test_too_large),
    cmocka_unit_test(test_mem_cap),
};

SBPMG_TEST_MAIN(help, tests)
