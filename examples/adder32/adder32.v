// adder32: 32-bit adder with registered inputs and registered outputs.
// Each cycle the operands a and b are captured; one cycle later their sum and
// carry-out appear on the output registers.
`timescale 1ns / 1ps

module adder32 (
    input  wire        clk,
    input  wire [31:0] a,
    input  wire [31:0] b,
    output reg  [31:0] sum,
    output reg         carry
);
    reg [31:0] a_r;
    reg [31:0] b_r;

    always @(posedge clk) begin
        a_r          <= a;
        b_r          <= b;
        {carry, sum} <= {1'b0, a_r} + {1'b0, b_r};
    end
endmodule
