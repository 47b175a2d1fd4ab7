/* Device vector operations of VECSEQOPENCL and VECMPIOPENCL's local parts (src/vec). OpenCL C 1.2.

   Build options, all set by the host (src/vec/vecopencl_state.c, from the tuning table include/sbpmg/private/tuning.h):
     SBPMG_REAL      scalar type (PetscScalar)             SBPMG_HAVE_FP64  the device has cl_khr_fp64
     SBPMG_VEC_WG          work-group size, a power of two        SBPMG_VEC_REAL_BYTES   sizeof(SBPMG_REAL): 4 or 8
     SBPMG_VEC_CHUNKS      1: each work-item walks one contiguous chunk (CPU caches);
                     0: grid-stride loop, consecutive work-items on consecutive entries (coalesced, GPUs)
     SBPMG_VEC_KERNELS     which kernels the program holds, a bitmask (each kernel belongs to one bit; src/vec/vecopencl_state.c
                     builds the program of a bit on the first use of one of its kernels):
                     1 what CG-type solvers launch (KSPCG, PCJACOBI, the smoothers' eigenvalue estimates): set, axpy,
                       aypx, pointwise, unary, reduce1_partial (VecSum, norms 1 and 2), dot_partial, sum_final (which also
                       ends bit 2's sums), lanczos_partial (the estimates' fused step)
                     2 the other reductions: norm12_partial, amax_partial, mdot_partial, loc_partial, max_final, loc_final
                       (GMRES's fused dots, the infinity norm, max/min with location)
                     4 the other element-wise operations: scale, shift (an all-Neumann problem's null space), scalecopy,
                       axpby, waxpby, axpbypcz, maxpy (GMRES's fused updates)

   Every kernel takes the length n as ulong and indexes with ulong: vectors beyond 2^31 entries are fine.
   Every kernel runs on a grid of whole work-groups of SBPMG_VEC_WG items; the loop bounds guard the tail.

   Reductions run in two stages. Stage 1 (*_partial) runs G work-groups, G a function of n and the device only;
   each work-item accumulates its entries in a fixed order, then the work-group sums its items with a fixed tree,
   and item 0 writes one partial per group. Stage 2 (*_final, a second launch, one work-group per reduced quantity)
   adds the G partials of each quantity in a fixed order and writes the result. So the same input gives the same bits
   on the same device every time. Partials and results live in the reduction area behind the n values of the vector's
   buffer (offsets part_off, res_off, counted in entries). */
#if defined(SBPMG_HAVE_FP64)
  #pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifndef SBPMG_REAL
  #error "SBPMG_REAL must be defined (the program's build options)"
#endif
#ifndef SBPMG_VEC_WG
  #error "SBPMG_VEC_WG must be defined (tuning table)"
#endif
#ifndef SBPMG_VEC_CHUNKS
  #error "SBPMG_VEC_CHUNKS must be defined (tuning table)"
#endif
#ifndef SBPMG_VEC_REAL_BYTES
  #error "SBPMG_VEC_REAL_BYTES must be defined (sizeof(PetscScalar))"
#endif
#ifndef SBPMG_VEC_KERNELS
  #error "SBPMG_VEC_KERNELS must be defined (which kernels of this file a program holds: 1 those of CG-type solvers, 2 the other reductions, 4 the other element-wise operations; src/vec)"
#endif

typedef SBPMG_REAL real;

/* An index stored bit for bit in a real slot of the reduction area (never used in arithmetic). */
#if SBPMG_VEC_REAL_BYTES == 8
typedef ulong ubits;
  #define VEC_BITS_TO_REAL(i) as_double((ulong)(i))
  #define VEC_REAL_TO_BITS(r) as_ulong(r)
#else
typedef uint ubits;
  #define VEC_BITS_TO_REAL(i) as_float((uint)(i))
  #define VEC_REAL_TO_BITS(r) as_uint(r)
#endif
#define VEC_NONE ((ulong)0xFFFFFFFFFFFFFFFFUL) /* "no entry seen yet" in a location reduction */

#define VEC_KERNEL __kernel __attribute__((reqd_work_group_size(SBPMG_VEC_WG, 1, 1)))

