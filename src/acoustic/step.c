/* The leapfrog stepper: fp32 OpenCL kernels (inner region + six PML slabs + source), and the fp64 host reference. */
#include "acimpl.h"

static PetscReal AcRegionPoints(Acoustic ac, PetscInt r)
{
  PetscReal n = 1;
  for (PetscInt a = 0; a < 3; a++) n *= (PetscReal)PetscMax(ac->hi[r][a] - ac->lo[r][a], 0);
  return n;
}

static size_t AcRoundUp(size_t n, size_t m)
{
  return ((n + m - 1) / m) * m;
}

static PetscErrorCode AcousticEnqueue3D(Acoustic ac, cl_kernel k, const size_t g[3], const size_t l[3])
{
  cl_int err;

  PetscFunctionBegin;
  if (!g[0] || !g[1] || !g[2]) PetscFunctionReturn(0);
  err = clEnqueueNDRangeKernel(ac->cl->queue, k, 3, NULL, g, l, 0, NULL, NULL);
  PetscCheck(err == CL_SUCCESS, PETSC_COMM_SELF, SbpmgCLErrorCode(err),
             "OpenCL error %d (%s) launching an acoustic kernel on %zu x %zu x %zu (local %zu x %zu) with %s", (int)err, SbpmgCLErrorName(err), g[0], g[1],
             g[2], l ? l[0] : 0, l ? l[1] : 0, ac->kopts);
  PetscFunctionReturn(0);
}

