/* The SAT-corrected fluxes balance (docs/design.md "The earthquake cycle", docs/seas.md "The flux balance"): for any u, summing the
   SBP-SAT system's rows with the weights 1 gives

     sum_{Dirichlet f} 1^T H_f sJ [t_f - kc_f (L_f u - gD_f)] + sum_{Neumann f} 1^T H_f gN_f + 1^T J H f = 1^T (b - M u)

   (1^T A = 0 and G_f 1 = 0), so the corrected outward fluxes of the four faces sum to the residual's sum, to round-off, whatever the
   solve's tolerance. For BP1 (faces 3 and 4 Neumann with zero data, no forcing) with the fault down the whole of face 1 (Wf = Lz), the
   driver's shear stress gives face 1's corrected flux, tau0 - tau; face 2's is formed here from its traction and the penalty
   coefficient of the spec's face-2 row. The identity fails when face 1's correction is dropped or its sign flipped: the test checks
   that those differ from the residual's sum by far more than the round-off bound. */
#include "harness.h"
#include <sbpmg/private/seasimpl.h>

static const char help[] = "The BP1 driver's SAT-corrected fault stress balances the fluxes of the other faces.\n";

/* The penalty coefficient per H_f and sJ of a Dirichlet face on x = const (the spec's 3.3: Cn Gamma = c0 (4 + c0 / min(c0, c1)) / hr),
   c0, c1 the coefficient crr on the face and one line in. */
static PetscReal Penalty(PetscReal c0, PetscReal c1, PetscReal hr, PetscReal sJ)
{
  return c0 * (4 + c0 / PetscMin(c0, c1)) / (hr * sJ);
}

static void test_flux_balance(void **state)
{
  const SbpmgTestOption opts[]  = {{"-seas_n", "32"},    {"-seas_domain", "60e3"}, {"-seas_fault_dz", "400"},
                                   {"-seas_wf", "60e3"}, {"-seas_output", "none"}, {NULL, NULL}};
  const char           *rtols[] = {"1e-12", "1e-3"}; /* the identity holds for any u: a loose solve too */
  const PetscReal       t       = 7 * SEAS_YEAR;

  for (int c = 0; c < 2; c++) {
    Seas               s;
    SbpProblem         p;
    Vec                X, t2, r;
    PetscInt           its, N0, N1, nf;
    const PetscScalar *ua, *ta, *t2a, *ka, *xa;
    PetscScalar       *xw;
    PetscReal          S = 0, C1 = 0, mag = 0, R, bound;

    SbpmgTestSetOptions(opts);
    SbpmgTestSetOption("-ksp_rtol", rtols[c]);
    PCALL(SeasCreate(PETSC_COMM_WORLD, &s));
    PCALL(SeasSetFromOptions(s));
    PCALL(SeasSetUp(s));
    SbpmgTestSetOption("-ksp_rtol", NULL);
    SbpmgTestClearOptions(opts);
    p  = s->p;
    N0 = s->N[0];
    N1 = s->N[1];
    nf = s->nf;
    assert_int_equal(nf, N1 + 1); /* the fault is the whole of face 1 */
    PCALL(VecDuplicate(s->X, &X));
    PCALL(VecGetArrayWrite(X, &xw));
    for (PetscInt k = 0; k < nf; k++) xw[k] = 0;
    SbpmgTestRandom(nf, xw + nf, 0, 2, 11 + c); /* a rough slip: the face's weak mismatch is large */
    PCALL(VecRestoreArrayWrite(X, &xw));
    PCALL(SeasVolumeStress(s, t, X, &its));
    PCALL(SbpProblemCreateFaceVector(p, 2, &t2));
    PCALL(SbpProblemComputeFaceTraction(p, s->u, 2, t2));
    PCALL(VecDuplicate(s->b, &r));
    PCALL(MatMult(s->A, s->u, r));
    PCALL(VecAYPX(r, -1, s->b));
    PCALL(VecSum(r, &R));
    PCALL(SbpProblemGetHostCoefficients(p));
    PCALL(VecGetArrayRead(s->u, &ua));
    PCALL(VecGetArrayRead(s->tau, &ta));
    PCALL(VecGetArrayRead(t2, &t2a));
    PCALL(VecGetArrayRead(s->kc, &ka));
    PCALL(VecGetArrayRead(X, &xa));
    for (PetscInt j = 0; j <= N1; j++) {
      const PetscReal sv = -1 + j * p->hs, ang = s->theta[1] * (sv + 1) / 2;
      const PetscReal sJ = s->l[1] * s->theta[1] / 2 / (PetscCosReal(ang) * PetscCosReal(ang)); /* dz/ds of the stretching (the faces are x = const) */
      const PetscReal w = p->hs * ((j == 0 || j == N1) ? 0.5 : 1), delta = PetscRealPart(xa[nf + j]);
      const PetscReal u0 = PetscRealPart(ua[j * (N0 + 1)]), uN = PetscRealPart(ua[j * (N0 + 1) + N0]);
      const PetscReal kc1 = Penalty(p->crr[SbpPatchIndex(p, 0, j)], p->crr[SbpPatchIndex(p, 1, j)], p->hr, sJ);
      const PetscReal kc2 = Penalty(p->crr[SbpPatchIndex(p, N0, j)], p->crr[SbpPatchIndex(p, N0 - 1, j)], p->hr, sJ);
      const PetscReal q1  = s->tau0 - PetscRealPart(ta[j]);                     /* the driver's corrected outward flux of face 1 */
      const PetscReal q2  = PetscRealPart(t2a[j]) - kc2 * (uN - s->Vp * t / 2); /* face 2's */

      assert_true(PetscAbsReal(PetscRealPart(ka[j]) - kc1) <= 1e-13 * kc1); /* the driver's coefficient is the spec's */
      S += w * sJ * (q1 + q2);
      C1 += w * sJ * kc1 * (u0 - delta / 2);
      mag += w * sJ * (PetscAbsReal(q1) + PetscAbsReal(q2));
    }
    PCALL(VecRestoreArrayRead(X, &xa));
    PCALL(VecRestoreArrayRead(s->kc, &ka));
    PCALL(VecRestoreArrayRead(t2, &t2a));
    PCALL(VecRestoreArrayRead(s->tau, &ta));
    PCALL(VecRestoreArrayRead(s->u, &ua));
    bound = 1e-13 * mag;
    PCALL(PetscPrintf(PETSC_COMM_WORLD,
                      "-ksp_rtol %s (%" PetscInt_FMT " iterations): sum of the corrected fluxes %.6e, of the residual %.6e, difference %.2e (bound %.2e); "
                      "face 1's correction %.3e\n",
                      rtols[c], its, (double)S, (double)R, (double)PetscAbsReal(S - R), (double)bound, (double)C1));
    assert_true(PetscAbsReal(S - R) <= bound);
    assert_true(PetscAbsReal(C1) >= 1e3 * bound); /* dropped: S + C1; sign flipped: S + 2 C1 */
    assert_true(PetscAbsReal(S + C1 - R) > 100 * bound);
    assert_true(PetscAbsReal(S + 2 * C1 - R) > 100 * bound);
    if (c == 0) assert_true(PetscAbsReal(S) <= 1e-8 * mag); /* a tight solve: the fluxes balance (no forcing) */
    SbpmgTestDestroyVecs(&X, &t2, &r, NULL);
    PCALL(SeasDestroy(&s));
  }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_flux_balance),
};

SBPMG_TEST_MAIN(help, tests)
