/* design_build.c: the Verilog reader's builder (vlog_builder) that assembles
 * the flat design, and the CSR arrays made from it once the netlist is read. */
#include "design/design_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/arena.h"
#include "util/mem.h"
#include "util/vec.h"
#include "verilog/verilog.h"

/* What a name given to the builder names (net_names in call order). */
enum { NAMES_NET, NAMES_ALIAS, NAMES_PORT };
typedef struct naming {
    uint32_t what; /* the net, or the port for NAMES_PORT */
    uint8_t kind;  /* NAMES_* */
} naming;

VEC_DECLARE(vec_port, design_port)
VEC_DECLARE(vec_ref, strtab_ref)
VEC_DECLARE(vec_naming, naming)

/* What the builder collects while the reader runs.  Names are kept and
 * interned all at once when the netlist is read (strtab_intern_all), in
 * the order they came. */
typedef struct builder {
    design *dg;
    diag_ctx *d;
    vec_ptr pin_name_lists;     /* by lib cell index: the cell's pin names, made on demand */
    vec_ptr inst_cell;
    vec_u32 inst_pin0, pin_net;
    vec_u8 net_value;
    vec_port ports;
    arena text;                 /* copies of the names */
    vec_ref net_refs, inst_refs;
    vec_naming namings;         /* by net_refs entry */
} builder;

/* The cell's pin names in library order, kept for the reader's lifetime. */
static const char *const *pin_names_of(builder *b, uint32_t cell_index, const lib_cell *c)
{
    if (cell_index >= b->pin_name_lists.len &&
        !vec_ptr_resize(&b->pin_name_lists, (size_t)cell_index + 1))
        return NULL;
    const char **names = b->pin_name_lists.data[cell_index];
    if (!names) {
        names = mem_calloc(c->n_pins ? c->n_pins : 1, sizeof *names);
        if (!names)
            return NULL;
        for (uint32_t k = 0; k < c->n_pins; k++)
            names[k] = c->pins[k].name;
        b->pin_name_lists.data[cell_index] = names;
    }
    return names;
}

static bool find_cell(void *ctx, const char *name, vlog_cell_info *out)
{
    builder *b = ctx;
    const lib_cell *c = lib_find_cell(b->dg->libs, name);
    if (!c)
        return false;
    /* The handle is the cell's index in the set, found by pointer identity. */
    for (size_t i = 0; i < lib_cell_count(b->dg->libs); i++) {
        if (lib_cell_at(b->dg->libs, i) != c)
            continue;
        out->id = (uint32_t)i;
        out->pin_count = (int)c->n_pins;
        out->pin_names = pin_names_of(b, (uint32_t)i, c);
        return out->pin_names != NULL;
    }
    return false;
}

static gp_status out_of_memory(builder *b)
{
    diag_error(b->d, 7001, DIAG_NOWHERE, "out of memory while building the design");
    return GP_ERR_NOMEM;
}

/* Keeps a copy of `name` for `refs`. */
static gp_status keep_name(builder *b, vec_ref *refs, const char *name)
{
    size_t len = strlen(name);
    char *copy = arena_strndup(&b->text, name, len);
    if (!copy || !vec_ref_push(refs, (strtab_ref){copy, len}))
        return out_of_memory(b);
    return GP_OK;
}

static gp_status keep_net_name(builder *b, const char *name, uint32_t what, uint8_t kind)
{
    if (!vec_naming_push(&b->namings, (naming){what, kind}))
        return out_of_memory(b);
    return keep_name(b, &b->net_refs, name);
}

/* The design's net value of the reader's. */
static uint8_t design_value_of(vlog_value value)
{
    return value == VLOG_VALUE_0   ? DESIGN_VALUE_0
           : value == VLOG_VALUE_1 ? DESIGN_VALUE_1
           : value == VLOG_VALUE_X ? DESIGN_VALUE_X
                                   : DESIGN_VALUE_SIGNAL;
}

static gp_status add_net(void *ctx, const char *flat_name, vlog_value value, uint32_t *net)
{
    builder *b = ctx;
    *net = (uint32_t)b->net_value.len;
    if (!vec_u8_push(&b->net_value, design_value_of(value)))
        return out_of_memory(b);
    return keep_net_name(b, flat_name, *net, NAMES_NET);
}

static gp_status add_net_alias(void *ctx, uint32_t net, const char *flat_name)
{
    return keep_net_name(ctx, flat_name, net, NAMES_ALIAS);
}

static gp_status add_port(void *ctx, const char *name, int dir, uint32_t net)
{
    builder *b = ctx;
    int port_dir = dir == VLOG_DIR_INPUT    ? DESIGN_PORT_INPUT
                   : dir == VLOG_DIR_OUTPUT ? DESIGN_PORT_OUTPUT
                                            : DESIGN_PORT_INOUT;
    design_port port = {STRTAB_NONE, port_dir, net};
    if (!vec_port_push(&b->ports, port))
        return out_of_memory(b);
    return keep_net_name(b, name, (uint32_t)(b->ports.len - 1), NAMES_PORT);
}

