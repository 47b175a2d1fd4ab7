/* The acoustic operator on the device (PoCL in CI): region decomposition, device vs the fp64 host reference, no host
   traffic while stepping, tile options, snapshots. */
#include "harness.h"
#include <unistd.h>

static const char help[] = "Tests of the acoustic operator on the OpenCL device (src/acoustic).\n";

/* A small object: nx x ny x nz, ndamp, backend, velocity bound vmax; the other settings from the caller afterwards. */
static void create(Acoustic *ac, PetscInt nx, PetscInt ny, PetscInt nz, PetscInt ndamp, AcousticBackend backend)
{
  PCALL(AcousticCreate(PETSC_COMM_SELF, ac));
  PCALL(AcousticSetSizes(*ac, nx, ny, nz));
  PCALL(AcousticSetDamping(*ac, ndamp));
  PCALL(AcousticSetBackend(*ac, backend));
}

/* A smooth velocity model in [1500, 3500] m/s. */
static void velocity_model(PetscInt nx, PetscInt ny, PetscInt nz, PetscReal *vel)
{
  for (PetscInt k = 0; k < nz; k++)
    for (PetscInt j = 0; j < ny; j++)
      for (PetscInt i = 0; i < nx; i++) vel[i + nx * (j + ny * k)] = 2500 + 1000 * PetscSinReal(0.3 * i + 0.2 * j) * PetscCosReal(0.25 * k);
}

/* The run the comparisons share: velocity model vel with its own bound, a 60 Hz source of amplitude 10 at (sx, sy, sz),
   random initial fields. */
static void random_run_with_source(Acoustic ac, const PetscReal *vel, PetscInt sx, PetscInt sy, PetscInt sz)
{
  PCALL(AcousticSetVelocityArray(ac, vel));
  PCALL(AcousticSetMaxVelocity(ac, 0));
  PCALL(AcousticSetSource(ac, sx, sy, sz));
  PCALL(AcousticSetSourceWavelet(ac, 60.0, 10.0));
  PCALL(AcousticSetInitialType(ac, ACOUSTIC_INIT_RANDOM));
}

/* max |a - b| / max |b| */
static PetscReal reldiff(PetscInt n, const PetscReal *a, const PetscReal *b)
{
  PetscReal d, s;
  SbpmgTestMaxDiff(n, a, b, &d, &s);
  return s > 0 ? d / s : d;
}

/* Device (fp32) against the host reference (fp64) after K steps from random fields, variable velocity, PML and a
   source, for a list of inner and PML tiles (tiles that do not divide the regions, z chunks, local memory, vectors). */
/* -ac_<what> and -ac_pml_<what> set to value (value < 0: both cleared) */
static void set_inner_and_pml_option(const char *what, PetscInt value)
{
  char inner[32], pml[32], v[16];

  PCALL(PetscSNPrintf(inner, sizeof(inner), "-ac_%s", what));
  PCALL(PetscSNPrintf(pml, sizeof(pml), "-ac_pml_%s", what));
  PCALL(PetscSNPrintf(v, sizeof(v), "%d", (int)value));
  SbpmgTestSetOption(inner, value >= 0 ? v : NULL);
  SbpmgTestSetOption(pml, value >= 0 ? v : NULL);
}

