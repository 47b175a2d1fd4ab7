/* The SBP-SAT layer's private interface (src/sbp): the problem object, its device kernels, the 1D SBP blocks and the
   Kronecker assembly; not installed. */
#ifndef SBPMG_SBPIMPL_H
#define SBPMG_SBPIMPL_H

#include <sbpmg/private/haloimpl.h>

/* ---------------------------------------------------------------- logging (registered by SbpInitializePackage) */
PETSC_INTERN PetscLogEvent SBPMG_SbpApply, SBPMG_SbpDiag, SBPMG_SbpNorm, SBPMG_SbpSetUp, SBPMG_SbpCoefficients, SBPMG_SbpTraction;

/* One datum of the right-hand side (src/sbp/data.c): f, or one face's gD or gN. */
typedef enum { SBP_DATA_MANUFACTURED, SBP_DATA_ZERO, SBP_DATA_FUNCTION, SBP_DATA_SOURCE, SBP_DATA_VALUES } SbpDataKind;
typedef struct {
  SbpDataKind         kind;
  SbpBCType           type; /* a face's: the condition it was given for */
  SbpForcingFunction  ffn;
  SbpBoundaryFunction bfn;
  void               *ctx;
  char               *src;
  PetscScalar        *values; /* a face's values along it (n of them), on every rank */
  PetscInt            n;
  Vec                 vec; /* f at the nodes (a reference) */
} SbpData;

struct _SbpProblemOps {
  PetscErrorCode (*view)(SbpProblem, PetscViewer);
};

/* The device kernels of kernels/sbp.cl, looked up once per problem (src/sbp/kernels.c): a lookup through the program cache
   copies and compares the whole source, too slow for every launch. */
/* The grid's sizes and spacings and this rank's owned and ghosted boxes as kernel arguments by name (docs/design.md "Kernel arguments
   by name"): a family's argument struct holds them with SBP_GRID_ARGS and sets them with .grid = SbpProblemGridArgs(p); a kernel reads
   those it takes. */
#define SBP_GRID_ARG_FIELDS SbpmgCLArgValue Nr, Ns, hr, hs, xs, ys, xm, ym, gxs, gys, gxm, gym
typedef struct {
  SBP_GRID_ARG_FIELDS;
} SbpGridArgs;
#define SBP_GRID_ARGS      \
  union {                  \
    SbpGridArgs grid;      \
    struct {               \
      SBP_GRID_ARG_FIELDS; \
    };                     \
  }

typedef enum { SBP_K_APPLY_PATCH, SBP_K_APPLY_INNER, SBP_K_NORM_PATCH, SBP_K_COUNT } SbpKernel;

/* The precisions of kernels/sbp.cl: the coefficients' storage (SBPMG_SBP_COEF) and the vectors' and arithmetic's type (SBPMG_SBP_REAL). */
typedef enum {
  SBP_KERNEL_FP64,   /* fp64 coefficients and vectors: the operator */
  SBP_KERNEL_COEF32, /* fp32 coefficients, fp64 vectors: the fp64 V-cycle with -pc_sbpmg_coef_fp32 */
  SBP_KERNEL_FP32    /* fp32 coefficients, vectors and arithmetic: the single-precision V-cycle */
} SbpKernelPrecision;

/* One grid's discretisation in one precision on the device (src/sbp/level.c; docs/design.md "The level object"). What two precisions
   share is made once and owned by one level: the fp32 coefficients by the SBP_KERNEL_COEF32 level (the SBP_KERNEL_FP32 level borrows
   them), the fp64 ghost exchange by the SBP_KERNEL_FP64 level (the SBP_KERNEL_COEF32 level borrows it); borrowed fields are not freed. */
typedef struct _n_SbpLevel *SbpLevel;
struct _n_SbpLevel {
  SbpProblem         problem;              /* the grid it discretises (a back pointer: the problem owns its levels) */
  SbpKernelPrecision prec;                 /* the coefficients' storage and the vectors' precision */
  PetscInt           order;                /* the order of the operator it carries */
  cl_mem             crr, css, crs, J;     /* the coefficients on the ghosted patch in the precision's storage (J: fp64 only) */
  PetscBool          own_coefficients;     /* crr, css, crs (and J) are this level's to release */
  SbpHalo            halo;                 /* several ranks: the ghost exchange in the vectors' precision (NULL on one rank) */
  PetscBool          own_halo;             /* halo is this level's to destroy */
  char               opts[256];            /* the -D specialisation of kernels/sbp.cl (SbpLevelGetBuildOptions) */
  cl_kernel          kernels[SBP_K_COUNT]; /* SbpLevelGetKernel(): owned by the program cache of the problem's context */
};

