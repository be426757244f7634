/* events.c: binding a dump's signals to the design's nets (by flat name under
 * the chosen scope) and collecting their changes into the event store.
 *
 * While the header is read, each bit of each variable is kept with its
 * name; at `start` the names are looked up among the nets' names and
 * aliases (on threads: a million lookups miss the caches one by one), the
 * bindings made in declaration order, and they become a table from
 * (variable id, bit) to nets.  The changes go to events_parts.c's buckets:
 * a dump read in file order is one part, a plain VCD read on threads as
 * many as the reader cut (vcd.h); the store is built from them, once at
 * the end or, streaming, in windows as the dump is read. */
#include <stdio.h>
#include <string.h>

#include "events/events_int.h"
#include "util/mem.h"
#include "util/parts.h"

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
    char name[4096];
    c->stats->vars++;
    for (uint32_t bit = 0; bit < v->width; bit++) {
        if (vcd_bit_name(v, bit, name, sizeof name) >= (int)sizeof name)
            name[sizeof name - 1] = '\0'; /* longer than any net name: stays unmatched */
        size_t at = c->names.len, len = strlen(name) + 1;
        if (!vec_char_resize(&c->names, at + len) ||
            !vec_signal_bit_push(&c->signals, (signal_bit){v->id, bit, at, DESIGN_NONE, false}))
            return events_no_memory(c);
        memcpy(c->names.data + at, name, len);
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

static uint32_t binding_slot(const collector *c, binding b) { return c->slot0[b.id] + b.bit; }

/* The nets of the slots several bindings share, in declaration order;
 * `count` holds each slot's bindings and becomes each aliased slot's fill. */
static gp_status bind_aliases(collector *c, uint32_t slots, uint32_t *count)
{
    uint32_t aliased = 0, nets = 0;
    for (uint32_t s = 0; s < slots; s++)
        if (count[s] > 1)
            c->slot_net[s] = EVENTS_ALIASED | aliased++, nets += count[s];
    c->alias0 = mem_calloc((size_t)aliased + 1, sizeof *c->alias0);
    c->alias_nets = mem_alloc((nets ? nets : 1) * sizeof *c->alias_nets);
    if (!c->alias0 || !c->alias_nets)
        return events_no_memory(c);
    for (uint32_t s = 0; s < slots; s++)
        if (count[s] > 1)
            c->alias0[(c->slot_net[s] & ~EVENTS_ALIASED) + 1] = count[s];
    for (uint32_t k = 0; k < aliased; k++)
        c->alias0[k + 1] += c->alias0[k];
    memset(count, 0, slots * sizeof *count);
    for (size_t k = 0; k < c->bindings.len; k++) {
        uint32_t s = binding_slot(c, c->bindings.data[k]);
        if (c->slot_net[s] != DESIGN_NONE && (c->slot_net[s] & EVENTS_ALIASED)) {
            uint32_t a = c->slot_net[s] & ~EVENTS_ALIASED;
            c->alias_nets[c->alias0[a] + count[s]++] = c->bindings.data[k].net;
        } else {
            c->slot_net[s] = c->bindings.data[k].net;
        }
    }
    return GP_OK;
}

/* Each id's bit 0 entry of slot_net, where most changes look. */
static gp_status bind_first_bits(collector *c, uint32_t id_count)
{
    c->id_net = mem_alloc((id_count ? id_count : 1) * sizeof *c->id_net);
    if (!c->id_net)
        return events_no_memory(c);
    for (uint32_t id = 0; id < id_count; id++)
        c->id_net[id] = events_slot_net(c, id, 0);
    return GP_OK;
}

/* Builds the (id, bit) -> nets table from the bindings. */
static gp_status on_start(void *ctx, const vcd_info *info)
{
    collector *c = ctx;
    c->stats->format = info->format;
    gp_status bound = bind_signals(c);
    if (bound != GP_OK)
        return bound;
    c->slot0 = mem_zeroed((size_t)info->id_count + 1, sizeof *c->slot0);
    if (!c->slot0)
        return events_no_memory(c);
    for (size_t k = 0; k < c->bindings.len; k++) {
        binding b = c->bindings.data[k];
        if (c->slot0[b.id + 1] < b.bit + 1)
            c->slot0[b.id + 1] = b.bit + 1; /* the id's width, as far as bound */
    }
    for (uint32_t id = 0; id < info->id_count; id++)
        c->slot0[id + 1] += c->slot0[id];
    uint32_t slots = c->slot0[info->id_count];
    c->slot_net = mem_alloc((slots ? slots : 1) * sizeof *c->slot_net);
    uint32_t *count = mem_zeroed(slots ? slots : 1, sizeof *count);
    gp_status st = c->slot_net && count ? GP_OK : events_no_memory(c);
    for (uint32_t s = 0; st == GP_OK && s < slots; s++)
        c->slot_net[s] = DESIGN_NONE;
    for (size_t k = 0; st == GP_OK && k < c->bindings.len; k++)
        count[binding_slot(c, c->bindings.data[k])]++;
    if (st == GP_OK)
        st = bind_aliases(c, slots, count);
    if (st == GP_OK)
        st = bind_first_bits(c, info->id_count);
    mem_free(count);
    vec_binding_free(&c->bindings);
    choose_scope_hint(c);
    if (st == GP_OK && c->opt->bound)
        st = c->opt->bound(c->opt->bound_ctx, c->net_bound, c->stats);
    return st == GP_OK ? events_parts_reset(c, 1) : st;
}

/* The changes in file order: the parts of a reading on one thread. */
static gp_status on_changes(void *ctx, int64_t time_fs, const vcd_change *ch, size_t n)
{
    gp_status st = events_on_seq_changes(ctx, time_fs, ch, n);
    return st == GP_ERR_NOMEM ? events_no_memory(ctx) : st;
}

static gp_status on_finish(void *ctx, int64_t end_time_fs)
{
    ((collector *)ctx)->end_fs = end_time_fs;
    return GP_OK;
}

/* Reads the dump into c's buckets (and windows, streaming). */
static gp_status read_dump(collector *c, const char *path)
{
    const design *dg = c->dg;
    const events_options *opt = c->opt;
    diag_ctx *d = c->d;
    c->net_bound = mem_zeroed(dg->n_nets ? dg->n_nets : 1, 1);
    if (!c->net_bound)
        return events_no_memory(c);
    if (dg->n_nets > EVENTS_PART_MAX_NETS) {
        diag_error(d, 7103, DIAG_NOWHERE, "the design has %u nets: activity is read for at most "
                   "2^30 - 1 nets", dg->n_nets);
        return GP_ERR_UNSUPPORTED;
    }
    uint32_t threads = opt->threads ? opt->threads : parts_online_cores();
    uint64_t memory = c->consumer ? c->consumer->memory : 0;
    c->window_words = memory ? (memory + EVENTS_HELD_BYTES - 1) / EVENTS_HELD_BYTES : 0;
    vcd_options vo = {.scope = opt->scope, .bar = opt->bar, .threads = threads,
                      .part_size = opt->part_size, .batch_bytes = memory / EVENTS_BATCH_SHARE};
    vcd_sink sink = {.ctx = c, .var = on_var, .start = on_start, .changes = on_changes,
                     .finish = on_finish, .parts = events_on_parts,
                     .part_changes = events_on_part_changes,
                     .parts_done = memory ? events_on_parts_done : NULL};
    events_parts_init(c, threads);
    return vcd_read(path, &vo, &sink, d);
}

static void collector_free(collector *c)
{
    c->stats->parts = c->n_parts;
    events_parts_free(c);
    vec_signal_bit_free(&c->signals);
    vec_char_free(&c->names);
    vec_binding_free(&c->bindings);
    mem_free(c->net_bound);
    mem_free(c->slot0);
    mem_free(c->slot_net);
    mem_free(c->id_net);
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
    collector_free(&c);
    return st;
}

void events_free(events *ev)
{
    if (!ev)
        return;
    mem_free(ev->net_ev0);
    mem_free(ev->word);
    mem_free(ev);
}
