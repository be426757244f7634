// tb_harness.vh: clock, run control, waveform dump and SDF annotation shared by
// the example testbenches. `include it at the top of module tb, after
// `localparam DEFAULT_CYCLES`; it declares `clk`. The design instance must be
// named `dut`. One testbench serves RTL, zero-delay gate-level and
// SDF-annotated gate-level simulation:
//
//   +vcd=FILE        dump file name (default dump.vcd)
//   +sdf=FILE        $sdf_annotate FILE onto tb.dut (gate-level, iverilog -gspecify)
//   +cycles=N        number of rising clock edges to simulate (default DEFAULT_CYCLES)
//   -DCLK_PERIOD=NS  clock period in ns (default 10)
//   -DDUMP_LIST=F    `include F, a generated $dumpvars call naming the signals to
//                    dump; without it every net at the top level of tb.dut is dumped
//
// Timing: clk starts at 0 and has its rising edges at PERIOD/2 + k*PERIOD. The
// testbench changes inputs on the falling edge, half a period away from the
// active edge, so zero-delay and SDF runs capture the same values.

`ifdef CLK_PERIOD
    localparam real PERIOD = `CLK_PERIOD;
`else
    localparam real PERIOD = 10.0;
`endif

    reg clk = 1'b0;
    always #(PERIOD / 2.0) clk = ~clk;

    integer   cycles;
    reg [8*1024-1:0] vcd_file;
    reg [8*1024-1:0] sdf_file;

    initial begin
        if (!$value$plusargs("cycles=%d", cycles))
            cycles = DEFAULT_CYCLES;
        if (!$value$plusargs("vcd=%s", vcd_file))
            vcd_file = "dump.vcd";
        if ($value$plusargs("sdf=%s", sdf_file))
            $sdf_annotate(sdf_file, tb.dut);
        $dumpfile(vcd_file);
`ifdef DUMP_LIST
        `include `DUMP_LIST
`else
        $dumpvars(1, tb.dut);
`endif
        repeat (cycles) @(posedge clk);
        #(PERIOD / 4.0);
        $finish;
    end
