/* sdc_objects.c: the design's ports, pins, nets, cells and the clocks as
 * Tcl values, found by name or pattern (get_ports, get_pins, get_nets,
 * get_cells, get_clocks, all_inputs, all_outputs, all_clocks,
 * all_registers) and handled as lists (remove_from_collection, ...).
 *
 * A value prints as the object's name and keeps, as its internal
 * representation, the object's kind and index, so that a net and the port
 * of the same name stay apart through variables and list commands; a value
 * that has lost it (rebuilt from its string) is looked up by name again. */
#include "sdc/sdc.h"

#ifdef GATEPOWER_HAVE_TCL
#include "sdc/sdc_int.h"

#include <ctype.h>
#include <string.h>

#include "util/mem.h"

/* No procedures: the internal representation is two words, copied as they
 * are, and the string is always there (set when the value is made). */
static const Tcl_ObjType sdc_object_type = {"gatepower-sdc-object", NULL, NULL, NULL, NULL};

static const char *const sdc_kind_names[SDC_KINDS] = {"port", "pin", "net", "cell", "clock"};

Tcl_Obj *sdc_object_value(sdc_reader *r, sdc_object obj)
{
    const design *dg = r->dg;
    Tcl_Obj *o;
    switch (obj.kind) {
    case SDC_PORT:
        o = Tcl_NewStringObj(strtab_str(&dg->net_names, dg->ports[obj.index].name), -1);
        break;
    case SDC_PIN:
        o = Tcl_NewStringObj(design_inst_name(dg, dg->pin_inst[obj.index]), -1);
        Tcl_AppendStringsToObj(o, "/", design_lib_pin(dg, obj.index)->name, (char *)NULL);
        break;
    case SDC_NET: o = Tcl_NewStringObj(design_net_name(dg, obj.index), -1); break;
    case SDC_CELL: o = Tcl_NewStringObj(design_inst_name(dg, obj.index), -1); break;
    default: o = Tcl_NewStringObj(r->s->clocks[obj.index].name, -1); break;
    }
    Tcl_GetString(o);
    o->typePtr = &sdc_object_type;
    o->internalRep.twoPtrValue.ptr1 = (void *)(uintptr_t)obj.kind;
    o->internalRep.twoPtrValue.ptr2 = (void *)(uintptr_t)obj.index;
    return o;
}

uint32_t sdc_object_net(const sdc_reader *r, sdc_object obj)
{
    switch (obj.kind) {
    case SDC_PORT: return r->dg->ports[obj.index].net;
    case SDC_PIN: return r->dg->pin_net[obj.index];
    case SDC_NET: return obj.index;
    default: return DESIGN_NONE;
    }
}

/* ---- matching names ------------------------------------------------------ */

typedef struct sdc_pattern {
    const char *text;
    bool regexp, nocase, wild; /* wild: a glob with * or ? */
    Tcl_RegExp re;
} sdc_pattern;

static bool same_char(char a, char b, bool nocase)
{
    return nocase ? tolower((unsigned char)a) == tolower((unsigned char)b) : a == b;
}

/* A glob with * and ? only: brackets are bus bits in names, not classes. */
static bool glob_match(const char *p, const char *s, bool nocase)
{
    const char *star = NULL, *resume = NULL;
    while (*s) {
        if (*p == '*') {
            star = ++p;
            resume = s;
        } else if (*p && (*p == '?' || same_char(*p, *s, nocase))) {
            p++;
            s++;
        } else if (star) {
            p = star;
            s = ++resume;
        } else {
            return false;
        }
    }
    while (*p == '*')
        p++;
    return *p == '\0';
}

static bool pattern_matches(sdc_reader *r, const sdc_pattern *pt, const char *name)
{
    if (pt->regexp)
        return Tcl_RegExpExec(r->interp, pt->re, name, name) == 1;
    return glob_match(pt->text, name, pt->nocase);
}

