/* liberty_syntax.c: the generic Liberty syntax layer.  It knows groups
 * `name (args) { ... }`, simple attributes `name : value ;` and complex
 * attributes `name (args) ;` (define(...) is one) and hands each to a
 * lib_visitor; it never interprets them.
 *
 * Semicolons are optional, as many libraries leave them out; a simple
 * attribute's value runs to the ';', the '}' or the end of its line.  Groups
 * the visitor enters are tracked on a stack (for the message when the file
 * ends inside one); skipped bodies are passed over by counting braces. */
#include <stdio.h>

#include "liberty/liberty_int.h"

const tok_config lib_tok_config = {
    .punct = "(){};:,", .comments = TOK_COMMENT_C, .line_continuation = true, .quote = '"'};

/* An argument while it is collected: its text lives at text[off ..+ len]. */
typedef struct lib_rawarg {
    size_t off, len;
    bool quoted;
    int line, col;
} lib_rawarg;

VEC_DECLARE(lib_rawargvec, lib_rawarg)

/* An entered group: where it starts and its name (cut short), for messages. */
typedef struct lib_open {
    int line, col;
    char name[40];
} lib_open;

VEC_DECLARE(lib_openvec, lib_open)

typedef struct lib_parser {
    tok_lexer *lx;
    diag_ctx *d;
    const lib_visitor *v;
    vec_u8 text;         /* the statement's name and argument texts, NUL-separated */
    lib_rawargvec raw;
    lib_argvec args;
    lib_openvec open;
    tok prev;            /* the last token taken into an argument */
    bool have_prev;
} lib_parser;

static gp_status lib_syntax_nomem(lib_parser *p, const tok *t)
{
    diag_error(p->d, 2001, tok_loc(p->lx, t), "out of memory while reading the library");
    return GP_ERR_NOMEM;
}

static gp_status lib_syntax_truncated(lib_parser *p, const tok *t, const char *what, int line)
{
    diag_error(p->d, 2002, tok_loc(p->lx, t),
               "the file ends inside %s opened at line %d: the file is truncated or a closing "
               "bracket is missing",
               what, line);
    return GP_ERR_PARSE;
}

/* The token's text for a message, quoted strings with their quotes. */
static void lib_describe(const tok *t, char *buf, size_t size)
{
    if (t->kind == TOK_EOF)
        snprintf(buf, size, "the end of the file");
    else if (t->kind == TOK_STRING)
        snprintf(buf, size, "\"%.*s\"", (int)(t->len > 40 ? 40 : t->len), t->text);
    else
        snprintf(buf, size, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->text);
}

static bool lib_append_text(lib_parser *p, const char *s, size_t len)
{
    if (!vec_u8_reserve(&p->text, p->text.len + len + 1))
        return false;
    memcpy(p->text.data + p->text.len, s, len);
    p->text.len += len;
    return true;
}

/* Ends the text of the argument being collected with its NUL. */
static bool lib_close_arg(lib_parser *p)
{
    return vec_u8_push(&p->text, 0);
}

/* Every name and value the visitor sees is a C string: a NUL byte in a
 * token is an error (the file is not text). */
static gp_status lib_check_nul(lib_parser *p, const tok *t)
{
    if (!memchr(t->text, '\0', t->len))
        return GP_OK;
    diag_error(p->d, 2008, tok_loc(p->lx, t),
               "a NUL byte inside a name or value: the file is not a Liberty text file");
    return GP_ERR_PARSE;
}

/* Whether t follows p->prev without blanks (neither being a string). */
static bool lib_adjacent(const lib_parser *p, const tok *t)
{
    const tok *q = &p->prev;
    return p->have_prev && q->kind != TOK_STRING && t->kind != TOK_STRING && q->line == t->line &&
           (size_t)q->col + q->len == (size_t)t->col;
}

/* Adds token t to the arguments: glued to the last one when adjacent (and
 * `glue`), else as a new one.  `space`: a new token of the same argument is
 * separated by a blank instead (simple attribute values). */
