/* acoustic3d: the 8th-order 25-point acoustic wave equation with PML on the OpenCL device.

     acoustic3d [-ac_n 200 | -ac_n nx,ny,nz] [-ac_steps 500] [-ac_ndamp 27] [-ac_dx 20] [-ac_cfl 0.8]
                [-ac_vel 2000|file.bin | -ac_layers v0,z1,v1,...] [-ac_init zero|random] [-ac_source x,y,z | -ac_sources file]
                [-ac_receivers file | -ac_receivers_line x0,y0,z0:x1,y1,z1:n] [-ac_traces prefix]
                [-ac_snapshot_every K -ac_snapshot_format png|vtk -ac_snapshot_prefix acoustic -ac_snapshot_plane y:100]
                [-ac_progress_every K]

   Prints a progress line every -ac_progress_every steps (step, time, Gpts/s so far, max |u|) and a summary (Gpts/s,
   GB/s at the spec's bytes per point). PNG snapshots are a slice of u (-ac_snapshot_plane; blue negative, red positive,
   one colour scale for the run), VTK snapshots the whole field (.vti). With receivers, -ac_traces prefix writes the
   traces at the end as prefix.npy (NumPy), prefix.bin (PETSc binary) and prefix.png (the shot gather, clipped at the 95th
   percentile). Every -ac_ option of AcousticSetFromOptions() applies. Runs on any number of MPI ranks (mpiexec -n P
   acoustic3d ...): the grid is split into slabs along z, one device per rank (docs/acoustic.md). */
#include <sbpmg.h>
#include <stdlib.h>
#include <string.h>

static const char help[] = "The 8th-order 25-point acoustic wave equation with PML on an OpenCL device.\n";

typedef enum {
  SNAPSHOT_PNG, /* a slice of u (-ac_snapshot_plane) */
  SNAPSHOT_VTK  /* the whole field, a .vti file */
} SnapshotFormat;
static const char *const SnapshotFormats[] = {"png", "vtk", "SnapshotFormat", "SNAPSHOT_", NULL};

/* A string option of this example fits its buffer of len bytes (PetscOptionsString() would cut it silently). */
static PetscErrorCode CheckStringOption(const char name[], size_t len)
{
  const char *value;
  PetscBool   set;

  PetscFunctionBegin;
  PetscCall(PetscOptionsFindPair(NULL, NULL, name, &value, &set));
  PetscCheck(!set || !value || strlen(value) < len, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE,
             "%s: the name of %zu characters is longer than the limit of %zu (PETSC_MAX_PATH_LEN - 1)", name, value ? strlen(value) : 0, len - 1);
  PetscFunctionReturn(0);
}

/* An output file name: prefix, then the rest made from the format; a name that would not fit is an error naming it and the
   limit (it was cut: PREFIX.np written for PREFIX.npy). */