/* Device: K steps of the regions in mask (a bit per AcousticRegion), the source, and the swap; no host traffic. */
PetscErrorCode AcousticStepDevice_Private(Acoustic ac, PetscInt K, PetscInt mask)
{
  const int   px = (int)ac->px, pxy = (int)ac->pxy, origin = (int)ac->origin;
  const int   ex = (int)ac->eoff[0], ey = (int)ac->eoff[1], ez = (int)ac->eoff[2];
  const float c0 = (float)(ac->coef[0][0] + ac->coef[1][0] + ac->coef[2][0]);
  cl_float4   cx, cy, cz, hd;
  const int   srcidx = (int)AcIndex(ac, ac->src[0], ac->src[1], ac->src[2]);

  PetscFunctionBegin;
  for (PetscInt m = 0; m < 4; m++) {
    cx.s[m] = (float)ac->coef[0][m + 1];
    cy.s[m] = (float)ac->coef[1][m + 1];
    cz.s[m] = (float)ac->coef[2][m + 1];
  }
  for (PetscInt a = 0; a < 3; a++) hd.s[a] = (float)(1.0 / (4.0 * ac->h[a] * ac->h[a]));
  hd.s[3] = 0;
  for (PetscInt s = 0; s < K; s++) {
    const PetscReal ntot = (PetscReal)ac->n[0] * ac->n[1] * ac->n[2], ninner = AcRegionPoints(ac, AC_REGION_INNER);
    PetscInt        todo = mask;

    if (ac->kfused && mask == AC_REGIONS_ALL) { /* the whole grid in one launch */
      const size_t V = (size_t)ac->kvec, tx = (size_t)ac->ktile[0], ty = (size_t)ac->ktile[1], tz = (size_t)ac->ktile[2];
      const int    xa   = -(int)(ac->origin % (PetscInt)V);
      const size_t g[3] = {AcRoundUp(((size_t)(ac->n[0] - xa) + V - 1) / V, tx), AcRoundUp((size_t)ac->n[1], ty), tz ? ((size_t)ac->n[2] + tz - 1) / tz : 1};
      const size_t l[3] = {tx, ty, 1};
      cl_int4      n, ilo, ihi;

      for (PetscInt a = 0; a < 3; a++) {
        n.s[a]   = (int)ac->n[a];
        ilo.s[a] = (int)ac->lo[AC_REGION_INNER][a];
        ihi.s[a] = (int)ac->hi[AC_REGION_INNER][a];
      }
      n.s[3] = ilo.s[3] = ihi.s[3] = 0;
      PetscCall(SbpmgLogKernelBegin(SBPMG_AcInner));
      PetscCall(SbpmgCLSetArgs(ac->kwhole, 0, 19, sizeof(cl_int4), &n, sizeof(cl_int4), &ilo, sizeof(cl_int4), &ihi, sizeof(int), &px, sizeof(int), &pxy,
                               sizeof(int), &origin, sizeof(float), &c0, sizeof(cl_float4), &cx, sizeof(cl_float4), &cy, sizeof(cl_float4), &cz,
                               sizeof(cl_float4), &hd, sizeof(int), &ex, sizeof(int), &ey, sizeof(int), &ez, sizeof(cl_mem), &ac->du, sizeof(cl_mem), &ac->dv,
                               sizeof(cl_mem), &ac->dvp, sizeof(cl_mem), &ac->dphi, sizeof(cl_mem), &ac->deta));
      PetscCall(AcousticEnqueue3D(ac, ac->kwhole, g, l));
      PetscCall(SbpmgLogKernelEnd(SBPMG_AcInner, ac->cl, AC_FLOPS_INNER * ninner + AC_FLOPS_PML * (ntot - ninner),
                                  AC_BYTES_INNER * ninner + AC_BYTES_PML * (ntot - ninner)));
      todo = 0;
    } else if (ac->kpmlmerge && (mask & AC_REGIONS_PML) == AC_REGIONS_PML && ac->ntab) { /* the six PML regions in one launch */
      const size_t ls = (size_t)(ac->kpmltile[0] * ac->kpmltile[1]), g = (size_t)ac->ngroups * ls;
      const int    nreg = (int)ac->ntab;
      cl_int       err;

      PetscCall(SbpmgLogKernelBegin(SBPMG_AcPML));
      PetscCall(SbpmgCLSetArgs(ac->kpmlall, 0, 18, sizeof(cl_mem), &ac->dtab, sizeof(int), &nreg, sizeof(int), &px, sizeof(int), &pxy, sizeof(int), &origin,
                               sizeof(float), &c0, sizeof(cl_float4), &cx, sizeof(cl_float4), &cy, sizeof(cl_float4), &cz, sizeof(cl_float4), &hd, sizeof(int),
                               &ex, sizeof(int), &ey, sizeof(int), &ez, sizeof(cl_mem), &ac->du, sizeof(cl_mem), &ac->dv, sizeof(cl_mem), &ac->dvp,
                               sizeof(cl_mem), &ac->dphi, sizeof(cl_mem), &ac->deta));
      err = clEnqueueNDRangeKernel(ac->cl->queue, ac->kpmlall, 1, NULL, &g, &ls, 0, NULL, NULL);
      PetscCheck(err == CL_SUCCESS, PETSC_COMM_SELF, SbpmgCLErrorCode(err),
                 "OpenCL error %d (%s) launching the merged PML kernel on %zu work-items (groups of %zu) with %s", (int)err, SbpmgCLErrorName(err), g, ls,
                 ac->kopts);
      PetscCall(SbpmgLogKernelEnd(SBPMG_AcPML, ac->cl, AC_FLOPS_PML * (ntot - ninner), AC_BYTES_PML * (ntot - ninner)));
      todo = mask & ~AC_REGIONS_PML;
    }
    for (PetscInt r = 0; r < AC_NREGIONS; r++) {
      const PetscReal np = AcRegionPoints(ac, r);
      cl_int4         lo, hi;

      if (!(todo & (1 << r)) || np == 0) continue;
      for (PetscInt a = 0; a < 3; a++) {
        lo.s[a] = (int)ac->lo[r][a];
        hi.s[a] = (int)ac->hi[r][a];
      }
      lo.s[3] = hi.s[3] = 0;
      if (ac->krows) {
        const size_t g[3] = {(size_t)(hi.s[1] - lo.s[1]), (size_t)(hi.s[2] - lo.s[2]), 1};
        cl_int4      lim  = {{0, 0, 0, 0}};

        if (r == AC_REGION_INNER) {
          PetscCall(SbpmgLogKernelBegin(SBPMG_AcInner));
          PetscCall(SbpmgCLSetArgs(ac->kinner, 0, 13, sizeof(cl_int4), &lo, sizeof(cl_int4), &hi, sizeof(cl_int4), &lim, sizeof(int), &px, sizeof(int), &pxy,
                                   sizeof(int), &origin, sizeof(float), &c0, sizeof(cl_float4), &cx, sizeof(cl_float4), &cy, sizeof(cl_float4), &cz,
                                   sizeof(cl_mem), &ac->du, sizeof(cl_mem), &ac->dv, sizeof(cl_mem), &ac->dvp));
          PetscCall(AcousticEnqueue3D(ac, ac->kinner, g, NULL));
          PetscCall(SbpmgLogKernelEnd(SBPMG_AcInner, ac->cl, AC_FLOPS_INNER * np, AC_BYTES_INNER * np));
        } else {
          PetscCall(SbpmgLogKernelBegin(SBPMG_AcPML));
          PetscCall(SbpmgCLSetArgs(ac->kpml, 0, 18, sizeof(cl_int4), &lo, sizeof(cl_int4), &hi, sizeof(int), &px, sizeof(int), &pxy, sizeof(int), &origin,
                                   sizeof(float), &c0, sizeof(cl_float4), &cx, sizeof(cl_float4), &cy, sizeof(cl_float4), &cz, sizeof(cl_float4), &hd,
                                   sizeof(int), &ex, sizeof(int), &ey, sizeof(int), &ez, sizeof(cl_mem), &ac->du, sizeof(cl_mem), &ac->dv, sizeof(cl_mem),
                                   &ac->dvp, sizeof(cl_mem), &ac->dphi, sizeof(cl_mem), &ac->deta));
          PetscCall(AcousticEnqueue3D(ac, ac->kpml, g, NULL));
          PetscCall(SbpmgLogKernelEnd(SBPMG_AcPML, ac->cl, AC_FLOPS_PML * np, AC_BYTES_PML * np));
        }
      } else if (r == AC_REGION_INNER) {
        const size_t V = (size_t)ac->kvec, tx = (size_t)ac->ktile[0], ty = (size_t)ac->ktile[1], tz = (size_t)ac->ktile[2];
        const size_t nvx  = ((size_t)(hi.s[0] - lo.s[0]) + V - 1) / V;
        const size_t g[3] = {AcRoundUp(nvx, tx), AcRoundUp((size_t)(hi.s[1] - lo.s[1]), ty), tz ? ((size_t)(hi.s[2] - lo.s[2]) + tz - 1) / tz : 1};
        const size_t l[3] = {tx, ty, 1};
        cl_int4      lim;

        lim.s[0] = lo.s[0] + (int)V * ((int)(ac->n[0] + 3 - lo.s[0]) / (int)V);
        lim.s[1] = (int)ac->n[1] + 3;
        lim.s[2] = lim.s[3] = 0;
        PetscCall(SbpmgLogKernelBegin(SBPMG_AcInner));
        PetscCall(SbpmgCLSetArgs(ac->kinner, 0, 13, sizeof(cl_int4), &lo, sizeof(cl_int4), &hi, sizeof(cl_int4), &lim, sizeof(int), &px, sizeof(int), &pxy,
                                 sizeof(int), &origin, sizeof(float), &c0, sizeof(cl_float4), &cx, sizeof(cl_float4), &cy, sizeof(cl_float4), &cz,
                                 sizeof(cl_mem), &ac->du, sizeof(cl_mem), &ac->dv, sizeof(cl_mem), &ac->dvp));
        PetscCall(AcousticEnqueue3D(ac, ac->kinner, g, l));
        PetscCall(SbpmgLogKernelEnd(SBPMG_AcInner, ac->cl, AC_FLOPS_INNER * np, AC_BYTES_INNER * np));
      } else {
        const size_t tx = (size_t)ac->kpmltile[0], ty = (size_t)ac->kpmltile[1], tz = (size_t)ac->kpmltile[2], V = (size_t)ac->kpmlvec;
        const int    xa   = lo.s[0] - (int)((ac->origin + lo.s[0]) % (PetscInt)V);
        const size_t nvx  = ((size_t)(hi.s[0] - xa) + V - 1) / V;
        const size_t g[3] = {AcRoundUp(nvx, tx), AcRoundUp((size_t)(hi.s[1] - lo.s[1]), ty), tz ? ((size_t)(hi.s[2] - lo.s[2]) + tz - 1) / tz : 1};
        const size_t l[3] = {tx, ty, 1};

        PetscCall(SbpmgLogKernelBegin(SBPMG_AcPML));
        PetscCall(SbpmgCLSetArgs(ac->kpml, 0, 18, sizeof(cl_int4), &lo, sizeof(cl_int4), &hi, sizeof(int), &px, sizeof(int), &pxy, sizeof(int), &origin,
                                 sizeof(float), &c0, sizeof(cl_float4), &cx, sizeof(cl_float4), &cy, sizeof(cl_float4), &cz, sizeof(cl_float4), &hd,
                                 sizeof(int), &ex, sizeof(int), &ey, sizeof(int), &ez, sizeof(cl_mem), &ac->du, sizeof(cl_mem), &ac->dv, sizeof(cl_mem),
                                 &ac->dvp, sizeof(cl_mem), &ac->dphi, sizeof(cl_mem), &ac->deta));
        PetscCall(AcousticEnqueue3D(ac, ac->kpml, g, l));
        PetscCall(SbpmgLogKernelEnd(SBPMG_AcPML, ac->cl, AC_FLOPS_PML * np, AC_BYTES_PML * np));
      }
    }
    if (ac->amplitude != 0) {
      PetscReal w;
      float     val;

      PetscCall(AcousticWavelet(ac, ac->step, &w));
      val = (float)w;
      PetscCall(SbpmgLogKernelBegin(SBPMG_AcSource));
      PetscCall(SbpmgCLSetArgs(ac->ksrc, 0, 3, sizeof(int), &srcidx, sizeof(float), &val, sizeof(cl_mem), &ac->dv));
      PetscCall(SbpmgCLLaunch1D(ac->cl, ac->ksrc, 1, 1));
      PetscCall(SbpmgLogKernelEnd(SBPMG_AcSource, ac->cl, 1, 8));
    }
    {
      cl_mem t = ac->du;
      ac->du   = ac->dv;
      ac->dv   = t;
    }
    ac->step++;
  }
  PetscFunctionReturn(0);
}

