/* fst_read.c: FST files through GTKWave's fstapi into the activity sink of
 * vcd.h: the hierarchy from fstReaderIterateHier, values from
 * fstReaderIterBlocks2 (only for the handles delivered), times converted to
 * fs with the file's timescale, dump on/off changes applied like VCD's
 * $dumpoff/$dumpon.  Messages carry the file name only: FST has no lines.
 * The value changes may be read in parts on threads (fst_parts.c). */
#include "fst/fst_reader.h"

#ifdef GATEPOWER_HAVE_FST
#include <string.h>

#include "fst/fst_int.h"
#include "util/mem.h"

static const struct fst_type {
    const char *name;
    vcd_kind kind;
} fst_types[FST_VT_MAX + 1] = {
    [FST_VT_VCD_EVENT] = {"event", VCD_KIND_LOGIC},
    [FST_VT_VCD_INTEGER] = {"integer", VCD_KIND_LOGIC},
    [FST_VT_VCD_PARAMETER] = {"parameter", VCD_KIND_LOGIC},
    [FST_VT_VCD_REAL] = {"real", VCD_KIND_REAL},
    [FST_VT_VCD_REAL_PARAMETER] = {"real_parameter", VCD_KIND_REAL},
    [FST_VT_VCD_REG] = {"reg", VCD_KIND_LOGIC},
    [FST_VT_VCD_SUPPLY0] = {"supply0", VCD_KIND_LOGIC},
    [FST_VT_VCD_SUPPLY1] = {"supply1", VCD_KIND_LOGIC},
    [FST_VT_VCD_TIME] = {"time", VCD_KIND_LOGIC},
    [FST_VT_VCD_TRI] = {"tri", VCD_KIND_LOGIC},
    [FST_VT_VCD_TRIAND] = {"triand", VCD_KIND_LOGIC},
    [FST_VT_VCD_TRIOR] = {"trior", VCD_KIND_LOGIC},
    [FST_VT_VCD_TRIREG] = {"trireg", VCD_KIND_LOGIC},
    [FST_VT_VCD_TRI0] = {"tri0", VCD_KIND_LOGIC},
    [FST_VT_VCD_TRI1] = {"tri1", VCD_KIND_LOGIC},
    [FST_VT_VCD_WAND] = {"wand", VCD_KIND_LOGIC},
    [FST_VT_VCD_WIRE] = {"wire", VCD_KIND_LOGIC},
    [FST_VT_VCD_WOR] = {"wor", VCD_KIND_LOGIC},
    [FST_VT_VCD_PORT] = {"port", VCD_KIND_OTHER},
    [FST_VT_VCD_SPARRAY] = {"sparray", VCD_KIND_OTHER},
    [FST_VT_VCD_REALTIME] = {"realtime", VCD_KIND_REAL},
    [FST_VT_GEN_STRING] = {"string", VCD_KIND_OTHER},
    [FST_VT_SV_BIT] = {"bit", VCD_KIND_LOGIC},
    [FST_VT_SV_LOGIC] = {"logic", VCD_KIND_LOGIC},
    [FST_VT_SV_INT] = {"int", VCD_KIND_LOGIC},
    [FST_VT_SV_SHORTINT] = {"shortint", VCD_KIND_LOGIC},
    [FST_VT_SV_LONGINT] = {"longint", VCD_KIND_LOGIC},
    [FST_VT_SV_BYTE] = {"byte", VCD_KIND_LOGIC},
    [FST_VT_SV_ENUM] = {"enum", VCD_KIND_LOGIC},
    [FST_VT_SV_SHORTREAL] = {"shortreal", VCD_KIND_REAL},
};

static gp_status fst_nomem(fst_reader *f)
{
    diag_error(f->st.d, 6100, f->loc, "out of memory reading '%s'", f->st.file);
    return GP_ERR_NOMEM;
}

/* 10^(exponent + 15) fs per unit, for exponents from -15 (fs) to 3 (1000 s). */
static gp_status fst_timescale(fst_reader *f)
{
    int e = fstReaderGetTimescale(f->fst);
    if (e < -15 || e > 3) {
        diag_error(f->st.d, 6101, f->loc,
                   "FST timescale 1e%d s is not supported: time units from 1 fs to 1000 s are", e);
        return GP_ERR_UNSUPPORTED;
    }
    f->scale = 1;
    for (int i = -15; i < e; i++)
        f->scale *= 10;
    if (fstReaderGetTimezero(f->fst) != 0)
        diag_warn(f->st.d, 6102, f->loc,
                  "FST time zero %lld ignored: times are used as stored, from 0",
                  (long long)fstReaderGetTimezero(f->fst));
    return GP_OK;
}

