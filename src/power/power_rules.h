/* power_rules.h: SPEC §3's rules over the power model (power_model.h),
 * each written once for every fast engine: GP_HOSTDEV, so that the CPU
 * engine and every CUDA kernel run the same expressions.  The engines keep
 * their own loops and layouts (tasks, shared-memory staging, warps); what
 * decides a number is here.  The reference engine (power_ref.c) is the
 * other implementation, over the libraries' own structures.
 *
 * A `sipl` argument is the state-indexed lookup switch (cuda_power.h): on,
 * a dense cell's groups and leakage come from its tables; off, from a scan
 * of its groups.  Both give the same numbers; the CUDA kernels pass a
 * constant, so each of their variants holds one path. */
#ifndef GP_POWER_POWER_RULES_H
#define GP_POWER_POWER_RULES_H

#include <math.h>

#include "events/events.h"
#include "liberty/liberty_lookup.h"
#include "power/power_model.h"
#include "util/hostdev.h"
#include "util/units.h"

/* ---- events ------------------------------------------------------------------ */

/* Whether a change old -> now is a rise (to 1, or from 0 to X) and its
 * weight: a change to or from X is half a transition. */
GP_HOSTDEV bool power_is_rise(uint8_t old, uint8_t now)
{
    return now == 1 || (now == EVENTS_X && old == 0);
}
GP_HOSTDEV double power_weight(uint8_t old, uint8_t now)
{
    return old == EVENTS_X || now == EVENTS_X ? 0.5 : 1.0;
}

/* Whether an event at t from value `before` only gives its net its
 * starting value (no transition, no related event) if it is the net's
 * first: from X at the dump's start.  Callers test the first-ness after
 * it: in their layouts it is the dearer test. */
GP_HOSTDEV bool power_may_be_initial(uint8_t before, int64_t t, int64_t dump_start)
{
    return before == EVENTS_X && t == dump_start;
}

/* The last i < n with a[i] <= key (a non-decreasing, a[0] <= key): the
 * item of an offsets table (a gate's tasks, a pin's events) that item
 * `key` of the whole belongs to. */
GP_HOSTDEV uint32_t power_last_at_or_below(const uint64_t *a, uint32_t n, uint64_t key)
{
    uint32_t lo = 0, hi = n;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a[mid] <= key)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* ---- leakage ----------------------------------------------------------------- */

/* The energy (J) of `watts` from t0 to t1 (fs): every piece of leakage is
 * this one expression, whatever cuts the time into pieces. */
GP_HOSTDEV double power_leak_energy(double watts, int64_t t0, int64_t t1)
{
    return watts * (double)(t1 - t0) * GP_S_PER_FS;
}

/* ---- exact sums (--deterministic) ---------------------------------------------------- */

/* An energy e (J) as a 128-bit fixed-point number in units of 2^-120 J, two's
 * complement in two 64-bit words: |e| below 128 J converts exactly to the
 * last unit (a double's 53 bits lie above it), so integer sums of them do
 * not depend on their order. */
GP_HOSTDEV void power_exact_words(double e, uint64_t *lo, uint64_t *hi)
{
    double x = fabs(e) * 0x1p120;
    uint64_t h = (uint64_t)(x * 0x1p-64);
    uint64_t l = (uint64_t)(x - (double)h * 0x1p64);
    if (e < 0) {
        l = ~l + 1;
        h = ~h + (l == 0);
    }
    *lo = l;
    *hi = h;
}

/* The value (J) of a fixed-point sum, low word lo, high word hi. */
GP_HOSTDEV double power_exact_value(uint64_t lo, uint64_t hi)
{
    return ((double)(int64_t)hi * 0x1p64 + (double)lo) * 0x1p-120;
}

/* Adds the fixed-point number (lo, hi) to sum w (w[0] its low word, w[1]
 * its high word), without atomics. */
GP_HOSTDEV void power_exact_add_words(uint64_t *w, uint64_t lo, uint64_t hi)
{
    uint64_t low = w[0] + lo;
    w[1] += hi + (low < lo);
    w[0] = low;
}

