#!/usr/bin/env bash
# check-views.sh CASE BUILD: the text the programs write where a PETSc user looks (issue 23), checked line by line.
#   logview   -log_view: the GB/s table follows PETSc's in the viewer's place (:file appended, stdout), not in the other
#             formats (::ascii_flamegraph), and no phantom "Event Stage 1: Unknown"
#   kspview   -ksp_view of a 3-level PCSBPMG: PCMG's numbering (0 = coarsest), each level's grid and sweeps as PCMG's
#             levels have them, PETSc's indentation, and -help's values the ones -ksp_view shows in force
#   operator  -ksp_view has no placeholder ("type not yet set") and no broken or trailing indentation anywhere
#   plot      verification/convergence: the plot's script has both panels, labels, the legend's slopes (those of the CSV),
#             and the PNG is drawn
# Prints "views test CASE: ok" when every check passes (tests/views.cmake's PASS_REGULAR_EXPRESSION).
set -euo pipefail
case=$1
build=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "views test $case: FAILED: $*"
  exit 1
}
has() { grep -qF -- "$2" "$1" || fail "$1 has no line with '$2'"; }
hasline() { grep -qxF -- "$2" "$1" || fail "$1 has no line '$2'"; }
hasnot() { ! grep -qF -- "$2" "$1" || fail "$1 has '$2': $(grep -nF -- "$2" "$1" | head -3)"; }
solve=$build/examples/sbp_solve

logview() {
  "$solve" -sbp_n 16 -log_view ":$work/lv.txt" >"$work/out.txt" 2>&1
  has "$work/lv.txt" "PETSc Performance Summary:"
  has "$work/lv.txt" "sbpmg kernel families"
  has "$work/lv.txt" "--- Event Stage 2: Device"
  has "$work/lv.txt" "--- Event Stage 3: Setup"
  hasnot "$work/lv.txt" "Event Stage 1: Unknown"
  [ "$(grep -n "Performance Summary" "$work/lv.txt" | cut -d: -f1)" -lt "$(grep -n "sbpmg kernel families" "$work/lv.txt" | cut -d: -f1)" ] ||
    fail "the GB/s table comes before PETSc's in the file"
  grep -qE "^  SbpApply +[0-9]+ " "$work/lv.txt" || fail "the GB/s table in the file has no SbpApply row"
  hasnot "$work/out.txt" "Performance Summary"
  hasnot "$work/out.txt" "sbpmg kernel families"
  # stdout (the default viewer): both tables there, in order
  "$solve" -sbp_n 16 -log_view >"$work/std.txt" 2>&1
  has "$work/std.txt" "sbpmg kernel families"
  hasnot "$work/std.txt" "Event Stage 1: Unknown"
  # formats with no place for the table
  "$solve" -sbp_n 16 -log_view ::ascii_flamegraph >"$work/flame.txt" 2>&1
  grep -qE "^[A-Za-z][A-Za-z0-9_]*(;[A-Za-z][A-Za-z0-9_]*)* [0-9]+$" "$work/flame.txt" || fail "no flame graph lines in $work/flame.txt"
  hasnot "$work/flame.txt" "sbpmg kernel families"
  "$solve" -sbp_n 16 -log_view ":$work/xml.txt:ascii_xml" >/dev/null 2>&1
  has "$work/xml.txt" "<petscroot>"
  hasnot "$work/xml.txt" "sbpmg kernel families"
}

