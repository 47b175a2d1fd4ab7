/* The SAT-corrected fluxes balance (docs/design.md "The earthquake cycle", docs/seas.md "The flux balance"): for any u, summing the
   SBP-SAT system's rows with the weights 1 gives

     sum_{Dirichlet f} 1^T H_f sJ [t_f - kc_f (L_f u - gD_f)] + sum_{Neumann f} 1^T H_f gN_f + 1^T J H f = 1^T (b - M u)

   (1^T A = 0 and G_f 1 = 0), so the corrected outward fluxes of the four faces sum to the residual's sum, to round-off, whatever the
   solve's tolerance. For BP1 (faces 3 and 4 Neumann with zero data, no forcing) with the fault down the whole of face 1 (Wf = Lz), the
   driver's shear stress gives face 1's corrected flux, tau0 - tau; face 2's is formed here from its traction and the penalty
   coefficient of the spec's face-2 row. The identity holds at every SBP order (-sbp_order 2, 4, 6) with that order's face norm H_f and
   penalty, and fails when face 1's correction is dropped, its sign flipped, or its penalty is another order's: the test checks that
   those differ from the residual's sum by far more than the round-off bound. */
#include "harness.h"
#include <sbpmg/private/seasimpl.h>

static const char help[] = "The BP1 driver's SAT-corrected fault stress balances the fluxes of the other faces.\n";

/* The SAT constants of the spec's 3.2 (spec-sbp-sat-highorder.md; the p = 2 row is spec-sbp-sat.md 3.3), written out here rather than
   read from the library's table: theta_R, alpha, and l, the lines of the psi minimum. */
typedef struct {
  PetscInt  order, l;
  PetscReal theta, alpha;
} SatConstants;
static const SatConstants sat[] = {
    {2, 2, 0.5, 1.0},
    {4, 4, 17.0 / 48, 0.5776},
    {6, 7, 13649.0 / 43200, 0.3697},
};

/* The penalty coefficient per H_f and sJ of a Dirichlet face on x = const at face node j: Cn Gamma = cn (2/theta_R + cn / (alpha psi))
   / hr with cn the coefficient crr on the face (line i0) and psi its least value over the l lines i0, i0 + inward, ... */
static PetscReal Penalty(SbpProblem p, const SatConstants *c, PetscInt i0, PetscInt inward, PetscInt j, PetscReal sJ)
{
  const PetscReal cn  = p->crr[SbpPatchIndex(p, i0, j)];
  PetscReal       psi = cn;

  for (PetscInt m = 1; m < c->l; m++) psi = PetscMin(psi, p->crr[SbpPatchIndex(p, i0 + inward * m, j)]);
  return cn * (2 / c->theta + cn / (c->alpha * psi)) / (p->hr * sJ);
}

