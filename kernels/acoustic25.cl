/* The 8th-order 25-point acoustic operator (docs/acoustic.md): one leapfrog step of
     inner region : v <- 2 u - v + vp lap(u)
     PML regions  : v <- ((2 + 2 eta - eta^2) u - v + vp (lap(u) + phi)) / (1 + 2 eta)
                    phi <- (phi - sum_a (eta_{a+1} - eta_{a-1}) (u_{a+1} - u_{a-1}) / (4 h_a^2)) / (1 + eta)
   (the sources and receivers: kernels/acoustic_points.cl). fp32 fields in a padded layout: point (i,j,k) of the
   nx x ny x nz grid is at origin + i + j px + k pxy, with a zero halo of at least 4 points on every side (8 after the last x point); origin + i is
   a multiple of 32 for i = ndamp (the first inner point). eta holds the three 1D damping profiles (eta dt, dimensionless):
   eta_x(i) = eta[ex + i] for i in [-9, nx + 8] (zero beyond [-1, nx]), likewise y and z.

   The kernels are 2.5D: a work-group owns a tile of the two fast axes (x, y) and sweeps the slow axis z, keeping the
   9-point z column of u in registers; the x and y neighbours come from global memory (the cache) or, for the inner
   region with SBPMG_AC_LOCAL, from a local-memory copy of the plane. A work-item covers SBPMG_AC_VEC (inner) or SBPMG_PML_VEC (PML)
   consecutive x points with aligned vector loads. Three ways to launch them:
     ac_inner, ac_pml            one launch per region (the box is an argument)
     ac_inner, ac_pml_all        the inner region, then the six PML regions in one launch (a table maps each
                                 work-group to a region and a tile)
     ac_whole                    the whole grid in one launch of the inner kernel's tiles, the PML update where needed

   Build options, all set by the host from the tuning table (include/sbpmg/private/tuning.h, keys ac_*): SBPMG_TILE_X, SBPMG_TILE_Y
   (inner work-group), SBPMG_TILE_Z (planes per inner work-group, 0: all), SBPMG_AC_LOCAL, SBPMG_AC_VEC, SBPMG_PML_TX, SBPMG_PML_TY, SBPMG_PML_TZ, SBPMG_PML_VEC (the
   same for the PML), SBPMG_AC_FTZ (store |x| < 1e-30 as 0), SBPMG_AC_PF, SBPMG_PML_PF (planes of cache prefetch ahead of the sweeps), SBPMG_AC_PF_PTX
   (the prefetch as PTX), SBPMG_AC_UNROLL, SBPMG_PML_UNROLL (planes per loop iteration). */

#if !defined(SBPMG_TILE_X) || !defined(SBPMG_TILE_Y) || !defined(SBPMG_TILE_Z) || !defined(SBPMG_AC_LOCAL) || !defined(SBPMG_AC_VEC) || !defined(SBPMG_PML_TX) || !defined(SBPMG_PML_TY) || \
  !defined(SBPMG_PML_TZ) || !defined(SBPMG_PML_VEC) || !defined(SBPMG_AC_FTZ) || !defined(SBPMG_AC_PF) || !defined(SBPMG_PML_PF) || !defined(SBPMG_AC_PF_PTX) || !defined(SBPMG_AC_UNROLL) ||   \
  !defined(SBPMG_PML_UNROLL)
  #error "SBPMG_TILE_X, SBPMG_TILE_Y, SBPMG_TILE_Z, SBPMG_AC_LOCAL, SBPMG_AC_VEC, SBPMG_PML_TX, SBPMG_PML_TY, SBPMG_PML_TZ, SBPMG_PML_VEC, SBPMG_AC_FTZ, SBPMG_AC_PF, SBPMG_PML_PF, SBPMG_AC_PF_PTX, SBPMG_AC_UNROLL and SBPMG_PML_UNROLL must be defined (tuning table)"
#endif
#if (SBPMG_AC_VEC != 1 && SBPMG_AC_VEC != 2 && SBPMG_AC_VEC != 4) || (SBPMG_PML_VEC != 1 && SBPMG_PML_VEC != 2 && SBPMG_PML_VEC != 4)
  #error "SBPMG_AC_VEC and SBPMG_PML_VEC must be 1, 2 or 4"
#endif

