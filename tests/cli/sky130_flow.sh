#!/usr/bin/env bash
# sky130_flow.sh: a sky130hd design written as OpenROAD's flow writes one
# runs with --sdc and no other change: tap and decap cells without timing
# models, an OpenRCX-style SPEF (*BUS_DELIMITER [], a name map, *PORTS,
# *CONN with *I and *P, coupling *CAP entries), an SDC, and a dump whose
# driven nets are given only by the cell models' scopes (u1/Y), as a
# simulator of the netlist with cell models writes them.  Its switching
# power, and its inputs', must equal C·V²·rises counted here by a script of
# its own (pin capacitances read from the library, SPEF totals, set_load)
# within 1e-6.
set -u
gp=$1
lib=$(dirname "$0")/../../../shared/libs/sky130hd_tt.lib.gz
[ -f "$lib" ] || { echo "SKIPPED sky130_flow: $lib is missing"; exit 77; }
"$gp" --version | grep -q '^SDC: read' || { echo "SKIPPED sky130_flow: this build reads no SDC (no tcl-dev)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/top.v" <<'V'
module top (clk, a, b, y);
  input clk, a, b; output y;
  wire n1, n2, q;
  sky130_fd_sc_hd__nand2_1 u1 (.A(a), .B(b), .Y(n1));
  sky130_fd_sc_hd__inv_1 u2 (.A(n1), .Y(n2));
  sky130_fd_sc_hd__dfxtp_1 ff (.CLK(clk), .D(n2), .Q(q));
  sky130_fd_sc_hd__buf_1 u3 (.A(q), .X(y));
  sky130_fd_sc_hd__tapvpwrvgnd_1 TAP_1 ();
  sky130_fd_sc_hd__tapvpwrvgnd_1 TAP_2 ();
  sky130_fd_sc_hd__decap_3 FILLER_0_1 ();
endmodule
V
cat > "$tmp/top.sdc" <<'S'
set clk_period 10
create_clock -name core_clock -period $clk_period [get_ports clk]
set non_clock_inputs [lsearch -inline -all -not -exact [all_inputs] [get_ports clk]]
set_input_delay [expr {$clk_period * 0.2}] -clock core_clock $non_clock_inputs
set_output_delay [expr {$clk_period * 0.2}] -clock core_clock [all_outputs]
set_input_transition 0.1 $non_clock_inputs
set_load 0.02 [all_outputs]
S
cat > "$tmp/top.spef" <<'P'
*SPEF "ieee 1481-1999"
*DESIGN "top"
*DATE "Tue Dec  1 10:00:00 2026"
*VENDOR "The OpenROAD Project"
*PROGRAM "OpenROAD"
*VERSION "2.0"
*DESIGN_FLOW "NETLIST_TYPE_VERILOG"
*DIVIDER /
*DELIMITER :
*BUS_DELIMITER []
*T_UNIT 1 NS
*C_UNIT 1 PF
*R_UNIT 1 OHM
*L_UNIT 1 HENRY

*NAME_MAP
*1 a
*2 b
*3 clk
*4 y
*5 n1
*6 n2
*7 q
*8 u1
*9 u2
*10 ff
*11 u3

*PORTS
*1 I
*2 I
*3 I
*4 O

*D_NET *1 0.0011
*CONN
*P *1 I
*I *8:A I *L 0.0024
*CAP
1 *1 0.0005
2 *8:A 0.0006
*RES
1 *1 *8:A 20.5
*END

*D_NET *2 0.0009
*CONN
*P *2 I
*I *8:B I *L 0.0024
*CAP
1 *2 0.0009
*RES
1 *2 *8:B 11.0
*END

*D_NET *3 0.0021
*CONN
*P *3 I
*I *10:CLK I *L 0.0018
*CAP
1 *3 0.0012
2 *10:CLK 0.0009
*RES
1 *3 *10:CLK 8.0
*END

*D_NET *5 0.0035
*CONN
*I *8:Y O *L 0 *D sky130_fd_sc_hd__nand2_1
*I *9:A I *L 0.0023
*CAP
1 *8:Y 0.001
2 *9:A 0.0005
3 *5:1 0.0015
4 *5:1 *6:1 0.0005
*RES
1 *8:Y *5:1 10.0
2 *5:1 *9:A 12.0
*END

*D_NET *6 0.0017
*CONN
*I *9:Y O
*I *10:D I
*CAP
1 *6:1 0.0012
2 *6:1 *5:1 0.0005
*RES
1 *9:Y *6:1 3.0
2 *6:1 *10:D 4.0
*END

*D_NET *7 0.0008
*CONN
*I *10:Q O
*I *11:A I
*CAP
1 *10:Q 0.0008
*RES
1 *10:Q *11:A 6.0
*END

*D_NET *4 0.0013
*CONN
*I *11:X O
*P *4 O
*CAP
1 *11:X 0.0013
*RES
1 *11:X *4 9.0
*END
P
# The dump: 24 cycles of 10 ns; a and b change at 3 and 6 ns into a cycle
# from a fixed pattern; n1 follows 60 ps later, n2 40 ps after n1, q takes
# n2 at the clock's rise (+250 ps), y q + 90 ps.  n1, n2 and q appear only
# as the cell models' pins (u1/Y, u2/Y, ff/Q); y as a net and as u3/X.
python3 - "$tmp/sim.vcd" <<'PY'
import sys
out = open(sys.argv[1], "w")
out.write("$timescale 1ps $end\n$scope module tb $end\n$var wire 1 ! clk $end\n"
          "$scope module dut $end\n$var wire 1 ! clk $end\n$var wire 1 \" a $end\n"
          "$var wire 1 # b $end\n$var wire 1 $ y $end\n"
          "$scope module u1 $end\n$var wire 1 \" A $end\n$var wire 1 # B $end\n"
          "$var wire 1 % Y $end\n$upscope $end\n"
          "$scope module u2 $end\n$var wire 1 % A $end\n$var wire 1 & Y $end\n$upscope $end\n"
          "$scope module ff $end\n$var wire 1 ! CLK $end\n$var wire 1 & D $end\n"
          "$var wire 1 ' Q $end\n$upscope $end\n"
          "$scope module u3 $end\n$var wire 1 ' A $end\n$var wire 1 $ X $end\n$upscope $end\n"
          "$upscope $end\n$upscope $end\n$enddefinitions $end\n")
changes = {}
def at(t, code, v):
    changes.setdefault(t, []).append(v + code)
a = b = 0
q = 0
n2 = 1
at(0, "!", "0"); at(0, '"', "0"); at(0, "#", "0"); at(0, "%", "1"); at(0, "&", "0")
at(0, "'", "0"); at(0, "$", "0")
pattern_a = "0110100111010010110100101"
pattern_b = "1101011010011101001011010"
for c in range(24):
    t0 = c * 10000
    at(t0 + 5000, "!", "1")
    at(t0 + 10000, "!", "0")
    if c > 0:
        new_q = n2_at_rise
        if new_q != q:
            q = new_q
            at(t0 + 5000 + 250, "'", str(q))
            at(t0 + 5000 + 340, "$", str(q))
    for t, which in ((3000, "a"), (6000, "b")):
        na, nb = int(pattern_a[c]) if which == "a" else a, int(pattern_b[c]) if which == "b" else b
        if (na, nb) == (a, b):
            continue
        old_n1 = 1 - (a & b)
        a, b = na, nb
        at(t0 + t, '"' if which == "a" else "#", str(a if which == "a" else b))
        n1 = 1 - (a & b)
        if n1 != old_n1:
            at(t0 + t + 60, "%", str(n1))
            at(t0 + t + 100, "&", str(1 - n1))
    n2_at_rise = 1 - (1 - (a & b))
for t in sorted(changes):
    out.write("#%d\n" % t)
    for v in changes[t]:
        out.write(v + "\n")
out.write("#240000\n")
PY
"$gp" power --lib "$lib" --netlist "$tmp/top.v" --sdc "$tmp/top.sdc" --spef "$tmp/top.spef" \
  --activity "$tmp/sim.vcd" --scope tb/dut --glitch off --out "$tmp/out" > "$tmp/report" 2> "$tmp/err"
status=$?
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
[ "$status" -eq 0 ] || fail "power exited $status: $(cat "$tmp/err")"
grep -q 'warning 3.*sky130_fd_sc_hd__tapvpwrvgnd_1' "$tmp/err" || fail "no warning names the tap cells: $(cat "$tmp/err")"
grep -q 'warning 1032' "$tmp/err" && fail "the cell models' pins did not annotate the nets: $(cat "$tmp/err")"
grep -q 'note 1039: 1 dumped bits give nets' "$tmp/err" || fail "y, dumped as itself and as u3/X, is not reported: $(cat "$tmp/err")"
grep -q 'error' "$tmp/err" && fail "errors: $(cat "$tmp/err")"
# C·V²·rises from the library, the SPEF and the SDC, by nets; rises after
# the first value, in the window [0, 240 ns).
python3 - "$lib" "$tmp/sim.vcd" "$tmp/top.spef" "$tmp/out/report.json" <<'PY' || failures=$((failures + 1))
import gzip, json, re, sys
lib = gzip.open(sys.argv[1], "rt").read()
def pin_cap(cell, pin):
    body = lib[lib.index('cell ("%s")' % cell):]
    body = body[body.index('pin ("%s")' % pin):]
    return float(re.search(r'^\s*capacitance\s*:\s*([0-9.eE+-]+)', body, re.M).group(1))
volts = float(re.search(r'nom_voltage\s*:\s*([0-9.]+)', lib).group(1))
spef = open(sys.argv[3]).read()
name_map = spef[spef.index("*NAME_MAP"):spef.index("*PORTS")]
names = dict(re.findall(r'^\*(\d+) (\S+)$', name_map, re.M))
wire = {names[k]: float(v) for k, v in re.findall(r'^\*D_NET \*(\d+) (\S+)', spef, re.M)}
pf = 1e-12
loads = {"a": [("sky130_fd_sc_hd__nand2_1", "A")], "b": [("sky130_fd_sc_hd__nand2_1", "B")],
         "clk": [("sky130_fd_sc_hd__dfxtp_1", "CLK")], "n1": [("sky130_fd_sc_hd__inv_1", "A")],
         "n2": [("sky130_fd_sc_hd__dfxtp_1", "D")], "q": [("sky130_fd_sc_hd__buf_1", "A")],
         "y": []}
cap = {n: (sum(pin_cap(c, p) for c, p in loads[n]) + wire[n]) * pf for n in loads}
cap["y"] += 0.02 * pf  # set_load on the output port
code = {"!": "clk", '"': "a", "#": "b", "%": "n1", "&": "n2", "'": "q", "$": "y"}
rises = dict.fromkeys(loads, 0)
value, t = {}, 0
for line in open(sys.argv[2]):
    line = line.strip()
    if line.startswith("#"):
        t = int(line[1:])
    elif line[:1] in "01" and line[1:] in code:
        n = code[line[1:]]
        if n in value and value[n] == "0" and line[0] == "1" and t < 240000:
            rises[n] += 1
        value[n] = line[0]
window = 240e-9
driven = sum(rises[n] * cap[n] for n in ("n1", "n2", "q", "y")) * volts ** 2 / window
inputs = sum(rises[n] * cap[n] for n in ("a", "b", "clk")) * volts ** 2 / window
r = json.load(open(sys.argv[4]))
ok = True
for what, want, got in (("switching", driven, r["total"]["switching"]),
                        ("io_switching", inputs, r["io_switching"])):
    if abs(got - want) > 1e-6 * abs(want):
        print("FAIL: %s %.12g W, C*V^2*rises gives %.12g W" % (what, got, want))
        ok = False
if min(rises.values()) == 0:
    print("FAIL: a net never rises: %s" % rises)
    ok = False
sys.exit(0 if ok else 1)
PY
[ "$failures" -eq 0 ] && echo "sky130_flow: all checks passed"
exit $((failures > 0))
