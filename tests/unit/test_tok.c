/* test_tok.c: the shared tokenizer and its number helpers. */
#include <stdint.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "util/mem.h"
#include "util/progress.h"
#include "util/tok.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const tok_config liberty_cfg = {"(){}[];:,", TOK_COMMENT_C, false, true, '"'};
static const tok_config verilog_cfg = {"(){}[];:,=.#@", TOK_COMMENT_C | TOK_COMMENT_CPP, true,
                                       false, '"'};
static const tok_config hash_cfg = {"=;", TOK_COMMENT_HASH, false, false, 0};

static char tmpdir[] = "/tmp/gp_test_tok_XXXXXX";

typedef struct expect {
    tok_kind kind;
    const char *text;
    int line, col;
    unsigned flags;
} expect;

static bool same_text(const tok *t, const char *text, size_t len)
{
    return t->len == len && memcmp(t->text, text, len) == 0;
}

/* Lexes input[0..len) from memory and compares every token with want[]. */
static void check_tokens_n(const tok_config *cfg, const char *input, size_t len,
                           const expect *want, size_t n)
{
    diag_ctx *d = diag_new(NULL);
    tok_lexer *lx;
    CHECK_EQ_INT(tok_open_memory("in.txt", input, len, cfg, d, &lx), GP_OK);
    for (size_t i = 0; i < n; i++) {
        tok t;
        CHECK_EQ_INT(tok_next(lx, &t), GP_OK);
        bool ok = t.kind == want[i].kind && same_text(&t, want[i].text, strlen(want[i].text)) &&
                  t.line == want[i].line && t.col == want[i].col && t.flags == want[i].flags;
        CHECK(ok);
        if (!ok)
            fprintf(stderr,
                    "  token %zu: got kind %d '%.*s' %d:%d flags %u, want %d '%s' %d:%d flags %u\n",
                    i, t.kind, (int)t.len, t.text, t.line, t.col, t.flags, want[i].kind,
                    want[i].text, want[i].line, want[i].col, want[i].flags);
    }
    CHECK_EQ_INT(diag_error_count(d), 0);
    tok_close(lx);
    diag_free(d);
}

static void check_tokens(const tok_config *cfg, const char *input, const expect *want, size_t n)
{
    check_tokens_n(cfg, input, strlen(input), want, n);
}

static void test_kinds_lines_and_columns(void)
{
    static const char input[] = "cell (AND2) {\n"
                                "  area : 1.5;\n"
                                "\tfunction : \"A & B\";\n"
                                "}\n";
    static const expect want[] = {
        {TOK_WORD, "cell", 1, 1, 0},      {TOK_PUNCT, "(", 1, 6, 0},
        {TOK_WORD, "AND2", 1, 7, 0},      {TOK_PUNCT, ")", 1, 11, 0},
        {TOK_PUNCT, "{", 1, 13, 0},       {TOK_WORD, "area", 2, 3, 0},
        {TOK_PUNCT, ":", 2, 8, 0},        {TOK_WORD, "1.5", 2, 10, 0},
        {TOK_PUNCT, ";", 2, 13, 0},       {TOK_WORD, "function", 3, 2, 0},
        {TOK_PUNCT, ":", 3, 11, 0},       {TOK_STRING, "A & B", 3, 13, 0},
        {TOK_PUNCT, ";", 3, 20, 0},       {TOK_PUNCT, "}", 4, 1, 0},
        {TOK_EOF, "", 5, 1, 0},           {TOK_EOF, "", 5, 1, 0},
    };
    check_tokens(&liberty_cfg, input, want, COUNT(want));

    static const expect crlf[] = {{TOK_WORD, "a", 1, 1, 0}, {TOK_WORD, "b", 2, 1, 0},
                                  {TOK_PUNCT, "(", 2, 2, 0}, {TOK_EOF, "", 2, 3, 0}};
    check_tokens(&liberty_cfg, "a\r\nb(", crlf, COUNT(crlf));
    static const expect empty[] = {{TOK_EOF, "", 1, 1, 0}};
    check_tokens(&liberty_cfg, "", empty, COUNT(empty));
    static const char nul_input[] = "a\0b c";
    diag_ctx *d = diag_new(NULL);
    tok_lexer *lx;
    tok t;
    tok_open_memory(NULL, nul_input, 5, &liberty_cfg, d, &lx);
    tok_next(lx, &t);
    CHECK(t.kind == TOK_WORD && same_text(&t, "a\0b", 3));
    tok_next(lx, &t);
    CHECK(t.kind == TOK_WORD && same_text(&t, "c", 1) && t.col == 5);
    CHECK(tok_loc(lx, &t).file == NULL && tok_loc(lx, &t).col == 5);
    tok_close(lx);
    diag_free(d);
}

