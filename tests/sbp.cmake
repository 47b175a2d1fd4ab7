# src/sbp: the SBP-SAT operator
sbpmg_add_test(sbp SOURCES test_sbp.c LABELS sbp asan valgrind TIMEOUT 600)
target_include_directories(sbp PRIVATE ${CHOLMOD_INCLUDE_DIR})
target_link_libraries(sbp PRIVATE ${CHOLMOD_LIBRARY} ${SUITESPARSECONFIG_LIBRARY})
# several ranks: host path, assembled reference and the device path (ghost exchange between the devices) against one rank.
# PoCL on the CPU: one kernel thread per rank, so 3 or 4 ranks on 2 cores do not thrash.
sbpmg_add_test(sbp_mpi2 SOURCES test_sbp_mpi.c NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 120)
sbpmg_add_test(sbp_mpi3 EXE sbp_mpi2 NPROCS 3 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 120)
sbpmg_add_test(sbp_mpi4 EXE sbp_mpi2 NPROCS 4 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 120)