/* Host reference: the same step in fp64 with plain loops over the regions. */
PetscErrorCode AcousticStepHost_Private(Acoustic ac, PetscInt K, PetscInt mask)
{
  const PetscInt   px = ac->px, pxy = ac->pxy;
  const PetscReal *ex = ac->heta + ac->eoff[0], *ey = ac->heta + ac->eoff[1], *ez = ac->heta + ac->eoff[2];
  PetscReal        hd[3];

  PetscFunctionBegin;
  for (PetscInt a = 0; a < 3; a++) hd[a] = 1.0 / (4.0 * ac->h[a] * ac->h[a]);
  for (PetscInt s = 0; s < K; s++) {
    const PetscReal *u = ac->hu, *vp = ac->hvp;
    PetscReal       *v = ac->hv, *phi = ac->hphi;

    for (PetscInt r = 0; r < AC_NREGIONS; r++) {
      if (!(mask & (1 << r))) continue;
      for (PetscInt k = ac->lo[r][2]; k < ac->hi[r][2]; k++)
        for (PetscInt j = ac->lo[r][1]; j < ac->hi[r][1]; j++)
          for (PetscInt i = ac->lo[r][0]; i < ac->hi[r][0]; i++) {
            const PetscInt  idx = AcIndex(ac, i, j, k);
            const PetscReal lap = AcLapPoint(u, idx, px, pxy, ac->coef);

            if (r == AC_REGION_INNER)
              v[idx] = 2 * u[idx] - v[idx] + vp[idx] * lap;
            else {
              const PetscReal e = ex[i] + ey[j] + ez[k];
              const PetscReal g = (ex[i + 1] - ex[i - 1]) * (u[idx + 1] - u[idx - 1]) * hd[0] + (ey[j + 1] - ey[j - 1]) * (u[idx + px] - u[idx - px]) * hd[1] +
                                  (ez[k + 1] - ez[k - 1]) * (u[idx + pxy] - u[idx - pxy]) * hd[2];
              v[idx]   = ((2 + 2 * e - e * e) * u[idx] - v[idx] + vp[idx] * (lap + phi[idx])) / (1 + 2 * e);
              phi[idx] = (phi[idx] - g) / (1 + e);
            }
          }
    }
    if (ac->amplitude != 0) {
      PetscReal w;
      PetscCall(AcousticWavelet(ac, ac->step, &w));
      v[AcIndex(ac, ac->src[0], ac->src[1], ac->src[2])] += w;
    }
    ac->hu = v;
    ac->hv = (PetscReal *)u;
    ac->step++;
  }
  PetscFunctionReturn(0);
}

