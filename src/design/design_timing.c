/* design_timing.c: the static quantities of SPEC §2: the load of each output
 * pin, slews propagated in topological order through the timing arcs, and
 * NLDM delays per arc and output direction.  The options give the inputs'
 * slews and the ports' loads, and the slews of ideal clock networks, which
 * every pin on such a net takes in place of the propagated one.
 *
 * Order: an instance is computed once every instance driving one of its
 * "timing inputs" (pins that are the related pin of a delay arc: all inputs of
 * a gate, the clock and asynchronous pins of a flop) has been, so clock trees
 * are done before the flops they clock; the instances of one wave
 * (design_waves: no path of timing inputs between them) are computed at once
 * on threads.  Instances on combinational loops are computed last, from
 * whatever slews their inputs have by then; then every input pin takes its
 * driver's final slew. */
#include "design/design_int.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#include "util/mem.h"
#include "util/parts.h"

design_timing_options design_timing_defaults(void)
{
    return (design_timing_options){.input_slew = 1e5, .output_port_load = 0.0};
}

static gp_status no_memory(diag_ctx *d)
{
    diag_error(d, 7009, DIAG_NOWHERE, "out of memory while computing loads, slews and delays");
    return GP_ERR_NOMEM;
}

/* Allocates the timing arrays that are missing; SDF wire delays survive. */
static bool alloc_timing(design *dg)
{
    size_t pins = dg->n_pins ? dg->n_pins : 1, arcs = dg->n_arcs ? dg->n_arcs : 1;
    double **pin_arrays[] = {&dg->pin_load, &dg->pin_slew[0], &dg->pin_slew[1],
                             &dg->pin_wire_delay[0], &dg->pin_wire_delay[1]};
    for (size_t i = 0; i < sizeof pin_arrays / sizeof pin_arrays[0]; i++)
        if (!*pin_arrays[i] && !(*pin_arrays[i] = mem_calloc(pins, sizeof(double))))
            return false;
    if (!dg->net_wire_cap && !(dg->net_wire_cap = mem_calloc(dg->n_nets ? dg->n_nets : 1, sizeof(double))))
        return false;
    for (int dir = 0; dir < 2; dir++)
        if (!dg->arc_delay[dir] && !(dg->arc_delay[dir] = mem_calloc(arcs, sizeof(double))))
            return false;
    if (!dg->arc_from_sdf && !(dg->arc_from_sdf = mem_calloc(arcs, 1)))
        return false;
    return true;
}

/* Adds `load` to every driving pin of net n. */
static void add_to_drivers(design *dg, uint32_t n, double load)
{
    for (uint32_t k = dg->net_pin0[n]; k < dg->net_pin0[n + 1]; k++)
        if (dg->pin_flags[dg->net_pins[k]] & DESIGN_PIN_DRIVES)
            dg->pin_load[dg->net_pins[k]] += load;
}

/* SPEC §2: load = input pin capacitances on the net + wire cap (+ the port
 * load, added after), for nets [first, end); a pin is on one net only. */
static void net_loads(design *dg, uint32_t first, uint32_t end)
{
    for (uint32_t n = first; n < end; n++) {
        double total = dg->net_wire_cap[n];
        for (uint32_t k = dg->net_pin0[n]; k < dg->net_pin0[n + 1]; k++) {
            uint32_t p = dg->net_pins[k];
            dg->pin_load[p] = 0.0;
            if (p != dg->net_driver[n] && (dg->pin_flags[p] & DESIGN_PIN_LOADS))
                total += design_lib_pin(dg, p)->capacitance;
        }
        add_to_drivers(dg, n, total);
    }
}

static void net_loads_part(void *ctx, uint32_t part, uint32_t parts)
{
    design *dg = ctx;
    uint32_t first, end;
    design_nets_part(dg, part, parts, &first, &end);
    net_loads(dg, first, end);
}

double design_net_load_pin_cap(const design *dg, uint32_t n)
{
    double cap = 0;
    for (uint32_t k = dg->net_pin0[n]; k < dg->net_pin0[n + 1]; k++)
        if (dg->pin_flags[dg->net_pins[k]] & DESIGN_PIN_LOADS)
            cap += design_lib_pin(dg, dg->net_pins[k])->capacitance;
    return cap;
}

