/* sdf_name.c: SDF hierarchical names to the '/'-separated, unescaped names
 * of a flattened netlist.
 *
 * In SDF a backslash makes the next character part of the name ("ff\[0\]",
 * "a\/b"), and the DIVIDER character ('/' or '.') separates hierarchy
 * levels.  The result drops the backslashes and writes every unescaped
 * divider as '/': "u1.ff\[0\].D" with DIVIDER . gives "u1/ff[0]/D". */
#include "sdf/sdf_int.h"

/* Unescapes s[0..len) into out (room for len + 1).  *last_div is the output
 * index of the '/' written for the last unescaped divider (SIZE_MAX if none);
 * *range tells whether the last part has a ':' inside unescaped brackets
 * (a bus range).  Returns false for an empty part or a trailing backslash. */
static bool sdf_unescape(const char *s, size_t len, char divider, char *out, size_t *last_div,
                         bool *range)
{
    size_t o = 0;
    bool bracket = false;
    *last_div = SIZE_MAX;
    *range = false;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '\\') {
            if (++i == len)
                return false;
            out[o++] = s[i];
        } else if (c == divider) {
            if (o == 0 || o == *last_div + 1)
                return false; /* "/a", "a//b" */
            *last_div = o;
            out[o++] = '/';
            bracket = *range = false;
        } else {
            bracket |= c == '[';
            *range |= bracket && c == ':';
            out[o++] = c;
        }
    }
    out[o] = '\0';
    return o > 0 && o != *last_div + 1; /* not "a/" */
}

/* The unescaped copy of p->t in the scratch arena. */
static gp_status sdf_unescape_token(sdf_parser *p, char **out, size_t *last_div, bool *range)
{
    const tok *t = &p->t;
    if (!(*out = arena_alloc(&p->scratch, t->len + 1, 1)))
        return sdf_nomem(p);
    if (sdf_unescape(t->text, t->len, p->hdr.divider, *out, last_div, range))
        return GP_OK;
    int n = t->len > 40 ? 40 : (int)t->len;
    diag_error(p->d, 4019, tok_loc(p->lx, t),
               "bad name '%.*s': a part of the path is empty or it ends in a lone backslash "
               "(the file's DIVIDER is '%c')",
               n, t->text, p->hdr.divider);
    return GP_ERR_PARSE;
}

gp_status sdf_parse_path(sdf_parser *p, const char **path)
{
    char *out;
    size_t last_div;
    bool range;
    gp_status st = sdf_unescape_token(p, &out, &last_div, &range);
    *path = out;
    return st;
}

gp_status sdf_parse_pin(sdf_parser *p, sdf_pin *pin, bool *bus_range)
{
    char *out;
    size_t last_div;
    gp_status st = sdf_unescape_token(p, &out, &last_div, bus_range);
    if (st != GP_OK)
        return st;
    if (last_div == SIZE_MAX) {
        pin->inst = "";
        pin->pin = out;
    } else {
        out[last_div] = '\0';
        pin->inst = out;
        pin->pin = out + last_div + 1;
    }
    return GP_OK;
}
