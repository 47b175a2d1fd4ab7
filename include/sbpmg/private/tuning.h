/* The tuning table: every kernel shape and launch choice of the library, per device class, as data (docs/design.md
   "Tuning"). A kernel has no built-in defaults: its -D macros are built from these values. A row is
     X(key, CPU, GPU, NVIDIA, min, max, "meaning")
   CPU: any CPU device (PoCL); GPU: any other device; NVIDIA: a GPU of NVIDIA's OpenCL platform. The measurements behind
   the values are in docs/performance.md. A developer may override any row for one run with
   -sbpmg_tune key=value,key=value (read when a device context is created; -cl_view prints the values in force).
   Each layer keeps its rows in its own block. */
#ifndef SBPMG_TUNING_H
#define SBPMG_TUNING_H

#include <petscsys.h>

typedef enum { SBPMG_DEVICE_CPU, SBPMG_DEVICE_GPU, SBPMG_DEVICE_NVIDIA, SBPMG_NUM_DEVICE_CLASSES } SbpmgDeviceClass;

/* ---------------------------------------------------------------- src/vec: kernels/vecops.cl */
#define SBPMG_TUNING_VEC(X)                                                                                      \
  X(vec_wg, 256, 256, 256, 1, 1024, "work-group size of the vector kernels (halved until the device allows it)") \
  X(vec_chunks, 1, 0, 0, 0, 1, "1: each work-item walks one contiguous chunk (VEC_CPU); 0: grid-stride loops")   \
  X(vec_egroups_per_cu, 4, 32, 32, 1, 1024, "work-groups per compute unit of an element-wise kernel (at most)")  \
  X(vec_rgroups_per_cu, 4, 8, 8, 1, 1024, "work-groups per compute unit of a reduction's first stage (at most; at most 4096 in all)")

/* ---------------------------------------------------------------- src/sbp: kernels/sbp.cl */
#define SBPMG_TUNING_SBP(X)

/* ---------------------------------------------------------------- src/mg: kernels/smooth.cl, transfer.cl */
#define SBPMG_TUNING_MG(X)

/* ---------------------------------------------------------------- src/acoustic: kernels/acoustic25.cl, acoustic_util.cl
   (docs/acoustic.md "Layout and kernels"; the measurements in docs/acoustic.md "Measurements" and docs/performance.md) */
#define SBPMG_TUNING_ACOUSTIC(X)                                                                                                         \
  X(ac_tile_x, 16, 32, 32, 1, 1024, "work-items along x of the inner kernel's work-group (TILE_X; each of ac_vec points)")               \
  X(ac_tile_y, 8, 8, 8, 1, 1024, "work-items along y of the inner kernel's work-group (TILE_Y)")                                         \
  X(ac_tile_z, 32, 48, 48, 0, 1048576, "planes one inner work-group sweeps (TILE_Z; 0: the whole z extent)")                             \
  X(ac_vec, 4, 4, 4, 1, 4, "x points per work-item of the inner kernel (AC_VEC): 1, 2 or 4")                                             \
  X(ac_local_mem, 0, 0, 0, 0, 1, "1: the inner kernel takes its x/y neighbours from a local-memory tile (AC_LOCAL); 0: from the cache")  \
  X(ac_pml_tile_x, 32, 32, 32, 1, 1024, "work-items along x of the PML kernels' work-group (PML_TX)")                                    \
  X(ac_pml_tile_y, 4, 8, 8, 1, 1024, "work-items along y of the PML kernels' work-group (PML_TY)")                                       \
  X(ac_pml_tile_z, 32, 32, 32, 0, 1048576, "planes one PML work-group sweeps (PML_TZ; 0: the whole z extent)")                           \
  X(ac_pml_vec, 2, 4, 4, 1, 4, "x points per work-item of the PML kernels (PML_VEC): 1, 2 or 4")                                         \
  X(ac_fused, 1, 0, 0, 0, 1, "1: the whole grid in one launch (ac_whole; not with ac_local_mem); 0: the inner region and the PML apart") \
  X(ac_pml_merge, 0, 1, 1, 0, 1, "1: the six PML regions in one launch (ac_pml_all); 0: one launch per region")                          \
  X(ac_prefetch, 0, 0, 0, 0, 16, "planes ahead the inner sweep prefetches its streams into the cache (AC_PF; 0: none)")                  \
  X(ac_pml_prefetch, 0, 1, 1, 0, 16, "planes ahead the PML sweeps prefetch their streams into the cache (PML_PF; 0: none)")              \
  X(ac_prefetch_ptx, 0, 0, 1, 0, 1, "1: the prefetches are PTX prefetch.global.L2 (NVIDIA's platform only); 0: OpenCL's prefetch()")     \
  X(ac_unroll, 1, 2, 2, 1, 8, "planes per iteration of the inner sweep (AC_UNROLL: the plane loop unrolled)")                            \
  X(ac_pml_unroll, 1, 2, 2, 1, 8, "planes per iteration of the PML sweeps (PML_UNROLL)")                                                 \
  X(ac_ftz, 1, 0, 0, 0, 1, "1: store |x| < 1e-30 as 0 (AC_FTZ: devices that ignore -cl-denorms-are-zero, as PoCL does)")                 \
  X(ac_norm_wg, 16, 256, 256, 1, 1024, "work-group size of the norm reduction ac_norms (NORM_LS; a power of two)")                       \
  X(ac_norm_groups, 64, 4096, 4096, 1, 65536, "work-groups of the norm reduction (at most; at most one per grid row)")                   \
  X(ac_points_wg, 16, 64, 64, 1, 1024, "work-group size of the source, receiver and plane kernels (kernels/acoustic_points.cl)")         \
  X(ac_trace_samples, 256, 2048, 2048, 1, 1048576, "trace samples the device buffer holds per receiver before they are read back")

#define SBPMG_TUNING(X) SBPMG_TUNING_VEC(X) SBPMG_TUNING_SBP(X) SBPMG_TUNING_MG(X) SBPMG_TUNING_ACOUSTIC(X)

#define SBPMG_TUNING_FIELD_(key, cpu, gpu, nv, lo, hi, doc) PetscInt key;
typedef struct {
  SBPMG_TUNING(SBPMG_TUNING_FIELD_)
} SbpmgTuning;
#undef SBPMG_TUNING_FIELD_

#endif
