/* parts.c: loops cut into parts on threads (parts.h). */
#include "util/parts.h"

#include <errno.h>
#include <stdbool.h>
#include <pthread.h>
#include <unistd.h>

#include "util/mem.h"

uint32_t parts_online_cores(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : (uint32_t)cores;
}

uint32_t parts_threads(uint32_t asked)
{
    return asked ? asked : parts_online_cores();
}

/* The first of offset[0 .. n) at or past `at` (n if none). */
static uint32_t first_at_least(const uint64_t *offset, uint32_t n, uint64_t at)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (offset[mid] < at)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void parts_range_by(const uint64_t *offset, uint32_t n, uint32_t part, uint32_t parts,
                    uint32_t *first, uint32_t *end)
{
    uint64_t whole = offset[n];
    *first = part ? first_at_least(offset, n, parts_begin(whole, part, parts)) : 0;
    *end = part + 1 < parts ? first_at_least(offset, n, parts_begin(whole, part + 1, parts)) : n;
}

uint32_t parts_for_items(uint64_t n, uint32_t max, uint64_t min_items)
{
    uint64_t parts = parts_online_cores(), most = n / (min_items ? min_items : 1);
    parts = parts < max ? parts : max;
    parts = parts < most ? parts : most;
    return parts < 1 ? 1 : (uint32_t)parts;
}

uint32_t parts_for(uint64_t n, uint32_t max)
{
    return parts_for_items(n, max, PARTS_MIN_ITEMS);
}

typedef struct parts_job {
    parts_fn *fn;
    void *ctx;
    uint32_t part, parts;
    pthread_t thread;
    int err;                  /* pthread_create's: 0 when the part has its thread */
} parts_job;

static void *parts_main(void *arg)
{
    parts_job *job = arg;
    job->fn(job->ctx, job->part, job->parts);
    return NULL;
}

/* The parts' threads' stacks: glibc keeps 40 MiB of freed stacks for the
 * next threads, five of its default 8 MiB ones, so that each run would map
 * most stacks anew (and unmap them after): every mapping holds the process's
 * memory map for writing and stalls the page faults of the threads running
 * meanwhile.  A part keeps its large data off the stack. */
#define PARTS_STACK_BYTES ((size_t)1 << 20)

parts_refused parts_run(parts_fn *fn, void *ctx, uint32_t parts)
{
    parts = parts < 1 ? 1 : parts;
    /* Without room for the threads' records every part runs here. */
    parts_job *job = parts > 1 ? mem_calloc(parts, sizeof *job) : NULL;
    pthread_attr_t attr;
    bool sized = job && pthread_attr_init(&attr) == 0;
    if (sized && pthread_attr_setstacksize(&attr, PARTS_STACK_BYTES) != 0) {
        pthread_attr_destroy(&attr);
        sized = false;
    }
    for (uint32_t k = 1; job && k < parts; k++) {
        job[k] = (parts_job){.fn = fn, .ctx = ctx, .part = k, .parts = parts};
        job[k].err = pthread_create(&job[k].thread, sized ? &attr : NULL, parts_main, &job[k]);
    }
    if (sized)
        pthread_attr_destroy(&attr);
    fn(ctx, 0, parts);
    parts_refused refused = {0, 0};
    for (uint32_t k = 1; k < parts; k++) {
        int err = job ? job[k].err : ENOMEM;
        if (err == 0) {
            pthread_join(job[k].thread, NULL);
            continue;
        }
        fn(ctx, k, parts);
        if (refused.parts++ == 0)
            refused.err = err;
    }
    mem_free(job);
    return refused;
}
