/* Set-up of the acoustic operator: sizes, slab decomposition, velocity (a constant, an array, a file or layers), time
   step, damping profiles, padded layout, and the fields of the host reference (the device's are set up in
   src/acoustic/kernels.c, the sources and receivers in src/acoustic/points.c). */
#include <sbpmg/private/acousticimpl.h>
#include <math.h>
#include <float.h>
#include <stdint.h>

/* The random hash of the initial fields, shared with the device's fill (ac_random). */
#include "../../kernels/acoustic_util.cl"

/* The velocity of this rank's slab (nx*ny*nl[2] values, x fastest; NULL for a constant velocity) and its range over the
   whole grid. A bad value is reported by every rank, naming the first bad point of the grid. */
static PetscErrorCode AcousticSetUpVelocity(Acoustic ac, PetscReal **velfield)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)ac);
  const PetscInt nxy = ac->n[0] * ac->n[1], n = nxy * ac->nl[2];

  PetscFunctionBegin;
  *velfield = NULL;
  if (ac->nlayers) { /* the layered model: a velocity per plane, the range over the grid's planes */
    PetscCall(PetscMalloc1(n, velfield));
    for (PetscInt k = 0; k < ac->nl[2]; k++) {
      const PetscReal v = AcousticLayerVelocity(ac->nlayers, ac->layers, (ac->zs + k) * ac->h[2]);
      for (PetscInt p = 0; p < nxy; p++) (*velfield)[p + nxy * k] = v;
    }
    ac->velmax = 0;
    ac->velmin = PETSC_MAX_REAL;
    for (PetscInt k = 0; k < ac->n[2]; k++) {
      const PetscReal v = AcousticLayerVelocity(ac->nlayers, ac->layers, k * ac->h[2]);
      ac->velmax        = PetscMax(ac->velmax, v);
      ac->velmin        = PetscMin(ac->velmin, v);
    }
  } else if (ac->velarray || ac->velfile[0]) {
    PetscInt  bad  = PETSC_MAX_INT;
    PetscReal badv = 0, range[2];

    PetscCall(PetscMalloc1(n, velfield));
    if (ac->velarray)
      PetscCall(PetscArraycpy(*velfield, ac->velarray + ac->zs * nxy, n));
    else {
      PetscErrorCode ierr = AcousticReadVelocityFile_Private(ac->velfile, ac->n, ac->zs, ac->nl[2], *velfield);
      if (ierr) PetscCall(PetscFree(*velfield));
      PetscCall(ierr);
    }
    range[0] = 0;               /* max */
    range[1] = -PETSC_MAX_REAL; /* -min */
    for (PetscInt p = 0; p < n; p++) {
      const PetscReal v = (*velfield)[p];
      if (!(v > 0 && PetscIsNormalReal(v))) {
        bad  = ac->zs * nxy + p;
        badv = v;
        break;
      }
      range[0] = PetscMax(range[0], v);
      range[1] = PetscMax(range[1], -v);
    }
    if (ac->size > 1) { /* the first bad point of the grid and its value (only its owner adds a value), the range */
      PetscInt  gbad;
      PetscReal gv;
      PetscCallMPI(MPI_Allreduce(&bad, &gbad, 1, MPIU_INT, MPI_MIN, comm));
      gv = gbad == bad && bad != PETSC_MAX_INT ? badv : 0;
      PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &gv, 1, MPIU_REAL, MPIU_SUM, comm));
      PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, range, 2, MPIU_REAL, MPIU_MAX, comm));
      bad  = gbad;
      badv = gv;
    }
    if (bad != PETSC_MAX_INT) {
      char str[32];
      PetscCall(PetscFree(*velfield));
      PetscCall(AcRealString(badv, str, sizeof(str)));
      SETERRQ(comm, PETSC_ERR_ARG_OUTOFRANGE,
              "Velocity %s at grid point (%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT ")%s%s must be positive and finite", str, bad % ac->n[0],
              (bad / ac->n[0]) % ac->n[1], bad / nxy, ac->velfile[0] ? " of -ac_vel " : "", ac->velfile);
    }
    ac->velmax = range[0];
    ac->velmin = -range[1];
  } else {
    ac->velmax = ac->vel;
    ac->velmin = ac->vel;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode AcousticCheckSizes(Acoustic ac)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)ac);
  PetscInt need = 2 * ac->ndamp + 9;

  PetscFunctionBegin;
  for (PetscInt a = 0; a < 3; a++)
    PetscCheck(ac->n[a] >= need, comm, PETSC_ERR_ARG_OUTOFRANGE,
               "Grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " is too small for -ac_ndamp %" PetscInt_FMT
               ": every axis needs at least 2*ndamp+9 = %" PetscInt_FMT " points (n%c = %" PetscInt_FMT ")",
               ac->n[0], ac->n[1], ac->n[2], ac->ndamp, need, (char)('x' + a), ac->n[a]);
  PetscCheck(ac->n[2] / ac->size >= 4, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "Grid nz = %" PetscInt_FMT " is too small for %d MPI ranks: the grid is split into slabs along z and each rank needs at least 4 planes (the "
             "stencil's halo), so nz must be >= 4 x %d = %d; use at most %" PetscInt_FMT " ranks",
             ac->n[2], (int)ac->size, (int)ac->size, 4 * (int)ac->size, ac->n[2] / 4);
  for (PetscInt a = 0; a < 3; a++) {
    if (ac->src[a] < 0) ac->src[a] = ac->n[a] / 2;
  }
  if (ac->snap_index >= 0) {
    const char axis = (char)('x' + ac->snap_axis);
    PetscCheck(ac->snap_index < ac->n[ac->snap_axis], comm, PETSC_ERR_ARG_OUTOFRANGE,
               "Snapshot plane %c:%" PetscInt_FMT " (-ac_snapshot_plane) is outside the grid: %c indices are 0 .. %" PetscInt_FMT, axis, ac->snap_index, axis,
               ac->n[ac->snap_axis] - 1);
  }
  PetscCheck(ac->src[0] < ac->n[0] && ac->src[1] < ac->n[1] && ac->src[2] < ac->n[2], comm, PETSC_ERR_ARG_OUTOFRANGE,
             "Source (%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT ") (-ac_source) is outside the %" PetscInt_FMT " x %" PetscInt_FMT
             " x %" PetscInt_FMT " grid",
             ac->src[0], ac->src[1], ac->src[2], ac->n[0], ac->n[1], ac->n[2]);
  PetscFunctionReturn(0);
}

