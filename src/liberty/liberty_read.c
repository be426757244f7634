/* liberty_read.c: the lib_set, lib_read, and the visitor that builds the
 * library level of the model (units, voltages, templates, bus types, wire
 * loads, operating conditions); cell content goes to liberty_cell.c. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <strings.h>

#include "liberty/liberty_int.h"
#include "util/mem.h"
#include "util/units.h"

/* Unit attributes, as bits in lib_reader.units_given. */
enum lib_unit_kind { LIB_U_TIME, LIB_U_CAP, LIB_U_VOLTAGE, LIB_U_CURRENT, LIB_U_RES, LIB_U_LEAK };

/* ---- the set ---------------------------------------------------------- */

lib_set *lib_set_new(void)
{
    lib_set *s = mem_calloc(1, sizeof *s);
    if (!s)
        return NULL;
    arena_init(&s->mem);
    strtab_init(&s->names);
    return s;
}

void lib_set_free(lib_set *s)
{
    if (!s)
        return;
    arena_free_all(&s->mem);
    strtab_free(&s->names);
    vec_ptr_free(&s->libraries);
    vec_ptr_free(&s->cells);
    vec_u32_free(&s->cell_of);
    mem_free(s);
}

size_t lib_library_count(const lib_set *s) { return s->libraries.len; }
const lib_library *lib_library_at(const lib_set *s, size_t i)
{
    return i < s->libraries.len ? s->libraries.data[i] : NULL;
}
size_t lib_cell_count(const lib_set *s) { return s->cells.len; }
const lib_cell *lib_cell_at(const lib_set *s, size_t i)
{
    return i < s->cells.len ? s->cells.data[i] : NULL;
}

const lib_cell *lib_find_cell(const lib_set *s, const char *name)
{
    uint32_t id = strtab_find(&s->names, name, strlen(name));
    if (id == STRTAB_NONE || id >= s->cell_of.len || s->cell_of.data[id] == 0)
        return NULL;
    return s->cells.data[s->cell_of.data[id] - 1];
}

int32_t lib_pin_index(const lib_cell *c, const char *name)
{
    for (uint32_t i = 0; i < c->n_pins; i++)
        if (strcmp(c->pins[i].name, name) == 0)
            return (int32_t)i;
    return LIB_NONE;
}

bool lib_pin_has_power(const lib_cell *c, uint32_t pin, int32_t related)
{
    const lib_pin *p = &c->pins[pin];
    for (uint32_t g = p->first_power; g < p->first_power + p->n_powers; g++)
        if (c->powers[g].related == related)
            return true;
    return false;
}

int32_t lib_first_delay_arc(const lib_cell *c, uint32_t out, uint32_t related)
{
    const lib_pin *p = &c->pins[out];
    for (uint32_t a = p->first_arc; a < p->first_arc + p->n_arcs; a++)
        if (c->arcs[a].related == (int32_t)related && lib_timing_type_is_delay(c->arcs[a].type))
            return (int32_t)a;
    return LIB_NONE;
}

/* ---- helpers shared by the reader's files ---------------------------------- */

gp_status lib_nomem(lib_reader *rd)
{
    diag_error(rd->d, 2100, ((diag_loc){rd->file, 0, 0}), "out of memory while building the library");
    return GP_ERR_NOMEM;
}

uint32_t lib_intern(lib_reader *rd, const char *s, size_t len)
{
    uint32_t id = strtab_intern(&rd->set->names, s, len);
    if (id == STRTAB_NONE)
        lib_nomem(rd);
    return id;
}

diag_loc lib_loc(const lib_reader *rd, int line, int col) { return (diag_loc){rd->file, line, col}; }
diag_loc lib_arg_loc(const lib_reader *rd, const lib_arg *a) { return lib_loc(rd, a->line, a->col); }

void lib_warn_once(lib_reader *rd, int msgno, uint32_t key, diag_loc loc, const char *fmt, ...)
{
    uint64_t k = (uint64_t)msgno << 32 | key;
    for (size_t i = 0; i < rd->warned.len; i++)
        if (rd->warned.data[i] == k)
            return;
    vec_u64_push(&rd->warned, k); /* out of memory: the warning may repeat, no harm */
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(rd->d, DIAG_WARNING, msgno, loc, fmt, ap);
    va_end(ap);
}

void lib_skip_group(lib_reader *rd, const lib_stmt *s, const char *inside, bool *skip)
{
    uint32_t key = strtab_intern(&rd->set->names, s->name, strlen(s->name));
    lib_warn_once(rd, 2101, key, lib_loc(rd, s->line, s->col),
                  "group '%s' inside %s is not used by gatepower and is skipped (reported once "
                  "per file)",
                  s->name, inside);
    *skip = true;
}

