/* events.c: a dump's declared bits as slots, bound to the design's nets
 * (by flat name under the chosen scope), and the reading that collects
 * their changes into the event store.
 *
 * While the header is read, each bit of each variable is kept with its
 * name; at `start` every declared bit becomes a slot (each id's bit 0 the
 * slot numbered as the id, less the lowest id declared), and the changes
 * go by slot to events_parts.c's buckets: a dump read in file order is one
 * part, a plain VCD or an FST read on threads as many as the reader cut
 * (vcd.h).  The names are bound to nets when the design is at hand: at
 * `start` when the reading was given it, else where the store is first
 * built, so that the dump can be read while the netlist is.  Binding
 * looks the names up among the nets' names and aliases (on threads: a
 * million lookups miss the caches one by one) and binds in declaration
 * order.  The store is built from the buckets, once at the end or,
 * streaming, in windows as the dump is read. */
#include <stdio.h>
#include <string.h>

#include "events/events_int.h"
#include "util/mem.h"
#include "util/parts.h"

#define EVENTS_NAME_MAX 4096 /* a bit's name, its NUL counted: longer ones are cut */

_Static_assert(EVENTS_TIME_MAX == VCD_TIME_MAX_FS, "the readers deliver the times the store holds");

gp_status events_no_memory(collector *c)
{
    diag_error(c->d, 7101, DIAG_NOWHERE, "out of memory while collecting activity events");
    return GP_ERR_NOMEM;
}

/* A signal named "inst/PIN" (a port inside a cell model's scope, as a
 * simulator dumps them): the net its instance's pin drives, or
 * DESIGN_NONE with *is_pin set when it is another pin of an instance. */
static uint32_t driven_by_pin(const design *dg, char *name, bool *is_pin)
{
    *is_pin = false;
    char *slash = strrchr(name, '/');
    if (!slash)
        return DESIGN_NONE;
    *slash = '\0';
    uint32_t inst = design_find_inst(dg, name);
    *slash = '/';
    int32_t k = inst == DESIGN_NONE ? LIB_NONE : lib_pin_index(dg->inst_cell[inst], slash + 1);
    if (k == LIB_NONE)
        return DESIGN_NONE;
    *is_pin = true;
    uint32_t pin = dg->inst_pin0[inst] + (uint32_t)k, net = dg->pin_net[pin];
    return net != DESIGN_NONE && dg->net_driver[net] == pin ? net : DESIGN_NONE;
}

/* An unmatched signal "a/b/n5" whose tail "b/n5" or "n5" names a net: the
 * path before that tail is tallied as where the design may be. */
static void tally_scope_hint(collector *c, const char *name)
{
    for (const char *slash = strchr(name, '/'); slash; slash = strchr(slash + 1, '/')) {
        if (design_find_net(c->dg, slash + 1) == DESIGN_NONE)
            continue;
        size_t len = (size_t)(slash - name);
        if (len >= sizeof c->hints[0].path)
            return;
        for (int k = 0; k < EVENTS_HINTS; k++) {
            scope_tally *t = &c->hints[k];
            if (t->signals == 0) { /* slots fill in order: no earlier one holds it */
                memcpy(t->path, name, len);
                t->path[len] = '\0';
            }
            if (strncmp(t->path, name, len) == 0 && t->path[len] == '\0') {
                t->signals++;
                return;
            }
        }
        return;
    }
}

/* The tallied path most unmatched signals point to. */
static void choose_scope_hint(collector *c)
{
    const scope_tally *best = NULL;
    for (int k = 0; k < EVENTS_HINTS; k++)
        if (c->hints[k].signals && (!best || c->hints[k].signals > best->signals))
            best = &c->hints[k];
    if (best) {
        snprintf(c->stats->scope_hint, sizeof c->stats->scope_hint, "%s", best->path);
        c->stats->scope_hint_signals = best->signals;
    }
}

