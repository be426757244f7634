/* fst_parts.c: an FST file's value changes read on several threads.  A
 * part is one group of handles of one value-change block: part k is block
 * k / groups, group k % groups, so a net's changes come in part order.
 * Each block's index (its times, where each chain lies) is built once, on
 * the threads, before its parts are decoded.  The blocks are read a batch
 * at a time when the sink takes them in batches (vcd.h), whole blocks a
 * batch.  A part's first change of a bit is always delivered and the
 * sink drops it when it repeats the bit's value (vcd.h), so a part needs
 * nothing of the blocks before it.  A file with dump on/off changes is
 * read in file order; a part that fails makes the whole read go back to
 * it, for its messages.  A span of time (vcd_options.span) reads only
 * the blocks whose times meet it, and only their changes inside it.  A
 * sink that takes runs (vcd_sink.part_run) gets the parts so. */
#include "vcd/fst_reader.h"

#ifdef GATEPOWER_HAVE_FST
#include <stdatomic.h>
#include <string.h>

#include "vcd/fst_int.h"
#include "util/mem.h"
#include "util/parts.h"

#define FST_PARTS_PER_THREAD 4
#define FST_TEXT_PER_BYTE 8 /* a batch's bytes count as VCD text: FST packs about this much */
#define FST_MAX_GROUPS 64   /* handle groups a block is cut into, at most */

typedef struct fst_parts {
    const fst_reader *head;
    uint32_t groups;
    uint32_t base, end;     /* the blocks read: all, or a span's; parts count from base */
    int64_t from_fs, to_fs; /* the changes' times kept */
    bool span;              /* the sink took the span (vcd_sink.span) */
    uint32_t first, stop;   /* the batch's blocks */
    fst_block_index *index; /* per block of the batch */
    _Atomic uint32_t next;  /* the next block or part to hand out */
    atomic_bool failed;
    _Atomic uint64_t bytes_done; /* of the blocks, a part's share of its block each */
} fst_parts;

/* A thread's reader: the head's delivered slots (read only), its own bit
 * values and batch, and messages that go nowhere. */
static bool part_reader_open(fst_reader *w, const fst_reader *head)
{
    *w = (fst_reader){.ff = head->ff, .loc = head->loc, .scale = head->scale};
    w->st = (vcd_state){.d = diag_new(NULL), .file = head->st.file, .slots = head->st.slots,
                        .slot_count = head->st.slot_count, .vals_len = head->st.vals_len,
                        .in_part = true};
    w->st.vals = mem_alloc(w->st.vals_len ? w->st.vals_len : 1);
    w->st.batch = mem_alloc(VCD_BATCH * sizeof *w->st.batch);
    return w->st.d && w->st.vals && w->st.batch;
}

static void part_reader_close(fst_reader *w)
{
    mem_free(w->st.vals);
    mem_free(w->st.batch);
    diag_free(w->st.d);
}

static void index_thread(void *ctx, uint32_t thread, uint32_t threads)
{
    (void)thread, (void)threads;
    fst_parts *ps = ctx;
    fst_reader w;
    if (!part_reader_open(&w, ps->head))
        atomic_store(&ps->failed, true);
    for (uint32_t k; !atomic_load(&ps->failed) && (k = atomic_fetch_add(&ps->next, 1)) <
                                                      ps->stop - ps->first;)
        if (fst_block_index_build(&w, ps->first + k, &ps->index[k]) != GP_OK)
            atomic_store(&ps->failed, true);
    part_reader_close(&w);
}

/* Decodes part k (of the batch's first block's parts on) with w. */
static bool part_run(fst_parts *ps, fst_reader *w, fst_decoder *dec, uint32_t k)
{
    uint32_t handles = ps->head->ff->handles, g = k % ps->groups;
    uint32_t lo = 1 + (uint32_t)((uint64_t)handles * g / ps->groups);
    uint32_t hi = 1 + (uint32_t)((uint64_t)handles * (g + 1) / ps->groups);
    vcd_part_sink fwd = {ps->head->st.sink, (ps->first - ps->base) * ps->groups + k, ps->from_fs,
                         ps->to_fs, 0, 0};
    vcd_sink sink = {.ctx = &fwd, .changes = vcd_part_forward};
    const vcd_sink *head = ps->head->st.sink;
    if (head->part_times && head->part_run) {
        sink.part_times = vcd_part_forward_times;
        sink.part_run = vcd_part_forward_run;
    }
    w->st.sink = &sink;
    w->st.batch_n = 0;
    w->st.time = 0;
    memset(w->st.vals, VCD_UNSEEN, w->st.vals_len);
    w->last_ticks = UINT64_MAX;
    gp_status st = fst_block_decode(w, &ps->index[k / ps->groups], lo, hi, dec);
    if (st == GP_OK)
        st = vcd_state_flush(&w->st);
    w->st.sink = NULL;
    return st == GP_OK && diag_error_count(w->st.d) == 0;
}

