/* vcd_int.h: what the activity readers of this folder, VCD (vcd_*.c) and
 * FST (fst_*.c), share behind vcd.h: the scope selection, the declared ids with the last
 * value of every bit, and the batching of bit changes for the sink. */
#ifndef GP_VCD_VCD_INT_H
#define GP_VCD_VCD_INT_H

#include <string.h>

#include "util/infile.h"
#include "util/strtab.h"
#include "util/vec.h"
#include "vcd/vcd.h"

#define VCD_BATCH 2048                   /* bit changes handed to the sink at once */
#define VCD_MAX_WIDTH ((uint32_t)1 << 20) /* widest var accepted */

/* How a var's values are treated. */
typedef enum vcd_kind {
    VCD_KIND_LOGIC,  /* 0/1/x/z values, delivered */
    VCD_KIND_REAL,   /* real, realtime, shortreal: skipped with one warning */
    VCD_KIND_OTHER   /* string and unknown types: skipped with one warning */
} vcd_kind;

/* One id (identifier code or FST handle).  Its bits' values live in
 * vcd_state.vals[off .. off+width), bit 0 (the LSB) first. */
typedef struct vcd_slot {
    uint32_t off;
    uint32_t width;   /* 0: not declared (yet) */
    uint8_t kind;     /* vcd_kind */
    bool deliver;     /* a logic var of this id lies in the selected scope */
} vcd_slot;

/* A declaration as both readers parse it. */
typedef struct vcd_decl {
    const char *type;  /* type keyword */
    vcd_kind kind;
    uint32_t width;
    const char *name;  /* without backslash and bit-select */
    bool has_range;
    int32_t msb, lsb;
} vcd_decl;

typedef struct vcd_state {
    diag_ctx *d;
    const vcd_sink *sink;
    const char *file;

    /* Scope selection: sel[0..sel_n) are the wanted scope's levels. */
    char *sel_text;
    const char **sel;
    size_t sel_n;
    /* The current scope: its full path, the start of each level in it, and
     * how many leading levels equal the selection's. */
    vec_char path;  /* NUL-terminated past path.len */
    vec_u32 level_off;
    size_t matched;
    bool scope_found;
    strtab scopes; /* every scope's full path, for the mismatched-scope message */

    vcd_slot *slots;
    uint32_t slot_count, slot_cap;
    uint8_t *vals;
    size_t vals_len, vals_cap;
    uint32_t var_count;
    uint32_t header_pieces; /* vcd_info's */
    bool warned_real, warned_other;

    int64_t time;  /* of the changes in the batch, fs */
    bool dump_off; /* between $dumpoff and $dumpon: bits are delivered as X */
    bool in_part;  /* reading one part of the changes (vcd_parts.c): $dumpoff and
                      $dumpon need the file order, so they stop the part */
    vcd_change *batch;
    size_t batch_n;
} vcd_state;

/* One more than the value of a character: 1, 2, 3 for 0, 1 and x X z Z;
 * 0 for any other byte. */
extern const uint8_t vcd_value_plus1[256];

gp_status vcd_state_init(vcd_state *s, const char *file, const vcd_options *opt,
                         const vcd_sink *sink, diag_ctx *d);
void vcd_state_free(vcd_state *s);

/* Entering and leaving a scope of the header. */
/* A scope path longer than this is refused (error 6042): every scope's
 * path is kept, so scopes nested thousands deep would take memory that
 * grows with the square of the depth. */
#define VCD_MAX_SCOPE_PATH 4096
gp_status vcd_state_push_scope(vcd_state *s, const char *name, size_t len, diag_loc loc);
void vcd_state_pop_scope(vcd_state *s);
size_t vcd_state_depth(const vcd_state *s);

/* Declares a var with id `id` (ids need not come in order; aliases repeat
 * one): checks it against earlier declarations of the id and hands it to
 * the sink when it lies in the selected scope. */
gp_status vcd_state_declare(vcd_state *s, uint32_t id, const vcd_decl *decl, diag_loc loc);
/* After the header: the mismatched-scope check, then the sink's start. */
/* last_time_fs: vcd_info's. */
gp_status vcd_state_start(vcd_state *s, const char *format, int64_t timescale_fs,
                          int64_t last_time_fs, diag_loc loc);
/* At the end: the last batch, then the sink's finish. */
gp_status vcd_state_finish(vcd_state *s, int64_t end_fs);

/* Splits "name[7:0]" / "name [3]" style references (text of `len` bytes,
 * the pieces of the reference already joined) into the decl's name and
 * range: false for a bracket group that is not [int] or [int:int].  The
 * name is written NUL-terminated into `name` (room for len + 1; it may be
 * `text` itself). */
bool vcd_parse_reference(const char *text, size_t len, char *name, vcd_decl *decl);
/* Checks the decl's range against its width (false when they disagree) and
 * gives a declaration without a range the range [width-1:0]. */
