/* design_int.h: what the design module's own files share. */
#ifndef GP_DESIGN_DESIGN_INT_H
#define GP_DESIGN_DESIGN_INT_H

#include "design/design.h"

/* Builds pin_inst, the net -> pins CSR, net drivers and arc slots from the
 * instance pins (design_index.c). */
gp_status design_index(design *dg, diag_ctx *d);
/* Sets inst_level and n_levels; warns about combinational loops. */
gp_status design_levelize(design *dg, diag_ctx *d);

/* Whether pin direction `dir` drives (output, inout) or loads (input, inout). */
static inline bool design_dir_drives(lib_dir dir) { return dir == LIB_DIR_OUTPUT || dir == LIB_DIR_INOUT; }
static inline bool design_dir_loads(lib_dir dir) { return dir == LIB_DIR_INPUT || dir == LIB_DIR_INOUT; }

/* Whether instance i is a sequential cell (has ff or latch groups). */
static inline bool design_is_sequential(const design *dg, uint32_t i)
{
    return dg->inst_cell[i]->n_seqs > 0;
}

/* The instance driving net n, or DESIGN_NONE. */
static inline uint32_t design_net_driver_inst(const design *dg, uint32_t n)
{
    return dg->net_driver[n] == DESIGN_NONE ? DESIGN_NONE : dg->pin_inst[dg->net_driver[n]];
}

#endif
