"""Minimal VCD (IEEE 1364 section 18) reader for the example-flow checks.

Bit naming (shared with flowlib.netlist): a bit of vector `a` is "a[3]"; a
scalar is its name; an escaped identifier keeps its backslash ("\\a_r[0]").
Times are returned in picoseconds.
"""

import bisect
import re
from array import array

_UNIT_PS = {"s": 1e12, "ms": 1e9, "us": 1e6, "ns": 1e3, "ps": 1.0, "fs": 1e-3}


class Var:
    """One $var: a (possibly multi-bit) signal in a scope."""

    def __init__(self, scope, name, width, code, msb=None, lsb=None):
        self.scope = scope          # "tb.dut"
        self.name = name            # "sum" or "\\a_r[0]"
        self.width = width
        self.code = code
        self.msb, self.lsb = msb, lsb

    @property
    def full_name(self):
        return self.scope + "." + self.name

    def bit_names(self):
        """Canonical bit names, in the order of the VCD value string (MSB first)."""
        if self.msb is None:
            return [self.name] if self.width == 1 else [
                "%s[%d]" % (self.name, i) for i in range(self.width - 1, -1, -1)]
        step = -1 if self.msb >= self.lsb else 1
        return ["%s[%d]" % (self.name, i) for i in range(self.msb, self.lsb + step, step)]


class Header:
    """Timescale and variables of a VCD file."""

    def __init__(self):
        self.tick_ps = 1.0
        self.vars = []
        self.by_code = {}

    def vars_in_scope(self, scope):
        return [v for v in self.vars if v.scope == scope]

    def find(self, scope, name):
        for var in self.vars:
            if var.scope == scope and var.name == name:
                return var
        raise KeyError("signal %s.%s not in the VCD" % (scope, name))


def _parse_timescale(text):
    match = re.match(r"\s*(\d+)\s*([a-z]+)", text)
    if not match or match.group(2) not in _UNIT_PS:
        raise ValueError("bad $timescale: %r" % text)
    return int(match.group(1)) * _UNIT_PS[match.group(2)]


def _parse_var(tokens, scope):
    # $var wire 32 ! sum [31:0] $end   (tokens without $var/$end)
    width, code, name = int(tokens[1]), tokens[2], tokens[3]
    msb = lsb = None
    if len(tokens) > 4:
        rng = re.match(r"\[(-?\d+)(?::(-?\d+))?\]", "".join(tokens[4:]))
        if rng:
            msb = int(rng.group(1))
            lsb = int(rng.group(2)) if rng.group(2) is not None else msb
    return Var(".".join(scope), name, width, code, msb, lsb)


def read_header(stream):
    """Read declarations up to $enddefinitions; stream is left after it."""
    header, scope, pending = Header(), [], []
    for line in stream:
        pending.extend(line.split())
        while "$end" in pending:
            cut = pending.index("$end")
            command, pending = pending[:cut], pending[cut + 1:]
            if not command:
                continue
            keyword = command[0]
            if keyword == "$timescale":
                header.tick_ps = _parse_timescale(" ".join(command[1:]))
            elif keyword == "$scope":
                scope.append(command[2])
            elif keyword == "$upscope":
                scope.pop()
            elif keyword == "$var":
                var = _parse_var(command[1:], scope)
                header.vars.append(var)
                header.by_code.setdefault(var.code, []).append(var)
            elif keyword == "$enddefinitions":
                return header
    raise ValueError("VCD has no $enddefinitions")


def expand(value, width):
    """Left-extend a VCD vector value to width characters (lower case)."""
    value = value.lower()
    if len(value) >= width:
        return value[-width:]
    fill = "0" if value[0] == "1" else value[0]
    return fill * (width - len(value)) + value


def iter_changes(stream, tick_ps, codes=None):
    """Yield (time_ps, code, raw_value) for every value change after the header.
    With codes (a set), other signals are skipped cheaply."""
    time_ps = 0.0
    for line in stream:
        head = line[:1]
        if head == "#":
            time_ps = int(line[1:]) * tick_ps
        elif head and head in "01xXzZ":
            code = line[1:].strip()
            if codes is None or code in codes:
                yield time_ps, code, head
        elif head in "bB":
            value, code = line[1:].split()
            if codes is None or code in codes:
                yield time_ps, code, value
        # $dumpvars/$end/$comment lines and real values carry nothing we use


