/* The single-precision V-cycle's level vectors (docs/design.md "The single-precision V-cycle"): a PETSc Vec whose values live in an
   fp32 buffer on the level's device. PCMG runs its cycles (V, W, full, Kaskade, additive) on them unchanged: it only sets them
   (VecSet, VecZeroEntries), duplicates them and hands them to the smoothers, the residual, the transfers and the coarse solve.
   Every operation that computes on them is one of the multigrid layer's kernels, which take the buffer (PCSBPMGBuffersGet); the
   coarse solve and any other host code reach the values through VecGetArray*, a host mirror in PetscScalar that is converted
   when it crosses. Arithmetic (VecAXPY, VecNorm, ...) is not implemented: PETSc's error says so.

   VecSet(v, 0) writes nothing: the vector is marked zero, a sweep from it reads no iterate, and a reader that needs the buffer has
   it filled then. On the finest level the vector may stand for an fp64 device vector: its source (the right-hand side, converted
   by the first kernel that reads it) or its target (the V-cycle's result: the smoother's last sweep writes it in fp64). */
#include <sbpmg/private/mgimpl.h>
#include "sbpmg_kernel_args.h"

typedef struct {
  SbpProblem      p;   /* the level (layout and device context; holds a reference) */
  cl_mem          buf; /* the local values in fp32 (room for one at least) */
  PetscInt        n;   /* local values */
  PCSBPMGVecState state;
  PetscScalar    *host;      /* the host mirror, made at the first host access */
  Vec             src, dst;  /* the fp64 source and target (references; NULL: none) */
  PetscInt        countdown; /* smoother applications left until the one that writes dst */
} Vec_MGFP32;

#define MGFP32(v) ((Vec_MGFP32 *)(v)->data)

PetscErrorCode PCSBPMGVecIsSingle(Vec v, PetscBool *single)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)v, VECMGFP32, single));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSBPMGVecCheck(Vec v)
{
  PetscBool single;

  PetscFunctionBegin;
  PetscCall(PCSBPMGVecIsSingle(v, &single));
  PetscCheck(single, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Vector of type %s is not a single-precision level vector (%s)", ((PetscObject)v)->type_name,
             VECMGFP32);
  PetscFunctionReturn(0);
}

/* y = x converted between fp32 and fp64 on the device (kernels/transfer.cl mg_to_single, mg_to_outer): n values. */
static PetscErrorCode PCSBPMGVecConvert(SbpProblem p, PetscBool to_single, PetscInt n, cl_mem x, cl_mem y)
{
  cl_kernel k;
  int       nn = (int)n;

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(0);
  PetscCall(PCSBPMGGetProblemKernel(p, SBP_KERNEL_FP32, &p->tune, to_single ? MG_K_TO_SINGLE : MG_K_TO_OUTER, &k));
  PetscCall(SbpmgLogKernelBegin(SBPMG_MGTransfer));
  {
    const struct {
      SbpmgCLArgValue n, x, y;
    } a = {.n = SbpmgCLArgInt(nn), .x = SbpmgCLArgMem(x), .y = SbpmgCLArgMem(y)};
    if (to_single)
      SBPMG_CL_SET_ARGS(k, mg_to_single, &a);
    else
      SBPMG_CL_SET_ARGS(k, mg_to_outer, &a);
  }
  PetscCall(SbpmgCLLaunch1DGuarded(p->cl, k, (size_t)n));
  PetscCall(SbpmgLogKernelEnd(SBPMG_MGTransfer, p->cl, 0, (PetscLogDouble)n * (sizeof(float) + sizeof(PetscScalar))));
  PetscFunctionReturn(0);
}

/* The fp64 device vector w converted into v's buffer. */
static PetscErrorCode PCSBPMGVecFromOuter(Vec v, Vec w)
{
  Vec_MGFP32 *d = MGFP32(v);
  cl_mem      wb;

  PetscFunctionBegin;
  PetscCall(VecOpenCLGetBufferRead(w, &wb));
  PetscCall(PCSBPMGVecConvert(d->p, PETSC_TRUE, d->n, wb, d->buf));
  PetscCall(VecOpenCLRestoreBufferRead(w, &wb));
  PetscFunctionReturn(0);
}

