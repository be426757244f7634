/* verilog_elab.c: flattens the checked hierarchy below the top module:
 * lists its nodes and merges their bits into nets, which verilog_emit.c
 * hands to the builder.
 *
 * Every module instance of the flattened design (a "node") owns a block of
 * flat bit ids, one per bit of its module's nets, laid out as vlog_layout_bits
 * says.  Nodes are numbered breadth-first from the top, so flat ids grow with
 * the hierarchy level:
 *
 *   0 1 2          the literal constant nets 1'b0, 1'b1, 1'bx
 *   3 ...          the top module: its ports, then its other nets
 *   ...            the modules one level down, in instance order, and so on
 *
 * Assigns and port connections merge bits in a union-find whose root is
 * always the smallest id of its class: so the root's name is the canonical
 * name verilog.h promises (highest level, ports first, then declaration
 * order), and a root precedes every other member in id order. */
#include "verilog/verilog_int.h"

static uint32_t vlog_find(uint32_t *parent, uint32_t b)
{
    while (parent[b] != b) {
        parent[b] = parent[parent[b]]; /* path halving keeps parent[x] <= x */
        b = parent[b];
    }
    return b;
}

/* --- names ------------------------------------------------------------------ */

/* Writes the flat name of bit `pos` of signal s in node n with vlog_text. */
static const char *vlog_bit_name(vlog_elab *e, const vlog_node *n, const vlog_signal *s,
                                 uint32_t pos)
{
    vlog_reader *r = e->r;
    size_t len = vlog_bit_name_len(e, n, s, pos);
    vlog_text_reset(r);
    if (!vec_u8_reserve(&r->name_buf, len + 1))
        return "";
    r->name_buf.len = vlog_bit_name_write(e, n, s, pos, (char *)r->name_buf.data);
    return vlog_text(r);
}

