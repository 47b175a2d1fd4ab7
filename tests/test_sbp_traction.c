/* The traction n.(mu grad u) on a face (SbpProblemComputeFaceTraction(), src/sbp/traction.c, kernels/traction.cl): convergence to the
   exact traction of the manufactured solution; the spec's G_f formed from the 1D SBP blocks by Kronecker products and the assembled
   operator's boundary rows as references, through every mapping and mu path of the data API; the device against the host; several
   ranks against one (run under mpiexec -n 2 and 3); bad input. */
#include "test_sbp_common.h"

static const char help[] = "The traction on a face from a solution: convergence, references, device and host, ranks, bad input.\n";

/* ---------------------------------------------------------------- the problems: each mapping and mu path of the data API */

/* A warped square with x_s, y_r != 0 on every face (crs != 0: the derivative along the face counts), as a C function and as OpenCL. */
static void warp(PetscReal r, PetscReal s, PetscReal X[6])
{
  X[0] = r + 0.1 * s * s;
  X[1] = s + 0.15 * PetscSinReal(r);
  X[2] = 1;
  X[3] = 0.2 * s;
  X[4] = 0.15 * PetscCosReal(r);
  X[5] = 1;
}

static PetscErrorCode WarpMapping(void *ctx, PetscReal r, PetscReal s, PetscReal X[6])
{
  warp(r, s, X);
  return 0;
}

static const char WarpSource[] = "void sbp_user_mapping(double r, double s, double X[6])\n"
                                 "{\n  X[0] = r + 0.1 * s * s;\n  X[1] = s + 0.15 * sin(r);\n  X[2] = 1;\n  X[3] = 0.2 * s;\n"
                                 "  X[4] = 0.15 * cos(r);\n  X[5] = 1;\n}\n";

static PetscReal smooth_mu(PetscReal x, PetscReal y)
{
  return 2 + PetscSinReal(x) * PetscCosReal(y);
}

static PetscErrorCode SmoothMu(void *ctx, PetscReal x, PetscReal y, PetscReal *mu)
{
  *mu = smooth_mu(x, y);
  return 0;
}

static const char SmoothMuSource[] = "double sbp_user_mu(double x, double y) { return 2 + sin(x) * cos(y); }\n";

typedef enum { MAP_CURVED, MAP_SQUARE, MAP_FUNCTION, MAP_SOURCE, MAP_NODES } MapKind;
typedef enum { MU_BASIN, MU_CONSTANT, MU_FUNCTION, MU_SOURCE, MU_VALUES } MuKind;
typedef struct {
  const char *name;
  MapKind     map;
  MuKind      mu;
} Path;

static const Path Paths[] = {
    {"curved map, basin mu", MAP_CURVED, MU_BASIN},          {"square, constant mu", MAP_SQUARE, MU_CONSTANT},
    {"mapping and mu functions", MAP_FUNCTION, MU_FUNCTION}, {"mapping and mu OpenCL sources", MAP_SOURCE, MU_SOURCE},
    {"node coordinates, mu values", MAP_NODES, MU_VALUES},   {"curved map, mu values", MAP_CURVED, MU_VALUES},
};
#define NPATHS ((int)(sizeof(Paths) / sizeof(Paths[0])))

/* The path's mapping at reference point (r, s) (node coordinates: the warp they sample). */
static void path_mapping(const Path *c, PetscReal r, PetscReal s, PetscReal X[6])
{
  if (c->map == MAP_CURVED)
    PCALL(SbpMappingCurved(NULL, r, s, X));
  else if (c->map == MAP_SQUARE)
    PCALL(SbpMappingSquare(NULL, r, s, X));
  else
    warp(r, s, X);
}

