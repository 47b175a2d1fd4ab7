/* The multigrid layer's private interface (src/mg): its kernels, the level smoother PC, the tuning of a PCSBPMG; not installed. */
#ifndef SBPMG_MGIMPL_H
#define SBPMG_MGIMPL_H

#include <sbpmg/private/sbpimpl.h>
#include <petsc/private/pcmgimpl.h>
#include <petsc/private/kspimpl.h>

/* ---------------------------------------------------------------- logging (registered by PCSBPMGInitializePackage) */
PETSC_INTERN PetscLogEvent SBPMG_MGTransfer, SBPMG_MGSmooth, SBPMG_MGSetUp, SBPMG_MGCoarse, SBPMG_MGEigen;

/* ---------------------------------------------------------------- kernels (src/mg/kernels.c) */
/* The sweeps of kernels/smooth.cl (built after kernels/sbp.cl, whose point formulas they use, as the program "sbp+smooth", with the
   SBP-SAT specialisation of the level and the work-group of the passes; the single sweeps also give the single-precision V-cycle's
   residual, src/mg/cycle.c), the transfers and conversions of kernels/transfer.cl and the start vector of the estimates. */
typedef enum {
  MG_K_SMOOTH_PATCH,
  MG_K_SMOOTH_INNER,
  MG_K_SMOOTH_PASS,
  MG_K_PROLONG,
  MG_K_PROLONG_PATCH,
  MG_K_RESTRICT,
  MG_K_RESTRICT_PATCH,
  MG_K_PROLONG_ANY,
  MG_K_RESTRICT_ANY,
  MG_K_PROLONG_ANY_PATCH,
  MG_K_RESTRICT_ANY_PATCH,
  MG_K_TO_SINGLE,
  MG_K_TO_OUTER,
  MG_K_START_VECTOR,
  MG_K_ANISOTROPY,
  MG_K_LINE_SOLVE,
  MG_K_LINE_CHUNKS,
  MG_K_LINE_TILES,
  MG_K_LINE_MAPS,
  MG_K_LINE_FACTOR,
  MG_K_LINE_ENDS,
  MG_K_LINE_JOIN,
  MG_K_DENSE_APPLY,
  MG_K_DENSE_INVERT,
  MG_K_COUNT
} PCSBPMGKernel;
/* The Chebyshev interval's bounds (src/mg/setup.c), for the setter and the option. */
PETSC_INTERN PetscErrorCode PCSBPMGCheckChebyshevRange(MPI_Comm, PetscReal, PetscReal);

/* The kernel of an SbpLevel in its precision (the coefficients' and the vectors'), the passes' work-group from tune; the caller keeps it. */
PETSC_INTERN PetscErrorCode PCSBPMGGetKernel(SbpLevel, const SbpmgTuning *, PCSBPMGKernel, cl_kernel *);
PETSC_INTERN PetscErrorCode PCSBPMGGetProblemKernel(SbpProblem, SbpKernelPrecision, const SbpmgTuning *, PCSBPMGKernel, cl_kernel *);

/* ---------------------------------------------------------------- the single-precision V-cycle's vectors (src/mg/vecfp32.c) */
#define VECMGFP32 "mgfp32"
/* Where the values of a level vector are: nowhere (all zero), its fp32 device buffer, its host mirror, both, only in the fp64 source
   (the finest level's right-hand side, until a kernel converts it) or only in the fp64 target (written by the last sweep). */
