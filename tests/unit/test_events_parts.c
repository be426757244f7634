/* test_events_parts.c: a VCD read in parts on threads gives the store, the
 * statistics and the messages of the reading in file order, on random
 * dumps cut into many parts (vectors, x and z, aliases, zero-width pulses,
 * repeated values, a one-bit variable changed as a scalar and as a vector, $dumpall, skipped real and integer variables) and on
 * the inputs that make the parts fall back to one thread ($dumpoff, a
 * comment cut by a part's edge, errors, a missing last newline, which is
 * refused: the file is cut); the same
 * for the gzip copy of each dump, cut into parts as it is decompressed;
 * and every reading given in windows (events_stream) gives windows that
 * are the store's, each net's value at the window's start and its changes
 * from there, with none missing before the window's complete_fs.  Each
 * reading is also made without the design, which comes when the reading
 * asks for it (events_options.design), and gives the same. */
#include "check.h"
#include "scratch.h"
#include "design/design.h"
#include "events/events.h"
#ifdef GATEPOWER_HAVE_FST
#include "fstapi.h"
#endif

static const char lib_text[] =
    "library (tiny) {\n"
    "  time_unit : \"1ns\" ; capacitive_load_unit (1, pf) ; voltage_unit : \"1V\" ;\n"
    "  leakage_power_unit : \"1nW\" ; nom_voltage : 1.8 ;\n"
    "  cell (INV) {\n"
    "    pin (A) { direction : input ; capacitance : 0.02 ; }\n"
    "    pin (Y) { direction : output ; function : \"!A\" ; } }\n"
    "}\n";

/* Nets a, b[3:0] and n0..n11, a chain of inverters. */
static const char netlist_text[] =
    "module top (a, b, y);\n"
    "  input a; input [3:0] b; output y;\n"
    "  wire n0, n1, n2, n3, n4, n5, n6, n7, n8, n9, n10, n11;\n"
    "  INV u0 (.A(a), .Y(n0));\n  INV u1 (.A(n0), .Y(n1));\n  INV u2 (.A(n1), .Y(n2));\n"
    "  INV u3 (.A(b[0]), .Y(n3));\n  INV u4 (.A(b[1]), .Y(n4));\n  INV u5 (.A(b[2]), .Y(n5));\n"
    "  INV u6 (.A(b[3]), .Y(n6));\n  INV u7 (.A(n6), .Y(n7));\n  INV u8 (.A(n7), .Y(n8));\n"
    "  INV u9 (.A(n8), .Y(n9));\n  INV u10 (.A(n9), .Y(n10));\n  INV u11 (.A(n10), .Y(n11));\n"
    "  INV u12 (.A(n11), .Y(y));\n"
    "endmodule\n";

#define N_SCALARS 13 /* a, n0..n11: codes '!' + i; n11 also aliased as "y2" */

static const char header[] =
    "$date today $end\n$timescale 10ps $end\n$scope module tb $end\n$scope module dut $end\n"
    "$var wire 1 ! a $end\n$var wire 1 \" n0 $end\n$var wire 1 # n1 $end\n"
    "$var wire 1 $ n2 $end\n$var wire 1 % n3 $end\n$var wire 1 & n4 $end\n"
    "$var wire 1 ' n5 $end\n$var wire 1 ( n6 $end\n$var wire 1 ) n7 $end\n"
    "$var wire 1 * n8 $end\n$var wire 1 + n9 $end\n$var wire 1 , n10 $end\n"
    "$var wire 1 - n11 $end\n$var wire 1 - y2 $end\n$var wire 1 ab y $end\n"
    "$var wire 4 bus b [3:0] $end\n$var integer 32 cnt count $end\n"
    "$var real 64 rr level $end\n"
    "$upscope $end\n$upscope $end\n$enddefinitions $end\n";

static char dir[] = "/tmp/gp_test_events_parts_XXXXXX";
static lib_set *libs;
static design *dg;

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* One random command of the body into f. */
static void random_change(FILE *f, uint64_t *s)
{
    uint64_t r = rng_next(s);
    switch (r % 8) {
    case 0: case 1: case 2: case 3:
        fprintf(f, "%c%c", "01xzX0Z1"[(r >> 8) % 8], (char)('!' + (r >> 16) % N_SCALARS));
        break;
    case 4: {
        int bits = 1 + (int)((r >> 8) % 4);
        fputc('b', f);
        for (int i = 0; i < bits; i++)
            fputc("01xz"[(r >> (12 + 2 * i)) % 4], f);
        fputs(" bus", f);
        break;
    }
    case 5: /* a one-bit variable, now as a scalar, now as a vector */
        fprintf(f, (r >> 20) % 2 ? "%c%s" : "b%c %s", "01x"[(r >> 8) % 3], "ab");
        break;
    case 6:
        fprintf(f, "b%u cnt", (unsigned)((r >> 8) % 2));
        break;
    default:
        fprintf(f, "r%g rr", (double)((r >> 8) % 100) / 8);
    }
    fputc((r >> 40) % 5 == 0 ? ' ' : '\n', f); /* now and then two commands on a line */
}

