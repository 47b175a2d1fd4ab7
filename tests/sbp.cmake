# src/sbp: the SBP-SAT operator
sbpmg_add_test(sbp SOURCES test_sbp.c LABELS sbp asan valgrind TIMEOUT 600)
target_include_directories(sbp PRIVATE ${CHOLMOD_INCLUDE_DIR})
target_link_libraries(sbp PRIVATE ${CHOLMOD_LIBRARY} ${SUITESPARSECONFIG_LIBRARY})
