/* resim_span.c: re-simulating part of a dump (resim_options.exact_from_fs,
 * a rank's share of the cycles): where the gates must start so that every
 * net's waveform is the whole run's from a given time on.
 *
 * A gate's output at time s depends only on its input pins' waveforms
 * over the last two of its largest path delays before s: the wake-ups
 * after that come from input changes inside it, and the value each puts on
 * the net is the gate's value then (resim_gate.c); likewise a pin's
 * arrivals over two of its largest wire delays.  So two runs whose fixed
 * nets agree from a time on agree on a gate's output from its settling
 * bound on, the largest over its inputs of (the input net's bound + twice
 * the wire's largest delay), plus twice the gate's largest path delay.
 * The warm-up is the largest bound of any net. */
#include "resim/resim_int.h"

#include "util/mem.h"

/* Bounds saturate here, far above any dump's length. */
#define RESIM_BOUND_CAP ((int64_t)1 << 60)

static int64_t add_capped(int64_t a, int64_t b)
{
    return a + b < RESIM_BOUND_CAP ? a + b : RESIM_BOUND_CAP;
}

static int64_t largest_of(const int64_t v[3])
{
    int64_t m = v[0] > v[1] ? v[0] : v[1];
    m = m > v[2] ? m : v[2];
    return m > 0 ? m : 0;
}

/* The output's settling bound from its inputs' (bound[], by net). */
static int64_t gate_bound(const design *dg, const resim_job *job, const int64_t *bound)
{
    uint32_t lp = job->pin - dg->inst_pin0[job->inst], n = resim_gate_inputs(dg, job->inst);
    int64_t inputs = 0, delay = 0;
    for (uint32_t k = 0; k < n; k++) {
        resim_input ri = resim_input_of(dg, job->inst, lp, k);
        if (ri.net == DESIGN_NONE)
            continue;
        int64_t at = add_capped(bound[ri.net], 2 * largest_of(ri.wire));
        inputs = at > inputs ? at : inputs;
        delay = largest_of(ri.delay) > delay ? largest_of(ri.delay) : delay;
    }
    return add_capped(inputs, 2 * delay);
}

int64_t resim_warmup_fs(const design *dg)
{
    uint32_t n_jobs = 0;
    resim_job *jobs = resim_list_jobs(dg, &n_jobs);
    int64_t *bound = mem_calloc(dg->n_nets ? dg->n_nets : 1, sizeof *bound);
    int64_t warmup = jobs && bound ? 0 : -1;
    for (uint32_t j = 0; warmup >= 0 && j < n_jobs; j++) {
        uint32_t net = dg->pin_net[jobs[j].pin];
        bound[net] = gate_bound(dg, &jobs[j], bound);
        warmup = bound[net] > warmup ? bound[net] : warmup;
    }
    mem_free(bound);
    mem_free(jobs);
    return warmup;
}

gp_status resim_span_of(const design *dg, const events *dump, const resim_options *opt,
                        resim_span *span, resim_stats *stats, diag_ctx *d)
{
    int64_t t0 = events_first_time(dump, 0);
    *span = (resim_span){.t0 = t0, .start = t0, .until = opt->until_fs};
    stats->start_fs = t0;
    if (opt->exact_from_fs <= t0)
        return GP_OK;
    int64_t warmup = opt->warmup_fs >= 0 ? opt->warmup_fs : resim_warmup_fs(dg);
    if (warmup < 0)
        return resim_no_memory(d);
    /* Strictly before: the gates' first events, at the start, are no
     * change of the whole run's. */
    int64_t start = opt->exact_from_fs - t0 > warmup ? opt->exact_from_fs - warmup - 1 : t0;
    span->start = stats->start_fs = start > t0 ? start : t0;
    return GP_OK;
}