static void test_device_vs_reference(void **state)
{
  const PetscInt nx = 45, ny = 37, nz = 31, nd = 6, K = 25, N = nx * ny * nz;
  /* inner tile x, y, z, vec, local; PML tile x, y, z, vec; whole grid in one launch; PML regions in one launch; rows;
     reciprocals in the PML; planes of prefetch and planes per loop iteration in the inner and PML kernels (-1: defaults) */
  const PetscInt tiles[][15] = {
      {-1, -1, -1, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
      {8, 4, 0, 1, 0, 8, 2, 0, 1, 0, 0, 0, 0, -1, -1},
      {8, 4, 0, 1, 1, 16, 4, 5, 1, 0, 1, 0, 0, -1, -1},
      {4, 4, 7, 4, 0, 32, 4, 0, 4, 0, 0, 0, 0, -1, -1},
      {4, 8, 0, 4, 1, 8, 4, 3, 2, 0, 1, 0, 0, -1, -1},
      {8, 5, 9, 2, 1, 32, 4, 0, 4, 0, 0, 0, 0, -1, -1},
      {16, 2, 0, 2, 0, 4, 4, 6, 4, 0, 1, 0, 0, -1, -1},
      {1, 4, 3, 4, 1, 32, 4, 0, 1, 0, 0, 0, 0, -1, -1},
      {8, 4, 5, 4, 0, 16, 2, 4, 4, 1, 0, 0, 0, -1, -1},
      {8, 4, 0, 1, 0, 32, 1, 0, 1, 1, 0, 0, 0, -1, -1},
      {4, 8, 6, 2, 0, 8, 4, 3, 2, 1, 0, 0, 0, -1, -1},
      {16, 2, 0, 4, 0, 4, 8, 0, 4, 1, 0, 0, 0, -1, -1},
      {-1, -1, -1, -1, 0, -1, -1, -1, -1, 0, 0, 1, 0, -1, -1},
      {8, 4, 5, 4, 0, 8, 2, 3, 1, 0, 1, 0, 1, -1, -1},
      {8, 4, 5, 4, 0, 16, 2, 4, 4, 1, 0, 0, 1, -1, -1},
      {-1, -1, -1, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1, 2, 2},
      {8, 4, 5, 4, 0, 16, 2, 4, 4, 0, 1, 0, 0, 3, 3},
      {4, 8, 6, 2, 0, 8, 4, 3, 2, 0, 0, 0, 0, 1, 4},
      {8, 4, 7, 4, 0, 16, 2, 5, 4, 0, 1, 0, 0, 0, 8},
  };
  Acoustic   ref, dev;
  PetscReal *vel, *ur, *ud, *pr, *pd;

  PCALL(PetscMalloc5(N, &vel, N, &ur, N, &ud, N, &pr, N, &pd));
  velocity_model(nx, ny, nz, vel);
  create(&ref, nx, ny, nz, nd, ACOUSTIC_BACKEND_HOST);
  random_run_with_source(ref, vel, 20, 17, 12);
  PCALL(AcousticSetUp(ref));
  PCALL(AcousticStep(ref, K));
  PCALL(AcousticGetField(ref, ACOUSTIC_FIELD_U, ur));
  PCALL(AcousticGetField(ref, ACOUSTIC_FIELD_PHI, pr));
  for (size_t t = 0; t < sizeof(tiles) / sizeof(tiles[0]); t++) {
    PetscReal eu, ep;

    create(&dev, nx, ny, nz, nd, ACOUSTIC_BACKEND_DEVICE);
    random_run_with_source(dev, vel, 20, 17, 12);
    PCALL(AcousticSetTile(dev, tiles[t][0], tiles[t][1], tiles[t][2], (PetscBool)tiles[t][4], tiles[t][3]));
    PCALL(AcousticSetPMLTile(dev, tiles[t][5], tiles[t][6], tiles[t][7], tiles[t][8]));
    PCALL(AcousticSetFused(dev, tiles[t][9], tiles[t][10]));
    PCALL(AcousticSetRowKernels(dev, tiles[t][11]));
    if (tiles[t][12] >= 0) SbpmgTestSetOption("-ac_fast_div", tiles[t][12] ? "1" : "0");
    set_inner_and_pml_option("prefetch", tiles[t][13]);
    set_inner_and_pml_option("unroll", tiles[t][14]);
    PCALL(AcousticSetFromOptions(dev));
    SbpmgTestSetOption("-ac_fast_div", NULL);
    set_inner_and_pml_option("prefetch", -1);
    set_inner_and_pml_option("unroll", -1);
    PCALL(AcousticSetUp(dev));
    PCALL(AcousticStep(dev, K));
    PCALL(AcousticGetField(dev, ACOUSTIC_FIELD_U, ud));
    PCALL(AcousticGetField(dev, ACOUSTIC_FIELD_PHI, pd));
    eu = reldiff(N, ud, ur);
    ep = reldiff(N, pd, pr);
    print_message("  %s%s: u rel. diff %.3e, phi rel. diff %.3e\n", dev->krows ? "rows " : (dev->kfused ? "whole " : (dev->kpmlmerge ? "merged " : "")),
                  dev->kopts, (double)eu, (double)ep);
    assert_true(eu < 2e-5);
    assert_true(ep < 2e-5);
    PCALL(AcousticDestroy(&dev));
  }
  PCALL(AcousticDestroy(&ref));
  PCALL(PetscFree5(vel, ur, ud, pr, pd));
}

/* Every grid point is updated exactly once per step and nothing outside the grid is written. Poison: u = 0,
   u_prev = 1 and phi = 2 everywhere (halo included), vp = 0, no source. One step must give u_new = -1 / (1 + 2 eta) at
   every grid point (-1 inside: a point updated twice would be back to +1, a point missed stays +1) and leave the halo
   at 1; phi_new = 2 / (1 + eta) at PML points, 2 elsewhere. */
static void poisoned_step(Acoustic ac, PetscInt mask, PetscInt *nbad_u, PetscInt *nbad_phi)
{
  const size_t   N = ac->npad;
  float         *u, *phi, *eta;
  const PetscInt nx = ac->n[0], ny = ac->n[1], nz = ac->n[2];
  PetscInt       bad_u = 0, bad_phi = 0, inside = 0;

  PCALL(PetscMalloc3(N, &u, N, &phi, ac->ecount, &eta));
  if (ac->backend == ACOUSTIC_BACKEND_DEVICE) {
    const float zero = 0, one = 1, two = 2;
    PCALL(SbpmgCLFillBuffer(ac->cl, ac->du, &zero, sizeof(float), 0, N * sizeof(float)));
    PCALL(SbpmgCLFillBuffer(ac->cl, ac->dv, &one, sizeof(float), 0, N * sizeof(float)));
    PCALL(SbpmgCLFillBuffer(ac->cl, ac->dphi, &two, sizeof(float), 0, N * sizeof(float)));
    PCALL(SbpmgCLFillBuffer(ac->cl, ac->dvp, &zero, sizeof(float), 0, N * sizeof(float)));
    PCALL(AcousticStepRegions(ac, 1, mask));
    PCALL(SbpmgCLReadBuffer(ac->cl, ac->du, 0, N * sizeof(float), u));
    PCALL(SbpmgCLReadBuffer(ac->cl, ac->dphi, 0, N * sizeof(float), phi));
    PCALL(SbpmgCLReadBuffer(ac->cl, ac->deta, 0, ac->ecount * sizeof(float), eta));
  } else {
    for (size_t p = 0; p < N; p++) {
      ac->hu[p]   = 0;
      ac->hv[p]   = 1;
      ac->hphi[p] = 2;
      ac->hvp[p]  = 0;
    }
    PCALL(AcousticStepRegions(ac, 1, mask));
    for (size_t p = 0; p < N; p++) {
      u[p]   = (float)ac->hu[p];
      phi[p] = (float)ac->hphi[p];
    }
    for (PetscInt p = 0; p < ac->ecount; p++) eta[p] = (float)ac->heta[p];
  }
  for (size_t p = 0; p < N; p++) {
    const PetscInt  k = (PetscInt)(p / ac->pxy) - 4, j = (PetscInt)((p % ac->pxy) / ac->px) - 4, i = (PetscInt)(p % ac->px) - ac->ox;
    const PetscBool in = (i >= 0 && i < nx && j >= 0 && j < ny && k >= 0 && k < nz) ? PETSC_TRUE : PETSC_FALSE;

    if (!in) {
      if (u[p] != 1.0f) bad_u++;
      if (phi[p] != 2.0f) bad_phi++;
    } else {
      const float     e = (eta[ac->eoff[0] + i] + eta[ac->eoff[1] + j]) + eta[ac->eoff[2] + k];
      const PetscBool inner =
          (i >= ac->ndamp && i < nx - ac->ndamp && j >= ac->ndamp && j < ny - ac->ndamp && k >= ac->ndamp && k < nz - ac->ndamp) ? PETSC_TRUE : PETSC_FALSE;
      const float eu = inner ? -1.0f : -1.0f / (1.0f + 2.0f * e), ep = inner ? 2.0f : 2.0f / (1.0f + e);

      inside++;
      if (!(PetscAbsReal(u[p] - eu) <= 1e-6 * PetscAbsReal(eu))) {
        if (bad_u < 3 && mask == AC_REGIONS_ALL) print_message("  u(%d, %d, %d) = %g, expected %g\n", (int)i, (int)j, (int)k, (double)u[p], (double)eu);
        bad_u++;
      }
      if (!(PetscAbsReal(phi[p] - ep) <= 1e-6 * PetscAbsReal(ep))) {
        if (bad_phi < 3 && mask == AC_REGIONS_ALL) print_message("  phi(%d, %d, %d) = %g, expected %g\n", (int)i, (int)j, (int)k, (double)phi[p], (double)ep);
        bad_phi++;
      }
    }
  }
  assert_int_equal(inside, nx * ny * nz);
  *nbad_u   = bad_u;
  *nbad_phi = bad_phi;
  PCALL(PetscFree3(u, phi, eta));
}

static void test_region_decomposition(void **state)
{
  /* ndamp, backend (0 device, 1 host), inner tile x, y, z, vec, local, PML tile x, y, z, vec, whole grid in one launch,
     rows, PML regions in one launch */
  const PetscInt cases[][14] = {
      {6, 0, -1, -1, -1, -1, 0, -1, -1, -1, -1, 0, 0, 0}, {6, 0, 8, 4, 0, 1, 1, 8, 2, 0, 1, 0, 0, 1},
      {6, 0, 4, 4, 7, 4, 0, 32, 4, 0, 4, 0, 0, 0},        {6, 0, 8, 5, 9, 2, 1, 4, 4, 6, 2, 0, 0, 1},
      {0, 0, 4, 4, 0, 4, 1, -1, -1, -1, -1, 0, 0, 1},     {0, 0, -1, -1, -1, -1, 0, -1, -1, -1, -1, 1, 0, 0},
      {6, 0, 8, 4, 5, 4, 0, 16, 2, 4, 4, 1, 0, 0},        {6, 0, 4, 8, 6, 2, 0, 8, 4, 3, 2, 1, 0, 0},
      {6, 0, -1, -1, -1, -1, 0, -1, -1, -1, -1, 0, 1, 0}, {6, 0, 16, 2, 0, 1, 0, -1, -1, -1, -1, 1, 0, 0},
      {6, 1, -1, -1, -1, -1, 0, -1, -1, -1, -1, 0, 0, 0},
  };
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    Acoustic ac;

    const PetscInt *q = cases[c];

    create(&ac, 45, 37, 31, q[0], q[1] ? ACOUSTIC_BACKEND_HOST : ACOUSTIC_BACKEND_DEVICE);
    PCALL(AcousticSetSourceWavelet(ac, 25, 0));
    PCALL(AcousticSetTile(ac, q[2], q[3], q[4], (PetscBool)q[6], q[5]));
    PCALL(AcousticSetPMLTile(ac, q[7], q[8], q[9], q[10]));
    PCALL(AcousticSetFused(ac, q[11], q[13]));
    PCALL(AcousticSetRowKernels(ac, q[12]));
    PCALL(AcousticSetUp(ac));
    print_message("  ndamp %d, %s %s%s\n", (int)q[0], q[1] ? "host" : "device",
                  ac->krows ? "rows " : (ac->kfused ? "whole " : (ac->kpmlmerge ? "merged " : "")), q[1] ? "" : ac->kopts);
    {
      PetscInt bu, bp;
      poisoned_step(ac, AC_REGIONS_ALL, &bu, &bp);
      assert_int_equal(bu, 0);
      assert_int_equal(bp, 0);
      /* the check can fail: leaving out one region is noticed */
      for (PetscInt r = 0; r < AC_NREGIONS; r++) {
        const PetscInt np = (ac->hi[r][0] - ac->lo[r][0]) * (ac->hi[r][1] - ac->lo[r][1]) * (ac->hi[r][2] - ac->lo[r][2]);
        if (!np) continue;
        poisoned_step(ac, AC_REGIONS_ALL & ~(1 << r), &bu, &bp);
        assert_int_equal(bu, np);
        assert_int_equal(bp, r == AC_REGION_INNER ? 0 : np);
      }
    }
    PCALL(AcousticDestroy(&ac));
  }
}

