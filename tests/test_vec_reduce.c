/* VECSEQOPENCL's reductions against VECSEQ: every kind on random data of several lengths, on the CPU's geometry and on a
   GPU's (through the tuning table), reproducible to the bit, with one small read each; NaN, ties, empty vectors; the
   context's pinned result area. */
#include "vectest.h"

static const char help[] = "Tests of sbpmg's device vector VECSEQOPENCL (src/vec): reductions.\n";

static void test_reductions(void **state)
{
  VecTestForSizes(VecTestReductions);
}

/* Same values, same device: the same bits, every time, and on a copy made another way. */
static void test_reductions_reproducible(void **state)
{
  VecTestForSizes(VecTestReductionsReproducible);
}

/* ---------------------------------------------------------------- every kind, on two geometries

   Every reduction agrees with VECSEQ and costs one read of its result scalars (per 64 vectors for VecMDot). */

/* Results of a list of reductions, each with the tolerance of its comparison with the host (0: exact), and the reads
   from the device they should cost: one transfer per reduction (per 64 vectors for VecMDot), of its results. */
#define MAX_RESULTS 96
typedef struct {
  PetscScalar    r[MAX_RESULTS];
  PetscReal      tol[MAX_RESULTS];
  const char    *what[MAX_RESULTS];
  int            count;
  PetscLogDouble reads, scalars;
} ReduceList;

static void put(ReduceList *l, const char *what, PetscScalar v, PetscReal tol)
{
  if (l->count == MAX_RESULTS) fail_msg("more than %d results", MAX_RESULTS);
  l->what[l->count] = what;
  l->tol[l->count]  = tol;
  l->r[l->count++]  = v;
}

/* One reduction's cost in device -> host transfers: reads of scalars in all */
static void cost(ReduceList *l, PetscLogDouble reads, PetscLogDouble scalars)
{
  l->reads += reads;
  l->scalars += scalars;
}

/* Every reduction of x (and y, m[0..8]): sum, the norms, dot, tdot, mdot of 1..9 vectors, max and min with their
   locations, max pointwise divide, dotnorm2. Values in [-1, 1), so n bounds the sums of magnitudes. */
static void all_reductions(Vec x, Vec y, Vec m[9], ReduceList *l)
{
  static const NormType types[] = {NORM_1, NORM_2, NORM_FROBENIUS, NORM_INFINITY};
  static const char    *names[] = {"norm 1", "norm 2", "norm frobenius", "norm infinity"};
  PetscInt              n, at;
  PetscReal             r, r2[2], tol;
  PetscScalar           v, w, md[9];

  PCALL(VecGetSize(x, &n));
  tol      = 4.0 * PetscMax(n, 1) * VT_EPS * PetscMax(n, 1);
  l->count = 0;
  l->reads = l->scalars = 0;
  PCALL(VecSum(x, &v));
  put(l, "sum", v, tol);
  cost(l, 1, 1);
  for (int t = 0; t < 4; t++) {
    PCALL(PetscObjectStateIncrease((PetscObject)x)); /* or PETSc answers from its cache */
    PCALL(VecNorm(x, types[t], &r));
    put(l, names[t], r, types[t] == NORM_INFINITY ? 0 : tol);
    cost(l, 1, 1);
  }
  PCALL(PetscObjectStateIncrease((PetscObject)x));
  PCALL(VecNorm(x, NORM_1_AND_2, r2));
  put(l, "norm 1 of 1_and_2", r2[0], tol);
  put(l, "norm 2 of 1_and_2", r2[1], tol);
  cost(l, 1, 2);
  PCALL(VecDot(x, y, &v));
  put(l, "dot", v, tol);
  PCALL(VecTDot(x, y, &v));
  put(l, "tdot", v, tol);
  cost(l, 2, 2);
  for (PetscInt k = 1; k <= 9; k++) {
    PCALL(VecMDot(x, k, m, md));
    for (PetscInt j = 0; j < k; j++) put(l, "mdot", md[j], tol);
    cost(l, (k + VEC_CL_NRES - 1) / VEC_CL_NRES, k); /* one read per VEC_CL_NRES (64) vectors, whatever the passes over x */
  }
  PCALL(VecMax(x, &at, &r));
  put(l, "max", r, 0);
  put(l, "max location", at, 0);
  PCALL(VecMin(x, &at, &r));
  put(l, "min", r, 0);
  put(l, "min location", at, 0);
  cost(l, 2, 4); /* (value, index) pairs */
  PCALL(VecMaxPointwiseDivide(x, y, &r));
  put(l, "max pointwise divide", r, 0);
  cost(l, 1, 1);
  PCALL(VecDotNorm2(x, y, &v, &w));
  put(l, "dotnorm2 dot", v, tol);
  put(l, "dotnorm2 norm", w, tol);
  cost(l, 1, 2);
}

