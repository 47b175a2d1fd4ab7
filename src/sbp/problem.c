/* SbpProblem: the grid, mapping, coefficient and boundary conditions of the SBP-SAT problem, its DMDA layout, and the
   metric coefficients crr, css, crs and J at the nodes (spec-sbp-sat.md sections 0, 1, 4). */
#include <sbpmg/private/sbpimpl.h>

const char *const SbpMappingTypes[] = {"curved", "square", "user", NULL};
const char *const SbpMuTypes[]      = {"basin", "constant", "user", NULL};
const char *const SbpBackends[]     = {"auto", "device", "host", NULL};

/*@C
   SbpProblemCreate - Create an SBP-SAT problem description: grid Nr x Ns (hr = 2/Nr, hs = 2/Ns), mapping, coefficient mu and
   the boundary condition of each face. Defaults: 32 x 32, the curved quadrilateral, the basin coefficient, Dirichlet on faces
   1 and 2 (r = -1, +1), Neumann on faces 3 and 4 (s = -1, +1), the device backend when an OpenCL device is found (any number of
   ranks), else the host.

   Collective

   Level: beginner

.seealso: `SbpProblemSetFromOptions()`, `SbpProblemSetUp()`, `SbpProblemCreateOperator()`
@*/
PetscErrorCode SbpProblemCreate(MPI_Comm comm, SbpProblem *problem)
{
  SbpProblem p;

  PetscFunctionBegin;
  PetscValidPointer(problem, 2);
  PetscCall(SbpInitializePackage());
  PetscCall(PetscHeaderCreate(p, SBP_PROBLEM_CLASSID, "SbpProblem", "SBP-SAT problem", "SbpProblem", comm, SbpProblemDestroy, SbpProblemView));
  p->Nr       = 32;
  p->Ns       = 32;
  p->mapping  = SBP_MAPPING_CURVED;
  p->mapfn    = SbpMappingCurved;
  p->mu       = SBP_MU_BASIN;
  p->mufn     = SbpMuBasin;
  p->mu_value = 1;
  p->bc[0] = p->bc[1] = SBP_BC_DIRICHLET;
  p->bc[2] = p->bc[3] = SBP_BC_NEUMANN;
  p->backend          = SBP_BACKEND_AUTO;
  p->wg[0]            = 32;
  p->wg[1]            = 4;
  p->overlap_min      = 1048576;
  p->split            = PETSC_TRUE;
  p->split_min        = 262144;
  p->inner_rows       = 1;
  p->pass_wg[0]       = 16;
  p->max_regs         = -1;
  p->pass_wg[1]       = 16;
  *problem            = p;
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpProblemCheckNotSetUp(SbpProblem p, const char what[])
{
  PetscFunctionBegin;
  PetscCheck(!p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Cannot change %s after SbpProblemSetUp()", what);
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetSizes - Set the number of grid intervals in r and s (Nr, Ns >= 4; multigrid needs them even on every level
   but the coarsest).

   Logically collective

   Level: beginner
@*/
PetscErrorCode SbpProblemSetSizes(SbpProblem p, PetscInt Nr, PetscInt Ns)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "the grid size"));
  p->Nr = Nr;
  p->Ns = Ns;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemGetSizes(SbpProblem p, PetscInt *Nr, PetscInt *Ns)
{
  PetscFunctionBegin;
  if (Nr) *Nr = p->Nr;
  if (Ns) *Ns = p->Ns;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetMapping - Choose the mapping X(r,s): SBP_MAPPING_CURVED (the spec's curved quadrilateral) or
   SBP_MAPPING_SQUARE (the identity of [-1,1]^2).

   Level: beginner
@*/
PetscErrorCode SbpProblemSetMapping(SbpProblem p, SbpMappingType type)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "the mapping"));
  PetscCheck(type == SBP_MAPPING_CURVED || type == SBP_MAPPING_SQUARE, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE,
             "Mapping type %d: use SBP_MAPPING_CURVED, SBP_MAPPING_SQUARE, or SbpProblemSetMappingFunction()", (int)type);
  p->mapping = type;
  p->mapfn   = type == SBP_MAPPING_CURVED ? SbpMappingCurved : SbpMappingSquare;
  p->mapctx  = NULL;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetMappingFunction - Use a mapping of your own: fn(ctx, r, s, X) sets X = {x, y, x_r, x_s, y_r, y_s}.

   Level: intermediate
@*/
PetscErrorCode SbpProblemSetMappingFunction(SbpProblem p, SbpMappingFunction fn, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "the mapping"));
  p->mapping = SBP_MAPPING_USER;
  p->mapfn   = fn;
  p->mapctx  = ctx;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetMu - Choose the coefficient mu: SBP_MU_BASIN (the spec's smoothed basin) or SBP_MU_CONSTANT with the given value.

   Level: beginner
@*/
PetscErrorCode SbpProblemSetMu(SbpProblem p, SbpMuType type, PetscReal value)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "mu"));
  PetscCheck(type == SBP_MU_BASIN || type == SBP_MU_CONSTANT, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE,
             "mu type %d: use SBP_MU_BASIN, SBP_MU_CONSTANT, or SbpProblemSetMuFunction()", (int)type);
  p->mu       = type;
  p->mu_value = value;
  p->mufn     = type == SBP_MU_BASIN ? SbpMuBasin : SbpMuConstant;
  p->muctx    = type == SBP_MU_BASIN ? NULL : &p->mu_value;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetMuFunction - Use a coefficient of your own: fn(ctx, x, y, m) sets m = {mu, mu_x, mu_y} at the physical point.

   Level: intermediate
@*/
PetscErrorCode SbpProblemSetMuFunction(SbpProblem p, SbpMuFunction fn, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "mu"));
  p->mu    = SBP_MU_USER;
  p->mufn  = fn;
  p->muctx = ctx;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetMetricFunction - Give the coefficients crr, css, crs and J directly (anisotropic media), instead of deriving them from
   the mapping and mu: fn(ctx, r, s, X, m, c) sets c = {crr, css, crs, J}. They must satisfy crr, css, J > 0 and crr css > crs^2.

   Level: advanced
