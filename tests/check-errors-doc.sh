#!/usr/bin/env bash
# docs/errors.md lists the bad inputs. Each table row names the test file that checks it and, in backquotes in the
# message column, the text that test asserts. This fails when the table has fewer than 30 rows, or when a row's text no
# longer appears in its test file (so the table cannot drift from the tests).
set -euo pipefail
src=$1
doc=$src/docs/errors.md
rows=0 bad=0
while IFS= read -r line; do
  case "$line" in "| "[0-9]*) ;; *) continue ;; esac
  rows=$((rows + 1))
  test=$(sed -E 's/.*\| *`?(tests\/[A-Za-z0-9_./]+)`? *\|? *$/\1/' <<<"$line")
  msg=$(awk -F'|' '{print $6}' <<<"$line" | sed -E 's/^[^`]*`//; s/`[^`]*$//')
  if [ ! -f "$src/$test" ]; then
    echo "row $rows: test file '$test' not found"; bad=$((bad + 1)); continue
  fi
  if ! grep -qF -- "$msg" "$src/$test"; then
    echo "row $rows: '$msg' does not appear in $test"; bad=$((bad + 1))
  fi
done <"$doc"
echo "docs/errors.md: $rows rows, $bad not found in their tests"
[ "$rows" -ge 30 ] && [ "$bad" -eq 0 ]
