/* test_events_kth.c: the k-th earliest event over several waveforms, and
 * one within a slack of it (events_kth.h), against every time of the
 * waveforms merged and sorted. */
#include <stdint.h>

#include "check.h"
#include "events/events_kth.h"

#define KTH_NETS 6
#define KTH_MAX_EVENTS 64

static uint64_t kth_rand_state = 88172645463325252u;

static uint64_t kth_rand(void)
{
    kth_rand_state ^= kth_rand_state << 13;
    kth_rand_state ^= kth_rand_state >> 7;
    kth_rand_state ^= kth_rand_state << 17;
    return kth_rand_state;
}

static int compare_time(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Whether t is a time of all[0 .. total) (sorted) whose ranks come within
 * slack of k. */
static int near_kth(const int64_t *all, uint64_t total, uint64_t k, uint64_t slack, int64_t t)
{
    uint64_t before = 0, through = 0;
    for (uint64_t i = 0; i < total; i++) {
        before += all[i] < t;
        through += all[i] <= t;
    }
    return through > before && before < k + slack && through + slack >= k;
}

/* n waveforms of up to KTH_MAX_EVENTS events in strictly increasing time,
 * steps of 1 to `step` fs (a small step: many times shared across nets);
 * every k from 1 to their total, exactly and within `slack`.  Returns the
 * wrong answers. */
static int check_case(uint32_t n, uint64_t step, uint64_t slack)
{
    uint64_t word[KTH_NETS][KTH_MAX_EVENTS], count[KTH_NETS];
    int64_t all[KTH_NETS * KTH_MAX_EVENTS];
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        int64_t t = (int64_t)(kth_rand() % 4);
        count[i] = kth_rand() % (KTH_MAX_EVENTS + 1);
        for (uint64_t e = 0; e < count[i]; e++) {
            word[i][e] = (uint64_t)t << 2 | (kth_rand() % 3);
            all[total++] = t;
            t += 1 + (int64_t)(kth_rand() % step);
        }
    }
    qsort(all, total, sizeof *all, compare_time);
    int wrong = 0;
    for (uint64_t k = 1; k <= total; k++) {
        events_kth_run run[KTH_NETS];
        for (uint32_t i = 0; i < n; i++)
            run[i] = (events_kth_run){word[i], 0, count[i], 0};
        wrong += events_kth_time_near(run, n, k, 0) != all[k - 1];
        for (uint32_t i = 0; i < n; i++)
            run[i] = (events_kth_run){word[i], 0, count[i], 0};
        wrong += !near_kth(all, total, k, slack, events_kth_time_near(run, n, k, slack));
    }
    return wrong;
}

static void test_kth_equals_the_merged_order(void)
{
    int wrong = 0;
    for (int trial = 0; trial < 3000; trial++)
        wrong += check_case(1 + (uint32_t)(trial % KTH_NETS), trial % 3 ? 3 : 1000,
                            (uint64_t)(trial % 7));
    CHECK_EQ_INT(wrong, 0);
}

static void test_kth_with_empty_and_single_waveforms(void)
{
    const uint64_t one[] = {7u << 2 | 1}, two[] = {3u << 2, 7u << 2 | 2};
    events_kth_run run[3] = {{NULL, 0, 0, 0}, {one, 0, 1, 0}, {two, 0, 2, 0}};
    int64_t expect[] = {3, 7, 7};
    for (uint64_t k = 1; k <= 3; k++) {
        events_kth_run r[3] = {run[0], run[1], run[2]};
        CHECK_EQ_INT(events_kth_time_near(r, 3, k, 0), expect[k - 1]);
    }
}

int main(void)
{
    RUN(test_kth_equals_the_merged_order);
    RUN(test_kth_with_empty_and_single_waveforms);
    return check_exit_code();
}
