/* design_index.c: the derived netlist arrays (net -> pins, drivers, arc
 * slots) and levelisation of the combinational logic. */
#include "design/design_int.h"

#include <string.h>

#include "util/mem.h"
#include "util/parts.h"

static gp_status no_memory(diag_ctx *d)
{
    diag_error(d, 7005, DIAG_NOWHERE, "out of memory while indexing the design");
    return GP_ERR_NOMEM;
}

/* Net -> pins in CSR form, by counting then filling, on threads: part k
 * owns a range of nets and takes, in one scan of every pin, the pins on
 * its nets (so each net's pins stay in pin order, and a part's counts and
 * places stay in the range of nets it owns, which caches hold better than
 * all of them). */
typedef struct net_pins_run {
    design *dg;
    uint32_t *at; /* per net: where its next pin goes */
} net_pins_run;

static void net_range(const design *dg, uint32_t part, uint32_t parts, uint32_t *lo,
                      uint32_t *width)
{
    *lo = (uint32_t)parts_begin(dg->n_nets, part, parts);
    *width = (uint32_t)parts_begin(dg->n_nets, part + 1, parts) - *lo;
}

static void count_net_pins_part(void *ctx, uint32_t part, uint32_t parts)
{
    design *dg = ((net_pins_run *)ctx)->dg;
    uint32_t lo, width, *count = dg->net_pin0 + 1;
    net_range(dg, part, parts, &lo, &width);
    for (uint32_t p = 0; p < dg->n_pins; p++) {
        uint32_t n = dg->pin_net[p]; /* DESIGN_NONE is in no range */
        if (n - lo < width)
            count[n]++;
    }
}

/* Once counted, the nets are cut by pins: a part's writes are its pins. */
static void fill_net_pins_part(void *ctx, uint32_t part, uint32_t parts)
{
    net_pins_run *r = ctx;
    design *dg = r->dg;
    uint32_t lo, end;
    design_nets_part(dg, part, parts, &lo, &end);
    uint32_t width = end - lo;
    memcpy(r->at + lo, dg->net_pin0 + lo, width * sizeof *r->at);
    for (uint32_t p = 0; p < dg->n_pins; p++) {
        uint32_t n = dg->pin_net[p];
        if (n - lo < width)
            dg->net_pins[r->at[n]++] = p;
    }
}

static gp_status index_net_pins(design *dg, diag_ctx *d)
{
    net_pins_run r = {dg, mem_alloc((dg->n_nets ? dg->n_nets : 1) * sizeof *r.at)};
    dg->net_pin0 = mem_calloc((size_t)dg->n_nets + 1, sizeof *dg->net_pin0);
    dg->net_pins = mem_alloc((dg->n_pins ? dg->n_pins : 1) * sizeof *dg->net_pins);
    if (!r.at || !dg->net_pin0 || !dg->net_pins) {
        mem_free(r.at);
        return no_memory(d);
    }
    uint32_t parts = parts_for(dg->n_nets, UINT32_MAX);
    parts_run(count_net_pins_part, &r, parts);
    for (uint32_t n = 0; n < dg->n_nets; n++)
        dg->net_pin0[n + 1] += dg->net_pin0[n];
    dg->n_connected_pins = dg->net_pin0[dg->n_nets];
    parts_run(fill_net_pins_part, &r, parts);
    mem_free(r.at);
    return GP_OK;
}

/* A net's driver: its output pin, else an inout pin; returns how many
 * output pins it has. */
static uint32_t find_driver(design *dg, uint32_t n)
{
    uint32_t driver = DESIGN_NONE, drivers = 0, inout = DESIGN_NONE;
    for (uint32_t k = dg->net_pin0[n]; k < dg->net_pin0[n + 1]; k++) {
        uint32_t p = dg->net_pins[k];
        uint8_t f = dg->pin_flags[p];
        if ((f & DESIGN_PIN_OUTPUT) && drivers++ == 0)
            driver = p;
        else if ((f & DESIGN_PIN_DRIVES) && !(f & DESIGN_PIN_OUTPUT) && inout == DESIGN_NONE)
            inout = p;
    }
    dg->net_driver[n] = driver != DESIGN_NONE ? driver : inout;
    return drivers;
}

typedef struct drivers_run {
    design *dg;
    uint32_t *count; /* per net: its output pins */
} drivers_run;

