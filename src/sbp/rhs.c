/* Right-hand side g of the manufactured problem (spec-sbp-sat.md section 6), the exact solution and the error norms (section 7). */
#include <sbpmg/private/sbpimpl.h>

/* sbp_qt (Q^T along a line) and sbp_norm_weight (the weight of a node in H~), shared with the device kernels. */
#include "../../kernels/sbp.cl"

/* The Neumann data gN = sJ n.(mu grad u) on face f (6.4) from the metric X = (x, y, xr, xs, yr, ys), mu and grad u: the
   outward normal scaled by the face Jacobian is (-ys, xs), (ys, -xs), (yr, -xr), (-yr, xr) on faces 1..4. */
PetscReal SbpNeumannFlux(PetscInt face, const PetscReal X[6], PetscReal mu, PetscReal ux, PetscReal uy)
{
  const PetscReal xr = X[2], xs = X[3], yr = X[4], ys = X[5];

  switch (face) {
  case 1:
    return mu * (-ys * ux + xs * uy);
  case 2:
    return mu * (ys * ux - xs * uy);
  case 3:
    return mu * (yr * ux - xr * uy);
  default:
    return mu * (-yr * ux + xr * uy);
  }
}

/* Boundary data at node (i,j) of face f: ue there (Dirichlet data) and gN (Neumann data, 6.4). */
static PetscErrorCode SbpBoundaryData(SbpProblem p, PetscInt face, PetscInt i, PetscInt j, PetscReal *gD, PetscReal *gN)
{
  PetscReal X[6], m[3], ue, ux, uy;

  PetscFunctionBegin;
  PetscCall(SbpProblemEvaluateNode(p, i, j, X, m));
  SbpExactSolution(X[0], X[1], &ue, &ux, &uy);
  *gD = ue;
  *gN = SbpNeumannFlux(face, X, m[0], ux, uy);
  PetscFunctionReturn(0);
}

/* The Dirichlet SAT data of face f (6.3) added into the rows (i,j) of this rank it touches. */
static PetscErrorCode SbpAddDirichletData(SbpProblem p, PetscInt face, PetscScalar **g)
{
  const PetscBool rface  = face <= 2 ? PETSC_TRUE : PETSC_FALSE;
  const PetscInt  Nt     = rface ? p->Ns : p->Nr;                                     /* intervals along the face */
  const PetscInt  n0     = face == 1 ? 0 : face == 2 ? p->Nr : face == 3 ? 0 : p->Ns; /* the face's grid line */
  const PetscInt  inward = (face == 1 || face == 3) ? 1 : -1;
  const PetscReal sgn    = (face == 1 || face == 3) ? 1 : -1;

  PetscFunctionBegin;
  { /* rows n0, n0 + inward, n0 + 2 inward: on several ranks, a rank may own none of them (and the face line need not even be in
       its ghosted patch) */
    PetscBool touches = PETSC_FALSE;
    for (PetscInt q = 0; q < 3; q++) {
      PetscInt r = n0 + inward * q;
      if (rface ? (r >= p->xs && r < p->xs + p->xm) : (r >= p->ys && r < p->ys + p->ym)) touches = PETSC_TRUE;
    }
    if (!touches) PetscFunctionReturn(0);
  }
  for (PetscInt t = 0; t <= Nt; t++) {
    PetscInt  tm = t > 0 ? t - 1 : t, tp = t < Nt ? t + 1 : t;
    PetscInt  i = rface ? n0 : t, j = rface ? t : n0;
    PetscInt  im = rface ? n0 : tm, jm = rface ? tm : n0, ip = rface ? n0 : tp, jp = rface ? tp : n0;
    PetscReal cn, w, d, psi, gD, gN, gDm, gDp, dummy;

    /* only faces nodes whose rows (or their neighbours two lines in) belong to this rank */
    if (rface ? (j < p->ys || j >= p->ys + p->ym) : (i < p->xs || i >= p->xs + p->xm)) continue;
    cn  = rface ? p->crr[SbpPatchIndex(p, i, j)] : p->css[SbpPatchIndex(p, i, j)];
    w   = (t == 0 || t == Nt) ? 0.5 : 1;
    d   = (rface ? p->rho : 1 / p->rho) * w * cn;
    psi = PetscMin(cn, rface ? p->crr[SbpPatchIndex(p, i + inward, j)] : p->css[SbpPatchIndex(p, i, j + inward)]);
    PetscCall(SbpBoundaryData(p, face, i, j, &gD, &gN));
    PetscCall(SbpBoundaryData(p, face, im, jm, &gDm, &dummy));
    PetscCall(SbpBoundaryData(p, face, ip, jp, &gDp, &dummy));
    for (PetscInt q = 0; q < 3; q++) {
      PetscInt  ri = rface ? n0 + inward * q : i, rj = rface ? j : n0 + inward * q;
      PetscReal v;
      if (ri < p->xs || ri >= p->xs + p->xm || rj < p->ys || rj >= p->ys + p->ym) continue;
      if (q == 0) {
        PetscReal bm = p->crs[SbpPatchIndex(p, im, jm)], b0 = p->crs[SbpPatchIndex(p, i, j)], bp = p->crs[SbpPatchIndex(p, ip, jp)];
        v = d * (4 + cn / psi - 1.5) * gD + sgn * sbp_qt((int)t, (int)Nt, bm * gDm, b0 * gD, bp * gDp);
      } else if (q == 1)
        v = 2 * d * gD;
      else
        v = -0.5 * d * gD;
      g[rj][ri] += v;
    }
  }
  PetscFunctionReturn(0);
}