static int pattern_init(sdc_reader *r, sdc_pattern *pt, const char *text, bool regexp,
                        bool nocase)
{
    *pt = (sdc_pattern){text, regexp, nocase, strpbrk(text, "*?") != NULL, NULL};
    if (!regexp)
        return TCL_OK;
    Tcl_Obj *anchored = Tcl_ObjPrintf("%s^(?:%s)$", nocase ? "(?i)" : "", text);
    Tcl_IncrRefCount(anchored);
    pt->re = Tcl_GetRegExpFromObj(r->interp, anchored, TCL_REG_ADVANCED);
    Tcl_DecrRefCount(anchored);
    if (!pt->re)
        return sdc_fail(r, 1608, "bad regular expression '%s': %s", text,
                        Tcl_GetStringResult(r->interp));
    return TCL_OK;
}

/* What a lookup appends to: a growing array of objects. */
typedef struct sdc_found {
    sdc_object *items;
    size_t n, cap;
    bool no_memory;
} sdc_found;

static void found_add(sdc_found *f, sdc_kind kind, uint32_t index)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 16;
        sdc_object *grown = mem_realloc(f->items, cap * sizeof *grown);
        if (!grown) {
            f->no_memory = true;
            return;
        }
        f->items = grown;
        f->cap = cap;
    }
    f->items[f->n++] = (sdc_object){kind, index};
}

static const char *port_name(const design *dg, uint32_t port)
{
    return strtab_str(&dg->net_names, dg->ports[port].name);
}

static void match_ports(sdc_reader *r, const sdc_pattern *pt, sdc_found *f)
{
    size_t before = f->n;
    for (uint32_t p = 0; p < r->dg->n_ports; p++)
        if (pattern_matches(r, pt, port_name(r->dg, p)))
            found_add(f, SDC_PORT, p);
    if (f->n > before || pt->wild || pt->regexp)
        return;
    size_t len = strlen(pt->text); /* a bus by its name: its bits */
    for (uint32_t p = 0; p < r->dg->n_ports; p++) {
        const char *name = port_name(r->dg, p);
        if (strncmp(name, pt->text, len) == 0 && name[len] == '[')
            found_add(f, SDC_PORT, p);
    }
}

static void match_nets(sdc_reader *r, const sdc_pattern *pt, sdc_found *f)
{
    if (!pt->wild && !pt->regexp && !pt->nocase) {
        uint32_t n = design_find_net(r->dg, pt->text);
        if (n != DESIGN_NONE) {
            found_add(f, SDC_NET, n);
            return;
        }
    }
    for (uint32_t n = 0; n < r->dg->n_nets; n++)
        if (pattern_matches(r, pt, design_net_name(r->dg, n)))
            found_add(f, SDC_NET, n);
}

static void match_cells(sdc_reader *r, const sdc_pattern *pt, sdc_found *f)
{
    if (!pt->wild && !pt->regexp && !pt->nocase) {
        uint32_t i = design_find_inst(r->dg, pt->text);
        if (i != DESIGN_NONE)
            found_add(f, SDC_CELL, i);
        return;
    }
    for (uint32_t i = 0; i < r->dg->n_insts; i++)
        if (pattern_matches(r, pt, design_inst_name(r->dg, i)))
            found_add(f, SDC_CELL, i);
}

/* The pins of instance i whose names match pin_pattern (a glob). */
static void match_inst_pins(const sdc_reader *r, uint32_t i, const char *pin_pattern, bool nocase,
                            sdc_found *f)
{
    const lib_cell *c = r->dg->inst_cell[i];
    for (uint32_t k = 0; k < c->n_pins; k++)
        if (glob_match(pin_pattern, c->pins[k].name, nocase))
            found_add(f, SDC_PIN, r->dg->inst_pin0[i] + k);
}

/* inst/PIN: the instance part and the pin part apart (at the last '/'),
 * or, for a regular expression, the whole name. */
