/* The exact solution at the nodes and the error of a solution in the norms of spec section 7 (docs/guide.md "The right-hand side",
   "Bringing a problem"): the manufactured one, or the user's as a host function, OpenCL source or values at the nodes; on the device
   where it can evaluate them (kernels/rhs.cl rhs_exact_nodes, the norms' shells and device reductions), else on the host, node by
   node. */
#include <sbpmg/private/sbpimpl.h>
#include "sbpmg_kernel_args.h"

/* sbp_norm_weight (the weight of a node in H~), shared with the device kernels; at order p > 2 the order's weights from its table
   (kernels/sbp_face.cl sbp_face_norm_weight; spec-sbp-sat-highorder.md 5) */
#include "../../kernels/sbp.cl"
#include "../../kernels/sbp_table.cl"
#include "../../kernels/sbp_face.cl"

/* v(i,j) = fn(p, i, j, X, m) at every owned node (i,j), X its geometry and m mu there. */
typedef PetscErrorCode (*SbpNodeFunction)(SbpProblem, PetscInt, PetscInt, const PetscReal[6], const PetscReal[3], PetscScalar *);

static PetscErrorCode SbpProblemSetNodes(SbpProblem p, Vec v, SbpNodeFunction fn)
{
  PetscScalar **va;

  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  PetscCall(SbpProblemGetHostNodes(p));
  PetscCall(SbpProblemVecGetArray(p, v, PETSC_FALSE, &va));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) {
      PetscReal X[6], m[3] = {0, 0, 0};
      PetscCall(SbpProblemEvaluateMapping(p, i, j, X));
      PetscCall((*fn)(p, i, j, X, m, &va[j][i]));
    }
  PetscCall(SbpProblemVecRestoreArray(p, v, PETSC_FALSE, &va));
  PetscFunctionReturn(0);
}

/* The exact solution is known: the user's, or the manufactured problem's while the data are its; values fit the grid, a source has
   a device to run on. */
static PetscErrorCode SbpCheckExact(SbpProblem p)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)p);

  PetscFunctionBegin;
  PetscCheck(p->setupcalled, comm, PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  PetscCheck(p->exactfn || p->exactsrc || p->exactvec || SbpProblemManufactured(p), comm, PETSC_ERR_ARG_WRONGSTATE,
             "The problem's data are the user's: give its exact solution with SbpProblemSetExactSolution(), ...Source() or ...Vector()");
  PetscCheck(!p->exactsrc || p->use_device, comm, PETSC_ERR_ARG_WRONGSTATE,
             "The exact solution is OpenCL source (SbpProblemSetExactSolutionSource()): the host backend cannot evaluate it (give it as a "
             "function or values, or use the device backend)");
  if (p->exactvec) {
    PetscInt n;
    PetscCall(VecGetSize(p->exactvec, &n));
    PetscCheck(n == (p->Nr + 1) * (p->Ns + 1), comm, PETSC_ERR_ARG_SIZ,
               "The exact solution's vector has %" PetscInt_FMT " entries, the %" PetscInt_FMT " x %" PetscInt_FMT " grid %" PetscInt_FMT " nodes", n, p->Nr,
               p->Ns, (p->Nr + 1) * (p->Ns + 1));
  }
  PetscFunctionReturn(0);
}

/* The exact solution at a node: the user's, or the manufactured problem's (SbpCheckExact() first). */
static PetscErrorCode SbpExactNode(SbpProblem p, PetscInt i, PetscInt j, const PetscReal X[6], const PetscReal m[3], PetscScalar *u)
{
  PetscReal ux, uy, v;

  PetscFunctionBegin;
  if (p->exactfn) {
    PetscCall((*p->exactfn)(p->exactctx, X[0], X[1], &v));
    *u = v;
  } else
    SbpExactSolution(X[0], X[1], u, &ux, &uy);
  PetscFunctionReturn(0);
}

/* The arguments of kernels/rhs.cl rhs_exact_nodes by name (include/sbpmg/private/climpl.h SBPMG_CL_SET_ARGS; its reals are double) */
typedef struct {
  SBP_GRID_ARGS;
  SbpmgCLArgValue nodes, u;
} SbpExactNodesArgs;

