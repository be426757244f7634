/* verilog_parse.c: modules of a structural netlist: port lists (ANSI and
 * not), declarations, assigns and instances, into the reader's flat arrays.
 * Behavioural constructs and gate primitives are errors; parameters, specify
 * blocks and assign delays are skipped with a warning. */
#include "verilog/verilog_int.h"

#include "util/parts.h"

/* What a declaration's head says: `output wire signed [7:0]`. */
typedef struct vlog_decl {
    uint8_t dir; /* 0 or VLOG_DIR_* */
    int type;    /* the net-type keyword, or -1 */
    bool vector;
    int32_t msb, lsb;
} vlog_decl;

static vlog_module *vlog_current(vlog_parser *p) { return &p->r->modules.data[p->module]; }

static bool vlog_is_dir(int kw)
{
    return kw == VLOG_KW_INPUT || kw == VLOG_KW_OUTPUT || kw == VLOG_KW_INOUT;
}

static bool vlog_is_net_type(int kw) { return kw >= VLOG_KW_WIRE && kw <= VLOG_KW_SUPPLY1; }

/* Skips from the current '(' to its matching ')', inclusive. */
static gp_status vlog_skip_parens(vlog_parser *p)
{
    int depth = 0;
    do {
        if (p->t.kind == TOK_EOF)
            return vlog_syntax_error(p, "')'");
        depth += vlog_at(p, '(') - vlog_at(p, ')');
        gp_status st = vlog_advance(p);
        if (st != GP_OK)
            return st;
    } while (depth > 0);
    return GP_OK;
}

/* Skips to and past the next ';'. */
static gp_status vlog_skip_statement(vlog_parser *p)
{
    while (!vlog_at(p, ';')) {
        if (p->t.kind == TOK_EOF)
            return vlog_syntax_error(p, "';'");
        gp_status st = vlog_advance(p);
        if (st != GP_OK)
            return st;
    }
    return vlog_advance(p);
}

/* '#' then a parenthesised list or one token (a delay or parameter value). */
static gp_status vlog_skip_hash(vlog_parser *p)
{
    gp_status st = vlog_advance(p);
    if (st != GP_OK)
        return st;
    if (vlog_at(p, '('))
        return vlog_skip_parens(p);
    if (p->t.kind != TOK_WORD)
        return vlog_syntax_error(p, "a value or '(' after '#'");
    return vlog_advance(p);
}

/* '[' msb ':' lsb ']' */
static gp_status vlog_parse_range(vlog_parser *p, vlog_decl *decl)
{
    diag_loc loc = vlog_here(p);
    gp_status st = vlog_advance(p);
    int64_t v[2];
    for (int i = 0; i < 2 && st == GP_OK; i++) {
        if (p->t.kind != TOK_WORD || !tok_to_i64(&p->t, &v[i]) || v[i] < INT32_MIN ||
            v[i] > INT32_MAX)
            return vlog_syntax_error(p, "an integer range bound (parameters are not evaluated)");
        if ((st = vlog_advance(p)) == GP_OK)
            st = vlog_expect(p, i == 0 ? ':' : ']', i == 0 ? "':' in the range" : "']'");
    }
    if (st != GP_OK)
        return st;
    int64_t width = (v[0] > v[1] ? v[0] - v[1] : v[1] - v[0]) + 1;
    if (width > VLOG_MAX_SIGNAL_BITS) {
        diag_error(p->r->d, 3015, loc, "range [%lld:%lld] is %lld bits wide; at most %u are read",
                   (long long)v[0], (long long)v[1], (long long)width,
                   (unsigned)VLOG_MAX_SIGNAL_BITS);
        return GP_ERR_UNSUPPORTED;
    }
    decl->vector = true;
    decl->msb = (int32_t)v[0];
    decl->lsb = (int32_t)v[1];
    return GP_OK;
}