bool vcd_decl_settle_range(vcd_decl *decl);

gp_status vcd_state_flush(vcd_state *s);
/* Sets the time of the following changes (never smaller than the last). */
static inline gp_status vcd_state_set_time(vcd_state *s, int64_t t)
{
    if (t != s->time && s->batch_n > 0) {
        gp_status st = vcd_state_flush(s);
        if (st != GP_OK)
            return st;
    }
    s->time = t;
    return GP_OK;
}

/* A change of bit `bit` of `id` to `v` into the batch, flushed when full. */
static inline gp_status vcd_state_deliver(vcd_state *s, uint32_t id, uint32_t bit, uint8_t v)
{
    s->batch[s->batch_n++] = (vcd_change){.id = id, .bit = bit, .value = v};
    return s->batch_n == VCD_BATCH ? vcd_state_flush(s) : GP_OK;
}

/* Records bit `bit` of `id` becoming `v`; a change goes to the batch. */
static inline gp_status vcd_state_set_bit(vcd_state *s, uint32_t id, uint32_t off, uint32_t bit,
                                          uint8_t v)
{
    uint8_t *p = &s->vals[off + bit];
    if (*p == v)
        return GP_OK;
    *p = v;
    return s->dump_off ? GP_OK : vcd_state_deliver(s, id, bit, v);
}

/* $dumpoff (on false): every delivered bit becomes X for the sink while the
 * values read on are kept; $dumpon: the kept values are delivered again. */
gp_status vcd_state_dump(vcd_state *s, bool on);

/* ---- the VCD text reader (src/vcd/vcd_input.c, vcd_header.c, vcd_codes.c,
 * vcd_changes.c) ---- */

#define VCD_CODE_RADIX 94 /* identifier code characters '!' .. '~' */
#define VCD_PAGE (VCD_CODE_RADIX * VCD_CODE_RADIX)
/* Pages of 4-character codes (the first 512 * 94^2 = 4.5 M of them, as
 * writers count): beyond, or scattered wider, a code goes to the packed
 * hash, so that a file cannot make the pages cost more than 72 MB. */
#define VCD_QUAD_PAGES 512
#define VCD_PAGES (VCD_CODE_RADIX + VCD_QUAD_PAGES)
#define VCD_PACKED_MAX 8  /* bytes of a code the packed hash holds */

/* An identifier code as the value-change loop needs it, all in one lookup:
 * a copy of its id's slot, taken at $enddefinitions. */
typedef struct vcd_code {
    uint32_t id;
    uint32_t off;
    uint32_t width; /* 0: no $var declares the code */
    uint8_t kind;
    bool deliver;
    bool scalar;    /* delivered, one bit wide: a scalar change goes straight on */
} vcd_code;

VEC_DECLARE(vcd_code_vec, vcd_code)

/* A code of up to 8 bytes packed into an integer (byte i in bits 8i..8i+7,
 * the rest zero: codes hold no zero byte, so key 0 is free to mark an
 * empty slot). */
typedef struct vcd_packed_slot {
    uint64_t key;
    vcd_code code;
} vcd_packed_slot;

/* Where a code's entry lives. */
typedef enum vcd_code_table {
    VCD_IN_SHORT,  /* 1-2 characters '!'..'~': short_codes */
    VCD_IN_PAGE,   /* 3 or 4 such characters: a page by the last one or two */
    VCD_IN_PACKED, /* any other code of up to 8 bytes: the packed hash */
    VCD_IN_LONG    /* longer codes: a string table */
} vcd_code_table;

typedef struct vcd_text {
    vcd_state st;
    /* The input: a file, memory read in chunks like one, or (a part of the
     * value changes, vcd_parts.c) the byte range [fd_pos, fd_end) of a file
     * read with pread. */
    infile *f;
    const char *mem;
    size_t mem_len, mem_pos;
    bool from_fd;
    int fd;
    uint64_t fd_pos, fd_end;
    size_t chunk;
    uint32_t threads;       /* vcd_options': 0, one per core */
    size_t piece_min;       /* bytes a piece of the header holds at least (0: the default) */
    progress *bar;          /* NULL: no progress bar */
    /* buf[pos, len) is unread; buf[len] is a NUL sentinel, so a scan for the
     * end of a token (a byte <= ' ') always stops inside the buffer. */
    char *buf;
    size_t cap, pos, len;
    bool eof;       /* the input has nothing more after buf[len) */
    char last_byte; /* the input's last byte so far */
    /* Lines are counted lazily, only up to where a location is asked for:
     * buf[counted] is on line `line`, which starts at stream offset
     * line_start; base is the stream offset of buf[0]. */
    uint64_t base;
    size_t counted;
    int line;
    uint64_t line_start;
    /* Identifier codes -> entries (vcd_code_table says which table).  The
     * direct tables hold 94 + 94*94 and 94*94 entries a page (3-character
     * codes' pages, then 4-character ones'); the packed hash is an
     * open-addressing table at a load of at most 1/2. */
    vcd_code *short_codes;
    vcd_code *pages[VCD_PAGES];
    vcd_packed_slot *packed;
    size_t packed_mask, packed_count;
    strtab long_codes;
    vcd_code_vec long_entries; /* by long_codes id */
    uint32_t id_count;
    vec_char scratch; /* a $var's reference, joined */
    int64_t scale;    /* fs per time unit; 0 before $timescale */
    int64_t ticks;    /* the last #time */
    const char *block; /* the open $dumpvars/$dumpall/$dumpon/$dumpoff, or NULL */
} vcd_text;

