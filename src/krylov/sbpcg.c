/* KSPSBPCG: preconditioned CG whose scalars stay on the device (docs/design.md "CG on the device"). PETSc's KSPCG waits for the host
   three times an iteration (p.w for alpha, r.z for beta, the residual norm); here the dot products end in a device scalar area that
   the updates read (kernels/krylov.cl), and the host reads it once an iteration, for the convergence test: 5 numbers, after the
   preconditioner's launches are queued (with the unpreconditioned norm before them: docs/design.md "CG on the device"). The arithmetic is KSPCG's (left
   preconditioning, the same recurrences), so the iterations are the same. On several ranks each dot product's local sum is read, summed over the ranks and
   written back. */
#include <sbpmg/private/krylovimpl.h>
#include "sbpmg_kernel_args.h"

typedef struct {
  SbpmgCL   cl;      /* the vectors' device context (a reference) */
  cl_mem    s;       /* the scalars, KR_NSLOTS */
  cl_mem    partial; /* 3 per work-group of krylov_dots */
  size_t    wg;      /* the vectors' reduction geometry (VecOpenCLGetReductionGeometry()) */
  PetscInt  groups;
  cl_kernel k[4]; /* krylov_dots, krylov_finish, krylov_update_xr, krylov_update_p */
} KSP_SBPCG;

static const char *const KSPSBPCGKernelNames[4] = {"krylov_dots", "krylov_finish", "krylov_update_xr", "krylov_update_p"};

static PetscErrorCode KSPSBPCGReleaseDevice(KSP_SBPCG *cg)
{
  PetscFunctionBegin;
  if (cg->s) PetscCall(SbpmgCLReleaseBuffer(cg->cl, &cg->s));
  if (cg->partial) PetscCall(SbpmgCLReleaseBuffer(cg->cl, &cg->partial));
  if (cg->cl) PetscCall(SbpmgCLDestroy(&cg->cl));
  PetscFunctionReturn(0);
}

/* The device objects for the vector b's context and reduction geometry (the vector layer's: its work-group, halved to the device's
   limit, and its first-stage work-groups): the scalar area, the partial sums and the kernels. */
static PetscErrorCode KSPSBPCGDevice(KSP_SBPCG *cg, Vec b)
{
  SbpmgCL  cl;
  size_t   wg;
  PetscInt groups;
  char     opts[64];

  PetscFunctionBegin;
  PetscCall(VecOpenCLGetCL(b, &cl));
  PetscCall(VecOpenCLGetReductionGeometry(b, &wg, &groups));
  if (cg->cl != cl || cg->wg != wg || cg->groups < groups) {
    PetscCall(KSPSBPCGReleaseDevice(cg));
    PetscCall(SbpmgCLReference(cl));
    cg->cl     = cl;
    cg->wg     = wg;
    cg->groups = groups;
    PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, KR_NSLOTS * sizeof(PetscScalar), &cg->s));
    PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, 3 * (size_t)groups * sizeof(PetscScalar), &cg->partial));
    PetscCall(PetscSNPrintf(opts, sizeof(opts), "-DSBPMG_KR_WG=%d", (int)wg));
    for (int q = 0; q < 4; q++) PetscCall(SbpmgCLGetKernel(cl, "krylov", opts, KSPSBPCGKernelNames[q], &cg->k[q]));
  }
  PetscFunctionReturn(0);
}

/* s[slot] = a.b (keep_old: the value there moves to KR_RZ_OLD), and with mode & 2 s[KR_RR] = a.a, mode & 4 s[KR_ZZ] = b.b, over all
   ranks. */
