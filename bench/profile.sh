#!/usr/bin/env bash
# bench/profile.sh: where a from-files run spends its time on every core,
# in one device call (perf record of `gatepower info` on the generated
# case).  Run from the repository root:
#
#   PERF=.devcarry/perf/perf bash bench/profile.sh
#
# 1. builds this tree (RelWithDebInfo, no CUDA) in $WORK/build;
# 2. writes the generated case (bench_files: GATES gates x CYCLES cycles)
#    unless $WORK/case holds one;
# 3. runs `gatepower info --timing` (or COMMAND) once to warm the page cache, then under
#    `perf record` (cycles, no call graphs) and `perf stat` (page faults,
#    context switches, CPU migrations);
# 4. prints the symbols above 0.5% of the samples, kernel ones included,
#    the counters, and a timeline of the threads busy and what they ran
#    (bench/busy.py: where the cores wait, and on what).
#
# The device machine has no perf: copy /usr/bin/perf and the libraries
# `ldd` names (libc's aside) into an ignored .devcarry/perf/ and
# .devcarry/perf/lib/ and carry it.  Knobs: GATES (1000000), CYCLES (500),
# WORK (/tmp/gp-profile), PERF (perf), COMMAND (info; or power, with
# --period 10ns and the cpu engine), ARGS (more options, e.g. --threads 1),
# ACTIVITY (full.vcd; full.fst with FST=1 or lz4 written; none: the design
# alone), HZ (samples a second of each thread, 2000), STEP (the timeline's
# step, 0.1 s).
set -uo pipefail
start=$SECONDS
work=${WORK:-/tmp/gp-profile}
out=${OUT:-$work/out}
perf=${PERF:-perf}
mkdir -p "$work" "$out"
say() { echo "[$((SECONDS - start)) s] $*"; }
perf_dir=$(dirname "$(realpath "$perf" 2>/dev/null || echo "$perf")")
export LD_LIBRARY_PATH="$perf_dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
say "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
say "perf: $("$perf" --version 2>&1); perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid)"
cmake -S . -B "$work/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGATEPOWER_CUDA=OFF \
  ${CMAKE_ARGS:-} >"$out/build.log" 2>&1 &&
  cmake --build "$work/build" -j"$(nproc)" --target gatepower bench_files >>"$out/build.log" 2>&1 ||
  { say "FAIL: build"; tail -20 "$out/build.log"; exit 1; }
case_dir=$work/case
if [ ! -f "$case_dir/full.vcd" ]; then
  mkdir -p "$case_dir"
  "$work/build/bench/bench_files" "$case_dir" --gates "${GATES:-1000000}" \
    --cycles "${CYCLES:-500}" --no-regs \
    ${FST:+--fst-pack "$([ "$FST" = 1 ] && echo zlib || echo "$FST")"} >"$out/case.log" 2>&1 ||
    { say "FAIL: bench_files"; exit 1; }
fi
command=${COMMAND:-info}
[ "$command" = power ] && more=(--period 10ns --engine cpu --json "$out/report.json") || more=()
[ "${ACTIVITY:-}" = none ] || more+=(--activity "$case_dir/${ACTIVITY:-full.vcd}" --scope top)
cmd=("$work/build/gatepower" --quiet "$command" --lib "$case_dir/cells.lib"
     --netlist "$case_dir/netlist.v" --timing "${more[@]}" ${ARGS:-})
"${cmd[@]}" >/dev/null 2>"$out/warm.err"; grep '^timing' "$out/warm.err"
"$perf" record -F "${HZ:-2000}" -o "$out/perf.data" -- "${cmd[@]}" >/dev/null \
  2>"$out/record.err"
grep '^timing' "$out/record.err" || tail -5 "$out/record.err"
"$perf" report -i "$out/perf.data" --no-children --sort sym --percent-limit 0.5 --stdio \
  2>/dev/null | grep -E '^ +[0-9]' | head -50
"$perf" stat -e page-faults,context-switches,cpu-migrations -- "${cmd[@]}" 2>&1 >/dev/null |
  grep -E '^timing|page-faults|context|migrations|elapsed'
"$perf" script -i "$out/perf.data" -F tid,time,ip,sym 2>/dev/null |
  python3 bench/busy.py "${HZ:-2000}" "${STEP:-0.1}"
say "done"
