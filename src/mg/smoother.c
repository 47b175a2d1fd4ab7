/* PCSBPMGSMOOTHER: the level smoother of PCSBPMG, a PC whose PCApplyRichardson performs nu sweeps of Chebyshev (on D^-1 M~),
   damped Jacobi or the spec's Richardson, each sweep one fused pass over the operator's data on the device (kernels/smooth.cl).
   KSPRICHARDSON hands the whole smoothing to PCApplyRichardson, so PCMG's level KSP costs nu passes. With host vectors the
   same sweeps run through PETSc vector operations. */
#include <sbpmg/private/mgimpl.h>
#include "sbpmg_kernel_args.h"
#include <sbpmg/private/vecimpl.h>
#include <petsc/private/pcimpl.h>
#include <petscblaslapack.h>
#include <stdint.h>

/* The margin on CG's lambda_max estimate (from below) of the Jacobi and Richardson steps, the Chebyshev interval's default 1.1. */
#define SBPMG_LMAX_MARGIN 1.1

const char *const PCSBPMGSmootherTypes[] = {"chebyshev", "jacobi", "richardson", "PCSBPMGSmootherType", "PC_SBPMG_", NULL};

/* 1/diag(M~) in fp64, laid out like the operator's vectors: the estimate's Jacobi preconditioner and the smoother's dinv. */
static PetscErrorCode SbpmgSmootherInverseDiagonal(PC pc, Vec *dinv)
{
  PetscFunctionBegin;
  PetscCall(MatCreateVecs(pc->pmat, dinv, NULL));
  PetscCall(MatGetDiagonal(pc->pmat, *dinv));
  PetscCall(VecReciprocal(*dinv));
  PetscFunctionReturn(0);
}

/* dinv = 1/diag(M~), made once, laid out like v (in fp64, then rounded into a level vector of the single-precision V-cycle); from
   the fp64 inverse diagonal d64 where the caller has it. */
static PetscErrorCode SbpmgSmootherDiagonal(PC pc, PC_SbpmgSmoother *s, Vec v, Vec d64)
{
  PetscBool single;
  Vec       d = d64;

  PetscFunctionBegin;
  if (s->dinv) PetscFunctionReturn(0);
  if (d)
    PetscCall(PetscObjectReference((PetscObject)d));
  else
    PetscCall(SbpmgSmootherInverseDiagonal(pc, &d));
  PetscCall(PCSBPMGVecIsSingle(v, &single));
  if (single) {
    PetscCall(VecDuplicate(v, &s->dinv));
    PetscCall(PCSBPMGVecFromDevice(s->dinv, d));
    PetscCall(VecDestroy(&d));
  } else
    s->dinv = d;
  PetscFunctionReturn(0);
}

/* b(i,j) uniform in [0, 1), a hash of the node's natural index: the same vector whatever the number of ranks, so the estimates,
   and with them the smoother, are those of one rank (to rounding). */
static PetscErrorCode SbpmgSmootherStartVector(SbpProblem p, Vec b)
{
  PetscScalar *a;
  PetscInt     n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(b, &n));
  PetscCheck(n == p->xm * p->ym, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
             "Vector of local size %" PetscInt_FMT " is not laid out like the %" PetscInt_FMT " owned nodes of the SBP-SAT grid", n, p->xm * p->ym);
  {
    PetscBool dev;
    PetscCall(VecIsOpenCL(b, &dev));
    if (dev && p->use_device) { /* the same bits, made on the device (kernels/estimate.cl) */
      cl_kernel k;
      cl_mem    bb;
      size_t    global[2] = {(size_t)p->xm, (size_t)p->ym};

      PetscCall(PCSBPMGGetProblemKernel(p, SBP_KERNEL_FP64, &p->tune, MG_K_START_VECTOR, &k));
      PetscCall(VecOpenCLGetBufferWrite(b, &bb));
      {
        const struct {
          SbpmgCLArgValue xs, ys, xm, ym, Nr, b;
        } a = {.xs = SbpmgCLArgInt((int)p->xs),
               .ys = SbpmgCLArgInt((int)p->ys),
               .xm = SbpmgCLArgInt((int)p->xm),
               .ym = SbpmgCLArgInt((int)p->ym),
               .Nr = SbpmgCLArgInt((int)p->Nr),
               .b  = SbpmgCLArgMem(bb)};
        SBPMG_CL_SET_ARGS(k, mg_start_vector, &a);
      }
      PetscCall(SbpProblemLaunch2D(p, k, global));
      PetscCall(VecOpenCLRestoreBufferWrite(b, &bb));
      PetscFunctionReturn(0);
    }
  }
  PetscCall(VecGetArrayWrite(b, &a));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) {
      uint64_t z = 0x5b9u + 0x9E3779B97F4A7C15ull * (uint64_t)(i + (p->Nr + 1) * j + 1); /* splitmix64 */
      z          = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z          = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      z ^= z >> 31;
      a[(i - p->xs) + p->xm * (j - p->ys)] = (PetscReal)(z >> 11) * (1.0 / 9007199254740992.0);
    }
  PetscCall(VecRestoreArrayWrite(b, &a));
  PetscFunctionReturn(0);
}

