/* Line smoothing (issue 34, docs/design.md "Line smoothers"): the line solves against the assembled operator's line blocks, on the
   device (whole lines and chunked) and the host; CG + sbpmg on stretched grids and grids of unequal sides (iterations bounded and flat
   in N); the V-cycle with lines symmetric and positive; the automatic choice; bad input. */
#include "test_sbp_common.h"
#include <sbpmg/private/mgimpl.h>

static const char help[] = "Tests of the line smoothers of sbpmg (src/mg/lines.c, kernels/line.cl).\n";

/* The earthquake-cycle grid x = l tan(theta (r+1)/2), y likewise (l = 10, L = 400: cells of aspect ratio up to 1601). */
static const PetscReal StretchL = 400, Stretchl = 10;

static PetscErrorCode stretch_mapping(void *ctx, PetscReal r, PetscReal s, PetscReal X[6])
{
  const PetscReal th = PetscAtanReal(StretchL / Stretchl), ar = th * (r + 1) / 2, as = th * (s + 1) / 2;
  X[0] = Stretchl * PetscTanReal(ar);
  X[1] = Stretchl * PetscTanReal(as);
  X[2] = Stretchl * th / 2 / (PetscCosReal(ar) * PetscCosReal(ar));
  X[3] = X[4] = 0;
  X[5]        = Stretchl * th / 2 / (PetscCosReal(as) * PetscCosReal(as));
  return 0;
}

static const char stretch_source[] = "void sbp_user_mapping(double r, double s, double X[6])\n"
                                     "{\n"
                                     "  const double th = atan(40.0), ar = th * (r + 1) / 2, as = th * (s + 1) / 2;\n"
                                     "  X[0] = 10 * tan(ar); X[1] = 10 * tan(as);\n"
                                     "  X[2] = 10 * th / 2 / (cos(ar) * cos(ar)); X[3] = 0; X[4] = 0; X[5] = 10 * th / 2 / (cos(as) * cos(as));\n"
                                     "}\n";

/* CG + sbpmg with the coarse size 32 on every device (a CPU's default; a GPU's is 33): the hierarchies these tests are about */
static KSP lines_mgcg(Mat A, PetscReal rtol, PetscInt maxit)
{
  KSP ksp = SbpTestMGCG(A, rtol, maxit);
  PC  pc;

  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCSBPMGSetCoarseSize(pc, 32));
  return ksp;
}

/* The stretched problem: DDNN, mu = 1, the mapping as a host function and (for the device) as source; tuning overrides (NULL: none). */
static SbpProblem stretched_problem(MPI_Comm comm, PetscInt Nr, PetscInt Ns, const char *bc, SbpBackend backend, const char *tune)
{
  SbpProblem p;

  PCALL(SbpProblemCreate(comm, &p));
  PCALL(SbpProblemSetSizes(p, Nr, Ns));
  PCALL(SbpProblemSetBackend(p, backend));
  PCALL(SbpProblemSetMappingFunction(p, stretch_mapping, NULL));
  PCALL(SbpProblemSetMappingSource(p, stretch_source));
  PCALL(SbpProblemSetMu(p, SBP_MU_CONSTANT, 1));
  for (PetscInt f = 0; f < 4; f++) PCALL(SbpProblemSetBC(p, f + 1, bc[f] == 'D' ? SBP_BC_DIRICHLET : SBP_BC_NEUMANN));
  if (tune) PCALL(SbpProblemSetTuning(p, tune));
  PCALL(SbpProblemSetUp(p));
  return p;
}

/* z = B^-1 r of each direction against the assembled operator A: on every line, the block of A on the line's nodes (A's own entries,
   src/sbp/assemble.c) times z equals r to 1e-10 relative; the line blocks are the whole lines on one rank. */
static void check_line_solves(SbpProblem p, const char *what)
{
  PCSBPMGLines l;
  Mat          A;
  Vec          r, z;

  PCALL(SbpProblemCreateAssembledOperator(p, &A));
  PCALL(PCSBPMGLinesCreate(p, 3, &l));
  PCALL(SbpProblemCreateVector(p, &r));
  PCALL(VecDuplicate(r, &z));
  for (int dir = 0; dir < 2; dir++) {
    const PetscScalar *ra, *za;
    PetscReal          err = 0, scale = 0;
    const PetscInt     nl = dir ? p->Nr + 1 : p->Ns + 1, n = dir ? p->Ns + 1 : p->Nr + 1;
    SbpmgTestFillRandom(r, 3 + dir);
    PCALL(VecSet(z, NAN));
    PCALL(PCSBPMGLinesSolve(l, dir, r, z));
    PCALL(VecGetArrayRead(r, &ra));
    PCALL(VecGetArrayRead(z, &za));
    for (PetscInt line = 0; line < nl; line++)
      for (PetscInt t = 0; t < n; t++) {
        const PetscInt row = dir ? line + (p->Nr + 1) * t : t + (p->Nr + 1) * line;
        PetscScalar    s   = 0;
        for (PetscInt u = PetscMax(t - 2, 0); u <= PetscMin(t + 2, n - 1); u++) {
          const PetscInt col = dir ? line + (p->Nr + 1) * u : u + (p->Nr + 1) * line;
          PetscScalar    a;
          PCALL(MatGetValues(A, 1, &row, 1, &col, &a));
          s += a * za[col];
        }
        err   = PetscMax(err, PetscAbsScalar(s - ra[row]));
        scale = PetscMax(scale, PetscAbsScalar(ra[row]));
      }
    PCALL(VecRestoreArrayRead(r, &ra));
    PCALL(VecRestoreArrayRead(z, &za));
    print_message("  %s, %s-lines: max |B z - r| / max |r| = %.2e\n", what, dir ? "s" : "r", err / scale);
    if (!(err <= 1e-10 * scale)) fail_msg("%s, %s-lines: the line solve misses the assembled blocks by %g", what, dir ? "s" : "r", err / scale);
  }
  SbpmgTestDestroyVecs(&r, &z, NULL);
  PCALL(PCSBPMGLinesDestroy(&l));
  PCALL(MatDestroy(&A));
}

