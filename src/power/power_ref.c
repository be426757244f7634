/* power_ref.c: the reference engine: SPEC §3 in float64, one thread, one
 * gate at a time, written to be read next to the SPEC and docs/model.md
 * ("Time-based power").  Every faster engine is tested against it.
 *
 * Each gate's pins' events (their nets' events) are walked in time order.
 * Before the events at time t are applied, the state S just before t is
 * taken, the leakage of the interval since the last change is booked, and
 * each event at t is costed (inputs before outputs: pins are ordered so in
 * the library model).  A pin's costed events wait in a per-pin list until its
 * cycle ends, when the glitch rule decides how each is booked.
 *
 * It reads the libraries' own structures, not the fast engines' power
 * model (power_rules.h), so that "fast equals reference" compares two
 * implementations; the few small rules both share are power_rules.h's
 * (a change's direction and weight, r_gl).  The primary-input nets'
 * switching, booked by every engine, is here too (power_book_input_nets). */
#include "power/power_int.h"
#include "power/power_rules.h"

#include <math.h>

#include "design/design.h"
#include "util/mem.h"
#include "util/units.h"
#include "util/vec.h"

/* A costed pin event waiting for the end of its cycle. */
typedef struct pending {
    int64_t t;
    double e_int, e_sw;
} pending;

VEC_DECLARE(vec_pending, pending)

/* One gate's walk through time; the per-pin arrays have room for the
 * largest cell and are reused from gate to gate. */
typedef struct walk {
    const design *dg;
    const events *ev;
    const power_plan *plan;
    power_result *r;
    uint32_t inst, pin0;
    const lib_cell *cell;
    uint8_t *value;         /* per pin: 0, 1, EVENTS_X */
    uint64_t *next, *end;   /* per pin: its net's events still to come */
    int64_t *last_t;        /* per pin: time of its last event, -1 before any */
    uint8_t *last_rise;     /* per pin: whether that event was a rise */
    vec_pending *pending;   /* per pin: costed events of its current cycle */
    int64_t leak_from;      /* start of the interval of constant state */
    bool out_of_memory;
} walk;

/* floor((t - t0) / T), also for t < t0. */
static int64_t cycle_of(const power_plan *plan, int64_t t)
{
    int64_t dt = t - plan->t0;
    return dt >= 0 ? dt / plan->period : -((-dt + plan->period - 1) / plan->period);
}

/* S: bit k set where pin k is 1 (X counts as 0; state variables are 0). */
static uint32_t state_bits(const walk *w)
{
    uint32_t s = 0;
    for (uint32_t k = 0; k < w->cell->n_pins && k < 32; k++)
        s |= (uint32_t)(w->value[k] == 1) << k;
    return s;
}

/* Bit of a pg group in a served-mask: no related_pg_pin is its own group
 * (pg pins from the 63rd on share a bit). */
static uint64_t pg_bit(int32_t related_pg)
{
    return related_pg == LIB_NONE ? 1ull << 63 : 1ull << (related_pg < 62 ? related_pg : 62);
}

/* A `when` the cell's expressions could not compile holds for any state
 * (the first group is used; gatepower warned when the library was read). */
static bool when_holds(const lib_cell *c, const lib_expr *when, uint32_t s)
{
    return !when || lib_expr_eval(c, when, s) != 0;
}

/* SPEC §3.1's choice among the groups of one (pin, related) pair. */
static bool group_chosen(const lib_cell *c, const lib_power *pw, uint32_t s, uint64_t *served)
{
    if ((*served & pg_bit(pw->related_pg)) || !when_holds(c, pw->when, s))
        return false;
    *served |= pg_bit(pw->related_pg);
    return true;
}

/* SPEC §3.1: for each pg group, the first internal_power group of (pin,
 * related) whose `when` S satisfies; their energies summed. */
double power_ref_groups_energy(const lib_cell *c, uint32_t pin, int32_t related, uint32_t s,
                           bool rise, double slew, double load)
{
    const lib_pin *p = &c->pins[pin];
    uint64_t served = 0;
    double e = 0.0;
    for (uint32_t g = p->first_power; g < p->first_power + p->n_powers; g++) {
        const lib_power *pw = &c->powers[g];
        if (pw->related != related || !group_chosen(c, pw, s, &served))
            continue;
        const lib_table *t = rise ? pw->rise : pw->fall;
        if (t)
            e += lib_table_lookup(t, slew, load);
    }
    return e;
}

