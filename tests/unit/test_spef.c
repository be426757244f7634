/* test_spef.c: the SPEF reader through a recording visitor, on the shared
 * ASAP7 example and hand-written files, and its error messages. */
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "check.h"
#include "spef/spef.h"
#include "util/infile.h"
#include "util/mem.h"

#define REG1 "../../../shared/designs/reg1_asap7.spef"
#define MAX_NETS 16
#define MAX_CONNS 4
#define MAX_PORTS 8

typedef struct conn_rec {
    char text[96]; /* "P name O", "I inst|pin I", plus " load" / " cell X" */
    double load;
} conn_rec;

typedef struct net_rec {
    char name[64];
    double total_cap;
    int line;
    int conn_count;
    conn_rec conns[MAX_CONNS];
} net_rec;

typedef struct recorder {
    int headers;
    spef_header h;
    char design[64], flow[96];
    char supplies[128]; /* "+VDD -VSS " */
    conn_rec ports[MAX_PORTS];
    int port_count;
    net_rec nets[MAX_NETS];
    int net_count;
    int stop_after; /* > 0: the net after this many fails */
} recorder;

typedef struct run {
    gp_status st;
    diag_ctx *d;
    FILE *sink;
    char *log;
    size_t log_len;
} run;

static void describe(const spef_conn *c, conn_rec *out)
{
    static const char dirs[] = "IOB";
    int n = c->is_port ? snprintf(out->text, sizeof out->text, "P %s %c", c->pin, dirs[c->dir])
                       : snprintf(out->text, sizeof out->text, "I %s|%s %c", c->inst, c->pin,
                                  dirs[c->dir]);
    if (c->has_load)
        n += snprintf(out->text + n, sizeof out->text - (size_t)n, " load");
    if (c->driving_cell)
        snprintf(out->text + n, sizeof out->text - (size_t)n, " cell %s", c->driving_cell);
    out->load = c->load;
}

static gp_status on_header(void *ctx, const spef_header *h, diag_loc loc)
{
    recorder *r = ctx;
    (void)loc;
    r->headers++;
    r->h = *h;
    snprintf(r->design, sizeof r->design, "%s", h->design);
    snprintf(r->flow, sizeof r->flow, "%s", h->design_flow);
    return GP_OK;
}

static gp_status on_supply(void *ctx, const char *name, bool ground, diag_loc loc)
{
    recorder *r = ctx;
    (void)loc;
    size_t n = strlen(r->supplies);
    snprintf(r->supplies + n, sizeof r->supplies - n, "%c%s ", ground ? '-' : '+', name);
    return GP_OK;
}

static gp_status on_port(void *ctx, const spef_conn *c, diag_loc loc)
{
    recorder *r = ctx;
    (void)loc;
    if (r->port_count == MAX_PORTS)
        return GP_ERR_NOMEM;
    describe(c, &r->ports[r->port_count++]);
    return GP_OK;
}

static gp_status on_net(void *ctx, const spef_net *net, diag_loc loc)
{
    recorder *r = ctx;
    if (r->stop_after > 0 && r->net_count == r->stop_after)
        return GP_ERR_INPUT;
    if (r->net_count == MAX_NETS)
        return GP_ERR_NOMEM;
    net_rec *x = &r->nets[r->net_count++];
    snprintf(x->name, sizeof x->name, "%s", net->name);
    x->total_cap = net->total_cap;
    x->line = loc.line;
    x->conn_count = (int)net->conn_count;
    for (size_t i = 0; i < net->conn_count && i < MAX_CONNS; i++)
        describe(&net->conns[i], &x->conns[i]);
    return GP_OK;
}

/* Reads data[0..len) into r; x is filled in place (the sink writes into it). */
static void read_data(run *x, const char *data, size_t len, recorder *r)
{
    *x = (run){0};
    x->sink = open_memstream(&x->log, &x->log_len);
    x->d = diag_new(x->sink);
    diag_set_warning_cap(x->d, 0);
    spef_visitor v = {r, on_header, on_supply, on_port, on_net};
    x->st = spef_read_memory("t.spef", data, len, &v, x->d);
    fflush(x->sink);
}

