/* cuda_resim.cu: the GPU re-simulation's driver (cuda_resim.h): the plan
 * and the fixed nets' events to the device, then level by level the
 * gates' windows (cuda_resim_kernels.h: how many, their room, their
 * simulation, the join of a gate's windows into its waveform), and last
 * the waveforms, cut at the dump's end as resim_run cuts them, into the
 * event store's layout in net order.  Each level's sizes come back to the
 * host (four waits a level) to size the next arrays, carved from two
 * arenas (cuda_arena.h): the levels' waveforms, kept to the end, and each
 * level's own arrays, whose memory the next level reuses. */
#include "cuda/cuda_resim.h"

#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <string.h>

#include "cuda/cuda_arena.h"
#include "cuda/cuda_resim_kernels.h"
#include "cuda/cuda_upload.h"
#include "util/mem.h"
#include "util/progress.h"

/* A run: its device arrays (freed at the end unless handed out), stream,
 * CUB scratch. */
struct resim_job {
    const resim_plan *plan;
    int device;
    bool tight, even_events;
    cudaStream_t stream;
    cuda_resim_dev P;
    void *fixed_word, *fixed_ev0;
    unsigned long long *counts; /* fires, swallowed, windows overflowed; the latest time */
    void *scan_temp;
    size_t scan_bytes;
    cuda_arena waves;         /* the levels' waveforms */
    cuda_arena level;         /* the running level's windows, rooms and changes */
    cuda_resim_timing *tm;
};

static cudaError_t device_array(void **p, size_t bytes)
{
    return cudaMalloc(p, bytes ? bytes : 1);
}

/* A device copy of `bytes` at src, through the device's kept staging
 * buffers (cuda_upload.h). */
static cudaError_t upload(const resim_job *j, void **dst, const void *src, size_t bytes)
{
    cudaError_t err = device_array(dst, bytes);
    cuda_upload_options o = cuda_upload_defaults();
    o.device = j->device;
    return err == cudaSuccess ? cuda_upload_bytes(*dst, src, bytes, &o) : err;
}

/* The plan's arrays and the fixed nets' events on the device. */
static cudaError_t upload_plan(resim_job *j)
{
    const resim_plan *p = j->plan;
    const events *fx = p->fixed;
    uint32_t nets = fx->n_nets;
    cudaError_t err = cudaStreamCreateWithFlags(&j->stream, cudaStreamNonBlocking);
    if (err == cudaSuccess)
        err = upload(j, (void **)&j->P.gates, p->gates, p->n_gates * sizeof *p->gates);
    if (err == cudaSuccess)
        err = upload(j, (void **)&j->P.inputs, p->inputs, p->n_inputs * sizeof *p->inputs);
    if (err == cudaSuccess)
        err = upload(j, (void **)&j->P.tt, p->tt, p->n_tt * sizeof *p->tt);
    if (err == cudaSuccess)
        err = upload(j, &j->fixed_word, fx->word, fx->n_events * sizeof *fx->word);
    if (err == cudaSuccess)
        err = upload(j, &j->fixed_ev0, fx->net_ev0, ((size_t)nets + 1) * sizeof *fx->net_ev0);
    if (err == cudaSuccess)
        err = device_array((void **)&j->P.net_ptr, (size_t)nets * sizeof *j->P.net_ptr);
    if (err == cudaSuccess)
        err = device_array((void **)&j->P.net_count, (size_t)nets * 8);
    if (err == cudaSuccess)
        err = device_array((void **)&j->counts, 4 * sizeof *j->counts);
    if (err == cudaSuccess)
        err = cudaMemset(j->counts, 0, 4 * sizeof *j->counts);
    j->P.t0 = p->t0;
    j->P.span = fx->end_fs - p->t0 > 0 ? fx->end_fs - p->t0 : 1;
    if (err == cudaSuccess)
        err = cuda_resim_fixed(j->P, (const uint64_t *)j->fixed_word,
                               (const uint64_t *)j->fixed_ev0, nets, j->stream);
    return err;
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
    err = arena_array(&j->waves, &L.out, changes * 8, err);
    if (err == cudaSuccess)
        err = cuda_resim_gather(j->P, L, j->stream);
    cuda_arena_clear(&j->level);
    lap(&j->tm->join_s, &since);
    return err;
}

