/* test_mem.c: statistics of the mem_* wrappers. */
#include <pthread.h>
#include <stdalign.h>
#include <stdint.h>
#include <unistd.h>

#include "check.h"
#include "util/mem.h"

static void test_alloc_and_free_update_counters(void)
{
    mem_stats before = mem_get_stats();
    char *p = mem_alloc(100);
    CHECK(p != NULL);
    memset(p, 'x', 100);
    mem_stats during = mem_get_stats();
    CHECK_EQ_INT(during.current_bytes, before.current_bytes + 100);
    CHECK_EQ_INT(during.alloc_count, before.alloc_count + 1);
    CHECK(during.peak_bytes >= during.current_bytes);
    mem_free(p);
    mem_stats after = mem_get_stats();
    CHECK_EQ_INT(after.current_bytes, before.current_bytes);
    CHECK_EQ_INT(after.alloc_count, before.alloc_count + 1);
    mem_free(NULL);
    CHECK_EQ_INT(mem_get_stats().current_bytes, before.current_bytes);
}

static void test_peak_survives_free(void)
{
    mem_stats before = mem_get_stats();
    void *a = mem_alloc(1 << 20);
    void *b = mem_alloc(3 << 20);
    CHECK(a && b);
    mem_free(a);
    mem_free(b);
    mem_stats after = mem_get_stats();
    CHECK(after.peak_bytes >= before.current_bytes + (4 << 20));
    CHECK_EQ_INT(after.current_bytes, before.current_bytes);
}

static void test_calloc_zeroes_and_checks_overflow(void)
{
    mem_stats before = mem_get_stats();
    uint32_t *p = mem_calloc(1000, sizeof(uint32_t));
    CHECK(p != NULL);
    int nonzero = 0;
    for (int i = 0; i < 1000; i++)
        nonzero += p[i] != 0;
    CHECK_EQ_INT(nonzero, 0);
    CHECK_EQ_INT(mem_get_stats().current_bytes, before.current_bytes + 4000);
    mem_free(p);
    CHECK(mem_calloc(SIZE_MAX / 2, 4) == NULL);
    mem_stats after = mem_get_stats();
    CHECK_EQ_INT(after.current_bytes, before.current_bytes);
    CHECK_EQ_INT(after.alloc_count, before.alloc_count + 1);
}

/* mem_zeroed as mem_calloc: zeroed (in a block that held other bytes
 * before, when malloc reuses it), counted, the product checked. */
static void test_zeroed_zeroes_and_checks_overflow(void)
{
    mem_stats before = mem_get_stats();
    uint32_t *dirty = mem_alloc(4000);
    CHECK(dirty != NULL);
    if (dirty)
        memset(dirty, 0xab, 4000);
    mem_free(dirty);
    uint32_t *p = mem_zeroed(1000, sizeof(uint32_t));
    CHECK(p != NULL);
    int nonzero = 0;
    for (int i = 0; p && i < 1000; i++)
        nonzero += p[i] != 0;
    CHECK_EQ_INT(nonzero, 0);
    CHECK_EQ_INT(mem_get_stats().current_bytes, before.current_bytes + 4000);
    mem_free(p);
    CHECK(mem_zeroed(SIZE_MAX / 2, 4) == NULL);
    CHECK_EQ_INT(mem_get_stats().current_bytes, before.current_bytes);
}

static void test_impossible_sizes_fail_cleanly(void)
{
    mem_stats before = mem_get_stats();
    CHECK(mem_alloc(SIZE_MAX) == NULL);
    CHECK(mem_alloc(SIZE_MAX - 8) == NULL);
    mem_stats after = mem_get_stats();
    CHECK_EQ_INT(after.current_bytes, before.current_bytes);
    CHECK_EQ_INT(after.alloc_count, before.alloc_count);
}

static void test_realloc_keeps_bytes_and_counts_difference(void)
{
    mem_stats before = mem_get_stats();
    unsigned char *p = mem_realloc(NULL, 10); /* counts as an allocation */
    CHECK(p != NULL);
    for (int i = 0; i < 10; i++)
        p[i] = (unsigned char)(i * 7);
    p = mem_realloc(p, 1000);
    CHECK(p != NULL);
    CHECK_EQ_INT(mem_get_stats().current_bytes, before.current_bytes + 1000);
    int same = 0;
    for (int i = 0; i < 10; i++)
        same += p[i] == (unsigned char)(i * 7);
    CHECK_EQ_INT(same, 10);
    p = mem_realloc(p, 5);
    CHECK_EQ_INT(mem_get_stats().current_bytes, before.current_bytes + 5);
    CHECK_EQ_INT(p[4], 28);
    CHECK(mem_realloc(p, SIZE_MAX) == NULL); /* fails: p still valid */
    CHECK_EQ_INT(p[3], 21);
    CHECK_EQ_INT(mem_get_stats().current_bytes, before.current_bytes + 5);
    mem_free(p);
    mem_stats after = mem_get_stats();
    CHECK_EQ_INT(after.current_bytes, before.current_bytes);
    CHECK_EQ_INT(after.alloc_count, before.alloc_count + 1);
}

static void test_zero_size_blocks_are_distinct(void)
{
    void *a = mem_alloc(0), *b = mem_alloc(0);
    CHECK(a != NULL && b != NULL && a != b);
    mem_free(a);
    mem_free(b);
}

static void test_blocks_are_aligned_for_any_type(void)
{
    int misaligned = 0;
    for (size_t size = 1; size <= 64; size++) {
        void *p = mem_alloc(size);
        misaligned += (uintptr_t)p % alignof(max_align_t) != 0;
        mem_free(p);
    }
    CHECK_EQ_INT(misaligned, 0);
}

