/* liberty_cell.c: the statements inside a cell group: pins, buses and
 * bundles, pg pins, ff/latch, leakage, timing and internal power groups and
 * their tables.  Everything is collected in the reader's lib_cellb (names as
 * strtab ids, expressions as text) and laid out by lib_cell_finish at the
 * cell's end, when every pin the expressions and related pins name is known.
 *
 * A bus or bundle group's own attributes go to its template pin and are
 * copied to each member at the group's end, except those a member's own pin
 * group set: a bit's attributes win whatever the order in the file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "liberty/liberty_int.h"

/* Bounds that keep a hostile file from making a cell take minutes. */
#define LIB_MAX_BUS_BITS 4096

static const char *const lib_tt_names[LIB_TT_COUNT] = {
    "combinational", "combinational_rise", "combinational_fall",
    "three_state_enable", "three_state_disable",
    "three_state_enable_rise", "three_state_enable_fall",
    "three_state_disable_rise", "three_state_disable_fall",
    "rising_edge", "falling_edge", "preset", "clear",
    "setup_rising", "setup_falling", "hold_rising", "hold_falling",
    "recovery_rising", "recovery_falling", "removal_rising", "removal_falling",
    "skew_rising", "skew_falling",
    "non_seq_setup_rising", "non_seq_setup_falling",
    "non_seq_hold_rising", "non_seq_hold_falling",
    "nochange_high_high", "nochange_high_low", "nochange_low_high", "nochange_low_low",
    "min_pulse_width", "minimum_period"};

static const char *const lib_sense_names[] = {"positive_unate", "negative_unate", "non_unate"};
static const char *const lib_dir_names[] = {"input", "inout", "output", "internal"};

const char *lib_timing_type_name(lib_timing_type t)
{
    return (unsigned)t < LIB_TT_COUNT ? lib_tt_names[t] : "?";
}

const char *lib_timing_sense_name(lib_timing_sense s)
{
    return (unsigned)s < 3 ? lib_sense_names[s] : "?";
}

const char *lib_dir_name(lib_dir d) { return (unsigned)d < 4 ? lib_dir_names[d] : "?"; }

bool lib_timing_type_is_delay(lib_timing_type t) { return t <= LIB_TT_CLEAR; }

