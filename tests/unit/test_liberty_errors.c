/* test_liberty_errors.c: bad Liberty input gives the right message number at
 * the right file:line, and a failing read changes nothing. */
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "liberty/liberty.h"

static char tmpdir[] = "/tmp/gp_test_liberty_err_XXXXXX";

/* A library header the cases below append to. */
#define HEAD                                                                    \
    "library (t) {\n"                                   /* line 1 */            \
    "  time_unit : \"1ns\"; voltage_unit : \"1V\";\n"   /* 2 */                 \
    "  leakage_power_unit : \"1nW\";\n"                 /* 3 */                 \
    "  capacitive_load_unit (1, pf);\n"                 /* 4 */                 \
    "  lu_table_template (t2) {\n"                      /* 5 */                 \
    "    variable_1 : input_net_transition;\n"          /* 6 */                 \
    "    variable_2 : total_output_net_capacitance;\n"  /* 7 */                 \
    "    index_1 (\"0.1, 0.2\"); index_2 (\"1, 2, 3\");\n" /* 8 */              \
    "  }\n"                                             /* 9 */

/* Reads `text` from the file tmpdir/name and checks the status, the first
 * error's number and that its text starts with "path:line:" ("path: " for
 * line 0, a message about the whole file). */
static void expect_error(const char *name, const char *text, gp_status status, int msgno, int line)
{
    char path[512], where[600];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    fputs(text, f);
    fclose(f);
    lib_set *s = lib_set_new();
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(lib_read(s, path, d), status);
    CHECK_EQ_INT(diag_first_error_no(d), msgno);
    if (line)
        snprintf(where, sizeof where, "%s:%d:", path, line);
    else
        snprintf(where, sizeof where, "%s: ", path);
    bool at = strncmp(diag_first_error_text(d), where, strlen(where)) == 0;
    CHECK(at);
    if (!at || diag_first_error_no(d) != msgno)
        fprintf(stderr, "  %s: got \"%s\", want %d at %s\n", name, diag_first_error_text(d), msgno,
                where);
    CHECK_EQ_INT(lib_cell_count(s), 0);
    CHECK_EQ_INT(lib_library_count(s), 0);
    lib_set_free(s);
    diag_free(d);
    unlink(path);
}

static void test_missing_file(void)
{
    lib_set *s = lib_set_new();
    diag_ctx *d = diag_new(NULL);
    char path[512];
    snprintf(path, sizeof path, "%s/nope.lib", tmpdir);
    CHECK_EQ_INT(lib_read(s, path, d), GP_ERR_IO);
    CHECK_EQ_INT(diag_first_error_no(d), 1101);
    CHECK(strstr(diag_first_error_text(d), path) != NULL);
    lib_set_free(s);
    diag_free(d);
}

static void test_truncated(void)
{
    /* cut in the middle of a cell: the message is at the end, naming the group's line */
    expect_error("trunc.lib",
                 HEAD "  cell (X) {\n"        /* 10 */
                      "    pin (A) {\n"       /* 11 */
                      "      direction : input;\n", /* 12; the end is line 13 */
                 GP_ERR_PARSE, 2002, 13);
    /* inside a values string's argument list */
    expect_error("trunc2.lib", HEAD "  cell (X) { pin (Y) { timing () { cell_rise (t2) { values (\"1, 2\",\n",
                 GP_ERR_PARSE, 2002, 11);
    /* inside a string */
    expect_error("trunc3.lib", HEAD "  cell (X) { pin (Y) { function : \"A &\n", GP_ERR_PARSE,
                 1120, 10);
}

/* A real library cut in half, gzip-compressed. */
static void test_truncated_real_library(void)
{
    gzFile in = gzopen("../../../shared/libs/asap7_small_ff.lib.gz", "rb");
    if (!in) {
        rmdir(tmpdir); /* empty: each case removes its file */
        check_skip("../../../shared/libs/asap7_small_ff.lib.gz is missing");
    }
    static char text[1 << 20];
    int n = gzread(in, text, sizeof text - 1);
    gzclose(in);
    CHECK(n > 100000);
    /* cut after the line holding byte n/2; the file then ends on the next line */
    int cut = n / 2;
    while (text[cut] != '\n')
        cut++;
    cut++;
    int lines = 0;
    for (int i = 0; i < cut; i++)
        lines += text[i] == '\n';
    char path[512], where[600];
    snprintf(path, sizeof path, "%s/cut.lib.gz", tmpdir);
    gzFile out = gzopen(path, "wb");
    gzwrite(out, text, (unsigned)cut);
    gzclose(out);
    lib_set *s = lib_set_new();
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(lib_read(s, path, d), GP_ERR_PARSE);
    CHECK_EQ_INT(diag_first_error_no(d), 2002);
    snprintf(where, sizeof where, "%s:%d:", path, lines + 1);
    CHECK(strncmp(diag_first_error_text(d), where, strlen(where)) == 0);
    CHECK_EQ_INT(lib_cell_count(s), 0);
    lib_set_free(s);
    diag_free(d);
    unlink(path);
}

