/* The SEAS BP1-QD driver (src/seas): the station-file writer against the format (parsed back), a short coarse run checked against
   what does not depend on tuning (at t = 0 V = Vinit and tau = tau0 everywhere, slip 0, theta of the initial state; creep at about
   Vp near and below Wf), one PC set-up for the whole run, bad input. */
#include "harness.h"
#include <sbpmg/private/seasimpl.h>
#include <math.h>

static const char help[] = "The BP1-QD driver: the station files, a short coarse run, bad input.\n";

#define OUTDIR "seas_bp1_test_out"

/* A file's header lines ('#'), then the names line, then rows of ncol numbers with increasing t; the first row in first[], the last
   in last[], the row count in *rows. */
static void ParseColumns(const char *path, const char *names, int ncol, double *first, double *last, int *rows)
{
  FILE  *f = fopen(path, "r");
  char   line[8192];
  int    state = 0; /* 0 header, 1 rows */
  double tprev = -1e300;

  assert_non_null(f);
  *rows = 0;
  while (fgets(line, sizeof(line), f)) {
    if (state == 0) {
      if (line[0] == '#') continue;
      if (names) {
        line[strcspn(line, "\n")] = 0;
        assert_string_equal(line, names);
        state = 1;
        continue;
      }
      state = 1;
    }
    {
      double v[128];
      int    n = 0, off = 0, used;
      while (n < ncol && sscanf(line + off, "%lf%n", &v[n], &used) == 1) {
        off += used;
        n++;
      }
      assert_int_equal(n, ncol);
      assert_true(v[0] >= tprev); /* time goes on */
      tprev = v[0];
      if (*rows == 0)
        for (int c = 0; c < ncol; c++) first[c] = v[c];
      for (int c = 0; c < ncol; c++) last[c] = v[c];
      (*rows)++;
    }
  }
  fclose(f);
}

/* The writer: a header and rows into a file, read back: '#' lines, the names line, the values exactly (17 significant digits). */
static void test_station_format(void **state)
{
  const char  *path = OUTDIR "_format";
  FILE        *f    = fopen(path, "w");
  long         off;
  double       first[5], last[5];
  int          rows;
  const double row1[5] = {0, 0, -9, 26.546122365133364, 3.9030899869919375}, row2[5] = {3.15e9, 1.234567890123456789, 0.5, -1.0 / 3, 12.25};

  assert_non_null(f);
  PCALL(SeasStationHeader(f, 7500, 25, "2026/12/05", &off));
  assert_true(off > 0);
  PCALL(SeasStationRow(f, row1[0], row1[1], row1[2], row1[3], row1[4]));
  PCALL(SeasStationRow(f, row2[0], row2[1], row2[2], row2[3], row2[4]));
  fclose(f);
  ParseColumns(path, "t slip slip_rate shear_stress state", 5, first, last, &rows);
  assert_int_equal(rows, 2);
  for (int c = 0; c < 5; c++) {
    assert_true(first[c] == row1[c]);
    assert_true(last[c] == row2[c]);
  }
  {
    char  line[256];
    int   loc = 0;
    FILE *g   = fopen(path, "r");
    while (fgets(line, sizeof(line), g))
      if (strstr(line, "# location=on fault, 7.5 km depth")) loc = 1;
    fclose(g);
    assert_true(loc);
  }
  remove(path);
}

