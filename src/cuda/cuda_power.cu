/* cuda_power.cu: the CUDA power engine's sessions (cuda_power.h): the
 * plan and the device model made on the host, their upload with the
 * events (staged in chunks on host threads while earlier chunks are
 * copied), runs of any variant, and the result brought back and completed
 * as the CPU engine completes its own (group totals, primary-input nets). */
#include "cuda/cuda_power.h"

#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_kernels.h"
#include "cuda/cuda_upload.h"
#include "power/power_model.h"
#include "power/power_rules.h"
#include "util/mem.h"
#include "util/progress.h"

#define MAX_DEVICE_ARRAYS 64

struct cuda_power_session {
    const design *dg;
    const events *ev;         /* on the host: the plan's (all the events, unless resident) */
    const cuda_events *resident; /* the events on the device already, or NULL */
    uint64_t n_events;
    int64_t last_fs;          /* the latest event's time; -1: not known yet (times_fit_streams
                                 looks it up in ev, the first time a run needs it) */
    power_plan plan;
    int device;
    cudaStream_t stream;      /* non-blocking: the model's copies go on beside the events' */
    cuda_dev_model m;
    cuda_dev_plan p;
    cuda_dev_tasks t;
    cuda_dev_out o;
    cuda_dev_bulk bulk;       /* the pins the gate warp kernel leaves out */
    double *memo;             /* the instances' group energies (memo switch) */
    uint32_t epoch_cycles;    /* partitioned runs' epochs (epoch_cycles_for) */
    uint32_t indexed_epochs;  /* the epochs t.epoch_first indexes now; 0: none yet */
    size_t epoch_bytes, task_inst_bytes; /* what t.epoch_first and t.task_inst hold now */
    uint64_t gs_entries;      /* the gate streams' entries, once made (t.gs not NULL) */
    volatile bool cancel_upload; /* set when the options were refused meanwhile */
    uint64_t memo_doubles;
    void *arrays[MAX_DEVICE_ARRAYS]; /* every device allocation, freed at close */
    int n_arrays;
    diag_ctx *d;
};

/* Reports a failed CUDA call (message 1508) and returns GP_ERR_UNSUPPORTED. */
static gp_status cuda_failed(diag_ctx *d, const char *what, cudaError_t err)
{
    diag_error(d, 1508, DIAG_NOWHERE, "CUDA power engine: %s: %s (%s); --engine cpu gives "
               "the same results without a GPU", what, cudaGetErrorString(err),
               cudaGetErrorName(err));
    cudaGetLastError();
    return err == cudaErrorMemoryAllocation ? GP_ERR_NOMEM : GP_ERR_UNSUPPORTED;
}

/* A device array of `bytes` (at least 1), recorded for close. */
static void *device_alloc(cuda_power_session *s, size_t bytes, cudaError_t *err)
{
    void *ptr = NULL;
    if (*err != cudaSuccess)
        return NULL;
    if (s->n_arrays == MAX_DEVICE_ARRAYS) {
        *err = cudaErrorMemoryAllocation;
        return NULL;
    }
    *err = cudaMalloc(&ptr, bytes ? bytes : 1);
    if (*err == cudaSuccess)
        s->arrays[s->n_arrays++] = ptr;
    return ptr;
}

/* A device copy of host array src (count elements of `size` bytes). */
static const void *upload(cuda_power_session *s, const void *src, size_t count, size_t size,
                          cudaError_t *err)
{
    void *dst = device_alloc(s, count * size, err);
    if (dst && count)
        *err = cudaMemcpy(dst, src, count * size, cudaMemcpyHostToDevice);
    return dst;
}

/* The model's arrays, each (field, count), all carved out of one device
 * allocation. */
#define MODEL_ARRAYS(X)                                                                    \
    X(cells, h->n_cells) X(groups, h->n_groups) X(leakages, h->n_leakages)                 \
    X(tables, h->n_tables) X(cpin_group0, h->n_cpins) X(cpin_n_groups, h->n_cpins)         \
    X(cpin_flags, h->n_cpins) X(cpin_unrelated, h->n_cpins) X(keys, h->n_keys)             \
    X(cand0, h->n_cand0) X(cand, h->n_cands)                                               \
    X(cand_arc, h->n_cands) X(sel0, h->n_sel0) X(sel, h->n_sel) X(reals, h->n_reals)       \
    X(tt, h->n_tt) X(inst_cell, h->n_insts) X(inst_pin0, (size_t)h->n_insts + 1)          \
    X(inst_arc0, (size_t)h->n_insts + 1) X(inst_memo0, (size_t)h->n_insts + 1)            \
    X(pin_net, h->n_pins) X(pin_inst, h->n_pins) X(pin_flags, h->n_pins)                   \
    X(pin_slew_rise, h->n_pins) X(pin_slew_fall, h->n_pins) X(pin_load, h->n_pins)         \
    X(arc_delay_rise_fs, h->n_arcs) X(arc_delay_fall_fs, h->n_arcs) X(net_start, h->n_nets)

