/* verilog_check.c: links the modules below the top: each instance to a
 * library cell (through the builder's find_cell, once per cell name) or a
 * module, each connection to a pin or port, with widths checked; detects
 * recursive instantiation and adds up the flattened sizes.  Each reachable
 * module is checked once, however often it is instantiated, and before any
 * builder call that adds to the design. */
#include <stdlib.h>

#include "verilog/verilog_int.h"

typedef struct vlog_frame {
    uint32_t module, next; /* the module and its next instance to look at */
} vlog_frame;
VEC_DECLARE(vlog_frame_vec, vlog_frame)

/* A pin of a cell being grouped into buses. */
typedef struct vlog_member {
    uint32_t group; /* within the cell */
    int32_t index;
    uint32_t pin;
} vlog_member;

static uint64_t vlog_add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

/* Whether `name` is a bus bit "base[index]"; *base_len then ends the base. */
static bool vlog_bus_bit(const char *name, size_t len, size_t *base_len, int32_t *index)
{
    const char *open = len ? memchr(name, '[', len) : NULL;
    int64_t v;
    if (!open || open == name || name[len - 1] != ']' ||
        !tok_parse_i64(open + 1, (size_t)(name + len - 1 - open - 1), &v) || v < INT32_MIN ||
        v > INT32_MAX)
        return false;
    *base_len = (size_t)(open - name);
    *index = (int32_t)v;
    return true;
}

static int vlog_member_cmp(const void *pa, const void *pb)
{
    const vlog_member *a = pa, *b = pb;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    return a->index > b->index ? -1 : a->index < b->index; /* highest index first */
}

static gp_status vlog_bad_cell(vlog_reader *r, diag_loc loc, const char *cell, const char *pin)
{
    diag_error(r->d, 3069, loc,
               "library cell '%s' has pin '%s' twice (or a pin and a bus bit of one name): fix "
               "the library",
               cell, pin);
    return GP_ERR_INPUT;
}

/* The group of `name` among the cell's groups so far, or ngroup. */
uint32_t vlog_find_group(const vlog_reader *r, const vlog_cell *cell, uint32_t name)
{
    uint32_t g = 0;
    while (g < cell->ngroup && r->groups.data[cell->group0 + g].name != name)
        g++;
    return g;
}

/* Sorts the members by group and falling index and lays out pin_bits. */
static gp_status vlog_layout_groups(vlog_reader *r, vlog_cell *cell, vlog_member *members,
                                    size_t n, diag_loc loc, const vlog_cell_info *info)
{
    qsort(members, n, sizeof *members, vlog_member_cmp);
    for (size_t i = 0; i < n; i++) {
        vlog_pin_group *g = &r->groups.data[cell->group0 + members[i].group];
        if (i > 0 && members[i].group == members[i - 1].group &&
            members[i].index == members[i - 1].index)
            return vlog_bad_cell(r, loc, vlog_sym(r, cell->name), info->pin_names[members[i].pin]);
        if (g->width++ == 0)
            g->bit0 = (uint32_t)r->pin_bits.len;
        if (!vlog_pin_bit_vec_push(&r->pin_bits, (vlog_pin_bit){members[i].index, members[i].pin}))
            return vlog_nomem(r);
    }
    return GP_OK;
}

/* Groups the cell's scalar pins into pins and buses (verilog.h). */
static gp_status vlog_build_groups(vlog_reader *r, vlog_cell *cell, const vlog_cell_info *info,
                                   diag_loc loc)
{
    size_t n = info->pin_count > 0 ? (size_t)info->pin_count : 0;
    vlog_member *members = mem_alloc(n * sizeof *members + 1);
    if (!members)
        return vlog_nomem(r);
    cell->group0 = (uint32_t)r->groups.len;
    gp_status st = GP_OK;
    for (size_t i = 0; i < n && st == GP_OK; i++) {
        const char *name = info->pin_names[i];
        size_t len = strlen(name), base_len = len;
        int32_t index = 0;
        bool bus = vlog_bus_bit(name, len, &base_len, &index);
        uint32_t sym = strtab_intern(&r->syms, name, base_len);
        if (sym == STRTAB_NONE) {
            st = vlog_nomem(r);
            break;
        }
        uint32_t g = vlog_find_group(r, cell, sym);
        if (g == cell->ngroup) {
            if (!vlog_group_vec_push(&r->groups, (vlog_pin_group){sym, 0, 0, bus}))
                st = vlog_nomem(r);
            cell->ngroup++;
        } else if (!bus || !r->groups.data[cell->group0 + g].is_bus) {
            st = vlog_bad_cell(r, loc, vlog_sym(r, cell->name), name);
        }
        members[i] = (vlog_member){g, index, (uint32_t)i};
    }
    if (st == GP_OK)
        st = vlog_layout_groups(r, cell, members, n, loc, info);
    mem_free(members);
    return st;
}