/* The delay of the first delay arc of output k related to r; 0 if none. */
static double arc_delay_fs(const walk *w, uint32_t k, uint32_t r, bool rise)
{
    int32_t a = lib_first_delay_arc(w->cell, k, r);
    if (a == LIB_NONE)
        return 0.0;
    uint32_t slot = w->dg->inst_arc0[w->inst] + (uint32_t)a;
    double delay = w->dg->arc_delay[rise ? DESIGN_RISE : DESIGN_FALL][slot];
    return isnan(delay) ? 0.0 : delay;
}

static double pin_slew(const walk *w, uint32_t k, bool rise)
{
    return w->dg->pin_slew[rise ? DESIGN_RISE : DESIGN_FALL][w->pin0 + k];
}

/* The related input: among inputs with internal_power groups for pin k
 * whose last event (at or before t) lies in t's cycle, the one minimising
 * |t - delay - t_r|; -1 when there is none. */
static int32_t related_input(const walk *w, uint32_t k, int64_t t, bool rise)
{
    int32_t best = -1;
    double best_gap = INFINITY;
    for (uint32_t r = 0; r < w->cell->n_pins; r++) {
        if (r == k || !design_dir_loads(w->cell->pins[r].dir) || w->last_t[r] < 0 ||
            cycle_of(w->plan, w->last_t[r]) != cycle_of(w->plan, t) ||
            !lib_pin_has_power(w->cell, k, (int32_t)r))
            continue;
        double gap = fabs((double)(t - w->last_t[r]) - arc_delay_fs(w, k, r, rise));
        if (gap < best_gap)
            best = (int32_t)r, best_gap = gap;
    }
    return best;
}

/* Internal energy of an output event of pin k (SPEC §3.1). */
static double output_internal(const walk *w, uint32_t k, int64_t t, bool rise, uint32_t s)
{
    const lib_cell *c = w->cell;
    double load = w->dg->pin_load[w->pin0 + k];
    int32_t r = related_input(w, k, t, rise);
    if (r >= 0)
        return power_ref_groups_energy(c, k, r, s, rise, pin_slew(w, (uint32_t)r, w->last_rise[r]), load);
    double sum = 0.0;
    int terms = 0;
    for (uint32_t q = 0; q < c->n_pins; q++) {
        if (q == k || !design_dir_loads(c->pins[q].dir) || !lib_pin_has_power(c, k, (int32_t)q))
            continue;
        for (int in_rise = 0; in_rise < 2; in_rise++, terms++)
            sum += power_ref_groups_energy(c, k, (int32_t)q, s, rise, pin_slew(w, q, in_rise), load);
    }
    if (terms > 0)
        return sum / terms;
    return power_ref_groups_energy(c, k, LIB_NONE, s, rise, pin_slew(w, k, rise), load);
}

/* Books the pending events of pin k by the glitch rule (SPEC §3.4). */
static void flush_pin(walk *w, uint32_t k)
{
    vec_pending *pend = &w->pending[k];
    size_t n = pend->len;
    if (n == 0)
        return;
    bool on_clock = w->plan->clock_net[w->dg->pin_net[w->pin0 + k]];
    size_t glitches = !w->plan->glitch || on_clock || n < 2 ? 0 : n - n % 2;
    double tr = pin_slew(w, k, true), tf = pin_slew(w, k, false);
    for (size_t i = 0; i < n; i++) {
        const pending *e = &pend->data[i];
        uint32_t bin = power_bin_of(w->plan, e->t);
        if (i < glitches) {
            double r_gl = power_glitch_ratio((double)(pend->data[i ^ 1].t - e->t), tr, tf);
            power_book(w->r, w->plan, w->inst, POWER_GLITCH_INTERNAL, bin, e->e_int * r_gl);
            power_book(w->r, w->plan, w->inst, POWER_GLITCH_SWITCHING, bin, e->e_sw * r_gl);
        } else {
            power_book(w->r, w->plan, w->inst, POWER_INTERNAL, bin, e->e_int);
            power_book(w->r, w->plan, w->inst, POWER_SWITCHING, bin, e->e_sw);
        }
    }
    pend->len = 0;
}

