#!/usr/bin/env bash
# power_errors.sh: bad inputs to `gatepower power` give a clear error and exit
# status 1 (never a report of zeros): an unknown scope, an empty window, a
# window outside the dump, activity with no matching nets, a dump that never
# leaves x, an unknown clock net (found before the activity is read);
# a bad --cuda-variant (status 2), --engine cuda where there is no GPU
# (found before any input is read, by power and by resim), and
# values out of range (an infinite energy, a SPEF capacitance); and info on
# a dump none of whose signals names a net (1031); a dump that gives only some
# of the nets is analysed with warning 1032; the messages of the design's
# files, read beside the activity, come before the dump's.
set -u
gp=$1
lib=/usr/share/qflow/tech/osu018/osu018_stdcells.lib
[ -f "$lib" ] || { echo "SKIPPED power_errors: $lib is missing (scripts/install-deps installs it)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/top.v" <<'V'
module top (a, y);
  input a; output y;
  INVX1 u1 (.A(a), .Y(y));
endmodule
V
cat > "$tmp/act.vcd" <<'V'
$timescale 1ns $end
$scope module tb $end
$scope module dut $end
$var wire 1 ! a $end
$var wire 1 " y $end
$upscope $end
$var wire 1 # other $end
$upscope $end
$enddefinitions $end
#0
0!
1"
0#
#5
1!
0"
#10
0!
1"
#20
1#
V
base=(power --lib "$lib" --netlist "$tmp/top.v" --activity "$tmp/act.vcd")
failures=0
# expect STATUS STDERR_PATTERN ARGS...
expect() {
  local want=$1 pattern=$2 out err status
  shift 2
  out=$("$gp" "$@" 2>"$tmp/err"); status=$?
  err=$(cat "$tmp/err")
  [ "$status" -eq "$want" ] || { echo "FAIL ($*): status $status, expected $want"; failures=$((failures + 1)); }
  [[ "$err" =~ $pattern ]] || { echo "FAIL ($*): stderr '$err' lacks '$pattern'"; failures=$((failures + 1)); }
  [ "$want" -eq 0 ] || [ -z "$out" ] || { echo "FAIL ($*): printed a report: $out"; failures=$((failures + 1)); }
}
expect 0 '' "${base[@]}" --scope tb/dut --period 10ns
expect 1 "error 6005: mismatched scope: 'tb/nope'" "${base[@]}" --scope tb/nope --period 10ns
expect 1 'error 8006: the window .* is empty' "${base[@]}" --scope tb/dut --period 10ns --window 5ns:5ns
expect 1 'error 8011: the window .* lies outside the dump' "${base[@]}" --scope tb/dut --period 10ns \
       --window 30ns:40ns
expect 1 'error 8011: the window .* lies outside the dump' "${base[@]}" --scope tb/dut --period 10ns \
       --window 20ns:30ns
expect 0 '' "${base[@]}" --scope tb/dut --period 10ns --window 15ns:30ns
expect 1 "error 1036: the activity gives only 0 of the 1 nets driven by cells: --scope 'tb' .*try --scope tb/dut" \
       "${base[@]}" --scope tb --period 10ns
sed -e 's/^[01]\(.\)$/x\1/' "$tmp/act.vcd" > "$tmp/allx.vcd"
expect 1 'error 1025: the activity.s 2 signals that name nets never leave x or z' \
       power --lib "$lib" --netlist "$tmp/top.v" --activity "$tmp/allx.vcd" --scope tb/dut --period 10ns
expect 1 "error 8002: --clock: there is no net 'clk'" "${base[@]}" --scope tb/dut --clock clk
expect 1 "error 8003: --clock: net 'a' has fewer than two rising edges" "${base[@]}" --scope tb/dut --clock a
expect 2 'error 1507: --cuda-variant sipl\+bogus: "bogus" is not a variant part' \
       "${base[@]}" --scope tb/dut --period 10ns --cuda-variant sipl+bogus
# --devices: the cuda engine's, in one process, instead of --device
expect 1 'error 1044: --devices: only the cuda engine runs on GPUs' "${base[@]}" --scope tb/dut \
       --period 10ns --devices 0
expect 1 'error 1044: --devices: give --device N or --devices LIST, not both' "${base[@]}" \
       --scope tb/dut --period 10ns --engine cuda --device 0 --devices 0,1
expect 2 "error 1020: bad value '0,,1' for --devices" "${base[@]}" --scope tb/dut --period 10ns \
       --engine cuda --devices 0,,1
expect 2 'error 1046: gatepower resim runs on one GPU' resim --lib "$lib" --netlist "$tmp/top.v" \
       --activity "$tmp/act.vcd" --scope tb/dut --engine cuda --devices 0
if ! nvidia-smi -L >/dev/null 2>&1; then # no GPU: built without CUDA (1501), or no device (1515)
  expect 1 'error 1045: --devices all: this host has no CUDA device' "${base[@]}" --scope tb/dut \
         --period 10ns --engine cuda --devices all
  expect 1 'error 15(01|15): .*--engine cpu' "${base[@]}" --scope tb/dut --period 10ns --engine cuda \
         --devices 0
  expect 1 'error 15(01|15): .*--engine cpu' "${base[@]}" --scope tb/dut --period 10ns --engine cuda
  # found before any input is read: the missing library is not reached
  expect 1 '^error 15(01|15): .*--engine cpu' power --lib "$tmp/missing.lib" --netlist "$tmp/top.v" \
         --activity "$tmp/act.vcd" --scope tb/dut --period 10ns --engine cuda
  expect 1 '^error 15(01|15): .*--engine cpu' resim --lib "$tmp/missing.lib" --netlist "$tmp/top.v" \
         --activity "$tmp/act.vcd" --scope tb/dut --engine cuda
fi
# a --clock net the design lacks, found before the activity is read (it is missing here)
expect 1 "^error 8002: --clock: there is no net 'clk'" power --lib "$lib" --netlist "$tmp/top.v" \
       --activity "$tmp/missing.vcd" --scope tb/dut --clock clk
# Values out of range: a capacitance of 1e100 x 1e300 pF gives an infinite
# energy (8013, naming what spent it: here the input net a), never inf or
# nan in a report; a SPEF
# total beyond the double range is refused where it stands (5020).
cat > "$tmp/huge.lib" <<'L'
library (huge) {
  time_unit : "1ns" ; capacitive_load_unit (1e300, pf) ; voltage_unit : "1V" ;
  leakage_power_unit : "1nW" ; nom_voltage : 1.8 ;
  cell (INVX1) {
    pin (A) { direction : input ; capacitance : 1e100 ; }
    pin (Y) { direction : output ; function : "!A" ; } }
}
L
expect 1 "error 8013: the switching energy of the nets driven by primary inputs is not a finite number" \
       power --lib "$tmp/huge.lib" --netlist "$tmp/top.v" --activity "$tmp/act.vcd" --scope tb/dut \
       --period 10ns
{
  printf '*SPEF "IEEE 1481-1998"\n*DESIGN "top"\n*DATE "d"\n*VENDOR "v"\n*PROGRAM "p"\n'
  printf '*VERSION "1"\n*DESIGN_FLOW "x"\n*DIVIDER /\n*DELIMITER :\n*BUS_DELIMITER [ ]\n'
  printf '*T_UNIT 1 NS\n*C_UNIT 1e30 PF\n*R_UNIT 1 OHM\n*L_UNIT 1 HENRY\n\n'
  printf '*D_NET y 1e300\n*CONN\n*I u1:Y O\n*END\n'
} > "$tmp/huge.spef"
expect 1 "huge.spef:16:10: error 5020: total capacitance of net 'y' is out of range" \
       "${base[@]}" --spef "$tmp/huge.spef" --scope tb/dut --period 10ns
# a dump that gives only some of the nets: the report, and a warning naming
# them; one that gives fewer than half the driven nets is refused
grep -v '!' "$tmp/act.vcd" > "$tmp/half.vcd" # a's declaration and changes left out
expect 0 "warning 1032: the activity gives 1 of the 1 nets driven by cells \\(100.0%\\) and 0 of the 1 primary inputs.*without activity: a " \
       power --lib "$lib" --netlist "$tmp/top.v" --activity "$tmp/half.vcd" --scope tb/dut \
       --period 10ns
expect 0 "note 1037: net 'a' \\(a primary input\\) has no activity" \
       power --lib "$lib" --netlist "$tmp/top.v" --activity "$tmp/half.vcd" --scope tb/dut \
       --period 10ns --list-unannotated
"$gp" info --lib "$lib" --netlist "$tmp/top.v" --activity "$tmp/half.vcd" --scope tb/dut \
  --json - 2>/dev/null | tr -d ' \n' | grep -q '"nets_annotated":1,"nets_unannotated":1' \
  || { echo "FAIL: info --json does not count the annotated nets"; failures=$((failures + 1)); }
grep -v '"' "$tmp/act.vcd" > "$tmp/regs.vcd" # y's declaration and changes left out
expect 1 "error 1038: the activity gives only 0 of the 1 nets driven by cells" \
       power --lib "$lib" --netlist "$tmp/top.v" --activity "$tmp/regs.vcd" --scope tb/dut \
       --period 10ns
# info prints what matched, and refuses a dump none of whose signals names a net
"$gp" info --lib "$lib" --netlist "$tmp/top.v" --activity "$tmp/act.vcd" --scope tb \
  > "$tmp/info.out" 2> "$tmp/err"
status=$?
[ $status = 1 ] && grep -q "error 1031: none of the activity's 3 signals under --scope 'tb'" \
  "$tmp/err" && grep -q '^activity' "$tmp/info.out" ||
  { echo "FAIL: info on a scope matching nothing: status $status: $(cat "$tmp/err")"; failures=$((failures + 1)); }
# The design's files are read beside the activity, yet the messages come as
# one after the other: the netlist's, then the dump's (none when the netlist
# fails, whose error is then alone); the same for info.
sed -e 's/^endmodule/  parameter P = 1;\nendmodule/' "$tmp/top.v" > "$tmp/param.v"
sed -e 's/^\$upscope \$end$/$var real 64 % level $end\n$upscope $end/' "$tmp/act.vcd" |
  sed -e '0,/\$var real/!{/\$var real/d}' > "$tmp/real.vcd"
for cmd in power info; do
  clock=(); [ $cmd = power ] && clock=(--period 10ns)
  "$gp" $cmd --lib "$lib" --netlist "$tmp/param.v" --activity "$tmp/real.vcd" --scope tb/dut \
    "${clock[@]}" >/dev/null 2>"$tmp/err"
  [[ "$(grep -o '^[^ ]* *[a-z]* [0-9]*' "$tmp/err" | grep -o '[0-9]*$' | tr '\n' ' ')" == "3101 6002 "* ]] ||
    { echo "FAIL: $cmd: the netlist's warning first, then the dump's: $(cat "$tmp/err")"; failures=$((failures + 1)); }
  printf 'garbage\n' >> "$tmp/param.v"
  "$gp" $cmd --lib "$lib" --netlist "$tmp/param.v" --activity "$tmp/missing.vcd" \
    --scope tb/dut "${clock[@]}" >/dev/null 2>"$tmp/err"
  [ $? = 1 ] && grep -q 'error 3001' "$tmp/err" && ! grep -q 'error 1101\|6002' "$tmp/err" ||
    { echo "FAIL: $cmd: a bad netlist's error alone: $(cat "$tmp/err")"; failures=$((failures + 1)); }
  sed -i '$d' "$tmp/param.v"
done
echo "$failures failures"
[ "$failures" -eq 0 ]
