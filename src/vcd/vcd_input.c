/* vcd_input.c: the VCD reader's input: a buffer refilled in big chunks from
 * a file (plain or gzip, through infile) or from memory, words for the
 * header, lazy line counting for locations, and vcd_read itself. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "vcd/fst_reader.h"
#include "util/mem.h"
#include "vcd/vcd_int.h"

#define VCD_DEFAULT_CHUNK ((size_t)4 << 20)

gp_status vcd_text_nomem(vcd_text *r)
{
    diag_error(r->st.d, 6050, DIAG_NOWHERE, "out of memory reading '%s'", r->st.file);
    return GP_ERR_NOMEM;
}

gp_status vcd_text_init(vcd_text *r, const char *name, const vcd_options *opt,
                        const vcd_sink *sink, diag_ctx *d)
{
    memset(r, 0, sizeof *r);
    strtab_init(&r->long_codes);
    r->line = 1;
    r->chunk = opt && opt->chunk_size ? opt->chunk_size : VCD_DEFAULT_CHUNK;
    r->bar = opt ? opt->bar : NULL;
    r->threads = opt ? opt->threads : 0;
    r->piece_min = opt ? opt->part_size : 0;
    r->last_byte = '\n';
    gp_status st = vcd_state_init(&r->st, name, opt, sink, d);
    if (st != GP_OK)
        return st;
    r->cap = 1; /* just the sentinel: the first refill sizes the buffer */
    r->buf = mem_alloc(r->cap);
    if (!r->buf)
        return vcd_text_nomem(r);
    r->buf[0] = '\0';
    return GP_OK;
}

void vcd_text_free(vcd_text *r)
{
    infile_close(r->f);
    vcd_state_free(&r->st);
    mem_free(r->buf);
    vcd_codes_free(r);
    vec_char_free(&r->scratch);
    memset(r, 0, sizeof *r);
}

/* Sixteen bytes as one value (GCC's and Clang's vector extension). */
typedef unsigned char vcd_bytes16 __attribute__((vector_size(16)));

/* Newlines in [p, e), sixteen bytes at a time.  A lane's comparison is all
 * ones (minus one) where the byte is a newline, so subtracting it counts
 * the newlines of that column; 255 blocks at most before the lanes are
 * summed, so that none wraps. */
size_t vcd_count_newlines(const char *p, const char *e)
{
    const vcd_bytes16 newline = {'\n', '\n', '\n', '\n', '\n', '\n', '\n', '\n',
                                 '\n', '\n', '\n', '\n', '\n', '\n', '\n', '\n'};
    size_t n = 0;
    while (e - p >= 16) {
        vcd_bytes16 lanes = {0};
        for (int k = 0; k < 255 && e - p >= 16; k++, p += 16) {
            vcd_bytes16 w;
            memcpy(&w, p, 16);
            lanes -= (vcd_bytes16)(w == newline);
        }
        for (int i = 0; i < 16; i++)
            n += lanes[i];
    }
    for (; p < e; p++)
        n += *p == '\n';
    return n;
}

/* Advances the line count to buf[upto]. */
static void vcd_text_count_to(vcd_text *r, size_t upto)
{
    if (upto <= r->counted)
        return;
    const char *from = r->buf + r->counted, *to = r->buf + upto;
    size_t n = vcd_count_newlines(from, to);
    if (n > 0) {
        r->line += (int)n;
        const char *nl = to - 1;
        while (*nl != '\n')
            nl--;
        r->line_start = r->base + (uint64_t)(nl + 1 - r->buf);
    }
    r->counted = upto;
}

diag_loc vcd_text_loc(vcd_text *r, const char *p)
{
    vcd_text_count_to(r, (size_t)(p - r->buf));
    uint64_t off = r->base + (uint64_t)(p - r->buf);
    int col = off >= r->line_start ? (int)(off - r->line_start + 1) : 0;
    return (diag_loc){r->st.file, r->line, col};
}

void vcd_text_counted_to(vcd_text *r, const char *p, diag_loc at)
{
    size_t upto = (size_t)(p - r->buf);
    r->counted = upto;
    r->line = at.line;
    r->line_start = r->base + upto - (uint64_t)(at.col - 1);
}

/* A part's bytes (vcd_parts.c).  A failure has no message of its own: the
 * parts are dropped and the file read again in order, through infile,
 * which reports it. */
static gp_status vcd_text_pread(vcd_text *r, char *dst, size_t n, size_t *got)
{
    size_t want = r->fd_end - r->fd_pos < n ? (size_t)(r->fd_end - r->fd_pos) : n, k = 0;
    while (k < want) {
        ssize_t m = pread(r->fd, dst + k, want - k, (off_t)(r->fd_pos + k));
        if (m < 0 && errno == EINTR)
            continue;
        if (m <= 0)
            return GP_ERR_IO;
        k += (size_t)m;
    }
    r->fd_pos += k;
    *got = k;
    return GP_OK;
}

/* Up to n bytes from the source; fewer only at its end. */
static gp_status vcd_text_source_read(vcd_text *r, char *dst, size_t n, size_t *got)
{
    if (r->f)
        return infile_read(r->f, dst, n, got);
    if (r->from_fd)
        return vcd_text_pread(r, dst, n, got);
    size_t k = r->mem_len - r->mem_pos < n ? r->mem_len - r->mem_pos : n;
    memcpy(dst, r->mem + r->mem_pos, k);
    r->mem_pos += k;
    *got = k;
    return GP_OK;
}