static gp_status on_var(void *ctx, const vcd_var *v)
{
    collector *c = ctx;
    if (events_stopped(c))
        return GP_ERR_INPUT;
    c->stats->vars++;
    for (uint32_t bit = 0; bit < v->width; bit++) {
        size_t at = c->names.len;
        if (!vec_char_reserve(&c->names, at + EVENTS_NAME_MAX) ||
            !vec_signal_bit_push(&c->signals, (signal_bit){v->id, bit, at, DESIGN_NONE, false}))
            return events_no_memory(c);
        size_t len = (size_t)vcd_bit_name(v, bit, c->names.data + at, EVENTS_NAME_MAX) + 1;
        /* cut: longer than any net name, it stays unmatched */
        c->names.len = at + (len < EVENTS_NAME_MAX ? len : EVENTS_NAME_MAX);
    }
    return GP_OK;
}

/* A part of the declared bits (a parts_fn): the net each names, or the
 * pin. */
static void resolve_part(void *ctx, uint32_t part, uint32_t parts)
{
    collector *c = ctx;
    uint64_t n = c->signals.len;
    for (uint64_t k = parts_begin(n, part, parts); k < parts_begin(n, part + 1, parts); k++) {
        signal_bit *s = &c->signals.data[k];
        char *name = c->names.data + s->name;
        s->net = design_find_net(c->dg, name);
        if (s->net == DESIGN_NONE)
            s->net = driven_by_pin(c->dg, name, &s->is_pin);
    }
}

/* The bindings, in declaration order: the first bit that names a net binds
 * it; the counts, the hints and the notes of the others. */
static gp_status bind_signals(collector *c)
{
    parts_run(resolve_part, c, parts_for(c->signals.len, c->threads));
    for (size_t k = 0; k < c->signals.len; k++) {
        const signal_bit *s = &c->signals.data[k];
        const char *name = c->names.data + s->name;
        if (s->net == DESIGN_NONE && s->is_pin) {
            c->stats->signals_pins++;
        } else if (s->net == DESIGN_NONE) {
            c->stats->signals_unmatched++;
            tally_scope_hint(c, name);
            if (c->opt->list_unmatched)
                diag_note(c->d, 7102, DIAG_NOWHERE, "activity signal '%s' names no net", name);
        } else if (c->net_bound[s->net]) {
            c->stats->signals_matched++;
            c->stats->signals_duplicate++;
        } else {
            c->stats->signals_matched++;
            c->net_bound[s->net] = 1;
            c->stats->nets_bound++;
            if (!vec_binding_push(&c->bindings, (binding){s->id, s->bit, s->net}))
                return events_no_memory(c);
        }
    }
    vec_signal_bit_free(&c->signals);
    vec_char_free(&c->names);
    return GP_OK;
}

static uint32_t binding_slot(const collector *c, binding b) { return events_slot(c, b.id, b.bit); }

/* The nets of the slots several bindings share, in declaration order;
 * `count` holds each slot's bindings and becomes each aliased slot's fill. */
static gp_status bind_aliases(collector *c, uint32_t *count)
{
    uint32_t aliased = 0, nets = 0;
    for (uint32_t s = 0; s < c->n_slots; s++)
        if (count[s] > 1)
            c->slot_net[s] = EVENTS_ALIASED | aliased++, nets += count[s];
    c->aliases = aliased;
    c->alias0 = mem_calloc((size_t)aliased + 1, sizeof *c->alias0);
    c->alias_nets = mem_alloc((nets ? nets : 1) * sizeof *c->alias_nets);
    if (!c->alias0 || !c->alias_nets)
        return events_no_memory(c);
    for (uint32_t s = 0; s < c->n_slots; s++)
        if (count[s] > 1)
            c->alias0[(c->slot_net[s] & ~EVENTS_ALIASED) + 1] = count[s];
    for (uint32_t k = 0; k < aliased; k++)
        c->alias0[k + 1] += c->alias0[k];
    memset(count, 0, c->n_slots * sizeof *count);
    for (size_t k = 0; k < c->bindings.len; k++) {
        binding b = c->bindings.data[k];
        uint32_t s = binding_slot(c, b);
        c->net_slot[b.net] = s;
        if (c->slot_net[s] != DESIGN_NONE && (c->slot_net[s] & EVENTS_ALIASED)) {
            uint32_t a = c->slot_net[s] & ~EVENTS_ALIASED;
            c->alias_nets[c->alias0[a] + count[s]++] = b.net;
        } else {
            c->slot_net[s] = b.net;
        }
    }
    return GP_OK;
}

