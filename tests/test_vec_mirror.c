/* The host mirror of a device vector is allocated at its first host access, not at creation (docs/design.md "Device
   vectors"): device vectors, their duplicates and DMDA vectors, device operations on them and a KSP solve with them
   allocate no host array, where VECSEQ and VECMPI (the references) allocate one per vector; the first host access
   allocates it once and sees the right values. Host memory is PETSc's malloc tracking (-malloc_debug in the tests'
   PETSC_OPTIONS): a deterministic count. Runs on any number of ranks (each rank counts its own memory). */
#include "vectest.h"
#include "lap5shell.h"

static const char help[] = "Host mirrors of sbpmg's device vectors: allocated at the first host access.\n";

/* Local entries: 1 MiB of doubles (128 KiB under valgrind), far above the few KiB of a vector's headers */
#define MR_N     (SbpmgTestUnderMemcheck() ? 16384 : 131072)
#define MR_K     8    /* vectors made at once */
#define MR_SLACK 4096 /* bytes an allocation may add to the array it holds (alignment, malloc tracking) */

/* Bytes of PETSc memory this rank holds now */
static PetscLogDouble HostBytes(void)
{
  PetscLogDouble b;
  PetscBool      tracked;

  PCALL(PetscMallocGetDebug(&tracked, NULL, NULL));
  if (!tracked) fail_msg("this test counts PETSc's memory: it needs PETSc's malloc tracking (-malloc_debug)");
  PCALL(PetscMallocGetCurrentUsage(&b));
  return b;
}

static PetscLogDouble ArrayBytes(Vec v)
{
  PetscInt n;

  PCALL(VecGetLocalSize(v, &n));
  return (PetscLogDouble)n * sizeof(PetscScalar);
}

/* None of the nv device vectors v[] has a host array (on any rank) */
static void CheckNoHostArray(const char *what, PetscInt nv, const Vec v[])
{
  PetscInt with = 0;

  for (PetscInt j = 0; j < nv; j++)
    if (VecCLData(v[j])->array || VecCLData(v[j])->array_allocated) with++;
  VecTestAllOk(with == 0, "%s: %d of %d device vectors have a host array", what, (int)with, (int)nv);
}

/* v[0..MR_K) of local length MR_N on PETSC_COMM_WORLD, of type "standard" (VECSEQ or VECMPI) or "opencl": made by
   VecSetFromOptions(), VecDuplicate() and VecDuplicateVecs(), and one sequential vector on PETSC_COMM_SELF */
static void MakeVectors(PetscBool device, Vec v[MR_K])
{
  Vec *dups;

  v[0] = VecTestFromOptions(PETSC_COMM_WORLD, MR_N, device ? VECOPENCL : VECSTANDARD);
  PCALL(VecDuplicate(v[0], &v[1]));
  PCALL(VecDuplicateVecs(v[1], MR_K - 3, &dups));
  for (PetscInt j = 0; j < MR_K - 3; j++) v[2 + j] = dups[j];
  PCALL(PetscFree(dups));
  if (device)
    PCALL(VecCreateSeqOpenCL(PETSC_COMM_SELF, MR_N, &v[MR_K - 1]));
  else
    PCALL(VecCreateSeq(PETSC_COMM_SELF, MR_N, &v[MR_K - 1]));
}

static void DestroyVectors(PetscInt nv, Vec v[])
{
  for (PetscInt j = 0; j < nv; j++) PCALL(VecDestroy(&v[j]));
}

/* ---------------------------------------------------------------- creation and device work allocate no host array */

static void test_creation_allocates_no_host_array(void **state)
{
  PetscLogDouble grew[2], array = MR_N * sizeof(PetscScalar);

  for (int dev = 0; dev < 2; dev++) {
    Vec            v[MR_K];
    PetscLogDouble b0 = HostBytes();

    MakeVectors(dev ? PETSC_TRUE : PETSC_FALSE, v);
    grew[dev] = HostBytes() - b0;
    if (dev) CheckNoHostArray("new vectors and duplicates", MR_K, v);
    DestroyVectors(MR_K, v);
  }
  print_message("  [%d] %d vectors of %d local entries: host memory +%.0f bytes (VECSEQ/VECMPI: +%.0f)\n", (int)VecTestRank(), MR_K, (int)MR_N, grew[1],
                grew[0]);
  VecTestAllOk(grew[0] >= MR_K * array, "the reference vectors allocated %.0f bytes, less than their %d arrays", grew[0], MR_K);
  VecTestAllOk(grew[1] < array, "%d new device vectors allocated %.0f bytes of host memory (one array: %.0f)", MR_K, grew[1], array);
}

