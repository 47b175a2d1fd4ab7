/* Host access to a device vector (the array accessors) and the host fallbacks: the operations with no device version
   sync the vectors they read to the host, call the host type's function (VECSEQ's or VECMPI's, kept in hostops), and
   record where the values are valid afterwards (docs/design.md "Device vectors", "Fallbacks"). */
#include <sbpmg/private/vecimpl.h>

/* ---------------------------------------------------------------- host access

   The accessors allocate the host array at the first host access (VecOpenCLSyncHost, VecOpenCLHostOverwrite_Private).
   In host_passthrough mode (VECMPI's VecAssemblyEnd() with nothing to receive) the array is handed out as it is (NULL
   if the vector has none yet) and the offload mask is left alone: nothing is read or written through it. */
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
  PetscCall(VecOpenCLHostOverwrite_Private(v));
  *a = VecCLData(v)->array;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecRestoreArrayWrite_SeqOpenCL(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  v->offloadmask = PETSC_OFFLOAD_CPU;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- host fallbacks

   VEC_CL_FALLBACK(name, op, params, args, before, after) defines name(params): `before`, the host type's op(args),
   `after`. What comes before and after says how the function uses the vector v: */
#define VEC_CL_FALLBACK(name, op, params, args, before, after) \
  static PetscErrorCode name params                            \
  {                                                            \
    PetscFunctionBegin;                                        \
    before;                                                    \
    PetscCall(VecCLHost(v)->op args);                          \
    after;                                                     \
    PetscFunctionReturn(0);                                    \
  }
#define VEC_CL_READS     PetscCall(VecOpenCLSyncHost(v))              /* v read: its host copy made current */
#define VEC_CL_WRITES    PetscCall(VecOpenCLHostModify_Private(v))    /* v changed: host copy current, then the only one */
#define VEC_CL_OVERWRITE PetscCall(VecOpenCLHostOverwrite_Private(v)) /* every entry overwritten: no transfer */
/* a stride operation: v and s both go to the host and are marked */
#define VEC_CL_TWO                           \
  PetscCall(VecOpenCLHostModify_Private(v)); \
  PetscCall(VecOpenCLHostModify_Private(s))
#define VEC_CL_NOTHING (void)0

VEC_CL_FALLBACK(VecSetValues_SeqOpenCL, setvalues, (Vec v, PetscInt n, const PetscInt ix[], const PetscScalar y[], InsertMode m), (v, n, ix, y, m),
                VEC_CL_WRITES, VEC_CL_NOTHING)
VEC_CL_FALLBACK(VecSetValuesBlocked_SeqOpenCL, setvaluesblocked, (Vec v, PetscInt n, const PetscInt ix[], const PetscScalar y[], InsertMode m),
                (v, n, ix, y, m), VEC_CL_WRITES, VEC_CL_NOTHING)
VEC_CL_FALLBACK(VecGetValues_SeqOpenCL, getvalues, (Vec v, PetscInt n, const PetscInt ix[], PetscScalar y[]), (v, n, ix, y), VEC_CL_READS, VEC_CL_NOTHING)
VEC_CL_FALLBACK(VecView_SeqOpenCL, view, (Vec v, PetscViewer viewer), (v, viewer), VEC_CL_READS, VEC_CL_NOTHING)
VEC_CL_FALLBACK(VecViewNative_SeqOpenCL, viewnative, (Vec v, PetscViewer viewer), (v, viewer), VEC_CL_READS, VEC_CL_NOTHING)
VEC_CL_FALLBACK(VecLoad_SeqOpenCL, load, (Vec v, PetscViewer viewer), (v, viewer), VEC_CL_OVERWRITE, VEC_CL_OVERWRITE)
VEC_CL_FALLBACK(VecSetRandom_SeqOpenCL, setrandom, (Vec v, PetscRandom r), (v, r), VEC_CL_OVERWRITE, VEC_CL_OVERWRITE)
/* place: the current values go to the array being set aside (it holds them again after VecResetArray()); reset: the
   current values go to the placed array before it is given back */
VEC_CL_FALLBACK(VecPlaceArray_SeqOpenCL, placearray, (Vec v, const PetscScalar *a), (v, a), VEC_CL_WRITES, VEC_CL_OVERWRITE)
VEC_CL_FALLBACK(VecResetArray_SeqOpenCL, resetarray, (Vec v), (v), VEC_CL_WRITES, VEC_CL_OVERWRITE)
/* replace: the host type frees its array (if one was allocated) and takes the new one */
VEC_CL_FALLBACK(VecReplaceArray_SeqOpenCL, replacearray, (Vec v, const PetscScalar *a), (v, a), VEC_CL_NOTHING, VEC_CL_OVERWRITE)
VEC_CL_FALLBACK(VecStrideGather_SeqOpenCL, stridegather, (Vec v, PetscInt start, Vec s, InsertMode addv), (v, start, s, addv), VEC_CL_TWO, VEC_CL_NOTHING)
VEC_CL_FALLBACK(VecStrideScatter_SeqOpenCL, stridescatter, (Vec v, PetscInt start, Vec s, InsertMode addv), (v, start, s, addv), VEC_CL_TWO, VEC_CL_NOTHING)
VEC_CL_FALLBACK(VecStrideSubSetGather_SeqOpenCL, stridesubsetgather, (Vec v, PetscInt n, const PetscInt iv[], const PetscInt is[], Vec s, InsertMode addv),
                (v, n, iv, is, s, addv), VEC_CL_TWO, VEC_CL_NOTHING)
VEC_CL_FALLBACK(VecStrideSubSetScatter_SeqOpenCL, stridesubsetscatter, (Vec v, PetscInt n, const PetscInt iv[], const PetscInt is[], Vec s, InsertMode addv),
                (v, n, iv, is, s, addv), VEC_CL_TWO, VEC_CL_NOTHING)
VEC_CL_FALLBACK(VecSetPreallocationCOO_SeqOpenCL, setpreallocationcoo, (Vec v, PetscCount n, const PetscInt idx[]), (v, n, idx), VEC_CL_WRITES, VEC_CL_NOTHING)
VEC_CL_FALLBACK(VecSetValuesCOO_SeqOpenCL, setvaluescoo, (Vec v, const PetscScalar y[], InsertMode m), (v, y, m), VEC_CL_WRITES, VEC_CL_NOTHING)

/* ---------------------------------------------------------------- subvectors

   VecGetSubVector(): a new VECSEQOPENCL holding a copy of the selected entries (a device copy for a contiguous index
   set), written back by VecRestoreSubVector() if it was changed. PETSc's default would hand out a VECSEQ viewing the
   host array, whose writes the offload mask of the parent would not see. */

/* y[i] = x[idx[i]] (forward) or x[idx[i]] = y[i] on the host, for the m indices of is */
static PetscErrorCode VecCLGatherHost(Vec X, IS is, Vec Y, PetscBool forward)
{
  const PetscScalar *from;
  PetscScalar       *to;
  const PetscInt    *idx;
  PetscInt           m;

  PetscFunctionBegin;
  PetscCall(ISGetLocalSize(is, &m));
  PetscCall(VecGetArrayRead(forward ? X : Y, &from));
  if (forward)
    PetscCall(VecGetArrayWrite(Y, &to));
  else
    PetscCall(VecGetArray(X, &to));
  PetscCall(ISGetIndices(is, &idx));
  for (PetscInt i = 0; i < m; i++) {
    if (forward)
      to[i] = from[idx[i]];
    else
      to[idx[i]] = from[i];
  }
  PetscCall(ISRestoreIndices(is, &idx));
  if (forward)
    PetscCall(VecRestoreArrayWrite(Y, &to));
  else
    PetscCall(VecRestoreArray(X, &to));
  PetscCall(VecRestoreArrayRead(forward ? X : Y, &from));
  PetscFunctionReturn(0);
}

PetscErrorCode VecOpenCLCreateSubVector_Private(Vec X, IS is, PetscBool contig, PetscInt start, Vec *Y)
{
  Vec_OpenCL *xs = VecCLData(X), *ys;
  PetscInt    m, bs;

  PetscFunctionBegin;
  PetscCall(ISGetLocalSize(is, &m));
  PetscCall(ISGetBlockSize(is, &bs));
  PetscCall(VecCreate(PetscObjectComm((PetscObject)X), Y));
  PetscCall(VecSetSizes(*Y, m, xs->parallel ? PETSC_DETERMINE : m));
  if (bs > 1 && m % bs == 0) PetscCall(VecSetBlockSize(*Y, bs));
  {
    PetscErrorCode ierr = xs->parallel ? VecCreate_MPIOpenCL_Private(*Y, xs->cl) : VecCreate_SeqOpenCL_Private(*Y, xs->cl);
    if (ierr) {
      PetscCall(VecDestroy(Y));
      PetscCall(ierr);
    }
  }
  ys = VecCLData(*Y);
  if (contig) {
    PetscCall(VecOpenCLSyncDevice(X));
    PetscCall(SbpmgCLCopyBuffer(xs->cl, xs->buf, ys->buf, (size_t)start * sizeof(PetscScalar), 0, (size_t)m * sizeof(PetscScalar)));
    PetscCall(VecOpenCLDeviceWritten_Private(*Y)); /* every value copied */
    ys->sub_start = start;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode VecOpenCLCopyBackSubVector_Private(Vec X, Vec Y)
{
  Vec_OpenCL *xs = VecCLData(X), *ys = VecCLData(Y);

  PetscFunctionBegin;
  PetscCall(VecOpenCLSyncDevice(X));
  PetscCall(VecOpenCLSyncDevice(Y));
  PetscCall(SbpmgCLCopyBuffer(xs->cl, ys->buf, xs->buf, 0, (size_t)ys->sub_start * sizeof(PetscScalar), (size_t)Y->map->n * sizeof(PetscScalar)));
  X->offloadmask = PETSC_OFFLOAD_GPU;
  PetscCall(PetscObjectStateIncrease((PetscObject)X));
  PetscFunctionReturn(0);
}

/* A contiguous index set is a device copy, any other a host gather */
static PetscErrorCode VecGetSubVector_SeqOpenCL(Vec X, IS is, Vec *Y)
{
  PetscInt  start;
  PetscBool contig;

  PetscFunctionBegin;
  PetscCall(ISContiguousLocal(is, 0, X->map->n, &start, &contig));
  PetscCall(VecOpenCLCreateSubVector_Private(X, is, contig, start, Y));
  if (!contig) PetscCall(VecCLGatherHost(X, is, *Y, PETSC_TRUE));
  PetscCall(PetscObjectStateGet((PetscObject)*Y, &VecCLData(*Y)->sub_state));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecRestoreSubVector_SeqOpenCL(Vec X, IS is, Vec *Y)
{
  PetscObjectState state;

  PetscFunctionBegin;
  PetscCall(PetscObjectStateGet((PetscObject)*Y, &state));
  if (state != VecCLData(*Y)->sub_state) {
    if (VecCLData(*Y)->sub_start >= 0)
      PetscCall(VecOpenCLCopyBackSubVector_Private(X, *Y));
    else
      PetscCall(VecCLGatherHost(X, is, *Y, PETSC_FALSE));
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
