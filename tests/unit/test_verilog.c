/* test_verilog.c: the structural Verilog reader, through a fake builder that
 * writes what each callback gives as lines of text (a net, each of its
 * other names, a port, an instance and its connected pins in the cell's
 * pin order); the expected texts are written out by hand from the
 * netlists (net ids count from 0 in the order nets are first named). */
#include <stdarg.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "verilog/verilog.h"

/* --- the fake library and builder ---------------------------------------- */

typedef struct fake_cell {
    const char *name;
    const char *pins[10];
} fake_cell;

/* Bus bits listed lowest index first, as a Liberty bit-blast may list them:
 * the reader must still give a connection's most significant bit to the
 * highest index. */
static const fake_cell fake_cells[] = {
    {"DFFHQx4_ASAP7_75t_R", {"CLK", "D", "Q"}},
    {"BUFx2_ASAP7_75t_R", {"A", "Y"}},
    {"AND2x2_ASAP7_75t_R", {"A", "B", "Y"}},
    {"INV", {"A", "Y"}},
    {"AND2", {"A", "B", "Y"}},
    {"DFF", {"CLK", "D", "Q"}},
    {"REG4", {"CLK", "D[0]", "D[1]", "D[2]", "D[3]", "Q[0]", "Q[1]", "Q[2]", "Q[3]"}},
    {"BADLIB", {"A", "A"}},
};
#define N_FAKE_CELLS (sizeof fake_cells / sizeof fake_cells[0])

typedef struct fake {
    char log[16384];
    size_t len;
    uint32_t nets, insts;
    int fail_instances; /* add_instance fails (without a message) when set */
} fake;

static void fake_log(fake *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(f->log + f->len, sizeof f->log - f->len, fmt, ap);
    va_end(ap);
    if (n > 0 && f->len + (size_t)n < sizeof f->log)
        f->len += (size_t)n;
}

static int fake_pin_count(const fake_cell *c)
{
    int n = 0;
    while (n < 10 && c->pins[n])
        n++;
    return n;
}

static bool fake_find_cell(void *ctx, const char *name, vlog_cell_info *out)
{
    (void)ctx;
    for (uint32_t i = 0; i < N_FAKE_CELLS; i++) {
        if (strcmp(fake_cells[i].name, name) == 0) {
            out->id = i;
            out->pin_count = fake_pin_count(&fake_cells[i]);
            out->pin_names = fake_cells[i].pins;
            return true;
        }
    }
    return false;
}

/* Each net as "net N name" with its canonical name, its other names as
 * "alias N name", in the order given. */
static gp_status fake_add_nets(void *ctx, const vlog_nets *nets)
{
    fake *f = ctx;
    static const char *const v[] = {"", " =0", " =1", " =x"};
    bool *named = calloc(nets->count + 1u, 1);
    CHECK(named != NULL);
    for (uint64_t k = 0; named && k < nets->n_names; k++) {
        uint32_t net = nets->name_net[k];
        CHECK(net < nets->count);
        const strtab_ref *name = &nets->names[k];
        if (net < nets->count && !named[net]) {
            CHECK_EQ_INT(net, f->nets++); /* nets are first named in their order */
            named[net] = true;
            fake_log(f, "net %u %.*s%s\n", net, (int)name->len, name->s, v[nets->value[net]]);
        } else {
            fake_log(f, "alias %u %.*s\n", net, (int)name->len, name->s);
        }
    }
    CHECK_EQ_INT(f->nets, nets->count);
    free(named);
    return GP_OK;
}

static gp_status fake_add_ports(void *ctx, const vlog_ports *ports)
{
    for (uint32_t k = 0; k < ports->count; k++) {
        int dir = ports->dir[k];
        fake_log(ctx, "port %.*s %s %u\n", (int)ports->names[k].len, ports->names[k].s,
                 dir == VLOG_DIR_INPUT ? "in" : dir == VLOG_DIR_OUTPUT ? "out" : "inout",
                 ports->net[k]);
    }
    return GP_OK;
}

/* Each instance as "inst path cell", then its connected pins as "  pin net". */
static gp_status fake_add_instances(void *ctx, const vlog_instances *insts)
{
    fake *f = ctx;
    if (f->fail_instances)
        return GP_ERR_INPUT;
    for (uint32_t i = 0; i < insts->count; i++) {
        const fake_cell *cell = &fake_cells[insts->cell[i]];
        CHECK_EQ_INT(insts->pin0[i + 1] - insts->pin0[i], fake_pin_count(cell));
        fake_log(f, "inst %.*s %s\n", (int)insts->paths[i].len, insts->paths[i].s, cell->name);
        for (uint32_t p = insts->pin0[i]; p < insts->pin0[i + 1]; p++)
            if (insts->pin_net[p] != VLOG_NO_NET)
                fake_log(f, "  %s %u\n", cell->pins[p - insts->pin0[i]], insts->pin_net[p]);
    }
    f->insts = insts->count;
    return GP_OK;
}

static gp_status fake_reserve(void *ctx, const vlog_sizes *z)
{
    fake_log(ctx, "reserve %llu %llu %llu %llu\n", (unsigned long long)z->names,
             (unsigned long long)z->instances, (unsigned long long)z->connections,
             (unsigned long long)z->module_instances);
    return ((fake *)ctx)->fail_instances ? GP_ERR_INPUT : GP_OK;
}

static vlog_builder fake_builder(fake *f)
{
    memset(f, 0, sizeof *f);
    return (vlog_builder){f, fake_find_cell, NULL, fake_add_nets, fake_add_ports,
                          fake_add_instances};
}

/* What reading a text gave: the status, the builder's log, the messages. */
typedef struct reading {
    gp_status status;
    fake f;
    char *messages;
} reading;

static void read_chunked(reading *out, const char *text, const char *top, size_t chunk_bytes)
{
    size_t size = 0;
    FILE *sink = open_memstream(&out->messages, &size);
    diag_ctx *d = diag_new(sink);
    vlog_builder b = fake_builder(&out->f);
    out->status = vlog_read_memory_chunked("t.v", text, strlen(text), chunk_bytes, top, &b, d);
    diag_free(d);
    fclose(sink);
}

/* The text read in chunks of a few bytes (every size from 1 to 40 for a
 * short text) gives the status, log and messages of the default chunks. */
static void check_chunks_agree(const char *text, const char *top)
{
    reading *whole = malloc(sizeof *whole), *cut = malloc(sizeof *cut);
    read_chunked(whole, text, top, 0);
    size_t len = strlen(text), last = len < 2000 ? 40 : len < 100000 ? 3 : 0;
    for (size_t bytes = 1; bytes <= last || (last == 0 && bytes == 1); bytes++) {
        size_t chunk = last ? bytes : 4096;
        read_chunked(cut, text, top, chunk);
        bool same = cut->status == whole->status && strcmp(cut->f.log, whole->f.log) == 0 &&
                    strcmp(cut->messages, whole->messages) == 0;
        CHECK(same);
        if (!same)
            fprintf(stderr, "  chunks of %zu bytes: status %d, messages:\n%s  against %d:\n%s",
                    chunk, (int)cut->status, cut->messages, (int)whole->status, whole->messages);
        free(cut->messages);
    }
    free(whole->messages);
    free(whole);
    free(cut);
}

/* Reads `text` as file "t.v" and returns the status; the log is in *f.
 * Every reading is also made in small chunks, which must agree. */
