/* The coefficient tables of the 1D SBP blocks (sbp1d_tables.c), read by sbp1d.c and assemble.c. */
#ifndef SBPMG_SBP1D_TABLES_H
#define SBPMG_SBP1D_TABLES_H

#include <sbpmg/private/sbpimpl.h>

#define SBP1D_MAX_STENCIL 7 /* 2q + 1 for p = 6 */
#define SBP1D_MAX_CLOSURE 9 /* nD1w for p = 6 */

/* One coefficient of the left block of h M(c): entry (i, j), i <= j, gets v c_k. */
typedef struct {
  PetscInt  i, j, k;
  PetscReal v;
} SbpSparse1DMEntry;

/* The left-end tables of one order (spec-sbp-sat-highorder.md 1.1-1.5); sizes as in its table 1.1. */
typedef struct {
  PetscInt         order, nH, nD, nD1w, nBS, nM, q, minN;
  PetscInt         l;             /* the SAT's lines in the psi minimum (3.2) */
  PetscReal        thetaR, alpha; /* ... and its constants theta_R = w_0 and alpha */
  const PetscReal *w;                        /* the nH norm weights that are not 1 */
  const PetscReal (*Q)[SBP1D_MAX_CLOSURE];   /* Q = H D1, rows 0..nD-1, columns 0..nD1w-1 */
  const PetscReal (*hD1)[SBP1D_MAX_CLOSURE]; /* h D1 likewise; NULL: Q_ij / w_i */
  const PetscReal *stencil;                  /* the interior row of h D1 (and of Q), offsets -q..q */
  const PetscReal *BS;                       /* the boundary-derivative row, nBS values */
  const PetscReal (*mu)[SBP1D_MAX_STENCIL];  /* interior h M(c): m_{i,i+d} = sum_{o=d-q}^{q} mu[d][o-d+q] c_{i+o} */
  const SbpSparse1DMEntry *M;                /* the left block of h M(c) */
  PetscInt                 nMentries;
} SbpSparse1DTable;

/* The tables of order 2, 4 or 6; NULL for any other order. */
PETSC_INTERN const SbpSparse1DTable *SbpSparse1DGetTable(PetscInt);

#endif
