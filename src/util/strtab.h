/* strtab.h: string interning: each distinct string gets a small dense id.
 *
 * Ids are given out 0, 1, 2, ... in order of first interning and never change;
 * the same bytes always give the same id.  Strings are compared by length and
 * bytes, so they may contain NULs.  Each is stored once, NUL-terminated, in an
 * arena: strtab_str's pointer is stable for the table's lifetime (rehashing
 * moves only the hash slots).  Open addressing with linear probing at a load
 * of at most 1/2; at most 2^31 strings.  Not thread-safe
 * (strtab_intern_all runs threads of its own inside one call). */
#ifndef GP_UTIL_STRTAB_H
#define GP_UTIL_STRTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"

#ifdef __cplusplus
extern "C" {
#endif

#define STRTAB_NONE UINT32_MAX

typedef struct strtab_slot strtab_slot;
typedef struct strtab_entry strtab_entry;

typedef struct strtab {
    arena strings;
    strtab_slot *slots;     /* power-of-two count; empty slots hold id STRTAB_NONE */
    size_t slot_mask;       /* slot count - 1 (0 before the first intern) */
    strtab_entry *entries;  /* by id */
    uint32_t count;
    uint32_t entry_cap;
} strtab;

void strtab_init(strtab *st);
void strtab_free(strtab *st);

/* The id of s[0..len), adding it if new; STRTAB_NONE on allocation failure
 * (or beyond 2^31 strings), the table unchanged. */
uint32_t strtab_intern(strtab *st, const char *s, size_t len);
/* The id of s[0..len), or STRTAB_NONE if it was never interned. */
uint32_t strtab_find(const strtab *st, const char *s, size_t len);

/* A string to intern: s[0..len). */
typedef struct strtab_ref {
    const char *s;
    size_t len;
} strtab_ref;

/* Interns refs[0..n) on up to max_parts threads as n calls of strtab_intern
 * in order would: ids[i] gets the id that call would return, and the table
 * holds the same strings under the same ids after (their slots may differ,
 * which nothing observes).  False on allocation failure or beyond 2^31
 * strings (ids then undefined, the table holds what it held before). */
bool strtab_intern_all(strtab *st, const strtab_ref *refs, size_t n, uint32_t *ids,
                       uint32_t max_parts);

/* The NUL-terminated string of `id`, or NULL for an id not given out. */
const char *strtab_str(const strtab *st, uint32_t id);
/* Its length in bytes, or 0 for an id not given out. */
size_t strtab_len(const strtab *st, uint32_t id);
uint32_t strtab_count(const strtab *st);

#ifdef __cplusplus
}
#endif

#endif