/* K steps enqueue no host<->device transfer; the norms agree with the field read back. */
static void test_no_host_traffic(void **state)
{
  Acoustic     ac;
  SbpmgCLStats a, b;
  PetscReal   *u, m, e, mh = 0, eh = 0;
  PetscInt     N = 40 * 36 * 32;

  create(&ac, 40, 36, 32, 5, ACOUSTIC_BACKEND_DEVICE);
  PCALL(AcousticSetInitialType(ac, ACOUSTIC_INIT_RANDOM));
  PCALL(AcousticSetUp(ac));
  PCALL(SbpmgCLGetStats(ac->cl, &a));
  PCALL(AcousticStep(ac, 10));
  PCALL(SbpmgCLFinish(ac->cl));
  PCALL(SbpmgCLGetStats(ac->cl, &b));
  assert_true(a.htod_count == b.htod_count && a.dtoh_count == b.dtoh_count);
  assert_true(a.htod_bytes == b.htod_bytes && a.dtoh_bytes == b.dtoh_bytes);
  PCALL(PetscMalloc1(N, &u));
  PCALL(AcousticGetField(ac, ACOUSTIC_FIELD_U, u));
  for (PetscInt p = 0; p < N; p++) {
    mh = PetscMax(mh, PetscAbsReal(u[p]));
    eh += u[p] * u[p];
  }
  PCALL(AcousticGetNorms(ac, &m, &e));
  assert_true(PetscAbsReal(m - mh) <= 1e-6 * mh);
  assert_true(PetscAbsReal(e - eh) <= 1e-4 * eh);
  PCALL(PetscFree(u));
  PCALL(AcousticDestroy(&ac));
}

