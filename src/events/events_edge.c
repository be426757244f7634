/* events_edge.c: the edges between ranks' spans of one dump (events.h):
 * their fold, the value they leave, and a reading's own edge, from a
 * window's store (a reading of the whole dump) or as the carry of a
 * reading of only its span, which starts from the ranks' before it. */
#include "events/events_int.h"
#include "util/mem.h"

void events_edge_fold(const void *before, void *after, size_t count)
{
    const events_edge *a = before;
    events_edge *b = after;
    for (size_t k = 0; k < count; k++) {
        if (a[k].first == EVENTS_NO_WORD)
            continue;
        if (b[k].first == EVENTS_NO_WORD) {
            b[k] = a[k];
            continue;
        }
        uint64_t a_end = a[k].last != EVENTS_NO_WORD ? a[k].last : a[k].first;
        if (b[k].last == EVENTS_NO_WORD) /* b's first change is one only if it differs */
            b[k].last = (b[k].first & 3) != (a_end & 3) ? b[k].first : a[k].last;
        b[k].first = a[k].first;
    }
}

uint64_t events_edge_last(events_edge e)
{
    if (e.last != EVENTS_NO_WORD)
        return e.last;
    return e.first != EVENTS_NO_WORD && (e.first & 3) != EVENTS_X ? e.first : EVENTS_NO_WORD;
}

/* The exchange (events_options.edge), once: per net, mine[n]. */
static gp_status edge_exchange(collector *c, const events_edge *mine, events_edge *before)
{
    c->edge_done = true;
    return c->opt->edge(c->opt->edge_ctx, mine, before, c->dg ? c->dg->n_nets : 0);
}

/* Room for an edge a net (and one more, so that no design is too small). */
static events_edge *edges_new(const collector *c)
{
    uint32_t n_nets = c->dg ? c->dg->n_nets : 0;
    events_edge *e = mem_alloc(((size_t)n_nets + 1) * sizeof *e);
    for (uint32_t n = 0; e && n < n_nets; n++)
        e[n] = (events_edge){EVENTS_NO_WORD, EVENTS_NO_WORD};
    return e;
}

gp_status events_edge_none(collector *c)
{
    events_edge *mine = edges_new(c), *before = edges_new(c);
    gp_status st = mine && before ? edge_exchange(c, mine, before) : events_no_memory(c);
    mem_free(mine);
    mem_free(before);
    return st;
}

/* Net n's last event before `end` in ev, or EVENTS_NO_WORD. */
static uint64_t last_before(const events *ev, uint32_t n, int64_t end)
{
    uint64_t at = events_first_at(ev, n, end);
    return at > ev->net_ev0[n] ? ev->word[at - 1] : EVENTS_NO_WORD;
}

gp_status events_edge_of_store(collector *c, const events *ev)
{
    events_edge *mine = edges_new(c), *before = edges_new(c);
    gp_status st = mine && before ? GP_OK : events_no_memory(c);
    /* Read from the dump's start, the net's value is known: its edge sets it. */
    for (uint32_t n = 0; st == GP_OK && n < ev->n_nets; n++) {
        uint64_t w = last_before(ev, n, c->opt->span_to_fs);
        mine[n] = (events_edge){w, w};
    }
    if (st == GP_OK)
        st = edge_exchange(c, mine, before);
    mem_free(mine);
    mem_free(before);
    return st;
}

/* The carry of a reading of only the span: each net's last change before
 * span_from_fs, from the ranks' edges before it. */
static gp_status carry_of_edges(collector *c, const events_edge *before)
{
    events *k = &c->carry;
    uint32_t n_nets = c->dg->n_nets;
    k->n_nets = n_nets;
    k->net_ev0 = mem_alloc(((size_t)n_nets + 1) * sizeof *k->net_ev0);
    k->word = mem_alloc(((size_t)n_nets + 1) * sizeof *k->word);
    if (!k->net_ev0 || !k->word)
        return events_no_memory(c);
    k->net_ev0[0] = 0;
    for (uint32_t n = 0; n < n_nets; n++) {
        uint64_t w = events_edge_last(before[n]);
        k->net_ev0[n + 1] = k->net_ev0[n];
        if (w != EVENTS_NO_WORD)
            k->word[k->net_ev0[n + 1]++] = w;
    }
    k->n_events = k->net_ev0[n_nets];
    c->carry_from = c->opt->span_from_fs;
    return GP_OK;
}

gp_status events_edge_of_span(collector *c, const events_edge *mine)
{
    events_edge *before = edges_new(c);
    if (!before)
        return events_no_memory(c);
    gp_status st = edge_exchange(c, mine, before);
    if (st == GP_OK && c->opt->span_from_fs != INT64_MIN) /* else no rank is before */
        st = carry_of_edges(c, before);
    mem_free(before);
    return st;
}