/* A problem of the path on comm: Nr x Ns, faces bc ("DDNN"), on the backend, set up. */
static SbpProblem path_problem(MPI_Comm comm, const Path *c, PetscInt Nr, PetscInt Ns, const char *bc, SbpBackend backend)
{
  const PetscInt n = (Nr + 1) * (Ns + 1);
  SbpProblem     p;
  PetscReal     *x, *y, *mu;

  PCALL(SbpProblemCreate(comm, &p));
  PCALL(SbpProblemSetSizes(p, Nr, Ns));
  for (PetscInt f = 0; f < 4; f++) PCALL(SbpProblemSetBC(p, f + 1, bc[f] == 'D' ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN));
  PCALL(SbpProblemSetBackend(p, backend));
  PCALL(PetscMalloc3(n, &x, n, &y, n, &mu));
  for (PetscInt j = 0; j <= Ns; j++)
    for (PetscInt i = 0; i <= Nr; i++) {
      PetscReal X[6];
      path_mapping(c, -1 + 2.0 * i / Nr, -1 + 2.0 * j / Ns, X);
      x[i + (Nr + 1) * j]  = X[0];
      y[i + (Nr + 1) * j]  = X[1];
      mu[i + (Nr + 1) * j] = smooth_mu(X[0], X[1]);
    }
  if (c->map == MAP_CURVED) PCALL(SbpProblemSetMapping(p, SBP_MAPPING_CURVED));
  if (c->map == MAP_SQUARE) PCALL(SbpProblemSetMapping(p, SBP_MAPPING_SQUARE));
  if (c->map == MAP_FUNCTION) PCALL(SbpProblemSetMappingFunction(p, WarpMapping, NULL));
  if (c->map == MAP_SOURCE) PCALL(SbpProblemSetMappingSource(p, WarpSource));
  if (c->map == MAP_NODES) PCALL(SbpProblemSetNodeCoordinatesArrays(p, n, x, y));
  if (c->mu == MU_BASIN) PCALL(SbpProblemSetMu(p, SBP_MU_BASIN, 0));
  if (c->mu == MU_CONSTANT) PCALL(SbpProblemSetMu(p, SBP_MU_CONSTANT, 3));
  if (c->mu == MU_FUNCTION) PCALL(SbpProblemSetMuFunction(p, SmoothMu, NULL));
  if (c->mu == MU_SOURCE) PCALL(SbpProblemSetMuSource(p, SmoothMuSource));
  if (c->mu == MU_VALUES) PCALL(SbpProblemSetMuArray(p, n, mu));
  PCALL(PetscFree3(x, y, mu));
  PCALL(SbpProblemSetUp(p));
  return p;
}

/* The geometry at node (i, j) the problem's operator uses: the analytic mapping's, or the SBP derivative of the node coordinates. */
static void path_geometry(const Path *c, SbpProblem p, PetscInt i, PetscInt j, PetscReal X[6])
{
  if (c->map == MAP_NODES) {
    PCALL(SbpProblemGetHostNodes(p));
    PCALL(SbpProblemEvaluateMapping(p, i, j, X));
  } else
    path_mapping(c, -1 + i * p->hr, -1 + j * p->hs, X);
}

/* ---------------------------------------------------------------- (a) convergence to the exact traction */

/* The exact traction of the manufactured u = sin(pi x) cos(pi y) at node (i, j) of face `face`: mu n.grad u, n the unit outward normal. */
static PetscReal exact_traction(const Path *c, SbpProblem p, PetscInt face, PetscInt i, PetscInt j)
{
  PetscReal X[6], u, ux, uy, mu;

  path_geometry(c, p, i, j, X);
  SbpExactSolution(X[0], X[1], &u, &ux, &uy);
  if (c->mu == MU_CONSTANT)
    mu = 3;
  else if (c->mu == MU_BASIN)
    PCALL(SbpMuBasin(NULL, X[0], X[1], &mu));
  else
    mu = smooth_mu(X[0], X[1]);
  return SbpNeumannFlux(face, X, mu, ux, uy) / (face <= 2 ? PetscSqrtReal(X[3] * X[3] + X[5] * X[5]) : PetscSqrtReal(X[2] * X[2] + X[4] * X[4]));
}

/* The errors of the traction of u against the exact one on face `face`: err[0] the max at every node, err[1] the max over the middle
   three quarters of the face (away from the corners, where the derivative along the face is one-sided and the discrete solution's
   derivative has a layer of a few nodes), err[2] the face's H_f-weighted L2 norm. */
#define NERR 3
static void traction_errors(const Path *c, SbpProblem p, Vec u, PetscInt face, PetscReal err[NERR])
{
  PetscReal      *t = SbpTestTraction(p, u, face, NULL), sum = 0;
  const PetscInt  n = SbpTestFaceLength(p, face);
  const PetscReal h = 2.0 / (n - 1);

  err[0] = err[1] = 0;
  for (PetscInt k = 0; k < n; k++) {
    PetscInt  i, j;
    PetscReal e;
    SbpTestFaceNode(p, face, k, &i, &j);
    e      = PetscAbsReal(t[k] - exact_traction(c, p, face, i, j));
    err[0] = PetscMax(err[0], e);
    if (8 * k >= n - 1 && 8 * k <= 7 * (n - 1)) err[1] = PetscMax(err[1], e);
    sum += h * ((k == 0 || k == n - 1) ? 0.5 : 1) * e * e;
    if (PetscIsInfOrNanReal(t[k])) err[0] = err[1] = sum = NAN;
  }
  err[2] = PetscSqrtReal(sum);
  PCALL(PetscFree(t));
}