/* for (ulong i = ...) over this work-item's entries of [0, n), in increasing order */
#if SBPMG_VEC_CHUNKS
  #define VEC_LOOP(i, n) \
    const ulong vec_gs_ = get_global_size(0), vec_chunk_ = ((n) + vec_gs_ - 1) / vec_gs_; \
    const ulong vec_lo_ = get_global_id(0) * vec_chunk_, vec_hi_ = min((ulong)(n), vec_lo_ + vec_chunk_); \
    for (ulong i = vec_lo_; i < vec_hi_; i++)
#else
  #define VEC_LOOP(i, n) for (ulong i = get_global_id(0); i < (n); i += get_global_size(0))
#endif

/* Four accumulators per work-item (independent chains: vectorisable on CPUs, more loads in flight on GPUs), declared
   as a0..a3 = init; ACC(a, i) folds entry i into accumulator a. The order is fixed, so results are reproducible. */
#if SBPMG_VEC_CHUNKS
  #define VEC_LOOP4(n, init, ACC) \
    real a0 = (init), a1 = (init), a2 = (init), a3 = (init); \
    { \
      const ulong gs_ = get_global_size(0), chunk_ = ((n) + gs_ - 1) / gs_; \
      const ulong lo_ = get_global_id(0) * chunk_, hi_ = min((ulong)(n), lo_ + chunk_); \
      ulong       i_  = lo_; \
      for (; i_ + 4 <= hi_; i_ += 4) { \
        ACC(a0, i_); \
        ACC(a1, i_ + 1); \
        ACC(a2, i_ + 2); \
        ACC(a3, i_ + 3); \
      } \
      for (; i_ < hi_; i_++) ACC(a0, i_); \
    }
#else
  #define VEC_LOOP4(n, init, ACC) \
    real a0 = (init), a1 = (init), a2 = (init), a3 = (init); \
    { \
      const ulong gs_ = get_global_size(0); \
      ulong       i_  = get_global_id(0); \
      for (; i_ + 3 * gs_ < (n); i_ += 4 * gs_) { \
        ACC(a0, i_); \
        ACC(a1, i_ + gs_); \
        ACC(a2, i_ + 2 * gs_); \
        ACC(a3, i_ + 3 * gs_); \
      } \
      for (; i_ < (n); i_ += gs_) ACC(a0, i_); \
    }
#endif

/* ---------------------------------------------------------------- element-wise operations */

#if SBPMG_VEC_KERNELS & 1
VEC_KERNEL void vec_set(const ulong n, const real a, __global real *y)
{
  VEC_LOOP(i, n) y[i] = a;
}
#endif

#if SBPMG_VEC_KERNELS & 4
VEC_KERNEL void vec_scale(const ulong n, const real a, __global real *y)
{
  VEC_LOOP(i, n) y[i] *= a;
}

VEC_KERNEL void vec_shift(const ulong n, const real a, __global real *y)
{
  VEC_LOOP(i, n) y[i] += a;
}

/* y = a x (y is not read) */
VEC_KERNEL void vec_scalecopy(const ulong n, const real a, __global const real *x, __global real *y)
{
  VEC_LOOP(i, n) y[i] = a * x[i];
}
#endif

#if SBPMG_VEC_KERNELS & 1
/* y = y + a x */
VEC_KERNEL void vec_axpy(const ulong n, const real a, __global const real *x, __global real *y)
{
  VEC_LOOP(i, n) y[i] += a * x[i];
}

/* y = x + a y */
VEC_KERNEL void vec_aypx(const ulong n, const real a, __global const real *x, __global real *y)
{
  VEC_LOOP(i, n) y[i] = x[i] + a * y[i];
}
#endif

#if SBPMG_VEC_KERNELS & 4
/* y = a x + b y */
VEC_KERNEL void vec_axpby(const ulong n, const real a, const real b, __global const real *x, __global real *y)
{
  VEC_LOOP(i, n) y[i] = a * x[i] + b * y[i];
}

/* w = a x + b y (w is not read: it may hold anything, NaN included) */
VEC_KERNEL void vec_waxpby(const ulong n, const real a, const real b, __global const real *x, __global const real *y, __global real *w)
{
  VEC_LOOP(i, n) w[i] = a * x[i] + b * y[i];
}

/* z = a x + b y + c z */
VEC_KERNEL void vec_axpbypcz(const ulong n, const real a, const real b, const real c, __global const real *x, __global const real *y, __global real *z)
{
  VEC_LOOP(i, n) z[i] = a * x[i] + b * y[i] + c * z[i];
}