/* A coarse run of a few years. */
static void test_short_run(void **state)
{
  const SbpmgTestOption opts[] = {{"-seas_n", "32"}, {"-seas_domain", "60e3"}, {"-seas_fault_dz", "400"},
                                  {"-seas_tf", "5"}, {"-seas_output", OUTDIR}, {NULL, NULL}};
  Seas                  s;
  double                first[5], last[5], dfirst[128], dlast[128];
  int                   rows;
  PetscReal             tau0, psi0, lth0, vp = 1e-9, tf = 5 * SEAS_YEAR;
  PetscInt              setups;
  PC                    pc;

  SbpmgTestSetOptions(opts);
  PCALL(SeasCreate(PETSC_COMM_WORLD, &s));
  PCALL(SeasSetFromOptions(s));
  PCALL(SeasSolve(s));
  PCALL(SeasSummary(s, NULL));
  assert_true(s->steps > 0 && s->solves >= s->stages && s->stages > 0);
  assert_int_equal(s->nevents, 0);
  /* the same KSP and PC throughout: the PC set up once (its operator never changes) */
  PCALL(KSPGetPC(s->ksp, &pc));
  setups = pc->setupcalled;
  assert_true(setups == 1);
  { /* the default step controller: PETSc's PI controller (docs/seas.md "The step controller") */
    TSAdapt   adapt;
    PetscBool dsp;

    PCALL(TSGetAdapt(s->ts, &adapt));
    PCALL(PetscObjectTypeCompare((PetscObject)adapt, TSADAPTDSP, &dsp));
    assert_true(dsp);
  }
  tau0 = s->tau0;
  /* every station at t = 0: slip 0, V = Vinit, tau = tau0; theta of the initial state where a is uniform (above H, below H + h) */
  for (int q = 0; q < SEAS_NSTATIONS; q++) {
    char            path[256];
    const PetscReal z = SeasStationDepths[q];

    PCALL(PetscSNPrintf(path, sizeof(path), OUTDIR "/fltst_dp%03d", (int)(z / 100 + 0.5)));
    ParseColumns(path, "t slip slip_rate shear_stress state", 5, first, last, &rows);
    assert_true(rows >= 3);
    assert_true(first[0] == 0 && first[1] == 0);
    assert_true(PetscAbsReal(first[2] + 9) < 1e-10);
    assert_true(PetscAbsReal(first[3] - tau0 / 1e6) < 1e-10 * tau0 / 1e6);
    assert_true(PetscAbsReal(last[0] - tf) < 1e-6 * tf);
    if (z < s->H || z > s->H + s->h) {
      const PetscReal a = z < s->H ? s->a0 : s->amax;
      psi0              = a * PetscLogReal(2 * s->fr.V0 / s->Vinit * PetscSinhReal((tau0 - s->fr.eta * s->Vinit) / (a * s->fr.sigma_n)));
      lth0              = PetscLog10Real(s->fr.Dc / s->fr.V0) + (psi0 - s->fr.f0) / (s->fr.b * PetscLogReal(10.0));
      assert_true(PetscAbsReal(first[4] - lth0) < 1e-10 * PetscAbsReal(lth0));
    }
    if (z >= 30e3) { /* velocity strengthening near Wf: creep at about Vp */
      assert_true(PetscAbsReal(last[2] + 9) < 0.1);
      assert_true(PetscAbsReal(last[1] - vp * tf) < 0.2 * vp * tf);
    }
  }
  /* devol.dat: the depths every 500 m to 40 km, at t = 0 max V = Vinit and no slip; at the end slip Vp t at Wf */
  {
    FILE  *f = fopen(OUTDIR "/devol.dat", "r");
    char   line[8192];
    int    n = 0, off = 0, used;
    double v;

    assert_non_null(f);
    while (fgets(line, sizeof(line), f) && line[0] == '#') continue;
    while (sscanf(line + off, "%lf%n", &v, &used) == 1) {
      if (n >= 2) assert_true(v == (n - 2) * 500.0);
      off += used;
      n++;
    }
    fclose(f);
    assert_int_equal(n, 2 + 81);
    ParseColumns(OUTDIR "/devol.dat", NULL, 83, dfirst, dlast, &rows);
    assert_true(rows >= 3);
    assert_true(dfirst[0] == 0 && dfirst[1] == 0); /* the depths row */
    ParseColumns(OUTDIR "/devol.dat", NULL, 83, dfirst, dlast, &rows);
  }
  {
    /* the first data row (second line after the header) */
    FILE  *f = fopen(OUTDIR "/devol.dat", "r");
    char   line[8192];
    double t, lv, sl;
    int    k = 0;
    while (fgets(line, sizeof(line), f))
      if (line[0] != '#' && k++ == 1) break;
    fclose(f);
    assert_int_equal(sscanf(line, "%lf %lf %lf", &t, &lv, &sl), 3);
    assert_true(t == 0 && PetscAbsReal(lv + 9) < 1e-10 && sl == 0);
    assert_true(PetscAbsReal(dlast[82] - vp * tf) < 0.05 * vp * tf); /* slip at Wf = 40 km */
  }
  { /* the pictures' data and script: one profile (81 depths) per devol.dat row, the script names both pictures */
    FILE *f = fopen(OUTDIR "/slip_profiles.dat", "r"), *g = fopen(OUTDIR "/bp1.gp", "r");
    char  line[512];
    int   n = 0, png = 0;
    assert_non_null(f);
    assert_non_null(g);
    while (fgets(line, sizeof(line), f))
      if (line[0] != '#' && line[0] != '\n') n++;
    while (fgets(line, sizeof(line), g))
      if (strstr(line, "slip_profiles.png") || strstr(line, "max_slip_rate.png")) png++;
    fclose(f);
    fclose(g);
    assert_int_equal(n, 81 * (rows - 1)); /* rows: devol.dat's rows, the depths row included */
    assert_int_equal(png, 2);
  }
  PCALL(SeasDestroy(&s));
  SbpmgTestClearOptions(opts);
}

