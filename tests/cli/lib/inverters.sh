# inverters.sh: sourced by the CLI tests: the OSU library (or a skip, exit 77,
# naming the test), a scratch folder removed on exit, and a design of two
# inverters with a dump that toggles every net every 5 ns.
#   inverters_setup TEST STEPS  sets lib and tmp, writes $tmp/top.v and
#                               $tmp/act.vcd (STEPS toggles, scope top)
inverters_setup() {
  local test=$1 steps=$2
  lib=/usr/share/qflow/tech/osu018/osu018_stdcells.lib
  [ -f "$lib" ] || { echo "SKIPPED $test: $lib is missing (scripts/install-deps installs it)"; exit 77; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  cat > "$tmp/top.v" <<'V'
module top (a, y);
  input a; output y;
  wire n;
  INVX1 u1 (.A(a), .Y(n));
  INVX1 u2 (.A(n), .Y(y));
endmodule
V
  {
    printf '$timescale 1ns $end\n$scope module top $end\n$var wire 1 ! a $end\n'
    printf '$var wire 1 " n $end\n$var wire 1 # y $end\n$upscope $end\n$enddefinitions $end\n'
    printf '#0\n0!\n1"\n0#\n'
    for t in $(seq 1 "$steps"); do
      printf '#%d\n%d!\n%d"\n%d#\n' $((t * 5)) $((t % 2)) $(((t + 1) % 2)) $((t % 2))
    done
  } > "$tmp/act.vcd"
}