static void match_pins(sdc_reader *r, const sdc_pattern *pt, sdc_found *f)
{
    const design *dg = r->dg;
    if (pt->regexp) {
        Tcl_Obj *name = Tcl_NewObj();
        Tcl_IncrRefCount(name);
        for (uint32_t p = 0; p < dg->n_pins; p++) {
            Tcl_SetStringObj(name, design_inst_name(dg, dg->pin_inst[p]), -1);
            Tcl_AppendStringsToObj(name, "/", design_lib_pin(dg, p)->name, (char *)NULL);
            if (pattern_matches(r, pt, Tcl_GetString(name)))
                found_add(f, SDC_PIN, p);
        }
        Tcl_DecrRefCount(name);
        return;
    }
    const char *slash = strrchr(pt->text, '/');
    if (!slash)
        return;
    char *inst = mem_alloc((size_t)(slash - pt->text) + 1);
    if (!inst) {
        f->no_memory = true;
        return;
    }
    memcpy(inst, pt->text, (size_t)(slash - pt->text));
    inst[slash - pt->text] = '\0';
    sdc_pattern inst_pt = {inst, false, pt->nocase, strpbrk(inst, "*?") != NULL, NULL};
    sdc_found insts = {0};
    match_cells(r, &inst_pt, &insts);
    for (size_t k = 0; k < insts.n; k++)
        match_inst_pins(r, insts.items[k].index, slash + 1, pt->nocase, f);
    f->no_memory |= insts.no_memory;
    mem_free(insts.items);
    mem_free(inst);
}

static void match_clocks(sdc_reader *r, const sdc_pattern *pt, sdc_found *f)
{
    for (uint32_t c = 0; c < r->s->n_clocks; c++)
        if (pattern_matches(r, pt, r->s->clocks[c].name))
            found_add(f, SDC_CLOCK, c);
}

static void match_kind(sdc_reader *r, sdc_kind kind, const sdc_pattern *pt, sdc_found *f)
{
    switch (kind) {
    case SDC_PORT: match_ports(r, pt, f); break;
    case SDC_PIN: match_pins(r, pt, f); break;
    case SDC_NET: match_nets(r, pt, f); break;
    case SDC_CELL: match_cells(r, pt, f); break;
    default: match_clocks(r, pt, f); break;
    }
}

/* ---- objects from values -------------------------------------------------- */

/* The kinds of `kinds` as words: "port or pin". */
static void kinds_text(sdc_kinds kinds, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < SDC_KINDS; k++)
        if (kinds & SDC_KIND(k))
            used += (size_t)snprintf(buf + used, cap - used, "%s%s", used ? " or " : "",
                                     sdc_kind_names[k]);
}

/* One element: an object value of an allowed kind, or a name (pattern)
 * looked up kind by kind. */
static int element_objects(sdc_reader *r, const char *cmd, Tcl_Obj *e, sdc_kinds kinds,
                           sdc_found *f)
{
    char allowed[64];
    kinds_text(kinds, allowed, sizeof allowed);
    if (e->typePtr == &sdc_object_type) {
        sdc_kind kind = (sdc_kind)(uintptr_t)e->internalRep.twoPtrValue.ptr1;
        if (!(kinds & SDC_KIND(kind)))
            return sdc_fail(r, 1609, "%s: '%s' is a %s; it takes a %s", cmd, Tcl_GetString(e),
                            sdc_kind_names[kind], allowed);
        found_add(f, kind, (uint32_t)(uintptr_t)e->internalRep.twoPtrValue.ptr2);
        return TCL_OK;
    }
    sdc_pattern pt;
    pattern_init(r, &pt, Tcl_GetString(e), false, false);
    for (int k = 0; k < SDC_KINDS; k++) {
        size_t before = f->n;
        if (kinds & SDC_KIND(k))
            match_kind(r, (sdc_kind)k, &pt, f);
        if (f->n > before)
            return TCL_OK;
    }
    return sdc_fail(r, 1610, "%s: no %s of the design is called '%s'", cmd, allowed,
                    Tcl_GetString(e));
}

