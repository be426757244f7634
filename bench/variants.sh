#!/usr/bin/env bash
# bench/variants.sh: files to report with this tree and with variants of it
# (diffs applied to it), on issue 18's generated case, in one device call.
# Run from the repository root:
#
#   VARIANTS="fetch=.devcarry/fill-fetch.diff early=a.diff+b.diff" bash bench/variants.sh
#
# 1. builds this tree ("head") and each variant (this tree with its diffs
#    applied in the order given), Release, with CUDA when nvcc is there, all
#    at once;
# 2. writes the generated case (bench_files: GATES gates x CYCLES cycles,
#    netlist and full-net VCD);
# 3. runs REPEAT rounds in turns: `power --engine ENGINE --out` with every
#    binary, then with head's `power --engine cpu --out` (CPU=0: not) and,
#    in the last round, `info` on every core and with --threads 1 (READ=0:
#    not), all with --timing;
# 4. prints each run's wall and phases as it ends, then a table of medians:
#    wall, netlist, activity with its steps, engine, writing.  Each run's
#    stderr stays in $OUT/<label>.err (a variant's own prints, too).
#
# Knobs: GATES (1000000), CYCLES (500), REPEAT (3), ENGINE (cuda), VARIANTS,
# CPU (1), READ (1), WORK (/tmp/gp-variants).
set -uo pipefail
start=$SECONDS
gates=${GATES:-1000000}
cycles=${CYCLES:-500}
repeat=${REPEAT:-3}
engine=${ENGINE:-cuda}
work=${WORK:-/tmp/gp-variants}
out=${OUT:-$work/out}
mkdir -p "$work" "$out"
say() { echo "[$((SECONDS - start)) s] $*"; }

cuda=$(command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] && echo ON || echo OFF)
say "machine: $(nproc) cores; this tree $(git rev-parse --short HEAD 2>/dev/null)$(
    git diff --quiet 2>/dev/null || echo ' +changes'); CUDA $cuda"
names=(head)
declare -A diffs=([head]="")
for v in ${VARIANTS:-}; do
  names+=("${v%%=*}")
  diffs[${v%%=*}]=${v#*=}
done

# name: this tree into $work/src-name, its diffs applied, built
build_variant() {
  local name=$1 src=$work/src-$1 d
  rm -rf "$src" && mkdir -p "$src" && git ls-files -z | xargs -0 cp --parents -t "$src" || return 1
  for d in ${diffs[$name]//+/ }; do
    patch -d "$src" -p1 <"$d" >>"$out/build-$name.log" 2>&1 || { echo "the diff $d"; return 1; }
  done
  cmake -S "$src" -B "$work/build-$name" -DCMAKE_BUILD_TYPE=Release -DGATEPOWER_CUDA="$cuda" \
    >>"$out/build-$name.log" 2>&1 &&
    cmake --build "$work/build-$name" -j"$(nproc)" --target gatepower bench_files \
      >>"$out/build-$name.log" 2>&1
}
for name in "${names[@]}"; do
  build_variant "$name" || echo "FAIL: build $name ($out/build-$name.log)" >"$out/failed-$name" &
done
wait
for name in "${names[@]}"; do
  [ ! -f "$out/failed-$name" ] || { say "$(cat "$out/failed-$name")"; exit 1; }
done
say "built: ${names[*]}"

case_dir=$work/case
if [ ! -f "$case_dir/full.vcd" ]; then
  mkdir -p "$case_dir"
  "$work/build-head/bench/bench_files" "$case_dir" --gates "$gates" --cycles "$cycles" --no-regs \
    >"$out/case.log" 2>&1 || { say "FAIL: bench_files"; exit 1; }
fi
say "case: $gates gates x $cycles cycles, $(du -h "$case_dir/full.vcd" | cut -f1) of VCD"
inputs=(--lib "$case_dir/cells.lib" --netlist "$case_dir/netlist.v" --activity
        "$case_dir/full.vcd" --scope top)

: >"$out/runs.txt"
# label name command args...: one timed run, its line appended to runs.txt
run() {
  local label=$1 name=$2 t0 t1 rc
  shift 2
  t0=$(date +%s%N)
  "$work/build-$name/gatepower" --quiet "$@" "${inputs[@]}" --timing >/dev/null \
    2>"$out/$label.err"
  rc=$?
  t1=$(date +%s%N)
  local wall timing
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
  timing=$(grep '^timing:' "$out/$label.err" | head -1)
  echo "$label $wall $timing" >>"$out/runs.txt"
  say "$label: $wall s rc=$rc ${timing#timing: }"
}
power=(power --period 10ns --out "$work/report")
for r in $(seq 1 "$repeat"); do
  for name in "${names[@]}"; do
    run "$name-$engine-$r" "$name" "${power[@]}" --engine "$engine"
  done
  [ "${CPU:-1}" = 0 ] || [ "$engine" = cpu ] || run "head-cpu-$r" head "${power[@]}" --engine cpu
done
if [ "${READ:-1}" != 0 ]; then
  run "head-info-1" head info
  run "head-info-threads1-1" head info --threads 1
fi

say "medians (s)"
python3 - "$out/runs.txt" <<'PY'
import re, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    label, wall, *rest = line.split(" ", 2)
    timing = rest[0].split(";")[0] if rest else ""
    phases = {m.group(1).strip(): float(m.group(2))
              for m in re.finditer(r"([a-z ]+?) ([0-9.]+) s", timing)}
    runs.setdefault(label.rsplit("-", 1)[0], []).append(dict(phases, wall=float(wall)))
cols = ["wall", "netlist", "activity", "dump header", "design wait", "event store", "engine",
        "writing"]
print("| run | n | " + " | ".join(cols) + " |")
print("|---|---:|" + "---:|" * len(cols))
for label, rs in runs.items():
    cells = [f"{statistics.median(r.get(c, 0.0) for r in rs):.3f}" for c in cols]
    print(f"| {label} | {len(rs)} | " + " | ".join(cells) + " |")
PY
