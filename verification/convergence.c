/* Convergence and solver study of the SBP-SAT manufactured problem (spec-sbp-sat.md section 7; orders 4 and 6:
   spec-sbp-sat-highorder.md).

     convergence -conv_n 16,32,64,128,256,512,1024 -conv_solvers direct          errors and observed orders
     convergence -conv_n 32,64,128,256,512,1024 -conv_solvers mgcg,gamg,hypre -conv_rtol 1e-8
                                                                                  iterations and times side by side
     convergence -conv_order 2,4,6 -conv_n 16,32,64,128,256 -conv_solvers direct,mgcg
                                                                                  the SBP orders side by side: error against N
                                                                                  and against time to solution
     convergence -conv_order 2,4 -conv_n 16,32 -conv_check_orders 2,4,0.6         every order's observed order checked
     convergence -conv_problem own -conv_check_order 2,0.05                       a problem of one's own (below)
   The problem options (-sbp_mapping, -sbp_mu, -sbp_bc, -sbp_backend) apply to every N; -conv_ratio r sets Ns = r Nr.
   -conv_order p_1,...,p_k runs every (order, solver, N) combination, orders outermost (default: -sbp_order's value, else 2); a
   size below an order's minimum (2, 11, 17 intervals for p = 2, 4, 6) is skipped for that order with a note, so one -conv_n serves
   all orders. The observed orders are those between consecutive sizes of the same (order, solver), a series.
   -conv_problem own solves a second manufactured problem given entirely through the public data API, as a user brings one:
   u = exp(x) sin(2y) + x y on a warped grid given by its node coordinates, mu = 2 + sin(x) cos(y) given at the nodes, the
   forcing, the faces' Dirichlet values or Neumann fluxes and the exact solution as functions (faces from -sbp_bc, default DNDN).
   Each solver reads its own options with the prefix <solver>_ (for example -gamg_pc_gamg_threshold 0.02).
   Writes <prefix>.csv (the SBP order in the last column, sbp_order), <prefix>.md, <prefix>.gp and <prefix>-time.gp, and with
   gnuplot (unless -conv_plot 0) <prefix>.png: the errors and the iterations against N, two panels, one line per series, the
   observed slopes (least squares and last two grids) in the legend; and <prefix>-time.png: ||e||_H against the time to solution
   (set-up + solve) per series, each point marked with its Nr, the chart to choose an order by. A study of order 2 alone names its
   series by the solver only, as before the orders came. The times of a solver's first grid at an order include compiling its
   kernels when PoCL's cache is cold (seconds for mgcg at orders 4 and 6): run the study twice when the times matter. */
#include <sbpmg.h>

static const char help[] = "SBP-SAT convergence and solver study.\n"
                           "  -conv_n <list>        grid sizes Nr (default 16,32,64,128,256)\n"
                           "  -conv_ratio <r>       Ns = r Nr (default 1)\n"
                           "  -conv_order <list>    SBP orders, any of 2,4,6 (default -sbp_order's, else 2); sizes below an order's\n"
                           "                        minimum (11 intervals at 4, 17 at 6) are skipped for it\n"
                           "  -conv_solvers <list>  any of mgcg (CG + sbpmg, matrix-free), direct (CHOLMOD), gamg, hypre (CG on the assembled matrix)\n"
                           "  -conv_rtol <tol>      relative residual of the iterative solvers (default 1e-10)\n"
                           "  -conv_output <prefix> output files (default convergence)\n"
                           "  -conv_plot <bool>     draw <prefix>.png and <prefix>-time.png with gnuplot (default true)\n"
                           "  -conv_problem <p>     builtin (the manufactured problem of the library) or own (one brought through the data API)\n"
                           "  -conv_check_order <o,tol>  fail unless the last observed order in ||e||_H of the first series (first order,\n"
                           "                        first solver) is within tol of o\n"
                           "  -conv_check_orders <o_1,...,o_k[,tol]>  one expected order per entry of -conv_order: fail unless the last\n"
                           "                        observed order in ||e||_H of every solver at that order is within tol of it (tol: the\n"
                           "                        last value if k + 1 are given, else -conv_check_order's, default 0.05)\n"
                           "  Examples: -conv_order 2,4,6 -conv_n 16,32,64,128,256 -conv_solvers direct,mgcg\n"
                           "            -conv_order 2,4 -conv_n 16,32 -conv_solvers direct -conv_check_orders 2,4,0.6\n";