/* [direction] [net type] [signed] [range] */
static gp_status vlog_parse_decl_head(vlog_parser *p, vlog_decl *decl)
{
    *decl = (vlog_decl){0, -1, false, 0, 0};
    gp_status st = GP_OK;
    int kw = vlog_keyword_at(p);
    if (vlog_is_dir(kw)) {
        decl->dir = kw == VLOG_KW_INPUT ? VLOG_DIR_INPUT
                    : kw == VLOG_KW_OUTPUT ? VLOG_DIR_OUTPUT : VLOG_DIR_INOUT;
        if ((st = vlog_advance(p)) != GP_OK)
            return st;
        kw = vlog_keyword_at(p);
    }
    if (vlog_is_net_type(kw)) {
        if (kw >= VLOG_KW_WAND && kw <= VLOG_KW_TRIREG)
            diag_warn(p->r->d, 3105, vlog_here(p),
                      "net type '%s' is read as a plain wire (its resolution is not modelled)",
                      vlog_keyword_text[kw]);
        decl->type = kw;
        if ((st = vlog_advance(p)) != GP_OK)
            return st;
        kw = vlog_keyword_at(p);
    }
    if (kw == VLOG_KW_SIGNED && (st = vlog_advance(p)) != GP_OK)
        return st;
    if (vlog_at(p, '['))
        st = vlog_parse_range(p, decl);
    return st;
}

static bool vlog_same_range(const vlog_signal *s, const vlog_decl *decl)
{
    bool vector = (s->flags & VLOG_SIG_VECTOR) != 0;
    return vector == decl->vector && (!vector || (s->msb == decl->msb && s->lsb == decl->lsb));
}

static gp_status vlog_not_in_port_list(vlog_parser *p, const vlog_name *name)
{
    vlog_reader *r = p->r;
    diag_error(r->d, 3006, vlog_loc(r, p->file, (uint32_t)name->line, (uint32_t)name->col),
               "'%s' is declared as a port but is not in the port list of module '%s': add it "
               "there",
               vlog_sym(r, name->sym), vlog_sym(r, vlog_current(p)->name));
    return GP_ERR_INPUT;
}

/* Adds what `decl` says to the signal already declared. */
static gp_status vlog_redeclare(vlog_parser *p, vlog_signal *s, const vlog_decl *decl,
                                const vlog_name *name, bool in_header)
{
    vlog_reader *r = p->r;
    diag_loc loc = vlog_loc(r, p->file, (uint32_t)name->line, (uint32_t)name->col);
    const char *text = vlog_sym(r, name->sym);
    if (s->flags & VLOG_SIG_IMPLICIT) {
        diag_error(r->d, 3005, loc,
                   "'%s' is declared after its first use on line %u, which made it an implicit "
                   "wire: move the declaration up",
                   text, (unsigned)s->line);
        return GP_ERR_INPUT;
    }
    if (in_header || (decl->dir && (s->flags & VLOG_SIG_HAS_DIR)) ||
        (decl->type >= 0 && (s->flags & VLOG_SIG_HAS_TYPE))) {
        diag_error(r->d, 3004, loc, "'%s' is declared twice (first on line %u): remove one",
                   text, (unsigned)s->line);
        return GP_ERR_INPUT;
    }
    if (decl->dir && !(s->flags & VLOG_SIG_PORT))
        return vlog_not_in_port_list(p, name);
    if ((s->flags & VLOG_SIG_SIZED) && !vlog_same_range(s, decl)) {
        diag_error(r->d, 3007, loc,
                   "the range of '%s' differs from its declaration on line %u: make them equal",
                   text, (unsigned)s->line);
        return GP_ERR_INPUT;
    }
    s->msb = decl->msb;
    s->lsb = decl->lsb;
    s->flags |= VLOG_SIG_SIZED | (decl->vector ? VLOG_SIG_VECTOR : 0) |
                (decl->dir ? VLOG_SIG_HAS_DIR : 0) | (decl->type >= 0 ? VLOG_SIG_HAS_TYPE : 0);
    if (decl->dir)
        s->dir = decl->dir;
    return GP_OK;
}

static gp_status vlog_new_signal(vlog_parser *p, const vlog_decl *decl, const vlog_name *name,
                                 bool in_header, uint32_t *sig)
{
    vlog_reader *r = p->r;
    if (decl->dir && !in_header)
        return vlog_not_in_port_list(p, name);
    if (r->signals.len >= VLOG_TERM_UNSIZED)
        return vlog_nomem(r);
    bool placeholder = in_header && !decl->dir;
    vlog_signal s = {.name = name->sym, .msb = decl->msb, .lsb = decl->lsb, .dir = decl->dir,
                     .line = (uint32_t)name->line, .col = (uint32_t)name->col};
    s.flags = (in_header ? VLOG_SIG_PORT : 0) | (placeholder ? 0 : VLOG_SIG_SIZED) |
              (decl->vector ? VLOG_SIG_VECTOR : 0) | (decl->dir ? VLOG_SIG_HAS_DIR : 0) |
              (decl->type >= 0 ? VLOG_SIG_HAS_TYPE : 0) | (name->escaped ? VLOG_SIG_ESCAPED : 0);
    if (!vlog_signal_vec_push(&r->signals, s))
        return vlog_nomem(r);
    *sig = (uint32_t)(r->signals.len - 1);
    r->sig_of.data[name->sym] = (vlog_slot){p->stamp, *sig};
    return GP_OK;
}

