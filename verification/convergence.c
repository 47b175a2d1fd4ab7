/* Convergence and solver study of the SBP-SAT manufactured problem (spec-sbp-sat.md section 7).

     convergence -conv_n 16,32,64,128,256,512,1024 -conv_solvers direct          errors and observed orders
     convergence -conv_n 32,64,128,256,512,1024 -conv_solvers mgcg,gamg,hypre -conv_rtol 1e-8
                                                                                  iterations and times side by side
   The problem options (-sbp_mapping, -sbp_mu, -sbp_bc, -sbp_backend) apply to every N; -conv_ratio r sets Ns = r Nr.
   Each solver reads its own options with the prefix <solver>_ (for example -gamg_pc_gamg_threshold 0.02).
   Writes <prefix>.csv and <prefix>.md, and <prefix>.png (error against N, with gnuplot) unless -conv_plot 0. */
#include <sbpmg.h>

static const char help[] = "SBP-SAT convergence and solver study.\n"
                           "  -conv_n <list>        grid sizes Nr (default 16,32,64,128,256)\n"
                           "  -conv_ratio <r>       Ns = r Nr (default 1)\n"
                           "  -conv_solvers <list>  any of mgcg (CG + sbpmg, matrix-free), direct (CHOLMOD), gamg, hypre (CG on the assembled matrix)\n"
                           "  -conv_rtol <tol>      relative residual of the iterative solvers (default 1e-10)\n"
                           "  -conv_output <prefix> output files (default convergence)\n"
                           "  -conv_plot <bool>     write the PNG plot with gnuplot (default true)\n";

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

