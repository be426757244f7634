/* verilog_expr.c: the expressions of a structural netlist: a net, a bit- or
 * part-select of it, a constant, a concatenation {a, b[1:0], 2'b01} or a
 * replication {4{1'b0}}.  They become terms (verilog_int.h); names resolve
 * against the declarations of the module being parsed, so a net must be
 * declared before its use, or is an implicit scalar wire (Verilog's rule,
 * unless `default_nettype none). */
#include <ctype.h>

#include "verilog/verilog_int.h"

static gp_status vlog_parse_operand(vlog_parser *p);

/* Appends a term; one expression may hold at most VLOG_MAX_EXPR_TERMS. */
static gp_status vlog_push_term(vlog_parser *p, vlog_term term)
{
    if (p->r->terms.len - p->expr_first >= VLOG_MAX_EXPR_TERMS) {
        diag_error(p->r->d, 3019, vlog_here(p),
                   "expression has more than %u parts after replication: split it",
                   (unsigned)VLOG_MAX_EXPR_TERMS);
        return GP_ERR_INPUT;
    }
    return vlog_term_vec_push(&p->r->terms, term) ? GP_OK : vlog_nomem(p->r);
}

bool vlog_index_value(const char *s, size_t len, int32_t *out)
{
    int64_t v;
    if (!tok_parse_i64(s, len, &v) || v < INT32_MIN || v > INT32_MAX)
        return false;
    *out = (int32_t)v;
    return true;
}

/* A bit index or range bound: a decimal integer within int32. */
static gp_status vlog_take_index(vlog_parser *p, int32_t *out)
{
    if (p->t.kind != TOK_WORD || !vlog_index_value(p->t.text, p->t.len, out)) {
        if (p->t.kind != TOK_WORD)
            return vlog_syntax_error(p, "a bit index (an integer)");
        diag_error(p->r->d, 3016, vlog_here(p),
                   "bad index '%.*s': expected a decimal integer (expressions and parameters "
                   "are not evaluated)",
                   (int)(p->t.len > 40 ? 40 : p->t.len), p->t.text);
        return GP_ERR_PARSE;
    }
    return vlog_advance(p);
}

/* The position (0 = most significant) of index i within s, or false when
 * outside its range. */
static bool vlog_position(const vlog_signal *s, int32_t i, uint32_t *pos)
{
    int64_t d = s->msb >= s->lsb ? (int64_t)s->msb - i : (int64_t)i - s->msb;
    if (d < 0 || d >= (int64_t)vlog_signal_width(s))
        return false;
    *pos = (uint32_t)d;
    return true;
}

int vlog_select_term(const vlog_signal *s, uint32_t sig, int32_t hi, int32_t lo,
                     vlog_term *term)
{
    uint32_t pos_hi, pos_lo;
    if (!(s->flags & VLOG_SIG_VECTOR))
        return 3012;
    if (!vlog_position(s, hi, &pos_hi) || !vlog_position(s, lo, &pos_lo))
        return 3013;
    if (pos_hi > pos_lo)
        return 3014;
    *term = (vlog_term){sig, pos_hi, pos_lo - pos_hi + 1};
    return 0;
}

/* The signal `name` refers to, making an implicit scalar wire when allowed. */
static gp_status vlog_resolve(vlog_parser *p, const vlog_name *name, bool selected,
                              uint32_t *sig)
{
    vlog_reader *r = p->r;
    vlog_slot *slot = &r->sig_of.data[name->sym];
    diag_loc loc = vlog_loc(r, p->file, (uint32_t)name->line, (uint32_t)name->col);
    if (slot->stamp == p->stamp) {
        *sig = slot->index;
        if (r->signals.data[*sig].flags & VLOG_SIG_SIZED)
            return GP_OK;
        diag_error(r->d, 3036, loc,
                   "port '%s' is used before its declaration: declare it (input, output or "
                   "inout) first",
                   vlog_sym(r, name->sym));
        return GP_ERR_INPUT;
    }
    if (selected || p->nettype_none) {
        diag_error(r->d, 3011, loc,
                   "'%s' is not declared%s: declare it (wire%s %s;) before this use",
                   vlog_sym(r, name->sym), selected ? " but has a select" : "",
                   selected ? " [msb:lsb]" : "", vlog_sym(r, name->sym));
        return GP_ERR_INPUT;
    }
    if (r->signals.len >= VLOG_TERM_UNSIZED)
        return vlog_nomem(r);
    vlog_signal s = {.name = name->sym,
                     .flags = VLOG_SIG_SIZED | VLOG_SIG_IMPLICIT |
                              (name->escaped ? VLOG_SIG_ESCAPED : 0),
                     .line = (uint32_t)name->line, .col = (uint32_t)name->col};
    if (!vlog_signal_vec_push(&r->signals, s))
        return vlog_nomem(r);
    *sig = (uint32_t)(r->signals.len - 1);
    *slot = (vlog_slot){p->stamp, *sig};
    return GP_OK;
}

