/* liberty_finish.c: at a cell's end, turns what liberty_cell.c collected into
 * the lib_cell of liberty.h: pins ordered by direction (the order liberty.h
 * documents), state variables after them, expressions compiled over those
 * variables (each distinct text once per cell and bus position), timing and
 * power groups expanded to one entry per (pin, related pin) and grouped by
 * pin, and names resolved.  Then the cell joins the set. */
#include <math.h>
#include <stdio.h>

#include "liberty/liberty_int.h"

/* Bounds that keep a hostile file from making a cell take minutes. */
#define LIB_MAX_ENTRIES 1000000 /* timing arcs + power entries of a cell */

typedef struct lib_fin {
    lib_reader *rd;
    lib_cellb *cb;
    lib_cell *cell;
    const char *name;
    const uint32_t *newidx; /* by bpin index: the pin's index in the cell */
    const char **var_names; /* the cell's variables: pins, then state variables */
    lib_expr_scope scope;
} lib_fin;

static const char *lib_str(const lib_fin *f, uint32_t id)
{
    return strtab_str(&f->rd->set->names, id);
}

/* ---- pin order and variables --------------------------------------------- */

/* newidx[old] for every pin: inputs, inouts, outputs, internals, each in
 * declaration order. */
static gp_status lib_fin_order(lib_fin *f)
{
    lib_cellb *cb = f->cb;
    vec_u32 *order = &f->rd->order;
    if (!vec_u32_resize(order, cb->pins.len))
        return lib_nomem(f->rd);
    uint32_t next = 0, count[4] = {0};
    for (lib_dir dir = LIB_DIR_INPUT; dir <= LIB_DIR_INTERNAL; dir++)
        for (size_t i = 0; i < cb->pins.len; i++)
            if (cb->pins.data[i].dir == dir) {
                order->data[i] = next++;
                count[dir]++;
            }
    f->newidx = order->data;
    f->cell->n_pins = next;
    f->cell->n_inputs = count[LIB_DIR_INPUT];
    f->cell->n_inouts = count[LIB_DIR_INOUT];
    f->cell->n_outputs = count[LIB_DIR_OUTPUT];
    f->cell->n_internals = count[LIB_DIR_INTERNAL];
    return GP_OK;
}

/* The variable a ff/latch name stands for: a pin of that name, else a state
 * variable (added when new).  var_names has room for every candidate. */
static gp_status lib_fin_state_var(lib_fin *f, uint32_t name, const char **var_names,
                                   int32_t *var)
{
    lib_cell *c = f->cell;
    uint32_t v = lib_idmap_get(&f->rd->var_of, name);
    if (v == 0) {
        var_names[c->n_pins + c->n_state_vars] = lib_str(f, name);
        v = c->n_pins + ++c->n_state_vars;
        if (!lib_idmap_set(&f->rd->var_of, name, v))
            return lib_nomem(f->rd);
    }
    *var = (int32_t)v - 1;
    return GP_OK;
}

static gp_status lib_fin_vars(lib_fin *f)
{
    lib_cell *c = f->cell;
    lib_cellb *cb = f->cb;
    lib_idmap *var_of = &f->rd->var_of;
    size_t room = cb->pins.len + 2 * cb->seqs.len;
    const char **names = arena_alloc(&f->rd->set->mem, (room ? room : 1) * sizeof *names, 0);
    if (!names)
        return lib_nomem(f->rd);
    lib_idmap_clear(var_of);
    for (size_t i = 0; i < cb->pins.len; i++) {
        names[f->newidx[i]] = lib_str(f, cb->pins.data[i].name);
        if (!lib_idmap_set(var_of, cb->pins.data[i].name, f->newidx[i] + 1))
            return lib_nomem(f->rd);
    }
    int32_t var;
    for (size_t q = 0; q < cb->seqs.len; q++)
        for (int k = 0; k < 2; k++)
            if (cb->seqs.data[q].var[k] != STRTAB_NONE) {
                gp_status st = lib_fin_state_var(f, cb->seqs.data[q].var[k], names, &var);
                if (st != GP_OK)
                    return st;
            }
    f->var_names = names;
    c->state_vars = names + c->n_pins;
    c->n_vars = c->n_pins + c->n_state_vars;
    c->exprs_compiled = c->n_vars <= LIB_MAX_EXPR_PINS;
    if (!c->exprs_compiled)
        diag_warn(f->rd->d, 2500, f->cb->loc,
                  "cell '%s' has %u pins and state variables, more than %d: its function and "
                  "when expressions are checked but not compiled, so they cannot be evaluated",
                  f->name, c->n_vars, LIB_MAX_EXPR_PINS);
    f->scope = (lib_expr_scope){.cell = f->name, .n_vars = c->n_vars, .names = &f->rd->set->names,
                                .var_of = var_of, .bus = LIB_NONE, .compile = c->exprs_compiled};
    return GP_OK;
}

