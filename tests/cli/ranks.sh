#!/usr/bin/env bash
# ranks.sh: `mpirun -np N gatepower power` shares the cycles out among N
# ranks: with 1, 2 and 4 ranks (cpu engine; given and measured periods, a
# --window, --memory windows inside the ranks) every number of every CSV
# equals the one-process run's within 1e-9 relative.  A hand-made dump puts
# two pulses at the edge between two ranks' cycles: one pair just inside
# the second rank's first cycle is booked as glitch there, one split by the
# edge is not, as the one-process run books them.  With --deterministic the
# files are one process's bit for bit.  resim --power with 2 and
# 4 ranks equals one process's.  Skipped without mpirun or a build without
# MPI.
set -u
gp=$1
source "$(dirname "$0")/lib/flop.sh"
flop_setup ranks
command -v mpirun >/dev/null || { echo "SKIPPED ranks: no mpirun (install openmpi-bin)"; exit 77; }
"$gp" --version | grep -q "^MPI: yes" || { echo "SKIPPED ranks: this build has no MPI"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# Under the sanitizers, LeakSanitizer reports Open MPI's own allocations
# that outlive MPI_Finalize, from plugins it has unloaded (no suppression
# can name them): leaks are not looked for in the ranks.
mpi() { ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 mpirun --oversubscribe -np "$1" "${@:2}"; }
flop_dump 11 3001 > "$tmp/act.vcd"
fail=0
args=(--lib "$lib" --netlist "$tmp/top.v" --scope top)
for run in "--period 10ns" "--clock clk" "--period 10ns --window 1234ns:20us" \
           "--period 10ns --memory 16K"; do
  "$gp" --quiet power "${args[@]}" --activity "$tmp/act.vcd" ${run/--memory 16K/} \
    --out "$tmp/whole" > /dev/null || fail=1
  for np in 1 2 4; do
    rm -rf "$tmp/ranks"
    mpi $np "$gp" --quiet power "${args[@]}" --activity "$tmp/act.vcd" $run --threads 1 \
      --timing --out "$tmp/ranks" > "$tmp/out" 2> "$tmp/err" ||
      { echo "FAIL: $run -np $np: $(cat "$tmp/err")"; fail=1; continue; }
    same_csvs "$tmp/whole" "$tmp/ranks" ||
      { echo "FAIL: $run -np $np: the ranks' results differ"; fail=1; }
    grep -q "Total" "$tmp/out" || { echo "FAIL: $run -np $np: no report"; fail=1; }
    # Rank 0 reads only its share's span of the dump, unless the span's
    # store would not fit --memory: then it reads the dump from its start.
    spans=$(grep -c "the share's .* MB of the dump" "$tmp/out" "$tmp/err" | awk -F: '{ s += $2 } END { print s }')
    want=$([ $np -gt 1 ] && [ "${run#*--memory}" = "$run" ] && echo 1 || echo 0)
    [ "$spans" = "$want" ] || { echo "FAIL: $run -np $np: span read $spans times, not $want"; fail=1; }
  done
done
# With --deterministic (exact sums) the ranks' files are one process's bit
# for bit.
"$gp" --quiet power "${args[@]}" --activity "$tmp/act.vcd" --period 10ns --deterministic \
  --out "$tmp/whole" > /dev/null || fail=1
for np in 2 4; do
  rm -rf "$tmp/ranks"
  mpi $np "$gp" --quiet power "${args[@]}" --activity "$tmp/act.vcd" --period 10ns \
    --deterministic --threads 1 --out "$tmp/ranks" > /dev/null 2> "$tmp/err" ||
    { echo "FAIL: --deterministic -np $np: $(cat "$tmp/err")"; fail=1; }
  for f in waveform.csv instances.csv cells.csv report.json; do
    cmp -s "$tmp/whole/$f" "$tmp/ranks/$f" ||
      { echo "FAIL: --deterministic -np $np: $f differs"; fail=1; }
  done
done
# A reading on threads that falls back to file order after windows were
# analysed (a $dumpoff late in a dump of two parts of 1 MiB at least,
# --memory 16K) starts the windows again: each rank's share must stay its
# own.
flop_dump 7 25000 | awk '/^#249000000$/ { print; print "$dumpoff"; print "x!"; print "$end";
  print "#249000500"; print "$dumpon"; print "0!"; print "$end"; next } { print }' \
  > "$tmp/off.vcd"
"$gp" --quiet power "${args[@]}" --activity "$tmp/off.vcd" --period 10ns --out "$tmp/whole" \
  > /dev/null || fail=1
# Without --memory, the last rank's span meets the $dumpoff and is read
# from the dump's start in file order instead; the ranks before it read
# their spans.
for memory in "--memory 16K" ""; do
  for np in 2 3; do
    rm -rf "$tmp/ranks"
    mpi $np "$gp" --quiet power "${args[@]}" --activity "$tmp/off.vcd" --period 10ns \
      --threads 2 $memory --out "$tmp/ranks" > /dev/null 2> "$tmp/err" ||
      { echo "FAIL: dumpoff $memory -np $np: $(cat "$tmp/err")"; fail=1; }
    same_csvs "$tmp/whole" "$tmp/ranks" ||
      { echo "FAIL: dumpoff $memory -np $np: the ranks' results differ"; fail=1; }
  done
