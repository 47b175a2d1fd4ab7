/* The sequences of operations that VECSEQOPENCL and VECMPIOPENCL run alike against VECSEQ and VECMPI (tests/vectest.h):
   every element-wise operation, every reduction, reproducibility, and Krylov solves. */
#include "vectest.h"

/* ---------------------------------------------------------------- element-wise operations */

typedef enum {
  OP_SET,
  OP_ZERO,
  OP_COPY,
  OP_SCALE,
  OP_SHIFT,
  OP_SWAP,
  OP_AXPY,
  OP_AYPX,
  OP_AXPBY,
  OP_AXPBYPCZ,
  OP_WAXPY,
  OP_PMULT,
  OP_PDIVIDE,
  OP_PMAX,
  OP_PMIN,
  OP_PMAXABS,
  OP_RECIPROCAL,
  OP_ABS,
  OP_SQRTABS,
  OP_LOG,
  OP_EXP
} VecTestOp;

/* One step: the operation on w (with x, y; swap exchanges w and z), its scalars, and the tolerance of the comparison */
typedef struct {
  const char *what;
  VecTestOp   op;
  PetscScalar a, b, c;
  PetscReal   ulps, floor;
} VecTestStep;

static const VecTestStep elementwise_steps[] = {
    {"set", OP_SET, 2.5, 0, 0, 0, 0},
    {"zero", OP_ZERO, 0, 0, 0, 0, 0},
    {"copy", OP_COPY, 0, 0, 0, 0, 0},
    {"scale", OP_SCALE, -0.37, 0, 0, 0, 0},
    {"shift", OP_SHIFT, 0.25, 0, 0, 0, 0},
    {"swap", OP_SWAP, 0, 0, 0, 0, 0},
    {"axpy", OP_AXPY, 1.75, 0, 0, 4, 2},
    {"aypx", OP_AYPX, -0.6, 0, 0, 4, 4},
    {"aypx alpha=0", OP_AYPX, 0.0, 0, 0, 0, 0},
    {"axpby", OP_AXPBY, 0.3, -1.1, 0, 4, 2},
    {"axpby beta=0", OP_AXPBY, 0.7, 0.0, 0, 0, 0},
    {"axpbypcz", OP_AXPBYPCZ, 0.5, -2.0, 1.5, 6, 4},
    {"axpbypcz gamma=0", OP_AXPBYPCZ, 0.5, -2.0, 0.0, 4, 4},
    {"waxpy", OP_WAXPY, -0.8, 0, 0, 4, 2},
    {"pointwise mult", OP_PMULT, 0, 0, 0, 0, 0},
    {"pointwise divide", OP_PDIVIDE, 0, 0, 0, 0, 0},
    {"pointwise max", OP_PMAX, 0, 0, 0, 0, 0},
    {"pointwise min", OP_PMIN, 0, 0, 0, 0, 0},
    {"pointwise maxabs", OP_PMAXABS, 0, 0, 0, 0, 0},
    {"copy before reciprocal", OP_COPY, 0, 0, 0, 0, 0},
    {"reciprocal", OP_RECIPROCAL, 0, 0, 0, 0, 0},
    {"abs", OP_ABS, 0, 0, 0, 0, 0},
    {"sqrtabs", OP_SQRTABS, 0, 0, 0, 0, 0},
    {"log", OP_LOG, 0, 0, 0, 4, 1},
    {"exp", OP_EXP, 0, 0, 0, 4, 0},
};

/* The operations of one signature: on w alone, on w with a scalar, w = f(x, y) */
static PetscErrorCode (*const unary_ops[])(Vec) = {
    [OP_ZERO] = VecZeroEntries, [OP_RECIPROCAL] = VecReciprocal, [OP_ABS] = VecAbs, [OP_SQRTABS] = VecSqrtAbs, [OP_LOG] = VecLog, [OP_EXP] = VecExp,
};
static PetscErrorCode (*const scalar_ops[])(Vec, PetscScalar) = {[OP_SET] = VecSet, [OP_SCALE] = VecScale, [OP_SHIFT] = VecShift};
static PetscErrorCode (*const pointwise_ops[])(Vec, Vec, Vec) = {
    [OP_PMULT] = VecPointwiseMult, [OP_PDIVIDE] = VecPointwiseDivide, [OP_PMAX] = VecPointwiseMax,
    [OP_PMIN] = VecPointwiseMin,   [OP_PMAXABS] = VecPointwiseMaxAbs,
};