/* Declares `name` as `decl` says; `in_header`: it is in the port list (with
 * no direction, in a non-ANSI header, its declaration comes later).  *sig
 * gets the signal index. */
static gp_status vlog_declare(vlog_parser *p, const vlog_decl *decl, const vlog_name *name,
                              bool in_header, uint32_t *sig)
{
    vlog_reader *r = p->r;
    const vlog_slot *slot = &r->sig_of.data[name->sym];
    gp_status st;
    if (slot->stamp == p->stamp) {
        *sig = slot->index;
        st = vlog_redeclare(p, &r->signals.data[*sig], decl, name, in_header);
    } else {
        st = vlog_new_signal(p, decl, name, in_header, sig);
    }
    if (st == GP_OK && (decl->type == VLOG_KW_SUPPLY0 || decl->type == VLOG_KW_SUPPLY1))
        r->signals.data[*sig].value = decl->type == VLOG_KW_SUPPLY0 ? VLOG_VALUE_0 : VLOG_VALUE_1;
    return st;
}

static gp_status vlog_add_port(vlog_parser *p, uint32_t sig)
{
    vlog_current(p)->nport++;
    return vec_u32_push(&p->r->ports, sig) ? GP_OK : vlog_nomem(p->r);
}

/* ANSI: ( input [3:0] a, b, output y ); the head carries over to b. */
static gp_status vlog_parse_ansi_ports(vlog_parser *p)
{
    vlog_decl decl;
    for (;;) {
        gp_status st = GP_OK;
        vlog_name name;
        uint32_t sig;
        if (vlog_is_dir(vlog_keyword_at(p)))
            st = vlog_parse_decl_head(p, &decl);
        if (st != GP_OK || (st = vlog_take_name(p, "a port name", &name)) != GP_OK ||
            (st = vlog_declare(p, &decl, &name, true, &sig)) != GP_OK ||
            (st = vlog_add_port(p, sig)) != GP_OK)
            return st;
        if (!vlog_at(p, ','))
            return vlog_expect(p, ')', "',' or ')' in the port list");
        if ((st = vlog_advance(p)) != GP_OK)
            return st;
    }
}

/* Non-ANSI: ( a, b, y ), declared in the body. */
static gp_status vlog_parse_port_names(vlog_parser *p)
{
    const vlog_decl none = {0, -1, false, 0, 0};
    for (;;) {
        vlog_name name;
        uint32_t sig;
        gp_status st;
        if (vlog_at(p, '.') || vlog_at(p, '{')) {
            diag_error(p->r->d, 3028, vlog_here(p),
                       "port expressions (.name(...) or {...}) in a module header are not "
                       "supported: list plain port names");
            return GP_ERR_UNSUPPORTED;
        }
        if ((st = vlog_take_name(p, "a port name", &name)) != GP_OK ||
            (st = vlog_declare(p, &none, &name, true, &sig)) != GP_OK ||
            (st = vlog_add_port(p, sig)) != GP_OK)
            return st;
        if (!vlog_at(p, ','))
            return vlog_expect(p, ')', "',' or ')' in the port list");
        if ((st = vlog_advance(p)) != GP_OK)
            return st;
    }
}

static gp_status vlog_parse_port_list(vlog_parser *p)
{
    gp_status st = vlog_advance(p);
    if (st != GP_OK)
        return st;
    if (vlog_at(p, ')'))
        return vlog_advance(p);
    if (vlog_is_dir(vlog_keyword_at(p)))
        return vlog_parse_ansi_ports(p);
    return vlog_parse_port_names(p);
}

/* Records lhs = rhs (conns pushed by the caller, in that order) after
 * checking it; `loc` is the '=' sign. */