static gp_status read_text(fake *f, const char *text, const char *top, diag_ctx *d)
{
    vlog_builder b = fake_builder(f);
    gp_status st = vlog_read_memory("t.v", text, strlen(text), top, &b, d);
    check_chunks_agree(text, top);
    return st;
}

static void check_log(const fake *f, const char *want)
{
    CHECK_EQ_STR(f->log, want);
}

/* --- designs that read ------------------------------------------------------ */

static void test_reg1_asap7(void)
{
    fake f;
    vlog_builder b = fake_builder(&f);
    diag_ctx *d = diag_new(stderr);
    const char *paths[] = {"../../../shared/designs/reg1_asap7.v"};
    if (access(paths[0], R_OK) != 0)
        check_skip("../../../shared/designs/reg1_asap7.v is missing");
    CHECK_EQ_INT(vlog_read(paths, 1, "top", &b, NULL, d), GP_OK);
    check_log(&f, "net 0 in1\nnet 1 in2\nnet 2 clk1\nnet 3 clk2\nnet 4 clk3\nnet 5 out\n"
                  "net 6 r1q\nnet 7 r2q\nnet 8 u1z\nnet 9 u2z\n"
                  "port in1 in 0\nport in2 in 1\nport clk1 in 2\nport clk2 in 3\n"
                  "port clk3 in 4\nport out out 5\n"
                  "inst r1 DFFHQx4_ASAP7_75t_R\n  CLK 2\n  D 0\n  Q 6\n"
                  "inst r2 DFFHQx4_ASAP7_75t_R\n  CLK 3\n  D 1\n  Q 7\n"
                  "inst u1 BUFx2_ASAP7_75t_R\n  A 7\n  Y 8\n"
                  "inst u2 AND2x2_ASAP7_75t_R\n  A 6\n  B 8\n  Y 9\n"
                  "inst r3 DFFHQx4_ASAP7_75t_R\n  CLK 4\n  D 9\n  Q 5\n");
    CHECK_EQ_INT(diag_error_count(d), 0);
    diag_free(d);
}

/* Two levels of hierarchy, ANSI and non-ANSI headers, named and ordered
 * module connections, an assign between nets of the top. */
static const char hier_text[] =
    "module leaf(a, y);\n"
    "  input a; output y;\n"
    "  wire n;\n"
    "  INV u0 (.A(a), .Y(n));\n"
    "  INV u1 (.A(n), .Y(y));\n"
    "endmodule\n"
    "module mid(input [1:0] i, output [1:0] o);\n"
    "  leaf l0 (.a(i[0]), .y(o[0]));\n"
    "  leaf l1 (i[1], o[1]);\n"
    "endmodule\n"
    "module top(x, z);\n"
    "  input [1:0] x; output [1:0] z;\n"
    "  wire [1:0] w;\n"
    "  mid m (.i(x), .o(w));\n"
    "  assign z = w;\n"
    "endmodule\n";

/* Flat bits in order: x[1] x[0] z[1] z[0] w[1] w[0] | m/i[1] m/i[0] m/o[1]
 * m/o[0] | m/l0/a m/l0/y m/l0/n | m/l1/a m/l1/y m/l1/n.  Classes: {x[1],
 * m/i[1], m/l1/a}, {x[0], m/i[0], m/l0/a}, {z[1], w[1], m/o[1], m/l1/y},
 * {z[0], w[0], m/o[0], m/l0/y}, {m/l0/n}, {m/l1/n}. */
static const char hier_log[] =
    "net 0 x[1]\nnet 1 x[0]\nnet 2 z[1]\nnet 3 z[0]\nalias 2 w[1]\nalias 3 w[0]\n"
    "alias 0 m/i[1]\nalias 1 m/i[0]\nalias 2 m/o[1]\nalias 3 m/o[0]\n"
    "alias 1 m/l0/a\nalias 3 m/l0/y\nnet 4 m/l0/n\n"
    "alias 0 m/l1/a\nalias 2 m/l1/y\nnet 5 m/l1/n\n"
    "port x[1] in 0\nport x[0] in 1\nport z[1] out 2\nport z[0] out 3\n"
    "inst m/l0/u0 INV\n  A 1\n  Y 4\ninst m/l0/u1 INV\n  A 4\n  Y 3\n"
    "inst m/l1/u0 INV\n  A 0\n  Y 5\ninst m/l1/u1 INV\n  A 5\n  Y 2\n";

static void test_hierarchy(void)
{
    fake f;
    diag_ctx *d = diag_new(stderr);
    CHECK_EQ_INT(read_text(&f, hier_text, "top", d), GP_OK);
    check_log(&f, hier_log);
    /* The sizes: 16 net bits, 4 cells, 8 pin connections, 3 module instances. */
    vlog_builder b = fake_builder(&f);
    b.reserve = fake_reserve;
    CHECK_EQ_INT(vlog_read_memory("t.v", hier_text, strlen(hier_text), "top", &b, d), GP_OK);
    static const char head[] = "reserve 16 4 8 3\nnet 0 x[1]\n";
    CHECK(strncmp(f.log, head, sizeof head - 1) == 0);
    /* Without a top named, the only module nobody instantiates is taken. */
    CHECK_EQ_INT(read_text(&f, hier_text, NULL, d), GP_OK);
    check_log(&f, hier_log);
    CHECK_EQ_INT(diag_error_count(d), 0);
    diag_free(d);
}

/* Bus pins (MSB first), a concatenation with part-selects of an ascending
 * vector, constants on pins (sized, unsized), supply1, escaped names, an
 * unconnected pin, an assign with a constant and a concatenation. */
static void test_selects_constants_escapes(void)
{
    static const char text[] =
        "module t3 (a, b, q, \\odd~name );\n"
        "  input [3:0] a;\n"
        "  input b;\n"
        "  output [3:0] q;\n"
        "  output \\odd~name ;\n"
        "  wire [0:1] r;\n"
        "  wire \\data_in[3] ;\n"
        "  supply1 vdd;\n"
        "  REG4 u_reg (.CLK(b), .D({a[1:0], r}), .Q(q));\n"
        "  AND2 \\u/and (.A(\\data_in[3] ), .B(1'b1), .Y(\\odd~name ));\n"
        "  AND2 u2 (.A(vdd), .B(0), .Y(\\data_in[3] ));\n"
        "  INV u3 (.A(r[0]), .Y());\n"
        "  assign r = {1'b0, b};\n"
        "endmodule\n";
    /* Bits: a[3..0] b q[3..0] odd~name | r[0] r[1] data_in[3] vdd; r[0] is
     * tied to 0, r[1] joins b.  D = {a[1], a[0], r[0], r[1]} goes to D[3]..D[0]. */
    fake f;
    diag_ctx *d = diag_new(stderr);
    CHECK_EQ_INT(read_text(&f, text, NULL, d), GP_OK);
    check_log(&f, "net 0 1'b0 =0\nnet 1 1'b1 =1\n"
                  "net 2 a[3]\nnet 3 a[2]\nnet 4 a[1]\nnet 5 a[0]\nnet 6 b\n"
                  "net 7 q[3]\nnet 8 q[2]\nnet 9 q[1]\nnet 10 q[0]\nnet 11 odd~name\n"
                  "net 12 r[0] =0\nalias 6 r[1]\nnet 13 data_in[3]\nnet 14 vdd =1\n"
                  "port a[3] in 2\nport a[2] in 3\nport a[1] in 4\nport a[0] in 5\n"
                  "port b in 6\nport q[3] out 7\nport q[2] out 8\nport q[1] out 9\n"
                  "port q[0] out 10\nport odd~name out 11\n"
                  "inst u_reg REG4\n  CLK 6\n  D[0] 6\n  D[1] 12\n  D[2] 5\n  D[3] 4\n"
                  "  Q[0] 10\n  Q[1] 9\n  Q[2] 8\n  Q[3] 7\n"
                  "inst u/and AND2\n  A 13\n  B 1\n  Y 11\n"
                  "inst u2 AND2\n  A 14\n  B 0\n  Y 13\n"
                  "inst u3 INV\n  A 12\n");
    CHECK_EQ_INT(diag_error_count(d), 0);
    diag_free(d);
}

