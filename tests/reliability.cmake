# Reliability: lifecycle of OpenCL objects, determinism
sbpmg_add_test(lifecycle SOURCES test_lifecycle.c test_sbp_common.c LABELS reliability asan)
# docs/errors.md: at least 30 bad inputs, each row's message text present in the test it names
add_test(NAME errors_doc COMMAND ${PROJECT_SOURCE_DIR}/tests/check-errors-doc.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(errors_doc PROPERTIES LABELS reliability)
