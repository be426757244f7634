#!/usr/bin/env bash
# bench/ranks.sh: `mpirun -np N gatepower power` against one process, in one
# device call (issue 23): builds a Release tree (CUDA, MPI), writes the
# generated case (bench_files: GATES x CYCLES, full-net VCD), then times
# one process and mpirun -np 2, 4, 8, 16 with the cpu engine (each rank
# taking 16/N cores), the same with one thread a rank (--threads 1: the
# ranks as the only parallelism, as on hosts of their own), and with the
# cuda engine one process, -np 2 sharing the GPU, and one process with
# --devices 0 and --devices 0,0 (two lanes on the GPU), REPEAT times each
# in turns, every run with --timing (rank 0's phases).  Every run's report.json must equal its engine's
# one-process run within 1e-9 relative (timing aside).  The table last.
#
#   GATES=300000 CYCLES=1000 bash bench/ranks.sh
#
# Knobs: GATES (300000), CYCLES (1000), REPEAT (3), NPS ("2 4 8 16"),
# T1_NPS (NPS: the one-thread series; "" leaves it out),
# CASE_DIR (/tmp/gp-ranks), BUILD (build-ranks), SKIP_BUILD=1 (BUILD as it
# is).  Logs in $OUT.
set -u
start=$SECONDS
out=${OUT:-build-ranks/out}
build=${BUILD:-build-ranks}
case_dir=${CASE_DIR:-/tmp/gp-ranks}
gates=${GATES:-300000} cycles=${CYCLES:-1000} repeat=${REPEAT:-3}
nps=${NPS:-2 4 8 16}
t1_nps=${T1_NPS-$nps}
mkdir -p "$out"
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "[$((SECONDS - start)) s] $*" | tee -a "$out/ranks.log"; }

[ -n "${SKIP_BUILD:-}" ] || say "build"
[ -n "${SKIP_BUILD:-}" ] || { cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGATEPOWER_CUDA=ON &&
  cmake --build "$build" -j"$(nproc)" --target gatepower bench_files
} >"$out/build.log" 2>&1 || { tail -20 "$out/build.log"; say "FAIL: build"; exit 1; }
gp=$build/gatepower
"$gp" --version | tee -a "$out/ranks.log"
say "case: $gates gates x $cycles cycles"
mkdir -p "$case_dir"
"$build/bench/bench_files" "$case_dir" --gates "$gates" --cycles "$cycles" --no-regs \
  >"$out/gen.log" 2>&1 || { tail -3 "$out/gen.log"; say "FAIL: bench_files"; exit 1; }
ls -l "$case_dir" | tee -a "$out/ranks.log"
cat "$case_dir/full.vcd" >/dev/null
inputs=(--lib "$case_dir/cells.lib" --netlist "$case_dir/netlist.v" --activity "$case_dir/full.vcd"
        --scope top --period 10ns --timing)

# name np engine [option...]: one timed run; appends "name wall ..." to
# times.txt
source "$(dirname "$0")/lib/timed.sh"
run() {
  timed "$1" "$2" "$gp" --quiet power "${inputs[@]}" --engine "$3" "${@:4}" --json "$out/$1.json"
  echo "$1 $wall rc=$rc $timing" >>"$out/times.txt"
  say "$1: rc=$rc wall $wall s; $timing"
  [ $rc = 0 ] || tail -3 "$out/$1.err"
}
: >"$out/times.txt"
for _ in $(seq "$repeat"); do
  run cpu-1proc 0 cpu
  for np in $nps; do run "cpu-np$np" "$np" cpu; done
  if [ -n "$t1_nps" ]; then
    run cpu-t1-1proc 0 cpu --threads 1
    for np in $t1_nps; do run "cpu-t1-np$np" "$np" cpu --threads 1; done
  fi
  run cuda-1proc 0 cuda
  run cuda-np2 2 cuda
  run cuda-devices0 0 cuda --devices 0
  run cuda-devices00 0 cuda --devices 0,0
done
python3 - "$out" "$nps" "$t1_nps" <<'PY' | tee -a "$out/ranks.log"
import json, os, sys, statistics
out, nps, t1_nps = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
def numbers(x, path=""):
    if isinstance(x, dict):
        for k, v in x.items():
            if k != "timing":
                yield from numbers(v, path + "/" + k)
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from numbers(v, f"{path}[{i}]")
    elif isinstance(x, (int, float)) and not isinstance(x, bool):
        yield path, float(x)
def worst(a, b):
    if not all(os.path.exists(os.path.join(out, f + ".json")) for f in (a, b)):
        return float("nan")
    A = dict(numbers(json.load(open(os.path.join(out, a + ".json")))))
    B = dict(numbers(json.load(open(os.path.join(out, b + ".json")))))
    if A.keys() != B.keys():
        return float("inf")
    return max((abs(A[k] - B[k]) / max(abs(A[k]), abs(B[k]), 1e-300)
                for k in A if A[k] != B[k]), default=0.0)
times = {}
for line in open(os.path.join(out, "times.txt")):
    f = line.split()
    times.setdefault(f[0], []).append(float(f[1]))
print("run\tranks\twall_s(median)\tspeedup\tefficiency\tworst_rel_vs_1proc")
def series(prefix, nps):
    base = statistics.median(times[f"{prefix}-1proc"])
    print(f"{prefix}-1proc\t1\t{base:.3f}\t1.00\t1.00\t0")
    for np in nps:
        t = statistics.median(times[f"{prefix}-np{np}"])
        print(f"{prefix}-np{np}\t{np}\t{t:.3f}\t{base / t:.2f}\t{base / t / int(np):.2f}\t"
              f"{worst(f'{prefix}-1proc', f'{prefix}-np{np}'):.1e}")
series("cpu", nps)
if t1_nps:
    series("cpu-t1", t1_nps)
c1 = statistics.median(times["cuda-1proc"])
c2 = statistics.median(times["cuda-np2"])
print(f"cuda-1proc\t1\t{c1:.3f}\t-\t-\t{worst('cpu-1proc', 'cuda-1proc'):.1e} (vs cpu)")
print(f"cuda-np2\t2\t{c2:.3f}\t{c1 / c2:.2f}\t-\t{worst('cuda-1proc', 'cuda-np2'):.1e}")
for name in ("cuda-devices0", "cuda-devices00"):
    t = statistics.median(times[name])
    print(f"{name}\t1\t{t:.3f}\t{c1 / t:.2f}\t-\t{worst('cuda-1proc', name):.1e}")
PY
say "done"
