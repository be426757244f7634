# flop.sh: sourced by the CLI tests of windows and ranks: the OSU library
# (or a skip, exit 77, naming the test), a scratch folder removed on exit, a
# design of a flop and three gates, the header of its dumps, a random dump
# of many cycles, and the comparison of two runs' CSVs.
#   flop_setup TEST         sets lib and tmp, writes $tmp/top.v (clk, a, b
#                           in; y out; scope top)
#   flop_header             prints a VCD header and $dumpvars for its nets
#   flop_dump SEED CYCLES   prints a dump: a 10 ns clock, three random
#                           changes of a, n, m a cycle, q and y after each rise
#   same_csvs A B           every field of every CSV of output folders A
#                           and B equal, numbers within 1e-9 relative
flop_setup() {
  lib=/usr/share/qflow/tech/osu018/osu018_stdcells.lib
  [ -f "$lib" ] || { echo "SKIPPED $1: $lib is missing (scripts/install-deps installs it)"; exit 77; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  cat > "$tmp/top.v" <<'V'
module top (clk, a, b, y);
  input clk, a, b; output y;
  wire n, m, q;
  NAND2X1 u1 (.A(a), .B(b), .Y(n));
  INVX1 u2 (.A(n), .Y(m));
  DFFPOSX1 r1 (.CLK(clk), .D(m), .Q(q));
  XOR2X1 u3 (.A(q), .B(m), .Y(y));
endmodule
V
}

flop_header() {
  printf '$timescale 1ps $end\n$scope module top $end\n$var wire 1 ! clk $end\n'
  printf '$var wire 1 " a $end\n$var wire 1 # b $end\n$var wire 1 $ n $end\n'
  printf '$var wire 1 %% m $end\n$var wire 1 & q $end\n$var wire 1 '"'"' y $end\n'
  printf '$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n0!\n0"\n1#\n1$\n0%%\nx&\n0'"'"'\n$end\n'
}

flop_dump() {
  flop_header
  awk -v seed="$1" -v cycles="$2" 'BEGIN { srand(seed); for (c = 0; c < cycles; c++) {
    t = c * 10000; printf "#%d\n1!\n", t + 5000; printf "#%d\n0!\n", t + 10000;
    for (k = 0; k < 3; k++) { u = t + 1000 + int(rand() * 8000); v = int(rand() * 2);
      printf "#%d\n%d\"\n%d$\n%d%%\n", u, v, 1 - v, v; }
    printf "#%d\n%d&\n%d'"'"'\n", t + 5100, c % 2, (c + 1) % 2 } }' | awk '
    /^#/ { t = substr($0, 2) + 0; next } { print t, NR, $0 }' | sort -n -k1,1 -k2,2 |
    awk '{ if ($1 != last) print "#" $1; print $3; last = $1 }'
}

same_csvs() {
  for f in waveform.csv instances.csv cells.csv; do
    paste -d '\n' "$1/$f" "$2/$f" | awk -F, -v file="$f" '
      NR % 2 == 1 { split($0, a, ","); next }
      { for (i = 1; i <= NF; i++) {
          x = a[i]; y = $i
          if (x == y) continue
          if (x + 0 == x && y + 0 == y) {
            d = x - y; if (d < 0) d = -d; m = x < 0 ? -x : x; n = y < 0 ? -y : y
            if (d <= 1e-9 * (m > n ? m : n)) continue
          }
          print "FAIL: " file " line " NR / 2 ": " x " vs " y; bad = 1; exit } }
      END { exit bad }' || return 1
  done
}
