/* The acoustic operator without a device: the Laplacian's order (MatShell, fp64), leapfrog's order (fp64 host
   reference), the velocity file, and every bad input. */
#include "test_acoustic_common.h"
#include <unistd.h>
#include <math.h>

static const char help[] = "Host tests of the acoustic operator (src/acoustic).\n";

/* max |A u - lap u| over the points at least 4 from the boundary (the zero halo is not the function's extension), for
   u = sin(a x) sin(b y) sin(c z) on n^3 points x_i = (i + 1) h, h = 1 / (n + 1). */
static PetscReal laplacian_error(PetscInt n, PetscReal *h)
{
  const PetscReal    a = 2 * PETSC_PI, b = 3 * PETSC_PI, c = PETSC_PI;
  Mat                A;
  Vec                u, lu;
  PetscScalar       *ua;
  const PetscScalar *la;
  PetscReal          err = 0;

  *h = 1.0 / (n + 1);
  PCALL(MatCreateAcousticLaplacian(PETSC_COMM_SELF, n, n, n, *h, *h, *h, &A));
  PCALL(MatCreateVecs(A, &u, &lu));
  PCALL(VecGetArray(u, &ua));
  for (PetscInt k = 0; k < n; k++)
    for (PetscInt j = 0; j < n; j++)
      for (PetscInt i = 0; i < n; i++)
        ua[i + n * (j + n * k)] = PetscSinReal(a * (i + 1) * *h) * PetscSinReal(b * (j + 1) * *h) * PetscSinReal(c * (k + 1) * *h);
  PCALL(VecRestoreArray(u, &ua));
  PCALL(MatMult(A, u, lu));
  PCALL(VecGetArrayRead(u, (const PetscScalar **)&ua));
  PCALL(VecGetArrayRead(lu, &la));
  for (PetscInt k = 4; k < n - 4; k++)
    for (PetscInt j = 4; j < n - 4; j++)
      for (PetscInt i = 4; i < n - 4; i++) {
        const PetscInt p = i + n * (j + n * k);
        err              = PetscMax(err, PetscAbsReal(la[p] + (a * a + b * b + c * c) * ua[p]));
      }
  PCALL(VecRestoreArrayRead(u, (const PetscScalar **)&ua));
  PCALL(VecRestoreArrayRead(lu, &la));
  PCALL(VecDestroy(&u));
  PCALL(VecDestroy(&lu));
  PCALL(MatDestroy(&A));
  return err;
}

/* The spec: observed order of the 25-point Laplacian >= 7.5 in fp64. */
static void test_laplacian_order(void **state)
{
  const PetscInt n[3] = {16, 32, 64};
  PetscReal      e[3], h[3];

  for (int l = 0; l < 3; l++) e[l] = laplacian_error(n[l], &h[l]);
  for (int l = 0; l < 2; l++) {
    const PetscReal order = PetscLogReal(e[l] / e[l + 1]) / PetscLogReal(h[l] / h[l + 1]);
    print_message("  n %d -> %d: error %.3e -> %.3e, order %.2f\n", (int)n[l], (int)n[l + 1], (double)e[l], (double)e[l + 1], (double)order);
    assert_true(order >= 7.5);
  }
}

