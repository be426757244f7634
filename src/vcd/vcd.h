/* vcd.h: reading switching activity from VCD (IEEE 1364 §18, plain or .gz)
 * and FST files, streaming, into a sink of callbacks.  Both formats give the
 * same calls; vcd_read tells them apart by the file's first bytes.
 *
 * What the sink sees:
 *   var     once per declared variable inside the selected scope, during the
 *           header; aliases (several declarations sharing one identifier
 *           code or FST handle) carry the same id.
 *   start   once, after the last var and before the first change.
 *   changes value changes of single BITS, in batches: every change of one
 *           batch has the batch's time; batch times never decrease, and one
 *           time may span several batches.  A bit's change is delivered only
 *           when its value differs from the bit's previous value; every bit
 *           is X before its first change.  Several changes of one bit at one
 *           time (a zero-width pulse) are all delivered, in file order.
 *   finish  once, with the dump's end time, after the last change.
 * A callback may be NULL; one that returns other than GP_OK stops the read,
 * and vcd_read returns that status (the sink reports its own diagnostic).
 *
 * A VCD file is read on several threads when the sink has `parts` and
 * `part_changes` and vcd_options.threads allows: the value changes are cut
 * into parts at line starts of `#time` lines (a gzip file's as its stream
 * is decompressed), and each part is read on its own, in any order and at
 * once, its changes going to part_changes with the part's number.  Inside
 * a part the rules above hold but one: a change may repeat the bit's value
 * (the part does not know the bit's value before its first change, and a
 * one-bit variable's changes are delivered as read, unchecked), so the
 * sink drops each change that equals the bit's value before it.  Whatever a
 * part meets that only a reading in file order handles ($dumpoff, $dumpon,
 * an error, a section cut by a part's edge), the reader calls parts with 0
 * (forget the parts' changes) and reads the changes again in file order
 * through `changes`, so that results and messages are those of one thread.
 * A sink with `parts_done` and a vcd_options.batch_bytes gets the parts in
 * batches of about that many bytes of the file, read in file order one
 * batch after the other, and may take what a batch gave before the next
 * is read: memory then holds a batch, not the file.
 *
 * Values: 0, 1 and X; the file's x and z both become X (power analysis has
 * no use for high impedance).  Times are int64 femtoseconds: every VCD/FST
 * timescale from 1 fs to 100 s converts exactly; VCD_TIME_MAX_FS (2^61 fs,
 * 38.4 minutes of simulated time) is the latest, and a later time is an
 * error.  Between $dumpoff and
 * $dumpon (VCD) or while the FST's dump is inactive every delivered bit is X.
 *
 * Names: scope paths are joined with '/'; escaped identifiers lose their
 * backslash (and the space ending them).  With a scope selected, only vars
 * below it are delivered, their scope relative to it, so that
 * scope + "/" + name matches the flattened netlist's names ("u_sub/n5");
 * vcd_bit_name builds the name of one bit. */
#ifndef GP_VCD_VCD_H
#define GP_VCD_VCD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The latest time delivered: the event store's (events.h, EVENTS_TIME_MAX),
 * which packs a time and a value in 64 bits. */
#define VCD_TIME_MAX_FS (INT64_MAX >> 2)

#include "util/diag.h"
#include "util/progress.h"
#include "util/status.h"

typedef enum vcd_value { VCD_0 = 0, VCD_1 = 1, VCD_X = 2 } vcd_value;

/* A declared variable.  Strings live until the callback returns. */
typedef struct vcd_var {
    uint32_t id;       /* dense in [0, vcd_info.id_count); aliases share it */
    const char *scope; /* relative to the selected scope, '/'-joined; "" directly in it */
    const char *name;  /* the reference without its bit-select: "data" of "data [7:0]" */
    const char *type;  /* the declared type: "wire", "reg", "integer", ... */
    uint32_t width;    /* bits */
    bool has_range;    /* declared with [msb:lsb] or [i] */
    int32_t msb, lsb;  /* the range; without one width-1 and 0 */
} vcd_var;

/* One bit's new value.  `bit` counts from the value's right end (0 is the
 * LSB, the last character of a VCD vector value), whatever the declared
 * range's direction; vcd_bit_name maps it to the declared index. */
typedef struct vcd_change {
    uint32_t id;
    uint32_t bit;
    uint8_t value; /* vcd_value */
} vcd_change;

/* The times a part given as runs may have (vcd_sink.part_times): an
 * index fits a run's word beside its value. */
#define VCD_RUN_TIMES ((uint32_t)1 << 30)

typedef struct vcd_info {
    const char *format;   /* "VCD" or "FST" */
    int64_t timescale_fs; /* one time unit of the file, in fs */
    uint32_t id_count;    /* ids are below this (including ones never delivered) */
    uint32_t var_count;   /* vars delivered */
    /* The dump's last time stamp as the file tells it before its changes
     * are read (an FST's header; a plain VCD's last time command, near its
     * end), or -1 (a gzip VCD, memory: only the whole reading tells). */
    int64_t last_time_fs;
    /* The pieces a VCD header's declarations were read in on threads (0:
     * read word by word, as a small or unusual header is). */
    uint32_t header_pieces;
} vcd_info;