/* SBPMG_AC_FTZ 1: store |x| < 1e-30 as 0. For CPU devices, where -cl-denorms-are-zero is not honoured (PoCL) and denormal
   arithmetic is two orders of magnitude slower; 1e-30 leaves eight decades above the denormal range for products. */

/* SBPMG_AC_PF d > 0 (inner), SBPMG_PML_PF d > 0 (PML): the 2.5D sweeps ask for the streamed data of the plane d planes ahead (u at k + 4 + d;
   v, vp, phi at k + d) to be brought into the cache before they load it: more bytes in flight per work-item without holding
   them in registers. SBPMG_AC_PF_PTX 1 (NVIDIA's platform): PTX prefetch.global.L2; 0: OpenCL's prefetch(). Hints only: the fields
   do not change. */
#if SBPMG_AC_PF_PTX
  #define AC_PREFETCH(p) __asm__ volatile("prefetch.global.L2 [%0];" ::"l"((ulong)(p)))
#else
  #define AC_PREFETCH(p) prefetch((p), 1)
#endif

/* SBPMG_AC_UNROLL, SBPMG_PML_UNROLL u > 1: unroll the plane loop of the inner / PML sweep u times (more loads in flight per work-item). */
#define AC_PRAGMA_(x)       _Pragma(#x)
#define AC_UNROLL_PRAGMA(u) AC_PRAGMA_(unroll u)
#if defined(__clang__) && (SBPMG_AC_UNROLL > 1 || SBPMG_PML_UNROLL > 1)
  #pragma clang diagnostic ignored "-Wpass-failed" /* PoCL's clang may leave the loop as it is: a hint, not a requirement */
#endif

/* ---------------------------------------------------------------- vector helpers, one set per width */
#define AC_CAT_(a, b) a##b
#define AC_CAT(a, b)  AC_CAT_(a, b)

/* flush tiny values (SBPMG_AC_FTZ) */
#if SBPMG_AC_FTZ
  #define FTZ1(x) (fabs(x) < 1e-30f ? 0.0f : (x))
  #define FTZ2(x) (fabs(x) < (float2)(1e-30f) ? (float2)(0.0f) : (x))
  #define FTZ4(x) (fabs(x) < (float4)(1e-30f) ? (float4)(0.0f) : (x))
#else
  #define FTZ1(x) (x)
  #define FTZ2(x) (x)
  #define FTZ4(x) (x)
#endif

/* the vector of W points, and unaligned loads of it */
typedef float  ac_float1;
typedef float2 ac_float2;
typedef float4 ac_float4;
#define VLOADU1(p) (*(p))
#define VLOADU2(p) vload2(0, p)
#define VLOADU4(p) vload4(0, p)

/* aligned loads and stores of W consecutive points */
#define LD1(p, o)    ((p)[(o)])
#define LD2(p, o)    (*(__global const float2 *)((p) + (o)))
#define LD4(p, o)    (*(__global const float4 *)((p) + (o)))
#define ST1(p, o, x) ((p)[(o)] = (x))
#define ST2(p, o, x) (*(__global float2 *)((p) + (o)) = (x))
#define ST4(p, o, x) (*(__global float4 *)((p) + (o)) = (x))

/* Store the lanes l of x with lo <= i + l < hi (all of them in one vector store when possible). */
void ac_store1(__global float *p, const int o, const float x, const int i, const int lo, const int hi)
{
  if (i >= lo && i < hi) p[o] = x;
}
void ac_store2(__global float *p, const int o, const float2 x, const int i, const int lo, const int hi)
{
  if (i >= lo && i + 2 <= hi) ST2(p, o, x);
  else {
    if (i >= lo && i < hi) p[o] = x.x;
    if (i + 1 >= lo && i + 1 < hi) p[o + 1] = x.y;
  }
}
void ac_store4(__global float *p, const int o, const float4 x, const int i, const int lo, const int hi)
{
  if (i >= lo && i + 4 <= hi) ST4(p, o, x);
  else {
    if (i >= lo && i < hi) p[o] = x.x;
    if (i + 1 >= lo && i + 1 < hi) p[o + 1] = x.y;
    if (i + 2 >= lo && i + 2 < hi) p[o + 2] = x.z;
    if (i + 3 >= lo && i + 3 < hi) p[o + 3] = x.w;
  }
}

/* The x neighbours of the W points starting at the centre vector C: xm[m], xp[m] = the vectors shifted by -(m+1),
   +(m+1). W 1: from the eight scalars; W 2: from the vectors at -4, -2, +2, +4; W 4: from the vectors at -4 and +4. */
