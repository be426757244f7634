/* verilog_batch.c: plain declarations and instance statements parsed on
 * threads.
 *
 * Most of a large netlist is statements of two shapes: declarations
 * `wire [7:0] a, b;` and instances CELL name (.PIN(net), .PIN(bus[3]), ...);
 * (or with ordered connections) whose nets were declared before them.  At
 * such a statement, the tokens lexed ahead (vlog_scan_window) are cut into
 * parts, each but the first beginning after a ';'.  Every part parses statements of that shape from
 * its beginning into buffers of its own, reading the module's declarations
 * and changing nothing shared, and stops before the first statement that
 * begins in the next part or that it cannot parse whole and silently: a
 * keyword but `wire`, a directive, an attribute, a constant, a
 * concatenation, a net not declared (implicit) or declared in the same
 * batch, anything the parser would report.
 *
 * A part's beginning is a statement's beginning only when the part before
 * ended there, so the statements taken are those of the first parts that
 * reached their ends, and of the first that did not up to where it
 * stopped; a net or an instance name declared before in the module ends
 * them before its statement.  They go to the reader's arrays in file order,
 * as the parser would have put them, and the parser goes on at the
 * first statement not taken, which it parses (and reports) itself. */
#include "verilog/verilog_int.h"

#include <stdlib.h>

#include "util/parts.h"

/* At most this many parts, each of at least VLOG_BATCH_PART_TOKENS. */
#define VLOG_BATCH_PARTS 32
#define VLOG_BATCH_PART_TOKENS 16
/* After a batch that took less than half its window, the statements the
 * parser takes one by one before the next batch: doubling from the first
 * to the last while batches stay short. */
#define VLOG_BATCH_WAIT_FIRST 4u
#define VLOG_BATCH_WAIT_LAST (1u << 20)
/* How far ahead the claiming asks for the slots of names. */
#define VLOG_BATCH_PREFETCH 16
/* Tokens ahead of a part's parsing whose sig_of slots (far) and signals
 * (near) it asks for (vlog_ahead). */
#define VLOG_BATCH_FAR 64
#define VLOG_BATCH_NEAR 32

/* Where a statement a part parsed begins: its place in the window and its
 * first signal, instance, connection and term in the part's buffers. */
typedef struct vlog_stmt {
    size_t begin;
    uint32_t sig0, inst0, conn0, term0;
} vlog_stmt;

VEC_DECLARE(vlog_stmt_vec, vlog_stmt)

typedef struct vlog_part {
    size_t begin, end; /* its statements begin in [begin, end) of the window */
    size_t stop;       /* where its statements ended: end when it parsed them all */
    vlog_signal_vec signals;
    vlog_inst_vec insts; /* conn0 counts in conns */
    vlog_conn_vec conns; /* term0 counts in terms */
    vlog_term_vec terms;
    vlog_stmt_vec stmts;
    size_t n_stmts;  /* taken */
    vlog_stmt base;  /* where they go in the reader's arrays */
} vlog_part;

typedef struct vlog_batch vlog_batch;
struct vlog_batch {
    vlog_reader *r;
    uint32_t stamp; /* the module's, for sig_of */
    vlog_window w;
    vlog_part parts[VLOG_BATCH_PARTS];
    uint32_t n_parts;
    uint32_t wait, backoff; /* statements to parse one by one; the next wait */
};

/* --- walking the window ------------------------------------------------------ */

typedef struct vlog_cursor {
    const vlog_window *w;
    size_t run, at, index; /* w->runs[run].toks[at] is token `index` */
} vlog_cursor;

static vlog_cursor cursor_at(const vlog_window *w, size_t index)
{
    vlog_cursor c = {w, 0, index, index};
    while (c.run < w->n_runs && c.at >= w->runs[c.run].n)
        c.at -= w->runs[c.run++].n;
    return c;
}

static const vlog_token *cursor_token(const vlog_cursor *c)
{
    return c->index < c->w->n_toks ? &c->w->runs[c->run].toks[c->at] : NULL;
}

static void cursor_step(vlog_cursor *c)
{
    c->index++;
    if (++c->at == c->w->runs[c->run].n) {
        c->run++;
        c->at = 0;
    }
}

