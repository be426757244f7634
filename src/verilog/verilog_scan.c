/* verilog_scan.c: a netlist's tokens, lexed in chunks on threads with their
 * words interned in batches (strtab_intern_all), handed to the parser one at
 * a time with each word's sym.
 *
 * The text is read whole.  Chunks start after a newline.  A group of them
 * (VLOG_GROUP_CHUNKS) is lexed at once, its words are interned, then the
 * parser takes its tokens.  Each chunk is lexed by a view of its own
 * (messages kept to itself) that runs on until the first token at or after
 * the next chunk's start: its "next" token.  Lexing from a token's start
 * gives the same tokens whatever came before, so a chunk's tokens count from
 * the one at its predecessor's next token (both lexers agree from there on).
 * Where a chunk holds no such token (its start lay inside a comment, and
 * what its lexer read there as tokens ran past that place) or its lexer
 * stopped at an error, the rest of the group is lexed again on the calling
 * thread from that token, with the reader's messages: the tokens and
 * messages are those of one lexer reading the file from its start. */
#include "verilog/verilog_int.h"

#include "util/infile.h"
#include "util/mem.h"
#include "util/parts.h"

#define VLOG_CHUNK_BYTES ((size_t)256 << 10)

VEC_DECLARE(vlog_token_vec, vlog_token)

typedef struct vlog_span {
    vlog_token *toks;
    size_t n;
    size_t word0; /* its first word's place among the group's words */
} vlog_span;

typedef struct vlog_chunk {
    uint64_t begin; /* a line's first byte; the chunk ends where the next begins */
    int line;       /* the line at begin */
} vlog_chunk;

/* What the lexer of a group's k-th chunk read. */
typedef struct vlog_lexed {
    vlog_token_vec toks; /* its tokens before the next chunk's start */
    vlog_token next;     /* its first token at or after that start */
    bool failed;         /* it stopped at an error (next is TOK_ERROR) */
} vlog_lexed;

struct vlog_scan {
    const char *name;
    char *text; /* all of it, NUL-terminated */
    size_t len;
    tok_config cfg;
    diag_ctx *d;
    strtab *syms;
    vlog_chunk *chunks;
    size_t chunk_bytes;
    size_t n_chunks, group_end; /* the chunks lexed so far: [0, group_end) */
    vlog_lexed lexed[VLOG_GROUP_CHUNKS]; /* the group's; their buffers serve the next */
    vlog_token_vec relexed;     /* the group's rest, lexed again (see above) */
    vlog_span spans[VLOG_WINDOW_RUNS]; /* the group's tokens in order, none empty */
    size_t n_spans, span, at;   /* the next one to hand out: spans[span].toks[at] */
    vlog_token good;            /* the first token after them, as one lexer reads the file */
    bool done;                  /* good is TOK_EOF or TOK_ERROR: nothing left to lex */
    gp_status status;           /* GP_OK, or how the lexer failed at the TOK_ERROR */
    progress *bar;              /* NULL: none */
    strtab_ref *refs;           /* scratch for interning */
    uint32_t *ids;
    size_t refs_cap;
};

static vlog_token token_of(const tok_lexer *lx, const tok *t)
{
    return (vlog_token){tok_text_offset(lx, t), (uint32_t)t->len, (uint32_t)t->line,
                        (uint32_t)t->col, STRTAB_NONE, (uint8_t)t->kind, (uint8_t)t->flags};
}

/* Where a token starts: a string's quote or an escaped name's backslash
 * comes before its text. */
static tok_start start_of(const vlog_token *t)
{
    bool marked = t->kind == TOK_STRING || (t->flags & TOK_F_ESCAPED);
    uint64_t begin = t->offset - (marked ? 1 : 0);
    return (tok_start){begin, (int)t->line, begin - (t->col - 1)};
}

/* Lexes from `at` until the first token at or after `stop`, the end or an
 * error, which goes to *next (TOK_ERROR on an error); the ones before it are
 * appended to toks.  Returns the lexer's status (GP_ERR_NOMEM also when toks
 * could not grow). */
static gp_status lex_until(const vlog_scan *s, tok_start at, uint64_t stop, diag_ctx *d,
                           vlog_token_vec *toks, vlog_token *next)
{
    tok_lexer *lx;
    *next = (vlog_token){s->len, 0, 0, 0, STRTAB_NONE, TOK_ERROR, 0};
    gp_status st = tok_open_view(s->name, s->text, s->len, at, &s->cfg, d, &lx);
    while (st == GP_OK) {
        tok t;
        st = tok_next(lx, &t);
        vlog_token v = token_of(lx, &t);
        if (st != GP_OK || t.kind == TOK_EOF || v.offset >= stop) {
            *next = v;
            break;
        }
        if (!vlog_token_vec_push(toks, v))
            st = GP_ERR_NOMEM;
    }
    if (st != GP_OK)
        next->kind = TOK_ERROR;
    tok_close(lx);
    return st;
}

