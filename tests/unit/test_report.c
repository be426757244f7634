/* test_report.c: the result writers.  A five-instance design is read from
 * a tiny library and netlist; its power_result is filled here by hand with
 * energies in units of U = 2^-50 J (so that every sum in the test is exact),
 * the files are written into a temporary directory and read back: numbers
 * are compared with values computed here from the formulas (power = energy /
 * window length, bin power = bin energy / period). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "scratch.h"
#include "design/design.h"
#include "report/report.h"
#include "report/report_int.h"
#include "util/mem.h"

#ifdef GATEPOWER_HAVE_FST
#include "fstapi.h"
#endif

static const char tiny_lib[] =
    "library (tiny) {\n"
    "  time_unit : \"1ns\" ; capacitive_load_unit (1, pf) ; voltage_unit : \"1V\" ;\n"
    "  leakage_power_unit : \"1nW\" ; nom_voltage : 1.0 ;\n"
    "  cell (INV) { pin (A) { direction : input ; capacitance : 0.02 ; }\n"
    "    pin (Y) { direction : output ; function : \"!A\" ; } }\n"
    "  cell (NAND2) { pin (A) { direction : input ; capacitance : 0.03 ; }\n"
    "    pin (B) { direction : input ; capacitance : 0.04 ; }\n"
    "    pin (Y) { direction : output ; function : \"!(A & B)\" ; } }\n"
    "  cell (DFF) { ff (IQ, IQN) { next_state : \"D\" ; clocked_on : \"CLK\" ; }\n"
    "    pin (CLK) { direction : input ; clock : true ; capacitance : 0.005 ; }\n"
    "    pin (D) { direction : input ; capacitance : 0.001 ; }\n"
    "    pin (Q) { direction : output ; function : \"IQ\" ; } }\n"
    "}\n";

/* "\u,"4 " is an escaped name with a comma and a quote: instances.csv must
 * quote it and double the quote. */
static const char tiny_netlist[] =
    "module top (clk, a, b, y, z);\n"
    "  input clk, a, b; output y, z;\n"
    "  wire n1, n2, q;\n"
    "  DFF r1 (.CLK(clk), .D(a), .Q(q));\n"
    "  INV u1 (.A(q), .Y(n1));\n"
    "  NAND2 u2 (.A(n1), .B(b), .Y(n2));\n"
    "  INV u3 (.A(n2), .Y(y));\n"
    "  INV \\u,\"4  (.A(n2), .Y(z));\n"
    "endmodule\n";

#define U 0x1p-50 /* J */
enum { N_INSTS = 5, N_CYCLES = 4 };
static const char *const inst_names[N_INSTS] = {"r1", "u1", "u2", "u3", "u,\"4"};
static const char *const inst_cells[N_INSTS] = {"DFF", "INV", "NAND2", "INV", "INV"};
static const power_group inst_groups[N_INSTS] = {
    POWER_GROUP_SEQUENTIAL, POWER_GROUP_COMBINATIONAL, POWER_GROUP_COMBINATIONAL,
    POWER_GROUP_CLOCK, POWER_GROUP_COMBINATIONAL};
/* internal, switching, leakage, glitch internal, glitch switching; r1 and u2
 * are equal, so DFF and NAND2 tie in cells.csv. */
static const double inst_e[N_INSTS][POWER_COMPONENTS] = {
    {10, 0, 2, 0, 0}, {3, 4, 1, 0.5, 0.5}, {10, 0, 2, 0, 0}, {1, 6, 1, 1, 1}, {0.5, 0.5, 1, 0, 0}};
/* Cycles 1 and 2 tie for the peak (6 U each): the first wins. */
static const double bin_e[N_CYCLES][POWER_COMPONENTS] = {
    {1, 2, 0.5, 0, 0}, {3, 1, 0.5, 1, 0.5}, {2, 2, 0.5, 1, 0.5}, {0.5, 0.5, 0.5, 0, 0}};
static const double io_e = 7; /* U, switching */

/* Window [5 ns, 43 ns), T = 10 ns: four cycles starting at 5, 15, 25, 35 ns. */
static const double duration = 38e-9, period = 10e-9;
static const double cycle_start[N_CYCLES] = {5e-9, 15e-9, 25e-9, 35e-9};

static char dir[] = "/tmp/gp_test_report_XXXXXX";
static lib_set *libs;
static design *dg;
static uint32_t inst_index[N_INSTS]; /* design index of inst_names[k] */

static const char *path_in(const char *name, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", dir, name);
    return path;
}

/* The whole file, NUL-terminated (free with free()); NULL when unreadable. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    int ch;
    while ((ch = fgetc(f)) != EOF)
        fputc(ch, mem);
    fclose(mem);
    fclose(f);
    return text;
}

/* The file `name` the writers put in out_dir (checked to be there). */
static char *slurp_output(const char *out_dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", out_dir, name);
    char *text = slurp(path);
    CHECK(text != NULL);
    return text;
}

