/* Rate-and-state friction (src/seas/friction.c, kernels/friction.cl): the friction solve against its closed form at fixed V, the
   aging law's steady state, the device against the host reference, bad parameters. */
#include "harness.h"
#include <sbpmg/private/seasimpl.h>

static const char help[] = "Rate-and-state friction: closed form, steady state, device and host, bad input.\n";

/* BP1's parameters (docs/seas.md) */
static SeasFrictionParams BP1(void)
{
  const PetscReal    mu = 2670 * 3464.0 * 3464.0;
  SeasFrictionParams fr = {50e6, mu / (2 * 3464.0), 1e-6, 0.015, 0.008, 0.6, 1e-12, 100};
  return fr;
}

static const PetscReal As[]   = {0.010, 0.017, 0.025};
static const PetscReal Psis[] = {0.45, 0.6, 0.7364, 0.85};
static const PetscReal Vs[]   = {1e-14, 1e-9, 3.7e-7, 1e-3, 0.5, 4, -1e-9, -2e-3};
#define NA   3
#define NPSI 4
#define NV   8
#define NC   (NA * NPSI * NV)

/* The cases: tau from a chosen V (tau = eta V + strength(V)), the guess Vinit (not V). */
static void Cases(const SeasFrictionParams *fr, PetscReal tau[], PetscReal a[], PetscReal psi[], PetscReal V[], PetscReal guess[])
{
  PetscInt c = 0;
  for (int i = 0; i < NA; i++)
    for (int j = 0; j < NPSI; j++)
      for (int k = 0; k < NV; k++, c++) {
        a[c]     = As[i];
        psi[c]   = Psis[j];
        V[c]     = Vs[k];
        tau[c]   = fr->eta * Vs[k] + SeasFrictionStrength(fr, Vs[k], Psis[j], As[i]);
        guess[c] = 1e-9;
      }
}

static Vec DeviceVec(SbpmgCL cl, PetscInt n, const PetscReal *v)
{
  Vec          x;
  PetscScalar *xa;

  PCALL(VecCreateSeqOpenCLWithContext(PETSC_COMM_SELF, cl, n, &x));
  if (v) {
    PCALL(VecGetArrayWrite(x, &xa));
    for (PetscInt k = 0; k < n; k++) xa[k] = v[k];
    PCALL(VecRestoreArrayWrite(x, &xa));
  }
  return x;
}

/* The friction solve returns the V the stress was made from, to 1e-12 relative, on the host and the device. */
static void test_closed_form(void **state)
{
  SeasFrictionParams  fr = BP1();
  SeasFrictionKernels k  = {NULL, NULL, NULL};
  PetscReal           tau[NC], a[NC], psi[NC], V[NC], Vh[NC], rate[2 * NC];
  SbpmgCL             cl;
  Vec                 vt, va, vs, vv, vr;
  const PetscScalar  *d;
  PetscReal           worst = 0, worstd = 0;

  Cases(&fr, tau, a, psi, V, Vh);
  PCALL(SeasFrictionRatesHost(&fr, NC, PETSC_TRUE, tau, a, psi, Vh, rate));
  for (int c = 0; c < NC; c++) {
    worst = PetscMax(worst, PetscAbsReal(Vh[c] - V[c]) / PetscAbsReal(V[c]));
    assert_true(rate[NC + c] == Vh[c]); /* write_v: the slip rate after the state rates */
  }
  PCALL(SbpmgCLGetDefault(&cl));
  PCALL(SeasFrictionGetKernels(&fr, cl, &k));
  Cases(&fr, tau, a, psi, V, Vh);
  vt = DeviceVec(cl, NC, tau);
  va = DeviceVec(cl, NC, a);
  vs = DeviceVec(cl, NC, psi);
  vv = DeviceVec(cl, NC, Vh);
  vr = DeviceVec(cl, 2 * NC, NULL);
  PCALL(SeasFrictionRates(&fr, &k, NC, PETSC_TRUE, vt, va, vs, vv, vr));
  PCALL(VecGetArrayRead(vv, &d));
  for (int c = 0; c < NC; c++) worstd = PetscMax(worstd, PetscAbsReal(PetscRealPart(d[c]) - V[c]) / PetscAbsReal(V[c]));
  PCALL(VecRestoreArrayRead(vv, &d));
  PCALL(PetscPrintf(PETSC_COMM_WORLD, "closed form: worst relative error of V over %d cases: host %.3e, device %.3e\n", NC, (double)worst, (double)worstd));
  assert_true(worst <= 1e-12);
  assert_true(worstd <= 1e-12);
  SbpmgTestDestroyVecs(&vt, &va, &vs, &vv, &vr, NULL);
  PCALL(SeasFrictionDestroyKernels(&k));
}

