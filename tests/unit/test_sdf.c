/* test_sdf.c: the SDF reader through a recording visitor, on hand-written
 * files in the styles OpenSTA writes, and its error messages. */
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "sdf/sdf.h"

#define NS 1e6 /* fs: times are femtoseconds */
#define PS 1e3
#define MAX_RECS 64

/* One visitor call: its kind and names as text, its delay, its line. */
typedef struct rec {
    char text[200];
    sdf_delay delay;
    int line;
} rec;

typedef struct recorder {
    rec r[MAX_RECS];
    int n;
    int headers;
    sdf_header h;
    char design[64], version[64], process[64];
    int stop_after; /* > 0: the call after this many records fails */
} recorder;

/* The result of one read: status, diagnostics, and what they printed. */
typedef struct run {
    gp_status st;
    diag_ctx *d;
    FILE *sink;
    char *log;
    size_t log_len;
} run;

static const char *edge_word(sdf_edge e)
{
    return e == SDF_EDGE_POSEDGE ? "posedge " : e == SDF_EDGE_NEGEDGE ? "negedge " : "";
}

static gp_status add(recorder *r, const sdf_delay *delay, diag_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static gp_status add(recorder *r, const sdf_delay *delay, diag_loc loc, const char *fmt, ...)
{
    if (r->stop_after > 0 && r->n == r->stop_after)
        return GP_ERR_INPUT;
    if (r->n == MAX_RECS)
        return GP_ERR_NOMEM;
    rec *x = &r->r[r->n++];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->text, sizeof x->text, fmt, ap);
    va_end(ap);
    x->delay = delay ? *delay : (sdf_delay){0, 0, false, false};
    x->line = loc.line;
    return GP_OK;
}

static gp_status on_header(void *ctx, const sdf_header *h, diag_loc loc)
{
    recorder *r = ctx;
    (void)loc;
    r->headers++;
    r->h = *h;
    snprintf(r->design, sizeof r->design, "%s", h->design);
    snprintf(r->version, sizeof r->version, "%s", h->sdf_version);
    snprintf(r->process, sizeof r->process, "%s", h->process);
    return GP_OK;
}

static gp_status on_cell(void *ctx, const char *celltype, const char *instance, diag_loc loc)
{
    return add(ctx, NULL, loc, "CELL %s @%s", celltype, instance);
}

static gp_status on_iopath(void *ctx, const sdf_iopath *e, diag_loc loc)
{
    char cond[100] = "";
    if (e->cond)
        snprintf(cond, sizeof cond, " COND%s%s%s '%s'", e->cond_name ? "(" : "",
                 e->cond_name ? e->cond_name : "", e->cond_name ? ")" : "", e->cond);
    return add(ctx, &e->delay, loc, "IOPATH %s%s|%s %s|%s%s%s%s", edge_word(e->edge), e->in.inst,
               e->in.pin, e->out.inst, e->out.pin, cond, e->condelse ? " CONDELSE" : "",
               e->increment ? " INCR" : "");
}

static gp_status on_interconnect(void *ctx, const sdf_interconnect *e, diag_loc loc)
{
    return add(ctx, &e->delay, loc, "INTERCONNECT %s|%s %s|%s%s", e->from.inst, e->from.pin,
               e->to.inst, e->to.pin, e->increment ? " INCR" : "");
}

static gp_status on_port(void *ctx, const sdf_port_delay *e, diag_loc loc)
{
    return add(ctx, &e->delay, loc, "PORT %s|%s%s", e->port.inst, e->port.pin,
               e->increment ? " INCR" : "");
}

static gp_status on_device(void *ctx, const sdf_device *e, diag_loc loc)
{
    if (!e->has_out)
        return add(ctx, &e->delay, loc, "DEVICE%s", e->increment ? " INCR" : "");
    return add(ctx, &e->delay, loc, "DEVICE %s|%s%s", e->out.inst, e->out.pin,
               e->increment ? " INCR" : "");
}

static sdf_visitor visitor_for(recorder *r)
{
    return (sdf_visitor){r, on_header, on_cell, on_iopath, on_interconnect, on_port, on_device};
}

static void run_open(run *x)
{
    *x = (run){0};
    x->sink = open_memstream(&x->log, &x->log_len);
    x->d = diag_new(x->sink);
    diag_set_warning_cap(x->d, 0);
}

static void run_free(run *x)
{
    diag_free(x->d);
    fclose(x->sink);
    free(x->log);
}

static bool same_rec(const rec *a, const rec *b)
{
    return strcmp(a->text, b->text) == 0 && a->line == b->line &&
           a->delay.has_rise == b->delay.has_rise && a->delay.has_fall == b->delay.has_fall &&
           a->delay.rise == b->delay.rise && a->delay.fall == b->delay.fall;
}

/* Whether the records of parts [0, used) are, one after the other, whole's. */
static bool same_records(const recorder *part, uint32_t used, const recorder *whole)
{
    int n = 0;
    for (uint32_t k = 0; k < used; k++)
        for (int i = 0; i < part[k].n; i++)
            if (n >= whole->n || !same_rec(&part[k].r[i], &whole->r[n++]))
                return false;
    return n == whole->n && part[0].headers == whole->headers &&
           strcmp(part[0].design, whole->design) == 0 &&
           strcmp(part[0].version, whole->version) == 0;
}

/* The text read in 2 to 12 parts (sdf_read_memory_parts) gives the status,
 * the messages and, over the parts that count, the records of the reading
 * x in one (a visitor that fails after some calls counts per part: left
 * out). */
