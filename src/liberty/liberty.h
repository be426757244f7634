/* liberty.h: the Liberty (.lib, .lib.gz) cell-library reader and the model
 * it builds: units, nominal voltage, cells with pins, timing arcs, internal
 * power, leakage, sequential groups, NLDM tables and compiled expressions.
 *
 * Several files are read into one lib_set; cells are looked up by name across
 * all of them (a cell name seen again is warned about and the first one kept).
 * Times are femtoseconds, as everywhere in gatepower (double: table
 * values and axes are not whole fs); the rest is SI: farads, volts,
 * amperes, ohms, watts, joules.  The model is plain structs and arrays
 * allocated in the set's arena: pointers stay valid until lib_set_free,
 * also across later lib_read calls.  A failed lib_read leaves the set as
 * it was before the call.
 *
 * Per cell, pins are ordered by direction: inputs, then inouts, then outputs,
 * then internal pins, each in the library's declaration order (bus and bundle
 * members in bit order).  That order is the pin index (lib_pin_index) and the
 * start of the cell's expression variables: variable i < n_pins is pin i,
 * variable n_pins + j is state variable state_vars[j] (the ff/latch names such
 * as IQ, IQN that are not pins).  A state S is a bit set over the variables:
 * bit i is the value of variable i.  Expressions (function, three_state,
 * state_function, when, ff/latch attributes) are compiled into truth tables
 * over all 2^n_vars states when n_vars <= LIB_MAX_EXPR_PINS; a cell with more
 * variables is warned about and has exprs_compiled == false, its expressions
 * kept as text only. */
#ifndef GP_LIBERTY_LIBERTY_H
#define GP_LIBERTY_LIBERTY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"
#include "util/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most expression variables (pins + state variables) of a cell whose
 * expressions are compiled: a truth table then takes 2^16 bits = 8 KiB. */
#define LIB_MAX_EXPR_PINS 16
/* "no such index" in the int32_t index fields below. */
#define LIB_NONE (-1)

/* ---- tables ----------------------------------------------------------- */

/* What a table axis measures (a template's variable_N). */
typedef enum lib_var {
    LIB_VAR_INPUT_SLEW,       /* input_net_transition, input_transition_time (fs) */
    LIB_VAR_LOAD,             /* total_output_net_capacitance (F) */
    LIB_VAR_RELATED_SLEW,     /* related_pin_transition (fs), constraint tables */
    LIB_VAR_CONSTRAINED_SLEW, /* constrained_pin_transition (fs), constraint tables */
    LIB_VAR_COUNT
} lib_var;

/* An NLDM table.  n_dims is 0 (scalar: one value), 1 or 2.  Axis d has
 * size[d] points index[d][0..size[d]) (fs or F, strictly increasing) measuring
 * var[d]; an absent axis has size 1 and index NULL.  values[i * size[1] + j]
 * is the value at (index[0][i], index[1][j]): femtoseconds for delay,
 * transition and constraint tables, joules for internal power tables.
 * Tables with 3 axes, or with an axis gatepower cannot supply (such as
 * output_net_length), are not kept: the reader warns and leaves the slot NULL. */
typedef struct lib_table {
    uint8_t n_dims;
    uint8_t var[2];     /* lib_var of index_1 and index_2 */
    uint32_t size[2];
    const double *index[2];
    const double *values;
} lib_table;

/* The table at (slew fs, load F): bilinear interpolation inside the grid,
 * linear extrapolation from the edge interval outside it (as STA tools do);
 * an axis with one point is constant along it; a scalar table gives its
 * value.  For tables whose axes are LIB_VAR_INPUT_SLEW and/or LIB_VAR_LOAD
 * (every delay, transition and power table kept); a table with a
 * related/constrained pin transition axis gives NAN: use lib_table_lookup_var. */
double lib_table_lookup(const lib_table *t, double slew, double load);
/* The same with one value per lib_var: value[t->var[d]] is used for axis d. */
double lib_table_lookup_var(const lib_table *t, const double value[LIB_VAR_COUNT]);

/* ---- expressions -------------------------------------------------------- */