/* The errors on grid N of the path's problem with faces bc and the manufactured data, on each face: e[face-1][0..2] of the exact
   solution at the nodes, e[face-1][3..5] of the discrete solution (assembled operator, CHOLMOD); the traction on the device. */
static void convergence_errors(const Path *c, const char *bc, PetscInt N, PetscReal e[4][2 * NERR])
{
  SbpTestSystem s;
  Vec           ud, ue;

  SbpTestSystemCreate(path_problem(PETSC_COMM_SELF, c, N, N, bc, SBP_BACKEND_DEVICE), PETSC_TRUE, &s);
  s.ksp = SbpTestCholmod(s.A);
  (void)SbpTestSystemSolve(&s);
  PCALL(SbpProblemCreateVector(s.p, &ud)); /* the assembled operator's vectors are the host's: the traction of a device vector */
  PCALL(VecDuplicate(ud, &ue));
  SbpTestCopyLocal(s.u, ud);
  PCALL(SbpProblemComputeExactSolution(s.p, ue));
  for (PetscInt face = 1; face <= 4; face++) {
    traction_errors(c, s.p, ue, face, &e[face - 1][0]);
    traction_errors(c, s.p, ud, face, &e[face - 1][NERR]);
  }
  SbpmgTestDestroyVecs(&ud, &ue, NULL);
  SbpTestSystemDestroy(&s);
}

static PetscReal order(PetscReal coarse, PetscReal fine)
{
  return PetscLog2Real(coarse / fine);
}

/* The least order each error must reach between the last two grids (u exact, then u discrete: max, middle, L2) on the curved grid
   (crs != 0 at the corners) and on the square (crs = 0): the boundary derivative and D along the face are second order, but D is first
   order at the face's two end nodes, which the max and (as h^1.5) the L2 norm see. The discrete solution's traction is second order
   in the middle of the face; near a corner between two Neumann faces it reaches it late (1.57 from 64 to 128, 1.81 from 128 to 256 on
   the curved grid): the solution's corner layer, not the formula's (the exact solution's traction converges there). */
static const PetscReal NeedOrder[2][2 * NERR] = {
    {0.9, 1.9, 1.4, 0.85, 1.7, 1.4}, /* curved */
    {1.9, 1.9, 1.9, 1.6, 1.6, 1.7},  /* square */
};

/* Grids that double, faces Dirichlet and Neumann: the orders of the traction of the exact solution at the nodes and of the discrete
   solution against the exact traction (the table in docs/guide.md "The traction on a face"); under valgrind the two coarsest
   grids, the orders printed, not checked. */
static void test_convergence(void **state)
{
  const PetscInt  grids[] = {16, 32, 64, 128, 256};
  const PetscBool short_  = SbpmgTestUnderMemcheck();
  const PetscInt *Ns = short_ ? grids : grids + 1, ngrids = short_ ? 2 : 4;
  const Path      curved = {"curved map, smooth mu", MAP_CURVED, MU_FUNCTION}, square = {"square, constant mu", MAP_SQUARE, MU_CONSTANT};
  const Path     *cases[2]       = {&curved, &square};
  const char     *bcs[2]         = {"DNDN", "NDND"};
  const char     *what[2 * NERR] = {"u exact: max", "u exact: middle", "u exact: L2", "u discrete: max", "u discrete: middle", "u discrete: L2"};

  if (SbpTestWorldSize() > 1) return; /* one rank's solves (test_ranks compares the ranks) */
  for (int cs = 0; cs < 2; cs++)
    for (int b = 0; b < 2; b++) {
      PetscReal e[4][4][2 * NERR]; /* grid, face, quantity */

      for (PetscInt g = 0; g < ngrids; g++) convergence_errors(cases[cs], bcs[b], Ns[g], e[g]);
      print_message("  %s, faces %s: the error of the traction on N = %d .. %d (order)\n", cases[cs]->name, bcs[b], (int)Ns[0], (int)Ns[ngrids - 1]);
      for (PetscInt face = 1; face <= 4; face++)
        for (int q = 0; q < 2 * NERR; q++) {
          char line[256];
          int  at = snprintf(line, sizeof(line), "    face %d (%c) %-20s", (int)face, bcs[b][face - 1], what[q]);
          for (PetscInt g = 0; g < ngrids; g++)
            at += snprintf(line + at, sizeof(line) - (size_t)at, g ? " %.2e (%.2f)" : " %.2e", e[g][face - 1][q],
                           g ? order(e[g - 1][face - 1][q], e[g][face - 1][q]) : 0);
          print_message("%s\n", line);
        }
      for (PetscInt face = 1; face <= 4 && !short_; face++)
        for (int q = 0; q < 2 * NERR; q++) {
          const PetscReal o = order(e[ngrids - 2][face - 1][q], e[ngrids - 1][face - 1][q]);
          if (!(o >= NeedOrder[cs][q]))
            fail_msg("%s, faces %s, face %d: %s converges at order %g < %g", cases[cs]->name, bcs[b], (int)face, what[q], o, NeedOrder[cs][q]);
        }
    }
}

