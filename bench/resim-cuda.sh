#!/usr/bin/env bash
# bench/resim-cuda.sh: the GPU re-simulation against the CPU's, in one
# device call.  Builds (Release, CUDA), runs test_resim_cuda, then for each
# example (directories with flow.json, netlist.v, netlist.sdf and
# regs.vcd[.gz]) and a generated case (bench_files --no-full --sdf: its
# register-only dump and SDF): `gatepower resim` on both engines
# writing VCD, compared byte for byte, `resim --power` on both compared
# number by number within 1e-6, and bench_resim (CPU on every core, GPU
# cold and sustained, events bit for bit, power within 1e-6).  The table
# last.
#
#   EXAMPLES=".devcarry/resim/fir8 ..." LIB_OSU=.devcarry/resim/osu018_stdcells.lib \
#     GATES=1000000 CYCLES=200 bash bench/resim-cuda.sh
#
# Knobs: REPEATS (5), THREADS (every core), GATES (0: no generated case),
# CYCLES (200), VARIANTS (bench_resim --variants).
# Logs in $OUT (or build-resim/out).
set -u
start=$SECONDS
out=${OUT:-build-resim/out}
mkdir -p "$out"
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
say() { echo "[$((SECONDS - start)) s] $*" | tee -a "$out/resim.log"; }
build=build-resim/tree
repeats=${REPEATS:-5}
threads=${THREADS:-$(nproc)}

say "building"
mkdir -p build-resim
{ cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release -DGATEPOWER_CUDA=ON &&
  cmake --build $build -j"$(nproc)" --target gatepower bench_resim bench_files test_resim_cuda
} >"$out/build.log" 2>&1 || { tail -20 "$out/build.log"; say "FAIL: build"; exit 1; }
gp=$build/gatepower

say "test_resim_cuda"
(cd tests/unit && "../../$build/tests/test_resim_cuda") >"$out/test_resim_cuda.log" 2>&1
say "test_resim_cuda: exit $? ($(tail -1 "$out/test_resim_cuda.log"))"

rows=()
# case NAME LIB NETLIST TOP SDF DUMP SCOPE PERIOD_NS: both engines' outputs and bench_resim
one_case() {
  local name=$1 lib=$2 netlist=$3 top=$4 sdf=$5 dump=$6 scope=$7 period=$8
  local args=(--lib "$lib" --netlist "$netlist" --activity "$dump" --scope "$scope")
  [ -n "$top" ] && args+=(--top "$top")
  [ -n "$sdf" ] && args+=(--sdf "$sdf")
  local vcd="same"
  if [ "${CLI_VCD:-1}" = 1 ]; then
    for e in cpu cuda; do
      "$gp" --quiet resim "${args[@]}" --engine $e --vcd "$out/$name-$e.vcd" \
        >"$out/$name-cli-$e.log" 2>&1 || say "$name: resim --engine $e failed: $(tail -1 "$out/$name-cli-$e.log")"
    done
    cmp -s "$out/$name-cpu.vcd" "$out/$name-cuda.vcd" || vcd="DIFFERENT"
    rm -f "$out/$name-cpu.vcd" "$out/$name-cuda.vcd"
  fi
  for e in cpu cuda; do
    "$gp" --quiet resim "${args[@]}" --engine $e --power --period "${period}ns" \
      --json "$out/$name-$e.json" >"$out/$name-power-$e.log" 2>&1 ||
      say "$name: resim --power --engine $e failed: $(tail -1 "$out/$name-power-$e.log")"
  done
  local json
  json=$(python3 bench/numbers-close.py 1e-6 "$out/$name-cpu.json" "$out/$name-cuda.json" 2>&1 | tail -1)
  say "$name: cli vcd $vcd; cli power json: $json"
  "$build/bench/bench_resim" "${args[@]}" --period "$period" --threads "$threads" \
    --repeats "$repeats" --name "$name" ${VARIANTS:+--variants "$VARIANTS"} \
    >"$out/$name-bench.log" 2>&1
  say "$name: bench_resim exit $?"
  grep -v "^row\|^clocks" "$out/$name-bench.log" | tail -6 | tee -a "$out/resim.log"
  while IFS= read -r row; do rows+=("$row	cli-vcd:$vcd"); done < <(grep "^row" "$out/$name-bench.log" | cut -f2-)
}

for d in ${EXAMPLES:-}; do
  name=$(basename "$d")
  top=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['top'])" "$d/flow.json")
  period=$(python3 -c "import json,sys; print('%g' % json.load(open(sys.argv[1]))['clock_period_ns'])" "$d/flow.json")
  dump=$d/regs.vcd
  [ -f "$dump" ] || { gunzip -c "$d/regs.vcd.gz" >"/tmp/$name-regs.vcd"; dump=/tmp/$name-regs.vcd; }
  one_case "$name" "${LIB_OSU:?LIB_OSU: the library of the examples}" "$d/netlist.v" "$top" \
    "$d/netlist.sdf" "$dump" tb/dut "$period"
done

gates=${GATES:-1000000}
if [ "$gates" -gt 0 ]; then
  gen=/tmp/resim-gen
  rm -rf $gen && mkdir -p $gen
  say "generating $gates gates x ${CYCLES:-200} cycles"
  $build/bench/bench_files $gen --gates "$gates" --cycles "${CYCLES:-200}" --no-full --sdf \
    >"$out/gen.log" 2>&1 || say "bench_files failed: $(tail -1 "$out/gen.log")"
  head -3 "$out/gen.log" | tee -a "$out/resim.log"
  CLI_VCD=${GEN_CLI_VCD:-0} one_case "gen$gates" $gen/cells.lib $gen/netlist.v "" \
    $gen/netlist.sdf $gen/regs.vcd top 10
fi

say "done"
printf '%s\n' "case	variant	gates	events_out	cpu_s	plan_s	gpu_cold_s	gpu_s	cpu_Gev/s	gpu_Gev/s	speedup	with_plan	events	power_worst	cli" | tee -a "$out/resim.log"
printf '%s\n' "${rows[@]}" | tee -a "$out/resim.log"