static PetscErrorCode KSPSBPCGDots(KSP ksp, KSP_SBPCG *cg, Vec a, Vec b, int mode, int slot, int keep_old)
{
  PetscInt    n;
  cl_long     nl;
  cl_mem      ab, bb;
  int         ng;
  size_t      wg;
  PetscInt    rgroups;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(a, &n));
  PetscCall(VecOpenCLGetReductionGeometry(a, &wg, &rgroups)); /* the same as b's (KSPSBPCGDevice()) */
  nl = (cl_long)n;
  ng = (int)rgroups;
  PetscCall(SbpmgLogKernelBegin(SBPMG_KrylovDot));
  PetscCall(VecOpenCLGetBufferRead(a, &ab));
  PetscCall(VecOpenCLGetBufferRead(b, &bb));
  {
    const struct {
      SbpmgCLArgValue n, mode, a, b, partial;
    } d = {.n = SbpmgCLArgLong(nl), .mode = SbpmgCLArgInt(mode), .a = SbpmgCLArgMem(ab), .b = SbpmgCLArgMem(bb), .partial = SbpmgCLArgMem(cg->partial)};
    SBPMG_CL_SET_ARGS(cg->k[0], krylov_dots, &d);
  }
  PetscCall(SbpmgCLLaunch1D(cg->cl, cg->k[0], (size_t)rgroups * wg, wg));
  PetscCall(VecOpenCLRestoreBufferRead(b, &bb));
  PetscCall(VecOpenCLRestoreBufferRead(a, &ab));
  {
    const struct {
      SbpmgCLArgValue ngroups, mode, partial, ab_slot, keep_old, s;
    } f = {.ngroups  = SbpmgCLArgInt(ng),
           .mode     = SbpmgCLArgInt(mode),
           .partial  = SbpmgCLArgMem(cg->partial),
           .ab_slot  = SbpmgCLArgInt(slot),
           .keep_old = SbpmgCLArgInt(keep_old),
           .s        = SbpmgCLArgMem(cg->s)};
    SBPMG_CL_SET_ARGS(cg->k[1], krylov_finish, &f);
  }
  PetscCall(SbpmgCLLaunch1D(cg->cl, cg->k[1], cg->wg, cg->wg));
  PetscCall(SbpmgLogKernelEnd(SBPMG_KrylovDot, cg->cl, 6.0 * n, 2.0 * n * sizeof(PetscScalar)));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)ksp), &size));
  if (size > 1) { /* the ranks' sums: the local ones read, added, written back */
    PetscScalar s[KR_NSLOTS], g[KR_NSLOTS];
    PetscCall(SbpmgCLReadResult(cg->cl, cg->s, 0, sizeof(s), s));
    PetscCall(PetscArraycpy(g, s, KR_NSLOTS));
    PetscCall(MPIU_Allreduce(s, g, KR_NSLOTS, MPIU_SCALAR, MPIU_SUM, PetscObjectComm((PetscObject)ksp)));
    if (mode & 1) s[slot] = g[slot];
    if (mode & 2) s[KR_RR] = g[KR_RR];
    if (mode & 4) s[KR_ZZ] = g[KR_ZZ];
    PetscCall(SbpmgCLWriteBuffer(cg->cl, cg->s, 0, sizeof(s), s));
  }
  PetscFunctionReturn(0);
}

