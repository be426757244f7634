/* infile.c: plain files through read(2), gzip files through zlib's inflate. */
#include "util/infile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "util/mem.h"
#include "util/parts.h"

#define INFILE_ZBUF_SIZE ((size_t)256 * 1024) /* compressed bytes read at once */
#define INFILE_MAGIC_LEN 2
#define INFILE_READ_ALL_MIN 4096
/* infile_read_all reads plain files of this size or more on every core, in
 * parts of this size at least. */
#define INFILE_PARTS_MIN ((uint64_t)8 << 20)
#define INFILE_PART_BYTES ((uint64_t)4 << 20)

struct infile {
    char *path;
    diag_ctx *d;
    int fd;
    bool gzip;
    bool at_end; /* everything has been delivered */
    bool failed; /* an error was reported: reads fail from now on */
    uint64_t size_hint;
    uint64_t raw_pos;
    /* Plain files: the bytes read to look for the magic, delivered first. */
    unsigned char probe[INFILE_MAGIC_LEN];
    size_t probe_len, probe_pos;
    /* Gzip files. */
    z_stream zs;
    bool in_member; /* inside a gzip member: the file must not end here */
    unsigned char *zbuf;
};

static gp_status infile_report_nomem(diag_ctx *d, const char *path)
{
    diag_error(d, 1106, DIAG_NOWHERE, "out of memory reading '%s'", path);
    return GP_ERR_NOMEM;
}

static gp_status infile_report_open_error(diag_ctx *d, const char *path, int err)
{
    diag_error(d, 1101, DIAG_NOWHERE, "cannot open '%s': %s", path, strerror(err));
    return GP_ERR_IO;
}

static gp_status infile_report_read_error(infile *f, int err)
{
    diag_error(f->d, 1102, DIAG_NOWHERE, "read error in '%s': %s", f->path, strerror(err));
    f->failed = true;
    return GP_ERR_IO;
}

/* One read(2) of up to n bytes (fewer is no sign of the end); *got 0 at the end. */
static gp_status infile_raw_read(infile *f, void *buf, size_t n, size_t *got)
{
    ssize_t k;
    do {
        k = read(f->fd, buf, n);
    } while (k < 0 && errno == EINTR);
    if (k < 0) {
        *got = 0;
        return infile_report_read_error(f, errno);
    }
    *got = (size_t)k;
    f->raw_pos += (uint64_t)k;
    return GP_OK;
}

/* Reads the first bytes, up to the magic's length unless the file is shorter. */
static gp_status infile_probe(infile *f)
{
    while (f->probe_len < INFILE_MAGIC_LEN) {
        size_t got;
        gp_status st = infile_raw_read(f, f->probe + f->probe_len,
                                       INFILE_MAGIC_LEN - f->probe_len, &got);
        if (st != GP_OK)
            return st;
        if (got == 0)
            break;
        f->probe_len += got;
    }
    return GP_OK;
}

/* Sets up inflate with the probed magic bytes as its first input. */
static gp_status infile_start_gzip(infile *f)
{
    f->zbuf = mem_alloc(INFILE_ZBUF_SIZE);
    if (!f->zbuf)
        return infile_report_nomem(f->d, f->path);
    memcpy(f->zbuf, f->probe, f->probe_len);
    f->zs.next_in = f->zbuf;
    f->zs.avail_in = (uInt)f->probe_len;
    if (inflateInit2(&f->zs, 16 + MAX_WBITS) != Z_OK) { /* 16: a gzip wrapper, not zlib's */
        mem_free(f->zbuf);
        f->zbuf = NULL;
        return infile_report_nomem(f->d, f->path);
    }
    f->gzip = true;
    f->in_member = true;
    return GP_OK;
}

static bool infile_has_magic(const unsigned char *p, size_t len)
{
    return len >= INFILE_MAGIC_LEN && p[0] == 0x1f && p[1] == 0x8b;
}

/* Opens the descriptor; a directory is refused here rather than at the first read. */
static int infile_open_fd(const char *path, struct stat *sb)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int err = 0;
    if (fstat(fd, sb) != 0)
        err = errno;
    else if (S_ISDIR(sb->st_mode))
        err = EISDIR;
    if (err) {
        close(fd);
        errno = err;
        return -1;
    }
    return fd;
}

