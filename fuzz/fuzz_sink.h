/* fuzz_sink.h: the activity sink the VCD and FST fuzz targets share: it
 * checks the reader's promises (start before changes, batches not empty,
 * ids declared, values 0, 1 or X) and aborts when one is broken. */
#ifndef GP_FUZZ_FUZZ_SINK_H
#define GP_FUZZ_FUZZ_SINK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "vcd/vcd.h"

typedef struct fuzz_sink {
    uint32_t id_count;
    int64_t last_time;
    bool started;
} fuzz_sink;

static inline gp_status fuzz_start(void *ctx, const vcd_info *info)
{
    fuzz_sink *s = ctx;
    s->id_count = info->id_count;
    s->started = true;
    return GP_OK;
}

static inline gp_status fuzz_var(void *ctx, const vcd_var *v)
{
    char name[64];
    (void)ctx;
    vcd_bit_name(v, v->width - 1, name, sizeof name);
    return GP_OK;
}

static inline void fuzz_check_changes(const fuzz_sink *s, const vcd_change *c, size_t n)
{
    if (!s->started || n == 0)
        abort();
    for (size_t i = 0; i < n; i++)
        if (c[i].id >= s->id_count || c[i].value > VCD_X)
            abort();
}

#endif
