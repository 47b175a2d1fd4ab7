/* Helpers of the multigrid tests of the single-precision V-cycle (tests/test_mg_precision*.c, tests/test_mg_mpi.c). */
#ifndef SBPMG_TEST_MG_COMMON_H
#define SBPMG_TEST_MG_COMMON_H

#include "test_sbp_common.h"

/* -pc_sbpmg_precision for the set-ups that follow ("single", "double"; NULL: the device's default). */
void MGTestSetPrecision(const char *precision);

/* The V-cycle pc is close to symmetric and positive on x and y: |x^T B y - y^T B x| / (|x| |B y|) <= tol, x^T B x > 0 (what: the
   case, for the message); the asymmetry is returned. */
PetscReal MGTestCheckNearlySymmetric(PC pc, Vec x, Vec y, PetscReal tol, const char *what);

/* A KSP of type ksp_type with PCSBPMG on A to the relative residual rtol (at most 300 iterations), the smoother (NULL: the default),
   then the options database; set up. */
KSP MGTestSolver(Mat A, KSPType ksp_type, const char *smoother, PetscReal rtol);

#endif