size_t vlog_node_of_bit(const vlog_elab *e, uint32_t bit)
{
    size_t lo = 0, hi = e->nodes.len; /* the last node whose base <= bit */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (e->nodes.data[mid].base <= bit)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The flat name of any bit (for messages; not fast). */
static const char *vlog_flat_bit_name(vlog_elab *e, uint32_t bit)
{
    static const char *const literal[] = {"1'b0", "1'b1", "1'bx"};
    if (bit < VLOG_LITERAL_BITS)
        return literal[bit];
    const vlog_node *n = &e->nodes.data[vlog_node_of_bit(e, bit)];
    const vlog_module *m = &e->r->modules.data[n->module];
    uint32_t offset = bit - n->base;
    for (uint32_t i = 0; i < m->nsig; i++) {
        const vlog_signal *s = &e->r->signals.data[m->sig0 + i];
        if (offset >= s->offset && offset - s->offset < vlog_signal_width(s))
            return vlog_bit_name(e, n, s, offset - s->offset);
    }
    return "?";
}

/* --- the hierarchy ------------------------------------------------------------ */

/* An instance path longer than this is refused: every flat name below it
 * holds it, so a hierarchy that deep (thousands of levels) would take
 * memory that grows with the square of its depth. */
#define VLOG_MAX_PATH 4096

/* Error 3038 at the instance whose path grew past VLOG_MAX_PATH. */
static gp_status vlog_too_deep(vlog_elab *e, const vlog_module *m, const vlog_inst *inst)
{
    vlog_reader *r = e->r;
    diag_error(r->d, 3038, vlog_loc(r, m->file, inst->line, inst->col),
               "instance '%s': its hierarchical path is longer than %d characters (the module "
               "hierarchy is thousands of levels deep): flatten or shorten the hierarchy",
               vlog_sym(r, inst->name), VLOG_MAX_PATH);
    return GP_ERR_INPUT;
}

static gp_status vlog_push_node(vlog_elab *e, uint32_t module, uint32_t base,
                                const vlog_node *parent, uint32_t inst_name)
{
    vlog_reader *r = e->r;
    vlog_node n = {module, base, e->prefixes.len, 0};
    if (parent) {
        const char *name = vlog_sym(r, inst_name);
        size_t len = strlen(name);
        n.prefix_len = parent->prefix_len + len + 1;
        if (!vec_u8_reserve(&e->prefixes, e->prefixes.len + n.prefix_len))
            return vlog_nomem(r);
        uint8_t *at = e->prefixes.data + e->prefixes.len;
        memcpy(at, vlog_prefix(e, parent), parent->prefix_len);
        memcpy(at + parent->prefix_len, name, len);
        at[n.prefix_len - 1] = '/';
        e->prefixes.len += n.prefix_len;
    }
    return vlog_node_vec_push(&e->nodes, n) ? GP_OK : vlog_nomem(r);
}

/* Lists the nodes breadth-first and gives each its block of flat bits. */
static gp_status vlog_build_nodes(vlog_elab *e, uint32_t top)
{
    vlog_reader *r = e->r;
    if (!vlog_node_vec_reserve(&e->nodes, r->modules.data[top].flat_nodes))
        return vlog_nomem(r);
    gp_status st = vlog_push_node(e, top, VLOG_LITERAL_BITS, NULL, 0);
    uint32_t next = VLOG_LITERAL_BITS + r->modules.data[top].nbits;
    for (size_t i = 0; i < e->nodes.len && st == GP_OK; i++) {
        const vlog_module *m = &r->modules.data[e->nodes.data[i].module];
        for (uint32_t k = 0; k < m->ninst && st == GP_OK; k++) {
            const vlog_inst *inst = &r->insts.data[m->inst0 + k];
            if (!(inst->target & VLOG_TARGET_MODULE))
                continue;
            uint32_t child = inst->target & ~VLOG_TARGET_MODULE;
            vlog_node parent = e->nodes.data[i]; /* a copy: the push may move the array */
            if (parent.prefix_len + strlen(vlog_sym(r, inst->name)) + 1 > VLOG_MAX_PATH)
                return vlog_too_deep(e, m, inst);
            st = vlog_push_node(e, child, next, &parent, inst->name);
            next += r->modules.data[child].nbits;
        }
    }
    e->nbits = next;
    return st;
}

/* --- merging bits --------------------------------------------------------------- */

static gp_status vlog_conflict(vlog_elab *e, const vlog_module *m, const vlog_conn *c,
                               uint32_t bit, uint8_t v1, uint8_t v2)
{
    static const char *const text[] = {"", "1'b0", "1'b1", "1'bx"};
    vlog_reader *r = e->r;
    diag_error(r->d, 3080, vlog_loc(r, m->file, c->line, c->col),
               "net '%s' would be tied to both %s and %s (through assigns, supply nets or port "
               "connections): fix the netlist",
               vlog_flat_bit_name(e, bit), text[v1], text[v2]);
    return GP_ERR_INPUT;
}

/* Ties the class of `bit` to the constant v. */
static gp_status vlog_tie(vlog_elab *e, const vlog_module *m, const vlog_conn *c, uint32_t bit,
                          uint8_t v)
{
    uint32_t root = vlog_find(e->parent, bit);
    if (e->value[root] != VLOG_VALUE_SIGNAL && e->value[root] != v)
        return vlog_conflict(e, m, c, bit, e->value[root], v);
    e->value[root] = v;
    return GP_OK;
}

/* Makes a and b one net; the smaller root stays the root. */
static gp_status vlog_union(vlog_elab *e, const vlog_module *m, const vlog_conn *c, uint32_t a,
                            uint32_t b)
{
    uint32_t ra = vlog_find(e->parent, a), rb = vlog_find(e->parent, b);
    if (ra == rb)
        return GP_OK;
    uint8_t va = e->value[ra], vb = e->value[rb];
    if (va != VLOG_VALUE_SIGNAL && vb != VLOG_VALUE_SIGNAL && va != vb)
        return vlog_conflict(e, m, c, a, va, vb);
    uint32_t keep = ra < rb ? ra : rb, drop = ra < rb ? rb : ra;
    e->parent[drop] = keep;
    e->value[keep] = va != VLOG_VALUE_SIGNAL ? va : vb;
    return GP_OK;
}

/* Joins `width` bits pairwise: a constant on either side ties the other. */
static gp_status vlog_join(vlog_elab *e, const vlog_module *m, const vlog_conn *where,
                           vlog_bit_iter a, vlog_bit_iter b, uint64_t width)
{
    gp_status st = GP_OK;
    for (uint64_t k = 0; k < width && st == GP_OK; k++) {
        uint32_t ba, bb;
        bool ca = vlog_next_bit(&a, &ba), cb = vlog_next_bit(&b, &bb);
        if (ca)
            st = vlog_tie(e, m, where, bb, (uint8_t)(ba + 1));
        else if (cb)
            st = vlog_tie(e, m, where, ba, (uint8_t)(bb + 1));
        else
            st = vlog_union(e, m, where, ba, bb);
    }
    return st;
}

/* The merges that node n's module makes: supply nets, assigns and the port
 * connections of its submodule instances (*child: the node of its next
 * one). */
static gp_status vlog_merge_node(vlog_elab *e, const vlog_node *n, size_t *child)
{
    vlog_reader *r = e->r;
    const vlog_module *m = &r->modules.data[n->module];
    gp_status st = GP_OK;
    for (uint32_t i = 0; i < m->nsig && st == GP_OK; i++) {
        const vlog_signal *s = &r->signals.data[m->sig0 + i];
        uint32_t width = vlog_signal_width(s);
        vlog_conn where = {0, 0, 0, s->line, s->col};
        for (uint32_t k = 0; k < width && s->value != VLOG_VALUE_SIGNAL && st == GP_OK; k++)
            st = vlog_tie(e, m, &where, n->base + s->offset + k, s->value);
    }
    for (uint32_t i = 0; i < m->nasgn && st == GP_OK; i++) {
        const vlog_assign *a = &r->assigns.data[m->asgn0 + i];
        const vlog_conn *lhs = &r->conns.data[a->lhs], *rhs = &r->conns.data[a->rhs];
        st = vlog_join(e, m, lhs, vlog_bits(r, lhs, n->base), vlog_bits(r, rhs, n->base),
                       vlog_conn_width(r, lhs));
    }
    for (uint32_t i = 0; i < m->ninst && st == GP_OK; i++) {
        const vlog_inst *inst = &r->insts.data[m->inst0 + i];
        if (!(inst->target & VLOG_TARGET_MODULE))
            continue;
        const vlog_node *sub = &e->nodes.data[(*child)++];
        const vlog_module *cm = &r->modules.data[sub->module];
        for (uint32_t k = 0; k < inst->nconn && st == GP_OK; k++) {
            const vlog_conn *c = &r->conns.data[inst->conn0 + k];
            uint32_t sig = r->ports.data[cm->port0 + c->pin];
            const vlog_signal *port = &r->signals.data[sig];
            vlog_term whole = {sig, port->offset, vlog_signal_width(port)};
            if (c->nterm > 0)
                st = vlog_join(e, m, c, vlog_bits(r, c, n->base),
                               (vlog_bit_iter){r, &whole, 0, sub->base}, whole.width);
        }
    }
    return st;
}

static gp_status vlog_alloc_bits(vlog_elab *e)
{
    e->parent = mem_alloc((size_t)e->nbits * sizeof *e->parent);
    e->net_of = mem_calloc(e->nbits, sizeof *e->net_of);
    e->value = mem_calloc(e->nbits, 1);
    if (!e->parent || !e->net_of || !e->value)
        return vlog_nomem(e->r);
    for (uint32_t b = 0; b < e->nbits; b++)
        e->parent[b] = b;
    for (uint32_t v = 0; v < VLOG_LITERAL_BITS; v++)
        e->value[v] = (uint8_t)(v + 1);
    return GP_OK;
}

gp_status vlog_elaborate(vlog_reader *r, uint32_t top)
{
    vlog_elab e = {.r = r};
    gp_status st = vlog_build_nodes(&e, top);
    if (st == GP_OK)
        st = vlog_alloc_bits(&e);
    size_t child = 1; /* nodes[0] is the top; its children follow in BFS order */
    for (size_t i = 0; i < e.nodes.len && st == GP_OK; i++)
        st = vlog_merge_node(&e, &e.nodes.data[i], &child);
    if (st == GP_OK)
        st = vlog_emit(&e);
    mem_free(e.parent);
    mem_free(e.net_of);
    mem_free(e.value);
    vlog_node_vec_free(&e.nodes);
    vec_u8_free(&e.prefixes);
    return st;
}
