/* VECSEQOPENCL: a PETSc Vec whose values live in an OpenCL buffer, with a host mirror and an offload mask; and what
   it shares with VECMPIOPENCL (src/vec/vecmpiopencl.c), whose local part is kept the same way.

   The type is VECSEQ underneath: the constructor calls VecCreate_Seq(), replaces the data by a Vec_OpenCL (which
   starts with room for VECSEQ's own data, VECHEADER first, so the host array stays where VECSEQ's functions look for
   it), keeps VECSEQ's operation table in hostops and overrides every operation. Those in src/vec/vecopencl_ops.c run
   on the device; the rest (here) sync the values to the host, call the host type's function, and record where the
   values are valid afterwards. VECMPIOPENCL does the same on top of VecCreate_MPI().

   Offload mask (Vec->offloadmask), see docs/design.md "Device vectors":
     PETSC_OFFLOAD_BOTH  host and device agree (a new vector: zero on both sides)
     PETSC_OFFLOAD_GPU   only the device copy is current (after any device operation that writes)
     PETSC_OFFLOAD_CPU   only the host copy is current (after VecGetArray/VecGetArrayWrite or a host fallback)
   All transfers go through SbpmgCLWriteBuffer/SbpmgCLReadBuffer, which count them and log CLCopyToDevice/CLCopyToHost. */
#include <sbpmg/private/vecimpl.h>

static const char *const VecCLKernelNames[] = {
    "vec_set",         "vec_copy",           "vec_scale",        "vec_shift",        "vec_scalecopy",   "vec_axpy",      "vec_aypx",
    "vec_axpby",       "vec_waxpby",         "vec_axpbypcz",     "vec_maxpy",        "vec_pointwise",   "vec_unary",     "vec_reduce1_partial",
    "vec_dot_partial", "vec_norm12_partial", "vec_amax_partial", "vec_mdot_partial", "vec_loc_partial", "vec_sum_final", "vec_max_final",
    "vec_loc_final"};
_Static_assert(sizeof(VecCLKernelNames) / sizeof(VecCLKernelNames[0]) == VEC_CL_NKERNELS, "one kernel name per VecCLKernelId");

/* ---------------------------------------------------------------- offload state */

/* Whole-vector transfers made to keep host and device copies in step (the scalar results of reductions not counted). */
static PetscLogDouble vec_cl_syncs_htod = 0, vec_cl_syncs_dtoh = 0;

/*@C
   VecOpenCLGetSyncCounts - How many times, since the program started, a device vector (VECSEQOPENCL, or the local part
   of a VECMPIOPENCL) of this process copied its values host -> device and device -> host to keep its two copies in step. Scalar results of reductions are not
counted here (SbpmgCLGetStats() counts every transfer).

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

/*@C
   VecOpenCLSyncDevice - Make the device copy of a device vector (VECSEQOPENCL, or the local part of a VECMPIOPENCL)
   current, copying the host values to the device if only the host copy is; afterwards both copies are valid. Does
   nothing for vectors of other types. Not collective.

   Level: developer
@*/
PetscErrorCode VecOpenCLSyncDevice(Vec v)
{
  PetscBool   is;
  Vec_OpenCL *s;

  PetscFunctionBegin;
  PetscCall(VecOpenCLIsDevice_Private(v, &is));
  if (!is) PetscFunctionReturn(0);
  s = VecCLData(v);
  if (v->offloadmask == PETSC_OFFLOAD_CPU) {
    PetscCall(SbpmgCLWriteBuffer(s->cl, s->buf, 0, (size_t)v->map->n * sizeof(PetscScalar), s->array));
    v->offloadmask = PETSC_OFFLOAD_BOTH;
    vec_cl_syncs_htod += 1;
  }
  PetscFunctionReturn(0);
}

