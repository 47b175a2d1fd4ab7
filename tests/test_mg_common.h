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

/* PCMG's level residual of the single-precision V-cycle, r = b - M~ x on fp32 level vectors (PCSBPMGResidual: the fp32 sweep kernels'
   residual mode, kernels/smooth.cl io 4), against b - A x with the problem's assembled fp64 operator (src/sbp/assemble.c) on the same x
   and b (random, fp32 values; r poisoned first): max |r - r_ref| / max |r_ref| <= tol, else the test fails (what: the case, for the
   message). Collective on p's communicator; the difference is returned. */
PetscReal MGTestCheckResidualSingle(SbpProblem p, PetscReal tol, const char *what);

/* Whether the KSP's ASCII view (-ksp_view) contains the text */
PetscBool MGTestViewContains(KSP ksp, const char *text);

#endif