static gp_status add_instance(void *ctx, const char *flat_path, const char *cell_name,
                              uint32_t cell_id, uint32_t *inst)
{
    builder *b = ctx;
    (void)cell_name;
    const lib_cell *c = lib_cell_at(b->dg->libs, cell_id);
    *inst = (uint32_t)b->inst_cell.len;
    size_t first_pin = b->pin_net.len;
    if (!vec_ptr_push(&b->inst_cell, (void *)c) ||
        !vec_u32_push(&b->inst_pin0, (uint32_t)first_pin) ||
        !vec_u32_resize(&b->pin_net, first_pin + c->n_pins))
        return out_of_memory(b);
    for (size_t p = first_pin; p < b->pin_net.len; p++)
        b->pin_net.data[p] = DESIGN_NONE;
    return keep_name(b, &b->inst_refs, flat_path);
}

static gp_status connect(void *ctx, uint32_t inst, int pin_index, uint32_t net)
{
    builder *b = ctx;
    b->pin_net.data[b->inst_pin0.data[inst] + (uint32_t)pin_index] = net;
    return GP_OK;
}

/* The net names' ids: each net's own name, and every name of a net names
 * only that net (a name given twice is an error); the ports' names. */
static gp_status name_nets(builder *b, const uint32_t *ids)
{
    design *dg = b->dg;
    size_t names = strtab_count(&dg->net_names);
    dg->net_name = mem_alloc((b->net_value.len ? b->net_value.len : 1) * sizeof *dg->net_name);
    dg->net_of_name = mem_alloc((names ? names : 1) * sizeof *dg->net_of_name);
    if (!dg->net_name || !dg->net_of_name)
        return out_of_memory(b);
    for (size_t i = 0; i < names; i++)
        dg->net_of_name[i] = DESIGN_NONE; /* port names that name no net get none */
    for (size_t k = 0; k < b->namings.len; k++) {
        naming m = b->namings.data[k];
        if (m.kind == NAMES_PORT) {
            b->ports.data[m.what].name = ids[k];
            continue;
        }
        if (m.kind == NAMES_NET)
            dg->net_name[m.what] = ids[k];
        if (dg->net_of_name[ids[k]] != DESIGN_NONE) {
            diag_error(b->d, 7002, DIAG_NOWHERE,
                       "two different nets are both called '%s' in the flattened netlist; "
                       "rename one (an escaped name containing '/' can clash with a "
                       "hierarchical name)",
                       b->net_refs.data[k].s);
            return GP_ERR_INPUT;
        }
        dg->net_of_name[ids[k]] = m.what;
    }
    return GP_OK;
}

/* The instances' names, one each (a name given twice is an error). */
static gp_status name_instances(builder *b, const uint32_t *ids)
{
    design *dg = b->dg;
    size_t n = b->inst_refs.len;
    if (!(dg->inst_name = mem_alloc((n ? n : 1) * sizeof *dg->inst_name)))
        return out_of_memory(b);
    for (size_t i = 0; i < n; i++) {
        if (ids[i] != i) {
            diag_error(b->d, 7003, DIAG_NOWHERE, "two instances are both called '%s'",
                       b->inst_refs.data[i].s);
            return GP_ERR_INPUT;
        }
        dg->inst_name[i] = ids[i];
    }
    return GP_OK;
}

static gp_status intern_names(builder *b)
{
    design *dg = b->dg;
    size_t most = b->net_refs.len > b->inst_refs.len ? b->net_refs.len : b->inst_refs.len;
    uint32_t *ids = mem_alloc((most ? most : 1) * sizeof *ids);
    gp_status st = ids ? GP_OK : out_of_memory(b);
    if (st == GP_OK && !strtab_intern_all(&dg->net_names, b->net_refs.data, b->net_refs.len,
                                          ids, UINT32_MAX))
        st = out_of_memory(b);
    if (st == GP_OK)
        st = name_nets(b, ids);
    if (st == GP_OK && !strtab_intern_all(&dg->inst_names, b->inst_refs.data,
                                          b->inst_refs.len, ids, UINT32_MAX))
        st = out_of_memory(b);
    if (st == GP_OK)
        st = name_instances(b, ids);
    mem_free(ids);
    return st;
}

/* Moves the collected vectors into the design (which then owns them). */
static gp_status finish_arrays(builder *b)
{
    design *dg = b->dg;
    if (b->pin_net.len >= DESIGN_NONE || !vec_u32_push(&b->inst_pin0, (uint32_t)b->pin_net.len))
        return out_of_memory(b);
    gp_status st = intern_names(b);
    if (st != GP_OK)
        return st;
    dg->n_insts = (uint32_t)b->inst_cell.len;
    dg->inst_cell = (const lib_cell **)b->inst_cell.data;
    dg->inst_pin0 = b->inst_pin0.data;
    dg->n_pins = (uint32_t)b->pin_net.len;
    dg->pin_net = b->pin_net.data;
    dg->n_nets = (uint32_t)b->net_value.len;
    dg->net_value = b->net_value.data;
    dg->n_ports = (uint32_t)b->ports.len;
    dg->ports = b->ports.data;
    memset(&b->inst_cell, 0, sizeof b->inst_cell);
    b->inst_pin0 = b->pin_net = (vec_u32){0};
    b->net_value = (vec_u8){0};
    b->ports = (vec_port){0};
    return GP_OK;
}

