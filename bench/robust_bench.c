/* Multigrid on the grids users have (issue 34): CG + sbpmg on stretched grids, grids of unequal sides and sizes that do not halve,
   with the peers (hypre BoomerAMG, PETSc GAMG) on the same assembled operator and right-hand side.

     robust_bench -rb_n 256,512,1024,2048 -rb_L 80,400                 stretched grids (docs/performance.md "Robust multigrid")
     robust_bench -rb_n 0 -rb_grids 1024x8,8x1024,512x32,1024x64        unequal sides, the curved basin
     robust_bench -rb_n 0 -rb_grids 1024x1024,1000x1000,1023x1023,1537x769
     robust_bench -rb_n 256 -rb_L 80 -rb_peers                          and BoomerAMG, GAMG on the assembled operator
     mpiexec -n 16 robust_bench -rb_sbpmg false -rb_peers ...            the peers alone on 16 cores (at most 2000 iterations)
     robust_bench -rb_n 1024,2048 -rb_L 400 -rb_steps 20                   and warm-started steps (issue 35: the time series' step)

   Stretched: the earthquake-cycle grid x = l tan(atan(L/l)(r+1)/2), y likewise in s (fine at x = 0 and y = 0, cells of aspect ratio
   up to 1 + (L/l)^2 where the two meet the far sides), l = -rb_lscale (10 km), constant mu, faces DDNN, a random right-hand side (the same
   for every solver). The mapping is given both as OpenCL source (the device generates every level) and as a host function (the host
   backend). The other grids are the curved basin with the manufactured right-hand side (examples/sbp_solve's problem). Every line:
   the grid, the unknowns, the levels, CG iterations to -rb_rtol (1e-8), the set-up (problem, operator and PC), the best of -rb_reps
   solves from zero after a warm-up solve, the time per iteration and the time to solution (set-up + one solve); CSV to -rb_csv.
   -rb_steps n adds n warm-started steps whose right-hand side grows as t from -rb_t0 (1000), each from the step before, to
   ||r|| <= rtol ||b||: the average iterations and time of a step, as bench/timeseries_bench reports them for the curved basin.
   Every option of sbpmg applies (-pc_sbpmg_*, -mg_*). */
#include <sbpmg.h>
#include "common/timing.h"

static const char help[] = "CG + sbpmg on stretched, unequal-sided and odd-sized grids, and the AMG peers.\n";

typedef struct {
  PetscReal L, l, theta; /* domain side, the cell size scale at the fault, atan(L/l) */
} Stretch;

/* x = l tan(theta (t+1)/2) and its derivative in t */
static void StretchCoordinate(const Stretch *s, PetscReal t, PetscReal *x, PetscReal *dx)
{
  const PetscReal a = s->theta * (t + 1) / 2, c = PetscCosReal(a);
  *x  = s->l * PetscTanReal(a);
  *dx = s->l * s->theta / 2 / (c * c);
}

static PetscErrorCode StretchMapping(void *ctx, PetscReal r, PetscReal s, PetscReal X[6])
{
  const Stretch *st = (const Stretch *)ctx;
  PetscFunctionBeginUser;
  StretchCoordinate(st, r, &X[0], &X[2]);
  StretchCoordinate(st, s, &X[1], &X[5]);
  X[3] = 0;
  X[4] = 0;
  PetscFunctionReturn(0);
}

/* The same mapping as OpenCL source for the device (the parameters printed into it). */
static PetscErrorCode StretchSource(const Stretch *s, char src[], size_t len)
{
  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(src, len,
                          "void sbp_user_mapping(double r, double s, double X[6])\n"
                          "{\n"
                          "  const double l = %.17g, th = %.17g, ar = th * (r + 1) / 2, as = th * (s + 1) / 2;\n"
                          "  const double cr = cos(ar), cs = cos(as);\n"
                          "  X[0] = l * tan(ar); X[1] = l * tan(as);\n"
                          "  X[2] = l * th / 2 / (cr * cr); X[3] = 0; X[4] = 0; X[5] = l * th / 2 / (cs * cs);\n"
                          "}\n",
                          (double)s->l, (double)s->theta));
  PetscFunctionReturn(0);
}

typedef struct {
  PetscInt  its, levels;
  PetscReal tsetup, tsolve;
  PetscReal step_its, tstep; /* -rb_steps: the warm-started steps' average iterations and time */
} Result;

static PetscInt  reps      = 3;
static PetscReal rtol      = 1e-8;
static PetscInt  steps     = 0;          /* -rb_steps: warm-started steps after the cold solves (sbpmg only) */
static PetscReal steps_t0  = 1000;       /* -rb_t0: step k solves for g (t0 + k) / t0 from step k - 1's solution */
static PetscBool run_sbpmg = PETSC_TRUE; /* -rb_sbpmg false: the peers alone (mpiexec -n 16 robust_bench -rb_sbpmg false -rb_peers) */

