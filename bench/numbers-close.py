#!/usr/bin/env python3
"""bench/numbers-close.py: two runs' output files agree up to a relative
tolerance: what a change allowed to move numbers a little (issue 21's time
unit) is checked with, where bench/same-outputs.sh compares bit for bit.

    python3 bench/numbers-close.py TOL A B     (A, B: files or directories)

Text files are compared token by token: every non-numeric token must be
equal, and every pair of numbers within TOL relative.  CSV, JSON and VCD
files print numbers that read back exactly; in the others (report.txt,
hotspots.txt, the SVG, stdout) numbers are printed short, and a move of one
unit in the last digit printed is taken as none (a last digit flips for a
move of 1e-16 too).  Binary
files (waveform.fst) are skipped: waveform.vcd and .csv carry their values.
Prints the largest relative move and where; exit status 1 beyond TOL.
"""
import os
import re
import sys

NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def last_digit(text):
    """The value of one unit in the last digit printed in `text`."""
    mantissa, _, exponent = text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals)


def tokens(text):
    """Numbers and the text between them, in order."""
    out, at = [], 0
    for m in NUMBER.finditer(text):
        out.append(("text", text[at:m.start()]))
        out.append(("number", m.group()))
        at = m.end()
    out.append(("text", text[at:]))
    return out


EXACT = (".csv", ".json", ".vcd")


def compare(path_a, path_b, tol, worst):
    """Adds to worst (move, where) the largest move; False on a mismatch."""
    short = not path_a.endswith(EXACT)
    with open(path_a, "rb") as f:
        a = f.read()
    with open(path_b, "rb") as f:
        b = f.read()
    if a == b:
        return True
    if b"\0" in a[:4096] or b"\0" in b[:4096]:
        return True
    ta, tb = tokens(a.decode()), tokens(b.decode())
    if len(ta) != len(tb):
        print(f"{path_b}: a different number of fields")
        return False
    for (kind, x), (_, y) in zip(ta, tb):
        if x == y:
            continue
        if kind == "text":
            print(f"{path_b}: text differs: {x[:40]!r} vs {y[:40]!r}")
            return False
        va, vb = float(x), float(y)
        if va == vb:
            continue
        allowed = max(last_digit(x), last_digit(y)) if short else 0.0
        move = max(0.0, abs(va - vb) - allowed) / max(abs(va), abs(vb))
        if move > worst[0]:
            worst[0], worst[1] = move, f"{path_b}: {x} vs {y}"
        if move > tol:
            print(f"{path_b}: {x} vs {y} moved {move:.3g}")
            return False
    return True


def files(root):
    if os.path.isfile(root):
        return [""]
    return sorted(os.path.relpath(os.path.join(d, f), root)
                  for d, _, names in os.walk(root) for f in names)


def main():
    tol, root_a, root_b = float(sys.argv[1]), sys.argv[2], sys.argv[3]
    names_a, names_b = files(root_a), files(root_b)
    if names_a != names_b:
        print(f"{root_b}: other files than {root_a}")
        return 1
    worst, ok = [0.0, "nothing moved"], True
    for name in names_a:
        ok &= compare(os.path.join(root_a, name) if name else root_a,
                      os.path.join(root_b, name) if name else root_b, tol, worst)
    print(f"largest relative move {worst[0]:.3g} ({worst[1]})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
