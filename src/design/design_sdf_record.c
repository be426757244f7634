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

/* The parts of a reading joined into the first: each part's place in the
 * joined text, cells and entries; the later parts are copied in slices,
 * `slices` a part, on threads. */
typedef struct joining {
    design_sdf *const *sdfs;
    uint64_t text[SDF_MAX_PARTS];
    size_t cells[SDF_MAX_PARTS], entries[SDF_MAX_PARTS];
    uint32_t slices;
} joining;

/* Slice `slice` of part k's text, cells and entries copied into their
 * places in the first part, names and cells moved along.  The entries a
 * part gave before its first CELL (it began inside one) are the CELL's
 * the parts before it saw last (there is one: part 0 begins at a CELL). */
static void join_slice(const joining *j, uint32_t k, uint32_t slice)
{
    design_sdf *sdf = j->sdfs[0];
    const design_sdf *part = j->sdfs[k];
    uint64_t text0 = j->text[k];
    uint32_t cell0 = (uint32_t)j->cells[k];
    uint64_t t = parts_begin(part->text.len, slice, j->slices),
             t_end = parts_begin(part->text.len, slice + 1, j->slices);
    memcpy(sdf->text.data + text0 + t, part->text.data + t, t_end - t);
    design_sdf_cell *cells = sdf->cells.data + cell0;
    for (size_t i = parts_begin(part->cells.len, slice, j->slices),
                end = parts_begin(part->cells.len, slice + 1, j->slices);
         i < end; i++)
        cells[i] = (design_sdf_cell){part->cells.data[i].celltype + text0,
                                     part->cells.data[i].instance + text0};
    design_sdf_entry *entries = sdf->entries.data + j->entries[k];
    for (size_t i = parts_begin(part->entries.len, slice, j->slices),
                end = parts_begin(part->entries.len, slice + 1, j->slices);
         i < end; i++) {
        design_sdf_entry e = part->entries.data[i];
        e.text += text0;
        e.cell = e.cell == DESIGN_SDF_NO_CELL ? cell0 - 1 : e.cell + cell0;
        entries[i] = e;
    }
}

/* parts_fn: slice `part` of the later parts' (part 0 lies in place). */
static void join_part_slice(void *ctx, uint32_t part, uint32_t parts)
{
    (void)parts;
    const joining *j = ctx;
    join_slice(j, 1 + part / j->slices, part % j->slices);
}

/* The parts sdfs[0 .. used) joined into sdfs[0] in file order; false when
 * out of memory. */
static bool join_parts(design_sdf *const *sdfs, uint32_t used)
{
    joining j = {.sdfs = sdfs};
    for (uint32_t k = 1; k < used; k++) {
        j.text[k] = j.text[k - 1] + sdfs[k - 1]->text.len;
        j.cells[k] = j.cells[k - 1] + sdfs[k - 1]->cells.len;
        j.entries[k] = j.entries[k - 1] + sdfs[k - 1]->entries.len;
    }
    design_sdf *sdf = sdfs[0];
    const design_sdf *last = sdfs[used - 1];
    size_t text = j.text[used - 1] + last->text.len, cells = j.cells[used - 1] + last->cells.len,
           entries = j.entries[used - 1] + last->entries.len;
    if (!vec_char_reserve(&sdf->text, text) || !design_sdf_cells_reserve(&sdf->cells, cells) ||
        !design_sdf_entries_reserve(&sdf->entries, entries))
        return false;
    if (used > 1) {
        uint32_t cores = parts_online_cores();
        j.slices = cores > used - 1 ? (cores + used - 2) / (used - 1) : 1;
        parts_run(join_part_slice, &j, (used - 1) * j.slices);
    }
    sdf->text.len = text;
    sdf->cells.len = cells;
    sdf->entries.len = entries;
    return true;
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
    if (st == GP_OK && !join_parts(sdfs, used))
        st = no_memory(&rs[0]);
    for (uint32_t k = 1; k < parts; k++) {
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
    mem_free(sdf->inst);
    mem_free(sdf->order);
    mem_free(sdf);
}
