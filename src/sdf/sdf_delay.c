/* sdf_delay.c: DELAY groups: the ABSOLUTE and INCREMENT entries (IOPATH,
 * COND, CONDELSE, INTERCONNECT, PORT, DEVICE) and their delay values. */
#include "sdf/sdf_int.h"

/* One delay value, picked and in femtoseconds. */
typedef struct sdf_val {
    double v;
    bool present;
} sdf_val;

/* SDF allows 1, 2, 3, 6 or 12 values per entry; more than this is an error
 * found while reading. */
#define SDF_MAX_VALUES 12

/* --- values ---------------------------------------------------------------- */

static gp_status sdf_bad_number(sdf_parser *p)
{
    int n = p->t.len > 40 ? 40 : (int)p->t.len;
    diag_error(p->d, 4005, tok_loc(p->lx, &p->t),
               "bad number '%.*s': a value is a number or min:typ:max (members may be empty)", n,
               p->t.text);
    return GP_ERR_PARSE;
}

gp_status sdf_parse_value(sdf_parser *p, double *out, bool *present)
{
    /* The members' order of preference for each pick: the picked one first. */
    static const int order[][3] = {
        [SDF_PICK_TYP] = {1, 2, 0}, [SDF_PICK_MIN] = {0, 1, 2}, [SDF_PICK_MAX] = {2, 1, 0}};
    const char *s = p->t.text, *end = s + p->t.len;
    double m[3];
    bool has[3] = {false, false, false};
    int n = 0;
    for (const char *start = s;; n++) {
        const char *colon = memchr(start, ':', (size_t)(end - start));
        const char *stop = colon ? colon : end;
        if (n == 3 || (stop > start && !tok_parse_double(start, (size_t)(stop - start), &m[n])))
            return sdf_bad_number(p);
        has[n] = stop > start;
        if (!colon)
            break;
        start = colon + 1;
    }
    if (n == 0) { /* a single number (a word is never empty) */
        *out = m[0];
        *present = true;
        return GP_OK;
    }
    if (n != 2)
        return sdf_bad_number(p);
    *present = false;
    for (int k = 0; k < 3 && !*present; k++) {
        if (!has[order[p->pick][k]])
            continue;
        *out = m[order[p->pick][k]];
        *present = true;
        if (k > 0 && p->fallback_count++ == 0)
            p->first_fallback = tok_loc(p->lx, &p->t);
    }
    return GP_OK;
}

/* An rvalue whose '(' is read, p->t the token after it: ")" or "value )". */
static gp_status sdf_parse_rvalue(sdf_parser *p, sdf_val *val)
{
    *val = (sdf_val){0, false};
    if (tok_is_punct(&p->t, ')'))
        return GP_OK;
    if (p->t.kind != TOK_WORD)
        return sdf_unexpected(p, "a delay value");
    gp_status st = sdf_parse_value(p, &val->v, &val->present);
    if (st != GP_OK)
        return st;
    val->v *= p->hdr.timescale;
    return sdf_expect_punct(p, ')', "')' after the delay value");
}

/* A delval whose '(' is read: an rvalue, or "((v) (r) [(e)])", a value with
 * pulse rejection and error limits, of which the value is kept. */
static gp_status sdf_parse_delval(sdf_parser *p, sdf_val *val)
{
    if (!tok_is_punct(&p->t, '('))
        return sdf_parse_rvalue(p, val);
    diag_loc loc = tok_loc(p->lx, &p->t);
    gp_status st = sdf_next(p);
    if (st == GP_OK)
        st = sdf_parse_rvalue(p, val);
    while (st == GP_OK) {
        if ((st = sdf_next(p)) != GP_OK || tok_is_punct(&p->t, ')'))
            break;
        sdf_val limit;
        if (!tok_is_punct(&p->t, '('))
            return sdf_unexpected(p, "a pulse limit '(...)' or ')'");
        if ((st = sdf_next(p)) == GP_OK)
            st = sdf_parse_rvalue(p, &limit);
    }
    if (st != GP_OK)
        return sdf_unexpected(p, "')'");
    sdf_warn_unsupported(p, "a pulse rejection or error limit", loc);
    return GP_OK;
}

