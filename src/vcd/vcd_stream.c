/* vcd_stream.c: a gzip VCD's value changes read on several threads.  The
 * calling thread decompresses the file (one gzip stream: one thread) and
 * cuts the text into parts at lines that start with '#'; the other threads
 * read the parts as they come, as the parts of a plain file are read
 * (vcd_part_read).  The rate is then the decompression's.
 *
 * The stream is read through an infile of its own whose messages go
 * nowhere, so that when the parts fall back (vcd.h: a failed part, times
 * that decrease across an edge, a file that does not end with a newline,
 * a damaged gzip stream) the header's reader, untouched, reads the changes
 * in file order and gives the messages of that reading.  Read in batches
 * (vcd.h), the producer waits for the parts cut so far once they hold a
 * batch, and hands them to the sink before it goes on. */
#include <pthread.h>
#include <string.h>

#include "util/mem.h"
#include "util/parts.h"
#include "vcd/vcd_int.h"

#define VCD_STREAM_MIN ((size_t)8 << 20) /* bytes a part holds at least */
#define VCD_STREAM_BATCH_MIN ((size_t)1 << 20) /* the same, read in batches */
#define VCD_STREAM_SHARE 64              /* and at least this share of the text before it */
#define VCD_STREAM_MAX_PARTS 4096
#define VCD_STREAM_QUEUE 4               /* parts waiting for a reading thread */
#define VCD_STREAM_ANNOUNCE 64           /* parts announced to the sink at first */

typedef struct vcd_piece {
    char *text;
    size_t len;
    uint32_t part;
} vcd_piece;

typedef struct vcd_stream {
    vcd_text *head;
    size_t part_min;
    size_t batch;            /* bytes of text a batch holds (0: one batch) */
    gp_status sink_status;   /* what the sink's parts_done returned, when not GP_OK */
    pthread_mutex_t lock;
    pthread_cond_t changed;  /* a part queued, taken or read; the end */
    vcd_piece queue[VCD_STREAM_QUEUE];
    uint32_t q_first, q_len;
    uint32_t busy;           /* parts being read */
    bool closed, failed;
    uint32_t n, announced;   /* parts cut; parts the sink was told of */
    int64_t first_ticks[VCD_STREAM_MAX_PARTS], last_ticks[VCD_STREAM_MAX_PARTS];
    char last_byte;          /* the stream's last byte */
} vcd_stream;

/* Takes the oldest queued part (lock held); false when there is none. */
static bool vcd_stream_pop(vcd_stream *s, vcd_piece *out)
{
    if (s->q_len == 0)
        return false;
    *out = s->queue[s->q_first];
    s->q_first = (s->q_first + 1) % VCD_STREAM_QUEUE;
    s->q_len--;
    s->busy++;
    return true;
}

/* Reads a popped part (lock not held) and records how it went. */
static void vcd_stream_read_piece(vcd_stream *s, vcd_part_reader *pr, vcd_piece *pc)
{
    vcd_part_input in = {.fd = -1, .text = pc->text, .begin = 0, .end = pc->len,
                         .from_fs = INT64_MIN, .to_fs = INT64_MAX};
    int64_t last = 0;
    bool ok = pr && vcd_part_read(pr, pc->part, &in, &last);
    mem_free(pc->text);
    pthread_mutex_lock(&s->lock);
    s->last_ticks[pc->part] = last;
    s->failed |= !ok;
    s->busy--;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
}

/* A reading thread: parts until the stream is closed and drained. */
static void vcd_stream_reader(vcd_stream *s)
{
    vcd_part_reader pr;
    bool ready = vcd_part_reader_init(&pr, s->head);
    pthread_mutex_lock(&s->lock);
    s->failed |= !ready;
    for (;;) {
        vcd_piece pc;
        while (!s->failed && !s->closed && s->q_len == 0)
            pthread_cond_wait(&s->changed, &s->lock);
        if (s->failed || !vcd_stream_pop(s, &pc))
            break;
        pthread_mutex_unlock(&s->lock);
        vcd_stream_read_piece(s, &pr, &pc);
        pthread_mutex_lock(&s->lock);
    }
    pthread_mutex_unlock(&s->lock);
    vcd_part_reader_free(&pr);
}

/* The producer's reader, for the parts it reads itself when the queue is
 * full (so that it never waits on threads the system may have refused). */
typedef struct vcd_producer {
    vcd_stream *s;
    infile *f;
    vcd_part_reader pr;
    bool pr_ready;
    char *carry;   /* text read past the last part's end */
    size_t carry_len;
    uint64_t text_read;
    uint64_t batch_read; /* text cut into parts since the last batch */
    bool eof;
} vcd_producer;

/* Reads the queued parts on the producer until fewer than `keep` wait,
 * then waits until no part is being read if `drain`; whether a part
 * failed (read under the lock: the readers set it). */