/* Changing the tile after set-up rebuilds the kernels and gives the same field; bad tiles are refused. */
static void test_tiles(void **state)
{
  Acoustic   ac;
  PetscReal *u1, *u2, d, s;
  PetscInt   N = 40 * 36 * 32;

  PCALL(PetscMalloc2(N, &u1, N, &u2));
  for (PetscInt pass = 0; pass < 2; pass++) {
    create(&ac, 40, 36, 32, 5, ACOUSTIC_BACKEND_DEVICE);
    PCALL(AcousticSetInitialType(ac, ACOUSTIC_INIT_RANDOM));
    PCALL(AcousticSetUp(ac));
    PCALL(AcousticStep(ac, 3));
    if (pass) PCALL(AcousticSetTile(ac, 4, 4, 5, PETSC_TRUE, 4));
    PCALL(AcousticStep(ac, 3));
    PCALL(AcousticGetField(ac, ACOUSTIC_FIELD_U, pass ? u2 : u1));
    PCALL(AcousticDestroy(&ac));
  }
  SbpmgTestMaxDiff(N, u1, u2, &d, &s);
  assert_true(d == 0);
  PCALL(PetscFree2(u1, u2));

  create(&ac, 40, 36, 32, 5, ACOUSTIC_BACKEND_DEVICE);
  PCALL(AcousticSetTile(ac, 128, 64, 0, PETSC_FALSE, 1));
  EXPECT_ERROR(AcousticSetUp(ac), PETSC_ERR_ARG_OUTOFRANGE, "Inner tile -ac_tile_x 128 x -ac_tile_y 64 = 8192 work-items exceeds the work-group limit");
  PCALL(AcousticDestroy(&ac));
  create(&ac, 40, 36, 32, 5, ACOUSTIC_BACKEND_DEVICE);
  PCALL(AcousticSetTile(ac, 32, 2, 0, PETSC_TRUE, 1));
  EXPECT_ERROR(AcousticSetUp(ac), PETSC_ERR_ARG_OUTOFRANGE, "-ac_local_mem needs a tile of at least 4 points on each axis (-ac_tile_y 2 >= 4");
  PCALL(AcousticDestroy(&ac));
  create(&ac, 40, 36, 32, 5, ACOUSTIC_BACKEND_DEVICE);
  {
    /* option values refused by AcousticSetFromOptions (option, value, message) */
    const char *bad[][3] = {
        {"-ac_vec", "3", "-ac_vec 3 must be 1, 2 or 4"},
        {"-ac_tile_x", "0", "-ac_tile_x 0 must be positive"},
        {"-ac_pml_tile_y", "-4", "-ac_pml_tile_y -4 must be positive"},
        {"-ac_pml_vec", "8", "-ac_pml_vec 8 must be 1, 2 or 4"},
        {"-ac_tile_z", "-2", "-ac_tile_z -2 must be >= 0 (0: the whole z extent)"},
        {"-ac_pml_tile_z", "-3", "-ac_pml_tile_z -3 must be >= 0 (0: the whole z extent)"},
        {"-ac_prefetch", "17", "-ac_prefetch 17 must be in [0, 16] planes"},
        {"-ac_pml_prefetch", "-2", "-ac_pml_prefetch -2 must be in [0, 16] planes"},
        {"-ac_unroll", "0", "-ac_unroll 0 must be in [1, 8] planes per iteration"},
        {"-ac_pml_unroll", "9", "-ac_pml_unroll 9 must be in [1, 8] planes per iteration"},
    };
    for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
      SbpmgTestSetOption(bad[b][0], bad[b][1]);
      EXPECT_ERROR(AcousticSetFromOptions(ac), PETSC_ERR_ARG_OUTOFRANGE, bad[b][2]);
      SbpmgTestSetOption(bad[b][0], NULL);
    }
  }
  PCALL(AcousticDestroy(&ac));
  create(&ac, 40, 36, 32, 5, ACOUSTIC_BACKEND_DEVICE);
  {
    /* the two-step kernel's work-group: option values, then set-ups with -ac_two_steps (value, message, error at set-up) */
    const char *bad[][4] = {
        {"-ac_pair_tile_x", "0", "-ac_pair_tile_x 0 must be positive", "0"},
        {"-ac_pair_tile_y", "-3", "-ac_pair_tile_y -3 must be positive", "0"},
        {"-ac_pair_tile_z", "-2", "-ac_pair_tile_z -2 must be >= 0 (0: the whole z extent)", "0"},
        {"-ac_pair_tile_x", "2", "-ac_pair_tile_x 2 must exceed the ring of 4 points on each side: 2 work-items at -ac_vec 4", "1"},
        {"-ac_pair_tile_y", "8", "-ac_pair_tile_y 8 must exceed the ring of 4 rows on each side (8)", "1"},
        {"-ac_pair_tile_x", "128", "Two-step tile -ac_pair_tile_x 128 x -ac_pair_tile_y 64 = 8192 work-items exceeds the work-group limit", "1"},
    };
    for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
      Acoustic a2;
      create(&a2, 40, 36, 32, 5, ACOUSTIC_BACKEND_DEVICE);
      PCALL(AcousticSetTile(a2, -1, -1, -1, PETSC_FALSE, 4));
      SbpmgTestSetOption("-ac_two_steps", "1"); /* it means the region kernels where the whole-grid one is the default (CPUs) */
      SbpmgTestSetOption(bad[b][0], bad[b][1]);
      if (b == 5) SbpmgTestSetOption("-ac_pair_tile_y", "64");
      if (bad[b][3][0] == '0')
        EXPECT_ERROR(AcousticSetFromOptions(a2), PETSC_ERR_ARG_OUTOFRANGE, bad[b][2]);
      else {
        PCALL(AcousticSetFromOptions(a2));
        EXPECT_ERROR(AcousticSetUp(a2), PETSC_ERR_ARG_OUTOFRANGE, bad[b][2]);
      }
      SbpmgTestSetOption(bad[b][0], NULL);
      SbpmgTestSetOption("-ac_pair_tile_y", NULL);
      SbpmgTestSetOption("-ac_two_steps", NULL);
      PCALL(AcousticDestroy(&a2));
    }
  }
  { /* two steps per pass with an incompatible launch mode: the option, the message */
    const char *bad[][2] = {
        {"-ac_pml_queue", "-ac_two_steps orders its passes in one queue: it cannot be combined with -ac_pml_queue"},
        {"-ac_fused", "-ac_two_steps runs the inner region apart from the PML regions with the 2.5D kernels: it cannot be combined with -ac_fused"},
        {"-ac_rows", "-ac_two_steps runs the inner region apart from the PML regions with the 2.5D kernels: it cannot be combined with -ac_rows"},
    };
    for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
      Acoustic a2;
      create(&a2, 40, 36, 32, 5, ACOUSTIC_BACKEND_DEVICE);
      SbpmgTestSetOption("-ac_two_steps", "1");
      SbpmgTestSetOption(bad[b][0], "1");
      PCALL(AcousticSetFromOptions(a2));
      SbpmgTestSetOption("-ac_two_steps", NULL);
      SbpmgTestSetOption(bad[b][0], NULL);
      EXPECT_ERROR(AcousticSetUp(a2), PETSC_ERR_ARG_INCOMP, bad[b][1]);
      PCALL(AcousticDestroy(&a2));
    }
  }
  { /* a work-group the device allows but the compiled kernel does not (NVIDIA's compiler: 256 work-items for ac_pair) */
    Acoustic a2;
    size_t   wg, maxwg;
    create(&a2, 40, 36, 32, 5, ACOUSTIC_BACKEND_DEVICE);
    PCALL(AcousticSetTile(a2, -1, -1, -1, PETSC_FALSE, 4));
    SbpmgTestSetOption("-ac_two_steps", "1");
    PCALL(AcousticSetFromOptions(a2));
    SbpmgTestSetOption("-ac_two_steps", NULL);
    PCALL(AcousticSetUp(a2));
    assert_non_null(a2->kpair);
    assert_int_equal(clGetKernelWorkGroupInfo(a2->kpair, a2->cl->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL), CL_SUCCESS);
    maxwg = a2->cl->max_work_group_size;
    if (wg < maxwg) {
      char msg[160], ty[16];
      PCALL(PetscSNPrintf(msg, sizeof(msg),
                          "Two-step tile -ac_pair_tile_x 8 x -ac_pair_tile_y %d = %d work-items exceeds the %zu the compiled ac_pair kernel allows",
                          (int)(maxwg / 8), (int)(8 * (maxwg / 8)), wg));
      PCALL(PetscSNPrintf(ty, sizeof(ty), "%d", (int)(maxwg / 8)));
      PCALL(AcousticDestroy(&a2));
      create(&a2, 40, 36, 32, 5, ACOUSTIC_BACKEND_DEVICE);
      PCALL(AcousticSetTile(a2, -1, -1, -1, PETSC_FALSE, 4));
      SbpmgTestSetOption("-ac_two_steps", "1");
      SbpmgTestSetOption("-ac_pair_tile_x", "8");
      SbpmgTestSetOption("-ac_pair_tile_y", ty);
      PCALL(AcousticSetFromOptions(a2));
      SbpmgTestSetOption("-ac_two_steps", NULL);
      SbpmgTestSetOption("-ac_pair_tile_x", NULL);
      SbpmgTestSetOption("-ac_pair_tile_y", NULL);
      EXPECT_ERROR(AcousticSetUp(a2), PETSC_ERR_ARG_OUTOFRANGE, msg);
    } else
      print_message("  the compiled ac_pair allows the device's %zu work-items: no kernel limit to test here (NVIDIA's compiler allows 256)\n", wg);
    PCALL(AcousticDestroy(&a2));
  }
  PCALL(AcousticSetPMLTile(ac, 128, 64, 0, 1));
  EXPECT_ERROR(AcousticSetUp(ac), PETSC_ERR_ARG_OUTOFRANGE, "PML tile -ac_pml_tile_x 128 x -ac_pml_tile_y 64 exceeds the work-group limit");
  PCALL(AcousticDestroy(&ac));
  create(&ac, 40, 36, 32, 5, ACOUSTIC_BACKEND_DEVICE);
  PCALL(AcousticSetTile(ac, 32, 8, 0, PETSC_TRUE, 1));
  PCALL(AcousticSetFused(ac, 1, -1));
  EXPECT_ERROR(AcousticSetUp(ac), PETSC_ERR_ARG_INCOMP, "-ac_fused takes x/y neighbours from the cache: it cannot be combined with -ac_local_mem");
  PCALL(AcousticDestroy(&ac));
}

