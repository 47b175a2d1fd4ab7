/* Timing helpers of the benchmarks (bench/sbp_bench, bench/timeseries_bench): the default device's queue drained, the best
   time of repeated operator applies. */
#pragma once
#include <sbpmg.h>

PETSC_EXTERN PetscErrorCode BenchSync(void);
PETSC_EXTERN PetscErrorCode BenchTimeApply(Mat, Vec, Vec, PetscInt, PetscLogDouble *);
