/* sbpmg: matrix-free SBP-SAT operators and a GPU multigrid preconditioner for PETSc, on OpenCL.

   Public interface. Programs include this header and link libsbpmg (pkg-config sbpmg, or CMake sbpmg::sbpmg). */
#ifndef SBPMG_H
#define SBPMG_H

#include <petscksp.h>
#include <petscdmda.h>
#include <petscts.h>

#ifndef CL_TARGET_OPENCL_VERSION
#  define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#define SBPMG_VERSION_MAJOR 0
#define SBPMG_VERSION_MINOR 1
#define SBPMG_VERSION_PATCH 0

/* ---------------------------------------------------------------- package */
/* SbpmgInitializePackage() registers every class, type and log event of the library (each layer's initializer below);
   call it once after PetscInitialize(), or load libsbpmg with -dll_append, which calls it. */
PETSC_EXTERN PetscErrorCode SbpmgInitializePackage(void);
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_sbpmg(void);
PETSC_EXTERN PetscErrorCode SbpmgCLInitializePackage(void);
PETSC_EXTERN PetscErrorCode SbpmgVecInitializePackage(void);
PETSC_EXTERN PetscErrorCode SbpInitializePackage(void);
PETSC_EXTERN PetscErrorCode PCSBPMGInitializePackage(void);
PETSC_EXTERN PetscErrorCode KSPSBPCGInitializePackage(void);
PETSC_EXTERN PetscClassId   SBPMG_CLASSID;
PETSC_EXTERN PetscErrorCode SbpmgLogBytesView(PetscViewer);

/* ---------------------------------------------------------------- OpenCL runtime (src/cl) */
typedef struct _n_SbpmgCL *SbpmgCL;

/* What a caller may ask of the device layer: counts since the context was created. */
typedef struct {
  PetscInt       programs_built;         /* programs made (cache misses of the context's program cache): compiled, or loaded from the disk */
  PetscInt       program_cache_hits;     /* programs found already made in the context */
  PetscInt       programs_from_disk;     /* ... of programs_built: binaries loaded from the disk cache (-cl_cache_dir) */
  PetscInt       programs_stored;        /* binaries written to the disk cache */
  PetscLogDouble htod_count, htod_bytes; /* host -> device transfers */
  PetscLogDouble dtoh_count, dtoh_bytes; /* device -> host transfers */
  PetscInt       live_buffers, live_kernels, live_programs, live_queues, live_contexts;
  size_t         device_bytes;    /* bytes held in live buffers */
  PetscInt       live_host_pages; /* CPU devices: buffers in host memory the library mapped itself (tuning cl_huge_pages), not yet unmapped */
} SbpmgCLStats;

/* An array option (PETSC_INT or PETSC_REAL) whose -help line shows the values in force (PETSc 3.18's shows only the first of an
   option not given). */
PETSC_EXTERN PetscErrorCode SbpmgOptionsArray(PetscOptionItems *, const char[], const char[], const char[], PetscDataType, void *, PetscInt, PetscInt *,
                                              PetscBool *);
/* Integer options read as 64-bit: a value given that does not fit PetscInt (PETSc 3.18 would wrap it) is an error naming the
   option and the value (options, prefix, the names with their dash, NULL-terminated; call outside an options block). */
PETSC_EXTERN PetscErrorCode SbpmgOptionsCheckInts(PetscOptions, const char[], const char *const[]);

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
/* Device time per kernel (-cl_profile): launches of the kernel named and their total time in seconds. */
PETSC_EXTERN PetscErrorCode SbpmgCLGetProfile(SbpmgCL, const char[], PetscInt *, PetscReal *);

/* Buffers, transfers and launches for a program's own kernels (on device vectors: VecOpenCLGetBufferRead() etc.). Every
   launch is timed by -cl_profile; transfers are counted in SbpmgCLStats. Kernels are built with -DSBPMG_REAL=<the
   PetscScalar type, SBPMG_REAL_NAME> (and -DSBPMG_HAVE_FP64=1 where the device has fp64). */