/* One run of the restart test: the options common to all, then the extra ones; the final state copied into *X. */
static void RestartRun(const char *outdir, const SbpmgTestOption *extra, Vec *X, PetscInt counts[3])
{
  const SbpmgTestOption opts[] = {{"-seas_n", "32"}, {"-seas_domain", "60e3"}, {"-seas_fault_dz", "400"},
                                  {"-seas_tf", "5"}, {"-seas_output", outdir}, {NULL, NULL}};
  Seas                  s;

  SbpmgTestSetOptions(opts);
  SbpmgTestSetOptions(extra);
  PCALL(SeasCreate(PETSC_COMM_WORLD, &s));
  PCALL(SeasSetFromOptions(s));
  PCALL(SeasSolve(s));
  PCALL(VecDuplicate(s->X, X));
  PCALL(VecCopy(s->X, *X));
  counts[0] = s->steps;
  counts[1] = s->solves;
  counts[2] = s->cg_its;
  PCALL(SeasDestroy(&s));
  SbpmgTestClearOptions(extra);
  SbpmgTestClearOptions(opts);
}

/* The files of two runs, line by line, the header's date apart. */
static void SameFile(const char *a, const char *b)
{
  FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
  char  la[8192], lb[8192];
  int   n = 0;

  assert_non_null(fa);
  assert_non_null(fb);
  while (fgets(la, sizeof(la), fa)) {
    assert_non_null(fgets(lb, sizeof(lb), fb));
    if (strncmp(la, "# date=", 7)) assert_string_equal(la, lb);
    n++;
  }
  assert_null(fgets(lb, sizeof(lb), fb));
  fclose(fa);
  fclose(fb);
  assert_true(n > 10);
}

/* The guess's stored factor: L L^T = X^T A X by the operator applied afresh, with a unit diagonal. */
static void AssertGramFactor(Seas s)
{
  Vec w;

  PCALL(VecDuplicate(s->u, &w));
  for (PetscInt j = 0; j < s->guess_n; j++) {
    PCALL(MatMult(s->A, s->guess_X[j], w));
    for (PetscInt i = j; i < s->guess_n; i++) {
      PetscScalar xax, llt = 0;
      PCALL(VecDot(s->guess_X[i], w, &xax));
      for (PetscInt k = 0; k <= j; k++) llt += s->guess_L[i * s->guess_m + k] * s->guess_L[j * s->guess_m + k];
      assert_true(PetscAbsScalar(xax - llt) < 1e-10);
      if (i == j) assert_true(PetscAbsScalar(xax - 1) < 1e-10);
    }
  }
  PCALL(VecDestroy(&w));
}

