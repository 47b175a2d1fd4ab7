/* The discrete Green's function mode of the BP1-QD driver (src/seas/green.c, docs/seas.md "The Green's function mode"): G delta + t g
   against direct volume solves of random slip and times, a short run against the volume-solve path, the file written and read back,
   bad input (G too big for the limit, a file of another grid or not a Green's function file, the setter after the set-up). */
#include "harness.h"
#include <sbpmg/private/seasimpl.h>

static const char help[] = "The BP1-QD driver's Green's function mode against the volume-solve path.\n";

#define GFILE "seas_green_test.bin"

static void CreateSeas(const SbpmgTestOption *opts, Seas *s)
{
  SbpmgTestSetOptions(opts);
  PCALL(SeasCreate(PETSC_COMM_WORLD, s));
  PCALL(SeasSetFromOptions(*s));
  SbpmgTestClearOptions(opts);
}

/* X = (psi = 0, delta random in [-1, 1) m) from the seed. */
static void RandomSlip(Seas s, Vec X, unsigned long seed)
{
  PetscScalar *xa;

  PCALL(VecGetArrayWrite(X, &xa));
  for (PetscInt k = 0; k < s->nf; k++) xa[k] = 0;
  SbpmgTestRandom(s->nf, xa + s->nf, -1, 1, seed);
  PCALL(VecRestoreArrayWrite(X, &xa));
}

/* max |a - b| and max |b - tau0| over the fault's nodes */
static void StressDiff(Seas s, Vec a, Vec b, PetscReal *diff, PetscReal *scale)
{
  const PetscScalar *aa, *ba;

  *diff = *scale = 0;
  PCALL(VecGetArrayRead(a, &aa));
  PCALL(VecGetArrayRead(b, &ba));
  for (PetscInt k = 0; k < s->nf; k++) {
    *diff  = PetscMax(*diff, PetscAbsScalar(aa[k] - ba[k]));
    *scale = PetscMax(*scale, PetscAbsScalar(ba[k] - s->tau0));
  }
  PCALL(VecRestoreArrayRead(b, &ba));
  PCALL(VecRestoreArrayRead(a, &aa));
}

/* G delta + t g equals the volume path's stress for random slip and times: a linear combination of all the columns and the load
   against one solve of that slip, on a grid with multigrid levels (48 x 48). Both sides carry the solves' error: at the default
   -ksp_rtol 1e-10 the stress agrees to about 1e-9 of its range (asserted 1e-8, the load alone 5e-8), at 1e-13 to about 1e-12
   (asserted 1e-10 and 5e-10): the difference is the solve's tolerance, not the Green's function's construction. */
static void ColumnsAgainstSolves(const char *rtol, PetscReal bound)
{
  const SbpmgTestOption opts[] = {
      {"-seas_n", "48"}, {"-seas_domain", "60e3"}, {"-seas_fault_dz", "400"}, {"-seas_output", "none"}, {"-seas_green", "1"}, {"-ksp_rtol", rtol},
      {NULL, NULL}};
  const PetscReal times[] = {0, 3 * SEAS_YEAR, 250 * SEAS_YEAR};
  Seas            s;
  Vec             X, tg;

  CreateSeas(opts, &s);
  SbpmgTestSetOption("-ksp_rtol", rtol);             /* read by SeasSetUp() */
  SbpmgTestSetOption("-pc_sbpmg_coarse_size", "17"); /* a multigrid solve on every device (a GPU's 65-point coarse grid would take the
                                                        whole 48^2 grid directly) */
  PCALL(SeasSetUp(s));
  SbpmgTestSetOption("-ksp_rtol", NULL);
  SbpmgTestSetOption("-pc_sbpmg_coarse_size", NULL);
  assert_non_null(s->gr);
  assert_true(s->nf > 10 && s->nf < s->nface);
  PCALL(VecDuplicate(s->X, &X));
  PCALL(VecDuplicate(s->tau, &tg));
  for (int c = 0; c < 4; c++) { /* three random slips, then the load alone (delta = 0: Vp t / 2 on face 2 and below Wf) */
    PetscReal       diff, scale;
    PetscInt        its;
    const PetscReal t = c < 3 ? times[c] : 100 * SEAS_YEAR;

    if (c < 3)
      RandomSlip(s, X, 100 + c);
    else
      PCALL(VecSet(X, 0));
    PCALL(SeasGreenStress(s, t, X));
    PCALL(VecCopy(s->tau, tg));
    { /* the device's mat-vec (a work-group per row) against the host's loop, the state given as a host vector */
      Vec                Xh;
      const PetscScalar *xa;
      PetscScalar       *ha;
      PetscReal          dh, sh;
      PCALL(VecCreateSeq(PETSC_COMM_SELF, 2 * s->nf, &Xh));
      PCALL(VecGetArrayRead(X, &xa));
      PCALL(VecGetArrayWrite(Xh, &ha));
      for (PetscInt k = 0; k < 2 * s->nf; k++) ha[k] = xa[k];
      PCALL(VecRestoreArrayWrite(Xh, &ha));
      PCALL(VecRestoreArrayRead(X, &xa));
      PCALL(SeasGreenStress(s, t, Xh));
      StressDiff(s, s->tau, tg, &dh, &sh);
      assert_true(dh <= 1e-14 * (sh + s->tau0));
      PCALL(VecDestroy(&Xh));
    }
    PCALL(VecSet(s->u, 0));
    PCALL(SeasVolumeStress(s, t, X, &its));
    assert_true(its > 1);
    StressDiff(s, tg, s->tau, &diff, &scale);
    PCALL(PetscPrintf(PETSC_COMM_WORLD, "-ksp_rtol %s, %s, t = %g years: max |G delta + t g - tau_volume| = %.3g Pa of %.3g Pa (%.2e)\n", rtol,
                      c < 3 ? "random slip" : "no slip", (double)(t / SEAS_YEAR), (double)diff, (double)scale, (double)(diff / scale)));
    assert_true(scale > 1e6); /* stress changes of MPa: not a trivial comparison */
    assert_true(diff <= (c < 3 ? 1 : 5) * bound * scale);
  }
  PCALL(SeasSummary(s, NULL));
  SbpmgTestDestroyVecs(&X, &tg, NULL);
  PCALL(SeasDestroy(&s));
}