int sdc_objects(sdc_reader *r, const char *cmd, Tcl_Obj *list, sdc_kinds kinds,
                sdc_object **out, Tcl_Size *n)
{
    Tcl_Size count = 1;
    Tcl_Obj **elems = &list;
    *out = NULL;
    *n = 0;
    if (list->typePtr != &sdc_object_type && /* one object (lindex's): a list would lose it */
        Tcl_ListObjGetElements(r->interp, list, &count, &elems) != TCL_OK)
        return TCL_ERROR;
    sdc_found f = {0};
    for (Tcl_Size k = 0; k < count; k++)
        if (element_objects(r, cmd, elems[k], kinds, &f) != TCL_OK) {
            mem_free(f.items);
            return TCL_ERROR;
        }
    if (f.no_memory) {
        mem_free(f.items);
        return sdc_no_memory(r);
    }
    *out = f.items;
    *n = (Tcl_Size)f.n;
    return TCL_OK;
}

/* ---- get_* ---------------------------------------------------------------- */

/* The result: the objects found as a list of values. */
static int set_found(sdc_reader *r, sdc_found *f)
{
    if (f->no_memory) {
        mem_free(f->items);
        return sdc_no_memory(r);
    }
    Tcl_Obj *list = Tcl_NewListObj(0, NULL);
    for (size_t k = 0; k < f->n; k++)
        Tcl_ListObjAppendElement(NULL, list, sdc_object_value(r, f->items[k]));
    mem_free(f->items);
    Tcl_SetObjResult(r->interp, list);
    return TCL_OK;
}

/* The objects of kind `want` that belong to `of`: a cell's or net's pins, a
 * pin's or port's net, a pin's cell. */
static void objects_of(const sdc_reader *r, sdc_kind want, sdc_object of, sdc_found *f)
{
    const design *dg = r->dg;
    if (want == SDC_PIN && of.kind == SDC_CELL) {
        for (uint32_t p = dg->inst_pin0[of.index]; p < dg->inst_pin0[of.index + 1]; p++)
            found_add(f, SDC_PIN, p);
    } else if (want == SDC_PIN && of.kind == SDC_NET) {
        for (uint32_t k = dg->net_pin0[of.index]; k < dg->net_pin0[of.index + 1]; k++)
            found_add(f, SDC_PIN, dg->net_pins[k]);
    } else if (want == SDC_NET && sdc_object_net(r, of) != DESIGN_NONE) {
        found_add(f, SDC_NET, sdc_object_net(r, of));
    } else if (want == SDC_CELL && of.kind == SDC_PIN) {
        found_add(f, SDC_CELL, dg->pin_inst[of.index]);
    }
}

static const sdc_kinds sdc_of_kinds[SDC_KINDS] = {
    [SDC_PIN] = SDC_KIND(SDC_CELL) | SDC_KIND(SDC_NET),
    [SDC_NET] = SDC_KIND(SDC_PIN) | SDC_KIND(SDC_PORT),
    [SDC_CELL] = SDC_KIND(SDC_PIN),
};

static int get_of_objects(sdc_reader *r, const char *cmd, sdc_kind want, Tcl_Obj *of,
                          sdc_found *f)
{
    sdc_object *objs;
    Tcl_Size n;
    if (sdc_objects(r, cmd, of, sdc_of_kinds[want], &objs, &n) != TCL_OK)
        return TCL_ERROR;
    for (Tcl_Size k = 0; k < n; k++)
        objects_of(r, want, objs[k], f);
    mem_free(objs);
    return TCL_OK;
}

