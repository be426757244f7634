/* fst_file.c: an FST file mapped into memory and walked block by block.
 * Every block lies inside the file with a known tag and at least its fixed
 * fields; the header is whole (its length, its endianness test value,
 * times of a writer that closed the file) and its counts fit the file's
 * size; no block is left unfinished; the blocks end exactly at the file's
 * end and the value-change blocks are as many as the header says.  The
 * geometry (each handle's value size) and the dump on/off changes are
 * read here; a gzip-wrapped file is inflated to a temporary file first.
 * Anything else wrong is error 6109, saying what. */
#define _DEFAULT_SOURCE /* madvise: POSIX's posix_madvise(DONTNEED) is a no-op on Linux */
#include "vcd/fst_reader.h"

#ifdef GATEPOWER_HAVE_FST
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vcd/fst_int.h"
#include "util/mem.h"

enum {
    FST_HEADER_LEN = 329,          /* the header block's length field */
    FST_CHANGES_FIXED = 8 + 24 + 24, /* a value-change block's length, times and memory,
                                        and its time table's three sizes */
    FST_HANDLES_PER_BYTE = 64      /* handles (vars) a byte of file may declare, at most */
};

uint64_t fst_be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int k = 0; k < 8; k++)
        v = v << 8 | p[k];
    return v;
}

bool fst_varint_long(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned shift = 0; *p < end && shift < 64; shift += 7) {
        uint8_t b = *(*p)++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return true;
        }
    }
    return false;
}

bool fst_svarint(const uint8_t **p, const uint8_t *end, int64_t *v)
{
    uint64_t x = 0;
    unsigned shift = 0;
    uint8_t b = 0x80;
    while ((b & 0x80) && *p < end && shift < 64) {
        b = *(*p)++;
        x |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
    }
    if (b & 0x80)
        return false;
    if (shift < 64 && (b & 0x40))
        x |= ~(uint64_t)0 << shift; /* sign extension */
    *v = (int64_t)x;
    return true;
}

bool fst_inflate(z_stream *z, const uint8_t *src, size_t n, uint8_t *out, size_t out_len)
{
    if (inflateReset(z) != Z_OK || n > UINT_MAX || out_len > UINT_MAX)
        return false;
    z->next_in = (Bytef *)src;
    z->avail_in = (uInt)n;
    z->next_out = out;
    z->avail_out = (uInt)out_len;
    return inflate(z, Z_FINISH) == Z_STREAM_END && z->total_out == out_len;
}

bool fst_inflate_once(const uint8_t *src, size_t n, uint8_t *out, size_t out_len)
{
    z_stream z = {0};
    bool ok = inflateInit2(&z, 15 + 32) == Z_OK && fst_inflate(&z, src, n, out, out_len);
    inflateEnd(&z);
    return ok;
}

static bool is_changes_tag(int tag)
{
    return tag == FST_TAG_CHANGES || tag == FST_TAG_CHANGES_ALIAS ||
           tag == FST_TAG_CHANGES_ALIAS2;
}

static bool known_tag(int tag)
{
    return is_changes_tag(tag) || tag == FST_TAG_ACTIVITY || tag == FST_TAG_GEOMETRY ||
           tag == FST_TAG_HIER_GZ || tag == FST_TAG_HIER_LZ4 || tag == FST_TAG_HIER_LZ4_TWICE;
}

/* The header block at the file's start. */
static const char *read_header(fst_file *ff, uint64_t *sections)
{
    static const double endtest = 2.7182818284590452354;
    const uint8_t *h = ff->data;
    if (ff->size < 1 + FST_HEADER_LEN || h[0] != FST_TAG_HEADER)
        return "it does not start with an FST header";
    uint8_t swapped[8];
    for (int k = 0; k < 8; k++)
        swapped[k] = h[25 + 7 - k];
    double d, e;
    memcpy(&d, h + 25, 8);
    memcpy(&e, swapped, 8);
    if (fst_be64(h + 1) != FST_HEADER_LEN)
        return "its header has the wrong length";
    if (d != endtest && e != endtest)
        return "its header is damaged";
    ff->start = fst_be64(h + 9);
    ff->end = fst_be64(h + 17);
    if (ff->start == 0 && ff->end == 0)
        return "its header was never finished (the writer did not close the file)";
    uint64_t vars = fst_be64(h + 49), handles = fst_be64(h + 57);
    uint64_t most = ff->size * FST_HANDLES_PER_BYTE;
    if (handles == 0 || handles > vars || vars > most || fst_be64(h + 41) > most ||
        handles > ((uint64_t)1 << 31))
        return "its header's counts of scopes and variables do not fit its size";
    if (ff->start > ff->end)
        return "its header's times are out of order";
    ff->handles = (uint32_t)handles;
    *sections = fst_be64(h + 65);
    ff->exponent = (int8_t)h[73];
    ff->timezero = (int64_t)fst_be64(h + 322);
    return NULL;
}

