#include "vectest.h"

PetscMPIInt VecTestRank(void)
{
  PetscMPIInt r;
  PCALL(MPI_Comm_rank(PETSC_COMM_WORLD, &r));
  return r;
}

PetscMPIInt VecTestSize(void)
{
  PetscMPIInt s;
  PCALL(MPI_Comm_size(PETSC_COMM_WORLD, &s));
  return s;
}

void VecTestAllOk(int ok, const char *fmt, ...)
{
  char    msg[512] = "";
  int     allok;
  va_list ap;

  if (!ok) {
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
  }
  PCALL(MPI_Allreduce(&ok, &allok, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD));
  if (!allok) fail_msg("[%d] %s", (int)VecTestRank(), ok ? "(failed on another rank)" : msg);
}

PetscInt VecTestLocalSize(const VecTestLayout *c)
{
  PetscMPIInt r = VecTestRank(), p = VecTestSize();

  switch (c->kind) {
  case 0:
    return PETSC_DECIDE;
  case 1: { /* cumulative weights r(r+1)/2 */
    PetscInt64 W = (PetscInt64)p * (p + 1) / 2, lo = (PetscInt64)r * (r + 1) / 2, hi = (PetscInt64)(r + 1) * (r + 2) / 2;
    return (PetscInt)((c->N * hi) / W - (c->N * lo) / W);
  }
  default:
    return r == p - 1 ? c->N : 0;
  }
}

void VecTestFillRandom(Vec v, PetscInt N, unsigned long seed, PetscReal lo, PetscReal hi)
{
  PetscScalar *g, *a;
  PetscInt     rs, re;

  PCALL(PetscMalloc1(N, &g));
  SbpmgTestRandom(N, g, lo, hi, seed);
  PCALL(VecGetOwnershipRange(v, &rs, &re));
  PCALL(VecGetArrayWrite(v, &a));
  for (PetscInt i = rs; i < re; i++) a[i - rs] = g[i];
  PCALL(VecRestoreArrayWrite(v, &a));
  PCALL(PetscFree(g));
}

void VecTestMakePair(MPI_Comm comm, SbpmgCL cl, PetscInt n, PetscInt N, unsigned long seed, PetscReal lo, PetscReal hi, Vec *d, Vec *h)
{
  PetscMPIInt size;
  PetscBool   is;

  PCALL(MPI_Comm_size(comm, &size));
  if (!cl) PCALL(SbpmgCLGetDefault(&cl));
  PCALL(VecCreateOpenCLWithContext(comm, cl, n, N, d));
  PCALL(PetscObjectTypeCompare((PetscObject)*d, size > 1 ? VECMPIOPENCL : VECSEQOPENCL, &is));
  assert_true(is);
  if (size > 1)
    PCALL(VecCreateMPI(comm, n, N, h));
  else
    PCALL(VecCreateSeq(comm, N, h));
  VecTestFillRandom(*d, N, seed, lo, hi);
  VecTestFillRandom(*h, N, seed, lo, hi);
  PCALL(VecOpenCLSyncDevice(*d));
}

/* |a - b| within the check of VecTestCheckValues(); the failure described in msg */
static int VecTestEntryAgrees(const PetscScalar *a, const PetscScalar *b, PetscInt i, PetscInt rs, PetscReal ulps, PetscReal floor, char msg[], size_t len)
{
  if (ulps == 0) {
    if (!memcmp(&a[i], &b[i], sizeof(PetscScalar)) || (PetscIsNanScalar(a[i]) && PetscIsNanScalar(b[i]))) return 1;
    snprintf(msg, len, "entry %d is %.17g on the device, %.17g on the host (exact expected)", (int)(rs + i), (double)a[i], (double)b[i]);
  } else {
    PetscReal err = PetscAbsScalar(a[i] - b[i]), tol = ulps * VT_EPS * PetscMax(PetscAbsScalar(b[i]), floor);
    if (err <= tol) return 1;
    snprintf(msg, len, "entry %d is %.17g on the device, %.17g on the host (|diff| %.3e > %.3e)", (int)(rs + i), (double)a[i], (double)b[i], err, tol);
  }
  return 0;
}

