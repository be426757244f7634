/* liberty_int.h: what the Liberty reader's files share: the generic syntax
 * layer (groups, attributes) with its visitor, the reader's state while it
 * builds one library and one cell, and the table and expression builders.
 *
 * Data flow: liberty_syntax.c tokenizes and calls a lib_visitor;
 * liberty_read.c is that visitor for the library level and dispatches cell
 * content to liberty_cell.c; at a cell's end liberty_finish.c resolves names,
 * orders pins, compiles expressions (liberty_expr.c) and lays the cell out as
 * the flat arrays of liberty.h; tables are built by liberty_table.c. */
#ifndef GP_LIBERTY_LIBERTY_INT_H
#define GP_LIBERTY_LIBERTY_INT_H

#include "liberty/liberty.h"
#include "util/arena.h"
#include "util/strtab.h"
#include "util/tok.h"
#include "util/vec.h"

/* ---- syntax layer (liberty_syntax.c) ------------------------------------ */

/* An argument of a group or complex attribute, or a simple attribute's
 * value.  Tokens written without blanks between them form one argument
 * ("D[0:3]"); commas and blanks separate arguments.  text is NUL-terminated;
 * a string's text excludes its quotes. */
typedef struct lib_arg {
    const char *text;
    size_t len;
    bool quoted;
    int line, col;
} lib_arg;

/* A statement: `name (args) { ... }`, `name (args);` or `name : value;`.
 * Pointers are valid during the callback only. */
typedef struct lib_stmt {
    const char *name;
    int line, col;
    size_t n_args;
    const lib_arg *args;
} lib_stmt;

/* The callbacks; a status other than GP_OK stops the parse and is returned.
 * group_begin sets *skip to have the group's body passed over unseen (then
 * no group_end comes for it). */
typedef struct lib_visitor {
    void *ctx;
    gp_status (*group_begin)(void *ctx, const lib_stmt *s, bool *skip);
    gp_status (*group_end)(void *ctx);
    gp_status (*simple_attr)(void *ctx, const lib_stmt *s);
    gp_status (*complex_attr)(void *ctx, const lib_stmt *s);
} lib_visitor;

/* The Liberty tokenizer configuration. */
extern const tok_config lib_tok_config;

/* Parses the whole input of `lx`, calling `v`. */
gp_status lib_syntax_parse(tok_lexer *lx, const lib_visitor *v, diag_ctx *d);

VEC_DECLARE(lib_argvec, lib_arg)

/* ---- id maps -------------------------------------------------------------- */

/* A map from strtab ids to small values (0: none), cleared in time
 * proportional to the entries set since the last clear. */
typedef struct lib_idmap {
    vec_u32 val;     /* by id */
    vec_u32 touched; /* ids set */
} lib_idmap;

static inline uint32_t lib_idmap_get(const lib_idmap *m, uint32_t id)
{
    return id < m->val.len ? m->val.data[id] : 0;
}

/* false when out of memory */
static inline bool lib_idmap_set(lib_idmap *m, uint32_t id, uint32_t v)
{
    if (id >= m->val.len && !vec_u32_resize(&m->val, (size_t)id + 1))
        return false;
    if (!vec_u32_push(&m->touched, id))
        return false;
    m->val.data[id] = v;
    return true;
}

static inline void lib_idmap_clear(lib_idmap *m)
{
    for (size_t i = 0; i < m->touched.len; i++)
        m->val.data[m->touched.data[i]] = 0;
    m->touched.len = 0;
}

static inline void lib_idmap_free(lib_idmap *m)
{
    vec_u32_free(&m->val);
    vec_u32_free(&m->touched);
}

/* ---- the set -------------------------------------------------------------- */

struct lib_set {
    arena mem;         /* every model object */
    strtab names;      /* cell, pin and other names, expression texts */
    vec_ptr libraries; /* lib_library * */
    vec_ptr cells;     /* lib_cell * */
    vec_u32 cell_of;   /* by strtab id: cell index + 1, 0 when none */
};

/* ---- tables (liberty_table.c) --------------------------------------------- */

#define LIB_VAR_UNKNOWN 0xff /* a template variable gatepower does not use */