@*/
PetscErrorCode SbpProblemSetMetricFunction(SbpProblem p, SbpMetricFunction fn, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "the metric"));
  p->metricfn  = fn;
  p->metricctx = ctx;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetBC - Set the boundary condition of face 1 (r = -1), 2 (r = +1), 3 (s = -1) or 4 (s = +1).

   Level: beginner
@*/
PetscErrorCode SbpProblemSetBC(SbpProblem p, PetscInt face, SbpBCType type)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "a boundary condition"));
  PetscCheck(face >= 1 && face <= 4, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE, "Face %" PetscInt_FMT " does not exist: faces are 1..4", face);
  PetscCheck(type == SBP_BC_DIRICHLET || type == SBP_BC_NEUMANN, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE,
             "Boundary condition type %d is neither Dirichlet nor Neumann", (int)type);
  p->bc[face - 1] = type;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemGetBC(SbpProblem p, PetscInt face, SbpBCType *type)
{
  PetscFunctionBegin;
  PetscCheck(face >= 1 && face <= 4, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE, "Face %" PetscInt_FMT " does not exist: faces are 1..4", face);
  *type = p->bc[face - 1];
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetBackend - Where operators apply: SBP_BACKEND_DEVICE (OpenCL kernels on device vectors, each rank on its device,
   ghosts exchanged between the devices through MPI), SBP_BACKEND_HOST (C loops on DMDA vectors) or SBP_BACKEND_AUTO (the device
   when every rank finds an OpenCL device, the host otherwise); any number of ranks.

   Level: intermediate
@*/
PetscErrorCode SbpProblemSetBackend(SbpProblem p, SbpBackend backend)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "the backend"));
  p->backend = backend;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetOverlap - On several ranks, the device kernels that read neighbours (operator, residual, smoothing sweep) run the
   interior of each rank's block, whose stencils need no ghost, while the ghosts are exchanged, then the rim, when the interior
   has at least min_nodes nodes; smaller blocks exchange first and run one launch (the split costs a launch, which only pays when
   the interior takes longer than that). Default 1048576 (docs/design.md); 0: always split.

   Logically collective

   Options Database Key:
.  -sbp_overlap_min <n> - the threshold

   Level: advanced

.seealso: `SbpProblemSetBackend()`
@*/
PetscErrorCode SbpProblemSetOverlap(SbpProblem p, PetscInt min_nodes)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "the overlap threshold"));
  PetscCheck(min_nodes >= 0, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE, "Overlap threshold %" PetscInt_FMT " must be >= 0 (-sbp_overlap_min)",
             min_nodes);
  p->overlap_min = min_nodes;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetKernelSplit - On the device, run the operator, residual and smoothing sweep as two kernels: a lean one over the
   interior box, where every row is the plain 9-point stencil (spec 5.4 (A)), and one over the rim of boundary rows around it,
   or (split = PETSC_FALSE) as one kernel that branches per node. The values are the same; the lean kernel needs fewer
   registers (docs/design.md, "interior and rim"). Default PETSC_TRUE.

   Logically collective

   Options Database Key:
.  -sbp_split <bool> - split or not

   Level: advanced

.seealso: `SbpProblemSetOverlap()`
@*/
PetscErrorCode SbpProblemSetKernelSplit(SbpProblem p, PetscBool split)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "the kernel split"));
  p->split = split;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetKernelShape - The shape of the lean interior kernels on the device: they run when the interior box has at least
   split_min nodes (smaller levels, where a second launch costs more than it saves, run one kernel over all nodes), and each
   work-item walks rows consecutive rows of one column, keeping the rows it shares with the next in registers. Defaults 262144
   (measured on an H200: splitting smaller levels costs more in launches than it saves) and 1 (more rows were slower there).

   Logically collective

   Options Database Keys:
+  -sbp_split_min <n>   - the smallest interior box that runs apart
-  -sbp_inner_rows <n>  - rows per work-item, 1 to 64

   Level: advanced

.seealso: `SbpProblemSetKernelSplit()`
@*/
PetscErrorCode SbpProblemSetKernelShape(SbpProblem p, PetscInt split_min, PetscInt rows)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "the kernel shape"));
  PetscCheck(split_min >= 0, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE, "Split threshold %" PetscInt_FMT " must be >= 0 (-sbp_split_min)",
             split_min);
  PetscCheck(rows >= 1 && rows <= 64, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE,
             "Rows per work-item %" PetscInt_FMT " must be in 1..64 (-sbp_inner_rows)", rows);
  p->split_min  = split_min;
  p->inner_rows = rows;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemSetPassTile - The work-group of the smoother kernel that runs several sweeps per pass (kernels/smooth.cl mg_smooth_pass,
   used by PCSBPMG's -pc_sbpmg_sweeps_per_pass m): tx x ty work-items, one node each, covering a tile of (tx-2(m-1)) x (ty-2(m-1))
   nodes, which take the last sweep, and its ring of m-1 nodes. Default 16 x 16. The device must take a work-group of tx*ty
   work-items (checked at set-up).

   Logically collective

   Options Database Key:
.  -sbp_pass_wg <tx,ty> - the work-group

   Level: advanced

.seealso: `SbpProblemSetKernelShape()`, `PCSBPMG`
@*/
PetscErrorCode SbpProblemSetPassTile(SbpProblem p, PetscInt tx, PetscInt ty)
{
  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "the work-group of the smoothing passes"));
  PetscCheck(tx >= 3 && ty >= 3 && tx <= 1024 && ty <= 1024, PetscObjectComm((PetscObject)p), PETSC_ERR_ARG_OUTOFRANGE,
             "Work-group %" PetscInt_FMT " x %" PetscInt_FMT " (-sbp_pass_wg): each side must be in 3..1024 (a tile and its ring)", tx, ty);
  p->pass_wg[0] = tx;
  p->pass_wg[1] = ty;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemGetBackend(SbpProblem p, SbpBackend *backend)
{
  PetscFunctionBegin;
  *backend = p->setupcalled ? (p->use_device ? SBP_BACKEND_DEVICE : SBP_BACKEND_HOST) : p->backend;
  PetscFunctionReturn(0);
}

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

