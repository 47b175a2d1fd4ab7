/* The right-hand side b = J H f + the SAT data of the faces (docs/guide.md "The right-hand side") from the problem's data
   (src/sbp/data.c: the manufactured problem's until the user gives some), on the host or on the device (kernels/rhs.cl). The exact
   solution and the error norms: src/sbp/exact.c. */
#include <sbpmg/private/sbpimpl.h>
#include "sbpmg_kernel_args.h"

/* sbp_qt (Q^T along a line) and sbp_norm_weight (the weight of a node in H~), shared with the device kernels; the order-p pieces read
   from the packed table of the order (kernels/sbp_face.cl, spec-sbp-sat-highorder.md 1). */
#include "../../kernels/sbp.cl"
#include "../../kernels/sbp_table.cl"
#include "../../kernels/sbp_face.cl"

/* The arguments of kernels/rhs.cl by name (include/sbpmg/private/climpl.h SBPMG_CL_SET_ARGS; its reals are double): the right-hand
   side's (rhs_build) and the norm weights' (rhs_norm_weights). */
typedef struct {
  SBP_GRID_ARGS;
  SBP_POINT_ARGS;
  SbpmgCLArgValue rho, dirichlet, fv, gv, off, tab, g;
} SbpRHSBuildArgs;
typedef struct {
  SBP_GRID_ARGS;
  SbpmgCLArgValue J, tab, w, jw;
} SbpNormWeightsArgs;

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
    PetscReal cn, w, d, psi, gD, gDm, gDp;

    /* only faces nodes whose rows (or their neighbours two lines in) belong to this rank */
    if (rface ? (j < p->ys || j >= p->ys + p->ym) : (i < p->xs || i >= p->xs + p->xm)) continue;
    cn  = rface ? p->crr[SbpPatchIndex(p, i, j)] : p->css[SbpPatchIndex(p, i, j)];
    w   = (t == 0 || t == Nt) ? 0.5 : 1;
    d   = (rface ? p->rho : 1 / p->rho) * w * cn;
    psi = PetscMin(cn, rface ? p->crr[SbpPatchIndex(p, i + inward, j)] : p->css[SbpPatchIndex(p, i, j + inward)]);
    PetscCall(SbpProblemFaceDataAt(p, face, i, j, &gD));
    PetscCall(SbpProblemFaceDataAt(p, face, im, jm, &gDm));
    PetscCall(SbpProblemFaceDataAt(p, face, ip, jp, &gDp));
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

/* The face row of the Dirichlet SAT data of face f at order p > 2 at node t along it (spec-sbp-sat-highorder.md 4): delta (Gamma^ - BS_0) gD
   + sigma (Q^T (b gD))_t, Gamma^ = 2/theta_R + cn/(alpha psi), psi the least cn over l lines (3.2); cn, delta and gD at t given. */
static PetscErrorCode SbpDirichletFaceRowWide(SbpProblem p, PetscInt face, const PetscReal *tab, PetscInt t, PetscReal cn, PetscReal d, PetscReal gD,
                                              PetscReal *v)
{
  const PetscBool rface = face <= 2 ? PETSC_TRUE : PETSC_FALSE;
  const PetscInt  Nt = rface ? p->Ns : p->Nr, n0 = face == 1 ? 0 : face == 2 ? p->Nr : face == 3 ? 0 : p->Ns;
  const PetscInt  inward = (face == 1 || face == 3) ? 1 : -1;
  const PetscReal sgn    = (face == 1 || face == 3) ? 1 : -1;
  PetscReal       psi = cn, s = 0;
  int             lo, hi;

  PetscFunctionBegin;
  for (PetscInt m = 1; m < SBP_TAB_INT(tab, SBP_T_L); m++) /* the l lines are this rank's (SbpProblemMinimumOwned) */
    psi = PetscMin(psi, rface ? p->crr[SbpPatchIndex(p, n0 + inward * m, t)] : p->css[SbpPatchIndex(p, t, n0 + inward * m)]);
  sbp_face_qt_rows(tab, (int)Nt, (int)t, &lo, &hi);
  for (PetscInt tt = lo; tt <= hi; tt++) {
    const PetscReal qv = sbp_face_q(tab, (int)Nt, (int)tt, (int)t);
    const PetscInt  ii = rface ? n0 : tt, jj = rface ? tt : n0;
    PetscReal       g;
    if (qv == 0) continue;
    PetscCall(SbpProblemFaceDataAt(p, face, ii, jj, &g));
    s += qv * p->crs[SbpPatchIndex(p, ii, jj)] * g;
  }
  *v = d * (2 / tab[SBP_T_THETA] + cn / (tab[SBP_T_ALPHA] * psi) - tab[SBP_T_BS]) * gD + sgn * s;
  PetscFunctionReturn(0);
}