/* The problem of one line: stretched (st != NULL; DDNN, constant mu) or the curved basin, on the given backend. */
static PetscErrorCode MakeProblem(PetscInt Nr, PetscInt Ns, Stretch *st, SbpBackend backend, SbpProblem *p)
{
  PetscFunctionBeginUser;
  PetscCall(SbpProblemCreate(PETSC_COMM_WORLD, p));
  PetscCall(SbpProblemSetBackend(*p, backend));
  PetscCall(SbpProblemSetFromOptions(*p));
  PetscCall(SbpProblemSetSizes(*p, Nr, Ns));
  if (st) {
    char src[1024];
    PetscCall(SbpProblemSetMappingFunction(*p, StretchMapping, st));
    PetscCall(StretchSource(st, src, sizeof(src)));
    PetscCall(SbpProblemSetMappingSource(*p, src));
    PetscCall(SbpProblemSetMu(*p, SBP_MU_CONSTANT, 1.0));
    for (PetscInt f = 1; f <= 4; f++) PetscCall(SbpProblemSetBC(*p, f, f <= 2 ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN));
  }
  PetscCall(SbpProblemSetUp(*p));
  PetscFunctionReturn(0);
}

/* A time series' steps without its data: the right-hand side grows as t (as the slip of bench/timeseries_bench does), step k solves
   A u = g (t0 + k) / t0 from step k - 1's u to ||r|| <= rtol ||b||, the first step from u = A^-1 g (the cold solves'); the averages
   of its and time. */
static PetscErrorCode WarmSteps(KSP ksp, Vec g, Vec u, Result *res)
{
  Vec            gk;
  KSPNormType    norm;
  PetscInt       its, total = 0;
  PetscLogDouble t1, t2, t = 0;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(g, &gk));
  PetscCall(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE));
  /* ||r|| <= rtol ||b|| as bench/timeseries_bench: with a nonzero guess PETSc's default test on the preconditioned norm applies the
     preconditioner to b once more every solve to get ||B b|| */
  PetscCall(KSPGetNormType(ksp, &norm));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  for (PetscInt k = 1; k <= steps; k++) {
    PetscCall(VecCopy(g, gk));
    PetscCall(VecScale(gk, (steps_t0 + k) / steps_t0));
    PetscCall(BenchSync());
    PetscCall(PetscTime(&t1));
    PetscCall(KSPSolve(ksp, gk, u));
    PetscCall(BenchSync());
    PetscCall(PetscTime(&t2));
    PetscCall(KSPGetIterationNumber(ksp, &its));
    total += its;
    t += t2 - t1;
  }
  PetscCall(KSPSetInitialGuessNonzero(ksp, PETSC_FALSE));
  PetscCall(KSPSetNormType(ksp, norm));
  res->step_its = (PetscReal)total / steps;
  res->tstep    = t / steps;
  PetscCall(VecDestroy(&gk));
  PetscFunctionReturn(0);
}

/* CG with the PC type (sbpmg, or hypre / gamg on the assembled operator) on A x = g: set-up, warm-up, the best of reps solves. */
static PetscErrorCode Solve(Mat A, Vec g, const char pctype[], PetscLogDouble tproblem, Result *res)
{
  KSP            ksp;
  PC             pc;
  Vec            u;
  PetscLogDouble t0, t1, t2;
  PetscBool      sbpmg;

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(pctype, PCSBPMG, &sbpmg));
  PetscCall(VecDuplicate(g, &u));
  PetscCall(BenchSync());
  PetscCall(PetscTime(&t0));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, pctype));
  PetscCall(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, sbpmg ? 5000 : 2000));
  if (sbpmg) PetscCall(KSPSetFromOptions(ksp)); /* the peers keep their defaults */
  PetscCall(KSPSetUp(ksp));
  PetscCall(BenchSync());
  PetscCall(PetscTime(&t1));
  res->tsetup = tproblem + t1 - t0;
  res->levels = 0;
  if (sbpmg) PetscCall(PCSBPMGGetLevels(pc, &res->levels));
  PetscCall(KSPSolve(ksp, g, u));
  res->tsolve = PETSC_MAX_REAL;
  for (PetscInt r = 0; r < reps; r++) {
    PetscCall(VecSet(u, 0));
    PetscCall(BenchSync());
    PetscCall(PetscTime(&t1));
    PetscCall(KSPSolve(ksp, g, u));
    PetscCall(BenchSync());
    PetscCall(PetscTime(&t2));
    res->tsolve = PetscMin(res->tsolve, t2 - t1);
  }
  PetscCall(KSPGetIterationNumber(ksp, &res->its));
  {
    KSPConvergedReason reason;
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    if (reason < 0) res->its = -res->its; /* printed negative: did not converge */
  }
  res->step_its = res->tstep = 0;
  if (sbpmg && steps > 0) PetscCall(WarmSteps(ksp, g, u, res));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&u));
  PetscFunctionReturn(0);
}

