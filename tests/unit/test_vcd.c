/* test_vcd.c: the VCD reader: every sink call on small hand-written dumps
 * (expected logs worked out by hand from IEEE 1364 §18), read whole and in
 * tiny chunks, from memory, a file and a .gz; and its error messages. */
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "test_vcd_record.h"

static vcd_record rec; /* big: static */

static const size_t chunk_sizes[] = {0, 1, 2, 3, 7, 64};

/* Reads `text` with every chunk size; each log must equal `expected`. */
static void expect_log(const char *text, const char *scope, const char *expected)
{
    for (size_t i = 0; i < sizeof chunk_sizes / sizeof chunk_sizes[0]; i++) {
        diag_ctx *d = diag_new(stderr);
        vcd_sink sink = vcd_record_sink(&rec);
        vcd_options opt = {.scope = scope, .chunk_size = chunk_sizes[i]};
        gp_status st = vcd_read_memory("t.vcd", text, strlen(text), &opt, &sink, d);
        CHECK_EQ_INT(st, GP_OK);
        CHECK_EQ_INT(diag_error_count(d), 0);
        CHECK_EQ_INT(rec.bad_batches, 0);
        CHECK_EQ_STR(rec.log, expected);
        if (strcmp(rec.log, expected) != 0)
            fprintf(stderr, "  (chunk size %zu)\n", chunk_sizes[i]);
        diag_free(d);
    }
}

static void test_basic(void)
{
    expect_log("$date today $end\n"
               "$version hand-written $end\n"
               "$comment a\n  multi-line comment $end\n"
               "$timescale 1ns $end\n"
               "$scope module tb $end\n"
               "$var wire 1 ! clk $end\n"
               "$scope module dut $end\n"
               "$var wire 8 \" data [7:0] $end\n"
               "$var reg 1 # q $end\n"
               "$upscope $end\n"
               "$upscope $end\n"
               "$enddefinitions $end\n"
               "#0\n$dumpvars\n0!\nb00000000 \"\nx#\n$end\n"
               "#5\n1!\nb101 \"\n1#\n"
               "#10\n0!\nb1z1x0101 \"\n#10\nz#\n",
               NULL,
               "var 0 tb|clk wire w1 - tb/clk tb/clk\n"
               "var 1 tb/dut|data wire w8 [7:0] tb/dut/data[0] tb/dut/data[7]\n"
               "var 2 tb/dut|q reg w1 - tb/dut/q tb/dut/q\n"
               "start VCD ts=1000000 ids=3 vars=3\n"
               "@0 0.0=0\n"
               "@0 1.0=0\n@0 1.1=0\n@0 1.2=0\n@0 1.3=0\n@0 1.4=0\n@0 1.5=0\n@0 1.6=0\n@0 1.7=0\n"
               /* #5: 00000101 after 00000000 changes bits 0 and 2 */
               "@5000000 0.0=1\n@5000000 1.0=1\n@5000000 1.2=1\n@5000000 2.0=1\n"
               /* #10: 1z1x0101 after 00000101 changes bits 4..7 */
               "@10000000 0.0=0\n@10000000 1.4=x\n@10000000 1.5=1\n@10000000 1.6=x\n"
               "@10000000 1.7=1\n@10000000 2.0=x\n"
               "end 10000000\n");
}

/* Every timescale form: #3 must become 3 units in fs. */
static void test_timescales(void)
{
    static const struct {
        const char *text;
        long long fs;
    } cases[] = {
        {"1ns", 1000000},       {"1 ns", 1000000},        {"10ps", 10000},
        {"100 fs", 100},        {"\n\t1\n\tps\n", 1000},  {"1s", 1000000000000000LL},
        {"100ms", 100000000000000LL}, {"10 us", 10000000000LL}, {"1fs", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256], expected[256];
        snprintf(text, sizeof text,
                 "$timescale %s $end\n$var wire 1 ! a $end\n$enddefinitions $end\n#3\n1!\n",
                 cases[i].text);
        snprintf(expected, sizeof expected,
                 "var 0 |a wire w1 - a a\nstart VCD ts=%lld ids=1 vars=1\n@%lld 0.0=1\nend %lld\n",
                 cases[i].fs, 3 * cases[i].fs, 3 * cases[i].fs);
        expect_log(text, NULL, expected);
    }
}

static const char scoped[] =
    "$timescale 1ps $end\n"
    "$scope module tb $end\n"
    "$var wire 1 ! clk $end\n"
    "$scope module dut $end\n"
    "$var wire 1 \" a $end\n"
    "$scope task t1 $end\n$var reg 1 # tv $end\n$upscope $end\n"
    "$scope function f1 $end\n$upscope $end\n"
    "$scope begin blk $end\n$scope fork frk $end\n$var wire 1 $ deep $end\n$upscope $end\n"
    "$upscope $end\n"
    "$scope module u_sub $end\n$var wire 1 % n5 $end\n$var wire 1 ! clk_alias $end\n"
    "$upscope $end\n"
    "$upscope $end\n"
    "$scope module dut2 $end\n$var wire 1 & other $end\n$upscope $end\n"
    "$upscope $end\n"
    "$enddefinitions $end\n"
    "#1\n1!\n1\"\n1#\n1$\n1%\n1&\n";

/* Scope selection: names relative to the scope; the alias of clk inside
 * the scope delivers clk's id; dut2 is not below dut. */
