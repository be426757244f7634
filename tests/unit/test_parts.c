/* test_parts.c: loops cut into parts on threads (util/parts.h): every item
 * handled exactly once, every part run once, whatever the number of parts,
 * the part counts parts_for chooses, and parts cut by weight. */
#include "check.h"

#include "util/parts.h"

#define ITEMS 100003
#define MOST_PARTS 12

typedef struct count_job {
    uint64_t n;
    uint8_t seen[ITEMS];
    uint32_t calls[MOST_PARTS];
} count_job;

static void count_part(void *ctx, uint32_t part, uint32_t parts)
{
    count_job *job = ctx;
    job->calls[part]++;
    uint64_t end = parts_begin(job->n, part + 1, parts);
    for (uint64_t i = parts_begin(job->n, part, parts); i < end; i++)
        job->seen[i]++;
}

static void test_every_item_once(void)
{
    static count_job job;
    static const uint64_t sizes[] = {0, 1, 7, PARTS_MIN_ITEMS, ITEMS};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (uint32_t parts = 1; parts <= MOST_PARTS; parts++) {
            memset(&job, 0, sizeof job);
            job.n = sizes[s];
            parts_refused refused = parts_run(count_part, &job, parts);
            CHECK_EQ_INT(refused.parts, 0); /* a dozen threads are never refused here */
            CHECK_EQ_INT(refused.err, 0);
            size_t wrong = 0;
            for (uint64_t i = 0; i < ITEMS; i++)
                wrong += job.seen[i] != (i < job.n);
            CHECK_EQ_INT(wrong, 0);
            for (uint32_t k = 0; k < MOST_PARTS; k++)
                CHECK_EQ_INT(job.calls[k], k < parts);
        }
}

static void test_part_counts(void)
{
    /* Small loops stay on the calling thread; a part never holds fewer than
     * PARTS_MIN_ITEMS items unless the loop is that small; never more than
     * `max` parts. */
    CHECK_EQ_INT(parts_for(0, 8), 1);
    CHECK_EQ_INT(parts_for(PARTS_MIN_ITEMS - 1, 8), 1);
    CHECK_EQ_INT(parts_for(2 * PARTS_MIN_ITEMS - 1, 8), 1);
    uint32_t big = parts_for(1u << 30, 8);
    CHECK(big >= 1 && big <= 8);
    CHECK(parts_for(3 * PARTS_MIN_ITEMS, 8) <= 3);
    CHECK_EQ_INT(parts_for(1u << 30, 1), 1);
    /* With the caller's least items a part: the same rules at its size. */
    uint32_t cores = parts_online_cores();
    CHECK_EQ_INT(parts_for_items(3000, 64, 1024), cores < 2 ? cores : 2);
    CHECK_EQ_INT(parts_for_items(1023, 64, 1024), 1);
    CHECK_EQ_INT(parts_for_items(1u << 20, 64, 1024), cores < 64 ? cores : 64);
    CHECK_EQ_INT(parts_for_items(1u << 20, 3, 1), cores < 3 ? cores : 3);
    CHECK_EQ_INT(parts_for_items(5, 64, 0), cores < 5 ? cores : 5);
    CHECK_EQ_INT(parts_for_items(3 * PARTS_MIN_ITEMS, 8, PARTS_MIN_ITEMS),
                 parts_for(3 * PARTS_MIN_ITEMS, 8));
}

/* Ten items weighing 0, 0, 5, 1, 90, 0, 1, 1, 2, 0 (offsets by hand): the
 * parts follow each other and take every item once; an item goes to the
 * part in whose share its weight begins (the heavy one to the first). */
static void test_parts_by_weight(void)
{
    static const uint64_t offset[] = {0, 0, 0, 5, 6, 96, 96, 97, 98, 100, 100};
    uint32_t first, end;
    parts_range_by(offset, 10, 0, 1, &first, &end);
    CHECK(first == 0 && end == 10);
    for (uint32_t parts = 1; parts <= 7; parts++) {
        uint32_t at = 0;
        for (uint32_t p = 0; p < parts; p++) {
            parts_range_by(offset, 10, p, parts, &first, &end);
            CHECK_EQ_INT(first, at);
            CHECK(end >= first);
            at = end;
        }
        CHECK_EQ_INT(at, 10);
    }
    parts_range_by(offset, 10, 0, 4, &first, &end); /* shares from 0, 25, 50, 75 */
    CHECK(first == 0 && end == 5);                  /* item 4 weighs from 6 to 96 */
    parts_range_by(offset, 10, 1, 4, &first, &end);
    CHECK(first == 5 && end == 5); /* no item's weight begins in [25, 75) */
    parts_range_by(offset, 10, 2, 4, &first, &end);
    CHECK(first == 5 && end == 5);
    parts_range_by(offset, 10, 3, 4, &first, &end);
    CHECK(first == 5 && end == 10);
    parts_range_by(offset, 10, 1, 2, &first, &end); /* from 50: items 5.. */
    CHECK(first == 5 && end == 10);
}

int main(void)
{
    RUN(test_every_item_once);
    RUN(test_part_counts);
    RUN(test_parts_by_weight);
    return check_exit_code();
}