/* The rise and fall delays of an entry (at entry_loc) with `count` values,
 * the first two in vals; z_or_x says whether a later one is given. */
static gp_status sdf_delvals_result(sdf_parser *p, diag_loc entry_loc, sdf_val vals[2], int count,
                                    bool z_or_x, sdf_delay *out)
{
    if (count != 1 && count != 2 && count != 3 && count != 6 && count != 12) {
        diag_error(p->d, 4015, entry_loc,
                   "%d delay values: SDF allows 1 (all transitions), 2 (rise, fall), 3, 6 or 12 "
                   "(then transitions to and from Z and X)",
                   count);
        return GP_ERR_PARSE;
    }
    if (z_or_x)
        sdf_say_once(p, SDF_ONCE_ZX, entry_loc, NULL, 0);
    if (count == 1)
        vals[1] = vals[0];
    *out = (sdf_delay){vals[0].present ? vals[0].v : 0, vals[1].present ? vals[1].v : 0,
                       vals[0].present, vals[1].present};
    return GP_OK;
}

/* An entry's delay values, through the ')' that closes the entry at
 * entry_loc; RETAIN groups among them are skipped. */
static gp_status sdf_parse_delvals(sdf_parser *p, diag_loc entry_loc, sdf_delay *out)
{
    sdf_val vals[2] = {{0, false}, {0, false}};
    int count = 0;
    bool z_or_x = false; /* a value past the first two is given */
    gp_status st;
    for (;;) {
        if ((st = sdf_next(p)) != GP_OK || !(tok_is_punct(&p->t, '(') || tok_is_punct(&p->t, ')')))
            return sdf_unexpected(p, "a delay value '(...)' or ')'");
        if (tok_is_punct(&p->t, ')'))
            break;
        diag_loc loc = tok_loc(p->lx, &p->t);
        if ((st = sdf_next(p)) != GP_OK)
            return sdf_unexpected(p, "a delay value");
        if (sdf_is_kw(&p->t, "RETAIN")) {
            sdf_warn_unsupported(p, "RETAIN", loc);
            if ((st = sdf_skip_group(p)) != GP_OK)
                return st;
            continue;
        }
        sdf_val v;
        if (count == SDF_MAX_VALUES || (st = sdf_parse_delval(p, &v)) != GP_OK)
            return count == SDF_MAX_VALUES ? sdf_unexpected(p, "')' after 12 delay values") : st;
        if (count < 2)
            vals[count] = v;
        z_or_x |= count >= 2 && v.present;
        count++;
    }
    return sdf_delvals_result(p, entry_loc, vals, count, z_or_x, out);
}

/* --- entries ----------------------------------------------------------------- */

/* The next token as a port or pin path. */
static gp_status sdf_next_pin(sdf_parser *p, sdf_pin *pin, bool *bus_range, const char *what)
{
    gp_status st = sdf_next(p);
    if (st != GP_OK || p->t.kind != TOK_WORD)
        return sdf_unexpected(p, what);
    return sdf_parse_pin(p, pin, bus_range);
}

/* The input of an IOPATH: "A" or "(posedge A)".  *skip_kind is set to what
 * makes the entry unsupported, if anything. */