static void test_scope_selection(void)
{
    static const char expected[] =
        "var 1 |a wire w1 - a a\n"
        "var 2 t1|tv reg w1 - t1/tv t1/tv\n"
        "var 3 blk/frk|deep wire w1 - blk/frk/deep blk/frk/deep\n"
        "var 4 u_sub|n5 wire w1 - u_sub/n5 u_sub/n5\n"
        "var 0 u_sub|clk_alias wire w1 - u_sub/clk_alias u_sub/clk_alias\n"
        "start VCD ts=1000 ids=6 vars=5\n"
        "@1000 0.0=1\n@1000 1.0=1\n@1000 2.0=1\n@1000 3.0=1\n@1000 4.0=1\n"
        "end 1000\n";
    expect_log(scoped, "tb/dut", expected);
    expect_log(scoped, "tb.dut", expected);
    expect_log(scoped, "/tb/dut/", expected);
    expect_log(scoped, "tb/dut2",
               "var 5 |other wire w1 - other other\n"
               "start VCD ts=1000 ids=6 vars=1\n@1000 5.0=1\nend 1000\n");
}

/* Without a selection every var comes with its full path; the alias shares
 * id 0 and its change comes once. */
static void test_aliases(void)
{
    expect_log(scoped, NULL,
               "var 0 tb|clk wire w1 - tb/clk tb/clk\n"
               "var 1 tb/dut|a wire w1 - tb/dut/a tb/dut/a\n"
               "var 2 tb/dut/t1|tv reg w1 - tb/dut/t1/tv tb/dut/t1/tv\n"
               "var 3 tb/dut/blk/frk|deep wire w1 - tb/dut/blk/frk/deep tb/dut/blk/frk/deep\n"
               "var 4 tb/dut/u_sub|n5 wire w1 - tb/dut/u_sub/n5 tb/dut/u_sub/n5\n"
               "var 0 tb/dut/u_sub|clk_alias wire w1 - tb/dut/u_sub/clk_alias "
               "tb/dut/u_sub/clk_alias\n"
               "var 5 tb/dut2|other wire w1 - tb/dut2/other tb/dut2/other\n"
               "start VCD ts=1000 ids=6 vars=7\n"
               "@1000 0.0=1\n@1000 1.0=1\n@1000 2.0=1\n@1000 3.0=1\n@1000 4.0=1\n@1000 5.0=1\n"
               "end 1000\n");
}

/* Left extension: 1 extends with 0, 0/x/z with themselves; x and z are X;
 * a scalar value on a vector is a one-character vector value; two changes
 * of one bit at one time both come. */
static void test_vectors(void)
{
    expect_log("$timescale 1ps $end\n$var wire 4 # v [3:0] $end\n$var wire 1 ! s $end\n"
               "$enddefinitions $end\n"
               "#0\nb1 #\n#1\nbx #\n#2\nb0 #\n#3\nbz1 #\n#4\nb10 #\n#5\nB0X1z #\n#6\n1#\n"
               "#7\nx#\n#8\n1!\n0!\n",
               NULL,
               "var 0 |v wire w4 [3:0] v[0] v[3]\n"
               "var 1 |s wire w1 - s s\n"
               "start VCD ts=1000 ids=2 vars=2\n"
               "@0 0.0=1\n@0 0.1=0\n@0 0.2=0\n@0 0.3=0\n"               /* 0001 */
               "@1000 0.0=x\n@1000 0.1=x\n@1000 0.2=x\n@1000 0.3=x\n"   /* xxxx */
               "@2000 0.0=0\n@2000 0.1=0\n@2000 0.2=0\n@2000 0.3=0\n"   /* 0000 */
               "@3000 0.0=1\n@3000 0.1=x\n@3000 0.2=x\n@3000 0.3=x\n"   /* zzz1 */
               "@4000 0.0=0\n@4000 0.1=1\n@4000 0.2=0\n@4000 0.3=0\n"   /* 0010 */
               "@5000 0.0=x\n@5000 0.2=x\n"                             /* 0X1z */
               "@6000 0.0=1\n@6000 0.1=0\n@6000 0.2=0\n"                /* 0001 */
               "@7000 0.0=x\n@7000 0.1=x\n@7000 0.2=x\n@7000 0.3=x\n"   /* xxxx */
               "@8000 1.0=1\n@8000 1.0=0\n"
               "end 8000\n");
}

/* $dumpoff: every bit that is not X becomes X; $dumpon's values return. */
static void test_dumpoff(void)
{
    expect_log("$timescale 1ps $end\n$var wire 1 ! a $end\n$var wire 2 \" b [1:0] $end\n"
               "$enddefinitions $end\n"
               "#0\n$dumpvars\n1!\nb10 \"\n$end\n"
               "#10\n$dumpoff\nx!\nbxx \"\n$end\n"
               "#20\n$dumpon\n1!\nb01 \"\n$end\n"
               "#30\n$dumpall 0! b01 \" $end\n$comment any text $end\n",
               NULL,
               "var 0 |a wire w1 - a a\n"
               "var 1 |b wire w2 [1:0] b[0] b[1]\n"
               "start VCD ts=1000 ids=2 vars=2\n"
               "@0 0.0=1\n@0 1.0=0\n@0 1.1=1\n"
               "@10000 0.0=x\n@10000 1.0=x\n@10000 1.1=x\n"
               "@20000 0.0=1\n@20000 1.0=1\n@20000 1.1=0\n"
               "@30000 0.0=0\n"
               "end 30000\n");
}