/* The Dirichlet SAT data of face f at order p > 2 (spec-sbp-sat-highorder.md 4) added into the rows of this rank it touches: the face row
   and nBS - 1 lines in, which get -delta BS_k gD (delta = rho w_t cn on faces 1, 2, w_t cn / rho on 3, 4). */
static PetscErrorCode SbpAddDirichletDataWide(SbpProblem p, PetscInt face, const PetscReal *tab, PetscScalar **g)
{
  const PetscBool rface = face <= 2 ? PETSC_TRUE : PETSC_FALSE;
  const PetscInt  Nt = rface ? p->Ns : p->Nr, n0 = face == 1 ? 0 : face == 2 ? p->Nr : face == 3 ? 0 : p->Ns;
  const PetscInt  inward = (face == 1 || face == 3) ? 1 : -1, nBS = SBP_TAB_INT(tab, SBP_T_NBS);
  const PetscInt  tlo = rface ? p->ys : p->xs, thi = rface ? p->ys + p->ym : p->xs + p->xm, nlo = rface ? p->xs : p->ys,
                 nhi = rface ? p->xs + p->xm : p->ys + p->ym;
  PetscBool touches  = PETSC_FALSE;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < nBS; k++)
    if (n0 + inward * k >= nlo && n0 + inward * k < nhi) touches = PETSC_TRUE;
  if (!touches) PetscFunctionReturn(0); /* none of the face's rows here (the face line need not be in the patch) */
  for (PetscInt t = tlo; t < thi; t++) {
    const PetscInt  i = rface ? n0 : t, j = rface ? t : n0;
    const PetscReal cn = rface ? p->crr[SbpPatchIndex(p, i, j)] : p->css[SbpPatchIndex(p, i, j)];
    const PetscReal d  = (rface ? p->rho : 1 / p->rho) * sbp_face_weight(tab, (int)Nt, (int)t) * cn;
    PetscReal       gD;

    PetscCall(SbpProblemFaceDataAt(p, face, i, j, &gD));
    for (PetscInt k = 0; k < nBS; k++) {
      const PetscInt r = n0 + inward * k;
      PetscReal      v = 0;
      if (r < nlo || r >= nhi) continue;
      if (k == 0)
        PetscCall(SbpDirichletFaceRowWide(p, face, tab, t, cn, d, gD, &v));
      else
        v = -d * tab[SBP_T_BS + k] * gD;
      if (rface)
        g[j][r] += v;
      else
        g[r][i] += v;
    }
  }
  PetscFunctionReturn(0);
}

/* The Neumann data of face f (6.4; spec-sbp-sat-highorder.md 4 at order p > 2, tab the order's table, NULL at order 2): H_f gN added into
   the face rows of this rank. */
