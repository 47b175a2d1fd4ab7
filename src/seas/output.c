/* The files the SEAS community compares (docs/seas.md "Output"): twelve station files fltst_dp000 ... fltst_dp350 (t, slip, log10
   slip rate, shear stress in MPa, log10 theta) and the slip profiles devol.dat, written by rank 0 at the benchmark's cadence: station
   rows every 0.1 year while max V < 1e-3 m/s and every 0.1 s above, profiles every 5 years and every second. The headers' time-step
   fields are written with fixed widths and filled in when the run ends. */
#include <sbpmg/private/seasimpl.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const PetscReal SeasStationDepths[SEAS_NSTATIONS] = {0, 2.5e3, 5e3, 7.5e3, 10e3, 12.5e3, 15e3, 17.5e3, 20e3, 25e3, 30e3, 35e3};

#define SEAS_PROFILE_DZ 500.0 /* devol.dat's depths: every 500 m down to Wf */

/* y(xq) by linear interpolation in x (increasing), constant beyond the ends. */
PetscReal SeasInterpolate(PetscInt n, const PetscReal x[], const PetscReal y[], PetscReal xq)
{
  PetscInt k = 0;

  if (xq <= x[0]) return y[0];
  if (xq >= x[n - 1]) return y[n - 1];
  while (x[k + 1] < xq) k++;
  return y[k] + (y[k + 1] - y[k]) * (xq - x[k]) / (x[k + 1] - x[k]);
}

