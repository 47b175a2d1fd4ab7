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

/* ---------------------------------------------------------------- src/cl: buffers */
#define SBPMG_TUNING_CL(X)        \
  X(cl_huge_pages, 1, 0, 0, 0, 1, \
    "CPU devices: 1: buffers of 2 MiB and more are host memory the library maps with transparent huge pages (one page fault per 2 MiB)")

/* ---------------------------------------------------------------- src/vec: kernels/vecops.cl */
#define SBPMG_TUNING_VEC(X)                                                                                                           \
  X(vec_wg, 256, 256, 256, 1, 1024, "work-group size of the vector kernels, a power of two (halved until the device allows it)")      \
  X(vec_chunks, 1, 0, 0, 0, 1, "1: each work-item walks one contiguous chunk (CPU caches); 0: grid-stride loops (coalesced on GPUs)") \
  X(vec_egroups_per_cu, 4, 32, 32, 1, 1024, "work-groups per compute unit of an element-wise kernel (at most)")                       \
  X(vec_rgroups_per_cu, 4, 8, 8, 1, 1024, "work-groups per compute unit of a reduction's first stage (at most)")                      \
  X(vec_rgroups_max, 4096, 4096, 4096, 1, 65536, "work-groups of a reduction's first stage in all (at most)")

/* ---------------------------------------------------------------- src/sbp: kernels/sbp.cl */
#define SBPMG_TUNING_SBP(X)                                                                                                                          \
  X(sbp_wg_x, 32, 32, 32, 1, 1024, "work-group of the 2D kernels (operator, sweeps, transfers), along r")                                            \
  X(sbp_wg_y, 4, 4, 4, 1, 1024, "work-group of the 2D kernels, along s")                                                                             \
  X(sbp_rim_wg, 128, 128, 128, 1, 1024, "work-group of the 1D launch over the rim around the interior box (its count is often prime)")               \
  X(sbp_select, 1, 0, 0, 0, 1,                                                                                                                       \
    "1: the lean *_inner kernels load every operand they may use and select (branch-free, a CPU vectorizes them); 0: only what they use")            \
  X(sbp_inner_rows, 1, 1, 2, 1, 8, "rows of the interior box each work-item of the lean *_inner kernels computes (their loads shared in registers)") \
  X(sbp_inner_whole, 1, 0, 0, 0, 1,                                                                                                                  \
    "1: the lean *_inner kernels have no column guard, the box launched as whole work-groups plus one of the remaining columns (no masked loads)")   \
  X(sbp_split, 1, 1, 1, 0, 1, "1: the interior box in the lean *_inner kernels and the boundary rim apart; 0: one kernel over all nodes")            \
  X(sbp_split_min, 4096, 262144, 262144, 0, 1073741824, "split only where the interior box has at least this many nodes (the rim launch's cost)")    \
  X(sbp_overlap_min, 1048576, 1048576, 1048576, 0, 1073741824,                                                                                       \
    "several ranks: run the interior while the ghosts are exchanged where it has at least this many nodes (0: always)")                              \
  X(sbp_wide_fuse, 0, 1, 1, 0, 1,                                                                                                                    \
    "order 4 and 6: 1 the interior box in one pass (the M(c) rows and the cross terms); 0 two passes (a CPU's compiler vectorizes them apart)")      \
  X(sbp_wide_lanes, 1, 1, 1, 1, 64,                                                                                                                  \
    "order 4 and 6: work-items that sum each rim node's row together (wide_apply_patch, wide_smooth_patch); divides sbp_rim_wg")                     \
  X(sbp_max_registers, 0, 0, 64, 0, 255, "NVIDIA's platform: register cap of the SBP-SAT and multigrid programs (-cl-nv-maxrregcount; 0: none)")     \
  X(sbp_coarsen_aspect, 0, 140, 140, 0, 1000000,                                                                                                     \
    "coarse grids: the longer side coarsens alone where it has more than this percentage of the other's intervals (0: both sides always)")