/* Extreme eigenvalues of D^-1 M~ (dinv = D^-1; NULL: of M~) by the Lanczos process that its CG steps on the start vector r_0 carry
   (Saad, Iterative Methods for Sparse Linear Systems, 6.7.3): with CG's step lengths alpha_k and ratios beta_k = (z_{k+1}, r_{k+1}) /
   (z_k, r_k), the tridiagonal T has T_kk = 1/alpha_k + beta_{k-1}/alpha_{k-1} and T_{k,k+1} = sqrt(beta_k)/alpha_k, and its extreme
   eigenvalues (LAPACK's steqr) estimate those of D^-1 M~ from inside. Only r, z (r itself without dinv), p and w = M~ p exist: the
   iterate x is never formed. A step whose (z, r) or (p, w) is not positive ends the process (exact convergence, or an operator that is
   not positive definite: the estimate then holds the steps before it, and none leaves lmax = 0). */
static PetscErrorCode SbpmgSmootherLanczos(PC pc, PC_SbpmgSmoother *s, Vec dinv, int dir, Vec v[4], PetscReal d[], PetscReal e[], PetscBLASInt *n)
{
  const PetscInt its   = s->set.eig_its;
  PCSBPMGLines   lines = dir >= 0 ? s->set.lines : NULL; /* B^-1 the line solve of direction dir */
  Vec            r = v[0], z = dinv || lines ? v[1] : v[0], p = v[2], w = v[3];
  PetscScalar    rz, pw, rznew;
  PetscReal      alpha, alphaold = 1, beta = 0;

  PetscFunctionBegin;
  *n = 0;
  PetscCall(SbpmgSmootherStartVector(s->p, r));
  if (dinv) PetscCall(VecPointwiseMult(z, r, dinv));
  if (lines) PetscCall(PCSBPMGLinesSolve(lines, dir, r, z));
  PetscCall(VecTDot(z, r, &rz));
  PetscCall(VecCopy(z, p));
  for (PetscInt k = 0; k < its; k++) {
    PetscCall(MatMult(pc->mat, p, w));
    PetscCall(VecTDot(p, w, &pw));
    if (!(PetscRealPart(rz) > 0) || !(PetscRealPart(pw) > 0)) break;
    alpha = PetscRealPart(rz / pw);
    d[k]  = 1 / alpha + (k ? beta / alphaold : 0);
    if (k) e[k - 1] = PetscSqrtReal(beta) / alphaold;
    *n = (PetscBLASInt)(k + 1);
    if (k == its - 1) break; /* T is complete */
    if (lines) {
      PetscCall(VecAXPY(r, -alpha, w));
      PetscCall(PCSBPMGLinesSolve(lines, dir, r, z));
      PetscCall(VecTDot(z, r, &rznew));
    } else
      PetscCall(VecOpenCLLanczosStep_Private(r, -alpha, w, dinv, z, &rznew)); /* r -= alpha w, z = dinv r, (z, r) in one pass */
    beta     = PetscRealPart(rznew / rz);
    rz       = rznew;
    alphaold = alpha;
    PetscCall(VecAYPX(p, beta, z));
  }
  PetscFunctionReturn(0);
}

/* The extreme eigenvalues of the Lanczos tridiagonal (d, e) of order n into s->lmin, s->lmax (0 where n = 0). */
static PetscErrorCode SbpmgSmootherTridiagonalEigenvalues(PC pc, PC_SbpmgSmoother *s, PetscBLASInt n, PetscReal d[], PetscReal e[], PetscReal work[])
{
  PetscBLASInt one = 1, info = 0;

  PetscFunctionBegin;
  s->lmin = s->lmax = 0;
  if (!n) PetscFunctionReturn(0);
  PetscCallBLAS("LAPACKsteqr", LAPACKREALsteqr_("N", &n, d, e, NULL, &one, work, &info));
  PetscCheck(!info, PetscObjectComm((PetscObject)pc), PETSC_ERR_LIB,
             "LAPACK steqr failed (info %d) on the %d x %d Lanczos tridiagonal of the eigenvalue estimate", (int)info, (int)n, (int)n);
  s->lmin = d[0]; /* ascending */
  s->lmax = d[n - 1];
  PetscFunctionReturn(0);
}

