/* The SEAS BP1-QD driver, the object (docs/seas.md): its parameters and options, the stretched DDNN grid through the mapping API, the
   fault's nodes and initial state, the KSP and TS set up once, view and destroy. The stepping is in src/seas/run.c, the files in
   src/seas/output.c. */
#include <sbpmg/private/seasimpl.h>
#include "../../kernels/sbp_table.cl" /* SBP_T_*: the SAT constants of the order's packed table */

/* ---------------------------------------------------------------- the stretched grid */

/* x = l tan(theta (t + 1) / 2), theta = atan(L / l) (l = 0: uniform, x = L (t + 1) / 2), and dx/dt. */
static void SeasStretch(PetscReal L, PetscReal l, PetscReal theta, PetscReal t, PetscReal *x, PetscReal *dx)
{
  if (l > 0) {
    const PetscReal a = theta * (t + 1) / 2, c = PetscCosReal(a);
    *x  = l * PetscTanReal(a);
    *dx = l * theta / 2 / (c * c);
  } else {
    *x  = L * (t + 1) / 2;
    *dx = L / 2;
  }
}

static PetscErrorCode SeasMapping(void *ctx, PetscReal r, PetscReal s, PetscReal X[6])
{
  Seas sp = (Seas)ctx;

  PetscFunctionBegin;
  SeasStretch(sp->L[0], sp->l[0], sp->theta[0], r, &X[0], &X[2]);
  SeasStretch(sp->L[1], sp->l[1], sp->theta[1], s, &X[1], &X[5]);
  X[3] = 0;
  X[4] = 0;
  PetscFunctionReturn(0);
}

/* The same mapping as OpenCL source (the device makes the multigrid levels' coefficients from it). */
static PetscErrorCode SeasMappingSource(Seas sp, char src[], size_t len)
{
  char c[2][160];

  PetscFunctionBegin;
  for (int d = 0; d < 2; d++) {
    const char *t = d ? "s" : "r";
    if (sp->l[d] > 0)
      PetscCall(PetscSNPrintf(c[d], sizeof(c[d]), "{ const double a = %.17g * (%s + 1) / 2, c = cos(a); X[%d] = %.17g * tan(a); X[%d] = %.17g / (c * c); }",
                              (double)sp->theta[d], t, d, (double)sp->l[d], d ? 5 : 2, (double)(sp->l[d] * sp->theta[d] / 2)));
    else
      PetscCall(
          PetscSNPrintf(c[d], sizeof(c[d]), "{ X[%d] = %.17g * (%s + 1); X[%d] = %.17g; }", d, (double)(sp->L[d] / 2), t, d ? 5 : 2, (double)(sp->L[d] / 2)));
  }
  PetscCall(PetscSNPrintf(src, len, "void sbp_user_mapping(double r, double s, double X[6])\n{\n  %s\n  %s\n  X[3] = 0; X[4] = 0;\n}\n", c[0], c[1]));
  PetscFunctionReturn(0);
}