gp_status lib_attr_number(lib_reader *rd, const lib_stmt *s, double *out)
{
    const lib_arg *a = &s->args[0];
    if (s->n_args != 1 || !tok_parse_double(a->text, a->len, out)) {
        diag_error(rd->d, 2102, lib_arg_loc(rd, a), "attribute '%s' needs a number, not '%.40s'",
                   s->name, a->text);
        return GP_ERR_PARSE;
    }
    return GP_OK;
}

/* Error 2222 for the negative value of an attribute that cannot be. */
static gp_status lib_refuse_negative(lib_reader *rd, const lib_stmt *s, double value)
{
    if (value >= 0)
        return GP_OK;
    diag_error(rd->d, 2222, lib_arg_loc(rd, &s->args[0]),
               "attribute '%s' is %g: a capacitance or a leakage power cannot be negative "
               "(it would give negative power)", s->name, value);
    return GP_ERR_INPUT;
}

gp_status lib_attr_amount(lib_reader *rd, const lib_stmt *s, double *out)
{
    gp_status st = lib_attr_number(rd, s, out);
    return st == GP_OK ? lib_refuse_negative(rd, s, *out) : st;
}

gp_status lib_attr_bool(lib_reader *rd, const lib_stmt *s, bool *out)
{
    const char *v = s->args[0].text;
    if (strcmp(v, "true") == 0 || strcmp(v, "false") == 0) {
        *out = v[0] == 't';
        return GP_OK;
    }
    diag_error(rd->d, 2103, lib_arg_loc(rd, &s->args[0]),
               "attribute '%s' must be true or false, not '%.40s'", s->name, v);
    return GP_ERR_PARSE;
}

lib_frame *lib_frame_at(lib_reader *rd, int up)
{
    return rd->depth > up ? &rd->stack[rd->depth - 1 - up] : NULL;
}

gp_status lib_push(lib_reader *rd, lib_frame_kind kind, uint32_t index, uint32_t n, int slot)
{
    /* Only the groups of the model are entered, so the depth is bounded by its
     * nesting (library, cell, bus, pin, timing, table). */
    rd->stack[rd->depth++] = (lib_frame){kind, index, n, slot};
    return GP_OK;
}

/* ---- units ------------------------------------------------------------------ */

/* "1ns", "10ps", "1kohm", "1nW": number, optional prefix, then `base`; the
 * value in units of 10^-shift base (time: shift 15, femtoseconds). */
static bool lib_parse_unit(const char *text, const char *base, int shift, double *out)
{
    size_t n = strlen(text), blen = strlen(base);
    if (n < blen || strcmp(text + n - blen, base) != 0)
        return false;
    size_t end = n - blen;
    int exponent = 0;
    if (end > 0 && !(text[end - 1] >= '0' && text[end - 1] <= '9') &&
        gp_si_prefix(text[end - 1], &exponent))
        end--;
    double number = 1;
    if (end > 0 && !tok_parse_double(text, end, &number))
        return false;
    *out = number * gp_power_of_ten(exponent + shift);
    return *out > 0;
}

static gp_status lib_unit_allowed(lib_reader *rd, const lib_stmt *s, int kind)
{
    if (rd->units_fixed) {
        diag_error(rd->d, 2104, lib_loc(rd, s->line, s->col),
                   "'%s' comes after the first cell, table template or wire_load: move the "
                   "unit attributes to the top of the library",
                   s->name);
        return GP_ERR_INPUT;
    }
    rd->units_given |= 1u << kind;
    return GP_OK;
}

static gp_status lib_unit_attr(lib_reader *rd, const lib_stmt *s, int kind, const char *base,
                               int shift, double *field)
{
    gp_status st = lib_unit_allowed(rd, s, kind);
    if (st != GP_OK)
        return st;
    if (!lib_parse_unit(s->args[0].text, base, shift, field)) {
        diag_error(rd->d, 2105, lib_arg_loc(rd, &s->args[0]),
                   "bad %s '%.40s': write a number, an optional prefix (f p n u m k M) and %s, "
                   "e.g. \"1n%s\"",
                   s->name, s->args[0].text, base, base);
        return GP_ERR_PARSE;
    }
    return GP_OK;
}

/* capacitive_load_unit (1, pf) */
static gp_status lib_cap_unit(lib_reader *rd, const lib_stmt *s)
{
    static const struct { const char *name; double f; } units[] = {
        {"ff", 1e-15}, {"pf", 1e-12}, {"nf", 1e-9}, {"uf", 1e-6}, {"mf", 1e-3}, {"f", 1}};
    gp_status st = lib_unit_allowed(rd, s, LIB_U_CAP);
    if (st != GP_OK)
        return st;
    double number;
    if (s->n_args == 2 && tok_parse_double(s->args[0].text, s->args[0].len, &number) && number > 0)
        for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
            if (strcasecmp(s->args[1].text, units[i].name) == 0) {
                rd->lib->cap_unit = number * units[i].f;
                return GP_OK;
            }
    diag_error(rd->d, 2106, lib_loc(rd, s->line, s->col),
               "capacitive_load_unit needs a positive number and ff, pf, nf, uf, mf or f, "
               "e.g. capacitive_load_unit (1, pf);");
    return GP_ERR_PARSE;
}