/* A DMDA's global and local vectors of type opencl (its layout, block size 2) */
static void test_dmda_vectors_allocate_no_host_array(void **state)
{
  PetscLogDouble grew[2], array;
  PetscInt       M = SbpmgTestUnderMemcheck() ? 64 : 256, Nrows = M * VecTestSize();

  for (int dev = 0; dev < 2; dev++) {
    DM             da;
    Vec            v[3];
    PetscLogDouble b0;

    PCALL(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, M, Nrows, PETSC_DECIDE, PETSC_DECIDE, 2, 1, NULL, NULL, &da));
    if (dev) PCALL(DMSetVecType(da, VECOPENCL));
    PCALL(DMSetUp(da));
    b0 = HostBytes();
    PCALL(DMCreateGlobalVector(da, &v[0]));
    PCALL(VecDuplicate(v[0], &v[1]));
    PCALL(DMCreateLocalVector(da, &v[2]));
    grew[dev] = HostBytes() - b0;
    array     = ArrayBytes(v[0]);
    if (dev) {
      VecTestAssertType(v[0], VecTestSize() > 1 ? VECMPIOPENCL : VECSEQOPENCL);
      VecTestAssertType(v[2], VECSEQOPENCL);
      CheckNoHostArray("DMDA vectors", 3, v);
    }
    DestroyVectors(3, v);
    PCALL(DMDestroy(&da));
  }
  print_message("  [%d] DMDA global, duplicate and local vector: host memory +%.0f bytes (standard: +%.0f)\n", (int)VecTestRank(), grew[1], grew[0]);
  VecTestAllOk(grew[0] >= 3 * array, "the reference DMDA vectors allocated %.0f bytes, less than their 3 arrays", grew[0]);
  VecTestAllOk(grew[1] < array, "DMDA device vectors allocated %.0f bytes of host memory (one array: %.0f)", grew[1], array);
}

/* Every element-wise operation, every reduction and a contiguous subvector, on the device: no host array */
static void test_device_operations_allocate_no_host_array(void **state)
{
  Vec            v[MR_K], sub;
  IS             is;
  PetscScalar    dots[3], s;
  PetscReal      r[2];
  PetscInt       rs, loc;
  PetscLogDouble b0, grew;
  VecTestSnap    s0, s1;

  MakeVectors(PETSC_TRUE, v);
  PCALL(VecGetOwnershipRange(v[0], &rs, NULL));
  PCALL(ISCreateStride(PETSC_COMM_WORLD, MR_N / 2, rs + MR_N / 4, 1, &is));
  b0 = HostBytes();
  VecTestSnapshot(&s0);
  VecTestDeviceOperations(v[0], v[1], v[2], &v[3]);
  PCALL(VecNorm(v[0], NORM_1_AND_2, r));
  PCALL(VecNorm(v[1], NORM_INFINITY, r));
  PCALL(VecDot(v[0], v[1], &s));
  PCALL(VecMDot(v[0], 3, &v[3], dots));
  PCALL(VecDotNorm2(v[0], v[1], &s, &dots[0]));
  PCALL(VecSum(v[2], &s));
  PCALL(VecMax(v[2], &loc, r));
  PCALL(VecMin(v[2], &loc, r));
  PCALL(VecMaxPointwiseDivide(v[0], v[1], r));
  PCALL(VecGetSubVector(v[1], is, &sub));
  PCALL(VecScale(sub, 2));
  CheckNoHostArray("a contiguous subvector", 1, &sub);
  PCALL(VecRestoreSubVector(v[1], is, &sub));
  VecTestSnapshot(&s1);
  grew = HostBytes() - b0;
  VecTestNoVectorTransfer("device operations", &s0, &s1, 3);
  CheckNoHostArray("after device operations", MR_K, v);
  VecTestAllOk(grew < MR_N * sizeof(PetscScalar), "device operations allocated %.0f bytes of host memory", grew);
  PCALL(ISDestroy(&is));
  DestroyVectors(MR_K, v);
}

/* PETSc's KSPCG on a MatShell with a device kernel (bench/common/lap5shell.c), each rank its own solve on
   PETSC_COMM_SELF (a grid of 256^2, 128^2 under valgrind: its own objects take ~50 KB): its set-up and solve allocate
   no host array (the host solve allocates its work vectors' arrays) and
   it iterates as the host solve does */
