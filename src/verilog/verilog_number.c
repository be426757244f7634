/* verilog_number.c: Verilog integer constants ("4'hA", "1'b0", "'b1", "12",
 * "8'dx") as constant bits (vlog_value per bit, most significant first).
 *
 * z and ? read as X (power analysis knows no high impedance).  A sized
 * constant whose digits are wider than its size keeps its low bits, as Verilog
 * does, but only when the bits dropped hold no 1: "3'hF" is an error, since it
 * is almost surely a mistake.  A narrower one is extended with 0, or with X
 * when its leftmost digit is x or z. */
#include <ctype.h>

#include "verilog/verilog_int.h"

/* Appends the low `width` bits of the `n` natural bits at const_bits[from],
 * extended as the header says; false when a dropped bit is 1. */
static bool vlog_fit_bits(vec_u8 *bits, size_t from, size_t n, uint32_t width, bool *nomem)
{
    *nomem = false;
    if (!vec_u8_reserve(bits, bits->len + width)) {
        *nomem = true;
        return false;
    }
    const uint8_t *nat = bits->data + from;
    uint8_t *out = bits->data + bits->len;
    if (width >= n) {
        uint8_t ext = nat[0] == VLOG_VALUE_X ? VLOG_VALUE_X : VLOG_VALUE_0;
        memset(out, ext, width - n);
        memcpy(out + (width - n), nat, n);
    } else {
        for (size_t i = 0; i < n - width; i++)
            if (nat[i] == VLOG_VALUE_1)
                return false;
        memcpy(out, nat + (n - width), width);
    }
    bits->len += width;
    return true;
}

gp_status vlog_fit_constant(vlog_reader *r, uint32_t pos, uint32_t len, uint32_t width,
                            uint32_t *out, bool *fits)
{
    size_t start = r->const_bits.len;
    bool nomem = start + width > UINT32_MAX;
    *fits = !nomem && vlog_fit_bits(&r->const_bits, pos, len, width, &nomem);
    if (nomem)
        return vlog_nomem(r);
    *out = (uint32_t)start;
    return GP_OK;
}

/* Appends the bits of v (at least one). */
static bool vlog_push_u64(vec_u8 *bits, uint64_t v)
{
    int n = 1;
    while (n < 64 && (v >> n) != 0)
        n++;
    for (int i = n - 1; i >= 0; i--)
        if (!vec_u8_push(bits, (v >> i) & 1 ? VLOG_VALUE_1 : VLOG_VALUE_0))
            return false;
    return true;
}

/* Decimal digits with '_' separators into *v; false on a bad digit or
 * overflow (*overflow says which). */
static bool vlog_decimal(const char *s, size_t len, uint64_t *v, bool *overflow)
{
    *v = 0;
    *overflow = false;
    bool any = false;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '_' && any)
            continue;
        if (!isdigit((unsigned char)s[i]))
            return false;
        unsigned digit = (unsigned)(s[i] - '0');
        if (*v > (UINT64_MAX - digit) / 10) {
            *overflow = true;
            return false;
        }
        *v = *v * 10 + digit;
        any = true;
    }
    return any;
}

/* Digits of base 2, 8 or 16 (bits per digit 1, 3, 4); false on a bad digit
 * (*bad set to it). */
static bool vlog_push_digits(vec_u8 *bits, const char *s, size_t len, int bits_per_digit,
                             char *bad, bool *nomem)
{
    *nomem = false;
    bool any = false;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        int value;
        if (c == '_' && any)
            continue;
        if (c == 'x' || c == 'X' || c == 'z' || c == 'Z' || c == '?')
            value = -1;
        else if (isdigit((unsigned char)c))
            value = c - '0';
        else if (isxdigit((unsigned char)c))
            value = 10 + (tolower((unsigned char)c) - 'a');
        else
            value = 1 << 4; /* never a digit */
        if (value >= (1 << bits_per_digit)) {
            *bad = c;
            return false;
        }
        for (int b = bits_per_digit - 1; b >= 0; b--) {
            uint8_t bit = value < 0 ? VLOG_VALUE_X : (value >> b) & 1 ? VLOG_VALUE_1 : VLOG_VALUE_0;
            if (!vec_u8_push(bits, bit)) {
                *nomem = true;
                return false;
            }
        }
        any = true;
    }
    if (!any)
        *bad = len ? s[0] : ' ';
    return any;
}

