/* The device vector layer's private interface (src/vec: VECSEQOPENCL, VECMPIOPENCL); not installed.
   The data layout of the vectors is for src/vec and its tests; the layers above use the functions of the first block. */
#ifndef SBPMG_VECIMPL_H
#define SBPMG_VECIMPL_H

#include <sbpmg/private/climpl.h>
#include <petsc/private/vecimpl.h>

/* ---------------------------------------------------------------- for the layers above */
/* Make the device (host) copy of a device vector's local part valid, transferring the values if needed; no-op for
   other types. Not collective. */
PETSC_INTERN PetscErrorCode VecOpenCLSyncDevice(Vec);
PETSC_INTERN PetscErrorCode VecOpenCLSyncHost(Vec);
/* Where the values of a device vector's local part are valid: PETSC_OFFLOAD_CPU, _GPU or _BOTH. */
PETSC_INTERN PetscErrorCode VecOpenCLGetOffloadMask(Vec, PetscOffloadMask *);
/* Whole-vector (local part) host<->device copies made by this process's device vectors since the program started
   (reduction results not counted). */
PETSC_INTERN PetscErrorCode VecOpenCLGetSyncCounts(PetscLogDouble *, PetscLogDouble *);
/* A device vector's reduction geometry (VecOpenCLGeometry(): the context's tuning, the work-group halved to the device's limit, and the
   local length): the work-group and the work-groups of a reduction's first stage, for kernels of other layers that reduce like it. */
PETSC_INTERN PetscErrorCode VecOpenCLGetReductionGeometry(Vec, size_t *, PetscInt *);
/* VecDuplicateVecs() for the library's Vec types (ops->duplicatevecs): on a failed duplicate nothing is left, *V is NULL. */
PETSC_INTERN PetscErrorCode VecDuplicateVecsClean_Private(Vec, PetscInt, Vec *[]);
/* The device bytes of a device vector of local length n on a context (the memory plan) */
PETSC_INTERN size_t VecOpenCLPlanBytes_Private(SbpmgCL, size_t);

/* ---------------------------------------------------------------- logging (registered by SbpmgVecInitializePackage) */
PETSC_INTERN PetscLogEvent SBPMG_VecBlas, SBPMG_VecReduce;

/* ---------------------------------------------------------------- the vectors' data (src/vec and its tests) */
#if defined(PETSC_USE_COMPLEX)
#  error "sbpmg's device vectors (VECSEQOPENCL, VECMPIOPENCL) support real PetscScalar only"
#endif

/* The host types' constructors: exported by libpetsc but declared in no installed header */
PETSC_EXTERN PetscErrorCode VecCreate_Seq(Vec);
PETSC_EXTERN PetscErrorCode VecCreate_MPI(Vec);

#define VEC_CL_MAX_FUSE 8  /* vectors fused into one pass of mdot and maxpy */
#define VEC_CL_NRES     64 /* result slots of the reduction area: a fused VecMDot of up to 64 vectors is read back at once */

/* The kernels of kernels/vecops.cl, looked up once per vector (the program cache owns them). */
typedef enum {
  VEC_CL_K_SET,
  VEC_CL_K_SCALE,
  VEC_CL_K_SHIFT,
  VEC_CL_K_SCALECOPY,
  VEC_CL_K_AXPY,
  VEC_CL_K_AYPX,
  VEC_CL_K_AXPBY,
  VEC_CL_K_WAXPBY,
  VEC_CL_K_AXPBYPCZ,
  VEC_CL_K_MAXPY,
  VEC_CL_K_POINTWISE,
  VEC_CL_K_UNARY,
  VEC_CL_K_REDUCE1,
  VEC_CL_K_DOT,
  VEC_CL_K_NORM12,
  VEC_CL_K_AMAX,
  VEC_CL_K_MDOT,
  VEC_CL_K_LOC,
  VEC_CL_K_SUM_FINAL,
  VEC_CL_K_MAX_FINAL,
  VEC_CL_K_LOC_FINAL,
  VEC_CL_K_LANCZOS,
  VEC_CL_NKERNELS
} VecCLKernelId;

