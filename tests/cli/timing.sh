#!/usr/bin/env bash
# timing.sh: --timing prints the wall seconds of every phase that ran, in the
# order they ran, on stderr, and report.json carries them as "timing"; the
# numbers of the report do not change with it, nor with the threads that
# read the activity (--threads 1 against 3).  Without --top the report is
# named after the top module the netlist gives.
set -u
gp=$1
source "$(dirname "$0")/lib/inverters.sh"
inverters_setup timing 20000
fail=0
args=(--lib "$lib" --netlist "$tmp/top.v" --activity "$tmp/act.vcd" --scope top --period 10ns)
"$gp" --quiet power "${args[@]}" --json "$tmp/plain.json" > /dev/null 2> "$tmp/plain.err" || fail=1
"$gp" --quiet power "${args[@]}" --timing --threads 3 --json "$tmp/timed.json" > /dev/null \
  2> "$tmp/timed.err" || fail=1
line=$(grep '^timing:' "$tmp/timed.err")
for phase in libraries netlist design activity engine writing total; do
  case "$line" in *"$phase "[0-9]*) ;; *) echo "FAIL: '$phase' missing from: $line"; fail=1 ;; esac
done
grep -q '^timing:' "$tmp/plain.err" && { echo "FAIL: timing printed without --timing"; fail=1; }
grep -q '"timing"' "$tmp/timed.json" || { echo "FAIL: report.json has no timing object"; fail=1; }
grep -q '"timing"' "$tmp/plain.json" && { echo "FAIL: timing in report.json without --timing"; fail=1; }
grep -q '"design": "top"' "$tmp/plain.json" || { echo "FAIL: report.json is not named 'top'"; fail=1; }
strip() { tr -d ' \n' < "$1" | sed 's/"timing":{[^}]*},//'; }
[ "$(strip "$tmp/plain.json")" = "$(strip "$tmp/timed.json")" ] ||
  { echo "FAIL: the report differs with --timing --threads 3"; fail=1; }
"$gp" --quiet info --lib "$lib" --netlist "$tmp/top.v" --timing > /dev/null 2> "$tmp/info.err" || fail=1
grep -q '^timing: libraries .*netlist .*design .*report ' "$tmp/info.err" ||
  { echo "FAIL: info --timing: $(cat "$tmp/info.err")"; fail=1; }
[ $fail = 0 ] && echo "ok: --timing phases on stderr and in report.json"
exit $fail