static void test_ksp_solve_allocates_no_host_array(void **state)
{
  PetscInt       m = SbpmgTestUnderMemcheck() ? 128 : 256, maxit = SbpmgTestUnderMemcheck() ? 5 : 50, its[2];
  PetscLogDouble grew[2], peak[2], array = m * m * sizeof(PetscScalar);
  PetscReal      rnorm[2];
  PetscBool      logmem = PetscLogMemory;

  for (int dev = 0; dev < 2; dev++) {
    Mat            A;
    Vec            x, b;
    KSP            ksp;
    PetscLogDouble b0;

    PCALL(Lap5CreateShell(m, dev ? PETSC_TRUE : PETSC_FALSE, &A));
    PCALL(MatCreateVecs(A, &x, &b));
    PCALL(VecSet(b, 1));
    b0             = HostBytes();
    PetscLogMemory = PETSC_TRUE; /* PETSc's malloc tracking then records the peak */
    PCALL(PetscMallocPushMaximumUsage(19));
    ksp = VecTestCreateKSP(A, KSPCG, 1e-12, maxit, NULL);
    PCALL(KSPSolve(ksp, b, x));
    PCALL(PetscMallocPopMaximumUsage(19, &peak[dev]));
    PetscLogMemory = logmem;
    grew[dev]      = HostBytes() - b0;
    peak[dev] -= b0;
    PCALL(KSPGetIterationNumber(ksp, &its[dev]));
    PCALL(KSPGetResidualNorm(ksp, &rnorm[dev]));
    if (dev) CheckNoHostArray("KSP solution and right-hand side", 1, &x);
    PCALL(KSPDestroy(&ksp));
    PCALL(VecDestroy(&x));
    PCALL(VecDestroy(&b));
    PCALL(MatDestroy(&A));
  }
  print_message("  [%d] KSPCG set-up and %d iterations: host memory +%.0f bytes, peak +%.0f (VECSEQ: +%.0f, peak +%.0f)\n", (int)VecTestRank(), (int)its[1],
                grew[1], peak[1], grew[0], peak[0]);
  VecTestAllOk(its[0] == its[1] && PetscAbsReal(rnorm[1] - rnorm[0]) <= 1e-8 * rnorm[0], "device: %d iterations to %.17g, host: %d to %.17g", (int)its[1],
               (double)rnorm[1], (int)its[0], (double)rnorm[0]);
  VecTestAllOk(grew[0] >= 3 * array, "the reference solve allocated %.0f bytes, less than its 3 work vectors", grew[0]);
  VecTestAllOk(peak[1] < array, "a KSP solve with device vectors allocated up to %.0f bytes of host memory (one array: %.0f)", peak[1], array);
}

/* ---------------------------------------------------------------- the first host access */

typedef enum {
  MR_READ,      /* VecGetArrayRead */
  MR_READWRITE, /* VecGetArray, one entry changed */
  MR_WRITE,     /* VecGetArrayWrite, every entry written */
  MR_SETVALUES, /* VecSetValues of one local entry, then assembly */
  MR_PLACE,     /* VecPlaceArray, a device operation, VecResetArray (tests/vectest.c) */
  MR_REPLACE,   /* VecReplaceArray with an array of the caller's, every entry set (the vector takes it) */
  MR_GETVALUES  /* VecGetValues of one local entry */
} MirrorAccess;

/* The first host access of d (its twin h gets the same) allocates one host array (VecReplaceArray: the caller's), copies the device values into it
   only when they are needed (dtoh: 1, one whole-vector copy; 0, none; -1: not counted, the access itself runs device
   operations) and leaves the offload mask after; the values agree with h's afterwards and a second host access
   allocates nothing */
static void CheckFirstAccess(const char *what, Vec d, Vec h, MirrorAccess access, int dtoh, PetscOffloadMask after)
{
  PetscLogDouble b0, b1 = 0, b2, array = ArrayBytes(d);
  VecTestSnap    s0, s1;
  PetscInt       n, rs;
  PetscScalar    got[2] = {0, 0};

  PCALL(VecGetLocalSize(d, &n));
  PCALL(VecGetOwnershipRange(d, &rs, NULL));
  CheckNoHostArray(what, 1, &d);
  b0 = HostBytes();
  VecTestSnapshot(&s0);
  for (int k = 0; k < 2; k++) {
    Vec                v = k ? h : d;
    PetscScalar       *a;
    const PetscScalar *ra;

    switch (access) {
    case MR_READ:
      PCALL(VecGetArrayRead(v, &ra));
      PCALL(VecRestoreArrayRead(v, &ra));
      break;
    case MR_READWRITE:
      PCALL(VecGetArray(v, &a));
      if (n) a[n - 1] += 3;
      PCALL(VecRestoreArray(v, &a));
      break;
    case MR_WRITE:
      PCALL(VecGetArrayWrite(v, &a));
      for (PetscInt i = 0; i < n; i++) a[i] = rs + i;
      PCALL(VecRestoreArrayWrite(v, &a));
      break;
    case MR_SETVALUES:
      if (n) PCALL(VecSetValue(v, rs, -5, INSERT_VALUES));
      PCALL(VecAssemblyBegin(v));
      PCALL(VecAssemblyEnd(v));
      break;
    case MR_PLACE:
      if (!k) VecTestPlaceReset(d, h); /* compares the values itself */
      break;
    case MR_REPLACE:
      PCALL(PetscMalloc1(n, &a));
      for (PetscInt i = 0; i < n; i++) a[i] = -(rs + i);
      PCALL(VecReplaceArray(v, a));
      break;
    case MR_GETVALUES:
      if (n) PCALL(VecGetValues(v, 1, &rs, &got[k]));
      break;
    }
    if (k) continue;
    VecTestSnapshot(&s1);
    b1 = HostBytes();
    VecTestCheckMask(what, d, after);
  }
  VecTestAllOk(got[0] == got[1], "%s: VecGetValues gave %g, the host vector %g", what, (double)got[0], (double)got[1]);
  VecTestAllOk(b1 - b0 >= array && b1 - b0 < array + MR_SLACK, "%s: the first host access allocated %.0f bytes, expected one array (%.0f)", what, b1 - b0,
               array);
  if (dtoh >= 0) {
    int want = n ? dtoh : 0;
    VecTestAllOk(s1.dtoh - s0.dtoh == want && s1.htod == s0.htod, "%s: %g whole-vector copies to the host and %g to the device, expected %d and 0", what,
                 s1.dtoh - s0.dtoh, s1.htod - s0.htod, want);
  }
  VecTestCheckValues(what, d, h, 0, 0); /* a device reduction and a second host access */
  b2 = HostBytes();
  VecTestAllOk(b2 - b1 < array, "%s: the second host access allocated %.0f bytes", what, b2 - b1);
}