gp_status infile_open(const char *path, diag_ctx *d, infile **out)
{
    *out = NULL;
    struct stat sb;
    int fd = infile_open_fd(path, &sb);
    if (fd < 0)
        return infile_report_open_error(d, path, errno);
    size_t path_len = strlen(path);
    infile *f = mem_calloc(1, sizeof *f);
    char *path_copy = mem_alloc(path_len + 1);
    if (!f || !path_copy) {
        mem_free(f);
        mem_free(path_copy);
        close(fd);
        return infile_report_nomem(d, path);
    }
    memcpy(path_copy, path, path_len + 1);
    f->path = path_copy;
    f->d = d;
    f->fd = fd;
    f->size_hint = S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0;
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL); /* a hint; failure is harmless */
    gp_status st = infile_probe(f);
    if (st == GP_OK && infile_has_magic(f->probe, f->probe_len))
        st = infile_start_gzip(f);
    if (st != GP_OK) {
        infile_close(f);
        return st;
    }
    *out = f;
    return GP_OK;
}

static gp_status infile_read_plain(infile *f, unsigned char *buf, size_t n, size_t *got)
{
    size_t done = 0;
    while (f->probe_pos < f->probe_len && done < n)
        buf[done++] = f->probe[f->probe_pos++];
    while (done < n && !f->at_end) {
        size_t k;
        gp_status st = infile_raw_read(f, buf + done, n - done, &k);
        if (st != GP_OK)
            return st;
        if (k == 0)
            f->at_end = true;
        done += k;
    }
    *got = done;
    return GP_OK;
}

/* Appends more compressed input after what inflate has not consumed yet. */
static gp_status infile_fill_zbuf(infile *f, size_t *got)
{
    size_t pending = f->zs.avail_in;
    memmove(f->zbuf, f->zs.next_in, pending);
    f->zs.next_in = f->zbuf;
    gp_status st = infile_raw_read(f, f->zbuf + pending, INFILE_ZBUF_SIZE - pending, got);
    f->zs.avail_in = (uInt)(pending + *got);
    return st;
}

/* After the end of a member: another member follows, or the input ends.
 * Bytes after the last member that do not start one are ignored with a
 * warning, as gzip -d does. */
static gp_status infile_next_member(infile *f)
{
    while (f->zs.avail_in < INFILE_MAGIC_LEN) {
        size_t got;
        gp_status st = infile_fill_zbuf(f, &got);
        if (st != GP_OK)
            return st;
        if (got == 0)
            break;
    }
    if (f->zs.avail_in == 0) {
        f->at_end = true;
    } else if (infile_has_magic(f->zs.next_in, f->zs.avail_in)) {
        inflateReset(&f->zs);
        f->in_member = true;
    } else {
        diag_ctx *d = f->d;
        diag_warn(d, 1105, DIAG_NOWHERE, "'%s': trailing garbage after gzip data ignored",
                  f->path);
        f->at_end = true;
    }
    return GP_OK;
}

/* One inflate step into out[0..n), adding the bytes produced to *done. */
static gp_status infile_inflate(infile *f, unsigned char *out, size_t n, size_t *done)
{
    uInt want = n > UINT_MAX ? UINT_MAX : (uInt)n;
    f->zs.next_out = out;
    f->zs.avail_out = want;
    int rc = inflate(&f->zs, Z_NO_FLUSH);
    *done += want - f->zs.avail_out;
    if (rc == Z_STREAM_END)
        f->in_member = false;
    else if (rc == Z_MEM_ERROR)
        return infile_report_nomem(f->d, f->path);
    else if (rc != Z_OK && !(rc == Z_BUF_ERROR && f->zs.avail_in == 0)) {
        diag_ctx *d = f->d;
        diag_error(d, 1103, DIAG_NOWHERE,
                   "'%s': corrupt gzip data (%s); the file is damaged (gzip -t tells)", f->path,
                   f->zs.msg ? f->zs.msg : zError(rc));
        return GP_ERR_IO;
    }
    return GP_OK;
}

static gp_status infile_read_gzip(infile *f, unsigned char *buf, size_t n, size_t *got)
{
    size_t done = 0;
    gp_status st = GP_OK;
    while (st == GP_OK && done < n && !f->at_end) {
        if (!f->in_member) {
            st = infile_next_member(f);
        } else if (f->zs.avail_in == 0) {
            size_t k;
            st = infile_fill_zbuf(f, &k);
            if (st == GP_OK && k == 0) {
                diag_ctx *d = f->d;
                diag_error(d, 1104, DIAG_NOWHERE,
                           "'%s': the gzip data ends early: the file is truncated", f->path);
                st = GP_ERR_IO;
            }
        } else {
            st = infile_inflate(f, buf + done, n - done, &done);
        }
    }
    *got = done;
    return st;
}

gp_status infile_read(infile *f, void *buf, size_t n, size_t *got)
{
    *got = 0;
    if (f->failed)
        return GP_ERR_IO;
    gp_status st = f->gzip ? infile_read_gzip(f, buf, n, got) : infile_read_plain(f, buf, n, got);
    if (st != GP_OK)
        f->failed = true;
    return st;
}