/* The slabs: rank r owns planes [zstart[r], zstart[r + 1]), nz / size of them, one more for the first nz % size ranks.
   The planes within 4 of a neighbour's slab are computed first and sent; the others overlap the exchange. */
static PetscErrorCode AcousticSetUpDecomposition(Acoustic ac)
{
  const PetscInt nz = ac->n[2], P = ac->size;

  PetscFunctionBegin;
  PetscCall(PetscFree(ac->zstart));
  PetscCall(PetscMalloc1(P + 1, &ac->zstart));
  ac->zstart[0] = 0;
  for (PetscInt r = 0; r < P; r++) ac->zstart[r + 1] = ac->zstart[r] + nz / P + (r < nz % P ? 1 : 0);
  ac->zs       = ac->zstart[ac->rank];
  ac->nl[0]    = ac->n[0];
  ac->nl[1]    = ac->n[1];
  ac->nl[2]    = ac->zstart[ac->rank + 1] - ac->zs;
  ac->down     = ac->rank > 0 ? ac->rank - 1 : -1;
  ac->up       = ac->rank < P - 1 ? ac->rank + 1 : -1;
  ac->zedge[0] = ac->down >= 0 ? PetscMin(4, ac->nl[2]) : 0;
  ac->zedge[1] = ac->up >= 0 ? PetscMax(ac->nl[2] - 4, ac->zedge[0]) : ac->nl[2];
  if (P > 1) PetscCall(PetscObjectGetNewTag((PetscObject)ac, &ac->tag));
  PetscFunctionReturn(0);
}

/* Padded layout: x offset ox >= 4 such that the first inner point (i = ndamp) is 128-byte aligned, rows padded to 32
   floats with at least 8 zero points after the last grid point; 4 halo rows and planes in y and z. */
