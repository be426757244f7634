/* fst_runs.c: a part of an FST value-change block given to the sink as
 * runs (vcd_sink.part_run): a chain holds one handle's changes in time
 * order, so each of its bits' changes goes as it is, one bit after the
 * other, with no sort by time and one time table for the part.  The part's
 * times are the block's, with its start first where the frame's values
 * lie before the first time of its table.  A vector's chain is walked once
 * a bit. */
#include "vcd/fst_reader.h"

#ifdef GATEPOWER_HAVE_FST
#include "vcd/fst_int.h"

bool fst_runs_wanted(const fst_reader *f, const fst_block_index *ix)
{
    return f->st.in_part && f->st.sink->part_run && ix->n_times < VCD_RUN_TIMES - 1;
}

/* Whether the frame's values come before the block's first time. */
static bool frame_first(const fst_block_index *ix)
{
    return ix->frame && ix->times[0] != ix->b->begin;
}

/* The part's times in fs (the frame's first where it comes before them),
 * to the sink. */
static gp_status give_times(fst_reader *f, const fst_block_index *ix, fst_decoder *dec)
{
    vec_i64 *fs = &dec->run_times;
    size_t n = ix->n_times + frame_first(ix);
    if (!vec_i64_resize(fs, n))
        return fst_nomem(f);
    size_t k = 0;
    if (frame_first(ix) && !fst_ticks_fs(f, ix->b->begin, &fs->data[k++]))
        return GP_ERR_INPUT; /* the reading in file order says why */
    for (uint64_t t = 0; t < ix->n_times; t++)
        if (!fst_ticks_fs(f, ix->times[t], &fs->data[k++]))
            return GP_ERR_INPUT;
    return f->st.sink->part_times(f->st.sink->ctx, 0, fs->data, n);
}

/* Appends bit `bit` of the value (`width` characters, MSB first) at time
 * index tix to the run, unless it repeats the run's last; false for a
 * character that is no value. */
static bool run_add(fst_decoder *dec, const uint8_t *value, uint32_t width, uint32_t bit,
                    uint32_t tix, uint8_t *last)
{
    uint8_t x = vcd_value_plus1[value[width - 1 - bit]];
    if (!x)
        return false;
    if (x - 1 != *last && !vec_u32_push(&dec->run, tix << 2 | (uint32_t)(x - 1)))
        return false;
    *last = x - 1;
    return true;
}

/* A one-bit handle's entries from chain c onto the run: each entry one
 * varint, its value in its low bits and its time step above them (the
 * first entry's step is in c.tix already); false where the chain is
 * damaged or a value is not 0, 1, x or z.  It reads the one varint that
 * fst_chain_step and fst_entry_value (fst_block.c) each decode, by their
 * rules for one bit: a change to those is a change here. */
static bool scalar_entries(const fst_block_index *ix, fst_decoder *dec, fst_chain c,
                           uint32_t shift, uint8_t *last)
{
    const uint8_t *p = dec->mem.data + c.pos, *end = dec->mem.data + c.stop;
    uint64_t tix = c.tix;
    for (bool first = true; p < end; first = false) {
        uint64_t v, step;
        if (!fst_varint(&p, end, &v))
            return false;
        step = first ? 0 : v >> (2 << (v & 1));
        if (step >= ix->n_times - tix)
            return false;
        tix += step;
        if ((v & 1) && ((v >> 1) & 7) > 1) /* h u w l - ?: no two- or four-state value */
            return false;
        uint8_t x = v & 1 ? VCD_X : (uint8_t)((v >> 1) & 1);
        if (x != *last && !vec_u32_push(&dec->run, (uint32_t)(tix + shift) << 2 | x))
            return false;
        *last = x;
    }
    return true;
}

/* Bit `bit` of handle h as a run: its frame value (NULL: none), then its
 * chain's entries from chain c (a copy: the chain is walked once a bit). */
static gp_status give_bit_run(fst_reader *f, const fst_block_index *ix, fst_decoder *dec,
                              uint32_t h, uint32_t bit, const uint8_t *frame, fst_chain c)
{
    uint32_t width = f->ff->value_len[h - 1], shift = frame_first(ix);
    const uint8_t *mem = dec->mem.data;
    uint8_t last = VCD_UNSEEN;
    dec->run.len = 0;
    if (frame && !run_add(dec, frame, width, bit, 0, &last))
        return GP_ERR_PARSE; /* a bad value or no memory: the reading in file order says */
    if (width == 1 && !scalar_entries(ix, dec, c, shift, &last))
        return GP_ERR_PARSE;
    while (width > 1 && c.pos < c.stop) {
        const uint8_t *p = mem + c.pos, *value;
        if (!fst_entry_value(dec, &p, mem + c.stop, width, &value) ||
            !run_add(dec, value, width, bit, c.tix + shift, &last))
            return GP_ERR_PARSE;
        c.pos = (uint32_t)(p - mem);
        if (c.pos < c.stop && !fst_chain_step(ix, dec, &c, width))
            return GP_ERR_PARSE;
    }
    const vcd_sink *sink = f->st.sink;
    return dec->run.len ? sink->part_run(sink->ctx, 0, h - 1, bit, dec->run.data, dec->run.len)
                        : GP_OK;
}

gp_status fst_block_runs(fst_reader *f, const fst_block_index *ix, uint32_t lo, uint32_t hi,
                         fst_decoder *dec)
{
    const uint32_t *len = f->ff->value_len;
    gp_status st = give_times(f, ix, dec);
    uint64_t off = 0; /* handle h's value in the frame */
    for (uint32_t h = 1; h < lo && h <= ix->frame_handles; h++)
        off += len[h - 1];
    for (uint32_t h = lo; h < hi && st == GP_OK; off += len[h - 1], h++) {
        if (!fst_delivered(f, h))
            continue;
        const uint8_t *frame = ix->frame && h <= ix->frame_handles ? ix->frame + off : NULL;
        const fst_chain *c = &dec->chain.data[h - lo];
        for (uint32_t bit = 0; bit < len[h - 1] && st == GP_OK; bit++)
            st = give_bit_run(f, ix, dec, h, bit, frame, *c);
    }
    return st;
}
#endif