kspview() {
  "$solve" -sbp_n 32 -pc_sbpmg_levels 3 -ksp_view -help >"$work/kv.txt" 2>&1
  hasline "$work/kv.txt" "    SBPMG: geometric multigrid on the SBP-SAT operator, re-discretised on 3 levels (numbered as PCMG's: 0 = coarsest)"
  hasline "$work/kv.txt" "      level 0 (coarsest): 8 x 8 intervals, SBP order 2, CHOLMOD on the assembled operator"
  hasline "$work/kv.txt" "      level 1: 16 x 16 intervals, SBP order 2, 6 pre- and 6 post-sweeps"
  hasline "$work/kv.txt" "      level 2 (finest): 32 x 32 intervals, SBP order 2, 3 pre- and 3 post-sweeps"
  hasnot "$work/kv.txt" "level 0: 32 x 32"
  # PCMG's own levels: the same grids (the operators' rows) and sweeps (the smoothers' iteration limits)
  for lv in "1 289 6" "2 1089 3"; do
    read -r l rows its <<<"$lv"
    awk -v l="$l" '$0 ~ "^  Down solver \\(pre-smoother\\) on level " l " " {on = 1} on && /^  Up solver/ {exit} on {print}' "$work/kv.txt" >"$work/level$l.txt"
    has "$work/level$l.txt" "      maximum iterations=$its, nonzero initial guess"
    has "$work/level$l.txt" "        rows=$rows, cols=$rows"
  done
  # PETSc's indentation: PCMG's summary and sbpmg's lines below "type: sbpmg", the smoother's below its type line
  grep -A1 -xF "  type: sbpmg" "$work/kv.txt" | grep -qxF "    type is MULTIPLICATIVE, levels=3 cycles=v" || fail "PCMG's summary is not below 'type: sbpmg'"
  grep -A1 -xF "      type: sbpmgsmoother" "$work/kv.txt" | grep -qE "^        sbpmg Chebyshev smoother on D\^-1 A: interval \[" ||
    fail "the smoother's line is not indented below its type line"
  # -help's defaults are the values -ksp_view shows in force
  size=$(sed -nE 's/^      coarse-size limit ([0-9]+) points per side.*/\1/p' "$work/kv.txt")
  prec=$(sed -nE 's/.*read the coefficients in (fp32|fp64) \(-pc_sbpmg_coef_fp32\)$/\1/p' "$work/kv.txt")
  { [ -n "$size" ] && [ -n "$prec" ]; } || fail "-ksp_view shows no coarse-size limit or coefficient precision"
  has "$work/kv.txt" "  -pc_sbpmg_coarse_size <now $size : formerly $size>: "
  if [ "$prec" = fp32 ]; then b=TRUE; else b=FALSE; fi
  has "$work/kv.txt" "  -pc_sbpmg_coef_fp32: <$b : $b> "
  has "$work/kv.txt" "  -pc_sbpmg_levels <now 3 : formerly 0>: "
  has "$work/kv.txt" "  -sbp_n <32>: "
}

operator() {
  "$solve" -sbp_n 32 -pc_sbpmg_levels 3 -ksp_view >"$work/kv.txt" 2>&1
  hasnot "$work/kv.txt" "not yet set"
  if grep -qE " +$" "$work/kv.txt"; then fail "lines with trailing blanks: $(grep -nE ' +$' "$work/kv.txt" | head -3)"; fi
  # no line dips out of its block: indented less than both its neighbours (a line printed with an embedded newline)
  awk '{ind[NR] = match($0, /[^ ]/); text[NR] = $0} END {for (i = 2; i < NR; i++) if (ind[i] + 2 < ind[i - 1] && ind[i] + 2 < ind[i + 1]) {print i": "text[i]; bad = 1}; exit bad}' \
    "$work/kv.txt" >"$work/bad.txt" || fail "lines out of their block's indentation: $(head -3 "$work/bad.txt")"
}

plot() {
  (cd "$work" && "$build/verification/convergence" -conv_n 16,32,64 -conv_solvers direct,mgcg -conv_output study >study.log 2>&1) ||
    fail "convergence failed: $(tail -5 "$work/study.log")"
  gp=$work/study.gp
  has "$gp" "set multiplot layout 2,1"
  [ "$(grep -c "^plot " "$gp")" -eq 2 ] || fail "$gp has not two plots (panels)"
  has "$gp" "set xlabel 'Nr (grid intervals in r)'"
  has "$gp" "set ylabel 'error'"
  has "$gp" "set ylabel 'iterations'"
  has "$gp" "direct: slope %.2f (||e||_H)"
  has "$gp" "mgcg: iterations ~ Nr^%.2f (least squares)"
  # the legend's error slope is the observed order of the last two grids (the CSV's order_H), its iteration slope a least-squares fit
  sed 's/^set terminal .*/set terminal unknown/; s/^set output .*//' "$gp" >"$work/check.gp"
  echo "print sprintf('%.4f %.4f', -eH_mgcg, its_direct)" >>"$work/check.gp"
  got=$(cd "$work" && gnuplot check.gp 2>&1 | tail -1)
  want="$(awk -F, '$1 == "mgcg" {o = $6} END {printf "%.4f", o}' "$work/study.csv") 0.0000"
  [ "$got" = "$want" ] || fail "the legend's slopes are '$got', the CSV's '$want'"
  png=$work/study.png
  [ -s "$png" ] || fail "no $png"
  [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$png is not a PNG"
  dims=$(od -An -tu1 -j16 -N8 "$png" | awk '{printf "%dx%d", $3 * 256 + $4, $7 * 256 + $8}')
  [ "$dims" = 720x800 ] || fail "$png is $dims, not 720x800"
  { [ "$(stat -c %s "$png")" -gt 20000 ] && [ "$(stat -c %s "$png")" -lt 150000 ]; } || fail "$png has $(stat -c %s "$png") bytes"
}

"$case"
echo "views test $case: ok"