static gp_status lib_fin_buses(lib_fin *f)
{
    lib_cellb *cb = f->cb;
    arena *mem = &f->rd->set->mem;
    lib_bus *buses = arena_calloc(mem, cb->buses.len ? cb->buses.len : 1, sizeof *buses, 0);
    if (!buses)
        return lib_nomem(f->rd);
    for (size_t b = 0; b < cb->buses.len; b++) {
        const lib_bbus *bb = &cb->buses.data[b];
        uint32_t *bits = arena_alloc(mem, (bb->n_bits ? bb->n_bits : 1) * sizeof *bits, 0);
        if (!bits)
            return lib_nomem(f->rd);
        for (uint32_t k = 0; k < bb->n_bits; k++)
            bits[k] = f->newidx[bb->first_pin + k];
        buses[b] = (lib_bus){lib_str(f, bb->name), bb->is_bundle, bb->n_bits, bits};
    }
    f->cell->buses = buses;
    f->cell->n_buses = (uint32_t)cb->buses.len;
    f->scope.buses = buses;
    f->scope.n_buses = f->cell->n_buses;
    return GP_OK;
}

/* ---- expressions and names ------------------------------------------------------ */

/* The compiled expression of text t (NULL when absent) for a pin of bus
 * `bus` at `pos` (LIB_NONE: not a bus member); `what` names it in messages.
 * Outside buses each distinct text is compiled once per cell. */
static gp_status lib_fin_expr(lib_fin *f, lib_text t, int32_t bus, int32_t pos, const char *what,
                              const lib_expr **out)
{
    lib_reader *rd = f->rd;
    *out = NULL;
    if (t.id == STRTAB_NONE)
        return GP_OK;
    uint32_t cached = bus == LIB_NONE ? lib_idmap_get(&rd->expr_of, t.id) : 0;
    if (cached) {
        *out = rd->exprs.data[cached - 1];
        return GP_OK;
    }
    lib_expr_scope sc = f->scope;
    sc.bus = bus;
    sc.bus_pos = pos;
    lib_expr *e = arena_alloc(&rd->set->mem, sizeof *e, 0);
    if (!e)
        return lib_nomem(rd);
    e->text = lib_str(f, t.id);
    gp_status st = lib_expr_compile(&sc, e->text, lib_loc(rd, t.line, t.col), what,
                                    &rd->set->mem, rd->d, &e->tt);
    if (st != GP_OK)
        return st;
    if (bus == LIB_NONE && (!vec_ptr_push(&rd->exprs, e) ||
                            !lib_idmap_set(&rd->expr_of, t.id, (uint32_t)rd->exprs.len)))
        return lib_nomem(rd);
    *out = e;
    return GP_OK;
}

/* The pg pin `t` names, LIB_NONE when absent or not a pg_pin of the cell
 * (warned about once per name). */
static int32_t lib_fin_pg(lib_fin *f, lib_text t)
{
    if (t.id == STRTAB_NONE)
        return LIB_NONE;
    for (size_t i = 0; i < f->cb->pgs.len; i++)
        if (f->cb->pgs.data[i].name == t.id)
            return (int32_t)i;
    lib_warn_once(f->rd, 2501, t.id, lib_loc(f->rd, t.line, t.col),
                  "'%s' is not a pg_pin of cell '%s' (nor, maybe, of other cells): the groups "
                  "naming it are kept without a pg pin (reported once per name)",
                  lib_str(f, t.id), f->name);
    return LIB_NONE;
}