static void test_columns(void **state)
{
  ColumnsAgainstSolves("1e-10", 1e-8);
  ColumnsAgainstSolves("1e-13", 1e-10);
}

/* A short run in the Green mode against the volume path: the same TS, tolerances and grid. */
static void RunOnce(PetscBool green, const char *vinit, const char *tf, Vec *X, PetscInt *steps, PetscInt *solves)
{
  const SbpmgTestOption opts[] = {
      {"-seas_n", "32"}, {"-seas_domain", "60e3"}, {"-seas_fault_dz", "400"}, {"-seas_tf", tf}, {"-seas_output", "none"}, {"-seas_vinit", vinit}, {NULL, NULL}};
  Seas s;

  CreateSeas(opts, &s);
  if (green) PCALL(SeasSetGreenFunction(s, PETSC_TRUE, NULL));
  PCALL(SeasSolve(s));
  PCALL(SeasSummary(s, NULL));
  PCALL(VecDuplicate(s->X, X));
  PCALL(VecCopy(s->X, *X));
  *steps  = s->steps;
  *solves = s->solves;
  PCALL(SeasDestroy(&s));
}

/* The final state, relative to its size (psi and delta apart), and the step counts. Vinit = Vp, 5 years: the steady creep the
   benchmark starts from; Vinit = 1e-7 m/s, 3 years: the fault starts 100 times too fast (tau0 higher), decelerates where it is
   velocity-strengthening and heads for an event (at 3.29 years on this grid): slip and stress vary along it. Both paths integrate the same ODE to -ts_rtol
   1e-7; their right-hand sides differ by the solves' tolerance (1e-10 relative), so the states agree to well below the integrator's tolerance: 1e-6 is
   asserted. */
static void test_run(void **state)
{
  const char *vinit[] = {"1e-9", "1e-7"}, *tf[] = {"5", "3"};

  for (int c = 0; c < 2; c++) {
    Vec                Xv, Xg;
    PetscInt           sv, sg, nv, ng, n;
    const PetscScalar *va, *ga;
    PetscReal          dpsi = 0, spsi = 0, dd = 0, sd = 0;

    RunOnce(PETSC_FALSE, vinit[c], tf[c], &Xv, &sv, &nv);
    RunOnce(PETSC_TRUE, vinit[c], tf[c], &Xg, &sg, &ng);
    assert_true(nv > 0 && ng == 0); /* no volume solve while stepping */
    PCALL(VecGetSize(Xv, &n));
    PCALL(VecGetArrayRead(Xv, &va));
    PCALL(VecGetArrayRead(Xg, &ga));
    for (PetscInt k = 0; k < n / 2; k++) {
      dpsi = PetscMax(dpsi, PetscAbsScalar(va[k] - ga[k]));
      spsi = PetscMax(spsi, PetscAbsScalar(va[k]));
      dd   = PetscMax(dd, PetscAbsScalar(va[n / 2 + k] - ga[n / 2 + k]));
      sd   = PetscMax(sd, PetscAbsScalar(va[n / 2 + k]));
    }
    PCALL(VecRestoreArrayRead(Xg, &ga));
    PCALL(VecRestoreArrayRead(Xv, &va));
    PCALL(PetscPrintf(PETSC_COMM_WORLD,
                      "Vinit %s: steps %" PetscInt_FMT " (volume) %" PetscInt_FMT " (Green); psi %.2e, slip %.2e relative (slip up to %g m)\n", vinit[c], sv,
                      sg, (double)(dpsi / spsi), (double)(dd / sd), (double)sd));
    assert_true(PetscAbsInt(sv - sg) <= 2);
    assert_true(dpsi <= 1e-6 * spsi);
    assert_true(dd <= 1e-6 * sd);
    SbpmgTestDestroyVecs(&Xv, &Xg, NULL);
  }
}