static bool cursor_at_punct(const vlog_cursor *c, char punct)
{
    const vlog_token *t = cursor_token(c);
    return t && t->kind == TOK_PUNCT && c->w->text[t->offset] == punct;
}

/* Whether the cursor is at keyword kw (never an escaped name). */
static bool cursor_at_keyword(const vlog_cursor *c, int kw)
{
    const vlog_token *t = cursor_token(c);
    return t && t->kind == TOK_WORD && !(t->flags & TOK_F_ESCAPED) && t->sym == (uint32_t)kw;
}

static bool take_punct(vlog_cursor *c, char punct)
{
    if (!cursor_at_punct(c, punct))
        return false;
    cursor_step(c);
    return true;
}

/* A name as vlog_take_name takes one: an escaped word, or a simple
 * identifier that is no keyword (which also rules out directives and the
 * '*' of an attribute). */
static bool take_name(vlog_cursor *c, vlog_token *out)
{
    const vlog_token *t = cursor_token(c);
    if (!t || t->kind != TOK_WORD)
        return false;
    if (!(t->flags & TOK_F_ESCAPED) &&
        (t->sym < VLOG_KW_COUNT || !vlog_is_identifier(c->w->text + t->offset, t->len)))
        return false;
    *out = *t;
    cursor_step(c);
    return true;
}

static bool take_index(vlog_cursor *c, int32_t *out)
{
    const vlog_token *t = cursor_token(c);
    if (!t || t->kind != TOK_WORD || !vlog_index_value(c->w->text + t->offset, t->len, out))
        return false;
    cursor_step(c);
    return true;
}

/* --- one part's statements --------------------------------------------------- */

/* A declared net, or a bit- or part-select of one: its term. */
static bool batch_ref(const vlog_batch *b, vlog_cursor *c, vlog_part *part)
{
    vlog_token name;
    if (!take_name(c, &name))
        return false;
    const vlog_slot *slot = &b->r->sig_of.data[name.sym];
    if (slot->stamp != b->stamp)
        return false;
    const vlog_signal *s = &b->r->signals.data[slot->index];
    if (!(s->flags & VLOG_SIG_SIZED))
        return false;
    vlog_term term = {slot->index, 0, vlog_signal_width(s)};
    if (take_punct(c, '[')) {
        int32_t hi, lo;
        if (!take_index(c, &hi))
            return false;
        lo = hi;
        if ((take_punct(c, ':') && !take_index(c, &lo)) || !take_punct(c, ']') ||
            vlog_select_term(s, slot->index, hi, lo, &term) != 0)
            return false;
    }
    return vlog_term_vec_push(&part->terms, term);
}

/* .pin(net), .pin(), ... up to the closing ')' (not taken). */
static bool batch_named_conns(const vlog_batch *b, vlog_cursor *c, vlog_part *part,
                              vlog_inst *inst)
{
    do {
        vlog_token pin;
        if (!take_punct(c, '.') || !take_name(c, &pin) || !take_punct(c, '('))
            return false;
        vlog_conn conn = {pin.sym, (uint32_t)part->terms.len, 0, pin.line, pin.col};
        if (!cursor_at_punct(c, ')')) {
            if (!batch_ref(b, c, part))
                return false;
            conn.nterm = 1;
        }
        if (!take_punct(c, ')') || !vlog_conn_vec_push(&part->conns, conn))
            return false;
        inst->nconn++;
    } while (take_punct(c, ','));
    return true;
}

/* net, , net ... by position, up to the closing ')' (not taken). */
static bool batch_ordered_conns(const vlog_batch *b, vlog_cursor *c, vlog_part *part,
                                vlog_inst *inst)
{
    inst->ordered = true;
    uint32_t pos = 0;
    do {
        const vlog_token *t = cursor_token(c);
        if (!t)
            return false;
        vlog_conn conn = {pos++, (uint32_t)part->terms.len, 0, t->line, t->col};
        if (!cursor_at_punct(c, ',') && !cursor_at_punct(c, ')')) {
            if (!batch_ref(b, c, part))
                return false;
            conn.nterm = 1;
        }
        if (!vlog_conn_vec_push(&part->conns, conn))
            return false;
        inst->nconn++;
    } while (take_punct(c, ','));
    return true;
}

