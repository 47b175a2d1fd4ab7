/* Where a device vector's values are valid (the offload mask, Vec->offloadmask; docs/design.md "Device vectors"), the
   transfers that keep host and device copies in step, the kernels of kernels/vecops.cl, and the public accessors.

     PETSC_OFFLOAD_BOTH  host and device agree (a new vector: zero on both sides)
     PETSC_OFFLOAD_GPU   only the device copy is current (after any device operation that writes)
     PETSC_OFFLOAD_CPU   only the host copy is current (after VecGetArray/VecGetArrayWrite or a host fallback)

   The host copy is allocated at the first host access (VecOpenCLHostArray_Private): until then a BOTH vector's host
   values are zero without an array, and a GPU vector's have never been needed. A CPU vector always has its array.

   All transfers go through SbpmgCLWriteBuffer/SbpmgCLReadBuffer, which count them and log CLCopyToDevice/CLCopyToHost. */
#include <sbpmg/private/vecimpl.h>

/* Each kernel and the subset of kernels/vecops.cl (SBPMG_VEC_KERNELS) whose program holds it: 1 what CG-type solvers launch, 2 the
   other reductions, 4 the other element-wise operations (docs/design.md "Kernel subsets"). */
static const struct {
  const char *name;
  int         subset;
} VecCLKernels[] = {{"vec_set", 1},          {"vec_scale", 4},          {"vec_shift", 4},           {"vec_scalecopy", 4},   {"vec_axpy", 1},
                    {"vec_aypx", 1},         {"vec_axpby", 4},          {"vec_waxpby", 4},          {"vec_axpbypcz", 4},    {"vec_maxpy", 4},
                    {"vec_pointwise", 1},    {"vec_unary", 1},          {"vec_reduce1_partial", 1}, {"vec_dot_partial", 1}, {"vec_norm12_partial", 2},
                    {"vec_amax_partial", 2}, {"vec_mdot_partial", 2},   {"vec_loc_partial", 2},     {"vec_sum_final", 1},   {"vec_max_final", 2},
                    {"vec_loc_final", 2},    {"vec_lanczos_partial", 1}};
_Static_assert(sizeof(VecCLKernels) / sizeof(VecCLKernels[0]) == VEC_CL_NKERNELS, "one kernel per VecCLKernelId");

/* Whole-vector transfers made to keep host and device copies in step (the scalar results of reductions not counted). */
static PetscLogDouble vec_cl_syncs_htod = 0, vec_cl_syncs_dtoh = 0;

/*@C
   VecOpenCLGetSyncCounts - How many times, since the program started, a device vector (VECSEQOPENCL, or the local part
   of a VECMPIOPENCL) of this process copied its values host -> device and device -> host to keep its two copies in step.
   Scalar results of reductions are not counted here (SbpmgCLGetStats() counts every transfer).

   Level: developer
@*/
PetscErrorCode VecOpenCLGetSyncCounts(PetscLogDouble *htod, PetscLogDouble *dtoh)
{
  PetscFunctionBegin;
  if (htod) *htod = vec_cl_syncs_htod;
  if (dtoh) *dtoh = vec_cl_syncs_dtoh;
  PetscFunctionReturn(0);
}

/* Is v a device vector (either type)? */
PetscErrorCode VecOpenCLIsDevice_Private(Vec v, PetscBool *is)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)v, is, VECSEQOPENCL, VECMPIOPENCL, ""));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecOpenCLCheckType(Vec v, int arg, const char func[])
{
  PetscBool is;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(v, VEC_CLASSID, arg);
  PetscCall(VecOpenCLIsDevice_Private(v, &is));
  PetscCheck(is, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s() needs a device vector (type %s or %s), but argument %d has type %s", func, VECSEQOPENCL,
             VECMPIOPENCL, arg, ((PetscObject)v)->type_name ? ((PetscObject)v)->type_name : "(not set)");
  PetscFunctionReturn(0);
}

PetscErrorCode VecOpenCLHostArray_Private(Vec v, PetscBool copy)
{
  Vec_OpenCL *s = VecCLData(v);

  PetscFunctionBegin;
  /* an array placed by VecPlaceArray() is the host copy, even a NULL one (the own array is then unplacedarray) */
  if (s->array || s->unplacedarray || !v->map->n) PetscFunctionReturn(0);
  if (copy)
    PetscCall(PetscMalloc1(v->map->n, &s->array_allocated));
  else
    PetscCall(PetscCalloc1(v->map->n, &s->array_allocated));
  s->array = s->array_allocated;
  PetscFunctionReturn(0);
}

PetscErrorCode VecOpenCLHostOverwrite_Private(Vec v)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLHostArray_Private(v, PETSC_FALSE));
  v->offloadmask = PETSC_OFFLOAD_CPU;
  PetscFunctionReturn(0);
}

