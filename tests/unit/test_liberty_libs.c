/* test_liberty_libs.c: the Liberty reader on the real libraries of
 * ../shared/libs and Debian's OSU 0.18 library.  Counts are checked against
 * an independent scan of the raw text (groups named by a word and '(',
 * outside comments, strings and test_cell groups, which the reader skips);
 * values against numbers copied from the files by hand. */
#include <ctype.h>
#include <zlib.h>

#include "check.h"
#include "liberty/liberty.h"

#define LIBS "../../../shared/libs/"
#define OSU "/usr/share/qflow/tech/osu018/osu018_stdcells.lib"
#define NS 1e6 /* fs: times are femtoseconds */

/* ---- an independent count of the raw text ----------------------------------- */

typedef struct counts {
    long cells, pins, pg_pins, timings, powers, leakages, seqs, functions;
} counts;

static bool ident(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Index of the byte after the group body starting at the first '{' from i. */
static size_t skip_group(const char *t, size_t n, size_t i)
{
    while (i < n && t[i] != '{')
        i++;
    for (int depth = 0; i < n; i++) {
        if (t[i] == '"')
            for (i++; i < n && t[i] != '"'; i++)
                if (t[i] == '\\')
                    i++;
        depth += t[i] == '{';
        if (t[i] == '}' && --depth == 0)
            return i + 1;
    }
    return n;
}

static void count_word(counts *c, const char *w, size_t len, char next)
{
#define IS(s) (len == strlen(s) && memcmp(w, s, len) == 0)
    if (next == '(') {
        c->cells += IS("cell");
        c->pins += IS("pin");
        c->pg_pins += IS("pg_pin");
        c->timings += IS("timing");
        c->powers += IS("internal_power");
        c->leakages += IS("leakage_power");
        c->seqs += IS("ff") || IS("latch");
    } else if (next == ':') {
        c->functions += IS("function");
    }
#undef IS
}

static counts scan(const char *t, size_t n)
{
    counts c = {0};
    for (size_t i = 0; i < n;) {
        if (t[i] == '/' && i + 1 < n && t[i + 1] == '*') {
            const char *end = strstr(t + i + 2, "*/");
            i = end ? (size_t)(end - t) + 2 : n;
        } else if (t[i] == '"') {
            for (i++; i < n && t[i] != '"'; i++)
                if (t[i] == '\\')
                    i++;
            i++;
        } else if (ident(t[i]) && (i == 0 || !ident(t[i - 1]))) {
            size_t start = i;
            while (i < n && ident(t[i]))
                i++;
            size_t j = i;
            while (j < n && (t[j] == ' ' || t[j] == '\t'))
                j++;
            if (i - start == 9 && memcmp(t + start, "test_cell", 9) == 0)
                i = skip_group(t, n, i);
            else
                count_word(&c, t + start, i - start, j < n ? t[j] : 0);
        } else {
            i++;
        }
    }
    return c;
}

/* The whole (decompressed) text of path, NUL-terminated; NULL if missing. */
static char *slurp(const char *path, size_t *len)
{
    gzFile g = gzopen(path, "rb");
    if (!g)
        return NULL;
    size_t cap = 1 << 24, n = 0;
    char *buf = malloc(cap);
    int got;
    while ((got = gzread(g, buf + n, (unsigned)(cap - n - 1))) > 0) {
        n += (size_t)got;
        if (cap - n < 2)
            buf = realloc(buf, cap *= 2);
    }
    gzclose(g);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* ---- reading each library alone ---------------------------------------------------- */

static lib_set *read_one(const char *path, diag_ctx *d)
{
    lib_set *s = lib_set_new();
    gp_status st = lib_read(s, path, d);
    CHECK_EQ_INT(st, GP_OK);
    if (st != GP_OK)
        fprintf(stderr, "  %s\n", diag_first_error_text(d));
    return s;
}

static void check_counts(const char *path)
{
    size_t len;
    char *text = slurp(path, &len);
    if (!text)
        check_skip("a test library is missing");
    counts want = scan(text, len);
    free(text);
    diag_ctx *d = diag_new(NULL);
    lib_set *s = read_one(path, d);
    counts got = {0};
    uint32_t max_vars = 0;
    bool compiled = true;
    for (size_t i = 0; i < lib_cell_count(s); i++) {
        const lib_cell *c = lib_cell_at(s, i);
        got.pins += c->n_pins;
        got.pg_pins += c->n_pg_pins;
        got.timings += c->n_arcs;
        got.powers += c->n_powers;
        got.leakages += c->n_leakages;
        got.seqs += c->n_seqs;
        for (uint32_t p = 0; p < c->n_pins; p++)
            got.functions += c->pins[p].function != NULL;
        max_vars = c->n_vars > max_vars ? c->n_vars : max_vars;
        compiled &= c->exprs_compiled;
    }
    fprintf(stderr, "  %s: %ld cells, %ld pins, %ld arcs, %ld power groups, %ld leakage groups\n",
            path, want.cells, want.pins, want.timings, want.powers, want.leakages);
    CHECK(want.cells > 0);
    CHECK_EQ_INT(lib_cell_count(s), want.cells);
    CHECK_EQ_INT(got.pins, want.pins);
    CHECK_EQ_INT(got.pg_pins, want.pg_pins);
    CHECK_EQ_INT(got.timings, want.timings);
    CHECK_EQ_INT(got.powers, want.powers);
    CHECK_EQ_INT(got.leakages, want.leakages);
    CHECK_EQ_INT(got.seqs, want.seqs);
    CHECK_EQ_INT(got.functions, want.functions);
    CHECK(compiled);
    CHECK(max_vars <= LIB_MAX_EXPR_PINS);
    CHECK_EQ_INT(diag_error_count(d), 0);
    lib_set_free(s);
    diag_free(d);
}

static void test_counts(void)
{
    check_counts(LIBS "sky130hd_tt.lib.gz");
    check_counts(LIBS "asap7_invbuf.lib.gz");
    check_counts(LIBS "asap7_seq.lib.gz");
    check_counts(LIBS "asap7_simple.lib.gz");
    check_counts(LIBS "asap7_small_ff.lib.gz");
}

/* ---- values copied from the files ----------------------------------------------- */
/* (test_osu_values runs last: it skips the rest when the OSU library is not installed) */

static const lib_cell *find(const lib_set *s, const char *name)
{
    const lib_cell *c = lib_find_cell(s, name);
    CHECK(c != NULL);
    if (!c) {
        fprintf(stderr, "cell %s missing\n", name);
        exit(1);
    }
    return c;
}

static const lib_pin *find_pin(const lib_cell *c, const char *name)
{
    int32_t i = lib_pin_index(c, name);
    CHECK(i >= 0);
    if (i < 0)
        exit(1);
    return &c->pins[i];
}

static void test_sky130_values(void)
{
    diag_ctx *d = diag_new(NULL);
    lib_set *s = read_one(LIBS "sky130hd_tt.lib.gz", d);
    const lib_library *l = lib_library_at(s, 0);
    CHECK_EQ_STR(l->name, "sky130_fd_sc_hd__tt_025C_1v80");
    CHECK_NEAR_REL(l->time_unit, 1e6, 1e-12); /* fs per unit */
    CHECK_NEAR_REL(l->cap_unit, 1e-12, 1e-12);
    CHECK_NEAR_REL(l->leakage_power_unit, 1e-9, 1e-12);
    CHECK_NEAR_REL(l->voltage, 1.8, 1e-12);
    CHECK_EQ_INT(l->n_voltage_map, 8);
    /* skipped kinds are reported once each: normalized_driver_waveform, statetable, test_cell */
    CHECK_EQ_INT(diag_count_of(d, 2101), 3);

    const lib_cell *c = find(s, "sky130_fd_sc_hd__a2111o_1");
    CHECK_NEAR_REL(c->leakages[0].value, 0.0017945e-9, 1e-9);
    CHECK_EQ_STR(c->leakages[0].when->text, "!A1&!A2&!B1&!C1&D1");
    uint32_t d1 = 1u << lib_pin_index(c, "D1"), a1 = 1u << lib_pin_index(c, "A1");
    CHECK_EQ_INT(lib_expr_eval(c, c->leakages[0].when, d1), 1);
    CHECK_EQ_INT(lib_expr_eval(c, c->leakages[0].when, d1 | a1), 0);

    c = find(s, "sky130_fd_sc_hd__dfrtp_1");
    CHECK_NEAR_REL(c->area, 25.024, 1e-12);
    CHECK_NEAR_REL(c->cell_leakage_power, 0.01165228e-9, 1e-9);
    const lib_pin *clk = find_pin(c, "CLK");
    CHECK(clk->is_clock);
    CHECK_NEAR_REL(clk->capacitance, 0.001788e-12, 1e-9);
    CHECK_NEAR_REL(clk->rise_capacitance, 0.001871e-12, 1e-9);
    CHECK_NEAR_REL(clk->fall_capacitance, 0.001706e-12, 1e-9);
    CHECK_NEAR_REL(c->pg_pins[clk->related_power_pg].voltage, 1.8, 1e-12);
    const lib_pin *q = find_pin(c, "Q");
    CHECK_EQ_STR(q->function->text, "IQ");
    const lib_arc *a = &c->arcs[q->first_arc];
    CHECK_EQ_INT(a->related, lib_pin_index(c, "CLK"));
    CHECK_EQ_INT(a->type, LIB_TT_RISING_EDGE);
    CHECK_EQ_INT(a->sense, LIB_SENSE_NON_UNATE);
    const lib_table *t = a->table[LIB_CELL_RISE];
    CHECK_NEAR_REL(lib_table_lookup(t, 0.01 * NS, 0.0005e-12), 0.2806588 * NS, 1e-9);
    CHECK_NEAR_REL(lib_table_lookup(t, 1.5 * NS, 0.174876e-12), 1.5814352 * NS, 1e-9);
    /* halfway between loads 0.00935082 and 0.0248204 at slew 0.0531329 */
    CHECK_NEAR_REL(lib_table_lookup(t, 0.0531329 * NS, 0.01708561e-12),
                   (0.3623298 * NS + 0.4561983 * NS) / 2, 1e-9);
    /* an input pin's negative rise_power: -0.0008199 pJ at 0.01 ns */
    const lib_pin *dp = find_pin(c, "D");
    CHECK_NEAR_REL(lib_table_lookup(c->powers[dp->first_power].rise, 0.01 * NS, 0), -0.0008199e-12,
                   1e-9);
    CHECK_EQ_STR(c->seqs[0].expr[LIB_SEQ_CLEAR]->text, "!RESET_B");
    lib_set_free(s);
    diag_free(d);
}

static void test_asap7_values(void)
{
    diag_ctx *d = diag_new(NULL);
    lib_set *s = read_one(LIBS "asap7_seq.lib.gz", d);
    const lib_library *l = lib_library_at(s, 0);
    CHECK_NEAR_REL(l->time_unit, 1e3, 1e-12);
    CHECK_NEAR_REL(l->cap_unit, 1e-15, 1e-12);
    CHECK_NEAR_REL(l->leakage_power_unit, 1e-12, 1e-12);
    CHECK_NEAR_REL(l->voltage, 0.7, 1e-12);
    const lib_cell *c = find(s, "DFFASRHQNx1_ASAP7_75t_R");
    const lib_leakage *lk = &c->leakages[0];
    CHECK_NEAR_REL(lk->value, 294.465e-12, 1e-9);
    CHECK_EQ_STR(c->pg_pins[lk->related_pg].name, "VDD");
    CHECK_EQ_STR(c->pg_pins[c->leakages[1].related_pg].name, "VSS");
    uint32_t all = 0;
    const char *names[] = {"CLK", "D", "RESETN", "SETN", "QN"};
    for (int i = 0; i < 5; i++)
        all |= 1u << lib_pin_index(c, names[i]);
    CHECK_EQ_INT(lib_expr_eval(c, lk->when, all), 1); /* "(CLK * D * RESETN * SETN * QN)" */
    CHECK_EQ_INT(lib_expr_eval(c, lk->when, all & ~(1u << lib_pin_index(c, "QN"))), 0);
    CHECK_EQ_INT(diag_count_of(d, 2101) > 0, 1);
    lib_set_free(s);
    diag_free(d);
}

static void test_osu_values(void)
{
    diag_ctx *d = diag_new(NULL);
    FILE *f = fopen(OSU, "r");
    if (!f)
        check_skip(OSU " is missing (Debian package qflow-tech-osu018)");
    fclose(f);
    check_counts(OSU);
    lib_set *s = read_one(OSU, d);
    const lib_cell *c = find(s, "AND2X1");
    CHECK_NEAR_REL(find_pin(c, "A")->capacitance, 0.0129077e-12, 1e-9);
    const lib_pin *y = find_pin(c, "Y");
    CHECK_EQ_STR(y->function->text, "(A B)");
    /* the template lists the load first: the lookup still takes (slew, load) */
    const lib_table *t = c->arcs[y->first_arc].table[LIB_CELL_RISE];
    CHECK_EQ_INT(t->var[0], LIB_VAR_LOAD);
    CHECK_NEAR_REL(lib_table_lookup(t, 0.06 * NS, 0.005e-12), 0.06367 * NS, 1e-9);
    CHECK_NEAR_REL(lib_table_lookup(t, 0.42 * NS, 0.025e-12), 0.116541 * NS, 1e-9);
    CHECK_NEAR_REL(lib_table_lookup(t, 0.3 * NS, 0.025e-12), (0.106523 * NS + 0.116541 * NS) / 2, 1e-9);
    lib_set_free(s);
    diag_free(d);
}

/* All of them in one set: ASAP7's small_ff repeats three cells. */
static void test_all_in_one_set(void)
{
    const char *paths[] = {LIBS "sky130hd_tt.lib.gz", LIBS "asap7_invbuf.lib.gz",
                           LIBS "asap7_seq.lib.gz", LIBS "asap7_simple.lib.gz",
                           LIBS "asap7_small_ff.lib.gz"};
    lib_set *s = lib_set_new();
    diag_ctx *d = diag_new(NULL);
    size_t total = 0;
    for (size_t i = 0; i < 5; i++) {
        size_t len;
        char *text = slurp(paths[i], &len);
        if (!text)
            check_skip("a test library is missing");
        total += (size_t)scan(text, len).cells;
        free(text);
        CHECK_EQ_INT(lib_read(s, paths[i], d), GP_OK);
    }
    CHECK_EQ_INT(lib_library_count(s), 5);
    CHECK_EQ_INT(diag_count_of(d, 2201), 3);
    CHECK_EQ_INT(lib_cell_count(s), total - 3);
    CHECK(lib_find_cell(s, "sky130_fd_sc_hd__inv_1") != NULL);
    const lib_cell *dff = lib_find_cell(s, "DFFHQx4_ASAP7_75t_R");
    CHECK(dff != NULL && strcmp(dff->library->name, "asap7sc7p5t_SEQ_RVT_TT_ccs_220123") == 0);
    lib_set_free(s);
    diag_free(d);
}

int main(void)
{
    RUN(test_counts);
    RUN(test_sky130_values);
    RUN(test_asap7_values);
    RUN(test_all_in_one_set);
    RUN(test_osu_values);
    return check_exit_code();
}
