# timed.sh: sourced by the device benchmarks of ranks: one timed run.
#   timed NAME NP CMD...   runs CMD (under mpirun -np NP when NP > 0) with
#                          stdout and stderr in $out/NAME.stdout and .err;
#                          sets rc, wall (seconds) and timing (rank 0's
#                          --timing line)
timed() {
  local name=$1 np=$2 t0 t1
  local cmd=("${@:3}")
  [ "$np" -gt 0 ] && cmd=(mpirun --oversubscribe --bind-to none -np "$np" "${cmd[@]}")
  t0=$(date +%s%N)
  "${cmd[@]}" >"$out/$name.stdout" 2>"$out/$name.err"
  rc=$?
  t1=$(date +%s%N)
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
  timing=$(grep '^timing:' "$out/$name.err" | head -1)
}
