/* cuda_int.h: what the CUDA power engine's host code (C) and device code
 * (CUDA) share: the device model, flat arrays built once on the host from
 * the design, the libraries' power data and the plan, then uploaded as
 * they are.
 *
 * Indices into shared pools are absolute, so a kernel follows them without
 * knowing which cell type they came from.  Events travel as the store holds
 * them (events.h), one word per event: time_fs << 2 | value. */
#ifndef GP_CUDA_CUDA_INT_H
#define GP_CUDA_CUDA_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "design/design.h"
#include "events/events.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most pins of a cell the kernels walk (their per-pin state lives in
 * per-thread arrays of this size; the state index has 32 bits anyway). */
#define CUDA_MAX_PINS 32
/* Outputs of cells of up to this many pins keep, per instance, their
 * internal energy without a related pin in each state and direction
 * (cuda_cell.memo_size): 2^6 states x 2 directions = 1 KiB an output. */
#define CUDA_UNRELATED_MAX_PINS 6

/* What a table axis is looked up at: the pin's slew, its load, or a
 * quantity gatepower cannot supply (the lookup gives NaN, as the host's). */
enum { CUDA_AXIS_SLEW, CUDA_AXIS_LOAD, CUDA_AXIS_NONE };

typedef struct cuda_table {
    uint8_t n_dims;
    uint8_t axis[2];          /* CUDA_AXIS_* of index_1, index_2 */
    uint32_t size[2];
    uint32_t index[2];        /* offsets of the axes in cuda_model.reals */
    uint32_t values;          /* offset of the size[0] x size[1] values in reals */
} cuda_table;

/* One internal_power group (lib_power). */
typedef struct cuda_group {
    uint32_t pin;             /* the pin whose group it is */
    int32_t related;          /* pin index or -1 (LIB_NONE) */
    int32_t when;             /* offset of its truth table in tt; -1: holds always */
    uint64_t pg_bit;          /* its pg group in a served-mask (power_ref.c's pg_bit) */
    int32_t table[2];         /* rise, fall: index in tables, -1 where absent */
} cuda_group;

typedef struct cuda_leakage {
    double value;             /* W */
    int32_t when;             /* as cuda_group.when; -1 also for no `when` at all */
    uint8_t has_when;
    uint64_t pg_bit;
} cuda_leakage;

/* Pin flags (cuda_model.pin_flags). */
enum {
    CUDA_PIN_DRIVES = 1,        /* output or inout of its cell */
    CUDA_PIN_PAYS_SWITCHING = 2,/* drives its net: pays C V^2 per rise */
    CUDA_PIN_GLITCHABLE = 4,    /* glitch analysis on and not on the clock network */
    CUDA_PIN_SILENT = 8,        /* an input without internal power: its events cost 0 */
    CUDA_PIN_LOADS = 16         /* input or inout of its cell */
};

/* One cell type: offsets into the pools.  Dense cells (sipl_dense) have the
 * SIPL tables (power_sipl.h): leakage per state at reals[leak ..], and the
 * groups of key k in state s are sel[sel0[sel0_base + (k << n_pins) + s] ..
 * sel0[... + 1]) (absolute group indices). */
typedef struct cuda_cell {
    uint32_t n_pins, n_vars;
    uint8_t sipl_dense;
    double volts;
    double cell_leakage;      /* W, when no leakage_power group applies */
    uint32_t pin0;            /* its pins in cpin_group0 / cpin_n_groups / cpin_flags */
    uint32_t group0, n_groups;/* its groups (internal_power), in library order */
    uint32_t key0;            /* keys[key0 + pin * (n_pins + 1) + related-or-n_pins] */
    uint32_t cand0_base;      /* cand0[cand0_base + pin .. + 1]: absolute into cand */
    uint32_t leak;            /* dense: offset in reals of 2^n_pins leakages */
    uint32_t sel0_base;       /* dense: see above */
    uint32_t leakage0, n_leakages;
    uint32_t memo_size;       /* doubles of an instance's memo: 4 per group (by own and
                                 slew direction), then per output in cpin_unrelated its
                                 energies without a related pin (2 s + rise) */
} cuda_cell;

/* The model.  Per instance i: cell inst_cell[i], pins inst_pin0[i] ..
 * inst_pin0[i + 1], delay arcs from inst_arc0[i].  Per pin: its net (or
 * DESIGN_NONE), slews (s) by its own direction, load (F), flags.  Per arc
 * slot: the delay in fs by the output's direction (NaN already made 0).
 * inst_pin0, inst_arc0, pin_net, pin_inst and the pins' slews and loads are
 * the design's own arrays (the kernels read them as they are): the model
 * must not outlive the design, and cuda_model_free leaves them alone. */
typedef struct cuda_model {
    uint32_t n_cells, n_groups, n_leakages, n_tables;
    cuda_cell *cells;
    cuda_group *groups;
    cuda_leakage *leakages;
    cuda_table *tables;
    uint32_t n_cpins;         /* cell pins of all cell types */
    uint32_t *cpin_group0, *cpin_n_groups;
    uint8_t *cpin_flags;      /* CUDA_PIN_DRIVES / CUDA_PIN_LOADS of the library pin */
    uint32_t *cpin_unrelated; /* where its energies without a related pin start in an
                                 instance's memo, or UINT32_MAX (none kept) */
    uint32_t n_keys, n_cand0, n_cands, n_sel0, n_sel, n_reals, n_tt;
    int32_t *keys;
    uint32_t *cand0, *cand;
    int32_t *cand_arc;        /* the candidate's first delay arc in its cell, or -1 */
    uint32_t *sel0, *sel;
    double *reals;
    uint64_t *tt;

    uint32_t n_insts, n_pins, n_arcs, n_nets;
    uint32_t *inst_cell, *inst_pin0, *inst_arc0;
    uint64_t *inst_memo0;     /* [n_insts + 1]: instance i's memo (memo_size doubles of
                                 its cell) starts at inst_memo0[i] */
    uint32_t *pin_net, *pin_inst;
    uint8_t *pin_flags;
    double *pin_slew_rise, *pin_slew_fall, *pin_load;
    double *arc_delay_rise_fs, *arc_delay_fall_fs;
    uint8_t *net_start;       /* the value before a net's first event (power_start_value) */
    uint32_t max_pins;        /* the most pins of an instance */
} cuda_model;

struct power_plan;

/* Builds the model of `dg` for the plan; false when out of memory or when a
 * cell has more than CUDA_MAX_PINS pins (*too_many names it, else NULL). */
bool cuda_model_build(cuda_model *m, const design *dg, const struct power_plan *plan,
                      const lib_cell **too_many);
void cuda_model_free(cuda_model *m);

#ifdef __cplusplus
}
#endif

#endif