static void setup(diag_ctx *d)
{
    char net_path[256];
    libs = scratch_libs(dir, "tiny.lib", tiny_lib, d);
    scratch_write_text(path_in("top.v", net_path, sizeof net_path), tiny_netlist);
    const char *paths[] = {net_path};
    CHECK_EQ_INT(design_read_netlist(&dg, libs, paths, 1, "top", d), GP_OK);
    if (!dg)
        return;
    for (int k = 0; k < N_INSTS; k++) {
        inst_index[k] = design_find_inst(dg, inst_names[k]);
        CHECK(inst_index[k] != DESIGN_NONE);
    }
}

/* The result: instance rows, groups summed from them, the bins above. */
static power_result *make_result(bool include_io)
{
    power_result *r = mem_calloc(1, sizeof *r);
    r->window_start_fs = 5000000;
    r->window_end_fs = 43000000;
    r->period_fs = 10000000;
    r->duration = duration;
    r->n_cycles = N_CYCLES;
    r->n_insts = N_INSTS;
    r->include_io = include_io;
    r->events_used = 42;
    r->inst_group = mem_calloc(N_INSTS, 1);
    r->inst_energy = mem_calloc((size_t)N_INSTS * POWER_COMPONENTS, sizeof(double));
    r->bin_energy = mem_calloc((size_t)N_CYCLES * POWER_COMPONENTS, sizeof(double));
    for (int k = 0; k < N_INSTS; k++) {
        uint32_t i = inst_index[k];
        r->inst_group[i] = (uint8_t)inst_groups[k];
        for (int c = 0; c < POWER_COMPONENTS; c++) {
            r->inst_energy[i * POWER_COMPONENTS + c] = inst_e[k][c] * U;
            r->group_energy[inst_groups[k]][c] += inst_e[k][c] * U;
        }
    }
    for (int b = 0; b < N_CYCLES; b++)
        for (int c = 0; c < POWER_COMPONENTS; c++)
            r->bin_energy[b * POWER_COMPONENTS + c] = bin_e[b][c] * U;
    r->group_energy[POWER_GROUP_IO][POWER_SWITCHING] = io_e * U;
    r->io_switching = io_e * U;
    return r;
}

static void free_result(power_result *r)
{
    mem_free(r->inst_group);
    mem_free(r->inst_energy);
    mem_free(r->bin_energy);
    mem_free(r);
}

/* Reads "123.456 uW" (or "0 W"; any unit after the prefix) at *s; advances *s. */
static double eng_value(const char **s)
{
    char *end;
    double v = strtod(*s, &end);
    while (*end == ' ')
        end++;
    static const char prefixes[] = "afpnum kMGT";
    const char *p = strchr(prefixes, *end);
    if (*end && p && *p != ' ' && end[1] != ' ' && end[1] != '\n' && end[1] != '\0')
        v *= pow(10.0, 3.0 * ((p - prefixes) - 6));
    while (*end && *end != ' ')
        end++;
    *s = end;
    return v;
}

/* The line of `text` that starts with `label` followed by a space. */
static const char *line_of(const char *text, const char *label)
{
    size_t n = strlen(label);
    for (const char *s = text; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL)
        if (strncmp(s, label, n) == 0 && s[n] == ' ')
            return s;
    return NULL;
}

/* The five powers of a table row, and its percent column's text. */
static void row_values(const char *line, double v[5], char *pct, size_t pct_size)
{
    const char *s = strchr(line, ' ');
    for (int k = 0; k < 5; k++)
        v[k] = eng_value(&s);
    while (*s == ' ')
        s++;
    size_t n = strcspn(s, "\n");
    snprintf(pct, pct_size, "%.*s", (int)n, s);
}

static void test_eng_format_and_time_unit(void)
{
    char buf[REPORT_ENG_LEN];
    CHECK_EQ_STR(report_eng(buf, 0, "W"), "0 W");
    CHECK_EQ_STR(report_eng(buf, 1.2345e-4, "W"), "123.450 uW");
    CHECK_EQ_STR(report_eng(buf, 999.9996e-6, "W"), "1.000 mW");
    CHECK_EQ_STR(report_eng(buf, 1e-6, "W"), "1.000 uW");
    CHECK_EQ_STR(report_eng(buf, -1.5e-9, "s"), "-1.500 ns");
    CHECK_EQ_STR(report_eng(buf, 2.5, "W"), "2.500 W");
    power_result r = {.window_start_fs = 5000000, .period_fs = 10000000};
    int64_t unit;
    CHECK_EQ_INT(report_time_unit(&r, &unit), -9);
    CHECK_EQ_INT(unit, 1000000);
    r = (power_result){.window_start_fs = 0, .period_fs = 2500};
    CHECK_EQ_INT(report_time_unit(&r, &unit), -15);
    r = (power_result){.window_start_fs = 3000000000000000, .period_fs = 1000000000000000};
    CHECK_EQ_INT(report_time_unit(&r, &unit), 0);
}

