/* The assembled reference: M~ = A~ + sum over Dirichlet faces of (-L^T G - G^T L + L^T H Cn Gamma L), and the data
   operators K_f, built from the 1D SBP blocks by Kronecker products exactly as spec-sbp-sat.md 3.2-3.4 writes them.

   Each term is a product of factors F1 F2 ... Fm, each factor a Kronecker product (B (x) A) of 1D matrices (B acting
   along s, A along r, possibly rectangular: face spaces have one dimension of size 1), a diagonal, or the line-wise
   blocks of A_rr / A_ss. A row of the product is e_n^T F1 F2 ... Fm, expanded factor by factor, so only the rows a rank
   owns are formed, and nothing is taken from the matrix-free stencils.

   Order p = p->order (2, 4, 6): every block is the order-p one of src/sbp/sbp1d.c, the SAT constants those of
   spec-sbp-sat-highorder.md 3.2 (p = 2 builds the same matrices, bit for bit, as the second-order code did). */
#include "sbp1d_tables.h"

#define SBP_ROW_MAX 256 /* p = 6: up to 81 entries in a row of M~, more in the products of the cross terms */

typedef struct {
  PetscInt  n;
  PetscInt  col[SBP_ROW_MAX];
  PetscReal val[SBP_ROW_MAX];
} SbpRow;

typedef enum {
  SBP_FACTOR_KRON,
  SBP_FACTOR_DIAG,
  SBP_FACTOR_LINES_R, /* sum_j Hs[j,j] (E_jj (x) Mr(a(.,j))) */
  SBP_FACTOR_LINES_S  /* sum_i Hr[i,i] (Ms(c(i,.)) (x) E_ii) */
} SbpFactorType;

/* What a diagonal factor holds: a volume coefficient, or a coefficient / penalty on the nodes of one face. */
typedef enum { SBP_DIAG_VOLUME_CRS, SBP_DIAG_VOLUME_J, SBP_DIAG_FACE_CN, SBP_DIAG_FACE_CT, SBP_DIAG_FACE_GAMMA } SbpDiagKind;

typedef struct {
  SbpFactorType      type;
  const SbpSparse1D *B, *A; /* KRON */
  SbpDiagKind        kind;  /* DIAG */
  PetscInt           face;  /* DIAG on a face: 1..4 */
} SbpFactor;

#define SBP_TERM_MAX_FACTORS 6
typedef struct {
  PetscReal coef;
  PetscInt  nf;
  SbpFactor f[SBP_TERM_MAX_FACTORS];
} SbpTerm;

/* The 1D blocks every term refers to. */
typedef struct {
  SbpProblem   p;
  SbpSparse1D  Ir, Is, one, Hr, Hs, Dr, Ds, DrT, DsT;
  SbpSparse1D  e0r, eNr, e0s, eNs, e0rT, eNrT, e0sT, eNsT; /* selectors (1 x n) and their transposes */
  SbpSparse1D  d0r, dNr, d0s, dNs, d0rT, dNrT, d0sT, dNsT; /* boundary derivative rows and their transposes */
  SbpSparse1D *Mr, *Ms;                                    /* Mr(a(.,j)) for the patch's lines j = gys .. gys+gym-1, Ms(c(i,.)) for i = gxs .. gxs+gxm-1 */
} SbpBlocks;

static PetscErrorCode SbpBlocksDestroy(SbpBlocks *);

/* M(c) of the whole line through the patch: c[k*stride] for k = first .. first+count-1 (the patch's part of it), NaN elsewhere, so
   that a row reading beyond the patch is caught where it is used (SbpLineRowAccumulate). */
static PetscErrorCode SbpLineOperator(SbpProblem p, PetscInt N, PetscReal h, const PetscReal *c, PetscInt stride, PetscInt first, PetscInt count,
                                      SbpSparse1D *M)
{
  PetscReal *line;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(N + 1, &line));
  for (PetscInt k = 0; k <= N; k++) line[k] = (k >= first && k < first + count) ? c[(k - first) * stride] : (PetscReal)NAN;
  PetscCall(SbpSparse1DSecondDerivative(p->order, N, h, line, 1, M));
  PetscCall(PetscFree(line));
  PetscFunctionReturn(0);
}