/* Escaped names, bit-selects glued or apart, ranges both ways. */
static void test_names(void)
{
    expect_log("$timescale 1ps $end\n$scope module tb $end\n$scope module \\u1/x  $end\n"
               "$var wire 1 ! \\x[0]  $end\n"
               "$var wire 1 \" y [0] $end\n"
               "$var wire 8 # data[7:0] $end\n"
               "$var wire 8 $ rev [0:7] $end\n"
               "$var wire 4 % \\bus[3]  [3:0] $end\n"
               "$var wire 1 & \\a/b  $end\n"
               "$var wire 3 ' nr $end\n"
               "$var wire 4 ( d [ 7 : 4 ] $end\n"
               "$var wire 1 ) \\esc\\name  $end\n"
               "$var wire 2 * neg [-1:-2] $end\n"
               "$upscope $end\n$upscope $end\n$enddefinitions $end\n",
               NULL,
               "var 0 tb/u1/x|x[0] wire w1 - tb/u1/x/x[0] tb/u1/x/x[0]\n"
               "var 1 tb/u1/x|y wire w1 [0:0] tb/u1/x/y[0] tb/u1/x/y[0]\n"
               "var 2 tb/u1/x|data wire w8 [7:0] tb/u1/x/data[0] tb/u1/x/data[7]\n"
               "var 3 tb/u1/x|rev wire w8 [0:7] tb/u1/x/rev[7] tb/u1/x/rev[0]\n"
               "var 4 tb/u1/x|bus[3] wire w4 [3:0] tb/u1/x/bus[3][0] tb/u1/x/bus[3][3]\n"
               "var 5 tb/u1/x|a/b wire w1 - tb/u1/x/a/b tb/u1/x/a/b\n"
               "var 6 tb/u1/x|nr wire w3 - tb/u1/x/nr[0] tb/u1/x/nr[2]\n"
               "var 7 tb/u1/x|d wire w4 [7:4] tb/u1/x/d[4] tb/u1/x/d[7]\n"
               "var 8 tb/u1/x|esc\\name wire w1 - tb/u1/x/esc\\name tb/u1/x/esc\\name\n"
               "var 9 tb/u1/x|neg wire w2 [-1:-2] tb/u1/x/neg[-2] tb/u1/x/neg[-1]\n"
               "start VCD ts=1000 ids=10 vars=10\n"
               "end 0\n");
}

/* Codes of 1 to 10 characters (every table: direct, packed, string) and
 * with bytes beyond ASCII. */
static void test_codes(void)
{
    expect_log("$timescale 1ps $end\n"
               "$var wire 1 !! a $end\n$var wire 1 ~~~ b $end\n$var wire 1 abcd c $end\n"
               "$var wire 1 \xc3\xa9 d $end\n$var wire 1 ! e $end\n$var wire 1 }~! f $end\n"
               "$var wire 1 0123456789 g $end\n$var wire 1 abcdefgh h $end\n"
               "$enddefinitions $end\n"
               "#1\n1!!\n1~~~\n1abcd\n1\xc3\xa9\n1!\n1}~!\n10123456789\n1abcdefgh\n"
               "#2\nb0\n\t!!\n",
               NULL,
               "var 0 |a wire w1 - a a\nvar 1 |b wire w1 - b b\nvar 2 |c wire w1 - c c\n"
               "var 3 |d wire w1 - d d\nvar 4 |e wire w1 - e e\nvar 5 |f wire w1 - f f\n"
               "var 6 |g wire w1 - g g\nvar 7 |h wire w1 - h h\n"
               "start VCD ts=1000 ids=8 vars=8\n"
               "@1000 0.0=1\n@1000 1.0=1\n@1000 2.0=1\n@1000 3.0=1\n@1000 4.0=1\n@1000 5.0=1\n"
               "@1000 6.0=1\n@1000 7.0=1\n"
               "@2000 0.0=0\n" /* a vector value may end its line: the code follows a blank */
               "end 2000\n");
    /* Four characters: the pages of those the writers give out first (the
     * last two characters' page under VCD_QUAD_PAGES: !!J& is the last
     * one), the packed hash beyond (!!K&), a vector among them. */
    expect_log("$timescale 1ps $end\n"
               "$var wire 1 !!!! a $end\n$var wire 1 ~~~! b $end\n$var wire 1 !!!\" c $end\n"
               "$var wire 1 !!J& d $end\n$var wire 1 !!K& e $end\n$var wire 2 ~!!! v [1:0] $end\n"
               "$enddefinitions $end\n"
               "#1\n1!!!!\n1~~~!\n1!!!\"\n1!!J&\n1!!K&\nb10 ~!!!\n"
               "#2\n0!!K&\n0!!J&\nb01 ~!!!\n0!!!!\n",
               NULL,
               "var 0 |a wire w1 - a a\nvar 1 |b wire w1 - b b\nvar 2 |c wire w1 - c c\n"
               "var 3 |d wire w1 - d d\nvar 4 |e wire w1 - e e\n"
               "var 5 |v wire w2 [1:0] v[0] v[1]\n"
               "start VCD ts=1000 ids=6 vars=6\n"
               "@1000 0.0=1\n@1000 1.0=1\n@1000 2.0=1\n@1000 3.0=1\n@1000 4.0=1\n"
               "@1000 5.0=0\n@1000 5.1=1\n"
               "@2000 4.0=0\n@2000 3.0=0\n@2000 5.0=1\n@2000 5.1=0\n@2000 0.0=0\n"
               "end 2000\n");
}

/* Real vars: skipped with one warning for all; their values ignored.  Other
 * types without logic values likewise, with their own warning. */
static void test_skipped_vars(void)
{
    static const char text[] =
        "$timescale 1ps $end\n$timezero 0 $end\n"
        "$var real 64 ! r1 $end\n$var real 64 \" r2 $end\n$var wire 1 # w $end\n"
        "$var string 1 $ s $end\n"
        "$enddefinitions $end\n#0\nr1.5 !\nr0 \"\n1#\nsfoo $\n#1\nR2.5e3 !\n";
    diag_ctx *d = diag_new(NULL);
    vcd_sink sink = vcd_record_sink(&rec);
    CHECK_EQ_INT(vcd_read_memory("r.vcd", text, strlen(text), NULL, &sink, d), GP_OK);
    CHECK_EQ_STR(rec.log, "var 2 |w wire w1 - w w\nstart VCD ts=1000 ids=4 vars=1\n@0 2.0=1\n"
                          "end 1000\n");
    CHECK_EQ_INT(diag_count_of(d, 6002), 1);
    CHECK_EQ_INT(diag_count_of(d, 6003), 1);
    CHECK_EQ_INT(diag_count_of(d, 6039), 1); /* $timezero: unknown section */
    CHECK_EQ_INT(diag_warning_count(d), 3);
    diag_free(d);
}