/* name ( connections ) */
static bool batch_instance(const vlog_batch *b, vlog_cursor *c, vlog_part *part, uint32_t type)
{
    vlog_token name;
    if (!take_name(c, &name) || !take_punct(c, '('))
        return false;
    vlog_inst inst = {.name = name.sym, .type = type, .conn0 = (uint32_t)part->conns.len,
                      .line = name.line, .col = name.col};
    bool ok = true;
    if (cursor_at_punct(c, '.'))
        ok = batch_named_conns(b, c, part, &inst);
    else if (!cursor_at_punct(c, ')'))
        ok = batch_ordered_conns(b, c, part, &inst);
    return ok && take_punct(c, ')') && vlog_inst_vec_push(&part->insts, inst);
}

/* wire [signed] [[msb:lsb]] name {, name} ; with names new to the module. */
static bool batch_declaration(const vlog_batch *b, vlog_cursor *c, vlog_part *part)
{
    cursor_step(c);
    if (cursor_at_keyword(c, VLOG_KW_SIGNED))
        cursor_step(c);
    vlog_signal s = {.flags = VLOG_SIG_SIZED | VLOG_SIG_HAS_TYPE};
    if (take_punct(c, '[')) {
        if (!take_index(c, &s.msb) || !take_punct(c, ':') || !take_index(c, &s.lsb) ||
            !take_punct(c, ']') ||
            llabs((int64_t)s.msb - s.lsb) + 1 > (int64_t)VLOG_MAX_SIGNAL_BITS)
            return false;
        s.flags |= VLOG_SIG_VECTOR;
    }
    do {
        vlog_token name;
        if (!take_name(c, &name) || cursor_at_punct(c, '[') || cursor_at_punct(c, '=') ||
            b->r->sig_of.data[name.sym].stamp == b->stamp)
            return false;
        s.name = name.sym;
        s.line = name.line;
        s.col = name.col;
        s.flags = (uint8_t)((s.flags & ~VLOG_SIG_ESCAPED) |
                            (name.flags & TOK_F_ESCAPED ? VLOG_SIG_ESCAPED : 0));
        if (!vlog_signal_vec_push(&part->signals, s))
            return false;
    } while (take_punct(c, ','));
    return take_punct(c, ';');
}

/* CELL name (...) {, name (...)} ; */
static bool batch_statement(const vlog_batch *b, vlog_cursor *c, vlog_part *part)
{
    vlog_token type;
    if (!take_name(c, &type))
        return false;
    do {
        if (!batch_instance(b, c, part, type.sym))
            return false;
    } while (take_punct(c, ','));
    return take_punct(c, ';');
}

/* Cursors running ahead of a part's parsing: the sig_of slots of the words
 * at `far` and the signals of those at `near` lie in memory no cache holds
 * on a large netlist, and their loads start before the parsing needs them. */
typedef struct vlog_ahead {
    vlog_cursor far, near;
} vlog_ahead;

static void prefetch_ahead(const vlog_batch *b, vlog_ahead *a, size_t index)
{
    const vlog_slot *slots = b->r->sig_of.data;
    size_t n_slots = b->r->sig_of.len;
    for (const vlog_token *t; a->far.index < index + VLOG_BATCH_FAR &&
                              (t = cursor_token(&a->far)) != NULL;
         cursor_step(&a->far))
        if (t->sym < n_slots)
            __builtin_prefetch(&slots[t->sym]);
    for (const vlog_token *t; a->near.index < index + VLOG_BATCH_NEAR &&
                              (t = cursor_token(&a->near)) != NULL;
         cursor_step(&a->near))
        if (t->sym < n_slots && slots[t->sym].stamp == b->stamp)
            __builtin_prefetch(&b->r->signals.data[slots[t->sym].index]);
}

/* Parses the part's statements from its beginning into its buffers, up to
 * the first it cannot take whole and silently (or its end). */