/* The stretching length l with a first cell of size dz on a side of length L cut in N intervals: l atan(L / l) = N dz (monotone in l). */
static PetscErrorCode SeasStretchLength(MPI_Comm comm, const char dir[], PetscReal L, PetscInt N, PetscReal dz, PetscReal *l)
{
  PetscReal lo = 0, hi = L, target = N * dz;

  PetscFunctionBegin;
  PetscCheck(target < L, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "-seas_fault_dz %g with %" PetscInt_FMT " intervals in %s: the uniform grid (%g m cells) is already that fine; give a smaller N or a larger dz",
             (double)dz, N, dir, (double)(L / N));
  while (hi * PetscAtanReal(L / hi) < target) hi *= 2;
  for (int it = 0; it < 200; it++) {
    const PetscReal m = (lo + hi) / 2;
    if (m * PetscAtanReal(L / m) < target)
      lo = m;
    else
      hi = m;
  }
  *l = (lo + hi) / 2;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the object */

/*@C
   SeasCreate - An earthquake-cycle simulation of the SEAS benchmark BP1-QD (docs/seas.md), with the benchmark's parameters; set
   options with SeasSetFromOptions(), then SeasSetUp() and SeasSolve().

   Collective

   Level: beginner

.seealso: `SeasSetFromOptions()`, `SeasSolve()`, `SeasDestroy()`
@*/
PetscErrorCode SeasCreate(MPI_Comm comm, Seas *seas)
{
  Seas s;

  PetscFunctionBegin;
  PetscValidPointer(seas, 2);
  PetscCall(SeasInitializePackage());
  PetscCall(PetscHeaderCreate(s, SEAS_CLASSID, "Seas", "Earthquake-cycle simulation (SEAS BP1-QD)", "Seas", comm, SeasDestroy, SeasView));
  s->rho        = 2670;
  s->cs         = 3464;
  s->fr.sigma_n = 50e6;
  s->a0         = 0.010;
  s->amax       = 0.025;
  s->fr.b       = 0.015;
  s->fr.Dc      = 0.008;
  s->Vp         = 1e-9;
  s->Vinit      = 1e-9;
  s->fr.V0      = 1e-6;
  s->fr.f0      = 0.6;
  s->H          = 15e3;
  s->h          = 3e3;
  s->Wf         = 40e3;
  s->tf         = 3000;
  s->fr.rtol    = 1e-12;
  s->fr.maxit   = 100;
  s->guess_m    = 40;
  s->L[0] = s->L[1] = 100e3;
  s->N[0] = s->N[1] = 64;
  s->fault_dz       = 200;
  s->write          = PETSC_TRUE;
  PetscCall(PetscStrncpy(s->outdir, "seas_output", sizeof(s->outdir)));
  *seas = s;
  PetscFunctionReturn(0);
}

/*@C
   SeasSetFromOptions - The options of an earthquake-cycle simulation (docs/seas.md "Options"): -seas_domain Lx,Lz, -seas_n Nr,Ns,
   -seas_fault_dz, -seas_stretch lx,lz, -seas_tf, -seas_output, the physical parameters (-seas_sigma_n, -seas_a0, -seas_amax, -seas_b,
   -seas_dc, -seas_v0, -seas_f0, -seas_vp, -seas_vinit, -seas_h, -seas_hw, -seas_wf, -seas_rho, -seas_cs), the friction solve's
   (-seas_friction_rtol, -seas_friction_max_it) and the Green's function mode's (-seas_green, -seas_green_file, -seas_green_max_mb,
   -seas_green_cold). The TS and KSP options are read by SeasSetUp().

   Collective

   Level: beginner
@*/
PetscErrorCode SeasSetFromOptions(Seas s)
{
  PetscInt  n = 2, nl = 2, nn = 2, order = 2;
  PetscReal stretch[2] = {0, 0};
  PetscBool setl       = PETSC_FALSE;
  MPI_Comm  comm;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, SEAS_CLASSID, 1);
  comm = PetscObjectComm((PetscObject)s);
  PetscObjectOptionsBegin((PetscObject)s);
  PetscCall(PetscOptionsRealArray("-seas_domain", "Domain size Lx,Lz (m)", "SeasSetFromOptions", s->L, &n, NULL));
  if (n == 1) s->L[1] = s->L[0];
  PetscCall(PetscOptionsIntArray("-seas_n", "Grid intervals Nr,Ns", "SeasSetFromOptions", s->N, &nn, NULL));
  if (nn == 1) s->N[1] = s->N[0];
  PetscCall(PetscOptionsReal("-seas_fault_dz", "Cell size at the fault and the surface (m): sets the stretching (0: uniform)", "SeasSetFromOptions",
                             s->fault_dz, &s->fault_dz, NULL));
  PetscCall(PetscOptionsRealArray("-seas_stretch", "Stretching lengths lx,lz (m) of x = l tan(atan(L/l)(r+1)/2); replaces -seas_fault_dz", "SeasSetFromOptions",
                                  stretch, &nl, &setl));
  PetscCall(PetscOptionsReal("-seas_tf", "Final time (years)", "SeasSetFromOptions", s->tf, &s->tf, NULL));
  PetscCall(PetscOptionsString("-seas_output", "Output folder (none: no files)", "SeasSetFromOptions", s->outdir, s->outdir, sizeof(s->outdir), NULL));
  PetscCall(PetscOptionsString("-seas_checkpoint",
                               "Checkpoint file (PETSc binary): written every -seas_checkpoint_interval steps, at the end and when the stepping fails",
                               "SeasSetFromOptions", s->ckpt, s->ckpt, sizeof(s->ckpt), NULL));
  PetscCall(PetscOptionsInt("-seas_checkpoint_interval", "Steps between checkpoints (0: at the end only)", "SeasSetFromOptions", s->ckpt_every, &s->ckpt_every,
                            NULL));
  PetscCall(PetscOptionsString("-seas_restart",
                               "Continue the run of this checkpoint (the same grid and output folder; with the same -seas_checkpoint_interval, bit for bit)",
                               "SeasSetFromOptions", s->restart, s->restart, sizeof(s->restart), NULL));
  PetscCall(PetscOptionsReal("-seas_sigma_n", "Effective normal stress (Pa)", "SeasSetFromOptions", s->fr.sigma_n, &s->fr.sigma_n, NULL));
  PetscCall(PetscOptionsReal("-seas_a0", "Rate-and-state a above H", "SeasSetFromOptions", s->a0, &s->a0, NULL));
  PetscCall(PetscOptionsReal("-seas_amax", "Rate-and-state a below H + h", "SeasSetFromOptions", s->amax, &s->amax, NULL));
  PetscCall(PetscOptionsReal("-seas_b", "Rate-and-state b", "SeasSetFromOptions", s->fr.b, &s->fr.b, NULL));
  PetscCall(PetscOptionsReal("-seas_dc", "Critical slip distance Dc (m)", "SeasSetFromOptions", s->fr.Dc, &s->fr.Dc, NULL));
  PetscCall(PetscOptionsReal("-seas_v0", "Reference slip rate V0 (m/s)", "SeasSetFromOptions", s->fr.V0, &s->fr.V0, NULL));
  PetscCall(PetscOptionsReal("-seas_f0", "Reference friction coefficient f0", "SeasSetFromOptions", s->fr.f0, &s->fr.f0, NULL));
  PetscCall(PetscOptionsReal("-seas_vp", "Plate rate Vp (m/s)", "SeasSetFromOptions", s->Vp, &s->Vp, NULL));
  PetscCall(PetscOptionsReal("-seas_vinit", "Initial slip rate (m/s)", "SeasSetFromOptions", s->Vinit, &s->Vinit, NULL));
  PetscCall(PetscOptionsReal("-seas_h", "Depth H of the velocity-weakening zone (m)", "SeasSetFromOptions", s->H, &s->H, NULL));
  PetscCall(PetscOptionsReal("-seas_hw", "Width h of the transition (m)", "SeasSetFromOptions", s->h, &s->h, NULL));
  PetscCall(PetscOptionsReal("-seas_wf", "Depth Wf of the frictional fault (m); below it V = Vp", "SeasSetFromOptions", s->Wf, &s->Wf, NULL));
  PetscCall(PetscOptionsReal("-seas_rho", "Density (kg/m^3)", "SeasSetFromOptions", s->rho, &s->rho, NULL));
  PetscCall(PetscOptionsReal("-seas_cs", "Shear wave speed (m/s)", "SeasSetFromOptions", s->cs, &s->cs, NULL));
  PetscCall(PetscOptionsInt("-sbp_order", "Interior order of the SBP-SAT operator: 2, 4 or 6 (docs/guide.md \"Higher order\"); read again by the set-up",
                            "SbpProblemSetOrder", order, &order, NULL));
  PetscCall(PetscOptionsReal("-seas_friction_rtol", "Newton tolerance of the friction solve", "SeasSetFromOptions", s->fr.rtol, &s->fr.rtol, NULL));
  PetscCall(PetscOptionsInt("-seas_friction_max_it", "Newton iterations at most of the friction solve", "SeasSetFromOptions", s->fr.maxit, &s->fr.maxit, NULL));
  PetscCall(SeasGreenSetFromOptions(PetscOptionsObject, s));
  PetscCall(SeasGuessSetFromOptions(PetscOptionsObject, s));
  PetscOptionsEnd();
  if (setl) {
    s->l[0]     = stretch[0];
    s->l[1]     = nl == 1 ? stretch[0] : stretch[1];
    s->fault_dz = 0;
  }
  s->write = PETSC_TRUE;
  {
    PetscBool none;
    PetscCall(PetscStrcmp(s->outdir, "none", &none));
    if (none) s->write = PETSC_FALSE;
  }
  PetscCheck(s->N[0] >= 8 && s->N[1] >= 8, comm, PETSC_ERR_ARG_OUTOFRANGE, "-seas_n %" PetscInt_FMT ",%" PetscInt_FMT " must be >= 8", s->N[0], s->N[1]);
  PetscCheck(s->L[0] > 0 && s->L[1] > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-seas_domain %g,%g must be > 0", (double)s->L[0], (double)s->L[1]);
  PetscCheck(s->ckpt_every >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-seas_checkpoint_interval %" PetscInt_FMT " must be >= 0", s->ckpt_every);
  PetscCheck(s->tf > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-seas_tf %g must be > 0", (double)s->tf);
  PetscCheck(s->guess_m >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-seas_guess_basis %" PetscInt_FMT " must be >= 0 (0: the last solution alone)", s->guess_m);
  PetscCheck(order == 2 || order == 4 || order == 6, comm, PETSC_ERR_ARG_OUTOFRANGE, "-sbp_order %" PetscInt_FMT ": the SBP-SAT order must be 2, 4 or 6",
             order);
  {
    PetscInt minN;
    PetscCall(SbpSparse1DMinimumN(order, &minN));
    PetscCheck(s->N[0] >= minN && s->N[1] >= minN, comm, PETSC_ERR_ARG_OUTOFRANGE,
               "-seas_n %" PetscInt_FMT ",%" PetscInt_FMT " with -sbp_order %" PetscInt_FMT ": that order needs at least %" PetscInt_FMT
               " intervals in each direction (its boundary closures; docs/guide.md \"Higher order\")",
               s->N[0], s->N[1], order, minN);
  }
  PetscFunctionReturn(0);
}

/* The SBP-SAT order of the driver's problem: -sbp_order (2, 4, 6; docs/guide.md "Higher order"), the one -sbp_* option the driver
   reads (the grid, mu and the faces are its own), with the simulation's prefix; 2 when not given. */
static PetscErrorCode SeasGetOrderOption(Seas s, PetscInt *order)
{
  PetscFunctionBegin;
  *order = 2;
  PetscCall(PetscOptionsGetInt(((PetscObject)s)->options, ((PetscObject)s)->prefix, "-sbp_order", order, NULL));
  PetscFunctionReturn(0);
}

/* The grid: the problem of the order asked for on the stretched DDNN domain, face values for faces 1 and 2. */
static PetscErrorCode SeasSetUpGrid(Seas s)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)s);
  char     src[1024];
  PetscInt order;

  PetscFunctionBegin;
  if (s->fault_dz > 0) {
    PetscCall(SeasStretchLength(comm, "x", s->L[0], s->N[0], s->fault_dz, &s->l[0]));
    PetscCall(SeasStretchLength(comm, "z", s->L[1], s->N[1], s->fault_dz, &s->l[1]));
  }
  for (int d = 0; d < 2; d++) {
    PetscCheck(s->l[d] >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-seas_stretch %g must be >= 0 (0: uniform)", (double)s->l[d]);
    s->theta[d] = s->l[d] > 0 ? PetscAtanReal(s->L[d] / s->l[d]) : 0;
  }
  PetscCall(SbpProblemCreate(comm, &s->p));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)s->p, ((PetscObject)s)->prefix));
  PetscCall(SeasGetOrderOption(s, &order));
  PetscCall(SbpProblemSetOrder(s->p, order));
  PetscCall(SbpProblemSetSizes(s->p, s->N[0], s->N[1]));
  PetscCall(SbpProblemSetMappingFunction(s->p, SeasMapping, s));
  PetscCall(SeasMappingSource(s, src, sizeof(src)));
  PetscCall(SbpProblemSetMappingSource(s->p, src));
  PetscCall(SbpProblemSetMu(s->p, SBP_MU_CONSTANT, s->mu));
  PetscCall(SbpProblemSetBC(s->p, 1, SBP_BC_DIRICHLET));
  PetscCall(SbpProblemSetBC(s->p, 2, SBP_BC_DIRICHLET));
  PetscCall(SbpProblemSetBC(s->p, 3, SBP_BC_NEUMANN));
  PetscCall(SbpProblemSetBC(s->p, 4, SBP_BC_NEUMANN));
  PetscCall(SbpProblemSetBackend(s->p, SBP_BACKEND_AUTO));
  PetscCall(SbpProblemSetUp(s->p)); /* the grid and mu are the driver's: of the -sbp_* options only -sbp_order is read */
  PetscCall(SbpProblemSetForcingFunction(s->p, NULL, NULL));
  s->nface = s->N[1] + 1;
  PetscCall(PetscCalloc1(2 * s->nface, &s->gface));
  PetscCall(SbpProblemSetBoundaryValues(s->p, 1, SBP_BC_DIRICHLET, s->nface, s->gface));
  PetscCall(SbpProblemSetBoundaryValues(s->p, 2, SBP_BC_DIRICHLET, s->nface, s->gface + s->nface));
  /* faces 3 and 4: zero Neumann data, as every datum not given once one is (docs/guide.md "Bringing a problem") */
  PetscFunctionReturn(0);
}

