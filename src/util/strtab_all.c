/* strtab_all.c: strtab_intern_all: a batch of strings interned on threads,
 * with the ids that interning them one by one would give.
 *
 * The slots are cut into ranges, several a part.  Each string is taken by the
 * range of its home slot, in input order, and probes only inside that range
 * (so copies of one string, which share a home, meet in one range).  A string
 * new to the table takes a provisional id, STRTAB_PROV | its place in the
 * batch; one whose probe runs out of its range waits for a pass on the
 * calling thread after the parts, in input order.  Then the new strings get
 * their ids in input order, which replace the provisional ones in their
 * slots and in ids[].  Filling empty slots only, in any order, keeps every probe
 * chain whole, so the table is valid whatever order the parts ran in. */
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/parts.h"
#include "util/strtab_int.h"

#define STRTAB_PROV 0x80000000u
#define STRTAB_WAITS UINT32_MAX /* ids[i] while string i waits for the calling thread */
#define STRTAB_RANGES_A_PART 8   /* ranges differ in work: several a part even it out */
/* How far ahead a range's probes fetch, in strings (fetch_ahead). */
#define STRTAB_AHEAD_REF 64
#define STRTAB_AHEAD_SLOT 40
#define STRTAB_AHEAD_ENTRY 20
#define STRTAB_AHEAD_BYTES 8

typedef struct batch {
    strtab *st;
    const strtab_ref *refs;
    size_t n;
    uint32_t *ids;     /* provisional or final ids, then final */
    uint32_t *hash;    /* per string; a new string's final id once ids are given */
    uint32_t *order;   /* the strings by range, in input order within one */
    uint32_t *slot_of; /* a new string's slot (load 1/2: fewer than 2^32 slots) */
    uint64_t *cursor;  /* [parts][ranges]: counts, then each part's next place in order */
    uint64_t *range0;  /* [ranges + 1]: each range's first place in order */
    uint64_t *waiting; /* [ranges]: its strings that wait, kept at the front of its places */
    uint64_t *new_count, *new_bytes; /* [parts], then their prefix sums */
    char *copies;      /* the new strings' bytes, NUL-terminated */
    uint32_t parts, ranges, range_shift;
} batch;

static uint32_t range_of(const batch *b, uint32_t hash)
{
    return (uint32_t)((hash & b->st->slot_mask) >> b->range_shift);
}

static bool same_string(const batch *b, uint32_t id, const strtab_ref *r)
{
    const char *s;
    size_t len;
    if (id & STRTAB_PROV) {
        s = b->refs[id & ~STRTAB_PROV].s;
        len = b->refs[id & ~STRTAB_PROV].len;
    } else {
        s = b->st->entries[id].str;
        len = b->st->entries[id].len;
    }
    return len == r->len && memcmp(s, r->s, len) == 0;
}

/* Looks string i up from its home slot up to slot `stop` (exclusive; the
 * table's size: wrapping around), taking an empty slot when it is new;
 * false when it reached `stop` first. */
static bool probe(batch *b, uint32_t i, size_t stop)
{
    strtab_slot *slots = b->st->slots;
    uint32_t hash = b->hash[i];
    for (size_t j = hash & b->st->slot_mask;; j = (j + 1) & b->st->slot_mask) {
        if (slots[j].id == STRTAB_NONE) {
            slots[j] = (strtab_slot){STRTAB_PROV | i, hash};
            b->ids[i] = STRTAB_PROV | i;
            b->slot_of[i] = (uint32_t)j;
            return true;
        }
        if (slots[j].hash == hash && same_string(b, slots[j].id, &b->refs[i])) {
            b->ids[i] = slots[j].id;
            return true;
        }
        if (j + 1 == stop)
            return false;
    }
}

static void hash_part(void *ctx, uint32_t part, uint32_t parts)
{
    batch *b = ctx;
    uint64_t *count = &b->cursor[(size_t)part * b->ranges];
    uint64_t end = parts_begin(b->n, part + 1, parts);
    for (uint64_t i = parts_begin(b->n, part, parts); i < end; i++) {
        b->hash[i] = strtab_hash(b->refs[i].s, b->refs[i].len);
        count[range_of(b, b->hash[i])]++;
    }
}

static void scatter_part(void *ctx, uint32_t part, uint32_t parts)
{
    batch *b = ctx;
    uint64_t *cursor = &b->cursor[(size_t)part * b->ranges];
    uint64_t end = parts_begin(b->n, part + 1, parts);
    for (uint64_t i = parts_begin(b->n, part, parts); i < end; i++)
        b->order[cursor[range_of(b, b->hash[i])]++] = (uint32_t)i;
}

/* The string that the k-th of a range's probes compares with first: its
 * home slot's, fetched ahead in steps (its ref, then its bytes and home
 * slot, then the entry that slot names, then that entry's bytes), since
 * the strings come in no order the caches follow.  Inlined always: GCC
 * drops a call to a function of prefetches alone as one without effect. */
