#!/usr/bin/env bash
# bench/netlist.sh: the design side of files to report (issue 18, point 5),
# this tree against another commit, in one device call.  Run from the
# repository root:
#
#   BASE=<commit> bash bench/netlist.sh
#
# 1. builds this tree and BASE (default HEAD~1; git archive into $WORK/base;
#    or a tar made by git archive, where the machine's copy of .git lacks it),
#    Release, without CUDA (the netlist phase has none);
# 2. writes the generated case's library and netlist (bench_files: GATES
#    gates, two cycles of activity, not used);
# 3. runs `gatepower info --lib --netlist --timing` with each binary, REPEAT
#    rounds in turns, on every core and then on one (taskset -c 0);
# 4. prints the median netlist and design phases and peak memory of each,
#    a table last.
#
# Knobs: GATES (1000000), REPEAT (5), BASE, WORK (/tmp/gp-netlist),
# CYCLES (2) with ACTIVITY=1 (the runs read the full-net VCD too, and the
# table has the activity phase), ONE_CORE=0 (no runs on one core), PATCH (a
# diff applied to both trees, e.g. prints of sub-phases; the runs' stderr is
# kept in $OUT/<label>.err), PATCH_NEW (a diff applied to this tree only:
# a variant timed against BASE, e.g. BASE a tar of this commit).
set -uo pipefail
start=$SECONDS
gates=${GATES:-1000000}
repeat=${REPEAT:-5}
base=${BASE:-HEAD~1}
work=${WORK:-/tmp/gp-netlist}
out=${OUT:-$work/out}
mkdir -p "$work" "$out"
log=$out/netlist.log
: >"$log"
say() { echo "[$((SECONDS - start)) s] $*" | tee -a "$log"; }

say "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
say "this tree: $(git rev-parse --short HEAD)$(git diff --quiet || echo ' +changes');" \
    "base: $base"
build_tree() { # source dir, build dir
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DGATEPOWER_CUDA=OFF >>"$out/build.log" 2>&1 &&
    cmake --build "$2" -j"$(nproc)" --target gatepower bench_files >>"$out/build.log" 2>&1
}
rm -rf "$work/base" && mkdir -p "$work/base"
if [ -f "$base" ]; then # a tar of the tree (git archive), where this copy's git lacks the commit
  tar -xf "$base" -C "$work/base"
else
  git archive "$base" | tar -x -C "$work/base"
fi || { say "FAIL: the base tree $base"; exit 1; }
if [ -n "${PATCH_NEW:-}" ]; then
  git apply "$(realpath "$PATCH_NEW")" || { say "FAIL: PATCH_NEW"; exit 1; }
fi
if [ -n "${PATCH:-}" ]; then
  patch_file=$(realpath "$PATCH")
  git apply "$patch_file" && (cd "$work/base" && git apply "$patch_file") ||
    { say "FAIL: patch"; exit 1; }
fi
say "build"
build_tree . "$work/build-new" && build_tree "$work/base" "$work/build-base" ||
  { say "FAIL: build (see build.log)"; tail -20 "$out/build.log"; exit 1; }
say "case: $gates gates"
mkdir -p "$work/case"
"$work/build-new/bench/bench_files" "$work/case" --gates "$gates" --cycles "${CYCLES:-2}" --no-regs \
  >>"$log" 2>&1 || { say "FAIL: bench_files"; exit 1; }
ls -l "$work/case" >>"$log"

activity=()
[ -n "${ACTIVITY:-}" ] && activity=(--activity "$work/case/full.vcd" --scope top)
# label, binary, taskset prefix...: appends "label netlist_s peak_gb activity_s design_s"
# to runs.txt
run() {
  local label=$1 bin=$2; shift 2
  "$@" "$bin" --quiet info --lib "$work/case/cells.lib" --netlist "$work/case/netlist.v" \
    "${activity[@]}" --timing >/dev/null 2>"$out/$label.err" ||
    { say "FAIL: $label"; cat "$out/$label.err"; }
  local line; line=$(grep '^timing:' "$out/$label.err")
  local act; act=$(grep -o 'activity [0-9.]* s' <<<"$line" | cut -d' ' -f2)
  local design; design=$(grep -o 'design [0-9.]* s' <<<"$line" | cut -d' ' -f2)
  echo "$label $(sed -E 's/.*netlist ([0-9.]+) s.*/\1/' <<<"$line")" \
       "$(sed -E 's/.*peak memory ([0-9.]+) GB.*/\1/' <<<"$line") ${act:-0} ${design:-0}" \
       >>"$out/runs.txt"
  say "$label: $line"
}
: >"$out/runs.txt"
for r in $(seq "$repeat"); do
  run base "$work/build-base/gatepower"
  run new "$work/build-new/gatepower"
done
for r in $(seq "$([ "${ONE_CORE:-1}" = 0 ] && echo 0 || echo 2)"); do
  run base-1core "$work/build-base/gatepower" taskset -c 0
  run new-1core "$work/build-new/gatepower" taskset -c 0
done
# The hierarchy flattened the same way: both binaries' counts agree.
"$work/build-base/gatepower" info --lib "$work/case/cells.lib" --netlist "$work/case/netlist.v" \
  >"$out/base.info" 2>&1
"$work/build-new/gatepower" info --lib "$work/case/cells.lib" --netlist "$work/case/netlist.v" \
  >"$out/new.info" 2>&1
cmp -s "$out/base.info" "$out/new.info" && say "info: the same counts" ||
  { say "FAIL: info differs"; diff "$out/base.info" "$out/new.info" | head; }

say "medians (s, GB):"
echo "| binary | netlist s | design s | peak GB | activity s | runs |" | tee -a "$log"
echo "|---|---:|---:|---:|---:|---:|" | tee -a "$log"
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }
for label in base new base-1core new-1core; do
  n=$(awk -v l="$label" '$1 == l' "$out/runs.txt" | wc -l)
  t=$(awk -v l="$label" '$1 == l { print $2 }' "$out/runs.txt" | median)
  m=$(awk -v l="$label" '$1 == l { print $3 }' "$out/runs.txt" | median)
  a=$(awk -v l="$label" '$1 == l { print $4 }' "$out/runs.txt" | median)
  g=$(awk -v l="$label" '$1 == l { print $5 }' "$out/runs.txt" | median)
  [ "$n" -gt 0 ] && echo "| $label | $t | $g | $m | $a | $n |" | tee -a "$log"
done
say "done"
