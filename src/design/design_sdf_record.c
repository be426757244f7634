/* design_sdf_record.c: an SDF file's delay entries recorded without a
 * design (design_sdf_read), so that the SDF can be read while the netlist
 * is, and annotated once the design exists (design_sdf.c).  The entries
 * keep the file's order, their names (NUL-separated, in one text) and
 * where they are in the file.  The file is read in parts on threads
 * (sdf_read_parts), each part recorded apart, then joined in order. */
#include "design/design_int.h"

#include <string.h>
#include <sys/stat.h>

#include "util/mem.h"
#include "util/parts.h"

/* Parts of the SDF read at once: one a core, each of at least this many
 * bytes of the file. */
#define SDF_PART_BYTES ((uint64_t)4 << 20)

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

/* The parts to read the file `path` in. */
static uint32_t parts_of(const char *path)
{
    struct stat st;
    uint64_t bytes = stat(path, &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0;
    uint64_t parts = bytes / SDF_PART_BYTES + 1, cores = parts_online_cores();
    parts = parts < cores ? parts : cores;
    return (uint32_t)(parts < SDF_MAX_PARTS ? parts : SDF_MAX_PARTS);
}

/* Appends part's entries to sdf's, their names and cells moved along. */
static bool join_part(design_sdf *sdf, const design_sdf *part)
{
    uint64_t text0 = sdf->text.len;
    uint32_t cell0 = (uint32_t)sdf->cells.len;
    size_t cells = sdf->cells.len, entries = sdf->entries.len;
    if (!vec_char_reserve(&sdf->text, text0 + part->text.len) ||
        !design_sdf_cells_resize(&sdf->cells, cells + part->cells.len) ||
        !design_sdf_entries_resize(&sdf->entries, entries + part->entries.len))
        return false;
    memcpy(sdf->text.data + text0, part->text.data, part->text.len);
    sdf->text.len += part->text.len;
    for (size_t i = 0; i < part->cells.len; i++)
        sdf->cells.data[cells + i] = (design_sdf_cell){part->cells.data[i].celltype + text0,
                                                       part->cells.data[i].instance + text0};
    for (size_t i = 0; i < part->entries.len; i++) {
        design_sdf_entry e = part->entries.data[i];
        e.text += text0;
        e.cell = e.cell == DESIGN_SDF_NO_CELL ? e.cell : e.cell + cell0;
        sdf->entries.data[entries + i] = e;
    }
    return true;
}

/* Room in sdf for the parts' entries, so that joining them copies each
 * once (a part is freed once joined: the peak holds about one copy). */
static bool reserve_parts(design_sdf *sdf, design_sdf *const *parts, uint32_t used)
{
    size_t text = 0, cells = 0, entries = 0;
    for (uint32_t k = 0; k < used; k++) {
        text += parts[k]->text.len;
        cells += parts[k]->cells.len;
        entries += parts[k]->entries.len;
    }
    return vec_char_reserve(&sdf->text, text) && design_sdf_cells_reserve(&sdf->cells, cells) &&
           design_sdf_entries_reserve(&sdf->entries, entries);
}

/* The parts read into sdfs[0 .. parts), joined into sdfs[0]; the others
 * freed (NULL). */
static gp_status read_parts(const char *path, design_sdf **sdfs, recorder *rs, uint32_t parts,
                            diag_ctx *d)
{
    sdf_visitor v[SDF_MAX_PARTS];
    for (uint32_t k = 0; k < parts; k++)
        v[k] = (sdf_visitor){.ctx = &rs[k], .cell = on_cell, .iopath = on_iopath,
                             .interconnect = on_interconnect, .port = on_port,
                             .device = on_device};
    uint32_t used = 1;
    gp_status st = sdf_read_parts(path, v, parts, &used, NULL, d);
    if (st == GP_OK && !reserve_parts(sdfs[0], sdfs, used))
        st = no_memory(&rs[0]);
    for (uint32_t k = 1; k < parts; k++) {
        if (st == GP_OK && k < used && !join_part(sdfs[0], sdfs[k]))
            st = no_memory(&rs[0]);
        design_sdf_free(sdfs[k]);
        sdfs[k] = NULL;
    }
    return st;
}

gp_status design_sdf_read(const char *path, bool (*stopped)(void *ctx), void *stopped_ctx,
                          design_sdf **out, diag_ctx *d)
{
    *out = NULL;
    uint32_t parts = parts_of(path);
    design_sdf *sdfs[SDF_MAX_PARTS] = {0};
    recorder rs[SDF_MAX_PARTS];
    bool ok = true;
    for (uint32_t k = 0; k < parts; k++) {
        ok = ok && (sdfs[k] = mem_calloc(1, sizeof *sdfs[k])) != NULL;
        rs[k] = (recorder){sdfs[k], stopped, stopped_ctx, d};
    }
    size_t n = strlen(path) + 1;
    if (ok && (sdfs[0]->path = mem_alloc(n)))
        memcpy(sdfs[0]->path, path, n);
    gp_status st = ok && sdfs[0]->path ? read_parts(path, sdfs, rs, parts, d) : no_memory(&rs[0]);
    if (st == GP_OK) {
        *out = sdfs[0];
        return GP_OK;
    }
    for (uint32_t k = 0; k < parts; k++)
        design_sdf_free(sdfs[k]);
    return st;
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