#define VEC_TEST_HAS(table, op) ((size_t)(op) < sizeof(table) / sizeof((table)[0]) && (table)[op])

static void VecTestApply(const VecTestStep *s, Vec w, Vec x, Vec y, Vec z)
{
  if (VEC_TEST_HAS(unary_ops, s->op))
    PCALL(unary_ops[s->op](w));
  else if (VEC_TEST_HAS(scalar_ops, s->op))
    PCALL(scalar_ops[s->op](w, s->a));
  else if (VEC_TEST_HAS(pointwise_ops, s->op))
    PCALL(pointwise_ops[s->op](w, x, y));
  else if (s->op == OP_COPY)
    PCALL(VecCopy(x, w));
  else if (s->op == OP_SWAP)
    PCALL(VecSwap(w, z));
  else if (s->op == OP_AXPY)
    PCALL(VecAXPY(w, s->a, x));
  else if (s->op == OP_AYPX)
    PCALL(VecAYPX(w, s->a, y));
  else if (s->op == OP_AXPBY)
    PCALL(VecAXPBY(w, s->a, s->b, x));
  else if (s->op == OP_AXPBYPCZ)
    PCALL(VecAXPBYPCZ(w, s->a, s->b, s->c, x, y));
  else if (s->op == OP_WAXPY)
    PCALL(VecWAXPY(w, s->a, x, y));
  else
    fail_msg("%s: no operation", s->what);
}

/* maxpy of 3 vectors (one pass) and of 11 (two passes of the fused kernel) into w */
static void VecTestMAXPY(MPI_Comm comm, PetscInt n, PetscInt N, Vec wd, Vec wh)
{
  Vec         vd[11], vh[11];
  PetscScalar alpha[11];

  for (int j = 0; j < 11; j++) {
    VecTestMakePair(comm, NULL, n, N, 100 + 7 * j + N, -1, 1, &vd[j], &vh[j]);
    alpha[j] = 0.1 * (j + 1) * (j % 2 ? -1 : 1);
  }
  PCALL(VecMAXPY(wd, 3, alpha, vd));
  PCALL(VecMAXPY(wh, 3, alpha, vh));
  VecTestCheckValues("maxpy 3", wd, wh, 8, 4);
  PCALL(VecMAXPY(wd, 11, alpha, vd));
  PCALL(VecMAXPY(wh, 11, alpha, vh));
  VecTestCheckValues("maxpy 11", wd, wh, 16, 8);
  for (int j = 0; j < 11; j++) SbpmgTestDestroyPair(&vd[j], &vh[j]);
}

void VecTestElementwise(MPI_Comm comm, PetscInt n, PetscInt N)
{
  Vec xd, xh, yd, yh, zd, zh, wd, wh;

  VecTestMakePair(comm, NULL, n, N, 11 + N, -1, 1, &xd, &xh);
  VecTestMakePair(comm, NULL, n, N, 12 + N, -1, 1, &yd, &yh);
  VecTestMakePair(comm, NULL, n, N, 13 + N, -1, 1, &zd, &zh);
  VecTestMakePair(comm, NULL, n, N, 14 + N, -3, 5, &wd, &wh);
  for (size_t t = 0; t < sizeof(elementwise_steps) / sizeof(elementwise_steps[0]); t++) {
    const VecTestStep *s = &elementwise_steps[t];

    VecTestApply(s, wd, xd, yd, zd);
    VecTestApply(s, wh, xh, yh, zh);
    if (s->op == OP_SET || s->op == OP_SWAP) VecTestCheckMask(s->what, wd, PETSC_OFFLOAD_GPU);
    VecTestCheckValues(s->what, wd, wh, s->ulps, s->floor);
    if (s->op == OP_SWAP) VecTestCheckValues("swap (second)", zd, zh, 0, 0);
  }
  VecTestMAXPY(comm, n, N, wd, wh);
  SbpmgTestDestroyPair(&xd, &xh);
  SbpmgTestDestroyPair(&yd, &yh);
  SbpmgTestDestroyPair(&zd, &zh);
  SbpmgTestDestroyPair(&wd, &wh);
}

