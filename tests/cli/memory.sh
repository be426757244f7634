#!/usr/bin/env bash
# memory.sh: `power --memory SIZE` reads and analyses the activity in
# windows of whole cycles: with a bound that cuts the dump into many of
# them (in file order; on threads, where the dump's two parts are two
# windows; given and measured periods, a --window), every number of every CSV equals the one-window run's within
# 1e-9 relative; --timing says how many windows there were; a bad size is
# refused with what to give.
set -u
gp=$1
lib=/usr/share/qflow/tech/osu018/osu018_stdcells.lib
[ -f "$lib" ] || { echo "SKIPPED memory: $lib is missing (scripts/install-deps installs it)"; exit 77; }
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
{
  printf '$timescale 1ps $end\n$scope module top $end\n$var wire 1 ! clk $end\n'
  printf '$var wire 1 " a $end\n$var wire 1 # b $end\n$var wire 1 $ n $end\n'
  printf '$var wire 1 %% m $end\n$var wire 1 & q $end\n$var wire 1 '"'"' y $end\n'
  printf '$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n0!\n0"\n1#\n1$\n0%%\nx&\n0'"'"'\n$end\n'
  awk 'BEGIN { srand(7); for (c = 0; c < 25000; c++) { t = c * 10000;
    printf "#%d\n1!\n", t + 5000; printf "#%d\n0!\n", t + 10000;
    for (k = 0; k < 3; k++) { u = t + 1000 + int(rand() * 8000); v = int(rand() * 2);
      printf "#%d\n%d\"\n%d$\n%d%%\n", u, v, 1 - v, v; }
    printf "#%d\n%d&\n%d'"'"'\n", t + 5100, c % 2, (c + 1) % 2 } }' | awk '
    /^#/ { t = substr($0, 2) + 0; next } { print t, NR, $0 }' | sort -n -k1,1 -k2,2 |
    awk '{ if ($1 != last) print "#" $1; print $3; last = $1 }'
} > "$tmp/act.vcd"
fail=0
args=(--lib "$lib" --netlist "$tmp/top.v" --activity "$tmp/act.vcd" --scope top)
# Every field of every CSV of two output folders, numbers within 1e-9.
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
for clock in "--period 10ns" "--clock clk" "--period 10ns --window 1234ns:200us"; do
  "$gp" --quiet power "${args[@]}" $clock --out "$tmp/whole" > /dev/null || fail=1
  for threads in 1 3; do
    "$gp" --quiet power "${args[@]}" $clock --memory 16K --threads $threads --timing \
      --out "$tmp/windows" > /dev/null 2> "$tmp/err" || fail=1
    windows=$(sed -n 's/.*activity in \([0-9]*\) windows.*/\1/p' "$tmp/err")
    least=$([ $threads = 1 ] && echo 100 || echo 1) # on threads, parts of 1 MiB at least
    [ "${windows:-0}" -gt $least ] ||
      { echo "FAIL: $clock --threads $threads: ${windows:-no} windows: $(cat "$tmp/err")"; fail=1; }
    same_csvs "$tmp/whole" "$tmp/windows" ||
      { echo "FAIL: $clock --threads $threads: the windows' results differ"; fail=1; }
  done
done
for bad in 0 12Q -5 1.5G; do
  "$gp" --quiet power "${args[@]}" --period 10ns --memory "$bad" > /dev/null 2> "$tmp/err"
  status=$?
  [ $status = 2 ] && grep -q "error 1029: bad value '$bad' for --memory" "$tmp/err" ||
    { echo "FAIL: --memory $bad: status $status: $(cat "$tmp/err")"; fail=1; }
done
[ $fail = 0 ] && echo "ok: --memory windows give the one-window results"
exit $fail