/* The slot tables from the bindings: slot_net, net_slot, the aliases. */
static gp_status bind_slots(collector *c)
{
    uint32_t n_nets = c->dg->n_nets, slots = c->n_slots ? c->n_slots : 1;
    c->slot_net = mem_alloc(slots * sizeof *c->slot_net);
    c->net_slot = mem_alloc((n_nets ? n_nets : 1) * sizeof *c->net_slot);
    uint32_t *count = mem_zeroed(slots, sizeof *count);
    gp_status st = c->slot_net && c->net_slot && count ? GP_OK : events_no_memory(c);
    for (uint32_t s = 0; st == GP_OK && s < c->n_slots; s++)
        c->slot_net[s] = DESIGN_NONE;
    for (uint32_t n = 0; st == GP_OK && n < n_nets; n++)
        c->net_slot[n] = DESIGN_NONE;
    for (size_t k = 0; st == GP_OK && k < c->bindings.len; k++)
        count[binding_slot(c, c->bindings.data[k])]++;
    if (st == GP_OK)
        st = bind_aliases(c, count);
    mem_free(count);
    return st;
}

/* Ids none of whose bits is bound keep no changes (a binding before any
 * change: the changes read before a later one are kept by slot); none to
 * drop when every declared bit was bound.  Without the memory for the
 * filter every change is kept, as when bound later. */
static void drop_unbound_ids(collector *c)
{
    const events_stats *st = c->stats;
    if (st->signals_unmatched == 0 && st->signals_pins == 0 && st->signals_duplicate == 0)
        return;
    uint32_t *kept = mem_alloc((c->id_count ? c->id_count : 1) * sizeof *kept);
    for (uint32_t id = 0; kept && id < c->id_count; id++) {
        uint32_t s0 = events_slot(c, id, 0);
        bool any = s0 != DESIGN_NONE && c->slot_net[s0] != DESIGN_NONE;
        for (uint32_t s = c->upper0[id]; s < c->upper0[id + 1] && !any; s++)
            any = c->slot_net[c->id_slots + s] != DESIGN_NONE;
        kept[id] = any ? s0 : DESIGN_NONE;
    }
    c->id_kept = kept;
}

/* The binding itself, with the design at hand. */
static gp_status bind_design(collector *c)
{
    if (c->dg->n_nets > EVENTS_MAX_SLOTS) {
        diag_error(c->d, 7103, DIAG_NOWHERE, "the design has %u nets: activity is read for at "
                   "most 2^30 - 1 nets", c->dg->n_nets);
        return GP_ERR_UNSUPPORTED;
    }
    c->net_bound = mem_zeroed(c->dg->n_nets ? c->dg->n_nets : 1, 1);
    gp_status st = c->net_bound ? bind_signals(c) : events_no_memory(c);
    if (st == GP_OK)
        st = bind_slots(c);
    vec_binding_free(&c->bindings);
    choose_scope_hint(c);
    if (st == GP_OK && c->opt->bound)
        st = c->opt->bound(c->opt->bound_ctx, c->net_bound, c->stats);
    return st;
}

