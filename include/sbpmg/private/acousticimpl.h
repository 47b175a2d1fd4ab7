/* The acoustic layer's private interface (src/acoustic): the object, its regions and kernels, the host reference
   stencil; not installed. */
#ifndef SBPMG_ACOUSTICIMPL_H
#define SBPMG_ACOUSTICIMPL_H

#include <sbpmg/private/vecimpl.h>

/* ---------------------------------------------------------------- logging (registered by AcousticInitializePackage) */
PETSC_INTERN PetscLogEvent SBPMG_AcInner, SBPMG_AcPML, SBPMG_AcSource, SBPMG_AcReceivers;

/* Regions of one step: the inner box and the six PML slabs (z slowest: the z slabs span the whole x-y plane, the y
   slabs the whole x extent of the inner z range, the x slabs the inner y and z ranges). */
typedef enum { AC_REGION_INNER, AC_REGION_ZLO, AC_REGION_ZHI, AC_REGION_YLO, AC_REGION_YHI, AC_REGION_XLO, AC_REGION_XHI, AC_NREGIONS } AcousticRegion;
#define AC_REGIONS_ALL ((1 << AC_NREGIONS) - 1)
#define AC_REGIONS_PML (AC_REGIONS_ALL & ~1)

/* Model bytes per point (docs/acoustic.md): the spec's (stored eta) and this implementation's (1D eta profiles). */
#define AC_SPEC_BYTES_INNER 16.0
#define AC_SPEC_BYTES_PML   28.0
#define AC_BYTES_INNER      16.0
#define AC_BYTES_PML        24.0
#define AC_FLOPS_INNER      40.0
#define AC_FLOPS_PML        66.0
/* a step no run reaches (the sources' step counts are 64-bit: a delay of 1e9 s is 1e12 steps of 1 ms) */
#define AC_NEVER ((PetscInt64)1 << 62)

/* A point source as the user gave it: position in metres, delay in seconds, amplitude. */
typedef struct {
  PetscReal x[3], delay, amplitude;
} AcSourceSpec;

/* Sources and receivers at set-up (src/acoustic/points.c; docs/acoustic.md "Sources, receivers and traces"). A source or a
   receiver at a position touches the 8 grid points of its cell with trilinear weights (a grid point: one point, weight 1):
   a receiver interpolates u there, a source adds its value there with the same weights (the transpose, so that swapping a
   source and a receiver gives the same trace). */
typedef struct {
  /* sources: source s adds amplitude * w(t_n - delay) at the steps n in [sfirst[s], send[s]) and nothing outside. The table
     holds the values of a window of steps [tbase, tbase + W) of every source (source s at soff[s] = s W, slen[s] = W), and
     is refilled when a step leaves it: its size follows the number of sources, never a delay, a frequency or a time step */
  PetscInt    nsource, W, tbase, *soff, *slen, ntab;
  PetscInt64 *sfirst, *send;
  PetscReal  *tab;
  PetscInt64  firststep, laststep; /* no source adds anything before firststep or from laststep on */
  PetscInt64  userlen;             /* a user wavelet: the steps it covers for every source (AC_NEVER: the Ricker) */
  PetscInt    usersrc;             /* ... the source that runs out first */
  /* this rank's targets, grid points sorted by padded index: target t adds to v[tidx[t]] the sum over its contributions
     c in [tstart[t], tstart[t + 1]) of cw[c] times the table of source csrc[c] */
  PetscInt   ntarget, *tidx, *tstart, ncontrib, *csrc;
  PetscReal *cw;
  PetscInt   twin[2]; /* targets in the planes [0, zedge[0]): [0, twin[0]); in [zedge[1], nl[2]): [twin[1], ntarget) */
  /* receivers: all of them (nrectotal), this rank's (those whose cell starts in its planes; the cell's upper plane may be
     a halo plane) as global numbers rid[] with 8 padded indices and weights each */
  PetscInt   nrectotal, nrec, *rid, *ridx;
  PetscReal *rw;
  /* traces: sample m is u^{m every}; the host holds samples [0, nflushed) time-major (nrec values each), the device buffer
     the samples [nflushed, nsamples) (cap at most) */
  PetscInt   nsamples, nflushed, cap, hcap;
  PetscReal *htr;
  /* device copies */
  cl_kernel kinject, ksample;
  cl_mem    dtidx, dtstart, dcsrc, dcw, dsoff, dslen, dtab, dridx, drw, dtrace;
} AcSurvey;

struct _AcousticOps {
  PetscErrorCode (*view)(Acoustic, PetscViewer);
};

