/* SbpProblem set-up: the layout (a DMDA where one is needed), the backend, the metric coefficients at the nodes of each rank's
   ghosted patch (src/sbp/coefficients.c), and on the device the interior box of the split and overlapped launches, the tuning
   and the kernels' build options (src/sbp/kernels.c), the ghost exchange (src/halo). */
#include <sbpmg/private/sbpimpl.h>
#include <strings.h>

/* Bit f-1 set when face f is Dirichlet (the kernels' encoding). */
PetscErrorCode SbpProblemBCFlags(SbpProblem p, int *flags)
{
  PetscFunctionBegin;
  *flags = 0;
  for (int f = 0; f < 4; f++)
    if (p->bc[f] == SBP_BC_DIRICHLET) *flags |= 1 << f;
  PetscFunctionReturn(0);
}

/* Whether the options ask for a particular device (then the automatic backend may not fall back to the host): a device or a
   platform index, a kernel folder, or a device type other than auto. */
static PetscErrorCode SbpDeviceAskedFor(char what[], size_t len, PetscBool *asked)
{
  const char *names[]  = {"-cl_device", "-cl_platform", "-cl_kernel_dir"};
  char        type[32] = "";
  PetscBool   set;

  PetscFunctionBegin;
  *asked = PETSC_FALSE;
  for (int k = 0; k < 3 && !*asked; k++) {
    PetscCall(PetscOptionsHasName(NULL, NULL, names[k], asked));
    if (*asked) PetscCall(PetscStrncpy(what, names[k], len));
  }
  PetscCall(PetscOptionsGetString(NULL, NULL, "-cl_device_type", type, sizeof(type), &set));
  if (!*asked && set && type[0] && strcasecmp(type, "auto")) {
    *asked = PETSC_TRUE;
    PetscCall(PetscSNPrintf(what, len, "-cl_device_type %s", type));
  }
  PetscFunctionReturn(0);
}

/* SBP_BACKEND_AUTO: the device when every rank of the problem finds one (the default context can be created), else the host,
   with the reason kept for -ksp_view and -cl_view; unless a device was asked for, which is then an error. */
static PetscErrorCode SbpProblemResolveBackend(SbpProblem p)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)p);

  PetscFunctionBegin;
  p->fallback[0] = 0;
  PetscCall(SbpmgCLCheckOptions(comm)); /* a bad device option is an error, not "no device" (the probe below swallows its errors) */
  if (p->backend == SBP_BACKEND_AUTO) {
    SbpmgCL        cl = NULL;
    PetscErrorCode ierr;
    PetscMPIInt    found, all;
    PetscBool      asked, view = PETSC_FALSE;
    char           what[PETSC_MAX_PATH_LEN + 32] = "";

    PetscCall(SbpDeviceAskedFor(what, sizeof(what), &asked));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = SbpmgCLGetDefault(&cl);
    PetscCall(PetscPopErrorHandler());
    found = (!ierr && cl) ? 1 : 0;
    if (!found) {
      const char *text;
      char       *specific = NULL;
      PetscCall(PetscErrorMessage(ierr, &text, &specific));
      PetscCall(PetscStrncpy(p->fallback, specific && specific[0] ? specific : text, sizeof(p->fallback)));
    }
    PetscCall(MPIU_Allreduce(&found, &all, 1, MPI_INT, MPI_MIN, comm));
    PetscCheck(all || !asked, comm, PETSC_ERR_LIB, "The OpenCL device asked for (%s) is not available%s%s", what, found ? " on another rank" : ": ",
               found ? "" : p->fallback);
    p->use_device = all ? PETSC_TRUE : PETSC_FALSE;
    if (!p->use_device) {
      if (found) PetscCall(PetscStrncpy(p->fallback, "no OpenCL device on another rank", sizeof(p->fallback)));
      PetscCall(PetscInfo(p, "No OpenCL device on some rank: the SBP-SAT operator runs on the host (%s)\n", p->fallback));
      PetscCall(PetscOptionsGetBool(NULL, NULL, "-cl_view", &view, NULL));
      if (view) PetscCall(PetscPrintf(comm, "sbpmg: no OpenCL device (%s): the SBP-SAT operator runs on the host\n", p->fallback));
    }
  } else
    p->use_device = p->backend == SBP_BACKEND_DEVICE ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* The r-extent [lo, hi] of what row i reads (spec 5.2): the 3-point box, and on a Dirichlet face's rows 0..2 (N-2..N) the face
   row 0 (N) and, from the face row, two points inward. */