/* ---------------------------------------------------------------- src/mg: kernels/smooth.cl, transfer.cl */
#define SBPMG_TUNING_MG(X)                                                                                                                                  \
  X(mg_coarse_size, 32, 65, 65, 5, 1073741824, "default of -pc_sbpmg_coarse_size: largest points per side of the coarsest grid")                            \
  X(mg_nu_max, 16, 3, 3, 1, 1024, "default of -pc_sbpmg_nu_max: the most sweeps on any level")                                                              \
  X(mg_coarse_dense, 0, 4225, 4225, 0, 4225, "-pc_sbpmg_coarse_solve auto: the dense inverse on the device for coarse grids of at most this many nodes")    \
  X(mg_dense_wg, 64, 256, 256, 1, 1024, "work-group of the dense coarse solve (kernels/dense.cl: one per row), a power of two")                             \
  X(mg_invert_cols, 64, 16, 16, 1, 1024, "columns of the coarse inverse per work-group of mg_dense_invert (kernels/dense.cl; set-up)")                      \
  X(mg_invert_lanes, 1, 16, 16, 1, 64, "work-items sharing each column's band sums in mg_dense_invert, a power of two (set-up)")                            \
  X(mg_coef_fp32, 0, 1, 1, 0, 1, "default of -pc_sbpmg_coef_fp32: the level sweeps and residuals read the coefficients rounded to fp32")                    \
  X(mg_single, 0, 1, 1, 0, 1, "default of -pc_sbpmg_precision: 1 single (the V-cycle's vectors and arithmetic in fp32), 0 double")                          \
  X(mg_inline_diag, 0, 1, 1, 0, 1, "1: the device sweeps compute 1/diag from the coefficients; 0: they read it from a stored vector")                       \
  X(mg_wide_sweep, 1, 1, 1, 0, 1, "order 4 and 6: 1 the finest level sweeps in the order-p fused kernels (kernels/sbp_wide.cl); 0 around MatResidual")      \
  X(mg_sweeps_per_pass, 1, 3, 3, 1, 3, "sweeps per pass over the data on the levels with the interior/rim split (mg_smooth_pass)")                          \
  X(mg_pass_wg, 32, 256, 256, 3, 65536, "work-items of mg_smooth_pass's work-group: a strip of mg_pass_wg - 2 m columns and m on each side")                \
  X(mg_pass_rows, 16, 64, 64, 1, 1073741824, "rows of the strip a work-group of mg_smooth_pass streams through (at most: see mg_pass_groups_per_cu)")       \
  X(mg_pass_groups_per_cu, 0, 8, 8, 0, 1024, "fewer rows per work-group of mg_smooth_pass (down to 8) until it has this many work-groups per compute unit") \
  X(mg_line_chunks, 1, 32, 32, 1, 1024, "chunks of a line, one work-item each, in the line solves (kernels/line.cl; 1: a work-item walks whole lines)")     \
  X(mg_line_group, 1, 8, 8, 1, 1024, "lines per work-group of the chunked line solves (its work-items: mg_line_group x mg_line_chunks)")                    \
  X(mg_line_chunk_nodes, 0, 0, 0, 0, 1073741824,                                                                                                            \
    "chunked line solves walked in place: 0 every line in mg_line_chunks chunks; n: lines of m nodes on a rank in the power of two nearest m / n chunks, "  \
    "from 2 to mg_line_chunks")                                                                                                                             \
  X(mg_line_group_wide, 1, 16, 16, 1, 1024,                                                                                                                 \
    "chunked line solves walked in place: lines per work-group where the launch keeps at least one work-group per compute unit with them (else "            \
    "mg_line_group)")                                                                                                                                       \
  X(mg_line_batch, 1, 4, 4, 1, 16,                                                                                                                          \
    "chunked line solves walked in place: nodes whose loads a work-item issues together before their steps (loads in flight per work-item)")                \
  X(mg_line_tile, 0, 16, 16, 0, 1024,                                                                                                                       \
    "chunked r-line solves: nodes of each chunk staged through local memory per tile, one line per work-group (mg_line_solve_tiles; 0: walked in place)")   \
  X(mg_line_tile_min, 0, 2048, 2048, 0, 1073741824,                                                                                                         \
    "tiled r-line solves (mg_line_tile > 0) only on levels whose r-lines have at least this many nodes on a rank; shorter ones walked in place")            \
  X(mg_line_nu_max, 3, 1, 1, 1, 1024,                                                                                                                       \
    "default of -pc_sbpmg_line_nu_max: the most sweeps per direction on a level smoothed along lines of one direction (1: no growth)")                      \
  X(mg_line_vec, 8, 1, 1, 1, 16, "whole lines: lines each work-item takes side by side (CPUs: their loads vectors, their chains overlapped)")               \
  X(mg_line_wg, 8, 64, 64, 1, 1024, "whole lines: the work-group of the line solves (work-items, each of mg_line_vec lines)")

