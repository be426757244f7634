#!/usr/bin/env bash
# bench/ab-cuda.sh: a change to the engines against a base commit, in one
# device call.  Both trees are built with CUDA (Release); their outputs are
# compared bit for bit for every CUDA variant in fixed point
# (bench/same-outputs.sh); then bench_cuda of each runs in turns (A B A B
# ...) on one generated case, each variant's sustained kernel time taken
# after its warm-up.  The table last: per variant, the median over the
# turns of A and of B, and B / A.
#
#   BASE=.devcarry/base.tar bash bench/ab-cuda.sh
#
# BASE: a tar of the base tree (git archive REV).  Knobs: EXAMPLES (example
# directories for same-outputs.sh), LIB_OSU (their library), GATES
# (1000000), TURNS (2), ROUNDS (5), VARIANTS (bench_cuda --variants),
# BENCH_EXAMPLES (example directories bench_cuda also times, one turn each:
# EXAMPLE_VARIANTS), SKIP_SAME=1, TOLERANCE (same-outputs.sh's), DEADLINE (s after which no new turn starts: 420).  Logs in $OUT (or build-ab/out).
set -u
start=$SECONDS
out=${OUT:-build-ab/out}
mkdir -p "$out"
base_tar=${BASE:?BASE: a tar of the base tree}
gates=${GATES:-1000000}
turns=${TURNS:-2}
variants=${VARIANTS:-naive,sipl,sipl+part,sipl+part+fusion,sipl+part+fusion+memo,fused,fused/det}
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
say() { echo "[$((SECONDS - start)) s] $*" | tee -a "$out/ab.log"; }

source "$(dirname "$0")/lib/ab-trees.sh"
ab_build_trees "$base_tar" gatepower bench_cuda bench_files

same="not run"
if [ -z "${SKIP_SAME:-}" ]; then
  say "same outputs, every CUDA variant in fixed point"
  engines=""
  for v in naive sipl sipl+part sipl+part+fusion sipl+part+fusion+memo fused part+fusion+memo+warp; do
    engines="$engines cuda:$v"
  done
  ENGINES=$engines GP_A=$a/gatepower GP_B=$b/gatepower BENCH_FILES=$b/bench/bench_files \
    bash bench/same-outputs.sh "$out/same" >"$out/same.log" 2>&1
  same=$([ $? = 0 ] && tail -1 "$out/same.log" || echo "DIFFERENT: $out/same/differences.txt")
  tail -12 "$out/same.log" | tee -a "$out/ab.log"
fi

for turn in $(seq 1 "$turns"); do
  if [ "$turn" -gt 1 ] && [ $((SECONDS - start)) -gt "${DEADLINE:-420}" ]; then
    say "past ${DEADLINE:-420} s: turns $turn-$turns not run"; break
  fi
  for side in a b; do
    bin=$a; [ $side = b ] && bin=$b
    say "turn $turn: $side"
    "$bin/bench/bench_cuda" --name "$side" --tsv "$out/$side.tsv" --no-ref --cpu-repeats 1 \
      --e2e-repeats 1 --rounds "${ROUNDS:-5}" --warmup-s 1 --variants "$variants" gen "$gates" \
      >"$out/bench-$side-$turn.log" 2>&1 || say "bench_cuda $side failed: $(tail -1 "$out/bench-$side-$turn.log")"
    grep -E "^clocks" "$out/bench-$side-$turn.log" | sed "s/^/  $side: /" | tee -a "$out/ab.log"
  done
done

# Examples (directories with flow.json and full.vcd[.gz]): bench_cuda of
# each binary on each, in turns, for the variants asked.
for d in ${BENCH_EXAMPLES:-}; do
  top=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['top'])" "$d/flow.json")
  period=$(python3 -c "import json,sys; print('%g' % json.load(open(sys.argv[1]))['clock_period_ns'])" "$d/flow.json")
  vcd=$d/full.vcd; [ -f "$vcd" ] || vcd=$d/full.vcd.gz
  for side in a b; do
    bin=$a; [ $side = b ] && bin=$b
    say "$(basename "$d"): $side"
    "$bin/bench/bench_cuda" --name "$side" --tsv "$out/$side-$(basename "$d").tsv" --no-ref \
      --cpu-repeats 1 --e2e-repeats 1 --rounds "${ROUNDS:-5}" --warmup-s 1 \
      --variants "${EXAMPLE_VARIANTS:-fused,sipl+part+fusion+memo}" "$LIB_OSU" "$d/netlist.v" "$top" \
      "$vcd" tb/dut "$period" >"$out/bench-$side-$(basename "$d").log" 2>&1 ||
      say "bench_cuda $side failed: $(tail -1 "$out/bench-$side-$(basename "$d").log")"
  done
done

echo
echo "==== bench/ab-cuda.sh: $gates gates, $turns turns, $((SECONDS - start)) s; $same"
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>/dev/null)"
# variant rows: variant NAME LABEL FLAGS CHECK WORST COLD_S SUSTAINED_S KEPT ROUNDS;
# per variant the median over the turns of each side.
table() {
  awk -F'\t' "$AB_MEDIAN_AWK"'
  $1 == "variant" { t[$2, $3] = t[$2, $3] " " $8; if (!($3 in seen)) { seen[$3] = 1; order[++n] = $3 }; chk[$2, $3] = $5 }
  END {
    printf "%-36s %12s %12s %8s  %s\n", "variant", "base ms", "change ms", "ratio", "check (base, change)"
    for (i = 1; i <= n; i++) {
      v = order[i]; ma = median(t["a", v]) * 1e3; mb = median(t["b", v]) * 1e3
      ratio = ma > 0 ? mb / ma : 0
      printf "%-36s %12.3f %12.3f %8.4f  %s, %s\n", v, ma, mb, ratio, chk["a", v], chk["b", v]
    }
  }' "$@"
}
echo "generated, $gates gates:"
table "$out/a.tsv" "$out/b.tsv"
for d in ${BENCH_EXAMPLES:-}; do
  echo "$(basename "$d"):"
  table "$out/a-$(basename "$d").tsv" "$out/b-$(basename "$d").tsv"
done