/* yosys-style non-ANSI declarations, ordered cell connections, directives,
 * comments, attributes, an X constant and an instance parameter (skipped with
 * a warning). */
static void test_yosys_style(void)
{
    static const char text[] =
        "`timescale 1ns/1ps\n"
        "// a comment\n"
        "/* a block\n   comment */\n"
        "(* top = 1, src = \"t.v:1\" *)\n"
        "module t4(p, q, s);\n"
        "  input [1:0] p;\n"
        "  wire [1:0] p;\n"
        "  output [1:0] q;\n"
        "  output [3:0] s;\n"
        "  wire c, d;\n"
        "`ifdef NOT_DEFINED\n"
        "  garbage here ( 3'b9\n"
        "`else\n"
        "  AND2 g0 (p[1], p[0], c);\n"
        "`endif\n"
        "  (* keep *) INV g1 (.A(c), .Y(d));\n"
        "  assign {q[1], q[0]} = {d, c};\n"
        "  assign s = 4'hA;\n"
        "  DFF #(.INIT(0)) f0 (.CLK(p[0]), .D(1'bx), .Q());\n"
        "endmodule\n";
    fake f;
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(read_text(&f, text, "t4", d), GP_OK);
    check_log(&f, "net 0 1'bx =x\nnet 1 p[1]\nnet 2 p[0]\nnet 3 q[1]\nnet 4 q[0]\n"
                  "net 5 s[3] =1\nnet 6 s[2] =0\nnet 7 s[1] =1\nnet 8 s[0] =0\n"
                  "alias 4 c\nalias 3 d\n"
                  "port p[1] in 1\nport p[0] in 2\nport q[1] out 3\nport q[0] out 4\n"
                  "port s[3] out 5\nport s[2] out 6\nport s[1] out 7\nport s[0] out 8\n"
                  "inst g0 AND2\n  A 1\n  B 2\n  Y 4\ninst g1 INV\n  A 4\n  Y 3\n"
                  "inst f0 DFF\n  CLK 2\n  D 0\n");
    CHECK_EQ_INT(diag_error_count(d), 0);
    CHECK_EQ_INT(diag_warning_count(d), 1);
    CHECK_EQ_INT(diag_count_of(d, 3102), 1);
    diag_free(d);
}

/* A constant on a submodule port ties the inner net; a submodule port
 * joined to another by an assign inside merges the outer nets. */
static void test_constants_through_hierarchy(void)
{
    static const char text[] =
        "module feed(input i, output o, input k);\n"
        "  INV u (.A(i), .Y(o));\n"
        "  INV v (.A(k), .Y());\n"
        "endmodule\n"
        "module top(input a, output y);\n"
        "  feed f (.i(a), .o(y), .k(1'b1));\n"
        "endmodule\n";
    fake f;
    diag_ctx *d = diag_new(stderr);
    CHECK_EQ_INT(read_text(&f, text, "top", d), GP_OK);
    check_log(&f, "net 0 a\nnet 1 y\nalias 0 f/i\nalias 1 f/o\nnet 2 f/k =1\n"
                  "port a in 0\nport y out 1\ninst f/u INV\n  A 0\n  Y 1\ninst f/v INV\n  A 2\n");
    /* o = i inside merges the top's a and y: one net, the first port's name. */
    static const char merge[] =
        "module feed(input i, output o);\n"
        "  assign o = i;\n"
        "endmodule\n"
        "module top(input a, output y);\n"
        "  feed f (.i(a), .o(y));\n"
        "endmodule\n";
    CHECK_EQ_INT(read_text(&f, merge, "top", d), GP_OK);
    check_log(&f, "net 0 a\nalias 0 y\nalias 0 f/i\nalias 0 f/o\nport a in 0\nport y out 0\n");
    CHECK_EQ_INT(diag_error_count(d), 0);
    diag_free(d);
}

/* `define / `ifdef, inout, ANSI reg ports, a net declaration assignment, two
 * instances in one statement, an escaped instance name with '/', an implicit
 * net, a number split over tokens, an empty module (warning 3107). */
static void test_more_syntax(void)
{
    static const char text[] =
        "`define USE_B\n"
        "module sub(inout io, output reg [1:0] q);\n"
        "  wire w = io;\n"
        "  INV i0 (.A(w), .Y(q[1])), i1 (.A(io), .Y(q[0]));\n"
        "endmodule\n"
        "module box(input a);\n"
        "endmodule\n"
        "module top(inout t, output [3:0] v);\n"
        "`ifdef USE_B\n"
        "  sub \\s/1 (.io(t), .q(v[3:2]));\n"
        "`elsif OTHER\n"
        "  garbage\n"
        "`else\n"
        "  garbage\n"
        "`endif\n"
        "`ifndef USE_B\n"
        "  garbage\n"
        "`endif\n"
        "  assign v[1:0] = 2 'b 1x;\n"
        "  AND2 g (.A(imp), .B(t), .Y());\n"
        "  box bx (.a(t));\n"
        "endmodule\n";
    /* Bits: t v[3] v[2] v[1] v[0] imp | s/1/io s/1/q[1] s/1/q[0] s/1/w | bx/a */
    fake f;
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(read_text(&f, text, "top", d), GP_OK);
    check_log(&f, "net 0 t\nnet 1 v[3]\nnet 2 v[2]\nnet 3 v[1] =1\nnet 4 v[0] =x\nnet 5 imp\n"
                  "alias 0 s/1/io\nalias 1 s/1/q[1]\nalias 2 s/1/q[0]\nalias 0 s/1/w\n"
                  "alias 0 bx/a\n"
                  "port t inout 0\nport v[3] out 1\nport v[2] out 2\nport v[1] out 3\n"
                  "port v[0] out 4\n"
                  "inst g AND2\n  A 5\n  B 0\n"
                  "inst s/1/i0 INV\n  A 0\n  Y 1\ninst s/1/i1 INV\n  A 0\n  Y 2\n");
    CHECK_EQ_INT(diag_error_count(d), 0);
    CHECK_EQ_INT(diag_count_of(d, 3107), 1);
    diag_free(d);

    /* An empty module with a library cell's name declares that cell. */
    static const char blackbox[] =
        "module INV(A, Y);\n  input A;\n  output Y;\nendmodule\n"
        "module top(input a, output y);\n  INV u (.A(a), .Y(y));\nendmodule\n";
    d = diag_new(NULL);
    CHECK_EQ_INT(read_text(&f, blackbox, "top", d), GP_OK);
    check_log(&f, "net 0 a\nnet 1 y\nport a in 0\nport y out 1\ninst u INV\n  A 0\n  Y 1\n");
    CHECK_EQ_INT(diag_warning_count(d), 0);
    diag_free(d);
}

