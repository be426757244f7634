#!/usr/bin/env bash
# timing.sh: --timing prints the wall seconds of every phase that ran, in the
# order they ran, on stderr, and report.json carries them as "timing"; the
# reading's own steps are marked within the activity, out of the total; the
# numbers of the report do not change with it, nor with the threads that
# read the activity (--threads 1 against 3).  Without --top the report is
# named after the top module the netlist gives.  On a machine with a CUDA
# device, `resim --power --engine cuda` adds the GPU's steps within the
# resim and the engine, out of the total too.
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
for step in "dump header" "event store"; do
  case "$line" in *"$step "[0-9.]*" s within the activity"*) ;;
    *) echo "FAIL: '$step' within the activity missing from: $line"; fail=1 ;; esac
done
# the total is the wall of the phases the run waited for: neither the steps
# within a phase nor what ran beside it
adds_up() { # TIMING_LINE
  awk -v line="$1" 'BEGIN {
    sub(/^timing: /, "", line); split(line, halves, "; total "); n = split(halves[1], p, ", ");
    for (k = 1; k <= n; k++) if (p[k] !~ / (beside|within) /) { split(p[k], w, " s"); m = split(w[1], f, " "); sum += f[m] }
    total = halves[2] + 0; d = sum - total; if (d < 0) d = -d
    if (n < 6 || d > 0.0005 * (n + 1)) { printf "FAIL: the phases add up to %.3f s, the total says %.3f s\n", sum, total; exit 1 } }'
}
adds_up "$line" || fail=1
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
if "$gp" --version | grep -Eq "^CUDA: built .*; [1-9][0-9]* devices?"; then
  "$gp" --quiet resim "${args[@]}" --power --engine cuda --timing > /dev/null 2> "$tmp/gpu.err" ||
    fail=1
  gpu=$(grep '^timing:' "$tmp/gpu.err")
  for step in "simulation:the resim" "kernels:the engine" "gate streams:the engine"; do
    case "$gpu" in *"${step%%:*} "[0-9.]*" s within ${step#*:}"*) ;;
      *) echo "FAIL: '${step%%:*}' within ${step#*:} missing from: $gpu"; fail=1 ;; esac
  done
  adds_up "$gpu" || fail=1
else
  echo "(the GPU's steps not checked: no CUDA device)"
fi
[ $fail = 0 ] && echo "ok: --timing phases on stderr and in report.json"
exit $fail