/* The line-wise blocks of A_rr and A_ss (spec-sbp-sat-highorder.md 3.1): Mr(a(.,j)) = mr/hr along r, Ms(c(i,.)) = ms/hs along s. */
static PetscErrorCode SbpBlocksMakeLines(SbpProblem p, SbpBlocks *k)
{
  PetscFunctionBegin;
  PetscCall(PetscCalloc2(p->gym, &k->Mr, p->gxm, &k->Ms));
  for (PetscInt j = 0; j < p->gym; j++) PetscCall(SbpLineOperator(p, p->Nr, p->hr, &p->crr[p->gxm * j], 1, p->gxs, p->gxm, &k->Mr[j]));
  for (PetscInt i = 0; i < p->gxm; i++) PetscCall(SbpLineOperator(p, p->Ns, p->hs, &p->css[i], p->gxm, p->gys, p->gym, &k->Ms[i]));
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpBlocksMake(SbpProblem p, SbpBlocks *k)
{
  const PetscInt o = p->order;
  PetscInt       minN;

  PetscFunctionBegin;
  PetscCall(SbpSparse1DMinimumN(o, &minN));
  PetscCheck(p->Nr >= minN && p->Ns >= minN, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "The SBP operator of order %" PetscInt_FMT " needs at least %" PetscInt_FMT " intervals in each direction, got %" PetscInt_FMT " x %" PetscInt_FMT
             " (spec-sbp-sat-highorder.md section 2)",
             o, minN, p->Nr, p->Ns);
  PetscCall(SbpSparse1DIdentity(p->Nr + 1, &k->Ir));
  PetscCall(SbpSparse1DIdentity(p->Ns + 1, &k->Is));
  PetscCall(SbpSparse1DIdentity(1, &k->one));
  PetscCall(SbpSparse1DNorm(o, p->Nr, p->hr, PETSC_FALSE, &k->Hr));
  PetscCall(SbpSparse1DNorm(o, p->Ns, p->hs, PETSC_FALSE, &k->Hs));
  PetscCall(SbpSparse1DDerivative(o, p->Nr, p->hr, &k->Dr));
  PetscCall(SbpSparse1DDerivative(o, p->Ns, p->hs, &k->Ds));
  PetscCall(SbpSparse1DTranspose(&k->Dr, &k->DrT));
  PetscCall(SbpSparse1DTranspose(&k->Ds, &k->DsT));
  PetscCall(SbpSparse1DSelector(p->Nr + 1, PETSC_FALSE, &k->e0r));
  PetscCall(SbpSparse1DSelector(p->Nr + 1, PETSC_TRUE, &k->eNr));
  PetscCall(SbpSparse1DSelector(p->Ns + 1, PETSC_FALSE, &k->e0s));
  PetscCall(SbpSparse1DSelector(p->Ns + 1, PETSC_TRUE, &k->eNs));
  PetscCall(SbpSparse1DTranspose(&k->e0r, &k->e0rT));
  PetscCall(SbpSparse1DTranspose(&k->eNr, &k->eNrT));
  PetscCall(SbpSparse1DTranspose(&k->e0s, &k->e0sT));
  PetscCall(SbpSparse1DTranspose(&k->eNs, &k->eNsT));
  PetscCall(SbpSparse1DBoundaryDerivative(o, p->Nr, p->hr, PETSC_FALSE, &k->d0r));
  PetscCall(SbpSparse1DBoundaryDerivative(o, p->Nr, p->hr, PETSC_TRUE, &k->dNr));
  PetscCall(SbpSparse1DBoundaryDerivative(o, p->Ns, p->hs, PETSC_FALSE, &k->d0s));
  PetscCall(SbpSparse1DBoundaryDerivative(o, p->Ns, p->hs, PETSC_TRUE, &k->dNs));
  PetscCall(SbpSparse1DTranspose(&k->d0r, &k->d0rT));
  PetscCall(SbpSparse1DTranspose(&k->dNr, &k->dNrT));
  PetscCall(SbpSparse1DTranspose(&k->d0s, &k->d0sT));
  PetscCall(SbpSparse1DTranspose(&k->dNs, &k->dNsT));
  PetscCall(SbpBlocksMakeLines(p, k));
  PetscFunctionReturn(0);
}

/* The 1D blocks of the problem's grid; on error none is left. */
static PetscErrorCode SbpBlocksCreate(SbpProblem p, SbpBlocks *k)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(k, sizeof(*k)));
  k->p = p;
  ierr = SbpBlocksMake(p, k);
  if (ierr) PetscCall(SbpBlocksDestroy(k));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpBlocksDestroy(SbpBlocks *k)
{
  SbpSparse1D *all[] = {&k->Ir,   &k->Is,   &k->one,  &k->Hr,   &k->Hs,  &k->Dr,  &k->Ds,  &k->DrT, &k->DsT,  &k->e0r,  &k->eNr,  &k->e0s, &k->eNs,
                        &k->e0rT, &k->eNrT, &k->e0sT, &k->eNsT, &k->d0r, &k->dNr, &k->d0s, &k->dNs, &k->d0rT, &k->dNrT, &k->d0sT, &k->dNsT};

  PetscFunctionBegin;
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) PetscCall(SbpSparse1DDestroy(all[i]));
  if (k->Mr)
    for (PetscInt j = 0; j < k->p->gym; j++) PetscCall(SbpSparse1DDestroy(&k->Mr[j]));
  if (k->Ms)
    for (PetscInt i = 0; i < k->p->gxm; i++) PetscCall(SbpSparse1DDestroy(&k->Ms[i]));
  PetscCall(PetscFree2(k->Mr, k->Ms));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- factor and term construction */

