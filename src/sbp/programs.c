/* The programs of the point functions (docs/design.md "User sources and the macro namespace"): kernels/coef.cl, and the programs
   built on it (the right-hand side's "coef+sbp+rhs", the traction's), specialised for the problem's mapping, mu and metric
   (-DSBPMG_COEF_*), with the user's OpenCL sources placed first, each wrapped by src/cl/usersource.c. */
#include <sbpmg/private/sbpimpl.h>

/* The user's sources of the program made of kernels/<files>, in order, each with the setter that gave it (the name that
   the compiler's messages and a reserved macro's error give it): the point functions', then for the right-hand side's
   program the data's (the data's only where they are used: their own program). */
static PetscErrorCode SbpProblemUserSources(SbpProblem p, PetscBool rhs, const char *src[9], char setter[9][48], PetscInt *n)
{
  const char *const names[4] = {"SbpProblemSetMappingSource", "SbpProblemSetMuSource", "SbpProblemSetMetricSource", "SbpProblemSetForcingSource"};
  const char       *given[4] = {p->mapsrc, p->musrc, p->metricsrc, rhs ? p->forcing.src : NULL};

  PetscFunctionBegin;
  *n = 0;
  for (int s = 0; s < 4; s++)
    if (given[s]) {
      src[*n] = given[s];
      PetscCall(PetscStrncpy(setter[(*n)++], names[s], sizeof(setter[0])));
    }
  for (int f = 0; rhs && f < 4; f++)
    if (p->face[f].src) {
      src[*n] = p->face[f].src;
      PetscCall(PetscSNPrintf(setter[(*n)++], sizeof(setter[0]), "SbpProblemSetBoundarySource face %d", f + 1));
    }
  if (rhs && p->exactsrc) { /* rhs_exact_nodes's (SBPMG_RHS_EXACT) */
    src[*n] = p->exactsrc;
    PetscCall(PetscStrncpy(setter[(*n)++], "SbpProblemSetExactSolutionSource", sizeof(setter[0])));
  }
  PetscFunctionReturn(0);
}

/* The program's source: each user source wrapped (SbpmgCLWrapUserSource(): a #line naming its setter, the source, an #undef of
   each macro it defines), then kernels/<files> (each with its own #line); and its name for messages. */
static PetscErrorCode SbpProblemJoinSources(SbpProblem p, const char files[], PetscInt n, const char *const src[], char setter[][48], char **source,
                                            char name[], size_t len)
{
  char  *parts[10];
  size_t total = 1, at = 0;

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(parts, 10));
  PetscCall(PetscStrncpy(name, "the user's sources (", len));
  for (PetscInt s = 0; s < n; s++) {
    PetscErrorCode ierr = SbpmgCLWrapUserSource(PetscObjectComm((PetscObject)p), setter[s], src[s], (int)s, &parts[s]);
    if (ierr) {
      for (PetscInt t = 0; t < s; t++) PetscCall(PetscFree(parts[t]));
      PetscCall(ierr);
    }
    PetscCall(PetscStrlcat(name, s ? ", " : "", len));
    PetscCall(PetscStrlcat(name, setter[s], len));
  }
  PetscCall(PetscStrlcat(name, ") and kernels/", len));
  PetscCall(PetscStrlcat(name, files, len));
  PetscCall(PetscStrlcat(name, ".cl", len));
  PetscCall(SbpmgCLReadSource(p->cl, files, &parts[n]));
  for (PetscInt s = 0; s <= n; s++) {
    size_t l;
    PetscCall(PetscStrlen(parts[s], &l));
    total += l;
  }
  PetscCall(PetscMalloc1(total, source)); /* PETSc 3.18's PetscStrlcat() limits by the appended length: concatenate by hand */
  for (PetscInt s = 0; s <= n; s++) {
    size_t l;
    PetscCall(PetscStrlen(parts[s], &l));
    PetscCall(PetscMemcpy(*source + at, parts[s], l));
    at += l;
    PetscCall(PetscFree(parts[s]));
  }
  (*source)[at] = 0;
  PetscFunctionReturn(0);
}

/* The kernel `name` of the program made of kernels/<files> ("coef", or "coef+sbp+rhs": files joined by '+'), specialised for the
   problem's point functions (-DSBPMG_COEF_*; SBPMG_COEF_DORDER the order of the node coordinates' derivative, the SBP order where
   the grid is node coordinates, docs/guide.md "Bringing a problem") and by extra options; the user's OpenCL sources placed first,
   each under a #line that names its setter, so that a build log names the source and gives its own line numbers, and none of
   their macros reaches the library's code (docs/design.md "User sources and the macro namespace"). */
PetscErrorCode SbpProblemGetPointKernel(SbpProblem p, const char files[], const char extra[], const char name[], cl_kernel *k)
{
  char        opts[512], setter[9][48];
  const int   map = p->mapping == SBP_MAPPING_NODES ? 3 : p->mapsrc ? 2 : SbpProblemTabulatesMapping(p) ? 4 : (p->mapping == SBP_MAPPING_SQUARE ? 1 : 0);
  const int   mu  = p->mu == SBP_MU_NODES ? 3 : p->musrc ? 2 : (p->mu == SBP_MU_CONSTANT ? 1 : 0);
  const char *src[9];
  PetscInt    n;
  PetscBool   rhs = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscStrInList("rhs", files, '+', &rhs));
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "-DSBPMG_COEF_MAP=%d -DSBPMG_COEF_MU=%d -DSBPMG_COEF_METRIC=%d -DSBPMG_COEF_DORDER=%d %s %s", map, mu,
                          p->metricsrc ? 1 : 0, map == 3 && (p->order == 4 || p->order == 6) ? (int)p->order : 2, /* node coordinates' derivative */
                          rhs ? "-DSBPMG_COEF_KERNELS=0" : "",
                          extra ? extra : "")); /* the right-hand side's program holds coef.cl's functions, not its kernels */
  PetscCall(SbpProblemUserSources(p, rhs, src, setter, &n));
  if (n) {
    char *source, pname[512];

    PetscCall(SbpProblemJoinSources(p, files, n, src, setter, &source, pname, sizeof(pname)));
    {
      PetscErrorCode ierr = SbpmgCLGetKernelFromSource(p->cl, pname, source, opts, name, k);
      PetscCall(PetscFree(source));
      PetscCall(ierr);
    }
  } else
    PetscCall(SbpmgCLGetKernel(p->cl, files, opts, name, k));
  PetscFunctionReturn(0);
}

/* A kernel of kernels/coef.cl, in the program of its part (SBPMG_COEF_KERNELS): the set-up's (1), the description of a bad node (2, built
   only when there is one), the coordinates (4, built when they are asked for), the mapping's table (8, src/sbp/maptable.c). */
PetscErrorCode SbpProblemGetCoefficientKernel(SbpProblem p, const char name[], cl_kernel *k)
{
  PetscBool describe, coordinates, table;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(name, "coef_describe", &describe));
  PetscCall(PetscStrcmp(name, "coef_coordinates", &coordinates));
  PetscCall(PetscStrcmp(name, "coef_mapping_table", &table));
  PetscCall(SbpProblemGetPointKernel(p, "coef",
                                     describe      ? "-DSBPMG_COEF_KERNELS=2"
                                     : coordinates ? "-DSBPMG_COEF_KERNELS=4"
                                     : table       ? "-DSBPMG_COEF_KERNELS=8"
                                                   : "-DSBPMG_COEF_KERNELS=1",
                                     name, k));
  PetscFunctionReturn(0);
}
