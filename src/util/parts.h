/* parts.h: a loop over independent items cut into parts, each part run on a
 * thread of its own (the calling thread runs part 0).  Every part runs
 * exactly once: a part whose thread the system refuses runs on the calling
 * thread after part 0, so callers may split work by part or share it out
 * through a counter. */
#ifndef GP_UTIL_PARTS_H
#define GP_UTIL_PARTS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fewer items than this per part do not pay for a thread (parts_for). */
#define PARTS_MIN_ITEMS 16384

/* One part of the caller's loop: items [parts_begin(n, part, parts),
 * parts_begin(n, part + 1, parts)) when it splits by item. */
typedef void parts_fn(void *ctx, uint32_t part, uint32_t parts);

static inline uint64_t parts_begin(uint64_t n, uint32_t part, uint32_t parts)
{
    return n * part / parts;
}

/* Part `part` of `parts` of n items weighed by an offsets table (item i
 * weighs offset[i + 1] - offset[i]; n + 1 entries, offset[0] = 0): its
 * items [*first, *end), cut where the parts' shares of the whole weight
 * begin.  Each item falls in one part. */
void parts_range_by(const uint64_t *offset, uint32_t n, uint32_t part, uint32_t parts,
                    uint32_t *first, uint32_t *end);

/* The cores online (at least 1): "one per core" everywhere means this. */
uint32_t parts_online_cores(void);

/* The threads a caller's option asks for: `asked`, or one per online core
 * for 0. */
uint32_t parts_threads(uint32_t asked);

/* The parts for a loop of n items: one per online core, at most `max`,
 * fewer where parts would hold under PARTS_MIN_ITEMS items; at least 1. */
uint32_t parts_for(uint64_t n, uint32_t max);
/* The same with the caller's own least items a part, for loops whose items
 * take long (a microsecond or more: fewer of them pay for a thread). */
uint32_t parts_for_items(uint64_t n, uint32_t max, uint64_t min_items);

/* What parts_run could not do as asked: the parts that ran on the calling
 * thread because the system refused them a thread, and the first refusal's
 * error number; {0, 0} when every part had its own. */
typedef struct parts_refused {
    uint32_t parts;
    int err;
} parts_refused;

/* Runs fn on every part (parts >= 1) and returns when all are done.  Parts
 * must not write what another part reads or writes. */
parts_refused parts_run(parts_fn *fn, void *ctx, uint32_t parts);

#ifdef __cplusplus
}
#endif

#endif
