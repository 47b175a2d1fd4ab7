/* VECMPIOPENCL against VECMPI, on 2 and 4 ranks: the offload state through host access and assembly, the device
   accessors on the local part, scatters and DMDA ghost exchanges, and the host fallbacks of the communicating operations.
   Value checks fail on every rank together (VecTestAllOk()). */
#include "vectest.h"
#include <unistd.h>

static const char help[] = "Tests of sbpmg's parallel device vector VECMPIOPENCL (src/vec): host access, communication.\n";

/* A device vector (VECMPIOPENCL, on the default context) and a VECMPI with the layout c and the same values */
static void make_pair(const VecTestLayout *c, unsigned long seed, PetscReal lo, PetscReal hi, Vec *d, Vec *h)
{
  VecTestMakePair(PETSC_COMM_WORLD, NULL, VecTestLocalSize(c), c->N, seed, lo, hi, d, h);
}

/* ---------------------------------------------------------------- offload state machine and host access */

static void test_host_access_in_the_middle(void **state)
{
  const VecTestLayout c = {1000, 1};
  Vec                 v, w;
  PetscScalar        *a, s;
  PetscReal           r;
  PetscInt            n, rs, re, loc;
  VecTestSnap         s0, s1;
  PetscMPIInt         rank = VecTestRank(), size = VecTestSize();

  PCALL(VecCreateOpenCL(PETSC_COMM_WORLD, VecTestLocalSize(&c), c.N, &v));
  PCALL(VecDuplicate(v, &w));
  PCALL(VecGetLocalSize(v, &n));
  PCALL(VecGetOwnershipRange(v, &rs, &re));
  VecTestCheckMask("new", v, PETSC_OFFLOAD_BOTH);
  PCALL(VecSet(v, 1));
  VecTestCheckMask("set", v, PETSC_OFFLOAD_GPU);

  /* VecGetArray on each rank: the device values come to the host; a change there is seen by the next device operation */
  VecTestSnapshot(&s0);
  PCALL(VecGetArray(v, &a));
  VecTestSnapshot(&s1);
  VecTestAllOk(s1.cl.dtoh_count - s0.cl.dtoh_count == (n ? 1 : 0) && s1.cl.dtoh_bytes - s0.cl.dtoh_bytes == n * sizeof(PetscScalar),
               "VecGetArray: %g transfers", s1.cl.dtoh_count - s0.cl.dtoh_count);
  if (n) a[n - 1] = 7 + rank; /* the last local entry */
  PCALL(VecRestoreArray(v, &a));
  VecTestCheckMask("after VecGetArray", v, PETSC_OFFLOAD_CPU);
  PCALL(VecNorm(v, NORM_INFINITY, &r)); /* uploads, reduces on the device, then over the ranks */
  assert_true(r == 7 + size - 1);
  VecTestCheckMask("after a device read", v, PETSC_OFFLOAD_BOTH);
  PCALL(VecSum(v, &s));
  {
    PetscScalar want = c.N;
    for (PetscMPIInt p = 0; p < size; p++) want += 6 + p; /* every rank has a local entry in this layout */
    assert_true(s == want);
  }
  PCALL(VecMax(v, &loc, &r));
  {
    PetscInt last = re - 1, glast;
    PCALL(MPI_Allreduce(&last, &glast, 1, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD));
    assert_true(r == 7 + size - 1 && loc == glast);
  }

  /* assembly with nothing set anywhere: no transfer, the local parts stay on the device */
  PCALL(VecScale(v, 2));
  VecTestSnapshot(&s0);
  PCALL(VecAssemblyBegin(v));
  PCALL(VecAssemblyEnd(v));
  VecTestSnapshot(&s1);
  VecTestNoVectorTransfer("empty assembly", &s0, &s1, 0);
  VecTestAllOk(s1.cl.dtoh_count == s0.cl.dtoh_count, "empty assembly read from the device");
  VecTestCheckMask("after an empty assembly", v, PETSC_OFFLOAD_GPU);

  /* VecSetValues to other ranks' entries + assembly (VECMPI's host code) is seen by the device; integers: exact sums */
  PCALL(VecSet(w, 1));
  {
    PetscInt    idx[3] = {(rs + n + 5) % c.N, (7 * rank + 3) % c.N, 0};
    PetscScalar val[3] = {100, 1000, 10000};
    PetscScalar want, got;

    PCALL(VecSetValues(w, 3, idx, val, ADD_VALUES));
    PCALL(VecAssemblyBegin(w));
    PCALL(VecAssemblyEnd(w));
    VecTestCheckMask("after assembly with values", w, PETSC_OFFLOAD_CPU);
    PCALL(VecSum(w, &s));
    want = c.N + size * (100 + 1000 + 10000);
    assert_true(s == want);
    PCALL(VecMax(w, &loc, &r));
    assert_true(loc == 0 && r == 1 + 10000 * size);
    /* VecGetValues (local entries) after a device operation */
    PCALL(VecScale(w, 0.5));
    if (n) {
      PetscInt i0 = rs;
      PCALL(VecGetValues(w, 1, &i0, &got));
      VecTestAllOk(rank == 0 ? got == 0.5 * (1 + 10000 * size) : got >= 0.5, "VecGetValues: %g", got);
    } else
      VecTestAllOk(1, "");
  }

  /* VecGetArrayWrite: no transfer either way */
  VecTestSnapshot(&s0);
  PCALL(VecGetArrayWrite(w, &a));
  for (PetscInt i = 0; i < n; i++) a[i] = -(rs + i);
  PCALL(VecRestoreArrayWrite(w, &a));
  VecTestSnapshot(&s1);
  VecTestAllOk(s1.cl.dtoh_count == s0.cl.dtoh_count && s1.cl.htod_count == s0.cl.htod_count, "VecGetArrayWrite transferred");
  PCALL(VecMin(w, &loc, &r));
  assert_true(r == -(c.N - 1) && loc == c.N - 1);

  /* VecGetArrayRead: both valid, the next device read moves nothing */
  {
    const PetscScalar *ra;
    PCALL(VecGetArrayRead(w, &ra));
    PCALL(VecRestoreArrayRead(w, &ra));
    VecTestCheckMask("after VecGetArrayRead", w, PETSC_OFFLOAD_BOTH);
    VecTestSnapshot(&s0);
    PCALL(VecNorm(w, NORM_1, &r));
    VecTestSnapshot(&s1);
    VecTestAllOk(s1.cl.htod_count == s0.cl.htod_count, "read after VecGetArrayRead uploaded");
    assert_true(r == (PetscReal)c.N * (c.N - 1) / 2);
  }
  PCALL(VecDestroy(&v));
  PCALL(VecDestroy(&w));
}

