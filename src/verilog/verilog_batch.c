/* verilog_batch.c: plain instance statements parsed on threads.
 *
 * Most of a large netlist is instance statements of one shape,
 * CELL name (.PIN(net), .PIN(bus[3]), ...); or with ordered connections,
 * whose nets were declared before them.  At such a statement, the tokens
 * lexed ahead (vlog_scan_window) are cut into parts, each but the first
 * beginning after a ';'.  Every part parses statements of that shape from
 * its beginning into buffers of its own, reading the module's declarations
 * and changing nothing shared, and stops before the first statement that
 * begins in the next part or that it cannot parse whole and silently: a
 * keyword, a directive, an attribute, a constant, a concatenation, a net
 * not declared (implicit), anything the parser would report.
 *
 * A part's beginning is a statement's beginning only when the part before
 * ended there, so the statements taken are those of the first parts that
 * reached their ends, and of the first that did not up to where it
 * stopped; an instance name used before in the module ends them before its
 * statement.  They go to the reader's arrays in file order, as
 * vlog_parse_instances would have put them, and the parser goes on at the
 * first statement not taken, which it parses (and reports) itself. */
#include "verilog/verilog_int.h"

#include "util/parts.h"

/* At most this many parts, each of at least VLOG_BATCH_PART_TOKENS. */
#define VLOG_BATCH_PARTS 32
#define VLOG_BATCH_PART_TOKENS 16
/* After a batch that took less than half its window, the instance
 * statements parsed one by one before the next batch: doubling from the
 * first to the last while batches stay short. */
#define VLOG_BATCH_WAIT_FIRST 64u
#define VLOG_BATCH_WAIT_LAST (1u << 20)
/* How far ahead a part asks for the slots of instance names. */
#define VLOG_BATCH_PREFETCH 16
/* Tokens ahead of a net's name whose sig_of slots (far) and signals (near)
 * a part asks for. */
#define VLOG_BATCH_FAR 64
#define VLOG_BATCH_NEAR 32

/* Where a statement a part parsed begins: its place in the window and its
 * first instance, connection and term in the part's buffers. */
typedef struct vlog_stmt {
    size_t begin;
    uint32_t inst0, conn0, term0;
} vlog_stmt;

VEC_DECLARE(vlog_stmt_vec, vlog_stmt)

