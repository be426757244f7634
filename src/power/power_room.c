/* power_room.c: one engine run in the memory the engine has (the CUDA
 * engine's device).  A run whose store costs more than the room is cut
 * into slices of whole cycles, halved until each fits (one cycle at
 * least); each slice runs as a --window of its own on a store of its own
 * (events_slice: every net's value at the slice's start, then its events),
 * with the clock fixed first, and the results are added up in cycle order
 * as power_stream adds its windows': SPEC §3's rules look at one cycle at
 * a time but for the state a gate enters it with, which the slice's store
 * gives. */
#include "power/power_int.h"

#include "util/parts.h"

#define ROOM_MAX_PARTS 64

typedef struct room_run {
    const design *dg;
    const events *ev;
    const power_room *room;
    power_engine_fn engine;
    void *ctx;
    power_options opt; /* the clock fixed: the period and the dump's start */
    int64_t t0, t1;
    uint64_t cycles;
    diag_ctx *d;
} room_run;

typedef struct cost_job {
    const room_run *run;
    int64_t from, to;
    bool whole; /* the whole store: no search */
    uint64_t bytes[ROOM_MAX_PARTS];
} cost_job;

static void cost_part(void *ctx, uint32_t part, uint32_t parts)
{
    cost_job *job = ctx;
    const design *dg = job->run->dg;
    const power_room *room = job->run->room;
    uint32_t n0 = (uint32_t)parts_begin(dg->n_nets, part, parts);
    uint32_t n1 = (uint32_t)parts_begin(dg->n_nets, part + 1, parts);
    uint64_t bytes = 0, lo, hi;
    for (uint32_t n = n0; n < n1; n++) {
        if (job->whole)
            lo = job->run->ev->net_ev0[n], hi = job->run->ev->net_ev0[n + 1];
        else
            events_span_of(job->run->ev, n, job->from, job->to, &lo, &hi);
        uint64_t pins = dg->net_pin0[n + 1] - dg->net_pin0[n];
        bytes += (hi - lo) * (room->per_event + room->per_pin_event * pins);
    }
    job->bytes[part] = bytes;
}

/* What the store of the span [from, to) would cost the engine. */
static uint64_t span_cost(const room_run *run, int64_t from, int64_t to)
{
    cost_job job = {.run = run, .from = from, .to = to,
                    .whole = from == INT64_MIN && to == INT64_MAX};
    uint32_t parts = parts_for(run->dg->n_nets, ROOM_MAX_PARTS);
    parts_run(cost_part, &job, parts);
    uint64_t bytes = 0;
    for (uint32_t k = 0; k < parts; k++)
        bytes += job.bytes[k];
    return bytes;
}

static gp_status run_slice(const room_run *run, int64_t from, int64_t to, power_result **out)
{
    events *slice = events_slice(run->ev, from, to);
    if (!slice) {
        diag_error(run->d, 8017, DIAG_NOWHERE, "out of memory cutting the activity into slices "
                   "that fit the engine's memory: give a smaller --memory");
        return GP_ERR_NOMEM;
    }
    power_options opt = run->opt;
    opt.window_start_fs = from;
    opt.window_end_fs = to;
    gp_status st = run->engine(run->ctx, run->dg, slice, &opt, out, run->d);
    events_free(slice);
    return st;
}

/* Cycles [c0, c1) of the run, halved until their store fits; each slice's
 * result added to *total. */
static gp_status run_cycles(const room_run *run, uint64_t c0, uint64_t c1, power_result **total)
{
    int64_t from = run->t0 + (int64_t)c0 * run->opt.period_fs;
    int64_t to = c1 == run->cycles ? run->t1 : run->t0 + (int64_t)c1 * run->opt.period_fs;
    if (c1 - c0 > 1 && span_cost(run, from, to) > run->room->bytes) {
        uint64_t mid = c0 + (c1 - c0) / 2;
        gp_status st = run_cycles(run, c0, mid, total);
        return st == GP_OK ? run_cycles(run, mid, c1, total) : st;
    }
    power_result *r = NULL;
    gp_status st = run_slice(run, from, to, &r);
    if (st != GP_OK || !*total) {
        *total = st == GP_OK ? r : *total;
        return st;
    }
    return power_result_append(*total, r, run->d);
}

/* Fixes the run's clock and window as the engine's plan would (its
 * errors); run->cycles stays 0 where the window holds no cycle to cut or
 * too many (the engine's run then says what is wrong). */
static gp_status fix_clock(room_run *run, const power_options *opt)
{
    int64_t dump_start = 0, period = 0;
    gp_status st = power_plan_clock(run->dg, run->ev, opt, &dump_start, &period, run->d);
    if (st != GP_OK)
        return st;
    run->opt.dump_start_fs = opt->dump_start_fs >= 0 ? opt->dump_start_fs : dump_start;
    run->opt.period_fs = period;
    run->opt.clock_net = NULL;
    run->t0 = opt->window_start_fs >= 0 ? opt->window_start_fs : run->opt.dump_start_fs;
    run->t1 = opt->window_end_fs >= 0 ? opt->window_end_fs : run->ev->end_fs;
    uint64_t cycles = run->t1 > run->t0 ? (uint64_t)((run->t1 - run->t0 + period - 1) / period) : 0;
    run->cycles = cycles <= UINT32_MAX / 8 ? cycles : 0;
    return GP_OK;
}

gp_status power_analyze_in_room(const design *dg, const events *ev, const power_options *opt,
                                const power_room *room, power_engine_fn engine, void *ctx,
                                power_result **out, diag_ctx *d)
{
    *out = NULL;
    room_run run = {.dg = dg, .ev = ev, .room = room, .engine = engine, .ctx = ctx,
                    .opt = *opt, .d = d};
    if (span_cost(&run, INT64_MIN, INT64_MAX) <= room->bytes)
        return engine(ctx, dg, ev, opt, out, d);
    gp_status st = fix_clock(&run, opt);
    if (st != GP_OK || run.cycles < 2)
        return st == GP_OK ? engine(ctx, dg, ev, opt, out, d) : st;
    st = run_cycles(&run, 0, run.cycles, out);
    if (st != GP_OK) {
        power_result_free(*out);
        *out = NULL;
    }
    return st;
}
