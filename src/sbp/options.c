/* The options of an SbpProblem (under its prefix, SbpProblemSetOptionsPrefix()). The kernel shapes are not options: they are
   rows of the tuning table (include/sbpmg/private/tuning.h, -sbpmg_tune). */
#include <sbpmg/private/sbpimpl.h>

/* "DDNN": one letter per face 1..4, D (Dirichlet) or N (Neumann). */
static PetscErrorCode SbpParseBC(SbpProblem p, const char bc[])
{
  size_t len;

  PetscFunctionBegin;
  PetscCall(PetscStrlen(bc, &len));
  PetscCheck(len == 4, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_WRONG,
             "-sbp_bc %s: give one letter per face 1..4, D (Dirichlet) or N (Neumann), e.g. DDNN", bc);
  for (PetscInt f = 0; f < 4; f++) {
    char ch = bc[f];
    PetscCheck(ch == 'D' || ch == 'd' || ch == 'N' || ch == 'n', PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_WRONG,
               "-sbp_bc %s: letter '%c' for face %" PetscInt_FMT " is neither D (Dirichlet) nor N (Neumann)", bc, ch, f + 1);
    p->bc[f] = (ch == 'D' || ch == 'd') ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN;
  }
  PetscFunctionReturn(0);
}

/* The grid sizes: -sbp_n N (both r and s) or Nr,Ns; count is the number of values given (0: none). */
static PetscErrorCode SbpProblemSizesFromOptions(PetscOptionItems *PetscOptionsObject, SbpProblem p, PetscInt *nr, PetscInt *ns, PetscInt *count)
{
  PetscInt  n[2] = {p->Nr, p->Ns}, nn = 2;
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(SbpmgOptionsArray(PetscOptionsObject, "-sbp_n", "Grid intervals: N (both r and s) or Nr,Ns", "SbpProblemSetSizes", PETSC_INT, n,
                              p->Nr == p->Ns ? 1 : 2, &nn, &set));
  *count = set ? nn : 0;
  *nr    = n[0];
  *ns    = set && nn == 1 ? n[0] : n[1];
  PetscFunctionReturn(0);
}