static void parse_statements(const vlog_batch *b, vlog_part *part)
{
    part->signals.len = part->insts.len = part->conns.len = part->terms.len = 0;
    part->stmts.len = 0;
    part->stop = part->begin;
    vlog_cursor c = cursor_at(&b->w, part->begin);
    vlog_ahead ahead = {c, c};
    while (c.index < part->end) {
        prefetch_ahead(b, &ahead, c.index);
        vlog_stmt stmt = {c.index, (uint32_t)part->signals.len, (uint32_t)part->insts.len,
                          (uint32_t)part->conns.len, (uint32_t)part->terms.len};
        bool ok = cursor_at_keyword(&c, VLOG_KW_WIRE) ? batch_declaration(b, &c, part)
                                                      : batch_statement(b, &c, part);
        if (!ok || !vlog_stmt_vec_push(&part->stmts, stmt)) {
            part->signals.len = stmt.sig0;
            part->insts.len = stmt.inst0;
            part->conns.len = stmt.conn0;
            part->terms.len = stmt.term0;
            return;
        }
        part->stop = c.index;
    }
}

/* The part is parsed on this thread's stack and stored back: the parts'
 * records lie next to each other, and every statement moves its lengths. */
static void parse_part(void *ctx, uint32_t k, uint32_t parts)
{
    (void)parts;
    vlog_batch *b = ctx;
    vlog_part part = b->parts[k];
    parse_statements(b, &part);
    b->parts[k] = part;
}

/* --- cutting and taking ------------------------------------------------------ */

/* The place after the first ';' at or after `from` (the window's end when
 * there is none). */
static size_t after_semicolon(const vlog_window *w, size_t from)
{
    for (vlog_cursor c = cursor_at(w, from); cursor_token(&c); cursor_step(&c)) {
        if (cursor_at_punct(&c, ';')) {
            cursor_step(&c);
            return c.index;
        }
    }
    return w->n_toks;
}

static void cut_parts(vlog_batch *b)
{
    size_t n = b->w.n_toks, most = n / VLOG_BATCH_PART_TOKENS;
    uint32_t parts = parts_online_cores();
    if (parts > VLOG_BATCH_PARTS)
        parts = VLOG_BATCH_PARTS;
    if (parts > most)
        parts = most ? (uint32_t)most : 1;
    b->n_parts = parts;
    for (uint32_t k = 0; k < parts; k++)
        b->parts[k].begin = k == 0 ? 0 : after_semicolon(&b->w, parts_begin(n, k, parts));
    for (uint32_t k = 0; k < parts; k++)
        b->parts[k].end = k + 1 < parts ? b->parts[k + 1].begin : n;
}

/* The parts whose statements are taken (see the file's comment), each with
 * n_stmts set; the last of them may have stopped short. */
static uint32_t taken_parts(vlog_batch *b)
{
    uint32_t k = 0;
    while (k < b->n_parts) {
        vlog_part *part = &b->parts[k++];
        part->n_stmts = part->stmts.len;
        if (part->stop != part->end)
            break;
    }
    return k;
}

/* Where the part's statement s begins (s == stmts.len: where the last
 * ends); the counts of its statements before s. */
static vlog_stmt stmt_at(const vlog_part *part, size_t s)
{
    if (s < part->stmts.len)
        return part->stmts.data[s];
    return (vlog_stmt){part->stop, (uint32_t)part->signals.len, (uint32_t)part->insts.len,
                       (uint32_t)part->conns.len, (uint32_t)part->terms.len};
}

static vlog_stmt taken_end(const vlog_part *part) { return stmt_at(part, part->n_stmts); }

/* Gives statement s's signals their slots in sig_of and its instances
 * theirs in inst_of, their places in the reader's arrays counting from
 * *at; false, with nothing claimed, when one of its names was declared
 * before in the module. */
