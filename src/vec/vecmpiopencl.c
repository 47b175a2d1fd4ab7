/* VECMPIOPENCL: the parallel device vector. Each rank's local part lives in an OpenCL buffer of that rank's device
   context, with a host mirror and an offload mask, exactly as a VECSEQOPENCL keeps its values (src/vec/vecopencl.c).

   The type is VECMPI underneath: the constructor calls VecCreate_MPI() (layout, stashes for off-process VecSetValues,
   VECMPI's operation table; on a layout of length 0, so no host array: VecOpenCLCreateHostPart_Private()), then
   VecOpenCLConvert_Private() replaces the data by a Vec_OpenCL that starts with room for VECMPI's private data, keeps
   VECMPI's table in hostops and installs the device operations of src/vec/vecopencl_elem.c and vecopencl_reduce.c,
   which work on the local part. What differs from the sequential type is here:

   - reductions: the local part on the device (the same kernels and code as VECSEQOPENCL's), then one MPI_Allreduce
     of the few resulting scalars. For a fixed number of ranks the local results, and so the reduced ones, are the
     same bits every run;
   - operations that communicate in VECMPI (VecAssembly with off-process values, VecGetSubVector with a general index
     set, VecView, VecLoad, COO assembly) run VECMPI's host code after a sync of the local part, and leave the host
     copy the valid one where they wrote it. VecScatter (PetscSF) reaches the values through VecGetArrayRead and
     VecGetArray, which sync and mark as for the sequential type. */
#include <sbpmg/private/vecimpl.h>

#define HOSTOPS(v) (VecCLData(v)->hostops)

/* ---------------------------------------------------------------- reductions: local part, then MPI_Allreduce */

