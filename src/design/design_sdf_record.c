/* design_sdf_record.c: an SDF file's delay entries recorded without a
 * design (design_sdf_read), so that the SDF can be read while the netlist
 * is, and annotated once the design exists (design_sdf.c).  The entries
 * keep the file's order, their names (NUL-separated, in one text) and
 * where they are in the file. */
#include "design/design_int.h"

#include <string.h>

#include "util/mem.h"

typedef struct recorder {
    design_sdf *sdf;
    bool (*stopped)(void *ctx);
    void *stopped_ctx;
    diag_ctx *d;
} recorder;

static gp_status no_memory(recorder *r)
{
    diag_error(r->d, 7018, DIAG_NOWHERE, "out of memory while reading the SDF's delays");
    return GP_ERR_NOMEM;
}

/* Appends s and its NUL to the text. */
static bool add_text(design_sdf *sdf, const char *s)
{
    size_t n = strlen(s) + 1;
    if (!vec_char_reserve(&sdf->text, sdf->text.len + n))
        return false;
    memcpy(sdf->text.data + sdf->text.len, s, n);
    sdf->text.len += n;
    return true;
}

static gp_status on_cell(void *ctx, const char *celltype, const char *instance, diag_loc loc)
{
    recorder *r = ctx;
    (void)loc;
    if (r->stopped && r->stopped(r->stopped_ctx))
        return GP_ERR_INPUT;
    design_sdf_cell cell = {r->sdf->text.len, 0};
    bool ok = add_text(r->sdf, celltype);
    cell.instance = r->sdf->text.len;
    ok = ok && add_text(r->sdf, instance) && design_sdf_cells_push(&r->sdf->cells, cell);
    return ok ? GP_OK : no_memory(r);
}

/* A new entry of `kind` at loc, its names to follow; NULL when out of
 * memory. */
static design_sdf_entry *new_entry(recorder *r, uint8_t kind, bool increment,
                                   const sdf_delay *delay, diag_loc loc)
{
    design_sdf *sdf = r->sdf;
    design_sdf_entry e = {
        .rise = delay->rise, .fall = delay->fall, .text = sdf->text.len,
        .cell = sdf->cells.len ? (uint32_t)sdf->cells.len - 1 : DESIGN_SDF_NO_CELL,
        .line = loc.line, .col = loc.col, .kind = kind,
        .flags = (uint8_t)((increment ? DESIGN_SDF_INCREMENT : 0) |
                           (delay->has_rise ? DESIGN_SDF_HAS_RISE : 0) |
                           (delay->has_fall ? DESIGN_SDF_HAS_FALL : 0))};
    if (!design_sdf_entries_push(&sdf->entries, e))
        return NULL;
    return &sdf->entries.data[sdf->entries.len - 1];
}

static gp_status on_iopath(void *ctx, const sdf_iopath *e, diag_loc loc)
{
    recorder *r = ctx;
    design_sdf_entry *rec = new_entry(r, DESIGN_SDF_IOPATH, e->increment, &e->delay, loc);
    if (!rec)
        return no_memory(r);
    rec->edge = (uint8_t)e->edge;
    rec->flags |= (uint8_t)((e->condelse ? DESIGN_SDF_CONDELSE : 0) |
                            (e->cond ? DESIGN_SDF_HAS_COND : 0));
    bool ok = add_text(r->sdf, e->in.inst) && add_text(r->sdf, e->in.pin) &&
              add_text(r->sdf, e->out.inst) && add_text(r->sdf, e->out.pin) &&
              (!e->cond || add_text(r->sdf, e->cond));
    return ok ? GP_OK : no_memory(r);
}

/* INTERCONNECT and PORT: the wire delay into pin `to`. */
static gp_status record_wire(recorder *r, const sdf_pin *to, bool increment,
                             const sdf_delay *delay, diag_loc loc)
{
    bool ok = new_entry(r, DESIGN_SDF_WIRE, increment, delay, loc) &&
              add_text(r->sdf, to->inst) && add_text(r->sdf, to->pin);
    return ok ? GP_OK : no_memory(r);
}

static gp_status on_interconnect(void *ctx, const sdf_interconnect *e, diag_loc loc)
{
    return record_wire(ctx, &e->to, e->increment, &e->delay, loc);
}

static gp_status on_port(void *ctx, const sdf_port_delay *e, diag_loc loc)
{
    return record_wire(ctx, &e->port, e->increment, &e->delay, loc);
}

static gp_status on_device(void *ctx, const sdf_device *e, diag_loc loc)
{
    recorder *r = ctx;
    design_sdf_entry *rec = new_entry(r, DESIGN_SDF_DEVICE, e->increment, &e->delay, loc);
    if (!rec)
        return no_memory(r);
    rec->flags |= e->has_out ? DESIGN_SDF_HAS_OUT : 0;
    bool ok = !e->has_out || (add_text(r->sdf, e->out.inst) && add_text(r->sdf, e->out.pin));
    return ok ? GP_OK : no_memory(r);
}

gp_status design_sdf_read(const char *path, bool (*stopped)(void *ctx), void *stopped_ctx,
                          design_sdf **out, diag_ctx *d)
{
    *out = NULL;
    design_sdf *sdf = mem_calloc(1, sizeof *sdf);
    size_t n = strlen(path) + 1;
    if (sdf && (sdf->path = mem_alloc(n)))
        memcpy(sdf->path, path, n);
    recorder r = {sdf, stopped, stopped_ctx, d};
    if (!sdf || !sdf->path) {
        design_sdf_free(sdf);
        return no_memory(&r);
    }
    sdf_visitor v = {.ctx = &r, .cell = on_cell, .iopath = on_iopath,
                     .interconnect = on_interconnect, .port = on_port, .device = on_device};
    gp_status st = sdf_read(path, &v, NULL, d);
    if (st != GP_OK) {
        design_sdf_free(sdf);
        return st;
    }
    *out = sdf;
    return GP_OK;
}

void design_sdf_free(design_sdf *sdf)
{
    if (!sdf)
        return;
    mem_free(sdf->path);
    vec_char_free(&sdf->text);
    design_sdf_cells_free(&sdf->cells);
    design_sdf_entries_free(&sdf->entries);
    mem_free(sdf);
}