static void run_free(run *x)
{
    diag_free(x->d);
    fclose(x->sink);
    free(x->log);
}

static void check_error(const char *text, int no, int line)
{
    recorder r = {0};
    run x;
    read_data(&x, text, strlen(text), &r);
    char where[32];
    snprintf(where, sizeof where, "t.spef:%d:", line);
    CHECK(x.st != GP_OK);
    CHECK_EQ_INT(diag_first_error_no(x.d), no);
    CHECK(strstr(diag_first_error_text(x.d), where) != NULL);
    if (diag_first_error_no(x.d) != no || !strstr(diag_first_error_text(x.d), where))
        fprintf(stderr, "  got: %s\n", diag_first_error_text(x.d));
    run_free(&x);
}

/* --- the shared example ------------------------------------------------------- */

static void test_reg1_asap7(void)
{
    recorder r = {0};
    spef_visitor v = {&r, on_header, on_supply, on_port, on_net};
    diag_ctx *d = diag_new(stderr);
    if (access(REG1, R_OK) != 0)
        check_skip("../shared/designs/reg1_asap7.spef is not there");
    CHECK_EQ_INT(spef_read(REG1, &v, d), GP_OK);
    CHECK_EQ_INT(diag_error_count(d), 0);
    CHECK_EQ_INT(diag_warning_count(d), 0);
    CHECK_EQ_INT(r.headers, 1);
    CHECK_EQ_STR(r.design, "reg1");
    CHECK_EQ_STR(r.flow, "MISSING_NETS");
    CHECK_EQ_INT(r.h.divider, '/');
    CHECK_EQ_INT(r.h.delimiter, ':');
    CHECK_EQ_INT(r.h.bus_open, '[');
    CHECK_EQ_INT(r.h.bus_close, ']');
    /* *T_UNIT 1.0 PS, *C_UNIT 1.0 FF, *R_UNIT 1.0 KOHM, *L_UNIT 1.0 UH */
    CHECK_NEAR_REL(r.h.t_unit, 1e3, 1e-15);
    CHECK_NEAR_REL(r.h.c_unit, 1e-15, 1e-15);
    CHECK_NEAR_REL(r.h.r_unit, 1e3, 1e-15);
    CHECK_NEAR_REL(r.h.l_unit, 1e-6, 1e-15);
    CHECK_EQ_STR(r.supplies, "+VDD -VSS ");
    CHECK_EQ_INT(r.port_count, 6);
    CHECK_EQ_STR(r.ports[0].text, "P in1 I");
    CHECK_EQ_STR(r.ports[5].text, "P out O");
    /* Ten *D_NETs, each "13.4" in FF: 13.4e-15 F. */
    static const char *const names[] = {"in1", "in2", "clk1", "clk2", "clk3",
                                        "r1q", "r2q", "u1z",  "u2z",  "out"};
    static const int lines[] = {27, 38, 49, 60, 71, 82, 93, 104, 115, 126};
    CHECK_EQ_INT(r.net_count, 10);
    for (int i = 0; i < 10 && i < r.net_count; i++) {
        CHECK_EQ_STR(r.nets[i].name, names[i]);
        CHECK_NEAR_REL(r.nets[i].total_cap, 13.4e-15, 1e-12);
        CHECK_EQ_INT(r.nets[i].line, lines[i]);
        CHECK_EQ_INT(r.nets[i].conn_count, 2);
    }
    /* in1: "*P in1 I" and "*I r1:D I *L .0036" (FF) */
    CHECK_EQ_STR(r.nets[0].conns[0].text, "P in1 I");
    CHECK_EQ_STR(r.nets[0].conns[1].text, "I r1|D I load");
    CHECK_NEAR_REL(r.nets[0].conns[1].load, 0.0036e-15, 1e-12);
    /* r1q: "*I r1:Q O", "*I u2:A I *L .0086"; out: "*I r3:Q O", "*P out O" */
    CHECK_EQ_STR(r.nets[5].conns[0].text, "I r1|Q O");
    CHECK_NEAR_REL(r.nets[5].conns[1].load, 0.0086e-15, 1e-12);
    CHECK_EQ_STR(r.nets[9].conns[0].text, "I r3|Q O");
    CHECK_EQ_STR(r.nets[9].conns[1].text, "P out O");
    diag_free(d);
}