/* A per-port option's value, or `fallback` where it gives none. */
static double port_option(const double *per_port, uint32_t port, double fallback)
{
    return per_port && !isnan(per_port[port]) ? per_port[port] : fallback;
}

static void compute_loads(design *dg, const design_timing_options *opt)
{
    for (uint32_t p = 0; p < dg->n_pins; p++)
        if (dg->pin_net[p] == DESIGN_NONE)
            dg->pin_load[p] = 0.0;
    parts_run(net_loads_part, dg, parts_for(dg->n_nets, UINT32_MAX));
    for (uint32_t port = 0; port < dg->n_ports; port++)
        if (dg->ports[port].dir != DESIGN_PORT_INPUT && dg->ports[port].net != DESIGN_NONE)
            add_to_drivers(dg, dg->ports[port].net,
                           port_option(opt->port_load, port, opt->output_port_load));
}

/* Marks the pins that are related pins of delay arcs of their cell. */
static void mark_timing_inputs(const design *dg, uint8_t *is_timing_input)
{
    for (uint32_t i = 0; i < dg->n_insts; i++) {
        const lib_cell *c = dg->inst_cell[i];
        for (uint32_t a = 0; a < c->n_arcs; a++)
            if (lib_timing_type_is_delay(c->arcs[a].type) && c->arcs[a].related != LIB_NONE)
                is_timing_input[dg->inst_pin0[i] + (uint32_t)c->arcs[a].related] = 1;
    }
}

/* Where the slews of pins on nets the design does not drive come from:
 * per net, the slew of the input port on it (NULL without per-port
 * slews: the options' input_slew everywhere). */
typedef struct slew_rules {
    const design_timing_options *opt;
    double *port_net_slew[2];
} slew_rules;

/* The ideal clock slew of the pins on net n, or NAN off ideal networks. */
static double ideal_slew(const slew_rules *sr, uint32_t n, int dir)
{
    const double *ideal = sr->opt->net_ideal_slew[dir];
    return ideal ? ideal[n] : NAN;
}

static double outside_slew(const slew_rules *sr, uint32_t n, int dir)
{
    const double *port = sr->port_net_slew[dir];
    return port && !isnan(port[n]) ? port[n] : sr->opt->input_slew;
}

/* The slew an input pin sees: an ideal clock's, its driver's, the input
 * slew for a net driven from outside (a port or nothing), 0 on a constant
 * or no net; for instance i's timing inputs only when `only` is not NULL. */
static void input_slews(design *dg, uint32_t i, const slew_rules *sr, const uint8_t *only)
{
    for (uint32_t p = dg->inst_pin0[i]; p < dg->inst_pin0[i + 1]; p++) {
        if (!(dg->pin_flags[p] & DESIGN_PIN_LOADS) || (only && !only[p]))
            continue;
        uint32_t n = dg->pin_net[p];
        for (int dir = 0; dir < 2; dir++) {
            double slew;
            if (n == DESIGN_NONE || dg->net_value[n] != DESIGN_VALUE_SIGNAL)
                slew = 0.0;
            else if (!isnan(slew = ideal_slew(sr, n, dir)))
                ;
            else if (dg->net_driver[n] != DESIGN_NONE && dg->net_driver[n] != p)
                slew = dg->pin_slew[dir][dg->net_driver[n]];
            else
                slew = outside_slew(sr, n, dir);
            dg->pin_slew[dir][p] = slew;
        }
    }
}

/* The related pin's slew that drives an output transition `out_dir` through
 * arc `arc` (by timing type for edge arcs, else by unateness; non-unate takes
 * the worse). */
static double arc_input_slew(const design *dg, uint32_t related_pin, const lib_arc *arc, int out_dir)
{
    double rise = dg->pin_slew[DESIGN_RISE][related_pin];
    double fall = dg->pin_slew[DESIGN_FALL][related_pin];
    if (arc->type == LIB_TT_RISING_EDGE)
        return rise;
    if (arc->type == LIB_TT_FALLING_EDGE)
        return fall;
    switch (arc->sense) {
    case LIB_SENSE_POSITIVE_UNATE: return out_dir == DESIGN_RISE ? rise : fall;
    case LIB_SENSE_NEGATIVE_UNATE: return out_dir == DESIGN_RISE ? fall : rise;
    case LIB_SENSE_NON_UNATE: break;
    }
    return fmax(rise, fall);
}