static bool vcd_stream_help(vcd_producer *p, uint32_t keep, bool drain)
{
    vcd_stream *s = p->s;
    pthread_mutex_lock(&s->lock);
    vcd_piece pc;
    while (!s->failed && s->q_len >= keep && s->q_len > 0 && vcd_stream_pop(s, &pc)) {
        pthread_mutex_unlock(&s->lock);
        vcd_stream_read_piece(s, p->pr_ready ? &p->pr : NULL, &pc);
        pthread_mutex_lock(&s->lock);
    }
    while (drain && s->busy > 0)
        pthread_cond_wait(&s->changed, &s->lock);
    bool failed = s->failed;
    pthread_mutex_unlock(&s->lock);
    return failed;
}

/* Where a part cut from text[0..len) ends: at the last line that starts
 * with '#' (0 if none). */
static size_t vcd_stream_cut(const char *text, size_t len)
{
    for (size_t i = len; i-- > 1;)
        if (text[i] == '#' && text[i - 1] == '\n')
            return i;
    return 0;
}

/* The next part's text: at least `want` bytes and up to a time line, or
 * the rest of the stream; false on a read error. */
static bool vcd_stream_next_text(vcd_producer *p, size_t want, char **text, size_t *len)
{
    size_t cap = want + p->carry_len + 1, n = p->carry_len;
    char *buf = mem_alloc(cap);
    if (!buf)
        return false;
    memcpy(buf, p->carry, n);
    size_t cut = 0;
    while (!p->eof && (n < want || (cut = vcd_stream_cut(buf, n)) == 0)) {
        if (n + 1 >= cap) {
            char *grown = mem_realloc(buf, 2 * cap);
            if (!grown)
                break;
            buf = grown;
            cap *= 2;
        }
        size_t got = 0;
        if (infile_read(p->f, buf + n, cap - 1 - n, &got) != GP_OK) {
            mem_free(buf);
            return false;
        }
        p->eof = got == 0;
        n += got;
    }
    if (p->eof)
        cut = n;
    mem_free(p->carry);
    p->carry_len = n - cut;
    p->carry = mem_alloc(p->carry_len ? p->carry_len : 1);
    if (!p->carry) {
        mem_free(buf);
        return false;
    }
    memcpy(p->carry, buf + cut, p->carry_len);
    *text = buf;
    *len = cut;
    return true;
}

/* Tells the sink of more parts, once no thread is in it. */
static bool vcd_stream_announce(vcd_producer *p)
{
    vcd_stream *s = p->s;
    bool failed = vcd_stream_help(p, 1, true);
    uint32_t more = s->announced ? 2 * s->announced : VCD_STREAM_ANNOUNCE;
    more = more < VCD_STREAM_MAX_PARTS ? more : VCD_STREAM_MAX_PARTS;
    const vcd_sink *sink = s->head->st.sink;
    if (failed || sink->parts(sink->ctx, more) != GP_OK)
        return false;
    s->announced = more;
    return true;
}

/* Whether the parts cut so far, all read, read as one reading would: no
 * part's first time before the time its predecessor ended at. */
static bool vcd_stream_times_agree(const vcd_stream *s)
{
    for (uint32_t k = 1; k < s->n; k++)
        if (s->first_ticks[k] < s->last_ticks[k - 1])
            return false;
    return true;
}

/* Ends a batch once the parts cut since the last hold one: they are read,
 * then handed to the sink; false when they disagree or the sink stops. */
static bool vcd_stream_batch(vcd_producer *p)
{
    vcd_stream *s = p->s;
    const vcd_sink *sink = s->head->st.sink;
    if (!s->batch || p->batch_read < s->batch || p->eof)
        return true;
    p->batch_read = 0;
    if (vcd_stream_help(p, 1, true) || !vcd_stream_times_agree(s))
        return false;
    s->sink_status = sink->parts_done(sink->ctx, s->n, s->last_ticks[s->n - 1] * s->head->scale);
    return s->sink_status == GP_OK;
}

/* The size the next part aims at: a share of the text so far, within a
 * batch's share of a thread. */
static size_t vcd_stream_part_want(const vcd_producer *p, uint32_t threads)
{
    const vcd_stream *s = p->s;
    size_t want = p->text_read / VCD_STREAM_SHARE;
    size_t most = s->batch ? s->batch / threads : SIZE_MAX;
    want = want < most ? want : most;
    return want > s->part_min ? want : s->part_min;
}