static gp_status lib_take(lib_parser *p, const tok *t, bool glue, bool space)
{
    gp_status st = lib_check_nul(p, t);
    if (st != GP_OK)
        return st;
    bool extend = p->raw.len > 0 && ((glue && lib_adjacent(p, t)) || space);
    if (extend) {
        lib_rawarg *a = &p->raw.data[p->raw.len - 1];
        p->text.len--; /* reopen it: drop its NUL */
        bool blank = space && !lib_adjacent(p, t);
        if ((blank && !lib_append_text(p, " ", 1)) || !lib_append_text(p, t->text, t->len) ||
            !lib_close_arg(p))
            return lib_syntax_nomem(p, t);
        a->len = p->text.len - 1 - a->off;
    } else {
        lib_rawarg a = {p->text.len, t->len, t->kind == TOK_STRING, t->line, t->col};
        if (!lib_append_text(p, t->text, t->len) || !lib_close_arg(p) ||
            !lib_rawargvec_push(&p->raw, a))
            return lib_syntax_nomem(p, t);
    }
    p->prev = *t;
    p->have_prev = true;
    return GP_OK;
}

/* Builds the statement handed to the visitor from the collected texts. */
static gp_status lib_make_stmt(lib_parser *p, const tok *name, lib_stmt *s)
{
    if (!lib_argvec_resize(&p->args, p->raw.len))
        return lib_syntax_nomem(p, name);
    for (size_t i = 0; i < p->raw.len; i++) {
        const lib_rawarg *r = &p->raw.data[i];
        p->args.data[i] = (lib_arg){(const char *)p->text.data + r->off, r->len, r->quoted,
                                    r->line, r->col};
    }
    *s = (lib_stmt){(const char *)p->text.data, name->line, name->col, p->raw.len, p->args.data};
    return GP_OK;
}

/* The arguments after '(' up to and including ')'. */
static gp_status lib_parse_args(lib_parser *p, const tok *name)
{
    p->have_prev = false;
    for (;;) {
        tok t;
        gp_status st = tok_next(p->lx, &t);
        if (st != GP_OK)
            return st;
        if (tok_is_punct(&t, ')'))
            return GP_OK;
        if (tok_is_punct(&t, ',')) {
            p->have_prev = false;
            continue;
        }
        if (t.kind == TOK_EOF)
            return lib_syntax_truncated(p, &t, "the argument list", name->line);
        if (t.kind == TOK_PUNCT && t.text[0] != ':') {
            char what[64];
            lib_describe(&t, what, sizeof what);
            diag_error(p->d, 2003, tok_loc(p->lx, &t),
                       "expected ')' to close the arguments of '%.40s', found %s", p->text.data,
                       what);
            return GP_ERR_PARSE;
        }
        st = lib_take(p, &t, true, false);
        if (st != GP_OK)
            return st;
    }
}

/* A simple attribute's value after ':' (see the top of the file). */
static gp_status lib_parse_value(lib_parser *p, const tok *name)
{
    tok t;
    gp_status st = tok_peek(p->lx, &t);
    if (st != GP_OK)
        return st;
    if (t.kind == TOK_EOF || tok_is_punct(&t, ';') || tok_is_punct(&t, '}') ||
        tok_is_punct(&t, '{')) {
        char what[64];
        lib_describe(&t, what, sizeof what);
        diag_error(p->d, 2004, tok_loc(p->lx, &t),
                   "attribute '%.40s' has no value (found %s): write 'name : value ;'",
                   p->text.data, what);
        return GP_ERR_PARSE;
    }
    p->have_prev = false;
    int line = name->line;
    for (bool first = true;; first = false) {
        st = tok_peek(p->lx, &t);
        if (st != GP_OK)
            return st;
        bool ends = t.kind == TOK_EOF || tok_is_punct(&t, ';') || tok_is_punct(&t, '}') ||
                    tok_is_punct(&t, '{') || (!first && (t.line != line || p->prev.kind == TOK_STRING));
        if (ends)
            break;
        tok_next(p->lx, &t);
        line = t.line;
        st = lib_take(p, &t, false, !first);
        if (st != GP_OK)
            return st;
    }
    if (tok_is_punct(&t, ';'))
        tok_next(p->lx, &t);
    return GP_OK;
}

/* Passes over a skipped group's body, after its '{'. */
static gp_status lib_skip_body(lib_parser *p, int line)
{
    for (size_t depth = 1;;) {
        tok t;
        gp_status st = tok_next(p->lx, &t);
        if (st != GP_OK)
            return st;
        if (t.kind == TOK_EOF)
            return lib_syntax_truncated(p, &t, "a group", line);
        if (tok_is_punct(&t, '{'))
            depth++;
        else if (tok_is_punct(&t, '}') && --depth == 0)
            return GP_OK;
    }
}

