/* bench_vcd.c: throughput of the activity readers on a generated gate-level
 * style dump: many 1-bit nets and some buses, mostly scalar changes, a few
 * dozen changes per time stamp.
 *
 * usage: bench_vcd [VCD_MB] [REPEATS] [SMALL_MB]   (default 1024 3 256)
 *   VCD_MB    size of the plain VCD parsed for MB/s (written to /tmp)
 *   SMALL_MB  size of the same dump as .vcd.gz and as FST (written through
 *             fstapi's writer), parsed for events/s
 * Every file is deleted afterwards.  An event is one bit change handed to
 * the sink; the sink counts them as a consumer's loop would.  Each figure
 * comes by wall clock and by the process's CPU time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "vcd/vcd.h"
#ifdef GATEPOWER_HAVE_FST
#include "fstapi.h"
#endif

#define BENCH_SCALARS 200000 /* 1-bit nets: codes of 1 to 3 characters */
#define BENCH_BUSES 4000     /* 8..39-bit buses: codes of 3 characters */
#define BENCH_BLOCKS 100     /* scopes tb/dut/u_bN the nets are spread over */
#define BENCH_VARS (BENCH_SCALARS + BENCH_BUSES)

static double clock_seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double now_seconds(void) { return clock_seconds(CLOCK_MONOTONIC); }

/* ---- the generator: one dump, written as VCD text or through fstapi ---- */

typedef struct bench_out {
    FILE *f;      /* plain VCD, or */
    gzFile gz;    /* gzip VCD, or */
    void *fst;    /* FST writer */
    uint32_t handles[BENCH_VARS]; /* FST handle of each var id */
    char buf[1 << 16];
    size_t len;
    uint64_t text_bytes; /* of the VCD text, whichever the output */
} bench_out;

static void out_flush(bench_out *o)
{
    if (o->f)
        fwrite(o->buf, 1, o->len, o->f);
    else if (o->gz)
        gzwrite(o->gz, o->buf, (unsigned)o->len);
    o->len = 0;
}

/* Appends VCD text (always formatted: its length sizes every output). */
static void out_text(bench_out *o, const char *s, size_t n)
{
    if (o->len + n > sizeof o->buf)
        out_flush(o);
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->text_bytes += n;
}

static size_t code_of(uint32_t id, char *p)
{
    size_t n = 0;
    for (;;) { /* bijective base 94 */
        p[n++] = (char)('!' + id % 94);
        if (id < 94)
            return n;
        id = id / 94 - 1;
    }
}

static uint32_t bus_width(uint32_t bus) { return 8 + bus % 32; }

static void gen_var(bench_out *o, uint32_t id)
{
    char code[8], name[32], line[128];
    code[code_of(id, code)] = '\0';
    uint32_t width = id < BENCH_SCALARS ? 1 : bus_width(id - BENCH_SCALARS);
    if (width == 1)
        snprintf(name, sizeof name, "n%u", id);
    else
        snprintf(name, sizeof name, "bus%u [%u:0]", id, width - 1);
    int n = snprintf(line, sizeof line, "$var wire %u %s %s $end\n", width, code, name);
    out_text(o, line, (size_t)n);
#ifdef GATEPOWER_HAVE_FST
    if (o->fst)
        o->handles[id] =
            fstWriterCreateVar(o->fst, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, width, name, 0);
#endif
}

