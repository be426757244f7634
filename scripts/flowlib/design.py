"""Netlist facts that need the Liberty cell directions: which bits are
register outputs, which are driven by combinational cells, and the
`assign` aliases between bits."""


def _output_bits(module, libcells, sequential):
    bits = []
    for cell in module.cells:
        lib = libcells.get(cell.type)
        if lib is None:
            raise KeyError("cell %s (%s) is not in the library" % (cell.name, cell.type))
        if lib.sequential == sequential:
            for pin in lib.pins("output"):
                bits.extend(cell.pins.get(pin, []))
    return [b for b in bits if not b.startswith("1'b")]


def register_output_bits(module, libcells):
    """Bits driven by an output pin of a flip-flop or latch cell."""
    return _output_bits(module, libcells, sequential=True)


def combinational_output_bits(module, libcells):
    """Bits driven by an output pin of a combinational cell."""
    return _output_bits(module, libcells, sequential=False)


def alias_sources(module):
    """Map each bit assigned by an `assign` to the bit (or constant) it copies."""
    return {lhs: rhs for lhs_bits, rhs_bits in module.assigns
            for lhs, rhs in zip(lhs_bits, rhs_bits)}


def resolve_alias(bit, aliases):
    seen = set()
    while bit in aliases and bit not in seen:
        seen.add(bit)
        bit = aliases[bit]
    return bit


def wire_of(bit):
    """'sum[3]' -> 'sum'; '\\a_r[0]' and '_012_' are whole wires."""
    if bit.startswith("\\") or not bit.endswith("]"):
        return bit
    return bit[:bit.rindex("[")]


def resimulation_signals(module, libcells):
    """Wires to dump for re-simulation: every input port, then every wire that
    holds a register output bit (in netlist order, without repeats)."""
    wires = list(p for p in module.ports if module.direction[p] == "input")
    for bit in register_output_bits(module, libcells):
        wire = wire_of(bit)
        if wire not in wires:
            wires.append(wire)
    return wires
