/* The 25-point Laplacian alone, fp64 on the host, as a MatShell (zero values outside the grid). */
#include <sbpmg/private/acousticimpl.h>

typedef struct {
  PetscInt   n[3], px, pxy, origin;
  PetscReal  coef[3][5];
  PetscReal *pad; /* (nx+8)(ny+8)(nz+8), halo zero */
} AcLapCtx;

static PetscErrorCode AcLapCtxCreate(const PetscInt n[3], const PetscReal h[3], AcLapCtx **out)
{
  AcLapCtx *c;

  PetscFunctionBegin;
  PetscCall(PetscNew(&c));
  for (PetscInt a = 0; a < 3; a++) {
    c->n[a] = n[a];
    PetscCall(AcousticStencilWeights(h[a], c->coef[a]));
  }
  c->px     = n[0] + 8;
  c->pxy    = c->px * (n[1] + 8);
  c->origin = 4 + 4 * c->px + 4 * c->pxy;
  PetscCall(PetscCalloc1((size_t)c->pxy * (n[2] + 8), &c->pad));
  *out = c;
  PetscFunctionReturn(0);
}

static PetscErrorCode AcLapCtxDestroy(AcLapCtx **c)
{
  PetscFunctionBegin;
  if (!*c) PetscFunctionReturn(0);
  PetscCall(PetscFree((*c)->pad));
  PetscCall(PetscFree(*c));
  PetscFunctionReturn(0);
}

static void AcLapApply(AcLapCtx *c, const PetscReal *x, PetscReal *y)
{
  const PetscInt nx = c->n[0], ny = c->n[1], nz = c->n[2];

  for (PetscInt k = 0; k < nz; k++)
    for (PetscInt j = 0; j < ny; j++)
      for (PetscInt i = 0; i < nx; i++) c->pad[c->origin + i + j * c->px + k * c->pxy] = x[i + nx * (j + ny * k)];
  for (PetscInt k = 0; k < nz; k++)
    for (PetscInt j = 0; j < ny; j++)
      for (PetscInt i = 0; i < nx; i++) y[i + nx * (j + ny * k)] = AcLapPoint(c->pad, c->origin + i + j * c->px + k * c->pxy, c->px, c->pxy, c->coef);
}

/* y = lap(x) on an nx x ny x nz grid with spacings h, x and y of nx*ny*nz values, x fastest. */
PetscErrorCode AcousticLaplacianHost(const PetscInt n[3], const PetscReal h[3], const PetscReal x[], PetscReal y[])
{
  AcLapCtx *c;

  PetscFunctionBegin;
  PetscCall(AcLapCtxCreate(n, h, &c));
  AcLapApply(c, x, y);
  PetscCall(AcLapCtxDestroy(&c));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMult_AcousticLaplacian(Mat A, Vec x, Vec y)
{
  AcLapCtx          *c;
  const PetscScalar *xa;
  PetscScalar       *ya;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &c));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayWrite(y, &ya));
  AcLapApply(c, xa, ya);
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(VecRestoreArrayWrite(y, &ya));
  PetscCall(PetscLogFlops(37.0 * c->n[0] * c->n[1] * c->n[2]));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatGetDiagonal_AcousticLaplacian(Mat A, Vec d)
{
  AcLapCtx *c;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &c));
  PetscCall(VecSet(d, c->coef[0][0] + c->coef[1][0] + c->coef[2][0]));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatDestroy_AcousticLaplacian(Mat A)
{
  AcLapCtx *c;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &c));
  PetscCall(AcLapCtxDestroy(&c));
  PetscFunctionReturn(0);
}

/*@C
   MatCreateAcousticLaplacian - The 8th-order 25-point Laplacian of the acoustic operator as a MATSHELL, applied in fp64
   on the host: lap(u)_ijk = (c0x + c0y + c0z) u_ijk + sum_{m=1..4} [cmx (u_{i+m} + u_{i-m}) + cmy (...) + cmz (...)] with
   zero values outside the grid (the operator's zero halo). Symmetric negative definite.

   Collective

   Input Parameters:
+  comm       - one MPI rank for now
.  nx, ny, nz - grid points
-  dx, dy, dz - spacings

   Output Parameter:
.  A - the matrix, of size nx*ny*nz, x fastest; MatMult(), MatMultTranspose() and MatGetDiagonal() are supported

   Level: intermediate

.seealso: `AcousticCreate()`
@*/
PetscErrorCode MatCreateAcousticLaplacian(MPI_Comm comm, PetscInt nx, PetscInt ny, PetscInt nz, PetscReal dx, PetscReal dy, PetscReal dz, Mat *A)
{
  PetscMPIInt     size;
  const PetscInt  n[3] = {nx, ny, nz};
  const PetscReal h[3] = {dx, dy, dz};
  AcLapCtx       *c;
  PetscInt        N;

  PetscFunctionBegin;
  PetscValidPointer(A, 8);
  PetscCall(AcousticInitializePackage());
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCheck(size == 1, comm, PETSC_ERR_SUP, "MatCreateAcousticLaplacian runs on one MPI rank for now; this communicator has %d ranks", (int)size);
  PetscCheck(nx > 0 && ny > 0 && nz > 0, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "Grid size %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " must be positive on every axis", nx, ny, nz);
  PetscCheck(dx > 0 && dy > 0 && dz > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "Grid spacing %g, %g, %g must be positive", (double)dx, (double)dy, (double)dz);
  N = nx * ny * nz;
  PetscCall(AcLapCtxCreate(n, h, &c));
  PetscCall(MatCreateShell(comm, N, N, N, N, c, A));
  PetscCall(MatShellSetOperation(*A, MATOP_MULT, (void (*)(void))MatMult_AcousticLaplacian));
  PetscCall(MatShellSetOperation(*A, MATOP_MULT_TRANSPOSE, (void (*)(void))MatMult_AcousticLaplacian));
  PetscCall(MatShellSetOperation(*A, MATOP_GET_DIAGONAL, (void (*)(void))MatGetDiagonal_AcousticLaplacian));
  PetscCall(MatShellSetOperation(*A, MATOP_DESTROY, (void (*)(void))MatDestroy_AcousticLaplacian));
  PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(*A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  PetscCall(PetscObjectSetName((PetscObject)*A, "AcousticLaplacian"));
  PetscFunctionReturn(0);
}
