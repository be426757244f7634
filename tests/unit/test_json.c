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
                       "    0.10000000000000001,\n"
                       "    null,\n"
                       "    true\n"
                       "  ],\n"
                       "  \"empty\": {}\n"
                       "}\n");
    free(text);
}

int main(void)
{
    RUN(test_nested_document);
    return check_exit_code();
}
