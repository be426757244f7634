/* bench_read.c: the activity reader's own rate: the design read first,
 * then the dump read into the event store (events_read) again and again,
 * with nothing beside it, as `gatepower info` never runs it (there the
 * design's files are read beside the dump, sharing the cores).
 *
 * usage: bench_read --lib L --netlist N --activity D --scope S
 *                   [--threads LIST] [--repeats R]
 *
 * For each thread count of LIST (comma-separated, default "0,1": 0 is one
 * per online core) the dump is read R times (default 3) after one read
 * that warms the page cache; each line gives the median wall seconds,
 * GB/s of the file and M changes/s (events in the store), and the median
 * of the reading's steps (events_stats: the header, the store's passes;
 * the rest is the names' binding to nets, at the header's end, and the
 * text in parts). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "design/design.h"
#include "events/events.h"
#include "liberty/liberty.h"
#include "util/mem.h"
#include "util/parts.h"
#include "util/progress.h"

#define BENCH_MAX_REPEATS 15

typedef struct read_args {
    const char *lib, *netlist, *activity, *scope, *threads;
    int repeats;
} read_args;

static int sort_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, sort_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static bool parse_args(int argc, char **argv, read_args *a)
{
    *a = (read_args){.threads = "0,1", .repeats = 3};
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *o = argv[i], *v = argv[i + 1];
        if (strcmp(o, "--lib") == 0)
            a->lib = v;
        else if (strcmp(o, "--netlist") == 0)
            a->netlist = v;
        else if (strcmp(o, "--activity") == 0)
            a->activity = v;
        else if (strcmp(o, "--scope") == 0)
            a->scope = v;
        else if (strcmp(o, "--threads") == 0)
            a->threads = v;
        else if (strcmp(o, "--repeats") == 0)
            a->repeats = atoi(v);
        else
            return false;
    }
    return argc % 2 == 1 && a->lib && a->netlist && a->activity && a->scope &&
           a->repeats >= 1 && a->repeats <= BENCH_MAX_REPEATS;
}

/* One read of the dump on `threads`; false after printing why. */
static bool read_once(const design *dg, const read_args *a, uint32_t threads, double *wall,
                      events_stats *st, uint64_t *changes, diag_ctx *d)
{
    events_options eo = {.scope = a->scope, .threads = threads};
    events *ev = NULL;
    double start = progress_now_seconds();
    gp_status s = events_read(dg, a->activity, &eo, &ev, st, d);
    *wall = progress_now_seconds() - start;
    if (s != GP_OK) {
        fprintf(stderr, "bench_read: reading %s failed\n", a->activity);
        return false;
    }
    *changes = ev->n_events;
    events_free(ev);
    return true;
}

/* The repeats on `threads`: one line. */
static bool measure(const design *dg, const read_args *a, uint32_t threads, double bytes,
                    diag_ctx *d)
{
    double wall[BENCH_MAX_REPEATS], header[BENCH_MAX_REPEATS], store[BENCH_MAX_REPEATS];
    events_stats st;
    uint64_t changes = 0;
    if (!read_once(dg, a, threads, &wall[0], &st, &changes, d)) /* the page cache warmed */
        return false;
    for (int r = 0; r < a->repeats; r++) {
        if (!read_once(dg, a, threads, &wall[r], &st, &changes, d))
            return false;
        header[r] = st.header_seconds;
        store[r] = st.store_seconds;
    }
    double w = median(wall, a->repeats);
    printf("threads %3u  %7.3f s  %6.3f GB/s  %7.1f M changes/s  header %.3f s, store %.3f s, "
           "binding and text %.3f s\n",
           threads ? threads : parts_online_cores(), w, bytes / w * 1e-9,
           (double)changes / w * 1e-6, median(header, a->repeats), median(store, a->repeats),
           w - median(header, a->repeats) - median(store, a->repeats));
    return true;
}

int main(int argc, char **argv)
{
    mem_release_freed_blocks(); /* the allocator as gatepower sets it */
    read_args a;
    if (!parse_args(argc, argv, &a)) {
        fprintf(stderr, "usage: bench_read --lib L --netlist N --activity D --scope S "
                        "[--threads LIST] [--repeats R (1-%d)]\n", BENCH_MAX_REPEATS);
        return 2;
    }
    diag_ctx *d = diag_new(stderr);
    lib_set *libs = lib_set_new();
    design *dg = NULL;
    const char *paths[] = {a.netlist};
    struct stat sb;
    bool ok = d && libs && stat(a.activity, &sb) == 0 && lib_read(libs, a.lib, d) == GP_OK &&
              design_read_netlist(&dg, libs, paths, 1, NULL, d) == GP_OK;
    if (ok)
        printf("bench_read: %s, %.3f GB, %u nets, %u online cores\n", a.activity,
               (double)sb.st_size * 1e-9, dg->n_nets, parts_online_cores());
    for (const char *t = a.threads; ok && *t; t += strcspn(t, ","), t += *t == ',')
        ok = measure(dg, &a, (uint32_t)atoi(t), (double)sb.st_size, d);
    design_free(dg);
    lib_set_free(libs);
    diag_free(d);
    return ok ? 0 : 1;
}
