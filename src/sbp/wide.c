/* The SBP-SAT operator of order 4 and 6 (spec-sbp-sat-highorder.md sections 3-4): placeholder being written this session. */
#include <sbpmg/private/sbpimpl.h>

PetscErrorCode SbpProblemApplyWide(SbpProblem p, Vec x, Vec z, PetscReal scale, Vec y)
{
  PetscFunctionBegin;
  SETERRQ(PetscObjectComm((PetscObject)p), PETSC_ERR_SUP, "SBP order %" PetscInt_FMT ": the matrix-free operator is not built yet", p->order);
}

PetscErrorCode SbpProblemDiagonalWide(SbpProblem p, Vec d)
{
  PetscFunctionBegin;
  SETERRQ(PetscObjectComm((PetscObject)p), PETSC_ERR_SUP, "SBP order %" PetscInt_FMT ": the diagonal is not built yet", p->order);
}

PetscErrorCode SbpProblemNormWide(SbpProblem p, SbpNormType kind, Vec x, Vec y)
{
  PetscFunctionBegin;
  SETERRQ(PetscObjectComm((PetscObject)p), PETSC_ERR_SUP, "SBP order %" PetscInt_FMT ": the norms are not built yet", p->order);
}

PetscErrorCode SbpProblemDestroyWide(SbpProblem p)
{
  PetscFunctionBegin;
  PetscFunctionReturn(0);
}
