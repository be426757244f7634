/* test_fst_fstapi.c: gatepower's FST reader against GTKWave's own reader
 * (fstapi's fstReaderIterBlocks2, the other tool) on random files that
 * fstapi's writer makes: every pack type (zlib, FastLZ, LZ4), a plain or
 * compressed hierarchy, gzip-wrapped files, several value-change blocks,
 * aliases, vectors up to 70 bits with two-valued and four-valued values,
 * reals and strings (skipped by both).  Both readings become the list of
 * bit changes each bit sees, in its order: they must be equal. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

#ifdef GATEPOWER_HAVE_FST
#include "fstapi.h"
#include "vcd/vcd.h"

typedef struct bit_change {
    uint64_t time;
    uint32_t id, bit, seq;
    uint8_t value;
} bit_change;

typedef struct changes {
    bit_change *c;
    size_t n, cap;
    uint32_t *width; /* per id (handle - 1); 0: not delivered */
    uint32_t *off;   /* per id: its first bit in last */
    uint8_t *last;   /* per bit: its value so far */
    uint32_t ids;
    int64_t told_last_fs, end_fs; /* vcd_info.last_time_fs; the end finish gives */
} changes;

static void push(changes *s, uint64_t time, uint32_t id, uint32_t bit, uint8_t value)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 4096;
        s->c = realloc(s->c, s->cap * sizeof *s->c);
    }
    s->c[s->n] = (bit_change){time, id, bit, (uint32_t)s->n, value};
    s->n++;
}

static int by_bit_then_order(const void *a, const void *b)
{
    const bit_change *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    if (x->bit != y->bit)
        return x->bit < y->bit ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* A small random generator of the test's own. */
static uint64_t rnd_state;
static uint32_t rnd(uint32_t n)
{
    rnd_state = rnd_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)((rnd_state >> 33) % n);
}

/* ---- the file ---- */

typedef struct spec {
    int pack;       /* FST_WR_PT_* */
    int compress_hier, repack, blocks;
    uint32_t vars;
} spec;

static void random_value(char *v, uint32_t width, bool four_valued)
{
    for (uint32_t i = 0; i < width; i++)
        v[i] = four_valued && rnd(4) == 0 ? "xz"[rnd(2)] : (char)('0' + rnd(2));
    v[width] = '\0';
}

static void write_random(const char *path, const spec *sp)
{
    void *w = fstWriterCreate(path, sp->compress_hier);
    fstWriterSetPackType(w, sp->pack);
    fstWriterSetRepackOnClose(w, sp->repack);
    fstWriterSetTimescale(w, -12);
    fstWriterSetScope(w, FST_ST_VCD_MODULE, "tb", NULL);
    fstHandle *h = calloc(sp->vars, sizeof *h);
    uint32_t *width = calloc(sp->vars, sizeof *width);
    char name[64];
    for (uint32_t i = 0; i < sp->vars; i++) {
        width[i] = rnd(10) < 7 ? 1 : 2 + rnd(69);
        if (i > 0 && rnd(8) == 0) { /* an alias of an earlier var */
            uint32_t j = rnd(i);
            width[i] = width[j];
            snprintf(name, sizeof name, "alias%u", i);
            h[i] = fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, width[i], name, h[j]);
            continue;
        }
        if (width[i] > 1)
            snprintf(name, sizeof name, "v%u [%u:0]", i, width[i] - 1);
        else
            snprintf(name, sizeof name, "s%u", i);
        h[i] = fstWriterCreateVar(w, rnd(2) ? FST_VT_VCD_WIRE : FST_VT_VCD_REG, FST_VD_IMPLICIT,
                                  width[i], name, 0);
    }
    fstHandle real = fstWriterCreateVar(w, FST_VT_VCD_REAL, FST_VD_IMPLICIT, 64, "r", 0);
    fstHandle text = fstWriterCreateVar(w, FST_VT_GEN_STRING, FST_VD_IMPLICIT, 0, "msg", 0);
    fstWriterSetUpscope(w);
    char v[80];
    uint64_t t = rnd(3) * 7; /* some files start later than 0 */
    int steps = 400, flush_every = steps / (sp->blocks ? sp->blocks : 1) + 1;
    for (int step = 0; step < steps; step++) {
        fstWriterEmitTimeChange(w, t);
        bool four = rnd(3) == 0;
        for (uint32_t k = rnd(sp->vars); k-- > 0;) {
            uint32_t i = rnd(sp->vars);
            random_value(v, width[i], four);
            fstWriterEmitValueChange(w, h[i], v);
        }
        if (rnd(5) == 0) {
            double d = step * 0.25;
            fstWriterEmitValueChange(w, real, &d);
            fstWriterEmitVariableLengthValueChange(w, text, "hi", 2);
        }
        if (step % flush_every == flush_every - 1)
            fstWriterFlushContext(w);
        t += rnd(4) == 0 ? 0 : 1 + rnd(9);
    }
    fstWriterClose(w);
    free(h);
    free(width);
}

/* ---- fstapi's reading ---- */

static void setup_ids(changes *s, uint32_t ids)
{
    s->ids = ids;
    s->width = calloc(ids, sizeof *s->width);
    s->off = calloc(ids + 1, sizeof *s->off);
}

static void setup_bits(changes *s)
{
    for (uint32_t i = 0; i < s->ids; i++)
        s->off[i + 1] = s->off[i] + s->width[i];
    s->last = malloc(s->off[s->ids] + 1);
    memset(s->last, 2, s->off[s->ids] + 1); /* every bit X before its first change */
}