/* -seas_green_file: written by the first run, read by the second (no solve, the same stresses bit for bit). */
static void test_file(void **state)
{
  const SbpmgTestOption opts[] = {{"-seas_n", "16"},        {"-seas_domain", "60e3"},    {"-seas_fault_dz", "400"},
                                  {"-seas_output", "none"}, {"-seas_green_file", GFILE}, {NULL, NULL}};
  Seas                  a, b;
  Vec                   X, ta;
  PetscBool             same, exists;

  remove(GFILE);
  CreateSeas(opts, &a);
  PCALL(SeasSetUp(a));
  PCALL(PetscTestFile(GFILE, 'r', &exists));
  assert_true(exists);
  CreateSeas(opts, &b);
  PCALL(SeasSetUp(b));
  PCALL(VecDuplicate(a->X, &X));
  PCALL(VecDuplicate(a->tau, &ta));
  RandomSlip(a, X, 7);
  PCALL(SeasGreenStress(a, 10 * SEAS_YEAR, X));
  PCALL(VecCopy(a->tau, ta));
  PCALL(SeasGreenStress(b, 10 * SEAS_YEAR, X));
  PCALL(VecEqual(ta, b->tau, &same));
  assert_true(same);
  PCALL(SeasSummary(b, NULL));
  SbpmgTestDestroyVecs(&X, &ta, NULL);
  PCALL(SeasDestroy(&a));
  PCALL(SeasDestroy(&b));
}

/* Bad input: G beyond the limit, a file of another grid, a file that is not a Green's function, the setter too late. */
static void test_bad_input(void **state)
{
  const SbpmgTestOption grid[] = {{"-seas_n", "24"}, {"-seas_domain", "60e3"}, {"-seas_fault_dz", "400"}, {"-seas_output", "none"}, {NULL, NULL}};
  Seas                  s;

  SbpmgTestSetOption("-seas_green", "1");
  SbpmgTestSetOption("-seas_green_max_mb", "0.001");
  CreateSeas(grid, &s);
  EXPECT_ERROR(SeasSetUp(s), PETSC_ERR_MEM, "more than the limit of 0.001 MiB (-seas_green_max_mb)");
  PCALL(SeasDestroy(&s));
  SbpmgTestSetOption("-seas_green_max_mb", "-1");
  CreateSeas(grid, &s);
  EXPECT_ERROR(SeasSetUp(s), PETSC_ERR_ARG_OUTOFRANGE, "-seas_green_max_mb -1. must be >= 0");
  PCALL(SeasDestroy(&s));
  SbpmgTestSetOption("-seas_green_max_mb", NULL);
  SbpmgTestSetOption("-seas_green", NULL);
  /* the file of test_file (16 x 16) on a 24 x 24 grid */
  SbpmgTestSetOption("-seas_green_file", GFILE);
  CreateSeas(grid, &s);
  EXPECT_ERROR(SeasSetUp(s), PETSC_ERR_ARG_INCOMP, "The Green's function file -seas_green_file seas_green_test.bin is of a 16 x 16 grid");
  PCALL(SeasDestroy(&s));
  { /* a file that is not one */
    FILE *f = fopen(GFILE, "w");
    assert_non_null(f);
    for (int k = 0; k < 40; k++) fputs("not a Green's function\n", f);
    fclose(f);
  }
  CreateSeas(grid, &s);
  EXPECT_ERROR(SeasSetUp(s), PETSC_ERR_FILE_UNEXPECTED, "-seas_green_file seas_green_test.bin is not a Green's function file");
  PCALL(SeasDestroy(&s));
  SbpmgTestSetOption("-seas_green_file", NULL);
  remove(GFILE);
  CreateSeas(grid, &s);
  PCALL(SeasSetUp(s));
  EXPECT_ERROR(SeasSetGreenFunction(s, PETSC_TRUE, NULL), PETSC_ERR_ORDER, "SeasSetGreenFunction() after SeasSetUp()");
  PCALL(SeasDestroy(&s));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_columns),
    cmocka_unit_test(test_run),
    cmocka_unit_test(test_file),
    cmocka_unit_test(test_bad_input),
};

SBPMG_TEST_MAIN(help, tests)
