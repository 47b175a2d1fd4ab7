/* The acoustic operator as a modelling tool, on the device (PoCL in CI): first arrivals along a receiver line, the
   reflection of a two-layer model, reciprocity of sources and receivers, the time step of a layered model. */
#include "harness.h"

static const char help[] = "Seismic checks of the acoustic operator's traces (src/acoustic).\n";

/* Index of the largest sample of tr[from..to) and its time (parabolic interpolation around it), in samples. */
static PetscReal peak_sample(const PetscReal *tr, PetscInt from, PetscInt to)
{
  PetscInt  m = PetscMax(from, 1);
  PetscReal d;

  for (PetscInt s = m; s < to - 1; s++)
    if (tr[s] > tr[m]) m = s;
  d = tr[m - 1] - 2 * tr[m] + tr[m + 1];
  return m + (d != 0 ? 0.5 * (tr[m - 1] - tr[m + 1]) / d : 0);
}

/* A uniform or layered object on the device: n points, spacing h, PML ndamp, the Ricker of fmax. */
static void create(Acoustic *ac, const PetscInt n[3], PetscReal h, PetscInt ndamp, PetscReal fmax)
{
  PCALL(AcousticCreate(PETSC_COMM_SELF, ac));
  PCALL(AcousticSetSizes(*ac, n[0], n[1], n[2]));
  PCALL(AcousticSetSpacing(*ac, h, h, h));
  PCALL(AcousticSetDamping(*ac, ndamp));
  PCALL(AcousticSetMaxVelocity(*ac, 0));
  PCALL(AcousticSetSourceWavelet(*ac, fmax, 1));
}

/* Step until time t and return the traces (nrec x ns, allocated) and the sample interval. */
static void run_until(Acoustic ac, PetscReal t, PetscInt *nrec, PetscInt *ns, PetscReal *dts, PetscReal **tr)
{
  PetscReal dt;

  PCALL(AcousticGetTimeStep(ac, &dt));
  PCALL(AcousticStep(ac, (PetscInt)(t / dt) + 1));
  PCALL(AcousticGetTraceSizes(ac, nrec, ns, dts));
  PCALL(PetscMalloc1(*nrec * *ns, tr));
  PCALL(AcousticGetTraces(ac, *tr));
}

/* In a uniform medium the first arrival at each receiver of a line (off the grid points: trilinear interpolation) is within
   half a sample of distance / velocity: the time of the trace's peak less the wavelet's delay 1.5 / f0. */
static void test_first_arrivals(void **state)
{
  const PetscInt  n[3] = {72, 40, 40}, nrec = 7;
  const PetscReal h = 20, v = 2000, fmax = 25, t0 = 1.5 / (fmax / 2.5), src[3] = {320, 400, 400};
  const PetscReal x0[3] = {430, 410, 395}, x1[3] = {1030, 410, 395};
  Acoustic        ac;
  PetscReal      *tr, dts, worst = 0;
  PetscInt        nr, ns;

  create(&ac, n, h, 10, fmax);
  PCALL(AcousticSetVelocity(ac, v));
  PCALL(AcousticAddSource(ac, src[0], src[1], src[2], 0, 1));
  PCALL(AcousticSetReceiversLine(ac, x0, x1, nrec));
  PCALL(AcousticSetUp(ac));
  run_until(ac, t0 + 0.8, &nr, &ns, &dts, &tr);
  assert_int_equal(nr, nrec);
  for (PetscInt r = 0; r < nrec; r++) {
    PetscReal d = 0, arrival, expect;
    for (PetscInt a = 0; a < 3; a++) d += PetscSqr(x0[a] + (x1[a] - x0[a]) * r / (nrec - 1) - src[a]);
    d       = PetscSqrtReal(d);
    arrival = peak_sample(tr + r * ns, 1, ns) * dts - t0; /* sample m is u at m dts */
    expect  = d / v;
    print_message("  receiver %d at %6.1f m: arrival %.5f s, d/v %.5f s, difference %+.3f samples\n", (int)r, (double)d, (double)arrival, (double)expect,
                  (double)((arrival - expect) / dts));
    worst = PetscMax(worst, PetscAbsReal(arrival - expect) / dts);
  }
  assert_true(worst <= 0.5);
  PCALL(PetscFree(tr));
  PCALL(AcousticDestroy(&ac));
}

/* Traces of a source at src (Ricker of fmax) and receivers along x0..x1 in a model of velocity v1, with (v2 > 0) a second
   layer below the depth zi; on the 64 x 50 x 90 grid of spacing 10 m, PML 15, dt of 4000 m/s. */
