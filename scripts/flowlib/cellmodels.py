"""The default path delays of Verilog cell models: per module, the specify
block's `(IN *> OUT) = (rise, fall);` paths with their specparam values
(the typical value of a min:typ:max triple, which Icarus picks by default)."""

import re

_MODULE = re.compile(r"\bmodule\s+(\w+)(.*?)\bendmodule", re.S)
_SPECPARAM = re.compile(r"([\w$]+)\s*=\s*([-\d.eE+]+(?::[-\d.eE+]+){0,2})")
_PATH = re.compile(r"\(\s*(?:(?:posedge|negedge)\s+)?(\w+)\s*[*=]>\s*(\w+)\s*\)\s*=\s*\(([^;]*)\)\s*;")


def _typical(text):
    parts = text.split(":")
    return float(parts[1] if len(parts) == 3 else parts[0])


def _delay(token, params):
    token = token.strip()
    return params[token] if token in params else _typical(token)


def read_specify_delays(path):
    """Map module -> {(in_pin, out_pin): (rise_ns, fall_ns)}."""
    with open(path) as stream:
        text = stream.read()
    models = {}
    for name, body in _MODULE.findall(text):
        specify = body.partition("specify")[2].partition("endspecify")[0]
        params = {p: _typical(v) for p, v in _SPECPARAM.findall(specify)}
        paths = {}
        for in_pin, out_pin, delays in _PATH.findall(specify):
            values = [_delay(d, params) for d in delays.split(",")]
            paths[(in_pin, out_pin)] = (values[0], values[1] if len(values) > 1 else values[0])
        models[name] = paths
    return models
