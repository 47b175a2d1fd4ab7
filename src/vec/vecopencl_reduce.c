/* The reductions of the device vectors on the device (kernels/vecops.cl), on the local part only: VECSEQOPENCL's
   operations; VECMPIOPENCL follows each with one MPI_Allreduce of the scalars (src/vec/vecmpiopencl.c).

   A reduction is two launches: stage 1 (G work-groups, G a function of the local length and the context's tuning only)
   writes one partial per work-group, stage 2 combines them in a fixed order; then one transfer reads back the few
   result scalars, the only wait on the device (docs/design.md "Device vectors"). The same values on the same device
   give the same bits every time. Where some vector argument is not a device vector of the same context, the host
   type's local function runs on the host copies, so both types' reductions stay local + allreduce whichever path a
   rank takes. Length 0 is answered on the host without kernels. */
#include <sbpmg/private/vecimpl.h>

#define ESZ sizeof(PetscScalar)

#if VEC_CL_NRES * 8 > SBPMG_CL_RESULT_BYTES
#  error "the reduction area's result slots (VEC_CL_NRES) must fit the pinned result area (SBPMG_CL_RESULT_BYTES)"
#endif

/* The result slots start at res_off = n (entries) and the partials at part_off = n + VEC_CL_NRES (include/sbpmg/private/vecimpl.h). */
#define VecCLResOff(x)  ((cl_ulong)(x)->map->n)
#define VecCLPartOff(x) ((cl_ulong)(x)->map->n + VEC_CL_NRES)

/* A reduction over x: stage 1 is kernel stage1(n[, *op][, *scalar], x, y[0..ny), x's buffer, part_off), stage 2 the
   kernel final(G, x's buffer, part_off, res_off[, *scalar]) over nsets work-groups; then nres scalars are read back. */
typedef struct {
  VecCLKernelId      stage1, final;
  const cl_uint     *op;     /* the uint argument after n (the variant, or the number of fused vectors), or NULL */
  const PetscScalar *scalar; /* the scalar argument after n (the sign of a location reduction), or NULL */
  PetscInt           ny;
  cl_mem             y[VEC_CL_MAX_FUSE]; /* buffers the stage-1 kernel reads besides x's */
  PetscInt           nsets, nres;
  PetscLogDouble     flops, bytes;       /* for the log */
  PetscBool          scalar_stage1_only; /* the scalar is stage 1's alone (stage 2 a plain sum) */
} VecCLReduction;

static PetscErrorCode VecCLSetStage1Args(Vec x, const VecCLReduction *r, cl_kernel k)
{
  Vec_OpenCL *s = VecCLData(x);
  cl_ulong    n = (cl_ulong)x->map->n, part_off = VecCLPartOff(x);
  cl_uint     arg = 0;

  PetscFunctionBegin;
  PetscCall(SbpmgCLSetArg(k, arg++, sizeof(n), &n));
  if (r->op) PetscCall(SbpmgCLSetArg(k, arg++, sizeof(*r->op), r->op));
  if (r->scalar) PetscCall(SbpmgCLSetArg(k, arg++, ESZ, r->scalar));
  PetscCall(SbpmgCLSetArg(k, arg++, sizeof(cl_mem), &s->buf));
  for (PetscInt j = 0; j < r->ny; j++) PetscCall(SbpmgCLSetArg(k, arg++, sizeof(cl_mem), &r->y[j]));
  PetscCall(SbpmgCLSetArgs(k, arg, 2, sizeof(cl_mem), &s->buf, sizeof(part_off), &part_off));
  PetscFunctionReturn(0);
}

