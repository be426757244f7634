/* power_plan.c: the window, the clock period, the cycle bins and the report
 * groups, checked and worked out once before any engine runs; and the
 * result's bookkeeping every engine shares. */
#include "power/power_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "design/design_int.h"
#include "util/mem.h"

power_options power_defaults(void)
{
    return (power_options){.window_start_fs = -1, .window_end_fs = -1, .glitch = true};
}

static gp_status no_memory(diag_ctx *d)
{
    diag_error(d, 8001, DIAG_NOWHERE, "out of memory in the power analysis");
    return GP_ERR_NOMEM;
}

static int compare_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The most frequent interval between rising edges of the clock net (ties:
 * the smaller), or 0 with fewer than two rising edges. */
static int64_t measure_period(const events *ev, uint32_t net, bool *nomem)
{
    uint64_t first = ev->net_ev0[net], end = ev->net_ev0[net + 1], n = 0;
    int64_t *gaps = mem_alloc((end - first + 1) * sizeof *gaps), last_rise = -1;
    if (!gaps) {
        *nomem = true;
        return 0;
    }
    for (uint64_t k = first; k < end; k++) {
        bool rise = ev->value[k] == 1 && k > first && ev->value[k - 1] == 0;
        if (rise && last_rise >= 0)
            gaps[n++] = ev->time_fs[k] - last_rise;
        if (rise)
            last_rise = ev->time_fs[k];
    }
    qsort(gaps, n, sizeof *gaps, compare_i64);
    int64_t best = 0;
    uint64_t best_run = 0;
    for (uint64_t i = 0, j; i < n; i = j) {
        for (j = i; j < n && gaps[j] == gaps[i]; j++)
            ;
        if (j - i > best_run)
            best = gaps[i], best_run = j - i;
    }
    mem_free(gaps);
    return best;
}

static gp_status plan_period(const design *dg, const events *ev, const power_options *opt,
                             power_plan *plan, diag_ctx *d)
{
    plan->period = opt->period_fs;
    if (plan->period == 0 && opt->clock_net) {
        uint32_t net = design_find_net(dg, opt->clock_net);
        if (net == DESIGN_NONE) {
            diag_error(d, 8002, DIAG_NOWHERE, "--clock: there is no net '%s' in the design",
                       opt->clock_net);
            return GP_ERR_INPUT;
        }
        bool nomem = false;
        plan->period = measure_period(ev, net, &nomem);
        if (nomem)
            return no_memory(d);
        if (plan->period == 0) {
            diag_error(d, 8003, DIAG_NOWHERE, "--clock: net '%s' has fewer than two rising edges "
                       "in the activity; give --period TIME instead", opt->clock_net);
            return GP_ERR_INPUT;
        }
    }
    if (plan->period < 0) {
        diag_error(d, 8010, DIAG_NOWHERE, "the clock period must be positive");
        return GP_ERR_USAGE;
    }
    if (plan->period == 0) {
        diag_error(d, 8004, DIAG_NOWHERE, "no clock period: give --period TIME (e.g. 10ns) or "
                   "--clock NET to measure it on a clock net");
        return GP_ERR_USAGE;
    }
    return GP_OK;
}

/* The dump's first and last time stamps over all nets with events. */
static bool dump_span(const events *ev, int64_t *first, int64_t *last)
{
    bool any = false;
    for (uint32_t n = 0; n < ev->n_nets; n++) {
        if (ev->net_ev0[n] == ev->net_ev0[n + 1])
            continue;
        int64_t t = ev->time_fs[ev->net_ev0[n]];
        *first = any && *first < t ? *first : t;
        any = true;
    }
    *last = ev->end_fs;
    return any;
}

