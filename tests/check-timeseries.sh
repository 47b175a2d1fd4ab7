#!/usr/bin/env bash
# check-timeseries.sh EXE MPIEXEC: run examples/sbp_timeseries small on 1 and 2 ranks with -ts_compare_cold and check what it
# prints: every warm-started step takes at most the cold solve's iterations and some take fewer, the PC was set up once, the
# final true residual ||b - A u||/||b|| is below rtol, and the two runs agree on ||u|| (the face's coordinates gathered
# across the ranks).
set -uo pipefail
exe=$1
mpiexec=$2
args=(-sbp_n 32 -ts_steps 6 -ts_t0 100 -ts_compare_cold)
fail() { echo "timeseries check: $*"; exit 1; }

check() { # $1: the output of a run; prints ||u||
  awk '
    $1 ~ /^[0-9]+$/ && NF == 8 { steps++; if ($3 > $6) bad = bad " step " $1 ": warm " $3 " > cold " $6; if ($3 < $6) fewer++ }
    /PC set-ups:/ { setups = $NF }
    /final residual/ { rel = $5; rtol = $7; sub(/\),?/, "", rtol); unorm = $NF }
    END {
      if (steps != 6) { print "expected 6 compared steps, found " steps; exit 1 }
      if (bad != "") { print "warm-started steps took more iterations than cold ones:" bad; exit 1 }
      if (!fewer) { print "no warm-started step took fewer iterations than the cold one"; exit 1 }
      if (setups != 1) { print "the PC was set up " setups " times"; exit 1 }
      if (rel == "" || rel + 0 > rtol + 0) { print "final residual " rel " above rtol " rtol; exit 1 }
      print unorm
    }' <<<"$1"
}

out1=$("$exe" "${args[@]}" 2>&1) || { echo "$out1"; fail "the 1-rank run failed"; }
echo "$out1"
u1=$(check "$out1") || fail "1 rank: $u1"
out2=$(POCL_MAX_PTHREAD_COUNT=1 "$mpiexec" -n 2 --oversubscribe "$exe" "${args[@]}" 2>&1) || { echo "$out2"; fail "the 2-rank run failed"; }
echo "$out2"
u2=$(check "$out2") || fail "2 ranks: $u2"
awk -v a="$u1" -v b="$u2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-7 * a) }' || fail "||u|| differs: $u1 on 1 rank, $u2 on 2 ranks"
echo "timeseries check: warm <= cold iterations, one PC set-up, residual below rtol, ||u|| = $u1 on 1 and 2 ranks"
