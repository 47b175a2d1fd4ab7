/* The element-wise operations of the device vectors on the device (kernels/vecops.cl), on the local part: VECSEQOPENCL's
   operations and VECMPIOPENCL's as they are.

   Each takes the device path when every vector argument is a device vector of the same device context: the vectors it
   reads are synced to the device (no transfer when already there), vectors it only writes are not, and the vectors it
   writes end up valid on the device only. Otherwise it falls back to the host type's function on the host copies
   (VecOpenCLHostIfMixed). Nothing here waits for the device. */
#include <sbpmg/private/vecimpl.h>

#define ESZ sizeof(PetscScalar)

/* Kernel k (its arguments set) over y's element-wise geometry, logged as CLVecBlas1 with its flops and bytes */
static PetscErrorCode VecCLLaunchBlas(Vec y, cl_kernel k, PetscLogDouble flops, PetscLogDouble bytes)
{
  Vec_OpenCL *s = VecCLData(y);

  PetscFunctionBegin;
  PetscCall(SbpmgLogKernelBegin(SBPMG_VecBlas));
  PetscCall(SbpmgCLLaunch1D(s->cl, k, (size_t)s->egroups * s->wg, s->wg));
  PetscCall(SbpmgLogKernelEnd(SBPMG_VecBlas, s->cl, flops, bytes));
  PetscFunctionReturn(0);
}

/* out = kernel id(n[, *op], a[0..na), the buffers of in[0..nin), out's buffer): in[] synced to the device, and out when
   the kernel reads it; flops and scalars moved per entry for the log. */
static PetscErrorCode VecCLElementwise(Vec out, VecCLKernelId id, const cl_uint *op, PetscInt na, const PetscScalar a[], PetscInt nin, const Vec in[],
                                       PetscBool reads_out, PetscLogDouble flops, PetscLogDouble scalars)
{
  cl_ulong  n   = (cl_ulong)out->map->n;
  cl_uint   arg = 0;
  cl_kernel k;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < nin; i++) PetscCall(VecOpenCLSyncDevice(in[i]));
  if (reads_out) PetscCall(VecOpenCLSyncDevice(out));
  PetscCall(VecOpenCLGetKernel_Private(out, id, &k));
  PetscCall(SbpmgCLSetArg(k, arg++, sizeof(n), &n));
  if (op) PetscCall(SbpmgCLSetArg(k, arg++, sizeof(*op), op));
  for (PetscInt i = 0; i < na; i++) PetscCall(SbpmgCLSetArg(k, arg++, ESZ, &a[i]));
  for (PetscInt i = 0; i < nin; i++) PetscCall(SbpmgCLSetArg(k, arg++, sizeof(cl_mem), &VecCLData(in[i])->buf));
  PetscCall(SbpmgCLSetArg(k, arg++, sizeof(cl_mem), &VecCLData(out)->buf));
  PetscCall(VecCLLaunchBlas(out, k, flops * n, scalars * n * ESZ));
  PetscCall(VecOpenCLDeviceWritten_Private(out));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- one vector */

