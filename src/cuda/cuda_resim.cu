/* cuda_resim.cu: the GPU re-simulation's driver (cuda_resim.h): the truth
 * tables and the fixed nets' events to the device, then level by level
 * (a level's gates and inputs going up on a thread while the levels before
 * it run) the gates' windows (cuda_resim_kernels.h: how many, their room,
 * their simulation, the join of a gate's windows into its waveform), and
 * last the waveforms cut at the dump's end as resim_run cuts them.  Each
 * level's sizes come back to the host (four waits a level) to size the
 * next arrays.  The fixed nets' events and the levels' waveforms go into
 * one span (cuda_span.h), which becomes the events' memory; each level's
 * own arrays come from an arena (cuda_arena.h) whose memory the next level
 * reuses. */
#include "cuda/cuda_resim.h"

#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <pthread.h>
#include <string.h>

#include "cuda/cuda_arena.h"
#include "cuda/cuda_resim_kernels.h"
#include "cuda/cuda_span.h"
#include "cuda/cuda_upload.h"
#include "util/mem.h"
#include "util/progress.h"

#define COUNTS 6

/* A run: its device arrays (freed at the end unless handed out), stream,
 * CUB scratch. */
struct resim_job {
    const resim_plan *plan;
    int device;
    bool tight, even_events;
    cudaStream_t stream;
    cuda_resim_dev P;
    void *fixed_ev0;
    unsigned long long *counts; /* [COUNTS]: fires, swallowed, windows overflowed; the cut's
                                   latest time, events kept, most events of a net */
    void *scan_temp;
    size_t scan_bytes;
    cuda_span *waves;         /* the fixed nets' events and the levels' waveforms */
    cuda_arena level;         /* the running level's windows, rooms and changes */
    cuda_resim_timing *tm;
};

static cudaError_t device_array(void **p, size_t bytes)
{
    return cudaMalloc(p, bytes ? bytes : 1);
}

/* `bytes` at src to dst on the device, through the device's kept staging
 * buffers (cuda_upload.h); the workers stop early once *cancel is set. */
static cudaError_t upload(const resim_job *j, void *dst, const void *src, size_t bytes,
                          const volatile bool *cancel)
{
    cuda_upload_options o = cuda_upload_defaults();
    o.device = j->device;
    o.cancel = cancel;
    return cuda_upload_bytes(dst, src, bytes, &o);
}

/* The run's device arrays, the truth tables and the fixed nets' events on
 * the device, and where those lie (net_ptr, net_count); the gates and
 * their inputs go up with the levels (level_uploader). */
static cudaError_t upload_fixed(resim_job *j)
{
    const resim_plan *p = j->plan;
    const events *fx = p->fixed;
    uint32_t nets = fx->n_nets;
    void *fixed_word = NULL;
    j->waves = (cuda_span *)mem_calloc(1, sizeof *j->waves);
    if (!j->waves)
        return cudaErrorMemoryAllocation;
    cudaError_t err = cuda_span_open(j->waves, j->device);
    if (err == cudaSuccess)
        err = cuda_span_take(j->waves, fx->n_events * sizeof *fx->word, &fixed_word);
    if (err == cudaSuccess)
        err = cudaStreamCreateWithFlags(&j->stream, cudaStreamNonBlocking);
    if (err == cudaSuccess)
        err = device_array((void **)&j->P.gates, p->n_gates * sizeof *p->gates);
    if (err == cudaSuccess)
        err = device_array((void **)&j->P.inputs, p->n_inputs * sizeof *p->inputs);
    if (err == cudaSuccess)
        err = device_array((void **)&j->P.tt, p->n_tt * sizeof *p->tt);
    if (err == cudaSuccess)
        err = device_array(&j->fixed_ev0, ((size_t)nets + 1) * sizeof *fx->net_ev0);
    if (err == cudaSuccess)
        err = device_array((void **)&j->P.net_ptr, (size_t)nets * sizeof *j->P.net_ptr);
    if (err == cudaSuccess)
        err = device_array((void **)&j->P.net_count, (size_t)nets * 8);
    if (err == cudaSuccess)
        err = device_array((void **)&j->counts, COUNTS * sizeof *j->counts);
    if (err == cudaSuccess)
        err = cudaMemset(j->counts, 0, COUNTS * sizeof *j->counts);
    if (err == cudaSuccess)
        err = upload(j, (void *)j->P.tt, p->tt, p->n_tt * sizeof *p->tt, NULL);
    if (err == cudaSuccess)
        err = upload(j, fixed_word, fx->word, fx->n_events * sizeof *fx->word, NULL);
    if (err == cudaSuccess)
        err = upload(j, j->fixed_ev0, fx->net_ev0, ((size_t)nets + 1) * sizeof *fx->net_ev0,
                     NULL);
    j->P.t0 = p->t0;
    j->P.span = fx->end_fs - p->t0 > 0 ? fx->end_fs - p->t0 : 1;
    if (err == cudaSuccess)
        err = cuda_resim_fixed(j->P, (const uint64_t *)fixed_word,
                               (const uint64_t *)j->fixed_ev0, nets, j->stream);
    return err;
}

