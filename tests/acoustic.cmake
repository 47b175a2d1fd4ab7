# src/acoustic: the 8th-order 25-point acoustic operator
sbpmg_add_test(acoustic_host SOURCES test_acoustic_host.c test_acoustic_common.c LABELS acoustic asan valgrind)
sbpmg_add_test(acoustic SOURCES test_acoustic.c LABELS acoustic asan)
sbpmg_add_test(acoustic_physics SOURCES test_acoustic_physics.c LABELS acoustic)
# the example: a short run with progress lines and PNG / VTK snapshots; a bad snapshot format (PetscOptionsEnum's message,
# after the header line) and a bad cfl (the PASS_REGEX matches PETSc's text of the error code, 63 PETSC_ERR_ARG_OUTOFRANGE,
# then the message)
sbpmg_add_test(acoustic3d_png EXE acoustic3d ARGS -ac_n 48 -ac_ndamp 8 -ac_steps 40 -ac_progress_every 10 -ac_snapshot_every 20 -ac_snapshot_prefix ac3d_png
  LABELS acoustic PASS_REGEX "snapshot ac3d_png_000040.png.*summary: 40 steps of 48 x 48 x 48")
sbpmg_add_test(acoustic3d_vtk EXE acoustic3d ARGS -ac_n 32 -ac_ndamp 4 -ac_steps 10 -ac_init random -ac_snapshot_every 10 -ac_snapshot_format vtk -ac_snapshot_prefix ac3d_vtk
  LABELS acoustic PASS_REGEX "snapshot ac3d_vtk_000010.vti.*summary: 10 steps")
sbpmg_add_test(acoustic3d_bad_format EXE acoustic3d ARGS -ac_n 32 -ac_ndamp 4 -ac_snapshot_format jpg
  LABELS acoustic PASS_REGEX "Error Message[^\n]*\n[^\n]*Unknown option jpg for -ac_snapshot_format\\. Available options: png vtk")
sbpmg_add_test(acoustic3d_bad_cfl EXE acoustic3d ARGS -ac_n 32 -ac_ndamp 4 -ac_cfl 1.5
  LABELS acoustic PASS_REGEX "Argument out of range\n[^\n]*CFL number 1.5 \\(-ac_cfl\\) is above the stability limit 1")
# several MPI ranks (slabs along z): the same fields as one rank, halo traffic only, uneven splits, snapshots, too many ranks
sbpmg_add_test(acoustic_mpi2 SOURCES test_acoustic_mpi.c NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS acoustic mpi TIMEOUT 120)
sbpmg_add_test(acoustic_mpi4 EXE acoustic_mpi2 NPROCS 4 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS acoustic mpi TIMEOUT 120)
sbpmg_add_test(acoustic3d_mpi2 EXE acoustic3d NPROCS 2 ARGS -ac_n 32 -ac_ndamp 4 -ac_steps 20 -ac_snapshot_every 20 -ac_snapshot_prefix ac3d_mpi2
  ENV POCL_MAX_PTHREAD_COUNT=1 LABELS acoustic mpi PASS_REGEX "2 MPI ranks: slabs of 16 to 16 planes.*snapshot ac3d_mpi2_000020.png.*summary: 20 steps of 32 x 32 x 32")
# issue 24: the operator as a modelling tool (sources, receivers, traces, layered models; pictures of issue 23)
sbpmg_add_test(acoustic_seismic SOURCES test_acoustic_seismic.c LABELS acoustic)
sbpmg_add_test(acoustic_pictures SOURCES test_acoustic_pictures.c LABELS acoustic)
target_link_libraries(acoustic_pictures PRIVATE PNG::PNG)
sbpmg_add_test(acoustic_survey SOURCES test_acoustic_survey.c test_acoustic_common.c LABELS acoustic asan)
sbpmg_add_test(acoustic_survey_mpi2 SOURCES test_acoustic_survey_mpi.c NPROCS 2 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS acoustic mpi TIMEOUT 120)
sbpmg_add_test(acoustic_survey_mpi4 EXE acoustic_survey_mpi2 NPROCS 4 ENV POCL_MAX_PTHREAD_COUNT=1 LABELS acoustic mpi TIMEOUT 120)
# the example as a shot: a layered model, a receiver line, the traces' files and the shot gather, a y-plane snapshot
sbpmg_add_test(acoustic3d_shot EXE acoustic3d ARGS -ac_n 40,32,36 -ac_ndamp 6 -ac_dx 10 -ac_layers 2000,205,3000 -ac_vmax 0
  -ac_source 20,16,10 -ac_receivers_line 80,160,100:320,160,100:25 -ac_trace_every 2 -ac_steps 80 -ac_traces ac3d_shot
  -ac_snapshot_every 80 -ac_snapshot_plane y:16 -ac_snapshot_prefix ac3d_shot LABELS acoustic
  PASS_REGEX "2 layers.*25 receivers, a trace sample every 2 steps.*snapshot ac3d_shot_000080.png.*traces: 25 receivers x 41 samples every [0-9.e+-]+ s in ac3d_shot.npy, ac3d_shot.bin, ac3d_shot.png")
# issue 37: hostile inputs (bounded set-up, impossible time steps, every file reader fuzzed, options that wrapped or did
# nothing, digits of reals, a failed traces write); the example's own integer options and output names
sbpmg_add_test(acoustic_inputs SOURCES test_acoustic_inputs.c test_acoustic_common.c LABELS acoustic asan)
sbpmg_add_test(acoustic3d_steps_wrap EXE acoustic3d ARGS -ac_n 24 -ac_ndamp 4 -ac_steps 4294967297
  LABELS acoustic PASS_REGEX "-ac_steps 4294967297: the value 4294967297 does not fit a 32-bit PetscInt")
sbpmg_add_test(acoustic3d_snapshot_every_wrap EXE acoustic3d ARGS -ac_n 24 -ac_ndamp 4 -ac_steps 4 -ac_snapshot_every -4294967295
  LABELS acoustic PASS_REGEX "-ac_snapshot_every -4294967295: the value -4294967295 does not fit a 32-bit PetscInt")
sbpmg_add_test(acoustic3d_progress_wrap EXE acoustic3d ARGS -ac_n 24 -ac_ndamp 4 -ac_steps 4 -ac_progress_every 9223372036854775808
  LABELS acoustic PASS_REGEX "-ac_progress_every 9223372036854775808: the value 9223372036854775808 does not fit a 32-bit PetscInt")
string(REPEAT "p" 4093 _ac_prefix_4093)
string(REPEAT "q" 5000 _ac_prefix_5000)
sbpmg_add_test(acoustic3d_long_traces EXE acoustic3d ARGS -ac_n 24 -ac_ndamp 4 -ac_steps 2 -ac_receivers_line 100,100,100:200,100,100:2
  -ac_traces ${_ac_prefix_4093} LABELS acoustic PASS_REGEX "\\(-ac_traces\\) would have 4097 characters, more than the limit of 4095")
sbpmg_add_test(acoustic3d_long_prefix EXE acoustic3d ARGS -ac_n 24 -ac_ndamp 4 -ac_steps 2 -ac_snapshot_every 1 -ac_snapshot_prefix ${_ac_prefix_5000}
  LABELS acoustic PASS_REGEX "-ac_snapshot_prefix: the name of 5000 characters is longer than the limit of 4095")
