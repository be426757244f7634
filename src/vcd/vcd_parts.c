/* vcd_parts.c: a plain VCD's value changes read on several threads, and
 * the reader of one part that a gzip file's parts (vcd_stream.c) and an
 * FST file's (fst_parts.c, its sink) use too.
 *
 * After the header (read in file order) the changes are cut into parts,
 * each but the first starting at a line that starts with '#': a time
 * command, so a part knows its time from its first bytes.  Each part is
 * read by a vcd_text of its own over its byte range of the file (pread),
 * with the header's code tables shared (read only) and bit values of its
 * own that start unknown, so that a bit's first change in a part is always
 * delivered (vcd.h says what the sink does with it).  A part that meets
 * anything that needs the file order ($dumpoff/$dumpon, an error, a
 * $comment or $dumpvars block cut by a part's edge, which then fails as a
 * truncated section or a stray $end) or times that decrease across an
 * edge makes the whole read fall back to one thread, which gives the
 * messages of that reading exactly.  Read in batches (vcd.h), the parts
 * are smaller and read a batch at a time, in file order. */
#include <fcntl.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/mem.h"
#include "util/parts.h"
#include "vcd/vcd_int.h"

#define VCD_PART_MIN ((size_t)8 << 20) /* bytes of changes a part holds at least */
#define VCD_BATCH_PART_MIN ((size_t)1 << 20) /* the same, read in batches */
#define VCD_PARTS_PER_THREAD 4         /* parts shared out a thread: evens the load */
#define VCD_MAX_PARTS 4096
#define VCD_BATCH_MAX_PARTS ((uint32_t)1 << 20) /* read in batches, parts are not all held */
#define VCD_WINDOW 65536               /* bytes read at once looking for a part's start */

typedef struct vcd_part {
    uint64_t begin, end;  /* its bytes in the file */
    int64_t first_ticks;  /* the time it starts with (part 0: 0; -1: not a number) */
    int64_t last_ticks;   /* the time after its last command */
    bool ok;
} vcd_part;

typedef struct vcd_parts {
    const vcd_text *head; /* the header's reader: its tables, scale and sink */
    int fd;
    vcd_part *part;
    uint32_t n;
    uint32_t stop;              /* the end of the batch being read */
    _Atomic uint32_t next;      /* the next part to hand out */
    _Atomic uint64_t bytes_read;
    atomic_bool failed;
    int64_t span_from_fs, span_to_fs; /* the changes' times kept (vcd_part_input's) */
} vcd_parts;

gp_status vcd_part_forward(void *ctx, int64_t time_fs, const vcd_change *c, size_t n)
{
    const vcd_part_sink *ps = ctx;
    if (time_fs < ps->from_fs || time_fs >= ps->to_fs)
        return GP_OK;
    return ps->sink->part_changes(ps->sink->ctx, ps->part, time_fs, c, n);
}

