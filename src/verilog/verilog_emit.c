/* verilog_emit.c: the flattened design handed to the builder in three
 * calls (nets, the top's ports, the library cell instances), the nets and
 * instances made on threads, the ports from the nets' own names and nets.
 * Parts take ranges of flat bits, or of the nodes' instance
 * statements; each counts what its range holds (nets, names' text,
 * instances, pins), and from the prefix sums of those counts each then
 * writes its own places of the arrays: the same arrays, in the same order,
 * whatever the number of parts.
 *
 * A bit's name is its node's prefix, its signal's name and, for a vector,
 * "[index]"; a top-level scalar's name is the signal's sym as the syms
 * table holds it, which outlives the calls, and only the others are
 * written out. */
#include "verilog/verilog_int.h"

#include "util/bitname.h"
#include "util/mem.h"
#include "util/parts.h"

/* Instances ahead of the one emitted whose nets are fetched. */
#define VLOG_EMIT_AHEAD 8

/* --- names ------------------------------------------------------------------ */

/* Bit k's index as the signal declares it. */
static int64_t vlog_bit_index(const vlog_signal *s, uint32_t k)
{
    return s->msb >= s->lsb ? (int64_t)s->msb - k : (int64_t)s->msb + k;
}

static size_t vlog_index_len(int64_t index)
{
    char text[BITNAME_INDEX_MAX];
    return bitname_index(index, text);
}

/* Whether bit names of s in node n are written out (else the sym is the
 * name). */
static bool vlog_name_written(const vlog_node *n, const vlog_signal *s)
{
    return n->prefix_len > 0 || (s->flags & VLOG_SIG_VECTOR);
}

size_t vlog_bit_name_len(const vlog_elab *e, const vlog_node *n, const vlog_signal *s, uint32_t k)
{
    size_t len = n->prefix_len + strtab_len(&e->r->syms, s->name);
    return (s->flags & VLOG_SIG_VECTOR) ? len + vlog_index_len(vlog_bit_index(s, k)) : len;
}

size_t vlog_bit_name_write(const vlog_elab *e, const vlog_node *n, const vlog_signal *s,
                           uint32_t k, char *out)
{
    size_t sym_len = strtab_len(&e->r->syms, s->name);
    memcpy(out, vlog_prefix(e, n), n->prefix_len);
    memcpy(out + n->prefix_len, vlog_sym(e->r, s->name), sym_len);
    size_t len = n->prefix_len + sym_len;
    if (s->flags & VLOG_SIG_VECTOR)
        len += bitname_index(vlog_bit_index(s, k), out + len);
    return len;
}

/* Bit k of s in node n as a name: its sym, or written at *text (which
 * moves past it). */
static strtab_ref vlog_bit_ref(const vlog_elab *e, const vlog_node *n, const vlog_signal *s,
                               uint32_t k, char **text)
{
    if (!vlog_name_written(n, s))
        return (strtab_ref){vlog_sym(e->r, s->name), strtab_len(&e->r->syms, s->name)};
    strtab_ref ref = {*text, vlog_bit_name_write(e, n, s, k, *text)};
    *text += ref.len;
    return ref;
}

/* --- walking the flat bits --------------------------------------------------- */

/* Each module's signals in layout order (ports in port-list order, then
 * the others as declared), which is the order of their bits. */
typedef struct vlog_layout {
    uint32_t *sig;  /* signal indices */
    uint32_t *sig0; /* [modules + 1]: a module's are sig[sig0[m] .. sig0[m + 1]) */
} vlog_layout;

