/* sdc_timing.c: what the constraints give the design's timing: input
 * ports' slews (set_input_transition, or the driving cell's transition at
 * the port's load), the ports' external loads, and the clock networks.
 *
 * A clock's network is every net its sources reach forward through
 * combinational cells (a sequential cell ends it: its clock-to-output arc
 * starts a generated clock's network, if one is defined there).  On an
 * ideal clock's network every pin takes the clock's transition
 * (set_clock_transition, else 0), as OpenSTA and PrimePower take an ideal
 * clock's slew; a propagated clock's network keeps the slews computed
 * from its source. */
#include "sdc/sdc.h"

#include <math.h>
#include <string.h>

#include "util/mem.h"

/* Marks the nets clock k reaches (reached[n] = 1), from its sources;
 * queue holds n_nets entries. */
static void clock_network(const design *dg, const sdc_clock *k, uint8_t *reached,
                          uint32_t *queue)
{
    size_t head = 0, tail = 0;
    memset(reached, 0, dg->n_nets ? dg->n_nets : 1);
    for (uint32_t j = 0; j < k->n_sources; j++)
        if (!reached[k->source_nets[j]]) {
            reached[k->source_nets[j]] = 1;
            queue[tail++] = k->source_nets[j];
        }
    while (head < tail) {
        uint32_t n = queue[head++];
        for (uint32_t e = dg->net_pin0[n]; e < dg->net_pin0[n + 1]; e++) {
            uint32_t p = dg->net_pins[e], i = dg->pin_inst[p];
            if (!(dg->pin_flags[p] & DESIGN_PIN_LOADS) || design_is_sequential(dg, i))
                continue;
            for (uint32_t q = dg->inst_pin0[i]; q < dg->inst_pin0[i + 1]; q++) {
                uint32_t m = dg->pin_net[q];
                if ((dg->pin_flags[q] & DESIGN_PIN_DRIVES) && m != DESIGN_NONE && !reached[m]) {
                    reached[m] = 1;
                    queue[tail++] = m;
                }
            }
        }
    }
}

/* The ideal slews per net: the largest transition of the ideal clocks
 * reaching each net (NAN where none does). */
static gp_status clock_networks(const sdc *s, const design *dg, sdc_timing *t)
{
    size_t nets = dg->n_nets ? dg->n_nets : 1;
    uint8_t *reached = mem_alloc(nets), *any_ideal = mem_calloc(nets, 1),
            *any_propagated = mem_calloc(nets, 1);
    uint32_t *queue = mem_alloc(nets * sizeof *queue);
    bool ok = reached && any_ideal && any_propagated && queue;
    for (int d = 0; ok && d < 2; d++)
        ok = (t->net_ideal_slew[d] = mem_alloc(nets * sizeof(double))) != NULL;
    for (uint32_t n = 0; ok && n < dg->n_nets; n++)
        t->net_ideal_slew[0][n] = t->net_ideal_slew[1][n] = NAN;
    for (uint32_t c = 0; ok && c < s->n_clocks; c++) {
        const sdc_clock *k = &s->clocks[c];
        clock_network(dg, k, reached, queue);
        for (uint32_t n = 0; n < dg->n_nets; n++) {
            if (!reached[n])
                continue;
            (k->propagated ? any_propagated : any_ideal)[n] = 1;
            for (int d = 0; d < 2 && !k->propagated; d++)
                if (isnan(t->net_ideal_slew[d][n]) || k->transition[d] > t->net_ideal_slew[d][n])
                    t->net_ideal_slew[d][n] = k->transition[d];
        }
    }
    for (uint32_t n = 0; ok && n < dg->n_nets; n++) {
        t->ideal_nets += any_ideal[n];
        t->propagated_nets += any_propagated[n] && !any_ideal[n];
    }
    mem_free(reached);
    mem_free(any_ideal);
    mem_free(any_propagated);
    mem_free(queue);
    return ok ? GP_OK : GP_ERR_NOMEM;
}

/* The load a driver of input port p's net sees: the pins on it, its wire
 * and what set_load put on the port. */
static double port_net_load(const sdc *s, const design *dg, uint32_t p)
{
    uint32_t n = dg->ports[p].net;
    double load = (dg->net_wire_cap ? dg->net_wire_cap[n] : 0.0) +
                  design_net_load_pin_cap(dg, n);
    for (int k = 0; k < 2; k++)
        if (!isnan(s->port_load[k][p]))
            load += s->port_load[k][p];
    return load;
}