struct _p_Acoustic {
  PETSCHEADER(struct _AcousticOps);
  /* settings */
  PetscInt         n[3], ndamp, src[3];
  PetscReal        h[3], cfl, vel, vmax, fmax, amplitude;
  PetscReal       *velarray; /* nx*ny*nz, x fastest; NULL: constant vel or file */
  char             velfile[PETSC_MAX_PATH_LEN];
  AcousticInitType init;
  AcousticBackend  backend;
  PetscInt         seed;
  PetscBool        setupcalled, view;
  /* sources (none in the list: the point source src with the Ricker of fmax and amplitude), their wavelet (NULL: the
     Ricker), receivers (3 coordinates each, m), trace interval in steps, layered model (nlayers velocities, then
     nlayers - 1 interface depths in m) */
  AcSourceSpec *srclist;
  PetscInt      nsrclist, nwavelet, nrecpos, every, nlayers;
  PetscReal    *wavelet, *recpos, *layers;
  /* pictures: the plane of AcousticWriteSlicePNG() (axis 0..2, index; -1: the centre) and its colour scale (0 until the
     first snapshot fixes it, unless the user set it) */
  PetscInt  snap_axis, snap_index;
  PetscReal snap_scale;
  char      tuneopts[512]; /* AcousticSetTuning_Private(): "key=value,..." applied to the context's tuning for this object */
  /* derived at set-up */
  PetscReal dt, coef[3][5], W, velmax, velmin, eta0[3];
  PetscInt  px, py, pz, pxy, ox, origin; /* padded layout: (i,j,k) at origin + i + j px + k pxy */
  size_t    npad;                        /* px * py * pz */
  PetscInt  lo[AC_NREGIONS][3], hi[AC_NREGIONS][3];
  PetscInt  ecount, eoff[3]; /* the eta profiles: eta_a(i) at eoff[a] + i, i in [-9, n_a + 8] */
  PetscInt  step;            /* n: u holds u^n */
  PetscInt  check_every;     /* AcousticCheckFinite() every that many steps (0: never) */
  /* slab decomposition along z (docs/acoustic.md): this rank owns planes [zs, zs + nl[2]) of the grid and holds 4 halo
     planes on each side; the fields, the region boxes lo/hi and AcIndex are local (k = global plane - zs) */
  PetscMPIInt size, rank, down, up; /* ranks of the slabs below and above (-1: none) */
  PetscMPIInt tag;
  PetscInt    zs, nl[3], *zstart; /* nl: local sizes; zstart[r]: first plane of rank r (size + 1 entries) */
  PetscInt    zedge[2];           /* planes [0, zedge[0]) and [zedge[1], nl[2]) are sent; [zedge[0], zedge[1]) overlap */
  float      *xbuf;               /* device backend on several ranks: 2 send and 2 receive buffers of 4 planes, in staging memory */
  cl_mem      xstage;             /* ... which this buffer maps (SbpmgCLCreateStaging) */
  /* device */
  SbpmgCL     cl;
  SbpmgTuning tune; /* the kernels' shapes: the context's tuning (include/sbpmg/private/tuning.h, keys ac_*) and tuneopts */
  cl_mem      du, dv, dvp, dphi, deta;
  cl_kernel   kinner, kpml, kwhole, kpmlall;
  cl_mem      dtab;                   /* the region table of ac_pml_all */
  size_t      plan_device, plan_host; /* the memory plan of the set-up: bytes on this rank (AcousticPlanMemory_Private) */
  PetscInt    ngroups, ntab;          /* work-groups of one ac_pml_all launch, regions in its table */
  char        kopts[512];             /* -D options the kernels were built with */
  /* host reference */
  PetscReal *hu, *hv, *hvp, *hphi, *heta;
  AcSurvey   sv;
};

