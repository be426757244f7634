/* bench_liberty.c: time of reading Liberty files (lib_read: infile + tok +
 * syntax layer + model), each into a fresh lib_set.
 *
 * usage: bench_liberty [-r REPEATS] FILE...      (default 5 repeats)
 * Prints one line per file: uncompressed text size, median and best seconds,
 * MB/s of uncompressed text at the median, cells read and the memory the
 * model holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "liberty/liberty.h"
#include "util/infile.h"
#include "util/mem.h"
#include "util/progress.h"

/* Bytes of the file's (decompressed) text, or 0 on error. */
static size_t text_bytes(const char *path, diag_ctx *d)
{
    infile *f;
    if (infile_open(path, d, &f) != GP_OK)
        return 0;
    static char buf[1 << 20];
    size_t total = 0, got;
    while (infile_read(f, buf, sizeof buf, &got) == GP_OK && got > 0)
        total += got;
    infile_close(f);
    return total;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int measure(const char *path, int repeats)
{
    diag_ctx *d = diag_new(stderr);
    size_t bytes = text_bytes(path, d);
    diag_free(d);
    double seconds[64];
    size_t cells = 0, model_bytes = 0;
    for (int r = 0; r < repeats && bytes > 0; r++) {
        d = diag_new(r == 0 ? stderr : NULL); /* the messages once, not per repeat */
        diag_set_warning_cap(d, 1);
        size_t before = mem_get_stats().current_bytes;
        lib_set *s = lib_set_new();
        double start = progress_now_seconds();
        gp_status st = lib_read(s, path, d);
        seconds[r] = progress_now_seconds() - start;
        cells = lib_cell_count(s);
        model_bytes = mem_get_stats().current_bytes - before;
        lib_set_free(s);
        diag_free(d);
        if (st != GP_OK)
            bytes = 0;
    }
    if (bytes == 0)
        return 1;
    qsort(seconds, (size_t)repeats, sizeof seconds[0], compare_doubles);
    double mb = (double)bytes / 1e6, median = seconds[repeats / 2];
    printf("%-40s %7.1f MB  median %6.3f s  best %6.3f s  %6.1f MB/s  %5zu cells  model %6.1f MB\n",
           path, mb, median, seconds[0], mb / median, cells, (double)model_bytes / 1e6);
    return 0;
}

int main(int argc, char **argv)
{
    int repeats = 5, first = 1;
    if (argc > 2 && strcmp(argv[1], "-r") == 0) {
        repeats = atoi(argv[2]);
        first = 3;
    }
    if (first >= argc || repeats < 1 || repeats > 64) {
        fprintf(stderr, "usage: bench_liberty [-r REPEATS 1..64] FILE...\n");
        return 2;
    }
    int rc = 0;
    for (int i = first; i < argc; i++)
        rc |= measure(argv[i], repeats);
    return rc;
}