static int get_patterns(sdc_reader *r, sdc_kind want, Tcl_Obj *const *pos, int n_pos,
                        bool regexp, bool nocase, bool quiet, sdc_found *f)
{
    for (int a = 0; a < n_pos; a++) {
        Tcl_Size count;
        Tcl_Obj **elems;
        if (Tcl_ListObjGetElements(r->interp, pos[a], &count, &elems) != TCL_OK)
            return TCL_ERROR;
        for (Tcl_Size k = 0; k < count; k++) {
            sdc_pattern pt;
            if (pattern_init(r, &pt, Tcl_GetString(elems[k]), regexp, nocase) != TCL_OK)
                return TCL_ERROR;
            size_t before = f->n;
            match_kind(r, want, &pt, f);
            if (f->n == before && !quiet)
                sdc_warn(r, 1611, "no %s of the design matches '%s'", sdc_kind_names[want],
                         pt.text);
        }
    }
    return TCL_OK;
}

/* get_ports, get_pins, get_nets, get_cells, get_clocks: clientData is the
 * kind (the reader is found through the interpreter's association). */
static int get_objects(sdc_reader *r, sdc_kind want, int objc, Tcl_Obj *const objv[])
{
    sdc_option opts[] = {SDC_FLAG("-quiet"), SDC_FLAG("-regexp"), SDC_FLAG("-nocase"),
                         SDC_FLAG("-hierarchical"), SDC_FLAG("-hier"), SDC_VALUE("-filter"),
                         SDC_VALUE("-of_objects")};
    size_t n_opts = sizeof opts / sizeof opts[0];
    Tcl_Obj *pos[SDC_MAX_POSITIONAL];
    int n_pos;
    const char *cmd = Tcl_GetString(objv[0]);
    if (sdc_parse_args(r, objc, objv, opts, n_opts, pos, SDC_MAX_POSITIONAL, &n_pos) != TCL_OK)
        return TCL_ERROR;
    if (sdc_opt(opts, n_opts, "-filter")->given)
        return sdc_fail(r, 1612, "%s: -filter is not supported; select the objects by name or "
                        "pattern", cmd);
    sdc_option *of = sdc_opt(opts, n_opts, "-of_objects");
    if (of->given && !sdc_of_kinds[want])
        return sdc_fail(r, 1613, "%s: -of_objects is not supported here", cmd);
    if (!of->given && n_pos == 0)
        return sdc_fail(r, 1614, "%s: give the names or patterns to look for", cmd);
    sdc_found f = {0};
    int rc = of->given ? get_of_objects(r, cmd, want, of->value, &f)
                       : get_patterns(r, want, pos, n_pos, opts[1].given, opts[2].given,
                                      opts[0].given, &f);
    if (rc != TCL_OK) {
        mem_free(f.items);
        return rc;
    }
    return set_found(r, &f);
}

#define SDC_GETTER(fn, kind)                                                             \
    static int fn(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])        \
    {                                                                                    \
        (void)ip;                                                                        \
        return get_objects(cd, kind, objc, objv);                                        \
    }
SDC_GETTER(get_ports, SDC_PORT)
SDC_GETTER(get_pins, SDC_PIN)
SDC_GETTER(get_nets, SDC_NET)
SDC_GETTER(get_cells, SDC_CELL)
SDC_GETTER(get_clocks, SDC_CLOCK)

/* ---- all_* ---------------------------------------------------------------- */

/* Whether net n is the source of a clock. */
static bool net_is_clock_source(const sdc_reader *r, uint32_t n)
{
    for (uint32_t c = 0; c < r->s->n_clocks; c++)
        for (uint32_t k = 0; k < r->s->clocks[c].n_sources; k++)
            if (r->s->clocks[c].source_nets[k] == n)
                return true;
    return false;
}