static gp_status vlog_bad_number(vlog_reader *r, diag_loc loc, const char *s, size_t len,
                                 const char *why)
{
    int shown = len > 40 ? 40 : (int)len;
    diag_error(r->d, 3040, loc, "bad number '%.*s%s': %s", shown, s, len > 40 ? "..." : "", why);
    return GP_ERR_PARSE;
}

/* The value digits of a based number into natural bits. */
static gp_status vlog_based_value(vlog_reader *r, diag_loc loc, const char *num, size_t num_len,
                                  char base, const char *s, size_t len)
{
    vec_u8 *bits = &r->const_bits;
    if (base == 'd') {
        uint64_t v;
        bool overflow;
        if (len == 1 && strchr("xXzZ?", s[0]))
            return vec_u8_push(bits, VLOG_VALUE_X) ? GP_OK : vlog_nomem(r);
        if (!vlog_decimal(s, len, &v, &overflow))
            return vlog_bad_number(r, loc, num, num_len,
                                   overflow ? "decimal value over 64 bits: write it in hexadecimal"
                                            : "expected decimal digits after 'd");
        return vlog_push_u64(bits, v) ? GP_OK : vlog_nomem(r);
    }
    int bits_per_digit = base == 'b' ? 1 : base == 'o' ? 3 : 4;
    if (len > VLOG_MAX_NUMBER_BITS)
        return vlog_bad_number(r, loc, num, num_len, "too many digits");
    char bad = 0;
    bool nomem;
    if (!vlog_push_digits(bits, s, len, bits_per_digit, &bad, &nomem)) {
        if (nomem)
            return vlog_nomem(r);
        char why[80];
        snprintf(why, sizeof why, "'%c' is not a digit of base '%c'", bad, base);
        return vlog_bad_number(r, loc, num, num_len, why);
    }
    return GP_OK;
}

/* size ' [s] base digits, with `quote` pointing at the apostrophe. */
static gp_status vlog_based_number(vlog_reader *r, const char *s, size_t len, size_t quote,
                                   diag_loc loc, vlog_number *out)
{
    uint64_t size = 0;
    bool overflow;
    out->sized = quote > 0;
    if (out->sized && !vlog_decimal(s, quote, &size, &overflow))
        return vlog_bad_number(r, loc, s, len, "the size before ' must be decimal digits");
    if (out->sized && (size == 0 || size > VLOG_MAX_NUMBER_BITS))
        return vlog_bad_number(r, loc, s, len, "the size must be 1 to 65536 bits");
    size_t i = quote + 1;
    if (i < len && (s[i] == 's' || s[i] == 'S'))
        i++;
    char base = i < len ? (char)tolower((unsigned char)s[i]) : 0;
    if (base != 'b' && base != 'o' && base != 'd' && base != 'h')
        return vlog_bad_number(r, loc, s, len, "expected the base b, o, d or h after '");
    size_t start = r->const_bits.len;
    gp_status st = vlog_based_value(r, loc, s, len, base, s + i + 1, len - i - 1);
    if (st != GP_OK)
        return st;
    size_t natural = r->const_bits.len - start;
    if (!out->sized) {
        out->width = (uint32_t)natural;
        return GP_OK;
    }
    bool nomem;
    if (!vlog_fit_bits(&r->const_bits, start, natural, (uint32_t)size, &nomem)) {
        if (nomem)
            return vlog_nomem(r);
        char why[80];
        snprintf(why, sizeof why, "the value does not fit in %u bits", (unsigned)size);
        return vlog_bad_number(r, loc, s, len, why);
    }
    /* Keep only the fitted copy, at `start`. */
    memmove(r->const_bits.data + start, r->const_bits.data + start + natural, (size_t)size);
    r->const_bits.len = start + (size_t)size;
    out->width = (uint32_t)size;
    return GP_OK;
}

gp_status vlog_parse_number(vlog_reader *r, const char *s, size_t len, diag_loc loc,
                            vlog_number *out)
{
    const char *quote = memchr(s, '\'', len);
    if (quote)
        return vlog_based_number(r, s, len, (size_t)(quote - s), loc, out);
    uint64_t v;
    bool overflow;
    if (!vlog_decimal(s, len, &v, &overflow))
        return vlog_bad_number(r, loc, s, len,
                               overflow ? "decimal value over 64 bits: write it in hexadecimal"
                                        : "expected a decimal number or a based one like 4'hA");
    size_t start = r->const_bits.len;
    if (!vlog_push_u64(&r->const_bits, v))
        return vlog_nomem(r);
    out->sized = false;
    out->width = (uint32_t)(r->const_bits.len - start);
    return GP_OK;
}
