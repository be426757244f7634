"""Just enough of a Liberty reader for the flow checks: per cell, its pins'
directions and whether it is sequential (has an ff or latch group)."""

import re

_TOKEN = re.compile(r'"[^"]*"|[A-Za-z_][\w.\[\]!]*|[{}();:]|[^\s{}();:"]+')


class LibCell:
    def __init__(self, name):
        self.name = name
        self.directions = {}        # pin name -> input/output/inout/internal
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
    return cells


def _group_before(tokens, brace):
    """For `name ( arg ) {` at tokens[brace], return (name, arg)."""
    close = brace - 1
    if tokens[close] != ")":
        return None, None
    open_ = close - 1
    while tokens[open_] != "(":
        open_ -= 1
    return tokens[open_ - 1], "".join(tokens[open_ + 1:close]).strip('"')
