/* The earthquake-cycle layer's private interface (src/seas: rate-and-state friction on the device and the SEAS BP1-QD driver,
   docs/seas.md); not installed. The layer sits above src/sbp and uses cl, vec, halo and sbp. */
#ifndef SBPMG_SEASIMPL_H
#define SBPMG_SEASIMPL_H

#include <sbpmg/private/sbpimpl.h>
#include <petscts.h>

/* ---------------------------------------------------------------- logging (registered by SeasInitializePackage) */
PETSC_INTERN PetscLogEvent SEAS_Friction, SEAS_FaultStress, SEAS_RHS, SEAS_Output, SEAS_GreenSetUp;

/* ---------------------------------------------------------------- friction (src/seas/friction.c, kernels/friction.cl) */
/* The rate-and-state parameters that are uniform along the fault; a(z) is a vector of the nodes. */
typedef struct {
  PetscReal sigma_n, eta, V0, b, Dc, f0;
  PetscReal rtol;  /* Newton's tolerance (kernels/friction.cl SBPMG_FRICTION_RTOL) */
  PetscInt  maxit; /* Newton's iterations at most (SBPMG_FRICTION_MAX_IT) */
} SeasFrictionParams;

/* The friction's device objects: the context and its two kernels, looked up once for the params' rtol and maxit. */
typedef struct {
  SbpmgCL   cl;
  cl_kernel rates, stress;
} SeasFrictionKernels;

/* The parameters' checks (errors naming the value), a's included (every entry > 0). */
PETSC_INTERN PetscErrorCode SeasFrictionCheck(MPI_Comm, const SeasFrictionParams *, Vec);
/* The rates at n nodes: V (in: the guess, out: the slip rate), rate[0..n) = dpsi/dt and, with write_v, rate[n..2n) = V; psi =
   state[0..n). On the device when every vector is a device vector (kernels given), else by C loops (the reference). The host
   path's error names the first node where Newton failed; the device's leaves NaN there (SeasFrictionCheckRates()). */