/* The levels' gates and inputs go up on a host thread (cudaSetDevice is
 * per thread) while the levels before them run; `up` levels are on the
 * device.  Levels go up together until they hold LEVEL_BATCH_BYTES, so
 * that the workers' chunks spread over several of them. */
#define LEVEL_BATCH_BYTES ((size_t)8 << 20)

typedef struct level_uploader {
    resim_job *j;
    pthread_mutex_t lock;
    pthread_cond_t moved;
    uint32_t up;              /* levels on the device */
    bool done;                /* the thread has stopped */
    cudaError_t err;          /* the first failure (the levels from `up` on are missing) */
    volatile bool cancel;     /* set by the calling thread: stop early */
    pthread_t thread;
    bool threaded;
} level_uploader;

/* Where gate g's inputs start in the plan (g up to n_gates). */
static uint64_t input_of_gate(const resim_plan *p, uint32_t g)
{
    return g < p->n_gates ? p->gates[g].in0 : p->n_inputs;
}

/* The end of the batch of levels that starts at level l. */
static uint32_t batch_end(const resim_plan *p, uint32_t l)
{
    uint32_t g0 = p->level_gate0[l], end = l + 1;
    for (; end < p->n_levels; end++) {
        uint32_t g1 = p->level_gate0[end];
        size_t bytes = (size_t)(g1 - g0) * sizeof *p->gates +
                       (input_of_gate(p, g1) - input_of_gate(p, g0)) * sizeof *p->inputs;
        if (bytes >= LEVEL_BATCH_BYTES)
            break;
    }
    return end;
}

/* Levels [l, end)'s gates and inputs to the device. */
static cudaError_t upload_levels(level_uploader *u, uint32_t l, uint32_t end)
{
    const resim_plan *p = u->j->plan;
    uint32_t g0 = p->level_gate0[l], g1 = p->level_gate0[end];
    uint64_t i0 = input_of_gate(p, g0), i1 = input_of_gate(p, g1);
    cudaError_t err = upload(u->j, (void *)(u->j->P.gates + g0), p->gates + g0,
                             (size_t)(g1 - g0) * sizeof *p->gates, &u->cancel);
    if (err == cudaSuccess)
        err = upload(u->j, (void *)(u->j->P.inputs + i0), p->inputs + i0,
                     (i1 - i0) * sizeof *p->inputs, &u->cancel);
    return err;
}

static void *run_level_uploads(void *arg)
{
    level_uploader *u = (level_uploader *)arg;
    uint32_t levels = u->j->plan->n_levels;
    cudaError_t err = cudaSetDevice(u->j->device);
    for (uint32_t l = 0, end; err == cudaSuccess && l < levels && !u->cancel; l = end) {
        end = batch_end(u->j->plan, l);
        err = upload_levels(u, l, end);
        pthread_mutex_lock(&u->lock);
        u->up = err == cudaSuccess && !u->cancel ? end : u->up;
        pthread_cond_broadcast(&u->moved);
        pthread_mutex_unlock(&u->lock);
    }
    pthread_mutex_lock(&u->lock);
    u->err = err;
    u->done = true;
    pthread_cond_broadcast(&u->moved);
    pthread_mutex_unlock(&u->lock);
    return NULL;
}

