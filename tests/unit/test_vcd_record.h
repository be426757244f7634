/* test_vcd_record.h: a sink for the activity readers' tests that writes every
 * call it gets as a line of text, so that a test compares the whole
 * sequence of calls with one expected string:
 *   var ID SCOPE|NAME TYPE wWIDTH [MSB:LSB] or -, then the names of bit 0 and
 *       of the last bit ("var 1 tb/dut|data wire w8 [7:0] tb/dut/data[0] tb/dut/data[7]")
 *   start FORMAT ts=FS ids=N vars=N
 *   @TIME ID.BIT=V       one line per bit change, V one of 0 1 x
 *   end TIME
 * It also checks the batches' promises (times never decrease, n > 0). */
#ifndef GP_TESTS_VCD_RECORD_H
#define GP_TESTS_VCD_RECORD_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vcd/vcd.h"

typedef struct vcd_record {
    char log[1 << 16];
    size_t len;
    int64_t last_time;
    int bad_batches;        /* batches with n == 0 or a time before the previous batch's */
    long change_count;
    long fail_after_changes; /* >0: the changes callback fails once this many were seen */
    uint32_t header_pieces;  /* the start's vcd_info's */
} vcd_record;

static void vcd_record_printf(vcd_record *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void vcd_record_printf(vcd_record *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(r->log + r->len, sizeof r->log - r->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        r->len = r->len + (size_t)n < sizeof r->log ? r->len + (size_t)n : sizeof r->log - 1;
}

static gp_status vcd_record_var(void *ctx, const vcd_var *v)
{
    vcd_record *r = ctx;
    char first[256], last[256], range[32] = "-";
    vcd_bit_name(v, 0, first, sizeof first);
    vcd_bit_name(v, v->width - 1, last, sizeof last);
    if (v->has_range)
        snprintf(range, sizeof range, "[%d:%d]", v->msb, v->lsb);
    vcd_record_printf(r, "var %u %s|%s %s w%u %s %s %s\n", v->id, v->scope, v->name, v->type,
                      v->width, range, first, last);
    return GP_OK;
}

static gp_status vcd_record_start(void *ctx, const vcd_info *info)
{
    ((vcd_record *)ctx)->header_pieces = info->header_pieces;
    vcd_record_printf(ctx, "start %s ts=%lld ids=%u vars=%u\n", info->format,
                      (long long)info->timescale_fs, info->id_count, info->var_count);
    return GP_OK;
}

static gp_status vcd_record_changes(void *ctx, int64_t time, const vcd_change *c, size_t n)
{
    vcd_record *r = ctx;
    if (n == 0 || time < r->last_time)
        r->bad_batches++;
    r->last_time = time;
    for (size_t i = 0; i < n; i++) {
        vcd_record_printf(r, "@%lld %u.%u=%c\n", (long long)time, c[i].id, c[i].bit,
                          "01x"[c[i].value]);
        if (++r->change_count == r->fail_after_changes)
            return GP_ERR_INPUT;
    }
    return GP_OK;
}

static gp_status vcd_record_finish(void *ctx, int64_t end)
{
    vcd_record_printf(ctx, "end %lld\n", (long long)end);
    return GP_OK;
}

static vcd_sink vcd_record_sink(vcd_record *r)
{
    memset(r, 0, sizeof *r);
    return (vcd_sink){.ctx = r, .var = vcd_record_var, .start = vcd_record_start,
                      .changes = vcd_record_changes, .finish = vcd_record_finish};
}

#endif
