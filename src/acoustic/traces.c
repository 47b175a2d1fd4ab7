/* The traces of the receivers (docs/acoustic.md "Sources, receivers and traces"): their sizes, the traces gathered on
   rank 0 (rows = receivers, columns = samples), the files (NumPy .npy, PETSc binary) and the shot gather picture. */
#include <sbpmg/private/acousticimpl.h>

/*@C
   AcousticGetTraceSizes - The receivers, the trace samples recorded so far (sample m: u at step m k, k the trace interval;
   sample 0 the initial field) and the time between samples (k dt).

   Not collective

   Level: intermediate

.seealso: `AcousticGetTraces()`, `AcousticSetTraceInterval()`
@*/
PetscErrorCode AcousticGetTraceSizes(Acoustic ac, PetscInt *nrec, PetscInt *nsamples, PetscReal *interval)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  if (nrec) *nrec = ac->sv.nrectotal;
  if (nsamples) *nsamples = ac->sv.nrectotal ? ac->sv.nsamples : 0;
  if (interval) *interval = ac->every * ac->dt;
  PetscFunctionReturn(0);
}

/* This rank's traces, receiver-major (nrec x nsamples), after reading back the device's samples. */
static PetscErrorCode AcousticLocalTraces(Acoustic ac, PetscReal **mine)
{
  AcSurvey      *sv = &ac->sv;
  const PetscInt ns = sv->nsamples;

  PetscFunctionBegin;
  PetscCall(AcousticFlushTraces_Private(ac));
  PetscCall(PetscMalloc1((size_t)sv->nrec * ns + 1, mine));
  for (PetscInt r = 0; r < sv->nrec; r++)
    for (PetscInt m = 0; m < ns; m++) (*mine)[(size_t)r * ns + m] = sv->htr[(size_t)m * sv->nrec + r];
  PetscFunctionReturn(0);
}

/*@C
   AcousticGetTraces - Copy the traces to rank 0: out[r * nsamples + m] is sample m of receiver r (AcousticGetTraceSizes()),
   receivers in the order they were given. Each receiver is recorded on the rank whose slab holds its cell; the device's
   samples are read back (one transfer per rank) and gathered. out may be NULL on the other ranks.

   Collective

   Level: intermediate

.seealso: `AcousticGetTraceSizes()`, `AcousticWriteTraces()`, `AcousticSetReceivers()`
@*/
PetscErrorCode AcousticGetTraces(Acoustic ac, PetscReal out[])
{
  AcSurvey      *sv   = &ac->sv;
  const PetscInt ns   = sv->nsamples;
  PetscReal     *mine = NULL;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckSetUp(ac);
  PetscCheck(ac->rank || out || !sv->nrectotal, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "AcousticGetTraces() needs an array of nrec*nsamples values on rank 0");
  {
    PetscErrorCode ierr = AcousticLocalTraces(ac, &mine);
    ierr                = AcousticAgree_Private(ac, ierr, "trace read-back"); /* before the gathers, which would wait for a rank that failed */
    if (ierr) PetscCall(PetscFree(mine));
    PetscCall(ierr);
  }
  if (ac->size == 1) {
    for (PetscInt r = 0; r < sv->nrec; r++) PetscCall(PetscArraycpy(out + (size_t)sv->rid[r] * ns, mine + (size_t)r * ns, ns));
  } else {
    MPI_Comm    comm = PetscObjectComm((PetscObject)ac);
    PetscMPIInt nloc, *cnt = NULL, *dsp = NULL, *cntd = NULL, *dspd = NULL, nd;
    PetscInt   *ids = NULL, total = 0;
    PetscReal  *all = NULL;

    PetscCall(PetscMPIIntCast(sv->nrec, &nloc));
    PetscCall(PetscMPIIntCast(sv->nrec * ns, &nd));
    if (!ac->rank) PetscCall(PetscMalloc4(ac->size, &cnt, ac->size, &dsp, ac->size, &cntd, ac->size, &dspd));
    PetscCallMPI(MPI_Gather(&nloc, 1, MPI_INT, cnt, 1, MPI_INT, 0, comm));
    if (!ac->rank) {
      for (PetscMPIInt r = 0; r < ac->size; r++) {
        dsp[r] = (PetscMPIInt)total;
        PetscCall(PetscMPIIntCast(cnt[r] * ns, &cntd[r]));
        PetscCall(PetscMPIIntCast(total * ns, &dspd[r]));
        total += cnt[r];
      }
      PetscCall(PetscMalloc2(total + 1, &ids, total * ns + 1, &all));
    }
    PetscCallMPI(MPI_Gatherv(sv->rid, nloc, MPIU_INT, ids, cnt, dsp, MPIU_INT, 0, comm));
    PetscCallMPI(MPI_Gatherv(mine, nd, MPIU_REAL, all, cntd, dspd, MPIU_REAL, 0, comm));
    if (!ac->rank) {
      for (PetscInt r = 0; r < total; r++) PetscCall(PetscArraycpy(out + (size_t)ids[r] * ns, all + (size_t)r * ns, ns));
      PetscCall(PetscFree2(ids, all));
      PetscCall(PetscFree4(cnt, dsp, cntd, dspd));
    }
  }
  PetscCall(PetscFree(mine));
  PetscFunctionReturn(0);
}

