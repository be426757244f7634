/* events_parts.c: the event store from a dump read in parts: on threads
 * (VCD, .vcd.gz and FST files, vcd.h), or one part in file order.
 *
 * Each part's changes go, as they are read, into one bucket per range of
 * slots (a slot is a declared bit: 4 bytes a change, plus 8 for each of
 * the part's times the bucket sees; the times themselves once per part),
 * in blocks from the range's pool (events_bucket.c).  The store is then
 * built: a first pass, range by range on the threads, walks the range's
 * buckets in part order and drops each change that repeats its slot's
 * value before it (a part's changes may, vcd.h), counting what is left per
 * slot; it needs no design and runs while the netlist may still be read.
 * With the slots bound to nets, the nets' offsets follow in net order,
 * each net's count its slot's; a second pass over the ranges writes the
 * changes left to the places of their slots' nets.  Both keep the file
 * order within a slot, so the store is the one a reading in file order
 * builds.
 *
 * Streaming (events_stream), a store is built and given to the consumer
 * as a window whenever the changes held reach its bound, between batches
 * of parts or, read in file order, between two times; what the next
 * window needs of it (each net's value at keep_from and its changes from
 * there on) stays as the carry, which the next store starts with. */
#include <stdatomic.h>
#include <string.h>

#include "events/events_int.h"
#include "util/mem.h"
#include "util/parts.h"

#define EVENTS_AHEAD 16 /* changes whose table lines are fetched ahead */

void events_parts_init(collector *c)
{
    uint32_t last = c->n_slots ? c->n_slots - 1 : 0;
    uint64_t least = (uint64_t)c->threads * EVENTS_RANGES_PER_THREAD;
    c->range_shift = __builtin_ctz(EVENTS_RANGE_SLOTS);
    while (c->range_shift > 0 && (last >> c->range_shift) + 1 < least)
        c->range_shift--;
    while ((last >> c->range_shift) + 1 > EVENTS_MAX_RANGES)
        c->range_shift++;
    c->n_ranges = (last >> c->range_shift) + 1;
}

static const part_bucket empty_bucket = {.tix = EVENTS_NO_TIME};

/* The rows (buckets and times) of the first `rows` parts held; the rows
 * after them hold no change, so that every pool's blocks go. */
static void rows_free(collector *c, uint32_t rows)
{
    for (size_t k = 0; c->bucket && k < (size_t)rows * c->n_ranges; k++)
        c->bucket[k] = empty_bucket;
    for (uint32_t r = 0; c->pools && r < c->n_ranges; r++)
        events_pool_release(c, r);
    for (uint32_t p = 0; c->part_times && p < rows; p++)
        vec_i64_free(&c->part_times[p]);
}

static void carry_free(collector *c)
{
    mem_free(c->carry.net_ev0);
    mem_free(c->carry.word);
    c->carry = (events){0};
}

void events_parts_free(collector *c)
{
    rows_free(c, c->n_parts - c->part_base);
    carry_free(c);
    events_pools_free(c);
    mem_free(c->bucket);
    mem_free(c->part_times);
    c->bucket = NULL;
    c->part_times = NULL;
    c->part_base = c->n_parts = 0;
}

/* Room for parts [c->n_parts, n), what the first ones hold kept. */
static gp_status parts_grow(collector *c, uint32_t n)
{
    size_t rows = n - c->part_base, had_rows = c->n_parts - c->part_base;
    size_t had = had_rows * c->n_ranges, want = rows * c->n_ranges;
    if (!c->pools && events_pools_make(c) != GP_OK)
        return GP_ERR_NOMEM;
    part_bucket *b = mem_realloc(c->bucket, want * sizeof *b);
    if (b)
        c->bucket = b;
    vec_i64 *t = b ? mem_realloc(c->part_times, rows * sizeof *t) : NULL;
    if (!t)
        return events_no_memory(c);
    for (size_t k = had; k < want; k++)
        b[k] = empty_bucket;
    memset(t + had_rows, 0, (rows - had_rows) * sizeof *t);
    c->part_times = t;
    c->n_parts = n;
    return GP_OK;
}