/*@C
   SbpProblemSetFromOptions - Read the problem from the options database.

   Options Database Keys:
+  -sbp_n <n>          - intervals in both directions
.  -sbp_nr <n>         - intervals in r
.  -sbp_ns <n>         - intervals in s
.  -sbp_mapping <curved,square> - the mapping
.  -sbp_mu <basin,constant>     - the coefficient
.  -sbp_mu_value <v>   - the constant coefficient
.  -sbp_bc <DDNN>      - one letter per face 1..4: D (Dirichlet, by SAT) or N (Neumann)
.  -sbp_backend <auto,device,host> - where the matrix-free operator runs
.  -sbp_overlap_min <n> - on several ranks, overlap the ghost exchange with the interior when it has at least n nodes
.  -sbp_split <bool>    - on the device, run the interior rows in a lean kernel and the boundary rim in another (default true)
.  -sbp_split_min <n>   - ... where the interior box has at least n nodes
.  -sbp_inner_rows <n>  - rows of a column per work-item of the lean kernels
-  -sbp_pass_wg <tx,ty> - the work-group of the smoother kernel of several sweeps per pass: a tile and its ring (PCSBPMG -pc_sbpmg_sweeps_per_pass)

   Level: beginner
@*/
PetscErrorCode SbpProblemSetFromOptions(SbpProblem p)
{
  char      mapping[32], mu[32], backend[32], bc[32];
  PetscInt  n = p->Nr, nr = p->Nr, ns = p->Ns, idx;
  PetscBool setn, setnr, setns, setmap, setmu, setbc, setbackend;
  PetscReal value = p->mu_value;
  MPI_Comm  comm  = PetscObjectComm((PetscObject)p);
  PetscInt  wg[2] = {(PetscInt)p->wg[0], (PetscInt)p->wg[1]}, nwg = 2, overlap = p->overlap_min, split_min = p->split_min, rows = p->inner_rows;
  PetscInt  pwg[2] = {p->pass_wg[0], p->pass_wg[1]}, npwg = 2, maxregs = p->max_regs;
  PetscBool setwg, setoverlap, setpwg;

  PetscFunctionBegin;
  PetscCall(SbpProblemCheckNotSetUp(p, "options"));
  PetscCall(PetscStrncpy(mapping, SbpMappingTypes[p->mapping], sizeof(mapping)));
  PetscCall(PetscStrncpy(mu, SbpMuTypes[p->mu], sizeof(mu)));
  PetscCall(PetscStrncpy(backend, SbpBackends[p->backend], sizeof(backend)));
  for (PetscInt f = 0; f < 4; f++) bc[f] = p->bc[f] == SBP_BC_DIRICHLET ? 'D' : 'N';
  bc[4] = 0;
  PetscObjectOptionsBegin((PetscObject)p);
  PetscCall(PetscOptionsInt("-sbp_n", "Grid intervals in both r and s", "SbpProblemSetSizes", n, &n, &setn));
  PetscCall(PetscOptionsInt("-sbp_nr", "Grid intervals in r", "SbpProblemSetSizes", nr, &nr, &setnr));
  PetscCall(PetscOptionsInt("-sbp_ns", "Grid intervals in s", "SbpProblemSetSizes", ns, &ns, &setns));
  PetscCall(PetscOptionsString("-sbp_mapping", "Mapping: curved|square", "SbpProblemSetMapping", mapping, mapping, sizeof(mapping), &setmap));
  PetscCall(PetscOptionsString("-sbp_mu", "Coefficient mu: basin|constant", "SbpProblemSetMu", mu, mu, sizeof(mu), &setmu));
  PetscCall(PetscOptionsReal("-sbp_mu_value", "Value of the constant coefficient", "SbpProblemSetMu", value, &value, NULL));
  PetscCall(
      PetscOptionsString("-sbp_bc", "Boundary conditions of faces 1..4 (r=-1, r=+1, s=-1, s=+1): D or N each", "SbpProblemSetBC", bc, bc, sizeof(bc), &setbc));
  PetscCall(
      PetscOptionsString("-sbp_backend", "Where the operator runs: auto|device|host", "SbpProblemSetBackend", backend, backend, sizeof(backend), &setbackend));
  PetscCall(PetscOptionsIntArray("-sbp_wg", "Work-group shape of the 2D kernels: x,y (x along r)", "SbpProblemSetFromOptions", wg, &nwg, &setwg));
  PetscCall(PetscOptionsInt("-sbp_overlap_min", "Several ranks: overlap the ghost exchange with the interior when it has at least this many nodes (0: always)",
                            "SbpProblemSetOverlap", overlap, &overlap, &setoverlap));
  PetscCall(PetscOptionsBool("-sbp_split", "Device: the interior rows in a lean kernel, the boundary rim in another (false: one kernel over all nodes)",
                             "SbpProblemSetKernelSplit", p->split, &p->split, NULL));
  PetscCall(PetscOptionsInt("-sbp_split_min", "Device: split only where the interior box has at least this many nodes", "SbpProblemSetKernelShape", split_min,
                            &split_min, NULL));
  PetscCall(
      PetscOptionsInt("-sbp_inner_rows", "Device: rows of a column per work-item of the lean interior kernels", "SbpProblemSetKernelShape", rows, &rows, NULL));
  PetscCall(PetscOptionsInt("-sbp_max_registers",
                            "NVIDIA GPUs: register cap of the SBP-SAT and multigrid kernels (-cl-nv-maxrregcount; 0: none; default 64), ignored elsewhere",
                            "SbpProblemSetFromOptions", maxregs, &maxregs, NULL));
  PetscCall(PetscOptionsIntArray("-sbp_pass_wg",
                                 "Device: the work-group tx,ty of the smoother kernel of several sweeps per pass (PCSBPMG -pc_sbpmg_sweeps_per_pass)",
                                 "SbpProblemSetPassTile", pwg, &npwg, &setpwg));
  PetscOptionsEnd();
  PetscCheck(maxregs <= 0 || (maxregs >= 16 && maxregs <= 255), comm, PETSC_ERR_ARG_OUTOFRANGE,
             "-sbp_max_registers %" PetscInt_FMT " must be 0 (no cap) or in 16..255", maxregs);
  p->max_regs = maxregs;
  if (setoverlap) PetscCall(SbpProblemSetOverlap(p, overlap));
  PetscCall(SbpProblemSetKernelShape(p, split_min, rows));
  if (setwg) {
    PetscCheck(nwg == 2 && wg[0] > 0 && wg[1] > 0, comm, PETSC_ERR_ARG_WRONG,
               "-sbp_wg takes two positive numbers x,y, got %" PetscInt_FMT " value(s) starting %" PetscInt_FMT, nwg, wg[0]);
    p->wg[0] = (size_t)wg[0];
    p->wg[1] = (size_t)wg[1];
  }
  if (setpwg) {
    PetscCheck(npwg == 2, comm, PETSC_ERR_ARG_WRONG, "-sbp_pass_wg takes two numbers tx,ty, got %" PetscInt_FMT " value(s) starting %" PetscInt_FMT, npwg,
               pwg[0]);
    PetscCall(SbpProblemSetPassTile(p, pwg[0], pwg[1]));
  }

  if (setn) nr = ns = n;
  if (setn && setnr) PetscCall(PetscOptionsGetInt(((PetscObject)p)->options, ((PetscObject)p)->prefix, "-sbp_nr", &nr, NULL));
  if (setn && setns) PetscCall(PetscOptionsGetInt(((PetscObject)p)->options, ((PetscObject)p)->prefix, "-sbp_ns", &ns, NULL));
  PetscCall(SbpProblemSetSizes(p, nr, ns));
  if (setmap) {
    PetscCall(SbpmgParseChoice("-sbp_mapping", mapping, SbpMappingTypes, &idx));
    PetscCheck(idx != SBP_MAPPING_USER, comm, PETSC_ERR_ARG_WRONG, "-sbp_mapping user: set a user mapping with SbpProblemSetMappingFunction()");
    PetscCall(SbpProblemSetMapping(p, (SbpMappingType)idx));
  }
  if (setmu) {
    PetscCall(SbpmgParseChoice("-sbp_mu", mu, SbpMuTypes, &idx));
    PetscCheck(idx != SBP_MU_USER, comm, PETSC_ERR_ARG_WRONG, "-sbp_mu user: set a user coefficient with SbpProblemSetMuFunction()");
    PetscCall(SbpProblemSetMu(p, (SbpMuType)idx, value));
  } else if (p->mu == SBP_MU_CONSTANT)
    p->mu_value = value;
  if (setbc) PetscCall(SbpParseBC(p, bc));
  if (setbackend) {
    PetscCall(SbpmgParseChoice("-sbp_backend", backend, SbpBackends, &idx));
    PetscCall(SbpProblemSetBackend(p, (SbpBackend)idx));
  }
  PetscFunctionReturn(0);
}