/* Checkpoint and restart: a run stopped after 15 steps and continued from its checkpoint, writing checkpoints at the same steps,
   ends in the state of an uninterrupted one, bit for bit, with the same counts and the same files (each checkpoint restarts the
   step and the step controller's history, docs/seas.md "Checkpoint and restart"). */
static void test_restart(void **state)
{
  const SbpmgTestOption whole[]  = {{"-seas_checkpoint", OUTDIR "_a.ckpt"}, {"-seas_checkpoint_interval", "15"}, {NULL, NULL}};
  const SbpmgTestOption first[]  = {{"-seas_checkpoint", OUTDIR "_b.ckpt"}, {"-seas_checkpoint_interval", "15"}, {"-ts_max_steps", "15"}, {NULL, NULL}};
  const SbpmgTestOption second[] = {
      {"-seas_restart", OUTDIR "_b.ckpt"}, {"-seas_checkpoint", OUTDIR "_c.ckpt"}, {"-seas_checkpoint_interval", "15"}, {NULL, NULL}};
  Vec       Xa, Xb1, Xb;
  PetscInt  ca[3], cb1[3], cb[3];
  PetscBool same;

  RestartRun(OUTDIR "_a", whole, &Xa, ca);
  RestartRun(OUTDIR "_b", first, &Xb1, cb1);
  assert_int_equal(cb1[0], 15);
  RestartRun(OUTDIR "_b", second, &Xb, cb);
  PCALL(VecEqual(Xa, Xb, &same));
  assert_true(same);
  PCALL(VecEqual(Xa, Xb1, &same));
  assert_false(same);
  for (int k = 0; k < 3; k++) assert_int_equal(ca[k], cb[k]);
  for (int q = 0; q < SEAS_NSTATIONS; q++) {
    char a[256], b[256];
    PCALL(PetscSNPrintf(a, sizeof(a), OUTDIR "_a/fltst_dp%03d", (int)(SeasStationDepths[q] / 100 + 0.5)));
    PCALL(PetscSNPrintf(b, sizeof(b), OUTDIR "_b/fltst_dp%03d", (int)(SeasStationDepths[q] / 100 + 0.5)));
    SameFile(a, b);
  }
  SameFile(OUTDIR "_a/devol.dat", OUTDIR "_b/devol.dat");
  SameFile(OUTDIR "_a/slip_profiles.dat", OUTDIR "_b/slip_profiles.dat");
  SbpmgTestDestroyVecs(&Xa, &Xb1, &Xb, NULL);
  /* a checkpoint's basis loaded into a smaller one keeps its newest vectors, with their Gram matrix factored again */
  {
    Seas     s;
    PetscInt nfile;

    SbpmgTestSetOption("-seas_n", "32");
    SbpmgTestSetOption("-seas_domain", "60e3");
    SbpmgTestSetOption("-seas_fault_dz", "400");
    SbpmgTestSetOption("-seas_output", "none");
    SbpmgTestSetOption("-seas_restart", OUTDIR "_b.ckpt");
    for (int q = 0; q < 2; q++) {
      SbpmgTestSetOption("-seas_guess_basis", q ? "3" : NULL);
      PCALL(SeasCreate(PETSC_COMM_WORLD, &s));
      PCALL(SeasSetFromOptions(s));
      PCALL(SeasSetUp(s));
      PCALL(SeasCheckpointLoad(s));
      if (!q)
        nfile = s->guess_n;
      else
        assert_int_equal(s->guess_n, PetscMin(nfile, 3));
      AssertGramFactor(s);
      PCALL(SeasDestroy(&s));
    }
    assert_true(nfile > 3);
    /* a file whose factor's last diagonal entry (the file's last number) is negative */
    {
      FILE               *in = fopen(OUTDIR "_b.ckpt", "rb"), *out = fopen(OUTDIR "_bad.ckpt", "wb");
      char                buf[65536];
      size_t              k;
      const unsigned char minus_one[8] = {0xbf, 0xf0, 0, 0, 0, 0, 0, 0}; /* -1.0, big-endian as PETSc's binary files */

      assert_non_null(in);
      assert_non_null(out);
      while ((k = fread(buf, 1, sizeof(buf), in)) > 0) assert_int_equal(fwrite(buf, 1, k, out), k);
      fclose(in);
      assert_int_equal(fseek(out, -8, SEEK_END), 0);
      assert_int_equal(fwrite(minus_one, 1, 8, out), 8);
      fclose(out);
      SbpmgTestSetOption("-seas_restart", OUTDIR "_bad.ckpt");
      PCALL(SeasCreate(PETSC_COMM_WORLD, &s));
      PCALL(SeasSetFromOptions(s));
      PCALL(SeasSetUp(s));
      EXPECT_ERROR(
          SeasCheckpointLoad(s), PETSC_ERR_FILE_UNEXPECTED,
          "The checkpoint -seas_restart seas_bp1_test_out_bad.ckpt holds an initial-guess basis whose Gram factor is not that of a positive definite matrix");
      PCALL(SeasDestroy(&s));
    }
    SbpmgTestSetOption("-seas_guess_basis", NULL);
    SbpmgTestSetOption("-seas_output", NULL);
    SbpmgTestSetOption("-seas_fault_dz", NULL);
    SbpmgTestSetOption("-seas_domain", NULL);
    SbpmgTestSetOption("-seas_restart", NULL);
  }
  /* a checkpoint that is not there */
  {
    Seas s;
    SbpmgTestSetOption("-seas_n", "16");
    SbpmgTestSetOption("-seas_restart", OUTDIR "_none.ckpt");
    PCALL(SeasCreate(PETSC_COMM_WORLD, &s));
    PCALL(SeasSetFromOptions(s));
    EXPECT_ERROR(SeasSolve(s), PETSC_ERR_FILE_OPEN, "Cannot read the checkpoint -seas_restart seas_bp1_test_out_none.ckpt");
    PCALL(SeasDestroy(&s));
    SbpmgTestSetOption("-seas_restart", OUTDIR "_b.ckpt"); /* of a 32 x 32 grid */
    PCALL(SeasCreate(PETSC_COMM_WORLD, &s));
    PCALL(SeasSetFromOptions(s));
    EXPECT_ERROR(SeasSolve(s), PETSC_ERR_ARG_INCOMP, "The checkpoint -seas_restart seas_bp1_test_out_b.ckpt is of a 32 x 32 grid");
    PCALL(SeasDestroy(&s));
    SbpmgTestSetOption("-seas_n", "32"); /* the checkpoint's grid, another order */
    SbpmgTestSetOption("-sbp_order", "4");
    PCALL(SeasCreate(PETSC_COMM_WORLD, &s));
    PCALL(SeasSetFromOptions(s));
    EXPECT_ERROR(SeasSolve(s), PETSC_ERR_ARG_INCOMP, "The checkpoint -seas_restart seas_bp1_test_out_b.ckpt is of -sbp_order 2, this run has -sbp_order 4");
    PCALL(SeasDestroy(&s));
    SbpmgTestSetOption("-sbp_order", NULL);
    SbpmgTestSetOption("-seas_restart", NULL);
    SbpmgTestSetOption("-seas_n", NULL);
  }
}

