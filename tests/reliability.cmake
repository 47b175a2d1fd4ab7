# Reliability: lifecycle of OpenCL objects, determinism
sbpmg_add_test(lifecycle SOURCES test_lifecycle.c test_sbp_common.c LABELS reliability asan)
# docs/errors.md: at least 30 bad inputs, each row's message text present in the test it names
add_test(NAME errors_doc COMMAND ${PROJECT_SOURCE_DIR}/tests/check-errors-doc.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(errors_doc PROPERTIES LABELS reliability)
# Error paths by fault injection (src/cl/fault.c): every device allocation, kernel build and transfer of a run failed in turn, on
# 1 and 2 ranks; every run ends in the error and leaves nothing behind.
sbpmg_add_test(faults SOURCES test_faults.c test_sbp_common.c ARGS -malloc_debug LABELS reliability TIMEOUT 300)
sbpmg_add_test(faults_mpi2 EXE faults NPROCS 2 ARGS -malloc_debug ENV POCL_MAX_PTHREAD_COUNT=1 LABELS reliability mpi TIMEOUT 300)