/* Costs one event of pin k at t (inside the window) and queues it. */
static void cost_event(walk *w, uint32_t k, int64_t t, uint8_t old, uint8_t now, uint32_t s)
{
    const lib_pin *pin = &w->cell->pins[k];
    bool rise = power_is_rise(old, now);
    double weight = power_weight(old, now);
    double e_int, e_sw = 0.0;
    uint32_t p = w->pin0 + k;
    if (design_dir_drives(pin->dir)) {
        e_int = output_internal(w, k, t, rise, s);
        double volts = w->cell->library->voltage;
        if (rise && w->dg->net_driver[w->dg->pin_net[p]] == p)
            e_sw = w->dg->pin_load[p] * volts * volts;
    } else {
        e_int = power_ref_groups_energy(w->cell, k, LIB_NONE, s, rise, pin_slew(w, k, rise), 0.0);
    }
    vec_pending *pend = &w->pending[k];
    if (pend->len > 0 && power_bin_of(w->plan, pend->data[0].t) != power_bin_of(w->plan, t))
        flush_pin(w, k);
    if (!vec_pending_push(pend, (pending){t, weight * e_int, weight * e_sw}))
        w->out_of_memory = true;
    w->r->events_used++;
}

/* SPEC §3.3: per pg group the first leakage_power whose `when` holds, else
 * its unconditional one; none at all: cell_leakage_power. */
double power_ref_leakage(const lib_cell *c, uint32_t s)
{
    uint64_t served = 0;
    double total = 0.0;
    for (int with_when = 1; with_when >= 0; with_when--)
        for (uint32_t g = 0; g < c->n_leakages; g++) {
            const lib_leakage *lk = &c->leakages[g];
            if ((lk->when != NULL) != with_when || (served & pg_bit(lk->related_pg)) ||
                !when_holds(c, lk->when, s))
                continue;
            served |= pg_bit(lk->related_pg);
            total += lk->value;
        }
    return served ? total : c->cell_leakage_power;
}

/* Books the leakage of state s from w->leak_from to t, split over bins. */
static void leak_until(walk *w, int64_t t, uint32_t s)
{
    const power_plan *plan = w->plan;
    int64_t a = w->leak_from > plan->t0 ? w->leak_from : plan->t0;
    int64_t b = t < plan->t1 ? t : plan->t1;
    w->leak_from = t;
    if (a >= b)
        return;
    double watts = power_ref_leakage(w->cell, s);
    while (a < b) {
        uint32_t bin = power_bin_of(plan, a);
        int64_t bin_end = plan->t0 + (int64_t)(bin + 1) * plan->period;
        int64_t end = b < bin_end ? b : bin_end;
        double joules = watts * (double)(end - a) * GP_S_PER_FS;
        power_book(w->r, plan, w->inst, POWER_LEAKAGE, bin, joules);
        a = end;
    }
}

/* X for signal nets (every bit is X before its first event), else the constant. */
uint8_t power_start_value(const design *dg, uint32_t net)
{
    static const uint8_t constant_value[] = {[DESIGN_VALUE_SIGNAL] = EVENTS_X, [DESIGN_VALUE_0] = 0,
                                             [DESIGN_VALUE_1] = 1, [DESIGN_VALUE_X] = EVENTS_X};
    return net == DESIGN_NONE ? EVENTS_X : constant_value[dg->net_value[net]];
}

/* Points pin k at its net's events and its starting value. */
static void start_pin(walk *w, uint32_t k)
{
    uint32_t n = w->dg->pin_net[w->pin0 + k];
    w->value[k] = power_start_value(w->dg, n);
    w->next[k] = w->end[k] = 0;
    if (n != DESIGN_NONE) {
        w->next[k] = w->ev->net_ev0[n];
        w->end[k] = w->ev->net_ev0[n + 1];
    }
    w->last_t[k] = -1;
    w->pending[k].len = 0;
}

/* Applies (and, inside the window, costs) every event of pin k at time t. */
static void apply_events_at(walk *w, uint32_t k, int64_t t, uint32_t s)
{
    uint32_t n = w->dg->pin_net[w->pin0 + k];
    for (; w->next[k] < w->end[k] && events_time(w->ev, w->next[k]) == t; w->next[k]++) {
        uint8_t old = w->value[k], now = events_value(w->ev, w->next[k]);
        bool initial = old == EVENTS_X && t == w->plan->dump_start && w->next[k] == w->ev->net_ev0[n];
        w->value[k] = now;
        if (initial)
            continue; /* only the starting value: no transition, no related event */
        if (old != now && t >= w->plan->t0)
            cost_event(w, k, t, old, now, s);
        w->last_t[k] = t;
        w->last_rise[k] = power_is_rise(old, now);
    }
}

