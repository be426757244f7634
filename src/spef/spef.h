/* spef.h: the SPEF reader (Standard Parasitic Exchange Format, IEEE 1481).
 *
 * The reader streams the file through the shared tokenizer and hands what it
 * finds to a visitor; it never looks at a design.  Matching nets, instances
 * and pins to a netlist is the visitor's business.
 *
 * What is delivered:
 *   - the header (names, delimiters, units: time in fs, the rest SI) once, before anything else;
 *   - *POWER_NETS / *GROUND_NETS names;
 *   - the *PORTS entries;
 *   - per *D_NET: its name, its total capacitance in farads, and its *CONN
 *     connections (*P ports and *I instance pins), for consistency checks.
 * The RC network (*CAP, *RES, *INDUC) is checked for syntax and name-map
 * indices but not delivered: the design uses a net's total capacitance as its
 * wire capacitance.  *R_NET, *D_PNET and *R_PNET nets are skipped with one
 * warning per kind (their nets get no wire capacitance); *DEFINE, *PDEFINE,
 * *PHYSICAL_PORTS, *VARIATION_PARAMETERS and unknown keywords likewise.
 *
 * Names: *NAME_MAP indices ("*12", "*12:A") are replaced by their names;
 * escapes are removed ("a\[3\]" -> "a[3]"); the hierarchy divider becomes
 * '/'; a bus bit written with the file's bus delimiters ("d<3>") becomes
 * "d[3]".  An instance pin "u1/u2:A" is split into inst "u1/u2" and pin "A"
 * at the last (unescaped) pin delimiter.
 * A value triple "1.2:1.3:1.4" gives its middle (typical) member.
 *
 * Messages 5001-5099.  Strings passed to the visitor live only during the
 * call.  A callback returning anything but GP_OK stops the read, and
 * spef_read returns that status (the callback reports its own message).
 * After an error the visitor has seen what came before: discard it. */
#ifndef GP_SPEF_SPEF_H
#define GP_SPEF_SPEF_H

#include <stdbool.h>
#include <stddef.h>

#include "util/diag.h"
#include "util/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct spef_header {
    /* The header strings, "" when the file does not give them; design_flow
     * joins *DESIGN_FLOW's strings with spaces. */
    const char *spef_version, *design, *date, *vendor, *program, *program_version, *design_flow;
    char divider;             /* as in the file (names arrive with '/'); default '/' */
    char delimiter;           /* the pin delimiter; default ':' */
    char bus_open, bus_close; /* default '[' ']'; bus_close '\0' when the file gives none */
    /* One unit of the file: femtoseconds, farads, ohms, henries; 0 when
     * the file does not give it (only *C_UNIT is required). */
    double t_unit, c_unit, r_unit, l_unit;
} spef_header;

typedef enum spef_dir { SPEF_DIR_INPUT, SPEF_DIR_OUTPUT, SPEF_DIR_BIDIR } spef_dir;

/* A *PORTS entry, or a *CONN entry of a net. */
typedef struct spef_conn {
    bool is_port;             /* *P (and *PORTS): a port of the design; else *I */
    const char *inst;         /* *I: the instance path ('/'-separated); NULL for a port */
    const char *pin;          /* *I: the pin name; a port: the port name */
    spef_dir dir;
    bool has_load;
    double load;              /* *L, farads */
    const char *driving_cell; /* *D, or NULL */
    diag_loc loc;
} spef_conn;

typedef struct spef_net {
    const char *name;
    double total_cap; /* farads */
    size_t conn_count;
    const spef_conn *conns;
} spef_net;

/* Any callback may be NULL.  `loc` points to the keyword or entry. */
typedef struct spef_visitor {
    void *ctx;
    gp_status (*header)(void *ctx, const spef_header *h, diag_loc loc);
    gp_status (*supply_net)(void *ctx, const char *name, bool ground, diag_loc loc);
    gp_status (*port)(void *ctx, const spef_conn *port, diag_loc loc);
    gp_status (*d_net)(void *ctx, const spef_net *net, diag_loc loc);
} spef_visitor;

/* Reads the SPEF file `path` (plain or gzip). */
gp_status spef_read(const char *path, const spef_visitor *v, diag_ctx *d);
/* The same on data[0..len); `name` stands for the file in messages. */
gp_status spef_read_memory(const char *name, const char *data, size_t len, const spef_visitor *v,
                           diag_ctx *d);

#ifdef __cplusplus
}
#endif

#endif
