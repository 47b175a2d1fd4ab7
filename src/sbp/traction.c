/* The traction n.(mu grad u) on a face of the grid from a solution u (docs/guide.md "The traction on a face"; docs/design.md "The
   traction on a face"): G_f u / (H_f sJ), the boundary derivative of the operator's SAT terms divided by the face's scale factor, at
   the face's nodes, into a vector of the face (distributed as the ranks own its nodes). On the device (kernels/traction.cl) for a
   device problem and device vectors, else by C loops over the same point formula. */
#include <sbpmg/private/sbpimpl.h>
#include "sbpmg_kernel_args.h"

/* sbp_q (Q along a line), the order-p pieces of the packed table (spec-sbp-sat-highorder.md 1), then the traction's point formulas, shared
   with the device kernel. */
#include "../../kernels/sbp.cl"
#include "../../kernels/sbp_table.cl"
#include "../../kernels/sbp_face.cl"
#include "../../kernels/traction.cl"

/* The arguments of kernels/traction.cl's traction_face, by name (include/sbpmg/private/climpl.h SBPMG_CL_SET_ARGS). */
typedef struct {
  SbpmgCLArgValue face, first, count, Nr, Ns, hr, hs, gh, u, crr, crs, css, nodes, sj, tab, out;
} SbpTractionArgs;

/* Where the face's scale factor sJ comes from (kernels/traction.cl SBPMG_TRACTION_SJ): the device evaluates the geometry (a built-in
   mapping, the user's OpenCL source, node coordinates), or the host (a mapping given as a host function) and uploads sJ. */
typedef enum { SBP_TRACTION_SJ_DEVICE, SBP_TRACTION_SJ_HOST } SbpTractionScale;

/* Flops per face node: the boundary derivative, the tangential difference, the scale factor's square root and the division. */
#define SBP_TRACTION_FLOPS_PER_NODE 16

void SbpProblemFaceOwned(SbpProblem p, PetscInt face, PetscInt *first, PetscInt *count)
{
  const PetscBool on = face == 1 ? (p->xs == 0) : face == 2 ? (p->xs + p->xm == p->Nr + 1) : face == 3 ? (p->ys == 0) : (p->ys + p->ym == p->Ns + 1);

  *first = face <= 2 ? p->ys : p->xs;
  *count = on ? (face <= 2 ? p->ym : p->xm) : 0;
}

/* ---------------------------------------------------------------- the checks of the arguments */

static PetscErrorCode SbpTractionCheckSetUp(SbpProblem p, const char caller[])
{
  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER,
             "%s: the SBP-SAT problem is not set up (its grid, layout and coefficients are made there): call SbpProblemSetUp() first", caller);
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpTractionCheckFace(SbpProblem p, PetscInt face, const char caller[])
{
  PetscFunctionBegin;
  PetscCheck(face >= 1 && face <= 4, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE,
             "%s: face %" PetscInt_FMT " does not exist: faces are 1..4 (1 r = -1, 2 r = +1, 3 s = -1, 4 s = +1)", caller, face);
  PetscFunctionReturn(0);
}

/* The first rank of comm where bad holds, and its values v[0..3] broadcast to every rank (*rank = the size of comm: none). */
static PetscErrorCode SbpFirstBadRank(MPI_Comm comm, PetscBool bad, PetscInt v[4], PetscMPIInt *rank)
{
  PetscMPIInt me, size, first;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &me));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  first = bad ? me : size;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm));
  if (first < size) PetscCallMPI(MPI_Bcast(v, 4, MPIU_INT, first, comm));
  *rank = first;
  PetscFunctionReturn(0);
}

/* u: a vector of the problem's nodes, laid out like the problem (collective: every rank ends in the same error). */
static PetscErrorCode SbpTractionCheckSolution(SbpProblem p, Vec u)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)p);
  PetscInt    N, n, v[4];
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCall(VecGetSize(u, &N));
  PetscCheck(N == (p->Nr + 1) * (p->Ns + 1), comm, PETSC_ERR_ARG_SIZ,
             "The solution u has %" PetscInt_FMT " entries, but the %" PetscInt_FMT " x %" PetscInt_FMT " grid has %" PetscInt_FMT
             " nodes: a vector of another problem? (create it with SbpProblemCreateVector() or MatCreateVecs() of the operator)",
             N, p->Nr, p->Ns, (p->Nr + 1) * (p->Ns + 1));
  PetscCall(VecGetLocalSize(u, &n));
  v[0] = n;
  v[1] = p->xm * p->ym;
  v[2] = v[3] = 0;
  PetscCall(SbpFirstBadRank(comm, n != p->xm * p->ym ? PETSC_TRUE : PETSC_FALSE, v, &rank)); /* its values on every rank */
  PetscCheck(v[0] == v[1], comm, PETSC_ERR_ARG_SIZ,
             "The solution u is not laid out like the problem: rank %d holds %" PetscInt_FMT " entries of it but owns %" PetscInt_FMT
             " nodes (create it with SbpProblemCreateVector() or MatCreateVecs() of the operator)",
             (int)rank, v[0], v[1]);
  PetscFunctionReturn(0);
}

