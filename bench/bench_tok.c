/* bench_tok.c: throughput of the readers' shared input path (infile + tok) on
 * a generated structural Verilog netlist, plain and gzip-compressed.
 *
 * usage: bench_tok [MEGABYTES] [REPEATS]     (default 256 MB, 5 repeats)
 * Prints one line per input: size, median and best MB/s of uncompressed text.
 * The generated file is deleted afterwards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "util/progress.h"
#include "util/tok.h"

/* One instance of a yosys-style netlist line with named connections. */
static int netlist_line(char *buf, size_t size, long i)
{
    return snprintf(buf, size,
                    "  NAND2X1 _%ld_ (\n    .A(_%ld_),\n    .B(\\data_in[%ld] ),\n    .Y(_%ld_)\n  );\n",
                    i, i * 7 % 100003, i % 32, i + 1);
}

/* Writes about `bytes` of netlist text to `path`, gzip-compressed if `gz`. */
static int write_netlist(const char *path, size_t bytes, int gz)
{
    gzFile g = gz ? gzopen(path, "wb1") : NULL;
    FILE *f = gz ? NULL : fopen(path, "wb");
    if (!g && !f)
        return -1;
    char line[256];
    size_t written = 0;
    for (long i = 0; written < bytes; i++) {
        int n = netlist_line(line, sizeof line, i);
        if (gz)
            gzwrite(g, line, (unsigned)n);
        else
            fwrite(line, 1, (size_t)n, f);
        written += (size_t)n;
    }
    return gz ? gzclose(g) : fclose(f);
}

/* Tokenizes `path` once; returns seconds, or -1 on error.  *tokens counts. */
static double tokenize(const char *path, long *tokens, progress *bar)
{
    static const tok_config verilog = {.punct = "()[]{};:,.=#", .comments = TOK_COMMENT_C | TOK_COMMENT_CPP,
                                       .verilog_escapes = true, .quote = '"'};
    diag_ctx *d = diag_new(stderr);
    tok_lexer *lx;
    double start = progress_now_seconds();
    if (tok_open(path, &verilog, d, &lx) != GP_OK) {
        diag_free(d);
        return -1;
    }
    progress_begin(bar, "tokenizing", tok_size_hint(lx));
    tok t;
    long n = 0;
    while (tok_next(lx, &t) == GP_OK && t.kind != TOK_EOF) {
        if ((++n & 0xffff) == 0)
            progress_update(bar, tok_bytes_read(lx));
    }
    progress_end(bar);
    double seconds = t.kind == TOK_EOF ? progress_now_seconds() - start : -1;
    tok_close(lx);
    diag_free(d);
    *tokens = n;
    return seconds;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int measure(const char *label, const char *path, size_t text_bytes, int repeats)
{
    double seconds[64];
    long tokens = 0;
    progress bar;
    progress_init(&bar, stderr, true);
    for (int r = 0; r < repeats; r++)
        if ((seconds[r] = tokenize(path, &tokens, &bar)) < 0)
            return 1;
    qsort(seconds, (size_t)repeats, sizeof seconds[0], compare_doubles);
    double mb = (double)text_bytes / 1e6;
    printf("%-8s %8.1f MB %10ld tokens  median %7.1f MB/s  best %7.1f MB/s\n", label, mb, tokens,
           mb / seconds[repeats / 2], mb / seconds[0]);
    return 0;
}

int main(int argc, char **argv)
{
    size_t megabytes = argc > 1 ? (size_t)atol(argv[1]) : 256;
    int repeats = argc > 2 ? atoi(argv[2]) : 5;
    if (megabytes == 0 || repeats < 1 || repeats > 64) {
        fprintf(stderr, "usage: bench_tok [MEGABYTES>0] [REPEATS 1..64]\n");
        return 2;
    }
    char plain[] = "/tmp/gp_bench_tok_XXXXXX";
    int fd = mkstemp(plain);
    if (fd < 0)
        return 1;
    close(fd);
    char gz[sizeof plain + 3];
    snprintf(gz, sizeof gz, "%s.gz", plain);
    size_t bytes = megabytes * 1000000;
    int rc = write_netlist(plain, bytes, 0) || write_netlist(gz, bytes, 1);
    if (!rc)
        rc = measure("plain", plain, bytes, repeats) || measure("gzip", gz, bytes, repeats);
    unlink(plain);
    unlink(gz);
    return rc;
}
