/* Multigrid transfers between a fine grid (Nr x Ns intervals) and the coarse grid of its even nodes (spec-sbp-sat.md 8.2, 8.4).
   Prolongation P = Ps (x) Pr is bilinear; restriction is P^T, i.e. the full-weighting stencil times 4 in the interior, which by
   R_fw = H_c^-1 P^T H_f is the restriction of the H-weighted residual. Each work-item writes exactly one output entry. The values
   are SBPMG_MG_REAL: fp64, or fp32 in the single-precision V-cycle (src/mg/kernels.c), which also takes its conversions from here. A
   program holds the kernels of SBPMG_MG_TRANSFER_KERNELS: 1 the transfers of one rank, 2 those of several ranks (_patch), 4 the
   conversions, 8 the transfers between grids of any sizes (one rank's and several ranks'). */
#ifdef __OPENCL_VERSION__
  #if defined(SBPMG_HAVE_FP64)
    #pragma OPENCL EXTENSION cl_khr_fp64 : enable
  #endif
  #if !defined(SBPMG_MG_REAL)
    #error "SBPMG_MG_REAL must be defined (src/mg/kernels.c: the precision of the transfers)"
  #endif
  #if !defined(SBPMG_MG_TRANSFER_KERNELS)
    #error "SBPMG_MG_TRANSFER_KERNELS must be defined (src/mg/kernels.c: which kernels a program holds: 1 one rank's, 2 several ranks', 4 the conversions, 8 between grids of any sizes)"
  #endif
typedef SBPMG_MG_REAL mg_real;
  #define MG_FN     inline
  #define MG_GLOBAL __global
#else
typedef PetscReal mg_real;
  #define MG_FN     static inline
  #define MG_GLOBAL
#endif

/* (P v)(i,j) for fine node (i,j); v indexed (ic - ox) + ld (jc - oy) on the coarse grid. */
MG_FN mg_real mg_prolong_point(const int i, const int j, MG_GLOBAL const mg_real *v, const long ox, const long oy, const long ld)
{
  const int I0 = i >> 1, J0 = j >> 1;
#define MG_V(ii, jj) v[(long)(ii) - ox + ld * ((long)(jj) - oy)]
  if (!(i & 1) && !(j & 1)) return MG_V(I0, J0);
  if (!(j & 1)) return (MG_V(I0, J0) + MG_V(I0 + 1, J0)) / 2;
  if (!(i & 1)) return (MG_V(I0, J0) + MG_V(I0, J0 + 1)) / 2;
  return (MG_V(I0, J0) + MG_V(I0 + 1, J0) + MG_V(I0, J0 + 1) + MG_V(I0 + 1, J0 + 1)) / 4;
#undef MG_V
}

/* (P^T r)(ic,jc) = sum_{a,b in -1..1} w_a w_b r(2I+a, 2J+b), w_0 = 1, w_{+-1} = 1/2, terms outside the fine grid dropped. */
MG_FN mg_real mg_restrict_point(const int ic, const int jc, const int Nr, const int Ns, MG_GLOBAL const mg_real *r, const long ox, const long oy, const long ld)
{
  const int i = 2 * ic, j = 2 * jc;
  mg_real   s = 0;
#define MG_R(ii, jj) r[(long)(ii) - ox + ld * ((long)(jj) - oy)]
  for (int b = -1; b <= 1; b++) {
    const int jj = j + b;
    mg_real   row;
    if (jj < 0 || jj > Ns) continue;
    row = MG_R(i, jj);
    if (i > 0) row += MG_R(i - 1, jj) / 2;
    if (i < Nr) row += MG_R(i + 1, jj) / 2;
    s += b ? row / 2 : row;
  }
#undef MG_R
  return s;
}

/* Between grids of any sizes (docs/design.md "Grids of any size"): along a direction of Nf fine and Nc coarse intervals, fine node i
   lies at coarse position i Nc / Nf of the uniform reference grids, and P is linear interpolation there: the weight of coarse node
   ic at fine node i is the hat max(0, 1 - |i Nc - ic Nf| / Nf) (exact integers; Nc = Nf: the identity, Nf = 2 Nc: 8.2's weights).
   P^T, the restriction, sums the same products of hats, so it is P's transpose to the bit. */
MG_FN mg_real mg_hat(const int i, const int ic, const int Nf, const int Nc)
{
  const long d = (long)i * Nc - (long)ic * Nf, a = d < 0 ? -d : d;
  return a < Nf ? (mg_real)(Nf - a) / (mg_real)Nf : (mg_real)0;
}

