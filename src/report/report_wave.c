/* report_wave.c: the power waveform for waveform viewers: waveform.vcd
 * (always) and waveform.fst (builds with GTKWave's fstapi).  Both hold six
 * real signals under the scope `power` (the five components and the total,
 * W), each taking its cycle's value at the cycle's start t0 + c*T; a value
 * is written only where it changes, and the last time stamp is the end of
 * the last cycle, t0 + n*T.  The time unit is report_time_unit's, so every
 * time stamp is exact. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/report_int.h"
#include "util/json.h"

#ifdef GATEPOWER_HAVE_FST
#include "fstapi.h"
#endif

/* The VCD identifier codes of the signals: one printable character each. */
static const char vcd_codes[REPORT_WAVE_SIGNALS] = {'!', '"', '#', '$', '%', '&'};

static const char *unit_name(int exponent)
{
    static const char *const names[] = {"1fs", "1ps", "1ns", "1us", "1ms", "1s"};
    return names[(exponent + 15) / 3];
}

static void vcd_header(FILE *out, const report_ctx *c, int exponent)
{
    fprintf(out, "$version gatepower %s $end\n", GATEPOWER_VERSION);
    fprintf(out, "$comment power waveform of %s: watts per clock cycle $end\n",
            c->opt.design_name);
    fprintf(out, "$timescale %s $end\n$scope module power $end\n", unit_name(exponent));
    for (int s = 0; s < REPORT_WAVE_SIGNALS; s++)
        fprintf(out, "$var real 64 %c %s $end\n", vcd_codes[s], report_wave_names[s]);
    fputs("$upscope $end\n$enddefinitions $end\n", out);
}

/* Cycle b's start (b = n_cycles: the end of the last cycle) in time units. */
static int64_t cycle_tick(const power_result *r, uint32_t b, int64_t unit)
{
    return (r->window_start_fs + (int64_t)b * r->period_fs) / unit;
}

gp_status report_vcd_file(FILE *out, const report_ctx *c)
{
    const power_result *r = c->r;
    int64_t unit;
    int exponent = report_time_unit(r, &unit);
    vcd_header(out, c, exponent);
    double last[REPORT_WAVE_SIGNALS], v[REPORT_WAVE_SIGNALS];
    char buf[JSON_NUMBER_MAX];
    for (uint32_t b = 0; b < r->n_cycles; b++) {
        report_wave_values(r, b, v);
        fprintf(out, "#%" PRId64 "\n", cycle_tick(r, b, unit));
        if (b == 0)
            fputs("$dumpvars\n", out);
        for (int s = 0; s < REPORT_WAVE_SIGNALS; s++)
            if (b == 0 || v[s] != last[s])
                fprintf(out, "r%s %c\n", json_number_text(v[s], buf), vcd_codes[s]);
        if (b == 0)
            fputs("$end\n", out);
        memcpy(last, v, sizeof v);
    }
    fprintf(out, "#%" PRId64 "\n", cycle_tick(r, r->n_cycles, unit));
    return GP_OK;
}

#ifdef GATEPOWER_HAVE_FST

/* The date written into the file: SOURCE_DATE_EPOCH's when set, else the
 * epoch, so that two runs write the same bytes. */
static const char *fst_date(char *date, size_t size)
{
    const char *epoch = getenv("SOURCE_DATE_EPOCH");
    time_t t = epoch ? (time_t)strtoll(epoch, NULL, 10) : 0;
    struct tm tm;
    if (!gmtime_r(&t, &tm) || !strftime(date, size, "%a %b %e %H:%M:%S %Y", &tm))
        return "Thu Jan  1 00:00:00 1970";
    return date;
}

/* Whether the FST file at path reads back with its signals and its end. */
static bool fst_file_whole(const char *path, uint64_t end)
{
    void *f = fstReaderOpen(path);
    if (!f)
        return false;
    bool whole = fstReaderGetVarCount(f) == REPORT_WAVE_SIGNALS && fstReaderGetEndTime(f) == end;
    fstReaderClose(f);
    return whole;
}

/* The header: version, timescale, the scope and its six real variables. */
static void fst_header(void *w, const report_ctx *c, int exponent,
                       fstHandle handles[REPORT_WAVE_SIGNALS])
{
    char comment[256], date[64];
    snprintf(comment, sizeof comment, "power waveform of %s: watts per clock cycle",
             c->opt.design_name);
    fstWriterSetVersion(w, "gatepower " GATEPOWER_VERSION);
    fstWriterSetDate(w, fst_date(date, sizeof date));
    fstWriterSetComment(w, comment);
    fstWriterSetTimescale(w, exponent);
    fstWriterSetScope(w, FST_ST_VCD_MODULE, "power", NULL);
    for (int s = 0; s < REPORT_WAVE_SIGNALS; s++)
        handles[s] = fstWriterCreateVar(w, FST_VT_VCD_REAL, FST_VD_IMPLICIT, 64,
                                        report_wave_names[s], 0);
    fstWriterSetUpscope(w);
}

gp_status report_fst_file(const report_ctx *c)
{
    const power_result *r = c->r;
    errno = 0;
    void *w = fstWriterCreate(c->write_path, 1);
    if (!w)
        return report_write_failed(c, errno ? errno : EIO);
    int64_t unit;
    fstHandle handles[REPORT_WAVE_SIGNALS];
    fst_header(w, c, report_time_unit(r, &unit), handles);
    double last[REPORT_WAVE_SIGNALS], v[REPORT_WAVE_SIGNALS];
    for (uint32_t b = 0; b < r->n_cycles; b++) {
        report_wave_values(r, b, v);
        fstWriterEmitTimeChange(w, (uint64_t)cycle_tick(r, b, unit));
        for (int s = 0; s < REPORT_WAVE_SIGNALS; s++)
            if (b == 0 || v[s] != last[s])
                fstWriterEmitValueChange(w, handles[s], &v[s]);
        memcpy(last, v, sizeof v);
    }
    uint64_t end = (uint64_t)cycle_tick(r, r->n_cycles, unit);
    fstWriterEmitTimeChange(w, end);
    /* fstapi reports no write errors but a failed seek: the file is read
     * back to know it is whole. */
    bool failed = fstWriterGetFseekFailed(w);
    fstWriterClose(w);
    return failed || !fst_file_whole(c->write_path, end) ? report_write_failed(c, EIO) : GP_OK;
}

#else

gp_status report_fst_file(const report_ctx *c)
{
    diag_note(c->d, 8504, DIAG_NOWHERE,
              "'%s' not written: this build has no FST support (install verilator, which ships "
              "GTKWave's fstapi sources, and rebuild); waveform.vcd holds the same waveform",
              c->path);
    return GP_OK;
}

#endif
