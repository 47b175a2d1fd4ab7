/* VECSEQOPENCL: a PETSc Vec whose values live in an OpenCL buffer, with a host mirror and an offload mask; its
   construction (shared with VECMPIOPENCL, src/vec/vecmpiopencl.c, whose local part is kept the same way), the public
   constructors and the registration of the types.

   The type is VECSEQ underneath: the constructor calls VecCreate_Seq() (on a layout of length 0, so that it allocates
   no host array), replaces the data by a Vec_OpenCL (which starts with room for VECSEQ's own data, VECHEADER first,
   so the host array is where VECSEQ's functions look for it once there is one), keeps VECSEQ's operation table in
   hostops and overrides every operation: the device ones (src/vec/vecopencl_elem.c, src/vec/vecopencl_reduce.c) and
   the host fallbacks (src/vec/vecopencl_host.c), which sync the values to the host (allocating the host array at the
   first host access), call the host type's function, and record where the values are valid afterwards
   (src/vec/vecopencl_state.c). VECMPIOPENCL does the same on top of VecCreate_MPI(). */
#include <sbpmg/private/vecimpl.h>

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
    /* VECSEQ's (VECMPI's) destroy frees the host array if one was allocated (array_allocated), the host type's own
       allocations and v->data, which is s (it starts with the host type's data) */
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

/* m duplicates of w, for every Vec type of the library: PETSc's default leaves a half-made array of uninitialised handles when
   the k-th duplicate fails (a device allocation), which KSPReset() then destroys; here the made ones are destroyed and *V is NULL. */
