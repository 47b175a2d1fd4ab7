/* Convergence and solver study of the SBP-SAT manufactured problem (spec-sbp-sat.md section 7).

     convergence -conv_n 16,32,64,128,256,512,1024 -conv_solvers direct          errors and observed orders
     convergence -conv_n 32,64,128,256,512,1024 -conv_solvers mgcg,gamg,hypre -conv_rtol 1e-8
                                                                                  iterations and times side by side
     convergence -conv_problem own -conv_check_order 2,0.05                       a problem of one's own (below)
   The problem options (-sbp_mapping, -sbp_mu, -sbp_bc, -sbp_backend) apply to every N; -conv_ratio r sets Ns = r Nr.
   -conv_problem own solves a second manufactured problem given entirely through the public data API, as a user brings one:
   u = exp(x) sin(2y) + x y on a warped grid given by its node coordinates, mu = 2 + sin(x) cos(y) given at the nodes, the
   forcing, the faces' Dirichlet values or Neumann fluxes and the exact solution as functions (faces from -sbp_bc, default DNDN).
   Each solver reads its own options with the prefix <solver>_ (for example -gamg_pc_gamg_threshold 0.02).
   Writes <prefix>.csv, <prefix>.md and <prefix>.gp, and with gnuplot (unless -conv_plot 0) <prefix>.png: the errors and the
   iterations against N, two panels, the observed slopes in the legend. */
#include <sbpmg.h>

static const char help[] = "SBP-SAT convergence and solver study.\n"
                           "  -conv_n <list>        grid sizes Nr (default 16,32,64,128,256)\n"
                           "  -conv_ratio <r>       Ns = r Nr (default 1)\n"
                           "  -conv_solvers <list>  any of mgcg (CG + sbpmg, matrix-free), direct (CHOLMOD), gamg, hypre (CG on the assembled matrix)\n"
                           "  -conv_rtol <tol>      relative residual of the iterative solvers (default 1e-10)\n"
                           "  -conv_output <prefix> output files (default convergence)\n"
                           "  -conv_plot <bool>     draw <prefix>.png with gnuplot from <prefix>.gp (default true)\n"
                           "  -conv_problem <p>     builtin (the manufactured problem of the library) or own (one brought through the data API)\n"
                           "  -conv_check_order <o,tol>  fail unless the last observed order in ||e||_H is within tol of o\n";

typedef enum { PROBLEM_BUILTIN, PROBLEM_OWN } ProblemKind;
static const char *const ProblemNames[] = {"builtin", "own", "ProblemKind", "PROBLEM_", NULL};

typedef enum { SOLVER_MGCG, SOLVER_DIRECT, SOLVER_GAMG, SOLVER_HYPRE } Solver;
static const char *const SolverNames[] = {"mgcg", "direct", "gamg", "hypre", "Solver", "SOLVER_", NULL};

typedef struct {
  PetscInt  Nr, Ns, its;
  Solver    solver;
  PetscReal eH, eJH, tsetup, tsolve;
} Row;

static PetscErrorCode DeviceSync(SbpProblem p)
{
  SbpBackend b;

  PetscFunctionBeginUser;
  PetscCall(SbpProblemGetBackend(p, &b));
  if (b == SBP_BACKEND_DEVICE) {
    SbpmgCL cl;
    PetscCall(SbpmgCLGetDefault(&cl));
    PetscCall(SbpmgCLFinish(cl));
  }
  PetscFunctionReturn(0);
}

/* The KSP and PC of each solver */
static const struct {
  KSPType ksp;
  PCType  pc;
} SolverTypes[] = {
    [SOLVER_MGCG]   = {KSPCG, PCSBPMG},
    [SOLVER_DIRECT] = {KSPPREONLY, PCCHOLESKY},
    [SOLVER_GAMG]   = {KSPCG, PCGAMG},
    [SOLVER_HYPRE]  = {KSPCG, PCHYPRE},
};

