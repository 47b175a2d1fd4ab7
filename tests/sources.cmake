# The user's OpenCL sources and -cl_build_options against the library's macros (issue 37; docs/design.md "User sources and the
# macro namespace")
sbpmg_add_test(sbp_sources SOURCES test_sbp_sources.c test_sbp_common.c LABELS sbp asan TIMEOUT 120)