PetscErrorCode VecDuplicateVecsClean_Private(Vec w, PetscInt m, Vec *V[])
{
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  PetscCheck(m > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "m must be > 0: m = %" PetscInt_FMT, m);
  PetscCall(PetscCalloc1(m, V));
  for (PetscInt i = 0; i < m && !ierr; i++) ierr = VecDuplicate(w, *V + i);
  if (ierr) {
    for (PetscInt i = 0; i < m; i++) PetscCall(VecDestroy(*V + i));
    PetscCall(PetscFree(*V));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

/* Launch geometry from the context's tuning (include/sbpmg/private/tuning.h, the VEC block): a function of the local
   length and the context only, so reductions are reproducible. */
static PetscErrorCode VecOpenCLGeometry(SbpmgCL cl, PetscInt n, Vec_OpenCL *s)
{
  const SbpmgTuning *t  = &cl->tune;
  size_t             wg = (size_t)t->vec_wg, maxwg = cl->max_work_group_size ? cl->max_work_group_size : 1;
  PetscInt           cu = cl->compute_units ? (PetscInt)cl->compute_units : 1, need;

  PetscFunctionBegin;
  PetscCheck((wg & (wg - 1)) == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "-sbpmg_tune vec_wg=%zu is not a power of two (the reduction trees of kernels/vecops.cl need one)", wg);
  while (wg > maxwg) wg /= 2;
  s->wg      = wg;
  s->chunks  = t->vec_chunks ? PETSC_TRUE : PETSC_FALSE;
  need       = (PetscInt)(((size_t)n + wg - 1) / wg);
  s->egroups = PetscMax(1, PetscMin(need, t->vec_egroups_per_cu * cu));
  s->rgroups = PetscMax(1, PetscMin(need, PetscMin(t->vec_rgroups_per_cu * cu, t->vec_rgroups_max)));
  PetscFunctionReturn(0);
}

/* The device bytes of a vector of local length n on cl (the memory plan, SbpmgCLPlanMemory()): the values, the result slots and the
   partials of the reduction geometry VecOpenCLGeometry() gives it. */
size_t VecOpenCLPlanBytes_Private(SbpmgCL cl, size_t n)
{
  const SbpmgTuning *t  = &cl->tune;
  size_t             wg = (size_t)PetscMax(t->vec_wg, 1), maxwg = cl->max_work_group_size ? cl->max_work_group_size : 1;
  size_t             cu = cl->compute_units ? (size_t)cl->compute_units : 1, need, rgroups;

  while (wg > maxwg) wg /= 2;
  need    = (n + wg - 1) / wg;
  rgroups = PetscMax(1, PetscMin(need, PetscMin((size_t)t->vec_rgroups_per_cu * cu, (size_t)t->vec_rgroups_max)));
  return (n + VEC_CL_NRES + (size_t)VEC_CL_MAX_FUSE * (size_t)rgroups) * sizeof(PetscScalar);
}

/* Run the host type's constructor (VecCreate_Seq or VecCreate_MPI) on v without letting it allocate the host array.
   PETSc 3.18's constructors PetscCalloc the local array from v->map (VECSEQ: max(n, N) entries, VECMPI: n) and
   export no variant that does not; so they run on a layout of length 0 (already set up, on PETSC_COMM_SELF: no
   communication), which gives them nothing to allocate, with v's block size (VECMPI's block stash takes it).
   Nothing else they do reads the layout, and neither keeps it: v's own layout is set up here (collectively on v's
   communicator, as the constructors would have) and put back. What 3.18.5's constructors read and leave was checked
   in their disassembly; tests/test_vec_mirror.c counts the memory. */
PetscErrorCode VecOpenCLCreateHostPart_Private(Vec v, PetscErrorCode (*create)(Vec))
{
  PetscLayout    map = v->map, empty;
  PetscInt       bs;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscLayoutSetUp(map));
  PetscCall(PetscLayoutGetBlockSize(map, &bs));
  PetscCall(PetscLayoutCreateFromSizes(PETSC_COMM_SELF, 0, 0, bs, &empty));
  v->map = empty;
  ierr   = create(v);
  v->map = map;
  PetscCall(PetscLayoutDestroy(&empty));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* Turn v, just made a VECSEQ or a VECMPI by VecOpenCLCreateHostPart_Private() (no host array), into a device vector
   on the context cl: replace its data by a Vec_OpenCL that starts with the host type's (all zero after those
   constructors on a layout of length 0, VECHEADER's pointers included), keep the host operations, install ours,
   allocate the buffer (zero). The vector is zero on both sides, its host array not allocated until a host access
   needs it (VecOpenCLHostArray_Private). On error v stays destroyable. */
PetscErrorCode VecOpenCLConvert_Private(Vec v, SbpmgCL cl, PetscBool parallel)
{
  Vec_OpenCL *s;
  PetscScalar zero = 0;
  size_t      bytes;

  PetscFunctionBegin;
  PetscCall(PetscNew(&s)); /* zeroed, VEC_CL_HOST_RESERVE included: no host array */
  {
    PetscScalar **host = (PetscScalar **)v->data; /* VECHEADER: array, array_allocated, unplacedarray */

    PetscCall(PetscFree(host[1])); /* nothing, unless a PETSc malloc of 0 bytes returned memory */
  }
  PetscCall(PetscFree(v->data));
  v->data     = s;
  s->hostops  = *v->ops;
  s->parallel = parallel;
  PetscCall(SbpmgCLReference(cl));
  s->cl                 = cl;
  s->sub_start          = -1;
  v->ops->destroy       = VecDestroy_OpenCL;
  v->ops->duplicate     = VecDuplicate_OpenCL;
  v->ops->duplicatevecs = VecDuplicateVecsClean_Private;
  PetscCall(VecOpenCLSetHostOps_Private(v));
  PetscCall(VecOpenCLSetElementwiseOps_Private(v));
  PetscCall(VecOpenCLSetReductionOps_Private(v));
  PetscCall(PetscObjectChangeTypeName((PetscObject)v, parallel ? VECMPIOPENCL : VECSEQOPENCL));
  PetscCall(VecOpenCLGeometry(cl, v->map->n, s));
  bytes = ((size_t)v->map->n + VEC_CL_NRES + (size_t)VEC_CL_MAX_FUSE * (size_t)s->rgroups) * sizeof(PetscScalar);
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, &s->buf));
  if (bytes > (size_t)v->map->n * sizeof(PetscScalar)) /* the reduction area now, the values when first read (zero_due) */
    PetscCall(SbpmgCLFillBuffer(cl, s->buf, &zero, sizeof(zero), (size_t)v->map->n * sizeof(PetscScalar), bytes - (size_t)v->map->n * sizeof(PetscScalar)));
  s->zero_due    = v->map->n > 0 ? PETSC_TRUE : PETSC_FALSE;
  v->offloadmask = PETSC_OFFLOAD_BOTH; /* zero on both sides (the host side implicit, the device side due) */
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
  PetscCall(VecOpenCLCreateHostPart_Private(v, VecCreate_Seq)); /* VECSEQ's operations, petscnative; no host array */
  PetscCall(VecOpenCLConvert_Private(v, cl, PETSC_FALSE));
  PetscFunctionReturn(0);
}

/* The constructors VecSetType() calls, on the default device context. VECOPENCL is VECSEQOPENCL on one rank and
   VECMPIOPENCL on more (as VECSTANDARD is VECSEQ or VECMPI); VECMPIOPENCL takes any number of ranks, like VECMPI. */
static PetscErrorCode VecCreateOnDefault(Vec v, PetscBool parallel)
{
  SbpmgCL cl;

  PetscFunctionBegin;
  PetscCall(SbpmgCLGetDefault(&cl));
  PetscCall(parallel ? VecCreate_MPIOpenCL_Private(v, cl) : VecCreate_SeqOpenCL_Private(v, cl));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecCreate_SeqOpenCL(Vec v)
{
  PetscFunctionBegin;
  PetscCall(VecCreateOnDefault(v, PETSC_FALSE));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecCreate_MPIOpenCL(Vec v)
{
  PetscFunctionBegin;
  PetscCall(VecCreateOnDefault(v, PETSC_TRUE));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecCreate_OpenCL(Vec v)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)v), &size));
  PetscCall(VecCreateOnDefault(v, size > 1 ? PETSC_TRUE : PETSC_FALSE));
  PetscFunctionReturn(0);
}