typedef enum { PCSBPMG_VEC_ZERO, PCSBPMG_VEC_DEVICE, PCSBPMG_VEC_HOST, PCSBPMG_VEC_BOTH, PCSBPMG_VEC_SOURCE, PCSBPMG_VEC_TARGET } PCSBPMGVecState;
PETSC_INTERN PetscErrorCode PCSBPMGVecCreate(SbpProblem, Vec *);
PETSC_INTERN PetscErrorCode PCSBPMGVecIsSingle(Vec, PetscBool *);
PETSC_INTERN PetscErrorCode PCSBPMGVecGetState(Vec, PCSBPMGVecState *);
/* v holds the values of the fp64 device vector src (state SOURCE: converted by the first reader); the source (NULL in other states) */
PETSC_INTERN PetscErrorCode PCSBPMGVecSetSource(Vec, Vec);
PETSC_INTERN PetscErrorCode PCSBPMGVecGetSource(Vec, Vec *);
/* v's values go to the fp64 device vector dst: the smoother application number countdown on v writes it (0: none does) */
PETSC_INTERN PetscErrorCode PCSBPMGVecSetTarget(Vec, Vec, PetscInt);
/* A smoother application on v begins: the target its last sweep writes, or NULL; after that write, the state is TARGET */
PETSC_INTERN PetscErrorCode PCSBPMGVecTargetStep(Vec, Vec *);
PETSC_INTERN PetscErrorCode PCSBPMGVecTargetWritten(Vec);
/* The cycle is over: the target holds v's values (converted unless the last sweep wrote them); source and target are dropped */
PETSC_INTERN PetscErrorCode PCSBPMGVecFinish(Vec);
/* v = the fp64 vector w, rounded (a device vector on the device; a host vector through v's host mirror) */
PETSC_INTERN PetscErrorCode PCSBPMGVecFromDevice(Vec, Vec);
/* the fp64 device vector w = v */
PETSC_INTERN PetscErrorCode PCSBPMGVecToDevice(Vec, Vec);
PETSC_INTERN PetscErrorCode PCSBPMGVecGetBuffer(Vec, SbpAccess, cl_mem *);
PETSC_INTERN PetscErrorCode PCSBPMGVecRestoreBuffer(Vec, SbpAccess, cl_mem *);
/* SbpBuffersGet() and SbpBuffersRestore() for device vectors and level vectors alike */
PETSC_INTERN PetscErrorCode PCSBPMGBuffersGet(SbpBuffers *, Vec, SbpAccess, cl_mem *);
PETSC_INTERN PetscErrorCode PCSBPMGBuffersRestore(SbpBuffers *);

/* ---------------------------------------------------------------- line smoothers (src/mg/lines.c) */
/* The line blocks of a level, factored (kernels/line.cl), shared by its down and up smoothers. */
typedef struct _n_PCSBPMGLines *PCSBPMGLines;
struct _n_PCSBPMGLines {
  PetscInt   refct;
  SbpProblem p;
  int        dirs;             /* bit 0: r-lines, bit 1: s-lines */
  Vec        f[2][3];          /* L(t, t-1), L(t, t-2), 1/D(t) of each direction in fp64, vectors of the level's layout */
  Vec        f32[2][3];        /* ... rounded into level vectors of the single-precision V-cycle, made on first use */
  cl_mem     maps[2][2];       /* the chunked solves' maps of each direction (kernels/line.cl mg_line_maps) in fp64 and fp32, made on first use */
  PetscReal  lmin[2], lmax[2]; /* estimates of B^-1 M~ in each direction, made by the first smoother that needs them */
  PetscBool  estimated[2];
  /* lines that ranks cut (src/mg/lines_join.c), per direction */
  MPI_Comm    lcomm[2]; /* the ranks along the lines, in order (MPI_COMM_NULL: every rank holds its lines whole) */
  PetscMPIInt lsize[2], lrank[2];
  Vec         wz[2][4];          /* W (2 columns) and Z (2 columns) of each segment in fp64, vectors of the level's layout */
  Vec         wz32[2][4];        /* ... rounded into level vectors of the single-precision V-cycle, made on first use */
  Vec         zloc[2];           /* the segments' zero-state solves, fp64 and fp32 (made on first use) */
  PetscReal  *chain[2];          /* G, H, W01 of every line of every rank along the lines (12 each) */
  PetscReal  *ends[2], *gath[2]; /* this rank's end states (4 per line; then the joins) and every rank's */
  cl_mem      djoin[2][2];       /* the ends and joins on the device, fp64 and fp32 */
};
/* the largest rho^2 crr/css and the largest css/(rho^2 crr) over the level's nodes */
PETSC_INTERN PetscErrorCode PCSBPMGLinesAnisotropy(SbpProblem, PetscReal[2]);
PETSC_INTERN PetscErrorCode PCSBPMGLinesCreate(SbpProblem, int, PCSBPMGLines *);
PETSC_INTERN PetscErrorCode PCSBPMGLinesReference(PCSBPMGLines);
PETSC_INTERN PetscErrorCode PCSBPMGLinesDestroy(PCSBPMGLines *);
PETSC_INTERN PetscErrorCode PCSBPMGLinesSolve(PCSBPMGLines, int, Vec, Vec);
PETSC_INTERN PetscBool      PCSBPMGLinesTiled(SbpProblem, int);
/* the chunks of the lines of a direction on this rank (mg_line_chunks, or by their length with mg_line_chunk_nodes) */
PETSC_INTERN PetscInt PCSBPMGLinesChunks(SbpProblem, int);
/* the lines a work-group of a chunked solve of that many lines of that many chunks walked in place (mg_line_group, or mg_line_group_wide
   where they fill the device) */