/* A Boolean expression of a cell.  `text` is as written in the library.
 * tt holds 2^n_vars bits (at least one 64-bit word): bit S of the table is
 * the value in state S.  tt is NULL when the cell's exprs_compiled is false. */
typedef struct lib_expr {
    const char *text;
    const uint64_t *tt;
} lib_expr;

/* ---- cells --------------------------------------------------------------- */

typedef enum lib_dir { LIB_DIR_INPUT, LIB_DIR_INOUT, LIB_DIR_OUTPUT, LIB_DIR_INTERNAL } lib_dir;

typedef enum lib_timing_sense {
    LIB_SENSE_POSITIVE_UNATE,
    LIB_SENSE_NEGATIVE_UNATE,
    LIB_SENSE_NON_UNATE
} lib_timing_sense;

typedef enum lib_timing_type {
    LIB_TT_COMBINATIONAL, LIB_TT_COMBINATIONAL_RISE, LIB_TT_COMBINATIONAL_FALL,
    LIB_TT_THREE_STATE_ENABLE, LIB_TT_THREE_STATE_DISABLE,
    LIB_TT_THREE_STATE_ENABLE_RISE, LIB_TT_THREE_STATE_ENABLE_FALL,
    LIB_TT_THREE_STATE_DISABLE_RISE, LIB_TT_THREE_STATE_DISABLE_FALL,
    LIB_TT_RISING_EDGE, LIB_TT_FALLING_EDGE, LIB_TT_PRESET, LIB_TT_CLEAR,
    LIB_TT_SETUP_RISING, LIB_TT_SETUP_FALLING, LIB_TT_HOLD_RISING, LIB_TT_HOLD_FALLING,
    LIB_TT_RECOVERY_RISING, LIB_TT_RECOVERY_FALLING,
    LIB_TT_REMOVAL_RISING, LIB_TT_REMOVAL_FALLING,
    LIB_TT_SKEW_RISING, LIB_TT_SKEW_FALLING,
    LIB_TT_NON_SEQ_SETUP_RISING, LIB_TT_NON_SEQ_SETUP_FALLING,
    LIB_TT_NON_SEQ_HOLD_RISING, LIB_TT_NON_SEQ_HOLD_FALLING,
    LIB_TT_NOCHANGE_HIGH_HIGH, LIB_TT_NOCHANGE_HIGH_LOW,
    LIB_TT_NOCHANGE_LOW_HIGH, LIB_TT_NOCHANGE_LOW_LOW,
    LIB_TT_MIN_PULSE_WIDTH, LIB_TT_MINIMUM_PERIOD,
    LIB_TT_COUNT
} lib_timing_type;

/* Whether a timing type is a delay arc (combinational*, three_state_*,
 * *_edge, preset, clear) rather than a timing check. */
bool lib_timing_type_is_delay(lib_timing_type t);
/* The Liberty spelling, e.g. "rising_edge". */
const char *lib_timing_type_name(lib_timing_type t);
const char *lib_timing_sense_name(lib_timing_sense s);
const char *lib_dir_name(lib_dir d);

/* The tables of a timing arc, by slot. */
typedef enum lib_arc_table {
    LIB_CELL_RISE, LIB_CELL_FALL, LIB_RISE_TRANSITION, LIB_FALL_TRANSITION,
    LIB_RISE_CONSTRAINT, LIB_FALL_CONSTRAINT,
    LIB_ARC_TABLES
} lib_arc_table;

/* One timing arc: a `timing` group of pin `pin`, for one related pin (a
 * related_pin listing several pins gives one arc each).  For delay arcs `pin`
 * is the output; for checks it is the constrained pin.  timing_sense absent
 * from the library: derived from the pin's function for combinational arcs
 * (positive or negative unate when the function is monotone in the related
 * pin), else non_unate. */
typedef struct lib_arc {
    uint32_t pin;
    int32_t related;            /* pin index, LIB_NONE without related_pin */
    lib_timing_sense sense;
    lib_timing_type type;       /* combinational when absent */
    const lib_expr *when;       /* NULL: unconditional */
    const char *sdf_cond;       /* text only; NULL when absent */
    const lib_table *table[LIB_ARC_TABLES]; /* NULL where absent */
} lib_arc;

