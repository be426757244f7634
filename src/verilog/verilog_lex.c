/* verilog_lex.c: the Verilog reader's token layer over the shared tokenizer:
 * compiler directives (`ifdef and friends evaluated, `timescale and the like
 * skipped), attributes (* ... *) skipped, keywords, names and the common
 * syntax errors. */
#include <ctype.h>

#include "verilog/verilog_int.h"

/* Tokens ahead whose names vlog_prefetch asks for. */
#define VLOG_PREFETCH_FAR 96
#define VLOG_PREFETCH_NEAR 48

/* `ifdef nesting states. */
enum {
    VLOG_COND_ON,   /* in the branch being read */
    VLOG_COND_WAIT, /* no branch taken yet: a later `elsif / `else may be */
    VLOG_COND_DONE, /* a branch was taken: skip the others */
    VLOG_COND_DEAD  /* the whole `ifdef lies in skipped text */
};

diag_loc vlog_here(const vlog_parser *p) { return vlog_scan_loc(p->scan, &p->t); }

static bool vlog_active(const vlog_parser *p)
{
    return p->conds.len == 0 || p->conds.data[p->conds.len - 1] == VLOG_COND_ON;
}

static bool vlog_word_is(const tok *t, const char *s)
{
    return t->kind == TOK_WORD && !(t->flags & TOK_F_ESCAPED) && tok_text_is(t, s);
}

/* The defines list is short (netlists rarely have any): a linear scan. */
static bool vlog_defined(const vlog_reader *r, uint32_t sym)
{
    for (size_t i = 0; i < r->defines.len; i++)
        if (r->defines.data[i] == sym)
            return true;
    return false;
}

/* Skips the tokens left on line `line`. */
static gp_status vlog_skip_line(vlog_parser *p, int line)
{
    for (;;) {
        tok next;
        gp_status st = vlog_scan_peek(p->scan, &next, NULL);
        if (st != GP_OK)
            return st;
        if (next.kind == TOK_EOF || next.line != line)
            return GP_OK;
        if ((st = vlog_scan_next(p->scan, &next, NULL)) != GP_OK)
            return st;
    }
}

/* The macro name after `ifdef / `define..., on the directive's line. */
static gp_status vlog_directive_name(vlog_parser *p, const tok *dir, uint32_t *sym)
{
    tok name;
    gp_status st = vlog_scan_peek(p->scan, &name, NULL);
    if (st != GP_OK)
        return st;
    if (name.kind != TOK_WORD || name.line != dir->line) {
        diag_error(p->r->d, 3031, vlog_scan_loc(p->scan, dir),
                   "`%.*s needs a macro name on the same line", (int)dir->len - 1, dir->text + 1);
        return GP_ERR_PARSE;
    }
    return vlog_scan_next(p->scan, &name, sym);
}

static gp_status vlog_push_cond(vlog_parser *p, const tok *dir, bool when_defined)
{
    uint32_t sym;
    gp_status st = vlog_directive_name(p, dir, &sym);
    if (st != GP_OK)
        return st;
    uint8_t state = VLOG_COND_DEAD;
    if (vlog_active(p))
        state = vlog_defined(p->r, sym) == when_defined ? VLOG_COND_ON : VLOG_COND_WAIT;
    return vec_u8_push(&p->conds, state) ? GP_OK : vlog_nomem(p->r);
}

/* `elsif, `else and `endif. */
static gp_status vlog_next_branch(vlog_parser *p, const tok *dir)
{
    if (p->conds.len == 0) {
        diag_error(p->r->d, 3032, vlog_scan_loc(p->scan, dir),
                   "`%.*s without a matching `ifdef or `ifndef: remove it", (int)dir->len - 1,
                   dir->text + 1);
        return GP_ERR_PARSE;
    }
    uint8_t *state = &p->conds.data[p->conds.len - 1];
    if (vlog_word_is(dir, "`endif")) {
        p->conds.len--;
        return GP_OK;
    }
    bool is_else = vlog_word_is(dir, "`else");
    uint32_t sym = 0;
    if (!is_else) {
        gp_status st = vlog_directive_name(p, dir, &sym);
        if (st != GP_OK)
            return st;
        state = &p->conds.data[p->conds.len - 1];
    }
    if (*state == VLOG_COND_ON)
        *state = VLOG_COND_DONE;
    else if (*state == VLOG_COND_WAIT && (is_else || vlog_defined(p->r, sym)))
        *state = VLOG_COND_ON;
    return GP_OK;
}