/* Message `why` (vlog_select_term) about the select [hi:lo] of s at loc. */
static gp_status vlog_bad_select(vlog_parser *p, int why, diag_loc loc, const vlog_signal *s,
                                 int32_t hi, int32_t lo)
{
    const char *text = vlog_sym(p->r, s->name);
    if (why == 3012)
        diag_error(p->r->d, 3012, loc, "'%s' is a scalar: it has no bit [%d]", text, (int)hi);
    else if (why == 3013)
        diag_error(p->r->d, 3013, loc, "select [%d:%d] is outside '%s' [%d:%d]", (int)hi,
                   (int)lo, text, (int)s->msb, (int)s->lsb);
    else
        diag_error(p->r->d, 3014, loc,
                   "part-select [%d:%d] runs against the declared range of '%s' [%d:%d]: "
                   "write [%d:%d]",
                   (int)hi, (int)lo, text, (int)s->msb, (int)s->lsb, (int)lo, (int)hi);
    return GP_ERR_INPUT;
}

/* name [ '[' i [':' j] ']' ] */
static gp_status vlog_parse_ref(vlog_parser *p)
{
    vlog_name name;
    gp_status st = vlog_take_name(p, "a net name", &name);
    if (st != GP_OK)
        return st;
    bool selected = vlog_at(p, '[');
    int32_t hi = 0, lo = 0;
    tok select = p->t;
    if (selected) {
        if ((st = vlog_advance(p)) != GP_OK || (st = vlog_take_index(p, &hi)) != GP_OK)
            return st;
        lo = hi;
        if (vlog_at(p, ':') &&
            ((st = vlog_advance(p)) != GP_OK || (st = vlog_take_index(p, &lo)) != GP_OK))
            return st;
        if ((st = vlog_expect(p, ']', "']' closing the select")) != GP_OK)
            return st;
    }
    uint32_t sig = 0;
    if ((st = vlog_resolve(p, &name, selected, &sig)) != GP_OK)
        return st;
    const vlog_signal *s = &p->r->signals.data[sig];
    vlog_term term = {sig, 0, vlog_signal_width(s)};
    int why = selected ? vlog_select_term(s, sig, hi, lo, &term) : 0;
    if (why)
        return vlog_bad_select(p, why, vlog_scan_loc(p->scan, &select), s, hi, lo);
    return vlog_push_term(p, term);
}

/* Whether `text` (a number's text so far) ends right after its base, as
 * "4'b" or "'sh", so that its digits come in the next token. */
static bool vlog_base_only(const char *text, size_t len)
{
    const char *quote = memchr(text, '\'', len);
    if (!quote)
        return false;
    size_t rest = len - (size_t)(quote - text) - 1;
    return rest == 1 || (rest == 2 && (quote[1] == 's' || quote[1] == 'S'));
}

/* Gathers a number's text, which Verilog lets spread over tokens as in
 * "4 'b 1010", into name_buf, and consumes its tokens. */
static gp_status vlog_gather_number(vlog_parser *p)
{
    vec_u8 *buf = &p->r->name_buf;
    buf->len = 0;
    for (;;) {
        const tok *t = &p->t;
        if (!vec_u8_reserve(buf, buf->len + t->len))
            return vlog_nomem(p->r);
        memcpy(buf->data + buf->len, t->text, t->len);
        buf->len += t->len;
        const char *text = (const char *)buf->data;
        bool has_quote = memchr(text, '\'', buf->len) != NULL;
        tok next;
        gp_status st = vlog_scan_peek(p->scan, &next, NULL);
        if (st != GP_OK)
            return st;
        bool next_word = next.kind == TOK_WORD && !(next.flags & TOK_F_ESCAPED);
        bool joins = next_word && (has_quote ? vlog_base_only(text, buf->len)
                                             : next.text[0] == '\'');
        if ((st = vlog_advance(p)) != GP_OK || !joins)
            return st;
    }
}

static gp_status vlog_parse_constant(vlog_parser *p)
{
    diag_loc loc = vlog_here(p);
    gp_status st = vlog_gather_number(p);
    if (st != GP_OK)
        return st;
    vlog_reader *r = p->r;
    size_t start = r->const_bits.len;
    vlog_number num;
    st = vlog_parse_number(r, (const char *)r->name_buf.data, r->name_buf.len, loc, &num);
    if (st != GP_OK)
        return st;
    if (start > UINT32_MAX - (size_t)num.width)
        return vlog_nomem(r);
    vlog_term term = {VLOG_TERM_CONST | (num.sized ? 0 : VLOG_TERM_UNSIZED), (uint32_t)start,
                      num.width};
    return vlog_push_term(p, term);
}

/* The value of a replication count: the expression at terms[first] must be
 * one unsized constant without X bits (a plain decimal). */
static bool vlog_replication_count(vlog_reader *r, size_t first, uint64_t *count)
{
    if (r->terms.len != first + 1)
        return false;
    const vlog_term *t = &r->terms.data[first];
    if (!(t->ref & VLOG_TERM_UNSIZED) || t->width > 32)
        return false;
    uint64_t v = 0;
    for (uint32_t i = 0; i < t->width; i++) {
        uint8_t bit = r->const_bits.data[t->pos + i];
        if (bit == VLOG_VALUE_X)
            return false;
        v = v << 1 | (bit == VLOG_VALUE_1);
    }
    *count = v;
    return true;
}