/* object (src/acoustic/object.c) */
PETSC_INTERN PetscErrorCode AcousticSetTuning_Private(Acoustic, const char[]);
/* set-up (src/acoustic/setup.c, kernels.c) */
PETSC_INTERN PetscErrorCode AcousticSetUpKernels_Private(Acoustic);
PETSC_INTERN PetscErrorCode AcousticSetUpDevice_Private(Acoustic, const PetscReal *);
PETSC_INTERN PetscErrorCode AcousticPlanMemory_Private(Acoustic);
PETSC_INTERN PetscErrorCode AcousticGetUtilKernel_Private(Acoustic, const char[], cl_kernel *);
PETSC_INTERN PetscErrorCode AcousticGetPointsKernel_Private(Acoustic, const char[], cl_kernel *);
/* formulas (src/acoustic/physics.c) */
PETSC_INTERN PetscErrorCode AcousticComputeCoefficients_Private(Acoustic, const PetscReal *, PetscReal *, PetscReal *);
PETSC_INTERN PetscErrorCode AcousticStencilWeights(PetscReal, PetscReal[5]);
PETSC_INTERN PetscReal      AcousticRicker(PetscReal, PetscReal, PetscReal);
PETSC_INTERN void           AcousticTrilinear(const PetscReal[3], const PetscInt[3], PetscInt[8][3], PetscReal[8]);
PETSC_INTERN PetscReal      AcousticLayerVelocity(PetscInt, const PetscReal[], PetscReal);
/* the survey's settings (src/acoustic/survey.c) */
PETSC_INTERN PetscErrorCode AcousticAppendReceiversLine_Private(Acoustic, const PetscReal[3], const PetscReal[3], PetscInt);
/* sources and receivers (src/acoustic/points.c) */
PETSC_INTERN PetscErrorCode AcousticSetUpSurvey_Private(Acoustic);
PETSC_INTERN PetscErrorCode AcousticDestroySurvey_Private(Acoustic);
PETSC_INTERN PetscErrorCode AcousticCheckWaveletLength_Private(Acoustic, PetscInt);
PETSC_INTERN PetscErrorCode AcousticInjectDevice_Private(Acoustic, PetscInt, PetscInt, cl_mem);
PETSC_INTERN PetscErrorCode AcousticInjectHost_Private(Acoustic, PetscReal *);
PETSC_INTERN PetscErrorCode AcousticRecord_Private(Acoustic);
PETSC_INTERN PetscErrorCode AcousticResetTraces_Private(Acoustic);
PETSC_INTERN PetscErrorCode AcousticFlushTraces_Private(Acoustic);
PETSC_INTERN PetscErrorCode AcousticReserveTraces_Private(Acoustic, PetscInt);
PETSC_INTERN PetscErrorCode AcousticGridCoordinates_Private(Acoustic, const PetscReal[3], const char[], PetscInt, PetscReal[3], PetscBool *);
/* stepping (src/acoustic/step.c) */
PETSC_INTERN PetscErrorCode AcousticStepRegions(Acoustic, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode AcousticStepDevice_Private(Acoustic, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode AcousticStepHost_Private(Acoustic, PetscInt, PetscInt);
/* fields (src/acoustic/fields.c) */
PETSC_INTERN PetscErrorCode AcousticGetSlice_Private(Acoustic, AcousticField, PetscInt, PetscInt, PetscReal[]);
PETSC_INTERN PetscErrorCode AcousticGetLocalField_Private(Acoustic, AcousticField, PetscReal[]);
PETSC_INTERN PetscErrorCode AcousticShareError_Private(Acoustic, PetscErrorCode, const char[]);
PETSC_INTERN PetscErrorCode AcousticAgree_Private(Acoustic, PetscErrorCode, const char[]);
PETSC_INTERN PetscErrorCode AcousticAgreeEnd_Private(Acoustic, PetscErrorCode, PetscMPIInt, const char[]);
/* files (src/acoustic/io.c: no object, only the formats) */
PETSC_INTERN PetscErrorCode AcousticReadVelocityFile_Private(const char[], const PetscInt[3], PetscInt, PetscInt, PetscReal[]);
PETSC_INTERN PetscErrorCode AcousticReadTable_Private(const char[], const char[], const char[], PetscInt, PetscInt, const PetscReal[], PetscInt *,
                                                      PetscReal **);
PETSC_INTERN PetscErrorCode AcousticWriteNPY_Private(const char[], PetscInt, PetscInt, const PetscReal[]);
PETSC_INTERN PetscErrorCode AcousticVTIWriteHeader_Private(FILE *, const PetscInt[3], const PetscReal[3], PetscMPIInt, const PetscInt[]);
PETSC_INTERN PetscErrorCode AcousticVTIWritePiece_Private(FILE *, size_t, const PetscReal[]);
PETSC_INTERN PetscErrorCode AcousticVTIWriteEnd_Private(FILE *);

/* pictures (src/acoustic/image.c, font.c: an RGB canvas, text in a 5 x 7 bitmap font, a plot with axes and a colour bar;
   PNG through libpng) */
typedef struct {
  PetscInt       w, h;
  unsigned char *rgb; /* 3 bytes per pixel, rows top to bottom */
} AcCanvas;
typedef struct {
  PetscInt w, h;             /* the image */
  PetscInt px, py, pw, ph;   /* the plot: the array's pixels */
  PetscInt bx, by, bw, bh;   /* the colour bar */
  PetscInt title_y, label_y; /* the title line, the vertical axis's name */
} AcPlotLayout;
typedef struct {
  const char *title;  /* the first line above the plot */
  const char *xlabel; /* the horizontal axis's name, below it */
  const char *ylabel; /* the vertical axis's name, above it */
  PetscReal   x0, x1; /* coordinates of the first and last column's centre */
  PetscReal   y0, y1; /* ... of the first (top) and last row's centre */
  PetscReal   scale;  /* the colour map spans [-scale, scale], values beyond are clipped */
  PetscBool   aspect; /* one pixel scale on both axes (a slice) or one per axis (a shot gather) */
} AcPlotInfo;
PETSC_INTERN const unsigned char *AcFontGlyph(char);
PETSC_INTERN void                 AcColour(PetscReal, unsigned char[3]);
PETSC_INTERN void                 AcPlotLayoutCompute(PetscInt, PetscInt, PetscBool, AcPlotLayout *);
PETSC_INTERN PetscErrorCode       AcPlotRender(PetscInt, PetscInt, const PetscReal[], const AcPlotInfo *, AcCanvas *);
PETSC_INTERN PetscErrorCode       AcCanvasDestroy(AcCanvas *);
PETSC_INTERN PetscErrorCode       AcCanvasWritePNG(const AcCanvas *, const char[]);
/* pictures and volumes of the object (src/acoustic/pictures.c) */
PETSC_INTERN PetscErrorCode AcousticSlicePlot_Private(Acoustic, PetscReal[], AcPlotInfo *, char[], size_t);

/* the Laplacian alone (src/acoustic/laplacian.c) */
PETSC_INTERN PetscErrorCode AcousticLaplacianHost(const PetscInt[3], const PetscReal[3], const PetscReal[], PetscReal[]);

#define AcousticCheckNotSetUp(ac, what) \
  PetscCheck(!(ac)->setupcalled, PetscObjectComm((PetscObject)(ac)), PETSC_ERR_ARG_WRONGSTATE, "%s must be called before AcousticSetUp()", what)
#define AcousticCheckSetUp(ac) PetscCheck((ac)->setupcalled, PetscObjectComm((PetscObject)(ac)), PETSC_ERR_ARG_WRONGSTATE, "Call AcousticSetUp() first")

/* The 25-point Laplacian at offset idx of a padded field with strides px (y) and pxy (z); c[a][m] = weight m of axis a
   (already divided by h_a^2), the centre weight being c[0][0] + c[1][0] + c[2][0]. */
static inline PetscReal AcLapPoint(const PetscReal *u, PetscInt idx, PetscInt px, PetscInt pxy, const PetscReal c[3][5])
{
  PetscReal lap = (c[0][0] + c[1][0] + c[2][0]) * u[idx];

  for (PetscInt m = 1; m <= 4; m++) {
    lap += c[0][m] * (u[idx - m] + u[idx + m]);
    lap += c[1][m] * (u[idx - m * px] + u[idx + m * px]);
    lap += c[2][m] * (u[idx - m * pxy] + u[idx + m * pxy]);
  }
  return lap;
}

/* A real number for a message: the fewest digits that read back as the same double (1.0000001, not PETSc's %g "1."), an
   integral value with PETSc's trailing point ("460."), "nan", "inf" or "-inf" otherwise (PETSc's %g would print "nan."). */
static inline PetscErrorCode AcRealString(PetscReal v, char buf[], size_t len)
{
  PetscFunctionBegin;
  if (PetscIsNanReal(v))
    PetscCall(PetscStrncpy(buf, "nan", len));
  else if (PetscIsInfReal(v))
    PetscCall(PetscStrncpy(buf, v > 0 ? "inf" : "-inf", len));
  else {
    char s[48];
    int  p = 1;
    for (; p < 17; p++) {
      (void)snprintf(s, sizeof(s), "%.*g", p, (double)v);
      if (strtod(s, NULL) == (double)v) break;
    }
    if (v != 0 && PetscAbsReal(v) < 1e15) p = PetscMax(p, (int)PetscFloorReal(PetscLog10Real(PetscAbsReal(v))) + 1); /* 2000, not 2e+03 */
    (void)snprintf(s, sizeof(s), "%.*g", p, (double)v);
    if (!strpbrk(s, ".e")) (void)strncat(s, ".", sizeof(s) - strlen(s) - 1);
    PetscCall(PetscStrncpy(buf, s, len));
  }
  PetscFunctionReturn(0);
}

#define AcIndex(ac, i, j, k) ((ac)->origin + (i) + (j) * (ac)->px + (k) * (ac)->pxy)

/* max(a, b), NaN where either is (a field that blew up must not read as finite). */
static inline PetscReal AcNanMax(PetscReal a, PetscReal b)
{
  return (PetscIsNanReal(a) || PetscIsNanReal(b)) ? (PetscReal)NAN : PetscMax(a, b);
}

#endif