/* The geometry block: a varint per handle, 0 for a real, 0xFFFFFFFF for
 * a value of varying length. */
static const char *read_geometry(fst_file *ff, const uint8_t *b, uint64_t len)
{
    if (len < 24)
        return "its geometry block is shorter than its fixed fields";
    uint64_t uclen = fst_be64(b + 9), clen = len - 24, count = fst_be64(b + 17);
    if (count != ff->handles || uclen < count || !fst_plausible_inflation(uclen, clen))
        return "its geometry block does not fit its header";
    mem_free(ff->value_len);
    mem_free(ff->is_real);
    ff->value_len = mem_calloc(count, sizeof *ff->value_len);
    ff->is_real = mem_alloc(count);
    uint8_t *raw = clen == uclen ? NULL : mem_alloc(uclen);
    if (!ff->value_len || !ff->is_real || (clen != uclen && !raw)) {
        mem_free(raw);
        return "out of memory for its geometry";
    }
    const uint8_t *p = b + 25, *end = p + clen;
    if (raw) {
        bool ok = fst_inflate_once(p, clen, raw, uclen);
        if (!ok) {
            mem_free(raw);
            return "its geometry block is damaged (it does not inflate)";
        }
        p = raw;
        end = raw + uclen;
    }
    const char *why = NULL;
    for (uint32_t i = 0; i < count && !why; i++) {
        uint64_t v;
        if (!fst_varint(&p, end, &v) || (v > VCD_MAX_WIDTH && v != 0xFFFFFFFFu))
            why = "its geometry block is damaged";
        else {
            ff->is_real[i] = v == 0;
            ff->value_len[i] = v == 0 ? 8 : v == 0xFFFFFFFFu ? 0 : (uint32_t)v;
        }
    }
    mem_free(raw);
    return why;
}

/* The dump on/off changes: a count, then per change its value byte and
 * the varint delta of its time. */
static const char *read_activity(fst_file *ff, const uint8_t *b, uint64_t len)
{
    const uint8_t *p = b + 9, *end = b + 1 + len;
    uint64_t n, t = 0;
    if (!fst_varint(&p, end, &n) || n > len)
        return "its dump on/off block is damaged";
    mem_free(ff->activity_at);
    mem_free(ff->activity_on);
    ff->activity_at = mem_calloc(n ? n : 1, sizeof *ff->activity_at);
    ff->activity_on = mem_alloc(n ? n : 1);
    if (!ff->activity_at || !ff->activity_on)
        return "out of memory for its dump on/off changes";
    for (uint64_t i = 0; i < n; i++) {
        uint64_t delta;
        if (p >= end)
            return "its dump on/off block is damaged";
        ff->activity_on[i] = *p++ != 0;
        if (!fst_varint(&p, end, &delta) || __builtin_add_overflow(t, delta, &t))
            return "its dump on/off block is damaged";
        ff->activity_at[i] = t;
    }
    ff->n_activity = (uint32_t)n;
    return NULL;
}

/* A value-change block: its times in order; the block saved. */
static const char *add_changes_block(fst_file *ff, uint64_t at, uint64_t len)
{
    if (len < FST_CHANGES_FIXED)
        return "a block is shorter than its fixed fields";
    const uint8_t *b = ff->data + at;
    fst_block blk = {at, len, b[0], fst_be64(b + 9), fst_be64(b + 17)};
    fst_blocks *all = &ff->blocks;
    if (blk.begin > blk.end || (all->len && blk.begin < all->data[all->len - 1].end))
        return "a block's times are out of order";
    if (all->len == UINT32_MAX / 2)
        return "it has more value-change blocks than are supported (2^31)";
    return fst_blocks_push(all, blk) ? NULL : "out of memory for its blocks";
}

static const char *read_block(fst_file *ff, uint64_t at, uint64_t len)
{
    const uint8_t *b = ff->data + at;
    switch (b[0]) {
    case FST_TAG_GEOMETRY:
        return read_geometry(ff, b, len);
    case FST_TAG_ACTIVITY:
        return read_activity(ff, b, len);
    case FST_TAG_HIER_GZ:
    case FST_TAG_HIER_LZ4:
    case FST_TAG_HIER_LZ4_TWICE:
        if (len < 16)
            return "its hierarchy block is shorter than its fixed fields";
        ff->hier_at = at;
        ff->hier_tag = b[0];
        return NULL;
    default:
        return add_changes_block(ff, at, len);
    }
}

/* The blocks after the header, each inside the file and ending where the
 * next begins. */