/* A user kernel on the local part through the device accessors. */
static const char *twice_src =
    "__kernel void twice(const int n, __global const SBPMG_REAL *x, __global SBPMG_REAL *y) { int i = get_global_id(0); if (i < n) y[i] = 2 * x[i]; }\n";

static void test_device_accessors(void **state)
{
  const VecTestLayout c = {333, 1};
  Vec                 v, w, h, wh;
  SbpmgCL             cl;
  cl_kernel           k;
  cl_mem              m, mw;
  PetscInt            n;
  int                 ni;

  make_pair(&c, 5, -1, 1, &v, &h);
  PCALL(VecDuplicate(v, &w));
  PCALL(VecDuplicate(h, &wh));
  PCALL(VecGetLocalSize(v, &n));
  ni = (int)n;
  PCALL(VecOpenCLGetCL(v, &cl));
  PCALL(SbpmgCLGetKernelFromSource(cl, "test_vec_twice", twice_src, NULL, "twice", &k));
  PCALL(VecScale(w, 3));
  {
    PetscReal r;
    PCALL(VecNorm(w, NORM_1, &r)); /* cached by PETSc; the restore below must drop it */
  }
  PCALL(VecOpenCLGetBufferRead(v, &m));
  PCALL(VecOpenCLGetBufferWrite(w, &mw));
  PCALL(SbpmgCLSetArgs(k, 0, 3, sizeof(int), &ni, sizeof(cl_mem), &m, sizeof(cl_mem), &mw));
  PCALL(SbpmgCLLaunch1D(cl, k, n, 0));
  PCALL(VecOpenCLRestoreBufferWrite(w, &mw));
  PCALL(VecOpenCLRestoreBufferRead(v, &m));
  VecTestCheckMask("after a write accessor", w, PETSC_OFFLOAD_GPU);
  PCALL(VecAXPBY(wh, 2, 0, h));
  VecTestCheckValues("user kernel on the local part", w, wh, 0, 0);
  PCALL(VecDestroy(&w));
  PCALL(VecDestroy(&wh));
  SbpmgTestDestroyPair(&v, &h);
}