/* The index of `s` in names[0..n), or -1. */
static int lib_lookup(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

static gp_status lib_text_of(lib_reader *rd, const lib_arg *a, lib_text *out)
{
    *out = (lib_text){lib_intern(rd, a->text, a->len), a->line, a->col};
    return out->id == STRTAB_NONE ? GP_ERR_NOMEM : GP_OK;
}

static lib_cellb *lib_cb(lib_reader *rd) { return &rd->cell; }

void lib_cellb_free(lib_cellb *cb)
{
    lib_bpinvec_free(&cb->pins);
    lib_idmap_free(&cb->pin_of);
    lib_bbusvec_free(&cb->buses);
    vec_u32_free(&cb->ctx);
    lib_bgroupvec_free(&cb->arcs);
    lib_bgroupvec_free(&cb->powers);
    lib_bleakvec_free(&cb->leaks);
    lib_bseqvec_free(&cb->seqs);
    lib_bpgvec_free(&cb->pgs);
}

/* ---- the cell's start --------------------------------------------------- */

gp_status lib_cell_begin(lib_reader *rd, const lib_stmt *s, bool *skip)
{
    if (s->n_args < 1) {
        diag_error(rd->d, 2200, lib_loc(rd, s->line, s->col),
                   "cell group without a name: write cell (NAME) { ... }");
        return GP_ERR_PARSE;
    }
    uint32_t id = lib_intern(rd, s->args[0].text, s->args[0].len);
    if (id == STRTAB_NONE)
        return GP_ERR_NOMEM;
    uint32_t index = id < rd->set->cell_of.len ? rd->set->cell_of.data[id] : 0;
    if (index) {
        const lib_cell *old = rd->set->cells.data[index - 1];
        diag_warn(rd->d, 2201, lib_loc(rd, s->line, s->col),
                  "cell '%s' is defined again (first in library '%s' of %s); the first "
                  "definition is kept and this one skipped",
                  s->args[0].text, old->library->name, old->library->path);
        *skip = true;
        return GP_OK;
    }
    lib_cellb *cb = lib_cb(rd);
    cb->name = id;
    cb->loc = lib_loc(rd, s->line, s->col);
    cb->area = 0;
    cb->has_leakage = false;
    lib_idmap_clear(&cb->pin_of);
    cb->pins.len = cb->buses.len = cb->ctx.len = cb->arcs.len = cb->powers.len = 0;
    cb->leaks.len = cb->seqs.len = cb->pgs.len = 0;
    return lib_push(rd, LIB_F_CELL, 0, 0, 0);
}

/* ---- pins ------------------------------------------------------------------ */

static lib_bpin lib_new_pin(uint32_t name, int line, int col)
{
    lib_text none = {STRTAB_NONE, 0, 0};
    return (lib_bpin){.name = name, .line = line, .col = col, .dir = LIB_DIR_INPUT,
                      .cap = NAN, .rise_cap = NAN, .fall_cap = NAN, .max_cap = 0,
                      .function = none, .three_state = none, .state_function = none,
                      .power_pin = none, .ground_pin = none, .bus = LIB_NONE, .bus_pos = 0};
}

static int32_t lib_find_bpin(const lib_cellb *cb, uint32_t name)
{
    return (int32_t)lib_idmap_get(&cb->pin_of, name) - 1;
}

static gp_status lib_push_bpin(lib_reader *rd, lib_bpin p)
{
    lib_cellb *cb = lib_cb(rd);
    if (!lib_bpinvec_push(&cb->pins, p) || !lib_idmap_set(&cb->pin_of, p.name, (uint32_t)cb->pins.len))
        return lib_nomem(rd);
    return GP_OK;
}

/* The pin called `name`, created at cell level when new; its index in *out. */
static gp_status lib_cell_pin(lib_reader *rd, const lib_arg *a, uint32_t *out)
{
    lib_cellb *cb = lib_cb(rd);
    uint32_t name = lib_intern(rd, a->text, a->len);
    if (name == STRTAB_NONE)
        return GP_ERR_NOMEM;
    int32_t i = lib_find_bpin(cb, name);
    if (i == LIB_NONE) {
        gp_status st = lib_push_bpin(rd, lib_new_pin(name, a->line, a->col));
        if (st != GP_OK)
            return st;
        i = (int32_t)cb->pins.len - 1;
    }
    *out = (uint32_t)i;
    return GP_OK;
}

/* A new member pin called `name` of bus `bus` at position `pos`. */
static gp_status lib_add_member(lib_reader *rd, uint32_t bus, const char *name, uint32_t pos)
{
    lib_cellb *cb = lib_cb(rd);
    lib_bbus *b = &cb->buses.data[bus];
    uint32_t id = lib_intern(rd, name, strlen(name));
    if (id == STRTAB_NONE)
        return GP_ERR_NOMEM;
    if (lib_find_bpin(cb, id) != LIB_NONE) {
        diag_error(rd->d, 2202, b->loc, "pin '%s' of %s '%s' is declared twice in cell '%s'",
                   name, b->is_bundle ? "bundle" : "bus", strtab_str(&rd->set->names, b->name),
                   strtab_str(&rd->set->names, cb->name));
        return GP_ERR_INPUT;
    }
    lib_bpin p = lib_new_pin(id, b->loc.line, b->loc.col);
    p.bus = (int32_t)bus;
    p.bus_pos = (int32_t)pos;
    return lib_push_bpin(rd, p);
}

/* Creates a bus's bit pins NAME[i] from bit_from to bit_to. */
static gp_status lib_make_bits(lib_reader *rd, uint32_t bus, diag_loc where)
{
    lib_cellb *cb = lib_cb(rd);
    lib_bbus *b = &cb->buses.data[bus];
    const char *bname = strtab_str(&rd->set->names, b->name);
    if (b->made)
        return GP_OK;
    if (b->is_bundle || b->from < 0) {
        diag_error(rd->d, 2203, where,
                   "%s '%s' has no %s before its member pins or its end: add it",
                   b->is_bundle ? "bundle" : "bus", bname, b->is_bundle ? "members" : "bus_type");
        return GP_ERR_INPUT;
    }
    uint32_t width = (uint32_t)abs(b->to - b->from) + 1;
    if (width > LIB_MAX_BUS_BITS) {
        diag_error(rd->d, 2221, where, "bus '%s' has %u bits, more than the %d gatepower takes",
                   bname, width, LIB_MAX_BUS_BITS);
        return GP_ERR_UNSUPPORTED;
    }
    b->first_pin = (uint32_t)cb->pins.len;
    b->n_bits = width;
    b->made = true;
    for (uint32_t k = 0; k < width; k++) {
        char name[300];
        int bit = b->from <= b->to ? b->from + (int)k : b->from - (int)k;
        snprintf(name, sizeof name, "%.280s[%d]", bname, bit);
        gp_status st = lib_add_member(rd, bus, name, k);
        if (st != GP_OK)
            return st;
        b = &cb->buses.data[bus];
    }
    return GP_OK;
}

static gp_status lib_bus_type(lib_reader *rd, uint32_t bus, const lib_stmt *s)
{
    lib_bbus *b = &lib_cb(rd)->buses.data[bus];
    for (size_t i = 0; i < rd->bustypes.len; i++) {
        const lib_bustype *t = &rd->bustypes.data[i];
        if (strcmp(strtab_str(&rd->set->names, t->name), s->args[0].text) != 0)
            continue;
        if (!t->has_from || !t->has_to) {
            diag_error(rd->d, 2204, lib_arg_loc(rd, &s->args[0]),
                       "type '%s' needs bit_from and bit_to to be used as a bus_type",
                       s->args[0].text);
            return GP_ERR_INPUT;
        }
        if (b->made || b->is_bundle)
            break;
        b->from = t->from;
        b->to = t->to;
        return GP_OK;
    }
    diag_error(rd->d, 2205, lib_arg_loc(rd, &s->args[0]),
               "bus_type '%s' is not a type defined before it (or it comes twice, or in a "
               "bundle): define it with type (NAME) { bit_from : ...; bit_to : ...; }",
               s->args[0].text);
    return GP_ERR_INPUT;
}

/* members (A, B, C) of a bundle. */
static gp_status lib_members(lib_reader *rd, uint32_t bus, const lib_stmt *s)
{
    lib_cellb *cb = lib_cb(rd);
    lib_bbus *b = &cb->buses.data[bus];
    if (!b->is_bundle || b->made || s->n_args == 0) {
        diag_error(rd->d, 2206, lib_loc(rd, s->line, s->col),
                   "members must be given once, in a bundle group, with at least one pin name");
        return GP_ERR_INPUT;
    }
    b->first_pin = (uint32_t)cb->pins.len;
    b->n_bits = (uint32_t)s->n_args;
    b->made = true;
    for (size_t k = 0; k < s->n_args; k++) {
        gp_status st = lib_add_member(rd, bus, s->args[k].text, (uint32_t)k);
        if (st != GP_OK)
            return st;
    }
    return GP_OK;
}

/* The members of bus `bus` that `a` names ("D[3]", "D[0:3]" or a bundle
 * member), appended to the cell's ctx list. */
static gp_status lib_member_pins(lib_reader *rd, uint32_t bus, const lib_arg *a)
{
    lib_cellb *cb = lib_cb(rd);
    const lib_bbus *b = &cb->buses.data[bus];
    long lo, hi;
    int end = 0;
    const char *open = strchr(a->text, '[');
    size_t base = open ? (size_t)(open - a->text) : 0;
    bool range = open && sscanf(open, "[%ld:%ld]%n", &lo, &hi, &end) == 2 && end > 0 &&
                 open[end] == '\0';
    for (uint32_t k = 0; k < b->n_bits; k++) {
        const char *name = strtab_str(&rd->set->names, cb->pins.data[b->first_pin + k].name);
        bool match = strcmp(name, a->text) == 0;
        if (range && strncmp(name, a->text, base) == 0 && name[base] == '[') {
            long bit = strtol(name + base + 1, NULL, 10);
            match = bit >= (lo < hi ? lo : hi) && bit <= (lo < hi ? hi : lo);
        }
        if (match && !vec_u32_push(&cb->ctx, b->first_pin + k))
            return lib_nomem(rd);
    }
    return GP_OK;
}

/* pin (NAMES) inside a cell, bus or bundle: its pins become the frame's ctx. */
static gp_status lib_begin_pin(lib_reader *rd, const lib_stmt *s, const lib_frame *parent)
{
    lib_cellb *cb = lib_cb(rd);
    uint32_t first = (uint32_t)cb->ctx.len;
    gp_status st = GP_OK;
    if (s->n_args == 0) {
        diag_error(rd->d, 2207, lib_loc(rd, s->line, s->col),
                   "pin group without a name: write pin (NAME) { ... }");
        return GP_ERR_PARSE;
    }
    if (parent->kind == LIB_F_BUS)
        st = lib_make_bits(rd, parent->index, lib_loc(rd, s->line, s->col));
    for (size_t i = 0; i < s->n_args && st == GP_OK; i++) {
        size_t before = cb->ctx.len;
        uint32_t pin = 0;
        if (parent->kind == LIB_F_BUS) {
            st = lib_member_pins(rd, parent->index, &s->args[i]);
            if (st == GP_OK && cb->ctx.len == before) {
                diag_error(rd->d, 2208, lib_arg_loc(rd, &s->args[i]),
                           "pin '%s' is not a member of %s '%s'", s->args[i].text,
                           cb->buses.data[parent->index].is_bundle ? "bundle" : "bus",
                           strtab_str(&rd->set->names, cb->buses.data[parent->index].name));
                st = GP_ERR_INPUT;
            }
        } else if ((st = lib_cell_pin(rd, &s->args[i], &pin)) == GP_OK &&
                   !vec_u32_push(&cb->ctx, pin)) {
            st = lib_nomem(rd);
        }
    }
    if (st != GP_OK)
        return st;
    return lib_push(rd, LIB_F_PIN, first, (uint32_t)cb->ctx.len - first, 0);
}

static gp_status lib_begin_bus(lib_reader *rd, const lib_stmt *s, bool bundle)
{
    lib_cellb *cb = lib_cb(rd);
    if (s->n_args != 1) {
        diag_error(rd->d, 2209, lib_loc(rd, s->line, s->col),
                   "%s group needs one name: write %s (NAME) { ... }", s->name, s->name);
        return GP_ERR_PARSE;
    }
    uint32_t name = lib_intern(rd, s->args[0].text, s->args[0].len);
    if (name == STRTAB_NONE)
        return GP_ERR_NOMEM;
    lib_bbus b = {.name = name, .is_bundle = bundle, .from = -1, .to = -1,
                  .tmpl = lib_new_pin(name, s->line, s->col), .loc = lib_loc(rd, s->line, s->col)};
    if (!lib_bbusvec_push(&cb->buses, b))
        return lib_nomem(rd);
    return lib_push(rd, LIB_F_BUS, (uint32_t)cb->buses.len - 1, 0, 0);
}

/* Copies attribute `bit` from src to dst. */
static void lib_copy_attr(lib_bpin *dst, const lib_bpin *src, uint32_t bit)
{
    switch (bit) {
    case LIB_PA_DIR: dst->dir = src->dir; break;
    case LIB_PA_CAP: dst->cap = src->cap; break;
    case LIB_PA_RISE_CAP: dst->rise_cap = src->rise_cap; break;
    case LIB_PA_FALL_CAP: dst->fall_cap = src->fall_cap; break;
    case LIB_PA_MAX_CAP: dst->max_cap = src->max_cap; break;
    case LIB_PA_CLOCK: dst->clock = src->clock; break;
    case LIB_PA_FUNCTION: dst->function = src->function; break;
    case LIB_PA_THREE_STATE: dst->three_state = src->three_state; break;
    case LIB_PA_STATE_FUNCTION: dst->state_function = src->state_function; break;
    case LIB_PA_POWER_PIN: dst->power_pin = src->power_pin; break;
    case LIB_PA_GROUND_PIN: dst->ground_pin = src->ground_pin; break;
    default: break;
    }
    dst->set |= bit;
}

static gp_status lib_end_bus(lib_reader *rd, uint32_t bus)
{
    lib_cellb *cb = lib_cb(rd);
    gp_status st = lib_make_bits(rd, bus, cb->buses.data[bus].loc);
    if (st != GP_OK)
        return st;
    const lib_bbus *b = &cb->buses.data[bus];
    for (uint32_t k = 0; k < b->n_bits; k++) {
        lib_bpin *p = &cb->pins.data[b->first_pin + k];
        for (uint32_t bit = 1; bit <= LIB_PA_GROUND_PIN; bit <<= 1)
            if ((b->tmpl.set & bit) && !(p->own & bit))
                lib_copy_attr(p, &b->tmpl, bit);
    }
    return GP_OK;
}

/* Parses pin attribute s into `val`; *bit is its LIB_PA_* (0: not one). */
static gp_status lib_parse_pin_attr(lib_reader *rd, const lib_stmt *s, lib_bpin *val, uint32_t *bit)
{
    static const struct { const char *name; uint32_t bit; } attrs[] = {
        {"direction", LIB_PA_DIR}, {"capacitance", LIB_PA_CAP},
        {"rise_capacitance", LIB_PA_RISE_CAP}, {"fall_capacitance", LIB_PA_FALL_CAP},
        {"max_capacitance", LIB_PA_MAX_CAP}, {"clock", LIB_PA_CLOCK},
        {"function", LIB_PA_FUNCTION}, {"three_state", LIB_PA_THREE_STATE},
        {"state_function", LIB_PA_STATE_FUNCTION}, {"related_power_pin", LIB_PA_POWER_PIN},
        {"related_ground_pin", LIB_PA_GROUND_PIN}};
    *bit = 0;
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        if (strcmp(s->name, attrs[i].name) == 0)
            *bit = attrs[i].bit;
    const lib_arg *a = &s->args[0];
    int dir;
    switch (*bit) {
    case LIB_PA_DIR:
        if ((dir = lib_lookup(lib_dir_names, 4, a->text)) < 0) {
            diag_error(rd->d, 2210, lib_arg_loc(rd, a),
                       "direction must be input, output, inout or internal, not '%.40s'", a->text);
            return GP_ERR_INPUT;
        }
        val->dir = (lib_dir)dir;
        return GP_OK;
    case LIB_PA_CAP: return lib_attr_amount(rd, s, &val->cap);
    case LIB_PA_RISE_CAP: return lib_attr_amount(rd, s, &val->rise_cap);
    case LIB_PA_FALL_CAP: return lib_attr_amount(rd, s, &val->fall_cap);
    case LIB_PA_MAX_CAP: return lib_attr_amount(rd, s, &val->max_cap);
    case LIB_PA_CLOCK: return lib_attr_bool(rd, s, &val->clock);
    case LIB_PA_FUNCTION: return lib_text_of(rd, a, &val->function);
    case LIB_PA_THREE_STATE: return lib_text_of(rd, a, &val->three_state);
    case LIB_PA_STATE_FUNCTION: return lib_text_of(rd, a, &val->state_function);
    case LIB_PA_POWER_PIN: return lib_text_of(rd, a, &val->power_pin);
    case LIB_PA_GROUND_PIN: return lib_text_of(rd, a, &val->ground_pin);
    default: return GP_OK;
    }
}

/* A pin, bus or bundle attribute. */
static gp_status lib_pin_simple(lib_reader *rd, const lib_frame *f, const lib_stmt *s)
{
    lib_cellb *cb = lib_cb(rd);
    if (f->kind == LIB_F_BUS && strcmp(s->name, "bus_type") == 0)
        return lib_bus_type(rd, f->index, s);
    lib_bpin val = lib_new_pin(0, 0, 0);
    uint32_t bit;
    gp_status st = lib_parse_pin_attr(rd, s, &val, &bit);
    if (st != GP_OK || bit == 0)
        return st;
    if (f->kind == LIB_F_BUS) {
        lib_copy_attr(&cb->buses.data[f->index].tmpl, &val, bit);
        return GP_OK;
    }
    for (uint32_t i = 0; i < f->n; i++) {
        lib_bpin *p = &cb->pins.data[cb->ctx.data[f->index + i]];
        lib_copy_attr(p, &val, bit);
        p->own |= bit;
    }
    return GP_OK;
}

/* ---- timing and internal power ---------------------------------------------- */

static gp_status lib_begin_bgroup(lib_reader *rd, const lib_frame *parent, lib_bgroupvec *v,
                                  lib_frame_kind kind, const lib_stmt *s)
{
    lib_text none = {STRTAB_NONE, 0, 0};
    lib_bgroup g = {.ctx_first = parent->index, .ctx_n = parent->n, .bus = LIB_NONE,
                    .related = none, .related_bus = none, .when = none, .related_pg = none,
                    .sdf_cond = STRTAB_NONE, .sense = -1, .type = -1,
                    .loc = lib_loc(rd, s->line, s->col)};
    if (parent->kind == LIB_F_BUS) {
        g.bus = (int32_t)parent->index;
        g.ctx_n = 0;
    }
    if (!lib_bgroupvec_push(v, g))
        return lib_nomem(rd);
    return lib_push(rd, kind, (uint32_t)v->len - 1, 0, 0);
}

static gp_status lib_timing_simple(lib_reader *rd, lib_bgroup *g, const lib_stmt *s)
{
    const lib_arg *a = &s->args[0];
    const char *n = s->name;
    if (strcmp(n, "related_pin") == 0)
        return lib_text_of(rd, a, &g->related);
    if (strcmp(n, "related_bus_pins") == 0)
        return lib_text_of(rd, a, &g->related_bus);
    if (strcmp(n, "when") == 0)
        return lib_text_of(rd, a, &g->when);
    if (strcmp(n, "sdf_cond") == 0) {
        g->sdf_cond = lib_intern(rd, a->text, a->len);
        return g->sdf_cond == STRTAB_NONE ? GP_ERR_NOMEM : GP_OK;
    }
    if (strcmp(n, "timing_sense") == 0) {
        if ((g->sense = lib_lookup(lib_sense_names, 3, a->text)) < 0) {
            diag_error(rd->d, 2211, lib_arg_loc(rd, a),
                       "timing_sense must be positive_unate, negative_unate or non_unate, not "
                       "'%.40s'",
                       a->text);
            return GP_ERR_INPUT;
        }
    } else if (strcmp(n, "timing_type") == 0) {
        if ((g->type = lib_lookup(lib_tt_names, LIB_TT_COUNT, a->text)) < 0) {
            uint32_t key = lib_intern(rd, a->text, a->len);
            lib_warn_once(rd, 2212, key, lib_arg_loc(rd, a),
                          "timing_type '%.40s' is not supported: its timing arcs are skipped "
                          "(reported once per file)",
                          a->text);
            g->dropped = true;
        }
    }
    return GP_OK;
}

static gp_status lib_power_simple(lib_reader *rd, lib_bgroup *g, const lib_stmt *s)
{
    const lib_arg *a = &s->args[0];
    if (strcmp(s->name, "related_pin") == 0)
        return lib_text_of(rd, a, &g->related);
    if (strcmp(s->name, "related_bus_pins") == 0)
        return lib_text_of(rd, a, &g->related_bus);
    if (strcmp(s->name, "when") == 0)
        return lib_text_of(rd, a, &g->when);
    if (strcmp(s->name, "related_pg_pin") == 0)
        return lib_text_of(rd, a, &g->related_pg);
    return GP_OK;
}

/* ---- tables ------------------------------------------------------------------ */

/* The slot and role of table group `name` inside a timing (power: false) or
 * internal_power group; false when it is not a table gatepower reads. */
static bool lib_table_slot(const char *name, bool power, int *slot, lib_table_role *role)
{
    static const char *const timing[LIB_ARC_TABLES] = {
        "cell_rise", "cell_fall", "rise_transition", "fall_transition",
        "rise_constraint", "fall_constraint"};
    static const char *const powers[] = {"rise_power", "fall_power", "power"};
    if (power) {
        *slot = lib_lookup(powers, 3, name);
        *role = LIB_ROLE_POWER;
        if (*slot == 2)
            *slot = LIB_SLOT_BOTH;
        return *slot != -1;
    }
    *slot = lib_lookup(timing, LIB_ARC_TABLES, name);
    *role = *slot >= LIB_RISE_CONSTRAINT ? LIB_ROLE_CONSTRAINT : LIB_ROLE_DELAY;
    return *slot >= 0;
}

/* Whether a table in `role` may have an axis measuring `var`. */
static bool lib_var_allowed(lib_table_role role, uint8_t var)
{
    if (var == LIB_VAR_INPUT_SLEW || var == LIB_VAR_LOAD)
        return true;
    return role == LIB_ROLE_CONSTRAINT &&
           (var == LIB_VAR_RELATED_SLEW || var == LIB_VAR_CONSTRAINED_SLEW);
}

/* Finds the table's template; *skip when the table cannot be used. */
static gp_status lib_table_template(lib_reader *rd, const lib_stmt *s, lib_table_role role,
                                    uint32_t *tmpl, bool *skip)
{
    if (s->n_args != 1) {
        diag_error(rd->d, 2213, lib_loc(rd, s->line, s->col),
                   "table '%s' needs one template name: write %s (TEMPLATE) { ... }", s->name,
                   s->name);
        return GP_ERR_PARSE;
    }
    if (strcmp(s->args[0].text, "scalar") == 0) {
        *tmpl = UINT32_MAX;
        return GP_OK;
    }
    uint32_t id = strtab_find(&rd->set->names, s->args[0].text, s->args[0].len);
    if (id == STRTAB_NONE || id >= rd->template_of.len || rd->template_of.data[id] == 0) {
        diag_error(rd->d, 2214, lib_arg_loc(rd, &s->args[0]),
                   "table template '%s' is not defined: define it with lu_table_template or "
                   "power_lut_template before the cells",
                   s->args[0].text);
        return GP_ERR_INPUT;
    }
    *tmpl = rd->template_of.data[id] - 1;
    const lib_template *t = &rd->templates.data[*tmpl];
    if (t->n_vars == 3) {
        lib_warn_once(rd, 2215, t->name, lib_loc(rd, s->line, s->col),
                      "tables of template '%s' have 3 axes, which gatepower does not look up: "
                      "they are skipped (reported once per template)",
                      s->args[0].text);
        *skip = true;
    }
    for (int k = 0; k < t->n_vars && !*skip; k++)
        if (!lib_var_allowed(role, t->var[k])) {
            lib_warn_once(rd, 2216, t->var_name[k], lib_loc(rd, s->line, s->col),
                          "a %s table with an axis '%s' (template '%s') cannot be looked up by "
                          "gatepower: such tables are skipped (reported once per variable)",
                          s->name, strtab_str(&rd->set->names, t->var_name[k]), s->args[0].text);
            *skip = true;
        }
    return GP_OK;
}

static gp_status lib_begin_table(lib_reader *rd, const lib_stmt *s, const lib_frame *parent,
                                 bool *skip)
{
    int slot;
    lib_table_role role;
    if (!lib_table_slot(s->name, parent->kind == LIB_F_POWER, &slot, &role)) {
        lib_skip_group(rd, s, parent->kind == LIB_F_POWER ? "internal_power" : "timing", skip);
        return GP_OK;
    }
    uint32_t tmpl = 0;
    gp_status st = lib_table_template(rd, s, role, &tmpl, skip);
    if (st != GP_OK || *skip)
        return st;
    lib_tableb *tb = &rd->table;
    tb->tmpl = tmpl;
    tb->value_scale = role == LIB_ROLE_POWER ? rd->lib->energy_unit : rd->lib->time_unit;
    tb->index[0].len = tb->index[1].len = tb->values.len = 0;
    tb->has_index[0] = tb->has_index[1] = tb->has_values = tb->rows_uneven = false;
    tb->n_strings = tb->first_row_len = 0;
    tb->loc = lib_loc(rd, s->line, s->col);
    return lib_push(rd, LIB_F_TABLE, 0, 0, slot);
}

static const lib_template *lib_tb_template(const lib_reader *rd)
{
    return rd->table.tmpl == UINT32_MAX ? NULL : &rd->templates.data[rd->table.tmpl];
}

static gp_status lib_table_index(lib_reader *rd, const lib_stmt *s, int k)
{
    lib_tableb *tb = &rd->table;
    const lib_template *t = lib_tb_template(rd);
    if (!t || k >= t->n_vars || s->n_args != 1) {
        diag_error(rd->d, 2217, lib_loc(rd, s->line, s->col),
                   "%s needs one string of numbers and a template with a variable_%d", s->name,
                   k + 1);
        return GP_ERR_INPUT;
    }
    tb->index[k].len = 0;
    tb->has_index[k] = true;
    gp_status st = lib_parse_numbers(&s->args[0], rd->file, lib_var_scale(rd->lib, t->var[k]),
                                     s->name, &tb->index[k], rd->d);
    if (st != GP_OK)
        return st;
    return lib_check_increasing(tb->index[k].data, tb->index[k].len, lib_arg_loc(rd, &s->args[0]),
                                s->name, rd->d);
}

static gp_status lib_table_values(lib_reader *rd, const lib_stmt *s)
{
    lib_tableb *tb = &rd->table;
    tb->values.len = 0;
    tb->n_strings = 0;
    tb->has_values = true;
    tb->rows_uneven = false;
    tb->values_loc = lib_loc(rd, s->line, s->col);
    for (size_t i = 0; i < s->n_args; i++) {
        size_t before = tb->values.len;
        gp_status st = lib_parse_numbers(&s->args[i], rd->file, tb->value_scale, "values",
                                         &tb->values, rd->d);
        if (st != GP_OK)
            return st;
        uint32_t n = (uint32_t)(tb->values.len - before);
        if (i == 0)
            tb->first_row_len = n;
        else if (n != tb->first_row_len)
            tb->rows_uneven = true;
        tb->n_strings++;
    }
    return GP_OK;
}

static gp_status lib_end_table(lib_reader *rd, const lib_frame *f)
{
    const lib_table *t;
    gp_status st = lib_table_build(&rd->table, lib_tb_template(rd), &rd->set->mem, rd->d, &t);
    if (st != GP_OK)
        return st;
    const lib_frame *parent = lib_frame_at(rd, 1);
    lib_cellb *cb = lib_cb(rd);
    lib_bgroup *g = parent->kind == LIB_F_POWER ? &cb->powers.data[parent->index]
                                                : &cb->arcs.data[parent->index];
    if (f->slot == LIB_SLOT_BOTH)
        g->table[0] = g->table[1] = t;
    else
        g->table[f->slot] = t;
    return GP_OK;
}

/* ---- ff / latch, leakage, pg pins ----------------------------------------------- */

static gp_status lib_begin_seq(lib_reader *rd, const lib_stmt *s)
{
    lib_cellb *cb = lib_cb(rd);
    if (s->n_args < 1 || s->n_args > 2) {
        diag_error(rd->d, 2218, lib_loc(rd, s->line, s->col),
                   "%s needs one or two state variable names, e.g. %s (IQ, IQN)", s->name, s->name);
        return GP_ERR_PARSE;
    }
    lib_bseq q = {.is_latch = s->name[0] == 'l', .var = {STRTAB_NONE, STRTAB_NONE},
                  .loc = lib_loc(rd, s->line, s->col)};
    for (int k = 0; k < LIB_SEQ_EXPRS; k++)
        q.expr[k].id = STRTAB_NONE;
    for (size_t i = 0; i < s->n_args; i++)
        if ((q.var[i] = lib_intern(rd, s->args[i].text, s->args[i].len)) == STRTAB_NONE)
            return GP_ERR_NOMEM;
    if (!lib_bseqvec_push(&cb->seqs, q))
        return lib_nomem(rd);
    return lib_push(rd, LIB_F_SEQ, (uint32_t)cb->seqs.len - 1, 0, 0);
}

static gp_status lib_seq_simple(lib_reader *rd, lib_bseq *q, const lib_stmt *s)
{
    static const char *const names[LIB_SEQ_EXPRS] = {
        "next_state", "clocked_on", "clocked_on_also", "data_in", "enable", "enable_also",
        "clear", "preset"};
    const lib_arg *a = &s->args[0];
    int k = lib_lookup(names, LIB_SEQ_EXPRS, s->name);
    if (k >= 0)
        return lib_text_of(rd, a, &q->expr[k]);
    bool var1 = strcmp(s->name, "clear_preset_var1") == 0;
    if (!var1 && strcmp(s->name, "clear_preset_var2") != 0)
        return GP_OK;
    if (a->len != 1 || !strchr("LHNTX", a->text[0])) {
        diag_error(rd->d, 2219, lib_arg_loc(rd, a), "%s must be L, H, N, T or X, not '%.40s'",
                   s->name, a->text);
        return GP_ERR_INPUT;
    }
    q->cp[var1 ? 0 : 1] = a->text[0];
    return GP_OK;
}

static gp_status lib_begin_leakage(lib_reader *rd, const lib_stmt *s)
{
    lib_cellb *cb = lib_cb(rd);
    lib_text none = {STRTAB_NONE, 0, 0};
    lib_bleak l = {.when = none, .related_pg = none, .loc = lib_loc(rd, s->line, s->col)};
    if (!lib_bleakvec_push(&cb->leaks, l))
        return lib_nomem(rd);
    return lib_push(rd, LIB_F_LEAKAGE, (uint32_t)cb->leaks.len - 1, 0, 0);
}

static gp_status lib_leakage_simple(lib_reader *rd, lib_bleak *l, const lib_stmt *s)
{
    if (strcmp(s->name, "when") == 0)
        return lib_text_of(rd, &s->args[0], &l->when);
    if (strcmp(s->name, "related_pg_pin") == 0)
        return lib_text_of(rd, &s->args[0], &l->related_pg);
    if (strcmp(s->name, "value") != 0)
        return GP_OK;
    l->has_value = true;
    gp_status st = lib_attr_amount(rd, s, &l->value);
    l->value *= rd->lib->leakage_power_unit;
    return st;
}

static gp_status lib_begin_pg(lib_reader *rd, const lib_stmt *s)
{
    lib_cellb *cb = lib_cb(rd);
    if (s->n_args != 1) {
        diag_error(rd->d, 2220, lib_loc(rd, s->line, s->col),
                   "pg_pin group needs one name: write pg_pin (NAME) { ... }");
        return GP_ERR_PARSE;
    }
    lib_bpg g = {lib_intern(rd, s->args[0].text, s->args[0].len), STRTAB_NONE, STRTAB_NONE};
    if (g.name == STRTAB_NONE)
        return GP_ERR_NOMEM;
    if (!lib_bpgvec_push(&cb->pgs, g))
        return lib_nomem(rd);
    return lib_push(rd, LIB_F_PG_PIN, (uint32_t)cb->pgs.len - 1, 0, 0);
}

static gp_status lib_pg_simple(lib_reader *rd, lib_bpg *g, const lib_stmt *s)
{
    uint32_t *field = strcmp(s->name, "voltage_name") == 0 ? &g->voltage_name
                      : strcmp(s->name, "pg_type") == 0    ? &g->pg_type
                                                           : NULL;
    if (field && (*field = lib_intern(rd, s->args[0].text, s->args[0].len)) == STRTAB_NONE)
        return GP_ERR_NOMEM;
    return GP_OK;
}

/* ---- dispatch ------------------------------------------------------------------------ */

static gp_status lib_cell_child(lib_reader *rd, const lib_stmt *s, const lib_frame *f, bool *skip)
{
    const char *n = s->name;
    if (strcmp(n, "pin") == 0)
        return lib_begin_pin(rd, s, f);
    if (strcmp(n, "bus") == 0 || strcmp(n, "bundle") == 0)
        return lib_begin_bus(rd, s, strcmp(n, "bundle") == 0);
    if (strcmp(n, "pg_pin") == 0)
        return lib_begin_pg(rd, s);
    if (strcmp(n, "ff") == 0 || strcmp(n, "latch") == 0)
        return lib_begin_seq(rd, s);
    if (strcmp(n, "leakage_power") == 0)
        return lib_begin_leakage(rd, s);
    if (strcmp(n, "type") == 0 && s->n_args == 1) {
        uint32_t id = lib_intern(rd, s->args[0].text, s->args[0].len);
        if (id == STRTAB_NONE || !lib_bustypevec_push(&rd->bustypes, (lib_bustype){.name = id}))
            return lib_nomem(rd);
        return lib_push(rd, LIB_F_TYPE, (uint32_t)rd->bustypes.len - 1, 0, 0);
    }
    lib_skip_group(rd, s, "a cell", skip);
    return GP_OK;
}

gp_status lib_cell_group(lib_reader *rd, const lib_stmt *s, bool *skip)
{
    const lib_frame *f = lib_frame_at(rd, 0);
    lib_cellb *cb = lib_cb(rd);
    bool in_pin = f->kind == LIB_F_PIN || f->kind == LIB_F_BUS;
    switch (f->kind) {
    case LIB_F_CELL: return lib_cell_child(rd, s, f, skip);
    case LIB_F_TIMING:
    case LIB_F_POWER: return lib_begin_table(rd, s, f, skip);
    default: break;
    }
    if (in_pin && strcmp(s->name, "timing") == 0)
        return lib_begin_bgroup(rd, f, &cb->arcs, LIB_F_TIMING, s);
    if (in_pin && strcmp(s->name, "internal_power") == 0)
        return lib_begin_bgroup(rd, f, &cb->powers, LIB_F_POWER, s);
    if (f->kind == LIB_F_BUS && strcmp(s->name, "pin") == 0)
        return lib_begin_pin(rd, s, f);
    lib_skip_group(rd, s, in_pin ? "a pin" : "a cell's group", skip);
    return GP_OK;
}

gp_status lib_cell_group_end(lib_reader *rd)
{
    const lib_frame *f = lib_frame_at(rd, 0);
    switch (f->kind) {
    case LIB_F_CELL: return lib_cell_finish(rd);
    case LIB_F_BUS: return lib_end_bus(rd, f->index);
    case LIB_F_TABLE: return lib_end_table(rd, f);
    default: return GP_OK;
    }
}

gp_status lib_cell_simple(lib_reader *rd, const lib_stmt *s)
{
    const lib_frame *f = lib_frame_at(rd, 0);
    lib_cellb *cb = lib_cb(rd);
    double v;
    gp_status st;
    switch (f->kind) {
    case LIB_F_CELL:
        if (strcmp(s->name, "area") == 0)
            return lib_attr_number(rd, s, &cb->area);
        if (strcmp(s->name, "cell_leakage_power") != 0)
            return GP_OK;
        st = lib_attr_amount(rd, s, &v);
        cb->leakage = v * rd->lib->leakage_power_unit;
        cb->has_leakage = true;
        return st;
    case LIB_F_PIN:
    case LIB_F_BUS: return lib_pin_simple(rd, f, s);
    case LIB_F_PG_PIN: return lib_pg_simple(rd, &cb->pgs.data[f->index], s);
    case LIB_F_SEQ: return lib_seq_simple(rd, &cb->seqs.data[f->index], s);
    case LIB_F_LEAKAGE: return lib_leakage_simple(rd, &cb->leaks.data[f->index], s);
    case LIB_F_TIMING: return lib_timing_simple(rd, &cb->arcs.data[f->index], s);
    case LIB_F_POWER: return lib_power_simple(rd, &cb->powers.data[f->index], s);
    default: return GP_OK;
    }
}

gp_status lib_cell_complex(lib_reader *rd, const lib_stmt *s)
{
    const lib_frame *f = lib_frame_at(rd, 0);
    if (f->kind == LIB_F_BUS && strcmp(s->name, "members") == 0)
        return lib_members(rd, f->index, s);
    if (f->kind != LIB_F_TABLE)
        return GP_OK;
    if (strcmp(s->name, "values") == 0)
        return lib_table_values(rd, s);
    if (strncmp(s->name, "index_", 6) == 0 && s->name[6] >= '1' && s->name[6] <= '3' && !s->name[7])
        return lib_table_index(rd, s, s->name[6] - '1');
    return GP_OK;
}
