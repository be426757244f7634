/* design_sdf.c: SDF annotation: the SDF reader's visitor matches each entry
 * to the design's instances, pins and arcs and sets their delays.
 *
 * IOPATH in -> out sets the arcs of pin `out` related to pin `in`: all of
 * them, or under COND those whose sdf_cond (else `when`) reads the same
 * (blanks ignored), or under CONDELSE those no COND entry of the instance
 * set; (posedge X) leaves falling_edge arcs alone and (negedge X) rising_edge
 * ones.  INTERCONNECT and PORT set the wire delay into the input pin they end
 * at.  DEVICE sets every arc to the named output (or to every output).
 * A transition the SDF leaves empty keeps its NLDM delay. */
#include "design/design_int.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#include "sdf/sdf.h"
#include "util/mem.h"
#include "util/units.h"
#include "util/parts.h"

typedef struct annotator {
    design *dg;
    diag_ctx *d;
    design_sdf_stats *stats;
    const char *cell_inst;  /* the current CELL's INSTANCE ("" top, "*" every instance) */
    const char *celltype;
    uint8_t *cond_set;      /* per arc slot: set by a COND entry */
    double least_delay;     /* the most negative delay met (taken as 0) */
    double bad_delay;       /* a delay beyond the fs range met, or 0 */
} annotator;

static gp_status no_memory(diag_ctx *d)
{
    diag_error(d, 7010, DIAG_NOWHERE, "out of memory while annotating SDF delays");
    return GP_ERR_NOMEM;
}

/* The flat path of the instance holding a pin of an entry: the CELL's
 * INSTANCE, then the pin's own path, into *path; NULL when out of memory. */
static const char *joined_path(const char *cell_inst, const char *inst, vec_char *path)
{
    size_t a = strlen(cell_inst), b = strlen(inst);
    if (!vec_char_reserve(path, a + b + 2))
        return NULL;
    memcpy(path->data, cell_inst, a);
    size_t len = a;
    if (a && b)
        path->data[len++] = '/';
    memcpy(path->data + len, inst, b + 1);
    return path->data;
}

/* Calls fn(an, instance, entry) for each instance the entry names: `inst`,
 * the one at its joined path (DESIGN_NONE: none), or under INSTANCE *
 * every instance of the CELLTYPE.  Returns how many instances matched. */
typedef bool (*instance_fn)(annotator *an, uint32_t inst, const void *entry);
static uint32_t for_each_instance(annotator *an, uint32_t inst, instance_fn fn,
                                  const void *entry)
{
    uint32_t matched = 0;
    if (strcmp(an->cell_inst, "*") == 0) {
        for (uint32_t i = 0; i < an->dg->n_insts; i++)
            if (strcmp(an->dg->inst_cell[i]->name, an->celltype) == 0 && fn(an, i, entry))
                matched++;
        return matched;
    }
    return inst != DESIGN_NONE && fn(an, inst, entry) ? 1 : 0;
}

/* Equal ignoring blanks: "B == 1'b1" and "B==1'b1". */
static bool same_condition(const char *a, const char *b)
{
    for (;;) {
        while (isspace((unsigned char)*a))
            a++;
        while (isspace((unsigned char)*b))
            b++;
        if (*a != *b)
            return false;
        if (!*a)
            return true;
        a++, b++;
    }
}

/* The delay an entry leaves, in whole fs: `value`, added to `present` for
 * an INCREMENT; a negative one is taken as 0 (and counted), as simulators
 * take it; one beyond the fs range is kept for the entry's error. */
static double settled_delay(annotator *an, double present, double value, bool increment)
{
    double delay = (increment && !isnan(present) ? present : 0) + value;
    if (!(fabs(delay) <= GP_FS_LIMIT)) { /* NaN too */
        an->bad_delay = delay;
        return 0.0;
    }
    if (delay < 0) {
        an->stats->delays_negative++;
        an->least_delay = fmin(an->least_delay, delay);
        return 0.0;
    }
    return round(delay);
}

