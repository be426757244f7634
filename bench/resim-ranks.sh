#!/usr/bin/env bash
# bench/resim-ranks.sh: `mpirun -np N gatepower resim --power` against one
# process, in one device call (issue 23): builds a Release tree (CUDA,
# MPI), runs the GPU twins of test_resim (each rank's span re-simulated on
# the GPU) and test_power, writes a generated case (bench_files --no-full
# --sdf: its register-only dump and SDF), then times resim --power with
# the cpu engine in one process and with -np 2, 4, 8 (each rank taking
# 16/N cores), --deterministic in one process and -np 4 (whose files must
# be the same bit for bit), the cuda engine in one process and -np 2
# sharing the GPU, and both engines in windows of --memory MEMORY (2G).  Every report.json must equal its engine's one-process
# run within 1e-9 relative (timing aside).  The table last.
#
#   GATES=1000000 CYCLES=200 bash bench/resim-ranks.sh
#
# Knobs: GATES (1000000), CYCLES (200), NPS ("2 4 8"), MEMORY (2G), CASE_DIR
# (/tmp/gp-resim-ranks), BUILD (build-ranks).  Logs in $OUT.
set -u
start=$SECONDS
out=${OUT:-build-ranks/out}
build=${BUILD:-build-ranks}
case_dir=${CASE_DIR:-/tmp/gp-resim-ranks}
gates=${GATES:-1000000} cycles=${CYCLES:-200}
nps=${NPS:-2 4 8}
mkdir -p "$out"
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "[$((SECONDS - start)) s] $*" | tee -a "$out/resim-ranks.log"; }

say "build"
{ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGATEPOWER_CUDA=ON &&
  cmake --build "$build" -j"$(nproc)" --target gatepower bench_files test_resim_cuda \
    test_power_cuda
} >"$out/build.log" 2>&1 || { tail -20 "$out/build.log"; say "FAIL: build"; exit 1; }
gp=$build/gatepower
"$gp" --version | tee -a "$out/resim-ranks.log"
for t in test_resim_cuda test_power_cuda; do
  (cd tests/unit && timeout 200 "../../$build/tests/$t") >"$out/$t.log" 2>&1
  say "$t: exit $? ($(tail -1 "$out/$t.log"))"
done
say "case: $gates gates x $cycles cycles"
mkdir -p "$case_dir"
"$build/bench/bench_files" "$case_dir" --gates "$gates" --cycles "$cycles" --no-full --sdf \
  >"$out/gen.log" 2>&1 || { tail -3 "$out/gen.log"; say "FAIL: bench_files"; exit 1; }
ls -l "$case_dir" | tee -a "$out/resim-ranks.log"
inputs=(--lib "$case_dir/cells.lib" --netlist "$case_dir/netlist.v" --sdf "$case_dir/netlist.sdf"
        --activity "$case_dir/regs.vcd" --scope top --period 10ns --timing)

# name np engine [option...]: one timed run into $out/name (--out) and
# name.json; appends "name wall rc" to times.txt
source "$(dirname "$0")/lib/timed.sh"
run() {
  timed "$1" "$2" "$gp" resim "${inputs[@]}" --power --engine "$3" "${@:4}" \
    --json "$out/$1.json" --out "$out/$1"
  echo "$1 $wall rc=$rc" >>"$out/times.txt"
  say "$1: ${wall} s rc=$rc $(grep '^resim' "$out/$1.err" | head -1)"
  say "$1: $timing"
}

: >"$out/times.txt"
run cpu1 0 cpu
for np in $nps; do run "cpu-np$np" "$np" cpu; done
run det1 0 cpu --deterministic
run det-np4 4 cpu --deterministic
run cuda1 0 cuda
run cuda-np2 2 cuda
run cuda-mem 0 cuda --memory "${MEMORY:-2G}"
run cpu-mem 0 cpu --memory "${MEMORY:-2G}"

# The report without its timing, for comparing runs.
strip() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); r.pop("timing",None); json.dump(r,open(sys.argv[2],"w"))' "$1" "$2"; }
close() { # name reference: "within 1e-9" or the numbers-close line
  strip "$out/$1.json" "$out/$1.cmp.json"; strip "$out/$2.json" "$out/$2.cmp.json"
  python3 bench/numbers-close.py 1e-9 "$out/$2.cmp.json" "$out/$1.cmp.json" 2>&1 | tail -1
}
bits="same"
for f in waveform.csv instances.csv cells.csv; do
  cmp -s "$out/det1/$f" "$out/det-np4/$f" || bits="DIFFERENT ($f)"
done
say "done"
printf 'run\twall_s\tvs\tagreement\n' | tee -a "$out/resim-ranks.log"
while read -r name wall rc; do
  ref=cpu1; case $name in cuda*) ref=cuda1 ;; det*) ref=det1 ;; esac
  agree=$([ "$name" = "$ref" ] && echo "-" || close "$name" "$ref")
  [ "$name" = det-np4 ] && agree="$agree; files bit for bit: $bits"
  printf '%s\t%s\t%s\t%s %s\n' "$name" "$wall" "$ref" "$rc" "$agree" | tee -a "$out/resim-ranks.log"
done <"$out/times.txt"