static void check_parts_agree(const char *text, const recorder *whole, const run *x,
                              const sdf_options *opt)
{
    enum { MOST = 12 };
    if (whole->stop_after > 0)
        return;
    recorder *part = malloc(MOST * sizeof *part);
    for (uint32_t parts = 2; parts <= MOST; parts++) {
        sdf_visitor v[MOST];
        for (uint32_t k = 0; k < parts; k++) {
            part[k] = (recorder){0};
            v[k] = visitor_for(&part[k]);
        }
        run y;
        run_open(&y);
        uint32_t used = 0;
        y.st = sdf_read_memory_parts("t.sdf", text, strlen(text), v, parts, &used, opt, y.d);
        fflush(y.sink);
        bool same = y.st == x->st && strcmp(y.log, x->log) == 0 && used >= 1 && used <= parts &&
                    same_records(part, used, whole);
        CHECK(same);
        if (!same)
            fprintf(stderr, "  in %u parts (%u count): status %d, messages:\n%s  against %d:\n%s",
                    parts, used, (int)y.st, y.log, (int)x->st, x->log);
        run_free(&y);
    }
    free(part);
}

/* Reads `text` into r; x keeps the status and diagnostics (x is filled in
 * place: the sink writes through pointers into it).  The reading in parts
 * must agree. */
static void read_text(run *x, const char *text, recorder *r, const sdf_options *opt)
{
    run_open(x);
    sdf_visitor v = visitor_for(r);
    x->st = sdf_read_memory("t.sdf", text, strlen(text), &v, opt, x->d);
    fflush(x->sink);
    check_parts_agree(text, r, x, opt);
}

/* Record i has this text and these delays (in seconds; NAN: absent). */
static void check_rec(const recorder *r, int i, const char *text, double rise, double fall)
{
    CHECK(i < r->n);
    if (i >= r->n)
        return;
    const rec *x = &r->r[i];
    CHECK_EQ_STR(x->text, text);
    CHECK_EQ_INT(x->delay.has_rise, !isnan(rise));
    CHECK_EQ_INT(x->delay.has_fall, !isnan(fall));
    if (!isnan(rise))
        CHECK_NEAR_REL(x->delay.rise, rise, 1e-12);
    if (!isnan(fall))
        CHECK_NEAR_REL(x->delay.fall, fall, 1e-12);
}

/* An error with message `no` at t.sdf:line. */
static void check_error(const char *text, int no, int line)
{
    recorder r = {0};
    run x;
    read_text(&x, text, &r, NULL);
    char where[32];
    snprintf(where, sizeof where, "t.sdf:%d:", line);
    CHECK(x.st != GP_OK);
    CHECK_EQ_INT(diag_first_error_no(x.d), no);
    CHECK(strstr(diag_first_error_text(x.d), where) != NULL);
    if (diag_first_error_no(x.d) != no || !strstr(diag_first_error_text(x.d), where))
        fprintf(stderr, "  got: %s\n", diag_first_error_text(x.d));
    run_free(&x);
}

/* --- files as OpenSTA 2.0.17 writes them ------------------------------------ */

/* The header of a real OpenSTA 2019 file (its date line left out) and cells in
 * its style; every triple has an empty typical value. */
static const char opensta_2019[] =
    "(DELAYFILE\n"                                                 /* 1 */
    " (SDFVERSION \"3.0\")\n"
    " (DESIGN \"mult16\")\n"
    " (VENDOR \"Parallax\")\n"
    " (PROGRAM \"STA\")\n"                                         /* 5 */
    " (VERSION \"2.0.17\")\n"
    " (DIVIDER /)\n"
    " (VOLTAGE 1.800::1.800)\n"
    " (PROCESS \"1.000::1.000\")\n"
    " (TEMPERATURE 25.000::25.000)\n"                              /* 10 */
    " (TIMESCALE 1ns)\n"
    " (CELL\n"
    "  (CELLTYPE \"mult16\")\n"
    "  (INSTANCE)\n"
    "  (DELAY\n"                                                   /* 15 */
    "   (ABSOLUTE\n"
    "    (INTERCONNECT clk _2842_/CLK (0.000::0.000))\n"
    "    (INTERCONNECT _123_/Y _2842_/D (0.002::0.003))\n"
    "   )\n"
    "  )\n"                                                        /* 20 */
    " )\n"
    " (CELL (CELLTYPE \"NAND2X1\") (INSTANCE _123_) (DELAY (ABSOLUTE "
    "(IOPATH A Y (0.101::0.134) (0.088::0.120)))))\n"
    " (CELL\n"
    "  (CELLTYPE \"DFFPOSX1\")\n"
    "  (INSTANCE _2842_)\n"                                        /* 25 */
    "  (DELAY\n"
    "   (ABSOLUTE\n"
    "    (IOPATH CLK Q (0.077::0.077) (0.148::0.148))\n"
    "   )\n"
    "  )\n"                                                        /* 30 */
    "  (TIMINGCHECK\n"
    "    (SETUP (posedge D) (posedge CLK) (0.184::0.184))\n"
    "    (HOLD (negedge D) (posedge CLK) (-0.094::-0.094))\n"
    "    (WIDTH (posedge CLK) (0.107::0.107))\n"
    "  )\n"                                                        /* 35 */
    " )\n"
    ")\n";