static void set_delay(annotator *an, uint32_t slot, const sdf_delay *delay, bool increment)
{
    design *dg = an->dg;
    double *rise = &dg->arc_delay[DESIGN_RISE][slot], *fall = &dg->arc_delay[DESIGN_FALL][slot];
    if (delay->has_rise)
        *rise = settled_delay(an, *rise, delay->rise, increment);
    if (delay->has_fall)
        *fall = settled_delay(an, *fall, delay->fall, increment);
    if (!dg->arc_from_sdf[slot]) {
        dg->arc_from_sdf[slot] = 1;
        an->stats->arcs_annotated++;
    }
}

/* Whether arc `arc` is one the IOPATH entry `e` describes. */
static bool iopath_selects(annotator *an, uint32_t slot, const lib_arc *arc, const sdf_iopath *e)
{
    if (!lib_timing_type_is_delay(arc->type))
        return false;
    if ((e->edge == SDF_EDGE_POSEDGE && arc->type == LIB_TT_FALLING_EDGE) ||
        (e->edge == SDF_EDGE_NEGEDGE && arc->type == LIB_TT_RISING_EDGE))
        return false;
    if (e->condelse)
        return !an->cond_set[slot];
    if (!e->cond)
        return true;
    const char *cond = arc->sdf_cond ? arc->sdf_cond : arc->when ? arc->when->text : NULL;
    return cond && same_condition(cond, e->cond);
}

static bool annotate_iopath(annotator *an, uint32_t inst, const void *entry)
{
    const sdf_iopath *e = entry;
    const lib_cell *c = an->dg->inst_cell[inst];
    int32_t in = lib_pin_index(c, e->in.pin), out = lib_pin_index(c, e->out.pin);
    if (in == LIB_NONE || out == LIB_NONE)
        return false;
    bool any = false;
    const lib_pin *pin = &c->pins[out];
    for (uint32_t a = pin->first_arc; a < pin->first_arc + pin->n_arcs; a++) {
        uint32_t slot = an->dg->inst_arc0[inst] + a;
        if (c->arcs[a].related != in || !iopath_selects(an, slot, &c->arcs[a], e))
            continue;
        set_delay(an, slot, &e->delay, e->increment);
        an->cond_set[slot] |= e->cond != NULL;
        any = true;
    }
    return any;
}

static void report_unmatched(annotator *an, diag_loc loc, const char *what, const char *inst,
                             const char *pin)
{
    an->stats->unmatched++;
    diag_warn(an->d, 7011, loc, "SDF %s '%s%s%s' under CELL '%s' matches nothing in the design; "
              "is the SDF for this netlist?", what, inst, *inst ? "/" : "", pin, an->celltype);
}

