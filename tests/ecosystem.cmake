# Ecosystem: the plugin path (-dll_append), install + external builds
add_executable(plugin_demo plugin_demo.c)
target_link_libraries(plugin_demo PRIVATE PkgConfig::PETSC MPI::MPI_C)
target_compile_options(plugin_demo PRIVATE ${SBPMG_WARNINGS})
# -dll_append given twice: registering twice is harmless
sbpmg_add_test(plugin EXE plugin_demo ARGS -dll_append $<TARGET_LINKER_FILE:sbpmg> -dll_append $<TARGET_LINKER_FILE:sbpmg>
  -mat_type sbpsat -sbp_n 64 -ksp_type cg -ksp_rtol 1e-8 -pc_type sbpmg -ksp_view LABELS ecosystem PASS_REGEX "plugin: PC sbpmg")
# docs/options.md is generated from -help; this fails when the code's options and the document disagree
add_test(NAME options_doc COMMAND bash -c "${PROJECT_SOURCE_DIR}/scripts/gen-options-doc ${PROJECT_BINARY_DIR} | diff -u ${PROJECT_SOURCE_DIR}/docs/options.md - && echo 'docs/options.md matches -help'")
set_tests_properties(options_doc PROPERTIES ENVIRONMENT "${SBPMG_TEST_ENV}" LABELS ecosystem TIMEOUT 300)
# make install into a temporary prefix; an external program and every installed example built with pkg-config and with
# find_package(sbpmg), the examples run on small sizes; then the prefix moved and the external program built again
add_test(NAME install COMMAND ${PROJECT_SOURCE_DIR}/tests/install-test.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
set_tests_properties(install PROPERTIES ENVIRONMENT "${SBPMG_TEST_ENV}" LABELS ecosystem TIMEOUT 300 PASS_REGULAR_EXPRESSION "install test: pkg-config and CMake builds ran \\(also from a moved prefix\\)"
  FAIL_REGULAR_EXPRESSION "${SBPMG_LEAK_REGEX}")
# the layering of docs/design.md "Layout": includes, calls between layers and circles of calls, from the built objects
add_test(NAME layers COMMAND ${PROJECT_SOURCE_DIR}/scripts/check-layers ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
set_tests_properties(layers PROPERTIES LABELS ecosystem PASS_REGULAR_EXPRESSION " 0 violation\\(s\\)")
# a program linked with libsbpmg.so that never calls SbpmgInitializePackage(): SbpProblemCreate() registers the package, so
# -pc_type sbpmg and -ksp_type sbpcg are found (fails with PETSc's "Unable to find requested PC type sbpmg" otherwise)
add_executable(test_noinit test_noinit.c)
target_link_libraries(test_noinit PRIVATE sbpmg)
target_compile_options(test_noinit PRIVATE ${SBPMG_WARNINGS})
sbpmg_add_test(noinit_pc EXE test_noinit ARGS -ksp_type cg -pc_type sbpmg LABELS ecosystem PASS_REGEX "noinit: solved without")
sbpmg_add_test(noinit_ksp EXE test_noinit ARGS -ksp_type sbpcg -pc_type sbpmg LABELS ecosystem PASS_REGEX "noinit: solved without")