static void test_opensta_2019_style(void)
{
    recorder r = {0};
    run x;
    read_text(&x, opensta_2019, &r, NULL);
    CHECK_EQ_INT(x.st, GP_OK);
    CHECK_EQ_INT(diag_error_count(x.d), 0);
    CHECK_EQ_INT(r.headers, 1);
    CHECK_EQ_STR(r.design, "mult16");
    CHECK_EQ_STR(r.version, "3.0");
    CHECK_EQ_STR(r.process, "1.000::1.000");
    CHECK_EQ_INT(r.h.divider, '/');
    CHECK_NEAR_REL(r.h.timescale, NS, 1e-15);
    CHECK(r.h.has_voltage && r.h.has_temperature);
    CHECK_NEAR_REL(r.h.voltage, 1.8, 1e-15);         /* 1.800::1.800: max */
    CHECK_NEAR_REL(r.h.temperature, 25.0, 1e-15);
    CHECK_EQ_INT(r.n, 7);
    check_rec(&r, 0, "CELL mult16 @", NAN, NAN);
    CHECK_EQ_INT(r.r[0].line, 12);
    check_rec(&r, 1, "INTERCONNECT |clk _2842_|CLK", 0, 0);
    CHECK_EQ_INT(r.r[1].line, 17);
    check_rec(&r, 2, "INTERCONNECT _123_|Y _2842_|D", 0.003 * NS, 0.003 * NS); /* one value: both */
    check_rec(&r, 3, "CELL NAND2X1 @_123_", NAN, NAN);
    check_rec(&r, 4, "IOPATH |A |Y", 0.134 * NS, 0.120 * NS); /* typ empty: max */
    check_rec(&r, 5, "CELL DFFPOSX1 @_2842_", NAN, NAN);
    check_rec(&r, 6, "IOPATH |CLK |Q", 0.077 * NS, 0.148 * NS);
    /* One warning counts the 8 triples read with an empty typ (VOLTAGE,
     * TEMPERATURE, 2 INTERCONNECTs, 2 x 2 IOPATH values), at the first;
     * a note says the timing checks are skipped. */
    CHECK_EQ_INT(diag_count_of(x.d, 4013), 1);
    CHECK(strstr(x.log, "t.sdf:8:11: warning 4013: 8 value triple(s)") != NULL);
    CHECK_EQ_INT(diag_count_of(x.d, 4010), 1);
    CHECK_EQ_INT(diag_warning_count(x.d), 1);
    run_free(&x);
}

/* Written by OpenSTA 2.0.17 (write_sdf) for a netlist with escaped names
 * (\ff[0] , \odd.name , \esc/name ), a flop with an asynchronous clear, and
 * an XOR whose Liberty timing arcs carry sdf_cond. */
static const char opensta_escapes[] =
    "(DELAYFILE\n"
    " (SDFVERSION \"3.0\")\n"
    " (DESIGN \"top\")\n"
    " (DATE \"Sun Nov 29 14:14:31 2026\")\n"
    " (VENDOR \"Parallax\")\n"                                      /* 5 */
    " (PROGRAM \"STA\")\n"
    " (VERSION \"2.0.17\")\n"
    " (DIVIDER /)\n"
    " (TIMESCALE 1ns)\n"
    " (CELL\n"                                                      /* 10 */
    "  (CELLTYPE \"top\")\n"
    "  (INSTANCE)\n"
    "  (DELAY\n"
    "   (ABSOLUTE\n"
    "    (INTERCONNECT clk ff\\[0\\]/CLK (0.000::0.000))\n"          /* 15 */
    "    (INTERCONNECT a odd\\.name/B (0.000::0.000))\n"
    "    (INTERCONNECT odd\\.name/Y esc\\/name (0.000::0.000))\n"
    "   )\n"
    "  )\n"
    " )\n"                                                          /* 20 */
    " (CELL\n"
    "  (CELLTYPE \"DFFR\")\n"
    "  (INSTANCE ff\\[0\\])\n"
    "  (DELAY\n"
    "   (ABSOLUTE\n"                                                /* 25 */
    "    (IOPATH CLK Q (0.500::0.500) (0.600::0.600))\n"
    "    (IOPATH R Q () (0.000::0.000))\n"
    "   )\n"
    "  )\n"
    "  (TIMINGCHECK\n"                                              /* 30 */
    "    (REMOVAL (posedge R) (posedge CLK) (0.100::0.100))\n"
    "    (RECOVERY (posedge R) (posedge CLK) (0.100::0.100))\n"
    "    (HOLD D (posedge CLK) (0.020::0.020))\n"
    "    (SETUP D (posedge CLK) (0.100::0.100))\n"
    "  )\n"                                                         /* 35 */
    " )\n"
    " (CELL\n"
    "  (CELLTYPE \"XOR2\")\n"
    "  (INSTANCE odd\\.name)\n"
    "  (DELAY\n"                                                    /* 40 */
    "   (ABSOLUTE\n"
    "    (COND B == 1'b1\n"
    "     (IOPATH A Y (0.300::0.300) (0.400::0.400)))\n"
    "    (COND B == 1'b0\n"
    "     (IOPATH A Y (0.100::0.100) (0.200::0.200)))\n"            /* 45 */
    "    (IOPATH B Y (0.150::0.150) (0.250::0.250))\n"
    "   )\n"
    "  )\n"
    " )\n"
    ")\n";                                                          /* 50 */

static void test_opensta_escapes_and_cond(void)
{
    recorder r = {0};
    run x;
    read_text(&x, opensta_escapes, &r, NULL);
    CHECK_EQ_INT(x.st, GP_OK);
    CHECK_EQ_INT(r.n, 11);
    check_rec(&r, 0, "CELL top @", NAN, NAN);
    check_rec(&r, 1, "INTERCONNECT |clk ff[0]|CLK", 0, 0);
    check_rec(&r, 2, "INTERCONNECT |a odd.name|B", 0, 0);
    check_rec(&r, 3, "INTERCONNECT odd.name|Y |esc/name", 0, 0);
    check_rec(&r, 4, "CELL DFFR @ff[0]", NAN, NAN);
    check_rec(&r, 5, "IOPATH |CLK |Q", 0.5 * NS, 0.6 * NS);
    check_rec(&r, 6, "IOPATH |R |Q", NAN, 0); /* "()": no rise delay, not 0 */
    check_rec(&r, 7, "CELL XOR2 @odd.name", NAN, NAN);
    check_rec(&r, 8, "IOPATH |A |Y COND 'B == 1'b1'", 0.3 * NS, 0.4 * NS);
    CHECK_EQ_INT(r.r[8].line, 43); /* the IOPATH's line */
    check_rec(&r, 9, "IOPATH |A |Y COND 'B == 1'b0'", 0.1 * NS, 0.2 * NS);
    check_rec(&r, 10, "IOPATH |B |Y", 0.15 * NS, 0.25 * NS);
    CHECK_EQ_INT(diag_count_of(x.d, 4010), 1);
    /* 3 INTERCONNECTs, 2 + 1 flop values ("()" is no triple), 3 x 2 XOR values */
    CHECK_EQ_INT(diag_count_of(x.d, 4013), 1);
    CHECK(strstr(x.log, "warning 4013: 12 value triple(s)") != NULL);
    run_free(&x);
}