/* The first net whose pins begin at or after pin `pin`. */
static uint32_t net_at_pin(const design *dg, uint64_t pin)
{
    uint32_t lo = 0, hi = dg->n_nets;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (dg->net_pin0[mid] < pin)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void design_nets_part(const design *dg, uint32_t part, uint32_t parts, uint32_t *first,
                      uint32_t *end)
{
    uint64_t pins = dg->net_pin0[dg->n_nets];
    *first = part ? net_at_pin(dg, parts_begin(pins, part, parts)) : 0;
    *end = part + 1 < parts ? net_at_pin(dg, parts_begin(pins, part + 1, parts)) : dg->n_nets;
}

static void drivers_part(void *ctx, uint32_t part, uint32_t parts)
{
    drivers_run *r = ctx;
    uint32_t first, end;
    design_nets_part(r->dg, part, parts, &first, &end);
    for (uint32_t n = first; n < end; n++)
        r->count[n] = find_driver(r->dg, n);
}

/* Every net's driver, on threads; several output pins on one net
 * (tri-state buses, shorts) are warned about, in net order: the first
 * counts. */
static gp_status find_drivers(design *dg, diag_ctx *d)
{
    drivers_run r = {dg, mem_alloc((dg->n_nets ? dg->n_nets : 1) * sizeof *r.count)};
    if (!r.count)
        return no_memory(d);
    parts_run(drivers_part, &r, parts_for(dg->n_nets, UINT32_MAX));
    for (uint32_t n = 0; n < dg->n_nets; n++)
        if (r.count[n] > 1)
            diag_warn(d, 7006, DIAG_NOWHERE,
                      "net '%s' has %u driving output pins; power is booked on the first, "
                      "'%s/%s'",
                      design_net_name(dg, n), r.count[n],
                      design_inst_name(dg, dg->pin_inst[dg->net_driver[n]]),
                      design_lib_pin(dg, dg->net_driver[n])->name);
    mem_free(r.count);
    return GP_OK;
}

/* Each instance's pins: their instance and flags. */
static void pins_part(void *ctx, uint32_t part, uint32_t parts)
{
    design *dg = ctx;
    uint64_t end = parts_begin(dg->n_insts, part + 1, parts);
    for (uint64_t i = parts_begin(dg->n_insts, part, parts); i < end; i++) {
        const lib_cell *c = dg->inst_cell[i];
        uint8_t seq = design_is_sequential(dg, (uint32_t)i) ? DESIGN_PIN_SEQUENTIAL : 0;
        for (uint32_t k = 0; k < c->n_pins; k++) {
            lib_dir dir = c->pins[k].dir;
            dg->pin_inst[dg->inst_pin0[i] + k] = (uint32_t)i;
            dg->pin_flags[dg->inst_pin0[i] + k] =
                (uint8_t)(seq | (design_dir_drives(dir) ? DESIGN_PIN_DRIVES : 0) |
                          (design_dir_loads(dir) ? DESIGN_PIN_LOADS : 0) |
                          (dir == LIB_DIR_OUTPUT ? DESIGN_PIN_OUTPUT : 0));
        }
    }
}

gp_status design_index(design *dg, diag_ctx *d)
{
    dg->pin_inst = mem_alloc((dg->n_pins ? dg->n_pins : 1) * sizeof *dg->pin_inst);
    dg->pin_flags = mem_alloc(dg->n_pins ? dg->n_pins : 1);
    dg->net_driver = mem_calloc(dg->n_nets ? dg->n_nets : 1, sizeof *dg->net_driver);
    dg->inst_arc0 = mem_calloc((size_t)dg->n_insts + 1, sizeof *dg->inst_arc0);
    if (!dg->pin_inst || !dg->pin_flags || !dg->net_driver || !dg->inst_arc0)
        return no_memory(d);
    parts_run(pins_part, dg, parts_for(dg->n_insts, UINT32_MAX));
    uint64_t arcs = 0;
    for (uint32_t i = 0; i < dg->n_insts; i++) {
        dg->inst_arc0[i] = (uint32_t)arcs;
        arcs += dg->inst_cell[i]->n_arcs;
    }
    if (arcs >= DESIGN_NONE)
        return no_memory(d);
    dg->inst_arc0[dg->n_insts] = dg->n_arcs = (uint32_t)arcs;
    gp_status st = index_net_pins(dg, d);
    return st == GP_OK ? find_drivers(dg, d) : st;
}