static char *temp_path(const char *suffix)
{
    static int n;
    char *p = malloc(128);
    snprintf(p, 128, "/tmp/gp_test_vcd_%ld_%d%s", (long)getpid(), n++, suffix);
    return p;
}

/* The same dump from a file and from a .gz gives the same calls. */
static void test_files(void)
{
    static const char text[] = "$timescale 10ns $end\n$var wire 2 ! v [1:0] $end\n"
                               "$enddefinitions $end\n#0\nb01 !\n#7\nb10 !\n";
    static const char expected[] = "var 0 |v wire w2 [1:0] v[0] v[1]\n"
                                   "start VCD ts=10000000 ids=1 vars=1\n"
                                   "@0 0.0=1\n@0 0.1=0\n@70000000 0.0=0\n@70000000 0.1=1\n"
                                   "end 70000000\n";
    char *plain = temp_path(".vcd"), *gz = temp_path(".vcd.gz");
    FILE *f = fopen(plain, "w");
    fputs(text, f);
    fclose(f);
    gzFile g = gzopen(gz, "wb");
    gzputs(g, text);
    gzclose(g);
    const char *paths[] = {plain, gz};
    for (int i = 0; i < 2; i++) {
        diag_ctx *d = diag_new(stderr);
        vcd_sink sink = vcd_record_sink(&rec);
        CHECK_EQ_INT(vcd_read(paths[i], NULL, &sink, d), GP_OK);
        CHECK_EQ_STR(rec.log, expected);
        diag_free(d);
    }
    unlink(plain);
    unlink(gz);
    free(plain);
    free(gz);
}

/* A sink that fails stops the read with its status. */
static void test_sink_failure(void)
{
    static const char text[] = "$timescale 1ps $end\n$var wire 1 ! a $end\n$enddefinitions $end\n"
                               "#0\n1!\n#1\n0!\n#2\n1!\n#3\n0!\n";
    diag_ctx *d = diag_new(NULL);
    vcd_sink sink = vcd_record_sink(&rec);
    rec.fail_after_changes = 2;
    CHECK_EQ_INT(vcd_read_memory("f.vcd", text, strlen(text), NULL, &sink, d), GP_ERR_INPUT);
    CHECK_EQ_STR(rec.log, "var 0 |a wire w1 - a a\nstart VCD ts=1000 ids=1 vars=1\n@0 0.0=1\n"
                          "@1000 0.0=0\n");
    diag_free(d);
}

static void test_bit_name(void)
{
    char buf[64];
    vcd_var v = {.scope = "u_sub", .name = "data", .width = 8, .has_range = true, .msb = 7,
                 .lsb = 0};
    CHECK_EQ_INT(vcd_bit_name(&v, 3, buf, sizeof buf), 13);
    CHECK_EQ_STR(buf, "u_sub/data[3]");
    v.msb = 0;
    v.lsb = 7;
    vcd_bit_name(&v, 3, buf, sizeof buf);
    CHECK_EQ_STR(buf, "u_sub/data[4]");
    vcd_var s = {.scope = "", .name = "x[0]", .width = 1};
    vcd_bit_name(&s, 0, buf, sizeof buf);
    CHECK_EQ_STR(buf, "x[0]");
    CHECK_EQ_INT(vcd_bit_name(&v, 0, buf, 4), 13); /* truncated, the length still told */
    CHECK_EQ_STR(buf, "u_s");
    /* as snprintf writes them: negative and wide indices, every cut */
    static const int32_t ends[][2] = {{-1, -8}, {-8, -1}, {INT32_MAX, INT32_MAX - 3},
                                      {INT32_MIN + 3, INT32_MIN}, {0, 0}};
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++)
        for (uint32_t bit = 0; bit < 4; bit++)
            for (size_t size = 0; size <= 40; size++) {
                vcd_var r = {.scope = k % 2 ? "" : "top/u1", .name = "bus", .width = 4,
                             .has_range = true, .msb = ends[k][0], .lsb = ends[k][1]};
                char want[64], got[64] = "unchanged";
                int64_t index = r.msb >= r.lsb ? (int64_t)r.lsb + bit : (int64_t)r.lsb - bit;
                int n = snprintf(want, size ? size : 1, "%s%s%s[%lld]", r.scope,
                                 r.scope[0] ? "/" : "", r.name, (long long)index);
                CHECK_EQ_INT(vcd_bit_name(&r, bit, got, size), n);
                if (size)
                    CHECK_EQ_STR(got, want);
                else
                    CHECK_EQ_STR(got, "unchanged");
            }
}

/* ---- errors: message number and file:line -------------------------------- */

#define HDR "$timescale 1ns $end\n$scope module tb $end\n$var wire 1 ! a $end\n" \
            "$var wire 4 \" v [3:0] $end\n$upscope $end\n$enddefinitions $end\n"
/* HDR has 6 lines: the value changes start on line 7. */

static void expect_error(const char *text, const char *scope, int msgno, int line)
{
    for (size_t i = 0; i < sizeof chunk_sizes / sizeof chunk_sizes[0]; i++) {
        diag_ctx *d = diag_new(NULL);
        vcd_sink sink = vcd_record_sink(&rec);
        vcd_options opt = {.scope = scope, .chunk_size = chunk_sizes[i]};
        gp_status st = vcd_read_memory("bad.vcd", text, strlen(text), &opt, &sink, d);
        char where[32];
        snprintf(where, sizeof where, "bad.vcd:%d:", line);
        CHECK(st != GP_OK);
        CHECK_EQ_INT(diag_first_error_no(d), msgno);
        CHECK(strstr(diag_first_error_text(d), where) != NULL);
        if (diag_first_error_no(d) != msgno || !strstr(diag_first_error_text(d), where))
            fprintf(stderr, "  got: %s (chunk %zu)\n", diag_first_error_text(d), chunk_sizes[i]);
        diag_free(d);
    }
}