/* write_sdf -divider . : the divider becomes '/', "\." stays a dot. */
static void test_dot_divider(void)
{
    static const char text[] =
        "(DELAYFILE (SDFVERSION \"3.0\") (DIVIDER .) (TIMESCALE 1ns)\n"
        " (CELL (CELLTYPE \"top\") (INSTANCE)\n"
        "  (DELAY (ABSOLUTE\n"
        "   (INTERCONNECT ff\\[0\\].Q odd\\.name.A (0.000::0.000))\n"
        "   (INTERCONNECT odd\\.name.Y esc\\/name (0.000::0.000)))))\n"
        " (CELL (CELLTYPE \"X\") (INSTANCE top.sub\\.x.u\\[2\\]) (DELAY (ABSOLUTE"
        " (PORT sub.A (7))))))\n";
    recorder r = {0};
    run x;
    read_text(&x, text, &r, NULL);
    CHECK_EQ_INT(x.st, GP_OK);
    CHECK_EQ_INT(r.h.divider, '.');
    CHECK_EQ_INT(r.n, 5);
    check_rec(&r, 1, "INTERCONNECT ff[0]|Q odd.name|A", 0, 0);
    check_rec(&r, 2, "INTERCONNECT odd.name|Y |esc/name", 0, 0);
    check_rec(&r, 3, "CELL X @top/sub.x/u[2]", NAN, NAN);
    check_rec(&r, 4, "PORT sub|A", 7 * NS, 7 * NS);
    run_free(&x);
}

/* --- values --------------------------------------------------------------- */

static const char values_sdf[] =
    "(DELAYFILE (SDFVERSION \"3.0\") (TIMESCALE 10ps)\n"
    " (CELL (CELLTYPE \"T\") (INSTANCE u)\n"
    "  (DELAY (ABSOLUTE\n"
    "   (IOPATH A Y (1.5))\n"                            /* 4 */
    "   (IOPATH A Y () (2))\n"
    "   (IOPATH A Y ())\n"
    "   (IOPATH A Y (1:2:3) (4:5:6))\n"
    "   (IOPATH A Y (1::3) (:5:))\n"                     /* 8 */
    "   (IOPATH A Y (::) (-1e-1))\n"
    "   (IOPATH A Y ((1) (0.5)) ((2) (1) (1.5)))\n"
    "   (IOPATH A Y (RETAIN (0.5)) (1) (2))\n"
    "   (IOPATH A Y (1) (2) () () () ())\n"              /* 12 */
    "   (IOPATH A Y (1) (2) (3))\n"
    "   (IOPATH A Y (1) (2) (3) (4) (5) (6) (7) (8) (9) (10) (11) (12))\n"
    "))))\n";

static void test_values(void)
{
    const double u = 10 * PS; /* TIMESCALE 10ps */
    const sdf_pick picks[] = {SDF_PICK_TYP, SDF_PICK_MIN, SDF_PICK_MAX};
    /* Per pick: the two members of lines 7 and 8. */
    const double l7[3][2] = {{2, 5}, {1, 4}, {3, 6}};
    const double l8[3][2] = {{3, 5}, {1, 5}, {3, 5}};
    for (int k = 0; k < 3; k++) {
        recorder r = {0};
        sdf_options opt = {picks[k]};
        run x;
    read_text(&x, values_sdf, &r, &opt);
        CHECK_EQ_INT(x.st, GP_OK);
        CHECK_EQ_INT(r.n, 12);
        check_rec(&r, 1, "IOPATH |A |Y", 15 * PS, 15 * PS);
        check_rec(&r, 2, "IOPATH |A |Y", NAN, 2 * u);
        check_rec(&r, 3, "IOPATH |A |Y", NAN, NAN);
        check_rec(&r, 4, "IOPATH |A |Y", l7[k][0] * u, l7[k][1] * u);
        check_rec(&r, 5, "IOPATH |A |Y", l8[k][0] * u, l8[k][1] * u);
        check_rec(&r, 6, "IOPATH |A |Y", NAN, -0.1 * u);
        check_rec(&r, 7, "IOPATH |A |Y", 1 * u, 2 * u);  /* pulse limits dropped */
        check_rec(&r, 8, "IOPATH |A |Y", 1 * u, 2 * u);  /* RETAIN skipped */
        check_rec(&r, 9, "IOPATH |A |Y", 1 * u, 2 * u);
        check_rec(&r, 10, "IOPATH |A |Y", 1 * u, 2 * u);
        check_rec(&r, 11, "IOPATH |A |Y", 1 * u, 2 * u);
        /* One triple per pick has its member empty: (1::3) for typ, (:5:)
         * for min and max. */
        CHECK_EQ_INT(diag_count_of(x.d, 4013), 1);
        CHECK(strstr(x.log, "t.sdf:8:") && strstr(x.log, "warning 4013: 1 value triple(s)"));
        /* The Z/X values of line 13 and 14 give one warning; line 12's are empty. */
        CHECK_EQ_INT(diag_count_of(x.d, 4014), 1);
        CHECK(strstr(x.log, "t.sdf:13:4: warning 4014") != NULL);
        CHECK_EQ_INT(diag_count_of(x.d, 4011), 2); /* pulse limits, RETAIN */
        run_free(&x);
    }
}

