/* power_stream.c: the power of a dump given in windows (events_stream).
 * Each window's whole cycles not analysed yet are run through the engine
 * as a --window of their own, with the period and the dump's start fixed
 * on the first window, and the results are added up in cycle order.
 * SPEC §3's rules look at one cycle at a time but for the state each gate
 * enters it with, which a window's store gives (every net's value at its
 * start, events.h), so each window's result is the one-window run's over
 * its cycles, and their sum equals that run within rounding. */
#include "power/power_int.h"
#include "power/power_rules.h"

#include <string.h>

#include "util/mem.h"
#include "util/parts.h"
#include "util/units.h"

/* A period measured on a clock net is measured on the first window that
 * holds this many of its rising edges. */
#define POWER_STREAM_CLOCK_RISES 16

struct power_stream {
    const design *dg;
    power_options opt; /* the user's, narrowed to the rank's share (power_stream_share) */
    power_engine_fn engine;
    void *engine_ctx;
    /* The engine contexts each window's cycles are cut among: engine_ctx
     * alone, or power_stream_lanes'. */
    void *const *lanes;
    uint32_t n_lanes;
    bool planned;
    int64_t t0, period, dump_start;
    int64_t done;         /* the cycles analysed end here */
    power_result *total;  /* their result; NULL before the first */
    /* power_stream_share's; share_count 0: the whole dump.  Once the clock
     * is fixed, a share without cycles is `idle`. */
    int share_rank, share_count;
    int64_t share_last_fs;
    bool idle;
    bool ends_dump; /* the share reaches the analysis' end (the only one does) */
};

power_stream *power_stream_new(const design *dg, const power_options *opt, power_engine_fn engine,
                               void *engine_ctx)
{
    power_stream *s = mem_calloc(1, sizeof *s);
    if (s)
        *s = (power_stream){.dg = dg, .opt = *opt, .engine = engine,
                            .engine_ctx = engine_ctx, .lanes = &s->engine_ctx, .n_lanes = 1};
    return s;
}

void power_stream_lanes(power_stream *s, void *const *ctxs, uint32_t n)
{
    s->lanes = ctxs;
    s->n_lanes = n;
}

void power_stream_share(power_stream *s, int rank, int count, int64_t last_fs)
{
    s->share_rank = rank;
    s->share_count = count;
    s->share_last_fs = last_fs;
}

/* The clock stays fixed: the windows it was fixed on held the dump as
 * the windows that come again do (vcd.h: parts are given only once they
 * agree with a reading in file order). */
void power_stream_restart(power_stream *s)
{
    power_result_free(s->total);
    s->total = NULL;
    s->done = s->t0;
}

void power_stream_free(power_stream *s)
{
    if (s)
        power_result_free(s->total);
    mem_free(s);
}

power_result *power_stream_result(power_stream *s)
{
    power_result *r = s->total;
    s->total = NULL;
    return r;
}

/* Whether window w is the one to fix the clock on: it has events and, for a
 * period measured on a clock net, that many rising edges of it (or it is
 * the last). */
static bool stream_can_plan(const power_stream *s, const events_window *w)
{
    if (w->last)
        return true;
    if (w->ev->n_events == 0)
        return false;
    uint32_t clock = s->opt.period_fs || !s->opt.clock_net
                         ? DESIGN_NONE
                         : design_find_net(s->dg, s->opt.clock_net);
    return clock == DESIGN_NONE || power_clock_rises(w->ev, clock) >= POWER_STREAM_CLOCK_RISES;
}

/* The first of n cycles that part k of `parts` takes: parts take
 * [ceil(n k / parts), ceil(n (k + 1) / parts)), so part 0 has one when
 * there is one (ranks' shares, lanes' runs). */
static uint64_t share_first(uint64_t n, uint64_t k, uint64_t parts)
{
    return (n * k + parts - 1) / parts;
}

/* Narrows the analysis to this rank's share of the n cycles from s->t0
 * to the end (share_first: rank 0 has one when there is one); the share
 * that reaches the n-th keeps the user's end (the dump's when none), and
 * one that holds no cycle is idle. */