static void SbpFootprint(PetscInt i, PetscInt N, PetscBool dlo, PetscBool dhi, PetscInt *lo, PetscInt *hi)
{
  *lo = (dlo && i <= 2) ? 0 : PetscMax(i - 1, 0);
  *hi = (dhi && i >= N - 2) ? N : PetscMin(i + 1, N);
  if (dlo && i == 0) *hi = PetscMax(*hi, 2);
  if (dhi && i == N) *lo = PetscMin(*lo, N - 2);
}

/* The interior box of the device launches: the owned nodes whose operator stencil reads only owned nodes (on several ranks: it
   runs while the ghosts are exchanged) and is the plain 9-point row (the lean kernels). Both conditions are products of an
   r-range and an s-range, each monotone in the node index, so the box is a product of two intervals. */
static PetscErrorCode SbpProblemComputeInteriorBox(SbpProblem p)
{
  PetscInt lo, hi, ilo = p->xs + p->xm, ihi = p->xs - 1, jlo = p->ys + p->ym, jhi = p->ys - 1;
  /* the rows of kernels/sbp.cl sbp_is_interior: only the 9-point volume stencil, so the lean *_inner kernels apply */
  PetscInt dlo[2] = {p->bc[0] == SBP_BC_DIRICHLET ? 3 : 1, p->bc[2] == SBP_BC_DIRICHLET ? 3 : 1};
  PetscInt dhi[2] = {p->bc[1] == SBP_BC_DIRICHLET ? p->Nr - 3 : p->Nr - 1, p->bc[3] == SBP_BC_DIRICHLET ? p->Ns - 3 : p->Ns - 1};

  PetscFunctionBegin;
  for (PetscInt i = PetscMax(p->xs, dlo[0]); i < PetscMin(p->xs + p->xm, dhi[0] + 1); i++) {
    SbpFootprint(i, p->Nr, p->bc[0] == SBP_BC_DIRICHLET, p->bc[1] == SBP_BC_DIRICHLET, &lo, &hi);
    if (lo >= p->xs && hi < p->xs + p->xm) {
      ilo = PetscMin(ilo, i);
      ihi = PetscMax(ihi, i);
    }
  }
  for (PetscInt j = PetscMax(p->ys, dlo[1]); j < PetscMin(p->ys + p->ym, dhi[1] + 1); j++) {
    SbpFootprint(j, p->Ns, p->bc[2] == SBP_BC_DIRICHLET, p->bc[3] == SBP_BC_DIRICHLET, &lo, &hi);
    if (lo >= p->ys && hi < p->ys + p->ym) {
      jlo = PetscMin(jlo, j);
      jhi = PetscMax(jhi, j);
    }
  }
  p->in[0] = ilo;
  p->in[1] = jlo;
  p->in[2] = ihi;
  p->in[3] = jhi;
  if (ilo > ihi || jlo > jhi) SbpProblemEmptyBox(p, p->in); /* the rim is the whole owned block */
  PetscFunctionReturn(0);
}

/* The layout: one rank's device path needs no DMDA (the whole grid is the owned block and the patch; a DMDA costs 2.3 s and
   5 GB at 8193^2 with its scatters, docs/design.md "Set-up on the device"); elsewhere the DMDA's (stencil width 2, the SAT
   rows' footprint). */
static PetscErrorCode SbpProblemSetUpLayout(SbpProblem p)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)p), &size));
  if (size == 1 && p->use_device && !p->da) {
    p->xs = p->ys = p->gxs = p->gys = 0;
    p->xm = p->gxm = p->Nr + 1;
    p->ym = p->gym = p->Ns + 1;
    PetscFunctionReturn(0);
  }
  if (!p->da) PetscCall(SbpProblemCreateDMDA(p));
  PetscCall(DMDAGetCorners(p->da, &p->xs, &p->ys, NULL, &p->xm, &p->ym, NULL));
  PetscCall(DMDAGetGhostCorners(p->da, &p->gxs, &p->gys, NULL, &p->gxm, &p->gym, NULL));
  PetscFunctionReturn(0);
}

/* The device side of the set-up: the context, the tuning, the fp64 level with the coefficients on the device, the interior box, and on
   several ranks the ghost exchange with the interior overlapped when it is large enough. */