struct _p_SbpProblem {
  PETSCHEADER(struct _SbpProblemOps);
  PetscInt           Nr, Ns;      /* intervals; (Nr+1) x (Ns+1) nodes */
  PetscReal          hr, hs, rho; /* spacings and rho = hs/hr */
  PetscInt           order;       /* the SBP order 2, 4, 6 ... */
  SbpMappingType     mapping;
  SbpMappingFunction mapfn;
  void              *mapctx;
  SbpMuType          mu;
  SbpMuFunction      mufn;
  void              *muctx;
  PetscReal          mu_value; /* SBP_MU_CONSTANT */
  SbpMetricFunction  metricfn; /* optional: coefficients given directly */
  void              *metricctx;
  char              *mapsrc, *musrc, *metricsrc; /* the user's point functions as OpenCL C source (SbpProblemSetMappingSource() ...) */
  SbpData            forcing, face[4];           /* the data of the right-hand side: the manufactured problem's until some is given */
  SbpExactFunction   exactfn;                    /* the exact solution (all NULL: the manufactured one, while the data are its) */
  void              *exactctx;
  char              *exactsrc;           /* ... as OpenCL source (sbp_user_exact) */
  Vec                exactvec;           /* ... as values at the nodes (a reference; the problem's order or natural order) */
  Vec                node[3];            /* x, y, mu at the nodes in natural order (src/sbp/nodes.c; SBP_MAPPING_NODES, SBP_MU_NODES) */
  PetscInt           bxs, bys, bxm, bym; /* the box of the nodal data: the ghosted patch grown by one node, within the grid */
  PetscReal         *nbox;               /* x, y, mu on the box, one after the other, on the host where it evaluates there */
  cl_mem             d_nodes;            /* the same on the device (one value where there are no nodal data) */
  PetscReal         *xbox;               /* a mapping given only as OpenCL source: X on the box, six planes, read back from the
                                            device where the host evaluates at the nodes (src/sbp/maptable.c) */
  cl_kernel  rhs_kernel;                 /* the right-hand side's kernel for the kinds of data of version rhs_version */
  int        rhs_version, data_version;  /* data_version: bumped when a kind or a source of the data changes */
  cl_mem     d_data;                     /* device: the faces' values (4 arrays along the faces) of the last right-hand side */
  size_t     d_data_bytes;
  SbpBCType  bc[4];         /* faces 1..4 at index 0..3 */
  SbpBackend backend;       /* as requested; resolved at set-up */
  PetscBool  use_device;    /* resolved backend */
  char       fallback[256]; /* why the automatic backend chose the host (empty: it did not) */
  PetscBool  setupcalled;
  DM         da;                      /* the layout on several ranks, and wherever the host path asks for it (SbpProblemGetLayoutDM); none on
                                         one rank's device path */
  SbpProblem     fine;                /* during the set-up of a coarsened problem: the problem it was coarsened from */
  PetscBool      coarsened;           /* a level made by SbpProblemCoarsen() */
  PetscContainer ordermark;           /* composed on the vectors in the problem's order (SbpProblemMarkVector(): its grid and owned box) */
  PetscInt       xs, ys, xm, ym;      /* owned nodes */
  PetscInt       gxs, gys, gxm, gym;  /* ghosted patch (stencil width 2) */
  PetscReal     *crr, *css, *crs, *J; /* coefficients on the ghosted patch, r fastest: on the host backend; on the device
                                         only once something asks (SbpProblemGetHostCoefficients) */
  /* the tuning (include/sbpmg/private/tuning.h): the device context's (the CPU column on the host backend) with tune_opts
     applied, resolved at set-up; a coarsened problem takes its parent's (tune_set) */
  SbpmgTuning tune;
  char        tune_opts[256];
  PetscBool   tune_set;
  size_t      wg[2];  /* the 2D work-group of the kernels (sbp_wg_x, sbp_wg_y) */
  SbpmgCL     cl;     /* device path: the context */
  PetscInt    in[4];  /* the interior box ilo, jlo, ihi, jhi of the owned nodes whose operator stencil stays in the owned block (empty:
                         ilo > ihi or jlo > jhi) */
  PetscBool overlap;  /* resolved at set-up: the interior runs while the ghosts are exchanged (sbp_overlap_min) */
  PetscBool split_on; /* resolved at set-up: the interior box in the lean *_inner kernels, the rim apart (sbp_split) */
  /* device path: the discretisation in each SbpKernelPrecision (SbpProblemGetLevel(); docs/design.md "The level object"): the fp64
     one made at set-up (it holds the coefficients set-up computes), the others on first use; freed by SbpProblemResetSetUp() */
  SbpLevel level[3];
  /* all faces Neumann (docs/guide.md "All-Neumann problems"): the last right-hand side's sum 1^T b before it was made compatible, and
     the constant removed from the forcing for that (b -= shift J H 1); rhs_count counts the right-hand sides made so */
  PetscReal rhs_sum, rhs_shift;
  PetscInt  rhs_count;
  /* the kernels of kernels/traction.cl (src/sbp/traction.c), by where the face's scale factor comes from (SBPMG_TRACTION_SJ 0, 1): looked
     up at the first traction after set-up, owned by the program cache of cl */
  cl_kernel          traction_kernel[2];
  PetscReal         *otab;   /* the packed table of the order (kernels/sbp_table.cl; SbpProblemGetOrderTable), made on first use */
  cl_mem             d_otab; /* ... on the device */
  struct _n_SbpWide *wide;   /* the operator of order 4 and 6: its tables and kernels (src/sbp/wide.c), made at the first apply */
};

