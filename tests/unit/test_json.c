/* test_json.c: the JSON writer's layout, escapes and special numbers. */
#include "check.h"
#include "util/json.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void test_nested_document(void)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    json_writer w;
    json_init(&w, out);
    json_begin_object(&w);
    json_key(&w, "name");
    json_string(&w, "a\"b\\c\n");
    json_key(&w, "list");
    json_begin_array(&w);
    json_uint(&w, 18446744073709551615ull);
    json_number(&w, 0.1);
    json_number(&w, NAN);
    json_bool(&w, true);
    json_end(&w);
    json_key(&w, "empty");
    json_begin_object(&w);
    json_end(&w);
    json_end(&w);
    json_finish(&w);
    fclose(out);
    CHECK_EQ_STR(text, "{\n"
                       "  \"name\": \"a\\\"b\\\\c\\u000a\",\n"
                       "  \"list\": [\n"
                       "    18446744073709551615,\n"
                       "    0.1,\n"
                       "    null,\n"
                       "    true\n"
                       "  ],\n"
                       "  \"empty\": {}\n"
                       "}\n");
    free(text);
}

/* Numbers take the fewest digits that read back as the same double:
 * 3e-08 (30 ns as a double, 2.9999999999999997e-08 with 17 digits), and
 * 17 digits where fewer would lose bits. */
static void test_shortest_numbers(void)
{
    static const double values[] = {30000000 / 1e15, 0.1 + 0.2, 1.0 / 3, 5e-324, 1e300, -2.5,
                                    0.00078855699999999984};
    static const char *const texts[] = {"3e-08", "0.30000000000000004", "0.3333333333333333",
                                        "4.94065645841247e-324", "1e+300", "-2.5",
                                        "0.0007885569999999998"};
    for (size_t k = 0; k < sizeof values / sizeof values[0]; k++) {
        char buf[JSON_NUMBER_MAX];
        CHECK_EQ_STR(json_number_text(values[k], buf), texts[k]);
        CHECK(strtod(buf, NULL) == values[k]);
    }
}

/* %.Pg for the fewest P of 15, 16, 17 that reads back as x: what
 * json_number_text must print, byte for byte. */
static const char *printf_text(double x, char *buf)
{
    for (int digits = 15; digits < 17; digits++) {
        snprintf(buf, JSON_NUMBER_MAX, "%.*g", digits, x);
        if (strtod(buf, NULL) == x)
            return buf;
    }
    snprintf(buf, JSON_NUMBER_MAX, "%.17g", x);
    return buf;
}

static uint64_t json_test_pow10(int n)
{
    uint64_t p = 1;
    while (n-- > 0)
        p *= 10;
    return p;
}

/* Random doubles of every exponent, power-like values, short decimals and
 * numbers a rounding carries to the next power of ten. */
static void test_numbers_as_printf_prints_them(void)
{
    static const double edges[] = {1e-5, 9.9999999999999995e-5, 0.000099999999999999991,
                                    99999.999999999985, 1e15, 123456789012345678.0, 1e16,
                                    9.999999999999999e22, 0.1, 1e-4, 1.0000000000000002,
                                    2.2250738585072014e-308, 1.7976931348623157e308, 4e-320};
    char a[JSON_NUMBER_MAX], b[JSON_NUMBER_MAX];
    int wrong = 0;
    for (size_t k = 0; k < sizeof edges / sizeof edges[0]; k++)
        for (int sign = 1; sign >= -1; sign -= 2)
            wrong += strcmp(json_number_text(sign * edges[k], a), printf_text(sign * edges[k], b)) != 0;
    uint64_t x = 88172645463325252u;
    for (int k = 0; k < 1000000; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double v;
        if (k % 4 == 0) { /* any bits but NaN and infinity */
            uint64_t bits = x & ~(UINT64_C(0x7ff) << 52) ? x : x ^ 1;
            if (((bits >> 52) & 0x7ff) == 0x7ff)
                bits &= ~(UINT64_C(1) << 62);
            memcpy(&v, &bits, sizeof v);
        } else if (k % 4 == 1) { /* watts of a gate or a chip */
            v = (double)(x >> 11) / 9007199254740992.0 * pow(10, (int)(x % 13) - 12);
        } else if (k % 4 == 2) { /* few digits */
            v = (double)(x % 100000) / pow(10, (int)((x >> 20) % 12));
        } else { /* a sum of short ones, as 0.1 + 0.2 */
            v = (double)(x % 1000) * 1e-3 + (double)((x >> 10) % 1000) * 1e-6;
        }
        if (!isfinite(v))
            continue;
        if (strcmp(json_number_text(v, a), printf_text(v, b)) != 0 && wrong++ < 5)
            fprintf(stderr, "  %.17g: '%s', printf '%s'\n", v, a, b);
    }
    CHECK_EQ_INT(wrong, 0);
}

/* Where rounding is hardest: digits beyond the P-th that read exactly a
 * half (n + 0.5 with 15 digits in n, n + 0.25 with 14, n + 0.125 with 13:
 * ties at 15 and 16 digits, rounded to even), and powers of two, whose
 * double below is nearer than the one above, with their neighbours. */
static void test_ties_and_powers_of_two(void)
{
    char a[JSON_NUMBER_MAX], b[JSON_NUMBER_MAX];
    int wrong = 0;
    uint64_t x = 0x2545f4914f6cdd1du;
    for (int k = 0; k < 300000; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int digits = 13 + k % 3;
        double v = (double)(json_test_pow10(digits - 1) + x % (9 * json_test_pow10(digits - 1))) +
                   1.0 / (1 << (16 - digits));
        if (strcmp(json_number_text(v, a), printf_text(v, b)) != 0 && wrong++ < 5)
            fprintf(stderr, "  %.17g: '%s', printf '%s'\n", v, a, b);
    }
    for (int e = -140; e <= 60; e++)
        for (int side = -1; side <= 1; side++) {
            double p = ldexp(1.0, e);
            double v = side < 0 ? nextafter(p, 0) : side > 0 ? nextafter(p, INFINITY) : p;
            if (strcmp(json_number_text(v, a), printf_text(v, b)) != 0 && wrong++ < 5)
                fprintf(stderr, "  %.17g: '%s', printf '%s'\n", v, a, b);
        }
    CHECK_EQ_INT(wrong, 0);
}

int main(void)
{
    RUN(test_nested_document);
    RUN(test_shortest_numbers);
    RUN(test_numbers_as_printf_prints_them);
    RUN(test_ties_and_powers_of_two);
    return check_exit_code();
}
