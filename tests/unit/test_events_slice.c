/* test_events_slice.c: a span of an event store as a store of its own
 * (events_slice, events_span_of): a handmade store whose slices are
 * written out by hand, and random stores of enough nets to be cut among
 * threads against a loop over every event. */
#include <stdlib.h>

#include "check.h"
#include "events/events.h"

/* A store of n nets from per-net counts and their words. */
static events *store_of(uint32_t n, const uint64_t *counts, const uint64_t *words)
{
    events *ev = calloc(1, sizeof *ev);
    ev->n_nets = n;
    ev->net_ev0 = calloc((size_t)n + 1, sizeof *ev->net_ev0);
    for (uint32_t k = 0; k < n; k++)
        ev->net_ev0[k + 1] = ev->net_ev0[k] + counts[k];
    ev->n_events = ev->net_ev0[n];
    ev->word = calloc(ev->n_events + 1, sizeof *ev->word);
    for (uint64_t k = 0; k < ev->n_events; k++)
        ev->word[k] = words[k];
    ev->end_fs = 99;
    return ev;
}

static void store_free(events *ev)
{
    free(ev->net_ev0);
    free(ev->word);
    free(ev);
}

static void check_same_store(const events *got, const events *want)
{
    CHECK_EQ_INT(got->n_nets, want->n_nets);
    CHECK_EQ_INT(got->n_events, want->n_events);
    CHECK_EQ_INT(got->end_fs, want->end_fs);
    if (got->n_nets != want->n_nets || got->n_events != want->n_events)
        return;
    size_t far = 0;
    for (uint32_t k = 0; k <= want->n_nets; k++)
        far += got->net_ev0[k] != want->net_ev0[k];
    for (uint64_t k = 0; k < want->n_events; k++)
        far += got->word[k] != want->word[k];
    CHECK_EQ_INT(far, 0);
}

#define W(t, v) events_pack(t, v)

/* Net 0: a zero-width pulse at the span's start; net 1: no events; net 2:
 * none in the span, one at its end; net 3: none before it. */
static void test_hand_slices(void)
{
    const uint64_t counts[] = {6, 0, 2, 2};
    const uint64_t words[] = {W(0, 2), W(5, 1), W(10, 0), W(10, 1), W(20, 0), W(30, 1),
                              W(0, 0), W(25, 1), W(12, 1), W(15, 0)};
    events *ev = store_of(4, counts, words);
    const uint64_t mid_counts[] = {4, 0, 1, 2};
    const uint64_t mid_words[] = {W(5, 1), W(10, 0), W(10, 1), W(20, 0), W(0, 0), W(12, 1),
                                  W(15, 0)};
    events *want = store_of(4, mid_counts, mid_words);
    events *got = events_slice(ev, 10, 25);
    CHECK(got != NULL);
    if (got)
        check_same_store(got, want);
    store_free(want);
    events_free(got);
    const uint64_t late_counts[] = {1, 0, 1, 1};
    const uint64_t late_words[] = {W(30, 1), W(25, 1), W(15, 0)};
    want = store_of(4, late_counts, late_words);
    got = events_slice(ev, 40, 50);
    if (got)
        check_same_store(got, want);
    store_free(want);
    events_free(got);
    got = events_slice(ev, INT64_MIN, INT64_MAX);
    if (got)
        check_same_store(got, ev);
    events_free(got);
    store_free(ev);
}

static uint64_t rand_state = 20261206;

/* Knuth's MMIX generator, its high bits. */
static uint64_t rand_next(void)
{
    rand_state = rand_state * 6364136223846793005u + 1442695040888963407u;
    return rand_state >> 33;
}

/* A random store of n nets, up to 8 events each at times 0 .. 99 (ties
 * kept: zero-width pulses). */
static events *random_store(uint32_t n)
{
    uint64_t *counts = malloc(n * sizeof *counts), total = 0;
    for (uint32_t k = 0; k < n; k++)
        total += counts[k] = rand_next() % 9;
    uint64_t *words = malloc((total + 1) * sizeof *words), w = 0;
    for (uint32_t k = 0; k < n; k++) {
        int64_t t = 0;
        for (uint64_t e = 0; e < counts[k]; e++) {
            t += (int64_t)(rand_next() % 25);
            words[w++] = W(t, (uint8_t)(rand_next() % 3));
        }
    }
    events *ev = store_of(n, counts, words);
    free(counts);
    free(words);
    return ev;
}

/* The slice [from, to) of ev by a loop over every event. */
static events *slice_by_loop(const events *ev, int64_t from, int64_t to)
{
    uint64_t *counts = calloc(ev->n_nets, sizeof *counts);
    uint64_t *words = malloc((ev->n_events + 1) * sizeof *words), w = 0;
    for (uint32_t n = 0; n < ev->n_nets; n++) {
        uint64_t before = UINT64_MAX;
        for (uint64_t k = ev->net_ev0[n]; k < ev->net_ev0[n + 1]; k++) {
            int64_t t = events_time(ev, k);
            if (t < from)
                before = k;
            else if (t < to)
                words[w + counts[n]++] = ev->word[k];
        }
        if (before != UINT64_MAX) { /* it goes first */
            for (uint64_t k = counts[n]; k > 0; k--)
                words[w + k] = words[w + k - 1];
            words[w] = ev->word[before];
            counts[n]++;
        }
        w += counts[n];
    }
    events *out = store_of(ev->n_nets, counts, words);
    free(counts);
    free(words);
    return out;
}

/* Stores of enough nets that the copy runs on several threads, sliced at
 * spans inside, around and outside their events. */
static void test_random_slices(void)
{
    static const int64_t spans[][2] = {{30, 60}, {0, 1}, {57, 57}, {-5, 40}, {150, 300}};
    for (int round = 0; round < 2; round++) {
        events *ev = random_store(round == 0 ? 50000 : 300);
        for (size_t s = 0; s < sizeof spans / sizeof spans[0]; s++) {
            events *want = slice_by_loop(ev, spans[s][0], spans[s][1]);
            events *got = events_slice(ev, spans[s][0], spans[s][1]);
            CHECK(got != NULL);
            if (got)
                check_same_store(got, want);
            for (uint32_t n = 0; got && n < ev->n_nets; n += 997) {
                uint64_t lo, hi;
                events_span_of(ev, n, spans[s][0], spans[s][1], &lo, &hi);
                CHECK_EQ_INT(hi - lo, want->net_ev0[n + 1] - want->net_ev0[n]);
            }
            store_free(want);
            events_free(got);
        }
        store_free(ev);
    }
}

int main(void)
{
    RUN(test_hand_slices);
    RUN(test_random_slices);
    return check_exit_code();
}