/* A whitespace-separated word of the input; len 0 at the end.  Valid until
 * the next read. */
typedef struct vcd_word {
    const char *text;
    size_t len;
} vcd_word;

static inline bool vcd_word_is(const vcd_word *w, const char *s)
{
    return strlen(s) == w->len && memcmp(w->text, s, w->len) == 0;
}

/* Which table code c[0..n) (n >= 1) belongs in, and its index there (and,
 * for VCD_IN_PAGE, the page).  The first character counts least, as the
 * writers count their codes up ("!", ..., "~", "!!", "\"!", ...): the
 * $vars' codes, and a time's changes in declaration order, then walk the
 * tables forwards, not 94 pages at once.  vcd_scalar_code (vcd_changes.c)
 * applies the same rule to the direct tables while it scans a scalar
 * change's code: calling this after the scan costs the hot loop about 40
 * instructions a change, so a change to the rule is a change to both. */
static inline vcd_code_table vcd_code_place(const unsigned char *c, size_t n, size_t *page,
                                            size_t *index)
{
    vcd_code_table other = n <= VCD_PACKED_MAX ? VCD_IN_PACKED : VCD_IN_LONG;
    size_t a = (size_t)c[0] - '!', b, k, q;
    if (n > 4 || a >= VCD_CODE_RADIX)
        return other;
    if (n == 1) {
        *index = a;
        return VCD_IN_SHORT;
    }
    if ((b = (size_t)c[1] - '!') >= VCD_CODE_RADIX)
        return other;
    if (n == 2) {
        *index = VCD_CODE_RADIX + b * VCD_CODE_RADIX + a;
        return VCD_IN_SHORT;
    }
    if ((k = (size_t)c[2] - '!') >= VCD_CODE_RADIX)
        return other;
    *index = b * VCD_CODE_RADIX + a;
    if (n == 3) {
        *page = k;
        return VCD_IN_PAGE;
    }
    if ((q = (size_t)c[3] - '!') >= VCD_CODE_RADIX || q * VCD_CODE_RADIX + k >= VCD_QUAD_PAGES)
        return other;
    *page = VCD_CODE_RADIX + q * VCD_CODE_RADIX + k;
    return VCD_IN_PAGE;
}

static inline uint64_t vcd_pack(const char *c, size_t n)
{
    uint64_t key = 0;
    for (size_t i = 0; i < n; i++)
        key |= (uint64_t)(unsigned char)c[i] << (8 * i);
    return key;
}