static gp_status plan_window(const events *ev, const power_options *opt, power_plan *plan,
                             diag_ctx *d)
{
    int64_t first = 0, last = 0;
    if (!dump_span(ev, &first, &last)) {
        diag_error(d, 8005, DIAG_NOWHERE, "the activity has no events on any net of the design: "
                   "check --scope (gatepower info --list-unmatched names the signals)");
        return GP_ERR_INPUT;
    }
    plan->dump_start = first;
    plan->t0 = opt->window_start_fs >= 0 ? opt->window_start_fs : first;
    plan->t1 = opt->window_end_fs >= 0 ? opt->window_end_fs : last;
    if (plan->t1 <= plan->t0) {
        diag_error(d, 8006, DIAG_NOWHERE, "the window [%.6g s, %.6g s) is empty: its end must "
                   "come after its start (the dump spans %.6g s to %.6g s)",
                   (double)plan->t0 * 1e-15, (double)plan->t1 * 1e-15, (double)first * 1e-15,
                   (double)last * 1e-15);
        return GP_ERR_INPUT;
    }
    int64_t cycles = (plan->t1 - plan->t0 + plan->period - 1) / plan->period;
    if (cycles > UINT32_MAX / 8) {
        diag_error(d, 8007, DIAG_NOWHERE, "the window holds %lld clock periods; give a longer "
                   "--period or a shorter --window", (long long)cycles);
        return GP_ERR_INPUT;
    }
    plan->n_cycles = (uint32_t)cycles;
    return GP_OK;
}

/* Whether every load on instance i's output nets is a clock pin or a pin of
 * a clock-group instance (and there is at least one). */
static bool feeds_only_clocks(const design *dg, uint32_t i, const uint8_t *group)
{
    bool any = false;
    for (uint32_t p = dg->inst_pin0[i]; p < dg->inst_pin0[i + 1]; p++) {
        uint32_t n = dg->pin_net[p];
        if (!design_dir_drives(design_lib_pin(dg, p)->dir) || n == DESIGN_NONE)
            continue;
        for (uint32_t k = dg->net_pin0[n]; k < dg->net_pin0[n + 1]; k++) {
            uint32_t q = dg->net_pins[k];
            if (q == p)
                continue;
            if (!design_lib_pin(dg, q)->is_clock && group[dg->pin_inst[q]] != POWER_GROUP_CLOCK)
                return false;
            any = true;
        }
    }
    return any;
}

/* Groups: sequential cells; the clock network (found from the clock pins
 * backwards, highest level first, so each cell's loads are decided first);
 * the rest combinational. */
static bool plan_groups(const design *dg, uint8_t *group, uint32_t *order)
{
    for (uint32_t i = 0; i < dg->n_insts; i++) {
        group[i] = design_is_sequential(dg, i) ? POWER_GROUP_SEQUENTIAL : POWER_GROUP_COMBINATIONAL;
        order[i] = i;
    }
    /* Counting sort of the instances by level, then a walk from the top. */
    uint32_t *start = mem_calloc((size_t)dg->n_levels + 2, sizeof *start);
    if (!start)
        return false;
    for (uint32_t i = 0; i < dg->n_insts; i++)
        start[dg->inst_level[i] + 1]++;
    for (uint32_t l = 0; l <= dg->n_levels; l++)
        start[l + 1] += start[l];
    for (uint32_t i = 0; i < dg->n_insts; i++)
        order[start[dg->inst_level[i]]++] = i;
    mem_free(start);
    for (uint32_t k = dg->n_insts; k-- > 0;) {
        uint32_t i = order[k];
        if (group[i] == POWER_GROUP_COMBINATIONAL && feeds_only_clocks(dg, i, group))
            group[i] = POWER_GROUP_CLOCK;
    }
    return true;
}

/* Every library in use must say its supply voltage (switching is C·V²). */
static gp_status check_voltages(const design *dg, diag_ctx *d)
{
    for (uint32_t i = 0; i < dg->n_insts; i++) {
        const lib_library *lib = dg->inst_cell[i]->library;
        if (isnan(lib->voltage)) {
            diag_error(d, 8009, DIAG_NOWHERE, "library '%s' (%s) gives no supply voltage: add "
                       "nom_voltage or default operating_conditions to it", lib->name, lib->path);
            return GP_ERR_INPUT;
        }
    }
    return GP_OK;
}

/* Clock nets: those reaching a clock pin, and the outputs of clock-group
 * cells (a clock buffer's output toggles twice a cycle without glitching). */
static void plan_clock_nets(const design *dg, const uint8_t *group, uint8_t *clock_net)
{
    for (uint32_t n = 0; n < dg->n_nets; n++) {
        uint32_t driver = design_net_driver_inst(dg, n);
        clock_net[n] = driver != DESIGN_NONE && group[driver] == POWER_GROUP_CLOCK;
        for (uint32_t k = dg->net_pin0[n]; k < dg->net_pin0[n + 1]; k++)
            clock_net[n] |= design_lib_pin(dg, dg->net_pins[k])->is_clock;
    }
}