static double lookup_or_nan(const lib_table *t, double slew, double load)
{
    return t ? lib_table_lookup(t, slew, load) : NAN;
}

/* A delay in whole fs, as design.h keeps them (round(NAN) is NAN). */
static double delay_or_nan(const lib_table *t, double slew, double load)
{
    return round(lookup_or_nan(t, slew, load));
}

/* Delays of instance i's arcs and the slews of its outputs: the worst
 * transition over the output's arcs (never below 0), or an ideal clock's
 * on an ideal clock network. */
static void instance_timing(design *dg, uint32_t i, const slew_rules *sr)
{
    const lib_cell *c = dg->inst_cell[i];
    uint32_t pin0 = dg->inst_pin0[i];
    for (uint32_t k = 0; k < c->n_pins; k++)
        if (design_dir_drives(c->pins[k].dir))
            dg->pin_slew[DESIGN_RISE][pin0 + k] = dg->pin_slew[DESIGN_FALL][pin0 + k] = 0.0;
    for (uint32_t a = 0; a < c->n_arcs; a++) {
        const lib_arc *arc = &c->arcs[a];
        uint32_t slot = dg->inst_arc0[i] + a;
        dg->arc_delay[DESIGN_RISE][slot] = dg->arc_delay[DESIGN_FALL][slot] = NAN;
        if (!lib_timing_type_is_delay(arc->type) || arc->related == LIB_NONE)
            continue;
        uint32_t out = pin0 + arc->pin, related = pin0 + (uint32_t)arc->related;
        double load = dg->pin_load[out];
        double rise_in = arc_input_slew(dg, related, arc, DESIGN_RISE);
        double fall_in = arc_input_slew(dg, related, arc, DESIGN_FALL);
        dg->arc_delay[DESIGN_RISE][slot] = delay_or_nan(arc->table[LIB_CELL_RISE], rise_in, load);
        dg->arc_delay[DESIGN_FALL][slot] = delay_or_nan(arc->table[LIB_CELL_FALL], fall_in, load);
        double rise_slew = lookup_or_nan(arc->table[LIB_RISE_TRANSITION], rise_in, load);
        double fall_slew = lookup_or_nan(arc->table[LIB_FALL_TRANSITION], fall_in, load);
        if (rise_slew > dg->pin_slew[DESIGN_RISE][out])
            dg->pin_slew[DESIGN_RISE][out] = rise_slew;
        if (fall_slew > dg->pin_slew[DESIGN_FALL][out])
            dg->pin_slew[DESIGN_FALL][out] = fall_slew;
    }
    for (uint32_t k = 0; k < c->n_pins; k++) {
        uint32_t n = dg->pin_net[pin0 + k];
        if (!design_dir_drives(c->pins[k].dir) || n == DESIGN_NONE)
            continue;
        for (int dir = 0; dir < 2; dir++)
            if (!isnan(ideal_slew(sr, n, dir)))
                dg->pin_slew[dir][pin0 + k] = ideal_slew(sr, n, dir);
    }
}

/* The edges of the timing order: from a net's driving pin to each timing
 * input on the net (g->ctx: is_timing_input per pin). */
static bool net_driver(const design_dag *g, uint32_t p)
{
    return g->dg->net_driver[g->dg->pin_net[p]] == p;
}

static bool timing_input(const design_dag *g, uint32_t p, uint32_t q)
{
    (void)p;
    return ((const uint8_t *)g->ctx)[q] != 0;
}

/* The instances left out of the waves (loops), after them in index order. */
static void append_leftovers(const design *dg, const uint32_t *waiting, uint32_t *order,
                             uint32_t ordered)
{
    for (uint32_t i = 0; i < dg->n_insts; i++)
        if (waiting[i] > 0)
            order[ordered++] = i;
}

/* Instances on threads: a wave's, inst[first .. first + count) (an
 * instance reads only what earlier waves wrote and writes only its own
 * pins and arcs), or, inst NULL, instances [first, first + count) for the
 * inputs' last pass. */
typedef struct timing_wave {
    design *dg;
    const slew_rules *sr;
    const uint8_t *is_timing_input;
    const uint32_t *inst;
    uint32_t first, count;
} timing_wave;