static void test_peak_first_of_ties(void)
{
    power_result *r = make_result(false);
    uint32_t cycle = 99;
    CHECK_EQ_INT(report_peak(r, &cycle) == 6 * U / period, 1);
    CHECK_EQ_INT(cycle, 1);
    CHECK_EQ_INT(report_bin_total(r, 3) == 1.5 * U / period, 1);
    CHECK_EQ_INT(report_bin_power(r, 1, POWER_GLITCH_SWITCHING) == 0.5 * U / period, 1);
    CHECK_EQ_STR(report_group_name(POWER_GROUP_COMBINATIONAL), "combinational");
    free_result(r);
}

/* Splits a CSV line into at most `max` fields (quotes undone) in buf;
 * returns the count. */
static int csv_split(const char *line, char *buf, size_t size, char **fields, int max)
{
    int n = 0;
    size_t o = 0;
    const char *s = line;
    while (n < max && o < size) {
        fields[n++] = buf + o;
        bool quoted = *s == '"';
        s += quoted;
        for (; *s && o + 1 < size; s++) {
            if (quoted && *s == '"' && s[1] == '"')
                buf[o++] = *s++;
            else if (quoted && *s == '"')
                quoted = false;
            else if (!quoted && (*s == ',' || *s == '\n'))
                break;
            else
                buf[o++] = *s;
        }
        buf[o++] = '\0';
        if (*s != ',')
            break;
        s++;
    }
    return n;
}

/* A line without its newline, copied into buf. */
static const char *line_text(const char *line, char *buf, size_t size)
{
    snprintf(buf, size, "%.*s", line ? (int)strcspn(line, "\n") : 0, line ? line : "");
    return buf;
}

/* The lines after the header, one by one: *cursor advances. */
static const char *next_line(const char **cursor)
{
    const char *line = *cursor;
    if (!line || !*line)
        return NULL;
    const char *nl = strchr(line, '\n');
    *cursor = nl ? nl + 1 : line + strlen(line);
    return line;
}

static void check_report_txt(const char *out_dir)
{
    char *text = slurp_output(out_dir, "report.txt");
    if (!text)
        return;
    double v[5];
    char pct[32];
    const char *line = line_of(text, "total");
    CHECK(line != NULL);
    /* sequential + combinational + clock, IO left out. */
    const double total[5] = {24.5, 10.5, 7, 3, 45};
    if (line) {
        row_values(line, v, pct, sizeof pct);
        for (int k = 0; k < 5; k++)
            CHECK_NEAR_REL(v[k], total[k] * U / duration, 1e-3);
        CHECK_EQ_STR(pct, "100.00");
    }
    const char *labels[] = {"sequential", "clock", "io"};
    const double row_total[] = {12, 10, 7};
    const char *pcts[] = {"26.67", "22.22", "excluded"}; /* 12/45, 10/45 */
    for (int k = 0; k < 3; k++) {
        line = line_of(text, labels[k]);
        CHECK(line != NULL);
        if (!line)
            continue;
        row_values(line, v, pct, sizeof pct);
        CHECK_NEAR_REL(v[4], row_total[k] * U / duration, 1e-3);
        CHECK_EQ_STR(pct, pcts[k]);
    }
    CHECK(strstr(text, "cycles           4\n") != NULL);
    CHECK(strstr(text, "in cycle 1, which starts at 15.000 ns\n") != NULL);
    CHECK(strstr(text, "glitch analysis  on") != NULL);
    CHECK(strstr(text, "not in the total") != NULL);
    free(text);
}

/* With include_io, IO joins the total and gets a percentage: 7 of 52. */
static void test_text_with_io(void)
{
    power_result *r = make_result(true);
    report_options opt = report_defaults();
    opt.glitch = false;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    report_write_text(out, dg, r, &opt);
    fclose(out);
    double v[5];
    char pct[32];
    const char *line = line_of(text, "total");
    CHECK(line != NULL);
    if (line) {
        row_values(line, v, pct, sizeof pct);
        CHECK_NEAR_REL(v[1], 17.5 * U / duration, 1e-3);
        CHECK_NEAR_REL(v[4], 52 * U / duration, 1e-3);
    }
    line = line_of(text, "io");
    CHECK(line != NULL);
    if (line) {
        row_values(line, v, pct, sizeof pct);
        CHECK_EQ_STR(pct, "13.46");
    }
    CHECK(strstr(text, "glitch analysis  off") != NULL);
    CHECK(strstr(text, "included in the total") != NULL);
    free(text);
    free_result(r);
}