/* y = y + sum_{j < nv} a_j x_j, nv <= 8 vectors per pass; the x_j past nv are not read */
VEC_KERNEL void vec_maxpy(const ulong n, const uint nv, const real a0, const real a1, const real a2, const real a3, const real a4, const real a5, const real a6,
                          const real a7, __global real *y, __global const real *x0, __global const real *x1, __global const real *x2, __global const real *x3,
                          __global const real *x4, __global const real *x5, __global const real *x6, __global const real *x7)
{
  VEC_LOOP(i, n)
  {
    real s = y[i] + a0 * x0[i];
    if (nv > 1) s += a1 * x1[i];
    if (nv > 2) s += a2 * x2[i];
    if (nv > 3) s += a3 * x3[i];
    if (nv > 4) s += a4 * x4[i];
    if (nv > 5) s += a5 * x5[i];
    if (nv > 6) s += a6 * x6[i];
    if (nv > 7) s += a7 * x7[i];
    y[i] = s;
  }
}
#endif

#if SBPMG_VEC_KERNELS & 1
/* Point-wise binary operations w = x op y; op: 0 mult, 1 divide (0 where y = 0), 2 max, 3 min, 4 max of absolute values,
   with PETSc's PetscMax/PetscMin conventions (a < b ? b : a) so that NaN cases agree with the host */
VEC_KERNEL void vec_pointwise(const ulong n, const uint op, __global const real *x, __global const real *y, __global real *w)
{
  switch (op) {
  case 0: {
    VEC_LOOP(i, n) w[i] = x[i] * y[i];
  } break;
  case 1: {
    VEC_LOOP(i, n) w[i] = y[i] != (real)0 ? x[i] / y[i] : (real)0;
  } break;
  case 2: {
    VEC_LOOP(i, n) {
      const real a = x[i], b = y[i];
      w[i]         = a < b ? b : a;
    }
  } break;
  case 3: {
    VEC_LOOP(i, n) {
      const real a = x[i], b = y[i];
      w[i]         = a < b ? a : b;
    }
  } break;
  default: {
    VEC_LOOP(i, n) {
      const real a = fabs(x[i]), b = fabs(y[i]);
      w[i]         = a < b ? b : a;
    }
  } break;
  }
}

/* Point-wise unary operations in place; op: 0 reciprocal (0 stays 0), 1 abs, 2 sqrt(abs), 3 exp, 4 log */
VEC_KERNEL void vec_unary(const ulong n, const uint op, __global real *y)
{
  switch (op) {
  case 0: {
    VEC_LOOP(i, n) if (y[i] != (real)0) y[i] = (real)1 / y[i];
  } break;
  case 1: {
    VEC_LOOP(i, n) y[i] = fabs(y[i]);
  } break;
  case 2: {
    VEC_LOOP(i, n) y[i] = sqrt(fabs(y[i]));
  } break;
  case 3: {
    VEC_LOOP(i, n) y[i] = exp(y[i]);
  } break;
  default: {
    VEC_LOOP(i, n) y[i] = log(y[i]);
  } break;
  }
}
#endif

/* ---------------------------------------------------------------- reductions: the work-group trees

   Every item of the group calls these (they hold barriers). */

/* Sum buf[0..SBPMG_VEC_WG) into buf[0] with a fixed tree; every item of the group must call it. */
#define VEC_TREE_SUM(buf, lid) \
  for (uint s_ = SBPMG_VEC_WG / 2; s_ > 0; s_ >>= 1) { \
    barrier(CLK_LOCAL_MEM_FENCE); \
    if ((lid) < s_) (buf)[lid] += (buf)[(lid) + s_]; \
  }

/* max with NaN winning (so that NaN propagates into norms like it does on the host) */
#define VEC_NANMAX(a, b) (isnan(a) ? (a) : (isnan(b) ? (b) : fmax((a), (b))))
#define VEC_TREE_MAX(buf, lid) \
  for (uint s_ = SBPMG_VEC_WG / 2; s_ > 0; s_ >>= 1) { \
    barrier(CLK_LOCAL_MEM_FENCE); \
    if ((lid) < s_) (buf)[lid] = VEC_NANMAX((buf)[lid], (buf)[(lid) + s_]); \
  }

