/* report_svg.c: waveform.svg, a plot of the per-cycle power: the total and
 * the components (glitch as one series, left out when glitch analysis is
 * off) as step lines over time, a dashed line at the average total drawn
 * over them, axes with ticks in engineering units, the peak marked and
 * annotated, a legend.
 *
 * Downsampling: with more than REPORT_SVG_MAX_POINTS cycles, the cycles are
 * cut into REPORT_SVG_MAX_POINTS columns of consecutive cycles (column k:
 * cycles [k*n/m, (k+1)*n/m)); each series draws its mean over a column's
 * cycles, which reads as the trend at any cycle count, and a grey band
 * spans the total's least to largest value in the column, so that no
 * peak disappears; the subtitle says so. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "report/report_int.h"
#include "util/mem.h"

/* The page and the plot area, in SVG user units (px). */
enum { SVG_W = 1000, SVG_H = 560, PLOT_L = 90, PLOT_R = 970, PLOT_T = 70, PLOT_B = 470 };

enum { SERIES = 5 };
static const struct series {
    const char *name, *color;
    double width;
} series[SERIES] = {
    {"total", "#000000", 1.6},    {"internal", "#1f77b4", 1.0}, {"switching", "#ff7f0e", 1.0},
    {"leakage", "#2ca02c", 1.0},  {"glitch", "#d62728", 1.0},
};

enum { GLITCH_SERIES = 4 };
#define AVERAGE_COLOR "#7b3294" /* a purple no series uses */

typedef struct svg_plot {
    double t0, t1;      /* s, the time axis's ends */
    double p0, p1;      /* W, the power axis's ends (multiples of pstep) */
    double pstep;
    uint32_t n_cols;
    uint32_t n_cycles;
    int n_series;       /* SERIES, or without the glitch series */
    double *cols;       /* [n_cols * SERIES]: each column's mean per series */
    double *lo, *hi;    /* [n_cols]: each column's least and largest total */
} svg_plot;

static uint32_t col_first_cycle(const svg_plot *p, uint32_t k)
{
    return (uint32_t)((uint64_t)k * p->n_cycles / p->n_cols);
}

static bool downsampled(const svg_plot *p) { return p->n_cols < p->n_cycles; }

static void fill_columns(const power_result *r, svg_plot *p)
{
    for (uint32_t k = 0; k < p->n_cols; k++) {
        double *col = &p->cols[(size_t)k * SERIES];
        uint32_t first = col_first_cycle(p, k), end = col_first_cycle(p, k + 1);
        memset(col, 0, SERIES * sizeof *col);
        for (uint32_t b = first; b < end; b++) {
            double v[SERIES] = {
                report_bin_total(r, b), report_bin_power(r, b, POWER_INTERNAL),
                report_bin_power(r, b, POWER_SWITCHING), report_bin_power(r, b, POWER_LEAKAGE),
                report_bin_power(r, b, POWER_GLITCH_INTERNAL) +
                    report_bin_power(r, b, POWER_GLITCH_SWITCHING)};
            for (int s = 0; s < SERIES; s++)
                col[s] += v[s] / (end - first);
            p->lo[k] = b == first || v[0] < p->lo[k] ? v[0] : p->lo[k];
            p->hi[k] = b == first || v[0] > p->hi[k] ? v[0] : p->hi[k];
        }
    }
}

/* 1, 2 or 5 times a power of ten, giving about six intervals over span. */
static double nice_step(double span)
{
    double raw = span / 6.0, mag = pow(10.0, floor(log10(raw))), norm = raw / mag;
    return (norm < 1.5 ? 1.0 : norm < 3.0 ? 2.0 : norm < 7.0 ? 5.0 : 10.0) * mag;
}

/* The time axis spans the cycles; the power axis 0, every value drawn and
 * the average, widened to whole ticks. */
static void set_ranges(const power_result *r, svg_plot *p)
{
    p->t0 = report_cycle_start(r, 0);
    p->t1 = report_cycle_start(r, p->n_cycles);
    if (!(p->t1 > p->t0))
        p->t1 = p->t0 + report_period(r);
    double average[REPORT_COLS];
    report_total_columns(r, average);
    double lo = fmin(0, average[REPORT_COL_TOTAL]), hi = fmax(0, average[REPORT_COL_TOTAL]);
    for (size_t k = 0; k < (size_t)p->n_cols * SERIES; k++) {
        lo = fmin(lo, p->cols[k]);
        hi = fmax(hi, p->cols[k]);
    }
    for (uint32_t k = 0; k < p->n_cols; k++) {
        lo = fmin(lo, p->lo[k]);
        hi = fmax(hi, p->hi[k]);
    }
    if (!(hi > lo))
        hi = lo + 1.0;
    p->pstep = nice_step(hi - lo);
    p->p0 = floor(lo / p->pstep) * p->pstep;
    p->p1 = ceil(hi / p->pstep) * p->pstep;
}