PETSC_INTERN PetscInt       PCSBPMGLinesGroup(SbpProblem, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode PCSBPMGLinesSweeps(PCSBPMGLines, int, SbpKernelPrecision, PetscBool, Vec, Vec, Vec, Vec, PetscInt, PetscBool, const PetscReal[]);
/* lines that ranks cut (src/mg/lines_join.c) */
PETSC_INTERN PetscErrorCode PCSBPMGLinesJoinCreate(PCSBPMGLines, int);
PETSC_INTERN PetscErrorCode PCSBPMGLinesJoinStateRecv(PCSBPMGLines, int, PetscReal[]);
PETSC_INTERN PetscErrorCode PCSBPMGLinesJoinStateSend(PCSBPMGLines, int, const PetscReal[]);
PETSC_INTERN PetscErrorCode PCSBPMGLinesJoinSetUp(PCSBPMGLines, int);
PETSC_INTERN PetscErrorCode PCSBPMGLinesJoinVectors(PCSBPMGLines, int, SbpKernelPrecision, Vec[4], Vec *);
PETSC_INTERN PetscErrorCode PCSBPMGLinesJoinFinish(PCSBPMGLines, int, SbpKernelPrecision, PetscBool, Vec, Vec, Vec[4], Vec, Vec, Vec, PetscReal, PetscReal,
                                                   PetscBool, PetscBool);
PETSC_INTERN PetscErrorCode PCSBPMGLinesJoinDestroy(PCSBPMGLines);
/* r = b - M~ x on an SbpLevel, in its precision, by its sweep kernels' residual mode (src/mg/cycle.c) */
PETSC_INTERN PetscErrorCode PCSBPMGLevelResidual(SbpLevel, Vec, Vec, Vec);

/* ---------------------------------------------------------------- the level smoother (src/mg/smoother.c) */
typedef struct {
  PCSBPMGSmootherType type;
  PetscReal           lo, hi;  /* Chebyshev interval [lo, hi] * lambda_max(D^-1 M~) */
  PetscReal           omega;   /* Jacobi damping; 0: 4 / (3 lambda_max) */
  PetscInt            eig_its; /* Lanczos (CG) steps of the eigenvalue estimate */
  SbpKernelPrecision  prec;    /* device sweeps: fp64, fp32 coefficients (-pc_sbpmg_coef_fp32), or all fp32 (-pc_sbpmg_precision single) */
  SbpmgTuning         tune;    /* its rows mg_inline_diag, mg_sweeps_per_pass, mg_pass_wg, mg_pass_rows, mg_pass_groups_per_cu */
  PCSBPMGLines        lines;   /* line smoothing in the directions it has (NULL: point smoothing); the smoother holds a reference */
  PetscBool           reverse; /* lines in both directions: s first (the up smoother, so that the V-cycle stays symmetric) */
} PCSBPMGSmootherSettings;

/* What every single sweep kernel of a level reads besides the iterates (kernels/smooth.cl: arguments 0..6, 8..10, 17..20). */
typedef struct {
  int            Nr, Ns, flags, jacobi; /* jacobi: 0 Richardson, 1 1/diag inline, 2 1/diag from dinv */
  PetscReal      rho;
  cl_mem         ca, cb, cc, bb, db;
  int            io; /* kernels/smooth.cl: 1 the right-hand side from rhs64 (copied to bb), 2 the result to out64, 4 the residual */
  cl_mem         rhs64, out64;
  PetscLogDouble io_bytes; /* bytes per node of the conversions */
} PCSBPMGSweep;

/* The arguments of a single sweep kernel (id: mg_smooth_patch or mg_smooth_inner) in the precision prec but its region boxes (the launch
   sets them) (src/mg/sweeps.c): out = x + c1 (x - prev) + c2 s (b - M~ x), or with io & 4 the residual out = b - M~ x (src/mg/cycle.c);
   io: this launch's part of w->io. */
PETSC_INTERN PetscErrorCode PCSBPMGSweepArgs(SbpKernelPrecision, PCSBPMGKernel, cl_kernel, const PCSBPMGSweep *, cl_mem, cl_mem, cl_mem, PetscReal, PetscReal,
                                             int, int, int);

/* The level smoother's data (src/mg/smoother.c; its device sweeps: src/mg/sweeps.c). */
typedef struct {
  PCSBPMGSmootherSettings set;                     /* as configured (PCSBPMGSmootherConfigure) */
  PetscBool               tune_set;                /* set.tune given; else the problem's, at set-up */
  PetscInt                pass_on;                 /* resolved at set-up: sweeps per pass, 1 where the passes do not apply */
  PetscInt                core[2][4];              /* passes of m = 2, 3 sweeps run over the interior box shrunk by m-1 nodes; single sweeps take its rim */
  PetscReal               lmin, lmax;              /* estimates: of D^-1 M~ (Chebyshev, Jacobi) or M~ (Richardson) */
  PetscReal               omega;                   /* Jacobi / Richardson step */
  Vec                     dinv, d, xw;             /* xw: the second buffer of the device sweeps; dinv, d: host sweeps only */
  Vec                     xp[3];                   /* the third to fifth buffers of the passes of several sweeps */
  Vec                     w;                       /* the host sweeps' residual when the caller gives no work vector */
  cl_kernel               k[MG_K_SMOOTH_PASS + 1]; /* the level's sweep kernels, looked up once (owned by the program cache) */
  SbpProblem              p;
  SbpLevel                level; /* device backend: p's level in set.prec, got at set-up (owned by p) */
} PC_SbpmgSmoother;
/* A sweep kernel of the level in its precision, looked up on first use. */
PETSC_INTERN PetscErrorCode PCSBPMGSmootherKernel(PC_SbpmgSmoother *, PCSBPMGKernel, cl_kernel *);
/* its device sweeps from x (or from zero) with the coefficients (c1, c2) of each; the result ends in x (or x's fp64 target). */
PETSC_INTERN PetscErrorCode PCSBPMGSmootherSweeps(PC_SbpmgSmoother *, Vec, Vec, PetscInt, PetscBool, const PetscReal[]);

PETSC_INTERN PetscErrorCode PCCreate_SBPMGSmoother(PC);
PETSC_INTERN PetscErrorCode PCSBPMGSmootherConfigure(PC, const PCSBPMGSmootherSettings *);
PETSC_INTERN PetscErrorCode PCSBPMGSmootherGetEstimates(PC, PetscReal *, PetscReal *);
PETSC_INTERN PetscErrorCode PCSBPMGSmootherGetPass(PC, PetscInt *);

/* ---------------------------------------------------------------- PCSBPMG (src/mg/pcsbpmg.c, setup.c, cycle.c) */
/* -pc_sbpmg_precision: the V-cycle's vectors in fp64 or fp32 (CG's stay fp64) */
typedef enum { PC_SBPMG_PRECISION_DOUBLE, PC_SBPMG_PRECISION_SINGLE } PCSBPMGPrecision;
PETSC_INTERN const char *const PCSBPMGPrecisions[];

typedef struct {
  /* options */
  PetscInt            levels_req; /* 0: choose from coarse_size */
  PetscInt            coarse_size;
  PetscBool           coarse_size_set;  /* given by the user: an error if the decomposition cannot reach it */
  PetscInt            coarse_used;      /* the coarse size of the hierarchy: the user's, else the tuning's mg_coarse_size */
  char                cholmod_opt[256]; /* the option naming CHOLMOD's simplicial factor, set for the coarse set-up only (empty: none) */
  PCSBPMGSmootherType smoother;
  PetscInt            nu_pre, nu_post, eig_its;
  PetscInt            nu_count;                 /* values given to -pc_sbpmg_nu (0: none) */
  PetscReal           nu_growth;                /* sweeps multiply by this per level below the finest (a variable V-cycle) */
  PetscInt            nu_max;                   /* ... up to this many (given: nu_max_given; else the tuning's mg_nu_max) */
  PetscInt            nu_max_used;              /* resolved at set-up */
  PetscBool           coef_fp32, coef_fp32_set; /* device levels read the coefficients rounded to fp32 (sweeps and residuals); default mg_coef_fp32 */
  PCSBPMGPrecision    precision;                /* as given (precision_set) or the default, resolved at set-up (mg_single) */
  PetscBool           precision_set;
  PetscReal           cheby_lo, cheby_hi, jacobi_omega;
  char                range_opt[64]; /* option string, parsed at set-up (an error inside PCSetFromOptions leaks PETSc's option strings) */
  /* given in the options database (checked at set-up against the configuration: an option that would do nothing is an error) */
  PetscBool cheby_range_given, jacobi_omega_given, coarse_size_given, nu_max_given;
  /* the tuning: the fine problem's with tune_opts applied (PCSBPMGSetTuning()), resolved at set-up */
  SbpmgTuning            tune;
  char                   tune_opts[256];
  PCSBPMGLineType        line_type;        /* -pc_sbpmg_lines */
  PetscReal              line_ratio;       /* auto: lines along r where rho^2 crr/css exceeds it somewhere, along s where its inverse does */
  PetscInt               line_nu;          /* sweeps per direction on the levels with line smoothing (the finest; see line_nu_max) */
  PetscInt               line_nu_max;      /* -pc_sbpmg_line_nu_max: one direction's line levels grow to this (0: the tuning's mg_line_nu_max) */
  PetscInt               line_nu_max_used; /* resolved at set-up */
  PCSBPMGCoarseSolveType coarse_solve;     /* -pc_sbpmg_coarse_solve */
  PetscBool              coarse_dense;     /* resolved at set-up: the dense inverse on the device (src/mg/coarse.c) */
  /* hierarchy, index 0 = finest */
  PetscInt      nlevels;
  SbpProblem   *problems;
  Mat          *ops, *interp;
  PCSBPMGLines *lines; /* each smoothed level's line blocks (NULL: point smoothing) */
  Mat           coarse_assembled;
  PetscBool     single;                 /* the hierarchy's V-cycle runs in fp32 */
  PetscBool     coarse64;               /* single, but the coarsest level's vectors are fp64 device vectors: PETSc's own coarse solver runs there */
  size_t        plan_device, plan_host; /* the memory plan of the hierarchy: bytes on this rank (src/mg/setup.c) */
  size_t        plan_in_use;            /* ... and the device bytes in use when it was made */
  Vec           bf, xf;                 /* single: the finest level's right-hand side and solution as level vectors (their fp64 source and target) */
  /* PCMG's own operations, called around ours */
  PetscErrorCode (*mg_setup)(PC);
  PetscErrorCode (*mg_setfromoptions)(PC, PetscOptionItems *);
  PetscErrorCode (*mg_reset)(PC);
  PetscErrorCode (*mg_destroy)(PC);
  PetscErrorCode (*mg_apply)(PC, Vec, Vec);
  PetscErrorCode (*mg_applyrichardson)(PC, Vec, Vec, Vec, PetscReal, PetscReal, PetscReal, PetscInt, PetscBool, PetscInt *, PCRichardsonConvergedReason *);
} PC_SBPMG;

static inline PC_SBPMG *PCSBPMGGetContext(PC pc)
{
  return (PC_SBPMG *)((PC_MG *)pc->data)->innerctx;
}

/* The set-up (src/mg/setup.c) and what it leaves behind */
PETSC_INTERN PetscErrorCode PCSetUp_SBPMG(PC);
PETSC_INTERN PetscErrorCode PCSBPMGResetHierarchy(PC_SBPMG *);
/* The coarse solve (src/mg/coarse.c): whether the coarse grid of n nodes takes the dense inverse on the device; the coarse KSP */
PETSC_INTERN PetscErrorCode PCSBPMGResolveCoarseSolve(PC, PC_SBPMG *, SbpProblem, PetscInt, PetscBool *);
PETSC_INTERN PetscErrorCode PCSBPMGConfigureCoarse(PC, PC_SBPMG *, Mat);
PETSC_INTERN PetscErrorCode PCSBPMGClearCholmodOption(PC, PC_SBPMG *);
/* PETSc's own PCMG options (src/mg/pcmgopts.c): whether one replaces sbpmg's level smoothers (L levels) or its coarse solve on the level
   vectors (the option's name, with its value for the coarse one); level PCs that need an assembled matrix on a matrix-free level: an error */
PETSC_INTERN PetscErrorCode PCSBPMGForeignSmootherOption(PC, PetscInt, char[], size_t, PetscBool *);
PETSC_INTERN PetscErrorCode PCSBPMGForeignCoarseOption(PC, char[], size_t, PetscBool *);
PETSC_INTERN PetscErrorCode PCSBPMGCheckLevelPCs(PC, SbpProblem, PetscInt);
/* The cycle (src/mg/cycle.c): PCMG's level residual, the application in either precision */
PETSC_INTERN PetscErrorCode PCSBPMGResidual(Mat, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode PCApply_SBPMG(PC, Vec, Vec);

/* Overrides "key=value,..." of the PC's tuning, applied at set-up on top of the fine problem's (tests: the smoother variants). */
PETSC_INTERN PetscErrorCode PCSBPMGSetTuning(PC, const char[]);

#endif
