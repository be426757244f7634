/* fst_parts.c: an FST file's value changes read in time ranges on several
 * threads, each with an fstapi reader of its own limited to its ranges
 * (fstReaderSetLimitTimeRange).  fstapi reads whole value-change blocks:
 * a limited read starts at the block holding the range's start, with the
 * block's initial values, and hands over every change of the blocks it
 * reads, so a part leaves out what lies outside its range; what is left
 * are the changes of [from, to], and the sink's rule for a part's first
 * change of a bit (vcd.h) drops the block's initial values that repeat a
 * bit's value.  A file with dump on/off changes is read in file order; a
 * part that fails makes the whole read go back to it, for its messages.
 * A file of fewer blocks than the threads want parts has each time range
 * cut again into groups of handles (fstapi decodes only the handles of
 * its process mask): part k is range k / groups, group k % groups, so the
 * parts of one range follow each other and each net's changes stay in
 * part order.  Read in batches (vcd.h), the ranges are more and read a
 * batch of whole ranges at a time, in time order. */
#include "fst/fst_reader.h"

#ifdef GATEPOWER_HAVE_FST
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>

#include "fst/fst_int.h"
#include "util/mem.h"
#include "util/parts.h"

#define FST_PARTS_PER_THREAD 4
#define FST_TEXT_PER_BYTE 8 /* a batch's bytes count as VCD text: FST packs about this much */
#define FST_BATCH_MAX_PARTS ((uint32_t)1 << 20)
#define FST_MAX_GROUPS 64   /* handle groups a time range is cut into, at most */

typedef struct fst_parts {
    const fst_reader *head;
    const char *path;
    uint64_t start, end;   /* the file's time span, in its units */
    uint64_t text_bytes;   /* the file's size as VCD text, about */
    uint32_t ranges, groups; /* time ranges, handle groups in each */
    uint32_t n;            /* parts: ranges x groups */
    uint32_t stop;         /* the end of the batch being read */
    _Atomic uint32_t next; /* the next part to hand out */
    atomic_bool failed;
} fst_parts;

/* Time range r's first time. */
static uint64_t fst_part_from(const fst_parts *ps, uint32_t r)
{
    unsigned __int128 span = (unsigned __int128)(ps->end - ps->start) + 1;
    return ps->start + (uint64_t)(span * r / ps->ranges);
}

/* Reads part k with w, whose reader is open; false if it failed. */
static bool fst_part_run(fst_parts *ps, fst_reader *w, uint32_t k)
{
    uint32_t r = k / ps->groups, g = k % ps->groups, ids = ps->head->st.slot_count;
    uint64_t from = fst_part_from(ps, r);
    uint64_t to = r + 1 < ps->ranges ? fst_part_from(ps, r + 1) - 1 : ps->end;
    fst_select_delivered(ps->head, w->fst, (uint32_t)((uint64_t)ids * g / ps->groups),
                         (uint32_t)((uint64_t)ids * (g + 1) / ps->groups));
    vcd_part_sink fwd = {ps->head->st.sink, k};
    vcd_sink sink = {.ctx = &fwd, .changes = vcd_part_forward};
    w->st.sink = &sink;
    w->st.batch_n = 0;
    w->st.time = 0;
    memset(w->st.vals, VCD_UNSEEN, w->st.vals_len);
    w->from = from;
    w->to = to;
    w->last_ticks = UINT64_MAX;
    w->status = GP_OK;
    fstReaderSetLimitTimeRange(w->fst, from, to);
    if (!fst_guarded_blocks(w->fst, w)) {
        w->fst = NULL; /* damaged: left unclosed, and the reading in file order says so */
        w->st.sink = NULL;
        return false;
    }
    gp_status st = w->status == GP_OK ? vcd_state_flush(&w->st) : w->status;
    w->st.sink = NULL;
    return st == GP_OK && diag_error_count(w->st.d) == 0;
}

/* A part's reader: the head's delivered slots (read only), its own fstapi
 * reader, bit values and batch, and messages that go nowhere. */
static bool fst_part_reader_open(fst_reader *w, const fst_parts *ps)
{
    const fst_reader *head = ps->head;
    *w = (fst_reader){.loc = head->loc, .scale = head->scale};
    w->st = (vcd_state){.d = diag_new(NULL), .file = head->st.file, .slots = head->st.slots,
                        .slot_count = head->st.slot_count, .vals_len = head->st.vals_len,
                        .in_part = true};
    w->st.vals = mem_alloc(w->st.vals_len ? w->st.vals_len : 1);
    w->st.batch = mem_alloc(VCD_BATCH * sizeof *w->st.batch);
    bool escaped;
    w->fst = fst_guarded_open(ps->path, &escaped);
    return w->st.d && w->st.vals && w->st.batch && w->fst;
}

static void fst_part_reader_close(fst_reader *w)
{
    if (w->fst)
        fstReaderClose(w->fst);
    mem_free(w->st.vals);
    mem_free(w->st.batch);
    diag_free(w->st.d);
}

static void fst_parts_thread(void *ctx, uint32_t thread, uint32_t threads)
{
    (void)thread, (void)threads;
    fst_parts *ps = ctx;
    fst_reader w;
    if (!fst_part_reader_open(&w, ps))
        atomic_store(&ps->failed, true);
    while (!atomic_load(&ps->failed)) {
        uint32_t k = atomic_fetch_add(&ps->next, 1);
        if (k >= ps->stop)
            break;
        if (!fst_part_run(ps, &w, k))
            atomic_store(&ps->failed, true);
    }
    fst_part_reader_close(&w);
}