/* A random dump of about `steps` time steps; `extra` is written after the
 * step numbered `at`. */
static void write_random_vcd(const char *path, uint64_t seed, int steps, int at,
                             const char *extra)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    uint64_t s = seed;
    fputs(header, f);
    fputs("#0\n$dumpvars\n0!\n1\"\nb0000 bus\nb0 cnt\nr0 rr\n$end\n", f);
    uint64_t t = 0;
    for (int step = 0; step < steps; step++) {
        t += (rng_next(&s) % 4) * 3; /* a step of 0 repeats a time */
        fprintf(f, "#%llu\n", (unsigned long long)t);
        for (int k = (int)(rng_next(&s) % 6); k > 0; k--)
            random_change(f, &s);
        if (rng_next(&s) % 50 == 0)
            fputs("$dumpall\n1!\nb1111 bus\n$end\n", f);
        if (step == at)
            fputs(extra, f);
    }
    fprintf(f, "#%llu\n", (unsigned long long)t + 7);
    fclose(f);
}

typedef struct reading {
    gp_status st;
    events *ev;
    events_stats stats;
    char *messages;
    size_t messages_len;
} reading;

/* The design when the reading asks for it (events_options.design): `dg`,
 * or the status *ctx names when it is not GP_OK. */
static gp_status design_later(void *ctx, const design **out)
{
    gp_status refuse = ctx ? *(const gp_status *)ctx : GP_OK;
    *out = refuse == GP_OK ? dg : NULL;
    return refuse;
}

/* Reads path on `threads` threads, in parts of part_size bytes at least (0:
 * the readers' own sizes); given the design, or given it when it asks
 * (`late`). */
static reading read_given(const char *path, uint32_t threads, size_t part_size, bool late)
{
    reading r = {0};
    FILE *out = open_memstream(&r.messages, &r.messages_len);
    diag_ctx *d = diag_new(out);
    events_options opt = {.scope = "tb/dut", .threads = threads, .part_size = part_size,
                          .design = design_later};
    r.st = events_read(late ? NULL : dg, path, &opt, &r.ev, &r.stats, d);
    diag_free(d);
    fclose(out);
    return r;
}

static reading read_sized(const char *path, uint32_t threads, size_t part_size)
{
    return read_given(path, threads, part_size, false);
}

static reading read_with(const char *path, uint32_t threads)
{
    return read_sized(path, threads, 1);
}

static reading read_late(const char *path, uint32_t threads)
{
    return read_given(path, threads, 1, true);
}

/* Reads path in file order: no part is as large as its body. */
static reading read_in_order(const char *path)
{
    return read_sized(path, 1, SIZE_MAX);
}

static void reading_free(reading *r)
{
    events_free(r->ev);
    free(r->messages);
}

static bool same_store(const events *a, const events *b)
{
    if (!a || !b)
        return a == b;
    return a->n_nets == b->n_nets && a->n_events == b->n_events && a->end_fs == b->end_fs &&
           memcmp(a->net_ev0, b->net_ev0, (a->n_nets + 1) * sizeof *a->net_ev0) == 0 &&
           memcmp(a->word, b->word, a->n_events * sizeof *a->word) == 0;
}

/* Each message starts with the file's name: the gzip copy's, `zipped`,
 * which is the plain file's and ".gz", loses that ending there (only
 * there: a message may quote the file's text, which may hold anything). */