/* One of the updates (q = 2: x, r; q = 3: p) on vectors v[0..3] of n local values. */
static PetscErrorCode KSPSBPCGUpdate(KSP_SBPCG *cg, int q, PetscInt n, Vec v0, Vec v1, Vec v2, Vec v3)
{
  cl_long   nl = (cl_long)n;
  cl_mem    b[4];
  Vec       v[4] = {v0, v1, v2, v3};
  const int nv   = q == 2 ? 4 : 2;
  const int nwr  = q == 2 ? 2 : 1; /* the first nwr are written */
  size_t    wg = cg->wg, items = ((size_t)n + wg - 1) / wg * wg;

  PetscFunctionBegin;
  PetscCall(SbpmgLogKernelBegin(SBPMG_KrylovUpdate));
  for (int t = 0; t < nv; t++) PetscCall(t < nwr ? VecOpenCLGetBuffer(v[t], &b[t]) : VecOpenCLGetBufferRead(v[t], &b[t]));
  if (q == 2) { /* x += alpha p, r -= alpha w */
    const struct {
      SbpmgCLArgValue n, x, r, p, w, s;
    } u = {.n = SbpmgCLArgLong(nl),
           .x = SbpmgCLArgMem(b[0]),
           .r = SbpmgCLArgMem(b[1]),
           .p = SbpmgCLArgMem(b[2]),
           .w = SbpmgCLArgMem(b[3]),
           .s = SbpmgCLArgMem(cg->s)};
    SBPMG_CL_SET_ARGS(cg->k[2], krylov_update_xr, &u);
  } else { /* p = z + beta p */
    const struct {
      SbpmgCLArgValue n, p, z, s;
    } u = {.n = SbpmgCLArgLong(nl), .p = SbpmgCLArgMem(b[0]), .z = SbpmgCLArgMem(b[1]), .s = SbpmgCLArgMem(cg->s)};
    SBPMG_CL_SET_ARGS(cg->k[3], krylov_update_p, &u);
  }
  if (n) PetscCall(SbpmgCLLaunch1D(cg->cl, cg->k[q], items, wg));
  for (int t = nv - 1; t >= 0; t--) PetscCall(t < nwr ? VecOpenCLRestoreBuffer(v[t], &b[t]) : VecOpenCLRestoreBufferRead(v[t], &b[t]));
  PetscCall(SbpmgLogKernelEnd(SBPMG_KrylovUpdate, cg->cl, (q == 2 ? 4.0 : 2.0) * n, (q == 2 ? 6.0 : 3.0) * n * sizeof(PetscScalar)));
  PetscFunctionReturn(0);
}

/* The norm of the convergence test from the scalars, by the KSP's norm type. */
static PetscReal KSPSBPCGNorm(KSP ksp, const PetscScalar s[])
{
  switch (ksp->normtype) {
  case KSP_NORM_PRECONDITIONED:
    return PetscSqrtReal(PetscAbsScalar(s[KR_ZZ]));
  case KSP_NORM_UNPRECONDITIONED:
    return PetscSqrtReal(PetscAbsScalar(s[KR_RR]));
  case KSP_NORM_NATURAL:
    return PetscSqrtReal(PetscAbsScalar(s[KR_RZ]));
  default:
    return 0;
  }
}

/* The dots' mode for r.z and the norm: 1 r.z, 2 r.r, 4 z.z */
static int KSPSBPCGNormMode(KSP ksp)
{
  return 1 | (ksp->normtype == KSP_NORM_UNPRECONDITIONED ? 2 : 0) | (ksp->normtype == KSP_NORM_PRECONDITIONED ? 4 : 0);
}

/* The scalars read (the one wait for the host), the breakdowns (p.w where checkpw, r.z where checkrz: the slots made since the last
   read), the norm logged, monitored and tested at iteration i. */
static PetscErrorCode KSPSBPCGTest(KSP ksp, KSP_SBPCG *cg, PetscInt i, PetscBool checkpw, PetscBool checkrz)
{
  PetscScalar s[KR_NSLOTS];
  PetscReal   dp;

  PetscFunctionBegin;
  PetscCall(SbpmgCLReadResult(cg->cl, cg->s, 0, sizeof(s), s));
  if (checkpw && (PetscRealPart(s[KR_PW]) == 0 || PetscIsInfOrNanScalar(s[KR_PW]))) { /* the update was skipped: x, r are the last iteration's */
    ksp->reason = PetscIsInfOrNanScalar(s[KR_PW]) ? KSP_DIVERGED_NANORINF : KSP_DIVERGED_INDEFINITE_MAT;
    PetscCall(PetscInfo(ksp, "Diverged: p.w = %g at iteration %" PetscInt_FMT "\n", (double)PetscRealPart(s[KR_PW]), i));
    PetscFunctionReturn(0);
  }
  if (checkrz && PetscIsInfOrNanScalar(s[KR_RZ])) {
    ksp->reason = KSP_DIVERGED_NANORINF;
    PetscFunctionReturn(0);
  }
  if (checkrz && PetscRealPart(s[KR_RZ]) < 0) {
    ksp->reason = KSP_DIVERGED_INDEFINITE_PC;
    PetscCall(PetscInfo(ksp, "Diverged: r.z = %g < 0 at iteration %" PetscInt_FMT ": the preconditioner is not positive definite\n",
                        (double)PetscRealPart(s[KR_RZ]), i));
    PetscFunctionReturn(0);
  }
  dp = KSPSBPCGNorm(ksp, s);
  PetscCall(PetscObjectSAWsTakeAccess((PetscObject)ksp));
  ksp->its   = i;
  ksp->rnorm = dp;
  PetscCall(PetscObjectSAWsGrantAccess((PetscObject)ksp));
  PetscCall(KSPLogResidualHistory(ksp, dp));
  PetscCall(KSPMonitor(ksp, i, dp));
  PetscCall((*ksp->converged)(ksp, i, dp, &ksp->reason, ksp->cnvP));
  PetscFunctionReturn(0);
}

