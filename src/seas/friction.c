/* Rate-and-state friction at the nodes of a fault (docs/seas.md "Friction"): the slip rate from the shear stress and the state by a
   bracketed Newton, and the aging law's state rate; on the device (kernels/friction.cl, fp64) or by C loops over the same point
   formulas (the reference). */
#include <sbpmg/private/seasimpl.h>
#include "sbpmg_kernel_args.h"

/* the point formulas, shared with the device kernels */
#include "../../kernels/friction.cl"

PetscReal SeasFrictionStrength(const SeasFrictionParams *fr, PetscReal V, PetscReal psi, PetscReal a)
{
  return friction_strength(V, PetscExpReal(psi / a) / (2 * fr->V0), a * fr->sigma_n);
}

PetscReal SeasFrictionStateRate(const SeasFrictionParams *fr, PetscReal V, PetscReal psi)
{
  return friction_state_rate(V, psi, fr->b, fr->V0, fr->Dc, fr->f0);
}

PetscReal SeasFaultStress(PetscReal tau0, PetscReal t, PetscReal kc, PetscReal u0, PetscReal delta)
{
  return friction_fault_stress(tau0, t, kc, u0, delta);
}

/* ---------------------------------------------------------------- checks */

static PetscErrorCode SeasCheckPositive(MPI_Comm comm, const char name[], PetscReal v)
{
  PetscFunctionBegin;
  PetscCheck(PetscIsNormalReal(v) && v > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "Friction parameter %s = %g must be finite and > 0", name, (double)v);
  PetscFunctionReturn(0);
}

/*
   SeasFrictionCheck - The parameters a friction solve needs, checked: sigma_n, Dc, V0, b, eta and every entry of a finite and > 0
   (the error names the value, and for a the node), f0 finite, Newton's tolerance in (0, 1) and iterations >= 1. Collective on comm.
*/
PetscErrorCode SeasFrictionCheck(MPI_Comm comm, const SeasFrictionParams *fr, Vec a)
{
  PetscFunctionBegin;
  PetscCall(SeasCheckPositive(comm, "sigma_n", fr->sigma_n));
  PetscCall(SeasCheckPositive(comm, "Dc", fr->Dc));
  PetscCall(SeasCheckPositive(comm, "V0", fr->V0));
  PetscCall(SeasCheckPositive(comm, "b", fr->b));
  PetscCall(SeasCheckPositive(comm, "eta", fr->eta));
  PetscCheck(!PetscIsInfOrNanReal(fr->f0), comm, PETSC_ERR_ARG_OUTOFRANGE, "Friction parameter f0 = %g must be finite", (double)fr->f0);
  PetscCheck(fr->rtol > 0 && fr->rtol < 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "The friction's Newton tolerance %g must be in (0, 1)", (double)fr->rtol);
  PetscCheck(fr->maxit >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "The friction's Newton iterations %" PetscInt_FMT " must be >= 1", fr->maxit);
  if (a) {
    const PetscScalar *aa;
    PetscInt           n, lo, bad = -1, gbad;
    PetscReal          v = 0;

    PetscCall(VecGetLocalSize(a, &n));
    PetscCall(VecGetOwnershipRange(a, &lo, NULL));
    PetscCall(VecGetArrayRead(a, &aa));
    for (PetscInt k = 0; k < n && bad < 0; k++)
      if (!(PetscIsNormalReal(PetscRealPart(aa[k])) && PetscRealPart(aa[k]) > 0)) {
        bad = lo + k;
        v   = PetscRealPart(aa[k]);
      }
    PetscCall(VecRestoreArrayRead(a, &aa));
    gbad = bad < 0 ? PETSC_MAX_INT : bad;
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &gbad, 1, MPIU_INT, MPI_MIN, comm));
    if (gbad != bad) v = 0;
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &v, 1, MPIU_REAL, MPIU_SUM, comm)); /* the value at the first bad node, on every rank */
    PetscCheck(gbad == PETSC_MAX_INT, comm, PETSC_ERR_ARG_OUTOFRANGE, "Friction parameter a = %g at fault node %" PetscInt_FMT " must be finite and > 0",
               (double)v, gbad);
  }
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the host reference */