/* ---- many changes: batches fill and flush, vectors wider than a batch ---- */

typedef struct change_list {
    struct timed_change {
        int64_t time;
        vcd_change c;
    } *data;
    size_t len, cap;
} change_list;

static void change_list_push(change_list *l, int64_t time, vcd_change c)
{
    if (l->len == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->data = realloc(l->data, l->cap * sizeof *l->data);
    }
    l->data[l->len++] = (struct timed_change){time, c};
}

static gp_status collect_changes(void *ctx, int64_t time, const vcd_change *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        change_list_push(ctx, time, c[i]);
    return GP_OK;
}

static uint32_t lcg(uint32_t *s) { return (*s = *s * 1103515245u + 12345u) >> 8; }

#define MANY_VECTORS 50
#define MANY_WIDE 3000 /* wider than a batch */
#define MANY_VARS (MANY_VECTORS + 1)

static uint32_t many_width(uint32_t id) { return id < MANY_VECTORS ? 40 : MANY_WIDE; }

/* Appends one random change of var `id` at time t to the text and, by the
 * standard's rules, its bit changes to `expected`. */
static size_t many_change(char *text, uint32_t id, int64_t t, uint8_t vals[][MANY_WIDE],
                          change_list *expected, uint32_t *seed)
{
    static const char chars[] = "01xzXZ";
    uint32_t width = many_width(id), n = 1 + lcg(seed) % width;
    size_t len = 0;
    text[len++] = 'b';
    for (uint32_t i = 0; i < n; i++)
        text[len++] = chars[lcg(seed) % (i == 0 ? 6 : 2)];
    len += (size_t)sprintf(text + len, " %c\n", '!' + (char)id);
    const char *v = text + 1;
    for (uint32_t bit = 0; bit < width; bit++) {
        char c = bit < n ? v[n - 1 - bit] : v[0] == '1' ? '0' : v[0];
        uint8_t value = c == '0' ? VCD_0 : c == '1' ? VCD_1 : VCD_X;
        if (vals[id][bit] != value)
            change_list_push(expected, t, (vcd_change){.id = id, .bit = bit, .value = value});
        vals[id][bit] = value;
    }
    return len;
}

static void test_many_changes(void)
{
    static uint8_t vals[MANY_VARS][MANY_WIDE];
    memset(vals, VCD_X, sizeof vals);
    size_t cap = 1 << 22, len = 0;
    char *text = malloc(cap);
    len += (size_t)sprintf(text, "$timescale 1ps $end\n");
    for (uint32_t id = 0; id < MANY_VARS; id++)
        len += (size_t)sprintf(text + len, "$var wire %u %c v%u $end\n", many_width(id),
                               '!' + (char)id, id);
    len += (size_t)sprintf(text + len, "$enddefinitions $end\n");
    change_list expected = {0}, got = {0};
    uint32_t seed = 7;
    for (int64_t t = 0; t < 300; t++) {
        len += (size_t)sprintf(text + len, "#%lld\n", (long long)t);
        for (int k = 0; k < 20; k++) {
            uint32_t id = lcg(&seed) % 64 == 0 ? MANY_VECTORS : lcg(&seed) % MANY_VECTORS;
            len += many_change(text + len, id, t * 1000, vals, &expected, &seed);
        }
    }
    CHECK(len < cap);
    for (size_t i = 0; i < sizeof chunk_sizes / sizeof chunk_sizes[0]; i++) {
        diag_ctx *d = diag_new(stderr);
        vcd_sink sink = {.ctx = &got, .changes = collect_changes};
        vcd_options opt = {.chunk_size = chunk_sizes[i] * 97}; /* 0, 97, ... bytes */
        got.len = 0;
        CHECK_EQ_INT(vcd_read_memory("many.vcd", text, len, &opt, &sink, d), GP_OK);
        CHECK_EQ_INT(got.len, expected.len);
        size_t same = 0;
        while (same < got.len && same < expected.len &&
               got.data[same].time == expected.data[same].time &&
               got.data[same].c.id == expected.data[same].c.id &&
               got.data[same].c.bit == expected.data[same].c.bit &&
               got.data[same].c.value == expected.data[same].c.value)
            same++;
        CHECK_EQ_INT(same, expected.len);
        diag_free(d);
    }
    CHECK(expected.len > 10 * 2048); /* several batches */
    /* An error far down is still on the right line: header 53 lines, then
     * per time 21 lines; the bad line follows them all. */
    strcpy(text + len, "#300\nb2 !\n");
    expect_error(text, NULL, 6012, 53 + 300 * 21 + 2);
    free(text);
    free(expected.data);
    free(got.data);
}