/* Make the buffer hold the values (filled, uploaded or converted from the source or target); the state becomes DEVICE or BOTH. */
static PetscErrorCode PCSBPMGVecSyncDevice(Vec v)
{
  Vec_MGFP32 *d = MGFP32(v);

  PetscFunctionBegin;
  switch (d->state) {
  case PCSBPMG_VEC_DEVICE:
  case PCSBPMG_VEC_BOTH:
    break;
  case PCSBPMG_VEC_ZERO: {
    const float zero = 0;
    if (d->n) PetscCall(SbpmgCLFillBuffer(d->p->cl, d->buf, &zero, sizeof(zero), 0, (size_t)d->n * sizeof(float)));
    d->state = PCSBPMG_VEC_DEVICE;
  } break;
  case PCSBPMG_VEC_HOST: {
    float *t;
    PetscCall(PetscMalloc1(PetscMax(d->n, 1), &t));
    for (PetscInt i = 0; i < d->n; i++) t[i] = (float)d->host[i];
    if (d->n) PetscCall(SbpmgCLWriteBuffer(d->p->cl, d->buf, 0, (size_t)d->n * sizeof(float), t));
    PetscCall(PetscFree(t));
    d->state = PCSBPMG_VEC_BOTH;
  } break;
  case PCSBPMG_VEC_SOURCE:
    PetscCall(PCSBPMGVecFromOuter(v, d->src));
    d->state = PCSBPMG_VEC_DEVICE;
    break;
  case PCSBPMG_VEC_TARGET:
    PetscCall(PCSBPMGVecFromOuter(v, d->dst));
    d->state = PCSBPMG_VEC_DEVICE;
    break;
  }
  PetscFunctionReturn(0);
}