static gp_status sdf_parse_port_spec(sdf_parser *p, sdf_iopath *e, const char **skip_kind)
{
    static const char *const other_edges[] = {"01", "10", "0z", "z1", "1z", "z0"};
    bool range;
    gp_status st = sdf_next(p);
    if (st != GP_OK || !(p->t.kind == TOK_WORD || tok_is_punct(&p->t, '(')))
        return sdf_unexpected(p, "the input port");
    if (p->t.kind == TOK_WORD) {
        st = sdf_parse_pin(p, &e->in, &range);
        *skip_kind = range ? "a bus-range port such as D[3:0]" : NULL;
        return st;
    }
    if ((st = sdf_next(p)) != GP_OK || p->t.kind != TOK_WORD)
        return sdf_unexpected(p, "posedge or negedge");
    if (sdf_is_kw(&p->t, "posedge") || sdf_is_kw(&p->t, "negedge")) {
        e->edge = sdf_is_kw(&p->t, "posedge") ? SDF_EDGE_POSEDGE : SDF_EDGE_NEGEDGE;
    } else {
        size_t i = 0;
        while (i < 6 && !sdf_is_kw(&p->t, other_edges[i]))
            i++;
        if (i == 6) {
            int n = p->t.len > 40 ? 40 : (int)p->t.len;
            diag_error(p->d, 4017, tok_loc(p->lx, &p->t),
                       "bad edge '%.*s': write posedge or negedge (or 01, 10, 0z, z1, 1z, z0)", n,
                       p->t.text);
            return GP_ERR_PARSE;
        }
        *skip_kind = "an IOPATH edge other than posedge or negedge";
    }
    if ((st = sdf_next_pin(p, &e->in, &range, "the input port")) != GP_OK)
        return st;
    if (range)
        *skip_kind = "a bus-range port such as D[3:0]";
    return sdf_expect_punct(p, ')', "')' after the edge's port");
}

/* An IOPATH whose keyword is read; e carries its COND / CONDELSE part. */
static gp_status sdf_parse_iopath(sdf_parser *p, sdf_iopath *e, diag_loc loc)
{
    const char *skip_kind = NULL;
    bool range;
    gp_status st = sdf_parse_port_spec(p, e, &skip_kind);
    if (st == GP_OK)
        st = sdf_next_pin(p, &e->out, &range, "the output port");
    if (st == GP_OK)
        st = sdf_parse_delvals(p, loc, &e->delay);
    if (st != GP_OK)
        return st;
    if (!skip_kind && range)
        skip_kind = "a bus-range port such as D[3:0]";
    if (skip_kind) {
        sdf_warn_unsupported(p, skip_kind, loc);
        return GP_OK;
    }
    return p->v->iopath ? p->v->iopath(p->v->ctx, e, loc) : GP_OK;
}

/* Appends p->t's text to the COND expression, after one space when the file
 * has blanks between it and the previous token (ending at *prev_end). */
static gp_status sdf_cond_append(sdf_parser *p, long long *prev_line, long long *prev_end)
{
    vec_u8 *c = &p->cond;
    bool space = c->len > 0 && (p->t.line != *prev_line || p->t.col != *prev_end);
    if (!vec_u8_reserve(c, c->len + p->t.len + 2))
        return sdf_nomem(p);
    if (space)
        c->data[c->len++] = ' ';
    memcpy(c->data + c->len, p->t.text, p->t.len);
    c->len += p->t.len;
    *prev_line = p->t.line;
    *prev_end = (long long)p->t.col + (long long)p->t.len;
    return GP_OK;
}

/* COND's expression, p->t its first token, up to the '(' of its IOPATH (at
 * *iopath_loc); p->t is left at the IOPATH keyword and the expression,
 * NUL-terminated, in p->cond. */
static gp_status sdf_parse_cond_expr(sdf_parser *p, diag_loc *iopath_loc)
{
    long long prev_line = 0, prev_end = 0;
    int depth = 0;
    p->cond.len = 0;
    for (gp_status st = GP_OK;; st = sdf_next(p)) {
        tok ahead;
        bool open = tok_is_punct(&p->t, '(');
        if (st != GP_OK || p->t.kind == TOK_EOF || p->t.kind == TOK_STRING ||
            (tok_is_punct(&p->t, ')') && depth == 0))
            return sdf_unexpected(p, "a condition followed by (IOPATH ...)");
        if (open && tok_peek(p->lx, &ahead) == GP_OK && sdf_is_kw(&ahead, "IOPATH")) {
            if (depth > 0)
                return sdf_unexpected(p, "')' closing the condition's parentheses");
            *iopath_loc = tok_loc(p->lx, &p->t);
            break;
        }
        depth += open ? 1 : tok_is_punct(&p->t, ')') ? -1 : 0;
        if ((st = sdf_cond_append(p, &prev_line, &prev_end)) != GP_OK)
            return st;
    }
    if (p->cond.len == 0) {
        diag_error(p->d, 4016, tok_loc(p->lx, &p->t),
                   "COND without a condition: write (COND expression (IOPATH ...))");
        return GP_ERR_PARSE;
    }
    if (!vec_u8_push(&p->cond, '\0'))
        return sdf_nomem(p);
    return sdf_next(p); /* the IOPATH keyword, as the peek saw */
}