/* Starts the levels' uploads on their thread (here, to the end, where no
 * thread can start). */
static void level_uploads_start(level_uploader *u, resim_job *j)
{
    u->j = j;
    pthread_mutex_init(&u->lock, NULL);
    pthread_cond_init(&u->moved, NULL);
    u->threaded = pthread_create(&u->thread, NULL, run_level_uploads, u) == 0;
    if (!u->threaded)
        run_level_uploads(u);
}

/* Waits until level l's gates and inputs are on the device. */
static cudaError_t level_uploaded(level_uploader *u, uint32_t l)
{
    pthread_mutex_lock(&u->lock);
    while (u->up <= l && !u->done)
        pthread_cond_wait(&u->moved, &u->lock);
    cudaError_t err = u->up > l ? cudaSuccess : u->err != cudaSuccess ? u->err : cudaErrorUnknown;
    pthread_mutex_unlock(&u->lock);
    return err;
}

/* Stops the uploads (early where `failed`) and joins their thread; their
 * error, if any. */
static cudaError_t level_uploads_finish(level_uploader *u, bool failed)
{
    u->cancel = failed;
    if (u->threaded)
        pthread_join(u->thread, NULL);
    pthread_cond_destroy(&u->moved);
    pthread_mutex_destroy(&u->lock);
    return u->err;
}

/* Scans a[0 .. n] in place (the scratch grown as it needs); *total gets
 * a[n] (the calling thread waits for it). */
static cudaError_t scan(resim_job *j, uint64_t *a, uint64_t n, uint64_t *total)
{
    size_t bytes = 0;
    cudaError_t err = cub::DeviceScan::ExclusiveSum(NULL, bytes, a, a, (int64_t)n + 1, j->stream);
    if (err == cudaSuccess && bytes > j->scan_bytes) {
        cudaFree(j->scan_temp);
        j->scan_temp = NULL;
        j->scan_bytes = 0;
        if ((err = cudaMalloc(&j->scan_temp, bytes)) == cudaSuccess)
            j->scan_bytes = bytes;
    }
    if (err == cudaSuccess)
        err = cub::DeviceScan::ExclusiveSum(j->scan_temp, bytes, a, a, (int64_t)n + 1, j->stream);
    if (err == cudaSuccess)
        err = cudaMemcpyAsync(total, a + n, sizeof *total, cudaMemcpyDeviceToHost, j->stream);
    return err == cudaSuccess ? cudaStreamSynchronize(j->stream) : err;
}

/* A device array of `bytes` from arena a (after no error). */
static cudaError_t arena_array(cuda_arena *a, void *p, size_t bytes, cudaError_t err)
{
    return err == cudaSuccess ? cuda_arena_take(a, bytes, (void **)p) : err;
}

/* The windows' overflow count so far (the calling thread waits). */
static cudaError_t overflows(resim_job *j, unsigned long long *count)
{
    cudaError_t err = cudaMemcpyAsync(count, j->counts + 2, sizeof *count,
                                      cudaMemcpyDeviceToHost, j->stream);
    return err == cudaSuccess ? cudaStreamSynchronize(j->stream) : err;
}

/* The level's windows simulated into L->scratch, those whose rings
 * overflowed again with queues as long as their room. */
static cudaError_t simulate_windows(resim_job *j, cuda_resim_level *L, uint64_t room,
                                    unsigned long long *overflowed)
{
    unsigned long long now = 0;
    cudaError_t err = cuda_resim_simulate(j->P, *L, NULL, j->tight, j->stream);
    if (err == cudaSuccess)
        err = overflows(j, &now);
    if (err != cudaSuccess || now == *overflowed)
        return err;
    *overflowed = now;
    int64_t *queues = NULL;
    err = arena_array(&j->level, &queues, room * 8, err);
    return err == cudaSuccess ? cuda_resim_simulate(j->P, *L, queues, j->tight, j->stream) : err;
}