/* ---------------------------------------------------------------- (b) the references */

/* y = (B (x) A) x for 1D blocks in CSR: ((B (x) A) x)(a + A->m b) = sum B[b, b'] A[a, a'] x(a' + A->n b'). */
static void kron_apply(const SbpSparse1D *B, const SbpSparse1D *A, const PetscReal *x, PetscReal *y)
{
  for (PetscInt b = 0; b < B->m; b++)
    for (PetscInt a = 0; a < A->m; a++) {
      PetscReal v = 0;
      for (PetscInt qb = B->ia[b]; qb < B->ia[b + 1]; qb++)
        for (PetscInt qa = A->ia[a]; qa < A->ia[a + 1]; qa++) v += B->a[qb] * A->a[qa] * x[A->ja[qa] + A->n * B->ja[qb]];
      y[a + A->m * b] = v;
    }
}

/* The spec's G_f u = sigma H_f [Cn_f (normal boundary derivative, lifted) u + Ct_f L_f (D along the face, lifted) u] (3.3) from the 1D
   blocks by Kronecker products, then divided by H_f and sJ: the traction of u (natural order) on face `face` of a one-rank problem. */
static void kronecker_traction(const Path *c, SbpProblem p, PetscInt face, const PetscReal *u, PetscReal *t)
{
  const PetscBool rface = face <= 2, far = (face == 2 || face == 4) ? PETSC_TRUE : PETSC_FALSE;
  const PetscInt  Nt = rface ? p->Ns : p->Nr, Nn = rface ? p->Nr : p->Ns, np = (p->Nr + 1) * (p->Ns + 1);
  const PetscReal ht = rface ? p->hs : p->hr, hn = rface ? p->hr : p->hs, sigma = far ? 1 : -1;
  SbpSparse1D     It, In, Dt, d, e, Hf, one;
  PetscReal      *dn, *w, *Lw, *Hd;

  PCALL(SbpProblemGetHostCoefficients(p));
  PCALL(SbpSparse1DIdentity(Nt + 1, &It));
  PCALL(SbpSparse1DIdentity(Nn + 1, &In));
  PCALL(SbpSparse1DIdentity(1, &one));
  PCALL(SbpSparse1DDerivative(2, Nt, ht, &Dt));
  PCALL(SbpSparse1DBoundaryDerivative(2, Nn, hn, far, &d));
  PCALL(SbpSparse1DSelector(Nn + 1, far, &e));
  PCALL(SbpSparse1DNorm(2, Nt, ht, PETSC_FALSE, &Hf));
  PCALL(PetscMalloc4(Nt + 1, &dn, np, &w, Nt + 1, &Lw, (Nt + 1) * (Nt + 1), &Hd));
  if (rface) {
    kron_apply(&It, &d, u, dn); /* (I_s (x) d^T) u */
    kron_apply(&Dt, &In, u, w); /* (D_s (x) I_r) u */
    kron_apply(&It, &e, w, Lw); /* L_f = I_s (x) e^T */
  } else {
    kron_apply(&d, &It, u, dn); /* (d^T (x) I_r) u */
    kron_apply(&In, &Dt, u, w); /* (I_s (x) D_r) u */
    kron_apply(&e, &It, w, Lw); /* L_f = e^T (x) I_r */
  }
  PCALL(SbpSparse1DToDense(&Hf, Hd));
  for (PetscInt k = 0; k <= Nt; k++) {
    PetscInt  i, j, q;
    PetscReal X[6], G, sJ;

    SbpTestFaceNode(p, face, k, &i, &j);
    q = SbpPatchIndex(p, i, j);
    G = sigma * Hd[k * (Nt + 1) + k] * ((rface ? p->crr[q] : p->css[q]) * dn[k] + p->crs[q] * Lw[k]);
    path_geometry(c, p, i, j, X);
    sJ   = rface ? PetscSqrtReal(X[3] * X[3] + X[5] * X[5]) : PetscSqrtReal(X[2] * X[2] + X[4] * X[4]);
    t[k] = G / Hd[k * (Nt + 1) + k] / sJ;
  }
  PCALL(PetscFree4(dn, w, Lw, Hd));
  SbpSparse1D *all[] = {&It, &In, &one, &Dt, &d, &e, &Hf};
  for (size_t k = 0; k < sizeof(all) / sizeof(all[0]); k++) PCALL(SbpSparse1DDestroy(all[k]));
}

