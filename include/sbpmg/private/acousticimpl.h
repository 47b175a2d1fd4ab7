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
PETSC_INTERN const char *const AcousticRegionNames[];

/* Model bytes per point (docs/acoustic.md): the spec's (stored eta) and this implementation's (1D eta profiles). */
#define AC_SPEC_BYTES_INNER 16.0
#define AC_SPEC_BYTES_PML   28.0
#define AC_BYTES_INNER      16.0
#define AC_BYTES_PAIR       20.0 /* two steps of an inner point in one pass (ac_pair): read u^n, u^{n-1}, vp, write u^{n+1}, u^{n+2} */
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
  PetscInt         tile[3], vec, pmltile[3], pmlvec, rows, fused, pmlmerge; /* rows, fused, pmlmerge: -1 default, 0 no, 1 yes */
  PetscBool        localmem, tileset, setupcalled, view;
  PetscInt         fastdiv;     /* -1 default, 0 IEEE divisions, 1 reciprocals in the PML */
  PetscInt         pmlqueue;    /* -1 default, 0 one queue, 1 the PML launches in a second queue, concurrent with the inner one */
  PetscInt         prefetch[2]; /* planes of cache prefetch ahead in the inner and the PML kernels (-1 default, 0 none) */
  PetscInt         unroll[2];   /* planes per iteration of the inner and the PML sweeps (-1 default) */
  PetscInt         pair;        /* -1 default, 0 one step per pass, 1 two steps per pass over the inner region (ac_pair) */
  PetscInt         pairtile[3]; /* ac_pair's work-group (x, y) and planes per work-group (-1: default) */
  char             clopts[128]; /* extra OpenCL build options (-ac_cl_options) */
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
  SbpmgCL          cl;
  cl_mem           du, dv, dvp, dphi, deta;
  cl_kernel        kinner, kpml, ksrc, kwhole, kpmlall;
  cl_mem           dtab;                                 /* the region table of ac_pml_all */
  PetscInt         ngroups, ntab;                        /* work-groups of one ac_pml_all launch, regions in its table */
  char             kopts[400];                           /* -D options the kernels were built with */
  PetscInt         ktile[3], kvec, kpmltile[3], kpmlvec; /* the tile they were built for */
  PetscBool        klocal, krows, kfused, kpmlmerge;
  cl_command_queue qpml;                /* -ac_pml_queue on one rank: the PML launches' own queue (NULL: the context's) */
  cl_kernel        kpair;               /* two steps per pass (NULL: off) */
  cl_kernel        kpmlout, kpmlallout; /* with kpair: ac_pml, ac_pml_all writing the new field apart from the old (-DAC_PML_OUT=1) */
  PetscInt         kpairtile[3];        /* the work-group and planes it was built for */
  cl_mem           dspare[2];           /* with kpair: the fields u^{n+1} and u^{n+2} of a pass (then u^{n-1} and u^n of the next) */
  /* host reference */
  PetscReal *hu, *hv, *hvp, *hphi, *heta;
};

PETSC_INTERN PetscErrorCode AcousticStepRegions(Acoustic, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode AcousticSetPMLTile(Acoustic, PetscInt, PetscInt, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode AcousticSetFused(Acoustic, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode AcousticSetRowKernels(Acoustic, PetscInt);
PETSC_INTERN PetscErrorCode AcousticStepDevice_Private(Acoustic, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode AcousticStepHost_Private(Acoustic, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode AcousticSetUpKernels_Private(Acoustic);
PETSC_INTERN PetscErrorCode AcousticWavelet(Acoustic, PetscInt, PetscReal *);
PETSC_INTERN PetscReal      AcousticRandom(PetscInt, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode AcousticStencilWeights(PetscReal, PetscReal[5]);
PETSC_INTERN PetscErrorCode AcousticLaplacianHost(const PetscInt[3], const PetscReal[3], const PetscReal[], PetscReal[]);
PETSC_INTERN PetscErrorCode AcousticGetPlane(Acoustic, AcousticField, PetscInt, PetscReal[]);
PETSC_INTERN PetscErrorCode AcousticWritePNG_Private(const char[], PetscInt, PetscInt, const unsigned char[]);
PETSC_INTERN PetscErrorCode AcousticReadVelocityFile_Private(const char[], const PetscInt[3], PetscInt, PetscInt, PetscReal[]);
PETSC_INTERN PetscErrorCode AcousticGetLocalField_Private(Acoustic, AcousticField, PetscReal[]);

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

/* Is (i, j, k) in the box [lo, hi)? */
static inline PetscBool AcInBox(const PetscInt lo[3], const PetscInt hi[3], PetscInt i, PetscInt j, PetscInt k)
{
  return (i >= lo[0] && i < hi[0] && j >= lo[1] && j < hi[1] && k >= lo[2] && k < hi[2]) ? PETSC_TRUE : PETSC_FALSE;
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
