/* test_arena.c: the region allocator. */
#include <stdalign.h>
#include <stdint.h>

#include "check.h"
#include "util/arena.h"
#include "util/mem.h"

static void test_alignment_and_bytes_used(void)
{
    arena a;
    arena_init(&a);
    static const size_t aligns[] = {1, 2, 4, 8, 16, 64, 4096};
    size_t used = 0;
    int misaligned = 0;
    for (int round = 0; round < 50; round++) {
        for (size_t i = 0; i < sizeof aligns / sizeof aligns[0]; i++) {
            size_t size = (size_t)round * 3 + i + 1;
            char *p = arena_alloc(&a, size, aligns[i]);
            CHECK(p != NULL);
            misaligned += (uintptr_t)p % aligns[i] != 0;
            used += size;
        }
    }
    CHECK_EQ_INT(misaligned, 0);
    CHECK_EQ_INT(arena_bytes_used(&a), used);
    void *p = arena_alloc(&a, 8, 0);
    CHECK(p != NULL && (uintptr_t)p % alignof(max_align_t) == 0);
    CHECK(arena_alloc(&a, 8, 3) == NULL);
    CHECK(arena_alloc(&a, 8, 24) == NULL);
    arena_free_all(&a);
}

static void test_allocations_do_not_overlap(void)
{
    arena a;
    arena_init(&a);
    enum { N = 5000 };
    static unsigned char *ptrs[N];
    for (int i = 0; i < N; i++) {
        size_t size = (size_t)(i % 300) + 1;
        ptrs[i] = arena_alloc(&a, size, (size_t)1 << (i % 3)); /* 1, 2, 4 */
        memset(ptrs[i], i & 0xff, size);
    }
    int damaged = 0;
    for (int i = 0; i < N; i++)
        for (size_t k = 0; k < (size_t)(i % 300) + 1; k++)
            damaged += ptrs[i][k] != (i & 0xff);
    CHECK_EQ_INT(damaged, 0);
    arena_free_all(&a);
}

/* 10000 pieces of 1000 bytes: blocks of 64K, 128K, ... 8M hold 65, 131, 262,
 * 524, 1048, 2097, 4194, 8388 pieces: 8 blocks in all. */
static void test_blocks_grow_geometrically(void)
{
    mem_stats before = mem_get_stats();
    arena a;
    arena_init(&a);
    for (int i = 0; i < 10000; i++)
        CHECK(arena_alloc(&a, 1000, 1) != NULL);
    CHECK_EQ_INT(mem_get_stats().alloc_count - before.alloc_count, 8);
    arena_free_all(&a);
    CHECK_EQ_INT(mem_get_stats().current_bytes, before.current_bytes);
}

static void test_big_request_gets_its_own_block(void)
{
    arena a;
    arena_init(&a);
    char *first = arena_alloc(&a, 10, 1);
    mem_stats before = mem_get_stats();
    char *big = arena_alloc(&a, 1 << 20, 1);
    CHECK(big != NULL);
    memset(big, 1, 1 << 20);
    CHECK_EQ_INT(mem_get_stats().alloc_count, before.alloc_count + 1);
    char *second = arena_alloc(&a, 10, 1);
    CHECK(second == first + 10); /* the first block's room is still in use */
    CHECK_EQ_INT(arena_bytes_used(&a), 10 + (1 << 20) + 10);
    arena_free_all(&a);
}

static void test_reset_reuses_the_block(void)
{
    mem_stats before = mem_get_stats();
    arena a;
    arena_init(&a);
    char *p = arena_alloc(&a, 100, 8);
    arena_alloc(&a, 200, 8);
    arena_reset(&a);
    CHECK_EQ_INT(arena_bytes_used(&a), 0);
    CHECK(arena_alloc(&a, 100, 8) == p);
    CHECK_EQ_INT(mem_get_stats().alloc_count, before.alloc_count + 1);

    for (int i = 0; i < 1000; i++) /* several blocks, and a big one */
        arena_alloc(&a, 1000, 1);
    arena_alloc(&a, 5 << 20, 1);
    size_t spread = mem_get_stats().current_bytes;
    arena_reset(&a);
    size_t kept = mem_get_stats().current_bytes;
    CHECK(kept < spread && kept > before.current_bytes);
    arena_free_all(&a);
    CHECK_EQ_INT(mem_get_stats().current_bytes, before.current_bytes);
    CHECK(arena_alloc(&a, 1, 1) != NULL); /* usable after free_all */
    arena_free_all(&a);
}

static void test_calloc_and_strndup(void)
{
    arena a;
    arena_init(&a);
    arena_alloc(&a, 64, 1);
    uint64_t *z = arena_calloc(&a, 100, sizeof(uint64_t), alignof(uint64_t));
    int nonzero = 0;
    for (int i = 0; i < 100; i++)
        nonzero += z[i] != 0;
    CHECK_EQ_INT(nonzero, 0);
    CHECK(arena_calloc(&a, SIZE_MAX / 2, 4, 1) == NULL);

    char *s = arena_strndup(&a, "ab\0cdXYZ", 5);
    CHECK(s != NULL && memcmp(s, "ab\0cd\0", 6) == 0);
    CHECK_EQ_STR(arena_strndup(&a, "hello world", 5), "hello");
    CHECK_EQ_STR(arena_strndup(&a, "", 0), "");

    char *e1 = arena_alloc(&a, 0, 1), *e2 = arena_alloc(&a, 0, 1);
    CHECK(e1 != NULL && e2 != NULL && e1 != e2);
    arena_free_all(&a);
}

int main(void)
{
    RUN(test_alignment_and_bytes_used);
    RUN(test_allocations_do_not_overlap);
    RUN(test_blocks_grow_geometrically);
    RUN(test_big_request_gets_its_own_block);
    RUN(test_reset_reuses_the_block);
    RUN(test_calloc_and_strndup);
    return check_exit_code();
}
