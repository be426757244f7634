/* fst_block.c: one value-change block of an FST file decoded.
 *
 * A block holds, from its start: its times (first, last), the memory its
 * reader needs, the values at its start (the "frame", zlib), a pack type
 * byte, then one chain of changes per handle (each alone compressed with
 * zlib, FastLZ or LZ4, or stored), the chains' index, and at its end its
 * time table (varint deltas, zlib).  A chain's entries each hold a value
 * and how many time-table steps it lies after the chain's previous one.
 * The index is built once per block (fst_block_index_build); a part of
 * the block, a range of handles, is then decoded on its own: its chains
 * decompressed, then, a time window at a time, each chain waiting for the
 * window walked through its entries there (its bytes in order), the bits
 * that changed listed and the list put in time order by a counting sort;
 * or, for a sink that takes runs, each bit's changes in turn (fst_runs.c).
 * Only delivered handles are decoded.  Every offset, length and varint is
 * checked against the bytes it lies in: a damaged block is error 6110. */
#include "vcd/fst_reader.h"

#ifdef GATEPOWER_HAVE_FST
#include <fastlz.h>
#include <lz4.h>
#include <stdio.h>
#include <string.h>

#include "vcd/fst_int.h"
#include "util/mem.h"

#define FST_WINDOW_CHANGES ((uint64_t)1 << 20) /* bit changes a time window holds, about */
#define FST_VISIT_CHANGES 8 /* ... or this many a chain: each window touches each chain */

static gp_status block_damaged(const fst_reader *f, const fst_block_index *ix, const char *why)
{
    char what[96];
    snprintf(what, sizeof what, "value-change block %u of %u (at byte %llu)",
             (unsigned)(ix->b - f->ff->blocks.data) + 1, (unsigned)f->ff->blocks.len,
             (unsigned long long)ix->b->at);
    return fst_damaged(f, what, why);
}

/* The time table at the block's end: its times, deltas summed. */
static gp_status read_times(const fst_reader *f, fst_block_index *ix, const uint8_t *table)
{
    const fst_block *b = ix->b;
    const uint8_t *base = f->ff->data + b->at;
    uint64_t uclen = fst_be64(table), clen = fst_be64(table + 8), n = fst_be64(table + 16);
    if (clen > (uint64_t)(table - base) - 33 - 8 || !fst_plausible_inflation(uclen, clen) ||
        n > uclen)
        return block_damaged(f, ix, "its time table's sizes do not fit its length");
    const uint8_t *src = table - clen;
    uint8_t *raw = clen == uclen ? NULL : mem_alloc(uclen ? uclen : 1);
    ix->times = mem_alloc((n ? n : 1) * sizeof *ix->times);
    if ((clen != uclen && !raw) || !ix->times) {
        mem_free(raw);
        return fst_nomem(f);
    }
    if (raw) {
        bool ok = fst_inflate_once(src, clen, raw, uclen);
        if (!ok) {
            mem_free(raw);
            return block_damaged(f, ix, "its time table does not inflate");
        }
    }
    const uint8_t *p = raw ? raw : src, *end = p + uclen;
    uint64_t t = 0;
    bool ok = true;
    for (uint64_t i = 0; i < n && ok; i++) {
        uint64_t delta;
        ok = fst_varint(&p, end, &delta) && !__builtin_add_overflow(t, delta, &t);
        ix->times[i] = t;
    }
    mem_free(raw);
    ix->n_times = n;
    if (!ok)
        return block_damaged(f, ix, "its time table is damaged");
    if (n && (ix->times[0] < b->begin || ix->times[n - 1] > b->end))
        return block_damaged(f, ix, "its time table lies outside its times");
    return GP_OK;
}

/* The chain index's entries (the two older block kinds): a varint each;
 * odd: a chain, at the previous chain's offset plus v >> 1; even and not
 * 0: v >> 1 handles without changes; 0: an alias of the handle the next
 * varint gives (+1). */
