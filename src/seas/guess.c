/* The volume solve's initial guess (docs/seas.md "The initial guess"): the Galerkin projection of the new right-hand side onto the
   span of the last m solutions (Fischer, "Projection techniques for iterative solution of Ax = b with successive right-hand sides",
   CMAME 163, 1998). The basis X_1..X_n is kept A-orthonormal (X_i^T A X_j = delta_ij) with A X_i beside it, so the projection
   u0 = sum_i (X_i^T b) X_i minimises ||u - u0||_A over the span: never worse, in the A-norm, than the last solution alone, which
   is always in it. Each solve adds its solution (one operator apply and classical Gram-Schmidt, repeated once where it cancels);
   with the basis full, it starts again from the newest solution alone. (Dropping only the oldest X_1 would leave a span that no
   longer holds the recent solutions, each X_k having had its X_1 component removed; docs/seas.md measures it.) All on the solution's vector type (the device's
   with the device backend). */
#include <sbpmg/private/seasimpl.h>

PetscErrorCode SeasGuessSetFromOptions(PetscOptionItems *PetscOptionsObject, Seas s)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsInt("-seas_guess_basis", "Initial guess of each volume solve: the projection onto the last m solutions (0: the last solution alone)",
                            "SeasSetFromOptions", s->guess_m, &s->guess_m, NULL));
  PetscFunctionReturn(0);
}