/* The cell named `sym` (index into r->cells), or *found false. */
static gp_status vlog_lookup_cell(vlog_reader *r, uint32_t sym, diag_loc loc, bool *found,
                                  uint32_t *index)
{
    uint32_t cached = r->cell_of.data[sym];
    *found = cached != 0 && cached != UINT32_MAX;
    *index = cached - 1;
    if (cached != 0)
        return GP_OK;
    vlog_cell_info info = {0};
    if (!r->b->find_cell(r->b->ctx, vlog_sym(r, sym), &info)) {
        r->cell_of.data[sym] = UINT32_MAX;
        return GP_OK;
    }
    if (info.pin_count > 0 && !info.pin_names)
        return vlog_builder_failed(r, GP_ERR_INPUT, "to list the pins of cell", vlog_sym(r, sym));
    uint32_t npins = info.pin_count > 0 ? (uint32_t)info.pin_count : 0;
    vlog_cell cell = {.name = sym, .id = info.id, .npins = npins};
    gp_status st = vlog_build_groups(r, &cell, &info, loc);
    if (st != GP_OK)
        return st;
    if (r->cells.len >= UINT32_MAX - 1 || !vlog_cell_vec_push(&r->cells, cell))
        return vlog_nomem(r);
    *index = (uint32_t)r->cells.len - 1;
    r->cell_of.data[sym] = *index + 1;
    *found = true;
    return GP_OK;
}

/* Whether every connection of inst is empty (or it has none). */
static bool vlog_connects_nothing(const vlog_reader *r, const vlog_inst *inst)
{
    for (uint32_t k = 0; k < inst->nconn; k++)
        if (r->conns.data[inst->conn0 + k].nterm > 0)
            return false;
    return true;
}

/* Warning 3108, once per cell type: its instances, in no library and
 * connecting nothing, are left out, as OpenSTA links them as black boxes. */
static gp_status vlog_black_box(vlog_reader *r, const vlog_inst *inst, diag_loc loc)
{
    if (inst->type >= r->boxed.len && !vec_u8_resize(&r->boxed, inst->type + 1 + r->boxed.len / 2))
        return vlog_nomem(r);
    if (r->boxed.data[inst->type])
        return GP_OK;
    r->boxed.data[inst->type] = 1;
    diag_warn(r->d, 3108, loc, "'%s' is in no library and its instances (as '%s') connect "
              "nothing: left out as black boxes, as physical cells (taps, fill, decaps, end "
              "caps) are; they add no power", vlog_sym(r, inst->type), vlog_sym(r, inst->name));
    return GP_OK;
}

/* Sets inst->target: a module of the netlist, else a library cell.  A module
 * with nothing inside (a black-box declaration) gives way to a library cell
 * of its name. */