/* Called when the first cell, template or wire_load starts: the units are
 * final now. */
static void lib_fix_units(lib_reader *rd, const lib_stmt *s)
{
    if (rd->units_fixed)
        return;
    rd->units_fixed = true;
    static const struct { int kind; const char *attr, *assumed; } needed[] = {
        {LIB_U_TIME, "time_unit", "1ns"},
        {LIB_U_CAP, "capacitive_load_unit", "1pf"},
        {LIB_U_VOLTAGE, "voltage_unit", "1V"},
        {LIB_U_LEAK, "leakage_power_unit", "1nW"}};
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++)
        if (!(rd->units_given & (1u << needed[i].kind)))
            diag_warn(rd->d, 2107, lib_loc(rd, s->line, s->col),
                      "library '%s' has no %s before its first cell or template; assuming %s: "
                      "add the attribute to the library header",
                      rd->lib->name, needed[i].attr, needed[i].assumed);
    lib_library *lib = rd->lib;
    lib->energy_unit = lib->voltage_unit * lib->voltage_unit * lib->cap_unit;
}

double lib_var_scale(const lib_library *lib, uint8_t var)
{
    switch (var) {
    case LIB_VAR_INPUT_SLEW:
    case LIB_VAR_RELATED_SLEW:
    case LIB_VAR_CONSTRAINED_SLEW: return lib->time_unit;
    case LIB_VAR_LOAD: return lib->cap_unit;
    default: return 1;
    }
}

/* ---- library attributes ----------------------------------------------------- */

/* At the first cell (or the library's end): the default_* attributes cells
 * use are final; converts them to SI. */
static void lib_scale_defaults(lib_reader *rd)
{
    if (rd->cells_started)
        return;
    rd->cells_started = true;
    lib_library *lib = rd->lib;
    lib->default_cell_leakage_power *= lib->leakage_power_unit;
    lib->default_input_pin_cap *= lib->cap_unit;
    lib->default_output_pin_cap *= lib->cap_unit;
    lib->default_inout_pin_cap *= lib->cap_unit;
}

/* Attributes read before the first cell only: cells use their values. */
static gp_status lib_header_number(lib_reader *rd, const lib_stmt *s, double *field)
{
    if (rd->cells_started) {
        diag_error(rd->d, 2108, lib_loc(rd, s->line, s->col),
                   "'%s' comes after the first cell: move it to the library header, before "
                   "the cells that use it",
                   s->name);
        return GP_ERR_INPUT;
    }
    return lib_attr_number(rd, s, field);
}

/* A header number that cannot be negative (lib_attr_amount). */
static gp_status lib_header_amount(lib_reader *rd, const lib_stmt *s, double *field)
{
    gp_status st = lib_header_number(rd, s, field);
    return st == GP_OK ? lib_refuse_negative(rd, s, *field) : st;
}

static gp_status lib_library_simple(lib_reader *rd, const lib_stmt *s)
{
    lib_library *lib = rd->lib;
    const char *n = s->name;
    if (strcmp(n, "time_unit") == 0)
        return lib_unit_attr(rd, s, LIB_U_TIME, "s", 15, &lib->time_unit);
    if (strcmp(n, "voltage_unit") == 0)
        return lib_unit_attr(rd, s, LIB_U_VOLTAGE, "V", 0, &lib->voltage_unit);
    if (strcmp(n, "current_unit") == 0)
        return lib_unit_attr(rd, s, LIB_U_CURRENT, "A", 0, &lib->current_unit);
    if (strcmp(n, "pulling_resistance_unit") == 0)
        return lib_unit_attr(rd, s, LIB_U_RES, "ohm", 0, &lib->resistance_unit);
    if (strcmp(n, "leakage_power_unit") == 0)
        return lib_unit_attr(rd, s, LIB_U_LEAK, "W", 0, &lib->leakage_power_unit);
    if (strcmp(n, "nom_voltage") == 0)
        return lib_attr_number(rd, s, &rd->raw_nom_voltage);
    if (strcmp(n, "default_cell_leakage_power") == 0)
        return lib_header_amount(rd, s, &lib->default_cell_leakage_power);
    if (strcmp(n, "default_input_pin_cap") == 0)
        return lib_header_number(rd, s, &lib->default_input_pin_cap);
    if (strcmp(n, "default_output_pin_cap") == 0)
        return lib_header_number(rd, s, &lib->default_output_pin_cap);
    if (strcmp(n, "default_inout_pin_cap") == 0)
        return lib_header_number(rd, s, &lib->default_inout_pin_cap);
    if (strcmp(n, "default_operating_conditions") == 0) {
        rd->default_opcond = lib_intern(rd, s->args[0].text, s->args[0].len);
        return rd->default_opcond == STRTAB_NONE ? GP_ERR_NOMEM : GP_OK;
    }
    if (strcmp(n, "default_wire_load") == 0) {
        rd->default_wire = lib_intern(rd, s->args[0].text, s->args[0].len);
        return rd->default_wire == STRTAB_NONE ? GP_ERR_NOMEM : GP_OK;
    }
    if (strcmp(n, "bus_naming_style") == 0 && strcmp(s->args[0].text, "%s[%d]") != 0)
        lib_warn_once(rd, 2109, 0, lib_loc(rd, s->line, s->col),
                      "bus_naming_style \"%.40s\" is not supported; bus bits are named "
                      "NAME[i] as with \"%%s[%%d]\"",
                      s->args[0].text);
    return GP_OK;
}