/* The waveforms, cut at the end, into *e in net order. */
static cudaError_t pack(resim_job *j, cuda_events *e)
{
    uint32_t nets = j->plan->fixed->n_nets;
    cudaError_t err = device_array((void **)&e->net_ev0, ((size_t)nets + 1) * 8);
    if (err == cudaSuccess)
        err = cuda_resim_cut(j->P, nets, j->plan->fixed->end_fs, e->net_ev0, j->counts + 3,
                             j->stream);
    if (err == cudaSuccess)
        err = scan(j, e->net_ev0, nets, &e->n_events);
    if (err == cudaSuccess)
        err = device_array((void **)&e->word, e->n_events * 8);
    if (err == cudaSuccess)
        err = cuda_resim_copy(j->P, nets, e->net_ev0, e->word, j->stream);
    unsigned long long last = 0;
    if (err == cudaSuccess)
        err = cudaMemcpyAsync(e->host_net_ev0, e->net_ev0, ((size_t)nets + 1) * 8,
                              cudaMemcpyDeviceToHost, j->stream);
    if (err == cudaSuccess)
        err = cudaMemcpyAsync(&last, j->counts + 3, sizeof last, cudaMemcpyDeviceToHost,
                              j->stream);
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(j->stream);
    e->last_fs = (int64_t)last;
    return err;
}

/* The levels' arrays back to the device, once every kernel using them is
 * done. */
static void free_levels(resim_job *j)
{
    if (j->stream)
        cudaStreamSynchronize(j->stream);
    cuda_arena_free(&j->waves);
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
    cudaFree(j->fixed_word);
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

/* The levels, then the pack into e; the counts into stats. */
static cudaError_t run_all(resim_job *j, cuda_events *e, resim_stats *stats,
                           cuda_resim_timing *tm)
{
    double start = progress_now_seconds();
    cudaError_t err = upload_plan(j);
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(j->stream);
    tm->upload_s = progress_now_seconds() - start;
    start = progress_now_seconds();
    unsigned long long overflowed = 0;
    for (uint32_t l = 0; err == cudaSuccess && l < j->plan->n_levels; l++)
        err = run_level(j, l, &overflowed);
    tm->levels_s = progress_now_seconds() - start;
    start = progress_now_seconds();
    if (err == cudaSuccess)
        err = pack(j, e);
    unsigned long long counts[2] = {0, 0};
    if (err == cudaSuccess)
        err = cudaMemcpy(counts, j->counts, sizeof counts, cudaMemcpyDeviceToHost);
    free_levels(j);
    tm->pack_s = progress_now_seconds() - start;
    stats->wakeups = counts[0];
    stats->swallowed = counts[1];
    stats->events_out = e->n_events;
    return err;
}

extern "C" cuda_resim_options cuda_resim_defaults(void)
{
    cuda_resim_options o = {0, CUDA_RESIM_WINDOW_EVENTS, true, false};
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
    resim_job j = {};
    j.plan = p;
    j.device = device;
    j.tight = o->tight;
    j.even_events = o->even_events;
    j.tm = &tm;
    j.P.window_events = o->window_events;
    if (e)
        e->host_net_ev0 = (uint64_t *)mem_alloc(((size_t)nets + 1) * sizeof *e->host_net_ev0);
    if (!e || !e->host_net_ev0) {
        cuda_events_free(e);
        diag_error(d, 1531, DIAG_NOWHERE, "out of memory starting the GPU re-simulation");
        return GP_ERR_NOMEM;
    }
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
    memcpy(ev->net_ev0, e->host_net_ev0, ((size_t)e->n_nets + 1) * sizeof *ev->net_ev0);
    cudaError_t err = cudaSetDevice(e->device);
    if (err == cudaSuccess)
        err = cudaMemcpy(ev->word, e->word, e->n_events * sizeof *ev->word,
                         cudaMemcpyDeviceToHost);
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
    cudaFree(e->net_ev0);
    cudaFree(e->word);
    mem_free(e->host_net_ev0);
    mem_free(e);
}
