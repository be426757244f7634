/* design.h: the flat design database: the netlist in CSR arrays, its levels,
 * and the static quantities of SPEC §2 (loads, slews, delays).
 *
 * Built once by the readers' visitors (design_read_netlist, design_read_sdf,
 * design_read_spef), then read-only: every array below is a flat block that a
 * power engine reads directly or uploads to a GPU as it is.
 *
 *   instance i   cell inst_cell[i]; its pins are pin inst_pin0[i] + k for
 *                k < cell->n_pins, k being the library pin index (so a pin's
 *                index within its instance is its lib_pin), connected or not
 *   pin p        pin_inst[p], pin_net[p] (DESIGN_NONE when unconnected)
 *   net n        pins net_pins[net_pin0[n] .. net_pin0[n+1]) in pin order;
 *                net_driver[n] is the output pin driving it, or DESIGN_NONE
 *                for a net driven by an input port, a constant or nothing
 *   arc slot     instance i's library arcs are slots inst_arc0[i] + a for
 *                a < cell->n_arcs, in the cell's arc order
 *
 * Times are femtoseconds (util/units.h), capacitances farads, like the
 * Liberty model.  Delays are whole fs, like the events' times, so that an
 * engine comparing a gap between events with a delay compares integers
 * (a tie is a tie); slews keep their fraction of a fs. */
#ifndef GP_DESIGN_DESIGN_H
#define GP_DESIGN_DESIGN_H

#include <stdbool.h>
#include <stdint.h>

#include "liberty/liberty.h"
#include "util/diag.h"
#include "util/progress.h"
#include "util/status.h"
#include "util/strtab.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DESIGN_NONE UINT32_MAX

/* Rise and fall, as indices of the two-element arrays below. */
enum { DESIGN_RISE = 0, DESIGN_FALL = 1 };

/* A top-level port's direction (design_port.dir). */
enum { DESIGN_PORT_INPUT = 1, DESIGN_PORT_OUTPUT = 2, DESIGN_PORT_INOUT = 3 };
/* What drives a net (design.net_value): its cells and ports (a signal), or
 * a constant. */
enum { DESIGN_VALUE_SIGNAL = 0, DESIGN_VALUE_0 = 1, DESIGN_VALUE_1 = 2, DESIGN_VALUE_X = 3 };

typedef struct design_port {
    uint32_t name; /* id in design.net_names */
    int dir;       /* DESIGN_PORT_* */
    uint32_t net;
} design_port;

typedef struct design {
    const lib_set *libs;
    char *name;                 /* the top module's name */

    uint32_t n_insts;
    const lib_cell **inst_cell;
    uint32_t *inst_name;        /* id in inst_names */
    uint32_t *inst_pin0;        /* [n_insts + 1] */
    uint32_t *inst_arc0;        /* [n_insts + 1] */
    uint32_t *inst_level;       /* 0: sequential cells; a combinational one: 1 + the highest
                                   level of the combinational cells driving it (1 if none) */

    uint32_t n_pins;
    uint32_t *pin_inst;
    uint32_t *pin_net;
    uint8_t *pin_flags;         /* DESIGN_PIN_* */
    uint32_t n_connected_pins;

    uint32_t n_nets;
    uint32_t *net_name;         /* canonical name, id in net_names */
    uint8_t *net_value;         /* DESIGN_VALUE_* */
    uint32_t *net_pin0;         /* [n_nets + 1] */
    uint32_t *net_pins;
    uint32_t *net_driver;
    uint32_t *net_of_name;      /* [strtab_count(net_names)]: names and aliases -> net */

    uint32_t n_ports;
    design_port *ports;

    uint32_t n_levels;          /* 1 + the largest inst_level (0 without instances) */
    uint32_t n_loop_insts;      /* combinational instances on or behind a loop */

    uint32_t n_arcs;
    /* Static timing (design_compute_timing, then design_read_sdf). */
    double *pin_load;           /* F, output pins; 0 elsewhere */
    double *pin_slew[2];        /* fs, per direction of the pin's own transition */
    double *pin_wire_delay[2];  /* whole fs, INTERCONNECT/PORT delay into an input pin */
    double *arc_delay[2];       /* whole fs, by the output's direction; NAN for timing checks */
    uint8_t *arc_from_sdf;      /* 1 where an SDF IOPATH or DEVICE set the delay */
    double *net_wire_cap;       /* F, from SPEF (0 without) */

    strtab inst_names;
    strtab net_names;
} design;

/* Options of the static quantities (SPEC §2). */
typedef struct design_timing_options {
    double input_slew;       /* fs, transition of primary inputs (default 0.1 ns) */
    double output_port_load; /* F, extra load of a net on an output port (default 0) */
    /* Optional, per port (NULL: the defaults above; a NAN entry: its
     * default): an input port's slew by direction of its transition (fs),
     * and the load outside the design on an output or inout port (F). */
    const double *port_slew[2];
    const double *port_load;
    /* Optional, per net (NULL or a NAN entry: none): the slew of every pin
     * on the net, by direction (fs): an ideal clock network's. */
    const double *net_ideal_slew[2];
} design_timing_options;

/* The defaults documented in docs/model.md. */
design_timing_options design_timing_defaults(void);