static gp_status lib_library_complex(lib_reader *rd, const lib_stmt *s)
{
    if (strcmp(s->name, "capacitive_load_unit") == 0)
        return lib_cap_unit(rd, s);
    if (strcmp(s->name, "voltage_map") == 0) {
        lib_voltage v = {NULL, 0};
        if (s->n_args != 2 || !tok_parse_double(s->args[1].text, s->args[1].len, &v.volts)) {
            diag_error(rd->d, 2110, lib_loc(rd, s->line, s->col),
                       "voltage_map needs a name and a number, e.g. voltage_map (VDD, 1.8);");
            return GP_ERR_PARSE;
        }
        uint32_t id = lib_intern(rd, s->args[0].text, s->args[0].len);
        if (id == STRTAB_NONE)
            return GP_ERR_NOMEM;
        v.name = strtab_str(&rd->set->names, id);
        return lib_voltagevec_push(&rd->voltages, v) ? GP_OK : lib_nomem(rd);
    }
    if (strcmp(s->name, "include_file") == 0) {
        diag_error(rd->d, 2111, lib_loc(rd, s->line, s->col),
                   "include_file is not supported: put the included file's text in its place");
        return GP_ERR_UNSUPPORTED;
    }
    return GP_OK; /* define(...), technology(...), library_features(...) and others */
}

/* ---- library-level groups ------------------------------------------------------ */

static gp_status lib_first_arg_id(lib_reader *rd, const lib_stmt *s, uint32_t *id)
{
    if (s->n_args < 1) {
        diag_error(rd->d, 2112, lib_loc(rd, s->line, s->col),
                   "group '%s' needs a name: write %s (NAME) { ... }", s->name, s->name);
        return GP_ERR_PARSE;
    }
    *id = lib_intern(rd, s->args[0].text, s->args[0].len);
    return *id == STRTAB_NONE ? GP_ERR_NOMEM : GP_OK;
}

static gp_status lib_begin_template(lib_reader *rd, const lib_stmt *s)
{
    uint32_t id;
    gp_status st = lib_first_arg_id(rd, s, &id);
    if (st != GP_OK)
        return st;
    lib_fix_units(rd, s);
    lib_template t = {.name = id, .loc = lib_loc(rd, s->line, s->col), .var_name = {STRTAB_NONE, STRTAB_NONE, STRTAB_NONE}};
    if (!lib_templatevec_push(&rd->templates, t))
        return lib_nomem(rd);
    if (id >= rd->template_of.len && !vec_u32_resize(&rd->template_of, id + 1))
        return lib_nomem(rd);
    rd->template_of.data[id] = (uint32_t)rd->templates.len; /* a later definition wins */
    return lib_push(rd, LIB_F_TEMPLATE, (uint32_t)rd->templates.len - 1, 0, 0);
}

static gp_status lib_library_group(lib_reader *rd, const lib_stmt *s, bool *skip)
{
    const char *n = s->name;
    uint32_t id;
    gp_status st;
    if (strcmp(n, "cell") == 0) {
        lib_fix_units(rd, s);
        lib_scale_defaults(rd);
        return lib_cell_begin(rd, s, skip);
    }
    if (strcmp(n, "lu_table_template") == 0 || strcmp(n, "power_lut_template") == 0)
        return lib_begin_template(rd, s);
    if ((st = lib_first_arg_id(rd, s, &id)) != GP_OK)
        return st;
    if (strcmp(n, "operating_conditions") == 0) {
        if (!lib_opcondvec_push(&rd->opconds, (lib_opcond){id, NAN}))
            return lib_nomem(rd);
        return lib_push(rd, LIB_F_OPCOND, (uint32_t)rd->opconds.len - 1, 0, 0);
    }
    if (strcmp(n, "type") == 0) {
        if (!lib_bustypevec_push(&rd->bustypes, (lib_bustype){.name = id}))
            return lib_nomem(rd);
        return lib_push(rd, LIB_F_TYPE, (uint32_t)rd->bustypes.len - 1, 0, 0);
    }
    if (strcmp(n, "wire_load") == 0) {
        lib_fix_units(rd, s);
        lib_bwire w = {.w = {.name = strtab_str(&rd->set->names, id)}};
        if (!lib_bwirevec_push(&rd->wires, w))
            return lib_nomem(rd);
        return lib_push(rd, LIB_F_WIRE_LOAD, (uint32_t)rd->wires.len - 1, 0, 0);
    }
    lib_skip_group(rd, s, "a library", skip);
    return GP_OK;
}

