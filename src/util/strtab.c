/* strtab.c: an open-addressing hash table from strings to dense ids. */
#include "util/strtab_int.h"

#include <stdbool.h>
#include <string.h>

#include "util/mem.h"

void strtab_init(strtab *st) { memset(st, 0, sizeof *st); }

void strtab_free(strtab *st)
{
    arena_free_all(&st->strings);
    mem_free(st->slots);
    mem_free(st->entries);
    strtab_init(st);
}

static uint64_t strtab_load64(const char *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

static uint64_t strtab_load32(const char *p)
{
    uint32_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

/* The last 1 to 7 bytes of a string, s[0 .. len), as one word that tells
 * them apart for that length, from loads inside them: two overlapping
 * words of four, or the first, middle and last byte.  (Copying them into
 * a word byte by byte stalls the load of the word that follows.) */
static uint64_t strtab_load_tail(const char *s, size_t len)
{
    if (len >= 4)
        return strtab_load32(s) | strtab_load32(s + len - 4) << 32;
    return (uint64_t)(uint8_t)s[0] | (uint64_t)(uint8_t)s[len / 2] << 8 |
           (uint64_t)(uint8_t)s[len - 1] << 16;
}

/* Spreads every input bit over the whole word (a multiply-xorshift mixer). */
static uint64_t strtab_mix(uint64_t h)
{
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ULL;
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ULL;
    h ^= h >> 32;
    return h;
}

/* Eight bytes per step, then the tail; the length is mixed in first, so
 * that "a" and "a\0" differ. */
uint32_t strtab_hash(const char *s, size_t len)
{
    const uint64_t k = 0x9e3779b97f4a7c15ULL;
    uint64_t h = (uint64_t)len * k;
    while (len >= 8) {
        h = (h ^ strtab_load64(s)) * k;
        h ^= h >> 29;
        s += 8;
        len -= 8;
    }
    if (len > 0)
        h = (h ^ strtab_load_tail(s, len)) * k;
    return (uint32_t)strtab_mix(h);
}

/* The slot holding s, or else the empty slot where it belongs. */
static size_t strtab_probe(const strtab *st, const char *s, size_t len, uint32_t hash)
{
    size_t i = hash & st->slot_mask;
    for (;;) {
        const strtab_slot *slot = &st->slots[i];
        if (slot->id == STRTAB_NONE)
            return i;
        if (slot->hash == hash) {
            const strtab_entry *e = &st->entries[slot->id];
            if (e->len == len && memcmp(e->str, s, len) == 0)
                return i;
        }
        i = (i + 1) & st->slot_mask;
    }
}

/* Room for one more entry and one more slot at load <= 1/2. */
static bool strtab_make_room(strtab *st)
{
    if (st->count >= STRTAB_MAX_COUNT)
        return false;
    if (st->count == st->entry_cap) {
        uint32_t cap = st->entry_cap ? st->entry_cap * 2 : STRTAB_FIRST_SLOTS / 2;
        strtab_entry *entries = mem_realloc(st->entries, (size_t)cap * sizeof(strtab_entry));
        if (!entries)
            return false;
        st->entries = entries;
        st->entry_cap = cap;
    }
    size_t slot_count = st->slot_mask + 1;
    if (!st->slots)
        return strtab_rehash(st, STRTAB_FIRST_SLOTS);
    if ((size_t)st->count + 1 > slot_count / 2)
        return strtab_rehash(st, slot_count * 2);
    return true;
}

uint32_t strtab_intern(strtab *st, const char *s, size_t len)
{
    uint32_t hash = strtab_hash(s, len);
    if (st->slots) {
        size_t i = strtab_probe(st, s, len, hash);
        if (st->slots[i].id != STRTAB_NONE)
            return st->slots[i].id;
    }
    if (!strtab_make_room(st))
        return STRTAB_NONE;
    char *copy = arena_strndup(&st->strings, s, len);
    if (!copy)
        return STRTAB_NONE;
    size_t i = strtab_probe(st, s, len, hash); /* the table may have grown */
    uint32_t id = st->count++;
    st->entries[id] = (strtab_entry){copy, len};
    st->slots[i] = (strtab_slot){id, hash};
    return id;
}

uint32_t strtab_find(const strtab *st, const char *s, size_t len)
{
    if (!st->slots)
        return STRTAB_NONE;
    return st->slots[strtab_probe(st, s, len, strtab_hash(s, len))].id;
}

const char *strtab_str(const strtab *st, uint32_t id)
{
    return id < st->count ? st->entries[id].str : NULL;
}

size_t strtab_len(const strtab *st, uint32_t id)
{
    return id < st->count ? st->entries[id].len : 0;
}

uint32_t strtab_count(const strtab *st) { return st->count; }
