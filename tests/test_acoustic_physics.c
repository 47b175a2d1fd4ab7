/* The acoustic operator's physics on the device (PoCL in CI): travel time, PML absorption, random fields stay bounded,
   second order in time in fp32. */
#include "harness.h"

static const char help[] = "Physics tests of the acoustic operator on the OpenCL device (src/acoustic).\n";

/* Time of the largest value of a trace (parabolic interpolation around the sample). */
static PetscReal peak_time(PetscInt n, const PetscReal *tr, PetscReal dt)
{
  PetscInt  m = 1;
  PetscReal d;

  for (PetscInt s = 1; s < n - 1; s++)
    if (tr[s] > tr[m]) m = s;
  d = tr[m - 1] - 2 * tr[m] + tr[m + 1];
  return (m + (d != 0 ? 0.5 * (tr[m - 1] - tr[m + 1]) / d : 0)) * dt;
}

/* The spec: a point source in a uniform medium reaches distance d at t = d / v within one grid point. The Ricker
   wavelet peaks 1.5 / f0 after t = 0; in 3D the pressure at distance r is the wavelet delayed by r / v. */
static void test_travel_time(void **state)
{
  const PetscInt  nx = 72, ny = 40, nz = 40, sx = 16, d[3] = {12, 24, 36};
  const PetscReal h = 20, v = 2000, fmax = 25, t0 = 1.5 / (fmax / 2.5);
  Acoustic        ac;
  PetscReal       dt, *tr;
  PetscInt        nsteps;

  PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
  PCALL(AcousticSetSizes(ac, nx, ny, nz));
  PCALL(AcousticSetDamping(ac, 10));
  PCALL(AcousticSetSpacing(ac, h, h, h));
  PCALL(AcousticSetVelocity(ac, v));
  PCALL(AcousticSetMaxVelocity(ac, 0));
  PCALL(AcousticSetSource(ac, sx, ny / 2, nz / 2));
  PCALL(AcousticSetSourceWavelet(ac, fmax, 1));
  PCALL(AcousticSetUp(ac));
  PCALL(AcousticGetTimeStep(ac, &dt));
  nsteps = (PetscInt)((t0 + d[2] * h / v + 0.12) / dt);
  PCALL(PetscMalloc1(3 * nsteps, &tr));
  for (PetscInt s = 0; s < nsteps; s++) {
    PCALL(AcousticStep(ac, 1));
    for (int r = 0; r < 3; r++) PCALL(AcousticGetValue(ac, sx + d[r], ny / 2, nz / 2, &tr[r * nsteps + s]));
  }
  for (int r = 0; r < 3; r++) {
    /* sample s holds u^{s+1}, at t = (s + 1) dt */
    const PetscReal arrival = peak_time(nsteps, tr + r * nsteps, dt) + dt - t0, expect = d[r] * h / v;
    print_message("  distance %3d m: arrival %.4f s, d/v %.4f s, difference %.2f grid points\n", (int)(d[r] * h), (double)arrival, (double)expect,
                  (double)((arrival - expect) * v / h));
    assert_true(PetscAbsReal(arrival - expect) <= h / v);
  }
  /* amplitude falls as 1/r */
  {
    PetscReal a[3] = {0, 0, 0};
    for (int r = 0; r < 3; r++)
      for (PetscInt s = 0; s < nsteps; s++) a[r] = PetscMax(a[r], tr[r * nsteps + s]);
    print_message("  peak amplitude x distance: %.3e %.3e %.3e\n", (double)(a[0] * d[0]), (double)(a[1] * d[1]), (double)(a[2] * d[2]));
    assert_true(PetscAbsReal(a[2] * d[2] / (a[0] * d[0]) - 1) < 0.15);
  }
  PCALL(PetscFree(tr));
  PCALL(AcousticDestroy(&ac));
}

/* Energy sum(u^2) over time: the largest value and the last one. */
static void energy_run(PetscInt n, PetscInt ndamp, PetscInt nsteps, PetscReal *peak, PetscReal *last)
{
  Acoustic ac;

  PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
  PCALL(AcousticSetSizes(ac, n, n, n));
  PCALL(AcousticSetDamping(ac, ndamp));
  PCALL(AcousticSetUp(ac));
  *peak = 0;
  for (PetscInt s = 0; s < nsteps; s += 4) {
    PCALL(AcousticStep(ac, 4));
    PCALL(AcousticGetNorms(ac, NULL, last));
    *peak = PetscMax(*peak, *last);
  }
  PCALL(AcousticDestroy(&ac));
}

/* The spec: the energy left after the wave has left an absorbing box is <= 1e-3 of its peak, and far larger with
   ndamp = 0. The spec's 160^3, ndamp 27, 1200 steps scaled to 64^3, ndamp 11, 480 steps (same h, v, dt, source);
   -pml_test_n 160 -pml_test_ndamp 27 -pml_test_steps 1200 runs the full size. */
static void test_pml_energy(void **state)
{
  PetscReal peak, last, peak0, last0;
  PetscInt  n = 64, nd = 11, steps = 480;

  PCALL(PetscOptionsGetInt(NULL, NULL, "-pml_test_n", &n, NULL));
  PCALL(PetscOptionsGetInt(NULL, NULL, "-pml_test_ndamp", &nd, NULL));
  PCALL(PetscOptionsGetInt(NULL, NULL, "-pml_test_steps", &steps, NULL));
  energy_run(n, nd, steps, &peak, &last);
  energy_run(n, 0, steps, &peak0, &last0);
  print_message("  %d^3, %d steps: energy left / peak = %.3e with ndamp %d, %.3e with ndamp 0\n", (int)n, (int)steps, (double)(last / peak), (int)nd,
                (double)(last0 / peak0));
  assert_true(last / peak <= 1e-3);
  assert_true(last0 / peak0 >= 0.1);
}

/* Random initial fields (uniform in [-1, 1)) stay bounded: the benchmark's setting (cfl 0.8, vmax 4500, v 2000), PML. */
static void test_random_bounded(void **state)
{
  Acoustic  ac;
  PetscReal m0, e0, m, e, mmax = 0;

  PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
  PCALL(AcousticSetSizes(ac, 48, 48, 48));
  PCALL(AcousticSetDamping(ac, 8));
  PCALL(AcousticSetInitialType(ac, ACOUSTIC_INIT_RANDOM));
  PCALL(AcousticSetUp(ac));
  PCALL(AcousticGetNorms(ac, &m0, &e0));
  for (PetscInt s = 0; s < 500; s += 25) {
    PCALL(AcousticStep(ac, 25));
    PCALL(AcousticGetNorms(ac, &m, &e));
    assert_true(PetscIsNormalReal(m));
    mmax = PetscMax(mmax, m);
  }
  print_message("  max |u|: %.3f at the start, at most %.3f over 500 steps, %.3f at the end; energy %.3e -> %.3e\n", (double)m0, (double)mmax, (double)m,
                (double)e0, (double)e);
  assert_true(m0 <= 1);
  assert_true(mmax < 20);
  assert_true(e < e0);
  PCALL(AcousticDestroy(&ac));
}

/* Second order in time on the device (fp32), against the fp64 reference at dt/32. */
static void test_leapfrog_order_device(void **state)
{
  SbpmgTestLeapfrogOrder(ACOUSTIC_BACKEND_DEVICE);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_travel_time),
    cmocka_unit_test(test_pml_energy),
    cmocka_unit_test(test_random_bounded),
    cmocka_unit_test(test_leapfrog_order_device),
};

SBPMG_TEST_MAIN(help, tests)