#if SBPMG_VEC_KERNELS & 2
/* max of 0 and p[0..G), NaN winning */
real vec_max_set(const uint G, __global const real *p, __local real *b)
{
  const uint lid = get_local_id(0);
  real       m   = 0;

  for (uint g = lid; g < G; g += SBPMG_VEC_WG) {
    const real v = p[g];
    m            = VEC_NANMAX(m, v);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  b[lid] = m;
  VEC_TREE_MAX(b, lid);
  return lid == 0 ? b[0] : 0;
}

/* Location reductions: the largest (sign 1) or smallest (sign -1) entry and the smallest index holding it, like
   PETSc's host loop that starts from x[0] and takes strictly better entries: a NaN is skipped unless it is x[0],
   in which case it is the answer. Values go to part[g], indices (bits) to part[G + g]. */
int vec_loc_better(const real va, const ulong ia, const real vb, const ulong ib, const real sign)
{ /* does (va, ia) beat (vb, ib)? */
  if (ia == VEC_NONE) return 0;
  if (ib == VEC_NONE) return 1;
  if (isnan(va)) return 1; /* only x[0] can be a NaN candidate */
  if (isnan(vb)) return 0;
  if (sign * va > sign * vb) return 1;
  if (sign * vb > sign * va) return 0;
  return ia < ib;
}

/* the best of the G (value p[g], index bits p[G + g]) pairs; *at = VEC_NONE if there was no entry */
void vec_loc_set(const uint G, const real sign, __global const real *p, __local real *bv, __local ulong *bi, real *val, ulong *at)
{
  const uint lid  = get_local_id(0);
  real       best = 0;
  ulong      idx  = VEC_NONE;

  for (uint g = lid; g < G; g += SBPMG_VEC_WG) {
    const real  v = p[g];
    const ulong i = (ulong)VEC_REAL_TO_BITS(p[G + g]);
    const ulong k = (SBPMG_VEC_REAL_BYTES == 4 && i == 0xFFFFFFFFUL) ? VEC_NONE : i;
    if (vec_loc_better(v, k, best, idx, sign)) {
      best = v;
      idx  = k;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  bv[lid] = best;
  bi[lid] = idx;
  for (uint s = SBPMG_VEC_WG / 2; s > 0; s >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < s && vec_loc_better(bv[lid + s], bi[lid + s], bv[lid], bi[lid], sign)) {
      bv[lid] = bv[lid + s];
      bi[lid] = bi[lid + s];
    }
  }
  *val = lid == 0 ? bv[0] : 0;
  *at  = lid == 0 ? bi[0] : VEC_NONE;
}
#endif

/* ---------------------------------------------------------------- reductions, stage 1: one partial per work-group */

/* Sum reductions of one vector; op: 0 sum x, 1 sum |x|, 2 sum x^2 */
#define VEC_ACC_SUM(a, i)   a += x[i]
#define VEC_ACC_ASUM(a, i)  a += fabs(x[i])
#define VEC_ACC_SQ(a, i)    a += x[i] * x[i]
#define VEC_ACC_DOT(a, i)   a += x[i] * y[i]
#define VEC_ACC_AMAX(a, i)  a = VEC_NANMAX(a, fabs(x[i]))
#define VEC_ACC_DMAX(a, i)  a = VEC_NANMAX(a, (y[i] != (real)0 ? fabs(x[i] / y[i]) : fabs(x[i])))

#if SBPMG_VEC_KERNELS & 1
VEC_KERNEL void vec_reduce1_partial(const ulong n, const uint op, __global const real *x, __global real *part, const ulong part_off)
{
  __local real buf[SBPMG_VEC_WG];
  const uint   lid = get_local_id(0);
  real         s;

  if (op == 0) {
    VEC_LOOP4(n, 0, VEC_ACC_SUM);
    s = (a0 + a1) + (a2 + a3);
  } else if (op == 1) {
    VEC_LOOP4(n, 0, VEC_ACC_ASUM);
    s = (a0 + a1) + (a2 + a3);
  } else {
    VEC_LOOP4(n, 0, VEC_ACC_SQ);
    s = (a0 + a1) + (a2 + a3);
  }
  buf[lid] = s;
  VEC_TREE_SUM(buf, lid);
  if (lid == 0) part[part_off + get_group_id(0)] = buf[0];
}

/* x . y */
VEC_KERNEL void vec_dot_partial(const ulong n, __global const real *x, __global const real *y, __global real *part, const ulong part_off)
{
  __local real buf[SBPMG_VEC_WG];
  const uint   lid = get_local_id(0);

  VEC_LOOP4(n, 0, VEC_ACC_DOT);
  buf[lid] = (a0 + a1) + (a2 + a3);
  VEC_TREE_SUM(buf, lid);
  if (lid == 0) part[part_off + get_group_id(0)] = buf[0];
}
#endif

#if SBPMG_VEC_KERNELS & 2
/* sum |x| and sum x^2 in one pass: two sets of partials, G apart */
VEC_KERNEL void vec_norm12_partial(const ulong n, __global const real *x, __global real *part, const ulong part_off)
{
  __local real b[2][SBPMG_VEC_WG];
  const uint   lid = get_local_id(0);
  real         s1 = 0, s2 = 0;

  VEC_LOOP(i, n)
  {
    const real v = x[i];
    s1 += fabs(v);
    s2 += v * v;
  }
  b[0][lid] = s1;
  b[1][lid] = s2;
  VEC_TREE_SUM(b[0], lid);
  VEC_TREE_SUM(b[1], lid);
  if (lid == 0) {
    part[part_off + get_group_id(0)]                   = b[0][0];
    part[part_off + get_num_groups(0) + get_group_id(0)] = b[1][0];
  }
}

/* max |x| (NaN propagates); op 1: max |x / y| with |x| where y = 0 */
VEC_KERNEL void vec_amax_partial(const ulong n, const uint op, __global const real *x, __global const real *y, __global real *part, const ulong part_off)
{
  __local real buf[SBPMG_VEC_WG];
  const uint   lid = get_local_id(0);
  real         m;

  if (op == 0) {
    VEC_LOOP4(n, 0, VEC_ACC_AMAX);
    m = VEC_NANMAX(VEC_NANMAX(a0, a1), VEC_NANMAX(a2, a3));
  } else {
    VEC_LOOP4(n, 0, VEC_ACC_DMAX);
    m = VEC_NANMAX(VEC_NANMAX(a0, a1), VEC_NANMAX(a2, a3));
  }
  buf[lid] = m;
  VEC_TREE_MAX(buf, lid);
  if (lid == 0) part[part_off + get_group_id(0)] = buf[0];
}

/* Fused dot products: s_j = sum x y_j for j < nv <= 8, nv sets of partials, G apart. y_j past nv are not read. */
VEC_KERNEL void vec_mdot_partial(const ulong n, const uint nv, __global const real *x, __global const real *y0, __global const real *y1, __global const real *y2,
                                 __global const real *y3, __global const real *y4, __global const real *y5, __global const real *y6, __global const real *y7,
                                 __global real *part, const ulong part_off)
{
  __local real buf[8][SBPMG_VEC_WG];
  const uint   lid = get_local_id(0), G = get_num_groups(0);
  real         s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;

  VEC_LOOP(i, n)
  {
    const real v = x[i];
    s0 += v * y0[i];
    if (nv > 1) s1 += v * y1[i];
    if (nv > 2) s2 += v * y2[i];
    if (nv > 3) s3 += v * y3[i];
    if (nv > 4) s4 += v * y4[i];
    if (nv > 5) s5 += v * y5[i];
    if (nv > 6) s6 += v * y6[i];
    if (nv > 7) s7 += v * y7[i];
  }
  buf[0][lid] = s0;
  buf[1][lid] = s1;
  buf[2][lid] = s2;
  buf[3][lid] = s3;
  buf[4][lid] = s4;
  buf[5][lid] = s5;
  buf[6][lid] = s6;
  buf[7][lid] = s7;
  for (uint s = SBPMG_VEC_WG / 2; s > 0; s >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < s)
      for (uint j = 0; j < nv; j++) buf[j][lid] += buf[j][lid + s];
  }
  if (lid == 0)
    for (uint j = 0; j < nv; j++) part[part_off + j * G + get_group_id(0)] = buf[j][0];
}

VEC_KERNEL void vec_loc_partial(const ulong n, const real sign, __global const real *x, __global real *part, const ulong part_off)
{
  __local real  bv[SBPMG_VEC_WG];
  __local ulong bi[SBPMG_VEC_WG];
  const uint    lid = get_local_id(0);
  real          best = 0;
  ulong         at   = VEC_NONE;

  VEC_LOOP(i, n)
  {
    const real v = x[i];
    if ((!isnan(v) || i == 0) && (at == VEC_NONE || (!isnan(best) && sign * v > sign * best))) {
      best = v;
      at   = i;
    }
  }
  bv[lid] = best;
  bi[lid] = at;
  for (uint s = SBPMG_VEC_WG / 2; s > 0; s >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < s && vec_loc_better(bv[lid + s], bi[lid + s], bv[lid], bi[lid], sign)) {
      bv[lid] = bv[lid + s];
      bi[lid] = bi[lid + s];
    }
  }
  if (lid == 0) {
    part[part_off + get_group_id(0)]                     = bv[0];
    part[part_off + get_num_groups(0) + get_group_id(0)] = VEC_BITS_TO_REAL(bi[0]);
  }
}
#endif

