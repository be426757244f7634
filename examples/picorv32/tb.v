// tb: picorv32 running Dhrystone (dhry.hex, built by the flow's `program`
// step from ../shared/designs/picorv32/dhrystone). The memory is upstream's
// Dhrystone testbench's, moved to the falling clock edge as the harness
// wants: the look-ahead request seen at one falling edge is served at the
// next, so the core reads and writes in the same cycles as upstream's. A
// write to 0x1000_0000 prints a character. Run control, dumping and SDF:
// see ../common/tb_harness.vh.
`timescale 1ns/1ps
module tb;
    localparam DEFAULT_CYCLES = 20000;
`include "tb_harness.vh"

    reg resetn = 1'b0;
    wire trap, mem_la_read, mem_la_write;
    wire [31:0] mem_la_addr, mem_la_wdata;
    wire [3:0] mem_la_wstrb;
    reg [31:0] mem_rdata = 32'd0;

    picorv32_dhry dut (.clk(clk), .resetn(resetn), .trap(trap), .mem_la_read(mem_la_read),
                       .mem_la_write(mem_la_write), .mem_la_addr(mem_la_addr),
                       .mem_la_wdata(mem_la_wdata), .mem_la_wstrb(mem_la_wstrb),
                       .mem_rdata(mem_rdata));

    // Zeros where the program has no bytes (the stack, .bss): a gate-level
    // core has no X-optimism to survive loading an x.
    reg [7:0] memory [0:256*1024-1];
    integer byte;
    initial begin
        for (byte = 0; byte < 256 * 1024; byte = byte + 1)
            memory[byte] = 8'd0;
        $readmemh("dhry.hex", memory);
    end

    reg read, write;
    reg [31:0] addr, wdata;
    reg [3:0] wstrb;
    integer resets = 0;
    always @(negedge clk) begin
        resets <= resets + 1;
        if (resets == 10)
            resetn <= 1'b1;
        if (read)
            mem_rdata <= {memory[addr + 3], memory[addr + 2], memory[addr + 1], memory[addr]};
        if (write && addr == 32'h1000_0000) begin
            $write("%c", wdata[7:0]);
            $fflush();
        end else if (write) begin
            if (wstrb[0]) memory[addr + 0] <= wdata[ 7: 0];
            if (wstrb[1]) memory[addr + 1] <= wdata[15: 8];
            if (wstrb[2]) memory[addr + 2] <= wdata[23:16];
            if (wstrb[3]) memory[addr + 3] <= wdata[31:24];
        end
        read <= resetn && mem_la_read === 1'b1;
        write <= resetn && mem_la_write === 1'b1;
        addr <= mem_la_addr;
        wdata <= mem_la_wdata;
        wstrb <= mem_la_wstrb;
    end
endmodule