static PetscErrorCode VecDot_MPIOpenCL(Vec x, Vec y, PetscScalar *z)
{
  PetscScalar work;

  PetscFunctionBegin;
  PetscCall(VecDotLocal_OpenCL(x, y, &work));
  PetscCall(MPIU_Allreduce(&work, z, 1, MPIU_SCALAR, MPIU_SUM, PetscObjectComm((PetscObject)x)));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecMDot_MPIOpenCL(Vec x, PetscInt nv, const Vec y[], PetscScalar z[])
{
  PetscScalar stack[128], *work = stack;
  PetscMPIInt cnt;

  PetscFunctionBegin;
  PetscCall(PetscMPIIntCast(nv, &cnt));
  if (nv > 128) PetscCall(PetscMalloc1(nv, &work));
  PetscCall(VecMDotLocal_OpenCL(x, nv, y, work));
  PetscCall(MPIU_Allreduce(work, z, cnt, MPIU_SCALAR, MPIU_SUM, PetscObjectComm((PetscObject)x)));
  if (nv > 128) PetscCall(PetscFree(work));
  PetscFunctionReturn(0);
}

/* max over ranks of a real that may be NaN: NaN anywhere gives NaN (MPI_MAX alone leaves that to the order). */
static PetscErrorCode VecCLAllreduceMaxNaN(MPI_Comm comm, PetscReal *v)
{
  PetscReal in[2], out[2];

  PetscFunctionBegin;
  in[0] = PetscIsNanReal(*v) ? 0 : *v;
  in[1] = PetscIsNanReal(*v) ? 1 : 0;
  PetscCall(MPIU_Allreduce(in, out, 2, MPIU_REAL, MPIU_MAX, comm));
  *v = out[1] > 0 ? (PetscReal)NAN : out[0];
  PetscFunctionReturn(0);
}

/* The squares are summed as they are (not the square of each rank's rooted norm, as VECMPI does). */
static PetscErrorCode VecNorm_MPIOpenCL(Vec x, NormType type, PetscReal *z)
{
  MPI_Comm  comm = PetscObjectComm((PetscObject)x);
  PetscReal r[2], g[2];

  PetscFunctionBegin;
  PetscCall(VecNormLocalSums_OpenCL(x, type, r));
  switch (type) {
  case NORM_1:
    PetscCall(MPIU_Allreduce(r, z, 1, MPIU_REAL, MPIU_SUM, comm));
    break;
  case NORM_2:
  case NORM_FROBENIUS:
    PetscCall(MPIU_Allreduce(r, g, 1, MPIU_REAL, MPIU_SUM, comm));
    *z = PetscSqrtReal(g[0]);
    break;
  case NORM_INFINITY:
    PetscCall(VecCLAllreduceMaxNaN(comm, r));
    *z = r[0];
    break;
  case NORM_1_AND_2:
    PetscCall(MPIU_Allreduce(r, g, 2, MPIU_REAL, MPIU_SUM, comm));
    z[0] = g[0];
    z[1] = PetscSqrtReal(g[1]);
    break;
  default:
    SETERRQ(comm, PETSC_ERR_ARG_OUTOFRANGE, "Unknown NormType %d", (int)type);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode VecDotNorm2_MPIOpenCL(Vec s, Vec t, PetscScalar *dp, PetscScalar *nm)
{
  PetscScalar work[2], sum[2];

  PetscFunctionBegin;
  PetscCall(VecDotNorm2Local_OpenCL(s, t, &work[0], &work[1]));
  PetscCall(MPIU_Allreduce(work, sum, 2, MPIU_SCALAR, MPIU_SUM, PetscObjectComm((PetscObject)s)));
  *dp = sum[0];
  *nm = sum[1];
  PetscFunctionReturn(0);
}

static PetscErrorCode VecMaxPointwiseDivide_MPIOpenCL(Vec x, Vec y, PetscReal *max)
{
  PetscReal work;

  PetscFunctionBegin;
  PetscCall(VecMaxPointwiseDivideLocal_OpenCL(x, y, &work));
  PetscCall(MPIU_Allreduce(&work, max, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)x)));
  PetscFunctionReturn(0);
}

/* As VECMPI: the local location, then MPIU_MAXLOC (MPIU_MINLOC) on (value, global index); ties go to the smaller index. */
static PetscErrorCode VecCLLocationAllreduce(Vec x, PetscBool max, PetscInt *idx, PetscReal *z)
{
  MPI_Comm  comm = PetscObjectComm((PetscObject)x);
  PetscReal work;
  PetscInt  loc;

  PetscFunctionBegin;
  if (max)
    PetscCall(VecMaxLocal_OpenCL(x, idx ? &loc : NULL, &work));
  else
    PetscCall(VecMinLocal_OpenCL(x, idx ? &loc : NULL, &work));
  if (!idx) {
    PetscCall(MPIU_Allreduce(&work, z, 1, MPIU_REAL, max ? MPIU_MAX : MPIU_MIN, comm));
  } else {
    struct petsc_mpiu_real_int in, out;

    in.v = work;
    in.i = loc + x->map->rstart;
    PetscCall(MPIU_Allreduce(&in, &out, 1, MPIU_REAL_INT, max ? MPIU_MAXLOC : MPIU_MINLOC, comm));
    *z   = out.v;
    *idx = out.i;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode VecMax_MPIOpenCL(Vec x, PetscInt *idx, PetscReal *z)
{
  PetscFunctionBegin;
  PetscCall(VecCLLocationAllreduce(x, PETSC_TRUE, idx, z));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecMin_MPIOpenCL(Vec x, PetscInt *idx, PetscReal *z)
{
  PetscFunctionBegin;
  PetscCall(VecCLLocationAllreduce(x, PETSC_FALSE, idx, z));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- assembly */

/* VecSetValues() has put local entries into the host copy (marking it the valid one) and stashed the others. VECMPI's
   VecAssemblyEnd() always takes the array with VecGetArray() and adds what it receives, so first find out, with one
   more small reduction, whether any rank stashed anything: if so every rank makes its host copy current (one may
   receive values); if not, nothing will be written and the local part stays where it is, on the device or the host. */
static PetscErrorCode VecAssemblyBegin_MPIOpenCL(Vec v)
{
  Vec_OpenCL *s = VecCLData(v);

  PetscFunctionBegin;
  s->assembly_receives = PETSC_FALSE;
  if (!v->stash.donotstash) {
    PetscMPIInt mine = (v->stash.n > 0 || v->bstash.n > 0) ? 1 : 0, any;

    PetscCall(MPIU_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, PetscObjectComm((PetscObject)v)));
    s->assembly_receives = any ? PETSC_TRUE : PETSC_FALSE;
    if (any) PetscCall(VecOpenCLHostModify_Private(v));
  }
  PetscCall(HOSTOPS(v).assemblybegin(v));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecAssemblyEnd_MPIOpenCL(Vec v)
{
  Vec_OpenCL    *s = VecCLData(v);
  PetscErrorCode ierr;

  PetscFunctionBegin;
  s->host_passthrough = s->assembly_receives ? PETSC_FALSE : PETSC_TRUE;
  ierr                = HOSTOPS(v).assemblyend(v);
  s->host_passthrough = PETSC_FALSE;
  PetscCall(ierr);
  s->assembly_receives = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* VECMPI's options can switch the assembly to its legacy MPI-1 version by replacing the two operations: take the new
   ones as the host functions and keep ours in front. */
static PetscErrorCode VecSetFromOptions_MPIOpenCL(Vec v, PetscOptionItems *PetscOptionsObject)
{
  Vec_OpenCL *s = VecCLData(v);

  PetscFunctionBegin;
  if (s->hostops.setfromoptions) PetscCall(s->hostops.setfromoptions(v, PetscOptionsObject));
  if (v->ops->assemblybegin != VecAssemblyBegin_MPIOpenCL) {
    s->hostops.assemblybegin = v->ops->assemblybegin;
    v->ops->assemblybegin    = VecAssemblyBegin_MPIOpenCL;
  }
  if (v->ops->assemblyend != VecAssemblyEnd_MPIOpenCL) {
    s->hostops.assemblyend = v->ops->assemblyend;
    v->ops->assemblyend    = VecAssemblyEnd_MPIOpenCL;
  }
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- subvectors */

/* VecGetSubVector(): a new VECMPIOPENCL (same communicator and device context) holding a copy of the selected entries.
   When every rank selects a contiguous range of its own entries the copy is a device copy; otherwise a VecScatter
   through the host copies (entries may come from other ranks). VecRestoreSubVector() writes back only if the
   subvector's state changed on some rank. */
static PetscErrorCode VecGetSubVector_MPIOpenCL(Vec X, IS is, Vec *Y)
{
  Vec_OpenCL *ys;
  PetscInt    start;
  PetscBool   contig, allcontig;

  PetscFunctionBegin;
  PetscCall(ISContiguousLocal(is, X->map->rstart, X->map->rend, &start, &contig));
  PetscCall(MPIU_Allreduce(&contig, &allcontig, 1, MPIU_BOOL, MPI_LAND, PetscObjectComm((PetscObject)X)));
  PetscCall(VecOpenCLCreateSubVector_Private(X, is, allcontig, start, Y));
  ys = VecCLData(*Y);
  if (!allcontig) {
    PetscCall(VecScatterCreate(X, is, *Y, NULL, &ys->sub_scatter));
    PetscCall(VecScatterBegin(ys->sub_scatter, X, *Y, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(ys->sub_scatter, X, *Y, INSERT_VALUES, SCATTER_FORWARD));
  }
  PetscCall(PetscObjectStateGet((PetscObject)*Y, &ys->sub_state));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecRestoreSubVector_MPIOpenCL(Vec X, IS is, Vec *Y)
{
  Vec_OpenCL      *ys = VecCLData(*Y);
  PetscObjectState state;
  PetscBool        changed, anychanged;

  PetscFunctionBegin;
  PetscCall(PetscObjectStateGet((PetscObject)*Y, &state));
  changed = state != ys->sub_state ? PETSC_TRUE : PETSC_FALSE;
  if (ys->sub_start >= 0) { /* local device copies: each rank decides for itself */
    if (changed) PetscCall(VecOpenCLCopyBackSubVector_Private(X, *Y));
  } else { /* the reverse scatter is collective */
    PetscCall(MPIU_Allreduce(&changed, &anychanged, 1, MPIU_BOOL, MPI_LOR, PetscObjectComm((PetscObject)X)));
    if (anychanged) {
      PetscCall(VecScatterBegin(ys->sub_scatter, *Y, X, INSERT_VALUES, SCATTER_REVERSE));
      PetscCall(VecScatterEnd(ys->sub_scatter, *Y, X, INSERT_VALUES, SCATTER_REVERSE));
    }
  }
  PetscCall(VecDestroy(Y));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- construction */

/* Turn v (type not set yet, sizes set) into a VECMPIOPENCL whose local part lives on the device context cl (this
   rank's). Any number of ranks, one included (like VECMPI). On error v stays destroyable. */
PetscErrorCode VecCreate_MPIOpenCL_Private(Vec v, SbpmgCL cl)
{
  VecOps ops;

  PetscFunctionBegin;
  PetscCheck(sizeof(PetscScalar) < 8 || cl->fp64, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "PetscScalar is double but the OpenCL device %s has no cl_khr_fp64 (double precision) support", cl->device_name);
  PetscCall(VecOpenCLCreateHostPart_Private(v, VecCreate_MPI)); /* layout, stashes, VECMPI's operations, petscnative; no host array */
  PetscCall(VecOpenCLConvert_Private(v, cl, PETSC_TRUE));
  ops        = v->ops;
  ops->dot   = VecDot_MPIOpenCL;
  ops->tdot  = VecDot_MPIOpenCL; /* real scalars */
  ops->mdot  = VecMDot_MPIOpenCL;
  ops->mtdot = VecMDot_MPIOpenCL;
  ops->norm  = VecNorm_MPIOpenCL;
  /* ops->sum stays the local sum: PETSc 3.18's VecSum() itself reduces over the ranks after calling it */
  ops->dotnorm2           = VecDotNorm2_MPIOpenCL;
  ops->maxpointwisedivide = VecMaxPointwiseDivide_MPIOpenCL;
  ops->max                = VecMax_MPIOpenCL;
  ops->min                = VecMin_MPIOpenCL;
  ops->assemblybegin      = VecAssemblyBegin_MPIOpenCL;
  ops->assemblyend        = VecAssemblyEnd_MPIOpenCL;
  ops->setfromoptions     = VecSetFromOptions_MPIOpenCL;
  ops->getsubvector       = VecGetSubVector_MPIOpenCL;
  ops->restoresubvector   = VecRestoreSubVector_MPIOpenCL;
  PetscFunctionReturn(0);
}