/* One internal_power group of pin `pin` for one related pin.  `power`
 * (without rise_/fall_) fills both rise and fall.  Energies in joules, sign
 * kept.  rise/fall refer to the transition of `pin` itself. */
typedef struct lib_power {
    uint32_t pin;
    int32_t related;            /* pin index, LIB_NONE when absent */
    int32_t related_pg;         /* index into the cell's pg_pins, LIB_NONE when absent */
    const lib_expr *when;       /* NULL: any state */
    const lib_table *rise, *fall; /* NULL where absent */
} lib_power;

/* One leakage_power group: `value` watts when `when` holds (NULL: always). */
typedef struct lib_leakage {
    double value;
    const lib_expr *when;
    int32_t related_pg;
} lib_leakage;

typedef struct lib_pin {
    const char *name;           /* "A", or "D[3]" for a bus bit */
    lib_dir dir;
    int32_t bus;                /* index into the cell's buses, LIB_NONE */
    /* Farads.  capacitance: as given, else the mean of rise/fall, else the one
     * given, else the library's default_<dir>_pin_cap.  rise_/fall_: as given,
     * else `capacitance`. */
    double capacitance, rise_capacitance, fall_capacitance;
    double max_capacitance;     /* 0 when not given */
    bool is_clock;              /* clock : true */
    const lib_expr *function;   /* NULL when absent */
    const lib_expr *three_state;
    const lib_expr *state_function;
    int32_t related_power_pg;   /* related_power_pin as an index into pg_pins */
    int32_t related_ground_pg;
    /* This pin's arcs and power groups: cell->arcs[first_arc ..+ n_arcs],
     * cell->powers[first_power ..+ n_powers], in library order. */
    uint32_t first_arc, n_arcs;
    uint32_t first_power, n_powers;
} lib_pin;

typedef struct lib_pg_pin {
    const char *name;
    const char *pg_type;        /* e.g. "primary_power"; NULL when absent */
    const char *voltage_name;   /* as given, else the pin's own name */
    double voltage;             /* volts of voltage_name in the library's
                                   voltage_map; NAN when it has none */
} lib_pg_pin;

/* A bus or bundle: its members are pins bits[0..n_bits) (bus: bit_from to
 * bit_to order). */
typedef struct lib_bus {
    const char *name;
    bool is_bundle;
    uint32_t n_bits;
    const uint32_t *bits;
} lib_bus;

/* ff / latch expressions, by slot; NULL when absent. */
typedef enum lib_seq_expr {
    LIB_SEQ_NEXT_STATE, LIB_SEQ_CLOCKED_ON, LIB_SEQ_CLOCKED_ON_ALSO,
    LIB_SEQ_DATA_IN, LIB_SEQ_ENABLE, LIB_SEQ_ENABLE_ALSO,
    LIB_SEQ_CLEAR, LIB_SEQ_PRESET,
    LIB_SEQ_EXPRS
} lib_seq_expr;

/* An ff or latch group: state variables var_q and var_qn (variable indices;
 * var_qn LIB_NONE when the group names one variable). clear_preset_var1/2
 * are 'L', 'H', 'N', 'T', 'X' or 0 when absent. */
typedef struct lib_seq {
    bool is_latch;
    int32_t var_q, var_qn;
    const lib_expr *expr[LIB_SEQ_EXPRS];
    char clear_preset_var1, clear_preset_var2;
} lib_seq;

typedef struct lib_library lib_library;

typedef struct lib_cell {
    const char *name;
    const lib_library *library;
    double area;
    /* cell_leakage_power in watts; the library's default_cell_leakage_power
     * when absent (then has_cell_leakage_power is false). */
    double cell_leakage_power;
    bool has_cell_leakage_power;

    uint32_t n_pins;            /* = n_inputs + n_inouts + n_outputs + n_internals */
    uint32_t n_inputs, n_inouts, n_outputs, n_internals;
    const lib_pin *pins;

    uint32_t n_state_vars;
    const char *const *state_vars;
    uint32_t n_vars;            /* n_pins + n_state_vars */
    bool exprs_compiled;        /* n_vars <= LIB_MAX_EXPR_PINS */

    uint32_t n_arcs;
    const lib_arc *arcs;        /* grouped by pin, see lib_pin.first_arc */
    uint32_t n_powers;
    const lib_power *powers;    /* grouped by pin */
    uint32_t n_leakages;
    const lib_leakage *leakages; /* library order */
    uint32_t n_seqs;
    const lib_seq *seqs;
    uint32_t n_pg_pins;
    const lib_pg_pin *pg_pins;
    uint32_t n_buses;
    const lib_bus *buses;
} lib_cell;

