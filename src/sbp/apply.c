/* The matrix-free SBP-SAT operator and the diagonal norms as MatShells, on the device (kernels/sbp.cl) or the host
   (the same point formula compiled as C, over the DMDA's ghosted local vectors, any number of ranks). */
#include <sbpmg/private/sbpimpl.h>

/* The point formula, shared with the device kernels. */
#include "../../kernels/sbp.cl"

typedef struct {
  SbpProblem  p;
  SbpNormType norm; /* norm shells only */
  Vec         ulocal;
} SbpShell;

/* Bytes an operator apply moves at least: u and y, and the three coefficient arrays (40 B/point in fp64). */
#define SBP_APPLY_BYTES(p) ((PetscLogDouble)((p)->Nr + 1) * ((p)->Ns + 1) * 5 * sizeof(PetscReal))
#define SBP_APPLY_FLOPS(p) ((PetscLogDouble)((p)->Nr + 1) * ((p)->Ns + 1) * 40)

static PetscErrorCode SbpShellDestroy(void *ctx)
{
  SbpShell *s = (SbpShell *)ctx;

  PetscFunctionBegin;
  PetscCall(VecDestroy(&s->ulocal));
  PetscCall(SbpProblemDestroy(&s->p));
  PetscCall(PetscFree(s));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- host path */

/* y = M~ x (add: y = z + M~ x) on this rank's nodes; diag: y = diag(M~), x unused. */
PetscErrorCode SbpProblemApplyHost(SbpProblem p, Vec x, Vec y, PetscBool diag, PetscBool add)
{
  Vec                xl = NULL;
  const PetscScalar *u  = NULL;
  PetscScalar      **ya;
  int                flags;

  PetscFunctionBegin;
  PetscCall(SbpProblemBCFlags(p, &flags));
  if (!diag) {
    PetscCall(DMGetLocalVector(p->da, &xl));
    PetscCall(DMGlobalToLocalBegin(p->da, x, INSERT_VALUES, xl));
    PetscCall(DMGlobalToLocalEnd(p->da, x, INSERT_VALUES, xl));
    PetscCall(VecGetArrayRead(xl, &u));
  }
  PetscCall(DMDAVecGetArray(p->da, y, &ya));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) {
      PetscReal v = sbp_apply_point((int)i, (int)j, (int)p->Nr, (int)p->Ns, p->rho, flags, u, p->crr, p->crs, p->css, p->gxs, p->gys, p->gxm, diag ? 1 : 0);
      ya[j][i]    = add ? ya[j][i] + v : v;
    }
  PetscCall(DMDAVecRestoreArray(p->da, y, &ya));
  if (!diag) {
    PetscCall(VecRestoreArrayRead(xl, &u));
    PetscCall(DMRestoreLocalVector(p->da, &xl));
  }
  PetscCall(PetscLogFlops(SBP_APPLY_FLOPS(p) * p->xm * p->ym / ((p->Nr + 1.0) * (p->Ns + 1.0))));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- device path */

static PetscErrorCode SbpLaunch2D(SbpProblem p, cl_kernel k)
{
  size_t global[2] = {(size_t)p->Nr + 1, (size_t)p->Ns + 1};

  PetscFunctionBegin;
  PetscCall(SbpmgCLLaunch2D(p->cl, k, global, p->wg));
  PetscFunctionReturn(0);
}

static const struct {
  const char *program, *name;
} SbpKernelNames[SBP_K_COUNT] = {
    {"sbp", "sbp_apply"},
    {"sbp", "sbp_apply_patch"},
    {"sbp", "sbp_apply_inner"},
    {"sbp", "sbp_diagonal"},
    {"sbp", "sbp_diagonal_patch"},
    {"sbp", "sbp_norm"},
    {"sbp", "sbp_norm_patch"},
    {"sbp+smooth", "mg_smooth"},
    {"sbp+smooth", "mg_smooth_patch"},
    {"sbp+smooth", "mg_smooth_inner"},
    {"sbp+smooth", "mg_smooth_block"},
    {"sbp+smooth", "mg_smooth_pass"},
    {"transfer", "mg_prolong"},
    {"transfer", "mg_prolong_patch"},
    {"transfer", "mg_restrict"},
    {"transfer", "mg_restrict_patch"},
};

/*@C
   SbpProblemGetKernel - A device kernel of the problem's level, built on first use and kept by the problem.

   Not collective

   Level: developer
@*/
PetscErrorCode SbpProblemGetKernel(SbpProblem p, SbpKernel id, cl_kernel *k)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemGetKernelPrecision(p, id, PETSC_FALSE, k));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemGetKernelPrecision - SbpProblemGetKernel() for coefficients stored in fp64 (single = PETSC_FALSE) or fp32 (the buffers
   of SbpProblemGetCoefficientBuffers()); the transfer kernels read no coefficients and are the same either way.

   Not collective

   Level: developer