/* lu_table_template / power_lut_template; index arrays in SI. */
typedef struct lib_template {
    uint32_t name;
    diag_loc loc;
    uint8_t n_vars;
    uint8_t var[3];       /* lib_var or LIB_VAR_UNKNOWN */
    uint32_t var_name[3]; /* strtab id of the variable as written */
    uint32_t size[3];
    const double *index[3]; /* NULL when the template gives none */
} lib_template;

typedef enum lib_table_role { LIB_ROLE_DELAY, LIB_ROLE_CONSTRAINT, LIB_ROLE_POWER } lib_table_role;

/* A table group being read. */
typedef struct lib_tableb {
    uint32_t tmpl;        /* index into the reader's templates */
    double value_scale;   /* fs (time) or J (power) per file unit of the values */
    vec_f64 index[2];
    bool has_index[2];
    vec_f64 values;
    uint32_t n_strings;   /* values strings seen */
    bool rows_uneven;     /* a values string's count differs from the first's */
    uint32_t first_row_len;
    bool has_values;
    diag_loc loc, values_loc;
} lib_tableb;

/* The SI value of one file unit on an axis measuring `var`. */
double lib_var_scale(const lib_library *lib, uint8_t var);
/* Parses the numbers of a list string ("1, 2.5, 3") into `out`, each times
 * `scale`; what names the attribute in messages. */
gp_status lib_parse_numbers(const lib_arg *a, const char *file, double scale, const char *what,
                            vec_f64 *out, diag_ctx *d);
/* Checks that idx[0..n) increases strictly. */
gp_status lib_check_increasing(const double *idx, size_t n, diag_loc loc, const char *what,
                               diag_ctx *d);
/* The finished table in `mem`, or an error (sizes, counts). */
gp_status lib_table_build(const lib_tableb *tb, const lib_template *tmpl, arena *mem,
                          diag_ctx *d, const lib_table **out);

/* ---- expressions (liberty_expr.c) ----------------------------------------- */

/* What an expression's names resolve against. */
typedef struct lib_expr_scope {
    const char *cell;              /* for messages */
    uint32_t n_vars;
    const strtab *names;           /* the set's names */
    const lib_idmap *var_of;       /* name id -> variable index + 1 */
    uint32_t n_buses;
    const lib_bus *buses;          /* bits are variable indices */
    int32_t bus;                   /* the bus of the pin the expression belongs to, or LIB_NONE */
    int32_t bus_pos;               /* that pin's position in its bus */
    bool compile;                  /* false: check the syntax and names only */
} lib_expr_scope;

/* Compiles `text` to a truth table over the scope's variables, allocated in
 * `mem` (*tt NULL when !sc->compile).  `what` says whose expression it is. */
gp_status lib_expr_compile(const lib_expr_scope *sc, const char *text, diag_loc loc,
                           const char *what, arena *mem, diag_ctx *d, const uint64_t **tt);
/* 64-bit words in a truth table over n_vars variables. */
size_t lib_expr_words(uint32_t n_vars);
/* How the function `tt` depends on variable `var`: positive or negative
 * unate, or non-unate (also when it does not depend on it at all). */
lib_timing_sense lib_expr_unateness(const uint64_t *tt, uint32_t n_vars, uint32_t var);

/* ---- the reader's state --------------------------------------------------- */

/* An attribute value kept until the cell ends: strtab id (STRTAB_NONE when
 * absent) and where it was written. */
typedef struct lib_text {
    uint32_t id;
    int line, col;
} lib_text;

/* Pin attributes, as bits in lib_bpin.set / .own. */
enum {
    LIB_PA_DIR = 1u << 0, LIB_PA_CAP = 1u << 1, LIB_PA_RISE_CAP = 1u << 2,
    LIB_PA_FALL_CAP = 1u << 3, LIB_PA_MAX_CAP = 1u << 4, LIB_PA_CLOCK = 1u << 5,
    LIB_PA_FUNCTION = 1u << 6, LIB_PA_THREE_STATE = 1u << 7,
    LIB_PA_STATE_FUNCTION = 1u << 8, LIB_PA_POWER_PIN = 1u << 9, LIB_PA_GROUND_PIN = 1u << 10
};