/* The first count values of v's buffer set to zero by vec_set (over the device's threads; PoCL's clEnqueueFillBuffer runs on one),
   logged as CLVecBlas1. */
static PetscErrorCode VecOpenCLZeroValues(Vec v, size_t count)
{
  Vec_OpenCL *s = VecCLData(v);
  cl_ulong    n = (cl_ulong)count;
  PetscScalar a = 0;
  cl_kernel   k;

  PetscFunctionBegin;
  PetscCall(VecOpenCLGetKernel_Private(v, VEC_CL_K_SET, &k));
  PetscCall(SbpmgCLSetArgs(k, 0, 3, sizeof(n), &n, sizeof(a), &a, sizeof(cl_mem), &s->buf));
  PetscCall(SbpmgLogKernelBegin(SBPMG_VecBlas));
  PetscCall(SbpmgCLLaunch1D(s->cl, k, (size_t)s->egroups * s->wg, s->wg));
  PetscCall(SbpmgLogKernelEnd(SBPMG_VecBlas, s->cl, 0, (PetscLogDouble)count * sizeof(PetscScalar)));
  PetscFunctionReturn(0);
}

/* If only one copy is current (only: PETSC_OFFLOAD_CPU or PETSC_OFFLOAD_GPU), copy it to the other side: both are valid
   then. Syncing to the host allocates the host array if there is none. No-op for vectors of other types. */
static PetscErrorCode VecOpenCLSync(Vec v, PetscOffloadMask only)
{
  PetscBool   is;
  Vec_OpenCL *s;
  size_t      bytes;

  PetscFunctionBegin;
  PetscCall(VecOpenCLIsDevice_Private(v, &is));
  if (!is) PetscFunctionReturn(0);
  s = VecCLData(v);
  if (only == PETSC_OFFLOAD_CPU && s->zero_due) { /* the device is about to be read: its zeros now, unless the host copy replaces them */
    if (v->offloadmask != PETSC_OFFLOAD_CPU) PetscCall(VecOpenCLZeroValues(v, (size_t)v->map->n));
    s->zero_due = PETSC_FALSE;
  }
  if (only == PETSC_OFFLOAD_GPU) PetscCall(VecOpenCLHostArray_Private(v, v->offloadmask == only ? PETSC_TRUE : PETSC_FALSE));
  if (v->offloadmask != only) PetscFunctionReturn(0);
  bytes = (size_t)v->map->n * sizeof(PetscScalar);
  if (only == PETSC_OFFLOAD_CPU) {
    PetscCall(SbpmgCLWriteBuffer(s->cl, s->buf, 0, bytes, s->array));
    vec_cl_syncs_htod += 1;
  } else {
    PetscCall(SbpmgCLReadBuffer(s->cl, s->buf, 0, bytes, s->array));
    vec_cl_syncs_dtoh += 1;
  }
  v->offloadmask = PETSC_OFFLOAD_BOTH;
  PetscFunctionReturn(0);
}

/*@C
   VecOpenCLSyncDevice - Make the device copy of a device vector (VECSEQOPENCL, or the local part of a VECMPIOPENCL)
   current, copying the host values to the device if only the host copy is; afterwards both copies are valid. Does
   nothing for vectors of other types. Not collective.

   Level: developer
@*/
PetscErrorCode VecOpenCLSyncDevice(Vec v)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLSync(v, PETSC_OFFLOAD_CPU));
  PetscFunctionReturn(0);
}

/*@C
   VecOpenCLSyncHost - Make the host copy of a device vector (VECSEQOPENCL, or the local part of a VECMPIOPENCL)
   current, copying the device values to the host if only the device copy is (and allocating the host copy if the
   vector has none yet); afterwards both copies are valid. Does nothing for vectors of other types. Not collective.

   Level: developer
@*/
PetscErrorCode VecOpenCLSyncHost(Vec v)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLSync(v, PETSC_OFFLOAD_GPU));
  PetscFunctionReturn(0);
}

/*@C
   VecOpenCLGetOffloadMask - Where the values of a device vector (of a VECMPIOPENCL: its local part, on this rank)
   are current: PETSC_OFFLOAD_CPU (host only), PETSC_OFFLOAD_GPU (device only) or PETSC_OFFLOAD_BOTH.

   Level: developer
@*/
PetscErrorCode VecOpenCLGetOffloadMask(Vec v, PetscOffloadMask *mask)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLCheckType(v, 1, "VecOpenCLGetOffloadMask"));
  *mask = v->offloadmask;
  PetscFunctionReturn(0);
}