/* After a window of the parts before `n`: their rows (emptied) go, the
 * rows of the parts from n on (empty as yet) come first. */
static void rows_drop(collector *c, uint32_t n)
{
    uint32_t gone = n - c->part_base, left = c->n_parts - n;
    rows_free(c, gone);
    memmove(c->bucket, c->bucket + (size_t)gone * c->n_ranges,
            (size_t)left * c->n_ranges * sizeof *c->bucket);
    memmove(c->part_times, c->part_times + gone, left * sizeof *c->part_times);
    c->part_base = n;
}

gp_status events_parts_reset(collector *c, uint32_t n)
{
    events_parts_free(c);
    c->carry_from = INT64_MIN;
    c->seq_part = 0;
    c->seq_changes = 0;
    c->seq_time = INT64_MIN;
    if (c->windows_given && c->consumer->restart)
        c->consumer->restart(c->consumer->ctx);
    c->windows_given = false;
    c->stats->windows = 0;
    return parts_grow(c, n);
}

gp_status events_on_parts(void *ctx, uint32_t n)
{
    collector *c = ctx;
    if (n == 0) { /* the whole dump follows, in file order */
        c->span_read = false;
        c->stats->span_bytes = 0;
    }
    if (c->bucket && n > c->n_parts)
        return parts_grow(c, n);
    return events_parts_reset(c, n ? n : 1);
}

/* One change of `slot` at the part's time `tix` into its bucket of `row`:
 * the last block has room for a time's two words and the change. */
static inline bool bucket_push(collector *c, part_bucket *row, uint32_t slot, uint8_t value,
                               uint32_t tix)
{
    uint32_t range = slot >> c->range_shift;
    part_bucket *b = &row[range];
    bucket_block *k = b->last;
    if ((!k || k->len > EVENTS_BLOCK_WORDS - 3) && !(k = events_bucket_block(c, range, b)))
        return false;
    if (b->tix != tix) {
        k->word[k->len++] = EVENTS_TIME_MARK;
        k->word[k->len++] = tix;
        b->tix = tix;
    }
    k->word[k->len++] = slot << 2 | value;
    return true;
}

/* Called on the reading threads: no message (the reader falls back to one
 * thread, whose reading reports a lack of memory). */
gp_status events_on_part_changes(void *ctx, uint32_t part, int64_t time_fs, const vcd_change *ch,
                                 size_t n)
{
    collector *c = ctx;
    if (events_stopped(c))
        return GP_ERR_INPUT; /* the reading in file order that follows stops at once */
    part_bucket *row = c->bucket + (size_t)(part - c->part_base) * c->n_ranges;
    vec_i64 *times = &c->part_times[part - c->part_base];
    if ((times->len == 0 || times->data[times->len - 1] != time_fs) &&
        (times->len == UINT32_MAX || !vec_i64_push(times, time_fs)))
        return GP_ERR_NOMEM;
    uint32_t tix = (uint32_t)(times->len - 1);
    for (size_t k = 0; k < n; k++) {
        /* Consecutive changes hit ids far apart: their table lines are
         * fetched ahead. */
        if (c->id_kept && k + EVENTS_AHEAD < n)
            __builtin_prefetch(&c->id_kept[ch[k + EVENTS_AHEAD].id]);
        uint32_t slot = events_change_slot(c, ch[k].id, ch[k].bit);
        if (slot != DESIGN_NONE && !bucket_push(c, row, slot, ch[k].value, tix))
            return GP_ERR_NOMEM;
    }
    return GP_OK;
}

gp_status events_on_part_times(void *ctx, uint32_t part, const int64_t *time_fs, size_t n)
{
    collector *c = ctx;
    vec_i64 *times = &c->part_times[part - c->part_base];
    if (!vec_i64_reserve(times, n))
        return GP_ERR_NOMEM;
    memcpy(times->data, time_fs, n * sizeof *time_fs);
    times->len = n;
    return GP_OK;
}

