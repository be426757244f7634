/* resim_levels.c: the combinational gates in level order, on worker threads.
 *
 * A gate's output waveform depends only on its inputs' waveforms, which are
 * of lower levels.  The gates are listed by level; the workers take them in
 * that order from a shared counter, and a worker whose gate has an input not
 * finished yet waits for it (the gate computing it was taken earlier and is
 * in progress on another worker, so the wait ends).  Each worker writes into
 * its own store and publishes each finished net through a per-net ready
 * flag.  A waveform depends only on its inputs', never on who computed it or
 * when, so the result is the same for every thread count and schedule. */
#include "resim/resim_int.h"

#include <sched.h>
#include <stdatomic.h>

#include "util/mem.h"
#include "util/parts.h"

typedef struct resim_pool {
    const design *dg;
    int64_t t0;
    resim_net_wave *w;
    const resim_job *jobs;
    uint32_t n_jobs;
    atomic_uchar *ready;  /* per net: its waveform in w is final */
    resim_store *stores;  /* per worker */
    resim_stats *stats;   /* per worker */
    atomic_uint next;     /* next job to take */
    atomic_bool failed;   /* out of memory somewhere */
} resim_pool;

/* Waits until every input net of instance `inst` is final (or a worker
 * failed). */
static void wait_inputs(resim_pool *p, uint32_t inst)
{
    const design *dg = p->dg;
    uint32_t n = dg->inst_cell[inst]->n_inputs;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t net = dg->pin_net[dg->inst_pin0[inst] + k];
        if (net == DESIGN_NONE)
            continue;
        while (!atomic_load_explicit(&p->ready[net], memory_order_acquire) &&
               !atomic_load_explicit(&p->failed, memory_order_relaxed))
            sched_yield();
    }
}

/* A worker (a parts_fn): takes the next job until none is left, so how many
 * workers run at once does not matter. */
static void work(void *arg, uint32_t worker, uint32_t n_workers)
{
    (void)n_workers;
    resim_pool *p = arg;
    resim_scratch scratch = {0};
    for (uint32_t j; (j = atomic_fetch_add(&p->next, 1)) < p->n_jobs;) {
        const resim_job *job = &p->jobs[j];
        uint32_t net = p->dg->pin_net[job->pin];
        wait_inputs(p, job->inst);
        resim_net_wave wave;
        if (!atomic_load(&p->failed)) {
            if (resim_gate(p->dg, job->inst, job->pin, p->t0, p->w, &p->stores[worker],
                           &scratch, &wave, &p->stats[worker]))
                p->w[net] = wave;
            else
                atomic_store(&p->failed, true);
        }
        atomic_store_explicit(&p->ready[net], 1, memory_order_release);
    }
    vec_i64_free(&scratch.wakeups);
}

resim_job *resim_list_jobs(const design *dg, uint32_t *n_jobs)
{
    uint32_t n_levels = dg->n_levels > 0 ? dg->n_levels - 1 : 0, n = 0;
    uint32_t *at = mem_calloc((size_t)n_levels + 1, sizeof *at);
    resim_job *jobs = NULL;
    for (int pass = 0; at && pass < 2; pass++) {
        if (pass == 1 && !(jobs = mem_alloc((n ? n : 1) * sizeof *jobs)))
            break;
        for (uint32_t l = 0, sum = 0; pass == 1 && l <= n_levels; l++) {
            uint32_t count = at[l];
            at[l] = sum; /* from counts to the first job of each level */
            sum += count;
        }
        for (uint32_t inst = 0; inst < dg->n_insts; inst++) {
            uint32_t level = dg->inst_level[inst];
            const lib_cell *c = dg->inst_cell[inst];
            for (uint32_t lp = c->n_inputs + c->n_inouts; level > 0 && lp < c->n_pins; lp++) {
                uint32_t pin = dg->inst_pin0[inst] + lp, net = dg->pin_net[pin];
                if (c->pins[lp].dir != LIB_DIR_OUTPUT || net == DESIGN_NONE ||
                    dg->net_driver[net] != pin)
                    continue;
                if (pass == 1)
                    jobs[at[level - 1]] = (resim_job){inst, pin};
                at[level - 1]++;
                n += pass == 0;
            }
        }
    }
    mem_free(at);
    *n_jobs = n;
    return jobs;
}

/* Per-net ready flags: set for every net but the jobs' outputs. */
static atomic_uchar *ready_flags(const design *dg, const resim_job *jobs, uint32_t n_jobs)
{
    atomic_uchar *ready = mem_alloc((dg->n_nets ? dg->n_nets : 1) * sizeof *ready);
    for (uint32_t n = 0; ready && n < dg->n_nets; n++)
        atomic_init(&ready[n], 1);
    for (uint32_t j = 0; ready && j < n_jobs; j++)
        atomic_init(&ready[dg->pin_net[jobs[j].pin]], 0);
    return ready;
}

bool resim_run_levels(const design *dg, int64_t t0, resim_store *stores, uint32_t n_workers,
                      resim_net_wave *w, resim_stats *stats)
{
    resim_pool p = {.dg = dg, .t0 = t0, .w = w, .stores = stores};
    resim_job *jobs = resim_list_jobs(dg, &p.n_jobs);
    p.jobs = jobs;
    p.ready = jobs ? ready_flags(dg, jobs, p.n_jobs) : NULL;
    p.stats = mem_calloc(n_workers, sizeof *p.stats);
    bool ok = jobs && p.ready && p.stats;
    if (ok) {
        atomic_init(&p.next, 0);
        atomic_init(&p.failed, false);
        parts_run(work, &p, n_workers);
        ok = !atomic_load(&p.failed);
        stats->gates += p.n_jobs;
        for (uint32_t k = 0; k < n_workers; k++) {
            stats->wakeups += p.stats[k].wakeups;
            stats->swallowed += p.stats[k].swallowed;
        }
    }
    mem_free(p.stats);
    mem_free(p.ready);
    mem_free(jobs);
    return ok;
}
