/* tok.c: a table-driven tokenizer over a refilled buffer.
 *
 * The buffer holds [buf, end) of the input followed by a NUL sentinel, so the
 * scanning loops test one table per byte and notice the end of the data only
 * at a NUL: a NUL before `end` is input (part of a word), one at `end` means
 * "refill".  A refill moves the bytes still needed (the token being scanned)
 * to the buffer's front and reads after them; scanning code holds positions in
 * local pointers that tok_refill moves.  The text tok_next returned must not
 * move while a tok_peek scans on: a refill then copies to a new buffer and
 * keeps the old one ("retired") until the next tok_next.  Columns come from
 * input offsets, so they survive refills. */
#include "util/tok.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "util/infile.h"
#include "util/mem.h"

#define TOK_DEFAULT_CHUNK ((size_t)1 << 20)
#define TOK_NUMBER_MAX 128

/* Byte classes; CLS_WORD is 0 so that a zeroed table is all word bytes.
 * The classes from CLS_SLASH on need a closer look between tokens. */
enum {
    CLS_WORD,
    CLS_SPACE,
    CLS_NEWLINE,
    CLS_PUNCT,
    CLS_QUOTE,
    CLS_SLASH,     /* may start a comment */
    CLS_HASH,      /* starts a comment */
    CLS_BACKSLASH, /* escaped identifier or line continuation */
    CLS_END        /* NUL: the sentinel, or a NUL inside the data */
};

struct tok_lexer {
    uint8_t cls[256];
    uint8_t string_stop[256]; /* bytes a string scan must look at */
    char quote;
    bool comment_c, comment_cpp, slash_is_punct;
    bool verilog_escapes, line_continuation;
    diag_ctx *d;
    char *name;
    infile *in; /* NULL: a memory input, all of it in buf */
    char *buf;
    bool borrowed; /* buf is the caller's (tok_open_view) */
    size_t cap; /* bytes buf holds, the sentinel not counted */
    size_t chunk;
    const char *cur, *end;
    const char *tok_start; /* the token being scanned (NULL between tokens) */
    bool pinned;           /* buf holds the text tok_next returned last */
    char *retired;         /* an older buffer holding that text, or NULL; never
                              both set: tok_next frees it before pinning */
    bool eof;              /* nothing left to read: `end` is the input's end */
    uint64_t buf_off;      /* input offset of buf[0] */
    uint64_t line_start;   /* input offset of the current line's first byte */
    int line;
    gp_status status; /* sticky once an error occurred */
    int err_line, err_col;
    bool has_peek;
    tok peeked;
    gp_status peek_status;
};

/* --- set-up ------------------------------------------------------------- */

static gp_status tok_report_nomem(diag_ctx *d, const char *name)
{
    diag_error(d, 1123, ((diag_loc){name, 0, 0}), "out of memory while reading");
    return GP_ERR_NOMEM;
}

static void tok_build_tables(tok_lexer *lx, const tok_config *cfg)
{
    uint8_t *cls = lx->cls;
    memset(cls, CLS_WORD, sizeof lx->cls);
    cls[' '] = cls['\t'] = cls['\r'] = cls['\v'] = cls['\f'] = CLS_SPACE;
    cls['\n'] = CLS_NEWLINE;
    for (const char *p = cfg->punct ? cfg->punct : ""; *p; p++)
        cls[(unsigned char)*p] = CLS_PUNCT;
    lx->slash_is_punct = cls['/'] == CLS_PUNCT;
    if (cfg->verilog_escapes || cfg->line_continuation)
        cls['\\'] = CLS_BACKSLASH;
    if (cfg->quote)
        cls[(unsigned char)cfg->quote] = CLS_QUOTE;
    lx->comment_c = (cfg->comments & TOK_COMMENT_C) != 0;
    lx->comment_cpp = (cfg->comments & TOK_COMMENT_CPP) != 0;
    if (lx->comment_c || lx->comment_cpp)
        cls['/'] = CLS_SLASH;
    if (cfg->comments & TOK_COMMENT_HASH)
        cls['#'] = CLS_HASH;
    cls[0] = CLS_END;

    memset(lx->string_stop, 0, sizeof lx->string_stop);
    lx->string_stop[0] = lx->string_stop['\n'] = lx->string_stop['\\'] = 1;
    lx->string_stop[(unsigned char)cfg->quote] = 1;

    lx->quote = cfg->quote;
    lx->verilog_escapes = cfg->verilog_escapes;
    lx->line_continuation = cfg->line_continuation;
}

