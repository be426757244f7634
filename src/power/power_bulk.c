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

/* Bulk net `slot`'s changes in the window, as the walk takes them (the
 * initial value and repeats are no changes): each books its weight times
 * the pins' energy into its cycle; weight[rise] and *changes sum them. */
static void book_changes(const power_bulk *b, uint32_t slot, const power_model *m,
                         const events *ev, const power_plan *plan, power_result *r,
                         double weight[2], uint64_t *changes)
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
            double w = power_weight(old, now);
            size_t at = (size_t)power_bin_of(plan, t) * POWER_COMPONENTS + POWER_INTERNAL;
            r->bin_energy[at] += w * b->net_energy[2 * slot + rise];
            weight[rise] += w;
            (*changes)++;
        }
        old = now;
    }
}

bool power_bulk_book(const power_model *m, const events *ev, const power_plan *plan,
                     power_result *r)
{
    power_bulk b;
    if (!power_bulk_make(m, &b))
        return false;
    double *weight = mem_calloc(2 * (size_t)b.n_nets + 1, sizeof *weight);
    uint64_t *changes = mem_calloc((size_t)b.n_nets + 1, sizeof *changes);
    bool ok = weight && changes;
    for (uint32_t slot = 0; ok && slot < b.n_nets; slot++)
        book_changes(&b, slot, m, ev, plan, r, weight + 2 * slot, changes + slot);
    for (uint32_t i = 0; ok && i < b.n_pins; i++) {
        uint32_t slot = b.slot[i];
        double e = b.pin_energy[2 * i + 1] * weight[2 * slot + 1] +
                   b.pin_energy[2 * i] * weight[2 * slot];
        r->inst_energy[(size_t)m->pin_inst[b.pin[i]] * POWER_COMPONENTS + POWER_INTERNAL] += e;
        r->events_used += changes[slot];
    }
    mem_free(weight);
    mem_free(changes);
    power_bulk_free(&b);
    return ok;
}
