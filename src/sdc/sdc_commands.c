/* sdc_commands.c: the SDC commands power analysis applies (clocks, input
 * transitions and driving cells, loads, units), the timing-only ones it
 * accepts and counts, and the parsing of their options. */
#include "sdc/sdc.h"

#ifdef GATEPOWER_HAVE_TCL
#include "sdc/sdc_int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/units.h"

const char *const sdc_timing_only[] = {
    "set_input_delay", "set_output_delay", "set_false_path", "set_multicycle_path",
    "set_max_delay", "set_min_delay", "set_clock_uncertainty", "set_clock_latency",
    "set_clock_groups", "set_clock_sense", "set_sense", "set_max_fanout", "set_max_transition",
    "set_max_capacitance", "set_min_capacitance", "set_timing_derate", "set_disable_timing",
    "group_path", "set_ideal_network", "set_ideal_latency", "set_ideal_transition",
    "set_dont_touch", "set_dont_touch_network", "set_dont_use", "set_wire_load_model",
    "set_wire_load_mode", "set_wire_load_selection_group", "set_operating_conditions",
    "set_max_area", "set_fanout_load", "set_max_time_borrow", "set_data_check",
    "set_min_pulse_width", "set_clock_gating_check", "set_resistance", "set_logic_dc",
    "set_port_fanout_number", "set_case_analysis", "set_hierarchy_separator",
    "set_max_dynamic_power", "set_max_leakage_power", "set_level_shifter_strategy",
    "set_level_shifter_threshold", "set_min_porosity", "set_input_delay_adjustment",
    NULL};

/* ---- arguments ------------------------------------------------------------ */

/* A word that starts with '-' but is a number is a value, not an option. */
static bool is_option_word(const char *w)
{
    return w[0] == '-' && w[1] != '\0' && !isdigit((unsigned char)w[1]) && w[1] != '.';
}

static void option_names(const sdc_option *opts, size_t n, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < n && used < cap; k++)
        used += (size_t)snprintf(buf + used, cap - used, "%s%s", k ? " " : "", opts[k].name);
}

int sdc_parse_args(sdc_reader *r, int objc, Tcl_Obj *const objv[], sdc_option *opts,
                   size_t n_opts, Tcl_Obj **pos, int max_pos, int *n_pos)
{
    const char *cmd = Tcl_GetString(objv[0]);
    *n_pos = 0;
    for (int a = 1; a < objc; a++) {
        const char *w = Tcl_GetString(objv[a]);
        if (!is_option_word(w)) {
            if (*n_pos == max_pos)
                return sdc_fail(r, 1620, "%s: unexpected argument '%s' (%d taken)", cmd, w,
                                max_pos);
            pos[(*n_pos)++] = objv[a];
            continue;
        }
        sdc_option *o = NULL;
        for (size_t k = 0; k < n_opts && !o; k++)
            if (strcmp(opts[k].name, w) == 0)
                o = &opts[k];
        if (!o) {
            char names[512];
            option_names(opts, n_opts, names, sizeof names);
            return sdc_fail(r, 1621, "%s: unknown option %s (it takes: %s)", cmd, w,
                            n_opts ? names : "no options");
        }
        if (o->has_value && a + 1 == objc)
            return sdc_fail(r, 1622, "%s: option %s needs a value", cmd, w);
        o->given = true;
        if (o->has_value)
            o->value = objv[++a];
    }
    return TCL_OK;
}

sdc_option *sdc_opt(sdc_option *opts, size_t n_opts, const char *name)
{
    for (size_t k = 0; k < n_opts; k++)
        if (strcmp(opts[k].name, name) == 0)
            return &opts[k];
    return NULL;
}

int sdc_get_value(sdc_reader *r, const char *what, Tcl_Obj *o, double unit, bool allow_negative,
                  double *out)
{
    double v;
    if (Tcl_GetDoubleFromObj(NULL, o, &v) != TCL_OK || !isfinite(v))
        return sdc_fail(r, 1623, "%s: '%s' is not a number", what, Tcl_GetString(o));
    if (v < 0 && !allow_negative)
        return sdc_fail(r, 1624, "%s: %s is negative", what, Tcl_GetString(o));
    *out = v * unit;
    return TCL_OK;
}