/* Map the reference node (i,j) and evaluate mu there: X = {x, y, xr, xs, yr, ys}, m = {mu, mu_x, mu_y}. */
PetscErrorCode SbpProblemEvaluateNode(SbpProblem p, PetscInt i, PetscInt j, PetscReal X[6], PetscReal m[3])
{
  PetscFunctionBegin;
  PetscCall((*p->mapfn)(p->mapctx, -1 + i * p->hr, -1 + j * p->hs, X));
  PetscCall((*p->mufn)(p->muctx, X[0], X[1], m));
  PetscFunctionReturn(0);
}

/* Bit f-1 set when face f is Dirichlet (the kernels' encoding). */
PetscErrorCode SbpProblemBCFlags(SbpProblem p, int *flags)
{
  PetscFunctionBegin;
  *flags = 0;
  for (int f = 0; f < 4; f++)
    if (p->bc[f] == SBP_BC_DIRICHLET) *flags |= 1 << f;
  PetscFunctionReturn(0);
}

/* The first node (in natural order) of this rank's patch where the coefficients are invalid, with its description. */
typedef struct {
  PetscInt  node; /* natural index, or PETSC_MAX_INT if none */
  PetscReal value;
  int       what;
} SbpBadNode;

static const char *const SbpBadWhat[] = {"J = x_r y_s - x_s y_r", "crr", "css", "crr*css - crs^2", "mu", "crs"};

static void SbpCheckNode(PetscInt node, PetscReal mu, PetscReal J, PetscReal crr, PetscReal css, PetscReal crs, SbpBadNode *bad)
{
  PetscReal det  = crr * css - crs * crs;
  int       what = -1;
  PetscReal v    = 0;

  if (!(mu > 0) || PetscIsInfOrNanReal(mu))
    what = 4, v = mu;
  else if (!(J > 0) || PetscIsInfOrNanReal(J))
    what = 0, v = J;
  else if (!(crr > 0) || PetscIsInfOrNanReal(crr))
    what = 1, v = crr;
  else if (!(css > 0) || PetscIsInfOrNanReal(css))
    what = 2, v = css;
  else if (PetscIsInfOrNanReal(crs))
    what = 5, v = crs;
  else if (!(det > 0))
    what = 3, v = det;
  if (what >= 0 && node < bad->node) {
    bad->node  = node;
    bad->value = v;
    bad->what  = what;
  }
}