#define AC_XN1(L4, L3, L2, L1, C, R1, R2, R3, R4, xm, xp) \
  do { \
    xm[0] = L1; xm[1] = L2; xm[2] = L3; xm[3] = L4; \
    xp[0] = R1; xp[1] = R2; xp[2] = R3; xp[3] = R4; \
  } while (0)
#define AC_XN2(A, B, C, D, E, xm, xp) /* A = [-4,-3], B = [-2,-1], C = [0,1], D = [2,3], E = [4,5] */ \
  do { \
    xm[0] = (float2)(B.y, C.x); xm[1] = B; xm[2] = (float2)(A.y, B.x); xm[3] = A; \
    xp[0] = (float2)(C.y, D.x); xp[1] = D; xp[2] = (float2)(D.y, E.x); xp[3] = E; \
  } while (0)
#define AC_XN4(L, C, R, xm, xp) \
  do { \
    xm[0] = (float4)(L.w, C.xyz); xm[1] = (float4)(L.zw, C.xy); xm[2] = (float4)(L.yzw, C.x); xm[3] = L; \
    xp[0] = (float4)(C.yzw, R.x); xp[1] = (float4)(C.zw, R.xy); xp[2] = (float4)(C.w, R.xyz); xp[3] = R; \
  } while (0)

/* The same from row t of the local tile, the centre vector at t[lx + 4 / W]. */
#define AC_XTILE1(t, lx, C, xm, xp) AC_XN1(t[lx], t[lx + 1], t[lx + 2], t[lx + 3], C, t[lx + 5], t[lx + 6], t[lx + 7], t[lx + 8], xm, xp)
#define AC_XTILE2(t, lx, C, xm, xp) AC_XN2(t[lx], t[lx + 1], C, t[lx + 3], t[lx + 4], xm, xp)
#define AC_XTILE4(t, lx, C, xm, xp) AC_XN4(t[lx], C, t[lx + 2], xm, xp)

/* Load the x neighbours of the W-vector at offset o from global memory. */
#define AC_XLOAD1(u, o, C, xm, xp) /* C unused: the same arguments as the wider loads */ \
  AC_XN1(LD1(u, (o) - 4), LD1(u, (o) - 3), LD1(u, (o) - 2), LD1(u, (o) - 1), 0, LD1(u, (o) + 1), LD1(u, (o) + 2), LD1(u, (o) + 3), LD1(u, (o) + 4), xm, xp)
#define AC_XLOAD2(u, o, C, xm, xp) \
  do { \
    const float2 a_ = LD2(u, (o) - 4), b_ = LD2(u, (o) - 2), d_ = LD2(u, (o) + 2), e_ = LD2(u, (o) + 4); \
    AC_XN2(a_, b_, C, d_, e_, xm, xp); \
  } while (0)
#define AC_XLOAD4(u, o, C, xm, xp) \
  do { \
    const float4 l_ = LD4(u, (o) - 4), r_ = LD4(u, (o) + 4); \
    AC_XN4(l_, C, r_, xm, xp); \
  } while (0)

/* The Laplacian from the centre and the neighbour vectors; the order of the operations is fixed (the tests compare
   the variants bit for bit). */
#define AC_LAP(T, lap, c0, cx, cy, cz, C, xm, xp, ym, yp, q0, q1, q2, q3, q5, q6, q7, q8) \
  do { \
    lap = c0 * C; \
    lap = fma((T)cx.x, xm[0] + xp[0], lap); \
    lap = fma((T)cy.x, ym[0] + yp[0], lap); \
    lap = fma((T)cz.x, q3 + q5, lap); \
    lap = fma((T)cx.y, xm[1] + xp[1], lap); \
    lap = fma((T)cy.y, ym[1] + yp[1], lap); \
    lap = fma((T)cz.y, q2 + q6, lap); \
    lap = fma((T)cx.z, xm[2] + xp[2], lap); \
    lap = fma((T)cy.z, ym[2] + yp[2], lap); \
    lap = fma((T)cz.z, q1 + q7, lap); \
    lap = fma((T)cx.w, xm[3] + xp[3], lap); \
    lap = fma((T)cy.w, ym[3] + yp[3], lap); \
    lap = fma((T)cz.w, q0 + q8, lap); \
  } while (0)

