/* The device side of the acoustic operator's set-up: the fields on the device, the kernels' shapes from the tuning table
   (include/sbpmg/private/tuning.h, keys ac_*), their checks against the device, the kernels and the table of the merged PML
   launch. */
#include <sbpmg/private/acousticimpl.h>
#include "sbpmg_kernel_args.h"

/* The coefficients on the device: vp (a constant fill, or the model copied once) and the eta profiles. */
static PetscErrorCode AcousticWriteCoefficientsDevice(Acoustic ac, const PetscReal *velfield)
{
  const size_t bytes = ac->npad * sizeof(float);
  PetscReal   *etad;
  float       *eta;

  PetscFunctionBegin;
  if (velfield) {
    float     *vp;
    PetscReal *vpd;

    PetscCall(PetscCalloc1(ac->npad, &vpd));
    PetscCall(AcousticComputeCoefficients_Private(ac, velfield, vpd, NULL));
    PetscCall(PetscMalloc1(ac->npad, &vp));
    for (size_t p = 0; p < ac->npad; p++) vp[p] = (float)vpd[p];
    PetscCall(PetscFree(vpd));
    {
      PetscErrorCode ierr = SbpmgCLWriteBuffer(ac->cl, ac->dvp, 0, bytes, vp);
      PetscCall(PetscFree(vp)); /* on every path */
      PetscCall(ierr);
    }
  } else {
    const float vpc = (float)PetscSqr(ac->vel * ac->dt);
    PetscCall(SbpmgCLFillBuffer(ac->cl, ac->dvp, &vpc, sizeof(float), 0, bytes));
  }
  PetscCall(PetscMalloc1(ac->ecount, &etad));
  PetscCall(AcousticComputeCoefficients_Private(ac, NULL, NULL, etad));
  PetscCall(PetscMalloc1(ac->ecount, &eta));
  for (PetscInt p = 0; p < ac->ecount; p++) eta[p] = (float)etad[p];
  PetscCall(PetscFree(etad));
  {
    PetscErrorCode ierr = SbpmgCLWriteBuffer(ac->cl, ac->deta, 0, ac->ecount * sizeof(float), eta);
    PetscCall(PetscFree(eta)); /* on every path */
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

/* A kernel of kernels/acoustic_util.cl, built for the object's tuning. */
PetscErrorCode AcousticGetUtilKernel_Private(Acoustic ac, const char name[], cl_kernel *k)
{
  char opts[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "-DSBPMG_NORM_LS=%d", (int)ac->tune.ac_norm_wg));
  PetscCall(SbpmgCLGetKernel(ac->cl, "acoustic_util", opts, name, k));
  PetscFunctionReturn(0);
}

/* A kernel of kernels/acoustic_points.cl (sources, receivers, planes; no build options). */
PetscErrorCode AcousticGetPointsKernel_Private(Acoustic ac, const char name[], cl_kernel *k)
{
  PetscFunctionBegin;
  PetscCall(SbpmgCLGetKernel(ac->cl, "acoustic_points", NULL, name, k));
  PetscFunctionReturn(0);
}

/* The random initial fields u^0, u^{-1} of the slab and its halo planes inside the grid (no exchange needed). */
static PetscErrorCode AcousticFillRandomDevice(Acoustic ac)
{
  cl_kernel      k;
  cl_mem         f[2] = {ac->du, ac->dv};
  const PetscInt klo = PetscMax(-4, -ac->zs), khi = PetscMin(ac->nl[2] + 4, ac->n[2] - ac->zs);
  const int      nx = (int)ac->n[0], ny = (int)ac->n[1], px = (int)ac->px, pxy = (int)ac->pxy, origin = (int)(ac->origin + klo * ac->pxy);
  const int      kofs = (int)(ac->zs + klo);
  cl_uint        seed = (cl_uint)ac->seed;
  size_t         g[3] = {(size_t)ac->n[0], (size_t)ac->n[1], (size_t)(khi - klo)};

  PetscFunctionBegin;
  PetscCall(AcousticGetUtilKernel_Private(ac, "ac_fill_random", &k));
  for (cl_uint fi = 0; fi < 2; fi++) {
    /* kernels/acoustic_util.cl ac_fill_random's arguments by name (seed and field are uints) */
    const struct {
      SbpmgCLArgValue nx, ny, px, pxy, origin, kofs, seed, field, f;
    } args = {.nx     = SbpmgCLArgInt(nx),
              .ny     = SbpmgCLArgInt(ny),
              .px     = SbpmgCLArgInt(px),
              .pxy    = SbpmgCLArgInt(pxy),
              .origin = SbpmgCLArgInt(origin),
              .kofs   = SbpmgCLArgInt(kofs),
              .seed   = SbpmgCLArgUint(seed),
              .field  = SbpmgCLArgUint(fi),
              .f      = SbpmgCLArgMem(f[fi])};

    SBPMG_CL_SET_ARGS(k, ac_fill_random, &args);
    PetscCall(SbpmgCLLaunch3D(ac->cl, k, g, NULL));
  }
  PetscFunctionReturn(0);
}

/* The device backend's set-up: the context, the kernels for the object's tuning, the fields (u, u_prev and phi zero or
   random, vp, the eta profiles), and on several ranks the staging buffer of the halo exchange. */
PetscErrorCode AcousticSetUpDevice_Private(Acoustic ac, const PetscReal *velfield)
{
  const size_t bytes = ac->npad * sizeof(float);
  const float  zero  = 0;

  PetscFunctionBegin;
  if (!ac->cl) { /* taken by the memory plan already */
    PetscCall(SbpmgCLGetDefault(&ac->cl));
    PetscCall(SbpmgCLReference(ac->cl));
  }
  PetscCall(AcousticSetUpKernels_Private(ac));
  PetscCall(SbpmgCLCreateBuffer(ac->cl, CL_MEM_READ_WRITE, bytes, &ac->du));
  PetscCall(SbpmgCLCreateBuffer(ac->cl, CL_MEM_READ_WRITE, bytes, &ac->dv));
  PetscCall(SbpmgCLCreateBuffer(ac->cl, CL_MEM_READ_WRITE, bytes, &ac->dvp));
  PetscCall(SbpmgCLCreateBuffer(ac->cl, CL_MEM_READ_WRITE, bytes, &ac->dphi));
  PetscCall(SbpmgCLCreateBuffer(ac->cl, CL_MEM_READ_ONLY, ac->ecount * sizeof(float), &ac->deta));
  PetscCall(SbpmgCLFillBuffer(ac->cl, ac->du, &zero, sizeof(float), 0, bytes));
  PetscCall(SbpmgCLFillBuffer(ac->cl, ac->dv, &zero, sizeof(float), 0, bytes));
  PetscCall(SbpmgCLFillBuffer(ac->cl, ac->dphi, &zero, sizeof(float), 0, bytes));
  PetscCall(AcousticWriteCoefficientsDevice(ac, velfield));
  if (ac->init == ACOUSTIC_INIT_RANDOM) PetscCall(AcousticFillRandomDevice(ac));
  if (ac->size > 1) {
    void *ptr;
    PetscCall(SbpmgCLCreateStaging(ac->cl, 16 * (size_t)ac->pxy * sizeof(float), &ac->xstage, &ptr));
    ac->xbuf = (float *)ptr;
  }
  PetscCall(SbpmgCLFinish(ac->cl));
  PetscFunctionReturn(0);
}

/* Bytes of the point sources' buffers beyond the receivers' (their target lists and Ricker tables: small, a bound) */
#define AC_PLAN_SOURCES (64 * 1024)

/*
  AcousticPlanMemory_Private - The memory plan (docs/design.md "The memory plan"), after the layout and before anything grid-sized
  is allocated: on the device the four fields u, u_prev, vp, phi of the padded slab (fp32), the eta profiles, the PML table, the
  halo's staging on several ranks, the receivers' trace buffers (tuning ac_trace_samples samples and 8 points each; all of them
  counted on every rank) and the sources'; on the host the velocity model of the slab while it is read (fp64) with the fp64 and fp32
  copies of vp made from it, or on the host backend the four fp64 fields. Against what the device and the host have (SbpmgCLPlanMemory()).
*/
PetscErrorCode AcousticPlanMemory_Private(Acoustic ac)
{
  const PetscBool model = (ac->nlayers || ac->velarray || ac->velfile[0]) ? PETSC_TRUE : PETSC_FALSE;
  const size_t    slab  = (size_t)ac->n[0] * ac->n[1] * ac->nl[2];
  size_t          dev = 0, host = 0;
  char            what[160];

  PetscFunctionBegin;
  if (ac->backend == ACOUSTIC_BACKEND_DEVICE) {
    SbpmgTuning t;

    if (!ac->cl) {
      PetscCall(SbpmgCLGetDefault(&ac->cl));
      PetscCall(SbpmgCLReference(ac->cl));
    }
    t = ac->cl->tune;
    PetscCall(SbpmgTuningParse(ac->tuneopts, &t));
    dev = 4 * ac->npad * sizeof(float) + (size_t)ac->ecount * sizeof(float) + AC_NREGIONS * 11 * sizeof(cl_int);
    if (ac->size > 1) dev += 16 * (size_t)ac->pxy * sizeof(float);
    dev += (size_t)ac->nrecpos * ((size_t)t.ac_trace_samples * sizeof(float) + 8 * (sizeof(cl_int) + sizeof(float))) + AC_PLAN_SOURCES;
    if (model) host = slab * sizeof(PetscReal) + ac->npad * (sizeof(PetscReal) + sizeof(float));
  } else
    host = 4 * ac->npad * sizeof(PetscReal) + (model ? slab * sizeof(PetscReal) : 0);
  host += (size_t)ac->nrecpos * 8 * (sizeof(PetscInt) + sizeof(PetscReal));
  ac->plan_device = dev;
  ac->plan_host   = host;
  {
    char rec[64] = "";
    if (ac->nrecpos) PetscCall(PetscSNPrintf(rec, sizeof(rec), " and its %" PetscInt_FMT " receivers", ac->nrecpos));
    PetscCall(PetscSNPrintf(what, sizeof(what), "the %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " acoustic grid%s (%s backend%s)", ac->n[0],
                            ac->n[1], ac->n[2], rec, ac->backend == ACOUSTIC_BACKEND_DEVICE ? "device" : "host", ac->size > 1 ? ", this rank's slab" : ""));
  }
  PetscCall(SbpmgCLPlanMemory(PetscObjectComm((PetscObject)ac), ac->backend == ACOUSTIC_BACKEND_DEVICE ? ac->cl : NULL, dev, host, what));
  PetscFunctionReturn(0);
}

/* Work-groups of a PML launch over the box [lo, hi) with tiles w work-items wide (and as many work-items as the PML
   tile): tiles along x and y, chunks along z; the x vectors start at the aligned point at or before lo.x. */
static void AcousticPMLTiles(Acoustic ac, const PetscInt lo[3], const PetscInt hi[3], PetscInt w, PetscInt tiles[3])
{
  const SbpmgTuning *t = &ac->tune;
  const PetscInt     V = t->ac_pml_vec, ty = t->ac_pml_tile_x * t->ac_pml_tile_y / w, tz = t->ac_pml_tile_z;
  const PetscInt     xa = lo[0] - (ac->origin + lo[0]) % V, nvx = (hi[0] - xa + V - 1) / V;
  const PetscInt     wy = hi[1] - lo[1], wz = hi[2] - lo[2];

  if (hi[0] <= lo[0] || wy <= 0 || wz <= 0) {
    tiles[0] = tiles[1] = tiles[2] = 0;
    return;
  }
  tiles[0] = (nvx + w - 1) / w;
  tiles[1] = (wy + ty - 1) / ty;
  tiles[2] = tz ? (wz + tz - 1) / tz : 1;
}

/* The table of ac_pml_all (11 ints per PML region, in launch order): lo.xyz, hi.xyz, tiles along x and y, first and end
   group, tile width. A region narrower than the PML tile gets a narrower and taller tile of the same size (the x slabs
   are ndamp points wide). Written once per kernel set-up. The regions are clipped to the planes [zedge[0], zedge[1])
   (all of them on one rank; on several, the planes computed while the halo is exchanged). */
static PetscErrorCode AcousticSetUpPMLTable(Acoustic ac)
{
  cl_int   tab[AC_NREGIONS * 11];
  PetscInt n = 0, start = 0;

  PetscFunctionBegin;
  for (PetscInt r = AC_REGION_ZLO; r < AC_NREGIONS; r++) {
    PetscInt       t[3], w = ac->tune.ac_pml_tile_x, lo[3], hi[3];
    cl_int        *e = tab + 11 * n;
    const PetscInt V = ac->tune.ac_pml_vec, xa = ac->lo[r][0] - (ac->origin + ac->lo[r][0]) % V, nvx = (ac->hi[r][0] - xa + V - 1) / V;
    const PetscInt size = ac->tune.ac_pml_tile_x * ac->tune.ac_pml_tile_y;

    for (PetscInt a = 0; a < 3; a++) {
      lo[a] = ac->lo[r][a];
      hi[a] = ac->hi[r][a];
    }
    lo[2] = PetscMax(lo[2], ac->zedge[0]);
    hi[2] = PetscMin(hi[2], ac->zedge[1]);
    while (w > 1 && w / 2 >= nvx && size % (w / 2) == 0) w /= 2;
    AcousticPMLTiles(ac, lo, hi, w, t);
    if (!t[0]) continue;
    for (PetscInt a = 0; a < 3; a++) {
      e[a]     = (cl_int)lo[a];
      e[3 + a] = (cl_int)hi[a];
    }
    e[6] = (cl_int)t[0];
    e[7] = (cl_int)t[1];
    e[8] = (cl_int)start;
    start += t[0] * t[1] * t[2];
    e[9]  = (cl_int)start;
    e[10] = (cl_int)w;
    n++;
  }
  PetscCheck((double)start * ac->tune.ac_pml_tile_x * ac->tune.ac_pml_tile_y < 4294967295.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "The PML launch of %" PetscInt_FMT " work-groups is too large", start);
  if (!ac->dtab) PetscCall(SbpmgCLCreateBuffer(ac->cl, CL_MEM_READ_ONLY, sizeof(tab), &ac->dtab));
  if (n) PetscCall(SbpmgCLWriteBuffer(ac->cl, ac->dtab, 0, sizeof(cl_int) * 11 * n, tab));
  ac->ngroups = start;
  ac->ntab    = n;
  PetscFunctionReturn(0);
}

/* The object's tuning: the context's (the column of its device class, with -sbpmg_tune) and the object's overrides. */
static PetscErrorCode AcousticResolveTuning(Acoustic ac)
{
  PetscFunctionBegin;
  ac->tune = ac->cl->tune;
  PetscCall(SbpmgTuningParse(ac->tuneopts, &ac->tune));
  PetscFunctionReturn(0);
}

static PetscBool AcIsVectorWidth(PetscInt w)
{
  return (w == 1 || w == 2 || w == 4) ? PETSC_TRUE : PETSC_FALSE;
}

/* What the ranges of the tuning table cannot say: vector widths 1, 2 or 4, a power-of-two norm work-group, work-groups the
   device allows, a local tile of at least 4 points per axis that fits the local memory, and the whole-grid kernel only
   with the cache variant. */
static PetscErrorCode AcousticCheckTuning(Acoustic ac)
{
  const SbpmgTuning *t    = &ac->tune;
  MPI_Comm           comm = PetscObjectComm((PetscObject)ac);
  const size_t       wg   = ac->cl->max_work_group_size;

  PetscFunctionBegin;
  PetscCheck(AcIsVectorWidth(t->ac_vec), comm, PETSC_ERR_ARG_OUTOFRANGE, "Tuning ac_vec=%" PetscInt_FMT " must be 1, 2 or 4", t->ac_vec);
  PetscCheck(AcIsVectorWidth(t->ac_pml_vec), comm, PETSC_ERR_ARG_OUTOFRANGE, "Tuning ac_pml_vec=%" PetscInt_FMT " must be 1, 2 or 4", t->ac_pml_vec);
  PetscCheck((t->ac_norm_wg & (t->ac_norm_wg - 1)) == 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "Tuning ac_norm_wg=%" PetscInt_FMT " must be a power of two",
             t->ac_norm_wg);
  PetscCheck(!t->ac_fused || !t->ac_local_mem, comm, PETSC_ERR_ARG_INCOMP,
             "Tuning ac_fused=1 takes x/y neighbours from the cache: it cannot be combined with ac_local_mem=1");
  PetscCheck((size_t)(t->ac_tile_x * t->ac_tile_y) <= wg, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "Inner tile ac_tile_x=%" PetscInt_FMT " x ac_tile_y=%" PetscInt_FMT " = %" PetscInt_FMT " work-items exceeds the work-group limit %zu of %s",
             t->ac_tile_x, t->ac_tile_y, t->ac_tile_x * t->ac_tile_y, wg, ac->cl->device_name);
  PetscCheck((size_t)(t->ac_pml_tile_x * t->ac_pml_tile_y) <= wg, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "PML tile ac_pml_tile_x=%" PetscInt_FMT " x ac_pml_tile_y=%" PetscInt_FMT " exceeds the work-group limit %zu of %s", t->ac_pml_tile_x,
             t->ac_pml_tile_y, wg, ac->cl->device_name);
  PetscCheck((size_t)t->ac_norm_wg <= wg, comm, PETSC_ERR_ARG_OUTOFRANGE, "Norm work-group ac_norm_wg=%" PetscInt_FMT " exceeds the work-group limit %zu of %s",
             t->ac_norm_wg, wg, ac->cl->device_name);
  PetscCheck((size_t)t->ac_points_wg <= wg, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "Point work-group ac_points_wg=%" PetscInt_FMT " exceeds the work-group limit %zu of %s", t->ac_points_wg, wg, ac->cl->device_name);
  if (t->ac_local_mem) {
    const size_t lbytes = (size_t)(t->ac_tile_y + 8) * (size_t)(t->ac_tile_x + 2 * (4 / t->ac_vec)) * t->ac_vec * sizeof(float);

    PetscCheck(t->ac_tile_y >= 4 && t->ac_tile_x * t->ac_vec >= 4, comm, PETSC_ERR_ARG_OUTOFRANGE,
               "ac_local_mem=1 needs a tile of at least 4 points on each axis (ac_tile_y=%" PetscInt_FMT " >= 4, ac_tile_x * ac_vec = %" PetscInt_FMT " >= 4)",
               t->ac_tile_y, t->ac_tile_x * t->ac_vec);
    PetscCheck(lbytes <= ac->cl->local_mem, comm, PETSC_ERR_ARG_OUTOFRANGE, "The local tile of %zu bytes exceeds the %llu bytes of local memory of %s", lbytes,
               (unsigned long long)ac->cl->local_mem, ac->cl->device_name);
  }
  PetscFunctionReturn(0);
}

/* The kernels for the object's tuning (every macro of kernels/acoustic25.cl from it), and the table of the merged PML
   launch. Called at set-up and again when the tuning changes. */
PetscErrorCode AcousticSetUpKernels_Private(Acoustic ac)
{
  const SbpmgTuning *t = &ac->tune;

  PetscFunctionBegin;
  PetscCall(AcousticResolveTuning(ac));
  PetscCall(AcousticCheckTuning(ac));
  PetscCall(PetscSNPrintf(ac->kopts, sizeof(ac->kopts),
                          "-cl-denorms-are-zero -DSBPMG_TILE_X=%d -DSBPMG_TILE_Y=%d -DSBPMG_TILE_Z=%d -DSBPMG_AC_LOCAL=%d -DSBPMG_AC_VEC=%d -DSBPMG_PML_TX=%d "
                          "-DSBPMG_PML_TY=%d -DSBPMG_PML_TZ=%d -DSBPMG_PML_VEC=%d "
                          "-DSBPMG_AC_FTZ=%d -DSBPMG_AC_PF=%d -DSBPMG_PML_PF=%d -DSBPMG_AC_PF_PTX=%d -DSBPMG_AC_UNROLL=%d -DSBPMG_PML_UNROLL=%d",
                          (int)t->ac_tile_x, (int)t->ac_tile_y, (int)t->ac_tile_z, (int)t->ac_local_mem, (int)t->ac_vec, (int)t->ac_pml_tile_x,
                          (int)t->ac_pml_tile_y, (int)t->ac_pml_tile_z, (int)t->ac_pml_vec, (int)t->ac_ftz, (int)t->ac_prefetch, (int)t->ac_pml_prefetch,
                          (int)t->ac_prefetch_ptx, (int)t->ac_unroll, (int)t->ac_pml_unroll));
  if (t->ac_fused) PetscCall(SbpmgCLGetKernel(ac->cl, "acoustic25", ac->kopts, "ac_whole", &ac->kwhole));
  if (t->ac_pml_merge) PetscCall(SbpmgCLGetKernel(ac->cl, "acoustic25", ac->kopts, "ac_pml_all", &ac->kpmlall));
  PetscCall(SbpmgCLGetKernel(ac->cl, "acoustic25", ac->kopts, "ac_inner", &ac->kinner));
  PetscCall(SbpmgCLGetKernel(ac->cl, "acoustic25", ac->kopts, "ac_pml", &ac->kpml));
  if (t->ac_pml_merge) PetscCall(AcousticSetUpPMLTable(ac));
  PetscFunctionReturn(0);
}
