/* test_json.c: the JSON writer's layout, escapes and special numbers. */
#include "check.h"
#include "util/json.h"

#include <math.h>
#include <stdlib.h>

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

int main(void)
{
    RUN(test_nested_document);
    RUN(test_shortest_numbers);
    return check_exit_code();
}
