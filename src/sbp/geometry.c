/* Geometry of the SBP-SAT problem: the mapping X(r,s), the coefficient mu, the manufactured solution
   (spec-sbp-sat.md sections 0, 4 and 6.1). Pure point-wise functions. */
#include <sbpmg/private/sbpimpl.h>

/* Corners (4.1) and bump amplitude (4.2) */
static const PetscReal SbpX[4] = {-0.3, 0.5, 0.0, 1.0};
static const PetscReal SbpY[4] = {0.0, -0.25, 1.0, 1.5};
static const PetscReal SbpBeta = 0.1;

/* Edge e (1..4) at parameter t: value and derivative of both components (4.2). */
static void SbpCurvedEdge(int e, PetscReal t, PetscReal *x, PetscReal *y, PetscReal *dx, PetscReal *dy)
{
  const PetscReal m = (1 - t) / 2, p = (1 + t) / 2;
  const PetscReal S = PetscSinReal(PETSC_PI * (t + 1) / 2), C = (PETSC_PI / 2) * PetscCosReal(PETSC_PI * (t + 1) / 2);

  switch (e) {
  case 1:
    *x  = SbpX[0] * m + SbpX[2] * p + SbpBeta * S;
    *y  = SbpY[0] * m + SbpY[2] * p;
    *dx = (SbpX[2] - SbpX[0]) / 2 + SbpBeta * C;
    *dy = (SbpY[2] - SbpY[0]) / 2;
    break;
  case 2:
    *x  = SbpX[1] * m + SbpX[3] * p - SbpBeta * S;
    *y  = SbpY[1] * m + SbpY[3] * p;
    *dx = (SbpX[3] - SbpX[1]) / 2 - SbpBeta * C;
    *dy = (SbpY[3] - SbpY[1]) / 2;
    break;
  case 3:
    *x  = SbpX[0] * m + SbpX[1] * p;
    *y  = SbpY[0] * m + SbpY[1] * p + SbpBeta * S;
    *dx = (SbpX[1] - SbpX[0]) / 2;
    *dy = (SbpY[1] - SbpY[0]) / 2 + SbpBeta * C;
    break;
  default: /* edge 4: a full sine period */
    *x  = SbpX[2] * m + SbpX[3] * p;
    *y  = SbpY[2] * m + SbpY[3] * p + SbpBeta * PetscSinReal(PETSC_PI * (t + 1));
    *dx = (SbpX[3] - SbpX[2]) / 2;
    *dy = (SbpY[3] - SbpY[2]) / 2 + SbpBeta * PETSC_PI * PetscCosReal(PETSC_PI * (t + 1));
    break;
  }
}

/* Transfinite blend of one component (4.3); E[e] edge values, dE[e] edge derivatives, K corner values. */
static void SbpBlend(PetscReal r, PetscReal s, const PetscReal E[5], const PetscReal dE[5], const PetscReal K[4], PetscReal *v, PetscReal *vr, PetscReal *vs)
{
  *v = (1 - r) / 2 * E[1] + (1 + r) / 2 * E[2] + (1 - s) / 2 * E[3] + (1 + s) / 2 * E[4] -
       ((1 - r) * (1 - s) * K[0] + (1 + r) * (1 - s) * K[1] + (1 - r) * (1 + s) * K[2] + (1 + r) * (1 + s) * K[3]) / 4;
  *vr = (E[2] - E[1]) / 2 + (1 - s) / 2 * dE[3] + (1 + s) / 2 * dE[4] - (-(1 - s) * K[0] + (1 - s) * K[1] - (1 + s) * K[2] + (1 + s) * K[3]) / 4;
  *vs = (1 - r) / 2 * dE[1] + (1 + r) / 2 * dE[2] + (E[4] - E[3]) / 2 - (-(1 - r) * K[0] - (1 + r) * K[1] + (1 - r) * K[2] + (1 + r) * K[3]) / 4;
}