static bool write_file(const char *path, const char *text, bool gzip)
{
    if (gzip) {
        gzFile gz = gzopen(path, "wb");
        return gz && gzputs(gz, text) >= 0 && gzclose(gz) == Z_OK;
    }
    FILE *f = fopen(path, "w");
    return f && fputs(text, f) >= 0 && fclose(f) == 0;
}

/* The modules spread over two files, the second gzip-compressed, the top
 * first. */
static void test_two_files(void)
{
    char p1[] = "/tmp/gp_test_verilog_XXXXXX", p2[] = "/tmp/gp_test_verilog_XXXXXX";
    int fd1 = mkstemp(p1), fd2 = mkstemp(p2);
    CHECK(fd1 >= 0 && fd2 >= 0);
    if (fd1 < 0 || fd2 < 0)
        return;
    close(fd1);
    close(fd2);
    const char *split = strstr(hier_text, "module top");
    char first[sizeof hier_text];
    memcpy(first, hier_text, (size_t)(split - hier_text));
    first[split - hier_text] = '\0';
    CHECK(write_file(p1, split, false));
    CHECK(write_file(p2, first, true));
    fake f;
    vlog_builder b = fake_builder(&f);
    diag_ctx *d = diag_new(stderr);
    const char *paths[] = {p1, p2};
    CHECK_EQ_INT(vlog_read(paths, 2, "top", &b, NULL, d), GP_OK);
    check_log(&f, hier_log);
    diag_free(d);
    unlink(p1);
    unlink(p2);
}

/* --- errors ------------------------------------------------------------------- */

/* Reads `text`, expecting the first error to be `msgno` at t.v:`line`. */
static void expect_error(const char *text, const char *top, int msgno, int line)
{
    fake f;
    diag_ctx *d = diag_new(NULL);
    gp_status st = read_text(&f, text, top, d);
    CHECK(st != GP_OK);
    CHECK_EQ_INT(diag_first_error_no(d), msgno);
    char where[32];
    snprintf(where, sizeof where, "t.v:%d:", line);
    if (line > 0)
        CHECK(strstr(diag_first_error_text(d), where) != NULL);
    if (diag_first_error_no(d) != msgno || (line > 0 && !strstr(diag_first_error_text(d), where)))
        fprintf(stderr, "  got: %s\n", diag_first_error_text(d));
    diag_free(d);
}

/* A chain of 40 inverters, a -> n1 -> ... -> n39 -> y, its wires declared
 * on line 3 (one or two a statement), then one statement a line from line
 * 4 (u_k on line k + 4), in statements of the shapes the reader parses on
 * threads (named and ordered connections), with line `odd` (0: none)
 * replaced by `with`.  Read in chunks of 1 to 40 bytes, the
 * chain is parsed in runs of statements cut at every place. */
static char *chain_text(int odd, const char *with)
{
    char *text = malloc(4096), *at = text;
    at += sprintf(at, "module top(a, y);\n  input a; output y;\n ");
    for (int k = 1; k < 40; k++)
        at += k % 3 == 2 ? sprintf(at, ", n%d", k)
                         : sprintf(at, "%s wire n%d", k == 1 ? "" : ";", k);
    at += sprintf(at, ";\n");
    for (int k = 0; k < 40; k++) {
        char in[8] = "a", out[8] = "y";
        if (k > 0)
            snprintf(in, sizeof in, "n%d", k);
        if (k < 39)
            snprintf(out, sizeof out, "n%d", k + 1);
        if (k + 4 == odd)
            at += sprintf(at, "%s\n", with);
        else if (k % 3 == 2)
            at += sprintf(at, "  INV u%d (%s, %s);\n", k, in, out);
        else
            at += sprintf(at, "  INV u%d (.A(%s), .Y(%s));\n", k, in, out);
    }
    sprintf(at, "endmodule\n");
    return text;
}

static void test_instance_runs(void)
{
    char *text = chain_text(0, NULL), want[4096], *at = want;
    at += sprintf(at, "net 0 a\nnet 1 y\n");
    for (int k = 1; k < 40; k++)
        at += sprintf(at, "net %d n%d\n", k + 1, k);
    at += sprintf(at, "port a in 0\nport y out 1\n");
    for (int k = 0; k < 40; k++)
        at += sprintf(at, "inst u%d INV\n  A %d\n  Y %d\n", k, k ? k + 1 : 0, k < 39 ? k + 2 : 1);
    fake f;
    diag_ctx *d = diag_new(stderr);
    CHECK_EQ_INT(read_text(&f, text, "top", d), GP_OK);
    check_log(&f, want);
    diag_free(d);
    free(text);
    /* what stops a run, in its middle: each reads as the reader alone would */
    static const char *const breaks[] = {
        "  (* keep *) INV u10 (.A(n10), .Y(n11));", "  INV u10 (.A(1'b1), .Y(n11));",
        "  wire late; INV u10 (.A(late), .Y(n11));", "  INV u10 (.A(imp), .Y(n11));",
        "`ifdef NOPE\n  garbage\n`endif\n  INV u10 (.A(n10), .Y(n11));",
        "  INV u10 (.A({n10}), .Y(n11)), u10b (n10, );",
        "  INV #(1) u10 (.A(n10), .Y(n11));", "  INV \\u10/x (.A(n10), .Y(n11));",
        "  wire [3:0] w, v; wire signed [0:1] s; INV u10 (.A(w[2]), .Y(n11));",
        "  wire x; INV u10 (.A(n10), .Y(n11)); supply1 one;"};
    for (size_t i = 0; i < sizeof breaks / sizeof breaks[0]; i++) {
        text = chain_text(14, breaks[i]);
        d = diag_new(NULL);
        CHECK_EQ_INT(read_text(&f, text, "top", d), GP_OK);
        CHECK(strstr(f.log, "inst u39 INV\n") != NULL);
        CHECK_EQ_INT(f.insts, 40 + (strstr(breaks[i], "u10b") != NULL));
        diag_free(d);
        free(text);
    }
    /* errors in a run's middle, each at its line */
    static const struct {
        const char *with;
        int msgno, line;
    } errors[] = {{"  INV u5 (.A(n20), .Y(n21));", 3010, 24},
                  {"  INV u20 (.A(n20) .Y(n21));", 3001, 24},
                  {"  INV u20 (.A(n20[1]), .Y(n21));", 3012, 24},
                  {"  INV u20 (.A(n20), .Y(n21))", 3001, 25},
                  {"  INV u20 (.A(n20), .Y(n21)), u20 (.A(n20));", 3010, 24},
                  {"  wire x, n5;", 3004, 24},
                  {"  wire x, x;", 3004, 24},
                  {"  wire x; wire [7:0] v; wire x;", 3004, 24},
                  {"  wire w[3:0];", 3027, 24},
                  {"  wire [2147483647:-2147483648] w;", 3015, 24},
                  {"  wire [3:0] v; wire \\v[2] ;", 3009, 24},
                  {"  INV u20 (.A(\\w[1] ), .Y(n21)); wire [3:0] w;", 3009, 24}};
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        text = chain_text(24, errors[i].with);
        expect_error(text, "top", errors[i].msgno, errors[i].line);
        free(text);
    }
}

/* A netlist large enough to be flattened in several parts (on a machine of
 * two cores and up): top(in, out) with N leaves, leaf uK taking {in[K],
 * out[K-1]} (u0: {in[0], 0}) and driving out[K] through an AND2 and an
 * INV.  Bits: in[N-1..0], out[N-1..0], then per leaf a[1] a[0] y n. */