static uint64_t chunk_end(const vlog_scan *s, size_t c)
{
    return c + 1 < s->n_chunks ? s->chunks[c + 1].begin : s->len;
}

static size_t group_size(const vlog_scan *s)
{
    size_t count = s->n_chunks - s->group_end;
    return count < VLOG_GROUP_CHUNKS ? count : VLOG_GROUP_CHUNKS;
}

static void lex_chunk_part(void *ctx, uint32_t part, uint32_t parts)
{
    vlog_scan *s = ctx;
    size_t first = s->group_end, count = group_size(s);
    diag_ctx *quiet = diag_new(NULL);
    uint64_t end = parts_begin(count, part + 1, parts);
    for (uint64_t k = parts_begin(count, part, parts); k < end; k++) {
        const vlog_chunk *c = &s->chunks[first + k];
        vlog_lexed *x = &s->lexed[k];
        tok_start at = {c->begin, c->line, c->begin};
        x->toks.len = 0;
        x->failed = !quiet || lex_until(s, at, chunk_end(s, first + k), quiet, &x->toks,
                                        &x->next) != GP_OK;
    }
    diag_free(quiet);
}

/* The place of the token at s->good in what chunk `chunk` (x) read, or
 * false when it has none. */
static bool find_good(const vlog_scan *s, size_t chunk, const vlog_lexed *c, size_t *k)
{
    *k = 0;
    if (chunk == 0)
        return true; /* the file's first chunk: nothing came before */
    while (*k < c->toks.len && c->toks.data[*k].offset < s->good.offset)
        (*k)++;
    if (*k < c->toks.len)
        return c->toks.data[*k].offset == s->good.offset;
    return c->next.offset == s->good.offset && c->next.kind == s->good.kind;
}

/* toks[k, n) handed out next (none when k == n). */
static void add_span(vlog_scan *s, vlog_token *toks, size_t k, size_t n)
{
    if (k < n)
        s->spans[s->n_spans++] = (vlog_span){toks + k, n - k, 0};
}

/* Hands out what chunk `chunk` (c) read from s->good on; false when they
 * are not known good (see the file's comment). */
static bool take_chunk(vlog_scan *s, size_t chunk, vlog_lexed *c)
{
    size_t k;
    if (c->failed || !find_good(s, chunk, c, &k))
        return false;
    add_span(s, c->toks.data, k, c->toks.len);
    s->good = c->next;
    return true;
}

/* Lexes the group's chunks again from s->good on one lexer, which reports
 * to the reader. */
static void relex(vlog_scan *s, size_t from_chunk, uint64_t stop)
{
    tok_start at = from_chunk == 0 ? (tok_start){0, 1, 0} : start_of(&s->good);
    s->relexed.len = 0;
    gp_status st = lex_until(s, at, stop, s->d, &s->relexed, &s->good);
    add_span(s, s->relexed.data, 0, s->relexed.len);
    if (st != GP_OK)
        s->status = st;
}

/* The next group of chunks, lexed into spans (which may stay none). */
static void lex_group(vlog_scan *s)
{
    size_t first = s->group_end, count = group_size(s);
    uint32_t parts = parts_online_cores();
    parts_run(lex_chunk_part, s, parts < count ? parts : (uint32_t)count);
    s->n_spans = s->span = s->at = 0;
    size_t k = 0;
    while (k < count && take_chunk(s, first + k, &s->lexed[k]))
        k++;
    if (k < count)
        relex(s, first + k, chunk_end(s, first + count - 1));
    s->group_end = first + count;
    s->done = s->good.kind == TOK_EOF || s->good.kind == TOK_ERROR;
}

/* The parts over spans in which intern_group reads and writes tokens. */
static uint32_t span_parts(const vlog_scan *s)
{
    uint32_t cores = parts_online_cores();
    return s->n_spans < cores ? (uint32_t)(s->n_spans ? s->n_spans : 1) : cores;
}

static void count_words_part(void *ctx, uint32_t part, uint32_t parts)
{
    vlog_scan *s = ctx;
    uint64_t end = parts_begin(s->n_spans, part + 1, parts);
    for (uint64_t k = parts_begin(s->n_spans, part, parts); k < end; k++) {
        size_t words = 0;
        for (size_t i = 0; i < s->spans[k].n; i++)
            words += s->spans[k].toks[i].kind == TOK_WORD;
        s->spans[k].word0 = words; /* for now: its own count */
    }
}

