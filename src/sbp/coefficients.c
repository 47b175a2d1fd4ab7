/* The metric coefficients crr, css, crs and J of an SbpProblem on each rank's ghosted patch (docs/design.md "Set-up on the
   device"): generated on the device by kernels/coef.cl from the built-in point functions or the user's OpenCL source; from the
   user's host callbacks evaluated on the host (on one rank, the coarse levels injected from the fine one on the device);
   checked where they are made, the first bad node named; kept on the host only where something asks for them (the host
   backend, the assembled operator, the host right-hand side), read back from the device then. */
#include <sbpmg/private/sbpimpl.h>
#include "sbpmg_kernel_args.h"
#include <limits.h>

/* The arguments of kernels/coef.cl by name (include/sbpmg/private/climpl.h SBPMG_CL_SET_ARGS; its reals are double): the point
   functions' (coef_generate, and coef_describe at node (i, j) into out), the coordinates' and the injection's. */
typedef struct {
  SBP_GRID_ARGS;
  SBP_POINT_ARGS;
  SbpmgCLArgValue i, j, bad, out;
} SbpCoefPointArgs;
typedef struct {
  SBP_GRID_ARGS;
  SbpmgCLArgValue nodes, x, y;
} SbpCoefCoordinatesArgs;
typedef struct {
  SbpmgCLArgValue gxs, gys, gxm, gym, fgxs, fgys, fgxm, fgym, fine, coarse;
} SbpCoefInjectArgs;

static const char *const SbpBadWhat[] = {"J = x_r y_s - x_s y_r", "crr", "css", "crr*css - crs^2", "mu", "crs"};

/* Which check fails at a node (-1: none) and its value; the order and codes of kernels/coef.cl coef_check. */
static int SbpCheckNode(PetscReal mu, PetscReal J, PetscReal crr, PetscReal css, PetscReal crs, PetscReal *v)
{
  const PetscReal det = crr * css - crs * crs;

  if (!(mu >= SBP_MU_MIN && mu <= SBP_MU_MAX)) return *v = mu, 4; /* not positive, not finite, or beyond what the coefficients hold */
  if (!(J > 0) || PetscIsInfOrNanReal(J)) return *v = J, 0;
  if (!(crr > 0) || PetscIsInfOrNanReal(crr)) return *v = crr, 1;
  if (!(css > 0) || PetscIsInfOrNanReal(css)) return *v = css, 2;
  if (PetscIsInfOrNanReal(crs)) return *v = crs, 5;
  if (!(det > 0)) return *v = det, 3;
  return -1;
}

/* The error for the first bad node in natural order over all ranks (first: its index, PETSC_MAX_INT if none; what and value:
   this rank's description if it found that node). Collective. */
static PetscErrorCode SbpReportBadNode(SbpProblem p, PetscInt node, int what, PetscReal value)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)p);
  PetscInt    first;
  PetscMPIInt rank, owner = 0, candidate;
  double      desc[2] = {value, what};

  PetscFunctionBegin;
  PetscCall(MPIU_Allreduce(&node, &first, 1, MPIU_INT, MPI_MIN, comm));
  if (first == PETSC_MAX_INT) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  candidate = node == first ? rank : 0;
  PetscCall(MPIU_Allreduce(&candidate, &owner, 1, MPI_INT, MPI_MAX, comm));
  PetscCallMPI(MPI_Bcast(desc, 2, MPI_DOUBLE, owner, comm));
  SETERRQ(comm, PETSC_ERR_ARG_OUTOFRANGE,
          "Invalid SBP-SAT coefficients at node (i,j) = (%" PetscInt_FMT ",%" PetscInt_FMT
          "): %s = %g; need mu in [1e-30, 1e30], J > 0, crr > 0, css > 0 and crr*css - crs^2 > 0 at every node",
          first % (p->Nr + 1), first / (p->Nr + 1), SbpBadWhat[(int)desc[1]], desc[0]);
}

/* The coefficients at every node of the ghosted patch from the host functions (the reference), into the given arrays; the first
   invalid node in natural order, with its description. */