/* Host copy current and about to be written: the device copy becomes stale. No-op for other types. */
PetscErrorCode VecOpenCLHostModify_Private(Vec v)
{
  PetscBool is;

  PetscFunctionBegin;
  PetscCall(VecOpenCLIsDevice_Private(v, &is));
  if (is) {
    PetscCall(VecOpenCLSyncHost(v));
    v->offloadmask = PETSC_OFFLOAD_CPU;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode VecOpenCLSyncHostAll_Private(Vec out, PetscInt n, const Vec in[])
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) PetscCall(VecOpenCLSyncHost(in[i]));
  if (out) PetscCall(VecOpenCLSyncHost(out));
  PetscFunctionReturn(0);
}

PetscErrorCode VecOpenCLHostWritten_Private(Vec out)
{
  PetscBool is;

  PetscFunctionBegin;
  PetscCall(VecOpenCLIsDevice_Private(out, &is));
  if (is) out->offloadmask = PETSC_OFFLOAD_CPU;
  PetscCall(PetscObjectStateIncrease((PetscObject)out));
  PetscFunctionReturn(0);
}

/* Is w a device vector on the same device context as v (so a kernel can take both buffers)? PETSc's interface has
   checked that the local lengths agree. */
PetscErrorCode VecOpenCLSameDevice_Private(Vec v, Vec w, PetscBool *same)
{
  PetscBool is;

  PetscFunctionBegin;
  PetscCall(VecOpenCLIsDevice_Private(w, &is));
  *same = (is && VecCLData(w)->cl == VecCLData(v)->cl) ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* All of w[0..n) usable by a kernel together with v? */
PetscErrorCode VecOpenCLAllSameDevice_Private(Vec v, PetscInt n, const Vec w[], PetscBool *same)
{
  PetscFunctionBegin;
  *same = PETSC_TRUE;
  for (PetscInt i = 0; i < n && *same; i++) PetscCall(VecOpenCLSameDevice_Private(v, w[i], same));
  PetscFunctionReturn(0);
}

/* A kernel of kernels/vecops.cl built for v's geometry: every macro it reads comes from here (the tuning of the
   vector's context, the scalar size, and the kernel's subset: its program is built on the first use of one of its kernels). */
PetscErrorCode VecOpenCLGetKernel_Private(Vec v, VecCLKernelId id, cl_kernel *k)
{
  Vec_OpenCL *s = VecCLData(v);

  PetscFunctionBegin;
  if (!s->k[id]) {
    char opts[128];

    PetscCall(PetscSNPrintf(opts, sizeof(opts), "-DSBPMG_VEC_WG=%d -DSBPMG_VEC_CHUNKS=%d -DSBPMG_VEC_REAL_BYTES=%d -DSBPMG_VEC_KERNELS=%d", (int)s->wg,
                            (int)s->chunks, (int)sizeof(PetscScalar), VecCLKernels[id].subset));
    PetscCall(SbpmgCLGetKernel(s->cl, "vecops", opts, VecCLKernels[id].name, &s->k[id]));
  }
  *k = s->k[id];
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- device access (public) */

/* The buffer of v for a kernel of the caller's (func) that reads it (synced to the device first) and/or writes it
   (refused on a locked vector) */
static PetscErrorCode VecOpenCLAccess(Vec v, cl_mem *mem, const char func[], PetscBool reads, PetscBool writes)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLCheckType(v, 1, func));
  PetscValidPointer(mem, 2);
  if (writes) PetscCall(VecSetErrorIfLocked(v, 1));
  if (reads) PetscCall(VecOpenCLSyncDevice(v));
  *mem = VecCLData(v)->buf;
  PetscFunctionReturn(0);
}

/* The device copy was written: it is the only current one, and the values changed. PETSc 3.18's interface functions do
   not all increase the object state when they call an operation (VecShift() does not), and cached norms live by it. */
PetscErrorCode VecOpenCLDeviceWritten_Private(Vec v)
{
  PetscFunctionBegin;
  VecCLData(v)->zero_due = PETSC_FALSE; /* read first (synced), or every value overwritten */
  v->offloadmask         = PETSC_OFFLOAD_GPU;
  PetscCall(PetscObjectStateIncrease((PetscObject)v));
  PetscFunctionReturn(0);
}

/* The end of an access: after a kernel that wrote, the device copy is the only current one and the state increases */
static PetscErrorCode VecOpenCLEndAccess(Vec v, cl_mem *mem, const char func[], PetscBool wrote)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLCheckType(v, 1, func));
  PetscValidPointer(mem, 2);
  *mem = NULL;
  if (wrote) PetscCall(VecOpenCLDeviceWritten_Private(v));
  PetscFunctionReturn(0);
}

