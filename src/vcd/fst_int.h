/* fst_int.h: what the FST reader's files share: the file mapped and its
 * blocks indexed (fst_file.c), its hierarchy (fst_hier.c), a value-change
 * block decoded (fst_block.c), and the reader into vcd_state's sink
 * (fst_read.c, on threads fst_parts.c).  The format is GTKWave's: a
 * sequence of blocks, each a tag byte and a big-endian 64-bit length that
 * counts itself; fstapi.c (Debian's verilator sources) is its reference.
 * Every byte of the file is checked before it is used: a damaged file is
 * an error (6108-6110), never a read out of bounds or a shorter dump. */
#ifndef GP_VCD_FST_INT_H
#define GP_VCD_FST_INT_H

#include <zlib.h>

#include "vcd/fst_reader.h"
#include "util/vec.h"
#include "vcd/vcd_int.h"

/* Block tags. */
enum {
    FST_TAG_HEADER = 0,
    FST_TAG_CHANGES = 1,
    FST_TAG_ACTIVITY = 2, /* dump on/off changes ("blackout") */
    FST_TAG_GEOMETRY = 3,
    FST_TAG_HIER_GZ = 4,
    FST_TAG_CHANGES_ALIAS = 5,
    FST_TAG_HIER_LZ4 = 6,
    FST_TAG_HIER_LZ4_TWICE = 7,
    FST_TAG_CHANGES_ALIAS2 = 8,
    FST_TAG_GZ_WRAPPED = 254, /* the whole file, gzip-compressed */
    FST_TAG_UNFINISHED = 255
};

/* A value-change block: [at, at + 1 + len) of the file. */
typedef struct fst_block {
    uint64_t at, len;
    uint8_t tag;
    uint64_t begin, end; /* its first and last time, in file units */
} fst_block;

VEC_DECLARE(fst_blocks, fst_block)

typedef struct fst_file {
    const char *path;
    const uint8_t *data; /* the file's bytes (a gzip-wrapped file's unwrapped copy) */
    size_t size;
    void *map;
    size_t map_len;
    uint64_t start, end; /* the dump's times, in file units */
    int exponent;        /* a time unit is 10^exponent s */
    int64_t timezero;
    uint32_t handles;     /* handles 1 .. handles */
    uint32_t *value_len;  /* per handle - 1: a value's bytes (bits of a logic var, 8 for a
                             real, 0 for a string of varying length) */
    uint8_t *is_real;     /* per handle - 1 */
    fst_blocks blocks;    /* the value-change blocks, in file order (fewer than 2^31) */
    uint64_t hier_at;     /* the hierarchy block's offset; 0: none */
    uint8_t hier_tag;
    uint32_t n_activity;  /* dump on/off changes: times (file units) and values */
    uint64_t *activity_at;
    uint8_t *activity_on;
} fst_file;

/* Maps `path` and indexes its blocks: error 6109 for a file whose framing,
 * header or geometry is damaged.  fst_file_close frees what it holds. */
gp_status fst_file_open(fst_file *ff, const char *path, diag_ctx *d);
void fst_file_close(fst_file *ff);
/* Blocks [first, stop) will not be read again: their pages leave the
 * process (the page cache keeps them), so that a file larger than the
 * memory bound is read within it. */
void fst_file_done_with(const fst_file *ff, uint32_t first, uint32_t stop);

/* Bounds-checked readers of the format's numbers at *p (below end): false
 * when the number runs past end or is longer than its type.  Varints are
 * little-endian base 128; most are one byte. */
bool fst_varint_long(const uint8_t **p, const uint8_t *end, uint64_t *v);
static inline bool fst_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    const uint8_t *q = *p;
    if (q < end && !(q[0] & 0x80)) {
        *v = q[0];
        *p = q + 1;
        return true;
    }
    if (end - q >= 2 && !(q[1] & 0x80)) { /* a chain entry's, often */
        *v = (uint64_t)(q[0] & 0x7f) | (uint64_t)q[1] << 7;
        *p = q + 2;
        return true;
    }
    /* The long form through locals: the caller's cursor and value, whose
     * addresses would otherwise escape, stay in registers in its loop. */
    const uint8_t *r = q;
    uint64_t w;
    if (!fst_varint_long(&r, end, &w))
        return false;
    *p = r;
    *v = w;
    return true;
}
bool fst_svarint(const uint8_t **p, const uint8_t *end, int64_t *v);
uint64_t fst_be64(const uint8_t *p);

/* Inflates src[0, n) (a zlib or gzip stream) into exactly `out_len` bytes
 * of out, with z (inflateInit2'ed with 15 + 32) reset first. */
bool fst_inflate(z_stream *z, const uint8_t *src, size_t n, uint8_t *out, size_t out_len);
/* The same with a stream of its own, for a section read once. */
bool fst_inflate_once(const uint8_t *src, size_t n, uint8_t *out, size_t out_len);

/* A compressed size's output, at most: what an FST's writer can make of
 * n bytes (zlib's limit is 1032 to 1), before anything is allocated. */
static inline bool fst_plausible_inflation(uint64_t out, uint64_t n)
{
    return out <= n * 1100 + 64;
}

/* The reader of a file, or of one of its parts, into a vcd_state. */
typedef struct fst_reader {
    vcd_state st;
    const fst_file *ff;
    diag_loc loc;        /* the file, no line */
    int64_t scale;       /* fs per time unit */
    uint64_t last_ticks; /* the time of the last change seen, in file units */
    uint32_t activity_next; /* the next dump on/off change to apply (file order only:
                               a file with any is never read in parts) */
    progress *bar;          /* advanced by the bytes of the blocks read (NULL: none) */
} fst_reader;

