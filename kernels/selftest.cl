/* Self-test kernel for the device layer: y <- y + alpha x in the type SBPMG_SELFTEST_T, set by the caller (float or double). */
#ifndef SBPMG_SELFTEST_T
  #error "SBPMG_SELFTEST_T must be defined (the element type: -DSBPMG_SELFTEST_T=float or double)"
#endif
#if defined(SBPMG_HAVE_FP64)
  #pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

__kernel void selftest_axpy(const int n, const SBPMG_SELFTEST_T alpha, __global const SBPMG_SELFTEST_T *x, __global SBPMG_SELFTEST_T *y)
{
  const int i = get_global_id(0);
  if (i < n) y[i] += alpha * x[i];
}
