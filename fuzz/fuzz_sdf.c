/* fuzz_sdf.c: the SDF reader on arbitrary input, under each triple pick, with
 * a visitor that reads every string and value it is given; read in parts,
 * it must say what it says in one reading. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sdf/sdf.h"

static size_t fuzz_sdf_sink; /* keeps the reads below from being optimised out */

static void fuzz_sdf_touch(const char *s)
{
    fuzz_sdf_sink += s ? strlen(s) : 0;
}

static void fuzz_sdf_touch_pin(const sdf_pin *p)
{
    fuzz_sdf_touch(p->inst);
    fuzz_sdf_touch(p->pin);
}

static void fuzz_sdf_touch_delay(const sdf_delay *d)
{
    fuzz_sdf_sink += (size_t)(d->has_rise && d->rise > 0) + (size_t)(d->has_fall && d->fall > 0);
}

static gp_status fuzz_sdf_header(void *ctx, const sdf_header *h, diag_loc loc)
{
    (void)ctx, (void)loc;
    fuzz_sdf_touch(h->sdf_version);
    fuzz_sdf_touch(h->design);
    fuzz_sdf_touch(h->process);
    return GP_OK;
}

static gp_status fuzz_sdf_cell(void *ctx, const char *celltype, const char *inst, diag_loc loc)
{
    (void)ctx, (void)loc;
    fuzz_sdf_touch(celltype);
    fuzz_sdf_touch(inst);
    return GP_OK;
}

static gp_status fuzz_sdf_iopath(void *ctx, const sdf_iopath *e, diag_loc loc)
{
    (void)ctx, (void)loc;
    fuzz_sdf_touch_pin(&e->in);
    fuzz_sdf_touch_pin(&e->out);
    fuzz_sdf_touch(e->cond);
    fuzz_sdf_touch(e->cond_name);
    fuzz_sdf_touch_delay(&e->delay);
    return GP_OK;
}

static gp_status fuzz_sdf_interconnect(void *ctx, const sdf_interconnect *e, diag_loc loc)
{
    (void)ctx, (void)loc;
    fuzz_sdf_touch_pin(&e->from);
    fuzz_sdf_touch_pin(&e->to);
    fuzz_sdf_touch_delay(&e->delay);
    return GP_OK;
}

static gp_status fuzz_sdf_port(void *ctx, const sdf_port_delay *e, diag_loc loc)
{
    (void)ctx, (void)loc;
    fuzz_sdf_touch_pin(&e->port);
    fuzz_sdf_touch_delay(&e->delay);
    return GP_OK;
}

static gp_status fuzz_sdf_device(void *ctx, const sdf_device *e, diag_loc loc)
{
    (void)ctx, (void)loc;
    fuzz_sdf_touch_pin(&e->out);
    fuzz_sdf_touch_delay(&e->delay);
    return GP_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const sdf_visitor v = {NULL, fuzz_sdf_header, fuzz_sdf_cell, fuzz_sdf_iopath,
                                  fuzz_sdf_interconnect, fuzz_sdf_port, fuzz_sdf_device};
    static const sdf_pick picks[] = {SDF_PICK_TYP, SDF_PICK_MIN, SDF_PICK_MAX};
    for (size_t i = 0; i < sizeof picks / sizeof picks[0]; i++) {
        diag_ctx *d = diag_new(NULL);
        sdf_options opt = {picks[i]};
        sdf_read_memory("fuzz.sdf", (const char *)data, size, &v, &opt, d);
        diag_free(d);
    }
    /* In parts, the same status and messages as in one reading. */
    diag_ctx *one = diag_new(NULL), *parts = diag_new(NULL);
    const sdf_visitor vs[3] = {v, v, v};
    uint32_t used;
    gp_status whole = sdf_read_memory("fuzz.sdf", (const char *)data, size, &v, NULL, one);
    gp_status cut = sdf_read_memory_parts("fuzz.sdf", (const char *)data, size, vs, 3, &used,
                                          NULL, parts);
    if (whole != cut || diag_error_count(one) != diag_error_count(parts) ||
        diag_warning_count(one) != diag_warning_count(parts) ||
        diag_first_error_no(one) != diag_first_error_no(parts) ||
        strcmp(diag_first_error_text(one), diag_first_error_text(parts)) != 0)
        __builtin_trap();
    diag_free(one);
    diag_free(parts);
    return 0;
}