static void test_timescales(void)
{
    static const struct { const char *ts; double fs; } cases[] = {
        {"(TIMESCALE 1ns)", 1e6},   {"(TIMESCALE 10ps)", 1e4},  {"(TIMESCALE 1.0 ns)", 1e6},
        {"(TIMESCALE 100fs)", 100}, {"(TIMESCALE 1 us)", 1e9},  {"(TIMESCALE 100.0ps)", 1e5},
        {"(TIMESCALE 1NS)", 1e6},   {"(TIMESCALE 10 ms)", 1e13}, {"(TIMESCALE 1s)", 1e15},
        {"", 1e6}, /* none: 1ns */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text,
                 "(DELAYFILE (SDFVERSION \"3.0\") %s (CELL (CELLTYPE \"X\") (INSTANCE)"
                 " (DELAY (ABSOLUTE (PORT a (2.5))))))",
                 cases[i].ts);
        recorder r = {0};
        run x;
    read_text(&x, text, &r, NULL);
        CHECK_EQ_INT(x.st, GP_OK);
        CHECK_NEAR_REL(r.h.timescale, cases[i].fs, 1e-12);
        check_rec(&r, 1, "PORT |a", 2.5 * cases[i].fs, 2.5 * cases[i].fs);
        run_free(&x);
    }
}

/* --- constructs -------------------------------------------------------------- */

static const char forms_sdf[] =
    "// a line comment\n"
    "(DELAYFILE\n"
    " (SDFVERSION \"OVI 3.0\")\n"
    " (TIMESCALE 1ps)\n"
    " (CELL (CELLTYPE \"AOI\") (INSTANCE u1/u2)\n"                        /* 5 */
    "  (DELAY\n"
    "   (ABSOLUTE\n"
    "    (COND \"c1\" (A == 1'b1) && !B (IOPATH (posedge A) Y (3) (4)))\n"
    "    (CONDELSE (IOPATH (negedge A) Y (5) (6)))\n"
    "    (IOPATH D[3] Y (1) (2))\n"                                     /* 10 */
    "    (PORT sub/A (7))\n"
    "    (DEVICE (8) (9))\n"
    "    (DEVICE Y (10))\n"
    "    (NETDELAY n1 (1))\n"
    "    (FOO bar (1))\n"                                                /* 15 */
    "    (FOO baz)\n"
    "    (INTERCONNECT u3/Y u4/A (11))\n"
    "   )\n"
    "   (increment (iopath A Y (1)) (Interconnect a b (2)))\n"
    "   (PATHPULSE A Y (1) (2))\n"                                       /* 20 */
    "  )\n"
    "  /* a block\n"
    "     comment */\n"
    "  (TIMINGCHECK (SETUP D (posedge CLK) (1)))\n"
    "  (TIMINGENV (ARRIVAL A (1) (2) (3) (4)))\n"                        /* 25 */
    "  (BAR)\n"
    " )\n"
    " (CELL (CELLTYPE \"INV\") (INSTANCE *) (DELAY (ABSOLUTE (IOPATH A Y (1)))))\n"
    " (CELL (CELLTYPE \"BUS\") (INSTANCE b) (DELAY (ABSOLUTE\n"
    "  (IOPATH D[3:0] Y (1)) (IOPATH (01 A) Y (1)) (INTERCONNECT a b[1:0] (1)))))\n" /* 30 */
    ")\n";

static void test_constructs(void)
{
    const double ps = PS;
    recorder r = {0};
    run x;
    read_text(&x, forms_sdf, &r, NULL);
    CHECK_EQ_INT(x.st, GP_OK);
    CHECK_EQ_INT(diag_error_count(x.d), 0);
    CHECK_EQ_INT(r.n, 13);
    check_rec(&r, 0, "CELL AOI @u1/u2", NAN, NAN);
    check_rec(&r, 1, "IOPATH posedge |A |Y COND(c1) '(A == 1'b1) && !B'", 3 * ps, 4 * ps);
    check_rec(&r, 2, "IOPATH negedge |A |Y CONDELSE", 5 * ps, 6 * ps);
    check_rec(&r, 3, "IOPATH |D[3] |Y", 1 * ps, 2 * ps);
    check_rec(&r, 4, "PORT sub|A", 7 * ps, 7 * ps);
    check_rec(&r, 5, "DEVICE", 8 * ps, 9 * ps);
    check_rec(&r, 6, "DEVICE |Y", 10 * ps, 10 * ps);
    check_rec(&r, 7, "INTERCONNECT u3|Y u4|A", 11 * ps, 11 * ps);
    CHECK_EQ_INT(r.r[7].line, 17);
    check_rec(&r, 8, "IOPATH |A |Y INCR", 1 * ps, 1 * ps);
    check_rec(&r, 9, "INTERCONNECT |a |b INCR", 2 * ps, 2 * ps);
    check_rec(&r, 10, "CELL INV @*", NAN, NAN);
    check_rec(&r, 11, "IOPATH |A |Y", 1 * ps, 1 * ps);
    check_rec(&r, 12, "CELL BUS @b", NAN, NAN);
    /* Skipped with one warning per kind: NETDELAY, PATHPULSE, bus ranges
     * (twice, one warning), the 01 edge; FOO and BAR unknown; timing checks
     * and environment one warning together. */
    CHECK_EQ_INT(diag_count_of(x.d, 4011), 4);
    CHECK_EQ_INT(diag_count_of(x.d, 4012), 2);
    CHECK(strstr(x.log, "t.sdf:15:5: warning 4012: unknown construct 'FOO'") != NULL);
    CHECK_EQ_INT(diag_count_of(x.d, 4010), 1);
    CHECK(strstr(x.log, "t.sdf:24:3: note 4010") != NULL);
    CHECK_EQ_INT(diag_count_of(x.d, 4009), 0); /* "OVI 3.0" is 3.0 */
    run_free(&x);
}

