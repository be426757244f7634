/* events_kth.h: the time of the k-th earliest event over several nets'
 * waveforms (each an events word array in strictly increasing time), or
 * of one within a slack of the k-th, on the host and in kernels alike.
 * The GPU re-simulation cuts a gate's time into windows at these times,
 * so that each window holds about as many of its inputs' events.
 *
 * The search keeps, per net, the range of its events not yet ruled out:
 * every event before a range is earlier than every event in any range,
 * every event after it later.  Each step takes a pivot in the widest range
 * where the k-th would be if the ranges' events were spread evenly (kept
 * within the range's middle half) and counts, over all nets, the events
 * before it and at it; the pivot is the answer, or every range loses the
 * events on the pivot's wrong side (the widest at least a quarter of its
 * own), so the steps are at most the nets times the log of the longest
 * waveform, and one or two where the nets' events are spread alike. */
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
    return first_at + (first_at < r->hi && events_word_time(r->word[first_at]) == t);
}

/* The time of the k-th earliest event (k from 1) of two runs: the split of
 * the first k between them, found by one binary search on how many come
 * from a (a merge path's diagonal). */
GP_HOSTDEV int64_t events_kth_of_two(const events_kth_run *a, const events_kth_run *b,
                                     uint64_t k)
{
    const uint64_t *x = a->word + a->lo, *y = b->word + b->lo;
    uint64_t nx = a->hi - a->lo, ny = b->hi - b->lo;
    uint64_t lo = k > ny ? k - ny : 0, hi = k < nx ? k : nx;
    while (lo < hi) { /* i from x and k - i from y, while x[i] is before y[k - i - 1] */
        uint64_t i = lo + (hi - lo) / 2;
        if (events_word_time(x[i]) < events_word_time(y[k - i - 1]))
            lo = i + 1;
        else
            hi = i;
    }
    int64_t from_x = lo > 0 ? events_word_time(x[lo - 1]) : INT64_MIN;
    int64_t from_y = k > lo ? events_word_time(y[k - lo - 1]) : INT64_MIN;
    return from_x > from_y ? from_x : from_y;
}

/* The pivot's index in the widest run w, where the k-th would be were the
 * runs' events (`ruled_out` before them, `width` in all) spread evenly,
 * kept within w's middle half. */
GP_HOSTDEV uint64_t events_kth_guess(const events_kth_run *w, uint64_t k, uint64_t ruled_out,
                                     uint64_t width)
{
    uint64_t own = w->hi - w->lo, low = own / 4, high = own - 1 - own / 4;
    uint64_t guess = (k - ruled_out - 1) * own / width;
    return w->lo + (guess < low ? low : guess > high ? high : guess);
}

/* The time of an event among run[0 .. n) whose ranks (the events before
 * it plus one, through those at it) come within `slack` of k (k from 1;
 * slack 0: the k-th earliest), each run starting as its net's whole
 * waveform (lo 0, hi its count); k must not exceed their total.  The runs
 * are narrowed in place.  One or two runs (most gates) take a direct index
 * or one binary search, exact. */
GP_HOSTDEV int64_t events_kth_time_near(events_kth_run *run, uint32_t n, uint64_t k,
                                        uint64_t slack)
{
    if (n == 1)
        return events_word_time(run[0].word[run[0].lo + k - 1]);
    if (n == 2)
        return events_kth_of_two(&run[0], &run[1], k);
    for (;;) {
        uint32_t widest = 0;
        uint64_t ruled_out = 0, width = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (run[i].hi - run[i].lo > run[widest].hi - run[widest].lo)
                widest = i;
            ruled_out += run[i].lo;
            width += run[i].hi - run[i].lo;
        }
        const events_kth_run *w = &run[widest];
        int64_t pivot = events_word_time(w->word[events_kth_guess(w, k, ruled_out, width)]);
        uint64_t before = 0, through = 0;
        for (uint32_t i = 0; i < n; i++) {
            events_kth_run *r = &run[i];
            r->cut = events_words_first_at(r->word, r->lo, r->hi, pivot);
            before += r->cut;
            through += events_kth_after(r, r->cut, pivot);
        }
        if (before < k + slack && through + slack >= k)
            return pivot;
        for (uint32_t i = 0; i < n; i++) {
            events_kth_run *r = &run[i];
            if (k + slack <= before)
                r->hi = r->cut;
            else
                r->lo = events_kth_after(r, r->cut, pivot);
        }
    }
}

#endif