/* The Laplacian lap of the W-vector at idx whose z column of u is q0..q8 (centre q4), with its x and y neighbours xm, xp, ym,
   yp (arrays of the caller) loaded from global memory, i.e. from the cache: the 2.5D kernels without local memory. */
#define AC_LAP_CACHED(W, T, lap, u, idx, px, c0, cx, cy, cz, xm, xp, ym, yp, q0, q1, q2, q3, q4, q5, q6, q7, q8) \
  do { \
    AC_CAT(AC_XLOAD, W)(u, idx, q4, xm, xp); \
    for (int m_ = 0; m_ < 4; m_++) { \
      ym[m_] = AC_CAT(LD, W)(u, (idx) - (m_ + 1) * (px)); \
      yp[m_] = AC_CAT(LD, W)(u, (idx) + (m_ + 1) * (px)); \
    } \
    AC_LAP(T, lap, c0, cx, cy, cz, q4, xm, xp, ym, yp, q0, q1, q2, q3, q5, q6, q7, q8); \
  } while (0)

/* Move a 9-plane z column one plane on: a0 <- a1, ..., a7 <- a8 (a8 keeps its value until the next load). */
#define AC_SHIFT9(a0, a1, a2, a3, a4, a5, a6, a7, a8) \
  do { \
    a0 = a1; \
    a1 = a2; \
    a2 = a3; \
    a3 = a4; \
    a4 = a5; \
    a5 = a6; \
    a6 = a7; \
    a7 = a8; \
  } while (0)

/* The first eight planes of the z column of u at idx: a0..a7 = u at planes -4..+3 (the sweep loads a8, plane +4). */
#define AC_LOAD_COLUMN(LD, u, idx, pxy, a0, a1, a2, a3, a4, a5, a6, a7) \
  do { \
    a0 = LD(u, idx - 4 * pxy); \
    a1 = LD(u, idx - 3 * pxy); \
    a2 = LD(u, idx - 2 * pxy); \
    a3 = LD(u, idx - pxy); \
    a4 = LD(u, idx); \
    a5 = LD(u, idx + pxy); \
    a6 = LD(u, idx + 2 * pxy); \
    a7 = LD(u, idx + 3 * pxy); \
  } while (0)

/* The damping of the x-y position (i, j) of a vector (VLOADU: the unaligned load of its width): eta_x + eta_y, and the x and
   y terms of grad eta / (4 h^2). */
#define AC_ETA_XY(VLOADU, eta, ex, ey, i, j) (VLOADU(eta + ex + i) + eta[ey + j])
#define AC_GRAD_X(VLOADU, eta, ex, i, hd)    ((VLOADU(eta + ex + i + 1) - VLOADU(eta + ex + i - 1)) * hd.x)
#define AC_GRAD_Y(eta, ey, j, hd)            ((eta[ey + j + 1] - eta[ey + j - 1]) * hd.y)

/* ---------------------------------------------------------------- inner region body
   Tile (ti, tj, tk) of the region [lo, hi); (lx, ly) the work-item in the tile. lim.x / lim.y: the largest x vector
   start / y row a load may touch (overhanging work-items of the local variant load clamped data no active point needs). */
#define IV      SBPMG_AC_VEC
#define IT      AC_CAT(ac_float, SBPMG_AC_VEC)
#define ILD     AC_CAT(LD, SBPMG_AC_VEC)
#define IFTZ    AC_CAT(FTZ, SBPMG_AC_VEC)
#define IVLOADU AC_CAT(VLOADU, SBPMG_AC_VEC)
#define AC_HX   (4 / SBPMG_AC_VEC) /* x halo of the local tile, in vectors */

