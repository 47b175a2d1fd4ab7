# The derivative of node coordinates at SBP order 4 and 6 (src/sbp/nodes.c, kernels/coef.cl SBPMG_COEF_DORDER; docs/guide.md "Bringing a
# problem"): exact on polynomials of degree p (host and device; order 2 and degree p + 1 not), device == host, and the own problem's
# observed order with node coordinates within 0.3 of the same grid as a mapping function; on 2 and 3 ranks (each rank's box holds
# the end rows' nodes 0..p). PoCL on the CPU: one kernel thread per rank.
sbpmg_add_test(sbp_nodes_order SOURCES test_sbp_nodes_order.c test_sbp_common.c LABELS sbp TIMEOUT 300)
sbpmg_add_test(sbp_nodes_order_mpi2 EXE sbp_nodes_order NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 300)
sbpmg_add_test(sbp_nodes_order_mpi3 EXE sbp_nodes_order NPROCS 3 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 300)