static void test_syntax_errors(void)
{
    expect_error("syn1.lib", HEAD "  cell (X) {\n    area 1.0;\n  }\n}\n", GP_ERR_PARSE, 2005, 11);
    expect_error("syn2.lib", HEAD "  cell (X) {\n    area : ;\n  }\n}\n", GP_ERR_PARSE, 2004, 11);
    expect_error("syn3.lib", HEAD "  cell (X) {\n  }\n}\n}\n", GP_ERR_PARSE, 2006, 13);
    expect_error("syn4.lib", HEAD "  cell (X {\n  }\n}\n", GP_ERR_PARSE, 2003, 10);
    expect_error("syn5.lib", HEAD "  cell (X) {\n    \"area\" : 1;\n  }\n}\n", GP_ERR_PARSE, 2007, 11);
    expect_error("syn6.lib", "cell (X) { }\n", GP_ERR_PARSE, 2116, 1);
    expect_error("syn7.lib", "/* nothing */\n", GP_ERR_PARSE, 2120, 0 /* no line */);
}

static void test_bad_numbers(void)
{
    /* a bad number in the second values string, on line 12 */
    expect_error("num1.lib",
                 HEAD "  cell (X) { pin (Y) { direction : output;\n" /* 10 */
                      "    timing () { related_pin : \"Y\"; cell_rise (t2) { values (\"1, 2, 3\", \\\n" /* 11 */
                      "      \"4, 5x, 6\"); } }\n"   /* 12 */
                      "  } }\n}\n",
                 GP_ERR_PARSE, 2300, 12);
    /* inside one string spanning lines */
    expect_error("num2.lib",
                 HEAD "  cell (X) { pin (Y) { direction : output;\n" /* 10 */
                      "    timing () { related_pin : \"Y\"; cell_rise (t2) { values (\"1, 2, 3, \\\n" /* 11 */
                      "      4, 5, 0x6\"); } }\n"   /* 12 */
                      "  } }\n}\n",
                 GP_ERR_PARSE, 2300, 12);
    expect_error("num3.lib", HEAD "  cell (X) {\n    area : big;\n  }\n}\n", GP_ERR_PARSE, 2102, 11);
    expect_error("num4.lib", HEAD "  cell (X) { pin (A) {\n    clock : maybe; } }\n}\n",
                 GP_ERR_PARSE, 2103, 11);
    expect_error("unit.lib", "library (t) {\n  time_unit : \"1 parsec\";\n}\n", GP_ERR_PARSE, 2105, 2);
    expect_error("cap.lib", "library (t) {\n  capacitive_load_unit (1, farads);\n}\n", GP_ERR_PARSE,
                 2106, 2);
    /* capacitances and leakage powers cannot be negative */
    expect_error("negcap.lib", HEAD "  cell (X) { pin (A) {\n    capacitance : -0.002; } }\n}\n",
                 GP_ERR_INPUT, 2222, 11);
    expect_error("negrise.lib", HEAD "  cell (X) { pin (A) {\n    rise_capacitance : -1; } }\n}\n",
                 GP_ERR_INPUT, 2222, 11);
    expect_error("negleak.lib", HEAD "  cell (X) {\n    cell_leakage_power : -3.5;\n  }\n}\n",
                 GP_ERR_INPUT, 2222, 11);
    expect_error("negwhen.lib",
                 HEAD "  cell (X) { leakage_power () { when : \"A\";\n    value : -1; } }\n}\n",
                 GP_ERR_INPUT, 2222, 11);
    expect_error("negdefault.lib", "library (t) {\n  default_cell_leakage_power : -0.1;\n}\n",
                 GP_ERR_INPUT, 2222, 2);
}

