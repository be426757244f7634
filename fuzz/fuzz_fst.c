/* fuzz_fst.c: the FST reader on arbitrary bytes (written to a file of the
 * process's own: the reader maps files), in file order and in parts; the
 * sink checks the reader's promises about batches and ids.  Whatever the
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
        vcd_options opt = {.threads = threads};
        fst_read(path, &opt, &sink, d);
        diag_free(d);
    }
    unlink(path);
    return 0;
}
