/* bench_gen.h: the inputs of the power benchmarks (bench_power, bench_cuda):
 * real files read through the project's readers, or generated cases.
 *
 * Both generated cases use one small library (INV, NAND2, NOR2, XOR2, AOI21
 * with 2-D tables and `when` conditions, 10% DFFs on one clock `clk`) and a
 * random netlist (each gate input a random earlier net), written as Liberty
 * and Verilog text to a temporary folder, read through lib_read and
 * design_read_netlist (which computes loads, slews and NLDM delays) and
 * deleted.  Clock period 10 ns.
 *
 * small  (bench_gen_small): a VCD of uniform random activity is written and
 *        read through events_read: the readers are part of the case.
 * large  (bench_gen_large): the events are made directly in the event store
 *        on threads, no VCD, with skewed activity (quiet, ordinary, glitchy
 *        and hot nets, whose rates also change over the run): for cases of
 *        a million gates and 1e9 pin events, made in seconds. */
#ifndef GP_BENCH_GEN_H
#define GP_BENCH_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "design/design.h"
#include "events/events.h"
#include "liberty/liberty.h"
#include "util/diag.h"

#define BENCH_PERIOD_PS 10000

typedef struct bench_case {
    lib_set *libs;
    design *dg;
    events *ev;
    int64_t period_fs;
} bench_case;

/* Library, netlist (TOP NULL: the only top module) and VCD or FST files
 * under SCOPE.  The period is the caller's. */
bool bench_read_case(bench_case *bc, const char *lib, const char *netlist, const char *top,
                     const char *vcd, const char *scope, diag_ctx *d);

/* The small case: `cycles` cycles of random activity through a VCD; most
 * nets change in about a third of the cycles, some glitch, 2% are hot (six
 * changes a cycle), 1 change in 64 goes through x. */
bool bench_gen_small(bench_case *bc, uint32_t gates, uint32_t cycles, diag_ctx *d);

typedef struct bench_gen_options {
    uint32_t gates;
    uint32_t cycles;       /* 0: as many as pin_events needs */
    double pin_events;     /* with cycles 0: the pin events aimed at (about 2% over) */
    int threads;           /* <= 0: one per online core */
    uint64_t seed;         /* 0: the default */
    const char *keep_dir;  /* the Liberty and Verilog files stay there (cells.lib,
                              netlist.v); NULL: written to /tmp and deleted */
} bench_gen_options;

/* What bench_gen_large made. */
typedef struct bench_gen_stats {
    uint32_t cycles;
    uint64_t net_changes;  /* events after each net's initial value */
    /* Each change once per pin on its net: what power_result.events_used
     * will be (every generated event is a change inside the window). */
    uint64_t pin_events;
    /* The skew: pin events per instance (the events a gate's thread walks)
     * and changes per net, at the quantiles 0.5, 0.9, 0.99, 0.999 and 1. */
    uint64_t inst_events_q[5], net_changes_q[5];
    double inst_events_mean;
    double netlist_s, events_s;    /* wall seconds to make them */
    int threads;
} bench_gen_stats;

/* The large case (see above); stats may be NULL. */
bool bench_gen_large(bench_case *bc, const bench_gen_options *opt, bench_gen_stats *stats,
                     diag_ctx *d);

/* Writes the VCD identifier code of number id (bijective base 94 over '!'..'~',
 * at most 5 characters, no NUL) to p; returns its length. */
size_t bench_vcd_code(uint32_t id, char *p);

/* Prints a generated case's stats in a few lines. */
void bench_gen_print_stats(const bench_gen_stats *s);

void bench_case_free(bench_case *bc);

#endif