static int all_ports(sdc_reader *r, int objc, Tcl_Obj *const objv[], bool inputs)
{
    sdc_option opts[] = {SDC_FLAG("-no_clocks"), SDC_FLAG("-level_sensitive"),
                         SDC_FLAG("-edge_triggered"), SDC_VALUE("-clock")};
    Tcl_Obj *pos[1];
    int n_pos;
    if (sdc_parse_args(r, objc, objv, opts, sizeof opts / sizeof opts[0], pos, 0, &n_pos) !=
        TCL_OK)
        return TCL_ERROR;
    sdc_found f = {0};
    for (uint32_t p = 0; p < r->dg->n_ports; p++) {
        int dir = r->dg->ports[p].dir;
        bool want = dir == DESIGN_PORT_INOUT || dir == (inputs ? DESIGN_PORT_INPUT : DESIGN_PORT_OUTPUT);
        if (want && inputs && opts[0].given && r->dg->ports[p].net != DESIGN_NONE &&
            net_is_clock_source(r, r->dg->ports[p].net))
            want = false;
        if (want)
            found_add(&f, SDC_PORT, p);
    }
    return set_found(r, &f);
}

static int all_inputs(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    (void)ip;
    return all_ports(cd, objc, objv, true);
}

static int all_outputs(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    (void)ip;
    return all_ports(cd, objc, objv, false);
}

static int all_clocks(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    (void)ip;
    sdc_reader *r = cd;
    Tcl_Obj *pos[1];
    int n_pos;
    if (sdc_parse_args(r, objc, objv, NULL, 0, pos, 0, &n_pos) != TCL_OK)
        return TCL_ERROR;
    sdc_found f = {0};
    for (uint32_t c = 0; c < r->s->n_clocks; c++)
        found_add(&f, SDC_CLOCK, c);
    return set_found(r, &f);
}

/* Whether pin k of cell c is a clock pin: `clock : true`, or the related
 * pin of an edge-triggered arc. */
static bool lib_pin_is_clock(const lib_cell *c, uint32_t k)
{
    if (c->pins[k].is_clock)
        return true;
    for (uint32_t a = 0; a < c->n_arcs; a++)
        if ((c->arcs[a].type == LIB_TT_RISING_EDGE || c->arcs[a].type == LIB_TT_FALLING_EDGE) &&
            c->arcs[a].related == (int32_t)k)
            return true;
    return false;
}

/* all_registers: the sequential cells, or their clock, data or output pins. */
static int all_registers(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    (void)ip;
    sdc_reader *r = cd;
    sdc_option opts[] = {SDC_FLAG("-cells"), SDC_FLAG("-clock_pins"), SDC_FLAG("-data_pins"),
                         SDC_FLAG("-output_pins"), SDC_VALUE("-clock"), SDC_VALUE("-rise_clock"),
                         SDC_VALUE("-fall_clock"), SDC_FLAG("-edge_triggered"),
                         SDC_FLAG("-level_sensitive")};
    Tcl_Obj *pos[1];
    int n_pos;
    if (sdc_parse_args(r, objc, objv, opts, sizeof opts / sizeof opts[0], pos, 0, &n_pos) !=
        TCL_OK)
        return TCL_ERROR;
    bool clock_pins = opts[1].given, data_pins = opts[2].given, output_pins = opts[3].given;
    sdc_found f = {0};
    for (uint32_t i = 0; i < r->dg->n_insts; i++) {
        const lib_cell *c = r->dg->inst_cell[i];
        if (!design_is_sequential(r->dg, i))
            continue;
        if (!clock_pins && !data_pins && !output_pins)
            found_add(&f, SDC_CELL, i);
        for (uint32_t k = 0; k < c->n_pins; k++) {
            bool in = design_dir_loads(c->pins[k].dir), clock = in && lib_pin_is_clock(c, k);
            if ((clock_pins && clock) || (data_pins && in && !clock) ||
                (output_pins && design_dir_drives(c->pins[k].dir)))
                found_add(&f, SDC_PIN, r->dg->inst_pin0[i] + k);
        }
    }
    return set_found(r, &f);
}

/* ---- lists of objects ----------------------------------------------------- */

/* remove_from_collection, delete_from_list: the elements of the first list
 * whose names are not in the second. */