static bool claim_statement(const vlog_batch *b, const vlog_part *part, size_t s, vlog_stmt *at)
{
    vlog_reader *r = b->r;
    vlog_stmt begin = stmt_at(part, s), end = stmt_at(part, s + 1);
    const vlog_signal *signals = part->signals.data;
    const vlog_inst *insts = part->insts.data;
    uint32_t sig = begin.sig0, inst = begin.inst0;
    for (; sig < end.sig0; sig++) {
        if (sig + VLOG_BATCH_PREFETCH < part->signals.len)
            __builtin_prefetch(&r->sig_of.data[signals[sig + VLOG_BATCH_PREFETCH].name]);
        vlog_slot *slot = &r->sig_of.data[signals[sig].name];
        if (slot->stamp == b->stamp)
            break;
        *slot = (vlog_slot){b->stamp, at->sig0 + sig - begin.sig0};
    }
    for (; sig == end.sig0 && inst < end.inst0; inst++) {
        if (inst + VLOG_BATCH_PREFETCH < part->insts.len)
            __builtin_prefetch(&r->inst_of.data[insts[inst + VLOG_BATCH_PREFETCH].name]);
        vlog_slot *slot = &r->inst_of.data[insts[inst].name];
        if (slot->stamp == b->stamp)
            break;
        *slot = (vlog_slot){b->stamp, at->inst0 + inst - begin.inst0};
    }
    if (sig == end.sig0 && inst == end.inst0) {
        at->sig0 += end.sig0 - begin.sig0;
        at->inst0 += end.inst0 - begin.inst0;
        return true;
    }
    while (sig-- > begin.sig0) /* nothing after the batch reads an older module's slots */
        r->sig_of.data[signals[sig].name] = (vlog_slot){0, 0};
    while (inst-- > begin.inst0)
        r->inst_of.data[insts[inst].name] = (vlog_slot){0, 0};
    return false;
}

/* Claims the taken statements' names in file order; the first statement
 * that repeats a name the module has declared is not taken, nor any after
 * it.  Returns the parts still taken. */
static uint32_t claim_names(vlog_batch *b, uint32_t taken)
{
    vlog_stmt at = {0, (uint32_t)b->r->signals.len, (uint32_t)b->r->insts.len, 0, 0};
    for (uint32_t k = 0; k < taken; k++) {
        vlog_part *part = &b->parts[k];
        for (size_t s = 0; s < part->n_stmts; s++) {
            if (!claim_statement(b, part, s, &at)) {
                part->n_stmts = s;
                return k + 1;
            }
        }
    }
    return taken;
}

static void copy_part(void *ctx, uint32_t k, uint32_t parts)
{
    (void)parts;
    vlog_batch *b = ctx;
    vlog_reader *r = b->r;
    const vlog_part *part = &b->parts[k];
    vlog_stmt end = taken_end(part), base = part->base;
    if (end.sig0)
        memcpy(r->signals.data + base.sig0, part->signals.data, end.sig0 * sizeof(vlog_signal));
    for (uint32_t i = 0; i < end.inst0; i++) {
        vlog_inst inst = part->insts.data[i];
        inst.conn0 += base.conn0;
        r->insts.data[base.inst0 + i] = inst;
    }
    for (uint32_t i = 0; i < end.conn0; i++) {
        vlog_conn conn = part->conns.data[i];
        conn.term0 += base.term0;
        r->conns.data[base.conn0 + i] = conn;
    }
    if (end.term0)
        memcpy(r->terms.data + base.term0, part->terms.data, end.term0 * sizeof(vlog_term));
}

/* Places the taken parts in the reader's arrays: false when they would not
 * fit the limits the parser keeps (it then reaches them itself). */
static bool place_parts(vlog_batch *b, uint32_t taken)
{
    const vlog_reader *r = b->r;
    uint64_t sigs = r->signals.len, insts = r->insts.len, conns = r->conns.len,
             terms = r->terms.len;
    for (uint32_t k = 0; k < taken; k++) {
        vlog_part *part = &b->parts[k];
        vlog_stmt end = taken_end(part);
        if (sigs + end.sig0 > VLOG_TERM_UNSIZED || insts + end.inst0 >= UINT32_MAX ||
            conns + end.conn0 >= UINT32_MAX ||
            terms + end.term0 >= UINT32_MAX - VLOG_MAX_EXPR_TERMS - 1)
            return false;
        part->base = (vlog_stmt){0, (uint32_t)sigs, (uint32_t)insts, (uint32_t)conns,
                                 (uint32_t)terms};
        sigs += end.sig0;
        insts += end.inst0;
        conns += end.conn0;
        terms += end.term0;
    }
    return true;
}