typedef struct vcd_sink {
    void *ctx; /* passed to every callback */
    gp_status (*var)(void *ctx, const vcd_var *v);
    gp_status (*start)(void *ctx, const vcd_info *info);
    gp_status (*changes)(void *ctx, int64_t time_fs, const vcd_change *c, size_t n);
    /* The last time stamp of the file (0 when it has none). */
    gp_status (*finish)(void *ctx, int64_t end_time_fs);
    /* Reading in parts (see above): `n` parts numbered from 0 in file order
     * follow, before any part_changes; a later call with a larger n (made
     * while no part_changes runs) adds parts, keeping what the first ones
     * gave; n == 0 drops what the parts gave. */
    gp_status (*parts)(void *ctx, uint32_t n);
    /* Called from the reading threads, for one part at a time; a status
     * other than GP_OK makes the reader drop the parts and read in file
     * order, so it needs no diagnostic of its own. */
    gp_status (*part_changes)(void *ctx, uint32_t part, int64_t time_fs, const vcd_change *c,
                              size_t n);
    /* An FST's parts may come as runs instead, when the sink has both of
     * these: first, once per part before its runs, the part's times (not
     * decreasing), then one bit's changes of the part at a time, in time
     * order, each a word time_index << 2 | value (a vcd_value; time_index
     * below VCD_RUN_TIMES, into the part's times).  The part rules above
     * hold (a span's runs hold only its changes); a part given runs gets
     * no part_changes.  Called from the reading threads, as part_changes. */
    gp_status (*part_times)(void *ctx, uint32_t part, const int64_t *time_fs, size_t n);
    gp_status (*part_run)(void *ctx, uint32_t part, uint32_t id, uint32_t bit,
                          const uint32_t *change, size_t n);
    /* Parts [0, n) are read, agree with a reading in file order, and hold
     * every change before `complete_fs`; no part from n on holds any yet.
     * Called while no part_changes runs; a later parts(0) still drops
     * everything the parts gave. */
    gp_status (*parts_done)(void *ctx, uint32_t n, int64_t complete_fs);
    /* Reading a span (vcd_options.span): asked, before any part, whether
     * to read only the `bytes` of the file that hold the span's changes,
     * the first at a time at or after from_fs; false reads the whole dump
     * as without a span.  A later parts(0) drops the span's parts: the
     * reading in file order that follows reads the whole dump. */
    bool (*span)(void *ctx, int64_t from_fs, uint64_t bytes);
} vcd_sink;

typedef struct vcd_options {
    /* Deliver only vars below this scope, e.g. "tb/dut" ('/' or '.' between
     * levels); NULL or "" delivers every var with its full scope path.  A
     * scope that is not in the file is an error listing the scopes there. */
    const char *scope;
    /* Bytes read at once (0: 4 MiB); tests use tiny ones to cut tokens. */
    size_t chunk_size;
    /* A progress bar to advance by the bytes of the file read (NULL: none). */
    progress *bar;
    /* Threads reading a plain VCD's value changes (0: one per core; 1: on
     * the calling thread, in parts one after the other where the body holds
     * two and is one batch, else in file order). */
    uint32_t threads;
    /* Bytes of value changes a part holds at least (0: 8 MiB), and of the
     * header's declarations a piece (0: 1 MiB); tests use tiny ones to cut
     * many. */
    size_t part_size;
    /* With the sink's parts_done: bytes of the file (of text, for a gzip
     * file) a batch of parts holds at most, about (0: one batch). */
    size_t batch_bytes;
    /* A span of time: a plain VCD read in parts may read only the changes
     * at times in [span_from_fs, span_to_fs) (INT64_MIN: from the dump's
     * start; INT64_MAX: to its end), when the sink's span agrees: the
     * parts then begin and end at time commands found by binary search
     * over the file. */
    bool span;
    int64_t span_from_fs, span_to_fs;
} vcd_options;

/* Reads the VCD (plain or gzip) or FST file `path` into `sink` (not NULL;
 * its callbacks may be).  `opt` may be NULL.  Errors go to `d` with
 * file:line:col (messages 6000-6999). */
gp_status vcd_read(const char *path, const vcd_options *opt, const vcd_sink *sink, diag_ctx *d);

/* Reads VCD text data[0..len); `name` (may be NULL) names it in messages. */
gp_status vcd_read_memory(const char *name, const char *data, size_t len, const vcd_options *opt,
                          const vcd_sink *sink, diag_ctx *d);

/* Writes the netlist name of `bit` (as in vcd_change) of `v` into buf, like
 * snprintf: "scope/name[i]" with i the declared index of that bit, or
 * "scope/name" for a 1-bit var declared without a range ("scope/" left out
 * when the scope is "").  So `data [7:0]` bit 3 is "data[3]", `data [0:7]`
 * bit 3 is "data[4]", `x [0]` is "x[0]", and the escaped `\x[0] ` is "x[0]"
 * too.  Returns the length the full name needs. */
int vcd_bit_name(const vcd_var *v, uint32_t bit, char *buf, size_t size);

#endif
