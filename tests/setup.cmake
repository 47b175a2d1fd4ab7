# The set-up on the device (src/sbp/coefficients.c, kernels/coef.cl): coefficients against the host reference, user sources,
# injected coarse levels, bad coefficients found on the device, a source that does not compile.
sbpmg_add_test(sbp_setup SOURCES test_sbp_setup.c test_sbp_common.c LABELS sbp asan)
# The user's data (src/sbp/data.c, kernels/rhs.cl): functions, sources and values against the built-in manufactured data and the
# Kronecker assembly, a time series of boundary values, a problem of one's own converging, bad data.
sbpmg_add_test(sbp_data SOURCES test_sbp_data.c test_sbp_common.c LABELS sbp asan)
# A grid and mu at the nodes (src/sbp/nodes.c): device vs host, exact cases, order and error against the analytic metric,
# multigrid iterations, files and arrays, bad nodal data; on 2 ranks the same but the direct-solve convergence study.
sbpmg_add_test(sbp_nodes SOURCES test_sbp_nodes.c test_sbp_common.c LABELS sbp asan TIMEOUT 600)
sbpmg_add_test(sbp_nodes_mpi2 EXE sbp_nodes NPROCS 2 ARGS -test_skip test_convergence ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 300)
# verification/convergence's problem brought through the public data API (node grid, mu at the nodes, functions for the data):
# order 2.0 +- 0.05 in ||e||_H between the two finest grids.
sbpmg_add_test(convergence_own EXE convergence ARGS -conv_problem own -conv_n 64,128,256 -conv_plot 0 -conv_output ${CMAKE_CURRENT_BINARY_DIR}/convergence_own
  -conv_check_order 2,0.05 LABELS sbp PASS_REGEX "order check: ")
# verification/convergence over the SBP orders (-conv_order; spec-sbp-sat-highorder.md): direct solves at 16, 32, 64 (order 6 skips
# 16, below its 17 intervals, with a note) and the observed order in ||e||_H between the two finest grids within 0.6 of 2, 4 and 5
# (order 6 gives 5 on this curved DDNN problem). PASS_REGEX: the line printed once every order has passed.
sbpmg_add_test(convergence_orders EXE convergence ARGS -conv_order 2,4,6 -conv_n 16,32,64 -conv_solvers direct -conv_plot 0
  -conv_output ${CMAKE_CURRENT_BINARY_DIR}/convergence_orders -conv_check_orders 2,4,5,0.6 LABELS sbp TIMEOUT 120 PASS_REGEX "order checks passed")
# The host memory of the device path at 1025^2 (issue 19): the PetscMalloc maximum at most 32 bytes per grid point.
add_test(NAME host_memory COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/check-host-memory.sh ${CMAKE_BINARY_DIR} 1024 32)
set_tests_properties(host_memory PROPERTIES ENVIRONMENT "${SBPMG_TEST_ENV}" LABELS "sbp" TIMEOUT 300)
# The memory plan (issue 22): the estimates of the problem, the hierarchy and the acoustic set-up against the device bytes they
# allocate (counts), grids too large for the memory and a -cl_mem_cap too small refused before anything is allocated.
sbpmg_add_test(memplan SOURCES test_memplan.c test_sbp_common.c LABELS sbp mg asan TIMEOUT 300)