static void on_fstapi_change(void *ctx, uint64_t time, fstHandle handle, const unsigned char *value)
{
    changes *s = ctx;
    uint32_t id = handle - 1, width = id < s->ids ? s->width[id] : 0;
    for (uint32_t bit = 0; bit < width; bit++) {
        char c = (char)value[width - 1 - bit];
        uint8_t v = c == '0' ? 0 : c == '1' ? 1 : 2;
        if (s->last[s->off[id] + bit] != v) {
            s->last[s->off[id] + bit] = v;
            push(s, time, id, bit, v);
        }
    }
}

static bool logic_type(int typ)
{
    return typ != FST_VT_VCD_REAL && typ != FST_VT_VCD_REAL_PARAMETER &&
           typ != FST_VT_VCD_REALTIME && typ != FST_VT_SV_SHORTREAL && typ != FST_VT_GEN_STRING &&
           typ != FST_VT_VCD_PORT && typ != FST_VT_VCD_SPARRAY;
}

static void read_fstapi(const char *path, changes *s)
{
    void *r = fstReaderOpen(path);
    CHECK(r != NULL);
    if (!r)
        return;
    setup_ids(s, (uint32_t)fstReaderGetMaxHandle(r));
    struct fstHier *hv;
    while ((hv = fstReaderIterateHier(r)))
        if (hv->htyp == FST_HT_VAR && logic_type(hv->u.var.typ))
            s->width[hv->u.var.handle - 1] = hv->u.var.length;
    setup_bits(s);
    fstReaderSetFacProcessMaskAll(r);
    fstReaderIterBlocks2(r, on_fstapi_change, NULL, s, NULL);
    fstReaderClose(r);
}

/* ---- gatepower's reading ---- */

static gp_status on_var(void *ctx, const vcd_var *v)
{
    (void)ctx;
    (void)v;
    return GP_OK;
}

static gp_status on_changes(void *ctx, int64_t time_fs, const vcd_change *c, size_t n)
{
    changes *s = ctx;
    for (size_t k = 0; k < n; k++)
        push(s, (uint64_t)time_fs / 1000, c[k].id, c[k].bit, c[k].value);
    return GP_OK;
}

static gp_status on_start(void *ctx, const vcd_info *info)
{
    ((changes *)ctx)->told_last_fs = info->last_time_fs;
    return GP_OK;
}

static gp_status on_finish(void *ctx, int64_t end_time_fs)
{
    ((changes *)ctx)->end_fs = end_time_fs;
    return GP_OK;
}

/* Reads path into s; the end the header told must be the end read. */
static void read_gatepower(const char *path, changes *s)
{
    diag_ctx *d = diag_new(NULL);
    vcd_sink sink = {.ctx = s, .var = on_var, .start = on_start, .changes = on_changes,
                     .finish = on_finish};
    vcd_options opt = {.threads = 1};
    s->told_last_fs = -2;
    CHECK_EQ_INT(vcd_read(path, &opt, &sink, d), GP_OK);
    CHECK(s->told_last_fs == s->end_fs && s->end_fs > 0);
    if (diag_error_count(d))
        fprintf(stderr, "  %s: %s\n", path, diag_first_error_text(d));
    diag_free(d);
}

static void changes_free(changes *s)
{
    free(s->c);
    free(s->width);
    free(s->off);
    free(s->last);
}

static void compare(const char *path, const spec *sp)
{
    changes mine = {0}, theirs = {0};
    read_gatepower(path, &mine);
    read_fstapi(path, &theirs);
    qsort(mine.c, mine.n, sizeof *mine.c, by_bit_then_order);
    qsort(theirs.c, theirs.n, sizeof *theirs.c, by_bit_then_order);
    CHECK(theirs.n > 100);
    CHECK_EQ_INT(mine.n, theirs.n);
    size_t bad = 0;
    for (size_t k = 0; k < mine.n && k < theirs.n; k++) {
        const bit_change *a = &mine.c[k], *b = &theirs.c[k];
        if (a->time != b->time || a->id != b->id || a->bit != b->bit || a->value != b->value) {
            if (bad++ == 0)
                fprintf(stderr, "  change %zu: %llu %u.%u=%u against fstapi's %llu %u.%u=%u\n", k,
                        (unsigned long long)a->time, a->id, a->bit, a->value,
                        (unsigned long long)b->time, b->id, b->bit, b->value);
        }
    }
    CHECK_EQ_INT(bad, 0);
    if (bad || mine.n != theirs.n)
        fprintf(stderr, "  pack %d hier %d repack %d blocks %d vars %u\n", sp->pack,
                sp->compress_hier, sp->repack, sp->blocks, sp->vars);
    changes_free(&mine);
    changes_free(&theirs);
}

static void test_random_files_read_as_fstapi_reads_them(void)
{
    static const int packs[] = {FST_WR_PT_ZLIB, FST_WR_PT_FASTLZ, FST_WR_PT_LZ4};
    char path[64];
    snprintf(path, sizeof path, "/tmp/gp_test_fst_fstapi_%ld.fst", (long)getpid());
    for (uint64_t seed = 1; seed <= 24; seed++) {
        rnd_state = seed * 0x9e3779b97f4a7c15ULL;
        spec sp = {.pack = packs[seed % 3], .compress_hier = (int)(seed / 3 % 2),
                   .repack = seed % 8 == 7, .blocks = (int)(seed % 5), .vars = 1 + rnd(200)};
        write_random(path, &sp);
        compare(path, &sp);
    }
    unlink(path);
    strcat(path, ".hier"); /* what the writer leaves without a compressed hierarchy */
    unlink(path);
}

int main(void)
{
    RUN(test_random_files_read_as_fstapi_reads_them);
    return check_exit_code();
}
#else
int main(void)
{
    check_skip("this build has no FST support (cmake/fstapi.cmake found no fstapi sources)");
}
#endif