static const char *read_blocks(fst_file *ff)
{
    for (uint64_t at = 1 + FST_HEADER_LEN; at < ff->size;) {
        if (ff->size - at < 9)
            return "it is cut inside a block's header";
        const uint8_t *b = ff->data + at;
        uint64_t len = fst_be64(b + 1);
        if (b[0] == FST_TAG_UNFINISHED)
            return "a block was never finished (the writer did not close the file)";
        if (!known_tag(b[0]))
            return "a block has an unknown tag";
        if (len < 8)
            return "a block is shorter than its fixed fields";
        if (len > ff->size - at - 1)
            return "a block runs past the end of the file (it is cut short)";
        const char *why = read_block(ff, at, len);
        if (why)
            return why;
        at += 1 + len;
    }
    return NULL;
}

static void unmap(fst_file *ff)
{
    if (ff->map)
        munmap(ff->map, ff->map_len);
    ff->map = NULL;
    ff->data = NULL;
    ff->size = 0;
}

static const char *map_fd(fst_file *ff, int fd)
{
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode))
        return "it cannot be read";
    ff->size = ff->map_len = (size_t)sb.st_size;
    if (ff->size == 0)
        return "it does not start with an FST header";
    ff->map = mmap(NULL, ff->map_len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (ff->map == MAP_FAILED) {
        ff->map = NULL;
        return "it cannot be read";
    }
    ff->data = ff->map;
    return NULL;
}

/* A gzip-wrapped file (tag 254, its length, the unwrapped length, then a
 * gzip stream): inflated to a temporary file, which is mapped instead. */
static const char *unwrap(fst_file *ff)
{
    if (ff->size < 17)
        return "it is cut inside its gzip wrapper's header";
    uint64_t want = fst_be64(ff->data + 9), done = 0;
    FILE *tmp = tmpfile();
    uint8_t *out = mem_alloc(1 << 20);
    z_stream z = {0};
    const char *why = !tmp || !out ? "no temporary file to unwrap it into"
                      : inflateInit2(&z, 15 + 32) != Z_OK ? "out of memory" : NULL;
    z.next_in = (Bytef *)ff->data + 17;
    size_t in_left = ff->size - 17;
    int zs = Z_OK;
    while (!why && zs != Z_STREAM_END) {
        uInt in = in_left > (1u << 30) ? 1u << 30 : (uInt)in_left;
        z.avail_in = in;
        z.next_out = out;
        z.avail_out = 1 << 20;
        zs = inflate(&z, Z_NO_FLUSH);
        in_left -= in - z.avail_in;
        size_t got = (1 << 20) - z.avail_out;
        done += got;
        if ((zs != Z_OK && zs != Z_STREAM_END) || (zs == Z_OK && got == 0 && in_left == 0))
            why = "its gzip wrapper is damaged or cut short";
        else if (fwrite(out, 1, got, tmp) != got)
            why = "no room to unwrap it (its temporary file could not be written)";
    }
    if (!why && done != want)
        why = "its gzip wrapper's length is wrong";
    inflateEnd(&z);
    mem_free(out);
    unmap(ff);
    if (!why && fflush(tmp) != 0)
        why = "no room to unwrap it (its temporary file could not be written)";
    if (!why)
        why = map_fd(ff, fileno(tmp));
    if (tmp)
        fclose(tmp); /* the mapping stays */
    return why;
}

static const char *open_and_index(fst_file *ff, const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return "it cannot be read";
    const char *why = map_fd(ff, fd);
    close(fd);
    if (!why && ff->data[0] == FST_TAG_GZ_WRAPPED)
        why = unwrap(ff);
    uint64_t sections = 0;
    if (!why)
        why = read_header(ff, &sections);
    if (!why)
        why = read_blocks(ff);
    if (!why && sections != ff->blocks.len)
        why = "its header counts more value-change blocks than it holds (it is cut short)";
    if (!why && ff->blocks.len && !ff->value_len)
        why = "it has value changes but no geometry block";
    return why;
}

gp_status fst_file_open(fst_file *ff, const char *path, diag_ctx *d)
{
    *ff = (fst_file){.path = path};
    const char *why = open_and_index(ff, path);
    if (!why)
        return GP_OK;
    diag_loc loc = {path, 0, 0};
    diag_error(d, 6109, loc, "'%s' is not a whole FST file: %s", path, why);
    fst_file_close(ff);
    return GP_ERR_PARSE;
}

void fst_file_done_with(const fst_file *ff, uint32_t first, uint32_t stop)
{
    if (first >= stop || !ff->map)
        return;
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t from = (ff->blocks.data[first].at + page - 1) / page * page;
    uint64_t to = (ff->blocks.data[stop - 1].at + 1 + ff->blocks.data[stop - 1].len) / page * page;
    if (from < to)
        madvise((uint8_t *)ff->map + from, to - from, MADV_DONTNEED);
}

void fst_file_close(fst_file *ff)
{
    unmap(ff);
    mem_free(ff->value_len);
    mem_free(ff->is_real);
    fst_blocks_free(&ff->blocks);
    mem_free(ff->activity_at);
    mem_free(ff->activity_on);
    *ff = (fst_file){0};
}
#endif
