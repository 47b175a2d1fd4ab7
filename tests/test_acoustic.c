/* The acoustic operator on the device (PoCL in CI): region decomposition, device vs the fp64 host reference for the kernel
   shapes of the tuning table, no host traffic while stepping, tuning changes and bad tuning values, determinism (the
   pictures: tests/test_acoustic_pictures.c). */
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

/* The launch mode of the object's kernels, for the messages. */
static const char *launch_mode(Acoustic ac)
{
  return ac->tune.ac_fused ? "whole " : (ac->tune.ac_pml_merge ? "merged " : "");
}

/* Kernel shapes (overrides of the device's tuning, include/sbpmg/private/tuning.h): inner and PML tiles that do not divide
   the regions, z chunks, local memory, vector widths, the three launch modes, prefetch distances and unrolled sweeps. */
static const char *const AcShapes[] = {
    "",
    "ac_tile_x=8,ac_tile_y=4,ac_tile_z=0,ac_vec=1,ac_local_mem=0,ac_pml_tile_x=8,ac_pml_tile_y=2,ac_pml_tile_z=0,ac_pml_vec=1,ac_fused=0,ac_pml_merge=0",
    "ac_tile_x=8,ac_tile_y=4,ac_tile_z=0,ac_vec=1,ac_local_mem=1,ac_pml_tile_x=16,ac_pml_tile_y=4,ac_pml_tile_z=5,ac_pml_vec=1,ac_fused=0,ac_pml_merge=1",
    "ac_tile_x=4,ac_tile_y=4,ac_tile_z=7,ac_vec=4,ac_local_mem=0,ac_pml_tile_x=32,ac_pml_tile_y=4,ac_pml_tile_z=0,ac_pml_vec=4,ac_fused=0,ac_pml_merge=0",
    "ac_tile_x=4,ac_tile_y=8,ac_tile_z=0,ac_vec=4,ac_local_mem=1,ac_pml_tile_x=8,ac_pml_tile_y=4,ac_pml_tile_z=3,ac_pml_vec=2,ac_fused=0,ac_pml_merge=1",
    "ac_tile_x=8,ac_tile_y=5,ac_tile_z=9,ac_vec=2,ac_local_mem=1,ac_pml_tile_x=32,ac_pml_tile_y=4,ac_pml_tile_z=0,ac_pml_vec=4,ac_fused=0,ac_pml_merge=0",
    "ac_tile_x=16,ac_tile_y=2,ac_tile_z=0,ac_vec=2,ac_local_mem=0,ac_pml_tile_x=4,ac_pml_tile_y=4,ac_pml_tile_z=6,ac_pml_vec=4,ac_fused=0,ac_pml_merge=1",
    "ac_tile_x=1,ac_tile_y=4,ac_tile_z=3,ac_vec=4,ac_local_mem=1,ac_pml_tile_x=32,ac_pml_tile_y=4,ac_pml_tile_z=0,ac_pml_vec=1,ac_fused=0,ac_pml_merge=0",
    "ac_tile_x=8,ac_tile_y=4,ac_tile_z=5,ac_vec=4,ac_local_mem=0,ac_pml_tile_x=16,ac_pml_tile_y=2,ac_pml_tile_z=4,ac_pml_vec=4,ac_fused=1,ac_pml_merge=0",
    "ac_tile_x=8,ac_tile_y=4,ac_tile_z=0,ac_vec=1,ac_local_mem=0,ac_pml_tile_x=32,ac_pml_tile_y=1,ac_pml_tile_z=0,ac_pml_vec=1,ac_fused=1,ac_pml_merge=0",
    "ac_tile_x=4,ac_tile_y=8,ac_tile_z=6,ac_vec=2,ac_local_mem=0,ac_pml_tile_x=8,ac_pml_tile_y=4,ac_pml_tile_z=3,ac_pml_vec=2,ac_fused=1,ac_pml_merge=0",
    "ac_tile_x=16,ac_tile_y=2,ac_tile_z=0,ac_vec=4,ac_local_mem=0,ac_pml_tile_x=4,ac_pml_tile_y=8,ac_pml_tile_z=0,ac_pml_vec=4,ac_fused=1,ac_pml_merge=0",
    "ac_tile_x=8,ac_tile_y=4,ac_tile_z=5,ac_vec=4,ac_local_mem=0,ac_pml_tile_x=8,ac_pml_tile_y=2,ac_pml_tile_z=3,ac_pml_vec=1,ac_fused=0,ac_pml_merge=1",
    "ac_prefetch=2,ac_pml_prefetch=2,ac_unroll=2,ac_pml_unroll=2",
    "ac_tile_x=8,ac_tile_y=4,ac_tile_z=5,ac_vec=4,ac_local_mem=0,ac_pml_tile_x=16,ac_pml_tile_y=2,ac_pml_tile_z=4,ac_pml_vec=4,ac_fused=0,ac_pml_merge=1,"
    "ac_prefetch=3,ac_pml_prefetch=3,ac_unroll=3,ac_pml_unroll=3",
    "ac_tile_x=4,ac_tile_y=8,ac_tile_z=6,ac_vec=2,ac_local_mem=0,ac_pml_tile_x=8,ac_pml_tile_y=4,ac_pml_tile_z=3,ac_pml_vec=2,ac_fused=0,ac_pml_merge=0,"
    "ac_prefetch=1,ac_pml_prefetch=1,ac_unroll=4,ac_pml_unroll=4",
    "ac_tile_x=8,ac_tile_y=4,ac_tile_z=7,ac_vec=4,ac_local_mem=0,ac_pml_tile_x=16,ac_pml_tile_y=2,ac_pml_tile_z=5,ac_pml_vec=4,ac_fused=0,ac_pml_merge=1,"
    "ac_prefetch=0,ac_pml_prefetch=0,ac_unroll=8,ac_pml_unroll=8",
};