/* The curved quadrilateral of the spec: x, y and the analytic derivatives xr, xs, yr, ys at (r,s). */
PetscErrorCode SbpMappingCurved(void *ctx, PetscReal r, PetscReal s, PetscReal X[6])
{
  PetscReal Ex[5], Ey[5], dEx[5], dEy[5];

  PetscFunctionBegin;
  SbpCurvedEdge(1, s, &Ex[1], &Ey[1], &dEx[1], &dEy[1]);
  SbpCurvedEdge(2, s, &Ex[2], &Ey[2], &dEx[2], &dEy[2]);
  SbpCurvedEdge(3, r, &Ex[3], &Ey[3], &dEx[3], &dEy[3]);
  SbpCurvedEdge(4, r, &Ex[4], &Ey[4], &dEx[4], &dEy[4]);
  SbpBlend(r, s, Ex, dEx, SbpX, &X[0], &X[2], &X[3]);
  SbpBlend(r, s, Ey, dEy, SbpY, &X[1], &X[4], &X[5]);
  PetscFunctionReturn(0);
}

/* The identity map of the square [-1,1]^2. */
PetscErrorCode SbpMappingSquare(void *ctx, PetscReal r, PetscReal s, PetscReal X[6])
{
  PetscFunctionBegin;
  X[0] = r;
  X[1] = s;
  X[2] = 1; /* xr */
  X[3] = 0; /* xs */
  X[4] = 0; /* yr */
  X[5] = 1; /* ys */
  PetscFunctionReturn(0);
}

/* The smoothed elliptical basin (4.4), and its gradient. */
static void SbpBasin(PetscReal x, PetscReal y, PetscReal *mu, PetscReal grad[2])
{
  const PetscReal muout = 36, muin = 20, Lw = 0.05, D = 0.05;
  const PetscReal c = (Lw / 2) / D, rbar = (Lw / 2) * (Lw / 2), rw = 0.01 * (1 + (Lw / 2) / D);
  const PetscReal xi = (x * x + c * c * y * y - rbar) / rw, sech = 1 / PetscCoshReal(xi);

  *mu     = (muout - muin) / 2 * (PetscTanhReal(xi) + 1) + muin;
  grad[0] = (muout - muin) * x * sech * sech / rw;
  grad[1] = (muout - muin) * c * c * y * sech * sech / rw;
}

PetscErrorCode SbpMuBasin(void *ctx, PetscReal x, PetscReal y, PetscReal *mu)
{
  PetscReal grad[2];

  PetscFunctionBegin;
  SbpBasin(x, y, mu, grad);
  PetscFunctionReturn(0);
}

/* A constant coefficient; ctx points to its value. */
PetscErrorCode SbpMuConstant(void *ctx, PetscReal x, PetscReal y, PetscReal *mu)
{
  PetscFunctionBegin;
  *mu = *(PetscReal *)ctx;
  PetscFunctionReturn(0);
}

/* Manufactured solution (6.1): ue, its gradient and -div(mu grad ue) = f. */
void SbpExactSolution(PetscReal x, PetscReal y, PetscReal *ue, PetscReal *uex, PetscReal *uey)
{
  *ue  = PetscSinReal(PETSC_PI * x) * PetscCosReal(PETSC_PI * y);
  *uex = PETSC_PI * PetscCosReal(PETSC_PI * x) * PetscCosReal(PETSC_PI * y);
  *uey = -PETSC_PI * PetscSinReal(PETSC_PI * x) * PetscSinReal(PETSC_PI * y);
}

PetscReal SbpForcing(PetscReal x, PetscReal y, const PetscReal m[3])
{
  PetscReal ue, uex, uey;

  SbpExactSolution(x, y, &ue, &uex, &uey);
  return -(m[1] * uex + m[2] * uey) + 2 * PETSC_PI * PETSC_PI * m[0] * ue;
}

