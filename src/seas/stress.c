/* The shear stress on the fault by the volume path (docs/seas.md "How a stage is computed", items 1-3): the face data, one solve
   from the last solution, the traction of face 1 and the SAT-corrected stress. Shared by the stepping (run.c) and the Green's
   function's build (green.c), so that neither calls the other. */
#include <sbpmg/private/seasimpl.h>
#include "sbpmg_kernel_args.h"

/* The arguments of kernels/friction.cl's friction_fault_stress_face, by name (include/sbpmg/private/climpl.h SBPMG_CL_SET_ARGS). */
typedef struct {
  SbpmgCLArgValue n, ld, tau0, t, kc, u, state, tau;
} SeasFaultStressArgs;

/* tau at the fault nodes: tau0 - (t - kc (u0 - delta / 2)) (kernels/friction.cl friction_fault_stress), on the device or the host. */
static PetscErrorCode SeasFaultStressCompute(Seas s, Vec X)
{
  const int n = (int)s->nf, ld = (int)(s->N[0] + 1);
  PetscBool dev = s->k.stress ? PETSC_TRUE : PETSC_FALSE, isocl;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SEAS_FaultStress, 0, 0, 0, 0));
  PetscCall(VecIsOpenCL(s->u, &isocl));
  if (dev && isocl) {
    cl_mem tb, kb, ub, xb, ob;

    PetscCall(VecOpenCLGetBufferRead(s->t, &tb));
    PetscCall(VecOpenCLGetBufferRead(s->kc, &kb));
    PetscCall(VecOpenCLGetBufferRead(s->u, &ub));
    PetscCall(VecOpenCLGetBufferRead(X, &xb));
    PetscCall(VecOpenCLGetBufferWrite(s->tau, &ob));
    {
      const SeasFaultStressArgs args = {.n     = SbpmgCLArgInt(n),
                                        .ld    = SbpmgCLArgInt(ld),
                                        .tau0  = SbpmgCLArgReal(PETSC_FALSE, s->tau0),
                                        .t     = SbpmgCLArgMem(tb),
                                        .kc    = SbpmgCLArgMem(kb),
                                        .u     = SbpmgCLArgMem(ub),
                                        .state = SbpmgCLArgMem(xb),
                                        .tau   = SbpmgCLArgMem(ob)};
      SBPMG_CL_SET_ARGS(s->k.stress, friction_fault_stress_face, &args);
    }
    PetscCall(SbpmgCLLaunch1DGuarded(s->k.cl, s->k.stress, (size_t)n));
    PetscCall(VecOpenCLRestoreBufferWrite(s->tau, &ob));
    PetscCall(VecOpenCLRestoreBufferRead(X, &xb));
    PetscCall(VecOpenCLRestoreBufferRead(s->u, &ub));
    PetscCall(VecOpenCLRestoreBufferRead(s->kc, &kb));
    PetscCall(VecOpenCLRestoreBufferRead(s->t, &tb));
  } else {
    const PetscScalar *ta, *ka, *ua, *xa;
    PetscScalar       *oa;

    PetscCall(VecGetArrayRead(s->t, &ta));
    PetscCall(VecGetArrayRead(s->kc, &ka));
    PetscCall(VecGetArrayRead(s->u, &ua));
    PetscCall(VecGetArrayRead(X, &xa));
    PetscCall(VecGetArrayWrite(s->tau, &oa));
    for (PetscInt k = 0; k < n; k++) oa[k] = SeasFaultStress(s->tau0, ta[k], ka[k], ua[k * ld], xa[n + k]);
    PetscCall(VecRestoreArrayWrite(s->tau, &oa));
    PetscCall(VecRestoreArrayRead(X, &xa));
    PetscCall(VecRestoreArrayRead(s->u, &ua));
    PetscCall(VecRestoreArrayRead(s->kc, &ka));
    PetscCall(VecRestoreArrayRead(s->t, &ta));
  }
  PetscCall(PetscLogEventEnd(SEAS_FaultStress, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*
  SeasStateToDevice - the state X where the fault's kernels read it: for a device problem the device copy s->Xd with X's values (one
  upload, when a kernel first reads it), X itself where it is a device vector already or the problem runs on the host.
*/
PetscErrorCode SeasStateToDevice(Seas s, Vec X, Vec *Xe)
{
  PetscBool          isocl;
  const PetscScalar *xa;
  PetscScalar       *da;
  PetscInt           n;

  PetscFunctionBegin;
  *Xe = X;
  if (!s->Xd) PetscFunctionReturn(0);
  PetscCall(VecIsOpenCL(X, &isocl));
  if (isocl) PetscFunctionReturn(0);
  PetscCall(VecGetLocalSize(X, &n));
  PetscCheck(n == 2 * s->nf, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "The state has %" PetscInt_FMT " entries, not 2 x %" PetscInt_FMT " fault nodes", n, s->nf);
  PetscCall(VecGetArrayRead(X, &xa));
  PetscCall(VecGetArrayWrite(s->Xd, &da));
  PetscCall(PetscArraycpy(da, xa, n));
  PetscCall(VecRestoreArrayWrite(s->Xd, &da));
  PetscCall(VecRestoreArrayRead(X, &xa));
  *Xe = s->Xd;
  PetscFunctionReturn(0);
}

/* s->tau at (t, X) by the volume path: face 1 gets delta / 2 above Wf and Vp t / 2 below, face 2 Vp t / 2; one solve from the last
   solution; the traction of face 1; the shear stress. */
PetscErrorCode SeasVolumeStress(Seas s, PetscReal t, Vec X, PetscInt *its_out)
{
  const PetscScalar *xa;
  KSPConvergedReason reason;
  PetscInt           its;
  PetscReal          bnorm;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(X, &xa));
  for (PetscInt j = 0; j < s->nface; j++) {
    s->gface[j]            = j < s->nf ? PetscRealPart(xa[s->nf + j]) / 2 : s->Vp * t / 2;
    s->gface[s->nface + j] = s->Vp * t / 2;
  }
  PetscCall(VecRestoreArrayRead(X, &xa));
  PetscCall(SbpProblemSetBoundaryValues(s->p, 1, SBP_BC_DIRICHLET, s->nface, s->gface));
  PetscCall(SbpProblemSetBoundaryValues(s->p, 2, SBP_BC_DIRICHLET, s->nface, s->gface + s->nface));
  PetscCall(SbpProblemComputeRHS(s->p, s->b));
  PetscCall(VecNorm(s->b, NORM_2, &bnorm)); /* the 2-norm, which PETSc keeps with b: the KSP's test against ||b|| reads it without a reduction */
  if (bnorm == 0) { /* no load at all (t = 0, a step retried from there): u = 0, where a warm start's test against ||b|| = 0 would fail */
    PetscCall(VecSet(s->u, 0));
    reason = KSP_CONVERGED_ATOL;
    its    = 0;
  } else {
    if (!s->green) PetscCall(SeasGuessForm(s, s->b, s->u)); /* stepping: the projection onto earlier solutions (the Green's function's columns are not) */
    PetscCall(KSPSolve(s->ksp, s->b, s->u));
    PetscCall(KSPGetConvergedReason(s->ksp, &reason));
    PetscCall(KSPGetIterationNumber(s->ksp, &its));
  }
  PetscCheck(reason > 0, PetscObjectComm((PetscObject)s), PETSC_ERR_NOT_CONVERGED,
             "The volume solve at t = %g s did not converge: %s after %" PetscInt_FMT " iterations", (double)t, KSPConvergedReasons[reason], its);
  if (!s->green && its > 0) PetscCall(SeasGuessAdd(s, s->u, s->b)); /* (none: the guess, in the span already, met the test) */
  PetscCall(SbpProblemComputeFaceTraction(s->p, s->u, 1, s->t));
  PetscCall(SeasStateToDevice(s, X, &X));
  PetscCall(SeasFaultStressCompute(s, X));
  *its_out = its;
  PetscFunctionReturn(0);
}
