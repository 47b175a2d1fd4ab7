# src/seas: the earthquake cycle (docs/seas.md). Rate-and-state friction against its closed form, the aging law's steady state, the
# device against the host reference, bad parameters.
sbpmg_add_test(seas_friction SOURCES test_seas_friction.c LABELS seas asan valgrind TIMEOUT 300)
# The BP1-QD driver: the station-file writer parsed back, a short coarse run (5 years on a 32 x 32 grid) checked against V = Vinit
# and tau = tau0 at t = 0 and the creep near Wf, one PC set-up, bad options; examples/seas_bp1 on the same grid, its summary.
sbpmg_add_test(seas_driver SOURCES test_seas_bp1.c LABELS seas asan TIMEOUT 300)
sbpmg_add_test(seas_bp1_example EXE seas_bp1 ARGS -seas_n 32 -seas_domain 60e3 -seas_fault_dz 400 -seas_tf 2 -seas_output none LABELS seas
  PASS_REGEX "SEAS BP1-QD summary: t = 2 years, 0 events")
# The Green's function mode: G delta + t g against volume solves of random slip, a 5-year run against the volume path, the file
# written and read back, bad input.
sbpmg_add_test(seas_green SOURCES test_seas_green.c LABELS seas TIMEOUT 300)
# The fluxes balance: the driver's SAT-corrected fault stress and face 2's corrected flux sum to the residual's sum (round-off), and
# would not with face 1's correction dropped or its sign flipped.
sbpmg_add_test(seas_flux SOURCES test_seas_flux.c LABELS seas TIMEOUT 300)
sbpmg_add_test(seas_bp1_green_example EXE seas_bp1 ARGS -seas_n 32 -seas_domain 60e3 -seas_fault_dz 400 -seas_tf 2 -seas_output none -seas_green
  LABELS seas PASS_REGEX "mode: Green's function; G set-up")
# The driver at higher order (-sbp_order, docs/guide.md "Higher order"): the same short run at order 4, its view and summary; an
# order that does not exist and a grid below the order's minimum, each an error naming the settings; a Green's function file of
# order 2 read by an order-4 run, refused (the file records the order).
sbpmg_add_test(seas_bp1_order4_example EXE seas_bp1 ARGS -seas_n 32 -seas_domain 60e3 -seas_fault_dz 400 -seas_tf 2 -seas_output none -sbp_order 4
  LABELS seas PASS_REGEX "grid 32 x 32, [^\n]*; SBP-SAT order 4\n.*SEAS BP1-QD summary: t = 2 years, 0 events")
sbpmg_add_test(seas_bp1_bad_order EXE seas_bp1 ARGS -seas_n 32 -sbp_order 3 -seas_output none
  LABELS seas PASS_REGEX "Argument out of range\n[^\n]*-sbp_order 3: the SBP-SAT order must be 2, 4 or 6")
sbpmg_add_test(seas_bp1_bad_guess_basis EXE seas_bp1 ARGS -seas_n 16 -seas_guess_basis -1 -seas_output none
  LABELS seas PASS_REGEX "Argument out of range\n[^\n]*-seas_guess_basis -1 must be >= 0 \\(0: the last solution alone\\)")
sbpmg_add_test(seas_bp1_order_small_grid EXE seas_bp1 ARGS -seas_n 8 -seas_fault_dz 0 -sbp_order 4 -seas_output none
  LABELS seas PASS_REGEX "Argument out of range\n[^\n]*-seas_n 8,8 with -sbp_order 4: that order needs at least 11 intervals in each direction")
add_test(NAME seas_bp1_green_order COMMAND sh -c
  "rm -f seas_green_order.bin; $<TARGET_FILE:seas_bp1> $0 -sbp_order 2 && $<TARGET_FILE:seas_bp1> $0 -sbp_order 4; rm -f seas_green_order.bin"
  "-seas_n 16 -seas_domain 60e3 -seas_fault_dz 400 -seas_tf 0.01 -seas_output none -seas_green_file seas_green_order.bin")
set_tests_properties(seas_bp1_green_order PROPERTIES LABELS seas TIMEOUT 300 ENVIRONMENT "${SBPMG_TEST_ENV}"
  PASS_REGULAR_EXPRESSION "written to seas_green_order.bin.*Arguments are incompatible\n[^\n]*fault nodes, -sbp_order 2.; this run has 16 x 16 [^\n]*, -sbp_order 4")