typedef enum { PROBLEM_BUILTIN, PROBLEM_OWN } ProblemKind;
static const char *const ProblemNames[] = {"builtin", "own", "ProblemKind", "PROBLEM_", NULL};

typedef enum { SOLVER_MGCG, SOLVER_DIRECT, SOLVER_GAMG, SOLVER_HYPRE } Solver;
static const char *const SolverNames[] = {"mgcg", "direct", "gamg", "hypre", "Solver", "SOLVER_", NULL};

typedef struct {
  PetscInt  order, Nr, Ns, its;
  Solver    solver;
  PetscReal eH, eJH, tsetup, tsolve;
} Row;

/* A series: the rows of one (order, solver), consecutive in the rows; its name in the legends (label) and in gnuplot (ident) */
typedef struct {
  PetscInt order, first, count;
  Solver   solver;
  char     label[16], ident[16];
} Series;

/* The study's options */
typedef struct {
  PetscInt    ns[32], nn, orders[8], norders, nsolvers, ratio, nexpect, nexpects;
  Solver      which[8];
  char        prefix[PETSC_MAX_PATH_LEN], title[256];
  PetscReal   rtol, expect[3], expects[9];
  PetscBool   plot, check, checks;
  ProblemKind kind;
} Study;

/* The fewest intervals in each direction of an SBP order */
static PetscInt MinIntervals(PetscInt order)
{
  return order == 6 ? 17 : (order == 4 ? 11 : 2);
}

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

static PetscErrorCode RunOne(ProblemKind kind, PetscInt order, Solver solver, PetscInt Nr, PetscInt Ns, PetscReal rtol, Row *row)
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
  PetscCall(SbpProblemSetOrder(p, order)); /* the study's, over -sbp_order */
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
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED,
             "%s did not converge at order %" PetscInt_FMT " on %" PetscInt_FMT " x %" PetscInt_FMT ": %s", SolverNames[solver], order, Nr, Ns,
             KSPConvergedReasons[reason]);
  row->order  = order;
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

/* Observed order between this row and the previous one of the same series. */
static PetscReal Order(const Row *prev, const Row *cur, PetscBool jh)
{
  if (!prev) return NAN;
  return PetscLogReal((jh ? prev->eJH : prev->eH) / (jh ? cur->eJH : cur->eH)) / PetscLogReal((PetscReal)cur->Nr / prev->Nr);
}

/* The previous row of the same series (order and solver), or NULL. */
static const Row *PreviousRow(const Row rows[], PetscInt k)
{
  for (PetscInt q = k - 1; q >= 0; q--)
    if (rows[q].solver == rows[k].solver && rows[q].order == rows[k].order) return &rows[q];
  return NULL;
}