/* Which of rise and fall an option set applies to (both when neither is
 * given), and whether it bears on power: -min alone does not (the tools'
 * power analysis reads the max values). */
static bool rise_fall(sdc_option *opts, size_t n, bool applies[2])
{
    bool rise = sdc_opt(opts, n, "-rise")->given, fall = sdc_opt(opts, n, "-fall")->given;
    applies[0] = rise || !fall;
    applies[1] = fall || !rise;
    return !sdc_opt(opts, n, "-min")->given || sdc_opt(opts, n, "-max")->given;
}

/* A command `cmd [options] value objects`: its options, the value in
 * `unit` (not negative), the objects of `kinds` (the caller frees them). */
static int value_and_objects(sdc_reader *r, int objc, Tcl_Obj *const objv[], sdc_option *opts,
                             size_t n_opts, const char *usage, double unit, sdc_kinds kinds,
                             double *value, sdc_object **objs, Tcl_Size *n)
{
    Tcl_Obj *pos[2];
    int n_pos;
    const char *cmd = Tcl_GetString(objv[0]);
    if (sdc_parse_args(r, objc, objv, opts, n_opts, pos, 2, &n_pos) != TCL_OK)
        return TCL_ERROR;
    if (n_pos != 2)
        return sdc_fail(r, 1636, "%s: give %s", cmd, usage);
    if (sdc_get_value(r, cmd, pos[0], unit, false, value) != TCL_OK)
        return TCL_ERROR;
    return sdc_objects(r, cmd, pos[1], kinds, objs, n);
}

/* ---- clocks --------------------------------------------------------------- */

static sdc_clock *new_clock(sdc_reader *r, const char *name)
{
    sdc *s = r->s;
    for (uint32_t c = 0; c < s->n_clocks; c++)
        if (strcmp(s->clocks[c].name, name) == 0) { /* defined again: replaced */
            mem_free(s->clocks[c].source_nets);
            s->clocks[c].source_nets = NULL;
            s->clocks[c].n_sources = 0;
            s->clocks[c].transition[0] = s->clocks[c].transition[1] = 0;
            s->clocks[c].propagated = false;
            return &s->clocks[c];
        }
    if (s->n_clocks == r->clocks_cap) {
        uint32_t cap = r->clocks_cap ? 2 * r->clocks_cap : 4;
        sdc_clock *grown = mem_realloc(s->clocks, cap * sizeof *grown);
        if (!grown)
            return NULL;
        s->clocks = grown;
        r->clocks_cap = cap;
    }
    char *copy = mem_alloc(strlen(name) + 1);
    if (!copy)
        return NULL;
    strcpy(copy, name);
    sdc_clock *k = &s->clocks[s->n_clocks++];
    *k = (sdc_clock){.name = copy};
    return k;
}

/* The clock's sources: the nets of the ports and pins given. */
static int clock_sources(sdc_reader *r, const char *cmd, Tcl_Obj *list, sdc_clock *k)
{
    sdc_object *objs;
    Tcl_Size n;
    if (sdc_objects(r, cmd, list, SDC_KIND(SDC_PORT) | SDC_KIND(SDC_PIN), &objs, &n) != TCL_OK)
        return TCL_ERROR;
    k->source_nets = mem_alloc((size_t)(n ? n : 1) * sizeof *k->source_nets);
    if (!k->source_nets) {
        mem_free(objs);
        return sdc_no_memory(r);
    }
    for (Tcl_Size j = 0; j < n; j++)
        if (sdc_object_net(r, objs[j]) != DESIGN_NONE)
            k->source_nets[k->n_sources++] = sdc_object_net(r, objs[j]);
    mem_free(objs);
    return TCL_OK;
}

/* -waveform {rise fall}: two edges within the period. */
static int clock_waveform(sdc_reader *r, Tcl_Obj *list, sdc_clock *k)
{
    Tcl_Size n;
    Tcl_Obj **edges;
    if (Tcl_ListObjGetElements(r->interp, list, &n, &edges) != TCL_OK)
        return TCL_ERROR;
    if (n != 2)
        return sdc_fail(r, 1625, "create_clock: -waveform takes two edges {rise fall}, not '%s'",
                        Tcl_GetString(list));
    for (int e = 0; e < 2; e++)
        if (sdc_get_value(r, "create_clock -waveform", edges[e], r->time_unit, false,
                          &k->edge[e]) != TCL_OK)
            return TCL_ERROR;
    if (!(k->edge[0] < k->edge[1]) || k->edge[1] - k->edge[0] >= k->period)
        return sdc_fail(r, 1626, "create_clock: -waveform {%s}: the falling edge must follow "
                        "the rising one within a period", Tcl_GetString(list));
    return TCL_OK;
}