static gp_status vlog_add_assign(vlog_parser *p, diag_loc loc)
{
    vlog_reader *r = p->r;
    uint32_t lhs = (uint32_t)r->conns.len - 2, rhs = lhs + 1;
    const vlog_conn *c = &r->conns.data[lhs];
    for (uint32_t i = 0; i < c->nterm; i++) {
        if (r->terms.data[c->term0 + i].ref & VLOG_TERM_CONST) {
            diag_error(r->d, 3020, vlog_loc(r, p->file, c->line, c->col),
                       "the left side of an assign must be nets, not a constant");
            return GP_ERR_INPUT;
        }
    }
    uint64_t width = vlog_conn_width(r, c);
    bool fits = true;
    gp_status st = GP_OK;
    if (width <= VLOG_MAX_SIGNAL_BITS)
        st = vlog_fit_unsized(r, &r->conns.data[rhs], (uint32_t)width, &fits);
    if (st != GP_OK)
        return st;
    uint64_t rhs_width = vlog_conn_width(r, &r->conns.data[rhs]);
    if (!fits || width != rhs_width) {
        char why[96];
        if (fits)
            snprintf(why, sizeof why, "the left side has %llu bits, the right side %llu",
                     (unsigned long long)width, (unsigned long long)rhs_width);
        else
            snprintf(why, sizeof why, "the constant's value does not fit the %llu bits",
                     (unsigned long long)width);
        diag_error(r->d, 3021, loc, "width mismatch in assign: %s", why);
        return GP_ERR_INPUT;
    }
    vlog_current(p)->nasgn++;
    return vlog_assign_vec_push(&r->assigns, (vlog_assign){lhs, rhs}) ? GP_OK : vlog_nomem(r);
}

static gp_status vlog_push_conn(vlog_parser *p, const vlog_conn *c)
{
    return vlog_conn_vec_push(&p->r->conns, *c) ? GP_OK : vlog_nomem(p->r);
}

/* The rhs of `lhs = rhs` or `wire w = rhs`; the lhs conn is pushed. */
static gp_status vlog_parse_assign_rhs(vlog_parser *p)
{
    diag_loc loc = vlog_here(p);
    vlog_conn rhs = {0};
    gp_status st = vlog_expect(p, '=', "'=' in the assignment");
    if (st == GP_OK)
        st = vlog_parse_expr(p, &rhs);
    if (st == GP_OK)
        st = vlog_push_conn(p, &rhs);
    return st == GP_OK ? vlog_add_assign(p, loc) : st;
}

/* wire w = rhs: the lhs is all of w. */
static gp_status vlog_parse_net_assign(vlog_parser *p, uint32_t sig, const vlog_name *name)
{
    vlog_reader *r = p->r;
    vlog_term term = {sig, 0, vlog_signal_width(&r->signals.data[sig])};
    vlog_conn lhs = {0, (uint32_t)r->terms.len, 1, (uint32_t)name->line, (uint32_t)name->col};
    if (!vlog_term_vec_push(&r->terms, term))
        return vlog_nomem(r);
    gp_status st = vlog_push_conn(p, &lhs);
    return st == GP_OK ? vlog_parse_assign_rhs(p) : st;
}

/* input / output / inout / wire ... declarations. */
static gp_status vlog_parse_declaration(vlog_parser *p)
{
    vlog_decl decl;
    gp_status st = vlog_parse_decl_head(p, &decl);
    for (;;) {
        vlog_name name;
        uint32_t sig;
        if (st != GP_OK || (st = vlog_take_name(p, "a net name", &name)) != GP_OK)
            return st;
        if (vlog_at(p, '[')) {
            diag_error(p->r->d, 3027, vlog_here(p),
                       "arrays of nets or registers (memories) are not supported in a netlist");
            return GP_ERR_UNSUPPORTED;
        }
        if ((st = vlog_declare(p, &decl, &name, false, &sig)) != GP_OK)
            return st;
        if (vlog_at(p, '=') && (st = vlog_parse_net_assign(p, sig, &name)) != GP_OK)
            return st;
        if (!vlog_at(p, ','))
            return vlog_expect(p, ';', "',' or ';' in the declaration");
        st = vlog_advance(p);
    }
}

