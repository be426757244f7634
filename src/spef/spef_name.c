/* spef_name.c: the *NAME_MAP and SPEF names to the names of a flattened
 * netlist.
 *
 * A name may start with a name-map index ("*12", "*12:A", "*12/sub"): the
 * index is replaced by its mapped name, and the result is normalised: a
 * backslash makes the next character part of the name ("a\[3\]"), each
 * unescaped hierarchy divider becomes '/', and a bus bit written with the
 * file's bus delimiters ("d<3>", or "d:3" with no closing one) becomes "d[3]". */
#include <stdlib.h>

#include "spef/spef_int.h"

static bool spef_is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* --- the name map ------------------------------------------------------------ */

/* The digits after '*' in s[0..len) as an index; *end is where they stop.
 * False when there are none or they overflow. */
static bool spef_index(const char *s, size_t len, uint64_t *index, size_t *end)
{
    size_t i = 1;
    uint64_t v = 0;
    if (len < 2 || s[0] != '*' || !spef_is_digit(s[1]))
        return false;
    for (; i < len && spef_is_digit(s[i]); i++) {
        unsigned digit = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - digit) / 10)
            return false;
        v = v * 10 + digit;
    }
    *index = v;
    *end = i;
    return true;
}

gp_status spef_map_add(spef_parser *p)
{
    spef_map_entry e;
    size_t end;
    if (!spef_index(p->t.text, p->t.len, &e.index, &end) || end != p->t.len)
        return spef_unexpected(p, "a name-map entry '*index name' or a keyword");
    e.line = p->t.line;
    gp_status st = spef_next(p);
    if (st != GP_OK || p->t.kind != TOK_WORD || spef_is_keyword(&p->t))
        return spef_unexpected(p, "the mapped name");
    e.len = p->t.len;
    if (!(e.name = arena_strndup(&p->keep, p->t.text, p->t.len)))
        return spef_nomem(p);
    if (p->map.len > 0 && p->map.data[p->map.len - 1].index >= e.index)
        p->map_sorted = false;
    return spef_map_vec_push(&p->map, e) ? GP_OK : spef_nomem(p);
}

static int spef_map_cmp(const void *a, const void *b)
{
    const spef_map_entry *x = a, *y = b;
    if (x->index != y->index)
        return x->index < y->index ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

gp_status spef_map_finish(spef_parser *p)
{
    if (p->map_sorted)
        return GP_OK;
    qsort(p->map.data, p->map.len, sizeof p->map.data[0], spef_map_cmp);
    for (size_t i = 1; i < p->map.len; i++) {
        const spef_map_entry *a = &p->map.data[i - 1], *b = &p->map.data[i];
        if (a->index == b->index) {
            diag_loc loc = {tok_loc(p->lx, &p->t).file, b->line, 0};
            diag_error(p->d, 5010, loc,
                       "name-map index *%llu is given twice (also on line %d): each index must "
                       "name one object",
                       (unsigned long long)b->index, a->line);
            return GP_ERR_PARSE;
        }
    }
    p->map_sorted = true;
    return GP_OK;
}

static const spef_map_entry *spef_map_find(const spef_parser *p, uint64_t index)
{
    size_t lo = 0, hi = p->map.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->map.data[mid].index < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->map.len && p->map.data[lo].index == index ? &p->map.data[lo] : NULL;
}

/* The map entry of p->t's leading index (NULL when it has none); *end is
 * where the index stops.  Reports an index the map lacks. */
static gp_status spef_lookup(spef_parser *p, const spef_map_entry **e, size_t *end)
{
    const tok *t = &p->t;
    uint64_t index;
    *e = NULL;
    *end = 0;
    if (t->len < 2 || t->text[0] != '*' || !spef_is_digit(t->text[1]))
        return GP_OK;
    if (spef_index(t->text, t->len, &index, end) && (*e = spef_map_find(p, index)))
        return GP_OK;
    size_t n = 1;
    while (n < t->len && n < 24 && spef_is_digit(t->text[n]))
        n++;
    diag_error(p->d, 5009, tok_loc(p->lx, t),
               "unknown name-map index '%.*s': *NAME_MAP does not define it (is the name map "
               "missing or cut short?)",
               (int)n, t->text);
    return GP_ERR_PARSE;
}

gp_status spef_check_node(spef_parser *p)
{
    const spef_map_entry *e;
    size_t end;
    return spef_lookup(p, &e, &end);
}

/* p->t with its index replaced, into p->name. */
static gp_status spef_expand(spef_parser *p)
{
    const spef_map_entry *e;
    size_t end;
    gp_status st = spef_lookup(p, &e, &end);
    if (st != GP_OK)
        return st;
    size_t head = e ? e->len : 0, rest = p->t.len - end;
    if (!vec_u8_reserve(&p->name, head + rest))
        return spef_nomem(p);
    if (e)
        memcpy(p->name.data, e->name, head);
    memcpy(p->name.data + head, p->t.text + end, rest);
    p->name.len = head + rest;
    return GP_OK;
}

/* --- normalising ------------------------------------------------------------- */

/* The length of a bus bit "<digits>" written with the file's delimiters at
 * s[i] (s[i] is bus_open), or 0 when there is none. */
static size_t spef_bus_bit_len(const spef_header *h, const char *s, size_t len, size_t i)
{
    size_t j = i + 1;
    while (j < len && spef_is_digit(s[j]))
        j++;
    if (j == i + 1)
        return 0;
    if (h->bus_close)
        return j < len && s[j] == h->bus_close ? j + 1 - i : 0;
    return j == len || s[j] == h->divider ? j - i : 0;
}

/* Normalises s[0..len) into out (room for 2 * len + 1: a bus bit without a
 * closing delimiter grows by one).  False for an empty part or a trailing
 * backslash. */
static bool spef_normalise(const spef_header *h, const char *s, size_t len, char *out)
{
    size_t o = 0, part = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        size_t bit = c == h->bus_open && c != '[' ? spef_bus_bit_len(h, s, len, i) : 0;
        if (c == '\\') {
            if (++i == len)
                return false;
            out[o++] = s[i];
        } else if (c == h->divider) {
            if (o == part)
                return false;
            out[o++] = '/';
            part = o;
        } else if (bit > 0) {
            size_t digits = h->bus_close ? bit - 2 : bit - 1;
            out[o++] = '[';
            memcpy(out + o, s + i + 1, digits);
            o += digits;
            out[o++] = ']';
            i += bit - 1;
        } else {
            out[o++] = c;
        }
    }
    out[o] = '\0';
    return o > part;
}