/* A pin being read (capacitances still in file units). */
typedef struct lib_bpin {
    uint32_t name;
    int line, col;
    uint32_t set; /* LIB_PA_* given */
    uint32_t own; /* given by the pin's own group: bus/bundle values do not override them */
    lib_dir dir;
    double cap, rise_cap, fall_cap, max_cap;
    bool clock;
    lib_text function, three_state, state_function, power_pin, ground_pin;
    int32_t bus, bus_pos;
} lib_bpin;

/* A bus or bundle being read: `tmpl` collects its own attributes, copied to
 * its members at its end.  Members are bpins[first_pin ..+ n_bits]. */
typedef struct lib_bbus {
    uint32_t name;
    bool is_bundle, made;
    uint32_t first_pin, n_bits;
    int32_t from, to;  /* bus: bit numbers of the first and last member */
    lib_bpin tmpl;
    diag_loc loc;
} lib_bbus;

/* A timing or internal_power group being read.  Its pins: the bus's members
 * when bus != LIB_NONE, else ctx[ctx_first ..+ ctx_n]. */
typedef struct lib_bgroup {
    uint32_t ctx_first, ctx_n;
    int32_t bus;
    lib_text related, related_bus, when, related_pg;
    uint32_t sdf_cond;
    int sense, type; /* -1 when absent */
    bool dropped;    /* an unknown timing_type: the arc is not kept */
    const lib_table *table[LIB_ARC_TABLES]; /* power: [0] rise, [1] fall */
    diag_loc loc;
} lib_bgroup;

typedef struct lib_bleak {
    double value;
    bool has_value;
    lib_text when, related_pg;
    diag_loc loc;
} lib_bleak;

typedef struct lib_bseq {
    bool is_latch;
    uint32_t var[2];
    lib_text expr[LIB_SEQ_EXPRS];
    char cp[2];
    diag_loc loc;
} lib_bseq;

typedef struct lib_bpg {
    uint32_t name, voltage_name, pg_type;
} lib_bpg;

typedef struct lib_bustype {
    uint32_t name;
    int32_t from, to;
    bool has_from, has_to;
} lib_bustype;

typedef struct lib_opcond {
    uint32_t name;
    double voltage; /* file units; NAN when absent */
} lib_opcond;

typedef struct lib_bwire {
    lib_wire_load w;
    vec_u32 fanout;
    vec_f64 length;
} lib_bwire;

VEC_DECLARE(lib_bpinvec, lib_bpin)
VEC_DECLARE(lib_bbusvec, lib_bbus)
VEC_DECLARE(lib_bgroupvec, lib_bgroup)
VEC_DECLARE(lib_bleakvec, lib_bleak)
VEC_DECLARE(lib_bseqvec, lib_bseq)
VEC_DECLARE(lib_bpgvec, lib_bpg)
VEC_DECLARE(lib_templatevec, lib_template)
VEC_DECLARE(lib_bustypevec, lib_bustype)
VEC_DECLARE(lib_opcondvec, lib_opcond)
VEC_DECLARE(lib_voltagevec, lib_voltage)
VEC_DECLARE(lib_bwirevec, lib_bwire)
VEC_DECLARE(lib_arcvec, lib_arc)
VEC_DECLARE(lib_powervec, lib_power)

/* What the reader is inside of; the stack holds one frame per entered group. */
typedef enum lib_frame_kind {
    LIB_F_LIBRARY, LIB_F_OPCOND, LIB_F_TEMPLATE, LIB_F_TYPE, LIB_F_WIRE_LOAD,
    LIB_F_CELL, LIB_F_PIN, LIB_F_BUS, LIB_F_PG_PIN, LIB_F_SEQ, LIB_F_LEAKAGE,
    LIB_F_TIMING, LIB_F_POWER, LIB_F_TABLE
} lib_frame_kind;

/* index: the object the frame fills (pin frame: ctx range start, with n);
 * slot: the table slot a table frame fills (LIB_SLOT_BOTH: both power slots). */
typedef struct lib_frame {
    lib_frame_kind kind;
    uint32_t index, n;
    int slot;
} lib_frame;

