# src/vec: the device vector VECSEQOPENCL
sbpmg_add_test(vec SOURCES test_vec.c LABELS vec asan valgrind)
sbpmg_add_test(vec_ksp SOURCES test_vec_ksp.c LABELS vec asan valgrind)
sbpmg_add_test(vec_mpi SOURCES test_vec_mpi.c NPROCS 2 LABELS vec asan)