/* Bytes of an array in the carved block: a multiple of 256, so every array
 * starts aligned as cudaMalloc's would. */
static size_t carved_bytes(size_t bytes) { return (bytes + 255) & ~(size_t)255; }

/* Copies `bytes` from src to base + *at and moves *at past them. */
static void *carve_copy(char *base, size_t *at, const void *src, size_t bytes, cudaError_t *err)
{
    char *dst = base + *at;
    *at += carved_bytes(bytes);
    if (*err == cudaSuccess && bytes)
        *err = cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice);
    return dst;
}

static cudaError_t upload_model(cuda_power_session *s, const power_model *h)
{
    cudaError_t err = cudaSuccess;
    size_t total = 0, at = 0;
#define MODEL_BYTES(field, count) total += carved_bytes((size_t)(count) * sizeof *h->field);
    MODEL_ARRAYS(MODEL_BYTES)
#undef MODEL_BYTES
    char *base = (char *)device_alloc(s, total, &err);
    if (err != cudaSuccess)
        return err;
    static_cast<power_model &>(s->m) = *h; /* the counts; every pointer replaced below */
#define MODEL_COPY(field, count)                                                            \
    s->m.field = (decltype(s->m.field))carve_copy(base, &at, h->field,                     \
                                                  (size_t)(count) * sizeof *h->field, &err);
    MODEL_ARRAYS(MODEL_COPY)
#undef MODEL_COPY
    return err;
}

/* The nets' event offsets, and room for the events (on the calling thread:
 * device_alloc is not thread-safe); resident events are where they are. */
static cudaError_t alloc_events(cuda_power_session *s)
{
    const events *ev = s->ev;
    cudaError_t err = cudaSuccess;
    if (s->resident) {
        s->m.net_begin = s->resident->net_begin;
        s->m.net_end = s->resident->net_end;
        s->m.ev = (const int64_t *)s->resident->word;
        return err;
    }
    s->m.net_begin = (const uint64_t *)upload(s, ev->net_ev0, (size_t)ev->n_nets + 1,
                                              sizeof *ev->net_ev0, &err);
    s->m.net_end = s->m.net_begin + 1;
    s->m.ev = (const int64_t *)device_alloc(s, ev->n_events * sizeof(int64_t), &err);
    return err;
}

/* The events, staged and copied by cuda_upload's workers. */
static cudaError_t upload_events(cuda_power_session *s)
{
    cuda_upload_options o = cuda_upload_defaults();
    o.device = s->device;
    o.cancel = &s->cancel_upload;
    return cuda_upload_bytes((void *)s->m.ev, s->ev->word, s->ev->n_events * sizeof *s->ev->word,
                             &o);
}

/* The planning and result buffers every run reuses. */
static cudaError_t alloc_run_buffers(cuda_power_session *s)
{
    cudaError_t err = cudaSuccess;
    uint64_t insts = s->dg->n_insts, pins = s->dg->n_pins, nets = s->dg->n_nets;
    uint64_t bins = (uint64_t)s->plan.n_cycles * POWER_COMPONENTS;
    s->t.net_first = (uint64_t *)device_alloc(s, nets * 8, &err);
    s->t.net_count = (uint64_t *)device_alloc(s, nets * 8, &err);
    s->t.task0 = (uint64_t *)device_alloc(s, (insts + 1) * 8, &err);
    s->t.window = (uint32_t *)device_alloc(s, insts * 4, &err);
    s->t.pin_ev0 = (uint64_t *)device_alloc(s, (pins + 1) * 8, &err);
    s->t.gs_pin0 = (uint64_t *)device_alloc(s, (pins + 1) * 8, &err);
    s->t.cursor = (unsigned long long *)device_alloc(s, 8, &err);
    s->t.scan_temp_bytes = cuda_kernels_scan_bytes((insts > pins ? insts : pins) + 1);
    s->t.scan_temp = device_alloc(s, s->t.scan_temp_bytes, &err);
    s->o.bins = (double *)device_alloc(s, bins * 8, &err);
    s->o.levels = (double *)device_alloc(s, ((uint64_t)s->plan.n_cycles + 1) * 8, &err);
    s->o.fixed_levels =
        (unsigned long long *)device_alloc(s, ((uint64_t)s->plan.n_cycles + 1) * 16, &err);
    s->o.inst = (double *)device_alloc(s, insts * POWER_COMPONENTS * 8, &err);
    s->o.fixed_bins = (unsigned long long *)device_alloc(s, bins * 16, &err);
    s->o.fixed_inst = (unsigned long long *)device_alloc(s, insts * POWER_COMPONENTS * 16, &err);
    s->o.events_used = (unsigned long long *)device_alloc(s, 8, &err);
    s->memo = (double *)device_alloc(s, s->memo_doubles * 8, &err);
    return err;
}