static PetscErrorCode Report(FILE *csv, const char kind[], PetscInt Nr, PetscInt Ns, PetscReal L, const char solver[], const Result *r)
{
  const PetscReal n = (PetscReal)(Nr + 1) * (Ns + 1);

  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "%-9s %5" PetscInt_FMT " x %-5" PetscInt_FMT " %6.0f %10.0f %-8s %3" PetscInt_FMT " %6" PetscInt_FMT
                        " %9.4f %10.2f %8.3f %9.4f %8.1f\n",
                        kind, Nr, Ns, (double)L, (double)n, solver, r->levels, r->its, r->tsetup, r->tsolve * 1e3,
                        r->its ? r->tsolve * 1e3 / PetscAbsInt(r->its) : 0.0, r->tsetup + r->tsolve, 1e9 * (r->tsetup + r->tsolve) / n));
  if (r->tstep > 0)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                          "%-9s   warm-started steps (right-hand side x (t0 + k) / t0, t0 = %g): %" PetscInt_FMT " steps, %.2f its, %.3f ms a step\n", "",
                          (double)steps_t0, steps, (double)r->step_its, 1e3 * r->tstep));
  if (csv)
    fprintf(csv, "%s,%d,%d,%g,%.0f,%s,%d,%d,%.6f,%.6f,%.6f,%.6f\n", kind, (int)Nr, (int)Ns, (double)L, (double)n, solver, (int)r->levels, (int)r->its,
            r->tsetup, r->tsolve, r->its ? r->tsolve / PetscAbsInt(r->its) : 0.0, r->tsetup + r->tsolve);
  PetscFunctionReturn(0);
}

