/* cuda_resim.cu: the GPU re-simulation (cuda_resim.h).
 *
 * Level by level, each gate's room first: one event more than its inputs
 * have (an output event needs a wake-up, a wake-up an input change that
 * made the gate change, and the first event is X at t0), scanned into
 * offsets in a buffer of the level's own.  Then a thread a gate simulates
 * it there, as resim_gate.c's loop does, and publishes its waveform (where
 * it lies, how long) for the levels above.  A thread keeps its earliest
 * pending wake-up in a register and the others in a ring of RESIM_RING
 * entries in local memory; the rare gate whose pending wake-ups do not fit
 * is simulated again by a thread whose queue is as long as its room, in
 * global memory.  Finally each net's waveform, cut at the dump's end as
 * resim_run cuts it, is copied into the event store's layout in net
 * order. */
#include "cuda/cuda_resim.h"

#include <cub/cub.cuh>
#include <string.h>
#include <cuda_runtime.h>

#include "resim/resim_rules.h"
#include "util/mem.h"
#include "util/progress.h"

/* Pending wake-ups besides the earliest that a thread's ring holds. */
#define RESIM_RING 16
#define RESIM_BLOCK 128

/* What the kernels read: the plan on the device, and every net's waveform
 * so far (the fixed nets' from the start, a gate's once its level ran). */
struct dev_resim {
    const resim_plan_gate *gates;
    const resim_input *inputs;
    const uint64_t *tt;
    const uint64_t **net_ptr;
    uint64_t *net_count;
    int64_t t0;
};

/* The sorted pending wake-ups after the earliest, in a ring q[cap]. */
struct wake_queue {
    int64_t *q;
    uint64_t cap, head, len;

    __device__ uint64_t slot(uint64_t i) const
    {
        uint64_t s = head + i;
        return s >= cap ? s - cap : s;
    }
    /* Inserts t in order; false when full. */
    __device__ bool push(int64_t t)
    {
        if (len == cap)
            return false;
        uint64_t i = len;
        for (; i > 0 && q[slot(i - 1)] > t; i--)
            q[slot(i)] = q[slot(i - 1)];
        q[slot(i)] = t;
        len++;
        return true;
    }
    /* The earliest; INT64_MAX when there is none. */
    __device__ int64_t pop()
    {
        if (len == 0)
            return INT64_MAX;
        int64_t t = q[head];
        head = head + 1 == cap ? 0 : head + 1;
        len--;
        return t;
    }
};

/* One input's events as they reach the pin (resim_gate.c's gate_input). */
struct sim_input {
    const uint64_t *p, *end;  /* its net's next event, and the end */
    int64_t next;             /* when that event reaches the pin; INT64_MAX: none is left */
    int64_t wire_fall, wire_rise, delay_fall, delay_rise, delay_x;

    __device__ void advance()
    {
        if (p == end) {
            next = INT64_MAX;
            return;
        }
        uint64_t w = *p;
        uint32_t v = (uint32_t)(w & 3);
        next = (int64_t)(w >> 2) + (v == 1 ? wire_rise : v == 0 ? wire_fall : 0);
    }
    __device__ int64_t delay(uint8_t v) const
    {
        return v == 1 ? delay_rise : v == 0 ? delay_fall : delay_x;
    }
};

/* The waveform being written: w[0 .. len), the last word kept at hand. */
struct out_wave {
    uint64_t *w;
    uint64_t len, last;

    /* resim_gate.c's emit: a change at the time of the last one replaces
     * it, and is dropped when it repeats the value before. */
    __device__ void emit(int64_t t, uint8_t v)
    {
        uint64_t word = (uint64_t)t << 2 | v;
        if (len > 0 && (int64_t)(last >> 2) == t) {
            w[len - 1] = last = word;
            if (len > 1 && (w[len - 2] & 3) == v)
                last = w[--len - 1];
            return;
        }
        w[len++] = last = word;
    }
};

struct gate_counts {
    unsigned long long wakeups, swallowed;
};

/* The loop of resim_gate.c's run over N inputs (N 0: n, at most
 * LIB_MAX_EXPR_PINS); false when the queue overflowed. */