bool fst_ticks_fs(const fst_reader *f, uint64_t ticks, int64_t *fs)
{
    return ticks <= INT64_MAX && !__builtin_mul_overflow((int64_t)ticks, f->scale, fs);
}

static gp_status fst_to_fs(fst_reader *f, uint64_t ticks, int64_t *fs)
{
    if (!fst_ticks_fs(f, ticks, fs)) {
        diag_error(f->st.d, 6103, f->loc,
                   "time %llu (units of %lld fs) is beyond 2^63 fs (2.56 hours): not supported",
                   (unsigned long long)ticks, (long long)f->scale);
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* Copies and parses a var's name, "data [7:0]" or "data", into decl. */
static gp_status fst_reference(fst_reader *f, const struct fstHierVar *v, vcd_decl *decl)
{
    if (v->name_length + 1 > f->name_cap) {
        size_t cap = (size_t)v->name_length * 2 + 16;
        char *p = mem_realloc(f->name, cap);
        if (!p)
            return fst_nomem(f);
        f->name = p;
        f->name_cap = cap;
    }
    memcpy(f->name, v->name, v->name_length);
    if (!vcd_parse_reference(f->name, v->name_length, f->name, decl)) {
        diag_error(f->st.d, 6104, f->loc,
                   "malformed variable name '%.*s' (handle %u): expected a name, optionally "
                   "followed by [index] or [msb:lsb]", (int)v->name_length, v->name, v->handle);
        return GP_ERR_PARSE;
    }
    if (!vcd_decl_settle_range(decl)) {
        diag_error(f->st.d, 6105, f->loc, "variable '%s' has width %u but range [%d:%d]",
                   decl->name, decl->width, decl->msb, decl->lsb);
        return GP_ERR_PARSE;
    }
    return GP_OK;
}

static gp_status fst_declare(fst_reader *f, const struct fstHierVar *v)
{
    static const struct fst_type unknown = {"unknown", VCD_KIND_OTHER};
    const struct fst_type *t = v->typ <= FST_VT_MAX && fst_types[v->typ].name ? &fst_types[v->typ]
                                                                              : &unknown;
    vcd_decl decl = {.type = t->name, .kind = t->kind, .width = v->length};
    if (t->kind != VCD_KIND_LOGIC && decl.width == 0) /* strings have no width */
        decl.width = 1;
    if (v->handle == 0 || decl.width == 0 || decl.width > VCD_MAX_WIDTH) {
        diag_error(f->st.d, 6106, f->loc,
                   "variable '%.*s' has handle %u and width %u: expected a handle from 1 and a "
                   "width from 1 to %u", (int)v->name_length, v->name, v->handle, v->length,
                   VCD_MAX_WIDTH);
        return GP_ERR_PARSE;
    }
    gp_status st = fst_reference(f, v, &decl);
    return st == GP_OK ? vcd_state_declare(&f->st, v->handle - 1, &decl, f->loc) : st;
}

/* Error 6110: fstapi gave up on a damaged block (its exit(), fst_guard.c);
 * its reader is left unclosed. */
gp_status fst_report_damaged(diag_ctx *d, diag_loc loc, bool fstapi_said)
{
    diag_error(d, 6110, loc, "'%s' is damaged inside a block: fstapi cannot decompress it%s",
               loc.file, fstapi_said ? " (the line above is fstapi's)" : "");
    return GP_ERR_PARSE;
}

static gp_status fst_damaged(fst_reader *f)
{
    f->fst = NULL;
    return fst_report_damaged(f->st.d, f->loc, true);
}

static gp_status fst_read_hierarchy(fst_reader *f)
{
    struct fstHier *h;
    gp_status st = GP_OK;
    while (st == GP_OK) {
        if (!fst_guarded_hier(f->fst, &h))
            return fst_damaged(f);
        if (!h)
            break;
        if (h->htyp == FST_HT_SCOPE)
            st = vcd_state_push_scope(&f->st, h->u.scope.name, h->u.scope.name_length, f->loc);
        else if (h->htyp == FST_HT_UPSCOPE)
            vcd_state_pop_scope(&f->st);
        else if (h->htyp == FST_HT_VAR)
            st = fst_declare(f, &h->u.var);
    }
    return st;
}

/* Applies the dump on/off changes before time `ticks` (through it when
 * `through`).  A change at time t applies once every value change at t is
 * in: the values kept then are the ones a VCD's $dumpon would list. */
static gp_status fst_activity_upto(fst_reader *f, uint64_t ticks, bool through)
{
    for (; f->activity_next < f->activity_n; f->activity_next++) {
        uint64_t at = fstReaderGetDumpActivityChangeTime(f->fst, f->activity_next);
        if (at > ticks || (at == ticks && !through))
            break;
        int64_t fs;
        gp_status st = fst_to_fs(f, at, &fs);
        if (st == GP_OK)
            st = vcd_state_set_time(&f->st, fs);
        if (st == GP_OK)
            st = vcd_state_dump(&f->st,
                                fstReaderGetDumpActivityChangeValue(f->fst, f->activity_next) != 0);
        if (st != GP_OK)
            return st;
    }
    return GP_OK;
}

/* One var's value at a time: `value` holds width characters, MSB first. */
static gp_status fst_change(fst_reader *f, uint64_t ticks, fstHandle h, const unsigned char *value)
{
    gp_status st;
    if (ticks != f->last_ticks) {
        int64_t fs;
        if ((st = fst_activity_upto(f, ticks, false)) != GP_OK ||
            (st = fst_to_fs(f, ticks, &fs)) != GP_OK ||
            (st = vcd_state_set_time(&f->st, fs)) != GP_OK)
            return st;
        f->last_ticks = ticks;
    }
    if (h == 0 || h > f->st.slot_count || !f->st.slots[h - 1].deliver)
        return GP_OK;
    const vcd_slot *slot = &f->st.slots[h - 1];
    for (uint32_t i = 0; i < slot->width; i++) {
        unsigned char c = value[slot->width - 1 - i];
        uint8_t x = vcd_value_plus1[c];
        if (!x) {
            diag_error(f->st.d, 6107, f->loc,
                       "bad value character '%c' (0x%02x) at time %llu: values are 0, 1, x, X, z "
                       "and Z", c > ' ' && c < 127 ? c : '?', c, (unsigned long long)ticks);
            return GP_ERR_PARSE;
        }
        if ((st = vcd_state_set_bit(&f->st, h - 1, slot->off, i, x - 1)) != GP_OK)
            return st;
    }
    return GP_OK;
}

void fst_on_change(void *user, uint64_t ticks, fstHandle h, const unsigned char *value)
{
    fst_reader *f = user;
    if (f->status == GP_OK && ticks >= f->from && ticks <= f->to)
        f->status = fst_change(f, ticks, h, value);
}

void fst_select_delivered(const fst_reader *f, void *fst, uint32_t lo, uint32_t hi)
{
    fstReaderClrFacProcessMaskAll(fst);
    for (uint32_t id = lo; id < hi && id < f->st.slot_count; id++)
        if (f->st.slots[id].deliver)
            fstReaderSetFacProcessMask(fst, id + 1);
}

static gp_status fst_read_changes(fst_reader *f)
{
    fst_select_delivered(f, f->fst, 0, f->st.slot_count);
    f->activity_n = fstReaderGetNumberDumpActivityChanges(f->fst);
    f->last_ticks = UINT64_MAX;
    if (!fst_guarded_blocks(f->fst, f))
        return fst_damaged(f);
    if (f->status != GP_OK)
        return f->status;
    uint64_t end = fstReaderGetEndTime(f->fst);
    int64_t end_fs;
    gp_status st = fst_activity_upto(f, end, true);
    if (st == GP_OK)
        st = fst_to_fs(f, end, &end_fs);
    return st == GP_OK ? vcd_state_finish(&f->st, end_fs) : st;
}

gp_status fst_read_file(const char *path, const vcd_options *opt, const vcd_sink *sink,
                        const vcd_sink *changes_sink, diag_ctx *d)
{
    fst_reader f = {.loc = {path, 0, 0}, .to = UINT64_MAX};
    gp_status st = vcd_state_init(&f.st, path, opt, sink, d);
    bool escaped = false;
    if (st == GP_OK && (f.fst = fst_guarded_open(path, &escaped)) == NULL && escaped) {
        st = fst_damaged(&f);
    } else if (st == GP_OK && !f.fst) {
        diag_error(d, 6108, f.loc,
                   "cannot read '%s' as FST: it is damaged, truncated or declares no variable",
                   path);
        st = GP_ERR_PARSE;
    }
    if (st == GP_OK)
        st = fst_timescale(&f);
    if (st == GP_OK)
        st = fst_read_hierarchy(&f);
    if (st == GP_OK)
        st = vcd_state_start(&f.st, "FST", f.scale, f.loc);
    if (changes_sink)
        f.st.sink = changes_sink;
    bool done = false;
    if (st == GP_OK)
        st = fst_parts_read(&f, path, opt, &done);
    if (st == GP_OK && !done)
        st = fst_read_changes(&f);
    if (f.fst)
        fstReaderClose(f.fst);
    mem_free(f.name);
    vcd_state_free(&f.st);
    return st;
}
gp_status fst_read(const char *path, const vcd_options *opt, const vcd_sink *sink, diag_ctx *d)
{
    gp_status st = fst_check_file(path, d);
    if (st == GP_OK)
        st = fst_trial(path, opt, sink, d);
    return st == GP_OK ? fst_read_file(path, opt, sink, NULL, d) : st;
}
#endif