static gp_status lib_template_simple(lib_reader *rd, const lib_stmt *s)
{
    static const struct { const char *name; uint8_t var; } vars[] = {
        {"input_net_transition", LIB_VAR_INPUT_SLEW},
        {"input_transition_time", LIB_VAR_INPUT_SLEW},
        {"total_output_net_capacitance", LIB_VAR_LOAD},
        {"related_pin_transition", LIB_VAR_RELATED_SLEW},
        {"constrained_pin_transition", LIB_VAR_CONSTRAINED_SLEW}};
    lib_template *t = &rd->templates.data[lib_frame_at(rd, 0)->index];
    if (strncmp(s->name, "variable_", 9) != 0 || s->name[9] < '1' || s->name[9] > '3' || s->name[10])
        return GP_OK;
    int k = s->name[9] - '1';
    uint8_t var = LIB_VAR_UNKNOWN;
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (strcmp(s->args[0].text, vars[i].name) == 0)
            var = vars[i].var;
    t->var[k] = var;
    t->var_name[k] = lib_intern(rd, s->args[0].text, s->args[0].len);
    if (t->n_vars < k + 1)
        t->n_vars = (uint8_t)(k + 1);
    return t->var_name[k] == STRTAB_NONE ? GP_ERR_NOMEM : GP_OK;
}

static gp_status lib_template_complex(lib_reader *rd, const lib_stmt *s)
{
    lib_template *t = &rd->templates.data[lib_frame_at(rd, 0)->index];
    if (strncmp(s->name, "index_", 6) != 0 || s->name[6] < '1' || s->name[6] > '3' || s->name[7])
        return GP_OK;
    int k = s->name[6] - '1';
    if (s->n_args != 1 || k >= t->n_vars) {
        diag_error(rd->d, 2113, lib_loc(rd, s->line, s->col),
                   "%s of template '%s' needs one string of numbers and a variable_%d before it",
                   s->name, strtab_str(&rd->set->names, t->name), k + 1);
        return GP_ERR_PARSE;
    }
    vec_f64 v = {0};
    gp_status st = lib_parse_numbers(&s->args[0], rd->file, lib_var_scale(rd->lib, t->var[k]),
                                     s->name, &v, rd->d);
    if (st == GP_OK)
        st = lib_check_increasing(v.data, v.len, lib_arg_loc(rd, &s->args[0]), s->name, rd->d);
    double *copy = st == GP_OK ? arena_alloc(&rd->set->mem, v.len * sizeof *copy, 0) : NULL;
    if (st == GP_OK && !copy)
        st = lib_nomem(rd);
    if (st == GP_OK) {
        memcpy(copy, v.data, v.len * sizeof *copy);
        t->index[k] = copy;
        t->size[k] = (uint32_t)v.len;
    }
    vec_f64_free(&v);
    return st;
}

static gp_status lib_type_simple(lib_reader *rd, const lib_stmt *s)
{
    lib_bustype *t = &rd->bustypes.data[lib_frame_at(rd, 0)->index];
    bool from = strcmp(s->name, "bit_from") == 0, to = strcmp(s->name, "bit_to") == 0;
    if (!from && !to)
        return GP_OK;
    int64_t v;
    if (!tok_parse_i64(s->args[0].text, s->args[0].len, &v) || v < 0 || v > 1000000) {
        diag_error(rd->d, 2114, lib_arg_loc(rd, &s->args[0]),
                   "%s needs a bit number from 0 to 1000000, not '%.40s'", s->name, s->args[0].text);
        return GP_ERR_PARSE;
    }
    if (from) {
        t->from = (int32_t)v;
        t->has_from = true;
    } else {
        t->to = (int32_t)v;
        t->has_to = true;
    }
    return GP_OK;
}

static gp_status lib_wire_simple(lib_reader *rd, const lib_stmt *s)
{
    lib_wire_load *w = &rd->wires.data[lib_frame_at(rd, 0)->index].w;
    double v;
    gp_status st = GP_OK;
    if (strcmp(s->name, "capacitance") == 0 && (st = lib_attr_number(rd, s, &v)) == GP_OK)
        w->capacitance = v * rd->lib->cap_unit;
    else if (strcmp(s->name, "resistance") == 0 && (st = lib_attr_number(rd, s, &v)) == GP_OK)
        w->resistance = v * rd->lib->resistance_unit;
    else if (strcmp(s->name, "slope") == 0 && (st = lib_attr_number(rd, s, &v)) == GP_OK)
        w->slope = v;
    return st;
}

