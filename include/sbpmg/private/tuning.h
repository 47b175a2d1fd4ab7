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
#define SBPMG_TUNING_VEC(X)                                                                                                           \
  X(vec_wg, 256, 256, 256, 1, 1024, "work-group size of the vector kernels, a power of two (halved until the device allows it)")      \
  X(vec_chunks, 1, 0, 0, 0, 1, "1: each work-item walks one contiguous chunk (CPU caches); 0: grid-stride loops (coalesced on GPUs)") \
  X(vec_egroups_per_cu, 4, 32, 32, 1, 1024, "work-groups per compute unit of an element-wise kernel (at most)")                       \
  X(vec_rgroups_per_cu, 4, 8, 8, 1, 1024, "work-groups per compute unit of a reduction's first stage (at most)")                      \
  X(vec_rgroups_max, 4096, 4096, 4096, 1, 65536, "work-groups of a reduction's first stage in all (at most)")

/* ---------------------------------------------------------------- src/sbp: kernels/sbp.cl */
#define SBPMG_TUNING_SBP(X)

/* ---------------------------------------------------------------- src/mg: kernels/smooth.cl, transfer.cl */
#define SBPMG_TUNING_MG(X)

/* ---------------------------------------------------------------- src/acoustic: kernels/acoustic25.cl */
#define SBPMG_TUNING_ACOUSTIC(X)

#define SBPMG_TUNING(X) SBPMG_TUNING_VEC(X) SBPMG_TUNING_SBP(X) SBPMG_TUNING_MG(X) SBPMG_TUNING_ACOUSTIC(X)

#define SBPMG_TUNING_FIELD_(key, cpu, gpu, nv, lo, hi, doc) PetscInt key;
typedef struct {
  SBPMG_TUNING(SBPMG_TUNING_FIELD_)
} SbpmgTuning;
#undef SBPMG_TUNING_FIELD_

#endif
