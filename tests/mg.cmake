# src/mg: the sbpmg preconditioner. The preconditioner (transfers, V-cycle, solves, kernel variants), the level smoother alone, the
# options and bad input.
sbpmg_add_test(mg SOURCES test_mg.c test_sbp_common.c LABELS mg asan TIMEOUT 600)
sbpmg_add_test(mg_smoother SOURCES test_mg_smoother.c test_sbp_common.c LABELS mg asan TIMEOUT 600)
sbpmg_add_test(mg_options SOURCES test_mg_options.c test_sbp_common.c LABELS mg asan TIMEOUT 600)
# an unknown smoother: PETSc's PetscOptionsEnum reports it (see tests/sbp.cmake)
sbpmg_add_test(mg_bad_smoother EXE sbp_solve ARGS -sbp_n 8 -pc_sbpmg_smoother gauss-seidel LABELS mg
  PASS_REGEX "Unknown option gauss-seidel for -pc_sbpmg_smoother. Available options: chebyshev jacobi richardson")
# several ranks: device transfers, V-cycle and MGCG against one rank, the coarse-level policy (3-rank cases on a sub-communicator
# of the 4-rank run). PoCL on the CPU: one kernel thread per rank.
sbpmg_add_test(mg_mpi2 SOURCES test_mg_mpi.c test_mg_common.c test_sbp_common.c NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS mg mpi TIMEOUT 120)
sbpmg_add_test(mg_mpi4 EXE mg_mpi2 NPROCS 4 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS mg mpi TIMEOUT 120)
# the single-precision V-cycle (issue 21) against the fp64 one: iterations, errors, symmetry, cycle types, kernel shapes, FCG, bad input
sbpmg_add_test(mg_precision SOURCES test_mg_precision.c test_mg_common.c test_sbp_common.c LABELS mg asan TIMEOUT 900)
# a reused KSP on new operators (issue 22): other coefficients, boundary conditions and sizes against a fresh KSP, fp64 and fp32 V-cycles
sbpmg_add_test(mg_reuse SOURCES test_mg_reuse.c test_sbp_common.c LABELS mg asan TIMEOUT 120)
sbpmg_add_test(mg_reuse_mpi2 EXE mg_reuse NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS mg mpi TIMEOUT 120)
# all faces Neumann (issue 22): the null space, the compatible right-hand side, the error modulo constants, order 2, the fp32 V-cycle
sbpmg_add_test(mg_neumann SOURCES test_mg_neumann.c test_sbp_common.c LABELS mg asan TIMEOUT 300)
sbpmg_add_test(mg_neumann_mpi2 EXE mg_neumann NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS mg mpi TIMEOUT 300)
# line smoothing (issue 34): the line solves against the assembled blocks, stretched grids and unequal sides, symmetry, bad input
sbpmg_add_test(mg_lines SOURCES test_mg_lines.c test_sbp_common.c LABELS mg asan TIMEOUT 600)
sbpmg_add_test(mg_bad_lines EXE sbp_solve ARGS -sbp_n 8 -pc_sbpmg_lines diagonal LABELS mg
  PASS_REGEX "Unknown option diagonal for -pc_sbpmg_lines. Available options: auto none r s both")
# grids of any size (issue 34): coarse sizes, the transfers between grids that do not nest, iterations on odd, prime and mixed sizes, symmetry
sbpmg_add_test(mg_sizes SOURCES test_mg_sizes.c test_sbp_common.c LABELS mg asan TIMEOUT 600)
sbpmg_add_test(mg_lines_mpi2 EXE mg_lines NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS mg mpi TIMEOUT 120)
sbpmg_add_test(mg_lines_mpi3 EXE mg_lines NPROCS 3 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS mg mpi TIMEOUT 120)
sbpmg_add_test(mg_lines_mpi5 EXE mg_lines NPROCS 5 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS mg mpi TIMEOUT 300)
# the coarse solve on the device (issue 35): the dense inverse against the assembled coarse operator, CG + sbpmg against CHOLMOD, auto, bad input
sbpmg_add_test(mg_coarse SOURCES test_mg_coarse.c test_sbp_common.c LABELS mg asan TIMEOUT 300)
sbpmg_add_test(mg_coarse_mpi2 EXE mg_coarse NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS mg mpi TIMEOUT 120)
sbpmg_add_test(mg_bad_coarse EXE sbp_solve ARGS -sbp_n 8 -pc_sbpmg_coarse_solve lapack LABELS mg
  PASS_REGEX "Unknown option lapack for -pc_sbpmg_coarse_solve. Available options: auto dense cholmod")
# PETSc's own PCMG options (issue 37, item 3): every -mg_coarse_*, -mg_levels_*, -pc_mg_* family and an assembled preconditioning matrix with
# the V-cycle in single, double and the GPU's default precision: the direct solution or an error at set-up naming the option
sbpmg_add_test(mg_pcmg_mix SOURCES test_mg_pcmg_mix.c test_mg_common.c test_sbp_common.c LABELS mg asan TIMEOUT 120)
# the multigrid at SBP order 4 and 6 (issue 38): flat iterations, the order's error, symmetry, host and device, the combinations not built
sbpmg_add_test(mg_order SOURCES test_mg_order.c test_sbp_common.c LABELS mg TIMEOUT 300)
sbpmg_add_test(mg_order_mpi2 EXE mg_order NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS mg mpi TIMEOUT 300)
# the fused order-p sweep against the sweep by vector operations around MatResidual and the host's (docs/design.md "Multigrid at higher order")
sbpmg_add_test(mg_order_sweep SOURCES test_mg_order_sweep.c test_sbp_common.c LABELS mg asan TIMEOUT 300)
sbpmg_add_test(mg_order_sweep_mpi2 EXE mg_order_sweep NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS mg mpi TIMEOUT 300)
sbpmg_add_test(mg_order_sweep_mpi3 EXE mg_order_sweep NPROCS 3 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS mg mpi TIMEOUT 300)
