/* design_sdf.c: SDF annotation: each entry design_sdf_record.c recorded is
 * matched to the design's instances, pins and arcs, and sets their delays
 * (the instances looked up, and the delays set, on every core).
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
#include "util/parts.h"
#include "util/units.h"

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

/* --- a recorded entry ------------------------------------------------------------ */

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

/* The path, relative to its CELL, of the instance entry e names: IOPATH
 * in.inst, a wire's to.inst, DEVICE out.inst (or ""). */
static const char *entry_inst_path(const design_sdf *sdf, const design_sdf_entry *e)
{
    const char *names[5];
    entry_names(sdf, e, names);
    return names[0];
}

static diag_loc entry_loc(const design_sdf *sdf, const design_sdf_entry *e)
{
    return (diag_loc){sdf->path, e->line, e->col};
}

/* Sets the delays entry e gives (on `inst`, for_each_instance's); whether
 * it matched anything.  Touches only the slots of the instances it
 * matches. */
static bool annotate_entry(annotator *an, const design_sdf *sdf, const design_sdf_entry *e,
                           uint32_t inst)
{
    const char *names[5];
    entry_names(sdf, e, names);
    an->cell_inst = cell_text(sdf, e, true);
    an->celltype = cell_text(sdf, e, false);
    sdf_delay delay = {e->rise, e->fall, e->flags & DESIGN_SDF_HAS_RISE,
                       e->flags & DESIGN_SDF_HAS_FALL};
    bool increment = e->flags & DESIGN_SDF_INCREMENT;
    if (e->kind == DESIGN_SDF_IOPATH) {
        sdf_iopath io = {{names[0], names[1]}, (sdf_edge)e->edge, {names[2], names[3]},
                         e->flags & DESIGN_SDF_HAS_COND ? names[4] : NULL, NULL,
                         e->flags & DESIGN_SDF_CONDELSE, increment, delay};
        return for_each_instance(an, inst, annotate_iopath, &io) > 0;
    }
    if (e->kind == DESIGN_SDF_WIRE) {
        sdf_interconnect wire = {.to = {names[0], names[1]}, .increment = increment,
                                 .delay = delay};
        return is_top_port(an, &wire.to) || for_each_instance(an, inst, annotate_wire, &wire);
    }
    bool has_out = e->flags & DESIGN_SDF_HAS_OUT;
    sdf_device dev = {has_out, {names[0], names[1]}, increment, delay};
    return for_each_instance(an, inst, annotate_device, &dev) > 0;
}

/* Counts entry e in s. */
static void count_entry(design_sdf_stats *s, const design_sdf_entry *e, bool matched)
{
    if (e->kind == DESIGN_SDF_IOPATH) {
        s->iopaths++;
        s->iopaths_matched += matched;
    } else if (e->kind == DESIGN_SDF_WIRE) {
        s->interconnects++;
        s->interconnects_matched += matched;
    }
}