template <int N>
__device__ bool simulate(const dev_resim &P, const resim_plan_gate &g, uint32_t n, out_wave &o,
                         wake_queue &q, gate_counts &c)
{
    constexpr int CAP = N ? N : LIB_MAX_EXPR_PINS;
    const uint32_t count = N ? N : n;
    const uint64_t *tt = P.tt + g.tt0;
    sim_input in[CAP];
    uint32_t state = 0;
    int64_t now = INT64_MAX, wake = INT64_MAX; /* the earliest pending wake-up */
    for (uint32_t k = 0; k < count; k++) {
        const resim_input &ri = P.inputs[g.in0 + k];
        const uint64_t *p = ri.net != DESIGN_NONE ? P.net_ptr[ri.net] : NULL;
        uint64_t events = ri.net != DESIGN_NONE ? P.net_count[ri.net] : 0;
        in[k] = sim_input{p, p + events, 0, ri.wire[0], ri.wire[1],
                          ri.delay[0], ri.delay[1], ri.delay[EVENTS_X]};
        in[k].advance();
        state = resim_state_set(state, k, EVENTS_X);
        now = in[k].next < now ? in[k].next : now;
    }
    uint8_t evaluated = EVENTS_X, on_net = EVENTS_X;
    o.emit(P.t0, EVENTS_X);
    for (;;) {
        if (wake <= now) {
            if (wake == INT64_MAX)
                return true; /* no input event and no wake-up left */
            c.swallowed += evaluated == on_net;
            if (evaluated != on_net)
                o.emit(wake, on_net = evaluated);
            wake = q.pop();
            continue;
        }
        uint32_t changed = 0;
        int64_t next = INT64_MAX;
        for (uint32_t k = 0; k < count; k++) {
            while (in[k].next == now) {
                uint32_t s = resim_state_set(state, k, (uint8_t)(*in[k].p++ & 3));
                changed |= s ^ state;
                state = s;
                in[k].advance();
            }
            next = in[k].next < next ? in[k].next : next;
        }
        uint8_t v = changed ? resim_eval(tt, state, count) : evaluated;
        if (v != evaluated) {
            int64_t delay = INT64_MAX;
            for (uint32_t k = 0; k < count; k++) {
                int64_t dk = changed >> 2 * k & 3 ? in[k].delay(v) : INT64_MAX;
                delay = dk < delay ? dk : delay;
            }
            evaluated = v;
            c.wakeups++;
            int64_t pending = resim_schedule(&wake, now + delay);
            if (pending != INT64_MAX && !q.push(pending))
                return false;
        }
        now = next;
    }
}

/* One gate, as resim_gate does it; false when the queue overflowed. */
__device__ bool run_gate(const dev_resim &P, const resim_plan_gate &g, out_wave &o,
                         wake_queue &q, gate_counts &c)
{
    if (g.tt0 == RESIM_NO_TT) { /* no function: X throughout */
        o.emit(P.t0, EVENTS_X);
        return true;
    }
    switch (g.n_inputs) { /* the common fan-ins, each with its loops unrolled */
    case 0: o.emit(P.t0, resim_eval(P.tt + g.tt0, 0, 0)); return true;
    case 1: return simulate<1>(P, g, 1, o, q, c);
    case 2: return simulate<2>(P, g, 2, o, q, c);
    case 3: return simulate<3>(P, g, 3, o, q, c);
    case 4: return simulate<4>(P, g, 4, o, q, c);
    default: return simulate<0>(P, g, g.n_inputs, o, q, c);
    }
}

/* Room of each of the level's n gates (and 0 after them, for the scan). */
__global__ void room_kernel(dev_resim P, uint32_t g0, uint32_t n, uint64_t *room)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > n)
        return;
    uint64_t r = 0;
    if (i < n) {
        resim_plan_gate g = P.gates[g0 + i];
        r = 1;
        for (uint32_t k = 0; k < g.n_inputs; k++) {
            uint32_t net = P.inputs[g.in0 + k].net;
            r += net != DESIGN_NONE ? P.net_count[net] : 0;
        }
    }
    room[i] = r;
}

__device__ unsigned long long warp_sum(unsigned long long v)
{
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_down_sync(0xffffffffu, v, d);
    return v;
}

/* The level's gates g0 .. g0 + n, gate i writing at buf + at[i] (at: the
 * scanned rooms).  First pass (queues NULL): rings in local memory, a gate
 * that overflows its ring gets redo[i] set and counts[2] counted; second
 * pass: the gates with redo[i], queues at queues + at[i]. */