static gp_status lib_wire_complex(lib_reader *rd, const lib_stmt *s)
{
    lib_bwire *w = &rd->wires.data[lib_frame_at(rd, 0)->index];
    if (strcmp(s->name, "fanout_length") != 0)
        return GP_OK;
    int64_t fanout;
    double length;
    if (s->n_args != 2 || !tok_parse_i64(s->args[0].text, s->args[0].len, &fanout) || fanout < 0 ||
        fanout > UINT32_MAX || !tok_parse_double(s->args[1].text, s->args[1].len, &length)) {
        diag_error(rd->d, 2115, lib_loc(rd, s->line, s->col),
                   "fanout_length needs a fanout count and a length, e.g. fanout_length (2, 32.1);");
        return GP_ERR_PARSE;
    }
    if (!vec_u32_push(&w->fanout, (uint32_t)fanout) || !vec_f64_push(&w->length, length))
        return lib_nomem(rd);
    return GP_OK;
}

/* ---- the library's start and end ------------------------------------------------ */

static gp_status lib_library_begin(lib_reader *rd, const lib_stmt *s)
{
    if (strcmp(s->name, "library") != 0) {
        diag_error(rd->d, 2116, lib_loc(rd, s->line, s->col),
                   "expected a library group at the top of the file, found '%.40s'", s->name);
        return GP_ERR_PARSE;
    }
    uint32_t id;
    gp_status st = lib_first_arg_id(rd, s, &id);
    if (st != GP_OK)
        return st;
    lib_library *lib = arena_calloc(&rd->set->mem, 1, sizeof *lib, 0);
    char *path = arena_strndup(&rd->set->mem, rd->file, strlen(rd->file));
    if (!lib || !path)
        return lib_nomem(rd);
    *lib = (lib_library){.name = strtab_str(&rd->set->names, id), .path = path,
                         .time_unit = 1e6, .cap_unit = 1e-12, .voltage_unit = 1,
                         .current_unit = 1e-3, .resistance_unit = 1e3,
                         .leakage_power_unit = 1e-9, .nom_voltage = NAN,
                         .operating_voltage = NAN, .voltage = NAN};
    rd->lib = lib;
    rd->lib_first_cell = (uint32_t)rd->set->cells.len;
    rd->units_fixed = rd->cells_started = false;
    rd->units_given = 0;
    rd->raw_nom_voltage = NAN;
    rd->default_opcond = rd->default_wire = STRTAB_NONE;
    rd->templates.len = rd->bustypes.len = rd->opconds.len = rd->voltages.len = 0;
    for (size_t i = 0; i < rd->wires.len; i++) {
        vec_u32_free(&rd->wires.data[i].fanout);
        vec_f64_free(&rd->wires.data[i].length);
    }
    rd->wires.len = 0;
    if (rd->template_of.len)
        memset(rd->template_of.data, 0, rd->template_of.len * sizeof *rd->template_of.data);
    return lib_push(rd, LIB_F_LIBRARY, 0, 0, 0);
}

/* The operating voltage and nominal supply (see liberty.h). */
static void lib_pick_voltage(lib_reader *rd)
{
    lib_library *lib = rd->lib;
    lib->nom_voltage = rd->raw_nom_voltage * lib->voltage_unit;
    for (size_t i = 0; i < rd->opconds.len; i++)
        if (rd->opconds.data[i].name == rd->default_opcond ||
            (rd->opconds.len == 1 && rd->default_opcond == STRTAB_NONE))
            lib->operating_voltage = rd->opconds.data[i].voltage * lib->voltage_unit;
    lib->voltage = !isnan(lib->operating_voltage) ? lib->operating_voltage : lib->nom_voltage;
    if (!isnan(lib->operating_voltage) && !isnan(lib->nom_voltage) &&
        fabs(lib->operating_voltage - lib->nom_voltage) > 1e-9 * fabs(lib->nom_voltage))
        diag_warn(rd->d, 2117, lib_loc(rd, 0, 0),
                  "library '%s': the operating conditions' voltage %g V differs from nom_voltage "
                  "%g V; using %g V",
                  lib->name, lib->operating_voltage, lib->nom_voltage, lib->voltage);
    if (isnan(lib->voltage))
        diag_warn(rd->d, 2118, lib_loc(rd, 0, 0),
                  "library '%s' gives no nom_voltage and no operating conditions voltage: switching "
                  "power needs one",
                  lib->name);
}

/* The pg pins' voltages of this library's cells, from its voltage_map (which
 * may come after the cells). */
