/* fst_read.c: FST files into the activity sink of vcd.h, with gatepower's
 * own reader of the format (fst_file.c, fst_hier.c, fst_block.c): the
 * hierarchy, then the value changes of the vars delivered (only their
 * chains are decompressed), times converted to fs with the file's
 * timescale, dump on/off changes applied like VCD's $dumpoff/$dumpon.
 * Messages carry the file name only: FST has no lines.  The value changes
 * are read on threads when they can be (fst_parts.c). */
#include "vcd/fst_reader.h"

#ifdef GATEPOWER_HAVE_FST
#include "vcd/fst_int.h"
#include "util/mem.h"

gp_status fst_nomem(const fst_reader *f)
{
    diag_error(f->st.d, 6100, f->loc, "out of memory reading '%s'", f->st.file);
    return GP_ERR_NOMEM;
}

gp_status fst_damaged(const fst_reader *f, const char *what, const char *why)
{
    diag_error(f->st.d, 6110, f->loc, "'%s' is damaged inside %s: %s", f->st.file, what, why);
    return GP_ERR_PARSE;
}

/* 10^(exponent + 15) fs per unit, for exponents from -15 (fs) to 3 (1000 s). */
static gp_status fst_timescale(fst_reader *f)
{
    int e = f->ff->exponent;
    if (e < -15 || e > 3) {
        diag_error(f->st.d, 6101, f->loc,
                   "FST timescale 1e%d s is not supported: time units from 1 fs to 1000 s are", e);
        return GP_ERR_UNSUPPORTED;
    }
    f->scale = 1;
    for (int i = -15; i < e; i++)
        f->scale *= 10;
    if (f->ff->timezero != 0)
        diag_warn(f->st.d, 6102, f->loc,
                  "FST time zero %lld ignored: times are used as stored, from 0",
                  (long long)f->ff->timezero);
    return GP_OK;
}

bool fst_ticks_fs(const fst_reader *f, uint64_t ticks, int64_t *fs)
{
    return ticks <= INT64_MAX && !__builtin_mul_overflow((int64_t)ticks, f->scale, fs) &&
           *fs <= VCD_TIME_MAX_FS;
}

static gp_status fst_to_fs(fst_reader *f, uint64_t ticks, int64_t *fs)
{
    if (!fst_ticks_fs(f, ticks, fs)) {
        diag_error(f->st.d, 6103, f->loc,
                   "time %llu (units of %lld fs) is beyond 2^61 fs (38.4 minutes): not supported",
                   (unsigned long long)ticks, (long long)f->scale);
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* Applies the dump on/off changes before time `ticks` (through it when
 * `through`).  A change at time t applies once every value change at t is
 * in: the values kept then are the ones a VCD's $dumpon would list. */
static gp_status fst_activity_upto(fst_reader *f, uint64_t ticks, bool through)
{
    const fst_file *ff = f->ff;
    for (; f->activity_next < ff->n_activity; f->activity_next++) {
        uint64_t at = ff->activity_at[f->activity_next];
        if (at > ticks || (at == ticks && !through))
            break;
        int64_t fs;
        gp_status st = fst_to_fs(f, at, &fs);
        if (st == GP_OK)
            st = vcd_state_set_time(&f->st, fs);
        if (st == GP_OK)
            st = vcd_state_dump(&f->st, ff->activity_on[f->activity_next] != 0);
        if (st != GP_OK)
            return st;
    }
    return GP_OK;
}

gp_status fst_at(fst_reader *f, uint64_t ticks)
{
    if (ticks == f->last_ticks)
        return GP_OK;
    int64_t fs;
    gp_status st;
    if ((st = fst_activity_upto(f, ticks, false)) != GP_OK ||
        (st = fst_to_fs(f, ticks, &fs)) != GP_OK || (st = vcd_state_set_time(&f->st, fs)) != GP_OK)
        return st;
    f->last_ticks = ticks;
    return GP_OK;
}

gp_status fst_bad_value(const fst_reader *f, uint8_t c, uint64_t ticks)
{
    diag_error(f->st.d, 6107, f->loc,
               "bad value character '%c' (0x%02x) at time %llu: values are 0, 1, x, X, z and Z",
               c > ' ' && c < 127 ? c : '?', c, (unsigned long long)ticks);
    return GP_ERR_PARSE;
}

gp_status fst_value(fst_reader *f, uint64_t ticks, uint32_t handle, const uint8_t *value,
                    uint32_t len)
{
    gp_status st = fst_at(f, ticks);
    const vcd_slot *slot = &f->st.slots[handle - 1];
    for (uint32_t i = 0; st == GP_OK && i < slot->width && i < len; i++) {
        uint8_t x = vcd_value_plus1[value[len - 1 - i]];
        st = x ? vcd_state_set_bit(&f->st, handle - 1, slot->off, i, x - 1)
               : fst_bad_value(f, value[len - 1 - i], ticks);
    }
    return st;
}

/* Every block in file order, on this thread. */
static gp_status fst_read_changes(fst_reader *f)
{
    const fst_file *ff = f->ff;
    fst_decoder dec = {0};
    gp_status st = GP_OK;
    f->last_ticks = UINT64_MAX;
    for (uint32_t k = 0; k < ff->blocks.len && st == GP_OK; k++) {
        fst_block_index ix;
        st = fst_block_index_build(f, k, &ix);
        if (st == GP_OK)
            st = fst_block_decode(f, &ix, 1, ff->handles + 1, &dec);
        fst_block_index_free(&ix);
        fst_file_done_with(ff, k, k + 1);
        if (f->bar)
            progress_update(f->bar, ff->blocks.data[k].at + 1 + ff->blocks.data[k].len);
    }
    fst_decoder_free(&dec);
    int64_t end_fs;
    if (st == GP_OK)
        st = fst_activity_upto(f, ff->end, true);
    if (st == GP_OK)
        st = fst_to_fs(f, ff->end, &end_fs);
    return st == GP_OK ? vcd_state_finish(&f->st, end_fs) : st;
}

gp_status fst_read(const char *path, const vcd_options *opt, const vcd_sink *sink, diag_ctx *d)
{
    fst_file ff;
    gp_status st = fst_file_open(&ff, path, d);
    if (st != GP_OK)
        return st;
    fst_reader f = {.ff = &ff, .loc = {path, 0, 0}, .bar = opt ? opt->bar : NULL};
    st = vcd_state_init(&f.st, path, opt, sink, d);
    if (st == GP_OK)
        st = fst_timescale(&f);
    if (st == GP_OK)
        st = fst_hier_read(&f);
    int64_t last_fs = -1;
    if (st == GP_OK && !fst_ticks_fs(&f, ff.end, &last_fs))
        last_fs = -1;
    if (st == GP_OK)
        st = vcd_state_start(&f.st, "FST", f.scale, last_fs, f.loc);
    bool done = false;
    if (st == GP_OK)
        st = fst_parts_read(&f, opt, &done);
    if (st == GP_OK && !done)
        st = fst_read_changes(&f);
    vcd_state_free(&f.st);
    fst_file_close(&ff);
    return st;
}
#endif