#if SBPMG_VEC_KERNELS & 1
/* The Lanczos step of the smoothers' eigenvalue estimates (src/mg/smoother.c) in one pass: x += a w; with op = 1 (Jacobi) z = d x,
   else z is x (not written); the partial sums of z x (VecOpenCLLanczosStep_Private). */
  #define VEC_ACC_LANCZOS(acc, i) \
    { \
      const real xi_ = x[i] + a * w[i], zi_ = op ? d[i] * xi_ : xi_; \
      x[i] = xi_; \
      if (op) z[i] = zi_; \
      acc += zi_ * xi_; \
    }
VEC_KERNEL void vec_lanczos_partial(const ulong n, const uint op, const real a, __global real *x, __global const real *w, __global const real *d,
                                    __global real *z, __global real *part, const ulong part_off)
{
  __local real buf[SBPMG_VEC_WG];
  const uint   lid = get_local_id(0);

  VEC_LOOP4(n, 0, VEC_ACC_LANCZOS);
  buf[lid] = (a0 + a1) + (a2 + a3);
  VEC_TREE_SUM(buf, lid);
  if (lid == 0) part[part_off + get_group_id(0)] = buf[0];
}
#endif

/* ---------------------------------------------------------------- reductions, stage 2: one work-group per reduced quantity */

