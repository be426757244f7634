/* test_strtab.c: string interning. */

#include "check.h"
#include "util/mem.h"
#include "util/progress.h"
#include "util/strtab.h"
#include "util/strtab_int.h"

static uint32_t intern_cstr(strtab *st, const char *s) { return strtab_intern(st, s, strlen(s)); }

static void test_same_string_same_id(void)
{
    strtab st;
    strtab_init(&st);
    CHECK_EQ_INT(strtab_find(&st, "a", 1), STRTAB_NONE); /* empty table */
    CHECK_EQ_INT(intern_cstr(&st, "alpha"), 0);
    CHECK_EQ_INT(intern_cstr(&st, "beta"), 1);
    CHECK_EQ_INT(intern_cstr(&st, "alpha"), 0);
    CHECK_EQ_INT(strtab_intern(&st, "alphabet", 5), 0); /* by length, not NUL */
    CHECK_EQ_INT(strtab_count(&st), 2);
    CHECK_EQ_STR(strtab_str(&st, 1), "beta");
    CHECK_EQ_INT(strtab_len(&st, 0), 5);
    CHECK_EQ_INT(strtab_find(&st, "beta", 4), 1);
    CHECK_EQ_INT(strtab_find(&st, "gamma", 5), STRTAB_NONE);
    CHECK(strtab_str(&st, 2) == NULL);
    CHECK(strtab_str(&st, STRTAB_NONE) == NULL);
    CHECK_EQ_INT(strtab_len(&st, 2), 0);
    strtab_free(&st);
    CHECK_EQ_INT(strtab_count(&st), 0);
}

static void test_lengths_and_nuls_distinguish(void)
{
    strtab st;
    strtab_init(&st);
    uint32_t empty = strtab_intern(&st, "", 0);
    uint32_t a = strtab_intern(&st, "a", 1);
    uint32_t a_nul = strtab_intern(&st, "a\0", 2);
    uint32_t a_nul_b = strtab_intern(&st, "a\0b", 3);
    CHECK_EQ_INT(empty, 0);
    CHECK_EQ_INT(a, 1);
    CHECK_EQ_INT(a_nul, 2);
    CHECK_EQ_INT(a_nul_b, 3);
    CHECK_EQ_INT(strtab_len(&st, a_nul_b), 3);
    CHECK(memcmp(strtab_str(&st, a_nul_b), "a\0b\0", 4) == 0);
    CHECK_EQ_STR(strtab_str(&st, empty), "");
    CHECK_EQ_INT(strtab_find(&st, "", 0), 0);
    strtab_free(&st);
}

enum { MANY = 1000000 };

static int name_of(char *buf, size_t size, const char *prefix, int i)
{
    return snprintf(buf, size, "%s/u%d/net_%d", prefix, i % 977, i);
}

/* A million names: dense ids in order, stable strings across every rehash. */
static void test_a_million_names(void)
{
    mem_stats before = mem_get_stats();
    strtab st;
    strtab_init(&st);
    char buf[64];
    const char *first = NULL;
    int wrong_ids = 0, wrong_again = 0, wrong_text = 0, found_absent = 0;
    double t0 = progress_now_seconds();
    for (int i = 0; i < MANY; i++) {
        int len = name_of(buf, sizeof buf, "top", i);
        wrong_ids += strtab_intern(&st, buf, (size_t)len) != (uint32_t)i;
        if (i == 0)
            first = strtab_str(&st, 0);
    }
    double t1 = progress_now_seconds();
    for (int i = 0; i < MANY; i++) {
        int len = name_of(buf, sizeof buf, "top", i);
        wrong_again += strtab_intern(&st, buf, (size_t)len) != (uint32_t)i;
        wrong_text += strcmp(strtab_str(&st, (uint32_t)i), buf) != 0;
        len = name_of(buf, sizeof buf, "tap", i);
        found_absent += strtab_find(&st, buf, (size_t)len) != STRTAB_NONE;
    }
    double t2 = progress_now_seconds();
    CHECK_EQ_INT(wrong_ids, 0);
    CHECK_EQ_INT(wrong_again, 0);
    CHECK_EQ_INT(wrong_text, 0);
    CHECK_EQ_INT(found_absent, 0);
    CHECK_EQ_INT(strtab_count(&st), MANY);
    CHECK(strtab_str(&st, 0) == first);
    CHECK_EQ_STR(first, "top/u0/net_0");
    fprintf(stderr, "strtab: %d new names in %.3f s, %d lookups + %d misses in %.3f s\n", MANY,
            t1 - t0, MANY, MANY, t2 - t1);
    strtab_free(&st);
    CHECK_EQ_INT(mem_get_stats().current_bytes, before.current_bytes);
}

/* n strings drawn from `distinct` names (some with NULs, one empty), as a
 * netlist's words repeat; `seed` varies the draw. */
