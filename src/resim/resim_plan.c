/* resim_plan.c: the re-simulation as flat arrays (resim.h's resim_plan):
 * the fixed nets' waveforms as resim_run loads them, and every gate in
 * resim_run's level order with its inputs' delays as resim_gate.c takes
 * them, for an engine that simulates the gates elsewhere (the GPU). */
#include "resim/resim_int.h"

#include <string.h>

#include "util/mem.h"
#include "util/parts.h"

/* The fixed nets' events, counted and then filled on threads (parts_fns
 * over nets). */
typedef struct fixed_job {
    const events *dump;
    const resim_source *src;
    resim_span span;
    events *fixed;
} fixed_job;

/* Net n's count into net_ev0[n + 1], summed into offsets afterwards. */
static void count_part(void *ctx, uint32_t part, uint32_t parts)
{
    const fixed_job *f = ctx;
    uint32_t end = (uint32_t)parts_begin(f->fixed->n_nets, part + 1, parts);
    for (uint32_t n = (uint32_t)parts_begin(f->fixed->n_nets, part, parts); n < end; n++)
        f->fixed->net_ev0[n + 1] = resim_source_events(f->dump, n, &f->src[n], f->span);
}

/* Parts of the nets' filling split their events, not the nets: a
 * design's events lie in its few fixed nets. */
static void fill_part(void *ctx, uint32_t part, uint32_t parts)
{
    const fixed_job *f = ctx;
    uint32_t first, end;
    parts_range_by(f->fixed->net_ev0, f->fixed->n_nets, part, parts, &first, &end);
    for (uint32_t n = first; n < end; n++)
        resim_source_words(f->dump, n, &f->src[n], f->span, f->fixed->word + f->fixed->net_ev0[n]);
}

/* The fixed nets' waveforms in the span, in an event store, none cut at
 * the dump's end: the sources of resim_run's, each net's events counted,
 * then filled, on `workers` threads. */
static gp_status fixed_nets(const design *dg, const events *dump, const resim_options *opt,
                            resim_span span, uint32_t workers, events **fixed, resim_stats *stats,
                            diag_ctx *d)
{
    resim_source *src = mem_alloc((dg->n_nets ? dg->n_nets : 1) * sizeof *src);
    events *ev = mem_calloc(1, sizeof *ev);
    gp_status st = src && ev ? resim_classify_nets(dg, dump, opt, src, stats, d)
                             : resim_no_memory(d);
    if (st == GP_OK && !(ev->net_ev0 = mem_alloc(((size_t)dg->n_nets + 1) * sizeof *ev->net_ev0)))
        st = resim_no_memory(d);
    fixed_job job = {dump, src, span, ev};
    if (st == GP_OK) {
        ev->n_nets = dg->n_nets;
        ev->end_fs = dump->end_fs;
        ev->net_ev0[0] = 0;
        parts_run(count_part, &job, parts_for(dg->n_nets, workers));
        for (uint32_t n = 0; n < dg->n_nets; n++)
            ev->net_ev0[n + 1] += ev->net_ev0[n];
        ev->n_events = ev->net_ev0[dg->n_nets];
        if (!(ev->word = mem_alloc((ev->n_events ? ev->n_events : 1) * sizeof *ev->word)))
            st = resim_no_memory(d);
    }
    if (st == GP_OK) {
        parts_run(fill_part, &job, parts_for(ev->n_events, workers));
        *fixed = ev;
    } else {
        events_free(ev);
    }
    mem_free(src);
    return st;
}

/* Rows of a truth table a gate of n inputs reads, in 64-bit words. */
static uint32_t tt_words(uint32_t n)
{
    return n >= 6 ? 1u << (n - 6) : 1;
}

/* Each gate's first input and truth-table word (plan->gates[j].in0 and
 * .tt0), in job order; the totals. */
static void place_gates(const design *dg, const resim_job *jobs, uint32_t n_jobs,
                        resim_plan_gate *gates, uint64_t *n_inputs, uint64_t *n_tt)
{
    uint64_t in0 = 0, tt0 = 0;
    for (uint32_t j = 0; j < n_jobs; j++) {
        uint32_t n = resim_gate_inputs(dg, jobs[j].inst);
        gates[j].in0 = (uint32_t)in0;
        gates[j].tt0 = (uint32_t)tt0;
        in0 += n;
        tt0 += tt_words(n);
    }
    *n_inputs = in0;
    *n_tt = tt0;
}

/* Job j as plan gate j (placed), its inputs and truth table. */
static void add_gate(const design *dg, const resim_job *job, resim_plan *plan, uint32_t j)
{
    uint32_t lp = job->pin - dg->inst_pin0[job->inst], n = resim_gate_inputs(dg, job->inst);
    const lib_expr *f = dg->inst_cell[job->inst]->pins[lp].function;
    resim_plan_gate *g = &plan->gates[j];
    g->net = dg->pin_net[job->pin];
    g->n_inputs = n;
    for (uint32_t k = 0; k < n; k++)
        plan->inputs[g->in0 + k] = resim_input_of(dg, job->inst, lp, k);
    if (f && f->tt)
        memcpy(plan->tt + g->tt0, f->tt, tt_words(n) * sizeof *plan->tt);
    else
        g->tt0 = RESIM_NO_TT;
}

typedef struct gates_job {
    const design *dg;
    const resim_job *jobs;
    uint32_t n_jobs;
    resim_plan *plan;
} gates_job;

