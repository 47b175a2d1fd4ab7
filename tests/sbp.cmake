# src/sbp: the SBP-SAT operator. The reference (1D blocks, Kronecker assembly, right-hand side, convergence), the matrix-free operator
# against it, bad input; tests/test_sbp_common.c holds the helpers of the SBP-SAT and multigrid tests.
sbpmg_add_test(sbp SOURCES test_sbp.c test_sbp_common.c LABELS sbp asan valgrind TIMEOUT 600)
target_include_directories(sbp PRIVATE ${CHOLMOD_INCLUDE_DIR})
target_link_libraries(sbp PRIVATE ${CHOLMOD_LIBRARY} ${SUITESPARSECONFIG_LIBRARY})
# the 1D blocks of order 2, 4, 6 (src/sbp/sbp1d.c; docs/verification.md "1D blocks of order 2, 4, 6"): identities, polynomial accuracy,
# the constant-coefficient closures, bad orders and grids too small
sbpmg_add_test(sbp1d SOURCES test_sbp1d.c LABELS sbp asan valgrind TIMEOUT 300)
# the assembled reference of order 2, 4, 6 (src/sbp/assemble.c, issue 38; docs/verification.md "The assembled reference of order 2,
# 4, 6"): symmetric, definite, constants annihilated, grids too small, the observed orders of the manufactured solution
sbpmg_add_test(sbp_order SOURCES test_sbp_order.c test_sbp_common.c LABELS sbp TIMEOUT 300)
target_include_directories(sbp_order PRIVATE ${CHOLMOD_INCLUDE_DIR})
target_link_libraries(sbp_order PRIVATE ${CHOLMOD_LIBRARY} ${SUITESPARSECONFIG_LIBRARY})
sbpmg_add_test(sbp_operator SOURCES test_sbp_operator.c test_sbp_common.c LABELS sbp asan valgrind TIMEOUT 600)
sbpmg_add_test(sbp_input SOURCES test_sbp_input.c test_sbp_common.c LABELS sbp asan valgrind TIMEOUT 600)
# an unknown value of a choice option: PETSc's PetscOptionsEnum reports it (83 PETSC_ERR_USER_INPUT), and the error leaks PETSc's
# option strings, so each runs as a program (examples/sbp_solve) whose error output the PASS_REGEX matches
sbpmg_add_test(sbp_bad_mapping EXE sbp_solve ARGS -sbp_n 8 -sbp_mapping bilinear LABELS sbp
  PASS_REGEX "Unknown option bilinear for -sbp_mapping. Available options: curved square user")
sbpmg_add_test(sbp_bad_mu EXE sbp_solve ARGS -sbp_n 8 -sbp_mu gaussian LABELS sbp
  PASS_REGEX "Unknown option gaussian for -sbp_mu. Available options: basin constant user")
sbpmg_add_test(sbp_bad_backend EXE sbp_solve ARGS -sbp_n 8 -sbp_backend gpu LABELS sbp
  PASS_REGEX "Unknown option gpu for -sbp_backend. Available options: auto device host")
sbpmg_add_test(sbp_bad_operator EXE sbp_solve ARGS -sbp_n 8 -sbp_operator dense LABELS sbp
  PASS_REGEX "Unknown option dense for -sbp_operator. Available options: matfree assembled")