static int create_clock(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    (void)ip;
    sdc_reader *r = cd;
    sdc_option opts[] = {SDC_VALUE("-name"), SDC_VALUE("-period"), SDC_VALUE("-waveform"),
                         SDC_FLAG("-add"), SDC_VALUE("-comment")};
    Tcl_Obj *pos[1];
    int n_pos;
    double period = 0;
    if (sdc_parse_args(r, objc, objv, opts, 5, pos, 1, &n_pos) != TCL_OK)
        return TCL_ERROR;
    if (!opts[1].given)
        return sdc_fail(r, 1627, "create_clock: -period is required");
    if (sdc_get_value(r, "create_clock -period", opts[1].value, r->time_unit, false, &period) !=
        TCL_OK)
        return TCL_ERROR;
    if (period <= 0)
        return sdc_fail(r, 1628, "create_clock: -period must be above 0");
    Tcl_Size n_sources = 0;
    Tcl_Obj **first;
    if (n_pos && Tcl_ListObjGetElements(r->interp, pos[0], &n_sources, &first) != TCL_OK)
        return TCL_ERROR;
    if (!opts[0].given && n_sources == 0)
        return sdc_fail(r, 1629, "create_clock: give -name for a virtual clock (no source)");
    sdc_clock *k = new_clock(r, opts[0].given ? Tcl_GetString(opts[0].value)
                                              : Tcl_GetString(first[0]));
    if (!k)
        return sdc_no_memory(r);
    k->period = period;
    k->edge[0] = 0;
    k->edge[1] = period / 2;
    k->generated = false;
    if (opts[2].given && clock_waveform(r, opts[2].value, k) != TCL_OK)
        return TCL_ERROR;
    return n_pos ? clock_sources(r, "create_clock", pos[0], k) : TCL_OK;
}

/* The master of a generated clock: -master_clock, else the clock whose
 * source is on the -source object's net, else the only clock. */
static int generated_master(sdc_reader *r, sdc_option *master, Tcl_Obj *source,
                            const sdc_clock **out)
{
    const char *cmd = "create_generated_clock";
    if (master->given) {
        *out = sdc_find_clock(r->s, Tcl_GetString(master->value));
        return *out ? TCL_OK : sdc_fail(r, 1630, "%s: no clock is called '%s'", cmd,
                                        Tcl_GetString(master->value));
    }
    sdc_object *objs;
    Tcl_Size n;
    if (sdc_objects(r, cmd, source, SDC_KIND(SDC_PORT) | SDC_KIND(SDC_PIN), &objs, &n) != TCL_OK)
        return TCL_ERROR;
    uint32_t net = n ? sdc_object_net(r, objs[0]) : DESIGN_NONE;
    mem_free(objs);
    *out = NULL;
    for (uint32_t c = 0; c < r->s->n_clocks && !*out; c++)
        for (uint32_t j = 0; j < r->s->clocks[c].n_sources; j++)
            if (r->s->clocks[c].source_nets[j] == net)
                *out = &r->s->clocks[c];
    if (!*out && r->s->n_clocks == 1)
        *out = &r->s->clocks[0];
    return *out ? TCL_OK : sdc_fail(r, 1631, "%s: no clock is defined on -source %s; give "
                                    "-master_clock", cmd, Tcl_GetString(source));
}

/* The time of the master's edge e (1-based: odd rising, even falling). */
static double master_edge_time(const sdc_clock *m, long e)
{
    long cycle = (e - 1) / 2;
    return m->edge[(e - 1) % 2] + (double)cycle * m->period;
}

/* -edges {a b c}: the master's edges a, b and c give the rise, the fall
 * and the next rise. */