/* The first of times[0..n) (not decreasing) at or after t. */
static size_t vcd_first_time_at(const int64_t *times, size_t n, int64_t t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (times[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

gp_status vcd_part_forward_times(void *ctx, uint32_t part, const int64_t *time_fs, size_t n)
{
    vcd_part_sink *ps = ctx;
    (void)part;
    ps->tix_from = vcd_first_time_at(time_fs, n, ps->from_fs);
    ps->tix_to = vcd_first_time_at(time_fs, n, ps->to_fs);
    return ps->sink->part_times(ps->sink->ctx, ps->part, time_fs, n);
}

/* The run's changes at times inside the span go on: a run is in time
 * order, so they are one piece of it. */
gp_status vcd_part_forward_run(void *ctx, uint32_t part, uint32_t id, uint32_t bit,
                               const uint32_t *change, size_t n)
{
    const vcd_part_sink *ps = ctx;
    size_t first = 0, end = n;
    (void)part;
    while (first < end && change[first] >> 2 < ps->tix_from)
        first++;
    while (end > first && change[end - 1] >> 2 >= ps->tix_to)
        end--;
    return end > first ? ps->sink->part_run(ps->sink->ctx, ps->part, id, bit, change + first,
                                            end - first)
                       : GP_OK;
}

int64_t vcd_parse_ticks(const char *p, size_t n)
{
    int64_t t = 0;
    size_t i = 1;
    for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
        if (t > (INT64_MAX - 9) / 10)
            return -1;
        t = t * 10 + (p[i] - '0');
    }
    return i > 1 && i < n && vcd_is_space((unsigned char)p[i]) ? t : -1;
}

bool vcd_part_reader_init(vcd_part_reader *pr, const vcd_text *head)
{
    memset(pr, 0, sizeof *pr);
    pr->head = head;
    pr->d = diag_new(NULL);
    pr->w.cap = 1;
    pr->w.buf = mem_alloc(1);
    pr->w.st.vals = mem_alloc(head->st.vals_len ? head->st.vals_len : 1);
    pr->w.st.batch = mem_alloc(VCD_BATCH * sizeof *pr->w.st.batch);
    return pr->d && pr->w.buf && pr->w.st.vals && pr->w.st.batch;
}

void vcd_part_reader_free(vcd_part_reader *pr)
{
    mem_free(pr->w.buf);
    mem_free(pr->w.st.vals);
    mem_free(pr->w.st.batch);
    diag_free(pr->d);
}

/* The part's reader: a copy of the header's reader, sharing its tables,
 * with the input, the bit values, the batch and the diagnostics its own. */
static void vcd_part_setup(vcd_part_reader *pr, const vcd_part_input *in, const vcd_sink *sink)
{
    vcd_text *w = &pr->w;
    const vcd_text *head = pr->head;
    char *buf = w->buf;
    size_t cap = w->cap;
    uint8_t *vals = w->st.vals;
    vcd_change *batch = w->st.batch;
    *w = *head; /* the tables are only read; vcd_part_reader_free frees none of them */
    w->f = NULL;
    w->bar = NULL;
    w->from_fd = in->text == NULL;
    w->fd = in->fd;
    w->fd_pos = in->begin;
    w->fd_end = in->end;
    w->mem = in->text;
    w->mem_len = in->text ? (size_t)(in->end - in->begin) : 0;
    w->mem_pos = 0;
    w->buf = buf;
    w->cap = cap;
    w->buf[0] = '\0';
    w->pos = w->len = 0;
    w->eof = false;
    w->last_byte = '\n';
    w->base = in->begin;
    w->counted = 0;
    w->line = 1;
    w->line_start = in->begin;
    w->scratch = (vec_char){0};
    w->ticks = 0;
    w->block = NULL;
    w->st = (vcd_state){.d = pr->d, .sink = sink, .file = head->st.file, .vals = vals,
                        .vals_len = head->st.vals_len, .batch = batch, .in_part = true};
    memset(vals, VCD_UNSEEN, w->st.vals_len);
}

bool vcd_part_read(vcd_part_reader *pr, uint32_t part, const vcd_part_input *in,
                   int64_t *last_ticks)
{
    vcd_part_sink fwd = {pr->head->st.sink, part, in->from_fs, in->to_fs, 0, 0};
    vcd_sink sink = {.ctx = &fwd, .changes = vcd_part_forward};
    vcd_part_setup(pr, in, &sink);
    gp_status st = vcd_text_refill(&pr->w);
    if (st == GP_OK)
        st = vcd_text_changes(&pr->w);
    *last_ticks = pr->w.ticks;
    return st == GP_OK && diag_error_count(pr->d) == 0;
}

/* The offset of the first '#' at or after `from` that starts a line, and
 * the time it gives; `size` when there is none. */
static uint64_t vcd_next_time_line(int fd, uint64_t from, uint64_t size, int64_t *ticks)
{
    static const size_t digits = 24; /* kept past a window's end: "#" and a time */
    char win[VCD_WINDOW];
    for (uint64_t at = from - 1; at < size; at += VCD_WINDOW - 1 - digits) {
        ssize_t got = pread(fd, win, sizeof win, (off_t)at);
        if (got <= 1)
            return size;
        for (ssize_t i = 1; i < got; i++) {
            if (win[i] != '#' || win[i - 1] != '\n')
                continue;
            if ((size_t)(got - i) <= digits && at + (uint64_t)got < size)
                break; /* the time may go on past the window: read on from here */
            *ticks = vcd_parse_ticks(win + i, (size_t)(got - i));
            return at + (uint64_t)i;
        }
    }
    return size;
}

/* Bytes searched from a file's end for its last time command. */
#define VCD_TAIL_MAX ((uint64_t)16 * VCD_WINDOW)

int64_t vcd_last_ticks(const char *path)
{
    int fd = open(path, O_RDONLY);
    struct stat sb;
    int64_t ticks = -1;
    if (fd < 0 || fstat(fd, &sb) != 0 || sb.st_size < 2) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    uint64_t size = (uint64_t)sb.st_size;
    char win[VCD_WINDOW];
    /* Windows overlap by 32 bytes, so a "\n#time " cut by one is whole in
     * the one before. */
    for (uint64_t end = size; ticks < 0 && end > 0 && size - end < VCD_TAIL_MAX;
         end = end > VCD_WINDOW - 32 ? end - (VCD_WINDOW - 32) : 0) {
        uint64_t at = end > VCD_WINDOW ? end - VCD_WINDOW : 0;
        ssize_t got = pread(fd, win, (size_t)(end - at), (off_t)at);
        if (got <= 1)
            break;
        for (ssize_t i = got - 1; i > 0 && ticks < 0; i--)
            if (win[i] == '#' && win[i - 1] == '\n')
                ticks = vcd_parse_ticks(win + i, (size_t)(got - i));
    }
    close(fd);
    return ticks;
}

/* Where part k of `want` starts, in units of the body: the last `small`
 * parts a quarter of the others' size. */
static uint64_t vcd_part_units(uint32_t k, uint32_t want, uint32_t small)
{
    uint32_t large = want - small;
    return k <= large ? 4 * (uint64_t)k : 4 * (uint64_t)large + (k - large);
}

/* Cuts [begin, size) into at most `want` parts (false: out of memory).
 * The threads take parts as they finish them: the last, for as many
 * threads, are smaller, so that they end closer together. */
static bool vcd_parts_plan(vcd_parts *ps, uint64_t begin, uint64_t size, uint32_t want,
                           uint32_t threads)
{
    ps->part = mem_calloc(want, sizeof *ps->part);
    if (!ps->part)
        return false;
    uint32_t small = threads > 1 && want >= 2 * threads ? threads : 0;
    uint64_t units = vcd_part_units(want, want, small);
    ps->part[0] = (vcd_part){.begin = begin, .first_ticks = 0};
    ps->n = 1;
    uint64_t at = begin;
    for (uint32_t k = 1; k < want; k++) {
        uint64_t target = begin + (size - begin) * vcd_part_units(k, want, small) / units;
        int64_t ticks = -1;
        at = vcd_next_time_line(ps->fd, target > at ? target : at + 1, size, &ticks);
        if (at >= size)
            break;
        ps->part[ps->n - 1].end = at;
        ps->part[ps->n++] = (vcd_part){.begin = at, .first_ticks = ticks};
    }
    ps->part[ps->n - 1].end = size;
    return true;
}

/* A thread: reads the parts it is handed until none is left or one failed.
 * Thread 0, the caller's, keeps the progress bar. */
static void vcd_parts_thread(void *ctx, uint32_t thread, uint32_t threads)
{
    (void)threads;
    vcd_parts *ps = ctx;
    vcd_part_reader pr;
    if (!vcd_part_reader_init(&pr, ps->head))
        atomic_store(&ps->failed, true);
    while (!atomic_load(&ps->failed)) {
        uint32_t k = atomic_fetch_add(&ps->next, 1);
        if (k >= ps->stop)
            break;
        vcd_part *part = &ps->part[k];
        vcd_part_input in = {.fd = ps->fd, .begin = part->begin, .end = part->end,
                             .from_fs = ps->span_from_fs, .to_fs = ps->span_to_fs};
        part->ok = vcd_part_read(&pr, k, &in, &part->last_ticks);
        if (!part->ok)
            atomic_store(&ps->failed, true);
        uint64_t done = atomic_fetch_add(&ps->bytes_read, part->end - part->begin);
        if (thread == 0 && ps->head->bar)
            progress_update(ps->head->bar, ps->part[0].begin + done);
    }
    vcd_part_reader_free(&pr);
}

/* Whether parts [from, to) read as one reading would: each read whole, and
 * no part's first time before the time its predecessor ended at. */
static bool vcd_parts_agree(const vcd_parts *ps, uint32_t from, uint32_t to)
{
    if (atomic_load(&ps->failed))
        return false;
    for (uint32_t k = from; k < to; k++)
        if (!ps->part[k].ok ||
            (k > 0 && ps->part[k].first_ticks < ps->part[k - 1].last_ticks))
            return false;
    return true;
}

/* The end of a read whose parts agree: as vcd_text_changes ends (a file
 * cut inside its last line failed its last part, and is read in file
 * order for its error). */
static gp_status vcd_parts_finish(vcd_parts *ps)
{
    const vcd_sink *sink = ps->head->st.sink;
    int64_t end_fs = ps->part[ps->n - 1].last_ticks * ps->head->scale;
    return sink->finish ? sink->finish(sink->ctx, end_fs) : GP_OK;
}

/* The parts for a body of `bytes` on `threads` threads (0 or 1 when they
 * would not pay); read in batches of `batch` bytes (0: one batch), each
 * batch holds a part per thread at least.  One thread reads parts too,
 * one after the other, where the body is one batch: a part's one-bit
 * changes go on unchecked (the store drops repeats), where the reading in
 * file order compares each with the bit's value kept; but only the
 * reading in file order can end a window between any two times. */
static uint32_t vcd_parts_wanted(const vcd_options *opt, uint32_t threads, uint64_t bytes,
                                 size_t batch)
{
    if (threads < 2 && batch && bytes > batch)
        return 1;
    size_t min = opt && opt->part_size ? opt->part_size : batch ? VCD_BATCH_PART_MIN : VCD_PART_MIN;
    uint64_t by_size = bytes / min, want = (uint64_t)threads * VCD_PARTS_PER_THREAD;
    uint64_t by_batch = batch ? bytes / (batch / threads + 1) : 0;
    want = want > by_batch ? want : by_batch;
    want = want < by_size ? want : by_size;
    uint32_t most = batch ? VCD_BATCH_MAX_PARTS : VCD_MAX_PARTS;
    return want < most ? (uint32_t)want : most;
}

/* The end of the batch that starts at part `from`: parts of `batch` bytes
 * in all, one at least (batch 0: every part). */
static uint32_t vcd_parts_batch_end(const vcd_parts *ps, uint32_t from, size_t batch)
{
    uint32_t to = from + 1;
    for (uint64_t bytes = ps->part[from].end - ps->part[from].begin; batch && to < ps->n;
         to++) {
        bytes += ps->part[to].end - ps->part[to].begin;
        if (bytes > batch)
            break;
    }
    return batch ? to : ps->n;
}

/* Reads the parts once planned, a batch at a time; false when the read
 * must run in file order or the sink stopped it (*st says which). */
static bool vcd_parts_run(vcd_parts *ps, uint32_t threads, size_t batch, gp_status *st)
{
    const vcd_sink *sink = ps->head->st.sink;
    for (uint32_t from = 0, to; from < ps->n; from = to) {
        to = vcd_parts_batch_end(ps, from, batch);
        if ((*st = sink->parts(sink->ctx, to)) != GP_OK)
            return false;
        atomic_store(&ps->next, from);
        ps->stop = to;
        parts_run(vcd_parts_thread, ps, threads < to - from ? threads : to - from);
        if (!vcd_parts_agree(ps, from, to)) {
            *st = sink->parts(sink->ctx, 0);
            return false;
        }
        int64_t complete_fs = ps->part[to - 1].last_ticks * ps->head->scale;
        if (to < ps->n && (*st = sink->parts_done(sink->ctx, to, complete_fs)) != GP_OK)
            return false;
    }
    return true;
}

/* The first time `ticks` or later that a file of `scale` fs per tick can
 * give to a time of `fs` (0 or later). */
static int64_t vcd_ticks_at(int64_t fs, int64_t scale)
{
    return fs <= 0 ? 0 : fs / scale + (fs % scale != 0);
}

/* Into *at: the first time command in [begin, size) of `ticks` or later
 * (size: none), by binary search over the file, whose times never
 * decrease; false at a time command that is not a number. */
static bool vcd_span_offset(int fd, uint64_t begin, uint64_t size, int64_t ticks, uint64_t *at)
{
    uint64_t lo = begin, hi = size;
    int64_t t = -1;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        uint64_t line = vcd_next_time_line(fd, mid, size, &t);
        if (line < size && t < 0)
            return false;
        if (line < size && t < ticks)
            lo = line + 1;
        else
            hi = mid;
    }
    *at = vcd_next_time_line(fd, lo, size, &t);
    return *at >= size || t >= 0;
}

/* Into *at: the last time command at a line's start before `before` in
 * [begin, before), or begin when there is none. */
static void vcd_line_before(int fd, uint64_t begin, uint64_t before, uint64_t *at)
{
    uint64_t lo = begin, hi = before;
    int64_t t;
    *at = begin;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        uint64_t line = vcd_next_time_line(fd, mid, before, &t);
        if (line < before) {
            *at = line;
            lo = line + 1;
        } else {
            hi = mid;
        }
    }
}