/* The device evaluates the exact solution where it is the manufactured one and the device can make the right-hand side (the same
   program: the mapping at the nodes on the device), for a device vector u. */
static PetscErrorCode SbpExactOnDevice(SbpProblem p, Vec u, PetscBool *dev)
{
  PetscFunctionBegin;
  *dev = PETSC_FALSE;
  if (p->exactfn || p->metricfn) PetscFunctionReturn(0);
  PetscCall(SbpProblemRHSOnDevice(p, u, dev));
  PetscFunctionReturn(0);
}

/* ue at the owned nodes on the device (kernels/rhs.cl rhs_exact_nodes). */
static PetscErrorCode SbpExactDevice(SbpProblem p, Vec u)
{
  cl_kernel k;
  cl_mem    ub;
  size_t    global[2] = {(size_t)p->xm, (size_t)p->ym};

  PetscFunctionBegin;
  PetscCall(SbpProblemGetRHSKernel(p, "rhs_exact_nodes", &k));
  PetscCall(VecOpenCLGetBufferWrite(u, &ub));
  {
    const SbpExactNodesArgs a = {.grid = SbpProblemGridArgs(p), .nodes = SbpmgCLArgMem(p->d_nodes), .u = SbpmgCLArgMem(ub)};
    SBPMG_CL_SET_ARGS(k, rhs_exact_nodes, &a);
  }
  PetscCall(SbpProblemLaunch2D(p, k, global));
  PetscCall(VecOpenCLRestoreBufferWrite(u, &ub));
  PetscFunctionReturn(0);
}

/* The user's exact solution given as values or OpenCL source, at the owned nodes into u (a device vector, or a host one: the source
   runs on the device then, into a device vector copied over). */
static PetscErrorCode SbpExactGiven(SbpProblem p, Vec u)
{
  Vec       t;
  PetscBool isdev;

  PetscFunctionBegin;
  if (p->exactvec) {
    PetscCall(SbpProblemGetOwnedValues(p, p->exactvec, &t));
    PetscCall(SbpProblemCopyOwned(p, t, u));
    PetscCall(VecDestroy(&t));
    PetscFunctionReturn(0);
  }
  PetscCall(VecIsOpenCL(u, &isdev));
  if (isdev) {
    PetscCall(SbpExactDevice(p, u));
    PetscFunctionReturn(0);
  }
  PetscCall(SbpProblemCreateVector(p, &t));
  PetscCall(SbpExactDevice(p, t));
  PetscCall(SbpProblemCopyOwned(p, t, u));
  PetscCall(VecDestroy(&t));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemComputeExactSolution - The exact solution at the nodes: the user's (a function, OpenCL source or values), or the
   manufactured ue = sin(pi x) cos(pi y) while the data are the manufactured problem's.

   Collective

   Level: beginner
@*/
PetscErrorCode SbpProblemComputeExactSolution(SbpProblem p, Vec u)
{
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(SbpCheckExact(p));
  if (p->exactsrc || p->exactvec) {
    PetscCall(SbpExactGiven(p, u));
    PetscFunctionReturn(0);
  }
  PetscCall(SbpExactOnDevice(p, u, &dev));
  if (dev)
    PetscCall(SbpExactDevice(p, u));
  else
    PetscCall(SbpProblemSetNodes(p, u, SbpExactNode));
  PetscFunctionReturn(0);
}

/* The error e = u - ue at the owned nodes, weighted: the sums of w e^2 and J w e^2 (m = 0), of w e, J w e, w and J w (m = 1), after
   subtracting the constants c[0] (H~ norm) and c[1] (diag(J) H~ norm); ue from uea where given, else evaluated at the node. */
static PetscErrorCode SbpErrorSums(SbpProblem p, const PetscScalar **ua, const PetscScalar **uea, PetscInt m, const PetscReal c[2], PetscReal local[4])
{
  const PetscReal *tab = NULL; /* the order's weights from order 4 on (spec-sbp-sat-highorder.md 5) */

  PetscFunctionBegin;
  if (p->order > 2) PetscCall(SbpProblemGetOrderTable(p, &tab, NULL));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) { /* the geometry evaluated at each node: no grid-sized host arrays */
      PetscReal   X[6], mu[3] = {0, 0, 0}, cf[4], e, w, J;
      PetscScalar ue;
      if (p->metricfn) {
        PetscCall(SbpProblemEvaluateNode(p, i, j, X, mu));
        PetscCall((*p->metricfn)(p->metricctx, -1 + i * p->hr, -1 + j * p->hs, X, mu[0], cf));
        J = cf[3];
      } else {
        PetscCall(SbpProblemEvaluateMapping(p, i, j, X));
        J = X[2] * X[5] - X[3] * X[4];
      }
      if (uea)
        ue = uea[j][i];
      else
        PetscCall(SbpExactNode(p, i, j, X, mu, &ue));
      e = PetscRealPart(ua[j][i]) - PetscRealPart(ue);
      w = tab ? sbp_face_norm_weight(tab, (int)i, (int)j, (int)p->Nr, (int)p->Ns, p->hr, p->hs)
              : sbp_norm_weight((int)i, (int)j, (int)p->Nr, (int)p->Ns, p->hr, p->hs, 0, 1);
      if (m == 0) {
        local[0] += w * (e - c[0]) * (e - c[0]);
        local[1] += J * w * (e - c[1]) * (e - c[1]);
      } else {
        local[0] += w * e;
        local[1] += J * w * e;
        local[2] += w;
        local[3] += J * w;
      }
    }
  PetscFunctionReturn(0);
}

