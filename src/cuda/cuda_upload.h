/* cuda_upload.h: host arrays (the events' words, the re-simulation's
 * plan) copied to the device on W host threads at once.  Worker w takes
 * chunks w, w + W, w + 2W ... of the bytes, puts each in one of its two
 * pinned staging buffers and copies it on its own stream while it fills
 * the other: W workers feed the PCIe link, which one alone cannot keep
 * busy.
 *
 * Pinning costs about 0.7 ms a MiB, more than most arrays take to copy,
 * so each device keeps its workers' streams and buffers (its lanes) from
 * cuda_upload_prepare, or from its first upload, to cuda_upload_release:
 * one upload at a time uses them, one that finds them taken (or asks for
 * other buffers) makes its own and frees them when done.
 *
 * C or CUDA C++; CUDA builds only (it speaks the CUDA runtime's types). */
#ifndef GP_CUDA_CUDA_UPLOAD_H
#define GP_CUDA_CUDA_UPLOAD_H

#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One worker cannot keep the link busy, and large buffers cost more to
 * pin than they save: small buffers, several workers (the figures:
 * docs/performance.md, "The events' upload").  The default is half the
 * online cores (the model is built on the calling thread meanwhile), at
 * most CUDA_UPLOAD_DEFAULT_WORKERS. */
#define CUDA_UPLOAD_MAX_WORKERS 16
#define CUDA_UPLOAD_DEFAULT_WORKERS 8
#define CUDA_UPLOAD_STAGE_BYTES ((size_t)2 << 20)

typedef struct cuda_upload_options {
    int device;               /* CUDA device index */
    int workers;              /* <= 0: half the online cores, at most
                                 CUDA_UPLOAD_DEFAULT_WORKERS; at most CUDA_UPLOAD_MAX_WORKERS */
    size_t stage_bytes;       /* each staging buffer; 0: CUDA_UPLOAD_STAGE_BYTES (only those
                                 are kept) */
    bool write_combined;      /* staging buffers write-combined (the host only writes them;
                                 never kept) */
    const volatile bool *cancel; /* NULL, or a flag another thread may set: the workers
                                    then stop after their current chunk */
} cuda_upload_options;

/* Workers (device 0, the default count), CUDA_UPLOAD_STAGE_BYTES, cacheable
 * staging, no cancel flag. */
cuda_upload_options cuda_upload_defaults(void);

/* Copies `bytes` at src (host memory, pageable) to dst (device memory).
 * Returns cudaSuccess, also when cancelled (dst then partly written), or
 * the first error any worker met; every copy is done when it returns.
 * Runs on the calling thread and W - 1 others. */
cudaError_t cuda_upload_bytes(void *dst, const void *src, size_t bytes,
                              const cuda_upload_options *o);

/* Makes device `device`'s default lanes (the calling thread's device
 * becomes `device`), for a thread that runs while the inputs are read;
 * failures are left for the upload to meet and report. */
void cuda_upload_prepare(int device);

/* Frees device `device`'s kept lanes: before its context ends. */
void cuda_upload_release(int device);

#ifdef __cplusplus
}
#endif

#endif