/* (COND ["name"] expression (IOPATH ...)) whose keyword is read. */
static gp_status sdf_parse_cond(sdf_parser *p, bool increment)
{
    sdf_iopath e = {.increment = increment};
    diag_loc iopath_loc;
    gp_status st = sdf_next(p);
    if (st == GP_OK && p->t.kind == TOK_STRING) {
        if (!(e.cond_name = sdf_copy_text(p, &p->scratch)))
            return sdf_nomem(p);
        st = sdf_next(p);
    }
    if (st == GP_OK)
        st = sdf_parse_cond_expr(p, &iopath_loc);
    if (st == GP_OK && !(e.cond = arena_strndup(&p->scratch, (const char *)p->cond.data,
                                                p->cond.len - 1)))
        st = sdf_nomem(p);
    if (st == GP_OK)
        st = sdf_parse_iopath(p, &e, iopath_loc);
    if (st == GP_OK)
        st = sdf_expect_punct(p, ')', "')' closing COND");
    return st;
}

/* (CONDELSE (IOPATH ...)) whose keyword is read. */
static gp_status sdf_parse_condelse(sdf_parser *p, bool increment)
{
    sdf_iopath e = {.condelse = true, .increment = increment};
    gp_status st = sdf_expect_punct(p, '(', "'(' opening CONDELSE's IOPATH");
    diag_loc loc = tok_loc(p->lx, &p->t);
    if (st == GP_OK && ((st = sdf_next(p)) != GP_OK || !sdf_is_kw(&p->t, "IOPATH")))
        st = sdf_unexpected(p, "IOPATH");
    if (st == GP_OK)
        st = sdf_parse_iopath(p, &e, loc);
    if (st == GP_OK)
        st = sdf_expect_punct(p, ')', "')' closing CONDELSE");
    return st;
}

static gp_status sdf_parse_interconnect(sdf_parser *p, bool increment, diag_loc loc)
{
    sdf_interconnect e = {.increment = increment};
    bool range_from, range_to;
    gp_status st = sdf_next_pin(p, &e.from, &range_from, "the driving pin");
    if (st == GP_OK)
        st = sdf_next_pin(p, &e.to, &range_to, "the load pin");
    if (st == GP_OK)
        st = sdf_parse_delvals(p, loc, &e.delay);
    if (st != GP_OK)
        return st;
    if (range_from || range_to) {
        sdf_warn_unsupported(p, "a bus-range port such as D[3:0]", loc);
        return GP_OK;
    }
    return p->v->interconnect ? p->v->interconnect(p->v->ctx, &e, loc) : GP_OK;
}

static gp_status sdf_parse_port(sdf_parser *p, bool increment, diag_loc loc)
{
    sdf_port_delay e = {.increment = increment};
    bool range;
    gp_status st = sdf_next_pin(p, &e.port, &range, "the port");
    if (st == GP_OK)
        st = sdf_parse_delvals(p, loc, &e.delay);
    if (st != GP_OK)
        return st;
    if (range) {
        sdf_warn_unsupported(p, "a bus-range port such as D[3:0]", loc);
        return GP_OK;
    }
    return p->v->port ? p->v->port(p->v->ctx, &e, loc) : GP_OK;
}