/* Reads the Verilog netlist files, flattens the design below `top` (NULL: the
 * only uninstantiated module) and binds instances to the cells of `libs`,
 * which must outlive the design.  Then levelises it and computes loads,
 * slews and NLDM delays with default options (design_compute_timing). */
gp_status design_read_netlist(design **out, const lib_set *libs, const char *const *paths,
                              int n_paths, const char *top, diag_ctx *d);
/* The same up to the names and the connections: no levels, loads, slews or
 * delays until design_compute_timing (for callers that annotate SPEF first,
 * read the activity beside the levels and the timing, or time the phases
 * apart); `bar` (may be NULL) shows the netlist's reading. */
gp_status design_read_structure(design **out, const lib_set *libs, const char *const *paths,
                                int n_paths, const char *top, progress *bar, diag_ctx *d);
void design_free(design *dg);

/* The levels, the first time (a combinational loop is a warning naming its
 * instances; their level is set past the last level), then loads, slews and
 * delays from the Liberty tables (SPEC §2); SDF annotation replaces delays
 * afterwards.  design_read_netlist calls it with defaults. */
gp_status design_compute_timing(design *dg, const design_timing_options *opt, diag_ctx *d);

/* What design_read_sdf matched. */
typedef struct design_sdf_stats {
    uint64_t iopaths, iopaths_matched;    /* entries, and those that found arcs */
    uint64_t arcs_annotated;              /* arc slots whose delay came from SDF */
    uint64_t interconnects, interconnects_matched;
    uint64_t unmatched;                   /* every entry that matched nothing */
    uint64_t delays_negative;             /* delays below 0, taken as 0 (warning 7014) */
} design_sdf_stats;

/* Annotates SDF delays (IOPATH, INTERCONNECT, PORT, DEVICE) onto the arcs and
 * input pins; entries naming no instance, pin or arc are warned about (capped)
 * and counted.  design_sdf_read then design_sdf_apply. */
gp_status design_read_sdf(design *dg, const char *path, design_sdf_stats *stats, diag_ctx *d);

/* An SDF file's delay entries, read without a design so that the reading
 * can run while the netlist is read (free with design_sdf_free).
 * stopped (NULL: never) is asked at each CELL: true ends the reading, with
 * GP_ERR_INPUT and no message (the netlist failed, say). */
typedef struct design_sdf design_sdf;
gp_status design_sdf_read(const char *path, bool (*stopped)(void *ctx), void *stopped_ctx,
                          design_sdf **out, diag_ctx *d);
/* Looks up the instances the entries name, on every core, and keeps them
 * in sdf: it reads only dg's names, so it may run while dg's timing is
 * computed.  design_sdf_apply does it where it was not done. */
gp_status design_sdf_match(const design *dg, design_sdf *sdf, diag_ctx *d);
/* Annotates dg with them, as design_read_sdf does (the names are matched
 * on every core, the delays set in the file's order). */
gp_status design_sdf_apply(design *dg, design_sdf *sdf, design_sdf_stats *stats, diag_ctx *d);
void design_sdf_free(design_sdf *sdf);

typedef struct design_spef_stats {
    uint64_t nets, nets_matched;
} design_spef_stats;

/* Sets each net's wire capacitance from SPEF D_NET totals, then recomputes
 * loads, slews and NLDM delays (so read SPEF before SDF, whose delays this
 * would replace); unmatched nets are warned about and counted. */
gp_status design_read_spef(design *dg, const char *path, const design_timing_options *opt,
                           design_spef_stats *stats, diag_ctx *d);
/* Sets net n's wire capacitance to cap[n] (F) where cap[n] is not NAN, in
 * place of SPEF's (SDC's set_load on nets); design_compute_timing then
 * uses them. */
gp_status design_set_wire_caps(design *dg, const double *cap, diag_ctx *d);
/* Only the wire capacitances: design_compute_timing then uses them. */
gp_status design_annotate_spef(design *dg, const char *path, design_spef_stats *stats,
                               diag_ctx *d);

/* The capacitance (F) of the pins that load net n (inputs and inouts). */
double design_net_load_pin_cap(const design *dg, uint32_t n);

/* Lookups by flat name; DESIGN_NONE when absent. */
uint32_t design_find_net(const design *dg, const char *name);
uint32_t design_find_inst(const design *dg, const char *name);
const char *design_inst_name(const design *dg, uint32_t inst);
const char *design_net_name(const design *dg, uint32_t net);

/* The library pin of design pin p. */
static inline const lib_pin *design_lib_pin(const design *dg, uint32_t p)
{
    uint32_t inst = dg->pin_inst[p];
    return &dg->inst_cell[inst]->pins[p - dg->inst_pin0[inst]];
}

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

/* design.pin_flags: a pin's direction and its instance's kind, read from
 * one byte instead of through the pin's instance and cell. */
enum {
    DESIGN_PIN_DRIVES = 1u << 0,    /* output or inout */
    DESIGN_PIN_LOADS = 1u << 1,     /* input or inout */
    DESIGN_PIN_OUTPUT = 1u << 2,    /* output (not inout) */
    DESIGN_PIN_SEQUENTIAL = 1u << 3 /* on a sequential instance */
};

#ifdef __cplusplus
}
#endif

#endif