/* A device vector of local length MR_N on PETSC_COMM_WORLD and its host twin, both zero; the device one without a host
   array. If set, both get the value c through VecSet, then are scaled by -3 (so the device vector's values are on the
   device only). */
static void MirrorPair(PetscBool set, PetscScalar c, Vec *d, Vec *h)
{
  *d = VecTestFromOptions(PETSC_COMM_WORLD, MR_N, VECOPENCL);
  *h = VecTestFromOptions(PETSC_COMM_WORLD, MR_N, VECSTANDARD);
  if (!set) return;
  for (int k = 0; k < 2; k++) {
    PCALL(VecSet(k ? *h : *d, c));
    PCALL(VecScale(k ? *h : *d, -3));
  }
}

static void test_first_host_access_allocates_once(void **state)
{
  const struct {
    const char      *what;
    PetscBool        set;
    MirrorAccess     access;
    int              dtoh;
    PetscOffloadMask after;
  } cases[] = {
      {"new vector, VecGetArrayRead (zero without a copy)", PETSC_FALSE, MR_READ, 0, PETSC_OFFLOAD_BOTH},
      {"new vector, VecGetArray", PETSC_FALSE, MR_READWRITE, 0, PETSC_OFFLOAD_CPU},
      {"after VecSet, VecGetArrayRead", PETSC_TRUE, MR_READ, 1, PETSC_OFFLOAD_BOTH},
      {"after VecSet, VecGetArray", PETSC_TRUE, MR_READWRITE, 1, PETSC_OFFLOAD_CPU},
      {"after VecSet, VecGetArrayWrite (no copy)", PETSC_TRUE, MR_WRITE, 0, PETSC_OFFLOAD_CPU},
      {"after VecSet, VecSetValues and assembly", PETSC_TRUE, MR_SETVALUES, 1, PETSC_OFFLOAD_CPU},
      {"after VecSet, VecPlaceArray/VecResetArray", PETSC_TRUE, MR_PLACE, -1, PETSC_OFFLOAD_BOTH},
      {"after VecSet, VecReplaceArray (the caller's array, no copy)", PETSC_TRUE, MR_REPLACE, 0, PETSC_OFFLOAD_CPU},
      {"after VecSet, VecGetValues", PETSC_TRUE, MR_GETVALUES, 1, PETSC_OFFLOAD_BOTH},
  };

  for (size_t t = 0; t < sizeof(cases) / sizeof(cases[0]); t++) {
    Vec d, h, dup;

    MirrorPair(cases[t].set, 2.5, &d, &h);
    CheckFirstAccess(cases[t].what, d, h, cases[t].access, cases[t].dtoh, cases[t].after);
    PCALL(VecDuplicate(d, &dup)); /* a duplicate of a vector with a host array has none */
    CheckNoHostArray("a duplicate", 1, &dup);
    PCALL(VecDestroy(&dup));
    PCALL(VecDestroy(&d));
    PCALL(VecDestroy(&h));
  }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_creation_allocates_no_host_array),         cmocka_unit_test(test_dmda_vectors_allocate_no_host_array),
    cmocka_unit_test(test_device_operations_allocate_no_host_array), cmocka_unit_test(test_ksp_solve_allocates_no_host_array),
    cmocka_unit_test(test_first_host_access_allocates_once),
};

SBPMG_TEST_MAIN(help, tests)
