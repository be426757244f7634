#!/usr/bin/env bash
# bench/cuda.sh: the GPU measurements of issue 6 in one device call.  Run from
# the repository root on the machine with the GPU:
#
#   bash bench/cuda.sh
#
# 1. builds a Release tree with the CUDA engine in build-cuda/ (all cores);
# 2. runs the GPU tests there (ctest -L gpu);
# 3. runs bench_cuda (checks against the reference and CPU engines, then the
#    timed, interleaved variants with NVML clocks) on each example found
#    under $DEVCARRY/examples/<design>/ (netlist.v, full.vcd.gz or full.vcd,
#    flow.json for top, scope and period; library $DEVCARRY/osu018_stdcells.lib)
#    and on two generated cases: MID_GATES gates / MID_PIN_EVENTS pin events and
#    BIG_GATES / BIG_PIN_EVENTS (default 1 M gates, 1.05e9 pin events);
# 4. prints a summary last: per case, and the ablation's geometric means.
#
# Logs go to $OUT (the device tool's folder, brought back) or else to
# build-cuda/bench-out: build.log, ctest.log, bench.log (every case in full),
# results.tsv (bench_cuda --tsv rows), summary.txt.
#
# The device machine reaches no package registry, so nothing is installed:
# a missing tool or library stops the script with a message saying what to
# carry.  It needs nvcc, cmake >= 3.25, a C compiler and zlib's headers
# (zlib1g-dev); liblz4 and the fstapi sources are optional (FST support).
#
# Time: the build takes a minute or two; the big case's reference run about
# 75 s (one core at ~14 M pin events/s) and the whole of it 3 to 4 minutes;
# the script must end inside one 10-minute call.  When less than
# BIG_NEEDS_S seconds are left of DEADLINE_S, the big case runs without the
# reference (checked against the CPU engine) and the summary says so.
#
# Knobs (environment): DEVCARRY (.devcarry), BUILD (build-cuda), SKIP_BUILD=1,
# CASES ("examples mid big"), MID_GATES (100000), MID_PIN_EVENTS (2e8),
# BIG_GATES (1000000), BIG_PIN_EVENTS (1.05e9), ROUNDS (5 big, 15 others),
# DEADLINE_S (570), BIG_NEEDS_S (240), BENCH_CUDA (the binary),
# BENCH_FLAGS (extra bench_cuda options), GATEPOWER_CUDA (ON).
set -uo pipefail

start=$SECONDS
carry=${DEVCARRY:-.devcarry}
build=${BUILD:-build-cuda}
out=${OUT:-$build/bench-out}
cases=${CASES:-examples mid big}
mid_gates=${MID_GATES:-100000}
mid_events=${MID_PIN_EVENTS:-2e8}
big_gates=${BIG_GATES:-1000000}
big_events=${BIG_PIN_EVENTS:-1.05e9}
deadline=${DEADLINE_S:-570}
big_needs=${BIG_NEEDS_S:-240}
read -r -a flags <<<"${BENCH_FLAGS:-}"
mkdir -p "$out"
log=$out/bench.log
tsv=$out/results.tsv
summary=$out/summary.txt
: >"$log"
: >"$tsv"
notes=()     # said in the summary
problems=()  # said too, and they make it FAIL

say() { echo "[$((SECONDS - start)) s] $*" | tee -a "$log"; }
die() { say "cuda.sh: $*"; exit 3; }