/* A lexer with an empty buffer of `cap` bytes (plus the sentinel). */
static gp_status tok_create(const char *name, const tok_config *cfg, diag_ctx *d, size_t cap,
                            tok_lexer **out)
{
    *out = NULL;
    tok_lexer *lx = mem_calloc(1, sizeof *lx);
    char *name_copy = name ? mem_alloc(strlen(name) + 1) : NULL;
    char *buf = cap < SIZE_MAX ? mem_alloc(cap + 1) : NULL;
    if (!lx || !buf || (name && !name_copy)) {
        mem_free(lx);
        mem_free(name_copy);
        mem_free(buf);
        return tok_report_nomem(d, name);
    }
    if (name)
        strcpy(name_copy, name);
    tok_build_tables(lx, cfg);
    lx->d = d;
    lx->name = name_copy;
    lx->buf = buf;
    lx->buf[0] = '\0';
    lx->cap = cap;
    lx->chunk = cap;
    lx->cur = lx->end = lx->buf;
    lx->line = 1;
    *out = lx;
    return GP_OK;
}

gp_status tok_open(const char *path, const tok_config *cfg, diag_ctx *d, tok_lexer **out)
{
    *out = NULL;
    infile *in;
    gp_status st = infile_open(path, d, &in);
    if (st != GP_OK)
        return st;
    st = tok_create(path, cfg, d, TOK_DEFAULT_CHUNK, out);
    if (st != GP_OK) {
        infile_close(in);
        return st;
    }
    (*out)->in = in;
    return GP_OK;
}

gp_status tok_open_memory(const char *name, const char *data, size_t len, const tok_config *cfg,
                          diag_ctx *d, tok_lexer **out)
{
    gp_status st = tok_create(name, cfg, d, len, out);
    if (st != GP_OK)
        return st;
    tok_lexer *lx = *out;
    memcpy(lx->buf, data, len);
    lx->buf[len] = '\0';
    lx->end = lx->buf + len;
    lx->eof = true;
    return GP_OK;
}

gp_status tok_open_view(const char *name, const char *data, size_t len, tok_start at,
                        const tok_config *cfg, diag_ctx *d, tok_lexer **out)
{
    gp_status st = tok_create(name, cfg, d, 0, out);
    if (st != GP_OK)
        return st;
    tok_lexer *lx = *out;
    mem_free(lx->buf);
    lx->buf = (char *)data; /* never written: a memory input is never refilled */
    lx->borrowed = true;
    lx->cur = data + (at.offset < len ? at.offset : len);
    lx->end = data + len;
    lx->eof = true;
    lx->line = at.line;
    lx->line_start = at.line_start;
    return GP_OK;
}

void tok_close(tok_lexer *lx)
{
    if (!lx)
        return;
    infile_close(lx->in);
    mem_free(lx->retired);
    if (!lx->borrowed)
        mem_free(lx->buf);
    mem_free(lx->name);
    mem_free(lx);
}

void tok_set_chunk_size(tok_lexer *lx, size_t n)
{
    if (n == 0 || lx->end != lx->buf || lx->eof)
        return; /* too late, or a memory input: nothing is read */
    char *buf = mem_realloc(lx->buf, n + 1);
    if (!buf)
        return; /* the bigger buffer works as well */
    lx->buf = buf;
    lx->buf[0] = '\0';
    lx->cur = lx->end = lx->buf;
    lx->cap = lx->chunk = n;
}

/* --- positions and refills ---------------------------------------------- */

uint64_t tok_text_offset(const tok_lexer *lx, const tok *t)
{
    const char *p = t->kind == TOK_EOF || t->kind == TOK_ERROR ? lx->cur : t->text;
    return lx->buf_off + (uint64_t)(p - lx->buf);
}

