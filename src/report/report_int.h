/* report_int.h: what the report writers share: the context of one
 * report_write_all, unit conversions, number formatting and the writers of
 * the single files. */
#ifndef GP_REPORT_REPORT_INT_H
#define GP_REPORT_REPORT_INT_H

#include "report/report.h"

typedef struct report_ctx {
    const design *dg;
    const power_result *r;
    report_options opt; /* defaults filled in: design_name set, hotspots > 0 */
    diag_ctx *d;
    const char *path;   /* the file being written, for messages */
    const char *write_path; /* where it is written: its temporary name */
} report_ctx;

/* The options with their defaults filled in. */
report_options report_resolve_options(const report_options *opt);

/* The columns of every power table: internal, switching, leakage, glitch
 * (both parts), total. */
enum { REPORT_COL_INTERNAL, REPORT_COL_SWITCHING, REPORT_COL_LEAKAGE, REPORT_COL_GLITCH,
       REPORT_COL_TOTAL, REPORT_COLS };
extern const char *const report_col_names[REPORT_COLS];
/* The columns of a row of POWER_COMPONENTS energies, each divided by `seconds`. */
void report_columns(const double *energies, double seconds, double out[REPORT_COLS]);

/* The design totals (power_total_energy) as columns, W. */
void report_total_columns(const power_result *r, double out[REPORT_COLS]);

/* Time conversions: fs to s; the window's length (0 guarded to 1 s so that a
 * degenerate result gives zeros, never infinities); a cycle's start. */
double report_seconds(int64_t fs);
double report_duration(const power_result *r);
double report_period(const power_result *r);
double report_cycle_start(const power_result *r, uint32_t cycle);

/* Longest report_eng text, NUL included. */
#define REPORT_ENG_LEN 32
/* v with an SI prefix and three decimals ("123.457 uW", "-1.500 ns"), "0 W"
 * for zero; returns buf. */
const char *report_eng(char buf[REPORT_ENG_LEN], double v, const char *unit);

/* 10^(3k) with k the SI prefix index of |v| (1 for zero), and the prefix. */
double report_eng_scale(double v, const char **prefix);

/* Reports an allocation failure while writing c->path. */
gp_status report_nomem(const report_ctx *c);
/* Reports a failed write of c->path, with errno's reason. */
gp_status report_write_failed(const report_ctx *c, int err);

/* The writers of report_write_all's files, each to an open stream. */
gp_status report_hotspots_file(FILE *out, const report_ctx *c);
gp_status report_instances_file(FILE *out, const report_ctx *c);
gp_status report_cells_file(FILE *out, const report_ctx *c);
gp_status report_waveform_csv_file(FILE *out, const report_ctx *c);
gp_status report_vcd_file(FILE *out, const report_ctx *c);
gp_status report_svg_file(FILE *out, const report_ctx *c);
/* waveform.fst, which fstapi opens itself. */
gp_status report_fst_file(const report_ctx *c);

/* The waveform files' time unit: the largest of 1 fs, 1 ps, ..., 1 s that
 * divides both t0 and T, so that every cycle start is a whole number of
 * units; its exponent (-15 ... 0) and its size in fs. */
int report_time_unit(const power_result *r, int64_t *unit_fs);

/* The signals of the waveform files: the five components and the total. */
enum { REPORT_WAVE_SIGNALS = POWER_COMPONENTS + 1 };
extern const char *const report_wave_names[REPORT_WAVE_SIGNALS];
/* The signals' values in one cycle, W. */
void report_wave_values(const power_result *r, uint32_t cycle, double out[REPORT_WAVE_SIGNALS]);

#endif