static int remove_from(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    sdc_reader *r = cd;
    Tcl_Size n_from, n_drop;
    Tcl_Obj **from, **drop;
    if (objc != 3)
        return sdc_fail(r, 1615, "%s: give two lists: the objects and those to remove",
                        Tcl_GetString(objv[0]));
    if (Tcl_ListObjGetElements(ip, objv[1], &n_from, &from) != TCL_OK ||
        Tcl_ListObjGetElements(ip, objv[2], &n_drop, &drop) != TCL_OK)
        return TCL_ERROR;
    Tcl_HashTable names;
    Tcl_InitHashTable(&names, TCL_STRING_KEYS);
    int fresh;
    for (Tcl_Size k = 0; k < n_drop; k++)
        Tcl_CreateHashEntry(&names, Tcl_GetString(drop[k]), &fresh);
    Tcl_Obj *kept = Tcl_NewListObj(0, NULL);
    for (Tcl_Size k = 0; k < n_from; k++)
        if (!Tcl_FindHashEntry(&names, Tcl_GetString(from[k])))
            Tcl_ListObjAppendElement(NULL, kept, from[k]);
    Tcl_DeleteHashTable(&names);
    Tcl_SetObjResult(ip, kept);
    return TCL_OK;
}

/* add_to_collection: the two lists as one. */
static int add_to(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    if (objc != 3)
        return sdc_fail(cd, 1616, "add_to_collection: give two lists");
    Tcl_Obj *all = Tcl_DuplicateObj(objv[1]);
    if (Tcl_ListObjAppendList(ip, all, objv[2]) != TCL_OK) {
        Tcl_DecrRefCount(all);
        return TCL_ERROR;
    }
    Tcl_SetObjResult(ip, all);
    return TCL_OK;
}

/* sizeof_collection: the count of a list. */
static int size_of(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    Tcl_Size n;
    if (objc != 2)
        return sdc_fail(cd, 1617, "sizeof_collection: give one list");
    if (Tcl_ListObjLength(ip, objv[1], &n) != TCL_OK)
        return TCL_ERROR;
    Tcl_SetObjResult(ip, Tcl_NewWideIntObj((Tcl_WideInt)n));
    return TCL_OK;
}

/* get_name, get_full_name, get_object_name: an object's name. */
static int name_of(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    if (objc != 2)
        return sdc_fail(cd, 1618, "%s: give one object", Tcl_GetString(objv[0]));
    Tcl_SetObjResult(ip, Tcl_NewStringObj(Tcl_GetString(objv[1]), -1));
    return TCL_OK;
}

/* current_design: the top module's name (another name is an error). */
static int current_design(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    sdc_reader *r = cd;
    if (objc > 2 || (objc == 2 && strcmp(Tcl_GetString(objv[1]), r->dg->name) != 0))
        return sdc_fail(r, 1619, "current_design: the design is '%s'", r->dg->name);
    Tcl_SetObjResult(ip, Tcl_NewStringObj(r->dg->name, -1));
    return TCL_OK;
}

void sdc_register_objects(sdc_reader *r)
{
    static const struct {
        const char *name;
        Tcl_ObjCmdProc *proc;
    } commands[] = {
        {"get_ports", get_ports}, {"get_pins", get_pins}, {"get_nets", get_nets},
        {"get_cells", get_cells}, {"get_clocks", get_clocks}, {"all_inputs", all_inputs},
        {"all_outputs", all_outputs}, {"all_clocks", all_clocks},
        {"all_registers", all_registers}, {"remove_from_collection", remove_from},
        {"delete_from_list", remove_from}, {"add_to_collection", add_to},
        {"sizeof_collection", size_of}, {"get_name", name_of}, {"get_full_name", name_of},
        {"get_object_name", name_of}, {"current_design", current_design},
    };
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
        Tcl_CreateObjCommand(r->interp, commands[k].name, commands[k].proc, r, NULL);
}
#endif