PETSC_EXTERN PetscErrorCode SbpmgCLCreateBuffer(SbpmgCL, cl_mem_flags, size_t, cl_mem *);
PETSC_EXTERN PetscErrorCode SbpmgCLReleaseBuffer(SbpmgCL, cl_mem *);
PETSC_EXTERN PetscErrorCode SbpmgCLCreateStaging(SbpmgCL, size_t, cl_mem *, void **); /* pinned host memory, mapped */
PETSC_EXTERN PetscErrorCode SbpmgCLDestroyStaging(SbpmgCL, cl_mem *, void **);
PETSC_EXTERN PetscErrorCode SbpmgCLWriteBuffer(SbpmgCL, cl_mem, size_t, size_t, const void *);
PETSC_EXTERN PetscErrorCode SbpmgCLReadBuffer(SbpmgCL, cl_mem, size_t, size_t, void *);
PETSC_EXTERN PetscErrorCode SbpmgCLFillBuffer(SbpmgCL, cl_mem, const void *, size_t, size_t, size_t);
PETSC_EXTERN PetscErrorCode SbpmgCLCopyBuffer(SbpmgCL, cl_mem, cl_mem, size_t, size_t, size_t);
/* Set a run of kernel arguments: SbpmgCLSetArgs(k, 0, 2, sizeof(cl_mem), &x, sizeof(PetscInt), &n): the count is the number of
   (size, pointer) pairs. */
PETSC_EXTERN PetscErrorCode SbpmgCLSetArgs(cl_kernel, cl_uint, PetscInt, ...);
PETSC_EXTERN PetscErrorCode SbpmgCLLaunch1D(SbpmgCL, cl_kernel, size_t, size_t);
PETSC_EXTERN PetscErrorCode SbpmgCLLaunch2D(SbpmgCL, cl_kernel, const size_t[2], const size_t[2]);
PETSC_EXTERN PetscErrorCode SbpmgCLLaunch3D(SbpmgCL, cl_kernel, const size_t[3], const size_t[3]);

/* The precision kernels are built with: PetscScalar, passed as -DSBPMG_REAL=... */
#if defined(PETSC_USE_REAL_SINGLE)
#  define SBPMG_REAL_NAME "float"
#else
#  define SBPMG_REAL_NAME "double"
#endif

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
/* on a given device context (this rank's) rather than the default one */
PETSC_EXTERN PetscErrorCode VecCreateSeqOpenCLWithContext(MPI_Comm, SbpmgCL, PetscInt, Vec *);
PETSC_EXTERN PetscErrorCode VecCreateOpenCLWithContext(MPI_Comm, SbpmgCL, PetscInt, PetscInt, Vec *);

/* ---------------------------------------------------------------- SBP-SAT problem and operators (src/sbp) */
typedef struct _p_SbpProblem *SbpProblem;
PETSC_EXTERN PetscClassId     SBP_PROBLEM_CLASSID;

typedef enum {
  SBP_MAPPING_CURVED, /* the curved quadrilateral of spec-sbp-sat.md 4.1-4.3 */
  SBP_MAPPING_SQUARE, /* the identity map of [-1,1]^2 */
  SBP_MAPPING_USER,   /* SbpProblemSetMappingFunction() */
  SBP_MAPPING_NODES   /* node coordinates: SbpProblemSetNodeCoordinates(), -sbp_grid_file */
} SbpMappingType;
PETSC_EXTERN const char *const SbpMappingTypes[];

typedef enum {
  SBP_MU_BASIN,    /* the smoothed elliptical basin of 4.4 */
  SBP_MU_CONSTANT, /* -sbp_mu_value */
  SBP_MU_USER,     /* SbpProblemSetMuFunction() */
  SBP_MU_NODES     /* values at the nodes: SbpProblemSetMuVector(), -sbp_mu_file */
} SbpMuType;
PETSC_EXTERN const char *const SbpMuTypes[];

typedef enum { SBP_BC_DIRICHLET, SBP_BC_NEUMANN } SbpBCType;

typedef enum {
  SBP_BACKEND_AUTO,   /* device when every rank finds an OpenCL device, else host */
  SBP_BACKEND_DEVICE, /* OpenCL kernels on device vectors */
  SBP_BACKEND_HOST    /* plain C loops on DMDA vectors, any number of ranks */
} SbpBackend;
PETSC_EXTERN const char *const SbpBackends[];

