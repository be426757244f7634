/* json.c: the streaming JSON writer (see json.h). */
#include "util/json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void json_init(json_writer *w, FILE *out)
{
    w->out = out;
    w->depth = 0;
    w->first[0] = true;
    w->after_key = false;
}

/* Separator and indentation before a member or element. */
static void begin_value(json_writer *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->depth > 0) {
        fputs(w->first[w->depth] ? "\n" : ",\n", w->out);
        w->first[w->depth] = false;
        for (int i = 0; i < w->depth; i++)
            fputs("  ", w->out);
    }
}

static void open_container(json_writer *w, char bracket)
{
    begin_value(w);
    fputc(bracket, w->out);
    w->depth++;
    w->first[w->depth] = true;
    w->closer[w->depth] = bracket == '{' ? '}' : ']';
}

void json_begin_object(json_writer *w) { open_container(w, '{'); }
void json_begin_array(json_writer *w) { open_container(w, '['); }

void json_end(json_writer *w)
{
    bool empty = w->first[w->depth];
    char bracket = w->closer[w->depth];
    w->depth--;
    if (!empty) {
        fputc('\n', w->out);
        for (int i = 0; i < w->depth; i++)
            fputs("  ", w->out);
    }
    fputc(bracket, w->out);
}

static void write_escaped(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            fprintf(out, "\\%c", *c);
        else if (*c < 0x20)
            fprintf(out, "\\u%04x", *c);
        else
            fputc(*c, out);
    }
    fputc('"', out);
}

void json_key(json_writer *w, const char *key)
{
    begin_value(w);
    write_escaped(w->out, key);
    fputs(": ", w->out);
    w->after_key = true;
}

void json_string(json_writer *w, const char *s)
{
    begin_value(w);
    write_escaped(w->out, s);
}

const char *json_number_text(double x, char buf[JSON_NUMBER_MAX])
{
    for (int digits = 15; digits < 17; digits++) {
        snprintf(buf, JSON_NUMBER_MAX, "%.*g", digits, x);
        if (strtod(buf, NULL) == x)
            return buf;
    }
    snprintf(buf, JSON_NUMBER_MAX, "%.17g", x);
    return buf;
}

void json_number(json_writer *w, double x)
{
    char buf[JSON_NUMBER_MAX];
    begin_value(w);
    fputs(isfinite(x) ? json_number_text(x, buf) : "null", w->out);
}

void json_uint(json_writer *w, uint64_t x)
{
    begin_value(w);
    fprintf(w->out, "%llu", (unsigned long long)x);
}

void json_bool(json_writer *w, bool b)
{
    begin_value(w);
    fputs(b ? "true" : "false", w->out);
}

void json_finish(json_writer *w) { fputc('\n', w->out); }