gp_status events_bind(collector *c)
{
    if (c->bound)
        return c->bind_status;
    c->bound = true;
    gp_status st = GP_OK;
    if (!c->dg) {
        double start = progress_now_seconds();
        st = c->opt->design ? c->opt->design(c->opt->design_ctx, &c->dg) : GP_ERR_USAGE;
        c->stats->design_wait_seconds += progress_now_seconds() - start;
    }
    c->bind_status = st == GP_OK ? bind_design(c) : st;
    return c->bind_status;
}

/* A slot for bit 0 of every id from the lowest to the highest the scope
 * declares (ids follow the declarations: a scope's are mostly together),
 * and one for every other bit declared after those: an id's bits are as
 * many as its widest declaration's. */
static gp_status make_slots(collector *c, uint32_t id_count)
{
    c->id_count = id_count;
    c->upper0 = mem_zeroed((size_t)id_count + 1, sizeof *c->upper0);
    if (!c->upper0)
        return events_no_memory(c);
    uint32_t lo = UINT32_MAX, hi = 0;
    for (size_t k = 0; k < c->signals.len; k++) {
        const signal_bit *s = &c->signals.data[k];
        lo = s->id < lo ? s->id : lo;
        hi = s->id > hi ? s->id : hi;
        if (c->upper0[s->id + 1] < s->bit)
            c->upper0[s->id + 1] = s->bit;
    }
    c->id_lo = c->signals.len ? lo : 0;
    c->id_slots = c->signals.len ? hi - lo + 1 : 0;
    uint64_t upper = 0;
    for (uint32_t id = 0; id < id_count; id++) {
        upper += c->upper0[id + 1];
        c->upper0[id + 1] = (uint32_t)(upper < EVENTS_MAX_SLOTS ? upper : EVENTS_MAX_SLOTS);
    }
    if (c->id_slots + upper > EVENTS_MAX_SLOTS) {
        diag_error(c->d, 7104, DIAG_NOWHERE, "the dump declares %u identifiers and %llu more "
                   "vector bits under the scope: activity is read for at most 2^30 - 1 in all",
                   c->id_slots, (unsigned long long)upper);
        return GP_ERR_UNSUPPORTED;
    }
    c->n_slots = c->id_slots + (uint32_t)upper;
    return GP_OK;
}

/* The slots of the bits declared; bound now when the design is given. */
static gp_status on_start(void *ctx, const vcd_info *info)
{
    collector *c = ctx;
    c->stats->header_seconds = progress_now_seconds() - c->read_start;
    c->stats->format = info->format;
    c->stats->last_time_fs = info->last_time_fs;
    c->stats->header_pieces = info->header_pieces;
    gp_status st = make_slots(c, info->id_count);
    if (st == GP_OK && c->dg) {
        st = events_bind(c);
        if (st == GP_OK)
            drop_unbound_ids(c);
    }
    if (st != GP_OK)
        return st;
    events_parts_init(c);
    return events_parts_reset(c, 1);
}

/* The changes in file order: the parts of a reading on one thread. */
static gp_status on_changes(void *ctx, int64_t time_fs, const vcd_change *ch, size_t n)
{
    if (events_stopped(ctx))
        return GP_ERR_INPUT;
    gp_status st = events_on_seq_changes(ctx, time_fs, ch, n);
    return st == GP_ERR_NOMEM ? events_no_memory(ctx) : st;
}

/* A span's store takes about this many bytes a byte of its text: 16 a
 * change (EVENTS_HELD_BYTES) of 4 bytes or more. */
#define EVENTS_SPAN_HELD_PER_BYTE 4

/* A span is read alone when its store fits the consumer's memory: it is
 * one window, since its carry needs every change of it. */
static bool on_span(void *ctx, int64_t from_fs, uint64_t bytes)
{
    (void)from_fs;
    collector *c = ctx;
    uint64_t memory = c->consumer->memory;
    c->span_read = !memory || bytes <= memory / EVENTS_SPAN_HELD_PER_BYTE;
    c->stats->span_bytes = c->span_read ? bytes : 0;
    return c->span_read;
}