/* The projection initial guess (docs/seas.md "The initial guess"): against the last solution alone (-seas_guess_basis 0), the same
   final state to the solves' tolerance in fewer CG iterations; its Gram matrix X^T A X (by the operator applied afresh) the stored
   factor's L L^T, and the projection of A u onto it u itself (the last solution is in the span). */
static void test_guess(void **state)
{
  const SbpmgTestOption opts[] = {{"-seas_n", "32"}, {"-seas_domain", "60e3"}, {"-seas_fault_dz", "400"},
                                  {"-seas_tf", "5"}, {"-seas_output", "none"}, {NULL, NULL}};
  Seas                  s;
  Vec                   X0, w, g;
  PetscInt              its0, solves0;
  PetscReal             dx, nx, err, nu;

  SbpmgTestSetOptions(opts);
  SbpmgTestSetOption("-seas_guess_basis", "0");
  PCALL(SeasCreate(PETSC_COMM_WORLD, &s));
  PCALL(SeasSetFromOptions(s));
  PCALL(SeasSolve(s));
  assert_true(s->guess_n == 0 && s->guess_X == NULL);
  PCALL(VecDuplicate(s->X, &X0));
  PCALL(VecCopy(s->X, X0));
  its0    = s->cg_its;
  solves0 = s->solves;
  PCALL(SeasDestroy(&s));
  SbpmgTestSetOption("-seas_guess_basis", "6");
  PCALL(SeasCreate(PETSC_COMM_WORLD, &s));
  PCALL(SeasSetFromOptions(s));
  PCALL(SeasSolve(s));
  /* fewer than half the iterations per solve (measured: 0.75 against 6.7 with a basis of 20) */
  assert_true(2 * s->cg_its * solves0 < its0 * s->solves);
  PCALL(VecNorm(X0, NORM_2, &nx));
  PCALL(VecAXPY(X0, -1, s->X));
  PCALL(VecNorm(X0, NORM_2, &dx));
  assert_true(dx <= 1e-6 * nx);
  assert_true(s->guess_n >= 1 && s->guess_n <= 6);
  PCALL(VecDuplicate(s->u, &w));
  PCALL(VecDuplicate(s->u, &g));
  AssertGramFactor(s);
  PCALL(MatMult(s->A, s->u, w));
  PCALL(SeasGuessForm(s, w, g));
  PCALL(VecAXPY(g, -1, s->u));
  PCALL(VecNorm(g, NORM_2, &err));
  PCALL(VecNorm(s->u, NORM_2, &nu));
  assert_true(err <= 1e-8 * nu);
  SbpmgTestDestroyVecs(&X0, &w, &g, NULL);
  PCALL(SeasDestroy(&s));
  SbpmgTestSetOption("-seas_guess_basis", NULL);
  SbpmgTestClearOptions(opts);
}