static void test_comments(void)
{
    static const expect c_and_cpp[] = {
        {TOK_WORD, "a", 1, 1, 0},         {TOK_WORD, "b", 2, 7, 0},
        {TOK_WORD, "e", 3, 1, 0},         {TOK_WORD, "top/u1/a", 3, 3, 0},
        {TOK_WORD, "x", 3, 12, 0},        {TOK_WORD, "y", 3, 18, 0},
        {TOK_WORD, "z", 4, 1, 0},         {TOK_PUNCT, "=", 4, 2, 0},
        {TOK_EOF, "", 4, 7, 0},
    };
    check_tokens(&verilog_cfg, "a /* x\n y */ b // c d\ne top/u1/a x/*c*/y//q\nz=/**/", c_and_cpp,
                 COUNT(c_and_cpp));

    static const expect hash[] = {
        {TOK_WORD, "x", 1, 1, 0}, {TOK_PUNCT, "=", 1, 3, 0}, {TOK_WORD, "1", 1, 5, 0},
        {TOK_WORD, "ab", 2, 1, 0}, {TOK_WORD, "d/*", 3, 1, 0}, {TOK_PUNCT, ";", 3, 4, 0},
        {TOK_EOF, "", 3, 9, 0},
    };
    check_tokens(&hash_cfg, "x = 1 # comment ; y\nab#c\nd/*;#end", hash, COUNT(hash));

    /* Liberty: only C comments; a double slash is part of a word. */
    static const expect lib[] = {{TOK_WORD, "a//b", 1, 1, 0}, {TOK_WORD, "c", 1, 10, 0},
                                 {TOK_EOF, "", 1, 11, 0}};
    check_tokens(&liberty_cfg, "a//b/*x*/c", lib, COUNT(lib));
}

static void test_verilog_escaped_identifiers(void)
{
    static const expect want[] = {
        {TOK_WORD, "bus[0]", 1, 1, TOK_F_ESCAPED}, {TOK_PUNCT, ",", 1, 9, 0},
        {TOK_WORD, "a+b/c\"d", 1, 11, TOK_F_ESCAPED}, {TOK_PUNCT, ")", 2, 1, 0},
        {TOK_WORD, "x", 2, 2, 0}, {TOK_PUNCT, ".", 2, 3, 0},
        {TOK_WORD, "end", 2, 4, TOK_F_ESCAPED}, {TOK_EOF, "", 2, 8, 0},
    };
    check_tokens(&verilog_cfg, "\\bus[0] , \\a+b/c\"d\n)x.\\end", want, COUNT(want));
}

static void test_liberty_continuations(void)
{
    static const expect want[] = {
        {TOK_WORD, "values", 1, 1, 0},   {TOK_PUNCT, "(", 1, 8, 0},
        {TOK_STRING, "1, 2", 1, 9, 0},   {TOK_PUNCT, ",", 1, 15, 0},
        {TOK_STRING, "3, 4", 2, 3, 0},   {TOK_PUNCT, ")", 2, 9, 0},
        {TOK_WORD, "abc", 3, 1, 0},      {TOK_WORD, "def", 4, 1, 0},
        {TOK_WORD, "a\\b", 4, 5, 0},     {TOK_WORD, "c", 5, 1, 0},
        {TOK_WORD, "\\x", 5, 3, 0},      {TOK_EOF, "", 5, 5, 0},
    };
    check_tokens(&liberty_cfg,
                 "values (\"1, 2\", \\\n  \"3, 4\")\nabc\\ \t\r\ndef a\\b \\  \nc \\x", want,
                 COUNT(want));
}

