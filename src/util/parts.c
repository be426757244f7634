/* parts.c: loops cut into parts on threads (parts.h). */
#include "util/parts.h"

#include <pthread.h>
#include <stdbool.h>
#include <unistd.h>

#include "util/mem.h"

uint32_t parts_for(uint64_t n, uint32_t max)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t parts = cores < 1 ? 1 : (uint64_t)cores;
    parts = parts < max ? parts : max;
    parts = parts < n / PARTS_MIN_ITEMS ? parts : n / PARTS_MIN_ITEMS;
    return parts < 1 ? 1 : (uint32_t)parts;
}

typedef struct parts_job {
    parts_fn *fn;
    void *ctx;
    uint32_t part, parts;
    pthread_t thread;
    bool started;
} parts_job;

static void *parts_main(void *arg)
{
    parts_job *job = arg;
    job->fn(job->ctx, job->part, job->parts);
    return NULL;
}

void parts_run(parts_fn *fn, void *ctx, uint32_t parts)
{
    parts = parts < 1 ? 1 : parts;
    /* Without room for the threads' records every part runs here. */
    parts_job *job = parts > 1 ? mem_calloc(parts, sizeof *job) : NULL;
    for (uint32_t k = 1; job && k < parts; k++) {
        job[k] = (parts_job){.fn = fn, .ctx = ctx, .part = k, .parts = parts};
        job[k].started = pthread_create(&job[k].thread, NULL, parts_main, &job[k]) == 0;
    }
    fn(ctx, 0, parts);
    for (uint32_t k = 1; k < parts; k++) {
        if (job && job[k].started)
            pthread_join(job[k].thread, NULL);
        else
            fn(ctx, k, parts);
    }
    mem_free(job);
}
