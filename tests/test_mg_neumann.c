/* All faces Neumann (issue 22, item 3; docs/guide.md "All-Neumann problems"): the singular operator with the constant null space, the
   right-hand side made compatible (the removed constant reported), the error modulo the constants, CG + sbpmg (the pinned CHOLMOD coarse
   solve) against the exact solution at two sizes (order 2), against PETSc's CG + Jacobi on the assembled operator, and against the mixed
   case's iterations; the fp32 V-cycle; on one and on two ranks. */
#include "test_sbp_common.h"

static const char help[] = "Tests of all-Neumann problems with sbpmg (src/sbp, src/mg).\n";

static SbpProblem make_problem(PetscInt N, const char *bc, SbpMappingType map)
{
  return SbpTestProblem(PETSC_COMM_WORLD, N, N, bc, map, SBP_BACKEND_DEVICE, NULL);
}

/* 1^T v / ||v||_1 */
static PetscReal relative_sum(Vec v)
{
  PetscScalar sum;
  PetscReal   n1;

  PCALL(VecSum(v, &sum));
  PCALL(VecNorm(v, NORM_1, &n1));
  return PetscAbsScalar(sum) / n1;
}

typedef struct {
  PetscInt  its;
  PetscReal eH, res;
} Outcome;

/* CG + sbpmg to 1e-10 on the problem (taken over); the solution kept in *u if asked (the caller destroys it). */
static Outcome solve(SbpProblem p, const char *precision, Vec *u)
{
  SbpTestSystem s;
  Outcome       o;

  SbpTestSystemCreate(p, PETSC_FALSE, &s);
  SbpmgTestSetOption("-pc_sbpmg_precision", precision);
  s.ksp = SbpTestMGCG(s.A, 1e-10, 100);
  PCALL(KSPSetNormType(s.ksp, KSP_NORM_UNPRECONDITIONED)); /* the tolerance on ||b - A u|| */
  PCALL(KSPSetFromOptions(s.ksp));
  o.its = SbpTestSystemSolve(&s);
  SbpmgTestSetOption("-pc_sbpmg_precision", NULL);
  o.res = SbpTestTrueResidual(s.A, s.g, s.u);
  PCALL(SbpProblemComputeError(p, s.u, &o.eH, NULL));
  if (!(o.res < 2e-10)) fail_msg("%d x %d: CG converged in %d iterations, but ||b - A u|| / ||b|| = %g", (int)p->Nr, (int)p->Ns, (int)o.its, o.res);
  if (u) {
    PCALL(VecDuplicate(s.u, u));
    PCALL(VecCopy(s.u, *u));
  }
  SbpTestSystemDestroy(&s);
  return o;
}

/* The operator annihilates the constants and carries them as its null space; the assembled one too; SPD only with a Dirichlet face. */
static void test_null_space(void **state)
{
  SbpProblem   p = make_problem(32, "NNNN", SBP_MAPPING_CURVED), q = make_problem(32, "DNNN", SBP_MAPPING_CURVED);
  Mat          A, B, C;
  Vec          one, y;
  MatNullSpace nsp;
  PetscReal    ny, nd;
  PetscBool    isnull, spd, set;

  PCALL(SbpProblemCreateOperator(p, &A));
  PCALL(SbpProblemCreateAssembledOperator(p, &B));
  PCALL(SbpProblemCreateOperator(q, &C));
  PCALL(MatCreateVecs(A, &one, &y));
  PCALL(VecSet(one, 1));
  PCALL(MatMult(A, one, y));
  PCALL(VecNorm(y, NORM_INFINITY, &ny));
  PCALL(MatGetDiagonal(A, y));
  PCALL(VecNorm(y, NORM_INFINITY, &nd));
  print_message("  |M~ 1|_inf = %.2e (|diag M~|_inf = %.2e)\n", ny, nd);
  if (!(ny < 1e-12 * nd)) fail_msg("the all-Neumann operator does not annihilate the constants: |M~ 1| = %g", ny);
  for (int k = 0; k < 2; k++) {
    Mat M = k ? B : A;
    PCALL(MatGetNullSpace(M, &nsp));
    if (!nsp) fail_msg("%s all-Neumann operator without a null space", k ? "assembled" : "matrix-free");
    PCALL(MatNullSpaceTest(nsp, M, &isnull));
    if (!isnull) fail_msg("MatNullSpaceTest fails on the %s operator", k ? "assembled" : "matrix-free");
    PCALL(MatGetTransposeNullSpace(M, &nsp));
    if (!nsp) fail_msg("%s all-Neumann operator without a transpose null space", k ? "assembled" : "matrix-free");
    PCALL(MatIsSPDKnown(M, &set, &spd));
    if (set && spd) fail_msg("the singular %s operator is flagged SPD", k ? "assembled" : "matrix-free");
  }
  PCALL(MatGetNullSpace(C, &nsp));
  if (nsp) fail_msg("an operator with a Dirichlet face has a null space attached");
  SbpmgTestDestroyVecs(&one, &y, NULL);
  PCALL(MatDestroy(&A));
  PCALL(MatDestroy(&B));
  PCALL(MatDestroy(&C));
  PCALL(SbpProblemDestroy(&p));
  PCALL(SbpProblemDestroy(&q));
}

