/* VECSEQOPENCL internals, shared by the files of src/vec (not installed). */
#ifndef SBPMG_VECOPENCLIMPL_H
#define SBPMG_VECOPENCLIMPL_H

#include <sbpmg/impl.h>
#include <petsc/private/vecimpl.h>

#if defined(PETSC_USE_COMPLEX)
#  error "sbpmg's device vectors (VECSEQOPENCL) support real PetscScalar only"
#endif

/* VECSEQ's constructor: exported by libpetsc but declared in no installed header */
PETSC_EXTERN PetscErrorCode VecCreate_Seq(Vec);

#define VEC_CL_MAX_FUSE 8  /* vectors fused into one pass of mdot and maxpy */
#define VEC_CL_NRES     16 /* result slots of the reduction area */

/* The kernels of kernels/vecops.cl, looked up once per vector (the program cache owns them). */
typedef enum {
  VEC_CL_K_SET,
  VEC_CL_K_COPY,
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
  VEC_CL_NKERNELS
} VecCLKernelId;

/* Room for VECSEQ's own data (Vec_Seq) at the start of ours. Vec_Seq is private to PETSc: it starts with VECHEADER and
   in 3.18 continues with COO-assembly bookkeeping (64 bytes in all, measured: VecDestroy_Seq frees pointers at byte
   offsets 40 and 48). The area is zeroed and only its VECHEADER part is set, which is what VecCreate_Seq leaves there. */
#define VEC_CL_SEQ_RESERVE 256

/* The data of a VECSEQOPENCL. It starts like VECSEQ's, so that VECSEQ's host functions (kept in hostops) work on it
   unchanged: they see the host mirror. */
typedef struct {
  union {
    struct {
      VECHEADER
    };
    unsigned char seq_private[VEC_CL_SEQ_RESERVE];
  };
  SbpmgCL        cl;      /* holds a reference */
  cl_mem         buf;     /* [0, n): the values; [n, n + NRES): reduction results; [n + NRES, ...): partials */
  size_t         wg;      /* work-group size of every vecops kernel */
  PetscInt       egroups; /* work-groups of an element-wise kernel */
  PetscInt       rgroups; /* work-groups of a reduction's first stage: a function of n and the device only */
  PetscBool      cpu;     /* kernels built for a CPU device (contiguous chunks per work-item) */
  cl_kernel      k[VEC_CL_NKERNELS];
  struct _VecOps hostops; /* VECSEQ's operations, for the host fallbacks */
  /* set on a vector handed out by VecGetSubVector(), to write it back on restore */
  PetscObjectState sub_state;
  PetscInt         sub_start; /* first entry in the parent (contiguous index sets); -1 otherwise */
} Vec_SeqOpenCL;

#define VecCLData(v) ((Vec_SeqOpenCL *)(v)->data)

/* src/vec/vecopencl.c */
PETSC_INTERN PetscErrorCode VecCreate_SeqOpenCL_Private(Vec, SbpmgCL);
PETSC_INTERN PetscErrorCode VecOpenCLGetKernel_Private(Vec, VecCLKernelId, cl_kernel *);
PETSC_INTERN PetscErrorCode VecOpenCLSameDevice_Private(Vec, Vec, PetscBool *);
PETSC_INTERN PetscErrorCode VecOpenCLSetHostOps_Private(Vec);

/* src/vec/vecopencl_ops.c */
PETSC_INTERN PetscErrorCode VecOpenCLSetDeviceOps_Private(Vec);

#endif