static void check_waveform_csv(const char *out_dir)
{
    char buf[512], *f[16];
    char *text = slurp_output(out_dir, "waveform.csv");
    if (!text)
        return;
    const char *cursor = text;
    CHECK_EQ_STR(line_text(next_line(&cursor), buf, sizeof buf),
                 "cycle,start_s,internal_W,switching_W,leakage_W,glitch_internal_W,"
                 "glitch_switching_W,total_W");
    for (int b = 0; b < N_CYCLES; b++) {
        const char *line = next_line(&cursor);
        CHECK(line != NULL);
        if (!line)
            break;
        CHECK_EQ_INT(csv_split(line, buf, sizeof buf, f, 16), 8);
        CHECK_EQ_INT(atoi(f[0]), b);
        CHECK_EQ_INT(strtod(f[1], NULL) == cycle_start[b], 1);
        double sum = 0;
        for (int c = 0; c < POWER_COMPONENTS; c++) {
            CHECK_EQ_INT(strtod(f[2 + c], NULL) == bin_e[b][c] * U / period, 1);
            sum += bin_e[b][c] * U;
        }
        CHECK_EQ_INT(strtod(f[7], NULL) == sum / period, 1);
    }
    CHECK(next_line(&cursor) == NULL);
    free(text);
}

static double row_sum(const double *e)
{
    double sum = 0;
    for (int c = 0; c < POWER_COMPONENTS; c++)
        sum += e[c];
    return sum;
}

static void check_instances_csv(const char *out_dir)
{
    char buf[512], *f[16];
    char *text = slurp_output(out_dir, "instances.csv");
    if (!text)
        return;
    const char *cursor = text;
    CHECK_EQ_STR(line_text(next_line(&cursor), buf, sizeof buf),
                 "instance,cell,group,internal_W,switching_W,leakage_W,glitch_W,total_W");
    static const char *const groups[] = {"sequential", "combinational", "clock", "io"};
    double total = 0;
    for (uint32_t i = 0; i < dg->n_insts; i++) {
        const char *line = next_line(&cursor);
        CHECK(line != NULL);
        if (!line)
            break;
        int k = 0;
        while (k < N_INSTS && inst_index[k] != i)
            k++;
        CHECK_EQ_INT(csv_split(line, buf, sizeof buf, f, 16), 8);
        if (k == N_INSTS)
            continue;
        CHECK_EQ_STR(f[0], inst_names[k]);
        CHECK_EQ_STR(f[1], inst_cells[k]);
        CHECK_EQ_STR(f[2], groups[inst_groups[k]]);
        CHECK_EQ_INT(strtod(f[3], NULL) == inst_e[k][POWER_INTERNAL] * U / duration, 1);
        CHECK_EQ_INT(strtod(f[5], NULL) == inst_e[k][POWER_LEAKAGE] * U / duration, 1);
        double glitch = inst_e[k][POWER_GLITCH_INTERNAL] + inst_e[k][POWER_GLITCH_SWITCHING];
        CHECK_EQ_INT(strtod(f[6], NULL) == glitch * U / duration, 1);
        CHECK_EQ_INT(strtod(f[7], NULL) == row_sum(inst_e[k]) * U / duration, 1);
        total += strtod(f[7], NULL);
    }
    CHECK_NEAR_REL(total, 45 * U / duration, 1e-14); /* the design total without IO */
    CHECK(strstr(text, "\n\"u,\"\"4\",INV,") != NULL);
    free(text);
}

static void check_cells_csv(const char *out_dir)
{
    char buf[512], *f[16];
    char *text = slurp_output(out_dir, "cells.csv");
    if (!text)
        return;
    const char *cursor = text;
    CHECK_EQ_STR(line_text(next_line(&cursor), buf, sizeof buf),
                 "cell,instances,internal_W,switching_W,leakage_W,glitch_W,total_W");
    /* INV: u1 + u3 + u4 = 21 U; DFF and NAND2 tie at 12 U: by name. */
    static const char *const cells[] = {"INV", "DFF", "NAND2"};
    static const int counts[] = {3, 1, 1};
    static const double totals[] = {21, 12, 12}, switching[] = {10.5, 0, 0};
    for (int k = 0; k < 3; k++) {
        const char *line = next_line(&cursor);
        CHECK(line != NULL);
        if (!line)
            break;
        CHECK_EQ_INT(csv_split(line, buf, sizeof buf, f, 16), 7);
        CHECK_EQ_STR(f[0], cells[k]);
        CHECK_EQ_INT(atoi(f[1]), counts[k]);
        CHECK_EQ_INT(strtod(f[3], NULL) == switching[k] * U / duration, 1);
        CHECK_EQ_INT(strtod(f[6], NULL) == totals[k] * U / duration, 1);
    }
    CHECK(next_line(&cursor) == NULL);
    free(text);
}