/* The time ranges for the file on `threads` threads: 0 or 1 when they
 * would not pay (one value-change block each at least, unless a test asks
 * for parts with vcd_options.part_size); read in batches of `batch` bytes,
 * a part per thread in a batch at least. */
static uint32_t fst_ranges_wanted(const fst_parts *ps, const vcd_options *opt, uint32_t threads,
                                  uint64_t batch)
{
    uint64_t start = ps->start, end = ps->end;
    uint64_t want = (uint64_t)threads * FST_PARTS_PER_THREAD;
    uint64_t by_batch = batch ? ps->text_bytes / (batch / threads + 1) : 0;
    want = want > by_batch ? want : by_batch;
    uint64_t blocks = fstReaderGetValueChangeSectionCount(ps->head->fst);
    if (!(opt && opt->part_size) && blocks < want)
        want = blocks;
    if (end - start < want)
        want = end - start + 1;
    want = want < FST_BATCH_MAX_PARTS ? want : FST_BATCH_MAX_PARTS;
    return threads < 2 || end <= start ? 1 : (uint32_t)want;
}

/* The parts of a batch: each part's share of the text is the file's over
 * the parts (0: every part). */
static uint32_t fst_parts_per_batch(const fst_parts *ps, uint64_t batch)
{
    uint32_t n = ps->n;
    uint64_t per_range = ps->text_bytes / ps->ranges + 1;
    uint64_t ranges = batch / per_range;
    uint64_t parts = (ranges < 1 ? 1 : ranges) * ps->groups; /* whole ranges */
    return !batch || parts >= n ? n : (uint32_t)parts;
}

/* The handle groups a range is cut into: enough for the threads' parts
 * when the ranges are fewer (one a block), none past the handles. */
static uint32_t fst_groups_wanted(const fst_parts *ps, uint32_t threads)
{
    uint64_t want = (uint64_t)threads * FST_PARTS_PER_THREAD;
    uint64_t groups = (want + ps->ranges - 1) / ps->ranges;
    uint64_t ids = ps->head->st.slot_count;
    groups = groups < FST_MAX_GROUPS ? groups : FST_MAX_GROUPS;
    return groups < ids ? (uint32_t)(groups ? groups : 1) : (uint32_t)(ids ? ids : 1);
}

/* Reads the parts a batch at a time; false when the read must run in file
 * order or the sink stopped it (*st says which). */
static bool fst_parts_run(fst_parts *ps, uint32_t threads, uint64_t batch, gp_status *st)
{
    const vcd_sink *sink = ps->head->st.sink;
    uint32_t per_batch = fst_parts_per_batch(ps, batch);
    for (uint32_t from = 0, to; from < ps->n; from = to) {
        to = ps->n - from > per_batch ? from + per_batch : ps->n;
        if ((*st = sink->parts(sink->ctx, to)) != GP_OK)
            return false;
        atomic_store(&ps->next, from);
        ps->stop = to;
        parts_run(fst_parts_thread, ps, threads < to - from ? threads : to - from);
        if (atomic_load(&ps->failed)) {
            *st = sink->parts(sink->ctx, 0);
            return false;
        }
        int64_t complete_fs;
        if (to < ps->n && fst_ticks_fs(ps->head, fst_part_from(ps, to / ps->groups), &complete_fs) &&
            (*st = sink->parts_done(sink->ctx, to, complete_fs)) != GP_OK)
            return false;
    }
    return true;
}

gp_status fst_parts_read(fst_reader *f, const char *path, const vcd_options *opt, bool *done)
{
    *done = false;
    const vcd_sink *sink = f->st.sink;
    uint32_t threads = opt && opt->threads ? opt->threads : parts_online_cores();
    if (!sink->parts || !sink->part_changes || fstReaderGetNumberDumpActivityChanges(f->fst) > 0)
        return GP_OK;
    fst_parts ps = {.head = f, .path = path, .start = fstReaderGetStartTime(f->fst),
                    .end = fstReaderGetEndTime(f->fst)};
    atomic_init(&ps.next, 0);
    atomic_init(&ps.failed, false);
    uint64_t batch = sink->parts_done && opt ? opt->batch_bytes : 0;
    struct stat sb;
    ps.text_bytes = stat(path, &sb) == 0 ? (uint64_t)sb.st_size * FST_TEXT_PER_BYTE : 0;
    ps.ranges = fst_ranges_wanted(&ps, opt, threads, batch);
    ps.groups = threads < 2 || ps.ranges == 0 ? 1 : fst_groups_wanted(&ps, threads);
    ps.n = ps.ranges * ps.groups;
    int64_t end_fs;
    if (ps.n < 2 || !fst_ticks_fs(f, ps.end, &end_fs))
        return GP_OK; /* the reading in file order reports a time beyond 2^63 fs */
    gp_status st = GP_OK;
    if (!fst_parts_run(&ps, threads, batch, &st))
        return st;
    *done = true;
    return sink->finish ? sink->finish(sink->ctx, end_fs) : GP_OK;
}
#endif