static void test_model_errors(void)
{
    /* an unknown pin in a function */
    expect_error("fn.lib",
                 HEAD "  cell (X) {\n"                           /* 10 */
                      "    pin (A) { direction : input; }\n"     /* 11 */
                      "    pin (Y) { direction : output;\n"      /* 12 */
                      "      function : \"A & Z\"; }\n"          /* 13 */
                      "  }\n}\n",
                 GP_ERR_INPUT, 2403, 13);
    /* also when the cell has too many pins to compile its expressions */
    expect_error("fnbig.lib",
                 HEAD "  cell (X) {\n"
                      "    pin (A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14, A15, A16) { }\n"
                      "    pin (Y) { direction : output;\n"
                      "      function : \"A0 & Z\"; }\n"
                      "  }\n}\n",
                 GP_ERR_INPUT, 2403, 13);
    /* an unknown pin in a when */
    expect_error("when.lib",
                 HEAD "  cell (X) {\n    pin (A) { direction : input; }\n"
                      "    leakage_power () { value : 1;\n      when : \"!B\"; }\n  }\n}\n",
                 GP_ERR_INPUT, 2403, 13);
    /* an expression syntax error */
    expect_error("expr.lib",
                 HEAD "  cell (X) {\n    pin (A) { direction : input; }\n"
                      "    pin (Y) { direction : output; function : \"A & (A |\"; }\n  }\n}\n",
                 GP_ERR_PARSE, 2400, 12);
    /* values count does not match the index sizes (2 x 3) */
    expect_error("count.lib",
                 HEAD "  cell (X) { pin (Y) { direction : output;\n"
                      "    timing () { related_pin : \"Y\"; cell_rise (t2) {\n"
                      "      values (\"1, 2, 3\", \"4, 5\"); } } } }\n}\n",
                 GP_ERR_INPUT, 2307, 12);
    /* rows of uneven length that happen to add up */
    expect_error("rows.lib",
                 HEAD "  cell (X) { pin (Y) { direction : output;\n"
                      "    timing () { related_pin : \"Y\"; cell_rise (t2) {\n"
                      "      values (\"1, 2\", \"3, 4, 5, 6\"); } } } }\n}\n",
                 GP_ERR_INPUT, 2308, 12);
    /* an unknown template */
    expect_error("tmpl.lib",
                 HEAD "  cell (X) { pin (Y) { direction : output;\n"
                      "    timing () { related_pin : \"Y\"; cell_rise (t9) { values (\"1\"); } } } }\n}\n",
                 GP_ERR_INPUT, 2214, 11);
    /* an index that does not increase */
    expect_error("incr.lib",
                 HEAD "  cell (X) { pin (Y) { direction : output;\n"
                      "    timing () { related_pin : \"Y\"; cell_rise (t2) { index_1 (\"0.2, 0.2\");\n"
                      "      values (\"1, 2, 3\", \"4, 5, 6\"); } } } }\n}\n",
                 GP_ERR_INPUT, 2303, 11);
    /* an unknown related pin */
    expect_error("rel.lib",
                 HEAD "  cell (X) { pin (Y) { direction : output;\n"
                      "    timing () { related_pin : \"A\"; } } }\n}\n",
                 GP_ERR_INPUT, 2502, 11);
    /* a bad direction */
    expect_error("dir.lib", HEAD "  cell (X) { pin (Y) {\n direction : sideways; } }\n}\n",
                 GP_ERR_INPUT, 2210, 11);
    /* a unit after the first cell */
    expect_error("late.lib", HEAD "  cell (X) { }\n  time_unit : \"1ps\";\n}\n", GP_ERR_INPUT, 2104, 11);
    /* a bus without bus_type, and an unknown bus_type */
    expect_error("bus.lib", HEAD "  cell (X) {\n    bus (D) { direction : input; } }\n}\n",
                 GP_ERR_INPUT, 2203, 11);
    expect_error("bus2.lib", HEAD "  cell (X) {\n    bus (D) { bus_type : b8; } }\n}\n",
                 GP_ERR_INPUT, 2205, 11);
    /* a leakage group without a value */
    expect_error("leak.lib", HEAD "  cell (X) {\n    leakage_power () { when : \"1\"; } }\n}\n",
                 GP_ERR_INPUT, 2503, 11);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    RUN(test_missing_file);
    RUN(test_truncated);
    RUN(test_syntax_errors);
    RUN(test_bad_numbers);
    RUN(test_model_errors);
    RUN(test_truncated_real_library);
    rmdir(tmpdir);
    return check_exit_code();
}