PetscErrorCode SbpProblemSetUpDevice(SbpProblem p)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)p), &size));
  PetscCall(SbpmgCLGetDefault(&p->cl));
  PetscCall(SbpmgCLReference(p->cl));
  PetscCall(SbpProblemSetUpTuning(p)); /* the work-group of the coefficient kernels */
  PetscCall(SbpProblemCreateLevel(p, SBP_KERNEL_FP64));
  PetscCall(SbpProblemGenerateCoefficients(p)); /* into the fp64 level */
  PetscCall(SbpProblemComputeInteriorBox(p));   /* the interior and rim launches (sbp_split, the overlap) */
  PetscCall(SbpProblemSetUpSplit(p));
  if (size > 1) { /* several ranks: the device ghost exchange (the fp64 level's), the interior overlapped with it */
    PetscCall(SbpHaloCreate(p->da, p->cl, PETSC_FALSE, &p->level[SBP_KERNEL_FP64]->halo));
    p->overlap = (PetscMax(p->in[2] - p->in[0] + 1, 0) * PetscMax(p->in[3] - p->in[1] + 1, 0) >= p->tune.sbp_overlap_min) ? PETSC_TRUE : PETSC_FALSE;
  }
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the memory plan (docs/design.md "The memory plan") */

/* Host bytes per ghosted node of a DMDA of stencil width 2 with its scatters (PETSc 3.18, measured: tests/test_memplan.c prints it) */
#define SBP_PLAN_DMDA_BYTES 64
/* Host bytes per box node of the nodal data while they are scattered (x, y, mu, the index, the scatter's) */
#define SBP_PLAN_NODES_HOST 48

/* The process grid a DMDA of M x N nodes takes on size ranks with PETSC_DECIDE (PETSc 3.18's DMSetUp_DA_2D). */
static void SbpPlanProcessGrid(PetscInt M, PetscInt N, PetscMPIInt size, PetscInt *m, PetscInt *n)
{
  PetscInt a = (PetscInt)(0.5 + PetscSqrtReal(((PetscReal)M) * ((PetscReal)size) / ((PetscReal)N))), b = size;

  if (a < 1) a = 1;
  while (a > 0) {
    b = size / a;
    if (a * b == size) break;
    a--;
  }
  if (M > N && a < b) {
    PetscInt t = a;
    a          = b;
    b          = t;
  }
  *m = a;
  *n = b;
}

/* The share of rank index q of m in M nodes (PETSc's: M/m, one more for the first M % m) and its extent grown by w within [0, M) */
static void SbpPlanShare(PetscInt M, PetscInt m, PetscInt q, PetscInt w, PetscInt *own, PetscInt *grown)
{
  const PetscInt len = M / m + (q < M % m ? 1 : 0), start = q * (M / m) + PetscMin(q, M % m);

  *own   = len;
  *grown = PetscMin(start + len + w, M) - PetscMax(start - w, 0);
}

