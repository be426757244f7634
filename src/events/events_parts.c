/* events_parts.c: the event store from a dump read in parts: on threads
 * (VCD, .vcd.gz and FST files, vcd.h), or one part in file order.
 *
 * Each part's changes go, as they are read, into one bucket per range of
 * nets (4 bytes a change, plus an 8-byte run for each of the part's times
 * the bucket sees; the times themselves once per part).  The store is
 * then built range by range, the ranges shared out to the threads: a first
 * pass walks the range's buckets in part order and drops each change that
 * repeats its net's value before it (the first change of a bit in a part,
 * vcd.h), counting what is left per net; after the offsets, a second pass
 * writes the changes left to their nets' places.  Both keep the file order
 * within a net, so the store is the one a reading in file order builds. */
#include <stdatomic.h>
#include <string.h>

#include "events/events_int.h"
#include "util/mem.h"
#include "util/parts.h"

#define EVENTS_AHEAD 16 /* changes whose table lines are fetched ahead */

void events_parts_init(collector *c, uint32_t threads)
{
    uint32_t last = c->dg->n_nets ? c->dg->n_nets - 1 : 0;
    c->threads = threads;
    c->range_shift = 0;
    uint64_t want = (uint64_t)threads * EVENTS_RANGES_PER_THREAD;
    want = want > EVENTS_MIN_RANGES ? want : EVENTS_MIN_RANGES;
    want = want < EVENTS_MAX_RANGES ? want : EVENTS_MAX_RANGES;
    while ((last >> c->range_shift) + 1 > want)
        c->range_shift++;
    c->n_ranges = (last >> c->range_shift) + 1;
}

void events_parts_free(collector *c)
{
    for (size_t k = 0; c->bucket && k < (size_t)c->n_parts * c->n_ranges; k++) {
        vec_u32_free(&c->bucket[k].rec);
        vec_time_run_free(&c->bucket[k].runs);
    }
    for (uint32_t p = 0; c->part_times && p < c->n_parts; p++)
        vec_i64_free(&c->part_times[p]);
    mem_free(c->bucket);
    mem_free(c->part_times);
    c->bucket = NULL;
    c->part_times = NULL;
    c->n_parts = 0;
}

/* Room for parts [c->n_parts, n), what the first ones hold kept. */
static gp_status parts_grow(collector *c, uint32_t n)
{
    size_t had = (size_t)c->n_parts * c->n_ranges, want = (size_t)n * c->n_ranges;
    part_bucket *b = mem_realloc(c->bucket, want * sizeof *b);
    if (b)
        c->bucket = b;
    vec_i64 *t = b ? mem_realloc(c->part_times, n * sizeof *t) : NULL;
    if (!t)
        return events_no_memory(c);
    memset(b + had, 0, (want - had) * sizeof *b);
    memset(t + c->n_parts, 0, (n - c->n_parts) * sizeof *t);
    c->part_times = t;
    c->n_parts = n;
    return GP_OK;
}

gp_status events_parts_reset(collector *c, uint32_t n)
{
    events_parts_free(c);
    return parts_grow(c, n);
}

gp_status events_on_parts(void *ctx, uint32_t n)
{
    collector *c = ctx;
    if (c->bucket && n > c->n_parts)
        return parts_grow(c, n);
    return events_parts_reset(c, n ? n : 1);
}

/* One change of `net` at the part's time `tix` into its bucket of `row`. */
static inline bool bucket_push(const collector *c, part_bucket *row, uint32_t net,
                               uint8_t value, uint32_t tix)
{
    part_bucket *b = &row[net >> c->range_shift];
    time_run *last = b->runs.len ? &b->runs.data[b->runs.len - 1] : NULL;
    if (last && last->time == tix && last->count < UINT32_MAX)
        last->count++;
    else if (!vec_time_run_push(&b->runs, (time_run){1, tix}))
        return false;
    return vec_u32_push(&b->rec, net << 2 | value);
}

