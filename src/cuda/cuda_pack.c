/* cuda_pack.c: packing events for the device (cuda_int.h): one int64 per
 * event, time_fs << 2 | value, on the calling thread (cuda_upload.cu runs
 * one packer per worker thread). */
#include "cuda/cuda_int.h"

void cuda_pack_events(const events *ev, uint64_t first, uint64_t n, int64_t *dst)
{
    const int64_t *time = ev->time_fs + first;
    const uint8_t *value = ev->value + first;
    for (uint64_t i = 0; i < n; i++)
        dst[i] = (int64_t)((uint64_t)time[i] << 2 | value[i]);
}