/* The mapping at the reference node (i,j): X = {x, y, xr, xs, yr, ys}. */
PetscErrorCode SbpProblemEvaluateMapping(SbpProblem p, PetscInt i, PetscInt j, PetscReal X[6])
{
  PetscFunctionBegin;
  if (p->mapping == SBP_MAPPING_NODES) {
    PetscCall(SbpProblemNodesMapping(p, i, j, X));
    PetscFunctionReturn(0);
  }
  if (!p->mapfn && p->xbox) { /* OpenCL source only: the device's values (src/sbp/maptable.c) */
    PetscCall(SbpProblemTableMapping(p, i, j, X));
    PetscFunctionReturn(0);
  }
  PetscCheck(p->mapfn, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE,
             "The mapping is OpenCL source (SbpProblemSetMappingSource()), which the host cannot evaluate: give it as a function too");
  PetscCall((*p->mapfn)(p->mapctx, -1 + i * p->hr, -1 + j * p->hs, X));
  PetscFunctionReturn(0);
}

/* The mapping and mu at node (i,j): m[0] = mu (m[1], m[2] zero: SbpProblemMuGradient() gives the gradient where needed). */
PetscErrorCode SbpProblemEvaluateNode(SbpProblem p, PetscInt i, PetscInt j, PetscReal X[6], PetscReal m[3])
{
  PetscFunctionBegin;
  PetscCall(SbpProblemEvaluateMapping(p, i, j, X));
  m[1] = m[2] = 0;
  if (p->mu == SBP_MU_NODES) {
    PetscCall(SbpProblemNodesMu(p, i, j, X, &m[0], NULL));
    PetscFunctionReturn(0);
  }
  PetscCheck(p->mufn, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE,
             "mu is OpenCL source (SbpProblemSetMuSource()), which the host cannot evaluate: give it as a function too");
  PetscCall((*p->mufn)(p->muctx, X[0], X[1], &m[0]));
  PetscFunctionReturn(0);
}

/* The gradient of mu at node (i,j) of geometry X into m[1], m[2] (the manufactured problem's forcing needs it): the basin's and a
   constant's exactly; mu at the nodes by D and the chain rule; a user's function by centred differences of step h = eps^(1/3)
   (1 + |x|) (truncation and rounding both about 1e-11 relative). */
PetscErrorCode SbpProblemMuGradient(SbpProblem p, PetscInt i, PetscInt j, const PetscReal X[6], PetscReal m[3])
{
  PetscFunctionBegin;
  if (p->mu == SBP_MU_BASIN) {
    PetscReal mu;
    SbpBasin(X[0], X[1], &mu, &m[1]);
  } else if (p->mu == SBP_MU_CONSTANT)
    m[1] = m[2] = 0;
  else if (p->mu == SBP_MU_NODES) {
    PetscReal mu;
    PetscCall(SbpProblemNodesMu(p, i, j, X, &mu, &m[1]));
  } else {
    const PetscReal hx = PetscCbrtReal(PETSC_MACHINE_EPSILON) * (1 + PetscAbsReal(X[0])), hy = PetscCbrtReal(PETSC_MACHINE_EPSILON) * (1 + PetscAbsReal(X[1]));
    PetscReal       a, b;

    PetscCheck(p->mufn, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE,
               "mu is OpenCL source (SbpProblemSetMuSource()), which the host cannot evaluate: give it as a function too");
    PetscCall((*p->mufn)(p->muctx, X[0] + hx, X[1], &a));
    PetscCall((*p->mufn)(p->muctx, X[0] - hx, X[1], &b));
    m[1] = (a - b) / (2 * hx);
    PetscCall((*p->mufn)(p->muctx, X[0], X[1] + hy, &a));
    PetscCall((*p->mufn)(p->muctx, X[0], X[1] - hy, &b));
    m[2] = (a - b) / (2 * hy);
  }
  PetscFunctionReturn(0);
}