/* Appends to rd->related the pins text t names for a group of bpin `pin`: a
 * pin, or a bus's bit at pin's position (all its bits when `all_bits` or the
 * widths differ). */
static gp_status lib_fin_related(lib_fin *f, lib_text t, bool all_bits, uint32_t pin)
{
    if (t.id == STRTAB_NONE)
        return GP_OK;
    const char *s = lib_str(f, t.id);
    const lib_bpin *p = &f->cb->pins.data[pin];
    while (*s) {
        size_t len = strcspn(s, " \t\r\n,");
        if (len == 0) {
            s++;
            continue;
        }
        uint32_t id = strtab_find(&f->rd->set->names, s, len);
        uint32_t pin_plus1 = lib_idmap_get(&f->cb->pin_of, id);
        int32_t hit = pin_plus1 ? (int32_t)f->newidx[pin_plus1 - 1] : LIB_NONE, bus = LIB_NONE;
        for (size_t b = 0; id != STRTAB_NONE && b < f->cb->buses.len && hit == LIB_NONE; b++)
            if (f->cb->buses.data[b].name == id)
                bus = (int32_t)b;
        if (hit == LIB_NONE && bus == LIB_NONE) {
            diag_error(f->rd->d, 2502, lib_loc(f->rd, t.line, t.col),
                       "related pin '%.*s' is not a pin or bus of cell '%s'", (int)len, s, f->name);
            return GP_ERR_INPUT;
        }
        bool ok = true;
        if (hit != LIB_NONE) {
            ok = vec_u32_push(&f->rd->related, (uint32_t)hit);
        } else {
            const lib_bus *b = &f->cell->buses[bus];
            bool same = !all_bits && p->bus != LIB_NONE && f->cell->buses[p->bus].n_bits == b->n_bits;
            for (uint32_t k = 0; k < b->n_bits && ok; k++)
                if (!same || (int32_t)k == p->bus_pos)
                    ok = vec_u32_push(&f->rd->related, b->bits[k]);
        }
        if (!ok)
            return lib_nomem(f->rd);
        s += len;
    }
    return GP_OK;
}

/* ---- pins ----------------------------------------------------------------------- */

static double lib_default_cap(const lib_library *lib, lib_dir dir)
{
    switch (dir) {
    case LIB_DIR_INPUT: return lib->default_input_pin_cap;
    case LIB_DIR_OUTPUT: return lib->default_output_pin_cap;
    case LIB_DIR_INOUT: return lib->default_inout_pin_cap;
    default: return 0;
    }
}

static gp_status lib_fin_pin(lib_fin *f, const lib_bpin *bp, lib_pin *p)
{
    const lib_library *lib = f->rd->lib;
    double u = lib->cap_unit, cap = bp->cap * u, rise = bp->rise_cap * u, fall = bp->fall_cap * u;
    if (isnan(cap))
        cap = !isnan(rise) && !isnan(fall) ? (rise + fall) / 2
              : !isnan(rise)               ? rise
              : !isnan(fall)               ? fall
                                           : lib_default_cap(lib, bp->dir);
    *p = (lib_pin){.name = lib_str(f, bp->name), .dir = bp->dir, .bus = bp->bus,
                   .capacitance = cap, .rise_capacitance = isnan(rise) ? cap : rise,
                   .fall_capacitance = isnan(fall) ? cap : fall, .max_capacitance = bp->max_cap * u,
                   .is_clock = bp->clock, .related_power_pg = lib_fin_pg(f, bp->power_pin),
                   .related_ground_pg = lib_fin_pg(f, bp->ground_pin)};
    char what[320];
    snprintf(what, sizeof what, "the function of pin '%s'", p->name);
    gp_status st = lib_fin_expr(f, bp->function, bp->bus, bp->bus_pos, what, &p->function);
    snprintf(what, sizeof what, "the three_state of pin '%s'", p->name);
    if (st == GP_OK)
        st = lib_fin_expr(f, bp->three_state, bp->bus, bp->bus_pos, what, &p->three_state);
    snprintf(what, sizeof what, "the state_function of pin '%s'", p->name);
    if (st == GP_OK)
        st = lib_fin_expr(f, bp->state_function, bp->bus, bp->bus_pos, what, &p->state_function);
    return st;
}

