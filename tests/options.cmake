# Bad option values across the layers (issue 22 item 7): real options range-checked, array options length-checked, integers that
# wrap around 2^32, options without effect in the configuration in force, nu_max, work-group tuning named in its error, Galerkin
# with sbpmg, the library's own CHOLMOD option never "left", the Richardson smoother SPD under CG.
sbpmg_add_test(options_bad SOURCES test_options_bad.c test_sbp_common.c LABELS mg sbp acoustic asan TIMEOUT 300)