/* A run's words go in pieces, each with its header, in the blocks of the
 * slot's bucket. */
gp_status events_on_part_run(void *ctx, uint32_t part, uint32_t id, uint32_t bit,
                             const uint32_t *change, size_t n)
{
    collector *c = ctx;
    if (events_stopped(c))
        return GP_ERR_INPUT;
    uint32_t slot = events_change_slot(c, id, bit);
    if (slot == DESIGN_NONE)
        return GP_OK;
    uint32_t range = slot >> c->range_shift;
    part_bucket *b = &c->bucket[(size_t)(part - c->part_base) * c->n_ranges + range];
    while (n > 0) {
        bucket_block *k = b->last;
        if ((!k || k->len > EVENTS_BLOCK_WORDS - 4) && !(k = events_bucket_block(c, range, b)))
            return GP_ERR_NOMEM;
        uint32_t room = EVENTS_BLOCK_WORDS - k->len - 3;
        uint32_t m = n < room ? (uint32_t)n : room;
        k->word[k->len++] = EVENTS_RUN_MARK;
        k->word[k->len++] = slot;
        k->word[k->len++] = m;
        memcpy(k->word + k->len, change, m * sizeof *change);
        k->len += m;
        change += m;
        n -= m;
    }
    b->tix = EVENTS_NO_TIME; /* a change after the run starts with its time */
    return GP_OK;
}

typedef struct parts_build parts_build;
struct parts_build {
    collector *c;
    events *ev;
    void (*pass)(parts_build *pb, uint32_t range); /* the pass over the ranges now running */
    _Atomic uint32_t next_range; /* the next range a thread takes */
    uint8_t *last;          /* per slot: its value so far (first pass) */
    /* Per slot: its changes kept (first pass), then, for a slot bound to
     * one net, where its next event goes (second pass). */
    uint64_t *slot_fill;
    uint64_t *alias_fill;   /* per alias_nets entry: where its net's next event goes */
    events_edge *slot_edge; /* per slot: the edge of its changes held (span_edge) */
    uint32_t net_parts;     /* the nets' passes: parts of the nets */
    uint64_t *part_events;  /* per net part: its events, then its first event's place */
    uint32_t *part_active;  /* per net part: nets with events */
};

static uint32_t range_begin(const collector *c, uint32_t range)
{
    return range << c->range_shift;
}

static uint32_t range_end(const collector *c, uint32_t range)
{
    uint64_t end = (uint64_t)(range + 1) << c->range_shift;
    return end < c->n_slots ? (uint32_t)end : c->n_slots;
}

static uint32_t rows_held(const collector *c)
{
    return c->n_parts - c->part_base;
}

/* The carry's changes of net n: [*first, *end). */
static void carry_span(const collector *c, uint32_t n, uint64_t *first, uint64_t *end)
{
    bool any = c->carry.net_ev0 != NULL;
    *first = any ? c->carry.net_ev0[n] : 0;
    *end = any ? c->carry.net_ev0[n + 1] : 0;
}

/* The first net bound to slot s (DESIGN_NONE: none): its aliases' changes
 * are the same. */
static uint32_t slot_first_net(const collector *c, uint32_t s)
{
    uint32_t e = c->slot_net[s];
    if (e == DESIGN_NONE || !(e & EVENTS_ALIASED))
        return e;
    return c->alias_nets[c->alias0[e & ~EVENTS_ALIASED]];
}

/* The run at h (its header first) in the first pass: its repeats marked,
 * the rest counted; the words it takes. */
static uint32_t count_run(parts_build *pb, uint32_t *h)
{
    uint32_t slot = h[1], m = h[2], kept = 0;
    uint8_t last = pb->last[slot];
    for (uint32_t *w = h + 3; w < h + 3 + m; w++) {
        uint8_t v = *w & 3;
        if (v == last)
            *w |= EVENTS_PART_DROPPED;
        kept += v != last;
        last = v;
    }
    pb->last[slot] = last;
    pb->slot_fill[slot] += kept;
    return 3 + m;
}