__global__ void __launch_bounds__(RESIM_BLOCK)
simulate_kernel(dev_resim P, uint32_t g0, uint32_t n, const uint64_t *at, uint64_t *buf,
                int64_t *queues, uint8_t *redo, unsigned long long *counts)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    gate_counts c = {0, 0};
    unsigned long long overflowed = 0;
    if (i < n && (!queues || redo[i])) {
        resim_plan_gate g = P.gates[g0 + i];
        int64_t ring[RESIM_RING];
        wake_queue q = queues ? wake_queue{queues + at[i], at[i + 1] - at[i], 0, 0}
                              : wake_queue{ring, RESIM_RING, 0, 0};
        out_wave o = {buf + at[i], 0, 0};
        if (run_gate(P, g, o, q, c)) {
            P.net_ptr[g.net] = o.w;
            P.net_count[g.net] = o.len;
        } else {
            redo[i] = 1;
            overflowed = 1;
            c = gate_counts{0, 0};
        }
    }
    c.wakeups = warp_sum(c.wakeups);
    c.swallowed = warp_sum(c.swallowed);
    overflowed = warp_sum(overflowed);
    if (threadIdx.x % 32 == 0) {
        atomicAdd(&counts[0], c.wakeups);
        atomicAdd(&counts[1], c.swallowed);
        atomicAdd(&counts[2], overflowed);
    }
}

/* The fixed nets' waveforms: where they lie in the uploaded store. */
__global__ void fixed_kernel(dev_resim P, const uint64_t *word, const uint64_t *ev0,
                             uint32_t n_nets)
{
    uint32_t n = blockIdx.x * blockDim.x + threadIdx.x;
    if (n < n_nets) {
        P.net_ptr[n] = word + ev0[n];
        P.net_count[n] = ev0[n + 1] - ev0[n];
    }
}

/* Each net's events up to end_fs (but its first) into count[n] (0 after
 * the last net, for the scan), and the latest kept time into *last. */
__global__ void cut_kernel(dev_resim P, uint32_t n_nets, int64_t end_fs, uint64_t *count,
                           unsigned long long *last)
{
    uint32_t n = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long latest = 0;
    if (n < n_nets) {
        const uint64_t *w = P.net_ptr[n];
        uint64_t c = P.net_count[n];
        while (c > 1 && (int64_t)(w[c - 1] >> 2) > end_fs)
            c--;
        count[n] = c;
        latest = c ? w[c - 1] >> 2 : 0;
    } else if (n == n_nets) {
        count[n] = 0;
    }
    for (int d = 16; d > 0; d /= 2) {
        unsigned long long other = __shfl_down_sync(0xffffffffu, latest, d);
        latest = other > latest ? other : latest;
    }
    if (threadIdx.x % 32 == 0)
        atomicMax(last, latest);
}

/* A warp a net: its kept events to word + net_ev0[n]. */
__global__ void copy_kernel(dev_resim P, uint32_t n_nets, const uint64_t *net_ev0, uint64_t *word)
{
    uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    uint64_t warps = (uint64_t)gridDim.x * blockDim.x / 32;
    uint32_t lane = threadIdx.x % 32;
    for (uint64_t n = warp; n < n_nets; n += warps) {
        const uint64_t *src = P.net_ptr[n];
        uint64_t *dst = word + net_ev0[n], c = net_ev0[n + 1] - net_ev0[n];
        for (uint64_t k = lane; k < c; k += 32)
            dst[k] = src[k];
    }
}

/* ---- the host side --------------------------------------------------------------- */

static unsigned blocks_for(uint64_t n)
{
    return (unsigned)((n + RESIM_BLOCK - 1) / RESIM_BLOCK);
}

/* A run: its device arrays (freed at the end unless handed out), stream,
 * CUB scratch. */
struct resim_job {
    const resim_plan *plan;
    cudaStream_t stream;
    dev_resim P;
    void *fixed_word, *fixed_ev0;
    uint64_t *room;           /* [largest level + 1], then the nets' counts */
    uint8_t *redo;
    unsigned long long *counts; /* wakeups, swallowed, overflowed; the latest time */
    void *scan_temp;
    size_t scan_bytes;
    void **level_bufs;        /* per level */
    uint32_t largest;         /* gates of the largest level */
};

