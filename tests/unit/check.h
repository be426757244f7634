/* check.h: the unit tests' tiny harness.
 *
 * A test file defines functions `static void test_xxx(void)` and lists them in
 * main() through RUN(test_xxx).  CHECK* macros record a failure with the
 * file:line and go on; main returns check_exit_code(): 0 when every check
 * held, 1 otherwise.  A test that cannot run here (no GPU, say) calls
 * check_skip(reason) and CTest counts it as skipped (exit code 77). */
#ifndef GP_TESTS_CHECK_H
#define GP_TESTS_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                         \
    do {                                                                    \
        check_count++;                                                      \
        if (!(cond)) {                                                      \
            check_failures++;                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                   \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                  \
    do {                                                                    \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);     \
        check_count++;                                                      \
        if (check_a_ != check_b_) {                                         \
            check_failures++;                                               \
            fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n",      \
                    __FILE__, __LINE__, #a, #b, check_a_, check_b_);        \
        }                                                                   \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                  \
    do {                                                                    \
        const char *check_a_ = (a), *check_b_ = (b);                        \
        check_count++;                                                      \
        if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_) != 0) {    \
            check_failures++;                                               \
            fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n",  \
                    __FILE__, __LINE__, #a, #b, check_a_ ? check_a_ : "(null)", \
                    check_b_ ? check_b_ : "(null)");                        \
        }                                                                   \
    } while (0)

/* |a - b| <= rel * max(|a|, |b|), or both exactly equal. */
#define CHECK_NEAR_REL(a, b, rel)                                           \
    do {                                                                    \
        double check_a_ = (a), check_b_ = (b);                              \
        double check_m_ = fmax(fabs(check_a_), fabs(check_b_));             \
        check_count++;                                                      \
        if (check_a_ != check_b_ && fabs(check_a_ - check_b_) > (rel) * check_m_) { \
            check_failures++;                                               \
            fprintf(stderr, "%s:%d: %s ~ %s failed: %.17g vs %.17g\n",      \
                    __FILE__, __LINE__, #a, #b, check_a_, check_b_);        \
        }                                                                   \
    } while (0)

#define RUN(fn)                                                             \
    do {                                                                    \
        int check_before_ = check_failures;                                 \
        fn();                                                               \
        fprintf(stderr, "%s %s\n", check_failures == check_before_ ? "ok  " : "FAIL", #fn); \
    } while (0)

static inline int check_exit_code(void)
{
    fprintf(stderr, "%d checks, %d failed\n", check_count, check_failures);
    return check_failures ? 1 : 0;
}

/* Prints "SKIPPED test_x: reason" (the test file's name, without its
 * directory and .c) and exits 77. */
static inline void check_skip_in(const char *file, const char *reason)
{
    const char *name = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    int len = strrchr(name, '.') ? (int)(strrchr(name, '.') - name) : (int)strlen(name);
    fprintf(stderr, "SKIPPED %.*s: %s\n", len, name, reason);
    exit(77);
}
#define check_skip(reason) check_skip_in(__FILE__, reason)

#endif