static PetscErrorCode SbpAddNeumannData(SbpProblem p, PetscInt face, const PetscReal *tab, PetscScalar **g)
{
  PetscFunctionBegin;
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) {
      PetscBool on = (face == 1 && i == 0) || (face == 2 && i == p->Nr) || (face == 3 && j == 0) || (face == 4 && j == p->Ns);
      PetscReal gN = 0, w;
      if (!on) continue;
      PetscCall(SbpProblemFaceDataAt(p, face, i, j, &gN));
      if (tab)
        w = face <= 2 ? p->hs * sbp_face_weight(tab, (int)p->Ns, (int)j) : p->hr * sbp_face_weight(tab, (int)p->Nr, (int)i);
      else
        w = face <= 2 ? p->hs * ((j == 0 || j == p->Ns) ? 0.5 : 1) : p->hr * ((i == 0 || i == p->Nr) ? 0.5 : 1);
      g[j][i] += w * gN;
    }
  PetscFunctionReturn(0);
}

/* x and y of the owned nodes by the host's evaluation of the geometry, into the owned-block arrays xa, ya (r fastest). */
static PetscErrorCode SbpProblemCoordinatesOnHost(SbpProblem p, PetscScalar *xa, PetscScalar *ya)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemGetHostNodes(p));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) {
      const PetscInt k = (i - p->xs) + p->xm * (j - p->ys);
      PetscReal      X[6];

      PetscCall(SbpProblemEvaluateMapping(p, i, j, X));
      xa[k] = X[0];
      ya[k] = X[1];
    }
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemGetCoordinates - The physical coordinates x and y of the nodes, in two vectors laid out like SbpProblemCreateVector()'s
   (host vectors: for a user's output or to compute values at the nodes). Each call makes two new vectors: the caller owns them and
   destroys them with VecDestroy() (docs/guide.md "Bringing a problem").

   Collective

   Level: beginner
@*/
PetscErrorCode SbpProblemGetCoordinates(SbpProblem p, Vec *x, Vec *y)
{
  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)p), p->xm * p->ym, (p->Nr + 1) * (p->Ns + 1), x));
  PetscCall(VecDuplicate(*x, y));
  {
    PetscScalar   *xa, *ya;
    PetscBool      done;
    PetscErrorCode ierr;

    PetscCall(VecGetArrayWrite(*x, &xa));
    PetscCall(VecGetArrayWrite(*y, &ya));
    ierr = SbpProblemCoordinatesOnDevice(p, xa, ya, &done); /* the device's geometry where it has it: no host evaluation */
    if (!ierr && !done) ierr = SbpProblemCoordinatesOnHost(p, xa, ya);
    PetscCall(VecRestoreArrayWrite(*x, &xa));
    PetscCall(VecRestoreArrayWrite(*y, &ya));
    if (ierr) { /* nothing handed out on failure */
      PetscCall(VecDestroy(x));
      PetscCall(VecDestroy(y));
    }
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

/* The volume term of the right-hand side, J H f, at the owned nodes (fvals: f's values there, where it is given so; tab: the order's
   table at order p > 2, spec-sbp-sat-highorder.md 4, NULL at order 2). */
static PetscErrorCode SbpSetForcingTerm(SbpProblem p, const PetscReal *tab, const PetscScalar *fvals, PetscScalar **g)
{
  PetscFunctionBegin;
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) {
      PetscReal X[6], m[3] = {0, 0, 0}, f;
      PetscReal w = tab ? sbp_face_norm_weight(tab, (int)i, (int)j, (int)p->Nr, (int)p->Ns, p->hr, p->hs)
                        : sbp_norm_weight((int)i, (int)j, (int)p->Nr, (int)p->Ns, p->hr, p->hs, 0, 1);

      if (p->forcing.kind == SBP_DATA_ZERO)
        f = 0;
      else {
        if (p->forcing.kind == SBP_DATA_MANUFACTURED)
          PetscCall(SbpProblemEvaluateNode(p, i, j, X, m));
        else if (p->forcing.kind == SBP_DATA_FUNCTION)
          PetscCall(SbpProblemEvaluateMapping(p, i, j, X));
        PetscCall(SbpProblemForcingAt(p, i, j, X, m, fvals, &f));
      }
      g[j][i] = p->J[SbpPatchIndex(p, i, j)] * w * f;
    }
  PetscFunctionReturn(0);
}