static bool index_entry(const uint8_t **p, const uint8_t *end, uint64_t *pval, int *kind,
                        uint64_t *arg)
{
    uint64_t v;
    if (!fst_varint(p, end, &v))
        return false;
    if (v == 0) {
        *kind = 'a';
        return fst_varint(p, end, arg);
    }
    *kind = v & 1 ? 'c' : 's';
    if (v & 1)
        return !__builtin_add_overflow(*pval, v >> 1, pval);
    *arg = v >> 1;
    return true;
}

/* The newest kind: odd first byte, a signed varint s >> 1: a chain at
 * +s (> 0), an alias of handle -s (< 0), or of the previous alias (0);
 * even, a varint v: v >> 1 handles without changes. */
static bool index_entry2(const uint8_t **p, const uint8_t *end, uint64_t *pval, int *kind,
                         uint64_t *arg, uint64_t *prev_alias)
{
    if (**p & 1) {
        int64_t s;
        if (!fst_svarint(p, end, &s))
            return false;
        s >>= 1;
        *kind = s > 0 ? 'c' : 'a';
        if (s < 0)
            *prev_alias = (uint64_t)-s;
        *arg = *prev_alias;
        return s <= 0 || !__builtin_add_overflow(*pval, (uint64_t)s, pval);
    }
    uint64_t v;
    *kind = 's';
    if (!fst_varint(p, end, &v))
        return false;
    *arg = v >> 1;
    return true;
}

#define FST_ALIAS_MARK 0x80000000u /* in chain_len while the index is read: an alias */

/* The index at [p, end): each handle's chain offset and length.  An
 * alias is marked while the lengths are not all known, then copies the
 * earlier handle's entry. */
static gp_status read_index(const fst_reader *f, fst_block_index *ix, const uint8_t *p,
                            const uint8_t *end)
{
    uint32_t handles = f->ff->handles;
    ix->chain_at = mem_calloc(handles, sizeof *ix->chain_at);
    ix->chain_len = mem_calloc(handles, sizeof *ix->chain_len);
    if (!ix->chain_at || !ix->chain_len)
        return fst_nomem(f);
    uint64_t idx = 0, pval = 0, prev = UINT64_MAX, prev_alias = 0;
    while (p < end) {
        int kind;
        uint64_t arg = 0;
        bool ok = ix->b->tag == FST_TAG_CHANGES_ALIAS2
                      ? index_entry2(&p, end, &pval, &kind, &arg, &prev_alias)
                      : index_entry(&p, end, &pval, &kind, &arg);
        if (!ok || (kind == 's' ? arg > handles - idx : idx >= handles))
            return block_damaged(f, ix, "its chain index is damaged");
        if (kind == 's') {
            idx += arg;
            continue;
        }
        if (kind == 'c') {
            if (pval == 0 || pval >= ix->chains_len)
                return block_damaged(f, ix, "its chain index points outside the block");
            if (prev != UINT64_MAX)
                ix->chain_len[prev] = (uint32_t)(pval - ix->chain_at[prev]);
            ix->chain_at[idx] = pval;
            prev = idx;
        } else if (arg >= 1 && arg - 1 < idx) { /* an alias of an earlier handle */
            ix->chain_len[idx] = FST_ALIAS_MARK | (uint32_t)(arg - 1);
        }
        idx++;
    }
    if (prev != UINT64_MAX)
        ix->chain_len[prev] = (uint32_t)(ix->chains_len - ix->chain_at[prev]);
    for (uint32_t i = 0; i < handles; i++)
        if (!ix->chain_at[i] && (ix->chain_len[i] & FST_ALIAS_MARK)) {
            uint32_t t = ix->chain_len[i] & ~FST_ALIAS_MARK; /* < i: settled */
            ix->chain_at[i] = ix->chain_at[t];
            ix->chain_len[i] = ix->chain_len[t];
        }
    return GP_OK;
}

