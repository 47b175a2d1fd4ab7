/* y = A x, A = the 5-point Laplacian on an m x m grid with homogeneous Dirichlet boundaries (4 on the diagonal), as a
   MatShell: a device kernel on VECSEQOPENCL or plain loops on VECSEQ. PETSc's KSPs run on it unchanged, which is what the
   vector benchmark and the KSP test measure; it is not part of the library. */
#include "lap5shell.h"

static const char *lap5_src = "__kernel void lap2d(const int m, __global const SBPMG_REAL *x, __global SBPMG_REAL *y)\n"
                              "{\n"
                              "  const int k = get_global_id(0);\n"
                              "  if (k >= m * m) return;\n"
                              "  const int i = k % m, j = k / m;\n"
                              "  SBPMG_REAL s = 4 * x[k];\n"
                              "  if (i > 0) s -= x[k - 1];\n"
                              "  if (i < m - 1) s -= x[k + 1];\n"
                              "  if (j > 0) s -= x[k - m];\n"
                              "  if (j < m - 1) s -= x[k + m];\n"
                              "  y[k] = s;\n"
                              "}\n";

typedef struct {
  PetscInt  m;
  SbpmgCL   cl; /* the default context and its cached kernel (both owned by the library's caches) */
  cl_kernel k;
} Lap5Ctx;

static PetscErrorCode Lap5MultDevice(Mat A, Vec x, Vec y)
{
  Lap5Ctx *ctx;
  cl_mem   xb, yb;
  int      m;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &ctx));
  m = (int)ctx->m;
  PetscCall(VecOpenCLGetBufferRead(x, &xb));
  PetscCall(VecOpenCLGetBufferWrite(y, &yb));
  PetscCall(SbpmgCLSetArgs(ctx->k, 0, 3, sizeof(int), &m, sizeof(cl_mem), &xb, sizeof(cl_mem), &yb));
  PetscCall(SbpmgCLLaunch1D(ctx->cl, ctx->k, (size_t)m * m, 64));
  PetscCall(VecOpenCLRestoreBufferWrite(y, &yb));
  PetscCall(VecOpenCLRestoreBufferRead(x, &xb));
  PetscFunctionReturn(0);
}

static PetscErrorCode Lap5MultHost(Mat A, Vec x, Vec y)
{
  Lap5Ctx           *ctx;
  const PetscScalar *a;
  PetscScalar       *b;
  PetscInt           m;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &ctx));
  m = ctx->m;
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(VecGetArrayWrite(y, &b));
  for (PetscInt j = 0; j < m; j++)
    for (PetscInt i = 0; i < m; i++) {
      PetscInt    k = i + j * m;
      PetscScalar s = 4 * a[k];
      if (i > 0) s -= a[k - 1];
      if (i < m - 1) s -= a[k + 1];
      if (j > 0) s -= a[k - m];
      if (j < m - 1) s -= a[k + m];
      b[k] = s;
    }
  PetscCall(VecRestoreArrayWrite(y, &b));
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscFunctionReturn(0);
}

static PetscErrorCode Lap5Destroy(Mat A)
{
  Lap5Ctx *ctx;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(0);
}

/* The m^2 x m^2 Laplacian on the default device (device) or on the host; MatCreateVecs gives vectors of the matching type. */
PetscErrorCode Lap5CreateShell(PetscInt m, PetscBool device, Mat *A)
{
  Lap5Ctx *ctx;
  PetscInt n = m * m;

  PetscFunctionBegin;
  PetscCheck(m > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Laplacian grid size %" PetscInt_FMT " must be positive", m);
  PetscCall(PetscNew(&ctx));
  ctx->m = m;
  if (device) {
    PetscCall(SbpmgCLGetDefault(&ctx->cl));
    PetscCall(SbpmgCLGetKernelFromSource(ctx->cl, "lap5shell", lap5_src, NULL, "lap2d", &ctx->k));
  }
  PetscCall(MatCreateShell(PETSC_COMM_SELF, n, n, n, n, ctx, A));
  PetscCall(MatShellSetOperation(*A, MATOP_MULT, (void (*)(void))(device ? Lap5MultDevice : Lap5MultHost)));
  PetscCall(MatShellSetOperation(*A, MATOP_DESTROY, (void (*)(void))Lap5Destroy));
  PetscCall(MatShellSetVecType(*A, device ? VECSEQOPENCL : VECSEQ));
  PetscFunctionReturn(0);
}