__attribute__((always_inline)) static inline void fetch_ahead(const batch *b, uint64_t k,
                                                              uint64_t end)
{
    const strtab_slot *slots = b->st->slots;
    if (k + STRTAB_AHEAD_REF < end) {
        uint32_t i = b->order[k + STRTAB_AHEAD_REF];
        __builtin_prefetch(&b->refs[i]);
        __builtin_prefetch(&b->hash[i]);
    }
    if (k + STRTAB_AHEAD_SLOT < end) {
        uint32_t i = b->order[k + STRTAB_AHEAD_SLOT];
        __builtin_prefetch(b->refs[i].s);
        __builtin_prefetch(&slots[b->hash[i] & b->st->slot_mask]);
    }
    if (k + STRTAB_AHEAD_ENTRY < end) {
        uint32_t i = b->order[k + STRTAB_AHEAD_ENTRY];
        uint32_t id = slots[b->hash[i] & b->st->slot_mask].id;
        if (id != STRTAB_NONE && !(id & STRTAB_PROV))
            __builtin_prefetch(&b->st->entries[id]);
    }
    if (k + STRTAB_AHEAD_BYTES < end) {
        uint32_t i = b->order[k + STRTAB_AHEAD_BYTES];
        const strtab_slot *home = &slots[b->hash[i] & b->st->slot_mask];
        if (home->id != STRTAB_NONE && !(home->id & STRTAB_PROV) && home->hash == b->hash[i])
            __builtin_prefetch(b->st->entries[home->id].str);
    }
}

static void probe_range(batch *b, uint32_t range)
{
    size_t stop = ((size_t)range + 1) << b->range_shift;
    uint64_t waits = b->range0[range], end = b->range0[range + 1];
    for (uint64_t k = b->range0[range]; k < end; k++) {
        fetch_ahead(b, k, end);
        uint32_t i = b->order[k];
        if (!probe(b, i, stop)) {
            b->ids[i] = STRTAB_WAITS;
            b->order[waits++] = i; /* behind k: already read */
        }
    }
    b->waiting[range] = waits - b->range0[range];
}

static void probe_part(void *ctx, uint32_t part, uint32_t parts)
{
    batch *b = ctx;
    uint64_t end = parts_begin(b->ranges, part + 1, parts);
    for (uint64_t r = parts_begin(b->ranges, part, parts); r < end; r++)
        probe_range(b, (uint32_t)r);
}