static uint64_t tok_offset(const tok_lexer *lx, const char *p)
{
    return lx->buf_off + (uint64_t)(p - lx->buf);
}

static int tok_col_at(const tok_lexer *lx, const char *p)
{
    uint64_t col = tok_offset(lx, p) - lx->line_start + 1;
    return col > INT_MAX ? INT_MAX : (int)col;
}

/* Counts a newline; `after` is the byte following it. */
static void tok_newline(tok_lexer *lx, const char *after)
{
    lx->line++;
    lx->line_start = tok_offset(lx, after);
}

/* The buffer size that leaves at least a chunk free after `kept` bytes, or 0
 * on overflow. */
static size_t tok_grown_cap(const tok_lexer *lx, size_t kept)
{
    if (lx->cap > (SIZE_MAX - 1) / 2 || lx->chunk > SIZE_MAX - 1 - kept)
        return 0;
    size_t cap = lx->cap * 2;
    return cap < kept + lx->chunk ? kept + lx->chunk : cap;
}

/* Moves the `kept` bytes after the first `dropped` to the buffer's front,
 * growing the buffer first when fewer than half a chunk would be free after
 * them.  On failure nothing has changed. */
static bool tok_compact(tok_lexer *lx, size_t dropped, size_t kept)
{
    size_t room = lx->cap - kept;
    if (room == 0 || room < (lx->chunk + 1) / 2) {
        size_t cap = tok_grown_cap(lx, kept);
        char *buf = cap ? mem_realloc(lx->buf, cap + 1) : NULL;
        if (!buf)
            return false;
        lx->buf = buf;
        lx->cap = cap;
    }
    memmove(lx->buf, lx->buf + dropped, kept);
    return true;
}

/* Copies those bytes to a new buffer instead, retiring the old one (with the
 * pinned text in it) until the next tok_next. */
static bool tok_relocate(tok_lexer *lx, size_t dropped, size_t kept)
{
    size_t cap = lx->cap - kept >= lx->chunk ? lx->cap : tok_grown_cap(lx, kept);
    char *buf = cap ? mem_alloc(cap + 1) : NULL;
    if (!buf)
        return false;
    memcpy(buf, lx->buf + dropped, kept);
    lx->retired = lx->buf;
    lx->pinned = false;
    lx->buf = buf;
    lx->cap = cap;
    return true;
}

/* Reads more input after `end`, dropping the bytes before *q that the token
 * being scanned does not need; *q and tok_start move along.  Sets eof when
 * the input runs out.  Only called before eof. */
static gp_status tok_refill(tok_lexer *lx, const char **q)
{
    const char *keep = *q;
    if (lx->tok_start && lx->tok_start < keep)
        keep = lx->tok_start;
    size_t q_off = (size_t)(*q - keep);
    size_t start_off = lx->tok_start ? (size_t)(lx->tok_start - keep) : 0;
    size_t kept = (size_t)(lx->end - keep);
    size_t dropped = (size_t)(keep - lx->buf);
    lx->err_line = lx->line;
    lx->err_col = tok_col_at(lx, *q);
    if (!(lx->pinned ? tok_relocate(lx, dropped, kept) : tok_compact(lx, dropped, kept)))
        return tok_report_nomem(lx->d, lx->name); /* *q and tok_start are still right */
    lx->buf_off += dropped;
    *q = lx->buf + q_off;
    if (lx->tok_start)
        lx->tok_start = lx->buf + start_off;

    size_t want = lx->cap - kept < lx->chunk ? lx->cap - kept : lx->chunk, got;
    gp_status st = infile_read(lx->in, lx->buf + kept, want, &got);
    lx->end = lx->buf + kept + got;
    lx->buf[kept + got] = '\0';
    if (got < want)
        lx->eof = true;
    return st;
}

/* Makes n bytes from *q available, unless the input ends first. */
static gp_status tok_need(tok_lexer *lx, const char **q, size_t n)
{
    while ((size_t)(lx->end - *q) < n && !lx->eof) {
        gp_status st = tok_refill(lx, q);
        if (st != GP_OK)
            return st;
    }
    return GP_OK;
}