/* The traction of u on face `face` from the assembled operator's boundary rows: with face f Dirichlet rather than Neumann, M~ gains
   -L^T G - G^T L + L^T H Cn Gamma L (3.4), which on a u that is zero on the face is -L^T G u: (M_D - M_N) u = -G_f u on the face's
   rows (and zero elsewhere, checked). One rank, u zero on the face. */
static void assembled_traction(const Path *c, SbpProblem pd, SbpProblem pn, PetscInt face, Vec u, PetscReal *t, PetscReal *offface)
{
  Mat                Ad, An;
  Vec                yd, yn;
  const PetscScalar *a;
  const PetscInt     n = SbpTestFaceLength(pd, face);

  PCALL(SbpProblemCreateAssembledOperator(pd, &Ad));
  PCALL(SbpProblemCreateAssembledOperator(pn, &An));
  PCALL(MatCreateVecs(Ad, &yd, &yn));
  {
    Vec uh; /* the assembled operator's host vectors */
    PCALL(VecDuplicate(yd, &uh));
    SbpTestCopyLocal(u, uh);
    PCALL(MatMult(Ad, uh, yd));
    PCALL(MatMult(An, uh, yn));
    PCALL(VecDestroy(&uh));
  }
  PCALL(VecAXPY(yd, -1, yn)); /* (M_D - M_N) u */
  PCALL(VecGetArrayRead(yd, &a));
  *offface = 0;
  for (PetscInt q = 0; q < (pd->Nr + 1) * (pd->Ns + 1); q++) {
    PetscInt  i = q % (pd->Nr + 1), j = q / (pd->Nr + 1);
    PetscBool on = (face == 1 && i == 0) || (face == 2 && i == pd->Nr) || (face == 3 && j == 0) || (face == 4 && j == pd->Ns);
    if (!on) *offface = PetscMax(*offface, PetscAbsReal(PetscRealPart(a[q])));
  }
  for (PetscInt k = 0; k < n; k++) {
    PetscInt  i, j;
    PetscReal X[6], h = (face <= 2 ? pd->hs : pd->hr) * ((k == 0 || k == n - 1) ? 0.5 : 1), sJ;
    SbpTestFaceNode(pd, face, k, &i, &j);
    path_geometry(c, pd, i, j, X);
    sJ   = face <= 2 ? PetscSqrtReal(X[3] * X[3] + X[5] * X[5]) : PetscSqrtReal(X[2] * X[2] + X[4] * X[4]);
    t[k] = -PetscRealPart(a[i + (pd->Nr + 1) * j]) / h / sJ;
  }
  PCALL(VecRestoreArrayRead(yd, &a));
  SbpmgTestDestroyVecs(&yd, &yn, NULL);
  PCALL(MatDestroy(&Ad));
  PCALL(MatDestroy(&An));
}

/* Every path, every face, on the device: the traction equals the Kronecker G_f's to 1e-12, and the assembled boundary rows' for a u
   zero on the face. */
