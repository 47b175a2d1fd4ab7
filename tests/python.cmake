# The Python package and its examples (python/, examples/python/, tests/python/; docs/guide.md "From Python"), run with Debian's
# python3 where python/CMakeLists.txt built the module. Each test runs under the suite's environment (-malloc_dump: leaks fail).
if(NOT SBPMG_PYTHON_FOUND OR SBPMG_SANITIZE)
  return() # no module, or one that would need the sanitizer runtime preloaded into the interpreter
endif()

# The C program of examples/python/annulus.py's problem, whose errors the Python example must match (test_examples.py)
add_executable(annulus_reference python/annulus_reference.c)
target_compile_options(annulus_reference PRIVATE ${SBPMG_WARNINGS})
target_link_libraries(annulus_reference PRIVATE sbpmg ${MATH_LIBRARY})

set(SBPMG_PYTHON_TEST_ENV
  PYTHONPATH=${SBPMG_PYTHON_DIR}
  PYTHONDONTWRITEBYTECODE=1
  MPLBACKEND=Agg
  MPLCONFIGDIR=${PROJECT_BINARY_DIR}/xdg-cache/matplotlib
  SBPMG_ANNULUS_REFERENCE=$<TARGET_FILE:annulus_reference>
  SBPMG_CONVERGENCE=$<TARGET_FILE:convergence>
  SBPMG_PYTHON_OUT=${PROJECT_BINARY_DIR}/python-out)
file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/python-out)

# sbpmg_add_python_test(<name> <script or pytest file> [pytest selection] ARGS ...)
function(sbpmg_add_python_test name)
  cmake_parse_arguments(T "PYTEST" "" "ARGS" ${ARGN})
  if(T_PYTEST)
    add_test(NAME ${name} COMMAND ${SBPMG_PYTHON_EXECUTABLE} -m pytest -q -p no:cacheprovider ${T_ARGS})
  else()
    add_test(NAME ${name} COMMAND ${SBPMG_PYTHON_EXECUTABLE} ${T_ARGS})
  endif()
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${SBPMG_TEST_ENV};${SBPMG_PYTHON_TEST_ENV}" TIMEOUT 120 LABELS "python"
    WORKING_DIRECTORY ${PROJECT_BINARY_DIR}/python-out FAIL_REGULAR_EXPRESSION "${SBPMG_LEAK_REGEX}")
endfunction()

set(PYEX ${PROJECT_SOURCE_DIR}/examples/python)
set(PYT ${CMAKE_CURRENT_SOURCE_DIR}/python)
sbpmg_add_python_test(python_annulus ARGS ${PYEX}/annulus.py -n 32 -png annulus.png -max_error 1.2e-2)
sbpmg_add_python_test(python_convergence ARGS ${PYEX}/convergence.py -sizes 16,32,64 -check_order 2,0.15)
sbpmg_add_python_test(python_timeseries ARGS ${PYEX}/timeseries.py -n 32 -steps 6)
sbpmg_add_python_test(python_matches_c PYTEST ARGS ${PYT}/test_examples.py)
sbpmg_add_python_test(python_inputs PYTEST ARGS ${PYT}/test_inputs.py)
sbpmg_add_python_test(python_petsc4py PYTEST ARGS ${PYT}/test_petsc4py.py)
sbpmg_add_python_test(python_combinations PYTEST ARGS ${PYT}/test_combinations.py)

# The package from an installed prefix: `cmake --install` into a scratch prefix, then the installed annulus.py with only that
# prefix's site directory on PYTHONPATH (the module must come from there and find the installed libsbpmg by its RUNPATH)
set(_py_prefix ${PROJECT_BINARY_DIR}/python-out/prefix)
add_test(NAME python_installed COMMAND sh -c "rm -rf '${_py_prefix}' && '${CMAKE_COMMAND}' --install '${PROJECT_BINARY_DIR}' --prefix '${_py_prefix}' >/dev/null && \
PYTHONPATH='${_py_prefix}/${SBPMG_PYTHON_INSTALL_DIR}' LD_LIBRARY_PATH= '${SBPMG_PYTHON_EXECUTABLE}' -c 'import sbpmg, sbpmg._sbpmg as m; print(\"module\", m.__file__)' && \
PYTHONPATH='${_py_prefix}/${SBPMG_PYTHON_INSTALL_DIR}' LD_LIBRARY_PATH= '${SBPMG_PYTHON_EXECUTABLE}' '${_py_prefix}/share/sbpmg/examples/python/annulus.py' -n 32 -max_error 1.2e-2")
set_tests_properties(python_installed PROPERTIES ENVIRONMENT "${SBPMG_TEST_ENV};${SBPMG_PYTHON_TEST_ENV}" TIMEOUT 120 LABELS "python"
  WORKING_DIRECTORY ${PROJECT_BINARY_DIR}/python-out FAIL_REGULAR_EXPRESSION "${SBPMG_LEAK_REGEX}"
  PASS_REGULAR_EXPRESSION "module ${_py_prefix}/${SBPMG_PYTHON_INSTALL_DIR}/sbpmg/_sbpmg.*N = 32: error H 9[.]18323")
