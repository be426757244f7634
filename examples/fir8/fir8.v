// fir8: 8-tap FIR filter on signed 8-bit samples with constant symmetric
// coefficients, plus a running accumulator of the filter output.
//
//   in_valid: shift sample x into the delay line this cycle
//   y       : sum_k C[k] * tap[k], C = (-3, 9, 27, 50, 50, 27, 9, -3), registered
//   acc     : running sum of y (wraps at 24 bits), updated when out_valid
//   rst     : synchronous reset of the delay line, y, acc and out_valid
`timescale 1ns / 1ps

module fir8 (
    input  wire               clk,
    input  wire               rst,
    input  wire               in_valid,
    input  wire signed [7:0]  x,
    output reg  signed [17:0] y,
    output reg                out_valid,
    output reg         [23:0] acc
);
    localparam signed [17:0] C0 = -18'sd3;
    localparam signed [17:0] C1 =  18'sd9;
    localparam signed [17:0] C2 =  18'sd27;
    localparam signed [17:0] C3 =  18'sd50;

    reg signed [7:0] tap0, tap1, tap2, tap3, tap4, tap5, tap6, tap7;

    function signed [17:0] extend(input signed [7:0] sample);
        extend = {{10{sample[7]}}, sample};
    endfunction

    // symmetric coefficients: add the tap pairs first, then one product each
    wire signed [17:0] pair0 = extend(tap0) + extend(tap7);
    wire signed [17:0] pair1 = extend(tap1) + extend(tap6);
    wire signed [17:0] pair2 = extend(tap2) + extend(tap5);
    wire signed [17:0] pair3 = extend(tap3) + extend(tap4);
    wire signed [17:0] filtered = C0 * pair0 + C1 * pair1 + C2 * pair2 + C3 * pair3;

    always @(posedge clk) begin
        if (rst) begin
            {tap0, tap1, tap2, tap3, tap4, tap5, tap6, tap7} <= 64'd0;
            y         <= 18'sd0;
            out_valid <= 1'b0;
            acc       <= 24'd0;
        end else begin
            if (in_valid)
                {tap0, tap1, tap2, tap3, tap4, tap5, tap6, tap7} <=
                    {x, tap0, tap1, tap2, tap3, tap4, tap5, tap6};
            y         <= filtered;
            out_valid <= in_valid;
            if (out_valid)
                acc <= acc + {{6{y[17]}}, y};
        end
    end
endmodule