/* The gates of one part of the jobs (a parts_fn). */
static void add_part(void *ctx, uint32_t part, uint32_t parts)
{
    const gates_job *g = ctx;
    uint32_t end = (uint32_t)parts_begin(g->n_jobs, part + 1, parts);
    for (uint32_t j = (uint32_t)parts_begin(g->n_jobs, part, parts); j < end; j++)
        add_gate(g->dg, &g->jobs[j], g->plan, j);
}

/* The first gate of each level (levels 1 .. n of the design are plan
 * levels 0 .. n - 1; an empty level starts where the next does). */
static void mark_levels(const design *dg, const resim_job *jobs, uint32_t n_jobs,
                        resim_plan *plan)
{
    uint32_t l = 0;
    for (uint32_t j = 0; j < n_jobs; j++)
        for (uint32_t level = dg->inst_level[jobs[j].inst]; l < level; l++)
            plan->level_gate0[l] = j;
    plan->level_gate0[plan->n_levels] = n_jobs;
}

/* Sorts each level's jobs by fan-in, stably (a counting sort), so that the
 * GPU's neighbouring threads take the same path through the fan-in's
 * loop; a gate's waveform does not depend on the order.  False when out of
 * memory. */
static bool order_by_fanin(const design *dg, resim_job *jobs, uint32_t n_jobs)
{
    resim_job *sorted = mem_alloc((n_jobs ? n_jobs : 1) * sizeof *sorted);
    if (!sorted)
        return false;
    for (uint32_t first = 0, end; first < n_jobs; first = end) {
        uint32_t level = dg->inst_level[jobs[first].inst], at[RESIM_MAX_INPUTS + 2] = {0};
        for (end = first; end < n_jobs && dg->inst_level[jobs[end].inst] == level; end++)
            at[resim_gate_inputs(dg, jobs[end].inst) + 1]++;
        for (uint32_t k = 1; k <= RESIM_MAX_INPUTS + 1; k++)
            at[k] += at[k - 1];
        for (uint32_t j = first; j < end; j++)
            sorted[first + at[resim_gate_inputs(dg, jobs[j].inst)]++] = jobs[j];
    }
    memcpy(jobs, sorted, n_jobs * sizeof *jobs);
    mem_free(sorted);
    return true;
}

/* The gates of the jobs, on `workers` threads. */
static gp_status list_gates(const design *dg, const resim_job *jobs, uint32_t n_jobs,
                            uint32_t workers, resim_plan *plan, diag_ctx *d)
{
    uint64_t n_inputs, n_tt;
    plan->n_levels = n_jobs ? dg->inst_level[jobs[n_jobs - 1].inst] : 0;
    plan->gates = mem_alloc((n_jobs ? n_jobs : 1) * sizeof *plan->gates);
    plan->level_gate0 = mem_alloc(((size_t)plan->n_levels + 1) * sizeof *plan->level_gate0);
    if (!plan->gates || !plan->level_gate0)
        return resim_no_memory(d);
    place_gates(dg, jobs, n_jobs, plan->gates, &n_inputs, &n_tt);
    if (n_inputs > UINT32_MAX || n_tt >= RESIM_NO_TT) {
        diag_error(d, 9008, DIAG_NOWHERE, "the design has %llu gate inputs: the GPU "
                   "re-simulation takes fewer than 2^32; use --engine cpu",
                   (unsigned long long)n_inputs);
        return GP_ERR_UNSUPPORTED;
    }
    plan->inputs = mem_alloc((n_inputs ? n_inputs : 1) * sizeof *plan->inputs);
    plan->tt = mem_calloc(n_tt ? n_tt : 1, sizeof *plan->tt);
    if (!plan->inputs || !plan->tt)
        return resim_no_memory(d);
    plan->n_gates = n_jobs, plan->n_inputs = (uint32_t)n_inputs, plan->n_tt = n_tt;
    mark_levels(dg, jobs, n_jobs, plan);
    gates_job job = {dg, jobs, n_jobs, plan};
    parts_run(add_part, &job, parts_for(n_jobs, workers));
    return GP_OK;
}

gp_status resim_plan_make(const design *dg, const events *dump, const resim_options *opt,
                          resim_plan *plan, resim_stats *stats, diag_ctx *d)
{
    memset(plan, 0, sizeof *plan);
    memset(stats, 0, sizeof *stats);
    gp_status st = resim_check_design(dg, d);
    if (st != GP_OK)
        return st;
    uint32_t n_jobs = 0;
    resim_job *jobs = resim_list_jobs(dg, &n_jobs);
    st = jobs && order_by_fanin(dg, jobs, n_jobs)
             ? list_gates(dg, jobs, n_jobs, parts_threads(opt->threads), plan, d)
             : resim_no_memory(d);
    mem_free(jobs);
    if (st == GP_OK)
        st = resim_plan_move(dg, dump, opt, plan, stats, d);
    if (st != GP_OK)
        resim_plan_free(plan);
    return st;
}

gp_status resim_plan_move(const design *dg, const events *dump, const resim_options *opt,
                          resim_plan *plan, resim_stats *stats, diag_ctx *d)
{
    memset(stats, 0, sizeof *stats);
    stats->gates = plan->n_gates;
    events_free(plan->fixed);
    plan->fixed = NULL;
    resim_span span;
    gp_status st = resim_span_of(dg, dump, opt, &span, stats, d);
    plan->t0 = span.start;
    return st == GP_OK ? fixed_nets(dg, dump, opt, span, parts_threads(opt->threads),
                                    &plan->fixed, stats, d)
                       : st;
}

void resim_plan_free(resim_plan *plan)
{
    events_free(plan->fixed);
    mem_free(plan->level_gate0);
    mem_free(plan->gates);
    mem_free(plan->inputs);
    mem_free(plan->tt);
    memset(plan, 0, sizeof *plan);
}