static cudaError_t device_array(void **p, size_t bytes)
{
    return cudaMalloc(p, bytes ? bytes : 1);
}

static uint32_t largest_level(const resim_plan *p)
{
    uint32_t most = 0;
    for (uint32_t l = 0; l < p->n_levels; l++) {
        uint32_t n = p->level_gate0[l + 1] - p->level_gate0[l];
        most = n > most ? n : most;
    }
    return most;
}

static cudaError_t upload(void **dst, const void *src, size_t bytes)
{
    cudaError_t err = device_array(dst, bytes);
    return err == cudaSuccess && bytes ? cudaMemcpy(*dst, src, bytes, cudaMemcpyHostToDevice)
                                       : err;
}

/* The plan's arrays and the fixed nets' events on the device. */
static cudaError_t upload_plan(resim_job *j)
{
    const resim_plan *p = j->plan;
    const events *fx = p->fixed;
    uint32_t nets = fx->n_nets;
    j->largest = largest_level(p);
    uint64_t items = (uint64_t)(j->largest > nets ? j->largest : nets) + 1;
    cudaError_t err = cudaStreamCreateWithFlags(&j->stream, cudaStreamNonBlocking);
    if (err == cudaSuccess)
        err = upload((void **)&j->P.gates, p->gates, p->n_gates * sizeof *p->gates);
    if (err == cudaSuccess)
        err = upload((void **)&j->P.inputs, p->inputs, p->n_inputs * sizeof *p->inputs);
    if (err == cudaSuccess)
        err = upload((void **)&j->P.tt, p->tt, p->n_tt * sizeof *p->tt);
    if (err == cudaSuccess)
        err = upload(&j->fixed_word, fx->word, fx->n_events * sizeof *fx->word);
    if (err == cudaSuccess)
        err = upload(&j->fixed_ev0, fx->net_ev0, ((size_t)nets + 1) * sizeof *fx->net_ev0);
    if (err == cudaSuccess)
        err = device_array((void **)&j->P.net_ptr, (size_t)nets * sizeof *j->P.net_ptr);
    if (err == cudaSuccess)
        err = device_array((void **)&j->P.net_count, (size_t)nets * 8);
    if (err == cudaSuccess)
        err = device_array((void **)&j->room, items * 8);
    if (err == cudaSuccess)
        err = device_array((void **)&j->redo, j->largest);
    if (err == cudaSuccess)
        err = device_array((void **)&j->counts, 4 * sizeof *j->counts);
    if (err == cudaSuccess)
        err = cudaMemset(j->counts, 0, 4 * sizeof *j->counts);
    if (err == cudaSuccess)
        err = cub::DeviceScan::ExclusiveSum(NULL, j->scan_bytes, j->room, j->room,
                                            (int64_t)items);
    if (err == cudaSuccess)
        err = device_array(&j->scan_temp, j->scan_bytes);
    j->P.t0 = p->t0;
    if (err == cudaSuccess && nets)
        fixed_kernel<<<blocks_for(nets), RESIM_BLOCK, 0, j->stream>>>(
            j->P, (const uint64_t *)j->fixed_word, (const uint64_t *)j->fixed_ev0, nets);
    return err == cudaSuccess ? cudaGetLastError() : err;
}

/* Scans a[0 .. n] in place; *total gets a[n] (the calling thread waits). */
static cudaError_t scan(resim_job *j, uint64_t *a, uint64_t n, uint64_t *total)
{
    cudaError_t err = cub::DeviceScan::ExclusiveSum(j->scan_temp, j->scan_bytes, a, a,
                                                    (int64_t)n + 1, j->stream);
    if (err == cudaSuccess)
        err = cudaMemcpyAsync(total, a + n, sizeof *total, cudaMemcpyDeviceToHost, j->stream);
    return err == cudaSuccess ? cudaStreamSynchronize(j->stream) : err;
}

/* The overflow count so far (the calling thread waits). */
static cudaError_t overflows(resim_job *j, unsigned long long *count)
{
    cudaError_t err = cudaMemcpyAsync(count, j->counts + 2, sizeof *count,
                                      cudaMemcpyDeviceToHost, j->stream);
    return err == cudaSuccess ? cudaStreamSynchronize(j->stream) : err;
}

/* Level l's gates: rooms, the first pass, and the second for the gates
 * whose rings overflowed. */
