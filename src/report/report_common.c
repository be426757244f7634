/* report_common.c: what every report writer uses: options, unit
 * conversions, the power columns, waveform bins, the peak and engineering
 * number formatting. */
#include <math.h>

#include "report/report_int.h"
#include "util/units.h"

report_options report_defaults(void)
{
    return (report_options){.design_name = NULL, .glitch = true,
                            .hotspots = REPORT_DEFAULT_HOTSPOTS};
}

report_options report_resolve_options(const report_options *opt)
{
    report_options o = opt ? *opt : report_defaults();
    if (!o.design_name)
        o.design_name = "design";
    if (o.hotspots <= 0)
        o.hotspots = REPORT_DEFAULT_HOTSPOTS;
    return o;
}

const char *report_group_name(power_group g)
{
    static const char *const names[POWER_GROUPS] = {
        [POWER_GROUP_SEQUENTIAL] = "sequential", [POWER_GROUP_COMBINATIONAL] = "combinational",
        [POWER_GROUP_CLOCK] = "clock", [POWER_GROUP_IO] = "io"};
    return (unsigned)g < POWER_GROUPS ? names[g] : "?";
}

const char *const report_col_names[REPORT_COLS] = {"internal", "switching", "leakage", "glitch",
                                                   "total"};

void report_columns(const double *energies, double seconds, double out[REPORT_COLS])
{
    out[REPORT_COL_INTERNAL] = energies[POWER_INTERNAL] / seconds;
    out[REPORT_COL_SWITCHING] = energies[POWER_SWITCHING] / seconds;
    out[REPORT_COL_LEAKAGE] = energies[POWER_LEAKAGE] / seconds;
    out[REPORT_COL_GLITCH] =
        (energies[POWER_GLITCH_INTERNAL] + energies[POWER_GLITCH_SWITCHING]) / seconds;
    out[REPORT_COL_TOTAL] = power_sum_components(energies) / seconds;
}

void report_total_columns(const power_result *r, double out[REPORT_COLS])
{
    double energies[POWER_COMPONENTS];
    for (int c = 0; c < POWER_COMPONENTS; c++)
        energies[c] = power_total_energy(r, (power_component)c);
    report_columns(energies, report_duration(r), out);
}

const char *report_count(char buf[REPORT_COUNT_LEN], uint64_t n)
{
    char digits[24];
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n), at = 0;
    for (int k = 0; k < len; k++) {
        if (k > 0 && (len - k) % 3 == 0)
            buf[at++] = ',';
        buf[at++] = digits[k];
    }
    buf[at] = '\0';
    return buf;
}

/* A division, not a multiplication by 1e-15: whole fs below 2^53 give the
 * correctly rounded number of seconds. */
double report_seconds(int64_t fs) { return (double)fs / GP_FS_PER_S; }

double report_duration(const power_result *r) { return r->duration > 0 ? r->duration : 1.0; }

double report_period(const power_result *r)
{
    return r->period_fs > 0 ? report_seconds(r->period_fs) : 1.0;
}

double report_cycle_start(const power_result *r, uint32_t cycle)
{
    return report_seconds(r->window_start_fs + (int64_t)cycle * r->period_fs);
}

double report_bin_power(const power_result *r, uint32_t cycle, power_component c)
{
    return r->bin_energy[(size_t)cycle * POWER_COMPONENTS + c] / report_period(r);
}

double report_bin_total(const power_result *r, uint32_t cycle)
{
    return power_sum_components(&r->bin_energy[(size_t)cycle * POWER_COMPONENTS]) /
           report_period(r);
}

double report_peak(const power_result *r, uint32_t *cycle)
{
    uint32_t best = 0;
    double peak = r->n_cycles ? report_bin_total(r, 0) : 0.0;
    for (uint32_t b = 1; b < r->n_cycles; b++) {
        double p = report_bin_total(r, b);
        if (p > peak) {
            peak = p;
            best = b;
        }
    }
    if (cycle)
        *cycle = best;
    return peak;
}

double report_eng_scale(double v, const char **prefix)
{
    static const char *const prefixes[] = {"a", "f", "p", "n", "u", "m", "", "k", "M", "G", "T"};
    enum { UNIT_INDEX = 6, LAST = 10 };
    int k = UNIT_INDEX;
    double a = fabs(v);
    if (a > 0 && isfinite(a)) {
        k = UNIT_INDEX + (int)floor(log10(a) / 3.0);
        /* 999.9996 would print as "1000.000": take the next prefix. */
        if (a / pow(10.0, 3.0 * (k - UNIT_INDEX)) >= 999.9995)
            k++;
        k = k < 0 ? 0 : k > LAST ? LAST : k;
    }
    *prefix = prefixes[k];
    return pow(10.0, 3.0 * (k - UNIT_INDEX));
}

const char *report_eng(char buf[REPORT_ENG_LEN], double v, const char *unit)
{
    if (v == 0) {
        snprintf(buf, REPORT_ENG_LEN, "0 %s", unit);
        return buf;
    }
    const char *prefix;
    double scale = report_eng_scale(v, &prefix);
    snprintf(buf, REPORT_ENG_LEN, "%.3f %s%s", v / scale, prefix, unit);
    return buf;
}

const char *const report_wave_names[REPORT_WAVE_SIGNALS] = {
    "internal_W", "switching_W", "leakage_W", "glitch_internal_W", "glitch_switching_W",
    "total_W"};

void report_wave_values(const power_result *r, uint32_t cycle, double out[REPORT_WAVE_SIGNALS])
{
    for (int c = 0; c < POWER_COMPONENTS; c++)
        out[c] = report_bin_power(r, cycle, (power_component)c);
    out[POWER_COMPONENTS] = report_bin_total(r, cycle);
}

int report_time_unit(const power_result *r, int64_t *unit_fs)
{
    int exponent = 0;
    int64_t unit = 1000000000000000; /* 1 s in fs */
    while (unit > 1 && (r->window_start_fs % unit != 0 || r->period_fs % unit != 0)) {
        unit /= 1000;
        exponent -= 3;
    }
    *unit_fs = unit;
    return exponent;
}