# the traction on a face (src/sbp/traction.c): convergence, the Kronecker and assembled references, device and host, bad input; on
# 2 and 3 ranks, against one rank (the faces cut by the ranks)
sbpmg_add_test(sbp_traction SOURCES test_sbp_traction.c test_sbp_common.c LABELS sbp asan valgrind TIMEOUT 600)
sbpmg_add_test(sbp_traction_mpi2 EXE sbp_traction NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 300)
sbpmg_add_test(sbp_traction_mpi3 EXE sbp_traction NPROCS 3 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 300)
# several ranks: host path, assembled reference and the device path (ghost exchange between the devices) against one rank.
# PoCL on the CPU: one kernel thread per rank, so 3 or 4 ranks on 2 cores do not thrash.
sbpmg_add_test(sbp_mpi2 SOURCES test_sbp_mpi.c test_sbp_common.c NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 120)
sbpmg_add_test(sbp_mpi3 EXE sbp_mpi2 NPROCS 3 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 120)
sbpmg_add_test(sbp_mpi4 EXE sbp_mpi2 NPROCS 4 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 120)
# examples/sbp_timeseries, the quasi-static series (new face 1 data every step, warm-started solves): on 1 and 2 ranks,
# tests/check-timeseries.sh checks what it prints (warm <= cold iterations, one PC set-up, the true residual, the same ||u||);
# a small run under valgrind; its bad options
add_test(NAME sbp_timeseries COMMAND ${PROJECT_SOURCE_DIR}/tests/check-timeseries.sh $<TARGET_FILE:sbp_timeseries> ${MPIEXEC_EXECUTABLE})
set_tests_properties(sbp_timeseries PROPERTIES ENVIRONMENT "${SBPMG_TEST_ENV}" LABELS sbp TIMEOUT 300 PROCESSORS 2
  PASS_REGULAR_EXPRESSION "timeseries check: warm <= cold" FAIL_REGULAR_EXPRESSION "${SBPMG_LEAK_REGEX}")
sbpmg_add_test(sbp_timeseries_small EXE sbp_timeseries ARGS -sbp_n 16 -ts_steps 3 -ts_t0 10 -ts_compare_cold LABELS sbp valgrind
  PASS_REGEX "PC set-ups: 1")
sbpmg_add_test(sbp_timeseries_bad_steps EXE sbp_timeseries ARGS -sbp_n 8 -ts_steps 0 LABELS sbp PASS_REGEX "-ts_steps 0 must be >= 1")
sbpmg_add_test(sbp_timeseries_bad_dt EXE sbp_timeseries ARGS -sbp_n 8 -ts_dt nan LABELS sbp PASS_REGEX "-ts_dt nan.? must be finite and > 0")
sbpmg_add_test(sbp_timeseries_tiny_dt EXE sbp_timeseries ARGS -sbp_n 8 -ts_dt 1e-320 LABELS sbp PASS_REGEX "-ts_dt [0-9.e-]+ is below the smallest normal double")
sbpmg_add_test(sbp_timeseries_bad_t0 EXE sbp_timeseries ARGS -sbp_n 8 -ts_t0 -1 LABELS sbp PASS_REGEX "-ts_t0 -1.? must be finite and >= 0")
sbpmg_add_test(sbp_timeseries_bad_bc EXE sbp_timeseries ARGS -sbp_n 8 -sbp_bc NDNN LABELS sbp
  PASS_REGEX "Face 1 carries the slip: it must be Dirichlet")
# bench/timeseries_bench (the numbers of docs/guide.md "A time series" on a GPU): a small run and a bad option
if(TARGET timeseries_bench)
  sbpmg_add_test(timeseries_bench_small EXE timeseries_bench ARGS -bench_n 32 -bench_reps 2 -ts_steps 3 LABELS sbp
    PASS_REGEX "\n +32 +1000 [^\n]*e-(09|1[0-9])\n")
  sbpmg_add_test(timeseries_bench_bad_t0 EXE timeseries_bench ARGS -bench_n 32 -ts_t0 0,-5 LABELS sbp PASS_REGEX "-ts_t0 -5.? must be finite and >= 0")
endif()
# files and data a user brings (issue 37): the grid and mu files fuzzed, grids whose cells fold, a forcing given as values in any
# layout against its function, error paths that leak nothing; on 2 and 3 ranks too
sbpmg_add_test(sbp_files SOURCES test_sbp_files.c test_sbp_common.c LABELS sbp asan valgrind TIMEOUT 300)
sbpmg_add_test(sbp_files_mpi2 EXE sbp_files NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 300)
sbpmg_add_test(sbp_files_mpi3 EXE sbp_files NPROCS 3 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS sbp mpi TIMEOUT 300)