static void test_line_solves(void **state)
{
  if (SbpTestWorldSize() > 1) skip(); /* one rank's tests; several ranks: test_ranks */
  static const struct {
    const char *bc, *tune;
    SbpBackend  backend;
    PetscInt    Nr, Ns;
  } cases[] = {
      {"DDNN", NULL, SBP_BACKEND_DEVICE, 12, 10},
      {"DDDD", NULL, SBP_BACKEND_DEVICE, 9, 7},
      {"NDDN", NULL, SBP_BACKEND_HOST, 11, 13},
      {"DDDD", "mg_line_chunks=4,mg_line_group=2", SBP_BACKEND_DEVICE, 21, 9}, /* the GPU's chunked kernel, some chunks empty */
      {"DDNN", "mg_line_chunks=3,mg_line_group=5,mg_line_vec=1", SBP_BACKEND_DEVICE, 4, 30},
      {"DDDD", "mg_line_vec=3,mg_line_wg=2", SBP_BACKEND_DEVICE, 10, 8}, /* whole lines, some work-items short of lines */
      /* the chunks' loads in batches (the GPUs' mg_line_batch): whole batches and a remainder, chunks shorter than a batch */
      {"DDDD", "mg_line_chunks=4,mg_line_group=2,mg_line_batch=4", SBP_BACKEND_DEVICE, 21, 9},
      {"DDNN", "mg_line_chunks=3,mg_line_group=5,mg_line_vec=1,mg_line_batch=3", SBP_BACKEND_DEVICE, 4, 30},
      /* wider work-groups of lines where they fill the device (PoCL: a compute unit a core): r- and s-lines, the last group short */
      {"DDDD", "mg_line_chunks=4,mg_line_group=2,mg_line_group_wide=3", SBP_BACKEND_DEVICE, 21, 9},
      {"DDNN", "mg_line_chunks=3,mg_line_group=1,mg_line_group_wide=4,mg_line_vec=1", SBP_BACKEND_DEVICE, 13, 30},
      /* the GPU's r-lines through local-memory tiles: several tiles a chunk, the last short; chunks empty; a tile longer than a chunk */
      {"DDDD", "mg_line_chunks=4,mg_line_group=2,mg_line_tile=3,mg_line_tile_min=0", SBP_BACKEND_DEVICE, 21, 9},
      {"DDNN", "mg_line_chunks=5,mg_line_tile=4,mg_line_tile_min=31", SBP_BACKEND_DEVICE, 30, 4},
      {"NDDN", "mg_line_chunks=8,mg_line_tile=2,mg_line_tile_min=0", SBP_BACKEND_DEVICE, 5, 12},
      /* a tile set, the lines one node short of mg_line_tile_min: walked in place */
      {"DDNN", "mg_line_chunks=5,mg_line_tile=4,mg_line_tile_min=32", SBP_BACKEND_DEVICE, 30, 4},
      /* chunks by the lines' length (mg_line_chunk_nodes): r-lines of 41 nodes in 8 chunks and s-lines of 7 in 2; then 16 (the most)
         and 8, chunks of a node or none; s-lines of 34 nodes in 4 beside r-lines in tiles, which keep mg_line_chunks */
      {"DDNN", "mg_line_chunks=16,mg_line_group=2,mg_line_chunk_nodes=5", SBP_BACKEND_DEVICE, 40, 6},
      {"DDDD", "mg_line_chunks=16,mg_line_group=3,mg_line_chunk_nodes=1,mg_line_batch=2", SBP_BACKEND_DEVICE, 40, 6},
      {"NDDN", "mg_line_chunks=8,mg_line_chunk_nodes=8,mg_line_tile=3,mg_line_tile_min=0", SBP_BACKEND_DEVICE, 20, 33},
  };
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    SbpProblem p = stretched_problem(PETSC_COMM_SELF, cases[c].Nr, cases[c].Ns, cases[c].bc, cases[c].backend, cases[c].tune);
    char       what[160];
    PCALL(PetscSNPrintf(what, sizeof(what), "%d x %d %s %s %s", (int)cases[c].Nr, (int)cases[c].Ns, cases[c].bc,
                        cases[c].backend == SBP_BACKEND_DEVICE ? "device" : "host", cases[c].tune ? cases[c].tune : ""));
    check_line_solves(p, what);
    PCALL(SbpProblemDestroy(&p));
  }
  { /* the chunks by length: the power of two nearest m / n on a log scale (round(log2(m / n))), from 2 to mg_line_chunks; tiles and
       mg_line_chunk_nodes 0 keep mg_line_chunks */
    static const struct {
      const char *tune;
      PetscInt    Nr, Ns, want[2];
    } rules[] = {
        {"mg_line_chunks=32,mg_line_chunk_nodes=32", 2048, 128, {32, 4}},  /* 2049 / 32 = 64.0, capped at 32; 129 / 32 = 4.03 */
        {"mg_line_chunks=64,mg_line_chunk_nodes=32", 2048, 512, {64, 16}}, /* 513 / 32 = 16.03 */
        {"mg_line_chunks=64,mg_line_chunk_nodes=16", 180, 15, {8, 2}},     /* 181 / 16 = 11.3 (below 8 sqrt 2): 8; 16 / 16 = 1: 2 */
        {"mg_line_chunks=64,mg_line_chunk_nodes=16", 181, 15, {16, 2}},    /* 182 / 16 = 11.4 (above 8 sqrt 2): 16 */
        {"mg_line_chunks=64,mg_line_chunk_nodes=0", 180, 15, {64, 64}},
        {"mg_line_chunks=1,mg_line_chunk_nodes=16", 180, 15, {1, 1}},
        {"mg_line_chunks=16,mg_line_chunk_nodes=2,mg_line_tile=3,mg_line_tile_min=0", 180, 15, {16, 8}}, /* r-lines in tiles */
    };
    for (size_t c = 0; c < sizeof(rules) / sizeof(rules[0]); c++) {
      SbpProblem p = stretched_problem(PETSC_COMM_SELF, rules[c].Nr, rules[c].Ns, "DDNN", SBP_BACKEND_DEVICE, rules[c].tune);
      for (int dir = 0; dir < 2; dir++) {
        const PetscInt got = PCSBPMGLinesChunks(p, dir);
        if (got != rules[c].want[dir])
          fail_msg("%s, %d x %d: %s-lines in %d chunks, not %d", rules[c].tune, (int)rules[c].Nr, (int)rules[c].Ns, dir ? "s" : "r", (int)got,
                   (int)rules[c].want[dir]);
      }
      PCALL(SbpProblemDestroy(&p));
    }
  }
  for (PetscInt tile_min = 30; tile_min <= 32; tile_min++) { /* the 31-node r-lines in tiles only from mg_line_tile_min 31 down; s-lines never */
    char       tune[96];
    SbpProblem p;
    PCALL(PetscSNPrintf(tune, sizeof(tune), "mg_line_chunks=5,mg_line_tile=4,mg_line_tile_min=%d", (int)tile_min));
    p = stretched_problem(PETSC_COMM_SELF, 30, 4, "DDNN", SBP_BACKEND_DEVICE, tune);
    if (PCSBPMGLinesTiled(p, 0) != (tile_min <= 31)) fail_msg("%s: r-lines of 31 nodes %s tiles", tune, tile_min <= 31 ? "not in" : "in");
    if (PCSBPMGLinesTiled(p, 1)) fail_msg("%s: s-lines in tiles", tune);
    PCALL(SbpProblemDestroy(&p));
  }
  {
    SbpProblem p = stretched_problem(PETSC_COMM_SELF, 30, 4, "DDNN", SBP_BACKEND_DEVICE, "mg_line_chunks=1,mg_line_tile=4,mg_line_tile_min=0");
    if (PCSBPMGLinesTiled(p, 0)) fail_msg("whole lines (mg_line_chunks=1) in tiles");
    PCALL(SbpProblemDestroy(&p));
  }
  { /* wide groups only where a launch keeps a work-group per compute unit with them, and never narrower than mg_line_group */
    SbpProblem     p         = stretched_problem(PETSC_COMM_SELF, 30, 4, "DDNN", SBP_BACKEND_DEVICE, "mg_line_chunks=4,mg_line_group=2,mg_line_group_wide=5");
    const PetscInt cu        = (PetscInt)p->cl->compute_units;
    const size_t   cl_max_wg = p->cl->max_work_group_size;
    if (PCSBPMGLinesGroup(p, 5 * cu, 4) != 5)
      fail_msg("%d lines on %d compute units: groups of %d lines, not 5", (int)(5 * cu), (int)cu, (int)PCSBPMGLinesGroup(p, 5 * cu, 4));
    if (PCSBPMGLinesGroup(p, 5 * cu - 4, 4) != 5) fail_msg("%d lines: the last group short, still one a compute unit", (int)(5 * cu - 4));
    if (PCSBPMGLinesGroup(p, 5 * (cu - 1), 4) != 2) fail_msg("%d lines on %d compute units: wide groups leave one idle", (int)(5 * (cu - 1)), (int)cu);
    PCALL(SbpProblemDestroy(&p));
    p = stretched_problem(PETSC_COMM_SELF, 30, 4, "DDNN", SBP_BACKEND_DEVICE, "mg_line_chunks=4,mg_line_group=6,mg_line_group_wide=5");
    if (PCSBPMGLinesGroup(p, 1000 * cu, 4) != 6) fail_msg("mg_line_group_wide below mg_line_group narrowed the groups");
    PCALL(SbpProblemDestroy(&p));
    if (cl_max_wg >= 4) { /* wide groups beyond the device's work-group: mg_line_group's, which fit */
      char           tune[128];
      const PetscInt chunks = (PetscInt)PetscMin(cl_max_wg / 2, (size_t)1024), wide = (PetscInt)(cl_max_wg / (size_t)chunks) + 1;
      PCALL(PetscSNPrintf(tune, sizeof(tune), "mg_line_chunks=%d,mg_line_group=1,mg_line_group_wide=%d", (int)chunks, (int)wide));
      p = stretched_problem(PETSC_COMM_SELF, 30, 4, "DDNN", SBP_BACKEND_DEVICE, tune);
      if (PCSBPMGLinesGroup(p, 1000 * wide * cu, chunks) != 1)
        fail_msg("%s: wide groups of %d work-items on a device that allows %zu", tune, (int)(wide * chunks), cl_max_wg);
      PCALL(SbpProblemDestroy(&p));
    }
  }
}