static void strip_gz(reading *r, const char *zipped)
{
    size_t n = strlen(zipped);
    for (char *line = r->messages; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (strncmp(line, zipped, n) == 0)
            memmove(line + n - 3, line + n, strlen(line + n) + 1);
}

static void check_alike(const reading *one, const reading *other)
{
    CHECK_EQ_INT(one->st, other->st);
    CHECK(same_store(one->ev, other->ev));
    CHECK_EQ_STR(one->messages, other->messages);
    CHECK_EQ_INT(one->stats.vars, other->stats.vars);
    CHECK_EQ_INT(one->stats.signals_matched, other->stats.signals_matched);
    CHECK_EQ_INT(one->stats.signals_duplicate, other->stats.signals_duplicate);
    CHECK_EQ_INT(one->stats.nets_with_activity, other->stats.nets_with_activity);
}

/* A reading given the design when it asks, against one given it at the
 * start: a reading that fails before it needs the design binds nothing,
 * and so counts no signals. */
static void check_late_alike(const reading *given, const reading *late)
{
    if (given->st == GP_OK) {
        check_alike(given, late);
        return;
    }
    CHECK_EQ_INT(given->st, late->st);
    CHECK_EQ_STR(given->messages, late->messages);
}

/* Reads `path` in file order, in parts on one thread and on 3, and its
 * gzip copy in parts on 3 threads; checks they agree and returns the parts
 * the plain file's and the gzip copy's readings on 3 threads used, in
 * *parts and *gz_parts. */
static void check_readings(const char *path, uint32_t *parts, uint32_t *gz_parts)
{
    char gz[300], cmd[700];
    snprintf(gz, sizeof gz, "%s.gz", path);
    snprintf(cmd, sizeof cmd, "gzip -c '%s' > '%s'", path, gz);
    CHECK_EQ_INT(system(cmd), 0);
    reading one = read_in_order(path), many = read_with(path, 3), zipped = read_with(gz, 3);
    reading late_one = read_given(path, 1, SIZE_MAX, true), late_many = read_late(path, 3);
    reading one_thread = read_with(path, 1);
    strip_gz(&zipped, gz);
    CHECK_EQ_INT(one.stats.parts, 1);
    check_alike(&one, &one_thread);
    check_alike(&one, &many);
    check_alike(&one, &zipped);
    check_late_alike(&one, &late_one);
    check_late_alike(&one, &late_many);
    *parts = many.stats.parts;
    *gz_parts = zipped.stats.parts;
    reading_free(&late_one);
    reading_free(&late_many);
    reading_free(&one_thread);
    reading_free(&one);
    reading_free(&many);
    reading_free(&zipped);
}

/* check_readings; the parts of the plain file's reading when both used as
 * many (1: both read in file order), else 0. */
static uint32_t check_same_reading(const char *path)
{
    uint32_t parts, gz_parts;
    check_readings(path, &parts, &gz_parts);
    return parts == 1 && gz_parts == 1 ? 1 : parts > 1 && gz_parts > 1 ? parts : 0;
}

static void test_random_dumps_read_alike(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/random.vcd", dir);
    for (uint64_t seed = 1; seed <= 6; seed++) {
        write_random_vcd(path, seed * 0x9e3779b97f4a7c15ULL, 400 * (int)seed, -1, "");
        CHECK(check_same_reading(path) > 1);
    }
}

static void test_dumpoff_falls_back(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/dumpoff.vcd", dir);
    write_random_vcd(path, 77, 2000, 900, "$dumpoff\nx!\n$end\n#99999\n$dumpon\n1!\n$end\n");
    CHECK_EQ_INT(check_same_reading(path), 1);
}

static void test_comment_with_times_reads_alike(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/comment.vcd", dir);
    char comment[4096] = "$comment\n";
    for (int i = 0; i < 100; i++)
        snprintf(comment + strlen(comment), sizeof comment - strlen(comment), "#%d\n1!\n", i);
    strcat(comment, "$end\n");
    for (int at = 100; at < 2000; at += 450) {
        write_random_vcd(path, 5 + (uint64_t)at, 2000, at, comment);
        check_same_reading(path);
    }
}

static void test_errors_read_alike(void)
{
    static const char *const bad[] = {
        "1?\n",           /* a code no $var declares */
        "bq1 bus\n",      /* a bad value character */
        "#1\n",           /* a time before the one before (steps end later) */
        "$end\n",         /* an $end without a block */
        "$dumpvars\n1!\n", /* a block whose $end is missing: a #time inside it */
    };
    char path[256];
    snprintf(path, sizeof path, "%s/bad.vcd", dir);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_random_vcd(path, 11 + i, 3000, 1500, bad[i]);
        reading one = read_in_order(path);
        CHECK(one.st != GP_OK);
        reading_free(&one);
        CHECK_EQ_INT(check_same_reading(path), 1);
    }
}

static void test_missing_last_newline_refused_alike(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/cut.vcd", dir);
    write_random_vcd(path, 3, 2000, -1, "");
    FILE *f = fopen(path, "a");
    if (f) {
        fputs("#999999 1!", f);
        fclose(f);
    }
    uint32_t parts, gz_parts;
    check_readings(path, &parts, &gz_parts);
    CHECK_EQ_INT(parts, 1); /* the last part fails: read in file order, for the error */
    CHECK_EQ_INT(gz_parts, 1);
    reading one = read_in_order(path);
    CHECK_EQ_INT(one.st, GP_ERR_PARSE);
    CHECK(strstr(one.messages, "error 6023") != NULL);
    reading_free(&one);
}

/* One identifier code declared under three names (the aliases simulators
 * write for nets joined by ports or assigns) gives each of those nets its
 * changes, in file order and on threads alike. */