static bool vlog_layout_make(const vlog_reader *r, vlog_layout *l)
{
    l->sig = mem_alloc((r->signals.len + 1) * sizeof *l->sig);
    l->sig0 = mem_alloc((r->modules.len + 1) * sizeof *l->sig0);
    if (!l->sig || !l->sig0)
        return false;
    uint32_t at = 0;
    for (size_t i = 0; i < r->modules.len; i++) {
        const vlog_module *m = &r->modules.data[i];
        l->sig0[i] = at;
        for (uint32_t p = 0; p < m->nport; p++)
            l->sig[at++] = r->ports.data[m->port0 + p];
        for (uint32_t j = 0; j < m->nsig; j++)
            if (!(r->signals.data[m->sig0 + j].flags & VLOG_SIG_PORT))
                l->sig[at++] = m->sig0 + j;
    }
    l->sig0[r->modules.len] = at;
    return true;
}

static void vlog_layout_free(vlog_layout *l)
{
    mem_free(l->sig);
    mem_free(l->sig0);
}

/* A place among the flat bits past the literals: node, signal, bit. */
typedef struct vlog_walk {
    const vlog_elab *e;
    const vlog_layout *layout;
    size_t node;
    const vlog_node *n;
    uint32_t at, end; /* the signal's place in layout.sig, and its module's end */
    const vlog_signal *s;
    uint32_t k, width;
} vlog_walk;

static void vlog_walk_signal(vlog_walk *w)
{
    w->s = &w->e->r->signals.data[w->layout->sig[w->at]];
    w->width = vlog_signal_width(w->s);
}

/* Moves to the first signal of node w->node or of the next one that has
 * bits (past the last node, to none: the walk is over). */
static void vlog_walk_node(vlog_walk *w)
{
    for (; w->node < w->e->nodes.len; w->node++) {
        w->n = &w->e->nodes.data[w->node];
        w->at = w->layout->sig0[w->n->module];
        w->end = w->layout->sig0[w->n->module + 1];
        if (w->at < w->end) {
            vlog_walk_signal(w);
            return;
        }
    }
}

/* The walk at flat bit `bit` (VLOG_LITERAL_BITS <= bit < nbits). */
static vlog_walk vlog_walk_at(const vlog_elab *e, const vlog_layout *layout, uint32_t bit)
{
    vlog_walk w = {.e = e, .layout = layout, .node = vlog_node_of_bit(e, bit)};
    vlog_walk_node(&w);
    uint32_t offset = bit - w.n->base, a = w.at, b = w.end; /* the last signal at or before */
    while (b - a > 1) {
        uint32_t mid = a + (b - a) / 2;
        if (e->r->signals.data[layout->sig[mid]].offset <= offset)
            a = mid;
        else
            b = mid;
    }
    w.at = a;
    vlog_walk_signal(&w);
    w.k = offset - w.s->offset;
    return w;
}

static void vlog_walk_next(vlog_walk *w)
{
    if (++w->k < w->width)
        return;
    w->k = 0;
    if (++w->at < w->end) {
        vlog_walk_signal(w);
        return;
    }
    w->node++;
    vlog_walk_node(w);
}

/* --- the nets ------------------------------------------------------------------ */

typedef struct vlog_net_job {
    vlog_elab *e;
    const vlog_layout *layout;
    uint32_t literals;  /* the literal nets used: nets and names before the bits' */
    uint64_t *roots;    /* [parts]: roots among the part's bits, then its first net */
    uint64_t *text;     /* [parts]: bytes of its written names, then its first byte */
    char *text_all;
    uint8_t *value;     /* by net */
    strtab_ref *names;  /* the literals', then the bits' from VLOG_LITERAL_BITS on */
    uint32_t *name_net;
} vlog_net_job;

static uint32_t vlog_part_bit(const vlog_elab *e, uint32_t part, uint32_t parts)
{
    uint64_t n = e->nbits - VLOG_LITERAL_BITS;
    return VLOG_LITERAL_BITS + (uint32_t)parts_begin(n, part, parts);
}

