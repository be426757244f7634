/* sdc.h: SDC constraints (Synopsys Design Constraints), read by an embedded
 * Tcl interpreter as the timing tools read them: variables, expr, lists,
 * procs, comments and line continuations are Tcl's own; the SDC commands
 * are ours, over the design's ports, pins, nets and cells.
 *
 * What power analysis takes from a file:
 *   clocks       create_clock, create_generated_clock: period, waveform,
 *                sources; set_clock_transition; set_propagated_clock
 *   inputs       set_input_transition; set_driving_cell (the transition of
 *                the driving cell's arc at the port's load)
 *   loads        set_load on ports (external load) and nets (wire load)
 *   units        set_units -time -capacitance (default: the first library's)
 * Timing-only commands (set_input_delay, set_false_path, ...) are accepted
 * and counted; any other command is an error with its file:line.
 *
 * Objects: get_ports, get_pins, get_nets, get_cells, get_clocks,
 * all_inputs, all_outputs, all_clocks return Tcl lists whose elements
 * print as the objects' names and remember what they are; a command given
 * a bare name looks it up as that command's objects would be (ports first).
 * Patterns match with * and ? (-regexp and -nocase as in the tools).
 *
 * Messages 1600-1999. */
#ifndef GP_SDC_SDC_H
#define GP_SDC_SDC_H

#include <stdbool.h>
#include <stdint.h>

#include "design/design.h"
#include "liberty/liberty.h"
#include "util/diag.h"
#include "util/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sdc_clock {
    char *name;
    double period;         /* fs */
    double edge[2];        /* fs: the rising and the falling edge in the period */
    double transition[2];  /* fs, of rising and falling edges: set_clock_transition, else 0 */
    bool propagated;       /* set_propagated_clock: slews propagate from the source */
    bool generated;        /* create_generated_clock */
    uint32_t n_sources;
    uint32_t *source_nets; /* the nets of its source ports and pins; none: a virtual clock */
} sdc_clock;

/* set_driving_cell on an input port: the port's slew is the transition of
 * `cell`'s arcs into output pin `pin` (from pin `from`, or any) at the
 * port's load, from an input transition `input_transition`. */
typedef struct sdc_drive {
    const lib_cell *cell; /* NULL: no driving cell */
    int32_t pin, from;    /* lib pin indices; from LIB_NONE: every related pin */
    double input_transition[2];
} sdc_drive;

typedef struct sdc {
    uint32_t n_clocks;
    sdc_clock *clocks;
    /* Per port of the design, NAN where no command set it. */
    double *port_transition[2]; /* s, rising and falling */
    double *port_load[2];       /* F outside the design: set_load -pin_load, -wire_load */
    sdc_drive *port_drive;
    /* Per net: the wire capacitance set_load gave it (F), NAN where none. */
    double *net_load;
    uint32_t n_ports, n_nets;
    uint32_t timing_only; /* commands run that bear on timing only (not applied) */
} sdc;

/* Constraints for dg's ports and nets with nothing set (NULL: out of
 * memory). */
sdc *sdc_new(const design *dg);

/* Runs the SDC files in order (one interpreter: a variable or proc of a
 * file is seen by the next) against the design's objects and the
 * libraries' cells.  Errors carry the file:line of the command. */
gp_status sdc_read(sdc **out, const design *dg, const lib_set *libs, const char *const *paths,
                   int n_paths, diag_ctx *d);
void sdc_free(sdc *s);
/* Gives back what the Tcl library keeps for the calling thread (its
 * Tcl_FinalizeThread): for a thread that ran sdc_read, before it ends. */
void sdc_thread_done(void);

/* The clock called `name`, or with name NULL the fastest (the shortest
 * period, the first of equals); NULL when there is none. */
const sdc_clock *sdc_find_clock(const sdc *s, const char *name);

/* What the constraints give the design's timing: the input ports' slews
 * and the ports' loads, the pins of ideal clock networks at their clocks'
 * transitions.  The arrays live in `t` until sdc_timing_free; `base` gives
 * what the SDC leaves unset (docs/model.md: an input without
 * set_input_transition or set_driving_cell then has slew 0, as the timing
 * tools take it). */
typedef struct sdc_timing {
    design_timing_options opt;
    double *port_slew[2], *port_load, *net_ideal_slew[2];
    uint32_t ideal_nets, propagated_nets; /* nets on ideal and propagated clock networks */
} sdc_timing;

gp_status sdc_timing_make(const sdc *s, const design *dg, const design_timing_options *base,
                          sdc_timing *t, diag_ctx *d);
void sdc_timing_free(sdc_timing *t);

/* Whether this build reads SDC (it needs Tcl's development files). */
bool sdc_available(void);

#ifdef __cplusplus
}
#endif

#endif