enum { MANY_LEAVES = 20000, MANY_INV = 3, MANY_AND2 = 4 };

static char *many_text(void)
{
    size_t cap = (size_t)MANY_LEAVES * 64 + 512, at = 0;
    char *text = malloc(cap);
    at += (size_t)sprintf(text + at,
                          "module leaf(a, y); input [1:0] a; output y; wire n;\n"
                          "  AND2 g0 (.A(a[1]), .B(a[0]), .Y(n)); INV g1 (.A(n), .Y(y));\n"
                          "endmodule\nmodule top(in, out);\n"
                          "  input [%d:0] in; output [%d:0] out;\n",
                          MANY_LEAVES - 1, MANY_LEAVES - 1);
    for (int k = 0; k < MANY_LEAVES; k++) {
        char low[32];
        if (k)
            sprintf(low, "out[%d]", k - 1);
        at += (size_t)sprintf(text + at, "  leaf u%d (.a({in[%d], %s}), .y(out[%d]));\n", k, k,
                              k ? low : "1'b0", k);
    }
    strcpy(text + at, "endmodule\n");
    return text;
}

/* The nets, as the header's rules number them: in[j] is net N-1-j, out[j]
 * net 2N-1-j, u0/a[0] (tied to 0) net 2N, uK/n net 2N+1+K. */
static uint32_t many_in(int j) { return (uint32_t)(MANY_LEAVES - 1 - j); }
static uint32_t many_out(int j) { return (uint32_t)(2 * MANY_LEAVES - 1 - j); }
static uint32_t many_n(int k) { return (uint32_t)(2 * MANY_LEAVES + 1 + k); }

static bool many_name_is(const strtab_ref *r, const char *want)
{
    return r->len == strlen(want) && memcmp(r->s, want, r->len) == 0;
}

static gp_status many_nets(void *ctx, const vlog_nets *nets)
{
    (void)ctx;
    const int N = MANY_LEAVES;
    CHECK_EQ_INT(nets->count, 3 * N + 1);
    CHECK_EQ_INT(nets->n_names, 6 * N);
    bool same = nets->count == 3 * N + 1 && nets->n_names == 6 * (uint64_t)N;
    for (int j = N - 1; same && j >= 0; j--) {
        char name[32];
        uint64_t k = (uint64_t)(N - 1 - j);
        sprintf(name, "in[%d]", j);
        same = many_name_is(&nets->names[k], name) && nets->name_net[k] == many_in(j);
        sprintf(name, "out[%d]", j);
        same = same && many_name_is(&nets->names[N + k], name) &&
               nets->name_net[N + k] == many_out(j);
    }
    for (int k = 0; same && k < N; k++) {
        char name[4][32];
        uint32_t want[4] = {many_in(k), k ? many_out(k - 1) : 2u * N, many_out(k), many_n(k)};
        sprintf(name[0], "u%d/a[1]", k);
        sprintf(name[1], "u%d/a[0]", k);
        sprintf(name[2], "u%d/y", k);
        sprintf(name[3], "u%d/n", k);
        for (int b = 0; b < 4; b++) {
            uint64_t at = 2 * (uint64_t)N + 4 * (uint64_t)k + (uint64_t)b;
            same = same && many_name_is(&nets->names[at], name[b]) && nets->name_net[at] == want[b];
        }
    }
    CHECK(same);
    for (uint32_t n = 0; same && n < nets->count; n++)
        CHECK_EQ_INT(nets->value[n], n == 2u * N ? VLOG_VALUE_0 : VLOG_VALUE_SIGNAL);
    return GP_OK;
}

static gp_status many_ports(void *ctx, const vlog_ports *ports)
{
    (void)ctx;
    const int N = MANY_LEAVES;
    CHECK_EQ_INT(ports->count, 2 * N);
    bool same = ports->count == 2u * N;
    for (int j = N - 1; same && j >= 0; j--) {
        char name[32];
        uint32_t k = (uint32_t)(N - 1 - j);
        sprintf(name, "in[%d]", j);
        same = many_name_is(&ports->names[k], name) && ports->dir[k] == VLOG_DIR_INPUT &&
               ports->net[k] == many_in(j);
        sprintf(name, "out[%d]", j);
        same = same && many_name_is(&ports->names[N + k], name) &&
               ports->dir[N + k] == VLOG_DIR_OUTPUT && ports->net[N + k] == many_out(j);
    }
    CHECK(same);
    return GP_OK;
}

static gp_status many_instances(void *ctx, const vlog_instances *insts)
{
    (void)ctx;
    const int N = MANY_LEAVES;
    CHECK_EQ_INT(insts->count, 2 * N);
    bool same = insts->count == 2u * N;
    for (int k = 0; same && k < N; k++) {
        char g0[32], g1[32];
        sprintf(g0, "u%d/g0", k);
        sprintf(g1, "u%d/g1", k);
        uint32_t i = 2 * (uint32_t)k, p = insts->pin0[i];
        uint32_t want[5] = {many_in(k), k ? many_out(k - 1) : 2u * N, many_n(k), many_n(k),
                            many_out(k)};
        same = many_name_is(&insts->paths[i], g0) && insts->cell[i] == MANY_AND2 &&
               many_name_is(&insts->paths[i + 1], g1) && insts->cell[i + 1] == MANY_INV &&
               p == 5u * k && insts->pin0[i + 1] == p + 3 && insts->pin0[i + 2] == p + 5;
        for (int b = 0; same && b < 5; b++)
            same = insts->pin_net[p + (uint32_t)b] == want[b];
    }
    CHECK(same);
    return GP_OK;
}

static void test_many_parts(void)
{
    char *text = many_text();
    vlog_builder b = {NULL, fake_find_cell, NULL, many_nets, many_ports, many_instances};
    diag_ctx *d = diag_new(stderr);
    CHECK_EQ_INT(vlog_read_memory("t.v", text, strlen(text), "top", &b, d), GP_OK);
    diag_free(d);
    free(text);
}

/* A flat module large enough that its cell instances are checked on
 * threads (verilog_check_parts.c): named connections in any order, ordered
 * ones, an unsized constant to fit and an instance of a module among them,
 * each left to the check in order, and at lines odd[0] and odd[1] (0: none)
 * with[0] and with[1]. */
enum { FLAT_INSTS = 40000, FLAT_FIRST_LINE = 5 };

static char *flat_text(const int odd[2], const char *const with[2])
{
    size_t cap = (size_t)FLAT_INSTS * 56 + 512, at = 0;
    char *text = malloc(cap);
    at += (size_t)sprintf(text + at, "module sub(x, z); input x; output z; INV g (.A(x), .Y(z)); "
                          "endmodule\nmodule top(a, y);\n  input a; output y; wire [1:0] bus;\n"
                          "  wire n0");
    for (int k = 1; k <= FLAT_INSTS; k++)
        at += (size_t)sprintf(text + at, ", n%d", k);
    at += (size_t)sprintf(text + at, ";\n");
    for (int k = 0; k < FLAT_INSTS; k++) {
        if (k + FLAT_FIRST_LINE == odd[0] || k + FLAT_FIRST_LINE == odd[1])
            at += (size_t)sprintf(text + at, "%s\n", with[k + FLAT_FIRST_LINE != odd[0]]);
        else if (k == FLAT_INSTS / 2)
            at += (size_t)sprintf(text + at, "  sub s0 (.x(n%d), .z(n%d));\n", k, k + 1);
        else if (k == FLAT_INSTS / 2 + 1)
            at += (size_t)sprintf(text + at, "  AND2 u%d (.A(n%d), .B(1), .Y(n%d));\n", k, k,
                                  k + 1);
        else if (k % 3 == 0)
            at += (size_t)sprintf(text + at, "  AND2 u%d (.Y(n%d), .B(n%d), .A(a));\n", k, k + 1,
                                  k);
        else if (k % 3 == 1)
            at += (size_t)sprintf(text + at, "  AND2 u%d (a, n%d, n%d);\n", k, k, k + 1);
        else
            at += (size_t)sprintf(text + at, "  INV u%d (.A(n%d), .Y(n%d));\n", k, k, k + 1);
    }
    strcpy(text + at, "endmodule\n");
    return text;
}