/* Declares the vars block by block (var id goes to block id % BENCH_BLOCKS). */
static void gen_header(bench_out *o)
{
    char line[128];
    int n = snprintf(line, sizeof line, "$timescale 1ps $end\n$scope module tb $end\n"
                                         "$scope module dut $end\n");
    out_text(o, line, (size_t)n);
#ifdef GATEPOWER_HAVE_FST
    if (o->fst) {
        fstWriterSetTimescale(o->fst, -12);
        fstWriterSetScope(o->fst, FST_ST_VCD_MODULE, "tb", NULL);
        fstWriterSetScope(o->fst, FST_ST_VCD_MODULE, "dut", NULL);
    }
#endif
    for (uint32_t block = 0; block < BENCH_BLOCKS; block++) {
        char scope[16];
        snprintf(scope, sizeof scope, "u_b%u", block);
        n = snprintf(line, sizeof line, "$scope module %s $end\n", scope);
        out_text(o, line, (size_t)n);
#ifdef GATEPOWER_HAVE_FST
        if (o->fst)
            fstWriterSetScope(o->fst, FST_ST_VCD_MODULE, scope, NULL);
#endif
        for (uint32_t id = block; id < BENCH_VARS; id += BENCH_BLOCKS)
            gen_var(o, id);
        out_text(o, "$upscope $end\n", 14);
#ifdef GATEPOWER_HAVE_FST
        if (o->fst)
            fstWriterSetUpscope(o->fst);
#endif
    }
    n = snprintf(line, sizeof line, "$upscope $end\n$upscope $end\n$enddefinitions $end\n");
    out_text(o, line, (size_t)n);
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void gen_time(bench_out *o, uint64_t t)
{
    char line[32];
    int n = snprintf(line, sizeof line, "#%llu\n", (unsigned long long)t);
    out_text(o, line, (size_t)n);
#ifdef GATEPOWER_HAVE_FST
    if (o->fst)
        fstWriterEmitTimeChange(o->fst, t);
#endif
}

/* One change of var `id`: a scalar toggles (1 in 64 goes through x), a bus
 * takes a random value. */
static void gen_change(bench_out *o, uint32_t id, uint8_t *state, uint64_t *rng)
{
    char line[64], bits[48];
    size_t n = 0;
    uint64_t r = rng_next(rng);
    uint32_t width = id < BENCH_SCALARS ? 1 : bus_width(id - BENCH_SCALARS);
    if (width == 1) {
        state[id] = (r & 63) == 0 ? 2 : state[id] == 1 ? 0 : 1;
        bits[0] = "01x"[state[id]];
        line[n++] = bits[0];
    } else {
        line[n++] = 'b';
        for (uint32_t b = 0; b < width; b++)
            line[n++] = bits[b] = (char)('0' + ((r >> b) & 1));
        line[n++] = ' ';
    }
    bits[width] = '\0';
    n += code_of(id, line + n);
    line[n++] = '\n';
    out_text(o, line, n);
#ifdef GATEPOWER_HAVE_FST
    if (o->fst)
        fstWriterEmitValueChange(o->fst, o->handles[id], bits);
#endif
}

/* Writes the dump until its VCD text reaches `bytes`. */
static void gen_dump(bench_out *o, uint64_t bytes)
{
    uint8_t *state = calloc(BENCH_SCALARS, 1);
    uint64_t rng = 0x9e3779b97f4a7c15ULL, t = 0;
    gen_header(o);
    while (o->text_bytes < bytes) {
        gen_time(o, t);
        uint64_t r = rng_next(&rng);
        t += 1 + r % 50;
        uint32_t changes = 1 + (uint32_t)(r >> 8) % 64;
        for (uint32_t i = 0; i < changes; i++) {
            uint64_t pick = rng_next(&rng);
            bool bus = pick % 100 < 5; /* 5% of changes are bus changes */
            uint32_t id = bus ? BENCH_SCALARS + (uint32_t)(pick >> 8) % BENCH_BUSES
                              : (uint32_t)(pick >> 8) % BENCH_SCALARS;
            gen_change(o, id, state, &rng);
        }
    }
    out_flush(o);
    free(state);
}

static int write_vcd(const char *path, uint64_t bytes, bool gz, uint64_t *text_bytes)
{
    static bench_out o;
    memset(&o, 0, sizeof o);
    o.f = gz ? NULL : fopen(path, "wb");
    o.gz = gz ? gzopen(path, "wb1") : NULL;
    if (!o.f && !o.gz)
        return -1;
    gen_dump(&o, bytes);
    *text_bytes = o.text_bytes;
    return gz ? (gzclose(o.gz) != Z_OK) : fclose(o.f);
}

/* ---- reading ------------------------------------------------------------ */

typedef struct bench_count {
    uint64_t events, ones;
} bench_count;

static gp_status count_changes(void *ctx, int64_t time, const vcd_change *c, size_t n)
{
    bench_count *k = ctx;
    (void)time;
    for (size_t i = 0; i < n; i++)
        k->ones += c[i].value == VCD_1;
    k->events += n;
    return GP_OK;
}

/* Reads `path` once: wall-clock seconds, or -1 on error; *cpu the
 * process's CPU seconds (on a machine shared with other work, the wall
 * clock also counts time the reader waited for a core). */
static double read_once(const char *path, bench_count *k, double *cpu)
{
    diag_ctx *d = diag_new(stderr);
    memset(k, 0, sizeof *k);
    vcd_sink sink = {.ctx = k, .changes = count_changes};
    double start = now_seconds(), cpu_start = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    gp_status st = vcd_read(path, NULL, &sink, d);
    double seconds = now_seconds() - start;
    *cpu = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
    diag_free(d);
    return st == GP_OK ? seconds : -1;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int measure(const char *label, const char *path, uint64_t text_bytes, int repeats)
{
    double seconds[16], cpu[16];
    bench_count k;
    for (int r = 0; r < repeats; r++)
        if ((seconds[r] = read_once(path, &k, &cpu[r])) < 0)
            return 1;
    qsort(seconds, (size_t)repeats, sizeof seconds[0], compare_doubles);
    qsort(cpu, (size_t)repeats, sizeof cpu[0], compare_doubles);
    double mb = (double)text_bytes / 1e6, med = seconds[repeats / 2];
    printf("%-6s %7.1f MB of VCD text %10llu events  median %6.1f MB/s  best %6.1f MB/s  "
           "%5.1f M events/s  (by CPU time: median %6.1f MB/s %5.1f M events/s)\n", label, mb,
           (unsigned long long)k.events, mb / med, mb / seconds[0], (double)k.events / med / 1e6,
           mb / cpu[repeats / 2], (double)k.events / cpu[repeats / 2] / 1e6);
    return 0;
}

#ifdef GATEPOWER_HAVE_FST
static int write_fst(const char *path, uint64_t bytes, uint64_t *text_bytes)
{
    static bench_out o;
    memset(&o, 0, sizeof o);
    if (!(o.fst = fstWriterCreate(path, 1)))
        return -1;
    fstWriterSetPackType(o.fst, FST_WR_PT_LZ4);
    gen_dump(&o, bytes);
    fstWriterClose(o.fst);
    *text_bytes = o.text_bytes;
    return 0;
}
#endif

/* The small dump as .vcd.gz and FST. */
static int measure_small(uint64_t bytes, int repeats)
{
    char gz[] = "/tmp/gp_bench_vcd_XXXXXX";
    int fd = mkstemp(gz);
    if (fd < 0)
        return 1;
    close(fd);
    uint64_t text_bytes = 0;
    int rc = write_vcd(gz, bytes, true, &text_bytes) || measure("vcd.gz", gz, text_bytes, repeats);
    unlink(gz);
#ifdef GATEPOWER_HAVE_FST
    char fst[] = "/tmp/gp_bench_fst_XXXXXX";
    if (rc == 0 && (fd = mkstemp(fst)) >= 0) {
        close(fd);
        double start = now_seconds();
        rc = write_fst(fst, bytes, &text_bytes);
        printf("(FST written in %.1f s)\n", now_seconds() - start);
        rc = rc || measure("fst", fst, text_bytes, repeats);
        unlink(fst);
    }
#else
    printf("fst        skipped: this build has no FST support\n");
#endif
    return rc;
}

int main(int argc, char **argv)
{
    long vcd_mb = argc > 1 ? atol(argv[1]) : 1024;
    int repeats = argc > 2 ? atoi(argv[2]) : 3;
    long small_mb = argc > 3 ? atol(argv[3]) : 256;
    if (vcd_mb <= 0 || small_mb <= 0 || repeats < 1 || repeats > 16) {
        fprintf(stderr, "usage: bench_vcd [VCD_MB>0] [REPEATS 1..16] [SMALL_MB>0]\n");
        return 2;
    }
    char plain[] = "/tmp/gp_bench_vcd_XXXXXX";
    int fd = mkstemp(plain);
    if (fd < 0)
        return 1;
    close(fd);
    uint64_t text_bytes = 0;
    double start = now_seconds();
    int rc = write_vcd(plain, (uint64_t)vcd_mb * 1000000, false, &text_bytes);
    printf("(VCD written in %.1f s)\n", now_seconds() - start);
    rc = rc || measure("vcd", plain, text_bytes, repeats);
    unlink(plain);
    return rc || measure_small((uint64_t)small_mb * 1000000, repeats);
}