/* psi_ss(V) = f0 - b ln(V / V0) makes the aging law's rate zero (to rounding of its two terms), on the host and the device; above
   psi_ss the state falls, below it grows. */
static void test_steady_state(void **state)
{
  SeasFrictionParams  fr    = BP1();
  SeasFrictionKernels k     = {NULL, NULL, NULL};
  const PetscReal     scale = fr.b / fr.Dc; /* b V0 / Dc times V / V0 */
  PetscReal           tau[NV], a[NV], psi[NV], V[NV], rate[NV];
  SbpmgCL             cl;
  Vec                 vt, va, vs, vv, vr;
  const PetscScalar  *d;

  for (int c = 0; c < NV; c++) {
    const PetscReal v = PetscAbsReal(Vs[c]);
    psi[c]            = fr.f0 - fr.b * PetscLogReal(v / fr.V0);
    a[c]              = 0.01;
    V[c]              = Vs[c];
    tau[c]            = fr.eta * Vs[c] + SeasFrictionStrength(&fr, Vs[c], psi[c], a[c]);
    assert_true(PetscAbsReal(SeasFrictionStateRate(&fr, Vs[c], psi[c])) <= 1e-13 * scale * v);
    assert_true(SeasFrictionStateRate(&fr, Vs[c], psi[c] + 0.01) < 0);
    assert_true(SeasFrictionStateRate(&fr, Vs[c], psi[c] - 0.01) > 0);
  }
  PCALL(SeasFrictionRatesHost(&fr, NV, PETSC_FALSE, tau, a, psi, V, rate));
  for (int c = 0; c < NV; c++) assert_true(PetscAbsReal(rate[c]) <= 1e-10 * scale * PetscAbsReal(Vs[c]));
  PCALL(SbpmgCLGetDefault(&cl));
  PCALL(SeasFrictionGetKernels(&fr, cl, &k));
  vt = DeviceVec(cl, NV, tau);
  va = DeviceVec(cl, NV, a);
  vs = DeviceVec(cl, NV, psi);
  vv = DeviceVec(cl, NV, Vs);
  vr = DeviceVec(cl, NV, NULL);
  PCALL(SeasFrictionRates(&fr, &k, NV, PETSC_FALSE, vt, va, vs, vv, vr));
  PCALL(VecGetArrayRead(vr, &d));
  for (int c = 0; c < NV; c++) assert_true(PetscAbsReal(PetscRealPart(d[c])) <= 1e-10 * scale * PetscAbsReal(Vs[c]));
  PCALL(VecRestoreArrayRead(vr, &d));
  SbpmgTestDestroyVecs(&vt, &va, &vs, &vv, &vr, NULL);
  PCALL(SeasFrictionDestroyKernels(&k));
}

/* Random stresses (both signs), states and a: the device's V and state rates equal the host reference's to 1e-13 relative. */
static void test_device_host(void **state)
{
  SeasFrictionParams  fr = BP1();
  SeasFrictionKernels k  = {NULL, NULL, NULL};
  const PetscInt      n  = 1000;
  PetscScalar        *tau, *a, *psi, *V, *rate;
  SbpmgCL             cl;
  Vec                 vt, va, vs, vv, vr;
  const PetscScalar  *dv, *dr;
  PetscReal           worst = 0;

  PCALL(PetscMalloc5(n, &tau, n, &a, n, &psi, n, &V, 2 * n, &rate));
  SbpmgTestRandom(n, tau, -40e6, 40e6, 11);
  SbpmgTestRandom(n, a, 0.005, 0.03, 12);
  SbpmgTestRandom(n, psi, 0.3, 0.9, 13);
  for (PetscInt c = 0; c < n; c++) V[c] = 1e-9;
  PCALL(SbpmgCLGetDefault(&cl));
  PCALL(SeasFrictionGetKernels(&fr, cl, &k));
  vt = DeviceVec(cl, n, tau);
  va = DeviceVec(cl, n, a);
  vs = DeviceVec(cl, n, psi);
  vv = DeviceVec(cl, n, V);
  vr = DeviceVec(cl, 2 * n, NULL);
  PCALL(SeasFrictionRates(&fr, &k, n, PETSC_TRUE, vt, va, vs, vv, vr));
  PCALL(SeasFrictionRatesHost(&fr, n, PETSC_TRUE, tau, a, psi, V, rate));
  PCALL(VecGetArrayRead(vv, &dv));
  PCALL(VecGetArrayRead(vr, &dr));
  for (PetscInt c = 0; c < n; c++) {
    assert_true(PetscSign(PetscRealPart(V[c])) == PetscSign(PetscRealPart(tau[c]))); /* the bracket: V on tau's side of 0 */
    worst = PetscMax(worst, PetscAbsScalar(dv[c] - V[c]) / PetscAbsScalar(V[c]));
    { /* the state rate against the size of its two terms (it may cancel) */
      const PetscReal terms = fr.b * fr.V0 / fr.Dc * (PetscExpReal((fr.f0 - PetscRealPart(psi[c])) / fr.b) + PetscAbsScalar(V[c]) / fr.V0);
      worst                 = PetscMax(worst, PetscAbsScalar(dr[c] - rate[c]) / terms);
    }
    worst = PetscMax(worst, PetscAbsScalar(dr[n + c] - rate[n + c]) / PetscAbsScalar(rate[n + c]));
  }
  PCALL(VecRestoreArrayRead(vr, &dr));
  PCALL(VecRestoreArrayRead(vv, &dv));
  PCALL(PetscPrintf(PETSC_COMM_WORLD, "device against host: worst relative difference %.3e over %" PetscInt_FMT " nodes\n", (double)worst, n));
  assert_true(worst <= 1e-11); /* each side stops Newton at 1e-12 of V (-seas_friction_rtol): 9.8e-13 measured on an H200 */
  /* host vectors given: the host path, the same values */
  {
    Vec          ht, ha, hs, hv, hr;
    PetscScalar *x;
    PCALL(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, tau, &ht));
    PCALL(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, a, &ha));
    PCALL(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, psi, &hs));
    PCALL(VecCreateSeq(PETSC_COMM_SELF, n, &hv));
    PCALL(VecSet(hv, 1e-9));
    PCALL(VecCreateSeq(PETSC_COMM_SELF, 2 * n, &hr));
    PCALL(SeasFrictionRates(&fr, &k, n, PETSC_TRUE, ht, ha, hs, hv, hr));
    PCALL(VecGetArray(hv, &x));
    for (PetscInt c = 0; c < n; c++) assert_true(x[c] == V[c]);
    PCALL(VecRestoreArray(hv, &x));
    SbpmgTestDestroyVecs(&ht, &ha, &hs, &hv, &hr, NULL);
  }
  SbpmgTestDestroyVecs(&vt, &va, &vs, &vv, &vr, NULL);
  PCALL(SeasFrictionDestroyKernels(&k));
  PCALL(PetscFree5(tau, a, psi, V, rate));
}

