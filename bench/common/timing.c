/* Timing helpers of the benchmarks: a time is real only once the device has finished what was queued. */
#include "timing.h"

/* The default device context's queue drained. */
PetscErrorCode BenchSync(void)
{
  SbpmgCL cl;

  PetscFunctionBeginUser;
  PetscCall(SbpmgCLGetDefault(&cl));
  PetscCall(SbpmgCLFinish(cl));
  PetscFunctionReturn(0);
}

/* The best of reps applies y = A x, the queue drained around each. */
PetscErrorCode BenchTimeApply(Mat A, Vec x, Vec y, PetscInt reps, PetscLogDouble *best)
{
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  *best = 1e30;
  PetscCall(BenchSync());
  for (PetscInt r = 0; r < reps; r++) {
    PetscCall(PetscTime(&t0));
    PetscCall(MatMult(A, x, y));
    PetscCall(BenchSync());
    PetscCall(PetscTime(&t1));
    *best = PetscMin(*best, t1 - t0);
  }
  PetscFunctionReturn(0);
}