/* The example cut after line 33, inside the first net's *CAP section. */
static void test_reg1_truncated(void)
{
    char *data;
    size_t len;
    diag_ctx *d = diag_new(NULL);
    if (infile_read_all(REG1, d, &data, &len) != GP_OK)
        check_skip("../shared/designs/reg1_asap7.spef is not there");
    size_t cut = 0;
    for (int lines = 0; cut < len && lines < 33; cut++)
        lines += data[cut] == '\n';
    CHECK(strncmp(data + cut - 11, "2 r1:D 6.7\n", 11) == 0);
    recorder r = {0};
    run x;
    read_data(&x, data, cut, &r);
    CHECK_EQ_INT(x.st, GP_ERR_PARSE);
    CHECK_EQ_INT(diag_first_error_no(x.d), 5002);
    CHECK(strstr(diag_first_error_text(x.d), "t.spef:34:1:") != NULL);
    CHECK_EQ_INT(r.net_count, 0);
    run_free(&x);
    mem_free(data);
    diag_free(d);
}

/* --- a hand-written file -------------------------------------------------------- */

static const char hand_spef[] =
    "// hand-written\n"
    "*SPEF \"IEEE 1481-1998\"\n"
    "*DESIGN \"top\"\n"
    "*DATE \"today\"\n"
    "*VENDOR \"me\"\n"                                          /* 5 */
    "*PROGRAM \"hand\"\n"
    "*VERSION \"1\"\n"
    "*DESIGN_FLOW \"EXTERNAL_LOADS\" \"FULL_CONNECTIVITY\"\n"
    "*DIVIDER .\n"
    "*DELIMITER :\n"                                            /* 10 */
    "*BUS_DELIMITER < >\n"
    "*T_UNIT 1 NS\n"
    "*C_UNIT 1 PF\n"
    "*R_UNIT 1 OHM\n"
    "*L_UNIT 1 HENRY\n"                                         /* 15 */
    "\n"
    "*NAME_MAP\n"
    "*1 top.u\\.x\n"
    "*3 u7\n"
    "*2 data<3>\n"                                              /* 20 */
    "*10 clk\n"
    "\n"
    "*POWER_NETS VDD VDD2\n"
    "*GROUND_NETS VSS\n"
    "\n"                                                        /* 25 */
    "*PORTS\n"
    "*10 I *C 0 0 *L 0.002\n"
    "*2 O\n"
    "bi B *S 0.1 0.2 *D BUFX1\n"
    "\n"                                                        /* 30 */
    "*D_NET *2 0.5:0.6:0.7 // a triple: the middle\n"
    "*CONN\n"
    "*I *1:Y O *D INVX1 *C 1.5 2.5\n"
    "*I *3:A<1> I *L 0.001:0.002:0.003\n"
    "*P *2 O\n"                                                 /* 35 */
    "*N *2:1 *C 3 4\n"
    "*CAP\n"
    "1 *1:Y 0.1\n"
    "2 *2:1 0.2:0.25:0.3\n"
    "3 *2:1 other:1 0.05\n"                                     /* 40 */
    "*RES\n"
    "1 *1:Y *2:1 10\n"
    "2 *2:1 *3:A<1> 20\n"
    "*INDUC\n"
    "1 *1:Y *2:1 1e-9\n"                                        /* 45 */
    "*END\n"
    "\n"
    "*R_NET r1 1.0\n"
    "*DRIVER u1:Y\n"
    "*CELL INVX1\n"                                             /* 50 */
    "*C2_R1_C1 0.1 2 0.3\n"
    "*LOADS\n"
    "*RC u2:A 1.5\n"
    "*END\n"
    "\n"                                                        /* 55 */
    "*D_NET a\\/b.c 1e-3 *V 0.9\n"
    "*CONN\n"
    "*I x\\:y.z:Q O\n"
    "*END\n"
    "\n"                                                        /* 60 */
    "*D_PNET p1 1\n"
    "*END\n"
    "/* a block comment */\n"
    "*FOO bar baz\n"
    "*D_NET *10 2\n"                                            /* 65 */
    "*FOO2 1 2\n"
    "*END\n";

