"""Cycle-by-cycle comparison of two simulations' VCDs: sample signals just
before every rising clock edge and report the first difference."""

import os

from . import vcd


def sample_cycles(waves, clock, names, offset_ps):
    """[(edge_time, {name: value})] sampled at every rising edge + offset_ps."""
    samples = []
    for edge in vcd.rising_edges(waves[clock]):
        at = edge + offset_ps
        if at >= 0:
            samples.append((edge, {n: waves[n].value_at(at) for n in names}))
    return samples


def _defined(value):
    return set(value) <= {"0", "1"}


def activity_problems(samples, names, clock):
    """Why a comparison would prove little: a signal that never takes two
    distinct defined values, or fewer than 90% of cycles fully defined."""
    problems = []
    for name in names:
        if name == clock:
            continue
        if len({v[name] for _, v in samples if _defined(v[name])}) < 2:
            problems.append("%s takes fewer than 2 distinct defined values" % name)
    full = sum(all(_defined(v[n]) for n in names) for _, v in samples)
    if full < 0.9 * len(samples):
        problems.append("only %d of %d cycles have every signal defined" % (full, len(samples)))
    return problems


def _same(ref_value, test_value, x_dont_care):
    """Equal values; with x_dont_care an x (or z) bit of the reference
    matches anything (an RTL model's x is a value it leaves open)."""
    if not x_dont_care or len(ref_value) != len(test_value):
        return ref_value == test_value
    return all(r in "xz" or r == t for r, t in zip(ref_value, test_value))


def _first_mismatch(ref, test, names, x_dont_care):
    for cycle, ((edge, ref_values), (_, test_values)) in enumerate(zip(ref, test)):
        for name in names:
            if not _same(ref_values[name], test_values[name], x_dont_care):
                return cycle, edge, name, ref_values[name], test_values[name]
    return None


def _mismatched_cycles(ref, test, names, x_dont_care):
    return sum(any(not _same(r[n], t[n], x_dont_care) for n in names)
               for (_, r), (_, t) in zip(ref, test))


def signals_of(path, scope):
    with open(path) as stream:
        return [v.name for v in vcd.read_header(stream).vars_in_scope(scope)]


def compare_vcds(ref_path, test_path, scope, clock, names=None, before_ps=100.0,
                 require_activity=False, expect_cycles=None, x_dont_care=False):
    """Compare TEST against REF; return (ok, one-line message).  With
    x_dont_care, REF's x bits match any value of TEST."""
    names = names or signals_of(ref_path, scope)
    wanted = sorted(set(names) | {clock})
    _, ref_waves = vcd.load_waveforms(ref_path, scope, wanted)
    _, test_waves = vcd.load_waveforms(test_path, scope, wanted)
    ref = sample_cycles(ref_waves, clock, names, -before_ps)
    test = sample_cycles(test_waves, clock, names, -before_ps)
    label = "%s vs %s" % (os.path.basename(ref_path), os.path.basename(test_path))
    if [e for e, _ in ref] != [e for e, _ in test]:
        return False, "%s: the clock edges differ (%d vs %d rising edges)" % (label, len(ref), len(test))
    if expect_cycles is not None and len(ref) != expect_cycles:
        return False, "%s: %d cycles sampled, expected %d" % (label, len(ref), expect_cycles)
    if require_activity:
        problems = activity_problems(ref, names, clock)
        if problems:
            return False, "%s: the comparison would prove little: %s" % (label, "; ".join(problems))
    mismatch = _first_mismatch(ref, test, names, x_dont_care)
    if mismatch:
        cycle, edge, name, ref_value, test_value = mismatch
        return False, ("%s: first mismatch at cycle %d (sampled %g ps before the rising edge at "
                       "%.0f ps): %s = %s in %s but %s in %s; %d of %d cycles differ"
                       % (label, cycle, before_ps, edge, name, ref_value, os.path.basename(ref_path),
                          test_value, os.path.basename(test_path),
                          _mismatched_cycles(ref, test, names, x_dont_care), len(ref)))
    bits = sum(ref_waves[n].var.width for n in names)
    return True, "%s: %d signals (%d bits) equal in all %d cycles" % (label, len(names), bits, len(ref))
