/* json.h: a small streaming JSON writer for the reports scripts read.
 *
 * Calls nest like the document: json_begin_object, json_key + a value, ...,
 * json_end.  Commas, indentation and string escapes are handled here.
 * Numbers print with the fewest significant digits (15 to 17) that read
 * back as the same double, as Python's repr does: 3e-08, not
 * 2.9999999999999997e-08; NaN and infinities, which JSON cannot hold,
 * print as null.  Nesting
 * deeper than JSON_MAX_DEPTH - 1 levels is not supported. */
#ifndef GP_UTIL_JSON_H
#define GP_UTIL_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

typedef struct json_writer {
    FILE *out;
    int depth;
    bool first[JSON_MAX_DEPTH];  /* no member written yet at this depth */
    char closer[JSON_MAX_DEPTH]; /* '}' or ']' closing this depth */
    bool after_key;             /* the next value follows a key on the same line */
} json_writer;

void json_init(json_writer *w, FILE *out);
void json_begin_object(json_writer *w);
void json_begin_array(json_writer *w);
void json_end(json_writer *w); /* closes the innermost object or array */
void json_key(json_writer *w, const char *key);
void json_string(json_writer *w, const char *s);
void json_number(json_writer *w, double x);
/* A finite x as json_number writes it, into buf (JSON_NUMBER_MAX bytes):
 * for other machine-read text too (CSV). */
#define JSON_NUMBER_MAX 32
const char *json_number_text(double x, char buf[JSON_NUMBER_MAX]);
void json_uint(json_writer *w, uint64_t x);
void json_bool(json_writer *w, bool b);
/* Ends the document with a newline. */
void json_finish(json_writer *w);

#endif
