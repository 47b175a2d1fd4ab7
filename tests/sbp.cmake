# src/sbp: the SBP-SAT operator
sbpmg_add_test(sbp SOURCES test_sbp.c LABELS sbp asan valgrind TIMEOUT 600)
target_include_directories(sbp PRIVATE ${CHOLMOD_INCLUDE_DIR})
target_link_libraries(sbp PRIVATE ${CHOLMOD_LIBRARY} ${SUITESPARSECONFIG_LIBRARY})
sbpmg_add_test(sbp_mpi2 SOURCES test_sbp_mpi.c NPROCS 2 LABELS sbp mpi)
sbpmg_add_test(sbp_mpi3 EXE sbp_mpi2 NPROCS 3 LABELS sbp mpi)
