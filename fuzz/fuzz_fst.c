/* fuzz_fst.c: the FST reader on arbitrary bytes (written to a file of the
 * process's own: the reader maps files), in file order and in parts as
 * runs; the sink checks the reader's promises about batches, runs and ids.  Whatever the
 * bytes, the reader must return, having read nothing outside them. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "vcd/fst_reader.h"
#include "fuzz_sink.h"

static gp_status fuzz_changes(void *ctx, int64_t time, const vcd_change *c, size_t n)
{
    (void)time;
    fuzz_check_changes(ctx, c, n);
    return GP_OK;
}

static gp_status fuzz_parts(void *ctx, uint32_t n)
{
    (void)ctx;
    (void)n;
    return GP_OK;
}

static gp_status fuzz_part_changes(void *ctx, uint32_t part, int64_t time, const vcd_change *c,
                                   size_t n)
{
    (void)part;
    (void)time;
    fuzz_check_changes(ctx, c, n);
    return GP_OK;
}

/* A part's times and runs come from the thread that decodes it. */
static _Thread_local struct {
    uint32_t part;
    size_t times;
    int64_t last;
} fuzz_run_part = {UINT32_MAX, 0, 0};

static gp_status fuzz_part_times(void *ctx, uint32_t part, const int64_t *time, size_t n)
{
    (void)ctx;
    for (size_t k = 1; k < n; k++)
        if (time[k] < time[k - 1])
            abort();
    fuzz_run_part.part = part;
    fuzz_run_part.times = n;
    return GP_OK;
}

/* A run: after its part's times, not empty, time indices inside them and
 * not decreasing, values 0, 1 or X. */
static gp_status fuzz_part_run(void *ctx, uint32_t part, uint32_t id, uint32_t bit,
                               const uint32_t *change, size_t n)
{
    const fuzz_sink *s = ctx;
    (void)bit;
    if (part != fuzz_run_part.part || n == 0 || id >= s->id_count)
        abort();
    for (size_t k = 0; k < n; k++)
        if ((change[k] >> 2) >= fuzz_run_part.times || (change[k] & 3) > VCD_X ||
            (k > 0 && change[k] >> 2 < change[k - 1] >> 2))
            abort();
    return GP_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/gp_fuzz_fst_%d.fst", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    for (uint32_t threads = 1; threads <= 4; threads += 3) {
        diag_ctx *d = diag_new(NULL);
        fuzz_sink s = {0};
        vcd_sink sink = {.ctx = &s, .var = fuzz_var, .start = fuzz_start,
                         .changes = fuzz_changes, .parts = fuzz_parts,
                         .part_changes = fuzz_part_changes};
        if (threads > 1) { /* in parts, as runs */
            sink.part_times = fuzz_part_times;
            sink.part_run = fuzz_part_run;
        }
        vcd_options opt = {.threads = threads};
        fst_read(path, &opt, &sink, d);
        diag_free(d);
    }
    unlink(path);
    return 0;
}