/* The values at the block's start, for the first block when its first
 * time is not its start (fstapi gives them then, and only then). */
static gp_status read_frame(const fst_reader *f, fst_block_index *ix, const uint8_t *src,
                            uint64_t uclen, uint64_t clen, uint64_t handles)
{
    const fst_file *ff = f->ff;
    uint64_t want = 0;
    if (handles > ff->handles)
        return block_damaged(f, ix, "its start values name more handles than the file has");
    for (uint64_t i = 0; i < handles; i++)
        want += ff->value_len[i];
    if (uclen != want || !fst_plausible_inflation(uclen, clen))
        return block_damaged(f, ix, "its start values do not fit the geometry");
    if (!(ix->frame = mem_alloc(uclen ? uclen : 1)))
        return fst_nomem(f);
    if (clen == uclen) {
        memcpy(ix->frame, src, uclen);
    } else {
        bool ok = fst_inflate_once(src, clen, ix->frame, uclen);
        if (!ok)
            return block_damaged(f, ix, "its start values do not inflate");
    }
    ix->frame_handles = (uint32_t)handles;
    return GP_OK;
}

gp_status fst_block_index_build(const fst_reader *f, uint32_t k, fst_block_index *ix)
{
    const fst_block *b = &f->ff->blocks.data[k];
    const uint8_t *base = f->ff->data + b->at, *end = base + 1 + b->len;
    *ix = (fst_block_index){.b = b};
    gp_status st = read_times(f, ix, end - 24);
    if (st != GP_OK)
        return st;
    const uint8_t *index_end = end - 24 - fst_be64(end - 16) - 8; /* read_times checked it */
    uint64_t index_len = fst_be64(index_end);
    const uint8_t *p = base + 33;
    uint64_t frame_uclen, frame_clen, frame_handles, vc_handles;
    if (!fst_varint(&p, index_end, &frame_uclen) || !fst_varint(&p, index_end, &frame_clen) ||
        !fst_varint(&p, index_end, &frame_handles) ||
        frame_clen > (uint64_t)(index_end - p))
        return block_damaged(f, ix, "its start values are cut short");
    const uint8_t *frame = p;
    p += frame_clen;
    if (!fst_varint(&p, index_end, &vc_handles) || index_len > (uint64_t)(index_end - p) ||
        index_end - index_len <= p || (uint64_t)(index_end - index_len - p) >= FST_ALIAS_MARK)
        return block_damaged(f, ix, "its chain index does not fit its length");
    ix->chains = p;
    ix->chains_len = (uint64_t)(index_end - index_len - p);
    ix->pack = *p;
    if (ix->pack != 'Z' && ix->pack != 'F' && ix->pack != '4')
        return block_damaged(f, ix, "its pack type is unknown");
    if ((st = read_index(f, ix, index_end - index_len, index_end)) != GP_OK)
        return st;
    if (k == 0 && ix->n_times > 0 && b->begin != ix->times[0])
        st = read_frame(f, ix, frame, frame_uclen, frame_clen, frame_handles);
    return st;
}

void fst_block_index_free(fst_block_index *ix)
{
    mem_free(ix->times);
    mem_free(ix->chain_at);
    mem_free(ix->chain_len);
    mem_free(ix->frame);
    *ix = (fst_block_index){0};
}

void fst_decoder_free(fst_decoder *dec)
{
    fst_bytes_free(&dec->mem);
    fst_chains_free(&dec->chain);
    fst_bytes_free(&dec->prev);
    fst_changes_free(&dec->rec);
    vec_u32_free(&dec->rec_tix);
    fst_changes_free(&dec->sorted);
    vec_u32_free(&dec->count);
    vec_u32_free(&dec->waiting);
    fst_bytes_free(&dec->value);
    vec_u32_free(&dec->run);
    vec_i64_free(&dec->run_times);
    if (dec->z_ready)
        inflateEnd(&dec->z);
    *dec = (fst_decoder){0};
}