/* Appends what the taken parts parsed; *added gets the instances. */
static gp_status append_parts(vlog_batch *b, uint32_t taken, size_t *added)
{
    vlog_reader *r = b->r;
    const vlog_part *last = &b->parts[taken - 1];
    vlog_stmt end = taken_end(last), base = last->base;
    size_t sigs = (size_t)base.sig0 + end.sig0, insts = (size_t)base.inst0 + end.inst0,
           conns = (size_t)base.conn0 + end.conn0, terms = (size_t)base.term0 + end.term0;
    if (!vlog_signal_vec_reserve(&r->signals, sigs) || !vlog_inst_vec_reserve(&r->insts, insts) ||
        !vlog_conn_vec_reserve(&r->conns, conns) || !vlog_term_vec_reserve(&r->terms, terms))
        return vlog_nomem(r);
    *added = insts - r->insts.len;
    r->signals.len = sigs;
    r->insts.len = insts;
    r->conns.len = conns;
    r->terms.len = terms;
    parts_run(copy_part, b, taken);
    return GP_OK;
}

/* --- the batch --------------------------------------------------------------- */

static vlog_batch *batch_of(vlog_parser *p)
{
    if (!p->batch && (p->batch = mem_calloc(1, sizeof *p->batch)) != NULL)
        p->batch->backoff = VLOG_BATCH_WAIT_FIRST;
    return p->batch;
}

/* The next batch waits after one that took less than half its window. */
static void pace(vlog_batch *b, size_t took)
{
    if (took >= b->w.n_toks / 2) {
        b->backoff = VLOG_BATCH_WAIT_FIRST;
        return;
    }
    b->wait = b->backoff;
    if (b->backoff < VLOG_BATCH_WAIT_LAST)
        b->backoff *= 2;
}

/* Parses the window's parts and takes what they parsed; *stop gets the
 * first token not taken. */
static gp_status run_batch(vlog_parser *p, vlog_batch *b, size_t *stop, size_t *added)
{
    vlog_reader *r = p->r;
    gp_status st = vlog_reserve_maps(r, strtab_count(&r->syms));
    if (st != GP_OK)
        return st;
    b->r = r;
    b->stamp = p->stamp;
    cut_parts(b);
    parts_run(parse_part, b, b->n_parts);
    *stop = *added = 0;
    uint32_t taken = taken_parts(b);
    if (!place_parts(b, taken))
        return GP_OK;
    taken = claim_names(b, taken);
    place_parts(b, taken);
    *stop = taken_end(&b->parts[taken - 1]).begin;
    return *stop ? append_parts(b, taken, added) : GP_OK;
}

gp_status vlog_parse_batch(vlog_parser *p, bool *parsed)
{
    *parsed = false;
    vlog_batch *b = batch_of(p);
    if (!b)
        return GP_OK; /* the parser goes on alone */
    if (b->wait) {
        b->wait--;
        return GP_OK;
    }
    if (!vlog_scan_window(p->scan, &b->w))
        return GP_OK;
    size_t stop, added;
    gp_status st = run_batch(p, b, &stop, &added);
    if (st != GP_OK)
        return st;
    pace(b, stop);
    if (stop == 0)
        return GP_OK;
    p->r->modules.data[p->module].ninst += (uint32_t)added;
    vlog_scan_seek(p->scan, &b->w, stop);
    *parsed = true;
    return vlog_advance(p);
}

void vlog_batch_free(vlog_parser *p)
{
    vlog_batch *b = p->batch;
    if (!b)
        return;
    for (uint32_t k = 0; k < VLOG_BATCH_PARTS; k++) {
        vlog_signal_vec_free(&b->parts[k].signals);
        vlog_inst_vec_free(&b->parts[k].insts);
        vlog_conn_vec_free(&b->parts[k].conns);
        vlog_term_vec_free(&b->parts[k].terms);
        vlog_stmt_vec_free(&b->parts[k].stmts);
    }
    mem_free(b);
    p->batch = NULL;
}
