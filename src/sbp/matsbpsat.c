/* MATSBPSAT: the SBP-SAT operator as a registered Mat type, so a program that links only PETSc gets it through
   -dll_append libsbpmg.so -mat_type sbpsat (and then -pc_type sbpmg). The type builds an SbpProblem from the options under
   the matrix's prefix and forwards every operation to the matrix-free operator of SbpProblemCreateOperator(). */
#include <sbpmg/private/sbpimpl.h>
#include <petsc/private/matimpl.h>

typedef struct {
  SbpProblem p;
  Mat        op; /* the MatShell doing the work */
} Mat_SbpSat;

static PetscErrorCode MatMult_SbpSat(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMult(((Mat_SbpSat *)A->data)->op, x, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultAdd_SbpSat(Mat A, Vec x, Vec z, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultAdd(((Mat_SbpSat *)A->data)->op, x, z, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatGetDiagonal_SbpSat(Mat A, Vec d)
{
  PetscFunctionBegin;
  PetscCall(MatGetDiagonal(((Mat_SbpSat *)A->data)->op, d));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatResidual_SbpSat(Mat A, Vec b, Vec x, Vec r)
{
  PetscFunctionBegin;
  PetscCall(MatResidual(((Mat_SbpSat *)A->data)->op, b, x, r));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatView_SbpSat(Mat A, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(MatView(((Mat_SbpSat *)A->data)->op, viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatDestroy_SbpSat(Mat A)
{
  Mat_SbpSat *s = (Mat_SbpSat *)A->data;

  PetscFunctionBegin;
  PetscCall(PetscObjectCompose((PetscObject)A, "SbpProblem", NULL));
  PetscCall(MatDestroy(&s->op));
  PetscCall(SbpProblemDestroy(&s->p));
  PetscCall(PetscFree(A->data));
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
  Mat_SbpSat *s;
  PetscInt    m, n, M, N;
  VecType     vtype;

  PetscFunctionBegin;
  PetscCall(SbpInitializePackage());
  PetscCall(PetscNew(&s));
  PetscCall(SbpProblemCreate(PetscObjectComm((PetscObject)A), &s->p));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)s->p, ((PetscObject)A)->prefix));
  PetscCall(SbpProblemSetFromOptions(s->p));
  PetscCall(SbpProblemSetUp(s->p));
  PetscCall(SbpProblemCreateOperator(s->p, &s->op));
  PetscCall(MatGetLocalSize(s->op, &m, &n));
  PetscCall(MatGetSize(s->op, &M, &N));
  if (!((A->rmap->n < 0 || A->rmap->n == m) && (A->rmap->N < 0 || A->rmap->N == M))) {
    PetscInt Nr = s->p->Nr, Ns = s->p->Ns;
    PetscCall(MatDestroy(&s->op));
    PetscCall(SbpProblemDestroy(&s->p));
    PetscCall(PetscFree(s));
    SETERRQ(PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_SIZ,
            "MATSBPSAT sets its own sizes: %" PetscInt_FMT " unknowns (%" PetscInt_FMT " local) for the %" PetscInt_FMT " x %" PetscInt_FMT
            " grid, but the matrix was given %" PetscInt_FMT " (%" PetscInt_FMT " local)",
            M, m, Nr, Ns, A->rmap->N, A->rmap->n);
  }
  PetscCall(PetscLayoutSetLocalSize(A->rmap, m));
  PetscCall(PetscLayoutSetSize(A->rmap, M));
  PetscCall(PetscLayoutSetLocalSize(A->cmap, n));
  PetscCall(PetscLayoutSetSize(A->cmap, N));
  PetscCall(PetscLayoutSetUp(A->rmap));
  PetscCall(PetscLayoutSetUp(A->cmap));
  A->data                  = s;
  A->ops->mult             = MatMult_SbpSat;
  A->ops->multtranspose    = MatMult_SbpSat;
  A->ops->multadd          = MatMultAdd_SbpSat;
  A->ops->multtransposeadd = MatMultAdd_SbpSat;
  A->ops->getdiagonal      = MatGetDiagonal_SbpSat;
  A->ops->residual         = MatResidual_SbpSat;
  A->ops->view             = MatView_SbpSat;
  A->ops->destroy          = MatDestroy_SbpSat;
  A->assembled             = PETSC_TRUE;
  A->preallocated          = PETSC_TRUE;
  PetscCall(MatGetVecType(s->op, &vtype));
  PetscCall(MatSetVecType(A, vtype));
  PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(A, MAT_SPD, PETSC_TRUE));
  PetscCall(PetscObjectCompose((PetscObject)A, "SbpProblem", (PetscObject)s->p));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, MATSBPSAT));
  PetscFunctionReturn(0);
}