static PetscErrorCode OutputName(char name[], size_t len, const char option[], const char prefix[], const char tail[])
{
  const size_t need = strlen(prefix) + strlen(tail);

  PetscFunctionBegin;
  PetscCheck(need < len, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE,
             "The output file %.32s...%s (%s) would have %zu characters, more than the limit of %zu (PETSC_MAX_PATH_LEN - 1); use a shorter prefix", prefix,
             tail, option, need, len - 1);
  PetscCall(PetscStrncpy(name, prefix, len));
  PetscCall(PetscStrlcat(name, tail, len));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Acoustic       ac;
  PetscInt       steps = 500, every = 0, progress = -1, n[3], done = 0;
  SnapshotFormat fmt                        = SNAPSHOT_PNG;
  char           prefix[PETSC_MAX_PATH_LEN] = "acoustic", traces[PETSC_MAX_PATH_LEN] = "";
  PetscReal      npts, bytes, spec, dt, secs = 0;
  PetscBool      set, progress_set;
  PetscLogDouble t0, t1;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SbpmgInitializePackage());
  /* the example's smaller default grid (the library's default is the 800^3 benchmark) */
  PetscCall(PetscOptionsHasName(NULL, NULL, "-ac_n", &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, "-ac_n", "200"));
  { /* read as 64-bit: a value beyond PetscInt is an error naming it (PetscOptionsInt() would wrap it: -ac_steps 4294967297 ran one step) */
    static const char *const ints[] = {"-ac_steps", "-ac_snapshot_every", "-ac_progress_every", NULL};
    PetscCall(SbpmgOptionsCheckInts(NULL, NULL, ints));
  }
  PetscCall(CheckStringOption("-ac_snapshot_prefix", sizeof(prefix)));
  PetscCall(CheckStringOption("-ac_traces", sizeof(traces)));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "acoustic3d options", NULL);
  PetscCall(PetscOptionsInt("-ac_steps", "Number of time steps", NULL, steps, &steps, NULL));
  PetscCall(PetscOptionsInt("-ac_snapshot_every", "Write a snapshot every K steps (0: none)", NULL, every, &every, NULL));
  PetscCall(PetscOptionsEnum("-ac_snapshot_format", "Snapshot format", NULL, SnapshotFormats, (PetscEnum)fmt, (PetscEnum *)&fmt, NULL));
  PetscCall(PetscOptionsString("-ac_snapshot_prefix", "Snapshot file name prefix", NULL, prefix, prefix, sizeof(prefix), NULL));
  PetscCall(PetscOptionsInt("-ac_progress_every", "Print a progress line every K steps (0: none; default steps/10)", NULL, progress, &progress, &progress_set));
  PetscCall(PetscOptionsString("-ac_traces", "Write the traces at the end to <prefix>.npy, .bin and .png (the shot gather)", NULL, traces, traces,
                               sizeof(traces), NULL));
  PetscOptionsEnd();
  PetscCheck(steps >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ac_steps %" PetscInt_FMT " must be >= 0", steps);
  PetscCheck(every >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ac_snapshot_every %" PetscInt_FMT " must be >= 0", every);
  PetscCheck(!progress_set || progress >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE,
             "-ac_progress_every %" PetscInt_FMT " must be >= 0 (0: no progress lines; not given: every steps/10)", progress);
  if (!progress_set) progress = PetscMax(steps / 10, 1);
  { /* the output names fit before any step is run (the longest snapshot name: the last step's) */
    char name[PETSC_MAX_PATH_LEN], tail[64];
    PetscCall(PetscSNPrintf(tail, sizeof(tail), "_%06" PetscInt_FMT ".%s", steps, fmt == SNAPSHOT_VTK ? "vti" : "png"));
    if (every) PetscCall(OutputName(name, sizeof(name), "-ac_snapshot_prefix", prefix, tail));
    if (traces[0]) PetscCall(OutputName(name, sizeof(name), "-ac_traces", traces, ".npy"));
  }

  PetscCall(AcousticCreate(PETSC_COMM_WORLD, &ac));
  PetscCall(AcousticSetFromOptions(ac));
  PetscCall(AcousticSetUp(ac));
  PetscCall(AcousticView(ac, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(AcousticGetSizes(ac, &n[0], &n[1], &n[2]));
  PetscCall(AcousticGetTimeStep(ac, &dt));
  PetscCall(AcousticGetBytesPerStep(ac, &bytes, &spec));
  npts = (PetscReal)n[0] * n[1] * n[2];

  while (done < steps) {
    PetscInt k = steps - done;
    if (progress) k = PetscMin(k, progress - done % progress);
    if (every) k = PetscMin(k, every - done % every);
    PetscCall(AcousticSynchronize(ac));
    PetscCall(PetscTime(&t0));
    PetscCall(AcousticStep(ac, k));
    PetscCall(AcousticSynchronize(ac));
    PetscCall(PetscTime(&t1));
    secs += t1 - t0;
    done += k;
    if (progress && done % progress == 0) {
      PetscReal maxu;
      PetscCall(AcousticGetNorms(ac, &maxu, NULL));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "step %6" PetscInt_FMT "  t %8.4f s  %8.3f Gpts/s so far  max|u| %.4e\n", done, (double)(done * dt),
                            (double)(npts * done / secs / 1e9), (double)maxu));
    }
    if (every && done % every == 0) {
      char name[PETSC_MAX_PATH_LEN], tail[64];
      PetscCall(PetscSNPrintf(tail, sizeof(tail), "_%06" PetscInt_FMT ".%s", done, fmt == SNAPSHOT_VTK ? "vti" : "png"));
      PetscCall(OutputName(name, sizeof(name), "-ac_snapshot_prefix", prefix, tail));
      if (fmt == SNAPSHOT_VTK)
        PetscCall(AcousticWriteVTK(ac, name));
      else
        PetscCall(AcousticWriteSlicePNG(ac, name));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "snapshot %s\n", name));
    }
  }
  if (traces[0]) {
    const char *ext[3] = {"npy", "bin", "png"};
    PetscInt    nrec, ns;
    PetscReal   interval;

    PetscCall(AcousticGetTraceSizes(ac, &nrec, &ns, &interval));
    for (int e = 0; e < 3; e++) {
      char name[PETSC_MAX_PATH_LEN], tail[8];
      PetscCall(PetscSNPrintf(tail, sizeof(tail), ".%s", ext[e]));
      PetscCall(OutputName(name, sizeof(name), "-ac_traces", traces, tail));
      if (e < 2)
        PetscCall(AcousticWriteTraces(ac, name));
      else
        PetscCall(AcousticWriteShotGatherPNG(ac, name, 95));
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "traces: %" PetscInt_FMT " receivers x %" PetscInt_FMT " samples every %.4e s in %s.npy, %s.bin, %s.png\n", nrec,
                          ns, (double)interval, traces, traces, traces));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "summary: %" PetscInt_FMT " steps of %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT
                        " in %.3f s: %.3f Gpts/s, %.1f GB/s at the spec's %.2f B/point (%.1f GB/s at this implementation's %.2f B/point)\n",
                        steps, n[0], n[1], n[2], (double)secs, (double)(secs > 0 ? npts * steps / secs / 1e9 : 0),
                        (double)(secs > 0 ? spec * steps / secs / 1e9 : 0), (double)(spec / npts), (double)(secs > 0 ? bytes * steps / secs / 1e9 : 0),
                        (double)(bytes / npts)));
  PetscCall(AcousticDestroy(&ac));
  PetscCall(PetscFinalize());
  return 0;
}