static SbpFactor SbpKron(const SbpSparse1D *B, const SbpSparse1D *A)
{
  SbpFactor f = {SBP_FACTOR_KRON, B, A, SBP_DIAG_VOLUME_CRS, 0};
  return f;
}

static SbpFactor SbpDiag(SbpDiagKind kind, PetscInt face)
{
  SbpFactor f = {SBP_FACTOR_DIAG, NULL, NULL, kind, face};
  return f;
}

static SbpFactor SbpLines(SbpFactorType type)
{
  SbpFactor f = {type, NULL, NULL, SBP_DIAG_VOLUME_CRS, 0};
  return f;
}

static void SbpTermSet(SbpTerm *t, PetscReal coef, PetscInt nf, const SbpFactor f[])
{
  t->coef = coef;
  t->nf   = nf;
  for (PetscInt i = 0; i < nf; i++) t->f[i] = f[i];
}

/* ---------------------------------------------------------------- diagonal values */

/* Node (i,j) of face f at face index k. */
static void SbpFaceNode(SbpProblem p, PetscInt face, PetscInt k, PetscInt *i, PetscInt *j)
{
  *i = face == 1 ? 0 : (face == 2 ? p->Nr : k); /* faces 1, 2: r = -1, +1; faces 3, 4: s = -1, +1 */
  *j = face <= 2 ? k : (face == 3 ? 0 : p->Ns);
}

static PetscErrorCode SbpPatchCheck(SbpProblem p, PetscInt i, PetscInt j)
{
  PetscFunctionBegin;
  PetscCheck(i >= p->gxs && i < p->gxs + p->gxm && j >= p->gys && j < p->gys + p->gym, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "Node (%" PetscInt_FMT ",%" PetscInt_FMT ") outside the ghosted patch", i, j);
  PetscFunctionReturn(0);
}

/* The normal coefficient on face f (a = crr on faces 1,2; c = css on faces 3,4) at node (i,j). */
static PetscReal SbpNormalCoefficient(SbpProblem p, PetscInt face, PetscInt i, PetscInt j)
{
  return face <= 2 ? p->crr[SbpPatchIndex(p, i, j)] : p->css[SbpPatchIndex(p, i, j)];
}

/* The SAT constants of order p (spec-sbp-sat-highorder.md 3.2): l lines in the psi minimum, theta_R = w_0, alpha. */
static PetscErrorCode SbpSatConstants(PetscInt order, PetscInt *l, PetscReal *thetaR, PetscReal *alpha)
{
  const SbpSparse1DTable *T = SbpSparse1DGetTable(order);

  PetscFunctionBegin;
  PetscCheck(T, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "SBP order %" PetscInt_FMT " is not supported: the choices are 2, 4 and 6", order);
  *l      = T->l;
  *thetaR = T->thetaR;
  *alpha  = T->alpha;
  PetscFunctionReturn(0);
}

