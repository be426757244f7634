module top (in1, in2, clk1, clk2, clk3, out);
  input in1, in2, clk1, clk2, clk3;
  output out;
  wire r1q, r2q, u1z, u2z;

  DFF r1 (.D(in1), .CLK(clk1), .Q(r1q));
  DFF r2 (.D(in2), .CLK(clk2), .Q(r2q));
  INV u1 (.A(r2q), .Y(u1z));
  AND2 u2 (.A(r1q), .B(u1z), .Y(u2z));
  DFF r3 (.D(u2z), .CLK(clk3), .Q(out));
endmodule // top
