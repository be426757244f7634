/* design_waves.c: instances put in waves on threads: Kahn's algorithm a
 * wave at a time.  Wave 0 holds the instances no edge enters; an instance
 * joins the wave after the one in which its last predecessor was done,
 * which is one more than its predecessors' largest wave.  The instances of
 * a wave are done in parts on threads; the one that takes an instance's
 * last waiting edge (an atomic count) puts it in the next wave, so the
 * order within a wave varies from run to run (each wave is then sorted
 * by index where the order's tail can hold it, for the next wave's
 * sake), and callers may not depend on it: the waves themselves do not
 * vary. */
#include "design/design_int.h"

#include <stdatomic.h>
#include <string.h>

#include "util/parts.h"

/* Instances a part collects before it claims room for them in `order`. */
#define WAVES_BATCH 256

typedef struct waves_run {
    const design_dag *g;
    _Atomic uint32_t *waiting;
    uint32_t *order;
    uint64_t first, count; /* the wave being done: order[first, first + count) */
    _Atomic uint64_t end;  /* where the next wave's instances go */
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

static void count_edge(void *ctx, uint32_t q)
{
    atomic_fetch_add_explicit(&((waves_run *)ctx)->waiting[q], 1, memory_order_relaxed);
}

static void count_part(void *ctx, uint32_t part, uint32_t parts)
{
    waves_run *w = ctx;
    uint64_t n = w->g->dg->n_insts, end = parts_begin(n, part + 1, parts);
    for (uint64_t i = parts_begin(n, part, parts); i < end; i++)
        for_each_edge(w->g, (uint32_t)i, count_edge, w);
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

static void done_edge(void *ctx, uint32_t q)
{
    waves_batch *b = ctx;
    if (atomic_fetch_sub_explicit(&b->w->waiting[q], 1, memory_order_relaxed) != 1)
        return;
    b->held[b->n++] = q;
    if (b->n == WAVES_BATCH)
        flush(b);
}

static void wave_part(void *ctx, uint32_t part, uint32_t parts)
{
    waves_run *w = ctx;
    waves_batch b = {.w = w};
    uint64_t end = w->first + parts_begin(w->count, part + 1, parts);
    for (uint64_t k = w->first + parts_begin(w->count, part, parts); k < end; k++)
        for_each_edge(w->g, w->order[k], done_edge, &b);
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

uint32_t design_waves(const design_dag *g, uint32_t *waiting, uint32_t *order, uint32_t *wave0,
                      uint32_t *ordered)
{
    uint32_t n = g->dg->n_insts, waves = 0;
    waves_run w = {.g = g, .waiting = (_Atomic uint32_t *)waiting, .order = order};
    memset(waiting, 0, (size_t)n * sizeof *waiting);
    parts_run(count_part, &w, parts_for(n, UINT32_MAX));
    uint64_t end = 0;
    for (uint32_t i = 0; i < n; i++)
        if (waiting[i] == 0)
            order[end++] = i;
    atomic_store(&w.end, end);
    wave0[0] = 0;
    while (end > w.first) {
        w.count = end - w.first;
        parts_run(wave_part, &w, parts_for(w.count, UINT32_MAX));
        w.first = end;
        end = atomic_load(&w.end);
        if (end - w.first <= n - end) /* order's tail, unused yet, as scratch */
            sort_wave(order + w.first, end - w.first, order + end);
        wave0[++waves] = (uint32_t)w.first;
    }
    *ordered = (uint32_t)end;
    return waves;
}