void infile_close(infile *f)
{
    if (!f)
        return;
    if (f->gzip)
        inflateEnd(&f->zs);
    mem_free(f->zbuf);
    close(f->fd);
    mem_free(f->path);
    mem_free(f);
}

const char *infile_path(const infile *f) { return f->path; }
bool infile_is_gzip(const infile *f) { return f->gzip; }
uint64_t infile_size_hint(const infile *f) { return f->size_hint; }
uint64_t infile_raw_pos(const infile *f) { return f->raw_pos; }

/* A plain file's bytes [probe_len, size_hint) read at once by parts
 * (pread), each part a range of buf. */
typedef struct infile_parts {
    const infile *f;
    char *buf;
    int *err;       /* [parts]: a part's errno, or -1 where the file ended early */
} infile_parts;

static void infile_read_part(void *ctx, uint32_t part, uint32_t parts)
{
    infile_parts *r = ctx;
    uint64_t n = r->f->size_hint - r->f->probe_len;
    uint64_t at = r->f->probe_len + parts_begin(n, part, parts);
    uint64_t end = r->f->probe_len + parts_begin(n, part + 1, parts);
    r->err[part] = 0;
    while (at < end) {
        ssize_t k = pread(r->f->fd, r->buf + at, (size_t)(end - at), (off_t)at);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            r->err[part] = k < 0 ? errno : -1;
            return;
        }
        at += (uint64_t)k;
    }
}

/* Reads a large plain file's size_hint bytes into buf on every core (the
 * pages' zeroing and the copies from the page cache take tenths of a second
 * on one for hundreds of MB); *used is then where the reading in order goes
 * on, to find the end.  A read error is reported; a file shorter than its
 * size leaves *used at the probe's end, to be read in order. */
static gp_status infile_read_in_parts(infile *f, char *buf, size_t *used)
{
    *used = 0;
    if (f->gzip || f->size_hint < INFILE_PARTS_MIN)
        return GP_OK;
    uint32_t parts = parts_for_items(f->size_hint, UINT32_MAX, INFILE_PART_BYTES);
    int *err = mem_alloc(parts * sizeof *err);
    if (!err)
        return GP_OK; /* read in order */
    infile_parts r = {.f = f, .buf = buf, .err = err};
    parts_run(infile_read_part, &r, parts);
    int failed = 0;
    for (uint32_t k = 0; k < parts && !failed; k++)
        failed = err[k];
    mem_free(err);
    if (failed > 0)
        return infile_report_read_error(f, failed);
    off_t from = failed ? (off_t)f->probe_len : (off_t)f->size_hint;
    if (lseek(f->fd, from, SEEK_SET) != from)
        return GP_OK; /* the offset stays after the probe: the reading in order */
    memcpy(buf, f->probe, f->probe_len);
    f->probe_pos = f->probe_len;
    f->raw_pos = (uint64_t)from;
    *used = (size_t)from;
    return GP_OK;
}

/* Reads f to its end into a growing block with room for a final NUL. */
static gp_status infile_slurp(infile *f, char **data, size_t *len)
{
    size_t cap = INFILE_READ_ALL_MIN, used = 0;
    if (!f->gzip && f->size_hint < SIZE_MAX - 2 && f->size_hint + 2 > cap)
        cap = (size_t)f->size_hint + 2; /* one read asks for more than there is, and ends */
    char *buf = mem_alloc(cap);
    if (!buf)
        return infile_report_nomem(f->d, f->path);
    gp_status first = infile_read_in_parts(f, buf, &used);
    if (first != GP_OK) {
        mem_free(buf);
        return first;
    }
    for (;;) {
        size_t want = cap - used - 1, got;
        gp_status st = infile_read(f, buf + used, want, &got);
        used += got;
        if (st != GP_OK) {
            mem_free(buf);
            return st;
        }
        if (got < want)
            break;
        char *bigger = cap <= SIZE_MAX / 2 ? mem_realloc(buf, cap * 2) : NULL;
        if (!bigger) {
            mem_free(buf);
            return infile_report_nomem(f->d, f->path);
        }
        buf = bigger;
        cap *= 2;
    }
    buf[used] = '\0';
    *data = buf;
    *len = used;
    return GP_OK;
}

gp_status infile_read_all(const char *path, diag_ctx *d, char **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    infile *f;
    gp_status st = infile_open(path, d, &f);
    if (st != GP_OK)
        return st;
    st = infile_slurp(f, data, len);
    infile_close(f);
    return st;
}
