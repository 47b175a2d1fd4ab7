# Reliability: lifecycle of OpenCL objects, determinism
sbpmg_add_test(lifecycle SOURCES test_lifecycle.c LABELS reliability asan)
