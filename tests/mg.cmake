# src/mg: the sbpmg preconditioner
sbpmg_add_test(mg SOURCES test_mg.c LABELS mg asan TIMEOUT 600)
# several ranks: device transfers, V-cycle and MGCG against one rank, the coarse-level policy (3-rank cases on a sub-communicator
# of the 4-rank run). PoCL on the CPU: one kernel thread per rank.
sbpmg_add_test(mg_mpi2 SOURCES test_mg_mpi.c NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS mg mpi TIMEOUT 120)
sbpmg_add_test(mg_mpi4 EXE mg_mpi2 NPROCS 4 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS mg mpi TIMEOUT 120)