/* The events are staged and copied on a host thread (cudaSetDevice is per
 * thread) while the calling thread makes the plan and the device model:
 * the copies leave the host mostly waiting.  Only the calling thread
 * allocates device memory. */
typedef struct upload_job {
    cuda_power_session *s;
    cudaError_t err;
    double seconds;           /* the upload's, on its own thread */
} upload_job;

static void *run_upload(void *arg)
{
    upload_job *job = (upload_job *)arg;
    double start = progress_now_seconds();
    job->err = upload_events(job->s);
    job->seconds = progress_now_seconds() - start;
    return NULL;
}

/* The bulk pins of model h (power_bulk_make) and a run's sums of them. */
static cudaError_t upload_bulk(cuda_power_session *s, const power_bulk *h)
{
    cudaError_t err = cudaSuccess;
    cuda_dev_bulk *b = &s->bulk;
    b->n_nets = h->n_nets, b->n_pins = h->n_pins;
    b->net = (const uint32_t *)upload(s, h->net, h->n_nets, 4, &err);
    b->net_energy = (const double *)upload(s, h->net_energy, 2 * (size_t)h->n_nets, 8, &err);
    b->pin = (const uint32_t *)upload(s, h->pin, h->n_pins, 4, &err);
    b->slot = (const uint32_t *)upload(s, h->slot, h->n_pins, 4, &err);
    b->pin_energy = (const double *)upload(s, h->pin_energy, 2 * (size_t)h->n_pins, 8, &err);
    b->half_weight = (unsigned long long *)device_alloc(s, 2 * (size_t)h->n_nets * 8, &err);
    b->changes = (unsigned long long *)device_alloc(s, (size_t)h->n_nets * 8, &err);
    return err;
}

/* The model h's upload, its bulk pins' with it. */
static cudaError_t upload_model_and_bulk(cuda_power_session *s, const power_model *h)
{
    power_bulk b;
    if (!power_bulk_make(h, &b))
        return cudaErrorMemoryAllocation;
    cudaError_t err = upload_model(s, h);
    if (err == cudaSuccess)
        err = upload_bulk(s, &b);
    power_bulk_free(&b);
    return err;
}

/* The plan and the model (calling thread), then the model's upload. */
static gp_status plan_and_model(cuda_power_session *s, const power_options *opt)
{
    gp_status st = power_plan_make(s->dg, s->ev, opt, &s->plan, s->d);
    if (st != GP_OK)
        return st;
    power_model h;
    if (!power_model_build(&h, s->dg, &s->plan, true)) {
        diag_error(s->d, 1510, DIAG_NOWHERE, "out of memory building the CUDA power model");
        return GP_ERR_NOMEM;
    }
    cudaError_t err = upload_model_and_bulk(s, &h);
    s->memo_doubles = h.inst_memo0[h.n_insts];
    power_model_free(&h);
    return err == cudaSuccess ? GP_OK
                              : cuda_failed(s->d, "cannot put the design on the device", err);
}

/* The epoch of partitioned runs (cuda_dev_tasks): the fewest cycles, a
 * power of two, that keep the epoch index (a 4-byte entry per net and
 * epoch) no larger than the events (8 bytes each), so that it costs less
 * to build and keep than the events themselves. */
static uint32_t epoch_cycles_for(uint64_t nets, uint32_t cycles, uint64_t events)
{
    uint64_t k = 1, room = 2 * (events > nets ? events : nets);
    while (k < cycles && nets * ((cycles + k - 1) / k) > room)
        k *= 2;
    return (uint32_t)k;
}