/* The grid arguments of p (SBP_GRID_ARGS): its sizes and spacings, its owned and ghosted boxes */
static inline SbpGridArgs SbpProblemGridArgs(SbpProblem p)
{
  SbpGridArgs g = {.Nr  = SbpmgCLArgInt((int)p->Nr),
                   .Ns  = SbpmgCLArgInt((int)p->Ns),
                   .hr  = SbpmgCLArgReal(PETSC_FALSE, p->hr),
                   .hs  = SbpmgCLArgReal(PETSC_FALSE, p->hs),
                   .xs  = SbpmgCLArgInt((int)p->xs),
                   .ys  = SbpmgCLArgInt((int)p->ys),
                   .xm  = SbpmgCLArgInt((int)p->xm),
                   .ym  = SbpmgCLArgInt((int)p->ym),
                   .gxs = SbpmgCLArgInt((int)p->gxs),
                   .gys = SbpmgCLArgInt((int)p->gys),
                   .gxm = SbpmgCLArgInt((int)p->gxm),
                   .gym = SbpmgCLArgInt((int)p->gym)};
  return g;
}

/* The data of the user's point functions as kernel arguments by name, for the kernels that evaluate them at a node (kernels/coef.cl
   coef_generate and coef_describe, kernels/rhs.cl rhs_build): mu's value, the node table and the fp64 level's coefficient buffers. A
   family's argument struct holds them with SBP_POINT_ARGS and sets them with .point = SbpProblemPointArgs(p). */
#define SBP_POINT_ARG_FIELDS SbpmgCLArgValue mu_value, nodes, crr, css, crs, J
typedef struct {
  SBP_POINT_ARG_FIELDS;
} SbpPointArgs;
#define SBP_POINT_ARGS      \
  union {                   \
    SbpPointArgs point;     \
    struct {                \
      SBP_POINT_ARG_FIELDS; \
    };                      \
  }

static inline SbpPointArgs SbpProblemPointArgs(SbpProblem p)
{
  const SbpLevel lv = p->level[SBP_KERNEL_FP64];
  SbpPointArgs   a  = {.mu_value = SbpmgCLArgReal(PETSC_FALSE, p->mu_value),
                       .nodes    = SbpmgCLArgMem(p->d_nodes),
                       .crr      = SbpmgCLArgMem(lv->crr),
                       .css      = SbpmgCLArgMem(lv->css),
                       .crs      = SbpmgCLArgMem(lv->crs),
                       .J        = SbpmgCLArgMem(lv->J)};
  return a;
}

/* Whether the problem's device launches exchange ghosts (several ranks): its fp64 level has a ghost exchange. */
static inline PetscBool SbpProblemExchangesGhosts(SbpProblem p)
{
  return p->use_device && p->level[SBP_KERNEL_FP64] && p->level[SBP_KERNEL_FP64]->halo ? PETSC_TRUE : PETSC_FALSE;
}

/* The range of mu (any source): beyond it the coefficients mu times the metric, their products (crr*css) and their fp32 copies (the
   single-precision V-cycle) underflow or overflow, and the check would blame the metric (kernels/coef.cl coef_check repeats it). */
#define SBP_MU_MIN 1e-30
#define SBP_MU_MAX 1e30
/* Index of global node (i,j) in the ghosted patch arrays. */
#define SbpPatchIndex(p, i, j) (((i) - (p)->gxs) + (p)->gxm * ((j) - (p)->gys))

/* The whole library's initializer (SbpmgInitializePackage), set by src/sbpmg.c when libsbpmg is loaded and called by
   SbpProblemCreate(): a layer above registers itself with this one, so the SBP-SAT layer calls no layer above it. */