/* The solver on A to the relative residual rtol, its options under the prefix <solver>_, set up */
static PetscErrorCode CreateSolver(Solver solver, Mat A, PetscReal rtol, KSP *ksp)
{
  PC   pc;
  char prefix[32];

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, ksp));
  PetscCall(KSPSetOperators(*ksp, A, A));
  PetscCall(KSPGetPC(*ksp, &pc));
  PetscCall(KSPSetTolerances(*ksp, rtol, 1e-300, PETSC_DEFAULT, 10000));
  PetscCall(KSPSetType(*ksp, SolverTypes[solver].ksp));
  PetscCall(PCSetType(pc, SolverTypes[solver].pc));
  if (solver == SOLVER_DIRECT) PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERCHOLMOD));
  if (solver == SOLVER_HYPRE) PetscCall(PCHYPRESetType(pc, "boomeramg"));
  PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "%s_", SolverNames[solver]));
  PetscCall(KSPSetOptionsPrefix(*ksp, prefix));
  PetscCall(KSPSetFromOptions(*ksp));
  PetscCall(KSPSetUp(*ksp));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- a problem of one's own, through the public API */

/* The grid: x = r + 0.1 sin(pi s), y = s + 0.1 sin(pi r) at the node (r, s) = (-1 + 2i/Nr, -1 + 2j/Ns); J = 1 - 0.01 pi^2 cos cos > 0. */
static void OwnMap(PetscReal r, PetscReal s, PetscReal *x, PetscReal *y)
{
  *x = r + 0.1 * PetscSinReal(PETSC_PI * s);
  *y = s + 0.1 * PetscSinReal(PETSC_PI * r);
}

static PetscReal OwnMu(PetscReal x, PetscReal y, PetscReal *mux, PetscReal *muy)
{
  *mux = PetscCosReal(x) * PetscCosReal(y);
  *muy = -PetscSinReal(x) * PetscSinReal(y);
  return 2 + PetscSinReal(x) * PetscCosReal(y);
}

/* u = exp(x) sin(2y) + x y, its gradient and Laplacian */
static PetscReal OwnU(PetscReal x, PetscReal y, PetscReal *ux, PetscReal *uy, PetscReal *lap)
{
  *ux  = PetscExpReal(x) * PetscSinReal(2 * y) + y;
  *uy  = 2 * PetscExpReal(x) * PetscCosReal(2 * y) + x;
  *lap = -3 * PetscExpReal(x) * PetscSinReal(2 * y);
  return PetscExpReal(x) * PetscSinReal(2 * y) + x * y;
}

static PetscErrorCode OwnForcing(void *ctx, PetscReal x, PetscReal y, PetscReal *f)
{
  PetscReal mux, muy, ux, uy, lap, mu = OwnMu(x, y, &mux, &muy);

  OwnU(x, y, &ux, &uy, &lap);
  *f = -(mux * ux + muy * uy + mu * lap); /* -div(mu grad u) */
  return 0;
}

static PetscErrorCode OwnBoundary(void *ctx, PetscInt face, PetscReal x, PetscReal y, PetscReal nx, PetscReal ny, PetscReal *g)
{
  const SbpBCType *bc = (const SbpBCType *)ctx;
  PetscReal        mux, muy, ux, uy, lap, mu = OwnMu(x, y, &mux, &muy), u = OwnU(x, y, &ux, &uy, &lap);

  *g = bc[face - 1] == SBP_BC_DIRICHLET ? u : mu * (nx * ux + ny * uy);
  return 0;
}

static PetscErrorCode OwnExact(void *ctx, PetscReal x, PetscReal y, PetscReal *u)
{
  PetscReal ux, uy, lap;

  *u = OwnU(x, y, &ux, &uy, &lap);
  return 0;
}