static void test_hand_written(void)
{
    recorder r = {0};
    run x;
    read_data(&x, hand_spef, strlen(hand_spef), &r);
    CHECK_EQ_INT(x.st, GP_OK);
    CHECK_EQ_INT(diag_error_count(x.d), 0);
    CHECK_EQ_STR(r.design, "top");
    CHECK_EQ_STR(r.flow, "EXTERNAL_LOADS FULL_CONNECTIVITY");
    CHECK_EQ_INT(r.h.divider, '.');
    CHECK_EQ_INT(r.h.bus_open, '<');
    CHECK_EQ_INT(r.h.bus_close, '>');
    CHECK_NEAR_REL(r.h.t_unit, 1e6, 1e-15);
    CHECK_NEAR_REL(r.h.c_unit, 1e-12, 1e-15);
    CHECK_NEAR_REL(r.h.r_unit, 1, 1e-15);
    CHECK_NEAR_REL(r.h.l_unit, 1, 1e-15);
    CHECK_EQ_STR(r.supplies, "+VDD +VDD2 -VSS ");
    CHECK_EQ_INT(r.port_count, 3);
    CHECK_EQ_STR(r.ports[0].text, "P clk I load");
    CHECK_NEAR_REL(r.ports[0].load, 0.002e-12, 1e-12);
    CHECK_EQ_STR(r.ports[1].text, "P data[3] O");
    CHECK_EQ_STR(r.ports[2].text, "P bi B cell BUFX1");
    CHECK_EQ_INT(r.net_count, 3);
    /* *2 = data<3>; 0.5:0.6:0.7 PF gives 0.6 pF */
    CHECK_EQ_STR(r.nets[0].name, "data[3]");
    CHECK_NEAR_REL(r.nets[0].total_cap, 0.6e-12, 1e-12);
    CHECK_EQ_INT(r.nets[0].line, 31);
    CHECK_EQ_INT(r.nets[0].conn_count, 3);
    CHECK_EQ_STR(r.nets[0].conns[0].text, "I top/u.x|Y O cell INVX1");
    CHECK_EQ_STR(r.nets[0].conns[1].text, "I u7|A[1] I load");
    CHECK_NEAR_REL(r.nets[0].conns[1].load, 0.002e-12, 1e-12);
    CHECK_EQ_STR(r.nets[0].conns[2].text, "P data[3] O");
    /* "a\/b.c": the escaped '/' and the divider '.' both give '/'; 1e-3 pF */
    CHECK_EQ_STR(r.nets[1].name, "a/b/c");
    CHECK_NEAR_REL(r.nets[1].total_cap, 1e-15, 1e-12);
    CHECK_EQ_STR(r.nets[1].conns[0].text, "I x:y/z|Q O");
    CHECK_EQ_STR(r.nets[2].name, "clk");
    CHECK_NEAR_REL(r.nets[2].total_cap, 2e-12, 1e-12);
    CHECK_EQ_INT(r.nets[2].conn_count, 0);
    /* Skipped: *R_NET and *D_PNET (once each), *FOO at the top, *FOO2 in a net */
    CHECK_EQ_INT(diag_count_of(x.d, 5015), 3);
    CHECK(strstr(x.log, "t.spef:48:1: warning 5015: *R_NET skipped") != NULL);
    CHECK_EQ_INT(diag_count_of(x.d, 5016), 1);
    CHECK(strstr(x.log, "t.spef:64:1: warning 5016: unknown keyword '*FOO'") != NULL);
    run_free(&x);
}

