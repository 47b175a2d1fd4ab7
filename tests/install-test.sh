#!/usr/bin/env bash
# Install sbpmg into a temporary prefix, then build and run against it alone: a small external program with pkg-config
# (sbpmg.pc) and with CMake (find_package(sbpmg), target sbpmg::sbpmg), and every installed example
# (share/sbpmg/examples) with its Makefile and with its CMakeLists.txt, each run on a small size, and the complete program and
# the direct-solve recipe of docs/guide.md. Every program built with pkg-config runs WITHOUT LD_LIBRARY_PATH: sbpmg.pc's Libs
# carry -Wl,-rpath to the prefix's lib (checked with ldd: libsbpmg found in the prefix). Then the prefix is moved
# and the external program is built again both ways (the installed files carry no absolute paths).
set -euo pipefail
build=$1
src=$2
top=$(mktemp -d)
trap 'rm -rf "$top"' EXIT
prefix=$top/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
test -f "$prefix/include/sbpmg.h" && test -f "$prefix/lib/pkgconfig/sbpmg.pc" && test -f "$prefix/lib/cmake/sbpmg/sbpmgConfig.cmake"
test -f "$prefix/share/sbpmg/kernels/sbp.cl"
test ! -e "$prefix/include/sbpmg/private" # the private headers are not installed

# small-size arguments of each example (an example without an entry here fails the test)
example_args() {
  case "$1" in
  device_check) echo "-n 4096" ;;
  sbp_solve) echo "-sbp_n 16 -ksp_rtol 1e-8" ;;
  sbp_timeseries) echo "-sbp_n 16 -ts_steps 3 -ts_compare_cold" ;;
  acoustic3d) echo "-ac_n 24 -ac_ndamp 4 -ac_steps 4 -ac_progress_every 2" ;;
  seas_bp1) echo "-seas_n 16 -seas_domain 60e3 -seas_fault_dz 1000 -seas_tf 1 -seas_output none" ;;
  *) return 1 ;;
  esac
}

# $1: a program built with pkg-config against the prefix $2: it finds the prefix's libsbpmg by its rpath alone
finds_sbpmg_alone() {
  local lib
  lib=$(env -u LD_LIBRARY_PATH ldd "$1" | awk '/libsbpmg/ {print ($3 == "not" ? "(not found)" : $3)}')
  case "$lib" in
  "$2"/*) ;;
  *) echo "install test: $1 without LD_LIBRARY_PATH finds libsbpmg at '${lib:-nothing}', not under $2 (no -Wl,-rpath in sbpmg.pc's Libs?)"; exit 1 ;;
  esac
}

external() { # $1: the prefix; builds and runs tests/external both ways, the pkg-config build without LD_LIBRARY_PATH
  local p=$1 pc=$1/lib/pkgconfig
  PKG_CONFIG_PATH=$pc cc "$src/tests/external/main.c" $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs sbpmg) -o "$top/external_pkgconfig"
  finds_sbpmg_alone "$top/external_pkgconfig" "$p"
  env -u LD_LIBRARY_PATH "$top/external_pkgconfig"
  rm -rf "$top/ext-build"
  cmake -S "$src/tests/external" -B "$top/ext-build" -DCMAKE_PREFIX_PATH="$p" >/dev/null
  cmake --build "$top/ext-build" >/dev/null
  env -u LD_LIBRARY_PATH "$top/ext-build/external_cmake" # CMake puts the prefix's lib in the build rpath
}

# 1. the external program, both ways; the installed kernels directory works as -cl_kernel_dir
external "$prefix"
env -u LD_LIBRARY_PATH "$top/external_pkgconfig" -cl_kernel_dir "$prefix/share/sbpmg/kernels"

# 1b. the complete program of docs/guide.md, as a user copies it, built with pkg-config and run small
awk '/^## A complete program/{f=1} f&&/^```c/{c=1;next} c&&/^```/{exit} c' "$src/docs/guide.md" >"$top/guide.c"
PKG_CONFIG_PATH=$prefix/lib/pkgconfig cc "$top/guide.c" $(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs sbpmg) -o "$top/guide"
(cd "$top" && env -u LD_LIBRARY_PATH ./guide -sbp_n 32,16 -ksp_converged_reason >"$top/guide.log" 2>&1) &&
  grep -q "CONVERGED" "$top/guide.log" || { cat "$top/guide.log"; echo "install test: the program of docs/guide.md failed"; exit 1; }
echo "install test: the complete program of docs/guide.md built and converged"

# 1c. the direct-solve recipe of docs/guide.md (SbpProblemCreateAssembledOperator, KSPPREONLY, CHOLMOD) on a problem with a known
# exact solution: its error must fall by 4 (order 2) from 16^2 to 32^2
awk '/^## A direct solve of your own problem/{f=1} f&&/^```c/{c=1;next} f&&c&&/^```/{exit} c' "$src/docs/guide.md" >"$top/direct.c"
PKG_CONFIG_PATH=$prefix/lib/pkgconfig cc "$top/direct.c" $(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs sbpmg) -o "$top/direct"
finds_sbpmg_alone "$top/direct" "$prefix"
for n in 16 32; do
  (cd "$top" && env -u LD_LIBRARY_PATH ./direct -sbp_n $n >>"$top/direct.log" 2>&1) || { cat "$top/direct.log"; echo "install test: the direct-solve recipe of docs/guide.md failed"; exit 1; }
done
awk '/^direct solve/ {e[n++] = $NF} END {r = e[0] / e[1]; printf "install test: the direct-solve recipe of docs/guide.md: errors %s, %s, ratio %.2f\n", e[0], e[1], r; exit !(n == 2 && r > 3.6 && r < 4.4)}' "$top/direct.log" ||
  { cat "$top/direct.log"; echo "install test: the direct-solve recipe's error does not fall as h^2"; exit 1; }

# 2. the installed examples: a copy of share/sbpmg/examples built with its Makefile (pkg-config) and its CMakeLists.txt
cp -r "$prefix/share/sbpmg/examples" "$top/examples"
make -s -C "$top/examples" PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
finds_sbpmg_alone "$top/examples/sbp_solve" "$prefix"
cmake -S "$prefix/share/sbpmg/examples" -B "$top/examples-cmake" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$top/examples-cmake" >/dev/null
n=0
for c in "$prefix"/share/sbpmg/examples/*.c; do
  name=$(basename "$c" .c)
  args=$(example_args "$name") || { echo "install test: no small-size arguments for example $name in tests/install-test.sh"; exit 1; }
  for exe in "$top/examples/$name" "$top/examples-cmake/$name"; do
    # shellcheck disable=SC2086
    (cd "$top" && env -u LD_LIBRARY_PATH "$exe" $args >"$top/$name.log" 2>&1) ||
      { cat "$top/$name.log"; echo "install test: installed example $exe failed"; exit 1; }
  done
  n=$((n + 1))
done
echo "install test: $n installed examples built with make (pkg-config) and with CMake, and ran"

# 3. the prefix moved: pkg-config and the CMake package still find everything
mv "$prefix" "$top/moved"
external "$top/moved"
echo "install test: pkg-config and CMake builds ran (also from a moved prefix)"
