/* Helpers of the SBP-SAT and multigrid tests (tests/test_sbp*.c, tests/test_mg*.c): problems, communicators, solvers. */
#ifndef SBPMG_TEST_SBP_COMMON_H
#define SBPMG_TEST_SBP_COMMON_H

#include "harness.h"

/* A problem on comm, set up: Nr x Ns intervals, faces bc ("DDNN": face 1..4, D Dirichlet or N Neumann), the mapping, the backend and
   overrides of its tuning ("key=value,...", NULL: none; the kernel variants). */
SbpProblem SbpTestProblem(MPI_Comm comm, PetscInt Nr, PetscInt Ns, const char *bc, SbpMappingType map, SbpBackend backend, const char *tune);

/* The first n ranks of PETSC_COMM_WORLD (MPI_COMM_NULL on the others). */
MPI_Comm SbpTestFirstRanks(int n);

/* The device's first use is collective on PETSC_COMM_WORLD: make it before any sub-communicator or one-rank work. */
void SbpTestDeviceFirstUse(void);

/* A KSP of CG + PCSBPMG on A to the relative residual rtol (at most maxit iterations), on A's communicator; not set up. */
KSP SbpTestMGCG(Mat A, PetscReal rtol, PetscInt maxit);

/* PCSBPMGSetSmoother() by the smoother's name (chebyshev, jacobi, richardson); NULL: leave the default. */
void SbpTestSetSmoother(PC pc, const char *name);

/* The V-cycle pc is symmetric and positive on x and y: x^T B y = y^T B x to 1e-12, x^T B x > 0 (what: the case, for the message). */
void SbpTestCheckSymmetric(PC pc, Vec x, Vec y, const char *what);

#endif
