/* bench_upload.c: what bounds the events' upload to the device, on a
 * synthetic event store (one net, N events; default 3e8, 2.4 GB).
 *
 * usage: bench_upload [EVENTS]
 *
 * Measures (a) cudaMemcpy of the 8 N bytes of the events' words from
 * pageable memory, (b) the same from pinned memory, (c) cudaMallocHost +
 * cudaFreeHost of 16 MiB and of 256 MiB, (d) one core copying the events
 * into a staging buffer in turn (what a worker does, without its copies
 * to the device), (e) cuda_upload_bytes with 1, 2, 4,
 * 8 and 16 workers, staging buffers of 2, 8 and 32 MiB, and 8 MiB
 * write-combined, each time from the call to its return, its pinned
 * buffers made in the call (the device's kept ones released first), its
 * result spot-checked on the device, (f) cuda_upload_bytes with the
 * defaults, the device's buffers kept from the call before, as every
 * upload after a process's first finds them.  Every figure is the
 * median of 3; GB/s are 8 N bytes over seconds.  CUDA builds only; about
 * 6 GB of host memory and 2.4 GB of device memory; some 20 s on an H200.
 *
 * Exit: 0 done, 1 a CUDA call failed or a check found a wrong event, 2
 * usage, 77 no CUDA device (skipped). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda/cuda_device.h"
#include "cuda/cuda_upload.h"
#include "events/events.h"
#include "util/progress.h"

#define REPEATS 3
/* Events this far apart are checked (one at a varying offset in each
 * stretch, and the last): fewer than a 2 MiB staging buffer holds, so a
 * chunk left out or misplaced is caught. */
#define CHECK_STRIDE 65536

static double median3(double t[REPEATS])
{
    double a = t[0], b = t[1], c = t[2];
    return a > b ? (b > c ? b : a > c ? c : a) : (a > c ? a : b > c ? c : b);
}

static bool cuda_ok(cudaError_t err, const char *what)
{
    if (err != cudaSuccess)
        fprintf(stderr, "bench_upload: %s: %s\n", what, cudaGetErrorString(err));
    return err == cudaSuccess;
}

/* One net of n events: strictly increasing times, values 0, 1, X in turn. */
static bool make_events(events *ev, uint64_t n)
{
    ev->n_nets = 1, ev->n_events = n;
    ev->net_ev0 = malloc(2 * sizeof *ev->net_ev0);
    ev->word = malloc(n * sizeof *ev->word);
    if (!ev->net_ev0 || !ev->word)
        return false;
    ev->net_ev0[0] = 0, ev->net_ev0[1] = n;
    for (uint64_t i = 0; i < n; i++)
        ev->word[i] = events_pack((int64_t)(i * 1237), (uint8_t)(i % 3));
    ev->end_fs = events_time(ev, n - 1);
    return true;
}