/* Device vectors only: the error names the offending one. */
static PetscErrorCode KSPSBPCGCheckVec(KSP ksp, Vec v, const char *what)
{
  PetscBool isocl;

  PetscFunctionBegin;
  PetscCall(VecIsOpenCL(v, &isocl));
  PetscCheck(isocl, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP,
             "KSP sbpcg needs device vectors (%s, %s): %s is of type %s; use -ksp_type cg for host vectors", VECSEQOPENCL, VECMPIOPENCL, what,
             ((PetscObject)v)->type_name);
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPSolve_SBPCG(KSP ksp)
{
  KSP_SBPCG *cg = (KSP_SBPCG *)ksp->data;
  Vec        X = ksp->vec_sol, B = ksp->vec_rhs, R = ksp->work[0], Z = ksp->work[1], P = ksp->work[2], W = ksp->work[3];
  Mat        Amat, Pmat;
  PetscInt   n, i;
  /* the unpreconditioned norm needs r alone: tested before the preconditioner, which is applied only where the iteration goes on (the
     preconditioner's count is KSPCG's); the other norms need z, queued before the read */
  const PetscBool rfirst = ksp->normtype == KSP_NORM_UNPRECONDITIONED ? PETSC_TRUE : PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(KSPSBPCGCheckVec(ksp, B, "the right-hand side"));
  PetscCall(KSPSBPCGCheckVec(ksp, X, "the solution"));
  PetscCall(KSPSBPCGCheckVec(ksp, R, "the work vector (from the operator's MatCreateVecs)"));
  PetscCall(VecGetLocalSize(B, &n));
  PetscCall(KSPSBPCGDevice(cg, B));
  PetscCall(PCGetOperators(ksp->pc, &Amat, &Pmat));
  ksp->its    = 0;
  ksp->reason = KSP_CONVERGED_ITERATING;
  if (!ksp->guess_zero) {
    PetscCall(KSP_MatMult(ksp, Amat, X, R)); /* r = b - A x */
    PetscCall(VecAYPX(R, -1.0, B));
  } else
    PetscCall(VecCopy(B, R));
  if (rfirst) { /* ||r|| alone decides: tested before z is made, as KSPCG does (a guess that meets the test costs no preconditioner) */
    PetscCall(KSPSBPCGDots(ksp, cg, R, R, 2, KR_RZ, 0));
    PetscCall(KSPSBPCGTest(ksp, cg, 0, PETSC_FALSE, PETSC_FALSE));
    if (ksp->reason) PetscFunctionReturn(0);
  }
  PetscCall(KSP_PCApply(ksp, R, Z));
  PetscCall(KSPSBPCGDots(ksp, cg, R, Z, rfirst ? 1 : KSPSBPCGNormMode(ksp), KR_RZ, 0));
  if (!rfirst) {
    PetscCall(KSPSBPCGTest(ksp, cg, 0, PETSC_FALSE, PETSC_TRUE));
    if (ksp->reason) PetscFunctionReturn(0);
  }
  PetscCall(VecCopy(Z, P));
  for (i = 0; i < ksp->max_it; i++) {
    PetscCall(KSP_MatMult(ksp, Amat, P, W));
    PetscCall(KSPSBPCGDots(ksp, cg, P, W, 1, KR_PW, 0));
    PetscCall(KSPSBPCGUpdate(cg, 2, n, X, R, P, W)); /* x += alpha p, r -= alpha w */
    if (rfirst) {                                    /* the test, then z for the next iteration only where it goes on (its r.z checked at the next read) */
      PetscCall(KSPSBPCGDots(ksp, cg, R, R, 2, KR_RZ, 0));
      PetscCall(KSPSBPCGTest(ksp, cg, i + 1, PETSC_TRUE, PETSC_TRUE));
      if (ksp->reason) break;
      PetscCall(KSP_PCApply(ksp, R, Z));
      PetscCall(KSPSBPCGDots(ksp, cg, R, Z, 1, KR_RZ, 1));
    } else { /* z queued before the read: the device works while the host waits */
      PetscCall(KSP_PCApply(ksp, R, Z));
      PetscCall(KSPSBPCGDots(ksp, cg, R, Z, KSPSBPCGNormMode(ksp), KR_RZ, 1));
      PetscCall(KSPSBPCGTest(ksp, cg, i + 1, PETSC_TRUE, PETSC_TRUE));
      if (ksp->reason) break;
    }
    PetscCall(KSPSBPCGUpdate(cg, 3, n, P, Z, NULL, NULL)); /* p = z + beta p */
  }
  if (i == ksp->max_it && !ksp->reason) ksp->reason = KSP_DIVERGED_ITS;
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPSetUp_SBPCG(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPSetWorkVecs(ksp, 4));
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPReset_SBPCG(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPSBPCGReleaseDevice((KSP_SBPCG *)ksp->data));
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPDestroy_SBPCG(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPReset_SBPCG(ksp));
  PetscCall(KSPDestroyDefault(ksp));
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPView_SBPCG(KSP ksp, PetscViewer viewer)
{
  PetscBool isascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (isascii)
    PetscCall(PetscViewerASCIIPrintf(
        viewer, "  CG with its scalars on the device: one read of the residual norm per iteration, alpha and beta never leave the device\n"));
  PetscFunctionReturn(0);
}

/*MC
   KSPSBPCG - "sbpcg": preconditioned conjugate gradients whose scalars stay on the OpenCL device. The dot products end in a device
   scalar area that the vector updates read, so an iteration waits for the host once (to test the residual norm) where KSPCG waits
   three times; the iterates are KSPCG's. Device vectors (VECSEQOPENCL, VECMPIOPENCL) only; left preconditioning; every norm type
   (preconditioned by default, unpreconditioned, natural, none). -ksp_monitor, -ksp_converged_reason, -ksp_rtol/atol/max_it, a nonzero
   initial guess (KSPSetInitialGuessNonzero()) and -ksp_view behave as for KSPCG.

   Level: beginner

.seealso: `KSPCG`, `PCSBPMG`
M*/
PetscErrorCode KSPCreate_SBPCG(KSP ksp)
{
  KSP_SBPCG *cg;

  PetscFunctionBegin;
  PetscCall(KSPSBPCGInitializePackage());
  PetscCall(PetscNew(&cg));
  ksp->data = cg;
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_PRECONDITIONED, PC_LEFT, 3));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_LEFT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NATURAL, PC_LEFT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_LEFT, 1));
  ksp->ops->setup          = KSPSetUp_SBPCG;
  ksp->ops->solve          = KSPSolve_SBPCG;
  ksp->ops->reset          = KSPReset_SBPCG;
  ksp->ops->destroy        = KSPDestroy_SBPCG;
  ksp->ops->view           = KSPView_SBPCG;
  ksp->ops->buildsolution  = KSPBuildSolutionDefault;
  ksp->ops->buildresidual  = KSPBuildResidualDefault;
  ksp->ops->setfromoptions = NULL;
  PetscFunctionReturn(0);
}
