#!/usr/bin/env bash
# usage.sh: the command line's help, version, errors and exit statuses.
# usage: usage.sh PATH_TO_GATEPOWER
set -u
gp=$1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect STATUS STDOUT_PATTERN STDERR_PATTERN -- ARGS...
expect() {
  local want_status=$1 out_pat=$2 err_pat=$3
  shift 4
  local out err status
  out=$("$gp" "$@" 2>/tmp/gp_usage_err.$$); status=$?
  err=$(cat /tmp/gp_usage_err.$$)
  [ "$status" -eq "$want_status" ] || fail "gatepower $*: status $status, expected $want_status"
  [[ "$out" =~ $out_pat ]] || fail "gatepower $*: stdout does not match '$out_pat': $out"
  [[ "$err" =~ $err_pat ]] || fail "gatepower $*: stderr does not match '$err_pat': $err"
}

expect 0 'usage: gatepower .*commands:.*info.*power.*resim' '^$' -- --help
expect 0 '^gatepower [0-9]+\.[0-9]+\.[0-9]+' '' -- --version
expect 0 'CUDA: ' '' -- --version
expect 2 '^$' 'usage: gatepower' --
expect 2 '^$' '^error 1002: unknown or incomplete option .--bogus.' -- --bogus
expect 2 '^$' '^error 1005: --max-warnings takes a whole number' -- --max-warnings x info
expect 2 '^$' '^error 1005: --max-warnings takes a whole number' -- --max-warnings -1 info
expect 2 '^$' '^error 1003: unknown command .frobnicate.' -- frobnicate
expect 0 'usage: gatepower info .*--lib FILE.*--json' '^$' -- info --help
expect 0 'usage: gatepower power .*--period' '^$' -- power -h
expect 0 'usage: gatepower resim ' '^$' -- help resim
expect 0 'usage: gatepower .*commands:' '^$' -- help
expect 2 '^$' '^error 1004: unknown command .nope.' -- help nope
expect 2 '^$' '^error 1020: .*--threads.*the values the option takes' -- power --threads x
expect 2 '^$' '^error 1020: .*--period.*times need a unit' -- power --period 10
expect 2 '^$' '^error 1012: give the cell library and the netlist' -- info
expect 2 '^$' '^error 1013: --scope names an instance' -- info --lib a.lib --netlist n.v --scope tb/dut
expect 2 '^$' '^error 1011: option --lib needs a value' -- info --lib
expect 2 '^$' "^error 1015: gatepower info: unknown or incomplete option '--frob'" -- info --frob
expect 1 '^$' "error 1101: cannot open 'missing.lib'" -- info --lib missing.lib --netlist n.v
expect 0 'usage: gatepower power .*--period TIME.*--glitch on\|off' '^$' -- power --help
expect 2 '^$' '^error 1022: gatepower power needs switching activity' -- power --lib a.lib --netlist n.v
expect 2 '^$' "^error 1020: bad value '10' for --period" -- power --period 10
expect 2 '^$' "^error 1020: bad value 'maybe' for --glitch" -- power --glitch maybe
expect 2 '^$' "^error 1020: bad value 'gpu' for --engine" -- power --engine gpu
expect 2 '^$' "^error 1020: bad value '-1' for --threads" -- power --threads -1
expect 0 'usage: gatepower resim .*--saif FILE.*--period TIME' '^$' -- resim --help
expect 2 '^$' '^error 1402: gatepower resim needs the register and input activity' -- resim --lib a.lib --netlist n.v
expect 2 '^$' '^error 1027: gatepower resim --power needs the clock' -- resim --lib a.lib --netlist n.v --activity a.vcd --power
expect 2 '^$' '^error 1027: gatepower power needs the clock' -- power --lib a.lib --netlist n.v --activity a.vcd
expect 2 '^$' '^error 1026: gatepower power: give the clock as --period TIME or as --clock NET' \
       -- power --lib a.lib --netlist n.v --activity a.vcd --period 10ns --clock clk
expect 2 '^$' '^error 1020: .*--period' -- power --lib a.lib --netlist n.v --activity a.vcd --period 0x10ns
rm -f /tmp/gp_usage_err.$$
echo "$failures failures"
[ "$failures" -eq 0 ]