/* Coefficients at every node of the ghosted patch, validated on all ranks together. */
static PetscErrorCode SbpProblemComputeCoefficients(SbpProblem p)
{
  PetscInt   np  = p->gxm * p->gym;
  SbpBadNode bad = {PETSC_MAX_INT, 0, 0};
  PetscInt   first;
  MPI_Comm   comm = PetscObjectComm((PetscObject)p);

  PetscFunctionBegin;
  PetscCall(PetscMalloc5(np, &p->crr, np, &p->css, np, &p->crs, np, &p->J, 6 * np, &p->geom));
  for (PetscInt j = p->gys; j < p->gys + p->gym; j++)
    for (PetscInt i = p->gxs; i < p->gxs + p->gxm; i++) {
      PetscInt   k = SbpPatchIndex(p, i, j);
      PetscReal *X = &p->geom[6 * k], m[3], J;
      PetscCall(SbpProblemEvaluateNode(p, i, j, X, m));
      if (p->metricfn) {
        PetscReal c[4];
        PetscCall((*p->metricfn)(p->metricctx, -1 + i * p->hr, -1 + j * p->hs, X, m, c));
        p->crr[k] = c[0];
        p->css[k] = c[1];
        p->crs[k] = c[2];
        p->J[k] = J = c[3];
      } else { /* section 0 */
        J         = X[2] * X[5] - X[3] * X[4];
        p->J[k]   = J;
        p->crr[k] = m[0] * (X[3] * X[3] + X[5] * X[5]) / J;
        p->crs[k] = -m[0] * (X[2] * X[3] + X[4] * X[5]) / J;
        p->css[k] = m[0] * (X[2] * X[2] + X[4] * X[4]) / J;
      }
      SbpCheckNode(i + (p->Nr + 1) * j, m[0], J, p->crr[k], p->css[k], p->crs[k], &bad);
    }
  PetscCall(MPIU_Allreduce(&bad.node, &first, 1, MPIU_INT, MPI_MIN, comm));
  if (first != PETSC_MAX_INT) {
    PetscMPIInt rank, owner = 0, candidate;
    double      sendbuf[2] = {bad.value, bad.what}, recv[2];
    PetscCallMPI(MPI_Comm_rank(comm, &rank));
    candidate = bad.node == first ? rank : 0;
    PetscCall(MPIU_Allreduce(&candidate, &owner, 1, MPI_INT, MPI_MAX, comm));
    recv[0] = sendbuf[0];
    recv[1] = sendbuf[1];
    PetscCallMPI(MPI_Bcast(recv, 2, MPI_DOUBLE, owner, comm));
    SETERRQ(comm, PETSC_ERR_ARG_OUTOFRANGE,
            "Invalid SBP-SAT coefficients at node (i,j) = (%" PetscInt_FMT ",%" PetscInt_FMT
            "): %s = %g; need mu > 0, J > 0, crr > 0, css > 0 and crr*css - crs^2 > 0 at every node",
            first % (p->Nr + 1), first / (p->Nr + 1), SbpBadWhat[(int)recv[1]], recv[0]);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpProblemUploadCoefficients(SbpProblem p)
{
  size_t bytes = (size_t)p->gxm * p->gym * sizeof(PetscReal);

  PetscFunctionBegin;
  PetscCall(SbpmgCLGetDefault(&p->cl));
  PetscCall(SbpmgCLReference(p->cl));
  PetscCall(SbpmgCLCreateBuffer(p->cl, CL_MEM_READ_ONLY, bytes, &p->d_crr));
  PetscCall(SbpmgCLCreateBuffer(p->cl, CL_MEM_READ_ONLY, bytes, &p->d_css));
  PetscCall(SbpmgCLCreateBuffer(p->cl, CL_MEM_READ_ONLY, bytes, &p->d_crs));
  PetscCall(SbpmgCLCreateBuffer(p->cl, CL_MEM_READ_ONLY, bytes, &p->d_J));
  PetscCall(SbpmgCLWriteBuffer(p->cl, p->d_crr, 0, bytes, p->crr));
  PetscCall(SbpmgCLWriteBuffer(p->cl, p->d_css, 0, bytes, p->css));
  PetscCall(SbpmgCLWriteBuffer(p->cl, p->d_crs, 0, bytes, p->crs));
  PetscCall(SbpmgCLWriteBuffer(p->cl, p->d_J, 0, bytes, p->J));
  PetscFunctionReturn(0);
}

/* SBP_BACKEND_AUTO: the device when every rank of the problem finds one (the default context can be created), else the host. */
static PetscErrorCode SbpProblemResolveBackend(SbpProblem p)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)p);

  PetscFunctionBegin;
  if (p->backend == SBP_BACKEND_AUTO) {
    SbpmgCL        cl = NULL;
    PetscErrorCode ierr;
    PetscMPIInt    found, all;

    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = SbpmgCLGetDefault(&cl);
    PetscCall(PetscPopErrorHandler());
    found = (!ierr && cl) ? 1 : 0;
    PetscCall(MPIU_Allreduce(&found, &all, 1, MPI_INT, MPI_MIN, comm));
    p->use_device = all ? PETSC_TRUE : PETSC_FALSE;
    if (!p->use_device) PetscCall(PetscInfo(p, "No OpenCL device on some rank: the SBP-SAT operator runs on the host\n"));
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
  if (ilo > ihi || jlo > jhi) { /* empty: the rim is the whole owned block (kernels/sbp.cl sbp_region_node) */
    ilo = p->xs;
    ihi = p->xs - 1;
    jlo = p->ys + p->ym;
    jhi = p->ys + p->ym - 1;
  }
  p->in[0] = ilo;
  p->in[1] = jlo;
  p->in[2] = ihi;
  p->in[3] = jhi;
  PetscFunctionReturn(0);
}

