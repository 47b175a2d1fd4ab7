/* The device-resident CG of src/krylov (docs/design.md "CG on the device"): its scalars never leave the device. A dot product is
   two launches, the partial sums of SBPMG_KR_WG-item work-groups (krylov_dots) and their sum by one work-group into a slot of the
   scalar area s (krylov_finish); the updates read alpha and beta from s. Slots of s: KR_RZ r.z (this iteration), KR_RZ_OLD the last
   one's, KR_PW p.w, KR_RR r.r, KR_ZZ z.z. */
#if defined(SBPMG_HAVE_FP64)
  #pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#if !defined(SBPMG_KR_WG)
  #error "SBPMG_KR_WG must be defined (src/krylov: tuning vec_wg, a power of two)"
#endif
#define KR_RZ     0
#define KR_RZ_OLD 1
#define KR_PW     2
#define KR_RR     3
#define KR_ZZ     4

typedef SBPMG_REAL kr_real;

/* The sums of one work-group's values v[q][lid] (q < 3) into v[q][0]. */
inline void kr_tree(__local kr_real v[3][SBPMG_KR_WG], const int lid)
{
  for (int w = SBPMG_KR_WG / 2; w > 0; w /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < w)
      for (int q = 0; q < 3; q++) v[q][lid] += v[q][lid + w];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

/* The partial sums over this work-group's grid-stride share of a.b (mode & 1), a.a (mode & 2) and b.b (mode & 4): partial[3 group + q]. */
__kernel __attribute__((reqd_work_group_size(SBPMG_KR_WG, 1, 1))) void krylov_dots(const long n, const int mode, __global const kr_real *a, __global const kr_real *b,
                                                                              __global kr_real *partial)
{
  __local kr_real v[3][SBPMG_KR_WG];
  const int       lid = (int)get_local_id(0);
  kr_real         ab = 0, aa = 0, bb = 0;

  for (long i = get_global_id(0); i < n; i += (long)get_global_size(0)) {
    const kr_real x = a[i], y = b[i];
    ab += x * y;
    aa += x * x;
    bb += y * y;
  }
  v[0][lid] = ab;
  v[1][lid] = aa;
  v[2][lid] = bb;
  kr_tree(v, lid);
  if (lid < 3 && (mode & (1 << lid))) partial[3 * (long)get_group_id(0) + lid] = v[lid][0];
}

/* One work-group: the sums of the ngroups partials into s: a.b into slot ab_slot (with keep_old, the value there moves to KR_RZ_OLD
   first), a.a into KR_RR, b.b into KR_ZZ. */
__kernel __attribute__((reqd_work_group_size(SBPMG_KR_WG, 1, 1))) void krylov_finish(const int ngroups, const int mode, __global const kr_real *partial,
                                                                                const int ab_slot, const int keep_old, __global kr_real *s)
{
  __local kr_real v[3][SBPMG_KR_WG];
  const int       lid = (int)get_local_id(0);
  kr_real         sum[3] = {0, 0, 0};

  for (int g = lid; g < ngroups; g += SBPMG_KR_WG)
    for (int q = 0; q < 3; q++)
      if (mode & (1 << q)) sum[q] += partial[3 * (long)g + q];
  for (int q = 0; q < 3; q++) v[q][lid] = sum[q];
  kr_tree(v, lid);
  if (lid == 0) {
    if (mode & 1) {
      if (keep_old) s[KR_RZ_OLD] = s[ab_slot];
      s[ab_slot] = v[0][0];
    }
    if (mode & 2) s[KR_RR] = v[1][0];
    if (mode & 4) s[KR_ZZ] = v[2][0];
  }
}

/* x += alpha p, r -= alpha w with alpha = r.z / p.w; nothing where p.w is zero or not finite (CG stops there: a breakdown, reported
   by the host from the same scalars). A negative p.w is no breakdown: on a negative definite operator CG goes on, as KSPCG does. */
__kernel void krylov_update_xr(const long n, __global kr_real *x, __global kr_real *r, __global const kr_real *p, __global const kr_real *w,
                               __global const kr_real *s)
{
  const long    i  = get_global_id(0);
  const kr_real pw = s[KR_PW], alpha = (pw != 0 && isfinite(pw)) ? s[KR_RZ] / pw : 0;

  if (i >= n) return;
  x[i] += alpha * p[i];
  r[i] -= alpha * w[i];
}

/* p = z + beta p with beta = r.z / (the last r.z). */
__kernel void krylov_update_p(const long n, __global kr_real *p, __global const kr_real *z, __global const kr_real *s)
{
  const long    i    = get_global_id(0);
  const kr_real beta = s[KR_RZ] / s[KR_RZ_OLD];

  if (i >= n) return;
  p[i] = z[i] + beta * p[i];
}