/* The nets of a, n0 .. n<FLAT_INSTS> and the constant 1, by their names. */
typedef struct flat_nets {
    uint32_t a, one, n[FLAT_INSTS + 1];
} flat_nets;

static gp_status flat_add_nets(void *ctx, const vlog_nets *nets)
{
    flat_nets *f = ctx;
    f->one = UINT32_MAX;
    for (uint64_t k = 0; k < nets->n_names; k++) {
        const strtab_ref *r = &nets->names[k];
        if (r->len == 1 && r->s[0] == 'a')
            f->a = nets->name_net[k];
        else if (r->len > 1 && r->s[0] == 'n' && r->s[1] >= '0' && r->s[1] <= '9')
            f->n[atoi(r->s + 1)] = nets->name_net[k];
    }
    for (uint32_t n = 0; n < nets->count; n++)
        if (nets->value[n] == VLOG_VALUE_1)
            f->one = n;
    return GP_OK;
}

static gp_status flat_add_ports(void *ctx, const vlog_ports *ports)
{
    (void)ctx, (void)ports;
    return GP_OK;
}

/* Instance uK's pins on the nets its statement names; s0/g on n<N/2>. */
static gp_status flat_add_instances(void *ctx, const vlog_instances *insts)
{
    const flat_nets *f = ctx;
    CHECK_EQ_INT(insts->count, FLAT_INSTS);
    int wrong = 0;
    for (uint32_t i = 0; i < insts->count; i++) {
        const strtab_ref *path = &insts->paths[i];
        const uint32_t *pin = &insts->pin_net[insts->pin0[i]];
        if (path->len > 1 && path->s[0] == 's') {
            wrong += pin[0] != f->n[FLAT_INSTS / 2] || pin[1] != f->n[FLAT_INSTS / 2 + 1];
            continue;
        }
        int k = atoi(path->s + 1);
        uint32_t first = k % 3 == 2 ? f->n[k] : f->a, second = f->n[k];
        if (k == FLAT_INSTS / 2 + 1)
            first = f->n[k], second = f->one;
        wrong += k % 3 == 2 && k != FLAT_INSTS / 2 + 1
                     ? pin[0] != f->n[k] || pin[1] != f->n[k + 1]
                     : pin[0] != first || pin[1] != second || pin[2] != f->n[k + 1];
    }
    CHECK_EQ_INT(wrong, 0);
    return GP_OK;
}

static void test_flat_module_checked_on_threads(void)
{
    static const int none[2] = {0, 0};
    char *text = flat_text(none, NULL);
    flat_nets *nets = calloc(1, sizeof *nets);
    vlog_builder b = {nets, fake_find_cell, NULL, flat_add_nets, flat_add_ports,
                      flat_add_instances};
    diag_ctx *d = diag_new(stderr);
    CHECK_EQ_INT(vlog_read_memory("t.v", text, strlen(text), "top", &b, d), GP_OK);
    CHECK(nets->one != UINT32_MAX);
    diag_free(d);
    free(nets);
    free(text);
    /* errors among instances settled on threads: the first in the file is
     * reported, at its line, as the check in order reports it (the last:
     * two errors, in the two halves that two threads take) */
    static const struct {
        int line[2];
        const char *with[2];
        int msgno;
    } errors[] = {{{25000, 0}, {"  INV u (.A(n1), .Q(n2));"}, 3062},
                  {{30000, 0}, {"  AND2 u (.A(a), .A(a), .Y(n3));"}, 3064},
                  {{35000, 0}, {"  INV u (.A(bus), .Y(n4));"}, 3066},
                  {{36000, 0}, {"  INV u (n1, n2, n3);"}, 3065},
                  {{39000, 0}, {"  NOPE u (.A(n1));"}, 3060},
                  {{10000, 30000}, {"  INV u (.A(n1), .A(n2));", "  INV v (.Q(n1));"}, 3064}};
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        text = flat_text(errors[i].line, errors[i].with);
        expect_error(text, "top", errors[i].msgno, errors[i].line[0]);
        free(text);
    }
}

/* A module hierarchy thousands of levels deep is refused at the instance
 * whose path passes 4096 characters, not elaborated in memory that grows
 * with the square of its depth. */
static void test_deep_hierarchy(void)
{
    size_t depth = 40000, at = 0;
    char *text = malloc(depth * 80 + 200);
    if (!text)
        return;
    at += (size_t)sprintf(text + at, "module m%zu (a, y); input a; output y; assign y = a; "
                          "endmodule\n", depth);
    for (size_t k = depth; k-- > 0;)
        at += (size_t)sprintf(text + at, "module m%zu (a, y); input a; output y; m%zu u (.a(a), "
                              ".y(y)); endmodule\n", k, k + 1);
    /* m0 is on the last line; u of m(k) has the path u/u/...: 2 characters a
     * level, so m2048's u (line depth + 1 - 2048) is the first past 4096 */
    expect_error(text, "m0", 3038, (int)(depth + 1 - 2048));
    free(text);
}

static void test_missing_file(void)
{
    fake f;
    vlog_builder b = fake_builder(&f);
    diag_ctx *d = diag_new(NULL);
    const char *paths[] = {"/nonexistent/netlist.v"};
    CHECK_EQ_INT(vlog_read(paths, 1, "top", &b, NULL, d), GP_ERR_IO);
    CHECK_EQ_INT(diag_first_error_no(d), 1101);
    CHECK(strstr(diag_first_error_text(d), "/nonexistent/netlist.v") != NULL);
    diag_free(d);
}

/* What a lexer started inside a comment or in the middle of a line would
 * read wrong: comments over several lines holding what looks like tokens,
 * quotes and comment marks inside comments and escaped names.  read_text
 * also reads it in chunks of every size from 1 to 40 bytes. */
static void test_chunk_borders(void)
{
    static const char text[] =
        "/* a header comment\n"
        "   module fake(x); INV u (.A(x)); \"quoted\n"
        "   // a line comment inside */ module top(a, y);\n"
        "  input a; // a line comment with */ and \" in it\n"
        "  output y;\n"
        "  wire \\w/* ;\n"
        "  /* one\n  line\n */ INV \\u/1 (.A(a), .Y(\\w/* ));\n"
        "  (* keep = \"yes\" *)\n"
        "  INV u2 (.A(\\w/* ), .Y(y));\n"
        "endmodule\n";
    fake f;
    diag_ctx *d = diag_new(stderr);
    CHECK_EQ_INT(read_text(&f, text, "top", d), GP_OK);
    check_log(&f, "net 0 a\nnet 1 y\nnet 2 w/*\nport a in 0\nport y out 1\n"
                  "inst u/1 INV\n  A 0\n  Y 2\ninst u2 INV\n  A 2\n  Y 1\n");
    diag_free(d);
    expect_error("module top(a);\n  input a;\n/* never closed\n\n\n", "top", 1121, 3);
    expect_error("module top(a);\n  input a;\n  \"open\nendmodule\n", "top", 1120, 3);
}