/* --- whitespace and comments -------------------------------------------- */

/* The length of a line continuation at *q ('\' [ \t\r]* '\n'), or 0. */
static gp_status tok_continuation_len(tok_lexer *lx, const char **q, size_t *len)
{
    *len = 0;
    for (size_t i = 1;; i++) {
        gp_status st = tok_need(lx, q, i + 1);
        if (st != GP_OK)
            return st;
        char c = (*q)[i]; /* the sentinel if the input ends here */
        if (c == '\n')
            *len = i + 1;
        if (c != ' ' && c != '\t' && c != '\r')
            return GP_OK;
    }
}

/* Skips to the newline ending the comment at *qp (left for the caller). */
static gp_status tok_skip_line_comment(tok_lexer *lx, const char **qp)
{
    const char *q = *qp;
    for (;;) {
        const char *nl = memchr(q, '\n', (size_t)(lx->end - q));
        if (nl || lx->eof) {
            *qp = nl ? nl : lx->end;
            return GP_OK;
        }
        q = lx->end;
        gp_status st = tok_refill(lx, &q);
        if (st != GP_OK) {
            *qp = q;
            return st;
        }
    }
}

static gp_status tok_skip_block_comment(tok_lexer *lx, const char **qp)
{
    diag_ctx *d = lx->d;
    int line = lx->line, col = tok_col_at(lx, *qp);
    const char *q = *qp + 2;
    gp_status st = GP_OK;
    for (;;) {
        char c = *q;
        if (c == '*') {
            st = tok_need(lx, &q, 2);
            if (st != GP_OK)
                break;
            if (q[1] == '/') {
                q += 2;
                break;
            }
        } else if (c == '\n') {
            tok_newline(lx, q + 1);
        } else if (c == '\0' && q == lx->end) {
            if (lx->eof) {
                diag_error(d, 1121, ((diag_loc){lx->name, line, col}),
                           "unterminated comment: no closing */ before the end of the file");
                lx->err_line = line;
                lx->err_col = col;
                st = GP_ERR_PARSE;
                break;
            }
            st = tok_refill(lx, &q);
            if (st != GP_OK)
                break;
            continue;
        }
        q++;
    }
    *qp = q;
    return st;
}

/* Skips a comment or line continuation at *qp, or refills at the buffer's
 * end; *skipped says whether there may be more to skip. */
static gp_status tok_skip_special(tok_lexer *lx, const char **qp, bool *skipped)
{
    const char *q = *qp;
    gp_status st = GP_OK;
    *skipped = false;
    switch (lx->cls[(unsigned char)*q]) {
    case CLS_END:
        if (q == lx->end && !lx->eof) {
            st = tok_refill(lx, qp);
            *skipped = true;
        }
        return st;
    case CLS_SLASH:
        st = tok_need(lx, qp, 2);
        q = *qp;
        if (st == GP_OK && q[1] == '*' && lx->comment_c) {
            *skipped = true;
            return tok_skip_block_comment(lx, qp);
        }
        if (st == GP_OK && q[1] == '/' && lx->comment_cpp) {
            *skipped = true;
            return tok_skip_line_comment(lx, qp);
        }
        return st;
    case CLS_HASH:
        *skipped = true;
        return tok_skip_line_comment(lx, qp);
    case CLS_BACKSLASH:
        if (lx->line_continuation) {
            size_t len;
            st = tok_continuation_len(lx, qp, &len);
            if (st == GP_OK && len > 0) {
                *qp += len;
                tok_newline(lx, *qp);
                *skipped = true;
            }
        }
        return st;
    default:
        return GP_OK;
    }
}

static gp_status tok_skip_blanks(tok_lexer *lx, const char **qp)
{
    const uint8_t *cls = lx->cls;
    const char *q = *qp;
    gp_status st = GP_OK;
    for (;;) {
        uint8_t c = cls[(unsigned char)*q];
        if (c == CLS_SPACE) {
            q++;
        } else if (c == CLS_NEWLINE) {
            q++;
            tok_newline(lx, q);
        } else if (c < CLS_SLASH) {
            break; /* a token starts here */
        } else {
            bool skipped;
            st = tok_skip_special(lx, &q, &skipped);
            if (st != GP_OK || !skipped)
                break;
        }
    }
    *qp = q;
    return st;
}

