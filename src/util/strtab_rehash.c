/* strtab_rehash.c: the slots moved to a larger table, on threads where the
 * table is large.
 *
 * The new table is cut into ranges of equal length, several a part.  A
 * range's strings have their home slots in one stretch of the old table
 * (a home's low bits are the old home), so its part scans that stretch and
 * the slots its strings spilled past it, takes the strings whose new home
 * lies in the range, and places them by linear probing inside the range.
 * One whose probe reaches the range's end waits for a pass on the calling
 * thread after the parts.  Filling empty slots only, in any order, keeps
 * every probe chain whole, so the table is valid whatever order the parts
 * ran in; slots are never observed, only what a probe finds. */
#include <string.h>

#include "util/mem.h"
#include "util/parts.h"
#include "util/strtab_int.h"
#include "util/vec.h"

/* Smaller tables are rehashed on one thread. */
#define STRTAB_REHASH_PARTS_MIN ((size_t)1 << 20)
#define STRTAB_REHASH_RANGES_A_PART 8

VEC_DECLARE(strtab_slot_vec, strtab_slot)

typedef struct rehash {
    const strtab_slot *old;
    size_t old_count;
    strtab_slot *slots;
    size_t mask;
    uint32_t ranges, range_shift;  /* range r: slots [r << range_shift, (r + 1) << range_shift) */
    strtab_slot_vec *waiting;      /* [parts]: the strings that probed past their range */
    bool *failed;                  /* [parts]: no memory for one that waits */
} rehash;

/* Places s at its first empty slot from its home, before slot `stop` (the
 * table's size: wrapping around); false when it reached `stop` first. */
static bool place(strtab_slot *slots, size_t mask, strtab_slot s, size_t stop)
{
    for (size_t j = s.hash & mask;; j = (j + 1) & mask) {
        if (slots[j].id == STRTAB_NONE) {
            slots[j] = s;
            return true;
        }
        if (j + 1 == stop)
            return false;
    }
}

/* Range r: its slots emptied, then its strings placed. */
static void rehash_range(rehash *h, uint32_t r, uint32_t part)
{
    size_t len = (size_t)1 << h->range_shift, first = (size_t)r << h->range_shift;
    memset(h->slots + first, 0xff, len * sizeof *h->slots); /* every id STRTAB_NONE */
    if (h->old_count == 0)
        return;
    /* Its homes' stretch of the old table (all of it, when that is smaller),
     * then the slots its strings spilled into, up to an empty one. */
    size_t old_mask = h->old_count - 1, stretch = len < h->old_count ? len : h->old_count;
    for (size_t seen = 0, k = first & old_mask;; seen++, k = (k + 1) & old_mask) {
        strtab_slot s = h->old[k];
        if (seen >= stretch && (s.id == STRTAB_NONE || stretch == h->old_count))
            break;
        if (s.id == STRTAB_NONE || (s.hash & h->mask) >> h->range_shift != r)
            continue;
        if (!place(h->slots, h->mask, s, first + len) &&
            !strtab_slot_vec_push(&h->waiting[part], s))
            h->failed[part] = true;
    }
}

static void rehash_part(void *ctx, uint32_t part, uint32_t parts)
{
    rehash *h = ctx;
    uint64_t end = parts_begin(h->ranges, part + 1, parts);
    for (uint64_t r = parts_begin(h->ranges, part, parts); r < end; r++)
        rehash_range(h, (uint32_t)r, part);
}

/* The old slots into `slots` (mask + 1 of them) on threads; false when a
 * part ran out of memory. */
static bool rehash_in_parts(const strtab *st, strtab_slot *slots, size_t mask)
{
    uint32_t parts = parts_for(mask + 1, UINT32_MAX);
    rehash h = {.old = st->slots, .old_count = st->slots ? st->slot_mask + 1 : 0,
                .slots = slots, .mask = mask, .range_shift = 0,
                .waiting = mem_calloc(parts, sizeof *h.waiting),
                .failed = mem_calloc(parts, sizeof *h.failed)};
    while (((size_t)1 << h.range_shift) <= mask) /* one range of all the slots */
        h.range_shift++;
    for (h.ranges = 1; h.ranges < STRTAB_REHASH_RANGES_A_PART * parts && h.range_shift > 10;
         h.ranges *= 2)
        h.range_shift--; /* ranges of 1024 slots at least */
    bool ok = h.waiting && h.failed;
    if (ok)
        parts_run(rehash_part, &h, parts);
    for (uint32_t p = 0; ok && p < parts; p++) {
        ok = !h.failed[p];
        for (size_t i = 0; ok && i < h.waiting[p].len; i++)
            place(slots, mask, h.waiting[p].data[i], 0);
    }
    for (uint32_t p = 0; h.waiting && p < parts; p++)
        strtab_slot_vec_free(&h.waiting[p]);
    mem_free(h.waiting);
    mem_free(h.failed);
    return ok;
}

static void rehash_in_order(const strtab *st, strtab_slot *slots, size_t mask)
{
    memset(slots, 0xff, (mask + 1) * sizeof *slots); /* every id STRTAB_NONE */
    for (size_t i = 0; st->slots && i <= st->slot_mask; i++)
        if (st->slots[i].id != STRTAB_NONE)
            place(slots, mask, st->slots[i], 0);
}

bool strtab_rehash(strtab *st, size_t slot_count)
{
    if (slot_count > SIZE_MAX / sizeof(strtab_slot))
        return false;
    strtab_slot *slots = mem_alloc(slot_count * sizeof(strtab_slot));
    if (!slots)
        return false;
    if (slot_count >= STRTAB_REHASH_PARTS_MIN) {
        if (!rehash_in_parts(st, slots, slot_count - 1)) {
            mem_free(slots);
            return false;
        }
    } else {
        rehash_in_order(st, slots, slot_count - 1);
    }
    mem_free(st->slots);
    st->slots = slots;
    st->slot_mask = slot_count - 1;
    return true;
}