static PetscErrorCode SbpProblemCreateDM(SbpProblem p)
{
  PetscFunctionBegin;
  if (!p->da) {
    PetscCall(DMDACreate2d(PetscObjectComm((PetscObject)p), DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_BOX, p->Nr + 1, p->Ns + 1, PETSC_DECIDE,
                           PETSC_DECIDE, 1, 2, NULL, NULL, &p->da));
    PetscCall(DMSetUp(p->da));
  }
  PetscCall(DMDASetUniformCoordinates(p->da, -1, 1, -1, 1, 0, 0));
  PetscCall(DMDAGetCorners(p->da, &p->xs, &p->ys, NULL, &p->xm, &p->ym, NULL));
  PetscCall(DMDAGetGhostCorners(p->da, &p->gxs, &p->gys, NULL, &p->gxm, &p->gym, NULL));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemResolveKernels - Whether the lean interior kernels run (-sbp_split, -sbp_split_min), and the build options of the
   kernels: rows per work-item, 32-bit indices where every array of the patch fits, the register cap on NVIDIA's platform
   (-sbp_max_registers), and fp32 coefficients for the second set.
   Called at set-up; again (benchmarks) after changing inner_rows or split_min, it also forgets the kernels looked up so far.

   Level: developer
@*/
PetscErrorCode SbpProblemResolveKernels(SbpProblem p)
{
  PetscInt64  nin        = (PetscInt64)PetscMax(p->in[2] - p->in[0] + 1, 0) * PetscMax(p->in[3] - p->in[1] + 1, 0);
  PetscBool   idx32      = (PetscInt64)p->gxm * p->gym < ((PetscInt64)1 << 30) ? PETSC_TRUE : PETSC_FALSE; /* with room for the offsets */
  const char *i32opt     = idx32 ? " -DSBP_INDEX32=1" : "";
  char        capopt[40] = "";

  PetscFunctionBegin;
  p->split_on = (p->split && nin >= p->split_min) ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscArrayzero(&p->kernels[0][0], 2 * SBP_K_COUNT)); /* owned by the program cache */
  if (p->cl && strstr(p->cl->platform_name, "NVIDIA")) {         /* the apply reaches 89-90% of copy instead of 84-85% at 8192^2 (docs/performance.md) */
    const PetscInt cap = p->max_regs >= 0 ? p->max_regs : 64;
    if (cap > 0) PetscCall(PetscSNPrintf(capopt, sizeof(capopt), " -cl-nv-maxrregcount=%d", (int)cap));
  }
  PetscCall(PetscSNPrintf(p->kopts[0], sizeof(p->kopts[0]), "-DSBP_ROWS=%d%s -DSBP_PASS_TX=%d -DSBP_PASS_TY=%d%s", (int)p->inner_rows, i32opt,
                          (int)p->pass_wg[0], (int)p->pass_wg[1], capopt));
  PetscCall(PetscSNPrintf(p->kopts[1], sizeof(p->kopts[1]), "%s -DSBP_COEF=float", p->kopts[0]));
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
  MPI_Comm    comm = PetscObjectComm((PetscObject)p);
  PetscMPIInt size;

  PetscFunctionBegin;
  if (p->setupcalled) PetscFunctionReturn(0);
  PetscCheck(p->Nr >= 4, comm, PETSC_ERR_ARG_OUTOFRANGE, "Nr = %" PetscInt_FMT " is too small: the SBP-SAT operator needs at least 4 intervals in r (-sbp_nr)",
             p->Nr);
  PetscCheck(p->Ns >= 4, comm, PETSC_ERR_ARG_OUTOFRANGE, "Ns = %" PetscInt_FMT " is too small: the SBP-SAT operator needs at least 4 intervals in s (-sbp_ns)",
             p->Ns);
  PetscCheck(p->mapfn, comm, PETSC_ERR_ARG_WRONGSTATE, "No mapping function");
  PetscCheck(p->mufn, comm, PETSC_ERR_ARG_WRONGSTATE, "No coefficient function");
  PetscCheck(p->mu != SBP_MU_CONSTANT || (p->mu_value > 0 && !PetscIsInfOrNanReal(p->mu_value)), comm, PETSC_ERR_ARG_OUTOFRANGE,
             "-sbp_mu_value %g: the coefficient mu must be positive and finite", (double)p->mu_value);
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(SbpProblemResolveBackend(p));
  p->hr  = 2.0 / p->Nr;
  p->hs  = 2.0 / p->Ns;
  p->rho = p->hs / p->hr;
  PetscCall(PetscLogEventBegin(SBPMG_SbpSetUp, 0, 0, 0, 0));
  PetscCall(SbpProblemCreateDM(p));
  PetscCall(SbpProblemComputeCoefficients(p));
  if (p->use_device) PetscCall(SbpProblemUploadCoefficients(p));
  if (p->use_device) PetscCall(SbpProblemComputeInteriorBox(p)); /* the interior and rim launches (-sbp_split, the overlap) */
  if (p->use_device) PetscCall(SbpProblemResolveKernels(p));
  if (p->use_device && size > 1) { /* several ranks: the device ghost exchange, the interior overlapped with it */
    PetscCall(SbpHaloCreate(p->da, p->cl, &p->halo));
    p->overlap = (PetscMax(p->in[2] - p->in[0] + 1, 0) * PetscMax(p->in[3] - p->in[1] + 1, 0) >= p->overlap_min) ? PETSC_TRUE : PETSC_FALSE;
  }
  PetscCall(PetscLogEventEnd(SBPMG_SbpSetUp, 0, 0, 0, 0));
  p->setupcalled = PETSC_TRUE;
  PetscCall(PetscObjectViewFromOptions((PetscObject)p, NULL, "-sbp_view"));
  PetscFunctionReturn(0);
}

/* The coarse ownership ranges DMCoarsen gives one direction of a non-periodic DMDA (PETSc 3.18's DMDACoarsenOwnershipRanges with
   ratio 2: balanced, each fine boundary within one stencil width s of the coarse one) from the fine ranges lf[0..m). Returns the
   smallest coarse range, or -1 where DMCoarsen finds no compatible ranges. */
static PetscInt SbpCoarsenRanges(PetscInt m, const PetscInt lf[], PetscInt s, PetscInt lc[])
{
  PetscInt totalf = 0, remaining, startc = 0, startf = 0, least = PETSC_MAX_INT;

  for (PetscInt i = 0; i < m; i++) totalf += lf[i];
  remaining = 1 + (totalf - 1) / 2;
  for (PetscInt i = 0; i < m; i++) {
    PetscInt want = remaining / (m - i) + !!(remaining % (m - i));
    if (i < m - 1) {
      const PetscInt nextf = startf + lf[i];
      while (nextf / 2 < startc + want - s) want--;
      while (nextf / 2 > startc + want - 1 + s) want++;
      if (want < 0 || want > remaining || nextf / 2 < startc + want - s || nextf / 2 > startc + want - 1 + s) return -1;
    }
    lc[i] = want;
    least = PetscMin(least, want);
    startc += lc[i];
    startf += lf[i];
    remaining -= lc[i];
  }
  return least;
}