/* Whether every net has fewer than 2^32 events (the epoch index's entries
 * count a net's events in 32 bits); if not, says so (message 1516). */
static bool events_fit_index(const cuda_power_session *s)
{
    uint64_t most = s->resident ? s->resident->max_net_events : 0;
    uint32_t which = DESIGN_NONE;
    for (uint32_t n = 0; !s->resident && n < s->dg->n_nets; n++)
        if (s->ev->net_ev0[n + 1] - s->ev->net_ev0[n] > most)
            most = s->ev->net_ev0[n + 1] - s->ev->net_ev0[n], which = n;
    if (most <= UINT32_MAX)
        return true;
    char net[32] = "a re-simulated net";
    if (which != DESIGN_NONE)
        snprintf(net, sizeof net, "net %u", which);
    diag_error(s->d, 1516, DIAG_NOWHERE, "%s has %llu events: the CUDA power engine counts a "
               "net's events in 32 bits; use --engine cpu", net, (unsigned long long)most);
    return false;
}

static gp_status open_device(cuda_power_session *s, const power_options *opt,
                             cuda_power_open_timing *timing)
{
    if (!events_fit_index(s))
        return GP_ERR_UNSUPPORTED;
    cudaError_t err = cudaSetDevice(s->device);
    if (err != cudaSuccess)
        return cuda_failed(s->d, "cannot select the CUDA device", err);
    if ((err = cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking)) != cudaSuccess)
        return cuda_failed(s->d, "cannot create a stream", err);
    if ((err = alloc_events(s)) != cudaSuccess)
        return cuda_failed(s->d, "cannot put the events on the device", err);
    upload_job job = {s, cudaSuccess, 0};
    pthread_t uploader;
    bool threaded = !s->resident && pthread_create(&uploader, NULL, run_upload, &job) == 0;
    if (!threaded && !s->resident)
        run_upload(&job);
    double model_start = progress_now_seconds();
    gp_status st = plan_and_model(s, opt);
    timing->model_s = progress_now_seconds() - model_start;
    s->cancel_upload = st != GP_OK;
    if (threaded)
        pthread_join(uploader, NULL);
    timing->upload_s = job.seconds;
    if (st != GP_OK)
        return st;
    err = job.err == cudaSuccess ? alloc_run_buffers(s) : job.err;
    if (err != cudaSuccess)
        return cuda_failed(s->d, "cannot put the events on the device", err);
    s->p = (cuda_dev_plan){s->plan.t0, s->plan.t1, s->plan.period, s->plan.dump_start,
                           s->plan.n_cycles};
    s->epoch_cycles = epoch_cycles_for(s->m.n_nets, s->plan.n_cycles, s->n_events);
    return GP_OK;
}

extern "C" gp_status cuda_power_check_device(int device, diag_ctx *d)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) == cudaSuccess && device < count)
        return GP_OK;
    cudaGetLastError(); /* no driver or no GPU: clear the sticky error */
    diag_error(d, 1515, DIAG_NOWHERE, "--engine cuda: CUDA device %d not found (this "
               "machine has %d); use --engine cpu, which gives the same results", device,
               count);
    return GP_ERR_UNSUPPORTED;
}

/* The latest event time of ev's nets. */
static int64_t last_time(const events *ev)
{
    int64_t last = 0;
    for (uint32_t n = 0; n < ev->n_nets; n++)
        if (ev->net_ev0[n + 1] > ev->net_ev0[n] && events_time(ev, ev->net_ev0[n + 1] - 1) > last)
            last = events_time(ev, ev->net_ev0[n + 1] - 1);
    return last;
}

/* cuda_power_open's and cuda_power_open_resident's: the session's events
 * are ev's (resident NULL) or resident's. */
static gp_status open_session(const design *dg, const events *ev, const cuda_events *resident,
                              const power_options *opt, int device, cuda_power_session **out,
                              cuda_power_open_timing *timing, diag_ctx *d)
{
    double start = progress_now_seconds();
    cuda_power_open_timing tm = {0, 0, 0};
    *out = NULL;
    gp_status checked = cuda_power_check_device(device, d);
    if (checked == GP_OK)
        checked = cuda_power_check_cells(dg, d);
    if (checked != GP_OK)
        return checked;
    cuda_power_session *s = (cuda_power_session *)mem_calloc(1, sizeof *s);
    if (!s) {
        diag_error(d, 1511, DIAG_NOWHERE, "out of memory opening the CUDA power engine");
        return GP_ERR_NOMEM;
    }
    s->dg = dg, s->ev = ev, s->resident = resident, s->d = d, s->device = device;
    s->n_events = resident ? resident->n_events : ev->n_events;
    s->last_fs = resident ? resident->last_fs : -1;
    gp_status st = open_device(s, opt, &tm);
    if (st != GP_OK) {
        cuda_power_close(s);
        return st;
    }
    tm.total_s = progress_now_seconds() - start;
    if (timing)
        *timing = tm;
    *out = s;
    return GP_OK;
}