/* Non-positive sigma_n, Dc, V0, a: errors naming the value (and for a the node). */
static void test_bad_input(void **state)
{
  SeasFrictionParams fr;
  Vec                a;

  fr         = BP1();
  fr.sigma_n = -50e6;
  EXPECT_ERROR(SeasFrictionCheck(PETSC_COMM_WORLD, &fr, NULL), PETSC_ERR_ARG_OUTOFRANGE, "Friction parameter sigma_n = -5e+07 must be finite and > 0");
  fr    = BP1();
  fr.Dc = 0;
  EXPECT_ERROR(SeasFrictionCheck(PETSC_COMM_WORLD, &fr, NULL), PETSC_ERR_ARG_OUTOFRANGE, "Friction parameter Dc = 0. must be finite and > 0");
  fr    = BP1();
  fr.V0 = -1e-6;
  EXPECT_ERROR(SeasFrictionCheck(PETSC_COMM_WORLD, &fr, NULL), PETSC_ERR_ARG_OUTOFRANGE, "Friction parameter V0 = -1e-06 must be finite and > 0");
  fr = BP1();
  PCALL(VecCreateSeq(PETSC_COMM_SELF, 8, &a));
  PCALL(VecSet(a, 0.01));
  PCALL(SeasFrictionCheck(PETSC_COMM_SELF, &fr, a));
  PCALL(VecSetValue(a, 3, -0.02, INSERT_VALUES));
  PCALL(VecAssemblyBegin(a));
  PCALL(VecAssemblyEnd(a));
  EXPECT_ERROR(SeasFrictionCheck(PETSC_COMM_SELF, &fr, a), PETSC_ERR_ARG_OUTOFRANGE, "Friction parameter a = -0.02 at fault node 3 must be finite and > 0");
  PCALL(VecSetValue(a, 3, 0, INSERT_VALUES));
  PCALL(VecAssemblyBegin(a));
  PCALL(VecAssemblyEnd(a));
  EXPECT_ERROR(SeasFrictionCheck(PETSC_COMM_SELF, &fr, a), PETSC_ERR_ARG_OUTOFRANGE, "Friction parameter a = 0. at fault node 3 must be finite and > 0");
  PCALL(VecDestroy(&a));
  fr.maxit = 0;
  EXPECT_ERROR(SeasFrictionCheck(PETSC_COMM_WORLD, &fr, NULL), PETSC_ERR_ARG_OUTOFRANGE, "The friction's Newton iterations 0 must be >= 1");
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_closed_form),
    cmocka_unit_test(test_steady_state),
    cmocka_unit_test(test_device_host),
    cmocka_unit_test(test_bad_input),
};

SBPMG_TEST_MAIN(help, tests)
