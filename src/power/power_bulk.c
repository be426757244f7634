/* power_bulk.c: the pins no walk takes (POWER_PIN_BULK, power_rules.h):
 * their nets and energies (power_bulk_make, which the CUDA engine uploads),
 * and the CPU engine's pass over those nets' changes in the window, each
 * booked once into its cycle with the net's bulk pins' energies summed,
 * then each pin's energies times its net's summed weights into its
 * instance.  The reference's sums, added in another order. */
#include "power/power_int.h"
#include "power/power_rules.h"

#include "util/mem.h"

void power_bulk_free(power_bulk *b)
{
    mem_free(b->net);
    mem_free(b->net_energy);
    mem_free(b->pin);
    mem_free(b->slot);
    mem_free(b->pin_energy);
    *b = (power_bulk){0};
}

static uint32_t count_bulk_pins(const power_model *m)
{
    uint32_t n = 0;
    for (uint32_t p = 0; p < m->n_pins; p++)
        n += (m->pin_flags[p] & POWER_PIN_BULK) != 0;
    return n;
}

/* Pin p into b as pin i, its net given the next slot if it has none yet
 * (net_slot: per net, its slot or UINT32_MAX). */
static void add_pin(power_bulk *b, const power_model *m, uint32_t *net_slot, uint32_t i,
                    uint32_t p)
{
    uint32_t net = m->pin_net[p];
    if (net_slot[net] == UINT32_MAX) {
        net_slot[net] = b->n_nets++;
        b->net[net_slot[net]] = net;
    }
    b->pin[i] = p;
    b->slot[i] = net_slot[net];
    for (int rise = 0; rise < 2; rise++) {
        b->pin_energy[2 * i + rise] = power_bulk_energy(m, p, rise);
        b->net_energy[2 * b->slot[i] + rise] += b->pin_energy[2 * i + rise];
    }
}

bool power_bulk_make(const power_model *m, power_bulk *b)
{
    *b = (power_bulk){.n_pins = count_bulk_pins(m)};
    size_t n = b->n_pins ? b->n_pins : 1;
    uint32_t *net_slot = mem_alloc(((size_t)m->n_nets + 1) * sizeof *net_slot);
    b->net = mem_alloc(n * sizeof *b->net);
    b->net_energy = mem_calloc(2 * n, sizeof *b->net_energy);
    b->pin = mem_alloc(n * sizeof *b->pin);
    b->slot = mem_alloc(n * sizeof *b->slot);
    b->pin_energy = mem_alloc(2 * n * sizeof *b->pin_energy);
    bool ok = net_slot && b->net && b->net_energy && b->pin && b->slot && b->pin_energy;
    for (uint32_t net = 0; ok && net < m->n_nets; net++)
        net_slot[net] = UINT32_MAX;
    for (uint32_t p = 0, i = 0; ok && p < m->n_pins; p++)
        if (m->pin_flags[p] & POWER_PIN_BULK)
            add_pin(b, m, net_slot, i++, p);
    mem_free(net_slot);
    if (!ok)
        power_bulk_free(b);
    return ok;
}

/* What the CPU pass sums per bulk net: its changes by class (2 rise +
 * whole: a change to or from X weighs half) and, for exact sums, each
 * class's energy in exact words (its pins' weighted energies, each
 * converted as a walk would book it). */
typedef struct bulk_sums {
    uint64_t changes[4];
    uint64_t exact[4][2];
} bulk_sums;

static double class_weight(int c) { return c & 1 ? 1.0 : 0.5; }

static void sum_exact_energies(const power_bulk *b, bulk_sums *sums)
{
    for (uint32_t i = 0; i < b->n_pins; i++)
        for (int c = 0; c < 4; c++)
            power_exact_add(sums[b->slot[i]].exact[c],
                            class_weight(c) * b->pin_energy[2 * i + (c >> 1)]);
}

/* Adds n times the fixed-point number (lo, hi) to sum w (modulo 2^128,
 * as every exact sum is). */
static void exact_add_times(uint64_t *w, uint64_t lo, uint64_t hi, uint64_t n)
{
    __extension__ typedef unsigned __int128 u128;
    u128 x = ((u128)hi << 64 | lo) * n;
    power_exact_add_words(w, (uint64_t)x, (uint64_t)(x >> 64));
}

/* Bulk net `slot`'s changes in the window, as the walk takes them (the
 * initial value and repeats are no changes): each books its weight times
 * the pins' energy into its cycle, and is counted in its class. */
static void book_changes(const power_bulk *b, uint32_t slot, const power_model *m,
                         const events *ev, const power_plan *plan, power_result *r,
                         bulk_sums *sums)
{
    uint32_t net = b->net[slot];
    uint64_t first = ev->net_ev0[net], end = ev->net_ev0[net + 1];
    uint64_t e = events_first_in(ev, first, end, plan->t0);
    uint8_t old = e > first ? events_value(ev, e - 1) : m->net_start[net];
    for (; e < end && events_time(ev, e) < plan->t1; e++) {
        int64_t t = events_time(ev, e);
        uint8_t now = events_value(ev, e);
        bool initial = e == first && power_may_be_initial(old, t, plan->dump_start);
        if (!initial && old != now) {
            bool rise = power_is_rise(old, now);
            double weight = power_weight(old, now);
            int c = 2 * rise + (weight == 1.0);
            size_t at = (size_t)power_bin_of(plan, t) * POWER_COMPONENTS + POWER_INTERNAL;
            r->bin_energy[at] += weight * b->net_energy[2 * slot + rise];
            if (r->bin_exact)
                power_exact_add_words(&r->bin_exact[2 * at], sums->exact[c][0],
                                      sums->exact[c][1]);
            sums->changes[c]++;
        }
        old = now;
    }
}

/* Bulk pin i's energies times its net's changes, into its instance. */
static void book_pin(const power_bulk *b, uint32_t i, const power_model *m, const bulk_sums *s,
                     power_result *r)
{
    double weight[2] = {0.0, 0.0};
    for (int c = 0; c < 4; c++) {
        weight[c >> 1] += class_weight(c) * (double)s->changes[c];
        r->events_used += s->changes[c];
    }
    size_t at = (size_t)m->pin_inst[b->pin[i]] * POWER_COMPONENTS + POWER_INTERNAL;
    r->inst_energy[at] += b->pin_energy[2 * i + 1] * weight[1] + b->pin_energy[2 * i] * weight[0];
    for (int c = 0; r->inst_exact && c < 4; c++) {
        uint64_t lo, hi;
        power_exact_words(class_weight(c) * b->pin_energy[2 * i + (c >> 1)], &lo, &hi);
        exact_add_times(&r->inst_exact[2 * at], lo, hi, s->changes[c]);
    }
}

bool power_bulk_book(const power_model *m, const events *ev, const power_plan *plan,
                     power_result *r)
{
    power_bulk b;
    if (!power_bulk_make(m, &b))
        return false;
    bulk_sums *sums = mem_calloc((size_t)b.n_nets + 1, sizeof *sums);
    if (sums && r->bin_exact)
        sum_exact_energies(&b, sums);
    for (uint32_t slot = 0; sums && slot < b.n_nets; slot++)
        book_changes(&b, slot, m, ev, plan, r, &sums[slot]);
    for (uint32_t i = 0; sums && i < b.n_pins; i++)
        book_pin(&b, i, m, &sums[b.slot[i]], r);
    bool ok = sums != NULL;
    mem_free(sums);
    power_bulk_free(&b);
    return ok;
}
