/* strtab_int.h: what strtab.c and strtab_all.c share: the slot and entry
 * layout and the table's hash and growth. */
#ifndef GP_UTIL_STRTAB_INT_H
#define GP_UTIL_STRTAB_INT_H

#include <stdbool.h>

#include "util/strtab.h"

#define STRTAB_MAX_COUNT ((uint32_t)1 << 31)
#define STRTAB_FIRST_SLOTS 1024

/* A slot keeps 32 bits of the hash beside the id: most mismatches are decided
 * without touching the entry, and rehashing needs no string.  The low bits of
 * the same hash choose the slot; 2^31 strings at load 1/2 need at most 2^32
 * slots, so 32 bits are enough. */
struct strtab_slot {
    uint32_t id;
    uint32_t hash;
};

struct strtab_entry {
    const char *str;
    size_t len;
};

uint32_t strtab_hash(const char *s, size_t len);
/* Moves the slots to a table of slot_count (a power of two, enough for the
 * strings); false on allocation failure, the table unchanged. */
bool strtab_rehash(strtab *st, size_t slot_count);

#endif