static void test_strings(void)
{
    static const expect want[] = {
        {TOK_STRING, "say \\\"hi\\\"", 1, 1, TOK_F_BACKSLASH},
        {TOK_WORD, "x", 1, 14, 0},
        {TOK_STRING, "a\nb", 1, 16, 0},
        {TOK_WORD, "c", 2, 4, 0},
        {TOK_STRING, "", 2, 5, 0},
        {TOK_STRING, "\\\\", 2, 7, TOK_F_BACKSLASH},
        {TOK_WORD, "w", 2, 11, 0},
        {TOK_STRING, "q", 2, 12, 0},
        {TOK_STRING, "s\\\nt", 2, 16, TOK_F_BACKSLASH},
        {TOK_EOF, "", 3, 3, 0},
    };
    check_tokens(&verilog_cfg, "\"say \\\"hi\\\"\" x \"a\nb\" c\"\"\"\\\\\"w\"q\" \"s\\\nt\"", want,
                 COUNT(want));
    static const expect no_quote[] = {{TOK_WORD, "\"a", 1, 1, 0}, {TOK_WORD, "b\"", 1, 4, 0}};
    check_tokens(&hash_cfg, "\"a b\"", no_quote, COUNT(no_quote));
}

/* --- the same tokens whatever the chunk size ----------------------------- */

typedef struct seen {
    tok t;
    char *text; /* a copy */
} seen;

static size_t collect(tok_lexer *lx, seen *out, size_t max, gp_status *last)
{
    size_t n = 0;
    tok t;
    do {
        *last = tok_next(lx, &t);
        if (n < max) {
            out[n].t = t;
            out[n].text = malloc(t.len + 1);
            memcpy(out[n].text, t.text, t.len);
            n++;
        }
    } while (t.kind != TOK_EOF && t.kind != TOK_ERROR);
    return n;
}

static void free_seen(seen *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(s[i].text);
}

static bool same_tokens(const seen *a, size_t na, const seen *b, size_t nb)
{
    if (na != nb)
        return false;
    for (size_t i = 0; i < na; i++) {
        const tok *x = &a[i].t, *y = &b[i].t;
        if (x->kind != y->kind || x->flags != y->flags || x->len != y->len ||
            x->line != y->line || x->col != y->col || memcmp(a[i].text, b[i].text, x->len) != 0)
            return false;
    }
    return true;
}

static char *tmp_path(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return path;
}

static void write_plain(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    fwrite(data, 1, len, f);
    fclose(f);
}

static void write_gz(const char *path, const char *data, size_t len)
{
    gzFile gz = gzopen(path, "wb");
    gzwrite(gz, data, (unsigned)len);
    gzclose(gz);
}

enum { MAX_SEEN = 200 };

/* Lexes `input` from memory, then from a plain and a gzip file read `chunk`
 * bytes at a time, for many chunk sizes: the tokens must not change. */