/*
  SbpProblemPlanLevel - What the set-up of a problem of Nr x Ns intervals with p's settings (backend, communicator, nodal data, its
  process grid if it has one) allocates on this rank (the memory plan): the owned and ghosted nodes, the device bytes (the four
  coefficients of the ghosted patch, the nodal data on their box, the ghost exchange on several ranks) and the host bytes (the
  DMDA where there is one, the nodal data while they are scattered, the coefficients on the host backend).
*/
PetscErrorCode SbpProblemPlanLevel(SbpProblem p, PetscInt Nr, PetscInt Ns, SbpPlan *plan)
{
  PetscMPIInt size, rank;
  PetscInt    m, n, ox, oy, gx, gy, bx, by;
  PetscBool   nodes = (p->node[0] || p->node[2]) ? PETSC_TRUE : PETSC_FALSE;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)p), &size));
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)p), &rank));
  if (p->da)
    PetscCall(DMDAGetInfo(p->da, NULL, NULL, NULL, NULL, &m, &n, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  else
    SbpPlanProcessGrid(Nr + 1, Ns + 1, size, &m, &n);
  if (size == 1) m = n = 1;
  SbpPlanShare(Nr + 1, m, rank % m, SbpProblemStencilWidth(p), &ox, &gx);
  SbpPlanShare(Ns + 1, n, rank / m, SbpProblemStencilWidth(p), &oy, &gy);
  SbpPlanShare(Nr + 1, m, rank % m, SbpProblemStencilWidth(p) + SBP_NODES_GROW, &ox, &bx); /* the box of the nodal data: the patch grown */
  SbpPlanShare(Ns + 1, n, rank / m, SbpProblemStencilWidth(p) + SBP_NODES_GROW, &oy, &by); /* by the derivative's reach */
  if (size == 1 && p->use_device) gx = ox, gy = oy;                                        /* the whole grid: no ghosts */
  plan->ox     = ox;
  plan->oy     = oy;
  plan->gx     = gx;
  plan->gy     = gy;
  plan->own    = (size_t)ox * oy;
  plan->ghost  = (size_t)gx * gy;
  plan->device = 0;
  plan->host   = 0;
  if (size > 1 || !p->use_device) plan->host += plan->ghost * SBP_PLAN_DMDA_BYTES;
  if (nodes) plan->host += (size_t)bx * by * SBP_PLAN_NODES_HOST;
  if (p->use_device) {
    plan->device += 4 * plan->ghost * sizeof(PetscReal); /* crr, css, crs, J */
    plan->device += PetscMax((nodes ? 3 * (size_t)bx * by : 0) + (p->mapping == SBP_MAPPING_CURVED ? 2 * (size_t)(bx + by) : 0), 1) *
                    sizeof(PetscReal);     /* the nodal data and the curved map's table (or one value; src/sbp/nodes.c) */
    plan->device += 2 * sizeof(PetscReal); /* the check's first bad node */
    if (size > 1) plan->device += SbpHaloPlanBytes(gx, gy, ox, oy, sizeof(PetscScalar));
  } else
    plan->host += 4 * plan->ghost * sizeof(PetscReal);
  PetscFunctionReturn(0);
}

/* Before the set-up allocates: the problem's device and host bytes against what there is (a coarsened level: its hierarchy was
   planned). */
static PetscErrorCode SbpProblemPlanSetUp(SbpProblem p)
{
  SbpmgCL cl = NULL;
  SbpPlan plan;
  char    what[128];

  PetscFunctionBegin;
  if (p->coarsened) PetscFunctionReturn(0);
  if (p->use_device) PetscCall(SbpmgCLGetDefault(&cl));
  PetscCall(SbpProblemPlanLevel(p, p->Nr, p->Ns, &plan));
  PetscCall(PetscSNPrintf(what, sizeof(what), "the %" PetscInt_FMT " x %" PetscInt_FMT " SBP-SAT problem (%s backend)", p->Nr, p->Ns,
                          p->use_device ? "device" : "host"));
  PetscCall(SbpmgCLPlanMemory(PetscObjectComm((PetscObject)p), cl, plan.device, plan.host, what));
  PetscFunctionReturn(0);
}

/* The parameters SbpProblemSetUp() checks before any work. */
static PetscErrorCode SbpProblemCheckParameters(SbpProblem p)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)p);

  PetscFunctionBegin;
  PetscCheck(p->Nr >= 4, comm, PETSC_ERR_ARG_OUTOFRANGE, "Nr = %" PetscInt_FMT " is too small: the SBP-SAT operator needs at least 4 intervals in r (-sbp_n)",
             p->Nr);
  PetscCheck(p->Ns >= 4, comm, PETSC_ERR_ARG_OUTOFRANGE, "Ns = %" PetscInt_FMT " is too small: the SBP-SAT operator needs at least 4 intervals in s (-sbp_n)",
             p->Ns);
  { /* the end blocks of the order's M(c) must not overlap (spec-sbp-sat-highorder.md section 2) */
    PetscInt minN;
    PetscCall(SbpSparse1DMinimumN(p->order, &minN));
    PetscCheck(p->Nr >= minN && p->Ns >= minN, comm, PETSC_ERR_ARG_OUTOFRANGE,
               "-sbp_n %" PetscInt_FMT ",%" PetscInt_FMT ": SBP order %" PetscInt_FMT " needs at least %" PetscInt_FMT
               " intervals in each direction (its boundary closures)",
               p->Nr, p->Ns, p->order, minN);
  }
  /* the kernels and the DMDA index nodes with int: (Nr + 1) (Ns + 1) must fit (as one size, before any product overflows) */
  PetscCheck(((double)p->Nr + 1) * ((double)p->Ns + 1) <= (double)PETSC_MAX_INT, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "-sbp_n %" PetscInt_FMT ",%" PetscInt_FMT ": the grid has %.0f nodes, more than the %d-bit indices hold (%" PetscInt_FMT ")", p->Nr, p->Ns,
             ((double)p->Nr + 1) * ((double)p->Ns + 1), (int)(8 * sizeof(PetscInt)), (PetscInt)PETSC_MAX_INT);
  PetscCheck(p->mapfn || p->mapsrc || p->node[0], comm, PETSC_ERR_ARG_WRONGSTATE,
             "No mapping: -sbp_mapping nodes needs the node coordinates (-sbp_grid_file, SbpProblemSetNodeCoordinates())");
  PetscCheck(p->mufn || p->musrc || p->node[2], comm, PETSC_ERR_ARG_WRONGSTATE,
             "No coefficient: -sbp_mu nodes needs mu at the nodes (-sbp_mu_file, SbpProblemSetMuVector())");
  PetscCheck(p->mu != SBP_MU_CONSTANT || (p->mu_value > 0 && !PetscIsInfOrNanReal(p->mu_value)), comm, PETSC_ERR_ARG_OUTOFRANGE,
             "-sbp_mu_value %g: the coefficient mu must be positive and finite", (double)p->mu_value);
  PetscCheck(p->mu != SBP_MU_CONSTANT || (p->mu_value >= SBP_MU_MIN && p->mu_value <= SBP_MU_MAX), comm, PETSC_ERR_ARG_OUTOFRANGE,
             "-sbp_mu_value %g: the coefficient mu must lie in [%g, %g]: beyond, mu times the metric (and crr*css, and the fp32 V-cycle's copies) "
             "underflows or overflows; scale the problem instead (mu and f by one factor)",
             (double)p->mu_value, SBP_MU_MIN, SBP_MU_MAX);
  { /* the DMDA's process grid (PETSC_DECIDE) must leave every rank at least the stencil width 2 of nodes in each direction: said here
       with the sizes and ranks, not by DMDA's stencil-width message (a coarsened level has its DMDA, checked by the level count) */
    PetscMPIInt size;
    PetscInt    m, n;
    PetscCallMPI(MPI_Comm_size(comm, &size));
    if (size > 1 && !p->da) {
      SbpPlanProcessGrid(p->Nr + 1, p->Ns + 1, size, &m, &n);
      const PetscInt least = SbpProblemMinimumOwned(p);
      PetscCheck((p->Nr + 1) / m >= least && (p->Ns + 1) / n >= least, comm, PETSC_ERR_ARG_SIZ,
                 "The %" PetscInt_FMT " x %" PetscInt_FMT " grid (%" PetscInt_FMT " x %" PetscInt_FMT
                 " nodes) is too small for %d MPI ranks: their process grid %" PetscInt_FMT " x %" PetscInt_FMT " leaves a rank %" PetscInt_FMT
                 " node(s) along %s, fewer than the %" PetscInt_FMT " that every rank needs at order %" PetscInt_FMT
                 "; use fewer ranks or a larger grid (-sbp_n)",
                 p->Nr, p->Ns, p->Nr + 1, p->Ns + 1, (int)size, m, n, (p->Nr + 1) / m < least ? (p->Nr + 1) / m : (p->Ns + 1) / n,
                 (p->Nr + 1) / m < least ? "r" : "s", least, p->order);
    }
  }
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetUp - Check the parameters, lay the grid out as a DMDA (r fastest, stencil width 2), evaluate the mapping, mu and the
   metric coefficients at the nodes of each rank's ghosted patch (checking mu, J, crr, css > 0 and crr*css - crs^2 > 0 everywhere),
   resolve the backend and, on the device backend, copy the coefficients to the device (on several ranks, also set up the ghost
   exchange between the devices).

   Collective

   Level: beginner
