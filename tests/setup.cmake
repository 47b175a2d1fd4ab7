# The set-up on the device (src/sbp/coefficients.c, kernels/coef.cl): coefficients against the host reference, user sources,
# injected coarse levels, bad coefficients found on the device, a source that does not compile.
sbpmg_add_test(sbp_setup SOURCES test_sbp_setup.c test_sbp_common.c LABELS sbp asan)
