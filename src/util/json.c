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
        int mag = exp < 0 ? -exp : exp; /* e[+-]XX, three digits from 100 */
        *at++ = 'e';
        *at++ = exp < 0 ? '-' : '+';
        if (mag >= 100)
            *at++ = (char)('0' + mag / 100);
        *at++ = (char)('0' + mag / 10 % 10);
        *at++ = (char)('0' + mag % 10);
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

/* ---- exact digits: x = m * 2^-s scaled by 10^k in 256-bit integers ---- */

__extension__ typedef unsigned __int128 json_u128;

/* A 256-bit unsigned integer, least significant limb first. */
typedef struct json_wide {
    uint64_t w[4];
} json_wide;

static const uint64_t json_pow10[20] = {
    1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u, 1000000000u,
    10000000000u, 100000000000u, 1000000000000u, 10000000000000u, 100000000000000u,
    1000000000000000u, 10000000000000000u, 100000000000000000u, 1000000000000000000u,
    10000000000000000000u};

/* a *= b; the product must fit in 256 bits. */
static void wide_mul(json_wide *a, uint64_t b)
{
    json_u128 carry = 0;
    for (int i = 0; i < 4; i++) {
        json_u128 p = (json_u128)a->w[i] * b + carry;
        a->w[i] = (uint64_t)p;
        carry = p >> 64;
    }
}

/* 10^k, 0 <= k <= 77. */
static json_wide wide_pow10(int k)
{
    json_wide t = {{1, 0, 0, 0}};
    for (; k >= 19; k -= 19)
        wide_mul(&t, json_pow10[19]);
    wide_mul(&t, json_pow10[k]);
    return t;
}

/* Bits [s, s + 64) of a, 0 <= s < 256. */
static uint64_t wide_bits_at(const json_wide *a, int s)
{
    int limb = s / 64, off = s % 64;
    uint64_t low = a->w[limb] >> off;
    if (off && limb < 3)
        low |= a->w[limb + 1] << (64 - off);
    return low;
}

/* a mod 2^s, 0 < s < 256. */
static json_wide wide_low_bits(const json_wide *a, int s)
{
    json_wide r = *a;
    for (int i = 0; i < 4; i++) {
        int keep = s - 64 * i;
        if (keep <= 0)
            r.w[i] = 0;
        else if (keep < 64)
            r.w[i] &= ((uint64_t)1 << keep) - 1;
    }
    return r;
}