/* Error 6110: the file is damaged inside `what` (a block, the hierarchy):
 * `why` says how. */
gp_status fst_damaged(const fst_reader *f, const char *what, const char *why);
gp_status fst_nomem(const fst_reader *f);
bool fst_ticks_fs(const fst_reader *f, uint64_t ticks, int64_t *fs);

/* The hierarchy: scopes and vars declared into f->st (fst_hier.c). */
gp_status fst_hier_read(fst_reader *f);

/* The changes that follow are at `ticks` (fst_read.c): the dump on/off
 * changes before it applied, the time set. */
gp_status fst_at(fst_reader *f, uint64_t ticks);
/* Error 6107: a value character that is not 0, 1, x or z. */
gp_status fst_bad_value(const fst_reader *f, uint8_t c, uint64_t ticks);
/* One var's value at `ticks`: `len` characters, MSB first. */
gp_status fst_value(fst_reader *f, uint64_t ticks, uint32_t handle, const uint8_t *value,
                    uint32_t len);

/* ---- a value-change block (fst_block.c) ---- */

/* What every part of a block shares: its times and where each handle's
 * chain of changes lies, aliases resolved. */
typedef struct fst_block_index {
    const fst_block *b;
    uint64_t *times;
    uint64_t n_times;
    const uint8_t *chains; /* the chains' base (the pack type byte) */
    uint64_t chains_len;
    uint64_t *chain_at;    /* per handle - 1: offset from chains; 0: no changes here */
    uint32_t *chain_len;
    uint8_t pack;          /* 'Z' (zlib), 'F' (FastLZ), '4' (LZ4) */
    uint8_t *frame;        /* the values at the block's start (first block only), or NULL */
    uint32_t frame_handles;
} fst_block_index;

/* A handle's chain while its part is decoded: offsets into the part's
 * decompressed chains, the time index of its next entry, where its bits'
 * values so far lie in fst_decoder.prev, and the next chain (+1) waiting
 * for the same time window. */
typedef struct fst_chain {
    uint32_t pos, stop, tix, prev, next;
} fst_chain;

VEC_DECLARE(fst_bytes, uint8_t)
VEC_DECLARE(fst_chains, fst_chain)
VEC_DECLARE(fst_changes, vcd_change)

/* Per thread: the buffers one part's decoding reuses. */
typedef struct fst_decoder {
    fst_bytes mem;        /* the part's chains, decompressed */
    fst_chains chain;     /* per handle of the part */
    fst_bytes prev;       /* per bit of the part's handles: its value so far */
    bool prev_kept;       /* prev holds the blocks before (file order: every handle) */
    fst_changes rec;      /* a time window's bit changes, as decoded */
    vec_u32 rec_tix;      /* per change: its time's index in the window */
    fst_changes sorted;   /* the same by time */
    vec_u32 count;        /* per time of the window: its changes, then its first */
    vec_u32 waiting;      /* per time window: the first chain (+1) whose next entry is in it */
    uint64_t window_times; /* time indices a window spans */
    fst_bytes value;      /* a value's characters */
    vec_u32 run;          /* a bit's changes as a run (fst_runs.c) */
    vec_i64 run_times;    /* the part's times in fs, for its runs */
    z_stream z;
    bool z_ready;
} fst_decoder;

/* Indexes block k of f's file: error 6110 where it is damaged. */
gp_status fst_block_index_build(const fst_reader *f, uint32_t k, fst_block_index *ix);
void fst_block_index_free(fst_block_index *ix);
/* The changes of the block's delivered handles in [lo, hi) (1-based) into
 * f, in time order. */
gp_status fst_block_decode(fst_reader *f, const fst_block_index *ix, uint32_t lo, uint32_t hi,
                           fst_decoder *dec);
void fst_decoder_free(fst_decoder *dec);
/* Whether handle h (1-based) is delivered. */
bool fst_delivered(const fst_reader *f, uint32_t h);
/* Moves chain c, whose next entry is at c->pos, to that entry's time. */
bool fst_chain_step(const fst_block_index *ix, const fst_decoder *dec, fst_chain *c,
                    uint32_t width);
/* The entry of a handle of `width` bits at *p (below end): its value's
 * characters at *value. */
bool fst_entry_value(fst_decoder *dec, const uint8_t **p, const uint8_t *end, uint32_t width,
                     const uint8_t **value);

/* ---- a part given as runs (fst_runs.c) ---- */

/* Whether f's part of the block goes to the sink as runs (vcd_sink.part_run). */
bool fst_runs_wanted(const fst_reader *f, const fst_block_index *ix);
/* The delivered handles in [lo, hi) of the block, their chains loaded
 * (fst_block.c), each bit's changes a run: the frame's value first, then
 * its chain's. */
gp_status fst_block_runs(fst_reader *f, const fst_block_index *ix, uint32_t lo, uint32_t hi,
                         fst_decoder *dec);

/* ---- on threads (fst_parts.c) ---- */

/* After f's header: the value changes read on threads, a part being a
 * group of handles of one block, when the sink, the options and the file
 * allow (no dump on/off changes).  *done is false when they were not, or
 * when a part failed (the sink's parts dropped): f then reads them in
 * file order. */
gp_status fst_parts_read(fst_reader *f, const vcd_options *opt, bool *done);

#endif
