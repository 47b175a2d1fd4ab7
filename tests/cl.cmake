# src/cl: the OpenCL runtime layer
sbpmg_add_test(cl SOURCES test_cl.c LABELS cl asan valgrind)
sbpmg_add_test(cl_nodevice SOURCES test_cl_nodevice.c ENV OCL_ICD_VENDORS=/nonexistent/sbpmg-icd LABELS cl asan)
sbpmg_add_test(cl_cache SOURCES test_cl_cache.c LABELS cl asan)