void VecTestCheckValues(const char *what, Vec d, Vec h, PetscReal ulps, PetscReal floor)
{
  const PetscScalar *a, *b;
  PetscReal          nd, nh;
  PetscInt           n, N, rs;
  int                ok       = 1, allok;
  char               msg[256] = "";

  PCALL(VecGetSize(h, &N));
  PCALL(VecGetLocalSize(h, &n));
  PCALL(VecGetOwnershipRange(h, &rs, NULL));
  PCALL(VecNorm(d, NORM_1, &nd));
  PCALL(VecNorm(h, NORM_1, &nh));
  if (!(PetscAbsReal(nd - nh) <= 4 * PetscMax(N, 1) * VT_EPS * nh + ulps * VT_EPS * N * floor) && !(PetscIsNanReal(nd) && PetscIsNanReal(nh))) {
    ok = 0;
    snprintf(msg, sizeof(msg), "1-norm %.17g on the device, %.17g on the host", (double)nd, (double)nh);
  }
  PCALL(VecGetArrayRead(d, &a));
  PCALL(VecGetArrayRead(h, &b));
  for (PetscInt i = 0; i < n && ok; i++) ok = VecTestEntryAgrees(a, b, i, rs, ulps, floor, msg, sizeof(msg));
  PCALL(VecRestoreArrayRead(h, &b));
  PCALL(VecRestoreArrayRead(d, &a));
  PCALL(MPI_Allreduce(&ok, &allok, 1, MPI_INT, MPI_MIN, PetscObjectComm((PetscObject)d)));
  if (!allok) fail_msg("[%d] %s N=%d: %s", (int)VecTestRank(), what, (int)N, ok ? "(failed on another rank)" : msg);
}

void VecTestCheckReduction(const char *what, PetscInt N, PetscReal d, PetscReal h, PetscReal scale)
{
  PetscReal tol = 4.0 * (PetscReal)PetscMax(N, 1) * VT_EPS * scale;
  VecTestAllOk(PetscAbsReal(d - h) <= tol, "%s N=%d: device %.17g host %.17g (|diff| %.3e > %.3e)", what, (int)N, (double)d, (double)h,
               (double)PetscAbsReal(d - h), (double)tol);
}

void VecTestCheckMask(const char *what, Vec v, PetscOffloadMask want)
{
  PetscOffloadMask m = SbpmgTestOffloadMask(v);
  VecTestAllOk(m == want, "%s: offload mask %d, expected %d", what, (int)m, (int)want);
}

void VecTestSnapshot(VecTestSnap *s)
{
  PCALL(SbpmgCLGetGlobalStats(&s->cl));
  PCALL(VecOpenCLGetSyncCounts(&s->htod, &s->dtoh));
}

void VecTestNoVectorTransfer(const char *what, const VecTestSnap *a, const VecTestSnap *b, int max_scalars)
{
  PetscLogDouble dcount = b->cl.dtoh_count - a->cl.dtoh_count, dbytes = b->cl.dtoh_bytes - a->cl.dtoh_bytes;
  int            ok       = 1;
  char           msg[256] = "";

  if (b->cl.htod_count != a->cl.htod_count) {
    ok = 0;
    snprintf(msg, sizeof(msg), "%g host->device transfers (%g bytes), expected none", b->cl.htod_count - a->cl.htod_count, b->cl.htod_bytes - a->cl.htod_bytes);
  } else if (b->htod != a->htod || b->dtoh != a->dtoh) {
    ok = 0;
    snprintf(msg, sizeof(msg), "%g + %g whole-vector copies, expected none", b->htod - a->htod, b->dtoh - a->dtoh);
  } else if (dbytes > dcount * max_scalars * sizeof(PetscScalar)) {
    ok = 0;
    snprintf(msg, sizeof(msg), "%g device->host transfers moved %g bytes: more than reduction results", dcount, dbytes);
  }
  VecTestAllOk(ok, "%s: %s", what, msg);
}

void VecTestAssertType(Vec v, VecType type)
{
  PetscBool same;

  PCALL(PetscObjectTypeCompare((PetscObject)v, type, &same));
  if (!same) fail_msg("a vector of type %s, expected %s", ((PetscObject)v)->type_name, type);
}