static strtab_ref *draw_names(size_t n, uint32_t distinct, uint32_t seed, char **text)
{
    strtab_ref *refs = malloc(n * sizeof *refs);
    char *buf = malloc(n * 24);
    uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint32_t k = (uint32_t)(x % distinct);
        char *s = buf + i * 24;
        int len = k == 0 ? 0 : snprintf(s, 24, "n%u", k);
        if (k % 5 == 1)
            s[len++] = '\0'; /* "n1" and "n1\0" are two names */
        refs[i] = (strtab_ref){s, (size_t)len};
    }
    *text = buf;
    return refs;
}

/* A batch gives the ids and table that interning one by one gives: on a
 * table already holding some of the names, on 1 to 8 parts, in tables small
 * enough that probes run out of their range (and wait for the pass on one
 * thread). */
static void test_intern_all_equals_one_by_one(void)
{
    const size_t sizes[] = {0, 1, 7, 1000, 200000, 130000};
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
        /* the last: nearly all distinct, the slots near half full at the end */
        uint32_t distinct = c == 5 ? (uint32_t)sizes[c] * 8 : (uint32_t)(sizes[c] / 3 + 2);
        for (uint32_t parts = 1; parts <= 8; parts *= 2) {
            size_t n = sizes[c];
            char *text, *old_text;
            strtab_ref *refs = draw_names(n, distinct, (uint32_t)c + parts, &text);
            strtab_ref *old = draw_names(500, 300, 99, &old_text);
            strtab one, all;
            strtab_init(&one);
            strtab_init(&all);
            for (size_t i = 0; i < 500; i++) {
                strtab_intern(&one, old[i].s, old[i].len);
                strtab_intern(&all, old[i].s, old[i].len);
            }
            uint32_t *ids = malloc((n ? n : 1) * sizeof *ids);
            CHECK(strtab_intern_all(&all, refs, n, ids, parts));
            int wrong = 0;
            for (size_t i = 0; i < n; i++)
                wrong += ids[i] != strtab_intern(&one, refs[i].s, refs[i].len);
            CHECK_EQ_INT(wrong, 0);
            CHECK_EQ_INT(strtab_count(&all), strtab_count(&one));
            for (uint32_t id = 0; id < strtab_count(&one); id++) {
                wrong += strtab_len(&all, id) != strtab_len(&one, id) ||
                         memcmp(strtab_str(&all, id), strtab_str(&one, id),
                                strtab_len(&one, id) + 1) != 0;
                wrong += strtab_find(&all, strtab_str(&one, id), strtab_len(&one, id)) != id;
            }
            CHECK_EQ_INT(wrong, 0);
            CHECK_EQ_INT(strtab_find(&all, "absent", 6), STRTAB_NONE);
            CHECK_EQ_INT(strtab_intern(&all, "after", 5), strtab_count(&one));
            free(ids);
            free(refs);
            free(text);
            free(old);
            free(old_text);
            strtab_free(&one);
            strtab_free(&all);
        }
    }
}

/* The table moved to as many slots (so that probes reach the ends of the
 * parts' ranges and wait), then to 2 and 4 times as many, on threads once
 * it is large: every string keeps its id, none is found that was never
 * interned, and interning goes on from the count. */
static void test_rehash_in_parts_finds_every_string(void)
{
    strtab st;
    strtab_init(&st);
    char buf[64];
    enum { N = 500000 }; /* 2^20 slots nearly half full */
    for (int i = 0; i < N; i++)
        strtab_intern(&st, buf, (size_t)name_of(buf, sizeof buf, "r", i));
    const size_t growth[] = {1, 2, 4};
    for (size_t g = 0; g < sizeof growth / sizeof growth[0]; g++) {
        CHECK(strtab_rehash(&st, (st.slot_mask + 1) * growth[g]));
        int wrong = 0, found_absent = 0;
        for (int i = 0; i < N; i++) {
            wrong += strtab_find(&st, buf, (size_t)name_of(buf, sizeof buf, "r", i)) != (uint32_t)i;
            found_absent += strtab_find(&st, buf, (size_t)name_of(buf, sizeof buf, "q", i)) !=
                            STRTAB_NONE;
        }
        CHECK_EQ_INT(wrong, 0);
        CHECK_EQ_INT(found_absent, 0);
    }
    CHECK_EQ_INT(st.slot_mask + 1, (size_t)1 << 23);
    CHECK_EQ_INT(strtab_intern(&st, "after", 5), N);
    strtab_free(&st);
}

int main(void)
{
    RUN(test_same_string_same_id);
    RUN(test_lengths_and_nuls_distinguish);
    RUN(test_a_million_names);
    RUN(test_intern_all_equals_one_by_one);
    RUN(test_rehash_in_parts_finds_every_string);
    return check_exit_code();
}