/* Extreme eigenvalues of (D^-1) M~ (dinv = D^-1; NULL: of M~), or with dir >= 0 of B^-1 M~ for the line blocks B of that direction, by a
   few CG steps on a fixed random vector (deterministic, independent of the decomposition); its vectors destroyed on every path. */
static PetscErrorCode SbpmgSmootherEstimate(PC pc, PC_SbpmgSmoother *s, Vec dinv, int dir)
{
  Vec            v[4] = {NULL, NULL, NULL, NULL};
  PetscReal     *d = NULL, *e = NULL, *work = NULL;
  PetscBLASInt   n = 0;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SBPMG_MGEigen, pc, 0, 0, 0));
  ierr = MatCreateVecs(pc->pmat, &v[0], NULL);
  for (PetscInt t = 1; t < 4 && !ierr; t++)
    if (t != 1 || dinv || dir >= 0) ierr = VecDuplicate(v[0], &v[t]);
  if (!ierr) ierr = PetscMalloc3(s->set.eig_its, &d, s->set.eig_its, &e, 2 * s->set.eig_its, &work);
  if (!ierr) ierr = SbpmgSmootherLanczos(pc, s, dinv, dir, v, d, e, &n);
  if (!ierr) ierr = SbpmgSmootherTridiagonalEigenvalues(pc, s, n, d, e, work);
  PetscCall(PetscFree3(d, e, work));
  for (PetscInt t = 0; t < 4; t++) PetscCall(VecDestroy(&v[t]));
  PetscCall(PetscLogEventEnd(SBPMG_MGEigen, pc, 0, 0, 0));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* The passes of several sweeps (docs/design.md "several sweeps per pass"): the core boxes, m more buffers, and checks that the work-group
   holds a column and that the device takes it; where its rings exceed the device's local memory, single sweeps. */
static PetscErrorCode SbpmgSmootherSetUpPasses(PC_SbpmgSmoother *s)
{
  SbpProblem     p      = s->p;
  const PetscInt wg     = s->set.tune.mg_pass_wg;
  const size_t   real   = s->set.prec == SBP_KERNEL_FP32 ? sizeof(float) : sizeof(PetscReal),
               coef     = s->set.prec == SBP_KERNEL_FP64 ? sizeof(PetscReal) : sizeof(float);
  const PetscInt lbytes = (PetscInt)(12 * real + 16 * coef); /* per work-item: three rings of 4 iterate rows, two of 8 coefficient rows (kernels/smooth.cl) */
  cl_kernel      k      = NULL;
  size_t         wgmax;
  cl_ulong       lmax;

  PetscFunctionBegin;
  for (PetscInt m = 2; m <= 3; m++) {
    PetscInt *core = s->core[m - 2];
    core[0]        = p->in[0] + m - 1;
    core[1]        = p->in[1] + m - 1;
    core[2]        = p->in[2] - (m - 1);
    core[3]        = p->in[3] - (m - 1);
    if (core[0] > core[2] || core[1] > core[3]) { /* empty, as the set-up leaves an empty interior box: the rim is everything */
      core[0] = p->xs;
      core[2] = p->xs - 1;
      core[1] = p->ys + p->ym;
      core[3] = p->ys + p->ym - 1;
    }
  }
  PetscCheck(wg > 2 * s->pass_on, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Work-group of %" PetscInt_FMT " work-items (tuning mg_pass_wg) holds no column for %" PetscInt_FMT
             " sweeps per pass (mg_sweeps_per_pass): it needs more than %" PetscInt_FMT,
             wg, s->pass_on, 2 * s->pass_on);
  PetscCallCL(clGetDeviceInfo(p->cl->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(wgmax), &wgmax, NULL)); /* before a build that could not run */
  PetscCallCL(clGetDeviceInfo(p->cl->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(lmax), &lmax, NULL));
  if ((size_t)wg <= wgmax && (cl_ulong)(wg * lbytes) > lmax) { /* fp64 coefficients and vectors on a GPU's 48 KiB: single sweeps */
    PetscCall(PetscInfo(
        NULL, "mg_smooth_pass of %" PetscInt_FMT " work-items needs %" PetscInt_FMT " bytes of local memory, the device has %llu: one sweep per pass\n", wg,
        wg * lbytes, (unsigned long long)lmax));
    s->pass_on = 1;
    PetscFunctionReturn(0);
  }
  if ((size_t)wg <= wgmax) {
    PetscCall(PCSBPMGSmootherKernel(s, MG_K_SMOOTH_PASS, &k));
    PetscCallCL(clGetKernelWorkGroupInfo(k, p->cl->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wgmax), &wgmax, NULL));
  }
  PetscCheck((size_t)wg <= wgmax, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "Work-group of %" PetscInt_FMT
             " work-items (tuning mg_pass_wg) is larger than the device runs mg_smooth_pass with (%zu): choose a smaller one or mg_sweeps_per_pass=1",
             wg, wgmax);
  for (PetscInt t = 0; t < s->pass_on; t++) PetscCall(VecDuplicate(s->xw, &s->xp[t]));
  PetscFunctionReturn(0);
}

