/* The mapping tabulated at the nodes of a rank's box (the ghosted patch grown by 3 nodes, src/sbp/nodes.c), so that a mapping
   given one way meets data given the other (docs/guide.md "Bringing a problem", "What combines"):
   - a host function (SbpProblemSetMappingFunction()) on a device problem: X at the box's nodes evaluated on the host once, at
     set-up, and uploaded after the nodal data (kernels/coef.cl, SBPMG_COEF_MAP 4); the device then evaluates OpenCL sources of
     mu, the metric and the data at the same geometry;
   - OpenCL source only (SbpProblemSetMappingSource()): X at the box's nodes computed by the device (coef_mapping_table) and read
     back the first time the host evaluates something at the nodes (a mu, data or exact solution given as a function). */
#include <sbpmg/private/sbpimpl.h>
#include "sbpmg_kernel_args.h"

/* The arguments of kernels/coef.cl coef_mapping_table by name (include/sbpmg/private/climpl.h SBPMG_CL_SET_ARGS; its reals are double) */
typedef struct {
  SBP_GRID_ARGS;
  SbpmgCLArgValue nodes, table;
} SbpMappingTableArgs;

static size_t SbpBoxNodes(SbpProblem p)
{
  return (size_t)p->bxm * p->bym;
}

/* X of the host function at the box's nodes into t, six planes of the box (plane c holds X[c]); a failure of the user's function
   agreed on by all ranks. */
static PetscErrorCode SbpEvaluateMappingOnBox(SbpProblem p, PetscReal *t)
{
  const size_t   n    = SbpBoxNodes(p);
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  for (PetscInt j = p->bys; j < p->bys + p->bym && !ierr; j++)
    for (PetscInt i = p->bxs; i < p->bxs + p->bxm && !ierr; i++) {
      const size_t k = (size_t)(i - p->bxs) + (size_t)p->bxm * (size_t)(j - p->bys);
      PetscReal    X[6];

      ierr = (*p->mapfn)(p->mapctx, -1 + i * p->hr, -1 + j * p->hs, X);
      for (int c = 0; c < 6 && !ierr; c++) t[c * n + k] = X[c];
    }
  PetscCall(SbpProblemAgreeOnError(p, ierr, "the mapping function"));
  PetscFunctionReturn(0);
}

/* The number of values of the device's table of a host mapping function (0 where the problem does not tabulate it). */
size_t SbpProblemMappingTableSize(SbpProblem p)
{
  return SbpProblemTabulatesMapping(p) ? 6 * SbpBoxNodes(p) : 0;
}

/* The host mapping function's table written into d_nodes from value `offset` on (after the nodal data; SbpProblemUploadNodes()). */
PetscErrorCode SbpProblemUploadMappingTable(SbpProblem p, size_t offset)
{
  const size_t   n = SbpProblemMappingTableSize(p);
  PetscReal     *t;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(0);
  PetscCall(PetscMalloc1(n, &t));
  ierr = SbpEvaluateMappingOnBox(p, t);
  if (!ierr) ierr = SbpmgCLWriteBuffer(p->cl, p->d_nodes, offset * sizeof(PetscReal), n * sizeof(PetscReal), t);
  PetscCall(PetscFree(t)); /* freed on every path */
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* The device's X at the box's nodes (coef_mapping_table) into the host array t of six planes, through the buffer d. */
static PetscErrorCode SbpReadMappingTable(SbpProblem p, cl_mem d, PetscReal *t)
{
  cl_kernel                 k;
  size_t                    global[2] = {(size_t)p->bxm, (size_t)p->bym};
  const SbpMappingTableArgs a         = {.grid = SbpProblemGridArgs(p), .nodes = SbpmgCLArgMem(p->d_nodes), .table = SbpmgCLArgMem(d)};

  PetscFunctionBegin;
  PetscCall(SbpProblemGetCoefficientKernel(p, "coef_mapping_table", &k));
  SBPMG_CL_SET_ARGS(k, coef_mapping_table, &a);
  PetscCall(SbpmgCLLaunch2D(p->cl, k, global, p->wg)); /* the device layer's launch: src/sbp/kernels.c calls back into the problem */
  PetscCall(SbpmgCLReadBuffer(p->cl, d, 0, 6 * SbpBoxNodes(p) * sizeof(PetscReal), t));
  PetscFunctionReturn(0);
}

/* A mapping given only as OpenCL source, on the host: its table read back from the device once (p->xbox), where the host is
   about to evaluate at the nodes. Nothing for the other mappings (the host evaluates them itself). */
PetscErrorCode SbpProblemGetHostMapping(SbpProblem p)
{
  cl_mem         d;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  if (p->xbox || p->mapping != SBP_MAPPING_USER || p->mapfn || !p->mapsrc || !p->use_device || !p->d_nodes) PetscFunctionReturn(0);
  PetscCall(PetscMalloc1(6 * SbpBoxNodes(p), &p->xbox));
  PetscCall(SbpmgCLCreateBuffer(p->cl, CL_MEM_WRITE_ONLY, 6 * SbpBoxNodes(p) * sizeof(PetscReal), &d));
  ierr = SbpReadMappingTable(p, d, p->xbox);
  PetscCall(SbpmgCLReleaseBuffer(p->cl, &d)); /* on every path; no half-read table kept */
  if (ierr) PetscCall(PetscFree(p->xbox));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* X at node (i, j) from the host's table (SbpProblemGetHostMapping() first): the nodes of the box, which hold everything the host
   evaluates at (the owned nodes, the ghosted patch and the faces' neighbours there). */
PetscErrorCode SbpProblemTableMapping(SbpProblem p, PetscInt i, PetscInt j, PetscReal X[6])
{
  const size_t n = SbpBoxNodes(p);

  PetscFunctionBegin;
  PetscCheck(p->xbox, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The mapping's table is not on the host (SbpProblemGetHostMapping())");
  PetscCheck(i >= p->bxs && i < p->bxs + p->bxm && j >= p->bys && j < p->bys + p->bym, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "Node (%" PetscInt_FMT ",%" PetscInt_FMT ") is outside this rank's box of the mapping's table", i, j);
  for (int c = 0; c < 6; c++) X[c] = p->xbox[c * n + (size_t)(i - p->bxs) + (size_t)p->bxm * (size_t)(j - p->bys)];
  PetscFunctionReturn(0);
}