PETSC_INTERN                PetscErrorCode (*SbpmgPackageInitializer)(void);
PETSC_INTERN PetscErrorCode SbpMappingCurved(void *, PetscReal, PetscReal, PetscReal[6]);
PETSC_INTERN PetscErrorCode SbpMappingSquare(void *, PetscReal, PetscReal, PetscReal[6]);
PETSC_INTERN PetscErrorCode SbpMuBasin(void *, PetscReal, PetscReal, PetscReal *);
PETSC_INTERN PetscErrorCode SbpMuConstant(void *, PetscReal, PetscReal, PetscReal *);
PETSC_INTERN PetscErrorCode SbpProblemMuGradient(SbpProblem, PetscInt, PetscInt, const PetscReal[6], PetscReal[3]);
PETSC_INTERN void           SbpExactSolution(PetscReal, PetscReal, PetscReal *, PetscReal *, PetscReal *);
PETSC_INTERN PetscReal      SbpNeumannFlux(PetscInt, const PetscReal[6], PetscReal, PetscReal, PetscReal);
PETSC_INTERN PetscReal      SbpForcing(PetscReal, PetscReal, const PetscReal[3]);
PETSC_INTERN PetscErrorCode SbpProblemEvaluateNode(SbpProblem, PetscInt, PetscInt, PetscReal[6], PetscReal[3]);
PETSC_INTERN PetscErrorCode SbpProblemEvaluateMapping(SbpProblem, PetscInt, PetscInt, PetscReal[6]);
PETSC_INTERN PetscErrorCode SbpProblemBCFlags(SbpProblem, int *);
/* Every face Neumann: the operator is singular, its null space the constants (docs/guide.md "All-Neumann problems"). */
PETSC_INTERN PetscBool SbpProblemAllNeumann(SbpProblem);
/* The operator's flags and null space: symmetric; SPD unless every face is Neumann, and then the constants as its null space and its
   transpose's (the operator is symmetric in the Euclidean inner product). */
PETSC_INTERN PetscErrorCode SbpProblemSetOperatorProperties(SbpProblem, Mat);

/* 1D SBP blocks as small CSR matrices (spec section 2), and products of Kronecker factors (sections 3.2-3.4). */
typedef struct {
  PetscInt   m, n; /* rows, columns */
  PetscInt  *ia, *ja;
  PetscReal *a;
} SbpSparse1D;

PETSC_INTERN PetscErrorCode SbpSparse1DDestroy(SbpSparse1D *);
PETSC_INTERN PetscErrorCode SbpSparse1DIdentity(PetscInt, SbpSparse1D *);
/* The order-p blocks (p = 2, 4, 6; spec-sbp-sat-highorder.md section 1): the first argument is p; N below the order's minimum
   (SbpSparse1DMinimumN: 2, 11, 17) or another order is an error. SecondDerivative is M(c), not D2(c). */
PETSC_INTERN PetscErrorCode SbpSparse1DMinimumN(PetscInt, PetscInt *);
PETSC_INTERN PetscErrorCode SbpSparse1DNorm(PetscInt, PetscInt, PetscReal, PetscBool, SbpSparse1D *);
PETSC_INTERN PetscErrorCode SbpSparse1DDerivative(PetscInt, PetscInt, PetscReal, SbpSparse1D *);
PETSC_INTERN PetscErrorCode SbpSparse1DQ(PetscInt, PetscInt, SbpSparse1D *);
PETSC_INTERN PetscErrorCode SbpSparse1DSecondDerivative(PetscInt, PetscInt, PetscReal, const PetscReal[], PetscInt, SbpSparse1D *);
PETSC_INTERN PetscErrorCode SbpSparse1DBoundaryDerivative(PetscInt, PetscInt, PetscReal, PetscBool, SbpSparse1D *);
PETSC_INTERN PetscErrorCode SbpSparse1DSelector(PetscInt, PetscBool, SbpSparse1D *);
PETSC_INTERN PetscErrorCode SbpSparse1DTranspose(const SbpSparse1D *, SbpSparse1D *);
PETSC_INTERN PetscErrorCode SbpSparse1DToDense(const SbpSparse1D *, PetscReal *);
/* The packed table of an order (kernels/sbp_table.cl: SBP_T_SIZE reals), and the problem's (host; device on the device backend or NULL). */
PETSC_INTERN PetscErrorCode SbpSparse1DPackTable(PetscInt, PetscReal[]);
PETSC_INTERN PetscErrorCode SbpProblemGetOrderTable(SbpProblem, const PetscReal **, cl_mem *);

