/* The acoustic operator's formulas (docs/acoustic.md): the stencil weights, the source wavelet, the trilinear weights of
   sources and receivers, the layered model, the damping profiles and the squared velocity of the padded layout. Pure functions of the object's settings; they
   call no other file of the layer. */
#include <sbpmg/private/acousticimpl.h>

/* The 8th-order second-derivative weights for spacing h: w_m / h^2, m = 0..4. */
PetscErrorCode AcousticStencilWeights(PetscReal h, PetscReal c[5])
{
  const PetscReal w[5] = {-205.0 / 72.0, 8.0 / 5.0, -1.0 / 5.0, 8.0 / 315.0, -1.0 / 560.0};

  PetscFunctionBegin;
  for (PetscInt m = 0; m < 5; m++) c[m] = w[m] / (h * h);
  PetscFunctionReturn(0);
}

/* amplitude * Ricker(t) of a source that starts at t = 0: peak frequency f0 = fmax / 2.5, the peak at t = 1.5 / f0. */
PetscReal AcousticRicker(PetscReal fmax, PetscReal amplitude, PetscReal t)
{
  const PetscReal f0 = fmax / 2.5, s = t - 1.5 / f0, a = PetscSqr(PETSC_PI * f0 * s);

  return amplitude * (1.0 - 2.0 * a) * PetscExpReal(-a);
}

/* The trilinear stencil of the point g (fractional grid indices, within [0, n - 1] on each axis): the 8 corners of its cell,
   p = bx + 2 by + 4 bz taking the upper index on the axes whose bit is set, with weights prod (b ? f : 1 - f). On an axis
   where g is a grid index (f = 0) both corners are that index, so a grid point has weight 1 at p = 0 and 0 elsewhere. */
void AcousticTrilinear(const PetscReal g[3], const PetscInt n[3], PetscInt ijk[8][3], PetscReal w[8])
{
  PetscInt  lo[3], hi[3];
  PetscReal f[3];

  for (PetscInt a = 0; a < 3; a++) {
    lo[a] = PetscMin((PetscInt)PetscFloorReal(g[a]), n[a] - 1);
    f[a]  = g[a] - lo[a];
    hi[a] = f[a] > 0 ? lo[a] + 1 : lo[a];
  }
  for (PetscInt p = 0; p < 8; p++) {
    w[p] = 1;
    for (PetscInt a = 0; a < 3; a++) {
      const PetscBool up = (PetscBool)((p >> a) & 1);
      ijk[p][a]          = up ? hi[a] : lo[a];
      w[p] *= up ? f[a] : 1 - f[a];
    }
  }
}

/* The velocity at depth z of a layered model: nl velocities, then nl - 1 increasing interface depths; a depth at or below an
   interface is in the layer under it. */
PetscReal AcousticLayerVelocity(PetscInt nl, const PetscReal layers[], PetscReal z)
{
  PetscInt l = 0;

  while (l < nl - 1 && z >= layers[nl + l]) l++;
  return layers[l];
}

/* Distance into the PML, in points, of index i on an axis of n points (0 inside; ndamp at the outermost point, ndamp+1
   at the ghost -1 or n). */
static PetscReal AcDampDistance(PetscInt i, PetscInt n, PetscInt nd)
{
  if (i < nd) return (PetscReal)(nd - i);
  if (i >= n - nd) return (PetscReal)(i - (n - nd) + 1);
  return 0;
}

/* Host copy (padded layout, float or double) of the fields set-up computes: vp and the eta profiles. */
PetscErrorCode AcousticComputeCoefficients_Private(Acoustic ac, const PetscReal *velfield, PetscReal *vp, PetscReal *eta)
{
  PetscFunctionBegin;
  if (vp) {
    const PetscReal vpc = PetscSqr(ac->vel * ac->dt);
    for (PetscInt k = 0; k < ac->nl[2]; k++)
      for (PetscInt j = 0; j < ac->n[1]; j++)
        for (PetscInt i = 0; i < ac->n[0]; i++) vp[AcIndex(ac, i, j, k)] = velfield ? PetscSqr(velfield[i + ac->n[0] * (j + ac->n[1] * k)] * ac->dt) : vpc;
  }
  if (eta) { /* zero padded: eta_a(i) at eoff[a] + i, i in [-9, n_a + 8], zero outside [-1, n_a] */
    for (PetscInt p = 0; p < ac->ecount; p++) eta[p] = 0;
    for (PetscInt a = 0; a < 3; a++) {
      for (PetscInt i = -1; i <= ac->n[a]; i++) {
        const PetscReal d    = AcDampDistance(i, ac->n[a], ac->ndamp);
        eta[ac->eoff[a] + i] = ac->ndamp ? ac->eta0[a] * PetscSqr(d / ac->ndamp) : 0.0;
      }
    }
  }
  PetscFunctionReturn(0);
}