/*@C
   VecOpenCLSyncHost - Make the host copy of a device vector (VECSEQOPENCL, or the local part of a VECMPIOPENCL)
   current, copying the device values to the host if only the device copy is; afterwards both copies are valid. Does
   nothing for vectors of other types. Not collective.

   Level: developer
@*/
PetscErrorCode VecOpenCLSyncHost(Vec v)
{
  PetscBool   is;
  Vec_OpenCL *s;

  PetscFunctionBegin;
  PetscCall(VecOpenCLIsDevice_Private(v, &is));
  if (!is) PetscFunctionReturn(0);
  s = VecCLData(v);
  if (v->offloadmask == PETSC_OFFLOAD_GPU) {
    PetscCall(SbpmgCLReadBuffer(s->cl, s->buf, 0, (size_t)v->map->n * sizeof(PetscScalar), s->array));
    v->offloadmask = PETSC_OFFLOAD_BOTH;
    vec_cl_syncs_dtoh += 1;
  }
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

PetscErrorCode VecOpenCLGetKernel_Private(Vec v, VecCLKernelId id, cl_kernel *k)
{
  Vec_OpenCL *s = VecCLData(v);

  PetscFunctionBegin;
  if (!s->k[id]) {
    char opts[160];

    PetscCall(PetscSNPrintf(opts, sizeof(opts), "-DVEC_WG=%d -DVEC_CPU=%d -DVEC_REAL_BYTES=%d -DVEC_COUNTER_SLOT=%d -DVEC_NV_MEMBAR=%d", (int)s->wg,
                            (int)s->cpu, (int)sizeof(PetscScalar), VEC_CL_COUNTER_SLOT, strstr(s->cl->platform_name, "NVIDIA") ? 1 : 0));
    PetscCall(SbpmgCLGetKernel(s->cl, "vecops", opts, VecCLKernelNames[id], &s->k[id]));
  }
  *k = s->k[id];
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- host access */

/* In host_passthrough mode (VECMPI's VecAssemblyEnd() with nothing to receive) the array is handed out as it is and
   the offload mask is left alone: nothing is written through it. */
static PetscErrorCode VecGetArray_SeqOpenCL(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  if (!VecCLData(v)->host_passthrough) PetscCall(VecOpenCLHostModify_Private(v));
  *a = VecCLData(v)->array;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecRestoreArray_SeqOpenCL(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  if (!VecCLData(v)->host_passthrough) v->offloadmask = PETSC_OFFLOAD_CPU;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecGetArrayRead_SeqOpenCL(Vec v, const PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLSyncHost(v));
  *a = VecCLData(v)->array;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecRestoreArrayRead_SeqOpenCL(Vec v, const PetscScalar **a)
{
  PetscFunctionBegin;
  PetscFunctionReturn(0);
}

/* The caller overwrites every entry: no transfer. */
static PetscErrorCode VecGetArrayWrite_SeqOpenCL(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  v->offloadmask = PETSC_OFFLOAD_CPU;
  *a             = VecCLData(v)->array;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecRestoreArrayWrite_SeqOpenCL(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  v->offloadmask = PETSC_OFFLOAD_CPU;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- device access (public) */

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
  PetscCall(VecOpenCLCheckType(v, 1, "VecOpenCLGetBufferRead"));
  PetscValidPointer(mem, 2);
  PetscCall(VecOpenCLSyncDevice(v));
  *mem = VecCLData(v)->buf;
  PetscFunctionReturn(0);
}

/*@C
   VecOpenCLRestoreBufferRead - Return a buffer obtained with VecOpenCLGetBufferRead(); the values are unchanged.

   Level: intermediate
@*/
PetscErrorCode VecOpenCLRestoreBufferRead(Vec v, cl_mem *mem)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLCheckType(v, 1, "VecOpenCLRestoreBufferRead"));
  PetscValidPointer(mem, 2);
  *mem = NULL;
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
  PetscCall(VecOpenCLCheckType(v, 1, "VecOpenCLGetBufferWrite"));
  PetscValidPointer(mem, 2);
  PetscCall(VecSetErrorIfLocked(v, 1));
  *mem = VecCLData(v)->buf;
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
  PetscCall(VecOpenCLCheckType(v, 1, "VecOpenCLRestoreBufferWrite"));
  PetscValidPointer(mem, 2);
  v->offloadmask = PETSC_OFFLOAD_GPU;
  *mem           = NULL;
  PetscCall(PetscObjectStateIncrease((PetscObject)v));
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
  PetscCall(VecOpenCLCheckType(v, 1, "VecOpenCLGetBuffer"));
  PetscValidPointer(mem, 2);
  PetscCall(VecSetErrorIfLocked(v, 1));
  PetscCall(VecOpenCLSyncDevice(v));
  *mem = VecCLData(v)->buf;
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
  PetscCall(VecOpenCLRestoreBufferWrite(v, mem));
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

/* ---------------------------------------------------------------- host fallbacks
   Each syncs the vectors it reads to the host, calls the host type's function (VECSEQ's or VECMPI's), and marks the
   vectors it writes as valid on the host only. Vectors of other types pass through untouched (the sync and mark
   functions ignore them). */

#define VecCLHost(v) (&VecCLData(v)->hostops)

static PetscErrorCode VecSetValues_SeqOpenCL(Vec v, PetscInt n, const PetscInt ix[], const PetscScalar y[], InsertMode m)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLHostModify_Private(v));
  PetscCall(VecCLHost(v)->setvalues(v, n, ix, y, m));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecSetValuesBlocked_SeqOpenCL(Vec v, PetscInt n, const PetscInt ix[], const PetscScalar y[], InsertMode m)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLHostModify_Private(v));
  PetscCall(VecCLHost(v)->setvaluesblocked(v, n, ix, y, m));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecGetValues_SeqOpenCL(Vec v, PetscInt n, const PetscInt ix[], PetscScalar y[])
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLSyncHost(v));
  PetscCall(VecCLHost(v)->getvalues(v, n, ix, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecView_SeqOpenCL(Vec v, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLSyncHost(v));
  PetscCall(VecCLHost(v)->view(v, viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecViewNative_SeqOpenCL(Vec v, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLSyncHost(v));
  PetscCall(VecCLHost(v)->viewnative(v, viewer));
  PetscFunctionReturn(0);
}

/* Every entry is overwritten: mark the host copy current first, so nothing is transferred. */
static PetscErrorCode VecLoad_SeqOpenCL(Vec v, PetscViewer viewer)
{
  PetscFunctionBegin;
  v->offloadmask = PETSC_OFFLOAD_CPU;
  PetscCall(VecCLHost(v)->load(v, viewer));
  v->offloadmask = PETSC_OFFLOAD_CPU;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecSetRandom_SeqOpenCL(Vec v, PetscRandom r)
{
  PetscFunctionBegin;
  v->offloadmask = PETSC_OFFLOAD_CPU;
  PetscCall(VecCLHost(v)->setrandom(v, r));
  v->offloadmask = PETSC_OFFLOAD_CPU;
  PetscFunctionReturn(0);
}

/* The current values go to the array being set aside (it holds them again after VecResetArray()). */
static PetscErrorCode VecPlaceArray_SeqOpenCL(Vec v, const PetscScalar *a)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLHostModify_Private(v));
  PetscCall(VecCLHost(v)->placearray(v, a));
  v->offloadmask = PETSC_OFFLOAD_CPU;
  PetscFunctionReturn(0);
}

/* The current values go to the placed array before it is given back. */
static PetscErrorCode VecResetArray_SeqOpenCL(Vec v)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLHostModify_Private(v));
  PetscCall(VecCLHost(v)->resetarray(v));
  v->offloadmask = PETSC_OFFLOAD_CPU;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecReplaceArray_SeqOpenCL(Vec v, const PetscScalar *a)
{
  PetscFunctionBegin;
  v->offloadmask = PETSC_OFFLOAD_CPU;
  PetscCall(VecCLHost(v)->replacearray(v, a));
  v->offloadmask = PETSC_OFFLOAD_CPU;
  PetscFunctionReturn(0);
}

/* The stride operations read one vector and write (or add into) the other: both go to the host, both are marked. */
static PetscErrorCode VecStrideGather_SeqOpenCL(Vec v, PetscInt start, Vec s, InsertMode addv)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLHostModify_Private(v));
  PetscCall(VecOpenCLHostModify_Private(s));
  PetscCall(VecCLHost(v)->stridegather(v, start, s, addv));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecStrideScatter_SeqOpenCL(Vec v, PetscInt start, Vec s, InsertMode addv)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLHostModify_Private(v));
  PetscCall(VecOpenCLHostModify_Private(s));
  PetscCall(VecCLHost(v)->stridescatter(v, start, s, addv));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecStrideSubSetGather_SeqOpenCL(Vec v, PetscInt n, const PetscInt iv[], const PetscInt is[], Vec s, InsertMode addv)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLHostModify_Private(v));
  PetscCall(VecOpenCLHostModify_Private(s));
  PetscCall(VecCLHost(v)->stridesubsetgather(v, n, iv, is, s, addv));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecStrideSubSetScatter_SeqOpenCL(Vec v, PetscInt n, const PetscInt iv[], const PetscInt is[], Vec s, InsertMode addv)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLHostModify_Private(v));
  PetscCall(VecOpenCLHostModify_Private(s));
  PetscCall(VecCLHost(v)->stridesubsetscatter(v, n, iv, is, s, addv));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecSetPreallocationCOO_SeqOpenCL(Vec v, PetscCount n, const PetscInt idx[])
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLHostModify_Private(v));
  PetscCall(VecCLHost(v)->setpreallocationcoo(v, n, idx));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecSetValuesCOO_SeqOpenCL(Vec v, const PetscScalar y[], InsertMode m)
{
  PetscFunctionBegin;
  PetscCall(VecOpenCLHostModify_Private(v));
  PetscCall(VecCLHost(v)->setvaluescoo(v, y, m));
  PetscFunctionReturn(0);
}