/* Two runs of K device steps from the same random fields, on fresh objects, give the same bits: u, u_prev and phi read
   back whole (halo included) and compared with memcmp; for each launch mode. */
/* u, u_prev and phi as the device holds them (3 npad floats, halo included) */
static void read_fields(Acoustic ac, float *f)
{
  const cl_mem b[3] = {ac->du, ac->dv, ac->dphi};
  for (int q = 0; q < 3; q++) PCALL(SbpmgCLReadBuffer(ac->cl, b[q], 0, ac->npad * sizeof(float), f + q * ac->npad));
}

static void test_deterministic(void **state)
{
  /* whole grid in one launch, PML regions in one launch, rows (-1: the device's default) */
  const PetscInt modes[][3] = {{-1, -1, -1}, {0, 1, 0}, {0, 0, 0}, {0, 0, 1}};
  const PetscInt K          = 20;

  for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
    float *f[2];
    size_t N = 0;

    for (int run = 0; run < 2; run++) {
      Acoustic ac;

      create(&ac, 45, 37, 31, 6, ACOUSTIC_BACKEND_DEVICE);
      PCALL(AcousticSetSource(ac, 20, 17, 12));
      PCALL(AcousticSetSourceWavelet(ac, 60.0, 10.0));
      PCALL(AcousticSetInitialType(ac, ACOUSTIC_INIT_RANDOM));
      PCALL(AcousticSetFused(ac, modes[m][0], modes[m][1]));
      PCALL(AcousticSetRowKernels(ac, modes[m][2]));
      PCALL(AcousticSetUp(ac));
      PCALL(AcousticStep(ac, K));
      if (!run) {
        N = ac->npad;
        PCALL(PetscMalloc2(3 * N, &f[0], 3 * N, &f[1]));
      }
      read_fields(ac, f[run]);
      if (run)
        print_message("  %s%s: two runs of %d steps %s\n", ac->krows ? "rows " : (ac->kfused ? "whole " : (ac->kpmlmerge ? "merged " : "")), ac->kopts, (int)K,
                      memcmp(f[0], f[1], 3 * N * sizeof(float)) ? "DIFFER" : "bit-identical");
      PCALL(AcousticDestroy(&ac));
    }
    assert_memory_equal(f[0], f[1], 3 * N * sizeof(float));
    PCALL(PetscFree2(f[0], f[1]));
  }
}