static void check_chunking(const tok_config *cfg, const char *input, size_t len,
                           gp_status want_status)
{
    static seen ref[MAX_SEEN], got[MAX_SEEN];
    diag_ctx *d = diag_new(NULL);
    tok_lexer *lx;
    gp_status ref_status, got_status;
    tok_open_memory("mem", input, len, cfg, d, &lx);
    size_t nref = collect(lx, ref, MAX_SEEN, &ref_status);
    tok_close(lx);
    CHECK_EQ_INT(ref_status, want_status);
    CHECK(nref > 10 && nref < MAX_SEEN);

    static const size_t chunks[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 16, 17, 64, 1000, 0};
    for (int gz = 0; gz < 2; gz++) {
        const char *path = tmp_path(gz ? "chunk.gz" : "chunk.txt");
        if (gz)
            write_gz(path, input, len);
        else
            write_plain(path, input, len);
        for (size_t i = 0; i < COUNT(chunks); i++) {
            CHECK_EQ_INT(tok_open(path, cfg, d, &lx), GP_OK);
            if (chunks[i])
                tok_set_chunk_size(lx, chunks[i]);
            size_t n = collect(lx, got, MAX_SEEN, &got_status);
            bool same = same_tokens(ref, nref, got, n) && got_status == ref_status;
            CHECK(same);
            if (!same)
                fprintf(stderr, "  differs with chunk %zu, gzip %d\n", chunks[i], gz);
            if (want_status == GP_OK)
                CHECK(tok_bytes_read(lx) == tok_size_hint(lx) && tok_size_hint(lx) > 0);
            tok_close(lx);
            free_seen(got, n);
        }
        unlink(path);
    }
    free_seen(ref, nref);
    diag_free(d);
}

static char *repeat(char c, size_t n)
{
    char *s = malloc(n + 1);
    memset(s, c, n);
    s[n] = '\0';
    return s;
}

static void test_chunk_boundaries(void)
{
    char *long_word = repeat('w', 5000), *long_string = repeat('s', 3000);
    size_t cap = 20000;
    char *v = malloc(cap), *lib = malloc(cap);
    int vlen = snprintf(v, cap,
                        "module top (a, b);\n"
                        "  // line comment with \"quote\" and /* inside\n"
                        "  wire \\bus[0] , \\a+b/c ;  /* block\n comment ** / */ assign x=y;\n"
                        "  top/u1/%s (.A(\"str \\\" esc\"), .B(/**/n2));\n"
                        "  \"multi\nline %s string\" $display#5@(posedge clk);\r\n"
                        "endmodule",
                        long_word, long_string);
    check_chunking(&verilog_cfg, v, (size_t)vlen, GP_OK);
    int llen = snprintf(lib, cap,
                        "library (lib) {\n"
                        "  /* header */ time_unit : \"1ns\" ;\n"
                        "  values (\"0.1, 0.2\", \\\n   \"0.3, 0.4\"); \\  \n"
                        "  a\\b c\\\nd \"x\\\\\" e // not a comment\n"
                        "  %s : \"%s\" ;\n"
                        "}\n",
                        long_word, long_string);
    check_chunking(&liberty_cfg, lib, (size_t)llen, GP_OK);
    lib[llen - 4] = '"'; /* the final ';' becomes a string that never ends */
    check_chunking(&liberty_cfg, lib, (size_t)llen, GP_ERR_PARSE);
    free(v);
    free(lib);
    free(long_word);
    free(long_string);
}

