/* MATSBPSAT: the SBP-SAT operator as a registered Mat type, so a program that links only PETSc gets it through
   -dll_append libsbpmg.so -mat_type sbpsat (and then -pc_type sbpmg). The type builds an SbpProblem from the options under
   the matrix's prefix, and its operations are those of the matrix-free operator of SbpProblemCreateOperator() (src/sbp/apply.c). */
#include <sbpmg/private/sbpimpl.h>
#include <petsc/private/matimpl.h>

static PetscErrorCode MatDestroy_SbpSat(Mat A)
{
  SbpProblem p = (SbpProblem)A->data;

  PetscFunctionBegin;
  PetscCall(PetscObjectCompose((PetscObject)A, "SbpProblem", NULL));
  PetscCall(SbpProblemDestroy(&p));
  A->data = NULL;
  PetscFunctionReturn(0);
}

/*MC
   MATSBPSAT - "sbpsat": the SBP-SAT operator of the problem described by the options under the matrix's prefix (-sbp_n,
   -sbp_mapping, -sbp_mu, -sbp_bc, -sbp_backend), matrix-free. For programs that reach sbpmg only through the plugin:

$    MatCreate(comm, &A); MatSetType(A, "sbpsat");   (or MatSetFromOptions(A) with -mat_type sbpsat)
$    MatCreateVecs(A, &x, &b); ...; KSPSetOperators(ksp, A, A);  with -pc_type sbpmg

   The matrix sets its own sizes ((Nr+1)(Ns+1) unknowns); sizes set before MatSetType() must agree.

   Level: beginner

.seealso: `SbpProblemCreateOperator()`, `PCSBPMG`
M*/
PetscErrorCode MatCreate_SbpSat(Mat A)
{
  SbpProblem p;
  PetscInt   m, M;

  PetscFunctionBegin;
  PetscCall(SbpInitializePackage());
  PetscCall(SbpProblemCreate(PetscObjectComm((PetscObject)A), &p));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)p, ((PetscObject)A)->prefix));
  PetscCall(SbpProblemSetFromOptions(p));
  PetscCall(SbpProblemSetUp(p));
  m = p->xm * p->ym;
  M = (p->Nr + 1) * (p->Ns + 1);
  if (!((A->rmap->n < 0 || A->rmap->n == m) && (A->rmap->N < 0 || A->rmap->N == M))) {
    PetscInt Nr = p->Nr, Ns = p->Ns;
    PetscCall(SbpProblemDestroy(&p));
    SETERRQ(PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_SIZ,
            "MATSBPSAT sets its own sizes: %" PetscInt_FMT " unknowns (%" PetscInt_FMT " local) for the %" PetscInt_FMT " x %" PetscInt_FMT
            " grid, but the matrix was given %" PetscInt_FMT " (%" PetscInt_FMT " local)",
            M, m, Nr, Ns, A->rmap->N, A->rmap->n);
  }
  PetscCall(PetscLayoutSetLocalSize(A->rmap, m));
  PetscCall(PetscLayoutSetSize(A->rmap, M));
  PetscCall(PetscLayoutSetLocalSize(A->cmap, m));
  PetscCall(PetscLayoutSetSize(A->cmap, M));
  PetscCall(PetscLayoutSetUp(A->rmap));
  PetscCall(PetscLayoutSetUp(A->cmap));
  A->data                  = p;
  A->ops->mult             = SbpOperatorMult;
  A->ops->multtranspose    = SbpOperatorMult;
  A->ops->multadd          = SbpOperatorMultAdd;
  A->ops->multtransposeadd = SbpOperatorMultAdd;
  A->ops->getdiagonal      = SbpOperatorGetDiagonal;
  A->ops->residual         = SbpOperatorResidual;
  A->ops->view             = SbpOperatorView;
  A->ops->getvecs          = SbpOperatorCreateVecs;
  A->ops->destroy          = MatDestroy_SbpSat;
  A->assembled             = PETSC_TRUE;
  A->preallocated          = PETSC_TRUE;
  PetscCall(MatSetVecType(A, p->use_device ? VECOPENCL : VECSTANDARD));
  PetscCall(SbpProblemSetOperatorProperties(p, A));
  PetscCall(PetscObjectCompose((PetscObject)A, "SbpProblem", (PetscObject)p));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, MATSBPSAT));
  PetscFunctionReturn(0);
}