static gp_status vlog_define(vlog_parser *p, const tok *dir, bool define)
{
    uint32_t sym;
    gp_status st = vlog_directive_name(p, dir, &sym);
    if (st != GP_OK)
        return st;
    vec_u32 *defs = &p->r->defines;
    for (size_t i = 0; i < defs->len; i++)
        if (defs->data[i] == sym)
            defs->data[i--] = defs->data[--defs->len];
    if (define && !vec_u32_push(defs, sym))
        return vlog_nomem(p->r);
    return vlog_skip_line(p, dir->line); /* a macro's text is never used */
}

static gp_status vlog_default_nettype(vlog_parser *p, const tok *dir)
{
    tok kind;
    gp_status st = vlog_scan_peek(p->scan, &kind, NULL);
    if (st == GP_OK && kind.line == dir->line)
        p->nettype_none = vlog_word_is(&kind, "none");
    return st != GP_OK ? st : vlog_skip_line(p, dir->line);
}

/* Directives that change nothing a netlist reader cares about. */
static bool vlog_ignored_directive(const tok *dir)
{
    static const char *const names[] = {
        "`timescale", "`celldefine", "`endcelldefine", "`resetall", "`unconnected_drive",
        "`nounconnected_drive", "`suppress_faults", "`nosuppress_faults", "`enable_portfaults",
        "`disable_portfaults", "`delay_mode_distributed", "`delay_mode_path", "`delay_mode_unit",
        "`delay_mode_zero", "`default_decay_time", "`default_trireg_strength", "`line",
        "`pragma", "`begin_keywords", "`end_keywords"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (vlog_word_is(dir, names[i]))
            return true;
    return false;
}

/* A directive read in active text; `dir` is consumed. */
static gp_status vlog_directive(vlog_parser *p, const tok *dir)
{
    if (vlog_word_is(dir, "`ifdef") || vlog_word_is(dir, "`ifndef"))
        return vlog_push_cond(p, dir, vlog_word_is(dir, "`ifdef"));
    if (vlog_word_is(dir, "`elsif") || vlog_word_is(dir, "`else") || vlog_word_is(dir, "`endif"))
        return vlog_next_branch(p, dir);
    if (vlog_word_is(dir, "`define") || vlog_word_is(dir, "`undef"))
        return vlog_define(p, dir, vlog_word_is(dir, "`define"));
    if (vlog_word_is(dir, "`default_nettype"))
        return vlog_default_nettype(p, dir);
    if (vlog_ignored_directive(dir))
        return vlog_skip_line(p, dir->line);
    if (vlog_word_is(dir, "`include")) {
        diag_error(p->r->d, 3029, vlog_scan_loc(p->scan, dir),
                   "`include is not supported: give the included file as one more netlist file");
        return GP_ERR_UNSUPPORTED;
    }
    diag_error(p->r->d, 3030, vlog_scan_loc(p->scan, dir),
               "macro or directive '%.*s' is not supported in a netlist: expand it first",
               (int)dir->len, dir->text);
    return GP_ERR_UNSUPPORTED;
}

/* In text an `ifdef skips: only the conditionals count. */
static gp_status vlog_skipped_directive(vlog_parser *p, const tok *dir)
{
    if (vlog_word_is(dir, "`ifdef") || vlog_word_is(dir, "`ifndef"))
        return vec_u8_push(&p->conds, VLOG_COND_DEAD) ? GP_OK : vlog_nomem(p->r);
    if (vlog_word_is(dir, "`elsif") || vlog_word_is(dir, "`else") || vlog_word_is(dir, "`endif"))
        return vlog_next_branch(p, dir);
    return GP_OK;
}

/* Skips an attribute; the '(' is consumed and the next token starts with '*'.
 * It ends at a word ending in '*' followed by ')'. */
static gp_status vlog_skip_attribute(vlog_parser *p, const tok *open)
{
    for (;;) {
        tok t, next;
        gp_status st = vlog_scan_next(p->scan, &t, NULL);
        if (st != GP_OK)
            return st;
        if (t.kind == TOK_EOF) {
            diag_error(p->r->d, 3033, vlog_scan_loc(p->scan, open),
                       "attribute '(*' is not closed by '*)' before the end of the file");
            return GP_ERR_PARSE;
        }
        if (t.kind != TOK_WORD || t.text[t.len - 1] != '*')
            continue;
        if ((st = vlog_scan_peek(p->scan, &next, NULL)) != GP_OK)
            return st;
        if (tok_is_punct(&next, ')'))
            return vlog_scan_next(p->scan, &next, NULL);
    }
}

/* Names ahead resolve through sig_of and inst_of, and a declared net's
 * signal, in memory no cache holds on a large netlist: their loads start
 * now, the far ones' slots and the near ones' signals. */
static void vlog_prefetch(const vlog_parser *p)
{
    const vlog_reader *r = p->r;
    uint32_t far = vlog_scan_sym_ahead(p->scan, VLOG_PREFETCH_FAR);
    if (far < r->sig_of.len) {
        __builtin_prefetch(&r->sig_of.data[far]);
        __builtin_prefetch(&r->inst_of.data[far]);
    }
    uint32_t near = vlog_scan_sym_ahead(p->scan, VLOG_PREFETCH_NEAR);
    if (p->stamp && near < r->sig_of.len && r->sig_of.data[near].stamp == p->stamp)
        __builtin_prefetch(&r->signals.data[r->sig_of.data[near].index]); /* stamp 0: no module yet */
}

gp_status vlog_advance(vlog_parser *p)
{
    vlog_prefetch(p);
    for (;;) {
        gp_status st = vlog_scan_next(p->scan, &p->t, &p->sym);
        if (st != GP_OK)
            return st;
        tok *t = &p->t;
        bool directive = t->kind == TOK_WORD && !(t->flags & TOK_F_ESCAPED) && t->text[0] == '`';
        if (!vlog_active(p)) {
            if (t->kind == TOK_EOF)
                return vlog_check_conds_closed(p);
            if (directive && (st = vlog_skipped_directive(p, t)) != GP_OK)
                return st;
            continue;
        }
        if (directive) {
            if ((st = vlog_directive(p, t)) != GP_OK)
                return st;
            continue;
        }
        if (tok_is_punct(t, '(')) {
            tok next;
            if ((st = vlog_scan_peek(p->scan, &next, NULL)) != GP_OK)
                return st;
            if (next.kind == TOK_WORD && next.text[0] == '*' && !(next.flags & TOK_F_ESCAPED)) {
                tok open = *t;
                if ((st = vlog_skip_attribute(p, &open)) != GP_OK)
                    return st;
                continue;
            }
        }
        return GP_OK;
    }
}

gp_status vlog_check_conds_closed(vlog_parser *p)
{
    if (p->conds.len == 0)
        return GP_OK;
    diag_error(p->r->d, 3034, vlog_here(p),
               "%zu `ifdef/`ifndef still open at the end of the file: add `endif",
               p->conds.len);
    return GP_ERR_PARSE;
}

bool vlog_at(const vlog_parser *p, char punct) { return tok_is_punct(&p->t, punct); }

int vlog_keyword_at(vlog_parser *p)
{
    const tok *t = &p->t;
    if (t->kind != TOK_WORD || (t->flags & TOK_F_ESCAPED))
        return -1;
    return p->sym < VLOG_KW_COUNT ? (int)p->sym : -1;
}

gp_status vlog_syntax_error(vlog_parser *p, const char *what)
{
    const tok *t = &p->t;
    if (t->kind == TOK_ERROR)
        return GP_ERR_PARSE; /* the tokenizer has reported it */
    char found[64] = "the end of the file";
    if (t->kind != TOK_EOF)
        snprintf(found, sizeof found, "%s'%.*s%s'", t->kind == TOK_STRING ? "string " : "",
                 (int)(t->len > 40 ? 40 : t->len), t->text, t->len > 40 ? "..." : "");
    diag_error(p->r->d, 3001, vlog_here(p), "expected %s, found %s", what, found);
    return GP_ERR_PARSE;
}

gp_status vlog_expect(vlog_parser *p, char punct, const char *what)
{
    if (vlog_at(p, punct))
        return vlog_advance(p);
    return vlog_syntax_error(p, what);
}

bool vlog_is_identifier(const char *s, size_t len)
{
    if (len == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return false;
    for (size_t i = 1; i < len; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '$'))
            return false;
    return true;
}

gp_status vlog_take_name(vlog_parser *p, const char *what, vlog_name *out)
{
    const tok *t = &p->t;
    if (t->kind != TOK_WORD)
        return vlog_syntax_error(p, what);
    bool escaped = (t->flags & TOK_F_ESCAPED) != 0;
    out->sym = p->sym;
    if (!escaped && out->sym < VLOG_KW_COUNT)
        return vlog_syntax_error(p, what);
    if (!escaped && !vlog_is_identifier(t->text, t->len)) {
        diag_error(p->r->d, 3002, vlog_here(p),
                   "'%.*s' is not a valid identifier (expected %s): escape it as '\\%.*s ' or "
                   "rename it",
                   (int)(t->len > 40 ? 40 : t->len), t->text, what,
                   (int)(t->len > 40 ? 40 : t->len), t->text);
        return GP_ERR_PARSE;
    }
    gp_status st = vlog_reserve_maps(p->r, out->sym);
    if (st != GP_OK)
        return st;
    out->escaped = escaped;
    out->line = t->line;
    out->col = t->col;
    return vlog_advance(p);
}