/* The device builds the right-hand side when the problem is there, g is a device vector and the device can evaluate what the data
   need: the mapping at the nodes (a device problem always has it: built in, the user's source, node coordinates, or the user's host
   function as a table, src/sbp/maptable.c), and for the manufactured data the gradient of mu (the built-in mu). */
PetscErrorCode SbpProblemRHSOnDevice(SbpProblem p, Vec g, PetscBool *dev)
{
  PetscBool isdev;

  PetscFunctionBegin;
  PetscCall(VecIsOpenCL(g, &isdev));
  *dev = (p->use_device && isdev && (!SbpProblemManufactured(p) || p->mu == SBP_MU_BASIN || p->mu == SBP_MU_CONSTANT)) ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* f at the owned nodes on the device where it is values or a host function (evaluated here): a device vector, or NULL. The
   user's device vector itself where it has this rank's nodes (a reference taken: the caller destroys it). */
static PetscErrorCode SbpProblemForcingOnDevice(SbpProblem p, Vec *f)
{
  PetscBool isdev = PETSC_FALSE;
  Vec       fown  = NULL;

  PetscFunctionBegin;
  *f = NULL;
  if (p->forcing.kind != SBP_DATA_VALUES && p->forcing.kind != SBP_DATA_FUNCTION) PetscFunctionReturn(0);
  if (p->forcing.kind == SBP_DATA_VALUES) {
    PetscCall(SbpProblemGetForcingOwned(p, &fown)); /* the owned nodes' values, whatever the user's vector's layout */
    PetscCall(VecIsOpenCL(fown, &isdev));
    if (isdev) {
      *f = fown;
      PetscFunctionReturn(0);
    }
  }
  PetscCall(SbpProblemCreateVector(p, f));
  if (fown) {
    PetscCall(SbpProblemCopyOwned(p, fown, *f));
    PetscCall(VecDestroy(&fown));
  } else {
    PetscScalar  **fa;
    PetscErrorCode ierr = 0;
    PetscCall(SbpProblemVecGetArray(p, *f, PETSC_FALSE, &fa));
    for (PetscInt j = p->ys; j < p->ys + p->ym && !ierr; j++)
      for (PetscInt i = p->xs; i < p->xs + p->xm && !ierr; i++) {
        PetscReal X[6], m[3] = {0, 0, 0}, v = 0;
        ierr = SbpProblemEvaluateMapping(p, i, j, X);
        if (!ierr) ierr = SbpProblemForcingAt(p, i, j, X, m, NULL, &v); /* the user's function may fail */
        fa[j][i] = v;
      }
    PetscCall(SbpProblemVecRestoreArray(p, *f, PETSC_FALSE, &fa));
    ierr = SbpProblemAgreeOnError(p, ierr, "the forcing function");
    if (ierr) PetscCall(VecDestroy(f));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

/* A kernel of kernels/rhs.cl, built after sbp.cl and coef.cl with the problem's specialisations and its data's (the caller keeps it). */
PetscErrorCode SbpProblemGetRHSKernel(SbpProblem p, const char name[], cl_kernel *k)
{
  const char *sbpopts;
  char        opts[512], dopts[160];
  SbpLevel    lv;

  PetscFunctionBegin;
  PetscCall(SbpProblemGetLevel(p, SBP_KERNEL_FP64, &lv));
  PetscCall(SbpLevelGetBuildOptions(lv, &sbpopts));
  PetscCall(SbpProblemDataOptions(p, dopts, sizeof(dopts)));
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "%s -DSBPMG_SBP_KERNELS=0 -DSBPMG_RHS_WIDE=%d %s", sbpopts, p->order > 2 ? 1 : 0,
                          dopts)); /* sbp.cl's functions, none of its kernels; the order's table from order 4 on */
  PetscCall(SbpProblemGetPointKernel(p, p->order > 2 ? "coef+sbp+sbp_table+sbp_face+rhs" : "coef+sbp+rhs", opts, name, k));
  PetscFunctionReturn(0);
}

/* g on the device (kernels/rhs.cl rhs_build). */
static PetscErrorCode SbpProblemComputeRHSDevice(SbpProblem p, Vec g)
{
  cl_kernel k;
  cl_mem    gb, fb = NULL, tb = NULL;
  Vec       f;
  PetscInt  off[5];
  cl_int4   offs;
  int       flags;
  size_t    global[2] = {(size_t)p->xm, (size_t)p->ym};

  PetscFunctionBegin;
  PetscCall(SbpProblemCheckDeviceVec(p, g, "the right-hand side"));
  PetscCall(SbpProblemBCFlags(p, &flags));
  if (!p->rhs_kernel || p->rhs_version != p->data_version) { /* the kernel of these kinds of data; kept while they stay (a lookup
                                                                through the program cache compares the whole source) */
    PetscCall(SbpProblemGetRHSKernel(p, "rhs_build", &p->rhs_kernel));
    p->rhs_version = p->data_version;
  }
  k = p->rhs_kernel;
  PetscCall(SbpProblemUploadFaceData(p, off));
  for (int q = 0; q < 4; q++) offs.s[q] = (cl_int)off[q];
  if (p->order > 2) PetscCall(SbpProblemGetOrderTable(p, NULL, &tb)); /* order 2: not read */
  PetscCall(SbpProblemForcingOnDevice(p, &f));
  if (f) PetscCall(VecOpenCLGetBufferRead(f, &fb));
  PetscCall(VecOpenCLGetBufferWrite(g, &gb));
  {
    const SbpRHSBuildArgs a = {.grid      = SbpProblemGridArgs(p),
                               .point     = SbpProblemPointArgs(p),
                               .rho       = SbpmgCLArgReal(PETSC_FALSE, p->rho),
                               .dirichlet = SbpmgCLArgInt(flags),
                               .fv        = SbpmgCLArgMem(f ? fb : gb), /* f not given as values: not read */
                               .gv        = SbpmgCLArgMem(p->d_data),
                               .off       = SbpmgCLArgInt4(offs),
                               .tab       = SbpmgCLArgMem(tb ? tb : gb), /* order 2: not read */
                               .g         = SbpmgCLArgMem(gb)};
    SBPMG_CL_SET_ARGS(k, rhs_build, &a);
  }
  PetscCall(SbpProblemLaunch2D(p, k, global));
  PetscCall(VecOpenCLRestoreBufferWrite(g, &gb));
  if (f) PetscCall(VecOpenCLRestoreBufferRead(f, &fb));
  PetscCall(VecDestroy(&f));
  PetscFunctionReturn(0);
}

/* The weights of the owned nodes in H~ (w) and in J H (jw) at the problem's order (spec-sbp-sat-highorder.md 4 and 5; the order's table):
   on the device (kernels/rhs.cl rhs_norm_weights) for device vectors of a device problem, else on the host. */
PetscErrorCode SbpProblemNormWeights(SbpProblem p, Vec w, Vec jw)
{
  const PetscReal *tab;
  PetscBool        dw, djw;

  PetscFunctionBegin;
  PetscCall(VecIsOpenCL(w, &dw));
  PetscCall(VecIsOpenCL(jw, &djw));
  if (p->use_device && dw && djw) {
    cl_kernel k;
    cl_mem    tb, wb, jb;
    size_t    global[2] = {(size_t)p->xm, (size_t)p->ym};

    PetscCall(SbpProblemGetOrderTable(p, NULL, &tb));
    PetscCall(SbpProblemGetRHSKernel(p, "rhs_norm_weights", &k));
    PetscCall(VecOpenCLGetBufferWrite(w, &wb));
    PetscCall(VecOpenCLGetBufferWrite(jw, &jb));
    {
      const SbpNormWeightsArgs a = {.grid = SbpProblemGridArgs(p),
                                    .J    = SbpmgCLArgMem(p->level[SBP_KERNEL_FP64]->J),
                                    .tab  = SbpmgCLArgMem(tb),
                                    .w    = SbpmgCLArgMem(wb),
                                    .jw   = SbpmgCLArgMem(jb)};
      SBPMG_CL_SET_ARGS(k, rhs_norm_weights, &a);
    }
    PetscCall(SbpProblemLaunch2D(p, k, global));
    PetscCall(VecOpenCLRestoreBufferWrite(jw, &jb));
    PetscCall(VecOpenCLRestoreBufferWrite(w, &wb));
    PetscFunctionReturn(0);
  }
  PetscCall(SbpProblemGetOrderTable(p, &tab, NULL));
  PetscCall(SbpProblemGetHostCoefficients(p));
  {
    PetscScalar **wa, **ja;
    PetscCall(SbpProblemVecGetArray(p, w, PETSC_FALSE, &wa));
    PetscCall(SbpProblemVecGetArray(p, jw, PETSC_FALSE, &ja));
    for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
      for (PetscInt i = p->xs; i < p->xs + p->xm; i++) {
        wa[j][i] = sbp_face_norm_weight(tab, (int)i, (int)j, (int)p->Nr, (int)p->Ns, p->hr, p->hs);
        ja[j][i] = p->J[SbpPatchIndex(p, i, j)] * wa[j][i];
      }
    PetscCall(SbpProblemVecRestoreArray(p, jw, PETSC_FALSE, &ja));
    PetscCall(SbpProblemVecRestoreArray(p, w, PETSC_FALSE, &wa));
  }
  PetscFunctionReturn(0);
}

/* All faces Neumann: M~ is singular with the constants as the null space of M~ = M~^T, so M~ u = b has a solution only when 1^T b = 0,
   the discrete form of the compatibility int f + oint gN = 0, which the data meet only to the discretisation error (or not at all).
   b is made compatible by removing a constant from the forcing, the least change of the problem: b -= shift J H 1 with shift =
   1^T b / 1^T J H 1 (1^T J H 1 is the discrete area). The sum and the shift are kept for SbpProblemGetRHSShift() and the view. */
static PetscErrorCode SbpProblemMakeCompatible(SbpProblem p, Vec g)
{
  Mat         JH = NULL;
  Vec         one, w;
  PetscScalar sum, area;
  PetscReal   nb;

  PetscFunctionBegin;
  if (!SbpProblemAllNeumann(p)) PetscFunctionReturn(0);
  PetscCall(VecDuplicate(g, &one));
  PetscCall(VecDuplicate(g, &w));
  if (p->order > 2) /* J H 1 with the order's weights (spec-sbp-sat-highorder.md 4) */
    PetscCall(SbpProblemNormWeights(p, one, w));
  else {
    PetscCall(SbpProblemCreateNorm(p, SBP_NORM_JH, &JH));
    PetscCall(VecSet(one, 1));
    PetscCall(MatMult(JH, one, w));
    PetscCall(MatDestroy(&JH));
  }
  PetscCall(VecSum(g, &sum));
  PetscCall(VecSum(w, &area));
  p->rhs_sum   = PetscRealPart(sum);
  p->rhs_shift = PetscRealPart(sum / area);
  p->rhs_count++;
  PetscCall(VecAXPY(g, -p->rhs_shift, w));
  PetscCall(VecNorm(g, NORM_2, &nb));
  PetscCall(PetscInfo(p,
                      "All faces Neumann: the right-hand side's sum 1^T b = %g (int f + oint gN, discretely) is made zero by removing the constant %g from "
                      "the forcing (b -= %g J H 1, area %g); ||b|| = %g after\n",
                      (double)p->rhs_sum, (double)p->rhs_shift, (double)p->rhs_shift, (double)PetscRealPart(area), (double)nb));
  PetscCall(VecDestroy(&one));
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemGetRHSShift - All faces Neumann: what the last SbpProblemComputeRHS() removed to make the right-hand side compatible.

   Not collective

   Output Parameters:
+  shift - the constant removed from the forcing f (b -= shift J H 1), so that 1^T b = 0; 0 when some face is Dirichlet (may be NULL)
-  sum   - 1^T b before: the discrete int f + oint gN, zero for compatible data up to the discretisation error (may be NULL)

   Level: intermediate

.seealso: `SbpProblemComputeRHS()`, docs/guide.md "All-Neumann problems"
@*/
PetscErrorCode SbpProblemGetRHSShift(SbpProblem p, PetscReal *shift, PetscReal *sum)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  if (shift) *shift = SbpProblemAllNeumann(p) ? p->rhs_shift : 0;
  if (sum) *sum = SbpProblemAllNeumann(p) ? p->rhs_sum : 0;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemComputeRHS - The right-hand side g = JH f + sum over Dirichlet faces K_f gD + sum over Neumann faces L_f^T H_f gN of the
   problem's data (docs/guide.md "The right-hand side": the user's, or the manufactured problem's u = sin(pi x) cos(pi y) until
   the user gives some), point-wise: on the device when the problem is there and g is a device vector, else on the host. Cheap to
   call again after new data (SbpProblemSetBoundaryValues(): a time series): no new set-up. With every face Neumann the right-hand
   side is made compatible (1^T g = 0) by removing a constant from the forcing (SbpProblemGetRHSShift()). At order 4 and 6
   (SbpProblemSetOrder()) the weights, the boundary derivative and the SAT constants are the order's (spec-sbp-sat-highorder.md 4).

   Collective

   Level: beginner
@*/
PetscErrorCode SbpProblemComputeRHS(SbpProblem p, Vec g)
{
  PetscScalar **ga;
  PetscBool     dev = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  PetscCall(SbpProblemCheckData(p));
  PetscCall(SbpProblemRHSOnDevice(p, g, &dev));
  if (!dev || SbpProblemDataOnHost(p)) PetscCall(SbpProblemGetHostNodes(p)); /* the host evaluates at node coordinates */
  if (dev) {
    PetscCall(SbpProblemComputeRHSDevice(p, g));
    PetscCall(SbpProblemMakeCompatible(p, g));
    PetscFunctionReturn(0);
  }
  PetscCall(SbpProblemCheckHostData(p));
  PetscCall(SbpProblemGetHostCoefficients(p));
  {
    const PetscScalar *fvals = NULL;
    Vec                fown;
    PetscErrorCode     ierr;

    const PetscReal *tab = NULL; /* the order's table from order 4 on (spec-sbp-sat-highorder.md 4); order 2 written out */

    if (p->order > 2) PetscCall(SbpProblemGetOrderTable(p, &tab, NULL));
    PetscCall(SbpProblemGetForcingOwned(p, &fown)); /* the owned nodes' values, whatever the user's vector's layout */
    if (fown) PetscCall(VecGetArrayRead(fown, &fvals));
    PetscCall(SbpProblemVecGetArray(p, g, PETSC_FALSE, &ga));
    ierr = SbpSetForcingTerm(p, tab, fvals, ga); /* the user's functions may fail: everything restored and freed before the error goes on */
    for (PetscInt face = 1; face <= 4 && !ierr; face++) {
      if (p->bc[face - 1] != SBP_BC_DIRICHLET)
        ierr = SbpAddNeumannData(p, face, tab, ga);
      else
        ierr = tab ? SbpAddDirichletDataWide(p, face, tab, ga) : SbpAddDirichletData(p, face, ga);
    }
    PetscCall(SbpProblemVecRestoreArray(p, g, PETSC_FALSE, &ga));
    if (fown) PetscCall(VecRestoreArrayRead(fown, &fvals));
    PetscCall(VecDestroy(&fown));
    PetscCall(SbpProblemAgreeOnError(p, ierr, "a data function (forcing or boundary)"));
  }
  PetscCall(SbpProblemMakeCompatible(p, g));
  PetscFunctionReturn(0);
}