/* VecGetSubVector(): a new VECSEQOPENCL holding a copy of the selected entries (a device copy for a contiguous index
   set), written back by VecRestoreSubVector() if it was changed. PETSc's default would hand out a VECSEQ viewing the
   host array, whose writes the offload mask of the parent would not see. */
static PetscErrorCode VecGetSubVector_SeqOpenCL(Vec X, IS is, Vec *Y)
{
  Vec_OpenCL *xs = VecCLData(X), *ys;
  PetscInt    m, start, bs;
  PetscBool   contig;

  PetscFunctionBegin;
  PetscCall(ISGetLocalSize(is, &m));
  PetscCall(ISGetBlockSize(is, &bs));
  PetscCall(ISContiguousLocal(is, 0, X->map->n, &start, &contig));
  PetscCall(VecCreate(PetscObjectComm((PetscObject)X), Y));
  PetscCall(VecSetSizes(*Y, m, m));
  if (bs > 1 && m % bs == 0) PetscCall(VecSetBlockSize(*Y, bs));
  {
    PetscErrorCode ierr = VecCreate_SeqOpenCL_Private(*Y, xs->cl);
    if (ierr) {
      PetscCall(VecDestroy(Y));
      PetscCall(ierr);
    }
  }
  ys = VecCLData(*Y);
  if (contig) {
    PetscCall(VecOpenCLSyncDevice(X));
    PetscCall(SbpmgCLCopyBuffer(xs->cl, xs->buf, ys->buf, (size_t)start * sizeof(PetscScalar), 0, (size_t)m * sizeof(PetscScalar)));
    (*Y)->offloadmask = PETSC_OFFLOAD_GPU;
    ys->sub_start     = start;
  } else {
    const PetscScalar *x;
    PetscScalar       *y;
    const PetscInt    *idx;

    PetscCall(VecGetArrayRead(X, &x));
    PetscCall(VecGetArrayWrite(*Y, &y));
    PetscCall(ISGetIndices(is, &idx));
    for (PetscInt i = 0; i < m; i++) y[i] = x[idx[i]];
    PetscCall(ISRestoreIndices(is, &idx));
    PetscCall(VecRestoreArrayWrite(*Y, &y));
    PetscCall(VecRestoreArrayRead(X, &x));
    ys->sub_start = -1;
  }
  PetscCall(PetscObjectStateGet((PetscObject)*Y, &ys->sub_state));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecRestoreSubVector_SeqOpenCL(Vec X, IS is, Vec *Y)
{
  Vec_OpenCL      *xs = VecCLData(X), *ys = VecCLData(*Y);
  PetscObjectState state;

  PetscFunctionBegin;
  PetscCall(PetscObjectStateGet((PetscObject)*Y, &state));
  if (state != ys->sub_state) {
    PetscInt m = (*Y)->map->n;

    if (ys->sub_start >= 0) {
      PetscCall(VecOpenCLSyncDevice(X));
      PetscCall(VecOpenCLSyncDevice(*Y));
      PetscCall(SbpmgCLCopyBuffer(xs->cl, ys->buf, xs->buf, 0, (size_t)ys->sub_start * sizeof(PetscScalar), (size_t)m * sizeof(PetscScalar)));
      X->offloadmask = PETSC_OFFLOAD_GPU;
      PetscCall(PetscObjectStateIncrease((PetscObject)X));
    } else {
      const PetscScalar *y;
      PetscScalar       *x;
      const PetscInt    *idx;

      PetscCall(VecGetArrayRead(*Y, &y));
      PetscCall(VecGetArray(X, &x));
      PetscCall(ISGetIndices(is, &idx));
      for (PetscInt i = 0; i < m; i++) x[idx[i]] = y[i];
      PetscCall(ISRestoreIndices(is, &idx));
      PetscCall(VecRestoreArray(X, &x));
      PetscCall(VecRestoreArrayRead(*Y, &y));
    }
  }
  PetscCall(VecDestroy(Y));
  PetscFunctionReturn(0);
}

PetscErrorCode VecOpenCLSetHostOps_Private(Vec v)
{
  VecOps ops = v->ops;

  PetscFunctionBegin;
  ops->getarray            = VecGetArray_SeqOpenCL;
  ops->restorearray        = VecRestoreArray_SeqOpenCL;
  ops->getarrayread        = VecGetArrayRead_SeqOpenCL;
  ops->restorearrayread    = VecRestoreArrayRead_SeqOpenCL;
  ops->getarraywrite       = VecGetArrayWrite_SeqOpenCL;
  ops->restorearraywrite   = VecRestoreArrayWrite_SeqOpenCL;
  ops->setvalues           = VecSetValues_SeqOpenCL;
  ops->setvaluesblocked    = VecSetValuesBlocked_SeqOpenCL;
  ops->getvalues           = VecGetValues_SeqOpenCL;
  ops->view                = VecView_SeqOpenCL;
  ops->viewnative          = VecViewNative_SeqOpenCL;
  ops->load                = VecLoad_SeqOpenCL;
  ops->setrandom           = VecSetRandom_SeqOpenCL;
  ops->placearray          = VecPlaceArray_SeqOpenCL;
  ops->resetarray          = VecResetArray_SeqOpenCL;
  ops->replacearray        = VecReplaceArray_SeqOpenCL;
  ops->stridegather        = VecStrideGather_SeqOpenCL;
  ops->stridescatter       = VecStrideScatter_SeqOpenCL;
  ops->stridesubsetgather  = VecStrideSubSetGather_SeqOpenCL;
  ops->stridesubsetscatter = VecStrideSubSetScatter_SeqOpenCL;
  ops->setpreallocationcoo = VecSetPreallocationCOO_SeqOpenCL;
  ops->setvaluescoo        = VecSetValuesCOO_SeqOpenCL;
  ops->getsubvector        = VecGetSubVector_SeqOpenCL;
  ops->restoresubvector    = VecRestoreSubVector_SeqOpenCL;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- construction and destruction */

static PetscErrorCode VecDestroy_OpenCL(Vec v)
{
  Vec_OpenCL *s = VecCLData(v);

  PetscFunctionBegin;
  if (s) {
    PetscErrorCode (*hostdestroy)(Vec) = s->hostops.destroy;

    PetscCall(VecScatterDestroy(&s->sub_scatter));
    if (s->buf) PetscCall(SbpmgCLReleaseBuffer(s->cl, &s->buf));
    PetscCall(SbpmgCLDestroy(&s->cl));
    /* VECSEQ's (VECMPI's) destroy frees the host array, the host type's own allocations and v->data, which is s (it
       starts with the host type's data) */
    if (hostdestroy)
      PetscCall(hostdestroy(v));
    else
      PetscCall(PetscFree(v->data));
  }
  PetscFunctionReturn(0);
}

/* Same type, layout and device context. */
static PetscErrorCode VecDuplicate_OpenCL(Vec win, Vec *V)
{
  Vec_OpenCL *ws = VecCLData(win);

  PetscFunctionBegin;
  PetscCall(VecCreate(PetscObjectComm((PetscObject)win), V));
  PetscCall(PetscLayoutReference(win->map, &(*V)->map));
  {
    PetscErrorCode ierr = ws->parallel ? VecCreate_MPIOpenCL_Private(*V, ws->cl) : VecCreate_SeqOpenCL_Private(*V, ws->cl);
    if (ierr) {
      PetscCall(VecDestroy(V));
      PetscCall(ierr);
    }
  }
  PetscCall(PetscArraycpy(VecCLData(*V)->k, ws->k, VEC_CL_NKERNELS)); /* same context, same local length, same kernels */
  PetscCall(PetscObjectListDuplicate(((PetscObject)win)->olist, &((PetscObject)(*V))->olist));
  PetscCall(PetscFunctionListDuplicate(((PetscObject)win)->qlist, &((PetscObject)(*V))->qlist));
  (*V)->ops->view          = win->ops->view;
  (*V)->stash.ignorenegidx = win->stash.ignorenegidx;
  PetscFunctionReturn(0);
}

/* Launch geometry: a function of the local length and the device only, so reductions are reproducible. */
static PetscErrorCode VecOpenCLGeometry(SbpmgCL cl, PetscInt n, Vec_OpenCL *s)
{
  size_t   wg = 256, maxwg = cl->max_work_group_size ? cl->max_work_group_size : 1;
  PetscInt cu = cl->compute_units ? (PetscInt)cl->compute_units : 1, need, emax, rmax;

  PetscFunctionBegin;
  while (wg > maxwg) wg /= 2;
  s->wg  = wg;
  s->cpu = (cl->type & CL_DEVICE_TYPE_GPU) ? PETSC_FALSE : PETSC_TRUE;
  if (s->cpu) { /* a few work-groups per core, each item on one contiguous chunk */
    emax = 4 * cu;
    rmax = 4 * cu;
  } else { /* GPUs: a full wave of resident work-groups (grid-stride beyond), fewer for reductions */
    emax = 32 * cu;
    rmax = 8 * cu;
  }
  rmax       = PetscMin(rmax, 4096);
  need       = (PetscInt)(((size_t)n + wg - 1) / wg);
  s->egroups = PetscMax(1, PetscMin(need, emax));
  s->rgroups = PetscMax(1, PetscMin(need, rmax));
  PetscFunctionReturn(0);
}

/* Turn v, just made a VECSEQ (VecCreate_Seq) or a VECMPI (VecCreate_MPI), into a device vector on the context cl:
   replace its data by a Vec_OpenCL that starts with the host type's (only VECHEADER is set there after those
   constructors; the rest is zero), keep the host operations, install ours, allocate the buffer (zero, like the host
   array). On error v stays destroyable. */
PetscErrorCode VecOpenCLConvert_Private(Vec v, SbpmgCL cl, PetscBool parallel)
{
  Vec_OpenCL *s;
  PetscScalar zero = 0;
  size_t      bytes;

  PetscFunctionBegin;
  PetscCall(PetscNew(&s)); /* zeroed, VEC_CL_HOST_RESERVE included */
  {
    PetscScalar **host = (PetscScalar **)v->data; /* only its VECHEADER part (three pointers) is read */

    s->array           = host[0];
    s->array_allocated = host[1];
    s->unplacedarray   = host[2];
  }
  PetscCall(PetscFree(v->data));
  v->data     = s;
  s->hostops  = *v->ops;
  s->parallel = parallel;
  PetscCall(SbpmgCLReference(cl));
  s->cl             = cl;
  s->sub_start      = -1;
  v->ops->destroy   = VecDestroy_OpenCL;
  v->ops->duplicate = VecDuplicate_OpenCL;
  PetscCall(VecOpenCLSetHostOps_Private(v));
  PetscCall(VecOpenCLSetDeviceOps_Private(v));
  PetscCall(PetscObjectChangeTypeName((PetscObject)v, parallel ? VECMPIOPENCL : VECSEQOPENCL));
  PetscCall(VecOpenCLGeometry(cl, v->map->n, s));
  bytes = ((size_t)v->map->n + VEC_CL_NRES + (size_t)VEC_CL_MAX_FUSE * (size_t)s->rgroups) * sizeof(PetscScalar);
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, &s->buf));
  PetscCall(SbpmgCLFillBuffer(cl, s->buf, &zero, sizeof(zero), 0, bytes)); /* the reduction area too: its counter starts at 0 */
  v->offloadmask = PETSC_OFFLOAD_BOTH;                                     /* zero on both sides */
  PetscFunctionReturn(0);
}

