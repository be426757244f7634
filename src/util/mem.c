/* mem.c: malloc with a size header and atomic statistics; large blocks
 * freed on a thread of their own (mem_free_behind). */
#define _DEFAULT_SOURCE /* madvise: POSIX's posix_madvise(DONTNEED) is a no-op on Linux */
#include "util/mem.h"

#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The header keeps the block's size; the union keeps the user's part aligned
 * for any type, as malloc's own result is. */
typedef union mem_header {
    size_t size;
    max_align_t align;
} mem_header;

#define MEM_POISON 0xDD

static atomic_size_t mem_current;
static atomic_size_t mem_peak;
static atomic_uint_fast64_t mem_allocs;

static void mem_count_growth(size_t bytes)
{
    size_t now = atomic_fetch_add_explicit(&mem_current, bytes, memory_order_relaxed) + bytes;
    size_t peak = atomic_load_explicit(&mem_peak, memory_order_relaxed);
    while (now > peak &&
           !atomic_compare_exchange_weak_explicit(&mem_peak, &peak, now, memory_order_relaxed,
                                                  memory_order_relaxed)) {
    }
}

static void mem_count_shrink(size_t bytes)
{
    atomic_fetch_sub_explicit(&mem_current, bytes, memory_order_relaxed);
}

static mem_header *mem_header_of(void *p) { return (mem_header *)p - 1; }

static void mem_poison(void *p, size_t size)
{
#ifndef NDEBUG
    memset(p, MEM_POISON, size);
#else
    (void)p;
    (void)size;
#endif
}

/* A new block h of `size` bytes (NULL: none) counted, its user part. */
static void *mem_counted(mem_header *h, size_t size)
{
    if (!h)
        return NULL;
    h->size = size;
    mem_count_growth(size);
    atomic_fetch_add_explicit(&mem_allocs, 1, memory_order_relaxed);
    return h + 1;
}

void *mem_alloc(size_t size)
{
    if (size > SIZE_MAX - sizeof(mem_header))
        return NULL;
    return mem_counted(malloc(sizeof(mem_header) + size), size);
}

/* calloc leaves a large block's pages to be zeroed by the system on first
 * touch, on whichever thread touches them, instead of here. */
/* Whether n elements of `size` bytes fit a block with its header. */
static bool mem_array_fits(size_t n, size_t size)
{
    return size == 0 || n <= (SIZE_MAX - sizeof(mem_header)) / size;
}

void *mem_calloc(size_t n, size_t size)
{
    if (!mem_array_fits(n, size))
        return NULL;
    return mem_counted(calloc(1, sizeof(mem_header) + n * size), n * size);
}

void *mem_zeroed(size_t n, size_t size)
{
    if (!mem_array_fits(n, size))
        return NULL;
    void *p = mem_alloc(n * size);
    if (p)
        memset(p, 0, n * size);
    return p;
}

void *mem_realloc(void *p, size_t size)
{
    if (!p)
        return mem_alloc(size);
    if (size > SIZE_MAX - sizeof(mem_header))
        return NULL;
    mem_header *old = mem_header_of(p);
    size_t old_size = old->size;
    mem_header *h = realloc(old, sizeof(mem_header) + size);
    if (!h)
        return NULL;
    h->size = size;
    if (size > old_size)
        mem_count_growth(size - old_size);
    else
        mem_count_shrink(old_size - size);
    return h + 1;
}

void mem_free(void *p)
{
    if (!p)
        return;
    mem_header *h = mem_header_of(p);
    mem_count_shrink(h->size);
    mem_poison(h, sizeof(mem_header) + h->size);
    free(h);
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older kernels answer EINVAL */
#endif

/* The whole pages of [from, to), into [*begin, *end); false when there
 * are none (or the system gives no page size). */
static bool whole_pages(uintptr_t from, uintptr_t to, uintptr_t *begin, uintptr_t *end)
{
    long page_size = sysconf(_SC_PAGESIZE);
    if (page_size <= 0)
        return false;
    size_t page = (size_t)page_size;
    *begin = (from + page - 1) / page * page;
    *end = to / page * page;
    return *end > *begin;
}

void mem_populate(void *p, size_t size)
{
    uintptr_t begin, end;
    if (whole_pages((uintptr_t)p, (uintptr_t)p + size, &begin, &end))
        (void)madvise((void *)begin, end - begin, MADV_POPULATE_WRITE);
}

/* The free running behind the caller, if any. */
static pthread_mutex_t behind_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t behind_thread;
static bool behind_running, behind_waited_at_exit;

/* Bytes of pages given back at a time before a block behind is freed. */
#define MEM_RELEASE_PIECE ((size_t)64 << 20)

/* Gives the whole pages inside block p back to the system a piece at a
 * time.  Unmapping gigabytes in one call holds the address space's lock
 * for tenths of a second, which the other threads' mmap, mremap and page
 * faults (a growing buffer, a fresh one) can wait on; a piece holds it
 * for milliseconds.  The partial pages at the block's ends, where malloc
 * keeps its own records, are left alone. */
static void release_pages(void *p)
{
#ifdef MADV_DONTNEED
    uintptr_t begin, end; /* from past the header's first byte: its page stays */
    if (!whole_pages((uintptr_t)mem_header_of(p) + 1, (uintptr_t)p + mem_header_of(p)->size,
                     &begin, &end))
        return;
    for (uintptr_t at = begin; at < end;) {
        size_t piece = end - at < MEM_RELEASE_PIECE ? end - at : MEM_RELEASE_PIECE;
        madvise((void *)at, piece, MADV_DONTNEED);
        at += piece;
    }
#else
    (void)p;
#endif
}

void mem_discard(void *p)
{
    if (p)
        release_pages(p);
}

static void *free_behind(void *p)
{
    release_pages(p);
    mem_free(p);
    return NULL;
}

static void join_behind(void)
{
    if (behind_running)
        pthread_join(behind_thread, NULL);
    behind_running = false;
}

void mem_free_behind_wait(void)
{
    pthread_mutex_lock(&behind_lock);
    join_behind();
    pthread_mutex_unlock(&behind_lock);
}

void mem_free_behind(void *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&behind_lock);
    join_behind();
    if (!behind_waited_at_exit)
        behind_waited_at_exit = atexit(mem_free_behind_wait) == 0;
    behind_running = behind_waited_at_exit &&
                     pthread_create(&behind_thread, NULL, free_behind, p) == 0;
    bool now = !behind_running;
    pthread_mutex_unlock(&behind_lock);
    if (now)
        mem_free(p);
}

mem_stats mem_get_stats(void)
{
    mem_stats s;
    s.current_bytes = atomic_load_explicit(&mem_current, memory_order_relaxed);
    s.peak_bytes = atomic_load_explicit(&mem_peak, memory_order_relaxed);
    s.alloc_count = atomic_load_explicit(&mem_allocs, memory_order_relaxed);
    return s;
}

void mem_release_freed_blocks(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}