static void test_aliases_give_every_net_the_changes(void)
{
    static const char vcd[] =
        "$timescale 1ps $end\n$scope module tb $end\n$scope module dut $end\n"
        "$var wire 1 ! a $end\n$var wire 1 ! n0 $end\n$var wire 1 \" n2 $end\n"
        "$var wire 1 ! n1 $end\n$upscope $end\n$upscope $end\n$enddefinitions $end\n"
        "#0\n0!\n1\"\n#5\n1!\n#10\n0!\n0\"\n";
    char path[256];
    snprintf(path, sizeof path, "%s/alias.vcd", dir);
    scratch_write_text(path, vcd);
    for (int way = 0; way < 4; way++) {
        reading r = way == 0 ? read_in_order(path) : way < 3 ? read_with(path, 2 * way - 1)
                                                            : read_late(path, 3);
        CHECK_EQ_INT(r.st, GP_OK);
        CHECK_EQ_INT(r.stats.nets_with_activity, 4);
        for (int k = 0; r.ev && k < 3; k++) {
            uint32_t net = design_find_net(dg, (const char *[]){"a", "n0", "n1"}[k]);
            uint64_t e = r.ev->net_ev0[net];
            CHECK_EQ_INT(r.ev->net_ev0[net + 1] - e, 3);
            CHECK_EQ_INT(events_time(r.ev, e + 1), 5000);
            CHECK_EQ_INT(events_value(r.ev, e + 1), 1);
            CHECK_EQ_INT(events_time(r.ev, e + 2), 10000);
            CHECK_EQ_INT(events_value(r.ev, e + 2), 0);
        }
        uint32_t n2 = design_find_net(dg, "n2");
        CHECK(r.ev && r.ev->net_ev0[n2 + 1] - r.ev->net_ev0[n2] == 2);
        reading_free(&r);
    }
}

static bool always_stopped(void *ctx)
{
    (void)ctx;
    return true;
}

/* A design that does not come (its reader failed) stops the reading with
 * its status, and no error of the reading's own; so does a reading told
 * to stop (GP_ERR_INPUT) before it asks for the design. */
static void test_design_refused_stops_reading(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/refused.vcd", dir);
    write_random_vcd(path, 99, 500, -1, "");
    for (uint32_t run = 0; run < 4; run++) {
        uint32_t threads = run % 2 ? 3 : 1;
        gp_status refuse = run < 2 ? GP_ERR_INPUT : GP_ERR_NOMEM;
        char *messages = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&messages, &len);
        diag_ctx *d = diag_new(out);
        events_options opt = {.scope = "tb/dut", .threads = threads, .part_size = 1,
                              .design = design_later, .design_ctx = &refuse,
                              .stopped = run < 2 ? NULL : always_stopped};
        events *ev = NULL;
        events_stats stats;
        CHECK_EQ_INT(events_read(NULL, path, &opt, &ev, &stats, d), GP_ERR_INPUT);
        CHECK(ev == NULL);
        diag_free(d);
        fclose(out);
        CHECK(messages && strstr(messages, "error") == NULL);
        free(messages);
    }
}

/* ---- windows (events_stream) ---------------------------------------------- */

/* A consumer that checks each window against the whole store. */
typedef struct window_check {
    const events *whole;
    int64_t keep_back;   /* keep_from is complete_fs less this, not below from */
    uint32_t windows, restarts;
    uint64_t bad_nets;   /* nets of a window unlike the store */
    bool saw_last;
} window_check;

static uint32_t nets_with_events(const events *ev)
{
    uint32_t nets = 0;
    for (uint32_t n = 0; n < ev->n_nets; n++)
        nets += ev->net_ev0[n + 1] > ev->net_ev0[n];
    return nets;
}

/* The first of net n's changes in ev at or after t. */
static uint64_t first_at(const events *ev, uint32_t n, int64_t t)
{
    uint64_t k = ev->net_ev0[n];
    while (k < ev->net_ev0[n + 1] && events_time(ev, k) < t)
        k++;
    return k;
}

/* Whether net n's changes in window w are the whole store's: its last
 * before w->from, then the store's from there on, up to complete_fs at
 * least (to the end on the last window). */
static bool window_net_ok(const events *whole, const events_window *w, uint32_t n)
{
    uint64_t at = first_at(whole, n, w->from), end = whole->net_ev0[n + 1];
    uint64_t first = at > whole->net_ev0[n] ? at - 1 : at;
    const events *ev = w->ev;
    uint64_t len = ev->net_ev0[n + 1] - ev->net_ev0[n];
    if (first + len > end)
        return false;
    for (uint64_t k = 0; k < len; k++)
        if (ev->word[ev->net_ev0[n] + k] != whole->word[first + k])
            return false;
    return first + len == end || (!w->last && events_time(whole, first + len) >= w->complete_fs);
}

static gp_status check_window(void *ctx, const events_window *w, int64_t *keep_from)
{
    window_check *wc = ctx;
    wc->windows++;
    wc->saw_last |= w->last;
    CHECK_EQ_INT(w->ev->n_nets, wc->whole->n_nets);
    if (w->last)
        CHECK_EQ_INT(w->ev->end_fs, wc->whole->end_fs);
    for (uint32_t n = 0; n < w->ev->n_nets && n < wc->whole->n_nets; n++)
        wc->bad_nets += !window_net_ok(wc->whole, w, n);
    int64_t keep = w->complete_fs - wc->keep_back;
    *keep_from = keep > w->from ? keep : w->from;
    return GP_OK;
}