/* The states a stage may take (SeasStateAcceptable, the TS's domain check): the initial state; psi up to q = exp(psi / a) / (2 V0) =
   e^700 and down to exp((f0 - psi) / b) = e^200, each just inside and just beyond; a non-finite psi or slip. Beyond those bounds the
   friction solve has no root or the rates overflow the step's error norm (a 200 m BP1 run stopped with a floating-point error at 1254
   years before the second bound). The friction solve (the host reference) converges at the accepted extremes of psi: a bound on
   exp(psi / a) alone let states through whose q overflows. */
static void test_stage_states(void **state)
{
  const SbpmgTestOption opts[] = {{"-seas_n", "32"}, {"-seas_domain", "60e3"}, {"-seas_fault_dz", "400"}, {"-seas_output", "none"}, {NULL, NULL}};
  Seas                  s;
  Vec                   Y;
  PetscBool             ok;
  PetscReal             f0, b, a, logq;
  const PetscInt        k = 3; /* the node changed */
  struct {
    int       which; /* 0 psi, 1 slip */
    PetscReal value; /* set below from the bounds */
    PetscBool accept;
  } cases[7];

  SbpmgTestSetOptions(opts);
  PCALL(SeasCreate(PETSC_COMM_WORLD, &s));
  PCALL(SeasSetFromOptions(s));
  PCALL(SeasSetUp(s));
  f0             = s->fr.f0;
  b              = s->fr.b;
  a              = s->ahost[k];
  logq           = 700 + PetscLogReal(2 * s->fr.V0); /* psi / a at q = e^700 */
  cases[0].which = 0, cases[0].value = logq * a * (1 - 1e-9), cases[0].accept = PETSC_TRUE;
  cases[1].which = 0, cases[1].value = logq * a * (1 + 1e-9), cases[1].accept = PETSC_FALSE;
  cases[2].which = 0, cases[2].value = f0 - 200 * b * (1 - 1e-9), cases[2].accept = PETSC_TRUE;
  cases[3].which = 0, cases[3].value = f0 - 200 * b * (1 + 1e-9), cases[3].accept = PETSC_FALSE;
  cases[4].which = 0, cases[4].value = (PetscReal)NAN, cases[4].accept = PETSC_FALSE;
  cases[5].which = 1, cases[5].value = (PetscReal)INFINITY, cases[5].accept = PETSC_FALSE;
  cases[6].which = 1, cases[6].value = 12.5, cases[6].accept = PETSC_TRUE;
  PCALL(VecDuplicate(s->X, &Y));
  PCALL(VecCopy(s->X, Y));
  PCALL(SeasStateAcceptable(s, Y, &ok));
  assert_true(ok); /* the initial state */
  for (int c = 0; c < 7; c++) {
    PetscScalar *ya;
    PCALL(VecCopy(s->X, Y));
    PCALL(VecGetArray(Y, &ya));
    ya[cases[c].which * s->nf + k] = cases[c].value;
    PCALL(VecRestoreArray(Y, &ya));
    PCALL(SeasStateAcceptable(s, Y, &ok));
    print_message("  %s = %g at node %d: %s\n", cases[c].which ? "slip" : "psi", (double)cases[c].value, (int)k, ok ? "accepted" : "refused");
    if (ok != cases[c].accept)
      fail_msg("case %d: %s = %g %s, expected the other", c, cases[c].which ? "slip" : "psi", (double)cases[c].value, ok ? "accepted" : "refused");
    if (ok && cases[c].which == 0) { /* the law has its root there, for the initial stress of either sign and for one near the strength */
      const PetscReal taus[3] = {s->tau0, 0.9 * a * s->fr.sigma_n * logq, -s->tau0};
      for (int t = 0; t < 3; t++) {
        PetscReal V = s->Vinit, rate[2];
        PCALL(SeasFrictionRatesHost(&s->fr, 1, PETSC_FALSE, &taus[t], &a, &cases[c].value, &V, rate));
        assert_true(PetscIsNormalReal(V) || V == 0);
      }
    }
  }
  PCALL(VecDestroy(&Y));
  PCALL(SeasDestroy(&s));
  SbpmgTestClearOptions(opts);
}