/* Make the host mirror hold the values; the state becomes HOST, BOTH or stays ZERO. */
static PetscErrorCode PCSBPMGVecSyncHost(Vec v)
{
  Vec_MGFP32 *d = MGFP32(v);

  PetscFunctionBegin;
  if (!d->host) PetscCall(PetscMalloc1(PetscMax(d->n, 1), &d->host));
  switch (d->state) {
  case PCSBPMG_VEC_HOST:
  case PCSBPMG_VEC_BOTH:
    break;
  case PCSBPMG_VEC_ZERO:
    PetscCall(PetscArrayzero(d->host, d->n));
    break;
  case PCSBPMG_VEC_DEVICE: {
    float *t;
    PetscCall(PetscMalloc1(PetscMax(d->n, 1), &t));
    if (d->n) PetscCall(SbpmgCLReadBuffer(d->p->cl, d->buf, 0, (size_t)d->n * sizeof(float), t));
    for (PetscInt i = 0; i < d->n; i++) d->host[i] = t[i];
    PetscCall(PetscFree(t));
    d->state = PCSBPMG_VEC_BOTH;
  } break;
  case PCSBPMG_VEC_SOURCE:
  case PCSBPMG_VEC_TARGET: { /* the fp64 values rounded to fp32, as the buffer would hold them */
    const PetscScalar *a;
    Vec                w = d->state == PCSBPMG_VEC_SOURCE ? d->src : d->dst;
    PetscCall(VecGetArrayRead(w, &a));
    for (PetscInt i = 0; i < d->n; i++) d->host[i] = (float)a[i];
    PetscCall(VecRestoreArrayRead(w, &a));
    d->state = PCSBPMG_VEC_HOST;
  } break;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGVecGetState(Vec v, PCSBPMGVecState *state)
{
  PetscFunctionBegin;
  PetscCall(PCSBPMGVecCheck(v));
  *state = MGFP32(v)->state;
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGVecGetSource(Vec v, Vec *src)
{
  PetscFunctionBegin;
  PetscCall(PCSBPMGVecCheck(v));
  *src = MGFP32(v)->state == PCSBPMG_VEC_SOURCE ? MGFP32(v)->src : NULL;
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGVecSetSource(Vec v, Vec src)
{
  Vec_MGFP32 *d;

  PetscFunctionBegin;
  PetscCall(PCSBPMGVecCheck(v));
  d = MGFP32(v);
  PetscCall(PetscObjectReference((PetscObject)src));
  PetscCall(VecDestroy(&d->src));
  d->src   = src;
  d->state = PCSBPMG_VEC_SOURCE;
  PetscCall(PetscObjectStateIncrease((PetscObject)v));
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGVecSetTarget(Vec v, Vec dst, PetscInt countdown)
{
  Vec_MGFP32 *d;

  PetscFunctionBegin;
  PetscCall(PCSBPMGVecCheck(v));
  d = MGFP32(v);
  PetscCall(PetscObjectReference((PetscObject)dst));
  PetscCall(VecDestroy(&d->dst));
  d->dst       = dst;
  d->countdown = countdown;
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGVecTargetStep(Vec v, Vec *dst)
{
  Vec_MGFP32 *d = MGFP32(v);

  PetscFunctionBegin;
  *dst = NULL;
  if (!d->dst || d->countdown <= 0) PetscFunctionReturn(0);
  if (--d->countdown == 0) *dst = d->dst;
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGVecTargetWritten(Vec v)
{
  PetscFunctionBegin;
  MGFP32(v)->state = PCSBPMG_VEC_TARGET;
  PetscCall(PetscObjectStateIncrease((PetscObject)v));
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGVecFinish(Vec v)
{
  Vec_MGFP32 *d;

  PetscFunctionBegin;
  PetscCall(PCSBPMGVecCheck(v));
  d = MGFP32(v);
  if (d->dst && d->state != PCSBPMG_VEC_TARGET) { /* the last write was not the smoother's: convert */
    cl_mem db;
    PetscCall(PCSBPMGVecSyncDevice(v));
    PetscCall(VecOpenCLGetBufferWrite(d->dst, &db));
    PetscCall(PCSBPMGVecConvert(d->p, PETSC_FALSE, d->n, d->buf, db));
    PetscCall(VecOpenCLRestoreBufferWrite(d->dst, &db));
  }
  if (d->state == PCSBPMG_VEC_SOURCE || d->state == PCSBPMG_VEC_TARGET) d->state = PCSBPMG_VEC_ZERO; /* nothing of its own */
  PetscCall(VecDestroy(&d->src));
  PetscCall(VecDestroy(&d->dst));
  d->countdown = 0;
  PetscFunctionReturn(0);
}

/* v = w rounded: on the device where w is a device vector; else (a host vector: the smoother's 1/diag of an assembled preconditioning
   matrix, -sbp_pmat assembled) through the host mirror, converted by the first kernel that reads v. */
PetscErrorCode PCSBPMGVecFromDevice(Vec v, Vec w)
{
  Vec_MGFP32 *d;
  PetscBool   dev;
  PetscInt    n;

  PetscFunctionBegin;
  PetscCall(PCSBPMGVecCheck(v));
  d = MGFP32(v);
  PetscCall(VecGetLocalSize(w, &n));
  PetscCheck(n == d->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
             "Vector of local size %" PetscInt_FMT " cannot be rounded into a level vector of local size %" PetscInt_FMT, n, d->n);
  PetscCall(VecIsOpenCL(w, &dev));
  if (dev) {
    PetscCall(PCSBPMGVecFromOuter(v, w));
    d->state = PCSBPMG_VEC_DEVICE;
  } else {
    const PetscScalar *a;
    if (!d->host) PetscCall(PetscMalloc1(PetscMax(d->n, 1), &d->host));
    PetscCall(VecGetArrayRead(w, &a));
    for (PetscInt i = 0; i < d->n; i++) d->host[i] = (float)a[i]; /* as the buffer will hold them */
    PetscCall(VecRestoreArrayRead(w, &a));
    d->state = PCSBPMG_VEC_HOST;
  }
  PetscCall(PetscObjectStateIncrease((PetscObject)v));
  PetscFunctionReturn(0);
}

/* The fp64 device vector w = v (converted on the device): the coarsest level's fp64 vectors under PETSc's own coarse solver. */
PetscErrorCode PCSBPMGVecToDevice(Vec v, Vec w)
{
  Vec_MGFP32 *d;
  cl_mem      wb;

  PetscFunctionBegin;
  PetscCall(PCSBPMGVecCheck(v));
  d = MGFP32(v);
  PetscCall(PCSBPMGVecSyncDevice(v));
  PetscCall(VecOpenCLGetBufferWrite(w, &wb));
  PetscCall(PCSBPMGVecConvert(d->p, PETSC_FALSE, d->n, d->buf, wb));
  PetscCall(VecOpenCLRestoreBufferWrite(w, &wb));
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGVecGetBuffer(Vec v, SbpAccess mode, cl_mem *mem)
{
  Vec_MGFP32 *d;

  PetscFunctionBegin;
  PetscCall(PCSBPMGVecCheck(v));
  d = MGFP32(v);
  if (mode != SBP_WRITE) PetscCall(PCSBPMGVecSyncDevice(v));
  if (mode != SBP_READ) d->state = PCSBPMG_VEC_DEVICE;
  *mem = d->buf;
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGVecRestoreBuffer(Vec v, SbpAccess mode, cl_mem *mem)
{
  PetscFunctionBegin;
  *mem = NULL;
  if (mode != SBP_READ) PetscCall(PetscObjectStateIncrease((PetscObject)v));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the buffers of a launch, of either kind of vector */

PetscErrorCode PCSBPMGBuffersGet(SbpBuffers *b, Vec v, SbpAccess mode, cl_mem *mem)
{
  PetscBool single;

  PetscFunctionBegin;
  *mem = NULL;
  if (!v) PetscFunctionReturn(0);
  PetscCall(PCSBPMGVecIsSingle(v, &single));
  if (!single) {
    PetscCall(SbpBuffersGet(b, v, mode, mem));
    PetscFunctionReturn(0);
  }
  PetscCheck(b->n < 8, PETSC_COMM_SELF, PETSC_ERR_PLIB, "More than 8 vectors in one launch");
  PetscCall(PCSBPMGVecGetBuffer(v, mode, mem));
  b->v[b->n]    = v;
  b->mode[b->n] = mode;
  b->mem[b->n]  = *mem;
  b->n++;
  PetscFunctionReturn(0);
}

PetscErrorCode PCSBPMGBuffersRestore(SbpBuffers *b)
{
  SbpBuffers fp64 = {0};

  PetscFunctionBegin;
  for (PetscInt t = 0; t < b->n; t++) {
    PetscBool single;
    PetscCall(PCSBPMGVecIsSingle(b->v[t], &single));
    if (single)
      PetscCall(PCSBPMGVecRestoreBuffer(b->v[t], b->mode[t], &b->mem[t]));
    else {
      fp64.v[fp64.n]    = b->v[t];
      fp64.mode[fp64.n] = b->mode[t];
      fp64.mem[fp64.n]  = b->mem[t];
      fp64.n++;
    }
  }
  PetscCall(SbpBuffersRestore(&fp64));
  b->n = 0;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the Vec operations */

static PetscErrorCode VecDestroy_MGFP32(Vec v)
{
  Vec_MGFP32 *d = MGFP32(v);

  PetscFunctionBegin;
  PetscCall(SbpmgCLReleaseBuffer(d->p->cl, &d->buf));
  PetscCall(PetscFree(d->host));
  PetscCall(VecDestroy(&d->src));
  PetscCall(VecDestroy(&d->dst));
  PetscCall(SbpProblemDestroy(&d->p));
  PetscCall(PetscFree(v->data));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecDuplicate_MGFP32(Vec v, Vec *w)
{
  PetscFunctionBegin;
  PetscCall(PCSBPMGVecCreate(MGFP32(v)->p, w));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecSet_MGFP32(Vec v, PetscScalar alpha)
{
  Vec_MGFP32 *d = MGFP32(v);

  PetscFunctionBegin;
  if (alpha == 0)
    d->state = PCSBPMG_VEC_ZERO;
  else {
    const float a = (float)alpha;
    if (d->n) PetscCall(SbpmgCLFillBuffer(d->p->cl, d->buf, &a, sizeof(a), 0, (size_t)d->n * sizeof(float)));
    d->state = PCSBPMG_VEC_DEVICE;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode VecCopy_MGFP32(Vec x, Vec y)
{
  Vec_MGFP32 *dx = MGFP32(x), *dy = MGFP32(y);

  PetscFunctionBegin;
  PetscCall(PCSBPMGVecCheck(y));
  if (dx->state == PCSBPMG_VEC_ZERO) {
    dy->state = PCSBPMG_VEC_ZERO;
    PetscFunctionReturn(0);
  }
  PetscCall(PCSBPMGVecSyncDevice(x));
  if (dx->n) PetscCall(SbpmgCLCopyBuffer(dx->p->cl, dx->buf, dy->buf, 0, 0, (size_t)dx->n * sizeof(float)));
  dy->state = PCSBPMG_VEC_DEVICE;
  PetscFunctionReturn(0);
}

/* Exchange the values (buffers, mirrors and states); the source and target stay with each vector. */
static PetscErrorCode VecSwap_MGFP32(Vec x, Vec y)
{
  Vec_MGFP32     *dx = MGFP32(x), *dy = MGFP32(y);
  cl_mem          b = dx->buf;
  PetscScalar    *h = dx->host;
  PCSBPMGVecState s = dx->state;

  PetscFunctionBegin;
  PetscCall(PCSBPMGVecCheck(y));
  PetscCheck(s != PCSBPMG_VEC_SOURCE && s != PCSBPMG_VEC_TARGET && dy->state != PCSBPMG_VEC_SOURCE && dy->state != PCSBPMG_VEC_TARGET, PETSC_COMM_SELF,
             PETSC_ERR_PLIB, "A level vector standing for an fp64 vector cannot be swapped");
  dx->buf   = dy->buf;
  dx->host  = dy->host;
  dx->state = dy->state;
  dy->buf   = b;
  dy->host  = h;
  dy->state = s;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecGetArray_MGFP32(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(PCSBPMGVecSyncHost(v));
  MGFP32(v)->state = PCSBPMG_VEC_HOST;
  *a               = MGFP32(v)->host;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecGetArrayRead_MGFP32(Vec v, const PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(PCSBPMGVecSyncHost(v));
  *a = MGFP32(v)->host;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecGetArrayWrite_MGFP32(Vec v, PetscScalar **a)
{
  Vec_MGFP32 *d = MGFP32(v);

  PetscFunctionBegin;
  if (!d->host) PetscCall(PetscMalloc1(PetscMax(d->n, 1), &d->host));
  d->state = PCSBPMG_VEC_HOST;
  *a       = d->host;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecRestoreArray_MGFP32(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  *a = NULL;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecRestoreArrayRead_MGFP32(Vec v, const PetscScalar **a)
{
  PetscFunctionBegin;
  *a = NULL;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecGetSize_MGFP32(Vec v, PetscInt *N)
{
  PetscFunctionBegin;
  *N = v->map->N;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecGetLocalSize_MGFP32(Vec v, PetscInt *n)
{
  PetscFunctionBegin;
  *n = v->map->n;
  PetscFunctionReturn(0);
}

/* The values through a host vector of PETSc's own type on the mirror. */
static PetscErrorCode VecView_MGFP32(Vec v, PetscViewer viewer)
{
  Vec                w;
  const PetscScalar *a;
  PetscMPIInt        size;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(v, &a));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)v), &size));
  if (size > 1)
    PetscCall(VecCreateMPIWithArray(PetscObjectComm((PetscObject)v), 1, v->map->n, v->map->N, a, &w));
  else
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, v->map->n, a, &w));
  PetscCall(VecView(w, viewer));
  PetscCall(VecDestroy(&w));
  PetscCall(VecRestoreArrayRead(v, &a));
  PetscFunctionReturn(0);
}

/*@C
   PCSBPMGVecCreate - A single-precision level vector laid out like the owned nodes of the problem's grid, on its device; zero.

   Collective

   Level: developer
@*/
PetscErrorCode PCSBPMGVecCreate(SbpProblem p, Vec *v)
{
  Vec_MGFP32 *d;

  PetscFunctionBegin;
  PetscCheck(p->use_device, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_WRONGSTATE, "Single-precision level vectors need the device backend");
  PetscCall(VecCreate(PetscObjectComm((PetscObject)p), v));
  PetscCall(VecSetSizes(*v, p->xm * p->ym, (p->Nr + 1) * (p->Ns + 1)));
  PetscCall(PetscLayoutSetUp((*v)->map));
  PetscCall(PetscNew(&d));
  d->p = p;
  PetscCall(PetscObjectReference((PetscObject)p));
  d->n                         = p->xm * p->ym;
  d->state                     = PCSBPMG_VEC_ZERO;
  (*v)->data                   = d;
  (*v)->petscnative            = PETSC_FALSE;
  (*v)->ops->destroy           = VecDestroy_MGFP32;
  (*v)->ops->duplicate         = VecDuplicate_MGFP32;
  (*v)->ops->duplicatevecs     = VecDuplicateVecsClean_Private;
  (*v)->ops->destroyvecs       = VecDestroyVecs_Default;
  (*v)->ops->set               = VecSet_MGFP32;
  (*v)->ops->copy              = VecCopy_MGFP32;
  (*v)->ops->swap              = VecSwap_MGFP32;
  (*v)->ops->getarray          = VecGetArray_MGFP32;
  (*v)->ops->restorearray      = VecRestoreArray_MGFP32;
  (*v)->ops->getarrayread      = VecGetArrayRead_MGFP32;
  (*v)->ops->restorearrayread  = VecRestoreArrayRead_MGFP32;
  (*v)->ops->getarraywrite     = VecGetArrayWrite_MGFP32;
  (*v)->ops->restorearraywrite = VecRestoreArray_MGFP32;
  (*v)->ops->view              = VecView_MGFP32;
  (*v)->ops->getsize           = VecGetSize_MGFP32;
  (*v)->ops->getlocalsize      = VecGetLocalSize_MGFP32;
  PetscCall(PetscObjectChangeTypeName((PetscObject)*v, VECMGFP32));
  {
    PetscErrorCode ierr = SbpmgCLCreateBuffer(p->cl, CL_MEM_READ_WRITE, (size_t)PetscMax(d->n, 1) * sizeof(float), &d->buf);
    if (ierr) PetscCall(VecDestroy(v)); /* nothing left behind */
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}