static void restart_check(void *ctx)
{
    window_check *wc = ctx;
    wc->restarts++;
    wc->saw_last = false;
}

/* Streams `path` on `threads` threads in windows of about 20 changes and
 * checks them against the whole store; returns the windows given.  The
 * design is given at the start, or when the reading asks (`late`). */
static uint32_t check_windows_given(const char *path, uint32_t threads, const events *whole,
                                    int64_t keep_back, uint32_t *restarts, bool late)
{
    window_check wc = {.whole = whole, .keep_back = keep_back};
    events_consumer consumer = {.ctx = &wc, .memory = 20 * 16, .window = check_window,
                                .restart = restart_check};
    events_options opt = {.scope = "tb/dut", .threads = threads, .part_size = 1,
                          .design = design_later};
    events_stats stats;
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(events_stream(late ? NULL : dg, path, &opt, &consumer, &stats, d), GP_OK);
    diag_free(d);
    CHECK(wc.saw_last);
    CHECK_EQ_INT(wc.bad_nets, 0);
    CHECK_EQ_INT(stats.nets_with_activity, nets_with_events(whole));
    if (restarts)
        *restarts = wc.restarts;
    return stats.windows;
}

static uint32_t check_windows(const char *path, uint32_t threads, const events *whole,
                              int64_t keep_back, uint32_t *restarts)
{
    return check_windows_given(path, threads, whole, keep_back, restarts, false);
}

/* Every reading of `path` (in file order, in parts on 3 threads, and the
 * gzip copy's) in windows, keeping from complete_fs or a little before. */
static void check_windowed_readings(const char *path, bool gzip_too)
{
    char gz[300];
    snprintf(gz, sizeof gz, "%s.gz", path);
    reading one = read_in_order(path);
    CHECK_EQ_INT(one.st, GP_OK);
    for (int64_t back = 0; one.ev && back <= 50000; back += 50000) {
        CHECK(check_windows(path, 1, one.ev, back, NULL) > 10);
        CHECK(check_windows(path, 3, one.ev, back, NULL) > 10);
        CHECK(check_windows_given(path, 3, one.ev, back, NULL, true) > 10);
        if (gzip_too)
            CHECK(check_windows(gz, 3, one.ev, back, NULL) > 10);
    }
    reading_free(&one);
}

static void test_windows_are_the_store(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/random.vcd", dir);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        write_random_vcd(path, seed * 0x9e3779b97f4a7c15ULL, 800 * (int)seed, -1, "");
        check_same_reading(path); /* and writes the gzip copy */
        check_windowed_readings(path, true);
    }
}

/* Parts given as windows that then fall back ($dumpoff in a later batch)
 * restart the consumer, whose windows come again in file order. */
static void test_windows_restart_on_fallback(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/dumpoff.vcd", dir);
    write_random_vcd(path, 78, 2000, 1500, "$dumpoff\nx!\n$end\n$dumpon\n1!\n$end\n");
    reading one = read_in_order(path);
    CHECK_EQ_INT(one.st, GP_OK);
    uint32_t restarts = 0;
    if (one.ev)
        CHECK(check_windows(path, 3, one.ev, 0, &restarts) > 10);
    CHECK_EQ_INT(restarts, 1);
    if (one.ev)
        CHECK(check_windows_given(path, 3, one.ev, 0, &restarts, true) > 10);
    CHECK_EQ_INT(restarts, 1);
    reading_free(&one);
}

/* ---- spans of ranks (events_options.span) --------------------------------- */

/* The ranks of one run, read one after the other: the edges of the spans
 * read so far, folded, and what each span's windows must hold. */
typedef struct span_chain {
    const events *whole;
    events_edge *prefix; /* the fold of the spans read so far (NULL: none yet) */
    int64_t from, to;
    window_check wc;     /* the windows of a span read from the dump's start */
    uint64_t bad_nets;   /* nets of a span's window unlike the store */
    uint32_t windows;
    int64_t last_end_fs; /* the last window's end_fs */
} span_chain;

static gp_status chain_edge(void *ctx, const events_edge *mine, events_edge *before,
                            uint32_t n_nets)
{
    span_chain *sc = ctx;
    CHECK_EQ_INT(n_nets, sc->whole->n_nets);
    events_edge *next = malloc(((size_t)n_nets + 1) * sizeof *next);
    memcpy(next, mine, n_nets * sizeof *next);
    if (sc->prefix) {
        memcpy(before, sc->prefix, n_nets * sizeof *before);
        events_edge_fold(sc->prefix, next, n_nets);
    }
    free(sc->prefix);
    sc->prefix = next;
    return GP_OK;
}

/* Whether net n's changes in a span's window are the store's: its last
 * before the span, then every one before the span's end. */