/* The traces on rank 0 for a file (*tr allocated there, NULL elsewhere), their sizes and the sample interval. */
static PetscErrorCode AcousticGatherTraces(Acoustic ac, PetscInt *nrec, PetscInt *ns, PetscReal *interval, PetscReal **tr)
{
  PetscFunctionBegin;
  PetscCall(AcousticGetTraceSizes(ac, nrec, ns, interval));
  PetscCheck(*nrec, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_WRONGSTATE,
             "No receivers: set them before AcousticSetUp() (-ac_receivers, -ac_receivers_line)");
  *tr = NULL;
  if (!ac->rank) PetscCall(PetscMalloc1((size_t)*nrec * *ns, tr));
  {
    PetscErrorCode ierr = AcousticGetTraces(ac, *tr); /* fails on every rank together */
    if (ierr) PetscCall(PetscFree(*tr));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

/* One named Vec of n values (the array, not copied) into the viewer; the Vec is destroyed on every path. */
static PetscErrorCode AcViewArray(PetscViewer viewer, const char name[], PetscInt n, const PetscReal a[])
{
  Vec            v;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, a, &v));
  ierr = PetscObjectSetName((PetscObject)v, name);
  if (!ierr) ierr = VecView(v, viewer);
  PetscCall(VecDestroy(&v));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* The traces as a PETSc binary file: the traces (one Vec of nrec * nsamples values, receiver-major), then a Vec of
   nrec, nsamples, the sample interval (s) and the receivers' coordinates (3 per receiver, m). The viewer and the arrays
   are freed on every path (a file that cannot be written leaked its viewer). */
static PetscErrorCode AcWriteTracesBinary(const char path[], PetscInt nrec, PetscInt ns, const PetscReal traces[], PetscReal interval, const PetscReal xyz[])
{
  PetscViewer    viewer;
  PetscReal     *info = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscViewerCreate(PETSC_COMM_SELF, &viewer));
  ierr = PetscViewerSetType(viewer, PETSCVIEWERBINARY);
  if (!ierr) ierr = PetscViewerBinarySetSkipInfo(viewer, PETSC_TRUE);
  if (!ierr) ierr = PetscViewerFileSetMode(viewer, FILE_MODE_WRITE);
  if (!ierr) ierr = PetscViewerFileSetName(viewer, path);
  if (!ierr) ierr = AcViewArray(viewer, "traces", nrec * ns, traces);
  if (!ierr) ierr = PetscMalloc1(3 + 3 * nrec, &info);
  if (!ierr) {
    info[0] = nrec;
    info[1] = ns;
    info[2] = interval;
    ierr    = PetscArraycpy(info + 3, xyz, 3 * nrec);
  }
  if (!ierr) ierr = AcViewArray(viewer, "trace_geometry", 3 + 3 * nrec, info);
  PetscCall(PetscFree(info));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Writing the traces to %s (PETSc binary) failed", path);
  PetscFunctionReturn(0);
}

/*@C
   AcousticWriteTraces - Write the traces (rows = receivers, columns = samples) to a file written by rank 0: a name ending
   in .npy gives a NumPy array of float64 (numpy.load(path), shape (nrec, nsamples)); any other a PETSc binary file of two
   Vecs: the traces (nrec * nsamples values, receiver-major), then nrec, nsamples, the sample interval in seconds and the
   receivers' x, y, z (VecLoad(), or PetscBinaryIO.py's readBinaryFile()).

   Collective

   Level: intermediate

.seealso: `AcousticGetTraces()`, `AcousticWriteShotGatherPNG()`
@*/
PetscErrorCode AcousticWriteTraces(Acoustic ac, const char path[])
{
  PetscInt       nrec, ns;
  PetscReal      interval, *tr = NULL;
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  PetscCall(AcousticGatherTraces(ac, &nrec, &ns, &interval, &tr));
  if (!ac->rank) {
    PetscBool npy;
    PetscCall(PetscStrendswith(path, ".npy", &npy));
    ierr = npy ? AcousticWriteNPY_Private(path, nrec, ns, tr) : AcWriteTracesBinary(path, nrec, ns, tr, interval, ac->recpos);
    PetscCall(PetscFree(tr));
  }
  PetscCall(AcousticShareError_Private(ac, ierr, path));
  PetscFunctionReturn(0);
}

/* The signed offset of each receiver from the first source along the receivers' direction (first to last receiver),
   or its distance when there is no direction; *monotonic: the offsets increase or decrease strictly. */