static double px(const svg_plot *p, double t)
{
    return PLOT_L + (t - p->t0) / (p->t1 - p->t0) * (PLOT_R - PLOT_L);
}

static double py(const svg_plot *p, double w)
{
    return PLOT_B - (w - p->p0) / (p->p1 - p->p0) * (PLOT_B - PLOT_T);
}

/* Text with XML's special characters escaped. */
static void svg_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
    }
}

static void time_axis(FILE *out, const svg_plot *p)
{
    const char *prefix;
    double scale = report_eng_scale(fmax(fabs(p->t0), fabs(p->t1)), &prefix);
    double step = nice_step(p->t1 - p->t0);
    double first = ceil(p->t0 / step);
    for (int i = 0; (first + i) * step <= p->t1 + 1e-9 * step; i++) {
        double t = (first + i) * step, x = px(p, t);
        fprintf(out, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#000\"/>\n", x,
                PLOT_B, x, PLOT_B + 5);
        fprintf(out, "<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n", x, PLOT_B + 20,
                t / scale);
    }
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time (%ss)</text>\n",
            (PLOT_L + PLOT_R) / 2, PLOT_B + 42, prefix);
}

static void power_axis(FILE *out, const svg_plot *p)
{
    const char *prefix;
    double scale = report_eng_scale(fmax(fabs(p->p0), fabs(p->p1)), &prefix);
    int n_ticks = (int)lround((p->p1 - p->p0) / p->pstep);
    for (int i = 0; i <= n_ticks; i++) {
        double w = p->p0 + i * p->pstep, y = py(p, w);
        fprintf(out, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#ddd\"/>\n",
                PLOT_L, y, PLOT_R, y);
        fprintf(out, "<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\">%g</text>\n", PLOT_L - 8,
                y + 4, fabs(w) < 1e-9 * p->pstep ? 0.0 : w / scale);
    }
    fprintf(out,
            "<text transform=\"translate(%d,%d) rotate(-90)\" text-anchor=\"middle\">power "
            "(%sW)</text>\n",
            24, (PLOT_T + PLOT_B) / 2, prefix);
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                 "stroke=\"#000\"/>\n",
            PLOT_L, PLOT_T, PLOT_R - PLOT_L, PLOT_B - PLOT_T);
}

static double col_x(const power_result *r, const svg_plot *p, uint32_t k)
{
    return px(p, report_cycle_start(r, col_first_cycle(p, k)));
}

/* The total's least-to-largest band of the columns, as one polygon: the
 * tops left to right, the bottoms back. */
static void draw_band(FILE *out, const power_result *r, const svg_plot *p)
{
    fputs("<polygon fill=\"#d0d0d0\" stroke=\"none\" points=\"", out);
    for (uint32_t k = 0; k < p->n_cols; k++)
        fprintf(out, "%.2f,%.2f %.2f,%.2f ", col_x(r, p, k), py(p, p->hi[k]), col_x(r, p, k + 1),
                py(p, p->hi[k]));
    for (uint32_t k = p->n_cols; k-- > 0;)
        fprintf(out, "%.2f,%.2f %.2f,%.2f ", col_x(r, p, k + 1), py(p, p->lo[k]), col_x(r, p, k),
                py(p, p->lo[k]));
    fputs("\"/>\n", out);
}

/* Each series as a step line: column k is level from its first cycle's
 * start to the next column's. */
static void draw_series(FILE *out, const power_result *r, const svg_plot *p)
{
    for (int s = SERIES - 1; s >= 0; s--) { /* the total last, on top */
        if (s == GLITCH_SERIES && p->n_series < SERIES)
            continue;
        fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" points=\"",
                series[s].color, series[s].width);
        for (uint32_t k = 0; k < p->n_cols; k++) {
            double y = py(p, p->cols[(size_t)k * SERIES + s]);
            fprintf(out, "%.2f,%.2f %.2f,%.2f ", col_x(r, p, k), y, col_x(r, p, k + 1), y);
        }
        fputs("\"/>\n", out);
    }
}

static void draw_average(FILE *out, const power_result *r, const svg_plot *p)
{
    double total[REPORT_COLS];
    report_total_columns(r, total);
    double y = py(p, total[REPORT_COL_TOTAL]);
    fprintf(out, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"%s\" "
                 "stroke-width=\"1.4\" stroke-dasharray=\"7,4\"/>\n",
            PLOT_L, y, PLOT_R, y, AVERAGE_COLOR);
}

