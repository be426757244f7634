/* design_int.h: what the design module's own files share. */
#ifndef GP_DESIGN_DESIGN_INT_H
#define GP_DESIGN_DESIGN_INT_H

#include "design/design.h"
#include "sdf/sdf.h"
#include "util/vec.h"

/* --- an SDF file's entries (design_sdf_record.c), applied by design_sdf.c --- */

enum { DESIGN_SDF_IOPATH, DESIGN_SDF_WIRE, DESIGN_SDF_DEVICE }; /* entry kinds */
enum {                                                          /* entry flags */
    DESIGN_SDF_INCREMENT = 1, DESIGN_SDF_HAS_RISE = 2, DESIGN_SDF_HAS_FALL = 4,
    DESIGN_SDF_CONDELSE = 8, DESIGN_SDF_HAS_COND = 16, DESIGN_SDF_HAS_OUT = 32
};
#define DESIGN_SDF_NO_CELL UINT32_MAX

/* A CELL: its CELLTYPE and INSTANCE, offsets into design_sdf.text. */
typedef struct design_sdf_cell {
    uint64_t celltype, instance;
} design_sdf_cell;

/* One delay entry; its names follow each other from `text`, NUL-ended:
 * IOPATH in.inst, in.pin, out.inst, out.pin [, cond]; a wire (INTERCONNECT
 * or PORT) to.inst, to.pin; DEVICE [out.inst, out.pin]. */
typedef struct design_sdf_entry {
    double rise, fall;        /* fs, as the file gives them */
    uint64_t text;
    uint32_t cell;            /* design_sdf.cells[cell]; DESIGN_SDF_NO_CELL: none yet */
    int line, col;
    uint8_t kind, flags, edge; /* edge: an sdf_edge */
} design_sdf_entry;

VEC_DECLARE(design_sdf_cells, design_sdf_cell)
VEC_DECLARE(design_sdf_entries, design_sdf_entry)

struct design_sdf {
    char *path;               /* for the entries' messages */
    vec_char text;
    design_sdf_cells cells;
    design_sdf_entries entries;
    uint32_t *inst;           /* design_sdf_match: per entry, the instance it names */
    uint32_t *order;          /*   and the entries grouped by it (NULL: INSTANCE *) */
    size_t grouped;
};

/* Builds pin_inst, the net -> pins CSR, net drivers and arc slots from the
 * instance pins (design_index.c). */
gp_status design_index(design *dg, diag_ctx *d);
/* Nets [*first, *end): part `part` of `parts` of them, each part holding
 * about as many pins (the nets' pins, net_pin0, listed): the work of a loop
 * over nets and their pins, where a clock net holds a tenth of the pins
 * and earlier nets drive more than later ones. */
void design_nets_part(const design *dg, uint32_t part, uint32_t parts, uint32_t *first,
                      uint32_t *end);
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
 * fixed order), *ordered how many got a wave, *waves the number of waves.
 * waiting[i] (n_insts entries) ends as the edges into i from instances on
 * or behind a cycle: 0 for every instance that got a wave.  order and
 * wave0 need room for n_insts and n_insts + 1 entries.  False when out of
 * memory. */
bool design_waves(const design_dag *g, uint32_t *waiting, uint32_t *order, uint32_t *wave0,
                  uint32_t *ordered, uint32_t *waves);

#endif
