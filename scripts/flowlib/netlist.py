"""Reader for flat structural Verilog as yosys `write_verilog -noattr -noexpr`
writes it: one module with port/wire declarations, cell instances with named
connections, and `assign` statements. Every connection is expanded to bits
named as in flowlib.vcd ("a[3]", "_012_", "\\a_r[0]"); constant bits are
"1'b0", "1'b1", "1'bx", "1'bz"."""

import re

_TOKEN = re.compile(r"""\s*(?:
      (?P<escaped>\\\S+)
    | (?P<ident>[A-Za-z_][A-Za-z0-9_$]*)
    | (?P<const>\d*\s*'[sS]?[bBoOdDhH]\s*[0-9a-fA-FxXzZ_?]+)
    | (?P<number>\d+)
    | (?P<punct>\S)
    )""", re.X)
_DECLARATIONS = ("input", "output", "inout", "wire", "reg")


class Cell:
    def __init__(self, cell_type, name, pins):
        self.type = cell_type
        self.name = name
        self.pins = pins            # pin name -> list of bit names (MSB first)


class Module:
    def __init__(self, name):
        self.name = name
        self.ports = []
        self.direction = {}         # port name -> input/output/inout
        self.ranges = {}            # wire name -> (msb, lsb) or None
        self.cells = []
        self.assigns = []           # (lhs bits, rhs bits)

    def bits(self, name):
        """All bits of a declared wire, MSB first."""
        rng = self.ranges[name]
        if rng is None:
            return [name]
        msb, lsb = rng
        step = -1 if msb >= lsb else 1
        return ["%s[%d]" % (name, i) for i in range(msb, lsb + step, step)]

    def port_bits(self, direction):
        return [bit for port in self.ports if self.direction.get(port) == direction
                for bit in self.bits(port)]


def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def _tokenize(text):
    tokens, pos = [], 0
    while True:
        match = _TOKEN.match(text, pos)
        if not match or match.end() == pos:
            break
        pos = match.end()
        kind = match.lastgroup
        value = match.group(kind)
        tokens.append((kind, value.rstrip() if kind == "escaped" else value))
    if text[pos:].strip():
        raise ValueError("cannot tokenize netlist near: %r" % text[pos:pos + 40])
    return tokens


def _const_bits(literal):
    size, _, rest = literal.replace(" ", "").partition("'")
    base, digits = rest.lstrip("sS")[0].lower(), rest.lstrip("sS")[1:].replace("_", "")
    if base == "b":
        bits = digits.lower()
    elif base == "h":
        bits = "".join(c * 4 if c in "xXzZ" else format(int(c, 16), "04b") for c in digits)
    elif base == "o":
        bits = "".join(c * 3 if c in "xXzZ" else format(int(c, 8), "03b") for c in digits)
    else:
        bits = format(int(digits), "b")
    width = int(size) if size else len(bits)
    bits = bits.lower().rjust(width, "0")[-width:]
    return ["1'b" + b for b in bits]


class _Parser:
    def __init__(self, tokens):
        self.tokens, self.pos = tokens, 0

    def peek(self):
        return self.tokens[self.pos][1] if self.pos < len(self.tokens) else None

    def take(self, expected=None):
        if self.pos >= len(self.tokens):
            raise ValueError("unexpected end of netlist")
        value = self.tokens[self.pos][1]
        if expected is not None and value != expected:
            raise ValueError("expected %r, found %r" % (expected, value))
        self.pos += 1
        return value

    def skip_to(self, token):
        while self.take() != token:
            pass

    def expression(self, module):
        """A connection expression as a list of bits, MSB first."""
        kind, value = self.tokens[self.pos]
        if value == "{":
            self.take()
            bits = self.expression(module)
            while self.peek() == ",":
                self.take()
                bits += self.expression(module)
            self.take("}")
            return bits
        if kind in ("const", "number"):
            self.take()
            return _const_bits(value if kind == "const" else "32'd" + value)
        name = self.take()
        if self.peek() != "[":
            return module.bits(name)
        self.take("[")
        msb = int(self.take())
        lsb = msb
        if self.peek() == ":":
            self.take()
            lsb = int(self.take())
        self.take("]")
        step = -1 if msb >= lsb else 1
        return ["%s[%d]" % (name, i) for i in range(msb, lsb + step, step)]

    def declaration(self, module, keyword):
        rng = None
        if self.peek() == "[":
            self.take()
            msb = int(self.take())
            self.take(":")
            lsb = int(self.take())
            self.take("]")
            rng = (msb, lsb)
        while True:
            name = self.take()
            module.ranges[name] = rng
            if keyword in ("input", "output", "inout"):
                module.direction[name] = keyword
            if self.take() == ";":
                return

    def cell(self, module, cell_type):
        name = self.take()
        self.take("(")
        pins = {}
        while self.peek() != ")":
            self.take(".")
            pin = self.take()
            self.take("(")
            pins[pin] = self.expression(module) if self.peek() != ")" else []
            self.take(")")
            if self.peek() == ",":
                self.take()
        self.take(")")
        self.take(";")
        module.cells.append(Cell(cell_type, name, pins))

    def module(self):
        self.take("module")
        module = Module(self.take())
        if self.peek() == "(":
            self.take()
            while self.peek() != ")":
                token = self.take()
                if token != ",":
                    module.ports.append(token)
            self.take(")")
        self.take(";")
        while True:
            keyword = self.take()
            if keyword == "endmodule":
                return module
            if keyword in _DECLARATIONS:
                self.declaration(module, keyword)
            elif keyword == "assign":
                lhs = self.expression(module)
                self.take("=")
                rhs = self.expression(module)
                self.take(";")
                module.assigns.append((lhs, rhs))
            else:
                self.cell(module, keyword)


def read_netlist(path):
    """The (single, flat) module of a yosys-written netlist."""
    with open(path) as stream:
        tokens = _tokenize(_strip_comments(stream.read()))
    modules = []
    parser = _Parser(tokens)
    while parser.peek() is not None:
        modules.append(parser.module())
    if len(modules) != 1:
        raise ValueError("%s: expected one module, found %d" % (path, len(modules)))
    return modules[0]