PETSC_INTERN PetscErrorCode SeasFrictionRates(const SeasFrictionParams *, SeasFrictionKernels *, PetscInt, PetscBool, Vec, Vec, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode SeasFrictionRatesHost(const SeasFrictionParams *, PetscInt, PetscBool, const PetscReal[], const PetscReal[], const PetscReal[],
                                                  PetscReal[], PetscReal[]);
PETSC_INTERN PetscErrorCode SeasFrictionGetKernels(const SeasFrictionParams *, SbpmgCL, SeasFrictionKernels *);
PETSC_INTERN PetscErrorCode SeasFrictionDestroyKernels(SeasFrictionKernels *);
/* The point formulas of kernels/friction.cl, for tests and the driver's host path */
PETSC_INTERN PetscReal SeasFrictionStrength(const SeasFrictionParams *, PetscReal, PetscReal, PetscReal);
PETSC_INTERN PetscReal SeasFrictionStateRate(const SeasFrictionParams *, PetscReal, PetscReal);
PETSC_INTERN PetscReal SeasFaultStress(PetscReal, PetscReal, PetscReal, PetscReal, PetscReal);

/* ---------------------------------------------------------------- the BP1-QD driver (src/seas/bp1.c, run.c, output.c) */
#define SEAS_NSTATIONS 12
#define SEAS_YEAR      (365.0 * 24 * 3600) /* the benchmark's year, s */
#define SEAS_VEVENT    1e-3                /* max V above it: an event (and the output's fast cadence) */

struct _SeasOps {
  PetscErrorCode (*view)(Seas, PetscViewer);
};

typedef struct {
  PetscReal tstart, tend, peak_v, slip_start, slip0, depth_nucl; /* slip_start: the surface slip when it began; slip0: during it */
} SeasEvent;
#define SEAS_EVENT_GAP 86400.0 /* an event that begins less than a day after the last one ended continues it */

struct _p_Seas {
  PETSCHEADER(struct _SeasOps);
  /* the physics (docs/seas.md "BP1-QD"): SI units */
  PetscReal          rho, cs, mu, a0, amax, H, h, Wf, Vp, Vinit, tf, tau0;
  SeasFrictionParams fr;
  /* the grid: domain, intervals, stretching lengths (0: uniform), the fault cell size asked for (0: none) */
  PetscReal           L[2], l[2], theta[2], fault_dz;
  PetscInt            N[2];
  char                outdir[PETSC_MAX_PATH_LEN];
  PetscBool           write; /* output files */
  PetscBool           setupcalled;
  SbpProblem          p;
  Mat                 A;
  KSP                 ksp;
  Vec                 u, b; /* the volume solution (the next solve's guess) and right-hand side */
  TS                  ts;
  PetscInt            nf, nface; /* fault nodes with z <= Wf (the unknowns); face 1's nodes */
  PetscReal          *z;         /* the depths of face 1's nodes */
  PetscReal          *ahost;     /* a at the fault nodes, on the host */
  PetscReal          *gface;     /* face values of face 1, 2 (host) */
  Vec                 X;         /* the state (psi[0..nf), delta[0..nf)), on the host: the TS's own work on 2 nf numbers is no launch */
  Vec                 Xd, Fd;    /* device problems: a stage's state and rates on the device (one upload, one download a stage) */
  Vec                 avec, kc;  /* a(z) and the SAT penalty coefficient at the fault nodes */
  Vec                 Vg;        /* the slip rate of the last evaluation (the next Newton's guess) */
  Vec                 t, tau;    /* face 1's traction; the shear stress at the fault nodes */
  Vec                 Xlast;     /* the state of the last evaluation, tlast its time */
  Vec                 F;         /* work: the rates of an evaluation outside the TS's stages */
  PetscReal           tlast;
  SeasFrictionKernels k;
  /* counters */
  PetscInt       stages, solves, extra, cg_its, steps, stage_rejects; /* extra: evaluations at step ends (not stages) */
  PetscLogDouble wall;
  PetscReal      vmax_last, vmax_peak, dtmin, dtmax;
  /* events */
  PetscInt   nevents, maxevents;
  SeasEvent *events;
  PetscBool  in_event;
  /* output (src/seas/output.c) */
  FILE     *station[SEAS_NSTATIONS], *devol, *profiles;
  PetscReal t_station, t_devol;              /* the last rows' times */
  PetscInt  nprofile;                        /* devol.dat's depths */
  long      restart_off[SEAS_NSTATIONS + 2]; /* a restart: where the output files ended at the checkpoint */
  /* checkpoint and restart (src/seas/checkpoint.c) */
  char      ckpt[PETSC_MAX_PATH_LEN], restart[PETSC_MAX_PATH_LEN];
  PetscInt  ckpt_every; /* steps between checkpoints (0: at the end only) */
  PetscBool restarted;
  long      header_off; /* where the headers' time-step fields begin (the same in every file) */
  /* the discrete Green's function mode (src/seas/green.c, docs/seas.md "The Green's function mode") */
  PetscBool          green;                          /* -seas_green: tau = tau0 + G delta + t g, no volume solve per stage */
  char               green_file[PETSC_MAX_PATH_LEN]; /* -seas_green_file: G read from it, or computed and written there */
  PetscReal          green_max_mb;                   /* -seas_green_max_mb: G's size at most (0: the device's largest buffer) */
  PetscBool          green_cold;                     /* -seas_green_cold: each column's solve from zero, not the last column's */
  struct _SeasGreen *gr;
  /* the volume solve's initial guess (src/seas/guess.c, docs/seas.md "The initial guess") */
  PetscInt     guess_m, guess_n; /* -seas_guess_basis: the basis's size at most; its size now */
  Vec         *guess_X;          /* the basis of earlier solutions' corrections, oldest first, X_i^T A X_i = 1 */
  Vec          guess_Av;         /* A times the vector joining the basis */
  PetscScalar *guess_L;          /* the Cholesky factor of X^T A X, guess_m x guess_m, row-major, lower */
  PetscScalar *guess_c;          /* the coefficients of the last guess (then work) */
  PetscBool    guess_u0;         /* the last guess u0 is kept in guess_X[guess_n] */
};

/* src/seas/guess.c: the initial guess by projection onto earlier solutions */
PETSC_INTERN PetscErrorCode SeasGuessSetFromOptions(PetscOptionItems *, Seas);
PETSC_INTERN PetscErrorCode SeasGuessForm(Seas, Vec, Vec);
PETSC_INTERN PetscErrorCode SeasGuessAdd(Seas, Vec, Vec);
PETSC_INTERN PetscErrorCode SeasGuessView(Seas, PetscViewer);
PETSC_INTERN PetscErrorCode SeasGuessLoad(Seas, PetscViewer);
PETSC_INTERN PetscErrorCode SeasGuessDestroy(Seas);
PETSC_INTERN PetscErrorCode SeasSetUpProblem(Seas); /* src/seas/bp1.c: SeasSetUp() but the TS */
PETSC_INTERN PetscErrorCode SeasRHSFunction(TS, PetscReal, Vec, Vec, void *);
PETSC_INTERN PetscErrorCode SeasStateAcceptable(Seas, Vec, PetscBool *); /* a state the stepping may evaluate (src/seas/run.c) */
PETSC_INTERN PetscErrorCode SeasPostStep(TS);
/* tau at the fault nodes (s->tau) for the state X at time t by the volume path: the face values, one solve through the KSP from s->u,
   the traction of face 1 and the SAT-corrected stress (src/seas/run.c); *its: the solve's CG iterations */
PETSC_INTERN PetscErrorCode SeasVolumeStress(Seas, PetscReal, Vec, PetscInt *);
PETSC_INTERN PetscErrorCode SeasStateToDevice(Seas, Vec, Vec *); /* the state where the fault's kernels read it (src/seas/stress.c) */
/* the Green's function mode (src/seas/green.c) */
PETSC_INTERN PetscErrorCode SeasGreenSetFromOptions(PetscOptionItems *, Seas);
PETSC_INTERN PetscErrorCode SeasGreenSetUp(Seas);                  /* G and g: read from -seas_green_file or nf + 1 solves */
PETSC_INTERN PetscErrorCode SeasGreenStress(Seas, PetscReal, Vec); /* s->tau = tau0 + G delta + t g, on the device or the host */
PETSC_INTERN PetscErrorCode SeasGreenView(Seas, PetscViewer);      /* the summary's line on the fault stress's mode */
PETSC_INTERN PetscErrorCode SeasGreenDestroy(Seas);
/* the fault's values at the state X on the host: slip, slip rate, shear stress, psi at the nf fault nodes (after an evaluation at X;
   src/seas/output.c) */
PETSC_INTERN PetscErrorCode SeasGetFault(Seas, PetscReal[], PetscReal[], PetscReal[], PetscReal[]);

/* output */
PETSC_INTERN const PetscReal SeasStationDepths[SEAS_NSTATIONS];
PETSC_INTERN PetscErrorCode  SeasOutputOpen(Seas);
PETSC_INTERN PetscErrorCode  SeasOutputWrite(Seas, PetscReal, PetscBool);
PETSC_INTERN PetscErrorCode  SeasOutputClose(Seas);
PETSC_INTERN PetscErrorCode  SeasOutputOffsets(Seas, long[]); /* where each file ends now: 12 stations, devol.dat, slip_profiles.dat */
PETSC_INTERN PetscErrorCode  SeasCheckpointWrite(Seas);
PETSC_INTERN PetscErrorCode  SeasCheckpointLoad(Seas);
PETSC_INTERN PetscReal       SeasInterpolate(PetscInt, const PetscReal[], const PetscReal[], PetscReal);
/* a station file's header and rows, as the writer makes them (for the tests: parse back) */
PETSC_INTERN PetscErrorCode SeasStationHeader(FILE *, PetscReal, PetscReal, const char[], long *);
PETSC_INTERN PetscErrorCode SeasStationRow(FILE *, PetscReal, PetscReal, PetscReal, PetscReal, PetscReal);

#endif