static gp_status stream_take_share(power_stream *s, diag_ctx *d)
{
    int64_t end = s->opt.window_end_fs >= 0 ? s->opt.window_end_fs : s->share_last_fs;
    if (end < 0) {
        diag_error(d, 8014, DIAG_NOWHERE, "ranks share the cycles out by the dump's end, which "
                   "only reading a gzip VCD whole tells: give --window START:END, or the dump "
                   "as a plain VCD or FST");
        return GP_ERR_INPUT;
    }
    uint64_t n = end > s->t0 ? (uint64_t)((end - s->t0 + s->period - 1) / s->period) : 0;
    uint64_t r = (uint64_t)s->share_rank, count = (uint64_t)s->share_count;
    uint64_t first = share_first(n, r, count), next = share_first(n, r + 1, count);
    bool last = next == n && (first < n || r == 0);
    s->idle = !last && first == next;
    s->ends_dump = last;
    s->t0 += (int64_t)first * s->period;
    s->opt.window_start_fs = s->t0;
    if (!last)
        s->opt.window_end_fs = s->t0 + (int64_t)(next - first) * s->period;
    return GP_OK;
}

/* The first window with events: the dump's start, the window's and the
 * period. */
static gp_status stream_plan(power_stream *s, const events *ev, diag_ctx *d)
{
    gp_status st = power_plan_clock(s->dg, ev, &s->opt, &s->dump_start, &s->period, d);
    if (st != GP_OK)
        return st;
    s->t0 = s->opt.window_start_fs >= 0 ? s->opt.window_start_fs : s->dump_start;
    s->planned = true;
    s->idle = false;
    s->ends_dump = true;
    if (s->share_count > 1)
        st = stream_take_share(s, d);
    s->done = s->t0;
    return st;
}

/* Where the analysis of window w ends: the analysis window's end on the
 * last, else the last cycle edge before which every change is in w. */
static int64_t stream_end(const power_stream *s, const events_window *w)
{
    int64_t user_end = s->opt.window_end_fs;
    if (w->last)
        return user_end >= 0 ? user_end : w->ev->end_fs;
    int64_t limit = user_end >= 0 && user_end < w->complete_fs ? user_end : w->complete_fs;
    if (limit <= s->t0)
        return s->done;
    return s->t0 + (limit - s->t0) / s->period * s->period;
}

/* Adds r's exact sums to t's (the bins of r's cycles after t's, which
 * become `cycles`), when both keep them; t keeps none when r does not.
 * False when out of memory. */
static bool append_exact(power_result *t, const power_result *r, uint64_t cycles)
{
    if (!t->inst_exact || !r->inst_exact) {
        mem_free(t->inst_exact);
        mem_free(t->bin_exact);
        t->inst_exact = t->bin_exact = NULL;
        return true;
    }
    size_t words = ((size_t)cycles * POWER_COMPONENTS + 1) * 2;
    uint64_t *bins = mem_realloc(t->bin_exact, words * sizeof *bins);
    if (!bins)
        return false;
    memcpy(bins + (size_t)t->n_cycles * POWER_COMPONENTS * 2, r->bin_exact,
           (size_t)r->n_cycles * POWER_COMPONENTS * 2 * sizeof *bins);
    t->bin_exact = bins;
    power_exact_add_sums(t->inst_exact, r->inst_exact, (size_t)t->n_insts * POWER_COMPONENTS);
    power_exact_add_sums(t->io_exact, r->io_exact, 1);
    return true;
}

