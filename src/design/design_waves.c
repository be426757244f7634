/* design_waves.c: instances put in waves on threads: Kahn's algorithm a
 * wave at a time.  Wave 0 holds the instances no edge enters; an instance
 * joins the wave after the one in which its last predecessor was done,
 * which is one more than its predecessors' largest wave.  The instances of
 * a wave are done in parts on threads; the one that takes an instance's
 * last waiting edge (an atomic count) puts it in the next wave, so the
 * order within a wave varies from run to run (each wave is then sorted
 * by index where the order's tail can hold it, for the next wave's
 * sake), and callers may not depend on it: the waves themselves do not
 * vary.  The edges are first listed per instance (counted, then written,
 * in index order), so that a wave walks its instances' lists, not their
 * pins' nets. */
#include "design/design_int.h"

#include <stdatomic.h>
#include <string.h>

#include "util/mem.h"
#include "util/parts.h"

/* A wave's instances a part takes at least: most waves of a large design
 * hold a few thousand, each a fraction of a microsecond's work. */
#define WAVES_PART_INSTS 4096
/* The edges are listed in chunks of this many instances, handed to the
 * parts as they finish the one before: an instance's edges are its
 * outputs' loads, and early instances drive more than late ones. */
#define WAVES_CHUNK 4096
/* Instances a part collects before it claims room for them in `order`. */
#define WAVES_BATCH 256
/* How far ahead a wave's walk fetches, in instances: the successors'
 * place, then their list, then their waiting counts. */
#define WAVES_AHEAD_PLACE 12
#define WAVES_AHEAD_LIST 8
#define WAVES_AHEAD_WAITING 4

typedef struct waves_run {
    const design_dag *g;
    _Atomic uint32_t *waiting;
    uint32_t *order;
    /* The edges as lists: instance i's successors are
     * succ[succ0[i] .. succ0[i + 1]), in the order of its pins. */
    uint64_t *succ0;
    uint32_t *succ;
    uint64_t *chunk_edges;  /* per chunk (WAVES_CHUNK): its edges, then its first */
    uint32_t chunks;
    _Atomic uint32_t next_chunk; /* the next chunk a part takes */
    uint64_t first, count;  /* the wave being done: order[first, first + count) */
    _Atomic uint64_t end;   /* where the next wave's instances go */
} waves_run;

/* Calls visit(ctx, q) for every edge i -> q of g. */
static inline void for_each_edge(const design_dag *g, uint32_t i,
                                 void (*visit)(void *ctx, uint32_t q), void *ctx)
{
    const design *dg = g->dg;
    for (uint32_t p = dg->inst_pin0[i]; p < dg->inst_pin0[i + 1]; p++) {
        uint32_t n = dg->pin_net[p];
        if (n == DESIGN_NONE || !g->from(g, p))
            continue;
        for (uint32_t k = dg->net_pin0[n]; k < dg->net_pin0[n + 1]; k++)
            if (g->to(g, p, dg->net_pins[k]))
                visit(ctx, dg->pin_inst[dg->net_pins[k]]);
    }
}

/* Counting: each edge into its target's waiting count, and out of its
 * source's (in succ0[i + 1], the part's own instances). */
typedef struct waves_count {
    waves_run *w;
    uint64_t out;
} waves_count;

static void count_edge(void *ctx, uint32_t q)
{
    waves_count *wc = ctx;
    atomic_fetch_add_explicit(&wc->w->waiting[q], 1, memory_order_relaxed);
    wc->out++;
}

/* Chunk c's instances: [*first, *end). */
static void chunk_insts(const waves_run *w, uint32_t c, uint32_t *first, uint32_t *end)
{
    uint32_t n = w->g->dg->n_insts;
    *first = c * WAVES_CHUNK;
    *end = n - *first < WAVES_CHUNK ? n : *first + WAVES_CHUNK;
}

static void count_part(void *ctx, uint32_t part, uint32_t parts)
{
    (void)part, (void)parts;
    waves_run *w = ctx;
    for (uint32_t c; (c = atomic_fetch_add(&w->next_chunk, 1)) < w->chunks;) {
        uint32_t first, end;
        uint64_t total = 0;
        chunk_insts(w, c, &first, &end);
        for (uint32_t i = first; i < end; i++) {
            waves_count wc = {w, 0};
            for_each_edge(w->g, i, count_edge, &wc);
            w->succ0[i + 1] = wc.out;
            total += wc.out;
        }
        w->chunk_edges[c] = total;
    }
}

/* The lists' places from the counts, a part's chunks at a time. */
static void place_part(void *ctx, uint32_t part, uint32_t parts)
{
    waves_run *w = ctx;
    uint32_t last = (uint32_t)parts_begin(w->chunks, part + 1, parts);
    for (uint32_t c = (uint32_t)parts_begin(w->chunks, part, parts); c < last; c++) {
        uint32_t first, end;
        uint64_t at = w->chunk_edges[c];
        chunk_insts(w, c, &first, &end);
        for (uint32_t i = first; i < end; i++) {
            at += w->succ0[i + 1];
            w->succ0[i + 1] = at;
        }
    }
}

/* ctx: where the next successor of the instance goes. */
static void fill_edge(void *ctx, uint32_t q)
{
    uint32_t **at = ctx;
    *(*at)++ = q;
}

static void fill_part(void *ctx, uint32_t part, uint32_t parts)
{
    (void)part, (void)parts;
    waves_run *w = ctx;
    for (uint32_t c; (c = atomic_fetch_add(&w->next_chunk, 1)) < w->chunks;) {
        uint32_t first, end;
        chunk_insts(w, c, &first, &end);
        for (uint32_t i = first; i < end; i++) {
            uint32_t *at = w->succ + w->succ0[i];
            for_each_edge(w->g, i, fill_edge, &at);
        }
    }
}

