/* The survey of the acoustic operator as the user sets it (docs/acoustic.md "Sources, receivers and traces"): point
   sources with their delays and amplitudes, the wavelet, the receivers and the trace interval. Positions are in metres;
   src/acoustic/points.c turns them into grid points at set-up. */
#include <sbpmg/private/acousticimpl.h>

/* A number of source or receiver (kind) number index that must be finite (name: x, y, z, delay, amplitude). */
static PetscErrorCode AcCheckFinite(Acoustic ac, const char kind[], PetscInt index, const char name[], PetscReal v)
{
  PetscFunctionBegin;
  if (!PetscIsInfOrNanReal(v)) PetscFunctionReturn(0);
  {
    char str[32];
    PetscCall(AcRealString(v, str, sizeof(str)));
    SETERRQ(PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "%s %" PetscInt_FMT ": %s = %s must be finite", kind, index, name, str);
  }
}

/*@C
   AcousticAddSource - Add a point source at (x, y, z) metres (grid point (i, j, k) is at (i dx, j dy, k dz)): after step n
   it adds amplitude * w(t_n - delay) at its position, w the object's wavelet (AcousticSetWavelet(); default the Ricker of
   AcousticSetSourceWavelet()'s fmax). A position between grid points is spread over the 8 points of its cell with
   trilinear weights. Once a source is added, the single source of AcousticSetSource() is no longer used.

   Not collective (call it on every rank with the same values)

   Input Parameters:
+  ac        - the object, before AcousticSetUp()
.  x, y, z   - position in metres, inside the grid [0, (nx-1) dx] x [0, (ny-1) dy] x [0, (nz-1) dz] (checked at set-up)
.  delay     - seconds, >= 0 (with a user wavelet rounded to whole steps)
-  amplitude - factor of the wavelet

   Options Database Key:
.  -ac_sources <file> - one source per line: x y z [delay [amplitude]]

   Level: intermediate

.seealso: `AcousticSetSourcesFile()`, `AcousticSetWavelet()`, `AcousticSetReceivers()`
@*/
PetscErrorCode AcousticAddSource(Acoustic ac, PetscReal x, PetscReal y, PetscReal z, PetscReal delay, PetscReal amplitude)
{
  const PetscReal v[5]    = {x, y, z, delay, amplitude};
  const char     *name[5] = {"x", "y", "z", "delay", "amplitude"};
  AcSourceSpec   *s;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticAddSource()");
  for (int c = 0; c < 5; c++) PetscCall(AcCheckFinite(ac, "Source", ac->nsrclist, name[c], v[c]));
  if (!(delay >= 0)) {
    char str[32];
    PetscCall(AcRealString(delay, str, sizeof(str)));
    SETERRQ(PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "Source %" PetscInt_FMT " has delay %s s: it must be >= 0", ac->nsrclist, str);
  }
  if (!(ac->nsrclist & (ac->nsrclist - 1))) { /* 0, 1, 2, 4, ...: grow to the next power of two */
    AcSourceSpec *more;
    PetscCall(PetscMalloc1(PetscMax(2 * ac->nsrclist, 1), &more));
    if (ac->nsrclist) PetscCall(PetscArraycpy(more, ac->srclist, ac->nsrclist));
    PetscCall(PetscFree(ac->srclist));
    ac->srclist = more;
  }
  s            = &ac->srclist[ac->nsrclist++];
  s->x[0]      = x;
  s->x[1]      = y;
  s->x[2]      = z;
  s->delay     = delay;
  s->amplitude = amplitude;
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetSourcesFile - Replace the sources by those of a text file: one source per line, "x y z [delay [amplitude]]"
   (metres, seconds; delay 0 and amplitude 1 when left out); blank lines and everything after '#' are ignored.

   Not collective (every rank reads the file)

   Level: intermediate

.seealso: `AcousticAddSource()`
@*/
PetscErrorCode AcousticSetSourcesFile(Acoustic ac, const char path[])
{
  const PetscReal defaults[5] = {0, 0, 0, 0, 1};
  PetscReal      *t;
  PetscInt        n;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetSourcesFile()");
  PetscCall(AcousticReadTable_Private(path, "Source", "x y z [delay [amplitude]] (3 to 5 numbers: metres, seconds)", 3, 5, defaults, &n, &t));
  ac->nsrclist = 0;
  for (PetscInt s = 0; s < n; s++) {
    PetscErrorCode ierr = AcousticAddSource(ac, t[5 * s], t[5 * s + 1], t[5 * s + 2], t[5 * s + 3], t[5 * s + 4]);
    if (ierr) PetscCall(PetscFree(t));
    PetscCall(ierr);
  }
  PetscCall(PetscFree(t));
  PetscFunctionReturn(0);
}

/* The wavelet from n samples; origin names where they came from in the messages ("" or " of file w.txt"). */
static PetscErrorCode AcousticSetWaveletFrom(Acoustic ac, PetscInt n, const PetscReal w[], const char origin[])
{
  PetscFunctionBegin;
  PetscCheck(n >= 0, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "Wavelet of %" PetscInt_FMT " samples: the count must be >= 0", n);
  for (PetscInt i = 0; i < n; i++) {
    if (PetscIsInfOrNanReal(w[i])) {
      char str[32];
      PetscCall(AcRealString(w[i], str, sizeof(str)));
      SETERRQ(PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "Wavelet sample %" PetscInt_FMT "%s is %s: every sample must be finite", i, origin,
              str);
    }
  }
  PetscCall(PetscFree(ac->wavelet));
  ac->nwavelet = n;
  if (n) {
    PetscCall(PetscMalloc1(n, &ac->wavelet));
    PetscCall(PetscArraycpy(ac->wavelet, w, n));
  }
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetWavelet - The wavelet of every source: w[m] is added (times the source's amplitude) after step m + d, d the
   source's delay in steps (rounded); the run may not go past the last sample of any source (AcousticStep() fails). n = 0:
   back to the Ricker wavelet. Copied.

   Not collective

   Options Database Key:
.  -ac_wavelet <file> - a text file of the samples (any number per line, '#' starts a comment)

   Level: intermediate

.seealso: `AcousticAddSource()`, `AcousticSetSourceWavelet()`, `AcousticSetWaveletFile()`
@*/
PetscErrorCode AcousticSetWavelet(Acoustic ac, PetscInt n, const PetscReal w[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetWavelet()");
  PetscCall(AcousticSetWaveletFrom(ac, n, w, ""));
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetWaveletFile - The wavelet from a text file of samples, one per step (any number per line; blank lines and
   everything after '#' are ignored).

   Not collective (every rank reads the file)

   Level: intermediate

.seealso: `AcousticSetWavelet()`
@*/
PetscErrorCode AcousticSetWaveletFile(Acoustic ac, const char path[])
{
  PetscReal *w;
  PetscInt   n;
  char       origin[PETSC_MAX_PATH_LEN + 16];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetWaveletFile()");
  PetscCall(AcousticReadTable_Private(path, "Wavelet", "a list of numbers (one sample per step)", 1, 0, NULL, &n, &w));
  PetscCall(PetscSNPrintf(origin, sizeof(origin), " of file %s", path));
  {
    PetscErrorCode ierr = AcousticSetWaveletFrom(ac, n, w, origin);
    PetscCall(PetscFree(w));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

/* Append n receivers (3 coordinates each, m) to the object's. */
/* n more receivers fit the indices: each has 8 grid points (8 nrec PetscInt entries; 2^28 receivers at most with 32-bit
   PetscInt). Refused before any allocation, naming the count (3 n or 8 n would wrap and allocate too little). */
static PetscErrorCode AcCheckReceiverCount(Acoustic ac, PetscInt n)
{
  const PetscInt64 total = (PetscInt64)ac->nrecpos + n, most = PETSC_MAX_INT / 8;

  PetscFunctionBegin;
  PetscCheck(total <= most, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
             "%" PetscInt64_FMT " receivers are more than the %" PetscInt64_FMT " that %d-bit indices hold (8 grid points each)", total, most,
             (int)(8 * sizeof(PetscInt)));
  PetscFunctionReturn(0);
}

static PetscErrorCode AcousticAppendReceivers(Acoustic ac, PetscInt n, const PetscReal xyz[])
{
  PetscReal *all;

  PetscFunctionBegin;
  PetscCheck(n >= 0, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "Number of receivers %" PetscInt_FMT " must be >= 0", n);
  for (PetscInt r = 0; r < n; r++)
    for (PetscInt a = 0; a < 3; a++) PetscCall(AcCheckFinite(ac, "Receiver", ac->nrecpos + r, a == 0 ? "x" : (a == 1 ? "y" : "z"), xyz[3 * r + a]));
  if (!n) PetscFunctionReturn(0);
  PetscCall(AcCheckReceiverCount(ac, n));
  PetscCall(PetscMalloc1(3 * (ac->nrecpos + n), &all));
  if (ac->nrecpos) PetscCall(PetscArraycpy(all, ac->recpos, 3 * ac->nrecpos));
  PetscCall(PetscArraycpy(all + 3 * ac->nrecpos, xyz, 3 * n));
  PetscCall(PetscFree(ac->recpos));
  ac->recpos = all;
  ac->nrecpos += n;
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetReceivers - The receivers: n positions (x, y, z in metres, 3 numbers each), copied; u is recorded there every
   AcousticSetTraceInterval() steps, on the device, by trilinear interpolation (a position on a grid point reads that
   point). A receiver outside the grid is an error at set-up; one inside the PML gets a warning (its trace is damped).

   Not collective (call it on every rank with the same values)

   Options Database Keys:
+  -ac_receivers <file> - one receiver per line: x y z
-  -ac_receivers_line <x0,y0,z0:x1,y1,z1:n> - n receivers evenly spaced from (x0, y0, z0) to (x1, y1, z1)

   Level: intermediate

.seealso: `AcousticSetReceiversLine()`, `AcousticSetReceiversFile()`, `AcousticGetTraces()`, `AcousticWriteTraces()`
@*/
PetscErrorCode AcousticSetReceivers(Acoustic ac, PetscInt n, const PetscReal xyz[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetReceivers()");
  ac->nrecpos = 0;
  PetscCall(AcousticAppendReceivers(ac, n, xyz));
  PetscFunctionReturn(0);
}

/* n points evenly spaced from x0 to x1 (n = 1: x0), appended to the receivers. */
PetscErrorCode AcousticAppendReceiversLine_Private(Acoustic ac, const PetscReal x0[3], const PetscReal x1[3], PetscInt n)
{
  PetscReal *xyz;

  PetscFunctionBegin;
  PetscCheck(n >= 1, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "A receiver line needs at least 1 receiver, got %" PetscInt_FMT, n);
  PetscCall(AcCheckReceiverCount(ac, n));
  PetscCall(PetscMalloc1(3 * n, &xyz));
  for (PetscInt r = 0; r < n; r++)
    for (PetscInt a = 0; a < 3; a++) xyz[3 * r + a] = n > 1 ? x0[a] + (x1[a] - x0[a]) * r / (n - 1) : x0[a];
  {
    PetscErrorCode ierr = AcousticAppendReceivers(ac, n, xyz);
    PetscCall(PetscFree(xyz));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetReceiversLine - n receivers evenly spaced from x0 to x1 (metres; both ends included, n = 1: at x0).

   Not collective

   Options Database Key:
.  -ac_receivers_line <x0,y0,z0:x1,y1,z1:n>

   Level: intermediate

.seealso: `AcousticSetReceivers()`
@*/
PetscErrorCode AcousticSetReceiversLine(Acoustic ac, const PetscReal x0[3], const PetscReal x1[3], PetscInt n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetReceiversLine()");
  ac->nrecpos = 0;
  PetscCall(AcousticAppendReceiversLine_Private(ac, x0, x1, n));
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetReceiversFile - The receivers from a text file: one per line, "x y z" in metres; blank lines and everything
   after '#' are ignored. An empty file, or a line of other than 3 numbers, is an error naming the file and the line.

   Not collective (every rank reads the file)

   Level: intermediate

.seealso: `AcousticSetReceivers()`
@*/
PetscErrorCode AcousticSetReceiversFile(Acoustic ac, const char path[])
{
  PetscReal *xyz;
  PetscInt   n;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetReceiversFile()");
  PetscCall(AcousticReadTable_Private(path, "Receiver", "x y z (3 numbers, metres)", 3, 3, NULL, &n, &xyz));
  ac->nrecpos = 0;
  {
    PetscErrorCode ierr = AcousticAppendReceivers(ac, n, xyz);
    PetscCall(PetscFree(xyz));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetTraceInterval - Record the receivers every k steps (default 1): sample m of a trace is u at step m k, time
   m k dt (sample 0: the initial field).

   Options Database Key:
.  -ac_trace_every <k>

   Level: intermediate

.seealso: `AcousticSetReceivers()`, `AcousticGetTraceSizes()`
@*/
PetscErrorCode AcousticSetTraceInterval(Acoustic ac, PetscInt k)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  AcousticCheckNotSetUp(ac, "AcousticSetTraceInterval()");
  PetscCheck(k >= 1, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "Trace interval -ac_trace_every %" PetscInt_FMT " must be >= 1", k);
  ac->every = k;
  PetscFunctionReturn(0);
}