PetscErrorCode SbpProblemEvaluateCoefficientsHost(SbpProblem p, PetscReal crr[], PetscReal css[], PetscReal crs[], PetscReal J[], PetscInt *bad, int *what,
                                                  PetscReal *value)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemGetHostNodes(p));
  *bad = PETSC_MAX_INT;
  for (PetscInt j = p->gys; j < p->gys + p->gym; j++)
    for (PetscInt i = p->gxs; i < p->gxs + p->gxm; i++) {
      PetscInt  k = SbpPatchIndex(p, i, j), node = i + (p->Nr + 1) * j;
      PetscReal X[6], m[3], v;
      int       w;

      PetscCall(SbpProblemEvaluateNode(p, i, j, X, m));
      if (p->metricfn) {
        PetscReal c[4];
        PetscCall((*p->metricfn)(p->metricctx, -1 + i * p->hr, -1 + j * p->hs, X, m[0], c));
        crr[k] = c[0];
        css[k] = c[1];
        crs[k] = c[2];
        J[k]   = c[3];
      } else { /* docs/guide.md "The PDE" */
        J[k]   = X[2] * X[5] - X[3] * X[4];
        crr[k] = m[0] * (X[3] * X[3] + X[5] * X[5]) / J[k];
        crs[k] = -m[0] * (X[2] * X[3] + X[4] * X[5]) / J[k];
        css[k] = m[0] * (X[2] * X[2] + X[4] * X[4]) / J[k];
      }
      w = SbpCheckNode(m[0], J[k], crr[k], css[k], crs[k], &v);
      if (w >= 0 && node < *bad) {
        *bad   = node;
        *what  = w;
        *value = v;
      }
    }
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpAllocateHostCoefficients(SbpProblem p)
{
  const PetscInt np = p->gxm * p->gym;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(np, &p->crr, np, &p->css, np, &p->crs, np, &p->J));
  PetscFunctionReturn(0);
}

/* Host backend: the coefficients on the host, checked on all ranks together. */
PetscErrorCode SbpProblemComputeCoefficientsHost(SbpProblem p)
{
  PetscInt  bad;
  int       what  = 0;
  PetscReal value = 0;

  PetscFunctionBegin;
  PetscCall(SbpAllocateHostCoefficients(p));
  PetscCall(SbpProblemEvaluateCoefficientsHost(p, p->crr, p->css, p->crs, p->J, &bad, &what, &value));
  PetscCall(SbpReportBadNode(p, bad, what, value));
  PetscFunctionReturn(0);
}

/* Whether some point function of the problem is a host callback of the user's that the device cannot evaluate (a mapping function it
   has as a table does not count: src/sbp/maptable.c). */
static PetscBool SbpProblemHasHostCallbacks(SbpProblem p)
{
  return (p->mapping == SBP_MAPPING_USER && !p->mapsrc && !SbpProblemTabulatesMapping(p)) || (p->mu == SBP_MU_USER && !p->musrc) ||
                 (p->metricfn && !p->metricsrc)
             ? PETSC_TRUE
             : PETSC_FALSE;
}

/* The four coefficient buffers of the ghosted patch on the device (the fp64 level's). */
static PetscErrorCode SbpCreateCoefficientBuffers(SbpProblem p)
{
  SbpLevel     lv     = p->level[SBP_KERNEL_FP64];
  const size_t bytes  = (size_t)p->gxm * p->gym * sizeof(PetscReal);
  cl_mem      *dst[4] = {&lv->crr, &lv->css, &lv->crs, &lv->J};

  PetscFunctionBegin;
  for (int t = 0; t < 4; t++) PetscCall(SbpmgCLCreateBuffer(p->cl, CL_MEM_READ_WRITE, bytes, dst[t]));
  PetscFunctionReturn(0);
}

/* The point functions evaluated by the device (coef_generate), then the check: the first bad node by an atomic minimum on the
   device, described by coef_describe at that node (every rank can, point functions need no data). */
static PetscErrorCode SbpGenerateOnDeviceInto(SbpProblem p, cl_mem bad)
{
  cl_kernel        k;
  int              Nr = (int)p->Nr, first = INT_MAX, what = -1;
  size_t           global[2] = {(size_t)p->gxm, (size_t)p->gym};
  PetscReal        value     = 0;
  SbpCoefPointArgs a         = {.grid = SbpProblemGridArgs(p), .point = SbpProblemPointArgs(p), .bad = SbpmgCLArgMem(bad)};

  PetscFunctionBegin;
  PetscCall(SbpProblemGetCoefficientKernel(p, "coef_generate", &k));
  PetscCall(SbpmgCLFillBuffer(p->cl, bad, &first, sizeof(int), 0, sizeof(int)));
  SBPMG_CL_SET_ARGS(k, coef_generate, &a);
  PetscCall(SbpProblemLaunch2D(p, k, global));
  PetscCall(SbpmgCLReadBuffer(p->cl, bad, 0, sizeof(int), &first));
  if (first != INT_MAX) { /* the description of the node, into the same small buffer: the check's code and the value */
    cl_kernel d;
    int       i = first % (Nr + 1), j = first / (Nr + 1);
    PetscReal out[2];

    PetscCall(SbpProblemGetCoefficientKernel(p, "coef_describe", &d));
    a.i   = SbpmgCLArgInt(i);
    a.j   = SbpmgCLArgInt(j);
    a.out = SbpmgCLArgMem(bad);
    SBPMG_CL_SET_ARGS(d, coef_describe, &a);
    PetscCall(SbpmgCLLaunch1D(p->cl, d, 1, 1));
    PetscCall(SbpmgCLReadBuffer(p->cl, bad, 0, 2 * sizeof(PetscReal), out));
    what  = (int)out[0];
    value = out[1];
  }
  PetscCall(SbpReportBadNode(p, first == INT_MAX ? PETSC_MAX_INT : (PetscInt)first, what, value));
  PetscFunctionReturn(0);
}

