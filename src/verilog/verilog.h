/* verilog.h: the structural Verilog netlist reader.
 *
 * Reads the gate-level subset that yosys (write_verilog -noattr -noexpr),
 * OpenROAD, Design Compiler and Genus write, flattens the hierarchy below the
 * top module and hands the flat design to a builder (vlog_builder), which the
 * design database implements: the reader never reaches into the database.
 *
 * Flat names.  '/' divides hierarchy levels: instance "u_core/u_alu/_123_",
 * net "u_core/n5".  Bit i of a vector net v is named "v[i]" (its declared
 * index); a scalar net is named by its identifier.  An escaped identifier
 * keeps its text without the backslash and the terminating white space, so
 * `\data_in[3] ` (a scalar) is named "data_in[3]", the same spelling as bit 3
 * of a vector data_in: the reader reports a module that declares both.  An
 * escaped name that holds '/' looks like a path; that is intended (flattened
 * netlists name nets "u1/n5") and the builder should reject a name it already
 * holds, since only such names can clash.
 *
 * Nets.  The reader merges the bits that `assign a = b;` and hierarchical
 * port connections make one electrical net (union-find over net bits), so the
 * builder sees each net once, with its canonical name and every other name
 * (vlog_nets).  The canonical name is the one of the highest hierarchy
 * level; within a level, a port's name before another net's (top-level
 * ports thus always win), ports in port-list order, then nets in
 * declaration order.
 *
 * Constants.  A net that a constant drives (`assign a = 1'b0;`, `supply0`,
 * a constant on a submodule port) is added with that constant as its value.
 * A constant written on a library cell's pin connects the pin to one shared
 * constant net per value, named "1'b0", "1'b1" and "1'bx" (added only when
 * used; x and z constants both give X; an escaped top-level name spelt the
 * same would clash, which the builder's duplicate check reports).
 *
 * Bus pins.  The Liberty reader bit-blasts bus pins into scalar pins named
 * "D[0]", "D[1]", ...; the reader groups them back by name, the highest index
 * being the most significant bit, so `.D(x[3:0])` connects D[3]..D[0] to
 * x[3]..x[0].  Ordered connections follow the order in which the cell's pins
 * (a bus counting once, where its first bit appears) are listed.
 *
 * Call order: find_cell while checking (once per distinct cell name), then
 * reserve (if set), then add_nets, add_ports and add_instances once each,
 * every net, port bit and instance of the flat design in one call: the
 * reader makes them on threads, and the builder may take them on threads.
 * A callback that fails returns its status, preferably after reporting why
 * through its own diag_ctx; the reader stops and returns that status
 * (reporting message 3090 itself when the callback reported no error).
 * After a failure the builder may hold part of the design and should
 * discard it.  What the callbacks are given lives only during the call. */
#ifndef GP_VERILOG_VERILOG_H
#define GP_VERILOG_VERILOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"
#include "util/progress.h"
#include "util/status.h"
#include "util/strtab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Port directions (vlog_ports.dir). */
enum { VLOG_DIR_INPUT = 1, VLOG_DIR_OUTPUT = 2, VLOG_DIR_INOUT = 3 };

/* A net's value: a signal, or driven by a constant. */
typedef enum vlog_value {
    VLOG_VALUE_SIGNAL = 0,
    VLOG_VALUE_0 = 1,
    VLOG_VALUE_1 = 2,
    VLOG_VALUE_X = 3
} vlog_value;

/* vlog_instances.pin_net of a pin left unconnected. */
#define VLOG_NO_NET UINT32_MAX

/* What the reader needs to know about a library cell.  The arrays stay the
 * builder's and must stay valid until vlog_read returns. */
typedef struct vlog_cell_info {
    uint32_t id;                  /* the builder's handle, given back in vlog_instances.cell */
    int pin_count;
    const char *const *pin_names; /* scalar pin names, bus bits as "D[0]", in library order */
} vlog_cell_info;

/* The flattened design's size, known before add_nets. */
typedef struct vlog_sizes {
    uint64_t names;            /* net names (vlog_nets.n_names) */
    uint64_t instances;        /* library cell instances */
    uint64_t connections;      /* connected pins */
    uint64_t module_instances; /* instances of netlist modules (flattened away; the
                                  reader's own memory grows with them) */
    const char *top;           /* the top module's name (valid during the call) */
} vlog_sizes;

/* The flat design's nets, 0 .. count - 1: net n has value[n] (a
 * vlog_value); names[k] names net name_net[k].  Every flat name of every
 * net is there once, a net's canonical name before its others, and the
 * nets are first named in their order (net n's canonical name comes
 * before net n + 1's). */
typedef struct vlog_nets {
    uint32_t count;
    const uint8_t *value;
    uint64_t n_names;
    const strtab_ref *names;
    const uint32_t *name_net;
} vlog_nets;

/* The top module's port bits ("a" or "a[3]") in port-list order: port k is
 * names[k], dir[k] (VLOG_DIR_*), on net[k].  A port bit is a bit of the
 * top's nets: its name is one that vlog_nets gave net[k]. */
typedef struct vlog_ports {
    uint32_t count;
    const strtab_ref *names;
    const uint8_t *dir;
    const uint32_t *net;
} vlog_ports;

/* The library cell instances, 0 .. count - 1: instance i is cell[i] (the
 * id find_cell gave) at flat path paths[i]; its pins are pin_net[pin0[i]
 * .. pin0[i + 1]), one a pin of the cell in the order of its pin_names,
 * each the net the pin is on or VLOG_NO_NET. */
typedef struct vlog_instances {
    uint32_t count;
    const strtab_ref *paths;
    const uint32_t *cell;
    const uint32_t *pin0; /* [count + 1] */
    const uint32_t *pin_net;
} vlog_instances;

typedef struct vlog_builder {
    void *ctx; /* passed to every callback */
    /* The library cell `name`: false when there is none. */
    bool (*find_cell)(void *ctx, const char *name, vlog_cell_info *out);
    /* Optional (may be NULL): to reserve memory, or to refuse a design that
     * is too large, before anything is added; it also names the top module. */
    gp_status (*reserve)(void *ctx, const vlog_sizes *sizes);
    gp_status (*add_nets)(void *ctx, const vlog_nets *nets);
    gp_status (*add_ports)(void *ctx, const vlog_ports *ports);
    gp_status (*add_instances)(void *ctx, const vlog_instances *insts);
} vlog_builder;

/* Reads the netlist files `paths` (gzip or plain; modules may be spread over
 * them in any order) and builds the design below module `top` (NULL: the only
 * module no other module instantiates).  Errors go to `d` with file:line:col;
 * the first error stops the reading.  `bar` (may be NULL) shows each file's
 * reading. */
gp_status vlog_read(const char *const *paths, int npaths, const char *top, const vlog_builder *b,
                    progress *bar, diag_ctx *d);

/* The same for one netlist held in memory; `name` stands for the file in
 * messages. */
gp_status vlog_read_memory(const char *name, const char *text, size_t len, const char *top,
                           const vlog_builder *b, diag_ctx *d);
/* The same, lexed in chunks of about chunk_bytes (0: the default): tests
 * make them small to try the chunks' borders. */
gp_status vlog_read_memory_chunked(const char *name, const char *text, size_t len,
                                   size_t chunk_bytes, const char *top, const vlog_builder *b,
                                   diag_ctx *d);

#ifdef __cplusplus
}
#endif

#endif