void ac_inner_body(const int ti, const int tj, const int tk, const int lx, const int ly, const int4 lo, const int4 hi, const int4 lim, const int px, const int pxy,
                   const int origin, const float c0, const float4 cx, const float4 cy, const float4 cz, __global const float *restrict u, __global float *restrict v,
                   __global const float *restrict vp, __local IT (*tile)[SBPMG_TILE_X + 2 * (4 / SBPMG_AC_VEC)])
{
  const int i      = lo.x + IV * (ti * SBPMG_TILE_X + lx);
  const int j      = lo.y + tj * SBPMG_TILE_Y + ly;
  const int kb     = lo.z + (SBPMG_TILE_Z > 0 ? tk * SBPMG_TILE_Z : 0);
  const int ke     = SBPMG_TILE_Z > 0 ? min(kb + SBPMG_TILE_Z, hi.z) : hi.z;
  const int active = (i < hi.x) && (j < hi.y);
  IT        q0, q1, q2, q3, q4, q5, q6, q7, q8;
#if SBPMG_AC_LOCAL
  const int il = min(i, lim.x), jl = min(j, lim.y); /* where this work-item loads from */
  int       idx = origin + il + jl * px + kb * pxy;
  int       ixm = idx - 4, ixp = origin + min(il + 4, lim.x) + jl * px + kb * pxy;
  int       iym = idx - 4 * px, iyp = origin + il + min(jl + 4, lim.y) * px + kb * pxy;
  const int hxm = lx < AC_HX, hxp = lx >= SBPMG_TILE_X - AC_HX, hym = ly < 4, hyp = ly >= SBPMG_TILE_Y - 4;
#else
  int idx = origin + i + j * px + kb * pxy;
  if (!active) return;
#endif
  AC_LOAD_COLUMN(ILD, u, idx, pxy, q0, q1, q2, q3, q4, q5, q6, q7);
#if SBPMG_AC_UNROLL > 1
  AC_UNROLL_PRAGMA(SBPMG_AC_UNROLL)
#endif
  for (int k = kb; k < ke; k++) {
    IT xm[4], xp[4], ym[4], yp[4], lap;
    if (SBPMG_AC_PF > 0 && k + SBPMG_AC_PF < ke) {
      AC_PREFETCH(u + idx + (4 + SBPMG_AC_PF) * pxy);
      AC_PREFETCH(v + idx + SBPMG_AC_PF * pxy);
      AC_PREFETCH(vp + idx + SBPMG_AC_PF * pxy);
    }
    q8 = ILD(u, idx + 4 * pxy);
#if SBPMG_AC_LOCAL
    barrier(CLK_LOCAL_MEM_FENCE); /* everyone is done reading the previous plane */
    tile[ly + 4][lx + AC_HX] = q4;
    if (hxm) tile[ly + 4][lx] = ILD(u, ixm);
    if (hxp) tile[ly + 4][lx + 2 * AC_HX] = ILD(u, ixp);
    if (hym) tile[ly][lx + AC_HX] = ILD(u, iym);
    if (hyp) tile[ly + 8][lx + AC_HX] = ILD(u, iyp);
    barrier(CLK_LOCAL_MEM_FENCE);
    AC_CAT(AC_XTILE, SBPMG_AC_VEC)(tile[ly + 4], lx, q4, xm, xp);
    for (int m = 0; m < 4; m++) {
      ym[m] = tile[ly + 3 - m][lx + AC_HX];
      yp[m] = tile[ly + 5 + m][lx + AC_HX];
    }
    ixm += pxy;
    ixp += pxy;
    iym += pxy;
    iyp += pxy;
    AC_LAP(IT, lap, c0, cx, cy, cz, q4, xm, xp, ym, yp, q0, q1, q2, q3, q5, q6, q7, q8);
#else
    AC_LAP_CACHED(SBPMG_AC_VEC, IT, lap, u, idx, px, c0, cx, cy, cz, xm, xp, ym, yp, q0, q1, q2, q3, q4, q5, q6, q7, q8);
#endif
    if (active) AC_CAT(ac_store, SBPMG_AC_VEC)(v, idx, IFTZ(fma(ILD(vp, idx), lap, 2.0f * q4 - ILD(v, idx))), i, lo.x, hi.x);
    AC_SHIFT9(q0, q1, q2, q3, q4, q5, q6, q7, q8);
    idx += pxy;
  }
}

/* ---------------------------------------------------------------- the PML update
   The new u (un) and phi (pn) of the W-vector at idx, of type T, at plane k: its Laplacian lap, its z column q3..q5 and its
   x and y neighbours xm[0], xp[0], ym[0], yp[0] (from AC_LAP_CACHED); exy = eta_x + eta_y and gx, gy the x and y terms of
   grad eta / (4 h^2) at the vector, hd.z = 1 / (4 hz^2), ez the z profile's offset. */
