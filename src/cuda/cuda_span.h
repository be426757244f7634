/* cuda_span.h: device memory in one address range that grows as it is
 * taken: CUDA's virtual memory management (an address range as large as
 * the device's memory reserved, physical memory mapped into it a step at a
 * time).  The re-simulation writes its levels' waveforms into a span, so
 * that every net's events lie at an offset from one base and the power
 * engine reads them where they were written, with no copy into net order.
 *
 * The driver's functions are looked up through the runtime (its driver
 * entry points), not linked: a build with CUDA still starts where no
 * driver is installed.  CUDA C++ only; one thread takes from a span at
 * a time. */
#ifndef GP_CUDA_CUDA_SPAN_H
#define GP_CUDA_CUDA_SPAN_H

#include <cuda_runtime.h>
#include <stddef.h>

/* The least memory a span maps at once (a larger take maps its own size,
 * rounded up to the device's granularity). */
#define CUDA_SPAN_STEP ((size_t)256 << 20)

/* Zeroed: no span (cuda_span_close does nothing). */
typedef struct cuda_span {
    char *base;               /* the range's start; pieces are at base + offset */
    size_t reserved;          /* the range's bytes */
    size_t mapped;            /* bytes mapped from base */
    size_t used;              /* bytes handed out from base */
    size_t granularity;       /* the device's mapping granularity */
    int device;
} cuda_span;

/* Reserves an address range on `device` (the calling thread's current
 * device) as large as its memory; nothing is mapped yet.  Devices without
 * virtual memory management give cudaErrorNotSupported. */
cudaError_t cuda_span_open(cuda_span *s, int device);

/* *p gets `bytes` (at least 1), 256-byte aligned, right after the pieces
 * before it; memory is mapped (CUDA_SPAN_STEP at least) where the mapped
 * part ends.  Device kernels may be using the pieces before meanwhile. */
cudaError_t cuda_span_take(cuda_span *s, size_t bytes, void **p);

/* Unmaps the memory and frees the range (waits for the device); the span
 * is zeroed. */
void cuda_span_close(cuda_span *s);

#endif