/* Adds the n sums at a to the n sums at w (two words each). */
GP_HOSTDEV void power_exact_add_sums(uint64_t *w, const uint64_t *a, size_t n)
{
    for (size_t k = 0; k < n; k++)
        power_exact_add_words(&w[2 * k], a[2 * k], a[2 * k + 1]);
}

/* Adds e (|e| below 128 J) to sum w. */
GP_HOSTDEV void power_exact_add(uint64_t *w, double e)
{
    uint64_t lo, hi;
    power_exact_words(e, &lo, &hi);
    power_exact_add_words(w, lo, hi);
}

/* Whether `when` (an offset in m->tt, or -1: holds always) holds in state s
 * of cell c (bits at and above its variables ignored). */
GP_HOSTDEV bool power_when_holds(const power_model *m, const power_model_cell *c, int32_t when,
                                 uint32_t s)
{
    if (when < 0)
        return true;
    if (c->n_vars < 32)
        s &= (1u << c->n_vars) - 1;
    return (m->tt[when + (s >> 6)] >> (s & 63)) & 1;
}

/* SPEC §3.3 by scanning: per pg group the first leakage_power whose `when`
 * holds in state s, else its unconditional one; none at all:
 * cell_leakage_power. */
GP_HOSTDEV double power_leakage_scan(const power_model *m, const power_model_cell *c, uint32_t s)
{
    uint64_t served = 0;
    double total = 0.0;
    GP_UNROLL_1
    for (int with_when = 1; with_when >= 0; with_when--)
        GP_UNROLL_1
        for (uint32_t g = c->leakage0; g < c->leakage0 + c->n_leakages; g++) {
            const power_model_leakage *lk = &m->leakages[g];
            if (lk->has_when != with_when || (served & lk->pg_bit) ||
                !power_when_holds(m, c, lk->when, s))
                continue;
            served |= lk->pg_bit;
            total += lk->value;
        }
    return served ? total : c->cell_leakage;
}

/* Where cell c's leakage table starts (c->leak) if it is dense, else
 * UINT32_MAX: power_leakage's leak0, which a walk keeps per gate. */
GP_HOSTDEV uint32_t power_leakage_table(const power_model_cell *c)
{
    return c->dense ? c->leak : UINT32_MAX;
}

/* Leakage power (W) of cell c in state s: with sipl a dense cell's from its
 * table (leak0: power_leakage_table(c)), else by scanning. */
GP_HOSTDEV double power_leakage(const power_model *m, const power_model_cell *c, uint32_t leak0,
                                uint32_t s, bool sipl)
{
    return sipl && leak0 != UINT32_MAX ? m->reals[leak0 + s] : power_leakage_scan(m, c, s);
}

/* ---- internal energy ------------------------------------------------------------ */

GP_HOSTDEV double power_axis_value(uint8_t axis, double slew, double load)
{
    return axis == POWER_AXIS_SLEW ? slew : axis == POWER_AXIS_LOAD ? load : NAN;
}

/* Table ti at the slew and the load, interpolated as liberty_lookup.h says
 * (NaN where an axis is a quantity gatepower cannot supply). */
GP_HOSTDEV double power_table_lookup(const power_model *m, int32_t ti, double slew, double load)
{
    const power_model_table *t = &m->tables[ti];
    const double *v = m->reals + t->values;
    if (t->n_dims == 0)
        return v[0];
    double x = power_axis_value(t->axis[0], slew, load);
    if (isnan(x))
        return NAN;
    uint32_t i0, i1, j0 = 0, j1 = 0;
    double f = lib_axis(m->reals + t->index[0], t->size[0], x, &i0, &i1), g = 0;
    if (t->n_dims == 2) {
        double y = power_axis_value(t->axis[1], slew, load);
        if (isnan(y))
            return NAN;
        g = lib_axis(m->reals + t->index[1], t->size[1], y, &j0, &j1);
    }
    return lib_bilinear(v, t->size[1], i0, i1, j0, j1, f, g);
}

GP_HOSTDEV double power_pin_slew(const power_model *m, uint32_t pin, bool rise)
{
    return rise ? m->pin_slew_rise[pin] : m->pin_slew_fall[pin];
}

/* Where an event's group energies come from: the tables, looked up at the
 * slew pin's slew and the load, or (memo) the instance's energies of each
 * group computed once (power_memo_fill). */
