/* sbpmg: matrix-free SBP-SAT operators and a GPU multigrid preconditioner for PETSc, on OpenCL.

   Public interface. Programs include this header and link libsbpmg (pkg-config sbpmg, or CMake sbpmg::sbpmg). */
#ifndef SBPMG_H
#define SBPMG_H

#include <petscksp.h>
#include <petscdmda.h>

#ifndef CL_TARGET_OPENCL_VERSION
  #define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#define SBPMG_VERSION_MAJOR 0
#define SBPMG_VERSION_MINOR 1
#define SBPMG_VERSION_PATCH 0

/* ---------------------------------------------------------------- package */
PETSC_EXTERN PetscErrorCode SbpmgInitializePackage(void);
PETSC_EXTERN PetscErrorCode SbpmgFinalizePackage(void);
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_sbpmg(void);
PETSC_EXTERN PetscClassId   SBPMG_CLASSID;

/* ---------------------------------------------------------------- OpenCL runtime (src/cl) */
typedef struct _n_SbpmgCL *SbpmgCL;

/* What a caller may ask of the device layer: counts since the context was created. */
typedef struct {
  PetscInt      programs_built;    /* clBuildProgram calls (cache misses) */
  PetscInt      program_cache_hits;
  PetscLogDouble htod_count, htod_bytes; /* host -> device transfers */
  PetscLogDouble dtoh_count, dtoh_bytes; /* device -> host transfers */
  PetscInt      live_buffers, live_kernels, live_programs, live_queues, live_contexts;
  size_t        device_bytes; /* bytes held in live buffers */
} SbpmgCLStats;

PETSC_EXTERN PetscErrorCode SbpmgCLGetDefault(SbpmgCL *);
PETSC_EXTERN PetscErrorCode SbpmgCLResetDefault(void);
PETSC_EXTERN PetscErrorCode SbpmgCLCreate(MPI_Comm, SbpmgCL *);
PETSC_EXTERN PetscErrorCode SbpmgCLReference(SbpmgCL);
PETSC_EXTERN PetscErrorCode SbpmgCLDestroy(SbpmgCL *);
PETSC_EXTERN PetscErrorCode SbpmgCLView(SbpmgCL, PetscViewer);
PETSC_EXTERN PetscErrorCode SbpmgCLGetStats(SbpmgCL, SbpmgCLStats *);
PETSC_EXTERN PetscErrorCode SbpmgCLGetGlobalStats(SbpmgCLStats *);
PETSC_EXTERN PetscErrorCode SbpmgCLGetQueue(SbpmgCL, cl_command_queue *);
PETSC_EXTERN PetscErrorCode SbpmgCLGetContext(SbpmgCL, cl_context *);
PETSC_EXTERN PetscErrorCode SbpmgCLGetDevice(SbpmgCL, cl_device_id *);
PETSC_EXTERN PetscErrorCode SbpmgCLGetDeviceName(SbpmgCL, const char **);
PETSC_EXTERN PetscErrorCode SbpmgCLIsGPU(SbpmgCL, PetscBool *);
PETSC_EXTERN PetscErrorCode SbpmgCLGetKernel(SbpmgCL, const char[], const char[], const char[], cl_kernel *);
PETSC_EXTERN PetscErrorCode SbpmgCLGetKernelFromSource(SbpmgCL, const char[], const char[], const char[], const char[], cl_kernel *);
PETSC_EXTERN PetscErrorCode SbpmgCLFinish(SbpmgCL);

/* ---------------------------------------------------------------- device vectors (src/vec) */
#define VECSEQOPENCL "seqopencl"
#define VECMPIOPENCL "mpiopencl"
#define VECOPENCL    "opencl"

PETSC_EXTERN PetscErrorCode VecCreateSeqOpenCL(MPI_Comm, PetscInt, Vec *);
PETSC_EXTERN PetscErrorCode VecCreateOpenCL(MPI_Comm, PetscInt, PetscInt, Vec *);
PETSC_EXTERN PetscErrorCode VecOpenCLGetBufferRead(Vec, cl_mem *);
PETSC_EXTERN PetscErrorCode VecOpenCLRestoreBufferRead(Vec, cl_mem *);
PETSC_EXTERN PetscErrorCode VecOpenCLGetBufferWrite(Vec, cl_mem *);
PETSC_EXTERN PetscErrorCode VecOpenCLRestoreBufferWrite(Vec, cl_mem *);
PETSC_EXTERN PetscErrorCode VecOpenCLGetBuffer(Vec, cl_mem *);
PETSC_EXTERN PetscErrorCode VecOpenCLRestoreBuffer(Vec, cl_mem *);
PETSC_EXTERN PetscErrorCode VecOpenCLGetCL(Vec, SbpmgCL *);
PETSC_EXTERN PetscErrorCode VecIsOpenCL(Vec, PetscBool *);

#endif
