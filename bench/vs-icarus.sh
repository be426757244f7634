#!/usr/bin/env bash
# bench/vs-icarus.sh: the register dump to the power report against Icarus
# Verilog's SDF simulation followed by `gatepower power` on its full-net
# dump (issue 22), on picorv32 running Dhrystone, in one device call.
#
#   bash bench/vs-icarus.sh --pack BUILD   (here: BUILD's flow outputs, vvp,
#                                           its VPI modules and libraries
#                                           into .devcarry/icarus)
#   BUILD=DIR bash bench/vs-icarus.sh      (on the device, carrying
#                                           .devcarry; DIR holds gatepower,
#                                           built with CUDA)
#
# The run: Icarus (vvp of the flow's compiled SDF testbench, writing the
# full-net VCD) once, then RUNS times in turns `gatepower power` on that
# VCD and `gatepower resim --power` from the register dump with the cuda
# and the cpu engine, every run writing its report (--out), and, where
# BUILD has bench/bench_cuda_start and ENGINES cuda, a process that only
# starts CUDA and ends it: the floor under resim --power's wall.  Last a
# table: the median of each, Icarus + power against resim --power and
# against the floor, and the two analyses' totals side by side.  Knobs:
# RUNS (3), WORK (/tmp/gp-icarus), REPORT_ONLY (1: each run prints its
# report, no --out), ICARUS_TIMEOUT (seconds Icarus may take: 560),
# ENGINES (resim's: "cuda cpu"), CYCLES (the first CYCLES of the pack's
# cycles: Icarus runs as many, and the register dump is cut after them;
# for a host slower than the pack's cycles allow; `deadline`: Icarus runs
# the pack's cycles until ICARUS_TIMEOUT, where SIGINT, which vvp -n takes
# as $finish, ends its run and its dump cleanly, and the register dump is
# cut after the whole cycles Icarus's dump reached).
#
# A longer run than the flow's: `DHRY_RUNS=R CYCLES=C bash
# bench/vs-icarus.sh --pack BUILD` packs Dhrystone of R runs (about 1 500
# cycles each) and its register dump of C cycles, made here by the flow's
# zero-delay register testbench (regs.vvp) and gzipped; Icarus then runs C
# cycles (about 1.7 ms each on the device's hosts).
set -uo pipefail
pack=.devcarry/icarus
# The pack's program, register dump (gzipped) and cycles replaced by
# DHRY_RUNS runs of Dhrystone over CYCLES cycles.
pack_long_run() {
  local cycles=${CYCLES:?CYCLES: the cycles of the longer run} vvp tmp
  vvp=$(realpath "$1/regs.vvp")
  tmp=$(mktemp -d)
  bash examples/picorv32/program.sh "$tmp" "$DHRY_RUNS" >"$tmp/program.log" 2>&1 ||
    { tail -5 "$tmp/program.log"; exit 1; }
  (cd "$tmp" && vvp -n "$vvp" +vcd="$tmp/regs.vcd" +cycles="$cycles" \
    >"$tmp/regs.log") || { tail -5 "$tmp/regs.log"; exit 1; }
  cp "$tmp/dhry.hex" "$pack/"
  rm "$pack/regs.vcd"
  gzip -c "$tmp/regs.vcd" >"$pack/regs.vcd.gz"
  python3 - "$pack/flow.json" "$cycles" <<'PY'
import json, sys
flow = json.load(open(sys.argv[1]))
flow["cycles"] = int(sys.argv[2])
json.dump(flow, open(sys.argv[1], "w"), indent=1)
PY
  rm -rf "$tmp"
}
if [ "${1:-}" = --pack ]; then
  flow=$2/examples/picorv32
  rm -rf "$pack" && mkdir -p "$pack/ivl" "$pack/lib"
  cp "$flow"/{netlist.sdf,netlist.v,regs.vcd,dhry.hex,flow.json} "$pack/"
  gzip -c "$flow/sdf.vvp" >"$pack/sdf.vvp.gz" # a tenth of its size: the carry is bounded
  cp /usr/share/qflow/tech/osu018/osu018_stdcells.lib "$pack/"
  [ -n "${DHRY_RUNS:-}" ] && pack_long_run "$flow"
  cp /usr/bin/vvp "$pack/"
  cp /usr/lib/x86_64-linux-gnu/ivl/*.vpi "$pack/ivl/"
  for l in $(ldd /usr/bin/vvp "$pack"/ivl/*.vpi | awk '/=>/ {print $3}' | sort -u); do
    case $(basename "$l") in libc.so*|libm.so*|libstdc++*|libgcc_s*) ;; *) cp -L "$l" "$pack/lib/";; esac
  done
  du -sh "$pack"
  exit 0
fi
start=$SECONDS
runs=${RUNS:-3}
work=${WORK:-/tmp/gp-icarus}
out=${OUT:-$work/out}
mkdir -p "$work" "$out"
log=$out/vs-icarus.log
: >"$log"
rm -f "$out"/*.times "$out"/*.json
say() { echo "[$((SECONDS - start)) s] $*" | tee -a "$log"; }
[ -f "$pack/sdf.vvp.gz" ] || { say "FAIL: no $pack (bash bench/vs-icarus.sh --pack BUILD here)"; exit 1; }
here=$(realpath "$pack")
cp "$pack"/{netlist.sdf,dhry.hex} "$work/"
gunzip -c "$pack/sdf.vvp.gz" | sed "s|/usr/lib/x86_64-linux-gnu/ivl/|$here/ivl/|" >"$work/sdf.vvp"
# vvp -n takes SIGINT as $finish: stopped at the deadline, the dump is whole.
[ "${CYCLES:-}" = deadline ] && stop=(-s INT -k 30) || stop=()
icarus() { # CYCLES VCD: Icarus's run of the pack's first CYCLES cycles
  env LD_LIBRARY_PATH="$here/lib" timeout "${stop[@]}" "${ICARUS_TIMEOUT:-560}" bash -c \
    "cd '$work' && exec '$here/vvp' -n sdf.vvp +sdf=netlist.sdf +vcd='$2' +cycles=$1"
}
gp=${BUILD:?BUILD: the build directory with gatepower}/gatepower
regs=$pack/regs.vcd
if [ -f "$pack/regs.vcd.gz" ]; then
  regs=$work/regs.vcd
  gunzip -c "$pack/regs.vcd.gz" >"$regs"
fi
cycles=$(python3 -c "import json; print(json.load(open('$pack/flow.json'))['cycles'])")
top=$(python3 -c "import json; print(json.load(open('$pack/flow.json'))['top'])")
period=$(python3 -c "import json; print(json.load(open('$pack/flow.json'))['clock_period_ns'])")ns
# The register dump cut after CYCLES cycles of the period: its changes
# before that time, which ends the dump.
cut_dump() { # FROM TO CYCLES PERIOD_NS
  python3 - "$@" <<'PY'
import re, sys
src, dst, cycles, period_ns = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
units = {"s": 1e15, "ms": 1e12, "us": 1e9, "ns": 1e6, "ps": 1e3, "fs": 1}
with open(src) as f, open(dst, "w") as out:
    header = []
    for line in f:
        header.append(line)
        if line.startswith("$enddefinitions"):
            break
    scale = re.search(r"\$timescale\s*(\d+)\s*(\w+)", "".join(header))
    end = round(cycles * period_ns * 1e6 / (int(scale.group(1)) * units[scale.group(2)]))
    out.writelines(header)
    for line in f:
        if line.startswith("#") and int(line[1:]) >= end:
            break
        out.write(line)
    out.write("#%d\n" % end)
PY
}
# The whole cycles of the period that a VCD's last time stamp reached.
dump_cycles() { # VCD PERIOD_NS
  python3 - "$@" <<'PY'
import os, re, sys
path, period_ns = sys.argv[1], float(sys.argv[2])
units = {"s": 1e15, "ms": 1e12, "us": 1e9, "ns": 1e6, "ps": 1e3, "fs": 1}
with open(path, "rb") as f:
    scale = re.search(rb"\$timescale\s*(\d+)\s*(\w+)", f.read(1 << 16))
    f.seek(max(0, os.path.getsize(path) - (1 << 20)))
    last = [l for l in f.read().split(b"\n") if l.startswith(b"#")][-1]
fs = int(last[1:]) * int(scale.group(1)) * units[scale.group(2).decode()]
print(int(fs // round(period_ns * 1e6)))
PY
}
# The register dump cut after its first $1 cycles, unless it has no more.
use_cycles() { # CYCLES
  [ "$1" -lt "$cycles" ] || return 0
  cut_dump "$regs" "$work/regs-cut.vcd" "$1" "${period%ns}" || exit 1
  regs=$work/regs-cut.vcd
  cycles=$1
}
[[ "${CYCLES:-}" =~ ^[0-9]+$ ]] && use_cycles "$CYCLES"
say "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
say "picorv32: $cycles cycles of $period, $(python3 -c "import json; print(json.load(open('$pack/flow.json'))['cells'])") cells"

seconds_of() { # label command...: wall seconds, if it succeeded (or reached
  local label=$1 t0 t1 rc seconds # Icarus's deadline), appended to $out/label.times
  shift
  t0=$(date +%s%N)
  "$@" >"$out/$label.stdout" 2>"$out/$label.err"
  rc=$?
  t1=$(date +%s%N)
  seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
  [ "$rc" = 0 ] || [[ "$label $rc" = "icarus 124" && -n "${stop[*]}" ]] &&
    echo "$seconds" >>"$out/$label.times"
  say "$label: $seconds s rc=$rc $(grep '^timing:' "$out/$label.err")"
  [ "$rc" = 0 ] || tail -3 "$out/$label.err"
  return "$rc"
}
seconds_of icarus icarus "$cycles" "$work/full.vcd"
icarus_rc=$?
if [ "${CYCLES:-}" = deadline ] && [ "$icarus_rc" = 124 ]; then
  use_cycles "$(dump_cycles "$work/full.vcd" "${period%ns}")"
  say "Icarus ended at the deadline (SIGINT, \$finish): $cycles whole cycles compared"
elif [ "$icarus_rc" != 0 ]; then
  say "FAIL: Icarus did not finish"
  exit 1
fi
ls -l "$work/full.vcd" | tee -a "$log"
design=(--lib "$pack/osu018_stdcells.lib" --netlist "$pack/netlist.v" --top "$top"
        --sdf "$pack/netlist.sdf" --scope tb.dut --period "$period")
# A run's outputs: its report.json, and its files unless REPORT_ONLY.
outputs() { [ "${REPORT_ONLY:-0}" = 1 ] || echo "--out $out/$1"; echo "--json $out/$1.json"; }
floor=$(dirname "$gp")/bench/bench_cuda_start
for r in $(seq 1 "$runs"); do
  seconds_of power-on-icarus "$gp" --quiet power "${design[@]}" --activity "$work/full.vcd" \
    --engine cuda --timing $(outputs power)
  for e in ${ENGINES:-cuda cpu}; do
    seconds_of resim-$e "$gp" --quiet resim "${design[@]}" --activity "$regs" --power \
      --engine $e --timing $(outputs resim-$e)
  done
  if [ -x "$floor" ] && [[ " ${ENGINES:-cuda cpu} " == *" cuda "* ]]; then
    seconds_of cuda-start "$floor"
    say "  $(cat "$out/cuda-start.stdout")"
  fi
done
python3 - "$out" <<'PY' | tee -a "$log"
import json, os, statistics, sys
d = sys.argv[1]
med = {k: statistics.median(float(x) for x in open(os.path.join(d, k + ".times")))
       for k in ("icarus", "power-on-icarus", "resim-cuda", "resim-cpu", "cuda-start")
       if os.path.exists(os.path.join(d, k + ".times"))}
if "icarus" not in med or "power-on-icarus" not in med:
    sys.exit("no ratio: Icarus or the power analysis of its dump did not succeed")
base = med["icarus"] + med["power-on-icarus"]
print(f"Icarus (vvp, SDF, full VCD)          {med['icarus']:8.3f} s (once)")
print(f"gatepower power on Icarus's VCD      {med['power-on-icarus']:8.3f} s")
print(f"  Icarus + power                     {base:8.3f} s")
for k in ("resim-cuda", "resim-cpu"):
    if k in med:
        print(f"gatepower {k:<10} --power          {med[k]:8.3f} s  {base / med[k]:7.1f}x")
if "cuda-start" in med:
    print(f"CUDA started and ended alone         {med['cuda-start']:8.3f} s  {base / med['cuda-start']:7.1f}x"
          " (the floor: no GPU run is shorter)")
tot = {k: json.load(open(os.path.join(d, k + ".json")))["total"]["total"]
       for k in ("power", "resim-cuda", "resim-cpu") if os.path.exists(os.path.join(d, k + ".json"))}
print("total power: " + ", ".join(f"{k} {v:.6e} W" for k, v in tot.items()))
for k in ("resim-cuda", "resim-cpu"):
    if k in tot and "power" in tot:
        print(f"  {k} against power on Icarus's dump: {abs(tot[k] / tot['power'] - 1):.2e} relative")
PY