static gp_status lib_fin_pins(lib_fin *f)
{
    lib_cellb *cb = f->cb;
    lib_pin *pins = arena_calloc(&f->rd->set->mem, cb->pins.len ? cb->pins.len : 1, sizeof *pins, 0);
    if (!pins)
        return lib_nomem(f->rd);
    f->cell->pins = pins;
    for (size_t i = 0; i < cb->pins.len; i++) {
        gp_status st = lib_fin_pin(f, &cb->pins.data[i], &pins[f->newidx[i]]);
        if (st != GP_OK)
            return st;
    }
    return GP_OK;
}

/* ---- timing arcs and power groups ------------------------------------------------------ */

/* The sense of an arc whose group gave none (see liberty.h). */
static lib_timing_sense lib_fin_sense(const lib_fin *f, const lib_arc *a)
{
    const lib_pin *p = &f->cell->pins[a->pin];
    bool comb = a->type == LIB_TT_COMBINATIONAL || a->type == LIB_TT_COMBINATIONAL_RISE ||
                a->type == LIB_TT_COMBINATIONAL_FALL;
    if (!comb || a->related == LIB_NONE || !p->function || !p->function->tt)
        return LIB_SENSE_NON_UNATE;
    return lib_expr_unateness(p->function->tt, f->cell->n_vars, (uint32_t)a->related);
}

/* One group, one pin: its entries (one per related pin) appended to rd->arcs
 * (timing) or rd->powers. */
static gp_status lib_fin_entries(lib_fin *f, const lib_bgroup *g, uint32_t pin, bool power)
{
    const lib_bpin *bp = &f->cb->pins.data[pin];
    char what[320];
    snprintf(what, sizeof what, "the when of a%s group of pin '%s'",
             power ? "n internal_power" : " timing", lib_str(f, bp->name));
    const lib_expr *when;
    vec_u32 *related = &f->rd->related;
    related->len = 0;
    gp_status st = lib_fin_expr(f, g->when, bp->bus, bp->bus_pos, what, &when);
    if (st == GP_OK)
        st = lib_fin_related(f, g->related, false, pin);
    if (st == GP_OK)
        st = lib_fin_related(f, g->related_bus, true, pin);
    if (st != GP_OK)
        return st;
    bool none = related->len == 0;
    if (f->rd->arcs.len + f->rd->powers.len + related->len > LIB_MAX_ENTRIES) {
        diag_error(f->rd->d, 2504, g->loc,
                   "cell '%s' has more than %d timing arcs and power entries (after expanding "
                   "buses and related pin lists): gatepower does not take such cells",
                   f->name, LIB_MAX_ENTRIES);
        return GP_ERR_UNSUPPORTED;
    }
    for (size_t r = 0; r < (none ? 1 : related->len); r++) {
        int32_t rel = none ? LIB_NONE : (int32_t)related->data[r];
        bool ok;
        if (power) {
            lib_power e = {f->newidx[pin], rel, lib_fin_pg(f, g->related_pg), when, g->table[0],
                           g->table[1]};
            ok = lib_powervec_push(&f->rd->powers, e);
        } else {
            lib_arc a = {.pin = f->newidx[pin], .related = rel, .when = when,
                         .type = g->type < 0 ? LIB_TT_COMBINATIONAL : (lib_timing_type)g->type,
                         .sdf_cond = g->sdf_cond == STRTAB_NONE ? NULL : lib_str(f, g->sdf_cond)};
            memcpy(a.table, g->table, sizeof a.table);
            a.sense = g->sense >= 0 ? (lib_timing_sense)g->sense : lib_fin_sense(f, &a);
            ok = lib_arcvec_push(&f->rd->arcs, a);
        }
        if (!ok)
            return lib_nomem(f->rd);
    }
    return GP_OK;
}

static gp_status lib_fin_groups(lib_fin *f, const lib_bgroupvec *groups, bool power)
{
    for (size_t i = 0; i < groups->len; i++) {
        const lib_bgroup *g = &groups->data[i];
        if (g->dropped)
            continue;
        const lib_bbus *bus = g->bus == LIB_NONE ? NULL : &f->cb->buses.data[g->bus];
        uint32_t n = bus ? bus->n_bits : g->ctx_n;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t pin = bus ? bus->first_pin + k : f->cb->ctx.data[g->ctx_first + k];
            gp_status st = lib_fin_entries(f, g, pin, power);
            if (st != GP_OK)
                return st;
        }
    }
    return GP_OK;
}

