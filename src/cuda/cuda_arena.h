/* cuda_arena.h: device memory carved from a few large cudaMalloc'd chunks.
 *
 * The re-simulation sizes each level's arrays from the level before, so
 * it allocates a few hundred arrays in a run.  A new stream memory pool
 * maps its memory in many small steps, and trimming it unmaps them again
 * (docs/performance.md has the figures); an arena takes a chunk at a time
 * and hands out pieces of it.  Pieces are never freed one by one:
 * cuda_arena_clear empties every chunk for reuse, cuda_arena_free gives
 * them back.
 *
 * CUDA C++ only; one thread uses an arena at a time. */
#ifndef GP_CUDA_CUDA_ARENA_H
#define GP_CUDA_CUDA_ARENA_H

#include <cuda_runtime.h>
#include <stddef.h>

/* The smallest chunk an arena takes (a larger request gets a chunk of its
 * own size). */
#define CUDA_ARENA_CHUNK ((size_t)256 << 20)

typedef struct cuda_arena_chunk {
    char *base;
    size_t size, used;
} cuda_arena_chunk;

/* Zeroed: an empty arena. */
typedef struct cuda_arena {
    cuda_arena_chunk *chunks;
    size_t n_chunks, cap;
} cuda_arena;

/* *p gets `bytes` (at least 1) of device memory, 256-byte aligned, from
 * the first chunk with room, else from a new chunk of at least
 * CUDA_ARENA_CHUNK bytes. */
cudaError_t cuda_arena_take(cuda_arena *a, size_t bytes, void **p);

/* Every piece handed out is given up (the chunks stay for the next
 * takes); the caller makes sure no kernel still uses them. */
void cuda_arena_clear(cuda_arena *a);

/* The chunks back to the device (cudaFree waits for the device); the
 * arena is empty again. */
void cuda_arena_free(cuda_arena *a);

#endif