/* The two norms of e on the device at order p > 2: the weights of H~ and J H (SbpProblemNormWeights) as vectors, e less its weighted mean
   in each with every face Neumann; w a work vector like e. */
static PetscErrorCode SbpErrorDeviceWide(SbpProblem p, Vec e, Vec w, PetscReal err[2])
{
  Vec W[2];

  PetscFunctionBegin;
  PetscCall(VecDuplicate(e, &W[0]));
  PetscCall(VecDuplicate(e, &W[1]));
  PetscCall(SbpProblemNormWeights(p, W[0], W[1]));
  for (int q = 0; q < 2; q++) {
    PetscScalar d;
    if (SbpProblemAllNeumann(p)) {
      PetscScalar we, w1;
      PetscCall(VecDot(e, W[q], &we));
      PetscCall(VecSum(W[q], &w1));
      PetscCall(VecShift(e, -we / w1));
    }
    PetscCall(VecPointwiseMult(w, W[q], e));
    PetscCall(VecDot(e, w, &d));
    err[q] = PetscSqrtReal(PetscMax(PetscRealPart(d), 0));
  }
  PetscCall(VecDestroy(&W[0]));
  PetscCall(VecDestroy(&W[1]));
  PetscFunctionReturn(0);
}

/* The two norms of e = u - ue on the device: ue given, or by rhs_exact_nodes, then the norms' shells (diag(J) H~ with the device's J) and
   device reductions; with every face Neumann e less its weighted mean in each norm. */
