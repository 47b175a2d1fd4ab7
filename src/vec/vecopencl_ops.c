/* Device vector operations that run on the device (kernels/vecops.cl), on the local part of the vector: VECSEQOPENCL's
   operations, and VECMPIOPENCL's element-wise ones as they are (src/vec/vecmpiopencl.c adds the MPI_Allreduce of the
   reductions).

   Each operation takes the device path when every vector argument is a device vector of the same device context: the
   vectors it reads are synced to the device (no transfer when already there), vectors it only writes are not, and the
   vectors it writes end up valid on the device only. Otherwise it falls back to the host type's local function on the
   host copies (a reduction's fallback computes the local part only, so both types' reductions stay local + allreduce
   whichever path a rank takes). Reductions read back one small result (one transfer of a few scalars); nothing else
   waits for the device. A reduction is two launches by default and one with -vec_cl_reduce_onepass (the last work-group
   combines the partials); both give the same bits (kernels/vecops.cl). */
#include <sbpmg/private/vecimpl.h>

#define ESZ sizeof(PetscScalar)

/* ---------------------------------------------------------------- helpers */

static PetscErrorCode VecCLLaunchElem(Vec v, cl_kernel k)
{
  Vec_OpenCL *s = VecCLData(v);

  PetscFunctionBegin;
  PetscCall(SbpmgCLLaunch1D(s->cl, k, (size_t)s->egroups * s->wg, s->wg));
  PetscFunctionReturn(0);
}

/* All of w[0..n) usable by a kernel together with v? */
static PetscErrorCode VecCLAllSameDevice(Vec v, PetscInt n, const Vec w[], PetscBool *same)
{
  PetscFunctionBegin;
  *same = PETSC_TRUE;
  for (PetscInt i = 0; i < n && *same; i++) PetscCall(VecOpenCLSameDevice_Private(v, w[i], same));
  PetscFunctionReturn(0);
}

/* Host fallback bracket: sync the inputs to the host; afterwards mark the output host-only. */
static PetscErrorCode VecCLHostBegin(Vec out, PetscInt n, const Vec in[])
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) PetscCall(VecOpenCLSyncHost(in[i]));
  if (out) PetscCall(VecOpenCLSyncHost(out));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecCLHostEnd(Vec out)
{
  PetscBool is;

  PetscFunctionBegin;
  PetscCall(VecOpenCLIsDevice_Private(out, &is));
  if (is) out->offloadmask = PETSC_OFFLOAD_CPU;
  PetscCall(PetscObjectStateIncrease((PetscObject)out));
  PetscFunctionReturn(0);
}

/* The device copy was written: it is the only current one, and the values changed. PETSc 3.18's interface functions do
   not all increase the object state when they call an operation (VecShift() does not), and cached norms live by it. */
static PetscErrorCode VecCLDeviceWritten(Vec v)
{
  PetscFunctionBegin;
  v->offloadmask = PETSC_OFFLOAD_GPU;
  PetscCall(PetscObjectStateIncrease((PetscObject)v));
  PetscFunctionReturn(0);
}

#define HOSTOPS(v) (VecCLData(v)->hostops)

/* ---------------------------------------------------------------- element-wise */

static PetscErrorCode VecSet_SeqOpenCL(Vec y, PetscScalar a)
{
  Vec_OpenCL *s = VecCLData(y);
  cl_ulong    n = (cl_ulong)y->map->n;
  cl_kernel   k;

  PetscFunctionBegin;
  PetscCall(VecOpenCLGetKernel_Private(y, VEC_CL_K_SET, &k));
  PetscCall(SbpmgLogKernelBegin(SBPMG_VecBlas));
  PetscCall(SbpmgCLSetArgs(k, 0, 3, sizeof(n), &n, ESZ, &a, sizeof(cl_mem), &s->buf));
  PetscCall(VecCLLaunchElem(y, k));
  PetscCall(SbpmgLogKernelEnd(SBPMG_VecBlas, s->cl, 0, (PetscLogDouble)n * ESZ));
  PetscCall(VecCLDeviceWritten(y));
  PetscFunctionReturn(0);
}