/* (DEVICE [port] values) */
static gp_status sdf_parse_device(sdf_parser *p, bool increment, diag_loc loc)
{
    sdf_device e = {.increment = increment, .out = {"", ""}};
    bool range = false;
    tok ahead;
    gp_status st = tok_peek(p->lx, &ahead);
    if (st == GP_OK && ahead.kind == TOK_WORD) {
        e.has_out = true;
        st = sdf_next_pin(p, &e.out, &range, "the output port");
    }
    if (st == GP_OK)
        st = sdf_parse_delvals(p, loc, &e.delay);
    if (st != GP_OK)
        return st;
    if (range) {
        sdf_warn_unsupported(p, "a bus-range port such as D[3:0]", loc);
        return GP_OK;
    }
    return p->v->device ? p->v->device(p->v->ctx, &e, loc) : GP_OK;
}

/* One entry of ABSOLUTE or INCREMENT whose '(' (at loc) and keyword are read. */
static gp_status sdf_parse_del_def(sdf_parser *p, bool increment, diag_loc loc)
{
    arena_reset(&p->scratch);
    if (sdf_is_kw(&p->t, "IOPATH")) {
        sdf_iopath e = {.increment = increment};
        return sdf_parse_iopath(p, &e, loc);
    }
    if (sdf_is_kw(&p->t, "COND"))
        return sdf_parse_cond(p, increment);
    if (sdf_is_kw(&p->t, "CONDELSE"))
        return sdf_parse_condelse(p, increment);
    if (sdf_is_kw(&p->t, "INTERCONNECT"))
        return sdf_parse_interconnect(p, increment, loc);
    if (sdf_is_kw(&p->t, "PORT"))
        return sdf_parse_port(p, increment, loc);
    if (sdf_is_kw(&p->t, "DEVICE"))
        return sdf_parse_device(p, increment, loc);
    if (sdf_is_kw(&p->t, "NETDELAY")) {
        sdf_warn_unsupported(p, "NETDELAY", loc);
        return sdf_skip_group(p);
    }
    return sdf_skip_unknown(p, loc);
}

/* Reads the groups of a DELAY's ABSOLUTE / INCREMENT (increment) or of the
 * DELAY itself (in_delay), the '(' of the first read when `open`, through
 * the closing ')' unless the reading stops among ABSOLUTE's or INCREMENT's
 * entries. */
static gp_status sdf_parse_groups(sdf_parser *p, bool in_delay, bool increment, bool open)
{
    sdf_place place = increment ? SDF_PLACE_INCREMENT : SDF_PLACE_ABSOLUTE;
    for (;; open = false) {
        gp_status st;
        if (!open) {
            st = sdf_next(p);
            if (st != GP_OK || !(tok_is_punct(&p->t, '(') || tok_is_punct(&p->t, ')')))
                return sdf_unexpected(p, "'(' or ')'");
            if (tok_is_punct(&p->t, ')'))
                return GP_OK;
            if (!in_delay && sdf_stops_here(p, place))
                return GP_OK;
        }
        diag_loc loc = tok_loc(p->lx, &p->t);
        if ((st = sdf_next(p)) != GP_OK || p->t.kind != TOK_WORD)
            return sdf_unexpected(p, "a keyword");
        if (!in_delay) {
            st = sdf_parse_del_def(p, increment, loc);
        } else if (sdf_is_kw(&p->t, "ABSOLUTE") || sdf_is_kw(&p->t, "INCREMENT")) {
            st = sdf_parse_groups(p, false, sdf_is_kw(&p->t, "INCREMENT"), false);
        } else if (sdf_is_kw(&p->t, "PATHPULSE") || sdf_is_kw(&p->t, "PATHPULSEPERCENT")) {
            sdf_warn_unsupported(p, sdf_is_kw(&p->t, "PATHPULSE") ? "PATHPULSE" : "PATHPULSEPERCENT",
                                 loc);
            st = sdf_skip_group(p);
        } else {
            st = sdf_skip_unknown(p, loc);
        }
        if (st != GP_OK || p->stopped)
            return st;
    }
}

gp_status sdf_parse_delay(sdf_parser *p)
{
    return sdf_parse_groups(p, true, false, false);
}

gp_status sdf_parse_delay_from(sdf_parser *p, bool increment, bool open)
{
    gp_status st = sdf_parse_groups(p, false, increment, open);
    if (st != GP_OK || p->stopped)
        return st;
    return sdf_parse_groups(p, true, false, false);
}