# ---- 1. tools and build -----------------------------------------------------------
build_tree() {
  command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
  command -v nvcc >/dev/null || die "no nvcc (looked on PATH and in /usr/local/cuda/bin)"
  command -v cmake >/dev/null || die "no cmake"
  local zlib=()
  if ! echo '#include <zlib.h>' | cc -E - >/dev/null 2>&1; then
    # No zlib1g-dev: use a carried .deb (apt-get download zlib1g-dev), unpacked aside.
    local debs=("$carry"/debs/zlib1g-dev_*.deb) libs
    [ -f "${debs[0]}" ] || die "zlib's headers are missing and no $carry/debs/zlib1g-dev_*.deb was carried"
    dpkg -x "${debs[0]}" /tmp/gp-deps || die "could not unpack ${debs[0]}"
    libs=(/tmp/gp-deps/usr/lib/*/libz.a)
    zlib=(-DZLIB_INCLUDE_DIR=/tmp/gp-deps/usr/include -DZLIB_LIBRARY="${libs[0]}")
    notes+=("zlib from ${debs[0]}")
  fi
  say "nvcc $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), $(cmake --version | head -1), $(nproc) cores"
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGATEPOWER_CUDA="${GATEPOWER_CUDA:-ON}" \
        "${zlib[@]}" >"$out/build.log" 2>&1 || { tail -20 "$out/build.log"; die "configure failed (build.log)"; }
  cmake --build "$build" -j"$(nproc)" >>"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; die "build failed (build.log)"; }
  grep -E "gatepower: (CUDA|FST)" "$out/build.log" | tee -a "$log"
  say "built $build"
}

gpu_tests() {
  (cd "$build" && ctest -L gpu --output-on-failure) >"$out/ctest.log" 2>&1
  local rc=$?
  ctest_line=$(grep -E "tests passed|tests failed" "$out/ctest.log" | tail -1)
  say "ctest -L gpu: ${ctest_line:-no result} (exit $rc)"
  [ $rc -eq 0 ] || { grep -E "Failed|SKIPPED" "$out/ctest.log" | tee -a "$log"; problems+=("ctest -L gpu FAILED"); }
  if grep -q "Skipped" "$out/ctest.log"; then problems+=("ctest -L gpu: tests skipped (no GPU seen?)"); fi
  if grep -q "No tests were found" "$out/ctest.log"; then problems+=("ctest -L gpu: no tests"); fi
}

# ---- 3. the cases -------------------------------------------------------------------
bench() { # NAME ARGS...: one bench_cuda run, into the log and the rows
  local name=$1
  shift
  say "== $name: bench_cuda $*"
  "${BENCH_CUDA:-$build/bench/bench_cuda}" --name "$name" --tsv "$tsv" "${flags[@]}" "$@" 2>&1 | tee -a "$log"
  local rc=${PIPESTATUS[0]}
  [ "$rc" -eq 0 ] || problems+=("$name: bench_cuda exit $rc")
  say "== $name done (exit $rc)"
}

json_field() { # FILE KEY: a top-level scalar of flow.json
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2" 2>/dev/null ||
    sed -n "s/^ *\"$2\": *\"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1" | head -1
}

examples() {
  local lib=$carry/osu018_stdcells.lib dir vcd found=0
  [ -f "$lib" ] || lib=/usr/share/qflow/tech/osu018/osu018_stdcells.lib
  for dir in "$carry"/examples/*/; do
    if [ ! -f "$dir/netlist.v" ] || [ ! -f "$dir/flow.json" ]; then continue; fi
    vcd=$dir/full.vcd.gz
    [ -f "$vcd" ] || vcd=$dir/full.vcd
    [ -f "$vcd" ] || { problems+=("$(basename "$dir"): no full.vcd(.gz)"); continue; }
    [ -f "$lib" ] || { problems+=("examples: no $carry/osu018_stdcells.lib"); return; }
    found=$((found + 1))
    bench "$(basename "$dir")" --rounds "${ROUNDS:-15}" "$lib" "$dir/netlist.v" \
          "$(json_field "$dir/flow.json" top)" "$vcd" "$(json_field "$dir/flow.json" scope)" \
          "$(json_field "$dir/flow.json" clock_period_ns)"
  done
  [ "$found" -gt 0 ] || problems+=("no example under $carry/examples/*/ (netlist.v, flow.json)")
}

big() {
  local left=$((deadline - (SECONDS - start))) ref=()
  if [ "$left" -lt "$big_needs" ]; then
    ref=(--no-ref)
    problems+=("gen-big: only ${left} s left: ran WITHOUT the reference (checked against the CPU engine)")
  fi
  bench "gen-$big_gates" --rounds "${ROUNDS:-5}" --pin-events "$big_events" "${ref[@]}" gen "$big_gates"
}

# ---- 4. the summary -----------------------------------------------------------------
# results.tsv rows (bench_cuda.c, write_tsv):
#   case NAME INSTS PIN_EVENTS REF_S CPU_S CPU_THREADS GPU_E2E_S FIRST_OPEN_S RESULT
#   variant NAME LABEL FLAGS(sipl,part,fusion,memo,warp,det; "t" first: not the default target)
#           CHECK WORST COLD_S SUSTAINED_S KEPT ROUNDS
# Geometric means over cases of the sustained kernel-time ratios.
summarize() {
  awk -F'\t' -v min_events="${1:-0}" '
    $1 == "case" && $4 >= min_events { use[$2] = 1 }
    $1 == "variant" && !($4 ~ /1$/) && $8 > 0 { t[$2, $4] = $8 }
    function gm(num, den,   c, s, n) {
      for (c in use) if ((c, num) in t && (c, den) in t) { s += log(t[c, num] / t[c, den]); n++ }
      return n ? sprintf("%+.2f%%", 100 * (exp(s / n) - 1)) : "-"
    }
    END {
      for (c in use) n++
      printf "  %d cases: vs naive: +SIPL %s, +partitioning %s, +fusion %s (paper -9.45%%, -43.67%%, -63.12%%)\n",
             n, gm("100000", "000000"), gm("110000", "000000"), gm("111000", "000000")
      printf "  leave-one-out vs sipl+part+fusion: no SIPL %s (paper +23.4%%), no partitioning %s (paper +147.4%%), no fusion %s (paper +52.9%%)\n",
             gm("011000", "111000"), gm("101000", "111000"), gm("110000", "111000")
      printf "  ours: +memo %s (s+p+f+m vs naive %s); leave-one-out vs s+p+f+m: no SIPL %s, no partitioning %s, no fusion %s; +warp (fused) %s (vs naive %s)\n",
             gm("111100", "111000"), gm("111100", "000000"), gm("011100", "111100"), gm("101100", "111100"), gm("110100", "111100"),
             gm("111110", "111100"), gm("111110", "000000")
    }' "$tsv"
}

case_table() {
  printf "%-14s %9s %10s %9s %9s %10s %8s %12s %12s %11s %-6s\n" case instances "M pin ev" "ref s" \
         "cpu s" "gpu e2e s" "e2e x" "walk G ev/s" "s+p+m G ev/s" "fused G ev/s" result
  awk -F'\t' '
    $1 == "variant" && $4 == "111100" { walk[$2] = $8 }
    $1 == "variant" && $4 == "110100" { best[$2] = $8 }
    $1 == "variant" && $4 == "111110" { fused[$2] = $8 }
    $1 == "case" { order[++n] = $2; line[$2] = $0 }
    END {
      for (i = 1; i <= n; i++) {
        split(line[order[i]], f, "\t")
        printf "%-14s %9d %10.1f %9.3f %9.3f %10.3f %8.2f %12.2f %12.2f %11.2f %-6s\n", f[2], f[3],
               f[4] / 1e6, f[5], f[6], f[8], (f[8] > 0 ? f[6] / f[8] : 0),
               (walk[f[2]] > 0 ? f[4] / walk[f[2]] / 1e9 : 0),
               (best[f[2]] > 0 ? f[4] / best[f[2]] / 1e9 : 0),
               (fused[f[2]] > 0 ? f[4] / fused[f[2]] / 1e9 : 0), f[10]
      }
    }' "$tsv"
}

print_summary() {
  local commit
  commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
  if git status --porcelain 2>/dev/null | grep -qv '^??'; then commit="$commit+changes"; fi
  {
    echo
    echo "==== bench/cuda.sh summary: commit $commit, $(date -u +%Y-%m-%d), $((SECONDS - start)) s"
    echo "GPU: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader 2>/dev/null || echo 'nvidia-smi not available')"
    awk '/^\[[0-9]+ s\] == [^ ]+: bench_cuda/ { name = $4; sub(/:$/, "", name) }
         /^clocks (before warm-up|after the timed rounds):/ { sub(/^clocks /, ""); print "  " name ", " $0 }' "$log"
    case_table
    echo "ablation, geometric means of sustained kernel time:"
    summarize 0
    echo "  the same over cases of >= 1e8 pin events:"
    summarize 1e8 | sed 's/^/  /'
    echo "ctest -L gpu: ${ctest_line:-not run}"
    for note in "${notes[@]}"; do echo "NOTE: $note"; done
    for problem in "${problems[@]}"; do echo "PROBLEM: $problem"; done
    if failed; then echo "OVERALL: FAIL or incomplete (see the problems and bench.log)"; else echo "OVERALL: PASS"; fi
  } | tee "$summary"
}

failed() { grep -q $'\tFAIL$' "$tsv" || grep -q "^RESULT .*FAIL" "$log" || [ ${#problems[@]} -gt 0 ]; }

[ "${SKIP_BUILD:-0}" = 1 ] || build_tree
ctest_line=
[ "${SKIP_BUILD:-0}" = 1 ] || gpu_tests
for c in $cases; do
  case $c in
    examples) examples ;;
    mid) bench "gen-$mid_gates" --rounds "${ROUNDS:-15}" --pin-events "$mid_events" gen "$mid_gates" ;;
    big) big ;;
    *) problems+=("unknown case '$c'") ;;
  esac
done
print_summary
! failed