/* Reads only the span's changes (vcd_options.span), in one part at least,
 * when the sink agrees (*st its status, *done as vcd_parts_read's); false
 * when it does not: the whole body is read then. */
static bool vcd_parts_span(vcd_parts *ps, const vcd_options *opt, uint32_t threads,
                           uint64_t begin, uint64_t size, gp_status *st, bool *done)
{
    const vcd_sink *sink = ps->head->st.sink;
    int64_t scale = ps->head->scale;
    uint64_t first = begin, from = begin, to = size;
    if (opt->span_from_fs != INT64_MIN &&
        !vcd_span_offset(ps->fd, begin, size, vcd_ticks_at(opt->span_from_fs, scale), &first))
        return false;
    if (opt->span_to_fs != INT64_MAX &&
        !vcd_span_offset(ps->fd, first, size, vcd_ticks_at(opt->span_to_fs, scale), &to))
        return false;
    /* A time command inside a line (after a change) is no part's start:
     * the span's first changes may follow one before `first`. */
    if (opt->span_from_fs != INT64_MIN)
        vcd_line_before(ps->fd, begin, first, &from);
    if (!sink->span(sink->ctx, opt->span_from_fs, to - from))
        return false;
    ps->span_from_fs = opt->span_from_fs;
    ps->span_to_fs = opt->span_to_fs;
    if (from == to) { /* no change in the span */
        *done = true;
        int64_t end_fs = opt->span_from_fs > 0 ? opt->span_from_fs : 0;
        *st = sink->finish ? sink->finish(sink->ctx, end_fs) : GP_OK;
        return true;
    }
    size_t batch = sink->parts_done ? opt->batch_bytes : 0;
    uint32_t want = vcd_parts_wanted(opt, threads, to - from, batch);
    if (!vcd_parts_plan(ps, from, to, want ? want : 1, threads))
        *st = sink->parts(sink->ctx, 0); /* read in file order, which reports it */
    else if (vcd_parts_run(ps, threads, batch, st))
        *done = true, *st = vcd_parts_finish(ps);
    return true;
}