static void test_references(void **state)
{
  const PetscInt Nr = 14, Ns = 11;
  PetscReal      worst[2] = {0, 0};

  if (SbpTestWorldSize() > 1) return; /* one-rank references (test_ranks compares the ranks) */
  for (int c = 0; c < NPATHS; c++)
    for (PetscInt face = 1; face <= 4; face++) {
      char           bcd[5] = "NNNN";
      SbpProblem     p, pn;
      Vec            u;
      PetscReal     *t, *ref, *ua, off, d[2];
      PetscScalar   *uarr;
      const PetscInt n = face <= 2 ? Ns + 1 : Nr + 1;

      bcd[face - 1] = 'D';
      p             = path_problem(PETSC_COMM_SELF, &Paths[c], Nr, Ns, bcd, SBP_BACKEND_DEVICE);
      PCALL(SbpProblemCreateVector(p, &u));
      SbpTestFillU(p, u, 0);
      t = SbpTestTraction(p, u, face, NULL);
      PCALL(PetscMalloc2(n, &ref, (Nr + 1) * (Ns + 1), &ua));
      PCALL(VecGetArray(u, &uarr));
      for (PetscInt q = 0; q < (Nr + 1) * (Ns + 1); q++) ua[q] = PetscRealPart(uarr[q]);
      PCALL(VecRestoreArray(u, &uarr));
      kronecker_traction(&Paths[c], p, face, ua, ref);
      d[0] = SbpTestRelDiff(n, t, ref);
      PCALL(PetscFree(t));
      /* the assembled operator's boundary rows, face Dirichlet against Neumann, for u zero on the face */
      pn = path_problem(PETSC_COMM_SELF, &Paths[c], Nr, Ns, "NNNN", SBP_BACKEND_DEVICE);
      SbpTestFillU(p, u, face);
      t = SbpTestTraction(p, u, face, NULL);
      assembled_traction(&Paths[c], p, pn, face, u, ref, &off);
      d[1] = SbpTestRelDiff(n, t, ref);
      print_message("  %-32s face %d: against the Kronecker G_f %.1e, the assembled boundary rows %.1e (off the face %.0e)\n", Paths[c].name, (int)face, d[0],
                    d[1], off);
      if (!(d[0] <= 1e-12)) fail_msg("%s face %d: the traction differs from the Kronecker G_f by %g", Paths[c].name, (int)face, d[0]);
      if (!(d[1] <= 1e-12)) fail_msg("%s face %d: the traction differs from the assembled boundary rows by %g", Paths[c].name, (int)face, d[1]);
      if (!(off <= 1e-12)) fail_msg("%s face %d: M_D - M_N is %g off the face", Paths[c].name, (int)face, off);
      worst[0] = PetscMax(worst[0], d[0]);
      worst[1] = PetscMax(worst[1], d[1]);
      PCALL(PetscFree2(ref, ua));
      PCALL(PetscFree(t));
      PCALL(VecDestroy(&u));
      PCALL(SbpProblemDestroy(&pn));
      PCALL(SbpProblemDestroy(&p));
    }
  print_message("  worst: %.1e (Kronecker), %.1e (assembled rows)\n", worst[0], worst[1]);
}

/* ---------------------------------------------------------------- (c) the device and the host */

/* Every path the host can evaluate, every face: the device backend, the host backend and the device problem given host vectors (its
   host loops) agree to 1e-12. */
static void test_device_host(void **state)
{
  const PetscInt Nr = 20, Ns = 13;
  PetscReal      worst[2] = {0, 0};

  if (SbpTestWorldSize() > 1) return; /* test_ranks runs both backends on several ranks */
  for (int c = 0; c < NPATHS; c++) {
    SbpProblem pd, ph;
    Vec        ud, uh, us;

    if (Paths[c].map == MAP_SOURCE) continue; /* the host cannot evaluate OpenCL sources */
    pd = path_problem(PETSC_COMM_SELF, &Paths[c], Nr, Ns, "DDNN", SBP_BACKEND_DEVICE);
    ph = path_problem(PETSC_COMM_SELF, &Paths[c], Nr, Ns, "DDNN", SBP_BACKEND_HOST);
    PCALL(SbpProblemCreateVector(pd, &ud));
    PCALL(SbpProblemCreateVector(ph, &uh));
    PCALL(VecCreateSeq(PETSC_COMM_SELF, (Nr + 1) * (Ns + 1), &us));
    SbpTestFillU(pd, ud, 0);
    SbpTestFillU(ph, uh, 0);
    SbpTestFillU(pd, us, 0);
    for (PetscInt face = 1; face <= 4; face++) {
      PetscReal *td = SbpTestTraction(pd, ud, face, NULL), *th = SbpTestTraction(ph, uh, face, NULL), *ts, d[2];
      Vec        t;

      PCALL(VecCreateSeq(PETSC_COMM_SELF, SbpTestFaceLength(pd, face), &t)); /* host vectors on the device problem: its host loops */
      ts   = SbpTestTraction(pd, us, face, t);
      d[0] = SbpTestRelDiff(SbpTestFaceLength(pd, face), th, td);
      d[1] = SbpTestRelDiff(SbpTestFaceLength(pd, face), ts, td);
      print_message("  %-32s face %d: host backend - device %.1e, device problem's host loops - device %.1e\n", Paths[c].name, (int)face, d[0], d[1]);
      if (!(d[0] <= 1e-12 && d[1] <= 1e-12)) fail_msg("%s face %d: the host and the device differ by %g and %g", Paths[c].name, (int)face, d[0], d[1]);
      worst[0] = PetscMax(worst[0], d[0]);
      worst[1] = PetscMax(worst[1], d[1]);
      PCALL(PetscFree(td));
      PCALL(PetscFree(th));
      PCALL(PetscFree(ts));
      PCALL(VecDestroy(&t));
    }
    SbpmgTestDestroyVecs(&ud, &uh, &us, NULL);
    PCALL(SbpProblemDestroy(&pd));
    PCALL(SbpProblemDestroy(&ph));
  }
  print_message("  worst: %.1e (host backend), %.1e (host loops of a device problem)\n", worst[0], worst[1]);
}