typedef struct power_energy_src {
    const double *memo;       /* the instance's; NULL: look the tables up */
    uint32_t slew_pin;        /* the design pin whose slew is looked up */
    bool slew_rise;
    double load;
} power_energy_src;

/* The source of pin k's energies in an instance (pins from pin0, memo): at
 * its own slew in direction slew_rise, or related pin r's (r >= 0). */
GP_HOSTDEV power_energy_src power_source(const double *memo, uint32_t pin0, uint32_t k, int32_t r,
                                         bool slew_rise, double load)
{
    power_energy_src src = {memo, pin0 + (r >= 0 ? (uint32_t)r : k), slew_rise, load};
    return src;
}

/* Where an instance's memo keeps the energy of its cell's group g in
 * direction d (2 rise + slew_rise: the event's and the slew's). */
GP_HOSTDEV uint32_t power_memo_slot(const power_model_cell *c, uint32_t g, uint32_t d)
{
    return 4 * (g - c->group0) + d;
}

/* Group g's rise or fall table at the source's slew and load. */
GP_HOSTDEV double power_group_energy(const power_model *m, const power_model_cell *c, uint32_t g,
                                     bool rise, power_energy_src src)
{
    if (src.memo)
        return src.memo[power_memo_slot(c, g, 2 * rise + src.slew_rise)];
    int32_t table = m->groups[g].table[rise ? 0 : 1];
    return table >= 0 ? power_table_lookup(m, table, power_pin_slew(m, src.slew_pin, src.slew_rise),
                                           src.load)
                      : 0.0;
}

/* The key of (pin, related) (related < 0: no related pin), or -1. */
GP_HOSTDEV int32_t power_key(const power_model *m, const power_model_cell *c, uint32_t pin,
                             int32_t related)
{
    uint32_t r = related < 0 ? c->n_pins : (uint32_t)related;
    return m->keys[c->key0 + pin * (c->n_pins + 1) + r];
}

/* Whether group gr (of the pair being costed, `related`) is the one its pg
 * group uses in state s (SPEC §3.1): the first, in library order, whose
 * `when` holds.  *served records the pg groups already chosen. */
GP_HOSTDEV bool power_group_chosen(const power_model *m, const power_model_cell *c,
                                   const power_model_group *gr, int32_t related, uint32_t s,
                                   uint64_t *served)
{
    if (gr->related != related || (*served & gr->pg_bit) || !power_when_holds(m, c, gr->when, s))
        return false;
    *served |= gr->pg_bit;
    return true;
}

/* The internal energy (J, unweighted) of pin `pin`'s groups related to
 * `related` in state s (SPEC §3.1): the chosen groups' rise or fall tables,
 * summed in library order; with sipl a dense cell's chosen groups from its
 * table (one loop for both, so that a kernel holds one table lookup). */
GP_HOSTDEV double power_energy(const power_model *m, const power_model_cell *c, uint32_t pin,
                               int32_t related, uint32_t s, bool rise, bool sipl,
                               power_energy_src src)
{
    int32_t key = power_key(m, c, pin, related);
    if (key < 0)
        return 0.0;
    bool dense = sipl && c->dense;
    size_t at = c->sel0_base + ((size_t)key << c->n_pins) + s;
    uint32_t i0 = dense ? m->sel0[at] : m->cpin_group0[c->pin0 + pin];
    uint32_t i1 = dense ? m->sel0[at + 1] : i0 + m->cpin_n_groups[c->pin0 + pin];
    uint64_t served = 0;
    double e = 0.0;
    GP_UNROLL_1
    for (uint32_t i = i0; i < i1; i++) {
        uint32_t g = dense ? m->sel[i] : i;
        if (!dense && !power_group_chosen(m, c, &m->groups[g], related, s, &served))
            continue;
        e += power_group_energy(m, c, g, rise, src);
    }
    return e;
}

/* ---- the related pin ------------------------------------------------------------- */

/* The delay (fs) of arc `arc` (or 0 when -1) of an instance whose arcs
 * start at slot arc0, by the output's direction. */
GP_HOSTDEV double power_arc_delay(const power_model *m, uint32_t arc0, int32_t arc, bool rise)
{
    if (arc < 0)
        return 0.0;
    uint32_t slot = arc0 + (uint32_t)arc;
    return rise ? m->arc_delay_rise_fs[slot] : m->arc_delay_fall_fs[slot];
}

