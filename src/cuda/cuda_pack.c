/* cuda_pack.c: packing events for the device (cuda_int.h): one int64 per
 * event, time_fs << 2 | value, written on several host threads. */
#include "cuda/cuda_int.h"

#include <pthread.h>

#define PACK_MAX_THREADS 64

typedef struct pack_part {
    const events *ev;
    uint64_t first, n;
    int64_t *dst;
} pack_part;

static void *pack_part_run(void *arg)
{
    const pack_part *p = arg;
    const int64_t *time = p->ev->time_fs + p->first;
    const uint8_t *value = p->ev->value + p->first;
    for (uint64_t i = 0; i < p->n; i++)
        p->dst[i] = (int64_t)((uint64_t)time[i] << 2 | value[i]);
    return NULL;
}

void cuda_pack_events(const events *ev, uint64_t first, uint64_t n, int64_t *dst, int threads)
{
    int parts = threads < 1 ? 1 : threads > PACK_MAX_THREADS ? PACK_MAX_THREADS : threads;
    pack_part part[PACK_MAX_THREADS];
    pthread_t thread[PACK_MAX_THREADS];
    bool started[PACK_MAX_THREADS] = {false};
    uint64_t step = (n + (uint64_t)parts - 1) / (uint64_t)parts;
    for (int i = 0; i < parts; i++) {
        uint64_t a = (uint64_t)i * step < n ? (uint64_t)i * step : n;
        uint64_t b = a + step < n ? a + step : n;
        part[i] = (pack_part){ev, first + a, b - a, dst + a};
        /* Part 0 runs on the calling thread; a part whose thread cannot start
         * runs there too. */
        started[i] = i > 0 && pthread_create(&thread[i], NULL, pack_part_run, &part[i]) == 0;
    }
    for (int i = 0; i < parts; i++)
        if (!started[i])
            pack_part_run(&part[i]);
    for (int i = 1; i < parts; i++)
        if (started[i])
            pthread_join(thread[i], NULL);
}