/* <prefix>.csv (every column, the order last so that the earlier columns keep their places) and <prefix>.md (the table of
   docs/verification.md). */
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
  fprintf(csv, "solver,Nr,Ns,unknowns,error_H,order_H,error_JH,order_JH,iterations,setup_s,solve_s,sbp_order\n");
  fprintf(md, "%s\n\n| solver | p | Nr x Ns | unknowns | error H | order | error JH | order | iterations | set-up (s) | solve (s) |\n", title);
  fprintf(md, "|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (PetscInt k = 0; k < nrows; k++) {
    const Row *prev = PreviousRow(rows, k), *r = &rows[k];
    char       oH[16] = "-", oJH[16] = "-";

    fprintf(csv, "%s,%d,%d,%d,%.6e,%.4f,%.6e,%.4f,%d,%.4e,%.4e,%d\n", SolverNames[r->solver], (int)r->Nr, (int)r->Ns, (int)((r->Nr + 1) * (r->Ns + 1)),
            (double)r->eH, (double)Order(prev, r, PETSC_FALSE), (double)r->eJH, (double)Order(prev, r, PETSC_TRUE), (int)r->its, r->tsetup, r->tsolve,
            (int)r->order);
    if (prev) {
      snprintf(oH, sizeof(oH), "%.3f", (double)Order(prev, r, PETSC_FALSE));
      snprintf(oJH, sizeof(oJH), "%.3f", (double)Order(prev, r, PETSC_TRUE));
    }
    fprintf(md, "| %s | %d | %d x %d | %d | %.4e | %s | %.4e | %s | %d | %.3f | %.3f |\n", SolverNames[r->solver], (int)r->order, (int)r->Nr, (int)r->Ns,
            (int)((r->Nr + 1) * (r->Ns + 1)), (double)r->eH, oH, (double)r->eJH, oJH, (int)r->its, r->tsetup, r->tsolve);
  }
  fclose(csv);
  fclose(md);
  PetscFunctionReturn(0);
}

/* gnuplot's point type of each solver (filled; the one before it is the same one open), so that solvers of equal errors show */
static const int SolverPoint[] = {[SOLVER_MGCG] = 7, [SOLVER_DIRECT] = 5, [SOLVER_GAMG] = 9, [SOLVER_HYPRE] = 13};

/* gnuplot's test that a CSV line belongs to the series */
static void SeriesFilter(const Series *S, char buf[], size_t len)
{
  snprintf(buf, len, "(strcol(1) eq '%s' && $12 == %d)", SolverNames[S->solver], (int)S->order);
}

/* The series' slopes from the CSV, by gnuplot: eH_<ident> and eJH_<ident> of the errors between the last two grids (the tables'
   last order), lsH_<ident> of ||e||_H by least squares on the logarithms, its_<ident> the exponent of iterations ~ Nr^a by least
   squares (0: as many iterations on every grid); xref_p<order> and yref_p<order> place the order's reference line; imax, emin and
   emax, over every series, the axes. */
static void WriteSlopes(FILE *gp, const char csv[], const Series *S)
{
  const char *n = S->ident;
  char        f[64];

  SeriesFilter(S, f, sizeof(f));
  fprintf(gp, "n = sx = sy = sxx = sxy = se = sxe = 0; x0 = x1 = y0 = y1 = u0 = u1 = 1\n");
  fprintf(gp, "stats '%s.csv' using (%s ? (x0 = x1, x1 = $2, y0 = y1, y1 = $5, u0 = u1, u1 = $7, n = n + 1, sx = sx + log($2), ", csv, f);
  fprintf(gp, "sy = sy + log($9), sxx = sxx + log($2)**2, sxy = sxy + log($2) * log($9), se = se + log($5), sxe = sxe + log($2) * log($5), ");
  fprintf(gp, "emin = emin < $7 ? emin : $7, emin = emin < $5 ? emin : $5, emax = emax > $5 ? emax : $5, emax = emax > $7 ? emax : $7, ");
  fprintf(gp, "imax = imax > $9 ? imax : $9) : NaN) nooutput\n");
  if (S->count < 2) return;
  fprintf(gp, "eH_%s = log(y1 / y0) / log(x1 / x0); eJH_%s = log(u1 / u0) / log(x1 / x0); its_%s = (n * sxy - sx * sy) / (n * sxx - sx**2)\n", n, n, n);
  fprintf(gp, "lsH_%s = (n * sxe - sx * se) / (n * sxx - sx**2)\n", n);
  fprintf(gp, "xref_p%d = x1; yref_p%d = y1\n", (int)S->order, (int)S->order);
}

/* The errors' panel: ||e||_H solid, ||e||_JH dashed, one colour per series, a slope -p line per order. The legend, at the bottom
   left, gets room below the data: a fraction (lines + 1) * 12 px / 330 px of the panel's height. */