static void vlog_count_nets_part(void *ctx, uint32_t part, uint32_t parts)
{
    vlog_net_job *j = ctx;
    const vlog_elab *e = j->e;
    uint32_t lo = vlog_part_bit(e, part, parts), hi = vlog_part_bit(e, part + 1, parts);
    uint64_t roots = 0, text = 0;
    vlog_walk w = lo < hi ? vlog_walk_at(e, j->layout, lo) : (vlog_walk){0};
    for (uint32_t b = lo; b < hi; b++, vlog_walk_next(&w)) {
        roots += e->parent[b] == b;
        if (vlog_name_written(w.n, w.s))
            text += vlog_bit_name_len(e, w.n, w.s, w.k);
    }
    j->roots[part] = roots;
    j->text[part] = text;
}

/* The roots' nets and values, numbered in bit order. */
static void vlog_root_nets_part(void *ctx, uint32_t part, uint32_t parts)
{
    vlog_net_job *j = ctx;
    vlog_elab *e = j->e;
    uint32_t lo = vlog_part_bit(e, part, parts), hi = vlog_part_bit(e, part + 1, parts);
    uint32_t net = (uint32_t)j->roots[part];
    for (uint32_t b = lo; b < hi; b++) {
        if (e->parent[b] != b)
            continue;
        j->value[net] = e->value[b];
        e->net_of[b] = net++;
    }
}

/* Every bit's net (its root's) and name. */
static void vlog_name_nets_part(void *ctx, uint32_t part, uint32_t parts)
{
    vlog_net_job *j = ctx;
    vlog_elab *e = j->e;
    uint32_t lo = vlog_part_bit(e, part, parts), hi = vlog_part_bit(e, part + 1, parts);
    char *text = j->text_all + j->text[part];
    vlog_walk w = lo < hi ? vlog_walk_at(e, j->layout, lo) : (vlog_walk){0};
    for (uint32_t b = lo; b < hi; b++, vlog_walk_next(&w)) {
        uint32_t net = e->net_of[e->parent[b]];
        size_t k = j->literals + (b - VLOG_LITERAL_BITS);
        e->net_of[b] = net;
        j->names[k] = vlog_bit_ref(e, w.n, w.s, w.k, &text);
        j->name_net[k] = net;
    }
}

/* The literal nets that are used come first, as nets 0, 1, ... */
static void vlog_literal_nets(vlog_net_job *j)
{
    static const char *const literal[] = {"1'b0", "1'b1", "1'bx"};
    vlog_elab *e = j->e;
    uint32_t net = 0;
    for (uint32_t v = 0; v < VLOG_LITERAL_BITS; v++) {
        if (!e->r->literal_used[v])
            continue;
        j->value[net] = e->value[v];
        j->names[net] = (strtab_ref){literal[v], 4};
        j->name_net[net] = net;
        e->net_of[v] = net++;
    }
}

/* Exclusive prefix sums of counts[0 .. n), each plus `start`; the total. */
static uint64_t vlog_prefix_sums(uint64_t *counts, uint32_t n, uint64_t start)
{
    uint64_t total = start;
    for (uint32_t p = 0; p < n; p++) {
        uint64_t c = counts[p];
        counts[p] = total;
        total += c;
    }
    return total;
}

static const char *vlog_top_name(const vlog_elab *e)
{
    return vlog_sym(e->r, e->r->modules.data[e->nodes.data[0].module].name);
}

/* --- the ports ------------------------------------------------------------------ */

/* The top's port bits: the first flat bits after the literals (the top's
 * block, its ports first in port-list order), so their names and nets are
 * the first of the nets' after the literals'. */
static gp_status vlog_emit_ports(vlog_elab *e, const vlog_layout *layout, const vlog_net_job *j)
{
    vlog_reader *r = e->r;
    const vlog_node *top = &e->nodes.data[0];
    const vlog_module *m = &r->modules.data[top->module];
    const uint32_t *port = &layout->sig[layout->sig0[top->module]];
    uint32_t count = 0;
    for (uint32_t p = 0; p < m->nport; p++)
        count += vlog_signal_width(&r->signals.data[port[p]]);
    uint8_t *dir = mem_alloc(count + 1u);
    if (!dir)
        return vlog_nomem(r);
    for (uint32_t p = 0, i = 0; p < m->nport; p++) {
        const vlog_signal *s = &r->signals.data[port[p]];
        for (uint32_t k = 0; k < vlog_signal_width(s); k++)
            dir[i++] = s->dir;
    }
    vlog_ports ports = {count, j->names + j->literals, dir, j->name_net + j->literals};
    gp_status st = r->b->add_ports(r->b->ctx, &ports);
    if (st != GP_OK)
        st = vlog_builder_failed(r, st, "the ports of design", vlog_top_name(e));
    mem_free(dir);
    return st;
}