static void test_syntax_errors(void)
{
    /* truncated in the middle of an instance */
    expect_error("module top(a);\n  input a;\n  INV u1 (.A(a)", "top", 3001, 3);
    /* truncated before endmodule */
    expect_error("module top(a);\n  input a;\n", "top", 3001, 3);
    expect_error("module top(a);\n  input a;\n  INV u1 .A(a));\nendmodule\n", "top", 3001, 3);
    expect_error("module top(a);\n  input a;\n  INV u1 (.A(a) .Y());\nendmodule\n", "top", 3001,
                 3);
    expect_error("module top(a);\n  input a;\n  INV 1u (.A(a));\nendmodule\n", "top", 3002, 3);
    expect_error("module top(a);\n  input a;\n  wire [3:x] w;\nendmodule\n", "top", 3001, 3);
    expect_error("module top(a);\n  input a;\n  INV u1 (.A(2'b12));\nendmodule\n", "top", 3040,
                 3);
    expect_error("module top(a);\n  input a;\n  INV u1 (.A(3'hF));\nendmodule\n", "top", 3040, 3);
    expect_error("module top(a);\n  input a;\n  INV u1 (.A(1'q0));\nendmodule\n", "top", 3040, 3);
    expect_error("module top(a);\n  input a;\n  INV u1 (.A({a, 1}));\nendmodule\n", "top", 3017,
                 3);
    expect_error("module top(a);\n  input a;\n (* keep \nendmodule\n", "top", 3033, 3);
    expect_error("module top(a);\n`ifdef X\n  input a;\nendmodule\n", "top", 3034, 5);
    expect_error("module top(a);\n`endif\nendmodule\n", "top", 3032, 2);
    expect_error("module top(a);\n  input a;\n  `MYMACRO\nendmodule\n", "top", 3030, 3);
    expect_error("primitive p(o, a);\nendprimitive\n", "top", 3025, 1);
}

static void test_unsupported(void)
{
    expect_error("module top(a);\n  input a;\n  always @(a) ;\nendmodule\n", "top", 3023, 3);
    expect_error("module top(a, y);\n  input a; output y;\n  and g(y, a, a);\nendmodule\n",
                 "top", 3024, 3);
    expect_error("module top(a);\n  input a;\n  INV u[1:0] (.A(a));\nendmodule\n", "top", 3026,
                 3);
    expect_error("module top(a);\n  input a;\n  wire m [0:3];\nendmodule\n", "top", 3027, 3);
    expect_error("module top(.p(a));\n  input a;\nendmodule\n", "top", 3028, 1);
}

static void test_declaration_errors(void)
{
    expect_error("module top(a);\n  input a;\n  input a;\nendmodule\n", "top", 3004, 3);
    expect_error("module top(a);\n  input a;\n  INV u1 (.A(n));\n  wire n;\nendmodule\n", "top",
                 3005, 4);
    expect_error("module top(a);\n  input a, b;\nendmodule\n", "top", 3006, 2);
    expect_error("module top(a);\n  input [3:0] a;\n  wire [4:0] a;\nendmodule\n", "top", 3007,
                 3);
    expect_error("module top(a, b);\n  input a;\nendmodule\n", "top", 3008, 1);
    expect_error("module top(a);\n  input a;\n  wire [3:0] v;\n  wire \\v[2] ;\nendmodule\n",
                 "top", 3009, 4);
    expect_error("module top(a);\n  input a;\n  INV u1 (.A(a));\n  INV u1 (.A(a));\nendmodule\n",
                 "top", 3010, 4);
    expect_error("`default_nettype none\nmodule top(a);\n  input a;\n  INV u1 (.A(n));\n"
                 "endmodule\n",
                 "top", 3011, 4);
    expect_error("module top(a);\n  input a;\n  INV u1 (.A(a[0]));\nendmodule\n", "top", 3012, 3);
    expect_error("module top(a);\n  input [3:0] a;\n  INV u1 (.A(a[4]));\nendmodule\n", "top",
                 3013, 3);
    expect_error("module top(a);\n  input [3:0] a;\n  AND2 u1 (.A(a[0:1]));\nendmodule\n",
                 "top", 3014, 3);
    expect_error("module top(a);\n  input a;\n  assign 1'b0 = a;\nendmodule\n", "top", 3020, 3);
    expect_error("module top(a);\n  input a;\n  wire [1:0] w;\n  assign w = a;\nendmodule\n",
                 "top", 3021, 4);
    expect_error("module top(a);\n  INV u1 (.A(a));\n  input a;\nendmodule\n", "top", 3036, 2);
    expect_error("module top(a);\n  input a;\nendmodule\nmodule top(b);\n  input b;\nendmodule\n",
                 "top", 3003, 4);
}

/* Cells in no library that connect nothing (the taps and fill an OpenROAD
 * netlist writes as `TAP t ();`) are left out with one warning per type,
 * as OpenSTA links them as black boxes; one that connects a net is still
 * error 3060 (it would carry power). */
static void test_black_boxes(void)
{
    static const char text[] =
        "module top(a, y);\n  input a; output y;\n"
        "  TAPCELL t1 ();\n  TAPCELL t2 ();\n  FILL f1 (.VPWR());\n"
        "  INV u1 (.A(a), .Y(y));\nendmodule\n";
    fake f;
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(read_text(&f, text, "top", d), GP_OK);
    CHECK_EQ_INT(f.insts, 1);
    CHECK_EQ_INT(diag_count_of(d, 3108), 2); /* TAPCELL once, FILL once */
    CHECK(strstr(f.log, "TAPCELL") == NULL);
    diag_free(d);
    expect_error("module top(a);\n  input a;\n  TAPCELL t1 ();\n  NOPE u1 (.A(a));\nendmodule\n",
                 "top", 3060, 4);
}

static void test_link_errors(void)
{
    /* unknown cell, unknown pin, width mismatch, connected twice, too many */
    expect_error("module top(a);\n  input a;\n  NOPE u1 (.A(a));\nendmodule\n", "top", 3060, 3);
    expect_error("module top(a);\n  input a;\n  INV u1 (.Z(a));\nendmodule\n", "top", 3062, 3);
    expect_error("module top(a);\n  input [1:0] a;\n  INV u1 (.A(a));\nendmodule\n", "top", 3066,
                 3);
    expect_error("module top(a);\n  input [1:0] a;\n  REG4 u1 (.D({a, a[0]}));\nendmodule\n",
                 "top", 3066, 3);
    expect_error("module top(a);\n  input a;\n  INV u1 (.A(2));\nendmodule\n", "top", 3066, 3);
    expect_error("module top(a);\n  input a;\n  INV u1 (.A(a), .A(a));\nendmodule\n", "top",
                 3064, 3);
    expect_error("module top(a);\n  input a;\n  INV u1 (a, a, a);\nendmodule\n", "top", 3065, 3);
    expect_error("module top(a);\n  input a;\n  BADLIB u1 (.A(a));\nendmodule\n", "top", 3069,
                 3);
    /* submodules: unknown port, width, recursion */
    expect_error("module s(input p);\nendmodule\nmodule top(a);\n  input a;\n  s u (.q(a));\n"
                 "endmodule\n",
                 "top", 3063, 5);
    expect_error("module s(input [1:0] p);\nendmodule\nmodule top(a);\n  input a;\n"
                 "  s u (.p(a));\nendmodule\n",
                 "top", 3066, 5);
    expect_error("module a(input p);\n  b u (.p(p));\nendmodule\nmodule b(input p);\n"
                 "  a u (.p(p));\nendmodule\nmodule top(x);\n  input x;\n  a u (.p(x));\n"
                 "endmodule\n",
                 "top", 3061, 5);
    /* a net tied to two constants */
    expect_error("module top(a);\n  input a;\n  wire w;\n  assign w = 1'b0;\n"
                 "  assign w = 1'b1;\nendmodule\n",
                 "top", 3080, 5);
}

