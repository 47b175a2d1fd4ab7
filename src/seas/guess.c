/* The volume solve's initial guess (docs/seas.md "The initial guess"): the Galerkin projection of the new right-hand side onto the
   span of the last m solutions (Fischer, "Projection techniques for iterative solution of Ax = b with successive right-hand sides",
   CMAME 163, 1998). The basis X_1..X_n (X_i^T A X_i = 1, nearly A-orthogonal) keeps its Gram matrix G = X^T A X as the Cholesky
   factor L L^T, so the projection u0 = X G^-1 X^T b minimises ||u - u0||_A over the span: never worse, in the A-norm, than the last
   solution alone, which is always in it. Each solve that iterated adds its correction u - u0 (A-orthogonal to the span up to the
   solve's tolerance, which G's new column takes exactly: no second Gram-Schmidt pass over the grid vectors); with the basis full, it
   starts again from the newest solution alone. (Dropping only the oldest X_1 would leave a span that no longer holds the recent
   solutions; docs/seas.md measures it.) All on the solution's vector type (the device's with the device backend). */
#include <sbpmg/private/seasimpl.h>

/* A solution whose part outside the span has ||.||_A below SEAS_GUESS_DROP ||u||_A is not added (in the span to round-off), nor a
   vector whose part outside the span is less than SEAS_GUESS_INDEP of its A-norm squared (G would lose its condition; such a vector
   is in the span to the solve's tolerance). A direction the solve resolved only to its tolerance still shortens the next solves
   (docs/seas.md "The initial guess" measures a drop at 1e-7 to cost 3x). */
#define SEAS_GUESS_DROP  1e-10
#define SEAS_GUESS_INDEP 1e-6

PetscErrorCode SeasGuessSetFromOptions(PetscOptionItems *PetscOptionsObject, Seas s)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsInt("-seas_guess_basis", "Initial guess of each volume solve: the projection onto the last m solutions (0: the last solution alone)",
                            "SeasSetFromOptions", s->guess_m, &s->guess_m, NULL));
  PetscFunctionReturn(0);
}