/* Enqueue both stages of a reduction; its nres scalars land in the result slots from slot on (slot + nres <= VEC_CL_NRES). */
static PetscErrorCode VecCLReduceEnqueue(Vec x, const VecCLReduction *r, cl_ulong slot)
{
  Vec_OpenCL *s        = VecCLData(x);
  cl_uint     G        = (cl_uint)s->rgroups;
  cl_ulong    part_off = VecCLPartOff(x), res_off = VecCLResOff(x) + slot;
  cl_kernel   k1, k2;

  PetscFunctionBegin;
  PetscCall(VecOpenCLGetKernel_Private(x, r->stage1, &k1));
  PetscCall(VecCLSetStage1Args(x, r, k1));
  PetscCall(SbpmgCLLaunch1D(s->cl, k1, (size_t)s->rgroups * s->wg, s->wg));
  PetscCall(VecOpenCLGetKernel_Private(x, r->final, &k2));
  PetscCall(SbpmgCLSetArgs(k2, 0, 4, sizeof(G), &G, sizeof(cl_mem), &s->buf, sizeof(part_off), &part_off, sizeof(res_off), &res_off));
  if (r->scalar && !r->scalar_stage1_only) PetscCall(SbpmgCLSetArg(k2, 4, ESZ, r->scalar));
  PetscCall(SbpmgCLLaunch1D(s->cl, k2, (size_t)r->nsets * s->wg, s->wg));
  PetscFunctionReturn(0);
}