static void WriteErrorPanel(FILE *gp, const char csv[], const Series series[], PetscInt nseries)
{
  PetscBool ref[7] = {PETSC_FALSE};
  PetscInt  nkey   = nseries;
  char      f[64];

  for (PetscInt s = 0; s < nseries; s++) ref[series[s].order] = (PetscBool)(ref[series[s].order] || series[s].count > 1);
  for (PetscInt o = 2; o <= 6; o += 2) nkey += ref[o];
  fprintf(gp, "kf = %d * 12.0 / 330; kf = kf < 0.7 ? kf : 0.7\nset yrange [emin / (emax / emin)**(kf / (1 - kf)) : emax * 1.5]\n", (int)nkey + 2);
  fprintf(gp, "set logscale y\nset format y '%%.0e'\nset ylabel 'error'\nset key bottom left Left reverse\nplot ");
  for (PetscInt s = 0; s < nseries; s++) {
    const Series *S = &series[s];
    const char   *n = S->ident;

    SeriesFilter(S, f, sizeof(f));
    fprintf(gp, "'%s.csv' using 2:(%s ? $5 : 1/0) with linespoints lc %d pt %d dt 1 title ", csv, f, (int)s + 1, SolverPoint[S->solver]);
    if (S->count > 1)
      fprintf(gp, "sprintf('%s: slope %%.2f (||e||_H), least squares; %%.2f last two grids', lsH_%s, eH_%s), \\\n", S->label, n, n);
    else
      fprintf(gp, "'%s: ||e||_H', \\\n", S->label);
    fprintf(gp, "  '%s.csv' using 2:(%s ? $7 : 1/0) with linespoints lc %d pt %d dt 2 notitle, \\\n  ", csv, f, (int)s + 1, SolverPoint[S->solver] - 1);
  }
  for (PetscInt o = 2; o <= 6; o += 2)
    if (ref[o]) fprintf(gp, "yref_p%d / 4 * (xref_p%d / x)**%d with lines dt %d lc rgb 'gray' title 'slope -%d (reference)', \\\n  ", o, o, o, 2 + o / 2, o);
  fprintf(gp, "1/0 with lines dt 2 lc rgb 'black' title '||e||_JH (dashed)'\n");
}

/* The iterations' panel, its legend at the top left with room above the data */
static void WriteIterationPanel(FILE *gp, const char csv[], const Series series[], PetscInt nseries)
{
  char f[64];

  fprintf(gp, "unset logscale y\nset format y '%%g'\nset yrange [0:imax * %g + 1]\nset ytics imax > 40 ? 10 : (imax > 16 ? 5 : (imax > 8 ? 2 : 1))\n",
          nseries > 2 ? 1 + 0.08 * nseries : 1.15);
  fprintf(gp, "set ylabel 'iterations'\nset key top left Left reverse\nplot ");
  for (PetscInt s = 0; s < nseries; s++) {
    const Series *S   = &series[s];
    const char   *sep = s < nseries - 1 ? ", \\\n  " : "\n";

    SeriesFilter(S, f, sizeof(f));
    fprintf(gp, "'%s.csv' using 2:(%s ? $9 : 1/0) with linespoints lc %d pt %d title ", csv, f, (int)s + 1, SolverPoint[S->solver]);
    if (S->count > 1)
      fprintf(gp, "sprintf('%s: iterations ~ Nr^%%.2f (least squares)', its_%s)%s", S->label, S->ident, sep);
    else
      fprintf(gp, "'%s'%s", S->label, sep);
  }
}

/* <prefix>.gp, the gnuplot script of <prefix>.png from <prefix>.csv (`gnuplot <prefix>.gp` draws it again): two panels against Nr,
   the errors and the iterations, one colour per series. */