/* How far ahead input_slews' reads are fetched, in instances: each input's
 * net (its driver, whether it is a signal), then its driver's slews, a
 * chain of cache misses that one instance alone would wait for in turn. */
#define TIMING_AHEAD_NETS 16
#define TIMING_AHEAD_SLEWS 8
/* A wave's instances a part takes at least: an instance's timing is about
 * a microsecond (its tables, its inputs' drivers out of cache), and the
 * waves of a large design hold a few thousand each. */
#define TIMING_PART_INSTS 1024

static void fetch_input_nets(const design *dg, uint32_t i)
{
    for (uint32_t p = dg->inst_pin0[i]; p < dg->inst_pin0[i + 1]; p++) {
        uint32_t n = dg->pin_net[p];
        if ((dg->pin_flags[p] & DESIGN_PIN_LOADS) && n != DESIGN_NONE) {
            __builtin_prefetch(&dg->net_driver[n]);
            __builtin_prefetch(&dg->net_value[n]);
        }
    }
}

static void fetch_input_slews(const design *dg, uint32_t i)
{
    for (uint32_t p = dg->inst_pin0[i]; p < dg->inst_pin0[i + 1]; p++) {
        uint32_t n = dg->pin_net[p];
        if (!(dg->pin_flags[p] & DESIGN_PIN_LOADS) || n == DESIGN_NONE)
            continue;
        uint32_t driver = dg->net_driver[n];
        if (driver != DESIGN_NONE) {
            __builtin_prefetch(&dg->pin_slew[DESIGN_RISE][driver]);
            __builtin_prefetch(&dg->pin_slew[DESIGN_FALL][driver]);
        }
    }
}

/* The instance k of tw's list (the wave's, or all in index order). */
static uint32_t wave_inst(const timing_wave *tw, uint64_t k)
{
    return tw->inst ? tw->inst[tw->first + k] : tw->first + (uint32_t)k;
}

/* Instances [begin, end) of tw's list: their input slews, and with `time`
 * their arcs' delays and output slews. */
static void time_wave_range(const timing_wave *tw, uint64_t begin, uint64_t end, bool time)
{
    for (uint64_t k = begin; k < end; k++) {
        if (k + TIMING_AHEAD_NETS < end)
            fetch_input_nets(tw->dg, wave_inst(tw, k + TIMING_AHEAD_NETS));
        if (k + TIMING_AHEAD_SLEWS < end)
            fetch_input_slews(tw->dg, wave_inst(tw, k + TIMING_AHEAD_SLEWS));
        uint32_t i = wave_inst(tw, k);
        input_slews(tw->dg, i, tw->sr, time ? tw->is_timing_input : NULL);
        if (time)
            instance_timing(tw->dg, i, tw->sr);
    }
}

static void time_wave_part(void *ctx, uint32_t part, uint32_t parts)
{
    const timing_wave *tw = ctx;
    time_wave_range(tw, parts_begin(tw->count, part, parts),
                    parts_begin(tw->count, part + 1, parts), true);
}

static void input_slews_part(void *ctx, uint32_t part, uint32_t parts)
{
    const timing_wave *tw = ctx;
    time_wave_range(tw, parts_begin(tw->count, part, parts),
                    parts_begin(tw->count, part + 1, parts), false);
}

static void time_wave(timing_wave *tw, parts_fn *fn, uint32_t first, uint32_t count)
{
    tw->first = first;
    tw->count = count;
    parts_run(fn, tw, parts_for_items(count, UINT32_MAX, TIMING_PART_INSTS));
}

/* Times every instance: the ordered ones wave by wave, the ones left over
 * (loops) after them one by one in index order, from whatever slews their
 * inputs have by then; then every input takes its driver's final slew (a
 * flop's D may be driven by an instance timed after it). */
static void time_instances(design *dg, const slew_rules *sr, const uint8_t *is_timing_input,
                           const uint32_t *order, uint32_t ordered, const uint32_t *wave0,
                           uint32_t waves)
{
    timing_wave tw = {dg, sr, is_timing_input, order, 0, 0};
    for (uint32_t w = 0; w < waves; w++)
        time_wave(&tw, time_wave_part, wave0[w], wave0[w + 1] - wave0[w]);
    for (uint32_t k = ordered; k < dg->n_insts; k++) {
        input_slews(dg, order[k], sr, NULL);
        instance_timing(dg, order[k], sr);
    }
    tw.inst = NULL;
    time_wave(&tw, input_slews_part, 0, dg->n_insts);
}