/* ---------------------------------------------------------------- communication through the host */

/* VecScatter (PetscSF) reads and writes through VecGetArrayRead/VecGetArray: right values and masks. */
static void test_scatter(void **state)
{
  const VecTestLayout c = {1003, 1};
  Vec                 xd, xh, yd, yh, ad, ah;
  IS                  from, to;
  VecScatter          sd, sh;
  PetscInt            n, rs;
  PetscInt           *idx;
  PetscMPIInt         size = VecTestSize();

  make_pair(&c, 41, -1, 1, &xd, &xh);
  make_pair(&c, 42, -1, 1, &yd, &yh);
  PCALL(VecScale(xd, 2)); /* device only */
  PCALL(VecScale(xh, 2));
  PCALL(VecGetLocalSize(xd, &n));
  PCALL(VecGetOwnershipRange(xd, &rs, NULL));
  /* y[N - 1 - i] = x[i]: almost everything crosses ranks */
  PCALL(PetscMalloc1(n, &idx));
  for (PetscInt i = 0; i < n; i++) idx[i] = c.N - 1 - (rs + i);
  PCALL(ISCreateStride(PETSC_COMM_WORLD, n, rs, 1, &from));
  PCALL(ISCreateGeneral(PETSC_COMM_WORLD, n, idx, PETSC_COPY_VALUES, &to));
  PCALL(PetscFree(idx));
  PCALL(VecScatterCreate(xd, from, yd, to, &sd));
  PCALL(VecScatterCreate(xh, from, yh, to, &sh));
  PCALL(VecScatterBegin(sd, xd, yd, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterEnd(sd, xd, yd, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterBegin(sh, xh, yh, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterEnd(sh, xh, yh, INSERT_VALUES, SCATTER_FORWARD));
  VecTestCheckMask("scatter source", xd, PETSC_OFFLOAD_BOTH);
  VecTestCheckMask("scatter target", yd, PETSC_OFFLOAD_CPU);
  VecTestCheckValues("scatter", yd, yh, 0, 0);
  PCALL(VecShift(yd, 1)); /* the next device operation sees the scattered values */
  PCALL(VecShift(yh, 1));
  VecTestCheckValues("device operation after scatter", yd, yh, 0, 0);
  /* reverse with ADD: the target of the reverse scatter (x) is read and written */
  PCALL(VecScatterBegin(sd, yd, xd, ADD_VALUES, SCATTER_REVERSE));
  PCALL(VecScatterEnd(sd, yd, xd, ADD_VALUES, SCATTER_REVERSE));
  PCALL(VecScatterBegin(sh, yh, xh, ADD_VALUES, SCATTER_REVERSE));
  PCALL(VecScatterEnd(sh, yh, xh, ADD_VALUES, SCATTER_REVERSE));
  VecTestCheckValues("reverse scatter add", xd, xh, 0, 0);
  PCALL(VecScatterDestroy(&sd));
  PCALL(VecScatterDestroy(&sh));
  PCALL(ISDestroy(&from));
  PCALL(ISDestroy(&to));

  /* to all: a sequential device vector on every rank */
  PCALL(VecScatterCreateToAll(xd, &sd, &ad));
  PCALL(VecScatterCreateToAll(xh, &sh, &ah));
  if (VecTestRank() == 0) print_message("  VecScatterCreateToAll of a %s gives a %s\n", ((PetscObject)xd)->type_name, ((PetscObject)ad)->type_name);
  PCALL(VecScatterBegin(sd, xd, ad, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterEnd(sd, xd, ad, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterBegin(sh, xh, ah, INSERT_VALUES, SCATTER_FORWARD));
  PCALL(VecScatterEnd(sh, xh, ah, INSERT_VALUES, SCATTER_FORWARD));
  {
    const PetscScalar *p, *q;
    int                ok = 1;
    PCALL(VecGetArrayRead(ad, &p));
    PCALL(VecGetArrayRead(ah, &q));
    ok = !memcmp(p, q, c.N * sizeof(PetscScalar));
    PCALL(VecRestoreArrayRead(ah, &q));
    PCALL(VecRestoreArrayRead(ad, &p));
    VecTestAllOk(ok, "scatter to all on %d ranks", (int)size);
  }
  PCALL(VecScatterDestroy(&sd));
  PCALL(VecScatterDestroy(&sh));
  PCALL(VecDestroy(&ad));
  PCALL(VecDestroy(&ah));
  SbpmgTestDestroyPair(&xd, &xh);
  SbpmgTestDestroyPair(&yd, &yh);
}

/* DMDA global vectors of type opencl: the DMDA's layout, ghost exchange through the host, duplicates, view and load. */
static void test_dmda(void **state)
{
  DM          dad, dah;
  Vec         gd, gh, ld, lh, g2;
  PetscInt    nd, nh, rsd, rsh, xs, ys, xm, ym;
  PetscMPIInt rank = VecTestRank(), pid;

  for (int k = 0; k < 2; k++) {
    DM *da = k ? &dad : &dah;
    PCALL(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_BOX, 13, 11, PETSC_DECIDE, PETSC_DECIDE, 2, 1, NULL, NULL, da));
    if (k) PCALL(DMSetVecType(*da, VECOPENCL));
    PCALL(DMSetUp(*da));
  }
  PCALL(DMCreateGlobalVector(dad, &gd));
  PCALL(DMCreateGlobalVector(dah, &gh));
  VecTestAssertType(gd, VECMPIOPENCL);
  PCALL(VecGetLocalSize(gd, &nd));
  PCALL(VecGetLocalSize(gh, &nh));
  PCALL(VecGetOwnershipRange(gd, &rsd, NULL));
  PCALL(VecGetOwnershipRange(gh, &rsh, NULL));
  PCALL(DMDAGetCorners(dad, &xs, &ys, NULL, &xm, &ym, NULL));
  VecTestAllOk(nd == nh && rsd == rsh && nd == 2 * xm * ym, "DMDA layout: local %d (host %d, corners %d), start %d (host %d)", (int)nd, (int)nh,
               (int)(2 * xm * ym), (int)rsd, (int)rsh);
  {
    PetscInt bs;
    PCALL(VecGetBlockSize(gd, &bs));
    assert_int_equal(bs, 2);
  }

  /* values through DMDAVecGetArrayDOF (host), then a device operation */
  for (int k = 0; k < 2; k++) {
    PetscScalar ***a;
    DM             da = k ? dad : dah;
    Vec            g  = k ? gd : gh;
    PCALL(DMDAVecGetArrayDOF(da, g, &a));
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++)
        for (PetscInt c = 0; c < 2; c++) a[j][i][c] = PetscSinReal(0.3 * i + 0.7 * j) + c;
    PCALL(DMDAVecRestoreArrayDOF(da, g, &a));
    PCALL(VecScale(g, 2));
  }
  VecTestCheckMask("DMDA vector after a device operation", gd, PETSC_OFFLOAD_GPU);
  VecTestCheckValues("DMDA global", gd, gh, 0, 0);

  /* ghost exchange: the local vector is a sequential device vector, filled through the host */
  PCALL(DMCreateLocalVector(dad, &ld));
  PCALL(DMCreateLocalVector(dah, &lh));
  VecTestAssertType(ld, VECSEQOPENCL);
  PCALL(DMGlobalToLocalBegin(dad, gd, INSERT_VALUES, ld));
  PCALL(DMGlobalToLocalEnd(dad, gd, INSERT_VALUES, ld));
  PCALL(DMGlobalToLocalBegin(dah, gh, INSERT_VALUES, lh));
  PCALL(DMGlobalToLocalEnd(dah, gh, INSERT_VALUES, lh));
  VecTestCheckMask("global vector after DMGlobalToLocal", gd, PETSC_OFFLOAD_BOTH);
  {
    const PetscScalar *p, *q;
    PetscInt           nl;
    int                ok;
    PCALL(VecGetLocalSize(lh, &nl));
    PCALL(VecGetArrayRead(ld, &p));
    PCALL(VecGetArrayRead(lh, &q));
    ok = !memcmp(p, q, nl * sizeof(PetscScalar));
    PCALL(VecRestoreArrayRead(lh, &q));
    PCALL(VecRestoreArrayRead(ld, &p));
    VecTestAllOk(ok, "DMGlobalToLocal: ghosted values differ");
  }
  /* a device operation on the local vector, added back */
  PCALL(VecShift(ld, 1));
  PCALL(VecShift(lh, 1));
  PCALL(DMLocalToGlobal(dad, ld, ADD_VALUES, gd));
  PCALL(DMLocalToGlobal(dah, lh, ADD_VALUES, gh));
  VecTestCheckValues("DMLocalToGlobal add", gd, gh, 0, 0);

  /* VecDuplicate of a DMDA vector (DMDA's duplicate: DMCreateGlobalVector again) */
  PCALL(VecDuplicate(gd, &g2));
  VecTestAssertType(g2, VECMPIOPENCL);
  PCALL(VecDestroy(&g2));
  PCALL(DMGetGlobalVector(dad, &g2));
  VecTestAssertType(g2, VECMPIOPENCL);
  PCALL(DMRestoreGlobalVector(dad, &g2));

  /* binary view (natural ordering, through a scatter) and load back */
  {
    char        path[PETSC_MAX_PATH_LEN], info[PETSC_MAX_PATH_LEN + 8];
    PetscViewer vw;
    PetscReal   r;

    pid = (PetscMPIInt)getpid();
    PCALL(MPI_Bcast(&pid, 1, MPI_INT, 0, PETSC_COMM_WORLD));
    PCALL(PetscSNPrintf(path, sizeof(path), "/tmp/sbpmg-test-vec-mpi-%d.bin", (int)pid));
    PCALL(PetscSNPrintf(info, sizeof(info), "%s.info", path));
    PCALL(VecScale(gd, -1)); /* device only */
    PCALL(PetscViewerBinaryOpen(PETSC_COMM_WORLD, path, FILE_MODE_WRITE, &vw));
    PCALL(VecView(gd, vw));
    PCALL(PetscViewerDestroy(&vw));
    PCALL(DMCreateGlobalVector(dad, &g2));
    PCALL(PetscViewerBinaryOpen(PETSC_COMM_WORLD, path, FILE_MODE_READ, &vw));
    PCALL(VecLoad(g2, vw));
    PCALL(PetscViewerDestroy(&vw));
    PCALL(VecAXPY(g2, -1, gd));
    PCALL(VecNorm(g2, NORM_INFINITY, &r));
    assert_true(r == 0);
    PCALL(VecDestroy(&g2));
    PCALL(MPI_Barrier(PETSC_COMM_WORLD));
    if (rank == 0) {
      (void)unlink(path);
      (void)unlink(info);
    }
  }
  PCALL(VecDestroy(&ld));
  PCALL(VecDestroy(&lh));
  PCALL(VecDestroy(&gd));
  PCALL(VecDestroy(&gh));
  PCALL(DMDestroy(&dad));
  PCALL(DMDestroy(&dah));
}

/* Host fallbacks of operations that communicate or have no device version. */
static void test_fallbacks(void **state)
{
  const VecTestLayout c = {600, 1};
  Vec                 xd, xh, yd, yh;
  PetscInt            n, rs, re;
  PetscMPIInt         rank = VecTestRank(), size = VecTestSize();

  make_pair(&c, 51, -1, 1, &xd, &xh);
  make_pair(&c, 52, -1, 1, &yd, &yh);
  PCALL(VecGetLocalSize(xd, &n));
  PCALL(VecGetOwnershipRange(xd, &rs, &re));

  /* subvectors: locally contiguous (device copies) and a general index set reaching other ranks' entries (scatter) */
  {
    IS       cis, gis;
    PetscInt m = n / 2, *idx;

    PCALL(ISCreateStride(PETSC_COMM_WORLD, m, rs + (n - m), 1, &cis)); /* the upper half of each rank's entries */
    PCALL(VecScale(yd, 3));
    PCALL(VecScale(yh, 3));
    VecTestSubVector("contiguous", yd, yh, cis, -1, 0, PETSC_TRUE); /* the parent valid on the device only after */
    /* every third entry of the next rank's part */
    {
      PetscInt        nr, rsr;
      const PetscInt *ranges;
      PCALL(VecGetOwnershipRanges(yd, &ranges));
      rsr = ranges[(rank + 1) % size];
      nr  = ranges[(rank + 1) % size + 1] - rsr;
      m   = (nr + 2) / 3;
      PCALL(PetscMalloc1(m, &idx));
      for (PetscInt i = 0; i < m; i++) idx[i] = rsr + 3 * i;
      PCALL(ISCreateGeneral(PETSC_COMM_WORLD, m, idx, PETSC_OWN_POINTER, &gis));
    }
    VecTestSubVector("general", yd, yh, gis, 1, 10, PETSC_FALSE);
    VecTestSubVector("unchanged", yd, yh, gis, 1, 0, PETSC_FALSE); /* read only: nothing written back */
    PCALL(ISDestroy(&cis));
    PCALL(ISDestroy(&gis));
  }

  /* strided gather/scatter with block size 3 (local operations through the host) */
  {
    Vec           sd, sh;
    VecTestLayout c3  = {c.N, 1};
    PetscInt      nl3 = 3 * ((VecTestLocalSize(&c3) + 2) / 3), N3;
    Vec           bd, bh;

    PCALL(MPI_Allreduce(&nl3, &N3, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    PCALL(VecCreateOpenCL(PETSC_COMM_WORLD, nl3, N3, &bd));
    PCALL(VecCreateMPI(PETSC_COMM_WORLD, nl3, N3, &bh));
    PCALL(VecSetBlockSize(bd, 3));
    PCALL(VecSetBlockSize(bh, 3));
    VecTestFillRandom(bd, N3, 9, -1, 1);
    VecTestFillRandom(bh, N3, 9, -1, 1);
    PCALL(VecScale(bd, 2));
    PCALL(VecScale(bh, 2));
    PCALL(VecCreateOpenCL(PETSC_COMM_WORLD, nl3 / 3, N3 / 3, &sd));
    PCALL(VecCreateMPI(PETSC_COMM_WORLD, nl3 / 3, N3 / 3, &sh));
    VecTestStrides(bd, bh, sd, sh);
    PCALL(VecDestroy(&sd));
    PCALL(VecDestroy(&sh));
    PCALL(VecDestroy(&bd));
    PCALL(VecDestroy(&bh));
  }

  /* COO assembly with entries of other ranks (VECMPI's PetscSF-based code); integer values: exact sums */
  {
    PetscInt    ci[4] = {rs, (re + 3) % c.N, (rank * 37) % c.N, c.N - 1};
    PetscScalar cv[4] = {1, 2, 3, 4};
    VecTestCOO(xd, xh, 4, ci, cv);
  }

  /* random values, place/reset on the local part */
  VecTestSetRandom(yd, yh);
  VecTestPlaceReset(yd, yh);

  /* mixed with VECMPI: the device vector falls back to the host where the other vector lives there */
  {
    PetscScalar sd, sh;
    PCALL(VecAXPY(yd, 2, xh)); /* device += host */
    PCALL(VecAXPY(yh, 2, xh));
    VecTestCheckValues("axpy(dev, host)", yd, yh, 4, 2);
    PCALL(VecDot(yd, xh, &sd));
    PCALL(VecDot(yh, xh, &sh));
    VecTestCheckReduction("dot(dev, host)", c.N, sd, sh, 10 * c.N);
    PCALL(VecCopy(yd, xh)); /* device -> host vector */
    PCALL(VecCopy(yh, xd)); /* host -> device vector */
    VecTestCheckMask("copy from a host vector", xd, PETSC_OFFLOAD_CPU);
    VecTestCheckValues("copies between the types", xd, xh, 0, 0);
  }

  /* the local part as a sequential vector: VecGetLocalVector gives the values, changes come back */
  VecTestLocalVector(yd, yh);

  /* ASCII view of a device-only vector shows the device values (VECMPI's view gathers on rank 0) */
  {
    Vec v;
    PCALL(VecCreateOpenCL(PETSC_COMM_WORLD, PETSC_DECIDE, 6, &v));
    PCALL(VecSet(v, 1.25));
    PCALL(VecView(v, PETSC_VIEWER_STDOUT_WORLD));
    PCALL(VecDestroy(&v));
  }

  /* binary view and load of a plain (non-DM) device vector, loaded into another layout */
  {
    char        path[PETSC_MAX_PATH_LEN], info[PETSC_MAX_PATH_LEN + 8];
    PetscViewer vw;
    PetscMPIInt pid = (PetscMPIInt)getpid();
    Vec         l;
    PetscReal   r;

    PCALL(MPI_Bcast(&pid, 1, MPI_INT, 0, PETSC_COMM_WORLD));
    PCALL(PetscSNPrintf(path, sizeof(path), "/tmp/sbpmg-test-vec-mpi-plain-%d.bin", (int)pid));
    PCALL(PetscSNPrintf(info, sizeof(info), "%s.info", path));
    PCALL(VecShift(yd, 1)); /* device only */
    PCALL(VecShift(yh, 1));
    PCALL(PetscViewerBinaryOpen(PETSC_COMM_WORLD, path, FILE_MODE_WRITE, &vw));
    PCALL(VecView(yd, vw));
    PCALL(PetscViewerDestroy(&vw));
    PCALL(VecCreateOpenCL(PETSC_COMM_WORLD, PETSC_DECIDE, c.N, &l)); /* an even layout this time */
    PCALL(PetscViewerBinaryOpen(PETSC_COMM_WORLD, path, FILE_MODE_READ, &vw));
    PCALL(VecLoad(l, vw));
    PCALL(PetscViewerDestroy(&vw));
    VecTestCheckMask("loaded", l, PETSC_OFFLOAD_CPU);
    PCALL(VecNorm(l, NORM_1, &r));
    {
      PetscReal rh;
      PCALL(VecNorm(yh, NORM_1, &rh));
      VecTestCheckReduction("binary view and load", c.N, r, rh, rh);
    }
    PCALL(VecDestroy(&l));
    PCALL(MPI_Barrier(PETSC_COMM_WORLD));
    if (rank == 0) {
      (void)unlink(path);
      (void)unlink(info);
    }
  }

  /* repeated assembly of off-process values with VEC_SUBSET_OFF_PROC_ENTRIES (VECMPI keeps its communication pattern
     in its private data, inside the area reserved at the start of ours), device operations in between */
  for (int k = 0; k < 2; k++) {
    Vec v = k ? yh : yd;
    PCALL(VecSetOption(v, VEC_SUBSET_OFF_PROC_ENTRIES, PETSC_TRUE));
  }
  for (int round = 0; round < 3; round++) {
    PetscInt    idx[2] = {(re + 2 * round) % c.N, (rank * 11 + round) % c.N};
    PetscScalar val[2] = {(PetscScalar)(round + 1), 10};
    for (int k = 0; k < 2; k++) {
      Vec v = k ? yh : yd;
      PCALL(VecScale(v, 2));
      PCALL(VecSetValues(v, round == 2 ? 1 : 2, idx, val, ADD_VALUES)); /* a subset the last time */
      PCALL(VecAssemblyBegin(v));
      PCALL(VecAssemblyEnd(v));
    }
    VecTestCheckValues("subset assembly", yd, yh, 0, 0);
  }

  /* -vec_assembly_legacy replaces VECMPI's assembly; ours stays in front */
  {
    Vec         v;
    PetscScalar s, one = 1;
    PetscInt    i0 = 0;
    PCALL(VecCreate(PETSC_COMM_WORLD, &v));
    PCALL(VecSetSizes(v, PETSC_DECIDE, 10));
    PCALL(VecSetType(v, VECMPIOPENCL));
    SbpmgTestSetOption("-vec_assembly_legacy", "1");
    PCALL(VecSetFromOptions(v));
    SbpmgTestSetOption("-vec_assembly_legacy", NULL);
    PCALL(VecSet(v, 2));
    PCALL(VecSetValues(v, 1, &i0, &one, ADD_VALUES));
    PCALL(VecAssemblyBegin(v));
    PCALL(VecAssemblyEnd(v));
    PCALL(VecSum(v, &s));
    assert_true(s == 20 + size);
    PCALL(VecDestroy(&v));
  }
  SbpmgTestDestroyPair(&xd, &xh);
  SbpmgTestDestroyPair(&yd, &yh);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_host_access_in_the_middle),
    cmocka_unit_test(test_device_accessors),
    cmocka_unit_test(test_scatter),
    cmocka_unit_test(test_dmda),
    cmocka_unit_test(test_fallbacks),
};

SBPMG_TEST_MAIN(help, tests)