static void test_errors_changes(void)
{
    expect_error(HDR "#0\n1?\n", NULL, 6010, 8);          /* unknown identifier code */
    expect_error(HDR "#0\nb1 ab\n", NULL, 6010, 8);
    expect_error(HDR "#0\n1abcd\n", NULL, 6010, 8);      /* no packed table at all */
    expect_error(HDR "#0\n1!!!!\n", NULL, 6010, 8);      /* no page of 4 characters */
    expect_error(HDR "#0\n1abcdefghij\n", NULL, 6010, 8); /* no string table entry */
    expect_error(HDR "#0\n1", NULL, 6011, 8);             /* truncated after a value */
    expect_error(HDR "#0\nb1", NULL, 6011, 8);
    expect_error(HDR "#0\n1 !\n", NULL, 6011, 8);         /* blank between scalar and code */
    expect_error(HDR "#12a\n", NULL, 6014, 7);            /* bad time */
    expect_error(HDR "#\n", NULL, 6014, 7);
    expect_error(HDR "#-5\n", NULL, 6014, 7);
    expect_error(HDR "#99999999999999999999\n", NULL, 6015, 7);
    expect_error(HDR "#9223372036854775807\n", NULL, 6015, 7); /* overflows in fs */
    expect_error(HDR "#2305843009214\n", NULL, 6015, 7); /* past 2^61 fs, the store's */
    expect_error(HDR "#5\n#4\n", NULL, 6016, 8);          /* decreasing time */
    expect_error(HDR "b1021 \"\n", NULL, 6012, 7);        /* bad value character */
    expect_error(HDR "b10101 \"\n", NULL, 6013, 7);       /* longer than the width */
    expect_error(HDR "b \"\n", NULL, 6013, 7);
    expect_error(HDR "r1.5 !\n", NULL, 6017, 7);          /* real value, logic var */
    expect_error(HDR "\n\nq!\n", NULL, 6018, 9);          /* syntax error */
    expect_error(HDR "$dumpports\n", NULL, 6019, 7);
    expect_error(HDR "$end\n", NULL, 6020, 7);
    expect_error(HDR "$dumpvars\n$dumpoff\n", NULL, 6021, 8);
    expect_error(HDR "$dumpvars\n1!\n", NULL, 6022, 9);   /* truncated inside $dumpvars */
    expect_error(HDR "$comment no end\n", NULL, 6030, 8);
}

static void test_errors_header(void)
{
    expect_error("", NULL, 6030, 1);
    expect_error("$timescale 1ns $end\n$scope module tb $end\n$var wire 1 ! a $end\n", NULL, 6030,
                 4);
    expect_error("$timescale 1ns $end\n$var wire 1 ! a", NULL, 6030, 2);
    expect_error("$timescale 1ns $end\n\x01\n", NULL, 6051, 2);
    expect_error("$timescale 2ns $end\n", NULL, 6032, 1);
    expect_error("\n$timescale 1 xs $end\n", NULL, 6032, 2);
    expect_error("$timescale 1ns $end\n$upscope $end\n", NULL, 6034, 2);
    expect_error("$timescale 1ns $end\n$var wire 1 ! $end\n", NULL, 6036, 2);
    expect_error("$timescale 1ns $end\n$var wire 1 $end\n", NULL, 6038, 2);
    expect_error("$timescale 1ns $end\n$var wire x ! a $end\n", NULL, 6035, 2);
    expect_error("$timescale 1ns $end\n$var wire 0 ! a $end\n", NULL, 6035, 2);
    expect_error("$timescale 1ns $end\n$var wire 99999999999 ! a $end\n", NULL, 6035, 2);
    expect_error("$timescale 1ns $end\n$var wire 4 ! a [7:0] $end\n", NULL, 6037, 2);
    expect_error("$timescale 1ns $end\n$var wire 1 ! a [x] $end\n", NULL, 6036, 2);
    expect_error("$timescale 1ns $end\n$var wire 1 ! a b $end\n", NULL, 6036, 2);
    expect_error("$timescale 1ns $end\n$var wire 1 ! a\n$end\n$var wire 2 ! b [1:0] $end\n", NULL,
                 6004, 4);
    expect_error("$timescale 1ns $end\n$scope module $end\n", NULL, 6033, 2);
    expect_error("$timescale 1ns $end\n$scope module tb extra $end\n", NULL, 6031, 2);
    expect_error("$enddefinitions $end\n", NULL, 6041, 1);
    expect_error("$timescale 1ns $end\n#0\n", NULL, 6040, 2);
}

static void test_mismatched_scope(void)
{
    expect_error(HDR, "tb/dut", 6005, 6);
    diag_ctx *d = diag_new(NULL);
    vcd_sink sink = vcd_record_sink(&rec);
    vcd_options opt = {.scope = "tb/dutx"};
    CHECK_EQ_INT(vcd_read_memory("s.vcd", scoped, strlen(scoped), &opt, &sink, d), GP_ERR_INPUT);
    CHECK(strstr(diag_first_error_text(d), "scopes under 'tb': dut, dut2") != NULL);
    diag_free(d);
    d = diag_new(NULL);
    opt.scope = "dut";
    CHECK_EQ_INT(vcd_read_memory("s.vcd", scoped, strlen(scoped), &opt, &sink, d), GP_ERR_INPUT);
    CHECK(strstr(diag_first_error_text(d), "top-level scopes: tb;") != NULL);
    CHECK(strstr(diag_first_error_text(d), "(did you mean 'tb/dut'?)") != NULL);
    diag_free(d);
}

static gp_status keep_last_time(void *ctx, const vcd_info *info)
{
    *(int64_t *)ctx = info->last_time_fs;
    return GP_OK;
}

/* The dump's last time stamp, told at `start` before the changes are
 * read: a plain file's last time command, found from its end even when
 * over 64 KiB of changes follow it; -1 for gzip and memory. */