static void lib_pg_voltages(lib_reader *rd)
{
    for (size_t c = rd->lib_first_cell; c < rd->set->cells.len; c++) {
        lib_cell *cell = rd->set->cells.data[c];
        lib_pg_pin *pg = (lib_pg_pin *)cell->pg_pins; /* allocated writable by lib_cell_finish */
        for (uint32_t i = 0; i < cell->n_pg_pins; i++)
            for (size_t k = 0; k < rd->voltages.len; k++)
                if (strcmp(rd->voltages.data[k].name, pg[i].voltage_name) == 0)
                    pg[i].voltage = rd->voltages.data[k].volts * rd->lib->voltage_unit;
    }
}

static gp_status lib_library_end(lib_reader *rd)
{
    lib_library *lib = rd->lib;
    arena *mem = &rd->set->mem;
    lib->energy_unit = lib->voltage_unit * lib->voltage_unit * lib->cap_unit;
    lib_pick_voltage(rd);
    lib_pg_voltages(rd);
    lib_scale_defaults(rd);
    lib_voltage *vm = arena_alloc(mem, rd->voltages.len * sizeof *vm, 0);
    lib_wire_load *wl = arena_alloc(mem, rd->wires.len * sizeof *wl, 0);
    if (!vm || !wl || !vec_ptr_push(&rd->set->libraries, lib))
        return lib_nomem(rd);
    for (size_t i = 0; i < rd->voltages.len; i++)
        vm[i] = (lib_voltage){rd->voltages.data[i].name, rd->voltages.data[i].volts * lib->voltage_unit};
    for (size_t i = 0; i < rd->wires.len; i++) {
        lib_bwire *w = &rd->wires.data[i];
        uint32_t *fo = arena_alloc(mem, w->fanout.len * sizeof *fo, 0);
        double *len = arena_alloc(mem, w->length.len * sizeof *len, 0);
        if (!fo || !len)
            return lib_nomem(rd);
        if (w->fanout.len) {
            memcpy(fo, w->fanout.data, w->fanout.len * sizeof *fo);
            memcpy(len, w->length.data, w->length.len * sizeof *len);
        }
        wl[i] = w->w;
        wl[i].n_fanouts = (uint32_t)w->fanout.len;
        wl[i].fanout = fo;
        wl[i].length = len;
    }
    lib->voltage_map = vm;
    lib->n_voltage_map = (uint32_t)rd->voltages.len;
    lib->wire_loads = wl;
    lib->n_wire_loads = (uint32_t)rd->wires.len;
    lib->default_wire_load = strtab_str(&rd->set->names, rd->default_wire);
    lib->first_cell = rd->lib_first_cell;
    lib->n_cells = (uint32_t)(rd->set->cells.len - rd->lib_first_cell);
    rd->lib = NULL;
    return GP_OK;
}

/* ---- the visitor ------------------------------------------------------------------ */

static gp_status lib_visit_group_begin(void *ctx, const lib_stmt *s, bool *skip)
{
    lib_reader *rd = ctx;
    lib_frame *f = lib_frame_at(rd, 0);
    if (!f)
        return lib_library_begin(rd, s);
    switch (f->kind) {
    case LIB_F_LIBRARY: return lib_library_group(rd, s, skip);
    case LIB_F_OPCOND: lib_skip_group(rd, s, "operating_conditions", skip); return GP_OK;
    case LIB_F_TEMPLATE: lib_skip_group(rd, s, "a table template", skip); return GP_OK;
    case LIB_F_TYPE: lib_skip_group(rd, s, "a type", skip); return GP_OK;
    case LIB_F_WIRE_LOAD: lib_skip_group(rd, s, "a wire_load", skip); return GP_OK;
    default: return lib_cell_group(rd, s, skip);
    }
}

/* Every variable_N up to the last one must be given. */
static gp_status lib_template_end(lib_reader *rd)
{
    const lib_template *t = &rd->templates.data[lib_frame_at(rd, 0)->index];
    for (int k = 0; k < t->n_vars; k++)
        if (t->var_name[k] == STRTAB_NONE) {
            diag_error(rd->d, 2121, t->loc,
                       "template '%s' has variable_%d but no variable_%d: give each axis' variable",
                       strtab_str(&rd->set->names, t->name), t->n_vars, k + 1);
            return GP_ERR_INPUT;
        }
    return GP_OK;
}

static gp_status lib_visit_group_end(void *ctx)
{
    lib_reader *rd = ctx;
    lib_frame *f = lib_frame_at(rd, 0);
    gp_status st = GP_OK;
    if (f->kind == LIB_F_LIBRARY)
        st = lib_library_end(rd);
    else if (f->kind == LIB_F_TEMPLATE)
        st = lib_template_end(rd);
    else if (f->kind >= LIB_F_CELL)
        st = lib_cell_group_end(rd);
    rd->depth--;
    return st;
}