static PetscErrorCode WritePlotScript(const char prefix[], const Series series[], PetscInt nseries, const char title[])
{
  char  path[PETSC_MAX_PATH_LEN];
  FILE *gp;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s.gp", prefix));
  gp = fopen(path, "w");
  PetscCheck(gp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s", path);
  fprintf(gp, "# %s.png from %s.csv, written by verification/convergence (docs/verification.md); run: gnuplot %s.gp\n", prefix, prefix, prefix);
  fprintf(gp, "set terminal pngcairo size 720,800 noenhanced font ',9'\nset output '%s.png'\nset datafile separator ','\nimax = 1; emin = 1e300; emax = 0\n",
          prefix);
  for (PetscInt s = 0; s < nseries; s++) WriteSlopes(gp, prefix, &series[s]);
  fprintf(gp, "set multiplot layout 2,1 title '%s'\nset grid\nset logscale x 2\nset xlabel 'Nr (grid intervals in r)'\n", title);
  WriteErrorPanel(gp, prefix, series, nseries);
  WriteIterationPanel(gp, prefix, series, nseries);
  fprintf(gp, "unset multiplot\n");
  fclose(gp);
  PetscFunctionReturn(0);
}

/* <prefix>-time.gp, the script of <prefix>-time.png: ||e||_H against the time to solution (set-up + solve) per series, each point
   marked with its Nr: at a given error, the fastest order and solver. */
static PetscErrorCode WriteTimeScript(const char prefix[], const Series series[], PetscInt nseries, const char title[])
{
  char  path[PETSC_MAX_PATH_LEN], f[64];
  FILE *gp;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s-time.gp", prefix));
  gp = fopen(path, "w");
  PetscCheck(gp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s", path);
  fprintf(gp, "# %s-time.png from %s.csv, written by verification/convergence (docs/verification.md); run: gnuplot %s-time.gp\n", prefix, prefix, prefix);
  fprintf(gp, "set terminal pngcairo size 720,560 noenhanced font ',9'\nset output '%s-time.png'\nset datafile separator ','\n", prefix);
  fprintf(gp, "set title \"%s\\nerror against time to solution (labels: Nr)\"\nset grid\nset logscale xy\nset format y '%%.0e'\n", title);
  fprintf(gp, "set xlabel 'time to solution (s): set-up + solve'\nset ylabel '||e||_H'\nset key top right\nplot ");
  for (PetscInt s = 0; s < nseries; s++) {
    SeriesFilter(&series[s], f, sizeof(f));
    fprintf(gp, "'%s.csv' using ($10 + $11):(%s ? $5 : 1/0) with linespoints lc %d pt %d title '%s', \\\n", prefix, f, (int)s + 1,
            SolverPoint[series[s].solver], series[s].label);
    fprintf(gp, "  '%s.csv' using ($10 + $11):(%s ? $5 : 1/0):(strcol(2)) with labels offset char 0.8,0.6 font ',7' tc lt %d notitle%s", prefix, f, (int)s + 1,
            s < nseries - 1 ? ", \\\n  " : "\n");
  }
  fclose(gp);
  PetscFunctionReturn(0);
}

/* The tables, the plots' scripts and, unless -conv_plot 0, the plots (rank 0). */
static PetscErrorCode WriteOutputs(const Study *st, const Row rows[], PetscInt nrows, const Series series[], PetscInt nseries)
{
  char        command[PETSC_MAX_PATH_LEN + 32];
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (rank) PetscFunctionReturn(0);
  PetscCall(WriteTables(st->prefix, rows, nrows, st->title));
  PetscCall(WritePlotScript(st->prefix, series, nseries, st->title));
  PetscCall(WriteTimeScript(st->prefix, series, nseries, st->title));
  if (!st->plot) PetscFunctionReturn(0);
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(PetscSNPrintf(command, sizeof(command), "gnuplot '%s%s.gp'", st->prefix, k ? "-time" : ""));
    PetscCheck(system(command) == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "gnuplot (Debian package gnuplot-nox) failed: %s", command);
  }
  PetscFunctionReturn(0);
}

/* The title of the tables and plots */
static PetscErrorCode StudyTitle(Study *st)
{
  char mapping[32] = "curved", mu[32] = "basin", bc[8] = "DDNN", orders[32] = "";

  PetscFunctionBeginUser;
  if (st->kind == PROBLEM_OWN) PetscCall(PetscStrcpy(bc, "DNDN"));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-sbp_mapping", mapping, sizeof(mapping), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-sbp_mu", mu, sizeof(mu), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-sbp_bc", bc, sizeof(bc), NULL));
  if (st->norders > 1 || st->orders[0] != 2) { /* the title of an order-2 study as before */
    PetscCall(PetscStrcpy(orders, ", SBP order"));
    for (PetscInt k = 0; k < st->norders; k++) {
      size_t len;
      PetscCall(PetscStrlen(orders, &len));
      PetscCall(PetscSNPrintf(orders + len, sizeof(orders) - len, "%s%d", k ? "," : " ", (int)st->orders[k]));
    }
  }
  if (st->kind == PROBLEM_OWN)
    PetscCall(PetscSNPrintf(st->title, sizeof(st->title),
                            "Data API: u = exp(x) sin(2y) + x y, node grid, mu = 2 + sin(x) cos(y) at the nodes, faces %s, Ns = %d Nr%s", bc, (int)st->ratio,
                            orders));
  else
    PetscCall(PetscSNPrintf(st->title, sizeof(st->title), "SBP-SAT manufactured solution: mapping %s, mu %s, faces %s, Ns = %d Nr%s", mapping, mu, bc,
                            (int)st->ratio, orders));
  PetscFunctionReturn(0);
}

static PetscErrorCode StudyFromOptions(Study *st)
{
  PetscBool set, setn, seto;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(st, sizeof(*st)));
  st->ns[0] = 16, st->ns[1] = 32, st->ns[2] = 64, st->ns[3] = 128, st->ns[4] = 256, st->nn = 32;
  st->orders[0] = 2, st->norders = 8, st->nsolvers = 8, st->ratio = 1, st->rtol = 1e-10, st->plot = PETSC_TRUE;
  st->which[0] = SOLVER_DIRECT, st->kind = PROBLEM_BUILTIN;
  st->expect[0] = 2, st->expect[1] = 0.05, st->nexpect = 3; /* one more than it takes: PETSc drops what does not fit, a third value is refused */
  st->nexpects = 9;
  PetscCall(PetscStrcpy(st->prefix, "convergence"));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-sbp_order", &st->orders[0], NULL)); /* the default order */
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Convergence study", NULL);
  PetscCall(SbpmgOptionsArray(PetscOptionsObject, "-conv_n", "Grid sizes Nr", NULL, PETSC_INT, st->ns, 5, &st->nn, &setn));
  PetscCall(PetscOptionsInt("-conv_ratio", "Ns = ratio * Nr", NULL, st->ratio, &st->ratio, NULL));
  PetscCall(PetscOptionsIntArray("-conv_order", "SBP orders (2, 4, 6)", NULL, st->orders, &st->norders, &seto));
  PetscCall(PetscOptionsEnumArray("-conv_solvers", "Solvers", NULL, SolverNames, (PetscEnum *)st->which, &st->nsolvers, &set));
  PetscCall(PetscOptionsReal("-conv_rtol", "Relative residual of the iterative solvers", NULL, st->rtol, &st->rtol, NULL));
  PetscCall(PetscOptionsString("-conv_output", "Prefix of the output files", NULL, "convergence", st->prefix, sizeof(st->prefix), NULL));
  PetscCall(PetscOptionsBool("-conv_plot", "Draw <prefix>.png and <prefix>-time.png with gnuplot", NULL, st->plot, &st->plot, NULL));
  PetscCall(PetscOptionsEnum("-conv_problem", "The problem", NULL, ProblemNames, (PetscEnum)st->kind, (PetscEnum *)&st->kind, NULL));
  PetscCall(PetscOptionsRealArray("-conv_check_order", "Fail unless the last order in ||e||_H of the first series is within tol of o: o,tol", NULL, st->expect,
                                  &st->nexpect, &st->check));
  PetscCall(PetscOptionsRealArray("-conv_check_orders", "Expected order in ||e||_H per entry of -conv_order, then optionally tol", NULL, st->expects,
                                  &st->nexpects, &st->checks));
  PetscOptionsEnd();
  PetscCheck(!st->check || st->nexpect == 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_SIZ, "-conv_check_order takes 2 values (order,tolerance); got %" PetscInt_FMT,
             st->nexpect);
  PetscCheck(!setn || st->nn <= 32, PETSC_COMM_WORLD, PETSC_ERR_ARG_SIZ, "-conv_n takes at most 32 grid sizes; got more"); /* SbpmgOptionsArray(): 33 */
  if (!setn) st->nn = 5;
  if (!set) st->nsolvers = 1; /* direct */
  if (!seto) st->norders = 1;
  PetscCheck(st->norders >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_SIZ, "-conv_order needs at least one order (2, 4 or 6)");
  for (PetscInt k = 0; k < st->norders; k++)
    PetscCheck(st->orders[k] == 2 || st->orders[k] == 4 || st->orders[k] == 6, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE,
               "-conv_order: %" PetscInt_FMT " is not an SBP order (2, 4 or 6)", st->orders[k]);
  PetscCheck(!st->checks || st->nexpects == st->norders || st->nexpects == st->norders + 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_SIZ,
             "-conv_check_orders takes one expected order per entry of -conv_order (%" PetscInt_FMT "), then optionally the tolerance; got %" PetscInt_FMT
             " values",
             st->norders, st->nexpects);
  if (st->checks && st->nexpects == st->norders) st->expects[st->norders] = st->expect[1]; /* -conv_check_order's tolerance */
  PetscCheck(st->ratio >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-conv_ratio %" PetscInt_FMT " must be >= 1", st->ratio);
  PetscCall(StudyTitle(st));
  PetscFunctionReturn(0);
}

/* A series' names: the solver's alone in a study of order 2 alone (the names of the plots before the orders came) */
static void SeriesNames(const Study *st, Series *S)
{
  const char *n = SolverNames[S->solver];

  if (st->norders == 1 && st->orders[0] == 2) {
    snprintf(S->label, sizeof(S->label), "%s", n);
    snprintf(S->ident, sizeof(S->ident), "%s", n);
  } else {
    snprintf(S->label, sizeof(S->label), "p%d %s", (int)S->order, n);
    snprintf(S->ident, sizeof(S->ident), "p%d_%s", (int)S->order, n);
  }
}

static PetscErrorCode PrintRow(const Row *r, const Row *prev)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-7s %2d %5d x %-5d %12.4e %7.3f %12.4e %7.3f %6d %10.4f %10.4f\n", SolverNames[r->solver], (int)r->order,
                        (int)r->Nr, (int)r->Ns, (double)r->eH, prev ? (double)Order(prev, r, PETSC_FALSE) : 0.0, (double)r->eJH,
                        prev ? (double)Order(prev, r, PETSC_TRUE) : 0.0, (int)r->its, r->tsetup, r->tsolve));
  PetscFunctionReturn(0);
}