static PetscErrorCode RunOne(Solver solver, PetscInt Nr, PetscInt Ns, PetscReal rtol, Row *row)
{
  SbpProblem         p;
  Mat                A;
  Vec                u, g;
  KSP                ksp;
  PetscLogDouble     t0, t1, t2;
  KSPConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(PetscTime(&t0));
  PetscCall(SbpProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCall(SbpProblemSetFromOptions(p));
  PetscCall(SbpProblemSetSizes(p, Nr, Ns));
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

static PetscErrorCode WriteOutputs(const char prefix[], const Row rows[], PetscInt nrows, PetscBool plot, const char title[])
{
  char        path[PETSC_MAX_PATH_LEN];
  FILE       *csv, *md;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (rank) PetscFunctionReturn(0);
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
    const Row *prev = NULL;
    for (PetscInt q = k - 1; q >= 0; q--)
      if (rows[q].solver == rows[k].solver) {
        prev = &rows[q];
        break;
      }
    fprintf(csv, "%s,%d,%d,%d,%.6e,%.4f,%.6e,%.4f,%d,%.4e,%.4e\n", SolverNames[rows[k].solver], (int)rows[k].Nr, (int)rows[k].Ns,
            (int)((rows[k].Nr + 1) * (rows[k].Ns + 1)), (double)rows[k].eH, (double)Order(prev, &rows[k], PETSC_FALSE), (double)rows[k].eJH,
            (double)Order(prev, &rows[k], PETSC_TRUE), (int)rows[k].its, rows[k].tsetup, rows[k].tsolve);
    {
      char oH[16] = "-", oJH[16] = "-";
      if (prev) {
        snprintf(oH, sizeof(oH), "%.3f", (double)Order(prev, &rows[k], PETSC_FALSE));
        snprintf(oJH, sizeof(oJH), "%.3f", (double)Order(prev, &rows[k], PETSC_TRUE));
      }
      fprintf(md, "| %s | %d x %d | %d | %.4e | %s | %.4e | %s | %d | %.3f | %.3f |\n", SolverNames[rows[k].solver], (int)rows[k].Nr, (int)rows[k].Ns,
              (int)((rows[k].Nr + 1) * (rows[k].Ns + 1)), (double)rows[k].eH, oH, (double)rows[k].eJH, oJH, (int)rows[k].its, rows[k].tsetup, rows[k].tsolve);
    }
  }
  fclose(csv);
  fclose(md);
  if (plot) {
    FILE *gp = popen("gnuplot", "w");
    PetscCheck(gp, PETSC_COMM_SELF, PETSC_ERR_LIB, "Cannot start gnuplot (Debian package gnuplot-nox)");
    fprintf(gp, "set terminal pngcairo size 800,600 noenhanced\nset output '%s.png'\nset datafile separator ','\nset logscale xy\n", prefix);
    fprintf(gp, "set xlabel 'Nr'\nset ylabel 'error'\nset format y '%%.0e'\nset title '%s'\nset key bottom left\nset grid\n", title);
    fprintf(gp, "plot '%s.csv' using 2:(strcol(1) eq '%s' ? $5 : 1/0) with linespoints pt 7 title '||e||_H', ", prefix, SolverNames[rows[0].solver]);
    fprintf(gp, "'%s.csv' using 2:(strcol(1) eq '%s' ? $7 : 1/0) with linespoints pt 5 title '||e||_JH', ", prefix, SolverNames[rows[0].solver]);
    fprintf(gp, "%g*(%d/x)**2 with lines dt 2 lc rgb 'gray' title 'slope 2'\n", (double)rows[0].eH, (int)rows[0].Nr);
    PetscCheck(pclose(gp) == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "gnuplot failed writing %s.png", prefix);
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt  ns[32] = {16, 32, 64, 128, 256}, nn = 32, nsolvers = 8, ratio = 1, nrows = 0;
  char      prefix[PETSC_MAX_PATH_LEN] = "convergence", title[256];
  PetscReal rtol                       = 1e-10;
  PetscBool plot                       = PETSC_TRUE, set, setn;
  Solver    which[8]                   = {SOLVER_DIRECT};
  Row      *rows;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SbpmgInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Convergence study", NULL);
  PetscCall(SbpmgOptionsIntArray(PetscOptionsObject, "-conv_n", "Grid sizes Nr", NULL, ns, 5, &nn, &setn));
  PetscCall(PetscOptionsInt("-conv_ratio", "Ns = ratio * Nr", NULL, ratio, &ratio, NULL));
  PetscCall(PetscOptionsEnumArray("-conv_solvers", "Solvers", NULL, SolverNames, (PetscEnum *)which, &nsolvers, &set));
  PetscCall(PetscOptionsReal("-conv_rtol", "Relative residual of the iterative solvers", NULL, rtol, &rtol, NULL));
  PetscCall(PetscOptionsString("-conv_output", "Prefix of the output files", NULL, "convergence", prefix, sizeof(prefix), NULL));
  PetscCall(PetscOptionsBool("-conv_plot", "Write a PNG plot with gnuplot", NULL, plot, &plot, NULL));
  PetscOptionsEnd();
  if (!setn) nn = 5;
  if (!set) nsolvers = 1; /* direct */
  PetscCheck(ratio >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-conv_ratio %" PetscInt_FMT " must be >= 1", ratio);
  {
    char mapping[32] = "curved", mu[32] = "basin", bc[8] = "DDNN";
    PetscCall(PetscOptionsGetString(NULL, NULL, "-sbp_mapping", mapping, sizeof(mapping), NULL));
    PetscCall(PetscOptionsGetString(NULL, NULL, "-sbp_mu", mu, sizeof(mu), NULL));
    PetscCall(PetscOptionsGetString(NULL, NULL, "-sbp_bc", bc, sizeof(bc), NULL));
    PetscCall(PetscSNPrintf(title, sizeof(title), "SBP-SAT manufactured solution: mapping %s, mu %s, faces %s, Ns = %d Nr", mapping, mu, bc, (int)ratio));
  }
  PetscCall(PetscMalloc1(nn * nsolvers, &rows));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n%-7s %11s %12s %7s %12s %7s %6s %10s %10s\n", title, "solver", "Nr x Ns", "error H", "order", "error JH",
                        "order", "its", "set-up s", "solve s"));
  for (PetscInt s = 0; s < nsolvers; s++)
    for (PetscInt k = 0; k < nn; k++) {
      Row *r = &rows[nrows];
      PetscCall(RunOne(which[s], ns[k], ratio * ns[k], rtol, r));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-7s %5d x %-5d %12.4e %7.3f %12.4e %7.3f %6d %10.4f %10.4f\n", SolverNames[r->solver], (int)r->Nr, (int)r->Ns,
                            (double)r->eH, k ? (double)Order(r - 1, r, PETSC_FALSE) : 0.0, (double)r->eJH, k ? (double)Order(r - 1, r, PETSC_TRUE) : 0.0,
                            (int)r->its, r->tsetup, r->tsolve));
      nrows++;
    }
  PetscCall(WriteOutputs(prefix, rows, nrows, plot, title));
  PetscCall(PetscFree(rows));
  PetscCall(PetscFinalize());
  return 0;
}