/* The Neumann data of face f (6.4): H_f gN added into the face rows of this rank. */
static PetscErrorCode SbpAddNeumannData(SbpProblem p, PetscInt face, PetscScalar **g)
{
  PetscFunctionBegin;
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) {
      PetscBool on = (face == 1 && i == 0) || (face == 2 && i == p->Nr) || (face == 3 && j == 0) || (face == 4 && j == p->Ns);
      PetscReal gD = 0, gN = 0, w;
      if (!on) continue;
      PetscCall(SbpBoundaryData(p, face, i, j, &gD, &gN));
      w = face <= 2 ? p->hs * ((j == 0 || j == p->Ns) ? 0.5 : 1) : p->hr * ((i == 0 || i == p->Nr) ? 0.5 : 1);
      g[j][i] += w * gN;
    }
  PetscFunctionReturn(0);
}

/* v(i,j) = fn(p, k, X, m) at every owned node (i,j), k its index in the ghosted patch, X its geometry and m mu there. */
typedef PetscErrorCode (*SbpNodeFunction)(SbpProblem, PetscInt, PetscInt, PetscInt, const PetscReal[6], const PetscReal[3], PetscScalar *);

static PetscErrorCode SbpProblemSetNodes(SbpProblem p, Vec v, SbpNodeFunction fn)
{
  PetscScalar **va;

  PetscFunctionBegin;
  PetscCall(SbpProblemVecGetArray(p, v, PETSC_FALSE, &va));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) {
      PetscReal X[6], m[3];
      PetscCall(SbpProblemEvaluateNode(p, i, j, X, m));
      PetscCall((*fn)(p, i, j, SbpPatchIndex(p, i, j), X, m, &va[j][i]));
    }
  PetscCall(SbpProblemVecRestoreArray(p, v, PETSC_FALSE, &va));
  PetscFunctionReturn(0);
}