/* assign [strength] [#delay] lhs = rhs {, lhs = rhs} ; */
static gp_status vlog_parse_assign(vlog_parser *p)
{
    gp_status st = vlog_advance(p);
    if (st == GP_OK && (vlog_at(p, '(') || vlog_at(p, '#'))) {
        diag_warn(p->r->d, 3104, vlog_here(p),
                  "drive strength or delay on an assign is ignored (delays come from SDF)");
        if (vlog_at(p, '(') && (st = vlog_skip_parens(p)) != GP_OK)
            return st;
        if (vlog_at(p, '#') && (st = vlog_skip_hash(p)) != GP_OK)
            return st;
    }
    for (;;) {
        vlog_conn lhs = {0};
        if (st != GP_OK || (st = vlog_parse_expr(p, &lhs)) != GP_OK ||
            (st = vlog_push_conn(p, &lhs)) != GP_OK || (st = vlog_parse_assign_rhs(p)) != GP_OK)
            return st;
        if (!vlog_at(p, ','))
            return vlog_expect(p, ';', "',' or ';' after the assignment");
        st = vlog_advance(p);
    }
}

/* .pin(expr), .pin(), ...  up to the closing ')' (not consumed). */
static gp_status vlog_parse_named_conns(vlog_parser *p, vlog_inst *inst)
{
    for (;;) {
        vlog_name pin;
        vlog_conn c = {0};
        gp_status st = vlog_expect(p, '.', "'.' starting a named connection");
        if (st != GP_OK || (st = vlog_take_name(p, "a pin name", &pin)) != GP_OK ||
            (st = vlog_expect(p, '(', "'(' after the pin name")) != GP_OK)
            return st;
        c.pin = pin.sym;
        c.term0 = (uint32_t)p->r->terms.len;
        if (!vlog_at(p, ')') && (st = vlog_parse_expr(p, &c)) != GP_OK)
            return st;
        c.line = (uint32_t)pin.line; /* messages about the connection point at its pin */
        c.col = (uint32_t)pin.col;
        if ((st = vlog_expect(p, ')', "')' closing the connection")) != GP_OK ||
            (st = vlog_push_conn(p, &c)) != GP_OK)
            return st;
        inst->nconn++;
        if (!vlog_at(p, ','))
            return GP_OK;
        if ((st = vlog_advance(p)) != GP_OK)
            return st;
    }
}

/* expr, , expr ...  by position, up to the closing ')' (not consumed). */
static gp_status vlog_parse_ordered_conns(vlog_parser *p, vlog_inst *inst)
{
    inst->ordered = true;
    for (uint32_t pos = 0;; pos++) {
        vlog_conn c = {pos, (uint32_t)p->r->terms.len, 0, (uint32_t)p->t.line,
                       (uint32_t)p->t.col};
        gp_status st = GP_OK;
        if (!vlog_at(p, ',') && !vlog_at(p, ')') && (st = vlog_parse_expr(p, &c)) != GP_OK)
            return st;
        if ((st = vlog_push_conn(p, &c)) != GP_OK)
            return st;
        inst->nconn++;
        if (!vlog_at(p, ','))
            return GP_OK;
        if ((st = vlog_advance(p)) != GP_OK)
            return st;
    }
}

/* name ( connections ) */
static gp_status vlog_parse_instance(vlog_parser *p, uint32_t type)
{
    vlog_reader *r = p->r;
    vlog_name name;
    gp_status st = vlog_take_name(p, "an instance name", &name);
    if (st != GP_OK)
        return st;
    diag_loc loc = vlog_loc(r, p->file, (uint32_t)name.line, (uint32_t)name.col);
    if (vlog_at(p, '[')) {
        diag_error(r->d, 3026, loc, "arrays of instances are not supported: write one per bit");
        return GP_ERR_UNSUPPORTED;
    }
    vlog_slot *slot = &r->inst_of.data[name.sym];
    if (slot->stamp == p->stamp) {
        diag_error(r->d, 3010, loc, "instance name '%s' is used twice (first on line %u)",
                   vlog_sym(r, name.sym), (unsigned)r->insts.data[slot->index].line);
        return GP_ERR_INPUT;
    }
    if (r->insts.len >= UINT32_MAX)
        return vlog_nomem(r);
    *slot = (vlog_slot){p->stamp, (uint32_t)r->insts.len};
    vlog_inst inst = {.name = name.sym, .type = type, .conn0 = (uint32_t)r->conns.len,
                      .line = (uint32_t)name.line, .col = (uint32_t)name.col};
    if ((st = vlog_expect(p, '(', "'(' starting the instance's connections")) != GP_OK)
        return st;
    if (vlog_at(p, '.'))
        st = vlog_parse_named_conns(p, &inst);
    else if (!vlog_at(p, ')'))
        st = vlog_parse_ordered_conns(p, &inst);
    if (st != GP_OK || (st = vlog_expect(p, ')', "',' or ')' in the connections")) != GP_OK)
        return st;
    vlog_current(p)->ninst++;
    return vlog_inst_vec_push(&r->insts, inst) ? GP_OK : vlog_nomem(r);
}