static void walk_gate(walk *w, uint32_t inst)
{
    w->inst = inst;
    w->cell = w->dg->inst_cell[inst];
    w->pin0 = w->dg->inst_pin0[inst];
    w->leak_from = w->plan->t0;
    uint32_t n_pins = w->cell->n_pins;
    for (uint32_t k = 0; k < n_pins; k++)
        start_pin(w, k);
    for (;;) {
        int64_t t = INT64_MAX;
        for (uint32_t k = 0; k < n_pins; k++)
            if (w->next[k] < w->end[k] && events_time(w->ev, w->next[k]) < t)
                t = events_time(w->ev, w->next[k]);
        if (t >= w->plan->t1)
            break;
        uint32_t s = state_bits(w);
        leak_until(w, t, s);
        for (uint32_t k = 0; k < n_pins; k++)
            apply_events_at(w, k, t, s);
    }
    leak_until(w, w->plan->t1, state_bits(w));
    for (uint32_t k = 0; k < n_pins; k++)
        flush_pin(w, k);
}

/* Nets driven from outside (primary inputs): C·V² per rise, IO group. */
void power_book_input_nets(const design *dg, const events *ev, const power_plan *plan,
                           power_result *r)
{
    double volts = lib_library_count(dg->libs) ? lib_library_at(dg->libs, 0)->voltage : 0.0;
    for (uint32_t n = 0; n < dg->n_nets; n++) {
        if (dg->net_driver[n] != DESIGN_NONE || dg->net_value[n] != DESIGN_VALUE_SIGNAL)
            continue;
        double cap = dg->net_wire_cap[n];
        for (uint32_t k = dg->net_pin0[n]; k < dg->net_pin0[n + 1]; k++)
            if (design_dir_loads(design_lib_pin(dg, dg->net_pins[k])->dir))
                cap += design_lib_pin(dg, dg->net_pins[k])->capacitance;
        uint8_t old = EVENTS_X;
        for (uint64_t e = ev->net_ev0[n]; e < ev->net_ev0[n + 1]; e++) {
            int64_t t = events_time(ev, e);
            uint8_t now = events_value(ev, e);
            bool initial = e == ev->net_ev0[n] && t == plan->dump_start;
            if (!initial && power_is_rise(old, now) && t >= plan->t0 && t < plan->t1) {
                double weight = power_weight(old, now);
                power_book(r, plan, DESIGN_NONE, POWER_SWITCHING, power_bin_of(plan, t),
                           weight * cap * volts * volts);
            }
            old = now;
        }
    }
}

static bool walk_alloc(walk *w, uint32_t max_pins)
{
    size_t n = max_pins ? max_pins : 1;
    w->value = mem_calloc(n, 1);
    w->last_rise = mem_calloc(n, 1);
    w->next = mem_calloc(n, sizeof *w->next);
    w->end = mem_calloc(n, sizeof *w->end);
    w->last_t = mem_calloc(n, sizeof *w->last_t);
    w->pending = mem_calloc(n, sizeof *w->pending);
    return w->value && w->last_rise && w->next && w->end && w->last_t && w->pending;
}

static void walk_free(walk *w, uint32_t max_pins)
{
    for (uint32_t k = 0; w->pending && k < max_pins; k++)
        vec_pending_free(&w->pending[k]);
    mem_free(w->value);
    mem_free(w->last_rise);
    mem_free(w->next);
    mem_free(w->end);
    mem_free(w->last_t);
    mem_free(w->pending);
}

gp_status power_analyze_ref(const design *dg, const events *ev, const power_options *opt,
                            power_result **out, diag_ctx *d)
{
    *out = NULL;
    power_plan plan;
    gp_status st = power_plan_make(dg, ev, opt, &plan, d);
    if (st != GP_OK)
        return st;
    power_result *r = power_result_new(dg, &plan, d);
    if (r && opt->exact && !power_result_keep_exact(r, d)) {
        power_result_free(r);
        r = NULL;
    }
    uint32_t max_pins = 0;
    for (uint32_t i = 0; i < dg->n_insts; i++)
        max_pins = dg->inst_cell[i]->n_pins > max_pins ? dg->inst_cell[i]->n_pins : max_pins;
    walk w = {.dg = dg, .ev = ev, .plan = &plan, .r = r};
    bool ok = r && walk_alloc(&w, max_pins);
    for (uint32_t i = 0; ok && i < dg->n_insts && !w.out_of_memory; i++)
        walk_gate(&w, i);
    if (ok && !w.out_of_memory) {
        power_book_input_nets(dg, ev, &plan, r);
        power_result_settle(r);
    }
    walk_free(&w, max_pins);
    power_plan_free(&plan);
    if (!ok || w.out_of_memory) {
        power_result_free(r);
        diag_error(d, 8008, DIAG_NOWHERE, "out of memory in the reference power engine");
        return GP_ERR_NOMEM;
    }
    *out = r;
    return GP_OK;
}