/* --- tokens --------------------------------------------------------------- */

/* At a byte that is not CLS_WORD inside a word: whether the word goes on
 * (*more; *qp then past that byte or refilled) or ends at *qp. */
static gp_status tok_word_continues(tok_lexer *lx, const char **qp, bool *more)
{
    gp_status st = GP_OK;
    *more = false;
    switch (lx->cls[(unsigned char)**qp]) {
    case CLS_END:
        if (*qp < lx->end) {
            ++*qp; /* a NUL inside the data */
            *more = true;
        } else if (!lx->eof) {
            st = tok_refill(lx, qp);
            *more = true;
        }
        return st;
    case CLS_SLASH: {
        st = tok_need(lx, qp, 2);
        char next = (*qp)[1];
        bool comment = (next == '*' && lx->comment_c) || (next == '/' && lx->comment_cpp);
        if (st == GP_OK && !comment && !lx->slash_is_punct) {
            ++*qp;
            *more = true;
        }
        return st;
    }
    case CLS_BACKSLASH: {
        size_t len = 0;
        if (lx->line_continuation)
            st = tok_continuation_len(lx, qp, &len);
        if (st == GP_OK && len == 0) {
            ++*qp;
            *more = true;
        }
        return st;
    }
    default:
        return GP_OK;
    }
}

/* A word starting at *qp (its first byte belongs to it whatever its class). */
static gp_status tok_scan_word(tok_lexer *lx, const char **qp, tok *t)
{
    const uint8_t *cls = lx->cls;
    const char *q = *qp + 1;
    gp_status st;
    for (;;) {
        while (cls[(unsigned char)*q] == CLS_WORD)
            q++;
        bool more;
        st = tok_word_continues(lx, &q, &more);
        if (st != GP_OK || !more)
            break;
    }
    t->kind = TOK_WORD;
    t->text = lx->tok_start;
    t->len = (size_t)(q - lx->tok_start);
    *qp = q;
    return st;
}

/* A Verilog escaped identifier: from after the backslash to whitespace. */
static gp_status tok_scan_escaped(tok_lexer *lx, const char **qp, tok *t)
{
    diag_ctx *d = lx->d;
    const uint8_t *cls = lx->cls;
    const char *q = *qp + 1;
    gp_status st = GP_OK;
    for (;;) {
        uint8_t c = cls[(unsigned char)*q];
        if (c != CLS_SPACE && c != CLS_NEWLINE && c != CLS_END) {
            q++;
        } else if (c == CLS_END && q < lx->end) {
            q++;
        } else if (c == CLS_END && !lx->eof) {
            st = tok_refill(lx, &q);
            if (st != GP_OK)
                break;
        } else {
            break;
        }
    }
    *qp = q;
    t->kind = TOK_WORD;
    t->flags = TOK_F_ESCAPED;
    t->text = lx->tok_start + 1;
    t->len = (size_t)(q - t->text);
    if (st == GP_OK && t->len == 0) {
        diag_error(d, 1122, ((diag_loc){lx->name, t->line, t->col}),
                   "empty escaped identifier: '\\' must be followed by the name, with no space");
        lx->err_line = t->line;
        lx->err_col = t->col;
        st = GP_ERR_PARSE;
    }
    return st;
}

