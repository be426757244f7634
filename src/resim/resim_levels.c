/* resim_levels.c: the combinational gates, level by level, on worker threads.
 *
 * A gate's output waveform depends only on its inputs' waveforms, which are
 * of lower levels, so the gates of one level are simulated in parallel: the
 * workers take gates from a shared counter, each writing its gates' events
 * into its own trace; at the end of the level one thread copies the level's
 * waveforms into the store in gate order.  The store is the same for every
 * thread count and every schedule: only who computes a gate varies. */
#include "resim/resim_int.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "util/mem.h"

/* One combinational output pin to simulate, and where its waveform went. */
typedef struct resim_job {
    uint32_t inst, pin;
    uint32_t worker;  /* whose trace holds it */
    uint64_t first, count;
} resim_job;

/* A barrier whose party count can be lowered once the workers are started
 * (pthread_barrier_t cannot: a thread that failed to start would leave the
 * others waiting forever). */
typedef struct resim_barrier {
    pthread_mutex_t lock;
    pthread_cond_t all_in;
    uint32_t parties, waiting;
    uint64_t round;
} resim_barrier;

static void release_if_full(resim_barrier *b)
{
    if (b->waiting == b->parties) {
        b->waiting = 0;
        b->round++;
        pthread_cond_broadcast(&b->all_in);
    }
}

static void barrier_wait(resim_barrier *b)
{
    pthread_mutex_lock(&b->lock);
    uint64_t round = b->round;
    b->waiting++;
    release_if_full(b);
    while (b->round == round)
        pthread_cond_wait(&b->all_in, &b->lock);
    pthread_mutex_unlock(&b->lock);
}

static void barrier_set_parties(resim_barrier *b, uint32_t parties)
{
    pthread_mutex_lock(&b->lock);
    b->parties = parties;
    release_if_full(b);
    pthread_mutex_unlock(&b->lock);
}

typedef struct resim_pool {
    const design *dg;
    int64_t t0;
    resim_wave *w;
    resim_job *jobs;
    uint32_t *level0;     /* jobs of level l: [level0[l], level0[l + 1]) */
    uint32_t n_levels;
    uint32_t n_workers;
    resim_trace *trace;   /* per worker */
    resim_stats *stats;   /* per worker */
    atomic_uint next;     /* next job of the current level */
    atomic_bool failed;   /* out of memory somewhere */
    resim_barrier barrier;
} resim_pool;

typedef struct resim_worker {
    resim_pool *pool;
    uint32_t id;
} resim_worker;

/* The workers to use: `threads`, or every online core for 0. */
static uint32_t resim_workers(uint32_t threads)
{
    if (threads)
        return threads;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? (uint32_t)cores : 1;
}

/* Copies the level's waveforms from the traces into the store, in job order,
 * and empties the traces. */
static bool merge_level(resim_pool *p, uint32_t level)
{
    resim_wave *w = p->w;
    bool ok = true;
    for (uint32_t j = p->level0[level]; j < p->level0[level + 1] && ok; j++) {
        const resim_job *job = &p->jobs[j];
        const resim_trace *t = &p->trace[job->worker];
        size_t at = w->time.len;
        ok = resim_vec_time_reserve(&w->time, at + job->count) &&
             resim_vec_value_reserve(&w->value, at + job->count);
        if (!ok)
            break;
        memcpy(w->time.data + at, t->time.data + job->first, job->count * sizeof *w->time.data);
        memcpy(w->value.data + at, t->value.data + job->first, job->count);
        w->time.len = w->value.len = at + job->count;
        uint32_t net = p->dg->pin_net[job->pin];
        w->first[net] = at;
        w->count[net] = job->count;
    }
    for (uint32_t k = 0; k < p->n_workers; k++)
        p->trace[k].time.len = p->trace[k].value.len = 0;
    return ok;
}

/* A worker's loop over the levels; worker 0 also merges each level while
 * the others wait at the barrier. */
static void *work(void *arg)
{
    resim_worker *me = arg;
    resim_pool *p = me->pool;
    resim_trace *out = &p->trace[me->id];
    for (uint32_t l = 0; l < p->n_levels; l++) {
        for (uint32_t j; (j = atomic_fetch_add(&p->next, 1)) < p->level0[l + 1];) {
            resim_job *job = &p->jobs[j];
            job->worker = me->id;
            job->first = out->time.len;
            if (!atomic_load(&p->failed) &&
                !resim_gate(p->dg, job->inst, job->pin, p->t0, p->w, out, &p->stats[me->id]))
                atomic_store(&p->failed, true);
            job->count = out->time.len - job->first;
        }
        barrier_wait(&p->barrier);
        if (me->id == 0) {
            if (!atomic_load(&p->failed) && !merge_level(p, l))
                atomic_store(&p->failed, true);
            atomic_store(&p->next, p->level0[l + 1]);
        }
        barrier_wait(&p->barrier);
    }
    return NULL;
}