typedef enum {
  SBP_NORM_H,    /* H~ = Hs (x) Hr */
  SBP_NORM_HINV, /* H~^-1 */
  SBP_NORM_JH,   /* diag(J) H~ */
  SBP_NORM_JHINV /* (diag(J) H~)^-1 */
} SbpNormType;

/* Mapping callback: X = {x, y, x_r, x_s, y_r, y_s} at reference point (r, s). */
typedef PetscErrorCode (*SbpMappingFunction)(void *, PetscReal, PetscReal, PetscReal[6]);
/* Coefficient callback: mu at physical point (x, y). */
typedef PetscErrorCode (*SbpMuFunction)(void *, PetscReal, PetscReal, PetscReal *);

/* Metric callback (optional, replaces the coefficients derived from the mapping and mu): c = {crr, css, crs, J} at reference point
   (r, s), given X = {x, y, x_r, x_s, y_r, y_s} and mu there. For anisotropic media. */
typedef PetscErrorCode (*SbpMetricFunction)(void *, PetscReal, PetscReal, const PetscReal[6], PetscReal, PetscReal[4]);

/* The data of a problem (docs/guide.md "Bringing a problem"): f at a physical point (x, y); on a face its Dirichlet value u or its
   Neumann value n.(mu grad u), with (nx, ny) the unit outward normal there; an exact solution, for errors and convergence studies. */
typedef PetscErrorCode (*SbpForcingFunction)(void *, PetscReal, PetscReal, PetscReal *);
typedef PetscErrorCode (*SbpBoundaryFunction)(void *, PetscInt, PetscReal, PetscReal, PetscReal, PetscReal, PetscReal *);
typedef PetscErrorCode (*SbpExactFunction)(void *, PetscReal, PetscReal, PetscReal *);