/* A stage's traffic with the device (docs/seas.md "How a stage is computed"): the TS's state and rates are host vectors, and an
   evaluation moves the state up once and the rates down once; after a step the output reads V and tau. Counted in the Green's function
   mode, where an evaluation has no volume solve (whose reductions read scalars, and whose host coarse solve on a CPU reads a vector).
   With the TS's vectors on the device its error norms and stage checks would read whole vectors. */
static void test_stage_transfers(void **state)
{
  const SbpmgTestOption opts[] = {
      {"-seas_n", "32"}, {"-seas_domain", "60e3"}, {"-seas_fault_dz", "400"}, {"-seas_tf", "2"}, {"-seas_output", "none"}, {"-seas_green", "1"}, {NULL, NULL}};
  Seas           s;
  PetscBool      isseq;
  PetscLogDouble h0, d0, h1, d1;
  PetscInt       evals, steps;

  SbpmgTestSetOptions(opts);
  PCALL(SeasCreate(PETSC_COMM_WORLD, &s));
  PCALL(SeasSetFromOptions(s));
  PCALL(SeasSetUp(s));
  PCALL(PetscObjectTypeCompare((PetscObject)s->X, VECSEQ, &isseq));
  if (!isseq || !s->p->use_device) {
    PCALL(SeasDestroy(&s));
    SbpmgTestClearOptions(opts);
    if (!isseq) fail_msg("the TS's state is not a host vector (VECSEQ)");
    print_message("  host backend: no device transfers to count\n");
    return;
  }
  PCALL(VecOpenCLGetSyncCounts(&h0, &d0));
  PCALL(SeasSolve(s));
  PCALL(VecOpenCLGetSyncCounts(&h1, &d1));
  evals = s->stages + s->extra;
  steps = s->steps;
  PCALL(SeasDestroy(&s));
  SbpmgTestClearOptions(opts);
  print_message("  %d evaluations (%d steps): %g vector uploads, %g vector downloads\n", (int)evals, (int)steps, h1 - h0, d1 - d0);
  assert_true(evals > 10);
  if (d1 - d0 != evals + 2 * (steps + 1))
    fail_msg("%g vector downloads for %d evaluations and %d steps: one an evaluation (the rates), two a step and two at the end (V, tau) expected", d1 - d0,
             (int)evals, (int)steps);
  if (h1 - h0 < evals || h1 - h0 > evals + 1)
    fail_msg("%g vector uploads for %d evaluations: one each (the state), and the slip rate's first guess once, expected", h1 - h0, (int)evals);
}