bool fst_delivered(const fst_reader *f, uint32_t h)
{
    return h <= f->st.slot_count && f->st.slots[h - 1].deliver;
}

/* Handle h's chain: its bytes [*src, *src + *n) and its decompressed size
 * (its first varint; 0: stored as is). */
static bool chain_bytes(const fst_block_index *ix, uint32_t h, const uint8_t **src, uint64_t *n,
                        uint64_t *size, bool *stored)
{
    const uint8_t *p = ix->chains + ix->chain_at[h - 1];
    const uint8_t *end = p + ix->chain_len[h - 1];
    uint64_t u;
    if (ix->chain_len[h - 1] == 0 || ix->chain_len[h - 1] > ix->chains_len - ix->chain_at[h - 1] ||
        !fst_varint(&p, end, &u))
        return false;
    *src = p;
    *n = (uint64_t)(end - p);
    *stored = u == 0;
    *size = u ? u : *n;
    return fst_plausible_inflation(*size, *n) && *size <= INT32_MAX;
}

static bool decompress(fst_decoder *dec, uint8_t pack, const uint8_t *src, uint64_t n,
                       uint8_t *dst, uint64_t size)
{
    switch (pack) {
    case '4':
        return LZ4_decompress_safe((const char *)src, (char *)dst, (int)n, (int)size) == (int)size;
    case 'F':
        return n > 0 && fastlz_decompress(src, (int)n, dst, (int)size) == (int)size;
    default:
        return fst_inflate(&dec->z, src, n, dst, size);
    }
}

/* How many time steps the entry at p lies after the chain's previous one. */
static bool entry_delta(const uint8_t *p, const uint8_t *end, uint32_t width, uint64_t *delta)
{
    uint64_t v;
    if (!fst_varint(&p, end, &v))
        return false;
    *delta = width == 1 ? v >> (2 << (v & 1)) : v >> 1;
    return true;
}

bool fst_chain_step(const fst_block_index *ix, const fst_decoder *dec, fst_chain *c,
                       uint32_t width)
{
    uint64_t delta;
    if (!entry_delta(dec->mem.data + c->pos, dec->mem.data + c->stop, width, &delta) ||
        delta >= ix->n_times - c->tix)
        return false;
    c->tix += (uint32_t)delta;
    return true;
}

/* Room for the part's chains, its bits and values of `width`. */
static bool decoder_fit(fst_decoder *dec, uint32_t n, uint64_t bits, uint32_t width)
{
    if (!dec->z_ready && inflateInit2(&dec->z, 15 + 32) != Z_OK)
        return false;
    dec->z_ready = true;
    return fst_chains_reserve(&dec->chain, n) && fst_bytes_reserve(&dec->prev, bits ? bits : 1) &&
           fst_bytes_reserve(&dec->value, (size_t)width + 1);
}

/* The decompressed size of the chains of the delivered handles in
 * [lo, hi), and the bit changes they hold at most (*estimate). */
static gp_status chains_size(const fst_reader *f, const fst_block_index *ix, uint32_t lo,
                             uint32_t hi, uint64_t *total, uint64_t *estimate)
{
    const uint8_t *src;
    uint64_t n, size;
    bool stored;
    *total = *estimate = 0;
    for (uint32_t h = lo; h < hi; h++)
        if (ix->chain_at[h - 1] && fst_delivered(f, h)) {
            if (!chain_bytes(ix, h, &src, &n, &size, &stored))
                return block_damaged(f, ix, "a chain's length is wrong");
            *total += size;
            /* an entry takes a byte at least, a vector's 2 for 8 bits */
            *estimate += f->ff->value_len[h - 1] == 1 ? size : 8 * size;
        }
    return *total > UINT32_MAX ? block_damaged(f, ix, "its chains take more than 4 GiB") : GP_OK;
}