gp_status power_result_append(power_result *t, power_result *r, diag_ctx *d)
{
    if (r->window_start_fs != t->window_end_fs || r->period_fs != t->period_fs ||
        r->n_insts != t->n_insts) {
        diag_error(d, 8015, DIAG_NOWHERE, "results to add up do not follow each other: cycles "
                   "from %lld fs of period %lld fs after cycles to %lld fs of period %lld fs (ranks "
                   "that read different dumps or clocks?)", (long long)r->window_start_fs,
                   (long long)r->period_fs, (long long)t->window_end_fs, (long long)t->period_fs);
        power_result_free(r);
        return GP_ERR_INPUT;
    }
    uint64_t cycles = (uint64_t)t->n_cycles + r->n_cycles;
    if (!power_plan_cycles_fit((int64_t)cycles, d)) {
        power_result_free(r);
        return GP_ERR_INPUT;
    }
    double *bins = mem_realloc(t->bin_energy, cycles * POWER_COMPONENTS * sizeof *bins);
    if (bins) {
        memcpy(bins + (size_t)t->n_cycles * POWER_COMPONENTS, r->bin_energy,
               (size_t)r->n_cycles * POWER_COMPONENTS * sizeof *bins);
        t->bin_energy = bins;
    }
    if (!bins || !append_exact(t, r, cycles)) {
        power_result_free(r);
        diag_error(d, 8012, DIAG_NOWHERE, "out of memory adding up the power of the windows");
        return GP_ERR_NOMEM;
    }
    t->n_cycles = (uint32_t)cycles;
    for (size_t k = 0; k < (size_t)t->n_insts * POWER_COMPONENTS; k++)
        t->inst_energy[k] += r->inst_energy[k];
    for (int g = 0; g < POWER_GROUPS; g++)
        for (int c = 0; c < POWER_COMPONENTS; c++)
            t->group_energy[g][c] += r->group_energy[g][c];
    t->io_switching += r->io_switching;
    t->events_used += r->events_used;
    t->window_end_fs = r->window_end_fs;
    t->duration = (double)(t->window_end_fs - t->window_start_fs) * GP_S_PER_FS;
    power_result_settle(t);
    power_result_free(r);
    return GP_OK;
}

power_result *power_result_copy(const power_result *r)
{
    power_result *c = mem_calloc(1, sizeof *c);
    size_t insts = (size_t)r->n_insts, bins = (size_t)r->n_cycles * POWER_COMPONENTS;
    if (c) {
        *c = *r;
        c->inst_group = mem_alloc(insts + 1);
        c->inst_energy = mem_alloc((insts * POWER_COMPONENTS + 1) * sizeof(double));
        c->bin_energy = mem_alloc((bins + 1) * sizeof(double));
    }
    size_t sum_bytes = 2 * sizeof(uint64_t); /* an exact sum */
    if (c && r->inst_exact) {
        c->inst_exact = mem_alloc((insts * POWER_COMPONENTS + 1) * sum_bytes);
        c->bin_exact = mem_alloc((bins + 1) * sum_bytes);
    }
    if (!c || !c->inst_group || !c->inst_energy || !c->bin_energy ||
        (r->inst_exact && (!c->inst_exact || !c->bin_exact))) {
        power_result_free(c);
        return NULL;
    }
    if (r->inst_exact) {
        memcpy(c->inst_exact, r->inst_exact, insts * POWER_COMPONENTS * sum_bytes);
        memcpy(c->bin_exact, r->bin_exact, bins * sum_bytes);
    }
    memcpy(c->inst_group, r->inst_group, insts);
    memcpy(c->inst_energy, r->inst_energy, insts * POWER_COMPONENTS * sizeof(double));
    memcpy(c->bin_energy, r->bin_energy, bins * sizeof(double));
    return c;
}

gp_status power_result_concat(power_result *t, power_result *r, diag_ctx *d)
{
    if (r->period_fs != t->period_fs) {
        diag_error(d, 8016, DIAG_NOWHERE, "the activities' combination needs one clock: one "
                   "has a period of %lld fs, another of %lld fs (give --period)",
                   (long long)t->period_fs, (long long)r->period_fs);
        power_result_free(r);
        return GP_ERR_INPUT;
    }
    r->window_end_fs += t->window_end_fs - r->window_start_fs;
    r->window_start_fs = t->window_end_fs;
    return power_result_append(t, r, d);
}

/* Adds window result r, which follows the cycles of s->total, to it. */
static gp_status stream_add(power_stream *s, power_result *r, diag_ctx *d)
{
    if (!s->total) {
        s->total = r;
        return GP_OK;
    }
    return power_result_append(s->total, r, d);
}

/* The options of the engine's run over [start, end) of a window. */
static power_options stream_options(const power_stream *s, int64_t start, int64_t end)
{
    power_options opt = s->opt;
    opt.window_start_fs = start;
    opt.window_end_fs = end;
    opt.period_fs = s->period;
    opt.clock_net = NULL;
    opt.dump_start_fs = s->dump_start;
    return opt;
}