/* CG + sbpmg from zero on a random right-hand side to 1e-8: its iterations; lines: which directions each smoothed level took (bits). */
static PetscInt solve_random(SbpProblem p, int lines[])
{
  Mat      A;
  Vec      u, g;
  KSP      ksp;
  PC       pc;
  PetscInt its, L;

  KSPConvergedReason reason;

  PCALL(SbpProblemCreateOperator(p, &A));
  PCALL(MatCreateVecs(A, &u, &g));
  SbpmgTestFillRandom(g, 7);
  ksp = lines_mgcg(A, 1e-8, 100);
  PCALL(KSPSetFromOptions(ksp));
  PCALL(KSPSolve(ksp, g, u));
  PCALL(KSPGetConvergedReason(ksp, &reason));
  if (reason < 0) fail_msg("CG + sbpmg did not converge: %s", KSPConvergedReasons[reason]);
  PCALL(KSPGetIterationNumber(ksp, &its));
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCSBPMGGetLevels(pc, &L));
  for (PetscInt k = 0; k < L - 1 && lines; k++) lines[k] = PCSBPMGGetContext(pc)->lines[k] ? PCSBPMGGetContext(pc)->lines[k]->dirs : 0;
  PCALL(KSPDestroy(&ksp));
  SbpmgTestDestroyVecs(&u, &g, NULL);
  PCALL(MatDestroy(&A));
  return its;
}