PETSC_INTERN PetscErrorCode SbpAssembleOperatorRows(SbpProblem, Mat, PetscInt[], PetscInt[]);
PETSC_INTERN PetscErrorCode SbpAssembleRHSByKronecker(SbpProblem, Vec);
PETSC_INTERN PetscErrorCode SbpProblemApplyHost(SbpProblem, Vec, Vec, PetscReal, Vec);
PETSC_INTERN PetscErrorCode SbpProblemDiagonalHost(SbpProblem, Vec);
PETSC_INTERN PetscErrorCode SbpProblemCountLevels(SbpProblem, PetscInt *, PetscInt *, char[], size_t);
PETSC_INTERN PetscErrorCode SbpProblemCoarseSizes(SbpProblem, PetscInt, PetscInt, PetscInt *, PetscInt *);
PETSC_INTERN PetscErrorCode SbpProblemGetProcessGrid(SbpProblem, PetscInt *, PetscInt *);
PETSC_INTERN PetscErrorCode SbpProblemCheckNotSetUp(SbpProblem, const char[]);
PETSC_INTERN PetscErrorCode SbpProblemSetUpDevice(SbpProblem);
/* The memory plan of a level (src/sbp/setup.c): what SbpProblemSetUp() of an Nr x Ns problem with these settings allocates on this rank */
typedef struct {
  size_t   own, ghost;     /* owned nodes, nodes of the ghosted patch */
  PetscInt ox, oy, gx, gy; /* ... their extents along r and s */
  size_t   device, host;   /* bytes */
} SbpPlan;
PETSC_INTERN PetscErrorCode SbpProblemPlanLevel(SbpProblem, PetscInt, PetscInt, SbpPlan *);
PETSC_INTERN PetscErrorCode SbpProblemResetSetUp(SbpProblem);
PETSC_INTERN PetscErrorCode SbpProblemCreateDMDA(SbpProblem);
/* Host access without a DMDA: a[j][i] over the owned block; the operator's input on the ghosted patch. */
PETSC_INTERN PetscErrorCode SbpProblemVecGetArray(SbpProblem, Vec, PetscBool, PetscScalar ***);
PETSC_INTERN PetscErrorCode SbpProblemVecRestoreArray(SbpProblem, Vec, PetscBool, PetscScalar ***);
PETSC_INTERN PetscErrorCode SbpProblemGetPatch(SbpProblem, Vec, Vec *, const PetscScalar **);
PETSC_INTERN PetscErrorCode SbpProblemRestorePatch(SbpProblem, Vec, Vec *, const PetscScalar **);
/* The DMDA of the problem's layout, made on first use where set-up did not need one (one rank, device backend). */
PETSC_INTERN PetscErrorCode SbpProblemGetLayoutDM(SbpProblem, DM *);
/* The process grid, the stencil width and the ownership ranges of the layout (the DMDA's, or one rank's). */
PETSC_INTERN PetscErrorCode SbpProblemGetOwnership(SbpProblem, PetscInt *, PetscInt *, PetscInt *, const PetscInt **, const PetscInt **);

/* ---------------------------------------------------------------- coefficients (src/sbp/coefficients.c) */
PETSC_INTERN PetscErrorCode SbpProblemEvaluateCoefficientsHost(SbpProblem, PetscReal[], PetscReal[], PetscReal[], PetscReal[], PetscInt *, int *, PetscReal *);
PETSC_INTERN PetscErrorCode SbpProblemComputeCoefficientsHost(SbpProblem);
PETSC_INTERN PetscErrorCode SbpProblemGenerateCoefficients(SbpProblem);
PETSC_INTERN PetscErrorCode SbpProblemGetHostCoefficients(SbpProblem);
/* the programs of the point functions with the user's sources (src/sbp/programs.c) */
PETSC_INTERN PetscErrorCode SbpProblemGetPointKernel(SbpProblem, const char[], const char[], const char[], cl_kernel *);

