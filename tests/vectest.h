/* What the device-vector tests share (tests/vectest.c, vectest_ops.c, compiled into each tests/test_vec*.c): a device
   vector and its host twin holding the same values, checks that fail on every rank together, and the sequences of
   operations that VECSEQOPENCL and VECMPIOPENCL run alike against VECSEQ and VECMPI. */
#ifndef SBPMG_VECTEST_H
#define SBPMG_VECTEST_H

#include "harness.h"
#include <sbpmg/private/vecimpl.h>

#define VT_EPS PETSC_MACHINE_EPSILON

PetscMPIInt VecTestRank(void); /* on PETSC_COMM_WORLD */
PetscMPIInt VecTestSize(void);

/* Fail on every rank of PETSC_COMM_WORLD if the check failed on any (the failing rank says why): a check that fails on
   one rank only must not leave the others waiting in the next collective. */
void VecTestAllOk(int ok, const char *fmt, ...);

/* A global length and a layout on PETSC_COMM_WORLD: kind 0 PETSC_DECIDE, 1 uneven (rank r gets a share ~ r + 1),
   2 all on the last rank */
typedef struct {
  PetscInt N;
  int      kind;
} VecTestLayout;
PetscInt VecTestLocalSize(const VecTestLayout *);

/* The local part of v: entries [rstart, rend) of the random sequence of length N in [lo, hi) from seed (so the values
   do not depend on the layout) */
void VecTestFillRandom(Vec v, PetscInt N, unsigned long seed, PetscReal lo, PetscReal hi);

/* A device vector on cl (NULL: the default context) of local length n (or PETSC_DECIDE) and global length N on comm
   (VECSEQOPENCL on one rank, VECMPIOPENCL on more), and an independent host vector of the same layout (VECSEQ, VECMPI)
   with the same values (VecTestFillRandom); the device vector's values start on the device, as inside a solver. */
void VecTestMakePair(MPI_Comm comm, SbpmgCL cl, PetscInt n, PetscInt N, unsigned long seed, PetscReal lo, PetscReal hi, Vec *d, Vec *h);

/* Local parts entry by entry, exact (ulps 0: bit for bit) or |d - h| <= ulps eps max(|h|, floor), and the global 1-norms
   (PETSc caches norms by object state: an operation that left the state alone shows here). Collective on d's
   communicator. */
void VecTestCheckValues(const char *what, Vec d, Vec h, PetscReal ulps, PetscReal floor);
/* A reduction result (the same on every rank): |d - h| <= 4 N eps scale. Collective on PETSC_COMM_WORLD. */
void VecTestCheckReduction(const char *what, PetscInt N, PetscReal d, PetscReal h, PetscReal scale);
/* The offload mask of v is want on every rank */
void VecTestCheckMask(const char *what, Vec v, PetscOffloadMask want);

/* This process's transfer counters and whole-vector syncs, and the check that between two snapshots nothing was sent
   and only reduction results (at most max_scalars scalars per read) came back */
typedef struct {
  SbpmgCLStats   cl;
  PetscLogDouble htod, dtoh;
} VecTestSnap;
void VecTestSnapshot(VecTestSnap *);
void VecTestNoVectorTransfer(const char *what, const VecTestSnap *, const VecTestSnap *, int max_scalars);

/* v is of type type */
void VecTestAssertType(Vec v, VecType type);
/* A vector of local length n on comm made by VecSetFromOptions() with -vec_type type */
Vec VecTestFromOptions(MPI_Comm comm, PetscInt n, const char *type);
/* VecDuplicate() and VecDuplicateVecs() of v keep its type and its device context */
void VecTestDuplicates(Vec v);

/* A KSP of type on A without a preconditioner, to rtol in at most maxit iterations (hist: the residual history is kept
   there, room for 1000), set up */
KSP VecTestCreateKSP(Mat A, KSPType type, PetscReal rtol, PetscInt maxit, PetscReal hist[]);

/* What one KSPSolve did */
typedef struct {
  PetscInt           its, nhist;
  KSPConvergedReason reason;
  PetscReal          hist[1000];
  VecTestSnap        before, after; /* around KSPSolve */
  Vec                x;             /* the solution, copied into a host vector */
} VecTestSolve;

/* KSPCG to 1e-10 (at most 1000 iterations) on A x = b; b's values are made current on the device first, as in an
   application */
void VecTestSolveCG(Mat A, Vec b, VecTestSolve *r);
/* A device solve d against the host solve h: converged alike in as many iterations, residual histories within 1e-9 of
   the first residual, solutions within 1e-8 (infinity norms); while iterating, d sent nothing to the device, made no
   whole-vector copy and read back single scalars only, more than reads_per_it per iteration. The solutions are
   destroyed. */
void VecTestCompareSolves(const char *what, VecTestSolve *d, VecTestSolve *h, PetscInt reads_per_it);

/* The lengths of the sequential tests, and a test run for each */
#define VEC_TEST_NSIZES 4
extern const PetscInt VecTestSizes[VEC_TEST_NSIZES];
void                  VecTestForSizes(void (*)(MPI_Comm, PetscInt, PetscInt));

/* Every element-wise operation with a device output, on device vectors of one context (x, y, w, v[0..3)), in a row */
void VecTestDeviceOperations(Vec x, Vec y, Vec w, Vec v[3]);

/* Host fallbacks on a device pair (d, h) and a host pair: the stride gather of component 1 of b (block size 3) into s and
   the scatter of s into component 2; COO assembly of n entries ci, cv, added and inserted; VecGetLocalVector;
   VecSetRandom with seed 77; VecPlaceArray/VecResetArray with a device operation in between. */
void VecTestStrides(Vec bd, Vec bh, Vec sd, Vec sh);
void VecTestCOO(Vec xd, Vec xh, PetscInt n, const PetscInt ci[], const PetscScalar cv[]);
void VecTestLocalVector(Vec yd, Vec yh);
void VecTestSetRandom(Vec yd, Vec yh);
void VecTestPlaceReset(Vec yd, Vec yh);
/* VecGetSubVector() of is on both pairs: compared (the device one of yd's type), changed by scale and shift (1 and 0:
   only read, so nothing is written back), restored (copied back on the device: yd then valid there only, when
   on_device), and the parents compared */
void VecTestSubVector(const char *what, Vec yd, Vec yh, IS is, PetscScalar scale, PetscScalar shift, PetscBool on_device);

/* Every element-wise operation of a device pair and a host pair of local length n (or PETSC_DECIDE) of N on comm,
   compared after each */
void VecTestElementwise(MPI_Comm comm, PetscInt n, PetscInt N);
/* Every reduction, split-phase ones included, against the host, with no vector moved */
void VecTestReductions(MPI_Comm comm, PetscInt n, PetscInt N);
/* The same values give the same bits every time, on a copy made another way, and on every rank */
void VecTestReductionsReproducible(MPI_Comm comm, PetscInt n, PetscInt N);
/* Every operation the host type (host: a VECSEQ or VECMPI) has is the device vector's own (device or fallback) or
   data-free: none of the host type's would read a stale host mirror */
void VecTestOpsTableCovered(Vec host, Vec dev, const char *hostname);

#endif
