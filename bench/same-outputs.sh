#!/usr/bin/env bash
# bench/same-outputs.sh: two gatepower binaries give the same files, bit for
# bit, on every example flow and on a generated case, for every engine
# (ref, cpu on 1 and 3 threads, and where both binaries have CUDA and a GPU
# is there, each CUDA variant in fixed point, --deterministic): what a
# change that must not move a number (issue 21) is checked with.
#
#   GP_A=old/gatepower GP_B=new/gatepower bash bench/same-outputs.sh OUT
#
# OUT gets a/ and b/ (every run's --out directory and its stderr) and
# differences.txt (an example's dump may be full.vcd.gz); the table last says, per engine, how many runs were
# compared and how many differ.  Exit status 1 when any file differs or a
# run fails.  Knobs: LIB_OSU (the examples' library), EXAMPLES (directories with flow.json; default every
# build/examples/*), GEN (a bench_files case directory; default: generated
# into OUT/gen with BENCH_FILES, 3000 gates x 60 cycles), ENGINES (default
# "ref cpu1 cpu3", plus the CUDA variants when nvidia-smi finds a GPU),
# TOLERANCE (e.g. 1e-9: a run whose files differ is compared number by
# number with bench/numbers-close.py and counts as moved, not different,
# when every number lies within it; the table then gives the largest move).
set -u
out=${1:?usage: GP_A=... GP_B=... bench/same-outputs.sh OUT}
a=${GP_A:?GP_A: the first gatepower}
b=${GP_B:?GP_B: the second gatepower}
lib_osu=${LIB_OSU:-/usr/share/qflow/tech/osu018/osu018_stdcells.lib}
mkdir -p "$out"
: >"$out/differences.txt"

cuda_variants="naive sipl sipl+part sipl+part+fusion sipl+part+fusion+memo fused part+fusion+memo+warp"
if [ -z "${ENGINES:-}" ]; then
  ENGINES="ref cpu1 cpu3"
  if nvidia-smi -L >/dev/null 2>&1; then
    for v in $cuda_variants; do ENGINES="$ENGINES cuda:$v"; done
  fi
fi

engine_args() { # ENGINE: gatepower's options for it
  case $1 in
    ref) echo --engine ref ;;
    cpu*) echo --engine cpu --threads "${1#cpu}" ;;
    cuda:*) echo --engine cuda --deterministic --cuda-variant "${1#cuda:}" ;;
  esac
}

# The cases: NAME and its input options, one per line (NAME|options).
cases() {
  local d
  for d in ${EXAMPLES:-build/examples/*}; do
    [ -f "$d/flow.json" ] || continue
    local top period
    top=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['top'])" "$d/flow.json")
    period=$(python3 -c "import json,sys; print('%gns' % json.load(open(sys.argv[1]))['clock_period_ns'])" "$d/flow.json")
    local vcd=$d/full.vcd
    [ -f "$vcd" ] || vcd=$d/full.vcd.gz
    local base="--lib $lib_osu --netlist $d/netlist.v --top $top --sdf $d/netlist.sdf --activity $vcd --scope tb/dut --period $period"
    local name; name=$(basename "$d")
    echo "$name|$base"
    echo "$name-noglitch|$base --glitch off --include-io"
  done
  local gen=${GEN:-$out/gen}
  if [ ! -f "$gen/full.vcd" ]; then
    mkdir -p "$gen"
    "${BENCH_FILES:-build/bench/bench_files}" "$gen" --gates 3000 --cycles 60 --no-regs >"$out/gen.log" 2>&1 ||
      { echo "bench_files failed: see $out/gen.log" >&2; exit 1; }
  fi
  local g="--lib $gen/cells.lib --netlist $gen/netlist.v --activity $gen/full.vcd --scope top --period 10ns"
  [ -f "$gen/netlist.sdf" ] && g="$g --sdf $gen/netlist.sdf"
  echo "gen|$g"
  echo "gen-window|$g --window 20ns:300ns"
}

declare -A compared differ moved largest
failed=0
here=$(dirname "$0")
# A run's files that differ: within TOLERANCE (moved) or not (differ).
judge() { # ENGINE TAG
  local verdict
  if [ -n "${TOLERANCE:-}" ] &&
     verdict=$(python3 "$here/numbers-close.py" "$TOLERANCE" "$out/a/$2" "$out/b/$2") &&
     python3 "$here/numbers-close.py" "$TOLERANCE" "$out/a/$2.stdout" "$out/b/$2.stdout" >/dev/null; then
    moved[$1]=$(( ${moved[$1]:-0} + 1 ))
    local move; move=$(echo "$verdict" | awk '/largest relative move/ {print $4}')
    largest[$1]=$(python3 -c "import sys; print('%.3g' % max(float(x) for x in sys.argv[1:]))" "${largest[$1]:-0}" "$move")
    echo "$2 moved: $verdict" >>"$out/differences.txt"
    return
  fi
  differ[$1]=$(( ${differ[$1]:-0} + 1 ))
  echo "$2 differs${verdict:+: $verdict}" >>"$out/differences.txt"
}
while IFS='|' read -r name inputs; do
  for engine in $ENGINES; do
    tag="$name.${engine//[:+]/_}"
    for side in a b; do
      bin=$a; [ $side = b ] && bin=$b
      mkdir -p "$out/$side/$tag"
      # shellcheck disable=SC2086
      if ! "$bin" --quiet power $inputs $(engine_args "$engine") --out "$out/$side/$tag" \
          >"$out/$side/$tag.stdout" 2>"$out/$side/$tag.err"; then
        echo "$tag: $side failed: $(tail -1 "$out/$side/$tag.err")" | tee -a "$out/differences.txt"
        failed=1
      fi
    done
    compared[$engine]=$(( ${compared[$engine]:-0} + 1 ))
    if ! diff -r -q "$out/a/$tag" "$out/b/$tag" >>"$out/differences.txt" 2>&1 ||
       ! cmp -s "$out/a/$tag.stdout" "$out/b/$tag.stdout"; then
      judge "$engine" "$tag"
    fi
  done
done < <(cases)

printf '%-40s %8s %8s %8s %10s\n' engine runs differ moved "largest"
total_differ=0 total_moved=0
for engine in $ENGINES; do
  printf '%-40s %8d %8d %8d %10s\n' "$engine" "${compared[$engine]:-0}" "${differ[$engine]:-0}" \
    "${moved[$engine]:-0}" "${largest[$engine]:-0}"
  total_differ=$(( total_differ + ${differ[$engine]:-0} ))
  total_moved=$(( total_moved + ${moved[$engine]:-0} ))
done
[ $failed = 0 ] && [ $total_differ = 0 ] && [ $total_moved = 0 ] && { echo "same: every file"; exit 0; }
[ $failed = 0 ] && [ $total_differ = 0 ] && { echo "within $TOLERANCE: every file"; exit 0; }
echo "NOT the same: $out/differences.txt"
exit 1