static bool span_net_ok(const span_chain *sc, const events *ev, uint32_t n)
{
    const events *whole = sc->whole;
    uint64_t at = first_at(whole, n, sc->from), end = first_at(whole, n, sc->to);
    uint64_t first = at > whole->net_ev0[n] ? at - 1 : at;
    uint64_t len = ev->net_ev0[n + 1] - ev->net_ev0[n];
    if (len != end - first)
        return false;
    for (uint64_t k = 0; k < len; k++)
        if (ev->word[ev->net_ev0[n] + k] != whole->word[first + k])
            return false;
    return true;
}

/* Each window checked both as a span's, read alone, and as one of a
 * reading from the dump's start (window_net_ok): read_span knows which. */
static gp_status chain_window(void *ctx, const events_window *w, int64_t *keep_from)
{
    span_chain *sc = ctx;
    sc->windows++;
    sc->wc.saw_last |= w->last;
    sc->last_end_fs = w->ev->end_fs;
    for (uint32_t n = 0; n < w->ev->n_nets; n++) {
        sc->bad_nets += !span_net_ok(sc, w->ev, n);
        sc->wc.bad_nets += !window_net_ok(sc->whole, w, n);
    }
    *keep_from = w->complete_fs < INT64_MAX ? w->complete_fs : w->from;
    return GP_OK;
}

/* Reads the span [from, to) of `path` as the next rank; memory 0 lets it
 * be read alone, a small one makes it read from the dump's start.
 * Returns span_bytes. */
static uint64_t read_span(span_chain *sc, const char *path, uint32_t threads, uint64_t memory,
                          int64_t from, int64_t to)
{
    sc->from = from, sc->to = to, sc->windows = 0, sc->bad_nets = 0;
    sc->wc = (window_check){.whole = sc->whole};
    events_consumer consumer = {.ctx = sc, .memory = memory, .window = chain_window,
                                .restart = restart_check};
    events_options opt = {.scope = "tb/dut", .threads = threads, .part_size = 1, .span = true,
                          .span_from_fs = from, .span_to_fs = to, .edge = chain_edge,
                          .edge_ctx = sc};
    events_stats stats;
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(events_stream(dg, path, &opt, &consumer, &stats, d), GP_OK);
    diag_free(d);
    if (stats.span_bytes > 0) { /* one window, the span's */
        CHECK_EQ_INT(sc->windows, 1);
        CHECK_EQ_INT(sc->bad_nets, 0);
    } else {
        CHECK(sc->wc.saw_last);
        CHECK_EQ_INT(sc->wc.bad_nets, 0);
        CHECK_EQ_INT(sc->last_end_fs, sc->whole->end_fs);
    }
    return stats.span_bytes;
}

/* The dump cut into four spans at times of its own and between them; the
 * spans read in turn, alone or from the dump's start as `alone` says, each
 * given the nets' values at its start by the ones before it.  Returns the
 * spans read alone. */
static int check_spans(const char *path, uint32_t threads, const bool alone[4])
{
    reading one = read_in_order(path);
    CHECK_EQ_INT(one.st, GP_OK);
    if (!one.ev)
        return 0;
    int64_t end = one.ev->end_fs;
    int64_t cut[5] = {INT64_MIN, end / 4 / 10000 * 10000, end / 2 + 1, end * 3 / 4, INT64_MAX};
    span_chain sc = {.whole = one.ev};
    int read_alone = 0;
    for (int k = 0; k < 4; k++)
        read_alone += read_span(&sc, path, threads, alone[k] ? 0 : 20 * 16, cut[k], cut[k + 1]) > 0;
    free(sc.prefix);
    reading_free(&one);
    return read_alone;
}

static void test_spans_read_alone_or_whole(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/spans.vcd", dir);
    static const bool all[4] = {true, true, true, true}, some[4] = {true, false, true, false};
    for (uint64_t seed = 1; seed <= 3; seed++) {
        write_random_vcd(path, seed * 0x2545f4914f6cdd1dULL, 900 * (int)seed, -1, "");
        CHECK_EQ_INT(check_spans(path, 1, all), 4);
        CHECK_EQ_INT(check_spans(path, 3, all), 4);
        CHECK_EQ_INT(check_spans(path, 3, some), 2);
    }
}

/* A span that meets $dumpoff is read from the dump's start in file order;
 * the spans after it start from its edge. */
static void test_span_with_dumpoff_read_whole(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/span_dumpoff.vcd", dir);
    write_random_vcd(path, 91, 2000, 700, "$dumpoff\nx!\n$end\n$dumpon\n1!\n$end\n");
    static const bool all[4] = {true, true, true, true};
    CHECK_EQ_INT(check_spans(path, 3, all), 3);
    CHECK_EQ_INT(check_spans(path, 1, all), 3);
}

#ifdef GATEPOWER_HAVE_FST
/* A random FST of the netlist's nets in `blocks` value-change blocks or
 * so: start values (the first block's frame), scalars with x and z, the
 * bus, repeated values and zero-width pulses; dump on/off changes when
 * `dump_off`.  The seed picks the pack
 * type (zlib, FastLZ, LZ4). */
