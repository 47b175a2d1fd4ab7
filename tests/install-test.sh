#!/usr/bin/env bash
# Install sbpmg into a temporary prefix, then build and run a small external program against it twice: with pkg-config
# (sbpmg.pc) and with CMake (find_package(sbpmg), target sbpmg::sbpmg).
set -euo pipefail
build=$1
src=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
test -f "$prefix/include/sbpmg.h" && test -f "$prefix/lib/pkgconfig/sbpmg.pc" && test -f "$prefix/lib/cmake/sbpmg/sbpmgConfig.cmake"
test -f "$prefix/share/sbpmg/kernels/sbp.cl"
export LD_LIBRARY_PATH=$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# 1. pkg-config
PKG_CONFIG_PATH=$prefix/lib/pkgconfig cc "$src/tests/external/main.c" $(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs sbpmg) -o "$prefix/external_pkgconfig"
"$prefix/external_pkgconfig"
# 2. CMake package
cmake -S "$src/tests/external" -B "$prefix/ext-build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/ext-build" >/dev/null
"$prefix/ext-build/external_cmake"
# the installed kernels directory works as -cl_kernel_dir
"$prefix/external_pkgconfig" -cl_kernel_dir "$prefix/share/sbpmg/kernels"
echo "install test: pkg-config and CMake builds ran"