static PetscErrorCode AcousticSetUpLayout(Acoustic ac)
{
  const PetscInt nd = ac->ndamp;

  PetscFunctionBegin;
  ac->ox = 4 + ((32 - (4 + nd) % 32) % 32);
  ac->px = ((ac->ox + ac->n[0] + 8 + 31) / 32) * 32;
  ac->py = ac->n[1] + 8;
  ac->pz = ac->nl[2] + 8;
  PetscCheck((double)ac->px * ac->py * ac->pz < (double)PETSC_MAX_INT, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
             "Grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " is too large for 32-bit indices (padded size %.0f points)", ac->n[0], ac->n[1],
             ac->nl[2], (double)ac->px * ac->py * ac->pz);
  ac->pxy    = ac->px * ac->py;
  ac->npad   = (size_t)ac->pxy * (size_t)ac->pz;
  ac->origin = ac->ox + 4 * ac->px + 4 * ac->pxy;
  /* regions [lo, hi): the inner box, then the z, y and x slabs */
  for (PetscInt a = 0; a < 3; a++) {
    ac->lo[AC_REGION_INNER][a] = nd;
    ac->hi[AC_REGION_INNER][a] = ac->n[a] - nd;
  }
  for (PetscInt r = AC_REGION_ZLO; r < AC_NREGIONS; r++) {
    const PetscInt axis = 2 - (r - 1) / 2, high = (r - 1) % 2; /* zlo, zhi, ylo, yhi, xlo, xhi */
    for (PetscInt a = 0; a < 3; a++) {
      if (a == axis) {
        ac->lo[r][a] = high ? ac->n[a] - nd : 0;
        ac->hi[r][a] = high ? ac->n[a] : nd;
      } else if (a > axis) { /* slower axes: the inner range (the slabs of slower axes own the rest) */
        ac->lo[r][a] = nd;
        ac->hi[r][a] = ac->n[a] - nd;
      } else { /* faster axes: the whole extent */
        ac->lo[r][a] = 0;
        ac->hi[r][a] = ac->n[a];
      }
    }
  }
  /* this rank's part of each region, in local planes (an empty box where the slab misses it) */
  for (PetscInt r = 0; r < AC_NREGIONS; r++) {
    ac->lo[r][2] = PetscMin(PetscMax(ac->lo[r][2] - ac->zs, 0), ac->nl[2]);
    ac->hi[r][2] = PetscMax(PetscMin(ac->hi[r][2] - ac->zs, ac->nl[2]), ac->lo[r][2]);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode AcousticSetUpHost(Acoustic ac, const PetscReal *velfield)
{
  PetscFunctionBegin;
  PetscCall(PetscCalloc1(ac->npad, &ac->hu));
  PetscCall(PetscCalloc1(ac->npad, &ac->hv));
  PetscCall(PetscCalloc1(ac->npad, &ac->hvp));
  PetscCall(PetscCalloc1(ac->npad, &ac->hphi));
  PetscCall(PetscCalloc1(ac->ecount, &ac->heta));
  PetscCall(AcousticComputeCoefficients_Private(ac, velfield, ac->hvp, ac->heta));
  if (ac->init == ACOUSTIC_INIT_RANDOM) { /* the slab and its halo planes inside the grid */
    PetscReal     *f[2] = {ac->hu, ac->hv};
    const PetscInt klo = PetscMax(-4, -ac->zs), khi = PetscMin(ac->nl[2] + 4, ac->n[2] - ac->zs);
    for (PetscInt fi = 0; fi < 2; fi++)
      for (PetscInt k = klo; k < khi; k++)
        for (PetscInt j = 0; j < ac->n[1]; j++)
          for (PetscInt i = 0; i < ac->n[0]; i++)
            f[fi][AcIndex(ac, i, j, k)] = ac_random((ac_uint)ac->seed, (ac_uint)fi, (ac_uint)(i + ac->n[0] * (j + ac->n[1] * (k + ac->zs))));
  }
  PetscFunctionReturn(0);
}

/* The time step the fastest velocity vmax imposes must be a normal number, and (v dt)^2 of the slowest velocity a normal
   fp32 number: a model of 2000 and 1e30 m/s gives dt ~ 1e-32 s, (2000 dt)^2 ~ 1e-58 is 0 in fp32 and the slow points would
   never move (and a wavelet of 25 Hz would span 1e30 steps). The error names the velocity that sets dt. */
static PetscErrorCode AcousticCheckTimeStep(Acoustic ac, PetscReal vmax)
{
  const char *who =
      ac->vmax > ac->velmax ? "-ac_vmax" : (ac->nlayers ? "-ac_layers" : (ac->velfile[0] ? ac->velfile : (ac->velarray ? "the velocity array" : "-ac_vel")));
  const double vp = (double)PetscSqr(ac->velmin * ac->dt); /* within fp32's normal range, compared in double (no overflowing cast) */
  char         vs[32], ws[32], ds[32];

  PetscFunctionBegin;
  PetscCall(AcRealString(vmax, vs, sizeof(vs)));
  PetscCall(AcRealString(ac->velmin, ws, sizeof(ws)));
  PetscCall(AcRealString(ac->dt, ds, sizeof(ds)));
  PetscCheck(ac->dt > 0 && PetscIsNormalReal(ac->dt), PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
             "The velocity %s m/s (%s) makes the time step dt = %s s, which is not a normal positive number", vs, who, ds);
  PetscCheck(vp >= FLT_MIN && vp <= FLT_MAX, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
             "The velocity %s m/s (%s) makes the time step dt = %s s, too small for the slowest velocity %s m/s: (v dt)^2 = %g is not a normal fp32 "
             "number, so its points would not move; the fastest and slowest velocities differ by a factor %g",
             vs, who, ds, ws, (double)PetscSqr(ac->velmin * ac->dt), (double)(vmax / ac->velmin));
  PetscFunctionReturn(0);
}

/* The time step dt = 2 cfl / (sqrt(W) vmax), W = |c0x + c0y + c0z| + 2 sum_{a, m >= 1} |c_m^a|, and the scale eta0 of the
   damping profiles; a PML too thin to be stable is refused. */
static PetscErrorCode AcousticSetUpTimeStep(Acoustic ac)
{
  const PetscReal vmax = PetscMax(ac->vmax, ac->velmax), emax = 2 + 2 * PETSC_SQRT2;
  PetscReal       e;

  PetscFunctionBegin;
  for (PetscInt a = 0; a < 3; a++) PetscCall(AcousticStencilWeights(ac->h[a], ac->coef[a]));
  ac->W = PetscAbsReal(ac->coef[0][0] + ac->coef[1][0] + ac->coef[2][0]);
  for (PetscInt a = 0; a < 3; a++)
    for (PetscInt m = 1; m <= 4; m++) ac->W += 2 * PetscAbsReal(ac->coef[a][m]);
  ac->dt = 2 * ac->cfl / (PetscSqrtReal(ac->W) * vmax);
  for (PetscInt a = 0; a < 3; a++) ac->eta0[a] = ac->ndamp ? ac->dt * 3.0 * vmax * PetscLogReal(1000.0) / (2.0 * ac->ndamp * ac->h[a]) : 0.0;
  for (PetscInt a = 0; a < 3; a++) { /* the fp32 kernels scale by 1/h^2: it must be a normal float (-ac_dx 1e-25 overflows) */
    const float inv = (float)(1.0 / (4.0 * ac->h[a] * ac->h[a])), c = (float)ac->coef[a][1];
    PetscCheck(isnormal(inv) && isnormal(c), PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
               "Grid spacing %g (-ac_dx, axis %c) is outside what the fp32 kernels hold: 1/(4 h^2) = %g in fp32", (double)ac->h[a], (char)('x' + a),
               (double)inv);
  }
  PetscCall(AcousticCheckTimeStep(ac, vmax));
  e = ac->eta0[0] + ac->eta0[1] + ac->eta0[2];
  /* the damped leapfrog recurrence at a PML corner grows once e = eta dt (summed over the three axes) exceeds 2 + 2 sqrt(2)
     (docs/acoustic.md): the thinnest layers damp too hard per step */
  PetscCheck(!(ac->ndamp > 0 && e > emax), PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE,
             "PML width -ac_ndamp %" PetscInt_FMT " is too thin: the damping at the PML corners, eta dt = %.3f, exceeds %.3f (= 2 + 2 sqrt(2)), beyond which "
             "the leapfrog PML update grows; use a wider layer (or -ac_ndamp 0)",
             ac->ndamp, (double)e, (double)emax);
  PetscFunctionReturn(0);
}

/*@C
   AcousticSetUp - Check the settings, compute the time step (from the largest of -ac_vmax and the model's velocities),
   the damping profiles and the layout, allocate the fields (on the device, or on the host for the reference backend),
   initialise them, place the sources and receivers and record the first trace sample.

   Collective

   Level: beginner
@*/
PetscErrorCode AcousticSetUp(Acoustic ac)
{
  PetscReal *velfield = NULL;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  if (ac->setupcalled) PetscFunctionReturn(0);
  PetscCall(AcousticCheckSizes(ac));
  PetscCall(AcousticSetUpDecomposition(ac));
  PetscCall(AcousticSetUpLayout(ac));
  ac->ecount  = ac->n[0] + ac->n[1] + ac->n[2] + 3 * 18;
  ac->eoff[0] = 9;
  ac->eoff[1] = ac->n[0] + 18 + 9;
  ac->eoff[2] = ac->n[0] + ac->n[1] + 36 + 9;
  PetscCall(AcousticPlanMemory_Private(ac)); /* before anything grid-sized is allocated, the velocity model included */
  PetscCall(AcousticSetUpVelocity(ac, &velfield));
  {
    PetscErrorCode ierr = AcousticSetUpTimeStep(ac);
    if (ierr) PetscCall(PetscFree(velfield));
    PetscCall(ierr);
  }
  ac->step = 0;
  {
    PetscErrorCode ierr = ac->backend == ACOUSTIC_BACKEND_HOST ? AcousticSetUpHost(ac, velfield) : AcousticSetUpDevice_Private(ac, velfield);
    PetscCall(PetscFree(velfield));
    if (!ierr) ierr = AcousticSetUpSurvey_Private(ac);
    /* the fields, the device and the survey are set up rank by rank (a device allocation may fail on one rank only): every
       rank learns whether all succeeded, so none goes on into a step's exchange while another has stopped */
    PetscCall(AcousticAgree_Private(ac, ierr, "set-up"));
  }
  PetscCall(AcousticRecord_Private(ac)); /* trace sample 0: the initial field */
  ac->setupcalled = PETSC_TRUE;
  if (ac->view) PetscCall(AcousticView(ac, PETSC_VIEWER_STDOUT_(PetscObjectComm((PetscObject)ac))));
  PetscFunctionReturn(0);
}