/* 2^s - a, for a <= 2^s, 0 < s < 256. */
static json_wide wide_from_power_of_2(const json_wide *a, int s)
{
    json_wide p = {{0, 0, 0, 0}}, r;
    p.w[s / 64] = (uint64_t)1 << (s % 64);
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        json_u128 d = (json_u128)p.w[i] - a->w[i] - borrow;
        r.w[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    return r;
}

/* a << n, n small, no bit lost. */
static json_wide wide_shl(json_wide a, int n)
{
    for (int i = 3; i >= 0; i--)
        a.w[i] = a.w[i] << n | (i ? a.w[i - 1] >> (64 - n) : 0);
    return a;
}

static int wide_cmp(const json_wide *a, const json_wide *b)
{
    for (int i = 3; i >= 0; i--)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

/* A positive normal double as m * 2^-s, 2^52 <= m < 2^53. */
typedef struct json_binary {
    uint64_t m;
    int s;
} json_binary;

/* x scaled to P significant digits: x * 10^k * 2^s = v, 10^k = scale,
 * k = P - 1 - E for x's decimal exponent E (10^E <= x < 10^(E+1)). */
typedef struct json_scaled {
    int P, E;
    json_wide scale, v;
} json_scaled;

static void scale_to(json_scaled *sc, const json_binary *x, int P, int E)
{
    sc->P = P;
    sc->E = E;
    sc->scale = wide_pow10(P - 1 - E);
    sc->v = sc->scale;
    wide_mul(&sc->v, x->m);
}

/* Scaled to P digits for x's decimal exponent: log10's floor, corrected
 * where rounding moved it across a power of ten. */
static void scale_first(json_scaled *sc, double a, const json_binary *x, int P)
{
    int E = (int)floor(log10(a));
    scale_to(sc, x, P, E);
    uint64_t q = wide_bits_at(&sc->v, x->s);
    if (q >= json_pow10[P])
        scale_to(sc, x, P, E + 1);
    else if (q < json_pow10[P - 1])
        scale_to(sc, x, P, E - 1);
}

/* One digit more. */
static void scale_next(json_scaled *sc)
{
    sc->P++;
    wide_mul(&sc->scale, 10);
    wide_mul(&sc->v, 10);
}

/* Decimals x rounds to: P significant digits `digits` (a whole number,
 * 10^(P-1) <= digits < 10^P) times 10^exp10 / 10^(P-1). */
typedef struct json_decimal {
    uint64_t digits;
    int exp10;
} json_decimal;

/* x's digits as printf rounds them (to nearest, ties to even), and
 * whether they read back as x (strtod: to nearest, ties to even). */
static bool exact_digits(const json_binary *x, const json_scaled *sc, json_decimal *out)
{
    uint64_t q = wide_bits_at(&sc->v, x->s);
    json_wide rest = wide_low_bits(&sc->v, x->s);
    json_wide half = {{0, 0, 0, 0}};
    half.w[(x->s - 1) / 64] = (uint64_t)1 << ((x->s - 1) % 64);
    int c = wide_cmp(&rest, &half);
    bool up = c > 0 || (c == 0 && (q & 1));
    json_wide gap = up ? wide_from_power_of_2(&rest, x->s) : rest; /* |digits - x|, scaled */
    q += up;
    out->digits = q;
    out->exp10 = sc->E;
    if (q == json_pow10[sc->P]) {
        out->digits = json_pow10[sc->P - 1];
        out->exp10 = sc->E + 1;
    }
    /* x's neighbours lie 10^k apart in these units, the one below half as
     * far where x is a power of two (m = 2^52; in the exact range a normal
     * double lies below it): the digits read back as x when nearer to x
     * than half that, or exactly half with m even. */
    bool near_below = x->m == (uint64_t)1 << 52;
    json_wide twice = wide_shl(gap, !up && near_below ? 2 : 1);
    c = wide_cmp(&twice, &sc->scale);
    return c < 0 || (c == 0 && !(x->m & 1));
}

/* Writes q's P digits, most significant first, to d. */
static void digit_chars(uint64_t q, int P, char *d)
{
    for (int i = P - 1; i >= 0; i--) {
        d[i] = (char)('0' + q % 10);
        q /= 10;
    }
}

/* |x| in [1e-40, 1e15), normal, non-zero: the digits exactly, without
 * printf or strtod (10^k * m then fits in 256 bits, s in 3 .. 186). */
static bool in_exact_range(double a) { return a >= 1e-40 && a < 1e15; }

static const char *number_text_exact(double x, char buf[JSON_NUMBER_MAX])
{
    double a = fabs(x);
    int bexp;
    double frac = frexp(a, &bexp); /* a = frac * 2^bexp, frac in [0.5, 1) */
    json_binary b = {(uint64_t)ldexp(frac, 53), 53 - bexp};
    json_scaled sc;
    scale_first(&sc, a, &b, 15);
    json_decimal dec;
    while (!exact_digits(&b, &sc, &dec) && sc.P < 17) /* 17 digits always read back */
        scale_next(&sc);
    char d[17];
    digit_chars(dec.digits, sc.P, d);
    format_g(buf, signbit(x) != 0, d, sc.P, dec.exp10, sc.P);
    return buf;
}

const char *json_number_text(double x, char buf[JSON_NUMBER_MAX])
{
    if (x == 0)
        return strcpy(buf, signbit(x) ? "-0" : "0");
    if (!isfinite(x) || !in_exact_range(fabs(x)))
        return number_text_by_printf(x, buf);
    return number_text_exact(x, buf);
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
