/* The multigrid layer's private interface (src/mg): its kernels, the level smoother PC, the tuning of a PCSBPMG; not installed. */
#ifndef SBPMG_MGIMPL_H
#define SBPMG_MGIMPL_H

#include <sbpmg/private/sbpimpl.h>

/* ---------------------------------------------------------------- logging (registered by PCSBPMGInitializePackage) */
PETSC_INTERN PetscLogEvent SBPMG_MGTransfer, SBPMG_MGSmooth, SBPMG_MGSetUp, SBPMG_MGCoarse, SBPMG_MGEigen;

/* ---------------------------------------------------------------- kernels (src/mg/kernels.c) */
/* The sweeps of kernels/smooth.cl (built after kernels/sbp.cl, whose point formulas they use, as the program "sbp+smooth", with the
   SBP-SAT specialisation of the level and the work-group of the passes) and the transfers of kernels/transfer.cl. */
typedef enum {
  MG_K_SMOOTH,
  MG_K_SMOOTH_PATCH,
  MG_K_SMOOTH_INNER,
  MG_K_SMOOTH_PASS,
  MG_K_PROLONG,
  MG_K_PROLONG_PATCH,
  MG_K_RESTRICT,
  MG_K_RESTRICT_PATCH,
  MG_K_START_VECTOR,
  MG_K_COUNT
} PCSBPMGKernel;
/* The kernel of level p for fp64 or fp32 (single) coefficients, the passes' work-group from tune; the caller keeps it. */
PETSC_INTERN PetscErrorCode PCSBPMGGetKernel(SbpProblem, const SbpmgTuning *, PetscBool, PCSBPMGKernel, cl_kernel *);

/* ---------------------------------------------------------------- the level smoother (src/mg/smoother.c) */
typedef struct {
  PCSBPMGSmootherType type;
  PetscReal           lo, hi;  /* Chebyshev interval [lo, hi] * lambda_max(D^-1 M~) */
  PetscReal           omega;   /* Jacobi damping; 0: 4 / (3 lambda_max) */
  PetscInt            eig_its; /* Lanczos (CG) steps of the eigenvalue estimate */
  PetscBool           single;  /* device sweeps read the coefficients rounded to fp32 */
  SbpmgTuning         tune;    /* its rows mg_inline_diag, mg_sweeps_per_pass, mg_pass_wg_x, mg_pass_wg_y */
} PCSBPMGSmootherSettings;

PETSC_INTERN PetscErrorCode PCCreate_SBPMGSmoother(PC);
PETSC_INTERN PetscErrorCode PCSBPMGSmootherConfigure(PC, const PCSBPMGSmootherSettings *);
PETSC_INTERN PetscErrorCode PCSBPMGSmootherGetEstimates(PC, PetscReal *, PetscReal *);
PETSC_INTERN PetscErrorCode PCSBPMGSmootherGetPass(PC, PetscInt *);

/* ---------------------------------------------------------------- PCSBPMG (src/mg/pcsbpmg.c) */
/* Overrides "key=value,..." of the PC's tuning, applied at set-up on top of the fine problem's (tests: the smoother variants). */
PETSC_INTERN PetscErrorCode PCSBPMGSetTuning(PC, const char[]);

#endif