static int generated_edges(sdc_reader *r, Tcl_Obj *list, const sdc_clock *m, sdc_clock *k)
{
    Tcl_Size n;
    Tcl_Obj **items;
    long e[3];
    if (Tcl_ListObjGetElements(r->interp, list, &n, &items) != TCL_OK)
        return TCL_ERROR;
    bool ok = n == 3;
    for (int j = 0; ok && j < 3; j++)
        ok = Tcl_GetLongFromObj(NULL, items[j], &e[j]) == TCL_OK && e[j] >= 1 &&
             (j == 0 || e[j] > e[j - 1]);
    if (!ok)
        return sdc_fail(r, 1632, "create_generated_clock: -edges takes three increasing edge "
                        "numbers of the master, e.g. {1 3 5}, not '%s'", Tcl_GetString(list));
    k->edge[0] = master_edge_time(m, e[0]);
    k->edge[1] = master_edge_time(m, e[1]);
    k->period = master_edge_time(m, e[2]) - k->edge[0];
    return TCL_OK;
}

/* -divide_by N or -multiply_by N (with -duty_cycle percent). */
static int generated_ratio(sdc_reader *r, sdc_option *opts, const sdc_clock *m, sdc_clock *k)
{
    double divide = 1, multiply = 1, duty = 50;
    const char *cmd = "create_generated_clock";
    if (opts[0].given && sdc_get_value(r, cmd, opts[0].value, 1, false, &divide) != TCL_OK)
        return TCL_ERROR;
    if (opts[1].given && sdc_get_value(r, cmd, opts[1].value, 1, false, &multiply) != TCL_OK)
        return TCL_ERROR;
    if (opts[2].given && sdc_get_value(r, cmd, opts[2].value, 1, false, &duty) != TCL_OK)
        return TCL_ERROR;
    if (divide < 1 || multiply < 1 || duty <= 0 || duty >= 100)
        return sdc_fail(r, 1633, "%s: -divide_by and -multiply_by take whole numbers from 1, "
                        "-duty_cycle a percentage between 0 and 100", cmd);
    k->period = m->period * divide / multiply;
    k->edge[0] = m->edge[0];
    k->edge[1] = m->edge[0] + k->period * duty / 100;
    return TCL_OK;
}

static int create_generated_clock(ClientData cd, Tcl_Interp *ip, int objc,
                                  Tcl_Obj *const objv[])
{
    (void)ip;
    sdc_reader *r = cd;
    sdc_option opts[] = {SDC_VALUE("-divide_by"), SDC_VALUE("-multiply_by"), SDC_VALUE("-duty_cycle"),
                         SDC_VALUE("-name"), SDC_VALUE("-source"), SDC_VALUE("-master_clock"),
                         SDC_VALUE("-edges"), SDC_VALUE("-edge_shift"), SDC_FLAG("-invert"),
                         SDC_FLAG("-combinational"), SDC_FLAG("-add"), SDC_VALUE("-comment")};
    Tcl_Obj *pos[1];
    int n_pos;
    const sdc_clock *master;
    if (sdc_parse_args(r, objc, objv, opts, sizeof opts / sizeof opts[0], pos, 1, &n_pos) !=
        TCL_OK)
        return TCL_ERROR;
    if (!opts[4].given || n_pos == 0)
        return sdc_fail(r, 1634, "create_generated_clock: give -source and the pins or ports "
                        "it is defined on");
    if (generated_master(r, &opts[5], opts[4].value, &master) != TCL_OK)
        return TCL_ERROR;
    Tcl_Size n_targets;
    Tcl_Obj **first;
    if (Tcl_ListObjGetElements(r->interp, pos[0], &n_targets, &first) != TCL_OK)
        return TCL_ERROR;
    if (n_targets == 0)
        return sdc_fail(r, 1635, "create_generated_clock: no pin or port to define it on");
    sdc_clock copy = *master; /* new_clock may move the clocks */
    sdc_clock *k = new_clock(r, opts[3].given ? Tcl_GetString(opts[3].value)
                                              : Tcl_GetString(first[0]));
    if (!k)
        return sdc_no_memory(r);
    k->generated = true;
    int rc = opts[6].given ? generated_edges(r, opts[6].value, &copy, k)
                           : generated_ratio(r, opts, &copy, k);
    if (rc != TCL_OK)
        return rc;
    if (opts[8].given) {
        double rise = k->edge[0];
        k->edge[0] = k->edge[1];
        k->edge[1] = rise + k->period;
    }
    return clock_sources(r, "create_generated_clock", pos[0], k);
}

