/* bench_cuda_start.c: the floor under the wall of any process that uses
 * the GPU: one that only starts CUDA on a device and ends it
 * (docs/performance.md, "Against Icarus").  bench/vs-icarus.sh times it
 * beside `gatepower resim --power`, whose wall cannot go below it.
 *
 * usage: bench_cuda_start [GIB [DEVICE]]
 *
 * Prints, in seconds: the driver's load (cudaDriverGetVersion), the
 * context's start (cudaFree(0)), with GIB > 0 GIB of device memory
 * allocated, set and freed (how much a large allocation adds), and the
 * context's end (cudaDeviceReset).  The process's own start and exit are
 * outside it: time the whole process for them.
 *
 * Exit: 0 done, 1 a CUDA call failed, 2 usage, 77 no CUDA device. */
#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/progress.h"

static int failed(const char *what, cudaError_t err)
{
    fprintf(stderr, "bench_cuda_start: %s: %s\n", what, cudaGetErrorString(err));
    return err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver ? 77 : 1;
}

/* Seconds to allocate `gib` GiB, set every byte and free it. */
static cudaError_t time_memory(size_t gib, double *seconds)
{
    double start = progress_now_seconds();
    void *p = NULL;
    size_t bytes = gib << 30;
    cudaError_t err = cudaMalloc(&p, bytes);
    if (err == cudaSuccess)
        err = cudaMemset(p, 1, bytes);
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize();
    cudaFree(p);
    *seconds = progress_now_seconds() - start;
    return err;
}

/* Argument k as a whole number from 0 to max into *out (0 when absent). */
static bool count_arg(int argc, char **argv, int k, long max, long *out)
{
    char *end = NULL;
    *out = argc > k ? strtol(argv[k], &end, 10) : 0;
    return (!end || (end != argv[k] && *end == '\0')) && *out >= 0 && *out <= max;
}

int main(int argc, char **argv)
{
    long gib, device;
    if (argc > 3 || !count_arg(argc, argv, 1, 1024, &gib) ||
        !count_arg(argc, argv, 2, 1023, &device)) {
        fprintf(stderr, "usage: bench_cuda_start [GIB [DEVICE]]\n");
        return 2;
    }
    double t0 = progress_now_seconds();
    int version = 0;
    cudaError_t err = cudaDriverGetVersion(&version);
    double t1 = progress_now_seconds();
    if (err == cudaSuccess)
        err = cudaSetDevice((int)device);
    if (err == cudaSuccess)
        err = cudaFree(0);
    double t2 = progress_now_seconds(), memory = 0;
    if (err != cudaSuccess)
        return failed("starting CUDA", err);
    if (gib > 0 && (err = time_memory((size_t)gib, &memory)) != cudaSuccess)
        return failed("device memory", err);
    double t3 = progress_now_seconds();
    err = cudaDeviceReset();
    double t4 = progress_now_seconds();
    if (err != cudaSuccess)
        return failed("ending the context", err);
    printf("cuda start and end: driver %.3f s, context %.3f s", t1 - t0, t2 - t1);
    if (gib > 0)
        printf(", %ld GiB allocated, set and freed %.3f s", gib, memory);
    printf(", context's end %.3f s (in all %.3f s)\n", t4 - t3, t4 - t0);
    return 0;
}