static gp_status lib_open_group(lib_parser *p, const lib_stmt *s)
{
    bool skip = false;
    gp_status st = p->v->group_begin(p->v->ctx, s, &skip);
    if (st != GP_OK)
        return st;
    if (skip)
        return lib_skip_body(p, s->line);
    lib_open o = {s->line, s->col, ""};
    snprintf(o.name, sizeof o.name, "%s", s->name);
    if (!lib_openvec_push(&p->open, o)) {
        tok t = {TOK_WORD, 0, "", 0, s->line, s->col};
        return lib_syntax_nomem(p, &t);
    }
    return GP_OK;
}

/* `name (args) ...` after the '(': a group or a complex attribute. */
static gp_status lib_parse_parenthesized(lib_parser *p, const tok *name)
{
    gp_status st = lib_parse_args(p, name);
    if (st != GP_OK)
        return st;
    tok t;
    if ((st = tok_peek(p->lx, &t)) != GP_OK)
        return st;
    bool group = tok_is_punct(&t, '{');
    if (group || tok_is_punct(&t, ';'))
        tok_next(p->lx, &t);
    lib_stmt s;
    if ((st = lib_make_stmt(p, name, &s)) != GP_OK)
        return st;
    if (group)
        return lib_open_group(p, &s);
    return p->v->complex_attr(p->v->ctx, &s);
}

/* One statement starting with the word `name`. */
static gp_status lib_parse_statement(lib_parser *p, const tok *name)
{
    p->text.len = 0;
    p->raw.len = 0;
    gp_status st = lib_check_nul(p, name);
    if (st != GP_OK)
        return st;
    if (!lib_append_text(p, name->text, name->len) || !lib_close_arg(p))
        return lib_syntax_nomem(p, name);
    tok t;
    if ((st = tok_next(p->lx, &t)) != GP_OK)
        return st;
    if (tok_is_punct(&t, '('))
        return lib_parse_parenthesized(p, name);
    if (tok_is_punct(&t, ':')) {
        lib_stmt s;
        if ((st = lib_parse_value(p, name)) != GP_OK || (st = lib_make_stmt(p, name, &s)) != GP_OK)
            return st;
        return p->v->simple_attr(p->v->ctx, &s);
    }
    char what[64];
    lib_describe(&t, what, sizeof what);
    diag_error(p->d, 2005, tok_loc(p->lx, &t),
               "expected ':' or '(' after '%.40s', found %s: write 'name : value ;', "
               "'name (args) ;' or 'name (args) { ... }'",
               p->text.data, what);
    return GP_ERR_PARSE;
}

static gp_status lib_close_group(lib_parser *p, const tok *t)
{
    if (p->open.len == 0) {
        diag_error(p->d, 2006, tok_loc(p->lx, t),
                   "'}' without an open group: remove it or add the group it closes");
        return GP_ERR_PARSE;
    }
    p->open.len--;
    return p->v->group_end(p->v->ctx);
}

static gp_status lib_parse_all(lib_parser *p)
{
    for (;;) {
        tok t;
        gp_status st = tok_next(p->lx, &t);
        if (st != GP_OK)
            return st;
        if (t.kind == TOK_EOF) {
            if (p->open.len == 0)
                return GP_OK;
            const lib_open *o = &p->open.data[p->open.len - 1];
            char what[64];
            snprintf(what, sizeof what, "group '%s'", o->name);
            return lib_syntax_truncated(p, &t, what, o->line);
        }
        if (tok_is_punct(&t, '}'))
            st = lib_close_group(p, &t);
        else if (tok_is_punct(&t, ';'))
            continue; /* an empty statement */
        else if (t.kind == TOK_WORD)
            st = lib_parse_statement(p, &t);
        else {
            char what[64];
            lib_describe(&t, what, sizeof what);
            diag_error(p->d, 2007, tok_loc(p->lx, &t),
                       "expected an attribute or group name, found %s", what);
            st = GP_ERR_PARSE;
        }
        if (st != GP_OK)
            return st;
    }
}

gp_status lib_syntax_parse(tok_lexer *lx, const lib_visitor *v, diag_ctx *d)
{
    lib_parser p = {.lx = lx, .d = d, .v = v};
    gp_status st = lib_parse_all(&p);
    vec_u8_free(&p.text);
    lib_rawargvec_free(&p.raw);
    lib_argvec_free(&p.args);
    lib_openvec_free(&p.open);
    return st;
}
