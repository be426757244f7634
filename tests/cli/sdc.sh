#!/usr/bin/env bash
# sdc.sh: `--sdc` as a user gives it: the period from create_clock, loads
# from set_load (the switching energy checked against C·V²·rises counted
# here), --output-load, a propagated clock at set_input_transition equal to
# the run without SDC, several clocks and --clock NAME, and the errors with
# their file:line and exit status.
set -u
gp=$1
lib=/usr/share/qflow/tech/osu018/osu018_stdcells.lib
[ -f "$lib" ] || { echo "SKIPPED sdc: $lib is missing (scripts/install-deps installs it)"; exit 77; }
"$gp" --version | grep -q '^SDC: read' || { echo "SKIPPED sdc: this build reads no SDC (no tcl-dev)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/t.v" <<'V'
module t(clk, d, q);
  input clk, d; output q;
  wire cb;
  BUFX2 ub (.A(clk), .Y(cb));
  DFFPOSX1 uf (.CLK(cb), .D(d), .Q(q));
endmodule
V
{
  printf '$timescale 1ps $end\n$scope module tb $end\n$scope module dut $end\n'
  printf '$var wire 1 ! clk $end\n$var wire 1 " d $end\n$var wire 1 # q $end\n'
  printf '$var wire 1 $ cb $end\n$upscope $end\n$upscope $end\n$enddefinitions $end\n'
  printf '#0\n$dumpvars\n0!\n0"\n0#\n0$\n$end\n#2000\n1"\n#5000\n1!\n#5060\n1$\n#5300\n1#\n'
  printf '#10000\n0!\n#10060\n0$\n#12000\n0"\n#15000\n1!\n#15060\n1$\n#15300\n0#\n'
  printf '#20000\n0!\n#20060\n0$\n'
} > "$tmp/t.vcd"
cat > "$tmp/t.sdc" <<'S'
set period 10
create_clock -name clk -period $period [get_ports clk]
set_input_transition 0.3 [remove_from_collection [all_inputs] [get_ports clk]]
set_load 0.05 [all_outputs]
set_input_delay [expr {$period * 0.2}] -clock clk [all_inputs]
S
base=(power --lib "$lib" --netlist "$tmp/t.v" --activity "$tmp/t.vcd" --scope tb/dut)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# expect STATUS STDERR_PATTERN ARGS...
expect() {
  local want=$1 pattern=$2 status
  shift 2
  "$gp" "$@" >"$tmp/out" 2>"$tmp/err"; status=$?
  [ "$status" -eq "$want" ] || fail "($*): status $status, expected $want: $(cat "$tmp/err")"
  [ -z "$pattern" ] || grep -Eq -- "$pattern" "$tmp/err" || fail "($*): stderr lacks '$pattern': $(cat "$tmp/err")"
}
field() { awk -F, -v i="$1" -v c="$2" '$1 == i { print $c }' "$3/instances.csv"; }

expect 0 'note 1606: 1 SDC commands' "${base[@]}" --sdc "$tmp/t.sdc" --out "$tmp/o1"
grep -q 'period           10.000 ns' "$tmp/out" || fail "the period is not the SDC clock's: $(cat "$tmp/out")"
# q rises once in the window (0 to 20.06 ns) into the 0.05 pF of set_load;
# osu018's supply is 1.8 V.
sw=$(field uf 5 "$tmp/o1")
awk -v w="$sw" 'BEGIN { e = 1 * 0.05e-12 * 1.8 * 1.8 / 20.06e-9; exit !(w > 0 && (w - e) / e < 1e-6 && (e - w) / e < 1e-6) }' \
  || fail "uf's switching $sw W is not C·V²·rises over the window"
expect 0 '' "${base[@]}" --period 10ns --output-load 0.05pF --out "$tmp/o2"
[ "$(field uf 5 "$tmp/o2")" = "$sw" ] || fail "--output-load 0.05pF gives $(field uf 5 "$tmp/o2"), set_load $sw"

# Propagated at the default 0.1 ns input slew: the run without SDC, bit for bit.
printf 'create_clock -period 10 clk\nset_propagated_clock clk\nset_input_transition 0.1 [all_inputs]\n' > "$tmp/p.sdc"
expect 0 '' "${base[@]}" --sdc "$tmp/p.sdc" --out "$tmp/p"
expect 0 '' "${base[@]}" --period 10ns --out "$tmp/n"
cmp -s "$tmp/p/instances.csv" "$tmp/n/instances.csv" || fail "propagated clock differs from the run without SDC"
# Ideal (no transition): the clock pins at 0 slew read less internal energy.
printf 'create_clock -period 10 clk\nset_input_transition 0.1 [all_inputs]\n' > "$tmp/i.sdc"
expect 0 '' "${base[@]}" --sdc "$tmp/i.sdc" --out "$tmp/i"
awk -v a="$(field uf 4 "$tmp/i")" -v b="$(field uf 4 "$tmp/n")" 'BEGIN { exit !(a < b) }' \
  || fail "the ideal clock's flop internal power is not below the propagated one's"

# Hand-worked on osu018: only the clock moves (d and q stay 0), so the
# flop's internal energy is its CLK pin's passive power, 4 rises and 4
# falls of cb inside [0, 45 ns), at the ideal clock's slew 0, extrapolated
# from DFFPOSX1's tables (rise 0.006865, 0.006943 pJ and fall 0.11034,
# 0.129769 pJ at 0.06 and 0.24 ns).
{
  printf '$timescale 1ps $end\n$scope module tb $end\n$scope module dut $end\n'
  printf '$var wire 1 ! clk $end\n$var wire 1 " d $end\n$var wire 1 # q $end\n'
  printf '$var wire 1 $ cb $end\n$upscope $end\n$upscope $end\n$enddefinitions $end\n'
  printf '#0\n$dumpvars\n0!\n0"\n0#\n0$\n$end\n'
  for c in 0 1 2 3; do
    printf '#%d\n1!\n#%d\n1$\n#%d\n0!\n#%d\n0$\n' $((c * 10000 + 5000)) $((c * 10000 + 5060)) \
      $((c * 10000 + 10000)) $((c * 10000 + 10060))
  done
  printf '#45000\n'
} > "$tmp/clk.vcd"
expect 0 '' power --lib "$lib" --netlist "$tmp/t.v" --activity "$tmp/clk.vcd" --scope tb/dut \
  --sdc "$tmp/i.sdc" --out "$tmp/h"
awk -v w="$(field uf 4 "$tmp/h")" 'BEGIN {
  rise = 0.006865 - 0.06 * (0.006943 - 0.006865) / 0.18
  fall = 0.11034 - 0.06 * (0.129769 - 0.11034) / 0.18
  e = (4 * rise + 4 * fall) * 1e-12 / 45e-9
  exit !((w - e) / e < 1e-6 && (e - w) / e < 1e-6) }' \
  || fail "uf's internal $(field uf 4 "$tmp/h") W is not its CLK energy at slew 0"