/* The error modulo the constants: the exact solution plus a constant has no error with every face Neumann, the constant's with a
   Dirichlet face. */
static void test_error_modulo_constant(void **state)
{
  const char *bcs[2] = {"NNNN", "DDNN"};

  for (int k = 0; k < 2; k++) {
    SbpProblem p = make_problem(32, bcs[k], SBP_MAPPING_CURVED);
    Vec        ue;
    PetscReal  eH, eJH, area;
    Mat        H;
    Vec        one, w;
    PCALL(SbpProblemCreateVector(p, &ue));
    PCALL(SbpProblemComputeExactSolution(p, ue));
    PCALL(VecShift(ue, 5));
    PCALL(SbpProblemComputeError(p, ue, &eH, &eJH));
    PCALL(SbpProblemCreateNorm(p, SBP_NORM_H, &H));
    PCALL(VecDuplicate(ue, &one));
    PCALL(VecDuplicate(ue, &w));
    PCALL(VecSet(one, 1));
    PCALL(MatMult(H, one, w));
    PCALL(VecSum(w, &area));
    print_message("  %s: the exact solution + 5 has error %.3e (H), %.3e (JH)\n", bcs[k], eH, eJH);
    if (k == 0 && !(eH < 1e-12 && eJH < 1e-12)) fail_msg("all faces Neumann: a constant shift counted as error %g, %g", eH, eJH);
    if (k == 1 && !(PetscAbsReal(eH - 5 * PetscSqrtReal(area)) < 1e-12))
      fail_msg("a Dirichlet face: error %g of a shift by 5, not %g", eH, 5 * PetscSqrtReal(area));
    SbpmgTestDestroyVecs(&ue, &one, &w, NULL);
    PCALL(MatDestroy(&H));
    PCALL(SbpProblemDestroy(&p));
  }
}

/* CG + sbpmg on the square and the curved grid at two sizes: converged with a true residual below the tolerance, the error modulo the
   constants of order 2 (the curved grid approaches it from below: 1.63 from 32 to 64), the iterations within 3 of the mixed problem's with
   one Dirichlet face (DNNN; DDNN takes fewer: its larger b is dominated by the Dirichlet data). */
static void test_convergence(void **state)
{
  const SbpMappingType maps[2]  = {SBP_MAPPING_SQUARE, SBP_MAPPING_CURVED};
  const PetscReal      order[2] = {1.95, 1.75};

  for (int m = 0; m < 2; m++) {
    Outcome o[2];
    for (int k = 0; k < 2; k++) {
      PetscInt   N = 64 << k;
      Outcome    mixed;
      PetscReal  shift, sum;
      SbpProblem p = make_problem(N, "NNNN", maps[m]);
      PCALL(PetscObjectReference((PetscObject)p));
      o[k] = solve(p, NULL, NULL);
      PCALL(SbpProblemGetRHSShift(p, &shift, &sum));
      PCALL(SbpProblemDestroy(&p));
      mixed = solve(make_problem(N, "DNNN", maps[m]), NULL, NULL);
      print_message("  %s %d^2 all Neumann: %d iterations, error modulo constants %.4e, residual %.1e; 1^T b %.2e removed by the shift %.2e; "
                    "DNNN: %d iterations, error %.4e\n",
                    SbpMappingTypes[maps[m]], (int)N, (int)o[k].its, o[k].eH, o[k].res, sum, shift, (int)mixed.its, mixed.eH);
      if (PetscAbsInt(o[k].its - mixed.its) > 3) fail_msg("%d iterations all-Neumann, %d with DNNN", (int)o[k].its, (int)mixed.its);
      if (!(PetscAbsReal(sum) < 1e-2)) fail_msg("the manufactured data's 1^T b = %g: not compatible to the discretisation error", sum);
    }
    {
      PetscReal q = PetscLog2Real(o[0].eH / o[1].eH);
      print_message("  %s: order %.3f\n", SbpMappingTypes[maps[m]], q);
      if (!(q > order[m])) fail_msg("%s grid, all Neumann: order %g of the error modulo constants, below %g", SbpMappingTypes[maps[m]], q, order[m]);
    }
  }
}