extern "C" gp_status cuda_power_open(const design *dg, const events *ev, const power_options *opt,
                                     int device, cuda_power_session **out,
                                     cuda_power_open_timing *timing, diag_ctx *d)
{
    return open_session(dg, ev, NULL, opt, device, out, timing, d);
}

extern "C" gp_status cuda_power_open_resident(const design *dg, const events *host_ev,
                                              const cuda_events *dev, const power_options *opt,
                                              cuda_power_session **out,
                                              cuda_power_open_timing *timing, diag_ctx *d)
{
    return open_session(dg, host_ev, dev, opt, dev->device, out, timing, d);
}

extern "C" void cuda_power_close(cuda_power_session *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n_arrays; i++)
        cudaFree(s->arrays[i]);
    cudaFree(s->t.epoch_first);
    cudaFree(s->t.task_inst);
    cudaFree(s->t.gs);
    if (s->stream)
        cudaStreamDestroy(s->stream);
    power_plan_free(&s->plan);
    mem_free(s);
}

/* ---- runs -------------------------------------------------------------------------- */

static cudaError_t zero_sums(cuda_power_session *s)
{
    uint64_t bins = (uint64_t)s->plan.n_cycles * POWER_COMPONENTS;
    uint64_t insts = (uint64_t)s->dg->n_insts * POWER_COMPONENTS;
    cudaError_t err = cudaMemsetAsync(s->o.events_used, 0, 8, s->stream);
    if (err == cudaSuccess)
        err = s->o.fixed ? cudaMemsetAsync(s->o.fixed_bins, 0, bins * 16, s->stream)
                         : cudaMemsetAsync(s->o.bins, 0, bins * 8, s->stream);
    if (err == cudaSuccess)
        err = s->o.fixed ? cudaMemsetAsync(s->o.fixed_inst, 0, insts * 16, s->stream)
                         : cudaMemsetAsync(s->o.inst, 0, insts * 8, s->stream);
    uint64_t levels = (uint64_t)s->plan.n_cycles + 1;
    if (err == cudaSuccess)
        err = s->o.fixed ? cudaMemsetAsync(s->o.fixed_levels, 0, levels * 16, s->stream)
                         : cudaMemsetAsync(s->o.levels, 0, levels * 8, s->stream);
    return err;
}

/* The power kernels of variant o (with memo, the group energies first),
 * timed by CUDA events into *kernel_s. */
static cudaError_t launch(cuda_power_session *s, const cuda_power_options *o, uint64_t n_tasks,
                          uint64_t n_pin_events, double *kernel_s)
{
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start, s->stream);
    s->t.memo = o->memo ? s->memo : NULL;
    cudaError_t err = o->memo ? cuda_kernels_memo(s->m, s->memo, s->stream) : cudaSuccess;
    if (err == cudaSuccess && o->warp)
        err = cuda_kernels_gate_warp(s->m, s->p, s->o, s->t, n_tasks, o->sipl, s->stream);
    if (err == cudaSuccess && o->warp)
        err = cuda_kernels_bulk(s->m, s->p, s->o, s->bulk, s->stream);
    if (err == cudaSuccess && o->fusion && !o->warp)
        err = cuda_kernels_walk(s->m, s->p, s->o, s->t, n_tasks, *o, true, s->stream);
    if (err == cudaSuccess && !o->fusion)
        err = cuda_kernels_naive_dynamic(s->m, s->p, s->o, s->t, n_pin_events, o->sipl, s->stream);
    if (err == cudaSuccess && !o->fusion)
        err = cuda_kernels_walk(s->m, s->p, s->o, s->t, n_tasks, *o, false, s->stream);
    cudaEventRecord(stop, s->stream);
    cudaError_t sync = cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    *kernel_s = ms * 1e-3;
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return err == cudaSuccess ? sync : err;
}