/* The reductions of the device vectors of one length on the context cl against the host, with their transfers. */
static void check_all_reductions(SbpmgCL cl, PetscInt n)
{
  Vec         xd, xh, yd, yh, md[9], mh[9];
  ReduceList  dev, host;
  VecTestSnap s0, s1;
  char        name[64];

  VecTestMakePair(PETSC_COMM_SELF, cl, n, n, 301 + n, -1, 1, &xd, &xh);
  VecTestMakePair(PETSC_COMM_SELF, cl, n, n, 302 + n, -1, 1, &yd, &yh);
  for (int j = 0; j < 9; j++) VecTestMakePair(PETSC_COMM_SELF, cl, n, n, 310 + 7 * j + n, -1, 1, &md[j], &mh[j]);
  PCALL(PetscSNPrintf(name, sizeof(name), "n=%d (G=%d)", (int)n, (int)VecCLData(xd)->rgroups));
  all_reductions(xh, yh, mh, &host);
  VecTestSnapshot(&s0);
  all_reductions(xd, yd, md, &dev);
  VecTestSnapshot(&s1);
  VecTestNoVectorTransfer(name, &s0, &s1, 8);
  if (s1.cl.dtoh_count - s0.cl.dtoh_count != dev.reads || s1.cl.dtoh_bytes - s0.cl.dtoh_bytes != dev.scalars * sizeof(PetscScalar))
    fail_msg("%s: %g reads of %g bytes, expected %g of %g", name, s1.cl.dtoh_count - s0.cl.dtoh_count, s1.cl.dtoh_bytes - s0.cl.dtoh_bytes, dev.reads,
             dev.scalars * sizeof(PetscScalar));
  for (int i = 0; i < dev.count; i++) {
    PetscReal d = PetscRealPart(dev.r[i]), h = PetscRealPart(host.r[i]);
    if (dev.tol[i] == 0 ? memcmp(&dev.r[i], &host.r[i], sizeof(PetscScalar)) != 0 : !(PetscAbsReal(d - h) <= dev.tol[i]))
      fail_msg("%s: %s is %.17g on the device, %.17g on the host (tolerance %.3e)", name, dev.what[i], d, h, dev.tol[i]);
  }
  for (int j = 0; j < 9; j++) SbpmgTestDestroyPair(&md[j], &mh[j]);
  SbpmgTestDestroyPair(&xd, &xh);
  SbpmgTestDestroyPair(&yd, &yh);
}

/* A context on the same device whose vectors take the reduction geometry of a GPU with cu compute units: the GPU
   column of the tuning table (grid-stride kernels, up to 8 cu work-groups), more work-groups than the work-group
   size, so that stage 2 folds several partials per item. Only the vectors' geometry reads compute_units here. */
static void create_gpu_geometry_context(cl_uint cu, SbpmgCL *cl)
{
  SbpmgTestCreateContext("-sbpmg_tune", "vec_chunks=0,vec_egroups_per_cu=32,vec_rgroups_per_cu=8", cl);
  (*cl)->compute_units = cu;
}