static PetscErrorCode SbpErrorDevice(SbpProblem p, Vec u, Vec ue, PetscReal *errH, PetscReal *errJH)
{
  Vec       e, w;
  Mat       H[2];
  PetscReal err[2];

  PetscFunctionBegin;
  PetscCall(VecDuplicate(u, &e));
  PetscCall(VecDuplicate(u, &w));
  if (ue)
    PetscCall(VecWAXPY(e, -1.0, ue, u));
  else {
    PetscCall(SbpExactDevice(p, e));
    PetscCall(VecAYPX(e, -1.0, u)); /* e = u - ue */
  }
  if (p->order > 2) { /* the order's weights (spec-sbp-sat-highorder.md 5) as vectors: kernels/rhs.cl rhs_norm_weights */
    PetscCall(SbpErrorDeviceWide(p, e, w, err));
  } else {
    PetscCall(SbpProblemCreateNorm(p, SBP_NORM_H, &H[0]));
    PetscCall(SbpProblemCreateNorm(p, SBP_NORM_JH, &H[1]));
    for (int q = 0; q < 2; q++) {
      PetscScalar d;
      if (SbpProblemAllNeumann(p)) { /* e less its W-weighted mean (1^T W e) / (1^T W 1), whatever constant it holds now */
        PetscScalar we, w1;
        PetscCall(MatGetDiagonal(H[q], w)); /* W 1 */
        PetscCall(VecDot(e, w, &we));
        PetscCall(VecSum(w, &w1));
        PetscCall(VecShift(e, -we / w1));
      }
      PetscCall(MatMult(H[q], e, w));
      PetscCall(VecDot(e, w, &d));
      err[q] = PetscSqrtReal(PetscMax(PetscRealPart(d), 0));
    }
    PetscCall(MatDestroy(&H[0]));
    PetscCall(MatDestroy(&H[1]));
  }
  if (errH) *errH = err[0];
  if (errJH) *errJH = err[1];
  PetscCall(VecDestroy(&w));
  PetscCall(VecDestroy(&e));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemComputeError - The error e = u - ue at the nodes in the two norms of spec section 7: ||e||_H = sqrt(e^T H~ e) (without J,
   the measure of the original code; H~ of the problem's order, spec-sbp-sat-highorder.md 5) and ||e||_JH = sqrt(e^T diag(J) H~ e). Either output may be NULL.
With every face Neumann u is determined up to a constant only, and the error is measured modulo the constants: e minus its weighted mean in each norm (the
   H~-weighted mean for ||e||_H, the diag(J) H~-weighted one for ||e||_JH), the distance of e to the constants in that norm. On the
   device for a device vector where the exact solution is the manufactured one or OpenCL source or values and the device evaluates the
   mapping; else on the host.

   Collective

   Level: beginner
@*/
PetscErrorCode SbpProblemComputeError(SbpProblem p, Vec u, PetscReal *errH, PetscReal *errJH)
{
  const PetscScalar **ua, **uea = NULL;
  PetscReal           local[4] = {0, 0, 0, 0}, global[4], c[2] = {0, 0};
  MPI_Comm            comm = PetscObjectComm((PetscObject)p);
  Vec                 ue   = NULL;
  PetscBool           dev;

  PetscFunctionBegin;
  PetscCall(SbpCheckExact(p));
  if (p->exactsrc || p->exactvec) { /* the values first, in u's kind of vector */
    PetscCall(VecDuplicate(u, &ue));
    PetscCall(SbpExactGiven(p, ue));
    PetscCall(VecIsOpenCL(u, &dev));
    dev = dev && p->use_device ? PETSC_TRUE : PETSC_FALSE;
  } else
    PetscCall(SbpExactOnDevice(p, u, &dev));
  if (dev) {
    PetscErrorCode ierr = SbpErrorDevice(p, u, ue, errH, errJH);
    PetscCall(VecDestroy(&ue));
    PetscCall(ierr);
    PetscFunctionReturn(0);
  }
  PetscCall(SbpProblemGetHostNodes(p));
  PetscCall(SbpProblemVecGetArray(p, u, PETSC_TRUE, (PetscScalar ***)&ua));
  if (ue) PetscCall(SbpProblemVecGetArray(p, ue, PETSC_TRUE, (PetscScalar ***)&uea));
  if (SbpProblemAllNeumann(p)) { /* the weighted means of e first */
    PetscCall(SbpErrorSums(p, ua, uea, 1, c, local));
    PetscCall(MPIU_Allreduce(local, global, 4, MPIU_REAL, MPIU_SUM, comm));
    c[0] = global[0] / global[2];
    c[1] = global[1] / global[3];
    PetscCall(PetscArrayzero(local, 4));
  }
  PetscCall(SbpErrorSums(p, ua, uea, 0, c, local));
  if (ue) PetscCall(SbpProblemVecRestoreArray(p, ue, PETSC_TRUE, (PetscScalar ***)&uea));
  PetscCall(SbpProblemVecRestoreArray(p, u, PETSC_TRUE, (PetscScalar ***)&ua));
  PetscCall(VecDestroy(&ue));
  PetscCall(MPIU_Allreduce(local, global, 2, MPIU_REAL, MPIU_SUM, comm));
  if (errH) *errH = PetscSqrtReal(global[0]);
  if (errJH) *errJH = PetscSqrtReal(global[1]);
  PetscFunctionReturn(0);
}
