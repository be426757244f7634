#!/usr/bin/env bash
# info_asap7.sh: `gatepower info` on ../shared's ASAP7 design with its SPEF:
# the counts below are read off reg1_asap7.v and reg1_asap7.spef by hand
# (5 instances; 10 nets; 14 connected pins; flops r1 r2 r3 at level 0, u1 at 1,
# u2 at 2; 10 D_NETs, all naming netlist nets).
set -u
gp=$1
shared=$(cd "$(dirname "$0")/../../.." && pwd)/shared
[ -d "$shared/designs" ] || { echo "SKIPPED info_asap7: ../shared is not here"; exit 77; }
libs=()
for lib in asap7_seq asap7_simple asap7_invbuf; do libs+=(--lib "$shared/libs/$lib.lib.gz"); done
json=$("$gp" info "${libs[@]}" --netlist "$shared/designs/reg1_asap7.v" --top top \
       --spef "$shared/designs/reg1_asap7.spef" --json -) || { echo "FAIL: info failed"; exit 1; }
failures=0
expect() {
  local got
  got=$(python3 -c "import json,sys; print(json.load(sys.stdin)$1)" <<<"$json")
  [ "$got" = "$2" ] || { echo "FAIL: $1 is $got, expected $2"; failures=$((failures + 1)); }
}
expect "['instances']" 5
expect "['nets']" 10
expect "['pins']" 14
expect "['levels']" 3
expect "['spef_nets']" 10
expect "['cells']['DFFHQx4_ASAP7_75t_R']" 3
expect "['cells']['AND2x2_ASAP7_75t_R']" 1
expect "['events']" 0
echo "$failures failures"
[ "$failures" -eq 0 ]
