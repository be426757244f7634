# ab-trees.sh: sourced by the A/B device benchmarks (ab-cuda.sh,
# ab-resim.sh): the base tree and the change built side by side, and the
# awk function their tables take medians with.
#   AB_MEDIAN_AWK  median(LIST): the median of LIST's numbers (" x y ..."),
#                  for an awk program to start with
#   ab_build_trees BASE_TAR TARGET...   unpacks BASE_TAR into /tmp/ab-base,
#                  builds it and this tree (Release, CUDA) with TARGET...
#                  on half the cores each, and sets a (the base's build)
#                  and b (the change's); exits on a failed build.  Uses the
#                  caller's say.
AB_MEDIAN_AWK='
  function median(list,   n, v, i, j, x) {
    n = split(list, v, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j] < v[j - 1]; j--) { x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
'

ab_build_tree() { # SRC BUILD TARGET...
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DGATEPOWER_CUDA=ON >"$2.log" 2>&1 &&
    cmake --build "$2" -j"$(( $(nproc) / 2 ))" --target "${@:3}" >>"$2.log" 2>&1
}

ab_build_trees() {
  local base_tar=$1 pid_a pid_b rc_a rc_b
  shift
  mkdir -p build-ab && rm -rf /tmp/ab-base && mkdir -p /tmp/ab-base && tar -xf "$base_tar" -C /tmp/ab-base
  say "building base and change"
  ab_build_tree /tmp/ab-base /tmp/ab-base/build "$@" & pid_a=$!
  ab_build_tree . build-ab/tree "$@" & pid_b=$!
  wait $pid_a; rc_a=$?
  wait $pid_b; rc_b=$?
  [ $rc_a = 0 ] || { tail -20 /tmp/ab-base/build.log; say "FAIL: base build"; exit 1; }
  [ $rc_b = 0 ] || { tail -20 build-ab/tree.log; say "FAIL: change build"; exit 1; }
  a=/tmp/ab-base/build
  b=build-ab/tree
}