static void draw_peak(FILE *out, const power_result *r, const svg_plot *p)
{
    uint32_t cycle;
    double peak = report_peak(r, &cycle);
    double x = px(p, report_cycle_start(r, cycle) + report_period(r) / 2), y = py(p, peak);
    char a[REPORT_ENG_LEN], b[REPORT_ENG_LEN];
    bool right = x > (PLOT_L + PLOT_R) / 2.0;
    double ty = y - 10 < PLOT_T + 14 ? y + 20 : y - 10;
    fprintf(out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"5\" fill=\"none\" stroke=\"#d62728\" "
                 "stroke-width=\"2\"/>\n",
            x, y);
    fprintf(out,
            "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\" font-weight=\"bold\">peak %s in cycle "
            "%" PRIu32 " at %s</text>\n",
            right ? x - 10 : x + 10, ty, right ? "end" : "start", report_eng(a, peak, "W"), cycle,
            report_eng(b, report_cycle_start(r, cycle), "s"));
}

static void draw_legend(FILE *out, const power_result *r, const svg_plot *p)
{
    double average[REPORT_COLS];
    char a[REPORT_ENG_LEN];
    report_total_columns(r, average);
    int x = PLOT_L, y = SVG_H - 18;
    for (int s = 0; s < p->n_series; s++, x += 110) {
        fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                     "stroke-width=\"%.1f\"/>\n",
                x, y - 4, x + 24, y - 4, series[s].color, series[s].width + 1);
        fprintf(out, "<text x=\"%d\" y=\"%d\">%s</text>\n", x + 30, y, series[s].name);
    }
    fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                 "stroke-width=\"1.4\" stroke-dasharray=\"7,4\"/>\n"
                 "<text x=\"%d\" y=\"%d\">average total %s</text>\n",
            x, y - 4, x + 24, y - 4, AVERAGE_COLOR, x + 30, y,
            report_eng(a, average[REPORT_COL_TOTAL], "W"));
    if (downsampled(p))
        fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"24\" height=\"10\" fill=\"#d0d0d0\"/>\n"
                     "<text x=\"%d\" y=\"%d\">total's range</text>\n",
                x + 200, y - 9, x + 230, y);
}

static void draw_titles(FILE *out, const report_ctx *c, const svg_plot *p)
{
    char a[REPORT_ENG_LEN];
    fputs("<text x=\"500\" y=\"28\" text-anchor=\"middle\" font-size=\"18\">Power waveform of ",
          out);
    svg_text(out, c->opt.design_name);
    char n[REPORT_COUNT_LEN];
    fprintf(out, "</text>\n<text x=\"500\" y=\"50\" text-anchor=\"middle\">power in each of "
                 "%s clock cycles of %s",
            report_count(n, p->n_cycles), report_eng(a, report_period(c->r), "s"));
    if (downsampled(p))
        fprintf(out, "; a step per %" PRIu32 " cycles: the lines their mean, the band the "
                     "total's range", (p->n_cycles + p->n_cols / 2) / p->n_cols);
    fputs("</text>\n", out);
}

static void write_svg(FILE *out, const report_ctx *c, svg_plot *p)
{
    fill_columns(c->r, p);
    set_ranges(c->r, p);
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                 "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
            SVG_W, SVG_H, SVG_W, SVG_H);
    fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", SVG_W, SVG_H);
    draw_titles(out, c, p);
    power_axis(out, p);
    time_axis(out, p);
    if (downsampled(p))
        draw_band(out, c->r, p);
    draw_series(out, c->r, p);
    draw_average(out, c->r, p); /* over the traces: it may run along the total's */
    if (p->n_cycles)
        draw_peak(out, c->r, p);
    draw_legend(out, c->r, p);
    fputs("</svg>\n", out);
}

gp_status report_svg_file(FILE *out, const report_ctx *c)
{
    svg_plot p = {.n_cycles = c->r->n_cycles, .n_series = c->opt.glitch ? SERIES : GLITCH_SERIES};
    p.n_cols = p.n_cycles < REPORT_SVG_MAX_POINTS ? p.n_cycles : REPORT_SVG_MAX_POINTS;
    p.cols = mem_alloc(((size_t)p.n_cols * SERIES + 1) * sizeof *p.cols);
    p.lo = mem_alloc(((size_t)p.n_cols + 1) * sizeof *p.lo);
    p.hi = mem_alloc(((size_t)p.n_cols + 1) * sizeof *p.hi);
    gp_status st = p.cols && p.lo && p.hi ? GP_OK : report_nomem(c);
    if (st == GP_OK)
        write_svg(out, c, &p);
    mem_free(p.cols);
    mem_free(p.lo);
    mem_free(p.hi);
    return st;
}