static void test_last_time(void)
{
    char *plain = temp_path(".vcd"), *gz = temp_path(".vcd.gz");
    FILE *f = fopen(plain, "w");
    fputs("$timescale 10ns $end\n$var wire 1 ! a $end\n$enddefinitions $end\n#0\n1!\n"
          "#12345\n0!\n#23456789\n", f);
    for (int k = 0; k < 40000; k++) /* 160 KB of changes at the last time */
        fputs("1!\n0!\n", f);
    fclose(f);
    gzFile g = gzopen(gz, "wb");
    gzputs(g, "$timescale 1ps $end\n$var wire 1 ! a $end\n$enddefinitions $end\n#5\n1!\n");
    gzclose(g);
    const char *paths[] = {plain, gz};
    const int64_t expected[] = {23456789LL * 10000000, -1};
    for (int i = 0; i < 2; i++) {
        int64_t last = 0;
        diag_ctx *d = diag_new(stderr);
        vcd_sink sink = {.ctx = &last, .start = keep_last_time};
        CHECK_EQ_INT(vcd_read(paths[i], NULL, &sink, d), GP_OK);
        CHECK(last == expected[i]);
        diag_free(d);
    }
    static const char text[] = "$timescale 1ps $end\n$var wire 1 ! a $end\n"
                               "$enddefinitions $end\n#5\n1!\n";
    int64_t last = 0;
    diag_ctx *d = diag_new(stderr);
    vcd_sink sink = {.ctx = &last, .start = keep_last_time};
    CHECK_EQ_INT(vcd_read_memory("m", text, sizeof text - 1, NULL, &sink, d), GP_OK);
    CHECK(last == -1);
    diag_free(d);
    unlink(plain);
    unlink(gz);
    free(plain);
    free(gz);
}

static void test_missing_file(void)
{
    diag_ctx *d = diag_new(NULL);
    vcd_sink sink = vcd_record_sink(&rec);
    CHECK_EQ_INT(vcd_read("/nonexistent/dir/x.vcd", NULL, &sink, d), GP_ERR_IO);
    CHECK_EQ_INT(diag_first_error_no(d), 1101);
    CHECK(strstr(diag_first_error_text(d), "/nonexistent/dir/x.vcd") != NULL);
    diag_free(d);
}

static void test_no_final_newline(void)
{
    static const char text[] = HDR "#0\n1!";
    diag_ctx *d = diag_new(NULL);
    vcd_sink sink = vcd_record_sink(&rec);
    CHECK_EQ_INT(vcd_read_memory("n.vcd", text, strlen(text), NULL, &sink, d), GP_ERR_PARSE);
    CHECK_EQ_INT(diag_first_error_no(d), 6023);
    diag_free(d);
}

/* Scopes nested thousands deep are refused at the scope whose path passes
 * 4096 characters (every scope's path is kept: memory would grow with the
 * square of the depth), not read until memory runs out. */
static void test_deep_scopes(void)
{
    size_t depth = 200000, at = 0;
    char *text = malloc(depth * 40 + 200);
    if (!text)
        return;
    at += (size_t)sprintf(text + at, "$timescale 1ns $end\n");
    for (size_t k = 0; k < depth; k++)
        at += (size_t)sprintf(text + at, "$scope module s $end\n");
    at += (size_t)sprintf(text + at, "$var wire 1 ! a $end\n");
    for (size_t k = 0; k < depth; k++)
        at += (size_t)sprintf(text + at, "$upscope $end\n");
    sprintf(text + at, "$enddefinitions $end\n#0\n1!\n");
    expect_error(text, NULL, 6042, 2 + 4096 / 2);
    free(text);
}

/* ---- a header's declarations read in pieces on threads ---- */

typedef struct reading {
    gp_status st;
    char log[sizeof rec.log];
    char messages[4096];
    uint32_t pieces;
} reading;

/* Reads `text` on `threads` with pieces of at least `piece` bytes into *out:
 * the status, the sink's log and every message printed. */
static void read_with(const char *text, const char *scope, uint32_t threads, size_t piece,
                      size_t chunk, reading *out)
{
    FILE *f = tmpfile();
    diag_ctx *d = diag_new(f);
    vcd_sink sink = vcd_record_sink(&rec);
    vcd_options opt = {.scope = scope, .threads = threads, .part_size = piece, .chunk_size = chunk};
    out->st = vcd_read_memory("p.vcd", text, strlen(text), &opt, &sink, d);
    diag_free(d);
    memcpy(out->log, rec.log, sizeof out->log);
    out->pieces = rec.header_pieces;
    size_t n = 0;
    if (f) {
        rewind(f);
        n = fread(out->messages, 1, sizeof out->messages - 1, f);
        fclose(f);
    }
    out->messages[n] = '\0';
}

/* The text read word by word and in pieces of several sizes gives the same
 * status, sink calls and messages.  `pieces`: a header the pieces take
 * (else every reading is word by word), which a reading that reaches the
 * sink's start shows. */
static void expect_pieces_same(const char *text, const char *scope, bool pieces)
{
    static reading alone, split;
    static const size_t piece_sizes[] = {1, 9, 40};
    read_with(text, scope, 1, 0, 0, &alone);
    CHECK_EQ_INT(alone.pieces, 0);
    for (size_t i = 0; i < sizeof piece_sizes / sizeof piece_sizes[0]; i++)
        for (size_t chunk = 0; chunk <= 3; chunk += 3) {
            read_with(text, scope, 4, piece_sizes[i], chunk, &split);
            CHECK_EQ_INT(split.st, alone.st);
            CHECK_EQ_STR(split.log, alone.log);
            CHECK_EQ_STR(split.messages, alone.messages);
            if (alone.st == GP_OK)
                CHECK(pieces ? split.pieces >= 2 : split.pieces == 0);
        }
}

#define PIECES_BODY "$enddefinitions $end\n#0\n$dumpvars 1! b1010 \" 0# $end\n#5\n0!\n"