static gp_status lib_visit_simple(void *ctx, const lib_stmt *s)
{
    lib_reader *rd = ctx;
    lib_frame *f = lib_frame_at(rd, 0);
    if (!f) {
        diag_error(rd->d, 2119, lib_loc(rd, s->line, s->col),
                   "attribute '%.40s' outside a library group: the file must hold "
                   "library (NAME) { ... } groups",
                   s->name);
        return GP_ERR_PARSE;
    }
    switch (f->kind) {
    case LIB_F_LIBRARY: return lib_library_simple(rd, s);
    case LIB_F_OPCOND:
        if (strcmp(s->name, "voltage") == 0)
            return lib_attr_number(rd, s, &rd->opconds.data[f->index].voltage);
        return GP_OK;
    case LIB_F_TEMPLATE: return lib_template_simple(rd, s);
    case LIB_F_TYPE: return lib_type_simple(rd, s);
    case LIB_F_WIRE_LOAD: return lib_wire_simple(rd, s);
    default: return lib_cell_simple(rd, s);
    }
}

static gp_status lib_visit_complex(void *ctx, const lib_stmt *s)
{
    lib_reader *rd = ctx;
    lib_frame *f = lib_frame_at(rd, 0);
    if (!f)
        return GP_OK; /* a top-level define(...) or the like */
    switch (f->kind) {
    case LIB_F_LIBRARY: return lib_library_complex(rd, s);
    case LIB_F_TEMPLATE: return lib_template_complex(rd, s);
    case LIB_F_WIRE_LOAD: return lib_wire_complex(rd, s);
    case LIB_F_OPCOND:
    case LIB_F_TYPE: return GP_OK;
    default: return lib_cell_complex(rd, s);
    }
}

/* ---- lib_read ------------------------------------------------------------------------ */

static void lib_reader_free(lib_reader *rd)
{
    vec_u64_free(&rd->warned);
    lib_templatevec_free(&rd->templates);
    vec_u32_free(&rd->template_of);
    lib_bustypevec_free(&rd->bustypes);
    lib_opcondvec_free(&rd->opconds);
    lib_voltagevec_free(&rd->voltages);
    for (size_t i = 0; i < rd->wires.len; i++) {
        vec_u32_free(&rd->wires.data[i].fanout);
        vec_f64_free(&rd->wires.data[i].length);
    }
    lib_bwirevec_free(&rd->wires);
    lib_cellb_free(&rd->cell);
    for (int k = 0; k < 2; k++)
        vec_f64_free(&rd->table.index[k]);
    vec_f64_free(&rd->table.values);
    vec_u32_free(&rd->order);
    lib_idmap_free(&rd->var_of);
    lib_idmap_free(&rd->expr_of);
    vec_ptr_free(&rd->exprs);
    vec_u32_free(&rd->related);
    vec_u32_free(&rd->count);
    lib_arcvec_free(&rd->arcs);
    lib_powervec_free(&rd->powers);
}

/* Takes back the cells and libraries a failed read added (their memory
 * stays in the arena until lib_set_free). */
static void lib_rollback(lib_set *s, size_t n_libs, size_t n_cells)
{
    for (size_t id = 0; id < s->cell_of.len && s->cells.len > n_cells; id++)
        if (s->cell_of.data[id] > n_cells)
            s->cell_of.data[id] = 0;
    s->cells.len = n_cells;
    s->libraries.len = n_libs;
}

static gp_status lib_read_lexer(lib_set *s, tok_lexer *lx, const char *file, diag_ctx *d)
{
    lib_reader rd = {.set = s, .d = d, .file = file};
    lib_visitor v = {&rd, lib_visit_group_begin, lib_visit_group_end, lib_visit_simple,
                     lib_visit_complex};
    size_t n_libs = s->libraries.len, n_cells = s->cells.len;
    gp_status st = lib_syntax_parse(lx, &v, d);
    if (st == GP_OK && s->libraries.len == n_libs) {
        diag_error(d, 2120, ((diag_loc){file, 0, 0}),
                   "no library group in the file: is it a Liberty file?");
        st = GP_ERR_PARSE;
    }
    if (st != GP_OK)
        lib_rollback(s, n_libs, n_cells);
    lib_reader_free(&rd);
    return st;
}

gp_status lib_read(lib_set *s, const char *path, diag_ctx *d)
{
    tok_lexer *lx;
    gp_status st = tok_open(path, &lib_tok_config, d, &lx);
    if (st != GP_OK)
        return st;
    st = lib_read_lexer(s, lx, path, d);
    tok_close(lx);
    return st;
}

gp_status lib_read_memory(lib_set *s, const char *name, const char *data, size_t len, diag_ctx *d)
{
    tok_lexer *lx;
    gp_status st = tok_open_memory(name, data, len, &lib_tok_config, d, &lx);
    if (st != GP_OK)
        return st;
    st = lib_read_lexer(s, lx, name ? name : "(memory)", d);
    tok_close(lx);
    return st;
}