/* Read back nres result slots from 0: the wait on the device */
static PetscErrorCode VecCLReadResults(Vec x, PetscInt nres, PetscScalar res[])
{
  Vec_OpenCL *s = VecCLData(x);

  PetscFunctionBegin;
  PetscCall(SbpmgCLReadResult(s->cl, s->buf, (size_t)VecCLResOff(x) * ESZ, (size_t)nres * ESZ, res));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecCLReduce(Vec x, const VecCLReduction *r, PetscScalar res[])
{
  PetscFunctionBegin;
  PetscCall(SbpmgLogKernelBegin(SBPMG_VecReduce));
  PetscCall(VecCLReduceEnqueue(x, r, 0));
  PetscCall(VecCLReadResults(x, r->nres, res));
  PetscCall(SbpmgLogKernelEnd(SBPMG_VecReduce, VecCLData(x)->cl, r->flops, r->bytes));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- sums and dot products */

/* Fused dot products val[j] = x . y[j] on the device, chunks of VEC_CL_MAX_FUSE vectors per pass over x, each into its own result
   slots and read back together (one wait on the device per VEC_CL_NRES vectors); a single dot product has its own kernel (four
   accumulators per work-item). */
static PetscErrorCode VecCLMDot(Vec x, PetscInt nv, const Vec y[], PetscScalar val[])
{
  cl_ulong n = (cl_ulong)x->map->n;

  PetscFunctionBegin;
  if (nv <= 0) PetscFunctionReturn(0);
  if (!n) {
    for (PetscInt j = 0; j < nv; j++) val[j] = 0;
    PetscFunctionReturn(0);
  }
  PetscCall(VecOpenCLSyncDevice(x));
  for (PetscInt j = 0; j < nv; j++) PetscCall(VecOpenCLSyncDevice(y[j]));
  for (PetscInt b0 = 0; b0 < nv; b0 += VEC_CL_NRES) { /* a batch of result slots */
    const PetscInt nb = PetscMin(VEC_CL_NRES, nv - b0);

    PetscCall(SbpmgLogKernelBegin(SBPMG_VecReduce));
    for (PetscInt j0 = 0; j0 < nb; j0 += VEC_CL_MAX_FUSE) {
      const cl_uint  m = (cl_uint)PetscMin(VEC_CL_MAX_FUSE, nb - j0);
      VecCLReduction r = {VEC_CL_K_MDOT, VEC_CL_K_SUM_FINAL, &m, NULL, VEC_CL_MAX_FUSE, {NULL}, m, m, 0, 0, PETSC_FALSE};

      for (cl_uint j = 0; j < VEC_CL_MAX_FUSE; j++) r.y[j] = VecCLData(y[b0 + j0 + (j < m ? j : 0)])->buf; /* unused slots: any valid buffer, never read */
      if (m == 1) {
        r.stage1 = VEC_CL_K_DOT;
        r.op     = NULL;
        r.ny     = 1;
      }
      PetscCall(VecCLReduceEnqueue(x, &r, (cl_ulong)j0));
    }
    PetscCall(VecCLReadResults(x, nb, val + b0));
    PetscCall(
        SbpmgLogKernelEnd(SBPMG_VecReduce, VecCLData(x)->cl, 2.0 * nb * n, (nb + (nb + VEC_CL_MAX_FUSE - 1) / VEC_CL_MAX_FUSE) * (PetscLogDouble)n * ESZ));
  }
  PetscFunctionReturn(0);
}

/* The local part of x . y */
PetscErrorCode VecDotLocal_OpenCL(Vec x, Vec y, PetscScalar *val)
{
  PetscFunctionBegin;
  VecOpenCLHostIfMixed(x, 1, &y, PETSC_FALSE, VecCLHost(x)->dot_local(x, y, val));
  PetscCall(VecCLMDot(x, 1, &y, val));
  PetscFunctionReturn(0);
}

PetscErrorCode VecMDotLocal_OpenCL(Vec x, PetscInt nv, const Vec y[], PetscScalar val[])
{
  PetscFunctionBegin;
  VecOpenCLHostIfMixed(x, nv, y, PETSC_FALSE, VecCLHost(x)->mdot_local(x, nv, y, val));
  PetscCall(VecCLMDot(x, nv, y, val));
  PetscFunctionReturn(0);
}

/* The nres results of a reduction of x alone (zero for an empty local part) */
static PetscErrorCode VecCLReduceOne(Vec x, VecCLReduction *r, PetscScalar res[])
{
  PetscFunctionBegin;
  if (!x->map->n) {
    for (PetscInt i = 0; i < r->nres; i++) res[i] = 0;
    PetscFunctionReturn(0);
  }
  PetscCall(VecOpenCLSyncDevice(x));
  PetscCall(VecCLReduce(x, r, res));
  PetscFunctionReturn(0);
}

/* s = sum x (op 0), sum |x| (1), sum x^2 (2) */
static PetscErrorCode VecCLReduce1(Vec x, cl_uint op, PetscScalar *res)
{
  const PetscLogDouble n = (PetscLogDouble)x->map->n;
  VecCLReduction       r = {VEC_CL_K_REDUCE1, VEC_CL_K_SUM_FINAL, &op, NULL, 0, {NULL}, 1, 1, op ? 2.0 * n : n, n * ESZ, PETSC_FALSE};

  PetscFunctionBegin;
  PetscCall(VecCLReduceOne(x, &r, res));
  PetscFunctionReturn(0);
}

/* max |x| (op 0) or max |x/y| with |x| where y = 0 (op 1); NaN propagates */
static PetscErrorCode VecCLAmax(Vec x, Vec y, cl_uint op, PetscScalar *res)
{
  const PetscLogDouble n = (PetscLogDouble)x->map->n;
  VecCLReduction r = {VEC_CL_K_AMAX, VEC_CL_K_MAX_FINAL, &op, NULL, 1, {VecCLData(y)->buf}, 1, 1, op ? 2.0 * n : n, (op ? 2.0 : 1.0) * n * ESZ, PETSC_FALSE};

  PetscFunctionBegin;
  if (x->map->n) PetscCall(VecOpenCLSyncDevice(y));
  PetscCall(VecCLReduceOne(x, &r, res));
  PetscFunctionReturn(0);
}

/* The local ingredients of a norm, before any square root: NORM_1: r[0] = sum |x|; NORM_2, NORM_FROBENIUS: r[0] = sum x^2;
   NORM_INFINITY: r[0] = max |x| (NaN propagates); NORM_1_AND_2: r[0] = sum |x|, r[1] = sum x^2 (one pass). */
PetscErrorCode VecNormLocalSums_OpenCL(Vec x, NormType type, PetscReal r[2])
{
  const PetscLogDouble n    = (PetscLogDouble)x->map->n;
  VecCLReduction       r12  = {VEC_CL_K_NORM12, VEC_CL_K_SUM_FINAL, NULL, NULL, 0, {NULL}, 2, 2, 3.0 * n, n * ESZ, PETSC_FALSE};
  PetscScalar          t[2] = {0, 0};

  PetscFunctionBegin;
  switch (type) {
  case NORM_1:
    PetscCall(VecCLReduce1(x, 1, t));
    break;
  case NORM_2:
  case NORM_FROBENIUS:
    PetscCall(VecCLReduce1(x, 2, t));
    break;
  case NORM_INFINITY:
    PetscCall(VecCLAmax(x, x, 0, t));
    break;
  case NORM_1_AND_2:
    PetscCall(VecCLReduceOne(x, &r12, t));
    r[1] = PetscRealPart(t[1]);
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown NormType %d", (int)type);
  }
  r[0] = PetscRealPart(t[0]);
  PetscFunctionReturn(0);
}

/* The norm of the local part (VECSEQOPENCL's norm; both types' norm_local, as PETSc's split-phase VecNormBegin() wants) */
static PetscErrorCode VecNorm_SeqOpenCL(Vec x, NormType type, PetscReal *val)
{
  PetscReal r[2] = {0, 0};

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

/* r += alpha w, z = d r (d NULL: z is r and is not written) and rz = (z, r) over every rank: the Lanczos step of the smoothers'
   eigenvalue estimates (src/mg/smoother.c) in one pass and one reduction on the device, where VecAXPY, VecPointwiseMult and VecTDot
   made three passes; the three operations where a vector is not a device vector of r's context. Collective. */
PetscErrorCode VecOpenCLLanczosStep_Private(Vec r, PetscScalar alpha, Vec w, Vec d, Vec z, PetscScalar *rz)
{
  Vec         in[3] = {w, d ? d : w, d ? z : w};
  PetscBool   dev;
  PetscScalar local = 0;

  PetscFunctionBegin;
  PetscCall(VecOpenCLIsDevice_Private(r, &dev));
  if (dev) PetscCall(VecOpenCLAllSameDevice_Private(r, 3, in, &dev));
  if (!dev) {
    PetscCall(VecAXPY(r, alpha, w));
    if (d) PetscCall(VecPointwiseMult(z, r, d));
    PetscCall(VecTDot(d ? z : r, r, rz));
    PetscFunctionReturn(0);
  }
  PetscCall(VecOpenCLSyncDevice(r));
  PetscCall(VecOpenCLSyncDevice(w));
  if (d) PetscCall(VecOpenCLSyncDevice(d));
  if (r->map->n) {
    Vec_OpenCL    *rs  = VecCLData(r);
    cl_uint        op  = d ? 1 : 0;
    VecCLReduction red = {VEC_CL_K_LANCZOS,
                          VEC_CL_K_SUM_FINAL,
                          &op,
                          &alpha,
                          3,
                          {VecCLData(w)->buf, d ? VecCLData(d)->buf : rs->buf, d ? VecCLData(z)->buf : rs->buf},
                          1,
                          1,
                          4.0 * r->map->n,
                          (d ? 5.0 : 3.0) * r->map->n * ESZ,
                          PETSC_TRUE};
    PetscCall(VecCLReduce(r, &red, &local));
  }
  PetscCall(VecOpenCLDeviceWritten_Private(r)); /* written on the device */
  if (d) PetscCall(VecOpenCLDeviceWritten_Private(z));
  if (VecCLData(r)->parallel) PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &local, 1, MPIU_SCALAR, MPIU_SUM, PetscObjectComm((PetscObject)r)));
  *rz = local;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- maxima and locations */

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
  const cl_ulong    n  = (cl_ulong)x->map->n;
  const PetscScalar sg = sign;
  PetscScalar       r[2];
  VecCLReduction    loc = {VEC_CL_K_LOC,      VEC_CL_K_LOC_FINAL,      NULL,       &sg, 0, {NULL}, 1, 2,
                           (PetscLogDouble)n, (PetscLogDouble)n * ESZ, PETSC_FALSE}; /* (value, index) */

  PetscFunctionBegin;
  if (!n) {
    *val = sign > 0 ? PETSC_MIN_REAL : PETSC_MAX_REAL;
    if (idx) *idx = -1;
    PetscFunctionReturn(0);
  }
  PetscCall(VecCLReduceOne(x, &loc, r));
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

PetscErrorCode VecOpenCLSetReductionOps_Private(Vec v)
{
  VecOps ops = v->ops;

  PetscFunctionBegin;
  /* the local part, which is the whole for VECSEQOPENCL (VECMPIOPENCL replaces the global ones) */
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
