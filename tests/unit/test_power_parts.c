/* test_power_parts.c: the loops cut into parts on threads (power_int.h):
 * every item handled exactly once, whatever the number of parts, and the
 * part counts power_parts_for chooses. */
#include "check.h"

#include "power/power_int.h"

#define ITEMS 100003

typedef struct count_job {
    uint64_t n;
    uint8_t seen[ITEMS];
    uint32_t calls[POWER_MAX_PARTS];
} count_job;

static void count_part(void *ctx, uint32_t part, uint32_t parts)
{
    count_job *job = ctx;
    job->calls[part]++;
    uint64_t end = power_part_begin(job->n, part + 1, parts);
    for (uint64_t i = power_part_begin(job->n, part, parts); i < end; i++)
        job->seen[i]++;
}

static void test_every_item_once(void)
{
    static count_job job;
    static const uint64_t sizes[] = {0, 1, 7, 16384, ITEMS};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (uint32_t parts = 1; parts <= POWER_MAX_PARTS; parts++) {
            memset(&job, 0, sizeof job);
            job.n = sizes[s];
            power_run_parts(count_part, &job, parts);
            size_t wrong = 0;
            for (uint64_t i = 0; i < ITEMS; i++)
                wrong += job.seen[i] != (i < job.n);
            CHECK_EQ_INT(wrong, 0);
            for (uint32_t k = 0; k < POWER_MAX_PARTS; k++)
                CHECK_EQ_INT(job.calls[k], k < parts);
        }
}

static void test_part_counts(void)
{
    /* Small loops stay on the calling thread; a part never holds fewer than
     * 16384 items unless the loop is that small. */
    CHECK_EQ_INT(power_parts_for(0), 1);
    CHECK_EQ_INT(power_parts_for(16383), 1);
    CHECK_EQ_INT(power_parts_for(2 * 16384 - 1), 1);
    uint32_t big = power_parts_for(1u << 30);
    CHECK(big >= 1 && big <= POWER_MAX_PARTS);
    CHECK(power_parts_for(3 * 16384) <= 3);
}

int main(void)
{
    RUN(test_every_item_once);
    RUN(test_part_counts);
    return check_exit_code();
}
