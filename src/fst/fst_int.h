/* fst_int.h: what the FST reader's files share: the reader of one FST
 * file (or of a time range of it, fst_parts.c) into vcd_state's sink. */
#ifndef GP_FST_FST_INT_H
#define GP_FST_FST_INT_H

#include "fst/fst_reader.h"
#include "fstapi.h"
#include "vcd/vcd_int.h"

typedef struct fst_reader {
    vcd_state st;
    void *fst;
    diag_loc loc;        /* the file, no line */
    int64_t scale;       /* fs per time unit */
    uint64_t last_ticks; /* the time of the last change seen, in file units */
    uint64_t from, to;   /* changes outside [from, to] are left out (a part's range) */
    uint32_t activity_n, activity_next; /* dump on/off changes, the next to apply */
    gp_status status;    /* the first failure inside a callback; the rest are ignored */
    char *name;          /* a var's reference, copied to be parsed */
    size_t name_cap;
} fst_reader;

/* fstapi's value change callback: the change into f->st if it lies in
 * [f->from, f->to]. */
void fst_on_change(void *user, uint64_t ticks, fstHandle h, const unsigned char *value);
/* Sets fst's process mask to the handles f delivers among ids [lo, hi). */
void fst_select_delivered(const fst_reader *f, void *fst, uint32_t lo, uint32_t hi);
/* The file read through fstapi (its framing checked before): the header
 * into `sink`, the value changes into changes_sink (NULL: `sink` too). */
gp_status fst_read_file(const char *path, const vcd_options *opt, const vcd_sink *sink,
                        const vcd_sink *changes_sink, diag_ctx *d);
/* Error 6110: fstapi gave up on a block (fstapi_said: its line is above). */
gp_status fst_report_damaged(diag_ctx *d, diag_loc loc, bool fstapi_said);
/* The file read first in a child process, whose sink keeps no change
 * (fst_trial.c): an error when fstapi fails on it there (6110, 6111). */
gp_status fst_trial(const char *path, const vcd_options *opt, const vcd_sink *sink, diag_ctx *d);
/* Time `ticks` of the file in fs; false beyond 2^63 fs. */
bool fst_ticks_fs(const fst_reader *f, uint64_t ticks, int64_t *fs);

/* After f's header: the value changes read in time ranges on threads, one
 * fstapi reader each, when the sink, the options and the file allow (no
 * dump on/off changes).  *done is false when they were not, or when a part
 * failed (the sink's parts dropped): f then reads them in file order. */
/* fstapi's reading calls under a guard (fst_guard.c): when fstapi gives up
 * on a damaged block (its exit()), they return NULL with *escaped set, or
 * false, and the reader must be left unclosed. */
void *fst_guarded_open(const char *path, bool *escaped);
bool fst_guarded_blocks(void *fst, fst_reader *f);
bool fst_guarded_hier(void *fst, struct fstHier **h);

/* Error 6109 unless `path` is a whole FST file, block by block, whose
 * header's counts fit its size (fst_check.c): what fstapi, which trusts
 * the file, is given. */
gp_status fst_check_file(const char *path, diag_ctx *d);

gp_status fst_parts_read(fst_reader *f, const char *path, const vcd_options *opt, bool *done);

#endif