/* Forget the vectors and kernels of the level (a new set-up or a reset). */
static PetscErrorCode SbpmgSmootherClear(PC_SbpmgSmoother *s)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&s->dinv));
  PetscCall(VecDestroy(&s->d));
  PetscCall(VecDestroy(&s->xw));
  PetscCall(VecDestroy(&s->w));
  for (PetscInt t = 0; t < 3; t++) PetscCall(VecDestroy(&s->xp[t]));
  PetscCall(PetscArrayzero(s->k, MG_K_SMOOTH_PASS + 1));
  PetscFunctionReturn(0);
}

/* The Jacobi step (omega, or 4 / (3 lambda_max)) or the Richardson one (2 / (lambda_min + 1.1 lambda_max)) from the estimates. */
static PetscErrorCode SbpmgSmootherOmega(PC pc, PC_SbpmgSmoother *s, PetscReal lmin, PetscReal lmax, PetscReal *omega)
{
  PetscFunctionBegin;
  *omega = 0;
  if (s->set.type == PC_SBPMG_JACOBI) {
    *omega = s->set.omega > 0 ? s->set.omega : 4 / (3 * lmax);
    PetscCheck(*omega * SBPMG_LMAX_MARGIN * lmax < 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
               "-pc_sbpmg_jacobi_omega %g is too large for this level: omega * 1.1 lambda_max(D^-1 A) = %g must stay below 2 (lambda_max estimate %g), "
               "or the damped Jacobi sweep amplifies the top of the spectrum and the V-cycle is indefinite; take omega < %g",
               (double)*omega, (double)(*omega * SBPMG_LMAX_MARGIN * lmax), (double)lmax, (double)(2 / (SBPMG_LMAX_MARGIN * lmax)));
  } else if (s->set.type == PC_SBPMG_RICHARDSON)
    *omega = 2 / (PetscMax(lmin, 0) + SBPMG_LMAX_MARGIN * lmax);
  PetscFunctionReturn(0);
}