/* ---- libraries ------------------------------------------------------------ */

typedef struct lib_voltage {
    const char *name;
    double volts;
} lib_voltage;

/* A wire_load group: per unit length capacitance (F) and resistance (ohm),
 * slope (length per fanout beyond the table), fanout -> length pairs. */
typedef struct lib_wire_load {
    const char *name;
    double capacitance, resistance, slope;
    uint32_t n_fanouts;
    const uint32_t *fanout;
    const double *length;
} lib_wire_load;

struct lib_library {
    const char *name;
    const char *path;
    /* One unit of the file: femtoseconds for time_unit ("1ns" -> 1e6), the
     * SI value for the others.  Internal power tables are in energy_unit =
     * voltage_unit^2 * cap_unit. */
    double time_unit, cap_unit, voltage_unit, current_unit, resistance_unit;
    double leakage_power_unit, energy_unit;
    /* Volts; NAN when absent.  `voltage` is the nominal supply gatepower uses:
     * the default operating conditions' voltage, else nom_voltage, else the
     * voltage of the only operating_conditions group, else NAN. */
    double nom_voltage, operating_voltage, voltage;
    double default_cell_leakage_power; /* W, 0 when absent */
    double default_input_pin_cap, default_output_pin_cap, default_inout_pin_cap; /* F */
    uint32_t n_voltage_map;
    const lib_voltage *voltage_map;
    uint32_t n_wire_loads;
    const lib_wire_load *wire_loads;
    const char *default_wire_load; /* NULL when absent */
    /* Its cells are lib_cell_at(set, first_cell ..+ n_cells) (duplicates of
     * earlier cells excluded). */
    uint32_t first_cell, n_cells;
};

/* ---- the set ------------------------------------------------------------- */

typedef struct lib_set lib_set;

/* An empty set, or NULL when out of memory. */
lib_set *lib_set_new(void);
void lib_set_free(lib_set *s);

/* Reads every library group of the file `path` (plain or gzip) into `s`.
 * Errors (GP_ERR_IO, GP_ERR_PARSE, GP_ERR_INPUT, GP_ERR_NOMEM) are reported to
 * `d` with file:line:col; the set then holds what it held before. */
gp_status lib_read(lib_set *s, const char *path, diag_ctx *d);
/* The same from memory; `name` is the file name used in messages. */
gp_status lib_read_memory(lib_set *s, const char *name, const char *data, size_t len,
                          diag_ctx *d);

size_t lib_library_count(const lib_set *s);
const lib_library *lib_library_at(const lib_set *s, size_t i);
/* Cells of all libraries in reading order. */
size_t lib_cell_count(const lib_set *s);
const lib_cell *lib_cell_at(const lib_set *s, size_t i);
/* The cell called `name`, or NULL. */
const lib_cell *lib_find_cell(const lib_set *s, const char *name);

/* The index of the pin called `name` in c->pins, or LIB_NONE. */
int32_t lib_pin_index(const lib_cell *c, const char *name);
/* Whether pin `pin` has internal_power groups related to pin `related`
 * (LIB_NONE: those without related_pin). */
bool lib_pin_has_power(const lib_cell *c, uint32_t pin, int32_t related);
/* The first delay arc (lib_timing_type_is_delay) of pin `out` related to
 * pin `related`, or LIB_NONE. */
int32_t lib_first_delay_arc(const lib_cell *c, uint32_t out, uint32_t related);

/* The value (0 or 1) of `e`, an expression of cell `c`, in state
 * `state_bits` (bits at and above c->n_vars are ignored); -1 when the cell's
 * expressions are not compiled. */
int lib_expr_eval(const lib_cell *c, const lib_expr *e, uint32_t state_bits);

#ifdef __cplusplus
}
#endif

#endif
