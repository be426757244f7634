#!/usr/bin/env bash
# bench/ab-resim.sh: a change to the GPU re-simulation against a base
# commit, in one device call.  Both trees are built with CUDA (Release);
# the change's test_resim_cuda runs (events bit for bit against the CPU's,
# every variant); the generated case (bench_files --no-full --sdf: the
# register dump and SDF of GATES gates x CYCLES cycles) is re-simulated by
# each tree's bench_resim in turns (A B A B ...), which checks every
# variant's events against the CPU's.  The table last: per variant, the
# median over the turns of each side's sustained seconds, and B / A.
#
#   BASE=.devcarry/base.tar bash bench/ab-resim.sh
#
# BASE: a tar of the base tree (git archive REV).  Knobs: GATES (1000000),
# CYCLES (200), TURNS (2), REPEATS (bench_resim's, 4), THREADS (the CPU
# re-simulation's, every core), BASE_VARIANTS and VARIANTS (bench_resim
# --variants of each side: 96te, the default), DEADLINE (s after which no
# new turn starts: 420).  Logs in $OUT (or build-ab/out).  `bash
# bench/ab-resim.sh --table a=LOG b=LOG ...` prints the table of logs kept
# from a run.
set -u
start=$SECONDS
out=${OUT:-build-ab/out}
turns=${TURNS:-2}
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
say() { echo "[$((SECONDS - start)) s] $*" | tee -a "$out/ab.log"; }
source "$(dirname "$0")/lib/ab-trees.sh"

# The table of bench_resim logs given as SIDE=LOG ...: their "row" lines
# (row NAME VARIANT GATES EVENTS CPU_S PLAN_S COLD_S SUSTAINED_S ... CHECK).
table() {
  for arg in "$@"; do
    grep "^row" "${arg#*=}" | sed "s/^row/${arg%%=*}/"
  done | awk -F'\t' "$AB_MEDIAN_AWK"'
  {
    t[$1, $3] = t[$1, $3] " " $9; cpu[$1, $3] = cpu[$1, $3] " " $6; events = $5
    if (!($3 in seen)) { seen[$3] = 1; order[++n] = $3 }
    k = $1 SUBSEP $3; if ($14 != "same") check[k] = $14; else if (check[k] == "") check[k] = "same"
  }
  END {
    printf "%-10s %10s %10s %8s %10s %10s  %s\n", "variant", "base ms", "change ms", "ratio",
           "G ev/s", "x cpu", "events (base, change)"
    for (i = 1; i <= n; i++) {
      v = order[i]; ma = median(t["a", v]) * 1e3; mb = median(t["b", v]) * 1e3
      side = mb > 0 ? "b" : "a"; m = mb > 0 ? mb : ma
      ratio = ma > 0 && mb > 0 ? mb / ma : 0
      rate = m > 0 ? events / m * 1e-6 : 0
      speedup = m > 0 ? median(cpu[side, v]) * 1e3 / m : 0
      ca = check["a", v] != "" ? check["a", v] : "-"; cb = check["b", v] != "" ? check["b", v] : "-"
      printf "%-10s %10.2f %10.2f %8.4f %10.2f %10.1f  %s, %s\n", v, ma, mb, ratio, rate, speedup, ca, cb
    }
  }'
}
[ "${1:-}" = --table ] && { shift; table "$@"; exit; }
base_tar=${BASE:?BASE: a tar of the base tree}
mkdir -p "$out"

ab_build_trees "$base_tar" bench_resim bench_files test_resim_cuda

(cd tests/unit && "../../$b/tests/test_resim_cuda") >"$out/test_resim_cuda.log" 2>&1
tested="test_resim_cuda exit $?: $(tail -1 "$out/test_resim_cuda.log")"
say "$tested"

gen=/tmp/ab-resim-gen
rm -rf $gen && mkdir -p $gen
say "generating ${GATES:-1000000} gates x ${CYCLES:-200} cycles"
"$b/bench/bench_files" $gen --gates "${GATES:-1000000}" --cycles "${CYCLES:-200}" --no-full --sdf \
  >"$out/gen.log" 2>&1 || { tail -3 "$out/gen.log"; say "FAIL: bench_files"; exit 1; }
args=(--lib $gen/cells.lib --netlist $gen/netlist.v --sdf $gen/netlist.sdf --activity $gen/regs.vcd
      --scope top --repeats "${REPEATS:-4}" --name gen)
[ -n "${THREADS:-}" ] && args+=(--threads "$THREADS")

logs=()
for turn in $(seq 1 "$turns"); do
  if [ "$turn" -gt 1 ] && [ $((SECONDS - start)) -gt "${DEADLINE:-420}" ]; then
    say "past ${DEADLINE:-420} s: turns $turn-$turns not run"; break
  fi
  for side in a b; do
    bin=$a variants=${BASE_VARIANTS:-96te}
    [ $side = b ] && bin=$b variants=${VARIANTS:-96te}
    log="$out/bench-$side-$turn.log"
    say "turn $turn: $side"
    "$bin/bench/bench_resim" "${args[@]}" --variants "$variants" >"$log" 2>&1 ||
      say "bench_resim $side failed or differed: $(tail -1 "$log")"
    grep "^gen " "$log" | sed "s/^/  $side: /" | tee -a "$out/ab.log"
    logs+=("$side=$log")
  done
done

echo
echo "==== bench/ab-resim.sh: ${GATES:-1000000} gates x ${CYCLES:-200} cycles, $turns turns," \
     "$((SECONDS - start)) s; $tested"
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>/dev/null)"
table "${logs[@]}"