static void check_hotspots(const char *out_dir)
{
    char *text = slurp_output(out_dir, "hotspots.txt");
    if (!text)
        return;
    /* Totals r1 12, u1 9, u2 12, u3 10, u,"4 2: r1 and u2 by instance order;
     * four listed. */
    bool r1_first = inst_index[0] < inst_index[2];
    const char *order[] = {r1_first ? "r1" : "u2", r1_first ? "u2" : "r1", "u3", "u1"};
    const double pct[] = {100.0 * 12 / 45, 100.0 * 12 / 45, 100.0 * 10 / 45, 100.0 * 9 / 45};
    CHECK(strstr(text, "Top 4 of 5 instances") == text);
    for (int k = 0; k < 4; k++) {
        char rank[16], name[64], cell[64], value[32], unit[8];
        char label[16];
        snprintf(label, sizeof label, "\n%6d ", k + 1);
        const char *line = strstr(text, label);
        CHECK(line != NULL);
        if (!line)
            continue;
        double percent = 0;
        CHECK_EQ_INT(sscanf(line, "%15s %63s %63s %31s %7s %lf", rank, name, cell, value, unit,
                            &percent), 6);
        CHECK_EQ_STR(name, order[k]);
        CHECK_NEAR_REL(percent, pct[k], 1e-3);
    }
    CHECK(strstr(text, "\n     5 ") == NULL);
    free(text);
}

/* The number after `key` following the first `after` in text. */
static double json_value(const char *text, const char *after, const char *key)
{
    const char *s = strstr(text, after);
    s = s ? strstr(s + strlen(after), key) : NULL;
    return s ? strtod(s + strlen(key), NULL) : NAN;
}

static void check_json(const char *out_dir)
{
    char *text = slurp_output(out_dir, "report.json");
    if (!text)
        return;
    CHECK(text[0] == '{' && strcmp(text + strlen(text) - 2, "}\n") == 0);
    CHECK_EQ_INT(json_value(text, "\n  \"total\": {", "\"total\": ") == 45 * U / duration, 1);
    CHECK_EQ_INT(json_value(text, "\n  \"total\": {", "\"glitch\": ") == 3 * U / duration, 1);
    CHECK_EQ_INT(json_value(text, "\n  \"glitch\": {", "\"switching\": ") == 1.5 * U / duration, 1);
    CHECK_EQ_INT(json_value(text, "\"clock\": {", "\"switching\": ") == 6 * U / duration, 1);
    CHECK_EQ_INT(json_value(text, "\"io\": {", "\"switching\": ") == 7 * U / duration, 1);
    CHECK_EQ_INT(json_value(text, "\"peak\": {", "\"power\": ") == 6 * U / period, 1);
    CHECK_EQ_INT(json_value(text, "\"peak\": {", "\"cycle\": ") == 1, 1);
    CHECK_EQ_INT(json_value(text, "\"peak\": {", "\"time\": ") == 15e-9, 1);
    CHECK_EQ_INT(json_value(text, "\"window\": {", "\"start\": ") == 5e-9, 1);
    CHECK_EQ_INT(json_value(text, "\"window\": {", "\"end\": ") == 43e-9, 1);
    CHECK_EQ_INT(json_value(text, "{", "\n  \"period\": ") == period, 1);
    CHECK_EQ_INT(json_value(text, "{", "\n  \"cycles\": ") == 4, 1);
    CHECK(strstr(text, "\"design\": \"top\"") != NULL);
    free(text);
}

/* The SVG: complete, five series, the peak annotated (6 U / 10 ns). */
static void check_svg(const char *out_dir)
{
    char *text = slurp_output(out_dir, "waveform.svg");
    if (!text)
        return;
    CHECK(strncmp(text, "<svg ", 5) == 0);
    CHECK(strcmp(text + strlen(text) - 7, "</svg>\n") == 0);
    int polylines = 0;
    for (const char *s = text; (s = strstr(s, "<polyline")); s++)
        polylines++;
    CHECK_EQ_INT(polylines, 5);
    char expected[128];
    snprintf(expected, sizeof expected, "peak %.3f nW in cycle 1 at 15.000 ns",
             6 * U / period * 1e9);
    CHECK(strstr(text, expected) != NULL);
    CHECK(strstr(text, "Power waveform of top") != NULL);
    free(text);
}

/* Signal k's expected value in cycle b: the components, then the total. */
static double expected_wave(int b, int k)
{
    return k < POWER_COMPONENTS ? bin_e[b][k] * U / period : row_sum(bin_e[b]) * U / period;
}

enum { SIGNALS = POWER_COMPONENTS + 1 };

/* The VCD's text: header, a time stamp per cycle start (1 ns units) plus
 * the end, and the values (written where they change) per cycle. */
