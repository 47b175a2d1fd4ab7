/* The ghost exchange layer's private interface (src/halo): the exchange of a DMDA's ghost nodes between the devices of
   several MPI ranks, used by every SBP-SAT and multigrid level; not installed. */
#ifndef SBPMG_HALOIMPL_H
#define SBPMG_HALOIMPL_H

#include <sbpmg/private/vecimpl.h>

/* The ghost exchange of a DMDA (box stencil) between the devices of several MPI ranks (src/halo/halo.c, kernels/halo.cl): the
   owned block of a device vector is copied into a ghosted patch on the device, only the strips the 8 neighbours need cross
   to the host (SbpmgCLReadBuffer), go through MPI, and come back (SbpmgCLWriteBuffer) into the ghost region of the patch.
   SbpHaloBegin() posts the messages and returns with them in flight; a caller may enqueue work on the owned block meanwhile;
   SbpHaloEnd() completes them and fills the ghosts. An exchange moves fp64 values (the vectors of the operator and the fp64
   V-cycle) or fp32 ones (the single-precision V-cycle's level vectors, src/mg), as created. */
typedef struct _n_SbpHalo *SbpHalo;
struct _n_SbpHalo {
  SbpmgCL     cl;   /* holds a reference */
  MPI_Comm    comm; /* the DMDA's (PETSc's inner) communicator */
  PetscMPIInt tag;
  PetscInt    xs, ys, xm, ym;     /* owned block */
  PetscInt    gxs, gys, gxm, gym; /* ghosted patch */
  PetscBool   single;             /* the values are fp32 (else PetscScalar) */
  size_t      esize;              /* bytes per value */
  PetscInt    nnb;                /* neighbours exchanged with (at most 8) */
  PetscMPIInt nb[8];              /* their ranks */
  PetscInt    soff[9], roff[9];   /* neighbour k: [soff[k], soff[k+1]) of the send strips, [roff[k], roff[k+1]) of the received ones */
  cl_mem      patch;              /* the ghosted patch, gxm x gym, r fastest */
  cl_mem      sidx, ridx;         /* owned-block index of each value sent; patch index of each value received (int) */
  cl_mem      sbuf, rbuf;         /* the strips on the device */
  char       *hs, *hr;            /* and on the host, in staging memory (SbpmgCLCreateStaging) */
  cl_mem      stage;              /* ... which this buffer maps */
  MPI_Request req[16];
  PetscBool   inflight;
  cl_kernel   kpack, kunpack; /* looked up at the first exchange, owned by the program cache */
};

PETSC_INTERN PetscErrorCode SbpHaloCreate(DM, SbpmgCL, PetscBool, SbpHalo *);
PETSC_INTERN PetscErrorCode SbpHaloDestroy(SbpHalo *);
PETSC_INTERN PetscErrorCode SbpHaloBegin(SbpHalo, Vec);
PETSC_INTERN PetscErrorCode SbpHaloBeginBuffer(SbpHalo, cl_mem); /* the owned block given as a device buffer of the exchange's precision */
PETSC_INTERN PetscErrorCode SbpHaloEnd(SbpHalo);
/* The device bytes of an exchange of a gxm x gym patch around an xm x ym owned block, esize bytes per value (the memory plan): the
   patch, and for each ghost value (as many sent as received) its index, the strips on the device and the staging memory. */
PETSC_INTERN size_t SbpHaloPlanBytes(PetscInt, PetscInt, PetscInt, PetscInt, size_t);

#endif