/* Seconds of a cudaMemcpy of `bytes` from src, median of 3. */
static double time_copy(void *dst, const void *src, size_t bytes)
{
    double t[REPEATS];
    for (int r = 0; r < REPEATS; r++) {
        double start = progress_now_seconds();
        if (!cuda_ok(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy"))
            return -1;
        t[r] = progress_now_seconds() - start;
    }
    return median3(t);
}

/* Seconds of cudaMallocHost + cudaFreeHost of `bytes`, median of 3. */
static double time_pin(size_t bytes)
{
    double t[REPEATS];
    for (int r = 0; r < REPEATS; r++) {
        void *p = NULL;
        double start = progress_now_seconds();
        if (!cuda_ok(cudaMallocHost(&p, bytes), "cudaMallocHost"))
            return -1;
        cudaFreeHost(p);
        t[r] = progress_now_seconds() - start;
    }
    return median3(t);
}

/* Seconds of copying all events on this thread into one staging buffer
 * in turn (what a worker does, without its copies), median of 3. */
static double time_stage(const events *ev)
{
    uint64_t chunk = CUDA_UPLOAD_STAGE_BYTES / sizeof(int64_t);
    int64_t *stage = malloc(CUDA_UPLOAD_STAGE_BYTES);
    double t[REPEATS];
    if (!stage)
        return -1;
    for (int r = 0; r < REPEATS; r++) {
        double start = progress_now_seconds();
        for (uint64_t first = 0; first < ev->n_events; first += chunk)
            memcpy(stage, ev->word + first,
                   (ev->n_events - first < chunk ? ev->n_events - first : chunk) * sizeof *stage);
        t[r] = progress_now_seconds() - start;
    }
    free(stage);
    return median3(t);
}

/* One event in every CHECK_STRIDE, and the last, as on the device. */
static bool spot_check(const events *ev, const int64_t *dev)
{
    uint64_t stretches = (ev->n_events + CHECK_STRIDE - 1) / CHECK_STRIDE;
    for (uint64_t k = 0; k <= stretches; k++) {
        uint64_t i = k * CHECK_STRIDE + k * 7919 % CHECK_STRIDE;
        i = i < ev->n_events ? i : ev->n_events - 1; /* k == stretches: the last */
        int64_t got, want = (int64_t)ev->word[i];
        if (!cuda_ok(cudaMemcpy(&got, dev + i, sizeof got, cudaMemcpyDeviceToHost), "check"))
            return false;
        if (got != want) {
            fprintf(stderr, "bench_upload: event %llu is %lld on the device, not %lld\n",
                    (unsigned long long)i, (long long)got, (long long)want);
            return false;
        }
    }
    return true;
}

/* cuda_upload_bytes of the events with o, median of 3, its result
 * checked; its buffers made in each call (`cold`: the kept ones released
 * before it) or kept from the call before; -1 on failure. */
static double time_upload(const events *ev, int64_t *dev, const cuda_upload_options *o, bool cold)
{
    double t[REPEATS];
    size_t bytes = ev->n_events * sizeof *dev;
    if (!cold && !cuda_ok(cuda_upload_bytes(dev, ev->word, bytes, o), "cuda_upload_bytes"))
        return -1; /* the buffers kept */
    for (int r = 0; r < REPEATS; r++) {
        if (!cuda_ok(cudaMemset(dev, 0xff, bytes), "cudaMemset") ||
            !cuda_ok(cudaDeviceSynchronize(), "cudaMemset"))
            return -1;
        if (cold)
            cuda_upload_release(o->device);
        double start = progress_now_seconds();
        if (!cuda_ok(cuda_upload_bytes(dev, ev->word, bytes, o), "cuda_upload_bytes"))
            return -1;
        t[r] = progress_now_seconds() - start;
        if (r == 0 && !spot_check(ev, dev))
            return -1;
    }
    return median3(t);
}

static bool print_rate(const char *what, double seconds, double bytes)
{
    if (seconds < 0)
        return false;
    printf("%-40s %8.3f s  %6.2f GB/s\n", what, seconds, bytes / seconds * 1e-9);
    return true;
}

/* (e): GB/s per worker count (rows) and staging (columns). */
static bool upload_table(const events *ev, int64_t *dev)
{
    static const int workers[] = {1, 2, 4, 8, 16};
    static const size_t stage_mib[] = {2, 8, 32, 8};
    double bytes = (double)ev->n_events * sizeof(int64_t);
    printf("(e) cuda_upload_bytes, GB/s (median of 3), from the call to its return, its\n"
           "pinned buffers made in the call:\n"
           "workers   2 MiB   8 MiB  32 MiB  8 MiB WC\n");
    for (size_t w = 0; w < sizeof workers / sizeof *workers; w++) {
        printf("%7d", workers[w]);
        for (size_t s = 0; s < sizeof stage_mib / sizeof *stage_mib; s++) {
            cuda_upload_options o = cuda_upload_defaults();
            o.workers = workers[w];
            o.stage_bytes = stage_mib[s] << 20;
            o.write_combined = s == 3;
            double t = time_upload(ev, dev, &o, true);
            if (t < 0)
                return false;
            printf(" %7.2f", bytes / t * 1e-9);
            fflush(stdout);
        }
        printf("\n");
    }
    return true;
}

static bool measure(const events *ev)
{
    size_t bytes = ev->n_events * sizeof(int64_t);
    int64_t *dev = NULL, *pinned = NULL;
    if (!cuda_ok(cudaMalloc((void **)&dev, bytes), "cudaMalloc (events)"))
        return false;
    bool ok = print_rate("(a) cudaMemcpy, pageable", time_copy(dev, ev->word, bytes),
                         (double)bytes);
    double start = progress_now_seconds();
    ok = ok && cuda_ok(cudaMallocHost((void **)&pinned, bytes), "cudaMallocHost (all events)");
    double pin_all = progress_now_seconds() - start;
    if (ok) {
        memcpy(pinned, ev->word, bytes);
        ok = print_rate("(b) cudaMemcpy, pinned", time_copy(dev, pinned, bytes), (double)bytes);
        printf("    (its cudaMallocHost of %.2f GB: %.3f s)\n", (double)bytes * 1e-9, pin_all);
        cudaFreeHost(pinned);
    }
    double pin16 = ok ? time_pin((size_t)16 << 20) : -1;
    double pin256 = pin16 >= 0 ? time_pin((size_t)256 << 20) : -1;
    ok = pin256 >= 0;
    if (ok)
        printf("(c) cudaMallocHost + cudaFreeHost: 16 MiB %.2f ms, 256 MiB %.2f ms\n",
               pin16 * 1e3, pin256 * 1e3);
    ok = ok && print_rate("(d) staging, one thread, no copy", time_stage(ev), (double)bytes);
    ok = ok && upload_table(ev, dev);
    cuda_upload_options o = cuda_upload_defaults();
    ok = ok && print_rate("(f) cuda_upload_bytes, defaults, kept", time_upload(ev, dev, &o, false),
                          (double)bytes);
    cudaFree(dev);
    return ok;
}

int main(int argc, char **argv)
{
    double n = argc > 1 ? strtod(argv[1], NULL) : 3e8;
    if (argc > 2 || n < 1 || n > 2e9) {
        fprintf(stderr, "usage: bench_upload [EVENTS]   (1 to 2e9; default 3e8)\n");
        return 2;
    }
    if (cuda_device_count() == 0) {
        printf("SKIPPED: bench_upload: no CUDA device here (or no CUDA engine in this build)\n");
        return 77;
    }
    struct cudaDeviceProp prop;
    if (!cuda_ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties") ||
        !cuda_ok(cudaFree(NULL), "creating the CUDA context"))
        return 1;
    events ev = {0};
    bool ok = make_events(&ev, (uint64_t)n);
    if (!ok)
        fprintf(stderr, "bench_upload: out of memory making %.3g events\n", n);
    else
        printf("bench_upload: %s, %ld online cores, %llu events, %.2f GB\n", prop.name,
               sysconf(_SC_NPROCESSORS_ONLN), (unsigned long long)ev.n_events,
               (double)ev.n_events * 8e-9);
    ok = ok && measure(&ev);
    free(ev.net_ev0);
    free(ev.word);
    return ok ? 0 : 1;
}