static int by_index(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The strings that waited, in input order, probing the whole table. */
static void probe_waiting(batch *b)
{
    uint64_t n = 0;
    for (uint32_t r = 0; r < b->ranges; r++) {
        memmove(&b->order[n], &b->order[b->range0[r]], b->waiting[r] * sizeof *b->order);
        n += b->waiting[r];
    }
    qsort(b->order, n, sizeof *b->order, by_index);
    for (uint64_t k = 0; k < n; k++)
        probe(b, b->order[k], 0);
}

static bool is_new(const batch *b, uint64_t i) { return b->ids[i] == (STRTAB_PROV | (uint32_t)i); }

static void count_new_part(void *ctx, uint32_t part, uint32_t parts)
{
    batch *b = ctx;
    uint64_t count = 0, bytes = 0, end = parts_begin(b->n, part + 1, parts);
    for (uint64_t i = parts_begin(b->n, part, parts); i < end; i++)
        if (is_new(b, i)) {
            count++;
            bytes += b->refs[i].len + 1;
        }
    b->new_count[part] = count;
    b->new_bytes[part] = bytes;
}

static void copy_new_part(void *ctx, uint32_t part, uint32_t parts)
{
    batch *b = ctx;
    uint32_t id = b->st->count + (uint32_t)b->new_count[part];
    char *to = b->copies + b->new_bytes[part];
    uint64_t end = parts_begin(b->n, part + 1, parts);
    for (uint64_t i = parts_begin(b->n, part, parts); i < end; i++) {
        if (!is_new(b, i))
            continue;
        const strtab_ref *r = &b->refs[i];
        memcpy(to, r->s, r->len);
        to[r->len] = '\0';
        b->st->entries[id] = (strtab_entry){to, r->len};
        b->st->slots[b->slot_of[i]].id = id;
        b->hash[i] = id++;
        to += r->len + 1;
    }
}

static void final_ids_part(void *ctx, uint32_t part, uint32_t parts)
{
    batch *b = ctx;
    uint64_t end = parts_begin(b->n, part + 1, parts);
    for (uint64_t i = parts_begin(b->n, part, parts); i < end; i++)
        if (b->ids[i] & STRTAB_PROV)
            b->ids[i] = b->hash[b->ids[i] & ~STRTAB_PROV];
}

/* Takes the provisional ids out of the slots: the table as before. */
static void forget_provisional(batch *b)
{
    for (size_t i = 0; i < b->n; i++)
        if (is_new(b, i))
            b->st->slots[b->slot_of[i]].id = STRTAB_NONE;
}

/* Slots for every string at load <= 1/2 and entries for them all, were all
 * of the batch new. */
static bool make_room(strtab *st, size_t n)
{
    uint64_t most = (uint64_t)st->count + n;
    if (most > STRTAB_MAX_COUNT)
        most = STRTAB_MAX_COUNT;
    size_t slots = st->slots ? st->slot_mask + 1 : STRTAB_FIRST_SLOTS;
    while (slots / 2 < most)
        slots *= 2;
    if ((!st->slots || slots != st->slot_mask + 1) && !strtab_rehash(st, slots))
        return false;
    if (most <= st->entry_cap)
        return true;
    strtab_entry *entries = mem_realloc(st->entries, (size_t)most * sizeof *entries);
    if (!entries)
        return false;
    st->entries = entries;
    st->entry_cap = (uint32_t)most;
    return true;
}

static bool alloc_batch(batch *b, uint32_t max_parts)
{
    b->parts = parts_for(b->n, max_parts ? max_parts : 1);
    size_t slots = b->st->slot_mask + 1;
    b->ranges = 1;
    while (b->ranges < STRTAB_RANGES_A_PART * b->parts && b->ranges < slots / 64)
        b->ranges *= 2;
    b->range_shift = 0;
    while (((size_t)b->ranges << b->range_shift) < slots)
        b->range_shift++;
    size_t n = b->n ? b->n : 1;
    b->hash = mem_alloc(n * sizeof *b->hash);
    b->order = mem_alloc(n * sizeof *b->order);
    b->slot_of = mem_alloc(n * sizeof *b->slot_of);
    b->cursor = mem_calloc((size_t)b->parts * b->ranges, sizeof *b->cursor);
    b->range0 = mem_alloc(((size_t)b->ranges + 1) * sizeof *b->range0);
    b->waiting = mem_alloc((size_t)b->ranges * sizeof *b->waiting);
    b->new_count = mem_alloc((size_t)b->parts * sizeof *b->new_count);
    b->new_bytes = mem_alloc((size_t)b->parts * sizeof *b->new_bytes);
    return b->hash && b->order && b->slot_of && b->cursor && b->range0 && b->waiting && b->new_count &&
           b->new_bytes;
}

static void free_batch(batch *b)
{
    mem_free(b->hash);
    mem_free(b->order);
    mem_free(b->slot_of);
    mem_free(b->cursor);
    mem_free(b->range0);
    mem_free(b->waiting);
    mem_free(b->new_count);
    mem_free(b->new_bytes);
}

/* Each range's places in `order`, and each part's first place in each. */
static void place_ranges(batch *b)
{
    uint64_t at = 0;
    for (uint32_t r = 0; r < b->ranges; r++) {
        b->range0[r] = at;
        for (uint32_t p = 0; p < b->parts; p++) {
            uint64_t count = b->cursor[(size_t)p * b->ranges + r];
            b->cursor[(size_t)p * b->ranges + r] = at;
            at += count;
        }
    }
    b->range0[b->ranges] = at;
}

/* Gives the new strings their ids and copies; false when they do not fit. */
static bool add_new(batch *b)
{
    parts_run(count_new_part, b, b->parts);
    uint64_t count = 0, bytes = 0;
    for (uint32_t p = 0; p < b->parts; p++) {
        uint64_t c = b->new_count[p], s = b->new_bytes[p];
        b->new_count[p] = count;
        b->new_bytes[p] = bytes;
        count += c;
        bytes += s;
    }
    if (b->st->count + count > STRTAB_MAX_COUNT)
        return false;
    if (count == 0)
        return true;
    if (!(b->copies = arena_alloc(&b->st->strings, (size_t)bytes, 1)))
        return false;
    parts_run(copy_new_part, b, b->parts);
    parts_run(final_ids_part, b, b->parts);
    b->st->count += (uint32_t)count;
    return true;
}

bool strtab_intern_all(strtab *st, const strtab_ref *refs, size_t n, uint32_t *ids,
                       uint32_t max_parts)
{
    if (n >= STRTAB_PROV - 1 || !make_room(st, n))
        return false;
    batch b = {.st = st, .refs = refs, .n = n, .ids = ids};
    bool ok = alloc_batch(&b, max_parts);
    if (ok) {
        parts_run(hash_part, &b, b.parts);
        place_ranges(&b);
        parts_run(scatter_part, &b, b.parts);
        parts_run(probe_part, &b, b.parts);
        probe_waiting(&b);
        ok = add_new(&b);
        if (!ok)
            forget_provisional(&b);
    }
    free_batch(&b);
    return ok;
}