/* Turn v (type not set yet, sizes set) into a VECSEQOPENCL on the device context cl. On error v stays destroyable. */
PetscErrorCode VecCreate_SeqOpenCL_Private(Vec v, SbpmgCL cl)
{
  PetscMPIInt size;
  MPI_Comm    comm = PetscObjectComm((PetscObject)v);

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCheck(size == 1, comm, PETSC_ERR_ARG_WRONG,
             "VECSEQOPENCL is a sequential vector but its communicator has %d MPI ranks: use VECOPENCL (VecCreateOpenCL()) or VECMPIOPENCL for a parallel "
             "device vector, or create it on PETSC_COMM_SELF",
             size);
  PetscCheck(sizeof(PetscScalar) < 8 || cl->fp64, comm, PETSC_ERR_SUP,
             "PetscScalar is double but the OpenCL device %s has no cl_khr_fp64 (double precision) support", cl->device_name);
  PetscCall(VecCreate_Seq(v)); /* host array (zeroed), VECSEQ's operations, petscnative */
  PetscCall(VecOpenCLConvert_Private(v, cl, PETSC_FALSE));
  PetscFunctionReturn(0);
}

/* The constructor VecSetType(v, VECSEQOPENCL) calls: on the default device context. */
static PetscErrorCode VecCreate_SeqOpenCL(Vec v)
{
  SbpmgCL cl;

  PetscFunctionBegin;
  PetscCall(SbpmgCLGetDefault(&cl));
  PetscCall(VecCreate_SeqOpenCL_Private(v, cl));
  PetscFunctionReturn(0);
}