/* 128-bit fixed-point sums (low, high words; 2^-120 J units) to doubles. */
static void fixed_to_double(const unsigned long long *w, double *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = power_exact_value(w[2 * i], w[2 * i + 1]);
}

static cudaError_t download(cuda_power_session *s, double *dst, const double *src,
                            const unsigned long long *fixed, size_t n)
{
    if (!s->o.fixed)
        return cudaMemcpy(dst, src, n * sizeof *dst, cudaMemcpyDeviceToHost);
    unsigned long long *w = (unsigned long long *)mem_alloc(2 * n * sizeof *w + 1);
    if (!w)
        return cudaErrorMemoryAllocation;
    cudaError_t err = cudaMemcpy(w, fixed, 2 * n * sizeof *w, cudaMemcpyDeviceToHost);
    if (err == cudaSuccess)
        fixed_to_double(w, dst, n);
    mem_free(w);
    return err;
}

/* The result of the run just done, completed as power_cpu.c completes its. */
static gp_status collect(cuda_power_session *s, power_result **out)
{
    /* power_result_new takes the plan's groups: it gets a copy, the session
     * keeps the plan's for later runs. */
    uint8_t *kept = s->plan.inst_group;
    s->plan.inst_group = (uint8_t *)mem_alloc(s->dg->n_insts ? s->dg->n_insts : 1);
    power_result *r = NULL;
    if (s->plan.inst_group) {
        memcpy(s->plan.inst_group, kept, s->dg->n_insts);
        r = power_result_new(s->dg, &s->plan, s->d);
        mem_free(s->plan.inst_group); /* NULL when r took it */
    } else {
        diag_error(s->d, 1513, DIAG_NOWHERE, "out of memory collecting the CUDA power result");
    }
    s->plan.inst_group = kept;
    if (!r)
        return GP_ERR_NOMEM;
    unsigned long long used = 0;
    cudaError_t err = download(s, r->bin_energy, s->o.bins, s->o.fixed_bins,
                               (size_t)s->plan.n_cycles * POWER_COMPONENTS);
    if (err == cudaSuccess)
        err = download(s, r->inst_energy, s->o.inst, s->o.fixed_inst,
                       (size_t)s->dg->n_insts * POWER_COMPONENTS);
    if (err == cudaSuccess)
        err = cudaMemcpy(&used, s->o.events_used, sizeof used, cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) {
        power_result_free(r);
        return cuda_failed(s->d, "cannot bring the result back", err);
    }
    r->events_used = used;
    power_result_sum_groups(r);
    power_book_input_nets(s->dg, s->ev, &s->plan, r);
    *out = r;
    return GP_OK;
}

/* Makes *buf (a device array recorded in *bytes) hold at least `need`
 * bytes; its contents are not kept. */
static cudaError_t ensure_bytes(uint32_t **buf, size_t *bytes, size_t need)
{
    if (need <= *bytes && *buf)
        return cudaSuccess;
    cudaFree(*buf);
    *buf = NULL;
    *bytes = 0;
    cudaError_t err = cudaMalloc((void **)buf, need ? need : 1);
    if (err == cudaSuccess)
        *bytes = need;
    return err;
}

/* The nets' window events and their index by epochs of k cycles: they
 * depend on the session's events and plan and on k only, so a run keeps
 * the last run's when k is the same. */
static cudaError_t index_events(cuda_power_session *s, uint32_t k)
{
    if (k == s->indexed_epochs)
        return cudaSuccess;
    s->indexed_epochs = 0;
    s->t.epoch_cycles = k;
    s->t.n_epochs = (uint32_t)(((uint64_t)s->p.n_cycles + k - 1) / k);
    cudaError_t err = ensure_bytes(&s->t.epoch_first, &s->epoch_bytes,
                                   (size_t)s->m.n_nets * s->t.n_epochs * 4);
    if (err == cudaSuccess)
        err = cuda_kernels_count(s->m, s->p, s->t, s->stream);
    if (err == cudaSuccess)
        err = cuda_kernels_epochs(s->m, s->p, s->t, s->stream);
    if (err == cudaSuccess)
        s->indexed_epochs = k;
    return err;
}

/* Whether every event time fits a gate stream's entry (below 2^56 fs, about
 * 72 s); if not, says so (message 1517). */