/* ---------------------------------------------------------------- reductions */

/* sum_i |x_i y_i| over all ranks: the scale of the dot products' tolerance */
static PetscReal VecTestDotScale(Vec xh, Vec yh)
{
  const PetscScalar *a, *b;
  PetscReal          local = 0, scale;
  PetscInt           n;

  PCALL(VecGetLocalSize(xh, &n));
  PCALL(VecGetArrayRead(xh, &a));
  PCALL(VecGetArrayRead(yh, &b));
  for (PetscInt i = 0; i < n; i++) local += PetscAbsScalar(a[i] * b[i]);
  PCALL(VecRestoreArrayRead(yh, &b));
  PCALL(VecRestoreArrayRead(xh, &a));
  PCALL(MPI_Allreduce(&local, &scale, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)xh)));
  return scale;
}

/* The norms of x and y on the device and on the host */
static void VecTestNorms(PetscInt N, Vec xd, Vec xh, Vec yd, Vec yh, PetscReal *norm1y)
{
  static const NormType types[] = {NORM_1, NORM_2, NORM_FROBENIUS};
  static const char    *names[] = {"norm 1", "norm 2", "norm frobenius"};
  PetscReal             rd, rh, r2d[2], r2h[2];

  for (int t = 0; t < 3; t++) {
    Vec d = t < 2 ? xd : yd, h = t < 2 ? xh : yh;
    PCALL(VecNorm(d, types[t], &rd));
    PCALL(VecNorm(h, types[t], &rh));
    VecTestCheckReduction(names[t], N, rd, rh, rh);
  }
  PCALL(VecNorm(yd, NORM_INFINITY, &rd));
  PCALL(VecNorm(yh, NORM_INFINITY, &rh));
  VecTestAllOk(rd == rh, "norm infinity N=%d: %g vs %g", (int)N, rd, rh);
  PCALL(VecNorm(yd, NORM_1_AND_2, r2d));
  PCALL(VecNorm(yh, NORM_1_AND_2, r2h));
  VecTestCheckReduction("norm 1 of 1_AND_2", N, r2d[0], r2h[0], r2h[0]);
  VecTestCheckReduction("norm 2 of 1_AND_2", N, r2d[1], r2h[1], r2h[1]);
  *norm1y = r2h[0];
}

/* max and min with and without their locations, exactly as on the host */
static void VecTestLocations(PetscInt N, Vec xd, Vec xh, Vec yd, Vec yh)
{
  for (int k = 0; k < 4; k++) {
    PetscErrorCode (*f)(Vec, PetscInt *, PetscReal *) = k % 2 ? VecMin : VecMax;
    const char *name                                  = k % 2 ? "min" : "max";
    Vec         d = k < 2 ? yd : xd, h = k < 2 ? yh : xh;
    PetscInt    id = -2, ih = -2;
    PetscReal   rd, rh;

    PCALL(f(d, k < 2 ? &id : NULL, &rd));
    PCALL(f(h, k < 2 ? &ih : NULL, &rh));
    VecTestAllOk(rd == rh && id == ih, "%s%s N=%d: %g at %d, host %g at %d", name, k < 2 ? "" : " without index", (int)N, rd, (int)id, rh, (int)ih);
  }
}

