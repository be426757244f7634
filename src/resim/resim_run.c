/* resim_run.c: the re-simulation's driver: the dump's nets (register outputs
 * moved by clock-to-Q), then the combinational gates level by level, each
 * from its inputs' finished waveforms, then the result as an event store. */
#include "resim/resim_int.h"
#include "resim/resim_rules.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "util/mem.h"
#include "util/parts.h"

resim_options resim_defaults(void)
{
    return (resim_options){.shift_registers = true, .threads = 0, .exact_from_fs = INT64_MIN,
                           .until_fs = INT64_MAX, .warmup_fs = -1};
}

int64_t resim_whole_fs(double fs)
{
    return (int64_t)llround(fs);
}

/* Whether arc selects for resim_smallest_delay's `related`. */
static bool arc_selected(const lib_arc *arc, int32_t related)
{
    if (related == LIB_NONE)
        return arc->type == LIB_TT_RISING_EDGE || arc->type == LIB_TT_FALLING_EDGE;
    return arc->related == related && lib_timing_type_is_delay(arc->type);
}

void resim_smallest_delay(const design *dg, uint32_t inst, uint32_t out_pin, int32_t related,
                          int64_t delay[2])
{
    const lib_cell *c = dg->inst_cell[inst];
    const lib_pin *op = &c->pins[out_pin];
    double best[2] = {INFINITY, INFINITY};
    for (uint32_t a = op->first_arc; a < op->first_arc + op->n_arcs; a++) {
        if (!arc_selected(&c->arcs[a], related))
            continue;
        for (int dir = 0; dir < 2; dir++) {
            double v = dg->arc_delay[dir][dg->inst_arc0[inst] + a];
            if (!isnan(v) && v < best[dir])
                best[dir] = v;
        }
    }
    for (int dir = 0; dir < 2; dir++)
        delay[dir] = isinf(best[dir]) ? 0 : resim_whole_fs(best[dir]);
}

resim_input resim_input_of(const design *dg, uint32_t inst, uint32_t out_pin, uint32_t k)
{
    uint32_t p = dg->inst_pin0[inst] + k;
    int64_t delay[2];
    resim_smallest_delay(dg, inst, out_pin, (int32_t)k, delay);
    return (resim_input){
        .wire = {resim_whole_fs(dg->pin_wire_delay[DESIGN_FALL][p]),
                 resim_whole_fs(dg->pin_wire_delay[DESIGN_RISE][p]), 0},
        .delay = {delay[DESIGN_FALL], delay[DESIGN_RISE],
                  resim_x_delay(delay[DESIGN_RISE], delay[DESIGN_FALL])},
        .net = dg->pin_net[p]};
}

gp_status resim_no_memory(diag_ctx *d)
{
    diag_error(d, 9005, DIAG_NOWHERE, "out of memory during re-simulation");
    return GP_ERR_NOMEM;
}

gp_status resim_check_design(const design *dg, diag_ctx *d)
{
    if (dg->n_loop_insts > 0) {
        diag_error(d, 9002, DIAG_NOWHERE, "the design has a combinational loop (%u instances on "
                   "or behind it; the netlist reader's warning names them): re-simulation "
                   "needs loop-free logic between registers; break the loop in the netlist",
                   dg->n_loop_insts);
        return GP_ERR_INPUT;
    }
    for (uint32_t i = 0; i < dg->n_insts; i++)
        if (dg->inst_level[i] > 0 && !dg->inst_cell[i]->exprs_compiled) {
            diag_error(d, 9003, DIAG_NOWHERE, "cell '%s' of instance '%s' has more than %d pins "
                       "and state variables, so its functions have no truth table: "
                       "re-simulation cannot evaluate it", dg->inst_cell[i]->name,
                       design_inst_name(dg, i), LIB_MAX_EXPR_PINS);
            return GP_ERR_UNSUPPORTED;
        }
    return GP_OK;
}

/* The clock-to-Q delays (fs, by Q's transition) of the flop driving `pin`. */
static void clock_to_q(const design *dg, uint32_t pin, int64_t delay[2])
{
    uint32_t inst = dg->pin_inst[pin];
    resim_smallest_delay(dg, inst, pin - dg->inst_pin0[inst], LIB_NONE, delay);
}

/* Dump event k of a net moved by shift[] (by the value it goes to; to X:
 * the smaller) when after t0, and kept in time order after *last (the
 * net's previous event's time, INT64_MIN before its first). */