#define AC_PML_UPDATE(W, T, un, pn, lap, q3, q4, q5, xm, xp, ym, yp, exy, gx, gy, hd, eta, ez, k, idx, v, vp, phi)                              \
  do {                                                                                                                                        \
    const T e_ = exy + eta[ez + k], p_ = AC_CAT(LD, W)(phi, idx);                                                                            \
    T       g_ = gx * (xp[0] - xm[0]);                                                                                                        \
    g_         = fma((T)gy, yp[0] - ym[0], g_);                                                                                               \
    g_         = fma((T)((eta[ez + k + 1] - eta[ez + k - 1]) * hd.z), q5 - q3, g_);                                                           \
    un = AC_CAT(FTZ, W)((fma(AC_CAT(LD, W)(vp, idx), lap + p_, fma(2.0f + e_ * (2.0f - e_), q4, -AC_CAT(LD, W)(v, idx)))) / (fma((T)2.0f, e_, (T)1.0f))); \
    pn = AC_CAT(FTZ, W)((p_ - g_) / (1.0f + e_));                                                                                             \
  } while (0)

/* ---------------------------------------------------------------- PML body
   Tile (ti, tj, tk) of the region [lo, hi); the x vectors start at the aligned point xa <= lo.x (lanes outside [lo.x,
   hi.x) are computed and not stored). hd = 1 / (4 h^2) per axis; ex, ey, ez: offsets of the profiles in eta. */
#define PV      SBPMG_PML_VEC
#define PT      AC_CAT(ac_float, SBPMG_PML_VEC)
#define PLD     AC_CAT(LD, SBPMG_PML_VEC)
#define PVLOADU AC_CAT(VLOADU, SBPMG_PML_VEC)

void ac_pml_body(const int ti, const int tj, const int tk, const int lx, const int ly, const int ptx, const int pty, const int4 lo, const int4 hi, const int px, const int pxy, const int origin,
                 const float c0, const float4 cx, const float4 cy, const float4 cz, const float4 hd, const int ex, const int ey, const int ez,
                 __global const float *restrict u, __global float *restrict v, __global const float *restrict vp,
                 __global float *restrict phi, __global const float *restrict eta)
{
  const int xa = lo.x - (origin + lo.x) % PV;
  const int i  = xa + PV * (ti * ptx + lx);
  const int j  = lo.y + tj * pty + ly;
  const int kb = lo.z + (SBPMG_PML_TZ > 0 ? tk * SBPMG_PML_TZ : 0);
  const int ke = SBPMG_PML_TZ > 0 ? min(kb + SBPMG_PML_TZ, hi.z) : hi.z;
  if (i >= hi.x || j >= hi.y) return;
  int         idx = origin + i + j * px + kb * pxy;
  const PT    exy = AC_ETA_XY(PVLOADU, eta, ex, ey, i, j);
  const PT    gx  = AC_GRAD_X(PVLOADU, eta, ex, i, hd);
  const float gy  = AC_GRAD_Y(eta, ey, j, hd);
  PT          q0, q1, q2, q3, q4, q5, q6, q7, q8;
  AC_LOAD_COLUMN(PLD, u, idx, pxy, q0, q1, q2, q3, q4, q5, q6, q7);
#if SBPMG_PML_UNROLL > 1
  AC_UNROLL_PRAGMA(SBPMG_PML_UNROLL)
#endif
  for (int k = kb; k < ke; k++) {
    PT xm[4], xp[4], ym[4], yp[4], lap, un, pn;
    if (SBPMG_PML_PF > 0 && k + SBPMG_PML_PF < ke) {
      AC_PREFETCH(u + idx + (4 + SBPMG_PML_PF) * pxy);
      AC_PREFETCH(v + idx + SBPMG_PML_PF * pxy);
      AC_PREFETCH(vp + idx + SBPMG_PML_PF * pxy);
      AC_PREFETCH(phi + idx + SBPMG_PML_PF * pxy);
    }
    q8 = PLD(u, idx + 4 * pxy);
    AC_LAP_CACHED(SBPMG_PML_VEC, PT, lap, u, idx, px, c0, cx, cy, cz, xm, xp, ym, yp, q0, q1, q2, q3, q4, q5, q6, q7, q8);
    AC_PML_UPDATE(SBPMG_PML_VEC, PT, un, pn, lap, q3, q4, q5, xm, xp, ym, yp, exy, gx, gy, hd, eta, ez, k, idx, v, vp, phi);
    AC_CAT(ac_store, SBPMG_PML_VEC)(v, idx, un, i, lo.x, hi.x);
    AC_CAT(ac_store, SBPMG_PML_VEC)(phi, idx, pn, i, lo.x, hi.x);
    AC_SHIFT9(q0, q1, q2, q3, q4, q5, q6, q7, q8);
    idx += pxy;
  }
}