/* The lanes' runs over one window's cycles, one lane a part (parts_run). */
typedef struct lane_job {
    const power_stream *s;
    const events *ev;
    int64_t start, end;
    diag_ctx *d;
    power_result *r[POWER_MAX_LANES];
    gp_status st[POWER_MAX_LANES];
} lane_job;

/* Lane k of n takes its share of the window's c cycles (share_first, as
 * ranks take theirs); none leaves it idle. */
static void lane_run(void *ctx, uint32_t k, uint32_t n)
{
    lane_job *job = ctx;
    const power_stream *s = job->s;
    uint64_t c = (uint64_t)((job->end - job->start + s->period - 1) / s->period);
    uint64_t first = share_first(c, k, n), next = share_first(c, k + 1, n);
    int64_t start = job->start + (int64_t)first * s->period;
    int64_t end = next == c ? job->end : job->start + (int64_t)next * s->period;
    job->st[k] = GP_OK;
    if (first == next && k > 0)
        return;
    power_options opt = stream_options(s, start, end);
    job->st[k] = s->engine(s->lanes[k], s->dg, job->ev, &opt, &job->r[k], job->d);
}

/* Runs the lanes over [s->done, end) of ev and adds their results in
 * lane order. */
static gp_status stream_analyse_lanes(power_stream *s, const events *ev, int64_t end,
                                      diag_ctx *d)
{
    lane_job job = {.s = s, .ev = ev, .start = s->done, .end = end, .d = d};
    parts_run(lane_run, &job, s->n_lanes);
    gp_status st = GP_OK;
    for (uint32_t k = 0; k < s->n_lanes; k++) {
        if (st == GP_OK)
            st = job.st[k];
        if (st == GP_OK && job.r[k])
            st = stream_add(s, job.r[k], d);
        else
            power_result_free(job.r[k]);
    }
    return st;
}

/* Runs the engine over [s->done, end) of ev. */
static gp_status stream_analyse(power_stream *s, const events *ev, int64_t end, diag_ctx *d)
{
    gp_status st;
    if (s->n_lanes > 1) {
        st = stream_analyse_lanes(s, ev, end, d);
    } else {
        power_options opt = stream_options(s, s->done, end);
        power_result *r = NULL;
        st = s->engine(s->lanes[0], s->dg, ev, &opt, &r, d);
        if (st == GP_OK)
            st = stream_add(s, r, d);
    }
    if (st == GP_OK)
        s->done = end;
    return st;
}

gp_status power_stream_plan(power_stream *s, const events_window *w, diag_ctx *d)
{
    return s->planned || !stream_can_plan(s, w) ? GP_OK : stream_plan(s, w->ev, d);
}

bool power_stream_planned(const power_stream *s)
{
    return s->planned;
}

void power_stream_span(const power_stream *s, int64_t *from, int64_t *to)
{
    bool first = s->share_count <= 1 || s->share_rank == 0;
    *from = first ? INT64_MIN : s->t0;
    *to = s->ends_dump ? INT64_MAX : s->opt.window_end_fs;
    if (s->idle)
        *from = *to = s->t0;
}

bool power_stream_share_options(const power_stream *s, power_options *opt)
{
    if (s->idle)
        return false;
    *opt = stream_options(s, s->t0, s->opt.window_end_fs);
    return true;
}

gp_status power_stream_window(power_stream *s, const events_window *w, int64_t *keep_from,
                              diag_ctx *d)
{
    *keep_from = w->from;
    if (!s->planned && !stream_can_plan(s, w))
        return GP_OK; /* nothing to fix the clock on yet: the next window holds it all */
    gp_status st = s->planned ? GP_OK : stream_plan(s, w->ev, d);
    if (st == GP_OK && s->idle) {
        *keep_from = w->complete_fs < INT64_MAX ? w->complete_fs : w->from;
        return GP_OK;
    }
    int64_t end = st == GP_OK ? stream_end(s, w) : s->done;
    /* The last window is analysed even when it holds nothing new, so that
     * a window outside the dump is refused as one run refuses it. */
    if (st == GP_OK && (end > s->done || (w->last && !s->total)))
        st = stream_analyse(s, w->ev, end, d);
    *keep_from = s->done;
    return st;
}