static void prefetch_slot_net(const collector *c, const vcd_change *ch)
{
    uint32_t slot = events_slot(c, ch->id, ch->bit);
    if (slot != DESIGN_NONE)
        __builtin_prefetch(&c->slot_net[slot]);
}

/* Called on the reading threads: no message (the reader falls back to one
 * thread, whose reading reports a lack of memory). */
gp_status events_on_part_changes(void *ctx, uint32_t part, int64_t time_fs, const vcd_change *ch,
                                 size_t n)
{
    collector *c = ctx;
    part_bucket *row = c->bucket + (size_t)part * c->n_ranges;
    vec_i64 *times = &c->part_times[part];
    if ((times->len == 0 || times->data[times->len - 1] != time_fs) &&
        (times->len == UINT32_MAX || !vec_i64_push(times, time_fs)))
        return GP_ERR_NOMEM;
    uint32_t tix = (uint32_t)(times->len - 1);
    for (size_t k = 0; k < n; k++) {
        /* Consecutive changes hit ids far apart: the tables' lines are
         * fetched ahead, the id's row first and then its slot's net. */
        if (k + EVENTS_AHEAD < n)
            __builtin_prefetch(&c->slot0[ch[k + EVENTS_AHEAD].id]);
        if (k + EVENTS_AHEAD / 2 < n)
            prefetch_slot_net(c, &ch[k + EVENTS_AHEAD / 2]);
        uint32_t net = events_slot_net(c, ch[k].id, ch[k].bit);
        if (net == DESIGN_NONE)
            continue;
        if (!(net & EVENTS_ALIASED)) {
            if (!bucket_push(c, row, net, ch[k].value, tix))
                return GP_ERR_NOMEM;
            continue;
        }
        uint32_t a = net & ~EVENTS_ALIASED;
        for (uint32_t j = c->alias0[a]; j < c->alias0[a + 1]; j++)
            if (!bucket_push(c, row, c->alias_nets[j], ch[k].value, tix))
                return GP_ERR_NOMEM;
    }
    return GP_OK;
}

typedef struct parts_build parts_build;
struct parts_build {
    collector *c;
    events *ev;
    void (*pass)(parts_build *pb, uint32_t range); /* the pass now running */
    _Atomic uint32_t next_range; /* the next range a thread takes */
    uint8_t *last;           /* per net: its value so far (first pass) */
    uint64_t *fill;          /* per net: where its next event goes (second pass) */
    uint64_t *range_events;  /* per range: events kept, then the range's first event */
    uint32_t *range_active;  /* per range: nets with events */
};

static uint32_t range_begin(const collector *c, uint32_t range)
{
    return range << c->range_shift;
}

static uint32_t range_end(const collector *c, uint32_t range)
{
    uint64_t end = (uint64_t)(range + 1) << c->range_shift;
    return end < c->dg->n_nets ? (uint32_t)end : c->dg->n_nets;
}

/* First pass: marks the repeated changes and counts the rest, per net into
 * net_ev0[n + 1]. */
static void count_range(parts_build *pb, uint32_t range)
{
    collector *c = pb->c;
    uint64_t *count = pb->ev->net_ev0 + 1, kept = 0;
    for (uint32_t n = range_begin(c, range); n < range_end(c, range); n++)
        pb->last[n] = EVENTS_X, count[n] = 0;
    for (uint32_t p = 0; p < c->n_parts; p++) {
        vec_u32 *rec = &c->bucket[(size_t)p * c->n_ranges + range].rec;
        for (size_t k = 0; k < rec->len; k++) {
            uint32_t net = rec->data[k] >> 2;
            uint8_t v = rec->data[k] & 3;
            if (v == pb->last[net]) {
                rec->data[k] |= EVENTS_PART_DROPPED;
                continue;
            }
            pb->last[net] = v;
            count[net]++;
            kept++;
        }
    }
    pb->range_events[range] = kept;
}

