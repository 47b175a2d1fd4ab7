# Integer options of the bench tools and the examples read as 64-bit (SbpmgOptionsCheckInts()) and range-checked: a value that
# would wrap, or one out of range, is an error naming the option and the value (issue 37)
set(SBPMG_INT_CASES
  "sbp_bench|-bench_reps 4294967297|-bench_reps 4294967297: the value 4294967297 does not fit a 32-bit PetscInt"
  "sbp_bench|-bench_n 64,-4294967040|-bench_n 64,-4294967040: the value -4294967040 does not fit a 32-bit PetscInt"
  "sbp_bench|-bench_solve_reps 0|-bench_solve_reps 0 must be >= 1"
  "sbp_bench|-bench_n 1|-bench_n 1 must be >= 2"
  "timeseries_bench|-ts_steps 4294967297|-ts_steps 4294967297: the value 4294967297 does not fit a 32-bit PetscInt"
  "timeseries_bench|-bench_reps 9223372036854775808|-bench_reps 9223372036854775808: the value 9223372036854775808 does not fit a 32-bit PetscInt"
  "robust_bench|-rb_n 256,4294967552|-rb_n 256,4294967552: the value 4294967552 does not fit a 32-bit PetscInt"
  "robust_bench|-rb_reps 0|-rb_reps 0 must be >= 1"
  "robust_bench|-rb_n 1|-rb_n 1 must be >= 2 \\(or 0: none\\)"
  "acoustic_bench|-ac_steps 4294967297|-ac_steps 4294967297: the value 4294967297 does not fit a 32-bit PetscInt"
  "acoustic_bench|-bench_receivers -1|-bench_receivers -1 must be >= 0"
  "acoustic_bench|-bench_copy_mib 0|-bench_copy_mib 0 must be in \\[1, 1048576\\]"
  "vec_bandwidth|-n_max 4294967296|-n_max 4294967296: the value 4294967296 does not fit a 32-bit PetscInt"
  "vec_bandwidth|-cg_its -4294967295|-cg_its -4294967295: the value -4294967295 does not fit a 32-bit PetscInt"
  "pcmg_peer|-bench_coarse_size -4294967295|-bench_coarse_size -4294967295: the value -4294967295 does not fit a 32-bit PetscInt"
  "pcmg_peer|-bench_n 1|-bench_n 1 must be >= 2"
  "sbp_timeseries|-ts_steps 4294967297|-ts_steps 4294967297: the value 4294967297 does not fit a 32-bit PetscInt"
  "acoustic3d|-ac_n 24 -ac_ndamp 4 -ac_steps 4 -ac_progress_every -1|-ac_progress_every -1 must be >= 0"
  "acoustic3d|-ac_n 24 -ac_ndamp 4 -ac_steps 4 -ac_progress_every -4294967296|-ac_progress_every -4294967296: the value -4294967296 does not fit a 32-bit PetscInt")
set(SBPMG_INT_CASE 0)
foreach(case IN LISTS SBPMG_INT_CASES)
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 exe)
  list(GET parts 1 args)
  list(GET parts 2 regex)
  separate_arguments(args)
  math(EXPR SBPMG_INT_CASE "${SBPMG_INT_CASE} + 1")
  if(TARGET ${exe})
    sbpmg_add_test(${exe}_int_option_${SBPMG_INT_CASE} EXE ${exe} ARGS ${args} LABELS options PASS_REGEX "${regex}" TIMEOUT 60)
  endif()
endforeach()
