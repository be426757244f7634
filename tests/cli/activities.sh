#!/usr/bin/env bash
# activities.sh: `power --activity A --activity B` (two test benches of one
# design) writes each one's files in --out DIR/activity-K, equal to its
# run alone, and in DIR their combination: B's cycles after A's, so that
# the waveform is A's rows then B's (cycles and times shifted by A's), and
# every instance's and cell's power is the two runs' weighted by their
# durations, (P_A T_A + P_B T_B) / (T_A + T_B), worked out here from the
# runs alone.  Two clocks refuse a combination (8016); other commands take
# one activity (1047).
set -u
gp=$1
source "$(dirname "$0")/lib/flop.sh"
flop_setup activities
flop_dump 21 300 > "$tmp/a.vcd"
flop_dump 22 120 > "$tmp/b.vcd"
args=(--quiet power --lib "$lib" --netlist "$tmp/top.v" --scope top --clock clk)
fail=0
for x in a b; do
  "$gp" "${args[@]}" --activity "$tmp/$x.vcd" --out "$tmp/$x" > /dev/null || fail=1
done
"$gp" "${args[@]}" --activity "$tmp/a.vcd" --activity "$tmp/b.vcd" --out "$tmp/ab" \
  > "$tmp/out" 2> "$tmp/err" || { echo "FAIL: two activities: $(cat "$tmp/err")"; exit 1; }
same_csvs "$tmp/a" "$tmp/ab/activity-1" || { echo "FAIL: activity-1 is not a's run"; fail=1; }
same_csvs "$tmp/b" "$tmp/ab/activity-2" || { echo "FAIL: activity-2 is not b's run"; fail=1; }
grep -q "a.vcd .* 300 " "$tmp/out" && grep -q "b.vcd .* 120 " "$tmp/out" ||
  { echo "FAIL: the report lacks the activities' table: $(head -8 "$tmp/out")"; fail=1; }
# The combination, from the runs alone: a's span is its rows times the period.
mkdir -p "$tmp/want"
awk -F, -v OFS=, -v CONVFMT=%.17g 'FNR == 1 { if (NR == 1) print; next }
  FILENAME ~ /\/a\// { print; n++; span = $2 + ($2 - last); last = $2; next }
  { $1 += n; $2 += span; print }' "$tmp/a/waveform.csv" "$tmp/b/waveform.csv" \
  > "$tmp/want/waveform.csv"
ta=$(awk -F, 'END { print NR - 1 }' "$tmp/a/waveform.csv")
tb=$(awk -F, 'END { print NR - 1 }' "$tmp/b/waveform.csv")
for f in instances.csv cells.csv; do
  paste -d '\n' "$tmp/a/$f" "$tmp/b/$f" | awk -F, -v OFS=, -v CONVFMT=%.17g -v ta="$ta" -v tb="$tb" '
    NR == 1 { print; next } NR == 2 { next }
    NR % 2 == 1 { split($0, a, ","); next }
    { for (i = 1; i <= NF; i++) if ($i + 0 == $i && a[i] != $i && i > 2)
        $i = (a[i] * ta + $i * tb) / (ta + tb)
      print }' > "$tmp/want/$f"
done
same_csvs "$tmp/want" "$tmp/ab" || { echo "FAIL: the combination is not the two runs'"; fail=1; }
# Two clocks: b's times doubled (a 20 ns clock)
awk '/^#/ { print "#" substr($0, 2) * 2; next } { print }' "$tmp/b.vcd" > "$tmp/slow.vcd"
"$gp" "${args[@]}" --activity "$tmp/a.vcd" --activity "$tmp/slow.vcd" > /dev/null 2> "$tmp/err" &&
  { echo "FAIL: two clocks combined"; fail=1; }
grep -q "error 8016: the activities' combination needs one clock" "$tmp/err" ||
  { echo "FAIL: two clocks: $(cat "$tmp/err")"; fail=1; }
"$gp" --quiet info --lib "$lib" --netlist "$tmp/top.v" --scope top --activity "$tmp/a.vcd" \
  --activity "$tmp/b.vcd" > /dev/null 2> "$tmp/err" && { echo "FAIL: info took two"; fail=1; }
grep -q "error 1047: --activity is given 2 times" "$tmp/err" ||
  { echo "FAIL: info with two activities: $(cat "$tmp/err")"; fail=1; }
[ $fail = 0 ] && echo "ok: two activities, each alone and combined"
exit $fail
