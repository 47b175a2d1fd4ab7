#!/usr/bin/env bash
# check-host-memory.sh BUILD N LIMIT: sbp_solve at N x N on the device path with PETSc's allocations traced; fails unless the
# PetscMalloc maximum per fine grid point is at most LIMIT bytes (issue 19's bound: the host keeps no grid-sized arrays the device
# path does not need). A count, not a time.
set -euo pipefail
build=$1 n=$2 limit=$3
out=$("$build/examples/sbp_solve" -sbp_n "$n" -sbp_backend device -malloc_view -malloc_view_threshold 1000000000 2>&1)
echo "$out" | grep -E "set-up|PetscMalloc"
per=$(echo "$out" | sed -n 's/.*PetscMalloc [0-9.]* MB (\([0-9.]*\) bytes per grid point).*/\1/p')
[ -n "$per" ] || { echo "check-host-memory: no PetscMalloc figure in sbp_solve's output"; exit 1; }
awk -v p="$per" -v l="$limit" 'BEGIN { if (p + 0 > l + 0) { printf "host memory %s bytes per grid point > %s\n", p, l; exit 1 } printf "host memory %s bytes per grid point <= %s\n", p, l }'