static int64_t moved_time(const events *dump, uint64_t k, const int64_t shift[2], int64_t t0,
                          int64_t *last)
{
    uint8_t v = events_value(dump, k);
    int64_t t = events_time(dump, k);
    if (t > t0)
        t += v == 1 ? shift[0] : v == 0 ? shift[1] : (shift[0] < shift[1] ? shift[0] : shift[1]);
    t = t < *last ? *last : t;
    *last = t;
    return t;
}

/* Whether a net from the dump starts with X at t0 before its events: when
 * moved, unless the dump gives its value there. */
static bool starts_x(const events *dump, uint32_t n, const resim_source *src, int64_t t0)
{
    return (src->shift[0] || src->shift[1]) && events_time(dump, dump->net_ev0[n]) > t0;
}

/* Net n's events before the gates run, all of them. */
static uint64_t source_count(const events *dump, uint32_t n, const resim_source *src, int64_t t0)
{
    if (src->kind == RESIM_FROM_GATE)
        return 0;
    if (src->kind == RESIM_FROM_VALUE)
        return 1;
    return starts_x(dump, n, src, t0) + dump->net_ev0[n + 1] - dump->net_ev0[n];
}

/* Event i of net n's waveform before the gates run (i below
 * source_count), as a word; x: whether it starts with X at t0, *last as
 * moved_time's (the events taken in order). */
static uint64_t source_word(const events *dump, uint32_t n, const resim_source *src, int64_t t0,
                            bool x, uint64_t i, int64_t *last)
{
    if (src->kind == RESIM_FROM_VALUE)
        return events_pack(t0, src->value);
    if (x && i == 0)
        return events_pack(t0, EVENTS_X);
    uint64_t k = dump->net_ev0[n] + i - x;
    return events_pack(moved_time(dump, k, src->shift, t0, last), events_value(dump, k));
}

/* A walk over net n's events before the gates run, cut to a span. */
typedef struct source_walk {
    const events *dump;
    const resim_source *src;
    resim_span span;
    uint32_t net;
    bool x, cut;        /* cut: the span starts after t0 */
    uint64_t i, count;
    int64_t last;
    uint64_t held;      /* the value at span.start, as an event there */
    bool holding;
    uint64_t after;     /* the event after the held one, given next */
    bool has_after;
} source_walk;

/* Where a walk of net n cut at span.start may begin (a source index): at
 * its last dump event that surely moves to span.start or before, which
 * is held there unless a later one is.  An event's moved time is its own
 * time shifted or an earlier event's (moved_time keeps them in order), so
 * at most its time plus the larger shift; events at t0 or before do not
 * move.  Every later event's moved time is then the same as in a walk
 * from the first, or also at or before span.start, since the earlier
 * events' moved times all are. */
static uint64_t walk_first(const events *dump, uint32_t n, const resim_source *src, bool x,
                           resim_span span)
{
    int64_t most = src->shift[0] > src->shift[1] ? src->shift[0] : src->shift[1];
    int64_t held_until = span.start - most > span.t0 ? span.start - most : span.t0;
    uint64_t first = dump->net_ev0[n], not_held = events_first_at(dump, n, held_until + 1);
    return not_held > first ? not_held - 1 - first + x : 0;
}

static source_walk walk_begin(const events *dump, uint32_t n, const resim_source *src,
                              resim_span span)
{
    source_walk w = {.dump = dump, .src = src, .span = span, .net = n,
                     .x = src->kind == RESIM_FROM_DUMP && starts_x(dump, n, src, span.t0),
                     .cut = span.start > span.t0,
                     .count = source_count(dump, n, src, span.t0), .last = INT64_MIN};
    if (w.cut && src->kind == RESIM_FROM_DUMP)
        w.i = walk_first(dump, n, src, w.x, span);
    return w;
}

/* The walk's next event kept in the span; false after the last. */
static bool walk_next(source_walk *w, uint64_t *word)
{
    if (w->has_after) {
        w->has_after = false;
        *word = w->after;
        return true;
    }
    while (w->i < w->count) {
        uint64_t e = source_word(w->dump, w->net, w->src, w->span.t0, w->x, w->i++, &w->last);
        int64_t t = events_word_time(e);
        if (t >= w->span.until) {
            w->i = w->count;
            break;
        }
        if (w->cut && t <= w->span.start) {
            w->held = events_pack(w->span.start, (uint8_t)(e & 3));
            w->holding = true;
            continue;
        }
        if (!w->holding) {
            *word = e;
            return true;
        }
        w->after = e;
        w->has_after = true;
        break;
    }
    if (!w->holding)
        return false;
    w->holding = false;
    *word = w->held;
    return true;
}