PETSC_EXTERN PetscErrorCode SbpProblemCreate(MPI_Comm, SbpProblem *);
PETSC_EXTERN PetscErrorCode SbpProblemSetMetricFunction(SbpProblem, SbpMetricFunction, void *);
PETSC_EXTERN PetscErrorCode SbpProblemSetSizes(SbpProblem, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode SbpProblemGetSizes(SbpProblem, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode SbpProblemSetMapping(SbpProblem, SbpMappingType);
PETSC_EXTERN PetscErrorCode SbpProblemSetMappingFunction(SbpProblem, SbpMappingFunction, void *);
PETSC_EXTERN PetscErrorCode SbpProblemSetMu(SbpProblem, SbpMuType, PetscReal);
PETSC_EXTERN PetscErrorCode SbpProblemSetMuFunction(SbpProblem, SbpMuFunction, void *);
PETSC_EXTERN PetscErrorCode SbpProblemSetMappingSource(SbpProblem, const char[]);
PETSC_EXTERN PetscErrorCode SbpProblemSetMuSource(SbpProblem, const char[]);
PETSC_EXTERN PetscErrorCode SbpProblemSetMetricSource(SbpProblem, const char[]);
/* a grid and a coefficient given at the nodes (natural order i + (Nr+1) j; docs/guide.md "Bringing a problem") */
PETSC_EXTERN PetscErrorCode SbpProblemSetNodeCoordinates(SbpProblem, Vec, Vec);
PETSC_EXTERN PetscErrorCode SbpProblemSetNodeCoordinatesArrays(SbpProblem, PetscInt, const PetscReal[], const PetscReal[]);
PETSC_EXTERN PetscErrorCode SbpProblemLoadNodeCoordinates(SbpProblem, PetscViewer);
PETSC_EXTERN PetscErrorCode SbpProblemSetMuVector(SbpProblem, Vec);
PETSC_EXTERN PetscErrorCode SbpProblemSetMuArray(SbpProblem, PetscInt, const PetscReal[]);
PETSC_EXTERN PetscErrorCode SbpProblemLoadMu(SbpProblem, PetscViewer);
PETSC_EXTERN PetscErrorCode SbpProblemSetBC(SbpProblem, PetscInt, SbpBCType);
PETSC_EXTERN PetscErrorCode SbpProblemGetBC(SbpProblem, PetscInt, SbpBCType *);
PETSC_EXTERN PetscErrorCode SbpProblemSetBackend(SbpProblem, SbpBackend);
PETSC_EXTERN PetscErrorCode SbpProblemGetBackend(SbpProblem, SbpBackend *);
PETSC_EXTERN PetscErrorCode SbpProblemSetOrder(SbpProblem, PetscInt); /* 2, 4 or 6 (docs/guide.md "Higher order") */
PETSC_EXTERN PetscErrorCode SbpProblemGetOrder(SbpProblem, PetscInt *);
PETSC_EXTERN PetscErrorCode SbpProblemSetOptionsPrefix(SbpProblem, const char[]);
PETSC_EXTERN PetscErrorCode SbpProblemAppendOptionsPrefix(SbpProblem, const char[]);
PETSC_EXTERN PetscErrorCode SbpProblemGetOptionsPrefix(SbpProblem, const char *[]);
PETSC_EXTERN PetscErrorCode SbpProblemSetFromOptions(SbpProblem);
PETSC_EXTERN PetscErrorCode SbpProblemSetUp(SbpProblem);
PETSC_EXTERN PetscErrorCode SbpProblemView(SbpProblem, PetscViewer);
PETSC_EXTERN PetscErrorCode SbpProblemDestroy(SbpProblem *);
PETSC_EXTERN PetscErrorCode SbpProblemGetDM(SbpProblem, DM *);
PETSC_EXTERN PetscErrorCode SbpProblemGetCorners(SbpProblem, PetscInt *, PetscInt *, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode SbpProblemCoarsen(SbpProblem, SbpProblem *);
PETSC_EXTERN PetscErrorCode SbpProblemCreateVector(SbpProblem, Vec *);
PETSC_EXTERN PetscErrorCode SbpProblemCreateOperator(SbpProblem, Mat *);
PETSC_EXTERN PetscErrorCode SbpProblemCreateAssembledOperator(SbpProblem, Mat *);
PETSC_EXTERN PetscErrorCode SbpProblemCreateNorm(SbpProblem, SbpNormType, Mat *);
PETSC_EXTERN PetscErrorCode SbpProblemSetForcingFunction(SbpProblem, SbpForcingFunction, void *);
PETSC_EXTERN PetscErrorCode SbpProblemSetForcingSource(SbpProblem, const char[]);
PETSC_EXTERN PetscErrorCode SbpProblemSetForcingVector(SbpProblem, Vec);
PETSC_EXTERN PetscErrorCode SbpProblemSetBoundaryFunction(SbpProblem, PetscInt, SbpBCType, SbpBoundaryFunction, void *);
PETSC_EXTERN PetscErrorCode SbpProblemSetBoundarySource(SbpProblem, PetscInt, SbpBCType, const char[]);
PETSC_EXTERN PetscErrorCode SbpProblemSetBoundaryValues(SbpProblem, PetscInt, SbpBCType, PetscInt, const PetscScalar[]);
PETSC_EXTERN PetscErrorCode SbpProblemSetExactSolution(SbpProblem, SbpExactFunction, void *);
PETSC_EXTERN PetscErrorCode SbpProblemSetExactSolutionSource(SbpProblem, const char[]); /* double sbp_user_exact(double x, double y) */
PETSC_EXTERN PetscErrorCode SbpProblemSetExactSolutionVector(SbpProblem, Vec);          /* the problem's order or natural order */
/* x and y of the nodes: two NEW host vectors laid out like the solution, made at each call; the caller owns them and destroys
   them with VecDestroy() */
PETSC_EXTERN PetscErrorCode SbpProblemGetCoordinates(SbpProblem, Vec *, Vec *);
/* a face's node coordinates and unit outward normals, as a boundary function is given them (src/sbp/python_support.c) */
PETSC_EXTERN PetscErrorCode SbpProblemGetFaceGeometry(SbpProblem, PetscInt, PetscInt, PetscReal[], PetscReal[], PetscReal[], PetscReal[]);
PETSC_EXTERN PetscErrorCode SbpProblemComputeRHS(SbpProblem, Vec);
PETSC_EXTERN PetscErrorCode SbpProblemComputeExactSolution(SbpProblem, Vec);
PETSC_EXTERN PetscErrorCode SbpProblemComputeError(SbpProblem, Vec, PetscReal *, PetscReal *);
PETSC_EXTERN PetscErrorCode SbpProblemGetRHSShift(SbpProblem, PetscReal *, PetscReal *); /* all faces Neumann: what made b compatible */
/* the traction n.(mu grad u) on a face from a solution u (docs/guide.md "The traction on a face"): a vector of the face's nodes */
PETSC_EXTERN PetscErrorCode SbpProblemCreateFaceVector(SbpProblem, PetscInt, Vec *);
PETSC_EXTERN PetscErrorCode SbpProblemComputeFaceTraction(SbpProblem, Vec, PetscInt, Vec);
PETSC_EXTERN PetscErrorCode MatGetSbpProblem(Mat, SbpProblem *);

#define MATSBPSAT "sbpsat"
PETSC_EXTERN PetscErrorCode MatCreate_SbpSat(Mat);

/* ---------------------------------------------------------------- the device-resident CG (src/krylov) */
/* CG whose scalars stay on the device: one wait for the residual norm per iteration, none for alpha and beta (docs/guide.md "The
   coarse solve"; -ksp_type sbpcg). Device vectors only. */
#define KSPSBPCG "sbpcg"

/* ---------------------------------------------------------------- the sbpmg preconditioner (src/mg) */
#define PCSBPMG         "sbpmg"
#define PCSBPMGSMOOTHER "sbpmgsmoother"

typedef enum {
  PC_SBPMG_CHEBYSHEV, /* Chebyshev on D^-1 M~ (spec 8.7) */
  PC_SBPMG_JACOBI,    /* damped Jacobi */
  PC_SBPMG_RICHARDSON /* u += omega (f - M~ u), omega = 2/(lmin + lmax) of M~ (spec 8.6) */
} PCSBPMGSmootherType;
PETSC_EXTERN const char *const PCSBPMGSmootherTypes[];
/* Line smoothing (docs/guide.md "Stretched and anisotropic grids"): where the operator couples a level's nodes more strongly along one grid
   direction, the smoother's preconditioner is the block diagonal of the operator's blocks along those lines */
typedef enum {
  PC_SBPMG_LINES_AUTO, /* each level from its anisotropy (-pc_sbpmg_line_ratio) */
  PC_SBPMG_LINES_NONE, /* point smoothing on every level */
  PC_SBPMG_LINES_R,    /* r-lines on every level */
  PC_SBPMG_LINES_S,    /* s-lines on every level */
  PC_SBPMG_LINES_BOTH  /* r-lines and s-lines, alternating, on every level */
} PCSBPMGLineType;
PETSC_EXTERN const char *const PCSBPMGLineTypes[];
/* The coarse solve (docs/guide.md "The coarse solve") */
typedef enum {
  PC_SBPMG_COARSE_AUTO,   /* dense on one rank with the device backend where the coarse grid has at most tuning mg_coarse_dense nodes, else CHOLMOD */
  PC_SBPMG_COARSE_DENSE,  /* the dense inverse of the assembled coarse operator, applied on the device */
  PC_SBPMG_COARSE_CHOLMOD /* CHOLMOD's factor on the host (gathered onto every rank on several) */
} PCSBPMGCoarseSolveType;
PETSC_EXTERN const char *const PCSBPMGCoarseSolveTypes[];

PETSC_EXTERN PetscErrorCode PCCreate_SBPMG(PC);
PETSC_EXTERN PetscErrorCode PCSBPMGSetLevels(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCSBPMGSetCoarseSize(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCSBPMGSetSmoother(PC, PCSBPMGSmootherType);
PETSC_EXTERN PetscErrorCode PCSBPMGSetSweeps(PC, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode PCSBPMGSetChebyshevRange(PC, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode PCSBPMGGetLevels(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCSBPMGSetLines(PC, PCSBPMGLineType, PetscReal);
PETSC_EXTERN PetscErrorCode PCSBPMGSetCoarseSolve(PC, PCSBPMGCoarseSolveType);
PETSC_EXTERN PetscErrorCode SbpProblemCreateProlongation(SbpProblem, SbpProblem, Mat *);

/* ---------------------------------------------------------------- acoustic operator (src/acoustic) */
/* The 8th-order 25-point acoustic wave operator with PML and a leapfrog stepper on the device (docs/acoustic.md). */
typedef struct _p_Acoustic *Acoustic;
PETSC_EXTERN PetscClassId   ACOUSTIC_CLASSID;

typedef enum {
  ACOUSTIC_INIT_ZERO,  /* u = u_prev = phi = 0 */
  ACOUSTIC_INIT_RANDOM /* u, u_prev uniform in [-1, 1) (deterministic in -ac_seed), phi = 0 */
} AcousticInitType;
PETSC_EXTERN const char *const AcousticInitTypes[];

typedef enum {
  ACOUSTIC_BACKEND_DEVICE, /* fp32 OpenCL kernels */
  ACOUSTIC_BACKEND_HOST    /* fp64 plain loops on the host: the reference */
} AcousticBackend;
PETSC_EXTERN const char *const AcousticBackends[];

typedef enum {
  ACOUSTIC_FIELD_U,     /* the current wavefield u^n */
  ACOUSTIC_FIELD_UPREV, /* the previous one, u^{n-1} */
  ACOUSTIC_FIELD_PHI,   /* the PML auxiliary field */
  ACOUSTIC_FIELD_VP     /* (v dt)^2 */
} AcousticField;

PETSC_EXTERN PetscErrorCode AcousticInitializePackage(void);
PETSC_EXTERN PetscErrorCode AcousticCreate(MPI_Comm, Acoustic *);
PETSC_EXTERN PetscErrorCode AcousticSetSizes(Acoustic, PetscInt, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode AcousticGetSizes(Acoustic, PetscInt *, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode AcousticGetOwnershipRange(Acoustic, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode AcousticSetSpacing(Acoustic, PetscReal, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode AcousticSetDamping(Acoustic, PetscInt);
PETSC_EXTERN PetscErrorCode AcousticSetCFL(Acoustic, PetscReal);
PETSC_EXTERN PetscErrorCode AcousticSetVelocity(Acoustic, PetscReal);
PETSC_EXTERN PetscErrorCode AcousticSetVelocityArray(Acoustic, const PetscReal[]);
PETSC_EXTERN PetscErrorCode AcousticSetVelocityFile(Acoustic, const char[]);
PETSC_EXTERN PetscErrorCode AcousticSetMaxVelocity(Acoustic, PetscReal);
PETSC_EXTERN PetscErrorCode AcousticSetSource(Acoustic, PetscInt, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode AcousticSetSourceWavelet(Acoustic, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode AcousticSetInitialType(Acoustic, AcousticInitType);
PETSC_EXTERN PetscErrorCode AcousticSetBackend(Acoustic, AcousticBackend);
PETSC_EXTERN PetscErrorCode AcousticSetFromOptions(Acoustic);
PETSC_EXTERN PetscErrorCode AcousticSetUp(Acoustic);
PETSC_EXTERN PetscErrorCode AcousticSetFields(Acoustic, const PetscReal[], const PetscReal[]);
PETSC_EXTERN PetscErrorCode AcousticStep(Acoustic, PetscInt);
PETSC_EXTERN PetscErrorCode AcousticSynchronize(Acoustic);
PETSC_EXTERN PetscErrorCode AcousticGetField(Acoustic, AcousticField, PetscReal[]);
PETSC_EXTERN PetscErrorCode AcousticGetValue(Acoustic, PetscInt, PetscInt, PetscInt, PetscReal *);
PETSC_EXTERN PetscErrorCode AcousticGetNorms(Acoustic, PetscReal *, PetscReal *);
PETSC_EXTERN PetscErrorCode AcousticCheckFinite(Acoustic);
PETSC_EXTERN PetscErrorCode AcousticSetCheckInterval(Acoustic, PetscInt);
PETSC_EXTERN PetscErrorCode AcousticGetTimeStep(Acoustic, PetscReal *);
PETSC_EXTERN PetscErrorCode AcousticGetStepNumber(Acoustic, PetscInt *);
PETSC_EXTERN PetscErrorCode AcousticGetTime(Acoustic, PetscReal *);
PETSC_EXTERN PetscErrorCode AcousticGetBytesPerStep(Acoustic, PetscReal *, PetscReal *);
PETSC_EXTERN PetscErrorCode AcousticView(Acoustic, PetscViewer);
PETSC_EXTERN PetscErrorCode AcousticSetSnapshotPlane(Acoustic, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode AcousticSetSnapshotScale(Acoustic, PetscReal);
PETSC_EXTERN PetscErrorCode AcousticWriteSlicePNG(Acoustic, const char[]);
PETSC_EXTERN PetscErrorCode AcousticWriteVTK(Acoustic, const char[]);
/* velocity models, sources, receivers and traces (docs/acoustic.md "Sources, receivers and traces") */
PETSC_EXTERN PetscErrorCode AcousticSetVelocityLayers(Acoustic, PetscInt, const PetscReal[], const PetscReal[]);
PETSC_EXTERN PetscErrorCode AcousticAddSource(Acoustic, PetscReal, PetscReal, PetscReal, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode AcousticSetSourcesFile(Acoustic, const char[]);
PETSC_EXTERN PetscErrorCode AcousticSetWavelet(Acoustic, PetscInt, const PetscReal[]);
PETSC_EXTERN PetscErrorCode AcousticSetWaveletFile(Acoustic, const char[]);
PETSC_EXTERN PetscErrorCode AcousticSetReceivers(Acoustic, PetscInt, const PetscReal[]);
PETSC_EXTERN PetscErrorCode AcousticSetReceiversLine(Acoustic, const PetscReal[3], const PetscReal[3], PetscInt);
PETSC_EXTERN PetscErrorCode AcousticSetReceiversFile(Acoustic, const char[]);
PETSC_EXTERN PetscErrorCode AcousticSetTraceInterval(Acoustic, PetscInt);
PETSC_EXTERN PetscErrorCode AcousticGetTraceSizes(Acoustic, PetscInt *, PetscInt *, PetscReal *);
PETSC_EXTERN PetscErrorCode AcousticGetTraces(Acoustic, PetscReal[]);
PETSC_EXTERN PetscErrorCode AcousticWriteTraces(Acoustic, const char[]);
PETSC_EXTERN PetscErrorCode AcousticWriteShotGatherPNG(Acoustic, const char[], PetscReal);
PETSC_EXTERN PetscErrorCode AcousticDestroy(Acoustic *);
PETSC_EXTERN PetscErrorCode MatCreateAcousticLaplacian(MPI_Comm, PetscInt, PetscInt, PetscInt, PetscReal, PetscReal, PetscReal, Mat *);
/* ---------------------------------------------------------------- end of acoustic operator */

/* ---------------------------------------------------------------- the earthquake cycle (src/seas) */
/* The SEAS benchmark BP1-QD (docs/seas.md): rate-and-state friction on face 1 of a stretched DDNN grid, one elliptic solve per
   Runge-Kutta stage (PETSc TS), the friction solve on the device, the community's station files. Options -seas_*. */
typedef struct _p_Seas     *Seas;
PETSC_EXTERN PetscClassId   SEAS_CLASSID;
PETSC_EXTERN PetscErrorCode SeasInitializePackage(void);
PETSC_EXTERN PetscErrorCode SeasCreate(MPI_Comm, Seas *);
PETSC_EXTERN PetscErrorCode SeasSetFromOptions(Seas);
PETSC_EXTERN PetscErrorCode SeasSetUp(Seas);
PETSC_EXTERN PetscErrorCode SeasSolve(Seas);
PETSC_EXTERN PetscErrorCode SeasView(Seas, PetscViewer);
PETSC_EXTERN PetscErrorCode SeasSummary(Seas, PetscViewer);
PETSC_EXTERN PetscErrorCode SeasGetTS(Seas, TS *);
PETSC_EXTERN PetscErrorCode SeasGetKSP(Seas, KSP *);
PETSC_EXTERN PetscErrorCode SeasGetProblem(Seas, SbpProblem *);
PETSC_EXTERN PetscErrorCode SeasSetGreenFunction(Seas, PetscBool, const char[]);
PETSC_EXTERN PetscErrorCode SeasDestroy(Seas *);

#endif