/* A string from the quote at *qp to the closing one (backslash escapes it). */
static gp_status tok_scan_string(tok_lexer *lx, const char **qp, tok *t)
{
    diag_ctx *d = lx->d;
    const uint8_t *stop = lx->string_stop;
    const char *q = *qp + 1;
    gp_status st = GP_OK;
    for (;;) {
        while (!stop[(unsigned char)*q])
            q++;
        char c = *q;
        if (c == lx->quote && c != '\0') {
            break;
        } else if (c == '\n') {
            q++;
            tok_newline(lx, q);
        } else if (c == '\\') {
            t->flags |= TOK_F_BACKSLASH;
            st = tok_need(lx, &q, 2);
            if (st != GP_OK)
                break;
            if (q[1] == '\n')
                tok_newline(lx, q + 2);
            q += q + 1 < lx->end ? 2 : 1; /* a final backslash: the end comes next */
        } else if (q < lx->end) {
            q++; /* a NUL inside the string */
        } else if (!lx->eof) {
            st = tok_refill(lx, &q);
            if (st != GP_OK)
                break;
        } else {
            diag_error(d, 1120, ((diag_loc){lx->name, t->line, t->col}),
                       "unterminated string: no closing %c before the end of the file", lx->quote);
            lx->err_line = t->line;
            lx->err_col = t->col;
            st = GP_ERR_PARSE;
            break;
        }
    }
    t->kind = TOK_STRING;
    t->text = lx->tok_start + 1;
    t->len = (size_t)(q - t->text);
    *qp = st == GP_OK ? q + 1 : q;
    return st;
}

static gp_status tok_scan_punct(const char **qp, tok *t)
{
    t->kind = TOK_PUNCT;
    t->text = *qp;
    t->len = 1;
    ++*qp;
    return GP_OK;
}

static gp_status tok_scan_token(tok_lexer *lx, const char **qp, tok *t)
{
    const char *q = *qp;
    switch (lx->cls[(unsigned char)*q]) {
    case CLS_END:
        if (q == lx->end) { /* tok_skip_blanks refilled up to eof */
            t->kind = TOK_EOF;
            t->text = "";
            t->len = 0;
            return GP_OK;
        }
        return tok_scan_word(lx, qp, t);
    case CLS_SLASH: /* not a comment, or tok_skip_blanks had skipped it */
        if (!lx->slash_is_punct)
            return tok_scan_word(lx, qp, t);
        return tok_scan_punct(qp, t);
    case CLS_PUNCT:
        return tok_scan_punct(qp, t);
    case CLS_QUOTE:
        return tok_scan_string(lx, qp, t);
    case CLS_BACKSLASH:
        if (lx->verilog_escapes)
            return tok_scan_escaped(lx, qp, t);
        return tok_scan_word(lx, qp, t);
    default:
        return tok_scan_word(lx, qp, t);
    }
}

static gp_status tok_error_token(const tok_lexer *lx, tok *t)
{
    *t = (tok){TOK_ERROR, 0, "", 0, lx->err_line, lx->err_col};
    return lx->status;
}

static gp_status tok_scan(tok_lexer *lx, tok *t)
{
    if (lx->status != GP_OK)
        return tok_error_token(lx, t);
    const char *q = lx->cur;
    gp_status st = tok_skip_blanks(lx, &q);
    if (st == GP_OK) {
        lx->tok_start = q;
        t->flags = 0;
        t->line = lx->line;
        t->col = tok_col_at(lx, q);
        st = tok_scan_token(lx, &q, t);
        lx->tok_start = NULL;
    }
    lx->cur = q;
    if (st != GP_OK) {
        lx->status = st;
        return tok_error_token(lx, t);
    }
    return GP_OK;
}

static bool tok_in_buffer(const tok *t)
{
    return t->kind == TOK_WORD || t->kind == TOK_STRING || t->kind == TOK_PUNCT;
}

gp_status tok_next(tok_lexer *lx, tok *t)
{
    gp_status st;
    if (lx->has_peek) {
        *t = lx->peeked;
        st = lx->peek_status;
        lx->has_peek = false;
    } else {
        lx->pinned = false; /* the previous token's text may go now */
        st = tok_scan(lx, t);
    }
    mem_free(lx->retired);
    lx->retired = NULL;
    lx->pinned = tok_in_buffer(t);
    return st;
}

gp_status tok_peek(tok_lexer *lx, tok *t)
{
    if (!lx->has_peek) {
        lx->peek_status = tok_scan(lx, &lx->peeked);
        lx->has_peek = true;
    }
    *t = lx->peeked;
    return lx->peek_status;
}

