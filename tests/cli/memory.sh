#!/usr/bin/env bash
# memory.sh: `power --memory SIZE` reads and analyses the activity in
# windows of whole cycles: with a bound that cuts the dump into many of
# them (in file order; on threads, where the dump's two parts are two
# windows; given and measured periods, a --window), every number of every CSV equals the one-window run's within
# 1e-9 relative, and with --deterministic bit for bit; --timing says how
# many windows there were; a bad size is refused with what to give.  The
# same for resim --power --memory (windows of re-simulated cycles).
set -u
gp=$1
source "$(dirname "$0")/lib/flop.sh"
flop_setup memory
flop_dump 7 25000 > "$tmp/act.vcd"
fail=0
args=(--lib "$lib" --netlist "$tmp/top.v" --activity "$tmp/act.vcd" --scope top)
for clock in "--period 10ns" "--clock clk" "--period 10ns --window 1234ns:200us"; do
  "$gp" --quiet power "${args[@]}" $clock --out "$tmp/whole" > /dev/null || fail=1
  for threads in 1 3; do
    "$gp" --quiet power "${args[@]}" $clock --memory 16K --threads $threads --timing \
      --out "$tmp/windows" > /dev/null 2> "$tmp/err" || fail=1
    windows=$(sed -n 's/.*activity in \([0-9]*\) windows.*/\1/p' "$tmp/err")
    least=$([ $threads = 1 ] && echo 100 || echo 1) # on threads, parts of 1 MiB at least
    [ "${windows:-0}" -gt $least ] ||
      { echo "FAIL: $clock --threads $threads: ${windows:-no} windows: $(cat "$tmp/err")"; fail=1; }
    same_csvs "$tmp/whole" "$tmp/windows" ||
      { echo "FAIL: $clock --threads $threads: the windows' results differ"; fail=1; }
  done
done
# With --deterministic (exact sums) the windows' files are the one-window
# run's bit for bit, with the cpu and the ref engine.
for engine in cpu ref; do
  "$gp" --quiet power "${args[@]}" --period 10ns --engine $engine --deterministic \
    --out "$tmp/whole" > /dev/null || fail=1
  "$gp" --quiet power "${args[@]}" --period 10ns --engine $engine --deterministic --memory 16K \
    --threads 1 --out "$tmp/windows" > /dev/null || fail=1
  for f in waveform.csv instances.csv cells.csv report.json; do
    cmp -s "$tmp/whole/$f" "$tmp/windows/$f" ||
      { echo "FAIL: --deterministic --engine $engine: $f differs in windows"; fail=1; }
  done
  "$gp" --quiet power "${args[@]}" --period 10ns --engine $engine --out "$tmp/plain" \
    > /dev/null || fail=1
  same_csvs "$tmp/plain" "$tmp/windows" ||
    { echo "FAIL: --deterministic --engine $engine: not the float64 sums' results"; fail=1; }
done
# resim --power --memory re-simulates and analyses the cycles in windows,
# each from a warm-up before it: one window's results, and with
# --deterministic its files bit for bit; --saif needs every cycle at once.
resim=(--quiet resim "${args[@]}" --power)
for clock in "--period 10ns" "--clock clk --window 1234ns:200us"; do
  "$gp" "${resim[@]}" $clock --out "$tmp/whole" > /dev/null 2>&1 || fail=1
  "$gp" "${resim[@]}" $clock --memory 256K --timing --out "$tmp/windows" > /dev/null 2> "$tmp/err" ||
    { echo "FAIL: resim $clock --memory: $(cat "$tmp/err")"; fail=1; }
  windows=$(sed -n 's/.*activity in \([0-9]*\) windows.*/\1/p' "$tmp/err")
  [ "${windows:-0}" -gt 10 ] || { echo "FAIL: resim $clock: ${windows:-no} windows"; fail=1; }
  same_csvs "$tmp/whole" "$tmp/windows" ||
    { echo "FAIL: resim $clock --memory: the windows' results differ"; fail=1; }
done
"$gp" "${resim[@]}" --period 10ns --deterministic --out "$tmp/whole" > /dev/null 2>&1 || fail=1
"$gp" "${resim[@]}" --period 10ns --deterministic --memory 256K --out "$tmp/windows" \
  > /dev/null 2>&1 || fail=1
for f in waveform.csv instances.csv cells.csv report.json; do
  cmp -s "$tmp/whole/$f" "$tmp/windows/$f" ||
    { echo "FAIL: resim --deterministic --memory: $f differs"; fail=1; }
done
"$gp" --quiet resim "${args[@]}" --memory 1M --saif "$tmp/r.saif" > /dev/null 2> "$tmp/err" &&
  { echo "FAIL: resim --memory --saif ran"; fail=1; }
grep -q "error 1051" "$tmp/err" || { echo "FAIL: resim --memory --saif: $(cat "$tmp/err")"; fail=1; }
for bad in 0 12Q -5 1.5G; do
  "$gp" --quiet power "${args[@]}" --period 10ns --memory "$bad" > /dev/null 2> "$tmp/err"
  status=$?
  [ $status = 2 ] && grep -q "error 1029: bad value '$bad' for --memory" "$tmp/err" ||
    { echo "FAIL: --memory $bad: status $status: $(cat "$tmp/err")"; fail=1; }
done
[ $fail = 0 ] && echo "ok: --memory windows give the one-window results"
exit $fail