static void write_random_fst(const char *path, uint64_t seed, int steps, int blocks, bool dump_off)
{
    static const int packs[] = {FST_WR_PT_ZLIB, FST_WR_PT_FASTLZ, FST_WR_PT_LZ4};
    void *w = fstWriterCreate(path, 1);
    if (!w)
        return;
    fstWriterSetPackType(w, packs[seed % 3]);
    static const char *const names[N_SCALARS] = {"a", "n0", "n1", "n2", "n3", "n4", "n5",
                                                 "n6", "n7", "n8", "n9", "n10", "n11"};
    fstHandle h[N_SCALARS + 1];
    fstWriterSetTimescale(w, -12);
    fstWriterSetScope(w, FST_ST_VCD_MODULE, "tb", NULL);
    fstWriterSetScope(w, FST_ST_VCD_MODULE, "dut", NULL);
    for (int i = 0; i < N_SCALARS; i++)
        h[i] = fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, 1, names[i], 0);
    h[N_SCALARS] = fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, 4, "b [3:0]", 0);
    fstWriterSetUpscope(w);
    fstWriterSetUpscope(w);
    for (int i = 0; i < N_SCALARS; i += 2) /* before the first time: the first block's frame */
        fstWriterEmitValueChange(w, h[i], i % 4 ? "1" : "0");
    fstWriterEmitValueChange(w, h[N_SCALARS], "10z1");
    uint64_t s = seed, t = 3;
    for (int step = 0; step < steps; step++) {
        fstWriterEmitTimeChange(w, t);
        for (int k = (int)(rng_next(&s) % 6); k > 0; k--) {
            uint64_t r = rng_next(&s);
            char v[5] = {"01xz"[(r >> 8) % 4], "01xz"[(r >> 10) % 4], "01xz"[(r >> 12) % 4],
                         "01xz"[(r >> 14) % 4], '\0'};
            uint32_t which = (uint32_t)((r >> 16) % (N_SCALARS + 1));
            if (which < N_SCALARS)
                v[1] = '\0';
            fstWriterEmitValueChange(w, h[which], v);
        }
        if (dump_off && step % 700 == 350)
            fstWriterEmitDumpActive(w, step % 1400 != 350);
        if (rng_next(&s) % (uint64_t)(steps / blocks + 1) == 0)
            fstWriterFlushContext(w);
        t += (rng_next(&s) % 4) * 3 + 1;
    }
    fstWriterClose(w);
}

/* An FST read in parts (groups of handles of its blocks) on 3 threads
 * gives the store of its reading in file order; one with dump on/off
 * changes is read in file order. */
static void test_fst_reads_alike(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/random.fst", dir);
    for (uint64_t seed = 1; seed <= 4; seed++) {
        bool dump_off = seed == 4;
        write_random_fst(path, seed * 0x2545f4914f6cdd1dULL, 3000, (int)(1 + 5 * seed), dump_off);
        reading one = read_in_order(path), many = read_with(path, 3);
        reading late = read_late(path, 3);
        check_alike(&one, &many);
        check_late_alike(&one, &late);
        reading_free(&late);
        CHECK(dump_off ? many.stats.parts == 1 : many.stats.parts > 1);
        /* the readers' own parts: each block cut into groups of handles */
        reading grouped = read_sized(path, 3, 0);
        check_alike(&one, &grouped);
        CHECK(dump_off || grouped.stats.parts >= 12);
        reading_free(&grouped);
        CHECK(one.ev && one.ev->n_events > 1000);
        if (one.ev && !dump_off) {
            CHECK(check_windows(path, 1, one.ev, 0, NULL) > 10);
            CHECK(check_windows(path, 3, one.ev, 3000, NULL) > 1);
            CHECK(check_windows_given(path, 3, one.ev, 3000, NULL, true) > 1);
        }
        /* by spans: their blocks alone, or (dump on/off) the whole file */
        static const bool all[4] = {true, true, true, true}, some[4] = {false, true, true, false};
        CHECK_EQ_INT(check_spans(path, 3, all), dump_off ? 0 : 4);
        CHECK_EQ_INT(check_spans(path, 1, all), dump_off ? 0 : 4);
        CHECK_EQ_INT(check_spans(path, 3, some), dump_off ? 0 : 2);
        reading_free(&one);
        reading_free(&many);
    }
}

/* An FST whose scalar `n3` (or, `in_bus`, the bus) takes a value no
 * two- or four-state dump has, 'u', in the middle of its 2000 steps. */
static void write_fst_with_u(const char *path, bool in_bus)
{
    void *w = fstWriterCreate(path, 1);
    if (!w)
        return;
    fstWriterSetTimescale(w, -12);
    fstWriterSetScope(w, FST_ST_VCD_MODULE, "tb", NULL);
    fstWriterSetScope(w, FST_ST_VCD_MODULE, "dut", NULL);
    fstHandle n3 = fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, 1, "n3", 0);
    fstHandle bus = fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, 4, "b [3:0]", 0);
    fstWriterSetUpscope(w);
    fstWriterSetUpscope(w);
    for (int step = 0; step < 2000; step++) {
        fstWriterEmitTimeChange(w, (uint64_t)step * 5);
        bool bad = step == 1000;
        fstWriterEmitValueChange(w, n3, bad && !in_bus ? "u" : step % 2 ? "1" : "0");
        fstWriterEmitValueChange(w, bus, bad && in_bus ? "01u1" : step % 3 ? "0110" : "1001");
        if (step % 400 == 399)
            fstWriterFlushContext(w);
    }
    fstWriterClose(w);
}