/* ---------------------------------------------------------------- the data (src/sbp/data.c) */
/* Whether the data are the manufactured problem's (nothing given by the user). */
PETSC_INTERN PetscBool SbpProblemManufactured(SbpProblem);
/* f at node (i,j) with geometry X and mu m there; a face's gD (Dirichlet) or gN = sJ n.(mu grad u) (Neumann) at face node (i,j). */
PETSC_INTERN PetscErrorCode SbpProblemForcingAt(SbpProblem, PetscInt, PetscInt, const PetscReal[6], const PetscReal[3], const PetscScalar *, PetscReal *);
PETSC_INTERN PetscErrorCode SbpProblemFaceDataAt(SbpProblem, PetscInt, PetscInt, PetscInt, PetscReal *);
PETSC_INTERN PetscErrorCode SbpProblemDestroyData(SbpProblem);
PETSC_INTERN PetscErrorCode SbpProblemCheckData(SbpProblem);
PETSC_INTERN PetscErrorCode SbpProblemCheckHostData(SbpProblem);
PETSC_INTERN PetscBool      SbpProblemDataOnHost(SbpProblem);
/* what the user brings, checked (src/sbp/input.c): vectors from binary files, values in the problem's or natural order, user errors */
PETSC_INTERN PetscErrorCode SbpProblemLoadVec(SbpProblem, PetscViewer, const char[], Vec *);
PETSC_INTERN PetscErrorCode SbpProblemMarkVector(SbpProblem, Vec);
PETSC_INTERN PetscErrorCode SbpProblemVecInOrder(SbpProblem, Vec, PetscBool *);
PETSC_INTERN PetscErrorCode SbpProblemGetForcingOwned(SbpProblem, Vec *);
PETSC_INTERN PetscErrorCode SbpProblemGetOwnedValues(SbpProblem, Vec, Vec *);
PETSC_INTERN PetscErrorCode SbpProblemCopyOwned(SbpProblem, Vec, Vec);
/* src/sbp/data.c: the exact solution's reset, a data source's check */
PETSC_INTERN PetscErrorCode SbpProblemDestroyExact(SbpProblem);
PETSC_INTERN PetscErrorCode SbpProblemCheckSource(SbpProblem, const char[], const char[], const char[]);
PETSC_INTERN PetscErrorCode SbpProblemAgreeOnError(SbpProblem, PetscErrorCode, const char[]);
/* nodal data (src/sbp/nodes.c) */
PETSC_INTERN PetscErrorCode SbpProblemDestroyNodes(SbpProblem);
PETSC_INTERN PetscErrorCode SbpProblemSetUpNodes(SbpProblem);
PETSC_INTERN PetscErrorCode SbpProblemUploadNodes(SbpProblem);
PETSC_INTERN PetscErrorCode SbpProblemGetHostNodes(SbpProblem);
PETSC_INTERN PetscErrorCode SbpProblemNodesMapping(SbpProblem, PetscInt, PetscInt, PetscReal[6]);
PETSC_INTERN PetscErrorCode SbpProblemNodesMu(SbpProblem, PetscInt, PetscInt, const PetscReal[6], PetscReal *, PetscReal[2]);
PETSC_INTERN PetscErrorCode SbpProblemCoarsenNodes(SbpProblem, SbpProblem);
/* the mapping tabulated at the box's nodes (src/sbp/maptable.c): a host function's on the device, an OpenCL source's on the host */
/* whether the device problem tabulates its mapping: the user's host function and no source of it */
static inline PetscBool SbpProblemTabulatesMapping(SbpProblem p)
{
  return p->use_device && p->mapping == SBP_MAPPING_USER && p->mapfn && !p->mapsrc ? PETSC_TRUE : PETSC_FALSE;
}
PETSC_INTERN size_t         SbpProblemMappingTableSize(SbpProblem);
PETSC_INTERN PetscErrorCode SbpProblemUploadMappingTable(SbpProblem, size_t);
PETSC_INTERN PetscErrorCode SbpProblemGetHostMapping(SbpProblem);
PETSC_INTERN PetscErrorCode SbpProblemTableMapping(SbpProblem, PetscInt, PetscInt, PetscReal[6]);
/* a kernel of kernels/coef.cl in the program of its part (src/sbp/programs.c) */
PETSC_INTERN PetscErrorCode SbpProblemGetCoefficientKernel(SbpProblem, const char[], cl_kernel *);
/* The -D options and the faces' values buffer of the device right-hand side (host functions evaluated into it first). */
PETSC_INTERN PetscErrorCode SbpProblemDataOptions(SbpProblem, char[], size_t);
/* src/sbp/rhs.c: whether the device builds the right-hand side g; a kernel of kernels/rhs.cl with the problem's and its data's specialisations */
PETSC_INTERN PetscErrorCode SbpProblemRHSOnDevice(SbpProblem, Vec, PetscBool *);
PETSC_INTERN PetscErrorCode SbpProblemGetRHSKernel(SbpProblem, const char[], cl_kernel *);
PETSC_INTERN PetscErrorCode SbpProblemUploadFaceData(SbpProblem, PetscInt[5]);
PETSC_INTERN PetscInt       SbpFaceLength(SbpProblem, PetscInt);
/* src/sbp/traction.c: the nodes t = first .. first + count - 1 of a face that this rank owns (count 0: none) */
PETSC_INTERN void SbpProblemFaceOwned(SbpProblem, PetscInt, PetscInt *, PetscInt *);