/* tok_next's text survives a tok_peek, even when the peek refills. */
static void test_peek_keeps_the_current_text(void)
{
    const char *path = tmp_path("peek.v");
    write_plain(path, "alpha (beta\n  gamma", 19);
    diag_ctx *d = diag_new(NULL);
    tok_lexer *lx;
    tok a, p, b;
    CHECK_EQ_INT(tok_open(path, &verilog_cfg, d, &lx), GP_OK);
    tok_set_chunk_size(lx, 1);
    CHECK_EQ_INT(tok_next(lx, &a), GP_OK);
    CHECK_EQ_INT(tok_peek(lx, &p), GP_OK);
    CHECK(tok_is_punct(&p, '('));
    CHECK_EQ_INT(tok_peek(lx, &p), GP_OK);
    CHECK(tok_text_is(&a, "alpha"));
    CHECK_EQ_INT(tok_next(lx, &b), GP_OK);
    CHECK(tok_is_punct(&b, '(') && b.col == 7);
    tok_next(lx, &b);
    tok_peek(lx, &p);
    CHECK(tok_text_is(&b, "beta") && b.line == 1 && b.col == 8);
    CHECK(tok_text_is(&p, "gamma") && p.line == 2 && p.col == 3);
    tok_next(lx, &b);
    CHECK(tok_text_is(&b, "gamma"));
    CHECK(!tok_text_is(&b, "gamm") && !tok_is_punct(&b, 'g'));
    tok_peek(lx, &p);
    CHECK(p.kind == TOK_EOF);
    CHECK(tok_text_is(&b, "gamma"));
    tok_next(lx, &b);
    CHECK(b.kind == TOK_EOF);
    diag_loc loc = tok_loc(lx, &a);
    CHECK_EQ_STR(loc.file, path);
    CHECK(loc.line == 1 && loc.col == 1);
    tok_close(lx);

    /* "two" lies mid-buffer when the peek at "three" refills. */
    write_plain(path, "one two three four", 18);
    CHECK_EQ_INT(tok_open(path, &verilog_cfg, d, &lx), GP_OK);
    tok_set_chunk_size(lx, 8);
    tok_next(lx, &a);
    tok_next(lx, &a);
    tok_peek(lx, &p);
    CHECK(tok_text_is(&a, "two") && tok_text_is(&p, "three"));
    tok_next(lx, &a);
    tok_peek(lx, &p);
    CHECK(tok_text_is(&a, "three") && tok_text_is(&p, "four"));
    tok_close(lx);
    diag_free(d);
    unlink(path);
}

/* --- errors -------------------------------------------------------------- */

/* Lexes until the first error: its message number, line and column. */
static void check_error(const tok_config *cfg, const char *input, int good_tokens, int msgno,
                        int line, int col)
{
    diag_ctx *d = diag_new(NULL);
    tok_lexer *lx;
    tok t;
    tok_open_memory("t.lib", input, strlen(input), cfg, d, &lx);
    for (int i = 0; i < good_tokens; i++)
        CHECK_EQ_INT(tok_next(lx, &t), GP_OK);
    CHECK_EQ_INT(tok_peek(lx, &t), GP_ERR_PARSE);
    CHECK_EQ_INT(t.kind, TOK_ERROR);
    CHECK_EQ_INT(tok_next(lx, &t), GP_ERR_PARSE);
    CHECK_EQ_INT(t.kind, TOK_ERROR);
    CHECK_EQ_INT(t.line, line);
    CHECK_EQ_INT(t.col, col);
    CHECK_EQ_INT(tok_next(lx, &t), GP_ERR_PARSE); /* sticks, without a second message */
    CHECK_EQ_INT(t.kind, TOK_ERROR);
    CHECK_EQ_INT(diag_error_count(d), 1);
    CHECK_EQ_INT(diag_first_error_no(d), msgno);
    char where[64];
    snprintf(where, sizeof where, "t.lib:%d:%d: error %d: ", line, col, msgno);
    CHECK(strstr(diag_first_error_text(d), where) != NULL);
    if (!strstr(diag_first_error_text(d), where))
        fprintf(stderr, "  message: %s\n", diag_first_error_text(d));
    tok_close(lx);
    diag_free(d);
}

/* A view lexes in place from a given start, with the lines, columns and
 * offsets of the whole text; two views of one text run side by side. */