/* The nets: counted, numbered, named on threads, then handed over; then
 * the ports, named by the same names. */
static gp_status vlog_emit_nets(vlog_elab *e, const vlog_layout *layout)
{
    vlog_reader *r = e->r;
    /* parent[b] <= b: in id order, each bit ends pointing at its root */
    for (uint32_t b = 0; b < e->nbits; b++)
        e->parent[b] = e->parent[e->parent[b]];
    uint32_t parts = parts_for(e->nbits - VLOG_LITERAL_BITS, UINT32_MAX);
    vlog_net_job j = {.e = e, .layout = layout};
    for (uint32_t v = 0; v < VLOG_LITERAL_BITS; v++)
        j.literals += r->literal_used[v];
    uint64_t *counts = mem_alloc(2 * (size_t)parts * sizeof *counts);
    if (!counts)
        return vlog_nomem(r);
    j.roots = counts;
    j.text = counts + parts;
    parts_run(vlog_count_nets_part, &j, parts);
    vlog_nets nets = {.n_names = j.literals + (e->nbits - VLOG_LITERAL_BITS)};
    nets.count = (uint32_t)vlog_prefix_sums(j.roots, parts, j.literals);
    uint64_t text = vlog_prefix_sums(j.text, parts, 0);
    j.value = mem_alloc(nets.count + 1u);
    j.names = mem_alloc((nets.n_names + 1) * sizeof *j.names);
    j.name_net = mem_alloc((nets.n_names + 1) * sizeof *j.name_net);
    j.text_all = mem_alloc(text + 1);
    gp_status st = GP_OK;
    if (!j.value || !j.names || !j.name_net || !j.text_all) {
        st = vlog_nomem(r);
    } else {
        vlog_literal_nets(&j);
        parts_run(vlog_root_nets_part, &j, parts);
        parts_run(vlog_name_nets_part, &j, parts);
        nets.value = j.value;
        nets.names = j.names;
        nets.name_net = j.name_net;
        st = r->b->add_nets(r->b->ctx, &nets);
        st = st == GP_OK ? vlog_emit_ports(e, layout, &j)
                         : vlog_builder_failed(r, st, "the nets of design", vlog_top_name(e));
    }
    mem_free(counts);
    mem_free(j.value);
    mem_free(j.names);
    mem_free(j.name_net);
    mem_free(j.text_all);
    return st;
}

/* --- the instances ----------------------------------------------------------------- */

/* The instance statements of every node, one range: node i's are items
 * item0[i] .. item0[i + 1), in its module's order. */
typedef struct vlog_inst_job {
    vlog_elab *e;
    uint64_t *item0;   /* [nodes + 1] */
    uint64_t *insts;   /* [parts]: the part's cell instances, then its first */
    uint64_t *pins;    /* [parts]: their pins, then the part's first */
    uint64_t *text;    /* [parts]: bytes of their written paths, then its first */
    char *text_all;
    strtab_ref *paths;
    uint32_t *cell, *pin0, *pin_net;
} vlog_inst_job;