enum { THREADS = 4, ROUNDS = 20000 };

static void *churn(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS; i++) {
        void *p = mem_alloc((size_t)(i % 97) + 1);
        if (!p)
            return "allocation failed";
        mem_free(p);
    }
    return NULL;
}

static void test_counters_are_thread_safe(void)
{
    mem_stats before = mem_get_stats();
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++)
        CHECK_EQ_INT(pthread_create(&threads[i], NULL, churn, NULL), 0);
    for (int i = 0; i < THREADS; i++) {
        void *result;
        pthread_join(threads[i], &result);
        CHECK(result == NULL);
    }
    mem_stats after = mem_get_stats();
    CHECK_EQ_INT(after.current_bytes, before.current_bytes);
    CHECK_EQ_INT(after.alloc_count, before.alloc_count + THREADS * ROUNDS);
    CHECK(after.peak_bytes >= before.current_bytes + 1);
}

/* Blocks freed behind the caller are all freed once waited for, one
 * free after the other; NULL is ignored. */
static void test_free_behind_frees_every_block(void)
{
    mem_stats before = mem_get_stats();
    for (int k = 0; k < 8; k++) {
        char *p = mem_alloc((size_t)(k + 1) << 16);
        CHECK(p != NULL);
        if (p)
            memset(p, 'x', (size_t)(k + 1) << 16);
        mem_free_behind(p);
    }
    mem_free_behind(NULL);
    mem_free_behind_wait();
    CHECK_EQ_INT(mem_get_stats().current_bytes, before.current_bytes);
    mem_free_behind_wait(); /* nothing left to wait for */
    CHECK_EQ_INT(mem_get_stats().current_bytes, before.current_bytes);
}

/* A block's pages given back before it is freed behind are its own: the
 * blocks beside it, on the heap or mapped, keep their bytes. */
static void test_free_behind_keeps_neighbours(void)
{
    for (size_t size = (size_t)3 << 12; size <= ((size_t)3 << 20); size <<= 8) {
        char *before = mem_alloc(size), *freed = mem_alloc(size), *after = mem_alloc(size);
        CHECK(before && freed && after);
        if (!before || !freed || !after) {
            mem_free(before); /* mem_free takes NULL */
            mem_free(freed);
            mem_free(after);
            return;
        }
        memset(before, 'b', size);
        memset(freed, 'f', size);
        memset(after, 'a', size);
        mem_free_behind(freed);
        mem_free_behind_wait();
        size_t intact = 0;
        for (size_t k = 0; k < size; k++)
            intact += before[k] == 'b' && after[k] == 'a';
        CHECK_EQ_INT(intact, size);
        mem_free(before);
        mem_free(after);
    }
}

/* Pages mapped ahead keep what was written in them, inside the range and
 * beside it, whatever its alignment, and stay writable. */
static void test_populate_keeps_bytes(void)
{
    size_t size = (size_t)1 << 20;
    char *p = mem_alloc(size);
    CHECK(p != NULL);
    if (!p)
        return;
    for (size_t k = 0; k < size; k++)
        p[k] = (char)(k * 7);
    mem_populate(p + 4097, size / 2 - 3);
    size_t intact = 0;
    for (size_t k = 0; k < size; k++)
        intact += p[k] == (char)(k * 7);
    CHECK_EQ_INT(intact, size);
    char *fresh = mem_alloc(size);
    CHECK(fresh != NULL);
    if (fresh) {
        mem_populate(fresh, size);
        memset(fresh, 'w', size);
        CHECK(fresh[0] == 'w' && fresh[size - 1] == 'w');
    }
    mem_free(fresh);
    mem_free(p);
}

/* A discarded block's whole pages read zero and take writes again; its
 * first bytes, in a partial page, keep theirs; it is freed as any. */
static void test_discard_zeroes_whole_pages(void)
{
    size_t size = (size_t)1 << 20;
    mem_stats before = mem_get_stats();
    unsigned char *p = mem_alloc(size);
    CHECK(p != NULL);
    if (!p)
        return;
    memset(p, 0xab, size);
    mem_discard(p);
    CHECK_EQ_INT(p[0], 0xab);
    size_t margin = 2 * (size_t)sysconf(_SC_PAGESIZE), zero = 0;
    for (size_t k = margin; k < size - margin; k++)
        zero += p[k] == 0;
    CHECK_EQ_INT(zero, size - 2 * margin);
    p[size / 2] = 7;
    CHECK_EQ_INT(p[size / 2], 7);
    mem_free(p);
    CHECK_EQ_INT(mem_get_stats().current_bytes, before.current_bytes);
}

int main(void)
{
    RUN(test_alloc_and_free_update_counters);
    RUN(test_peak_survives_free);
    RUN(test_calloc_zeroes_and_checks_overflow);
    RUN(test_zeroed_zeroes_and_checks_overflow);
    RUN(test_impossible_sizes_fail_cleanly);
    RUN(test_realloc_keeps_bytes_and_counts_difference);
    RUN(test_zero_size_blocks_are_distinct);
    RUN(test_blocks_are_aligned_for_any_type);
    RUN(test_counters_are_thread_safe);
    RUN(test_free_behind_frees_every_block);
    RUN(test_free_behind_keeps_neighbours);
    RUN(test_populate_keeps_bytes);
    RUN(test_discard_zeroes_whole_pages);
    return check_exit_code();
}