static void test_views(void)
{
    static const char text[] = "a b\n  \\esc \"str\" c\nd";
    size_t len = sizeof text - 1;
    diag_ctx *d = diag_new(stderr);
    tok_lexer *whole, *tail;
    CHECK_EQ_INT(tok_open_view("v", text, len, (tok_start){0, 1, 0}, &verilog_cfg, d, &whole),
                 GP_OK);
    CHECK_EQ_INT(tok_open_view("v", text, len, (tok_start){4, 2, 4}, &verilog_cfg, d, &tail),
                 GP_OK);
    tok t, u;
    CHECK_EQ_INT(tok_next(whole, &t), GP_OK);
    CHECK(same_text(&t, "a", 1) && t.text == text);
    CHECK_EQ_INT(tok_text_offset(whole, &t), 0);
    CHECK_EQ_INT(tok_next(tail, &u), GP_OK); /* the escaped name: text after the backslash */
    CHECK(same_text(&u, "esc", 3) && (u.flags & TOK_F_ESCAPED));
    CHECK_EQ_INT(u.line, 2);
    CHECK_EQ_INT(u.col, 3);
    CHECK_EQ_INT(tok_text_offset(tail, &u), 7);
    CHECK_EQ_INT(tok_next(tail, &u), GP_OK);
    CHECK(u.kind == TOK_STRING && same_text(&u, "str", 3));
    CHECK_EQ_INT(tok_text_offset(tail, &u), 12);
    CHECK_EQ_INT(tok_next(whole, &t), GP_OK);
    CHECK(same_text(&t, "b", 1));
    CHECK_EQ_INT(tok_next(tail, &u), GP_OK);
    CHECK_EQ_INT(tok_next(tail, &u), GP_OK);
    CHECK(same_text(&u, "d", 1) && u.line == 3 && u.col == 1);
    CHECK_EQ_INT(tok_next(tail, &u), GP_OK);
    CHECK(u.kind == TOK_EOF);
    CHECK_EQ_INT(tok_text_offset(tail, &u), len);
    tok_close(tail);
    tok_close(whole);
    CHECK_EQ_INT(diag_error_count(d), 0);
    diag_free(d);
}

static void test_errors(void)
{
    check_error(&liberty_cfg, "a \"abc\n def", 1, 1120, 1, 3);
    check_error(&liberty_cfg, "x\"\\", 1, 1120, 1, 2);
    check_error(&liberty_cfg, "x\n /* abc\n", 1, 1121, 2, 2);
    check_error(&verilog_cfg, "a /* * /", 1, 1121, 1, 3);
    check_error(&verilog_cfg, "a\n\n  b \\ c", 2, 1122, 3, 5);

    diag_ctx *d = diag_new(NULL);
    static int not_a_lexer;
    tok_lexer *lx = (tok_lexer *)&not_a_lexer;
    CHECK_EQ_INT(tok_open(tmp_path("missing.lib"), &liberty_cfg, d, &lx), GP_ERR_IO);
    CHECK(lx == NULL);
    CHECK_EQ_INT(diag_first_error_no(d), 1101);
    CHECK(strstr(diag_first_error_text(d), tmp_path("missing.lib")) != NULL);
    diag_free(d);
}

static void test_io_error_from_a_truncated_gzip(void)
{
    const char *path = tmp_path("cut.lib.gz");
    static char text[100000];
    for (size_t i = 0; i < sizeof text; i++)
        text[i] = i % 10 == 9 ? '\n' : (char)('a' + i % 7);
    write_gz(path, text, sizeof text);
    FILE *f = fopen(path, "rb");
    static char gz[200000];
    size_t n = fread(gz, 1, sizeof gz, f);
    fclose(f);
    write_plain(path, gz, n - 10);
    diag_ctx *d = diag_new(NULL);
    tok_lexer *lx;
    tok t;
    CHECK_EQ_INT(tok_open(path, &liberty_cfg, d, &lx), GP_OK);
    tok_set_chunk_size(lx, 4096);
    gp_status st;
    int words = 0;
    while ((st = tok_next(lx, &t)) == GP_OK && t.kind == TOK_WORD)
        words++;
    CHECK_EQ_INT(st, GP_ERR_IO);
    CHECK_EQ_INT(t.kind, TOK_ERROR);
    CHECK(words > 1000 && words <= 10000);
    CHECK_EQ_INT(diag_first_error_no(d), 1104);
    tok_close(lx);
    diag_free(d);
    unlink(path);
}

/* --- numbers ------------------------------------------------------------- */