/* *v of sizes (n, N) on comm, made a device vector: of type (VECSEQOPENCL or VECOPENCL) on the default context when
   cl is NULL, else on cl (VECOPENCL: VECMPIOPENCL on several ranks). On error nothing is left. */
static PetscErrorCode VecOpenCLNew(MPI_Comm comm, PetscInt n, PetscInt N, VecType type, SbpmgCL cl, Vec *v)
{
  PetscMPIInt    size;
  PetscBool      seq;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(SbpmgVecInitializePackage());
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscStrcmp(type, VECSEQOPENCL, &seq));
  PetscCall(VecCreate(comm, v));
  ierr = VecSetSizes(*v, n, N);
  if (!ierr) ierr = !cl ? VecSetType(*v, type) : (seq || size == 1 ? VecCreate_SeqOpenCL_Private(*v, cl) : VecCreate_MPIOpenCL_Private(*v, cl));
  if (ierr) {
    PetscCall(VecDestroy(v));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

/*@C
   VecCreateSeqOpenCL - Create a sequential vector whose values live on the default OpenCL device (SbpmgCLGetDefault()).

   Collective (on a one-rank communicator)

   Input Parameters:
+  comm - a communicator of one rank (PETSC_COMM_SELF)
-  n    - the length

   Output Parameter:
.  v - the vector, of type VECSEQOPENCL, zero (the host copy is allocated at the first host access)

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
  PetscCall(VecOpenCLNew(comm, n, n, VECSEQOPENCL, NULL, v));
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
.  v - the vector, of type VECSEQOPENCL, zero (the host copy is allocated at the first host access)

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
  PetscCall(VecOpenCLNew(comm, n, n, VECSEQOPENCL, cl, v));
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
.  v - the vector, zero (host copy allocated at the first host access); each rank's local part lives on that rank's device (SbpmgCLGetDefault())

   Options Database Keys:
.  -vec_type opencl - select this type in VecSetFromOptions() (also DMSetVecType(dm, VECOPENCL) for DM vectors)

   Level: beginner

.seealso: `VecCreateSeqOpenCL()`, `VecCreateOpenCLWithContext()`, `VecOpenCLGetBufferRead()`
@*/
PetscErrorCode VecCreateOpenCL(MPI_Comm comm, PetscInt n, PetscInt N, Vec *v)
{
  PetscFunctionBegin;
  PetscValidPointer(v, 4);
  PetscCall(VecOpenCLNew(comm, n, N, VECOPENCL, NULL, v));
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
.  v - the vector, zero (the host copy is allocated at the first host access)

   Level: intermediate

.seealso: `VecCreateOpenCL()`, `SbpmgCLCreate()`
@*/
PetscErrorCode VecCreateOpenCLWithContext(MPI_Comm comm, SbpmgCL cl, PetscInt n, PetscInt N, Vec *v)
{
  PetscFunctionBegin;
  PetscValidPointer(cl, 2);
  PetscValidPointer(v, 5);
  PetscCall(VecOpenCLNew(comm, n, N, VECOPENCL, cl, v));
  PetscFunctionReturn(0);
}

PetscLogEvent    SBPMG_VecBlas, SBPMG_VecReduce;
static PetscBool SbpmgVecPackageInitialized = PETSC_FALSE;

/*@C
   SbpmgVecInitializePackage - Register the device vector types (VECSEQOPENCL, VECMPIOPENCL, VECOPENCL) and their log
   events, after the device layer's. Idempotent; called by the device vector constructors and the initializers of the
   layers above.

   Level: developer

.seealso: `SbpmgInitializePackage()`
@*/
PetscErrorCode SbpmgVecInitializePackage(void)
{
  const SbpmgEventEntry events[] = {{"CLVecBlas1", &SBPMG_VecBlas}, {"CLVecReduce", &SBPMG_VecReduce}, {NULL, NULL}};
  PetscBool             first;

  PetscFunctionBegin;
  PetscCall(SbpmgCLInitializePackage());
  PetscCall(SbpmgPackageStart(&SbpmgVecPackageInitialized, NULL, &SBPMG_CLASSID, events, &first));
  if (!first) PetscFunctionReturn(0);
  PetscCall(VecRegister(VECSEQOPENCL, VecCreate_SeqOpenCL));
  PetscCall(VecRegister(VECMPIOPENCL, VecCreate_MPIOpenCL));
  PetscCall(VecRegister(VECOPENCL, VecCreate_OpenCL));
  PetscFunctionReturn(0);
}