/*@C
   SbpProblemGetProcessGrid - The number of ranks of the problem's DMDA in r and in s.

   Level: developer
@*/
PetscErrorCode SbpProblemGetProcessGrid(SbpProblem p, PetscInt *m, PetscInt *n)
{
  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  PetscCall(DMDAGetInfo(p->da, NULL, NULL, NULL, NULL, m, n, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemCountLevels - How many grids the problem's grid halves into, itself included: serial counts the halvings the sizes allow
   (even sizes, at least 4 intervals after halving); distributed stops, in addition, before the first coarse grid that DMCoarsen
   cannot lay out over the same ranks (DMDA needs every rank to own at least 2 nodes, its stencil width, in each direction of
   which it has more than one rank). On one rank the two are equal. why (may be NULL) tells what stops the distributed count
   first, or is empty.

   Not collective (the ownership ranges are known to every rank)

   Level: developer
@*/
PetscErrorCode SbpProblemCountLevels(SbpProblem p, PetscInt *serial, PetscInt *distributed, char why[], size_t len)
{
  PetscInt        m, n, s, Nr = p->Nr, Ns = p->Ns, L = 1, D = 1, *lx, *ly, *cx, *cy;
  const PetscInt *olx, *oly;
  PetscBool       dist = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  if (why && len) why[0] = 0;
  PetscCall(DMDAGetInfo(p->da, NULL, NULL, NULL, NULL, &m, &n, NULL, NULL, &s, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetOwnershipRanges(p->da, &olx, &oly, NULL));
  PetscCall(PetscMalloc4(m, &lx, n, &ly, m, &cx, n, &cy));
  PetscCall(PetscArraycpy(lx, olx, m));
  PetscCall(PetscArraycpy(ly, oly, n));
  while (Nr % 2 == 0 && Ns % 2 == 0 && Nr / 2 >= 4 && Ns / 2 >= 4) {
    Nr /= 2;
    Ns /= 2;
    L++;
    if (dist) {
      PetscInt  wr = SbpCoarsenRanges(m, lx, s, cx), ws = SbpCoarsenRanges(n, ly, s, cy);
      PetscBool okr = (wr >= 0 && (m == 1 || wr >= s)) ? PETSC_TRUE : PETSC_FALSE, oks = (ws >= 0 && (n == 1 || ws >= s)) ? PETSC_TRUE : PETSC_FALSE;
      if (okr && oks) {
        D++;
        PetscCall(PetscArraycpy(lx, cx, m));
        PetscCall(PetscArraycpy(ly, cy, n));
      } else {
        dist = PETSC_FALSE;
        if (why && len) {
          PetscInt w = okr ? ws : wr, k = okr ? n : m;
          if (w < 0)
            PetscCall(PetscSNPrintf(why, len,
                                    "DMCoarsen finds no ownership ranges of the %" PetscInt_FMT " x %" PetscInt_FMT
                                    " grid compatible with the finer ones in %s over %" PetscInt_FMT " ranks",
                                    Nr, Ns, okr ? "s" : "r", k));
          else
            PetscCall(PetscSNPrintf(why, len,
                                    "the %" PetscInt_FMT " x %" PetscInt_FMT " grid would leave a rank %" PetscInt_FMT " node%s in %s (%" PetscInt_FMT
                                    " nodes over %" PetscInt_FMT " ranks), below the DMDA stencil width %" PetscInt_FMT,
                                    Nr, Ns, w, w == 1 ? "" : "s", okr ? "s" : "r", (okr ? Ns : Nr) + 1, k, s));
        }
      }
    }
  }
  PetscCall(PetscFree4(lx, ly, cx, cy));
  if (serial) *serial = L;
  if (distributed) *distributed = D;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemCoarsen - The problem re-discretised on the grid with half the intervals in each direction (the even nodes of this
   one): same mapping, coefficient, boundary conditions and backend; the DMDA is the coarsening of this one's.

   Collective

   Level: intermediate
@*/
PetscErrorCode SbpProblemCoarsen(SbpProblem p, SbpProblem *coarse)
{
  SbpProblem c;
  MPI_Comm   comm = PetscObjectComm((PetscObject)p);

  PetscFunctionBegin;
  PetscCheck(p->setupcalled, comm, PETSC_ERR_ORDER, "Call SbpProblemSetUp() before SbpProblemCoarsen()");
  PetscCheck(p->Nr % 2 == 0 && p->Ns % 2 == 0, comm, PETSC_ERR_ARG_SIZ,
             "Cannot coarsen the %" PetscInt_FMT " x %" PetscInt_FMT " grid: %s = %" PetscInt_FMT " is odd", p->Nr, p->Ns, p->Nr % 2 ? "Nr" : "Ns",
             p->Nr % 2 ? p->Nr : p->Ns);
  PetscCheck(p->Nr / 2 >= 4 && p->Ns / 2 >= 4, comm, PETSC_ERR_ARG_SIZ,
             "Cannot coarsen the %" PetscInt_FMT " x %" PetscInt_FMT " grid: the coarse grid %" PetscInt_FMT " x %" PetscInt_FMT
             " would have fewer than 4 intervals",
             p->Nr, p->Ns, p->Nr / 2, p->Ns / 2);
  {
    PetscInt    serial, dist, m, n;
    PetscMPIInt size;
    char        why[256];
    PetscCall(SbpProblemCountLevels(p, &serial, &dist, why, sizeof(why)));
    PetscCall(SbpProblemGetProcessGrid(p, &m, &n));
    PetscCallMPI(MPI_Comm_size(comm, &size));
    PetscCheck(dist > 1, comm, PETSC_ERR_ARG_SIZ,
               "Cannot coarsen the %" PetscInt_FMT " x %" PetscInt_FMT " grid on %d MPI ranks (%" PetscInt_FMT " x %" PetscInt_FMT "): %s", p->Nr, p->Ns, size,
               m, n, why);
  }
  PetscCall(SbpProblemCreate(comm, &c));
  c->Nr        = p->Nr / 2;
  c->Ns        = p->Ns / 2;
  c->mapping   = p->mapping;
  c->mapfn     = p->mapfn;
  c->mapctx    = p->mapctx;
  c->mu        = p->mu;
  c->mu_value  = p->mu_value;
  c->mufn      = p->mufn;
  c->muctx     = p->mu == SBP_MU_CONSTANT ? &c->mu_value : p->muctx;
  c->metricfn  = p->metricfn;
  c->metricctx = p->metricctx;
  for (int f = 0; f < 4; f++) c->bc[f] = p->bc[f];
  c->wg[0]       = p->wg[0];
  c->wg[1]       = p->wg[1];
  c->overlap_min = p->overlap_min;
  c->split       = p->split;
  c->split_min   = p->split_min;
  c->inner_rows  = p->inner_rows;
  c->pass_wg[0]  = p->pass_wg[0];
  c->max_regs    = p->max_regs;
  c->pass_wg[1]  = p->pass_wg[1];
  c->backend     = p->use_device ? SBP_BACKEND_DEVICE : SBP_BACKEND_HOST;
  PetscCall(DMCoarsen(p->da, comm, &c->da));
  PetscCall(SbpProblemSetUp(c));
  *coarse = c;
  PetscFunctionReturn(0);
}

PetscErrorCode SbpProblemGetDM(SbpProblem p, DM *da)
{
  PetscFunctionBegin;
  PetscCheck(p->setupcalled, PetscObjectComm((PetscObject)p), PETSC_ERR_ORDER, "Call SbpProblemSetUp() first");
  *da = p->da;
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemView - Print the grid, mapping, coefficient, boundary conditions and backend.

   Level: beginner
@*/
PetscErrorCode SbpProblemView(SbpProblem p, PetscViewer viewer)
{
  PetscBool isascii;

  PetscFunctionBegin;
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)p), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(0);
  PetscCall(PetscObjectPrintClassNamePrefixType((PetscObject)p, viewer));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "grid %" PetscInt_FMT " x %" PetscInt_FMT " intervals (%" PetscInt_FMT " unknowns), mapping %s, mu %s", p->Nr, p->Ns,
                                   (p->Nr + 1) * (p->Ns + 1), SbpMappingTypes[p->mapping], SbpMuTypes[p->mu]));
  if (p->mu == SBP_MU_CONSTANT) PetscCall(PetscViewerASCIIPrintf(viewer, " = %g", (double)p->mu_value));
  PetscCall(PetscViewerASCIIPrintf(viewer, "\n  faces 1..4 (r=-1, r=+1, s=-1, s=+1): %c %c %c %c (D = Dirichlet by SAT, N = Neumann)\n",
                                   p->bc[0] == SBP_BC_DIRICHLET ? 'D' : 'N', p->bc[1] == SBP_BC_DIRICHLET ? 'D' : 'N', p->bc[2] == SBP_BC_DIRICHLET ? 'D' : 'N',
                                   p->bc[3] == SBP_BC_DIRICHLET ? 'D' : 'N'));
  if (p->setupcalled) {
    if (p->use_device) {
      const char *name;
      PetscCall(SbpmgCLGetDeviceName(p->cl, &name));
      PetscCall(PetscViewerASCIIPrintf(viewer, "backend: device (%s)\n", name));
      PetscCall(PetscViewerASCIIPrintf(
          viewer, "kernels: %s\n", p->split_on ? "interior rows and boundary rim apart (-sbp_split)" : "one over all nodes (-sbp_split 0, or -sbp_split_min)"));
      if (p->split_on) PetscCall(PetscViewerASCIIPrintf(viewer, "interior kernels: %" PetscInt_FMT " rows per work-item (-sbp_inner_rows)\n", p->inner_rows));
      if (p->halo) {
        PetscMPIInt size;
        PetscInt    m, n;
        PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)p), &size));
        PetscCall(SbpProblemGetProcessGrid(p, &m, &n));
        PetscCall(PetscViewerASCIIPrintf(viewer,
                                         "%d MPI ranks (%" PetscInt_FMT " x %" PetscInt_FMT "), one device each; ghosts exchanged between the devices, %s\n",
                                         size, m, n, p->overlap ? "overlapped with the interior (this rank)" : "before the kernels (this rank)"));
      }
    } else
      PetscCall(PetscViewerASCIIPrintf(viewer, "backend: host\n"));
  } else
    PetscCall(PetscViewerASCIIPrintf(viewer, "backend: %s (not set up)\n", SbpBackends[p->backend]));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

