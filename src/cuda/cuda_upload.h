/* cuda_upload.h: the events' upload to the device, their words as the
 * store holds them (events.h), on W persistent host threads at once.
 * Worker w takes chunks w, w + W, w + 2W ... of the events, puts each in
 * one of its two pinned staging buffers and copies it on its own stream
 * while it fills the other: W workers feed the PCIe link, which one alone
 * cannot keep busy.
 *
 * C or CUDA C++; CUDA builds only (it speaks the CUDA runtime's types). */
#ifndef GP_CUDA_CUDA_UPLOAD_H
#define GP_CUDA_CUDA_UPLOAD_H

#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events/events.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Pinning memory costs more than large staging buffers save, and one
 * worker cannot keep the link busy: small buffers, several workers (the
 * figures: docs/performance.md, "The events' upload").  The default is
 * half the online cores (the model is built on the calling thread
 * meanwhile), at most CUDA_UPLOAD_DEFAULT_WORKERS. */
#define CUDA_UPLOAD_MAX_WORKERS 16
#define CUDA_UPLOAD_DEFAULT_WORKERS 8
#define CUDA_UPLOAD_STAGE_BYTES ((size_t)2 << 20)

typedef struct cuda_upload_options {
    int device;               /* CUDA device index */
    int workers;              /* <= 0: half the online cores, at most
                                 CUDA_UPLOAD_DEFAULT_WORKERS; at most CUDA_UPLOAD_MAX_WORKERS */
    size_t stage_bytes;       /* each staging buffer; 0: CUDA_UPLOAD_STAGE_BYTES */
    bool write_combined;      /* staging buffers write-combined (the host only writes them) */
    const volatile bool *cancel; /* NULL, or a flag another thread may set: the workers
                                    then stop after their current chunk */
} cuda_upload_options;

/* Workers (device 0, the default count), CUDA_UPLOAD_STAGE_BYTES, cacheable
 * staging, no cancel flag. */
cuda_upload_options cuda_upload_defaults(void);

/* Packs ev's events into dst, a device array of ev->n_events int64.
 * Returns cudaSuccess, also when cancelled (dst then partly written), or
 * the first error any worker met; every staging buffer, stream and event
 * is freed either way.  Runs on the calling thread and W - 1 others. */
cudaError_t cuda_upload_events(const events *ev, int64_t *dst, const cuda_upload_options *o);

#ifdef __cplusplus
}
#endif

#endif
