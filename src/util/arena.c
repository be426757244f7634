/* arena.c: bump allocation in a chain of blocks. */
#include "util/arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "util/mem.h"

#define ARENA_FIRST_BLOCK ((size_t)64 * 1024)
#define ARENA_MAX_BLOCK ((size_t)16 * 1024 * 1024)

struct arena_block {
    arena_block *prev;
    size_t size; /* usable bytes after the header */
};

static char *arena_block_data(arena_block *b) { return (char *)(b + 1); }

void arena_init(arena *a) { memset(a, 0, sizeof *a); }

/* Padding that brings `p` up to `align` (a power of two). */
static size_t arena_padding(const char *p, size_t align)
{
    return (size_t)(-(uintptr_t)p & (align - 1));
}

static arena_block *arena_new_block(size_t size)
{
    if (size > SIZE_MAX - sizeof(arena_block))
        return NULL;
    arena_block *b = mem_alloc(sizeof(arena_block) + size);
    if (b)
        b->size = size;
    return b;
}

/* A block of its own for a large request, chained behind the head so that the
 * head's free space stays in use. */
static void *arena_alloc_dedicated(arena *a, size_t size, size_t align)
{
    if (size > SIZE_MAX - align)
        return NULL;
    arena_block *b = arena_new_block(size + align - 1);
    if (!b)
        return NULL;
    if (a->head) {
        b->prev = a->head->prev;
        a->head->prev = b;
    } else {
        b->prev = NULL;
        a->head = b;
        a->next = a->limit = arena_block_data(b) + b->size; /* no room left in it */
    }
    char *p = arena_block_data(b);
    return p + arena_padding(p, align);
}

/* Starts a new head block big enough for `size` bytes at `align`. */
static void *arena_alloc_in_new_block(arena *a, size_t size, size_t align)
{
    size_t block_size = a->next_block_size ? a->next_block_size : ARENA_FIRST_BLOCK;
    arena_block *b = arena_new_block(block_size);
    if (!b)
        return NULL;
    b->prev = a->head;
    a->head = b;
    a->next = arena_block_data(b);
    a->limit = a->next + block_size;
    if (block_size < ARENA_MAX_BLOCK)
        a->next_block_size = block_size * 2;
    else
        a->next_block_size = block_size;
    char *p = a->next + arena_padding(a->next, align);
    a->next = p + size;
    return p;
}

void *arena_alloc(arena *a, size_t size, size_t align)
{
    if (align == 0)
        align = alignof(max_align_t);
    if (align & (align - 1))
        return NULL;
    if (size == 0)
        size = 1;
    size_t pad = arena_padding(a->next, align);
    size_t room = a->head ? (size_t)(a->limit - a->next) : 0;
    void *p;
    if (room >= pad && room - pad >= size) {
        p = a->next + pad;
        a->next += pad + size;
    } else {
        size_t block_size = a->next_block_size ? a->next_block_size : ARENA_FIRST_BLOCK;
        if (size > block_size / 4 || align > block_size / 4)
            p = arena_alloc_dedicated(a, size, align);
        else
            p = arena_alloc_in_new_block(a, size, align);
        if (!p)
            return NULL;
    }
    a->bytes_used += size;
    return p;
}

void *arena_calloc(arena *a, size_t n, size_t size, size_t align)
{
    if (size != 0 && n > SIZE_MAX / size)
        return NULL;
    void *p = arena_alloc(a, n * size, align);
    if (p)
        memset(p, 0, n * size);
    return p;
}

char *arena_strndup(arena *a, const char *s, size_t len)
{
    if (len == SIZE_MAX)
        return NULL;
    char *p = arena_alloc(a, len + 1, 1);
    if (!p)
        return NULL;
    if (len > 0) /* s may be NULL for an empty string */
        memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

static void arena_free_chain(arena_block *b)
{
    while (b) {
        arena_block *prev = b->prev;
        mem_free(b);
        b = prev;
    }
}

void arena_reset(arena *a)
{
    if (a->head) {
        arena_free_chain(a->head->prev);
        a->head->prev = NULL;
        a->next = arena_block_data(a->head);
        a->limit = a->next + a->head->size;
    }
    a->bytes_used = 0;
}

void arena_free_all(arena *a)
{
    arena_free_chain(a->head);
    arena_init(a);
}

size_t arena_bytes_used(const arena *a) { return a->bytes_used; }