gp_status vcd_text_refill(vcd_text *r)
{
    if (!r->from_fd) /* a part's messages are never shown: its lines need no count */
        vcd_text_count_to(r, r->pos);
    size_t keep = r->len - r->pos;
    memmove(r->buf, r->buf + r->pos, keep);
    r->base += r->pos;
    r->counted = 0;
    r->len = keep;
    r->pos = 0;
    if (keep + r->chunk + 1 > r->cap) { /* the first refill, or a token longer than a chunk */
        size_t cap = keep + r->chunk + 1 > 2 * r->cap ? keep + r->chunk + 1 : 2 * r->cap;
        char *p = mem_realloc(r->buf, cap);
        if (!p)
            return vcd_text_nomem(r);
        r->buf = p;
        r->cap = cap;
    }
    size_t got = 0;
    gp_status st = vcd_text_source_read(r, r->buf + r->len, r->chunk, &got);
    if (st != GP_OK)
        return st;
    if (got > 0)
        r->last_byte = r->buf[r->len + got - 1];
    r->len += got;
    r->eof = got < r->chunk;
    r->buf[r->len] = '\0';
    if (r->bar && r->f)
        progress_update(r->bar, infile_raw_pos(r->f));
    return GP_OK;
}

gp_status vcd_text_word(vcd_text *r, vcd_word *w)
{
    for (;;) {
        const char *p = r->buf + r->pos, *end = r->buf + r->len;
        while (vcd_is_space((unsigned char)*p))
            p++;
        const char *q = p;
        while ((unsigned char)*q > ' ')
            q++;
        if (q == end && !r->eof) {
            r->pos = (size_t)(p - r->buf);
            gp_status st = vcd_text_refill(r);
            if (st != GP_OK)
                return st;
            continue;
        }
        if (q == p && p < end) {
            diag_error(r->st.d, 6051, vcd_text_loc(r, p),
                       "control character 0x%02x in the VCD text: the file is damaged or not a VCD",
                       (unsigned char)*p);
            return GP_ERR_PARSE;
        }
        r->pos = (size_t)(q - r->buf);
        w->text = p;
        w->len = (size_t)(q - p);
        return GP_OK;
    }
}

gp_status vcd_text_need_word(vcd_text *r, vcd_word *w, const char *what)
{
    gp_status st = vcd_text_word(r, w);
    if (st == GP_OK && w->len == 0) {
        diag_error(r->st.d, 6030, vcd_text_loc(r, w->text),
                   "the file ends inside %s: it is truncated; regenerate or re-copy it", what);
        return GP_ERR_PARSE;
    }
    return st;
}

gp_status vcd_text_skip_section(vcd_text *r, const char *what)
{
    vcd_word w;
    gp_status st;
    while ((st = vcd_text_need_word(r, &w, what)) == GP_OK && !vcd_word_is(&w, "$end")) {
    }
    return st;
}

static gp_status vcd_text_run(vcd_text *r)
{
    gp_status st = vcd_text_header(r);
    if (st == GP_OK)
        st = vcd_text_changes(r);
    return st;
}

/* A file's header, then its changes in parts on threads where they can be. */
static gp_status vcd_file_run(vcd_text *r, const char *path, const vcd_options *opt)
{
    gp_status st = vcd_text_header(r);
    bool done = false;
    if (st == GP_OK)
        st = vcd_parts_read(r, path, opt, &done);
    if (st == GP_OK && !done)
        st = vcd_text_changes(r);
    return st;
}

gp_status vcd_read_memory(const char *name, const char *data, size_t len, const vcd_options *opt,
                          const vcd_sink *sink, diag_ctx *d)
{
    vcd_text r;
    gp_status st = vcd_text_init(&r, name ? name : "(memory)", opt, sink, d);
    if (st == GP_OK) {
        r.mem = data;
        r.mem_len = len;
        if (r.chunk > len) /* no bigger buffer than the data needs */
            r.chunk = len > 0 ? len : 1;
        st = vcd_text_run(&r);
    }
    vcd_text_free(&r);
    return st;
}

/* FST files start with a block type byte no text file starts with: 0
 * (header), 254 (the whole file gzip-wrapped) or 255 (being written). */
static bool vcd_looks_like_fst(const vcd_text *r)
{
    unsigned char c = (unsigned char)r->buf[0];
    return !infile_is_gzip(r->f) && r->len > 0 && (c == 0 || c == 254 || c == 255);
}

gp_status vcd_read(const char *path, const vcd_options *opt, const vcd_sink *sink, diag_ctx *d)
{
    vcd_text r;
    gp_status st = vcd_text_init(&r, path, opt, sink, d);
    if (st == GP_OK)
        st = infile_open(path, d, &r.f);
    if (st == GP_OK && r.bar)
        progress_begin(r.bar, "reading activity", infile_size_hint(r.f));
    if (st == GP_OK)
        st = vcd_text_refill(&r);
    if (st == GP_OK && vcd_looks_like_fst(&r)) {
        infile_close(r.f);
        r.f = NULL;
        st = fst_read(path, opt, sink, d);
    } else if (st == GP_OK) {
        st = vcd_file_run(&r, path, opt);
    }
    if (r.bar)
        progress_end(r.bar);
    vcd_text_free(&r);
    return st;
}
