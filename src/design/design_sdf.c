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
#include "util/vec.h"

typedef struct annotator {
    design *dg;
    diag_ctx *d;
    design_sdf_stats *stats;
    char *cell_inst;        /* the current CELL's INSTANCE ("" top, "*" every instance) */
    char *celltype;
    uint8_t *cond_set;      /* per arc slot: set by a COND entry */
    vec_char path;          /* scratch for joined names */
    bool out_of_memory;     /* a scratch allocation failed: stop at the next callback */
    double least_delay;     /* the most negative delay met (taken as 0) */
    double bad_delay;       /* a delay beyond the fs range met, or 0 */
} annotator;

static gp_status no_memory(annotator *an)
{
    diag_error(an->d, 7010, DIAG_NOWHERE, "out of memory while annotating SDF delays");
    return GP_ERR_NOMEM;
}

static char *copy_string(const char *s)
{
    size_t len = strlen(s) + 1;
    char *c = mem_alloc(len);
    return c ? memcpy(c, s, len) : NULL;
}

static gp_status on_cell(void *ctx, const char *celltype, const char *instance, diag_loc loc)
{
    annotator *an = ctx;
    (void)loc;
    mem_free(an->cell_inst);
    mem_free(an->celltype);
    an->cell_inst = copy_string(instance);
    an->celltype = copy_string(celltype);
    return an->cell_inst && an->celltype ? GP_OK : no_memory(an);
}

/* The flat path of the instance holding `pin` under the current CELL. */
static const char *joined_path(annotator *an, const char *inst)
{
    size_t a = strlen(an->cell_inst), b = strlen(inst);
    if (!vec_char_reserve(&an->path, a + b + 2)) {
        an->out_of_memory = true;
        return NULL;
    }
    char *path = an->path.data;
    memcpy(path, an->cell_inst, a);
    size_t len = a;
    if (a && b)
        path[len++] = '/';
    memcpy(path + len, inst, b + 1);
    return path;
}

/* Calls fn(an, instance, arg) for each instance the entry names: the one at
 * the joined path, or under INSTANCE * every instance of the CELLTYPE.
 * Returns how many instances matched. */
typedef bool (*instance_fn)(annotator *an, uint32_t inst, const void *entry);
static uint32_t for_each_instance(annotator *an, const char *pin_inst, instance_fn fn,
                                  const void *entry)
{
    uint32_t matched = 0;
    if (strcmp(an->cell_inst, "*") == 0) {
        for (uint32_t i = 0; i < an->dg->n_insts; i++)
            if (strcmp(an->dg->inst_cell[i]->name, an->celltype) == 0 && fn(an, i, entry))
                matched++;
        return matched;
    }
    const char *path = joined_path(an, pin_inst);
    uint32_t inst = path ? design_find_inst(an->dg, path) : DESIGN_NONE;
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

/* After an entry: the error of a delay it set beyond the fs range, or of a
 * lack of memory. */
static gp_status entry_done(annotator *an, diag_loc loc)
{
    if (an->bad_delay != 0) {
        diag_error(an->d, 7015, loc, "SDF delay of %g s: a delay must lie within %g s (the 2^63 "
                   "fs that times hold); is the SDF's TIMESCALE right?",
                   an->bad_delay / GP_FS_PER_S, GP_FS_LIMIT / GP_FS_PER_S);
        return GP_ERR_INPUT;
    }
    return an->out_of_memory ? no_memory(an) : GP_OK;
}

static gp_status on_iopath(void *ctx, const sdf_iopath *e, diag_loc loc)
{
    annotator *an = ctx;
    an->stats->iopaths++;
    if (for_each_instance(an, e->in.inst, annotate_iopath, e))
        an->stats->iopaths_matched++;
    else
        report_unmatched(an, loc, "IOPATH to", e->out.inst, e->out.pin);
    return entry_done(an, loc);
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

static gp_status on_interconnect(void *ctx, const sdf_interconnect *e, diag_loc loc)
{
    annotator *an = ctx;
    an->stats->interconnects++;
    if (is_top_port(an, &e->to) || for_each_instance(an, e->to.inst, annotate_wire, e))
        an->stats->interconnects_matched++;
    else
        report_unmatched(an, loc, "INTERCONNECT to", e->to.inst, e->to.pin);
    return entry_done(an, loc);
}

static gp_status on_port(void *ctx, const sdf_port_delay *e, diag_loc loc)
{
    sdf_interconnect as_wire = {.to = e->port, .increment = e->increment, .delay = e->delay};
    return on_interconnect(ctx, &as_wire, loc);
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

static gp_status on_device(void *ctx, const sdf_device *e, diag_loc loc)
{
    annotator *an = ctx;
    if (!for_each_instance(an, e->has_out ? e->out.inst : "", annotate_device, e))
        report_unmatched(an, loc, "DEVICE", e->has_out ? e->out.inst : "", e->has_out ? e->out.pin : "");
    return entry_done(an, loc);
}

gp_status design_read_sdf(design *dg, const char *path, design_sdf_stats *stats, diag_ctx *d)
{
    memset(stats, 0, sizeof *stats);
    annotator an = {.dg = dg, .d = d, .stats = stats};
    an.cond_set = mem_calloc(dg->n_arcs ? dg->n_arcs : 1, 1);
    an.cell_inst = copy_string("");
    an.celltype = copy_string("");
    gp_status st;
    if (!an.cond_set || !an.cell_inst || !an.celltype) {
        st = no_memory(&an);
    } else {
        sdf_visitor v = {.ctx = &an, .cell = on_cell, .iopath = on_iopath,
                         .interconnect = on_interconnect, .port = on_port, .device = on_device};
        st = sdf_read(path, &v, NULL, d);
    }
    if (st == GP_OK && stats->delays_negative > 0)
        diag_warn(d, 7014, DIAG_NOWHERE, "%s: %llu SDF delays are negative (the least %g s): "
                  "taken as 0, as simulators take them", path,
                  (unsigned long long)stats->delays_negative, an.least_delay / GP_FS_PER_S);
    mem_free(an.cond_set);
    mem_free(an.cell_inst);
    mem_free(an.celltype);
    vec_char_free(&an.path);
    return st;
}