/* Thread 0, the caller's, keeps the progress bar. */
static void decode_thread(void *ctx, uint32_t thread, uint32_t threads)
{
    (void)threads;
    fst_parts *ps = ctx;
    fst_reader w;
    fst_decoder dec = {0};
    if (!part_reader_open(&w, ps->head))
        atomic_store(&ps->failed, true);
    uint32_t n = (ps->stop - ps->first) * ps->groups;
    for (uint32_t k; !atomic_load(&ps->failed) && (k = atomic_fetch_add(&ps->next, 1)) < n;) {
        if (!part_run(ps, &w, &dec, k))
            atomic_store(&ps->failed, true);
        const fst_block *b = &ps->head->ff->blocks.data[ps->first + k / ps->groups];
        uint64_t share = b->len / ps->groups;
        uint64_t done = atomic_fetch_add(&ps->bytes_done, share) + share;
        if (thread == 0 && ps->head->bar)
            progress_update(ps->head->bar, ps->head->ff->blocks.data[0].at + done);
    }
    fst_decoder_free(&dec);
    part_reader_close(&w);
}

/* Indexes and decodes blocks [first, stop) on `threads` threads. */
static bool run_batch(fst_parts *ps, uint32_t first, uint32_t stop, uint32_t threads)
{
    uint32_t blocks = stop - first, parts = blocks * ps->groups;
    ps->first = first;
    ps->stop = stop;
    ps->index = mem_calloc(blocks, sizeof *ps->index);
    if (!ps->index)
        return false;
    atomic_store(&ps->next, 0);
    parts_run(index_thread, ps, threads < blocks ? threads : blocks);
    atomic_store(&ps->next, 0);
    if (!atomic_load(&ps->failed))
        parts_run(decode_thread, ps, threads < parts ? threads : parts);
    for (uint32_t k = 0; k < blocks; k++)
        fst_block_index_free(&ps->index[k]);
    fst_file_done_with(ps->head->ff, first, stop);
    mem_free(ps->index);
    ps->index = NULL;
    return !atomic_load(&ps->failed);
}

/* The blocks from `first` that a batch of `batch` bytes of text holds: one
 * at least (0: all). */
static uint32_t batch_end(const fst_file *ff, uint32_t first, uint64_t batch)
{
    uint64_t text = 0;
    uint32_t k = first;
    while (k < ff->blocks.len && (!batch || k == first || text < batch))
        text += ff->blocks.data[k++].len * FST_TEXT_PER_BYTE;
    if (batch && text > batch && k > first + 1)
        k--; /* the last one went past the batch */
    return k;
}

/* The handle groups a block is cut into: enough for the threads' parts
 * when a batch holds fewer blocks, none past the handles. */
static uint32_t groups_wanted(const fst_file *ff, uint32_t threads, uint64_t batch)
{
    uint64_t want = (uint64_t)threads * FST_PARTS_PER_THREAD;
    uint64_t blocks = batch_end(ff, 0, batch);
    uint64_t groups = (want + blocks - 1) / blocks;
    groups = groups < FST_MAX_GROUPS ? groups : FST_MAX_GROUPS;
    return groups < ff->handles ? (uint32_t)(groups ? groups : 1) : ff->handles;
}

/* Reads the batches in turn; false when the read must run in file order
 * or the sink stopped it (*st says which). */