Vec VecTestFromOptions(MPI_Comm comm, PetscInt n, const char *type)
{
  Vec v;

  PCALL(VecCreate(comm, &v));
  PCALL(VecSetSizes(v, n, PETSC_DETERMINE));
  SbpmgTestSetOption("-vec_type", type);
  PCALL(VecSetFromOptions(v));
  SbpmgTestSetOption("-vec_type", NULL);
  return v;
}

void VecTestDuplicates(Vec v)
{
  Vec     d, *vs;
  SbpmgCL c1, c2;

  PCALL(VecDuplicate(v, &d));
  VecTestAssertType(d, ((PetscObject)v)->type_name);
  PCALL(VecOpenCLGetCL(v, &c1));
  PCALL(VecOpenCLGetCL(d, &c2));
  assert_ptr_equal(c1, c2);
  PCALL(VecDuplicateVecs(v, 3, &vs));
  for (int j = 0; j < 3; j++) VecTestAssertType(vs[j], ((PetscObject)v)->type_name);
  PCALL(VecDestroyVecs(3, &vs));
  PCALL(VecDestroy(&d));
}

const PetscInt VecTestSizes[VEC_TEST_NSIZES] = {1, 7, 1000, 100003};

void VecTestForSizes(void (*f)(MPI_Comm, PetscInt, PetscInt))
{
  for (int t = 0; t < VEC_TEST_NSIZES; t++) f(PETSC_COMM_SELF, VecTestSizes[t], VecTestSizes[t]);
}

/* ---------------------------------------------------------------- host fallbacks */

void VecTestStrides(Vec bd, Vec bh, Vec sd, Vec sh)
{
  PCALL(VecSet(sd, 1));
  PCALL(VecSet(sh, 1));
  PCALL(VecStrideGather(bd, 1, sd, ADD_VALUES));
  PCALL(VecStrideGather(bh, 1, sh, ADD_VALUES));
  VecTestCheckValues("stride gather", sd, sh, 0, 0);
  PCALL(VecScale(sd, -4));
  PCALL(VecScale(sh, -4));
  PCALL(VecStrideScatter(sd, 2, bd, INSERT_VALUES));
  PCALL(VecStrideScatter(sh, 2, bh, INSERT_VALUES));
  VecTestCheckValues("stride scatter", bd, bh, 0, 0);
}

void VecTestCOO(Vec xd, Vec xh, PetscInt n, const PetscInt ci[], const PetscScalar cv[])
{
  PCALL(VecSetPreallocationCOO(xd, n, ci));
  PCALL(VecSetPreallocationCOO(xh, n, ci));
  PCALL(VecScale(xd, 2));
  PCALL(VecScale(xh, 2));
  PCALL(VecSetValuesCOO(xd, cv, ADD_VALUES));
  PCALL(VecSetValuesCOO(xh, cv, ADD_VALUES));
  VecTestCheckValues("COO add", xd, xh, 0, 0);
  PCALL(VecSetValuesCOO(xd, cv, INSERT_VALUES));
  PCALL(VecSetValuesCOO(xh, cv, INSERT_VALUES));
  VecTestCheckValues("COO insert", xd, xh, 0, 0);
}

void VecTestLocalVector(Vec yd, Vec yh)
{
  Vec l;

  PCALL(VecCreateLocalVector(yd, &l));
  PCALL(VecGetLocalVector(yd, l));
  PCALL(VecScale(l, 0.5));
  PCALL(VecRestoreLocalVector(yd, l));
  PCALL(VecScale(yh, 0.5));
  VecTestCheckValues("local vector", yd, yh, 0, 0);
  PCALL(VecDestroy(&l));
}

void VecTestSetRandom(Vec yd, Vec yh)
{
  for (int k = 0; k < 2; k++) {
    PetscRandom r;

    PCALL(PetscRandomCreate(PetscObjectComm((PetscObject)yd), &r));
    PCALL(PetscRandomSetSeed(r, 77));
    PCALL(PetscRandomSeed(r));
    PCALL(VecSetRandom(k ? yh : yd, r));
    PCALL(PetscRandomDestroy(&r));
  }
  PCALL(VecScale(yd, 5));
  PCALL(VecScale(yh, 5));
  VecTestCheckValues("set random", yd, yh, 0, 0);
}

