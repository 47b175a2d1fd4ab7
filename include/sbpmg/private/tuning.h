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
#define SBPMG_TUNING_SBP(X)                                                                                                                         \
  X(sbp_wg_x, 32, 32, 32, 1, 1024, "work-group of the 2D kernels (operator, sweeps, transfers), along r")                                           \
  X(sbp_wg_y, 4, 4, 4, 1, 1024, "work-group of the 2D kernels, along s")                                                                            \
  X(sbp_rim_wg, 128, 128, 128, 1, 1024, "work-group of the 1D launch over the rim around the interior box (its count is often prime)")              \
  X(sbp_split, 1, 1, 1, 0, 1, "1: the interior box in the lean *_inner kernels and the boundary rim apart; 0: one kernel over all nodes")           \
  X(sbp_split_min, 262144, 262144, 262144, 0, 1073741824, "split only where the interior box has at least this many nodes (the rim launch's cost)") \
  X(sbp_overlap_min, 1048576, 1048576, 1048576, 0, 1073741824,                                                                                      \
    "several ranks: run the interior while the ghosts are exchanged where it has at least this many nodes (0: always)")                             \
  X(sbp_max_registers, 0, 0, 64, 0, 255, "NVIDIA's platform: register cap of the SBP-SAT and multigrid programs (-cl-nv-maxrregcount; 0: none)")

/* ---------------------------------------------------------------- src/mg: kernels/smooth.cl, transfer.cl */
#define SBPMG_TUNING_MG(X)                                                                                                               \
  X(mg_coarse_size, 32, 129, 129, 5, 1073741824, "default of -pc_sbpmg_coarse_size: largest points per side of the coarsest grid")       \
  X(mg_coef_fp32, 0, 1, 1, 0, 1, "default of -pc_sbpmg_coef_fp32: the level sweeps and residuals read the coefficients rounded to fp32") \
  X(mg_inline_diag, 0, 1, 1, 0, 1, "1: the device sweeps compute 1/diag from the coefficients; 0: they read it from a stored vector")    \
  X(mg_sweeps_per_pass, 1, 2, 2, 1, 3, "sweeps per pass over the data on the levels with the interior/rim split (mg_smooth_pass)")       \
  X(mg_pass_wg_x, 16, 16, 16, 3, 1024, "work-group of mg_smooth_pass along r: a tile and its ring of sweeps_per_pass - 1 nodes")         \
  X(mg_pass_wg_y, 16, 16, 16, 3, 1024, "work-group of mg_smooth_pass along s")

/* ---------------------------------------------------------------- src/acoustic: kernels/acoustic25.cl */
#define SBPMG_TUNING_ACOUSTIC(X)

#define SBPMG_TUNING(X) SBPMG_TUNING_VEC(X) SBPMG_TUNING_SBP(X) SBPMG_TUNING_MG(X) SBPMG_TUNING_ACOUSTIC(X)

#define SBPMG_TUNING_FIELD_(key, cpu, gpu, nv, lo, hi, doc) PetscInt key;
typedef struct {
  SBPMG_TUNING(SBPMG_TUNING_FIELD_)
} SbpmgTuning;
#undef SBPMG_TUNING_FIELD_

#endif