/* Room for the host type's own data at the start of ours. Both private structs of PETSc start with VECHEADER; in
   3.18.5 Vec_Seq is 64 bytes (VECHEADER plus COO-assembly bookkeeping that VecDestroy_Seq frees) and Vec_MPI is 264
   bytes (ghosting, VecAssembly's two-sided communication state, COO assembly; measured: VecCreate_MPI_Private
   allocates 264 bytes, and tests/test_vec_mpi.c checks both sizes against this reserve at run time). The area is
   zeroed, which is exactly what VecCreate_Seq and VecCreate_MPI leave there when they run on a layout of length 0
   (VecOpenCLCreateHostPart_Private: VECHEADER all NULL; no ghosts: nghost 0, no local representation). */
#define VEC_CL_HOST_RESERVE 512

/* The data of a device vector (both types). It starts like the host type's, so that VECSEQ's and VECMPI's host
   functions (kept in hostops) work on it unchanged: they see the host mirror of the local part (array; allocated by
   VecOpenCLHostArray_Private() as array_allocated, which the host type's destroy frees). */
typedef struct {
  union {
    struct {
      VECHEADER
    };
    unsigned char host_private[VEC_CL_HOST_RESERVE];
  };
  SbpmgCL   cl;            /* holds a reference */
  cl_mem    buf;           /* [0, n): the local values; [n, n + NRES): reduction results; [n + NRES, ...): partials */
  PetscBool zero_due;      /* the values are zero but [0, n) not yet written: zeroed on the first device read, never where the first
                              device access overwrites them (docs/design.md "Device vectors") */
  size_t         wg;       /* work-group size of every vecops kernel (tuning: vec_wg) */
  PetscInt       egroups;  /* work-groups of an element-wise kernel */
  PetscInt       rgroups;  /* work-groups of a reduction's first stage: a function of n and the context's tuning only */
  PetscBool      chunks;   /* kernels built with SBPMG_VEC_CHUNKS: contiguous chunks per work-item (tuning: vec_chunks) */
  PetscBool      parallel; /* VECMPIOPENCL: hostops are VECMPI's, reductions end with an MPI_Allreduce */
  cl_kernel      k[VEC_CL_NKERNELS];
  struct _VecOps hostops; /* the host type's operations (VECSEQ's or VECMPI's), for the host fallbacks */
  /* VecAssemblyEnd() with nothing to receive anywhere: VECMPI's code still takes the array; the accessors then
     neither transfer nor change the offload mask */
  PetscBool host_passthrough;
  PetscBool assembly_receives; /* set by VecAssemblyBegin(): some rank stashed off-process values */
  /* set on a vector handed out by VecGetSubVector(), to write it back on restore */
  PetscObjectState sub_state;
  PetscInt         sub_start;   /* first local entry in the parent (locally contiguous index sets); -1 otherwise */
  VecScatter       sub_scatter; /* parallel type, general index sets: parent -> subvector */
} Vec_OpenCL;

#define VecCLData(v) ((Vec_OpenCL *)(v)->data)
#define VecCLHost(v) (&VecCLData(v)->hostops)

/* src/vec/vecopencl.c: construction. The host type's constructor (VecCreate_Seq, VecCreate_MPI) run on v without the
   host array it would allocate; then the conversion into a device vector. */
PETSC_INTERN PetscErrorCode VecOpenCLCreateHostPart_Private(Vec, PetscErrorCode (*)(Vec));
PETSC_INTERN PetscErrorCode VecOpenCLConvert_Private(Vec, SbpmgCL, PetscBool);
PETSC_INTERN PetscErrorCode VecCreate_SeqOpenCL_Private(Vec, SbpmgCL);

/* src/vec/vecopencl_state.c: where the values are valid, the kernels, the accessors */
PETSC_INTERN PetscErrorCode VecOpenCLIsDevice_Private(Vec, PetscBool *);
PETSC_INTERN PetscErrorCode VecOpenCLGetKernel_Private(Vec, VecCLKernelId, cl_kernel *);
PETSC_INTERN PetscErrorCode VecOpenCLSameDevice_Private(Vec, Vec, PetscBool *);
PETSC_INTERN PetscErrorCode VecOpenCLAllSameDevice_Private(Vec, PetscInt, const Vec[], PetscBool *);
PETSC_INTERN PetscErrorCode VecOpenCLHostModify_Private(Vec);
PETSC_INTERN PetscErrorCode VecOpenCLDeviceWritten_Private(Vec);
/* The host mirror is allocated at the first host access: a vector without one (array NULL, nothing placed) is
   PETSC_OFFLOAD_BOTH (new: zero on both sides) or PETSC_OFFLOAD_GPU, never PETSC_OFFLOAD_CPU. Give v its host array
   if it has none, zeroed unless the caller copies the device values into it (copy). */