/* The penalty coefficient kc of face 1's Dirichlet SAT at the face node j, per H_f and sJ (docs/design.md "The earthquake cycle"): the
   SAT's penalty term L^T H_f Cn Gamma L of the order-p operator (spec-sbp-sat-highorder.md 3.2, 3.4; kernels/sbp_wide.cl, src/sbp/rhs.c)
   is, per H_f, cn Gamma = cn (2/theta_R + cn / (alpha psi)) / hr with cn = crr on the face and psi the least crr over the first l lines;
   divided by sJ = y_s as the traction is (src/sbp/traction.c). theta_R, alpha and l are the order's (1/2, 1, 2 at order 2: kernels/sbp.cl's
   c0 (4 + c0 / min(c0, c1)) / hr; 17/48, 0.5776, 4 at order 4; 13649/43200, 0.3697, 7 at order 6). */
static PetscReal SeasFacePenalty(SbpProblem p, const PetscReal tab[], PetscInt j, PetscReal sJ)
{
  const PetscReal cn  = p->crr[SbpPatchIndex(p, 0, j)];
  PetscReal       psi = cn;

  for (PetscInt m = 1; m < (PetscInt)tab[SBP_T_L]; m++) psi = PetscMin(psi, p->crr[SbpPatchIndex(p, m, j)]);
  return cn * (2 / tab[SBP_T_THETA] + cn / (tab[SBP_T_ALPHA] * psi)) / (p->hr * sJ);
}