/* The header of a station file; *off: where the time-step fields begin (SeasStationPatch() fills them). */
static PetscErrorCode SeasFileHeader(FILE *f, PetscReal dz, const char date[], long *off)
{
  PetscFunctionBegin;
  PetscCheck(
      fprintf(f,
              "# problem=SEAS Benchmark BP1-QD\n# author=sbpmg\n# date=%s\n# code=sbpmg (SBP-SAT, multigrid on OpenCL, PETSc TS)\n# code_version=%d.%d.%d\n"
              "# element_size=%g m\n",
              date, SBPMG_VERSION_MAJOR, SBPMG_VERSION_MINOR, SBPMG_VERSION_PATCH, (double)dz) > 0,
      PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write a header");
  *off = ftell(f);
  PetscCheck(fprintf(f, "# minimum_time_step=%-24s\n# maximum_time_step=%-24s\n# num_time_steps=%-24s\n", "(filled in at the end)", "", "") > 0,
             PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write a header");
  PetscFunctionReturn(0);
}

static PetscErrorCode SeasFilePatch(FILE *f, long off, PetscReal dtmin, PetscReal dtmax, PetscInt steps)
{
  char a[32], b[32], c[32];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(a, sizeof(a), "%.10e", (double)dtmin));
  PetscCall(PetscSNPrintf(b, sizeof(b), "%.10e", (double)dtmax));
  PetscCall(PetscSNPrintf(c, sizeof(c), "%" PetscInt_FMT, steps));
  PetscCheck(fseek(f, off, SEEK_SET) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot seek in an output file");
  PetscCheck(fprintf(f, "# minimum_time_step=%-24s\n# maximum_time_step=%-24s\n# num_time_steps=%-24s\n", a, b, c) > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE,
             "Cannot write a header");
  PetscCheck(fseek(f, 0, SEEK_END) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot seek in an output file");
  PetscFunctionReturn(0);
}

/* The header of a station file at depth z (m): the common part, then the location, the columns and the names line. */
PetscErrorCode SeasStationHeader(FILE *f, PetscReal z, PetscReal dz, const char date[], long *off)
{
  PetscFunctionBegin;
  PetscCall(SeasFileHeader(f, dz, date, off));
  PetscCheck(fprintf(f,
                     "# location=on fault, %g km depth\n# Column #1 = Time (s)\n# Column #2 = Slip (m)\n# Column #3 = Slip rate (log10 m/s)\n"
                     "# Column #4 = Shear stress (MPa)\n# Column #5 = State (log10 s)\nt slip slip_rate shear_stress state\n",
                     (double)(z / 1e3)) > 0,
             PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write a station header");
  PetscFunctionReturn(0);
}

PetscErrorCode SeasStationRow(FILE *f, PetscReal t, PetscReal slip, PetscReal log10v, PetscReal tau_mpa, PetscReal log10theta)
{
  PetscFunctionBegin;
  PetscCheck(fprintf(f, "%.16e %.16e %.16e %.16e %.16e\n", (double)t, (double)slip, (double)log10v, (double)tau_mpa, (double)log10theta) > 0, PETSC_COMM_SELF,
             PETSC_ERR_FILE_WRITE, "Cannot write a station row");
  PetscFunctionReturn(0);
}

/* The fault's values on the host (after an evaluation at the state X): slip, slip rate, shear stress, psi at the nf fault nodes. */
PetscErrorCode SeasGetFault(Seas s, PetscReal slip[], PetscReal V[], PetscReal tau[], PetscReal psi[])
{
  const PetscScalar *xa, *va, *ta;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(s->X, &xa));
  PetscCall(VecGetArrayRead(s->Vg, &va));
  PetscCall(VecGetArrayRead(s->tau, &ta));
  for (PetscInt k = 0; k < s->nf; k++) {
    if (slip) slip[k] = PetscRealPart(xa[s->nf + k]);
    if (psi) psi[k] = PetscRealPart(xa[k]);
    if (V) V[k] = PetscRealPart(va[k]);
    if (tau) tau[k] = PetscRealPart(ta[k]);
  }
  PetscCall(VecRestoreArrayRead(s->tau, &ta));
  PetscCall(VecRestoreArrayRead(s->Vg, &va));
  PetscCall(VecRestoreArrayRead(s->X, &xa));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the run's files */

static PetscErrorCode SeasOutputPath(Seas s, const char name[], char path[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, len, "%s/%s", s->outdir, name));
  PetscFunctionReturn(0);
}

static PetscErrorCode SeasOpenFile(Seas s, const char name[], FILE **f)
{
  char path[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(SeasOutputPath(s, name, path, sizeof(path)));
  *f = fopen(path, "w");
  PetscCheck(*f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s in the output folder -seas_output %s: %s", name, s->outdir, strerror(errno));
  PetscFunctionReturn(0);
}

/* The files of a run continued from a checkpoint: each cut where it ended at the checkpoint, then continued. */
static PetscErrorCode SeasReopenFile(Seas s, const char name[], long off, FILE **f)
{
  char path[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(SeasOutputPath(s, name, path, sizeof(path)));
  *f = fopen(path, "r+");
  PetscCheck(*f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot continue %s in the output folder -seas_output %s from the checkpoint: %s", name, s->outdir,
             strerror(errno));
  PetscCheck(fflush(*f) == 0 && ftruncate(fileno(*f), (off_t)off) == 0 && fseek(*f, 0, SEEK_END) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE,
             "Cannot cut %s at the checkpoint's %ld bytes: %s", name, off, strerror(errno));
  PetscFunctionReturn(0);
}

static PetscErrorCode SeasOutputReopen(Seas s)
{
  PetscFunctionBegin;
  for (int q = 0; q < SEAS_NSTATIONS; q++) {
    char name[32];
    PetscCall(PetscSNPrintf(name, sizeof(name), "fltst_dp%03d", (int)(SeasStationDepths[q] / 100 + 0.5)));
    PetscCall(SeasReopenFile(s, name, s->restart_off[q], &s->station[q]));
  }
  PetscCall(SeasReopenFile(s, "devol.dat", s->restart_off[SEAS_NSTATIONS], &s->devol));
  PetscCall(SeasReopenFile(s, "slip_profiles.dat", s->restart_off[SEAS_NSTATIONS + 1], &s->profiles));
  s->nprofile = (PetscInt)(s->Wf / SEAS_PROFILE_DZ + 1e-9) + 1;
  PetscFunctionReturn(0);
}

PetscErrorCode SeasOutputOffsets(Seas s, long off[])
{
  FILE *f[SEAS_NSTATIONS + 2];

  PetscFunctionBegin;
  for (int q = 0; q < SEAS_NSTATIONS; q++) f[q] = s->station[q];
  f[SEAS_NSTATIONS]     = s->devol;
  f[SEAS_NSTATIONS + 1] = s->profiles;
  for (int q = 0; q < SEAS_NSTATIONS + 2; q++) {
    off[q] = 0;
    if (f[q]) {
      PetscCheck(fflush(f[q]) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write an output file: %s", strerror(errno));
      off[q] = ftell(f[q]);
    }
  }
  PetscFunctionReturn(0);
}

/* The folder (made if missing) and the files with their headers, on rank 0; an error on every rank if it cannot write them. */
PetscErrorCode SeasOutputOpen(Seas s)
{
  PetscMPIInt    rank;
  PetscErrorCode ierr = 0;
  char           date[64], msg[PETSC_MAX_PATH_LEN + 128] = "";
  PetscReal      dz;

  PetscFunctionBegin;
  if (!s->write) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)s), &rank));
  if (rank == 0) {
    if (mkdir(s->outdir, 0777) != 0 && errno != EEXIST) {
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "Cannot make the output folder -seas_output %s: %s", s->outdir, strerror(errno)));
      ierr = 1;
    }
  }
  PetscCallMPI(MPI_Bcast(&ierr, 1, MPI_INT, 0, PetscObjectComm((PetscObject)s)));
  PetscCallMPI(MPI_Bcast(msg, sizeof(msg), MPI_CHAR, 0, PetscObjectComm((PetscObject)s)));
  PetscCheck(!ierr, PetscObjectComm((PetscObject)s), PETSC_ERR_FILE_OPEN, "%s", msg);
  if (rank) PetscFunctionReturn(0);
  if (s->restarted) { /* continue the files of the checkpoint's run */
    PetscCall(SeasOutputReopen(s));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscGetDate(date, sizeof(date)));
  dz = s->z[1] - s->z[0];
  for (int q = 0; q < SEAS_NSTATIONS; q++) {
    char name[32];
    PetscCall(PetscSNPrintf(name, sizeof(name), "fltst_dp%03d", (int)(SeasStationDepths[q] / 100 + 0.5)));
    PetscCall(SeasOpenFile(s, name, &s->station[q]));
    PetscCall(SeasStationHeader(s->station[q], SeasStationDepths[q], dz, date, &s->header_off));
  }
  PetscCall(SeasOpenFile(s, "devol.dat", &s->devol));
  PetscCall(SeasOpenFile(s, "slip_profiles.dat", &s->profiles));
  PetscCheck(fprintf(s->profiles, "# the profiles of devol.dat for gnuplot (bp1.gp): slip (m), depth (km), colour (blue between events, red during them)\n") >
                 0,
             PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write slip_profiles.dat");
  PetscCall(SeasFileHeader(s->devol, dz, date, &s->header_off));
  PetscCheck(fprintf(s->devol,
                     "# Column #1 = Time (s)\n# Column #2 = Max slip rate (log10 m/s)\n# Columns #3 ... = Slip (m) at the depths of the first row (m)\n") > 0,
             PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write devol.dat");
  s->nprofile = (PetscInt)(s->Wf / SEAS_PROFILE_DZ + 1e-9) + 1;
  PetscCheck(fprintf(s->devol, "0 0") > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write devol.dat");
  for (PetscInt q = 0; q < s->nprofile; q++)
    PetscCheck(fprintf(s->devol, " %g", (double)(q * SEAS_PROFILE_DZ)) > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write devol.dat");
  PetscCheck(fprintf(s->devol, "\n") > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write devol.dat");
  s->t_station = s->t_devol = -PETSC_MAX_REAL;
  PetscFunctionReturn(0);
}

/* The rows due at time t (force: both files' rows whatever the cadence), from the fault's values after an evaluation at t. */
PetscErrorCode SeasOutputWrite(Seas s, PetscReal t, PetscBool force)
{
  const PetscBool fast = s->vmax_last >= SEAS_VEVENT ? PETSC_TRUE : PETSC_FALSE;
  const PetscBool st   = (force && t > s->t_station) || t - s->t_station >= (fast ? 0.1 : 0.1 * SEAS_YEAR);
  const PetscBool dv   = (force && t > s->t_devol) || t - s->t_devol >= (fast ? 1.0 : 5 * SEAS_YEAR);
  PetscReal      *z, *slip, *lv, *tau, *lth;
  PetscInt        n;

  PetscFunctionBegin;
  if (!s->devol || !(st || dv)) PetscFunctionReturn(0);
  PetscCall(PetscLogEventBegin(SEAS_Output, 0, 0, 0, 0));
  n = s->nf < s->nface ? s->nf + 1 : s->nf; /* the node below Wf too: it creeps at Vp */
  PetscCall(PetscMalloc5(n, &z, n, &slip, n, &lv, n, &tau, n, &lth));
  PetscCall(SeasGetFault(s, slip, lv, tau, lth));
  for (PetscInt k = 0; k < s->nf; k++) {
    z[k]   = s->z[k];
    lv[k]  = PetscLog10Real(PetscAbsReal(lv[k]));
    tau[k] = tau[k] / 1e6;
    lth[k] = PetscLog10Real(s->fr.Dc / s->fr.V0) + (lth[k] - s->fr.f0) / (s->fr.b * PetscLogReal(10.0)); /* psi = f0 + b ln(V0 theta / Dc) */
  }
  if (n > s->nf) {
    z[n - 1]    = s->z[n - 1];
    slip[n - 1] = s->Vp * t;
    lv[n - 1]   = PetscLog10Real(s->Vp);
    tau[n - 1]  = tau[n - 2];
    lth[n - 1]  = lth[n - 2];
  }
  if (st) {
    for (int q = 0; q < SEAS_NSTATIONS; q++) {
      const PetscReal zq = SeasStationDepths[q];
      PetscCall(SeasStationRow(s->station[q], t, SeasInterpolate(n, z, slip, zq), SeasInterpolate(n, z, lv, zq), SeasInterpolate(n, z, tau, zq),
                               SeasInterpolate(n, z, lth, zq)));
    }
    s->t_station = t;
  }
  if (dv) {
    PetscCheck(fprintf(s->devol, "%.16e %.16e", (double)t, (double)PetscLog10Real(s->vmax_last)) > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE,
               "Cannot write devol.dat");
    for (PetscInt q = 0; q < s->nprofile; q++)
      PetscCheck(fprintf(s->devol, " %.16e", (double)SeasInterpolate(n, z, slip, q * SEAS_PROFILE_DZ)) > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE,
                 "Cannot write devol.dat");
    PetscCheck(fprintf(s->devol, "\n") > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write devol.dat");
    for (PetscInt q = 0; q < s->nprofile; q++)
      PetscCheck(fprintf(s->profiles, "%.6e %.6e %d\n", (double)SeasInterpolate(n, z, slip, q * SEAS_PROFILE_DZ), (double)(q * SEAS_PROFILE_DZ / 1e3),
                         fast ? 0xd62728 : 0x1f77b4) > 0,
                 PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write slip_profiles.dat");
    PetscCheck(fprintf(s->profiles, "\n") > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write slip_profiles.dat");
    s->t_devol = t;
  }
  PetscCall(PetscFree5(z, slip, lv, tau, lth));
  PetscCall(PetscLogEventEnd(SEAS_Output, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* bp1.gp: `gnuplot bp1.gp` in the folder draws slip_profiles.png (the cumulative slip profiles, blue every 5 years between events,
   red every second during them) and max_slip_rate.png (log10 of the maximum slip rate against time, from devol.dat). */
static PetscErrorCode SeasWritePlotScript(Seas s)
{
  FILE *f;

  PetscFunctionBegin;
  PetscCall(SeasOpenFile(s, "bp1.gp", &f));
  PetscCheck(fprintf(f,
                     "# gnuplot bp1.gp (in this folder): the SEAS BP1-QD pictures of sbpmg's run\n"
                     "set terminal pngcairo size 900,700\n"
                     "set output 'slip_profiles.png'\n"
                     "set title 'Cumulative slip (blue: every 5 years between events, red: every second during them)'\n"
                     "set xlabel 'slip (m)'\nset ylabel 'depth (km)'\nset yrange [%g:0]\nunset key\n"
                     "plot 'slip_profiles.dat' using 1:2:3 with lines lc rgb variable lw 0.6\n"
                     "set output 'max_slip_rate.png'\n"
                     "set title 'Maximum slip rate on the fault'\n"
                     "set xlabel 'time (years)'\nset ylabel 'log10 max V (m/s)'\nset autoscale y\n"
                     "plot 'devol.dat' every ::1 using ($1/%.17g):2 with lines lc rgb '#1f77b4'\n",
                     (double)(s->Wf / 1e3), (double)SEAS_YEAR) > 0,
             PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write bp1.gp");
  PetscCheck(fclose(f) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot close bp1.gp");
  PetscFunctionReturn(0);
}

/* The headers' time-step fields filled in, the files closed. */
PetscErrorCode SeasOutputClose(Seas s)
{
  PetscFunctionBegin;
  for (int q = 0; q < SEAS_NSTATIONS; q++)
    if (s->station[q]) {
      PetscCall(SeasFilePatch(s->station[q], s->header_off, s->steps ? s->dtmin : 0, s->dtmax, s->steps));
      PetscCheck(fclose(s->station[q]) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot close a station file");
      s->station[q] = NULL;
    }
  if (s->profiles) {
    PetscCheck(fclose(s->profiles) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot close slip_profiles.dat");
    s->profiles = NULL;
    PetscCall(SeasWritePlotScript(s));
  }
  if (s->devol) {
    PetscCall(SeasFilePatch(s->devol, s->header_off, s->steps ? s->dtmin : 0, s->dtmax, s->steps));
    PetscCheck(fclose(s->devol) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot close devol.dat");
    s->devol = NULL;
  }
  PetscFunctionReturn(0);
}
