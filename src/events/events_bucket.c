/* events_bucket.c: the buckets' memory (events_int.h).  A range's buckets,
 * one per part, take blocks carved from the range's chunks, so that a
 * bucket grows without moving and a range's memory goes back to the system
 * in a few large pieces once its store is written: reallocating each
 * bucket as it grew, and freeing each, cost an unmapping (and a TLB flush
 * on every core the process runs on) apiece. */
#include <string.h>

#include "events/events_int.h"
#include "util/mem.h"

#define POOL_FIRST_CHUNK ((size_t)64 << 10) /* a small dump's ranges stay small */
#define POOL_LAST_CHUNK ((size_t)4 << 20)
/* Each chunk starts with the pointer to the one before, rounded so that
 * the blocks after it stay aligned. */
#define POOL_HEADER sizeof(max_align_t)

gp_status events_pools_make(collector *c)
{
    c->pools = mem_calloc(c->n_ranges, sizeof *c->pools);
    if (!c->pools)
        return events_no_memory(c);
    for (uint32_t r = 0; r < c->n_ranges; r++) {
        pthread_mutex_init(&c->pools[r].lock, NULL);
        c->pools[r].next_size = POOL_FIRST_CHUNK;
    }
    return GP_OK;
}

/* A block from pool p, a new chunk first when the last is used up. */
static bucket_block *pool_take(range_pool *p)
{
    if ((size_t)(p->end - p->at) < sizeof(bucket_block)) {
        char *chunk = mem_alloc(p->next_size);
        if (!chunk)
            return NULL;
        memcpy(chunk, &p->chunks, sizeof p->chunks);
        p->chunks = chunk;
        p->at = chunk + POOL_HEADER;
        p->end = chunk + p->next_size;
        p->next_size = p->next_size < POOL_LAST_CHUNK ? 2 * p->next_size : POOL_LAST_CHUNK;
    }
    bucket_block *k = (bucket_block *)p->at;
    p->at += sizeof(bucket_block);
    return k;
}

bucket_block *events_bucket_block(collector *c, uint32_t range, part_bucket *b)
{
    range_pool *p = &c->pools[range];
    pthread_mutex_lock(&p->lock);
    bucket_block *k = pool_take(p);
    pthread_mutex_unlock(&p->lock);
    if (!k)
        return NULL;
    k->next = NULL;
    k->len = 0;
    if (b->last)
        b->last->next = k;
    else
        b->first = k;
    b->last = k;
    return k;
}

void events_pool_discard(collector *c, uint32_t range)
{
    for (void *chunk = c->pools[range].chunks, *before; chunk; chunk = before) {
        memcpy(&before, chunk, sizeof before);
        mem_discard(chunk);
    }
}

void events_pool_release(collector *c, uint32_t range)
{
    range_pool *p = &c->pools[range];
    while (p->chunks) {
        void *before;
        memcpy(&before, p->chunks, sizeof before);
        mem_free(p->chunks);
        p->chunks = before;
    }
    p->at = p->end = NULL;
    p->next_size = POOL_FIRST_CHUNK;
}

void events_pools_free(collector *c)
{
    for (uint32_t r = 0; c->pools && r < c->n_ranges; r++) {
        events_pool_release(c, r);
        pthread_mutex_destroy(&c->pools[r].lock);
    }
    mem_free(c->pools);
    c->pools = NULL;
}