static void test_header_pieces(void)
{
#define USUAL                                                                               \
        "$date x $end\n$timescale 1ns $end\n$scope module tb $end\n"                          \
        "$var wire 1 ! clk $end\n  $var reg 4 \" v [3:0] $end\n"                              \
        "$scope module dut $end $var wire 1 # \\a[0] $end $var wire 1 ! clk2 $end\n"            \
        "$var real 64 $ r $end\n$var wire 2 % w[1:0] $end\t\r\n$upscope $end\n"                \
        "$var integer 32 & count $end\n$upscope $end\n"
    expect_pieces_same(USUAL PIECES_BODY, NULL, true);
    expect_pieces_same(USUAL PIECES_BODY, "tb/dut", true);
    expect_pieces_same(USUAL PIECES_BODY, "tb/nothere", true);
    /* the lines counted in pieces go on after the header: a message in the
     * changes, or at $enddefinitions' $end, has its line and column */
    expect_pieces_same(USUAL "$enddefinitions $end\n#0\n1!\n#5\n?x\n", NULL, true);
    expect_pieces_same(USUAL "  $enddefinitions $end #0\n1!\n#5\n 1?\n", NULL, true);
    expect_pieces_same(USUAL "\t$enddefinitions $nd\n#0\n", NULL, true);
    /* a comment, a $var across lines: word by word */
    expect_pieces_same("$timescale 1ns $end\n$scope module tb $end\n$var wire 1 ! a $end\n"
                       "$comment $var wire 1 \" b $end $end\n$upscope $end\n" PIECES_BODY,
                       NULL, false);
    expect_pieces_same("$timescale 1ns $end\n$scope module tb $end\n$var wire 1 ! a $end\n"
                       "$var wire 1 \" b\n$end\n$upscope $end\n" PIECES_BODY, NULL, false);
    /* messages from the declarations, at their places */
    static const char *const bad[] = {
        "$var wire 0 \" b $end\n", "$var wire 4 \" b [2:0] $end\n",
        "$var wire 1 \" b [x] $end\n", "$var wire 2 ! b $end\n", "$upscope $end $upscope $end\n",
        "$var wire 1 \" $end\n", "$scope module $end\n", "$var wire 1 \" b\001 $end\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "$timescale 1ns $end\n$scope module tb $end\n$var wire 1 ! a $end\n%s"
                 "$var wire 1 # c $end\n$upscope $end\n" PIECES_BODY, bad[i]);
        expect_pieces_same(text, NULL, i < 5);
        static reading alone;
        read_with(text, NULL, 1, 0, 0, &alone);
        CHECK(alone.st != GP_OK && strstr(alone.messages, "p.vcd:4:") != NULL);
    }
}

/* A sink that folds every var it is given into a hash (a large header's
 * log would not fit vcd_record's). */
typedef struct var_digest {
    uint64_t hash;
    uint32_t vars, ids, pieces;
} var_digest;

static void digest_add(var_digest *g, const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        g->hash = (g->hash ^ ((const unsigned char *)p)[i]) * 0x100000001b3ULL;
}

static gp_status digest_var(void *ctx, const vcd_var *v)
{
    var_digest *g = ctx;
    char name[256];
    int n = vcd_bit_name(v, v->width - 1, name, sizeof name);
    digest_add(g, name, (size_t)n);
    digest_add(g, &v->id, sizeof v->id);
    digest_add(g, &v->width, sizeof v->width);
    g->vars++;
    return GP_OK;
}

static gp_status digest_start(void *ctx, const vcd_info *info)
{
    var_digest *g = ctx;
    g->ids = info->id_count;
    g->pieces = info->header_pieces;
    return GP_OK;
}

static var_digest read_digest(const char *text, size_t len, uint32_t threads)
{
    var_digest g = {.hash = 0xcbf29ce484222325ULL};
    vcd_sink sink = {.ctx = &g, .var = digest_var, .start = digest_start};
    vcd_options opt = {.threads = threads, .chunk_size = (size_t)1 << 20};
    diag_ctx *d = diag_new(stderr);
    CHECK_EQ_INT(vcd_read_memory("big.vcd", text, len, &opt, &sink, d), GP_OK);
    diag_free(d);
    return g;
}

/* A header of 200 000 vars (about 5 MB, read in 1 MiB chunks): in pieces
 * of the default size on four threads, the same vars as word by word; on
 * three, word by word (too few pieces to pay). */
static void test_header_pieces_large(void)
{
    size_t vars = 200000, at = 0;
    char *text = malloc(vars * 48 + 256);
    if (!text)
        return;
    at += (size_t)sprintf(text, "$timescale 1ps $end\n$scope module top $end\n");
    for (size_t k = 0; k < vars; k++) {
        char code[8];
        size_t n = 0;
        for (size_t v = k; n == 0 || v > 0; v /= 94)
            code[n++] = (char)('!' + v % 94);
        code[n] = '\0';
        at += (size_t)sprintf(text + at, k % 7 ? "$var wire 1 %s n%zu $end\n"
                                               : "$var wire 4 %s b%zu [3:0] $end\n", code, k);
    }
    at += (size_t)sprintf(text + at, "$upscope $end\n$enddefinitions $end\n#0\n#1\n");
    var_digest one = read_digest(text, at, 1), four = read_digest(text, at, 4);
    CHECK_EQ_INT(one.pieces, 0);
    CHECK_EQ_INT(read_digest(text, at, 3).pieces, 0);
    CHECK_EQ_INT(four.pieces, 4);
    CHECK_EQ_INT(four.vars, vars);
    CHECK_EQ_INT(four.ids, one.ids);
    CHECK(four.hash == one.hash);
    free(text);
}

int main(void)
{
    RUN(test_basic);
    RUN(test_timescales);
    RUN(test_last_time);
    RUN(test_scope_selection);
    RUN(test_aliases);
    RUN(test_vectors);
    RUN(test_dumpoff);
    RUN(test_names);
    RUN(test_codes);
    RUN(test_skipped_vars);
    RUN(test_files);
    RUN(test_sink_failure);
    RUN(test_many_changes);
    RUN(test_bit_name);
    RUN(test_errors_changes);
    RUN(test_errors_header);
    RUN(test_mismatched_scope);
    RUN(test_missing_file);
    RUN(test_no_final_newline);
    RUN(test_deep_scopes);
    RUN(test_header_pieces);
    RUN(test_header_pieces_large);
    return check_exit_code();
}