/* CELL [#(...)] name (...) {, name (...)} ; */
static gp_status vlog_parse_instances(vlog_parser *p)
{
    vlog_name type;
    gp_status st = vlog_take_name(p, "a declaration, assign, instance or 'endmodule'", &type);
    if (st == GP_OK && vlog_at(p, '#')) {
        diag_warn(p->r->d, 3102, vlog_here(p),
                  "parameter values of an instance of '%s' are ignored (a netlist needs none)",
                  vlog_sym(p->r, type.sym));
        st = vlog_skip_hash(p);
    }
    for (;;) {
        if (st != GP_OK || (st = vlog_parse_instance(p, type.sym)) != GP_OK)
            return st;
        if (!vlog_at(p, ','))
            return vlog_expect(p, ';', "';' after the instance");
        st = vlog_advance(p);
    }
}

static gp_status vlog_skip_specify(vlog_parser *p)
{
    diag_warn(p->r->d, 3103, vlog_here(p),
              "specify block skipped (timing comes from SDF or the library)");
    while (vlog_keyword_at(p) != VLOG_KW_ENDSPECIFY) {
        if (p->t.kind == TOK_EOF)
            return vlog_syntax_error(p, "'endspecify'");
        gp_status st = vlog_advance(p);
        if (st != GP_OK)
            return st;
    }
    return vlog_advance(p);
}

static gp_status vlog_unsupported_item(vlog_parser *p, int kw)
{
    if (kw >= VLOG_KW_FIRST_PRIMITIVE) {
        diag_error(p->r->d, 3024, vlog_here(p),
                   "gate primitive '%s' is not supported: map the netlist to library cells "
                   "(e.g. yosys abc -liberty / dfflibmap)",
                   vlog_keyword_text[kw]);
    } else {
        diag_error(p->r->d, 3023, vlog_here(p),
                   "behavioural construct '%s' is not supported: give a synthesized gate-level "
                   "netlist (library cells only)",
                   vlog_keyword_text[kw]);
    }
    return GP_ERR_UNSUPPORTED;
}

/* One module item, or a batch of them (verilog_batch.c); *done at
 * endmodule. */
static gp_status vlog_parse_item(vlog_parser *p, bool *done)
{
    int kw = vlog_keyword_at(p);
    bool batched = false;
    if (kw == -1 || kw == VLOG_KW_WIRE) {
        gp_status st = vlog_parse_batch(p, &batched);
        if (st != GP_OK || batched)
            return st;
    }
    if (vlog_is_dir(kw) || vlog_is_net_type(kw))
        return vlog_parse_declaration(p);
    switch (kw) {
    case -1:
        return vlog_parse_instances(p);
    case VLOG_KW_ENDMODULE:
        *done = true;
        return vlog_advance(p);
    case VLOG_KW_ASSIGN:
        return vlog_parse_assign(p);
    case VLOG_KW_PARAMETER:
    case VLOG_KW_LOCALPARAM:
    case VLOG_KW_DEFPARAM:
    case VLOG_KW_SPECPARAM:
        diag_warn(p->r->d, 3101, vlog_here(p),
                  "'%s' statement skipped: the netlist reader does not evaluate parameters",
                  vlog_keyword_text[kw]);
        return vlog_skip_statement(p);
    case VLOG_KW_SPECIFY:
        return vlog_skip_specify(p);
    default:
        if (kw >= VLOG_KW_FIRST_BEHAVIOURAL)
            return vlog_unsupported_item(p, kw);
        return vlog_syntax_error(p, "a declaration, assign, instance or 'endmodule'");
    }
}

