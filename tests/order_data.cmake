# The right-hand side, the error norm and the face traction of SBP order 4 and 6 (src/sbp/rhs.c, exact.c, traction.c; kernels/rhs.cl,
# traction.cl, sbp_face.cl; spec-sbp-sat-highorder.md sections 4, 5): against the Kronecker K_f, a host sum of the order's weights, the
# exact traction and the assembled operator's boundary rows; on 1, 2 and 3 ranks. PoCL on the CPU: one kernel thread per rank.
sbpmg_add_test(sbp_rhs_order SOURCES test_sbp_rhs_order.c test_sbp_common.c LABELS sbp TIMEOUT 300)
sbpmg_add_test(sbp_rhs_order_mpi2 EXE sbp_rhs_order NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 300)
sbpmg_add_test(sbp_rhs_order_mpi3 EXE sbp_rhs_order NPROCS 3 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 300)
sbpmg_add_test(sbp_traction_order SOURCES test_sbp_traction_order.c test_sbp_common.c LABELS sbp TIMEOUT 300)
target_include_directories(sbp_traction_order PRIVATE ${CHOLMOD_INCLUDE_DIR})
target_link_libraries(sbp_traction_order PRIVATE ${CHOLMOD_LIBRARY} ${SUITESPARSECONFIG_LIBRARY})
sbpmg_add_test(sbp_traction_order_mpi2 EXE sbp_traction_order NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 300)
sbpmg_add_test(sbp_traction_order_mpi3 EXE sbp_traction_order NPROCS 3 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 300)