/* Slot s's value before the parts: its net's last in the carry, else x. */
static uint8_t carried_value(const collector *c, uint32_t s)
{
    if (!c->carry.net_ev0)
        return EVENTS_X;
    uint32_t net = slot_first_net(c, s);
    uint64_t first = 0, end = 0;
    if (net != DESIGN_NONE)
        carry_span(c, net, &first, &end);
    return end > first ? events_value(&c->carry, end - 1) : EVENTS_X;
}

/* First pass: each slot's value from the carry, then the parts' changes:
 * marks the repeated ones and counts the rest, per slot, bound to a net
 * or not (the fill skips the unbound). */
static void count_range(parts_build *pb, uint32_t range)
{
    collector *c = pb->c;
    for (uint32_t s = range_begin(c, range); s < range_end(c, range); s++) {
        pb->last[s] = carried_value(c, s);
        pb->slot_fill[s] = 0;
    }
    for (uint32_t p = 0; p < rows_held(c); p++)
        for (bucket_block *b = c->bucket[(size_t)p * c->n_ranges + range].first; b; b = b->next)
            for (uint32_t k = 0; k < b->len; k++) {
                if (b->word[k] >= EVENTS_RUN_MARK) { /* a time's index follows, or a run */
                    k += b->word[k] == EVENTS_TIME_MARK ? 1 : count_run(pb, b->word + k) - 1;
                    continue;
                }
                uint32_t slot = b->word[k] >> 2;
                uint8_t v = b->word[k] & 3;
                if (v == pb->last[slot]) {
                    b->word[k] |= EVENTS_PART_DROPPED;
                    continue;
                }
                pb->last[slot] = v;
                pb->slot_fill[slot]++;
            }
}

/* Net n's events: the carry's and its slot's. */
static uint64_t net_count(const parts_build *pb, uint32_t n)
{
    const collector *c = pb->c;
    uint64_t first, end;
    carry_span(c, n, &first, &end);
    uint32_t s = c->net_slot[n];
    return end - first + (s != DESIGN_NONE ? pb->slot_fill[s] : 0);
}

/* Counts a part's nets' events (a parts_fn): net_ev0[n + 1] gets n's. */
static void count_nets(void *ctx, uint32_t part, uint32_t parts)
{
    parts_build *pb = ctx;
    uint32_t n_nets = pb->ev->n_nets;
    uint64_t total = 0;
    for (uint32_t n = (uint32_t)parts_begin(n_nets, part, parts);
         n < parts_begin(n_nets, part + 1, parts); n++) {
        pb->ev->net_ev0[n + 1] = net_count(pb, n);
        total += pb->ev->net_ev0[n + 1];
    }
    pb->part_events[part] = total;
}

/* Where net n's first change from the parts goes: `at`, the slot's
 * fill or its alias entry's. */
static void place_slot(parts_build *pb, uint32_t n, uint64_t at)
{
    const collector *c = pb->c;
    uint32_t s = c->net_slot[n];
    if (s == DESIGN_NONE)
        return;
    uint32_t e = c->slot_net[s];
    if (!(e & EVENTS_ALIASED)) {
        pb->slot_fill[s] = at;
        return;
    }
    uint32_t a = e & ~EVENTS_ALIASED;
    for (uint32_t j = c->alias0[a]; j < c->alias0[a + 1]; j++)
        if (c->alias_nets[j] == n)
            pb->alias_fill[j] = at;
}

/* A part's nets' offsets, the carry's events in their places, and where
 * the parts' changes go (a parts_fn). */