/* Stretched grids: at most 12 iterations, within 2 of each other over N = 32..128, every level smoothed along both directions; without
   lines (-pc_sbpmg_lines none) the same grid takes more than twice as many (the test would notice lines that do nothing). */
static void test_stretched(void **state)
{
  if (SbpTestWorldSize() > 1) skip(); /* one rank's tests; several ranks: test_ranks */
  const PetscInt Ns[] = {32, 64, 128};
  PetscInt       lo = 1000, hi = 0, none;
  for (int k = 0; k < 3; k++) {
    SbpProblem p = stretched_problem(PETSC_COMM_SELF, Ns[k], Ns[k], "DDNN", SBP_BACKEND_DEVICE, NULL);
    int        lines[16];
    PetscInt   its = solve_random(p, lines);
    print_message("  stretched %d^2: %d iterations, lines of the finest level %d\n", (int)Ns[k], (int)its, lines[0]);
    if (its > 12) fail_msg("stretched %d^2: %d iterations > 12", (int)Ns[k], (int)its);
    if (lines[0] != 3) fail_msg("stretched %d^2: the finest level smooths along lines %d, not both directions", (int)Ns[k], lines[0]);
    lo = PetscMin(lo, its);
    hi = PetscMax(hi, its);
    PCALL(SbpProblemDestroy(&p));
  }
  if (hi - lo > 2) fail_msg("stretched grids: iterations from %d to %d", (int)lo, (int)hi);
  {
    SbpProblem p = stretched_problem(PETSC_COMM_SELF, 64, 64, "DDNN", SBP_BACKEND_DEVICE, NULL);
    SbpmgTestSetOption("-pc_sbpmg_lines", "none");
    none = solve_random(p, NULL);
    SbpmgTestSetOption("-pc_sbpmg_lines", NULL);
    print_message("  stretched 64^2 with point smoothing: %d iterations\n", (int)none);
    if (none <= 2 * hi) fail_msg("point smoothing took %d iterations, lines %d: the test cannot tell them apart", (int)none, (int)hi);
    PCALL(SbpProblemDestroy(&p));
  }
  /* the host backend and the single-precision V-cycle */
  {
    SbpProblem p   = stretched_problem(PETSC_COMM_SELF, 64, 64, "DDDD", SBP_BACKEND_HOST, NULL);
    PetscInt   its = solve_random(p, NULL);
    print_message("  stretched 64^2 DDDD on the host: %d iterations\n", (int)its);
    if (its > 12) fail_msg("stretched 64^2 on the host: %d iterations > 12", (int)its);
    PCALL(SbpProblemDestroy(&p));
    p = stretched_problem(PETSC_COMM_SELF, 64, 64, "DDNN", SBP_BACKEND_DEVICE, "mg_line_chunks=8,mg_line_group=4,mg_line_batch=4");
    SbpmgTestSetOption("-pc_sbpmg_precision", "single");
    its = solve_random(p, NULL);
    SbpmgTestSetOption("-pc_sbpmg_precision", NULL);
    print_message("  stretched 64^2, fp32 V-cycle, chunked line solves: %d iterations\n", (int)its);
    if (its > 12) fail_msg("stretched 64^2, fp32 V-cycle: %d iterations > 12", (int)its);
    PCALL(SbpProblemDestroy(&p));
    p = stretched_problem(PETSC_COMM_SELF, 64, 64, "DDNN", SBP_BACKEND_DEVICE, "mg_line_chunks=8,mg_line_group=4,mg_line_tile=3,mg_line_tile_min=0");
    SbpmgTestSetOption("-pc_sbpmg_precision", "single");
    its = solve_random(p, NULL);
    SbpmgTestSetOption("-pc_sbpmg_precision", NULL);
    print_message("  stretched 64^2, fp32 V-cycle, r-lines in tiles: %d iterations\n", (int)its);
    if (its > 12) fail_msg("stretched 64^2, fp32 V-cycle, r-lines in tiles: %d iterations > 12", (int)its);
    PCALL(SbpProblemDestroy(&p));
  }
}

/* Unequal sides of the curved basin: at most 15 iterations, r-lines where Nr >> Ns, s-lines where Ns >> Nr; the square grid keeps point
   smoothing (its anisotropy, about 6.7, is below the default ratio). */
