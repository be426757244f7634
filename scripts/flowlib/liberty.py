"""Just enough of a Liberty reader for the flow checks: per cell, its pins'
directions and capacitances and whether it is sequential (has an ff or latch
group); and the library's nominal voltage."""

import re

_TOKEN = re.compile(r'"[^"]*"|[A-Za-z_][\w.\[\]!]*|[{}();:]|[^\s{}();:"]+')


class LibCell:
    def __init__(self, name):
        self.name = name
        self.directions = {}        # pin name -> input/output/inout/internal
        self.capacitance = {}       # pin name -> capacitance in the library's unit
        self.sequential = False

    def pins(self, direction):
        return [p for p, d in self.directions.items() if d == direction]


def _strip(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return text.replace("\\\n", " ")


def read_liberty(path):
    """Map cell name -> LibCell."""
    with open(path) as stream:
        tokens = _TOKEN.findall(_strip(stream.read()))
    cells, stack, cell = {}, [], None
    for i, token in enumerate(tokens):
        if token == "{":
            group, arg = _group_before(tokens, i)
            stack.append((group, arg))
            if group == "cell":
                cell = cells.setdefault(arg, LibCell(arg))
            elif group in ("ff", "latch") and cell is not None:
                cell.sequential = True
        elif token == "}":
            group, _ = stack.pop()
            if group == "cell":
                cell = None
        elif token == "direction" and stack and stack[-1][0] == "pin" and cell:
            cell.directions[stack[-1][1]] = tokens[i + 2].strip('"')
        elif token == "capacitance" and stack and stack[-1][0] == "pin" and cell:
            cell.capacitance[stack[-1][1]] = float(tokens[i + 2])
    return cells


def nominal_voltage(path):
    """The library's nom_voltage, in its voltage unit."""
    with open(path) as stream:
        return float(re.search(r"nom_voltage\s*:\s*([-\d.eE+]+)", stream.read()).group(1))


def _group_before(tokens, brace):
    """For `name ( arg ) {` at tokens[brace], return (name, arg)."""
    close = brace - 1
    if tokens[close] != ")":
        return None, None
    open_ = close - 1
    while tokens[open_] != "(":
        open_ -= 1
    return tokens[open_ - 1], "".join(tokens[open_ + 1:close]).strip('"')