/* The per-net slews of the input ports the options give; false when out
 * of memory (nothing to do without per-port slews). */
static bool port_net_slews(const design *dg, slew_rules *sr)
{
    for (int dir = 0; dir < 2; dir++) {
        if (!sr->opt->port_slew[dir])
            continue;
        double *slew = sr->port_net_slew[dir] = mem_alloc((dg->n_nets ? dg->n_nets : 1) * sizeof *slew);
        if (!slew)
            return false;
        for (uint32_t n = 0; n < dg->n_nets; n++)
            slew[n] = NAN;
        for (uint32_t port = 0; port < dg->n_ports; port++)
            if (dg->ports[port].dir != DESIGN_PORT_OUTPUT && dg->ports[port].net != DESIGN_NONE)
                slew[dg->ports[port].net] = sr->opt->port_slew[dir][port];
    }
    return true;
}

/* Loads, slews and delays of every instance (the levels aside). */
static gp_status compute_timing(design *dg, const design_timing_options *opt, diag_ctx *d)
{
    size_t n = dg->n_insts ? dg->n_insts : 1;
    uint8_t *is_timing_input = mem_calloc(dg->n_pins ? dg->n_pins : 1, 1);
    uint32_t *waiting = mem_alloc(n * sizeof *waiting), *order = mem_alloc(n * sizeof *order);
    uint32_t *wave0 = mem_alloc((n + 1) * sizeof *wave0);
    slew_rules sr = {.opt = opt};
    uint32_t ordered = 0, waves = 0;
    bool ok = is_timing_input && waiting && order && wave0 && alloc_timing(dg) &&
              port_net_slews(dg, &sr);
    if (ok) {
        compute_loads(dg, opt);
        mark_timing_inputs(dg, is_timing_input);
        design_dag g = {.dg = dg, .ctx = is_timing_input, .from = net_driver,
                        .to = timing_input};
        ok = design_waves(&g, waiting, order, wave0, &ordered, &waves);
    }
    if (ok) {
        append_leftovers(dg, waiting, order, ordered);
        time_instances(dg, &sr, is_timing_input, order, ordered, wave0, waves);
        for (uint32_t a = 0; a < dg->n_arcs; a++)
            dg->arc_from_sdf[a] = 0;
    }
    mem_free(sr.port_net_slew[0]);
    mem_free(sr.port_net_slew[1]);
    mem_free(is_timing_input);
    mem_free(waiting);
    mem_free(order);
    mem_free(wave0);
    return ok ? GP_OK : no_memory(d);
}

/* The levels, on a thread of their own beside the timing: neither reads
 * what the other writes. */
typedef struct levels_job {
    design *dg;
    diag_ctx *d;
    gp_status st;
} levels_job;

static void *levelize_thread(void *arg)
{
    levels_job *job = arg;
    job->st = design_levelize(job->dg, job->d);
    return NULL;
}

/* The messages come as from the levels and then the timing one after the
 * other: each held, the timing's dropped when the levels failed (the
 * timing would not have run). */
gp_status design_compute_timing(design *dg, const design_timing_options *opt, diag_ctx *d)
{
    if (dg->inst_level)
        return compute_timing(dg, opt, d);
    levels_job job = {dg, diag_new_held(d), GP_OK};
    diag_ctx *timing_d = job.d ? diag_new_held(d) : NULL;
    pthread_t levels;
    if (!timing_d || pthread_create(&levels, NULL, levelize_thread, &job) != 0) {
        diag_free(job.d);
        diag_free(timing_d);
        gp_status st = design_levelize(dg, d);
        return st == GP_OK ? compute_timing(dg, opt, d) : st;
    }
    gp_status st = compute_timing(dg, opt, timing_d);
    pthread_join(levels, NULL);
    diag_release(job.d);
    if (job.st == GP_OK)
        diag_release(timing_d);
    diag_free(job.d);
    diag_free(timing_d);
    return job.st == GP_OK ? st : job.st;
}
