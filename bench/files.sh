#!/usr/bin/env bash
# bench/files.sh: files in, report out, in one device call (issue 18).  Run
# from the repository root on the machine with the GPU:
#
#   bash bench/files.sh
#
# 1. builds a Release tree with CUDA in build-cuda/ (all cores);
# 2. writes the generated case (bench_files: GATES gates x CYCLES cycles,
#    library, netlist, full-net VCD) to $CASE_DIR, and reads its VCD back,
#    comparing the store with the generated one bit for bit;
# 3. times `gatepower info` reading it on 1 thread and on every core, then
#    `gatepower power` with the cpu engine (every core) and the cuda engine,
#    REPEAT times each in turns, every run with --timing (seconds per phase,
#    peak memory);
#    with MEMORY=SIZE, both again with --memory SIZE (in windows);
# 4. checks the cpu and cuda engines' report.json totals agree (1e-6), and
#    each engine's windowed run its one-window run (1e-9);
# 5. times the reader alone (bench_read: the design read first, then the
#    dump into the store on every core and on one thread; the FST on
#    every core);
# 6. prints a table last: the median wall seconds of each phase per command
#    and of the whole process ("wall": --timing's total leaves out the
#    options' checks before the reading and the exit after the writing),
#    the peak memory and, with a GPU, the device memory the run used.
#
# `make bench` runs it on the CPU (bench/run: ENGINES=cpu, SKIP_BUILD=1).
#
# Logs go to $OUT (the device tool's folder) or build-cuda/files-out.
# Knobs: GATES (1000000), CYCLES (500), REPEAT (3), CASE_DIR (/tmp/gp-case),
# GZ=LEVEL (also full.vcd.gz, written by gzip -LEVEL, read by info), FST=1 or
# FST=lz4 or fastlz (also full.fst, its chains packed with zlib, fstapi's
# default, or the one named, Verilator's being lz4; written by bench_files
# and checked, read by info on every core, on 1 thread in the first round
# only, and by power --engine cuda, checked against the VCD's run),
# SKIP_BUILD=1, SKIP_CASE=1 (keep the case already in CASE_DIR), BUILD
# (build-cuda), ENGINES ("cpu cuda"; "cpu" without a GPU), MEMORY=SIZE (the
# windowed runs), ONLY_POWER=1 (no info runs),
# CHECK=0 (the case not read back: saves a fifth of writing a large one),
# PARSE=1 (info also with the scope "", under which no signal names a
# net, on 1 thread and on every core: the VCD's text read without building
# the store),
# BASE_GP (another gatepower binary, e.g. a base commit's built with CUDA:
# info on every core and both power runs again with it, in turns with this
# tree's, labelled base-...), ONE_THREAD=0 (no info on 1 thread),
# CMAKE_ARGS (more for the configure step, e.g. -DGATEPOWER_FSTAPI_DIR=... and
# -DGATEPOWER_LZ4_LIBRARY=... where the machine has no fstapi sources: FST
# needs them, to write the case and for FastLZ; the device machine has none).
set -uo pipefail
start=$SECONDS
build=${BUILD:-build-cuda}
out=${OUT:-$build/files-out}
gates=${GATES:-1000000}
cycles=${CYCLES:-500}
repeat=${REPEAT:-3}
engines=${ENGINES:-cpu cuda}
case_dir=${CASE_DIR:-/tmp/gp-case}
mkdir -p "$out" "$case_dir"
log=$out/files.log
: >"$log"
say() { echo "[$((SECONDS - start)) s] $*" | tee -a "$log"; }

say "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')," \
    "$(free -g | awk '/Mem:/ {print $2}') GB"
say "commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo ' +changes')"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version \
    --format=csv,noheader | tee -a "$log"
if [ -z "${SKIP_BUILD:-}" ]; then
  say "build"
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGATEPOWER_CUDA=ON ${CMAKE_ARGS:-} \
    >"$out/build.log" 2>&1 &&
    cmake --build "$build" -j"$(nproc)" --target gatepower bench_files bench_read \
      >>"$out/build.log" 2>&1 ||
    { say "FAIL: build (see build.log)"; tail -20 "$out/build.log"; exit 1; }
