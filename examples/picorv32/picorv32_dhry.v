// picorv32_dhry: the picorv32 core (../shared/designs/picorv32, ISC licence)
// as the example's top: RV32IM (the multiplier and divider as PCPI cores),
// reset to the program at 0x10000, memory through the look-ahead interface
// with mem_ready tied high, as upstream's Dhrystone testbench runs it.
// The register file is upstream's picorv32_regs (x1-x31: x0 has no flops,
// whose x a gate-level simulation could never clear); this file is read
// before picorv32.v, so the define reaches it.
`define PICORV32_REGS picorv32_regs

module picorv32_dhry (
    input clk, resetn,
    output trap,
    output mem_la_read, mem_la_write,
    output [31:0] mem_la_addr, mem_la_wdata,
    output [3:0] mem_la_wstrb,
    input [31:0] mem_rdata
);
    wire mem_valid, mem_instr;
    wire [31:0] mem_addr, mem_wdata;
    wire [3:0] mem_wstrb;

    picorv32 #(
        .ENABLE_MUL(1),
        .ENABLE_DIV(1),
        .PROGADDR_RESET(32'h0001_0000),
        .STACKADDR(32'h0001_0000)
    ) core (
        .clk(clk), .resetn(resetn), .trap(trap),
        .mem_valid(mem_valid), .mem_instr(mem_instr), .mem_ready(1'b1),
        .mem_addr(mem_addr), .mem_wdata(mem_wdata), .mem_wstrb(mem_wstrb),
        .mem_rdata(mem_rdata),
        .mem_la_read(mem_la_read), .mem_la_write(mem_la_write),
        .mem_la_addr(mem_la_addr), .mem_la_wdata(mem_la_wdata), .mem_la_wstrb(mem_la_wstrb)
    );
endmodule
