/* power_model.h: what the fast engines (the CPU engine, the CUDA kernels)
 * read: the plan of a run, and the power model, flat arrays built once from
 * the design, its libraries and the plan, which the CUDA engine uploads as
 * they are.  Its rules are power_rules.h's; the reference engine reads the
 * libraries' own structures instead (power_ref.c), so that the fast engines
 * and the reference are two implementations of SPEC §3.
 *
 * Per cell type in use: its internal_power groups and leakage groups (in
 * library order), their tables and `when` truth tables, the keys of its
 * (pin, related pin) pairs, each output's related-pin candidates with
 * their delay arcs, and, for a dense cell (at most POWER_MODEL_DENSE_PINS
 * pins), the state-indexed lookup (SIPL): its leakage in each state and
 * the groups of each key that apply in each state.  Per instance, pin, arc
 * and net: what a walk reads.  Indices into the shared pools are absolute,
 * so a reader follows them without knowing which cell type they came
 * from. */
#ifndef GP_POWER_POWER_MODEL_H
#define GP_POWER_POWER_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "design/design.h"
#include "events/events.h"
#include "power/power.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the plan ------------------------------------------------------------------ */

/* Everything an engine needs besides the design and the events. */
typedef struct power_plan {
    int64_t t0, t1;         /* the window [t0, t1), fs */
    int64_t period;         /* fs */
    int64_t dump_start;     /* the dump's first time stamp: initial values live there */
    uint32_t n_cycles;
    bool glitch, include_io;
    uint8_t *inst_group;    /* power_group per instance */
    uint8_t *clock_net;     /* per net: 1 on the clock network (no glitches there) */
} power_plan;

/* Checks the options against the inputs and works out the plan; errors
 * (8001-8019) say which option to give or fix. */
gp_status power_plan_make(const design *dg, const events *ev, const power_options *opt,
                          power_plan *plan, diag_ctx *d);
void power_plan_free(power_plan *plan);

/* A zeroed result for the plan; it takes over plan->inst_group. */
power_result *power_result_new(const design *dg, power_plan *plan, diag_ctx *d);
/* Adds every instance's energies into its group's totals, in instance
 * order (engines that fill inst_energy directly call it once at the end). */
void power_result_sum_groups(power_result *r);
/* Makes r keep exact sums too (power_options.exact): power_book adds
 * into them, as an engine must; false when out of memory (reported). */
bool power_result_keep_exact(power_result *r, diag_ctx *d);
/* Sets the doubles of r that keep exact sums from them (each whose
 * magnitude is within the sums' range, 128 J: a larger or non-finite one,
 * from an input out of range, stays as it is for power_result_check),
 * then the groups from the instances and the IO group's switching. */
void power_result_settle(power_result *r);
/* Books the switching of the nets driven from outside the design (IO group). */
void power_book_input_nets(const design *dg, const events *ev, const power_plan *plan,
                           power_result *r);

/* The most parts (and threads) the plan's and the model's loops are cut
 * into (util/parts.h); their per-part records have this many slots. */
#define POWER_MAX_PARTS 8

/* ---- the model ----------------------------------------------------------------- */

/* Cells of up to this many pins are dense: 2^10 states, a 10-pin cell's
 * tables take 8 KiB of leakage and 4 KiB per key. */
#define POWER_MODEL_DENSE_PINS 10
/* Outputs of cells of up to this many pins keep, in an instance's memo,
 * their internal energy without a related pin in each state and direction:
 * 2^6 states x 2 directions = 1 KiB an output. */
#define POWER_MODEL_UNRELATED_PINS 6

/* What a table axis is looked up at: the pin's slew, its load, or a
 * quantity gatepower cannot supply (the lookup gives NaN). */
enum { POWER_AXIS_SLEW, POWER_AXIS_LOAD, POWER_AXIS_NONE };

typedef struct power_model_table {
    uint8_t n_dims;
    uint8_t axis[2];          /* POWER_AXIS_* of index_1, index_2 */
    uint32_t size[2];         /* size[1]: the row length, 1 for a one-axis table */
    uint32_t index[2];        /* offsets of the axes in reals */
    uint32_t values;          /* offset of the size[0] x size[1] values in reals */
} power_model_table;

/* One internal_power group. */
typedef struct power_model_group {
    uint32_t pin;             /* the pin whose group it is */
    int32_t related;          /* pin index or -1 (LIB_NONE) */
    int32_t when;             /* offset of its truth table in tt; -1: holds always */
    uint64_t pg_bit;          /* its pg group in a served-mask */
    int32_t table[2];         /* rise, fall: index in tables, -1 where absent */
} power_model_group;

typedef struct power_model_leakage {
    double value;             /* W */
    int32_t when;             /* as power_model_group.when; -1 also for no `when` at all */
    uint8_t has_when;
    uint64_t pg_bit;
} power_model_leakage;

/* Pin flags (cpin_flags of a library pin: DRIVES, LOADS and BULK where its
 * cell allows it; pin_flags of a design pin: all). */