/* One grid: sbpmg on the device problem, then (peers) BoomerAMG and GAMG on the host backend's assembled operator, same g. */
static PetscErrorCode RunGrid(FILE *csv, PetscInt Nr, PetscInt Ns, Stretch *st, PetscBool peers)
{
  SbpProblem     p;
  Mat            A;
  Vec            g;
  Result         r;
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  PetscCall(BenchSync());
  PetscCall(PetscTime(&t0));
  PetscCall(MakeProblem(Nr, Ns, st, SBP_BACKEND_AUTO, &p));
  PetscCall(SbpProblemCreateOperator(p, &A));
  PetscCall(PetscTime(&t1));
  PetscCall(MatCreateVecs(A, NULL, &g));
  if (st) { /* a random right-hand side, the same bits on every backend (one rank: natural order) */
    PetscRandom rnd;
    PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
    PetscCall(PetscRandomSetSeed(rnd, 7));
    PetscCall(PetscRandomSeed(rnd));
    PetscCall(VecSetRandom(g, rnd));
    PetscCall(PetscRandomDestroy(&rnd));
  } else
    PetscCall(SbpProblemComputeRHS(p, g));
  if (run_sbpmg) {
    PetscCall(Solve(A, g, PCSBPMG, t1 - t0, &r));
    PetscCall(Report(csv, st ? "stretched" : "curved", Nr, Ns, st ? st->L : 0, "sbpmg", &r));
  }
  if (peers) {
    static const char *const pcs[] = {PCHYPRE, PCGAMG};
    SbpProblem               h;
    Mat                      B;
    Vec                      gh;
    PetscCall(PetscTime(&t0));
    PetscCall(MakeProblem(Nr, Ns, st, SBP_BACKEND_HOST, &h));
    PetscCall(SbpProblemCreateAssembledOperator(h, &B));
    PetscCall(PetscTime(&t1));
    PetscCall(MatCreateVecs(B, NULL, &gh));
    PetscCall(VecCopy(g, gh));
    for (int k = 0; k < 2; k++) {
      PetscCall(Solve(B, gh, pcs[k], t1 - t0, &r));
      PetscCall(Report(csv, st ? "stretched" : "curved", Nr, Ns, st ? st->L : 0, k ? "gamg" : "boomeramg", &r));
    }
    PetscCall(VecDestroy(&gh));
    PetscCall(MatDestroy(&B));
    PetscCall(SbpProblemDestroy(&h));
  }
  PetscCall(VecDestroy(&g));
  PetscCall(MatDestroy(&A));
  PetscCall(SbpProblemDestroy(&p));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt       ns[16] = {256, 512}, nn = 16, nL = 8;
  PetscReal      Ls[8] = {80, 400}, l                   = 10;
  char          *grids[32], csvname[PETSC_MAX_PATH_LEN] = "";
  PetscInt       ngrids = 32;
  PetscBool      setn, setL, setg, peers = PETSC_FALSE;
  FILE          *csv = NULL;
  PetscLogDouble w0, w1;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscTime(&w0));
  PetscCall(SbpmgInitializePackage());
  {
    static const char *const ints[] = {"-rb_n", "-rb_reps", "-rb_steps", NULL};
    PetscCall(SbpmgOptionsCheckInts(NULL, NULL, ints)); /* read as 64-bit: a value beyond PetscInt is an error naming it, not wrapped */
  }
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Robust multigrid benchmark", NULL);
  PetscCall(PetscOptionsIntArray("-rb_n", "Stretched grids: N (N x N intervals; 0: none)", NULL, ns, &nn, &setn));
  PetscCall(PetscOptionsRealArray("-rb_L", "Stretched grids: domain sides L", NULL, Ls, &nL, &setL));
  PetscCall(PetscOptionsReal("-rb_lscale", "Stretched grids: the length scale l of the fine cells", NULL, l, &l, NULL));
  PetscCall(PetscOptionsStringArray("-rb_grids", "Curved-basin grids NrxNs", NULL, grids, &ngrids, &setg));
  PetscCall(PetscOptionsBool("-rb_peers", "Also BoomerAMG and GAMG on the assembled operator", NULL, peers, &peers, NULL));
  PetscCall(PetscOptionsBool("-rb_sbpmg", "Run CG + sbpmg (false: the peers alone)", NULL, run_sbpmg, &run_sbpmg, NULL));
  PetscCall(PetscOptionsInt("-rb_reps", "Timed solves after the warm-up (the best reported)", NULL, reps, &reps, NULL));
  PetscCall(
      PetscOptionsInt("-rb_steps", "Warm-started steps after the cold solves (sbpmg): the right-hand side grows as t from -rb_t0", NULL, steps, &steps, NULL));
  PetscCall(PetscOptionsReal("-rb_t0", "Start time of the warm-started steps", NULL, steps_t0, &steps_t0, NULL));
  PetscCall(PetscOptionsReal("-rb_rtol", "Relative residual of the solves", NULL, rtol, &rtol, NULL));
  PetscCall(PetscOptionsString("-rb_csv", "CSV output file", NULL, csvname, csvname, sizeof(csvname), NULL));
  PetscOptionsEnd();
  if (!setn) nn = 2;
  if (!setL) nL = 2;
  if (!setg) ngrids = 0;
  for (PetscInt k = 0; k < nn; k++)
    PetscCheck(ns[k] == 0 || ns[k] >= 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rb_n %" PetscInt_FMT " must be >= 2 (or 0: none)", ns[k]);
  PetscCheck(reps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rb_reps %" PetscInt_FMT " must be >= 1", reps);
  PetscCheck(l > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rb_lscale %g must be > 0", (double)l);
  PetscCheck(steps >= 0 && steps_t0 > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rb_steps %" PetscInt_FMT " must be >= 0 and -rb_t0 %g > 0", steps,
             (double)steps_t0);
  if (csvname[0]) {
    csv = fopen(csvname, "w");
    PetscCheck(csv, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s", csvname);
    fprintf(csv, "grid,Nr,Ns,L,unknowns,solver,levels,iterations,setup_s,solve_s,s_per_iteration,time_to_solution_s\n");
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-9s %13s %6s %10s %-8s %3s %6s %9s %10s %8s %9s %8s\n", "grid", "Nr x Ns", "L", "unknowns", "solver", "lev", "its",
                        "setup s", "solve ms", "ms/it", "tts s", "ns/unk"));
  for (PetscInt k = 0; k < nn; k++) {
    if (ns[k] <= 0) continue;
    for (PetscInt m = 0; m < nL; m++) {
      Stretch st = {Ls[m], l, PetscAtanReal(Ls[m] / l)};
      PetscCall(RunGrid(csv, ns[k], ns[k], &st, peers));
    }
  }
  for (PetscInt k = 0; k < ngrids; k++) {
    int Nr = 0, Ns = 0;
    PetscCheck(sscanf(grids[k], "%dx%d", &Nr, &Ns) == 2 && Nr >= 2 && Ns >= 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG,
               "-rb_grids %s: expected NrxNs with both at least 2", grids[k]);
    PetscCall(RunGrid(csv, Nr, Ns, NULL, peers));
    PetscCall(PetscFree(grids[k]));
  }
  if (csv) fclose(csv);
  PetscCall(PetscTime(&w1));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "process wall time inside PetscInitialize/PetscFinalize: %.2f s\n", w1 - w0));
  PetscCall(PetscFinalize());
  return 0;
}