/* Warns that entry e matched nothing (in file order). */
static void warn_unmatched(annotator *an, const design_sdf *sdf, const design_sdf_entry *e)
{
    static const char *const what[] = {[DESIGN_SDF_IOPATH] = "IOPATH to",
                                       [DESIGN_SDF_WIRE] = "INTERCONNECT to",
                                       [DESIGN_SDF_DEVICE] = "DEVICE"};
    const char *names[5];
    entry_names(sdf, e, names);
    int pin = e->kind == DESIGN_SDF_IOPATH ? 2 : 0; /* IOPATH: its output */
    an->stats->unmatched++;
    diag_warn(an->d, 7011, entry_loc(sdf, e),
              "SDF %s '%s%s%s' under CELL '%s' matches nothing in the design; is the SDF for "
              "this netlist?", what[e->kind], names[pin], *names[pin] ? "/" : "", names[pin + 1],
              cell_text(sdf, e, false));
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
        const char *joined = NULL;
        if (strcmp(cell_inst, "*") != 0 &&
            !(joined = joined_path(cell_inst, entry_inst_path(j->sdf, e), &path)))
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


/* --- the entries applied ---------------------------------------------------------- */

/* Entry indices grouped by the instance they name, on threads: each part
 * owns a range of instances and goes through all the entries twice, to
 * count its instances' entries, then to place them. */
typedef struct grouping {
    const uint32_t *inst;
    size_t n;
    uint32_t n_insts;
    uint32_t *at;   /* per instance: its entries' count, then its next place */
    uint32_t *order;
    size_t *first;  /* per part: its range's entries, then its range's first place */
} grouping;

static void count_by_instance(void *ctx, uint32_t part, uint32_t parts)
{
    grouping *g = ctx;
    uint32_t lo = (uint32_t)parts_begin(g->n_insts, part, parts),
             span = (uint32_t)parts_begin(g->n_insts, part + 1, parts) - lo;
    for (size_t k = 0; k < g->n; k++)
        if (g->inst[k] - lo < span) /* DESIGN_NONE in no range */
            g->at[g->inst[k]]++;
    size_t sum = 0;
    for (uint32_t i = lo; i < lo + span; i++) {
        uint32_t count = g->at[i];
        g->at[i] = (uint32_t)sum;
        sum += count;
    }
    g->first[part] = sum;
}

static void place_by_instance(void *ctx, uint32_t part, uint32_t parts)
{
    grouping *g = ctx;
    uint32_t lo = (uint32_t)parts_begin(g->n_insts, part, parts),
             span = (uint32_t)parts_begin(g->n_insts, part + 1, parts) - lo;
    uint32_t *order = g->order + g->first[part];
    for (size_t k = 0; k < g->n; k++)
        if (g->inst[k] - lo < span)
            order[g->at[g->inst[k]]++] = (uint32_t)k;
}

/* Entry indices grouped by the instance they name (DESIGN_NONE left out),
 * in file order within an instance; *grouped gets how many.  NULL when
 * out of memory. */
static uint32_t *group_by_instance(const design *dg, const uint32_t *inst, size_t n,
                                   size_t *grouped)
{
    uint32_t parts = parts_for(n, UINT32_MAX);
    grouping g = {inst, n, dg->n_insts, mem_calloc((size_t)dg->n_insts + 1, sizeof *g.at),
                  mem_alloc((n ? n : 1) * sizeof *g.order), mem_alloc(parts * sizeof *g.first)};
    if (g.at && g.order && g.first) {
        parts_run(count_by_instance, &g, parts);
        size_t sum = 0;
        for (uint32_t p = 0; p < parts; p++) {
            size_t count = g.first[p];
            g.first[p] = sum;
            sum += count;
        }
        parts_run(place_by_instance, &g, parts);
        *grouped = sum;
    } else {
        mem_free(g.order);
        g.order = NULL;
    }
    mem_free(g.at);
    mem_free(g.first);
    return g.order;
}

/* What annotating an entry gave. */
enum { ENTRY_MATCHED = 1, ENTRY_BAD = 2 };

/* The entries of whole instances annotated on threads: each part its own
 * instances' slots, so that only the order within an instance matters. */
typedef struct apply_job {
    const design_sdf *sdf;
    const uint32_t *inst, *order;
    const size_t *part0;      /* [parts + 1]: each part's range of order */
    uint8_t *outcome;         /* per entry: ENTRY_* */
    annotator *an;            /* per part: its counts */
    size_t *first_bad;        /* per part: its first entry in file order with a delay
                                 beyond the fs range (SIZE_MAX: none), */
    double *bad_delay;        /*   and that delay */
} apply_job;

/* A part's entries, its annotator and counts kept on its own stack until
 * the end (the parts' records share cache lines, and every entry writes
 * them). */
static void apply_part(void *ctx, uint32_t part, uint32_t parts)
{
    const apply_job *j = ctx;
    design_sdf_stats stats = *j->an[part].stats;
    annotator an = j->an[part];
    an.stats = &stats;
    (void)parts;
    for (size_t at = j->part0[part]; at < j->part0[part + 1]; at++) {
        uint32_t k = j->order[at];
        an.bad_delay = 0;
        const design_sdf_entry *e = &j->sdf->entries.data[k];
        bool matched = annotate_entry(&an, j->sdf, e, j->inst[k]);
        count_entry(&stats, e, matched);
        j->outcome[k] = (uint8_t)((matched ? ENTRY_MATCHED : 0) | (an.bad_delay ? ENTRY_BAD : 0));
        if (an.bad_delay && k < j->first_bad[part]) {
            j->first_bad[part] = k;
            j->bad_delay[part] = an.bad_delay;
        }
    }
    an.stats = j->an[part].stats;
    *an.stats = stats;
    j->an[part] = an;
}

/* Part p's range of the grouped entries, moved so that no instance is cut. */
static void cut_at_instances(const uint32_t *inst, const uint32_t *order, size_t grouped,
                             uint32_t parts, size_t *part0)
{
    part0[0] = 0;
    for (uint32_t p = 1; p <= parts; p++) {
        size_t at = p == parts ? grouped : parts_begin(grouped, p, parts);
        at = at < part0[p - 1] ? part0[p - 1] : at;
        while (at > 0 && at < grouped && inst[order[at - 1]] == inst[order[at]])
            at++;
        part0[p] = at;
    }
}

static gp_status delay_error(annotator *an, diag_loc loc, double delay)
{
    diag_error(an->d, 7015, loc, "SDF delay of %g s: a delay must lie within %g s (the 2^63 "
               "fs that times hold); is the SDF's TIMESCALE right?", delay / GP_FS_PER_S,
               GP_FS_LIMIT / GP_FS_PER_S);
    return GP_ERR_INPUT;
}

/* Goes through the entries in file order: warns about those that match
 * nothing and stops at the first delay beyond the fs range.  With j, the
 * entries of named instances are the threads', annotated and counted
 * (j->outcome); the others, and every entry without j, are annotated and
 * counted here. */
static gp_status account_all(annotator *an, const design_sdf *sdf, const uint32_t *inst,
                             const apply_job *j, uint32_t parts)
{
    for (size_t k = 0; k < sdf->entries.len; k++) {
        if (j && inst[k] != DESIGN_NONE && j->outcome[k] == ENTRY_MATCHED)
            continue; /* the common case: no entry read */
        const design_sdf_entry *e = &sdf->entries.data[k];
        bool matched;
        an->bad_delay = 0;
        if (j && inst[k] != DESIGN_NONE) {
            matched = j->outcome[k] & ENTRY_MATCHED;
            for (uint32_t p = 0; p < parts && (j->outcome[k] & ENTRY_BAD); p++)
                if (j->first_bad[p] == k) /* the first in file order is its part's first */
                    an->bad_delay = j->bad_delay[p];
        } else {
            matched = annotate_entry(an, sdf, e, inst[k]);
            count_entry(an->stats, e, matched);
        }
        if (!matched)
            warn_unmatched(an, sdf, e);
        if (an->bad_delay != 0)
            return delay_error(an, entry_loc(sdf, e), an->bad_delay);
    }
    return GP_OK;
}

/* The threads' counts added to an's. */
static void merge_parts(annotator *an, const annotator *parts_an, uint32_t parts)
{
    for (uint32_t p = 0; p < parts; p++) {
        const design_sdf_stats *s = parts_an[p].stats;
        an->stats->delays_negative += s->delays_negative;
        an->stats->arcs_annotated += s->arcs_annotated;
        an->stats->iopaths += s->iopaths;
        an->stats->iopaths_matched += s->iopaths_matched;
        an->stats->interconnects += s->interconnects;
        an->stats->interconnects_matched += s->interconnects_matched;
        an->least_delay = fmin(an->least_delay, parts_an[p].least_delay);
    }
}

/* The entries of named instances annotated on threads, instance by
 * instance (sdf->order), then all accounted for in file order. */
static gp_status apply_on_threads(annotator *an, const design_sdf *sdf)
{
    size_t n = sdf->entries.len;
    uint32_t parts = parts_for(sdf->grouped, UINT32_MAX);
    apply_job j = {sdf, sdf->inst, sdf->order, mem_alloc((parts + 1) * sizeof *j.part0),
                   mem_alloc(n ? n : 1), mem_calloc(parts, sizeof *j.an),
                   mem_alloc(parts * sizeof *j.first_bad), mem_alloc(parts * sizeof *j.bad_delay)};
    design_sdf_stats *stats = mem_calloc(parts, sizeof *stats);
    gp_status st = j.part0 && j.outcome && j.an && j.first_bad && j.bad_delay && stats
                       ? GP_OK
                       : no_memory(an->d);
    if (st == GP_OK) {
        cut_at_instances(sdf->inst, sdf->order, sdf->grouped, parts, (size_t *)j.part0);
        for (uint32_t p = 0; p < parts; p++) {
            j.an[p] = (annotator){.dg = an->dg, .stats = &stats[p], .cond_set = an->cond_set};
            j.first_bad[p] = SIZE_MAX;
        }
        parts_run(apply_part, &j, parts);
        merge_parts(an, j.an, parts);
        st = account_all(an, sdf, sdf->inst, &j, parts);
    }
    mem_free((void *)j.part0);
    mem_free(j.outcome);
    mem_free(j.an);
    mem_free(j.first_bad);
    mem_free(j.bad_delay);
    mem_free(stats);
    return st;
}

/* Whether a CELL names every instance of its type (INSTANCE *): its
 * entries reach instances that other entries name too, so the file's
 * order is kept across instances. */
static bool any_wildcard(const design_sdf *sdf)
{
    for (size_t c = 0; c < sdf->cells.len; c++)
        if (strcmp(sdf->text.data + sdf->cells.data[c].instance, "*") == 0)
            return true;
    return false;
}

gp_status design_sdf_match(const design *dg, design_sdf *sdf, diag_ctx *d)
{
    if (sdf->inst)
        return GP_OK;
    size_t n = sdf->entries.len;
    uint32_t *inst = mem_alloc((n ? n : 1) * sizeof *inst);
    gp_status st = inst ? look_up_instances(dg, sdf, inst, d) : no_memory(d);
    if (st == GP_OK && !any_wildcard(sdf) &&
        !(sdf->order = group_by_instance(dg, inst, n, &sdf->grouped)))
        st = no_memory(d);
    if (st != GP_OK) {
        mem_free(inst);
        return st;
    }
    sdf->inst = inst;
    return GP_OK;
}

gp_status design_sdf_apply(design *dg, design_sdf *sdf, design_sdf_stats *stats, diag_ctx *d)
{
    memset(stats, 0, sizeof *stats);
    annotator an = {.dg = dg, .d = d, .stats = stats};
    an.cond_set = mem_calloc(dg->n_arcs ? dg->n_arcs : 1, 1);
    gp_status st = an.cond_set ? design_sdf_match(dg, sdf, d) : no_memory(d);
    if (st == GP_OK)
        st = sdf->order ? apply_on_threads(&an, sdf) : account_all(&an, sdf, sdf->inst, NULL, 0);
    if (st == GP_OK && stats->delays_negative > 0)
        diag_warn(d, 7014, DIAG_NOWHERE, "%s: %llu SDF delays are negative (the least %g s): "
                  "taken as 0, as simulators take them", sdf->path,
                  (unsigned long long)stats->delays_negative, an.least_delay / GP_FS_PER_S);
    mem_free(an.cond_set);
    return st;
}

gp_status design_read_sdf(design *dg, const char *path, design_sdf_stats *stats, diag_ctx *d)
{
    design_sdf *sdf;
    memset(stats, 0, sizeof *stats);
    gp_status st = design_sdf_read(path, NULL, NULL, &sdf, d);
    if (st == GP_OK)
        st = design_sdf_apply(dg, sdf, stats, d);
    design_sdf_free(sdf);
    return st;
}
