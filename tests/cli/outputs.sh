#!/usr/bin/env bash
# outputs.sh: nothing lost, nothing half-written.  Two identical runs write
# byte-identical files (waveform.fst included: its date is fixed); a report
# or JSON that cannot be written to stdout (a full disk: /dev/full) fails
# the run with error 1030; a run whose --out files cannot all be written
# fails with 8501 and leaves the previous run's files whole, with no
# temporary file behind.
set -u
gp=$1
source "$(dirname "$0")/lib/inverters.sh"
inverters_setup outputs 200
fail=0
args=(--lib "$lib" --netlist "$tmp/top.v" --activity "$tmp/act.vcd" --scope top)
"$gp" --quiet power "${args[@]}" --period 10ns --out "$tmp/a" > /dev/null || fail=1
sleep 1 # a date taken from the clock would differ
"$gp" --quiet power "${args[@]}" --period 10ns --out "$tmp/b" > /dev/null || fail=1
for f in "$tmp"/a/*; do
  cmp -s "$f" "$tmp/b/${f##*/}" || { echo "FAIL: ${f##*/} differs between two runs"; fail=1; }
done
[ "$(ls "$tmp/a" | wc -l)" -ge 8 ] || { echo "FAIL: files missing: $(ls "$tmp/a")"; fail=1; }
for out in "" "--json -"; do
  "$gp" --quiet power "${args[@]}" --period 10ns $out > /dev/full 2> "$tmp/err"
  status=$?
  [ $status = 1 ] && grep -q 'error 1030: cannot write to standard output' "$tmp/err" ||
    { echo "FAIL: '$out' to /dev/full: status $status: $(cat "$tmp/err")"; fail=1; }
done
cp -r "$tmp/a" "$tmp/before"
mkdir "$tmp/a/.gatepower-tmp.waveform.svg" # the SVG cannot be written
"$gp" --quiet power "${args[@]}" --period 20ns --out "$tmp/a" > /dev/null 2> "$tmp/err"
status=$?
[ $status = 1 ] && grep -q 'error 8501: cannot write' "$tmp/err" ||
  { echo "FAIL: a file that cannot be written: status $status: $(cat "$tmp/err")"; fail=1; }
for f in "$tmp"/before/*; do
  cmp -s "$f" "$tmp/a/${f##*/}" || { echo "FAIL: ${f##*/} changed by the failed run"; fail=1; }
done
left=$(cd "$tmp/a" && ls -A | grep '^\.gatepower-tmp\.' | grep -v '^\.gatepower-tmp\.waveform\.svg$')
[ -z "$left" ] || { echo "FAIL: temporary files left: $left"; fail=1; }
[ $fail = 0 ] && echo "ok: identical runs, checked stdout, a failed run keeps the files before"
exit $fail