/* The volume term of the right-hand side, J H f. */
static PetscErrorCode SbpForcingNode(SbpProblem p, PetscInt i, PetscInt j, PetscInt k, const PetscReal X[6], const PetscReal m[3], PetscScalar *g)
{
  PetscReal w = sbp_norm_weight((int)i, (int)j, (int)p->Nr, (int)p->Ns, p->hr, p->hs, 0, 1);

  PetscFunctionBegin;
  *g = p->J[k] * w * SbpForcing(X[0], X[1], m);
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpExactNode(SbpProblem p, PetscInt i, PetscInt j, PetscInt k, const PetscReal X[6], const PetscReal m[3], PetscScalar *u)
{
  PetscReal ux, uy;

  PetscFunctionBegin;
  SbpExactSolution(X[0], X[1], u, &ux, &uy);
  PetscFunctionReturn(0);
}

/* The device computes the right-hand side when the problem is on the device, g is a device vector and the device can evaluate
   the data: the mapping (built-in or the user's source) and mu with its gradient (built-in). */
static PetscErrorCode SbpProblemRHSOnDevice(SbpProblem p, Vec g, PetscBool *dev)
{
  PetscBool isdev;

  PetscFunctionBegin;
  PetscCall(VecIsOpenCL(g, &isdev));
  *dev = p->use_device && isdev && (p->mapping != SBP_MAPPING_USER || p->mapsrc) && p->mu != SBP_MU_USER && !p->metricfn && !p->metricsrc ? PETSC_TRUE
                                                                                                                                          : PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* g on the device (kernels/rhs.cl rhs_manufactured, built after sbp.cl and coef.cl with the problem's specialisations). */
static PetscErrorCode SbpProblemComputeRHSDevice(SbpProblem p, Vec g)
{
  cl_kernel   k;
  cl_mem      gb;
  const char *sbpopts;
  int         Nr = (int)p->Nr, Ns = (int)p->Ns, flags, xs = (int)p->xs, ys = (int)p->ys, xm = (int)p->xm, ym = (int)p->ym, gxs = (int)p->gxs, gys = (int)p->gys,
      gxm          = (int)p->gxm;
  size_t global[2] = {(size_t)p->xm, (size_t)p->ym};

  PetscFunctionBegin;
  PetscCall(SbpProblemCheckDeviceVec(p, g, "the right-hand side"));
  PetscCall(SbpProblemBCFlags(p, &flags));
  PetscCall(SbpProblemGetBuildOptions(p, PETSC_FALSE, &sbpopts));
  PetscCall(SbpProblemGetPointKernel(p, "coef+sbp+rhs", sbpopts, "rhs_manufactured", &k));
  PetscCall(VecOpenCLGetBufferWrite(g, &gb));
  PetscCall(SbpmgCLSetArgs(k, 0, 19, sizeof(int), &Nr, sizeof(int), &Ns, sizeof(PetscReal), &p->hr, sizeof(PetscReal), &p->hs, sizeof(PetscReal), &p->rho,
                           sizeof(int), &flags, sizeof(PetscReal), &p->mu_value, sizeof(int), &xs, sizeof(int), &ys, sizeof(int), &xm, sizeof(int), &ym,
                           sizeof(int), &gxs, sizeof(int), &gys, sizeof(int), &gxm, sizeof(cl_mem), &p->d_crr, sizeof(cl_mem), &p->d_css, sizeof(cl_mem),
                           &p->d_crs, sizeof(cl_mem), &p->d_J, sizeof(cl_mem), &gb));
  PetscCall(SbpProblemLaunch2D(p, k, global));
  PetscCall(VecOpenCLRestoreBufferWrite(g, &gb));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemComputeRHS - The right-hand side g = JH f + sum over Dirichlet faces K_f gD + sum over Neumann faces L_f^T H_f gN of the
   manufactured problem ue = sin(pi x) cos(pi y) (docs/guide.md "The right-hand side"), point-wise: on the device when the problem
   is there and g is a device vector (for the built-in mu, and the built-in mapping or the user's mapping source), else on the host.

   Collective

   Level: beginner
@*/
PetscErrorCode SbpProblemComputeRHS(SbpProblem p, Vec g)
{
  PetscScalar **ga;
  PetscBool     dev = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  PetscCall(SbpProblemRHSOnDevice(p, g, &dev));
  if (dev) {
    PetscCall(SbpProblemComputeRHSDevice(p, g));
    PetscFunctionReturn(0);
  }
  PetscCall(SbpProblemGetHostCoefficients(p));
  PetscCall(SbpProblemSetNodes(p, g, SbpForcingNode));
  PetscCall(SbpProblemVecGetArray(p, g, PETSC_FALSE, &ga));
  for (PetscInt face = 1; face <= 4; face++) {
    if (p->bc[face - 1] == SBP_BC_DIRICHLET)
      PetscCall(SbpAddDirichletData(p, face, ga));
    else
      PetscCall(SbpAddNeumannData(p, face, ga));
  }
  PetscCall(SbpProblemVecRestoreArray(p, g, PETSC_FALSE, &ga));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemComputeExactSolution - ue = sin(pi x) cos(pi y) at the nodes.

   Level: beginner
@*/
PetscErrorCode SbpProblemComputeExactSolution(SbpProblem p, Vec u)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemSetNodes(p, u, SbpExactNode));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemComputeError - The error e = u - ue at the nodes in the two norms of spec section 7: ||e||_H = sqrt(e^T H~ e) (without J,
   the measure of the original code) and ||e||_JH = sqrt(e^T diag(J) H~ e). Either output may be NULL.

   Collective

   Level: beginner
@*/
PetscErrorCode SbpProblemComputeError(SbpProblem p, Vec u, PetscReal *errH, PetscReal *errJH)
{
  const PetscScalar **ua;
  PetscReal           local[2] = {0, 0}, global[2];

  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  PetscCall(SbpProblemVecGetArray(p, u, PETSC_TRUE, (PetscScalar ***)&ua));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) { /* the geometry evaluated at each node: no grid-sized host arrays */
      PetscReal X[6], m[3], c[4], ue, ux, uy, e, w, J;
      PetscCall(SbpProblemEvaluateNode(p, i, j, X, m));
      if (p->metricfn) {
        PetscCall((*p->metricfn)(p->metricctx, -1 + i * p->hr, -1 + j * p->hs, X, m, c));
        J = c[3];
      } else
        J = X[2] * X[5] - X[3] * X[4];
      SbpExactSolution(X[0], X[1], &ue, &ux, &uy);
      e = PetscRealPart(ua[j][i]) - ue;
      w = sbp_norm_weight((int)i, (int)j, (int)p->Nr, (int)p->Ns, p->hr, p->hs, 0, 1);
      local[0] += w * e * e;
      local[1] += J * w * e * e;
    }
  PetscCall(SbpProblemVecRestoreArray(p, u, PETSC_TRUE, (PetscScalar ***)&ua));
  PetscCall(MPIU_Allreduce(local, global, 2, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)p)));
  if (errH) *errH = PetscSqrtReal(global[0]);
  if (errJH) *errJH = PetscSqrtReal(global[1]);
  PetscFunctionReturn(0);
}
