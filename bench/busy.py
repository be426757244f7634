#!/usr/bin/env python3
"""bench/busy.py: how many threads were busy, and doing what, over a run
recorded by `perf record -F HZ` (every thread sampled at HZ while it runs).

    perf script -i perf.data -F tid,time,ip,sym | python3 bench/busy.py HZ [STEP_S]

Prints a timeline, one line every STEP_S seconds (default 0.1): the
threads busy on average (samples in the step over HZ * STEP_S) and the
step's three symbols with the most samples; then the symbols of the
samples taken while at most a quarter of the busiest step's threads were
busy (the time the cores mostly waited), the most first. Times are
seconds from the first sample."""
import collections
import re
import sys

SAMPLE = re.compile(r"\s*(\d+)\s+([\d.]+):\s+\S+\s+(.*)")


def read_samples(lines):
    samples = []
    for line in lines:
        m = SAMPLE.match(line)
        if m:
            samples.append((float(m.group(2)), int(m.group(1)), m.group(3).strip() or "?"))
    return samples


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    hz = float(sys.argv[1])
    step = float(sys.argv[2]) if len(sys.argv) == 3 else 0.1
    samples = read_samples(sys.stdin)
    if not samples:
        sys.exit("busy.py: no samples read (perf script -F tid,time,ip,sym)")
    t0 = min(t for t, _, _ in samples)
    steps = collections.defaultdict(list)
    for t, _, sym in samples:
        steps[int((t - t0) / step)].append(sym)
    busy = {k: len(v) / (hz * step) for k, v in steps.items()}
    peak = max(busy.values())
    idle_syms = collections.Counter()
    print(f"{'from s':>7} {'busy':>5}  most samples")
    for k in range(max(steps) + 1):
        syms = collections.Counter(steps.get(k, []))
        top = ", ".join(f"{s} {100 * c / max(1, len(steps.get(k, []))):.0f}%"
                        for s, c in syms.most_common(3))
        print(f"{k * step:7.2f} {busy.get(k, 0.0):5.1f}  {top}")
        if busy.get(k, 0.0) <= peak / 4:
            idle_syms.update(syms)
    low = sum(1 for k in range(max(steps) + 1) if busy.get(k, 0.0) <= peak / 4)
    total = sum(idle_syms.values())
    print(f"\nsteps with at most {peak / 4:.1f} threads busy (a quarter of the peak "
          f"{peak:.1f}): {low} of {max(steps) + 1}; their symbols:")
    for s, c in idle_syms.most_common(20):
        print(f"  {100 * c / max(1, total):5.1f}% {s}")


if __name__ == "__main__":
    main()