/* VecSetType(v, VECMPIOPENCL): on the default device context (any number of ranks, like VECMPI). */
static PetscErrorCode VecCreate_MPIOpenCL(Vec v)
{
  SbpmgCL cl;

  PetscFunctionBegin;
  PetscCall(SbpmgCLGetDefault(&cl));
  PetscCall(VecCreate_MPIOpenCL_Private(v, cl));
  PetscFunctionReturn(0);
}

/* VECOPENCL: VECSEQOPENCL on one rank, VECMPIOPENCL on more (as VECSTANDARD is VECSEQ or VECMPI). */
static PetscErrorCode VecCreate_OpenCL(Vec v)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)v), &size));
  if (size > 1)
    PetscCall(VecCreate_MPIOpenCL(v));
  else
    PetscCall(VecCreate_SeqOpenCL(v));
  PetscFunctionReturn(0);
}

/*@C
   VecCreateSeqOpenCL - Create a sequential vector whose values live on the default OpenCL device (SbpmgCLGetDefault()).

   Collective (on a one-rank communicator)

   Input Parameters:
+  comm - a communicator of one rank (PETSC_COMM_SELF)
-  n    - the length

   Output Parameter:
.  v - the vector, of type VECSEQOPENCL, zero on host and device

   Options Database Keys:
.  -vec_type seqopencl - select this type in VecSetFromOptions()

   Level: beginner

.seealso: `VecCreateOpenCL()`, `VecOpenCLGetBufferRead()`, `SbpmgCLGetDefault()`
@*/
PetscErrorCode VecCreateSeqOpenCL(MPI_Comm comm, PetscInt n, Vec *v)
{
  PetscFunctionBegin;
  PetscValidPointer(v, 3);
  PetscCheck(n >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "Vector length %" PetscInt_FMT " must be >= 0", n);
  PetscCall(SbpmgVecInitializePackage());
  PetscCall(VecCreate(comm, v));
  PetscCall(VecSetSizes(*v, n, n));
  {
    PetscErrorCode ierr = VecSetType(*v, VECSEQOPENCL);
    if (ierr) {
      PetscCall(VecDestroy(v));
      PetscCall(ierr);
    }
  }
  PetscFunctionReturn(0);
}