static void AcReceiverOffsets(Acoustic ac, PetscReal off[], PetscBool *monotonic)
{
  const PetscInt   n = ac->nrecpos;
  const PetscReal *x = ac->recpos;
  PetscReal        s[3], d[3], len = 0;

  for (PetscInt a = 0; a < 3; a++) {
    s[a] = ac->nsrclist ? ac->srclist[0].x[a] : ac->src[a] * ac->h[a];
    d[a] = x[3 * (n - 1) + a] - x[a];
    len += d[a] * d[a];
  }
  len = PetscSqrtReal(len);
  for (PetscInt r = 0; r < n; r++) {
    PetscReal p = 0, q = 0;
    for (PetscInt a = 0; a < 3; a++) {
      p += (x[3 * r + a] - s[a]) * (len > 0 ? d[a] / len : 0);
      q += PetscSqr(x[3 * r + a] - s[a]);
    }
    off[r] = len > 0 ? p : PetscSqrtReal(q);
  }
  *monotonic = (PetscBool)(n > 1);
  for (PetscInt r = 1; r + 1 < n; r++)
    if ((off[r + 1] - off[r]) * (off[1] - off[0]) <= 0) *monotonic = PETSC_FALSE;
  if (n > 1 && off[1] == off[0]) *monotonic = PETSC_FALSE;
}

/* The value at percentile pct of |v| (n values; 0 gives the largest, then 1). */
static PetscErrorCode AcPercentile(PetscInt n, const PetscReal v[], PetscReal pct, PetscReal *q)
{
  PetscReal *a;
  PetscInt   k;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n + 1, &a));
  for (PetscInt i = 0; i < n; i++) a[i] = PetscIsInfOrNanReal(v[i]) ? 0 : PetscAbsReal(v[i]);
  PetscCall(PetscSortReal(n, a));
  k  = PetscMin(PetscMax((PetscInt)PetscCeilReal(pct / 100 * n) - 1, 0), n - 1);
  *q = n ? a[k] : 0;
  if (!(*q > 0) && n) *q = a[n - 1];
  if (!(*q > 0)) *q = 1;
  PetscCall(PetscFree(a));
  PetscFunctionReturn(0);
}

/* Rank 0: the gather's picture (time down, receivers across) of the traces tr (nrec x ns, receiver-major). */
static PetscErrorCode AcWriteGather(Acoustic ac, const char path[], PetscInt nrec, PetscInt ns, const PetscReal tr[], PetscReal interval, PetscReal pct)
{
  PetscReal *img, *off;
  PetscBool  mono;
  AcPlotInfo info;
  AcCanvas   c = {0, 0, NULL};
  char       title[160];

  PetscFunctionBegin;
  PetscCall(PetscMalloc2((size_t)nrec * ns, &img, nrec, &off));
  for (PetscInt m = 0; m < ns; m++)
    for (PetscInt r = 0; r < nrec; r++) img[r + (size_t)nrec * m] = tr[(size_t)r * ns + m];
  AcReceiverOffsets(ac, off, &mono);
  PetscCall(AcPercentile(nrec * ns, tr, pct, &info.scale));
  PetscCall(PetscSNPrintf(title, sizeof(title), "shot gather: %" PetscInt_FMT " receivers, %" PetscInt_FMT " samples, clip at %.4g%% = %.3g", nrec, ns,
                          (double)pct, (double)info.scale));
  info.title  = title;
  info.xlabel = mono ? "offset (m)" : "receiver";
  info.ylabel = "time (s)";
  info.x0     = mono ? off[0] : 0;
  info.x1     = mono ? off[nrec - 1] : nrec - 1;
  info.y0     = 0;
  info.y1     = (ns - 1) * interval;
  info.aspect = PETSC_FALSE;
  PetscCall(AcPlotRender(nrec, ns, img, &info, &c));
  PetscCall(PetscFree2(img, off));
  {
    PetscErrorCode ierr = AcCanvasWritePNG(&c, path);
    PetscCall(AcCanvasDestroy(&c));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

/*@C
   AcousticWriteShotGatherPNG - Write the traces as a shot gather: time down (seconds), receivers across (their offset in
   metres from the first source along the receiver line, when the offsets are monotonic; else the receiver number), a
   diverging colour map symmetric about zero clipped at the given percentile of |u| (e.g. 99), with its colour bar.
   Rank 0 writes the file.

   Collective

   Level: intermediate

.seealso: `AcousticWriteTraces()`, `AcousticGetTraces()`
@*/
PetscErrorCode AcousticWriteShotGatherPNG(Acoustic ac, const char path[], PetscReal percentile)
{
  PetscInt       nrec, ns;
  PetscReal      interval, *tr = NULL;
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  PetscCheck(percentile > 0 && percentile <= 100, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "Clip percentile %g must be in (0, 100]",
             (double)percentile);
  PetscCall(AcousticGatherTraces(ac, &nrec, &ns, &interval, &tr));
  if (!ac->rank) {
    ierr = AcWriteGather(ac, path, nrec, ns, tr, interval, percentile);
    PetscCall(PetscFree(tr));
  }
  PetscCall(AcousticShareError_Private(ac, ierr, path));
  PetscFunctionReturn(0);
}