/* A value that is not 0, 1, x or z is error 6107 with the same messages
 * on one thread and on three (a part given as runs that meets it goes
 * back to the reading in file order), in a scalar and in a bus. */
static void test_fst_bad_value_read_alike(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/bad_value.fst", dir);
    for (int in_bus = 0; in_bus <= 1; in_bus++) {
        write_fst_with_u(path, in_bus);
        reading one = read_in_order(path), many = read_with(path, 3);
        CHECK(one.st != GP_OK && many.st != GP_OK && one.ev == NULL && many.ev == NULL);
        CHECK(one.messages && strstr(one.messages, "error 6107") != NULL);
        CHECK(one.messages && many.messages && strcmp(one.messages, many.messages) == 0);
        reading_free(&one);
        reading_free(&many);
    }
}

/* Bytes [at, at + n) of the file overwritten. */
static void damage(const char *path, long at, size_t n)
{
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (!f)
        return;
    unsigned char junk[64];
    memset(junk, 0x5a, sizeof junk);
    CHECK(fseek(f, at, SEEK_SET) == 0 && fwrite(junk, 1, n, f) == n);
    fclose(f);
}

/* The offset of the k-th value-change block (tags 1, 5, 8) after the
 * 330-byte header, or -1. */
static long changes_block(const char *path, int k)
{
    FILE *f = fopen(path, "rb");
    unsigned char h[9];
    long at = 330, found = -1;
    while (f && found < 0 && fseek(f, at, SEEK_SET) == 0 && fread(h, 1, 9, f) == 9) {
        uint64_t len = 0;
        for (int i = 1; i < 9; i++)
            len = len << 8 | h[i];
        if ((h[0] == 1 || h[0] == 5 || h[0] == 8) && k-- == 0)
            found = at;
        at += 1 + (long)len;
    }
    if (f)
        fclose(f);
    return found;
}

/* A zlib-packed FST damaged in the middle of its third value-change
 * block: error 6110 with the same messages on one thread and on three
 * (whichever part meets the damage, the reading goes back to file order
 * for its message), and no store. */
static void test_fst_damaged_block_read_alike(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/damaged.fst", dir);
    write_random_fst(path, 3, 3000, 6, false); /* seed 3: zlib */
    long at = changes_block(path, 2);
    CHECK(at > 0);
    FILE *f = fopen(path, "rb");
    unsigned char h[9];
    CHECK(f && fseek(f, at, SEEK_SET) == 0 && fread(h, 1, 9, f) == 9);
    if (f)
        fclose(f);
    uint64_t len = 0;
    for (int i = 1; i < 9; i++)
        len = len << 8 | h[i];
    damage(path, at + (long)(len / 2), 48);
    reading one = read_in_order(path), many = read_with(path, 3);
    CHECK(one.st != GP_OK && many.st != GP_OK);
    CHECK(one.ev == NULL && many.ev == NULL);
    CHECK(one.messages && strstr(one.messages, "error 6110") != NULL);
    CHECK(one.messages && many.messages && strcmp(one.messages, many.messages) == 0);
    reading_free(&one);
    reading_free(&many);
}
#endif

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    diag_ctx *d = diag_new(stderr);
    char path[256];
    libs = scratch_libs(dir, "tiny.lib", lib_text, d);
    const char *netlists[] = {scratch_write(dir, "top.v", netlist_text, path, sizeof path)};
    CHECK_EQ_INT(design_read_netlist(&dg, libs, netlists, 1, "top", d), GP_OK);
    if (dg) {
        RUN(test_random_dumps_read_alike);
        RUN(test_dumpoff_falls_back);
        RUN(test_comment_with_times_reads_alike);
        RUN(test_errors_read_alike);
        RUN(test_missing_last_newline_refused_alike);
        RUN(test_aliases_give_every_net_the_changes);
        RUN(test_design_refused_stops_reading);
        RUN(test_windows_are_the_store);
        RUN(test_windows_restart_on_fallback);
        RUN(test_spans_read_alone_or_whole);
        RUN(test_span_with_dumpoff_read_whole);
#ifdef GATEPOWER_HAVE_FST
        RUN(test_fst_reads_alike);
        RUN(test_fst_damaged_block_read_alike);
        RUN(test_fst_bad_value_read_alike);
#endif
    }
    design_free(dg);
    lib_set_free(libs);
    diag_free(d);
    scratch_remove(dir);
    return check_exit_code();
}
