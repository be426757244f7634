/* cuda_upload.cu: host arrays to the device on W worker threads, each with
 * its own stream and two pinned staging buffers, kept per device between
 * uploads (see cuda_upload.h). */
#include "cuda/cuda_upload.h"

#include <atomic>
#include <mutex>
#include <string.h>

#include "util/parts.h"

/* Devices whose lanes are kept; an upload to a device beyond makes its own. */
#define UPLOAD_KEPT_DEVICES 64

/* A worker's stream, staging buffers and the events recorded after each
 * buffer's copy (the buffer may be refilled once its event is done). */
typedef struct upload_lane {
    bool open;
    cudaStream_t stream;
    char *stage[2];
    cudaEvent_t copied[2];
} upload_lane;

/* A device's kept lanes, used by one upload at a time. */
typedef struct upload_kept {
    std::mutex lock;
    upload_lane lane[CUDA_UPLOAD_MAX_WORKERS];
} upload_kept;

static upload_kept kept[UPLOAD_KEPT_DEVICES];

/* What the workers share: the job, and the first error any of them met
 * (cudaSuccess until then), which also tells the others to stop. */
typedef struct upload_shared {
    const char *src;
    char *dst;
    uint64_t bytes;
    cuda_upload_options o;
    uint64_t chunk;           /* bytes a staging buffer holds */
    uint64_t n_chunks;
    int workers;
    upload_lane *lane;        /* [workers]: the device's kept lanes, or the upload's own */
    bool keep;                /* the lanes stay open after the upload */
    std::atomic<int> first_error;
} upload_shared;

static void upload_record(upload_shared *sh, cudaError_t err)
{
    int expected = cudaSuccess;
    if (err != cudaSuccess)
        sh->first_error.compare_exchange_strong(expected, (int)err);
}

static bool upload_stopped(const upload_shared *sh)
{
    return sh->first_error.load() != cudaSuccess || (sh->o.cancel && *sh->o.cancel);
}

/* Waits for the lane's copies. */
static cudaError_t lane_wait(upload_lane *l)
{
    cudaError_t err = cudaSuccess;
    for (int b = 0; b < 2; b++)
        if (l->copied[b]) {
            cudaError_t e = cudaEventSynchronize(l->copied[b]);
            err = err == cudaSuccess ? e : err;
        }
    if (l->stream) {
        /* An event that could not be recorded leaves its copy uncovered. */
        cudaError_t e = cudaStreamSynchronize(l->stream);
        err = err == cudaSuccess ? e : err;
    }
    return err;
}

/* Waits for the lane's copies, then frees whatever of it was made. */
static cudaError_t lane_close(upload_lane *l)
{
    cudaError_t err = lane_wait(l);
    if (l->stream)
        cudaStreamDestroy(l->stream);
    for (int b = 0; b < 2; b++) {
        if (l->copied[b])
            cudaEventDestroy(l->copied[b]);
        if (l->stage[b])
            cudaFreeHost(l->stage[b]);
    }
    memset(l, 0, sizeof *l);
    return err;
}

/* The lane's stream, buffers of `bytes` and events, on `device`.
 * Blocking-sync events: a worker waiting on the link sleeps instead of
 * spinning on a core that another worker, or the caller's model
 * building, could use. */
static cudaError_t lane_open(upload_lane *l, int device, size_t bytes, bool write_combined)
{
    unsigned host_flags = write_combined ? cudaHostAllocWriteCombined : 0;
    cudaError_t err = cudaSetDevice(device);
    if (err == cudaSuccess)
        err = cudaStreamCreateWithFlags(&l->stream, cudaStreamNonBlocking);
    for (int b = 0; b < 2 && err == cudaSuccess; b++) {
        err = cudaHostAlloc((void **)&l->stage[b], bytes, host_flags);
        if (err == cudaSuccess)
            err = cudaEventCreateWithFlags(&l->copied[b],
                                           cudaEventDisableTiming | cudaEventBlockingSync);
    }
    if (err != cudaSuccess)
        lane_close(l);
    l->open = err == cudaSuccess;
    return err;
}

/* Chunks index, index + W, ...: each put in the staging buffer whose
 * previous copy is done, then copied on the lane's stream. */
static cudaError_t lane_copy(upload_lane *l, upload_shared *sh, uint32_t index)
{
    cudaError_t err = cudaSuccess;
    uint64_t i = 0;
    for (uint64_t c = index; c < sh->n_chunks && !upload_stopped(sh);
         c += (uint64_t)sh->workers, i++) {
        uint64_t first = c * sh->chunk;
        uint64_t n = sh->bytes - first < sh->chunk ? sh->bytes - first : sh->chunk;
        int b = (int)(i % 2);
        if ((err = cudaEventSynchronize(l->copied[b])) != cudaSuccess)
            break;
        memcpy(l->stage[b], sh->src + first, n);
        err = cudaMemcpyAsync(sh->dst + first, l->stage[b], n, cudaMemcpyHostToDevice,
                              l->stream);
        if (err == cudaSuccess)
            err = cudaEventRecord(l->copied[b], l->stream);
        if (err != cudaSuccess)
            break;
    }
    return err;
}