/* Where the probe for `key` starts. */
static inline size_t vcd_packed_home(uint64_t key, size_t mask)
{
    return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

/* The index of the slot holding `key`, or of the empty one where it would go. */
static inline size_t vcd_packed_find(const vcd_packed_slot *t, size_t mask, uint64_t key)
{
    size_t i = vcd_packed_home(key, mask);
    while (t[i].key != key && t[i].key != 0)
        i = (i + 1) & mask;
    return i;
}

/* The entry of code[0..n) (n >= 1), made (undeclared, width 0) if new. */
gp_status vcd_codes_entry(vcd_text *r, const char *code, size_t n, vcd_code **out);
/* Copies every code's slot into its entry, for the value changes. */
void vcd_codes_fill(vcd_text *r);
void vcd_codes_free(vcd_text *r);

static inline bool vcd_is_space(unsigned char c)
{
    return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

gp_status vcd_text_init(vcd_text *r, const char *name, const vcd_options *opt,
                        const vcd_sink *sink, diag_ctx *d);
void vcd_text_free(vcd_text *r);
/* Keeps buf[pos, len), moves it to the front and reads a chunk behind it. */
gp_status vcd_text_refill(vcd_text *r);
/* The location of p (inside buf, at or after every earlier one asked for). */
diag_loc vcd_text_loc(vcd_text *r, const char *p);
/* The lines up to p (as vcd_text_loc's p) counted elsewhere: p is at `at`. */
void vcd_text_counted_to(vcd_text *r, const char *p, diag_loc at);
gp_status vcd_text_word(vcd_text *r, vcd_word *w);
/* vcd_text_word, but the end of the file is an error: the file is cut
 * inside `what`. */
gp_status vcd_text_need_word(vcd_text *r, vcd_word *w, const char *what);
/* Skips words up to and including $end. */
gp_status vcd_text_skip_section(vcd_text *r, const char *what);
gp_status vcd_text_nomem(vcd_text *r);

gp_status vcd_text_header(vcd_text *r);
/* A $var from its words after the keyword (vcd_header.c): type, width,
 * code (not $end), then the reference's, n in all; loc: the keyword's. */
gp_status vcd_header_var(vcd_text *r, const vcd_word *w, size_t n, diag_loc loc);
/* $upscope at loc, without its $end. */
gp_status vcd_header_upscope(vcd_text *r, diag_loc loc);
/* With buf[pos] the first $var or $scope of a header: the declarations from
 * there to $enddefinitions read in pieces on threads and made in file
 * order (vcd_header_pieces.c), pos then at $enddefinitions; where they are
 * not read so (fewer than four threads or 4 MiB, or any text but $var,
 * $scope and $upscope commands each on one line), pos is left where it
 * was. */
gp_status vcd_header_pieces(vcd_text *r);
gp_status vcd_text_changes(vcd_text *r);

/* Error 6023 for a file whose last byte is not a newline (it is cut), at
 * `end`, just past that byte. */
gp_status vcd_refuse_unterminated(diag_ctx *d, diag_loc end);

/* Newlines in [p, e). */
size_t vcd_count_newlines(const char *p, const char *e);

/* ---- the value changes read in parts (vcd_parts.c, vcd_stream.c) ---- */

#define VCD_UNSEEN 3 /* a bit's value in a part before the part sets it */

/* What a part's reader hands its batches to: the sink's part_changes, as a
 * vcd_sink's `changes` with a vcd_part_sink as its ctx. */
typedef struct vcd_part_sink {
    const vcd_sink *sink;
    uint32_t part;
    int64_t from_fs, to_fs; /* only the changes at times in [from_fs, to_fs) go on */
    /* Given runs: the indices of the part's times inside [from_fs, to_fs). */
    size_t tix_from, tix_to;
} vcd_part_sink;

gp_status vcd_part_forward(void *ctx, int64_t time_fs, const vcd_change *c, size_t n);
/* The same for a part given as runs. */
gp_status vcd_part_forward_times(void *ctx, uint32_t part, const int64_t *time_fs, size_t n);
gp_status vcd_part_forward_run(void *ctx, uint32_t part, uint32_t id, uint32_t bit,
                               const uint32_t *change, size_t n);

/* A part's bytes: [begin, end) of the file fd, or text[0 .. end - begin). */
typedef struct vcd_part_input {
    int fd;
    const char *text;
    uint64_t begin, end;
    /* The times of the changes it gives: [from_fs, to_fs) (vcd_options'
     * span; INT64_MIN, INT64_MAX: every time). */
    int64_t from_fs, to_fs;
} vcd_part_input;

/* The reader of one part after another on one thread: a copy of the
 * header's reader sharing its code tables (read only), with its own input,
 * bit values (VCD_UNSEEN at a part's start), batch and a diagnostics
 * context that prints nothing. */
typedef struct vcd_part_reader {
    const vcd_text *head;
    vcd_text w;
    diag_ctx *d;
} vcd_part_reader;

bool vcd_part_reader_init(vcd_part_reader *pr, const vcd_text *head);
void vcd_part_reader_free(vcd_part_reader *pr);
/* Reads part number `part` into the head's sink (part_changes); true when it
 * was read whole without a message, *last_ticks then its last time. */
bool vcd_part_read(vcd_part_reader *pr, uint32_t part, const vcd_part_input *in,
                   int64_t *last_ticks);
/* The time of a plain VCD file's last time command (its last line that
 * starts with '#', found near the end), or -1. */
int64_t vcd_last_ticks(const char *path);
/* The time of "#digits" at p[0..n) followed by a blank, or -1. */
int64_t vcd_parse_ticks(const char *p, size_t n);

/* After the header r read: the value changes read in parts on threads
 * (vcd.h), when the sink, the options and the file allow; a plain file by
 * byte ranges, a gzip one (vcd_stream_read) by parts cut from the stream as
 * it is decompressed, through an infile of its own.  *done is false when
 * they were not: r is then where the header left it, for vcd_text_changes.
 * An error status only for what the sink or the end of the read return. */
gp_status vcd_parts_read(vcd_text *r, const char *path, const vcd_options *opt, bool *done);
gp_status vcd_stream_read(vcd_text *r, const char *path, const vcd_options *opt, uint32_t threads,
                          bool *done);

#endif