/* Every (order, solver, N), orders outermost; a size below the order's minimum skipped with a note. Series without rows are dropped. */
static PetscErrorCode RunStudy(const Study *st, Row rows[], PetscInt *nrows, Series series[], PetscInt *nseries)
{
  PetscFunctionBeginUser;
  *nrows = *nseries = 0;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n%-7s %2s %11s %12s %7s %12s %7s %6s %10s %10s\n", st->title, "solver", "p", "Nr x Ns", "error H", "order",
                        "error JH", "order", "its", "set-up s", "solve s"));
  for (PetscInt o = 0; o < st->norders; o++)
    for (PetscInt s = 0; s < st->nsolvers; s++) {
      Series *S = &series[*nseries];

      S->order  = st->orders[o];
      S->solver = st->which[s];
      S->first  = *nrows;
      SeriesNames(st, S);
      for (PetscInt k = 0; k < st->nn; k++) {
        Row *r = &rows[*nrows];

        if (st->ns[k] < MinIntervals(S->order)) {
          if (!s)
            PetscCall(PetscPrintf(PETSC_COMM_WORLD, "note: Nr = %d skipped at order %d, which needs at least %d intervals in each direction\n", (int)st->ns[k],
                                  (int)S->order, (int)MinIntervals(S->order)));
          continue;
        }
        PetscCall(RunOne(st->kind, S->order, S->solver, st->ns[k], st->ratio * st->ns[k], st->rtol, r));
        PetscCall(PrintRow(r, *nrows > S->first ? r - 1 : NULL));
        (*nrows)++;
      }
      S->count = *nrows - S->first;
      if (S->count) (*nseries)++;
    }
  PetscCheck(*nrows, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "No grid size of -conv_n is large enough for any order of -conv_order");
  PetscFunctionReturn(0);
}

