/* design_build.c: the Verilog reader's builder (vlog_builder) that takes
 * the flat design's nets, ports and instances, each all at once, into the
 * design, and the CSR arrays made from them once the netlist is read. */
#include "design/design_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/vec.h"
#include "verilog/verilog.h"

/* What the builder keeps while the reader runs. */
typedef struct builder {
    design *dg;
    diag_ctx *d;
    vec_ptr pin_name_lists; /* by lib cell index: the cell's pin names, made on demand */
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

/* The design's net value of the reader's. */
static uint8_t design_value_of(vlog_value value)
{
    return value == VLOG_VALUE_0   ? DESIGN_VALUE_0
           : value == VLOG_VALUE_1 ? DESIGN_VALUE_1
           : value == VLOG_VALUE_X ? DESIGN_VALUE_X
                                   : DESIGN_VALUE_SIGNAL;
}

/* Each net's canonical name (its first) and every name's net; a name given
 * to two nets is an error. */
static gp_status name_nets(builder *b, const vlog_nets *nets, const uint32_t *ids)
{
    design *dg = b->dg;
    size_t names = strtab_count(&dg->net_names);
    dg->net_name = mem_alloc((nets->count ? nets->count : 1) * sizeof *dg->net_name);
    dg->net_of_name = mem_alloc((names ? names : 1) * sizeof *dg->net_of_name);
    if (!dg->net_name || !dg->net_of_name)
        return out_of_memory(b);
    memset(dg->net_name, 0xff, nets->count * sizeof *dg->net_name); /* STRTAB_NONE */
    memset(dg->net_of_name, 0xff, names * sizeof *dg->net_of_name); /* DESIGN_NONE */
    for (uint64_t k = 0; k < nets->n_names; k++) {
        uint32_t net = nets->name_net[k];
        if (dg->net_of_name[ids[k]] != DESIGN_NONE) {
            diag_error(b->d, 7002, DIAG_NOWHERE,
                       "two different nets are both called '%.*s' in the flattened netlist; "
                       "rename one (an escaped name containing '/' can clash with a "
                       "hierarchical name)",
                       (int)nets->names[k].len, nets->names[k].s);
            return GP_ERR_INPUT;
        }
        dg->net_of_name[ids[k]] = net;
        if (dg->net_name[net] == STRTAB_NONE)
            dg->net_name[net] = ids[k];
    }
    return GP_OK;
}

static gp_status add_nets(void *ctx, const vlog_nets *nets)
{
    builder *b = ctx;
    design *dg = b->dg;
    dg->n_nets = nets->count;
    dg->net_value = mem_alloc(nets->count + 1u);
    uint32_t *ids = mem_alloc((nets->n_names + 1) * sizeof *ids);
    gp_status st = dg->net_value && ids ? GP_OK : out_of_memory(b);
    for (uint32_t n = 0; st == GP_OK && n < nets->count; n++)
        dg->net_value[n] = design_value_of((vlog_value)nets->value[n]);
    if (st == GP_OK && !strtab_intern_all(&dg->net_names, nets->names, nets->n_names, ids,
                                          UINT32_MAX))
        st = out_of_memory(b);
    if (st == GP_OK)
        st = name_nets(b, nets, ids);
    mem_free(ids);
    return st;
}

/* The ports, named by their nets' names (verilog.h), which add_nets
 * interned. */
static gp_status add_ports(void *ctx, const vlog_ports *ports)
{
    builder *b = ctx;
    design *dg = b->dg;
    if (!(dg->ports = mem_alloc((ports->count + 1u) * sizeof *dg->ports)))
        return out_of_memory(b);
    for (uint32_t k = 0; k < ports->count; k++) {
        uint32_t id = strtab_find(&dg->net_names, ports->names[k].s, ports->names[k].len);
        if (id == STRTAB_NONE || dg->net_of_name[id] != ports->net[k])
            return GP_ERR_INPUT; /* a promise broken: the reader's message 3090 says so */
        int dir = ports->dir[k] == VLOG_DIR_INPUT    ? DESIGN_PORT_INPUT
                  : ports->dir[k] == VLOG_DIR_OUTPUT ? DESIGN_PORT_OUTPUT
                                                     : DESIGN_PORT_INOUT;
        dg->ports[k] = (design_port){id, dir, ports->net[k]};
    }
    dg->n_ports = ports->count;
    return GP_OK;
}

/* The instances' names (a name given twice is an error), cells and pins. */
static gp_status add_instances(void *ctx, const vlog_instances *insts)
{
    _Static_assert(VLOG_NO_NET == DESIGN_NONE, "an unconnected pin's net is the same");
    builder *b = ctx;
    design *dg = b->dg;
    size_t n = insts->count, pins = insts->pin0[n];
    dg->inst_name = mem_alloc((n + 1) * sizeof *dg->inst_name);
    dg->inst_cell = mem_alloc((n + 1) * sizeof *dg->inst_cell);
    dg->inst_pin0 = mem_alloc((n + 1) * sizeof *dg->inst_pin0);
    dg->pin_net = mem_alloc((pins + 1) * sizeof *dg->pin_net);
    if (!dg->inst_name || !dg->inst_cell || !dg->inst_pin0 || !dg->pin_net)
        return out_of_memory(b);
    if (!strtab_intern_all(&dg->inst_names, insts->paths, n, dg->inst_name, UINT32_MAX))
        return out_of_memory(b);
    for (size_t i = 0; i < n; i++) {
        if (dg->inst_name[i] != i) {
            diag_error(b->d, 7003, DIAG_NOWHERE, "two instances are both called '%.*s'",
                       (int)insts->paths[i].len, insts->paths[i].s);
            return GP_ERR_INPUT;
        }
        dg->inst_cell[i] = lib_cell_at(dg->libs, insts->cell[i]);
    }
    memcpy(dg->inst_pin0, insts->pin0, (n + 1) * sizeof *dg->inst_pin0);
    memcpy(dg->pin_net, insts->pin_net, pins * sizeof *dg->pin_net);
    dg->n_insts = (uint32_t)n;
    dg->n_pins = (uint32_t)pins;
    return GP_OK;
}

static void builder_free(builder *b)
{
    for (size_t i = 0; i < b->pin_name_lists.len; i++)
        mem_free(b->pin_name_lists.data[i]);
    vec_ptr_free(&b->pin_name_lists);
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
    vlog_builder vb = {.ctx = &b, .find_cell = find_cell, .reserve = on_sizes,
                       .add_nets = add_nets, .add_ports = add_ports,
                       .add_instances = add_instances};
    gp_status st = vlog_read(paths, n_paths, top, &vb, bar, d);
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
