/* report_text.c: report.txt (the analysis's header and the report_power-
 * style table of groups by components) and hotspots.txt (the instances of
 * highest total power). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_int.h"
#include "util/mem.h"

enum { LABEL_WIDTH = 15, VALUE_WIDTH = 14, PERCENT_WIDTH = 12 };

/* `part` as a percentage of `whole`, or "-" when the whole is zero. */
static const char *percent(char buf[REPORT_ENG_LEN], double part, double whole)
{
    if (whole == 0)
        return "-";
    snprintf(buf, REPORT_ENG_LEN, "%.2f", 100.0 * part / whole);
    return buf;
}

static void table_row(FILE *out, const char *label, const double cols[REPORT_COLS],
                      const char *pct)
{
    char buf[REPORT_ENG_LEN];
    fprintf(out, "%-*s", LABEL_WIDTH, label);
    for (int k = 0; k < REPORT_COLS; k++)
        fprintf(out, "%*s", VALUE_WIDTH, report_eng(buf, cols[k], "W"));
    fprintf(out, "%*s\n", PERCENT_WIDTH, pct);
}

static void table_rule(FILE *out)
{
    for (int i = 0; i < LABEL_WIDTH + REPORT_COLS * VALUE_WIDTH + PERCENT_WIDTH; i++)
        fputc('-', out);
    fputc('\n', out);
}

static void write_table(FILE *out, const power_result *r)
{
    double total[REPORT_COLS], cols[REPORT_COLS];
    char buf[REPORT_ENG_LEN];
    report_total_columns(r, total);
    fprintf(out, "%-*s", LABEL_WIDTH, "Group");
    static const char *const heads[REPORT_COLS] = {"Internal", "Switching", "Leakage", "Glitch",
                                                   "Total"};
    for (int k = 0; k < REPORT_COLS; k++)
        fprintf(out, "%*s", VALUE_WIDTH, heads[k]);
    fprintf(out, "%*s\n", PERCENT_WIDTH, "% of total");
    table_rule(out);
    for (int g = 0; g < POWER_GROUPS; g++) {
        report_columns(r->group_energy[g], report_duration(r), cols);
        bool excluded = g == POWER_GROUP_IO && !r->include_io;
        table_row(out, report_group_name((power_group)g), cols,
                  excluded ? "excluded" : percent(buf, cols[REPORT_COL_TOTAL],
                                                  total[REPORT_COL_TOTAL]));
    }
    table_rule(out);
    table_row(out, "total", total, percent(buf, total[REPORT_COL_TOTAL], total[REPORT_COL_TOTAL]));
}

/* The lines on glitches, IO and the peak. */
static void write_findings(FILE *out, const power_result *r, const report_options *o)
{
    char a[REPORT_ENG_LEN], b[REPORT_ENG_LEN], c[REPORT_ENG_LEN];
    double gi = power_total_energy(r, POWER_GLITCH_INTERNAL) / report_duration(r);
    double gs = power_total_energy(r, POWER_GLITCH_SWITCHING) / report_duration(r);
    fprintf(out, "  glitch analysis  %s\n",
            o->glitch ? "on: glitch events scaled by r_gl and reported as glitch power"
                      : "off: glitch events counted as internal and switching power, unscaled");
    fprintf(out, "  glitch power     %s = internal %s + switching %s\n",
            report_eng(a, gi + gs, "W"), report_eng(b, gi, "W"), report_eng(c, gs, "W"));
    fprintf(out, "  I/O              primary-input switching %s, %s\n",
            report_eng(a, r->io_switching / report_duration(r), "W"),
            r->include_io ? "included in the total"
                          : "not in the total (--include-io counts it)");
    uint32_t cycle;
    double peak = report_peak(r, &cycle);
    fprintf(out, "  peak             %s in cycle %" PRIu32 ", which starts at %s\n",
            report_eng(a, peak, "W"), cycle, report_eng(b, report_cycle_start(r, cycle), "s"));
}

/* The activities a combined result adds up, a line each. */
static void write_activities(FILE *out, const report_options *o)
{
    if (o->n_activities == 0)
        return;
    char a[REPORT_ENG_LEN], b[REPORT_ENG_LEN], c[REPORT_ENG_LEN], n[REPORT_COUNT_LEN];
    fprintf(out, "Activities (the combination below takes their cycles one after the other)\n");
    fprintf(out, "  %-30s %10s %12s %*s %*s\n", "activity", "cycles", "duration", VALUE_WIDTH,
            "total", VALUE_WIDTH, "peak");
    for (int k = 0; k < o->n_activities; k++) {
        const power_result *r = o->activities[k].r;
        double cols[REPORT_COLS];
        report_total_columns(r, cols);
        uint32_t cycle;
        fprintf(out, "  %-30s %10s %12s %*s %*s\n", o->activities[k].name,
                report_count(n, r->n_cycles), report_eng(a, r->duration, "s"), VALUE_WIDTH,
                report_eng(b, cols[REPORT_COL_TOTAL], "W"), VALUE_WIDTH,
                report_eng(c, report_peak(r, &cycle), "W"));
    }
    fputc('\n', out);
}