/* y[i] op= a, for the kernels (n, a, y) */
static PetscErrorCode VecCLScalarInPlace(Vec y, VecCLKernelId id, PetscScalar a)
{
  Vec_OpenCL *s = VecCLData(y);
  cl_ulong    n = (cl_ulong)y->map->n;
  cl_kernel   k;

  PetscFunctionBegin;
  PetscCall(VecOpenCLSyncDevice(y));
  PetscCall(VecOpenCLGetKernel_Private(y, id, &k));
  PetscCall(SbpmgLogKernelBegin(SBPMG_VecBlas));
  PetscCall(SbpmgCLSetArgs(k, 0, 3, sizeof(n), &n, ESZ, &a, sizeof(cl_mem), &s->buf));
  PetscCall(VecCLLaunchElem(y, k));
  PetscCall(SbpmgLogKernelEnd(SBPMG_VecBlas, s->cl, (PetscLogDouble)n, 2.0 * n * ESZ));
  PetscCall(VecCLDeviceWritten(y));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecScale_SeqOpenCL(Vec y, PetscScalar a)
{
  PetscFunctionBegin;
  if (a == (PetscScalar)0)
    PetscCall(VecSet_SeqOpenCL(y, a)); /* like VECSEQ: clears NaN and Inf */
  else if (a != (PetscScalar)1)
    PetscCall(VecCLScalarInPlace(y, VEC_CL_K_SCALE, a));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecShift_SeqOpenCL(Vec y, PetscScalar a)
{
  PetscFunctionBegin;
  if (a != (PetscScalar)0) PetscCall(VecCLScalarInPlace(y, VEC_CL_K_SHIFT, a));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecCopy_SeqOpenCL(Vec x, Vec y)
{
  Vec_OpenCL *xs = VecCLData(x);
  PetscBool   dev;

  PetscFunctionBegin;
  if (x == y) PetscFunctionReturn(0);
  PetscCall(VecOpenCLSameDevice_Private(x, y, &dev));
  if (!dev) {
    PetscCall(VecOpenCLSyncHost(x));
    PetscCall(HOSTOPS(x).copy(x, y)); /* writes y through VecGetArray*, which keeps y's mask right */
    PetscCall(VecCLHostEnd(y));
    PetscFunctionReturn(0);
  }
  PetscCall(VecOpenCLSyncDevice(x));
  PetscCall(SbpmgLogKernelBegin(SBPMG_VecBlas));
  PetscCall(SbpmgCLCopyBuffer(xs->cl, xs->buf, VecCLData(y)->buf, 0, 0, (size_t)x->map->n * ESZ));
  PetscCall(SbpmgLogKernelEnd(SBPMG_VecBlas, xs->cl, 0, 2.0 * x->map->n * ESZ));
  PetscCall(VecCLDeviceWritten(y));
  PetscFunctionReturn(0);
}

/* Exchange the buffers: O(1). Host mirrors are not exchanged, so both vectors end up valid on the device only. */
static PetscErrorCode VecSwap_SeqOpenCL(Vec x, Vec y)
{
  PetscBool dev;

  PetscFunctionBegin;
  if (x == y) PetscFunctionReturn(0);
  PetscCall(VecOpenCLSameDevice_Private(x, y, &dev));
  if (!dev) {
    PetscCall(VecCLHostBegin(x, 1, &y));
    PetscCall(HOSTOPS(x).swap(x, y));
    PetscCall(VecCLHostEnd(x));
    PetscCall(VecCLHostEnd(y));
    PetscFunctionReturn(0);
  }
  PetscCall(VecOpenCLSyncDevice(x));
  PetscCall(VecOpenCLSyncDevice(y));
  {
    cl_mem t          = VecCLData(x)->buf;
    VecCLData(x)->buf = VecCLData(y)->buf;
    VecCLData(y)->buf = t;
  }
  PetscCall(VecCLDeviceWritten(x));
  PetscCall(VecCLDeviceWritten(y));
  PetscFunctionReturn(0);
}

/* Kernels (n, a..., x, y) with y read and written (or only written when ywrite_only) */
static PetscErrorCode VecCLBinary(Vec y, Vec x, VecCLKernelId id, PetscInt nscalars, const PetscScalar a[], PetscBool ywrite_only,
                                  PetscLogDouble flops_per_entry)
{
  Vec_OpenCL *s = VecCLData(y);
  cl_ulong    n = (cl_ulong)y->map->n;
  cl_kernel   k;
  cl_mem      xb  = VecCLData(x)->buf;
  cl_uint     arg = 0;

  PetscFunctionBegin;
  PetscCall(VecOpenCLSyncDevice(x));
  if (!ywrite_only) PetscCall(VecOpenCLSyncDevice(y));
  PetscCall(VecOpenCLGetKernel_Private(y, id, &k));
  PetscCall(SbpmgLogKernelBegin(SBPMG_VecBlas));
  PetscCall(SbpmgCLSetArg(k, arg++, sizeof(n), &n));
  for (PetscInt i = 0; i < nscalars; i++) PetscCall(SbpmgCLSetArg(k, arg++, ESZ, &a[i]));
  PetscCall(SbpmgCLSetArgs(k, arg, 2, sizeof(cl_mem), &xb, sizeof(cl_mem), &s->buf));
  PetscCall(VecCLLaunchElem(y, k));
  PetscCall(SbpmgLogKernelEnd(SBPMG_VecBlas, s->cl, flops_per_entry * n, (ywrite_only ? 2.0 : 3.0) * n * ESZ));
  PetscCall(VecCLDeviceWritten(y));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecAXPY_SeqOpenCL(Vec y, PetscScalar a, Vec x)
{
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(VecOpenCLSameDevice_Private(y, x, &dev));
  if (!dev) {
    PetscCall(VecCLHostBegin(y, 1, &x));
    PetscCall(HOSTOPS(y).axpy(y, a, x));
    PetscCall(VecCLHostEnd(y));
    PetscFunctionReturn(0);
  }
  if (a == (PetscScalar)0) PetscFunctionReturn(0);
  PetscCall(VecCLBinary(y, x, VEC_CL_K_AXPY, 1, &a, PETSC_FALSE, 2));
  PetscFunctionReturn(0);
}

/* y = x + a y */
static PetscErrorCode VecAYPX_SeqOpenCL(Vec y, PetscScalar a, Vec x)
{
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(VecOpenCLSameDevice_Private(y, x, &dev));
  if (!dev) {
    PetscCall(VecCLHostBegin(y, 1, &x));
    PetscCall(HOSTOPS(y).aypx(y, a, x));
    PetscCall(VecCLHostEnd(y));
    PetscFunctionReturn(0);
  }
  if (a == (PetscScalar)0)
    PetscCall(VecCopy_SeqOpenCL(x, y)); /* like VECSEQ: y's old values are not read */
  else
    PetscCall(VecCLBinary(y, x, VEC_CL_K_AYPX, 1, &a, PETSC_FALSE, 2));
  PetscFunctionReturn(0);
}

/* y = a x + b y */
static PetscErrorCode VecAXPBY_SeqOpenCL(Vec y, PetscScalar a, PetscScalar b, Vec x)
{
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(VecOpenCLSameDevice_Private(y, x, &dev));
  if (!dev) {
    PetscCall(VecCLHostBegin(y, 1, &x));
    PetscCall(HOSTOPS(y).axpby(y, a, b, x));
    PetscCall(VecCLHostEnd(y));
    PetscFunctionReturn(0);
  }
  if (a == (PetscScalar)0)
    PetscCall(VecScale_SeqOpenCL(y, b));
  else if (b == (PetscScalar)0)
    PetscCall(VecCLBinary(y, x, VEC_CL_K_SCALECOPY, 1, &a, PETSC_TRUE, 1)); /* y's old values are not read */
  else {
    PetscScalar ab[2] = {a, b};
    PetscCall(VecCLBinary(y, x, VEC_CL_K_AXPBY, 2, ab, PETSC_FALSE, 3));
  }
  PetscFunctionReturn(0);
}

/* w = a x + b y, w not read */
static PetscErrorCode VecCLWAXPBY(Vec w, PetscScalar a, PetscScalar b, Vec x, Vec y)
{
  Vec_OpenCL *s = VecCLData(w);
  cl_ulong    n = (cl_ulong)w->map->n;
  cl_kernel   k;
  cl_mem      xb = VecCLData(x)->buf, yb = VecCLData(y)->buf;

  PetscFunctionBegin;
  PetscCall(VecOpenCLSyncDevice(x));
  PetscCall(VecOpenCLSyncDevice(y));
  PetscCall(VecOpenCLGetKernel_Private(w, VEC_CL_K_WAXPBY, &k));
  PetscCall(SbpmgLogKernelBegin(SBPMG_VecBlas));
  PetscCall(SbpmgCLSetArgs(k, 0, 6, sizeof(n), &n, ESZ, &a, ESZ, &b, sizeof(cl_mem), &xb, sizeof(cl_mem), &yb, sizeof(cl_mem), &s->buf));
  PetscCall(VecCLLaunchElem(w, k));
  PetscCall(SbpmgLogKernelEnd(SBPMG_VecBlas, s->cl, 3.0 * n, 3.0 * n * ESZ));
  PetscCall(VecCLDeviceWritten(w));
  PetscFunctionReturn(0);
}

/* w = a x + y */
static PetscErrorCode VecWAXPY_SeqOpenCL(Vec w, PetscScalar a, Vec x, Vec y)
{
  Vec       in[2] = {x, y};
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(VecCLAllSameDevice(w, 2, in, &dev));
  if (!dev) {
    PetscCall(VecCLHostBegin(w, 2, in));
    PetscCall(HOSTOPS(w).waxpy(w, a, x, y));
    PetscCall(VecCLHostEnd(w));
    PetscFunctionReturn(0);
  }
  PetscCall(VecCLWAXPBY(w, a, 1, x, y));
  PetscFunctionReturn(0);
}

/* z = a x + b y + c z */
static PetscErrorCode VecAXPBYPCZ_SeqOpenCL(Vec z, PetscScalar a, PetscScalar b, PetscScalar c, Vec x, Vec y)
{
  Vec       in[2] = {x, y};
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(VecCLAllSameDevice(z, 2, in, &dev));
  if (!dev) {
    PetscCall(VecCLHostBegin(z, 2, in));
    PetscCall(HOSTOPS(z).axpbypcz(z, a, b, c, x, y));
    PetscCall(VecCLHostEnd(z));
    PetscFunctionReturn(0);
  }
  if (c == (PetscScalar)0)
    PetscCall(VecCLWAXPBY(z, a, b, x, y)); /* z's old values are not read */
  else {
    Vec_OpenCL *s = VecCLData(z);
    cl_ulong    n = (cl_ulong)z->map->n;
    cl_kernel   k;
    cl_mem      xb = VecCLData(x)->buf, yb = VecCLData(y)->buf;

    PetscCall(VecOpenCLSyncDevice(x));
    PetscCall(VecOpenCLSyncDevice(y));
    PetscCall(VecOpenCLSyncDevice(z));
    PetscCall(VecOpenCLGetKernel_Private(z, VEC_CL_K_AXPBYPCZ, &k));
    PetscCall(SbpmgLogKernelBegin(SBPMG_VecBlas));
    PetscCall(SbpmgCLSetArgs(k, 0, 7, sizeof(n), &n, ESZ, &a, ESZ, &b, ESZ, &c, sizeof(cl_mem), &xb, sizeof(cl_mem), &yb, sizeof(cl_mem), &s->buf));
    PetscCall(VecCLLaunchElem(z, k));
    PetscCall(SbpmgLogKernelEnd(SBPMG_VecBlas, s->cl, 5.0 * n, 4.0 * n * ESZ));
    PetscCall(VecCLDeviceWritten(z));
  }
  PetscFunctionReturn(0);
}

/* y = y + sum_j a_j x_j, up to VEC_CL_MAX_FUSE vectors per pass */
static PetscErrorCode VecMAXPY_SeqOpenCL(Vec y, PetscInt nv, const PetscScalar *alpha, Vec *x)
{
  Vec_OpenCL *s = VecCLData(y);
  cl_ulong    n = (cl_ulong)y->map->n;
  PetscBool   dev;
  cl_kernel   k;

  PetscFunctionBegin;
  PetscCall(VecCLAllSameDevice(y, nv, x, &dev));
  if (!dev) {
    PetscCall(VecCLHostBegin(y, nv, x));
    PetscCall(HOSTOPS(y).maxpy(y, nv, alpha, x));
    PetscCall(VecCLHostEnd(y));
    PetscFunctionReturn(0);
  }
  if (nv <= 0) PetscFunctionReturn(0);
  PetscCall(VecOpenCLSyncDevice(y));
  for (PetscInt j = 0; j < nv; j++) PetscCall(VecOpenCLSyncDevice(x[j]));
  PetscCall(VecOpenCLGetKernel_Private(y, VEC_CL_K_MAXPY, &k));
  for (PetscInt j0 = 0; j0 < nv; j0 += VEC_CL_MAX_FUSE) {
    cl_uint     m = (cl_uint)PetscMin(VEC_CL_MAX_FUSE, nv - j0);
    PetscScalar a[VEC_CL_MAX_FUSE];
    cl_mem      xb[VEC_CL_MAX_FUSE];

    for (cl_uint j = 0; j < VEC_CL_MAX_FUSE; j++) {
      a[j]  = j < m ? alpha[j0 + j] : 0;
      xb[j] = VecCLData(x[j0 + (j < m ? j : 0)])->buf; /* unused slots: any valid buffer, never read */
    }
    PetscCall(SbpmgLogKernelBegin(SBPMG_VecBlas));
    PetscCall(SbpmgCLSetArgs(k, 0, 2, sizeof(n), &n, sizeof(m), &m));
    for (cl_uint j = 0; j < VEC_CL_MAX_FUSE; j++) PetscCall(SbpmgCLSetArg(k, 2 + j, ESZ, &a[j]));
    PetscCall(SbpmgCLSetArg(k, 10, sizeof(cl_mem), &s->buf));
    for (cl_uint j = 0; j < VEC_CL_MAX_FUSE; j++) PetscCall(SbpmgCLSetArg(k, 11 + j, sizeof(cl_mem), &xb[j]));
    PetscCall(VecCLLaunchElem(y, k));
    PetscCall(SbpmgLogKernelEnd(SBPMG_VecBlas, s->cl, 2.0 * m * n, (2.0 + m) * n * ESZ));
  }
  PetscCall(VecCLDeviceWritten(y));
  PetscFunctionReturn(0);
}

typedef enum { VEC_CL_PW_MULT, VEC_CL_PW_DIVIDE, VEC_CL_PW_MAX, VEC_CL_PW_MIN, VEC_CL_PW_MAXABS } VecCLPointwiseOp;

/* w = x op y; w is not read */
static PetscErrorCode VecCLPointwise(Vec w, Vec x, Vec y, VecCLPointwiseOp op, PetscErrorCode (*host)(Vec, Vec, Vec))
{
  Vec       in[2] = {x, y};
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(VecCLAllSameDevice(w, 2, in, &dev));
  if (!dev) {
    PetscCall(VecCLHostBegin(w, 2, in));
    PetscCall(host(w, x, y));
    PetscCall(VecCLHostEnd(w));
  } else {
    Vec_OpenCL *s = VecCLData(w);
    cl_ulong    n = (cl_ulong)w->map->n;
    cl_uint     o = (cl_uint)op;
    cl_kernel   k;
    cl_mem      xb = VecCLData(x)->buf, yb = VecCLData(y)->buf;

    PetscCall(VecOpenCLSyncDevice(x));
    PetscCall(VecOpenCLSyncDevice(y));
    PetscCall(VecOpenCLGetKernel_Private(w, VEC_CL_K_POINTWISE, &k));
    PetscCall(SbpmgLogKernelBegin(SBPMG_VecBlas));
    PetscCall(SbpmgCLSetArgs(k, 0, 5, sizeof(n), &n, sizeof(o), &o, sizeof(cl_mem), &xb, sizeof(cl_mem), &yb, sizeof(cl_mem), &s->buf));
    PetscCall(VecCLLaunchElem(w, k));
    PetscCall(SbpmgLogKernelEnd(SBPMG_VecBlas, s->cl, (PetscLogDouble)n, 3.0 * n * ESZ));
    PetscCall(VecCLDeviceWritten(w));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode VecPointwiseMult_SeqOpenCL(Vec w, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(VecCLPointwise(w, x, y, VEC_CL_PW_MULT, HOSTOPS(w).pointwisemult));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecPointwiseDivide_SeqOpenCL(Vec w, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(VecCLPointwise(w, x, y, VEC_CL_PW_DIVIDE, HOSTOPS(w).pointwisedivide));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecPointwiseMax_SeqOpenCL(Vec w, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(VecCLPointwise(w, x, y, VEC_CL_PW_MAX, HOSTOPS(w).pointwisemax));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecPointwiseMin_SeqOpenCL(Vec w, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(VecCLPointwise(w, x, y, VEC_CL_PW_MIN, HOSTOPS(w).pointwisemin));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecPointwiseMaxAbs_SeqOpenCL(Vec w, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(VecCLPointwise(w, x, y, VEC_CL_PW_MAXABS, HOSTOPS(w).pointwisemaxabs));
  PetscFunctionReturn(0);
}

typedef enum { VEC_CL_UN_RECIPROCAL, VEC_CL_UN_ABS, VEC_CL_UN_SQRTABS, VEC_CL_UN_EXP, VEC_CL_UN_LOG } VecCLUnaryOp;

static PetscErrorCode VecCLUnary(Vec y, VecCLUnaryOp op)
{
  Vec_OpenCL *s = VecCLData(y);
  cl_ulong    n = (cl_ulong)y->map->n;
  cl_uint     o = (cl_uint)op;
  cl_kernel   k;

  PetscFunctionBegin;
  PetscCall(VecOpenCLSyncDevice(y));
  PetscCall(VecOpenCLGetKernel_Private(y, VEC_CL_K_UNARY, &k));
  PetscCall(SbpmgLogKernelBegin(SBPMG_VecBlas));
  PetscCall(SbpmgCLSetArgs(k, 0, 3, sizeof(n), &n, sizeof(o), &o, sizeof(cl_mem), &s->buf));
  PetscCall(VecCLLaunchElem(y, k));
  PetscCall(SbpmgLogKernelEnd(SBPMG_VecBlas, s->cl, (PetscLogDouble)n, 2.0 * n * ESZ));
  PetscCall(VecCLDeviceWritten(y));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecReciprocal_SeqOpenCL(Vec y)
{
  PetscFunctionBegin;
  PetscCall(VecCLUnary(y, VEC_CL_UN_RECIPROCAL));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecAbs_SeqOpenCL(Vec y)
{
  PetscFunctionBegin;
  PetscCall(VecCLUnary(y, VEC_CL_UN_ABS));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecSqrtAbs_SeqOpenCL(Vec y)
{
  PetscFunctionBegin;
  PetscCall(VecCLUnary(y, VEC_CL_UN_SQRTABS));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecExp_SeqOpenCL(Vec y)
{
  PetscFunctionBegin;
  PetscCall(VecCLUnary(y, VEC_CL_UN_EXP));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecLog_SeqOpenCL(Vec y)
{
  PetscFunctionBegin;
  PetscCall(VecCLUnary(y, VEC_CL_UN_LOG));
  PetscFunctionReturn(0);
}

/* Real scalars: nothing to conjugate (and nothing to transfer). */
static PetscErrorCode VecConjugate_SeqOpenCL(Vec y)
{
  PetscFunctionBegin;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- reductions */

/* The result slots start at res_off = n (entries) and the partials at part_off = n + VEC_CL_NRES (include/sbpmg/private/vecimpl.h). */
#define VecCLResOff(x)  ((cl_ulong)(x)->map->n)
#define VecCLPartOff(x) ((cl_ulong)(x)->map->n + VEC_CL_NRES)

/* Stage 2 in a launch of its own (-vec_cl_reduce_onepass false): the final kernel, one work-group per set. The final
   kernels take (G, buf, part_off, res_off); the location one also the sign. */
static PetscErrorCode VecCLLaunchFinal(Vec x, VecCLKernelId final, const PetscScalar *sign, PetscInt nsets)
{
  Vec_OpenCL *s        = VecCLData(x);
  cl_uint     G        = (cl_uint)s->rgroups;
  cl_ulong    part_off = VecCLPartOff(x), res_off = VecCLResOff(x);
  cl_kernel   k;

  PetscFunctionBegin;
  PetscCall(VecOpenCLGetKernel_Private(x, final, &k));
  PetscCall(SbpmgCLSetArgs(k, 0, 4, sizeof(G), &G, sizeof(cl_mem), &s->buf, sizeof(part_off), &part_off, sizeof(res_off), &res_off));
  if (sign) PetscCall(SbpmgCLSetArg(k, 4, ESZ, sign));
  PetscCall(SbpmgCLLaunch1D(s->cl, k, (size_t)nsets * s->wg, s->wg));
  PetscFunctionReturn(0);
}

/* A whole reduction of x's buffer: the stage-1 kernel k, whose arguments before first_tail the caller has set, over the
   reduction geometry; its trailing arguments (res_off, seq, onepass) are set here. With -vec_cl_reduce_onepass (the
   context's reduce_onepass) its last work-group combines the partials; otherwise the final kernel does. Then the nres
   result scalars are read back: one transfer (SbpmgCLReadResult, or SbpmgCLReadResultSpin with -cl_result_spin). */
static PetscErrorCode VecCLReduce(Vec x, cl_kernel k, cl_uint first_tail, VecCLKernelId final, const PetscScalar *sign, PetscInt nsets, PetscInt nres,
                                  PetscScalar res[])
{
  Vec_OpenCL *s       = VecCLData(x);
  SbpmgCL     cl      = s->cl;
  cl_ulong    res_off = VecCLResOff(x);
  cl_uint     onepass = cl->reduce_onepass ? 1 : 0;
  PetscBool   spin    = (onepass && cl->result_spin) ? PETSC_TRUE : PETSC_FALSE;
  cl_ulong    seq     = spin ? ++cl->result_seq : 0;

  PetscFunctionBegin;
  PetscCall(SbpmgCLSetArgs(k, first_tail, 3, sizeof(res_off), &res_off, sizeof(seq), &seq, sizeof(onepass), &onepass));
  PetscCall(SbpmgCLLaunch1D(cl, k, (size_t)s->rgroups * s->wg, s->wg));
  if (!onepass) PetscCall(VecCLLaunchFinal(x, final, sign, nsets));
  if (spin)
    PetscCall(SbpmgCLReadResultSpin(cl, s->buf, (size_t)res_off * ESZ, (size_t)nres * ESZ, ESZ, seq, res));
  else
    PetscCall(SbpmgCLReadResult(cl, s->buf, (size_t)res_off * ESZ, (size_t)nres * ESZ, res));
  PetscFunctionReturn(0);
}

/* Fused dot products val[j] = x . y[j] on the device, chunks of VEC_CL_MAX_FUSE vectors per pass over x. */
static PetscErrorCode VecCLMDot(Vec x, PetscInt nv, const Vec y[], PetscScalar val[])
{
  Vec_OpenCL *s = VecCLData(x);
  cl_ulong    n = (cl_ulong)x->map->n, part_off = VecCLPartOff(x);
  cl_kernel   k;

  PetscFunctionBegin;
  if (nv <= 0) PetscFunctionReturn(0);
  if (!n) {
    for (PetscInt j = 0; j < nv; j++) val[j] = 0;
    PetscFunctionReturn(0);
  }
  PetscCall(VecOpenCLSyncDevice(x));
  for (PetscInt j = 0; j < nv; j++) PetscCall(VecOpenCLSyncDevice(y[j]));
  for (PetscInt j0 = 0; j0 < nv; j0 += VEC_CL_MAX_FUSE) {
    cl_uint m = (cl_uint)PetscMin(VEC_CL_MAX_FUSE, nv - j0), first_tail;

    PetscCall(SbpmgLogKernelBegin(SBPMG_VecReduce));
    if (m == 1) { /* a single dot product has its own kernel (four accumulators per work-item) */
      cl_mem yb = VecCLData(y[j0])->buf;

      PetscCall(VecOpenCLGetKernel_Private(x, VEC_CL_K_DOT, &k));
      PetscCall(SbpmgCLSetArgs(k, 0, 5, sizeof(n), &n, sizeof(cl_mem), &s->buf, sizeof(cl_mem), &yb, sizeof(cl_mem), &s->buf, sizeof(part_off), &part_off));
      first_tail = 5;
    } else {
      PetscCall(VecOpenCLGetKernel_Private(x, VEC_CL_K_MDOT, &k));
      PetscCall(SbpmgCLSetArgs(k, 0, 3, sizeof(n), &n, sizeof(m), &m, sizeof(cl_mem), &s->buf));
      for (cl_uint j = 0; j < VEC_CL_MAX_FUSE; j++) {
        cl_mem yb = VecCLData(y[j0 + (j < m ? j : 0)])->buf;
        PetscCall(SbpmgCLSetArg(k, 3 + j, sizeof(cl_mem), &yb));
      }
      PetscCall(SbpmgCLSetArgs(k, 11, 2, sizeof(cl_mem), &s->buf, sizeof(part_off), &part_off));
      first_tail = 13;
    }
    PetscCall(VecCLReduce(x, k, first_tail, VEC_CL_K_SUM_FINAL, NULL, m, m, val + j0));
    PetscCall(SbpmgLogKernelEnd(SBPMG_VecReduce, s->cl, 2.0 * m * n, (1.0 + m) * n * ESZ));
  }
  PetscFunctionReturn(0);
}

/* The local part of x . y */
PetscErrorCode VecDotLocal_OpenCL(Vec x, Vec y, PetscScalar *val)
{
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(VecOpenCLSameDevice_Private(x, y, &dev));
  if (!dev) {
    PetscCall(VecCLHostBegin(x, 1, &y));
    PetscCall(HOSTOPS(x).dot_local(x, y, val));
    PetscFunctionReturn(0);
  }
  PetscCall(VecCLMDot(x, 1, &y, val));
  PetscFunctionReturn(0);
}

PetscErrorCode VecMDotLocal_OpenCL(Vec x, PetscInt nv, const Vec y[], PetscScalar val[])
{
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(VecCLAllSameDevice(x, nv, y, &dev));
  if (!dev) {
    PetscCall(VecCLHostBegin(x, nv, y));
    PetscCall(HOSTOPS(x).mdot_local(x, nv, y, val));
    PetscFunctionReturn(0);
  }
  PetscCall(VecCLMDot(x, nv, y, val));
  PetscFunctionReturn(0);
}

/* s = sum x (op 0), sum |x| (1), sum x^2 (2) */
static PetscErrorCode VecCLReduce1(Vec x, cl_uint op, PetscScalar *res)
{
  Vec_OpenCL *s = VecCLData(x);
  cl_ulong    n = (cl_ulong)x->map->n, part_off = VecCLPartOff(x);
  cl_kernel   k;

  PetscFunctionBegin;
  if (!n) {
    *res = 0;
    PetscFunctionReturn(0);
  }
  PetscCall(VecOpenCLSyncDevice(x));
  PetscCall(VecOpenCLGetKernel_Private(x, VEC_CL_K_REDUCE1, &k));
  PetscCall(SbpmgLogKernelBegin(SBPMG_VecReduce));
  PetscCall(SbpmgCLSetArgs(k, 0, 5, sizeof(n), &n, sizeof(op), &op, sizeof(cl_mem), &s->buf, sizeof(cl_mem), &s->buf, sizeof(part_off), &part_off));
  PetscCall(VecCLReduce(x, k, 5, VEC_CL_K_SUM_FINAL, NULL, 1, 1, res));
  PetscCall(SbpmgLogKernelEnd(SBPMG_VecReduce, s->cl, op ? 2.0 * n : (PetscLogDouble)n, (PetscLogDouble)n * ESZ));
  PetscFunctionReturn(0);
}

/* max |x| (op 0) or max |x/y| with |x| where y = 0 (op 1); NaN propagates */
static PetscErrorCode VecCLAmax(Vec x, Vec y, cl_uint op, PetscScalar *res)
{
  Vec_OpenCL *s = VecCLData(x);
  cl_ulong    n = (cl_ulong)x->map->n, part_off = VecCLPartOff(x);
  cl_kernel   k;
  cl_mem      yb = VecCLData(y)->buf;

  PetscFunctionBegin;
  if (!n) {
    *res = 0;
    PetscFunctionReturn(0);
  }
  PetscCall(VecOpenCLSyncDevice(x));
  PetscCall(VecOpenCLSyncDevice(y));
  PetscCall(VecOpenCLGetKernel_Private(x, VEC_CL_K_AMAX, &k));
  PetscCall(SbpmgLogKernelBegin(SBPMG_VecReduce));
  PetscCall(SbpmgCLSetArgs(k, 0, 6, sizeof(n), &n, sizeof(op), &op, sizeof(cl_mem), &s->buf, sizeof(cl_mem), &yb, sizeof(cl_mem), &s->buf, sizeof(part_off),
                           &part_off));
  PetscCall(VecCLReduce(x, k, 6, VEC_CL_K_MAX_FINAL, NULL, 1, 1, res));
  PetscCall(SbpmgLogKernelEnd(SBPMG_VecReduce, s->cl, op ? 2.0 * n : (PetscLogDouble)n, (op ? 2.0 : 1.0) * n * ESZ));
  PetscFunctionReturn(0);
}

/* The local ingredients of a norm, before any square root: NORM_1: r[0] = sum |x|; NORM_2, NORM_FROBENIUS: r[0] = sum x^2;
   NORM_INFINITY: r[0] = max |x| (NaN propagates); NORM_1_AND_2: r[0] = sum |x|, r[1] = sum x^2 (one pass). */
PetscErrorCode VecNormLocalSums_OpenCL(Vec x, NormType type, PetscReal r[2])
{
  PetscScalar t[2];

  PetscFunctionBegin;
  switch (type) {
  case NORM_1:
    PetscCall(VecCLReduce1(x, 1, t));
    r[0] = PetscRealPart(t[0]);
    break;
  case NORM_2:
  case NORM_FROBENIUS:
    PetscCall(VecCLReduce1(x, 2, t));
    r[0] = PetscRealPart(t[0]);
    break;
  case NORM_INFINITY:
    PetscCall(VecCLAmax(x, x, 0, t));
    r[0] = PetscRealPart(t[0]);
    break;
  case NORM_1_AND_2: {
    Vec_OpenCL *s = VecCLData(x);
    cl_ulong    n = (cl_ulong)x->map->n, part_off = VecCLPartOff(x);
    cl_kernel   k;

    if (!n) {
      r[0] = r[1] = 0;
      break;
    }
    PetscCall(VecOpenCLSyncDevice(x));
    PetscCall(VecOpenCLGetKernel_Private(x, VEC_CL_K_NORM12, &k));
    PetscCall(SbpmgLogKernelBegin(SBPMG_VecReduce));
    PetscCall(SbpmgCLSetArgs(k, 0, 4, sizeof(n), &n, sizeof(cl_mem), &s->buf, sizeof(cl_mem), &s->buf, sizeof(part_off), &part_off));
    PetscCall(VecCLReduce(x, k, 4, VEC_CL_K_SUM_FINAL, NULL, 2, 2, t));
    PetscCall(SbpmgLogKernelEnd(SBPMG_VecReduce, s->cl, 3.0 * n, (PetscLogDouble)n * ESZ));
    r[0] = PetscRealPart(t[0]);
    r[1] = PetscRealPart(t[1]);
  } break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown NormType %d", (int)type);
  }
  PetscFunctionReturn(0);
}

/* The norm of the local part (VECSEQOPENCL's norm; both types' norm_local, as PETSc's split-phase VecNormBegin() wants) */
static PetscErrorCode VecNorm_SeqOpenCL(Vec x, NormType type, PetscReal *val)
{
  PetscReal r[2];

  PetscFunctionBegin;
  PetscCall(VecNormLocalSums_OpenCL(x, type, r));
  switch (type) {
  case NORM_2:
  case NORM_FROBENIUS:
    *val = PetscSqrtReal(r[0]);
    break;
  case NORM_1_AND_2:
    val[0] = r[0];
    val[1] = PetscSqrtReal(r[1]);
    break;
  default:
    *val = r[0];
  }
  PetscFunctionReturn(0);
}

PetscErrorCode VecSumLocal_OpenCL(Vec x, PetscScalar *sum)
{
  PetscFunctionBegin;
  PetscCall(VecCLReduce1(x, 0, sum));
  PetscFunctionReturn(0);
}

/* dp = s . t, nm = t . t in one pass (two fused dot products of t), local parts */
PetscErrorCode VecDotNorm2Local_OpenCL(Vec s, Vec t, PetscScalar *dp, PetscScalar *nm)
{
  PetscBool   dev;
  PetscScalar r[2];
  Vec         y[2] = {s, t};

  PetscFunctionBegin;
  PetscCall(VecOpenCLSameDevice_Private(s, t, &dev));
  if (!dev) {
    const PetscScalar *a, *b;
    PetscScalar        d = 0, q = 0;

    PetscCall(VecGetArrayRead(s, &a));
    PetscCall(VecGetArrayRead(t, &b));
    for (PetscInt i = 0; i < s->map->n; i++) {
      d += a[i] * b[i];
      q += b[i] * b[i];
    }
    PetscCall(VecRestoreArrayRead(t, &b));
    PetscCall(VecRestoreArrayRead(s, &a));
    PetscCall(PetscLogFlops(4.0 * s->map->n));
    *dp = d;
    *nm = q;
    PetscFunctionReturn(0);
  }
  PetscCall(VecCLMDot(t, 2, y, r));
  *dp = r[0];
  *nm = r[1];
  PetscFunctionReturn(0);
}

/* max_i |x_i / y_i| (|x_i| where y_i = 0) over the local part. The host fallback is VECSEQ's loop written out here:
   PETSc 3.18's VecMaxPointwiseDivide_Seq() ends with an MPI_Allreduce on the vector's communicator, which must not
   happen inside a rank-local decision. */
PetscErrorCode VecMaxPointwiseDivideLocal_OpenCL(Vec x, Vec y, PetscReal *max)
{
  PetscBool   dev;
  PetscScalar r;

  PetscFunctionBegin;
  PetscCall(VecOpenCLSameDevice_Private(x, y, &dev));
  if (!dev) {
    const PetscScalar *xx, *yy;
    PetscReal          m = 0;

    PetscCall(VecGetArrayRead(x, &xx));
    PetscCall(VecGetArrayRead(y, &yy));
    for (PetscInt i = 0; i < x->map->n; i++) {
      const PetscReal v = PetscAbsScalar(yy[i] == (PetscScalar)0 ? xx[i] : xx[i] / yy[i]);
      m                 = PetscMax(v, m);
    }
    PetscCall(VecRestoreArrayRead(y, &yy));
    PetscCall(VecRestoreArrayRead(x, &xx));
    PetscCall(PetscLogFlops((PetscLogDouble)x->map->n));
    *max = m;
    PetscFunctionReturn(0);
  }
  PetscCall(VecCLAmax(x, y, 1, &r));
  *max = PetscRealPart(r);
  PetscFunctionReturn(0);
}

/* The largest (sign 1) or smallest (sign -1) entry and the first index holding it, as VECSEQ defines them. */
static PetscErrorCode VecCLLocation(Vec x, PetscReal sign, PetscInt *idx, PetscReal *val)
{
  Vec_OpenCL *s = VecCLData(x);
  cl_ulong    n = (cl_ulong)x->map->n, part_off = VecCLPartOff(x);
  PetscScalar sg = sign, r[2];
  cl_kernel   k;

  PetscFunctionBegin;
  if (!n) {
    *val = sign > 0 ? PETSC_MIN_REAL : PETSC_MAX_REAL;
    if (idx) *idx = -1;
    PetscFunctionReturn(0);
  }
  PetscCall(VecOpenCLSyncDevice(x));
  PetscCall(VecOpenCLGetKernel_Private(x, VEC_CL_K_LOC, &k));
  PetscCall(SbpmgLogKernelBegin(SBPMG_VecReduce));
  PetscCall(SbpmgCLSetArgs(k, 0, 5, sizeof(n), &n, ESZ, &sg, sizeof(cl_mem), &s->buf, sizeof(cl_mem), &s->buf, sizeof(part_off), &part_off));
  PetscCall(VecCLReduce(x, k, 5, VEC_CL_K_LOC_FINAL, &sg, 1, 2, r)); /* one set of (value, index) pairs, two result scalars */
  PetscCall(SbpmgLogKernelEnd(SBPMG_VecReduce, s->cl, (PetscLogDouble)n, (PetscLogDouble)n * ESZ));
  *val = PetscRealPart(r[0]);
  if (idx) {
#if defined(PETSC_USE_REAL_SINGLE)
    uint32_t bits;
#else
    uint64_t bits;
#endif
    PetscCall(PetscMemcpy(&bits, &r[1], sizeof(bits)));
    PetscCheck((cl_ulong)bits < n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Location reduction returned index %llu for a vector of length %llu",
               (unsigned long long)bits, (unsigned long long)n);
    *idx = (PetscInt)bits;
  }
  PetscFunctionReturn(0);
}

/* local index of the local maximum (-1 and PETSC_MIN_REAL for an empty local part) */
PetscErrorCode VecMaxLocal_OpenCL(Vec x, PetscInt *idx, PetscReal *val)
{
  PetscFunctionBegin;
  PetscCall(VecCLLocation(x, 1, idx, val));
  PetscFunctionReturn(0);
}

PetscErrorCode VecMinLocal_OpenCL(Vec x, PetscInt *idx, PetscReal *val)
{
  PetscFunctionBegin;
  PetscCall(VecCLLocation(x, -1, idx, val));
  PetscFunctionReturn(0);
}

PetscErrorCode VecOpenCLSetDeviceOps_Private(Vec v)
{
  VecOps ops = v->ops;

  PetscFunctionBegin;
  ops->set             = VecSet_SeqOpenCL;
  ops->scale           = VecScale_SeqOpenCL;
  ops->shift           = VecShift_SeqOpenCL;
  ops->copy            = VecCopy_SeqOpenCL;
  ops->swap            = VecSwap_SeqOpenCL;
  ops->axpy            = VecAXPY_SeqOpenCL;
  ops->aypx            = VecAYPX_SeqOpenCL;
  ops->axpby           = VecAXPBY_SeqOpenCL;
  ops->waxpy           = VecWAXPY_SeqOpenCL;
  ops->axpbypcz        = VecAXPBYPCZ_SeqOpenCL;
  ops->maxpy           = VecMAXPY_SeqOpenCL;
  ops->pointwisemult   = VecPointwiseMult_SeqOpenCL;
  ops->pointwisedivide = VecPointwiseDivide_SeqOpenCL;
  ops->pointwisemax    = VecPointwiseMax_SeqOpenCL;
  ops->pointwisemin    = VecPointwiseMin_SeqOpenCL;
  ops->pointwisemaxabs = VecPointwiseMaxAbs_SeqOpenCL;
  ops->reciprocal      = VecReciprocal_SeqOpenCL;
  ops->abs             = VecAbs_SeqOpenCL;
  ops->sqrt            = VecSqrtAbs_SeqOpenCL;
  ops->exp             = VecExp_SeqOpenCL;
  ops->log             = VecLog_SeqOpenCL;
  ops->conjugate       = VecConjugate_SeqOpenCL;
  /* reductions: the local part, which is the whole for VECSEQOPENCL (VECMPIOPENCL replaces the global ones) */
  ops->dot                = VecDotLocal_OpenCL;
  ops->tdot               = VecDotLocal_OpenCL; /* real scalars */
  ops->mdot               = VecMDotLocal_OpenCL;
  ops->mtdot              = VecMDotLocal_OpenCL;
  ops->dot_local          = VecDotLocal_OpenCL;
  ops->tdot_local         = VecDotLocal_OpenCL;
  ops->mdot_local         = VecMDotLocal_OpenCL;
  ops->mtdot_local        = VecMDotLocal_OpenCL;
  ops->norm               = VecNorm_SeqOpenCL;
  ops->norm_local         = VecNorm_SeqOpenCL;
  ops->sum                = VecSumLocal_OpenCL;
  ops->dotnorm2           = VecDotNorm2Local_OpenCL;
  ops->maxpointwisedivide = VecMaxPointwiseDivideLocal_OpenCL;
  ops->max                = VecMaxLocal_OpenCL;
  ops->min                = VecMinLocal_OpenCL;
  PetscFunctionReturn(0);
}