static void place_nets(void *ctx, uint32_t part, uint32_t parts)
{
    parts_build *pb = ctx;
    const collector *c = pb->c;
    events *ev = pb->ev;
    uint64_t at = pb->part_events[part];
    uint32_t active = 0;
    for (uint32_t n = (uint32_t)parts_begin(ev->n_nets, part, parts);
         n < parts_begin(ev->n_nets, part + 1, parts); n++) {
        uint64_t count = ev->net_ev0[n + 1], first, end;
        active += count > 0;
        carry_span(c, n, &first, &end);
        if (end > first)
            memcpy(ev->word + at, c->carry.word + first, (end - first) * sizeof *ev->word);
        place_slot(pb, n, at + (end - first));
        at += count;
        ev->net_ev0[n + 1] = at;
    }
    pb->part_active[part] = active;
}

/* A run's changes kept, from word[*at] on; *at moves past them. */
static void fill_run_at(uint64_t *word, uint64_t *at, const uint32_t *run, uint32_t m,
                        const int64_t *times)
{
    uint64_t *out = word + *at;
    for (const uint32_t *w = run; w < run + m; w++)
        if ((*w & 3) != EVENTS_PART_DROPPED)
            *out++ = events_pack(times[*w >> 2], (uint8_t)(*w & 3));
    *at = (uint64_t)(out - word);
}

/* The run at h (its header first) in the second pass, into its slot's
 * net or nets; the words it takes. */
static uint32_t fill_run(parts_build *pb, const uint32_t *h, const int64_t *times)
{
    const collector *c = pb->c;
    uint32_t slot = h[1], m = h[2], e = c->slot_net[slot];
    if (e == DESIGN_NONE)
        return 3 + m;
    if (!(e & EVENTS_ALIASED)) {
        fill_run_at(pb->ev->word, &pb->slot_fill[slot], h + 3, m, times);
        return 3 + m;
    }
    uint32_t a = e & ~EVENTS_ALIASED;
    for (uint32_t j = c->alias0[a]; j < c->alias0[a + 1]; j++)
        fill_run_at(pb->ev->word, &pb->alias_fill[j], h + 3, m, times);
    return 3 + m;
}

/* The store's words the range's slots' first nets take, mapped before
 * they are written, where they lie together (as where the dump declares
 * its bits in the design's order): mapped as the fill writes them, a fault
 * each page cost more; mapped from scattered places, they would be
 * resident before the buckets they come from are freed. */
static void populate_range(parts_build *pb, uint32_t range)
{
    const collector *c = pb->c;
    const uint64_t *net_ev0 = pb->ev->net_ev0;
    uint64_t lo = UINT64_MAX, hi = 0, words = 0;
    for (uint32_t s = range_begin(c, range); s < range_end(c, range); s++) {
        uint32_t n = slot_first_net(c, s);
        if (n == DESIGN_NONE || net_ev0[n + 1] == net_ev0[n])
            continue;
        lo = net_ev0[n] < lo ? net_ev0[n] : lo;
        hi = net_ev0[n + 1] > hi ? net_ev0[n + 1] : hi;
        words += net_ev0[n + 1] - net_ev0[n];
    }
    if (hi > lo && hi - lo <= 2 * words)
        mem_populate(pb->ev->word + lo, (hi - lo) * sizeof *pb->ev->word);
}

