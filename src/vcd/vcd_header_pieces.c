/* vcd_header_pieces.c: a large VCD header's declarations read on threads.
 * The text from the first $var or $scope to $enddefinitions is cut into
 * pieces at lines that start with a command; each thread finds its
 * piece's commands and their words, and the calling thread declares them
 * in file order, as the reading word by word does.  Only the usual shape
 * is taken: $var, $scope and $upscope commands, each whole on one line.
 * Anything else (a comment, a command across lines, a malformed one)
 * leaves the whole header to the reading word by word, so that what is
 * declared and every message stay as that reading gives them. */
#include <string.h>

#include "util/mem.h"
#include "util/parts.h"
#include "vcd/vcd_int.h"

#define PIECE_MIN ((size_t)1 << 20) /* bytes a piece holds at least */
/* Fewer pieces lose to the reading word by word: the text held whole and
 * the declarations made on one thread cost nearly what that reading does
 * (docs/performance.md: two pieces on two cores, 0.54-0.70 s against 0.43
 * s for a million vars). */
#define PIECES_MIN 4
/* The text is held from the first declaration to the first line that
 * starts with '#' (the first time command) or the input's end; where that
 * passes this many bytes, the header is read word by word. */
#define HEADER_MAX ((size_t)1 << 30)
#define CMD_WORDS 6 /* a $var's type, width, code and up to three reference words */

typedef enum cmd_op { CMD_VAR, CMD_SCOPE, CMD_UPSCOPE, CMD_OTHER } cmd_op;

/* A word of a command, by its place after the keyword (a line is short). */
typedef struct cmd_word {
    uint16_t off, len;
} cmd_word;

typedef struct header_cmd {
    const char *at; /* the keyword */
    uint32_t line;  /* the keyword's line, counted from its piece's first */
    uint32_t col;
    uint8_t op, n;  /* cmd_op; words after the keyword, before $end */
    cmd_word w[CMD_WORDS];
} header_cmd;

VEC_DECLARE(header_cmd_vec, header_cmd)

typedef struct header_piece {
    const char *begin, *end;
    uint32_t col;     /* of begin */
    header_cmd_vec cmds;
    uint32_t lines;   /* newlines before its commands' end */
    const char *stop; /* the $enddefinitions it ends at, or NULL */
    uint32_t stop_col;
    bool taken;       /* every command before its end has the usual shape */
} header_piece;

typedef struct header_pieces {
    header_piece *piece;
    uint32_t n;
} header_pieces;

static bool is_word_byte(char c) { return (unsigned char)c > ' '; }

/* The word at p, up to e or the first blank or control byte (len 0: none). */
static vcd_word word_at(const char *p, const char *e)
{
    const char *q = p;
    while (q < e && is_word_byte(*q))
        q++;
    return (vcd_word){p, (size_t)(q - p)};
}

static cmd_op op_of(const vcd_word *keyword)
{
    return vcd_word_is(keyword, "$var")       ? CMD_VAR
           : vcd_word_is(keyword, "$scope")   ? CMD_SCOPE
           : vcd_word_is(keyword, "$upscope") ? CMD_UPSCOPE
                                              : CMD_OTHER;
}

/* The command of `keyword` (at c->at) into c, its words up to its $end on
 * the same line; *p moves past the $end.  False for any other shape. */
static bool cmd_read(const vcd_word *keyword, const char **p, const char *e, header_cmd *c)
{
    vcd_word w = *keyword;
    c->op = (uint8_t)op_of(&w);
    c->n = 0;
    for (const char *q = w.text + w.len; c->op != CMD_OTHER;) {
        while (q < e && (*q == ' ' || *q == '\t' || *q == '\r'))
            q++;
        w = word_at(q, e);
        size_t off = (size_t)(q - c->at);
        if (w.len == 0 || off + w.len > UINT16_MAX)
            return false; /* a newline, a control byte or the piece's end before $end */
        q += w.len;
        if (vcd_word_is(&w, "$end")) {
            *p = q;
            return c->op == CMD_VAR ? c->n >= 4 : c->op == CMD_SCOPE ? c->n == 2 : c->n == 0;
        }
        if (c->n == CMD_WORDS)
            return false;
        c->w[c->n++] = (cmd_word){(uint16_t)off, (uint16_t)w.len};
    }
    return false;
}