static cudaError_t run_level(resim_job *j, uint32_t l, unsigned long long *overflowed)
{
    uint32_t g0 = j->plan->level_gate0[l], n = j->plan->level_gate0[l + 1] - g0;
    if (n == 0)
        return cudaSuccess;
    room_kernel<<<blocks_for((uint64_t)n + 1), RESIM_BLOCK, 0, j->stream>>>(j->P, g0, n, j->room);
    uint64_t total = 0;
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess)
        err = scan(j, j->room, n, &total);
    if (err == cudaSuccess)
        err = cudaMemsetAsync(j->redo, 0, n, j->stream);
    uint64_t *buf = NULL;
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&buf, total * 8);
    j->level_bufs[l] = buf;
    if (err != cudaSuccess)
        return err;
    simulate_kernel<<<blocks_for(n), RESIM_BLOCK, 0, j->stream>>>(j->P, g0, n, j->room, buf, NULL,
                                                                  j->redo, j->counts);
    unsigned long long now = 0;
    err = cudaGetLastError();
    if (err == cudaSuccess)
        err = overflows(j, &now);
    if (err != cudaSuccess || now == *overflowed)
        return err;
    *overflowed = now;
    int64_t *queues = NULL;
    err = cudaMalloc((void **)&queues, total * 8);
    if (err == cudaSuccess)
        simulate_kernel<<<blocks_for(n), RESIM_BLOCK, 0, j->stream>>>(j->P, g0, n, j->room, buf,
                                                                      queues, j->redo, j->counts);
    if (err == cudaSuccess)
        err = cudaGetLastError();
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(j->stream);
    cudaFree(queues);
    return err;
}

/* The waveforms, cut at the end, into *e in net order. */
static cudaError_t pack(resim_job *j, cuda_events *e)
{
    uint32_t nets = j->plan->fixed->n_nets;
    cut_kernel<<<blocks_for((uint64_t)nets + 1), RESIM_BLOCK, 0, j->stream>>>(
        j->P, nets, j->plan->fixed->end_fs, j->room, j->counts + 3);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess)
        err = scan(j, j->room, nets, &e->n_events);
    e->net_ev0 = j->room;
    j->room = NULL;
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&e->word, (e->n_events ? e->n_events : 1) * 8);
    if (err == cudaSuccess && nets)
        copy_kernel<<<blocks_for((uint64_t)nets * 32 < (1u << 24) ? (uint64_t)nets * 32 : 1u << 24),
                      RESIM_BLOCK, 0, j->stream>>>(j->P, nets, e->net_ev0, e->word);
    if (err == cudaSuccess)
        err = cudaGetLastError();
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

static void job_free(resim_job *j)
{
    for (uint32_t l = 0; j->level_bufs && l < j->plan->n_levels; l++)
        cudaFree(j->level_bufs[l]);
    mem_free(j->level_bufs);
    cudaFree((void *)j->P.gates);
    cudaFree((void *)j->P.inputs);
    cudaFree((void *)j->P.tt);
    cudaFree((void *)j->P.net_ptr);
    cudaFree(j->P.net_count);
    cudaFree(j->fixed_word);
    cudaFree(j->fixed_ev0);
    cudaFree(j->room);
    cudaFree(j->redo);
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
    tm->pack_s = progress_now_seconds() - start;
    stats->wakeups = counts[0];
    stats->swallowed = counts[1];
    stats->events_out = e->n_events;
    return err;
}

extern "C" gp_status cuda_resim_run(const resim_plan *p, int device, cuda_events **out,
                                    resim_stats *stats, cuda_resim_timing *timing, diag_ctx *d)
{
    *out = NULL;
    cuda_resim_timing tm = {0, 0, 0};
    uint32_t nets = p->fixed->n_nets;
    cuda_events *e = (cuda_events *)mem_calloc(1, sizeof *e);
    resim_job j = {};
    j.plan = p;
    j.level_bufs = (void **)mem_calloc(p->n_levels ? p->n_levels : 1, sizeof *j.level_bufs);
    if (e)
        e->host_net_ev0 = (uint64_t *)mem_alloc(((size_t)nets + 1) * sizeof *e->host_net_ev0);
    if (!e || !e->host_net_ev0 || !j.level_bufs) {
        mem_free(j.level_bufs);
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
