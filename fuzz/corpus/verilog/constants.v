module feed(input i, output o, input k);
  assign o = i;
  INV u (.A(k), .Y());
endmodule
module top(input a, output y);
  feed f (.i(a), .o(y), .k(1'b1));
  wire [7:0] bus = 8'd200;
  tri0 t;
endmodule