static void take_words_part(void *ctx, uint32_t part, uint32_t parts)
{
    vlog_scan *s = ctx;
    uint64_t end = parts_begin(s->n_spans, part + 1, parts);
    for (uint64_t k = parts_begin(s->n_spans, part, parts); k < end; k++) {
        strtab_ref *ref = s->refs + s->spans[k].word0;
        for (size_t i = 0; i < s->spans[k].n; i++) {
            const vlog_token *t = &s->spans[k].toks[i];
            if (t->kind == TOK_WORD)
                *ref++ = (strtab_ref){s->text + t->offset, t->len};
        }
    }
}

static void give_syms_part(void *ctx, uint32_t part, uint32_t parts)
{
    vlog_scan *s = ctx;
    uint64_t end = parts_begin(s->n_spans, part + 1, parts);
    for (uint64_t k = parts_begin(s->n_spans, part, parts); k < end; k++) {
        const uint32_t *id = s->ids + s->spans[k].word0;
        for (size_t i = 0; i < s->spans[k].n; i++)
            if (s->spans[k].toks[i].kind == TOK_WORD)
                s->spans[k].toks[i].sym = *id++;
    }
}

/* The group's words get their syms. */
static gp_status intern_group(vlog_scan *s)
{
    parts_run(count_words_part, s, span_parts(s));
    size_t words = 0;
    for (size_t k = 0; k < s->n_spans; k++) {
        size_t own = s->spans[k].word0;
        s->spans[k].word0 = words;
        words += own;
    }
    if (words == 0)
        return GP_OK;
    if (words > s->refs_cap) {
        mem_free(s->refs);
        mem_free(s->ids);
        s->refs_cap = words;
        s->refs = mem_alloc(words * sizeof *s->refs);
        s->ids = mem_alloc(words * sizeof *s->ids);
        if (!s->refs || !s->ids) {
            s->refs_cap = 0;
            return GP_ERR_NOMEM;
        }
    }
    parts_run(take_words_part, s, span_parts(s));
    if (!strtab_intern_all(s->syms, s->refs, words, s->ids, UINT32_MAX))
        return GP_ERR_NOMEM;
    parts_run(give_syms_part, s, span_parts(s));
    return GP_OK;
}

/* Makes a token ready to hand out, unless the file is done. */
static void fill(vlog_scan *s)
{
    if (s->span < s->n_spans || s->done)
        return;
    s->n_spans = s->span = s->at = 0;
    while (s->n_spans == 0 && !s->done)
        lex_group(s);
    if (s->bar)
        progress_update(s->bar, s->group_end < s->n_chunks ? s->chunks[s->group_end].begin
                                                           : s->len);
    if (intern_group(s) != GP_OK) {
        s->n_spans = 0;
        s->done = true;
        s->good.kind = TOK_ERROR;
        s->status = vlog_no_memory(s->d, s->name);
    }
}

/* The token to hand out (the file's last, EOF or an error, once all are
 * handed out) and its status. */
static gp_status token_at(vlog_scan *s, tok *t, uint32_t *sym)
{
    bool more = s->span < s->n_spans;
    const vlog_token *v = more ? &s->spans[s->span].toks[s->at] : &s->good;
    *t = (tok){(tok_kind)v->kind, v->flags, s->text + v->offset, v->len, (int)v->line, (int)v->col};
    if (sym)
        *sym = v->sym;
    return more || v->kind == TOK_EOF ? GP_OK : s->status;
}

gp_status vlog_scan_next(vlog_scan *s, tok *t, uint32_t *sym)
{
    fill(s);
    gp_status st = token_at(s, t, sym);
    if (s->span < s->n_spans && ++s->at == s->spans[s->span].n) {
        s->span++;
        s->at = 0;
    }
    return st;
}

gp_status vlog_scan_peek(vlog_scan *s, tok *t, uint32_t *sym)
{
    fill(s);
    return token_at(s, t, sym);
}

uint32_t vlog_scan_sym_ahead(const vlog_scan *s, size_t ahead)
{
    if (s->span >= s->n_spans || s->at + ahead >= s->spans[s->span].n)
        return STRTAB_NONE;
    return s->spans[s->span].toks[s->at + ahead].sym;
}