#if SBPMG_VEC_KERNELS & 1
/* Work-group j: res[j] = the sum of the G partials of set j in a fixed order: item l folds partials l, l + SBPMG_VEC_WG,
   l + 2 SBPMG_VEC_WG, ... in increasing order, then the work-group adds its items with the fixed tree. */
VEC_KERNEL void vec_sum_final(const uint G, __global real *buf, const ulong part_off, const ulong res_off)
{
  __local real         b[SBPMG_VEC_WG];
  const uint           lid = get_local_id(0), j = get_group_id(0);
  __global const real *p = buf + part_off + (ulong)j * G;
  real                 s = 0;

  for (uint g = lid; g < G; g += SBPMG_VEC_WG) s += p[g];
  b[lid] = s;
  VEC_TREE_SUM(b, lid);
  if (lid == 0) buf[res_off + j] = b[0];
}
#endif

#if SBPMG_VEC_KERNELS & 2
VEC_KERNEL void vec_max_final(const uint G, __global real *buf, const ulong part_off, const ulong res_off)
{
  __local real b[SBPMG_VEC_WG];
  const uint   j = get_group_id(0);
  const real   r = vec_max_set(G, buf + part_off + (ulong)j * G, b);

  if (get_local_id(0) == 0) buf[res_off + j] = r;
}

/* res[0] = value, res[1] = index bits (VEC_NONE if there was no entry) */
VEC_KERNEL void vec_loc_final(const uint G, __global real *buf, const ulong part_off, const ulong res_off, const real sign)
{
  __local real  bv[SBPMG_VEC_WG];
  __local ulong bi[SBPMG_VEC_WG];
  real          v;
  ulong         i;

  vec_loc_set(G, sign, buf + part_off, bv, bi, &v, &i);
  if (get_local_id(0) == 0) {
    buf[res_off]     = v;
    buf[res_off + 1] = VEC_BITS_TO_REAL(i);
  }
}
#endif