/* (P v)(i,j) for fine node (i,j) of an Nrf x Nsf grid from the Nrc x Nsc one; v indexed (ic - ox) + ld (jc - oy). */
MG_FN mg_real mg_prolong_any_point(const int i, const int j, const int Nrf, const int Nsf, const int Nrc, const int Nsc, MG_GLOBAL const mg_real *v, const long ox,
                                   const long oy, const long ld)
{
  const int I0 = (int)(((long)i * Nrc) / Nrf), J0 = (int)(((long)j * Nsc) / Nsf), I1 = I0 < Nrc ? I0 + 1 : I0, J1 = J0 < Nsc ? J0 + 1 : J0;
  const mg_real wi0 = mg_hat(i, I0, Nrf, Nrc), wi1 = I1 != I0 ? mg_hat(i, I1, Nrf, Nrc) : (mg_real)0, wj0 = mg_hat(j, J0, Nsf, Nsc),
                wj1 = J1 != J0 ? mg_hat(j, J1, Nsf, Nsc) : (mg_real)0;
#define MG_V(ii, jj) v[(long)(ii) - ox + ld * ((long)(jj) - oy)]
  mg_real y = wj0 * (wi0 * MG_V(I0, J0) + (wi1 != 0 ? wi1 * MG_V(I1, J0) : (mg_real)0));
  if (wj1 != 0) y += wj1 * (wi0 * MG_V(I0, J1) + (wi1 != 0 ? wi1 * MG_V(I1, J1) : (mg_real)0));
#undef MG_V
  return y;
}

/* (P^T r)(ic,jc): the sum over the fine nodes within a hat of (ic, jc). */
MG_FN mg_real mg_restrict_any_point(const int ic, const int jc, const int Nrf, const int Nsf, const int Nrc, const int Nsc, MG_GLOBAL const mg_real *r, const long ox,
                                    const long oy, const long ld)
{
  const int ilo = ic > 0 ? (int)(((long)(ic - 1) * Nrf) / Nrc) : 0, ihi = ic < Nrc ? (int)(((long)(ic + 1) * Nrf + Nrc - 1) / Nrc) : Nrf;
  const int jlo = jc > 0 ? (int)(((long)(jc - 1) * Nsf) / Nsc) : 0, jhi = jc < Nsc ? (int)(((long)(jc + 1) * Nsf + Nsc - 1) / Nsc) : Nsf;
  mg_real   s = 0;
  for (int j = jlo; j <= jhi && j <= Nsf; j++) {
    const mg_real wj = mg_hat(j, jc, Nsf, Nsc);
    mg_real       row = 0;
    if (wj == 0) continue;
    for (int i = ilo; i <= ihi && i <= Nrf; i++) {
      const mg_real wi = mg_hat(i, ic, Nrf, Nrc);
      if (wi != 0) row += wi * r[(long)i - ox + ld * ((long)j - oy)];
    }
    s += wj * row;
  }
  return s;
}

#ifdef __OPENCL_VERSION__
#if SBPMG_MG_TRANSFER_KERNELS & 8
/* y_f = (add ? y_f : 0) + P x_c, one work-item per fine node, grids of any sizes (one rank: the whole grid). */
__kernel void mg_prolong_any(const int Nrf, const int Nsf, const int Nrc, const int Nsc, __global const mg_real *xc, const int add, __global mg_real *yf)
{
  const int i = get_global_id(0), j = get_global_id(1);
  if (i > Nrf || j > Nsf) return;
  {
    const long    k = i + (long)(Nrf + 1) * j;
    const mg_real v = mg_prolong_any_point(i, j, Nrf, Nsf, Nrc, Nsc, xc, 0, 0, Nrc + 1);
    yf[k]           = add ? yf[k] + v : v;
  }
}

/* y_c = (add ? y_c : 0) + P^T x_f, one work-item per coarse node. */
__kernel void mg_restrict_any(const int Nrf, const int Nsf, const int Nrc, const int Nsc, __global const mg_real *xf, const int add, __global mg_real *yc)
{
  const int ic = get_global_id(0), jc = get_global_id(1);
  if (ic > Nrc || jc > Nsc) return;
  {
    const long    k = ic + (long)(Nrc + 1) * jc;
    const mg_real v = mg_restrict_any_point(ic, jc, Nrf, Nsf, Nrc, Nsc, xf, 0, 0, Nrf + 1);
    yc[k]           = add ? yc[k] + v : v;
  }
}

/* The same on several MPI ranks: the owned block own = (xs, ys, xm, ym) of the output grid, the input on its ghosted patch
   gh = (gxs, gys, gxm) (the coarse ranges of src/sbp/coarsen.c keep every read within it). */
__kernel void mg_prolong_any_patch(const int Nrf, const int Nsf, const int Nrc, const int Nsc, __global const mg_real *xc, const int add, __global mg_real *yf,
                                   const int4 gh, const int4 own)
{
  const int gi = get_global_id(0), gj = get_global_id(1);
  if (gi >= own.s2 || gj >= own.s3) return;
  {
    const long    k = gi + (long)own.s2 * gj;
    const mg_real v = mg_prolong_any_point(own.s0 + gi, own.s1 + gj, Nrf, Nsf, Nrc, Nsc, xc, gh.s0, gh.s1, gh.s2);
    yf[k]           = add ? yf[k] + v : v;
  }
}