PETSC_INTERN PetscErrorCode VecOpenCLHostArray_Private(Vec, PetscBool);
/* Every local entry about to be overwritten on the host: host array allocated (zeroed) if needed, marked PETSC_OFFLOAD_CPU */
PETSC_INTERN PetscErrorCode VecOpenCLHostOverwrite_Private(Vec);
/* A host fallback's bracket: the nin vectors in[] and out (if not NULL) synced to the host; afterwards out is valid on
   the host only (no-op for vectors of other types) and its state increased */
PETSC_INTERN PetscErrorCode VecOpenCLSyncHostAll_Private(Vec, PetscInt, const Vec[]);
PETSC_INTERN PetscErrorCode VecOpenCLHostWritten_Private(Vec);

/* In an operation of out whose other vector arguments in[0..nin) are not all device vectors of out's context: the host
   type's function `call` on the host copies (out written when `writes`, only read otherwise), then return. */
#define VecOpenCLHostIfMixed(out, nin, in, writes, call)                    \
  do {                                                                      \
    PetscBool vec_cl_same_;                                                 \
    PetscCall(VecOpenCLAllSameDevice_Private(out, nin, in, &vec_cl_same_)); \
    if (!vec_cl_same_) {                                                    \
      PetscCall(VecOpenCLSyncHostAll_Private(out, nin, in));                \
      PetscCall(call);                                                      \
      if (writes) PetscCall(VecOpenCLHostWritten_Private(out));             \
      PetscFunctionReturn(0);                                               \
    }                                                                       \
  } while (0)

/* src/vec/vecopencl_host.c: host access and the host fallbacks */
PETSC_INTERN PetscErrorCode VecOpenCLSetHostOps_Private(Vec);
/* VecGetSubVector() of both types: a new device vector of X's type and context for the entries is selects, holding
   their values when contig (every rank's selection is the contiguous range from its local entry start: a device copy,
   copied back on restore); otherwise the type fills it. */
PETSC_INTERN PetscErrorCode VecOpenCLCreateSubVector_Private(Vec, IS, PetscBool, PetscInt, Vec *);
PETSC_INTERN PetscErrorCode VecOpenCLCopyBackSubVector_Private(Vec, Vec);

/* src/vec/vecopencl_elem.c: the element-wise operations on the device (both types use them as they are) */
PETSC_INTERN PetscErrorCode VecOpenCLSetElementwiseOps_Private(Vec);

/* src/vec/vecopencl_reduce.c: the reductions, on the local part only (no communication): they are VECSEQOPENCL's
   operations, and VECMPIOPENCL's follow each with one MPI_Allreduce of the scalars (src/vec/vecmpiopencl.c). */
PETSC_INTERN PetscErrorCode VecOpenCLSetReductionOps_Private(Vec);
PETSC_INTERN PetscErrorCode VecDotLocal_OpenCL(Vec, Vec, PetscScalar *);
PETSC_INTERN PetscErrorCode VecMDotLocal_OpenCL(Vec, PetscInt, const Vec[], PetscScalar[]);
PETSC_INTERN PetscErrorCode VecNormLocalSums_OpenCL(Vec, NormType, PetscReal[2]); /* sum |x|, sum x^2 (not rooted), max |x| */
PETSC_INTERN PetscErrorCode VecSumLocal_OpenCL(Vec, PetscScalar *);
PETSC_INTERN PetscErrorCode VecDotNorm2Local_OpenCL(Vec, Vec, PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode VecOpenCLLanczosStep_Private(Vec, PetscScalar, Vec, Vec, Vec, PetscScalar *);
PETSC_INTERN PetscErrorCode VecMaxPointwiseDivideLocal_OpenCL(Vec, Vec, PetscReal *);
PETSC_INTERN PetscErrorCode VecMaxLocal_OpenCL(Vec, PetscInt *, PetscReal *);
PETSC_INTERN PetscErrorCode VecMinLocal_OpenCL(Vec, PetscInt *, PetscReal *);

/* src/vec/vecmpiopencl.c */
PETSC_INTERN PetscErrorCode VecCreate_MPIOpenCL_Private(Vec, SbpmgCL);

#endif