static void test_version_warning_and_empty_file_parts(void)
{
    recorder r = {0};
    run x;
    read_text(&x, "(DELAYFILE (SDFVERSION \"4.0\") (DESIGN) (CELL (CELLTYPE \"X\") "
                      "(INSTANCE a) (DELAY)))",
                      &r, NULL);
    CHECK_EQ_INT(x.st, GP_OK);
    CHECK_EQ_INT(diag_count_of(x.d, 4009), 1);
    CHECK_EQ_STR(r.design, "");
    CHECK_EQ_INT(r.n, 1);
    run_free(&x);

    recorder none = {0};
    run y;
    read_text(&y, "(DELAYFILE (SDFVERSION \"3.0\") (DESIGN \"d\"))", &none, NULL);
    CHECK_EQ_INT(y.st, GP_OK);
    CHECK_EQ_INT(none.headers, 1); /* the header even without cells */
    CHECK_EQ_STR(none.design, "d");
    run_free(&y);
}

static void test_visitor_stops(void)
{
    recorder r = {.stop_after = 3};
    run x;
    read_text(&x, opensta_2019, &r, NULL);
    CHECK_EQ_INT(x.st, GP_ERR_INPUT);
    CHECK_EQ_INT(r.n, 3);
    CHECK_EQ_INT(diag_error_count(x.d), 0); /* the visitor reports its own */
    run_free(&x);

    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(sdf_read_memory("t.sdf", opensta_2019, strlen(opensta_2019), NULL, NULL, d),
                 GP_OK); /* no visitor: a syntax check */
    diag_free(d);
}

/* --- files ------------------------------------------------------------------- */

static void test_files(void)
{
    char plain[] = "/tmp/gp_test_sdf_XXXXXX";
    int fd = mkstemp(plain);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    CHECK_EQ_INT(write(fd, opensta_2019, strlen(opensta_2019)), (long long)strlen(opensta_2019));
    close(fd);
    char gz[sizeof plain + 3];
    snprintf(gz, sizeof gz, "%s.gz", plain);
    gzFile g = gzopen(gz, "wb");
    CHECK(g != NULL);
    gzwrite(g, opensta_2019, (unsigned)strlen(opensta_2019));
    gzclose(g);

    const char *paths[] = {plain, gz};
    for (int i = 0; i < 2; i++) {
        recorder r = {0};
        sdf_visitor v = visitor_for(&r);
        diag_ctx *d = diag_new(NULL);
        CHECK_EQ_INT(sdf_read(paths[i], &v, NULL, d), GP_OK);
        CHECK_EQ_INT(r.n, 7);
        check_rec(&r, 4, "IOPATH |A |Y", 0.134 * NS, 0.120 * NS);
        diag_free(d);
    }
    unlink(plain);
    unlink(gz);

    diag_ctx *d = diag_new(NULL);
    recorder r = {0};
    sdf_visitor v = visitor_for(&r);
    CHECK(sdf_read("/nonexistent/x.sdf", &v, NULL, d) == GP_ERR_IO);
    CHECK_EQ_INT(diag_first_error_no(d), 1101);
    CHECK(strstr(diag_first_error_text(d), "/nonexistent/x.sdf") != NULL);
    diag_free(d);
}

/* --- errors ------------------------------------------------------------------- */

/* Thirty CELLs, one IOPATH each (cell k on line k + 3), with line `odd`
 * (0: none) replaced by `with`; the reading in 2 to 12 parts (read_text)
 * cuts them at every few cells. */
static char *cells_text(int odd, const char *with)
{
    char *text = malloc(8192), *at = text;
    at += sprintf(at, "(DELAYFILE\n (SDFVERSION \"3.0\")\n (TIMESCALE 1ps)\n");
    for (int k = 1; k <= 30; k++) {
        if (k + 3 == odd)
            at += sprintf(at, "%s\n", with);
        else
            at += sprintf(at, " (CELL (CELLTYPE \"INV\") (INSTANCE u%d) (DELAY (ABSOLUTE "
                          "(IOPATH A Y (%d::%d) (%d:%d:%d)))))\n", k, k, k + 1, k, k, k);
    }
    sprintf(at, ")\n");
    return text;
}

/* The texts `make` gives with each odd line at lines first, first + step,
 * ... up to last read without error (read_text: in parts too, agreeing). */
static void read_odd_texts(char *(*make)(int odd, const char *with), const char *const *odd,
                           size_t n, int first, int last, int step)
{
    for (size_t i = 0; i < n; i++) {
        for (int line = first; line <= last; line += step) {
            char *text = make(line, odd[i]);
            recorder r = {0};
            run x;
            read_text(&x, text, &r, NULL);
            CHECK_EQ_INT(x.st, GP_OK);
            if (x.st != GP_OK)
                fprintf(stderr, "  odd line %zu at %d: %s\n", i, line, x.log);
            run_free(&x);
            free(text);
        }
    }
}

/* What a part's start could be fooled by, and the messages said once per
 * file, in the parts' middle: the parts give what one reading gives. */
