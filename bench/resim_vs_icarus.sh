#!/usr/bin/env bash
# resim_vs_icarus.sh BUILD [DESIGN [RUNS]]: re-simulation time of gatepower
# against Icarus Verilog's SDF-annotated simulation of the same netlist and
# stimulus, both in this one run, on an example of the flow (default mult16,
# the largest).  Icarus: vvp of the flow's compiled SDF testbench, writing its
# full-net VCD.  gatepower: resim from regs.vcd (reading library, netlist,
# SDF and dump: the whole command), writing the same VCD, and again without
# writing (the re-simulation alone).  The three are run in turn RUNS times
# (default 5), so that other work on the machine hits them alike; each
# figure is the median, with the range.
set -euo pipefail
build=$1 design=${2:-mult16} runs=${3:-5}
out=$build/examples/$design
lib=/usr/share/qflow/tech/osu018/osu018_stdcells.lib
cmake --build "$build" --target examples >/dev/null
top=$(python3 -c "import json; print(json.load(open('$out/flow.json'))['top'])")
cycles=$(python3 -c "import json; print(json.load(open('$out/flow.json'))['cycles'])")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

seconds() { # command...: its wall time
  local start end
  start=$(date +%s.%N); "$@" >/dev/null 2>&1; end=$(date +%s.%N)
  echo "$end - $start" | bc
}
median() { sort -n "$1" | awk '{t[NR] = $1} END {print t[int((NR + 1) / 2)]}'; }
range() { sort -n "$1" | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%.3f-%.3f", lo, hi}'; }
gp=("$build/gatepower" --quiet resim --lib "$lib" --netlist "$out/netlist.v" --top "$top"
    --sdf "$out/netlist.sdf" --scope tb/dut --activity "$out/regs.vcd")
for _ in $(seq "$runs"); do
  (cd "$out" && seconds vvp -n sdf.vvp +sdf=netlist.sdf "+vcd=$tmp/icarus.vcd" "+cycles=$cycles") >>"$tmp/icarus"
  seconds "${gp[@]}" --vcd "$tmp/resim.vcd" >>"$tmp/with_vcd"
  seconds "${gp[@]}" >>"$tmp/alone"
done
icarus=$(median "$tmp/icarus") with_vcd=$(median "$tmp/with_vcd") alone=$(median "$tmp/alone")
events=$("${gp[0]}" "${gp[@]:2}" 2>&1 >/dev/null | sed -n 's/.* \([0-9]*\) out;.*/\1/p')
echo "median of $runs runs each (range), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s %8.3f s (%s)\n' "Icarus Verilog (vvp, SDF, full VCD)" "$icarus" "$(range "$tmp/icarus")"
printf '%-34s %8.3f s (%s)  %6.1fx faster\n' "gatepower resim + full VCD" "$with_vcd" \
       "$(range "$tmp/with_vcd")" "$(echo "$icarus / $with_vcd" | bc -l)"
printf '%-34s %8.3f s (%s)  %6.1fx faster\n' "gatepower resim alone" "$alone" \
       "$(range "$tmp/alone")" "$(echo "$icarus / $alone" | bc -l)"
printf '%-34s %8.1f M gate events/s (%s events out, whole command)\n' "gatepower resim rate" \
       "$(echo "$events / $alone / 1000000" | bc -l)" "$events"
