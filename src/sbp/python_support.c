/* What a caller that evaluates its face data itself needs of a problem (the Python package, python/sbpmg; docs/guide.md "From
   Python"): the coordinates of a face's nodes and the unit outward normals there, exactly as the library hands them to a boundary
   function (SbpProblemSetBoundaryFunction()), so that data evaluated from them equal data the library evaluates itself. */
#include <sbpmg/private/sbpimpl.h>

/*@C
   SbpProblemGetFaceGeometry - The physical coordinates (x, y) of the nodes of one face and the unit outward normal (nx, ny) there, in
   the order along the face (j = 0..Ns on faces 1 and 2, i = 0..Nr on faces 3 and 4), the whole face on every rank: what
   SbpProblemSetBoundaryFunction()'s function is given at those nodes. Each array has room for n values, n the face's node count.

   Collective

   Input Parameters:
+  p    - the problem, set up
.  face - 1..4
-  n    - the length of the arrays: Ns + 1 on faces 1 and 2, Nr + 1 on faces 3 and 4

   Output Parameters:
+  x, y   - the nodes' coordinates
-  nx, ny - the unit outward normal at them

   Notes:
   The mapping must be one the host evaluates (built in, a C function, or node coordinates); a mapping given only as OpenCL source
   is an error that says so.

   Level: intermediate

.seealso: `SbpProblemSetBoundaryFunction()`, `SbpProblemSetBoundaryValues()`, `SbpProblemGetCoordinates()`
@*/
PetscErrorCode SbpProblemGetFaceGeometry(SbpProblem p, PetscInt face, PetscInt n, PetscReal x[], PetscReal y[], PetscReal nx[], PetscReal ny[])
{
  MPI_Comm   comm;
  PetscInt   first, count, len;
  PetscReal *all;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  comm = PetscObjectComm((PetscObject)p);
  PetscCheck(p->setupcalled, comm, PETSC_ERR_ORDER, "SbpProblemGetFaceGeometry: call SbpProblemSetUp() first");
  PetscCheck(face >= 1 && face <= 4, comm, PETSC_ERR_ARG_OUTOFRANGE, "SbpProblemGetFaceGeometry: face %" PetscInt_FMT " does not exist: faces are 1..4", face);
  len = SbpFaceLength(p, face);
  PetscCheck(n == len, comm, PETSC_ERR_ARG_SIZ, "SbpProblemGetFaceGeometry: face %" PetscInt_FMT " has %" PetscInt_FMT " nodes; the arrays hold %" PetscInt_FMT,
             face, len, n);
  PetscCall(SbpProblemGetHostNodes(p));
  PetscCall(PetscCalloc1(4 * len, &all));
  SbpProblemFaceOwned(p, face, &first, &count);
  for (PetscInt t = first; t < first + count; t++) {
    const PetscInt i = face == 1 ? 0 : face == 2 ? p->Nr : t, j = face == 3 ? 0 : face == 4 ? p->Ns : t;
    PetscReal      X[6], sx, sy, sJ;

    PetscCall(SbpProblemEvaluateMapping(p, i, j, X));
    /* the scaled outward normal of the face (its length the face's scale factor sJ), as src/sbp/data.c forms it */
    sx               = face == 1 ? -X[5] : face == 2 ? X[5] : face == 3 ? X[4] : -X[4];
    sy               = face == 1 ? X[3] : face == 2 ? -X[3] : face == 3 ? -X[2] : X[2];
    sJ               = PetscSqrtReal(sx * sx + sy * sy);
    all[t]           = X[0];
    all[len + t]     = X[1];
    all[2 * len + t] = sx / sJ;
    all[3 * len + t] = sy / sJ;
  }
  /* each node is owned by one rank (the others hold zero there): the sum is the whole face */
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, all, (PetscMPIInt)(4 * len), MPIU_REAL, MPIU_SUM, comm));
  PetscCall(PetscArraycpy(x, all, len));
  PetscCall(PetscArraycpy(y, all + len, len));
  PetscCall(PetscArraycpy(nx, all + 2 * len, len));
  PetscCall(PetscArraycpy(ny, all + 3 * len, len));
  PetscCall(PetscFree(all));
  PetscFunctionReturn(0);
}
