# src/vec: the device vectors VECSEQOPENCL and VECMPIOPENCL
sbpmg_add_test(vec SOURCES test_vec.c LABELS vec asan valgrind)
sbpmg_add_test(vec_ksp SOURCES test_vec_ksp.c ${PROJECT_SOURCE_DIR}/bench/common/lap5shell.c LABELS vec asan valgrind)
target_include_directories(vec_ksp PRIVATE ${PROJECT_SOURCE_DIR}/bench/common)
# VECMPIOPENCL on 2 and 4 ranks (PoCL on the CPU: one kernel thread per rank, so 4 ranks on 2 cores do not thrash)
sbpmg_add_test(vec_mpi SOURCES test_vec_mpi.c NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS vec mpi asan TIMEOUT 120)
sbpmg_add_test(vec_mpi4 EXE vec_mpi NPROCS 4 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS vec mpi TIMEOUT 120)
