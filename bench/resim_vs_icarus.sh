#!/usr/bin/env bash
# resim_vs_icarus.sh BUILD [DESIGN]: re-simulation time of gatepower against
# Icarus Verilog's SDF-annotated simulation of the same netlist and stimulus,
# both in this one run, on an example of the flow (default mult16, the
# largest).  Icarus: vvp of the flow's compiled SDF testbench, writing its
# full-net VCD.  gatepower: resim from regs.vcd, writing the same VCD, and
# again without writing (the re-simulation alone).  Median of 3 runs each.
set -euo pipefail
build=$1 design=${2:-mult16}
out=$build/examples/$design
lib=/usr/share/qflow/tech/osu018/osu018_stdcells.lib
cmake --build "$build" --target examples >/dev/null
top=$(python3 -c "import json; print(json.load(open('$out/flow.json'))['top'])")
cycles=$(python3 -c "import json; print(json.load(open('$out/flow.json'))['cycles'])")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median_seconds() { # command...: median wall time of 3 runs
  for _ in 1 2 3; do
    local start end
    start=$(date +%s.%N); "$@" >/dev/null 2>&1; end=$(date +%s.%N)
    echo "$end - $start" | bc
  done | sort -n | sed -n 2p
}
gp=("$build/gatepower" --quiet resim --lib "$lib" --netlist "$out/netlist.v" --top "$top"
    --sdf "$out/netlist.sdf" --scope tb/dut --activity "$out/regs.vcd")
icarus=$(cd "$out" && median_seconds vvp -n sdf.vvp +sdf=netlist.sdf "+vcd=$tmp/icarus.vcd" "+cycles=$cycles")
with_vcd=$(median_seconds "${gp[@]}" --vcd "$tmp/resim.vcd")
alone=$(median_seconds "${gp[@]}")
events=$("${gp[0]}" "${gp[@]:2}" 2>&1 >/dev/null | sed -n 's/.* \([0-9]*\) out;.*/\1/p')
printf '%-34s %8.3f s\n' "Icarus Verilog (vvp, SDF, full VCD)" "$icarus"
printf '%-34s %8.3f s   %6.1fx faster\n' "gatepower resim + full VCD" "$with_vcd" "$(echo "$icarus / $with_vcd" | bc -l)"
printf '%-34s %8.3f s   %6.1fx faster\n' "gatepower resim alone" "$alone" "$(echo "$icarus / $alone" | bc -l)"
printf '%-34s %8.1f M gate events/s (%s events out, whole command)\n' "gatepower resim rate" \
       "$(echo "$events / $alone / 1000000" | bc -l)" "$events"