static bool run_batches(fst_parts *ps, uint32_t threads, uint64_t batch, gp_status *st)
{
    const fst_file *ff = ps->head->ff;
    const vcd_sink *sink = ps->head->st.sink;
    for (uint32_t first = ps->base, stop; first < ps->end; first = stop) {
        stop = batch_end(ff, first, batch);
        stop = stop < ps->end ? stop : ps->end;
        uint32_t parts = (stop - ps->base) * ps->groups;
        if ((*st = sink->parts(sink->ctx, parts)) != GP_OK)
            return false;
        if (!run_batch(ps, first, stop, threads)) {
            *st = sink->parts(sink->ctx, 0);
            return false;
        }
        int64_t complete_fs;
        if (stop < ps->end &&
            fst_ticks_fs(ps->head, ff->blocks.data[stop].begin, &complete_fs) &&
            (*st = sink->parts_done(sink->ctx, parts, complete_fs)) != GP_OK)
            return false;
    }
    return true;
}

/* A block's first and last times in fs (false: beyond 2^61 fs). */
static bool block_span(const fst_reader *f, const fst_block *b, int64_t *begin, int64_t *end)
{
    return fst_ticks_fs(f, b->begin, begin) && fst_ticks_fs(f, b->end, end);
}

/* Narrows ps to the blocks whose times meet the span, when the sink agrees
 * to read them alone; *end_fs becomes the last one's end.  False: the
 * whole file is read. */
static bool span_blocks(fst_parts *ps, const vcd_options *opt, int64_t *end_fs)
{
    const fst_reader *f = ps->head;
    const fst_file *ff = f->ff;
    uint32_t base = 0, end = (uint32_t)ff->blocks.len;
    int64_t begin_fs, last_fs;
    for (; base < end; base++)
        if (!block_span(f, &ff->blocks.data[base], &begin_fs, &last_fs))
            return false;
        else if (last_fs >= opt->span_from_fs)
            break;
    for (uint32_t k = base; k < end; k++) /* end falls to the first block after the span */
        if (!block_span(f, &ff->blocks.data[k], &begin_fs, &last_fs))
            return false;
        else if (begin_fs >= opt->span_to_fs)
            end = k; /* and the loop ends */
    uint64_t bytes = 0;
    for (uint32_t k = base; k < end; k++)
        bytes += ff->blocks.data[k].len * FST_TEXT_PER_BYTE;
    if (!f->st.sink->span(f->st.sink->ctx, opt->span_from_fs, bytes))
        return false;
    ps->span = true;
    ps->base = base;
    ps->end = end;
    ps->from_fs = opt->span_from_fs;
    ps->to_fs = opt->span_to_fs;
    if (end > base && end < ff->blocks.len)
        block_span(f, &ff->blocks.data[end - 1], &begin_fs, end_fs);
    return true;
}

gp_status fst_parts_read(fst_reader *f, const vcd_options *opt, bool *done)
{
    *done = false;
    const fst_file *ff = f->ff;
    const vcd_sink *sink = f->st.sink;
    uint32_t threads = parts_threads(opt ? opt->threads : 0);
    bool span = opt && opt->span && sink->span;
    int64_t end_fs;
    if (!sink->parts || !sink->part_changes || ff->n_activity > 0 || (threads < 2 && !span) ||
        ff->blocks.len == 0 || !fst_ticks_fs(f, ff->end, &end_fs))
        return GP_OK; /* the reading in file order reports a time beyond 2^61 fs */
    uint64_t batch = sink->parts_done && opt ? opt->batch_bytes : 0;
    fst_parts ps = {.head = f, .groups = groups_wanted(ff, threads, batch),
                    .end = (uint32_t)ff->blocks.len, .from_fs = INT64_MIN, .to_fs = INT64_MAX};
    if (span && !span_blocks(&ps, opt, &end_fs) && threads < 2)
        return GP_OK;
    atomic_init(&ps.next, 0);
    atomic_init(&ps.failed, false);
    atomic_init(&ps.bytes_done, 0);
    uint64_t parts = (ps.end - ps.base) * (uint64_t)ps.groups;
    if (parts > UINT32_MAX / 2) /* numbered in 32 bits, by the sink too */
        return ps.span ? sink->parts(sink->ctx, 0) : GP_OK;
    if (parts < 2 && !ps.span)
        return GP_OK;
    gp_status st = GP_OK;
    if (!run_batches(&ps, threads, batch, &st))
        return st;
    *done = true;
    return sink->finish ? sink->finish(sink->ctx, end_fs) : GP_OK;
}
#endif