/* A bus delimiter without a closing one, a pair written as one word, a
 * name map out of order, no visitor callbacks but d_net, and a visitor
 * that stops. */
static void test_variants(void)
{
    static const char text[] = "*SPEF \"IEEE 1481-2009\"\n*DIVIDER /\n*DELIMITER :\n"
                               "*BUS_DELIMITER :\n*C_UNIT 10 FF\n"
                               "*NAME_MAP\n*7 b\n*5 a/d:2\n"
                               "*D_NET *5 3\n*CONN\n*I *7:A:1 I\n*END\n"
                               "*D_NET n2 1\n*END\n";
    recorder r = {0};
    run x;
    read_data(&x, text, strlen(text), &r);
    CHECK_EQ_INT(x.st, GP_OK);
    CHECK_EQ_INT(r.h.bus_open, ':');
    CHECK_EQ_INT(r.h.bus_close, '\0');
    CHECK_EQ_INT(r.net_count, 2);
    CHECK_EQ_STR(r.nets[0].name, "a/d[2]");
    CHECK_NEAR_REL(r.nets[0].total_cap, 30e-15, 1e-12); /* 3 x 10 FF */
    /* ':' is both the pin and the bus delimiter: a trailing ":1" is a bit */
    CHECK_EQ_STR(r.nets[0].conns[0].text, "I b|A[1] I");
    run_free(&x);

    /* "[]" as one word, as OpenRCX writes it; "[)" is no pair */
    static const char paired[] = "*SPEF \"IEEE 1481-1998\"\n*DIVIDER /\n*DELIMITER :\n"
                                 "*BUS_DELIMITER []\n*C_UNIT 1 FF\n*D_NET n[3] 1\n*END\n";
    recorder rp = {0};
    read_data(&x, paired, strlen(paired), &rp);
    CHECK_EQ_INT(x.st, GP_OK);
    CHECK_EQ_INT(rp.h.bus_open, '[');
    CHECK_EQ_INT(rp.h.bus_close, ']');
    CHECK_EQ_INT(rp.net_count, 1);
    run_free(&x);
    static const char unpaired[] = "*SPEF \"IEEE 1481-1998\"\n*BUS_DELIMITER [)\n";
    recorder ru = {0};
    read_data(&x, unpaired, strlen(unpaired), &ru);
    CHECK_EQ_INT(diag_first_error_no(x.d), 5006);
    run_free(&x);
    /* a NUL and a closing bracket as one word (libFuzzer's): refused, read
     * within the word */
    static const char nul[] = "*SPEF \"IEEE 1481-1998\"\n*BUS_DELIMITER \0]\n";
    recorder rn = {0};
    read_data(&x, nul, sizeof nul - 1, &rn);
    CHECK(x.st != GP_OK);
    run_free(&x);

    recorder stop = {.stop_after = 1};
    read_data(&x, text, strlen(text), &stop);
    CHECK_EQ_INT(x.st, GP_ERR_INPUT);
    CHECK_EQ_INT(stop.net_count, 1);
    CHECK_EQ_INT(diag_error_count(x.d), 0);
    run_free(&x);

    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(spef_read_memory("t.spef", text, strlen(text), NULL, d), GP_OK);
    diag_free(d);
}

/* --- errors ------------------------------------------------------------------- */

#define HEAD "*SPEF \"IEEE 1481-1998\"\n*C_UNIT 1 FF\n" /* lines 1-2 */

