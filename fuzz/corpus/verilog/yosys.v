`timescale 1ns/1ps
// a comment
/* block */
(* top = 1, src = "t.v:1" *)
module top(p, q, s);
  input [1:0] p;
  wire [1:0] p;
  output [1:0] q;
  output [3:0] s;
  wire c, d;
`ifdef NOT_DEFINED
  garbage (
`else
  AND2 g0 (p[1], p[0], c);
`endif
  (* keep *) INV g1 (.A(c), .Y(d));
  assign {q[1], q[0]} = {d, c};
  assign s = 4'hA;
  DFF #(.INIT(0)) f0 (.CLK(p[0]), .D(1'bx), .Q());
  specify
  endspecify
  parameter W = 8;
endmodule