/* Split-phase reductions: PETSc reduces the local parts (dot_local, norm_local) itself */
static void VecTestSplitPhase(PetscInt N, Vec xd, Vec xh, Vec yd, Vec yh, PetscReal scale)
{
  PetscScalar sd, sh;
  PetscReal   rd, rh, r1d, r1h;

  PCALL(VecDotBegin(xd, yd, &sd));
  PCALL(VecNormBegin(xd, NORM_2, &rd));
  PCALL(VecNormBegin(yd, NORM_1, &r1d));
  PCALL(VecDotEnd(xd, yd, &sd));
  PCALL(VecNormEnd(xd, NORM_2, &rd));
  PCALL(VecNormEnd(yd, NORM_1, &r1d));
  PCALL(VecDot(xh, yh, &sh));
  PCALL(VecNorm(xh, NORM_2, &rh));
  PCALL(VecNorm(yh, NORM_1, &r1h));
  VecTestCheckReduction("dot_local", N, sd, sh, scale);
  VecTestCheckReduction("norm_local 2", N, rd, rh, rh);
  VecTestCheckReduction("norm_local 1", N, r1d, r1h, r1h);
}

/* mdot of y with 3 vectors (one pass) and 11 (two passes), also split-phase */
static void VecTestMDotsSplit(PetscInt N, Vec yd, Vec yh, Vec vd[11], Vec vh[11])
{
  PetscScalar md[11], mh[11];

  SbpmgTestMDots(yd, yh, vd, vh, N, VecTestCheckReduction, md, mh);
  PCALL(VecMDotBegin(yd, 11, vd, md));
  PCALL(VecMDotEnd(yd, 11, vd, md));
  for (int j = 0; j < 11; j++) VecTestCheckReduction("mdot split-phase", N, md[j], mh[j], 3 * N);
}

void VecTestReductions(MPI_Comm comm, PetscInt n, PetscInt N)
{
  Vec         xd, xh, yd, yh, vd[11], vh[11];
  PetscScalar sd, sh, dd, dh;
  PetscReal   rd, rh, scale, norm1y;
  VecTestSnap s0, s1;

  VecTestMakePair(comm, NULL, n, N, 21 + N, -1, 1, &xd, &xh);
  VecTestMakePair(comm, NULL, n, N, 22 + N, -2, 3, &yd, &yh);
  for (int j = 0; j < 11; j++) { /* for the mdots: x among them */
    if (j != 4) VecTestMakePair(comm, NULL, n, N, 200 + 3 * j + N, -1, 1, &vd[j], &vh[j]);
  }
  vd[4] = xd;
  vh[4] = xh;
  PCALL(PetscObjectReference((PetscObject)xd));
  PCALL(PetscObjectReference((PetscObject)xh));
  scale = VecTestDotScale(xh, yh);
  VecTestSnapshot(&s0);
  PCALL(VecDot(xd, yd, &sd));
  PCALL(VecDot(xh, yh, &sh));
  VecTestCheckReduction("dot", N, sd, sh, scale);
  PCALL(VecTDot(xd, yd, &sd));
  PCALL(VecTDot(xh, yh, &sh));
  VecTestCheckReduction("tdot", N, sd, sh, scale);
  VecTestNorms(N, xd, xh, yd, yh, &norm1y);
  PCALL(VecSum(yd, &sd));
  PCALL(VecSum(yh, &sh));
  VecTestCheckReduction("sum", N, sd, sh, norm1y);
  VecTestLocations(N, xd, xh, yd, yh);
  PCALL(VecDotNorm2(xd, yd, &dd, &sd));
  PCALL(VecDotNorm2(xh, yh, &dh, &sh));
  VecTestCheckReduction("dotnorm2 dot", N, dd, dh, scale);
  VecTestCheckReduction("dotnorm2 norm", N, sd, sh, sh);
  PCALL(VecMaxPointwiseDivide(xd, yd, &rd));
  PCALL(VecMaxPointwiseDivide(xh, yh, &rh));
  VecTestAllOk(rd == rh, "maxpointwisedivide N=%d: %g vs %g", (int)N, rd, rh);
  VecTestSplitPhase(N, xd, xh, yd, yh, scale);
  VecTestMDotsSplit(N, yd, yh, vd, vh);
  VecTestSnapshot(&s1);
  VecTestNoVectorTransfer("reductions", &s0, &s1, 8);
  VecTestCheckMask("reduced vector", xd, PETSC_OFFLOAD_BOTH); /* made on the host, synced, only read since */
  for (int j = 0; j < 11; j++) SbpmgTestDestroyPair(&vd[j], &vh[j]);
  SbpmgTestDestroyPair(&xd, &xh);
  SbpmgTestDestroyPair(&yd, &yh);
}

