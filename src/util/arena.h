/* arena.h: a region allocator for memory that is freed all at once (one
 * library, one design).
 *
 * Allocations are carved from blocks obtained through mem_alloc.  Blocks grow
 * geometrically (64 KiB doubling up to 16 MiB); a request larger than a
 * quarter of the next block gets a block of its own, so that it neither wastes
 * the rest of the current block nor forces the next one to grow.  Pointers stay
 * valid until arena_reset or arena_free_all.  An arena is not thread-safe.
 * The zero-initialised struct (or arena_init) is an empty arena. */
#ifndef GP_UTIL_ARENA_H
#define GP_UTIL_ARENA_H

#include <stddef.h>

typedef struct arena_block arena_block;

typedef struct arena {
    arena_block *head;     /* the block allocations are carved from; older ones chained behind */
    char *next;            /* free space in head: [next, limit) */
    char *limit;
    size_t next_block_size;
    size_t bytes_used;     /* bytes handed out since init / reset */
} arena;

void arena_init(arena *a);

/* `size` bytes aligned to `align` (a power of two; 0 means alignment for any
 * type), or NULL on allocation failure or a bad `align`.  A size of 0 still
 * gives a distinct pointer. */
void *arena_alloc(arena *a, size_t size, size_t align);
/* Zeroed room for n elements of `size` bytes; NULL also when n * size overflows. */
void *arena_calloc(arena *a, size_t n, size_t size, size_t align);
/* A NUL-terminated copy of the first `len` bytes of `s` (which may hold NULs). */
char *arena_strndup(arena *a, const char *s, size_t len);

/* Forgets every allocation but keeps the current block for reuse. */
void arena_reset(arena *a);
/* Returns every block to mem_free; the arena is empty and usable again. */
void arena_free_all(arena *a);

/* Bytes handed out since init or reset (requested sizes; alignment padding and
 * unused block tails excluded). */
size_t arena_bytes_used(const arena *a);

#endif
