module top (a, b, q, \odd~name );
  input [3:0] a;
  input b;
  output [3:0] q;
  output \odd~name ;
  wire [0:1] r;
  wire \data_in[3] ;
  supply1 vdd;
  REG4 u_reg (.CLK(b), .D({a[1:0], r}), .Q(q));
  AND2 \u/and (.A(\data_in[3] ), .B(1'b1), .Y(\odd~name ));
  AND2 u2 (.A(vdd), .B(0), .Y(\data_in[3] ));
  INV u3 (.A(r[0]), .Y());
  assign r = {1'b0, b};
  assign q[3:2] = {2{1'bx}};
endmodule