/* The normalised copy of s[0..len) in the scratch arena. */
static gp_status spef_normalised(spef_parser *p, const char *s, size_t len, const char **out)
{
    char *buf = len < SIZE_MAX / 2 ? arena_alloc(&p->scratch, 2 * len + 1, 1) : NULL;
    if (!buf)
        return spef_nomem(p);
    *out = buf;
    if (spef_normalise(&p->hdr, s, len, buf))
        return GP_OK;
    int n = p->t.len > 40 ? 40 : (int)p->t.len;
    diag_error(p->d, 5018, tok_loc(p->lx, &p->t),
               "bad name '%.*s': a part of it is empty or it ends in a lone backslash (the "
               "file's *DIVIDER is '%c', *DELIMITER '%c')",
               n, p->t.text, p->hdr.divider, p->hdr.delimiter);
    return GP_ERR_PARSE;
}

gp_status spef_name(spef_parser *p, const char **name)
{
    gp_status st = spef_expand(p);
    if (st != GP_OK)
        return st;
    return spef_normalised(p, (const char *)p->name.data, p->name.len, name);
}

gp_status spef_pin(spef_parser *p, const char **inst, const char **pin)
{
    gp_status st = spef_expand(p);
    if (st != GP_OK)
        return st;
    const char *s = (const char *)p->name.data;
    size_t len = p->name.len, split = SIZE_MAX, before = SIZE_MAX;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\\') {
            i++;
        } else if (s[i] == p->hdr.delimiter) {
            before = split;
            split = i;
        }
    }
    /* With ':' as both the pin and the (open-only) bus delimiter, "u1:D:3"
     * is bit 3 of pin D. */
    if (before != SIZE_MAX && p->hdr.bus_open == p->hdr.delimiter && !p->hdr.bus_close &&
        spef_bus_bit_len(&p->hdr, s, len, split) == len - split)
        split = before;
    if (split == SIZE_MAX) {
        int n = p->t.len > 40 ? 40 : (int)p->t.len;
        diag_error(p->d, 5017, tok_loc(p->lx, &p->t),
                   "pin '%.*s' has no pin delimiter '%c': write instance%cpin", n, p->t.text,
                   p->hdr.delimiter, p->hdr.delimiter);
        return GP_ERR_PARSE;
    }
    st = spef_normalised(p, s, split, inst);
    return st == GP_OK ? spef_normalised(p, s + split + 1, len - split - 1, pin) : st;
}
