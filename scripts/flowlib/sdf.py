"""Reader for the SDF subset OpenSTA writes: per CELL instance, its ABSOLUTE
IOPATH delays (typical values) and a count of INTERCONNECT entries."""

import re

_TOKEN = re.compile(r'"[^"]*"|\(|\)|[^\s()]+')
_EMPTY_TYP = re.compile(r"(?<![\w.])-?[\d.]*::")


def _parse_sexpr(text):
    root, stack = [], []
    current = root
    for token in _TOKEN.findall(text):
        if token == "(":
            stack.append(current)
            current.append([])
            current = current[-1]
        elif token == ")":
            current = stack.pop()
        else:
            current.append(token)
    return root


def _typ(triple_list):
    """'(0.1:0.2:0.3)' parsed as ['0.1:0.2:0.3'] -> 0.2 ns (None when empty)."""
    if not triple_list:
        return None
    parts = triple_list[0].split(":")
    value = parts[1] if len(parts) == 3 else parts[0]
    return float(value) if value else None


def _pin_name(spec):
    """'A' or ['posedge', 'CLK'] -> ('A', None) / ('CLK', 'posedge')."""
    if isinstance(spec, list):
        return spec[1], spec[0]
    return spec, None


class SdfFile:
    def __init__(self):
        self.timescale_ns = 1.0
        self.iopaths = {}           # instance -> {(in_pin, out_pin): (rise_ns, fall_ns)}
        self.iopath_count = 0
        self.interconnect_count = 0


def _walk_delays(sdf, instance, node):
    for item in node:
        if not isinstance(item, list) or not item:
            continue
        if item[0] == "IOPATH":
            in_pin, _edge = _pin_name(item[1])
            values = [_typ(v) for v in item[3:] if isinstance(v, list)]
            rise = values[0] if values else None
            fall = values[1] if len(values) > 1 else rise
            sdf.iopaths.setdefault(instance, {})[(in_pin, item[2])] = (rise, fall)
            sdf.iopath_count += 1
        elif item[0] == "INTERCONNECT":
            sdf.interconnect_count += 1
        elif item[0] in ("DELAY", "ABSOLUTE", "INCREMENT"):
            _walk_delays(sdf, instance, item)


def read_sdf(path):
    with open(path) as stream:
        tree = _parse_sexpr(stream.read())
    sdf = SdfFile()
    for item in tree[0]:
        if not isinstance(item, list) or not item:
            continue
        if item[0] == "TIMESCALE":
            match = re.match(r"([\d.]+)\s*(ns|ps|us)", " ".join(item[1:]))
            sdf.timescale_ns = float(match.group(1)) * {"ns": 1, "ps": 1e-3, "us": 1e3}[match.group(2)]
        elif item[0] == "CELL":
            instance = next((" ".join(x[1:]) for x in item if isinstance(x, list)
                             and x and x[0] == "INSTANCE"), "")
            instance = instance.replace("\\", "")
            for sub in item:
                if isinstance(sub, list) and sub and sub[0] == "DELAY":
                    _walk_delays(sdf, instance, sub)
    return sdf


def empty_typical_lines(path):
    """Lines that still hold a min::max triple with an empty typical value."""
    with open(path) as stream:
        return [(n, line.rstrip()) for n, line in enumerate(stream, 1)
                if _EMPTY_TYP.search(line)]
