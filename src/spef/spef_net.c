/* spef_net.c: *D_NET (with its *CONN, *CAP, *RES and *INDUC sections) and
 * the nets this reader skips (*R_NET, *D_PNET, *R_PNET). */
#include "spef/spef_int.h"

#include <math.h>

/* p->t is a name (a word that is no keyword). */
static bool spef_at_name(const spef_parser *p)
{
    return p->t.kind == TOK_WORD && !spef_is_keyword(&p->t);
}

/* Reads the next token and, as a value, into *out. */
static gp_status spef_next_value(spef_parser *p, double *out)
{
    gp_status st = spef_next(p);
    return st == GP_OK ? spef_par_value(p, out) : spef_unexpected(p, "a number");
}

/* *C x y (coordinates, not kept) at p->t. */
static gp_status spef_skip_coordinates(spef_parser *p)
{
    double x, y;
    gp_status st = spef_next_value(p, &x);
    if (st == GP_OK)
        st = spef_next_value(p, &y);
    return st == GP_OK ? spef_next(p) : st;
}

/* *S rise fall [threshold threshold] (slews, not kept) at p->t. */
static gp_status spef_skip_slews(spef_parser *p)
{
    double v;
    gp_status st = spef_next_value(p, &v);
    if (st == GP_OK)
        st = spef_next_value(p, &v);
    if (st == GP_OK && (st = spef_next(p)) == GP_OK && spef_is_value(&p->t)) {
        if ((st = spef_next_value(p, &v)) == GP_OK)
            st = spef_next(p);
    }
    return st;
}

gp_status spef_parse_conn_tail(spef_parser *p, spef_conn *c)
{
    static const char dirs[] = "IOB";
    const tok *t = &p->t;
    const char *dir = t->kind == TOK_WORD && t->len == 1 && t->text[0] != '\0'
                          ? strchr(dirs, t->text[0]) : NULL;
    if (!dir) {
        if (t->kind != TOK_WORD || spef_is_keyword(t))
            return spef_unexpected(p, "a direction I, O or B");
        int n = t->len > 40 ? 40 : (int)t->len;
        diag_error(p->d, 5012, tok_loc(p->lx, t),
                   "bad direction '%.*s': write I (input), O (output) or B (bidirectional)", n,
                   t->text);
        return GP_ERR_PARSE;
    }
    c->dir = dir[0] == 'I' ? SPEF_DIR_INPUT : dir[0] == 'O' ? SPEF_DIR_OUTPUT : SPEF_DIR_BIDIR;
    gp_status st = spef_next(p);
    while (st == GP_OK) {
        if (spef_is(t, "*C")) {
            st = spef_skip_coordinates(p);
        } else if (spef_is(t, "*S")) {
            st = spef_skip_slews(p);
        } else if (spef_is(t, "*L")) {
            if ((st = spef_next_value(p, &c->load)) == GP_OK)
                st = spef_next(p);
            c->load *= p->hdr.c_unit;
            c->has_load = true;
        } else if (spef_is(t, "*D")) {
            if ((st = spef_next(p)) != GP_OK || !spef_at_name(p))
                return spef_unexpected(p, "a cell name");
            if (!(c->driving_cell = arena_strndup(&p->scratch, t->text, t->len)))
                return spef_nomem(p);
            st = spef_next(p);
        } else {
            break;
        }
    }
    return st;
}

/* *CONN followed by *P / *I entries and *N internal node coordinates. */
static gp_status spef_parse_conns(spef_parser *p)
{
    gp_status st = spef_next(p);
    while (st == GP_OK && (spef_is(&p->t, "*P") || spef_is(&p->t, "*I") ||
                           spef_is(&p->t, "*N"))) {
        spef_conn c = {.is_port = spef_is(&p->t, "*P"), .loc = tok_loc(p->lx, &p->t)};
        bool node = spef_is(&p->t, "*N");
        if ((st = spef_next(p)) != GP_OK || !spef_at_name(p))
            return spef_unexpected(p, node ? "a node name" : "a port or pin name");
        if (node) {
            if ((st = spef_check_node(p)) != GP_OK || (st = spef_next(p)) != GP_OK)
                return st;
            if (!spef_is(&p->t, "*C"))
                return spef_unexpected(p, "*C and the node's coordinates");
            st = spef_skip_coordinates(p);
            continue;
        }
        st = c.is_port ? spef_name(p, &c.pin) : spef_pin(p, &c.inst, &c.pin);
        if (st == GP_OK && spef_next(p) != GP_OK)
            return spef_unexpected(p, "a direction I, O or B");
        if (st == GP_OK)
            st = spef_parse_conn_tail(p, &c);
        if (st == GP_OK && !spef_conn_vec_push(&p->conns, c))
            return spef_nomem(p);
    }
    return st;
}

/* In a *CAP element, after its first node: whether p->t is a second node
 * (a coupling capacitance) rather than the value.  It is when it is no
 * number and a number follows on its line, so that a bad value at the end
 * of an element is reported as a bad number. */
static bool spef_is_coupling(spef_parser *p)
{
    tok ahead;
    return !spef_is_value(&p->t) && tok_peek(p->lx, &ahead) == GP_OK &&
           ahead.line == p->t.line && spef_is_value(&ahead);
}