static void test_all_reductions(void **state)
{
  static const PetscInt lengths[] = {1, 7, 255, 256, 257, 100003};
  const size_t          nlen      = SbpmgTestUnderMemcheck() ? 3 : sizeof(lengths) / sizeof(lengths[0]); /* valgrind: 1, 7, 255 */
  SbpmgCL               cl, gpu;

  PCALL(SbpmgCLGetDefault(&cl));
  for (size_t t = 0; t < nlen; t++) check_all_reductions(cl, lengths[t]);
  if (SbpmgTestUnderMemcheck()) return;  /* the GPU kernels' program would be compiled under valgrind: minutes, for kernel code it does not check */
  create_gpu_geometry_context(75, &gpu); /* up to 600 work-groups: 100003 entries take 391, 200003 take 600 (up to 3 partials per item) */
  for (size_t t = 0; t < nlen; t++) check_all_reductions(gpu, lengths[t]);
  check_all_reductions(gpu, 200003);
  {
    Vec v;
    PCALL(VecCreateSeqOpenCLWithContext(PETSC_COMM_SELF, gpu, 200003, &v));
    assert_int_equal(VecCLData(v)->rgroups, 600);
    assert_false(VecCLData(v)->chunks);
    PCALL(VecDestroy(&v));
  }
  PCALL(SbpmgCLDestroy(&gpu));
}

/* VecMDot of more vectors than one read's result slots (VEC_CL_NRES): each dot against the host's, in two reads. */
static void test_mdot_batches(void **state)
{
  enum { NV = VEC_CL_NRES + 6 };
  const PetscInt n = 1000;
  SbpmgCL        cl;
  Vec            xd, xh, yd[NV], yh[NV];
  PetscScalar    d[NV], h;
  VecTestSnap    s0, s1;

  PCALL(SbpmgCLGetDefault(&cl));
  VecTestMakePair(PETSC_COMM_SELF, cl, n, n, 901, -1, 1, &xd, &xh);
  for (int j = 0; j < NV; j++) VecTestMakePair(PETSC_COMM_SELF, cl, n, n, 911 + 3 * j, -1, 1, &yd[j], &yh[j]);
  VecTestSnapshot(&s0);
  PCALL(VecMDot(xd, NV, yd, d));
  VecTestSnapshot(&s1);
  if (s1.cl.dtoh_count - s0.cl.dtoh_count != 2 || s1.cl.dtoh_bytes - s0.cl.dtoh_bytes != NV * sizeof(PetscScalar))
    fail_msg("VecMDot of %d vectors: %g reads of %g bytes, expected 2 of %g", NV, s1.cl.dtoh_count - s0.cl.dtoh_count, s1.cl.dtoh_bytes - s0.cl.dtoh_bytes,
             (double)(NV * sizeof(PetscScalar)));
  for (int j = 0; j < NV; j++) {
    PCALL(VecDot(xh, yh[j], &h));
    if (!(PetscAbsScalar(d[j] - h) <= 4.0 * n * VT_EPS))
      fail_msg("VecMDot of %d vectors: dot %d is %.17g on the device, %.17g on the host", NV, j, (double)PetscRealPart(d[j]), (double)PetscRealPart(h));
  }
  for (int j = 0; j < NV; j++) SbpmgTestDestroyPair(&yd[j], &yh[j]);
  SbpmgTestDestroyPair(&xd, &xh);
}

/* The pinned result area of the reductions is made at a context's first reduction and released with the context. */
static void test_result_area(void **state)
{
  SbpmgCL      cl;
  SbpmgCLStats s0, s1;
  Vec          x;
  PetscReal    r;

  PCALL(SbpmgCLCreate(PETSC_COMM_SELF, &cl));
  PCALL(SbpmgCLGetGlobalStats(&s0));
  PCALL(VecCreateSeqOpenCLWithContext(PETSC_COMM_SELF, cl, 1000, &x));
  PCALL(VecSet(x, -2));
  assert_null(cl->results);
  PCALL(PetscObjectStateIncrease((PetscObject)x)); /* VecSet() left the norms in PETSc's cache */
  PCALL(VecNorm(x, NORM_1, &r));
  assert_true(r == 2000);
  assert_non_null(cl->results);
  PCALL(SbpmgCLGetGlobalStats(&s1));
  assert_int_equal(s1.live_buffers, s0.live_buffers + 2); /* the vector and the pinned area */
  PCALL(VecDestroy(&x));
  PCALL(SbpmgCLDestroy(&cl));
  PCALL(SbpmgCLGetGlobalStats(&s1));
  assert_int_equal(s1.live_buffers, s0.live_buffers);
}