/*@C
   AcousticStepRegions - K steps updating only the regions in mask (a bit per AcousticRegion; AC_REGIONS_ALL for a full
   step). For benchmarks and tests of the region decomposition.

   Level: developer
@*/
PetscErrorCode AcousticStepRegions(Acoustic ac, PetscInt K, PetscInt mask)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  PetscCheck(ac->setupcalled, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_WRONGSTATE, "Call AcousticSetUp() first");
  PetscCheck(K >= 0, PetscObjectComm((PetscObject)ac), PETSC_ERR_ARG_OUTOFRANGE, "Number of steps %" PetscInt_FMT " must be >= 0", K);
  if (ac->backend == ACOUSTIC_BACKEND_HOST)
    PetscCall(AcousticStepHost_Private(ac, K, mask));
  else
    PetscCall(AcousticStepDevice_Private(ac, K, mask));
  PetscFunctionReturn(0);
}

/*@C
   AcousticStep - Advance K leapfrog steps: u^{n+1} = 2 u^n - u^{n-1} + (v dt)^2 lap(u^n) in the inner region, the PML
   update in the six damping slabs, then the source; the two wavefields swap by pointer. On the device backend the K
   steps are enqueued without any host-device transfer and without waiting for the device.

   Collective

   Level: beginner

.seealso: `AcousticSetUp()`, `AcousticGetField()`, `AcousticGetNorms()`
@*/
PetscErrorCode AcousticStep(Acoustic ac, PetscInt K)
{
  PetscFunctionBegin;
  PetscCall(AcousticStepRegions(ac, K, AC_REGIONS_ALL));
  PetscFunctionReturn(0);
}

/*@C
   AcousticSynchronize - Wait until the device has finished the enqueued steps (for timing); nothing on the host backend.

   Level: intermediate
@*/
PetscErrorCode AcousticSynchronize(Acoustic ac)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ac, ACOUSTIC_CLASSID, 1);
  if (ac->cl) PetscCall(SbpmgCLFinish(ac->cl));
  PetscFunctionReturn(0);
}