/* Whether the escaped name `text` spells bit i of a vector v of the module
 * ("v[i]"): both would get the same flat name. */
static bool vlog_clashes_with_bit(vlog_parser *p, const char *text, size_t len)
{
    vlog_reader *r = p->r;
    const char *open = memchr(text, '[', len);
    int64_t index;
    if (!open || text[len - 1] != ']' ||
        !tok_parse_i64(open + 1, (size_t)(text + len - 1 - open - 1), &index))
        return false;
    uint32_t base = strtab_find(&r->syms, text, (size_t)(open - text));
    if (base == STRTAB_NONE || base >= r->sig_of.len || r->sig_of.data[base].stamp != p->stamp)
        return false;
    const vlog_signal *v = &r->signals.data[r->sig_of.data[base].index];
    int32_t lo = v->msb < v->lsb ? v->msb : v->lsb, hi = v->msb < v->lsb ? v->lsb : v->msb;
    return (v->flags & VLOG_SIG_VECTOR) && index >= lo && index <= hi;
}

/* Checks the declarations of the module just parsed. */
static gp_status vlog_check_signals(vlog_parser *p)
{
    vlog_reader *r = p->r;
    vlog_module *m = vlog_current(p);
    for (uint32_t i = 0; i < m->nsig; i++) {
        const vlog_signal *s = &r->signals.data[m->sig0 + i];
        if ((s->flags & VLOG_SIG_PORT) && !(s->flags & VLOG_SIG_HAS_DIR)) {
            diag_error(r->d, 3008, vlog_loc(r, p->file, s->line, s->col),
                       "port '%s' of module '%s' has no direction: declare it input, output or "
                       "inout",
                       vlog_sym(r, s->name), vlog_sym(r, m->name));
            return GP_ERR_INPUT;
        }
        if (!(s->flags & VLOG_SIG_ESCAPED))
            continue; /* its name's text is not read: a miss a signal on large netlists */
        const char *text = vlog_sym(r, s->name);
        if (vlog_clashes_with_bit(p, text, strtab_len(&r->syms, s->name))) {
            diag_error(r->d, 3009, vlog_loc(r, p->file, s->line, s->col),
                       "escaped name '\\%s' and a bit of vector '%.*s' get the same flat name "
                       "'%s': rename one",
                       text, (int)(strchr(text, '[') - text), text, text);
            return GP_ERR_INPUT;
        }
    }
    return GP_OK;
}

/* A part of a module's terms (the range), its signals laid out: each
 * signal's bit position becomes its position in the module's layout (a
 * look at a signal anywhere in the module each). */
static void vlog_place_terms_part(void *ctx, uint32_t part, uint32_t parts)
{
    const vlog_range_job *j = ctx;
    vlog_term *terms = j->r->terms.data + j->first;
    const vlog_signal *signals = j->r->signals.data;
    size_t end = (size_t)parts_begin(j->n, part + 1, parts);
    for (size_t i = (size_t)parts_begin(j->n, part, parts); i < end; i++)
        if (!(terms[i].ref & VLOG_TERM_CONST))
            terms[i].pos += signals[terms[i].ref].offset;
}

/* Lays out the module's net bits: ports first, in port-list order, then the
 * other nets in declaration order (the order canonical names prefer); its
 * terms' positions become positions in that layout. */
static gp_status vlog_layout_bits(vlog_parser *p)
{
    vlog_reader *r = p->r;
    vlog_module *m = vlog_current(p);
    uint64_t bits = 0;
    for (uint32_t i = 0; i < m->nport; i++) {
        vlog_signal *s = &r->signals.data[r->ports.data[m->port0 + i]];
        s->offset = (uint32_t)bits;
        bits += vlog_signal_width(s);
        if (bits > VLOG_MAX_FLAT_BITS)
            break;
    }
    for (uint32_t i = 0; i < m->nsig && bits <= VLOG_MAX_FLAT_BITS; i++) {
        vlog_signal *s = &r->signals.data[m->sig0 + i];
        if (s->flags & VLOG_SIG_PORT)
            continue;
        s->offset = (uint32_t)bits;
        bits += vlog_signal_width(s);
    }
    if (bits > VLOG_MAX_FLAT_BITS) {
        diag_error(r->d, 3035, vlog_loc(r, p->file, m->line, m->col),
                   "module '%s' has more than %llu net bits: too large to read",
                   vlog_sym(r, m->name), (unsigned long long)VLOG_MAX_FLAT_BITS);
        return GP_ERR_UNSUPPORTED;
    }
    m->nbits = (uint32_t)bits;
    vlog_range_job j = {r, m->term0, r->terms.len - m->term0};
    if (j.n > 0) /* none: the terms may not even be allocated */
        parts_run(vlog_place_terms_part, &j, parts_for(j.n, UINT32_MAX));
    return GP_OK;
}