/*@C
   VecOpenCLGetBufferRead - The OpenCL buffer of a device vector, for a kernel that reads the values; copies them to
   the device first if only the host copy is current.

   Not Collective

   Input Parameter:
.  v - the vector, VECSEQOPENCL or VECMPIOPENCL

   Output Parameter:
.  mem - the buffer; entries [0, n) are the values, n the local length (the buffer is longer: the rest is the
         vector's reduction area). Of a VECMPIOPENCL this is the local part: global entry rstart + i is entry i.

   Notes:
   The kernel must be enqueued on the queue of the vector's context (VecOpenCLGetCL()). Call VecOpenCLRestoreBufferRead() when done.

   Level: intermediate

.seealso: `VecOpenCLGetBufferWrite()`, `VecOpenCLGetBuffer()`, `VecOpenCLGetCL()`
@*/
PetscErrorCode VecOpenCLGetBufferRead(Vec v, cl_mem *mem)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLAccess(v, mem, "VecOpenCLGetBufferRead", PETSC_TRUE, PETSC_FALSE));
  PetscFunctionReturn(0);
}

/*@C
   VecOpenCLRestoreBufferRead - Return a buffer obtained with VecOpenCLGetBufferRead(); the values are unchanged.

   Level: intermediate
@*/
PetscErrorCode VecOpenCLRestoreBufferRead(Vec v, cl_mem *mem)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLEndAccess(v, mem, "VecOpenCLRestoreBufferRead", PETSC_FALSE));
  PetscFunctionReturn(0);
}

/*@C
   VecOpenCLGetBufferWrite - The OpenCL buffer of a device vector (VECSEQOPENCL, or the local part of a VECMPIOPENCL),
   for a kernel that overwrites every local value; no transfer. Not collective.

   Notes:
   After VecOpenCLRestoreBufferWrite() only the device copy is current.

   Level: intermediate

.seealso: `VecOpenCLGetBufferRead()`, `VecOpenCLGetBuffer()`
@*/
PetscErrorCode VecOpenCLGetBufferWrite(Vec v, cl_mem *mem)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLAccess(v, mem, "VecOpenCLGetBufferWrite", PETSC_FALSE, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/*@C
   VecOpenCLRestoreBufferWrite - Return a buffer obtained with VecOpenCLGetBufferWrite(): the device copy becomes the
   only current one and the vector's state increases (cached norms are dropped).

   Level: intermediate
@*/
PetscErrorCode VecOpenCLRestoreBufferWrite(Vec v, cl_mem *mem)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLEndAccess(v, mem, "VecOpenCLRestoreBufferWrite", PETSC_TRUE));
  PetscFunctionReturn(0);
}

/*@C
   VecOpenCLGetBuffer - The OpenCL buffer of a device vector (VECSEQOPENCL, or the local part of a VECMPIOPENCL), for a
   kernel that reads and writes the values; copies them to the device first if only the host copy is current. Not
   collective.

   Level: intermediate

.seealso: `VecOpenCLRestoreBuffer()`, `VecOpenCLGetBufferRead()`, `VecOpenCLGetBufferWrite()`
@*/
PetscErrorCode VecOpenCLGetBuffer(Vec v, cl_mem *mem)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLAccess(v, mem, "VecOpenCLGetBuffer", PETSC_TRUE, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/*@C
   VecOpenCLRestoreBuffer - Return a buffer obtained with VecOpenCLGetBuffer(): the device copy becomes the only
   current one and the vector's state increases.

   Level: intermediate
@*/
PetscErrorCode VecOpenCLRestoreBuffer(Vec v, cl_mem *mem)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLEndAccess(v, mem, "VecOpenCLRestoreBuffer", PETSC_TRUE));
  PetscFunctionReturn(0);
}

/*@C
   VecOpenCLGetCL - The device context of a device vector (borrowed: do not destroy it). Of a VECMPIOPENCL: the
   context of this rank's local part.

   Level: intermediate
@*/
PetscErrorCode VecOpenCLGetCL(Vec v, SbpmgCL *cl)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLCheckType(v, 1, "VecOpenCLGetCL"));
  PetscValidPointer(cl, 2);
  *cl = VecCLData(v)->cl;
  PetscFunctionReturn(0);
}

PetscErrorCode VecOpenCLGetReductionGeometry(Vec v, size_t *wg, PetscInt *rgroups)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLCheckType(v, 1, "VecOpenCLGetReductionGeometry"));
  *wg      = VecCLData(v)->wg;
  *rgroups = VecCLData(v)->rgroups;
  PetscFunctionReturn(0);
}

/*@C
   VecIsOpenCL - Whether a vector keeps its values on an OpenCL device (type VECSEQOPENCL or VECMPIOPENCL).

   Level: beginner
@*/
PetscErrorCode VecIsOpenCL(Vec v, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(v, VEC_CLASSID, 1);
  PetscValidBoolPointer(flg, 2);
  PetscCall(PetscObjectTypeCompareAny((PetscObject)v, flg, VECSEQOPENCL, VECMPIOPENCL, ""));
  PetscFunctionReturn(0);
}
