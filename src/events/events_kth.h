/* events_kth.h: the time of the k-th earliest event over several nets'
 * waveforms (each an events word array in strictly increasing time), on
 * the host and in kernels alike.  The GPU re-simulation cuts a gate's time
 * into windows at these times, so that each window holds about as many of
 * its inputs' events.
 *
 * The search keeps, per net, the range of its events not yet ruled out:
 * every event before a range is earlier than every event in any range,
 * every event after it later.  Each step takes the middle event of the
 * widest range as a pivot and counts, over all nets, the events before it
 * and at it; the pivot is the answer, or every range loses the events on
 * the pivot's wrong side (the widest at least half of its own), so the
 * steps are at most the nets times the log of the longest waveform. */
#ifndef GP_EVENTS_EVENTS_KTH_H
#define GP_EVENTS_EVENTS_KTH_H

#include <stdint.h>

#include "events/events.h"
#include "util/hostdev.h"

/* One net's events still in the search: word[lo .. hi); cut is scratch. */
typedef struct events_kth_run {
    const uint64_t *word;
    uint64_t lo, hi, cut;
} events_kth_run;

/* The first of r's events after time t, from first_at, its first at or
 * after t (a net's times strictly increase: at most one is at t). */
GP_HOSTDEV uint64_t events_kth_after(const events_kth_run *r, uint64_t first_at, int64_t t)
{
    return first_at + (first_at < r->hi && (int64_t)(r->word[first_at] >> 2) == t);
}

/* The time of the k-th earliest event (k from 1) of run[0 .. n), each run
 * starting as its net's whole waveform (lo 0, hi its count); k must not
 * exceed their total.  The runs are narrowed in place. */
GP_HOSTDEV int64_t events_kth_time(events_kth_run *run, uint32_t n, uint64_t k)
{
    for (;;) {
        uint32_t widest = 0;
        for (uint32_t i = 1; i < n; i++)
            if (run[i].hi - run[i].lo > run[widest].hi - run[widest].lo)
                widest = i;
        const events_kth_run *w = &run[widest];
        int64_t pivot = (int64_t)(w->word[w->lo + (w->hi - w->lo) / 2] >> 2);
        uint64_t before = 0, through = 0;
        for (uint32_t i = 0; i < n; i++) {
            events_kth_run *r = &run[i];
            r->cut = events_words_first_at(r->word, r->lo, r->hi, pivot);
            before += r->cut;
            through += events_kth_after(r, r->cut, pivot);
        }
        if (k > before && k <= through)
            return pivot;
        for (uint32_t i = 0; i < n; i++) {
            events_kth_run *r = &run[i];
            if (k <= before)
                r->hi = r->cut;
            else
                r->lo = events_kth_after(r, r->cut, pivot);
        }
    }
}

#endif