void VecTestReductionsReproducible(MPI_Comm comm, PetscInt n, PetscInt N)
{
  Vec          xd, xh, yd, yh, x2, y2, m[3];
  PetscScalar  first[SBPMG_TEST_NREDUCTIONS], again[SBPMG_TEST_NREDUCTIONS], *all;
  PetscMPIInt  size;
  PetscInt     nl;
  PetscScalar *a;

  PCALL(MPI_Comm_size(comm, &size));
  VecTestMakePair(comm, NULL, n, N, 31 + N, -1, 1, &xd, &xh);
  VecTestMakePair(comm, NULL, n, N, 32 + N, -1, 1, &yd, &yh);
  /* a second pair holding the same values: a device copy, and one uploaded from the host */
  PCALL(VecDuplicate(xd, &x2));
  PCALL(VecCopy(xd, x2));
  PCALL(VecDuplicate(yd, &y2));
  {
    const PetscScalar *b;
    PCALL(VecGetLocalSize(yh, &nl));
    PCALL(VecGetArrayRead(yh, &b));
    PCALL(VecGetArrayWrite(y2, &a));
    PCALL(PetscArraycpy(a, b, nl));
    PCALL(VecRestoreArrayWrite(y2, &a));
    PCALL(VecRestoreArrayRead(yh, &b));
  }
  m[0] = yd;
  m[1] = xd;
  m[2] = yd;
  for (int rep = 0; rep < 4; rep++) {
    int bad = -1;

    SbpmgTestReductions(rep < 3 ? xd : x2, rep < 3 ? yd : y2, m, rep ? again : first);
    for (int i = 0; rep && i < SBPMG_TEST_NREDUCTIONS && bad < 0; i++)
      if (memcmp(&first[i], &again[i], sizeof(PetscScalar))) bad = i;
    VecTestAllOk(bad < 0, "N=%d repetition %d: reduction %d gave %.17g, first time %.17g", (int)N, rep, bad, bad >= 0 ? (double)again[bad] : 0.0,
                 bad >= 0 ? (double)first[bad] : 0.0);
  }
  /* every rank holds the same bits */
  PCALL(PetscMalloc1(SBPMG_TEST_NREDUCTIONS * size, &all));
  PCALL(MPI_Allgather(first, SBPMG_TEST_NREDUCTIONS, MPIU_SCALAR, all, SBPMG_TEST_NREDUCTIONS, MPIU_SCALAR, comm));
  for (PetscMPIInt p = 1; p < size; p++) assert_memory_equal(all, all + SBPMG_TEST_NREDUCTIONS * p, SBPMG_TEST_NREDUCTIONS * sizeof(PetscScalar));
  PCALL(PetscFree(all));
  PCALL(VecDestroy(&x2));
  PCALL(VecDestroy(&y2));
  SbpmgTestDestroyPair(&xd, &xh);
  SbpmgTestDestroyPair(&yd, &yh);
}

/* ---------------------------------------------------------------- Krylov solves */

KSP VecTestCreateKSP(Mat A, KSPType type, PetscReal rtol, PetscInt maxit, PetscReal hist[])
{
  KSP ksp;
  PC  pc;

  PCALL(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PCALL(KSPSetOperators(ksp, A, A));
  PCALL(KSPSetType(ksp, type));
  PCALL(KSPGetPC(ksp, &pc));
  PCALL(PCSetType(pc, PCNONE));
  PCALL(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, maxit));
  if (hist) PCALL(KSPSetResidualHistory(ksp, hist, 1000, PETSC_TRUE));
  PCALL(KSPSetUp(ksp));
  return ksp;
}