/* Cuts and queues one part; false at the end or on failure. */
static bool vcd_stream_produce(vcd_producer *p, uint32_t threads)
{
    vcd_stream *s = p->s;
    size_t want = vcd_stream_part_want(p, threads);
    char *text;
    size_t len;
    if (s->n == s->announced && (s->n == VCD_STREAM_MAX_PARTS || !vcd_stream_announce(p)))
        return false;
    if (!vcd_stream_next_text(p, want, &text, &len))
        return false;
    if (len == 0) {
        mem_free(text);
        return false;
    }
    p->text_read += len;
    p->batch_read += len;
    s->last_byte = text[len - 1];
    uint32_t k = s->n++;
    s->first_ticks[k] = k == 0 ? 0 : vcd_parse_ticks(text, len);
    vcd_stream_help(p, VCD_STREAM_QUEUE, false);
    pthread_mutex_lock(&s->lock);
    if (s->failed) { /* the queue may be full: nothing reads it any more */
        pthread_mutex_unlock(&s->lock);
        mem_free(text);
        return false;
    }
    s->queue[(s->q_first + s->q_len++) % VCD_STREAM_QUEUE] = (vcd_piece){text, len, k};
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    if (s->head->bar)
        progress_update(s->head->bar, infile_raw_pos(p->f));
    return !p->eof && vcd_stream_batch(p);
}

/* Opens the stream at the value changes' start: the header read again,
 * silently. */
static bool vcd_producer_open(vcd_producer *p, const char *path, diag_ctx *quiet,
                              uint64_t body)
{
    if (infile_open(path, quiet, &p->f) != GP_OK)
        return false;
    p->carry = mem_alloc(1);
    for (uint64_t skipped = 0; p->carry && skipped < body;) {
        char skip[65536];
        size_t want = body - skipped < sizeof skip ? (size_t)(body - skipped) : sizeof skip, got;
        if (infile_read(p->f, skip, want, &got) != GP_OK || got == 0)
            return false;
        skipped += got;
    }
    p->pr_ready = vcd_part_reader_init(&p->pr, p->s->head);
    return p->carry && p->pr_ready;
}

typedef struct vcd_stream_run {
    vcd_stream *s;
    const char *path;
    uint64_t body;
} vcd_stream_run;

/* After a failure: the parts still queued, which no thread reads now. */
static void vcd_stream_discard(vcd_stream *s)
{
    pthread_mutex_lock(&s->lock);
    for (vcd_piece pc; vcd_stream_pop(s, &pc);) {
        mem_free(pc.text);
        s->busy--;
    }
    pthread_mutex_unlock(&s->lock);
}

/* Thread 0 produces; the others read. */
static void vcd_stream_thread(void *ctx, uint32_t thread, uint32_t threads)
{
    vcd_stream_run *run = ctx;
    vcd_stream *s = run->s;
    if (thread > 0) {
        vcd_stream_reader(s);
        return;
    }
    diag_ctx *quiet = diag_new(NULL);
    vcd_producer p = {.s = s};
    bool ok = quiet && vcd_producer_open(&p, run->path, quiet, run->body);
    while (ok && vcd_stream_produce(&p, threads)) {
    }
    pthread_mutex_lock(&s->lock);
    s->failed |= !ok || !p.eof;
    s->closed = true;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    vcd_stream_help(&p, 1, true);
    vcd_stream_discard(s);
    if (p.pr_ready)
        vcd_part_reader_free(&p.pr);
    mem_free(p.carry);
    infile_close(p.f);
    diag_free(quiet);
}

/* Whether the parts read as one reading would, ending with a newline as
 * that reading would not warn about. */
static bool vcd_stream_agree(const vcd_stream *s)
{
    return !s->failed && s->n > 0 && s->last_byte == '\n' && vcd_stream_times_agree(s);
}

/* After a read the sink did not stop: its end, or the parts dropped for
 * the reading in file order. */
static gp_status vcd_stream_end(const vcd_stream *s, bool *done)
{
    const vcd_sink *sink = s->head->st.sink;
    if (vcd_stream_agree(s)) {
        *done = true;
        int64_t end_fs = s->last_ticks[s->n - 1] * s->head->scale;
        return sink->finish ? sink->finish(sink->ctx, end_fs) : GP_OK;
    }
    return s->announced > 0 ? sink->parts(sink->ctx, 0) : GP_OK;
}

gp_status vcd_stream_read(vcd_text *r, const char *path, const vcd_options *opt, uint32_t threads,
                          bool *done)
{
    vcd_stream *s = mem_calloc(1, sizeof *s);
    if (!s)
        return GP_OK; /* read in file order, which reports a lack of memory */
    s->head = r;
    s->batch = r->st.sink->parts_done && opt ? opt->batch_bytes : 0;
    s->part_min = opt && opt->part_size ? opt->part_size
                  : s->batch                ? VCD_STREAM_BATCH_MIN
                                            : VCD_STREAM_MIN;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->changed, NULL);
    vcd_stream_run run = {s, path, r->base + r->pos};
    parts_run(vcd_stream_thread, &run, threads);
    gp_status st = s->sink_status == GP_OK ? vcd_stream_end(s, done) : s->sink_status;
    pthread_cond_destroy(&s->changed);
    pthread_mutex_destroy(&s->lock);
    mem_free(s);
    return st;
}