static void test_unequal_sides(void **state)
{
  if (SbpTestWorldSize() > 1) skip(); /* one rank's tests; several ranks: test_ranks */
  static const struct {
    PetscInt Nr, Ns;
    int      lines;
  } cases[] = {
      {256, 8, 1},
      {8, 256, 2},
      {128, 16, 1},
      {64, 64, 0},
  };
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    SbpProblem p         = SbpTestProblem(PETSC_COMM_SELF, cases[c].Nr, cases[c].Ns, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL);
    int        lines[16] = {0};
    PetscInt   its       = solve_random(p, lines);
    print_message("  curved %d x %d: %d iterations, lines of the finest level %d\n", (int)cases[c].Nr, (int)cases[c].Ns, (int)its, lines[0]);
    if (its > 15) fail_msg("curved %d x %d: %d iterations > 15", (int)cases[c].Nr, (int)cases[c].Ns, (int)its);
    if (lines[0] != cases[c].lines) fail_msg("curved %d x %d: lines %d, expected %d", (int)cases[c].Nr, (int)cases[c].Ns, lines[0], cases[c].lines);
    PCALL(SbpProblemDestroy(&p));
  }
}

/* A grid anisotropic everywhere (the curved basin on 512 x 50 and 1024 x 100: r-lines on every level, both sides coarsened as on a
   CPU), a random right-hand side of mean zero, ||r|| <= 1e-8 ||b||: with the line sweeps growing on the coarser levels
   (-pc_sbpmg_line_nu_max, a CPU's default 3) at least 2 iterations fewer at 1024 x 100 than with one sweep a level (14 against 16 when
   measured; 10 against 13 for bench/robust_bench's right-hand side: docs/design.md "Line smoothers"), never more, and at most 15; each
   level's sweeps are min(k + 1, 3) (k levels below the finest), the same down and up, and the V-cycle stays symmetric. */
static void test_line_growth(void **state)
{
  if (SbpTestWorldSize() > 1) skip(); /* one rank's tests; several ranks: test_ranks */
  {
    static const PetscInt sizes[][2] = {{512, 50}, {1024, 100}};
    PetscInt              grown[2], flat[2];
    SbpmgTestSetOption("-ksp_norm_type", "unpreconditioned"); /* ||r|| <= 1e-8 ||b||, as bench/robust_bench */
    for (int c = 0; c < 2; c++) {
      SbpProblem p =
          SbpTestProblem(PETSC_COMM_SELF, sizes[c][0], sizes[c][1], "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, "sbp_coarsen_aspect=0,mg_line_nu_max=3");
      grown[c] = solve_random(p, NULL);
      SbpmgTestSetOption("-pc_sbpmg_line_nu_max", "1");
      flat[c] = solve_random(p, NULL);
      SbpmgTestSetOption("-pc_sbpmg_line_nu_max", NULL);
      print_message("  curved %d x %d: %d iterations with the line sweeps growing, %d without\n", (int)sizes[c][0], (int)sizes[c][1], (int)grown[c],
                    (int)flat[c]);
      if (grown[c] > flat[c])
        fail_msg("curved %d x %d: the growing line sweeps take more iterations (%d) than one a level (%d)", (int)sizes[c][0], (int)sizes[c][1], (int)grown[c],
                 (int)flat[c]);
      PCALL(SbpProblemDestroy(&p));
    }
    SbpmgTestSetOption("-ksp_norm_type", NULL);
    if (grown[1] > 15) fail_msg("curved 1024 x 100: %d iterations > 15", (int)grown[1]);
    if (grown[1] > flat[1] - 2)
      fail_msg("curved 1024 x 100: %d iterations with the line sweeps growing, %d with one a level: no gain", (int)grown[1], (int)flat[1]);
  }
  for (int host = 0; host < 2; host++) {
    SbpProblem p = SbpTestProblem(PETSC_COMM_SELF, 256, 16, "DDNN", SBP_MAPPING_CURVED, host ? SBP_BACKEND_HOST : SBP_BACKEND_DEVICE, NULL);
    Mat        A;
    KSP        ksp;
    PC         pc;
    PC_MG     *mg;
    Vec        x, y;
    PetscInt   L;
    PCALL(SbpProblemCreateOperator(p, &A));
    SbpmgTestSetOption("-pc_sbpmg_precision", "double");
    SbpmgTestSetOption("-pc_sbpmg_lines", "r");
    SbpmgTestSetOption("-pc_sbpmg_line_nu_max", "3");
    ksp = lines_mgcg(A, 1e-8, 10);
    PCALL(KSPSetFromOptions(ksp));
    PCALL(KSPSetUp(ksp));
    SbpmgTestSetOption("-pc_sbpmg_line_nu_max", NULL);
    SbpmgTestSetOption("-pc_sbpmg_lines", NULL);
    SbpmgTestSetOption("-pc_sbpmg_precision", NULL);
    PCALL(KSPGetPC(ksp, &pc));
    PCALL(PCSBPMGGetLevels(pc, &L));
    if (L < 4) fail_msg("curved 256 x 16: %d levels, expected at least 4", (int)L);
    mg = (PC_MG *)pc->data;
    for (PetscInt k = 0; k < L - 1; k++) { /* PCMG's level L - 1 - k is sbpmg's level k below the finest */
      PetscInt pre, post;
      PCALL(KSPGetTolerances(mg->levels[L - 1 - k]->smoothd, NULL, NULL, NULL, &pre));
      PCALL(KSPGetTolerances(mg->levels[L - 1 - k]->smoothu, NULL, NULL, NULL, &post));
      if (pre != PetscMin(k + 1, 3) || post != pre)
        fail_msg("level %d below the finest: %d pre- and %d post-sweeps, expected %d", (int)k, (int)pre, (int)post, (int)PetscMin(k + 1, 3));
    }
    PCALL(MatCreateVecs(A, &x, &y));
    for (int r = 0; r < 2; r++) {
      SbpmgTestFillRandom(x, 60 + r);
      SbpmgTestFillRandom(y, 70 + r);
      SbpTestCheckSymmetric(pc, x, y, host ? "r-lines growing, host" : "r-lines growing, device");
    }
    SbpmgTestDestroyVecs(&x, &y, NULL);
    PCALL(KSPDestroy(&ksp));
    PCALL(MatDestroy(&A));
    PCALL(SbpProblemDestroy(&p));
  }
}

/* The V-cycle with line smoothing in both directions (the up smoother the down one's adjoint) is symmetric and positive definite. */
static void test_symmetric(void **state)
{
  if (SbpTestWorldSize() > 1) skip(); /* one rank's tests; several ranks: test_ranks */
  static const struct {
    SbpBackend  backend;
    const char *tune, *smoother;
  } cases[] = {
      {SBP_BACKEND_DEVICE, NULL, "chebyshev"},
      {SBP_BACKEND_DEVICE, "mg_line_chunks=4,mg_line_group=2", "chebyshev"},
      {SBP_BACKEND_DEVICE, "mg_line_chunks=4,mg_line_group=2,mg_line_tile=3", "chebyshev"},
      {SBP_BACKEND_DEVICE, NULL, "jacobi"},
      {SBP_BACKEND_HOST, NULL, "chebyshev"},
  };
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    SbpProblem p = stretched_problem(PETSC_COMM_SELF, 32, 24, "DDNN", cases[c].backend, cases[c].tune);
    Mat        A;
    KSP        ksp;
    PC         pc;
    Vec        x, y;
    char       what[128];
    PCALL(SbpProblemCreateOperator(p, &A));
    SbpmgTestSetOption("-pc_sbpmg_precision", "double");
    SbpmgTestSetOption("-pc_sbpmg_line_nu", "2");
    ksp = lines_mgcg(A, 1e-8, 10);
    PCALL(KSPGetPC(ksp, &pc));
    SbpTestSetSmoother(pc, cases[c].smoother);
    PCALL(KSPSetFromOptions(ksp));
    PCALL(KSPSetUp(ksp));
    SbpmgTestSetOption("-pc_sbpmg_line_nu", NULL);
    SbpmgTestSetOption("-pc_sbpmg_precision", NULL);
    if (!PCSBPMGGetContext(pc)->lines[0] || PCSBPMGGetContext(pc)->lines[0]->dirs != 3) fail_msg("the stretched grid's finest level has no r- and s-lines");
    PCALL(MatCreateVecs(A, &x, &y));
    PCALL(PetscSNPrintf(what, sizeof(what), "lines, %s %s %s", cases[c].smoother, cases[c].backend == SBP_BACKEND_DEVICE ? "device" : "host",
                        cases[c].tune ? cases[c].tune : ""));
    for (int r = 0; r < 2; r++) {
      SbpmgTestFillRandom(x, 40 + r);
      SbpmgTestFillRandom(y, 50 + r);
      SbpTestCheckSymmetric(pc, x, y, what);
    }
    SbpmgTestDestroyVecs(&x, &y, NULL);
    PCALL(KSPDestroy(&ksp));
    PCALL(MatDestroy(&A));
    PCALL(SbpProblemDestroy(&p));
  }
}