diag_loc tok_loc(const tok_lexer *lx, const tok *t)
{
    return (diag_loc){lx->name, t->line, t->col};
}

uint64_t tok_bytes_read(const tok_lexer *lx)
{
    return lx->in ? infile_raw_pos(lx->in) : (uint64_t)(lx->end - lx->buf);
}

uint64_t tok_size_hint(const tok_lexer *lx)
{
    return lx->in ? infile_size_hint(lx->in) : (uint64_t)(lx->end - lx->buf);
}

/* --- numbers -------------------------------------------------------------- */

static size_t tok_count_digits(const char *s, size_t len, size_t i)
{
    size_t n = 0;
    while (i + n < len && s[i + n] >= '0' && s[i + n] <= '9')
        n++;
    return n;
}

/* [+-] digits [. digits] [e [+-] digits], with a digit on one side of the point. */
static bool tok_is_decimal(const char *s, size_t len)
{
    size_t i = 0;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        i++;
    size_t int_digits = tok_count_digits(s, len, i), frac_digits = 0;
    i += int_digits;
    if (i < len && s[i] == '.') {
        frac_digits = tok_count_digits(s, len, i + 1);
        i += 1 + frac_digits;
    }
    if (int_digits + frac_digits == 0)
        return false;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t exp_digits = tok_count_digits(s, len, i);
        if (exp_digits == 0)
            return false;
        i += exp_digits;
    }
    return i == len;
}

/* A decimal (tok_is_decimal's form) whose digits make an integer m of at
 * most 2^53 and whose value is m * 10^e with |e| <= 22: both are exact
 * doubles, so one multiplication or division rounds as strtod does
 * (Clinger's fast path).  False for any other text. */
static bool tok_exact_decimal(const char *s, size_t len, double *out)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    size_t i = 0;
    bool negative = s[0] == '-';
    if (s[0] == '+' || s[0] == '-')
        i++;
    uint64_t m = 0;
    int e = 0, digits = 0;
    for (bool point = false; i < len && s[i] != 'e' && s[i] != 'E'; i++) {
        if (s[i] == '.') {
            point = true;
            continue;
        }
        if (m == 0 && s[i] == '0') {
            e -= point;
            continue;
        }
        if (++digits > 16)
            return false;
        m = m * 10 + (uint64_t)(s[i] - '0');
        e -= point;
    }
    if (i < len) {
        int64_t x;
        if (!tok_parse_i64(s + i + 1, len - i - 1, &x) || x > 22 || x < -22 - 16)
            return false;
        e += (int)x;
    }
    if (m > (UINT64_C(1) << 53) || e > 22 || e < -22)
        return m == 0 ? (*out = negative ? -0.0 : 0.0, true) : false;
    double v = e < 0 ? (double)m / pow10[-e] : (double)m * pow10[e];
    *out = negative ? -v : v;
    return true;
}

bool tok_parse_double(const char *s, size_t len, double *out)
{
    char buf[TOK_NUMBER_MAX + 1];
    if (len > TOK_NUMBER_MAX || !tok_is_decimal(s, len))
        return false;
    if (tok_exact_decimal(s, len, out))
        return true;
    memcpy(buf, s, len);
    buf[len] = '\0';
    errno = 0;
    double v = strtod(buf, NULL);
    if (errno == ERANGE && fabs(v) == HUGE_VAL)
        return false;
    *out = v;
    return true;
}

bool tok_parse_i64(const char *s, size_t len, int64_t *out)
{
    size_t i = 0;
    bool negative = len > 0 && s[0] == '-';
    if (len > 0 && (s[0] == '+' || s[0] == '-'))
        i++;
    if (i == len)
        return false;
    uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    uint64_t v = 0;
    for (; i < len; i++) {
        unsigned digit = (unsigned)(unsigned char)s[i] - '0';
        if (digit > 9 || v > (limit - digit) / 10)
            return false;
        v = v * 10 + digit;
    }
    if (!negative)
        *out = (int64_t)v;
    else if (v == (uint64_t)INT64_MAX + 1)
        *out = INT64_MIN;
    else
        *out = -(int64_t)v;
    return true;
}
