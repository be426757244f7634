/* design_int.h: what the design module's own files share. */
#ifndef GP_DESIGN_DESIGN_INT_H
#define GP_DESIGN_DESIGN_INT_H

#include "design/design.h"

/* Builds pin_inst, the net -> pins CSR, net drivers and arc slots from the
 * instance pins (design_index.c). */
gp_status design_index(design *dg, diag_ctx *d);
/* Sets inst_level and n_levels; warns about combinational loops. */
gp_status design_levelize(design *dg, diag_ctx *d);

/* A graph over instances for design_waves: an edge runs from instance i
 * to the instance of pin q for each pin p of i on a net with from(g, p)
 * and each pin q on that net (p itself included) with to(g, p, q), once
 * per such pair. */
typedef struct design_dag {
    const design *dg;
    const void *ctx;
    bool (*from)(const struct design_dag *g, uint32_t p);
    bool (*to)(const struct design_dag *g, uint32_t p, uint32_t q);
} design_dag;

/* Puts g's instances in waves on threads (design_waves.c): wave 0 those
 * no edge enters, then each instance one wave after its predecessors'
 * last.  order[wave0[w] .. wave0[w + 1]) gets wave w's instances (in no
 * fixed order), *ordered how many got a wave; returns the number of waves.
 * waiting[i] (n_insts entries) ends as the edges into i from instances on
 * or behind a cycle: 0 for every instance that got a wave.  order and
 * wave0 need room for n_insts and n_insts + 1 entries. */
uint32_t design_waves(const design_dag *g, uint32_t *waiting, uint32_t *order, uint32_t *wave0,
                      uint32_t *ordered);

#endif