/* Entry i of both vectors set to v (through the host) */
static void set_entry(Vec xd, Vec xh, PetscInt i, PetscScalar v)
{
  PCALL(VecSetValue(xd, i, v, INSERT_VALUES));
  PCALL(VecSetValue(xh, i, v, INSERT_VALUES));
  PCALL(VecAssemblyBegin(xd));
  PCALL(VecAssemblyEnd(xd));
  PCALL(VecAssemblyBegin(xh));
  PCALL(VecAssemblyEnd(xh));
}

/* VecMax (max 1) or VecMin of both: the same value (or both NaN) and location */
static PetscInt location(Vec xd, Vec xh, PetscBool max, PetscReal *r)
{
  PetscInt  id, ih;
  PetscReal rh;

  PCALL(max ? VecMax(xd, &id, r) : VecMin(xd, &id, r));
  PCALL(max ? VecMax(xh, &ih, &rh) : VecMin(xh, &ih, &rh));
  assert_true((*r == rh || (PetscIsNanReal(*r) && PetscIsNanReal(rh))) && id == ih);
  return id;
}

/* NaN and ties: the same answers as VECSEQ's host loops. */
static void test_reduction_special_values(void **state)
{
  const PetscInt n = 7;
  Vec            xd, xh;
  PetscReal      rd, r2d[2], r2h[2];

  VecTestMakePair(PETSC_COMM_SELF, NULL, n, n, 41, -1, 1, &xd, &xh);
  /* ties: the first index of the maximum and of the minimum */
  set_entry(xd, xh, 2, 5);
  set_entry(xd, xh, 5, 5);
  set_entry(xd, xh, 1, -5);
  set_entry(xd, xh, 6, -5);
  assert_int_equal(location(xd, xh, PETSC_TRUE, &rd), 2);
  assert_int_equal(location(xd, xh, PETSC_FALSE, &rd), 1);
  /* NaN inside: skipped by max/min, propagated by norms */
  set_entry(xd, xh, 3, (PetscScalar)NAN);
  (void)location(xd, xh, PETSC_TRUE, &rd);
  assert_false(PetscIsNanReal(rd));
  PCALL(VecNorm(xd, NORM_INFINITY, &rd));
  assert_true(PetscIsNanReal(rd));
  PCALL(VecNorm(xd, NORM_1_AND_2, r2d));
  PCALL(VecNorm(xh, NORM_1_AND_2, r2h));
  assert_true(PetscIsNanReal(r2d[0]) && PetscIsNanReal(r2d[1]) && PetscIsNanReal(r2h[0]));
  /* NaN first: it is the answer of max and min (as on the host) */
  set_entry(xd, xh, 0, (PetscScalar)NAN);
  assert_int_equal(location(xd, xh, PETSC_TRUE, &rd), 0);
  assert_true(PetscIsNanReal(rd));
  (void)location(xd, xh, PETSC_FALSE, &rd);
  assert_true(PetscIsNanReal(rd));
  /* scale by 0 and axpby with beta 0 clear NaN like VECSEQ */
  PCALL(VecScale(xd, 0));
  PCALL(VecNorm(xd, NORM_1, &rd));
  assert_true(rd == 0);
  SbpmgTestDestroyPair(&xd, &xh);
}

/* The estimates' fused Lanczos step (VecOpenCLLanczosStep_Private: r += alpha w, z = d r, (z, r)) against the three operations on
   VECSEQ, with and without d, at lengths that exercise the tails; and on host vectors, where it runs the three operations. */