/* The driving cell's output transitions at `load`: the worst over its
 * delay arcs into the pin (from -from_pin only, when given), each from the
 * input transition of the edge that makes the output's. */
static void drive_slews(const sdc_drive *dr, double load, double slew[2])
{
    slew[0] = slew[1] = NAN;
    const lib_cell *c = dr->cell;
    for (uint32_t a = 0; a < c->n_arcs; a++) {
        const lib_arc *arc = &c->arcs[a];
        if (arc->pin != (uint32_t)dr->pin || !lib_timing_type_is_delay(arc->type) ||
            (dr->from != LIB_NONE && arc->related != dr->from))
            continue;
        for (int d = 0; d < 2; d++) {
            const lib_table *t = arc->table[d == 0 ? LIB_RISE_TRANSITION : LIB_FALL_TRANSITION];
            double in = arc->sense == LIB_SENSE_POSITIVE_UNATE   ? dr->input_transition[d]
                        : arc->sense == LIB_SENSE_NEGATIVE_UNATE ? dr->input_transition[1 - d]
                        : fmax(dr->input_transition[0], dr->input_transition[1]);
            double v = t ? lib_table_lookup(t, in, load) : NAN;
            if (!isnan(v) && (isnan(slew[d]) || v > slew[d]))
                slew[d] = fmax(v, 0.0);
        }
    }
}

/* Per port: the input slews and the external loads (NAN: the base's). */
static gp_status port_options(const sdc *s, const design *dg, sdc_timing *t, diag_ctx *d)
{
    size_t ports = dg->n_ports ? dg->n_ports : 1;
    for (int k = 0; k < 2; k++)
        if (!(t->port_slew[k] = mem_alloc(ports * sizeof(double))))
            return GP_ERR_NOMEM;
    if (!(t->port_load = mem_alloc(ports * sizeof(double))))
        return GP_ERR_NOMEM;
    for (uint32_t p = 0; p < dg->n_ports; p++) {
        const sdc_drive *dr = &s->port_drive[p];
        double drive[2] = {NAN, NAN};
        if (dr->cell && dg->ports[p].net != DESIGN_NONE) {
            drive_slews(dr, port_net_load(s, dg, p), drive);
            if (isnan(drive[0]) || isnan(drive[1]))
                diag_warn(d, 1649, DIAG_NOWHERE, "set_driving_cell: cell %s has no transition "
                          "table into %s: port %s's slew is taken as 0", dr->cell->name,
                          dr->cell->pins[dr->pin].name,
                          strtab_str(&dg->net_names, dg->ports[p].name));
        }
        for (int k = 0; k < 2; k++)
            t->port_slew[k][p] = dr->cell ? drive[k] : s->port_transition[k][p];
        bool pin = !isnan(s->port_load[0][p]), wire = !isnan(s->port_load[1][p]);
        t->port_load[p] = !pin && !wire ? NAN
                                        : (pin ? s->port_load[0][p] : 0) +
                                              (wire ? s->port_load[1][p] : 0);
    }
    return GP_OK;
}

gp_status sdc_timing_make(const sdc *s, const design *dg, const design_timing_options *base,
                          sdc_timing *t, diag_ctx *d)
{
    memset(t, 0, sizeof *t);
    t->opt = *base;
    t->opt.input_slew = 0.0; /* an input the SDC gives no transition (docs/model.md) */
    gp_status st = port_options(s, dg, t, d);
    if (st == GP_OK)
        st = clock_networks(s, dg, t);
    if (st != GP_OK) {
        sdc_timing_free(t);
        diag_error(d, 1650, DIAG_NOWHERE, "out of memory while applying the SDC constraints");
        return st;
    }
    for (int k = 0; k < 2; k++) {
        t->opt.port_slew[k] = t->port_slew[k];
        t->opt.net_ideal_slew[k] = t->net_ideal_slew[k];
    }
    t->opt.port_load = t->port_load;
    return GP_OK;
}

void sdc_timing_free(sdc_timing *t)
{
    for (int k = 0; k < 2; k++) {
        mem_free(t->port_slew[k]);
        mem_free(t->net_ideal_slew[k]);
    }
    mem_free(t->port_load);
    memset(t, 0, sizeof *t);
}