/* Adds the seconds since *lap to *into and restarts the lap. */
static void lap(double *into, double *since)
{
    double now = progress_now_seconds();
    *into += now - *since;
    *since = now;
}

/* Level l's windows: their count, gates and room (L->n_windows and *room). */
static cudaError_t plan_windows(resim_job *j, cuda_resim_level *L, uint64_t *room)
{
    cuda_arena *a = &j->level;
    cudaError_t err = arena_array(a, &L->gate_win, ((size_t)L->n_gates + 1) * 8, cudaSuccess);
    err = arena_array(a, &L->gate_at, ((size_t)L->n_gates + 1) * 8, err);
    if (err == cudaSuccess)
        err = cuda_resim_windows(j->P, *L, j->stream);
    if (err == cudaSuccess)
        err = scan(j, L->gate_win, L->n_gates, &L->n_windows);
    err = arena_array(a, &L->win_gate, L->n_windows * sizeof *L->win_gate, err);
    err = arena_array(a, &L->win_at, (L->n_windows + 1) * 8, err);
    err = arena_array(a, &L->win, L->n_windows * sizeof *L->win, err);
    if (j->even_events)
        err = arena_array(a, &L->win_s, L->n_windows * sizeof *L->win_s, err);
    if (err == cudaSuccess)
        err = cuda_resim_window_gates(j->P, *L, j->stream);
    if (err == cudaSuccess)
        err = cuda_resim_rooms(j->P, *L, j->stream);
    if (err == cudaSuccess)
        err = scan(j, L->win_at, L->n_windows, room);
    return arena_array(a, &L->scratch, *room * 8, err);
}

/* Level l's gates: their windows, the windows' room and simulation, the
 * join into the level's waveforms (in j->waves).  The level's own arrays
 * are given up once its kernels are queued: the next level's run after
 * them on the stream. */
static cudaError_t run_level(resim_job *j, uint32_t l, unsigned long long *overflowed)
{
    cuda_resim_level L = {};
    L.g0 = j->plan->level_gate0[l];
    L.n_gates = j->plan->level_gate0[l + 1] - L.g0;
    L.counts = j->counts;
    if (L.n_gates == 0)
        return cudaSuccess;
    uint64_t room = 0, changes = 0;
    unsigned long long before = *overflowed;
    double since = progress_now_seconds();
    cudaError_t err = plan_windows(j, &L, &room);
    lap(&j->tm->windows_s, &since);
    if (err == cudaSuccess)
        err = simulate_windows(j, &L, room, overflowed);
    lap(&j->tm->simulate_s, &since);
    j->tm->windows += L.n_windows;
    j->tm->redone += *overflowed - before;
    if (err == cudaSuccess)
        err = cuda_resim_join(L, j->stream);
    if (err == cudaSuccess)
        err = scan(j, L.gate_at, L.n_gates, &changes);
    if (err == cudaSuccess)
        err = cuda_span_take(j->waves, changes * 8, (void **)&L.out);
    if (err == cudaSuccess)
        err = cuda_resim_gather(j->P, L, j->stream);
    cuda_arena_clear(&j->level);
    lap(&j->tm->join_s, &since);
    return err;
}

/* The waveforms cut at the end: their ranges in the span, which *e takes;
 * the run's counts into counts. */
static cudaError_t cut(resim_job *j, cuda_events *e, unsigned long long counts[COUNTS])
{
    uint32_t nets = j->plan->fixed->n_nets;
    cudaError_t err = device_array((void **)&e->net_begin, (size_t)nets * 2 * 8);
    if (err == cudaSuccess)
        e->net_end = e->net_begin + nets;
    if (err == cudaSuccess)
        err = cuda_resim_cut(j->P, nets, j->plan->fixed->end_fs, (const uint64_t *)j->waves->base,
                             e->net_begin, e->net_end, j->counts + 3, j->stream);
    if (err == cudaSuccess)
        err = cudaMemcpyAsync(counts, j->counts, COUNTS * sizeof *counts, cudaMemcpyDeviceToHost,
                              j->stream);
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(j->stream);
    e->last_fs = (int64_t)counts[3];
    e->n_events = counts[4];
    e->max_net_events = counts[5];
    e->word = (const uint64_t *)j->waves->base;
    e->memory = j->waves;
    j->waves = NULL;
    return err;
}

