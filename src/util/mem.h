/* mem.h: malloc wrappers that keep allocation statistics.
 *
 * Every block carries a small header in front of it recording its size, so
 * mem_free and mem_realloc know how many bytes they release: a pointer from
 * mem_* must go back through mem_free/mem_realloc, never free(), and a pointer
 * from malloc must never reach mem_free.  The counters are C11 atomics, safe
 * from any thread.  In debug builds (NDEBUG undefined) freed bytes are
 * overwritten with 0xDD so that a use after free shows.  Failure returns NULL
 * and leaves the statistics unchanged. */
#ifndef GP_UTIL_MEM_H
#define GP_UTIL_MEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mem_stats {
    size_t current_bytes; /* requested bytes in live blocks (headers excluded) */
    size_t peak_bytes;    /* the highest current_bytes seen */
    uint64_t alloc_count; /* blocks allocated so far: mem_alloc, mem_calloc, mem_realloc(NULL, n) */
} mem_stats;

/* A block of `size` bytes (size 0 gives a unique, freeable block). */
void *mem_alloc(size_t size);
/* A zeroed block of n * size bytes; NULL when the product overflows. */
void *mem_calloc(size_t n, size_t size);
/* The same, zeroed here by writing: for a table whose entries are read
 * before they are set.  A large calloc block's pages are the system's
 * shared zero page until first written, so that such a table would take a
 * copy-on-write fault and a TLB flush on every core, a page at a time. */
void *mem_zeroed(size_t n, size_t size);
/* Resizes `p` (NULL: like mem_alloc).  On failure `p` stays valid and unchanged. */
void *mem_realloc(void *p, size_t size);
/* Maps the whole pages of [p, p + size), inside a block from mem_*, ahead
 * of their first writes: one call costs less than a fault a page.  Where
 * the system cannot (before Linux 5.14), the pages fault as written. */
void mem_populate(void *p, size_t size);
/* Gives the whole pages inside block p (from mem_*) back to the system,
 * the block kept: they read as zero after; the partial pages at its ends
 * keep their bytes.  Where mem_free of a large block unmaps it, holding
 * the address space's lock for writing (every other thread's page fault
 * waits), this holds it only for reading. */
void mem_discard(void *p);
/* Frees a block from mem_*; NULL is ignored. */
void mem_free(void *p);
/* Frees a large block on a thread of its own while the caller goes on:
 * giving gigabytes of pages back to the system takes tenths of a second.
 * One such free runs at a time (a second waits for the first); where no
 * thread starts, the block is freed at once.  The process waits for the
 * last at exit, or earlier in mem_free_behind_wait. */
void mem_free_behind(void *p);
void mem_free_behind_wait(void);

mem_stats mem_get_stats(void);

/* For the process, once at its start: blocks from 128 KiB on are mapped on
 * their own and given back to the system when freed (glibc raises this
 * bound as blocks are freed, keeping them in its arenas after, and grows
 * large blocks there by copying): so the activity's buckets, freed range
 * by range while the event store fills, are not resident beside all of
 * it. */
void mem_release_freed_blocks(void);

#ifdef __cplusplus
}
#endif

#endif
