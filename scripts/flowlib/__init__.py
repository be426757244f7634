"""flowlib: small stdlib-only readers (VCD, yosys netlist, Liberty, SDF) used by
the example-flow helper scripts in scripts/."""
