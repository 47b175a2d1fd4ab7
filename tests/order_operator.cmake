# The matrix-free operator of order 4 and 6 (src/sbp/wide.c, kernels/sbp_wide.cl; spec-sbp-sat-highorder.md sections 3-4) against the
# assembled reference: MatMult, MatMultAdd, MatResidual, the diagonal and the norms, host and device, boundary sets, Nr != Ns, the curved
# basin and a user mapping; on 2 and 3 ranks against the parallel assembled operator, and a grid too small for 3 ranks at order 6.
# PoCL on the CPU: one kernel thread per rank, so 2 or 3 ranks on 2 cores do not thrash.
sbpmg_add_test(sbp_wide SOURCES test_sbp_wide.c test_sbp_common.c LABELS sbp valgrind TIMEOUT 300)
sbpmg_add_test(sbp_wide_mpi2 EXE sbp_wide NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 300)
sbpmg_add_test(sbp_wide_mpi3 EXE sbp_wide NPROCS 3 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 300)
