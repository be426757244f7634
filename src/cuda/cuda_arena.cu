/* cuda_arena.cu: device memory carved from large chunks (cuda_arena.h). */
#include "cuda/cuda_arena.h"

#include <stdint.h>

#include "util/mem.h"

#define ALIGN ((size_t)256)

/* A new chunk of at least `bytes` at the end of the list. */
static cudaError_t add_chunk(cuda_arena *a, size_t bytes)
{
    if (a->n_chunks == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 8;
        void *grown = mem_realloc(a->chunks, cap * sizeof *a->chunks);
        if (!grown)
            return cudaErrorMemoryAllocation;
        a->chunks = (cuda_arena_chunk *)grown;
        a->cap = cap;
    }
    cuda_arena_chunk c = {NULL, bytes > CUDA_ARENA_CHUNK ? bytes : CUDA_ARENA_CHUNK, 0};
    cudaError_t err = cudaMalloc((void **)&c.base, c.size);
    if (err == cudaSuccess)
        a->chunks[a->n_chunks++] = c;
    return err;
}

cudaError_t cuda_arena_take(cuda_arena *a, size_t bytes, void **p)
{
    if (bytes > SIZE_MAX - ALIGN)
        return cudaErrorMemoryAllocation;
    size_t need = bytes ? (bytes + ALIGN - 1) / ALIGN * ALIGN : ALIGN;
    size_t k = 0;
    while (k < a->n_chunks && a->chunks[k].size - a->chunks[k].used < need)
        k++;
    if (k == a->n_chunks) {
        cudaError_t err = add_chunk(a, need);
        if (err != cudaSuccess)
            return err;
    }
    cuda_arena_chunk *c = &a->chunks[k];
    *p = c->base + c->used;
    c->used += need;
    return cudaSuccess;
}

void cuda_arena_clear(cuda_arena *a)
{
    for (size_t k = 0; k < a->n_chunks; k++)
        a->chunks[k].used = 0;
}

void cuda_arena_free(cuda_arena *a)
{
    for (size_t k = 0; k < a->n_chunks; k++)
        cudaFree(a->chunks[k].base);
    mem_free(a->chunks);
    *a = cuda_arena{};
}