__kernel void mg_restrict_any_patch(const int Nrf, const int Nsf, const int Nrc, const int Nsc, __global const mg_real *xf, const int add, __global mg_real *yc,
                                    const int4 gh, const int4 own)
{
  const int gi = get_global_id(0), gj = get_global_id(1);
  if (gi >= own.s2 || gj >= own.s3) return;
  {
    const long    k = gi + (long)own.s2 * gj;
    const mg_real v = mg_restrict_any_point(own.s0 + gi, own.s1 + gj, Nrf, Nsf, Nrc, Nsc, xf, gh.s0, gh.s1, gh.s2);
    yc[k]           = add ? yc[k] + v : v;
  }
}
#endif

#if SBPMG_MG_TRANSFER_KERNELS & 1
/* y_f = (add ? y_f : 0) + P x_c over the fine grid (Nr x Ns intervals, Nr even). A work-item takes the nodes 2I and 2I + 1 of row j:
   the parity of each is then known, so no warp runs more than one branch of mg_prolong_point, and the coarse values they share are
   loaded once. A range of (Nr/2 + 1) x (Ns + 1). */
__kernel void mg_prolong(const int Nr, const int Ns, __global const mg_real *xc, const int add, __global mg_real *yf)
{
  const int i = 2 * (int)get_global_id(0), j = get_global_id(1);
  if (i > Nr || j > Ns) return;
  {
    const long    k  = i + (long)(Nr + 1) * j;
    const mg_real v0 = mg_prolong_point(i, j, xc, 0, 0, Nr / 2 + 1);
    if (i < Nr) {
      const mg_real v1 = mg_prolong_point(i + 1, j, xc, 0, 0, Nr / 2 + 1);
      yf[k + 1]        = add ? yf[k + 1] + v1 : v1;
    }
    yf[k] = add ? yf[k] + v0 : v0;
  }
}

/* y_c = (add ? y_c : 0) + P^T x_f over the coarse grid; Nr, Ns are the fine grid's intervals. */
__kernel void mg_restrict(const int Nr, const int Ns, __global const mg_real *xf, const int add, __global mg_real *yc)
{
  const int ic = get_global_id(0), jc = get_global_id(1), Nc = Nr / 2, Mc = Ns / 2;
  if (ic > Nc || jc > Mc) return;
  {
    const long    k = ic + (long)(Nc + 1) * jc;
    const mg_real v = mg_restrict_point(ic, jc, Nr, Ns, xf, 0, 0, Nr + 1);
    yc[k]           = add ? yc[k] + v : v;
  }
}

#endif

#if SBPMG_MG_TRANSFER_KERNELS & 2
/* On several MPI ranks: the owned block own = (xs, ys, xm, ym) of the output grid, reading the input on its ghosted patch
   gh = (gxs, gys, gxm) (src/halo/halo.c). A 2D range xm x ym. */
__kernel void mg_prolong_patch(__global const mg_real *xc, const int add, __global mg_real *yf, const int4 gh, const int4 own)
{
  const int gi = get_global_id(0), gj = get_global_id(1);
  if (gi >= own.s2 || gj >= own.s3) return;
  {
    const long    k = gi + (long)own.s2 * gj;
    const mg_real v = mg_prolong_point(own.s0 + gi, own.s1 + gj, xc, gh.s0, gh.s1, gh.s2);
    yf[k]           = add ? yf[k] + v : v;
  }
}

/* Nr, Ns: the fine grid's intervals; own: the coarse owned block; gh: the fine ghosted patch */
__kernel void mg_restrict_patch(const int Nr, const int Ns, __global const mg_real *xf, const int add, __global mg_real *yc, const int4 gh, const int4 own)
{
  const int gi = get_global_id(0), gj = get_global_id(1);
  if (gi >= own.s2 || gj >= own.s3) return;
  {
    const long    k = gi + (long)own.s2 * gj;
    const mg_real v = mg_restrict_point(own.s0 + gi, own.s1 + gj, Nr, Ns, xf, gh.s0, gh.s1, gh.s2);
    yc[k]           = add ? yc[k] + v : v;
  }
}

#endif

#if SBPMG_MG_TRANSFER_KERNELS & 4
/* y = x rounded to fp32, and y = x in the outer precision (CG's, SBPMG_REAL), n values: the single-precision V-cycle's conversions
   where no kernel that runs anyway takes them (src/mg/vecfp32.c). */
__kernel void mg_to_single(const int n, __global const SBPMG_REAL *x, __global float *y)
{
  const int t = get_global_id(0);
  if (t < n) y[t] = (float)x[t];
}

__kernel void mg_to_outer(const int n, __global const float *x, __global SBPMG_REAL *y)
{
  const int t = get_global_id(0);
  if (t < n) y[t] = (SBPMG_REAL)x[t];
}
#endif
#endif