/* ---------------------------------------------------------------- one launch per region */
__kernel __attribute__((reqd_work_group_size(SBPMG_TILE_X, SBPMG_TILE_Y, 1))) void ac_inner(const int4 lo, const int4 hi, const int4 lim, const int px, const int pxy,
                                                                              const int origin, const float c0, const float4 cx, const float4 cy, const float4 cz,
                                                                              __global const float *restrict u, __global float *restrict v,
                                                                              __global const float *restrict vp)
{
#if SBPMG_AC_LOCAL
  __local IT tile[SBPMG_TILE_Y + 8][SBPMG_TILE_X + 2 * AC_HX];
#else
  __local IT (*tile)[SBPMG_TILE_X + 2 * AC_HX] = 0;
#endif
  ac_inner_body((int)get_group_id(0), (int)get_group_id(1), (int)get_group_id(2), (int)get_local_id(0), (int)get_local_id(1), lo, hi, lim, px, pxy, origin, c0, cx, cy, cz, u, v,
                vp, tile);
}

__kernel __attribute__((reqd_work_group_size(SBPMG_PML_TX, SBPMG_PML_TY, 1))) void ac_pml(const int4 lo, const int4 hi, const int px, const int pxy, const int origin,
                                                                            const float c0, const float4 cx, const float4 cy, const float4 cz, const float4 hd,
                                                                            const int ex, const int ey, const int ez, __global const float *restrict u,
                                                                            __global float *restrict v, __global const float *restrict vp,
                                                                            __global float *restrict phi, __global const float *restrict eta)
{
  ac_pml_body((int)get_group_id(0), (int)get_group_id(1), (int)get_group_id(2), (int)get_local_id(0), (int)get_local_id(1), SBPMG_PML_TX, SBPMG_PML_TY, lo, hi, px, pxy, origin, c0, cx, cy,
              cz, hd, ex, ey, ez, u, v, vp, phi, eta);
}

/* ---------------------------------------------------------------- every PML region in one launch
   1D launch of SBPMG_PML_TX * SBPMG_PML_TY work-items per group; tab holds AC_TAB ints per PML region, in the order of the groups:
   lo.xyz, hi.xyz, tiles along x, tiles along y, first group, end group, the region's tile width in work-items (its
   height is SBPMG_PML_TX * SBPMG_PML_TY / width: narrow slabs take narrow tall tiles). */
#define AC_TAB 11
__kernel __attribute__((reqd_work_group_size(SBPMG_PML_TX * SBPMG_PML_TY, 1, 1))) void ac_pml_all(__constant int *tab, const int nreg, const int px, const int pxy,
                                                                                    const int origin, const float c0, const float4 cx, const float4 cy,
                                                                                    const float4 cz, const float4 hd, const int ex, const int ey, const int ez,
                                                                                    __global const float *restrict u, __global float *restrict v,
                                                                                    __global const float *restrict vp, __global float *restrict phi,
                                                                                    __global const float *restrict eta)
{
  const int g = (int)get_group_id(0), lid = (int)get_local_id(0);
  int       r = 0;
  while (r < nreg - 1 && g >= tab[AC_TAB * r + 9]) r++;
  {
    __constant int *t  = tab + AC_TAB * r;
    const int4      lo = (int4)(t[0], t[1], t[2], 0), hi = (int4)(t[3], t[4], t[5], 0);
    const int       l  = g - t[8], ti = l % t[6], tj = (l / t[6]) % t[7], tk = l / (t[6] * t[7]);
    const int       w  = t[10];
    ac_pml_body(ti, tj, tk, lid % w, lid / w, w, (SBPMG_PML_TX * SBPMG_PML_TY) / w, lo, hi, px, pxy, origin, c0, cx, cy, cz, hd, ex, ey, ez, u, v, vp, phi, eta);
  }
}

/* ---------------------------------------------------------------- the whole grid in one launch
   The inner kernel's tiles (SBPMG_TILE_X x SBPMG_TILE_Y work-items of SBPMG_AC_VEC points, SBPMG_TILE_Z planes) over the whole nx x ny x nz grid,
   x vectors aligned from the aligned point at or before 0. A vector whose points are all inner takes the inner update;
   any other takes the PML update with lane masks (at an inner point eta = 0 and phi = 0, where the PML update is the
   inner one bit for bit; phi is stored at PML points only). [ilo, ihi): the inner box; n: the grid. */