/* The MatShell is symmetric with the constant diagonal c0x + c0y + c0z; MatMultTranspose equals MatMult. */
static void test_laplacian_shell(void **state)
{
  Mat             A;
  Vec             x, y, ax, ay, d;
  PetscScalar    *a;
  PetscReal       xay, yax, dmin, dmax;
  PetscBool       symset, sym;
  const PetscReal h[3] = {10.0, 12.5, 20.0};

  PCALL(MatCreateAcousticLaplacian(PETSC_COMM_SELF, 11, 13, 9, h[0], h[1], h[2], &A));
  PCALL(MatCreateVecs(A, &x, &y));
  PCALL(VecDuplicate(x, &ax));
  PCALL(VecDuplicate(x, &ay));
  PCALL(VecDuplicate(x, &d));
  PCALL(VecGetArray(x, &a));
  SbpmgTestRandom(11 * 13 * 9, a, -1, 1, 7);
  PCALL(VecRestoreArray(x, &a));
  PCALL(VecGetArray(y, &a));
  SbpmgTestRandom(11 * 13 * 9, a, -1, 1, 8);
  PCALL(VecRestoreArray(y, &a));
  PCALL(MatMult(A, x, ax));
  PCALL(MatMult(A, y, ay));
  PCALL(VecDot(x, ay, &xay));
  PCALL(VecDot(y, ax, &yax));
  assert_true(PetscAbsReal(xay - yax) <= 1e-12 * PetscAbsReal(xay));
  PCALL(MatMultTranspose(A, x, ay));
  PCALL(VecAXPY(ay, -1, ax));
  PCALL(VecNorm(ay, NORM_INFINITY, &xay));
  assert_true(xay == 0);
  PCALL(MatGetDiagonal(A, d));
  PCALL(VecMin(d, NULL, &dmin));
  PCALL(VecMax(d, NULL, &dmax));
  assert_true(dmin == dmax);
  assert_true(PetscAbsReal(dmin + 205.0 / 72.0 * (1 / (h[0] * h[0]) + 1 / (h[1] * h[1]) + 1 / (h[2] * h[2]))) < 1e-15);
  PCALL(MatIsSymmetricKnown(A, &symset, &sym));
  assert_true(symset && sym);
  PCALL(VecDestroy(&x));
  PCALL(VecDestroy(&y));
  PCALL(VecDestroy(&ax));
  PCALL(VecDestroy(&ay));
  PCALL(VecDestroy(&d));
  PCALL(MatDestroy(&A));
  EXPECT_ERROR(MatCreateAcousticLaplacian(PETSC_COMM_SELF, 0, 4, 4, 1, 1, 1, &A), PETSC_ERR_ARG_OUTOFRANGE,
               "Grid size 0 x 4 x 4 must be positive on every axis");
  EXPECT_ERROR(MatCreateAcousticLaplacian(PETSC_COMM_SELF, 4, 4, 4, 1, -1, 1, &A), PETSC_ERR_ARG_OUTOFRANGE, "Grid spacing 1., -1., 1. must be positive");
}

/* The spec: second order in time (dt, dt/2, dt/4 against dt/32). */
static void test_leapfrog_order(void **state)
{
  SbpmgTestLeapfrogOrder(ACOUSTIC_BACKEND_HOST);
}

/* count float32 values to a file */
static void write_floats(const char *path, const float *v, size_t count)
{
  FILE *fp = fopen(path, "wb");

  assert_non_null(fp);
  assert_int_equal(fwrite(v, sizeof(float), count, fp), count);
  fclose(fp);
}

/* A set-up with the velocity file path (and the options in force) fails with code and msg. */
static void expect_velocity_file_error(const char *path, PetscErrorCode code, const char *msg)
{
  Acoustic ac;

  PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
  PCALL(AcousticSetFromOptions(ac));
  PCALL(AcousticSetVelocityFile(ac, path));
  EXPECT_ERROR(AcousticSetUp(ac), code, msg);
  PCALL(AcousticDestroy(&ac));
}

/* A velocity file equals the same velocity given as an array; bad files are refused. */
static void test_velocity_file(void **state)
{
  const PetscInt n = 21, N = n * n * n;
  float         *vf;
  PetscReal     *va, *u1, *u2, d, s;
  char           path[64], bad[64];
  Acoustic       ac;

  PCALL(PetscSNPrintf(path, sizeof(path), "ac_vel_%d.bin", (int)getpid()));
  PCALL(PetscSNPrintf(bad, sizeof(bad), "ac_badvel_%d.bin", (int)getpid()));
  PCALL(PetscMalloc4(N, &vf, N, &va, N, &u1, N, &u2));
  for (PetscInt p = 0; p < N; p++) va[p] = vf[p] = (float)(1500 + 10 * (p % 97));
  write_floats(path, vf, N);
  for (int pass = 0; pass < 2; pass++) {
    PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
    SbpmgTestSetOption("-ac_n", "21");
    SbpmgTestSetOption("-ac_ndamp", "3");
    SbpmgTestSetOption("-ac_backend", "host");
    SbpmgTestSetOption("-ac_init", "random");
    if (pass) SbpmgTestSetOption("-ac_vel", path);
    PCALL(AcousticSetFromOptions(ac));
    SbpmgTestSetOption("-ac_vel", NULL);
    if (!pass) PCALL(AcousticSetVelocityArray(ac, va));
    PCALL(AcousticSetUp(ac));
    PCALL(AcousticStep(ac, 5));
    PCALL(AcousticGetField(ac, ACOUSTIC_FIELD_U, pass ? u2 : u1));
    PCALL(AcousticDestroy(&ac));
  }
  SbpmgTestMaxDiff(N, u1, u2, &d, &s);
  assert_true(d == 0 && s > 0);
  /* a negative value */
  vf[5 + n * (4 + n * 3)] = -5;
  write_floats(bad, vf, N);
  expect_velocity_file_error(bad, PETSC_ERR_ARG_OUTOFRANGE, "Velocity -5. at grid point (5, 4, 3) of -ac_vel");
  /* zero and NaN (the first bad point is named) */
  vf[5 + n * (4 + n * 3)]  = 1500;
  vf[2 + n * (7 + n * 9)]  = 0;
  vf[8 + n * (1 + n * 12)] = NAN;
  write_floats(bad, vf, N);
  expect_velocity_file_error(bad, PETSC_ERR_ARG_OUTOFRANGE, "Velocity 0. at grid point (2, 7, 9) of -ac_vel");
  vf[2 + n * (7 + n * 9)] = 1500;
  write_floats(bad, vf, N);
  expect_velocity_file_error(bad, PETSC_ERR_ARG_OUTOFRANGE, "Velocity nan at grid point (8, 1, 12) of -ac_vel");
  /* the wrong size */
  write_floats(bad, vf, 25);
  expect_velocity_file_error(bad, PETSC_ERR_FILE_UNEXPECTED, "has 100 bytes; a 21 x 21 x 21 grid needs 37044 (raw float32, x fastest)");
  /* no such file */
  PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
  SbpmgTestSetOption("-ac_vel", "/nonexistent/v.bin");
  EXPECT_ERROR(AcousticSetFromOptions(ac), PETSC_ERR_FILE_OPEN, "-ac_vel /nonexistent/v.bin is neither a number nor a readable file");
  SbpmgTestSetOption("-ac_vel", NULL);
  PCALL(AcousticDestroy(&ac));
  SbpmgTestSetOption("-ac_n", NULL);
  SbpmgTestSetOption("-ac_ndamp", NULL);
  SbpmgTestSetOption("-ac_backend", NULL);
  SbpmgTestSetOption("-ac_init", NULL);
  assert_int_equal(unlink(path), 0);
  assert_int_equal(unlink(bad), 0);
  PCALL(PetscFree4(vf, va, u1, u2));
}

