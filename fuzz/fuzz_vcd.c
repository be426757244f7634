/* fuzz_vcd.c: the VCD reader on arbitrary bytes, whole and in tiny chunks
 * (so that commands straddle refills), with and without a scope selected;
 * the sink checks the reader's promises about batches and ids. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_sink.h"
#include "vcd/vcd.h"

static gp_status fuzz_changes(void *ctx, int64_t time, const vcd_change *c, size_t n)
{
    fuzz_sink *s = ctx;
    fuzz_check_changes(s, c, n);
    if (time < s->last_time)
        abort();
    s->last_time = time;
    return GP_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const size_t chunks[] = {0, 5};
    static const char *const scopes[] = {NULL, "tb/dut"};
    for (size_t i = 0; i < 2; i++) {
        diag_ctx *d = diag_new(NULL);
        fuzz_sink s = {0};
        vcd_sink sink = {.ctx = &s, .var = fuzz_var, .start = fuzz_start, .changes = fuzz_changes};
        vcd_options opt = {.scope = scopes[i], .chunk_size = chunks[i]};
        vcd_read_memory("fuzz", (const char *)data, size, &opt, &sink, d);
        diag_free(d);
    }
    return 0;
}