/* Load nodal data from a PETSc binary file (none: an empty name). */
static PetscErrorCode SbpLoadFile(SbpProblem p, const char path[], PetscErrorCode (*load)(SbpProblem, PetscViewer))
{
  PetscViewer viewer;

  PetscFunctionBegin;
  if (!path[0]) PetscFunctionReturn(0);
  PetscCall(PetscViewerBinaryOpen(PetscObjectComm((PetscObject)p), path, FILE_MODE_READ, &viewer));
  {
    PetscErrorCode ierr = (*load)(p, viewer);
    PetscCall(PetscViewerDestroy(&viewer));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetFromOptions - Read the problem from the options database (under the problem's prefix).

   Options Database Keys:
+  -sbp_n <N|Nr,Ns>    - intervals in both directions, or in r and in s
.  -sbp_mapping <curved,square> - the mapping
.  -sbp_mu <basin,constant>     - the coefficient
.  -sbp_mu_value <v>   - the constant coefficient
.  -sbp_bc <DDNN>      - one letter per face 1..4: D (Dirichlet, by SAT) or N (Neumann)
.  -sbp_grid_file <path> - the node coordinates from a PETSc binary file (x then y, natural order)
.  -sbp_mu_file <path> - mu at the nodes from a PETSc binary file
.  -sbp_backend <auto,device,host> - where the matrix-free operator runs
-  -sbp_order <2,4,6>  - the interior order of the SBP-SAT operator

   Level: beginner

.seealso: `SbpProblemSetOptionsPrefix()`
@*/
PetscErrorCode SbpProblemSetFromOptions(SbpProblem p)
{
  char           bc[32], bcnow[8], gridfile[PETSC_MAX_PATH_LEN] = "", mufile[PETSC_MAX_PATH_LEN] = "";
  PetscInt       nr = p->Nr, ns = p->Ns, nsizes = 0, order = p->order;
  PetscBool      setmap, setmu, setbc, setvalue;
  PetscReal      value   = p->mu_value;
  SbpMappingType mapping = p->mapping;
  SbpMuType      mu      = p->mu;
  SbpBackend     backend = p->backend;
  MPI_Comm       comm    = PetscObjectComm((PetscObject)p);

  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "options"));
  {
    static const char *const ints[] = {"-sbp_n", NULL};
    const char              *prefix;
    PetscCall(PetscObjectGetOptionsPrefix((PetscObject)p, &prefix));
    PetscCall(SbpmgOptionsCheckInts(((PetscObject)p)->options, prefix, ints));
  }
  for (PetscInt f = 0; f < 4; f++) bc[f] = p->bc[f] == SBP_BC_DIRICHLET ? 'D' : 'N';
  bc[4] = 0;
  PetscCall(PetscStrncpy(bcnow, bc, sizeof(bcnow))); /* -help's "formerly": bc is overwritten by the value given */
  PetscObjectOptionsBegin((PetscObject)p);
  PetscCall(SbpProblemSizesFromOptions(PetscOptionsObject, p, &nr, &ns, &nsizes));
  PetscCall(PetscOptionsEnum("-sbp_mapping", "Mapping", "SbpProblemSetMapping", SbpMappingTypes, (PetscEnum)mapping, (PetscEnum *)&mapping, &setmap));
  PetscCall(PetscOptionsEnum("-sbp_mu", "Coefficient mu", "SbpProblemSetMu", SbpMuTypes, (PetscEnum)mu, (PetscEnum *)&mu, &setmu));
  PetscCall(PetscOptionsReal("-sbp_mu_value", "Value of the constant coefficient", "SbpProblemSetMu", value, &value, &setvalue));
  PetscCall(PetscOptionsString("-sbp_bc", "Boundary conditions of faces 1..4 (r=-1, r=+1, s=-1, s=+1): D or N each", "SbpProblemSetBC", bcnow, bc, sizeof(bc),
                               &setbc));
  PetscCall(PetscOptionsInt("-sbp_order", "Interior order of the SBP-SAT operator: 2, 4 or 6", "SbpProblemSetOrder", order, &order, NULL));
  PetscCall(PetscOptionsEnum("-sbp_backend", "Where the operator runs", "SbpProblemSetBackend", SbpBackends, (PetscEnum)backend, (PetscEnum *)&backend, NULL));
  PetscCall(PetscOptionsString("-sbp_grid_file", "PETSc binary file of the node coordinates x then y (natural order)", "SbpProblemLoadNodeCoordinates",
                               gridfile, gridfile, sizeof(gridfile), NULL));
  PetscCall(
      PetscOptionsString("-sbp_mu_file", "PETSc binary file of mu at the nodes (natural order)", "SbpProblemLoadMu", mufile, mufile, sizeof(mufile), NULL));
  PetscOptionsEnd();
  if (nsizes > 2)
    PetscCall(SbpmgOptionsArrayTooMany(comm, ((PetscObject)p)->options, ((PetscObject)p)->prefix, "-sbp_n", 2, "1 value (N: both r and s) or 2 (Nr,Ns)"));
  /* a value that would do nothing is refused rather than ignored: the files replace the mapping and mu given beside them */
  PetscCheck(!mufile[0] || !(setvalue || (setmu && mu != SBP_MU_NODES)), comm, PETSC_ERR_ARG_INCOMP,
             "-sbp_mu_file %s gives mu at the nodes: %s%s beside it would have no effect", mufile, setvalue ? "-sbp_mu_value" : "-sbp_mu ",
             setvalue ? "" : SbpMuTypes[mu]);
  PetscCheck(!gridfile[0] || !setmap || mapping == SBP_MAPPING_NODES, comm, PETSC_ERR_ARG_INCOMP,
             "-sbp_grid_file %s gives the node coordinates: -sbp_mapping %s beside it would have no effect", gridfile, SbpMappingTypes[mapping]);
  PetscCheck(!setvalue || (setmu ? mu : p->mu) == SBP_MU_CONSTANT, comm, PETSC_ERR_ARG_INCOMP,
             "-sbp_mu_value %g has no effect: the coefficient is -sbp_mu %s, not constant (give -sbp_mu constant with it)", (double)value,
             SbpMuTypes[setmu ? mu : p->mu]);

  PetscCall(SbpProblemSetSizes(p, nr, ns));
  if (setmap) {
    PetscCheck(mapping != SBP_MAPPING_USER, comm, PETSC_ERR_ARG_WRONG, "-sbp_mapping user: set a user mapping with SbpProblemSetMappingFunction()");
    PetscCheck(mapping != SBP_MAPPING_NODES || gridfile[0] || p->node[0], comm, PETSC_ERR_ARG_WRONG,
               "-sbp_mapping nodes: give the node coordinates with -sbp_grid_file or SbpProblemSetNodeCoordinates()");
    if (mapping != SBP_MAPPING_NODES) PetscCall(SbpProblemSetMapping(p, mapping));
  }
  if (setmu) {
    PetscCheck(mu != SBP_MU_USER, comm, PETSC_ERR_ARG_WRONG, "-sbp_mu user: set a user coefficient with SbpProblemSetMuFunction()");
    PetscCheck(mu != SBP_MU_NODES || mufile[0] || p->node[2], comm, PETSC_ERR_ARG_WRONG,
               "-sbp_mu nodes: give mu at the nodes with -sbp_mu_file or SbpProblemSetMuVector()");
    if (mu != SBP_MU_NODES) PetscCall(SbpProblemSetMu(p, mu, value));
  } else if (p->mu == SBP_MU_CONSTANT)
    p->mu_value = value;
  if (setbc) PetscCall(SbpParseBC(p, bc));
  PetscCall(SbpLoadFile(p, gridfile, SbpProblemLoadNodeCoordinates));
  PetscCall(SbpLoadFile(p, mufile, SbpProblemLoadMu));
  PetscCall(SbpProblemSetBackend(p, backend));
  PetscCall(SbpProblemSetOrder(p, order));
  PetscFunctionReturn(0);
}
