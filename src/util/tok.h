/* tok.h: the buffered tokenizer shared by the readers (Liberty, Verilog, SDF,
 * SPEF).
 *
 * Input is read through infile (gzip or plain) in 1 MiB chunks.  A token is
 * one of: a WORD, a maximal run of bytes that are not whitespace, punct, the
 * quote or a comment start; a STRING between quotes; a one-byte PUNCT.
 * Precedence where a configuration overlaps: comment starts, then the quote,
 * then backslash rules, then punct.  A '/' ends a word only where it starts a
 * comment (or is punct), so "top/u1/a" is one word.
 *
 * Token text points into the lexer's buffer and is not NUL-terminated.  The
 * text of the token tok_next returned stays valid until the next tok_next, even
 * across a tok_peek: "name (" can be read as tok_next + tok_peek.
 * Lines and columns are 1-based; a column counts bytes (a tab is one column).
 * A string's text excludes the quotes and is raw: a backslash escape such as
 * \" is left as its two bytes (flag TOK_F_BACKSLASH says one is there).
 *
 * Errors are reported to the diag_ctx with file:line:col (1120 unterminated
 * string, 1121 unterminated comment, 1122 empty escaped identifier, 1123 out
 * of memory; I/O errors by infile, 1101-1106) and give a TOK_ERROR token and
 * GP_ERR_PARSE (GP_ERR_IO, GP_ERR_NOMEM).  The error sticks: later calls
 * return the same token and status without a new message. */
#ifndef GP_UTIL_TOK_H
#define GP_UTIL_TOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/diag.h"
#include "util/status.h"

/* tok_config.comments: which comment styles are skipped. */
enum {
    TOK_COMMENT_C = 1u << 0,   /* slash-star ... star-slash, may span lines */
    TOK_COMMENT_CPP = 1u << 1, /* slash-slash to the end of the line */
    TOK_COMMENT_HASH = 1u << 2 /* '#' to the end of the line */
};

/* tok.flags */
enum {
    TOK_F_ESCAPED = 1u << 0,  /* a Verilog escaped identifier; text excludes the backslash */
    TOK_F_BACKSLASH = 1u << 1 /* a string with backslash escapes, left undecoded */
};

typedef struct tok_config {
    const char *punct;      /* bytes that are one-byte tokens, e.g. "(){}[];:,=" */
    unsigned comments;      /* TOK_COMMENT_* bits */
    bool verilog_escapes;   /* '\' starts a word running to the next whitespace */
    bool line_continuation; /* '\' + optional blanks + newline is whitespace (Liberty) */
    char quote;             /* string delimiter, e.g. '"'; 0: no strings */
} tok_config;

typedef enum tok_kind { TOK_EOF, TOK_WORD, TOK_STRING, TOK_PUNCT, TOK_ERROR } tok_kind;

typedef struct tok {
    tok_kind kind;
    unsigned flags; /* TOK_F_* */
    const char *text;
    size_t len;
    int line, col; /* where the token starts (for a string: its opening quote) */
} tok;

typedef struct tok_lexer tok_lexer;

/* Lexes the file `path` (gzip or plain).  The configuration is copied. */
gp_status tok_open(const char *path, const tok_config *cfg, diag_ctx *d, tok_lexer **out);
/* Lexes a copy of data[0..len); `name` (may be NULL) is used in messages. */
gp_status tok_open_memory(const char *name, const char *data, size_t len, const tok_config *cfg,
                          diag_ctx *d, tok_lexer **out);
/* Where a view starts: an offset into its data between two tokens, the line
 * there and the offset of that line's first byte. */
typedef struct tok_start {
    uint64_t offset;
    int line;
    uint64_t line_start;
} tok_start;
/* Lexes data[at.offset .. len) in place, with offsets, lines and columns as
 * in all of data: the caller keeps data, which has a NUL at data[len], until
 * tok_close.  Several views may lex one text at once. */
gp_status tok_open_view(const char *name, const char *data, size_t len, tok_start at,
                        const tok_config *cfg, diag_ctx *d, tok_lexer **out);
void tok_close(tok_lexer *lx);

/* The next token; TOK_EOF (again and again) at the end. */
gp_status tok_next(tok_lexer *lx, tok *t);
/* The token the next tok_next will return, without consuming it. */
gp_status tok_peek(tok_lexer *lx, tok *t);

/* The input offset of the text of t, the token tok_next returned last (a
 * string's text starts after its quote); for TOK_EOF and TOK_ERROR, where
 * the lexer stopped. */
uint64_t tok_text_offset(const tok_lexer *lx, const tok *t);

/* t's location, for diag_error; the file name lives until tok_close. */
diag_loc tok_loc(const tok_lexer *lx, const tok *t);

/* For a progress bar: bytes of the file on disk read so far and the file's
 * size (0 if unknown); for a memory input, the data's length for both. */
uint64_t tok_bytes_read(const tok_lexer *lx);
uint64_t tok_size_hint(const tok_lexer *lx);

/* For tests: read the input `n` bytes at a time into a buffer that starts at n
 * bytes, so that tokens straddle refills.  Only before the first token. */
void tok_set_chunk_size(tok_lexer *lx, size_t n);

/* Numbers.  The whole text must be the number.  A double is decimal:
 * [+-] digits [. digits] [e [+-] digits], digits may be absent on one side of
 * the point ("5.", ".5"); no inf, nan or hex; at most 128 characters.  Values
 * beyond the double range are rejected; those below it round to 0 or a
 * subnormal.  An i64 is [+-] digits within int64_t.  False leaves *out alone. */
bool tok_parse_double(const char *s, size_t len, double *out);
bool tok_parse_i64(const char *s, size_t len, int64_t *out);
static inline bool tok_to_double(const tok *t, double *out)
{
    return tok_parse_double(t->text, t->len, out);
}
static inline bool tok_to_i64(const tok *t, int64_t *out)
{
    return tok_parse_i64(t->text, t->len, out);
}

/* Whether t is the punct c / a word or string with exactly the text s. */
static inline bool tok_is_punct(const tok *t, char c)
{
    return t->kind == TOK_PUNCT && t->text[0] == c;
}
static inline bool tok_text_is(const tok *t, const char *s)
{
    return (t->kind == TOK_WORD || t->kind == TOK_STRING) && strlen(s) == t->len &&
           memcmp(t->text, s, t->len) == 0;
}

#endif