/* Chain j joins the list of the window holding its next entry. */
static void wait_for_window(fst_decoder *dec, uint32_t j)
{
    fst_chain *c = &dec->chain.data[j];
    uint64_t w = c->tix / dec->window_times;
    c->next = dec->waiting.data[w];
    dec->waiting.data[w] = j + 1;
}

/* Decompresses the chains of the delivered handles in [lo, hi) (`total`
 * bytes), each at its first entry, waiting for that entry's window. */
static gp_status load_chains(fst_reader *f, const fst_block_index *ix, uint32_t lo, uint32_t hi,
                             fst_decoder *dec, uint64_t total)
{
    const uint32_t *width = f->ff->value_len;
    const uint8_t *src;
    uint64_t n, size, bits = 0;
    bool stored;
    if (!fst_bytes_reserve(&dec->mem, total ? total : 1))
        return fst_nomem(f);
    uint32_t at = 0;
    for (uint32_t h = lo; h < hi; h++) {
        fst_chain *c = &dec->chain.data[h - lo];
        *c = (fst_chain){at, at, 0, (uint32_t)bits, 0};
        if (!fst_delivered(f, h))
            continue;
        bits += width[h - 1]; /* every delivered handle's: the same in every block */
        if (!ix->chain_at[h - 1])
            continue;
        chain_bytes(ix, h, &src, &n, &size, &stored);
        if (size == 0)
            continue;
        if (stored)
            memcpy(dec->mem.data + at, src, size);
        else if (!decompress(dec, ix->pack, src, n, dec->mem.data + at, size))
            return block_damaged(f, ix, "a chain does not decompress");
        c->stop = at += (uint32_t)size;
        if (!fst_chain_step(ix, dec, c, width[h - 1]))
            return block_damaged(f, ix, "a chain's first change lies past the block's times");
        wait_for_window(dec, h - lo);
    }
    if (f->st.in_part || !dec->prev_kept) /* in file order they carry over the blocks */
        memset(dec->prev.data, f->st.in_part ? VCD_UNSEEN : VCD_X, bits);
    dec->prev_kept = !f->st.in_part;
    return GP_OK;
}

bool fst_entry_value(fst_decoder *dec, const uint8_t **p, const uint8_t *end, uint32_t width,
                        const uint8_t **value)
{
    static const uint8_t nine_valued[8] = "xzhuwl-?";
    uint64_t v;
    if (!fst_varint(p, end, &v))
        return false;
    if (width == 1) {
        dec->value.data[0] = v & 1 ? nine_valued[(v >> 1) & 7] : (uint8_t)('0' | ((v >> 1) & 1));
        *value = dec->value.data;
        return true;
    }
    if (v & 1) { /* one character a bit */
        if ((uint64_t)(end - *p) < width)
            return false;
        *value = *p;
        *p += width;
        return true;
    }
    uint32_t bytes = (width + 7) / 8; /* two-valued: a bit a bit, MSB first */
    if ((uint64_t)(end - *p) < bytes)
        return false;
    for (uint32_t i = 0; i < width; i++)
        dec->value.data[i] = (uint8_t)('0' | (((*p)[i / 8] >> (7 - (i & 7))) & 1));
    *p += bytes;
    *value = dec->value.data;
    return true;
}

/* The bits of `value` that differ from the chain's last ones, as changes
 * at window time `tix` (the window starts at tlo). */
static gp_status record_bits(fst_reader *f, const fst_block_index *ix, fst_decoder *dec,
                             uint32_t h, const fst_chain *c, uint64_t tlo, const uint8_t *value)
{
    uint32_t width = f->ff->value_len[h - 1];
    uint8_t *prev = dec->prev.data + c->prev;
    for (uint32_t bit = 0; bit < width; bit++) {
        uint8_t x = vcd_value_plus1[value[width - 1 - bit]];
        if (!x)
            return fst_bad_value(f, value[width - 1 - bit], ix->times[c->tix]);
        if (prev[bit] == x - 1)
            continue;
        prev[bit] = x - 1;
        if (!fst_changes_push(&dec->rec, (vcd_change){h - 1, bit, x - 1}) ||
            !vec_u32_push(&dec->rec_tix, (uint32_t)(c->tix - tlo)))
            return fst_nomem(f);
    }
    return GP_OK;
}