/* The own problem's data into p (sizes and faces set): the node coordinates and mu as arrays, the rest as functions. */
static PetscErrorCode GiveOwnProblem(SbpProblem p, SbpBCType bc[4])
{
  PetscInt   Nr, Ns, n;
  PetscReal *x, *y, *mu;

  PetscFunctionBeginUser;
  PetscCall(SbpProblemGetSizes(p, &Nr, &Ns));
  n = (Nr + 1) * (Ns + 1);
  PetscCall(PetscMalloc3(n, &x, n, &y, n, &mu));
  for (PetscInt j = 0; j <= Ns; j++)
    for (PetscInt i = 0; i <= Nr; i++) {
      PetscInt  k = i + (Nr + 1) * j;
      PetscReal mux, muy;
      OwnMap(-1 + 2.0 * i / Nr, -1 + 2.0 * j / Ns, &x[k], &y[k]);
      mu[k] = OwnMu(x[k], y[k], &mux, &muy);
    }
  PetscCall(SbpProblemSetNodeCoordinatesArrays(p, n, x, y));
  PetscCall(SbpProblemSetMuArray(p, n, mu));
  PetscCall(PetscFree3(x, y, mu));
  for (PetscInt f = 1; f <= 4; f++) PetscCall(SbpProblemGetBC(p, f, &bc[f - 1]));
  PetscCall(SbpProblemSetForcingFunction(p, OwnForcing, NULL));
  for (PetscInt f = 1; f <= 4; f++) PetscCall(SbpProblemSetBoundaryFunction(p, f, bc[f - 1], OwnBoundary, bc));
  PetscCall(SbpProblemSetExactSolution(p, OwnExact, NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode RunOne(ProblemKind kind, Solver solver, PetscInt Nr, PetscInt Ns, PetscReal rtol, Row *row)
{
  SbpBCType          bc[4]; /* the own problem's faces, read by its boundary function until the problem is destroyed */
  SbpProblem         p;
  Mat                A;
  Vec                u, g;
  KSP                ksp;
  PetscLogDouble     t0, t1, t2;
  KSPConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(PetscTime(&t0));
  PetscCall(SbpProblemCreate(PETSC_COMM_WORLD, &p));
  if (kind == PROBLEM_OWN) { /* its default faces; -sbp_bc may change them */
    for (PetscInt f = 1; f <= 4; f++) PetscCall(SbpProblemSetBC(p, f, f % 2 ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN));
  }
  PetscCall(SbpProblemSetFromOptions(p));
  PetscCall(SbpProblemSetSizes(p, Nr, Ns));
  if (kind == PROBLEM_OWN) PetscCall(GiveOwnProblem(p, bc));
  if (solver != SOLVER_MGCG) PetscCall(SbpProblemSetBackend(p, SBP_BACKEND_HOST));
  PetscCall(SbpProblemSetUp(p));
  if (solver == SOLVER_MGCG)
    PetscCall(SbpProblemCreateOperator(p, &A));
  else
    PetscCall(SbpProblemCreateAssembledOperator(p, &A));
  PetscCall(MatCreateVecs(A, &u, &g));
  PetscCall(SbpProblemComputeRHS(p, g));
  PetscCall(CreateSolver(solver, A, rtol, &ksp));
  PetscCall(DeviceSync(p));
  PetscCall(PetscTime(&t1));
  PetscCall(KSPSolve(ksp, g, u));
  PetscCall(DeviceSync(p));
  PetscCall(PetscTime(&t2));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%s did not converge on %" PetscInt_FMT " x %" PetscInt_FMT ": %s", SolverNames[solver], Nr,
             Ns, KSPConvergedReasons[reason]);
  row->Nr     = Nr;
  row->Ns     = Ns;
  row->solver = solver;
  row->tsetup = t1 - t0;
  row->tsolve = t2 - t1;
  PetscCall(KSPGetIterationNumber(ksp, &row->its));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(SbpProblemComputeError(p, u, &row->eH, &row->eJH));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&g));
  PetscCall(MatDestroy(&A));
  PetscCall(SbpProblemDestroy(&p));
  PetscFunctionReturn(0);
}

/* Observed order between this row and the previous one with the same solver. */
static PetscReal Order(const Row *prev, const Row *cur, PetscBool jh)
{
  if (!prev) return NAN;
  return PetscLogReal((jh ? prev->eJH : prev->eH) / (jh ? cur->eJH : cur->eH)) / PetscLogReal((PetscReal)cur->Nr / prev->Nr);
}

/* The previous row of the same solver, or NULL. */
static const Row *PreviousRow(const Row rows[], PetscInt k)
{
  for (PetscInt q = k - 1; q >= 0; q--)
    if (rows[q].solver == rows[k].solver) return &rows[q];
  return NULL;
}