done
# The edge between two ranks' 2 cycles each (-np 2, 4 cycles of 10 ns from
# 0): a pulse on a at 19.998-20.004 ns straddles it (a rise in cycle 1, a
# fall in cycle 2: no glitch), a pulse at 20.010-20.020 ns lies in cycle 2
# (its two events are glitch events of a, n and m: cycle 2's glitch > 0).
{
  flop_header
  printf '#5000\n1!\n#10000\n0!\n#15000\n1!\n#19998\n1"\n0$\n1%%\n#20000\n0!\n'
  printf '#20004\n0"\n1$\n0%%\n#20010\n1"\n0$\n1%%\n#20020\n0"\n1$\n0%%\n'
  printf '#25000\n1!\n#30000\n0!\n#35000\n1!\n#40000\n0!\n'
} > "$tmp/edge.vcd"
"$gp" --quiet power "${args[@]}" --activity "$tmp/edge.vcd" --period 10ns --out "$tmp/whole" \
  > /dev/null || fail=1
mpi 2 "$gp" --quiet power "${args[@]}" --activity "$tmp/edge.vcd" --period 10ns --threads 1 \
  --out "$tmp/ranks" > /dev/null 2> "$tmp/err" || { echo "FAIL: edge: $(cat "$tmp/err")"; fail=1; }
same_csvs "$tmp/whole" "$tmp/ranks" || { echo "FAIL: edge: the ranks' results differ"; fail=1; }
glitch=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^glitch/) g[i] = 1; next }
  { s = 0; for (i in g) s += $i; printf "%s%s", (NR > 2 ? " " : ""), (s > 0 ? "g" : "-") }' \
  "$tmp/ranks/waveform.csv")
[ "$glitch" = "- - g -" ] ||
  { echo "FAIL: edge: glitch by cycle '$glitch', not '- - g -' (only cycle 2's pair)"; fail=1; }
# Two activities: the ranks share each one's cycles in turn.
"$gp" --quiet power "${args[@]}" --activity "$tmp/act.vcd" --activity "$tmp/edge.vcd" \
  --period 10ns --out "$tmp/whole" > /dev/null || fail=1
rm -rf "$tmp/ranks"
mpi 3 "$gp" --quiet power "${args[@]}" --activity "$tmp/act.vcd" --activity "$tmp/edge.vcd" \
  --period 10ns --threads 1 --out "$tmp/ranks" > /dev/null 2> "$tmp/err" ||
  { echo "FAIL: two activities -np 3: $(cat "$tmp/err")"; fail=1; }
for sub in . activity-1 activity-2; do
  same_csvs "$tmp/whole/$sub" "$tmp/ranks/$sub" ||
    { echo "FAIL: two activities -np 3: $sub differs"; fail=1; }
done
# resim --power: each rank re-simulates its share of the cycles from a
# warm-up before it (the NLDM delays of the cells); the power equals one
# process's.
for run in "--period 10ns" "--clock clk" "--period 10ns --window 1234ns:20us" \
           "--period 10ns --memory 64K"; do
  "$gp" --quiet resim "${args[@]}" --activity "$tmp/act.vcd" --power ${run/--memory 64K/} \
    --out "$tmp/whole" > /dev/null 2>&1 || fail=1
  for np in 2 4; do
    rm -rf "$tmp/ranks"
    mpi $np "$gp" resim "${args[@]}" --activity "$tmp/act.vcd" --power $run --threads 1 \
      --out "$tmp/ranks" > "$tmp/out" 2> "$tmp/err" ||
      { echo "FAIL: resim $run -np $np: $(cat "$tmp/err")"; fail=1; continue; }
    same_csvs "$tmp/whole" "$tmp/ranks" ||
      { echo "FAIL: resim $run -np $np: the ranks' results differ"; fail=1; }
    grep -q "^resim (rank 0's share of the cycles, of $np ranks" "$tmp/err" ||
      { echo "FAIL: resim $run -np $np: no statistics from rank 0"; fail=1; }
  done
done
# resim's files of every net are one process's; info refuses ranks.
mpi 2 "$gp" --quiet resim "${args[@]}" --activity "$tmp/act.vcd" --saif "$tmp/r.saif" \
  > /dev/null 2> "$tmp/err" && { echo "FAIL: resim --saif ran as 2 ranks"; fail=1; }
grep -q "error 1049" "$tmp/err" || { echo "FAIL: resim --saif -np 2: $(cat "$tmp/err")"; fail=1; }
mpi 2 "$gp" --quiet info "${args[@]}" > /dev/null 2> "$tmp/err" &&
  { echo "FAIL: info ran as 2 ranks"; fail=1; }
grep -q "error 1041" "$tmp/err" || { echo "FAIL: info -np 2: $(cat "$tmp/err")"; fail=1; }
# --devices cuts one process's work among GPUs: the ranks refuse it.
mpi 2 "$gp" --quiet power "${args[@]}" --activity "$tmp/act.vcd" --period 10ns --engine cuda \
  --devices 0 > /dev/null 2> "$tmp/err" && { echo "FAIL: --devices ran as 2 ranks"; fail=1; }
grep -q "error 1044: --devices: .*under mpirun" "$tmp/err" ||
  { echo "FAIL: --devices -np 2: $(cat "$tmp/err")"; fail=1; }
[ $fail = 0 ] && echo "ok: 1, 2 and 4 ranks give the one-process results (power, resim --power)"
exit $fail