fi
gp=$build/gatepower
if [ -n "${SKIP_CASE:-}" ] && [ -f "$case_dir/full.vcd" ]; then
  say "case: the one already in $case_dir"
else
  say "case: $gates gates x $cycles cycles into $case_dir"
  check=$([ "${CHECK:-1}" = 0 ] || echo --check)
  "$build/bench/bench_files" "$case_dir" --gates "$gates" --cycles "$cycles" $check --no-regs \
    ${FST:+--fst-pack "$([ "$FST" = 1 ] && echo zlib || echo "$FST")"} 2>&1 | tee -a "$log"
  [ "${PIPESTATUS[0]}" = 0 ] || { say "FAIL: bench_files"; exit 1; }
fi
if [ -n "${GZ:-}" ]; then
  say "gzip -$GZ of full.vcd"
  gzip -"$GZ" -c "$case_dir/full.vcd" >"$case_dir/full.vcd.gz"
fi
ls -l "$case_dir" | tee -a "$log"
vcd_bytes=$(stat -c %s "$case_dir/full.vcd")
inputs=(--lib "$case_dir/cells.lib" --netlist "$case_dir/netlist.v" --activity "$case_dir/full.vcd"
        --scope top)
cat "$case_dir/full.vcd" >/dev/null # in the page cache, as for every run after the first

# name: the command's label; the rest: its arguments.  Appends the timing line.
# With a GPU, nvidia-smi samples the device's memory in use every 50 ms
# during the run; the line gets "gpu memory X GB": the most, less what was
# in use before it (the run's own, on a machine where nothing else runs).
run() {
  local name=$1; shift
  local bin=$gp sampler= idle=
  [[ $name == base-* ]] && bin=$BASE_GP
  if command -v nvidia-smi >/dev/null; then
    idle=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -i 0)
    nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -i 0 -lms 50 \
      >"$out/$name.gpumem" 2>/dev/null &
    sampler=$!
  fi
  local t0; t0=$(date +%s%N)
  "$bin" --quiet "$@" >"$out/$name.stdout" 2>"$out/$name.err"
  local rc=$?
  local wall; wall=$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
  local line; line="$(grep '^timing:' "$out/$name.err"); wall $wall s"
  if [ -n "$sampler" ]; then
    kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null
    line+=$(sort -n "$out/$name.gpumem" | tail -1 |
            awk -v idle="$idle" '{ printf "; gpu memory %.3f GB", ($1 - idle) * 1048576 / 1e9 }')
  fi
  echo "$name rc=$rc $line" >>"$out/timings.txt"
  say "$name: rc=$rc $line"
  [ $rc = 0 ] || { tail -5 "$out/$name.err"; }
}
: >"$out/timings.txt"
for r in $(seq 1 "$repeat"); do
  [ -z "${ONLY_POWER:-}" ] && [ "${ONE_THREAD:-1}" != 0 ] &&
    run info-1 info "${inputs[@]}" --timing --threads 1
  [ -z "${ONLY_POWER:-}" ] && run info-all info "${inputs[@]}" --timing
  [ -z "${ONLY_POWER:-}" ] && [ -n "${BASE_GP:-}" ] && run base-info-all info "${inputs[@]}" --timing
  if [ -n "${PARSE:-}" ]; then
    run parse-1 info "${inputs[@]/%top/}" --timing --threads 1
    run parse-all info "${inputs[@]/%top/}" --timing
  fi
  for e in $engines; do
    run power-$e power "${inputs[@]}" --period 10ns --engine $e --timing --json "$out/$e.json"
  done
  if [ -n "${BASE_GP:-}" ]; then
    run base-power-cpu power "${inputs[@]}" --period 10ns --engine cpu --timing
    run base-power-cuda power "${inputs[@]}" --period 10ns --engine cuda --timing \
      --json "$out/base-cuda.json"
  fi
  if [ -n "${MEMORY:-}" ]; then
    for e in $engines; do
      run power-$e-mem power "${inputs[@]}" --period 10ns --engine $e --memory "$MEMORY" \
        --timing --json "$out/$e-mem.json"
    done
  fi
  [ -n "${GZ:-}" ] && run info-gz info "${inputs[@]/%full.vcd/full.vcd.gz}" --timing
  if [ -n "${FST:-}" ]; then
    [ "${ONE_THREAD:-1}" != 0 ] && [ "$r" = 1 ] &&
      run info-fst-1 info "${inputs[@]/%full.vcd/full.fst}" --timing --threads 1
    run info-fst info "${inputs[@]/%full.vcd/full.fst}" --timing
    [[ $engines == *cuda* ]] && run power-cuda-fst power "${inputs[@]/%full.vcd/full.fst}" \
      --period 10ns --engine cuda --timing --json "$out/cuda-fst.json"
  fi
