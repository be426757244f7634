/* verilog_check_parts.c: a large module's library cell instances checked
 * on threads before the check in order (verilog_check.c).
 *
 * An instance that passes every check quietly (each connection's pin or bus
 * found and connected once, its width the pin's, no unsized constant to
 * fit) is settled here: its connections get their pins, the literal
 * constants it uses are marked and its sizes counted.  Any other (an
 * instance of a module, a constant to fit, anything the check reports) is
 * left as it was for the check in order, which skips the settled ones, so
 * that the messages and their order are the check's alone. */
#include "verilog/verilog_int.h"

#include "util/parts.h"

/* An instance of more connections is left to the check in order. */
#define VLOG_SETTLE_CONNS 64

typedef struct vlog_settle_part {
    uint64_t insts, pins, conns;
    bool literal_used[VLOG_LITERAL_BITS];
    uint32_t *seen; /* its own stamps, by the keys of vlog_reader.seen */
} vlog_settle_part;

typedef struct vlog_settle_job {
    vlog_reader *r;
    const vlog_module *m;
    uint8_t *settled;   /* [m->ninst] */
    size_t n_keys;      /* every port's and every cell pin group's */
    vlog_settle_part *part;
} vlog_settle_job;

/* Settles instance `inst` (a library cell's, with stamp `stamp`) when it
 * passes quietly; false leaves it and its connections as they were. */
static bool settle_cell_inst(vlog_reader *r, const vlog_inst *inst, uint32_t stamp,
                             vlog_settle_part *p)
{
    const vlog_cell *cell = &r->cells.data[inst->target];
    vlog_conn *conns = inst->nconn ? &r->conns.data[inst->conn0] : NULL;
    uint32_t group[VLOG_SETTLE_CONNS];
    uint64_t bits = 0;
    if (inst->nconn > VLOG_SETTLE_CONNS)
        return false;
    for (uint32_t k = 0; k < inst->nconn; k++) {
        const vlog_conn *c = &conns[k];
        uint32_t g = inst->ordered ? c->pin : vlog_find_group(r, cell, c->pin);
        size_t key = r->ports.len + cell->group0 + g;
        if (g >= cell->ngroup || p->seen[key] == stamp)
            return false;
        p->seen[key] = stamp;
        group[k] = g;
        if (c->nterm == 0)
            continue; /* left unconnected */
        uint32_t width = r->groups.data[cell->group0 + g].width;
        if ((c->nterm == 1 && (r->terms.data[c->term0].ref & VLOG_TERM_UNSIZED)) ||
            vlog_conn_width(r, c) != width)
            return false;
        bits += width;
    }
    for (uint32_t k = 0; k < inst->nconn; k++) {
        conns[k].pin = group[k];
        vlog_mark_literals(r, &conns[k], p->literal_used);
    }
    p->insts++;
    p->pins += cell->npins;
    p->conns += bits;
    return true;
}

/* A part's instances, its sums kept on its own stack until the end (the
 * parts' records share cache lines). */
static void settle_part(void *ctx, uint32_t part, uint32_t parts)
{
    vlog_settle_job *j = ctx;
    vlog_settle_part p = {.seen = mem_calloc(j->n_keys, sizeof *p.seen)};
    if (!p.seen)
        return; /* the check in order takes them */
    uint32_t end = (uint32_t)parts_begin(j->m->ninst, part + 1, parts);
    for (uint32_t i = (uint32_t)parts_begin(j->m->ninst, part, parts); i < end; i++) {
        uint32_t index = j->m->inst0 + i;
        const vlog_inst *inst = &j->r->insts.data[index];
        if (vlog_is_cell(inst))
            j->settled[i] = settle_cell_inst(j->r, inst, index + 1, &p);
    }
    mem_free(p.seen);
    p.seen = NULL;
    j->part[part] = p;
}

uint8_t *vlog_settle_cells(vlog_reader *r, vlog_module *m)
{
    uint32_t parts = parts_for(m->ninst, UINT32_MAX);
    if (parts < 2)
        return NULL;
    vlog_settle_job j = {r, m, mem_calloc(m->ninst, 1), r->ports.len + r->groups.len,
                         mem_calloc(parts, sizeof *j.part)};
    if (j.settled && j.part) {
        parts_run(settle_part, &j, parts);
        for (uint32_t k = 0; k < parts; k++) {
            m->flat_insts += j.part[k].insts;
            m->flat_pins += j.part[k].pins;
            m->flat_conns += j.part[k].conns;
            for (unsigned v = 0; v < VLOG_LITERAL_BITS; v++)
                r->literal_used[v] |= j.part[k].literal_used[v];
        }
    } else {
        mem_free(j.settled);
        j.settled = NULL;
    }
    mem_free(j.part);
    return j.settled;
}
