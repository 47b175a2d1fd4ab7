# The user's OpenCL sources and -cl_build_options against the library's macros (issue 37; docs/design.md "User sources and the
# macro namespace")
sbpmg_add_test(sbp_sources SOURCES test_sbp_sources.c test_sbp_common.c LABELS sbp asan TIMEOUT 120)

# Every way of giving the grid, mu, the data and the exact solution combines, on both backends (issue 39; docs/guide.md "What
# combines"): one test per grid on the device, one for the host backend; the executable is built once
sbpmg_add_test(sbp_combine_host SOURCES test_sbp_combine.c test_sbp_common.c ARGS -test_filter "test_host*" LABELS sbp TIMEOUT 300)
foreach(grid function source node builtin)
  sbpmg_add_test(sbp_combine_${grid} EXE sbp_combine_host ARGS -test_filter "test_device_${grid}_grid" LABELS sbp TIMEOUT 300)
endforeach()