/* -ac_pml_queue: the PML launches in a second queue, concurrent with the inner one. For the merged and the per-region PML launches,
   K steps (random fields, variable velocity, a source in the PML, so that it must wait for the PML launch) leave u, u_prev and phi
   bit-identical to the one-queue run; every point is updated exactly once (and leaving out a region is noticed); the queue is
   counted while the object lives and released with it. */
static void test_pml_queue(void **state)
{
  const PetscInt nx = 45, ny = 37, nz = 31, nd = 6, K = 25;
  PetscReal     *vel;

  PCALL(PetscMalloc1(nx * ny * nz, &vel));
  velocity_model(nx, ny, nz, vel);
  for (PetscInt merge = 0; merge < 2; merge++) {
    float       *f[2];
    size_t       N = 0;
    SbpmgCLStats before, during, after;

    for (int queue = 0; queue < 2; queue++) {
      Acoustic ac;

      create(&ac, nx, ny, nz, nd, ACOUSTIC_BACKEND_DEVICE);
      random_run_with_source(ac, vel, 3, 17, 12); /* x = 3 < ndamp: a PML point */
      PCALL(AcousticSetFused(ac, 0, merge));
      PCALL(AcousticSetRowKernels(ac, 0));
      SbpmgTestSetOption("-ac_pml_queue", queue ? "1" : "0");
      PCALL(AcousticSetFromOptions(ac));
      SbpmgTestSetOption("-ac_pml_queue", NULL);
      if (queue) PCALL(SbpmgCLGetGlobalStats(&before));
      PCALL(AcousticSetUp(ac));
      assert_true((ac->qpml != NULL) == (queue != 0));
      if (queue) {
        PCALL(SbpmgCLGetGlobalStats(&during)); /* the second queue, and the context's own if the set-up created a context */
        assert_int_equal(during.live_queues - before.live_queues, 1 + during.live_contexts - before.live_contexts);
      }
      PCALL(AcousticStep(ac, K));
      if (!queue) {
        N = ac->npad;
        PCALL(PetscMalloc2(3 * N, &f[0], 3 * N, &f[1]));
      }
      read_fields(ac, f[queue]);
      if (queue) {
        PetscInt bu, bp;
        ac->amplitude = 0; /* the poisoned step has no source */
        poisoned_step(ac, AC_REGIONS_ALL, &bu, &bp);
        assert_int_equal(bu, 0);
        assert_int_equal(bp, 0);
        for (PetscInt r = 0; r < AC_NREGIONS; r++) {
          const PetscInt np = (ac->hi[r][0] - ac->lo[r][0]) * (ac->hi[r][1] - ac->lo[r][1]) * (ac->hi[r][2] - ac->lo[r][2]);
          poisoned_step(ac, AC_REGIONS_ALL & ~(1 << r), &bu, &bp);
          assert_int_equal(bu, np);
          assert_int_equal(bp, r == AC_REGION_INNER ? 0 : np);
        }
        print_message("  %s, second queue: %d steps %s the one-queue run\n", ac->kpmlmerge ? "merged PML" : "PML per region", (int)K,
                      memcmp(f[0], f[1], 3 * N * sizeof(float)) ? "DIFFER from" : "bit-identical to");
      }
      PCALL(AcousticDestroy(&ac));
      if (queue) {
        PCALL(SbpmgCLGetGlobalStats(&after));
        assert_int_equal(during.live_queues - after.live_queues, 1 + during.live_contexts - after.live_contexts);
      }
    }
    assert_memory_equal(f[0], f[1], 3 * N * sizeof(float));
    PCALL(PetscFree2(f[0], f[1]));
  }
  PCALL(PetscFree(vel));
}