/* After an entry: the error of a delay it set beyond the fs range. */
static gp_status entry_done(annotator *an, diag_loc loc)
{
    if (an->bad_delay != 0) {
        diag_error(an->d, 7015, loc, "SDF delay of %g s: a delay must lie within %g s (the 2^63 "
                   "fs that times hold); is the SDF's TIMESCALE right?",
                   an->bad_delay / GP_FS_PER_S, GP_FS_LIMIT / GP_FS_PER_S);
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

static void on_iopath(annotator *an, const sdf_iopath *e, uint32_t inst, diag_loc loc)
{
    an->stats->iopaths++;
    if (for_each_instance(an, inst, annotate_iopath, e))
        an->stats->iopaths_matched++;
    else
        report_unmatched(an, loc, "IOPATH to", e->out.inst, e->out.pin);
}

/* Sets the wire delay into pin `pin` of `inst` (an input pin). */
static bool annotate_wire(annotator *an, uint32_t inst, const void *entry)
{
    const sdf_interconnect *e = entry;
    int32_t k = lib_pin_index(an->dg->inst_cell[inst], e->to.pin);
    if (k == LIB_NONE)
        return false;
    uint32_t p = an->dg->inst_pin0[inst] + (uint32_t)k;
    for (int dir = 0; dir < 2; dir++) {
        bool has = dir == DESIGN_RISE ? e->delay.has_rise : e->delay.has_fall;
        double value = dir == DESIGN_RISE ? e->delay.rise : e->delay.fall;
        double *wire = &an->dg->pin_wire_delay[dir][p];
        if (has)
            *wire = settled_delay(an, *wire, value, e->increment);
    }
    return true;
}

/* A wire ending at a top-level output port has no pin to hold its delay. */
static bool is_top_port(annotator *an, const sdf_pin *pin)
{
    if (*an->cell_inst || *pin->inst)
        return false;
    uint32_t net = design_find_net(an->dg, pin->pin);
    for (uint32_t k = 0; net != DESIGN_NONE && k < an->dg->n_ports; k++)
        if (an->dg->ports[k].net == net)
            return true;
    return false;
}

/* INTERCONNECT, and PORT as the wire into its port. */
static void on_wire(annotator *an, const sdf_interconnect *e, uint32_t inst, diag_loc loc)
{
    an->stats->interconnects++;
    if (is_top_port(an, &e->to) || for_each_instance(an, inst, annotate_wire, e))
        an->stats->interconnects_matched++;
    else
        report_unmatched(an, loc, "INTERCONNECT to", e->to.inst, e->to.pin);
}

static bool annotate_device(annotator *an, uint32_t inst, const void *entry)
{
    const sdf_device *e = entry;
    const lib_cell *c = an->dg->inst_cell[inst];
    int32_t out = e->has_out ? lib_pin_index(c, e->out.pin) : LIB_NONE;
    if (e->has_out && out == LIB_NONE)
        return false;
    for (uint32_t a = 0; a < c->n_arcs; a++)
        if (lib_timing_type_is_delay(c->arcs[a].type) && (!e->has_out || c->arcs[a].pin == (uint32_t)out))
            set_delay(an, an->dg->inst_arc0[inst] + a, &e->delay, e->increment);
    return true;
}

static void on_device(annotator *an, const sdf_device *e, uint32_t inst, diag_loc loc)
{
    if (!for_each_instance(an, inst, annotate_device, e))
        report_unmatched(an, loc, "DEVICE", e->has_out ? e->out.inst : "", e->has_out ? e->out.pin : "");
}

/* --- the recorded entries, applied ---------------------------------------------- */

/* Entry e's names (design_sdf_entry says which, up to five); "" for the
 * rest. */
static void entry_names(const design_sdf *sdf, const design_sdf_entry *e, const char *names[5])
{
    int n = e->kind == DESIGN_SDF_IOPATH ? 4 + !!(e->flags & DESIGN_SDF_HAS_COND)
            : e->kind == DESIGN_SDF_WIRE ? 2
                                         : 2 * !!(e->flags & DESIGN_SDF_HAS_OUT);
    const char *s = sdf->text.data + e->text;
    for (int k = 0; k < 5; k++) {
        names[k] = k < n ? s : "";
        s += k < n ? strlen(s) + 1 : 0;
    }
}

static const char *cell_text(const design_sdf *sdf, const design_sdf_entry *e, bool instance)
{
    if (e->cell == DESIGN_SDF_NO_CELL)
        return "";
    const design_sdf_cell *c = &sdf->cells.data[e->cell];
    return sdf->text.data + (instance ? c->instance : c->celltype);
}

/* The path, relative to its CELL, of the instance entry e names. */
static const char *entry_inst_path(const design_sdf *sdf, const design_sdf_entry *e)
{
    const char *names[5];
    entry_names(sdf, e, names);
    return names[0]; /* IOPATH in.inst, a wire's to.inst, DEVICE out.inst or "" */
}

/* The instances the entries name, looked up on threads (a parts_fn over
 * entries): DESIGN_NONE where none, or under INSTANCE * (for_each_instance
 * goes through the cell type's). */
typedef struct lookup_job {
    const design *dg;
    const design_sdf *sdf;
    uint32_t *inst;
    bool *failed;           /* per part: out of memory */
} lookup_job;

static void lookup_part(void *ctx, uint32_t part, uint32_t parts)
{
    const lookup_job *j = ctx;
    size_t n = j->sdf->entries.len;
    vec_char path = {0};
    for (size_t k = parts_begin(n, part, parts); k < parts_begin(n, part + 1, parts); k++) {
        const design_sdf_entry *e = &j->sdf->entries.data[k];
        const char *cell_inst = cell_text(j->sdf, e, true);
        const char *joined = strcmp(cell_inst, "*") == 0
                                 ? NULL
                                 : joined_path(cell_inst, entry_inst_path(j->sdf, e), &path);
        if (!joined && strcmp(cell_inst, "*") != 0)
            j->failed[part] = true;
        j->inst[k] = joined ? design_find_inst(j->dg, joined) : DESIGN_NONE;
    }
    vec_char_free(&path);
}

static gp_status look_up_instances(const design *dg, const design_sdf *sdf, uint32_t *inst,
                                   diag_ctx *d)
{
    uint32_t parts = parts_for(sdf->entries.len, UINT32_MAX);
    bool *failed = mem_calloc(parts, sizeof *failed);
    if (!failed)
        return no_memory(d);
    lookup_job job = {dg, sdf, inst, failed};
    parts_run(lookup_part, &job, parts);
    bool any = false;
    for (uint32_t p = 0; p < parts; p++)
        any |= failed[p];
    mem_free(failed);
    return any ? no_memory(d) : GP_OK;
}

/* Entry e on instance inst (for_each_instance's), as its visitor saw it. */
static gp_status apply_entry(annotator *an, const design_sdf *sdf, const design_sdf_entry *e,
                             uint32_t inst)
{
    const char *names[5];
    entry_names(sdf, e, names);
    an->cell_inst = cell_text(sdf, e, true);
    an->celltype = cell_text(sdf, e, false);
    diag_loc loc = {sdf->path, e->line, e->col};
    sdf_delay delay = {e->rise, e->fall, e->flags & DESIGN_SDF_HAS_RISE,
                       e->flags & DESIGN_SDF_HAS_FALL};
    bool increment = e->flags & DESIGN_SDF_INCREMENT;
    if (e->kind == DESIGN_SDF_IOPATH) {
        sdf_iopath io = {{names[0], names[1]}, (sdf_edge)e->edge, {names[2], names[3]},
                         e->flags & DESIGN_SDF_HAS_COND ? names[4] : NULL, NULL,
                         e->flags & DESIGN_SDF_CONDELSE, increment, delay};
        on_iopath(an, &io, inst, loc);
    } else if (e->kind == DESIGN_SDF_WIRE) {
        sdf_interconnect wire = {.to = {names[0], names[1]}, .increment = increment,
                                 .delay = delay};
        on_wire(an, &wire, inst, loc);
    } else {
        bool has_out = e->flags & DESIGN_SDF_HAS_OUT;
        sdf_device dev = {has_out, {has_out ? names[0] : "", has_out ? names[1] : ""},
                          increment, delay};
        on_device(an, &dev, inst, loc);
    }
    return entry_done(an, loc);
}

gp_status design_sdf_apply(design *dg, const design_sdf *sdf, design_sdf_stats *stats,
                           diag_ctx *d)
{
    memset(stats, 0, sizeof *stats);
    annotator an = {.dg = dg, .d = d, .stats = stats};
    an.cond_set = mem_calloc(dg->n_arcs ? dg->n_arcs : 1, 1);
    uint32_t *inst = mem_alloc((sdf->entries.len ? sdf->entries.len : 1) * sizeof *inst);
    gp_status st = an.cond_set && inst ? look_up_instances(dg, sdf, inst, d) : no_memory(d);
    for (size_t k = 0; st == GP_OK && k < sdf->entries.len; k++)
        st = apply_entry(&an, sdf, &sdf->entries.data[k], inst[k]);
    if (st == GP_OK && stats->delays_negative > 0)
        diag_warn(d, 7014, DIAG_NOWHERE, "%s: %llu SDF delays are negative (the least %g s): "
                  "taken as 0, as simulators take them", sdf->path,
                  (unsigned long long)stats->delays_negative, an.least_delay / GP_FS_PER_S);
    mem_free(an.cond_set);
    mem_free(inst);
    return st;
}

gp_status design_read_sdf(design *dg, const char *path, design_sdf_stats *stats, diag_ctx *d)
{
    design_sdf *sdf;
    memset(stats, 0, sizeof *stats);
    gp_status st = design_sdf_read(path, &sdf, d);
    if (st == GP_OK)
        st = design_sdf_apply(dg, sdf, stats, d);
    design_sdf_free(sdf);
    return st;
}
