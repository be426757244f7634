#!/usr/bin/env bash
# check_msgids.sh: scripts/check-msgids catches a reused and an out-of-range
# message number, and passes a clean tree.
set -u
here=$(cd "$(dirname "$0")" && pwd)
check=$here/../../scripts/check-msgids
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/verilog" "$tmp/sdf"
printf 'void f(void){ diag_error(d, 3001, loc, "a"); }\n' > "$tmp/verilog/a.c"
printf 'void g(void){ parse_error(p, 4001, "b"); }\n' > "$tmp/sdf/b.c"
"$check" "$tmp" >/dev/null || { echo "FAIL: a clean tree was rejected"; exit 1; }
printf 'void h(void){ diag_report(d, DIAG_WARNING, 3001, loc, "c"); }\n' > "$tmp/verilog/c.c"
out=$("$check" "$tmp") && { echo "FAIL: a reused number passed"; exit 1; }
[[ "$out" == *"message 3001 is also used at"* ]] || { echo "FAIL: $out"; exit 1; }
rm "$tmp/verilog/c.c"
printf 'void i(void){ diag_warn(d, 2001, loc, "d"); }\n' > "$tmp/sdf/d.c"
out=$("$check" "$tmp") && { echo "FAIL: an out-of-range number passed"; exit 1; }
[[ "$out" == *"message 2001 is outside sdf's range 4000-4999"* ]] || { echo "FAIL: $out"; exit 1; }
echo "ok"
