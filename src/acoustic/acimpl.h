/* Internal to src/acoustic: the host (fp64) stencil shared by the reference stepper and the MatShell Laplacian. */
#ifndef SBPMG_ACIMPL_H
#define SBPMG_ACIMPL_H

#include <sbpmg/impl.h>

/* The 25-point Laplacian at offset idx of a padded field with strides px (y) and pxy (z); c[a][m] = weight m of axis a
   (already divided by h_a^2), the centre weight being c[0][0] + c[1][0] + c[2][0]. */
static inline PetscReal AcLapPoint(const PetscReal *u, PetscInt idx, PetscInt px, PetscInt pxy, const PetscReal c[3][5])
{
  PetscReal lap = (c[0][0] + c[1][0] + c[2][0]) * u[idx];

  for (PetscInt m = 1; m <= 4; m++) {
    lap += c[0][m] * (u[idx - m] + u[idx + m]);
    lap += c[1][m] * (u[idx - m * px] + u[idx + m * px]);
    lap += c[2][m] * (u[idx - m * pxy] + u[idx + m * pxy]);
  }
  return lap;
}

/* Is (i, j, k) in the box [lo, hi)? */
static inline PetscBool AcInBox(const PetscInt lo[3], const PetscInt hi[3], PetscInt i, PetscInt j, PetscInt k)
{
  return (i >= lo[0] && i < hi[0] && j >= lo[1] && j < hi[1] && k >= lo[2] && k < hi[2]) ? PETSC_TRUE : PETSC_FALSE;
}

/* A real number for an error message: PETSc's %g for finite values (as the rest of the library prints them), "nan",
   "inf" or "-inf" otherwise (PETSc's %g would print "nan."). */
static inline PetscErrorCode AcRealString(PetscReal v, char buf[], size_t len)
{
  PetscFunctionBegin;
  if (PetscIsNanReal(v))
    PetscCall(PetscStrncpy(buf, "nan", len));
  else if (PetscIsInfReal(v))
    PetscCall(PetscStrncpy(buf, v > 0 ? "inf" : "-inf", len));
  else
    PetscCall(PetscSNPrintf(buf, len, "%g", (double)v));
  PetscFunctionReturn(0);
}

#define AcIndex(ac, i, j, k) ((ac)->origin + (i) + (j) * (ac)->px + (k) * (ac)->pxy)

#endif