/*@C
   VecCreateSeqOpenCLWithContext - Create a sequential device vector on a given OpenCL device context.

   Collective (on a one-rank communicator)

   Input Parameters:
+  comm - a communicator of one rank (PETSC_COMM_SELF)
.  cl   - the device context (the vector takes a reference)
-  n    - the length

   Output Parameter:
.  v - the vector, of type VECSEQOPENCL, zero on host and device

   Notes:
   Device operations between vectors of different contexts fall back to the host.

   Level: intermediate

.seealso: `VecCreateSeqOpenCL()`, `VecCreateOpenCLWithContext()`, `SbpmgCLCreate()`
@*/
PetscErrorCode VecCreateSeqOpenCLWithContext(MPI_Comm comm, SbpmgCL cl, PetscInt n, Vec *v)
{
  PetscFunctionBegin;
  PetscValidPointer(cl, 2);
  PetscValidPointer(v, 4);
  PetscCheck(n >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "Vector length %" PetscInt_FMT " must be >= 0", n);
  PetscCall(SbpmgVecInitializePackage());
  PetscCall(VecCreate(comm, v));
  {
    PetscErrorCode ierr = VecSetSizes(*v, n, n);
    if (!ierr) ierr = VecCreate_SeqOpenCL_Private(*v, cl);
    if (ierr) {
      PetscCall(VecDestroy(v));
      PetscCall(ierr);
    }
  }
  PetscFunctionReturn(0);
}

