#!/usr/bin/env bash
# bench/ab-files.sh: files to report with the report written (--out), this
# tree against another commit, in one device call.  Run from the
# repository root:
#
#   BASE=<commit or git-archive tar> bash bench/ab-files.sh
#
# 1. builds this tree and BASE (Release, with CUDA when nvcc is there);
# 2. writes the generated case (bench_files --sdf: GATES gates x CYCLES
#    cycles, netlist, SDF, register dump and, unless FULL=0, the full-net
#    VCD);
# 3. runs, REPEAT rounds in turns with each binary: `info --sdf` (the
#    design side), `resim --power --engine ENGINE --out` from the register
#    dump, and `power --engine ENGINE --out` from the full VCD (no SDF: a
#    full dump needs none), all with --timing;
# 4. compares the two binaries' report files (report.json aside: it holds
#    the timing), bit for bit or else within 1e-9 number by number, and
#    prints the median wall and phases of each, a table last.
#
# Knobs: GATES (1000000), CYCLES (200), REPEAT (2), ENGINE (cuda), BASE
# (HEAD~1), WORK (/tmp/gp-ab-files), FULL (1), CPU=1 (power with the cpu
# engine too), FST=zlib|lz4|fastlz (the full dump as FST too, packed so,
# read by `info` in the rounds: it needs fstapi's sources in the build,
# which the device machine lacks: carry them and pass CMAKE_ARGS as
# docs/performance.md says for bench/files.sh), READ=1 (`info` on the full
# VCD on every core and on one thread: issue 18's reading rates),
# CMAKE_ARGS.
set -uo pipefail
start=$SECONDS
gates=${GATES:-1000000}
cycles=${CYCLES:-200}
repeat=${REPEAT:-2}
engine=${ENGINE:-cuda}
base=${BASE:-HEAD~1}
work=${WORK:-/tmp/gp-ab-files}
out=${OUT:-$work/out}
mkdir -p "$work" "$out"
log=$out/ab-files.log
: >"$log"
say() { echo "[$((SECONDS - start)) s] $*" | tee -a "$log"; }

say "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
say "this tree: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null ||
    echo ' +changes'); base: $base"
cuda=$(command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] && echo ON || echo OFF)
build_tree() { # source dir, build dir
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DGATEPOWER_CUDA="$cuda" ${CMAKE_ARGS:-} \
    >>"$out/build.log" 2>&1 &&
    cmake --build "$2" -j"$(nproc)" --target gatepower bench_files >>"$out/build.log" 2>&1
}
rm -rf "$work/base" && mkdir -p "$work/base"
if [ -f "$base" ]; then
  tar -xf "$base" -C "$work/base"
else
  git archive "$base" | tar -x -C "$work/base"
fi || { say "FAIL: the base tree $base"; exit 1; }
say "build (CUDA $cuda)"
build_tree . "$work/build-new" & new_build=$!
build_tree "$work/base" "$work/build-base" || { say "FAIL: base build"; exit 1; }
wait $new_build || { say "FAIL: build (see build.log)"; tail -20 "$out/build.log"; exit 1; }

say "case: $gates gates x $cycles cycles"
mkdir -p "$work/case"
full=$([ "${FULL:-1}" = 0 ] && echo --no-full)
"$work/build-new/bench/bench_files" "$work/case" --gates "$gates" --cycles "$cycles" --sdf $full \
  ${FST:+--fst-pack "$FST"} >>"$log" 2>&1 || { say "FAIL: bench_files"; exit 1; }
ls -l "$work/case" | tee -a "$log"
c=$work/case
design=(--lib "$c/cells.lib" --netlist "$c/netlist.v" --sdf "$c/netlist.sdf")

# label binary args...: one timed run; appends "label wall rc timing" to runs.txt
run() {
  local label=$1 bin=$2 t0 t1 rc
  shift 2
  t0=$(date +%s%N)
  "$bin" --quiet "$@" >"$out/$label.stdout" 2>"$out/$label.err"
  rc=$?
  t1=$(date +%s%N)
  local wall; wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
  local timing; timing=$(grep '^timing:' "$out/$label.err" | head -1)
  echo "$label $wall $rc $timing" >>"$out/runs.txt"
  say "$label: ${wall} s rc=$rc $timing"
  [ "$rc" = 0 ] || tail -3 "$out/$label.err"
}
: >"$out/runs.txt"
for r in $(seq 1 "$repeat"); do
  for side in base new; do
    gp=$work/build-$side/gatepower
    run "$side-info" "$gp" info "${design[@]}" --timing
    [ -z "${FST:-}" ] || run "$side-info-fst" "$gp" info "${design[@]:0:4}" \
      --activity "$c/full.fst" --scope top --timing
    if [ -n "${READ:-}" ] && [ "${FULL:-1}" != 0 ]; then
      run "$side-info-vcd" "$gp" info "${design[@]:0:4}" --activity "$c/full.vcd" --scope top \
        --timing
      run "$side-info-vcd-1" "$gp" info "${design[@]:0:4}" --activity "$c/full.vcd" \
        --scope top --timing --threads 1
    fi
    run "$side-resim" "$gp" resim "${design[@]}" --activity "$c/regs.vcd" --scope top \
      --period 10ns --power --engine "$engine" --timing --out "$out/$side-resim"
    [ "${FULL:-1}" = 0 ] || run "$side-power" "$gp" power "${design[@]:0:4}" \
      --activity "$c/full.vcd" --scope top --period 10ns --engine "$engine" --timing \
      --out "$out/$side-power"
    [ "${FULL:-1}" = 0 ] || [ "${CPU:-0}" = 0 ] || run "$side-power-cpu" "$gp" power \
      "${design[@]:0:4}" --activity "$c/full.vcd" --scope top --period 10ns --engine cpu \
      --timing --out "$out/$side-power-cpu"
  done
done
# The cuda engine's sums differ run to run in their last bits (atomics): the
# files are compared number by number, report.json aside (it holds the timing).
for kind in resim power; do
  [ -d "$out/base-$kind" ] || continue
  for f in instances.csv cells.csv waveform.csv waveform.vcd hotspots.txt report.txt; do
    cmp -s "$out/base-$kind/$f" "$out/new-$kind/$f" && same="the same bit for bit" ||
      same=$(python3 bench/numbers-close.py 1e-9 "$out/base-$kind/$f" "$out/new-$kind/$f" 2>&1 |
             tail -1)
    say "base vs new, $kind, $f: $same"
  done
done
say "medians of $repeat (wall s; phases s)"
python3 - "$out/runs.txt" <<'PY' | tee -a "$log"
import re, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    label, wall, rc, *timing = line.split(" ", 3) + [""]
    phases = dict((m.group(1), float(m.group(2)))
                  for m in re.finditer(r"([a-z ]+?) ([0-9.]+) s", " ".join(timing).split(";")[0]))
    runs.setdefault(label, []).append((float(wall), phases))
print(f"{'run':<12} {'wall':>7}  phases")
for label, rs in runs.items():
    names = list(rs[0][1])
    med = {n: statistics.median(p.get(n, 0) for _, p in rs) for n in names}
    print(f"{label:<12} {statistics.median(w for w, _ in rs):7.2f}  " +
          ", ".join(f"{n.strip()} {v:.2f}" for n, v in med.items()))
PY
