# The acoustic sources' window refill on 2 and 3 ranks against one rank (src/acoustic/points.c)
sbpmg_add_test(acoustic_refill_mpi2 SOURCES test_acoustic_refill_mpi.c NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS acoustic mpi TIMEOUT 180)
sbpmg_add_test(acoustic_refill_mpi3 EXE acoustic_refill_mpi2 NPROCS 3 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS acoustic mpi TIMEOUT 180)