/* Fail unless the last observed order in ||e||_H of the series is within tol of o. */
static PetscErrorCode CheckSeries(const Row rows[], const Series *S, PetscReal o, PetscReal tol)
{
  const Row *last = &rows[S->first + S->count - 1];
  PetscReal  order;

  PetscFunctionBeginUser;
  PetscCheck(S->count > 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_SIZ, "The order check of %s needs at least two sizes (-conv_n) the order allows (Nr >= %d)",
             S->label, (int)MinIntervals(S->order));
  order = Order(last - 1, last, PETSC_FALSE);
  PetscCheck(PetscAbsReal(order - o) <= tol, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED,
             "The observed order %.4f in ||e||_H of %s from Nr = %" PetscInt_FMT " to %" PetscInt_FMT " is not within %g of %g", (double)order, S->label,
             last[-1].Nr, last->Nr, (double)tol, (double)o);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "order check: %s%s%.4f within %g of %g\n", S->label[0] == 'p' ? S->label : "", S->label[0] == 'p' ? ": " : "",
                        (double)order, (double)tol, (double)o));
  PetscFunctionReturn(0);
}

/* -conv_check_order on the first series, -conv_check_orders on every series of each order */
static PetscErrorCode CheckOrders(const Study *st, const Row rows[], const Series series[], PetscInt nseries)
{
  PetscFunctionBeginUser;
  if (st->check) PetscCall(CheckSeries(rows, &series[0], st->expect[0], st->expect[1]));
  if (!st->checks) PetscFunctionReturn(0);
  for (PetscInt o = 0; o < st->norders; o++) {
    PetscInt found = 0;

    for (PetscInt s = 0; s < nseries; s++)
      if (series[s].order == st->orders[o]) {
        PetscCall(CheckSeries(rows, &series[s], st->expects[o], st->expects[st->norders]));
        found++;
      }
    PetscCheck(found, PETSC_COMM_WORLD, PETSC_ERR_ARG_SIZ, "-conv_check_orders: order %d has no grid size of -conv_n (Nr >= %d)", (int)st->orders[o],
               (int)MinIntervals(st->orders[o]));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "order checks passed: every series of -conv_order within %g of its order\n", (double)st->expects[st->norders]));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Study    st;
  Row     *rows;
  Series  *series;
  PetscInt nrows, nseries;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SbpmgInitializePackage());
  PetscCall(StudyFromOptions(&st));
  PetscCall(PetscMalloc2(st.nn * st.nsolvers * st.norders, &rows, st.nsolvers * st.norders, &series));
  PetscCall(RunStudy(&st, rows, &nrows, series, &nseries));
  PetscCall(WriteOutputs(&st, rows, nrows, series, nseries));
  PetscCall(CheckOrders(&st, rows, series, nseries));
  PetscCall(PetscFree2(rows, series));
  PetscCall(PetscFinalize());
  return 0;
}