gp_status vcd_parts_read(vcd_text *r, const char *path, const vcd_options *opt, bool *done)
{
    *done = false;
    const vcd_sink *sink = r->st.sink;
    uint32_t threads = parts_threads(opt ? opt->threads : 0);
    bool span = opt && opt->span && sink->span && !infile_is_gzip(r->f);
    /* a gzip file's inflating takes a thread of its own */
    if (!sink->parts || !sink->part_changes || (threads < 2 && infile_is_gzip(r->f)))
        return GP_OK;
    if (infile_is_gzip(r->f))
        return vcd_stream_read(r, path, opt, threads, done);
    vcd_parts ps = {.head = r, .fd = open(path, O_RDONLY | O_CLOEXEC),
                    .span_from_fs = INT64_MIN, .span_to_fs = INT64_MAX};
    atomic_init(&ps.next, 0);
    atomic_init(&ps.bytes_read, 0);
    atomic_init(&ps.failed, false);
    struct stat sb;
    uint64_t begin = r->base + r->pos;
    gp_status st = GP_OK;
    if (ps.fd >= 0 && fstat(ps.fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
        (uint64_t)sb.st_size > begin) {
        uint64_t size = (uint64_t)sb.st_size;
        size_t batch = sink->parts_done && opt ? opt->batch_bytes : 0;
        uint32_t want = vcd_parts_wanted(opt, threads, size - begin, batch);
        /* a span the sink refuses: the whole body, in parts as without one */
        bool spanned = span && vcd_parts_span(&ps, opt, threads, begin, size, &st, done);
        if (!spanned && want > 1 && vcd_parts_plan(&ps, begin, size, want, threads) && ps.n > 1 &&
            vcd_parts_run(&ps, threads, batch, &st))
            *done = true, st = vcd_parts_finish(&ps);
    }
    mem_free(ps.part);
    if (ps.fd >= 0)
        close(ps.fd);
    return st;
}