static void test_numbers(void)
{
    static const struct {
        const char *text;
        double value;
    } good[] = {
        {"1.5e-3", 1.5e-3}, {"-0.2", -0.2}, {".5", 0.5},     {"5.", 5.0},
        {"+3", 3.0},        {"1E+2", 100.0}, {"0", 0.0},     {"-7.25E1", -72.5},
        {"1e-400", 0.0},    {"123456789012", 123456789012.0},
    };
    for (size_t i = 0; i < COUNT(good); i++) {
        double v = -1234.5;
        tok t = {TOK_WORD, 0, good[i].text, strlen(good[i].text), 1, 1};
        CHECK(tok_to_double(&t, &v));
        CHECK(v == good[i].value);
    }
    static const char *const bad[] = {"1.2.3", "1e999", "-1e999", "abc", "", "-", ".", "e5",
                                      "1e", "1e+", " 1", "1 ", "inf", "nan", "0x10", "1.5x",
                                      "+-1", "1..2"};
    for (size_t i = 0; i < COUNT(bad); i++) {
        double v = -1234.5;
        tok t = {TOK_WORD, 0, bad[i], strlen(bad[i]), 1, 1};
        CHECK(!tok_to_double(&t, &v));
        CHECK(v == -1234.5);
        if (tok_to_double(&t, &v))
            fprintf(stderr, "  accepted '%s'\n", bad[i]);
    }
    tok part = {TOK_WORD, 0, "2.5, 3", 3, 1, 1}; /* only the token's own bytes count */
    double v;
    CHECK(tok_to_double(&part, &v) && v == 2.5);
    CHECK(tok_parse_double("0.25, 1", 4, &v) && v == 0.25);

    int64_t x;
    CHECK(tok_parse_i64("123", 3, &x) && x == 123);
    CHECK(tok_parse_i64("+7", 2, &x) && x == 7);
    CHECK(tok_parse_i64("-0", 2, &x) && x == 0);
    CHECK(tok_parse_i64("9223372036854775807", 19, &x) && x == INT64_MAX);
    CHECK(tok_parse_i64("-9223372036854775808", 20, &x) && x == INT64_MIN);
    static const char *const bad_int[] = {"9223372036854775808", "-9223372036854775809",
                                          "99999999999999999999", "1.0", "12a", "", "+", "--1",
                                          "1e3", " 1"};
    for (size_t i = 0; i < COUNT(bad_int); i++) {
        x = 55;
        tok t = {TOK_WORD, 0, bad_int[i], strlen(bad_int[i]), 1, 1};
        CHECK(!tok_to_i64(&t, &x));
        CHECK_EQ_INT(x, 55);
    }
}

/* The value of text by strtod, which tok_parse_double must equal bit for
 * bit (its fast path for short decimals among them). */
static bool same_as_strtod(const char *text)
{
    double v = -1234.5, want = strtod(text, NULL);
    return tok_parse_double(text, strlen(text), &v) && memcmp(&v, &want, sizeof v) == 0;
}

static void test_numbers_round_as_strtod(void)
{
    static const char *const edges[] = {
        "9007199254740992", "9007199254740993", "-9007199254740993e-3", "1e22", "1e23",
        "9007199254740991e22", "1e-22", "3e-23", "-0", "-0.0e5", "0.1", "0.30000000000000004",
        "123.456e-20", "000000000000000000000012.5", "1234567890123456", "12345678901234567",
        "0.000000000000000000000000001", "5e-324", "2.2250738585072011e-308"};
    for (size_t i = 0; i < COUNT(edges); i++) {
        CHECK(same_as_strtod(edges[i]));
        if (!same_as_strtod(edges[i]))
            fprintf(stderr, "  '%s'\n", edges[i]);
    }
    uint64_t x = 88172645463325252u;
    int wrong = 0;
    for (int k = 0; k < 200000; k++) {
        char text[64];
        int at = 0;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        if (x & 1)
            text[at++] = '-';
        int digits = 1 + (int)((x >> 8) % 19), point = (int)((x >> 16) % (uint64_t)(digits + 2));
        for (int d = 0; d < digits; d++) {
            if (d == point)
                text[at++] = '.';
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            text[at++] = (char)('0' + x % 10);
        }
        if ((x >> 24) & 1)
            at += snprintf(text + at, sizeof text - (size_t)at, "e%d", (int)((x >> 32) % 60) - 30);
        text[at] = '\0';
        wrong += !same_as_strtod(text);
    }
    CHECK_EQ_INT(wrong, 0);
}