/* -ac_two_steps: two leapfrog steps per pass over the inner box (ac_pair). K steps (random fields, variable velocity, a source
   in the inner box or in the PML) leave u, u_prev and phi bit-identical to single steps, for ac_pair tiles of one tile vector and
   row up to several, z chunks that do not divide the box, every vector width, odd and even K, no PML at all (the ring reads
   the zero halo), and the PML in one launch or one per slab; the host reference agrees to fp32 rounding. The two extra fields
   are allocated with the kernel and released. */
static void test_two_steps(void **state)
{
  /* grid x, y, z, ndamp, source x, y, z, K; pair tile x, y, z, vec */
  const PetscInt cases[][12] = {
      {45, 37, 31, 6, 20, 17, 12, 25, -1, -1, -1, -1}, {45, 37, 31, 6, 3, 17, 12, 2, -1, -1, -1, -1}, {45, 37, 31, 6, 20, 17, 12, 9, 3, 9, 0, 4},
      {45, 37, 31, 6, 20, 17, 12, 8, 6, 12, 5, 2},     {45, 37, 31, 6, 20, 17, 12, 7, 10, 10, 7, 1},  {45, 37, 31, 6, 35, 6, 24, 6, 8, 16, 3, 4},
      {24, 20, 18, 0, 11, 9, 8, 6, -1, -1, -1, -1},    {24, 20, 18, 0, 11, 9, 8, 5, 3, 11, 4, 4},
  };
  PetscReal *vel;

  PCALL(PetscMalloc1(45 * 37 * 31, &vel));
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    const PetscInt *t = cases[c], N = t[0] * t[1] * t[2];
    float          *f[2];
    size_t          npad = 0;
    PetscReal      *ur, *ud, eu;
    PetscInt        nbuf[2];
    Acoustic        ref;

    velocity_model(t[0], t[1], t[2], vel);
    for (int two = 0; two < 2; two++) {
      Acoustic     ac;
      SbpmgCLStats before, during, after;
      char         buf[16];

      create(&ac, t[0], t[1], t[2], t[3], ACOUSTIC_BACKEND_DEVICE);
      random_run_with_source(ac, vel, t[4], t[5], t[6]);
      PCALL(AcousticSetFused(ac, 0, (PetscInt)(c % 2 == 0))); /* the PML in one launch, or one launch per slab */
      PCALL(AcousticSetRowKernels(ac, 0));
      if (t[11] > 0) PCALL(AcousticSetTile(ac, -1, -1, -1, PETSC_FALSE, t[11]));
      SbpmgTestSetOption("-ac_two_steps", two ? "1" : "0");
      for (int d = 0; d < 3 && two; d++) {
        const char *name[3] = {"-ac_pair_tile_x", "-ac_pair_tile_y", "-ac_pair_tile_z"};
        PCALL(PetscSNPrintf(buf, sizeof(buf), "%d", (int)t[8 + d]));
        SbpmgTestSetOption(name[d], buf);
      }
      PCALL(AcousticSetFromOptions(ac));
      SbpmgTestSetOption("-ac_two_steps", NULL);
      SbpmgTestSetOption("-ac_pair_tile_x", NULL);
      SbpmgTestSetOption("-ac_pair_tile_y", NULL);
      SbpmgTestSetOption("-ac_pair_tile_z", NULL);
      PCALL(SbpmgCLGetGlobalStats(&before));
      PCALL(AcousticSetUp(ac));
      PCALL(SbpmgCLGetGlobalStats(&during));
      assert_true((ac->kpair != NULL) == (two != 0));
      assert_true((ac->dspare[0] != NULL && ac->dspare[1] != NULL) == (two != 0));
      PCALL(AcousticStep(ac, t[7]));
      assert_int_equal(ac->step, t[7]);
      if (!two) {
        npad = ac->npad;
        PCALL(PetscMalloc2(3 * npad, &f[0], 3 * npad, &f[1]));
      }
      read_fields(ac, f[two]);
      if (two) {
        print_message("  %dx%dx%d ndamp %d, source (%d,%d,%d), %d steps, pair tile %d x %d x %d, vec %d, PML %s: %s single steps\n", (int)t[0], (int)t[1],
                      (int)t[2], (int)t[3], (int)t[4], (int)t[5], (int)t[6], (int)t[7], (int)ac->kpairtile[0], (int)ac->kpairtile[1], (int)ac->kpairtile[2],
                      (int)ac->kvec, ac->kpmlmerge ? "merged" : "per slab", memcmp(f[0], f[1], 3 * npad * sizeof(float)) ? "DIFFER from" : "bit-identical to");
        PCALL(PetscMalloc2(N, &ur, N, &ud));
        PCALL(AcousticGetField(ac, ACOUSTIC_FIELD_U, ud));
      }
      PCALL(AcousticDestroy(&ac));
      PCALL(SbpmgCLGetGlobalStats(&after));
      assert_int_equal(after.live_buffers, before.live_buffers);
      nbuf[two] = during.live_buffers - before.live_buffers;
    }
    assert_int_equal(nbuf[1], nbuf[0] + 2); /* the two extra fields */
    assert_memory_equal(f[0], f[1], 3 * npad * sizeof(float));
    create(&ref, t[0], t[1], t[2], t[3], ACOUSTIC_BACKEND_HOST);
    random_run_with_source(ref, vel, t[4], t[5], t[6]);
    PCALL(AcousticSetUp(ref));
    PCALL(AcousticStep(ref, t[7]));
    PCALL(AcousticGetField(ref, ACOUSTIC_FIELD_U, ur));
    eu = reldiff(N, ud, ur);
    assert_true(eu < 2e-5);
    PCALL(AcousticDestroy(&ref));
    PCALL(PetscFree2(ur, ud));
    PCALL(PetscFree2(f[0], f[1]));
  }
  PCALL(PetscFree(vel));
}