/* The levels' arrays back to the device, once every kernel using them is
 * done; the span too, unless the events took it. */
static void free_levels(resim_job *j)
{
    if (j->stream)
        cudaStreamSynchronize(j->stream);
    if (j->waves)
        cuda_span_close(j->waves);
    mem_free(j->waves);
    j->waves = NULL;
    cuda_arena_free(&j->level);
}

static void job_free(resim_job *j)
{
    free_levels(j);
    cudaFree((void *)j->P.gates);
    cudaFree((void *)j->P.inputs);
    cudaFree((void *)j->P.tt);
    cudaFree((void *)j->P.net_ptr);
    cudaFree(j->P.net_count);
    cudaFree(j->fixed_ev0);
    cudaFree(j->counts);
    cudaFree(j->scan_temp);
    if (j->stream)
        cudaStreamDestroy(j->stream);
}

static gp_status resim_failed(diag_ctx *d, const char *what, cudaError_t err)
{
    diag_error(d, 1530, DIAG_NOWHERE, "GPU re-simulation: %s: %s (%s); --engine cpu gives the "
               "same events without a GPU", what, cudaGetErrorString(err), cudaGetErrorName(err));
    cudaGetLastError();
    return err == cudaErrorMemoryAllocation ? GP_ERR_NOMEM : GP_ERR_UNSUPPORTED;
}

/* The levels, then their waveforms cut into e; the counts into stats. */
static cudaError_t run_all(resim_job *j, cuda_events *e, resim_stats *stats,
                           cuda_resim_timing *tm)
{
    double start = progress_now_seconds();
    cudaError_t err = upload_fixed(j);
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(j->stream);
    tm->upload_s = progress_now_seconds() - start;
    if (err != cudaSuccess)
        return err;
    start = progress_now_seconds();
    level_uploader u = {};
    level_uploads_start(&u, j);
    unsigned long long overflowed = 0;
    for (uint32_t l = 0; err == cudaSuccess && l < j->plan->n_levels; l++) {
        err = level_uploaded(&u, l);
        if (err == cudaSuccess)
            err = run_level(j, l, &overflowed);
    }
    cudaError_t uploads = level_uploads_finish(&u, err != cudaSuccess);
    err = err == cudaSuccess ? uploads : err;
    tm->levels_s = progress_now_seconds() - start;
    start = progress_now_seconds();
    unsigned long long counts[COUNTS] = {0};
    if (err == cudaSuccess)
        err = cut(j, e, counts);
    free_levels(j);
    tm->cut_s = progress_now_seconds() - start;
    stats->wakeups = counts[0];
    stats->swallowed = counts[1];
    stats->events_out = e->n_events;
    return err;
}

extern "C" cuda_resim_options cuda_resim_defaults(void)
{
    cuda_resim_options o = {0, CUDA_RESIM_WINDOW_EVENTS, true, true};
    return o;
}

extern "C" gp_status cuda_resim_run(const resim_plan *p, const cuda_resim_options *o,
                                    cuda_events **out, resim_stats *stats,
                                    cuda_resim_timing *timing, diag_ctx *d)
{
    int device = o->device;
    *out = NULL;
    cuda_resim_timing tm = {};
    uint32_t nets = p->fixed->n_nets;
    cuda_events *e = (cuda_events *)mem_calloc(1, sizeof *e);
    if (!e) {
        diag_error(d, 1531, DIAG_NOWHERE, "out of memory starting the GPU re-simulation");
        return GP_ERR_NOMEM;
    }
    resim_job j = {};
    j.plan = p;
    j.device = device;
    j.tight = o->tight;
    j.even_events = o->even_events;
    j.tm = &tm;
    j.P.window_events = o->window_events;
    e->device = device, e->n_nets = nets, e->end_fs = p->fixed->end_fs;
    cudaError_t err = cudaSetDevice(device);
    if (err == cudaSuccess)
        err = run_all(&j, e, stats, &tm);
    job_free(&j);
    if (err != cudaSuccess) {
        cuda_events_free(e);
        return resim_failed(d, "the re-simulation failed", err);
    }
    if (timing)
        *timing = tm;
    *out = e;
    return GP_OK;
}