static void test_bad_input(void **state)
{
  Acoustic  ac;
  PetscReal vel[24 * 24 * 24], x;

  /* bad grid sizes (smaller than 2 ndamp + 9 on an axis, not positive, a wrong count), a PML of 2 points (it damps too hard per
     step at cfl 0.8: the corners grow, about 3 x 3.75 / 2 > 4.828), bad spacings, a cfl above the stability limit or not positive,
     non-positive velocities: the options, whether the error comes at set-up (1) or from the options (0), the code, the text */
  const struct {
    const char    *opts[7];
    int            setup;
    PetscErrorCode code;
    const char    *msg;
  } bad[] = {
      {{"-ac_n", "20,40,40", "-ac_ndamp", "6", NULL},
       1,
       PETSC_ERR_ARG_OUTOFRANGE,
       "Grid 20 x 40 x 40 is too small for -ac_ndamp 6: every axis needs at least 2*ndamp+9 = 21 points (nx = 20)"},
      {{"-ac_n", "30,30,31", "-ac_ndamp", "11", NULL}, 1, PETSC_ERR_ARG_OUTOFRANGE, "needs at least 2*ndamp+9 = 31 points (nx = 30)"},
      {{"-ac_n", "8", "-ac_ndamp", "0", NULL}, 1, PETSC_ERR_ARG_OUTOFRANGE, "needs at least 2*ndamp+9 = 9 points (nx = 8)"},
      {{"-ac_n", "0", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE, "Grid size 0 x 0 x 0 must be positive on every axis"},
      {{"-ac_n", "16", "-ac_ndamp", "2", NULL},
       1,
       PETSC_ERR_ARG_OUTOFRANGE,
       "PML width -ac_ndamp 2 is too thin: the damping at the PML corners, eta dt = 5.63"},
      {{"-ac_ndamp", "-2", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE, "PML width -ac_ndamp -2 must be >= 0"},
      {{"-ac_dx", "0", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE, "Grid spacing 0., 0., 0. (-ac_dx) must be positive"},
      {{"-ac_dx", "10,20", NULL}, 0, PETSC_ERR_ARG_SIZ, "-ac_dx takes 1 value (every axis) or 3 (dx,dy,dz); got 2"},
      {{"-ac_n", "30,30,30,30", NULL}, 0, PETSC_ERR_ARG_SIZ, "-ac_n 30,30,30,30: more than 3 values; it takes 1 value (every axis) or 3 (nx,ny,nz)"},
      {{"-ac_cfl", "1.2", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE, "CFL number 1.2 (-ac_cfl) is above the stability limit 1"},
      {{"-ac_cfl", "-0.5", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE, "CFL number -0.5 (-ac_cfl) must be positive"},
      {{"-ac_cfl", "0", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE, "CFL number 0. (-ac_cfl) must be positive"},
      {{"-ac_cfl", "nan", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE, "CFL number nan (-ac_cfl) must be in (0, 1]"},
      {{"-ac_vel", "-100", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE, "Velocity -100. (-ac_vel) must be positive"},
      {{"-ac_vel", "0", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE, "Velocity 0. (-ac_vel) must be positive"},
      {{"-ac_vel", "nan", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE, "Velocity nan (-ac_vel) must be positive and finite"},
      {{"-ac_vel", "inf", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE, "Velocity inf (-ac_vel) must be positive and finite"},
      {{"-ac_vmax", "-1", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE, "Maximum velocity -1. (-ac_vmax) must be >= 0"},
  };

  for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) AcTestExpectOptionError(bad[b].opts, bad[b].setup, bad[b].code, bad[b].msg);
  PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
  PCALL(AcousticSetSizes(ac, 24, 24, 24));
  for (PetscInt p = 0; p < 24 * 24 * 24; p++) vel[p] = 1800;
  vel[3 + 24 * (2 + 24 * 1)] = 0;
  EXPECT_ERROR(AcousticSetVelocityArray(ac, vel), PETSC_ERR_ARG_OUTOFRANGE, "Velocity 0. at grid point (3, 2, 1) must be positive");
  vel[3 + 24 * (2 + 24 * 1)]    = 1800;
  vel[23 + 24 * (22 + 24 * 21)] = NAN;
  EXPECT_ERROR(AcousticSetVelocityArray(ac, vel), PETSC_ERR_ARG_OUTOFRANGE, "Velocity nan at grid point (23, 22, 21) must be positive and finite");
  EXPECT_ERROR(AcousticSetVelocity(ac, -3), PETSC_ERR_ARG_OUTOFRANGE, "Velocity -3. (-ac_vel) must be positive");
  PCALL(AcousticDestroy(&ac));
  /* a source outside the grid */
  AcTestExpectOptionError((const char *const[]){"-ac_n", "24", "-ac_ndamp", "4", "-ac_source", "30,5,5", NULL}, 1, PETSC_ERR_ARG_OUTOFRANGE,
                          "Source (30, 5, 5) (-ac_source) is outside the 24 x 24 x 24 grid");
  AcTestExpectOptionError((const char *const[]){"-ac_n", "24", "-ac_ndamp", "4", "-ac_source", "5,5,24", NULL}, 1, PETSC_ERR_ARG_OUTOFRANGE,
                          "Source (5, 5, 24) (-ac_source) is outside the 24 x 24 x 24 grid");
  AcTestExpectOptionError((const char *const[]){"-ac_source", "-1,0,0", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE,
                          "Source (-1, 0, 0) (-ac_source) is outside the grid");
  AcTestExpectOptionError((const char *const[]){"-ac_source", "1,2", NULL}, 0, PETSC_ERR_ARG_SIZ, "-ac_source needs 3 values x,y,z; got 2");
  /* unknown choices */
  AcTestExpectOptionError((const char *const[]){"-ac_init", "bogus", NULL}, 0, PETSC_ERR_USER,
                          "Unknown option bogus for -ac_init. Available options: zero random");
  AcTestExpectOptionError((const char *const[]){"-ac_backend", "gpu", NULL}, 0, PETSC_ERR_USER,
                          "Unknown option gpu for -ac_backend. Available options: device host");
  AcTestExpectOptionError((const char *const[]){"-ac_fmax", "0", NULL}, 0, PETSC_ERR_ARG_OUTOFRANGE, "Source frequency -ac_fmax 0. must be positive");
  /* calls in the wrong order */
  PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
  EXPECT_ERROR(AcousticStep(ac, 1), PETSC_ERR_ARG_WRONGSTATE, "Call AcousticSetUp() first");
  EXPECT_ERROR(AcousticGetValue(ac, 0, 0, 0, &x), PETSC_ERR_ARG_WRONGSTATE, "Call AcousticSetUp() first");
  PCALL(AcousticSetSizes(ac, 24, 24, 24));
  PCALL(AcousticSetDamping(ac, 4));
  PCALL(AcousticSetBackend(ac, ACOUSTIC_BACKEND_HOST));
  PCALL(AcousticSetUp(ac));
  EXPECT_ERROR(AcousticSetSizes(ac, 30, 30, 30), PETSC_ERR_ARG_WRONGSTATE, "AcousticSetSizes() must be called before AcousticSetUp()");
  EXPECT_ERROR(AcousticSetCFL(ac, 0.5), PETSC_ERR_ARG_WRONGSTATE, "AcousticSetCFL() must be called before AcousticSetUp()");
  EXPECT_ERROR(AcousticStep(ac, -1), PETSC_ERR_ARG_OUTOFRANGE, "Number of steps -1 must be >= 0");
  EXPECT_ERROR(AcousticGetValue(ac, 24, 0, 0, &x), PETSC_ERR_ARG_OUTOFRANGE, "Point (24, 0, 0) is outside the grid");
  PCALL(AcousticDestroy(&ac));
}

/* dt follows the spec: 1.6102e-3 s for h = 20 m, vmax = 4500 m/s, cfl 0.8. W from the spec's formula is
   (3 * 205/72 + 6 * (8/5 + 1/5 + 8/315 + 1/560)) / 400 = 0.0487619 m^-2 (the spec quotes 0.048756, 1.2e-4 lower). */
static void test_time_step(void **state)
{
  Acoustic  ac;
  PetscReal dt;

  PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
  PCALL(AcousticSetSizes(ac, 64, 64, 64));
  PCALL(AcousticSetBackend(ac, ACOUSTIC_BACKEND_HOST));
  PCALL(AcousticSetDamping(ac, 10));
  PCALL(AcousticSetUp(ac));
  PCALL(AcousticGetTimeStep(ac, &dt));
  print_message("  dt %.6e s, W %.6e m^-2\n", (double)dt, (double)ac->W);
  assert_true(PetscAbsReal(dt - 1.6102e-3) < 1e-7);
  assert_true(PetscAbsReal(ac->W - (3 * 205.0 / 72 + 6 * (8.0 / 5 + 1.0 / 5 + 8.0 / 315 + 1.0 / 560)) / 400) < 1e-15);
  assert_true(PetscAbsReal(ac->W - 0.048756) < 2e-4 * 0.048756);
  PCALL(AcousticView(ac, PETSC_VIEWER_STDOUT_SELF));
  PCALL(AcousticDestroy(&ac));
}

/* Non-finite values are refused or found: a NaN amplitude, a spacing fp32 cannot hold; a NaN in the field shows in the norms
   (not dropped) and stops the stepper at its next check, naming the step; on both backends. */
static void test_nonfinite(void **state)
{
  const PetscInt n = 16, N = n * n * n;
  Acoustic       ac;
  PetscReal     *u, *up, m, e;

  PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
  EXPECT_ERROR(AcousticSetSourceWavelet(ac, 25, (PetscReal)NAN), PETSC_ERR_ARG_OUTOFRANGE, "Source amplitude -ac_amplitude nan. must be finite");
  PCALL(AcousticSetSizes(ac, n, n, n));
  PCALL(AcousticSetDamping(ac, 3));
  PCALL(AcousticSetSpacing(ac, 1e-25, 1e-25, 1e-25));
  EXPECT_ERROR(AcousticSetUp(ac), PETSC_ERR_ARG_OUTOFRANGE, "Grid spacing 1e-25 (-ac_dx, axis x) is outside what the fp32 kernels hold");
  PCALL(AcousticDestroy(&ac));
  PCALL(PetscCalloc2(N, &u, N, &up));
  u[3 + n * (5 + n * 7)] = (PetscReal)NAN;
  for (int b = 0; b < 2; b++) {
    PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
    PCALL(AcousticSetSizes(ac, n, n, n));
    PCALL(AcousticSetDamping(ac, 3));
    PCALL(AcousticSetBackend(ac, b ? ACOUSTIC_BACKEND_DEVICE : ACOUSTIC_BACKEND_HOST));
    PCALL(AcousticSetCheckInterval(ac, 3));
    PCALL(AcousticSetUp(ac));
    PCALL(AcousticSetFields(ac, u, up));
    PCALL(AcousticGetNorms(ac, &m, &e));
    print_message("  %s: max|u| = %g, sum u^2 = %g\n", b ? "device" : "host", (double)m, (double)e);
    assert_true(PetscIsNanReal(m) && PetscIsNanReal(e));
    EXPECT_ERROR(AcousticStep(ac, 7), PETSC_ERR_FP, "The wave field is not finite at step 3");
    PCALL(AcousticDestroy(&ac));
  }
  PCALL(PetscFree2(u, up));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_laplacian_order), cmocka_unit_test(test_laplacian_shell), cmocka_unit_test(test_leapfrog_order), cmocka_unit_test(test_velocity_file),
    cmocka_unit_test(test_bad_input),       cmocka_unit_test(test_nonfinite),       cmocka_unit_test(test_time_step),
};

SBPMG_TEST_MAIN(help, tests)