/* Starts module `name` (the reader's next module). */
static gp_status vlog_begin_module(vlog_parser *p, const vlog_name *name)
{
    vlog_reader *r = p->r;
    diag_loc loc = vlog_loc(r, p->file, (uint32_t)name->line, (uint32_t)name->col);
    uint32_t other = r->module_of.data[name->sym];
    if (other) {
        const vlog_module *first = &r->modules.data[other - 1];
        diag_error(r->d, 3003, loc, "module '%s' is defined twice (first at %s:%u): remove one",
                   vlog_sym(r, name->sym), (const char *)r->files.data[first->file],
                   (unsigned)first->line);
        return GP_ERR_INPUT;
    }
    vlog_module m = {.name = name->sym, .file = p->file, .line = (uint32_t)name->line,
                     .col = (uint32_t)name->col, .sig0 = (uint32_t)r->signals.len,
                     .port0 = (uint32_t)r->ports.len, .inst0 = (uint32_t)r->insts.len,
                     .asgn0 = (uint32_t)r->assigns.len, .term0 = (uint32_t)r->terms.len};
    if (r->modules.len >= UINT32_MAX - 1 || !vlog_module_vec_push(&r->modules, m))
        return vlog_nomem(r);
    p->module = (uint32_t)r->modules.len - 1;
    p->stamp = p->module + 1;
    r->module_of.data[name->sym] = p->stamp;
    return GP_OK;
}

/* module name [#(...)] [(ports)] ; items endmodule */
static gp_status vlog_parse_module(vlog_parser *p)
{
    vlog_name name;
    gp_status st = vlog_advance(p);
    if (st != GP_OK || (st = vlog_take_name(p, "the module name", &name)) != GP_OK ||
        (st = vlog_begin_module(p, &name)) != GP_OK)
        return st;
    if (vlog_at(p, '#')) {
        diag_warn(p->r->d, 3106, vlog_here(p),
                  "parameters of module '%s' are ignored: the netlist reader does not evaluate "
                  "them",
                  vlog_sym(p->r, name.sym));
        if ((st = vlog_skip_hash(p)) != GP_OK)
            return st;
    }
    if (vlog_at(p, '(') && (st = vlog_parse_port_list(p)) != GP_OK)
        return st;
    if ((st = vlog_expect(p, ';', "';' after the module header")) != GP_OK)
        return st;
    for (bool done = false; !done;)
        if ((st = vlog_parse_item(p, &done)) != GP_OK)
            return st;
    vlog_reader *r = p->r;
    vlog_module *m = vlog_current(p);
    m->nsig = (uint32_t)(r->signals.len - m->sig0);
    m->is_blackbox = m->ninst == 0 && m->nasgn == 0;
    if ((st = vlog_check_signals(p)) != GP_OK)
        return st;
    return vlog_layout_bits(p);
}

gp_status vlog_parse(vlog_reader *r, vlog_scan *scan, uint32_t file)
{
    vlog_parser p = {.r = r, .scan = scan, .file = file};
    gp_status st = vlog_advance(&p);
    while (st == GP_OK && p.t.kind != TOK_EOF) {
        int kw = vlog_keyword_at(&p);
        if (kw == VLOG_KW_MODULE || kw == VLOG_KW_MACROMODULE) {
            st = vlog_parse_module(&p);
        } else if (kw == VLOG_KW_PRIMITIVE) {
            diag_error(r->d, 3025, vlog_here(&p),
                       "user-defined primitives are not supported: give a gate-level netlist of "
                       "library cells");
            st = GP_ERR_UNSUPPORTED;
        } else {
            st = vlog_syntax_error(&p, "'module'");
        }
    }
    if (st == GP_OK)
        st = vlog_check_conds_closed(&p);
    vec_u8_free(&p.conds);
    vlog_batch_free(&p);
    return st;
}