/* ---------------------------------------------------------------- src/acoustic: kernels/acoustic25.cl, acoustic_util.cl
   (docs/acoustic.md "Layout and kernels"; the measurements in docs/acoustic.md "Measurements" and docs/performance.md) */
#define SBPMG_TUNING_ACOUSTIC(X)                                                                                                              \
  X(ac_tile_x, 16, 32, 32, 1, 1024, "work-items along x of the inner kernel's work-group (SBPMG_TILE_X; each of ac_vec points)")              \
  X(ac_tile_y, 8, 8, 8, 1, 1024, "work-items along y of the inner kernel's work-group (SBPMG_TILE_Y)")                                        \
  X(ac_tile_z, 32, 48, 48, 0, 1048576, "planes one inner work-group sweeps (SBPMG_TILE_Z; 0: the whole z extent)")                            \
  X(ac_vec, 4, 4, 4, 1, 4, "x points per work-item of the inner kernel (SBPMG_AC_VEC): 1, 2 or 4")                                            \
  X(ac_local_mem, 0, 0, 0, 0, 1, "1: the inner kernel takes its x/y neighbours from a local-memory tile (SBPMG_AC_LOCAL); 0: from the cache") \
  X(ac_pml_tile_x, 32, 32, 32, 1, 1024, "work-items along x of the PML kernels' work-group (SBPMG_PML_TX)")                                   \
  X(ac_pml_tile_y, 4, 8, 8, 1, 1024, "work-items along y of the PML kernels' work-group (SBPMG_PML_TY)")                                      \
  X(ac_pml_tile_z, 32, 32, 32, 0, 1048576, "planes one PML work-group sweeps (SBPMG_PML_TZ; 0: the whole z extent)")                          \
  X(ac_pml_vec, 2, 4, 4, 1, 4, "x points per work-item of the PML kernels (SBPMG_PML_VEC): 1, 2 or 4")                                        \
  X(ac_fused, 1, 0, 0, 0, 1, "1: the whole grid in one launch (ac_whole; not with ac_local_mem); 0: the inner region and the PML apart")      \
  X(ac_pml_merge, 0, 1, 1, 0, 1, "1: the six PML regions in one launch (ac_pml_all); 0: one launch per region")                               \
  X(ac_prefetch, 0, 0, 0, 0, 16, "planes ahead the inner sweep prefetches its streams into the cache (SBPMG_AC_PF; 0: none)")                 \
  X(ac_pml_prefetch, 0, 1, 1, 0, 16, "planes ahead the PML sweeps prefetch their streams into the cache (SBPMG_PML_PF; 0: none)")             \
  X(ac_prefetch_ptx, 0, 0, 1, 0, 1, "1: the prefetches are PTX prefetch.global.L2 (NVIDIA's platform only); 0: OpenCL's prefetch()")          \
  X(ac_unroll, 1, 2, 2, 1, 8, "planes per iteration of the inner sweep (SBPMG_AC_UNROLL: the plane loop unrolled)")                           \
  X(ac_pml_unroll, 1, 2, 2, 1, 8, "planes per iteration of the PML sweeps (SBPMG_PML_UNROLL)")                                                \
  X(ac_ftz, 1, 0, 0, 0, 1, "1: store |x| < 1e-30 as 0 (SBPMG_AC_FTZ: devices that ignore -cl-denorms-are-zero, as PoCL does)")                \
  X(ac_norm_wg, 16, 256, 256, 1, 1024, "work-group size of the norm reduction ac_norms (SBPMG_NORM_LS; a power of two)")                      \
  X(ac_norm_groups, 64, 4096, 4096, 1, 65536, "work-groups of the norm reduction (at most; at most one per grid row)")                        \
  X(ac_points_wg, 16, 64, 64, 1, 1024, "work-group size of the source, receiver and plane kernels (kernels/acoustic_points.cl)")              \
  X(ac_trace_samples, 256, 2048, 2048, 1, 1048576, "trace samples the device buffer holds per receiver before they are read back")

#define SBPMG_TUNING(X) SBPMG_TUNING_CL(X) SBPMG_TUNING_VEC(X) SBPMG_TUNING_SBP(X) SBPMG_TUNING_MG(X) SBPMG_TUNING_ACOUSTIC(X)

#define SBPMG_TUNING_FIELD_(key, cpu, gpu, nv, lo, hi, doc) PetscInt key;
typedef struct {
  SBPMG_TUNING(SBPMG_TUNING_FIELD_)
} SbpmgTuning;
#undef SBPMG_TUNING_FIELD_

#endif