/* {N{...}}: the count is parsed; the inner concatenation follows. */
static gp_status vlog_parse_replication(vlog_parser *p, size_t first, uint64_t count)
{
    vlog_reader *r = p->r;
    diag_loc loc = vlog_here(p);
    r->terms.len = first; /* drop the count */
    if (count == 0 || count > VLOG_MAX_EXPR_TERMS) {
        diag_error(r->d, 3018, loc, "replication count %llu must be 1 to %u",
                   (unsigned long long)count, (unsigned)VLOG_MAX_EXPR_TERMS);
        return GP_ERR_INPUT;
    }
    if (!vlog_at(p, '{'))
        return vlog_syntax_error(p, "'{' after the replication count");
    gp_status st = vlog_parse_operand(p);
    if (st != GP_OK)
        return st;
    size_t n = r->terms.len - first;
    for (uint64_t k = 1; k < count; k++)
        for (size_t i = 0; i < n; i++)
            if ((st = vlog_push_term(p, r->terms.data[first + i])) != GP_OK)
                return st;
    return GP_OK;
}

/* The items of a concatenation or replication, from its '{'. */
static gp_status vlog_parse_concat_items(vlog_parser *p)
{
    gp_status st = vlog_advance(p);
    for (bool head = true;; head = false) {
        size_t item = p->r->terms.len;
        diag_loc loc = vlog_here(p);
        if (st != GP_OK || (st = vlog_parse_operand(p)) != GP_OK)
            return st;
        uint64_t count;
        bool is_count = vlog_replication_count(p->r, item, &count);
        if (head && is_count && vlog_at(p, '{')) {
            if ((st = vlog_parse_replication(p, item, count)) != GP_OK)
                return st;
            return vlog_expect(p, '}', "'}' closing the replication");
        }
        if (p->r->terms.len == item + 1 && (p->r->terms.data[item].ref & VLOG_TERM_UNSIZED)) {
            diag_error(p->r->d, 3017, loc,
                       "unsized constant in a concatenation: give it a size, e.g. 1'b0");
            return GP_ERR_INPUT;
        }
        if (!vlog_at(p, ','))
            return vlog_expect(p, '}', "',' or '}' in the concatenation");
        st = vlog_advance(p);
    }
}

/* '{' operand {',' operand} '}', or '{' count '{' ... '}' '}'. */
static gp_status vlog_parse_concat(vlog_parser *p)
{
    if (p->depth >= VLOG_MAX_NESTING) {
        diag_error(p->r->d, 3037, vlog_here(p),
                   "concatenations nested more than %d deep: simplify the expression",
                   VLOG_MAX_NESTING);
        return GP_ERR_UNSUPPORTED;
    }
    p->depth++;
    gp_status st = vlog_parse_concat_items(p);
    p->depth--;
    return st;
}

/* One operand: a concatenation, a constant or a (selected) net. */
static gp_status vlog_parse_operand(vlog_parser *p)
{
    const tok *t = &p->t;
    if (vlog_at(p, '{'))
        return vlog_parse_concat(p);
    bool plain = t->kind == TOK_WORD && !(t->flags & TOK_F_ESCAPED);
    if (plain && (isdigit((unsigned char)t->text[0]) || t->text[0] == '\''))
        return vlog_parse_constant(p);
    if (t->kind == TOK_WORD)
        return vlog_parse_ref(p);
    return vlog_syntax_error(p, "an expression (a net, a constant or {...})");
}

gp_status vlog_parse_expr(vlog_parser *p, vlog_conn *conn)
{
    size_t first = p->r->terms.len;
    if (first > UINT32_MAX - VLOG_MAX_EXPR_TERMS - 1)
        return vlog_nomem(p->r);
    p->expr_first = first;
    conn->line = (uint32_t)p->t.line;
    conn->col = (uint32_t)p->t.col;
    gp_status st = vlog_parse_operand(p);
    conn->term0 = (uint32_t)first;
    conn->nterm = (uint32_t)(p->r->terms.len - first);
    return st;
}

uint64_t vlog_conn_width(const vlog_reader *r, const vlog_conn *c)
{
    uint64_t w = 0;
    for (uint32_t i = 0; i < c->nterm; i++)
        w += r->terms.data[c->term0 + i].width;
    return w;
}

gp_status vlog_fit_unsized(vlog_reader *r, const vlog_conn *c, uint32_t width, bool *fits)
{
    *fits = true;
    if (c->nterm != 1 || !(r->terms.data[c->term0].ref & VLOG_TERM_UNSIZED))
        return GP_OK;
    vlog_term *t = &r->terms.data[c->term0];
    uint32_t pos;
    gp_status st = vlog_fit_constant(r, t->pos, t->width, width, &pos, fits);
    if (st == GP_OK && *fits)
        *t = (vlog_term){VLOG_TERM_CONST, pos, width};
    return st;
}
