#!/usr/bin/env bash
# docs/errors.md lists the bad inputs. Each table row names the test file that checks it and, in backquotes in the
# message column, the text that test asserts. This fails when the table has fewer than 30 rows, or when a row's text no
# longer appears in its test file (so the table cannot drift from the tests).
set -euo pipefail
src=$1
doc=$src/docs/errors.md
rows=0 bad=0
# one awk pass over the table: each row's test file (the last column) and asserted text (the fifth column, between its first
# and last backquotes), tab-separated
while IFS=$'\t' read -r test msg; do
  rows=$((rows + 1))
  if [ ! -f "$src/$test" ]; then
    echo "row $rows: test file '$test' not found"; bad=$((bad + 1)); continue
  fi
  if ! grep -qF -- "$msg" "$src/$test"; then
    echo "row $rows: '$msg' does not appear in $test"; bad=$((bad + 1))
  fi
done < <(awk '/^\| [0-9]/ {
  t = $0
  if (match($0, /\| *`?tests\/[A-Za-z0-9_.\/]+`? *\|? *$/)) { t = substr($0, RSTART, RLENGTH); sub(/^\| *`?/, "", t); sub(/`? *\|? *$/, "", t) }
  split($0, f, "|"); m = f[6]; sub(/^[^`]*`/, "", m); sub(/`[^`]*$/, "", m)
  print t "\t" m
}' "$doc")
echo "docs/errors.md: $rows rows, $bad not found in their tests"
[ "$rows" -ge 30 ] && [ "$bad" -eq 0 ]