/* The same with its small buffer of the first bad node, released on every path. */
static PetscErrorCode SbpGenerateOnDevice(SbpProblem p)
{
  cl_mem         bad;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(SbpmgCLCreateBuffer(p->cl, CL_MEM_READ_WRITE, 2 * sizeof(PetscReal), &bad));
  ierr = SbpGenerateOnDeviceInto(p, bad);
  PetscCall(SbpmgCLReleaseBuffer(p->cl, &bad));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* The user's host callbacks on the host (checked there), uploaded; the host copy is not kept. */
static PetscErrorCode SbpGenerateOnHost(SbpProblem p)
{
  const SbpLevel   lv     = p->level[SBP_KERNEL_FP64];
  const size_t     bytes  = (size_t)p->gxm * p->gym * sizeof(PetscReal);
  cl_mem           dst[4] = {lv->crr, lv->css, lv->crs, lv->J};
  const PetscReal *src[4];

  PetscFunctionBegin;
  PetscCall(SbpProblemComputeCoefficientsHost(p));
  src[0] = p->crr;
  src[1] = p->css;
  src[2] = p->crs;
  src[3] = p->J;
  for (int t = 0; t < 4; t++) PetscCall(SbpmgCLWriteBuffer(p->cl, dst[t], 0, bytes, src[t]));
  PetscCall(PetscFree4(p->crr, p->css, p->crs, p->J));
  PetscFunctionReturn(0);
}

/* A coarse level of one rank from its fine level's coefficients (coef_inject: the fine values at the even nodes). */
static PetscErrorCode SbpInjectOnDevice(SbpProblem p, SbpProblem fine)
{
  cl_kernel      k;
  const SbpLevel lf = fine->level[SBP_KERNEL_FP64], lc = p->level[SBP_KERNEL_FP64];
  const cl_mem   src[4] = {lf->crr, lf->css, lf->crs, lf->J}, dst[4] = {lc->crr, lc->css, lc->crs, lc->J};
  int            c[4] = {(int)p->gxs, (int)p->gys, (int)p->gxm, (int)p->gym}, f[4] = {(int)fine->gxs, (int)fine->gys, (int)fine->gxm, (int)fine->gym};
  size_t         global[2] = {(size_t)p->gxm, (size_t)p->gym};

  PetscFunctionBegin;
  PetscCall(SbpProblemGetCoefficientKernel(p, "coef_inject", &k));
  for (int t = 0; t < 4; t++) {
    const SbpCoefInjectArgs a = {.gxs    = SbpmgCLArgInt(c[0]),
                                 .gys    = SbpmgCLArgInt(c[1]),
                                 .gxm    = SbpmgCLArgInt(c[2]),
                                 .gym    = SbpmgCLArgInt(c[3]),
                                 .fgxs   = SbpmgCLArgInt(f[0]),
                                 .fgys   = SbpmgCLArgInt(f[1]),
                                 .fgxm   = SbpmgCLArgInt(f[2]),
                                 .fgym   = SbpmgCLArgInt(f[3]),
                                 .fine   = SbpmgCLArgMem(src[t]),
                                 .coarse = SbpmgCLArgMem(dst[t])};
    SBPMG_CL_SET_ARGS(k, coef_inject, &a);
    PetscCall(SbpProblemLaunch2D(p, k, global));
  }
  PetscFunctionReturn(0);
}

/*
  SbpProblemGenerateCoefficients - The device backend's coefficients: a coarse level of one rank injected from its fine level (the
  values at the even nodes, bit for bit what an evaluation there gives); else on the device for point functions it can evaluate
  (the built-in ones, the user's OpenCL source), else evaluated on the host and uploaded.
*/
PetscErrorCode SbpProblemGenerateCoefficients(SbpProblem p)
{
  PetscMPIInt    size;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)p), &size));
  PetscCall(PetscLogEventBegin(SBPMG_SbpCoefficients, 0, 0, 0, 0));
  ierr = SbpCreateCoefficientBuffers(p);
  if (!ierr) ierr = SbpProblemUploadNodes(p);
  if (!ierr) {
    if (p->fine && size == 1 && p->mapping != SBP_MAPPING_NODES) /* a coarse level of one rank: the fine level's values, exactly (a
                                                                    node grid's coarse metrics are D of the coarse coordinates) */
      ierr = SbpInjectOnDevice(p, p->fine);
    else if (!SbpProblemHasHostCallbacks(p))
      ierr = SbpGenerateOnDevice(p);
    else
      ierr = SbpGenerateOnHost(p);
  }
  if (!ierr) ierr = PetscFree(p->nbox); /* the device has the nodal data */
  PetscCall(PetscLogEventEnd(SBPMG_SbpCoefficients, 0, 0, 0, 0));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* The coordinates of the owned nodes by the device (coef_coordinates) into the host arrays x and y (xm * ym each), where the
   geometry is the device's (built-in maps, the user's OpenCL source, node grids with their nodes on the device); *done false
   where it is not (host callbacks): the caller evaluates on the host. */