/* Device (fp32) against the host reference (fp64) after K steps from random fields, variable velocity, PML and a
   source, for each kernel shape of AcShapes. */
static void test_device_vs_reference(void **state)
{
  const PetscInt nx = 45, ny = 37, nz = 31, nd = 6, K = 25, N = nx * ny * nz;
  Acoustic       ref, dev;
  PetscReal     *vel, *ur, *ud, *pr, *pd;

  PCALL(PetscMalloc5(N, &vel, N, &ur, N, &ud, N, &pr, N, &pd));
  velocity_model(nx, ny, nz, vel);
  create(&ref, nx, ny, nz, nd, ACOUSTIC_BACKEND_HOST);
  random_run_with_source(ref, vel, 20, 17, 12);
  PCALL(AcousticSetUp(ref));
  PCALL(AcousticStep(ref, K));
  PCALL(AcousticGetField(ref, ACOUSTIC_FIELD_U, ur));
  PCALL(AcousticGetField(ref, ACOUSTIC_FIELD_PHI, pr));
  for (size_t t = 0; t < sizeof(AcShapes) / sizeof(AcShapes[0]); t++) {
    PetscReal eu, ep;

    create(&dev, nx, ny, nz, nd, ACOUSTIC_BACKEND_DEVICE);
    random_run_with_source(dev, vel, 20, 17, 12);
    PCALL(AcousticSetTuning_Private(dev, AcShapes[t]));
    PCALL(AcousticSetUp(dev));
    PCALL(AcousticStep(dev, K));
    PCALL(AcousticGetField(dev, ACOUSTIC_FIELD_U, ud));
    PCALL(AcousticGetField(dev, ACOUSTIC_FIELD_PHI, pd));
    eu = reldiff(N, ud, ur);
    ep = reldiff(N, pd, pr);
    print_message("  %s%s: u rel. diff %.3e, phi rel. diff %.3e\n", launch_mode(dev), dev->kopts, (double)eu, (double)ep);
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

/* Leaving out any one region of a step is noticed: the poisoned step counts exactly that region's points as bad. */
static void check_every_point_once(Acoustic ac)
{
  PetscInt bu, bp;

  poisoned_step(ac, AC_REGIONS_ALL, &bu, &bp);
  assert_int_equal(bu, 0);
  assert_int_equal(bp, 0);
  for (PetscInt r = 0; r < AC_NREGIONS; r++) {
    const PetscInt np = (ac->hi[r][0] - ac->lo[r][0]) * (ac->hi[r][1] - ac->lo[r][1]) * (ac->hi[r][2] - ac->lo[r][2]);
    if (!np) continue;
    poisoned_step(ac, AC_REGIONS_ALL & ~(1 << r), &bu, &bp);
    assert_int_equal(bu, np);
    assert_int_equal(bp, r == AC_REGION_INNER ? 0 : np);
  }
}

static void test_region_decomposition(void **state)
{
  /* ndamp, backend, kernel shape */
  const struct {
    PetscInt        ndamp;
    AcousticBackend backend;
    const char     *shape;
  } cases[] = {
      {6, ACOUSTIC_BACKEND_DEVICE, "ac_fused=0,ac_pml_merge=0"},
      {6, ACOUSTIC_BACKEND_DEVICE,
       "ac_tile_x=8,ac_tile_y=4,ac_tile_z=0,ac_vec=1,ac_local_mem=1,ac_pml_tile_x=8,ac_pml_tile_y=2,ac_pml_tile_z=0,ac_pml_vec=1,ac_fused=0,ac_pml_merge=1"},
      {6, ACOUSTIC_BACKEND_DEVICE,
       "ac_tile_x=4,ac_tile_y=4,ac_tile_z=7,ac_vec=4,ac_local_mem=0,ac_pml_tile_x=32,ac_pml_tile_y=4,ac_pml_tile_z=0,ac_pml_vec=4,ac_fused=0,ac_pml_merge=0"},
      {6, ACOUSTIC_BACKEND_DEVICE,
       "ac_tile_x=8,ac_tile_y=5,ac_tile_z=9,ac_vec=2,ac_local_mem=1,ac_pml_tile_x=4,ac_pml_tile_y=4,ac_pml_tile_z=6,ac_pml_vec=2,ac_fused=0,ac_pml_merge=1"},
      {0, ACOUSTIC_BACKEND_DEVICE, "ac_tile_x=4,ac_tile_y=4,ac_tile_z=0,ac_vec=4,ac_local_mem=1,ac_fused=0,ac_pml_merge=1"},
      {0, ACOUSTIC_BACKEND_DEVICE, "ac_fused=1,ac_pml_merge=0"},
      {6, ACOUSTIC_BACKEND_DEVICE,
       "ac_tile_x=8,ac_tile_y=4,ac_tile_z=5,ac_vec=4,ac_local_mem=0,ac_pml_tile_x=16,ac_pml_tile_y=2,ac_pml_tile_z=4,ac_pml_vec=4,ac_fused=1,ac_pml_merge=0"},
      {6, ACOUSTIC_BACKEND_DEVICE,
       "ac_tile_x=4,ac_tile_y=8,ac_tile_z=6,ac_vec=2,ac_local_mem=0,ac_pml_tile_x=8,ac_pml_tile_y=4,ac_pml_tile_z=3,ac_pml_vec=2,ac_fused=1,ac_pml_merge=0"},
      {6, ACOUSTIC_BACKEND_DEVICE, "ac_tile_x=16,ac_tile_y=2,ac_tile_z=0,ac_vec=1,ac_local_mem=0,ac_fused=1,ac_pml_merge=0"},
      {6, ACOUSTIC_BACKEND_HOST, ""},
  };
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    Acoustic ac;

    create(&ac, 45, 37, 31, cases[c].ndamp, cases[c].backend);
    PCALL(AcousticSetSourceWavelet(ac, 25, 0));
    PCALL(AcousticSetTuning_Private(ac, cases[c].shape));
    PCALL(AcousticSetUp(ac));
    if (cases[c].backend == ACOUSTIC_BACKEND_HOST)
      print_message("  ndamp %d, host\n", (int)cases[c].ndamp);
    else
      print_message("  ndamp %d, device %s%s\n", (int)cases[c].ndamp, launch_mode(ac), ac->kopts);
    check_every_point_once(ac);
    PCALL(AcousticDestroy(&ac));
  }
}

/* The norms agree with the field read back. */
static void check_norms(Acoustic ac)
{
  const PetscInt N = ac->n[0] * ac->n[1] * ac->n[2];
  PetscReal     *u, m, e, mh = 0, eh = 0;

  PCALL(PetscMalloc1(N, &u));
  PCALL(AcousticGetField(ac, ACOUSTIC_FIELD_U, u));
  for (PetscInt p = 0; p < N; p++) {
    mh = PetscMax(mh, PetscAbsReal(u[p]));
    eh += u[p] * u[p];
  }
  PCALL(AcousticGetNorms(ac, &m, &e));
  assert_true(mh > 0);
  assert_true(PetscAbsReal(m - mh) <= 1e-6 * mh);
  assert_true(PetscAbsReal(e - eh) <= 1e-4 * eh);
  PCALL(PetscFree(u));
}

/* K steps enqueue no host<->device transfer; the norms agree with the field read back. */
static void test_no_host_traffic(void **state)
{
  Acoustic     ac;
  SbpmgCLStats a, b;

  create(&ac, 40, 36, 32, 5, ACOUSTIC_BACKEND_DEVICE);
  PCALL(AcousticSetInitialType(ac, ACOUSTIC_INIT_RANDOM));
  PCALL(AcousticSetUp(ac));
  PCALL(SbpmgCLGetStats(ac->cl, &a));
  PCALL(AcousticStep(ac, 10));
  PCALL(SbpmgCLFinish(ac->cl));
  PCALL(SbpmgCLGetStats(ac->cl, &b));
  assert_true(a.htod_count == b.htod_count && a.dtoh_count == b.dtoh_count);
  assert_true(a.htod_bytes == b.htod_bytes && a.dtoh_bytes == b.dtoh_bytes);
  check_norms(ac);
  PCALL(AcousticDestroy(&ac));
}

/* Field u after 3 steps with the device's tuning and 3 more with the tuning overrides of `after` (NULL: none), from random
   fields. */
static void run_with_tuning_change(const char *after, PetscReal *u)
{
  Acoustic ac;

  create(&ac, 40, 36, 32, 5, ACOUSTIC_BACKEND_DEVICE);
  PCALL(AcousticSetInitialType(ac, ACOUSTIC_INIT_RANDOM));
  PCALL(AcousticSetUp(ac));
  PCALL(AcousticStep(ac, 3));
  if (after) PCALL(AcousticSetTuning_Private(ac, after));
  PCALL(AcousticStep(ac, 3));
  PCALL(AcousticGetField(ac, ACOUSTIC_FIELD_U, u));
  PCALL(AcousticDestroy(&ac));
}

/* Set-up with the tuning overrides `shape` fails with code and message. */
static void expect_setup_error(const char *shape, PetscErrorCode code, const char *msg)
{
  Acoustic ac;

  create(&ac, 40, 36, 32, 5, ACOUSTIC_BACKEND_DEVICE);
  PCALL(AcousticSetTuning_Private(ac, shape));
  EXPECT_ERROR(AcousticSetUp(ac), code, msg);
  PCALL(AcousticDestroy(&ac));
}

/* Changing the tuning after set-up rebuilds the kernels and gives the same field; -sbpmg_tune on a fresh context reaches
   the object; values outside the table's ranges and shapes the device or the kernels cannot take are refused. */
static void test_tuning(void **state)
{
  PetscReal *u1, *u2, d, s;
  PetscInt   N = 40 * 36 * 32;

  PCALL(PetscMalloc2(N, &u1, N, &u2));
  run_with_tuning_change(NULL, u1);
  run_with_tuning_change("ac_tile_x=4,ac_tile_y=4,ac_tile_z=5,ac_local_mem=1,ac_vec=4,ac_fused=0", u2);
  SbpmgTestMaxDiff(N, u1, u2, &d, &s);
  assert_true(d == 0);
  PCALL(PetscFree2(u1, u2));
  { /* -sbpmg_tune is read when a context is created: the next default context takes it */
    Acoustic ac;

    SbpmgTestSetOption("-sbpmg_tune", "ac_tile_y=4,ac_pml_tile_x=16,ac_norm_wg=8");
    PCALL(SbpmgCLResetDefault());
    create(&ac, 40, 36, 32, 5, ACOUSTIC_BACKEND_DEVICE);
    PCALL(AcousticSetInitialType(ac, ACOUSTIC_INIT_RANDOM));
    PCALL(AcousticSetUp(ac));
    assert_int_equal(ac->tune.ac_tile_y, 4);
    assert_int_equal(ac->tune.ac_pml_tile_x, 16);
    assert_int_equal(ac->tune.ac_norm_wg, 8);
    PCALL(AcousticStep(ac, 2));
    check_norms(ac); /* the reduction with 8 work-items per group */
    PCALL(AcousticDestroy(&ac));
    SbpmgTestSetOption("-sbpmg_tune", NULL);
    PCALL(SbpmgCLResetDefault());
  }
  {
    /* values outside the rows' ranges (the same parser as -sbpmg_tune) */
    const char *bad[][2] = {
        {"ac_tile_x=0", "-sbpmg_tune ac_tile_x=0 is out of range [1, 1024]"},
        {"ac_pml_tile_y=-4", "-sbpmg_tune ac_pml_tile_y=-4 is out of range [1, 1024]"},
        {"ac_pml_vec=8", "-sbpmg_tune ac_pml_vec=8 is out of range [1, 4]"},
        {"ac_tile_z=-2", "-sbpmg_tune ac_tile_z=-2 is out of range [0, 1048576]"},
        {"ac_pml_tile_z=-3", "-sbpmg_tune ac_pml_tile_z=-3 is out of range [0, 1048576]"},
        {"ac_prefetch=17", "-sbpmg_tune ac_prefetch=17 is out of range [0, 16]"},
        {"ac_pml_prefetch=-2", "-sbpmg_tune ac_pml_prefetch=-2 is out of range [0, 16]"},
        {"ac_unroll=0", "-sbpmg_tune ac_unroll=0 is out of range [1, 8]"},
        {"ac_pml_unroll=9", "-sbpmg_tune ac_pml_unroll=9 is out of range [1, 8]"},
    };
    Acoustic ac;

    create(&ac, 40, 36, 32, 5, ACOUSTIC_BACKEND_DEVICE);
    for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) EXPECT_ERROR(AcousticSetTuning_Private(ac, bad[b][0]), PETSC_ERR_ARG_OUTOFRANGE, bad[b][1]);
    PCALL(AcousticDestroy(&ac));
  }
  /* shapes within the ranges that the kernels or the device cannot take */
  expect_setup_error("ac_vec=3", PETSC_ERR_ARG_OUTOFRANGE, "Tuning ac_vec=3 must be 1, 2 or 4");
  expect_setup_error("ac_norm_wg=48", PETSC_ERR_ARG_OUTOFRANGE, "Tuning ac_norm_wg=48 must be a power of two");
  expect_setup_error("ac_tile_x=128,ac_tile_y=64,ac_tile_z=0,ac_vec=1", PETSC_ERR_ARG_OUTOFRANGE,
                     "Inner tile ac_tile_x=128 x ac_tile_y=64 = 8192 work-items exceeds the work-group limit");
  expect_setup_error("ac_tile_x=32,ac_tile_y=2,ac_tile_z=0,ac_local_mem=1,ac_vec=1,ac_fused=0", PETSC_ERR_ARG_OUTOFRANGE,
                     "ac_local_mem=1 needs a tile of at least 4 points on each axis (ac_tile_y=2 >= 4");
  expect_setup_error("ac_pml_tile_x=128,ac_pml_tile_y=64,ac_pml_tile_z=0,ac_pml_vec=1", PETSC_ERR_ARG_OUTOFRANGE,
                     "PML tile ac_pml_tile_x=128 x ac_pml_tile_y=64 exceeds the work-group limit");
  expect_setup_error("ac_tile_x=32,ac_tile_y=8,ac_tile_z=0,ac_local_mem=1,ac_vec=1,ac_fused=1", PETSC_ERR_ARG_INCOMP,
                     "Tuning ac_fused=1 takes x/y neighbours from the cache: it cannot be combined with ac_local_mem=1");
}