/* --- throughput (printed, not asserted) ----------------------------------- */

/* Lexes to the end; the number of tokens, or -1 on an error. */
static long count_tokens(tok_lexer *lx)
{
    long n = 0;
    tok t;
    while (tok_next(lx, &t) == GP_OK && t.kind != TOK_EOF)
        n++;
    return t.kind == TOK_EOF ? n : -1;
}

/* Fills buf with copies of `unit` (`unit_tokens` tokens each); the token count. */
static long fill_with(char *buf, size_t size, const char *unit, long unit_tokens, size_t *len)
{
    size_t unit_len = strlen(unit), n = size / unit_len;
    for (size_t i = 0; i < n; i++)
        memcpy(buf + i * unit_len, unit, unit_len);
    *len = n * unit_len;
    return (long)n * unit_tokens;
}

static void measure(const char *what, const tok_config *cfg, const char *unit, long unit_tokens)
{
    size_t size = (size_t)32 << 20, len;
    char *buf = malloc(size);
    long expected = fill_with(buf, size, unit, unit_tokens, &len);
    diag_ctx *d = diag_new(NULL);
    tok_lexer *lx;

    tok_open_memory("bench", buf, len, cfg, d, &lx);
    double t0 = progress_now_seconds();
    CHECK_EQ_INT(count_tokens(lx), expected);
    double t1 = progress_now_seconds();
    tok_close(lx);

    const char *path = tmp_path("bench.txt");
    write_plain(path, buf, len);
    CHECK_EQ_INT(tok_open(path, cfg, d, &lx), GP_OK);
    double t2 = progress_now_seconds();
    CHECK_EQ_INT(count_tokens(lx), expected);
    double t3 = progress_now_seconds();
    tok_close(lx);
    unlink(path);

    double mb = (double)len / 1e6;
    fprintf(stderr, "tok: %s, %.0f MB, %ld tokens: %.0f MB/s from memory, %.0f MB/s from a file\n",
            what, mb, expected, mb / (t1 - t0), mb / (t3 - t2));
    diag_free(d);
    free(buf);
}

static void test_throughput(void)
{
    measure("Verilog netlist", &verilog_cfg,
            "  NAND2_X1 u_12345 ( .A1(net_100001), .A2(net_100002), .ZN(n_77) );\n", 22);
    measure("Liberty", &liberty_cfg,
            "    pin (A) {\n      direction : input ;\n      capacitance : 0.00123 ;\n"
            "      timing () {\n        related_pin : \"B\" ;\n"
            "        values (\"0.0123, 0.0234, 0.0345\", \\\n"
            "                \"0.0456, 0.0567, 0.0678\") ;\n      }\n    }\n",
            30);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    mem_stats before = mem_get_stats();
    RUN(test_kinds_lines_and_columns);
    RUN(test_comments);
    RUN(test_verilog_escaped_identifiers);
    RUN(test_liberty_continuations);
    RUN(test_strings);
    RUN(test_chunk_boundaries);
    RUN(test_peek_keeps_the_current_text);
    RUN(test_views);
    RUN(test_errors);
    RUN(test_io_error_from_a_truncated_gzip);
    RUN(test_numbers);
    RUN(test_numbers_round_as_strtod);
    RUN(test_throughput);
    CHECK_EQ_INT(mem_get_stats().current_bytes, before.current_bytes);
    CHECK_EQ_INT(rmdir(tmpdir), 0);
    return check_exit_code();
}