done
say "the reader alone (bench_read, median of $repeat)"
threads=$([ "${ONE_THREAD:-1}" = 0 ] && echo 0 || echo 0,1)
"$build/bench/bench_read" "${inputs[@]}" --threads "$threads" --repeats "$repeat" 2>&1 | tee -a "$log"
[ -n "${FST:-}" ] && "$build/bench/bench_read" "${inputs[@]/%full.vcd/full.fst}" --threads 0 \
  --repeats "$repeat" 2>&1 | tee -a "$log"
python3 - "$out" <<'PY' | tee -a "$log"
import json, os, sys
def worst(p, q):
    a, b = (json.load(open(os.path.join(sys.argv[1], f))) for f in (p, q))
    pairs = [(a["total"], b["total"])] + [(a["groups"][g], b["groups"][g]) for g in a["groups"]]
    return max(abs(x[k] - y[k]) / max(abs(x[k]), abs(y[k]), 1e-300) for x, y in pairs for k in x)
for p, q, bound in [("cpu.json", "cuda.json", 1e-6), ("cpu.json", "cpu-mem.json", 1e-9),
                    ("cuda.json", "cuda-mem.json", 1e-9), ("cuda.json", "cuda-fst.json", 1e-9),
                    ("cuda.json", "base-cuda.json", 1e-9)]:
    if all(os.path.exists(os.path.join(sys.argv[1], f)) for f in (p, q)):
        w = worst(p, q)
        print(f"{p} vs {q} totals and groups: worst relative difference {w:.2e}",
              "(ok)" if w <= bound else "FAIL")
PY
say "summary (median of $repeat; VCD $vcd_bytes bytes)"
python3 - "$out/timings.txt" "$vcd_bytes" <<'PY' | tee "$out/summary.txt" | tee -a "$log"
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name = line.split()[0]
    phases = dict((m[0], float(m[1])) for m in re.findall(r"(\w[\w ]*?) (\d+\.\d+) s", line))
    peak = re.search(r"peak memory (\d+\.\d+) GB", line)
    phases["peak GB"] = float(peak.group(1)) if peak else float("nan")
    gpu = re.search(r"gpu memory (-?\d+\.\d+) GB", line)
    phases["gpu GB"] = float(gpu.group(1)) if gpu else float("nan")
    windows = re.search(r"activity in (\d+) windows", line)
    phases["windows"] = float(windows.group(1)) if windows else 1.0
    rows.setdefault(name, []).append(phases)
cols = ["netlist", "activity", "engine", "writing", "total", "wall", "peak GB", "gpu GB", "windows"]
print("| command | " + " | ".join(cols) + " | VCD GB/s |")
print("|---|" + "---:|" * (len(cols) + 1))
for name, runs in rows.items():
    med = {c: statistics.median(r.get(c, float("nan")) for r in runs) for c in cols}
    rate = int(sys.argv[2]) / med["activity"] / 1e9 if med["activity"] > 0 else float("nan")
    print(f"| {name} | " + " | ".join(f"{med[c]:.3f}" for c in cols) + f" | {rate:.2f} |")
PY
say "done"