static void check_vcd(const char *out_dir)
{
    char *text = slurp_output(out_dir, "waveform.vcd");
    if (!text)
        return;
    CHECK(strstr(text, "$timescale 1ns $end\n$scope module power $end\n") != NULL);
    CHECK(strstr(text, "$var real 64 & total_W $end\n") != NULL);
    const char codes[] = "!\"#$%&";
    double value[SIGNALS] = {NAN, NAN, NAN, NAN, NAN, NAN};
    int cycle = -1, values_seen = 0;
    bool end_seen = false;
    const char *cursor = strstr(text, "$enddefinitions $end\n");
    char line[128];
    while (cursor && next_line(&cursor) && *cursor) {
        line_text(cursor, line, sizeof line);
        if (line[0] == '#') {
            if (cycle >= 0)
                for (int k = 0; k < SIGNALS; k++)
                    CHECK_EQ_INT(value[k] == expected_wave(cycle, k), 1);
            long t = atol(line + 1);
            cycle++;
            if (cycle == N_CYCLES)
                end_seen = t == 45;
            else
                CHECK_EQ_INT(t, 5 + 10 * cycle);
        } else if (line[0] == 'r') {
            char *end;
            double v = strtod(line + 1, &end);
            const char *code = strchr(codes, end[1]);
            CHECK(end[0] == ' ' && code && end[2] == '\0');
            if (code)
                value[code - codes] = v;
            values_seen++;
        }
    }
    CHECK(end_seen);
    /* 6 at the start; then changes: 5 in cycle 1, 2 in cycle 2, 5 in cycle 3. */
    CHECK_EQ_INT(values_seen, 18);
    free(text);
}

#ifdef GATEPOWER_HAVE_FST
typedef struct fst_seen {
    double value[SIGNALS + 1][N_CYCLES + 1]; /* by handle (1-based) and cycle */
    bool set[SIGNALS + 1][N_CYCLES + 1];
    int bad_times;
} fst_seen;

static void fst_change(void *user, uint64_t time, fstHandle h, const unsigned char *value)
{
    fst_seen *seen = user;
    if (time < 5 || (time - 5) % 10 != 0 || (time - 5) / 10 >= N_CYCLES || h < 1 || h > SIGNALS) {
        seen->bad_times++;
        return;
    }
    int b = (int)((time - 5) / 10);
    memcpy(&seen->value[h][b], value, sizeof(double));
    seen->set[h][b] = true;
}

/* The FST read back: timescale, names, and every cycle's value (holding the
 * last change). */
static void check_fst(const char *out_dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/waveform.fst", out_dir);
    void *fst = fstReaderOpen(path);
    CHECK(fst != NULL);
    if (!fst)
        return;
    CHECK_EQ_INT(fstReaderGetTimescale(fst), -9);
    CHECK_EQ_INT(fstReaderGetEndTime(fst), 45);
    CHECK_EQ_INT(fstReaderGetVarCount(fst), SIGNALS);
    fstHandle total = 0;
    bool scope = false;
    struct fstHier *h;
    while ((h = fstReaderIterateHier(fst))) {
        if (h->htyp == FST_HT_SCOPE && strcmp(h->u.scope.name, "power") == 0)
            scope = true;
        if (h->htyp == FST_HT_VAR && strcmp(h->u.var.name, "total_W") == 0)
            total = h->u.var.handle;
    }
    CHECK(scope);
    CHECK_EQ_INT(total, SIGNALS);
    static fst_seen seen;
    memset(&seen, 0, sizeof seen);
    fstReaderSetFacProcessMaskAll(fst);
    fstReaderIterBlocksSetNativeDoublesOnCallback(fst, 1);
    fstReaderIterBlocks(fst, fst_change, &seen, NULL);
    fstReaderClose(fst);
    CHECK_EQ_INT(seen.bad_times, 0);
    for (int k = 0; k < SIGNALS; k++) {
        double v = NAN;
        for (int b = 0; b < N_CYCLES; b++) {
            if (seen.set[k + 1][b])
                v = seen.value[k + 1][b];
            CHECK_EQ_INT(v == expected_wave(b, k), 1);
        }
    }
}
#endif

static void test_write_all(void)
{
    char out_dir[256];
    snprintf(out_dir, sizeof out_dir, "%s/out/nested", dir); /* parents created too */
    power_result *r = make_result(false);
    report_options opt = report_defaults();
    opt.design_name = "top";
    opt.hotspots = 4;
    diag_ctx *d = diag_new(stderr);
    CHECK_EQ_INT(report_write_all(out_dir, dg, r, &opt, d), GP_OK);
    CHECK_EQ_INT(diag_error_count(d), 0);
    check_report_txt(out_dir);
    check_waveform_csv(out_dir);
    check_instances_csv(out_dir);
    check_cells_csv(out_dir);
    check_hotspots(out_dir);
    check_json(out_dir);
    check_svg(out_dir);
    check_vcd(out_dir);
#ifdef GATEPOWER_HAVE_FST
    check_fst(out_dir);
#endif
    /* Writing again into the existing directory replaces the files. */
    CHECK_EQ_INT(report_write_all(out_dir, dg, r, &opt, d), GP_OK);
    diag_free(d);
    free_result(r);
}