static bool times_fit_streams(cuda_power_session *s)
{
    if (s->last_fs < 0)
        s->last_fs = last_time(s->ev);
    if (s->last_fs < (int64_t)1 << 56)
        return true;
    diag_error(s->d, 1517, DIAG_NOWHERE, "the activity has an event at %lld fs: the warp "
               "variants of the CUDA power engine (the default) take times below 2^56 fs; "
               "use --cuda-variant sipl+part+fusion+memo (the walk)", (long long)s->last_fs);
    return false;
}

/* The gate streams, made by the first run that needs them (cuda_gate.cu). */
static gp_status make_gate_streams(cuda_power_session *s)
{
    if (s->t.gs)
        return GP_OK;
    if (!times_fit_streams(s))
        return GP_ERR_UNSUPPORTED;
    uint64_t *chunk0 = NULL, n_chunks = 0;
    cudaError_t err = cuda_kernels_gate_offsets(s->m, s->t, &s->gs_entries, s->stream);
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&chunk0, ((size_t)s->m.n_insts + 1) * 8);
    if (err == cudaSuccess)
        err = cuda_kernels_gate_chunks(s->m, s->t, chunk0, &n_chunks, s->stream);
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&s->t.gs, (s->gs_entries ? s->gs_entries : 1) * 8);
    if (err == cudaSuccess)
        err = cuda_kernels_gate_streams(s->m, s->t, chunk0, n_chunks, s->stream);
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(s->stream); /* before chunk0 goes */
    cudaFree(chunk0);
    if (err != cudaSuccess) {
        cudaFree(s->t.gs);
        s->t.gs = NULL;
        return cuda_failed(s->d, "making the gate streams", err);
    }
    return GP_OK;
}

/* The warp kernel's epochs with partitioning: the fewest cycles, a power of
 * two, in which the average gate has CUDA_POWER_WARP_EVENTS pin events,
 * unless the next longer epochs would leave fewer than
 * CUDA_POWER_WARP_TASKS_PER_WARP tasks for each warp the device holds
 * (no fewer cycles than the epoch index allows, no more than the run has). */
static cudaError_t warp_epoch_cycles(const cuda_power_session *s, const cuda_power_options *o,
                                     uint32_t *epoch_cycles)
{
    uint64_t warps = 0;
    cudaError_t err = cuda_kernels_gate_warp_warps(s->m, o->sipl, o->deterministic, &warps);
    uint64_t k = s->epoch_cycles, cycles = s->p.n_cycles;
    uint64_t want = (uint64_t)CUDA_POWER_WARP_EVENTS * s->m.n_insts;
    uint64_t min_tasks = CUDA_POWER_WARP_TASKS_PER_WARP * warps;
    while (k < cycles && s->gs_entries / cycles * k < want &&
           (uint64_t)s->m.n_insts * ((cycles + 2 * k - 1) / (2 * k)) >= min_tasks)
        k *= 2;
    *epoch_cycles = (uint32_t)k;
    return err;
}

/* The epochs of a run: one cycle without partitioning, else the option's or
 * the engine's. */
static cudaError_t run_epoch_cycles(const cuda_power_session *s, const cuda_power_options *o,
                                    uint32_t *epoch_cycles)
{
    *epoch_cycles = !o->partition ? 1 : o->epoch_cycles ? o->epoch_cycles : s->epoch_cycles;
    return o->partition && !o->epoch_cycles && o->warp ? warp_epoch_cycles(s, o, epoch_cycles)
                                                       : cudaSuccess;
}

/* The run's tasks: the nets' window events and their epoch index, the
 * gates' windows (a run without partitioning takes one cycle: epochs of
 * one cycle), the tasks' gates, and for Naive-D the pin events; the warp
 * kernel's tasks are (gate, epoch), from the gate streams. */
static gp_status plan_tasks(cuda_power_session *s, const cuda_power_options *o, uint64_t *n_tasks,
                            uint64_t *n_pin_events)
{
    *n_pin_events = 0;
    gp_status st = o->warp ? make_gate_streams(s) : GP_OK;
    if (st != GP_OK)
        return st;
    uint32_t epoch_cycles = 1;
    cudaError_t err = run_epoch_cycles(s, o, &epoch_cycles);
    if (err == cudaSuccess)
        err = index_events(s, epoch_cycles);
    if (o->warp) {
        *n_tasks = (uint64_t)s->t.n_epochs * s->m.n_insts;
        return err == cudaSuccess ? GP_OK : cuda_failed(s->d, "planning the power kernels", err);
    }
    if (err == cudaSuccess)
        err = cuda_kernels_windows(s->m, s->p, *o, s->t, n_tasks, s->stream);
    if (err == cudaSuccess)
        err = ensure_bytes(&s->t.task_inst, &s->task_inst_bytes, *n_tasks * 4);
    if (err == cudaSuccess)
        err = cuda_kernels_task_insts(s->m, s->t, s->stream);
    if (err == cudaSuccess && !o->fusion)
        err = cuda_kernels_pin_events(s->m, s->t, n_pin_events, s->stream);
    return err == cudaSuccess ? GP_OK : cuda_failed(s->d, "planning the power kernels", err);
}

