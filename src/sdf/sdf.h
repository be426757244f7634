/* sdf.h: the SDF 3.0 reader (Standard Delay Format, OVI 3.0 / IEEE 1497
 * subset).
 *
 * The reader streams the file through the shared tokenizer and hands each
 * delay entry to a visitor; it never looks at a design.  Matching instance,
 * pin and cell names to a netlist is the visitor's business.
 *
 * What is delivered:
 *   - the header once, before the first CELL;
 *   - per CELL: its CELLTYPE and INSTANCE, then its entries in file order:
 *     IOPATH (plain, under COND or CONDELSE), INTERCONNECT, PORT, DEVICE, each
 *     ABSOLUTE or INCREMENT.
 * Names are '/'-separated: the file's DIVIDER ('/' or '.') becomes '/', and
 * escapes are removed ("ff\[0\]" -> "ff[0]", "odd\.name" -> "odd.name",
 * "esc\/name" -> "esc/name"), which is how a flattened Verilog netlist names
 * the same objects.  Bit selects stay in the name: "D[3]".
 * Delays are in femtoseconds (TIMESCALE applied; 1ns when the file has none).
 * A value triple min:typ:max gives the member sdf_options.pick chooses; an
 * empty member falls back (typ: max, then min; min: typ, then max; max: typ,
 * then min) and the file gets ONE warning counting such triples: OpenSTA
 * writes every triple as (min::max).  An empty value () is "no delay for this
 * transition": absent, not 0.
 * TIMINGCHECK and TIMINGENV groups are skipped with one warning per file (they
 * do not affect power); PATHPULSE, PATHPULSEPERCENT, NETDELAY, RETAIN, pulse
 * limits, edges other than posedge/negedge and bus-range ports are skipped
 * with one warning per kind; unknown constructs too (SDF is extensible).
 *
 * Messages 4001-4099.  Strings passed to the visitor live only during the
 * call.  A callback returning anything but GP_OK stops the read, and sdf_read
 * returns that status (the callback reports its own message).  After an error
 * the visitor has seen the entries before it: discard what it built. */
#ifndef GP_SDF_SDF_H
#define GP_SDF_SDF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"
#include "util/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which member of a min:typ:max triple is used. */
typedef enum sdf_pick { SDF_PICK_TYP = 0, SDF_PICK_MIN, SDF_PICK_MAX } sdf_pick;

/* The zero-initialised struct (or a NULL pointer) gives the defaults. */
typedef struct sdf_options {
    sdf_pick pick;
} sdf_options;

typedef struct sdf_header {
    /* The header strings, "" when the file does not give them. */
    const char *sdf_version, *design, *date, *vendor, *program, *program_version, *process;
    char divider;       /* the file's DIVIDER, '/' or '.' (names arrive with '/') */
    double timescale;   /* femtoseconds per time unit of the file */
    bool has_voltage, has_temperature;
    double voltage;     /* volts, picked from a triple like the delays */
    double temperature; /* degrees Celsius */
} sdf_header;

/* A pin or port, relative to the CELL's INSTANCE: `inst` is the path of the
 * instance holding it ("" for the cell instance itself, which for the top
 * cell, INSTANCE empty, makes `pin` a top-level port). */
typedef struct sdf_pin {
    const char *inst;
    const char *pin; /* with its bit select: "D[3]" */
} sdf_pin;

/* Delays for a rising and a falling transition, in femtoseconds.  A transition the
 * file leaves empty, "()", has has_rise / has_fall false. */
typedef struct sdf_delay {
    double rise, fall;
    bool has_rise, has_fall;
} sdf_delay;

typedef enum sdf_edge { SDF_EDGE_ANY = 0, SDF_EDGE_POSEDGE, SDF_EDGE_NEGEDGE } sdf_edge;

typedef struct sdf_iopath {
    sdf_pin in;
    sdf_edge edge;         /* (posedge A) / (negedge A); SDF_EDGE_ANY for a plain A */
    sdf_pin out;
    const char *cond;      /* COND's expression as written, tokens separated by one
                              space where the file has blanks ("B == 1'b1"), or NULL */
    const char *cond_name; /* COND's optional label string, or NULL */
    bool condelse;         /* CONDELSE: applies when no COND of the path holds */
    bool increment;        /* INCREMENT: add to the present delay, not replace it */
    sdf_delay delay;
} sdf_iopath;

typedef struct sdf_interconnect {
    sdf_pin from, to;
    bool increment;
    sdf_delay delay;
} sdf_interconnect;

/* PORT: the delay of the wire into an input port. */
typedef struct sdf_port_delay {
    sdf_pin port;
    bool increment;
    sdf_delay delay;
} sdf_port_delay;

/* DEVICE: the delay of every path to `out` (of every output when !has_out). */
typedef struct sdf_device {
    bool has_out;
    sdf_pin out;
    bool increment;
    sdf_delay delay;
} sdf_device;

/* Any callback may be NULL.  `loc` points to the '(' opening the construct. */
typedef struct sdf_visitor {
    void *ctx;
    gp_status (*header)(void *ctx, const sdf_header *h, diag_loc loc);
    /* instance: '/'-separated path, "" for the design top, "*" for every
     * instance of the celltype.  The entries that follow belong to it. */
    gp_status (*cell)(void *ctx, const char *celltype, const char *instance, diag_loc loc);
    gp_status (*iopath)(void *ctx, const sdf_iopath *e, diag_loc loc);
    gp_status (*interconnect)(void *ctx, const sdf_interconnect *e, diag_loc loc);
    gp_status (*port)(void *ctx, const sdf_port_delay *e, diag_loc loc);
    gp_status (*device)(void *ctx, const sdf_device *e, diag_loc loc);
} sdf_visitor;

/* Reads the SDF file `path` (plain or gzip).  opt may be NULL. */
gp_status sdf_read(const char *path, const sdf_visitor *v, const sdf_options *opt, diag_ctx *d);
/* The same on data[0..len); `name` stands for the file in messages. */
gp_status sdf_read_memory(const char *name, const char *data, size_t len, const sdf_visitor *v,
                          const sdf_options *opt, diag_ctx *d);

/* The most parts sdf_read_parts reads a file in. */
#define SDF_MAX_PARTS 64

/* The same on up to `parts` threads (at most SDF_MAX_PARTS): the CELLs are
 * cut into parts in file order, at CELLs or at INTERCONNECTs inside one,
 * part k's handed to visitors[k] (the header to visitors[0]).  On return
 * *used says how many parts count: visitors[0 .. *used) saw, one after the
 * other, what sdf_read's one visitor sees, and d got the same messages (a
 * visitor's entries before its first CELL call are then the CELL's that
 * the visitors before it saw last); the later visitors' calls are to be
 * dropped (their part's beginning proved not to be what it seemed, and
 * the part before read on). */
gp_status sdf_read_parts(const char *path, const sdf_visitor *visitors, uint32_t parts,
                         uint32_t *used, const sdf_options *opt, diag_ctx *d);
gp_status sdf_read_memory_parts(const char *name, const char *data, size_t len,
                                const sdf_visitor *visitors, uint32_t parts, uint32_t *used,
                                const sdf_options *opt, diag_ctx *d);

#ifdef __cplusplus
}
#endif

#endif