static void test_parts(void)
{
    static const char *const odd[] = {
        " // (CELL (CELLTYPE \"FAKE\") (INSTANCE f))",
        " /* (CELL (CELLTYPE \"FAKE\")\n (INSTANCE f) */ (CELL (CELLTYPE \"INV\") (INSTANCE v))",
        " (CELL (CELLTYPE \"(CELL \") (INSTANCE s) (DELAY (ABSOLUTE (IOPATH A Y (1)))))",
        " (CELL (CELLTYPE \"INV\") (INSTANCE t) (TIMINGCHECK (SETUP D (posedge CK) (1))))",
        " (CELL (CELLTYPE \"INV\") (INSTANCE w) (FOO (CELL x)))",
        " (cell (celltype \"INV\") (instance lower) (delay (increment (device (1)))))"};
    read_odd_texts(cells_text, odd, sizeof odd / sizeof odd[0], 5, 30, 12);
    char *text = cells_text(0, NULL);
    recorder r = {0};
    run x;
    read_text(&x, text, &r, NULL);
    CHECK_EQ_INT(r.n, 60);
    check_rec(&r, 59, "IOPATH |A |Y", 31 * PS, 30 * PS); /* (30::31): typ empty, max */
    CHECK_EQ_INT(diag_count_of(x.d, 4013), 1); /* all 30 (k::k+1) triples, said once */
    run_free(&x);
    char *fooled = malloc(strlen(text) + 64); /* before the first CELL too */
    sprintf(fooled, "(DELAYFILE // (CELL fake\n%s", text + strlen("(DELAYFILE\n"));
    r = (recorder){0};
    read_text(&x, fooled, &r, NULL);
    CHECK_EQ_INT(r.n, 60);
    run_free(&x);
    char *hidden = strstr(text, "(CELL"); /* a first CELL the bytes do not show */
    sprintf(fooled, "%.*s( /* c */ %s", (int)(hidden - text), text, hidden + 1);
    r = (recorder){0};
    read_text(&x, fooled, &r, NULL);
    CHECK_EQ_INT(r.n, 60);
    CHECK_EQ_INT(r.headers, 1);
    run_free(&x);
    free(fooled);
    free(text);
    text = cells_text(20, " (CELL (CELLTYPE \"INV\") (INSTANCE e) (DELAY (ABSOLUTE (IOPATH A Y 1)))");
    check_error(text, 4003, 20);
    free(text);
    text = cells_text(27, " (CELL (CELLTYPE \"INV\") (INSTANCE e)");
    check_error(text, 4002, 35); /* the cell never closed takes in the rest */
    free(text);
}

/* A top CELL of forty INTERCONNECTs in one ABSOLUTE group (wire k on line
 * k + 8), as tools write it, with line `odd` (0: none) replaced by `with`,
 * then two cells; the reading in 2 to 12 parts cuts the top CELL inside. */
static char *wires_text(int odd, const char *with)
{
    char *text = malloc(8192), *at = text;
    at += sprintf(at, "(DELAYFILE\n (SDFVERSION \"3.0\")\n (TIMESCALE 1ps)\n (CELL\n"
                      "  (CELLTYPE \"top\")\n  (INSTANCE)\n  (DELAY\n   (ABSOLUTE\n");
    for (int k = 1; k <= 40; k++) {
        if (k + 8 == odd)
            at += sprintf(at, "%s\n", with);
        else
            at += sprintf(at, "    (INTERCONNECT u%d/Y u%d/A (%d) (%d:%d:%d))\n", k, k + 1, k, k,
                          k, k);
    }
    sprintf(at, " )))\n (CELL (CELLTYPE \"INV\") (INSTANCE u1) (DELAY (ABSOLUTE "
                "(IOPATH A Y (1)))))\n (CELL (CELLTYPE \"INV\") (INSTANCE u2) (DELAY "
                "(INCREMENT (IOPATH A Y (2)))))\n)\n");
    return text;
}

/* `text` read in 4 parts, every one of which counts (none read on), gives
 * what one reading gives (into *whole, zeroed by the caller). */
static void check_every_part_counts(const char *text, recorder *whole)
{
    recorder part[4];
    run x;
    read_text(&x, text, whole, NULL);
    run_free(&x);
    sdf_visitor v[4];
    for (int k = 0; k < 4; k++) {
        part[k] = (recorder){0};
        v[k] = visitor_for(&part[k]);
    }
    uint32_t used = 0;
    run_open(&x);
    x.st = sdf_read_memory_parts("t.sdf", text, strlen(text), v, 4, &used, NULL, x.d);
    CHECK_EQ_INT(x.st, GP_OK);
    CHECK_EQ_INT(used, 4);
    CHECK(same_records(part, used, whole));
    run_free(&x);
}

/* Parts begun at an INTERCONNECT inside a CELL, and what could fool such a
 * beginning: the parts give what one reading gives. */
static void test_parts_inside_cells(void)
{
    static const char *const odd[] = {
        " // (INTERCONNECT f/Y f/A (1))",
        " (INTERCONNECT a/Y b/A (1)) /* (INTERCONNECT\n f/Y f/A (2)) */",
        " ) (INCREMENT (INTERCONNECT i/Y i/A (3))",
        " )) (DELAY (ABSOLUTE (INTERCONNECT d/Y d/A (4))",
        " )) (TIMINGCHECK (SETUP D (posedge CK) (1))) (DELAY (ABSOLUTE",
        " (COND A (IOPATH A Y (5))) (INTERCONNECT c/Y c/A (5))",
        " ))) (CELL (CELLTYPE \"(INTERCONNECT \") (INSTANCE s) (DELAY (ABSOLUTE",
        " ) (PATHPULSE A Y (1)) (ABSOLUTE (PORT p/A (6))"};
    read_odd_texts(wires_text, odd, sizeof odd / sizeof odd[0], 12, 44, 16);
    char *text = wires_text(0, NULL);
    recorder whole = {0};
    check_every_part_counts(text, &whole);
    CHECK_EQ_INT(whole.n, 45); /* 3 CELLs, 42 entries */
    check_rec(&whole, 44, "IOPATH |A |Y INCR", 2 * PS, 2 * PS);
    char *increment = malloc(strlen(text) + 2), *group = strstr(text, "(ABSOLUTE\n");
    sprintf(increment, "%.*s(INCREMENT%s", (int)(group - text), text, group + strlen("(ABSOLUTE"));
    whole = (recorder){0};
    check_every_part_counts(increment, &whole); /* its group told by the lines before each part */
    CHECK_EQ_INT(whole.n, 45);
    free(increment);
    free(text);
    text = wires_text(30, "    (INTERCONNECT e/Y e/A (1x))");
    check_error(text, 4005, 30);
    free(text);
    text = wires_text(38, "    (INTERCONNECT e/Y e/A (1)");
    check_error(text, 4005, 39); /* the entry never closed reads the next as its value */
    free(text);
}

