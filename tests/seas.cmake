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