enum {
    POWER_PIN_DRIVES = 1,         /* output or inout of its cell */
    POWER_PIN_PAYS_SWITCHING = 2, /* drives its net: pays C V^2 per rise */
    POWER_PIN_GLITCHABLE = 4,     /* glitch analysis on and not on the clock network */
    POWER_PIN_SILENT = 8,         /* an input without internal power: its events cost 0 */
    POWER_PIN_LOADS = 16,         /* input or inout of its cell */
    POWER_PIN_BULK = 32           /* costed in bulk from its net's events (power_rules.h) */
};

/* One cell type: offsets into the pools.  For a dense cell, the leakage in
 * state s is reals[leak + s], and the groups of key k in state s are
 * sel[sel0[sel0_base + (k << n_pins) + s] .. sel0[... + 1]) (absolute group
 * indices, at most one per pg group, in library order). */
typedef struct power_model_cell {
    uint32_t n_pins, n_vars;
    uint8_t dense;
    double volts;
    double cell_leakage;      /* W, when no leakage_power group applies */
    uint32_t pin0;            /* its pins in cpin_group0 / cpin_n_groups / cpin_flags */
    uint32_t group0, n_groups;/* its groups (internal_power), in library order */
    uint32_t key0;            /* keys[key0 + pin * (n_pins + 1) + related-or-n_pins]: the
                                 key of a pair with groups, or -1 */
    uint32_t cand0_base;      /* cand0[cand0_base + pin .. + 1]: absolute into cand */
    uint32_t leak;            /* dense: offset in reals of 2^n_pins leakages */
    uint32_t sel0_base;       /* dense: see above */
    uint32_t leakage0, n_leakages;
    uint32_t memo_size;       /* doubles of an instance's memo: 4 per group (by own and
                                 slew direction), then per output in cpin_unrelated its
                                 energies without a related pin (2 s + rise) */
} power_model_cell;

/* The model.  Per instance i: cell inst_cell[i], pins inst_pin0[i] ..
 * inst_pin0[i + 1], delay arcs from inst_arc0[i], memo from inst_memo0[i].
 * Per pin: its net (or DESIGN_NONE), slews (fs) by its own direction, load
 * (F), flags.  Per arc slot: the delay in fs by the output's direction (NaN
 * already made 0).  Per net: its value before its first event.
 * inst_pin0, inst_arc0, pin_net, pin_inst and the pins' slews and loads are
 * the design's own arrays: the model must not outlive the design, and
 * power_model_free leaves them alone. */
typedef struct power_model {
    uint32_t n_cells, n_groups, n_leakages, n_tables;
    const power_model_cell *cells;
    const power_model_group *groups;
    const power_model_leakage *leakages;
    const power_model_table *tables;
    uint32_t n_cpins;         /* library pins of all cell types */
    const uint32_t *cpin_group0, *cpin_n_groups;
    const uint8_t *cpin_flags;
    const uint32_t *cpin_unrelated; /* where its energies without a related pin start in an
                                       instance's memo, or UINT32_MAX (none kept) */
    uint32_t n_keys, n_cand0, n_cands, n_sel0, n_sel, n_reals, n_tt;
    const int32_t *keys;
    const uint32_t *cand0, *cand; /* an output's candidates: the other pins that load and
                                     have groups with it, in pin order */
    const int32_t *cand_arc;  /* the candidate's first delay arc in its cell, or -1 */
    const uint32_t *sel0, *sel;
    const double *reals;
    const uint64_t *tt;

    uint32_t n_insts, n_pins, n_arcs, n_nets;
    const uint32_t *inst_cell, *inst_pin0, *inst_arc0;
    const uint64_t *inst_memo0; /* [n_insts + 1] */
    const uint32_t *pin_net, *pin_inst;
    const uint8_t *pin_flags;
    const double *pin_slew_rise, *pin_slew_fall, *pin_load;
    const double *arc_delay_rise_fs, *arc_delay_fall_fs;
    const uint8_t *net_start;
    uint32_t max_pins;        /* the most pins of an instance */
} power_model;

/* The model's pins costed in bulk (POWER_PIN_BULK, power_rules.h) by net,
 * with their energies, for an engine's pass over those nets' events:
 * net b's pins' power_bulk_energy summed in pin order (net_energy[2 b +
 * rise]); bulk pin i, its net's place slot[i], its energies. */
typedef struct power_bulk {
    uint32_t n_nets, n_pins;
    uint32_t *net;            /* [n_nets] */
    double *net_energy;       /* [2 n_nets] */
    uint32_t *pin, *slot;     /* [n_pins] */
    double *pin_energy;       /* [2 n_pins] */
} power_bulk;

/* Fills b from m; false when out of memory. */
bool power_bulk_make(const power_model *m, power_bulk *b);
void power_bulk_free(power_bulk *b);

/* Builds the model of `dg` for the plan; false when out of memory.  With
 * bulk, the pins that may be costed in bulk (power_rules.h) are flagged
 * POWER_PIN_BULK, and the engine must cost them so. */
bool power_model_build(power_model *m, const design *dg, const power_plan *plan, bool bulk);
void power_model_free(power_model *m);

#ifdef __cplusplus
}
#endif

#endif
