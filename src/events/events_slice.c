/* events_slice.c: a span of time of an event store as a store of its own,
 * laid out as a window of a stream (events_window): an engine whose memory
 * cannot hold a run's store runs its cycles in slices of such stores
 * (power_analyze_in_room).  The nets are cut among threads: a large store
 * is gigabytes to copy. */
#include "events/events.h"
#include "util/mem.h"
#include "util/parts.h"

#include <string.h>

typedef struct slice_job {
    const events *ev;
    int64_t from, to;
    events *out;
    uint64_t *lo;   /* per net: its first event in ev that the slice holds */
    uint64_t *sums; /* per part: its nets' events, then where they begin in out */
} slice_job;

static void count_part(void *ctx, uint32_t part, uint32_t parts)
{
    slice_job *job = ctx;
    uint32_t n0 = (uint32_t)parts_begin(job->ev->n_nets, part, parts);
    uint32_t n1 = (uint32_t)parts_begin(job->ev->n_nets, part + 1, parts);
    uint64_t sum = 0, hi;
    for (uint32_t n = n0; n < n1; n++) {
        events_span_of(job->ev, n, job->from, job->to, &job->lo[n], &hi);
        job->out->net_ev0[n] = sum; /* within the part, until copy_part */
        sum += hi - job->lo[n];
    }
    job->sums[part] = sum;
}

/* Copies the part's nets' events to where its offsets (still within the
 * part) say, then makes the offsets the store's. */
static void copy_part(void *ctx, uint32_t part, uint32_t parts)
{
    slice_job *job = ctx;
    uint32_t n0 = (uint32_t)parts_begin(job->ev->n_nets, part, parts);
    uint32_t n1 = (uint32_t)parts_begin(job->ev->n_nets, part + 1, parts);
    uint64_t *ev0 = job->out->net_ev0, base = job->sums[part];
    uint64_t end = (part + 1 < parts ? job->sums[part + 1] : job->out->n_events) - base;
    for (uint32_t n = n0; n < n1; n++) {
        uint64_t next = n + 1 < n1 ? ev0[n + 1] : end;
        memcpy(job->out->word + base + ev0[n], job->ev->word + job->lo[n],
               (next - ev0[n]) * sizeof *job->out->word);
    }
    for (uint32_t n = n0; n < n1; n++)
        ev0[n] += base;
}

events *events_slice(const events *ev, int64_t from, int64_t to)
{
    uint32_t parts = parts_for(ev->n_nets, 64);
    events *out = mem_calloc(1, sizeof *out);
    slice_job job = {ev, from, to, out, mem_alloc(((size_t)ev->n_nets + 1) * sizeof *job.lo),
                     mem_alloc(parts * sizeof *job.sums)};
    if (out)
        out->net_ev0 = mem_alloc(((size_t)ev->n_nets + 1) * sizeof *out->net_ev0);
    if (!out || !out->net_ev0 || !job.lo || !job.sums) {
        mem_free(job.lo);
        mem_free(job.sums);
        events_free(out);
        return NULL;
    }
    out->n_nets = ev->n_nets;
    out->end_fs = ev->end_fs;
    parts_run(count_part, &job, parts);
    for (uint32_t k = 0; k < parts; k++) {
        uint64_t events = job.sums[k];
        job.sums[k] = out->n_events;
        out->n_events += events;
    }
    out->net_ev0[ev->n_nets] = out->n_events;
    out->word = mem_alloc((out->n_events ? out->n_events : 1) * sizeof *out->word);
    if (out->word)
        parts_run(copy_part, &job, parts);
    mem_free(job.lo);
    mem_free(job.sums);
    if (!out->word) {
        events_free(out);
        return NULL;
    }
    return out;
}
