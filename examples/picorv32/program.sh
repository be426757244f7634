#!/usr/bin/env bash
# program.sh OUT_DIR [RUNS]: Dhrystone for picorv32 (RV32IM, freestanding,
# upstream's start.S, stdlib.c and sections.lds), built from ../shared's
# unchanged sources into OUT_DIR/dhry.hex; RUNS runs (2, instead of
# upstream's 100: the copy in OUT_DIR is changed), so that a gate-level
# simulation stays short (a run takes about 1 500 cycles).
# A boot routine of ours runs each multiply and divide once and clears
# x1-x31 before upstream's start: the core resets neither its registers nor
# the multiplier's and divider's, and a gate-level simulation, which has none
# of RTL's x-optimism, turns what is computed next to a register read before
# it is written into x (an address, at first; x pulses wherever they meet).
set -euo pipefail
out=$1
runs=${2:-2}
src=$(cd "$(dirname "$0")/../../../shared/designs/picorv32/dhrystone" && pwd)
work=$out/dhrystone
mkdir -p "$work"
cp "$src"/{dhry.h,dhry_1.c,dhry_2.c,stdlib.c,start.S,sections.lds} "$work/"
sed -i "s/Number_Of_Runs = 100;/Number_Of_Runs = $runs;/" "$work/dhry_1.c"
grep -q "Number_Of_Runs = $runs;" "$work/dhry_1.c" || { echo "dhry_1.c: no run count to change" >&2; exit 1; }
cflags=(-O3 -mabi=ilp32 -march=rv32im -DTIME -DRISCV -DUSE_MYSTDLIB -ffreestanding -nostdlib
        -Wno-implicit-int -Wno-implicit-function-declaration)
cd "$work"
{
    printf '\t.section .text\n\t.global start0\nstart0:\n'
    for op in mul mulh mulhsu mulhu div divu rem remu; do printf '\t%s x1, x0, x0\n' "$op"; done
    for r in $(seq 1 31); do printf '\taddi x%d, x0, 0\n' "$r"; done
    printf '\tj start\n'
} > start0.S
for f in dhry_1.c dhry_2.c stdlib.c start0.S start.S; do
    riscv64-unknown-elf-gcc -c "${cflags[@]}" "$f"
done
riscv64-unknown-elf-gcc "${cflags[@]}" -Wl,-Bstatic,-T,sections.lds,--strip-debug,--no-warn-rwx-segments \
    -o dhry.elf start0.o start.o dhry_1.o dhry_2.o stdlib.o -lgcc
riscv64-unknown-elf-objcopy -O verilog dhry.elf "$out/dhry.hex"
