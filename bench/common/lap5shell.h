/* A 2D 5-point Laplacian MatShell on device or host vectors, shared by bench/vec_bandwidth and tests/test_vec_ksp. */
#pragma once
#include <sbpmg.h>

PETSC_EXTERN PetscErrorCode Lap5CreateShell(PetscInt, PetscBool, Mat *);
