// tb: testbench for fir8. Synchronous reset for the first cycles and once in
// the middle of the run; then random samples from a fixed seed, with in_valid
// high about 3 cycles in 4. Inputs change on the falling clock edge.
// Run control, dumping and SDF: see ../common/tb_harness.vh.
`timescale 1ns/1ps
module tb;
    localparam DEFAULT_CYCLES = 3000;
`include "tb_harness.vh"
    localparam MID_RESET_CYCLE = 1500;

    reg               rst = 1'b1;
    reg               in_valid = 1'b0;
    reg  signed [7:0] x = 8'sd0;
    wire signed [17:0] y;
    wire              out_valid;
    wire       [23:0] acc;

    fir8 dut (.clk(clk), .rst(rst), .in_valid(in_valid), .x(x),
              .y(y), .out_valid(out_valid), .acc(acc));

    integer seed = 32'h0000_f1e8;
    integer cycle = 0;
    always @(negedge clk) begin
        cycle    <= cycle + 1;
        rst      <= (cycle < 3) || (cycle == MID_RESET_CYCLE);
        in_valid <= ($random(seed) & 3) != 0;
        x        <= $random(seed);
    end
endmodule
