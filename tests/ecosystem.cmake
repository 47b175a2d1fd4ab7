# Ecosystem: the plugin path (-dll_append), install + external builds
add_executable(plugin_demo plugin_demo.c)
target_link_libraries(plugin_demo PRIVATE PkgConfig::PETSC MPI::MPI_C)
target_compile_options(plugin_demo PRIVATE ${SBPMG_WARNINGS})
# -dll_append given twice: registering twice is harmless
sbpmg_add_test(plugin EXE plugin_demo ARGS -dll_append $<TARGET_LINKER_FILE:sbpmg> -dll_append $<TARGET_LINKER_FILE:sbpmg>
  -mat_type sbpsat -sbp_n 64 -ksp_type cg -ksp_rtol 1e-8 -pc_type sbpmg -ksp_view LABELS ecosystem PASS_REGEX "plugin: PC sbpmg")
