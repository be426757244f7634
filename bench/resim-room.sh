#!/usr/bin/env bash
# bench/resim-room.sh: `resim --power --engine cuda` on a register dump
# whose re-simulated events do not fit the GPU, in one device call.
# Builds (Release, CUDA) this tree, and with BASE a base tree beside it,
# writes a generated case (bench_files --no-full --sdf: its register-only
# dump and SDF), then runs it from files without --memory (the run that
# fails out of memory and goes again in windows) and with each --memory
# of MEMORIES, each tree in turns, nvidia-smi sampling the device's
# memory; every run's report.json (less its timing) is compared with the
# first's within 1e-6.  The table last.
#
#   GATES=1000000 CYCLES=2000 MEMORIES="8G" bash bench/resim-room.sh
#   BASE=.devcarry/base.tar TURNS=2 bash bench/resim-room.sh
#
# BASE: a tar of the base tree (git archive REV).  Knobs: GATES (1000000),
# CYCLES (2000), MEMORIES ("8G"), TURNS (1), ENGINE (cuda; cpu runs the
# same windows on the host), CASE_DIR (/tmp/resim-room: kept when its
# netlist is there).  Logs in $OUT (or build-resim/out).
set -u
start=$SECONDS
out=${OUT:-build-resim/out}
mkdir -p "$out"
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
say() { echo "[$((SECONDS - start)) s] $*" | tee -a "$out/room.log"; }
source "$(dirname "$0")/lib/ab-trees.sh"
gates=${GATES:-1000000}
cycles=${CYCLES:-2000}
case_dir=${CASE_DIR:-/tmp/resim-room}
targets=(gatepower bench_files test_resim_cuda)

if [ -n "${BASE:-}" ]; then
  ab_build_trees "$BASE" "${targets[@]}"
  sides="a b"
else
  say "building"
  b=build-resim/tree
  mkdir -p build-resim
  ab_build_tree . $b "${targets[@]}" || { tail -20 $b.log; say "FAIL: build"; exit 1; }
  a=$b
  sides="b"
fi
(cd tests/unit && "../../$b/tests/test_resim_cuda") >"$out/test_resim_cuda.log" 2>&1
say "test_resim_cuda: exit $? ($(tail -1 "$out/test_resim_cuda.log"))"

if [ ! -f "$case_dir/netlist.v" ]; then
  say "generating $gates gates x $cycles cycles"
  mkdir -p "$case_dir"
  $b/bench/bench_files "$case_dir" --gates "$gates" --cycles "$cycles" --no-full --sdf \
    >"$out/gen.log" 2>&1 || { say "FAIL: bench_files: $(tail -1 "$out/gen.log")"; exit 1; }
  head -3 "$out/gen.log" | tee -a "$out/room.log"
fi

# The seconds of a phase (or "total") on a --timing line, blank when absent.
phase() { grep -m1 "^timing:" "$1" | grep -oE "[:,;] $2 [0-9.]+ s" | head -1 | awk '{print $(NF-1)}'; }

# A report.json without its "timing" (the phases' seconds differ run to run).
untimed() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d.pop("timing", None)
json.dump(d, open(sys.argv[2], "w"), indent=1)' "$1" "$2"; }

rows=()
first=""
# run SIDE NAME [--memory M]: one resim --power run from files with SIDE's
# build, its GPU peak sampled, its report compared with the first run's
run() {
  local side=$1 name=$2-$1; shift 2
  local build=$a
  [ "$side" = b ] && build=$b
  local smi=$out/$name-smi.csv
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 50 >"$smi" 2>/dev/null &
  local sampler=$!
  /usr/bin/time -f "%e s wall, %M KB peak" "$build/gatepower" resim --lib "$case_dir/cells.lib" \
    --netlist "$case_dir/netlist.v" --activity "$case_dir/regs.vcd" --sdf "$case_dir/netlist.sdf" \
    --scope top --period 10ns --power --engine "${ENGINE:-cuda}" --timing --json "$out/$name.json" "$@" \
    >"$out/$name.log" 2>&1
  local rc=$?
  kill $sampler 2>/dev/null; wait $sampler 2>/dev/null
  local peak wall same="first"
  peak=$(sort -n "$smi" | tail -1)
  wall=$(tail -1 "$out/$name.log" | cut -d' ' -f1)
  untimed "$out/$name.json" "$out/$name.untimed.json"
  if [ -z "$first" ]; then
    first=$out/$name.untimed.json
  else
    same=$(python3 bench/numbers-close.py 1e-6 "$first" "$out/$name.untimed.json" 2>&1 | tail -1 |
           grep -oE "move [0-9.e+-]+" | cut -d' ' -f2)
  fi
  say "$name: exit $rc, $wall s, GPU peak $peak MiB, against the first: $same;" \
      "$(grep -m1 'note 1052\|error' "$out/$name.log" | cut -c1-120)"
  grep -v "^timing:" "$out/$name.log" | grep "^resim" >>"$out/room.log"
  grep "^timing:" "$out/$name.log" >>"$out/room.log"
  rows+=("$name	$rc	$wall	$peak	$(phase "$out/$name.log" "resim plan")	$(phase "$out/$name.log" resim)	$(phase "$out/$name.log" engine)	$(phase "$out/$name.log" total)	$same")
}

for turn in $(seq 1 "${TURNS:-1}"); do
  for side in $sides; do
    run "$side" unbounded
    for m in ${MEMORIES:-8G}; do
      run "$side" "memory-$m" --memory "$m"
    done
  done
done

say "done"
printf '%s\n' "run	exit	wall_s	gpu_peak_MiB	resim_plan_s	resim_s	engine_s	total_s	moved" | tee -a "$out/room.log"
printf '%s\n' "${rows[@]}" | tee -a "$out/room.log"