/* t: a vector of the face's nodes, each rank holding those it owns in the problem's layout, in the order along the face. */
static PetscErrorCode SbpTractionCheckFaceVector(SbpProblem p, PetscInt face, Vec t)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)p);
  PetscInt    N, lo, hi, first, count, v[4];
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCall(VecGetSize(t, &N));
  PetscCheck(N == SbpFaceLength(p, face), comm, PETSC_ERR_ARG_SIZ,
             "The traction vector of face %" PetscInt_FMT " has %" PetscInt_FMT " entries, but the face has %" PetscInt_FMT
             " nodes (create it with SbpProblemCreateFaceVector())",
             face, N, SbpFaceLength(p, face));
  PetscCall(VecGetOwnershipRange(t, &lo, &hi));
  SbpProblemFaceOwned(p, face, &first, &count);
  v[0] = lo;
  v[1] = hi;
  v[2] = first;
  v[3] = first + count;
  if (!count) v[2] = v[3] = lo; /* a rank that owns none of the face: any empty range */
  PetscCall(SbpFirstBadRank(comm, (v[0] != v[2] || v[1] != v[3]) ? PETSC_TRUE : PETSC_FALSE, v, &rank));
  PetscCheck(v[0] == v[2] && v[1] == v[3], comm, PETSC_ERR_ARG_SIZ,
             "The traction vector of face %" PetscInt_FMT " is not laid out like the face: rank %d holds its entries [%" PetscInt_FMT ", %" PetscInt_FMT
             ") but owns the face's nodes [%" PetscInt_FMT ", %" PetscInt_FMT ") (create it with SbpProblemCreateFaceVector())",
             face, (int)rank, v[0], v[1], v[2], v[3]);
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the face vector */