/* Second pass: the range's changes kept, in their nets' places. */
static void fill_range(parts_build *pb, uint32_t range)
{
    collector *c = pb->c;
    uint64_t *word = pb->ev->word;
    populate_range(pb, range);
    for (uint32_t p = 0; p < rows_held(c); p++) {
        part_bucket *bucket = &c->bucket[(size_t)p * c->n_ranges + range];
        const int64_t *times = c->part_times[p].data;
        int64_t t = 0;
        for (const bucket_block *b = bucket->first; b; b = b->next)
            for (uint32_t k = 0; k < b->len; k++) {
                uint32_t r = b->word[k];
                if (r >= EVENTS_RUN_MARK) {
                    if (r == EVENTS_TIME_MARK)
                        t = times[b->word[++k]];
                    else
                        k += fill_run(pb, b->word + k, times) - 1;
                    continue;
                }
                uint32_t e = c->slot_net[r >> 2];
                if ((r & 3) == EVENTS_PART_DROPPED || e == DESIGN_NONE)
                    continue;
                uint64_t packed = events_pack(t, (uint8_t)(r & 3));
                if (!(e & EVENTS_ALIASED)) {
                    word[pb->slot_fill[r >> 2]++] = packed;
                    continue;
                }
                uint32_t a = e & ~EVENTS_ALIASED;
                for (uint32_t j = c->alias0[a]; j < c->alias0[a + 1]; j++)
                    word[pb->alias_fill[j]++] = packed;
            }
        *bucket = empty_bucket;
    }
    /* unmapped once every range is written (rows_drop): unmapping waits
     * for, and then holds up, the other threads' page faults */
    events_pool_discard(c, range);
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

/* The nets' offsets and the store's words, from the slots' counts. */
static gp_status place_events(parts_build *pb)
{
    events *ev = pb->ev;
    parts_run(count_nets, pb, pb->net_parts);
    uint64_t total = 0;
    for (uint32_t p = 0; p < pb->net_parts; p++) {
        uint64_t events = pb->part_events[p];
        pb->part_events[p] = total;
        total += events;
    }
    ev->n_events = total;
    ev->word = mem_alloc((total ? total : 1) * sizeof *ev->word);
    if (!ev->word)
        return events_no_memory(pb->c);
    parts_run(place_nets, pb, pb->net_parts);
    return GP_OK;
}

static gp_status slots_alloc(parts_build *pb)
{
    uint32_t slots = pb->c->n_slots ? pb->c->n_slots : 1;
    pb->last = mem_alloc(slots);
    pb->slot_fill = mem_alloc(slots * sizeof *pb->slot_fill);
    return pb->last && pb->slot_fill ? GP_OK : events_no_memory(pb->c);
}

/* What the nets' passes need, the design bound. */
static gp_status nets_alloc(parts_build *pb)
{
    collector *c = pb->c;
    uint32_t alias_entries = c->alias0[c->aliases];
    pb->ev->net_ev0 = mem_calloc((size_t)pb->ev->n_nets + 1, sizeof *pb->ev->net_ev0);
    pb->alias_fill = mem_alloc((alias_entries ? alias_entries : 1) * sizeof *pb->alias_fill);
    pb->part_events = mem_alloc(pb->net_parts * sizeof *pb->part_events);
    pb->part_active = mem_alloc(pb->net_parts * sizeof *pb->part_active);
    bool all = pb->ev->net_ev0 && pb->alias_fill && pb->part_events && pb->part_active;
    return all ? GP_OK : events_no_memory(c);
}

static void build_free(parts_build *pb)
{
    mem_free(pb->last);
    mem_free(pb->slot_fill);
    mem_free(pb->alias_fill);
    mem_free(pb->part_events);
    mem_free(pb->part_active);
}

/* The first pass needs no design (a carry is held only once one is
 * bound): it runs while the design may still be on its way. */
gp_status events_parts_store(collector *c, events *ev)
{
    double start = progress_now_seconds(), waited = c->stats->design_wait_seconds;
    parts_build pb = {.c = c, .ev = ev};
    atomic_init(&pb.next_range, 0);
    gp_status st = slots_alloc(&pb);
    if (st == GP_OK)
        run_pass(&pb, count_range);
    if (st == GP_OK)
        st = events_bind(c);
    if (st == GP_OK) {
        ev->n_nets = c->dg->n_nets;
        ev->end_fs = c->end_fs;
        pb.net_parts = parts_for(ev->n_nets, c->threads);
        st = nets_alloc(&pb);
    }
    if (st == GP_OK)
        st = place_events(&pb);
    if (st == GP_OK) {
        run_pass(&pb, fill_range);
        c->stats->nets_with_activity = 0;
        for (uint32_t p = 0; p < pb.net_parts; p++)
            c->stats->nets_with_activity += pb.part_active[p];
    }
    build_free(&pb);
    c->stats->store_seconds += progress_now_seconds() - start -
                               (c->stats->design_wait_seconds - waited);
    return st;
}

/* Each of the range's slots' edge of the changes the parts hold, and its
 * last value in last[] (EVENTS_NO_VALUE: none yet). */
#define EVENTS_NO_VALUE 0xff
static void edge_change(parts_build *pb, uint32_t slot, int64_t t, uint8_t v)
{
    events_edge *e = &pb->slot_edge[slot];
    if (pb->last[slot] == EVENTS_NO_VALUE)
        e->first = events_pack(t, v);
    else if (v != pb->last[slot])
        e->last = events_pack(t, v);
    pb->last[slot] = v;
}

static void edge_range(parts_build *pb, uint32_t range)
{
    collector *c = pb->c;
    for (uint32_t s = range_begin(c, range); s < range_end(c, range); s++) {
        pb->slot_edge[s] = (events_edge){EVENTS_NO_WORD, EVENTS_NO_WORD};
        pb->last[s] = EVENTS_NO_VALUE;
    }
    for (uint32_t p = 0; p < rows_held(c); p++) {
        const int64_t *times = c->part_times[p].data;
        int64_t t = 0;
        for (bucket_block *b = c->bucket[(size_t)p * c->n_ranges + range].first; b; b = b->next)
            for (uint32_t k = 0; k < b->len; k++) {
                if (b->word[k] == EVENTS_TIME_MARK) {
                    t = times[b->word[++k]];
                    continue;
                }
                if (b->word[k] == EVENTS_RUN_MARK) {
                    const uint32_t *h = b->word + k;
                    for (const uint32_t *w = h + 3; w < h + 3 + h[2]; w++)
                        edge_change(pb, h[1], times[*w >> 2], *w & 3);
                    k += 2 + h[2];
                    continue;
                }
                edge_change(pb, b->word[k] >> 2, t, b->word[k] & 3);
            }
    }
}

/* A reading of only the span: its edges, from the parts held, exchanged
 * for the carry the ranks before it leave (events_edge_of_span). */
static gp_status span_edge(collector *c)
{
    uint32_t n_nets = c->dg->n_nets, slots = c->n_slots ? c->n_slots : 1;
    parts_build pb = {.c = c, .last = mem_alloc(slots),
                      .slot_edge = mem_alloc(slots * sizeof *pb.slot_edge)};
    events_edge *mine = mem_alloc(((size_t)n_nets + 1) * sizeof *mine);
    gp_status st = pb.last && pb.slot_edge && mine ? GP_OK : events_no_memory(c);
    if (st == GP_OK) {
        atomic_init(&pb.next_range, 0);
        run_pass(&pb, edge_range);
        for (uint32_t n = 0; n < n_nets; n++) {
            uint32_t s = c->net_slot[n];
            mine[n] = s != DESIGN_NONE ? pb.slot_edge[s]
                                       : (events_edge){EVENTS_NO_WORD, EVENTS_NO_WORD};
        }
        st = events_edge_of_span(c, mine);
    }
    mem_free(pb.last);
    mem_free(pb.slot_edge);
    mem_free(mine);
    return st;
}

/* ---- windows ---- */

/* The first of net n's changes the next window keeps: its last before
 * `keep` (its value there), or its first when none is before. */
static uint64_t carry_first(const events *ev, uint32_t n, int64_t keep)
{
    uint64_t at = events_first_at(ev, n, keep);
    return at > ev->net_ev0[n] ? at - 1 : at;
}

/* The carry: what the next window needs of the window `ev`. */
static gp_status carry_make(collector *c, const events *ev, int64_t keep)
{
    events *k = &c->carry;
    k->n_nets = ev->n_nets;
    k->net_ev0 = mem_alloc(((size_t)ev->n_nets + 1) * sizeof *k->net_ev0);
    if (!k->net_ev0)
        return events_no_memory(c);
    k->net_ev0[0] = 0;
    for (uint32_t n = 0; n < ev->n_nets; n++)
        k->net_ev0[n + 1] = k->net_ev0[n] + ev->net_ev0[n + 1] - carry_first(ev, n, keep);
    k->n_events = k->net_ev0[ev->n_nets];
    k->word = mem_alloc((k->n_events ? k->n_events : 1) * sizeof *k->word);
    if (!k->word)
        return events_no_memory(c);
    for (uint32_t n = 0; n < ev->n_nets; n++) {
        uint64_t from = ev->net_ev0[n + 1] - (k->net_ev0[n + 1] - k->net_ev0[n]);
        uint64_t count = ev->net_ev0[n + 1] - from;
        memcpy(k->word + k->net_ev0[n], ev->word + from, count * sizeof *k->word);
    }
    c->carry_from = keep;
    return GP_OK;
}

/* The last window's words, a reading's largest block, go back to the
 * system behind the caller (the results are written meanwhile); an
 * earlier window's at once, as the next one's memory comes from them. */
static void store_free(events *ev, bool last)
{
    mem_free(ev->net_ev0);
    if (last)
        mem_free_behind(ev->word);
    else
        mem_free(ev->word);
}

/* Builds the store of the carry and the parts before `n` (the parts from n
 * on hold nothing), gives it to the consumer, and keeps what the next
 * window needs of it. */
static gp_status give_window(collector *c, uint32_t n, int64_t complete_fs, bool last)
{
    events ev = {0};
    gp_status st = c->span_read && !c->edge_done ? span_edge(c) : GP_OK;
    if (st == GP_OK)
        st = events_parts_store(c, &ev);
    if (st == GP_OK && events_spanned(c) && !c->edge_done &&
        (last || complete_fs >= c->opt->span_to_fs))
        st = events_edge_of_store(c, &ev);
    carry_free(c);
    rows_drop(c, n);
    ev.end_fs = last ? c->end_fs : complete_fs;
    int64_t keep = c->carry_from;
    if (st == GP_OK) {
        events_window w = {&ev, c->carry_from, last ? INT64_MAX : complete_fs, last};
        c->windows_given = true;
        c->stats->windows++;
        st = c->consumer->window(c->consumer->ctx, &w, &keep);
        if (st == GP_OK && c->consumer->enough && c->consumer->enough(c->consumer->ctx)) {
            c->enough = true;
            st = GP_ERR_INPUT; /* stops the reading; events_stream returns GP_OK */
        }
    }
    keep = keep > c->carry_from ? keep : c->carry_from;
    keep = keep < complete_fs ? keep : complete_fs;
    if (st == GP_OK && !last)
        st = carry_make(c, &ev, keep);
    store_free(&ev, last);
    return st;
}

/* The words the parts before n hold (the carry, about one a net, is not
 * counted: a bound below it would give a window at every batch). */
static uint64_t words_held(const collector *c, uint32_t n)
{
    uint64_t held = 0;
    for (size_t k = 0; k < (size_t)(n - c->part_base) * c->n_ranges; k++)
        for (const bucket_block *b = c->bucket[k].first; b; b = b->next)
            held += b->len;
    return held;
}

gp_status events_on_parts_done(void *ctx, uint32_t n, int64_t complete_fs)
{
    collector *c = ctx;
    if (!c->consumer || !c->window_words || c->span_read || words_held(c, n) < c->window_words)
        return GP_OK;
    return give_window(c, n, complete_fs, false);
}

gp_status events_on_seq_changes(collector *c, int64_t time_fs, const vcd_change *ch, size_t n)
{
    gp_status st = GP_OK;
    if (c->consumer && c->window_words && time_fs != c->seq_time &&
        c->seq_changes >= c->window_words) {
        st = give_window(c, c->seq_part + 1, time_fs, false);
        if (st == GP_OK)
            st = parts_grow(c, ++c->seq_part + 1);
        c->seq_changes = 0;
    }
    if (st == GP_OK)
        st = events_on_part_changes(c, c->seq_part, time_fs, ch, n);
    c->seq_changes += n;
    c->seq_time = time_fs;
    return st;
}

gp_status events_parts_last_window(collector *c)
{
    return give_window(c, c->n_parts, INT64_MAX, true);
}