# Several clocks: the fastest, or the one --clock names.
printf 'create_clock -name fast -period 5 clk\ncreate_clock -name slow -period 20\n' > "$tmp/two.sdc"
expect 0 "note 1034: .*'fast' \(period 5 ns, the fastest\)" "${base[@]}" --sdc "$tmp/two.sdc"
grep -q 'period           5.000 ns' "$tmp/out" || fail "not the fastest clock's period"
expect 0 "note 1034: .*'slow'" "${base[@]}" --sdc "$tmp/two.sdc" --clock slow
grep -q 'period           20.000 ns' "$tmp/out" || fail "--clock slow not followed"

# Errors: file:line and number; status 1 for inputs, 2 for usage.
printf 'create_clock -period 10 clk\ncreat_clock -period 5 clk\n' > "$tmp/bad.sdc"
expect 1 "bad.sdc:2: error 1602: unknown command 'creat_clock'" "${base[@]}" --sdc "$tmp/bad.sdc"
printf 'set_load 0.1 [all_outputs]\n' > "$tmp/noclock.sdc"
expect 1 'error 1033: the SDC defines no clock' "${base[@]}" --sdc "$tmp/noclock.sdc"
expect 1 'error 1605: ' "${base[@]}" --sdc "$tmp/none.sdc"
expect 2 "error 1035: bad value '10' for --output-load" "${base[@]}" --period 10ns --output-load 10
expect 2 'error 1027: .*--sdc FILE' "${base[@]}"

"$gp" info --lib "$lib" --netlist "$tmp/t.v" --sdc "$tmp/two.sdc" > "$tmp/info" 2>&1 || fail "info --sdc failed"
grep -q 'SDC         2 clocks: fast 5 ns ideal, slow 20 ns virtual; 2 nets on ideal' "$tmp/info" \
  || fail "info does not list the clocks: $(cat "$tmp/info")"
[ "$failures" -eq 0 ] && echo "sdc: all checks passed"
exit $((failures > 0))