static PetscErrorCode SbpCoordinatesOnDeviceInto(SbpProblem p, cl_mem d[2], PetscScalar *x, PetscScalar *y)
{
  cl_kernel    k;
  const size_t bytes = (size_t)p->xm * p->ym * sizeof(PetscReal), n = PetscMax(bytes, sizeof(PetscReal));
  size_t       global[2] = {(size_t)p->xm, (size_t)p->ym};

  PetscFunctionBegin;
  PetscCall(SbpProblemGetCoefficientKernel(p, "coef_coordinates", &k));
  for (int t = 0; t < 2; t++) PetscCall(SbpmgCLCreateBuffer(p->cl, CL_MEM_WRITE_ONLY, n, &d[t]));
  {
    const SbpCoefCoordinatesArgs a = {.grid = SbpProblemGridArgs(p), .nodes = SbpmgCLArgMem(p->d_nodes), .x = SbpmgCLArgMem(d[0]), .y = SbpmgCLArgMem(d[1])};
    SBPMG_CL_SET_ARGS(k, coef_coordinates, &a);
  }
  if (bytes) PetscCall(SbpProblemLaunch2D(p, k, global));
  PetscCall(SbpmgCLReadBuffer(p->cl, d[0], 0, bytes, x));
  PetscCall(SbpmgCLReadBuffer(p->cl, d[1], 0, bytes, y));
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemCoordinatesOnDevice(SbpProblem p, PetscScalar *x, PetscScalar *y, PetscBool *done)
{
  cl_mem         d[2] = {NULL, NULL};
  PetscErrorCode ierr;

  PetscFunctionBegin;
  *done = p->use_device && !SbpProblemHasHostCallbacks(p) && (p->mapping != SBP_MAPPING_NODES || p->d_nodes) ? PETSC_TRUE : PETSC_FALSE;
  if (!*done) PetscFunctionReturn(0);
  ierr = SbpCoordinatesOnDeviceInto(p, d, x, y);
  for (int t = 0; t < 2; t++) PetscCall(SbpmgCLReleaseBuffer(p->cl, &d[t])); /* on every path */
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/*
  SbpProblemGetHostCoefficients - Make the coefficients of the ghosted patch available on the host (p->crr, css, crs, J): the
  host backend has them from set-up; the device backend reads them back on the first call (the assembled operator, host vectors
  handed to a device operator, the host right-hand side).
*/
PetscErrorCode SbpProblemGetHostCoefficients(SbpProblem p)
{
  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  if (p->crr) PetscFunctionReturn(0);
  PetscCall(SbpAllocateHostCoefficients(p));
  {
    const size_t   bytes  = (size_t)p->gxm * p->gym * sizeof(PetscReal);
    const SbpLevel lv     = p->level[SBP_KERNEL_FP64];
    const cl_mem   src[4] = {lv->crr, lv->css, lv->crs, lv->J};
    PetscReal     *dst[4] = {p->crr, p->css, p->crs, p->J};
    PetscErrorCode ierr   = 0;
    for (int t = 0; t < 4 && !ierr; t++) ierr = SbpmgCLReadBuffer(p->cl, src[t], 0, bytes, dst[t]);
    if (ierr) PetscCall(PetscFree4(p->crr, p->css, p->crs, p->J)); /* not kept half read */
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}