@*/
PetscErrorCode SbpProblemSetUp(SbpProblem p)
{
  PetscFunctionBegin;
  if (p->setupcalled) PetscFunctionReturn(0);
  PetscCall(SbpProblemCheckParameters(p));
  PetscCall(SbpProblemResolveBackend(p));
  p->hr  = 2.0 / p->Nr;
  p->hs  = 2.0 / p->Ns;
  p->rho = p->hs / p->hr;
  PetscCall(SbpProblemPlanSetUp(p)); /* before anything grid-sized is allocated */
  PetscCall(PetscLogEventBegin(SBPMG_SbpSetUp, 0, 0, 0, 0));
  PetscCall(SbpProblemSetUpLayout(p));
  {
    PetscErrorCode ierr = SbpProblemSetUpNodes(p);
    if (!ierr) ierr = p->use_device ? SbpProblemSetUpDevice(p) : SbpProblemComputeCoefficientsHost(p);
    if (!ierr && !p->use_device) ierr = SbpProblemSetUpTuning(p);
    if (ierr) { /* leave nothing behind: a later SbpProblemSetUp() starts again */
      PetscCall(SbpProblemResetSetUp(p));
      PetscCall(PetscLogEventEnd(SBPMG_SbpSetUp, 0, 0, 0, 0));
      PetscCall(ierr);
    }
  }
  PetscCall(PetscLogEventEnd(SBPMG_SbpSetUp, 0, 0, 0, 0));
  p->setupcalled = PETSC_TRUE;
  PetscCall(PetscObjectViewFromOptions((PetscObject)p, NULL, "-sbp_view"));
  PetscFunctionReturn(0);
}