/* Copies n entries of `size` bytes from src into the arena grouped by pin,
 * in library order within a pin (a counting sort), and sets each pin's
 * first/count of them. */
static void *lib_fin_by_pin(lib_fin *f, const void *src, size_t n, size_t size,
                            uint32_t (*pin_of)(const void *), bool power)
{
    lib_cell *c = f->cell;
    lib_pin *pins = (lib_pin *)c->pins; /* allocated writable by lib_fin_pins */
    vec_u32 *count = &f->rd->count;
    char *out = arena_alloc(&f->rd->set->mem, (n ? n : 1) * size, 0);
    if (!out || !vec_u32_resize(count, 0) || !vec_u32_resize(count, c->n_pins + 1))
        return NULL;
    for (size_t i = 0; i < n; i++)
        count->data[pin_of((const char *)src + i * size) + 1]++;
    for (uint32_t p = 0; p < c->n_pins; p++) {
        count->data[p + 1] += count->data[p];
        if (power) {
            pins[p].first_power = count->data[p];
            pins[p].n_powers = count->data[p + 1] - count->data[p];
        } else {
            pins[p].first_arc = count->data[p];
            pins[p].n_arcs = count->data[p + 1] - count->data[p];
        }
    }
    for (size_t i = 0; i < n; i++) {
        const char *e = (const char *)src + i * size;
        memcpy(out + (size_t)count->data[pin_of(e)]++ * size, e, size);
    }
    return out;
}

static uint32_t lib_arc_pin(const void *a) { return ((const lib_arc *)a)->pin; }
static uint32_t lib_power_pin(const void *p) { return ((const lib_power *)p)->pin; }

static gp_status lib_fin_arcs_powers(lib_fin *f)
{
    f->rd->arcs.len = f->rd->powers.len = 0;
    gp_status st = lib_fin_groups(f, &f->cb->arcs, false);
    if (st == GP_OK)
        st = lib_fin_groups(f, &f->cb->powers, true);
    if (st != GP_OK)
        return st;
    lib_cell *c = f->cell;
    c->arcs = lib_fin_by_pin(f, f->rd->arcs.data, f->rd->arcs.len, sizeof(lib_arc), lib_arc_pin, false);
    c->powers = lib_fin_by_pin(f, f->rd->powers.data, f->rd->powers.len, sizeof(lib_power),
                               lib_power_pin, true);
    c->n_arcs = (uint32_t)f->rd->arcs.len;
    c->n_powers = (uint32_t)f->rd->powers.len;
    return c->arcs && c->powers ? GP_OK : lib_nomem(f->rd);
}

/* ---- leakage, ff/latch, pg pins ---------------------------------------------------------- */

static gp_status lib_fin_leakages(lib_fin *f)
{
    const lib_bleakvec *v = &f->cb->leaks;
    lib_leakage *out = arena_alloc(&f->rd->set->mem, (v->len ? v->len : 1) * sizeof *out, 0);
    if (!out)
        return lib_nomem(f->rd);
    for (size_t i = 0; i < v->len; i++) {
        const lib_bleak *l = &v->data[i];
        if (!l->has_value) {
            diag_error(f->rd->d, 2503, l->loc,
                       "leakage_power group of cell '%s' has no value: add value : NUMBER;",
                       f->name);
            return GP_ERR_INPUT;
        }
        out[i] = (lib_leakage){l->value, NULL, lib_fin_pg(f, l->related_pg)};
        gp_status st = lib_fin_expr(f, l->when, LIB_NONE, 0, "the when of a leakage_power group",
                                    &out[i].when);
        if (st != GP_OK)
            return st;
    }
    f->cell->leakages = out;
    f->cell->n_leakages = (uint32_t)v->len;
    return GP_OK;
}

/* lib_fin_vars added every state variable, so lib_fin_state_var only finds
 * them here (and cannot fail). */
