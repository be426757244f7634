/* resim_int.h: what the re-simulation's files share: the growing per-net
 * waveform store the levels are written into. */
#ifndef GP_RESIM_RESIM_INT_H
#define GP_RESIM_RESIM_INT_H

#include <stdint.h>

#include "resim/resim.h"
#include "util/vec.h"

VEC_DECLARE(resim_vec_time, int64_t)
VEC_DECLARE(resim_vec_value, uint8_t)

/* Nets' waveforms, each written in one go: net n's events are
 * [first[n], first[n] + count[n]) of time/value; count 0: not yet written. */
typedef struct resim_wave {
    resim_vec_time time;
    resim_vec_value value;
    uint64_t *first, *count;
} resim_wave;

static inline bool resim_wave_push(resim_wave *w, int64_t t, uint8_t v)
{
    return resim_vec_time_push(&w->time, t) && resim_vec_value_push(&w->value, v);
}

/* Simulates the combinational output pin `pin` of instance `inst` into its
 * net's waveform, starting from X at t0_fs; false when out of memory. */
bool resim_gate(const design *dg, uint32_t inst, uint32_t pin, int64_t t0_fs, resim_wave *w,
                resim_stats *stats);

/* Seconds to femtoseconds, rounded. */
int64_t resim_fs(double seconds);

#endif
