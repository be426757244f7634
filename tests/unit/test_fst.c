/* test_fst.c: the FST reader.  An FST written here with fstapi's writer must
 * give the same sink calls as the VCD reader on the equivalent VCD text
 * (itself checked by hand in test_vcd.c); plus the FST's own numbers and
 * its errors. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

#ifdef GATEPOWER_HAVE_FST
#include "fstapi.h"
#include "test_vcd_record.h"

static vcd_record fst_rec, vcd_rec; /* big: static */

/* The VCD that says what write_fst writes. */
static const char equivalent_vcd[] =
    "$timescale 1ns $end\n"
    "$scope module tb $end\n"
    "$var wire 1 ! clk $end\n"
    "$scope module dut $end\n"
    "$var wire 8 \" data [7:0] $end\n"
    "$var reg 1 # q $end\n"
    "$var real 64 $ r $end\n"
    "$var wire 1 ! clk_alias $end\n"
    "$var wire 1 % \\esc[0]  $end\n"
    "$var integer 32 & count [31:0] $end\n"
    "$upscope $end\n"
    "$upscope $end\n"
    "$enddefinitions $end\n"
    "#0\n$dumpvars\n0!\nb00000000 \"\nx#\nr0.5 $\n0%\nb0 &\n$end\n"
    "#5\n1!\nb101 \"\n1#\n1%\nb1011 &\n"
    "#10\n0!\nb1z1x0101 \"\nz#\n"
    "#20\n$dumpoff\nx!\nbxxxxxxxx \"\nx#\nx%\nbx &\n$end\n"
    "#30\n$dumpon\n1!\nb1x1x0101 \"\nx#\n1%\nb1011 &\n$end\n"
    "#40\n0!\n";

static void write_fst(const char *path)
{
    void *w = fstWriterCreate(path, 1);
    fstWriterSetTimescale(w, -9);
    fstWriterSetScope(w, FST_ST_VCD_MODULE, "tb", NULL);
    fstHandle clk = fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, 1, "clk", 0);
    fstWriterSetScope(w, FST_ST_VCD_MODULE, "dut", NULL);
    fstHandle data = fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, 8, "data [7:0]", 0);
    fstHandle q = fstWriterCreateVar(w, FST_VT_VCD_REG, FST_VD_IMPLICIT, 1, "q", 0);
    fstHandle r = fstWriterCreateVar(w, FST_VT_VCD_REAL, FST_VD_IMPLICIT, 64, "r", 0);
    fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, 1, "clk_alias", clk);
    fstHandle esc = fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, 1, "\\esc[0]", 0);
    fstHandle count =
        fstWriterCreateVar(w, FST_VT_VCD_INTEGER, FST_VD_IMPLICIT, 32, "count [31:0]", 0);
    fstWriterSetUpscope(w);
    fstWriterSetUpscope(w);
    double half = 0.5;
    fstWriterEmitTimeChange(w, 0);
    fstWriterEmitValueChange(w, clk, "0");
    fstWriterEmitValueChange(w, data, "00000000");
    fstWriterEmitValueChange(w, q, "x");
    fstWriterEmitValueChange(w, r, &half);
    fstWriterEmitValueChange(w, esc, "0");
    fstWriterEmitValueChange32(w, count, 32, 0);
    fstWriterEmitTimeChange(w, 5);
    fstWriterEmitValueChange(w, clk, "1");
    fstWriterEmitValueChange(w, data, "00000101");
    fstWriterEmitValueChange(w, q, "1");
    fstWriterEmitValueChange(w, esc, "1");
    fstWriterEmitValueChange32(w, count, 32, 11);
    fstWriterEmitTimeChange(w, 10);
    fstWriterEmitValueChange(w, clk, "0");
    fstWriterEmitValueChange(w, data, "1z1x0101");
    fstWriterEmitValueChange(w, q, "z");
    fstWriterEmitTimeChange(w, 20);
    fstWriterEmitDumpActive(w, 0);
    fstWriterEmitTimeChange(w, 30);
    fstWriterEmitDumpActive(w, 1);
    fstWriterEmitValueChange(w, clk, "1");
    fstWriterEmitTimeChange(w, 40);
    fstWriterEmitValueChange(w, clk, "0");
    fstWriterClose(w);
}

static char *temp_path(const char *suffix)
{
    static int n;
    char *p = malloc(128);
    snprintf(p, 128, "/tmp/gp_test_fst_%ld_%d%s", (long)getpid(), n++, suffix);
    return p;
}

static int compare_change_lines(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    long long tx = atoll(x + 1), ty = atoll(y + 1);
    return tx != ty ? (tx > ty) - (tx < ty) : strcmp(x, y);
}

/* Sorts the change lines of each time in place: the order of changes of
 * different bits at one time is the reader's (fstapi's) own. */
