/* power_plan.c: the window, the clock period, the cycle bins and the report
 * groups, checked and worked out once before any engine runs; and the
 * result's bookkeeping every engine shares. */
#include "power/power_int.h"
#include "power/power_rules.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "design/design.h"
#include "util/mem.h"
#include "util/parts.h"
#include "util/units.h"
#include "util/vec.h"

power_options power_defaults(void)
{
    return (power_options){.window_start_fs = -1, .window_end_fs = -1, .glitch = true,
                           .dump_start_fs = -1};
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

/* Whether net `net`'s event k is a rising edge of a clock. */
static bool clock_rises(const events *ev, uint32_t net, uint64_t k)
{
    return events_value(ev, k) == 1 && k > ev->net_ev0[net] && events_value(ev, k - 1) == 0;
}

uint64_t power_clock_rises(const events *ev, uint32_t net)
{
    uint64_t rises = 0;
    for (uint64_t k = ev->net_ev0[net]; k < ev->net_ev0[net + 1]; k++)
        rises += clock_rises(ev, net, k);
    return rises;
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
        bool rise = clock_rises(ev, net, k);
        if (rise && last_rise >= 0)
            gaps[n++] = events_time(ev, k) - last_rise;
        if (rise)
            last_rise = events_time(ev, k);
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

/* The --clock net, into *net; error 8002 when the design has none. */
static bool find_clock_net(const design *dg, const power_options *opt, uint32_t *net,
                           diag_ctx *d)
{
    *net = design_find_net(dg, opt->clock_net);
    if (*net != DESIGN_NONE)
        return true;
    diag_error(d, 8002, DIAG_NOWHERE, "--clock: there is no net '%s' in the design",
               opt->clock_net);
    return false;
}

static gp_status plan_period(const design *dg, const events *ev, const power_options *opt,
                             power_plan *plan, diag_ctx *d)
{
    plan->period = opt->period_fs;
    if (plan->period == 0 && opt->clock_net) {
        uint32_t net;
        if (!find_clock_net(dg, opt, &net, d))
            return GP_ERR_INPUT;
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

typedef struct span_job {
    const events *ev;
    int64_t first[POWER_MAX_PARTS];
    bool any[POWER_MAX_PARTS];
} span_job;

/* The earliest first time stamp of the part's nets with events (one read
 * per net, far apart in time_fs: threads overlap the cache misses). */
static void span_part(void *ctx, uint32_t part, uint32_t parts)
{
    span_job *job = ctx;
    const events *ev = job->ev;
    uint32_t end = (uint32_t)parts_begin(ev->n_nets, part + 1, parts);
    int64_t first = 0;
    bool any = false;
    for (uint32_t n = (uint32_t)parts_begin(ev->n_nets, part, parts); n < end; n++) {
        if (ev->net_ev0[n] == ev->net_ev0[n + 1])
            continue;
        int64_t t = events_time(ev, ev->net_ev0[n]);
        first = any && first < t ? first : t;
        any = true;
    }
    job->first[part] = first;
    job->any[part] = any;
}

/* The dump's first and last time stamps over all nets with events. */
static bool dump_span(const events *ev, int64_t *first, int64_t *last)
{
    span_job job = {.ev = ev};
    uint32_t parts = parts_for(ev->n_nets, POWER_MAX_PARTS);
    parts_run(span_part, &job, parts);
    bool any = false;
    for (uint32_t k = 0; k < parts; k++) {
        if (job.any[k])
            *first = any && *first < job.first[k] ? *first : job.first[k];
        any |= job.any[k];
    }
    *last = ev->end_fs;
    return any;
}

static gp_status no_events(diag_ctx *d)
{
    diag_error(d, 8005, DIAG_NOWHERE, "the activity has no events on any net of the design: "
               "check --scope (gatepower info --list-unmatched names the signals)");
    return GP_ERR_INPUT;
}

/* A time in a message's seconds. */
static double seconds(int64_t fs) { return (double)fs / GP_FS_PER_S; }

static gp_status plan_window(const events *ev, const power_options *opt, power_plan *plan,
                             diag_ctx *d)
{
    int64_t first = 0, last = 0;
    if (!dump_span(ev, &first, &last))
        return no_events(d);
    first = opt->dump_start_fs >= 0 ? opt->dump_start_fs : first;
    plan->dump_start = first;
    plan->t0 = opt->window_start_fs >= 0 ? opt->window_start_fs : first;
    plan->t1 = opt->window_end_fs >= 0 ? opt->window_end_fs : last;
    if (plan->t1 <= plan->t0) {
        diag_error(d, 8006, DIAG_NOWHERE, "the window [%.6g s, %.6g s) is empty: its end must "
                   "come after its start (the dump spans %.6g s to %.6g s)",
                   seconds(plan->t0), seconds(plan->t1), seconds(first), seconds(last));
        return GP_ERR_INPUT;
    }
    if (plan->t0 >= last || plan->t1 <= first) {
        diag_error(d, 8011, DIAG_NOWHERE, "the window [%.6g s, %.6g s) lies outside the dump, "
                   "which spans %.6g s to %.6g s: it holds no activity; give a --window inside "
                   "the dump", seconds(plan->t0), seconds(plan->t1), seconds(first), seconds(last));
        return GP_ERR_INPUT;
    }
    int64_t cycles = (plan->t1 - plan->t0 + plan->period - 1) / plan->period;
    if (!power_plan_cycles_fit(cycles, d))
        return GP_ERR_INPUT;
    plan->n_cycles = (uint32_t)cycles;
    return GP_OK;
}

bool power_plan_cycles_fit(int64_t cycles, diag_ctx *d)
{
    if (cycles <= UINT32_MAX / 8)
        return true;
    diag_error(d, 8007, DIAG_NOWHERE, "the window holds %lld clock periods; give a longer "
               "--period or a shorter --window", (long long)cycles);
    return false;
}

gp_status power_plan_clock(const design *dg, const events *ev, const power_options *opt,
                           int64_t *dump_start, int64_t *period, diag_ctx *d)
{
    power_plan plan = {0};
    int64_t last = 0;
    gp_status st = plan_period(dg, ev, opt, &plan, d);
    if (st == GP_OK && !dump_span(ev, dump_start, &last))
        st = no_events(d);
    *period = plan.period;
    return st;
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

/* The instance scan's findings, per part. */
typedef struct scan_job {
    const design *dg;
    uint8_t *group;
    vec_u32 clock_pin_nets[POWER_MAX_PARTS]; /* the nets of clock pins (repeats possible) */
    bool failed[POWER_MAX_PARTS];
} scan_job;

/* Each of the part's instances sequential or combinational; the nets its
 * clock pins are on. */
static void scan_part(void *ctx, uint32_t part, uint32_t parts)
{
    scan_job *job = ctx;
    const design *dg = job->dg;
    vec_u32 *nets = &job->clock_pin_nets[part];
    uint32_t end = (uint32_t)parts_begin(dg->n_insts, part + 1, parts);
    for (uint32_t i = (uint32_t)parts_begin(dg->n_insts, part, parts); i < end; i++) {
        const lib_cell *c = dg->inst_cell[i];
        job->group[i] = design_is_sequential(dg, i) ? POWER_GROUP_SEQUENTIAL
                                                    : POWER_GROUP_COMBINATIONAL;
        for (uint32_t k = 0; k < c->n_pins; k++) {
            uint32_t n = c->pins[k].is_clock ? dg->pin_net[dg->inst_pin0[i] + k] : DESIGN_NONE;
            if (n != DESIGN_NONE && (nets->len == 0 || nets->data[nets->len - 1] != n))
                job->failed[part] |= !vec_u32_push(nets, n);
        }
    }
}

/* The walk's order: highest level first, then highest index (the reverse
 * of a stable sort by level). */
static uint64_t walk_key(const design *dg, uint32_t i)
{
    return (uint64_t)dg->inst_level[i] << 32 | i;
}

/* The clock group's walk: instances queued by walk key (a max-heap),
 * nets whose drivers were queued. */
typedef struct clock_walk {
    const design *dg;
    uint8_t *group;
    vec_u64 heap;
    uint8_t *net_queued;
} clock_walk;

static bool heap_push(vec_u64 *h, uint64_t key)
{
    if (!vec_u64_push(h, key))
        return false;
    for (size_t k = h->len - 1; k > 0 && h->data[(k - 1) / 2] < key; k = (k - 1) / 2) {
        h->data[k] = h->data[(k - 1) / 2];
        h->data[(k - 1) / 2] = key;
    }
    return true;
}

static uint64_t heap_pop(vec_u64 *h)
{
    uint64_t top = h->data[0], last = h->data[--h->len];
    size_t k = 0;
    for (size_t c; (c = 2 * k + 1) < h->len; k = c) {
        c += c + 1 < h->len && h->data[c + 1] > h->data[c];
        if (h->data[c] <= last)
            break;
        h->data[k] = h->data[c];
    }
    if (h->len)
        h->data[k] = last;
    return top;
}

/* Queues the combinational instances with a pin driving net n whose walk
 * key is below `below`.  Once per net: a later call (from an instance met
 * later, so with a lower `below`) would queue a subset. */
static bool queue_drivers(clock_walk *w, uint32_t n, uint64_t below)
{
    const design *dg = w->dg;
    if (w->net_queued[n])
        return true;
    w->net_queued[n] = 1;
    for (uint32_t k = dg->net_pin0[n]; k < dg->net_pin0[n + 1]; k++) {
        uint32_t q = dg->net_pins[k], i = dg->pin_inst[q];
        if (design_dir_drives(design_lib_pin(dg, q)->dir) &&
            w->group[i] == POWER_GROUP_COMBINATIONAL && walk_key(dg, i) < below &&
            !heap_push(&w->heap, walk_key(dg, i)))
            return false;
    }
    return true;
}

/* The clock group and the clock nets.  The rule: walking the instances
 * highest level first (so each cell's loads are decided first), a
 * combinational one joins the clock group when feeds_only_clocks holds at
 * its turn.  Only a driver of a net with a clock pin, or of a net with a pin
 * of a clock-group instance met earlier, can pass it (any other has a first
 * load that is neither); so only those are queued, and each is tried at its
 * turn of the walk.  Clock nets: those with a clock pin, and the outputs of
 * clock-group cells (a clock buffer's output toggles twice a cycle without
 * glitching). */
static bool plan_clock_group(clock_walk *w, const scan_job *scan, uint8_t *clock_net)
{
    const design *dg = w->dg;
    bool ok = true;
    for (uint32_t part = 0; part < POWER_MAX_PARTS; part++)
        for (size_t k = 0; ok && k < scan->clock_pin_nets[part].len; k++) {
            uint32_t n = scan->clock_pin_nets[part].data[k];
            clock_net[n] = 1;
            ok = queue_drivers(w, n, UINT64_MAX);
        }
    for (uint64_t key, last = UINT64_MAX; ok && w->heap.len; last = key) {
        key = heap_pop(&w->heap);
        uint32_t i = (uint32_t)key;
        if (key == last || !feeds_only_clocks(dg, i, w->group))
            continue;
        w->group[i] = POWER_GROUP_CLOCK;
        for (uint32_t p = dg->inst_pin0[i]; ok && p < dg->inst_pin0[i + 1]; p++) {
            uint32_t n = dg->pin_net[p];
            if (n == DESIGN_NONE)
                continue;
            clock_net[n] |= dg->net_driver[n] == p;
            ok = queue_drivers(w, n, key);
        }
    }
    return ok;
}

/* Groups (sequential cells; the clock network; the rest combinational) and
 * clock nets; clock_net must be all zero.  False when out of memory. */
static bool plan_groups(const design *dg, uint8_t *group, uint8_t *clock_net)
{
    scan_job scan = {.dg = dg, .group = group};
    parts_run(scan_part, &scan, parts_for(dg->n_insts, POWER_MAX_PARTS));
    clock_walk w = {.dg = dg, .group = group,
                    .net_queued = mem_calloc(dg->n_nets ? dg->n_nets : 1, 1)};
    bool ok = w.net_queued != NULL;
    for (uint32_t part = 0; part < POWER_MAX_PARTS; part++)
        ok &= !scan.failed[part];
    ok = ok && plan_clock_group(&w, &scan, clock_net);
    for (uint32_t part = 0; part < POWER_MAX_PARTS; part++)
        vec_u32_free(&scan.clock_pin_nets[part]);
    vec_u64_free(&w.heap);
    mem_free(w.net_queued);
    return ok;
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

gp_status power_check_design(const design *dg, const power_options *opt, diag_ctx *d)
{
    uint32_t net;
    if (!opt->period_fs && opt->clock_net && !find_clock_net(dg, opt, &net, d))
        return GP_ERR_INPUT;
    return check_voltages(dg, d);
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
    plan->inst_group = mem_alloc(dg->n_insts ? dg->n_insts : 1);
    plan->clock_net = mem_calloc(dg->n_nets ? dg->n_nets : 1, 1);
    bool ok = plan->inst_group && plan->clock_net &&
              plan_groups(dg, plan->inst_group, plan->clock_net);
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
    r->duration = (double)(plan->t1 - plan->t0) * GP_S_PER_FS;
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

bool power_result_keep_exact(power_result *r, diag_ctx *d)
{
    r->inst_exact = mem_calloc(((size_t)r->n_insts * POWER_COMPONENTS + 1) * 2, sizeof(uint64_t));
    r->bin_exact = mem_calloc(((size_t)r->n_cycles * POWER_COMPONENTS + 1) * 2, sizeof(uint64_t));
    if (r->inst_exact && r->bin_exact)
        return true;
    no_memory(d);
    return false;
}

/* A double of a result, from its exact sum w where that is in range. */
static void settle_one(double *value, const uint64_t *w)
{
    if (fabs(*value) < 0x1p7)
        *value = power_exact_value(w[0], w[1]);
}

void power_result_settle(power_result *r)
{
    if (!r->inst_exact)
        return;
    for (size_t k = 0; k < (size_t)r->n_insts * POWER_COMPONENTS; k++)
        settle_one(&r->inst_energy[k], &r->inst_exact[2 * k]);
    for (size_t k = 0; k < (size_t)r->n_cycles * POWER_COMPONENTS; k++)
        settle_one(&r->bin_energy[k], &r->bin_exact[2 * k]);
    settle_one(&r->io_switching, r->io_exact);
    memset(r->group_energy, 0, sizeof r->group_energy);
    power_result_sum_groups(r);
    r->group_energy[POWER_GROUP_IO][POWER_SWITCHING] += r->io_switching;
}

void power_book(power_result *r, const power_plan *plan, uint32_t inst, power_component c,
                uint32_t bin, double e)
{
    power_group g = inst == DESIGN_NONE ? POWER_GROUP_IO : (power_group)r->inst_group[inst];
    size_t k = (size_t)inst * POWER_COMPONENTS + c, b = (size_t)bin * POWER_COMPONENTS + c;
    bool in_bins = g != POWER_GROUP_IO || plan->include_io;
    r->group_energy[g][c] += e;
    if (inst != DESIGN_NONE)
        r->inst_energy[k] += e;
    else
        r->io_switching += e;
    if (in_bins)
        r->bin_energy[b] += e;
    if (!r->inst_exact)
        return;
    power_exact_add(inst != DESIGN_NONE ? &r->inst_exact[2 * k] : r->io_exact, e);
    if (in_bins)
        power_exact_add(&r->bin_exact[2 * b], e);
}

static const char *const component_names[POWER_COMPONENTS] = {
    "internal", "switching", "leakage", "glitch internal", "glitch switching"};

/* The first of n rows of POWER_COMPONENTS energies with a value that is
 * not finite, its component in *c; n when none. */
static size_t first_not_finite(const double *e, size_t n, int *c)
{
    for (size_t i = 0; i < n; i++)
        for (*c = 0; *c < POWER_COMPONENTS; (*c)++)
            if (!isfinite(e[i * POWER_COMPONENTS + *c]))
                return i;
    return n;
}

gp_status power_result_check(const design *dg, const power_result *r, diag_ctx *d)
{
    char what[512];
    int c, unused;
    size_t i = first_not_finite(r->inst_energy, r->n_insts, &c);
    size_t g = first_not_finite(&r->group_energy[0][0], POWER_GROUPS, &unused);
    size_t b = first_not_finite(r->bin_energy, r->n_cycles, &unused);
    if (i < r->n_insts)
        snprintf(what, sizeof what, "the %s energy of instance '%s' (cell %s)",
                 component_names[c], design_inst_name(dg, (uint32_t)i), dg->inst_cell[i]->name);
    else if (g == POWER_GROUP_IO || !isfinite(r->io_switching))
        snprintf(what, sizeof what, "the switching energy of the nets driven by primary inputs");
    else if (g < POWER_GROUPS || b < r->n_cycles)
        snprintf(what, sizeof what, "the energy of a group or a cycle");
    else
        return GP_OK;
    diag_error(d, 8013, DIAG_NOWHERE, "%s is not a finite number: a value of the library, the "
               "parasitics or the activity is out of range (a capacitance, an energy table, a "
               "leakage)", what);
    return GP_ERR_INPUT;
}

void power_result_free(power_result *r)
{
    if (!r)
        return;
    mem_free(r->inst_group);
    mem_free(r->inst_energy);
    mem_free(r->bin_energy);
    mem_free(r->inst_exact);
    mem_free(r->bin_exact);
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