/* ---------------------------------------------------------------- tuning and kernels (src/sbp/kernels.c) */
/* Overrides "key=value,..." of the problem's tuning, applied at set-up on top of the device's (tests: the kernel variants). */
PETSC_INTERN PetscErrorCode SbpProblemSetTuning(SbpProblem, const char[]);
PETSC_INTERN PetscErrorCode SbpProblemSetUpTuning(SbpProblem);
PETSC_INTERN PetscErrorCode SbpProblemSetUpSplit(SbpProblem);
/* ---------------------------------------------------------------- the level (src/sbp/level.c; docs/design.md "The level object") */
/* A problem's discretisation in one SbpKernelPrecision (device backend): made by SbpProblemGetLevel(), owned and freed by its problem. */
PETSC_INTERN PetscErrorCode SbpProblemGetLevel(SbpProblem, SbpKernelPrecision, SbpLevel *);
PETSC_INTERN PetscErrorCode SbpProblemCreateLevel(SbpProblem, SbpKernelPrecision);
PETSC_INTERN PetscErrorCode SbpProblemDestroyLevels(SbpProblem);
PETSC_INTERN PetscErrorCode SbpLevelGetProblem(SbpLevel, SbpProblem *);
PETSC_INTERN PetscErrorCode SbpLevelGetPrecision(SbpLevel, SbpKernelPrecision *);
PETSC_INTERN PetscErrorCode SbpLevelGetOrder(SbpLevel, PetscInt *);
/* The -D specialisation of kernels/sbp.cl (and of the programs built on it) in the level's precision. */
PETSC_INTERN PetscErrorCode SbpLevelGetBuildOptions(SbpLevel, const char **);
/* Each reads the part of the precision it concerns: the ghost exchange the vectors' (fp64, or fp32 with SBP_KERNEL_FP32, made on
   first use; NULL on one rank), the coefficient buffers crr, crs, css the coefficients' (fp32 unless SBP_KERNEL_FP64, made on first
   use), the kernels both; J exists in fp64 only (the fp64 level's). */
PETSC_INTERN PetscErrorCode SbpLevelGetHalo(SbpLevel, SbpHalo *);
PETSC_INTERN PetscErrorCode SbpLevelGetKernel(SbpLevel, SbpKernel, cl_kernel *);
PETSC_INTERN PetscErrorCode SbpLevelGetCoefficientBuffers(SbpLevel, cl_mem *, cl_mem *, cl_mem *);
PETSC_INTERN PetscErrorCode SbpLevelGetJacobianBuffer(SbpLevel, cl_mem *);

/* The launches of the device kernels over a region of a problem's owned block (kernels/sbp.cl sbp_region_node; on one rank the
   whole grid): all of it, the interior box, the rim around it. */
typedef enum { SBP_REGION_ALL, SBP_REGION_INTERIOR, SBP_REGION_RIM } SbpRegion;
PETSC_INTERN PetscErrorCode SbpProblemLaunch2D(SbpProblem, cl_kernel, const size_t[2]);
PETSC_INTERN PetscErrorCode SbpProblemLaunchRegion(SbpProblem, cl_kernel, cl_uint, SbpRegion);
PETSC_INTERN PetscErrorCode SbpProblemLaunchBox(SbpProblem, cl_kernel, cl_uint, SbpRegion, const PetscInt[4]);
PETSC_INTERN PetscErrorCode SbpProblemLaunchBoxLanes(SbpProblem, cl_kernel, cl_uint, SbpRegion, const PetscInt[4], PetscInt);
PETSC_INTERN void           SbpProblemEmptyBox(SbpProblem, PetscInt[4]);
PETSC_INTERN PetscErrorCode SbpProblemLaunchOwned(SbpProblem, cl_kernel, cl_kernel, cl_uint);
PETSC_INTERN PetscErrorCode SbpProblemLaunchExchanged(SbpProblem, Vec, cl_kernel, cl_kernel, cl_uint, cl_uint);
PETSC_INTERN PetscErrorCode SbpProblemLaunchExchangedBuffer(SbpProblem, SbpHalo, cl_mem, cl_kernel, cl_kernel, cl_uint, cl_uint);
PETSC_INTERN void           SbpProblemPatchBoxes(SbpProblem, cl_int4 *, cl_int4 *);

/* The device buffers of a launch's vectors, got one by one and restored together (VecOpenCLGetBuffer*, VecOpenCLRestoreBuffer*). */
typedef enum { SBP_READ, SBP_WRITE, SBP_READ_WRITE } SbpAccess;
typedef struct {
  PetscInt  n;
  Vec       v[8];
  SbpAccess mode[8];
  cl_mem    mem[8];
} SbpBuffers;
PETSC_INTERN PetscErrorCode SbpBuffersGet(SbpBuffers *, Vec, SbpAccess, cl_mem *);
PETSC_INTERN PetscErrorCode SbpBuffersRestore(SbpBuffers *);