static void builder_free(builder *b)
{
    for (size_t i = 0; i < b->pin_name_lists.len; i++)
        mem_free(b->pin_name_lists.data[i]);
    vec_ptr_free(&b->pin_name_lists);
    vec_ptr_free(&b->inst_cell);
    vec_u32_free(&b->inst_pin0);
    vec_u32_free(&b->pin_net);
    vec_u8_free(&b->net_value);
    vec_port_free(&b->ports);
    arena_free_all(&b->text);
    vec_ref_free(&b->net_refs);
    vec_ref_free(&b->inst_refs);
    vec_naming_free(&b->namings);
}

/* The top module's name, known before anything is added. */
static gp_status on_sizes(void *ctx, const vlog_sizes *sizes)
{
    builder *b = ctx;
    size_t n = strlen(sizes->top) + 1;
    if (!(b->dg->name = mem_alloc(n))) {
        diag_error(b->d, 7013, DIAG_NOWHERE, "out of memory");
        return GP_ERR_NOMEM;
    }
    memcpy(b->dg->name, sizes->top, n);
    return GP_OK;
}

gp_status design_read_structure(design **out, const lib_set *libs, const char *const *paths,
                                int n_paths, const char *top, progress *bar, diag_ctx *d)
{
    *out = NULL;
    design *dg = mem_calloc(1, sizeof *dg);
    if (!dg) {
        diag_error(d, 7004, DIAG_NOWHERE, "out of memory");
        return GP_ERR_NOMEM;
    }
    dg->libs = libs;
    strtab_init(&dg->inst_names);
    strtab_init(&dg->net_names);
    builder b = {.dg = dg, .d = d};
    vlog_builder vb = {.ctx = &b, .find_cell = find_cell, .reserve = on_sizes, .add_net = add_net,
                       .add_net_alias = add_net_alias, .add_port = add_port,
                       .add_instance = add_instance, .connect = connect};
    gp_status st = vlog_read(paths, n_paths, top, &vb, bar, d);
    if (st == GP_OK)
        st = finish_arrays(&b);
    builder_free(&b);
    if (st == GP_OK)
        st = design_index(dg, d);
    if (st != GP_OK) {
        design_free(dg);
        return st;
    }
    *out = dg;
    return GP_OK;
}

gp_status design_read_netlist(design **out, const lib_set *libs, const char *const *paths,
                              int n_paths, const char *top, diag_ctx *d)
{
    gp_status st = design_read_structure(out, libs, paths, n_paths, top, NULL, d);
    if (st == GP_OK) {
        design_timing_options opt = design_timing_defaults();
        st = design_compute_timing(*out, &opt, d);
    }
    if (st != GP_OK) {
        design_free(*out);
        *out = NULL;
    }
    return st;
}

void design_free(design *dg)
{
    if (!dg)
        return;
    void *arrays[] = {dg->inst_cell, dg->inst_name, dg->inst_pin0, dg->inst_arc0,
                      dg->inst_level, dg->pin_inst, dg->pin_flags, dg->pin_net, dg->net_name,
                      dg->net_value,
                      dg->net_pin0, dg->net_pins, dg->net_driver, dg->net_of_name, dg->ports,
                      dg->pin_load, dg->pin_slew[0], dg->pin_slew[1], dg->pin_wire_delay[0],
                      dg->pin_wire_delay[1], dg->arc_delay[0], dg->arc_delay[1],
                      dg->arc_from_sdf, dg->net_wire_cap};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        mem_free(arrays[i]);
    strtab_free(&dg->inst_names);
    strtab_free(&dg->net_names);
    mem_free(dg->name);
    mem_free(dg);
}

uint32_t design_find_net(const design *dg, const char *name)
{
    uint32_t id = strtab_find(&dg->net_names, name, strlen(name));
    return id == STRTAB_NONE ? DESIGN_NONE : dg->net_of_name[id];
}

uint32_t design_find_inst(const design *dg, const char *name)
{
    uint32_t id = strtab_find(&dg->inst_names, name, strlen(name));
    return id == STRTAB_NONE ? DESIGN_NONE : id; /* instance i has name id i */
}

const char *design_inst_name(const design *dg, uint32_t inst)
{
    return strtab_str(&dg->inst_names, dg->inst_name[inst]);
}

const char *design_net_name(const design *dg, uint32_t net)
{
    return strtab_str(&dg->net_names, dg->net_name[net]);
}