/* The fault: the depths of face 1's nodes, the frictional ones (z <= Wf), a(z), the SAT penalty coefficient kc (SeasFacePenalty()),
   and the vectors of the state. */
static PetscErrorCode SeasSetUpFault(Seas s)
{
  MPI_Comm         comm = PetscObjectComm((PetscObject)s);
  SbpProblem       p    = s->p;
  PetscScalar     *aa, *ka, *xa;
  PetscReal        dzmax = 0, pz;
  const PetscReal *tab;
  Vec              proto;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(s->nface, &s->z));
  s->nf = 0;
  for (PetscInt j = 0; j < s->nface; j++) {
    PetscReal X[6];
    PetscCall(SeasMapping(s, -1, -1 + j * p->hs, X));
    s->z[j] = X[1];
    if (X[1] <= s->Wf * (1 + 1e-12)) s->nf = j + 1;
    if (j > 0 && s->z[j - 1] < s->H + s->h) dzmax = PetscMax(dzmax, s->z[j] - s->z[j - 1]);
  }
  pz = s->mu * s->fr.Dc / (s->fr.b * s->fr.sigma_n);
  if (dzmax > pz / 2)
    PetscCall(PetscPrintf(comm,
                          "WARNING: the fault spacing reaches %g m above H + h = %g m, coarse for the process zone mu Dc/(b sigma_n) = %g m (want <= %g m)\n",
                          (double)dzmax, (double)(s->H + s->h), (double)pz, (double)(pz / 2)));
  PetscCall(SbpProblemCreateFaceVector(p, 1, &s->t));
  if (p->use_device)
    PetscCall(VecCreateSeqOpenCLWithContext(PETSC_COMM_SELF, p->cl, s->nf, &proto));
  else
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, s->nf, &proto));
  PetscCall(VecDuplicate(proto, &s->avec));
  PetscCall(VecDuplicate(proto, &s->kc));
  PetscCall(VecDuplicate(proto, &s->Vg));
  PetscCall(VecDuplicate(proto, &s->tau));
  PetscCall(VecDestroy(&proto));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2 * s->nf, &s->X)); /* the TS's vectors on the host (docs/seas.md "How a stage is computed") */
  PetscCall(VecDuplicate(s->X, &s->Xlast));
  if (p->use_device) {
    PetscCall(VecCreateSeqOpenCLWithContext(PETSC_COMM_SELF, p->cl, 2 * s->nf, &s->Xd));
    PetscCall(VecDuplicate(s->Xd, &s->Fd));
  }
  PetscCall(SbpProblemGetHostCoefficients(p));
  PetscCall(SbpProblemGetOrderTable(p, &tab, NULL));
  PetscCall(PetscMalloc1(s->nf, &s->ahost));
  PetscCall(VecGetArrayWrite(s->avec, &aa));
  PetscCall(VecGetArrayWrite(s->kc, &ka));
  PetscCall(VecGetArrayWrite(s->X, &xa));
  for (PetscInt j = 0; j < s->nf; j++) {
    const PetscReal z = s->z[j], a = z < s->H ? s->a0 : z < s->H + s->h ? s->a0 + (s->amax - s->a0) * (z - s->H) / s->h : s->amax;
    PetscReal       X[6];

    PetscCall(SeasMapping(s, -1, -1 + j * p->hs, X));
    aa[j]         = a;
    s->ahost[j]   = a;
    ka[j]         = SeasFacePenalty(p, tab, j, X[5]); /* sJ = y_s: face 1 is x = 0 */
    xa[j]         = a * PetscLogReal(2 * s->fr.V0 / s->Vinit * PetscSinhReal((s->tau0 - s->fr.eta * s->Vinit) / (a * s->fr.sigma_n)));
    xa[s->nf + j] = 0;
  }
  PetscCall(VecRestoreArrayWrite(s->X, &xa));
  PetscCall(VecRestoreArrayWrite(s->kc, &ka));
  PetscCall(VecRestoreArrayWrite(s->avec, &aa));
  PetscCall(VecSet(s->Vg, s->Vinit));
  PetscCall(SeasFrictionCheck(comm, &s->fr, s->avec));
  if (p->use_device) PetscCall(SeasFrictionGetKernels(&s->fr, p->cl, &s->k));
  PetscFunctionReturn(0);
}