static void test_errors(void)
{
    /* Truncated: the file ends inside a cell. */
    check_error("(DELAYFILE (SDFVERSION \"3.0\")\n(CELL (CELLTYPE \"X\") (INSTANCE a)\n"
                "(DELAY (ABSOLUTE\n(IOPATH A Y (1))\n",
                4002, 5);
    check_error("(DELAYFILE (CELL (CELLTYPE \"X\") (INSTANCE a) (DELAY (ABSOLUTE (IOPATH A Y (1",
                4002, 1);
    /* Unbalanced: one ')' too many closes DELAYFILE early. */
    check_error("(DELAYFILE (SDFVERSION \"3.0\")\n (CELL (CELLTYPE \"X\") (INSTANCE a)))\n"
                " (CELL (CELLTYPE \"Y\") (INSTANCE b))\n)\n",
                4004, 3);
    /* Syntax: a value without its parentheses; an IOPATH without output. */
    check_error("(DELAYFILE\n(CELL (CELLTYPE \"X\") (INSTANCE a)\n"
                "(DELAY (ABSOLUTE (IOPATH A Y 0.1)))))",
                4003, 3);
    check_error("(DELAYFILE\n(CELL (CELLTYPE \"X\") (INSTANCE a)\n"
                "(DELAY (ABSOLUTE\n (IOPATH A (1))))))",
                4003, 4);
    check_error("(DELAYFILE\n(CELL (INSTANCE a)))", 4003, 2);
    check_error("(DELAYFILE\n(CELL (CELLTYPE \"X\") (INSTANCE a)\n(DELAY (ABSOLUTE\n"
                "(IOPATH A Y (1) (2) (3) (4) (5) (6) (7) (8) (9) (10) (11) (12) (13))))))",
                4003, 4);
    /* Bad numbers. */
    check_error("(DELAYFILE\n(CELL (CELLTYPE \"X\") (INSTANCE a)\n"
                "(DELAY (ABSOLUTE (IOPATH A Y (0.1x))))))",
                4005, 3);
    check_error("(DELAYFILE\n(CELL (CELLTYPE \"X\") (INSTANCE a)\n(DELAY (ABSOLUTE\n"
                "(IOPATH A Y (1:2))))))",
                4005, 4);
    check_error("(DELAYFILE\n(VOLTAGE 1.8:1.8:1.8:1.8))", 4005, 2);
    check_error("(DELAYFILE\n(CELL (CELLTYPE \"X\") (INSTANCE a)\n(DELAY (ABSOLUTE\n"
                "(IOPATH A Y (nan))))))",
                4005, 4);
    /* Missing DELAYFILE. */
    check_error("(CELL (CELLTYPE \"X\") (INSTANCE a))", 4001, 1);
    check_error("", 4001, 1);
    check_error("\n\nDELAYFILE", 4001, 3);
    /* SDF-specific. */
    check_error("(DELAYFILE\n(TIMESCALE 3 hours))", 4006, 2);
    check_error("(DELAYFILE\n(TIMESCALE -1ns))", 4006, 2);
    check_error("(DELAYFILE\n(DIVIDER :))", 4007, 2);
    check_error("(DELAYFILE (CELL (CELLTYPE \"X\") (INSTANCE a))\n(TIMESCALE 1ps))", 4008, 2);
    check_error("(DELAYFILE\n(CELL (CELLTYPE \"X\") (INSTANCE a)\n(DELAY (ABSOLUTE\n"
                "(IOPATH A Y (1) (2) (3) (4))))))",
                4015, 4);
    check_error("(DELAYFILE\n(CELL (CELLTYPE \"X\") (INSTANCE a)\n(DELAY (ABSOLUTE\n"
                "(IOPATH A Y)))))",
                4015, 4);
    check_error("(DELAYFILE\n(CELL (CELLTYPE \"X\") (INSTANCE a)\n(DELAY (ABSOLUTE\n"
                "(COND (IOPATH A Y (1)))))))",
                4016, 4);
    check_error("(DELAYFILE\n(CELL (CELLTYPE \"X\") (INSTANCE a)\n(DELAY (ABSOLUTE\n"
                "(IOPATH (rising A) Y (1))))))",
                4017, 4);
    check_error("(DELAYFILE\n(CELL (CELLTYPE \"X\") (INSTANCE a)\n(DELAY (ABSOLUTE\n"
                "(INTERCONNECT /a c (1))))))",
                4019, 4);
    check_error("(DELAYFILE\n(CELL (CELLTYPE \"X\")\n(INSTANCE top/))))", 4019, 3);
    /* The tokenizer's own: an unterminated comment. */
    check_error("(DELAYFILE\n/* no end", 1121, 2);
}

int main(void)
{
    RUN(test_opensta_2019_style);
    RUN(test_opensta_escapes_and_cond);
    RUN(test_dot_divider);
    RUN(test_values);
    RUN(test_timescales);
    RUN(test_constructs);
    RUN(test_version_warning_and_empty_file_parts);
    RUN(test_visitor_stops);
    RUN(test_files);
    RUN(test_parts);
    RUN(test_parts_inside_cells);
    RUN(test_errors);
    return check_exit_code();
}