/* 5000 cycles, one spike: the plot has REPORT_SVG_MAX_POINTS columns (two
 * points each) of means, the subtitle says so, and the spike survives in
 * the band of the total's range: its highest point is the peak marker's
 * height. */
/* The points of the SVG element at `at` (its points="..."), and their
 * least y (the highest point drawn). */
static int svg_points(const char *at, double *min_y)
{
    const char *pts = strstr(at, "points=\"") + 8, *stop = strchr(pts, '"');
    int points = 0, used;
    double x, y;
    *min_y = 1e9;
    while (pts < stop && sscanf(pts, "%lf,%lf %n", &x, &y, &used) == 2) {
        points++;
        *min_y = fmin(*min_y, y);
        pts += used;
    }
    return points;
}

static void test_svg_downsampling(void)
{
    enum { CYCLES = 5000, SPIKE = 3777 };
    power_result *r = make_result(false);
    mem_free(r->bin_energy);
    r->n_cycles = CYCLES;
    r->bin_energy = mem_calloc((size_t)CYCLES * POWER_COMPONENTS, sizeof(double));
    for (int b = 0; b < CYCLES; b++)
        r->bin_energy[b * POWER_COMPONENTS + POWER_LEAKAGE] = (1 + b % 7) * U;
    r->bin_energy[SPIKE * POWER_COMPONENTS + POWER_INTERNAL] = 100 * U;
    char out_dir[256], path[512];
    snprintf(out_dir, sizeof out_dir, "%s/many", dir);
    diag_ctx *d = diag_new(stderr);
    CHECK_EQ_INT(report_write_all(out_dir, dg, r, NULL, d), GP_OK);
    char *text = slurp(path_in("many/waveform.svg", path, sizeof path));
    CHECK(text != NULL);
    if (text) {
        CHECK(strstr(text, "a step per 3 cycles: the lines their mean, the band") != NULL);
        CHECK(strstr(text, "in cycle 3777 at ") != NULL);
        CHECK(strstr(text, "Power waveform of design") != NULL);
        /* The total is drawn last: the final polyline. */
        const char *poly = text, *next;
        while ((next = strstr(poly + 1, "<polyline")))
            poly = next;
        double min_y;
        CHECK_EQ_INT(svg_points(poly, &min_y), 2 * REPORT_SVG_MAX_POINTS);
        const char *band = strstr(text, "<polygon");
        CHECK(band != NULL);
        if (band)
            CHECK_EQ_INT(svg_points(band, &min_y), 4 * REPORT_SVG_MAX_POINTS);
        CHECK(strstr(text, ">glitch</text>") != NULL);
        double cy = NAN;
        const char *circle = strstr(text, "<circle ");
        CHECK(circle && sscanf(strstr(circle, "cy=\""), "cy=\"%lf", &cy) == 1);
        CHECK_EQ_INT(min_y == cy, 1);
    }
    free(text);
    report_options off = report_defaults();
    off.glitch = false; /* no glitch series, nor its legend entry */
    CHECK_EQ_INT(report_write_all(out_dir, dg, r, &off, d), GP_OK);
    text = slurp(path_in("many/waveform.svg", path, sizeof path));
    CHECK(text && !strstr(text, ">glitch</text>") && strstr(text, ">leakage</text>"));
    free(text);
    diag_free(d);
    free_result(r);
}

/* A table longer than the batches that the rows are formatted in on
 * threads: every row in order, each with its own cycle's numbers. */
enum { LONG_CYCLES = 100003 };

/* The small result over LONG_CYCLES cycles, bin b's internal energy
 * (b + 0.25) U. */
static power_result *make_long_result(void)
{
    power_result *r = make_result(false);
    mem_free(r->bin_energy);
    r->n_cycles = LONG_CYCLES;
    r->bin_energy = mem_calloc((size_t)LONG_CYCLES * POWER_COMPONENTS, sizeof(double));
    for (int b = 0; b < LONG_CYCLES; b++)
        r->bin_energy[b * POWER_COMPONENTS + POWER_INTERNAL] = (b + 0.25) * U;
    return r;
}

static void test_long_table_in_order(void)
{
    power_result *r = make_long_result();
    char out_dir[256];
    snprintf(out_dir, sizeof out_dir, "%s/long", dir);
    diag_ctx *d = diag_new(stderr);
    CHECK_EQ_INT(report_write_all(out_dir, dg, r, NULL, d), GP_OK);
    char *text = slurp_output(out_dir, "waveform.csv"), buf[512], *f[16];
    const char *cursor = text;
    next_line(&cursor);
    int wrong = 0, b = 0;
    for (const char *line; text && (line = next_line(&cursor)); b++)
        wrong += csv_split(line, buf, sizeof buf, f, 16) != 8 || atoi(f[0]) != b ||
                 strtod(f[2], NULL) != (b + 0.25) * U / period;
    CHECK_EQ_INT(wrong, 0);
    CHECK_EQ_INT(b, LONG_CYCLES);
    free(text);
    diag_free(d);
    free_result(r);
}