void VecTestSolveCG(Mat A, Vec b, VecTestSolve *r)
{
  KSP         ksp = VecTestCreateKSP(A, KSPCG, 1e-10, 1000, r->hist);
  Vec         x;
  PetscInt    n, N;
  PetscMPIInt size;

  PCALL(VecDuplicate(b, &x));
  PCALL(VecOpenCLSyncDevice(b)); /* no-op for a host vector */
  VecTestSnapshot(&r->before);
  PCALL(KSPSolve(ksp, b, x));
  VecTestSnapshot(&r->after);
  PCALL(KSPGetIterationNumber(ksp, &r->its));
  PCALL(KSPGetConvergedReason(ksp, &r->reason));
  PCALL(KSPGetResidualHistory(ksp, NULL, &r->nhist));
  PCALL(VecGetLocalSize(x, &n));
  PCALL(VecGetSize(x, &N));
  PCALL(MPI_Comm_size(PetscObjectComm((PetscObject)x), &size));
  PCALL(VecCreate(PetscObjectComm((PetscObject)x), &r->x));
  PCALL(VecSetSizes(r->x, n, N));
  PCALL(VecSetType(r->x, size > 1 ? VECMPI : VECSEQ));
  PCALL(VecCopy(x, r->x));
  PCALL(KSPDestroy(&ksp));
  PCALL(VecDestroy(&x));
}

void VecTestCompareSolves(const char *what, VecTestSolve *d, VecTestSolve *h, PetscInt reads_per_it)
{
  PetscReal      dx, xmax;
  PetscLogDouble htod = d->after.cl.htod_count - d->before.cl.htod_count, dcount = d->after.cl.dtoh_count - d->before.cl.dtoh_count,
                 dbytes = d->after.cl.dtoh_bytes - d->before.cl.dtoh_bytes;
  int ok;

  print_message("  %s: device %d iterations (reason %d), host %d iterations (reason %d)\n", what, (int)d->its, (int)d->reason, (int)h->its, (int)h->reason);
  assert_true(h->reason > 0);
  assert_int_equal(d->reason, h->reason);
  assert_int_equal(d->its, h->its);
  assert_int_equal(d->nhist, h->nhist);
  for (PetscInt i = 0; i < h->nhist; i++)
    if (PetscAbsReal(d->hist[i] - h->hist[i]) > 1e-9 * h->hist[0])
      fail_msg("residual history differs at iteration %d: device %.17g host %.17g", (int)i, (double)d->hist[i], (double)h->hist[i]);
  PCALL(VecNorm(h->x, NORM_INFINITY, &xmax));
  PCALL(VecAXPY(d->x, -1, h->x));
  PCALL(VecNorm(d->x, NORM_INFINITY, &dx));
  print_message("  max |x_device - x_host| = %.3e (max |x| = %.3e)\n", (double)dx, (double)xmax);
  assert_true(dx <= 1e-8 * xmax);
  /* while iterating: nothing sent to the device, no whole-vector copy, only scalars read back (reductions, halo ends) */
  print_message("  [%d] transfers during KSPSolve: %g to the device, %g back (%g bytes)\n", (int)VecTestRank(), htod, dcount, dbytes);
  ok = htod == 0 && d->after.htod == d->before.htod && d->after.dtoh == d->before.dtoh && dcount > reads_per_it * d->its &&
       dbytes == dcount * sizeof(PetscScalar);
  VecTestAllOk(ok, "KSPSolve moved vectors: %g to the device, %g + %g whole-vector syncs, %g reads of %g bytes", htod, d->after.htod - d->before.htod,
               d->after.dtoh - d->before.dtoh, dcount, dbytes);
  PCALL(VecDestroy(&d->x));
  PCALL(VecDestroy(&h->x));
}