/* *CAP, *RES or *INDUC followed by "id node [node] value" elements; only a
 * capacitance may name one node (a capacitance to ground).  The values are
 * checked, not kept. */
static gp_status spef_parse_elements(spef_parser *p, bool cap)
{
    gp_status st = spef_next(p);
    while (st == GP_OK && spef_at_name(p)) {
        int64_t id;
        double value;
        if (!tok_to_i64(&p->t, &id))
            return spef_unexpected(p, "an element number or a keyword");
        if ((st = spef_next(p)) != GP_OK || !spef_at_name(p))
            return spef_unexpected(p, "a node name");
        if ((st = spef_check_node(p)) != GP_OK || (st = spef_next(p)) != GP_OK)
            return st;
        if (!cap || spef_is_coupling(p)) {
            if (!spef_at_name(p))
                return spef_unexpected(p, "a node name");
            if ((st = spef_check_node(p)) != GP_OK || (st = spef_next(p)) != GP_OK)
                return st;
        }
        if ((st = spef_par_value(p, &value)) == GP_OK)
            st = spef_next(p);
    }
    return st;
}

/* *D_NET name total_cap [*V confidence], p->t after them. */
static gp_status spef_parse_net_head(spef_parser *p, spef_net *net)
{
    double total;
    gp_status st = spef_next(p);
    if (st != GP_OK || !spef_at_name(p))
        return spef_unexpected(p, "the net name");
    if ((st = spef_name(p, &net->name)) != GP_OK || (st = spef_next_value(p, &total)) != GP_OK)
        return st;
    if (total < 0) {
        diag_error(p->d, 5014, tok_loc(p->lx, &p->t),
                   "negative total capacitance for net '%s': the file is corrupt", net->name);
        return GP_ERR_PARSE;
    }
    net->total_cap = total * p->hdr.c_unit;
    if (!isfinite(net->total_cap)) {
        diag_error(p->d, 5020, tok_loc(p->lx, &p->t),
                   "total capacitance of net '%s' is out of range (%g in units of %g F): check "
                   "*C_UNIT and the value", net->name, total, p->hdr.c_unit);
        return GP_ERR_PARSE;
    }
    if ((st = spef_next(p)) == GP_OK && spef_is(&p->t, "*V")) {
        double confidence;
        if ((st = spef_next_value(p, &confidence)) == GP_OK)
            st = spef_next(p);
    }
    return st;
}

/* The sections of a net up to and through its *END. */
static gp_status spef_parse_net_body(spef_parser *p, const spef_net *net, int line)
{
    gp_status st = GP_OK;
    while (st == GP_OK) {
        const tok *t = &p->t;
        if (spef_is(t, "*END"))
            return spef_next(p);
        if (spef_is(t, "*CONN")) {
            st = spef_parse_conns(p);
        } else if (spef_is(t, "*CAP") || spef_is(t, "*RES") || spef_is(t, "*INDUC")) {
            st = spef_parse_elements(p, spef_is(t, "*CAP"));
        } else if (t->kind == TOK_EOF || !spef_is_keyword(t)) {
            return spef_unexpected(p, "*CONN, *CAP, *RES, *INDUC or *END");
        } else if (spef_is(t, "*D_NET") || spef_is(t, "*R_NET") || spef_is(t, "*D_PNET") ||
                   spef_is(t, "*R_PNET")) {
            diag_error(p->d, 5013, tok_loc(p->lx, t),
                       "net '%s' (line %d) has no *END before this next net: add it", net->name,
                       line);
            return GP_ERR_PARSE;
        } else {
            char kind[48];
            snprintf(kind, sizeof kind, "%.*s", t->len > 40 ? 40 : (int)t->len, t->text);
            spef_warn_skipped(p, kind, "unknown inside a net", tok_loc(p->lx, t));
            while ((st = spef_next(p)) == GP_OK && spef_at_name(p))
                ;
        }
    }
    return st;
}

gp_status spef_parse_d_net(spef_parser *p)
{
    diag_loc loc = tok_loc(p->lx, &p->t);
    spef_net net = {0};
    arena_reset(&p->scratch);
    p->conns.len = 0;
    gp_status st = spef_parse_net_head(p, &net);
    if (st == GP_OK)
        st = spef_parse_net_body(p, &net, loc.line);
    if (st != GP_OK)
        return st;
    net.conn_count = p->conns.len;
    net.conns = p->conns.data;
    return p->v->d_net ? p->v->d_net(p->v->ctx, &net, loc) : GP_OK;
}

gp_status spef_skip_net(spef_parser *p)
{
    char kind[16];
    snprintf(kind, sizeof kind, "%.*s", p->t.len > 15 ? 15 : (int)p->t.len, p->t.text);
    spef_warn_skipped(p, kind, "only *D_NET nets are read; this kind gets no wire capacitance",
                      tok_loc(p->lx, &p->t));
    gp_status st;
    while ((st = spef_next(p)) == GP_OK && p->t.kind != TOK_EOF && !spef_is(&p->t, "*END"))
        ;
    if (st != GP_OK || p->t.kind == TOK_EOF)
        return spef_unexpected(p, "*END");
    return spef_next(p);
}