static gp_status vlog_resolve_target(vlog_reader *r, const vlog_module *m, vlog_inst *inst)
{
    diag_loc loc = vlog_loc(r, m->file, inst->line, inst->col);
    uint32_t module = r->module_of.data[inst->type];
    if (module && !r->modules.data[module - 1].is_blackbox) {
        inst->target = VLOG_TARGET_MODULE | (module - 1);
        return GP_OK;
    }
    bool found;
    uint32_t cell;
    gp_status st = vlog_lookup_cell(r, inst->type, loc, &found, &cell);
    if (st != GP_OK)
        return st;
    if (found) {
        inst->target = cell;
    } else if (module) {
        inst->target = VLOG_TARGET_MODULE | (module - 1);
    } else if (vlog_connects_nothing(r, inst)) {
        inst->target = VLOG_TARGET_NONE;
        return vlog_black_box(r, inst, loc);
    } else {
        diag_error(r->d, 3060, loc,
                   "instance '%s': '%s' is neither a library cell nor a module of the netlist: "
                   "read the library that has it, or the netlist file that defines it",
                   vlog_sym(r, inst->name), vlog_sym(r, inst->type));
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* Marks `key` (a port, or a cell's pin group) as connected by instance
 * `stamp`; an error when that instance connected it already. */
static gp_status vlog_mark_seen(vlog_reader *r, size_t key, uint32_t stamp, diag_loc loc,
                                const char *pin)
{
    if (key >= r->seen.len && !vec_u32_resize(&r->seen, key + 1 + r->seen.len / 2))
        return vlog_nomem(r);
    if (r->seen.data[key] == stamp) {
        diag_error(r->d, 3064, loc, "'%s' is connected twice in this instance: remove one", pin);
        return GP_ERR_INPUT;
    }
    r->seen.data[key] = stamp;
    return GP_OK;
}

static gp_status vlog_too_many(vlog_reader *r, diag_loc loc, const vlog_inst *inst, size_t have)
{
    diag_error(r->d, 3065, loc,
               "instance '%s' has more ordered connections than '%s' has pins or ports (%zu)",
               vlog_sym(r, inst->name), vlog_sym(r, inst->type), have);
    return GP_ERR_INPUT;
}

/* Fits an unsized constant and checks the width of connection c against
 * the `width` of its pin or port. */
static gp_status vlog_check_width(vlog_reader *r, const vlog_module *m, const vlog_inst *inst,
                                  const vlog_conn *c, const char *pin, uint32_t width)
{
    bool fits;
    gp_status st = vlog_fit_unsized(r, c, width, &fits);
    if (st != GP_OK)
        return st;
    uint64_t have = vlog_conn_width(r, c);
    if (fits && have == width)
        return GP_OK;
    char why[96];
    if (fits)
        snprintf(why, sizeof why, "it has %u bits, the connection %llu", (unsigned)width,
                 (unsigned long long)have);
    else
        snprintf(why, sizeof why, "the constant's value does not fit in %u bit(s)",
                 (unsigned)width);
    diag_error(r->d, 3066, vlog_loc(r, m->file, c->line, c->col),
               "width mismatch on '%s' of instance '%s' (%s): %s", pin, vlog_sym(r, inst->name),
               vlog_sym(r, inst->type), why);
    return GP_ERR_INPUT;
}

void vlog_mark_literals(const vlog_reader *r, const vlog_conn *c, bool *used)
{
    for (uint32_t i = 0; i < c->nterm; i++) {
        const vlog_term *t = &r->terms.data[c->term0 + i];
        if (t->ref & VLOG_TERM_CONST)
            for (uint32_t k = 0; k < t->width; k++)
                used[r->const_bits.data[t->pos + k] - 1] = true;
    }
}

/* The cell's pins and buses, listed with vlog_text. */
static const char *vlog_pin_list(vlog_reader *r, const vlog_cell *cell)
{
    vlog_text_reset(r);
    for (uint32_t g = 0; g < cell->ngroup; g++) {
        const char *name = vlog_sym(r, r->groups.data[cell->group0 + g].name);
        vlog_text_add(r, ", ", g > 0 ? 2 : 0);
        vlog_text_add(r, name, strlen(name));
    }
    return vlog_text(r);
}

/* The connections of an instance of a library cell; *bits counts the pin
 * bits connected. */
static gp_status vlog_check_cell_inst(vlog_reader *r, const vlog_module *m, const vlog_inst *inst,
                                      uint32_t stamp, uint64_t *bits)
{
    const vlog_cell *cell = &r->cells.data[inst->target];
    for (uint32_t k = 0; k < inst->nconn; k++) {
        vlog_conn *c = &r->conns.data[inst->conn0 + k];
        diag_loc loc = vlog_loc(r, m->file, c->line, c->col);
        uint32_t g = inst->ordered ? c->pin : vlog_find_group(r, cell, c->pin);
        if (inst->ordered && g >= cell->ngroup)
            return vlog_too_many(r, loc, inst, cell->ngroup);
        if (g >= cell->ngroup) {
            diag_error(r->d, 3062, loc, "cell '%s' has no pin '%s' (its pins: %s)",
                       vlog_sym(r, cell->name), vlog_sym(r, c->pin), vlog_pin_list(r, cell));
            return GP_ERR_INPUT;
        }
        const vlog_pin_group *group = &r->groups.data[cell->group0 + g];
        const char *pin = vlog_sym(r, group->name);
        gp_status st = vlog_mark_seen(r, r->ports.len + cell->group0 + g, stamp, loc, pin);
        if (st != GP_OK)
            return st;
        c->pin = g;
        if (c->nterm == 0)
            continue; /* left unconnected */
        if ((st = vlog_check_width(r, m, inst, c, pin, group->width)) != GP_OK)
            return st;
        vlog_mark_literals(r, c, r->literal_used);
        *bits += group->width;
    }
    return GP_OK;
}

/* The port of `child` named `name`, or child->nport. */
static uint32_t vlog_find_port(const vlog_reader *r, const vlog_module *child, uint32_t name)
{
    uint32_t i = 0;
    while (i < child->nport && r->signals.data[r->ports.data[child->port0 + i]].name != name)
        i++;
    return i;
}

/* The connections of an instance of a module. */
static gp_status vlog_check_module_inst(vlog_reader *r, const vlog_module *m,
                                        const vlog_inst *inst, uint32_t stamp)
{
    const vlog_module *child = &r->modules.data[inst->target & ~VLOG_TARGET_MODULE];
    for (uint32_t k = 0; k < inst->nconn; k++) {
        vlog_conn *c = &r->conns.data[inst->conn0 + k];
        diag_loc loc = vlog_loc(r, m->file, c->line, c->col);
        uint32_t port = inst->ordered ? c->pin : vlog_find_port(r, child, c->pin);
        if (inst->ordered && port >= child->nport)
            return vlog_too_many(r, loc, inst, child->nport);
        if (port >= child->nport) {
            diag_error(r->d, 3063, loc, "module '%s' has no port '%s'", vlog_sym(r, child->name),
                       vlog_sym(r, c->pin));
            return GP_ERR_INPUT;
        }
        const vlog_signal *s = &r->signals.data[r->ports.data[child->port0 + port]];
        const char *name = vlog_sym(r, s->name);
        gp_status st = vlog_mark_seen(r, child->port0 + port, stamp, loc, name);
        if (st != GP_OK)
            return st;
        c->pin = port;
        if (c->nterm > 0 && (st = vlog_check_width(r, m, inst, c, name, vlog_signal_width(s))) != GP_OK)
            return st;
    }
    return GP_OK;
}

/* Checks instance i of m (its target resolved, a module's checked) and
 * adds its flattened sizes to m's. */
static gp_status vlog_check_instance(vlog_reader *r, vlog_module *m, uint32_t i)
{
    uint32_t index = m->inst0 + i;
    const vlog_inst *inst = &r->insts.data[index];
    gp_status st;
    if (inst->target == VLOG_TARGET_NONE)
        return GP_OK;
    if (!(inst->target & VLOG_TARGET_MODULE)) {
        uint64_t bits = 0;
        if ((st = vlog_check_cell_inst(r, m, inst, index + 1, &bits)) != GP_OK)
            return st;
        m->flat_insts++;
        m->flat_pins += r->cells.data[inst->target].npins;
        m->flat_conns += bits;
        return GP_OK;
    }
    vlog_module *child = &r->modules.data[inst->target & ~VLOG_TARGET_MODULE];
    if ((st = vlog_check_module_inst(r, m, inst, index + 1)) != GP_OK)
        return st;
    if (child->is_blackbox && !child->warned_empty) {
        child->warned_empty = true;
        diag_warn(r->d, 3107, vlog_loc(r, m->file, inst->line, inst->col),
                  "module '%s' is empty and no library cell has its name: its instances "
                  "add no cells",
                  vlog_sym(r, child->name));
    }
    m->flat_bits = vlog_add_sat(m->flat_bits, child->flat_bits);
    m->flat_insts = vlog_add_sat(m->flat_insts, child->flat_insts);
    m->flat_pins = vlog_add_sat(m->flat_pins, child->flat_pins);
    m->flat_conns = vlog_add_sat(m->flat_conns, child->flat_conns);
    m->flat_nodes = vlog_add_sat(m->flat_nodes, child->flat_nodes);
    return GP_OK;
}

/* Checks the connections of m's instances (their targets resolved, the
 * modules below checked) and adds up m's flattened sizes: those of a large
 * module's cell instances that pass quietly on threads first
 * (verilog_check_parts.c), the others here in order. */
static gp_status vlog_check_module(vlog_reader *r, vlog_module *m)
{
    m->flat_bits = m->nbits;
    m->flat_insts = m->flat_pins = m->flat_conns = 0;
    m->flat_nodes = 1;
    uint8_t *settled = vlog_settle_cells(r, m);
    gp_status st = GP_OK;
    for (uint32_t i = 0; i < m->ninst && st == GP_OK; i++)
        if (!settled || !settled[i])
            st = vlog_check_instance(r, m, i);
    mem_free(settled);
    return st;
}

/* Reports that `child`, instantiated by `inst`, is on the DFS stack. */
static gp_status vlog_recursion(vlog_reader *r, const vlog_frame_vec *stack, uint32_t child,
                                const vlog_inst *inst)
{
    const vlog_module *m = &r->modules.data[stack->data[stack->len - 1].module];
    size_t from = 0;
    while (stack->data[from].module != child)
        from++;
    vlog_text_reset(r);
    for (size_t i = from; i < stack->len; i++) {
        const char *name = vlog_sym(r, r->modules.data[stack->data[i].module].name);
        vlog_text_add(r, name, strlen(name));
        vlog_text_add(r, " -> ", 4);
    }
    const char *name = vlog_sym(r, r->modules.data[child].name);
    vlog_text_add(r, name, strlen(name));
    diag_error(r->d, 3061, vlog_loc(r, m->file, inst->line, inst->col),
               "recursive instantiation: instance '%s' closes the loop %s: a module cannot "
               "contain itself",
               vlog_sym(r, inst->name), vlog_text(r));
    return GP_ERR_INPUT;
}

/* One step of the depth-first walk: the next instance of the module on top
 * of the stack, or that module's check once all its instances are seen. */
static gp_status vlog_check_step(vlog_reader *r, vlog_frame_vec *stack)
{
    vlog_frame *f = &stack->data[stack->len - 1];
    vlog_module *m = &r->modules.data[f->module];
    if (f->next == m->ninst) {
        stack->len--;
        m->state = 2;
        return vlog_check_module(r, m);
    }
    vlog_inst *inst = &r->insts.data[m->inst0 + f->next++];
    gp_status st = vlog_resolve_target(r, m, inst);
    if (st != GP_OK || !(inst->target & VLOG_TARGET_MODULE))
        return st;
    uint32_t child = inst->target & ~VLOG_TARGET_MODULE;
    if (r->modules.data[child].state == 1)
        return vlog_recursion(r, stack, child, inst);
    if (r->modules.data[child].state == 2)
        return GP_OK;
    r->modules.data[child].state = 1;
    return vlog_frame_vec_push(stack, (vlog_frame){child, 0}) ? GP_OK : vlog_nomem(r);
}

static gp_status vlog_check_size(vlog_reader *r, const vlog_module *top)
{
    const char *what = top->flat_bits > VLOG_MAX_FLAT_BITS - VLOG_LITERAL_BITS ? "net bits"
                       : top->flat_insts > UINT32_MAX                          ? "instances"
                       : top->flat_pins > UINT32_MAX - 1                       ? "pins"
                       : top->flat_nodes > VLOG_MAX_NODES ? "instances of modules"
                                                          : NULL;
    if (what) {
        diag_error(r->d, 3070, vlog_loc(r, top->file, top->line, top->col),
                   "the flattened design below '%s' has too many %s to read",
                   vlog_sym(r, top->name), what);
        return GP_ERR_UNSUPPORTED;
    }
    if (!r->b->reserve)
        return GP_OK;
    vlog_sizes sizes = {top->flat_bits, top->flat_insts, top->flat_conns, top->flat_nodes - 1,
                        vlog_sym(r, top->name)};
    for (unsigned v = 0; v < VLOG_LITERAL_BITS; v++)
        sizes.names += r->literal_used[v];
    gp_status st = r->b->reserve(r->b->ctx, &sizes);
    return st == GP_OK ? GP_OK
                       : vlog_builder_failed(r, st, "the size of design", vlog_sym(r, top->name));
}

gp_status vlog_check(vlog_reader *r, uint32_t top)
{
    vlog_frame_vec stack = {0};
    gp_status st = vlog_frame_vec_push(&stack, (vlog_frame){top, 0}) ? GP_OK : vlog_nomem(r);
    r->modules.data[top].state = 1;
    while (st == GP_OK && stack.len > 0)
        st = vlog_check_step(r, &stack);
    vlog_frame_vec_free(&stack);
    return st == GP_OK ? vlog_check_size(r, &r->modules.data[top]) : st;
}