/* net_ev0 (n_nets + 1) from e's ranges: net n's events, in net order,
 * start at net_ev0[n]. */
static cudaError_t download_offsets(const cuda_events *e, uint64_t *net_ev0)
{
    size_t bytes = (size_t)e->n_nets * 8;
    uint64_t *range = (uint64_t *)mem_alloc(2 * bytes + 8);
    if (!range)
        return cudaErrorMemoryAllocation;
    uint64_t *begin = range, *end = range + e->n_nets;
    cudaError_t err = cudaMemcpy(begin, e->net_begin, bytes, cudaMemcpyDeviceToHost);
    if (err == cudaSuccess)
        err = cudaMemcpy(end, e->net_end, bytes, cudaMemcpyDeviceToHost);
    net_ev0[0] = 0;
    for (uint32_t n = 0; err == cudaSuccess && n < e->n_nets; n++)
        net_ev0[n + 1] = net_ev0[n] + (end[n] - begin[n]);
    mem_free(range);
    return err;
}

/* e's words in net order into ev (its net_ev0 and word allocated), through
 * a compact copy on the device. */
static cudaError_t download_words(const cuda_events *e, events *ev)
{
    uint64_t *net_ev0 = NULL, *word = NULL;
    cudaError_t err = cudaSetDevice(e->device);
    if (err == cudaSuccess)
        err = download_offsets(e, ev->net_ev0);
    if (err == cudaSuccess)
        err = device_array((void **)&net_ev0, ((size_t)e->n_nets + 1) * 8);
    if (err == cudaSuccess)
        err = device_array((void **)&word, e->n_events * 8);
    if (err == cudaSuccess)
        err = cudaMemcpy(net_ev0, ev->net_ev0, ((size_t)e->n_nets + 1) * 8,
                         cudaMemcpyHostToDevice);
    if (err == cudaSuccess)
        err = cuda_resim_compact(*e, net_ev0, word, 0);
    if (err == cudaSuccess)
        err = cudaMemcpy(ev->word, word, e->n_events * 8, cudaMemcpyDeviceToHost);
    cudaFree(net_ev0);
    cudaFree(word);
    return err;
}

extern "C" gp_status cuda_events_download(const cuda_events *e, events **out, diag_ctx *d)
{
    *out = NULL;
    events *ev = (events *)mem_calloc(1, sizeof *ev);
    if (ev) {
        ev->net_ev0 = (uint64_t *)mem_alloc(((size_t)e->n_nets + 1) * sizeof *ev->net_ev0);
        ev->word = (uint64_t *)mem_alloc((e->n_events ? e->n_events : 1) * sizeof *ev->word);
    }
    if (!ev || !ev->net_ev0 || !ev->word) {
        events_free(ev);
        diag_error(d, 1532, DIAG_NOWHERE, "out of memory bringing the re-simulated events back");
        return GP_ERR_NOMEM;
    }
    ev->n_nets = e->n_nets, ev->n_events = e->n_events, ev->end_fs = e->end_fs;
    cudaError_t err = download_words(e, ev);
    if (err != cudaSuccess) {
        events_free(ev);
        return resim_failed(d, "cannot bring the events back", err);
    }
    *out = ev;
    return GP_OK;
}

extern "C" void cuda_events_free(cuda_events *e)
{
    if (!e)
        return;
    cudaFree(e->net_begin);
    if (e->memory)
        cuda_span_close(e->memory);
    mem_free(e->memory);
    mem_free(e);
}