/* The related pin of an output's change at t (SPEC §3.1) is, of its
 * candidates whose last event (at last_t; -1: none) lies in t's cycle
 * (from cycle_start), the one with the smallest gap, the first of equals:
 * each engine's loop over the candidates asks these two. */
GP_HOSTDEV bool power_related_in_cycle(int64_t last_t, int64_t cycle_start)
{
    return last_t >= cycle_start;
}
GP_HOSTDEV double power_related_gap(int64_t t, int64_t last_t, double delay_fs)
{
    return fabs((double)(t - last_t) - delay_fs);
}

/* The internal energy of a change of output k without a related pin: the
 * mean over its candidates and both of their directions, or, without
 * candidates, its groups without a related pin. */
GP_HOSTDEV double power_internal_unrelated(const power_model *m, const power_model_cell *c,
                                           const double *memo, uint32_t pin0, uint32_t k,
                                           uint32_t s, bool rise, double load, bool sipl)
{
    uint32_t c0 = m->cand0[c->cand0_base + k], c1 = m->cand0[c->cand0_base + k + 1];
    bool any = c1 > c0;
    uint32_t n = any ? 2 * (c1 - c0) : 1;
    double sum = 0.0;
    /* Candidate j / 2 in direction j % 2 (one call site keeps the kernels small). */
    GP_UNROLL_1
    for (uint32_t j = 0; j < n; j++) {
        int32_t r = any ? (int32_t)m->cand[c0 + j / 2] : -1;
        power_energy_src src = power_source(memo, pin0, k, r, any ? j & 1 : rise, load);
        sum += power_energy(m, c, k, r, s, rise, sipl, src);
    }
    return any ? sum / n : sum;
}

/* power_internal_unrelated, from the instance's memo where it keeps it
 * (sipl and a memo). */
GP_HOSTDEV double power_unrelated_energy(const power_model *m, const power_model_cell *c,
                                         const double *memo, uint32_t pin0, uint32_t k,
                                         uint32_t s, bool rise, double load, bool sipl)
{
    uint32_t at = sipl && memo ? m->cpin_unrelated[c->pin0 + k] : UINT32_MAX;
    if (at != UINT32_MAX)
        return memo[at + 2 * s + rise];
    return power_internal_unrelated(m, c, memo, pin0, k, s, rise, load, sipl);
}

/* ---- a change's energy ---------------------------------------------------------- */

/* The switching energy of a change old -> now of a pin (flags) driving
 * `load`: paid on rises by the pin that drives its net. */
GP_HOSTDEV double power_switching_energy(const power_model_cell *c, uint32_t flags, double load,
                                         uint8_t old, uint8_t now)
{
    return power_is_rise(old, now) && (flags & POWER_PIN_PAYS_SWITCHING)
               ? power_weight(old, now) * (load * c->volts * c->volts)
               : 0.0;
}

/* The costing of a change old -> now of pin k (flags) of an instance
 * (pin0, memo), in state s: its weighted internal energy, returned, and
 * switching energy, in *e_sw.  related is its related pin (or -1; r_rise
 * that pin's last direction), has_cands whether it has candidates.  Inputs
 * and outputs take one path: an input has no candidates, no related pin
 * and no load. */
GP_HOSTDEV double power_change_energy(const power_model *m, const power_model_cell *c,
                                      const double *memo, uint32_t pin0, uint32_t k,
                                      uint32_t flags, bool has_cands, int32_t related, bool r_rise,
                                      uint32_t s, uint8_t old, uint8_t now, bool sipl,
                                      double *e_sw)
{
    bool rise = power_is_rise(old, now);
    double load = flags & POWER_PIN_DRIVES ? m->pin_load[pin0 + k] : 0.0;
    double weight = power_weight(old, now);
    double e_int =
        related < 0 && has_cands
            ? power_unrelated_energy(m, c, memo, pin0, k, s, rise, load, sipl)
            : power_energy(m, c, k, related, s, rise, sipl,
                           power_source(memo, pin0, k, related, related >= 0 ? r_rise : rise,
                                        load));
    *e_sw = power_switching_energy(c, flags, load, old, now);
    return e_int * weight;
}