/* Worker `part` of the upload (a parts_fn): a kept lane stays open unless
 * it failed. */
static void upload_worker_run(void *ctx, uint32_t part, uint32_t parts)
{
    (void)parts;
    upload_shared *sh = (upload_shared *)ctx;
    upload_lane *l = &sh->lane[part];
    cudaError_t err = l->open ? cudaSetDevice(sh->o.device)
                              : lane_open(l, sh->o.device, sh->chunk, sh->o.write_combined);
    if (err == cudaSuccess)
        err = lane_copy(l, sh, part);
    cudaError_t done = sh->keep && err == cudaSuccess ? lane_wait(l) : lane_close(l);
    upload_record(sh, err == cudaSuccess ? done : err);
}

extern "C" cuda_upload_options cuda_upload_defaults(void)
{
    cuda_upload_options o = {0, 0, CUDA_UPLOAD_STAGE_BYTES, false, NULL};
    return o;
}

/* The workers asked for (o->workers, or the default), capped, and no more
 * than there are chunks. */
static int upload_worker_count(const cuda_upload_options *o, uint64_t n_chunks)
{
    long half = (long)parts_online_cores() / 2;
    long want = o->workers > 0                         ? o->workers
                : half > CUDA_UPLOAD_DEFAULT_WORKERS ? CUDA_UPLOAD_DEFAULT_WORKERS
                                                     : half;
    want = want < 1 ? 1 : want > CUDA_UPLOAD_MAX_WORKERS ? CUDA_UPLOAD_MAX_WORKERS : want;
    return (uint64_t)want < n_chunks ? (int)want : (int)n_chunks;
}

/* The device's kept lanes, locked, when the upload may use them. */
static upload_kept *kept_lanes(const cuda_upload_options *o)
{
    bool usual = o->stage_bytes == CUDA_UPLOAD_STAGE_BYTES && !o->write_combined;
    if (!usual || o->device < 0 || o->device >= UPLOAD_KEPT_DEVICES)
        return NULL;
    upload_kept *k = &kept[o->device];
    return k->lock.try_lock() ? k : NULL;
}

extern "C" cudaError_t cuda_upload_bytes(void *dst, const void *src, size_t bytes,
                                         const cuda_upload_options *o)
{
    if (bytes == 0)
        return cudaSuccess;
    upload_shared sh;
    sh.src = (const char *)src, sh.dst = (char *)dst, sh.bytes = bytes, sh.o = *o;
    sh.o.stage_bytes = o->stage_bytes ? o->stage_bytes : CUDA_UPLOAD_STAGE_BYTES;
    upload_kept *k = kept_lanes(&sh.o);
    upload_lane own[CUDA_UPLOAD_MAX_WORKERS] = {};
    sh.lane = k ? k->lane : own;
    sh.keep = k != NULL;
    /* Small arrays: one chunk, and their own buffers no larger. */
    sh.chunk = k || sh.o.stage_bytes < bytes ? sh.o.stage_bytes : bytes;
    sh.n_chunks = (bytes + sh.chunk - 1) / sh.chunk;
    sh.workers = upload_worker_count(o, sh.n_chunks);
    sh.first_error.store(cudaSuccess);
    /* Worker 0 runs here; a worker whose thread could not start runs here too. */
    parts_run(upload_worker_run, &sh, (uint32_t)sh.workers);
    if (k)
        k->lock.unlock();
    return (cudaError_t)sh.first_error.load();
}

extern "C" void cuda_upload_prepare(int device)
{
    if (device < 0 || device >= UPLOAD_KEPT_DEVICES)
        return;
    upload_kept *k = &kept[device];
    cuda_upload_options o = cuda_upload_defaults();
    int workers = upload_worker_count(&o, CUDA_UPLOAD_MAX_WORKERS);
    std::lock_guard<std::mutex> hold(k->lock);
    for (int w = 0; w < workers; w++)
        if (!k->lane[w].open && lane_open(&k->lane[w], device, CUDA_UPLOAD_STAGE_BYTES,
                                          false) != cudaSuccess) {
            cudaGetLastError(); /* the upload meets it again and reports it */
            return;
        }
}

extern "C" void cuda_upload_release(int device)
{
    if (device < 0 || device >= UPLOAD_KEPT_DEVICES)
        return;
    upload_kept *k = &kept[device];
    std::lock_guard<std::mutex> hold(k->lock);
    bool on_device = false; /* the lanes' context, made current before the first closes */
    for (int w = 0; w < CUDA_UPLOAD_MAX_WORKERS; w++) {
        if (!k->lane[w].open)
            continue;
        if (!on_device)
            cudaSetDevice(device);
        on_device = true;
        lane_close(&k->lane[w]);
    }
    cudaGetLastError();
}