/*@C
   SbpProblemDestroy - Free the problem, its DMDA and its device buffers.

   Level: beginner
@*/
PetscErrorCode SbpProblemDestroy(SbpProblem *problem)
{
  SbpProblem p = *problem;

  PetscFunctionBegin;
  if (!p) PetscFunctionReturn(0);
  *problem = NULL;
  if (--((PetscObject)p)->refct > 0) PetscFunctionReturn(0);
  if (p->cl) {
    PetscCall(SbpmgCLReleaseBuffer(p->cl, &p->d_crr));
    PetscCall(SbpmgCLReleaseBuffer(p->cl, &p->d_css));
    PetscCall(SbpmgCLReleaseBuffer(p->cl, &p->d_crs));
    PetscCall(SbpmgCLReleaseBuffer(p->cl, &p->d_J));
    if (p->d_crr32) PetscCall(SbpmgCLReleaseBuffer(p->cl, &p->d_crr32));
    if (p->d_css32) PetscCall(SbpmgCLReleaseBuffer(p->cl, &p->d_css32));
    if (p->d_crs32) PetscCall(SbpmgCLReleaseBuffer(p->cl, &p->d_crs32));
    PetscCall(SbpHaloDestroy(&p->halo));
    PetscCall(SbpmgCLDestroy(&p->cl));
  }
  PetscCall(PetscFree5(p->crr, p->css, p->crs, p->J, p->geom));
  PetscCall(DMDestroy(&p->da));
  PetscCall(PetscHeaderDestroy(&p));
  PetscFunctionReturn(0);
}