/*@C
   VecCreateOpenCL - Create a device vector of type VECOPENCL: VECSEQOPENCL on one rank, VECMPIOPENCL on more.

   Collective

   Input Parameters:
+  comm - the communicator
.  n    - local length (or PETSC_DECIDE)
-  N    - global length (or PETSC_DETERMINE)

   Output Parameter:
.  v - the vector, zero on host and device; each rank's local part lives on that rank's device (SbpmgCLGetDefault())

   Options Database Keys:
.  -vec_type opencl - select this type in VecSetFromOptions() (also DMSetVecType(dm, VECOPENCL) for DM vectors)

   Level: beginner

.seealso: `VecCreateSeqOpenCL()`, `VecCreateOpenCLWithContext()`, `VecOpenCLGetBufferRead()`
@*/
PetscErrorCode VecCreateOpenCL(MPI_Comm comm, PetscInt n, PetscInt N, Vec *v)
{
  PetscFunctionBegin;
  PetscValidPointer(v, 4);
  PetscCall(SbpmgVecInitializePackage());
  PetscCall(VecCreate(comm, v));
  {
    PetscErrorCode ierr = VecSetSizes(*v, n, N);
    if (!ierr) ierr = VecSetType(*v, VECOPENCL);
    if (ierr) {
      PetscCall(VecDestroy(v));
      PetscCall(ierr);
    }
  }
  PetscFunctionReturn(0);
}