static void test_lanczos_step(void **state)
{
  const PetscInt sizes[] = {1, 7, 1000, 100003};

  for (int t = 0; t < 4; t++)
    for (int jacobi = 0; jacobi < 2; jacobi++) {
      const PetscInt N = sizes[t];
      Vec            r, w, d, z, rh, wh, dh, zh;
      PetscScalar    rz, rzh;
      PetscReal      err, nrm;

      VecTestMakePair(PETSC_COMM_SELF, NULL, N, N, 11, -1, 1, &r, &rh);
      VecTestMakePair(PETSC_COMM_SELF, NULL, N, N, 12, -1, 1, &w, &wh);
      VecTestMakePair(PETSC_COMM_SELF, NULL, N, N, 13, 0.5, 2, &d, &dh);
      PCALL(VecDuplicate(r, &z));
      PCALL(VecDuplicate(rh, &zh));
      PCALL(VecOpenCLLanczosStep_Private(r, -0.375, w, jacobi ? d : NULL, z, &rz));
      PCALL(VecAXPY(rh, -0.375, wh));
      if (jacobi) PCALL(VecPointwiseMult(zh, rh, dh));
      PCALL(VecTDot(jacobi ? zh : rh, rh, &rzh));
      VecTestCheckReduction("(z, r) of the Lanczos step", N, PetscRealPart(rz), PetscRealPart(rzh), PetscAbsScalar(rzh) + 1);
      VecTestCheckValues("r after the Lanczos step", r, rh, 4, 1); /* a multiply-add per entry, fused or not */
      if (jacobi) VecTestCheckValues("z after the Lanczos step", z, zh, 8, 1);
      PCALL(VecOpenCLLanczosStep_Private(rh, 1, wh, jacobi ? dh : NULL, zh, &rzh)); /* host vectors: the three operations */
      PCALL(VecNorm(rh, NORM_2, &nrm));
      err = PetscAbsScalar(rzh - (jacobi ? rzh : nrm * nrm));
      assert_true(err <= 1e-12 * (1 + nrm * nrm));
      for (Vec *v = (Vec[]){r, w, d, z, rh, wh, dh, zh}, *e = v + 8; v < e; v++) PCALL(VecDestroy(v));
    }
}

static void test_empty_vector(void **state)
{
  Vec         x, y;
  PetscReal   r, r2[2];
  PetscScalar s;
  PetscInt    i;

  PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, 0, &x));
  PCALL(VecDuplicate(x, &y));
  PCALL(VecSet(x, 3));
  PCALL(VecAXPY(y, 2, x));
  PCALL(VecDot(x, y, &s));
  assert_true(s == 0);
  PCALL(VecNorm(x, NORM_2, &r));
  assert_true(r == 0);
  PCALL(PetscObjectStateIncrease((PetscObject)x));
  PCALL(VecNorm(x, NORM_INFINITY, &r));
  assert_true(r == 0);
  PCALL(VecNorm(x, NORM_1_AND_2, r2));
  assert_true(r2[0] == 0 && r2[1] == 0);
  PCALL(VecMax(x, &i, &r));
  assert_true(i == -1 && r == PETSC_MIN_REAL);
  PCALL(VecMin(x, &i, &r));
  assert_true(i == -1 && r == PETSC_MAX_REAL);
  PCALL(VecSum(x, &s));
  assert_true(s == 0);
  PCALL(VecDestroy(&x));
  PCALL(VecDestroy(&y));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_reductions),     cmocka_unit_test(test_reductions_reproducible),
    cmocka_unit_test(test_all_reductions), cmocka_unit_test(test_result_area),
    cmocka_unit_test(test_mdot_batches),   cmocka_unit_test(test_reduction_special_values),
    cmocka_unit_test(test_empty_vector),   cmocka_unit_test(test_lanczos_step),
};

SBPMG_TEST_MAIN(help, tests)
