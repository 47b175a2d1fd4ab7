/* Self-test kernel for the device layer: y <- y + alpha x in the type SELFTEST_T, set by the caller (float or double). */
#ifndef SELFTEST_T
  #error "SELFTEST_T must be defined (the element type: -DSELFTEST_T=float or double)"
#endif
#if !defined(SBPMG_KERNELS_ALL)
  #error "SBPMG_KERNELS_ALL must be defined (src/cl/program.c: 1 every kernel of the file, 0 only the kernel K of -DSBPMG_ONLY_K=1)"
#endif
#if defined(SBPMG_HAVE_FP64)
  #pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#if SBPMG_KERNELS_ALL || SBPMG_ONLY_selftest_axpy
__kernel void selftest_axpy(const int n, const SELFTEST_T alpha, __global const SELFTEST_T *x, __global SELFTEST_T *y)
{
  const int i = get_global_id(0);
  if (i < n) y[i] += alpha * x[i];
}
#endif