static gp_status on_finish(void *ctx, int64_t end_time_fs)
{
    ((collector *)ctx)->end_fs = end_time_fs;
    return GP_OK;
}

/* Reads the dump into c's buckets (and windows, streaming). */
static gp_status read_dump(collector *c, const char *path)
{
    const events_options *opt = c->opt;
    c->threads = parts_threads(opt->threads);
    c->read_start = progress_now_seconds();
    uint64_t memory = c->consumer ? c->consumer->memory : 0;
    c->window_words = memory ? (memory + EVENTS_HELD_BYTES - 1) / EVENTS_HELD_BYTES : 0;
    vcd_options vo = {.scope = opt->scope, .bar = opt->bar, .threads = c->threads,
                      .part_size = opt->part_size, .batch_bytes = memory / EVENTS_BATCH_SHARE,
                      .span = events_spanned(c) && c->consumer && c->dg,
                      .span_from_fs = opt->span_from_fs, .span_to_fs = opt->span_to_fs};
    vcd_sink sink = {.ctx = c, .var = on_var, .start = on_start, .changes = on_changes,
                     .finish = on_finish, .parts = events_on_parts,
                     .part_changes = events_on_part_changes,
                     .part_times = events_on_part_times, .part_run = events_on_part_run,
                     .parts_done = memory ? events_on_parts_done : NULL, .span = on_span};
    return vcd_read(path, &vo, &sink, c->d);
}

static void collector_free(collector *c)
{
    c->stats->parts = c->n_parts;
    events_parts_free(c);
    vec_signal_bit_free(&c->signals);
    vec_char_free(&c->names);
    vec_binding_free(&c->bindings);
    mem_free(c->net_bound);
    mem_free(c->upper0);
    mem_free(c->slot_net);
    mem_free(c->net_slot);
    mem_free(c->id_kept);
    mem_free(c->alias0);
    mem_free(c->alias_nets);
}

gp_status events_read(const design *dg, const char *path, const events_options *opt,
                      events **out, events_stats *stats, diag_ctx *d)
{
    memset(stats, 0, sizeof *stats);
    collector c = {.dg = dg, .opt = opt, .stats = stats, .d = d};
    events *ev = mem_calloc(1, sizeof *ev);
    gp_status st = ev ? read_dump(&c, path) : events_no_memory(&c);
    if (st == GP_OK)
        st = events_parts_store(&c, ev);
    collector_free(&c);
    *out = st == GP_OK ? ev : NULL;
    if (st != GP_OK)
        events_free(ev);
    return st;
}

gp_status events_stream(const design *dg, const char *path, const events_options *opt,
                        const events_consumer *consumer, events_stats *stats, diag_ctx *d)
{
    memset(stats, 0, sizeof *stats);
    collector c = {.dg = dg, .opt = opt, .stats = stats, .d = d, .consumer = consumer};
    gp_status st = read_dump(&c, path);
    if (st == GP_OK)
        st = events_parts_last_window(&c);
    if (c.enough)
        st = GP_OK;
    if (events_spanned(&c) && !c.edge_done) { /* every rank makes the exchange */
        gp_status edge = events_edge_none(&c);
        st = st == GP_OK ? edge : st;
    }
    collector_free(&c);
    return st;
}

int64_t events_first_time(const events *ev, int64_t none)
{
    int64_t t0 = INT64_MAX;
    for (uint32_t n = 0; n < ev->n_nets; n++)
        if (ev->net_ev0[n + 1] > ev->net_ev0[n] && events_time(ev, ev->net_ev0[n]) < t0)
            t0 = events_time(ev, ev->net_ev0[n]);
    return t0 == INT64_MAX ? none : t0;
}

void events_free(events *ev)
{
    if (!ev)
        return;
    mem_free(ev->net_ev0);
    mem_free(ev->word);
    mem_free(ev);
}
