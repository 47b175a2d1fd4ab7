/* PETSc's own PCMG options on PCSBPMG's hierarchy (docs/design.md "The single-precision V-cycle and PETSc's own solvers"): which of
   them put PETSc's solvers on the level vectors in place of sbpmg's smoothers or coarse solve (the V-cycle then runs in double), and
   which level preconditioners need an assembled matrix that sbpmg's matrix-free levels do not have (refused at set-up). */
#include <sbpmg/private/mgimpl.h>

/* Whether the value of option name (under the PC's prefix) is one of list (NULL-terminated); set: whether the option is given. */
static PetscErrorCode PCSBPMGOptionValue(PC pc, const char name[], char value[], size_t len, const char *const list[], PetscBool *set, PetscBool *in)
{
  const char *prefix;

  PetscFunctionBegin;
  *in      = PETSC_FALSE;
  value[0] = 0;
  PetscCall(PCGetOptionsPrefix(pc, &prefix));
  PetscCall(PetscOptionsGetString(((PetscObject)pc)->options, prefix, name, value, len, set));
  for (PetscInt i = 0; *set && list[i] && !*in; i++) PetscCall(PetscStrcasecmp(value, list[i], in));
  PetscFunctionReturn(0);
}

/* Whether an option of PCMG's level smoothers replaces sbpmg's (-mg_levels_ksp_type, -mg_levels_pc_type, or those of one of the L
   levels), and its name: PETSc's own smoothers run on the level vectors with operations that the single-precision V-cycle's fp32
   vectors do not have. */
PetscErrorCode PCSBPMGForeignSmootherOption(PC pc, PetscInt L, char name[], size_t len, PetscBool *set)
{
  const char *prefix, *what[2] = {"ksp_type", "pc_type"};

  PetscFunctionBegin;
  *set = PETSC_FALSE;
  PetscCall(PCGetOptionsPrefix(pc, &prefix));
  for (PetscInt k = -1; k < L && !*set; k++)
    for (int t = 0; t < 2 && !*set; t++) {
      if (k < 0)
        PetscCall(PetscSNPrintf(name, len, "-mg_levels_%s", what[t]));
      else
        PetscCall(PetscSNPrintf(name, len, "-mg_levels_%" PetscInt_FMT "_%s", k, what[t]));
      PetscCall(PetscOptionsHasName(((PetscObject)pc)->options, prefix, name, set));
    }
  PetscFunctionReturn(0);
}

/* Whether an option of PCMG's coarse solve puts PETSc's own solver on the coarsest level's vectors, and the option with its value: a
   -mg_coarse_ksp_type other than preonly (a Krylov method: VecDot, VecAXPY, ... and MatMult of the matrix-free level operator), or a
   -mg_coarse_pc_type other than those that reach the vectors only through VecGetArray (a factorisation or SOR of the assembled coarse
   matrix, or none): PCJACOBI's VecPointwiseMult, for one, is no operation of the fp32 level vectors. */
PetscErrorCode PCSBPMGForeignCoarseOption(PC pc, char name[], size_t len, PetscBool *set)
{
  static const char *const ksps[] = {"preonly", NULL}, *const pcs[] = {"lu", "cholesky", "ilu", "icc", "sor", "none", NULL};
  char      value[64];
  PetscBool in;

  PetscFunctionBegin;
  PetscCall(PCSBPMGOptionValue(pc, "-mg_coarse_ksp_type", value, sizeof(value), ksps, set, &in));
  if (*set && !in) {
    PetscCall(PetscSNPrintf(name, len, "-mg_coarse_ksp_type %s", value));
    PetscFunctionReturn(0);
  }
  PetscCall(PCSBPMGOptionValue(pc, "-mg_coarse_pc_type", value, sizeof(value), pcs, set, &in));
  *set = *set && !in ? PETSC_TRUE : PETSC_FALSE;
  if (*set) PetscCall(PetscSNPrintf(name, len, "-mg_coarse_pc_type %s", value));
  PetscFunctionReturn(0);
}

/* Level preconditioners that need an assembled matrix (MatSOR, factorisations, sub-matrices: PCSOR, PCILU, PCBJACOBI, ...) are refused
   at set-up where a smoothed level's preconditioning matrix is matrix-free (every level below the finest; the finest too unless the
   preconditioning matrix is assembled and some face is Dirichlet): they failed at the first V-cycle ("No method sor for Mat of type
   shell"). Those that work on the matrix-free operators: sbpmg's, PCJACOBI (MatGetDiagonal), PCNONE, PCSHELL and PCKSP. L levels of
   the problem fine, before they are made. */
PetscErrorCode PCSBPMGCheckLevelPCs(PC pc, SbpProblem fine, PetscInt L)
{
  static const char *const ok[] = {PCSBPMGSMOOTHER, PCJACOBI, PCNONE, PCSHELL, PCKSP, NULL};
  PetscBool                shell;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)pc->pmat, MATSHELL, &shell));
  for (PetscInt k = 0; k < L - 1; k++) { /* the smoothed levels, k = 0 the finest (all faces Neumann: an operator of its own) */
    const PetscInt lev = L - 1 - k;
    if (!k && !shell && !SbpProblemAllNeumann(fine)) continue;
    for (int t = 0; t < 2; t++) {
      char      name[64], value[64];
      PetscBool set, in;
      if (t)
        PetscCall(PetscSNPrintf(name, sizeof(name), "-mg_levels_%" PetscInt_FMT "_pc_type", lev));
      else
        PetscCall(PetscSNPrintf(name, sizeof(name), "-mg_levels_pc_type"));
      PetscCall(PCSBPMGOptionValue(pc, name, value, sizeof(value), ok, &set, &in));
      PetscCheck(!set || in, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP,
                 "%s %s needs an assembled matrix, but the operator of level %" PetscInt_FMT
                 " is matrix-free (sbpmg re-discretises every level): use sbpmg's smoothers (-pc_sbpmg_smoother chebyshev, jacobi or richardson), or %s "
                 "jacobi or none",
                 name, value, lev, name);
    }
  }
  PetscFunctionReturn(0);
}