/* u, u_prev and phi as the device holds them (3 npad floats, halo included) */
static void read_fields(Acoustic ac, float *f)
{
  const cl_mem b[3] = {ac->du, ac->dv, ac->dphi};
  for (int q = 0; q < 3; q++) PCALL(SbpmgCLReadBuffer(ac->cl, b[q], 0, ac->npad * sizeof(float), f + q * ac->npad));
}

/* Two runs of K device steps from the same random fields, on fresh objects, give the same bits: u, u_prev and phi read
   back whole (halo included) and compared with memcmp; for each launch mode. */
static void test_deterministic(void **state)
{
  /* the launch modes: the device's, inner + merged PML, one launch per region */
  const char *const modes[] = {"", "ac_fused=0,ac_pml_merge=1", "ac_fused=0,ac_pml_merge=0"};
  const PetscInt    K       = 20;

  for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
    float *f[2];
    size_t N = 0;

    for (int run = 0; run < 2; run++) {
      Acoustic ac;

      create(&ac, 45, 37, 31, 6, ACOUSTIC_BACKEND_DEVICE);
      PCALL(AcousticSetSource(ac, 20, 17, 12));
      PCALL(AcousticSetSourceWavelet(ac, 60.0, 10.0));
      PCALL(AcousticSetInitialType(ac, ACOUSTIC_INIT_RANDOM));
      PCALL(AcousticSetTuning_Private(ac, modes[m]));
      PCALL(AcousticSetUp(ac));
      PCALL(AcousticStep(ac, K));
      if (!run) {
        N = ac->npad;
        PCALL(PetscMalloc2(3 * N, &f[0], 3 * N, &f[1]));
      }
      read_fields(ac, f[run]);
      if (run)
        print_message("  %s%s: two runs of %d steps %s\n", launch_mode(ac), ac->kopts, (int)K,
                      memcmp(f[0], f[1], 3 * N * sizeof(float)) ? "DIFFER" : "bit-identical");
      PCALL(AcousticDestroy(&ac));
    }
    assert_memory_equal(f[0], f[1], 3 * N * sizeof(float));
    PCALL(PetscFree2(f[0], f[1]));
  }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_device_vs_reference), cmocka_unit_test(test_region_decomposition),
    cmocka_unit_test(test_no_host_traffic),     cmocka_unit_test(test_tuning),
    cmocka_unit_test(test_deterministic),
};

SBPMG_TEST_MAIN(help, tests)
