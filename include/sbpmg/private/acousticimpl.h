/* The acoustic layer's private interface (src/acoustic): the object, its regions and kernels, the host reference
   stencil; not installed. */
#ifndef SBPMG_ACOUSTICIMPL_H
#define SBPMG_ACOUSTICIMPL_H

#include <sbpmg/private/vecimpl.h>

/* ---------------------------------------------------------------- logging (registered by AcousticInitializePackage) */
PETSC_INTERN PetscLogEvent SBPMG_AcInner, SBPMG_AcPML, SBPMG_AcSource;

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
  char             tuneopts[512]; /* AcousticSetTuning_Private(): "key=value,..." applied to the context's tuning for this object */
  /* derived at set-up */
  PetscReal dt, coef[3][5], W, velmax, velmin, eta0[3];
  PetscInt  px, py, pz, pxy, ox, origin; /* padded layout: (i,j,k) at origin + i + j px + k pxy */
  size_t    npad;                        /* px * py * pz */
  PetscInt  lo[AC_NREGIONS][3], hi[AC_NREGIONS][3];
  PetscInt  ecount, eoff[3]; /* the eta profiles: eta_a(i) at eoff[a] + i, i in [-9, n_a + 8] */
  PetscInt  step;            /* n: u holds u^n */
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
  cl_kernel   kinner, kpml, ksrc, kwhole, kpmlall;
  cl_mem      dtab;          /* the region table of ac_pml_all */
  PetscInt    ngroups, ntab; /* work-groups of one ac_pml_all launch, regions in its table */
  char        kopts[400];    /* -D options the kernels were built with */
  /* host reference */
  PetscReal *hu, *hv, *hvp, *hphi, *heta;
};

/* object (src/acoustic/object.c) */
PETSC_INTERN PetscErrorCode AcousticSetTuning_Private(Acoustic, const char[]);
/* set-up (src/acoustic/setup.c, kernels.c) */
PETSC_INTERN PetscErrorCode AcousticSetUpKernels_Private(Acoustic);
PETSC_INTERN PetscErrorCode AcousticSetUpDevice_Private(Acoustic, const PetscReal *);
PETSC_INTERN PetscErrorCode AcousticGetUtilKernel_Private(Acoustic, const char[], cl_kernel *);
PETSC_INTERN PetscErrorCode AcousticComputeCoefficients_Private(Acoustic, const PetscReal *, PetscReal *, PetscReal *);
PETSC_INTERN PetscErrorCode AcousticStencilWeights(PetscReal, PetscReal[5]);
PETSC_INTERN PetscErrorCode AcousticWavelet(Acoustic, PetscInt, PetscReal *);
/* stepping (src/acoustic/step.c) */
PETSC_INTERN PetscErrorCode AcousticStepRegions(Acoustic, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode AcousticStepDevice_Private(Acoustic, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode AcousticStepHost_Private(Acoustic, PetscInt, PetscInt);
/* fields (src/acoustic/fields.c) */
PETSC_INTERN PetscErrorCode AcousticGetPlane(Acoustic, AcousticField, PetscInt, PetscReal[]);
PETSC_INTERN PetscErrorCode AcousticGetLocalField_Private(Acoustic, AcousticField, PetscReal[]);
/* files (src/acoustic/io.c: no object, only the formats) */
PETSC_INTERN PetscErrorCode AcousticReadVelocityFile_Private(const char[], const PetscInt[3], PetscInt, PetscInt, PetscReal[]);
PETSC_INTERN PetscErrorCode AcousticSliceToRGB_Private(PetscInt, const PetscReal[], unsigned char[]);
PETSC_INTERN PetscErrorCode AcousticWritePNG_Private(const char[], PetscInt, PetscInt, const unsigned char[]);
PETSC_INTERN PetscErrorCode AcousticVTKCreate_Private(MPI_Comm, const PetscInt[3], const PetscReal[3], PetscMPIInt, const PetscInt[], DM *, Vec *);
PETSC_INTERN PetscErrorCode AcousticVTKWrite_Private(const char[], Vec);
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

/* A real number for an error message: PETSc's %g for finite values (as the rest of the library prints them), "nan",
   "inf" or "-inf" otherwise (PETSc's %g would print "nan."). */
static inline PetscErrorCode AcRealString(PetscReal v, char buf[], size_t len)
{
  PetscFunctionBegin;
  if (PetscIsNanReal(v))
    PetscCall(PetscStrncpy(buf, "nan", len));
  else if (PetscIsInfReal(v))
    PetscCall(PetscStrncpy(buf, v > 0 ? "inf" : "-inf", len));
  else
    PetscCall(PetscSNPrintf(buf, len, "%g", (double)v));
  PetscFunctionReturn(0);
}

#define AcIndex(ac, i, j, k) ((ac)->origin + (i) + (j) * (ac)->px + (k) * (ac)->pxy)

#endif