static void test_errors(void)
{
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(spef_read("/nonexistent/x.spef", NULL, d), GP_ERR_IO);
    CHECK_EQ_INT(diag_first_error_no(d), 1101);
    CHECK(strstr(diag_first_error_text(d), "/nonexistent/x.spef") != NULL);
    diag_free(d);

    /* Truncated: no *END, or cut inside an entry. */
    check_error(HEAD "*D_NET n1 1\n*CONN\n*I u1:A I\n", 5002, 6);
    check_error(HEAD "*D_NET n1 1\n*CONN\n*I u1:A", 5002, 5);
    check_error(HEAD "*R_NET n1 1\n*DRIVER u1:Y\n", 5002, 5);
    /* Syntax. */
    check_error(HEAD "*D_NET n1 1\n*CONN\n*I u1:A\n*END\n", 5003, 6);
    check_error(HEAD "*D_NET n1 1\n*END\n42\n", 5003, 5);
    check_error(HEAD "*D_NET n1 1\n*CAP\n1 n1\n*END\n", 5003, 6);
    check_error(HEAD "*D_NET n1 1\n*CAP\nx n1 1\n*END\n", 5003, 5);
    check_error(HEAD "*D_NET\n*END\n", 5003, 4);
    /* Bad numbers. */
    check_error(HEAD "*D_NET n1 1.2.3\n*END\n", 5004, 3);
    check_error(HEAD "*D_NET n1 1:2\n*END\n", 5004, 3);
    check_error(HEAD "*D_NET n1 1\n*CAP\n1 n1 0.1x\n*END\n", 5004, 5);
    check_error(HEAD "*D_NET n1 1\n*CONN\n*I u1:A I *L :1:\n*END\n", 5004, 5);
    /* Unknown name-map indices: no map at all, and in a node name. */
    check_error(HEAD "*D_NET *99 1\n*END\n", 5009, 3);
    check_error(HEAD "*NAME_MAP\n*1 n1\n*D_NET *1 1\n*CAP\n1 *1:1 0.5\n2 *98:1 0.5\n*END\n", 5009,
                8);
    check_error(HEAD "*NAME_MAP\n*1 n1\n*D_NET n 1\n*CONN\n*I *2:A I\n*END\n", 5009, 7);
    /* SPEF-specific. */
    check_error("*DESIGN \"x\"\n", 5001, 1);
    check_error("", 5001, 1);
    check_error("*SPEF \"x\"\n*T_UNIT 1 NS\n*D_NET n1 1\n*END\n", 5008, 3);
    check_error("*SPEF \"x\"\n*C_UNIT 1 XF\n", 5005, 2);
    check_error("*SPEF \"x\"\n*C_UNIT 0 PF\n", 5005, 2);
    check_error("*SPEF \"x\"\n*DIVIDER ab\n", 5006, 2);
    check_error(HEAD "*PORTS\na I\n*DIVIDER /\n", 5007, 5);
    check_error(HEAD "*NAME_MAP\n*2 a\n*1 b\n*2 c\n", 5010, 6);
    check_error(HEAD "*PORTS\na X\n", 5012, 4);
    check_error(HEAD "*D_NET n1 1\n*CONN\n*I u1 I\n*END\n", 5017, 5);
    check_error(HEAD "*D_NET n1 1\n*END\n*D_NET n2 1\n*CONN\n*I u1:A I\n*D_NET n3 1\n*END\n",
                5013, 8);
    check_error(HEAD "*D_NET n1 -1\n*END\n", 5014, 3);
    check_error(HEAD "*D_NET /a 1\n*END\n", 5018, 3);
    check_error(HEAD "*D_NET a\\ 1\n*END\n", 5018, 3);
    /* The tokenizer's: an unterminated string. */
    check_error("*SPEF \"IEEE\n", 1120, 1);
}

int main(void)
{
    RUN(test_reg1_asap7);
    RUN(test_reg1_truncated);
    RUN(test_hand_written);
    RUN(test_variants);
    RUN(test_errors);
    return check_exit_code();
}