/* A piece's commands (a parts_fn). */
static void piece_read(void *ctx, uint32_t part, uint32_t parts)
{
    (void)parts;
    header_piece *pc = &((header_pieces *)ctx)->piece[part];
    const char *p = pc->begin, *e = pc->end, *line_at = p;
    uint32_t line = 0, col = pc->col;
    for (;;) {
        for (; p < e && vcd_is_space((unsigned char)*p); p++)
            if (*p == '\n')
                line++, line_at = p + 1, col = 1;
        if (p == e)
            break;
        vcd_word keyword = word_at(p, e);
        if (vcd_word_is(&keyword, "$enddefinitions")) {
            pc->stop = p;
            pc->stop_col = col + (uint32_t)(p - line_at);
            break;
        }
        header_cmd c = {.at = p, .line = line, .col = col + (uint32_t)(p - line_at)};
        if (!cmd_read(&keyword, &p, e, &c) || !header_cmd_vec_push(&pc->cmds, c))
            return;
    }
    pc->lines = line;
    pc->taken = true;
}

/* Whether a line starting with a command begins at p. */
static bool command_line_at(const char *p, const char *e)
{
    static const char *const starts[] = {"$var", "$scope", "$upscope"};
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
        size_t n = strlen(starts[i]);
        if ((size_t)(e - p) > n && memcmp(p, starts[i], n) == 0 && (p[n] == ' ' || p[n] == '\t'))
            return true;
    }
    return false;
}

/* The first line starting with a command at or after `from`, or e. */
static const char *next_command_line(const char *from, const char *e)
{
    for (const char *p = from; p < e; p++) {
        p = memchr(p, '\n', (size_t)(e - p));
        if (!p)
            return e;
        if (command_line_at(p + 1, e))
            return p + 1;
    }
    return e;
}

/* The first line in [from, e) that starts with '#' (a time command: the
 * value changes have begun), or NULL.  '#' is rare in a header (some
 * identifier codes hold it): memchr finds the candidates. */
static const char *find_time_line(const char *begin, const char *from, const char *e)
{
    for (const char *p = from; p < e; p++) {
        p = memchr(p, '#', (size_t)(e - p));
        if (!p)
            return NULL;
        if (p > begin && p[-1] == '\n')
            return p;
    }
    return NULL;
}

/* Whether $enddefinitions is among the first `bytes` held after pos: the
 * header is then smaller than that, and the text after it (a $dumpvars
 * may run long before the first time command) is not read ahead. */
static bool header_ends_within(const vcd_text *r, size_t bytes)
{
    static const char keyword[] = "$enddefinitions";
    const size_t n = sizeof keyword - 1;
    const char *p = r->buf + r->pos;
    const char *e = r->len - r->pos > bytes ? p + bytes : r->buf + r->len;
    for (; p < e && (p = memchr(p, '$', (size_t)(e - p))) != NULL; p++)
        if ((size_t)(r->buf + r->len - p) >= n && !memcmp(p, keyword, n))
            return true;
    return false;
}

/* Reads on until buf[pos..] holds the whole header: *end is the offset in
 * buf of the first line starting with '#' after pos, or of buf's end when
 * the input ends first; 0 where the header is larger than HEADER_MAX. */
static gp_status header_in_buffer(vcd_text *r, size_t *end)
{
    size_t chunk = r->chunk, scanned = 0; /* bytes after pos searched */
    gp_status st = GP_OK;
    *end = 0;
    for (;;) {
        const char *begin = r->buf + r->pos, *e = r->buf + r->len;
        const char *time = find_time_line(begin, begin + scanned, e);
        if (time || r->eof) {
            *end = time ? (size_t)(time - r->buf) : r->len;
            break;
        }
        if (r->len - r->pos > HEADER_MAX)
            break;
        scanned = r->len - r->pos;
        r->chunk = r->len - r->pos > chunk ? r->len - r->pos : chunk; /* the buffer doubles */
        if ((st = vcd_text_refill(r)) != GP_OK)
            break;
    }
    r->chunk = chunk;
    return st;
}