/* Bad options: errors naming the value, before any stepping. */
static void test_bad_input(void **state)
{
  const struct {
    const char    *name, *value, *msg;
    PetscErrorCode code;
  } cases[] = {
      {"-seas_wf", "200e3", "-seas_wf 200000. must be > 0 and within the domain's depth Lz = 100000.", PETSC_ERR_ARG_OUTOFRANGE},
      {"-seas_sigma_n", "-5e6", "Friction parameter sigma_n = -5e+06 must be finite and > 0", PETSC_ERR_ARG_OUTOFRANGE},
      {"-seas_dc", "0", "Friction parameter Dc = 0. must be finite and > 0", PETSC_ERR_ARG_OUTOFRANGE},
      {"-seas_a0", "-0.01", "-seas_a0 -0.01 must be finite and > 0", PETSC_ERR_ARG_OUTOFRANGE},
      {"-seas_output", "/proc/sbpmg-no/such", "Cannot make the output folder -seas_output /proc/sbpmg-no/such", PETSC_ERR_FILE_OPEN},
      {"-seas_fault_dz", "8000", "-seas_fault_dz 8000. with 16 intervals in x: the uniform grid (6250. m cells) is already that fine",
       PETSC_ERR_ARG_OUTOFRANGE},
  };

  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    Seas s;
    SbpmgTestSetOption("-seas_n", "16");
    SbpmgTestSetOption(cases[c].name, cases[c].value);
    PCALL(SeasCreate(PETSC_COMM_WORLD, &s));
    PCALL(SeasSetFromOptions(s));
    EXPECT_ERROR(SeasSolve(s), cases[c].code, cases[c].msg);
    PCALL(SeasDestroy(&s));
    SbpmgTestSetOption(cases[c].name, NULL);
    SbpmgTestSetOption("-seas_n", NULL);
  }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_station_format), cmocka_unit_test(test_short_run),       cmocka_unit_test(test_restart),   cmocka_unit_test(test_guess),
    cmocka_unit_test(test_stage_states),   cmocka_unit_test(test_stage_transfers), cmocka_unit_test(test_bad_input),
};

SBPMG_TEST_MAIN(help, tests)