static void sort_changes_within_times(char *log)
{
    char *lines[4096], sorted[sizeof fst_rec.log];
    size_t n = 0, used = 0;
    for (char *p = strtok(log, "\n"); p && n < 4096; p = strtok(NULL, "\n"))
        lines[n++] = p;
    size_t first = 0;
    while (first < n && lines[first][0] != '@')
        first++;
    size_t last = first;
    while (last < n && lines[last][0] == '@')
        last++;
    qsort(lines + first, last - first, sizeof lines[0], compare_change_lines);
    for (size_t i = 0; i < n; i++)
        used += (size_t)snprintf(sorted + used, sizeof sorted - used, "%s\n", lines[i]);
    memcpy(log, sorted, used + 1);
}

/* Both readers on the same content; the logs may differ only in "FST" and
 * in the order of changes within a time. */
static void compare_with_vcd(const char *fst_path, const char *scope)
{
    diag_ctx *d = diag_new(stderr);
    vcd_options opt = {.scope = scope};
    vcd_sink sink = vcd_record_sink(&vcd_rec);
    CHECK_EQ_INT(vcd_read_memory("eq.vcd", equivalent_vcd, strlen(equivalent_vcd), &opt, &sink, d),
                 GP_OK);
    sink = vcd_record_sink(&fst_rec);
    CHECK_EQ_INT(vcd_read(fst_path, &opt, &sink, d), GP_OK);
    CHECK_EQ_INT(diag_error_count(d), 0);
    CHECK_EQ_INT(diag_count_of(d, 6002), 2); /* the real var: once per reader */
    CHECK_EQ_INT(fst_rec.bad_batches, 0);
    char *start = strstr(fst_rec.log, "start FST");
    CHECK(start != NULL);
    if (start)
        memcpy(start + 6, "VCD", 3);
    sort_changes_within_times(fst_rec.log);
    sort_changes_within_times(vcd_rec.log);
    CHECK_EQ_STR(fst_rec.log, vcd_rec.log);
    diag_free(d);
}

static void test_fst_equals_vcd(void)
{
    char *path = temp_path(".fst");
    write_fst(path);
    compare_with_vcd(path, NULL);

    /* Numbers the VCD comparison cannot vouch for: ids from handles, the
     * timescale (1 ns), the alias, and the end time (#40). */
    CHECK(strstr(vcd_rec.log, "start VCD ts=1000000 ids=6 vars=6\n") != NULL);
    CHECK(strstr(vcd_rec.log, "var 0 tb/dut|clk_alias wire w1 - tb/dut/clk_alias") != NULL);
    CHECK(strstr(vcd_rec.log, "var 4 tb/dut|esc[0] wire w1 - tb/dut/esc[0]") != NULL);
    CHECK(strstr(vcd_rec.log, "@30000000 0.0=1\n") != NULL);
    CHECK(strstr(vcd_rec.log, "end 40000000\n") != NULL);
    compare_with_vcd(path, "tb/dut");
    compare_with_vcd(path, "tb");
    unlink(path);
    free(path);
}

/* Reads a damaged FST: error 6109 saying `why`, never a crash, an exit or
 * a dump read short. */
static void expect_damaged(const char *path, const char *why)
{
    diag_ctx *d = diag_new(NULL);
    vcd_sink sink = vcd_record_sink(&fst_rec);
    CHECK(vcd_read(path, NULL, &sink, d) != GP_OK);
    CHECK_EQ_INT(diag_first_error_no(d), 6109);
    CHECK(strstr(diag_first_error_text(d), path) != NULL);
    CHECK(strstr(diag_first_error_text(d), why) != NULL);
    if (diag_first_error_no(d) != 6109 || !strstr(diag_first_error_text(d), why))
        fprintf(stderr, "  got: %s (want '%s')\n", diag_first_error_text(d), why);
    diag_free(d);
}

/* Overwrites `len` bytes at `at` of the file with `bytes`. */
static void patch(const char *path, long at, const void *bytes, size_t len)
{
    FILE *f = fopen(path, "r+b");
    CHECK(f && fseek(f, at, SEEK_SET) == 0 && fwrite(bytes, 1, len, f) == len);
    if (f)
        fclose(f);
}

static void test_fst_errors(void)
{
    char *path = temp_path(".fst");
    write_fst(path);
    diag_ctx *d = diag_new(NULL);
    vcd_sink sink = vcd_record_sink(&fst_rec);
    vcd_options opt = {.scope = "tb/nothere"};
    CHECK_EQ_INT(vcd_read(path, &opt, &sink, d), GP_ERR_INPUT);
    CHECK_EQ_INT(diag_first_error_no(d), 6005);
    CHECK(strstr(diag_first_error_text(d), "scopes under 'tb': dut") != NULL);
    CHECK(strstr(diag_first_error_text(d), path) != NULL);
    diag_free(d);

    /* Cut after the header block: not a whole FST. */
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (f) {
        CHECK_EQ_INT(ftruncate(fileno(f), 400), 0);
        fclose(f);
    }
    expect_damaged(path, "cut");
    unlink(path);
    free(path);
}

