// tb: testbench for adder32. Random operands from a fixed seed, applied on the
// falling clock edge. Run control, dumping and SDF: see ../common/tb_harness.vh.
`timescale 1ns/1ps
module tb;
    localparam DEFAULT_CYCLES = 3000;
`include "tb_harness.vh"

    reg  [31:0] a = 32'd0;
    reg  [31:0] b = 32'd0;
    wire [31:0] sum;
    wire        carry;

    adder32 dut (.clk(clk), .a(a), .b(b), .sum(sum), .carry(carry));

    integer seed = 32'h0add_0032;
    always @(negedge clk) begin
        a <= $random(seed);
        b <= $random(seed);
    end
endmodule