/* The entries at times [tlo, thi) (window w) of the chains waiting for
 * it, chain after chain, into the window's changes (dec->rec); each chain
 * then waits for its next entry's window. */
static gp_status decode_window(fst_reader *f, const fst_block_index *ix, uint32_t lo,
                               fst_decoder *dec, uint64_t w, uint64_t tlo, uint64_t thi)
{
    dec->rec.len = dec->rec_tix.len = 0;
    /* The list's chains lie anywhere: the one after next is fetched ahead,
     * and the next one's bytes (its own line is in by then). */
    fst_chain *chain = dec->chain.data;
    const uint8_t *mem = dec->mem.data;
    uint32_t j = dec->waiting.data[w], after = j ? chain[j - 1].next : 0;
    for (uint32_t then; j; j = after, after = then) {
        fst_chain *c = &chain[j - 1];
        uint32_t h = lo + j - 1, width = f->ff->value_len[h - 1];
        then = after ? chain[after - 1].next : 0;
        if (then)
            __builtin_prefetch(&chain[then - 1]);
        if (after)
            __builtin_prefetch(mem + chain[after - 1].pos);
        while (c->pos < c->stop && c->tix < thi) {
            const uint8_t *p = mem + c->pos, *value;
            if (!fst_entry_value(dec, &p, mem + c->stop, width, &value))
                return block_damaged(f, ix, "a chain's change is cut short");
            gp_status st = record_bits(f, ix, dec, h, c, tlo, value);
            if (st != GP_OK)
                return st;
            c->pos = (uint32_t)(p - mem);
            if (c->pos < c->stop && !fst_chain_step(ix, dec, c, width))
                return block_damaged(f, ix, "a chain's change lies past the block's times");
        }
        if (c->pos < c->stop)
            wait_for_window(dec, j - 1);
    }
    return GP_OK;
}

/* The window's changes sorted by time (stable: a bit's stay in order). */
static gp_status sort_window(fst_reader *f, fst_decoder *dec, uint64_t times)
{
    size_t n = dec->rec.len;
    if (!vec_u32_resize(&dec->count, times + 1) || !fst_changes_reserve(&dec->sorted, n))
        return fst_nomem(f);
    uint32_t *count = dec->count.data;
    const uint32_t *tix = dec->rec_tix.data;
    memset(count, 0, (times + 1) * sizeof *count);
    for (size_t k = 0; k < n; k++)
        count[tix[k] + 1]++;
    for (uint64_t t = 0; t < times; t++)
        count[t + 1] += count[t];
    for (size_t k = 0; k < n; k++)
        dec->sorted.data[count[tix[k]]++] = dec->rec.data[k];
    return GP_OK;
}

/* The window's changes handed over time after time.  They go to the sink
 * as they are, a time's changes a batch: record_bits dropped every repeat
 * (in a part, each bit's first change is delivered: vcd.h).  A file with
 * dump on/off changes has each go through the bits' values instead, which
 * hold the values while the dump is off. */
