/* Helpers of the acoustic operator: deterministic random fields and field norms.
   Build option SBPMG_NORM_LS (tuning ac_norm_wg): the work-group size of ac_norms, a power of two.

   The random hash is also compiled by the host (src/acoustic/setup.c includes this file as C), so that the host reference
   and the device fill the same values from one definition. */
#ifdef __OPENCL_VERSION__
#  ifndef SBPMG_NORM_LS
#    error "SBPMG_NORM_LS must be defined (tuning table)"
#  endif
typedef uint  ac_uint;
typedef float ac_real;
#  define AC_FN
#else
typedef uint32_t  ac_uint;
typedef PetscReal ac_real;
#  define AC_FN static inline
#endif

AC_FN ac_uint ac_mix(ac_uint x)
{
  x ^= x >> 16;
  x *= 0x21f0aaadu;
  x ^= x >> 15;
  x *= 0x735a2d97u;
  x ^= x >> 15;
  return x;
}

/* The random value of point n of field `field` with seed `seed`, uniform in [-1, 1) on a 2^-23 lattice (exact in float
   and double, so the host's double and the device's float hold the same number). */
AC_FN ac_real ac_random(ac_uint seed, ac_uint field, ac_uint n)
{
  const ac_uint h = ac_mix(n ^ ac_mix(seed * 0x9e3779b9u + field * 0x85ebca6bu + 0x632be5abu));
  return (ac_real)(h >> 8) * ((ac_real)1 / 8388608) - 1;
}

#ifdef __OPENCL_VERSION__
/* Fill planes of a padded field with the random values of the grid: work-item (i, j, k) writes f[origin + i + j px + k pxy]
   with the value of grid point (i, j, k + kofs) (kofs: the global index of the first plane written; on several ranks the
   slab's halo planes are filled too). Range: (nx, ny, planes). */
__kernel void ac_fill_random(const int nx, const int ny, const int px, const int pxy, const int origin, const int kofs, const uint seed, const uint field,
                             __global float *f)
{
  const int i = (int)get_global_id(0), j = (int)get_global_id(1), k = (int)get_global_id(2);
  f[origin + i + j * px + k * pxy] = ac_random(seed, field, (uint)(i + nx * (j + ny * (k + kofs))));
}

/* max(a, b), NaN if either is (fmax drops a NaN: a field that blew up must not read as 0). */
inline float ac_nanmax(float a, float b)
{
  return (isnan(a) || isnan(b)) ? NAN : fmax(a, b);
}

/* Per work-group max |f| and sum f^2 over the grid points, a loop over rows (j, k) of nx points; NaN propagates. */
__kernel __attribute__((reqd_work_group_size(SBPMG_NORM_LS, 1, 1))) void ac_norms(const int nx, const int ny, const int nz, const int px, const int pxy,
                                                                            const int origin, __global const float *f, __global float2 *partial)
{
  __local float smax[SBPMG_NORM_LS], ssum[SBPMG_NORM_LS];
  const int     lid = (int)get_local_id(0), nrow = ny * nz;
  float         m = 0.0f, s = 0.0f;

  for (int r = (int)get_group_id(0); r < nrow; r += (int)get_num_groups(0)) {
    const int base = origin + (r % ny) * px + (r / ny) * pxy;
    for (int i = lid; i < nx; i += SBPMG_NORM_LS) {
      const float x = f[base + i];
      m             = ac_nanmax(m, fabs(x));
      s             = fma(x, x, s);
    }
  }
  smax[lid] = m;
  ssum[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int w = SBPMG_NORM_LS / 2; w > 0; w >>= 1) {
    if (lid < w) {
      smax[lid] = ac_nanmax(smax[lid], smax[lid + w]);
      ssum[lid] += ssum[lid + w];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = (float2)(smax[0], ssum[0]);
}
#endif