static int set_clock_transition(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    (void)ip;
    sdc_reader *r = cd;
    sdc_option opts[] = {SDC_FLAG("-rise"), SDC_FLAG("-fall"), SDC_FLAG("-min"), SDC_FLAG("-max")};
    double tr;
    sdc_object *objs;
    Tcl_Size n;
    bool dir[2];
    if (value_and_objects(r, objc, objv, opts, 4, "the transition and the clocks", r->time_unit,
                          SDC_KIND(SDC_CLOCK), &tr, &objs, &n) != TCL_OK)
        return TCL_ERROR;
    bool applies = rise_fall(opts, 4, dir);
    for (Tcl_Size k = 0; applies && k < n; k++)
        for (int d = 0; d < 2; d++)
            if (dir[d])
                r->s->clocks[objs[k].index].transition[d] = tr;
    mem_free(objs);
    return TCL_OK;
}

/* set_propagated_clock: clocks, or the ports and pins clocks are defined on. */
static int set_propagated_clock(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    (void)ip;
    sdc_reader *r = cd;
    Tcl_Obj *pos[1];
    int n_pos;
    sdc_object *objs;
    Tcl_Size n;
    if (sdc_parse_args(r, objc, objv, NULL, 0, pos, 1, &n_pos) != TCL_OK)
        return TCL_ERROR;
    if (n_pos != 1)
        return sdc_fail(r, 1637, "set_propagated_clock: give the clocks (or their ports or pins)");
    sdc_kinds kinds = SDC_KIND(SDC_CLOCK) | SDC_KIND(SDC_PORT) | SDC_KIND(SDC_PIN);
    if (sdc_objects(r, "set_propagated_clock", pos[0], kinds, &objs, &n) != TCL_OK)
        return TCL_ERROR;
    for (Tcl_Size k = 0; k < n; k++) {
        uint32_t net = sdc_object_net(r, objs[k]);
        for (uint32_t c = 0; c < r->s->n_clocks; c++) {
            sdc_clock *clk = &r->s->clocks[c];
            bool named = objs[k].kind == SDC_CLOCK && objs[k].index == c;
            for (uint32_t j = 0; j < clk->n_sources && !named; j++)
                named = net != DESIGN_NONE && clk->source_nets[j] == net;
            clk->propagated |= named;
        }
    }
    mem_free(objs);
    return TCL_OK;
}

/* ---- inputs and loads ------------------------------------------------------ */

static int set_input_transition(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    (void)ip;
    sdc_reader *r = cd;
    sdc_option opts[] = {SDC_FLAG("-rise"), SDC_FLAG("-fall"), SDC_FLAG("-min"), SDC_FLAG("-max"),
                         SDC_VALUE("-clock"), SDC_FLAG("-clock_fall")};
    double tr;
    sdc_object *objs;
    Tcl_Size n;
    bool dir[2];
    if (value_and_objects(r, objc, objv, opts, 6, "the transition and the ports", r->time_unit,
                          SDC_KIND(SDC_PORT), &tr, &objs, &n) != TCL_OK)
        return TCL_ERROR;
    bool applies = rise_fall(opts, 6, dir);
    for (Tcl_Size k = 0; applies && k < n; k++)
        for (int d = 0; d < 2; d++)
            if (dir[d]) {
                r->s->port_transition[d][objs[k].index] = tr;
                r->s->port_drive[objs[k].index].cell = NULL; /* the last word wins */
            }
    mem_free(objs);
    return TCL_OK;
}