/* The estimates of B^-1 M~ in each direction of the level's lines, made once for its down and up smoothers. */
static PetscErrorCode SbpmgSmootherEstimateLines(PC pc, PC_SbpmgSmoother *s)
{
  PCSBPMGLines l = s->set.lines;

  PetscFunctionBegin;
  for (int d = 0; d < 2; d++) {
    if (!(l->dirs & (1 << d)) || l->estimated[d]) continue;
    PetscCall(SbpmgSmootherEstimate(pc, s, NULL, d));
    PetscCheck(s->lmax > 0 && !PetscIsInfOrNanReal(s->lmax), PetscObjectComm((PetscObject)pc), PETSC_ERR_CONV_FAILED,
               "Eigenvalue estimate %g of the %s-line %s smoother is not positive", (double)s->lmax, d ? "s" : "r", PCSBPMGSmootherTypes[s->set.type]);
    l->lmin[d]      = s->lmin;
    l->lmax[d]      = s->lmax;
    l->estimated[d] = PETSC_TRUE;
  }
  s->lmin = s->lmax = 0;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSetUp_SbpmgSmoother(PC pc)
{
  PC_SbpmgSmoother *s = (PC_SbpmgSmoother *)pc->data;
  SbpProblem        p;

  PetscFunctionBegin;
  PetscCall(MatGetSbpProblem(pc->pmat, &p));
  PetscCall(PetscObjectReference((PetscObject)p));
  PetscCall(SbpProblemDestroy(&s->p));
  s->p = p;
  if (!s->tune_set) s->set.tune = p->tune;
  PetscCall(SbpmgSmootherClear(s));
  PetscCheck(s->set.prec != SBP_KERNEL_FP32 || p->use_device, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP,
             "The single-precision V-cycle (-pc_sbpmg_precision single) needs the device backend: the SBP-SAT problem is on the host");
  s->level = NULL;
  if (p->use_device) PetscCall(SbpProblemGetLevel(p, s->set.prec, &s->level)); /* the level the device sweeps run on */
  if (s->set.prec == SBP_KERNEL_FP32)
    PetscCall(PCSBPMGVecCreate(p, &s->xw)); /* the V-cycle's level vectors */
  else
    PetscCall(MatCreateVecs(pc->pmat, &s->xw, NULL)); /* dinv and d are made when the host sweeps first need them */
  if (s->set.lines) {
    PetscCheck(s->set.type != PC_SBPMG_RICHARDSON, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_INCOMP,
               "Line smoothing needs the chebyshev or jacobi smoother (-pc_sbpmg_smoother), not richardson");
    PetscCall(SbpmgSmootherEstimateLines(pc, s));
    s->pass_on = 1;
    PetscFunctionReturn(0);
  }
  if (s->set.type != PC_SBPMG_RICHARDSON) { /* one diagonal for the estimate and the sweeps */
    Vec            d64;
    PetscErrorCode ierr;
    PetscCall(SbpmgSmootherInverseDiagonal(pc, &d64));
    ierr = s->set.tune.mg_inline_diag && p->order == 2 ? 0 : SbpmgSmootherDiagonal(pc, s, s->xw, d64); /* order p: always stored (sweeps.c) */
    if (!ierr) ierr = SbpmgSmootherEstimate(pc, s, d64, -1);
    PetscCall(VecDestroy(&d64));
    PetscCall(ierr);
  } else
    PetscCall(SbpmgSmootherEstimate(pc, s, NULL, -1));
  PetscCheck(s->lmax > 0 && !PetscIsInfOrNanReal(s->lmax), PetscObjectComm((PetscObject)pc), PETSC_ERR_CONV_FAILED,
             "Eigenvalue estimate %g of the %s smoother is not positive", (double)s->lmax, PCSBPMGSmootherTypes[s->set.type]);
  /* A sweep x += omega s (b - M x) keeps the V-cycle positive definite while omega lambda_max(s M) < 2. CG's Lanczos estimate of
     lambda_max is from below (at N = 64 on the square, 10 steps: 7.87 for 8.00), so the step is taken from 1.1 times the estimate, the
     Chebyshev interval's margin: the spec's Richardson omega = 2/(lambda_min + lambda_max) on the estimates themselves put
     omega lambda_max at 2.03 there, the V-cycle indefinite (CG: DIVERGED_INDEFINITE_PC). */
  PetscCall(SbpmgSmootherOmega(pc, s, s->lmin, s->lmax, &s->omega));
  s->pass_on = p->use_device && !SbpProblemExchangesGhosts(p) && p->split_on && p->order == 2 ? s->set.tune.mg_sweeps_per_pass : 1;
  if (s->pass_on > 1) PetscCall(SbpmgSmootherSetUpPasses(s));
  PetscFunctionReturn(0);
}

/* The same sweep with PETSc operations (host vectors, or any operator handed to the smoother). */
static PetscErrorCode SbpmgSmootherSweepHost(PC pc, PC_SbpmgSmoother *s, Vec x, Vec b, Vec r, PetscReal c1, PetscReal c2, PetscBool zero)
{
  PetscFunctionBegin;
  PetscCall(SbpmgSmootherDiagonal(pc, s, x, NULL));
  if (!s->d) PetscCall(VecDuplicate(x, &s->d));
  PetscCall(PetscLogEventBegin(SBPMG_MGSmooth, 0, 0, 0, 0));
  if (zero)
    PetscCall(VecCopy(b, r));
  else
    PetscCall(MatResidual(pc->pmat, b, x, r));
  if (s->set.type != PC_SBPMG_RICHARDSON) PetscCall(VecPointwiseMult(r, r, s->dinv));
  if (s->set.type == PC_SBPMG_CHEBYSHEV) {
    if (c1 != 0)
      PetscCall(VecAXPBY(s->d, c2, c1, r));
    else
      PetscCall(VecAXPBY(s->d, c2, 0, r));
    if (zero)
      PetscCall(VecCopy(s->d, x));
    else
      PetscCall(VecAXPY(x, 1, s->d));
  } else {
    if (zero)
      PetscCall(VecAXPBY(x, c2, 0, r));
    else
      PetscCall(VecAXPY(x, c2, r));
  }
  PetscCall(PetscLogEventEnd(SBPMG_MGSmooth, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* (c1, c2) of sweep k of `its`: Chebyshev (Saad, Iterative Methods, Alg. 12.1) on D^-1 M~ over [lo, hi] * lambda_max: theta =
   (a+b)/2, delta = (b-a)/2, sigma = theta/delta; d_0 = r_0/theta, rho_0 = 1/sigma, rho_k = 1/(2 sigma - rho_{k-1}), d_k = rho_k
   rho_{k-1} d_{k-1} + (2 rho_k / delta) r_k; Jacobi and Richardson: (0, omega). */
static void SbpmgSmootherCoefficients(PC_SbpmgSmoother *s, PetscReal lmax, PetscReal omega, PetscInt its, PetscReal c[])
{
  PetscReal a = s->set.lo * lmax, bnd = s->set.hi * lmax, theta = (a + bnd) / 2, delta = (bnd - a) / 2, sigma = theta / delta, rhoprev = 1 / sigma;

  for (PetscInt k = 0; k < its; k++) {
    c[2 * k] = 0;
    if (s->set.type != PC_SBPMG_CHEBYSHEV)
      c[2 * k + 1] = omega;
    else if (k == 0)
      c[2 * k + 1] = 1 / theta;
    else {
      PetscReal rhok = 1 / (2 * sigma - rhoprev);
      c[2 * k]       = rhok * rhoprev;
      c[2 * k + 1]   = 2 * rhok / delta;
      rhoprev        = rhok;
    }
  }
}

/* Line smoothing: its sweeps along the lines of each direction of the level, r then s (s then r in the up smoother: the V-cycle's
   post-smoother is then the adjoint of its pre-smoother, and the cycle symmetric), each on B^-1 M~ with its own estimates. On the
   single-precision V-cycle's finest level the right-hand side's conversion and the result's (PCSBPMGVecFinish) are the level vectors'
   own, not folded into the sweeps. */
static PetscErrorCode SbpmgSmootherLineSweeps(PC pc, PC_SbpmgSmoother *s, PetscBool dev, Vec x, Vec b, Vec w, PetscInt its, PetscBool guesszero, PetscReal c[])
{
  PCSBPMGLines l = s->set.lines;

  PetscFunctionBegin;
  if (s->set.prec == SBP_KERNEL_FP32) {
    PCSBPMGVecState st;
    PetscCall(PCSBPMGVecGetState(x, &st));
    if (st == PCSBPMG_VEC_ZERO) guesszero = PETSC_TRUE;
  }
  for (int t = 0; t < 2; t++) {
    const int d = s->set.reverse ? 1 - t : t;
    PetscReal omega;
    if (!(l->dirs & (1 << d))) continue;
    PetscCall(SbpmgSmootherOmega(pc, s, l->lmin[d], l->lmax[d], &omega));
    SbpmgSmootherCoefficients(s, l->lmax[d], omega, its, c);
    PetscCall(PCSBPMGLinesSweeps(l, d, s->set.prec, dev, x, b, w, s->xw, its, guesszero, c));
    guesszero = PETSC_FALSE;
  }
  PetscFunctionReturn(0);
}

/* nu sweeps from x (or from zero); the result ends in x (or, on the finest level of the single-precision V-cycle, in its target). */
static PetscErrorCode PCApplyRichardson_SbpmgSmoother(PC pc, Vec b, Vec x, Vec w, PetscReal rtol, PetscReal abstol, PetscReal dtol, PetscInt its,
                                                      PetscBool guesszero, PetscInt *outits, PCRichardsonConvergedReason *reason)
{
  PC_SbpmgSmoother *s   = (PC_SbpmgSmoother *)pc->data;
  PetscBool         dev = PETSC_TRUE, fused;
  PetscReal         cbuf[2 * 64], *c = cbuf;

  PetscFunctionBegin;
  if (s->set.prec == SBP_KERNEL_FP32) {
    PetscBool xs, bs;
    PetscCall(PCSBPMGVecIsSingle(x, &xs));
    PetscCall(PCSBPMGVecIsSingle(b, &bs));
    PetscCheck(xs && bs, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "The single-precision smoother takes level vectors (%s), not %s and %s", VECMGFP32,
               ((PetscObject)b)->type_name, ((PetscObject)x)->type_name);
  } else
    PetscCall(SbpProblemUseDevice(s->p, x, b, s->xw, &dev));
  fused = dev && (s->p->order == 2 || s->set.tune.mg_wide_sweep) ? PETSC_TRUE : PETSC_FALSE; /* order 4, 6: mg_wide_sweep 0 sweeps around MatResidual */
  if ((!fused || s->set.lines) && !w) { /* the host and line sweeps need a residual vector; PCApply (and a caller of PCApplyRichardson) may give none */
    if (!s->w) PetscCall(VecDuplicate(x, &s->w));
    w = s->w;
  }
  if (its > 64) PetscCall(PetscMalloc1(2 * its, &c));
  if (s->set.lines) {
    PetscCall(SbpmgSmootherLineSweeps(pc, s, dev, x, b, w, its, guesszero, c));
    if (c != cbuf) PetscCall(PetscFree(c));
    *outits = its;
    *reason = PCRICHARDSON_CONVERGED_ITS;
    PetscFunctionReturn(0);
  }
  SbpmgSmootherCoefficients(s, s->lmax, s->omega, its, c);
  if (fused)
    PetscCall(PCSBPMGSmootherSweeps(s, x, b, its, guesszero, c));
  else
    for (PetscInt k = 0; k < its; k++)
      PetscCall(SbpmgSmootherSweepHost(pc, s, x, b, w, c[2 * k], c[2 * k + 1], k == 0 && guesszero ? PETSC_TRUE : PETSC_FALSE));
  if (c != cbuf) PetscCall(PetscFree(c));
  *outits = its;
  *reason = PCRICHARDSON_CONVERGED_ITS;
  PetscFunctionReturn(0);
}

/* As a preconditioner on its own: one sweep from zero. */
static PetscErrorCode PCApply_SbpmgSmoother(PC pc, Vec b, Vec x)
{
  PetscInt                    its;
  PCRichardsonConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(PCApplyRichardson_SbpmgSmoother(pc, b, x, NULL, 0, 0, 0, 1, PETSC_TRUE, &its, &reason));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCView_SbpmgSmoother(PC pc, PetscViewer viewer)
{
  PC_SbpmgSmoother *s = (PC_SbpmgSmoother *)pc->data;
  PetscBool         isascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPushTab(viewer)); /* below PCView()'s "type:" line, as PETSc's own types print theirs */
  if (!s->p) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "sbpmg %s smoother, eigenvalue estimates (%" PetscInt_FMT " CG steps) made at set-up\n",
                                     PCSBPMGSmootherTypes[s->set.type], s->set.eig_its));
    PetscCall(PetscViewerASCIIPopTab(viewer));
    PetscFunctionReturn(0);
  }
  if (s->set.lines) {
    PCSBPMGLines l = s->set.lines;
    for (int t = 0; t < 2; t++) {
      const int d = s->set.reverse ? 1 - t : t;
      if (!(l->dirs & (1 << d))) continue;
      if (s->set.type == PC_SBPMG_CHEBYSHEV)
        PetscCall(PetscViewerASCIIPrintf(viewer,
                                         "sbpmg Chebyshev smoother on B^-1 A, B the %s-line blocks of A: interval [%g, %g] = [%g, %g] * lambda_max, lambda_max "
                                         "estimate %g (%" PetscInt_FMT " CG steps)\n",
                                         d ? "s" : "r", (double)(s->set.lo * l->lmax[d]), (double)(s->set.hi * l->lmax[d]), (double)s->set.lo,
                                         (double)s->set.hi, (double)l->lmax[d], s->set.eig_its));
      else
        PetscCall(PetscViewerASCIIPrintf(viewer, "sbpmg damped %s-line Jacobi smoother (lambda_max(B^-1 A) estimate %g)\n", d ? "s" : "r", (double)l->lmax[d]));
    }
    PetscCall(PetscViewerASCIIPrintf(viewer, "line solves on the %s%s%s\n", s->p->use_device ? "device" : "host",
                                     l->dirs == 3 ? (s->set.reverse ? ", s-lines first (the post-smoother)" : ", r-lines first (the pre-smoother)") : "",
                                     s->p->use_device && s->set.prec == SBP_KERNEL_FP32 ? ", vectors and factors in fp32" : ""));
    PetscCall(PetscViewerASCIIPopTab(viewer));
    PetscFunctionReturn(0);
  }
  switch (s->set.type) {
  case PC_SBPMG_CHEBYSHEV:
    PetscCall(PetscViewerASCIIPrintf(
        viewer, "sbpmg Chebyshev smoother on D^-1 A: interval [%g, %g] = [%g, %g] * lambda_max, lambda_max estimate %g (%" PetscInt_FMT " CG steps)\n",
        (double)(s->set.lo * s->lmax), (double)(s->set.hi * s->lmax), (double)s->set.lo, (double)s->set.hi, (double)s->lmax, s->set.eig_its));
    break;
  case PC_SBPMG_JACOBI:
    PetscCall(PetscViewerASCIIPrintf(viewer, "sbpmg damped Jacobi smoother: omega %g (lambda_max(D^-1 A) estimate %g)\n", (double)s->omega, (double)s->lmax));
    break;
  case PC_SBPMG_RICHARDSON:
    PetscCall(PetscViewerASCIIPrintf(viewer, "sbpmg Richardson smoother: omega = 2/(lambda_min + 1.1 lambda_max) = %g (estimates %g, %g)\n", (double)s->omega,
                                     (double)s->lmin, (double)s->lmax));
    break;
  }
  if (s->p)
    PetscCall(PetscViewerASCIIPrintf(viewer, "fused sweeps on the %s%s%s\n", s->p->use_device ? "device" : "host",
                                     s->p->use_device ? (s->set.prec == SBP_KERNEL_FP32
                                                             ? ", vectors and coefficients in fp32"
                                                             : (s->set.prec == SBP_KERNEL_COEF32 ? ", coefficients in fp32" : ", coefficients in fp64"))
                                                      : "",
                                     s->pass_on == 3   ? ", three per pass"
                                     : s->pass_on == 2 ? ", two per pass"
                                                       : ""));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCReset_SbpmgSmoother(PC pc)
{
  PC_SbpmgSmoother *s = (PC_SbpmgSmoother *)pc->data;

  PetscFunctionBegin;
  PetscCall(SbpmgSmootherClear(s));
  s->level = NULL; /* p's */
  PetscCall(SbpProblemDestroy(&s->p));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCDestroy_SbpmgSmoother(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_SbpmgSmoother(pc));
  PetscCall(PCSBPMGLinesDestroy(&((PC_SbpmgSmoother *)pc->data)->set.lines));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(0);
}

/* Set the smoother's parameters (called by PCSBPMG for each level); the tuning rows mg_inline_diag, mg_sweeps_per_pass,
   mg_pass_wg, mg_pass_rows and mg_pass_groups_per_cu come from set->tune. */
PetscErrorCode PCSBPMGSmootherConfigure(PC pc, const PCSBPMGSmootherSettings *set)
{
  PC_SbpmgSmoother *s = (PC_SbpmgSmoother *)pc->data;

  PetscFunctionBegin;
  PetscCall(PCSBPMGLinesReference(set->lines));
  PetscCall(PCSBPMGLinesDestroy(&s->set.lines));
  s->set      = *set;
  s->tune_set = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGSmootherGetEstimates(PC pc, PetscReal *lmin, PetscReal *lmax)
{
  PC_SbpmgSmoother *s = (PC_SbpmgSmoother *)pc->data;

  PetscFunctionBegin;
  if (lmin) *lmin = s->lmin;
  if (lmax) *lmax = s->lmax;
  PetscFunctionReturn(0);
}

/* Device sweeps per pass over the data (resolved at set-up: as configured on one rank where the level has the interior/rim split, else 1). */
PetscErrorCode PCSBPMGSmootherGetPass(PC pc, PetscInt *pass)
{
  PC_SbpmgSmoother *s = (PC_SbpmgSmoother *)pc->data;

  PetscFunctionBegin;
  *pass = s->pass_on;
  PetscFunctionReturn(0);
}

/*MC
   PCSBPMGSMOOTHER - "sbpmgsmoother": the level smoother PCSBPMG installs under KSPRICHARDSON. Its PCApplyRichardson runs nu fused
   sweeps (one pass each over the SBP-SAT operator's data) of Chebyshev on D^-1 A, damped Jacobi or Richardson. Configured by
   PCSBPMG from -pc_sbpmg_smoother, -pc_sbpmg_cheby_range, -pc_sbpmg_jacobi_omega and -pc_sbpmg_eig_its.

   Level: developer

.seealso: `PCSBPMG`
M*/
PetscErrorCode PCCreate_SBPMGSmoother(PC pc)
{
  PC_SbpmgSmoother *s;

  PetscFunctionBegin;
  PetscCall(PetscNew(&s));
  s->set.type              = PC_SBPMG_CHEBYSHEV;
  s->set.lo                = 0.1;
  s->set.hi                = 1.1;
  s->set.eig_its           = 10;
  pc->data                 = s;
  pc->ops->setup           = PCSetUp_SbpmgSmoother;
  pc->ops->apply           = PCApply_SbpmgSmoother;
  pc->ops->applyrichardson = PCApplyRichardson_SbpmgSmoother;
  pc->ops->view            = PCView_SbpmgSmoother;
  pc->ops->reset           = PCReset_SbpmgSmoother;
  pc->ops->destroy         = PCDestroy_SbpmgSmoother;
  PetscFunctionReturn(0);
}