/* The edges as lists, and every instance's waiting count; false when out
 * of memory. */
static bool make_lists(waves_run *w, uint32_t parts)
{
    uint32_t n = w->g->dg->n_insts;
    w->chunks = (uint32_t)(((uint64_t)n + WAVES_CHUNK - 1) / WAVES_CHUNK);
    w->succ0 = mem_alloc(((size_t)n + 1) * sizeof *w->succ0);
    w->chunk_edges = mem_alloc((w->chunks ? w->chunks : 1) * sizeof *w->chunk_edges);
    if (!w->succ0 || !w->chunk_edges)
        return false;
    memset(w->waiting, 0, (size_t)n * sizeof *w->waiting);
    atomic_store(&w->next_chunk, 0);
    parts_run(count_part, w, parts);
    uint64_t edges = 0;
    for (uint32_t c = 0; c < w->chunks; c++) {
        uint64_t chunk = w->chunk_edges[c];
        w->chunk_edges[c] = edges;
        edges += chunk;
    }
    w->succ0[0] = 0;
    parts_run(place_part, w, parts);
    if (!(w->succ = mem_alloc((edges ? edges : 1) * sizeof *w->succ)))
        return false;
    atomic_store(&w->next_chunk, 0);
    parts_run(fill_part, w, parts);
    return true;
}

typedef struct waves_batch {
    waves_run *w;
    uint32_t held[WAVES_BATCH];
    uint32_t n;
} waves_batch;

static void flush(waves_batch *b)
{
    uint64_t at = atomic_fetch_add_explicit(&b->w->end, b->n, memory_order_relaxed);
    memcpy(b->w->order + at, b->held, b->n * sizeof *b->held);
    b->n = 0;
}

static void done_edge(waves_batch *b, uint32_t q)
{
    if (atomic_fetch_sub_explicit(&b->w->waiting[q], 1, memory_order_relaxed) != 1)
        return;
    b->held[b->n++] = q;
    if (b->n == WAVES_BATCH)
        flush(b);
}

/* Fetches instance i's successors' waiting counts ahead of the wave's walk
 * (its list's place and its list were fetched before). */
static void fetch_waiting(const waves_run *w, uint32_t i)
{
    for (uint64_t e = w->succ0[i]; e < w->succ0[i + 1]; e++)
        __builtin_prefetch((const void *)&w->waiting[w->succ[e]], 1);
}

static void wave_part(void *ctx, uint32_t part, uint32_t parts)
{
    waves_run *w = ctx;
    waves_batch b = {.w = w};
    uint64_t begin = w->first + parts_begin(w->count, part, parts);
    uint64_t end = w->first + parts_begin(w->count, part + 1, parts);
    for (uint64_t k = begin; k < end; k++) {
        if (k + WAVES_AHEAD_PLACE < end)
            __builtin_prefetch(&w->succ0[w->order[k + WAVES_AHEAD_PLACE]]);
        if (k + WAVES_AHEAD_LIST < end)
            __builtin_prefetch(&w->succ[w->succ0[w->order[k + WAVES_AHEAD_LIST]]]);
        if (k + WAVES_AHEAD_WAITING < end)
            fetch_waiting(w, w->order[k + WAVES_AHEAD_WAITING]);
        uint32_t i = w->order[k];
        for (uint64_t e = w->succ0[i]; e < w->succ0[i + 1]; e++)
            done_edge(&b, w->succ[e]);
    }
    flush(&b);
}

/* Sorts a wave's instances, a[0..n), by index with tmp[0..n) beside
 * (least significant digit first, three of 11 bits): the next wave then
 * walks the design's arrays in order, not at random. */
static void sort_wave(uint32_t *a, uint64_t n, uint32_t *tmp)
{
    for (int shift = 0; shift < 33; shift += 11) {
        uint64_t count[2049] = {0};
        for (uint64_t k = 0; k < n; k++)
            count[((a[k] >> shift) & 2047) + 1]++;
        for (int d = 0; d < 2048; d++)
            count[d + 1] += count[d];
        for (uint64_t k = 0; k < n; k++)
            tmp[count[(a[k] >> shift) & 2047]++] = a[k];
        memcpy(a, tmp, n * sizeof *a);
    }
}

bool design_waves(const design_dag *g, uint32_t *waiting, uint32_t *order, uint32_t *wave0,
                  uint32_t *ordered, uint32_t *waves)
{
    uint32_t n = g->dg->n_insts;
    waves_run w = {.g = g, .waiting = (_Atomic uint32_t *)waiting, .order = order};
    bool ok = make_lists(&w, parts_for(n, UINT32_MAX));
    uint64_t end = 0;
    *waves = 0;
    for (uint32_t i = 0; ok && i < n; i++)
        if (waiting[i] == 0)
            order[end++] = i;
    atomic_store(&w.end, end);
    wave0[0] = 0;
    while (ok && end > w.first) {
        w.count = end - w.first;
        parts_run(wave_part, &w, parts_for_items(w.count, UINT32_MAX, WAVES_PART_INSTS));
        w.first = end;
        end = atomic_load(&w.end);
        if (end - w.first <= n - end) /* order's tail, unused yet, as scratch */
            sort_wave(order + w.first, end - w.first, order + end);
        wave0[++*waves] = (uint32_t)w.first;
    }
    *ordered = (uint32_t)end;
    mem_free(w.succ0);
    mem_free(w.succ);
    mem_free(w.chunk_edges);
    return ok;
}