extern "C" gp_status cuda_power_run(cuda_power_session *s, const cuda_power_options *o,
                                    power_result **out, cuda_power_timing *timing, diag_ctx *d)
{
    cuda_power_timing tm = {0};
    if (out)
        *out = NULL;
    s->d = d;
    if (o->target_events < 1 || o->min_windows < 1 || o->lane_tasks < 1) {
        diag_error(d, 1514, DIAG_NOWHERE, "the CUDA engine's target events per thread, "
                   "windows per gate and tasks per thread must be at least 1");
        return GP_ERR_USAGE;
    }
    cudaError_t err = cudaSetDevice(s->device);
    if (err != cudaSuccess)
        return cuda_failed(d, "cannot select the CUDA device", err);
    double start = progress_now_seconds();
    uint64_t n_tasks, n_pin_events;
    gp_status st = plan_tasks(s, o, &n_tasks, &n_pin_events);
    if (st != GP_OK)
        return st;
    tm.plan_s = progress_now_seconds() - start;
    tm.threads = n_tasks + n_pin_events;
    s->o.fixed = o->deterministic;
    err = zero_sums(s);
    if (err == cudaSuccess)
        err = launch(s, o, n_tasks, n_pin_events, &tm.kernel_s);
    if (err != cudaSuccess)
        return cuda_failed(d, "the power kernels failed", err);
    start = progress_now_seconds();
    st = out ? collect(s, out) : GP_OK;
    tm.result_s = progress_now_seconds() - start;
    if (timing)
        *timing = tm;
    return st;
}

/* cuda_power_analyze over one store that fits (a power_engine_fn). */
static gp_status analyze_store(void *ctx, const design *dg, const events *ev,
                               const power_options *opt, power_result **out, diag_ctx *d)
{
    const cuda_power_options *copt = (const cuda_power_options *)ctx;
    cuda_power_session *s;
    *out = NULL;
    gp_status st = cuda_power_open(dg, ev, opt, copt->device, &s, NULL, d);
    if (st != GP_OK)
        return st;
    st = cuda_power_run(s, copt, out, NULL, d);
    cuda_power_close(s);
    return st;
}

/* The device memory a run's store may take: the option's, or the free
 * memory less an eighth and the design's arrays (bytes an instance, pin
 * and net, generously).  A store event costs its word and at most as much
 * again of epoch index (epoch_cycles_for), and each pin on its net a gate
 * stream entry.  False where the device does not answer (the run then
 * says why). */
static bool device_room(const design *dg, const cuda_power_options *o, power_room *room)
{
    size_t free_bytes = 0, total = 0;
    *room = (power_room){o->device_bytes, 16, o->warp ? 8u : 0u};
    if (o->device_bytes)
        return true;
    if (cudaSetDevice(o->device) != cudaSuccess ||
        cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    uint64_t design_bytes = (uint64_t)dg->n_insts * 512 + (uint64_t)dg->n_pins * 64 +
                            (uint64_t)dg->n_nets * 64;
    uint64_t usable = free_bytes - free_bytes / 8;
    room->bytes = usable > design_bytes ? usable - design_bytes : 0;
    return true;
}

extern "C" gp_status cuda_power_analyze(const design *dg, const events *ev,
                                        const power_options *opt, const cuda_power_options *copt,
                                        power_result **out, diag_ctx *d)
{
    power_room room;
    if (!device_room(dg, copt, &room))
        return analyze_store((void *)copt, dg, ev, opt, out, d);
    return power_analyze_in_room(dg, ev, opt, &room, analyze_store, (void *)copt, out, d);
}

extern "C" int cuda_power_kernel_reports(const cuda_power_session *s,
                                         const cuda_power_options *copt, cuda_kernel_report *out,
                                         int max)
{
    return cuda_kernels_reports(s->m, s->p, *copt, out, max);
}
