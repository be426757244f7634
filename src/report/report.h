/* report.h: the writers of a power analysis's results (SPEC §3, Results):
 * the report_power-style text report, hotspots, per-instance and per-cell
 * tables, the per-cycle power waveform (CSV, VCD, FST and an SVG plot) and
 * a JSON summary.
 *
 * Powers are watts: a component's power is its energy over the window's
 * length (t1 - t0), a waveform bin's power its energy over the period T.
 * "glitch" is glitch internal + glitch switching; "total" is the sum of the
 * five components.  Design totals follow power_total_energy (the IO group
 * counts only with include_io); an instance's powers never include IO. */
#ifndef GP_REPORT_REPORT_H
#define GP_REPORT_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "design/design.h"
#include "events/events.h"
#include "power/power.h"
#include "util/diag.h"
#include "util/status.h"

#define REPORT_DEFAULT_HOTSPOTS 20
/* The SVG plot draws at most this many columns per series; more cycles are
 * merged, each column keeping the largest value of its cycles. */
#define REPORT_SVG_MAX_POINTS 2000

/* Wall seconds of one phase of the run (reading the netlist, the engine...). */
typedef struct report_phase {
    const char *name;
    double seconds;
    /* What it ran beside, on threads of its own ("the activity"), or NULL:
     * the run waited for it. */
    const char *beside;
    /* The phase it is a step of ("the activity"), or NULL. */
    const char *within;
} report_phase;

/* One activity (test bench) of a run given several: its name and result.
 * The report's result is then their combination (power_result_concat). */
typedef struct report_activity {
    const char *name;
    const power_result *r;
} report_activity;

/* What the result itself does not record. */
typedef struct report_options {
    const char *design_name; /* in titles; NULL: "design" */
    bool glitch;             /* glitch analysis was on (power_options.glitch) */
    int hotspots;            /* instances in hotspots.txt; <= 0: REPORT_DEFAULT_HOTSPOTS */
    const report_phase *timing; /* report.json's "timing" object; NULL: none */
    int n_timing;
    /* The activities the result combines (report.txt's table and
     * report.json's "activities"); none: one activity. */
    const report_activity *activities;
    int n_activities;
} report_options;

/* design_name NULL, glitch on, REPORT_DEFAULT_HOTSPOTS hotspots. */
report_options report_defaults(void);

/* Creates out_dir (and its parents) if missing and writes into it:
 * report.txt, hotspots.txt, instances.csv, cells.csv, waveform.csv,
 * waveform.vcd, waveform.fst (builds with FST support; else a note says it
 * was left out), waveform.svg and report.json.  A directory that cannot be
 * created or a file that cannot be written is an error naming the path and
 * the system's reason (GP_ERR_IO).  The files are written under temporary
 * names and renamed into place once all are whole: a failed run leaves the
 * files of the run before as they were. */
gp_status report_write_all(const char *out_dir, const design *dg, const power_result *r,
                           const report_options *opt, diag_ctx *d);

/* `path` written whole or not at all: under a temporary name in its
 * directory, renamed to `path` once `text` has written it and it is
 * closed; otherwise removed.  `text` reports its own failures; a file
 * that cannot be opened is reported as message `msg_open`, one that
 * cannot be finished (a full disk) as `msg_finish` (GP_ERR_IO). */
typedef gp_status (*report_stream_fn)(FILE *out, void *ctx);
gp_status report_write_whole(const char *path, report_stream_fn text, void *ctx, int msg_open,
                             int msg_finish, diag_ctx *d);

/* What a SAIF file's header names. */
typedef struct report_saif_info {
    const char *design;  /* DESIGN; NULL: empty */
    const char *scope;   /* instance path of the design, "tb/dut" or "tb.dut"; NULL: none */
    const char *program; /* PROGRAM_NAME and VERSION */
    const char *version;
} report_saif_info;

/* SAIF 2.0 (backward) of every net of `ev` over [its first time,
 * ev->end_fs): T0 T1 TX (fs, summing to DURATION), TC (0<->1 changes) and
 * IG (0: glitches are not split out). */
gp_status report_write_events_saif(const char *path, const design *dg, const events *ev,
                                   const report_saif_info *info, diag_ctx *d);

/* Every net's events as a VCD with a 1 fs timescale (each name of a net,
 * aliases included, a variable), the nets under the scopes of `scope`
 * ("tb/dut" or "tb.dut"; NULL: at the top). */
gp_status report_write_events_vcd(const char *path, const design *dg, const events *ev,
                                  const char *scope, diag_ctx *d);

/* n with its digits grouped by threes, "10,468,457", into buf (people
 * read counts so; files for scripts keep plain digits). */
#define REPORT_COUNT_LEN 32
const char *report_count(char buf[REPORT_COUNT_LEN], uint64_t n);

/* report.txt's text and report.json's document, to any stream. */
void report_write_text(FILE *out, const design *dg, const power_result *r,
                       const report_options *opt);
void report_write_json(FILE *out, const design *dg, const power_result *r,
                       const report_options *opt);

/* "sequential", "combinational", "clock", "io". */
const char *report_group_name(power_group g);

/* Power of component c in waveform bin `cycle`, and of all five, W. */
double report_bin_power(const power_result *r, uint32_t cycle, power_component c);
double report_bin_total(const power_result *r, uint32_t cycle);

/* The peak: the largest report_bin_total (the first on ties), W; its cycle
 * goes to *cycle when not NULL.  0 and cycle 0 without bins. */
double report_peak(const power_result *r, uint32_t *cycle);

#endif