/*@C
   SbpProblemCreateFaceVector - A vector of the nodes of one face of the grid (for SbpProblemComputeFaceTraction()): Ns + 1 entries on
   faces 1 and 2, Nr + 1 on faces 3 and 4, in the order along the face (j = 0..Ns, i = 0..Nr), each rank holding the nodes of the face
   it owns in the problem's layout (none where it owns none). A device vector (VECOPENCL on the problem's context) on the device
   backend, a host vector (VECSTANDARD) on the host backend.

   Collective

   Input Parameters:
+  p    - the problem, set up
-  face - 1 (r = -1), 2 (r = +1), 3 (s = -1) or 4 (s = +1)

   Output Parameter:
.  t - the vector; destroy it with VecDestroy()

   Level: intermediate

.seealso: `SbpProblemComputeFaceTraction()`, `SbpProblemCreateVector()`
@*/
PetscErrorCode SbpProblemCreateFaceVector(SbpProblem p, PetscInt face, Vec *t)
{
  MPI_Comm       comm;
  PetscInt       first, count;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  PetscValidPointer(t, 3);
  comm = PetscObjectComm((PetscObject)p);
  PetscCall(SbpTractionCheckSetUp(p, "SbpProblemCreateFaceVector()"));
  PetscCall(SbpTractionCheckFace(p, face, "SbpProblemCreateFaceVector()"));
  SbpProblemFaceOwned(p, face, &first, &count);
  if (p->use_device)
    PetscCall(VecCreateOpenCLWithContext(comm, p->cl, count, SbpFaceLength(p, face), t));
  else {
    PetscCall(VecCreate(comm, t));
    ierr = VecSetSizes(*t, count, SbpFaceLength(p, face));
    if (!ierr) ierr = VecSetType(*t, VECSTANDARD);
    if (ierr) PetscCall(VecDestroy(t));
    PetscCall(ierr);
  }
  /* the ranks holding a face's nodes follow each other along it (the DMDA numbers its ranks r fastest): the vector's ranges are the
     face's; checked, as any vector given later is */
  ierr = SbpTractionCheckFaceVector(p, face, *t);
  if (ierr) PetscCall(VecDestroy(t));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the host path */

/* sJ at the face nodes first .. first + count - 1 from the host's evaluation of the mapping. */
static PetscErrorCode SbpTractionScalesOnHost(SbpProblem p, PetscInt face, PetscInt first, PetscInt count, PetscReal sJ[])
{
  PetscFunctionBegin;
  PetscCall(SbpProblemGetHostNodes(p)); /* node coordinates: their box on the host */
  for (PetscInt k = 0; k < count; k++) {
    int       i, j, di, dj;
    PetscReal X[6];

    traction_node((int)face, (int)(first + k), (int)p->Nr, (int)p->Ns, &i, &j, &di, &dj);
    PetscCall(SbpProblemEvaluateMapping(p, i, j, X));
    sJ[k] = traction_scale((int)face, X);
  }
  PetscFunctionReturn(0);
}

/* t = G_f u / (H_f sJ) by C loops on the host: the coefficients and u on this rank's ghosted patch (on several ranks u's ghosts come
   from the DMDA's exchange). */
static PetscErrorCode SbpTractionHost(SbpProblem p, Vec u, PetscInt face, PetscInt first, PetscInt count, Vec t)
{
  const PetscScalar *ua;
  PetscScalar       *ta;
  PetscReal         *sJ;
  const PetscReal   *tab = NULL;
  Vec                ul;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SBPMG_SbpTraction, 0, 0, 0, 0));
  PetscCall(SbpProblemGetHostCoefficients(p));
  PetscCall(PetscMalloc1(count, &sJ));
  {
    PetscErrorCode ierr = SbpTractionScalesOnHost(p, face, first, count, sJ);
    if (ierr) PetscCall(PetscFree(sJ));
    PetscCall(ierr);
  }
  if (p->order > 2) PetscCall(SbpProblemGetOrderTable(p, &tab, NULL)); /* spec-sbp-sat-highorder.md 1.3, 1.4 */
  PetscCall(SbpProblemGetPatch(p, u, &ul, &ua));                       /* collective on several ranks: every rank, owner of face nodes or not */
  PetscCall(VecGetArrayWrite(t, &ta));
  for (PetscInt k = 0; k < count; k++)
    ta[k] =
        (tab ? traction_flux_at_wide((int)face, (int)(first + k), (int)p->Nr, (int)p->Ns, p->hr, p->hs, ua, p->crr, p->crs, p->css, p->gxs, p->gys, p->gxm, tab)
             : traction_flux_at((int)face, (int)(first + k), (int)p->Nr, (int)p->Ns, p->hr, p->hs, ua, p->crr, p->crs, p->css, p->gxs, p->gys, p->gxm)) /
        sJ[k];
  PetscCall(VecRestoreArrayWrite(t, &ta));
  PetscCall(SbpProblemRestorePatch(p, u, &ul, &ua));
  PetscCall(PetscFree(sJ));
  PetscCall(PetscLogFlops(SBP_TRACTION_FLOPS_PER_NODE * (PetscLogDouble)count));
  PetscCall(PetscLogEventEnd(SBPMG_SbpTraction, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the device path */

/* The kernel traction_face of the problem for the source of sJ: kernels/traction.cl built after coef.cl (the geometry, with the
   problem's mapping and mu specialisations and the user's sources) and sbp.cl (its functions, none of its kernels); looked up once. */
static PetscErrorCode SbpTractionGetKernel(SbpProblem p, SbpTractionScale scale, cl_kernel *k)
{
  PetscFunctionBegin;
  if (!p->traction_kernel[scale]) {
    const char *sbpopts;
    char        opts[512];
    SbpLevel    lv;

    PetscCall(SbpProblemGetLevel(p, SBP_KERNEL_FP64, &lv));
    PetscCall(SbpLevelGetBuildOptions(lv, &sbpopts));
    PetscCall(PetscSNPrintf(opts, sizeof(opts), "%s -DSBPMG_SBP_KERNELS=0 -DSBPMG_COEF_KERNELS=0 -DSBPMG_TRACTION_SJ=%d -DSBPMG_TRACTION_WIDE=%d", sbpopts,
                            (int)scale, p->order > 2 ? 1 : 0));
    PetscCall(SbpProblemGetPointKernel(p, p->order > 2 ? "coef+sbp+sbp_table+sbp_face+traction" : "coef+sbp+traction", opts, "traction_face",
                                       &p->traction_kernel[scale]));
    { /* the kernel's arguments are those SbpTractionArgs names */
      cl_uint nargs;
      PetscCallCL(clGetKernelInfo(p->traction_kernel[scale], CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL));
      PetscCheck(nargs == SBPMG_KERNEL_NARGS_traction_face, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "kernels/traction.cl's traction_face takes %u arguments, src/sbp/traction.c sets %d", nargs, (int)SBPMG_KERNEL_NARGS_traction_face);
    }
  }
  *k = p->traction_kernel[scale];
  PetscFunctionReturn(0);
}

/* A buffer of sJ at the face nodes first .. first + count - 1 evaluated on the host (a mapping given as a host function). */
static PetscErrorCode SbpTractionUploadScales(SbpProblem p, PetscInt face, PetscInt first, PetscInt count, cl_mem *sj)
{
  PetscReal     *h;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(PetscMax(count, 1), &h));
  ierr = SbpTractionScalesOnHost(p, face, first, count, h);
  if (!ierr) ierr = SbpmgCLCreateBuffer(p->cl, CL_MEM_READ_ONLY, (size_t)PetscMax(count, 1) * sizeof(PetscReal), sj);
  if (!ierr && count) ierr = SbpmgCLWriteBuffer(p->cl, *sj, 0, (size_t)count * sizeof(PetscReal), h);
  if (ierr && *sj) PetscCall(SbpmgCLReleaseBuffer(p->cl, sj));
  PetscCall(PetscFree(h));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* The launch of traction_face over the count face nodes first .. first + count - 1 of this rank, u's ghosted patch in ub, sJ in sj
   (NULL: the device's). */
static PetscErrorCode SbpTractionLaunch(SbpProblem p, cl_kernel k, cl_mem ub, cl_mem sj, PetscInt face, PetscInt first, PetscInt count, Vec t)
{
  cl_mem         tb, otab = NULL;
  cl_int4        gh;
  const SbpLevel lv = p->level[SBP_KERNEL_FP64];

  PetscFunctionBegin;
  SbpProblemPatchBoxes(p, &gh, NULL);
  PetscCall(VecOpenCLGetBufferWrite(t, &tb));
  if (p->order > 2) PetscCall(SbpProblemGetOrderTable(p, NULL, &otab));
  {
    const SbpTractionArgs args = {.face  = SbpmgCLArgInt((int)face),
                                  .first = SbpmgCLArgInt((int)first),
                                  .count = SbpmgCLArgInt((int)count),
                                  .Nr    = SbpmgCLArgInt((int)p->Nr),
                                  .Ns    = SbpmgCLArgInt((int)p->Ns),
                                  .hr    = SbpmgCLArgReal(PETSC_FALSE, p->hr),
                                  .hs    = SbpmgCLArgReal(PETSC_FALSE, p->hs),
                                  .gh    = SbpmgCLArgInt4(gh),
                                  .u     = SbpmgCLArgMem(ub),
                                  .crr   = SbpmgCLArgMem(lv->crr),
                                  .crs   = SbpmgCLArgMem(lv->crs),
                                  .css   = SbpmgCLArgMem(lv->css),
                                  .nodes = SbpmgCLArgMem(p->d_nodes),
                                  .sj    = SbpmgCLArgMem(sj ? sj : tb),     /* not read without SBPMG_TRACTION_SJ 1 */
                                  .tab   = SbpmgCLArgMem(otab ? otab : tb), /* not read at order 2 */
                                  .out   = SbpmgCLArgMem(tb)};
    SBPMG_CL_SET_ARGS(k, traction_face, &args);
  }
  PetscCall(SbpmgCLLaunch1DGuarded(p->cl, k, (size_t)count));
  PetscCall(VecOpenCLRestoreBufferWrite(t, &tb));
  PetscFunctionReturn(0);
}

/* t = G_f u / (H_f sJ) on the device: on several ranks u goes through the ghost exchange first (the face nodes' neighbours along
   the face and two lines in may be another rank's). */
static PetscErrorCode SbpTractionDevice(SbpProblem p, Vec u, PetscInt face, PetscInt first, PetscInt count, Vec t)
{
  const SbpTractionScale scale = (p->mapping == SBP_MAPPING_USER && !p->mapsrc) ? SBP_TRACTION_SJ_HOST : SBP_TRACTION_SJ_DEVICE;
  cl_kernel              k;
  cl_mem                 sj = NULL, ub;
  SbpHalo                h;
  PetscErrorCode         ierr;

  PetscFunctionBegin;
  PetscCall(SbpProblemCheckDeviceVec(p, u, "u"));
  PetscCall(SbpProblemCheckDeviceVec(p, t, "the traction"));
  PetscCall(SbpTractionGetKernel(p, scale, &k));
  PetscCall(SbpLevelGetHalo(p->level[SBP_KERNEL_FP64], &h));
  if (scale == SBP_TRACTION_SJ_HOST) PetscCall(SbpTractionUploadScales(p, face, first, count, &sj));
  PetscCall(SbpmgLogKernelBegin(SBPMG_SbpTraction));
  if (h) { /* collective: every rank, owner of face nodes or not */
    ierr = SbpHaloBegin(h, u);
    if (!ierr) ierr = SbpHaloEnd(h);
    if (!ierr) ierr = SbpTractionLaunch(p, k, h->patch, sj, face, first, count, t);
  } else {
    ierr = VecOpenCLGetBufferRead(u, &ub);
    if (!ierr) ierr = SbpTractionLaunch(p, k, ub, sj, face, first, count, t);
    if (!ierr) ierr = VecOpenCLRestoreBufferRead(u, &ub);
  }
  if (sj) PetscCall(SbpmgCLReleaseBuffer(p->cl, &sj));
  PetscCall(ierr);
  /* per node: u at 5 nodes, 3 coefficients, the output (and sJ or the geometry's few values) */
  PetscCall(SbpmgLogKernelEnd(SBPMG_SbpTraction, p->cl, SBP_TRACTION_FLOPS_PER_NODE * (PetscLogDouble)count, 10.0 * sizeof(PetscReal) * count));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the public function */

/*@C
   SbpProblemComputeFaceTraction - The traction n.(mu grad u) on one face of the grid from a solution u: the flux of u through the face
   along its unit outward normal n, in physical coordinates on the mapped grid, at each node of the face (for the fault of an
   earthquake-cycle simulation, the shear stress; docs/guide.md "The traction on a face"). It is the boundary derivative the
   operator's SAT terms use, G_f u / H_f (docs/design.md "The traction on a face"), divided by the face's scale factor sJ: on a
   Neumann face with datum gN it is the discrete counterpart of what the SAT imposes, n.(mu grad u) = gN. With c = {crr, css, crs}
   the operator's coefficients (given by SbpProblemSetMetricFunction() or made from the mapping and mu) it is
   -(crr u_r + crs u_s) / sJ on face 1, and likewise on the others; at order 2 the one-sided derivative into the domain is second
   order, the derivative along the face second order inside the face and first order at its two end nodes. At order 4 and 6
   (SbpProblemSetOrder(); spec-sbp-sat-highorder.md 1.3, 1.4) the boundary derivative is the order's row BS over 4 or 5 lines (order 3
   or 4) and the derivative along the face the order's D1 (order 4 or 6 inside the face, 2 or 3 at its closures near the ends).

   On the device (a kernel, fp64) when the problem is on the device backend and u and t are device vectors, else by C loops on the
   host. Any face, boundary condition, mapping and coefficient of the data API; any number of ranks (the ranks that own none of the
   face take part: u's ghosts are exchanged).

   Collective

   Input Parameters:
+  p    - the problem, set up
.  u    - a vector laid out like the problem's (SbpProblemCreateVector(), MatCreateVecs() of its operator): a solution
-  face - 1 (r = -1), 2 (r = +1), 3 (s = -1) or 4 (s = +1)

   Output Parameter:
.  t - the traction at the face's nodes, in the order along it (a vector of SbpProblemCreateFaceVector())

   Level: intermediate

.seealso: `SbpProblemCreateFaceVector()`, `SbpProblemSetBoundaryFunction()`, `SbpProblemComputeRHS()`
@*/
PetscErrorCode SbpProblemComputeFaceTraction(SbpProblem p, Vec u, PetscInt face, Vec t)
{
  PetscInt  first, count;
  PetscBool dev;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(p, SBP_PROBLEM_CLASSID, 1);
  PetscValidHeaderSpecific(u, VEC_CLASSID, 2);
  PetscValidHeaderSpecific(t, VEC_CLASSID, 4);
  PetscCall(SbpTractionCheckSetUp(p, "SbpProblemComputeFaceTraction()"));
  PetscCall(SbpTractionCheckFace(p, face, "SbpProblemComputeFaceTraction()"));
  PetscCall(SbpTractionCheckSolution(p, u));
  PetscCall(SbpTractionCheckFaceVector(p, face, t));
  SbpProblemFaceOwned(p, face, &first, &count);
  PetscCall(SbpProblemUseDevice(p, u, t, NULL, &dev));
  if (dev)
    PetscCall(SbpTractionDevice(p, u, face, first, count, t));
  else
    PetscCall(SbpTractionHost(p, u, face, first, count, t));
  PetscFunctionReturn(0);
}