/* Runs the workers: the calling thread is worker 0; when the system refuses
 * a thread, those that started share the work. */
static void run_workers(resim_pool *p, resim_worker *wk, pthread_t *tid)
{
    uint32_t started = 1;
    for (uint32_t k = 0; k < p->n_workers; k++)
        wk[k] = (resim_worker){p, k};
    while (started < p->n_workers && pthread_create(&tid[started], NULL, work, &wk[started]) == 0)
        started++;
    barrier_set_parties(&p->barrier, started);
    work(&wk[0]);
    for (uint32_t k = 1; k < started; k++)
        pthread_join(tid[k], NULL);
}

/* The combinational output pins to simulate, in level order and, within a
 * level, in instance order; job_level0[l] is level l + 1's first.  NULL when
 * out of memory. */
static resim_job *list_jobs(const design *dg, uint32_t *n_jobs, uint32_t *job_level0)
{
    uint32_t n_levels = dg->n_levels > 0 ? dg->n_levels - 1 : 0, n = 0;
    uint32_t *count = mem_calloc((size_t)n_levels + 1, sizeof *count);
    resim_job *jobs = NULL;
    for (int pass = 0; count && pass < 2; pass++) {
        for (uint32_t l = 0; pass == 1 && l <= n_levels; l++)
            job_level0[l] = l ? job_level0[l - 1] + count[l - 1] : 0;
        if (pass == 1 && !(jobs = mem_alloc((n ? n : 1) * sizeof *jobs)))
            break;
        memset(count, 0, ((size_t)n_levels + 1) * sizeof *count);
        for (uint32_t inst = 0; inst < dg->n_insts; inst++) {
            uint32_t level = dg->inst_level[inst];
            const lib_cell *c = dg->inst_cell[inst];
            for (uint32_t lp = c->n_inputs + c->n_inouts; level > 0 && lp < c->n_pins; lp++) {
                uint32_t pin = dg->inst_pin0[inst] + lp, net = dg->pin_net[pin];
                if (c->pins[lp].dir != LIB_DIR_OUTPUT || net == DESIGN_NONE ||
                    dg->net_driver[net] != pin)
                    continue;
                if (pass == 1)
                    jobs[job_level0[level - 1] + count[level - 1]] = (resim_job){inst, pin, 0, 0, 0};
                count[level - 1]++;
                n += pass == 0;
            }
        }
    }
    mem_free(count);
    *n_jobs = n;
    return jobs;
}

bool resim_run_levels(const design *dg, int64_t t0, uint32_t threads, resim_wave *w,
                      resim_stats *stats)
{
    uint32_t n_levels = dg->n_levels > 0 ? dg->n_levels - 1 : 0, n_jobs = 0;
    uint32_t n_workers = resim_workers(threads);
    resim_pool p = {.dg = dg, .t0 = t0, .w = w, .n_levels = n_levels, .n_workers = n_workers};
    p.level0 = mem_alloc(((size_t)n_levels + 1) * sizeof *p.level0);
    p.jobs = p.level0 ? list_jobs(dg, &n_jobs, p.level0) : NULL;
    p.trace = mem_calloc(n_workers, sizeof *p.trace);
    p.stats = mem_calloc(n_workers, sizeof *p.stats);
    resim_worker *wk = mem_alloc(n_workers * sizeof *wk);
    pthread_t *tid = mem_alloc(n_workers * sizeof *tid);
    bool ok = p.jobs && p.trace && p.stats && wk && tid;
    if (ok) {
        atomic_init(&p.next, 0);
        atomic_init(&p.failed, false);
        pthread_mutex_init(&p.barrier.lock, NULL);
        pthread_cond_init(&p.barrier.all_in, NULL);
        p.barrier.parties = n_workers;
        run_workers(&p, wk, tid);
        pthread_cond_destroy(&p.barrier.all_in);
        pthread_mutex_destroy(&p.barrier.lock);
        ok = !atomic_load(&p.failed);
        stats->gates += n_jobs;
        for (uint32_t k = 0; k < n_workers; k++) {
            stats->wakeups += p.stats[k].wakeups;
            stats->swallowed += p.stats[k].swallowed;
        }
    }
    for (uint32_t k = 0; p.trace && k < n_workers; k++) {
        resim_vec_time_free(&p.trace[k].time);
        resim_vec_value_free(&p.trace[k].value);
    }
    mem_free(p.trace);
    mem_free(p.stats);
    mem_free(wk);
    mem_free(tid);
    mem_free(p.jobs);
    mem_free(p.level0);
    return ok;
}