void ac_store_pml1(__global float *p, const int o, const float x, const int i, const int n, const int a, const int b, const int inyz)
{
  if (i >= 0 && i < n && !(inyz && i >= a && i < b)) p[o] = x;
}
void ac_store_pml2(__global float *p, const int o, const float2 x, const int i, const int n, const int a, const int b, const int inyz)
{
  ac_store_pml1(p, o, x.x, i, n, a, b, inyz);
  ac_store_pml1(p, o + 1, x.y, i + 1, n, a, b, inyz);
}
void ac_store_pml4(__global float *p, const int o, const float4 x, const int i, const int n, const int a, const int b, const int inyz)
{
  if (i >= 0 && i + 4 <= n && !(inyz && i + 4 > a && i < b)) ST4(p, o, x);
  else {
    ac_store_pml1(p, o, x.x, i, n, a, b, inyz);
    ac_store_pml1(p, o + 1, x.y, i + 1, n, a, b, inyz);
    ac_store_pml1(p, o + 2, x.z, i + 2, n, a, b, inyz);
    ac_store_pml1(p, o + 3, x.w, i + 3, n, a, b, inyz);
  }
}

__kernel __attribute__((reqd_work_group_size(SBPMG_TILE_X, SBPMG_TILE_Y, 1))) void ac_whole(const int4 n, const int4 ilo, const int4 ihi, const int px, const int pxy,
                                                                              const int origin, const float c0, const float4 cx, const float4 cy, const float4 cz,
                                                                              const float4 hd, const int ex, const int ey, const int ez,
                                                                              __global const float *restrict u, __global float *restrict v,
                                                                              __global const float *restrict vp, __global float *restrict phi,
                                                                              __global const float *restrict eta)
{
  const int xa  = -(origin % IV);
  const int i   = xa + IV * (int)get_global_id(0);
  const int j   = (int)get_global_id(1);
  const int kb  = SBPMG_TILE_Z > 0 ? (int)get_group_id(2) * SBPMG_TILE_Z : 0;
  const int ke  = SBPMG_TILE_Z > 0 ? min(kb + SBPMG_TILE_Z, n.z) : n.z;
  const int yin = j >= ilo.y && j < ihi.y, xin = i >= ilo.x && i + IV <= ihi.x;
  if (i >= n.x || j >= n.y) return;
  int         idx = origin + i + j * px + kb * pxy;
  const IT    exy = AC_ETA_XY(IVLOADU, eta, ex, ey, i, j);
  const IT    gx  = AC_GRAD_X(IVLOADU, eta, ex, i, hd);
  const float gy  = AC_GRAD_Y(eta, ey, j, hd);
  IT          q0, q1, q2, q3, q4, q5, q6, q7, q8;
  AC_LOAD_COLUMN(ILD, u, idx, pxy, q0, q1, q2, q3, q4, q5, q6, q7);
  for (int k = kb; k < ke; k++) {
    IT        xm[4], xp[4], ym[4], yp[4], lap;
    const int zin = k >= ilo.z && k < ihi.z;
    q8            = ILD(u, idx + 4 * pxy);
    AC_LAP_CACHED(SBPMG_AC_VEC, IT, lap, u, idx, px, c0, cx, cy, cz, xm, xp, ym, yp, q0, q1, q2, q3, q4, q5, q6, q7, q8);
    if (xin && yin && zin) AC_CAT(ST, SBPMG_AC_VEC)(v, idx, IFTZ(fma(ILD(vp, idx), lap, 2.0f * q4 - ILD(v, idx))));
    else {
      IT un, pn;
      AC_PML_UPDATE(SBPMG_AC_VEC, IT, un, pn, lap, q3, q4, q5, xm, xp, ym, yp, exy, gx, gy, hd, eta, ez, k, idx, v, vp, phi);
      AC_CAT(ac_store, SBPMG_AC_VEC)(v, idx, un, i, 0, n.x);
      AC_CAT(ac_store_pml, SBPMG_AC_VEC)(phi, idx, pn, i, n.x, ilo.x, ihi.x, yin && zin);
    }
    AC_SHIFT9(q0, q1, q2, q3, q4, q5, q6, q7, q8);
    idx += pxy;
  }
}