uint64_t resim_source_events(const events *dump, uint32_t n, const resim_source *src,
                             resim_span span)
{
    if (span.start <= span.t0 && span.until == INT64_MAX)
        return source_count(dump, n, src, span.t0);
    source_walk w = walk_begin(dump, n, src, span);
    uint64_t count = 0, word;
    while (walk_next(&w, &word))
        count++;
    return count;
}

void resim_source_words(const events *dump, uint32_t n, const resim_source *src, resim_span span,
                        uint64_t *word)
{
    source_walk w = walk_begin(dump, n, src, span);
    while (walk_next(&w, word))
        word++;
}

/* Net n's waveform into the store (resim_source_words' events). */
static bool store_net(const events *dump, uint32_t n, const resim_source *src, resim_span span,
                      resim_store *s, resim_net_wave *w)
{
    source_walk walk = walk_begin(dump, n, src, span);
    uint64_t word;
    bool ok = true;
    resim_store_begin(s);
    while (ok && walk_next(&walk, &word))
        ok = resim_store_push(s, events_word_time(word), (uint8_t)(word & 3));
    return ok && resim_store_end(s, &w[n]);
}

static bool is_input_port(const design *dg, uint32_t n)
{
    for (uint32_t k = 0; k < dg->n_ports; k++)
        if (dg->ports[k].net == n && dg->ports[k].dir != DESIGN_PORT_OUTPUT)
            return true;
    return false;
}

gp_status resim_classify_nets(const design *dg, const events *dump, const resim_options *opt,
                              resim_source *src, resim_stats *stats, diag_ctx *d)
{
    static const uint8_t constant[] = {[DESIGN_VALUE_0] = 0, [DESIGN_VALUE_1] = 1,
                                       [DESIGN_VALUE_X] = EVENTS_X};
    uint32_t recomputed = 0; /* gate outputs the dump holds too */
    for (uint32_t n = 0; n < dg->n_nets; n++) {
        uint32_t drv = dg->net_driver[n];
        bool is_reg = drv != DESIGN_NONE && dg->inst_level[dg->pin_inst[drv]] == 0;
        bool has_events = n < dump->n_nets && dump->net_ev0[n + 1] > dump->net_ev0[n];
        bool in_dump = opt->net_bound ? opt->net_bound[n] != 0 : has_events;
        src[n] = (resim_source){.kind = RESIM_FROM_VALUE, .value = EVENTS_X};
        if (drv != DESIGN_NONE && !is_reg) {
            recomputed += in_dump;
            src[n].kind = RESIM_FROM_GATE;
            continue;
        }
        if (is_reg && !in_dump) {
            diag_error(d, 9001, DIAG_NOWHERE, "register output '%s' (of instance '%s') is not "
                       "in the activity dump: re-simulation needs every register output and "
                       "primary input; dump it too (or check --scope)", design_net_name(dg, n),
                       design_inst_name(dg, dg->pin_inst[drv]));
            return GP_ERR_INPUT;
        }
        if (!is_reg && dg->net_value[n] != DESIGN_VALUE_SIGNAL) {
            src[n].value = constant[dg->net_value[n]];
            continue;
        }
        if (!in_dump && is_input_port(dg, n)) {
            diag_error(d, 9004, DIAG_NOWHERE, "primary input '%s' is not in the activity dump: "
                       "re-simulation needs every primary input and register output; dump it "
                       "too (or check --scope)", design_net_name(dg, n));
            return GP_ERR_INPUT;
        }
        if (!in_dump || !has_events) {
            if (!in_dump && dg->net_pin0[n + 1] > dg->net_pin0[n])
                diag_warn(d, 9006, DIAG_NOWHERE, "net '%s' has no driver and no activity: it "
                          "is X throughout the re-simulation", design_net_name(dg, n));
            continue;
        }
        src[n].kind = RESIM_FROM_DUMP;
        if (is_reg && opt->shift_registers)
            clock_to_q(dg, drv, src[n].shift);
        stats->registers += is_reg;
        stats->inputs += !is_reg;
        stats->events_in += dump->net_ev0[n + 1] - dump->net_ev0[n];
    }
    if (recomputed > 0)
        diag_warn(d, 9007, DIAG_NOWHERE, "the activity dump holds %u nets driven by "
                  "combinational gates: re-simulation computes them anew from the register "
                  "outputs and primary inputs, and their dumped activity is not used (give "
                  "`gatepower power` the dump to analyse it as it is)", recomputed);
    return GP_OK;
}

/* Fills w[] and store s with the waveforms of the nets that no
 * combinational gate drives. */