static int set_load(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    (void)ip;
    sdc_reader *r = cd;
    sdc_option opts[] = {SDC_FLAG("-min"), SDC_FLAG("-max"), SDC_FLAG("-rise"), SDC_FLAG("-fall"),
                         SDC_FLAG("-pin_load"), SDC_FLAG("-wire_load"),
                         SDC_FLAG("-subtract_pin_load"), SDC_VALUE("-corner")};
    double cap;
    sdc_object *objs;
    Tcl_Size n;
    bool dir[2];
    if (value_and_objects(r, objc, objv, opts, 8, "the capacitance and the ports or nets",
                          r->cap_unit, SDC_KIND(SDC_PORT) | SDC_KIND(SDC_NET), &cap, &objs,
                          &n) != TCL_OK)
        return TCL_ERROR;
    bool applies = rise_fall(opts, 4, dir), wire = opts[5].given && !opts[4].given;
    for (Tcl_Size k = 0; applies && k < n; k++) {
        if (objs[k].kind == SDC_PORT) {
            r->s->port_load[wire][objs[k].index] = cap;
        } else {
            double pins = opts[6].given ? design_net_load_pin_cap(r->dg, objs[k].index) : 0;
            r->s->net_load[objs[k].index] = fmax(0.0, cap - pins);
        }
    }
    mem_free(objs);
    return TCL_OK;
}

/* The driving cell's output pin: -pin, else its only output. */
static int drive_pin(sdc_reader *r, const lib_cell *c, sdc_option *pin, int32_t *out)
{
    const char *cmd = "set_driving_cell";
    if (pin->given) {
        *out = lib_pin_index(c, Tcl_GetString(pin->value));
        if (*out == LIB_NONE || !design_dir_drives(c->pins[*out].dir))
            return sdc_fail(r, 1640, "%s: cell %s has no output pin '%s'", cmd, c->name,
                            Tcl_GetString(pin->value));
        return TCL_OK;
    }
    *out = LIB_NONE;
    for (uint32_t k = 0; k < c->n_pins; k++)
        if (design_dir_drives(c->pins[k].dir)) {
            if (*out != LIB_NONE)
                return sdc_fail(r, 1641, "%s: cell %s has several outputs; give -pin", cmd,
                                c->name);
            *out = (int32_t)k;
        }
    return *out != LIB_NONE ? TCL_OK
                            : sdc_fail(r, 1642, "%s: cell %s has no output", cmd, c->name);
}

/* -lib_cell (or -cell), -pin, -from_pin and the input transitions. */
static int drive_of(sdc_reader *r, sdc_option *opts, sdc_drive *dr)
{
    const char *cmd = "set_driving_cell";
    sdc_option *cell = opts[0].given ? &opts[0] : &opts[1];
    if (!cell->given)
        return sdc_fail(r, 1643, "%s: give -lib_cell CELL", cmd);
    const char *name = Tcl_GetString(cell->value), *slash = strrchr(name, '/');
    dr->cell = lib_find_cell(r->libs, slash ? slash + 1 : name); /* library/cell too */
    if (!dr->cell)
        return sdc_fail(r, 1644, "%s: no cell '%s' in the libraries", cmd, name);
    if (drive_pin(r, dr->cell, &opts[2], &dr->pin) != TCL_OK)
        return TCL_ERROR;
    dr->from = LIB_NONE;
    if (opts[3].given &&
        (dr->from = lib_pin_index(dr->cell, Tcl_GetString(opts[3].value))) == LIB_NONE)
        return sdc_fail(r, 1645, "%s: cell %s has no pin '%s'", cmd, dr->cell->name,
                        Tcl_GetString(opts[3].value));
    for (int d = 0; d < 2; d++)
        if (opts[4 + d].given && sdc_get_value(r, cmd, opts[4 + d].value, r->time_unit, false,
                                               &dr->input_transition[d]) != TCL_OK)
            return TCL_ERROR;
    return TCL_OK;
}

static int set_driving_cell(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    (void)ip;
    sdc_reader *r = cd;
    sdc_option opts[] = {SDC_VALUE("-lib_cell"), SDC_VALUE("-cell"), SDC_VALUE("-pin"),
                         SDC_VALUE("-from_pin"), SDC_VALUE("-input_transition_rise"),
                         SDC_VALUE("-input_transition_fall"), SDC_VALUE("-library"),
                         SDC_FLAG("-rise"), SDC_FLAG("-fall"), SDC_FLAG("-min"), SDC_FLAG("-max"),
                         SDC_FLAG("-dont_scale"), SDC_FLAG("-no_design_rule"),
                         SDC_VALUE("-multiply_by"), SDC_VALUE("-clock"), SDC_FLAG("-clock_fall")};
    size_t n_opts = sizeof opts / sizeof opts[0];
    Tcl_Obj *pos[1];
    int n_pos;
    sdc_drive dr = {0};
    sdc_object *objs;
    Tcl_Size n;
    bool dir[2];
    if (sdc_parse_args(r, objc, objv, opts, n_opts, pos, 1, &n_pos) != TCL_OK)
        return TCL_ERROR;
    if (n_pos != 1)
        return sdc_fail(r, 1646, "set_driving_cell: give the input ports");
    if (drive_of(r, opts, &dr) != TCL_OK ||
        sdc_objects(r, "set_driving_cell", pos[0], SDC_KIND(SDC_PORT), &objs, &n) != TCL_OK)
        return TCL_ERROR;
    bool applies = rise_fall(opts, n_opts, dir);
    for (Tcl_Size k = 0; applies && k < n; k++) {
        r->s->port_drive[objs[k].index] = dr;
        r->s->port_transition[0][objs[k].index] = r->s->port_transition[1][objs[k].index] = NAN;
    }
    mem_free(objs);
    return TCL_OK;
}

