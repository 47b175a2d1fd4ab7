/* Helpers of the SBP-SAT, multigrid and lifecycle tests (tests/test_sbp*.c, tests/test_mg*.c, tests/test_lifecycle.c): problems, systems,
   communicators, solvers. */
#ifndef SBPMG_TEST_SBP_COMMON_H
#define SBPMG_TEST_SBP_COMMON_H

#include "harness.h"

/* A problem on comm, set up: Nr x Ns intervals, faces bc ("DDNN": face 1..4, D Dirichlet or N Neumann), the mapping, the backend and
   overrides of its tuning ("key=value,...", NULL: none; the kernel variants). */
SbpProblem SbpTestProblem(MPI_Comm comm, PetscInt Nr, PetscInt Ns, const char *bc, SbpMappingType map, SbpBackend backend, const char *tune);

/* The same at an SBP order (0: 2), with mu constant (mu > 0; 0: the default, the basin) and a user mapping function (map SBP_MAPPING_USER). */
typedef struct {
  PetscInt           order;
  PetscReal          mu;
  SbpMappingFunction mapfn;
  const char        *tune;
} SbpTestOrderSettings;
SbpProblem SbpTestOrderProblem(MPI_Comm comm, PetscInt Nr, PetscInt Ns, const char *bc, SbpMappingType map, SbpBackend backend,
                               const SbpTestOrderSettings *set);

/* The number of ranks of PETSC_COMM_WORLD. */
int SbpTestWorldSize(void);

/* The first n ranks of PETSC_COMM_WORLD (MPI_COMM_NULL on the others). */
MPI_Comm SbpTestFirstRanks(int n);

/* On 4 or more ranks, the first 3 (the uneven splits; MPI_COMM_NULL on the others, and everywhere on fewer ranks). */
MPI_Comm SbpTestThreeOfFourRanks(void);

/* The device's first use is collective on PETSC_COMM_WORLD: make it before any sub-communicator or one-rank work. */
void SbpTestDeviceFirstUse(void);

/* A KSP of PETSc's default type with PCSBPMG on A, on A's communicator; not set up. */
KSP SbpTestKSPWithSBPMG(Mat A);

/* A KSP of CG + PCSBPMG on A to the relative residual rtol (at most maxit iterations), on A's communicator; not set up. */
KSP SbpTestMGCG(Mat A, PetscReal rtol, PetscInt maxit);

/* The V-cycle of the multigrid tests: the smoother (NULL: the default), the levels and the coarse size (0: the defaults), overrides
   of the PC's tuning (PCSBPMGSetTuning, NULL: none). */
typedef struct {
  const char *smoother;
  PetscInt    levels, coarse_size;
  const char *tune;
} SbpTestMGSettings;

/* SbpTestMGCG(A, rtol, 200) with these settings, then the options database (PCSetFromOptions); set up. */
KSP SbpTestMGCGSetUp(Mat A, PetscReal rtol, const SbpTestMGSettings *set);

/* A direct solve on the assembled A: KSPPREONLY with CHOLMOD's Cholesky factorisation; not set up. */
KSP SbpTestCholmod(Mat A);

/* A problem's linear system: the operator A (matrix-free or assembled), u = 0 and g = the right-hand side, and a KSP on it once the
   test makes one (NULL until then). */
typedef struct {
  SbpProblem p;
  Mat        A;
  Vec        u, g;
  KSP        ksp;
} SbpTestSystem;

/* The system of the problem p, which it takes over (destroyed with it). */
void SbpTestSystemCreate(SbpProblem p, PetscBool assembled, SbpTestSystem *s);
/* KSPSolve(ksp, g, u) and its iterations; the test fails unless the solve converged. */
PetscInt SbpTestSystemSolve(SbpTestSystem *s);
void     SbpTestSystemDestroy(SbpTestSystem *s);

/* PCSBPMGSetSmoother() by the smoother's name (chebyshev, jacobi, richardson); NULL: leave the default. */
void SbpTestSetSmoother(PC pc, const char *name);

/* The V-cycle pc is symmetric and positive on x and y: x^T B y = y^T B x to 1e-12, x^T B x > 0 (what: the case, for the message). */
void SbpTestCheckSymmetric(PC pc, Vec x, Vec y, const char *what);

/* ||b - A x|| / ||b||, the true relative residual */
PetscReal SbpTestTrueResidual(Mat, Vec, Vec);

/* The local entries of src into dst through the host arrays: vectors of one layout, device, level (fp32) or host vectors alike */
void SbpTestCopyLocal(Vec src, Vec dst);

/* ||A - A^T||_F / ||A||_F of an assembled matrix */
PetscReal SbpTestAsymmetry(Mat A);

/* What a one-rank problem computes, in host vectors of natural order: its right-hand side b, its operator applied to a fixed random x
   (A x), and, where asked, the two errors of that x (SbpProblemComputeError). */
typedef struct {
  Vec       b, Ax;
  PetscReal err[2];
} SbpTestAnswer;
SbpTestAnswer SbpTestAnswerOf(SbpProblem p, PetscBool with_error);
void          SbpTestAnswerDestroy(SbpTestAnswer *a);

/* Face tests (the traction): u(i, j) = sin(0.37 i + 0.11 j) + 0.2 cos(0.05 i j) + 0.01 i, the same values whatever the ranks, but zero
   on face zface (0: none); the nodes along a face and node (i, j) at t along it. */
void     SbpTestFillU(SbpProblem p, Vec u, PetscInt zface);
PetscInt SbpTestFaceLength(SbpProblem p, PetscInt face);
void     SbpTestFaceNode(SbpProblem p, PetscInt face, PetscInt t, PetscInt *i, PetscInt *j);
/* The traction of u on face `face` into t (NULL: a vector of SbpProblemCreateFaceVector()), on every rank whole (n values, freed by the
   caller); the largest difference of two arrays relative to their largest value (SbpmgTestMaxDiff). */
PetscReal *SbpTestTraction(SbpProblem p, Vec u, PetscInt face, Vec tgiven);
PetscReal  SbpTestRelDiff(PetscInt n, const PetscReal *a, const PetscReal *b);
/* A forcing function at the nodes (from their coordinates) as a vector of the problem's layout (host or device). */
Vec SbpTestForcingVector(SbpProblem p, SbpForcingFunction fn, void *ctx);
/* The largest difference of two problems' coefficients crr, css, crs, J over all ranks, relative to b's largest (their host copies). */
PetscReal SbpTestCoefficientDiff(SbpProblem a, SbpProblem b);
/* The same, printed with `what` and the grid size; a and b destroyed. */
PetscReal SbpTestCompareCoefficients(SbpProblem a, SbpProblem b, const char *what);

#endif