/* Second pass: the range's offsets, then its events in their places. */
static void fill_range(parts_build *pb, uint32_t range)
{
    collector *c = pb->c;
    events *ev = pb->ev;
    uint64_t at = pb->range_events[range];
    uint32_t active = 0;
    for (uint32_t n = range_begin(c, range); n < range_end(c, range); n++) {
        uint64_t count = ev->net_ev0[n + 1];
        active += count > 0;
        pb->fill[n] = at;
        at += count;
        ev->net_ev0[n + 1] = at;
    }
    pb->range_active[range] = active;
    for (uint32_t p = 0; p < c->n_parts; p++) {
        part_bucket *b = &c->bucket[(size_t)p * c->n_ranges + range];
        const int64_t *times = c->part_times[p].data;
        for (size_t j = 0, k = 0; j < b->runs.len; j++) {
            int64_t t = times[b->runs.data[j].time];
            for (size_t end = k + b->runs.data[j].count; k < end; k++) {
                uint32_t r = b->rec.data[k];
                if ((r & 3) == EVENTS_PART_DROPPED)
                    continue;
                uint64_t i = pb->fill[r >> 2]++;
                ev->time_fs[i] = t;
                ev->value[i] = (uint8_t)(r & 3);
            }
        }
        vec_u32_free(&b->rec);
        vec_time_run_free(&b->runs);
    }
}

/* A thread of a pass: takes ranges until none is left. */
static void pass_thread(void *ctx, uint32_t thread, uint32_t threads)
{
    (void)thread, (void)threads;
    parts_build *pb = ctx;
    for (uint32_t r; (r = atomic_fetch_add(&pb->next_range, 1)) < pb->c->n_ranges;)
        pb->pass(pb, r);
}

/* Runs a pass over every range on the reading's threads. */
static void run_pass(parts_build *pb, void (*pass)(parts_build *pb, uint32_t range))
{
    pb->pass = pass;
    atomic_store(&pb->next_range, 0);
    uint32_t threads = pb->c->threads < pb->c->n_ranges ? pb->c->threads : pb->c->n_ranges;
    parts_run(pass_thread, pb, threads);
}

static gp_status parts_store_alloc(parts_build *pb)
{
    events *ev = pb->ev;
    uint64_t total = 0;
    for (uint32_t r = 0; r < pb->c->n_ranges; r++) {
        uint64_t kept = pb->range_events[r];
        pb->range_events[r] = total;
        total += kept;
    }
    ev->n_events = total;
    ev->time_fs = mem_alloc((total ? total : 1) * sizeof *ev->time_fs);
    ev->value = mem_alloc(total ? total : 1);
    pb->fill = mem_alloc((ev->n_nets ? ev->n_nets : 1) * sizeof *pb->fill);
    return ev->time_fs && ev->value && pb->fill ? GP_OK : events_no_memory(pb->c);
}

gp_status events_parts_store(collector *c, events *ev)
{
    ev->n_nets = c->dg->n_nets;
    ev->end_fs = c->end_fs;
    parts_build pb = {.c = c, .ev = ev};
    atomic_init(&pb.next_range, 0);
    ev->net_ev0 = mem_calloc((size_t)ev->n_nets + 1, sizeof *ev->net_ev0);
    pb.last = mem_alloc(ev->n_nets ? ev->n_nets : 1);
    pb.range_events = mem_calloc(c->n_ranges, sizeof *pb.range_events);
    pb.range_active = mem_calloc(c->n_ranges, sizeof *pb.range_active);
    gp_status st = ev->net_ev0 && pb.last && pb.range_events && pb.range_active
                       ? GP_OK
                       : events_no_memory(c);
    if (st == GP_OK) {
        run_pass(&pb, count_range);
        mem_free(pb.last);
        pb.last = NULL;
        st = parts_store_alloc(&pb);
    }
    if (st == GP_OK) {
        run_pass(&pb, fill_range);
        for (uint32_t r = 0; r < c->n_ranges; r++)
            c->stats->nets_with_activity += pb.range_active[r];
    }
    mem_free(pb.last);
    mem_free(pb.fill);
    mem_free(pb.range_events);
    mem_free(pb.range_active);
    return st;
}