#define LIB_MAX_DEPTH 8
#define LIB_SLOT_BOTH (-2)

/* The cell being read; cleared at each cell's start. */
typedef struct lib_cellb {
    uint32_t name;
    diag_loc loc;
    double area;
    double leakage;
    bool has_leakage;
    lib_bpinvec pins;
    lib_idmap pin_of; /* name id -> pin index + 1 */
    lib_bbusvec buses;
    vec_u32 ctx; /* pin lists of pin groups */
    lib_bgroupvec arcs, powers;
    lib_bleakvec leaks;
    lib_bseqvec seqs;
    lib_bpgvec pgs;
} lib_cellb;

typedef struct lib_reader {
    lib_set *set;
    diag_ctx *d;
    const char *file;
    lib_frame stack[LIB_MAX_DEPTH];
    int depth;
    vec_u64 warned; /* (message number << 32 | strtab id) already warned about */

    /* the library being read */
    lib_library *lib;
    uint32_t lib_first_cell;
    bool units_fixed;    /* a cell, template or wire_load was read: units are final */
    bool cells_started;  /* a cell was read: default_* attributes are final */
    uint32_t units_given; /* bits by lib_unit_kind */
    double raw_nom_voltage;
    uint32_t default_opcond;
    lib_templatevec templates;
    vec_u32 template_of; /* by strtab id: template index + 1 */
    lib_bustypevec bustypes;
    lib_opcondvec opconds;
    lib_voltagevec voltages; /* volts in file units until the library's end */
    lib_bwirevec wires;
    uint32_t default_wire;

    lib_cellb cell;
    lib_tableb table;
    /* scratch of liberty_finish.c */
    vec_u32 order;
    lib_idmap var_of;     /* name id -> variable + 1 */
    lib_idmap expr_of;    /* expression text id -> index in exprs + 1 */
    vec_ptr exprs;        /* compiled expressions of the cell outside buses */
    vec_u32 related;      /* pins of one related_pin list */
    vec_u32 count;        /* entries per pin */
    lib_arcvec arcs;
    lib_powervec powers;
} lib_reader;

/* Interns s; STRTAB_NONE (after reporting) when out of memory. */
uint32_t lib_intern(lib_reader *rd, const char *s, size_t len);
diag_loc lib_loc(const lib_reader *rd, int line, int col);
diag_loc lib_arg_loc(const lib_reader *rd, const lib_arg *a);
gp_status lib_nomem(lib_reader *rd);
/* A warning reported at most once per file for each (msgno, key). */
void lib_warn_once(lib_reader *rd, int msgno, uint32_t key, diag_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Reports the skipped group s (once per group name and file) and sets *skip. */
void lib_skip_group(lib_reader *rd, const lib_stmt *s, const char *inside, bool *skip);
/* The single number of a simple attribute, in file units. */
gp_status lib_attr_number(lib_reader *rd, const lib_stmt *s, double *out);
/* A number that cannot be negative (a capacitance, a leakage power): error
 * 2222 when it is. */
gp_status lib_attr_amount(lib_reader *rd, const lib_stmt *s, double *out);
/* A true/false attribute. */
gp_status lib_attr_bool(lib_reader *rd, const lib_stmt *s, bool *out);
/* The reader's frame `up` levels above the top (0: the top). */
lib_frame *lib_frame_at(lib_reader *rd, int up);
gp_status lib_push(lib_reader *rd, lib_frame_kind kind, uint32_t index, uint32_t n, int slot);

/* liberty_cell.c: the statements inside a cell group. */
gp_status lib_cell_begin(lib_reader *rd, const lib_stmt *s, bool *skip);
gp_status lib_cell_group(lib_reader *rd, const lib_stmt *s, bool *skip);
gp_status lib_cell_group_end(lib_reader *rd);
gp_status lib_cell_simple(lib_reader *rd, const lib_stmt *s);
gp_status lib_cell_complex(lib_reader *rd, const lib_stmt *s);
void lib_cellb_free(lib_cellb *cb);

/* liberty_finish.c: lays out the cell read and adds it to the set. */
gp_status lib_cell_finish(lib_reader *rd);

#endif