gp_status power_plan_make(const design *dg, const events *ev, const power_options *opt,
                          power_plan *plan, diag_ctx *d)
{
    memset(plan, 0, sizeof *plan);
    plan->glitch = opt->glitch;
    plan->include_io = opt->include_io;
    gp_status st = check_voltages(dg, d);
    if (st == GP_OK)
        st = plan_period(dg, ev, opt, plan, d);
    if (st == GP_OK)
        st = plan_window(ev, opt, plan, d);
    if (st != GP_OK)
        return st;
    size_t n = dg->n_insts ? dg->n_insts : 1;
    plan->inst_group = mem_alloc(n);
    plan->clock_net = mem_alloc(dg->n_nets ? dg->n_nets : 1);
    uint32_t *order = mem_alloc(n * sizeof *order);
    bool ok = plan->inst_group && plan->clock_net && order &&
              plan_groups(dg, plan->inst_group, order);
    mem_free(order);
    if (ok)
        plan_clock_nets(dg, plan->inst_group, plan->clock_net);
    if (!ok) {
        power_plan_free(plan);
        return no_memory(d);
    }
    return GP_OK;
}

void power_plan_free(power_plan *plan)
{
    mem_free(plan->inst_group);
    mem_free(plan->clock_net);
    plan->inst_group = NULL;
    plan->clock_net = NULL;
}

power_result *power_result_new(const design *dg, power_plan *plan, diag_ctx *d)
{
    power_result *r = mem_calloc(1, sizeof *r);
    if (r) {
        r->inst_energy = mem_calloc((size_t)(dg->n_insts ? dg->n_insts : 1) * POWER_COMPONENTS,
                                    sizeof(double));
        r->bin_energy = mem_calloc((size_t)plan->n_cycles * POWER_COMPONENTS, sizeof(double));
    }
    if (!r || !r->inst_energy || !r->bin_energy) {
        power_result_free(r);
        no_memory(d);
        return NULL;
    }
    r->window_start_fs = plan->t0;
    r->window_end_fs = plan->t1;
    r->period_fs = plan->period;
    r->duration = (double)(plan->t1 - plan->t0) * 1e-15;
    r->n_cycles = plan->n_cycles;
    r->n_insts = dg->n_insts;
    r->include_io = plan->include_io;
    r->inst_group = plan->inst_group;
    plan->inst_group = NULL;
    return r;
}

void power_result_sum_groups(power_result *r)
{
    for (uint32_t i = 0; i < r->n_insts; i++)
        for (int c = 0; c < POWER_COMPONENTS; c++)
            r->group_energy[r->inst_group[i]][c] +=
                r->inst_energy[(size_t)i * POWER_COMPONENTS + c];
}

void power_book(power_result *r, const power_plan *plan, uint32_t inst, power_component c,
                uint32_t bin, double e)
{
    power_group g = inst == DESIGN_NONE ? POWER_GROUP_IO : (power_group)r->inst_group[inst];
    r->group_energy[g][c] += e;
    if (inst != DESIGN_NONE)
        r->inst_energy[(size_t)inst * POWER_COMPONENTS + c] += e;
    else
        r->io_switching += e;
    if (g != POWER_GROUP_IO || plan->include_io)
        r->bin_energy[(size_t)bin * POWER_COMPONENTS + c] += e;
}

void power_result_free(power_result *r)
{
    if (!r)
        return;
    mem_free(r->inst_group);
    mem_free(r->inst_energy);
    mem_free(r->bin_energy);
    mem_free(r);
}

double power_total_energy(const power_result *r, power_component c)
{
    double total = 0.0;
    for (int g = 0; g < POWER_GROUPS; g++)
        if (g != POWER_GROUP_IO || r->include_io)
            total += r->group_energy[g][c];
    return total;
}

double power_sum_components(const double *energies)
{
    double total = 0.0;
    for (int c = 0; c < POWER_COMPONENTS; c++)
        total += energies[c];
    return total;
}
