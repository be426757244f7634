/* resim_store.c: the chunked waveform store of resim_int.h. */
#include "resim/resim_int.h"

#include <string.h>

#include "util/mem.h"

/* Events per chunk (576 KiB); a net longer than that gets a chunk of its own. */
#define RESIM_CHUNK_EVENTS ((size_t)1 << 16)

bool resim_store_grow(resim_store *s)
{
    size_t n = s->len - s->first, cap = RESIM_CHUNK_EVENTS;
    while (cap < 2 * n)
        cap *= 2;
    if (cap > SIZE_MAX / (sizeof *s->time + 1) || !vec_ptr_reserve(&s->chunks, s->chunks.len + 1))
        return false;
    int64_t *time = mem_alloc(cap * (sizeof *s->time + 1));
    if (!time)
        return false;
    uint8_t *value = (uint8_t *)(time + cap);
    if (n) {
        memcpy(time, s->time + s->first, n * sizeof *time);
        memcpy(value, s->value + s->first, n);
    }
    vec_ptr_push(&s->chunks, time);
    s->time = time;
    s->value = value;
    s->first = 0;
    s->len = n;
    s->cap = cap;
    return true;
}

void resim_store_free(resim_store *s)
{
    for (size_t k = 0; k < s->chunks.len; k++)
        mem_free(s->chunks.data[k]);
    vec_ptr_free(&s->chunks);
    memset(s, 0, sizeof *s);
}