/* <prefix>.csv (every column) and <prefix>.md (the table of docs/verification.md). */
static PetscErrorCode WriteTables(const char prefix[], const Row rows[], PetscInt nrows, const char title[])
{
  char  path[PETSC_MAX_PATH_LEN];
  FILE *csv, *md;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s.csv", prefix));
  csv = fopen(path, "w");
  PetscCheck(csv, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s", path);
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s.md", prefix));
  md = fopen(path, "w");
  PetscCheck(md, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s", path);
  fprintf(csv, "solver,Nr,Ns,unknowns,error_H,order_H,error_JH,order_JH,iterations,setup_s,solve_s\n");
  fprintf(md, "%s\n\n| solver | Nr x Ns | unknowns | error H | order | error JH | order | iterations | set-up (s) | solve (s) |\n", title);
  fprintf(md, "|---|---|---|---|---|---|---|---|---|---|\n");
  for (PetscInt k = 0; k < nrows; k++) {
    const Row *prev = PreviousRow(rows, k), *r = &rows[k];
    char       oH[16] = "-", oJH[16] = "-";

    fprintf(csv, "%s,%d,%d,%d,%.6e,%.4f,%.6e,%.4f,%d,%.4e,%.4e\n", SolverNames[r->solver], (int)r->Nr, (int)r->Ns, (int)((r->Nr + 1) * (r->Ns + 1)),
            (double)r->eH, (double)Order(prev, r, PETSC_FALSE), (double)r->eJH, (double)Order(prev, r, PETSC_TRUE), (int)r->its, r->tsetup, r->tsolve);
    if (prev) {
      snprintf(oH, sizeof(oH), "%.3f", (double)Order(prev, r, PETSC_FALSE));
      snprintf(oJH, sizeof(oJH), "%.3f", (double)Order(prev, r, PETSC_TRUE));
    }
    fprintf(md, "| %s | %d x %d | %d | %.4e | %s | %.4e | %s | %d | %.3f | %.3f |\n", SolverNames[r->solver], (int)r->Nr, (int)r->Ns,
            (int)((r->Nr + 1) * (r->Ns + 1)), (double)r->eH, oH, (double)r->eJH, oJH, (int)r->its, r->tsetup, r->tsolve);
  }
  fclose(csv);
  fclose(md);
  PetscFunctionReturn(0);
}

/* <prefix>.gp, the gnuplot script of <prefix>.png from <prefix>.csv (`gnuplot <prefix>.gp` draws it again): two panels against Nr,
   the errors (||e||_H solid, ||e||_JH dashed, a slope -2 line) and the iterations, one colour per solver. The legend's slopes are
   computed by gnuplot from the CSV: of the errors between the last two grids (the tables' last order), and the exponent of
   iterations ~ Nr^a by least squares on the logarithms (0: as many iterations on every grid). */
static PetscErrorCode WritePlotScript(const char prefix[], const Solver which[], PetscInt nsolvers, PetscInt nsizes, const char title[])
{
  char        path[PETSC_MAX_PATH_LEN];
  const char *csv = prefix, *sep;
  FILE       *gp;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s.gp", prefix));
  gp = fopen(path, "w");
  PetscCheck(gp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s", path);
  fprintf(gp, "# %s.png from %s.csv, written by verification/convergence (docs/verification.md); run: gnuplot %s.gp\n", prefix, csv, prefix);
  fprintf(gp, "set terminal pngcairo size 720,800 noenhanced font ',9'\nset output '%s.png'\nset datafile separator ','\nimax = 1\n", prefix);
  for (PetscInt s = 0; s < nsolvers && nsizes > 1; s++) {
    const char *n = SolverNames[which[s]];
    fprintf(gp, "n = sx = sy = sxx = sxy = 0; x0 = x1 = y0 = y1 = u0 = u1 = 1\n");
    fprintf(gp, "stats '%s.csv' using (strcol(1) eq '%s' ? (x0 = x1, x1 = $2, y0 = y1, y1 = $5, u0 = u1, u1 = $7, n = n + 1, sx = sx + log($2), ", csv, n);
    fprintf(gp, "sy = sy + log($9), sxx = sxx + log($2)**2, sxy = sxy + log($2) * log($9), imax = imax > $9 ? imax : $9) : NaN) nooutput\n");
    fprintf(gp, "eH_%s = log(y1 / y0) / log(x1 / x0); eJH_%s = log(u1 / u0) / log(x1 / x0); its_%s = (n * sxy - sx * sy) / (n * sxx - sx**2)\n", n, n, n);
    fprintf(gp, "xref = x1; yref = y1\n");
  }
  fprintf(gp, "set multiplot layout 2,1 title '%s'\nset grid\nset logscale x 2\nset xlabel 'Nr (grid intervals in r)'\n", title);
  fprintf(gp, "set logscale y\nset format y '%%.0e'\nset ylabel 'error'\nset key top right\nplot ");
  for (PetscInt s = 0; s < nsolvers; s++) {
    const char *n = SolverNames[which[s]];
    fprintf(gp, "'%s.csv' using 2:(strcol(1) eq '%s' ? $5 : 1/0) with linespoints lc %d pt 7 dt 1 title ", csv, n, (int)s + 1);
    if (nsizes > 1)
      fprintf(gp, "sprintf('%s: slope %%.2f (||e||_H), %%.2f (||e||_JH, dashed), last two grids', eH_%s, eJH_%s), \\\n", n, n, n);
    else
      fprintf(gp, "'%s: ||e||_H, ||e||_JH (dashed)', \\\n", n);
    fprintf(gp, "  '%s.csv' using 2:(strcol(1) eq '%s' ? $7 : 1/0) with linespoints lc %d pt 6 dt 2 notitle, \\\n  ", csv, n, (int)s + 1);
  }
  if (nsizes > 1)
    fprintf(gp, "yref / 4 * (xref / x)**2 with lines dt 3 lc rgb 'gray' title 'slope -2 (reference)'\n");
  else
    fprintf(gp, "1/0 notitle\n");
  fprintf(gp, "unset logscale y\nset format y '%%g'\nset yrange [0:imax * 1.15 + 1]\nset ytics imax > 40 ? 10 : (imax > 16 ? 5 : (imax > 8 ? 2 : 1))\nset "
              "ylabel 'iterations'\nset key top left\nplot ");
  for (PetscInt s = 0; s < nsolvers; s++) {
    const char *n = SolverNames[which[s]];
    sep           = s < nsolvers - 1 ? ", \\\n  " : "\n";
    fprintf(gp, "'%s.csv' using 2:(strcol(1) eq '%s' ? $9 : 1/0) with linespoints lc %d pt 7 title ", csv, n, (int)s + 1);
    if (nsizes > 1)
      fprintf(gp, "sprintf('%s: iterations ~ Nr^%%.2f (least squares)', its_%s)%s", n, n, sep);
    else
      fprintf(gp, "'%s'%s", n, sep);
  }
  fprintf(gp, "unset multiplot\n");
  fclose(gp);
  PetscFunctionReturn(0);
}

/* The tables, the plot's script and, unless -conv_plot 0, the plot (rank 0). */
static PetscErrorCode WriteOutputs(const char prefix[], const Row rows[], PetscInt nrows, const Solver which[], PetscInt nsolvers, PetscBool plot,
                                   const char title[])
{
  char        command[PETSC_MAX_PATH_LEN + 32];
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (rank) PetscFunctionReturn(0);
  PetscCall(WriteTables(prefix, rows, nrows, title));
  PetscCall(WritePlotScript(prefix, which, nsolvers, nrows / nsolvers, title));
  if (!plot) PetscFunctionReturn(0);
  PetscCall(PetscSNPrintf(command, sizeof(command), "gnuplot '%s.gp'", prefix));
  PetscCheck(system(command) == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "gnuplot (Debian package gnuplot-nox) failed: %s", command);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt    ns[32] = {16, 32, 64, 128, 256}, nn = 32, nsolvers = 8, ratio = 1, nrows = 0;
  char        prefix[PETSC_MAX_PATH_LEN] = "convergence", title[256];
  PetscReal   rtol                       = 1e-10;
  PetscBool   plot                       = PETSC_TRUE, set, setn, check;
  PetscReal   expect[3]                  = {2, 0.05, 0}; /* one more than it takes: PETSc drops what does not fit, a third value is refused */
  PetscInt    nexpect                    = 3;
  ProblemKind kind                       = PROBLEM_BUILTIN;
  Solver      which[8]                   = {SOLVER_DIRECT};
  Row        *rows;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SbpmgInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Convergence study", NULL);
  PetscCall(SbpmgOptionsArray(PetscOptionsObject, "-conv_n", "Grid sizes Nr", NULL, PETSC_INT, ns, 5, &nn, &setn));
  PetscCall(PetscOptionsInt("-conv_ratio", "Ns = ratio * Nr", NULL, ratio, &ratio, NULL));
  PetscCall(PetscOptionsEnumArray("-conv_solvers", "Solvers", NULL, SolverNames, (PetscEnum *)which, &nsolvers, &set));
  PetscCall(PetscOptionsReal("-conv_rtol", "Relative residual of the iterative solvers", NULL, rtol, &rtol, NULL));
  PetscCall(PetscOptionsString("-conv_output", "Prefix of the output files", NULL, "convergence", prefix, sizeof(prefix), NULL));
  PetscCall(PetscOptionsBool("-conv_plot", "Draw <prefix>.png from <prefix>.gp with gnuplot", NULL, plot, &plot, NULL));
  PetscCall(PetscOptionsEnum("-conv_problem", "The problem", NULL, ProblemNames, (PetscEnum)kind, (PetscEnum *)&kind, NULL));
  PetscCall(PetscOptionsRealArray("-conv_check_order", "Fail unless the last order in ||e||_H is within tol of o: o,tol", NULL, expect, &nexpect, &check));
  PetscOptionsEnd();
  PetscCheck(!check || nexpect == 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_SIZ, "-conv_check_order takes 2 values (order,tolerance); got %" PetscInt_FMT, nexpect);
  PetscCheck(!setn || nn <= 32, PETSC_COMM_WORLD, PETSC_ERR_ARG_SIZ, "-conv_n takes at most 32 grid sizes; got more"); /* SbpmgOptionsArray(): 33 */
  if (!setn) nn = 5;
  if (!set) nsolvers = 1; /* direct */
  PetscCheck(ratio >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-conv_ratio %" PetscInt_FMT " must be >= 1", ratio);
  {
    char mapping[32] = "curved", mu[32] = "basin", bc[8] = "DDNN";
    if (kind == PROBLEM_OWN) PetscCall(PetscStrcpy(bc, "DNDN"));
    PetscCall(PetscOptionsGetString(NULL, NULL, "-sbp_mapping", mapping, sizeof(mapping), NULL));
    PetscCall(PetscOptionsGetString(NULL, NULL, "-sbp_mu", mu, sizeof(mu), NULL));
    PetscCall(PetscOptionsGetString(NULL, NULL, "-sbp_bc", bc, sizeof(bc), NULL));
    if (kind == PROBLEM_OWN)
      PetscCall(PetscSNPrintf(title, sizeof(title), "Data API: u = exp(x) sin(2y) + x y, node grid, mu = 2 + sin(x) cos(y) at the nodes, faces %s, Ns = %d Nr",
                              bc, (int)ratio));
    else
      PetscCall(PetscSNPrintf(title, sizeof(title), "SBP-SAT manufactured solution: mapping %s, mu %s, faces %s, Ns = %d Nr", mapping, mu, bc, (int)ratio));
  }
  PetscCall(PetscMalloc1(nn * nsolvers, &rows));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n%-7s %11s %12s %7s %12s %7s %6s %10s %10s\n", title, "solver", "Nr x Ns", "error H", "order", "error JH",
                        "order", "its", "set-up s", "solve s"));
  for (PetscInt s = 0; s < nsolvers; s++)
    for (PetscInt k = 0; k < nn; k++) {
      Row *r = &rows[nrows];
      PetscCall(RunOne(kind, which[s], ns[k], ratio * ns[k], rtol, r));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-7s %5d x %-5d %12.4e %7.3f %12.4e %7.3f %6d %10.4f %10.4f\n", SolverNames[r->solver], (int)r->Nr, (int)r->Ns,
                            (double)r->eH, k ? (double)Order(r - 1, r, PETSC_FALSE) : 0.0, (double)r->eJH, k ? (double)Order(r - 1, r, PETSC_TRUE) : 0.0,
                            (int)r->its, r->tsetup, r->tsolve));
      nrows++;
    }
  PetscCall(WriteOutputs(prefix, rows, nrows, which, nsolvers, plot, title));
  if (check) { /* the last pair of the first solver */
    PetscInt last = 0;
    while (last + 1 < nrows && rows[last + 1].solver == rows[0].solver) last++;
    PetscCheck(last > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_SIZ, "-conv_check_order needs at least two sizes (-conv_n)");
    {
      PetscReal order = Order(&rows[last - 1], &rows[last], PETSC_FALSE);
      PetscCheck(PetscAbsReal(order - expect[0]) <= expect[1], PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED,
                 "The observed order %.4f in ||e||_H from Nr = %" PetscInt_FMT " to %" PetscInt_FMT " is not within %g of %g", (double)order, rows[last - 1].Nr,
                 rows[last].Nr, (double)expect[1], (double)expect[0]);
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "order check: %.4f within %g of %g\n", (double)order, (double)expect[1], (double)expect[0]));
    }
  }
  PetscCall(PetscFree(rows));
  PetscCall(PetscFinalize());
  return 0;
}