/* [begin, e) cut into at most `want` pieces at lines that start with a
 * command; how many. */
static uint32_t pieces_cut(const char *begin, const char *e, uint32_t want, uint32_t first_col,
                           header_piece *piece)
{
    uint32_t n = 0;
    const char *p = begin;
    for (uint32_t k = 1; k <= want; k++) {
        const char *cut = k == want ? e : next_command_line(begin + (size_t)(e - begin) * k / want, e);
        if (cut > p) {
            piece[n++] = (header_piece){.begin = p, .end = cut, .col = p == begin ? first_col : 1};
            p = cut;
        }
    }
    return n;
}

/* The pieces' commands declared in file order, `line` the first's; the
 * reader's lines then counted up to the $enddefinitions they end at. */
static gp_status pieces_declare(vcd_text *r, const header_pieces *ps, uint32_t line)
{
    gp_status st = GP_OK;
    for (uint32_t k = 0; k < ps->n && st == GP_OK; k++) {
        const header_piece *pc = &ps->piece[k];
        for (size_t i = 0; i < pc->cmds.len && st == GP_OK; i++) {
            const header_cmd *c = &pc->cmds.data[i];
            vcd_word w[CMD_WORDS];
            for (uint32_t j = 0; j < c->n; j++)
                w[j] = (vcd_word){c->at + c->w[j].off, c->w[j].len};
            diag_loc loc = {r->st.file, (int)(line + c->line), (int)c->col};
            if (c->op == CMD_VAR) {
                st = vcd_header_var(r, w, c->n, loc);
            } else if (c->op == CMD_SCOPE) {
                diag_loc name = {loc.file, loc.line, loc.col + c->w[1].off};
                st = vcd_state_push_scope(&r->st, w[1].text, w[1].len, name);
            } else {
                st = vcd_header_upscope(r, loc);
            }
        }
        line += pc->lines;
    }
    const header_piece *last = &ps->piece[ps->n - 1];
    if (st == GP_OK)
        vcd_text_counted_to(r, last->stop, (diag_loc){r->st.file, (int)line, (int)last->stop_col});
    return st;
}

/* The pieces read on threads: the $enddefinitions they end at, with the
 * pieces before it all taken, or NULL; ps->n then counts the pieces up to
 * it. */
static const char *pieces_read(header_pieces *ps)
{
    parts_run(piece_read, ps, ps->n);
    for (uint32_t k = 0; k < ps->n && ps->piece[k].taken; k++)
        if (ps->piece[k].stop) {
            ps->n = k + 1;
            return ps->piece[k].stop;
        }
    return NULL;
}

gp_status vcd_header_pieces(vcd_text *r)
{
    uint32_t threads = parts_threads(r->threads);
    size_t min = r->piece_min ? r->piece_min : PIECE_MIN, end = 0;
    if (threads < PIECES_MIN || header_ends_within(r, PIECES_MIN * min))
        return GP_OK;
    gp_status st = header_in_buffer(r, &end);
    uint64_t pieces = end > r->pos ? (end - r->pos) / min : 0;
    uint32_t want = pieces < threads ? (uint32_t)pieces : threads;
    if (st != GP_OK || want < PIECES_MIN)
        return st;
    header_pieces ps = {.piece = mem_zeroed(want, sizeof *ps.piece)};
    if (!ps.piece)
        return GP_OK; /* word by word, in the memory it needs */
    diag_loc first = vcd_text_loc(r, r->buf + r->pos);
    ps.n = pieces_cut(r->buf + r->pos, r->buf + end, want, (uint32_t)first.col, ps.piece);
    uint32_t cut = ps.n;
    const char *stop = pieces_read(&ps);
    if (stop) {
        r->st.header_pieces = ps.n;
        st = pieces_declare(r, &ps, (uint32_t)first.line);
        r->pos = (size_t)(stop - r->buf);
    }
    for (uint32_t k = 0; k < cut; k++)
        header_cmd_vec_free(&ps.piece[k].cmds);
    mem_free(ps.piece);
    return st;
}