/* The placed array receives the result of the device operation; the vector's own values come back after the reset */
void VecTestPlaceReset(Vec yd, Vec yh)
{
  PetscScalar *user;
  PetscInt     n, rs;
  int          ok = 1;

  PCALL(VecGetLocalSize(yd, &n));
  PCALL(VecGetOwnershipRange(yd, &rs, NULL));
  PCALL(PetscMalloc1(n, &user));
  for (PetscInt i = 0; i < n; i++) user[i] = rs + i;
  PCALL(VecPlaceArray(yd, user));
  PCALL(VecScale(yd, 2)); /* a device operation on the placed values */
  PCALL(VecResetArray(yd));
  for (PetscInt i = 0; i < n; i++) ok = ok && user[i] == 2.0 * (rs + i);
  VecTestAllOk(ok, "place/reset: the placed array does not hold the device result");
  VecTestCheckValues("after reset", yd, yh, 0, 0);
  PCALL(PetscFree(user));
}

void VecTestSubVector(const char *what, Vec yd, Vec yh, IS is, PetscScalar scale, PetscScalar shift, PetscBool on_device)
{
  Vec       zd, zh;
  PetscBool same;
  char      name[128];

  PCALL(VecGetSubVector(yd, is, &zd));
  PCALL(VecGetSubVector(yh, is, &zh));
  PCALL(PetscObjectTypeCompare((PetscObject)zd, ((PetscObject)yd)->type_name, &same));
  assert_true(same);
  snprintf(name, sizeof(name), "%s subvector", what);
  VecTestCheckValues(name, zd, zh, 0, 0);
  for (int k = 0; k < 2; k++) {
    Vec z = k ? zh : zd;
    if (scale != (PetscScalar)1) PCALL(VecScale(z, scale));
    if (shift != (PetscScalar)0) PCALL(VecShift(z, shift));
  }
  PCALL(VecRestoreSubVector(yd, is, &zd));
  PCALL(VecRestoreSubVector(yh, is, &zh));
  snprintf(name, sizeof(name), "after %s subvector", what);
  if (on_device) VecTestCheckMask(name, yd, PETSC_OFFLOAD_GPU);
  VecTestCheckValues(name, yd, yh, 0, 0);
}

void VecTestDeviceOperations(Vec x, Vec y, Vec w, Vec v[3])
{
  const PetscScalar alpha[3] = {1, 2, 3};

  PCALL(VecSet(x, 1.5));
  PCALL(VecSet(y, -2));
  PCALL(VecAXPY(y, 2, x));
  PCALL(VecAYPX(y, 2, x));
  PCALL(VecAXPBY(y, 2, 3, x));
  PCALL(VecAXPBYPCZ(w, 1, 2, 3, x, y));
  PCALL(VecWAXPY(w, 2, x, y));
  PCALL(VecMAXPY(w, 3, alpha, v));
  PCALL(VecPointwiseMult(w, x, y));
  PCALL(VecPointwiseDivide(w, x, y));
  PCALL(VecReciprocal(w));
  PCALL(VecScale(w, 3));
  PCALL(VecShift(w, 3));
  PCALL(VecCopy(w, x));
  PCALL(VecSwap(w, y));
}

void VecTestOpsTableCovered(Vec host, Vec dev, const char *hostname)
{
  const size_t nops = sizeof(struct _VecOps) / sizeof(void (*)(void));
  void (**ho)(void) = (void (**)(void))host->ops, (**dop)(void) = (void (**)(void))dev->ops;
  const size_t datafree[] = {offsetof(struct _VecOps, duplicatevecs), offsetof(struct _VecOps, destroyvecs), offsetof(struct _VecOps, getsize),
                             offsetof(struct _VecOps, getlocalsize), offsetof(struct _VecOps, setoption)};

  for (size_t i = 0; i < nops; i++) {
    PetscBool free_ok = PETSC_FALSE;
    for (size_t j = 0; j < sizeof(datafree) / sizeof(datafree[0]); j++)
      if (datafree[j] == i * sizeof(void (*)(void))) free_ok = PETSC_TRUE;
    if (dop[i] && dop[i] == ho[i] && !free_ok) fail_msg("VecOps slot %d is %s's own function: it needs a device version or a host fallback", (int)i, hostname);
    if (ho[i] && !dop[i]) fail_msg("VecOps slot %d is set for %s but empty for the device vector", (int)i, hostname);
  }
}