typedef struct vlog_part {
    size_t begin, end; /* its statements begin in [begin, end) of the window */
    size_t stop;       /* where its statements ended: end when it parsed them all */
    vlog_inst_vec insts; /* conn0 counts in conns */
    vlog_conn_vec conns; /* term0 counts in terms */
    vlog_term_vec terms;
    vlog_stmt_vec stmts;
    size_t n_stmts;                       /* taken */
    size_t inst_base, conn_base, term_base; /* where they go in the reader's arrays */
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

/* The slots and signals of names ahead lie in memory no cache holds on a
 * large netlist: their loads start now. */
static void prefetch_ahead(const vlog_batch *b, const vlog_cursor *c)
{
    const vlog_run *run = &c->w->runs[c->run];
    if (c->at + VLOG_BATCH_FAR >= run->n)
        return;
    uint32_t far = run->toks[c->at + VLOG_BATCH_FAR].sym;
    uint32_t near = run->toks[c->at + VLOG_BATCH_NEAR].sym;
    const vlog_slot *slots = b->r->sig_of.data;
    if (far < b->r->sig_of.len)
        __builtin_prefetch(&slots[far]);
    if (near < b->r->sig_of.len && slots[near].stamp == b->stamp)
        __builtin_prefetch(&b->r->signals.data[slots[near].index]);
}

/* A declared net, or a bit- or part-select of one: its term. */
static bool batch_ref(const vlog_batch *b, vlog_cursor *c, vlog_part *part)
{
    vlog_token name;
    prefetch_ahead(b, c);
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

static void parse_part(void *ctx, uint32_t k, uint32_t parts)
{
    (void)parts;
    vlog_batch *b = ctx;
    vlog_part *part = &b->parts[k];
    part->insts.len = part->conns.len = part->terms.len = part->stmts.len = 0;
    part->stop = part->begin;
    vlog_cursor c = cursor_at(&b->w, part->begin);
    while (c.index < part->end) {
        vlog_stmt stmt = {c.index, (uint32_t)part->insts.len, (uint32_t)part->conns.len,
                          (uint32_t)part->terms.len};
        if (!batch_statement(b, &c, part) || !vlog_stmt_vec_push(&part->stmts, stmt)) {
            part->insts.len = stmt.inst0;
            part->conns.len = stmt.conn0;
            part->terms.len = stmt.term0;
            return;
        }
        part->stop = c.index;
    }
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

/* Counts of part k's first n_stmts statements. */
static vlog_stmt taken_end(const vlog_part *part)
{
    if (part->n_stmts < part->stmts.len) {
        const vlog_stmt *next = &part->stmts.data[part->n_stmts];
        return (vlog_stmt){next->begin, next->inst0, next->conn0, next->term0};
    }
    return (vlog_stmt){part->stop, (uint32_t)part->insts.len, (uint32_t)part->conns.len,
                       (uint32_t)part->terms.len};
}

/* Gives the taken instances their slots in inst_of, in file order; the
 * first statement that repeats a name the module has used is not taken, nor
 * any after it.  Returns the parts still taken. */
static uint32_t claim_names(vlog_batch *b, vlog_reader *r, uint32_t taken)
{
    uint32_t index = (uint32_t)r->insts.len;
    for (uint32_t k = 0; k < taken; k++) {
        vlog_part *part = &b->parts[k];
        const vlog_inst *insts = part->insts.data;
        for (size_t s = 0; s < part->n_stmts; s++) {
            const vlog_stmt *stmt = &part->stmts.data[s];
            uint32_t end = s + 1 < part->stmts.len ? part->stmts.data[s + 1].inst0
                                                   : (uint32_t)part->insts.len;
            for (uint32_t i = stmt->inst0; i < end; i++) {
                if (i + VLOG_BATCH_PREFETCH < part->insts.len)
                    __builtin_prefetch(&r->inst_of.data[insts[i + VLOG_BATCH_PREFETCH].name]);
                vlog_slot *slot = &r->inst_of.data[insts[i].name];
                if (slot->stamp == b->stamp) {
                    for (uint32_t j = stmt->inst0; j < i; j++)
                        r->inst_of.data[insts[j].name] = (vlog_slot){0, 0};
                    part->n_stmts = s;
                    return k + 1;
                }
                *slot = (vlog_slot){b->stamp, index + (i - stmt->inst0)};
            }
            index += end - stmt->inst0;
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
    vlog_stmt end = taken_end(part);
    for (uint32_t i = 0; i < end.inst0; i++) {
        vlog_inst inst = part->insts.data[i];
        inst.conn0 += (uint32_t)part->conn_base;
        r->insts.data[part->inst_base + i] = inst;
    }
    for (uint32_t i = 0; i < end.conn0; i++) {
        vlog_conn conn = part->conns.data[i];
        conn.term0 += (uint32_t)part->term_base;
        r->conns.data[part->conn_base + i] = conn;
    }
    if (end.term0)
        memcpy(r->terms.data + part->term_base, part->terms.data, end.term0 * sizeof(vlog_term));
}

/* Places the taken parts in the reader's arrays: false when they would not
 * fit the limits the parser keeps (it then reaches them itself). */
static bool place_parts(vlog_batch *b, vlog_reader *r, uint32_t taken)
{
    uint64_t insts = r->insts.len, conns = r->conns.len, terms = r->terms.len;
    for (uint32_t k = 0; k < taken; k++) {
        vlog_part *part = &b->parts[k];
        vlog_stmt end = taken_end(part);
        part->inst_base = insts;
        part->conn_base = conns;
        part->term_base = terms;
        insts += end.inst0;
        conns += end.conn0;
        terms += end.term0;
    }
    return insts < UINT32_MAX && conns < UINT32_MAX &&
           terms < UINT32_MAX - VLOG_MAX_EXPR_TERMS - 1;
}

/* Appends what the taken parts parsed; returns the instances added. */
static gp_status append_parts(vlog_batch *b, vlog_reader *r, uint32_t taken, size_t *added)
{
    const vlog_part *last = &b->parts[taken - 1];
    vlog_stmt end = taken_end(last);
    size_t insts = last->inst_base + end.inst0, conns = last->conn_base + end.conn0,
           terms = last->term_base + end.term0;
    if (!vlog_inst_vec_reserve(&r->insts, insts) || !vlog_conn_vec_reserve(&r->conns, conns) ||
        !vlog_term_vec_reserve(&r->terms, terms))
        return vlog_nomem(r);
    *added = insts - r->insts.len;
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
    if (!place_parts(b, r, taken))
        return GP_OK;
    taken = claim_names(b, r, taken);
    place_parts(b, r, taken);
    *stop = taken_end(&b->parts[taken - 1]).begin;
    return *stop ? append_parts(b, r, taken, added) : GP_OK;
}

gp_status vlog_parse_instance_batch(vlog_parser *p, bool *parsed)
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
        vlog_inst_vec_free(&b->parts[k].insts);
        vlog_conn_vec_free(&b->parts[k].conns);
        vlog_term_vec_free(&b->parts[k].terms);
        vlog_stmt_vec_free(&b->parts[k].stmts);
    }
    mem_free(b);
    p->batch = NULL;
}