/* ---------------------------------------------------------------- (d) several ranks */

/* The traction on each face of the problem on comm equals the one-rank problem's (on rank 0), every path, both backends, sizes whose
   rank grids cut the faces of r and of s. */
static void check_ranks(MPI_Comm comm, const Path *c, PetscInt Nr, PetscInt Ns, SbpBackend backend, PetscReal *worst)
{
  SbpProblem  pp = path_problem(comm, c, Nr, Ns, "DNND", backend), ps = NULL;
  Vec         up, us                                                  = NULL;
  PetscMPIInt rank, size;
  PetscInt    m, n, cut[4];

  PCALL(MPI_Comm_rank(comm, &rank));
  PCALL(MPI_Comm_size(comm, &size));
  PCALL(SbpProblemGetProcessGrid(pp, &m, &n));
  PCALL(SbpProblemCreateVector(pp, &up));
  SbpTestFillU(pp, up, 0);
  if (rank == 0) {
    ps = path_problem(PETSC_COMM_SELF, c, Nr, Ns, "DNND", backend);
    PCALL(SbpProblemCreateVector(ps, &us));
    SbpTestFillU(ps, us, 0);
  }
  for (PetscInt face = 1; face <= 4; face++) {
    PetscReal *tp = SbpTestTraction(pp, up, face, NULL), d = 0;
    PetscInt   first, count, owners;

    SbpProblemFaceOwned(pp, face, &first, &count);
    owners = count > 0;
    PCALL(MPI_Allreduce(MPI_IN_PLACE, &owners, 1, MPIU_INT, MPI_SUM, comm));
    cut[face - 1] = owners;
    if (rank == 0) {
      PetscReal *ts = SbpTestTraction(ps, us, face, NULL);
      d             = SbpTestRelDiff(SbpTestFaceLength(pp, face), tp, ts);
      PCALL(PetscFree(ts));
    }
    PCALL(MPI_Bcast(&d, 1, MPIU_REAL, 0, comm));
    if (!(d <= 1e-14))
      fail_msg("%s, %dx%d on %d ranks (%d x %d), %s backend, face %d: the traction differs from one rank's by %g", c->name, (int)Nr, (int)Ns, size, (int)m,
               (int)n, backend == SBP_BACKEND_HOST ? "host" : "device", (int)face, d);
    *worst = PetscMax(*worst, d);
    PCALL(PetscFree(tp));
  }
  if (rank == 0)
    print_message("  %-32s %dx%d on %d ranks (%d x %d), %s: faces held by %d, %d, %d, %d ranks; == one rank\n", c->name, (int)Nr, (int)Ns, size, (int)m, (int)n,
                  backend == SBP_BACKEND_HOST ? "host" : "device", (int)cut[0], (int)cut[1], (int)cut[2], (int)cut[3]);
  SbpmgTestDestroyVecs(&up, &us, NULL);
  PCALL(SbpProblemDestroy(&pp));
  PCALL(SbpProblemDestroy(&ps));
}

static void test_ranks(void **state)
{
  const PetscInt sizes[][2] = {{40, 16}, {16, 40}, {23, 23}};
  PetscReal      worst      = 0;

  if (SbpTestWorldSize() == 1) return; /* under mpiexec -n 2 and 3 (tests/sbp.cmake) */
  SbpTestDeviceFirstUse();
  for (int c = 0; c < NPATHS; c++)
    for (int g = 0; g < 3; g++) check_ranks(PETSC_COMM_WORLD, &Paths[c], sizes[g][0], sizes[g][1], SBP_BACKEND_DEVICE, &worst);
  for (int g = 0; g < 3; g++) {
    check_ranks(PETSC_COMM_WORLD, &Paths[0], sizes[g][0], sizes[g][1], SBP_BACKEND_HOST, &worst);
    check_ranks(PETSC_COMM_WORLD, &Paths[4], sizes[g][0], sizes[g][1], SBP_BACKEND_HOST, &worst);
  }
  print_message("  worst difference from one rank: %.1e\n", worst);
}

/* ---------------------------------------------------------------- (e) bad input */