/* The options that are not the friction's (SeasFrictionCheck()), each > 0 (H >= 0), Wf within the domain. */
static PetscErrorCode SeasCheckPositiveOptions(Seas s)
{
  MPI_Comm        comm   = PetscObjectComm((PetscObject)s);
  const char     *name[] = {"-seas_rho", "-seas_cs", "-seas_vp", "-seas_vinit", "-seas_a0", "-seas_amax", "-seas_hw"};
  const PetscReal v[]    = {s->rho, s->cs, s->Vp, s->Vinit, s->a0, s->amax, s->h};

  PetscFunctionBegin;
  for (int q = 0; q < 7; q++)
    PetscCheck(PetscIsNormalReal(v[q]) && v[q] > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "%s %g must be finite and > 0", name[q], (double)v[q]);
  PetscCheck(s->H >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-seas_h %g must be >= 0", (double)s->H);
  PetscCheck(s->Wf > 0 && s->Wf <= s->L[1], comm, PETSC_ERR_ARG_OUTOFRANGE, "-seas_wf %g must be > 0 and within the domain's depth Lz = %g", (double)s->Wf,
             (double)s->L[1]);
  PetscFunctionReturn(0);
}

/* SeasSetUp()'s first part (src/seas/run.c makes the TS): the checks, the grid, the fault and its initial state, the KSP set up once. */
PetscErrorCode SeasSetUpProblem(Seas s)
{
  MPI_Comm    comm;
  PetscMPIInt size;
  PC          pc;

  PetscFunctionBegin;
  comm = PetscObjectComm((PetscObject)s);
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCheck(size == 1, comm, PETSC_ERR_SUP, "The earthquake-cycle driver runs on one MPI rank (the fault's face values are read on it), not %d", (int)size);
  PetscCall(SeasCheckPositiveOptions(s));
  s->mu     = s->rho * s->cs * s->cs;
  s->fr.eta = s->mu / (2 * s->cs);
  PetscCall(SeasFrictionCheck(comm, &s->fr, NULL));
  s->tau0 =
      s->fr.sigma_n * s->amax * PetscAsinhReal(s->Vinit / (2 * s->fr.V0) * PetscExpReal((s->fr.f0 + s->fr.b * PetscLogReal(s->fr.V0 / s->Vinit)) / s->amax)) +
      s->fr.eta * s->Vinit;
  PetscCall(SeasSetUpGrid(s));
  PetscCall(SeasSetUpFault(s));
  PetscCall(SbpProblemCreateOperator(s->p, &s->A));
  PetscCall(MatCreateVecs(s->A, &s->u, &s->b));
  PetscCall(VecSet(s->u, 0));
  PetscCall(KSPCreate(comm, &s->ksp));
  PetscCall(KSPSetOptionsPrefix(s->ksp, ((PetscObject)s)->prefix));
  PetscCall(KSPSetOperators(s->ksp, s->A, s->A));
  PetscCall(KSPSetType(s->ksp, KSPCG));
  PetscCall(KSPGetPC(s->ksp, &pc));
  PetscCall(PCSetType(pc, PCSBPMG));
  PetscCall(KSPSetNormType(s->ksp, KSP_NORM_UNPRECONDITIONED)); /* a warm start's test against ||b||, not ||B b|| (examples/sbp_timeseries.c) */
  { /* the absolute tolerance: 1e-10 of ||b|| for a year of plate loading (face 2 at Vp yr / 2), so that a right-hand side of
       round-off size (a step rolled back to t = 0) meets its test; no divergence test (CG on an SPD operator) */
    PetscReal bscale;
    for (PetscInt j = 0; j < s->nface; j++) s->gface[s->nface + j] = s->Vp * SEAS_YEAR / 2;
    PetscCall(SbpProblemSetBoundaryValues(s->p, 2, SBP_BC_DIRICHLET, s->nface, s->gface + s->nface));
    PetscCall(SbpProblemComputeRHS(s->p, s->b));
    PetscCall(VecNorm(s->b, NORM_2, &bscale));
    PetscCall(KSPSetTolerances(s->ksp, 1e-10, 1e-10 * bscale, 1e300, 1000));
  }
  PetscCall(KSPSetInitialGuessNonzero(s->ksp, PETSC_TRUE));
  PetscCall(KSPSetFromOptions(s->ksp));
  PetscCall(KSPSetUp(s->ksp));
  PetscFunctionReturn(0);
}

/*@C
   SeasView - The simulation's grid, fault and parameters.

   Collective

   Level: beginner
@*/
PetscErrorCode SeasView(Seas s, PetscViewer v)
{
  PetscBool ascii;
  PetscInt  order;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, SEAS_CLASSID, 1);
  if (!v) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)s), &v));
  PetscCall(PetscObjectTypeCompare((PetscObject)v, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(0);
  PetscCall(
      PetscViewerASCIIPrintf(v, "Seas Object:%s%s\n", ((PetscObject)s)->prefix ? " prefix " : "", ((PetscObject)s)->prefix ? ((PetscObject)s)->prefix : ""));
  PetscCall(PetscViewerASCIIPushTab(v));
  if (s->p)
    order = s->p->order;
  else
    PetscCall(SeasGetOrderOption(s, &order));
  PetscCall(PetscViewerASCIIPrintf(
      v, "SEAS BP1-QD: domain %g x %g km, grid %" PetscInt_FMT " x %" PetscInt_FMT ", stretching lengths %g, %g m; SBP-SAT order %" PetscInt_FMT "\n",
      (double)(s->L[0] / 1e3), (double)(s->L[1] / 1e3), s->N[0], s->N[1], (double)s->l[0], (double)s->l[1], order));
  if (s->setupcalled) {
    PetscReal dz0 = s->z[1] - s->z[0], dzw = s->z[s->nf - 1] - s->z[s->nf - 2];
    PetscCall(PetscViewerASCIIPrintf(
        v, "fault: %" PetscInt_FMT " nodes down to Wf = %g km, spacing %g m at the surface, %g m at Wf; tau0 = %.6g MPa, eta = %.6g MPa s/m\n", s->nf,
        (double)(s->Wf / 1e3), (double)dz0, (double)dzw, (double)(s->tau0 / 1e6), (double)(s->fr.eta / 1e6)));
  }
  PetscCall(PetscViewerASCIIPrintf(v, "sigma_n %g MPa, a0 %g, amax %g, b %g, Dc %g m, V0 %g m/s, f0 %g, Vp %g m/s, H %g km, h %g km; final time %g years\n",
                                   (double)(s->fr.sigma_n / 1e6), (double)s->a0, (double)s->amax, (double)s->fr.b, (double)s->fr.Dc, (double)s->fr.V0,
                                   (double)s->fr.f0, (double)s->Vp, (double)(s->H / 1e3), (double)(s->h / 1e3), (double)s->tf));
  PetscCall(PetscViewerASCIIPrintf(v, "output: %s\n", s->write ? s->outdir : "none"));
  PetscCall(PetscViewerASCIIPrintf(v, "fault stress: %s\n", s->green ? "the discrete Green's function (-seas_green)" : "one volume solve per stage"));
  PetscCall(PetscViewerASCIIPopTab(v));
  PetscFunctionReturn(0);
}

/*@C
   SeasGetTS - The simulation's TS (after SeasSetUp()). SeasGetKSP - its KSP. SeasGetProblem - its SBP-SAT problem. Borrowed references.

   Level: intermediate
@*/
PetscErrorCode SeasGetTS(Seas s, TS *ts)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, SEAS_CLASSID, 1);
  *ts = s->ts;
  PetscFunctionReturn(0);
}