/* ---- units ---------------------------------------------------------------- */

/* "ns", "1ps", "pF", "1e-15F": one unit of `base` (s or F) in units of
 * 10^-shift base (time: shift 15, femtoseconds). */
static bool parse_unit(const char *text, char base, int shift, double *out)
{
    char *end;
    double number = strtod(text, &end);
    if (end == text)
        number = 1;
    if (!(number > 0) || !isfinite(number))
        return false;
    size_t len = strlen(end);
    if (len == 0 || len > 2 || tolower((unsigned char)end[len - 1]) != base)
        return false;
    int exponent = 0;
    if (len == 2 && !gp_si_prefix((char)tolower((unsigned char)end[0]), &exponent))
        return false;
    *out = number * gp_power_of_ten(exponent + shift);
    return true;
}

static int set_units(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    (void)ip;
    sdc_reader *r = cd;
    sdc_option opts[] = {SDC_VALUE("-time"), SDC_VALUE("-capacitance"), SDC_VALUE("-resistance"),
                         SDC_VALUE("-voltage"), SDC_VALUE("-current"), SDC_VALUE("-power"),
                         SDC_VALUE("-distance")};
    Tcl_Obj *pos[1];
    int n_pos;
    if (sdc_parse_args(r, objc, objv, opts, sizeof opts / sizeof opts[0], pos, 0, &n_pos) !=
        TCL_OK)
        return TCL_ERROR;
    if (opts[0].given && !parse_unit(Tcl_GetString(opts[0].value), 's', 15, &r->time_unit))
        return sdc_fail(r, 1647, "set_units: -time '%s' is not a time unit (e.g. ns, ps)",
                        Tcl_GetString(opts[0].value));
    if (opts[1].given && !parse_unit(Tcl_GetString(opts[1].value), 'f', 0, &r->cap_unit))
        return sdc_fail(r, 1648, "set_units: -capacitance '%s' is not a capacitance unit "
                        "(e.g. pF, fF)", Tcl_GetString(opts[1].value));
    return TCL_OK;
}

/* ---- registration --------------------------------------------------------- */

/* A timing-only command: counted; clientData is its index in the table. */
static int timing_only(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    (void)objv;
    sdc_reader *r = Tcl_GetAssocData(ip, "gatepower-sdc", NULL);
    r->timing_only_count[(uintptr_t)cd]++;
    r->s->timing_only++;
    return TCL_OK;
}

void sdc_register_commands(sdc_reader *r)
{
    static const struct {
        const char *name;
        Tcl_ObjCmdProc *proc;
    } commands[] = {
        {"create_clock", create_clock}, {"create_generated_clock", create_generated_clock},
        {"set_clock_transition", set_clock_transition},
        {"set_propagated_clock", set_propagated_clock},
        {"set_input_transition", set_input_transition}, {"set_load", set_load},
        {"set_driving_cell", set_driving_cell}, {"set_units", set_units},
    };
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
        Tcl_CreateObjCommand(r->interp, commands[k].name, commands[k].proc, r, NULL);
    Tcl_SetAssocData(r->interp, "gatepower-sdc", NULL, r);
    for (uintptr_t k = 0; sdc_timing_only[k]; k++)
        Tcl_CreateObjCommand(r->interp, sdc_timing_only[k], timing_only, (ClientData)k, NULL);
}
#endif