static unsigned long be32(const unsigned char *b)
{
  return ((unsigned long)b[0] << 24) | ((unsigned long)b[1] << 16) | ((unsigned long)b[2] << 8) | b[3];
}

/* A PNG of the central slice (signature, IHDR size, RGB) and a VTK structured grid are written. */
static void test_snapshots(void **state)
{
  Acoustic      ac;
  unsigned char head[32];
  FILE         *fp;
  char          buf[4096];
  size_t        got;
  char          png[64], vts[64];

  PCALL(PetscSNPrintf(png, sizeof(png), "ac_test_%d.png", (int)getpid()));
  PCALL(PetscSNPrintf(vts, sizeof(vts), "ac_test_%d.vts", (int)getpid()));
  create(&ac, 41, 33, 29, 4, ACOUSTIC_BACKEND_DEVICE);
  PCALL(AcousticSetSourceWavelet(ac, 100, 1));
  PCALL(AcousticSetUp(ac));
  PCALL(AcousticStep(ac, 60));
  PCALL(AcousticView(ac, PETSC_VIEWER_STDOUT_SELF));
  PCALL(AcousticWriteSlicePNG(ac, png));
  fp = fopen(png, "rb");
  assert_non_null(fp);
  assert_int_equal(fread(head, 1, sizeof(head), fp), sizeof(head));
  fclose(fp);
  assert_memory_equal(head, "\x89PNG\r\n\x1a\n", 8);
  assert_memory_equal(head + 12, "IHDR", 4);
  assert_int_equal(be32(head + 16), 41);
  assert_int_equal(be32(head + 20), 33);
  assert_int_equal(head[24], 8); /* bit depth */
  assert_int_equal(head[25], 2); /* RGB */
  assert_int_equal(unlink(png), 0);
  PCALL(AcousticWriteVTK(ac, vts));
  fp = fopen(vts, "rb");
  assert_non_null(fp);
  got      = fread(buf, 1, sizeof(buf) - 1, fp);
  buf[got] = 0;
  fclose(fp);
  assert_non_null(strstr(buf, "StructuredGrid"));
  assert_non_null(strstr(buf, "WholeExtent=\"0 40 0 32 0 28\""));
  assert_int_equal(unlink(vts), 0);
  EXPECT_ERROR(AcousticWriteSlicePNG(ac, "/nonexistent-dir/x.png"), PETSC_ERR_FILE_OPEN, "Cannot open /nonexistent-dir/x.png for writing");
  PCALL(AcousticDestroy(&ac));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_device_vs_reference), cmocka_unit_test(test_region_decomposition),
    cmocka_unit_test(test_no_host_traffic),     cmocka_unit_test(test_tiles),
    cmocka_unit_test(test_snapshots),           cmocka_unit_test(test_deterministic),
    cmocka_unit_test(test_pml_queue),           cmocka_unit_test(test_two_steps),
};

SBPMG_TEST_MAIN(help, tests)