PetscErrorCode SeasGetKSP(Seas s, KSP *ksp)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, SEAS_CLASSID, 1);
  *ksp = s->ksp;
  PetscFunctionReturn(0);
}

PetscErrorCode SeasGetProblem(Seas s, SbpProblem *p)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, SEAS_CLASSID, 1);
  *p = s->p;
  PetscFunctionReturn(0);
}

/*@C
   SeasDestroy - Destroy the simulation (its files closed).

   Collective

   Level: beginner
@*/
PetscErrorCode SeasDestroy(Seas *seas)
{
  Seas s;

  PetscFunctionBegin;
  if (!*seas) PetscFunctionReturn(0);
  s = *seas;
  PetscValidHeaderSpecific(s, SEAS_CLASSID, 1);
  if (--((PetscObject)s)->refct > 0) {
    *seas = NULL;
    PetscFunctionReturn(0);
  }
  PetscCall(SeasOutputClose(s));
  PetscCall(SeasGreenDestroy(s));
  PetscCall(SeasGuessDestroy(s));
  PetscCall(TSDestroy(&s->ts));
  PetscCall(KSPDestroy(&s->ksp));
  PetscCall(MatDestroy(&s->A));
  PetscCall(VecDestroy(&s->u));
  PetscCall(VecDestroy(&s->b));
  PetscCall(VecDestroy(&s->X));
  PetscCall(VecDestroy(&s->Xlast));
  PetscCall(VecDestroy(&s->Xd));
  PetscCall(VecDestroy(&s->Fd));
  PetscCall(VecDestroy(&s->avec));
  PetscCall(VecDestroy(&s->kc));
  PetscCall(VecDestroy(&s->Vg));
  PetscCall(VecDestroy(&s->t));
  PetscCall(VecDestroy(&s->tau));
  PetscCall(VecDestroy(&s->F));
  PetscCall(SeasFrictionDestroyKernels(&s->k));
  PetscCall(SbpProblemDestroy(&s->p));
  PetscCall(PetscFree(s->z));
  PetscCall(PetscFree(s->ahost));
  PetscCall(PetscFree(s->gface));
  PetscCall(PetscFree(s->events));
  PetscCall(PetscHeaderDestroy(seas));
  PetscFunctionReturn(0);
}