/* psi_f at face node (i,j): the minimum of the normal coefficient over the first l grid lines from the face (3.2). */
static PetscErrorCode SbpPsi(SbpProblem p, PetscInt face, PetscInt l, PetscInt i, PetscInt j, PetscReal *psi)
{
  PetscFunctionBegin;
  *psi = SbpNormalCoefficient(p, face, i, j);
  for (PetscInt k = 1; k < l; k++) {
    PetscInt ii = i, jj = j;
    switch (face) {
    case 1:
      ii = k;
      break;
    case 2:
      ii = p->Nr - k;
      break;
    case 3:
      jj = k;
      break;
    default:
      jj = p->Ns - k;
      break;
    }
    PetscCall(SbpPatchCheck(p, ii, jj));
    *psi = PetscMin(*psi, SbpNormalCoefficient(p, face, ii, jj));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpDiagValue(SbpProblem p, const SbpFactor *f, PetscInt k, PetscReal *v)
{
  PetscInt i, j;

  PetscFunctionBegin;
  if (f->kind == SBP_DIAG_VOLUME_CRS || f->kind == SBP_DIAG_VOLUME_J) {
    i = k % (p->Nr + 1);
    j = k / (p->Nr + 1);
  } else
    SbpFaceNode(p, f->face, k, &i, &j);
  PetscCall(SbpPatchCheck(p, i, j));
  switch (f->kind) {
  case SBP_DIAG_VOLUME_CRS:
    *v = p->crs[SbpPatchIndex(p, i, j)];
    break;
  case SBP_DIAG_VOLUME_J:
    *v = p->J[SbpPatchIndex(p, i, j)];
    break;
  case SBP_DIAG_FACE_CN:
    *v = SbpNormalCoefficient(p, f->face, i, j);
    break;
  case SBP_DIAG_FACE_CT:
    *v = p->crs[SbpPatchIndex(p, i, j)];
    break;
  case SBP_DIAG_FACE_GAMMA: { /* Gamma_f = 2/(theta_R h) + cn/(alpha h psi) (3.2) */
    const PetscReal hperp = f->face <= 2 ? p->hr : p->hs;
    PetscReal       thetaR, alpha, psi;
    PetscInt        l;
    PetscCall(SbpSatConstants(p->order, &l, &thetaR, &alpha));
    PetscCall(SbpPsi(p, f->face, l, i, j, &psi));
    *v = 2 / (thetaR * hperp) + SbpNormalCoefficient(p, f->face, i, j) / (alpha * hperp * psi);
  } break;
  }
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- row expansion */

static PetscErrorCode SbpRowAdd(SbpRow *r, PetscInt col, PetscReal v)
{
  PetscFunctionBegin;
  for (PetscInt q = 0; q < r->n; q++)
    if (r->col[q] == col) {
      r->val[q] += v;
      PetscFunctionReturn(0);
    }
  PetscCheck(r->n < SBP_ROW_MAX, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Row expansion exceeds %d entries", SBP_ROW_MAX);
  r->col[r->n]   = col;
  r->val[r->n++] = v;
  PetscFunctionReturn(0);
}

/* out += w * (row k of the line block M), its column q at node offset + q * stride. A value that is not finite read a coefficient beyond
   the ghosted patch (SbpLineOperator): interior rows read p/2 lines each side, the end blocks the first 8 (p = 4) or 12 (p = 6) lines
   next to a face (spec-sbp-sat-highorder.md 3.5). */
static PetscErrorCode SbpLineRowAccumulate(SbpProblem p, const SbpSparse1D *M, PetscInt k, PetscReal w, PetscInt stride, PetscInt offset, SbpRow *out)
{
  PetscFunctionBegin;
  for (PetscInt q = M->ia[k]; q < M->ia[k + 1]; q++) {
    PetscCheck(!PetscIsInfOrNanReal(M->a[q]), PETSC_COMM_SELF, PETSC_ERR_SUP,
               "The SBP operator of order %" PetscInt_FMT " reads coefficients beyond this rank's ghosted patch: it needs %" PetscInt_FMT
               " ghost lines, and the lines of the end blocks on the rank at a face",
               p->order, p->order / 2);
    PetscCall(SbpRowAdd(out, offset + M->ja[q] * stride, w * M->a[q]));
  }
  PetscFunctionReturn(0);
}

/* out += v * (row k of factor f) */
static PetscErrorCode SbpFactorRowAccumulate(SbpBlocks *blk, const SbpFactor *f, PetscInt k, PetscReal v, SbpRow *out)
{
  SbpProblem p = blk->p;

  PetscFunctionBegin;
  switch (f->type) {
  case SBP_FACTOR_KRON: {
    const SbpSparse1D *A = f->A, *B = f->B;
    PetscInt           a = k % A->m, b = k / A->m;
    for (PetscInt qb = B->ia[b]; qb < B->ia[b + 1]; qb++)
      for (PetscInt qa = A->ia[a]; qa < A->ia[a + 1]; qa++) PetscCall(SbpRowAdd(out, A->ja[qa] + A->n * B->ja[qb], v * B->a[qb] * A->a[qa]));
  } break;
  case SBP_FACTOR_DIAG: {
    PetscReal d = 0;
    PetscCall(SbpDiagValue(p, f, k, &d));
    PetscCall(SbpRowAdd(out, k, v * d));
  } break;
  case SBP_FACTOR_LINES_R: { /* Hs[j,j] * row i of Mr(a(.,j)) */
    PetscInt i = k % (p->Nr + 1), j = k / (p->Nr + 1);
    PetscCall(SbpPatchCheck(p, i, j));
    PetscCall(SbpLineRowAccumulate(p, &blk->Mr[j - p->gys], i, v * blk->Hs.a[j], 1, (p->Nr + 1) * j, out));
  } break;
  case SBP_FACTOR_LINES_S: { /* Hr[i,i] * row j of Ms(c(i,.)) */
    PetscInt i = k % (p->Nr + 1), j = k / (p->Nr + 1);
    PetscCall(SbpPatchCheck(p, i, j));
    PetscCall(SbpLineRowAccumulate(p, &blk->Ms[i - p->gxs], j, v * blk->Hr.a[i], p->Nr + 1, i, out));
  } break;
  }
  PetscFunctionReturn(0);
}

/* acc += coef * (row n of F1 F2 ... Fm) */
static PetscErrorCode SbpTermRowAccumulate(SbpBlocks *blk, const SbpTerm *t, PetscInt n, SbpRow *acc)
{
  SbpRow a, b, *cur = &a, *next = &b;

  PetscFunctionBegin;
  cur->n      = 1;
  cur->col[0] = n;
  cur->val[0] = t->coef;
  for (PetscInt q = 0; q < t->nf && cur->n; q++) {
    SbpRow *tmp;
    next->n = 0;
    for (PetscInt e = 0; e < cur->n; e++) PetscCall(SbpFactorRowAccumulate(blk, &t->f[q], cur->col[e], cur->val[e], next));
    tmp  = cur;
    cur  = next;
    next = tmp;
  }
  for (PetscInt e = 0; e < cur->n; e++) PetscCall(SbpRowAdd(acc, cur->col[e], cur->val[e]));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the terms of M~ and K_f */

/* The pieces of face f: L, Hf (face norm), Dn (normal boundary derivative, lifted), Dt (tangential derivative,
   lifted), their transposes, and the sign sigma of G_f (3.3). */
typedef struct {
  SbpFactor L, LT, Hf, Dn, DnT, Dt, DtT, Cn, Ct, Gamma;
  PetscReal sigma;
} SbpFacePieces;

static void SbpFaceGetPieces(SbpBlocks *k, PetscInt face, SbpFacePieces *f)
{
  f->Cn    = SbpDiag(SBP_DIAG_FACE_CN, face);
  f->Ct    = SbpDiag(SBP_DIAG_FACE_CT, face);
  f->Gamma = SbpDiag(SBP_DIAG_FACE_GAMMA, face);
  f->sigma = (face == 1 || face == 3) ? -1 : 1;
  if (face <= 2) {
    const SbpSparse1D *sel = face == 1 ? &k->e0r : &k->eNr, *selT = face == 1 ? &k->e0rT : &k->eNrT;
    const SbpSparse1D *d = face == 1 ? &k->d0r : &k->dNr, *dT = face == 1 ? &k->d0rT : &k->dNrT;
    f->L   = SbpKron(&k->Is, sel); /* I_s (x) e^T */
    f->LT  = SbpKron(&k->Is, selT);
    f->Hf  = SbpKron(&k->Hs, &k->one);
    f->Dn  = SbpKron(&k->Is, d); /* I_s (x) d^T */
    f->DnT = SbpKron(&k->Is, dT);
    f->Dt  = SbpKron(&k->Ds, &k->Ir); /* Ds (x) I_r */
    f->DtT = SbpKron(&k->DsT, &k->Ir);
  } else {
    const SbpSparse1D *sel = face == 3 ? &k->e0s : &k->eNs, *selT = face == 3 ? &k->e0sT : &k->eNsT;
    const SbpSparse1D *d = face == 3 ? &k->d0s : &k->dNs, *dT = face == 3 ? &k->d0sT : &k->dNsT;
    f->L   = SbpKron(sel, &k->Ir); /* e^T (x) I_r */
    f->LT  = SbpKron(selT, &k->Ir);
    f->Hf  = SbpKron(&k->one, &k->Hr);
    f->Dn  = SbpKron(d, &k->Ir); /* d^T (x) I_r */
    f->DnT = SbpKron(dT, &k->Ir);
    f->Dt  = SbpKron(&k->Is, &k->Dr); /* I_s (x) Dr */
    f->DtT = SbpKron(&k->Is, &k->DrT);
  }
}

/* The terms of M~ (3.2, 3.4). Returns their number. */
static PetscErrorCode SbpOperatorTerms(SbpBlocks *k, SbpTerm terms[], PetscInt *nterms)
{
  SbpProblem p = k->p;
  PetscInt   n = 0;

  PetscFunctionBegin;
  {
    const SbpFactor rr[] = {SbpLines(SBP_FACTOR_LINES_R)};
    const SbpFactor ss[] = {SbpLines(SBP_FACTOR_LINES_S)};
    /* A_rs = (I_s (x) Dr)^T H~ C_rs (Ds (x) I_r);  A_sr = A_rs^T = (Ds (x) I_r)^T C_rs H~ (I_s (x) Dr) */
    const SbpFactor rs[] = {SbpKron(&k->Is, &k->DrT), SbpKron(&k->Hs, &k->Hr), SbpDiag(SBP_DIAG_VOLUME_CRS, 0), SbpKron(&k->Ds, &k->Ir)};
    const SbpFactor sr[] = {SbpKron(&k->DsT, &k->Ir), SbpDiag(SBP_DIAG_VOLUME_CRS, 0), SbpKron(&k->Hs, &k->Hr), SbpKron(&k->Is, &k->Dr)};
    SbpTermSet(&terms[n++], 1, 1, rr);
    SbpTermSet(&terms[n++], 1, 1, ss);
    SbpTermSet(&terms[n++], 1, 4, rs);
    SbpTermSet(&terms[n++], 1, 4, sr);
  }
  for (PetscInt face = 1; face <= 4; face++) {
    SbpFacePieces f;
    if (p->bc[face - 1] != SBP_BC_DIRICHLET) continue; /* Neumann faces add nothing to M~ */
    SbpFaceGetPieces(k, face, &f);
    {
      /* -L^T G = -sigma [L^T Hf Cn Dn + L^T Hf Ct L Dt] */
      const SbpFactor a[] = {f.LT, f.Hf, f.Cn, f.Dn};
      const SbpFactor b[] = {f.LT, f.Hf, f.Ct, f.L, f.Dt};
      /* -G^T L = -sigma [Dn^T Cn Hf L + Dt^T L^T Ct Hf L]  (Hf, Cn, Ct diagonal) */
      const SbpFactor c[] = {f.DnT, f.Cn, f.Hf, f.L};
      const SbpFactor d[] = {f.DtT, f.LT, f.Ct, f.Hf, f.L};
      /* + L^T Hf Cn Gamma L */
      const SbpFactor e[] = {f.LT, f.Hf, f.Cn, f.Gamma, f.L};
      SbpTermSet(&terms[n++], -f.sigma, 4, a);
      SbpTermSet(&terms[n++], -f.sigma, 5, b);
      SbpTermSet(&terms[n++], -f.sigma, 4, c);
      SbpTermSet(&terms[n++], -f.sigma, 5, d);
      SbpTermSet(&terms[n++], 1, 5, e);
    }
  }
  *nterms = n;
  PetscFunctionReturn(0);
}

/* Insert the owned rows of M~ into A (which has the DMDA's local-to-global mapping; MatAssembly is left to the caller), or, with
   A = NULL, count each owned row's entries in the rank's own columns (dnz) and in others' (onz) for the preallocation. */
static PetscErrorCode SbpAssembleRowsWith(SbpProblem p, SbpBlocks *bk, Mat A, PetscInt dnz[], PetscInt onz[])
{
  SbpBlocks blk = *bk;
  SbpTerm   terms[4 + 5 * 4];
  PetscInt  nterms, row = 0;

  PetscFunctionBegin;
  PetscCall(SbpOperatorTerms(&blk, terms, &nterms));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++, row++) {
      SbpRow   r;
      PetscInt local[SBP_ROW_MAX], rlocal = SbpPatchIndex(p, i, j);

      r.n = 0;
      for (PetscInt t = 0; t < nterms; t++) PetscCall(SbpTermRowAccumulate(&blk, &terms[t], i + (p->Nr + 1) * j, &r));
      if (!A) {
        dnz[row] = onz[row] = 0;
        for (PetscInt e = 0; e < r.n; e++) {
          PetscInt ci = r.col[e] % (p->Nr + 1), cj = r.col[e] / (p->Nr + 1);
          if (ci >= p->xs && ci < p->xs + p->xm && cj >= p->ys && cj < p->ys + p->ym)
            dnz[row]++;
          else
            onz[row]++;
        }
        continue;
      }
      for (PetscInt e = 0; e < r.n; e++) {
        PetscInt ci = r.col[e] % (p->Nr + 1), cj = r.col[e] / (p->Nr + 1);
        PetscCall(SbpPatchCheck(p, ci, cj));
        local[e] = SbpPatchIndex(p, ci, cj);
      }
      PetscCall(MatSetValuesLocal(A, 1, &rlocal, r.n, local, r.val, INSERT_VALUES));
    }
  PetscFunctionReturn(0);
}

PetscErrorCode SbpAssembleOperatorRows(SbpProblem p, Mat A, PetscInt dnz[], PetscInt onz[])
{
  SbpBlocks      blk;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(SbpProblemGetHostCoefficients(p));
  PetscCall(SbpBlocksCreate(p, &blk));
  ierr = SbpAssembleRowsWith(p, &blk, A, dnz, onz);
  PetscCall(SbpBlocksDestroy(&blk)); /* on every path */
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the right-hand side through K_f (3.4, 6) */

/* g = JH f + sum_D K_f gD + sum_N K_f gN with K_f = L^T Hf Cn Gamma - G_f^T (Dirichlet), L^T Hf (Neumann), of the problem's data
   (src/sbp/data.c; host functions or values: OpenCL sources only the device evaluates).
   An independent route to the right-hand side, for testing SbpProblemComputeRHS. */
PetscErrorCode SbpAssembleRHSByKronecker(SbpProblem p, Vec g)
{
  SbpBlocks          blk;
  SbpTerm            vol, faceterms[4][3];
  PetscInt           nface[4] = {0, 0, 0, 0};
  PetscScalar      **ga;
  const PetscScalar *fvals = NULL;
  Vec                fown  = NULL;
  DM                 da;

  PetscFunctionBegin;
  PetscCall(SbpProblemCheckData(p));
  PetscCall(SbpProblemCheckHostData(p));
  PetscCall(SbpProblemGetHostNodes(p));
  PetscCall(SbpProblemGetHostCoefficients(p));
  PetscCall(SbpBlocksCreate(p, &blk));
  {
    const SbpFactor jh[] = {SbpDiag(SBP_DIAG_VOLUME_J, 0), SbpKron(&blk.Hs, &blk.Hr)};
    SbpTermSet(&vol, 1, 2, jh);
  }
  for (PetscInt face = 1; face <= 4; face++) {
    SbpFacePieces f;
    SbpFaceGetPieces(&blk, face, &f);
    if (p->bc[face - 1] == SBP_BC_DIRICHLET) {
      const SbpFactor pen[] = {f.LT, f.Hf, f.Cn, f.Gamma};
      const SbpFactor gn[]  = {f.DnT, f.Cn, f.Hf}; /* G^T = sigma [Dn^T Cn Hf + Dt^T L^T Ct Hf] */
      const SbpFactor gt[]  = {f.DtT, f.LT, f.Ct, f.Hf};
      SbpTermSet(&faceterms[face - 1][0], 1, 4, pen);
      SbpTermSet(&faceterms[face - 1][1], -f.sigma, 3, gn);
      SbpTermSet(&faceterms[face - 1][2], -f.sigma, 4, gt);
      nface[face - 1] = 3;
    } else {
      const SbpFactor lh[] = {f.LT, f.Hf};
      SbpTermSet(&faceterms[face - 1][0], 1, 2, lh);
      nface[face - 1] = 1;
    }
  }
  PetscCall(SbpProblemGetLayoutDM(p, &da));
  PetscCall(DMDAVecGetArray(da, g, &ga));
  PetscCall(SbpProblemGetForcingOwned(p, &fown));
  if (fown) PetscCall(VecGetArrayRead(fown, &fvals));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) {
      PetscInt  n   = i + (p->Nr + 1) * j;
      PetscReal sum = 0;
      SbpRow    row;

      row.n = 0;
      PetscCall(SbpTermRowAccumulate(&blk, &vol, n, &row));
      for (PetscInt e = 0; e < row.n; e++) {
        PetscInt  ci = row.col[e] % (p->Nr + 1), cj = row.col[e] / (p->Nr + 1); /* J H is diagonal: an owned node */
        PetscReal X[6], m[3], f;
        PetscCall(SbpProblemEvaluateNode(p, ci, cj, X, m));
        PetscCall(SbpProblemForcingAt(p, ci, cj, X, m, fvals, &f));
        sum += row.val[e] * f;
      }
      for (PetscInt face = 1; face <= 4; face++) {
        row.n = 0;
        for (PetscInt t = 0; t < nface[face - 1]; t++) PetscCall(SbpTermRowAccumulate(&blk, &faceterms[face - 1][t], n, &row));
        for (PetscInt e = 0; e < row.n; e++) {
          PetscInt  fi, fj;
          PetscReal data = 0;
          SbpFaceNode(p, face, row.col[e], &fi, &fj);
          PetscCall(SbpProblemFaceDataAt(p, face, fi, fj, &data));
          sum += row.val[e] * data;
        }
      }
      ga[j][i] = sum;
    }
  if (fown) PetscCall(VecRestoreArrayRead(fown, &fvals));
  PetscCall(VecDestroy(&fown));
  PetscCall(DMDAVecRestoreArray(da, g, &ga));
  PetscCall(SbpBlocksDestroy(&blk));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemCreateAssembledOperator - The SBP-SAT operator M~ assembled as a PETSc AIJ matrix from the 1D SBP blocks by Kronecker
   products (spec-sbp-sat.md 3.2-3.4): the test oracle, the coarse-grid operator of the multigrid, and the matrix CPU solvers run on.
   Rows in the DMDA's ordering (natural ordering on one rank).

   Collective

   Level: beginner
@*/
PetscErrorCode SbpProblemCreateAssembledOperator(SbpProblem p, Mat *A)
{
  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  PetscCall(PetscLogEventBegin(SBPMG_SbpSetUp, 0, 0, 0, 0));
  /* built by hand rather than by DMCreateMatrix, which lets a user's global -mat_type decide the type */
  {
    PetscInt               n = p->xm * p->ym, N = (p->Nr + 1) * (p->Ns + 1), *dnz, *onz;
    ISLocalToGlobalMapping ltog;

    PetscErrorCode ierr;

    PetscCall(PetscMalloc2(n, &dnz, n, &onz));
    ierr = SbpAssembleOperatorRows(p, NULL, dnz, onz);
    if (!ierr) ierr = MatCreate(PetscObjectComm((PetscObject)p), A);
    if (!ierr) ierr = MatSetSizes(*A, n, n, N, N);
    if (!ierr) ierr = MatSetType(*A, MATAIJ);
    if (!ierr) ierr = MatXAIJSetPreallocation(*A, 1, dnz, onz, NULL, NULL);
    PetscCall(PetscFree2(dnz, onz)); /* on every path; *A, if made, is the caller's to destroy */
    PetscCall(ierr);
    DM da;
    PetscCall(SbpProblemGetLayoutDM(p, &da));
    PetscCall(DMGetLocalToGlobalMapping(da, &ltog));
    PetscCall(MatSetLocalToGlobalMapping(*A, ltog, ltog));
    PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
    PetscCall(SbpAssembleOperatorRows(p, *A, NULL, NULL));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(SbpProblemSetOperatorProperties(p, *A));
  PetscCall(PetscObjectCompose((PetscObject)*A, "SbpProblem", (PetscObject)p));
  PetscCall(PetscLogEventEnd(SBPMG_SbpSetUp, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}