/* The node that holds item `item` (< the last item0). */
static size_t vlog_node_of_item(const vlog_inst_job *j, uint64_t item)
{
    size_t lo = 0, hi = j->e->nodes.len; /* the last node whose item0 <= item */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (j->item0[mid] <= item)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static void vlog_count_insts_part(void *ctx, uint32_t part, uint32_t parts)
{
    vlog_inst_job *j = ctx;
    const vlog_reader *r = j->e->r;
    uint64_t n = j->item0[j->e->nodes.len];
    uint64_t lo = parts_begin(n, part, parts), hi = parts_begin(n, part + 1, parts);
    uint64_t insts = 0, pins = 0, text = 0;
    size_t node = lo < hi ? vlog_node_of_item(j, lo) : 0;
    for (uint64_t item = lo; item < hi; item++) {
        while (item >= j->item0[node + 1])
            node++;
        const vlog_node *nd = &j->e->nodes.data[node];
        const vlog_inst *inst =
            &r->insts.data[r->modules.data[nd->module].inst0 + (item - j->item0[node])];
        if (!vlog_is_cell(inst))
            continue;
        insts++;
        pins += r->cells.data[inst->target].npins;
        text += nd->prefix_len ? nd->prefix_len + strtab_len(&r->syms, inst->name) : 0;
    }
    j->insts[part] = insts;
    j->pins[part] = pins;
    j->text[part] = text;
}

/* The nets of the bits that instance inst of node n connects lie in
 * memory no cache holds on a large netlist: their loads start before the
 * instance is emitted. */
static void vlog_prefetch_nets(const vlog_elab *e, const vlog_node *n, const vlog_inst *inst)
{
    const vlog_reader *r = e->r;
    for (uint32_t k = 0; k < inst->nconn; k++) {
        const vlog_conn *c = &r->conns.data[inst->conn0 + k];
        for (uint32_t t = 0; t < c->nterm; t++) {
            const vlog_term *term = &r->terms.data[c->term0 + t];
            if (!(term->ref & VLOG_TERM_CONST))
                __builtin_prefetch(&e->net_of[n->base + term->pos]);
        }
    }
}

/* Instance inst of node n's pins, from pin_net[first] on. */
static void vlog_connect_pins(const vlog_elab *e, const vlog_node *n, const vlog_inst *inst,
                              uint32_t *pin_net)
{
    const vlog_reader *r = e->r;
    const vlog_cell *cell = &r->cells.data[inst->target];
    for (uint32_t p = 0; p < cell->npins; p++)
        pin_net[p] = VLOG_NO_NET;
    for (uint32_t k = 0; k < inst->nconn; k++) {
        const vlog_conn *c = &r->conns.data[inst->conn0 + k];
        if (c->nterm == 0)
            continue;
        const vlog_pin_group *g = &r->groups.data[cell->group0 + c->pin];
        vlog_bit_iter it = vlog_bits(r, c, n->base);
        for (uint32_t b = 0; b < g->width; b++) {
            uint32_t bit;
            vlog_next_bit(&it, &bit);
            pin_net[r->pin_bits.data[g->bit0 + b].pin] = e->net_of[bit];
        }
    }
}

static void vlog_fill_insts_part(void *ctx, uint32_t part, uint32_t parts)
{
    vlog_inst_job *j = ctx;
    const vlog_elab *e = j->e;
    const vlog_reader *r = e->r;
    uint64_t n = j->item0[e->nodes.len];
    uint64_t lo = parts_begin(n, part, parts), hi = parts_begin(n, part + 1, parts);
    uint32_t id = (uint32_t)j->insts[part], pin = (uint32_t)j->pins[part];
    char *text = j->text_all + j->text[part];
    size_t node = lo < hi ? vlog_node_of_item(j, lo) : 0;
    for (uint64_t item = lo; item < hi; item++) {
        while (item >= j->item0[node + 1])
            node++;
        const vlog_node *nd = &e->nodes.data[node];
        const vlog_module *m = &r->modules.data[nd->module];
        uint64_t k = item - j->item0[node];
        if (k + VLOG_EMIT_AHEAD < m->ninst)
            vlog_prefetch_nets(e, nd, &r->insts.data[m->inst0 + k + VLOG_EMIT_AHEAD]);
        const vlog_inst *inst = &r->insts.data[m->inst0 + k];
        if (!vlog_is_cell(inst))
            continue;
        strtab_ref name = {vlog_sym(r, inst->name), strtab_len(&r->syms, inst->name)};
        if (nd->prefix_len) {
            memcpy(text, vlog_prefix(e, nd), nd->prefix_len);
            memcpy(text + nd->prefix_len, name.s, name.len);
            name = (strtab_ref){text, nd->prefix_len + name.len};
            text += name.len;
        }
        j->paths[id] = name;
        j->cell[id] = r->cells.data[inst->target].id;
        j->pin0[id++] = pin;
        vlog_connect_pins(e, nd, inst, &j->pin_net[pin]);
        pin += r->cells.data[inst->target].npins;
    }
}

static void vlog_inst_job_free(vlog_inst_job *j)
{
    mem_free(j->item0);
    mem_free(j->insts);
    mem_free(j->text_all);
    mem_free(j->paths);
    mem_free(j->cell);
    mem_free(j->pin0);
    mem_free(j->pin_net);
}

/* Room for the instances, pins and path text the counts found; false
 * when there is none. */
static bool vlog_inst_arrays(vlog_inst_job *j, const vlog_instances *insts, uint64_t pins,
                             uint64_t text)
{
    j->text_all = mem_alloc(text + 1);
    j->paths = mem_alloc(((size_t)insts->count + 1) * sizeof *j->paths);
    j->cell = mem_alloc(((size_t)insts->count + 1) * sizeof *j->cell);
    j->pin0 = mem_alloc(((size_t)insts->count + 1) * sizeof *j->pin0);
    j->pin_net = mem_alloc((pins + 1) * sizeof *j->pin_net);
    return j->text_all && j->paths && j->cell && j->pin0 && j->pin_net;
}

static gp_status vlog_emit_instances(vlog_elab *e)
{
    vlog_reader *r = e->r;
    vlog_inst_job j = {.e = e};
    j.item0 = mem_alloc((e->nodes.len + 1) * sizeof *j.item0);
    if (!j.item0)
        return vlog_nomem(r);
    j.item0[0] = 0;
    for (size_t i = 0; i < e->nodes.len; i++)
        j.item0[i + 1] = j.item0[i] + r->modules.data[e->nodes.data[i].module].ninst;
    uint32_t parts = parts_for(j.item0[e->nodes.len], UINT32_MAX);
    if (!(j.insts = mem_alloc(3 * (size_t)parts * sizeof *j.insts))) {
        vlog_inst_job_free(&j);
        return vlog_nomem(r);
    }
    j.pins = j.insts + parts;
    j.text = j.pins + parts;
    parts_run(vlog_count_insts_part, &j, parts);
    vlog_instances insts = {.count = (uint32_t)vlog_prefix_sums(j.insts, parts, 0)};
    uint64_t pins = vlog_prefix_sums(j.pins, parts, 0);
    uint64_t text = vlog_prefix_sums(j.text, parts, 0);
    gp_status st = GP_OK;
    if (!vlog_inst_arrays(&j, &insts, pins, text)) {
        st = vlog_nomem(r);
    } else {
        parts_run(vlog_fill_insts_part, &j, parts);
        j.pin0[insts.count] = (uint32_t)pins;
        insts.paths = j.paths;
        insts.cell = j.cell;
        insts.pin0 = j.pin0;
        insts.pin_net = j.pin_net;
        st = r->b->add_instances(r->b->ctx, &insts);
        if (st != GP_OK)
            st = vlog_builder_failed(r, st, "the instances of design", vlog_top_name(e));
    }
    vlog_inst_job_free(&j);
    return st;
}

gp_status vlog_emit(vlog_elab *e)
{
    vlog_layout layout = {0};
    gp_status st = vlog_layout_make(e->r, &layout) ? GP_OK : vlog_nomem(e->r);
    if (st == GP_OK)
        st = vlog_emit_nets(e, &layout);
    if (st == GP_OK)
        st = vlog_emit_instances(e);
    vlog_layout_free(&layout);
    return st;
}