/*@C
   VecCreateOpenCLWithContext - Create a device vector (VECSEQOPENCL on one rank, VECMPIOPENCL on more) whose local part
   lives on a given device context of this rank.

   Collective

   Input Parameters:
+  comm - the communicator
.  cl   - this rank's device context (the vector takes a reference)
.  n    - local length (or PETSC_DECIDE)
-  N    - global length (or PETSC_DETERMINE)

   Output Parameter:
.  v - the vector, zero on host and device

   Level: intermediate

.seealso: `VecCreateOpenCL()`, `SbpmgCLCreate()`
@*/
PetscErrorCode VecCreateOpenCLWithContext(MPI_Comm comm, SbpmgCL cl, PetscInt n, PetscInt N, Vec *v)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscValidPointer(cl, 2);
  PetscValidPointer(v, 5);
  PetscCall(SbpmgVecInitializePackage());
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(VecCreate(comm, v));
  {
    PetscErrorCode ierr = VecSetSizes(*v, n, N);
    if (!ierr) ierr = size > 1 ? VecCreate_MPIOpenCL_Private(*v, cl) : VecCreate_SeqOpenCL_Private(*v, cl);
    if (ierr) {
      PetscCall(VecDestroy(v));
      PetscCall(ierr);
    }
  }
  PetscFunctionReturn(0);
}

/* Called once by SbpmgRegisterTypes(). */
PetscLogEvent    SBPMG_VecBlas, SBPMG_VecReduce;
static PetscBool SbpmgVecPackageInitialized = PETSC_FALSE;

static PetscErrorCode SbpmgVecFinalizePackage(void)
{
  PetscFunctionBegin;
  SbpmgVecPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*@C
   SbpmgVecInitializePackage - Register the device vector types (VECSEQOPENCL, VECMPIOPENCL, VECOPENCL) and their log
   events, after the device layer's. Idempotent; called by the device vector constructors and the initializers of the
   layers above.

   Level: developer

.seealso: `SbpmgInitializePackage()`
@*/
PetscErrorCode SbpmgVecInitializePackage(void)
{
  PetscFunctionBegin;
  if (SbpmgVecPackageInitialized) PetscFunctionReturn(0);
  SbpmgVecPackageInitialized = PETSC_TRUE;
  PetscCall(SbpmgCLInitializePackage());
  PetscCall(SbpmgLogRegisterEvent("CLVecBlas1", SBPMG_CLASSID, &SBPMG_VecBlas));
  PetscCall(SbpmgLogRegisterEvent("CLVecReduce", SBPMG_CLASSID, &SBPMG_VecReduce));
  PetscCall(VecRegister(VECSEQOPENCL, VecCreate_SeqOpenCL));
  PetscCall(VecRegister(VECMPIOPENCL, VecCreate_MPIOpenCL));
  PetscCall(VecRegister(VECOPENCL, VecCreate_OpenCL));
  PetscCall(PetscRegisterFinalize(SbpmgVecFinalizePackage));
  PetscFunctionReturn(0);
}
