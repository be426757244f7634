/* cuda_upload.cu: the events' upload on W persistent worker threads, each
 * with its own stream and two pinned staging buffers (see cuda_upload.h). */
#include "cuda/cuda_upload.h"

#include <atomic>

#include "events/events.h"
#include "util/parts.h"

/* What the workers share: the job, and the first error any of them met
 * (cudaSuccess until then), which also tells the others to stop. */
typedef struct upload_worker upload_worker;
typedef struct upload_shared {
    const events *ev;
    int64_t *dst;
    cuda_upload_options o;
    uint64_t chunk;           /* events per chunk: what one staging buffer holds */
    uint64_t n_chunks;
    int workers;
    std::atomic<int> first_error;
    upload_worker *worker;    /* [workers] */
} upload_shared;

struct upload_worker {
    upload_shared *sh;
    int index;
    cudaStream_t stream;
    int64_t *stage[2];
    cudaEvent_t copied[2];    /* recorded after stage[b]'s copy: b may be refilled once done */
};

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

/* The worker's stream, buffers and events.  Blocking-sync events: a worker
 * waiting on the link sleeps instead of spinning on a core that another
 * worker, or the caller's model building, could use. */
static cudaError_t upload_worker_open(upload_worker *w)
{
    const upload_shared *sh = w->sh;
    unsigned host_flags = sh->o.write_combined ? cudaHostAllocWriteCombined : 0;
    cudaError_t err = cudaSetDevice(sh->o.device);
    if (err == cudaSuccess)
        err = cudaStreamCreateWithFlags(&w->stream, cudaStreamNonBlocking);
    for (int b = 0; b < 2 && err == cudaSuccess; b++) {
        err = cudaHostAlloc((void **)&w->stage[b], sh->chunk * sizeof(int64_t), host_flags);
        if (err == cudaSuccess)
            err = cudaEventCreateWithFlags(&w->copied[b],
                                           cudaEventDisableTiming | cudaEventBlockingSync);
    }
    return err;
}

/* Waits for the worker's copies, then frees what upload_worker_open made. */
static cudaError_t upload_worker_close(upload_worker *w)
{
    cudaError_t err = cudaSuccess;
    for (int b = 0; b < 2; b++)
        if (w->copied[b]) {
            cudaError_t e = cudaEventSynchronize(w->copied[b]);
            err = err == cudaSuccess ? e : err;
        }
    if (w->stream) {
        /* An event that could not be recorded leaves its copy uncovered. */
        cudaError_t e = cudaStreamSynchronize(w->stream);
        err = err == cudaSuccess ? e : err;
        cudaStreamDestroy(w->stream);
    }
    for (int b = 0; b < 2; b++) {
        if (w->copied[b])
            cudaEventDestroy(w->copied[b]);
        if (w->stage[b])
            cudaFreeHost(w->stage[b]);
    }
    return err;
}

/* Chunks index, index + W, ...: each put in the staging buffer whose
 * previous copy is done, then copied on the worker's stream. */
static cudaError_t upload_worker_copy(upload_worker *w)
{
    upload_shared *sh = w->sh;
    cudaError_t err = cudaSuccess;
    uint64_t i = 0;
    for (uint64_t c = (uint64_t)w->index; c < sh->n_chunks && !upload_stopped(sh);
         c += (uint64_t)sh->workers, i++) {
        uint64_t first = c * sh->chunk;
        uint64_t n = sh->ev->n_events - first < sh->chunk ? sh->ev->n_events - first : sh->chunk;
        int b = (int)(i % 2);
        if ((err = cudaEventSynchronize(w->copied[b])) != cudaSuccess)
            break;
        memcpy(w->stage[b], sh->ev->word + first, n * sizeof *sh->ev->word);
        err = cudaMemcpyAsync(sh->dst + first, w->stage[b], n * sizeof(int64_t),
                              cudaMemcpyHostToDevice, w->stream);
        if (err == cudaSuccess)
            err = cudaEventRecord(w->copied[b], w->stream);
        if (err != cudaSuccess)
            break;
    }
    return err;
}

/* Worker `part` of the upload (a parts_fn). */
static void upload_worker_run(void *ctx, uint32_t part, uint32_t parts)
{
    (void)parts;
    upload_worker *w = &((upload_shared *)ctx)->worker[part];
    cudaError_t err = upload_worker_open(w);
    if (err == cudaSuccess)
        err = upload_worker_copy(w);
    cudaError_t closed = upload_worker_close(w);
    upload_record(w->sh, err == cudaSuccess ? closed : err);
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

extern "C" cudaError_t cuda_upload_events(const events *ev, int64_t *dst,
                                          const cuda_upload_options *o)
{
    if (ev->n_events == 0)
        return cudaSuccess;
    upload_shared sh;
    sh.ev = ev, sh.dst = dst, sh.o = *o;
    uint64_t stage = o->stage_bytes ? o->stage_bytes : CUDA_UPLOAD_STAGE_BYTES;
    sh.chunk = stage / sizeof(int64_t) ? stage / sizeof(int64_t) : 1;
    sh.chunk = sh.chunk < ev->n_events ? sh.chunk : ev->n_events; /* small inputs: small buffers */
    sh.n_chunks = (ev->n_events + sh.chunk - 1) / sh.chunk;
    sh.workers = upload_worker_count(o, sh.n_chunks);
    sh.first_error.store(cudaSuccess);
    upload_worker w[CUDA_UPLOAD_MAX_WORKERS] = {};
    for (int i = 0; i < sh.workers; i++)
        w[i].sh = &sh, w[i].index = i;
    sh.worker = w;
    /* Worker 0 runs here; a worker whose thread could not start runs here too. */
    parts_run(upload_worker_run, &sh, (uint32_t)sh.workers);
    return (cudaError_t)sh.first_error.load();
}