/* The multigrid solution against PETSc's CG + Jacobi on the assembled operator (its own null-space handling, no sbpmg): equal modulo the
   constants to 1e-7 relative. */
static void test_against_cg_jacobi(void **state)
{
  SbpProblem    p = make_problem(32, "NNNN", SBP_MAPPING_CURVED);
  SbpTestSystem s;
  Vec           u;
  PC            pc;
  PetscInt      its;
  PetscScalar   mean;
  PetscReal     diff, nu;
  PetscInt      n;

  PCALL(PetscObjectReference((PetscObject)p));
  (void)solve(p, NULL, &u);
  SbpTestSystemCreate(p, PETSC_TRUE, &s);
  PCALL(KSPCreate(PETSC_COMM_WORLD, &s.ksp));
  PCALL(KSPSetOperators(s.ksp, s.A, s.A));
  PCALL(KSPSetType(s.ksp, KSPCG));
  PCALL(KSPGetPC(s.ksp, &pc));
  PCALL(PCSetType(pc, PCJACOBI));
  PCALL(KSPSetTolerances(s.ksp, 1e-13, 0, PETSC_DEFAULT, 5000));
  its = SbpTestSystemSolve(&s);
  PCALL(VecAXPY(u, -1, s.u));
  PCALL(VecSum(u, &mean));
  PCALL(VecGetSize(u, &n));
  PCALL(VecShift(u, -mean / n));
  PCALL(VecNorm(u, NORM_2, &diff));
  PCALL(VecNorm(s.u, NORM_2, &nu));
  print_message("  32^2 curved: sbpmg against CG + Jacobi (%d iterations): |u - u_ref - mean| / |u_ref| = %.2e\n", (int)its, diff / nu);
  if (!(diff < 1e-7 * nu)) fail_msg("the multigrid solution differs from CG + Jacobi's modulo the constants by %g", diff / nu);
  PCALL(VecDestroy(&u));
  SbpTestSystemDestroy(&s);
}

/* The fp32 V-cycle on the all-Neumann problem: the iterations within one of the fp64 one's, the error equal to 3 digits. */
static void test_single_precision(void **state)
{
  Outcome   d = solve(make_problem(128, "NNNN", SBP_MAPPING_CURVED), "double", NULL), f = solve(make_problem(128, "NNNN", SBP_MAPPING_CURVED), "single", NULL);
  PetscReal de = PetscAbsReal(f.eH - d.eH) / d.eH;

  print_message("  128^2 curved all Neumann: fp64 V-cycle %d iterations, error %.6e; fp32 %d, %.6e\n", (int)d.its, d.eH, (int)f.its, f.eH);
  if (PetscAbsInt(f.its - d.its) > 1) fail_msg("%d iterations with the fp32 V-cycle against %d", (int)f.its, (int)d.its);
  if (!(de < 5e-4)) fail_msg("error %g with the fp32 V-cycle against %g", f.eH, d.eH);
}

/* -div grad u = f on the square, zero flux, f = 1 + x: incompatible (int f = 4). The right-hand side is made compatible by removing the
   constant 1 from f (1^T b = 4, the area, reported), and the solution is that of f = x: u = (3x - x^3)/6 up to a constant. */
static PetscErrorCode Forcing(void *ctx, PetscReal x, PetscReal y, PetscReal *f)
{
  *f = 1 + x;
  return 0;
}
static PetscErrorCode Exact(void *ctx, PetscReal x, PetscReal y, PetscReal *u)
{
  *u = (3 * x - x * x * x) / 6 + 7; /* any constant */
  return 0;
}