@*/
PetscErrorCode SbpProblemGetKernelPrecision(SbpProblem p, SbpKernel id, PetscBool single, cl_kernel *k)
{
  PetscBool   transfer = id >= SBP_K_PROLONG ? PETSC_TRUE : PETSC_FALSE;
  const int   s        = single && !transfer ? 1 : 0;
  const char *opts     = transfer ? NULL : p->kopts[s];

  PetscFunctionBegin;
  if (!p->kernels[s][id]) PetscCall(SbpmgCLGetKernel(p->cl, SbpKernelNames[id].program, opts, SbpKernelNames[id].name, &p->kernels[s][id]));
  *k = p->kernels[s][id];
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemGetCoefficientBuffers - The device buffers of crr, crs and css (the kernels' a, b, c) on the ghosted patch, in fp64 or,
   with single, rounded to fp32 (made on first use and kept by the problem): the multigrid levels read those, 12 bytes per node
   instead of 24.

   Not collective

   Level: developer
@*/
PetscErrorCode SbpProblemGetCoefficientBuffers(SbpProblem p, PetscBool single, cl_mem *a, cl_mem *b, cl_mem *c)
{
  PetscFunctionBegin;
  PetscCheck(p->use_device, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The SBP-SAT problem has no device coefficients (host backend)");
  if (single && !p->d_crr32) {
    const PetscInt   np     = p->gxm * p->gym;
    const PetscReal *src[3] = {p->crr, p->crs, p->css};
    cl_mem          *dst[3] = {&p->d_crr32, &p->d_crs32, &p->d_css32};
    float           *tmp;

    PetscCall(PetscMalloc1(np, &tmp));
    for (int t = 0; t < 3; t++) {
      for (PetscInt n = 0; n < np; n++) tmp[n] = (float)src[t][n];
      PetscCall(SbpmgCLCreateBuffer(p->cl, CL_MEM_READ_ONLY, np * sizeof(float), dst[t]));
      PetscCall(SbpmgCLWriteBuffer(p->cl, *dst[t], 0, np * sizeof(float), tmp));
    }
    PetscCall(PetscFree(tmp));
  }
  *a = single ? p->d_crr32 : p->d_crr;
  *b = single ? p->d_crs32 : p->d_crs;
  *c = single ? p->d_css32 : p->d_css;
  PetscFunctionReturn(0);
}

/* The kernels' int4 arguments of a rank's layout: the ghosted patch (gxs, gys, gxm, gym) and the owned block (xs, ys, xm, ym);
   either may be NULL. */
void SbpProblemPatchBoxes(SbpProblem p, cl_int4 *gh, cl_int4 *own)
{
  if (gh) {
    gh->s[0] = (cl_int)p->gxs;
    gh->s[1] = (cl_int)p->gys;
    gh->s[2] = (cl_int)p->gxm;
    gh->s[3] = (cl_int)p->gym;
  }
  if (own) {
    own->s[0] = (cl_int)p->xs;
    own->s[1] = (cl_int)p->ys;
    own->s[2] = (cl_int)p->xm;
    own->s[3] = (cl_int)p->ym;
  }
}

/*@C
   SbpProblemLaunchRegion - Launch a kernel of the multi-rank path (kernels/sbp.cl, "the multi-rank path") over a region of the
   owned nodes: set its last four arguments, from index first on (the ghosted patch, the owned block, the interior box, the
   region), and enqueue it over the region's range. An empty region launches nothing.

   Not collective

   Level: developer

.seealso: `SbpProblemLaunchBox()`
@*/
PetscErrorCode SbpProblemLaunchRegion(SbpProblem p, cl_kernel k, cl_uint first, SbpRegion region)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemLaunchBox(p, k, first, region, p->in));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemLaunchBox - SbpProblemLaunchRegion() with another box of owned nodes in place of the interior box (ilo, jlo, ihi, jhi;
   empty as SbpProblemComputeInteriorBox() leaves it): the smoother of several sweeps per pass runs its single sweeps over the rim of a smaller box.

   Not collective

   Level: developer
@*/
PetscErrorCode SbpProblemLaunchBox(SbpProblem p, cl_kernel k, cl_uint first, SbpRegion region, const PetscInt box[4])
{
  cl_int4 gh, own, in;
  int     mode = (int)region;
  size_t  ni = (size_t)PetscMax(box[2] - box[0] + 1, 0), nj = (size_t)PetscMax(box[3] - box[1] + 1, 0);

  PetscFunctionBegin;
  SbpProblemPatchBoxes(p, &gh, &own);
  for (int d = 0; d < 4; d++) in.s[d] = (cl_int)box[d];
  PetscCall(SbpmgCLSetArgs(k, first, 4, sizeof(cl_int4), &gh, sizeof(cl_int4), &own, sizeof(cl_int4), &in, sizeof(int), &mode));
  switch (region) {
  case SBP_REGION_ALL: {
    size_t global[2] = {(size_t)p->xm, (size_t)p->ym};
    PetscCall(SbpmgCLLaunch2D(p->cl, k, global, p->wg));
  } break;
  case SBP_REGION_INTERIOR: { /* the lean kernels: inner_rows rows of a column per work-item */
    size_t global[2] = {ni, (nj + (size_t)p->inner_rows - 1) / (size_t)p->inner_rows};
    PetscCall(SbpmgCLLaunch2D(p->cl, k, global, p->wg));
  } break;
  case SBP_REGION_RIM: /* a fixed work-group: the count is often prime, and the kernel skips the work-items past it */
    PetscCall(SbpmgCLLaunch1D(p->cl, k, (size_t)(p->xm * p->ym) - ni * nj, 128));
    break;
  }
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemLaunchOwned - Launch a kernel pair of kernels/sbp.cl ("the multi-rank path") over the owned nodes: with -sbp_split,
   kin (a lean *_inner kernel) over the interior box and k (a *_patch kernel) over the rim; without, k over all of them. Arguments
   0..first-1 are set on both kernels.

   Not collective

   Level: developer
@*/
PetscErrorCode SbpProblemLaunchOwned(SbpProblem p, cl_kernel k, cl_kernel kin, cl_uint first)
{
  PetscFunctionBegin;
  if (p->split_on) {
    PetscCall(SbpProblemLaunchRegion(p, kin, first, SBP_REGION_INTERIOR));
    PetscCall(SbpProblemLaunchRegion(p, k, first, SBP_REGION_RIM));
  } else
    PetscCall(SbpProblemLaunchRegion(p, k, first, SBP_REGION_ALL));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemLaunchExchanged - On several ranks, launch a kernel pair (SbpProblemLaunchOwned()) that reads u with neighbours around
   the ghost exchange of u. Arguments 0..first-1 are set on both but the one at index uarg, which becomes the ghosted patch of u.
   With overlap (SbpProblemSetOverlap()) the interior runs while the strips are in flight (the queue is flushed so that the
   device starts on it) and the rim once the ghosts are in; without, the exchange completes before the launches.

   Collective

   Level: developer
@*/
PetscErrorCode SbpProblemLaunchExchanged(SbpProblem p, Vec u, cl_kernel k, cl_kernel kin, cl_uint uarg, cl_uint first)
{
  PetscFunctionBegin;
  PetscCall(SbpHaloBegin(p->halo, u));
  PetscCall(SbpmgCLSetArg(k, uarg, sizeof(cl_mem), &p->halo->patch));
  PetscCall(SbpmgCLSetArg(kin, uarg, sizeof(cl_mem), &p->halo->patch));
  if (p->overlap) {
    PetscCall(SbpProblemLaunchRegion(p, kin, first, SBP_REGION_INTERIOR));
    PetscCallCL(clFlush(p->cl->queue));
    PetscCall(SbpHaloEnd(p->halo));
    PetscCall(SbpProblemLaunchRegion(p, k, first, SBP_REGION_RIM));
  } else {
    PetscCall(SbpHaloEnd(p->halo));
    PetscCall(SbpProblemLaunchOwned(p, k, kin, first));
  }
  PetscFunctionReturn(0);
}

/* Device buffers of x (read) and y (write) when both are device vectors. */
static PetscErrorCode SbpCheckDeviceVec(SbpProblem p, Vec v, const char *name)
{
  PetscBool isocl;
  SbpmgCL   vcl;

  PetscFunctionBegin;
  PetscCall(VecIsOpenCL(v, &isocl));
  PetscCheck(isocl, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "The device SBP-SAT operator needs device vectors: %s has type %s; create vectors with MatCreateVecs() or SbpProblemCreateVector()", name,
             ((PetscObject)v)->type_name);
  PetscCall(VecOpenCLGetCL(v, &vcl));
  PetscCheck(vcl == p->cl, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Vector %s lives on another OpenCL context than the operator", name);
  PetscFunctionReturn(0);
}

/* SbpApplyDevice through the kernel pair of SbpProblemLaunchOwned(): on several ranks (x through the ghost exchange, the interior
   overlapped with it) and on one with -sbp_split. */
static PetscErrorCode SbpApplyDeviceOwned(SbpProblem p, Vec x, Vec z, PetscReal scale, Vec y, PetscBool single)
{
  cl_kernel      ks[2];
  cl_mem         xb = NULL, zb = NULL, yb, ca, cb, cc;
  int            Nr = (int)p->Nr, Ns = (int)p->Ns, flags, add = z ? 1 : 0;
  PetscReal      rho = p->rho;
  PetscLogDouble n   = (PetscLogDouble)p->xm * p->ym;

  PetscFunctionBegin;
  PetscCall(SbpProblemBCFlags(p, &flags));
  PetscCall(SbpProblemGetKernelPrecision(p, SBP_K_APPLY_PATCH, single, &ks[0]));
  PetscCall(SbpProblemGetKernelPrecision(p, SBP_K_APPLY_INNER, single, &ks[1]));
  PetscCall(SbpProblemGetCoefficientBuffers(p, single, &ca, &cb, &cc));
  PetscCall(SbpmgLogKernelBegin(SBPMG_SbpApply));
  if (!p->halo) PetscCall(VecOpenCLGetBufferRead(x, &xb));
  if (z && z != y) {
    PetscCall(SbpCheckDeviceVec(p, z, "z"));
    PetscCall(VecOpenCLGetBufferRead(z, &zb));
    PetscCall(VecOpenCLGetBufferWrite(y, &yb));
  } else if (z)
    PetscCall(VecOpenCLGetBuffer(y, &yb));
  else
    PetscCall(VecOpenCLGetBufferWrite(y, &yb));
  for (int t = 0; t < 2; t++)
    PetscCall(SbpmgCLSetArgs(ks[t], 0, 12, sizeof(int), &Nr, sizeof(int), &Ns, sizeof(PetscReal), &rho, sizeof(int), &flags, sizeof(cl_mem),
                             p->halo ? &p->halo->patch : &xb, sizeof(cl_mem), &ca, sizeof(cl_mem), &cb, sizeof(cl_mem), &cc, sizeof(int), &add,
                             sizeof(PetscReal), &scale, sizeof(cl_mem), zb ? &zb : &yb, sizeof(cl_mem), &yb));
  if (p->halo)
    PetscCall(SbpProblemLaunchExchanged(p, x, ks[0], ks[1], 4, 12));
  else
    PetscCall(SbpProblemLaunchOwned(p, ks[0], ks[1], 12));
  if (!p->halo) PetscCall(VecOpenCLRestoreBufferRead(x, &xb));
  if (zb) {
    PetscCall(VecOpenCLRestoreBufferRead(z, &zb));
    PetscCall(VecOpenCLRestoreBufferWrite(y, &yb));
  } else if (z)
    PetscCall(VecOpenCLRestoreBuffer(y, &yb));
  else
    PetscCall(VecOpenCLRestoreBufferWrite(y, &yb));
  /* u, y, three coefficients, z; on several ranks the patch copy too (read and write) */
  PetscCall(
      SbpmgLogKernelEnd(SBPMG_SbpApply, p->cl, 40 * n, n * (sizeof(PetscReal) * ((p->halo ? 4 : 2) + add) + 3 * (single ? sizeof(float) : sizeof(PetscReal)))));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemApplyDevice - y = z + scale M~ x on the device (z may be NULL: y = scale M~ x; z may be y), with the coefficients in
   fp64 or (single) rounded to fp32: the multigrid levels' residuals use the latter.

   Level: developer
@*/
PetscErrorCode SbpProblemApplyDevice(SbpProblem p, Vec x, Vec z, PetscReal scale, Vec y, PetscBool single)
{
  cl_kernel k;
  cl_mem    xb, zb = NULL, yb, ca, cb, cc;
  int       Nr = (int)p->Nr, Ns = (int)p->Ns, flags, add = z ? 1 : 0;
  PetscReal rho = p->rho;

  PetscFunctionBegin;
  PetscCall(SbpCheckDeviceVec(p, x, "x"));
  PetscCall(SbpCheckDeviceVec(p, y, "y"));
  PetscCheck(x != y, PETSC_COMM_SELF, PETSC_ERR_ARG_IDN, "x and y must be different vectors for the SBP-SAT operator");
  PetscCall(SbpProblemBCFlags(p, &flags));
  if (p->halo || p->split_on) {
    PetscCall(SbpApplyDeviceOwned(p, x, z, scale, y, single));
    PetscFunctionReturn(0);
  }
  PetscCall(SbpProblemGetKernelPrecision(p, SBP_K_APPLY, single, &k));
  PetscCall(SbpProblemGetCoefficientBuffers(p, single, &ca, &cb, &cc));
  PetscCall(SbpmgLogKernelBegin(SBPMG_SbpApply));
  PetscCall(VecOpenCLGetBufferRead(x, &xb));
  if (z && z != y) {
    PetscCall(SbpCheckDeviceVec(p, z, "z"));
    PetscCall(VecOpenCLGetBufferRead(z, &zb));
    PetscCall(VecOpenCLGetBufferWrite(y, &yb));
  } else if (z)
    PetscCall(VecOpenCLGetBuffer(y, &yb));
  else
    PetscCall(VecOpenCLGetBufferWrite(y, &yb));
  PetscCall(SbpmgCLSetArgs(k, 0, 12, sizeof(int), &Nr, sizeof(int), &Ns, sizeof(PetscReal), &rho, sizeof(int), &flags, sizeof(cl_mem), &xb, sizeof(cl_mem), &ca,
                           sizeof(cl_mem), &cb, sizeof(cl_mem), &cc, sizeof(int), &add, sizeof(PetscReal), &scale, sizeof(cl_mem), zb ? &zb : &yb,
                           sizeof(cl_mem), &yb));
  PetscCall(SbpLaunch2D(p, k));
  PetscCall(VecOpenCLRestoreBufferRead(x, &xb));
  if (zb) {
    PetscCall(VecOpenCLRestoreBufferRead(z, &zb));
    PetscCall(VecOpenCLRestoreBufferWrite(y, &yb));
  } else if (z)
    PetscCall(VecOpenCLRestoreBuffer(y, &yb));
  else
    PetscCall(VecOpenCLRestoreBufferWrite(y, &yb));
  PetscCall(SbpmgLogKernelEnd(SBPMG_SbpApply, p->cl, SBP_APPLY_FLOPS(p),
                              SBP_APPLY_BYTES(p) + (add ? (PetscLogDouble)(p->Nr + 1) * (p->Ns + 1) * sizeof(PetscReal) : 0)));
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpDiagonalDevice(SbpProblem p, Vec d)
{
  cl_kernel k;
  cl_mem    db;
  int       Nr = (int)p->Nr, Ns = (int)p->Ns, flags;
  PetscReal rho = p->rho;

  PetscFunctionBegin;
  PetscCall(SbpCheckDeviceVec(p, d, "the diagonal"));
  PetscCall(SbpProblemBCFlags(p, &flags));
  PetscCall(SbpProblemGetKernel(p, p->halo ? SBP_K_DIAGONAL_PATCH : SBP_K_DIAGONAL, &k));
  PetscCall(SbpmgLogKernelBegin(SBPMG_SbpDiag));
  PetscCall(VecOpenCLGetBufferWrite(d, &db));
  PetscCall(SbpmgCLSetArgs(k, 0, 8, sizeof(int), &Nr, sizeof(int), &Ns, sizeof(PetscReal), &rho, sizeof(int), &flags, sizeof(cl_mem), &p->d_crr, sizeof(cl_mem),
                           &p->d_crs, sizeof(cl_mem), &p->d_css, sizeof(cl_mem), &db));
  if (p->halo)
    PetscCall(SbpProblemLaunchRegion(p, k, 8, SBP_REGION_ALL)); /* no u: no exchange */
  else
    PetscCall(SbpLaunch2D(p, k));
  PetscCall(VecOpenCLRestoreBufferWrite(d, &db));
  PetscCall(SbpmgLogKernelEnd(SBPMG_SbpDiag, p->cl, 40.0 * p->xm * p->ym, (PetscLogDouble)p->xm * p->ym * 4 * sizeof(PetscReal)));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- MatShell operations */

/* Take the kernel path when the problem is on the device and every vector given is a device vector; else the host loops. */
static PetscErrorCode SbpUseDevice(SbpProblem p, Vec a, Vec b, Vec c, PetscBool *dev)
{
  Vec v[3] = {a, b, c};

  PetscFunctionBegin;
  *dev = p->use_device;
  for (int k = 0; k < 3 && *dev; k++) {
    PetscBool isocl;
    if (!v[k]) continue;
    PetscCall(VecIsOpenCL(v[k], &isocl));
    if (!isocl) *dev = PETSC_FALSE;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpApplyHostLogged(SbpProblem p, Vec x, Vec y, PetscBool add)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SBPMG_SbpApply, 0, 0, 0, 0));
  PetscCall(SbpProblemApplyHost(p, x, y, PETSC_FALSE, add));
  PetscCall(PetscLogEventEnd(SBPMG_SbpApply, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMult_SbpOperator(Mat A, Vec x, Vec y)
{
  SbpShell *s;
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &s));
  PetscCall(SbpUseDevice(s->p, x, y, NULL, &dev));
  if (dev)
    PetscCall(SbpProblemApplyDevice(s->p, x, NULL, 1.0, y, PETSC_FALSE));
  else
    PetscCall(SbpApplyHostLogged(s->p, x, y, PETSC_FALSE));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultAdd_SbpOperator(Mat A, Vec x, Vec z, Vec y)
{
  SbpShell *s;
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &s));
  PetscCall(SbpUseDevice(s->p, x, y, z, &dev));
  if (dev)
    PetscCall(SbpProblemApplyDevice(s->p, x, z, 1.0, y, PETSC_FALSE));
  else {
    if (z != y) PetscCall(VecCopy(z, y));
    PetscCall(SbpApplyHostLogged(s->p, x, y, PETSC_TRUE));
  }
  PetscFunctionReturn(0);
}

/* r = b - M~ x in one pass on the device (PCMG's residual). */
static PetscErrorCode MatResidual_SbpOperator(Mat A, Vec b, Vec x, Vec r)
{
  SbpShell *s;
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &s));
  PetscCall(SbpUseDevice(s->p, b, x, r, &dev));
  if (dev)
    PetscCall(SbpProblemApplyDevice(s->p, x, b, -1.0, r, PETSC_FALSE));
  else {
    PetscCall(SbpApplyHostLogged(s->p, x, r, PETSC_FALSE));
    PetscCall(VecAYPX(r, -1, b));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode MatGetDiagonal_SbpOperator(Mat A, Vec d)
{
  SbpShell *s;
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &s));
  PetscCall(SbpUseDevice(s->p, d, NULL, NULL, &dev));
  if (dev)
    PetscCall(SbpDiagonalDevice(s->p, d));
  else
    PetscCall(SbpProblemApplyHost(s->p, NULL, d, PETSC_TRUE, PETSC_FALSE));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatView_SbpOperator(Mat A, PetscViewer viewer)
{
  SbpShell *s;
  PetscBool isascii;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &s));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPrintf(viewer, "SBP-SAT operator, matrix-free (%s)\n", s->p->use_device ? "OpenCL kernels" : "host loops"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(SbpProblemView(s->p, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpCreateShell(SbpProblem p, SbpShell **ctx, Mat *A)
{
  SbpShell *s;
  PetscInt  n = p->xm * p->ym, N = (p->Nr + 1) * (p->Ns + 1);

  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  PetscCall(PetscNew(&s));
  s->p = p;
  PetscCall(PetscObjectReference((PetscObject)p));
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)p), n, n, N, N, s, A));
  PetscCall(MatShellSetContextDestroy(*A, SbpShellDestroy));
  PetscCall(MatShellSetVecType(*A, p->use_device ? VECOPENCL : VECSTANDARD));
  PetscCall(PetscObjectCompose((PetscObject)*A, "SbpProblem", (PetscObject)p));
  *ctx = s;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemCreateOperator - The SBP-SAT operator M~ (symmetric positive definite, H-weighted form) as a matrix-free MatShell:
   MatMult, MatMultAdd, MatMultTranspose (= MatMult) and MatGetDiagonal run OpenCL kernels on device vectors (device backend) or C
   loops on DMDA vectors (host backend). MatCreateVecs() gives vectors of the right type.

   Collective

   Level: beginner

.seealso: `SbpProblemCreateAssembledOperator()`, `SbpProblemCreateNorm()`
@*/
PetscErrorCode SbpProblemCreateOperator(SbpProblem p, Mat *A)
{
  SbpShell *s;

  PetscFunctionBegin;
  PetscCall(SbpCreateShell(p, &s, A));
  PetscCall(MatShellSetOperation(*A, MATOP_MULT, (void (*)(void))MatMult_SbpOperator));
  PetscCall(MatShellSetOperation(*A, MATOP_MULT_TRANSPOSE, (void (*)(void))MatMult_SbpOperator));
  PetscCall(MatShellSetOperation(*A, MATOP_MULT_ADD, (void (*)(void))MatMultAdd_SbpOperator));
  PetscCall(MatShellSetOperation(*A, MATOP_MULT_TRANSPOSE_ADD, (void (*)(void))MatMultAdd_SbpOperator));
  PetscCall(MatShellSetOperation(*A, MATOP_GET_DIAGONAL, (void (*)(void))MatGetDiagonal_SbpOperator));
  PetscCall(MatShellSetOperation(*A, MATOP_RESIDUAL, (void (*)(void))MatResidual_SbpOperator));
  PetscCall(MatShellSetOperation(*A, MATOP_VIEW, (void (*)(void))MatView_SbpOperator));
  PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(*A, MAT_SPD, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- norms */

static PetscErrorCode SbpNormApplyHost(SbpProblem p, SbpNormType kind, Vec x, Vec y)
{
  PetscScalar **xa, **ya;

  PetscFunctionBegin;
  PetscCall(DMDAVecGetArrayRead(p->da, x, &xa));
  PetscCall(DMDAVecGetArray(p->da, y, &ya));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++)
      ya[j][i] = sbp_norm_weight((int)i, (int)j, (int)p->Nr, (int)p->Ns, p->hr, p->hs, (int)kind, p->J[SbpPatchIndex(p, i, j)]) * xa[j][i];
  PetscCall(DMDAVecRestoreArray(p->da, y, &ya));
  PetscCall(DMDAVecRestoreArrayRead(p->da, x, &xa));
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpNormApplyDevice(SbpProblem p, SbpNormType kind, Vec x, Vec y)
{
  cl_kernel k;
  cl_mem    xb, yb;
  int       Nr = (int)p->Nr, Ns = (int)p->Ns, ik = (int)kind;
  PetscReal hr = p->hr, hs = p->hs;
  PetscInt  n = p->xm * p->ym;

  PetscFunctionBegin;
  PetscCall(SbpCheckDeviceVec(p, x, "x"));
  PetscCall(SbpCheckDeviceVec(p, y, "y"));
  PetscCall(SbpProblemGetKernel(p, p->halo ? SBP_K_NORM_PATCH : SBP_K_NORM, &k));
  PetscCall(SbpmgLogKernelBegin(SBPMG_SbpNorm));
  if (x == y) {
    PetscCall(VecOpenCLGetBuffer(x, &xb));
    yb = xb;
  } else {
    PetscCall(VecOpenCLGetBufferRead(x, &xb));
    PetscCall(VecOpenCLGetBufferWrite(y, &yb));
  }
  PetscCall(SbpmgCLSetArgs(k, 0, 8, sizeof(int), &Nr, sizeof(int), &Ns, sizeof(PetscReal), &hr, sizeof(PetscReal), &hs, sizeof(int), &ik, sizeof(cl_mem),
                           &p->d_J, sizeof(cl_mem), &xb, sizeof(cl_mem), &yb));
  if (p->halo)
    PetscCall(SbpProblemLaunchRegion(p, k, 8, SBP_REGION_ALL));
  else
    PetscCall(SbpLaunch2D(p, k));
  if (x == y)
    PetscCall(VecOpenCLRestoreBuffer(x, &xb));
  else {
    PetscCall(VecOpenCLRestoreBufferRead(x, &xb));
    PetscCall(VecOpenCLRestoreBufferWrite(y, &yb));
  }
  PetscCall(SbpmgLogKernelEnd(SBPMG_SbpNorm, p->cl, n, (PetscLogDouble)n * (kind >= SBP_NORM_JH ? 3 : 2) * sizeof(PetscReal)));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMult_SbpNorm(Mat A, Vec x, Vec y)
{
  SbpShell *s;
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &s));
  PetscCall(SbpUseDevice(s->p, x, y, NULL, &dev));
  if (dev)
    PetscCall(SbpNormApplyDevice(s->p, s->norm, x, y));
  else
    PetscCall(SbpNormApplyHost(s->p, s->norm, x, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatGetDiagonal_SbpNorm(Mat A, Vec d)
{
  PetscFunctionBegin;
  PetscCall(VecSet(d, 1));
  PetscCall(MatMult_SbpNorm(A, d, d));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemCreateNorm - A diagonal norm as a MatShell: SBP_NORM_H (H~ = Hs (x) Hr), SBP_NORM_HINV, SBP_NORM_JH (diag(J) H~) or
   SBP_NORM_JHINV; MatMult is a kernel on the device backend.

   Collective

   Level: intermediate
@*/
PetscErrorCode SbpProblemCreateNorm(SbpProblem p, SbpNormType kind, Mat *H)
{
  SbpShell *s;

  PetscFunctionBegin;
  PetscCheck(kind >= SBP_NORM_H && kind <= SBP_NORM_JHINV, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE, "Unknown norm kind %d", (int)kind);
  PetscCall(SbpCreateShell(p, &s, H));
  s->norm = kind;
  PetscCall(MatShellSetOperation(*H, MATOP_MULT, (void (*)(void))MatMult_SbpNorm));
  PetscCall(MatShellSetOperation(*H, MATOP_MULT_TRANSPOSE, (void (*)(void))MatMult_SbpNorm));
  PetscCall(MatShellSetOperation(*H, MATOP_GET_DIAGONAL, (void (*)(void))MatGetDiagonal_SbpNorm));
  PetscCall(MatSetOption(*H, MAT_SYMMETRIC, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemCreateAssembledOperator - The SBP-SAT operator M~ assembled as a PETSc AIJ matrix from the 1D SBP blocks by Kronecker
   products (spec-sbp-sat.md 3.2-3.4): the test oracle, the coarse-grid operator of the multigrid, and the matrix CPU solvers run on.
   Rows in the DMDA's ordering (natural ordering on one rank).

   Collective

   Level: beginner
@*/
PetscErrorCode SbpProblemCreateAssembledOperator(SbpProblem p, Mat *A)
{
  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  PetscCall(PetscLogEventBegin(SBPMG_SbpSetUp, 0, 0, 0, 0));
  /* built by hand rather than by DMCreateMatrix, which lets a user's global -mat_type decide the type */
  {
    PetscInt               n = p->xm * p->ym, N = (p->Nr + 1) * (p->Ns + 1), *dnz, *onz;
    ISLocalToGlobalMapping ltog;

    PetscCall(PetscMalloc2(n, &dnz, n, &onz));
    PetscCall(SbpAssembleOperatorRows(p, NULL, dnz, onz));
    PetscCall(MatCreate(PetscObjectComm((PetscObject)p), A));
    PetscCall(MatSetSizes(*A, n, n, N, N));
    PetscCall(MatSetType(*A, MATAIJ));
    PetscCall(MatXAIJSetPreallocation(*A, 1, dnz, onz, NULL, NULL));
    PetscCall(PetscFree2(dnz, onz));
    PetscCall(DMGetLocalToGlobalMapping(p->da, &ltog));
    PetscCall(MatSetLocalToGlobalMapping(*A, ltog, ltog));
    PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
    PetscCall(SbpAssembleOperatorRows(p, *A, NULL, NULL));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(*A, MAT_SPD, PETSC_TRUE));
  PetscCall(PetscObjectCompose((PetscObject)*A, "SbpProblem", (PetscObject)p));
  PetscCall(PetscLogEventEnd(SBPMG_SbpSetUp, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
   MatGetSbpProblem - The SbpProblem an operator was created from (matrix-free or assembled), or an error for any other matrix.

   Level: intermediate
@*/
PetscErrorCode MatGetSbpProblem(Mat A, SbpProblem *p)
{
  PetscObject obj;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)A, "SbpProblem", &obj));
  PetscCheck(obj, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG,
             "Matrix %s of type %s is not an sbpmg SBP-SAT operator: create it with SbpProblemCreateOperator() or SbpProblemCreateAssembledOperator()",
             ((PetscObject)A)->name ? ((PetscObject)A)->name : "(unnamed)", ((PetscObject)A)->type_name);
  *p = (SbpProblem)obj;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemCreateVector - A vector laid out like the operator's: a device vector on the device backend, a DMDA global vector on the host.

   Level: beginner
@*/
PetscErrorCode SbpProblemCreateVector(SbpProblem p, Vec *v)
{
  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  if (p->use_device)
    PetscCall(VecCreateOpenCL(PetscObjectComm((PetscObject)p), p->xm * p->ym, PETSC_DETERMINE, v));
  else
    PetscCall(DMCreateGlobalVector(p->da, v));
  PetscFunctionReturn(0);
}