static void test_flux_balance(void **state)
{
  const SbpmgTestOption opts[]   = {{"-seas_n", "32"},    {"-seas_domain", "60e3"}, {"-seas_fault_dz", "400"},
                                    {"-seas_wf", "60e3"}, {"-seas_output", "none"}, {NULL, NULL}};
  const char           *rtols[]  = {"1e-12", "1e-3"}; /* the identity holds for any u: a loose solve too */
  const char           *orders[] = {"2", "4", "6"};
  const PetscReal       t        = 7 * SEAS_YEAR;

  for (int o = 0; o < 3; o++) {
    for (int c = 0; c < 2; c++) {
      Seas               s;
      SbpProblem         p;
      Vec                X, t2, r;
      SbpSparse1D        Hs;
      PetscInt           its, N0, N1, nf;
      const PetscScalar *ua, *ta, *t2a, *ka, *xa;
      PetscScalar       *xw;
      PetscReal          S = 0, C1 = 0, C2 = 0, mag = 0, R, bound;

      SbpmgTestSetOptions(opts);
      SbpmgTestSetOption("-ksp_rtol", rtols[c]);
      SbpmgTestSetOption("-sbp_order", orders[o]);
      PCALL(SeasCreate(PETSC_COMM_WORLD, &s));
      PCALL(SeasSetFromOptions(s));
      PCALL(SeasSetUp(s));
      SbpmgTestSetOption("-ksp_rtol", NULL);
      SbpmgTestSetOption("-sbp_order", NULL);
      SbpmgTestClearOptions(opts);
      p  = s->p;
      N0 = s->N[0];
      N1 = s->N[1];
      nf = s->nf;
      assert_int_equal(p->order, sat[o].order); /* the driver's problem reads -sbp_order */
      assert_int_equal(nf, N1 + 1);             /* the fault is the whole of face 1 */
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
      PCALL(SbpSparse1DNorm(p->order, N1, p->hs, PETSC_FALSE, &Hs)); /* the face norm H_f of faces 1 and 2 at the order */
      PCALL(SbpProblemGetHostCoefficients(p));
      PCALL(VecGetArrayRead(s->u, &ua));
      PCALL(VecGetArrayRead(s->tau, &ta));
      PCALL(VecGetArrayRead(t2, &t2a));
      PCALL(VecGetArrayRead(s->kc, &ka));
      PCALL(VecGetArrayRead(X, &xa));
      for (PetscInt j = 0; j <= N1; j++) {
        const PetscReal sv = -1 + j * p->hs, ang = s->theta[1] * (sv + 1) / 2;
        const PetscReal sJ = s->l[1] * s->theta[1] / 2 / (PetscCosReal(ang) * PetscCosReal(ang)); /* dz/ds of the stretching (the faces are x = const) */
        const PetscReal w = Hs.a[Hs.ia[j]], delta = PetscRealPart(xa[nf + j]);
        const PetscReal u0 = PetscRealPart(ua[j * (N0 + 1)]), uN = PetscRealPart(ua[j * (N0 + 1) + N0]);
        const PetscReal kc1 = Penalty(p, &sat[o], 0, 1, j, sJ), kc2 = Penalty(p, &sat[o], N0, -1, j, sJ);
        const PetscReal kc1o2 = Penalty(p, &sat[0], 0, 1, j, sJ);                   /* the second-order penalty */
        const PetscReal q1    = s->tau0 - PetscRealPart(ta[j]);                     /* the driver's corrected outward flux of face 1 */
        const PetscReal q2    = PetscRealPart(t2a[j]) - kc2 * (uN - s->Vp * t / 2); /* face 2's */

        assert_true(PetscAbsReal(PetscRealPart(ka[j]) - kc1) <= 1e-13 * kc1); /* the driver's coefficient is the spec's */
        S += w * sJ * (q1 + q2);
        C1 += w * sJ * kc1 * (u0 - delta / 2);
        C2 += w * sJ * (kc1o2 - kc1) * (u0 - delta / 2); /* face 1's flux changes by -C2 with the second-order penalty */
        mag += w * sJ * (PetscAbsReal(q1) + PetscAbsReal(q2));
      }
      PCALL(VecRestoreArrayRead(X, &xa));
      PCALL(VecRestoreArrayRead(s->kc, &ka));
      PCALL(VecRestoreArrayRead(t2, &t2a));
      PCALL(VecRestoreArrayRead(s->tau, &ta));
      PCALL(VecRestoreArrayRead(s->u, &ua));
      PCALL(SbpSparse1DDestroy(&Hs));
      bound = 1e-13 * mag;
      PCALL(PetscPrintf(PETSC_COMM_WORLD,
                        "-sbp_order %s -ksp_rtol %s (%" PetscInt_FMT " iterations): sum of the corrected fluxes %.6e, of the residual %.6e, difference %.2e "
                        "(bound %.2e); face 1's correction %.3e, its change with the second-order penalty %.3e\n",
                        orders[o], rtols[c], its, (double)S, (double)R, (double)PetscAbsReal(S - R), (double)bound, (double)C1, (double)C2));
      assert_true(PetscAbsReal(S - R) <= bound);
      assert_true(PetscAbsReal(C1) >= 1e3 * bound); /* dropped: S + C1; sign flipped: S + 2 C1 */
      assert_true(PetscAbsReal(S + C1 - R) > 100 * bound);
      assert_true(PetscAbsReal(S + 2 * C1 - R) > 100 * bound);
      if (o > 0) assert_true(PetscAbsReal(S - C2 - R) > 100 * bound); /* the second-order penalty at order 4 or 6 */
      if (c == 0) assert_true(PetscAbsReal(S) <= 1e-8 * mag);         /* a tight solve: the fluxes balance (no forcing) */
      SbpmgTestDestroyVecs(&X, &t2, &r, NULL);
      PCALL(SeasDestroy(&s));
    }
  }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_flux_balance),
};

SBPMG_TEST_MAIN(help, tests)