/* The basis's vectors, once: m pairs of the solution's type. */
static PetscErrorCode SeasGuessAllocate(Seas s)
{
  PetscFunctionBegin;
  if (s->guess_X || !s->guess_m) PetscFunctionReturn(0);
  PetscCall(VecDuplicateVecs(s->u, s->guess_m, &s->guess_X));
  PetscCall(VecDuplicateVecs(s->u, s->guess_m, &s->guess_AX));
  PetscCall(PetscMalloc1(s->guess_m, &s->guess_c));
  s->guess_n  = 0;
  s->guess_u0 = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode SeasGuessDestroy(Seas s)
{
  PetscFunctionBegin;
  if (s->guess_X) PetscCall(VecDestroyVecs(s->guess_m, &s->guess_X));
  if (s->guess_AX) PetscCall(VecDestroyVecs(s->guess_m, &s->guess_AX));
  PetscCall(PetscFree(s->guess_c));
  s->guess_n  = 0;
  s->guess_u0 = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* u = sum_i (X_i^T b) X_i; with an empty basis (or m = 0) u stays the last solution. Where the basis has room, u0 and its coefficients
   are kept for SeasGuessAdd (in the next slot and guess_c). */
PetscErrorCode SeasGuessForm(Seas s, Vec b, Vec u)
{
  PetscFunctionBegin;
  s->guess_u0 = PETSC_FALSE;
  if (!s->guess_n) PetscFunctionReturn(0);
  PetscCall(VecMDot(b, s->guess_n, s->guess_X, s->guess_c));
  PetscCall(VecSet(u, 0));
  PetscCall(VecMAXPY(u, s->guess_n, s->guess_c, s->guess_X));
  if (s->guess_n < s->guess_m) {
    PetscCall(VecCopy(u, s->guess_X[s->guess_n]));
    s->guess_u0 = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

/* Add the solution u of A u = b to the basis: v = u - sum_i (X_i^T A u) X_i, a second pass where the first cancelled more than half of ||u||_A ("twice is
   enough"), A v by the operator (not by the recurrence, whose round-off would be large beside a small v), then v / ||v||_A. ||u||_A^2 is u^T b to the solve's
   tolerance. Where the guess u0 of this b was kept (SeasGuessForm), the first pass is the solve's own correction: X_i^T A u = X_i^T b to the solve's
   tolerance, so v = u - u0 with the guess's coefficients, and the second pass takes out the rest. Only a solution in the span to round-off (||v||_A below
   SEAS_GUESS_DROP ||u||_A) is not added: a direction the solve resolved only to its tolerance still shortens the next solves (docs/seas.md "The initial
   guess" measures a drop at 1e-7 to cost 3x). */
#define SEAS_GUESS_DROP 1e-10
PetscErrorCode SeasGuessAdd(Seas s, Vec u, Vec b)
{
  PetscInt    nkeep;
  PetscBool   from_guess;
  Vec         v, Av;
  PetscScalar uAu, vAv;

  PetscFunctionBegin;
  if (!s->guess_m) PetscFunctionReturn(0);
  PetscCall(SeasGuessAllocate(s));
  nkeep       = s->guess_n == s->guess_m ? 0 : s->guess_n; /* a full basis restarts from this solution alone */
  from_guess  = nkeep > 0 && s->guess_u0 ? PETSC_TRUE : PETSC_FALSE;
  v           = s->guess_X[nkeep];
  Av          = s->guess_AX[nkeep];
  s->guess_u0 = PETSC_FALSE;
  PetscCall(VecDot(u, b, &uAu));
  if (from_guess)
    PetscCall(VecAYPX(v, -1, u)); /* v = u - u0 */
  else
    PetscCall(VecCopy(u, v));
  for (int pass = 0; pass < 2 && nkeep > 0; pass++) {
    if (pass > 0 || !from_guess) {
      PetscCall(VecMDot(v, nkeep, s->guess_AX, s->guess_c)); /* X_i^T A v = (A X_i)^T v */
      for (PetscInt i = 0; i < nkeep; i++) s->guess_c[i] = -s->guess_c[i];
      PetscCall(VecMAXPY(v, nkeep, s->guess_c, s->guess_X));
    }
    if (pass == 0) { /* ||v||_A^2 = ||u||_A^2 - sum c_i^2 for the first pass: decides the second */
      PetscReal left = PetscRealPart(uAu);
      for (PetscInt i = 0; i < nkeep; i++) left -= PetscRealPart(s->guess_c[i] * s->guess_c[i]);
      if (left > 0.25 * PetscRealPart(uAu)) break;
    }
  }
  PetscCall(MatMult(s->A, v, Av));
  PetscCall(VecDot(v, Av, &vAv));
  if (!(PetscRealPart(uAu) > 0) || !(PetscRealPart(vAv) > SEAS_GUESS_DROP * SEAS_GUESS_DROP * PetscRealPart(uAu))) {
    s->guess_n = nkeep; /* in the span already (or u = 0): the slot stays free */
    PetscFunctionReturn(0);
  }
  PetscCall(VecScale(v, 1 / PetscSqrtReal(PetscRealPart(vAv))));
  PetscCall(VecScale(Av, 1 / PetscSqrtReal(PetscRealPart(vAv))));
  s->guess_n = nkeep + 1;
  PetscFunctionReturn(0);
}

/* The basis into a checkpoint (its size, then X_i and A X_i, oldest first), and back: the restarted run forms the same guesses. */
PetscErrorCode SeasGuessView(Seas s, PetscViewer v)
{
  PetscReal n = (PetscReal)s->guess_n;

  PetscFunctionBegin;
  PetscCall(PetscViewerBinaryWrite(v, &n, 1, PETSC_REAL));
  for (PetscInt i = 0; i < s->guess_n; i++) {
    PetscCall(VecView(s->guess_X[i], v));
    PetscCall(VecView(s->guess_AX[i], v));
  }
  PetscFunctionReturn(0);
}

/* A basis of more vectors than -seas_guess_basis keeps its newest m (still A-orthonormal). */
PetscErrorCode SeasGuessLoad(Seas s, PetscViewer v)
{
  PetscReal n;
  PetscInt  nfile, skip;
  Vec       w;

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
    PetscCall(VecLoad(keep ? s->guess_AX[s->guess_n] : w, v));
    if (keep) s->guess_n++;
  }
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(0);
}
