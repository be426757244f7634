module leaf(a, y);
  input a; output y;
  wire n;
  INV u0 (.A(a), .Y(n));
  INV u1 (.A(n), .Y(y));
endmodule
module mid(input [1:0] i, output [1:0] o);
  leaf l0 (.a(i[0]), .y(o[0]));
  leaf l1 (i[1], o[1]);
endmodule
module top(x, z);
  input [1:0] x; output [1:0] z;
  wire [1:0] w;
  mid m (.i(x), .o(w));
  assign z = w;
endmodule