/* The basis's vectors, once: m of the solution's type, one more for A v, and the m x m factor. */
static PetscErrorCode SeasGuessAllocate(Seas s)
{
  PetscFunctionBegin;
  if (s->guess_X || !s->guess_m) PetscFunctionReturn(0);
  PetscCall(VecDuplicateVecs(s->u, s->guess_m, &s->guess_X));
  PetscCall(VecDuplicate(s->u, &s->guess_Av));
  PetscCall(PetscCalloc2(s->guess_m * s->guess_m, &s->guess_L, s->guess_m, &s->guess_c));
  s->guess_n  = 0;
  s->guess_u0 = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode SeasGuessDestroy(Seas s)
{
  PetscFunctionBegin;
  if (s->guess_X) PetscCall(VecDestroyVecs(s->guess_m, &s->guess_X));
  PetscCall(VecDestroy(&s->guess_Av));
  PetscCall(PetscFree2(s->guess_L, s->guess_c));
  s->guess_n  = 0;
  s->guess_u0 = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* y = L^-1 y (forward substitution) with the n x n lower factor L (row-major, leading dimension ld). */
static void SeasGuessForward(const PetscScalar *L, PetscInt ld, PetscInt n, PetscScalar *y)
{
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar t = y[i];
    for (PetscInt k = 0; k < i; k++) t -= L[i * ld + k] * y[k];
    y[i] = t / L[i * ld + i];
  }
}

/* y = G^-1 y = L^-T L^-1 y. */
static void SeasGuessSolveGram(Seas s, PetscInt n, PetscScalar *y)
{
  const PetscInt     ld = s->guess_m;
  const PetscScalar *L  = s->guess_L;

  SeasGuessForward(L, ld, n, y);
  for (PetscInt i = n - 1; i >= 0; i--) {
    PetscScalar t = y[i];
    for (PetscInt k = i + 1; k < n; k++) t -= L[k * ld + i] * y[k];
    y[i] = t / L[i * ld + i];
  }
}

/* u = X G^-1 X^T b, the coefficients left in guess_c. */
static PetscErrorCode SeasGuessProject(Seas s, PetscInt n, Vec b, Vec u)
{
  PetscFunctionBegin;
  PetscCall(VecMDot(b, n, s->guess_X, s->guess_c));
  SeasGuessSolveGram(s, n, s->guess_c);
  PetscCall(VecSet(u, 0));
  PetscCall(VecMAXPY(u, n, s->guess_c, s->guess_X));
  PetscFunctionReturn(0);
}

/* u = the projection of A^-1 b; with an empty basis (or m = 0) u stays the last solution. Where the basis has room, u0 is kept for
   SeasGuessAdd in the next slot. */
PetscErrorCode SeasGuessForm(Seas s, Vec b, Vec u)
{
  PetscFunctionBegin;
  s->guess_u0 = PETSC_FALSE;
  if (!s->guess_n) PetscFunctionReturn(0);
  PetscCall(SeasGuessProject(s, s->guess_n, b, u));
  if (s->guess_n < s->guess_m) {
    PetscCall(VecCopy(u, s->guess_X[s->guess_n]));
    s->guess_u0 = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

/* Add the solution u of A u = b to the basis: v = u - u0, the solve's correction to the projected guess (where the guess of this b
   was kept, SeasGuessForm; else the projection is made here), A v by the operator (not by a recurrence, whose round-off beside a
   small v is large), G's new column X^T A v, then v / ||v||_A and the factor's new row l = L^-1 X^T A v, with diagonal
   sqrt(1 - l^T l). ||u||_A^2 is u^T b to the solve's tolerance. */
PetscErrorCode SeasGuessAdd(Seas s, Vec u, Vec b)
{
  PetscInt    nkeep;
  Vec         v;
  PetscScalar uAu, vAv, *row;
  PetscReal   ll = 0, scale;

  PetscFunctionBegin;
  if (!s->guess_m) PetscFunctionReturn(0);
  PetscCall(SeasGuessAllocate(s));
  nkeep = s->guess_n == s->guess_m ? 0 : s->guess_n; /* a full basis restarts from this solution alone */
  v     = s->guess_X[nkeep];
  PetscCall(VecDot(u, b, &uAu));
  if (nkeep > 0 && s->guess_u0)
    PetscCall(VecAYPX(v, -1, u)); /* v = u - u0 */
  else if (nkeep > 0) {
    PetscCall(SeasGuessProject(s, nkeep, b, v));
    PetscCall(VecAYPX(v, -1, u));
  } else
    PetscCall(VecCopy(u, v));
  s->guess_u0 = PETSC_FALSE;
  PetscCall(MatMult(s->A, v, s->guess_Av));
  if (nkeep > 0) PetscCall(VecMDot(s->guess_Av, nkeep, s->guess_X, s->guess_c)); /* X_i^T A v */
  PetscCall(VecDot(v, s->guess_Av, &vAv));
  s->guess_n = nkeep; /* until v is accepted: the slot stays free */
  if (!(PetscRealPart(uAu) > 0) || !(PetscRealPart(vAv) > 0)) PetscFunctionReturn(0);
  scale = 1 / PetscSqrtReal(PetscRealPart(vAv));
  row   = s->guess_L + nkeep * s->guess_m;
  for (PetscInt i = 0; i < nkeep; i++) row[i] = s->guess_c[i] * scale;
  SeasGuessForward(s->guess_L, s->guess_m, nkeep, row);
  for (PetscInt i = 0; i < nkeep; i++) ll += PetscRealPart(row[i] * row[i]);
  /* ||v - its projection||_A^2 = (1 - l^T l) ||v||_A^2 */
  if (!(1 - ll > SEAS_GUESS_INDEP) || !((1 - ll) * PetscRealPart(vAv) > SEAS_GUESS_DROP * SEAS_GUESS_DROP * PetscRealPart(uAu))) PetscFunctionReturn(0);
  row[nkeep] = PetscSqrtReal(1 - ll);
  PetscCall(VecScale(v, scale));
  s->guess_n = nkeep + 1;
  PetscFunctionReturn(0);
}

/* The basis into a checkpoint (its size, X_i oldest first, then the factor's n x n rows), and back: the restarted run forms the
   same guesses. */
PetscErrorCode SeasGuessView(Seas s, PetscViewer v)
{
  PetscReal n = (PetscReal)s->guess_n;

  PetscFunctionBegin;
  PetscCall(PetscViewerBinaryWrite(v, &n, 1, PETSC_REAL));
  for (PetscInt i = 0; i < s->guess_n; i++) PetscCall(VecView(s->guess_X[i], v));
  for (PetscInt i = 0; i < s->guess_n; i++) PetscCall(PetscViewerBinaryWrite(v, s->guess_L + i * s->guess_m, s->guess_n, PETSC_SCALAR));
  PetscFunctionReturn(0);
}

/* The Cholesky factor of G's trailing block from row `skip` on, G = Lf Lf^T with Lf nf x nf: L of the basis kept. */
static PetscErrorCode SeasGuessRefactor(Seas s, const PetscScalar *Lf, PetscInt nf, PetscInt skip)
{
  const PetscInt n = nf - skip, ld = s->guess_m;
  PetscScalar   *L = s->guess_L;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j <= i; j++) {
      PetscScalar g = 0;
      for (PetscInt k = 0; k <= skip + j; k++) g += Lf[(skip + i) * nf + k] * Lf[(skip + j) * nf + k];
      for (PetscInt k = 0; k < j; k++) g -= L[i * ld + k] * L[j * ld + k];
      if (i > j)
        L[i * ld + j] = g / L[j * ld + j];
      else {
        PetscCheck(PetscRealPart(g) > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
                   "The checkpoint -seas_restart %s holds an initial-guess basis whose newest %" PetscInt_FMT
                   " vectors are not independent to round-off (vector %" PetscInt_FMT ")",
                   s->restart, n, skip + i);
        L[i * ld + i] = PetscSqrtReal(PetscRealPart(g));
      }
    }
  PetscFunctionReturn(0);
}

/* A basis of more vectors than -seas_guess_basis keeps its newest m. */
PetscErrorCode SeasGuessLoad(Seas s, PetscViewer v)
{
  PetscReal    n;
  PetscInt     nfile, skip;
  PetscScalar *Lf;
  Vec          w;

  PetscFunctionBegin;
  PetscCall(PetscViewerBinaryRead(v, &n, 1, NULL, PETSC_REAL));
  nfile = (PetscInt)n;
  skip  = PetscMax(nfile - s->guess_m, 0);
  PetscCall(SeasGuessAllocate(s));
  PetscCall(VecDuplicate(s->u, &w));
  s->guess_n  = 0;
  s->guess_u0 = PETSC_FALSE;
  for (PetscInt i = 0; i < nfile; i++) {
    const PetscBool keep = i >= skip ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(VecLoad(keep ? s->guess_X[s->guess_n] : w, v));
    if (keep) s->guess_n++;
  }
  PetscCall(VecDestroy(&w));
  PetscCall(PetscMalloc1(nfile * nfile + 1, &Lf));
  PetscCall(PetscViewerBinaryRead(v, Lf, nfile * nfile, NULL, PETSC_SCALAR));
  for (PetscInt i = 0; i < nfile; i++) { /* a factor of a positive definite G: a positive diagonal, finite entries */
    PetscBool ok = PetscRealPart(Lf[i * nfile + i]) > 0 ? PETSC_TRUE : PETSC_FALSE;
    for (PetscInt k = 0; k <= i; k++) ok = ok && !PetscIsInfOrNanScalar(Lf[i * nfile + k]) ? PETSC_TRUE : PETSC_FALSE;
    if (!ok) PetscCall(PetscFree(Lf));
    PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "The checkpoint -seas_restart %s holds an initial-guess basis whose Gram factor is not that of a positive definite matrix (row %" PetscInt_FMT
               " of %" PetscInt_FMT ")",
               s->restart, i, nfile);
  }
  if (skip)
    PetscCall(SeasGuessRefactor(s, Lf, nfile, skip));
  else
    for (PetscInt i = 0; i < nfile; i++) PetscCall(PetscArraycpy(s->guess_L + i * s->guess_m, Lf + i * nfile, nfile)); /* bit for bit */
  PetscCall(PetscFree(Lf));
  PetscFunctionReturn(0);
}