static PetscErrorCode VecSet_SeqOpenCL(Vec y, PetscScalar a)
{
  PetscFunctionBegin;
  PetscCall(VecCLElementwise(y, VEC_CL_K_SET, NULL, 1, &a, 0, NULL, PETSC_FALSE, 0, 1));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecScale_SeqOpenCL(Vec y, PetscScalar a)
{
  PetscFunctionBegin;
  if (a == (PetscScalar)0)
    PetscCall(VecSet_SeqOpenCL(y, a)); /* like VECSEQ: clears NaN and Inf */
  else if (a != (PetscScalar)1)
    PetscCall(VecCLElementwise(y, VEC_CL_K_SCALE, NULL, 1, &a, 0, NULL, PETSC_TRUE, 1, 2));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecShift_SeqOpenCL(Vec y, PetscScalar a)
{
  PetscFunctionBegin;
  if (a != (PetscScalar)0) PetscCall(VecCLElementwise(y, VEC_CL_K_SHIFT, NULL, 1, &a, 0, NULL, PETSC_TRUE, 1, 2));
  PetscFunctionReturn(0);
}

typedef enum { VEC_CL_UN_RECIPROCAL, VEC_CL_UN_ABS, VEC_CL_UN_SQRTABS, VEC_CL_UN_EXP, VEC_CL_UN_LOG } VecCLUnaryOp;

/* y = f(y) in place */
#define VEC_CL_UNARY(name, f)                                                               \
  static PetscErrorCode name(Vec y)                                                         \
  {                                                                                         \
    const cl_uint o = (cl_uint)(f);                                                         \
    PetscFunctionBegin;                                                                     \
    PetscCall(VecCLElementwise(y, VEC_CL_K_UNARY, &o, 0, NULL, 0, NULL, PETSC_TRUE, 1, 2)); \
    PetscFunctionReturn(0);                                                                 \
  }
VEC_CL_UNARY(VecReciprocal_SeqOpenCL, VEC_CL_UN_RECIPROCAL)
VEC_CL_UNARY(VecAbs_SeqOpenCL, VEC_CL_UN_ABS)
VEC_CL_UNARY(VecSqrtAbs_SeqOpenCL, VEC_CL_UN_SQRTABS)
VEC_CL_UNARY(VecExp_SeqOpenCL, VEC_CL_UN_EXP)
VEC_CL_UNARY(VecLog_SeqOpenCL, VEC_CL_UN_LOG)

/* Real scalars: nothing to conjugate (and nothing to transfer). */
static PetscErrorCode VecConjugate_SeqOpenCL(Vec y)
{
  PetscFunctionBegin;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- two vectors */

static PetscErrorCode VecCopy_SeqOpenCL(Vec x, Vec y)
{
  Vec_OpenCL *xs = VecCLData(x);
  PetscBool   dev;

  PetscFunctionBegin;
  if (x == y) PetscFunctionReturn(0);
  PetscCall(VecOpenCLSameDevice_Private(x, y, &dev));
  if (!dev) {
    PetscCall(VecOpenCLSyncHost(x));
    PetscCall(VecCLHost(x)->copy(x, y)); /* writes y through VecGetArray*, which keeps y's mask right */
    PetscCall(VecOpenCLHostWritten_Private(y));
    PetscFunctionReturn(0);
  }
  PetscCall(VecOpenCLSyncDevice(x));
  PetscCall(SbpmgLogKernelBegin(SBPMG_VecBlas));
  PetscCall(SbpmgCLCopyBuffer(xs->cl, xs->buf, VecCLData(y)->buf, 0, 0, (size_t)x->map->n * ESZ));
  PetscCall(SbpmgLogKernelEnd(SBPMG_VecBlas, xs->cl, 0, 2.0 * x->map->n * ESZ));
  PetscCall(VecOpenCLDeviceWritten_Private(y));
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
    PetscCall(VecOpenCLSyncHostAll_Private(x, 1, &y));
    PetscCall(VecCLHost(x)->swap(x, y));
    PetscCall(VecOpenCLHostWritten_Private(x));
    PetscCall(VecOpenCLHostWritten_Private(y));
    PetscFunctionReturn(0);
  }
  PetscCall(VecOpenCLSyncDevice(x));
  PetscCall(VecOpenCLSyncDevice(y));
  {
    cl_mem t          = VecCLData(x)->buf;
    VecCLData(x)->buf = VecCLData(y)->buf;
    VecCLData(y)->buf = t;
  }
  PetscCall(VecOpenCLDeviceWritten_Private(x));
  PetscCall(VecOpenCLDeviceWritten_Private(y));
  PetscFunctionReturn(0);
}

/* y = y + a x */
static PetscErrorCode VecAXPY_SeqOpenCL(Vec y, PetscScalar a, Vec x)
{
  PetscFunctionBegin;
  VecOpenCLHostIfMixed(y, 1, &x, PETSC_TRUE, VecCLHost(y)->axpy(y, a, x));
  if (a != (PetscScalar)0) PetscCall(VecCLElementwise(y, VEC_CL_K_AXPY, NULL, 1, &a, 1, &x, PETSC_TRUE, 2, 3));
  PetscFunctionReturn(0);
}

/* y = x + a y */
static PetscErrorCode VecAYPX_SeqOpenCL(Vec y, PetscScalar a, Vec x)
{
  PetscFunctionBegin;
  VecOpenCLHostIfMixed(y, 1, &x, PETSC_TRUE, VecCLHost(y)->aypx(y, a, x));
  if (a == (PetscScalar)0)
    PetscCall(VecCopy_SeqOpenCL(x, y)); /* like VECSEQ: y's old values are not read */
  else
    PetscCall(VecCLElementwise(y, VEC_CL_K_AYPX, NULL, 1, &a, 1, &x, PETSC_TRUE, 2, 3));
  PetscFunctionReturn(0);
}

/* y = a x + b y */
static PetscErrorCode VecAXPBY_SeqOpenCL(Vec y, PetscScalar a, PetscScalar b, Vec x)
{
  const PetscScalar ab[2] = {a, b};

  PetscFunctionBegin;
  VecOpenCLHostIfMixed(y, 1, &x, PETSC_TRUE, VecCLHost(y)->axpby(y, a, b, x));
  if (a == (PetscScalar)0)
    PetscCall(VecScale_SeqOpenCL(y, b));
  else if (b == (PetscScalar)0)
    PetscCall(VecCLElementwise(y, VEC_CL_K_SCALECOPY, NULL, 1, &a, 1, &x, PETSC_FALSE, 1, 2)); /* y's old values are not read */
  else
    PetscCall(VecCLElementwise(y, VEC_CL_K_AXPBY, NULL, 2, ab, 1, &x, PETSC_TRUE, 3, 3));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- three vectors and more */

/* w = a x + y; w is not read */
static PetscErrorCode VecWAXPY_SeqOpenCL(Vec w, PetscScalar a, Vec x, Vec y)
{
  const Vec         in[2] = {x, y};
  const PetscScalar ab[2] = {a, 1};

  PetscFunctionBegin;
  VecOpenCLHostIfMixed(w, 2, in, PETSC_TRUE, VecCLHost(w)->waxpy(w, a, x, y));
  PetscCall(VecCLElementwise(w, VEC_CL_K_WAXPBY, NULL, 2, ab, 2, in, PETSC_FALSE, 3, 3));
  PetscFunctionReturn(0);
}

/* z = a x + b y + c z (z is not read when c = 0) */
static PetscErrorCode VecAXPBYPCZ_SeqOpenCL(Vec z, PetscScalar a, PetscScalar b, PetscScalar c, Vec x, Vec y)
{
  const Vec         in[2]  = {x, y};
  const PetscScalar abc[3] = {a, b, c};

  PetscFunctionBegin;
  VecOpenCLHostIfMixed(z, 2, in, PETSC_TRUE, VecCLHost(z)->axpbypcz(z, a, b, c, x, y));
  if (c == (PetscScalar)0)
    PetscCall(VecCLElementwise(z, VEC_CL_K_WAXPBY, NULL, 2, abc, 2, in, PETSC_FALSE, 3, 3));
  else
    PetscCall(VecCLElementwise(z, VEC_CL_K_AXPBYPCZ, NULL, 3, abc, 2, in, PETSC_TRUE, 5, 4));
  PetscFunctionReturn(0);
}

/* y = y + sum_j a_j x_j, up to VEC_CL_MAX_FUSE vectors per pass */
static PetscErrorCode VecMAXPY_SeqOpenCL(Vec y, PetscInt nv, const PetscScalar *alpha, Vec *x)
{
  Vec_OpenCL *s = VecCLData(y);
  cl_ulong    n = (cl_ulong)y->map->n;
  cl_kernel   k;

  PetscFunctionBegin;
  VecOpenCLHostIfMixed(y, nv, x, PETSC_TRUE, VecCLHost(y)->maxpy(y, nv, alpha, x));
  if (nv <= 0) PetscFunctionReturn(0);
  PetscCall(VecOpenCLSyncDevice(y));
  for (PetscInt j = 0; j < nv; j++) PetscCall(VecOpenCLSyncDevice(x[j]));
  PetscCall(VecOpenCLGetKernel_Private(y, VEC_CL_K_MAXPY, &k));
  for (PetscInt j0 = 0; j0 < nv; j0 += VEC_CL_MAX_FUSE) {
    cl_uint m = (cl_uint)PetscMin(VEC_CL_MAX_FUSE, nv - j0);

    PetscCall(SbpmgCLSetArgs(k, 0, 2, sizeof(n), &n, sizeof(m), &m));
    for (cl_uint j = 0; j < VEC_CL_MAX_FUSE; j++) {
      const PetscScalar a = j < m ? alpha[j0 + j] : 0;

      PetscCall(SbpmgCLSetArg(k, 2 + j, ESZ, &a));
      PetscCall(SbpmgCLSetArg(k, 11 + j, sizeof(cl_mem), &VecCLData(x[j0 + (j < m ? j : 0)])->buf)); /* unused slots: any valid buffer, never read */
    }
    PetscCall(SbpmgCLSetArg(k, 10, sizeof(cl_mem), &s->buf));
    PetscCall(VecCLLaunchBlas(y, k, 2.0 * m * n, (2.0 + m) * n * ESZ));
  }
  PetscCall(VecOpenCLDeviceWritten_Private(y));
  PetscFunctionReturn(0);
}

typedef enum { VEC_CL_PW_MULT, VEC_CL_PW_DIVIDE, VEC_CL_PW_MAX, VEC_CL_PW_MIN, VEC_CL_PW_MAXABS } VecCLPointwiseOp;

/* w = x op y; w is not read */
#define VEC_CL_POINTWISE(name, f, hostop)                                                      \
  static PetscErrorCode name(Vec w, Vec x, Vec y)                                              \
  {                                                                                            \
    const Vec     in[2] = {x, y};                                                              \
    const cl_uint o     = (cl_uint)(f);                                                        \
    PetscFunctionBegin;                                                                        \
    VecOpenCLHostIfMixed(w, 2, in, PETSC_TRUE, VecCLHost(w)->hostop(w, x, y));                 \
    PetscCall(VecCLElementwise(w, VEC_CL_K_POINTWISE, &o, 0, NULL, 2, in, PETSC_FALSE, 1, 3)); \
    PetscFunctionReturn(0);                                                                    \
  }
VEC_CL_POINTWISE(VecPointwiseMult_SeqOpenCL, VEC_CL_PW_MULT, pointwisemult)
VEC_CL_POINTWISE(VecPointwiseDivide_SeqOpenCL, VEC_CL_PW_DIVIDE, pointwisedivide)
VEC_CL_POINTWISE(VecPointwiseMax_SeqOpenCL, VEC_CL_PW_MAX, pointwisemax)
VEC_CL_POINTWISE(VecPointwiseMin_SeqOpenCL, VEC_CL_PW_MIN, pointwisemin)
VEC_CL_POINTWISE(VecPointwiseMaxAbs_SeqOpenCL, VEC_CL_PW_MAXABS, pointwisemaxabs)

PetscErrorCode VecOpenCLSetElementwiseOps_Private(Vec v)
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
  PetscFunctionReturn(0);
}