/* A long table whose writes fail (waveform.csv's temporary name is a link
 * to /dev/full): its batches are written on another thread than the
 * caller's, and the error still says why. */
static void test_long_table_on_a_full_disk(void)
{
    power_result *r = make_long_result();
    char out_dir[256], tmp[320];
    snprintf(out_dir, sizeof out_dir, "%s/full", dir);
    snprintf(tmp, sizeof tmp, "%s/.gatepower-tmp.waveform.csv", out_dir);
    CHECK_EQ_INT(mkdir(out_dir, 0777), 0);
    if (access("/dev/full", W_OK) == 0 && symlink("/dev/full", tmp) == 0) {
        diag_ctx *d = diag_new(NULL);
        CHECK_EQ_INT(report_write_all(out_dir, dg, r, NULL, d), GP_ERR_IO);
        CHECK_EQ_INT(diag_first_error_no(d), 8501);
        CHECK(strstr(diag_first_error_text(d), "waveform.csv") != NULL);
        CHECK(strstr(diag_first_error_text(d), "No space left on device") != NULL);
        diag_free(d);
    }
    free_result(r);
}

/* The output directory's path goes through a regular file. */
static void test_out_dir_under_a_file(void)
{
    char file[256], out_dir[300];
    scratch_write_text(path_in("plain", file, sizeof file), "not a directory\n");
    snprintf(out_dir, sizeof out_dir, "%s/sub", file);
    power_result *r = make_result(false);
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(report_write_all(out_dir, dg, r, NULL, d), GP_ERR_IO);
    CHECK_EQ_INT(diag_first_error_no(d), 8502);
    CHECK(strstr(diag_first_error_text(d), out_dir) != NULL);
    CHECK(strstr(diag_first_error_text(d), "Not a directory") != NULL);
    diag_free(d);
    d = diag_new(NULL); /* the directory's own name is a file */
    CHECK_EQ_INT(report_write_all(file, dg, r, NULL, d), GP_ERR_IO);
    CHECK_EQ_INT(diag_first_error_no(d), 8502);
    CHECK(strstr(diag_first_error_text(d), "Not a directory") != NULL);
    diag_free(d);
    free_result(r);
}

/* A file that cannot take its name (report.txt is a directory) and one
 * whose writes fail (report.json's temporary name is a link to
 * /dev/full): error 8501 naming it. */
static void test_unwritable_files(void)
{
    char out_dir[256], path[300];
    power_result *r = make_result(false);
    snprintf(out_dir, sizeof out_dir, "%s/blocked", dir);
    snprintf(path, sizeof path, "%s/report.txt", out_dir);
    CHECK_EQ_INT(mkdir(out_dir, 0777), 0);
    CHECK_EQ_INT(mkdir(path, 0777), 0);
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(report_write_all(out_dir, dg, r, NULL, d), GP_ERR_IO);
    CHECK_EQ_INT(diag_first_error_no(d), 8501);
    CHECK(strstr(diag_first_error_text(d), path) != NULL);
    CHECK(strstr(diag_first_error_text(d), "Is a directory") != NULL);
    diag_free(d);
    CHECK_EQ_INT(rmdir(path), 0);
    snprintf(path, sizeof path, "%s/report.json", out_dir);
    char tmp[320];
    snprintf(tmp, sizeof tmp, "%s/.gatepower-tmp.report.json", out_dir);
    if (access("/dev/full", W_OK) == 0 && symlink("/dev/full", tmp) == 0) {
        d = diag_new(NULL);
        CHECK_EQ_INT(report_write_all(out_dir, dg, r, NULL, d), GP_ERR_IO);
        CHECK_EQ_INT(diag_first_error_no(d), 8501);
        CHECK(strstr(diag_first_error_text(d), path) != NULL);
        CHECK(strstr(diag_first_error_text(d), "No space left on device") != NULL);
        diag_free(d);
    }
    free_result(r);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    diag_ctx *d = diag_new(stderr);
    setup(d);
    if (!dg)
        return 1; /* the setup's failed checks are printed */
    RUN(test_eng_format_and_time_unit);
    RUN(test_peak_first_of_ties);
    RUN(test_text_with_io);
    RUN(test_write_all);
    RUN(test_svg_downsampling);
    RUN(test_long_table_in_order);
    RUN(test_long_table_on_a_full_disk);
    RUN(test_out_dir_under_a_file);
    RUN(test_unwritable_files);
    design_free(dg);
    lib_set_free(libs);
    diag_free(d);
    if (!scratch_remove(dir))
        return 1;
    return check_exit_code();
}