static gp_status give_window(fst_reader *f, const fst_block_index *ix, fst_decoder *dec,
                             uint64_t tlo, uint64_t thi)
{
    uint64_t times = thi - tlo;
    bool direct = f->ff->n_activity == 0;
    gp_status st = sort_window(f, dec, times);
    if (st == GP_OK && direct)
        st = vcd_state_flush(&f->st);
    const uint32_t *end = dec->count.data;
    const vcd_change *sorted = dec->sorted.data;
    const vcd_slot *slots = f->st.slots;
    const vcd_sink *sink = f->st.sink;
    for (uint64_t t = 0, k = 0; t < times && st == GP_OK; k = end[t++]) {
        if (k == end[t])
            continue;
        if ((st = fst_at(f, ix->times[tlo + t])) != GP_OK)
            break;
        if (direct) {
            if (sink->changes)
                st = sink->changes(sink->ctx, f->st.time, sorted + k, end[t] - k);
            continue;
        }
        for (; st == GP_OK && k < end[t]; k++) {
            const vcd_change *c = &sorted[k];
            st = vcd_state_set_bit(&f->st, c->id, slots[c->id].off, c->bit, c->value);
        }
    }
    return st;
}

/* The start values of the delivered handles in [lo, hi), at the block's
 * start; their chains' last values. */
static gp_status give_frame(fst_reader *f, const fst_block_index *ix, uint32_t lo, uint32_t hi,
                            fst_decoder *dec)
{
    const uint32_t *len = f->ff->value_len;
    uint64_t off = 0;
    for (uint32_t h = 1; h < lo && h <= ix->frame_handles; h++)
        off += len[h - 1];
    for (uint32_t h = lo; h < hi && h <= ix->frame_handles; off += len[h - 1], h++) {
        if (!fst_delivered(f, h))
            continue;
        const uint8_t *value = ix->frame + off;
        gp_status st = fst_value(f, ix->b->begin, h, value, len[h - 1]);
        if (st != GP_OK)
            return st;
        /* the values are valid now: fst_value checked them */
        uint8_t *prev = dec->prev.data + dec->chain.data[h - lo].prev;
        for (uint32_t bit = 0; bit < len[h - 1]; bit++)
            prev[bit] = vcd_value_plus1[value[len[h - 1] - 1 - bit]] - 1;
    }
    return GP_OK;
}

gp_status fst_block_decode(fst_reader *f, const fst_block_index *ix, uint32_t lo, uint32_t hi,
                           fst_decoder *dec)
{
    if (hi <= lo || ix->n_times == 0)
        return GP_OK;
    uint32_t widest = 1;
    uint64_t bits = 0, total, estimate, times = ix->n_times;
    for (uint32_t h = lo; h < hi; h++)
        if (fst_delivered(f, h)) {
            uint32_t w = f->ff->value_len[h - 1];
            widest = w > widest ? w : widest;
            bits += w;
        }
    if (!decoder_fit(dec, hi - lo, bits, widest))
        return fst_nomem(f);
    gp_status st = chains_size(f, ix, lo, hi, &total, &estimate);
    uint64_t per_window = (uint64_t)(hi - lo) * FST_VISIT_CHANGES;
    per_window = per_window > FST_WINDOW_CHANGES ? per_window : FST_WINDOW_CHANGES;
    uint64_t windows = estimate / per_window + 1;
    dec->window_times = (times + windows - 1) / (windows < times ? windows : times);
    windows = (times + dec->window_times - 1) / dec->window_times;
    if (st == GP_OK && !vec_u32_resize(&dec->waiting, windows))
        st = fst_nomem(f);
    if (st == GP_OK) {
        memset(dec->waiting.data, 0, windows * sizeof *dec->waiting.data);
        st = load_chains(f, ix, lo, hi, dec, total);
    }
    if (st == GP_OK && fst_runs_wanted(f, ix))
        return fst_block_runs(f, ix, lo, hi, dec);
    if (st == GP_OK && ix->frame)
        st = give_frame(f, ix, lo, hi, dec);
    for (uint64_t w = 0; st == GP_OK && w < windows; w++) {
        uint64_t tlo = w * dec->window_times;
        uint64_t thi = tlo + dec->window_times < times ? tlo + dec->window_times : times;
        st = decode_window(f, ix, lo, dec, w, tlo, thi);
        if (st == GP_OK)
            st = give_window(f, ix, dec, tlo, thi);
    }
    return st;
}
#endif