/* ---------------------------------------------------------------- the device operator (src/sbp/apply.c) */
/* y = z + scale M~ x on fp64 device vectors, the coefficients in the precision's (SBP_KERNEL_FP64 or SBP_KERNEL_COEF32) */
PETSC_INTERN PetscErrorCode SbpProblemApplyDevice(SbpProblem, Vec, Vec, PetscReal, Vec, SbpKernelPrecision);
PETSC_INTERN PetscErrorCode SbpProblemCheckDeviceVec(SbpProblem, Vec, const char[]);
PETSC_INTERN PetscErrorCode SbpProblemUseDevice(SbpProblem, Vec, Vec, Vec, PetscBool *);
/* The operator's Mat operations, for its MatShell and MATSBPSAT alike (the problem composed on the matrix). */
PETSC_INTERN PetscErrorCode SbpOperatorMult(Mat, Vec, Vec);
PETSC_INTERN PetscErrorCode SbpOperatorMultAdd(Mat, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode SbpOperatorResidual(Mat, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode SbpOperatorGetDiagonal(Mat, Vec);
PETSC_INTERN PetscErrorCode SbpOperatorView(Mat, PetscViewer);
PETSC_INTERN PetscErrorCode SbpOperatorCreateVecs(Mat, Vec *, Vec *);
/* ---------------------------------------------------------------- the operator of order 4 and 6 (src/sbp/wide.c, kernels/sbp_wide.cl;
   spec-sbp-sat-highorder.md sections 3-4): M~ in the gather form, its diagonal and the diagonal norms, on the host backend or the device by the
   vectors given, as SbpProblemApplyHost/Device do at order 2; src/sbp/apply.c sends every operation of a problem of order > 2 here. */
PETSC_INTERN PetscErrorCode SbpProblemApplyWide(SbpProblem, Vec, Vec, PetscReal, Vec); /* y = z + scale M~ x (z NULL: none; z may be y) */
PETSC_INTERN PetscErrorCode SbpProblemDiagonalWide(SbpProblem, Vec);
PETSC_INTERN PetscErrorCode SbpProblemNormWide(SbpProblem, SbpNormType, Vec, Vec);
/* One smoothing sweep on the device with the order-p operator (the finest level of an order-p V-cycle, src/mg/sweeps.c; kernels/sbp_wide.cl
   "the smoothing sweep"): out = x + c1 (x - prev) + c2 s (b - M~ x), s = dinv (NULL: 1). zero: x = 0, not read; prev is read only where
   c1 != 0 and not prev_zero, and may be out; x differs from b and out. fp64 device vectors. */
typedef struct {
  Vec       x, b, dinv, prev, out;
  PetscReal c1, c2;
  PetscBool zero, prev_zero;
} SbpWideSweep;
PETSC_INTERN PetscErrorCode SbpProblemSweepWide(SbpProblem, const SbpWideSweep *);
PETSC_INTERN PetscLogDouble SbpWideFlopsPerNode(SbpProblem); /* of the order-p row at an interior node (the logs) */
/* The stencil width of the problem's layout (ghost nodes): 2 up to order 4, 3 at order 6; the fewest nodes a rank must own in each
   direction (the end blocks of the order's M(c) and their couplings stay on one rank): 2, 8, 12. */
PETSC_INTERN PetscInt SbpProblemStencilWidth(SbpProblem);
/* How far the box of the nodal data reaches beyond the ghosted patch (src/sbp/nodes.c; planned in src/sbp/setup.c): the derivative's
   widest reach from a node of the patch (order 2: the closure's row 0 reads nodes 0..3; order 6: the centred stencil reads 3 nodes each
   side). The end rows of order p read nodes 0..p (N-p..N): a rank whose patch holds one of them owns at least 8 (p = 4) or 12 (p = 6)
   nodes from there (SbpProblemMinimumOwned()), so its box holds them all. */
#define SBP_NODES_GROW 3
PETSC_INTERN PetscInt SbpProblemMinimumOwned(SbpProblem);

/* The owned nodes' coordinates by the device into host arrays (src/sbp/coefficients.c); done: whether the device could. */
PETSC_INTERN PetscErrorCode SbpProblemCoordinatesOnDevice(SbpProblem, PetscScalar *, PetscScalar *, PetscBool *);

/* ---------------------------------------------------------------- order p data (src/sbp/rhs.c, traction.c, exact.c) */
/* The weights of the owned nodes in H~ and in J H at the problem's order (spec-sbp-sat-highorder.md 4, 5): device vectors of a device
   problem on the device (kernels/rhs.cl rhs_norm_weights), else on the host. */
PETSC_INTERN PetscErrorCode SbpProblemNormWeights(SbpProblem, Vec, Vec);

#endif
