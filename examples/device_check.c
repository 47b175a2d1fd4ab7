/* Report the OpenCL device sbpmg chooses and check a kernel on it against the host (the first step of make demo). */
#include <sbpmg.h>

static const char help[] = "sbpmg device check: device report and an axpy kernel against the host.\n";

int main(int argc, char **argv)
{
  SbpmgCL   cl;
  cl_kernel k;
  cl_mem    xd, yd;
  PetscInt  n = 1 << 20;
  double   *x, *y, alpha = 0.5, err = 0;
  int       ni;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SbpmgInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  ni = (int)n;
  PetscCall(SbpmgCLGetDefault(&cl));
  PetscCall(SbpmgCLView(cl, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(SbpmgCLGetKernel(cl, "selftest", "-DSBPMG_SELFTEST_T=double", "selftest_axpy", &k));
  PetscCall(PetscMalloc2(n, &x, n, &y));
  for (PetscInt i = 0; i < n; i++) {
    x[i] = PetscSinReal(0.001 * i);
    y[i] = PetscCosReal(0.002 * i);
  }
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, n * sizeof(double), &xd));
  PetscCall(SbpmgCLCreateBuffer(cl, CL_MEM_READ_WRITE, n * sizeof(double), &yd));
  PetscCall(SbpmgCLWriteBuffer(cl, xd, 0, n * sizeof(double), x));
  PetscCall(SbpmgCLWriteBuffer(cl, yd, 0, n * sizeof(double), y));
  PetscCall(SbpmgCLSetArgs(k, 0, 4, sizeof(int), &ni, sizeof(double), &alpha, sizeof(cl_mem), &xd, sizeof(cl_mem), &yd));
  PetscCall(SbpmgCLLaunch1D(cl, k, n, 256));
  PetscCall(SbpmgCLReadBuffer(cl, yd, 0, n * sizeof(double), y));
  for (PetscInt i = 0; i < n; i++) err = PetscMax(err, PetscAbsReal(y[i] - (PetscCosReal(0.002 * i) + alpha * PetscSinReal(0.001 * i))));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "kernel check (axpy, n = %" PetscInt_FMT ", fp64): max |device - host| = %.3e: %s\n", n, err,
                        err < 1e-15 ? "OK" : "FAILED"));
  PetscCall(SbpmgCLReleaseBuffer(cl, &xd));
  PetscCall(SbpmgCLReleaseBuffer(cl, &yd));
  PetscCall(PetscFree2(x, y));
  PetscCheck(err < 1e-15, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Kernel check failed: max error %g", err);
  PetscCall(PetscFinalize());
  return 0;
}