void report_write_text(FILE *out, const design *dg, const power_result *r,
                       const report_options *opt)
{
    report_options o = report_resolve_options(opt);
    char a[REPORT_ENG_LEN], b[REPORT_ENG_LEN], c[REPORT_ENG_LEN];
    fprintf(out, "gatepower power report: %s\n\n", o.design_name);
    write_activities(out, &o);
    char n[REPORT_COUNT_LEN];
    fprintf(out, "  instances        %s\n", report_count(n, dg->n_insts));
    fprintf(out, "  window           %s .. %s (%s)\n",
            report_eng(a, report_seconds(r->window_start_fs), "s"),
            report_eng(b, report_seconds(r->window_end_fs), "s"),
            report_eng(c, report_seconds(r->window_end_fs - r->window_start_fs), "s"));
    fprintf(out, "  period           %s\n", report_eng(a, report_seconds(r->period_fs), "s"));
    fprintf(out, "  cycles           %s\n", report_count(n, r->n_cycles));
    fprintf(out, "  events costed    %s\n", report_count(n, r->events_used));
    write_findings(out, r, &o);
    fputc('\n', out);
    write_table(out, r);
}

typedef struct ranked {
    double total; /* W */
    uint32_t inst;
} ranked;

/* Total descending, then instance order. */
static int by_total(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    if (a->total != b->total)
        return a->total > b->total ? -1 : 1;
    return (a->inst > b->inst) - (a->inst < b->inst);
}

static size_t longest_name(const report_ctx *c, const ranked *rows, uint32_t n, bool cells)
{
    size_t width = cells ? strlen("cell") : strlen("instance");
    for (uint32_t k = 0; k < n; k++) {
        const char *s = cells ? c->dg->inst_cell[rows[k].inst]->name
                              : design_inst_name(c->dg, rows[k].inst);
        size_t len = strlen(s);
        width = len > width ? len : width;
    }
    return width;
}

/* Whether row a goes after row b (by_total), for a heap whose root is the
 * last of the rows kept. */
static bool ranks_after(const ranked *a, const ranked *b) { return by_total(a, b) > 0; }

static void sift_down(ranked *heap, uint32_t n, uint32_t k)
{
    for (uint32_t child; (child = 2 * k + 1) < n; k = child) {
        if (child + 1 < n && ranks_after(&heap[child + 1], &heap[child]))
            child++;
        if (!ranks_after(&heap[child], &heap[k]))
            return;
        ranked t = heap[k];
        heap[k] = heap[child];
        heap[child] = t;
    }
}

/* The n instances of most total power into rows[0..n), in by_total's
 * order: a heap of the n kept so far, its root the last of them. */
static void top_instances(const report_ctx *c, ranked *rows, uint32_t n)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < c->dg->n_insts; i++) {
        ranked row = {power_sum_components(&c->r->inst_energy[(size_t)i * POWER_COMPONENTS]) /
                          report_duration(c->r),
                      i};
        if (kept < n) {
            rows[kept++] = row;
            for (uint32_t k = kept - 1; k > 0 && ranks_after(&rows[k], &rows[(k - 1) / 2]);
                 k = (k - 1) / 2) {
                ranked t = rows[k];
                rows[k] = rows[(k - 1) / 2];
                rows[(k - 1) / 2] = t;
            }
        } else if (n > 0 && ranks_after(&rows[0], &row)) {
            rows[0] = row;
            sift_down(rows, n, 0);
        }
    }
    qsort(rows, kept, sizeof *rows, by_total);
}

gp_status report_hotspots_file(FILE *out, const report_ctx *c)
{
    const design *dg = c->dg;
    uint32_t n = dg->n_insts < (uint32_t)c->opt.hotspots ? dg->n_insts : (uint32_t)c->opt.hotspots;
    ranked *rows = mem_alloc((n ? n : 1) * sizeof *rows);
    if (!rows)
        return report_nomem(c);
    top_instances(c, rows, n);
    double total[REPORT_COLS];
    char a[REPORT_ENG_LEN], b[REPORT_ENG_LEN];
    report_total_columns(c->r, total);
    fprintf(out, "Top %" PRIu32 " of %" PRIu32 " instances by total power (design total %s)\n\n",
            n, dg->n_insts, report_eng(a, total[REPORT_COL_TOTAL], "W"));
    int wi = (int)longest_name(c, rows, n, false), wc = (int)longest_name(c, rows, n, true);
    fprintf(out, "%6s  %-*s  %-*s  %*s  %10s\n", "rank", wi, "instance", wc, "cell", VALUE_WIDTH,
            "total", "% of total");
    for (uint32_t k = 0; k < n; k++)
        fprintf(out, "%6" PRIu32 "  %-*s  %-*s  %*s  %10s\n", k + 1, wi,
                design_inst_name(dg, rows[k].inst), wc, dg->inst_cell[rows[k].inst]->name,
                VALUE_WIDTH, report_eng(a, rows[k].total, "W"),
                percent(b, rows[k].total, total[REPORT_COL_TOTAL]));
    mem_free(rows);
    return GP_OK;
}