bool vlog_scan_window(const vlog_scan *s, vlog_window *w)
{
    if (s->span == 0 && s->at == 0)
        return false; /* the current token lies in the group before */
    size_t span = s->span, at = s->at;
    if (at == 0)
        at = s->spans[--span].n;
    *w = (vlog_window){.text = s->text, .span = span, .at = at - 1};
    for (size_t k = span; k < s->n_spans; k++) {
        size_t skip = k == span ? at - 1 : 0;
        w->runs[w->n_runs++] = (vlog_run){s->spans[k].toks + skip, s->spans[k].n - skip};
        w->n_toks += s->spans[k].n - skip;
    }
    const vlog_run *last = &w->runs[w->n_runs - 1];
    return last->toks[last->n - 1].offset - w->runs[0].toks[0].offset >= s->chunk_bytes;
}

void vlog_scan_seek(vlog_scan *s, const vlog_window *w, size_t index)
{
    size_t span = w->span, at = w->at + index;
    while (span < s->n_spans && at >= s->spans[span].n)
        at -= s->spans[span++].n;
    s->span = span;
    s->at = span < s->n_spans ? at : 0;
}

diag_loc vlog_scan_loc(const vlog_scan *s, const tok *t)
{
    return (diag_loc){s->name, t->line, t->col};
}

static void count_lines_part(void *ctx, uint32_t part, uint32_t parts)
{
    vlog_scan *s = ctx;
    uint64_t end = parts_begin(s->n_chunks, part + 1, parts);
    for (uint64_t c = parts_begin(s->n_chunks, part, parts); c < end; c++) {
        int lines = 0;
        const char *p = s->text + s->chunks[c].begin, *stop = s->text + chunk_end(s, c);
        while ((p = memchr(p, '\n', (size_t)(stop - p))) != NULL) {
            lines++;
            p++;
        }
        s->chunks[c].line = lines; /* for now: the chunk's own newlines */
    }
}

/* Cuts the text into chunks of about chunk_bytes that start after a
 * newline, each with its first line. */
static gp_status cut_chunks(vlog_scan *s, size_t chunk_bytes)
{
    size_t most = s->len / chunk_bytes + 1;
    s->chunks = mem_calloc(most, sizeof *s->chunks);
    if (!s->chunks)
        return GP_ERR_NOMEM;
    s->n_chunks = 1;
    for (uint64_t at = chunk_bytes; at < s->len && s->n_chunks < most; at += chunk_bytes) {
        const char *nl = memchr(s->text + at, '\n', s->len - at);
        if (!nl || (uint64_t)(nl + 1 - s->text) >= s->len)
            break;
        at = (uint64_t)(nl + 1 - s->text);
        s->chunks[s->n_chunks++].begin = at;
    }
    parts_run(count_lines_part, s, parts_for(s->len, UINT32_MAX));
    int line = 1;
    for (size_t c = 0; c < s->n_chunks; c++) {
        int own = s->chunks[c].line;
        s->chunks[c].line = line;
        line += own;
    }
    return GP_OK;
}

static gp_status open_text(vlog_scan *s, size_t chunk_bytes)
{
    s->chunk_bytes = chunk_bytes ? chunk_bytes : VLOG_CHUNK_BYTES;
    gp_status st = cut_chunks(s, s->chunk_bytes);
    return st == GP_OK ? GP_OK : vlog_no_memory(s->d, s->name);
}

gp_status vlog_scan_open(const char *path, const char *data, size_t len, size_t chunk_bytes,
                         const tok_config *cfg, strtab *syms, progress *bar, diag_ctx *d,
                         vlog_scan **out)
{
    *out = NULL;
    vlog_scan *s = mem_calloc(1, sizeof *s);
    if (!s)
        return vlog_no_memory(d, path);
    *s = (vlog_scan){.name = path, .cfg = *cfg, .d = d, .syms = syms, .bar = bar};
    gp_status st = GP_OK;
    if (!data) {
        st = infile_read_all(path, d, &s->text, &s->len);
    } else if ((s->text = mem_alloc(len + 1)) != NULL) {
        memcpy(s->text, data, len);
        s->text[len] = '\0';
        s->len = len;
    } else {
        st = vlog_no_memory(d, path);
    }
    if (st == GP_OK)
        st = open_text(s, chunk_bytes);
    if (st != GP_OK) {
        vlog_scan_close(s);
        return st;
    }
    if (bar)
        progress_begin(bar, "reading netlist", s->len);
    *out = s;
    return GP_OK;
}

void vlog_scan_close(vlog_scan *s)
{
    if (!s)
        return;
    if (s->bar)
        progress_end(s->bar);
    mem_free(s->chunks);
    for (size_t k = 0; k < VLOG_GROUP_CHUNKS; k++)
        vlog_token_vec_free(&s->lexed[k].toks);
    vlog_token_vec_free(&s->relexed);
    mem_free(s->refs);
    mem_free(s->ids);
    mem_free(s->text);
    mem_free(s);
}