/* Bad input: errors that name the option and its value (an unknown -pc_sbpmg_lines: tests/mg.cmake mg_bad_lines). */
static void test_bad_input(void **state)
{
  if (SbpTestWorldSize() > 1) skip(); /* one rank's tests; several ranks: test_ranks */
  static const struct {
    const char    *opts[5];
    PetscErrorCode code;
    const char    *msg;
  } cases[] = {
      {{"-pc_sbpmg_line_ratio", "0.5", NULL}, PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_line_ratio 0.5 must be >= 1 and finite"},
      {{"-pc_sbpmg_line_ratio", "inf", NULL}, PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_line_ratio inf"},
      {{"-pc_sbpmg_line_nu", "0", NULL}, PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_line_nu 0 must be >= 1"},
      {{"-pc_sbpmg_line_nu_max", "-1", NULL}, PETSC_ERR_ARG_OUTOFRANGE, "-pc_sbpmg_line_nu_max -1 must be >= 1 (0: the default)"},
      {{"-pc_sbpmg_line_nu", "2", "-pc_sbpmg_line_nu_max", "1", NULL},
       PETSC_ERR_ARG_INCOMP,
       "-pc_sbpmg_line_nu_max 1 is below the finest level's line sweeps (-pc_sbpmg_line_nu 2)"},
      {{"-pc_sbpmg_lines", "r", "-pc_sbpmg_smoother", "richardson", NULL}, PETSC_ERR_ARG_INCOMP, "-pc_sbpmg_lines r needs the chebyshev or jacobi smoother"},
  };
  SbpProblem p = SbpTestProblem(PETSC_COMM_SELF, 32, 16, "DDNN", SBP_MAPPING_CURVED, SBP_BACKEND_DEVICE, NULL);
  Mat        A;

  PCALL(SbpProblemCreateOperator(p, &A));
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    KSP ksp = lines_mgcg(A, 1e-8, 10);
    for (int o = 0; cases[c].opts[o]; o += 2) SbpmgTestSetOption(cases[c].opts[o], cases[c].opts[o + 1]);
    PCALL(KSPSetFromOptions(ksp));
    EXPECT_ERROR(KSPSetUp(ksp), cases[c].code, cases[c].msg);
    for (int o = 0; cases[c].opts[o]; o += 2) SbpmgTestSetOption(cases[c].opts[o], NULL);
    PCALL(KSPDestroy(&ksp));
  }
  PCALL(MatDestroy(&A));
  PCALL(SbpProblemDestroy(&p));
  {
    /* the tiled r-line solve beyond the device's local memory (50 MiB of tiles); the chunked solve's lines and chunks beyond its
       work-group (65536 work-items) */
    static const struct {
      const char *tune, *msg;
      int         dir;
    } local[] = {
        {"mg_line_chunks=1024,mg_line_tile=1024,mg_line_tile_min=0", "Tuning mg_line_tile 1024 with mg_line_chunks 1024: the tiled r-line solve needs", 0},
        {"mg_line_chunks=1024,mg_line_group=64,mg_line_tile=0", "Tuning mg_line_group 64 with mg_line_chunks 1024: the chunked line solve needs", 1},
    };
    for (size_t c = 0; c < sizeof(local) / sizeof(local[0]); c++) {
      PCSBPMGLines l;
      Vec          r, z;
      p = stretched_problem(PETSC_COMM_SELF, 16, 16, "DDNN", SBP_BACKEND_DEVICE, local[c].tune);
      PCALL(PCSBPMGLinesCreate(p, local[c].dir ? 2 : 1, &l));
      PCALL(SbpProblemCreateVector(p, &r));
      PCALL(VecDuplicate(r, &z));
      PCALL(VecSet(r, 1));
      EXPECT_ERROR(PCSBPMGLinesSolve(l, local[c].dir, r, z), PETSC_ERR_ARG_OUTOFRANGE, local[c].msg);
      SbpmgTestDestroyVecs(&r, &z, NULL);
      PCALL(PCSBPMGLinesDestroy(&l));
      PCALL(SbpProblemDestroy(&p));
    }
  }
}

/* v(i,j) = a function of the node alone, whatever the decomposition (p's DMDA layout) */
static void fill_nodes(SbpProblem p, Vec v, PetscReal phase)
{
  PetscScalar **a;

  PCALL(DMDAVecGetArray(SbpTestDM(p), v, &a));
  for (PetscInt j = p->ys; j < p->ys + p->ym; j++)
    for (PetscInt i = p->xs; i < p->xs + p->xm; i++) a[j][i] = PetscSinReal(0.31 * i - 0.23 * j + phase) + 0.2 * PetscCosReal(0.05 * i * j + phase);
  PCALL(DMDAVecRestoreArray(SbpTestDM(p), v, &a));
}

/* z = B^-1 r in each direction on the ranks of comm (lines cut by the ranks, joined: src/mg/lines_join.c) and on one rank (the lines
   whole), in natural order on rank 0: equal to 1e-12. */
static void check_ranks_line_solves(MPI_Comm comm, PetscInt Nr, PetscInt Ns, SbpBackend backend, const char *tune)
{
  Vec         zn[2], zs[2] = {NULL, NULL};
  PetscMPIInt rank, size;

  PCALL(MPI_Comm_rank(comm, &rank));
  PCALL(MPI_Comm_size(comm, &size));
  for (int one = 0; one < 2; one++) {
    SbpProblem   p;
    PCSBPMGLines l;
    Vec          r, z;
    if (one && rank != 0) break;
    p = stretched_problem(one ? PETSC_COMM_SELF : comm, Nr, Ns, "DDNN", backend, tune);
    PCALL(PCSBPMGLinesCreate(p, 3, &l));
    if (!one && size > 1 && l->lsize[0] * l->lsize[1] == 1) fail_msg("%d ranks cut no lines of the %d x %d grid", size, (int)Nr, (int)Ns);
    PCALL(SbpProblemCreateVector(p, &r));
    PCALL(VecDuplicate(r, &z));
    for (int dir = 0; dir < 2; dir++) {
      fill_nodes(p, r, 0.3 + dir);
      PCALL(VecSet(z, NAN));
      PCALL(PCSBPMGLinesSolve(l, dir, r, z));
      if (one) PCALL(VecDuplicate(z, &zs[dir]));
      if (one)
        PCALL(VecCopy(z, zs[dir]));
      else
        zn[dir] = SbpmgTestNaturalOnZero(SbpTestDM(p), z);
    }
    SbpmgTestDestroyVecs(&r, &z, NULL);
    PCALL(PCSBPMGLinesDestroy(&l));
    PCALL(SbpProblemDestroy(&p));
  }
  for (int dir = 0; dir < 2; dir++) {
    PetscReal err = SbpmgTestCompareOnZero(comm, zn[dir], zs[dir]);
    print_message("  %d x %d on %d ranks (%s %s), %s-lines: B^-1 r differs from one rank's by %.1e\n", (int)Nr, (int)Ns, size,
                  backend == SBP_BACKEND_DEVICE ? "device" : "host", tune ? tune : "", dir ? "s" : "r", err);
    if (!(err <= 1e-12)) fail_msg("%d x %d on %d ranks: the %s-line solve differs from one rank's by %g", (int)Nr, (int)Ns, size, dir ? "s" : "r", err);
    PCALL(VecDestroy(&zn[dir]));
    PCALL(VecDestroy(&zs[dir]));
  }
}

/* CG + sbpmg on the stretched grid from a right-hand side of the nodes alone, to 1e-8: iterations on comm's ranks and on one rank (within
   1: the joined line solves round differently), in the V-cycle's precision prec. */
static void check_ranks_iterations(MPI_Comm comm, PetscInt Nr, PetscInt Ns, SbpBackend backend, const char *prec)
{
  PetscInt    its[2] = {0, 0};
  PetscMPIInt rank, size;

  PCALL(MPI_Comm_rank(comm, &rank));
  PCALL(MPI_Comm_size(comm, &size));
  SbpmgTestSetOption("-pc_sbpmg_precision", prec);
  for (int one = 0; one < 2; one++) {
    SbpProblem         p;
    Mat                A;
    KSP                ksp;
    Vec                x, g;
    KSPConvergedReason reason;
    if (one && rank != 0) break;
    p = stretched_problem(one ? PETSC_COMM_SELF : comm, Nr, Ns, "DDNN", backend, NULL);
    PCALL(SbpProblemCreateOperator(p, &A));
    PCALL(MatCreateVecs(A, &x, &g));
    fill_nodes(p, g, 0.9);
    ksp = lines_mgcg(A, 1e-8, 200);
    PCALL(KSPSetFromOptions(ksp));
    PCALL(KSPSolve(ksp, g, x));
    PCALL(KSPGetConvergedReason(ksp, &reason));
    if (reason < 0) fail_msg("%d x %d on %d ranks: CG + sbpmg did not converge: %s", (int)Nr, (int)Ns, one ? 1 : size, KSPConvergedReasons[reason]);
    PCALL(KSPGetIterationNumber(ksp, &its[one]));
    PCALL(KSPDestroy(&ksp));
    SbpmgTestDestroyVecs(&x, &g, NULL);
    PCALL(MatDestroy(&A));
    PCALL(SbpProblemDestroy(&p));
  }
  SbpmgTestSetOption("-pc_sbpmg_precision", NULL);
  PCALL(MPI_Bcast(&its[1], 1, MPIU_INT, 0, comm));
  print_message("  stretched %d x %d (%s, %s): %d iterations on %d ranks, %d on one\n", (int)Nr, (int)Ns, backend == SBP_BACKEND_DEVICE ? "device" : "host",
                prec, (int)its[0], size, (int)its[1]);
  if (PetscAbsInt(its[0] - its[1]) > 1) fail_msg("stretched %d x %d on %d ranks: %d iterations, one rank %d", (int)Nr, (int)Ns, size, (int)its[0], (int)its[1]);
}

/* Several ranks (mg_lines_mpi2, mg_lines_mpi3): the blocks stay the whole lines, factored across the ranks and solved by joining the
   segments (src/mg/lines_join.c): the line solves equal one rank's, CG + sbpmg takes one rank's iterations (fp64 and fp32 V-cycles,
   device and host), and the V-cycle stays symmetric and positive. One rank: nothing to do. */
static void test_ranks(void **state)
{
  static const SbpBackend backends[] = {SBP_BACKEND_DEVICE, SBP_BACKEND_HOST};
  if (SbpTestWorldSize() == 1) skip();
  SbpTestDeviceFirstUse();
  check_ranks_line_solves(PETSC_COMM_WORLD, 40, 36, SBP_BACKEND_DEVICE, NULL);
  check_ranks_line_solves(PETSC_COMM_WORLD, 31, 45, SBP_BACKEND_DEVICE, NULL);
  check_ranks_line_solves(PETSC_COMM_WORLD, 31, 45, SBP_BACKEND_DEVICE, "mg_line_chunks=4,mg_line_tile=3,mg_line_tile_min=0"); /* segments in tiles, joined */
  check_ranks_line_solves(PETSC_COMM_WORLD, 31, 45, SBP_BACKEND_HOST, NULL);
  check_ranks_iterations(PETSC_COMM_WORLD, 96, 96, SBP_BACKEND_DEVICE, "double");
  check_ranks_iterations(PETSC_COMM_WORLD, 64, 64, SBP_BACKEND_DEVICE, "double"); /* 5 ranks: balanced coarse blocks broke the transfers */
  check_ranks_iterations(PETSC_COMM_WORLD, 96, 96, SBP_BACKEND_DEVICE, "single");
  check_ranks_iterations(PETSC_COMM_WORLD, 80, 64, SBP_BACKEND_HOST, "double");
  for (int b = 0; b < 2; b++) {
    SbpProblem p = stretched_problem(PETSC_COMM_WORLD, 40, 36, "DDNN", backends[b], NULL);
    Mat        A;
    KSP        ksp;
    PC         pc;
    Vec        x, y;
    char       what[96];
    PCALL(SbpProblemCreateOperator(p, &A));
    SbpmgTestSetOption("-pc_sbpmg_precision", "double");
    ksp = lines_mgcg(A, 1e-8, 200);
    PCALL(KSPSetFromOptions(ksp));
    PCALL(KSPSetUp(ksp));
    SbpmgTestSetOption("-pc_sbpmg_precision", NULL);
    PCALL(KSPGetPC(ksp, &pc));
    if (!PCSBPMGGetContext(pc)->lines[0] || PCSBPMGGetContext(pc)->lines[0]->dirs != 3) fail_msg("the stretched grid's finest level has no r- and s-lines");
    PCALL(MatCreateVecs(A, &x, &y));
    PCALL(PetscSNPrintf(what, sizeof(what), "lines on %d ranks, %s", SbpTestWorldSize(), b ? "host" : "device"));
    SbpmgTestFillRandom(x, 71);
    SbpmgTestFillRandom(y, 72);
    SbpTestCheckSymmetric(pc, x, y, what);
    SbpmgTestDestroyVecs(&x, &y, NULL);
    PCALL(KSPDestroy(&ksp));
    PCALL(MatDestroy(&A));
    PCALL(SbpProblemDestroy(&p));
  }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_line_solves), cmocka_unit_test(test_stretched), cmocka_unit_test(test_unequal_sides), cmocka_unit_test(test_line_growth),
    cmocka_unit_test(test_symmetric),   cmocka_unit_test(test_bad_input), cmocka_unit_test(test_ranks),
};

SBPMG_TEST_MAIN(help, tests)
