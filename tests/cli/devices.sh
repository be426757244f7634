#!/usr/bin/env bash
# devices.sh: `power --engine cuda --devices LIST` cuts each window's
# cycles among the listed GPUs in one process: --devices 0 gives the
# --device 0 run's numbers, and 0,0 and 0,0,0 (lanes sharing one GPU), in
# one window and in --memory windows, equal them within 1e-9 relative,
# every CSV; a --device the host lacks is error 1515.  Skipped without a
# CUDA device.
set -u
gp=$1
source "$(dirname "$0")/lib/flop.sh"
flop_setup devices
"$gp" --version | grep -Eq "^CUDA: built .*; [1-9][0-9]* devices?" ||
  { echo "SKIPPED devices: no CUDA device ($("$gp" --version | grep CUDA))"; exit 77; }
flop_dump 5 2001 > "$tmp/act.vcd"
args=(--quiet power --lib "$lib" --netlist "$tmp/top.v" --scope top --activity "$tmp/act.vcd"
      --period 10ns --engine cuda)
fail=0
for memory in "" "--memory 16K"; do
  "$gp" "${args[@]}" $memory --device 0 --out "$tmp/one" > /dev/null ||
    { echo "FAIL: --device 0 $memory"; fail=1; continue; }
  for devices in 0 0,0 0,0,0; do
    rm -rf "$tmp/lanes"
    "$gp" "${args[@]}" $memory --devices $devices --out "$tmp/lanes" > /dev/null 2> "$tmp/err" ||
      { echo "FAIL: --devices $devices $memory: $(cat "$tmp/err")"; fail=1; continue; }
    same_csvs "$tmp/one" "$tmp/lanes" ||
      { echo "FAIL: --devices $devices $memory: the results differ"; fail=1; }
  done
done
# A --device the host lacks: error 1515, exit 1, from power and resim.
count=$("$gp" --version | sed -nE 's/^CUDA: built .*; ([0-9]+) devices?$/\1/p')
for cmd in power resim; do
  extra=()
  [ $cmd = resim ] && extra=(--power)
  "$gp" $cmd "${extra[@]}" --lib "$lib" --netlist "$tmp/top.v" --scope top --activity "$tmp/act.vcd" \
    --period 10ns --engine cuda --device "$count" > /dev/null 2> "$tmp/err"
  rc=$?
  [ $rc = 1 ] && grep -q "error 1515: --engine cuda: CUDA device $count not found" "$tmp/err" ||
    { echo "FAIL: $cmd --device $count (missing): exit $rc, $(grep -m1 error "$tmp/err")"; fail=1; }
done
[ $fail = 0 ] && echo "ok: --devices 0, 0,0 and 0,0,0 give the one-device results; a missing" \
  "--device is error 1515"
exit $fail