static void test_limits(void)
{
    expect_error("module top(a);\n  input a;\n  wire [2000000:0] w;\nendmodule\n", "top", 3015, 3);
    expect_error("module top(a);\n  input [3:0] a;\n  INV u (.A(a[x]));\nendmodule\n", "top",
                 3016, 3);
    expect_error("module top(a);\n  input a;\n  INV u (.A({0{a}}));\nendmodule\n", "top", 3018,
                 3);
    expect_error("module top(a);\n  input a;\n  INV u (.A({65536{a, a}}));\nendmodule\n", "top",
                 3019, 3);
    char nested[1200] = "module top(a);\n  input a;\n  INV u (.A(";
    for (int i = 0; i < 300; i++)
        strcat(nested, "{");
    strcat(nested, "a");
    expect_error(nested, "top", 3037, 3);
    expect_error("module top(a);\n  input a;\n`include \"cells.v\"\nendmodule\n", "top", 3029, 3);
    expect_error("module top(a);\n  input a;\n`ifdef\n`endif\nendmodule\n", "top", 3031, 3);
    /* 2^20-bit vectors instantiated 16^3 times: 2^32 flat bits */
    expect_error("module l0(input a);\n  wire [1048575:0] w;\nendmodule\n"
                 "module l1(input a);\n  l0 u0(a); l0 u1(a); l0 u2(a); l0 u3(a); l0 u4(a); "
                 "l0 u5(a); l0 u6(a); l0 u7(a);\n  l0 u8(a); l0 u9(a); l0 ua(a); l0 ub(a); "
                 "l0 uc(a); l0 ud(a); l0 ue(a); l0 uf(a);\nendmodule\n"
                 "module l2(input a);\n  l1 u0(a); l1 u1(a); l1 u2(a); l1 u3(a); l1 u4(a); "
                 "l1 u5(a); l1 u6(a); l1 u7(a);\n  l1 u8(a); l1 u9(a); l1 ua(a); l1 ub(a); "
                 "l1 uc(a); l1 ud(a); l1 ue(a); l1 uf(a);\nendmodule\n"
                 "module top(input a);\n  l2 u0(a); l2 u1(a); l2 u2(a); l2 u3(a); l2 u4(a); "
                 "l2 u5(a); l2 u6(a); l2 u7(a);\n  l2 u8(a); l2 u9(a); l2 ua(a); l2 ub(a); "
                 "l2 uc(a); l2 ud(a); l2 ue(a); l2 uf(a);\nendmodule\n",
                 "top", 3070, 12);
    /* one module of more than 2^31 bits */
    size_t n = 2100, size = n * 40 + 64;
    char *text = malloc(size), *at = text;
    at += sprintf(at, "module top(a);\n  input a;\n");
    for (size_t i = 0; i < n; i++)
        at += sprintf(at, "  wire [1048575:0] w%zu;\n", i);
    sprintf(at, "endmodule\n");
    expect_error(text, "top", 3035, 1);
    free(text);
}

static void test_warnings(void)
{
    static const char text[] =
        "module top #(parameter W = 1) (input a, output y);\n"
        "  wand w;\n"
        "  assign #1 y = a;\n"
        "  assign (strong0, strong1) w = a;\n"
        "endmodule\n";
    fake f;
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(read_text(&f, text, "top", d), GP_OK);
    CHECK_EQ_INT(diag_count_of(d, 3106), 1);
    CHECK_EQ_INT(diag_count_of(d, 3105), 1);
    CHECK_EQ_INT(diag_count_of(d, 3104), 2);
    check_log(&f, "net 0 a\nalias 0 y\nalias 0 w\nport a in 0\nport y out 0\n");
    diag_free(d);
}

static void test_top_errors(void)
{
    fake f;
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(read_text(&f, hier_text, "nosuch", d), GP_ERR_USAGE);
    CHECK_EQ_INT(diag_first_error_no(d), 3051);
    CHECK(strstr(diag_first_error_text(d), "leaf, mid, top") != NULL);
    CHECK(strstr(diag_first_error_text(d), "t.v:") != NULL);
    diag_free(d);

    d = diag_new(NULL);
    CHECK_EQ_INT(read_text(&f, "module a;\nendmodule\nmodule b;\nendmodule\n", NULL, d),
                 GP_ERR_USAGE);
    CHECK_EQ_INT(diag_first_error_no(d), 3052);
    CHECK(strstr(diag_first_error_text(d), "(a, b)") != NULL);
    diag_free(d);

    d = diag_new(NULL);
    CHECK_EQ_INT(read_text(&f, "// nothing\n", NULL, d), GP_ERR_INPUT);
    CHECK_EQ_INT(diag_first_error_no(d), 3050);
    diag_free(d);
}

static void test_builder_failure(void)
{
    fake f;
    vlog_builder b = fake_builder(&f);
    f.fail_instances = 1;
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(vlog_read_memory("t.v", hier_text, strlen(hier_text), "top", &b, d),
                 GP_ERR_INPUT);
    CHECK_EQ_INT(diag_first_error_no(d), 3090);
    CHECK(strstr(diag_first_error_text(d), "the instances of design 'top'") != NULL);
    diag_free(d);
    /* a builder that refuses the design's size */
    b = fake_builder(&f);
    b.reserve = fake_reserve;
    f.fail_instances = 1;
    d = diag_new(NULL);
    CHECK_EQ_INT(vlog_read_memory("t.v", hier_text, strlen(hier_text), "top", &b, d),
                 GP_ERR_INPUT);
    CHECK_EQ_INT(diag_first_error_no(d), 3090);
    CHECK_EQ_STR(f.log, "reserve 16 4 8 3\n");
    diag_free(d);
}

int main(void)
{
    RUN(test_reg1_asap7);
    RUN(test_hierarchy);
    RUN(test_selects_constants_escapes);
    RUN(test_yosys_style);
    RUN(test_constants_through_hierarchy);
    RUN(test_more_syntax);
    RUN(test_chunk_borders);
    RUN(test_instance_runs);
    RUN(test_many_parts);
    RUN(test_flat_module_checked_on_threads);
    RUN(test_two_files);
    RUN(test_missing_file);
    RUN(test_syntax_errors);
    RUN(test_unsupported);
    RUN(test_declaration_errors);
    RUN(test_link_errors);
    RUN(test_limits);
    RUN(test_warnings);
    RUN(test_top_errors);
    RUN(test_deep_hierarchy);
    RUN(test_black_boxes);
    RUN(test_builder_failure);
    return check_exit_code();
}