/* ---- pins costed in bulk --------------------------------------------------------- */

/* A pin flagged POWER_PIN_BULK (an input on the clock network whose cost no
 * state changes and whose value no `when` reads) is not walked: a change of
 * its net costs it the change's weight times power_bulk_energy, the same in
 * every state, so an engine books each of the net's changes once with its
 * bulk pins' energies summed, and each such pin its energies times the
 * net's summed weights.  A walk asks it only for its last event, for an
 * output's related-pin choice (power_bulk_last). */
GP_HOSTDEV double power_bulk_energy(const power_model *m, uint32_t pin, bool rise)
{
    uint32_t inst = m->pin_inst[pin], pin0 = m->inst_pin0[inst];
    const power_model_cell *c = &m->cells[m->inst_cell[inst]];
    return power_energy(m, c, pin - pin0, -1, 0, rise, false,
                        power_source(NULL, pin0, pin - pin0, -1, rise, 0.0));
}

/* A pin's last event, as a walk would have recorded it, from the event
 * before it (`before`: the value the net had) and the event itself; false
 * when it only gave the net its starting value (first: whether it is the
 * net's first event). */
GP_HOSTDEV bool power_bulk_last(uint8_t before, uint8_t value, int64_t t, bool first,
                                int64_t dump_start, bool *rise)
{
    *rise = power_is_rise(before, value);
    return !(first && power_may_be_initial(before, t, dump_start));
}

/* ---- glitches ------------------------------------------------------------------------ */

/* r_gl of a glitch event: pulse width and the pin's slews, fs (SPEC §3.4). */
GP_HOSTDEV double power_glitch_ratio(double width_fs, double t_rise_fs, double t_fall_fs)
{
    double slews = t_rise_fs + t_fall_fs;
    double ratio = slews > 0.0 ? 2.0 * fabs(width_fs) / slews : 1.0;
    return slews > 0.0 ? fmin(1.0, ratio * ratio) : 1.0;
}

/* power_glitch_ratio of a pulse `width` fs wide on design pin `pin`. */
GP_HOSTDEV double power_pin_glitch_ratio(const power_model *m, uint32_t pin, double width_fs)
{
    return power_glitch_ratio(width_fs, m->pin_slew_rise[pin], m->pin_slew_fall[pin]);
}

/* ---- an instance's memo ----------------------------------------------------------- */

/* Fills instance i's memo (memo_size doubles of its cell, at out): the
 * energy of each group of its cell in each (own direction, slew direction)
 * (with slews and loads fixed per instance, the only table lookups a run
 * needs), then, from those, its outputs' energies without a related pin in
 * each state and direction (power_internal_unrelated). */
GP_HOSTDEV void power_memo_fill(const power_model *m, uint32_t i, double *out)
{
    const power_model_cell *c = &m->cells[m->inst_cell[i]];
    uint32_t pin0 = m->inst_pin0[i];
    for (uint32_t g = c->group0; g < c->group0 + c->n_groups; g++) {
        const power_model_group *gr = &m->groups[g];
        bool drives = m->cpin_flags[c->pin0 + gr->pin] & POWER_PIN_DRIVES;
        power_energy_src src = power_source(NULL, pin0, gr->pin, gr->related, false,
                                            drives ? m->pin_load[pin0 + gr->pin] : 0.0);
        for (int rise = 0; rise < 2; rise++)
            for (int slew_rise = 0; slew_rise < 2; slew_rise++) {
                src.slew_rise = slew_rise;
                out[power_memo_slot(c, g, 2 * rise + slew_rise)] =
                    power_group_energy(m, c, g, rise, src);
            }
    }
    for (uint32_t k = 0; k < c->n_pins; k++) {
        uint32_t at = m->cpin_unrelated[c->pin0 + k];
        if (at == UINT32_MAX)
            continue;
        double load = m->pin_load[pin0 + k];
        for (uint32_t s = 0; s < 1u << c->n_pins; s++)
            for (int rise = 0; rise < 2; rise++)
                out[at + 2 * s + rise] =
                    power_internal_unrelated(m, c, out, pin0, k, s, rise, load, true);
    }
}

#endif