static gp_status lib_fin_seqs(lib_fin *f)
{
    static const char *const what[LIB_SEQ_EXPRS] = {
        "next_state", "clocked_on", "clocked_on_also", "data_in", "enable", "enable_also",
        "clear", "preset"};
    const lib_bseqvec *v = &f->cb->seqs;
    lib_seq *out = arena_calloc(&f->rd->set->mem, v->len ? v->len : 1, sizeof *out, 0);
    if (!out)
        return lib_nomem(f->rd);
    for (size_t i = 0; i < v->len; i++) {
        const lib_bseq *q = &v->data[i];
        out[i].is_latch = q->is_latch;
        out[i].var_qn = LIB_NONE;
        lib_fin_state_var(f, q->var[0], f->var_names, &out[i].var_q);
        if (q->var[1] != STRTAB_NONE)
            lib_fin_state_var(f, q->var[1], f->var_names, &out[i].var_qn);
        out[i].clear_preset_var1 = q->cp[0];
        out[i].clear_preset_var2 = q->cp[1];
        for (int k = 0; k < LIB_SEQ_EXPRS; k++) {
            char w[64];
            snprintf(w, sizeof w, "the %s of a%s", what[k], q->is_latch ? " latch" : "n ff");
            gp_status st = lib_fin_expr(f, q->expr[k], LIB_NONE, 0, w, &out[i].expr[k]);
            if (st != GP_OK)
                return st;
        }
    }
    f->cell->seqs = out;
    f->cell->n_seqs = (uint32_t)v->len;
    return GP_OK;
}

static gp_status lib_fin_pgs(lib_fin *f)
{
    const lib_bpgvec *v = &f->cb->pgs;
    lib_pg_pin *out = arena_alloc(&f->rd->set->mem, (v->len ? v->len : 1) * sizeof *out, 0);
    if (!out)
        return lib_nomem(f->rd);
    for (size_t i = 0; i < v->len; i++) {
        const lib_bpg *g = &v->data[i];
        uint32_t vname = g->voltage_name != STRTAB_NONE ? g->voltage_name : g->name;
        out[i] = (lib_pg_pin){lib_str(f, g->name), lib_str(f, g->pg_type), lib_str(f, vname), NAN};
    }
    f->cell->pg_pins = out; /* voltages: at the library's end, from its voltage_map */
    f->cell->n_pg_pins = (uint32_t)v->len;
    return GP_OK;
}

/* ---- the cell ------------------------------------------------------------------------------ */

static gp_status lib_fin_add(lib_fin *f)
{
    lib_set *s = f->rd->set;
    uint32_t id = f->cb->name;
    if (id >= s->cell_of.len && !vec_u32_resize(&s->cell_of, id + 1))
        return lib_nomem(f->rd);
    if (!vec_ptr_push(&s->cells, f->cell))
        return lib_nomem(f->rd);
    s->cell_of.data[id] = (uint32_t)s->cells.len;
    return GP_OK;
}

gp_status lib_cell_finish(lib_reader *rd)
{
    lib_cellb *cb = &rd->cell;
    lib_cell *c = arena_calloc(&rd->set->mem, 1, sizeof *c, 0);
    if (!c)
        return lib_nomem(rd);
    lib_fin f = {.rd = rd, .cb = cb, .cell = c, .name = strtab_str(&rd->set->names, cb->name)};
    const lib_library *lib = rd->lib;
    *c = (lib_cell){.name = f.name, .library = lib, .area = cb->area,
                    .cell_leakage_power = cb->has_leakage ? cb->leakage : lib->default_cell_leakage_power,
                    .has_cell_leakage_power = cb->has_leakage};
    gp_status st = lib_fin_order(&f);
    if (st == GP_OK)
        st = lib_fin_vars(&f);
    if (st == GP_OK)
        st = lib_fin_buses(&f);
    if (st == GP_OK)
        st = lib_fin_pgs(&f);
    if (st == GP_OK)
        st = lib_fin_pins(&f);
    if (st == GP_OK)
        st = lib_fin_arcs_powers(&f);
    if (st == GP_OK)
        st = lib_fin_leakages(&f);
    if (st == GP_OK)
        st = lib_fin_seqs(&f);
    if (st == GP_OK)
        st = lib_fin_add(&f);
    lib_idmap_clear(&rd->expr_of);
    rd->exprs.len = 0;
    return st;
}