static void layer_run(PetscReal v1, PetscReal v2, PetscReal zi, const PetscReal src[3], const PetscReal x0[3], const PetscReal x1[3], PetscInt nrec,
                      PetscReal t, PetscInt *ns, PetscReal *dts, PetscReal **tr)
{
  const PetscInt  n[3]   = {64, 50, 90};
  const PetscReal vel[2] = {v1, v2};
  Acoustic        ac;
  PetscInt        nr;

  create(&ac, n, 10, 15, 30);
  PCALL(AcousticSetMaxVelocity(ac, 4000));
  if (v2 > 0)
    PCALL(AcousticSetVelocityLayers(ac, 2, vel, &zi));
  else
    PCALL(AcousticSetVelocity(ac, v1));
  PCALL(AcousticAddSource(ac, src[0], src[1], src[2], 0, 1));
  PCALL(AcousticSetReceiversLine(ac, x0, x1, nrec));
  PCALL(AcousticSetUp(ac));
  run_until(ac, t, &nr, ns, dts, tr);
  PCALL(AcousticDestroy(&ac));
}

/* Two layers, the interface half-way between two planes, receivers at the source's depth: the reflection arrives at the
   time of the image source, sqrt(x^2 + (2 d)^2) / v1, within 1%. It is picked on the difference of the traces with and
   without the second layer (which leaves the reflected wave alone: no direct wave, no echo of the PML), at its largest
   value for a faster layer below (reflection coefficient (v2 - v1) / (v2 + v1) > 0) and at its smallest for a slower one. */
static void test_reflection(void **state)
{
  const PetscInt  nrec = 4;
  const PetscReal v1 = 2000, t0 = 1.5 / (30 / 2.5), src[3] = {250, 250, 300}, zi = 595, d = zi - src[2], x0[3] = {290, 250, 300}, x1[3] = {410, 250, 300};
  const PetscReal v2[2] = {3000, 1500}, tend = t0 + 0.33;
  PetscReal      *uni, dts;
  PetscInt        ns;

  layer_run(v1, 0, zi, src, x0, x1, nrec, tend, &ns, &dts, &uni);
  for (int c = 0; c < 2; c++) {
    const PetscReal sign = v2[c] > v1 ? 1 : -1;
    PetscReal      *tr, worst = 0;
    PetscInt        ns2;

    layer_run(v1, v2[c], zi, src, x0, x1, nrec, tend, &ns2, &dts, &tr);
    assert_int_equal(ns, ns2);
    for (PetscInt r = 0; r < nrec; r++) {
      const PetscReal x = x0[0] + (x1[0] - x0[0]) * r / (nrec - 1) - src[0], expect = PetscSqrtReal(x * x + 4 * d * d) / v1;
      PetscReal       arrival;

      for (PetscInt m = 0; m < ns; m++) tr[r * ns + m] = sign * (tr[r * ns + m] - uni[r * ns + m]);
      arrival = peak_sample(tr + r * ns, 1, ns) * dts - t0;
      print_message("  %4.0f m/s over %4.0f m/s, offset %5.1f m: reflection %.5f s, image source %.5f s, error %+.3f%%\n", (double)v1, (double)v2[c], (double)x,
                    (double)arrival, (double)expect, (double)(100 * (arrival - expect) / expect));
      worst = PetscMax(worst, PetscAbsReal(arrival - expect) / expect);
    }
    assert_true(worst <= 0.01);
    PCALL(PetscFree(tr));
  }
  PCALL(PetscFree(uni));
}

/* The trace at b of a source at a, both off the grid points and off the centre (fp32 device), until the direct wave has
   passed and before the PML's echo returns. */
static void reciprocal_run(const PetscReal a[3], const PetscReal b[3], PetscInt *ns, PetscReal **tr)
{
  const PetscInt n[3] = {56, 48, 48};
  Acoustic       ac;
  PetscInt       nr;
  PetscReal      dts;

  create(&ac, n, 20, 10, 25);
  PCALL(AcousticSetVelocity(ac, 2500));
  PCALL(AcousticAddSource(ac, a[0], a[1], a[2], 0.01, 3));
  PCALL(AcousticSetReceivers(ac, 1, b));
  PCALL(AcousticSetUp(ac));
  run_until(ac, 0.36, &nr, ns, &dts, tr);
  PCALL(AcousticDestroy(&ac));
}

/* Reciprocity in a uniform medium: swapping the source and the receiver gives the same trace to 1e-5 (the injection is the
   transpose of the interpolation, and the inner update is symmetric). */
static void test_reciprocity(void **state)
{
  const PetscReal a[3] = {353, 347, 421}, b[3] = {617, 462, 376};
  PetscReal      *ab, *ba, diff = 0, scale = 0;
  PetscInt        n1, n2;

  reciprocal_run(a, b, &n1, &ab);
  reciprocal_run(b, a, &n2, &ba);
  assert_int_equal(n1, n2);
  for (PetscInt m = 0; m < n1; m++) {
    diff  = PetscMax(diff, PetscAbsReal(ab[m] - ba[m]));
    scale = PetscMax(scale, PetscAbsReal(ab[m]));
  }
  print_message("  %d samples: max |a->b - b->a| / max |a->b| = %.2e (max %.3e)\n", (int)n1, (double)(diff / scale), (double)scale);
  assert_true(scale > 0 && diff <= 1e-5 * scale);
  PCALL(PetscFree(ab));
  PCALL(PetscFree(ba));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_first_arrivals),
    cmocka_unit_test(test_reflection),
    cmocka_unit_test(test_reciprocity),
};

SBPMG_TEST_MAIN(help, tests)