class Waveform:
    """The value changes of one Var: sorted times and expanded values."""

    def __init__(self, var):
        self.var = var
        self.times = []
        self.values = []

    def add(self, time_ps, raw_value):
        value = expand(raw_value, self.var.width)
        if self.times and self.times[-1] == time_ps:
            self.values[-1] = value      # keep the last value of a time step
        else:
            self.times.append(time_ps)
            self.values.append(value)

    def value_at(self, time_ps):
        """Value after all changes at or before time_ps ('x'*width if none)."""
        index = bisect.bisect_right(self.times, time_ps) - 1
        return self.values[index] if index >= 0 else "x" * self.var.width


def load_waveforms(path, scope, names=None):
    """Waveforms of the signals `names` (all of scope when None) of a VCD."""
    with open(path) as stream:
        header = read_header(stream)
        wanted = header.vars_in_scope(scope) if names is None else [
            header.find(scope, name) for name in names]
        waves = {var.code: Waveform(var) for var in wanted}
        for time_ps, code, value in iter_changes(stream, header.tick_ps, set(waves)):
            waves[code].add(time_ps, value)
    return header, {w.var.name: w for w in waves.values()}


def rising_edges(clock_wave):
    """Times of 0->1 changes of a 1-bit waveform."""
    edges, previous = [], "x"
    for time_ps, value in zip(clock_wave.times, clock_wave.values):
        if previous == "0" and value == "1":
            edges.append(time_ps)
        previous = value
    return edges


def count_toggles(path, scope):
    """Bit toggles per signal of scope. Changes within one time step collapse:
    a bit toggles when its value at the end of a time step differs from its
    value at the end of the previous one (zero-width pulses do not count); the
    first value of a signal is not a toggle; 0/1 <-> x changes count as one."""
    with open(path) as stream:
        header = read_header(stream)
        wanted = {v.code: v for v in header.vars_in_scope(scope)}
        counts = {code: 0 for code in wanted}
        current, step_start = {}, {}
        for line in stream:
            head = line[:1]
            if head == "#":
                _close_time_step(step_start, current, counts)
            elif head in ("0", "1", "x", "z", "X", "Z"):
                _record(line[1:].rstrip(), head.lower(), wanted, current, step_start)
            elif head in ("b", "B"):
                value, code = line[1:].split()
                if code in wanted:
                    _record(code, expand(value, wanted[code].width), wanted, current, step_start)
        _close_time_step(step_start, current, counts)
    return header, {wanted[code].name: n for code, n in counts.items()}


def _record(code, value, wanted, current, step_start):
    if code in wanted:
        if code not in step_start:
            step_start[code] = current.get(code)
        current[code] = value


def _close_time_step(step_start, current, counts):
    for code, start in step_start.items():
        end = current[code]
        if start is None or start == end:
            continue
        counts[code] += 1 if len(end) == 1 else sum(a != b for a, b in zip(start, end))
    step_start.clear()


def load_bit_events(path, scope):
    """Per bit of every signal in scope: (times, values) of its changes, the
    first recorded value included (times: array of int ps, values: str).
    Changes within one time step collapse to the last value of the step."""
    with open(path) as stream:
        header = read_header(stream)
        wanted = {v.code: v for v in header.vars_in_scope(scope)}
        names = {code: var.bit_names() for code, var in wanted.items()}
        times = {bit: array("q") for bits in names.values() for bit in bits}
        values = {bit: [] for bit in times}
        for time_ps, code, raw in iter_changes(stream, header.tick_ps, set(wanted)):
            value = expand(raw, wanted[code].width)
            tick = round(time_ps)
            for bit, char in zip(names[code], value):
                _record_bit(times[bit], values[bit], tick, char)
    return {bit: (times[bit], "".join(values[bit])) for bit in times}


def _record_bit(times, values, tick, char):
    if times and times[-1] == tick:            # same time step: keep the last value
        values[-1] = char
        if len(values) > 1 and values[-2] == char:
            times.pop()
            values.pop()
    elif not values or values[-1] != char:
        times.append(tick)
        values.append(char)
