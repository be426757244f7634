/* json.c: the streaming JSON writer (see json.h). */
#include "util/json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/tok.h"

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

/* x as %.Pg prints it, for the fewest P of 15, 16, 17 that reads back
 * as x: a printf and a strtod for each P tried. */
static const char *number_text_by_printf(double x, char buf[JSON_NUMBER_MAX])
{
    for (int digits = 15; digits < 17; digits++) {
        snprintf(buf, JSON_NUMBER_MAX, "%.*g", digits, x);
        if (strtod(buf, NULL) == x)
            return buf;
    }
    snprintf(buf, JSON_NUMBER_MAX, "%.17g", x);
    return buf;
}

/* d[0..n) (decimal digits, d[0] nonzero) times 10^(exp - n + 1), as %.Pg
 * prints a value whose P significant digits they are: trailing zeros
 * dropped, fixed notation when -4 <= exp < P, else d.ddde[+-]XX. */
static void format_g(char *buf, int sign, const char *d, int n, int exp, int P)
{
    while (n > 1 && d[n - 1] == '0')
        n--;
    char *at = buf;
    if (sign)
        *at++ = '-';
    if (exp < -4 || exp >= P) {
        *at++ = d[0];
        if (n > 1) {
            *at++ = '.';
            memcpy(at, d + 1, (size_t)n - 1);
            at += n - 1;
        }
        at += sprintf(at, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    } else if (exp < 0) {
        *at++ = '0';
        *at++ = '.';
        for (int k = -1; k > exp; k--)
            *at++ = '0';
        memcpy(at, d, (size_t)n);
        at += n;
    } else {
        for (int k = 0; k <= exp; k++)
            *at++ = k < n ? d[k] : '0';
        if (n > exp + 1) {
            *at++ = '.';
            memcpy(at, d + exp + 1, (size_t)(n - exp - 1));
            at += n - exp - 1;
        }
    }
    *at = '\0';
}

/* The 17 digits of %.16e (d, exponent exp) rounded to P < 17 digits, as
 * rounding x itself to P digits gives them, into r (the exponent into
 * *rexp); false where the digits dropped read exactly a half (50..0): x's
 * digits beyond the 17th, which d does not hold, decide then. */
static bool round_digits(const char *d, int exp, int P, char *r, int *rexp)
{
    bool half = d[P] == '5';
    for (int k = P + 1; k < 17 && half; k++)
        half = d[k] == '0';
    if (half)
        return false;
    memcpy(r, d, (size_t)P);
    *rexp = exp;
    if (d[P] < '5')
        return true;
    int k = P - 1;
    while (k >= 0 && r[k] == '9')
        r[k--] = '0';
    if (k >= 0) {
        r[k]++;
    } else { /* 99..9 rounded up: 100..0, one power of ten more */
        r[0] = '1';
        *rexp = exp + 1;
    }
    return true;
}

const char *json_number_text(double x, char buf[JSON_NUMBER_MAX])
{
    char e17[JSON_NUMBER_MAX];
    if (x == 0 || !isfinite(x))
        return number_text_by_printf(x, buf);
    snprintf(e17, sizeof e17, "%.16e", x); /* [-]d.dddddddddddddddde[+-]XX */
    int sign = e17[0] == '-';
    const char *m = e17 + sign;
    char d[17];
    d[0] = m[0];
    memcpy(d + 1, m + 2, 16);
    int exp = atoi(m + 19);
    for (int P = 15; P < 17; P++) {
        char r[17];
        int rexp;
        double back;
        if (!round_digits(d, exp, P, r, &rexp))
            return number_text_by_printf(x, buf);
        format_g(buf, sign, r, P, rexp, P);
        if (tok_parse_double(buf, strlen(buf), &back) && back == x)
            return buf;
    }
    format_g(buf, sign, d, 17, exp, 17);
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
