// tb: testbench for mult16. Random operands from a fixed seed, applied on the
// falling clock edge. Run control, dumping and SDF: see ../common/tb_harness.vh.
`timescale 1ns/1ps
module tb;
    localparam DEFAULT_CYCLES = 3000;
`include "tb_harness.vh"

    reg  [15:0] a = 16'd0;
    reg  [15:0] b = 16'd0;
    wire [31:0] p;

    mult16 dut (.clk(clk), .a(a), .b(b), .p(p));

    integer seed = 32'h0000_1616;
    always @(negedge clk) begin
        a <= $random(seed);
        b <= $random(seed);
    end
endmodule