static void test_incompatible_forcing(void **state)
{
  SbpProblem    p;
  SbpTestSystem s;
  PetscReal     shift, sum, eH, res;
  PetscInt      its;
  PetscViewer   v;
  char          text[2048] = "", name[64];
  PetscMPIInt   rank, size;

  PCALL(SbpProblemCreate(PETSC_COMM_WORLD, &p));
  PCALL(SbpProblemSetSizes(p, 64, 64));
  PCALL(SbpProblemSetMapping(p, SBP_MAPPING_SQUARE));
  PCALL(SbpProblemSetMu(p, SBP_MU_CONSTANT, 1));
  for (PetscInt f = 1; f <= 4; f++) PCALL(SbpProblemSetBC(p, f, SBP_BC_NEUMANN));
  PCALL(SbpProblemSetUp(p));
  PCALL(SbpProblemSetForcingFunction(p, Forcing, NULL));
  PCALL(SbpProblemSetExactSolution(p, Exact, NULL));
  SbpTestSystemCreate(p, PETSC_FALSE, &s);
  PCALL(SbpProblemGetRHSShift(p, &shift, &sum));
  print_message("  f = 1 + x, zero flux: 1^T b = %.15g removed by shifting f by %.15g; |1^T b| / |b|_1 after: %.1e\n", sum, shift, relative_sum(s.g));
  if (!(PetscAbsReal(sum - 4) < 1e-12)) fail_msg("1^T b = %.15g before, not the area 4", sum);
  if (!(PetscAbsReal(shift - 1) < 1e-12)) fail_msg("the forcing was shifted by %.15g, not 1", shift);
  if (!(relative_sum(s.g) < 1e-14)) fail_msg("the right-hand side is not compatible: 1^T b / |b|_1 = %g", relative_sum(s.g));
  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PCALL(PetscSNPrintf(name, sizeof(name), "neumann-view-%d.txt", (int)size));
  PCALL(PetscViewerASCIIOpen(PETSC_COMM_WORLD, name, &v));
  PCALL(SbpProblemView(p, v));
  PCALL(PetscViewerDestroy(&v));
  PCALL(MPI_Barrier(PETSC_COMM_WORLD));
  if (!rank) {
    FILE  *fp = fopen(name, "r");
    size_t n;
    assert_non_null(fp);
    n = fread(text, 1, sizeof(text) - 1, fp);
    fclose(fp);
    text[n] = 0;
    if (!strstr(text, "made compatible: 1^T b = 4. removed by shifting the forcing by 1.")) fail_msg("SbpProblemView does not report the shift:\n%s", text);
  }
  s.ksp = SbpTestMGCG(s.A, 1e-10, 100);
  PCALL(KSPSetNormType(s.ksp, KSP_NORM_UNPRECONDITIONED));
  its = SbpTestSystemSolve(&s);
  res = SbpTestTrueResidual(s.A, s.g, s.u);
  PCALL(SbpProblemComputeError(p, s.u, &eH, NULL));
  print_message("  solved in %d iterations, residual %.1e, error modulo constants against (3x - x^3)/6: %.3e\n", (int)its, res, eH);
  if (!(res < 2e-10)) fail_msg("true residual %g", res);
  if (!(eH < 1e-3)) fail_msg("error %g against the solution of the compatible problem", eH);
  SbpTestSystemDestroy(&s);
  { /* a Dirichlet face: nothing shifted */
    SbpProblem q = make_problem(16, "DNNN", SBP_MAPPING_SQUARE);
    Vec        g;
    PCALL(SbpProblemCreateVector(q, &g));
    PCALL(SbpProblemComputeRHS(q, g));
    PCALL(SbpProblemGetRHSShift(q, &shift, &sum));
    if (shift != 0 || sum != 0) fail_msg("a Dirichlet face, yet a shift %g of the forcing", shift);
    PCALL(VecDestroy(&g));
    PCALL(SbpProblemDestroy(&q));
  }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_null_space),        cmocka_unit_test(test_error_modulo_constant), cmocka_unit_test(test_convergence),
    cmocka_unit_test(test_against_cg_jacobi), cmocka_unit_test(test_single_precision),      cmocka_unit_test(test_incompatible_forcing),
};

SBPMG_TEST_MAIN(help, tests)