/* A device vector of n entries on comm laid out unlike `held` (this rank's entries in the right layout): all on rank 0, or all on the
   last rank where rank 0 holds all already. */
static Vec misplaced_vector(MPI_Comm comm, PetscInt n, PetscInt held)
{
  PetscMPIInt rank, size;
  PetscInt    zero_holds_all = (held == n), local;
  Vec         v;

  PCALL(MPI_Comm_rank(comm, &rank));
  PCALL(MPI_Comm_size(comm, &size));
  PCALL(MPI_Bcast(&zero_holds_all, 1, MPIU_INT, 0, comm));
  local = zero_holds_all ? (rank == size - 1 ? n : 0) : (rank == 0 ? n : 0);
  PCALL(VecCreateOpenCL(comm, local, n, &v));
  return v;
}

static void test_bad_input(void **state)
{
  SbpProblem p = path_problem(PETSC_COMM_WORLD, &Paths[0], 16, 12, "DDNN", SBP_BACKEND_DEVICE), q, r;
  Vec        u, uq, t1, t3, t = NULL;

  q = path_problem(PETSC_COMM_WORLD, &Paths[0], 8, 8, "DDNN", SBP_BACKEND_DEVICE);
  PCALL(SbpProblemCreateVector(p, &u));
  PCALL(SbpProblemCreateVector(q, &uq));
  PCALL(SbpProblemCreateFaceVector(p, 1, &t1));
  PCALL(SbpProblemCreateFaceVector(p, 3, &t3));
  /* a face that does not exist */
  EXPECT_ERROR(SbpProblemCreateFaceVector(p, 0, &t), PETSC_ERR_ARG_OUTOFRANGE, "SbpProblemCreateFaceVector(): face 0 does not exist: faces are 1..4");
  assert_null(t);
  EXPECT_ERROR(SbpProblemComputeFaceTraction(p, u, 5, t1), PETSC_ERR_ARG_OUTOFRANGE, "SbpProblemComputeFaceTraction(): face 5 does not exist: faces are 1..4");
  /* the vector of another face, of another size */
  EXPECT_ERROR(SbpProblemComputeFaceTraction(p, u, 1, t3), PETSC_ERR_ARG_SIZ,
               "The traction vector of face 1 has 17 entries, but the face has 13 nodes (create it with SbpProblemCreateFaceVector())");
  /* u of another problem */
  EXPECT_ERROR(SbpProblemComputeFaceTraction(p, uq, 1, t1), PETSC_ERR_ARG_SIZ, "The solution u has 81 entries, but the 16 x 12 grid has 221 nodes");
  /* before the set-up */
  PCALL(SbpProblemCreate(PETSC_COMM_WORLD, &r));
  PCALL(SbpProblemSetSizes(r, 16, 12));
  EXPECT_ERROR(SbpProblemCreateFaceVector(r, 1, &t), PETSC_ERR_ORDER, "SbpProblemCreateFaceVector(): the SBP-SAT problem is not set up");
  assert_null(t);
  EXPECT_ERROR(SbpProblemComputeFaceTraction(r, u, 1, t1), PETSC_ERR_ORDER, "SbpProblemComputeFaceTraction(): the SBP-SAT problem is not set up");
  /* several ranks: vectors of the right sizes laid out otherwise */
  if (SbpTestWorldSize() > 1) {
    PetscInt first, count;
    Vec      tw, uw;

    SbpProblemFaceOwned(p, 1, &first, &count);
    tw = misplaced_vector(PETSC_COMM_WORLD, 13, count);
    uw = misplaced_vector(PETSC_COMM_WORLD, 17 * 13, p->xm * p->ym);
    EXPECT_ERROR(SbpProblemComputeFaceTraction(p, u, 1, tw), PETSC_ERR_ARG_SIZ, "The traction vector of face 1 is not laid out like the face: rank");
    EXPECT_ERROR(SbpProblemComputeFaceTraction(p, uw, 1, t1), PETSC_ERR_ARG_SIZ, "The solution u is not laid out like the problem: rank");
    SbpmgTestDestroyVecs(&tw, &uw, NULL);
  }
  SbpmgTestDestroyVecs(&u, &uq, &t1, &t3, NULL);
  PCALL(SbpProblemDestroy(&p));
  PCALL(SbpProblemDestroy(&q));
  PCALL(SbpProblemDestroy(&r));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_references), cmocka_unit_test(test_device_host), cmocka_unit_test(test_convergence),
    cmocka_unit_test(test_ranks),      cmocka_unit_test(test_bad_input),
};

SBPMG_TEST_MAIN(help, tests)