/* A file of several blocks, then copies damaged as fuzzing found them:
 * cut to 99%, a block's length 0, 1 or past the end, an unknown tag, a
 * header whose variable count sizes a huge allocation, an unfinished
 * block; each is refused before fstapi reads it. */
static void test_fst_damage(void)
{
    char *path = temp_path(".fst");
    write_fst(path);
    struct stat sb;
    CHECK_EQ_INT(stat(path, &sb), 0);
    diag_ctx *d = diag_new(NULL);
    vcd_sink sink = vcd_record_sink(&fst_rec);
    CHECK_EQ_INT(vcd_read(path, NULL, &sink, d), GP_OK); /* whole, it reads */
    diag_free(d);
    static const unsigned char zero[8], one[8] = {0, 0, 0, 0, 0, 0, 0, 1},
                               huge[8] = {0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
                               many[8] = {0, 0, 1, 0, 0, 0, 0, 0};
    const long block = 330; /* the first block after the 330-byte header: its tag, then its length */
    struct {
        long at;
        const void *bytes;
        size_t len;
        const char *why;
    } cases[] = {{block + 1, zero, 8, "shorter than its fixed fields"},
                 {block + 1, one, 8, "shorter than its fixed fields"},
                 {block + 1, huge, 8, "runs past the end"},
                 {block, "\x77", 1, "unknown tag"},
                 {block, "\xff", 1, "never finished"},
                 {57, many, 8, "counts of scopes and variables"},
                 {1, one, 8, "header has the wrong length"},
                 {25, zero, 8, "header is damaged"}};
    char *copy = temp_path(".fst");
    char cmd[600];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        snprintf(cmd, sizeof cmd, "cp '%s' '%s'", path, copy);
        CHECK_EQ_INT(system(cmd), 0);
        patch(copy, cases[k].at, cases[k].bytes, cases[k].len);
        expect_damaged(copy, cases[k].why);
    }
    CHECK_EQ_INT(truncate(path, sb.st_size * 99 / 100), 0);
    expect_damaged(path, "cut");
    unlink(copy);
    unlink(path);
    free(copy);
    free(path);
}

/* The FST timescale exponent: 1 ps and 10 us units. */
static void test_fst_timescale(void)
{
    static const struct {
        int exponent;
        long long fs;
    } cases[] = {{-12, 1000}, {-5, 10000000000LL}, {-15, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *path = temp_path(".fst");
        void *w = fstWriterCreate(path, 1);
        fstWriterSetTimescale(w, cases[i].exponent);
        fstHandle a = fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, 1, "a", 0);
        fstWriterEmitTimeChange(w, 3);
        fstWriterEmitValueChange(w, a, "1");
        fstWriterClose(w);
        diag_ctx *d = diag_new(stderr);
        vcd_sink sink = vcd_record_sink(&fst_rec);
        CHECK_EQ_INT(vcd_read(path, NULL, &sink, d), GP_OK);
        char expected[256];
        snprintf(expected, sizeof expected,
                 "var 0 |a wire w1 - a a\nstart FST ts=%lld ids=1 vars=1\n@%lld 0.0=1\nend %lld\n",
                 cases[i].fs, 3 * cases[i].fs, 3 * cases[i].fs);
        CHECK_EQ_STR(fst_rec.log, expected);
        diag_free(d);
        unlink(path);
        free(path);
    }
}

/* Files libFuzzer made from a waveform.fst gatepower wrote and from a
 * generated dump, whose blocks are whole but whose payloads are not (a
 * time table that does not inflate; chains on which fstapi segfaulted and
 * aborted): each is error 6110, saying where it is damaged. */
static void test_fst_damaged_payloads(void)
{
    static const char *const files[] = {"data/fst_bad_time_section.fst",
                                        "data/fst_segv_payload.fst",
                                        "data/fst_abort_payload.fst"};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        diag_ctx *d = diag_new(NULL);
        vcd_sink sink = vcd_record_sink(&fst_rec);
        CHECK_EQ_INT(vcd_read(files[k], NULL, &sink, d), GP_ERR_PARSE);
        CHECK_EQ_INT(diag_first_error_no(d), 6110);
        CHECK(strstr(diag_first_error_text(d), "is damaged inside") != NULL);
        diag_free(d);
    }
}

int main(void)
{
    RUN(test_fst_equals_vcd);
    RUN(test_fst_errors);
    RUN(test_fst_damage);
    RUN(test_fst_damaged_payloads);
    RUN(test_fst_timescale);
    return check_exit_code();
}
#else
int main(void)
{
    check_skip("this build has no FST support (cmake/fstapi.cmake not included, or it found "
               "no fstapi sources)");
}
#endif