PetscErrorCode SeasFrictionRatesHost(const SeasFrictionParams *fr, PetscInt n, PetscBool write_v, const PetscReal tau[], const PetscReal a[],
                                     const PetscReal state[], PetscReal V[], PetscReal rate[])
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; k++) {
    PetscReal v  = V[k];
    int       it = friction_solve(tau[k], state[k], a[k], fr->sigma_n, fr->eta, fr->V0, fr->rtol, (int)fr->maxit, &v);

    PetscCheck(it >= 0, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED,
               "The friction solve did not converge at fault node %" PetscInt_FMT " in %" PetscInt_FMT " iterations (tau %g, psi %g, a %g; last V %g)", k,
               fr->maxit, (double)tau[k], (double)state[k], (double)a[k], (double)v);
    V[k]    = v;
    rate[k] = friction_state_rate(v, state[k], fr->b, fr->V0, fr->Dc, fr->f0);
    if (write_v) rate[n + k] = v;
  }
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the device */

PetscErrorCode SeasFrictionGetKernels(const SeasFrictionParams *fr, SbpmgCL cl, SeasFrictionKernels *k)
{
  char    opts[128];
  cl_uint nargs;

  PetscFunctionBegin;
  if (k->cl == cl && k->rates) PetscFunctionReturn(0);
  PetscCall(SeasFrictionDestroyKernels(k));
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "-DSBPMG_FRICTION_RTOL=%.17g -DSBPMG_FRICTION_MAX_IT=%d", (double)fr->rtol, (int)fr->maxit));
  PetscCall(SbpmgCLGetKernel(cl, "friction", opts, "friction_rates", &k->rates));
  PetscCall(SbpmgCLGetKernel(cl, "friction", opts, "friction_fault_stress_face", &k->stress));
  PetscCallCL(clGetKernelInfo(k->rates, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL));
  PetscCheck(nargs == SBPMG_KERNEL_NARGS_friction_rates, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "kernels/friction.cl's friction_rates takes %u arguments, src/seas sets %d", nargs, (int)SBPMG_KERNEL_NARGS_friction_rates);
  PetscCallCL(clGetKernelInfo(k->stress, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL));
  PetscCheck(nargs == SBPMG_KERNEL_NARGS_friction_fault_stress_face, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "kernels/friction.cl's friction_fault_stress_face takes %u arguments, src/seas sets %d", nargs,
             (int)SBPMG_KERNEL_NARGS_friction_fault_stress_face);
  PetscCall(SbpmgCLReference(cl));
  k->cl = cl;
  PetscFunctionReturn(0);
}

PetscErrorCode SeasFrictionDestroyKernels(SeasFrictionKernels *k)
{
  PetscFunctionBegin;
  k->rates = k->stress = NULL; /* owned by the context's program cache */
  if (k->cl) PetscCall(SbpmgCLDestroy(&k->cl));
  PetscFunctionReturn(0);
}

/* The arguments of kernels/friction.cl's friction_rates, by name (include/sbpmg/private/climpl.h SBPMG_CL_SET_ARGS). */
typedef struct {
  SbpmgCLArgValue n, write_v, tau, a, state, V, rate, sn, eta, V0, b, Dc, f0;
} SeasFrictionRatesArgs;

