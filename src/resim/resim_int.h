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

/* A worker thread's output: the waveforms of the gates it simulated, one
 * after the other. */
typedef struct resim_trace {
    resim_vec_time time;
    resim_vec_value value;
} resim_trace;

/* Simulates the combinational output pin `pin` of instance `inst`, starting
 * from X at t0_fs, reading its inputs' finished waveforms from `w` (which it
 * does not change, so gates of one level may run in parallel) and appending
 * its output's waveform to `out`; false when out of memory. */
bool resim_gate(const design *dg, uint32_t inst, uint32_t pin, int64_t t0_fs,
                const resim_wave *w, resim_trace *out, resim_stats *stats);

/* Simulates every combinational output pin into `w` (whose other nets are
 * filled), level by level on `threads` threads (0: every core); the result
 * does not depend on the thread count.  False when out of memory. */
bool resim_run_levels(const design *dg, int64_t t0_fs, uint32_t threads, resim_wave *w,
                      resim_stats *stats);

/* Seconds to femtoseconds, rounded. */
int64_t resim_fs(double seconds);
/* The smallest delay per output direction (fs; 0 where no arc has one) over
 * instance inst's arcs into its library pin out_pin: the delay arcs related
 * to input `related`, or with related LIB_NONE the rising/falling-edge arcs
 * (clock to Q). */
void resim_smallest_delay(const design *dg, uint32_t inst, uint32_t out_pin, int32_t related,
                          int64_t delay[2]);

#endif