static gp_status load_dump(const design *dg, const events *dump, const resim_options *opt,
                           resim_span span, resim_store *s, resim_net_wave *w, resim_stats *stats,
                           diag_ctx *d)
{
    resim_source *src = mem_alloc((dg->n_nets ? dg->n_nets : 1) * sizeof *src);
    gp_status st = src ? resim_classify_nets(dg, dump, opt, src, stats, d) : resim_no_memory(d);
    for (uint32_t n = 0; st == GP_OK && n < dg->n_nets; n++)
        if (src[n].kind != RESIM_FROM_GATE && !store_net(dump, n, &src[n], span, s, w))
            st = resim_no_memory(d);
    mem_free(src);
    return st;
}

/* The copying of pack: nets taken in groups from a shared counter. */
typedef struct pack_job {
    const resim_net_wave *w;
    events *ev;
    atomic_uint next;
} pack_job;

enum { RESIM_PACK_NETS = 64 };

/* A worker (a parts_fn): takes the next nets until none are left. */
static void copy_nets(void *arg, uint32_t worker, uint32_t n_workers)
{
    pack_job *p = arg;
    events *ev = p->ev;
    (void)worker, (void)n_workers;
    for (uint32_t n0; (n0 = atomic_fetch_add(&p->next, RESIM_PACK_NETS)) < ev->n_nets;) {
        uint32_t n1 = ev->n_nets - n0 < RESIM_PACK_NETS ? ev->n_nets : n0 + RESIM_PACK_NETS;
        for (uint32_t n = n0; n < n1; n++) {
            uint64_t at = ev->net_ev0[n], count = ev->net_ev0[n + 1] - at;
            for (uint64_t k = 0; k < count; k++)
                ev->word[at + k] = events_pack(p->w[n].time[k], p->w[n].value[k]);
        }
    }
}

/* The nets' waveforms w[] as an event store in net order, copied on
 * n_workers threads; each net's events after end_fs are left out (but its
 * first). */
static gp_status pack(const design *dg, const resim_net_wave *w, int64_t end_fs,
                      uint32_t n_workers, events **out, diag_ctx *d)
{
    events *ev = mem_calloc(1, sizeof *ev);
    if (ev && (ev->net_ev0 = mem_alloc(((size_t)dg->n_nets + 1) * sizeof *ev->net_ev0))) {
        uint64_t at = 0;
        for (uint32_t n = 0; n < dg->n_nets; n++) {
            ev->net_ev0[n] = at;
            uint64_t count = w[n].count;
            while (count > 1 && w[n].time[count - 1] > end_fs)
                count--; /* after the dump's end: the reference simulation stopped before */
            at += count;
        }
        ev->net_ev0[dg->n_nets] = ev->n_events = at;
        ev->n_nets = dg->n_nets;
        ev->end_fs = end_fs;
        ev->word = mem_alloc((at ? at : 1) * sizeof *ev->word);
    }
    if (!ev || !ev->net_ev0 || !ev->word) {
        events_free(ev);
        return resim_no_memory(d);
    }
    pack_job p = {.w = w, .ev = ev};
    atomic_init(&p.next, 0);
    parts_run(copy_nets, &p, n_workers);
    *out = ev;
    return GP_OK;
}

gp_status resim_run(const design *dg, const events *dump, const resim_options *opt,
                    events **full, resim_stats *stats, diag_ctx *d)
{
    *full = NULL;
    memset(stats, 0, sizeof *stats);
    gp_status st = resim_check_design(dg, d);
    if (st != GP_OK)
        return st;
    resim_span span;
    st = resim_span_of(dg, dump, opt, &span, stats, d);
    if (st != GP_OK)
        return st;
    uint32_t n_workers = parts_threads(opt->threads);
    resim_net_wave *w = mem_calloc(dg->n_nets ? dg->n_nets : 1, sizeof *w);
    resim_store *stores = mem_calloc(n_workers, sizeof *stores);
    st = w && stores ? GP_OK : resim_no_memory(d);
    if (st == GP_OK)
        st = load_dump(dg, dump, opt, span, &stores[0], w, stats, d);
    if (st == GP_OK)
        st = resim_run_levels(dg, span.start, stores, n_workers, w, stats) ? GP_OK
                                                                           : resim_no_memory(d);
    if (st == GP_OK)
        st = pack(dg, w, dump->end_fs, n_workers, full, d);
    if (st == GP_OK)
        stats->events_out = (*full)->n_events;
    for (uint32_t k = 0; stores && k < n_workers; k++)
        resim_store_free(&stores[k]);
    mem_free(stores);
    mem_free(w);
    return st;
}