static PetscErrorCode SeasFrictionRatesDevice(const SeasFrictionParams *fr, SeasFrictionKernels *k, PetscInt n, PetscBool write_v, Vec tau, Vec a, Vec state,
                                              Vec V, Vec rate)
{
  const int n_ = (int)n, w = write_v ? 1 : 0;
  cl_mem    tb, ab, sb, vb, rb;

  PetscFunctionBegin;
  PetscCall(VecOpenCLGetBufferRead(tau, &tb));
  PetscCall(VecOpenCLGetBufferRead(a, &ab));
  PetscCall(VecOpenCLGetBufferRead(state, &sb));
  PetscCall(VecOpenCLGetBuffer(V, &vb));
  PetscCall(VecOpenCLGetBufferWrite(rate, &rb));
  {
    const SeasFrictionRatesArgs args = {.n       = SbpmgCLArgInt(n_),
                                        .write_v = SbpmgCLArgInt(w),
                                        .tau     = SbpmgCLArgMem(tb),
                                        .a       = SbpmgCLArgMem(ab),
                                        .state   = SbpmgCLArgMem(sb),
                                        .V       = SbpmgCLArgMem(vb),
                                        .rate    = SbpmgCLArgMem(rb),
                                        .sn      = SbpmgCLArgReal(PETSC_FALSE, fr->sigma_n),
                                        .eta     = SbpmgCLArgReal(PETSC_FALSE, fr->eta),
                                        .V0      = SbpmgCLArgReal(PETSC_FALSE, fr->V0),
                                        .b       = SbpmgCLArgReal(PETSC_FALSE, fr->b),
                                        .Dc      = SbpmgCLArgReal(PETSC_FALSE, fr->Dc),
                                        .f0      = SbpmgCLArgReal(PETSC_FALSE, fr->f0)};
    SBPMG_CL_SET_ARGS(k->rates, friction_rates, &args);
  }
  if (n) PetscCall(SbpmgCLLaunch1DGuarded(k->cl, k->rates, (size_t)n));
  PetscCall(VecOpenCLRestoreBufferWrite(rate, &rb));
  PetscCall(VecOpenCLRestoreBuffer(V, &vb));
  PetscCall(VecOpenCLRestoreBufferRead(state, &sb));
  PetscCall(VecOpenCLRestoreBufferRead(a, &ab));
  PetscCall(VecOpenCLRestoreBufferRead(tau, &tb));
  PetscFunctionReturn(0);
}

/*
   SeasFrictionRates - the rates at n fault nodes (see include/sbpmg/private/seasimpl.h): on the device when tau, a, state, V and rate
   are all device vectors and k is given, else on the host. The vectors are sequential (one rank's nodes): tau, a, V of n entries, state
   of at least n (psi first), rate of n (2 n with write_v).
*/
PetscErrorCode SeasFrictionRates(const SeasFrictionParams *fr, SeasFrictionKernels *k, PetscInt n, PetscBool write_v, Vec tau, Vec a, Vec state, Vec V,
                                 Vec rate)
{
  PetscBool dev = k ? PETSC_TRUE : PETSC_FALSE;
  Vec       all[5];

  PetscFunctionBegin;
  all[0] = tau;
  all[1] = a;
  all[2] = state;
  all[3] = V;
  all[4] = rate;
  for (int q = 0; q < 5 && dev; q++) PetscCall(VecIsOpenCL(all[q], &dev));
  PetscCall(PetscLogEventBegin(SEAS_Friction, 0, 0, 0, 0));
  if (dev) {
    PetscCheck(k->rates, PETSC_COMM_SELF, PETSC_ERR_ORDER, "The friction kernels are not built: SeasFrictionGetKernels() first");
    PetscCall(SeasFrictionRatesDevice(fr, k, n, write_v, tau, a, state, V, rate));
  } else {
    const PetscScalar *ta, *aa, *sa;
    PetscScalar       *va, *ra;

    PetscCall(VecGetArrayRead(tau, &ta));
    PetscCall(VecGetArrayRead(a, &aa));
    PetscCall(VecGetArrayRead(state, &sa));
    PetscCall(VecGetArray(V, &va));
    PetscCall(VecGetArray(rate, &ra));
    PetscCall(SeasFrictionRatesHost(fr, n, write_v, ta, aa, sa, va, ra));
    PetscCall(VecRestoreArray(rate, &ra));
    PetscCall(VecRestoreArray(V, &va));
    PetscCall(VecRestoreArrayRead(state, &sa));
    PetscCall(VecRestoreArrayRead(a, &aa));
    PetscCall(VecRestoreArrayRead(tau, &ta));
  }
  PetscCall(PetscLogEventEnd(SEAS_Friction, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}
