# src/krylov: the device-resident CG (issue 35) against PETSc's CG (residual histories, solutions), its stopping rules, an indefinite
# operator, bad input; on 1 and 2 ranks.
sbpmg_add_test(krylov SOURCES test_krylov.c test_sbp_common.c LABELS krylov asan TIMEOUT 300)
sbpmg_add_test(krylov_mpi2 EXE krylov NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS krylov mpi TIMEOUT 300)
sbpmg_add_test(krylov_bad_side EXE sbp_solve ARGS -sbp_n 8 -ksp_type sbpcg -ksp_pc_side right LABELS krylov
  PASS_REGEX "KSP sbpcg does not support preconditioner side RIGHT")
